//! `raftlab fuzz [--seeds N] [--start S] [--duration DURATION] [--jobs N]`:
//! randomised fault runs, each a scenario script, checked for safety,
//! linearizable reads, liveness and durability. Prints one summary line; for
//! a failing seed it also prints the seed, what broke, and the script that
//! reproduces it, shrunk, and exits 1.
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

use crate::fuzz::{self, FuzzRun, Summary};
use crate::lang::parse::parse_duration;

pub fn run(
    seeds: u64,
    start: u64,
    duration: &str,
    jobs: NonZeroUsize,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let duration_ms = match parse_duration(duration) {
        Ok(ms) if ms > 0 => ms,
        Ok(_) => {
            let _ = writeln!(out, "raftlab fuzz: --duration must be more than 0ms");
            return 2;
        }
        Err(e) => {
            let _ = writeln!(out, "raftlab fuzz: --duration: {e}");
            return 2;
        }
    };
    let began = Instant::now();
    let seeds = start..start.saturating_add(seeds);
    let count = seeds.end - seeds.start;
    let summary = campaign(seeds, jobs, |seed| fuzz::run_seed(seed, duration_ms), out);
    let _ = writeln!(
        err,
        "raftlab fuzz: {count} seeds on {jobs} thread{}, {:.1}s wall",
        if jobs.get() == 1 { "" } else { "s" },
        began.elapsed().as_secs_f64()
    );
    if summary.failed_seeds.is_empty() {
        0
    } else {
        1
    }
}

/// Runs `run_seed` on every seed on `jobs` threads and prints, in seed
/// order, a line for each failing seed, then the lowest failing seed's script
/// shrunk, then the summary, which it returns.
fn campaign(
    seeds: Range<u64>,
    jobs: NonZeroUsize,
    run_seed: impl Fn(u64) -> FuzzRun + Sync,
    out: &mut dyn Write,
) -> Summary {
    let mut summary = Summary::default();
    let mut first_failure = None;
    in_seed_order(seeds, jobs, run_seed, |seed, run| {
        summary.add(&run);
        if let Some(f) = run.outcome.failures.first() {
            let _ = writeln!(out, "seed {seed}: {f}");
            if first_failure.is_none() {
                first_failure = Some(run);
            }
        }
    });
    if let Some(run) = &first_failure {
        let kind = run.outcome.first_kind().cloned();
        let shrunk = match &kind {
            Some(k) => fuzz::shrink_failure(&run.script, k),
            None => run.script.clone(),
        };
        let _ = writeln!(
            out,
            "\nseed {} fails; the script that reproduces it, shrunk from {} to {} lines \
             (run it with `raftlab run FILE`):\n",
            run.seed,
            run.script.lines().count(),
            shrunk.lines().count()
        );
        match fuzz::check(&shrunk) {
            Ok(outcome) => {
                for f in &outcome.failures {
                    let _ = writeln!(out, "# {f}");
                }
                let _ = write!(out, "{}", fuzz::reproducer(&shrunk, &outcome));
            }
            Err(_) => {
                let _ = write!(out, "{shrunk}");
            }
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "{summary}");
    summary
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
            let summary = campaign(4..16, jobs(n), run_seed, &mut out);
            assert_eq!(summary.seeds, 12);
            assert_eq!(summary.failed_seeds, [7, 11, 15]);
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
        assert!(text.ends_with(", 3 violations in 3 seeds\n"), "{text}");
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
