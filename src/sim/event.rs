//! The world's event stream: what happened, when, structured for drawing,
//! narration and tests. The sentences are made by the front end's renderer
//! (`words::text_en` in English), never here.

use crate::raft::{ConfChange, ConfChangeV2, MessageType, NodeId, RaftEvent};
use crate::sim::kv::KeyRead;
use crate::sim::membership::MemberError;
use crate::sim::mvcc::MvccError;

/// What a served linearizable read answered (`node::ReadOf` says what it
/// asked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Served {
    /// A key read at revision `rev` (0: the latest): its value then, or
    /// the store's refusal.
    Key {
        key: String,
        rev: u64,
        read: Result<KeyRead, MvccError>,
    },
    /// The member list: the member answers from its applied membership.
    Members,
    /// Whether a downgrade is enabled, for new member `asker`'s process
    /// (raftlab models none: the answer is no).
    Downgrade { asker: NodeId },
}

/// What a new member's process does before it starts raft, with one peer
/// (etcdserver `NewServer` for a member joining a cluster: the peers'
/// versions, `isCompatibleWithCluster`, and from etcd 3.5 on whether a
/// downgrade is enabled, `getDowngradeEnabledFromRemotePeers`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JoinStep {
    /// The peer is cut off from it: the peer round tripper's dial gives up
    /// after `ms` (`PeerDialTimeout`), and it goes on without that peer.
    Unreachable { ms: u64 },
    /// It asks the peer whether a downgrade is enabled: a linearizable read
    /// on the peer, which answers within the request timeout or not at all.
    Asks,
    /// The peer could not confirm the read within `ms` (no leader, or no
    /// quorum): it asks the next member.
    NoAnswer { ms: u64 },
    /// The peer's leader changed before it confirmed the read, which fails
    /// it (etcd's `ErrLeaderChanged` in `linearizableReadLoop`): it asks the
    /// next member.
    LeaderChanged,
}

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
    /// Dropped by hand (the scenario's `drop`, a click on its dot).
    ByHand,
}

#[derive(Debug, Clone, PartialEq)]
pub enum EventKind {
    /// The server's modes decided something on `leader` (`server::modes`).
    Mode {
        leader: NodeId,
        decision: ModeDecision,
    },
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
        read: Served,
    },
    /// New member `node`'s process, before it starts raft, with `peer`.
    Join {
        node: NodeId,
        peer: NodeId,
        step: JoinStep,
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
    /// Watch `watch` on `node` received `count` events, the last at store
    /// revision `revision` (etcd's `WatchResponse` with events).
    WatchEvents {
        node: NodeId,
        watch: u64,
        count: u64,
        revision: u64,
    },
    /// Watch `watch` on `node` was cancelled: the revision it wanted next
    /// had been compacted away (etcd sends `CompactRevision` and cancels).
    WatchCanceled {
        node: NodeId,
        watch: u64,
        compact_revision: u64,
    },
    /// A mirror process (`mirror start`, the server layer's `mirror.rs`)
    /// did something.
    Mirror(MirrorEvent),
}

/// What a mirror process (etcdctl `make-mirror`) did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MirrorEvent {
    /// Started copying from member `from` into member `to`'s cluster.
    Started {
        mirror: NodeId,
        from: NodeId,
        to: NodeId,
    },
    /// The base sync is done: `keys` keys as they were at source revision
    /// `revision`; it now watches from the next one.
    Synced {
        mirror: NodeId,
        revision: u64,
        keys: u64,
    },
    /// Relayed `count` watched writes, the last of source revision `revision`.
    Relayed {
        mirror: NodeId,
        count: u64,
        revision: u64,
    },
    /// Its watch stream through `peer` broke (a cut link, a stopped
    /// member); it had received up to source revision `revision`.
    Paused {
        mirror: NodeId,
        peer: NodeId,
        revision: u64,
    },
    /// Its watch opened again from source revision `revision`.
    Resumed { mirror: NodeId, revision: u64 },
    /// It ended with an error (the code, and etcd's text): etcdctl exits.
    Failed {
        mirror: NodeId,
        code: &'static str,
        error: &'static str,
    },
    /// `mirror stop`.
    Stopped { mirror: NodeId },
}

