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

use std::rc::Rc;

use crate::collections::heap::{HeapSize, Meter};
use crate::collections::vecmap::{VecMap, VecSet};
use crate::raft::{ConfChange, ConfChangeV2, EntryData, NodeId, Opaque, Snapshot};
use crate::sim::mvcc::{MvccError, MvccImage, MvccStore};

/// A client write replicated through the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Put {
    /// Shared with the client's history of what it sent.
    pub key: Rc<str>,
    /// Shared by every member's store that applies it.
    pub value: Rc<str>,
    /// Bytes this write weighs on the wire and in the state machine.
    pub size: u64,
    /// Unique id the server layer gives the request, to match the commit
    /// back to the client that is waiting for it.
    pub request: u64,
}

/// A client's delete of one key (etcd's `DeleteRangeRequest` without a
/// range end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delete {
    pub key: String,
    pub request: u64,
}

/// A client's MVCC compaction (etcd's `CompactionRequest`, etcdctl
/// `compaction REV`): not the Raft log's compaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compaction {
    pub rev: u64,
    pub request: u64,
}

/// What a normal log entry carries for etcd's server (etcd's
/// `InternalRaftRequest`, the entry's `Data`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    Put(Put),
    Delete(Delete),
    Compaction(Compaction),
    /// A started member announcing itself (etcd's publish of its
    /// attributes): once applied, the member counts as "started".
    Publish(NodeId),
}

/// Bytes a publish request weighs on the wire.
const PUBLISH_BYTES: u64 = 32;
/// Bytes of a delete or compaction request beside its key.
const SMALL_REQUEST_BYTES: u64 = 16;

impl Request {
    /// The log entry that carries this request.
    pub fn entry(self) -> EntryData {
        let size = match &self {
            Request::Put(p) => p.size,
            Request::Delete(d) => SMALL_REQUEST_BYTES + d.key.len() as u64,
            Request::Compaction(_) => SMALL_REQUEST_BYTES,
            Request::Publish(_) => PUBLISH_BYTES,
        };
        EntryData::Normal(Opaque::metered(self, size))
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
pub struct PeerUrls {
    pub urls: Vec<(NodeId, Rc<str>)>,
    /// The members carry their names: the founding members of
    /// `--initial-cluster` do (etcd's `NewClusterFromURLsMap` gives each its
    /// name), a member added later does not until it publishes itself.
    pub named: bool,
}

impl PeerUrls {
    /// The context of a change naming these members.
    pub fn context(list: Vec<(NodeId, Rc<str>)>) -> Opaque {
        let size = list.iter().map(|(_, u)| u.len() as u64).sum();
        Opaque::metered(
            PeerUrls {
                urls: list,
                named: false,
            },
            size,
        )
    }

    /// The context of a change naming one member.
    pub fn one(id: NodeId, url: &str) -> Opaque {
        PeerUrls::context(vec![(id, Rc::from(url))])
    }

    /// The context of a founding member's change at bootstrap: its peer
    /// URL and its name (etcd's `StartNode` marshals the whole member).
    pub fn founding(id: NodeId, url: &str) -> Opaque {
        let size = url.len() as u64;
        Opaque::metered(
            PeerUrls {
                urls: vec![(id, Rc::from(url))],
                named: true,
            },
            size,
        )
    }

    /// The peer URLs a change's context carries (none if it carries none).
    pub fn of(context: &Opaque) -> &[(NodeId, Rc<str>)] {
        context.get::<PeerUrls>().map_or(&[], |p| &p.urls)
    }

    /// Whether a change's members carry their names (founding members).
    pub fn named(context: &Opaque) -> bool {
        context.get::<PeerUrls>().is_some_and(|p| p.named)
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
    /// The member has a name, etcd's `IsStarted`: a founding member from
    /// the start, a member added later once its process has published
    /// itself. The strict reconfiguration check counts these.
    pub started: bool,
    /// Its process has published itself (etcd's `publish`: its name and
    /// client URLs), which a founding member does too once it runs.
    pub published: bool,
}

/// A read of one key (etcd's `RangeResponse`): its value and the revision
/// that wrote it, if the key existed at the revision read, and the store's
/// revision (the response header's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRead {
    pub value: Option<String>,
    pub mod_revision: Option<u64>,
    pub revision: u64,
}

/// The applied state (etcd's backend): the multi-version key-value store
/// and the members buckets.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KvStore {
    /// The keys, their history and revisions (etcd's mvcc store).
    pub mvcc: MvccStore,
    /// The members bucket: every current member.
    pub members: VecMap<NodeId, MemberRecord>,
    /// The members_removed bucket: ids that can never come back.
    pub removed: VecSet<NodeId>,
}

/// What a snapshot carries of the applied state (etcd's snapshot is its
/// backend database: the key bucket by revision and the members buckets).
/// The store's index is not in it; a member that installs it rebuilds the
/// index from the records, as etcd's `store.Restore` does.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KvImage {
    pub mvcc: MvccImage,
    pub members: VecMap<NodeId, MemberRecord>,
    pub removed: VecSet<NodeId>,
}

