//! Applying one membership change to a configuration (etcd's
//! `confchange/confchange.go`, the `Simple` path: raftlab never uses joint
//! consensus, as etcd's server never does).

use crate::raft::progress::Progress;
use crate::raft::tracker::ProgressTracker;
use crate::raft::types::{ConfChange, ConfChangeType, ConfState, NodeId};

/// Applies `cc` to the tracker's configuration. `last_index` is this node's
/// last log index, which seeds new peers' progress (Match 0, Next =
/// max(last_index, 1), Probe, recently active so the leader may snapshot it).
///
/// Refused, leaving the configuration untouched: a change that would leave
/// no voter (etcd: "removed all voters").
pub fn apply(
    tracker: &mut ProgressTracker,
    cc: &ConfChange,
    last_index: u64,
) -> Result<(), &'static str> {
    let id = cc.node_id;
    if id == 0 {
        // etcd skips changes to node 0.
        return Ok(());
    }
    let voters_after = {
        let is_voter = tracker.voters.contains(&id);
        let n = tracker.voters.len();
        match cc.change_type {
            ConfChangeType::AddNode => n + usize::from(!is_voter),
            ConfChangeType::AddLearnerNode | ConfChangeType::RemoveNode => {
                n - usize::from(is_voter)
            }
        }
    };
    if voters_after == 0 {
        return Err("removed all voters");
    }
    match cc.change_type {
        ConfChangeType::AddNode => make_voter(tracker, id, last_index),
        ConfChangeType::AddLearnerNode => make_learner(tracker, id, last_index),
        ConfChangeType::RemoveNode => remove(tracker, id),
    }
    Ok(())
}

/// A new voter, or a learner promoted in place: its Match and Next are kept,
/// so a caught-up learner counts at once.
fn make_voter(t: &mut ProgressTracker, id: NodeId, last_index: u64) {
    match t.progress.get_mut(&id) {
        Some(pr) => {
            pr.is_learner = false;
            t.learners.remove(&id);
            t.voters.insert(id);
        }
        None => init_progress(t, id, false, last_index),
    }
}

/// A new learner, or (as etcd allows) a voter demoted to learner, keeping its progress.
fn make_learner(t: &mut ProgressTracker, id: NodeId, last_index: u64) {
    match t.progress.get_mut(&id) {
        Some(pr) if pr.is_learner => {}
        Some(pr) => {
            pr.is_learner = true;
            t.voters.remove(&id);
            t.learners.insert(id);
        }
        None => init_progress(t, id, true, last_index),
    }
}

fn remove(t: &mut ProgressTracker, id: NodeId) {
    t.voters.remove(&id);
    t.learners.remove(&id);
    t.progress.remove(&id);
}

fn init_progress(t: &mut ProgressTracker, id: NodeId, is_learner: bool, last_index: u64) {
    if is_learner {
        t.learners.insert(id);
    } else {
        t.voters.insert(id);
    }
    let mut pr = Progress::new(last_index.max(1), t.max_inflight, is_learner);
    pr.recent_active = true;
    t.progress.insert(id, pr);
}

/// A tracker holding exactly the configuration `cs`, every peer fresh (etcd's
/// `confchange.Restore` for a non-joint ConfState).
pub fn restore(cs: &ConfState, max_inflight: usize, last_index: u64) -> ProgressTracker {
    let mut t = ProgressTracker::new(max_inflight);
    for &v in &cs.voters {
        init_progress(&mut t, v, false, last_index);
    }
    for &l in &cs.learners {
        if !t.voters.contains(&l) {
            init_progress(&mut t, l, true, last_index);
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    fn cc(change_type: ConfChangeType, node_id: NodeId) -> ConfChange {
        ConfChange {
            change_type,
            node_id,
            request: 0,
            peer_url: Rc::from(""),
            promote: false,
        }
    }

    fn ids(set: &std::collections::BTreeSet<NodeId>) -> Vec<NodeId> {
        set.iter().copied().collect()
    }

    #[test]
    fn add_learner_promote_and_remove() {
        let mut t = ProgressTracker::new(4);
        apply(&mut t, &cc(ConfChangeType::AddNode, 1), 0).unwrap();
        assert_eq!(t.progress[&1].next_idx, 1);
        apply(&mut t, &cc(ConfChangeType::AddLearnerNode, 2), 7).unwrap();
        assert_eq!((ids(&t.voters), ids(&t.learners)), (vec![1], vec![2]));
        let pr = &t.progress[&2];
        assert!(pr.is_learner && pr.recent_active);
        assert_eq!((pr.matched, pr.next_idx), (0, 7));

        // Promotion keeps what the leader knew of the learner's log.
        t.progress.get_mut(&2).unwrap().matched = 9;
        t.progress.get_mut(&2).unwrap().next_idx = 10;
        apply(&mut t, &cc(ConfChangeType::AddNode, 2), 12).unwrap();
        assert_eq!((ids(&t.voters), ids(&t.learners)), (vec![1, 2], vec![]));
        assert_eq!((t.progress[&2].matched, t.progress[&2].next_idx), (9, 10));
        assert!(!t.progress[&2].is_learner);

        // Adding an existing voter again changes nothing.
        apply(&mut t, &cc(ConfChangeType::AddNode, 2), 12).unwrap();
        assert_eq!(t.progress[&2].matched, 9);

        apply(&mut t, &cc(ConfChangeType::RemoveNode, 1), 12).unwrap();
        assert_eq!(ids(&t.voters), vec![2]);
        assert!(!t.progress.contains_key(&1));
        // Removing an unknown node is a no-op.
        apply(&mut t, &cc(ConfChangeType::RemoveNode, 9), 12).unwrap();
    }

    #[test]
    fn refuses_to_remove_the_last_voter() {
        let mut t = ProgressTracker::new(4);
        apply(&mut t, &cc(ConfChangeType::AddNode, 1), 1).unwrap();
        apply(&mut t, &cc(ConfChangeType::AddLearnerNode, 2), 1).unwrap();
        let before = t.clone();
        assert_eq!(
            apply(&mut t, &cc(ConfChangeType::RemoveNode, 1), 1),
            Err("removed all voters")
        );
        assert_eq!(
            apply(&mut t, &cc(ConfChangeType::AddLearnerNode, 1), 1),
            Err("removed all voters")
        );
        assert_eq!(t, before);
        // The first change of an empty configuration must add a voter.
        let mut empty = ProgressTracker::new(4);
        assert!(apply(&mut empty, &cc(ConfChangeType::AddLearnerNode, 3), 1).is_err());
    }

    #[test]
    fn demotion_keeps_progress() {
        let mut t = restore(
            &ConfState {
                voters: [1, 2].into(),
                learners: [3].into(),
            },
            4,
            5,
        );
        assert_eq!(t.progress[&3].next_idx, 5);
        t.progress.get_mut(&2).unwrap().matched = 4;
        apply(&mut t, &cc(ConfChangeType::AddLearnerNode, 2), 5).unwrap();
        assert_eq!((ids(&t.voters), ids(&t.learners)), (vec![1], vec![2, 3]));
        assert!(t.progress[&2].is_learner);
        assert_eq!(t.progress[&2].matched, 4);
    }
}
