//! The design document's modes, in a quarter of the runs: learners by
//! default, automatic promotion, failover to standbys, read-only learners
//! (`docs/modes.md`). They draw from a stream of their own, so a run
//! without them is the same script as before they existed.

use rand::RngExt;
use rand_pcg::Pcg64;

use super::stream::side_stream;
use crate::lang::ast::{ClusterSpec, Command};
use crate::server::{Failover, NewMembers, ReadMode};

const MODES_STREAM: u64 = 0x6d6f_6465_735f_6f6e;
/// The share of runs with the design document's modes on.
const MODES_SHARE: f64 = 0.25;

/// The modes' stream of `seed`'s run, if its modes are on.
pub fn modes_stream(seed: u64) -> Option<Pcg64> {
    side_stream(seed, MODES_STREAM, MODES_SHARE)
}

/// The document's modes on a `cluster` line: learners by default,
/// automatic promotion, failover of standbys (`docs/modes.md`).
pub fn random_modes(rng: &mut Pcg64, spec: &mut ClusterSpec) {
    if rng.random_bool(0.5) {
        spec.new_members = NewMembers::Learner;
    }
    if rng.random_bool(0.6) {
        spec.auto_promote = Some(rng.random_range(50..=100u8));
    }
    // At least an election timeout, as the parser asks.
    spec.failover_after_ms = spec.election_timeout_ms * rng.random_range(1..=20u64);
    if rng.random_bool(0.4) {
        spec.failover = Failover::Grow;
    }
}

/// A learner added in a run with the modes on may be a standby or a
/// read-only learner.
pub fn learner_kind(rng: &mut Pcg64, cmd: &mut Command) {
    if let Command::MemberAdd {
        learner: true,
        standby,
        read_only,
        ..
    } = cmd
    {
        match rng.random_range(0..5u32) {
            0 => *standby = true,
            1 => *read_only = Some(ReadMode::Weak),
            2 => *read_only = Some(ReadMode::Strong),
            _ => {}
        }
    }
}
