//! One seed, generated and judged.

use super::check::check;
use super::coverage::Coverage;
use super::generate::generate;
use super::liveness::Liveness;
use super::verdict::{Failure, FailureKind, FuzzRun, Verdict};

/// Generates and judges the run of one seed.
pub fn run_seed(seed: u64, duration_ms: u64) -> FuzzRun {
    let (script, _) = generate(seed, duration_ms);
    // Judge the script as text, exactly as a reproduction would run it.
    let outcome = match check(&script) {
        Ok(o) => o,
        // Nothing ran, so no quorum ran: a failure of the generator.
        Err(e) => Verdict {
            time_ms: 0,
            deliveries: 0,
            final_phase: Vec::new(),
            liveness: Liveness::ExemptNoQuorum,
            final_write: false,
            acked_writes: 0,
            coverage: Coverage::default(),
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
