//! Membership: `member add`, `member promote`, `member remove`, `member
//! change`, `member leave-joint`, and `transfer-leader`.

use crate::raft::NodeId;
use crate::server::{MemberKind, NewMembers};

use crate::lang::ast::{Command, DEFAULT_CLIENT_TIMEOUT_MS};
use crate::session::commands::done_or_wait;
use crate::session::driver::Op;
use crate::session::exec::Session;
use crate::session::failure::Failure;

impl Session {
    /// etcd's member API, one member at a time (`member add`, `member
    /// promote`, `member remove`), waited for until it is done or refused.
    pub(super) fn member_change(&mut self, cmd: &Command) -> Result<Option<Op>, Failure> {
        match cmd {
            Command::MemberAdd {
                id,
                learner,
                voter,
                standby,
                read_only,
                peer_url,
                via,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let k = self.via_cluster(*via);
                self.check_id_apart(*id, k)?;
                let c = self.fleet.cluster_mut(k);
                // The learner-by-default mode decides what a bare add adds.
                let by_default = c.config().modes.new_members == NewMembers::Learner;
                let learner = *learner || (by_default && !*voter);
                let kind = MemberKind {
                    standby: *standby,
                    read_only: *read_only,
                };
                let call = c.begin_member_add_as(
                    *id,
                    learner,
                    kind,
                    peer_url.as_deref(),
                    timeout,
                    *require_leader,
                )?;
                Ok(done_or_wait(k, call))
            }
            Command::MemberPromote {
                id,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let k = self.node_cluster(*id);
                let c = self.fleet.cluster_mut(k);
                Ok(done_or_wait(
                    k,
                    c.begin_member_promote(*id, timeout, *require_leader)?,
                ))
            }
            Command::MemberRemove {
                id,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let k = self.node_cluster(*id);
                let c = self.fleet.cluster_mut(k);
                Ok(done_or_wait(
                    k,
                    c.begin_member_remove(*id, timeout, *require_leader)?,
                ))
            }
            // `start` sends only the commands above here.
            _ => Ok(None),
        }
    }

    /// A joint change of several members (`member change`) and its end
    /// (`member leave-joint`), waited for until it is done or refused.
    pub(super) fn joint_change(&mut self, cmd: &Command) -> Result<Option<Op>, Failure> {
        match cmd {
            Command::MemberChange {
                change,
                via,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let k = self.via_cluster(*via);
                for id in change.add.iter().chain(&change.add_learner) {
                    self.check_id_apart(*id, k)?;
                }
                let c = self.fleet.cluster_mut(k);
                Ok(done_or_wait(
                    k,
                    c.begin_member_change(change, timeout, *require_leader)?,
                ))
            }
            Command::MemberLeaveJoint {
                via,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let k = self.via_cluster(*via);
                let c = self.fleet.cluster_mut(k);
                Ok(done_or_wait(
                    k,
                    c.begin_member_leave_joint(timeout, *require_leader)?,
                ))
            }
            // `start` sends only the commands above here.
            _ => Ok(None),
        }
    }

    /// `transfer-leader N`: etcd's MoveLeader, waited for until the
    /// leadership moved or the wait ended.
    pub(super) fn transfer_leader(&mut self, id: NodeId) -> Result<Option<Op>, Failure> {
        let k = self.node_cluster(id);
        let c = self.fleet.cluster_mut(k);
        Ok(done_or_wait(k, c.begin_move_leader(id)?))
    }

    /// Clusters and mirror processes keep their ids apart: a node added to
    /// cluster `k` may not be another cluster's node or a mirror process.
    fn check_id_apart(&self, id: NodeId, k: usize) -> Result<(), Failure> {
        if self.fleet.cluster_of(id).is_some_and(|o| o != k) || self.fleet.is_mirror(id) {
            self.fleet.check_free(id)?;
        }
        Ok(())
    }
}
