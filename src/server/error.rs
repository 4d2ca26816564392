//! etcd's errors, under the scenario language's stable codes.

use std::fmt;
use std::rc::Rc;
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
    /// The member stopped under the request: it was removed from the
    /// cluster (etcd's `ErrStopped`). Named `server-stopped`, as etcd's text
    /// says: `stopped` is a run the memory budget stopped (`slice::STOPPED`).
    ServerStopped,
    NoLeader,
    Timeout,
    ExpectFailed,
    Compacted,
    FutureRev,
    /// A put, get or delete of the empty key (v3rpc `checkPutRequest`,
    /// `checkRangeRequest`, `checkDeleteRequest`: `ErrGRPCEmptyKey`).
    EmptyKey,
    /// raftlab's own: `deliver-next` or `drop` found no message to act on.
    NoMessage,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 23] = [
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
        ErrorCode::ServerStopped,
        ErrorCode::NoLeader,
        ErrorCode::Timeout,
        ErrorCode::ExpectFailed,
        ErrorCode::Compacted,
        ErrorCode::FutureRev,
        ErrorCode::EmptyKey,
        ErrorCode::NoMessage,
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
            ErrorCode::ServerStopped => "server-stopped",
            ErrorCode::NoLeader => "no-leader",
            ErrorCode::Timeout => "timeout",
            ErrorCode::ExpectFailed => "expect-failed",
            ErrorCode::Compacted => MvccError::Compacted.as_str(),
            ErrorCode::FutureRev => MvccError::FutureRev.as_str(),
            ErrorCode::EmptyKey => "empty-key",
            ErrorCode::NoMessage => "no-message",
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
            ErrorCode::ServerStopped => "etcdserver: server stopped",
            ErrorCode::NoLeader => "etcdserver: no leader",
            ErrorCode::Timeout => "etcdserver: request timed out",
            ErrorCode::ExpectFailed => "the expectation did not hold",
            ErrorCode::Compacted => MvccError::Compacted.etcd_text(),
            ErrorCode::FutureRev => MvccError::FutureRev.etcd_text(),
            ErrorCode::EmptyKey => "etcdserver: key is not provided",
            // No etcd text: a hand on single messages is raftlab's.
            ErrorCode::NoMessage => "no such message is on its way",
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
        ServerError::new(ErrorCode::from(e), ErrorDetail::EtcdText)
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

/// A refused or failed request: the stable code and why, as facts. The
/// words are the renderers' (`words::text_en`, whose sentence is also the
/// report's `detail`, and `words::text_ja`), made when they are shown.
///
/// Its facts are behind one shared pointer: a `Result` carrying it stays
/// small, so each `?` of the server layer moves a word, not the error, and a
/// copy of it (a result kept for the narration and the report, a
/// checkpoint) counts a reference instead of copying each kind of detail
/// (the page's module is smaller by both). The facts never change once made.
#[derive(Clone, PartialEq, Eq)]
pub struct ServerError(Rc<ServerErrorFacts>);

/// What a [`ServerError`] says; its fields are read through the error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerErrorFacts {
    pub code: ErrorCode,
    pub why: ErrorDetail,
}

impl std::ops::Deref for ServerError {
    type Target = ServerErrorFacts;
    fn deref(&self) -> &ServerErrorFacts {
        &self.0
    }
}

/// As the struct it was printed before its facts went behind a pointer.
impl std::fmt::Debug for ServerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerError")
            .field("code", &self.code)
            .field("why", &self.why)
            .finish()
    }
}

/// What a peer URL breaks (etcd's `types.NewURLs` on Go's `url.Parse`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlProblem {
    /// Go's `url.Parse` refuses `input`: its error text, as Go writes it.
    Parse { input: String, go_error: String },
    /// etcd's rule for member URLs refuses `input`: the rule's own text.
    Rule { input: String, rule: &'static str },
}

/// What a request waited for when its deadline passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waited {
    /// A leadership transfer to `to` that did not finish.
    Transfer { to: NodeId },
    /// Member `via` knew no leader to send the request to (the client's
    /// "context deadline exceeded").
    NoLeaderAt { via: NodeId },
    /// No member was running to take the request (the client's deadline).
    NoMember,
    /// Member `via`'s process was not running: the client could not
    /// connect to it before its deadline.
    NotRunning { via: NodeId },
    /// The client's own deadline passed first.
    ClientDeadline,
    /// The server's request timeout passed first (etcd's text).
    ServerTimeout,
}

