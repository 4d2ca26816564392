//! One majority of voters (etcd's `quorum/majority.go`).

use crate::collections::vecmap::{VecMap, VecSet};
use std::fmt;

use super::{majority, VoteResult, INFINITY};
use crate::raft::types::NodeId;

/// Voter counts above which `committed_index` sorts on the heap.
const STACK_VOTERS: usize = 16;

/// A set of voters deciding by simple majority.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MajorityConfig(VecSet<NodeId>);

impl MajorityConfig {
    pub fn new(ids: impl IntoIterator<Item = NodeId>) -> MajorityConfig {
        MajorityConfig(ids.into_iter().collect())
    }

    pub fn ids(&self) -> &VecSet<NodeId> {
        &self.0
    }

    pub fn contains(&self, id: NodeId) -> bool {
        self.0.contains(&id)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn insert(&mut self, id: NodeId) {
        self.0.insert(id);
    }

    pub fn remove(&mut self, id: NodeId) {
        self.0.remove(&id);
    }

    pub fn iter(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.0.iter().copied()
    }

    /// The largest index that a majority has acknowledged, given each
    /// voter's acknowledged index (`None` counts as 0: a voter that may still
    /// report in). The empty configuration commits everything ([`INFINITY`]),
    /// so that it never holds back the other half of a joint configuration.
    pub fn committed_index(&self, acked: impl Fn(NodeId) -> Option<u64>) -> u64 {
        let n = self.0.len();
        if n == 0 {
            return INFINITY;
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
        for (slot, id) in buf.iter_mut().zip(&self.0) {
            *slot = acked(*id).unwrap_or(0);
        }
        crate::collections::vecmap::sort_u64s(buf);
        // Ascending order: the entry at n - majority has a majority at or above it.
        buf[n - majority(n)]
    }

    /// Tallies `votes` (id -> granted); votes of ids outside the set are
    /// ignored. The empty configuration wins, by etcd's convention (it makes
    /// a joint configuration with an empty half behave like the other half).
    pub fn vote_result(&self, votes: &VecMap<NodeId, bool>) -> VoteResult {
        if self.0.is_empty() {
            return VoteResult::Won;
        }
        let (mut granted, mut missing) = (0, 0);
        for id in &self.0 {
            match votes.get(id) {
                Some(true) => granted += 1,
                Some(false) => {}
                None => missing += 1,
            }
        }
        let q = majority(self.0.len());
        if granted >= q {
            VoteResult::Won
        } else if granted + missing >= q {
            VoteResult::Pending
        } else {
            VoteResult::Lost
        }
    }

    /// A multi-line picture of the acknowledged indexes (etcd's
    /// `MajorityConfig.Describe`): one line per voter, by id, with a bar
    /// whose length is the voter's rank among the indexes (equal indexes,
    /// equal bars) and "?" for a voter that has not reported.
    pub fn describe(&self, acked: impl Fn(NodeId) -> Option<u64>) -> String {
        if self.0.is_empty() {
            return "<empty majority quorum>".to_string();
        }
        let n = self.0.len();
        let mut info: Vec<(NodeId, Option<u64>, usize)> =
            self.0.iter().map(|&id| (id, acked(id), 0)).collect();
        info.sort_by_key(|&(id, idx, _)| (idx.unwrap_or(0), id));
        for i in 1..n {
            let (prev, cur) = (info[i - 1].1.unwrap_or(0), info[i].1.unwrap_or(0));
            info[i].2 = if prev < cur { i } else { info[i - 1].2 };
        }
        info.sort_by_key(|&(id, _, _)| id);
        let mut s = format!("{}    idx\n", " ".repeat(n));
        for (id, idx, bar) in info {
            match idx {
                None => s.push_str(&format!("?{}", " ".repeat(n))),
                Some(_) => s.push_str(&format!("{}>{}", "x".repeat(bar), " ".repeat(n - bar))),
            }
            s.push_str(&format!(" {:>5}    (id={id:x})\n", idx.unwrap_or(0)));
        }
        s
    }
}

impl fmt::Display for MajorityConfig {
    /// "(1 2 3)", ids in hex, as etcd prints them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ids: Vec<String> = self.0.iter().map(|id| format!("{id:x}")).collect();
        write!(f, "({})", ids.join(" "))
    }
}

impl FromIterator<NodeId> for MajorityConfig {
    fn from_iter<I: IntoIterator<Item = NodeId>>(iter: I) -> Self {
        MajorityConfig::new(iter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ids: &[NodeId]) -> MajorityConfig {
        ids.iter().copied().collect()
    }

    #[test]
    fn majority_of_small_clusters() {
        assert_eq!([1, 2, 3, 4, 5, 6, 7].map(majority), [1, 2, 2, 3, 3, 4, 4]);
    }

    #[test]
    fn committed_index_is_the_majority_acknowledged_index() {
        let acks = VecMap::from([(1, 10), (2, 7), (3, 3), (4, 9), (5, 1)]);
        let get = |id| acks.get(&id).copied();
        assert_eq!(set(&[1]).committed_index(get), 10);
        assert_eq!(set(&[1, 2]).committed_index(get), 7);
        assert_eq!(set(&[1, 2, 3]).committed_index(get), 7);
        assert_eq!(set(&[1, 2, 3, 4]).committed_index(get), 7);
        assert_eq!(set(&[1, 2, 3, 4, 5]).committed_index(get), 7);
        // Unknown voters count as having acknowledged nothing.
        assert_eq!(set(&[1, 8, 9]).committed_index(get), 0);
        assert_eq!(set(&[1, 2, 9]).committed_index(get), 7);
        assert_eq!(set(&[]).committed_index(get), INFINITY);
    }

    #[test]
    fn committed_index_with_many_voters_uses_the_heap_path() {
        let voters: MajorityConfig = (1..=21).collect();
        // Voter i acknowledged i: the 11th largest of 1..=21 is 11.
        assert_eq!(voters.committed_index(Some), 11);
    }

    #[test]
    fn vote_results() {
        let v = set(&[1, 2, 3]);
        let votes = |pairs: &[(NodeId, bool)]| pairs.iter().copied().collect::<VecMap<_, _>>();
        assert_eq!(v.vote_result(&votes(&[])), VoteResult::Pending);
        assert_eq!(v.vote_result(&votes(&[(1, true)])), VoteResult::Pending);
        assert_eq!(
            v.vote_result(&votes(&[(1, true), (2, true)])),
            VoteResult::Won
        );
        assert_eq!(
            v.vote_result(&votes(&[(1, true), (2, false)])),
            VoteResult::Pending
        );
        assert_eq!(
            v.vote_result(&votes(&[(2, false), (3, false)])),
            VoteResult::Lost
        );
        // A learner's (non-voter's) grant never counts.
        assert_eq!(
            v.vote_result(&votes(&[(1, true), (4, true)])),
            VoteResult::Pending
        );
        let four = set(&[1, 2, 3, 4]);
        assert_eq!(
            four.vote_result(&votes(&[(1, true), (2, true)])),
            VoteResult::Pending
        );
        assert_eq!(
            four.vote_result(&votes(&[(1, true), (3, false), (4, false)])),
            VoteResult::Lost
        );
        assert_eq!(set(&[]).vote_result(&votes(&[])), VoteResult::Won);
    }

    #[test]
    fn describe_draws_ranks_and_unknowns() {
        let acks = VecMap::from([(1, 12), (2, 5)]);
        let got = set(&[1, 2, 3]).describe(|id| acks.get(&id).copied());
        let want = "       idx\nxx>     12    (id=1)\nx>       5    (id=2)\n?        0    (id=3)\n";
        assert_eq!(got, want);
        assert_eq!(set(&[]).describe(|_| None), "<empty majority quorum>");
        assert_eq!(set(&[1, 2, 0x1a]).to_string(), "(1 2 1a)");
    }
}
