//! The knobs of a simulated cluster, with etcd's defaults.

use crate::sim::network::Transport;

/// How a world is set up. Times in milliseconds, sizes in bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct WorldConfig {
    pub seed: u64,
    /// etcd `--heartbeat-interval`; also the Raft tick.
    pub heartbeat_ms: u64,
    /// etcd `--election-timeout`; randomised per node in [et, 2et).
    pub election_timeout_ms: u64,
    pub pre_vote: bool,
    pub check_quorum: bool,
    /// etcd `--max-learners`, checked when a membership change is applied.
    pub max_learners: usize,
    /// Applied entries between automatic snapshots (etcd `--snapshot-count`).
    pub snapshot_count: u64,
    /// etcd v3.6 also snapshots its raft log in memory, and compacts it,
    /// every this many applied entries (`memorySnapshotCount`, 100);
    /// `None` before v3.6.
    pub memory_snapshot_count: Option<u64>,
    /// Entries kept behind a snapshot so slow followers can catch up from the log.
    pub catchup_entries: u64,
    /// One-way latency of every message, drawn uniformly in this range.
    pub latency_ms: (u64, u64),
    /// Outbound bytes per second of each node; `None` is unlimited.
    pub bandwidth: Option<u64>,
    /// How nodes send to each other: one ordered connection per peer
    /// behind one FIFO queue per node, or etcd's per-peer streams.
    pub transport: Transport,
    /// etcd rafthttp's ConnReadTimeout: a silently cut connection is
    /// noticed when no byte arrived for this long.
    pub conn_read_timeout_ms: u64,
    /// How long a member that applied its own removal keeps running before
    /// it stops (etcd's `stopWithDelay` after applying the change: 1s).
    pub removed_stop_delay_ms: u64,
    /// Fraction of messages lost at random, in parts per million (faults).
    pub loss_ppm: u32,
    pub max_inflight_msgs: usize,
    pub max_size_per_msg: u64,
    /// The simulated time the world starts at: 0, or the moment a second
    /// cluster joins a run already going (`server::fleet`).
    pub start_ms: u64,
}

impl Default for WorldConfig {
    fn default() -> Self {
        WorldConfig {
            seed: 1,
            heartbeat_ms: 100,
            election_timeout_ms: 1000,
            pre_vote: true,
            check_quorum: true,
            max_learners: 1,
            snapshot_count: 10_000,
            memory_snapshot_count: Some(100),
            catchup_entries: 5_000,
            latency_ms: (10, 30),
            bandwidth: None,
            transport: Transport::Shared,
            conn_read_timeout_ms: 5_000,
            removed_stop_delay_ms: 1_000,
            loss_ppm: 0,
            max_inflight_msgs: 512,
            max_size_per_msg: 1024 * 1024,
            start_ms: 0,
        }
    }
}

impl WorldConfig {
    /// The election timeout in ticks, as etcd's raft counts it.
    pub fn election_tick(&self) -> u32 {
        (self.election_timeout_ms / self.heartbeat_ms.max(1)).clamp(1, u32::MAX as u64) as u32
    }
}
