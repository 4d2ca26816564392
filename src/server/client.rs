//! etcd's key-value API: Put and Range. Writes go through Raft; reads are
//! linearizable (ReadIndex through the leader) or serializable (local).

use std::rc::Rc;

use crate::raft::{EntryData, Put};

use super::cluster::{Cluster, Outcome, RequestId, Waiting};
use super::error::{ErrorCode, ServerError};
use crate::raft::NodeId;

/// Bytes a write weighs when the script does not say.
pub const DEFAULT_PUT_SIZE: u64 = 64;

impl Cluster {
    /// A learner serves only serializable reads (etcd v3.4 learners).
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
    /// applied on that member, or fails at `timeout_ms`.
    pub fn start_put(
        &mut self,
        key: &str,
        value: &str,
        via: Option<NodeId>,
        size: Option<u64>,
        timeout_ms: u64,
    ) -> Result<RequestId, ServerError> {
        let via = self.target(via)?;
        self.refuse_learner(via)?;
        self.known_leader(via)?;
        let request = self.new_request();
        let put = Put {
            key: key.to_string(),
            value: value.to_string(),
            size: size.unwrap_or(DEFAULT_PUT_SIZE.max(key.len() as u64 + value.len() as u64)),
            request,
        };
        self.world
            .propose(via, EntryData::Put(Rc::new(put)))
            .map_err(|e| ServerError::dropped(via, e))?;
        self.wait_for(request, Waiting::Put { via }, timeout_ms);
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
    ) -> Result<u64, ServerError> {
        let request = self.start_put(key, value, via, size, timeout_ms)?;
        match self.finish(request) {
            Outcome::Put { index } => Ok(index),
            Outcome::Failed(e) => Err(e),
            other => unreachable_outcome(other),
        }
    }

    /// A read. Serializable reads answer at once from `via`'s applied state;
    /// linearizable reads confirm the leader's commit index with a quorum
    /// first (ReadIndex) and wait until `via` has applied it.
    pub fn get(
        &mut self,
        key: &str,
        via: Option<NodeId>,
        serializable: bool,
        timeout_ms: u64,
    ) -> Result<Option<String>, ServerError> {
        let via = self.target(via)?;
        if serializable {
            return Ok(self
                .world
                .node(via)
                .and_then(|n| n.state.get(key))
                .map(str::to_string));
        }
        self.refuse_learner(via)?;
        self.known_leader(via)?;
        let request = self.new_request();
        self.world
            .read_index(via, request, key)
            .map_err(|e| ServerError::dropped(via, e))?;
        self.wait_for(request, Waiting::Read { via }, timeout_ms);
        match self.finish(request) {
            Outcome::Read { value } => Ok(value),
            Outcome::Failed(e) => Err(e),
            other => unreachable_outcome(other),
        }
    }
}

/// Requests finish only with the outcome of their kind; anything else is a
/// bug in this layer, reported as a timeout rather than a panic.
fn unreachable_outcome<T>(other: Outcome) -> Result<T, ServerError> {
    Err(ServerError::new(
        ErrorCode::Timeout,
        format!("unexpected outcome {other:?}"),
    ))
}
