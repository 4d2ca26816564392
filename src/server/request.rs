//! A request to the cluster, from the moment a member takes it to its
//! answer: its id, what it waits for, what a parked one does once its member
//! knows a leader, and what it returns (`Outcome`). The cluster
//! (`cluster.rs`) keeps the pending ones and ends them.

use std::rc::Rc;

use crate::raft::{ConfChange, ConfChangeV2, NodeId};
use crate::sim::kv::{Compaction, Delete, KeyRead, Put};
use crate::sim::node::ReadOf;

use super::error::{ErrorCode, ErrorDetail, ServerError};
use super::member_info::MemberInfo;

pub const CLIENT_TIMEOUT_MS: u64 = 5_000;

/// etcd refuses a request for the empty key once it has passed the
/// interceptors (the learner and leader checks): v3rpc's `checkPutRequest`,
/// `checkRangeRequest` and `checkDeleteRequest` (`ErrGRPCEmptyKey`).
pub(crate) fn refuse_empty_key(key: &str) -> Result<(), ServerError> {
    if key.is_empty() {
        return Err(ServerError::new(ErrorCode::EmptyKey, ErrorDetail::EtcdText));
    }
    Ok(())
}

/// How long clientv3 waits between two tries of a request refused with an
/// error it retries (`retry_interceptor.go` `defaultBackoffWaitBetween`,
/// its 10% jitter left out).
pub const CLIENT_RETRY_MS: u64 = 25;

/// How long clientv3 retries such a request (`defaultUnaryMaxRetries` 100
/// tries): 99 waits. etcdctl 3.4.23 and 3.5.1 gave up after 2.6 to 2.9 s.
pub const CLIENT_RETRIES_MS: u64 = 99 * CLIENT_RETRY_MS;

pub type RequestId = u64;

/// What a client sees when its context ends before the answer (gRPC's
/// DeadlineExceeded, as etcdctl prints it).
pub const DEADLINE_EXCEEDED: &str = "context deadline exceeded";

/// A request that finished, with what it returns.
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    pub request: RequestId,
    pub outcome: Outcome,
}

/// What a finished request returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A write took effect at this log index.
    Put {
        index: u64,
    },
    /// A read's answer: the value (`None`: no such key) and revisions.
    Read(KeyRead),
    /// A delete took effect: keys deleted (0 or 1) and the store's revision
    /// after it.
    Deleted {
        deleted: u64,
        revision: u64,
    },
    /// A linearizable member list.
    Members(Vec<MemberInfo>),
    /// A membership change or a leader move took effect.
    Done,
    Failed(ServerError),
}

/// A request a member took: answered at once, or waiting (its answer comes
/// with [`Cluster::finish`], or step by step with [`Cluster::is_pending`]
/// and [`Cluster::take_outcome`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Call<T> {
    Done(T),
    Waiting(RequestId),
}

/// Requests finish only with the outcome of their kind; anything else is a
/// bug in this layer, reported as a timeout rather than a panic. The detail
/// names the outcome's kind: its `Debug` form would bring the derived
/// `Debug` of every error and record into the page's module (2 KB gzipped).
fn unexpected<T>(other: Outcome) -> Result<T, ServerError> {
    Err(ServerError::new(
        ErrorCode::Timeout,
        ErrorDetail::Unexpected {
            outcome: other.kind().to_string(),
        },
    ))
}

