//! `raftlab fuzz [--seeds N] [--start S] [--duration DURATION] [--jobs N]
//! [--shard K/N] [--json]`: randomised fault runs, each a scenario script,
//! checked for safety, linearizable reads, liveness where etcd promises it,
//! and durability. Prints a line for each failing seed, the lowest failing
//! seed's script shrunk, and the summary with its coverage (or all of it as
//! JSON with `--json`); exits 1 when a seed failed.
//!
//! `--shard K/N` runs the K-th of N disjoint parts of the seeds (a line for
//! each of its failing seeds, the same as the whole campaign prints);
//! `raftlab fuzz merge FILES...` merges the parts' `--json` reports into the
//! whole campaign's, byte for byte what one run of it prints.
//!
//! The seeds run on `--jobs` threads, but the output is printed in seed order
//! and the reproducer is the lowest failing seed's, so standard output is the
//! same byte for byte whatever the number of threads. The wall time, which
//! differs from run to run, goes to standard error.

use std::collections::BTreeMap;
use std::io::Write;
use std::num::NonZeroUsize;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use crate::fuzz::{self, Campaign, FuzzRun, Report, Reproducer, Shard, Summary};
use crate::lang::parse::parse_duration;

/// What `raftlab fuzz` was asked.
#[derive(Debug, Clone)]
pub struct FuzzArgs {
    pub seeds: u64,
    pub start: u64,
    pub duration: String,
    pub jobs: NonZeroUsize,
    pub shard: Option<Shard>,
    pub json: bool,
}

pub fn run(args: &FuzzArgs, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let duration_ms = match parse_duration(&args.duration) {
        Ok(ms) if ms > 0 => ms,
        Ok(_) => {
            let _ = writeln!(err, "raftlab fuzz: --duration must be more than 0ms");
            return 2;
        }
        Err(e) => {
            let _ = writeln!(err, "raftlab fuzz: --duration: {e}");
            return 2;
        }
    };
    if args.start.checked_add(args.seeds).is_none() {
        let _ = writeln!(
            err,
            "raftlab fuzz: --start {} and --seeds {} run past the last seed, {}",
            args.start,
            args.seeds,
            u64::MAX
        );
        return 2;
    }
    let began = Instant::now();
    let whole = Campaign {
        start: args.start,
        seeds: args.seeds,
        duration_ms,
    };
    let seeds = whole.seeds_of(args.shard);
    let count = seeds.end - seeds.start;
    let text: Option<&mut dyn Write> = if args.json { None } else { Some(&mut *out) };
    let (summary, reproducer) = campaign(
        seeds,
        args.jobs,
        |seed| fuzz::run_seed(seed, duration_ms),
        text,
    );
    let failed = !summary.failed.is_empty();
    if args.json {
        let report = Report {
            campaign: whole,
            shard: args.shard,
            summary,
            reproducer,
        };
        let _ = write!(out, "{}", report.to_json());
    }
    let part = args.shard.map_or(String::new(), |s| format!("shard {s}, "));
    let _ = writeln!(
        err,
        "raftlab fuzz: {part}{count} seed{} on {} thread{}, {:.1}s wall",
        if count == 1 { "" } else { "s" },
        args.jobs,
        if args.jobs.get() == 1 { "" } else { "s" },
        began.elapsed().as_secs_f64()
    );
    i32::from(failed)
}

/// `raftlab fuzz merge FILES...`: the shards' reports merged, as JSON on
/// standard output; the summary in words on standard error. Exits 1 when a
/// seed failed, 2 when a file cannot be read or the parts do not make one
/// campaign.
pub fn merge_files(files: &[std::path::PathBuf], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let mut parts = Vec::new();
    for f in files {
        let read = std::fs::read_to_string(f).map_err(|e| e.to_string());
        match read.and_then(|text| Report::from_json(&text)) {
            Ok(r) => parts.push(r),
            Err(e) => {
                let _ = writeln!(err, "raftlab fuzz merge: {}: {e}", f.display());
                return 2;
            }
        }
    }
    match fuzz::merge(&parts) {
        Ok(whole) => {
            let _ = write!(out, "{}", whole.to_json());
            let _ = writeln!(err, "{}", whole.summary);
            i32::from(!whole.summary.failed.is_empty())
        }
        Err(e) => {
            let _ = writeln!(err, "raftlab fuzz merge: {e}");
            2
        }
    }
}

