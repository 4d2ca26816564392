//! The vocabulary every layer shares: ids, log entries, configuration
//! changes, snapshots and messages. Names follow etcd's `raftpb`.

use std::rc::Rc;

use crate::collections::heap::Meter;
use crate::collections::vecmap::VecSet;

pub use crate::raft::opaque::Opaque;

/// A member id. Scenario ids are 1..=15; 0 means "none" (no vote, no leader).
pub type NodeId = u64;
/// The "no node" id, as etcd's `raft.None`.
pub const NONE: NodeId = 0;

/// Bytes of framing every message and entry costs on the wire, on top of its
/// payload. Only relative sizes matter: they drive the bandwidth model.
pub const MESSAGE_HEADER_BYTES: u64 = 64;
pub const ENTRY_HEADER_BYTES: u64 = 24;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ConfChangeType {
    /// Add a voter, or promote a learner.
    AddNode,
    /// Add a learner, or demote a voter.
    AddLearnerNode,
    RemoveNode,
    /// Changes nothing in Raft's configuration: etcd uses it to carry a
    /// member's new attributes (its peer URLs) through the log.
    UpdateNode,
}

/// A single-server membership change (etcd's `ConfChange`, the "v1" change
/// etcd's server proposes: one member at a time).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfChange {
    pub change_type: ConfChangeType,
    pub node_id: NodeId,
    /// The server layer's request id (etcd puts the member in `Context`).
    pub request: u64,
    /// The application's context, carried untouched (etcd's `Context`:
    /// the member's attributes, so every member learns them on apply).
    pub context: Opaque,
    /// An AddNode that promotes a learner (etcd's IsPromote in the change's
    /// context): the server checks at apply time that the member is a
    /// learner, where a plain add checks that the id is new.
    pub promote: bool,
}

impl ConfChange {
    /// The same change as a ConfChangeV2 (etcd's `ConfChange.AsV2`): one
    /// simple change, no joint configuration.
    pub fn as_v2(&self) -> ConfChangeV2 {
        ConfChangeV2 {
            transition: ConfChangeTransition::Auto,
            changes: vec![ConfChangeSingle {
                change_type: self.change_type,
                node_id: self.node_id,
            }],
            request: self.request,
            context: self.context.clone(),
        }
    }
}

/// One operation of a ConfChangeV2 (etcd's `ConfChangeSingle`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConfChangeSingle {
    pub change_type: ConfChangeType,
    pub node_id: NodeId,
}

/// How a ConfChangeV2 uses joint consensus (etcd's `ConfChangeTransition`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ConfChangeTransition {
    /// Joint consensus only if needed (more than one change), left
    /// automatically; a single change is applied directly.
    #[default]
    Auto,
    /// Always joint, left automatically.
    JointImplicit,
    /// Always joint, left only when the application proposes the empty
    /// change.
    JointExplicit,
}

/// Several membership changes applied together (etcd's `ConfChangeV2`),
/// through a joint configuration C_old,new (the Raft dissertation's §4.3)
/// when more than one voter may change. The empty change, with the Auto
/// transition, leaves a joint configuration.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfChangeV2 {
    pub transition: ConfChangeTransition,
    pub changes: Vec<ConfChangeSingle>,
    /// The server layer's request id (0 for the leader's own leave).
    pub request: u64,
    /// The application's context, carried untouched (etcd's `Context`).
    pub context: Opaque,
}

impl ConfChangeV2 {
    /// `Some(auto_leave)` if this change enters a joint configuration
    /// (etcd's `EnterJoint`): always with an explicit joint transition,
    /// and with Auto when it holds more than one change.
    pub fn enter_joint(&self) -> Option<bool> {
        match self.transition {
            ConfChangeTransition::Auto if self.changes.len() <= 1 => None,
            ConfChangeTransition::Auto | ConfChangeTransition::JointImplicit => Some(true),
            ConfChangeTransition::JointExplicit => Some(false),
        }
    }