impl MirrorEvent {
    /// The mirror process it is about.
    pub fn mirror(&self) -> NodeId {
        match self {
            MirrorEvent::Started { mirror, .. }
            | MirrorEvent::Synced { mirror, .. }
            | MirrorEvent::Relayed { mirror, .. }
            | MirrorEvent::Paused { mirror, .. }
            | MirrorEvent::Resumed { mirror, .. }
            | MirrorEvent::Failed { mirror, .. }
            | MirrorEvent::Stopped { mirror } => *mirror,
        }
    }
}

/// A decision of the server's modes (`server::modes`), made for the leader:
/// the design document's proposals, which etcd does not ship. Recorded in
/// this stream so that the narration tells it in order with the rest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModeDecision {
    /// Automatic promotion: `learner`'s match reached `percent` of the
    /// leader's last index, and it is healthy; its promotion is proposed.
    Promote {
        learner: NodeId,
        matched: u64,
        last: u64,
        percent: u8,
    },
    /// `learner` is not promoted yet, and why (said when the why changes).
    NotYet { learner: NodeId, reason: NotYet },
    /// The leader has not heard from `voter` for `silent_ms`: failover to a
    /// standby in `left_ms` unless it is heard again.
    FailoverCountdown {
        voter: NodeId,
        silent_ms: u64,
        left_ms: u64,
    },
    /// `voter` was heard again before its failover.
    FailoverCancelled { voter: NodeId },
    /// Failover by replacement, first step: `voter`, silent for
    /// `silent_ms`, is removed; `standby` is promoted next.
    FailoverRemove {
        voter: NodeId,
        standby: NodeId,
        silent_ms: u64,
    },
    /// Failover: `standby` is promoted in place of `voter` (`grow`: beside it).
    FailoverPromote {
        standby: NodeId,
        voter: NodeId,
        grow: bool,
    },
    /// `voter` is due for failover but no standby can take over.
    FailoverBlocked {
        voter: NodeId,
        standby: Option<NodeId>,
        reason: NotYet,
    },
}

/// Why a learner is not promoted (or a standby cannot take over) yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotYet {
    /// Its match is `percent_now`% of the leader's last index, below `percent`.
    Behind {
        matched: u64,
        last: u64,
        percent_now: u64,
        percent: u8,
    },
    /// The leader has not heard from it within an election timeout
    /// (`None`: never).
    NotHeard { silent_ms: Option<u64> },
    /// The leader is sending it a snapshot.
    Snapshot,
    /// The strict reconfiguration check refuses the promotion: the
    /// server's refusal with its facts (layer 3's `ServerError`), carried
    /// opaquely because the world does not know the server's types.
    Strict(crate::raft::opaque::Opaque),
    /// The leader tracks no progress for it.
    NotTracked,
    /// There is no standby at all.
    NoStandby,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub time_ms: u64,
    pub kind: EventKind,
}

impl Event {
    /// Counts what the event owns beyond itself.
    pub fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        match &self.kind {
            EventKind::Raft {
                event: RaftEvent::BecameLeader { votes, .. },
                ..
            } => m.vec(votes),
            EventKind::ConfChangeApplied { change, .. } => change.context.heap_size(m),
            EventKind::JointChangeApplied { change, .. } => {
                m.vec(&change.changes);
                change.context.heap_size(m);
            }
            EventKind::ReadServed {
                read: Served::Key { key, read, .. },
                ..
            } => {
                m.string(key);
                if let Ok(KeyRead { value: Some(v), .. }) = read {
                    m.string(v);
                }
            }
            _ => {}
        }
    }
}
