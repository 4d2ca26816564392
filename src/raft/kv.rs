//! The replicated state machine: a key-value store. Raft orders the writes;
//! every member applies them in log order and ends with the same map.
//!
//! Like etcd's backend, it also holds the cluster's membership (etcd keeps
//! its "members" and "members_removed" buckets beside the keys), so a
//! snapshot carries both and a member that catches up by snapshot learns who
//! its peers are.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use crate::raft::heap::Meter;
use crate::raft::types::{NodeId, Put};

/// One member as the applied membership records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberRecord {
    pub peer_url: Rc<str>,
    /// The host the peer URL reaches, resolved once when the member is
    /// added (the simulated network routes by it on every message).
    pub host: Option<NodeId>,
    pub learner: bool,
    /// The member's process has published itself (etcd: it has a name).
    pub started: bool,
}

/// Bytes of bookkeeping each key costs, so an empty value still weighs something.
const KEY_OVERHEAD_BYTES: u64 = 16;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KvStore {
    /// key -> (value, size in bytes of the write that set it)
    map: BTreeMap<String, (String, u64)>,
    bytes: u64,
    /// The members bucket: every current member.
    pub members: BTreeMap<NodeId, MemberRecord>,
    /// The members_removed bucket: ids that can never come back.
    pub removed: BTreeSet<NodeId>,
}

impl KvStore {
    pub fn apply_put(&mut self, put: &Put) {
        let weight = KEY_OVERHEAD_BYTES + put.size;
        if let Some((_, old)) = self
            .map
            .insert(put.key.clone(), (put.value.clone(), put.size))
        {
            self.bytes -= KEY_OVERHEAD_BYTES + old;
        }
        self.bytes += weight;
    }

    /// Counts what the store owns in memory (not its simulated `bytes`:
    /// a write's size is a number, its value a short text).
    pub fn heap_size(&self, m: &mut Meter) {
        m.btree_map(&self.map);
        for (k, (v, _)) in &self.map {
            m.string(k);
            m.string(v);
        }
        m.btree_map(&self.members);
        for r in self.members.values() {
            m.shared_str(&r.peer_url);
        }
        m.btree_set(&self.removed);
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.map.get(key).map(|(v, _)| v.as_str())
    }

    /// The state's size: what a snapshot of it costs to send.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.map.iter().map(|(k, (v, _))| (k.as_str(), v.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put(key: &str, value: &str, size: u64) -> Put {
        Put {
            key: key.into(),
            value: value.into(),
            size,
            request: 0,
        }
    }

    #[test]
    fn overwriting_a_key_replaces_its_weight() {
        let mut kv = KvStore::default();
        kv.apply_put(&put("a", "1", 100));
        kv.apply_put(&put("b", "2", 10));
        assert_eq!(kv.bytes(), 2 * KEY_OVERHEAD_BYTES + 110);
        kv.apply_put(&put("a", "3", 1));
        assert_eq!(kv.get("a"), Some("3"));
        assert_eq!(kv.bytes(), 2 * KEY_OVERHEAD_BYTES + 11);
        assert_eq!(kv.len(), 2);
    }
}
