//! etcd's key-value API: Put and Range. Writes go through Raft; reads are
//! linearizable (ReadIndex through the leader) or serializable (local).

use crate::raft::Put;

use super::cluster::{Call, Cluster, Deferred, RequestId};
use super::error::{ErrorCode, ServerError};
use crate::raft::NodeId;

/// Bytes a write weighs when the script does not say.
pub const DEFAULT_PUT_SIZE: u64 = 64;

impl Cluster {
    /// A learner serves only serializable reads and Status (v3rpc
    /// `isRPCSupportedForLearner`).
    fn refuse_learner(&self, via: NodeId) -> Result<(), ServerError> {
        if self.world.node(via).is_some_and(|n| n.is_learner()) {
            return Err(ServerError::new(
                ErrorCode::NotSupportedForLearner,
                format!(
                    "member {via} is a learner: {}",
                    ErrorCode::NotSupportedForLearner.etcd_text()
                ),
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
        let via = self.route(via)?;
        if let Some(v) = via {
            self.refuse_learner(v)?;
        }
        if require_leader {
            self.require_leader(via)?;
        }
        let request = self.new_request();
        let put = Put {
            key: key.to_string(),
            value: value.to_string(),
            size: size.unwrap_or(DEFAULT_PUT_SIZE.max(key.len() as u64 + value.len() as u64)),
            request,
        };
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

    /// A read. Serializable reads answer at once from `via`'s applied state
    /// and never wait for a leader; linearizable reads confirm the leader's
    /// commit index with a quorum first (ReadIndex) and wait until `via`
    /// has applied it, holding on while `via` knows no leader.
    pub fn get(
        &mut self,
        key: &str,
        via: Option<NodeId>,
        serializable: bool,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<Option<String>, ServerError> {
        match self.begin_get(key, via, serializable, timeout_ms, require_leader)? {
            Call::Done(value) => Ok(value),
            Call::Waiting(request) => self.finish(request).into_read(),
        }
    }

    /// `get` without the waiting: a serializable read's answer, or the
    /// linearizable read sent.
    pub fn begin_get(
        &mut self,
        key: &str,
        via: Option<NodeId>,
        serializable: bool,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<Call<Option<String>>, ServerError> {
        let via = self.route(via)?;
        if let Some(v) = via.filter(|_| !serializable) {
            self.refuse_learner(v)?;
        }
        if require_leader {
            self.require_leader(via)?;
        }
        if let Some(v) = via.filter(|_| serializable) {
            return Ok(Call::Done(
                self.world
                    .node(v)
                    .and_then(|n| n.state.get(key))
                    .map(str::to_string),
            ));
        }
        let request = self.new_request();
        let then = Deferred::Read {
            key: key.to_string(),
            members: false,
        };
        self.send(request, via, then, timeout_ms);
        Ok(Call::Waiting(request))
    }
}