/// Runs `run_seed` on every seed on `jobs` threads. With `text`, prints to
/// it, in seed order, a line for each failing seed, then the lowest failing
/// seed's script shrunk, then the summary. Returns the summary and that
/// script.
fn campaign(
    seeds: Range<u64>,
    jobs: NonZeroUsize,
    run_seed: impl Fn(u64) -> FuzzRun + Sync,
    mut text: Option<&mut dyn Write>,
) -> (Summary, Option<Reproducer>) {
    let mut summary = Summary::default();
    let mut first_failure = None;
    in_seed_order(seeds, jobs, run_seed, |seed, run| {
        summary.add(&run);
        if let Some(f) = run.outcome.failures.first() {
            if let Some(out) = text.as_mut() {
                let _ = writeln!(out, "seed {seed}: {f}");
            }
            if first_failure.is_none() {
                first_failure = Some(run);
            }
        }
    });
    let reproducer = first_failure.as_ref().map(Reproducer::of);
    if let Some(out) = text {
        if let Some(r) = &reproducer {
            let _ = writeln!(out, "\n{r}");
        }
        let _ = writeln!(out, "{summary}");
    }
    (summary, reproducer)
}

/// Runs `work` on every seed of `seeds` on `jobs` threads, each taking the
/// next seed not yet taken, and hands each result to `take` in seed order,
/// whatever order they finish in: results that finish early wait until every
/// lower seed's has been taken.
pub fn in_seed_order<T: Send>(
    seeds: Range<u64>,
    jobs: NonZeroUsize,
    work: impl Fn(u64) -> T + Sync,
    mut take: impl FnMut(u64, T),
) {
    let count = seeds.end.saturating_sub(seeds.start);
    let threads = jobs.get().min(usize::try_from(count).unwrap_or(usize::MAX));
    let next = AtomicU64::new(seeds.start);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (tx, next, work) = (tx.clone(), &next, &work);
            scope.spawn(move || {
                // Never past the end, so the counter cannot wrap.
                while let Ok(seed) = next.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| {
                    (s < seeds.end).then(|| s + 1)
                }) {
                    if tx.send((seed, work(seed))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut finished = BTreeMap::new();
        let mut due = seeds.start;
        for (seed, result) in rx {
            finished.insert(seed, result);
            while let Some(result) = finished.remove(&due) {
                take(due, result);
                due += 1;
            }
        }
    });
}

/// The threads `--jobs` means when not given: the cores available, or one.
pub fn default_jobs() -> NonZeroUsize {
    std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN)
}

