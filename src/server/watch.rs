//! etcd's Watch API: a client opens a watch stream on one member and is sent
//! the changes of a key or a prefix from a revision on (etcdctl `watch`).
//! The watchers themselves live beside the members' stores in the world
//! (`sim::World::watch`), which hands them each write as it is applied.

use crate::raft::NodeId;
use crate::sim::mvcc::KeyRange;

use super::cluster::Cluster;
use super::error::{ErrorCode, ErrorDetail, ServerError};

impl Cluster {
    /// Opens a watch of `key` (a prefix if `prefix`) from store revision
    /// `from_rev` (0: the next write) on member `via` (default: the leader,
    /// else the lowest running voter). A learner refuses it: etcd's stream
    /// interceptor (`newStreamInterceptor`) serves no stream but Snapshot to
    /// a learner. A start revision already compacted away cancels the watch
    /// at once (etcd's `chooseAll` sends `CompactRevision`); the returned
    /// watch says so. Returns the watch's number.
    pub fn watch(
        &mut self,
        key: &str,
        prefix: bool,
        from_rev: u64,
        via: Option<NodeId>,
    ) -> Result<u64, ServerError> {
        let via = self.target(via)?;
        if self.world.node(via).is_some_and(|n| n.is_learner()) {
            return Err(ServerError::new(
                ErrorCode::NotSupportedForLearner,
                ErrorDetail::LearnerRpc { via },
            ));
        }
        let range = if prefix {
            KeyRange::Prefix(key.to_string())
        } else {
            KeyRange::Key(key.to_string())
        };
        let id = self.world.watch(via, range, from_rev).ok_or_else(|| {
            ServerError::new(ErrorCode::NotStarted, ErrorDetail::NotRunning { id: via })
        })?;
        self.absorb_events();
        Ok(id)
    }
}
