//! `raftlab fuzz [--seeds N] [--start S] [--duration DURATION]`: randomised
//! fault runs, each a scenario script, checked for safety, linearizable
//! reads, liveness and durability. Prints one summary line; for a failing
//! seed it also prints the seed, what broke, and the script that reproduces
//! it, shrunk, and exits 1.

use std::io::Write;
use std::time::Instant;

use crate::scenario::fuzz::{self, Summary};
use crate::scenario::parse_duration;

pub fn run(seeds: u64, start: u64, duration: &str, out: &mut dyn Write) -> i32 {
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
    let mut summary = Summary::default();
    let mut first_failure = None;
    for seed in start..start.saturating_add(seeds) {
        let run = fuzz::run_seed(seed, duration_ms);
        summary.add(&run);
        if let Some(f) = run.outcome.failures.first() {
            let _ = writeln!(out, "seed {seed}: {f}");
            if first_failure.is_none() {
                first_failure = Some(run);
            }
        }
    }
    let wall = began.elapsed().as_secs_f64();
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
    let _ = writeln!(out, "{summary}, {wall:.1}s wall");
    if summary.failed_seeds.is_empty() {
        0
    } else {
        1
    }
}
