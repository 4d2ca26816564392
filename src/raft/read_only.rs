//! Linearizable reads confirmed by a heartbeat round (etcd's `read_only.go`,
//! ReadOnlySafe).
//!
//! Each read the leader accepts gets a position (1, 2, ...). A heartbeat
//! carries the position of the newest pending read in its context; a voter's
//! ack of position p confirms every read up to p. Once a majority of voters
//! (the leader included) has acked up to p, reads 1..=p are safe to answer
//! with the commit index recorded when each arrived: the leader was still
//! the leader after they arrived.

use crate::collections::vecmap::VecMap;

use crate::raft::quorum::JointConfig;
use crate::raft::types::NodeId;

/// A read waiting for its heartbeat round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadRequest {
    /// The caller's request id.
    pub request: u64,
    /// Who asked: this node, or the follower that forwarded it.
    pub from: NodeId,
    /// The leader's commit index when the read arrived.
    pub index: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadOnly {
    /// Highest position each peer acknowledged.
    acks: VecMap<NodeId, u64>,
    /// The reads waiting, oldest first: a vector, not a deque (reads leave
    /// a round at a time, and a deque's code costs the page's module more).
    unconfirmed: Vec<ReadRequest>,
    /// Reads 1..=confirmed have been answered.
    confirmed: u64,
}

impl ReadOnly {
    /// Counts the acknowledgements and the reads waiting.
    pub fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        self.acks.heap_size(m);
        m.vec(&self.unconfirmed);
    }

    pub fn add_request(&mut self, req: ReadRequest) {
        self.unconfirmed.push(req);
    }

    pub fn recv_ack(&mut self, from: NodeId, position: u64) {
        if position != 0 {
            let a = self.acks.entry(from).or_insert(0);
            *a = (*a).max(position);
        }
    }

    /// The reads a majority of `voters` has now confirmed, oldest first.
    pub fn maybe_advance(&mut self, voters: &JointConfig) -> Vec<ReadRequest> {
        let now = voters.committed_index(|id| self.acks.get(&id).copied());
        if now <= self.confirmed {
            return Vec::new();
        }
        let n = ((now - self.confirmed) as usize).min(self.unconfirmed.len());
        self.confirmed = now;
        let rest = self.unconfirmed.split_off(n);
        std::mem::replace(&mut self.unconfirmed, rest)
    }

    /// The context for the next heartbeat: the newest pending read's position, or 0.
    pub fn heartbeat_ctx(&self) -> u64 {
        if self.unconfirmed.is_empty() {
            0
        } else {
            self.confirmed + self.unconfirmed.len() as u64
        }
    }

    pub fn pending(&self) -> usize {
        self.unconfirmed.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_confirmed_by_a_majority_of_voters_only() {
        let voters = JointConfig {
            incoming: [1, 2, 3].into_iter().collect(),
            ..Default::default()
        };
        let mut ro = ReadOnly::default();
        assert_eq!(ro.heartbeat_ctx(), 0);
        ro.add_request(ReadRequest {
            request: 7,
            from: 1,
            index: 5,
        });
        ro.add_request(ReadRequest {
            request: 8,
            from: 2,
            index: 5,
        });
        assert_eq!(ro.heartbeat_ctx(), 2);
        ro.recv_ack(1, 2);
        ro.recv_ack(4, 2); // a learner's ack
        ro.recv_ack(5, 2);
        assert!(ro.maybe_advance(&voters).is_empty());
        ro.recv_ack(3, 1);
        let done = ro.maybe_advance(&voters);
        assert_eq!(done.iter().map(|r| r.request).collect::<Vec<_>>(), vec![7]);
        ro.recv_ack(2, 2);
        let done = ro.maybe_advance(&voters);
        assert_eq!(done.iter().map(|r| r.request).collect::<Vec<_>>(), vec![8]);
        assert_eq!(ro.pending(), 0);
        assert_eq!(ro.heartbeat_ctx(), 0);
        ro.add_request(ReadRequest {
            request: 9,
            from: 1,
            index: 6,
        });
        assert_eq!(ro.heartbeat_ctx(), 3);
    }
}
