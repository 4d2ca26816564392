//! Randomised fault runs: every run is a scenario script, so every failure
//! is a script that reproduces it.
//!
//! For one seed, [`generate`] builds a random cluster and then picks one
//! command at a time (faults, membership changes, client load, waits) from a
//! generator seeded with that seed, looking at the live cluster to choose
//! sensible targets, and runs it. The script is the commands it ran, so
//! running the script again gives the same run. [`check`] then runs a fixed
//! final phase (stop the load, heal every link, restore the network, start
//! every member that can start, wait for a leader, write once more) and
//! judges the run:
//!
//! - **safety**: no invariant the world checks after every event broke;
//! - **linearizability**: a linearizable read (a strong read of a read-only
//!   learner too) never returned a value older than a write acknowledged
//!   before the read was sent, and the history of every write and
//!   linearizable read passes the exact checker (`sim::linearizability`);
//!   serializable reads and weak read-only reads may be stale by design;
//! - **liveness**: a leader is elected and a write commits within a bound
//!   whenever a majority of the voters, in every running member's view of
//!   the configuration, can run and reach each other, and some running
//!   voter's log is up to date enough to win their votes;
//! - **durability**: every acknowledged write is committed on the final
//!   leader at the index it was acknowledged with, and the leader's state
//!   holds it or a later write of the same key.
//!
//! In a quarter of the runs the design document's modes are on (learners
//! by default, automatic promotion, failover to standbys, read-only
//! learners: `docs/modes.md`), drawn from a generator of their own so that
//! the other runs are the scripts they always were.
//!
//! In a share of the runs (a generator of their own again) a second
//! cluster, `copy`, joins at the start with a mirror process copying the
//! first into it (etcdctl make-mirror, `server::mirror`), whose links the
//! run cuts and heals now and then. Such a run also checks the **mirror**:
//! the copy never holds a value for a key that the source never had for
//! that key.
//!
//! In a share of the runs (a generator of their own) a hand acts on single
//! messages now and then: a direction held, released (a few messages, or
//! everything), messages dropped, the next one delivered alone
//! (`hand_fault`). The final phase releases whatever is held, as it heals
//! every link; the checks are the same.
//!
//! [`shrink`] cuts a failing script down by delta debugging. No clap, no
//! I/O: the browser can use it as well as `raftlab fuzz`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

use crate::raft::NodeId;
use crate::server::{Failover, NewMembers, ReadMode};
use crate::sim::kv::Request;
use crate::sim::membership::resolve_host;

use crate::lang::ast::{
    ClusterSpec, Command, Condition, Release, Script, MAX_NODE_ID, MAX_WAIT_MS,
};
use crate::lang::parse::{parse_command, parse_script, ParseError};
use crate::session::cond::Unmet;
use crate::session::exec::Session;

/// Simulated time of one run when nothing else is asked.
pub const DEFAULT_DURATION_MS: u64 = 60_000;

/// The keys the generated client writes use (the background load writes
/// `load/N`, which nothing checks).
const KEYS: u64 = 6;

/// A peer URL that is well formed but names no simulated host.
const MISCONFIGURED_URL: &str = "http://10.0.0.9:2380";

/// What kind of property a run broke.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum FailureKind {
    /// A safety invariant of the world, by its name.
    Safety(&'static str),
    Linearizability,
    Liveness,
    Durability,
    /// A mirror's destination holds a value its source never had.
    Mirror,
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FailureKind::Safety(p) => write!(f, "safety ({p})"),
            FailureKind::Linearizability => f.write_str("linearizability"),
            FailureKind::Liveness => f.write_str("liveness"),
            FailureKind::Durability => f.write_str("durability"),
            FailureKind::Mirror => f.write_str("mirror"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub kind: FailureKind,
    pub text: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.text)
    }
}

/// The verdict on one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Simulated time at the end, final phase included.
    pub time_ms: u64,
    /// Messages delivered in the whole run.
    pub deliveries: u64,
    /// The commands the final phase ran after the script.
    pub final_phase: Vec<String>,
    /// Whether a majority could run, so liveness was required.
    pub liveness_expected: bool,
    /// Client writes acknowledged with an index.
    pub acked_writes: usize,
    pub failures: Vec<Failure>,
}

impl Verdict {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// The kind of the first failure, which shrinking keeps.
    pub fn first_kind(&self) -> Option<&FailureKind> {
        self.failures.first().map(|f| &f.kind)
    }
}

/// One seed's run: its script and its verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FuzzRun {
    pub seed: u64,
    /// The generated script: the `cluster` line, then one command a line.
    pub script: String,
    pub outcome: Verdict,
}

impl FuzzRun {
    /// The script with the final phase appended, as `raftlab run` takes it.
    pub fn reproducer(&self) -> String {
        reproducer(&self.script, &self.outcome)
    }
}