    /// Whether this is the empty change that leaves a joint configuration
    /// (etcd's `LeaveJoint`).
    pub fn leave_joint(&self) -> bool {
        self.transition == ConfChangeTransition::Auto && self.changes.is_empty()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryData {
    /// The empty entry a new leader appends to commit entries of earlier terms.
    Empty,
    /// The application's own entry (etcd's `EntryNormal` with data): Raft
    /// orders it and never reads it.
    Normal(Opaque),
    ConfChange(Rc<ConfChange>),
    /// A joint (or multi-member) change; etcd's server never proposes one.
    ConfChangeV2(Rc<ConfChangeV2>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub term: u64,
    pub index: u64,
    pub data: EntryData,
}

impl Entry {
    /// Bytes this entry costs in a message.
    pub fn size(&self) -> u64 {
        ENTRY_HEADER_BYTES
            + match &self.data {
                EntryData::Empty => 0,
                EntryData::Normal(data) => data.size(),
                EntryData::ConfChange(c) => 16 + c.context.size(),
                EntryData::ConfChangeV2(c) => 16 + 8 * c.changes.len() as u64 + c.context.size(),
            }
    }
}

impl Entry {
    /// Counts what the entry owns beyond itself (its shared payload).
    pub fn heap_size(&self, m: &mut Meter) {
        match &self.data {
            EntryData::Empty => {}
            EntryData::Normal(data) => data.heap_size(m),
            EntryData::ConfChange(c) => m.shared(c, |m, c| c.context.heap_size(m)),
            EntryData::ConfChangeV2(c) => m.shared(c, |m, c| {
                m.vec(&c.changes);
                c.context.heap_size(m);
            }),
        }
    }
}

impl EntryData {
    /// Whether the entry changes the configuration (etcd's EntryConfChange
    /// and EntryConfChangeV2).
    pub fn is_conf_change(&self) -> bool {
        matches!(self, EntryData::ConfChange(_) | EntryData::ConfChangeV2(_))
    }
}

/// Which members vote and which only learn (etcd's `raftpb.ConfState`).
/// Learners never vote: they are in neither voter set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfState {
    /// The voters (of the incoming configuration, while joint).
    pub voters: VecSet<NodeId>,
    pub learners: VecSet<NodeId>,
    /// The outgoing configuration's voters; empty unless joint.
    pub voters_outgoing: VecSet<NodeId>,
    /// Outgoing voters that become learners when the joint configuration is left.
    pub learners_next: VecSet<NodeId>,
    /// The joint configuration is left automatically.
    pub auto_leave: bool,
}

impl ConfState {
    /// Whether `id` is a member: a voter of either configuration or a learner.
    pub fn contains(&self, id: NodeId) -> bool {
        self.voters.contains(&id)
            || self.learners.contains(&id)
            || self.voters_outgoing.contains(&id)
    }

    /// Whether a joint change is in progress.
    pub fn is_joint(&self) -> bool {
        !self.voters_outgoing.is_empty()
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SnapshotMetadata {
    pub index: u64,
    pub term: u64,
    pub conf_state: ConfState,
}

/// A point-in-time image of the state machine. Its data is the
/// application's, opaque to Raft, and shared, not copied: snapshots are
/// immutable once taken.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot {
    pub metadata: SnapshotMetadata,
    pub data: Opaque,
}

impl Snapshot {
    /// A snapshot's size on the wire is its data's.
    pub fn size(&self) -> u64 {
        self.data.size()
    }

    /// Counts its share of the state it holds.
    pub fn heap_size(&self, m: &mut Meter) {
        self.data.heap_size(m);
    }
}

/// The state etcd persists in its WAL before it acts: it survives a crash.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HardState {
    pub term: u64,
    pub vote: NodeId,
    pub commit: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MessageType {
    /// Local: start an election (the election timer fired, or `campaign`).
    Hup,
    /// Local: the leader's heartbeat timer fired.
    Beat,
    /// Local or forwarded: a client proposal.
    Prop,
    App,
    AppResp,
    Vote,
    VoteResp,
    PreVote,
    PreVoteResp,
    Snap,
    Heartbeat,
    HeartbeatResp,
    /// Local or forwarded to the leader: move leadership to `from`.
    TransferLeader,
    /// Leader to transferee: campaign now, skipping PreVote and the lease.
    TimeoutNow,
    ReadIndex,
    ReadIndexResp,
}

impl MessageType {
    /// Messages that never cross the network.
    pub fn is_local(self) -> bool {
        matches!(self, MessageType::Hup | MessageType::Beat)
    }

    pub fn is_response(self) -> bool {
        matches!(
            self,
            MessageType::AppResp
                | MessageType::VoteResp
                | MessageType::PreVoteResp
                | MessageType::HeartbeatResp
                | MessageType::ReadIndexResp
        )
    }

    /// etcd's name for the message type, as in `raftpb.MessageType`.
    pub fn name(self) -> &'static str {
        match self {
            MessageType::Hup => "MsgHup",
            MessageType::Beat => "MsgBeat",
            MessageType::Prop => "MsgProp",
            MessageType::App => "MsgApp",
            MessageType::AppResp => "MsgAppResp",
            MessageType::Vote => "MsgVote",
            MessageType::VoteResp => "MsgVoteResp",
            MessageType::PreVote => "MsgPreVote",
            MessageType::PreVoteResp => "MsgPreVoteResp",
            MessageType::Snap => "MsgSnap",
            MessageType::Heartbeat => "MsgHeartbeat",
            MessageType::HeartbeatResp => "MsgHeartbeatResp",
            MessageType::TransferLeader => "MsgTransferLeader",
            MessageType::TimeoutNow => "MsgTimeoutNow",
            MessageType::ReadIndex => "MsgReadIndex",
            MessageType::ReadIndexResp => "MsgReadIndexResp",
        }
    }
}

/// One Raft message. Fields mean what they mean in etcd's `raftpb.Message`;
/// unused fields stay at their defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub msg_type: MessageType,
    pub from: NodeId,
    pub to: NodeId,
    pub term: u64,
    /// Term of the entry at `index` (MsgApp), or of the candidate's last entry (votes).
    pub log_term: u64,
    pub index: u64,
    pub entries: Vec<Entry>,
    pub commit: u64,
    pub snapshot: Option<Box<Snapshot>>,
    pub reject: bool,
    pub reject_hint: u64,
    /// Opaque request context: the ReadIndex request id, or a transfer marker
    /// (`CAMPAIGN_TRANSFER`) on votes started by MsgTimeoutNow.
    pub context: u64,
}

/// Context on (pre)vote requests of a leadership transfer, which may break
/// the CheckQuorum lease (etcd's `campaignTransfer`).
pub const CAMPAIGN_TRANSFER: u64 = u64::MAX;

impl Message {
    pub fn new(msg_type: MessageType, from: NodeId, to: NodeId, term: u64) -> Message {
        Message {
            msg_type,
            from,
            to,
            term,
            log_term: 0,
            index: 0,
            entries: Vec::new(),
            commit: 0,
            snapshot: None,
            reject: false,
            reject_hint: 0,
            context: 0,
        }
    }

    /// Counts what the message owns beyond itself.
    pub fn heap_size(&self, m: &mut Meter) {
        m.vec(&self.entries);
        for e in &self.entries {
            e.heap_size(m);
        }
        if let Some(s) = &self.snapshot {
            m.boxed(&**s, |m, s| s.heap_size(m));
        }
    }

    /// Bytes this message costs on the wire: header, entries and snapshot.
    pub fn size(&self) -> u64 {
        MESSAGE_HEADER_BYTES
            + self.entries.iter().map(Entry::size).sum::<u64>()
            + self.snapshot.as_ref().map_or(0, |s| s.size())
    }
}

/// A linearizable read the leader has confirmed: once the node has applied
/// `index`, the read with id `request` may be served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadState {
    pub index: u64,
    pub request: u64,
}
