//! A steady background client load (`load rate=N/s`): writes sent at a
//! fixed rate, not waited for.

use crate::raft::NodeId;

/// Distinct keys the load cycles through.
const LOAD_KEYS: u64 = 100;

#[derive(Debug, Clone, PartialEq)]
pub struct Load {
    /// Microseconds between writes.
    interval_us: u64,
    /// When the next write goes, in microseconds.
    next_us: u64,
    pub size: u64,
    pub via: Option<NodeId>,
    /// Writes sent so far.
    pub sent: u64,
    /// Writes refused at once (sent through a learner); through a member
    /// that is down, or without a leader, they wait instead, as every write
    /// does.
    pub refused: u64,
}

impl Load {
    pub fn new(now_ms: u64, rate_per_s: u64, size: u64, via: Option<NodeId>) -> Load {
        let interval_us = (1_000_000 / rate_per_s.max(1)).max(1);
        Load {
            interval_us,
            next_us: now_ms * 1000 + interval_us,
            size,
            via,
            sent: 0,
            refused: 0,
        }
    }

    /// The millisecond in which the next write goes.
    pub fn next_ms(&self) -> u64 {
        self.next_us.div_ceil(1000)
    }

    /// The key and value of the next write, and schedules the one after.
    pub fn next_write(&mut self) -> (String, String) {
        let n = self.sent;
        self.sent += 1;
        self.next_us += self.interval_us;
        (format!("load/{}", n % LOAD_KEYS), n.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_spreads_writes_evenly() {
        let mut load = Load::new(1000, 4, 64, None);
        let mut times = Vec::new();
        for _ in 0..4 {
            times.push(load.next_ms());
            load.next_write();
        }
        assert_eq!(times, vec![1250, 1500, 1750, 2000]);
        assert_eq!(load.sent, 4);
    }
}