/// `script`, then the final phase `check` ran after it, marked as such.
pub fn reproducer(script: &str, outcome: &Verdict) -> String {
    let mut out = script.trim_end().to_string();
    out.push_str("\n# final phase, as raftlab fuzz runs it after the script:\n");
    for line in &outcome.final_phase {
        out.push_str(line);
        out.push('\n');
    }
    out
}

// ---- tracking acknowledged writes and reads ---------------------------------

#[derive(Debug, Clone)]
struct Ack {
    key: String,
    value: String,
    index: u64,
    line: usize,
}

/// Watches a session's results as commands run: acknowledged writes, and
/// linearizable reads checked against the writes acknowledged before them.
#[derive(Debug, Default, Clone)]
struct Tracker {
    /// Results seen so far.
    seen: usize,
    /// `put ... nowait` results still pending: (result index, key, value).
    pending: Vec<(usize, String, String)>,
    acks: Vec<Ack>,
    /// key -> value -> highest acknowledged index of a write of that value.
    written: BTreeMap<String, BTreeMap<String, Option<u64>>>,
    failures: Vec<Failure>,
}

impl Tracker {
    /// Looks at the results of the command just run, and at writes that
    /// finished meanwhile.
    fn observe(&mut self, session: &Session) {
        let results = session.results();
        // New results first: a read is judged against the writes
        // acknowledged before it was sent.
        let mut new_puts = Vec::new();
        // Only the first cluster's requests are tracked.
        let elsewhere = |via: Option<NodeId>| {
            via.and_then(|v| session.fleet().cluster_of(v))
                .is_some_and(|k| k != 0)
        };
        for (i, r) in results.iter().enumerate().skip(self.seen) {
            match parse_command(&r.command) {
                Ok(Command::Put { via, .. }) | Ok(Command::Get { via, .. }) if elsewhere(via) => {}
                Ok(Command::Put { key, value, .. }) => {
                    self.written
                        .entry(key.clone())
                        .or_default()
                        .entry(value.clone())
                        .or_insert(None);
                    new_puts.push((i, key, value));
                }
                // A weak read of a read-only learner may be stale by
                // design; a strong one is held to linearizability.
                Ok(Command::Get {
                    key,
                    rev: None | Some(0),
                    serializable: false,
                    via,
                    ..
                }) if r.ok
                    && via.is_none_or(|v| {
                        session.cluster().member_kind(v).read_only != Some(ReadMode::Weak)
                    }) =>
                {
                    if let Some(value) = &r.value {
                        self.check_read(r.line, &key, value.as_deref());
                    }
                }
                _ => {}
            }
        }
        self.seen = results.len();
        self.pending.append(&mut new_puts);
        let mut still = Vec::new();
        for (i, key, value) in std::mem::take(&mut self.pending) {
            let Some(r) = results.get(i) else { continue };
            if r.pending {
                still.push((i, key, value));
                continue;
            }
            if let (true, Some(index)) = (r.ok, r.index) {
                let best = self
                    .written
                    .entry(key.clone())
                    .or_default()
                    .entry(value.clone())
                    .or_insert(None);
                *best = Some(best.map_or(index, |b| b.max(index)));
                self.acks.push(Ack {
                    key,
                    value,
                    index,
                    line: r.line,
                });
            }
        }
        self.pending = still;
    }

    /// The highest index acknowledged for `key` so far, with its line.
    fn latest_ack(&self, key: &str) -> Option<&Ack> {
        self.acks
            .iter()
            .filter(|a| a.key == key)
            .max_by_key(|a| a.index)
    }

    /// A value read for `key` must be no older than the latest write of it
    /// acknowledged before the read.
    fn check_read(&mut self, line: usize, key: &str, value: Option<&str>) {
        let Some(latest) = self.latest_ack(key).cloned() else {
            return;
        };
        let fresh = value.is_some_and(|v| self.fresh_enough(key, v, latest.index));
        if !fresh {
            self.failures.push(Failure {
                kind: FailureKind::Linearizability,
                text: format!(
                    "line {line}: a linearizable get of {key} returned {}, but the write of {:?} \
                     at index {} (line {}) was acknowledged before the read",
                    value.map_or("nothing".to_string(), |v| format!("{v:?}")),
                    latest.value,
                    latest.index,
                    latest.line
                ),
            });
        }
    }

    /// Whether `value` for `key` comes from a write that may follow the
    /// acknowledged write at `index`: an unacknowledged write (its index is
    /// unknown) or one acknowledged at `index` or later.
    fn fresh_enough(&self, key: &str, value: &str, index: u64) -> bool {
        match self.written.get(key).and_then(|m| m.get(value)) {
            Some(None) => true,
            Some(Some(i)) => *i >= index,
            // Never written by the script: a value from nowhere.
            None => false,
        }
    }
}

// ---- generating a run -----------------------------------------------------------

fn pick<T: Copy>(rng: &mut Pcg64, items: &[T]) -> Option<T> {
    if items.is_empty() {
        None
    } else {
        Some(items[rng.random_range(0..items.len())])
    }
}

