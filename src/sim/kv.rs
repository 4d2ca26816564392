//! The replicated state machine the simulated etcd processes apply, and what
//! they put in Raft's opaque payloads: a key-value store, the requests a
//! normal entry carries, the peer URLs a membership change carries. Raft
//! orders the writes without reading them (`raft::Opaque`); every member
//! applies them in log order and ends with the same map.
//!
//! Like etcd's backend, the store also holds the cluster's membership (etcd
//! keeps its "members" and "members_removed" buckets beside the keys), so a
//! snapshot carries both and a member that catches up by snapshot learns who
//! its peers are.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use crate::raft::{ConfChange, ConfChangeV2, EntryData, NodeId, Opaque, Snapshot};

/// A client write replicated through the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Put {
    pub key: String,
    pub value: String,
    /// Bytes this write weighs on the wire and in the state machine.
    pub size: u64,
    /// Unique id the server layer gives the request, to match the commit
    /// back to the client that is waiting for it.
    pub request: u64,
}

/// What a normal log entry carries for etcd's server (etcd's
/// `InternalRaftRequest`, the entry's `Data`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    Put(Put),
    /// A started member announcing itself (etcd's publish of its
    /// attributes): once applied, the member counts as "started".
    Publish(NodeId),
}

/// Bytes a publish request weighs on the wire.
const PUBLISH_BYTES: u64 = 32;

impl Request {
    /// The log entry that carries this request.
    pub fn entry(self) -> EntryData {
        let size = match &self {
            Request::Put(p) => p.size,
            Request::Publish(_) => PUBLISH_BYTES,
        };
        EntryData::Normal(Opaque::new(self, size))
    }

    /// The request a log entry carries (`None` for Raft's own entries).
    pub fn of(data: &EntryData) -> Option<&Request> {
        match data {
            EntryData::Normal(o) => o.get::<Request>(),
            _ => None,
        }
    }
}

/// What the server puts in a membership change's context: the peer URL of
/// each member it names (etcd carries the member's attributes there), so
/// every member learns them on apply.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PeerUrls(pub Vec<(NodeId, Rc<str>)>);

impl PeerUrls {
    /// The context of a change naming these members.
    pub fn context(list: Vec<(NodeId, Rc<str>)>) -> Opaque {
        let size = list.iter().map(|(_, u)| u.len() as u64).sum();
        Opaque::new(PeerUrls(list), size)
    }

    /// The context of a change naming one member.
    pub fn one(id: NodeId, url: &str) -> Opaque {
        PeerUrls::context(vec![(id, Rc::from(url))])
    }

    /// The peer URLs a change's context carries (none if it carries none).
    pub fn of(context: &Opaque) -> &[(NodeId, Rc<str>)] {
        context.get::<PeerUrls>().map_or(&[], |p| &p.0)
    }

    /// The peer URL a single change carries for its member ("" if none).
    pub fn single(cc: &ConfChange) -> Rc<str> {
        PeerUrls::of(&cc.context)
            .iter()
            .find(|(id, _)| *id == cc.node_id)
            .map_or_else(|| Rc::from(""), |(_, u)| u.clone())
    }

    /// The peer URLs a joint change carries.
    pub fn joint(cc: &ConfChangeV2) -> &[(NodeId, Rc<str>)] {
        PeerUrls::of(&cc.context)
    }
}

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
    /// This state as a snapshot's data (shared, not copied again).
    pub fn snapshot_data(state: Rc<KvStore>) -> Opaque {
        let size = state.bytes();
        Opaque::shared(state, size)
    }

    /// The state a snapshot holds (the empty state for a snapshot without
    /// data, as at a cluster's start).
    pub fn of_snapshot(snap: &Snapshot) -> KvStore {
        snap.data.get::<KvStore>().cloned().unwrap_or_default()
    }

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
