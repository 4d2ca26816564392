//! When a run owes liveness: the one rule the generator and the final check
//! both read (`docs/fuzzing.md` states it in words).
//!
//! A run's final phase must elect a leader and commit a write only where
//! etcd promises it would:
//!
//! 1. **Timing** ([`timing_keeps_promise`]): the election timeout the nodes
//!    run with (whole heartbeats, etcd's `ElectionTick`) is at least
//!    [`ROUND_TRIPS_PER_ELECTION`] times the cluster's average round trip.
//!    etcd's tuning guide (`Documentation/tuning.md`, "Time parameters"):
//!    "Election timeouts must be at least 10 times the round-trip time so
//!    it can account for variance in the network". A message's one-way
//!    latency is drawn uniformly between the `latency=` bounds, so the
//!    average round trip is their sum. The other half of etcd's timing
//!    rule, an election timeout of at least 5 heartbeats, is etcd's own
//!    start-up check (`server/embed/config.go` `Config.Validate`), which
//!    the language makes too: no script breaks it.
//! 2. **A quorum** ([`quorum_can_run`]): in every running member's view of
//!    the configuration, a majority of the voters (of each half, in a joint
//!    configuration) runs and is reachable.
//!    This decides the removed leader's dead end: a leader applies its own
//!    removal from two voters and crashes before the other learns that the
//!    removal committed; started again, it applies the removal again and
//!    stops for good (etcd's `stopWithDelay`), while the other's
//!    configuration still needs its vote. etcd is stuck there too.
//! 3. **Someone can win** ([`someone_can_win`]): a running voter's log is
//!    up to date enough for a majority of each half of its configuration
//!    to vote for it.
//!
//! Runs outside the rule are still judged for safety, durability,
//! linearizability and the mirror; only liveness is not asked.

use std::fmt;

use crate::collections::vecmap::VecSet;
use crate::lang::ast::ClusterSpec;
use crate::raft::{NodeId, Raft};
use crate::session::exec::Session;
use crate::sim::membership::resolve_host;
use crate::sim::World;

/// etcd's tuning guide: the election timeout at least 10 round trips.
pub const ROUND_TRIPS_PER_ELECTION: u64 = 10;

/// Whether a run owed liveness, and if not, why not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Liveness {
    /// Every part of the rule holds: a leader and a write were required.
    Checked,
    /// The election timeout is under 10 round trips: etcd's guide promises
    /// no stable leader.
    ExemptTiming,
    /// No majority of the voters can run and reach each other.
    ExemptNoQuorum,
    /// A majority runs, but no running voter's log can win its votes.
    ExemptNobodyCanWin,
}

impl Liveness {
    /// Every verdict, in the order the summary prints them.
    pub const ALL: [Liveness; 4] = [
        Liveness::Checked,
        Liveness::ExemptTiming,
        Liveness::ExemptNoQuorum,
        Liveness::ExemptNobodyCanWin,
    ];

    pub fn checked(self) -> bool {
        self == Liveness::Checked
    }

    /// Its name in the summary and the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Liveness::Checked => "checked",
            Liveness::ExemptTiming => "timing",
            Liveness::ExemptNoQuorum => "no-quorum",
            Liveness::ExemptNobodyCanWin => "nobody-can-win",
        }
    }
}

impl fmt::Display for Liveness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The cluster's average round trip: two legs, each drawn uniformly
/// between the `latency=` bounds.
pub fn round_trip_ms(spec: &ClusterSpec) -> u64 {
    spec.latency_min_ms + spec.latency_max_ms
}

/// The election timeout the nodes run with: whole heartbeats.
pub fn election_ms(spec: &ClusterSpec) -> u64 {
    spec.heartbeat_ms * spec.election_tick()
}

/// Part 1 of the rule: etcd's guide promises a stable leader.
pub fn timing_keeps_promise(spec: &ClusterSpec) -> bool {
    election_ms(spec) >= ROUND_TRIPS_PER_ELECTION * round_trip_ms(spec)
}

/// The smallest election timeout, in whole heartbeats and no less than
/// `spec`'s, that part 1 of the rule accepts for `spec`'s network: what the
/// generator gives a cluster it makes within the rule.
pub fn election_timeout_within_rule(spec: &ClusterSpec) -> u64 {
    let hb = spec.heartbeat_ms.max(1);
    let needed = (ROUND_TRIPS_PER_ELECTION * round_trip_ms(spec)).div_ceil(hb) * hb;
    needed.max(election_ms(spec))
}