/// A client timeout: etcdctl's default, or a shorter one so that runs
/// without a leader do not all wait 5s.
fn client_timeout(rng: &mut Pcg64) -> Option<u64> {
    rng.random_bool(0.6)
        .then(|| rng.random_range(100..=3000u64))
}

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

/// The share of runs with the design document's modes on.
const MODES_STREAM: u64 = 0x6d6f_6465_735f_6f6e;
const MODES_SHARE: f64 = 0.25;

/// The share of runs with a second cluster and a mirror into it.
const MIRROR_STREAM: u64 = 0x6d69_7272_6f72_2121;
const MIRROR_SHARE: f64 = 0.2;
/// The mirror process and the second cluster's voters in those runs.
const MIRROR_ID: NodeId = 12;
const COPY_VOTERS: [NodeId; 3] = [13, 14, 15];

/// The share of runs where a hand acts on single messages, from a generator
/// of their own (so the other runs are the scripts they were before).
const HAND_STREAM: u64 = 0x6861_6e64_5f6f_6e21;
const HAND_SHARE: f64 = 0.25;

/// Now and then, in those runs, a hand on single messages between two
/// nodes the first cluster knows: hold a direction (or both), release one
/// (its first few messages) or every held one, drop a direction's messages
/// (of a kind, the first few), or deliver the next message alone.
fn hand_fault(rng: &mut Pcg64, session: &Session) -> Option<Command> {
    if !rng.random_bool(0.06) {
        return None;
    }
    let ids: Vec<NodeId> = session.cluster().known_ids().into_iter().collect();
    let a = pick(rng, &ids)?;
    let others: Vec<NodeId> = ids.into_iter().filter(|&b| b != a).collect();
    let b = pick(rng, &others)?;
    use crate::raft::MessageType::{App, AppResp, Heartbeat, Vote, VoteResp};
    Some(match rng.random_range(0..8u32) {
        0..=2 => Command::Hold {
            a,
            b,
            one_way: rng.random_bool(0.7),
        },
        3 => Command::Release {
            link: Some((a, b, true)),
            count: Some(rng.random_range(1..=3u64)),
        },
        4 => Command::Release {
            link: None,
            count: None,
        },
        5 | 6 => Command::Drop {
            from: a,
            to: b,
            kind: pick(
                rng,
                &[
                    None,
                    Some(App),
                    Some(AppResp),
                    Some(Heartbeat),
                    Some(Vote),
                    Some(VoteResp),
                ],
            )
            .flatten(),
            id: None,
            count: rng.random_bool(0.6).then(|| rng.random_range(1..=2u64)),
        },
        _ => Command::DeliverNext { link: None },
    })
}

/// The commands that add the second cluster and start the mirror.
fn mirror_setup(source: NodeId) -> [Command; 2] {
    let mut copy = ClusterSpec::new(COPY_VOTERS.to_vec());
    copy.name = Some("copy".to_string());
    [
        Command::AddCluster(Box::new(copy)),
        Command::MirrorStart {
            id: MIRROR_ID,
            from: source,
            to: COPY_VOTERS[0],
            prefix: None,
        },
    ]
}

/// Now and then, a cut or a heal of one of the mirror's two links.
fn mirror_fault(rng: &mut Pcg64, source: NodeId) -> Option<Command> {
    if !rng.random_bool(0.05) {
        return None;
    }
    let peer = if rng.random_bool(0.7) {
        source
    } else {
        COPY_VOTERS[0]
    };
    Some(if rng.random_bool(0.5) {
        Command::Cut {
            a: MIRROR_ID,
            b: peer,
            one_way: false,
        }
    } else {
        Command::Heal {
            link: Some((MIRROR_ID, peer, false)),
        }
    })
}

