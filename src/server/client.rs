//! etcd's key-value API: Put, Range, DeleteRange and Compact. Writes go
//! through Raft; reads are linearizable (ReadIndex through the leader) or
//! serializable (local), at the latest revision or an older one.

use std::rc::Rc;

use crate::sim::kv::{Compaction, Delete, KeyRead, Put};
use crate::sim::node::ReadOf;

use super::cluster::Cluster;
use super::error::{ErrorCode, ErrorDetail, ServerError};
use super::history::{History, SCRIPT_CLIENT};
use super::mode_settings::ReadMode;
use super::request::{refuse_empty_key, Call, Deferred, RequestId};
use crate::raft::NodeId;
use crate::sim::linearizability::{ClientId, Linearizability};

/// Bytes a write weighs when the script does not say.
pub const DEFAULT_PUT_SIZE: u64 = 64;

impl Cluster {
    /// A learner serves only serializable reads and Status (v3rpc
    /// `isRPCSupportedForLearner`). A learner whose process is not running
    /// refuses nothing yet: the client cannot connect to it (the request
    /// meets the check if it gets there, `Cluster::go_on`).
    fn refuse_learner(&self, via: NodeId) -> Result<(), ServerError> {
        if self.runs(via) && self.world.node(via).is_some_and(|n| n.is_learner()) {
            return Err(ServerError::new(
                ErrorCode::NotSupportedForLearner,
                ErrorDetail::LearnerRpc { via },
            ));
        }
        Ok(())
    }