impl Outcome {
    /// The variant's name, as `Debug` begins it.
    fn kind(&self) -> &'static str {
        match self {
            Outcome::Put { .. } => "Put",
            Outcome::Read(_) => "Read",
            Outcome::Deleted { .. } => "Deleted",
            Outcome::Members(_) => "Members",
            Outcome::Done => "Done",
            Outcome::Failed(_) => "Failed",
        }
    }

    /// A write's answer: the index it was committed at.
    pub fn into_put(self) -> Result<u64, ServerError> {
        match self {
            Outcome::Put { index } => Ok(index),
            Outcome::Failed(e) => Err(e),
            other => unexpected(other),
        }
    }

    /// A read's answer: the value (`None`: no such key) and revisions.
    pub fn into_read(self) -> Result<KeyRead, ServerError> {
        match self {
            Outcome::Read(read) => Ok(read),
            Outcome::Failed(e) => Err(e),
            other => unexpected(other),
        }
    }

    /// A delete's answer: keys deleted and the store's revision after it.
    pub fn into_deleted(self) -> Result<(u64, u64), ServerError> {
        match self {
            Outcome::Deleted { deleted, revision } => Ok((deleted, revision)),
            Outcome::Failed(e) => Err(e),
            other => unexpected(other),
        }
    }

    /// A linearizable member list.
    pub fn into_members(self) -> Result<Vec<MemberInfo>, ServerError> {
        match self {
            Outcome::Members(list) => Ok(list),
            Outcome::Failed(e) => Err(e),
            other => unexpected(other),
        }
    }

    /// A membership change or a leader move.
    pub fn into_done(self) -> Result<(), ServerError> {
        match self {
            Outcome::Done => Ok(()),
            Outcome::Failed(e) => Err(e),
            other => unexpected(other),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Waiting {
    /// A write (a put, a delete, a compaction) applied on `via`.
    Put { via: NodeId },
    /// A linearizable read (of a key, or of the member list) served on `via`.
    Read { via: NodeId, members: bool },
    /// A membership change applied on `via`.
    Member { via: NodeId },
    /// Leadership reaching `to`.
    Leader { to: NodeId },
    /// Not sent on yet: `via` knows no leader, or its process is not
    /// running (the client cannot connect). It goes on once `via` runs and
    /// knows one (a local read: once it runs); with `via` `None` no member
    /// ran to take it, and it only ends.
    Parked { via: Option<NodeId>, then: Deferred },
}

impl Waiting {
    /// Whether etcd's server-side request timeout (`ReqTimeout`, 5s plus two
    /// election timeouts) ends the request before a longer client timeout.
    /// A write does end there: `processInternalRaftRequestOnce` proposes and
    /// waits under `context.WithTimeout(ctx, ReqTimeout())`, and clientv3
    /// does not retry a Put. So does a promotion a follower forwards
    /// (`PromoteMember`: `waitLeader` and `promoteMemberHTTP` under the same
    /// timeout). A leader move does not: `MoveLeader` waits on the client's
    /// context alone. A linearizable read (of a key, or
    /// v3.6's member list) does not: `requestCurrentIndex` fails it with
    /// `ErrTimeout`, a gRPC `Unavailable` that clientv3's retry interceptor
    /// retries for a Range or a MemberList (`isSafeRetryImmutableRPC`), so
    /// the client waits until its own deadline. Nor does a membership
    /// change: `configure` waits on the client's context alone.
    pub(crate) fn server_timeout_ends_it(&self) -> bool {
        match self {
            Waiting::Read { .. } | Waiting::Member { .. } | Waiting::Leader { .. } => false,
            Waiting::Put { .. } => true,
            Waiting::Parked { then, .. } => match then {
                Deferred::Put(_) | Deferred::Delete(_) | Deferred::Compaction(_) => true,
                Deferred::Promote { .. } => true,
                Deferred::Read(_)
                | Deferred::Retried { .. }
                | Deferred::LocalRead { .. }
                | Deferred::Change(_)
                | Deferred::ChangeV2 { .. } => false,
            },
        }
    }
}

/// What a parked request does once its member knows a leader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Deferred {
    Put(Put),
    Delete(Delete),
    Compaction(Compaction),
    /// A linearizable read: a key, or the member list.
    Read(ReadOf),
    /// A request the member refused with an error clientv3 retries
    /// (`Unavailable` for an immutable RPC, `isSafeRetryImmutableRPC`: a
    /// learner refusing a linearizable read). The client tries again every
    /// [`CLIENT_RETRY_MS`]: at the first try its member no longer refuses
    /// (the learner was promoted) it goes on as `then`; otherwise the client
    /// gives up after its retries ([`CLIENT_RETRIES_MS`]) with `error`, or at
    /// its deadline if that comes first.
    Retried {
        error: ServerError,
        then: Box<Deferred>,
    },
    /// A serializable read sent to a member whose process is not running:
    /// answered from its state once it runs.
    LocalRead {
        key: String,
        /// The store revision to read at (0: the latest).
        rev: u64,
    },
    Change(ConfChange),
    /// A joint change (`member change`); `promote` lists the learners it
    /// makes voters, which the leader checks are in sync first.
    ChangeV2 {
        cc: Rc<ConfChangeV2>,
        promote: Vec<NodeId>,
    },
    /// A promotion taken by a follower: etcd forwards it to the leader,
    /// which runs its checks (`PromoteMember` retries `promoteMemberHTTP`).
    Promote {
        id: NodeId,
    },
}

#[derive(Debug, Clone)]
pub(crate) struct Pending {
    pub waiting: Waiting,
    /// When it ends: the client's deadline, or the server's own request
    /// timeout if that comes first.
    pub deadline: u64,
    /// When the client gives up.
    pub client_deadline: u64,
    /// Why it can no longer succeed (Raft refused the membership change it
    /// carried: etcd-raft's words), said when it times out.
    pub note: Option<&'static str>,
    /// Background load: nobody reads its outcome.
    pub quiet: bool,
    /// A promotion a follower sent on to the leader.
    pub forwarded: Option<Forwarded>,
}

/// A promotion the member that took it forwarded to the leader (etcd's
/// `PromoteMember`, `promoteMemberHTTP`). Should that leader crash or stop,
/// the forwarding fails and the member that took it waits for the next
/// leader and sends it again, within the same request timeout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Forwarded {
    /// The member that took the request from the client.
    pub(crate) taken: NodeId,
    /// The learner to promote.
    pub(crate) id: NodeId,
    /// The leader's last index once it proposed: the request's entry
    /// applied below it is an earlier attempt's, which nobody waits for.
    pub(crate) from: u64,
}