/// The document's modes on a `cluster` line: learners by default,
/// automatic promotion, failover of standbys (`docs/modes.md`).
fn random_modes(rng: &mut Pcg64, spec: &mut ClusterSpec) {
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
fn learner_kind(rng: &mut Pcg64, cmd: &mut Command) {
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

/// What the generator sees of the cluster.
struct View {
    known: Vec<NodeId>,
    running: Vec<NodeId>,
    down: Vec<NodeId>,
    voters: Vec<NodeId>,
    learners: Vec<NodeId>,
    cut: Vec<(NodeId, NodeId)>,
    /// Ids never used, for `member add`.
    fresh: Vec<NodeId>,
}

fn view(session: &Session) -> View {
    let cluster = session.cluster();
    let world = cluster.world();
    let known: Vec<NodeId> = cluster.known_ids().into_iter().collect();
    let removed = |id: NodeId| world.node(id).is_some_and(|n| n.removed);
    let running: Vec<NodeId> = known
        .iter()
        .copied()
        .filter(|&id| world.raft(id).is_some())
        .collect();
    let down = known
        .iter()
        .copied()
        .filter(|&id| world.raft(id).is_none() && !removed(id))
        .collect();
    let status = session.status();
    // Ids of the other clusters and of mirror processes are taken too.
    let fleet = session.fleet();
    let elsewhere = fleet.clusters()[1..]
        .iter()
        .flat_map(|c| c.known_ids())
        .chain(fleet.mirrors().iter().map(|m| m.id));
    let ever: BTreeSet<NodeId> = world
        .nodes()
        .map(|n| n.id)
        .chain(known.clone())
        .chain(elsewhere)
        .collect();
    View {
        fresh: (1..=MAX_NODE_ID).filter(|id| !ever.contains(id)).collect(),
        known,
        running,
        down,
        voters: status.voters,
        learners: status.learners,
        cut: world.network().cut_links().collect(),
    }
}

/// One random command, chosen with the cluster as it is now.
fn next_command(rng: &mut Pcg64, session: &Session, writes: &mut u64) -> Command {
    let v = view(session);
    let any_known = |rng: &mut Pcg64| pick(rng, &v.known).unwrap_or(1);
    loop {
        let roll = rng.random_range(0..100u32);
        let cmd = match roll {
            // Time.
            0..=24 => Some(Command::Wait(match rng.random_range(0..4u32) {
                0 => rng.random_range(10..=200u64),
                1 | 2 => rng.random_range(200..=1500u64),
                _ => rng.random_range(1500..=5000u64),
            })),
            25..=27 => Some(Command::WaitUntil {
                cond: Arc::new(Condition::Leader),
                within_ms: rng.random_range(500..=5000u64),
            }),
            // Client load.
            28..=44 => {
                *writes += 1;
                let key = format!("k{}", rng.random_range(0..KEYS));
                let value = format!("v{writes}");
                let via = if rng.random_bool(0.2) {
                    pick(rng, &v.running)
                } else {
                    None
                };
                let nowait = rng.random_bool(0.5);
                Some(Command::Put {
                    key,
                    value,
                    via,
                    size: rng
                        .random_bool(0.2)
                        .then(|| rng.random_range(1..=16u64) * 1024),
                    nowait,
                    timeout_ms: (!nowait || rng.random_bool(0.5))
                        .then(|| rng.random_range(100..=3000u64)),
                    require_leader: rng.random_bool(0.1),
                })
            }
            45..=51 => Some(Command::Get {
                key: format!("k{}", rng.random_range(0..KEYS)),
                rev: None,
                via: if rng.random_bool(0.3) {
                    pick(rng, &v.running)
                } else {
                    None
                },
                serializable: rng.random_bool(0.25),
                timeout_ms: client_timeout(rng),
                require_leader: rng.random_bool(0.1),
            }),
            52..=54 => Some(if rng.random_bool(0.6) {
                Command::LoadStart {
                    rate_per_s: rng.random_range(1..=100u64),
                    size: rng.random_bool(0.3).then(|| rng.random_range(64..=4096u64)),
                    via: None,
                }
            } else {
                Command::LoadStop
            }),
            // Processes.
            55..=58 => pick(rng, &v.running).map(Command::Crash),
            59..=64 => pick(rng, &v.down).map(Command::Start),
            65 => pick(rng, &v.running).map(Command::Campaign),
            66 => pick(rng, &v.running).map(Command::Compact),
            // The network.
            67..=69 => {
                let a = any_known(rng);
                let b = any_known(rng);
                (a != b).then(|| Command::Cut {
                    a,
                    b,
                    one_way: rng.random_bool(0.4),
                })
            }
            70..=73 => Some(match pick(rng, &v.cut) {
                Some((a, b)) if rng.random_bool(0.7) => Command::Heal {
                    link: Some((a, b, rng.random_bool(0.6))),
                },
                _ => Command::Heal { link: None },
            }),
            74..=75 => {
                let mut groups: Vec<Vec<NodeId>> = vec![Vec::new(); rng.random_range(2..=3usize)];
                for &id in &v.known {
                    let g = rng.random_range(0..groups.len());
                    groups[g].push(id);
                }
                groups.retain(|g| !g.is_empty());
                (groups.len() >= 2).then_some(Command::Partition(groups))
            }
            76 => Some(Command::Isolate(any_known(rng))),
            77..=78 => Some(random_net(rng, session.spec())),
            // Membership.
            79..=83 => pick(rng, &v.fresh).map(|id| {
                let peer_url = match rng.random_range(0..12u32) {
                    0 => Some(MISCONFIGURED_URL.to_string()),
                    1 => Some(format!("http://n{id}:2380/path")),
                    2 => Some(format!("https://n{id}:2380")),
                    _ => None,
                };
                Command::MemberAdd {
                    id,
                    learner: rng.random_bool(0.6),
                    voter: false,
                    standby: false,
                    read_only: None,
                    peer_url,
                    via: None,
                    timeout_ms: client_timeout(rng),
                    require_leader: rng.random_bool(0.1),
                }
            }),
            84..=87 => pick(rng, &v.learners).map(|id| Command::MemberPromote {
                id,
                timeout_ms: client_timeout(rng),
                require_leader: rng.random_bool(0.1),
            }),
            88..=89 => pick(rng, &v.known).map(|id| Command::MemberRemove {
                id,
                timeout_ms: client_timeout(rng),
                require_leader: rng.random_bool(0.1),
            }),
            90..=92 => pick(rng, &v.voters).map(Command::TransferLeader),
            93 => Some(Command::MemberList {
                serializable: rng.random_bool(0.3),
                via: None,
                timeout_ms: client_timeout(rng),
                require_leader: false,
            }),
            94 => Some(Command::Status {
                via: if rng.random_bool(0.5) {
                    pick(rng, &v.known)
                } else {
                    None
                },
            }),
            95 => pick(rng, &v.known).map(|id| Command::Expect(Arc::new(Condition::CaughtUp(id)))),
            _ => Some(Command::Heal { link: None }),
        };
        if let Some(cmd) = cmd {
            return cmd;
        }
    }
}

fn random_net(rng: &mut Pcg64, spec: &ClusterSpec) -> Command {
    let loss_ppm = rng
        .random_bool(0.7)
        .then(|| match rng.random_range(0..4u32) {
            0 => 0,
            1 => rng.random_range(1..=10_000u32),
            2 => rng.random_range(10_000..=50_000u32),
            _ => rng.random_range(50_000..=200_000u32),
        });
    let latency = rng.random_bool(0.5).then(|| {
        if rng.random_bool(0.3) {
            (spec.latency_min_ms, spec.latency_max_ms)
        } else {
            let lo = rng.random_range(1..=100u64);
            (lo, lo + rng.random_range(0..=200u64))
        }
    });
    let bandwidth = rng.random_bool(0.3).then(|| {
        if rng.random_bool(0.4) {
            None
        } else {
            Some(rng.random_range(256..=4096u64) * 1024)
        }
    });
    if loss_ppm.is_none() && latency.is_none() && bandwidth.is_none() {
        return Command::Net {
            loss_ppm: Some(0),
            latency: None,
            bandwidth: None,
        };
    }
    Command::Net {
        loss_ppm,
        latency,
        bandwidth,
    }
}

/// Runs one command as the script's next line; its text.
fn run_line(session: &mut Session, line: usize, cmd: Command) -> String {
    let text = cmd.to_string();
    session.execute(line, &text, Arc::new(cmd));
    text
}

/// Builds and runs the random script of `seed` for `duration_ms` of simulated
/// time. Returns the script and the session that ran it.
pub fn generate(seed: u64, duration_ms: u64) -> (String, Session) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let mut spec = random_cluster(&mut rng);
    // The design document's modes, in a share of the runs. They draw from
    // a generator of their own, so a run without them is the same script
    // as before they existed.
    let mut modes_rng = Pcg64::seed_from_u64(seed ^ MODES_STREAM);
    let modes = modes_rng.random_bool(MODES_SHARE);
    if modes {
        random_modes(&mut modes_rng, &mut spec);
    }
    let mut session = Session::new(&spec);
    let mut script = format!("{spec}\n");
    let mut writes = 0u64;
    let mut line = 1;
    let mut mirror_rng = Pcg64::seed_from_u64(seed ^ MIRROR_STREAM);
    let mirrored = mirror_rng.random_bool(MIRROR_SHARE);
    let mut hand_rng = Pcg64::seed_from_u64(seed ^ HAND_STREAM);
    let by_hand = hand_rng.random_bool(HAND_SHARE);
    let source = spec.voters[0];
    if mirrored {
        for cmd in mirror_setup(source) {
            line += 1;
            script.push_str(&run_line(&mut session, line, cmd));
            script.push('\n');
        }
    }
    while session.now() < duration_ms {
        let mut cmd = next_command(&mut rng, &session, &mut writes);
        if modes {
            learner_kind(&mut modes_rng, &mut cmd);
        }
        if mirrored {
            if let Some(fault) = mirror_fault(&mut mirror_rng, source) {
                cmd = fault;
            }
        }
        if by_hand {
            if let Some(fault) = hand_fault(&mut hand_rng, &session) {
                cmd = fault;
            }
        }
        line += 1;
        script.push_str(&run_line(&mut session, line, cmd));
        script.push('\n');
    }
    let _ = session.take_narration();
    (script, session)
}

// ---- judging a run --------------------------------------------------------------

/// Runs a script the way the fuzzer does, then its final phase, and judges it.
pub fn check(src: &str) -> Result<Verdict, ParseError> {
    let script = parse_script(src)?;
    Ok(check_script(&script))
}

/// [`check`] on a parsed script.
pub fn check_script(script: &Script) -> Verdict {
    let mut session = Session::new(&script.cluster);
    let mut tracker = Tracker::default();
    for cmd in &script.commands {
        session.execute(cmd.line, &cmd.text, Arc::clone(&cmd.node));
        tracker.observe(&session);
        let _ = session.take_narration();
    }
    let next_line = script.commands.last().map_or(1, |c| c.line) + 1;
    finish(session, tracker, next_line)
}

/// Runs the final phase on a session whose script has run, and judges.
fn finish(mut session: Session, mut tracker: Tracker, mut line: usize) -> Verdict {
    let mut final_phase = Vec::new();
    let mut run = |session: &mut Session, tracker: &mut Tracker, cmd: Command| {
        final_phase.push(run_line(session, line, cmd));
        line += 1;
        tracker.observe(session);
        let _ = session.take_narration();
        session.results().last().is_some_and(|r| r.ok)
    };
    let spec = session.spec().clone();
    run(&mut session, &mut tracker, Command::LoadStop);
    run(&mut session, &mut tracker, Command::Heal { link: None });
    // Held messages are delivered, as cut links heal (only in a run that
    // held some: the others' final phase is as it was).
    let held = |s: &Session| {
        s.fleet()
            .clusters()
            .iter()
            .any(|c| c.world().network().held_links().next().is_some())
    };
    if held(&session) {
        run(
            &mut session,
            &mut tracker,
            Command::Release {
                link: None,
                count: None,
            },
        );
    }
    let healed_at = session.now();
    run(
        &mut session,
        &mut tracker,
        Command::Net {
            loss_ppm: Some(0),
            latency: Some((spec.latency_min_ms, spec.latency_max_ms)),
            // Unlimited, not the cluster's: each node sends through one FIFO
            // queue, so with a low bandwidth a 1MB catch-up append can hold
            // the heartbeats behind it longer than an election timeout, again
            // and again (the bandwidth lesson). That livelock is the model's
            // point, not a bug, so liveness is asked of a network without it.
            bandwidth: Some(None),
        },
    );
    // Start every member whose process is down and can run.
    for id in startable(&session) {
        run(&mut session, &mut tracker, Command::Start(id));
    }
    // Messages already queued behind a node's bandwidth keep their times:
    // the network is whole only once the longest queue has drained.
    let world = session.cluster().world();
    let backlog = world
        .network()
        .backlog_ms(world.now(), world.config().bandwidth);
    let et = spec.election_timeout_ms;
    let leader_bound = ((20 * et).clamp(10_000, 60_000) + backlog).min(MAX_WAIT_MS);
    let write_bound = ((5 * et).clamp(5_000, 30_000) + backlog).min(MAX_WAIT_MS);
    let mut wrote = false;
    // A write ends at etcd's server request timeout (5s plus two election
    // timeouts) however long the client waits, so a backlog longer than that
    // needs several tries: keep trying until the write bound has passed.
    let give_up = session.now() + leader_bound + write_bound;
    for attempt in 0..64 {
        if attempt >= 3 && session.now() >= give_up {
            break;
        }
        if !run(
            &mut session,
            &mut tracker,
            Command::WaitUntil {
                cond: Arc::new(Condition::Leader),
                within_ms: leader_bound,
            },
        ) {
            break;
        }
        let sent_at = session.now();
        if run(
            &mut session,
            &mut tracker,
            Command::Put {
                key: "fuzz/final".to_string(),
                value: "done".to_string(),
                via: None,
                size: None,
                nowait: false,
                timeout_ms: Some(write_bound),
                require_leader: false,
            },
        ) {
            wrote = true;
            break;
        }
        // Refused at once (a leader that has applied its own removal drops
        // proposals until its process stops, etcd-raft's
        // ErrProposalDropped): a client backs off before it tries again, so
        // time passes and the cluster moves on.
        if session.now() == sent_at {
            run(&mut session, &mut tracker, Command::Wait(et));
        }
    }

    let world = session.cluster().world();
    let mut failures: Vec<Failure> = world
        .violations()
        .iter()
        .map(|v| Failure {
            kind: FailureKind::Safety(v.property),
            text: format!("t={}ms: {}", v.time_ms, v.text),
        })
        .collect();
    failures.append(&mut tracker.failures);
    // The exact check (v2 spec §4) of every write and linearizable read,
    // load writes included; the tracker above names the line of a stale
    // read, this one also catches what no single read shows.
    let strong = session.cluster().strong_linearizability();
    if let (false, Some(anomaly)) = (strong.ok, strong.anomaly) {
        failures.push(Failure {
            kind: FailureKind::Linearizability,
            text: format!(
                "the writes and linearizable reads are not linearizable: {}",
                crate::session::detail::unmet(&Unmet::Anomaly(Some(Box::new(anomaly))))
            ),
        });
    }
    let liveness_expected = quorum_can_run(&session);
    if !wrote && liveness_expected {
        let status = session.status();
        failures.push(Failure {
            kind: FailureKind::Liveness,
            text: format!(
                "with every link healed and every member that can run started, a majority of \
                 the voters {:?} runs, yet no leader committed a write within {}ms of the heal \
                 (leader: {:?}, term {})",
                status.voters,
                session.now() - healed_at,
                status.leader,
                status.term
            ),
        });
    }
    if wrote {
        failures.extend(durability(&session, &tracker));
    }
    failures.extend(mirror_copies(&session));
    Verdict {
        time_ms: session.now(),
        deliveries: session.cluster().world().deliveries(),
        final_phase,
        liveness_expected,
        acked_writes: tracker.acks.len(),
        failures,
    }
}

/// Members whose process is down, not removed, and whose peer URL (in the
/// cluster's view) names their own host.
fn startable(session: &Session) -> Vec<NodeId> {
    let cluster = session.cluster();
    let world = cluster.world();
    let authority = cluster.authority().and_then(|a| world.node(a));
    cluster
        .known_ids()
        .into_iter()
        .filter(|&id| world.raft(id).is_none())
        .filter(|&id| !world.node(id).is_some_and(|n| n.removed))
        .filter(|&id| !authority.is_some_and(|a| a.state.removed.contains(&id)))
        .filter(|&id| {
            world.has_node(id)
                || authority
                    .and_then(|a| a.state.members.get(&id))
                    .is_some_and(|m| resolve_host(&m.peer_url) == Some(id))
        })
        .collect()
}

/// Whether, in every running member's view of the configuration, a majority
/// of the voters is running and reachable: only then must a leader appear.
fn quorum_can_run(session: &Session) -> bool {
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
        let voters = r.conf_state().voters;
        if voters.is_empty() {
            continue;
        }
        any = true;
        let up = voters.iter().filter(|&&v| reachable(v)).count();
        if up <= voters.len() / 2 {
            return false;
        }
    }
    any && someone_can_win(session)
}