impl KvStore {
    /// This state as a snapshot's data: an image sharing the store's
    /// records. It weighs what the live keys weigh ([`KvStore::bytes`]).
    pub fn snapshot_data(&self) -> Opaque {
        let image = KvImage {
            mvcc: self.mvcc.image(),
            members: self.members.clone(),
            removed: self.removed.clone(),
        };
        Opaque::metered(image, self.bytes())
    }

    /// The state a snapshot holds (the empty state for a snapshot without
    /// data, as at a cluster's start).
    pub fn of_snapshot(snap: &Snapshot) -> KvStore {
        snap.data
            .get::<KvImage>()
            .map(|image| KvStore {
                mvcc: MvccStore::restore(&image.mvcc),
                members: image.members.clone(),
                removed: image.removed.clone(),
            })
            .unwrap_or_default()
    }

    /// Applies a put; returns the revision it got.
    pub fn apply_put(&mut self, put: &Put) -> u64 {
        self.mvcc.put(&put.key, Rc::clone(&put.value), put.size)
    }

    /// A key's value now.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.mvcc.latest(key).map(|r| &*r.value)
    }

    /// A read of `key` at revision `rev` (0: now), as etcd's Range on one
    /// key answers it.
    pub fn read(&self, key: &str, rev: u64) -> Result<KeyRead, MvccError> {
        let kv = self.mvcc.get(key, rev)?;
        Ok(KeyRead {
            value: kv.as_ref().map(|kv| kv.value.to_string()),
            mod_revision: kv.map(|kv| kv.mod_revision),
            revision: self.mvcc.rev(),
        })
    }

    /// The state's size: the live keys' latest values, each with its
    /// bookkeeping; what a snapshot of it costs to send. The history the
    /// store keeps is not counted (see docs/mvcc.md).
    pub fn bytes(&self) -> u64 {
        self.mvcc.bytes()
    }

    pub fn len(&self) -> usize {
        self.mvcc.len()
    }

    pub fn is_empty(&self) -> bool {
        self.mvcc.is_empty()
    }

    /// Every live key and its value, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.mvcc.iter().map(|(_, r)| (&*r.key, &*r.value))
    }
}

// ---- what the session's memory meter counts (`Session::memory_bytes`) ----

impl HeapSize for Request {
    fn heap_size(&self, m: &mut Meter) {
        match self {
            Request::Put(p) => {
                m.shared_str(&p.key);
                m.shared_str(&p.value);
            }
            Request::Delete(d) => m.string(&d.key),
            Request::Compaction(_) | Request::Publish(_) => {}
        }
    }
}

impl HeapSize for PeerUrls {
    fn heap_size(&self, m: &mut Meter) {
        m.vec(&self.urls);
        for (_, url) in &self.urls {
            m.shared_str(url);
        }
    }
}

fn members_heap_size(
    members: &VecMap<NodeId, MemberRecord>,
    removed: &VecSet<NodeId>,
    m: &mut Meter,
) {
    members.heap_size(m);
    for r in members.values() {
        m.shared_str(&r.peer_url);
    }
    removed.heap_size(m);
}

impl HeapSize for KvImage {
    fn heap_size(&self, m: &mut Meter) {
        self.mvcc.heap_size(m);
        members_heap_size(&self.members, &self.removed, m);
    }
}

impl KvStore {
    /// Counts what the store owns in memory (not its simulated `bytes`:
    /// a write's size is a number, its value a short text).
    pub fn heap_size(&self, m: &mut Meter) {
        self.mvcc.heap_size(m);
        members_heap_size(&self.members, &self.removed, m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::mvcc::KEY_OVERHEAD_BYTES;

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

    #[test]
    fn a_snapshot_carries_the_history_and_the_members() {
        let mut kv = KvStore::default();
        assert_eq!(kv.apply_put(&put("a", "1", 10)), 2);
        assert_eq!(kv.apply_put(&put("a", "2", 10)), 3);
        kv.removed.insert(7);
        let snap = Snapshot {
            data: kv.snapshot_data(),
            ..Snapshot::default()
        };
        assert_eq!(snap.size(), KEY_OVERHEAD_BYTES + 10);
        let back = KvStore::of_snapshot(&snap);
        assert_eq!(back.mvcc.rev(), 3);
        assert_eq!(back.get("a"), Some("2"));
        assert_eq!(back.mvcc.get("a", 2).unwrap().unwrap().value.as_ref(), "1");
        assert_eq!(back.removed, kv.removed);
        assert_eq!(
            KvStore::of_snapshot(&Snapshot::default()),
            KvStore::default()
        );
    }
}
