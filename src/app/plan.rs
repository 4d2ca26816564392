//! What a run is about to do, before it runs: the page shows it (cluster
//! size, simulated time, load, commands) with an estimate of how long the
//! page will take, and asks the reader before a run estimated above a few
//! seconds.
//!
//! The estimate is a rough model, measured on the page in headless
//! Chromium on a small 2-core machine (the module at `opt-level = 2`): an
//! idle node cost about 0.016 ms of the page's time per simulated second
//! (ticks, heartbeats and their answers), a write of the background load
//! about 0.002 ms per node it reaches. The model takes about twice those, and
//! 0.05 ms a command: it errs on the long side, for slower machines; the
//! progress bar then shows the real pace.

use serde::Serialize;

use crate::lang::ast::{Command, Script};

/// Page time per node and simulated second, idle.
const IDLE_NODE_MS_PER_SIM_S: f64 = 0.03;
/// Page time per load write and node it reaches.
const WRITE_NODE_MS: f64 = 0.005;
/// Page time per command.
const COMMAND_MS: f64 = 0.05;
/// A command that waits for the cluster (a request, `wait-until`) is
/// counted for this much simulated time (its bound is what `bound_ms`
/// adds up).
const REQUEST_SIM_MS: u64 = 200;

/// Above this estimate, the page asks before it runs.
pub const CONFIRM_ABOVE_MS: f64 = 3_000.0;

/// A run before it runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    /// Bootstrap voters.
    pub voters: usize,
    /// The most members the run may have (voters and `member add`s).
    pub nodes: usize,
    /// Commands to run.
    pub commands: usize,
    /// Simulated time the `wait`s add up to.
    pub wait_ms: u64,
    /// At most, with every `wait-until` and request taking its bound.
    pub bound_ms: u64,
    /// The heaviest background load started: writes a second and their
    /// size in bytes (`None`: no load).
    pub load_rate_per_s: Option<u64>,
    pub load_size: Option<u64>,
    /// How long the page will take, roughly, in milliseconds.
    pub estimate_ms: f64,
    /// Whether the page asks before it runs.
    pub confirm: bool,
}

impl Plan {
    pub fn of(script: &Script) -> Plan {
        let voters = script.cluster.voters.len();
        let mut nodes = voters;
        let mut wait_ms: u64 = 0;
        let mut bound_ms: u64 = 0;
        let mut rate: u64 = 0;
        let mut heaviest: Option<(u64, Option<u64>)> = None;
        let mut estimate = 0.0;
        for c in &script.commands {
            let (sim, bound) = match &*c.node {
                Command::Wait(ms) => {
                    wait_ms = wait_ms.saturating_add(*ms);
                    (*ms, *ms)
                }
                Command::WaitUntil { within_ms, .. } => {
                    ((*within_ms).min(REQUEST_SIM_MS), *within_ms)
                }
                Command::Put {
                    timeout_ms, nowait, ..
                } if !nowait => (REQUEST_SIM_MS, timeout_ms.unwrap_or(5_000)),
                Command::Get { timeout_ms, .. }
                | Command::Delete { timeout_ms, .. }
                | Command::Compaction { timeout_ms, .. }
                | Command::MemberPromote { timeout_ms, .. }
                | Command::MemberRemove { timeout_ms, .. }
                | Command::MemberList { timeout_ms, .. } => {
                    (REQUEST_SIM_MS, timeout_ms.unwrap_or(5_000))
                }
                Command::MemberAdd { timeout_ms, .. } => {
                    nodes += 1;
                    (REQUEST_SIM_MS, timeout_ms.unwrap_or(5_000))
                }
                Command::MemberChange { .. }
                | Command::MemberLeaveJoint { .. }
                | Command::TransferLeader(_) => (REQUEST_SIM_MS, 10_000),
                Command::LoadStart {
                    rate_per_s, size, ..
                } => {
                    rate = *rate_per_s;
                    if heaviest.is_none_or(|(r, _)| *rate_per_s > r) {
                        heaviest = Some((*rate_per_s, *size));
                    }
                    (0, 0)
                }
                Command::LoadStop => {
                    rate = 0;
                    (0, 0)
                }
                _ => (0, 0),
            };
            bound_ms = bound_ms.saturating_add(bound);
            let secs = sim as f64 / 1000.0;
            let n = nodes as f64;
            estimate += COMMAND_MS
                + secs * n * IDLE_NODE_MS_PER_SIM_S
                + secs * rate as f64 * n * WRITE_NODE_MS;
        }
        Plan {
            voters,
            nodes,
            commands: script.commands.len(),
            wait_ms,
            bound_ms,
            load_rate_per_s: heaviest.map(|(r, _)| r),
            load_size: heaviest.and_then(|(_, s)| s),
            estimate_ms: estimate,
            confirm: estimate > CONFIRM_ABOVE_MS,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::parse::parse_script;

    fn plan(src: &str) -> Plan {
        Plan::of(&parse_script(src).unwrap())
    }

    #[test]
    fn a_small_run_runs_at_once_and_a_heavy_one_asks() {
        let small = plan("cluster voters=1,2,3\nwait-until leader\nput a b\nwait 10s\n");
        assert_eq!(
            (small.voters, small.commands, small.wait_ms),
            (3, 3, 10_000)
        );
        assert!(!small.confirm, "{small:?}");
        assert!(small.estimate_ms < 100.0, "{small:?}");
        let heavy = plan(
            "cluster voters=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\nload rate=10000/s size=1MB\nwait 3600s\nwait 3600s\nwait 3600s\n",
        );
        assert_eq!(heavy.voters, 15);
        assert_eq!(heavy.wait_ms, 3 * 3_600_000);
        assert_eq!(heavy.load_rate_per_s, Some(10_000));
        assert_eq!(heavy.load_size, Some(1 << 20));
        assert!(heavy.confirm);
        // Hours of the page's time.
        assert!(heavy.estimate_ms > 3_600_000.0, "{heavy:?}");
    }

    #[test]
    fn a_load_counts_only_while_it_runs() {
        let stopped = plan("cluster voters=1,2,3\nload rate=1000/s\nload stop\nwait 600s\n");
        let running = plan("cluster voters=1,2,3\nload rate=1000/s\nwait 600s\n");
        assert!(stopped.estimate_ms * 10.0 < running.estimate_ms);
        assert_eq!(plan("cluster voters=1\nmember add 2\n").nodes, 2);
    }
}