/// Whether some running member can win an election: a voter in its own view
/// of the configuration (etcd-raft's `promotable`) whose log is at least as
/// up to date as the logs of a majority of each half of that configuration,
/// counting only members running (etcd-raft's `isUpToDate`: a vote is
/// granted only to such a log). With no leader no log changes, so when
/// nobody can win nobody ever will: a member that applied its own removal
/// and restarted with the longest log neither campaigns (it is no voter in
/// its view) nor votes for the others, who have not learnt that the removal
/// committed. etcd is stuck there too.
fn someone_can_win(session: &Session) -> bool {
    let world = session.cluster().world();
    let log_of = |id: NodeId| world.raft(id).map(|r| (r.last_term(), r.last_index()));
    world.nodes().filter_map(|n| n.raft.as_ref()).any(|c| {
        let cs = c.conf_state();
        let mine = (c.last_term(), c.last_index());
        let wins = |half: &crate::collections::vecmap::VecSet<NodeId>| {
            half.is_empty()
                || half
                    .iter()
                    .filter(|&&v| log_of(v).is_some_and(|theirs| theirs <= mine))
                    .count()
                    > half.len() / 2
        };
        (cs.voters.contains(&c.id()) || cs.voters_outgoing.contains(&c.id()))
            && wins(&cs.voters)
            && wins(&cs.voters_outgoing)
    })
}

