//! Majority arithmetic (etcd's `quorum/majority.go`, single configuration only).
//!
//! Only voters appear here: learners are never passed in, so they can never
//! help commit an entry, win an election or keep a leader in office.

use std::collections::{BTreeMap, BTreeSet};

use crate::raft::types::NodeId;

/// How many of `n` voters make a majority.
pub fn majority(n: usize) -> usize {
    n / 2 + 1
}

/// The outcome of an election as far as the votes received so far tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteResult {
    /// Neither a majority of grants nor of rejections yet.
    Pending,
    /// A majority rejected: the candidate cannot win.
    Lost,
    /// A majority granted.
    Won,
}

/// Voter counts above which we fall back to a heap-allocated buffer.
const STACK_VOTERS: usize = 16;

/// The largest index that a majority of `voters` has acknowledged, given each
/// voter's acknowledged index (`None` counts as 0). With no voters there is
/// nothing to commit, so this is 0 (etcd returns "infinity" there so that
/// joint configurations compose; raftlab never uses joint configurations).
pub fn committed_index(voters: &BTreeSet<NodeId>, acked: impl Fn(NodeId) -> Option<u64>) -> u64 {
    let n = voters.len();
    if n == 0 {
        return 0;
    }
    // Small clusters are the norm: sort on the stack, no allocation.
    let mut stack = [0u64; STACK_VOTERS];
    let mut heap = Vec::new();
    let buf: &mut [u64] = if n <= STACK_VOTERS {
        &mut stack[..n]
    } else {
        heap.resize(n, 0);
        &mut heap
    };
    for (slot, id) in buf.iter_mut().zip(voters) {
        *slot = acked(*id).unwrap_or(0);
    }
    buf.sort_unstable();
    // Ascending order: the entry at n - majority has majority entries at or above it.
    buf[n - majority(n)]
}

/// Tallies `votes` (id -> granted) over `voters`; votes from non-voters are ignored.
/// An empty configuration wins trivially, as in etcd.
pub fn vote_result(voters: &BTreeSet<NodeId>, votes: &BTreeMap<NodeId, bool>) -> VoteResult {
    if voters.is_empty() {
        return VoteResult::Won;
    }
    let (mut granted, mut missing) = (0, 0);
    for id in voters {
        match votes.get(id) {
            Some(true) => granted += 1,
            Some(false) => {}
            None => missing += 1,
        }
    }
    let q = majority(voters.len());
    if granted >= q {
        VoteResult::Won
    } else if granted + missing >= q {
        VoteResult::Pending
    } else {
        VoteResult::Lost
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ids: &[NodeId]) -> BTreeSet<NodeId> {
        ids.iter().copied().collect()
    }

    #[test]
    fn majority_of_small_clusters() {
        assert_eq!([1, 2, 3, 4, 5, 6, 7].map(majority), [1, 2, 2, 3, 3, 4, 4]);
    }

    #[test]
    fn committed_index_is_the_majority_acknowledged_index() {
        let acks = BTreeMap::from([(1, 10), (2, 7), (3, 3), (4, 9), (5, 1)]);
        let get = |id| acks.get(&id).copied();
        assert_eq!(committed_index(&set(&[1]), get), 10);
        assert_eq!(committed_index(&set(&[1, 2]), get), 7);
        assert_eq!(committed_index(&set(&[1, 2, 3]), get), 7);
        assert_eq!(committed_index(&set(&[1, 2, 3, 4]), get), 7);
        assert_eq!(committed_index(&set(&[1, 2, 3, 4, 5]), get), 7);
        // Unknown voters count as having acknowledged nothing.
        assert_eq!(committed_index(&set(&[1, 8, 9]), get), 0);
        assert_eq!(committed_index(&set(&[1, 2, 9]), get), 7);
        assert_eq!(committed_index(&set(&[]), get), 0);
    }

    #[test]
    fn committed_index_with_many_voters_uses_the_heap_path() {
        let voters: BTreeSet<NodeId> = (1..=21).collect();
        // Voter i acknowledged i: the 11th largest of 1..=21 is 11.
        assert_eq!(committed_index(&voters, Some), 11);
    }

    #[test]
    fn vote_results() {
        let v = set(&[1, 2, 3]);
        let votes = |pairs: &[(NodeId, bool)]| pairs.iter().copied().collect::<BTreeMap<_, _>>();
        assert_eq!(vote_result(&v, &votes(&[])), VoteResult::Pending);
        assert_eq!(vote_result(&v, &votes(&[(1, true)])), VoteResult::Pending);
        assert_eq!(
            vote_result(&v, &votes(&[(1, true), (2, true)])),
            VoteResult::Won
        );
        assert_eq!(
            vote_result(&v, &votes(&[(1, true), (2, false)])),
            VoteResult::Pending
        );
        assert_eq!(
            vote_result(&v, &votes(&[(2, false), (3, false)])),
            VoteResult::Lost
        );
        // A learner's (non-voter's) grant never counts.
        assert_eq!(
            vote_result(&v, &votes(&[(1, true), (4, true)])),
            VoteResult::Pending
        );
        let four = set(&[1, 2, 3, 4]);
        assert_eq!(
            vote_result(&four, &votes(&[(1, true), (2, true)])),
            VoteResult::Pending
        );
        assert_eq!(
            vote_result(&four, &votes(&[(1, true), (3, false), (4, false)])),
            VoteResult::Lost
        );
        assert_eq!(vote_result(&set(&[]), &votes(&[])), VoteResult::Won);
    }
}
