//! The random `cluster` line a run starts with, and its timing: most
//! clusters are made within the liveness rule, a share as drawn.

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

use crate::lang::ast::{ClusterSpec, Release};

use super::liveness;

/// The stream that decides whether a run keeps its timeout as drawn.
const TIMING_STREAM: u64 = 0x7469_6d69_6e67_2121;
/// The share of runs whose election timeout stays as drawn, whether or not
/// it keeps the liveness rule's timing ([`liveness::timing_keeps_promise`]);
/// the others get the least timeout that keeps it. About half of the drawn
/// timeouts are too short for their network, so about one run in eight is
/// outside the rule: etcd promises no stable leader there, but safety must
/// hold.
pub const TIMING_AS_DRAWN_SHARE: f64 = 0.25;

/// A random `cluster` line.
pub fn random_cluster(rng: &mut Pcg64) -> ClusterSpec {
    let n = rng.random_range(1..=7u64);
    let mut spec = ClusterSpec::new((1..=n).collect());
    spec.seed = rng.random_range(1..=1_000_000u64);
    spec.heartbeat_ms = *[20u64, 50, 100, 100]
        .get(rng.random_range(0..4usize))
        .unwrap_or(&100);
    spec.election_timeout_ms = spec.heartbeat_ms * rng.random_range(5..=15u64);
    spec.prevote = rng.random_bool(0.7);
    spec.check_quorum = rng.random_bool(0.7);
    spec.strict_reconfig = rng.random_bool(0.5);
    spec.max_learners = rng.random_range(0..=3u64);
    spec.snapshot_count = rng.random_range(3..=200u64);
    spec.catchup_entries = rng.random_range(0..=50u64);
    let lo = rng.random_range(1..=30u64);
    spec.latency_min_ms = lo;
    spec.latency_max_ms = lo + rng.random_range(0..=60u64);
    spec.bandwidth = if rng.random_bool(0.3) {
        Some(rng.random_range(256..=4096u64) * 1024)
    } else {
        None
    };
    if rng.random_bool(0.3) {
        spec.transport = crate::sim::Transport::Streams;
    }
    spec.etcd = Release::ALL[rng.random_range(0..Release::ALL.len())];
    if !spec.etcd.max_learners_settable() {
        spec.max_learners = 1;
    }
    spec
}

/// The `cluster` line of `seed`'s run: [`random_cluster`] drawn from the
/// run's main generator `rng`, its timeout then fitted to the liveness rule
/// or not by a stream of its own (so the draws of `rng` are the same).
pub fn cluster_line(seed: u64, rng: &mut Pcg64) -> ClusterSpec {
    let mut spec = random_cluster(rng);
    let mut timing = Pcg64::seed_from_u64(seed ^ TIMING_STREAM);
    if !timing.random_bool(TIMING_AS_DRAWN_SHARE) {
        spec.election_timeout_ms = liveness::election_timeout_within_rule(&spec);
    }
    spec
}
