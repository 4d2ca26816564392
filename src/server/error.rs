//! etcd's errors, under the scenario language's stable codes.

use std::fmt;
use std::str::FromStr;

use crate::raft::{NodeId, ProposeError};
use crate::sim::membership::MemberError;
use crate::sim::mvcc::MvccError;

/// The stable error codes of the scenario language, one per etcd error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ErrorCode {
    BadUrl,
    IdExists,
    IdRemoved,
    PeerUrlExists,
    TooManyLearners,
    MemberNotFound,
    MemberNotLearner,
    /// raftlab's own: a joint change demoting a member that is not a voter
    /// (etcd's server never demotes).
    MemberNotVoter,
    LearnerNotReady,
    /// raftlab's own (the read-only mode, `server::modes`): a read-only
    /// learner is never promoted.
    MemberReadOnly,
    NotEnoughStartedMembers,
    Unhealthy,
    BadLeaderTransferee,
    NotSupportedForLearner,
    NotStarted,
    NoLeader,
    Timeout,
    ExpectFailed,
    Compacted,
    FutureRev,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 20] = [
        ErrorCode::BadUrl,
        ErrorCode::IdExists,
        ErrorCode::IdRemoved,
        ErrorCode::PeerUrlExists,
        ErrorCode::TooManyLearners,
        ErrorCode::MemberNotFound,
        ErrorCode::MemberNotLearner,
        ErrorCode::MemberNotVoter,
        ErrorCode::LearnerNotReady,
        ErrorCode::MemberReadOnly,
        ErrorCode::NotEnoughStartedMembers,
        ErrorCode::Unhealthy,
        ErrorCode::BadLeaderTransferee,
        ErrorCode::NotSupportedForLearner,
        ErrorCode::NotStarted,
        ErrorCode::NoLeader,
        ErrorCode::Timeout,
        ErrorCode::ExpectFailed,
        ErrorCode::Compacted,
        ErrorCode::FutureRev,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadUrl => "bad-url",
            ErrorCode::IdExists => "id-exists",
            ErrorCode::IdRemoved => "id-removed",
            ErrorCode::PeerUrlExists => "peer-url-exists",
            ErrorCode::TooManyLearners => "too-many-learners",
            ErrorCode::MemberNotFound => "member-not-found",
            ErrorCode::MemberNotLearner => "member-not-learner",
            ErrorCode::MemberNotVoter => "member-not-voter",
            ErrorCode::LearnerNotReady => "learner-not-ready",
            ErrorCode::MemberReadOnly => "member-read-only",
            ErrorCode::NotEnoughStartedMembers => "not-enough-started-members",
            ErrorCode::Unhealthy => "unhealthy",
            ErrorCode::BadLeaderTransferee => "bad-leader-transferee",
            ErrorCode::NotSupportedForLearner => "not-supported-for-learner",
            ErrorCode::NotStarted => "not-started",
            ErrorCode::NoLeader => "no-leader",
            ErrorCode::Timeout => "timeout",
            ErrorCode::ExpectFailed => "expect-failed",
            ErrorCode::Compacted => MvccError::Compacted.as_str(),
            ErrorCode::FutureRev => MvccError::FutureRev.as_str(),
        }
    }

    /// etcd's own text for the error, shown beside the code.
    pub fn etcd_text(self) -> &'static str {
        match self {
            ErrorCode::BadUrl => "etcdserver: given member URLs are invalid",
            ErrorCode::IdExists => "etcdserver: member ID already exist",
            ErrorCode::IdRemoved => "etcdserver: member ID removed",
            ErrorCode::PeerUrlExists => "etcdserver: Peer URLs already exists",
            ErrorCode::TooManyLearners => "etcdserver: too many learner members in cluster",
            ErrorCode::MemberNotFound => "etcdserver: member not found",
            ErrorCode::MemberNotLearner => "etcdserver: can only promote a learner member",
            ErrorCode::MemberNotVoter => "can only demote a voting member",
            ErrorCode::LearnerNotReady => {
                "etcdserver: can only promote a learner member which is in sync with leader"
            }
            // No etcd text: etcd has no read-only learners.
            ErrorCode::MemberReadOnly => "a read-only learner is never promoted",
            ErrorCode::NotEnoughStartedMembers => {
                "etcdserver: re-configuration failed due to not enough started members"
            }
            ErrorCode::Unhealthy => "etcdserver: unhealthy cluster",
            ErrorCode::BadLeaderTransferee => "etcdserver: bad leader transferee",
            ErrorCode::NotSupportedForLearner => "etcdserver: rpc not supported for learner",
            ErrorCode::NotStarted => "the member's process is not running",
            ErrorCode::NoLeader => "etcdserver: no leader",
            ErrorCode::Timeout => "etcdserver: request timed out",
            ErrorCode::ExpectFailed => "the expectation did not hold",
            ErrorCode::Compacted => MvccError::Compacted.etcd_text(),
            ErrorCode::FutureRev => MvccError::FutureRev.etcd_text(),
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ErrorCode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        ErrorCode::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
                format!(
                    "unknown error code {s:?}; expected one of: {}",
                    names.join(", ")
                )
            })
    }
}

impl From<MvccError> for ErrorCode {
    fn from(e: MvccError) -> ErrorCode {
        match e {
            MvccError::Compacted => ErrorCode::Compacted,
            MvccError::FutureRev => ErrorCode::FutureRev,
        }
    }
}

impl From<MvccError> for ServerError {
    fn from(e: MvccError) -> ServerError {
        ServerError::new(ErrorCode::from(e), e.etcd_text())
    }
}

impl From<MemberError> for ErrorCode {
    fn from(e: MemberError) -> ErrorCode {
        match e {
            MemberError::IdExists => ErrorCode::IdExists,
            MemberError::IdRemoved => ErrorCode::IdRemoved,
            MemberError::PeerUrlExists => ErrorCode::PeerUrlExists,
            MemberError::TooManyLearners => ErrorCode::TooManyLearners,
            MemberError::MemberNotFound => ErrorCode::MemberNotFound,
            MemberError::MemberNotLearner => ErrorCode::MemberNotLearner,
            MemberError::MemberNotVoter => ErrorCode::MemberNotVoter,
        }
    }
}

/// A refused or failed request: the stable code and a sentence for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerError {
    pub code: ErrorCode,
    pub detail: String,
}

impl ServerError {
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> ServerError {
        ServerError {
            code,
            detail: detail.into(),
        }
    }
}

impl ServerError {
    /// etcd's ErrNoLeader from member `via`, which knows of no leader.
    pub fn no_leader(via: NodeId) -> ServerError {
        ServerError::new(
            ErrorCode::NoLeader,
            format!(
                "member {via} knows no leader: {}",
                ErrorCode::NoLeader.etcd_text()
            ),
        )
    }

    /// Raft dropped a proposal made through `via`: no leader to forward it
    /// to, or a leader that cannot take it now (the client would time out).
    pub fn dropped(via: NodeId, e: ProposeError) -> ServerError {
        match e {
            ProposeError::NotLeaderNoLeader => ServerError::no_leader(via),
            other => ServerError::new(
                ErrorCode::Timeout,
                format!("{other}: {}", ErrorCode::Timeout.etcd_text()),
            ),
        }
    }
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.detail)
    }
}

impl std::error::Error for ServerError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_through_their_names() {
        for code in ErrorCode::ALL {
            assert_eq!(code.as_str().parse::<ErrorCode>(), Ok(code));
        }
        assert!("no-such-code".parse::<ErrorCode>().is_err());
    }
}