/// Every mirror's destination holds, on every member, only values its source
/// had for the same key: values some source member applied, or (once the
/// source compacted its history away) values a client sent it.
fn mirror_copies(session: &Session) -> Vec<Failure> {
    let fleet = session.fleet();
    let mut failures = Vec::new();
    for m in fleet.mirrors() {
        let source = fleet.cluster(m.source);
        let mut had: BTreeSet<(String, String)> = BTreeSet::new();
        let mut compacted = false;
        for n in source.world().nodes() {
            let store = &n.state.mvcc;
            compacted |= store.compact_revision().is_some();
            for (_, r) in store.records_from(0) {
                if !r.tombstone {
                    had.insert((r.key.to_string(), r.value.to_string()));
                }
            }
        }
        if compacted {
            had.extend(source.history().written());
        }
        let dest = fleet.cluster(m.destination);
        for n in dest.world().nodes() {
            let bad = n
                .state
                .mvcc
                .records_from(0)
                .filter(|(_, r)| !r.tombstone)
                .find(|(_, r)| !had.contains(&(r.key.to_string(), r.value.to_string())));
            if let Some((rev, r)) = bad {
                failures.push(Failure {
                    kind: FailureKind::Mirror,
                    text: format!(
                        "mirror {}: member {} of cluster {} holds {}={:?} at revision {rev}, \
                         a value cluster {} never had for that key",
                        m.id,
                        n.id,
                        fleet.name(m.destination),
                        r.key,
                        r.value,
                        fleet.name(m.source)
                    ),
                });
                break;
            }
        }
    }
    failures
}