/// Why a request was refused or failed: one kind per refusal, with its
/// facts, so that each language says it in its own words. etcd's errors
/// keep etcd's names and texts (the code's `etcd_text`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorDetail {
    /// etcd's own text for the code and nothing more (a membership refusal
    /// on apply, a compacted or future revision, a server timeout).
    EtcdText,
    /// A membership change refused when it was applied (etcd's membership
    /// text, which differs from the request's).
    Membership(MemberError),
    /// ErrNoLeader: member `via` knows no leader.
    NoLeaderKnown { via: NodeId },
    /// ErrNoLeader: no member runs to take the request.
    NoMemberRunning,
    /// Raft dropped a proposal the leader cannot take now (a timeout for
    /// the client).
    ProposalDropped { why: ProposeError },
    /// A request finished with an outcome of another kind: a bug in the
    /// server layer, reported rather than a panic (the outcome, for
    /// debugging).
    Unexpected { outcome: String },
    /// A request sent to member `id`, which was removed and has stopped.
    Removed { id: NodeId },
    /// `start` of a removed member: it never comes back.
    RemovedCannotReturn { id: NodeId },
    /// A fault aimed at a removed member, whose process stopped for good.
    RemovedForGood { id: NodeId },
    /// Member `id`'s process is not running.
    NotRunning { id: NodeId },
    /// A fault aimed at node `id`, whose process is not running.
    NodeDown { id: NodeId },
    /// Member `id` stopped under the request, removed from the cluster.
    /// `in_raft`: the request still waited in raft's `Propose` for a
    /// leader, which fails with raft's own `ErrStopped` ("raft: stopped")
    /// rather than the server's.
    Stopped { id: NodeId, in_raft: bool },
    /// `start` of a process already running.
    AlreadyRunning { id: NodeId },
    /// `start` of a node that is not a member (no `member add` yet).
    NotAMember { id: NodeId },
    /// A command naming a node the cluster does not know.
    NoSuchNode { id: NodeId },
    /// A learner `via` asked for an RPC learners do not serve.
    LearnerRpc { via: NodeId },
    /// Promotion: the leader tracks no progress for `id`.
    NotTracked { leader: NodeId, id: NodeId },
    /// Promotion: `id` is a read-only learner (`mode` reads).
    ReadOnlyLearner {
        id: NodeId,
        mode: super::mode_settings::ReadMode,
    },
    /// etcd's `isLearnerReady`: the learner's match is below `percent`% of
    /// the leader's. `learner`: false for a voter, which etcd measures the
    /// same before it finds, when applying, that the member is no learner.
    LearnerNotReady {
        id: NodeId,
        learner: bool,
        learner_match: u64,
        leader_match: u64,
        percent: u64,
    },
    /// Strict check: `started` started voters (the others than the one
    /// removed, when `others`) would be fewer than the quorum of `voters`.
    NotEnoughStarted {
        started: usize,
        quorum: usize,
        voters: usize,
        others: bool,
    },
    /// Strict check (etcd 3.4): connected to `connected` of `voters`, but
    /// `release` asks for every voter.
    UnhealthyNotAll {
        connected: usize,
        voters: usize,
        release: super::release::Release,
    },
    /// Strict check on add: connected to `connected` voters, fewer than the
    /// quorum of the `members` after the add.
    UnhealthyAdd {
        connected: usize,
        quorum: usize,
        members: usize,
    },
    /// Strict check on remove: connected to `connected` of `voters`;
    /// `remain` would remain, fewer than the quorum of `after`.
    UnhealthyRemove {
        connected: usize,
        voters: usize,
        remain: usize,
        quorum: usize,
        after: usize,
    },
    /// MemberAdd with a peer URL etcd refuses.
    BadPeerUrl { url: String, problem: UrlProblem },
    /// A new member's process cannot listen on its peer URL on its own
    /// host: etcd exits at start-up (`go_error` is Go's error text).
    PeerListener {
        id: NodeId,
        peer_url: String,
        go_error: String,
    },
    /// MoveLeader to a member that is not in the cluster, or a learner.
    BadTransferee { to: NodeId, learner: bool },
    /// The request's deadline passed while it waited; `raft_refused`: why
    /// Raft refused the membership change it carried (etcd-raft's words).
    Deadline {
        waited: Waited,
        raft_refused: Option<&'static str>,
    },
    /// A watch cancelled by a compaction at `compact_revision`.
    WatchCanceled { watch: u64, compact_revision: u64 },
    /// Id `id` is already a node of cluster `cluster` (clusters and mirror
    /// processes keep their ids apart).
    IdInCluster { id: NodeId, cluster: String },
    /// Id `id` is already a mirror process.
    MirrorExists { id: NodeId },
    /// A second cluster named like one the run has.
    ClusterNameTaken { name: String },
    /// `mirror start` from and to members of the same cluster.
    MirrorSameCluster {
        from: NodeId,
        to: NodeId,
        cluster: String,
    },
    /// `mirror stop` of an id that is no mirror process.
    NoSuchMirror { id: NodeId },
    /// `cut`/`heal` of two nodes no link joins: of different clusters, or a
    /// mirror process and a node it does not talk to.
    NoLinkAcross { a: NodeId, b: NodeId },
    /// `deliver-next` found nothing on its way (on the direction `link`
    /// only, if given) that is not held; `held` messages are held there.
    NothingToDeliver {
        link: Option<(NodeId, NodeId)>,
        held: u64,
    },
    /// `drop` found no message from `from` to `to`, in flight or held, of
    /// `kind` (any with `None`) numbered `id` (any with `None`).
    NothingToDrop {
        from: NodeId,
        to: NodeId,
        kind: Option<crate::raft::MessageType>,
        id: Option<u64>,
    },
}

