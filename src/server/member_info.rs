//! What the cluster API says of a member: its record in a MemberList
//! answer ([`MemberInfo`]) and its own maintenance `Status`
//! ([`MemberStatus`]).

use serde::Serialize;

use crate::raft::NodeId;

/// One member in a MemberList answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberInfo {
    pub id: NodeId,
    pub peer_url: String,
    pub learner: bool,
    /// The member has a name (etcd's `IsStarted`): a founding member, or
    /// one whose process has published itself.
    pub started: bool,
    /// Its process has published its client URLs.
    pub published: bool,
}

/// One member's own status: etcd's maintenance `Status` (etcdctl endpoint
/// status), which learners serve too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MemberStatus {
    pub id: NodeId,
    /// The etcd release (`version`).
    pub version: &'static str,
    /// The leader this member knows, or `null`.
    pub leader: Option<NodeId>,
    pub raft_term: u64,
    /// The member's commit index (etcd's `RaftIndex`).
    pub raft_index: u64,
    pub raft_applied_index: u64,
    pub is_learner: bool,
    /// Bytes of its applied state (etcd's `DbSize`).
    pub db_size: u64,
    /// etcd's `Errors`: "etcdserver: no leader" when it knows none.
    pub errors: Vec<&'static str>,
}