/// The whole rule, on a session whose final phase has healed the network
/// and started every member that can start.
pub fn owed(session: &Session) -> Liveness {
    if !timing_keeps_promise(session.spec()) {
        Liveness::ExemptTiming
    } else if !quorum_can_run(session) {
        Liveness::ExemptNoQuorum
    } else if !someone_can_win(session) {
        Liveness::ExemptNobodyCanWin
    } else {
        Liveness::Checked
    }
}

/// Part 2: in every running member's view of the configuration, a majority
/// of the voters (of each half, in a joint configuration) is running and
/// reachable (its peer URL, in every running member's view, names its own
/// host).
pub fn quorum_can_run(session: &Session) -> bool {
    let world = session.cluster().world();
    let running: Vec<_> = world.nodes().filter(|n| n.raft.is_some()).collect();
    let reachable = |id: NodeId| {
        world.raft(id).is_some()
            && running.iter().all(|n| {
                n.state
                    .members
                    .get(&id)
                    .is_none_or(|m| resolve_host(&m.peer_url) == Some(id))
            })
    };
    let mut any = false;
    for n in &running {
        let Some(r) = n.raft.as_ref() else { continue };
        let cs = r.conf_state();
        if cs.voters.is_empty() {
            continue;
        }
        any = true;
        // In a joint configuration each half needs its own majority.
        for voters in [&cs.voters, &cs.voters_outgoing] {
            let up = voters.iter().filter(|&&v| reachable(v)).count();
            if !voters.is_empty() && up <= voters.len() / 2 {
                return false;
            }
        }
    }
    any
}

/// Part 3: some running member can win an election: a voter in its own view
/// of the configuration (etcd-raft's `promotable`) whose log is at least as
/// up to date as the logs of a majority of each half of that configuration,
/// counting only members running (etcd-raft's `isUpToDate`: a vote is
/// granted only to such a log). With no leader no log changes, so when
/// nobody can win nobody ever will: were the longest log held only by a
/// running member that is no voter in its own view, it would never
/// campaign, and the others would never win its vote.
pub fn someone_can_win(session: &Session) -> bool {
    let world = session.cluster().world();
    world
        .nodes()
        .filter_map(|n| n.raft.as_ref())
        .any(|c| c.tracker().is_voter(c.id()) && can_win(world, c))
}

/// Whether `c`'s log is at least as up to date as the logs of a majority of
/// each half of its configuration, counting only members running: whether
/// its campaign can win their votes.
pub fn can_win(world: &World, c: &Raft) -> bool {
    let log_of = |id: NodeId| world.raft(id).map(|r| (r.last_term(), r.last_index()));
    let cs = c.conf_state();
    let mine = (c.last_term(), c.last_index());
    let wins = |half: &VecSet<NodeId>| {
        half.is_empty()
            || half
                .iter()
                .filter(|&&v| log_of(v).is_some_and(|theirs| theirs <= mine))
                .count()
                > half.len() / 2
    };
    wins(&cs.voters) && wins(&cs.voters_outgoing)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(hb: u64, et: u64, lo: u64, hi: u64) -> ClusterSpec {
        let mut s = ClusterSpec::new(vec![1, 2, 3]);
        s.heartbeat_ms = hb;
        s.election_timeout_ms = et;
        s.latency_min_ms = lo;
        s.latency_max_ms = hi;
        s
    }

    #[test]
    fn the_election_timeout_must_be_ten_average_round_trips() {
        // 10ms..30ms each way: a 40ms round trip on average, so 400ms.
        assert!(timing_keeps_promise(&spec(50, 400, 10, 30)));
        assert!(!timing_keeps_promise(&spec(50, 350, 10, 30)));
        // Only whole heartbeats count, as etcd's ElectionTick does: 449ms
        // at 50ms a tick is 400ms, and 419ms at 30ms a tick is 390ms.
        assert!(timing_keeps_promise(&spec(50, 449, 10, 30)));
        assert!(!timing_keeps_promise(&spec(30, 419, 10, 30)));
        // The false alarms of the issue: a 100ms timeout under up to 80ms
        // each way.
        assert!(!timing_keeps_promise(&spec(20, 100, 20, 80)));
    }

    #[test]
    fn the_generator_gets_the_smallest_timeout_the_rule_accepts() {
        let s = spec(100, 500, 20, 35);
        // 10 x 55ms = 550ms, rounded up to whole heartbeats.
        assert_eq!(election_timeout_within_rule(&s), 600);
        let mut fixed = s.clone();
        fixed.election_timeout_ms = election_timeout_within_rule(&s);
        assert!(timing_keeps_promise(&fixed));
        fixed.election_timeout_ms -= 100;
        assert!(!timing_keeps_promise(&fixed));
        // One within the rule already keeps its timeout.
        assert_eq!(election_timeout_within_rule(&spec(100, 1500, 5, 10)), 1500);
    }
}
