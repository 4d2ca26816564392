//! One simulated etcd process: its Raft node when running, what survives a
//! crash, and its applied state machine.

use crate::raft::{NodeId, Raft, Storage};
use crate::sim::kv::KvStore;

/// What a linearizable read reads once its member applied the read index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadOf {
    /// A key at store revision `rev` (0: the latest): etcd's Range.
    Key { key: String, rev: u64 },
    /// The member list: etcd's MemberList, linearizable since v3.6
    /// (`linearizableReadNotify`, then the member's applied membership).
    Members,
    /// Whether a downgrade is enabled, asked by the process of new member
    /// `asker` before it starts raft (etcd 3.5 on: the peer handler of
    /// `/downgrade/enabled` serves it after `linearizableReadNotify`).
    Downgrade { asker: NodeId },
}

/// A linearizable read waiting for its member to apply the read index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingRead {
    pub request: u64,
    /// The leader's confirmed commit index; 0 until it is confirmed.
    pub index: u64,
    pub of: ReadOf,
}

#[derive(Debug, Clone)]
pub struct SimNode {
    pub id: NodeId,
    /// The running Raft node; `None` while the process is down.
    pub raft: Option<Raft>,
    /// What survived the last crash (term, vote, commit, log, snapshot).
    /// Only meaningful while the process is down.
    pub durable: Storage,
    /// The applied state machine: volatile, rebuilt from the snapshot and
    /// the log when the process starts again.
    pub state: KvStore,
    /// When the current process started; `None` while down.
    pub started_at: Option<u64>,
    /// Removed from the cluster and stopped for good.
    pub removed: bool,
    /// Bumped at every start, so timers of a previous life are ignored.
    pub epoch: u64,
    /// Linearizable reads waiting for the node to apply their read index.
    pub pending_reads: Vec<PendingRead>,
    /// When this process last proposed to publish itself.
    pub last_publish_ms: Option<u64>,
}

impl SimNode {
    pub fn new(id: NodeId, durable: Storage) -> SimNode {
        SimNode {
            id,
            raft: None,
            durable,
            state: KvStore::default(),
            started_at: None,
            removed: false,
            epoch: 0,
            pending_reads: Vec::new(),
            last_publish_ms: None,
        }
    }

    /// Counts the running node, what survived its last crash, its applied
    /// state and the reads waiting.
    pub fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        if let Some(r) = &self.raft {
            r.heap_size(m);
        }
        self.durable.heap_size(m);
        self.state.heap_size(m);
        m.vec(&self.pending_reads);
        for r in &self.pending_reads {
            if let ReadOf::Key { key, .. } = &r.of {
                m.string(key);
            }
        }
    }

    pub fn is_running(&self) -> bool {
        self.raft.is_some()
    }

    /// Whether this node's own applied membership lists it as a learner.
    pub fn is_learner(&self) -> bool {
        self.raft.as_ref().map_or_else(
            || self.state.members.get(&self.id).is_some_and(|m| m.learner),
            |r| r.is_learner(),
        )
    }
}
