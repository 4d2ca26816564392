//! The facts every view of the cluster reads, each computed in exactly one
//! place: the report, the runner's conditions, the page's panels and its
//! canvas all ask here, so two of them can never disagree about the same
//! fact (etcd's habit: only `quorum/` counts a majority, only `tracker/`
//! tracks progress).
//!
//! Most facts are seen from one member, the *authority* (the leader, else the
//! running member with the highest term, see [`Cluster::authority`]): its
//! configuration is the cluster's, its applied members bucket says who is a
//! member, its links say who is reachable. A cluster with no running member
//! has no authority: no voters are known, the majority is 0 and nobody is
//! reachable.

use crate::collections::vecmap::VecSet;
use crate::raft::{quorum, ConfState, NodeId, Progress, Raft, StateRole};
use crate::sim::kv::MemberRecord;
use crate::sim::{InFlight, MessageCounts, SimNode};

use super::cluster::Cluster;
use super::load::Load;
use super::reconfig::READINESS_RATIO;

/// A learner's catch-up as the leader sees it (etcd's `isLearnerReady`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CatchUp {
    /// The leader's match index for the learner.
    pub matched: u64,
    /// The leader's own match index (its last index when it tracks none).
    pub leader_match: u64,
}

impl CatchUp {
    /// `matched / leader_match`, 0 to 1 (a leader with an empty log counts
    /// as having one entry, so the ratio is defined).
    pub fn ratio(&self) -> f64 {
        // Not `f64::clamp`, whose check of its bounds prints them: that
        // alone brings float printing into the page's module.
        (self.matched as f64 / self.leader_match.max(1) as f64).min(1.0)
    }

    /// Whether etcd would let the learner be promoted now: its match is at
    /// least [`READINESS_RATIO`] of the leader's.
    pub fn ready(&self) -> bool {
        self.matched as f64 >= self.leader_match as f64 * READINESS_RATIO
    }
}

impl Cluster {
    /// The running member whose view the facts take: the authority if its
    /// process runs (`None` when no member runs).
    pub fn viewpoint(&self) -> Option<NodeId> {
        self.authority()
            .filter(|&a| self.world.node(a).is_some_and(SimNode::is_running))
    }

    /// The authority's Raft node, if it runs.
    fn authority_raft(&self) -> Option<&Raft> {
        self.authority().and_then(|a| self.world.raft(a))
    }

    /// The leader's Raft node, if there is a leader.
    pub fn leader_raft(&self) -> Option<&Raft> {
        self.leader().and_then(|l| self.world.raft(l))
    }

    /// The configuration (voters and learners) as the authority has applied
    /// it; empty when no member runs.
    pub fn configuration(&self) -> ConfState {
        self.authority_raft()
            .map(Raft::conf_state)
            .unwrap_or_default()
    }

    /// How many voters make a quorum of the configuration: a majority of its
    /// voters, 0 when no voter is known (no member runs).
    pub fn majority(&self) -> usize {
        majority_of(self.configuration().voters.len())
    }

    /// The voters the viewpoint can exchange messages with now, itself
    /// included, lowest first. Empty when no member runs.
    pub fn reachable_voters(&self) -> Vec<NodeId> {
        let Some(from) = self.viewpoint() else {
            return Vec::new();
        };
        self.configuration()
            .voters
            .into_iter()
            .filter(|&v| v == from || self.world.connected_since(from, v).is_some())
            .collect()
    }

    /// The voters whose log holds the leader's commit index (the leader
    /// itself included): who acknowledged the latest commit. Empty without a
    /// leader.
    pub fn acked_voters(&self) -> Vec<NodeId> {
        let Some(l) = self.leader_raft() else {
            return Vec::new();
        };
        let commit = l.commit();
        self.configuration()
            .voters
            .into_iter()
            .filter(|id| {
                *id == l.id()
                    || l.tracker()
                        .progress
                        .get(id)
                        .is_some_and(|p| p.matched >= commit)
            })
            .collect()
    }

    /// The leader's commit index; without a leader, the authority's.
    pub fn commit_index(&self) -> u64 {
        self.leader_raft()
            .or_else(|| self.authority_raft())
            .map_or(0, Raft::commit)
    }

    /// The highest term any running member is in.
    pub fn highest_term(&self) -> u64 {
        self.world
            .nodes()
            .filter_map(|n| n.raft.as_ref())
            .map(Raft::term)
            .max()
            .unwrap_or(0)
    }

    /// Member `id` as the authority's applied members bucket records it.
    pub fn member(&self, id: NodeId) -> Option<&MemberRecord> {
        self.authority()
            .and_then(|a| self.world.node(a))
            .and_then(|a| a.state.members.get(&id))
    }

    /// Every id the authority's members_removed bucket holds: ids that can
    /// never come back.
    pub fn removed_ids(&self) -> VecSet<NodeId> {
        self.authority()
            .and_then(|a| self.world.node(a))
            .map(|a| a.state.removed.clone())
            .unwrap_or_default()
    }