/// Every acknowledged write is on the final leader, committed, at its index,
/// and the leader's state holds it or a later write of its key.
fn durability(session: &Session, tracker: &Tracker) -> Vec<Failure> {
    let mut failures = Vec::new();
    let cluster = session.cluster();
    let Some(leader) = cluster.leader() else {
        return failures;
    };
    let world = cluster.world();
    let (Some(raft), Some(node)) = (world.raft(leader), world.node(leader)) else {
        return failures;
    };
    let commit = raft.commit();
    let entries = raft.entries();
    let first = entries.first().map_or(u64::MAX, |e| e.index);
    let mut fail = |text: String| {
        failures.push(Failure {
            kind: FailureKind::Durability,
            text,
        })
    };
    for a in &tracker.acks {
        if a.index > commit {
            fail(format!(
                "the write {}={} acknowledged at index {} (line {}) is beyond leader {leader}'s \
                 commit index {commit}",
                a.key, a.value, a.index, a.line
            ));
            continue;
        }
        if a.index >= first {
            let entry = entries.get((a.index - first) as usize);
            let same = entry.is_some_and(
                |e| matches!(Request::of(&e.data), Some(Request::Put(p)) if p.key == a.key && *p.value == *a.value),
            );
            if !same {
                fail(format!(
                    "the write {}={} acknowledged at index {} (line {}) is not the entry at that \
                     index on leader {leader}",
                    a.key, a.value, a.index, a.line
                ));
            }
        }
    }
    let keys: BTreeSet<&str> = tracker.acks.iter().map(|a| a.key.as_str()).collect();
    for key in keys {
        let Some(latest) = tracker.latest_ack(key) else {
            continue;
        };
        let value = node.state.get(key);
        if !value.is_some_and(|v| tracker.fresh_enough(key, v, latest.index)) {
            fail(format!(
                "leader {leader}'s state holds {key}={} but {key}={} was acknowledged at index {} \
                 (line {})",
                value.unwrap_or("(nothing)"),
                latest.value,
                latest.index,
                latest.line
            ));
        }
    }
    failures
}

