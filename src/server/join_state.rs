//! What a new member's process joining a cluster remembers between the
//! cluster's steps (`server::join` moves it on).

use crate::raft::NodeId;
use crate::sim::JoinStep;

use super::request::RequestId;

/// Where a joining process is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Asking for the membership: done at the first peer that answers.
    Membership,
    /// Asking every peer for its version.
    Versions,
    /// Asking whether a downgrade is enabled: done at the first answer.
    Downgrade,
}

/// What the joining process waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wait {
    /// Nothing: it goes on at once.
    Nothing,
    /// A dial to a peer cut off from it, until this moment.
    Dial(u64),
    /// A peer's linearizable read for it.
    Read(RequestId),
    /// The read's outcome: answered, or why not (what is said).
    Answered(Result<(), JoinStep>),
}

/// One joining process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Join {
    pub(crate) node: NodeId,
    /// The other members, in the order it asks them.
    pub(crate) peers: Vec<NodeId>,
    pub(crate) phase: Phase,
    /// The peer it is at.
    pub(crate) at: usize,
    pub(crate) wait: Wait,
}