    /// Whether `id` was removed from the cluster: its process stopped for
    /// good, or the authority's members_removed bucket holds it.
    pub fn is_removed(&self, id: NodeId) -> bool {
        self.world.node(id).is_some_and(|n| n.removed)
            || self
                .authority()
                .and_then(|a| self.world.node(a))
                .is_some_and(|a| a.state.removed.contains(&id))
    }

    /// Whether `id` is a learner, as the cluster records it: by the
    /// authority's configuration, else its members bucket (a member added
    /// but not started), else by the node's own view (an id the authority
    /// does not know). A node that has not yet applied its own promotion is
    /// a voter here: the cluster already counts it.
    pub fn is_learner(&self, id: NodeId) -> bool {
        // Read in place (the canvas asks for every node every frame): the
        // same sets as `configuration()`'s voters and learners.
        if let Some(c) = self.authority_raft().map(|r| &r.tracker().config) {
            if c.voters.incoming.contains(id) {
                return false;
            }
            if c.learners.contains(&id) {
                return true;
            }
        }
        match self.member(id) {
            Some(m) => m.learner,
            None => self.world.node(id).is_some_and(SimNode::is_learner),
        }
    }

    /// Whether member `id`'s process never ran (added, not yet started).
    pub fn never_started(&self, id: NodeId) -> bool {
        self.world
            .node(id)
            .is_none_or(|s| s.raft.is_none() && s.epoch == 0)
    }

    /// How node `id` sees itself in its own configuration; `None` while its
    /// process is down. It can differ from [`Cluster::is_learner`]: a
    /// learner promoted while the leader's messages did not reach it still
    /// has etcd-raft's `isLearner` set, and answers votes all the same.
    pub fn sees_itself(&self, id: NodeId) -> Option<SelfView> {
        let r = self.world.raft(id)?;
        Some(if r.is_learner() {
            SelfView::Learner
        } else if r.tracker().config.voters.contains(id) {
            SelfView::Voter
        } else {
            SelfView::Outside
        })
    }

    /// What node `id`'s Raft is doing; `None` while its process is down.
    pub fn role(&self, id: NodeId) -> Option<StateRole> {
        self.world.raft(id).map(Raft::role)
    }

    /// The leader's progress for peer `id` (not for the leader itself).
    pub fn progress(&self, id: NodeId) -> Option<&Progress> {
        let l = self.leader_raft()?;
        if l.id() == id {
            return None;
        }
        l.tracker().progress.get(&id)
    }

    /// A learner's catch-up as the leader sees it; `None` for a voter, or
    /// without a leader or a progress for it.
    pub fn learner_catch_up(&self, id: NodeId) -> Option<CatchUp> {
        if !self.is_learner(id) {
            return None;
        }
        self.catch_up(id)
    }

    /// How far the leader has replicated to `id` against its own log, as
    /// etcd's promotion check reads it.
    pub fn catch_up(&self, id: NodeId) -> Option<CatchUp> {
        let l = self.leader_raft()?;
        let matched = self.progress(id)?.matched;
        let leader_match = l
            .tracker()
            .progress
            .get(&l.id())
            .map_or(l.last_index(), |p| p.matched);
        Some(CatchUp {
            matched,
            leader_match,
        })
    }

    /// The background write load, if one runs.
    pub fn load(&self) -> Option<&Load> {
        self.load.as_ref()
    }

    /// How many learners the cluster allows (etcd's `--max-learners`).
    pub fn max_learners(&self) -> usize {
        self.world.config().max_learners
    }

    /// Messages on the network now, queued at a sender or on the wire, in
    /// send order.
    pub fn in_flight(&self) -> impl Iterator<Item = &InFlight> {
        self.world.network().in_flight()
    }

    /// Whether messages from `from` to `to` are cut off.
    pub fn is_cut(&self, from: NodeId, to: NodeId) -> bool {
        self.world.network().is_cut(from, to)
    }

    /// Bytes waiting in `id`'s outgoing queues at `t_ms` (its send queue),
    /// counting what is left of a message half sent: the report's
    /// `queued_bytes` and the canvas's send-queue label.
    pub fn queued_bytes(&self, id: NodeId, t_ms: u64) -> u64 {
        self.world
            .network()
            .queued_bytes(id, t_ms, self.world.config().bandwidth)
    }

    /// Raft messages `id` has sent and received since the run began: the
    /// report's `msgs_out` and `msgs_in`.
    pub fn message_counts(&self, id: NodeId) -> MessageCounts {
        self.world.network().counts(id)
    }
}

/// The quorum of `voters` voters; 0 when there are none.
pub fn majority_of(voters: usize) -> usize {
    if voters == 0 {
        0
    } else {
        quorum::majority(voters)
    }
}

/// What a node's own configuration makes it ([`Cluster::sees_itself`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SelfView {
    Voter,
    Learner,
    /// In neither set: removed, or a new member before its first
    /// configuration arrived.
    Outside,
}

impl SelfView {
    pub fn name(self) -> &'static str {
        match self {
            SelfView::Voter => "voter",
            SelfView::Learner => "learner",
            SelfView::Outside => "outside",
        }
    }
}
