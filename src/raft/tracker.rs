//! The leader's bookkeeping of the configuration, of every peer's progress
//! and of the votes of the current election (etcd's `tracker/tracker.go`).

use std::collections::{BTreeMap, BTreeSet};

use crate::raft::progress::Progress;
use crate::raft::quorum::{self, VoteResult};
use crate::raft::types::{ConfState, NodeId};

/// Invariants: `voters` and `learners` are disjoint; every id in either has
/// an entry in `progress` (and nothing else does), whose `is_learner` says
/// which set it is in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgressTracker {
    pub voters: BTreeSet<NodeId>,
    pub learners: BTreeSet<NodeId>,
    pub progress: BTreeMap<NodeId, Progress>,
    /// Votes received in the current (pre-)election: id -> granted.
    pub votes: BTreeMap<NodeId, bool>,
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

    /// The largest index a majority of voters has in its log.
    pub fn committed(&self) -> u64 {
        quorum::committed_index(&self.voters, |id| self.progress.get(&id).map(|p| p.matched))
    }

    pub fn record_vote(&mut self, id: NodeId, granted: bool) {
        // The first answer of a voter in an election is the one that counts.
        self.votes.entry(id).or_insert(granted);
    }

    pub fn reset_votes(&mut self) {
        self.votes.clear();
    }

    /// (granted, rejected, result) over voters only.
    pub fn tally_votes(&self) -> (usize, usize, VoteResult) {
        let (mut granted, mut rejected) = (0, 0);
        for id in &self.voters {
            match self.votes.get(id) {
                Some(true) => granted += 1,
                Some(false) => rejected += 1,
                None => {}
            }
        }
        (
            granted,
            rejected,
            quorum::vote_result(&self.voters, &self.votes),
        )
    }

    /// Voters whose votes were granted in the current election, ascending.
    pub fn granted_voters(&self) -> Vec<NodeId> {
        self.votes
            .iter()
            .filter(|(id, granted)| **granted && self.voters.contains(id))
            .map(|(id, _)| *id)
            .collect()
    }

    /// Whether a majority of voters was recently active (CheckQuorum).
    /// Learners are skipped: their activity keeps no leader in office.
    pub fn quorum_active(&self) -> bool {
        let mut active = BTreeMap::new();
        for id in &self.voters {
            if let Some(pr) = self.progress.get(id) {
                active.insert(*id, pr.recent_active);
            }
        }
        quorum::vote_result(&self.voters, &active) == VoteResult::Won
    }

    /// Whether the configuration has exactly one voter.
    pub fn is_singleton(&self) -> bool {
        self.voters.len() == 1
    }

    pub fn conf_state(&self) -> ConfState {
        ConfState {
            voters: self.voters.clone(),
            learners: self.learners.clone(),
        }
    }

    /// One line per peer, like etcd's `ProgressMap.String`.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        for (id, pr) in &self.progress {
            s.push_str(&format!("{id}: {}\n", pr.describe()));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tracker(voters: &[NodeId], learners: &[NodeId]) -> ProgressTracker {
        let mut t = ProgressTracker::new(8);
        for &v in voters {
            t.voters.insert(v);
            t.progress.insert(v, Progress::new(1, 8, false));
        }
        for &l in learners {
            t.learners.insert(l);
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
}
