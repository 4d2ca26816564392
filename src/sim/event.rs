//! The world's event stream: what happened, when, structured for drawing,
//! narration and tests. The sentences are made by the front end's renderer
//! (`scenario::text_en` in English), never here.

use crate::raft::{ConfChange, ConfChangeV2, MessageType, NodeId, RaftEvent};
use crate::sim::kv::KeyRead;
use crate::sim::membership::MemberError;
use crate::sim::mvcc::MvccError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropReason {
    /// The link from sender to receiver is cut.
    LinkCut,
    /// The receiver's process is down (or was never started).
    NodeDown,
    /// The sender's URL for the receiver names no simulated host.
    NoRoute,
    /// The sender was removed from the cluster; peers refuse it.
    SenderRemoved,
    /// Lost at random (a fault injected by the scenario).
    Lost,
}

#[derive(Debug, Clone, PartialEq)]
pub enum EventKind {
    /// Something inside one node's Raft.
    Raft {
        node: NodeId,
        event: RaftEvent,
    },
    /// A client write took effect on `node`.
    PutApplied {
        node: NodeId,
        index: u64,
        request: u64,
    },
    /// A membership change was applied on `node`, or refused there by etcd's checks.
    ConfChangeApplied {
        node: NodeId,
        index: u64,
        change: ConfChange,
        refused: Option<MemberError>,
    },
    /// A joint membership change (several members at once) was applied on
    /// `node`, or refused there by the membership checks.
    JointChangeApplied {
        node: NodeId,
        index: u64,
        change: ConfChangeV2,
        refused: Option<MemberError>,
    },
    /// A member's announcement of itself was applied on `node`.
    PublishApplied {
        node: NodeId,
        member: NodeId,
    },
    /// A delete was applied on `node`: `deleted` keys (0 or 1) at store
    /// revision `revision`.
    DeleteApplied {
        node: NodeId,
        index: u64,
        request: u64,
        deleted: u64,
        revision: u64,
    },
    /// An MVCC compaction was applied on `node`, or refused there with
    /// etcd's error (`compacted`, `future-rev`).
    CompactionApplied {
        node: NodeId,
        index: u64,
        request: u64,
        rev: u64,
        refused: Option<MvccError>,
    },
    /// A linearizable read is served on `node`.
    ReadServed {
        node: NodeId,
        request: u64,
        read: Result<KeyRead, MvccError>,
    },
    /// `node` took a snapshot of its state at `index` and compacted its log.
    Compacted {
        node: NodeId,
        index: u64,
    },
    MessageDropped {
        from: NodeId,
        to: NodeId,
        kind: MessageType,
        reason: DropReason,
    },
    Crashed {
        node: NodeId,
    },
    Started {
        node: NodeId,
    },
    /// `node` learned it was removed and stopped itself for good: a peer
    /// refused it as removed, or (`delayed`) the moment after it applied its
    /// own removal ran out (etcd's `stopWithDelay`).
    StoppedRemoved {
        node: NodeId,
        delayed: bool,
    },
    LinkCut {
        from: NodeId,
        to: NodeId,
    },
    LinkHealed {
        from: NodeId,
        to: NodeId,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub time_ms: u64,
    pub kind: EventKind,
}