    /// Sends a write to `via` (default: the leader, else the lowest running
    /// voter) and returns its request id; it finishes when the write is
    /// applied on that member, or fails at `timeout_ms`. A member that knows
    /// no leader holds it until it knows one; `require_leader` refuses it
    /// then instead.
    pub fn start_put(
        &mut self,
        key: &str,
        value: &str,
        via: Option<NodeId>,
        size: Option<u64>,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<RequestId, ServerError> {
        self.put_as(
            SCRIPT_CLIENT,
            key,
            value,
            via,
            size,
            timeout_ms,
            require_leader,
        )
    }

    /// [`Cluster::start_put`] for `client`, as the history records it.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn put_as(
        &mut self,
        client: ClientId,
        key: &str,
        value: &str,
        via: Option<NodeId>,
        size: Option<u64>,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<RequestId, ServerError> {
        let via = self.route(via)?;
        if let Some(v) = via {
            self.refuse_learner(v)?;
        }
        if require_leader {
            self.require_leader(via)?;
        }
        refuse_empty_key(key)?;
        let request = self.new_request();
        let put = Put {
            key: Rc::from(key),
            value: Rc::from(value),
            size: size.unwrap_or(DEFAULT_PUT_SIZE.max(key.len() as u64 + value.len() as u64)),
            request,
        };
        // Past etcd's checks: from here on it may take effect.
        let now = self.now();
        let (key, value) = (Rc::clone(&put.key), Rc::clone(&put.value));
        self.history.write_sent(request, client, key, value, now);
        self.send(request, via, Deferred::Put(put), timeout_ms);
        Ok(request)
    }

    /// A write, waited for.
    pub fn put(
        &mut self,
        key: &str,
        value: &str,
        via: Option<NodeId>,
        size: Option<u64>,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<u64, ServerError> {
        let request = self.start_put(key, value, via, size, timeout_ms, require_leader)?;
        self.finish(request).into_put()
    }

    /// A read of `key` at store revision `rev` (0: the latest).
    /// Serializable reads answer at once from `via`'s applied state
    /// and never wait for a leader (etcdserver `v3_server.go` `Range`: a
    /// serializable request skips `linearizableReadNotify`), so they can be
    /// stale; linearizable reads confirm the leader's
    /// commit index with a quorum first (ReadIndex) and wait until `via`
    /// has applied it, holding on while `via` knows no leader. A revision
    /// above the store's is `future-rev`, below its compaction `compacted`
    /// (etcd's `rangeKeys`).
    pub fn get(
        &mut self,
        key: &str,
        rev: u64,
        via: Option<NodeId>,
        serializable: bool,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<KeyRead, ServerError> {
        match self.begin_get(key, rev, via, serializable, timeout_ms, require_leader)? {
            Call::Done(read) => Ok(read),
            Call::Waiting(request) => self.finish(request).into_read(),
        }
    }

    /// `get` without the waiting: a local read's answer, or the
    /// linearizable read sent (its history recorded as `get` records it).
    pub fn begin_get(
        &mut self,
        key: &str,
        rev: u64,
        via: Option<NodeId>,
        serializable: bool,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<Call<KeyRead>, ServerError> {
        let via = self.route(via)?;
        // A read-only learner (the document's §4, `modes.rs`; etcd has none)
        // serves every read: `weak` from its applied state, with no message
        // to anyone (possibly stale); `strong` through a ReadIndex, which
        // etcd-raft's follower forwards to the leader for a learner too
        // (`stepFollower`), confirmed by a quorum of voters, and answered
        // once it has applied that far, as any linearizable read.
        let read_only = via.and_then(|v| self.member_kind(v).read_only);
        let local = serializable || read_only == Some(ReadMode::Weak);
        // A learner refuses a linearizable read with an `Unavailable` error
        // (`ErrGRPCNotSupportedForLearner`), which clientv3 retries for a
        // Range: the read goes on once a try finds the member promoted;
        // otherwise the client fails after its retries, or at its deadline.
        let refused = via
            .filter(|_| !local && read_only.is_none())
            .and_then(|v| self.refuse_learner(v).err());
        if let Some(error) = refused {
            let request = self.new_request();
            let then = Box::new(Deferred::Read(ReadOf::Key {
                key: key.to_string(),
                rev,
            }));
            self.send(request, via, Deferred::Retried { error, then }, timeout_ms);
            return Ok(Call::Waiting(request));
        }
        if require_leader {
            self.require_leader(via)?;
        }
        refuse_empty_key(key)?;
        if let Some(v) = via.filter(|&v| local && !self.runs(v)) {
            // The client waits for a connection to it (`route`).
            let request = self.new_request();
            let then = Deferred::LocalRead {
                key: key.to_string(),
                rev,
            };
            self.send(request, Some(v), then, timeout_ms);
            return Ok(Call::Waiting(request));
        }
        if let Some(v) = via.filter(|_| local) {
            let read = match self.world.node(v) {
                Some(n) => n.state.read(key, rev)?,
                None => KeyRead {
                    value: None,
                    mod_revision: None,
                    revision: 1,
                },
            };
            // A read at an older revision reads the past on purpose: only
            // reads of the latest state are client operations the checker
            // can judge.
            if rev == 0 {
                let now = self.now();
                self.history
                    .read_at_once(SCRIPT_CLIENT, key, read.value.as_deref(), now);
            }
            return Ok(Call::Done(read));
        }
        let request = self.new_request();
        if rev == 0 {
            let now = self.now();
            self.history.read_sent(request, SCRIPT_CLIENT, key, now);
        }
        let then = Deferred::Read(ReadOf::Key {
            key: key.to_string(),
            rev,
        });
        self.send(request, via, then, timeout_ms);
        Ok(Call::Waiting(request))
    }

    /// Deletes `key` (etcd's DeleteRange on one key), through Raft like a
    /// put; returns how many keys it deleted (0 or 1) and the store's
    /// revision after it (unchanged when nothing was deleted).
    pub fn delete(
        &mut self,
        key: &str,
        via: Option<NodeId>,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<(u64, u64), ServerError> {
        match self.begin_delete(key, via, timeout_ms, require_leader)? {
            Call::Done(d) => Ok(d),
            Call::Waiting(request) => self.finish(request).into_deleted(),
        }
    }

    /// `delete` without the waiting: the delete sent (its history recorded
    /// as `delete` records it).
    pub fn begin_delete(
        &mut self,
        key: &str,
        via: Option<NodeId>,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<Call<(u64, u64)>, ServerError> {
        self.begin_delete_as(SCRIPT_CLIENT, key, via, timeout_ms, require_leader)
    }

    /// [`Cluster::begin_delete`] for `client`, as the history records it.
    pub(crate) fn begin_delete_as(
        &mut self,
        client: ClientId,
        key: &str,
        via: Option<NodeId>,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<Call<(u64, u64)>, ServerError> {
        let via = self.route(via)?;
        if let Some(v) = via {
            self.refuse_learner(v)?;
        }
        if require_leader {
            self.require_leader(via)?;
        }
        refuse_empty_key(key)?;
        let request = self.new_request();
        let delete = Delete {
            key: key.to_string(),
            request,
        };
        let now = self.now();
        self.history.delete_sent(request, client, key, now);
        self.send(request, via, Deferred::Delete(delete), timeout_ms);
        Ok(Call::Waiting(request))
    }

    /// etcd's MVCC compaction at `rev` (etcdctl `compaction`), through Raft:
    /// every member compacts its store when it applies it, and the member
    /// the request went to answers with etcd's errors (`compacted` at or
    /// below the last compaction, `future-rev` above the store's revision;
    /// etcd's `updateCompactRev`).
    pub fn compaction(
        &mut self,
        rev: u64,
        via: Option<NodeId>,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<(), ServerError> {
        let call = self.begin_compaction(rev, via, timeout_ms, require_leader)?;
        self.finish_change(call)
    }

    /// `compaction` without the waiting: the compaction sent.
    pub fn begin_compaction(
        &mut self,
        rev: u64,
        via: Option<NodeId>,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<Call<()>, ServerError> {
        let via = self.route(via)?;
        if let Some(v) = via {
            self.refuse_learner(v)?;
        }
        if require_leader {
            self.require_leader(via)?;
        }
        let request = self.new_request();
        let compaction = Compaction { rev, request };
        self.send(request, via, Deferred::Compaction(compaction), timeout_ms);
        Ok(Call::Waiting(request))
    }
}

impl Cluster {
    /// The client operations of the run so far.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Whether the run's client operations so far are linearizable (the
    /// report's `linearizability`): computed when asked, kept until the
    /// history changes.
    pub fn linearizability(&self) -> Linearizability {
        self.history.verdict()
    }

    /// The verdict on the writes and linearizable reads alone, leaving out
    /// serializable reads and weak read-only reads (stale by design).
    pub fn strong_linearizability(&self) -> Linearizability {
        crate::sim::linearizability::check(&self.history.strong_operations())
    }
}