impl ServerError {
    pub fn new(code: ErrorCode, why: ErrorDetail) -> ServerError {
        ServerError(Rc::new(ServerErrorFacts { code, why }))
    }

    /// Counts what it owns: its facts are numbers and static words,
    /// except for a few texts (an etcd-raft refusal, a URL); the sentences
    /// are made only when shown (layer 4's renderers).
    pub fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        m.add(std::mem::size_of::<ErrorDetail>());
    }

    /// One sample of every kind of detail with a code it comes with, for
    /// the tests that every renderer says each.
    pub fn samples() -> Vec<ServerError> {
        use ErrorDetail::*;
        let e = ServerError::new;
        vec![
            e(ErrorCode::Unhealthy, EtcdText),
            e(
                ErrorCode::TooManyLearners,
                Membership(MemberError::TooManyLearners),
            ),
            e(ErrorCode::NoLeader, NoLeaderKnown { via: 2 }),
            e(ErrorCode::NoLeader, NoMemberRunning),
            e(
                ErrorCode::Timeout,
                ProposalDropped {
                    why: ProposeError::TransferInProgress,
                },
            ),
            e(
                ErrorCode::Timeout,
                ProposalDropped {
                    why: ProposeError::NotMember,
                },
            ),
            e(
                ErrorCode::Timeout,
                Unexpected {
                    outcome: "Done".into(),
                },
            ),
            e(ErrorCode::IdRemoved, Removed { id: 3 }),
            e(ErrorCode::IdRemoved, RemovedCannotReturn { id: 3 }),
            e(ErrorCode::IdRemoved, RemovedForGood { id: 3 }),
            e(ErrorCode::NotStarted, NotRunning { id: 3 }),
            e(ErrorCode::NotStarted, NodeDown { id: 3 }),
            e(
                ErrorCode::ServerStopped,
                Stopped {
                    id: 3,
                    in_raft: false,
                },
            ),
            e(
                ErrorCode::ServerStopped,
                Stopped {
                    id: 3,
                    in_raft: true,
                },
            ),
            e(ErrorCode::IdExists, AlreadyRunning { id: 3 }),
            e(ErrorCode::MemberNotFound, NotAMember { id: 4 }),
            e(ErrorCode::MemberNotFound, NoSuchNode { id: 9 }),
            e(ErrorCode::NotSupportedForLearner, LearnerRpc { via: 4 }),
            e(ErrorCode::MemberNotFound, NotTracked { leader: 1, id: 4 }),
            e(
                ErrorCode::MemberReadOnly,
                ReadOnlyLearner {
                    id: 4,
                    mode: super::mode_settings::ReadMode::Weak,
                },
            ),
            e(
                ErrorCode::LearnerNotReady,
                LearnerNotReady {
                    id: 4,
                    learner: true,
                    learner_match: 3,
                    leader_match: 12,
                    percent: 90,
                },
            ),
            e(
                ErrorCode::LearnerNotReady,
                LearnerNotReady {
                    id: 2,
                    learner: false,
                    learner_match: 0,
                    leader_match: 5,
                    percent: 90,
                },
            ),
            e(
                ErrorCode::NotEnoughStartedMembers,
                NotEnoughStarted {
                    started: 1,
                    quorum: 2,
                    voters: 3,
                    others: false,
                },
            ),
            e(
                ErrorCode::NotEnoughStartedMembers,
                NotEnoughStarted {
                    started: 1,
                    quorum: 2,
                    voters: 2,
                    others: true,
                },
            ),
            e(
                ErrorCode::Unhealthy,
                UnhealthyNotAll {
                    connected: 2,
                    voters: 3,
                    release: super::release::Release::V3_4,
                },
            ),
            e(
                ErrorCode::Unhealthy,
                UnhealthyAdd {
                    connected: 1,
                    quorum: 3,
                    members: 4,
                },
            ),
            e(
                ErrorCode::Unhealthy,
                UnhealthyRemove {
                    connected: 2,
                    voters: 3,
                    remain: 1,
                    quorum: 2,
                    after: 2,
                },
            ),
            e(
                ErrorCode::BadUrl,
                BadPeerUrl {
                    url: "n4:2380".into(),
                    problem: UrlProblem::Parse {
                        input: "n4:2380".into(),
                        go_error: "first path segment in URL cannot contain colon".into(),
                    },
                },
            ),
            e(
                ErrorCode::BadUrl,
                BadPeerUrl {
                    url: "http://n4:2380/".into(),
                    problem: UrlProblem::Rule {
                        input: "http://n4:2380/".into(),
                        rule: "URL must not contain a path",
                    },
                },
            ),
            e(
                ErrorCode::BadUrl,
                PeerListener {
                    id: 4,
                    peer_url: "http://n5:2380".into(),
                    go_error: "listen tcp n5:2380: bind: cannot assign requested address".into(),
                },
            ),
            e(
                ErrorCode::BadLeaderTransferee,
                BadTransferee {
                    to: 4,
                    learner: false,
                },
            ),
            e(
                ErrorCode::BadLeaderTransferee,
                BadTransferee {
                    to: 4,
                    learner: true,
                },
            ),
            e(
                ErrorCode::Timeout,
                Deadline {
                    waited: Waited::Transfer { to: 2 },
                    raft_refused: None,
                },
            ),
            e(
                ErrorCode::Timeout,
                Deadline {
                    waited: Waited::NoLeaderAt { via: 2 },
                    raft_refused: None,
                },
            ),
            e(
                ErrorCode::Timeout,
                Deadline {
                    waited: Waited::NoMember,
                    raft_refused: None,
                },
            ),
            e(
                ErrorCode::Timeout,
                Deadline {
                    waited: Waited::ClientDeadline,
                    raft_refused: Some("removed all voters"),
                },
            ),
            e(
                ErrorCode::Timeout,
                Deadline {
                    waited: Waited::ServerTimeout,
                    raft_refused: None,
                },
            ),
            e(
                ErrorCode::Compacted,
                WatchCanceled {
                    watch: 1,
                    compact_revision: 5,
                },
            ),
            e(
                ErrorCode::IdExists,
                IdInCluster {
                    id: 11,
                    cluster: "east".to_string(),
                },
            ),
            e(ErrorCode::IdExists, MirrorExists { id: 9 }),
            e(
                ErrorCode::IdExists,
                ClusterNameTaken {
                    name: "east".to_string(),
                },
            ),
            e(
                ErrorCode::MemberNotFound,
                MirrorSameCluster {
                    from: 1,
                    to: 2,
                    cluster: "main".to_string(),
                },
            ),
            e(ErrorCode::MemberNotFound, NoSuchMirror { id: 9 }),
            e(ErrorCode::MemberNotFound, NoLinkAcross { a: 1, b: 11 }),
            e(
                ErrorCode::NoMessage,
                NothingToDeliver {
                    link: None,
                    held: 0,
                },
            ),
            e(
                ErrorCode::NoMessage,
                NothingToDeliver {
                    link: Some((1, 2)),
                    held: 3,
                },
            ),
            e(
                ErrorCode::NoMessage,
                NothingToDrop {
                    from: 1,
                    to: 2,
                    kind: Some(crate::raft::MessageType::App),
                    id: None,
                },
            ),
            e(
                ErrorCode::NoMessage,
                NothingToDrop {
                    from: 1,
                    to: 2,
                    kind: None,
                    id: Some(7),
                },
            ),
        ]
    }
}

impl From<MemberError> for ServerError {
    /// A membership change refused when it was applied: etcd's text.
    fn from(e: MemberError) -> ServerError {
        ServerError::new(ErrorCode::from(e), ErrorDetail::Membership(e))
    }
}

impl ServerError {
    /// etcd's ErrNoLeader from member `via`, which knows of no leader.
    pub fn no_leader(via: NodeId) -> ServerError {
        ServerError::new(ErrorCode::NoLeader, ErrorDetail::NoLeaderKnown { via })
    }

    /// Raft dropped a proposal made through `via`: no leader to forward it
    /// to, or a leader that cannot take it now (the client would time out).
    pub fn dropped(via: NodeId, e: ProposeError) -> ServerError {
        match e {
            ProposeError::NotLeaderNoLeader => ServerError::no_leader(via),
            other => ServerError::new(
                ErrorCode::Timeout,
                ErrorDetail::ProposalDropped { why: other },
            ),
        }
    }
}

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
