//! Judging a run: run its script, then the final phase, and gather what
//! broke (safety, linearizability, liveness where owed, durability, the
//! mirror).

use crate::lang::ast::Script;
use crate::lang::parse::{parse_script, ParseError};
use crate::session::cond::Unmet;

use super::durability::durability;
use super::final_phase::{final_write, make_whole};
use super::liveness::{self, Liveness};
use super::mirror_check::mirror_copies;
use super::observed::Observed;
use super::verdict::{Failure, FailureKind, Verdict};

/// Runs a script the way the fuzzer does, then its final phase, and judges it.
pub fn check(src: &str) -> Result<Verdict, ParseError> {
    let script = parse_script(src)?;
    Ok(check_script(&script))
}

/// [`check`] on a parsed script.
pub fn check_script(script: &Script) -> Verdict {
    let mut o = Observed::run_script(script);
    let healed_at = make_whole(&mut o);
    // What the run owed once made whole, before the final phase's leader
    // could commit what its log held from before (a configuration change
    // among it).
    let owed_when_whole = liveness::owed(&o.session);
    let wrote = final_write(&mut o);
    let mut failures = safety_and_linearizability(&mut o);
    // A run is judged on its state at the end: a change committed since it
    // was made whole may have taken the quorum away, where etcd is stuck
    // too. (Read only when made whole, members that have not yet applied
    // a change make the rule look broken in their stale view.) A run that
    // wrote and owed liveness when made whole counts as checked all the
    // same.
    let liveness = if wrote && owed_when_whole.checked() {
        Liveness::Checked
    } else {
        liveness::owed(&o.session)
    };
    if !wrote && liveness.checked() {
        let status = o.session.status();
        failures.push(Failure {
            kind: FailureKind::Liveness,
            text: format!(
                "with every link healed and every member that can run started, a majority of \
                 the voters {:?} runs, yet no leader committed a write within {}ms of the heal \
                 (leader: {:?}, term {})",
                status.voters,
                o.session.now() - healed_at,
                status.leader,
                status.term
            ),
        });
    }
    if wrote {
        failures.extend(durability(&o.session, &o.tracker));
    }
    failures.extend(mirror_copies(&o.session));
    o.coverage.observe_results(o.session.results());
    Verdict {
        time_ms: o.session.now(),
        deliveries: o.session.cluster().world().deliveries(),
        liveness,
        final_write: wrote,
        acked_writes: o.tracker.acks.len(),
        final_phase: o.final_phase,
        coverage: o.coverage,
        failures,
    }
}

/// The world's safety invariants, the stale reads the tracker saw, and the
/// exact check of the whole history.
fn safety_and_linearizability(o: &mut Observed) -> Vec<Failure> {
    let world = o.session.cluster().world();
    let mut failures: Vec<Failure> = world
        .violations()
        .iter()
        .map(|v| Failure {
            kind: FailureKind::Safety(v.property),
            text: format!("t={}ms: {}", v.time_ms, v.text),
        })
        .collect();
    failures.append(&mut o.tracker.failures);
    // The exact check (v2 spec §4) of every write and linearizable read,
    // load writes included; the tracker above names the line of a stale
    // read, this one also catches what no single read shows.
    let strong = o.session.cluster().strong_linearizability();
    if let (false, Some(anomaly)) = (strong.ok, strong.anomaly) {
        failures.push(Failure {
            kind: FailureKind::Linearizability,
            text: format!(
                "the writes and linearizable reads are not linearizable: {}",
                crate::session::detail::unmet(&Unmet::Anomaly(Some(Box::new(anomaly))))
            ),
        });
    }
    failures
}
