//! Rebuilding a configuration from a ConfState (etcd's
//! `confchange/restore.go`), by replaying the changes that produce it on an
//! empty configuration: every peer starts fresh.

use super::{Changer, ConfChangeError};
use crate::collections::vecmap::VecSet;
use crate::raft::tracker::ProgressTracker;
use crate::raft::types::{ConfChangeSingle, ConfChangeType, ConfState, NodeId};

/// A tracker holding exactly the configuration `cs`; new peers probe from
/// `last_index`.
///
/// A joint `cs` is rebuilt in two steps: the outgoing voters are added one
/// by one, then a joint change turns them into the outgoing half while it
/// removes them from, and adds the incoming voters and learners to, the
/// incoming half (etcd's `toConfChangeSingle`).
pub fn restore(
    cs: &ConfState,
    max_inflight: usize,
    last_index: u64,
) -> Result<ProgressTracker, ConfChangeError> {
    let outgoing: Vec<_> = add(&cs.voters_outgoing, ConfChangeType::AddNode).collect();
    let incoming: Vec<_> = add(&cs.voters_outgoing, ConfChangeType::RemoveNode)
        .chain(add(&cs.voters, ConfChangeType::AddNode))
        .chain(add(&cs.learners, ConfChangeType::AddLearnerNode))
        .chain(add(&cs.learners_next, ConfChangeType::AddLearnerNode))
        .collect();

    let mut t = ProgressTracker::new(max_inflight);
    let simple_changes = if outgoing.is_empty() {
        &incoming
    } else {
        &outgoing
    };
    for cc in simple_changes {
        let changer = Changer {
            tracker: &t,
            last_index,
        };
        (t.config, t.progress) = changer.simple(std::slice::from_ref(cc))?;
    }
    if !outgoing.is_empty() {
        let changer = Changer {
            tracker: &t,
            last_index,
        };
        (t.config, t.progress) = changer.enter_joint(cs.auto_leave, &incoming)?;
    }
    Ok(t)
}

fn add(
    ids: &VecSet<NodeId>,
    change_type: ConfChangeType,
) -> impl Iterator<Item = ConfChangeSingle> + '_ {
    ids.iter().map(move |&node_id| ConfChangeSingle {
        change_type,
        node_id,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restores_simple_and_joint_configurations() {
        let cs = ConfState {
            voters: [1, 2].into(),
            learners: [3].into(),
            ..Default::default()
        };
        let t = restore(&cs, 4, 5).unwrap();
        assert_eq!(t.conf_state(), cs);
        assert_eq!(t.progress[&3].next_idx, 5);

        let joint = ConfState {
            voters: [1, 2, 3].into(),
            learners: [5].into(),
            voters_outgoing: [1, 2, 4, 6].into(),
            learners_next: [4].into(),
            auto_leave: true,
        };
        let t = restore(&joint, 4, 5).unwrap();
        assert_eq!(t.conf_state(), joint);
        assert_eq!(
            t.config.to_string(),
            "voters=(1 2 3)&&(1 2 4 6) learners=(5) learners_next=(4) autoleave"
        );
        assert_eq!(
            restore(&ConfState::default(), 4, 0).unwrap().progress.len(),
            0
        );
    }
}
