//! Changing several members at once through a joint configuration (the
//! Raft dissertation's §4.3; etcd-raft's ConfChangeV2). etcd's server never
//! does this: its MemberAdd, MemberPromote and MemberRemove each change one
//! member (`members.rs`). raftlab offers it so that the two ways can be
//! seen side by side; it goes through the same path as those: to the
//! leader, proposed, answered once applied on the member that took it.

use std::rc::Rc;

use crate::raft::{ConfChangeSingle, ConfChangeTransition, ConfChangeType, ConfChangeV2, NodeId};
use crate::sim::kv::PeerUrls;
use crate::sim::membership::default_peer_url;

use super::cluster::Cluster;
use super::error::ServerError;
use super::reconfig;
use super::request::{Call, Deferred};

/// The changes of one joint change (the scenario's `member change`), each
/// list ascending. Invariants: no id is in two lists; at least one list is
/// not empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JointChange {
    /// New voters.
    pub add: Vec<NodeId>,
    /// New learners.
    pub add_learner: Vec<NodeId>,
    /// Learners made voters.
    pub promote: Vec<NodeId>,
    /// Voters made learners.
    pub demote: Vec<NodeId>,
    pub remove: Vec<NodeId>,
    /// Stay in the joint configuration until `member_leave_joint`, rather
    /// than leave it as soon as it is applied.
    pub explicit_leave: bool,
}

impl JointChange {
    /// The lists with their scenario names, in canonical order.
    pub fn lists(&self) -> [(&'static str, &Vec<NodeId>); 5] {
        [
            ("add", &self.add),
            ("add-learner", &self.add_learner),
            ("promote", &self.promote),
            ("demote", &self.demote),
            ("remove", &self.remove),
        ]
    }

    /// The change Raft applies. A voter is added or promoted with AddNode,
    /// a learner added or demoted with AddLearnerNode; only new members
    /// carry a peer URL, which is how the apply-time checks tell an add
    /// from a promotion or demotion.
    pub fn to_conf_change(&self) -> ConfChangeV2 {
        use ConfChangeType::{AddLearnerNode, AddNode, RemoveNode};
        let kinds = [AddNode, AddLearnerNode, AddNode, AddLearnerNode, RemoveNode];
        let mut changes = Vec::new();
        for ((_, ids), change_type) in self.lists().into_iter().zip(kinds) {
            changes.extend(ids.iter().map(|&node_id| ConfChangeSingle {
                change_type,
                node_id,
            }));
        }
        let new_members = self.add.iter().chain(&self.add_learner);
        ConfChangeV2 {
            transition: if self.explicit_leave {
                ConfChangeTransition::JointExplicit
            } else {
                ConfChangeTransition::JointImplicit
            },
            changes,
            request: 0,
            context: PeerUrls::context(
                new_members
                    .map(|&id| (id, Rc::from(default_peer_url(id))))
                    .collect(),
            ),
        }
    }
}

impl Cluster {
    /// Proposes `change` as one joint change and waits until it is applied,
    /// waiting for a leader first as every member request does (etcd's
    /// `processInternalRaftRequestOnce`). A promoted learner must be in
    /// sync, as for MemberPromote (checked by the leader when it takes the
    /// request); every change is checked when applied
    /// (`membership::validate_v2`). Raft refuses a change while another is
    /// pending or a joint configuration is not yet left: the request then
    /// times out, saying why.
    pub fn member_change(
        &mut self,
        change: &JointChange,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<(), ServerError> {
        let call = self.begin_member_change(change, timeout_ms, require_leader)?;
        self.finish_change(call)
    }

    /// `member_change` without the waiting.
    pub fn begin_member_change(
        &mut self,
        change: &JointChange,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<Call<()>, ServerError> {
        self.send_joint(
            change.to_conf_change(),
            change.promote.clone(),
            timeout_ms,
            require_leader,
        )
    }

    /// Leaves the joint configuration a `leave=explicit` change entered:
    /// proposes the empty change.
    pub fn member_leave_joint(
        &mut self,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<(), ServerError> {
        let call = self.begin_member_leave_joint(timeout_ms, require_leader)?;
        self.finish_change(call)
    }

    /// `member_leave_joint` without the waiting.
    pub fn begin_member_leave_joint(
        &mut self,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<Call<()>, ServerError> {
        self.send_joint(
            ConfChangeV2::default(),
            Vec::new(),
            timeout_ms,
            require_leader,
        )
    }

    fn send_joint(
        &mut self,
        mut cc: ConfChangeV2,
        promote: Vec<NodeId>,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<Call<()>, ServerError> {
        let via = self.route(None)?;
        if require_leader {
            self.require_leader(via)?;
        }
        let request = self.new_request();
        cc.request = request;
        let then = Deferred::ChangeV2 {
            cc: Rc::new(cc),
            promote,
        };
        self.send(request, via, then, timeout_ms);
        Ok(Call::Waiting(request))
    }

    /// A learner made a voter must be in sync with the leader, as etcd's
    /// MemberPromote requires.
    pub(crate) fn check_promotions(
        &self,
        leader: NodeId,
        promote: &[NodeId],
    ) -> Result<(), ServerError> {
        let Some(r) = self.world.raft(leader) else {
            return Ok(());
        };
        let tracker = r.tracker();
        let leader_match = tracker
            .progress
            .get(&leader)
            .map_or(r.last_index(), |p| p.matched);
        for &id in promote {
            self.refuse_read_only(id)?;
            if let Some(p) = tracker.progress.get(&id).filter(|p| p.is_learner) {
                reconfig::check_learner_ready(id, true, p.matched, leader_match)?;
            }
        }
        Ok(())
    }
}
