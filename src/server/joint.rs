//! Changing several members at once through a joint configuration (the
//! Raft dissertation's §4.3; etcd-raft's ConfChangeV2). etcd's server never
//! does this: its MemberAdd, MemberPromote and MemberRemove each change one
//! member (`members.rs`). raftlab offers it so that the two ways can be
//! seen side by side; it goes through the same path as those: to the
//! leader, proposed, answered once applied on the member that took it.

use std::rc::Rc;

use crate::raft::{
    ConfChangeSingle, ConfChangeTransition, ConfChangeType, ConfChangeV2, EntryData,
};
use crate::sim::membership::default_peer_url;

use super::cluster::{Cluster, Waiting};
use super::error::ServerError;
use super::reconfig;

impl Cluster {
    /// Proposes `changes` as one joint change, left automatically once
    /// applied, or only on `member_leave_joint` with `explicit_leave`.
    /// New members get their default peer URL. A promoted learner must be
    /// in sync, as for MemberPromote; every change is checked when applied
    /// (`membership::validate_v2`). Raft refuses a change while another is
    /// pending or a joint configuration is not yet left: the request then
    /// times out, saying why.
    pub fn member_change(
        &mut self,
        changes: &[ConfChangeSingle],
        explicit_leave: bool,
    ) -> Result<(), ServerError> {
        let (via, leads) = self.member_target()?;
        if leads {
            self.check_promotions(via, changes)?;
        }
        let peer_urls = changes
            .iter()
            .filter(|c| c.change_type != ConfChangeType::RemoveNode)
            .map(|c| (c.node_id, Rc::from(default_peer_url(c.node_id))))
            .collect();
        let transition = if explicit_leave {
            ConfChangeTransition::JointExplicit
        } else {
            ConfChangeTransition::JointImplicit
        };
        self.propose_joint(
            via,
            ConfChangeV2 {
                transition,
                changes: changes.to_vec(),
                request: 0,
                peer_urls,
            },
        )
    }

    /// Leaves the joint configuration a `leave=explicit` change entered:
    /// proposes the empty change.
    pub fn member_leave_joint(&mut self) -> Result<(), ServerError> {
        let (via, _) = self.member_target()?;
        self.propose_joint(via, ConfChangeV2::default())
    }

    /// A learner made a voter must be in sync with the leader, as etcd's
    /// MemberPromote requires.
    fn check_promotions(
        &self,
        leader: u64,
        changes: &[ConfChangeSingle],
    ) -> Result<(), ServerError> {
        let Some(r) = self.world.raft(leader) else {
            return Ok(());
        };
        let tracker = r.tracker();
        let leader_match = tracker
            .progress
            .get(&leader)
            .map_or(r.last_index(), |p| p.matched);
        for c in changes
            .iter()
            .filter(|c| c.change_type == ConfChangeType::AddNode)
        {
            if let Some(p) = tracker.progress.get(&c.node_id).filter(|p| p.is_learner) {
                reconfig::check_learner_ready(c.node_id, p.matched, leader_match)?;
            }
        }
        Ok(())
    }

    fn propose_joint(&mut self, via: u64, mut cc: ConfChangeV2) -> Result<(), ServerError> {
        let request = self.new_request();
        cc.request = request;
        self.world
            .propose(via, EntryData::ConfChangeV2(Rc::new(cc)))
            .map_err(|e| ServerError::dropped(via, e))?;
        let timeout = self.request_timeout_ms();
        self.wait_for(request, Waiting::Member { via }, timeout);
        self.finish_change(request)
    }
}
