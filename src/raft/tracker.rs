//! The configuration and the leader's bookkeeping of every peer's progress
//! and of the votes of the current election (etcd's `tracker/tracker.go`).

use crate::collections::vecmap::{VecMap, VecSet};
use std::fmt;

use crate::raft::progress::Progress;
use crate::raft::quorum::{JointConfig, MajorityConfig, VoteResult};
use crate::raft::types::{ConfState, NodeId};

/// The active configuration (etcd's `tracker.Config`).
///
/// Invariants (checked by `confchange`): learners are in neither half of
/// `voters`; `learners_next` are outgoing voters to become learners when the
/// joint configuration is left, so it is empty unless joint; `auto_leave`
/// only while joint.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrackerConfig {
    pub voters: JointConfig,
    /// Leave the joint configuration as soon as it is applied (the leader
    /// proposes the empty change itself) rather than on the application's
    /// request.
    pub auto_leave: bool,
    pub learners: VecSet<NodeId>,
    /// Voters demoted in a joint change: they keep voting in the outgoing
    /// half and turn learners on leaving it (a peer is never both).
    pub learners_next: VecSet<NodeId>,
}

impl fmt::Display for TrackerConfig {
    /// etcd's form: "voters=(1 2 3)&&(1 2) learners=(4) learners_next=(3) autoleave".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "voters={}", self.voters)?;
        if !self.learners.is_empty() {
            write!(
                f,
                " learners={}",
                MajorityConfig::new(self.learners.clone())
            )?;
        }
        if !self.learners_next.is_empty() {
            let next = MajorityConfig::new(self.learners_next.clone());
            write!(f, " learners_next={next}")?;
        }
        if self.auto_leave {
            write!(f, " autoleave")?;
        }
        Ok(())
    }
}

/// Every tracked peer's progress, by id (etcd's `ProgressMap`).
pub type ProgressMap = VecMap<NodeId, Progress>;

/// Invariant: every id in `config` (either half of the voters, learners,
/// learners_next) has an entry in `progress` and nothing else does; an
/// entry's `is_learner` is set exactly for `config.learners`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgressTracker {
    pub config: TrackerConfig,
    pub progress: ProgressMap,
    /// Votes received in the current (pre-)election: id -> granted.
    pub votes: VecMap<NodeId, bool>,
    /// Capacity of each new progress's in-flight window.
    pub max_inflight: usize,
}

impl ProgressTracker {
    pub fn new(max_inflight: usize) -> ProgressTracker {
        ProgressTracker {
            max_inflight,
            ..ProgressTracker::default()
        }
    }

    /// The configuration as raftpb's ConfState.
    pub fn conf_state(&self) -> ConfState {
        let c = &self.config;
        ConfState {
            voters: c.voters.incoming.ids().clone(),
            learners: c.learners.clone(),
            voters_outgoing: c.voters.outgoing.ids().clone(),
            learners_next: c.learners_next.clone(),
            auto_leave: c.auto_leave,
        }
    }

    pub fn voters(&self) -> &JointConfig {
        &self.config.voters
    }

    /// Whether `id` votes, in either half of a joint configuration.
    pub fn is_voter(&self, id: NodeId) -> bool {
        self.config.voters.contains(id)
    }

    /// Every voter of either half, ascending (etcd's `VoterNodes`).
    pub fn voter_nodes(&self) -> Vec<NodeId> {
        self.config.voters.ids().into_iter().collect()
    }

    /// The learners, ascending (etcd's `LearnerNodes`).
    pub fn learner_nodes(&self) -> Vec<NodeId> {
        self.config.learners.iter().copied().collect()
    }

    /// Whether this is a single voter's configuration, not joint.
    pub fn is_singleton(&self) -> bool {
        let v = &self.config.voters;
        v.incoming.len() == 1 && !v.is_joint()
    }

    /// The largest index the voters have committed (a joint configuration:
    /// in both halves).
    pub fn committed(&self) -> u64 {
        self.config
            .voters
            .committed_index(|id| self.progress.get(&id).map(|p| p.matched))
    }

    pub fn record_vote(&mut self, id: NodeId, granted: bool) {
        // The first answer of a voter in an election is the one that counts.
        self.votes.entry(id).or_insert(granted);
    }

    pub fn reset_votes(&mut self) {
        self.votes.clear();
    }