/// `--jobs`: a whole number of threads, 1 or more.
pub fn parse_jobs(s: &str) -> Result<NonZeroUsize, String> {
    match s.parse::<usize>() {
        Ok(n) => NonZeroUsize::new(n).ok_or_else(|| "at least 1 thread is needed".to_string()),
        Err(_) => Err("expected a whole number of threads, like 2".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn jobs(n: usize) -> NonZeroUsize {
        NonZeroUsize::new(n).unwrap()
    }

    #[test]
    fn results_come_in_seed_order_whatever_order_they_finish_in() {
        // Low seeds take longest, so with several threads the high seeds
        // finish first; every third seed "fails".
        let work = |seed: u64| {
            std::thread::sleep(Duration::from_millis((20 - seed) * 3));
            (seed * seed, seed % 3 == 2)
        };
        let mut runs = Vec::new();
        for n in [1, 2, 3, 8, 64] {
            let mut got = Vec::new();
            let mut first_failure = None;
            in_seed_order(5..20, jobs(n), work, |seed, (square, fails)| {
                got.push((seed, square));
                if fails && first_failure.is_none() {
                    first_failure = Some(seed);
                }
            });
            assert_eq!(first_failure, Some(5), "{n} threads");
            runs.push(got);
        }
        let expected: Vec<(u64, u64)> = (5..20).map(|s| (s, s * s)).collect();
        for got in runs {
            assert_eq!(got, expected);
        }
    }

    #[test]
    fn every_thread_works_and_the_range_edges_hold() {
        // Each seed sleeps while counted as running: with 3 threads, 3 run
        // at once, and never more.
        use std::sync::atomic::AtomicUsize;
        let (running, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let mut seen = Vec::new();
        in_seed_order(
            0..9,
            jobs(3),
            |seed| {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(40));
                running.fetch_sub(1, Ordering::SeqCst);
                seed
            },
            |seed, r| seen.push((seed, r)),
        );
        assert_eq!(most.into_inner(), 3);
        assert_eq!(seen, (0..9).map(|s| (s, s)).collect::<Vec<_>>());
        // An empty range runs nothing; the top of u64 does not wrap.
        in_seed_order(7..7, jobs(4), |_| unreachable!(), |_, ()| unreachable!());
        let mut top = Vec::new();
        in_seed_order(u64::MAX - 3..u64::MAX, jobs(3), |s| s, |s, _| top.push(s));
        assert_eq!(top, [u64::MAX - 3, u64::MAX - 2, u64::MAX - 1]);
    }

    #[test]
    fn a_campaign_prints_the_same_and_shrinks_the_lowest_failing_seed_on_any_threads() {
        // Planted failures: every seed that is 3 modulo 4 fails, and the low
        // seeds take longest, so with several threads a high failing seed
        // finishes first.
        let run_seed = |seed: u64| {
            std::thread::sleep(Duration::from_millis((16 - seed) * 2));
            let mut run = fuzz::run_seed(seed, 2_000);
            if seed % 4 == 3 {
                run.outcome.failures.push(fuzz::Failure {
                    kind: fuzz::FailureKind::Durability,
                    text: format!("planted in seed {seed}"),
                });
            }
            run
        };
        let mut outputs = Vec::new();
        for n in [1, 3, 5] {
            let mut out = Vec::new();
            let (summary, reproducer) = campaign(4..16, jobs(n), run_seed, Some(&mut out));
            assert_eq!(summary.seeds, 12);
            assert_eq!(summary.failed_seeds(), [7, 11, 15]);
            assert_eq!(reproducer.map(|r| r.seed), Some(7));
            // Without text, nothing is printed, and the result is the same.
            let (quiet, _) = campaign(4..16, jobs(n), run_seed, None);
            assert_eq!(quiet, summary);
            outputs.push(String::from_utf8(out).unwrap());
        }
        let text = &outputs[0];
        assert!(
            text.starts_with(
                "seed 7: durability: planted in seed 7\n\
                 seed 11: durability: planted in seed 11\n\
                 seed 15: durability: planted in seed 15\n\n\
                 seed 7 fails;"
            ),
            "{text}"
        );
        // The planted failure does not happen when the script runs again, so
        // nothing shrinks away: the reproducer is seed 7's whole script.
        assert!(
            text.contains(&fuzz::run_seed(7, 2_000).reproducer()),
            "{text}"
        );
        assert!(text.contains(", 3 violations in 3 seeds\n"), "{text}");
        assert!(
            text.ends_with("never reached: ") || text.contains("\nnever reached: "),
            "{text}"
        );
        assert_eq!(outputs[1], outputs[0]);
        assert_eq!(outputs[2], outputs[0]);
    }

    #[test]
    fn jobs_must_be_a_positive_whole_number() {
        assert_eq!(parse_jobs("3"), Ok(jobs(3)));
        assert!(parse_jobs("0").unwrap_err().contains("at least 1"));
        for bad in ["", "-1", "two", "1.5"] {
            assert!(
                parse_jobs(bad).unwrap_err().contains("whole number"),
                "{bad}"
            );
        }
        assert!(default_jobs().get() >= 1);
    }
}
