//! Two majorities deciding together (etcd's `quorum/joint.go`): the joint
//! configuration C_old,new of the Raft dissertation's §4.3. A decision needs
//! both majorities; outside a joint change the outgoing half is empty, and
//! the empty majority agrees to everything, so the incoming half decides.

use crate::collections::vecmap::{VecMap, VecSet};
use std::fmt;

use super::{MajorityConfig, VoteResult};
use crate::raft::types::NodeId;

/// Invariant: `outgoing` is empty unless a joint change is in progress.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JointConfig {
    /// The configuration being moved to (etcd's `Voters[0]`); changes
    /// always apply here.
    pub incoming: MajorityConfig,
    /// The configuration being left (etcd's `Voters[1]`).
    pub outgoing: MajorityConfig,
}

impl JointConfig {
    /// Whether a joint change is in progress.
    pub fn is_joint(&self) -> bool {
        !self.outgoing.is_empty()
    }

    /// Every voter of either half, ascending.
    pub fn ids(&self) -> VecSet<NodeId> {
        self.incoming.iter().chain(self.outgoing.iter()).collect()
    }

    pub fn contains(&self, id: NodeId) -> bool {
        self.incoming.contains(id) || self.outgoing.contains(id)
    }

    /// The largest index committed in both halves.
    pub fn committed_index(&self, acked: impl Fn(NodeId) -> Option<u64>) -> u64 {
        let incoming = self.incoming.committed_index(&acked);
        let outgoing = self.outgoing.committed_index(&acked);
        incoming.min(outgoing)
    }

    /// Both halves must win; either one losing loses.
    pub fn vote_result(&self, votes: &VecMap<NodeId, bool>) -> VoteResult {
        let r1 = self.incoming.vote_result(votes);
        let r2 = self.outgoing.vote_result(votes);
        if r1 == r2 {
            r1
        } else if r1 == VoteResult::Lost || r2 == VoteResult::Lost {
            VoteResult::Lost
        } else {
            VoteResult::Pending
        }
    }

    /// The acknowledged indexes of every voter (etcd's `JointConfig.Describe`).
    pub fn describe(&self, acked: impl Fn(NodeId) -> Option<u64>) -> String {
        MajorityConfig::new(self.ids()).describe(acked)
    }
}

impl fmt::Display for JointConfig {
    /// "(1 2 3)", or "(1 2 4)&&(1 2 3)" while joint.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_joint() {
            write!(f, "{}&&{}", self.incoming, self.outgoing)
        } else {
            write!(f, "{}", self.incoming)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::quorum::INFINITY;

    fn joint(incoming: &[NodeId], outgoing: &[NodeId]) -> JointConfig {
        JointConfig {
            incoming: incoming.iter().copied().collect(),
            outgoing: outgoing.iter().copied().collect(),
        }
    }

    #[test]
    fn commit_needs_both_majorities() {
        let acks = VecMap::from([(1, 9), (2, 8), (3, 2), (4, 1)]);
        let get = |id| acks.get(&id).copied();
        // (1 2 3) alone commits 8; (2 3 4) alone commits 2; together 2.
        assert_eq!(joint(&[1, 2, 3], &[]).committed_index(get), 8);
        assert_eq!(joint(&[1, 2, 3], &[2, 3, 4]).committed_index(get), 2);
        assert_eq!(joint(&[2, 3, 4], &[1, 2, 3]).committed_index(get), 2);
        assert_eq!(joint(&[], &[]).committed_index(get), INFINITY);
        assert_eq!(
            joint(&[1, 2, 3], &[2, 3, 4]).to_string(),
            "(1 2 3)&&(2 3 4)"
        );
    }

    #[test]
    fn a_vote_needs_both_majorities() {
        let c = joint(&[1, 2, 3], &[3, 4, 5]);
        let votes = |pairs: &[(NodeId, bool)]| pairs.iter().copied().collect::<VecMap<_, _>>();
        assert_eq!(
            c.vote_result(&votes(&[(1, true), (2, true)])),
            VoteResult::Pending
        );
        // The incoming half won, the outgoing one still waits.
        assert_eq!(
            c.vote_result(&votes(&[(1, true), (2, true), (3, true)])),
            VoteResult::Pending
        );
        assert_eq!(
            c.vote_result(&votes(&[(1, true), (2, true), (3, true), (4, true)])),
            VoteResult::Won
        );
        assert_eq!(
            c.vote_result(&votes(&[(1, true), (2, true), (4, false), (5, false)])),
            VoteResult::Lost
        );
    }
}