    /// (granted, rejected, result). The counts are of tracked non-learners,
    /// for narration; the result is the joint quorum's.
    pub fn tally_votes(&self) -> (usize, usize, VoteResult) {
        let (mut granted, mut rejected) = (0, 0);
        for (id, pr) in &self.progress {
            match self.votes.get(id) {
                _ if pr.is_learner => {}
                Some(true) => granted += 1,
                Some(false) => rejected += 1,
                None => {}
            }
        }
        let result = self.config.voters.vote_result(&self.votes);
        (granted, rejected, result)
    }

    /// Voters whose votes were granted in the current election, ascending.
    pub fn granted_voters(&self) -> Vec<NodeId> {
        self.votes
            .iter()
            .filter(|(id, granted)| **granted && self.is_voter(**id))
            .map(|(id, _)| *id)
            .collect()
    }

    /// Whether a quorum of voters was recently active (CheckQuorum).
    /// Learners are skipped: their activity keeps no leader in office.
    pub fn quorum_active(&self) -> bool {
        let active: VecMap<NodeId, bool> = self
            .progress
            .iter()
            .filter(|(_, pr)| !pr.is_learner)
            .map(|(&id, pr)| (id, pr.recent_active))
            .collect();
        self.config.voters.vote_result(&active) == VoteResult::Won
    }

    /// One line per peer, like etcd's `ProgressMap.String`.
    pub fn describe(&self) -> String {
        self.progress
            .iter()
            .map(|(id, pr)| format!("{id}: {}\n", pr.describe()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tracker(voters: &[NodeId], learners: &[NodeId]) -> ProgressTracker {
        let mut t = ProgressTracker::new(8);
        for &v in voters {
            t.config.voters.incoming.insert(v);
            t.progress.insert(v, Progress::new(1, 8, false));
        }
        for &l in learners {
            t.config.learners.insert(l);
            t.progress.insert(l, Progress::new(1, 8, true));
        }
        t
    }

    #[test]
    fn learners_never_count_towards_commit() {
        let mut t = tracker(&[1, 2, 3], &[4, 5]);
        t.progress.get_mut(&1).unwrap().matched = 10;
        t.progress.get_mut(&4).unwrap().matched = 10;
        t.progress.get_mut(&5).unwrap().matched = 10;
        assert_eq!(t.committed(), 0);
        t.progress.get_mut(&2).unwrap().matched = 6;
        assert_eq!(t.committed(), 6);
    }

    #[test]
    fn learners_never_count_in_quorum_active_or_votes() {
        let mut t = tracker(&[1, 2, 3], &[4, 5]);
        t.progress.get_mut(&1).unwrap().recent_active = true;
        t.progress.get_mut(&4).unwrap().recent_active = true;
        t.progress.get_mut(&5).unwrap().recent_active = true;
        assert!(!t.quorum_active());
        t.progress.get_mut(&3).unwrap().recent_active = true;
        assert!(t.quorum_active());

        t.record_vote(1, true);
        t.record_vote(4, true);
        t.record_vote(5, true);
        assert_eq!(t.tally_votes(), (1, 0, VoteResult::Pending));
        t.record_vote(2, false);
        t.record_vote(2, true); // only the first answer counts
        assert_eq!(t.tally_votes(), (1, 1, VoteResult::Pending));
        t.record_vote(3, true);
        assert_eq!(t.tally_votes(), (2, 1, VoteResult::Won));
        assert_eq!(t.granted_voters(), vec![1, 3]);
        t.reset_votes();
        assert_eq!(t.tally_votes(), (0, 0, VoteResult::Pending));
    }

    #[test]
    fn a_joint_configuration_needs_both_halves() {
        let mut t = tracker(&[1, 2, 3], &[]);
        t.config.voters.outgoing = MajorityConfig::new([1, 2, 4]);
        t.progress.insert(4, Progress::new(1, 8, false));
        for (id, m) in [(1, 5), (2, 3), (3, 5), (4, 1)] {
            t.progress.get_mut(&id).unwrap().matched = m;
        }
        // (1 2 3) commits 5, (1 2 4) only 3.
        assert_eq!(t.committed(), 3);
        assert!(!t.is_singleton());
        assert_eq!(t.voter_nodes(), vec![1, 2, 3, 4]);
        t.config.auto_leave = true;
        t.config.learners_next.insert(4);
        assert_eq!(
            t.config.to_string(),
            "voters=(1 2 3)&&(1 2 4) learners_next=(4) autoleave"
        );
        let cs = t.conf_state();
        assert_eq!(cs.voters_outgoing, [1, 2, 4].into());
        assert!(cs.auto_leave);
    }
}
