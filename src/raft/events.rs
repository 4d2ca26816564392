//! What the node reports to its caller: things that happened inside it (for
//! the world to narrate and draw) and why a proposal was refused.

use std::fmt;

use crate::raft::types::NodeId;

/// Things that happened inside a node, drained with `Raft::take_events`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RaftEvent {
    BecameFollower {
        term: u64,
        leader: NodeId,
    },
    /// `term` is the node's current term, which a pre-candidate does not
    /// raise: it asks for votes at `term + 1`.
    BecamePreCandidate {
        term: u64,
    },
    BecameCandidate {
        term: u64,
    },
    /// `votes`: the voters whose votes won the election, ascending.
    BecameLeader {
        term: u64,
        votes: Vec<NodeId>,
    },
    /// This node granted a (pre-)vote; `term` is the election's term.
    VoteGranted {
        candidate: NodeId,
        term: u64,
        pre_vote: bool,
    },
    /// This node refused a (pre-)vote: "log not up to date", "already voted",
    /// "leader known", or "lease" (CheckQuorum lease: the request is ignored
    /// without an answer, as etcd does).
    VoteRejected {
        candidate: NodeId,
        term: u64,
        pre_vote: bool,
        reason: &'static str,
    },
    /// CheckQuorum: the leader has not heard from a quorum of voters within
    /// an election timeout and steps down (same term).
    StepDownNoQuorum {
        term: u64,
    },
    /// The commit index advanced to `index`.
    Committed {
        index: u64,
    },
    SnapshotSent {
        to: NodeId,
        index: u64,
    },
    SnapshotRestored {
        index: u64,
    },
    /// A configuration change was refused: at proposal time (the entry became
    /// an empty entry) or at apply time (the configuration is unchanged).
    ConfChangeRefused {
        request: u64,
        reason: &'static str,
    },
    ProposalDropped {
        reason: &'static str,
    },
    TransferStarted {
        to: NodeId,
    },
    TransferIgnored {
        to: NodeId,
        reason: &'static str,
    },
    TransferAborted {
        to: NodeId,
    },
    IgnoredTimeoutNow {
        reason: &'static str,
    },
    CampaignIgnored {
        reason: &'static str,
    },
    /// ForgetLeader was ignored: lease-based reads rely on the lease.
    ForgetLeaderIgnored,
    /// A leader in a joint configuration that leaves it automatically
    /// proposed the empty change that leaves it.
    AutoLeaveProposed,
}

/// Why a proposal (or a read) was not accepted. Every variant is etcd's
/// `ErrProposalDropped`; the variant says why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProposeError {
    /// No leader is known (follower between leaders, or a candidate).
    NotLeaderNoLeader,
    /// The leader is handing leadership over.
    TransferInProgress,
    /// The leader was removed from the configuration.
    NotMember,
}

impl ProposeError {
    pub fn reason(self) -> &'static str {
        match self {
            ProposeError::NotLeaderNoLeader => "no leader",
            ProposeError::TransferInProgress => "leadership transfer in progress",
            ProposeError::NotMember => "leader not in the configuration",
        }
    }
}

impl fmt::Display for ProposeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "raft proposal dropped ({})", self.reason())
    }
}

impl std::error::Error for ProposeError {}

/// Why a message was not stepped (etcd's RawNode.Step errors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepError {
    /// A message only the node itself makes (MsgHup, MsgBeat) came from the
    /// network (etcd's ErrStepLocalMsg).
    LocalMessage,
    /// A response from a peer this node does not track (etcd's
    /// ErrStepPeerNotFound): it answers nothing we asked.
    PeerNotFound,
}

impl fmt::Display for StepError {
    /// etcd's error text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StepError::LocalMessage => "raft: cannot step raft local message",
            StepError::PeerNotFound => "raft: cannot step as peer not found",
        })
    }
}

impl std::error::Error for StepError {}