/// Generates and judges the run of one seed.
pub fn run_seed(seed: u64, duration_ms: u64) -> FuzzRun {
    let (script, _) = generate(seed, duration_ms);
    // Judge the script as text, exactly as a reproduction would run it.
    let outcome = match check(&script) {
        Ok(o) => o,
        Err(e) => Verdict {
            time_ms: 0,
            deliveries: 0,
            final_phase: Vec::new(),
            liveness_expected: false,
            acked_writes: 0,
            failures: vec![Failure {
                kind: FailureKind::Safety("generated script parses"),
                text: e.to_string(),
            }],
        },
    };
    FuzzRun {
        seed,
        script,
        outcome,
    }
}

// ---- shrinking ------------------------------------------------------------------

/// Removes command lines from `script` while `still_fails` holds: chunks
/// first, halving their size, then single lines, until no single line can
/// go (delta debugging). The first line (the `cluster` line) always stays.
/// Returns a script on which `still_fails` holds, or `script` itself if it
/// does not hold there.
pub fn shrink(script: &str, mut still_fails: impl FnMut(&str) -> bool) -> String {
    let mut lines: Vec<&str> = script.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return script.to_string();
    }
    let head = lines.remove(0);
    let render = |body: &[&str]| {
        let mut s = String::from(head);
        s.push('\n');
        for l in body {
            s.push_str(l);
            s.push('\n');
        }
        s
    };
    if !still_fails(&render(&lines)) {
        return script.to_string();
    }
    let mut chunk = lines.len().div_ceil(2).max(1);
    loop {
        let mut removed_any = false;
        let mut start = 0;
        while start < lines.len() {
            let end = (start + chunk).min(lines.len());
            let candidate: Vec<&str> = lines[..start]
                .iter()
                .chain(&lines[end..])
                .copied()
                .collect();
            if still_fails(&render(&candidate)) {
                lines = candidate;
                removed_any = true;
            } else {
                start = end;
            }
        }
        if chunk == 1 {
            if !removed_any {
                break;
            }
        } else {
            chunk = chunk.div_ceil(2);
        }
    }
    render(&lines)
}

/// Shrinks a failing script, keeping the kind of its first failure.
pub fn shrink_failure(script: &str, kind: &FailureKind) -> String {
    shrink(script, |s| {
        check(s).is_ok_and(|o| o.failures.iter().any(|f| &f.kind == kind))
    })
}

/// The totals of a fuzz campaign.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub seeds: u64,
    pub simulated_ms: u64,
    pub deliveries: u64,
    pub acked_writes: u64,
    /// Runs in which liveness was required (and so checked).
    pub liveness_checked: u64,
    pub violations: u64,
    pub failed_seeds: Vec<u64>,
}

impl Summary {
    pub fn add(&mut self, run: &FuzzRun) {
        self.seeds += 1;
        self.simulated_ms += run.outcome.time_ms;
        self.deliveries += run.outcome.deliveries;
        self.acked_writes += run.outcome.acked_writes as u64;
        self.liveness_checked += u64::from(run.outcome.liveness_expected);
        self.violations += run.outcome.failures.len() as u64;
        if !run.outcome.passed() {
            self.failed_seeds.push(run.seed);
        }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "fuzz: {} seeds, {:.1}s simulated, {} message deliveries, {} acknowledged writes \
             checked, liveness required in {} runs, {} violations in {} seeds",
            self.seeds,
            self.simulated_ms as f64 / 1000.0,
            self.deliveries,
            self.acked_writes,
            self.liveness_checked,
            self.violations,
            self.failed_seeds.len()
        )
    }
}
