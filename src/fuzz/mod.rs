//! Randomised fault runs: every run is a scenario script, so every failure
//! is a script that reproduces it.
//!
//! For one seed, [`generate()`] builds a random cluster and then picks one
//! command at a time (faults, membership changes, client load, waits) from a
//! generator seeded with that seed, looking at the live cluster to choose
//! sensible targets, and runs it. The script is the commands it ran, so
//! running the script again gives the same run. [`check()`] then runs a fixed
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
//!   wherever etcd promises it: one rule, in [`liveness`], that the
//!   generator reads too (an election timeout of at least 10 average round
//!   trips, as etcd's tuning guide asks; a majority of the voters, in every
//!   running member's view of the configuration, able to run and reach each
//!   other; some running voter's log up to date enough to win their votes).
//!   Runs outside it are judged on everything else;
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
//! In a quarter of the runs (a stream of its own), now and then a command
//! on the store's history takes the drawn command's place: a watch, an MVCC
//! compaction, a read at a past revision.
//!
//! In a quarter of the runs (a stream of its own, [`by_hand`]) a hand acts
//! on single messages now and then: a direction held, released (a few
//! messages, or everything), messages dropped, the next one delivered
//! alone. The final phase releases whatever is held as it heals every link;
//! the checks are the same.
//!
//! Each run also counts the paths it went down ([`coverage`]), so a
//! campaign's [`Summary`] says which it never reached. A campaign splits
//! into disjoint shards ([`shard`]) whose [`Report`]s [`merge()`] into the
//! whole's. [`shrink()`] cuts a failing script down by delta debugging. No
//! clap, no threads, no I/O: the browser can use it as well as `raftlab
//! fuzz`.
//!
//! The modules, in the order a run goes through them: the `cluster` line
//! ([`cluster`], with [`modes`], [`mirrored`], [`history_ops`] and
//! [`by_hand`] drawn from streams of their own), the commands ([`commands`], picked with a
//! [`view`] of the live cluster, by [`mod@generate`]); then the check
//! ([`mod@check`]: [`observed`] runs the script under the [`tracker`] and
//! [`coverage`], [`final_phase`] makes the cluster whole, [`liveness`],
//! [`durability`] and [`mirror_check`] judge); then the campaign ([`run`],
//! [`summary`], [`report`], [`shard`], [`mod@merge`], [`mod@shrink`]).

pub mod by_hand;
pub mod check;
pub mod cluster;
pub mod commands;
pub mod coverage;
pub mod durability;
pub mod final_phase;
pub mod generate;
pub mod history_ops;
pub mod joint;
pub mod liveness;
pub mod merge;
pub mod mirror_check;
pub mod mirrored;
pub mod modes;
pub mod observed;
pub mod report;
pub mod run;
pub mod shard;
pub mod shrink;
pub mod stream;
pub mod summary;
pub mod tracker;
pub mod verdict;
pub mod view;

pub use check::{check, check_script};
pub use cluster::random_cluster;
pub use coverage::{Coverage, Path};
pub use generate::{generate, DEFAULT_DURATION_MS};
pub use liveness::Liveness;
pub use merge::merge;
pub use report::{Report, Reproducer};
pub use run::run_seed;
pub use shard::{Campaign, Shard};
pub use shrink::{shrink, shrink_failure};
pub use summary::{LivenessCounts, SeedFailures, Summary};
pub use verdict::{reproducer, Failure, FailureKind, FuzzRun, Verdict};
