//! Judging each line: raftlab's answer against each release's, by the kind
//! of the line, with a stated tolerance for time.
//!
//! | kind | the same when |
//! |---|---|
//! | `expect` | it holds on every side (a failed `expect` fails the run wherever it fails) |
//! | `wait-until` | it held in time on both sides, or on neither: an election takes what it takes |
//! | a request | the same answer (ok, or the same error code; a `get`'s value, a member list's members, a `status via=`'s leader and learner flag) and the time within the tolerance below |
//! | `start`, `crash`, `campaign`, a network fault | done on both, or refused with the same code |
//! | `wait`, narration | always |
//!
//! Time, for a request: one that fails with `timeout` took its client
//! timeout on both sides, within 10% (or 300 ms, etcdctl's own start, for a
//! short timeout); any other answer came within 1 s of each other, or
//! within 25% of the longer (etcdctl's retries and re-dials, an election it
//! waited for).

use crate::lang::ast::Script;
use crate::raft::NodeId;

use super::known::Known;
use super::plan::{Kind, Plan};
use super::row::{Answer, Binaries, Outcome, Row, Verdict};

impl Verdict {
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Same => "same",
            Verdict::Skipped => "skipped",
            Verdict::Known(_) => "known",
            Verdict::Differs(_) => "differs",
            Verdict::ExpectFailed(_) => "FAILED",
            Verdict::FailsAlike(_) => "fails",
        }
    }

    pub fn fails(&self) -> bool {
        matches!(
            self,
            Verdict::Differs(_) | Verdict::ExpectFailed(_) | Verdict::FailsAlike(_)
        )
    }

    /// A difference between raftlab and etcd (not a known one).
    pub fn differs(&self) -> bool {
        matches!(self, Verdict::Differs(_) | Verdict::ExpectFailed(_))
    }
}

/// The client timeout's tolerance: 10%, at least 300 ms.
const TIMEOUT_TOLERANCE_PERCENT: u64 = 10;
const TIMEOUT_TOLERANCE_MS: u64 = 300;
/// Any other answer's: 1 s, or 25% of the longer.
const ANSWER_TOLERANCE_MS: u64 = 1000;
const ANSWER_TOLERANCE_PERCENT: u64 = 25;

/// Whether two durations of a request's answer are the same within its
/// kind's tolerance; else why not.
pub fn same_time(code: Option<&str>, raftlab_ms: u64, etcd_ms: u64) -> Result<(), String> {
    let (lo, hi) = (raftlab_ms.min(etcd_ms), raftlab_ms.max(etcd_ms));
    let ok = if code == Some("timeout") {
        hi - lo <= TIMEOUT_TOLERANCE_MS
            || (hi - lo).saturating_mul(100) <= hi.saturating_mul(TIMEOUT_TOLERANCE_PERCENT)
    } else {
        hi - lo <= ANSWER_TOLERANCE_MS
            || (hi - lo).saturating_mul(100) <= hi.saturating_mul(ANSWER_TOLERANCE_PERCENT)
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "answered after {} in raftlab, {} on etcd",
            seconds(raftlab_ms),
            seconds(etcd_ms)
        ))
    }
}

fn seconds(ms: u64) -> String {
    format!("{:.2}s", ms as f64 / 1000.0)
}

/// A member list for the table: `1 2 3 4(learner, unstarted)`.
pub fn members_text(list: impl Iterator<Item = (NodeId, bool, bool)>) -> String {
    list.map(|(id, learner, started)| {
        let name = if id == 0 {
            "?".to_string()
        } else {
            id.to_string()
        };
        match (learner, started) {
            (false, true) => name,
            (true, true) => format!("{name}(learner)"),
            (false, false) => format!("{name}(unstarted)"),
            (true, false) => format!("{name}(learner, unstarted)"),
        }
    })
    .collect::<Vec<_>>()
    .join(" ")
}

/// A member's status for the table.
pub fn status_text(leader: Option<NodeId>, learner: bool) -> String {
    let lead = leader.map_or("no leader".to_string(), |l| format!("leader {l}"));
    if learner {
        format!("ok: {lead}, learner")
    } else {
        format!("ok: {lead}")
    }
}

/// What differs between raftlab's answer and a release's, for a line of
/// this kind (`None`: the same).
pub fn differs(kind: &Kind, sim: &Answer, real: &Answer) -> Option<String> {
    match kind {
        Kind::Narration | Kind::Skipped(_) | Kind::Wait | Kind::Expect => None,
        Kind::WaitUntil => (sim.ok != real.ok).then(|| {
            if sim.ok {
                format!("held in raftlab, not on etcd: {}", real.text)
            } else {
                format!("held on etcd, not in raftlab: {}", sim.text)
            }
        }),
        Kind::Action => (sim.code != real.code).then(|| {
            format!(
                "{} in raftlab, {} on etcd",
                sim.code.as_deref().unwrap_or("ok"),
                real.code.as_deref().unwrap_or("ok")
            )
        }),
        Kind::Request => {
            if sim.code != real.code {
                return Some(format!(
                    "{} in raftlab, {} on etcd",
                    sim.code.as_deref().unwrap_or("ok"),
                    real.code.as_deref().unwrap_or("ok")
                ));
            }
            if sim.value != real.value {
                return Some("the values differ".to_string());
            }
            if sim.members != real.members {
                return Some("the member lists differ".to_string());
            }
            if sim.status != real.status {
                return Some("the statuses differ".to_string());
            }
            same_time(sim.code.as_deref(), sim.ms, real.ms).err()
        }
    }
}

/// Every line judged; the exit status.
pub fn compare(
    file: &str,
    script: &Script,
    releases: &[Binaries],
    simulated: &[Option<Vec<Answer>>],
    driven: &[Option<Vec<Answer>>],
    known: &Known,
) -> Outcome {
    let plan = Plan::of(script, true);
    let mut rows = Vec::new();
    let mut all_checks_passed = true;
    let mut held_on = vec![true; releases.len()];
    for (k, (c, kind)) in script.commands.iter().zip(&plan.kinds).enumerate() {
        let raftlab: Vec<Option<Answer>> = simulated
            .iter()
            .map(|s| s.as_ref().and_then(|a| a.get(k).cloned()))
            .collect();
        let etcd: Vec<Option<Answer>> = driven
            .iter()
            .map(|s| s.as_ref().and_then(|a| a.get(k).cloned()))
            .collect();
        let mut verdict = Verdict::Same;
        if matches!(kind, Kind::Narration | Kind::Skipped(_)) {
            verdict = Verdict::Skipped;
            if matches!(kind, Kind::Skipped(_))
                && matches!(&*c.node, crate::lang::ast::Command::Expect(_))
            {
                all_checks_passed = false;
                held_on.fill(false);
            }
        }
        let at = At {
            file,
            line: c.line,
            kind,
            known,
        };
        for (i, bins) in releases.iter().enumerate() {
            if simulated[i].is_none() {
                // Not run beside this release (pinned to another).
                continue;
            }
            let (v, checks_held) = at.judge(bins, raftlab[i].as_ref(), etcd[i].as_ref());
            verdict = worse(verdict, v);
            all_checks_passed &= checks_held;
            held_on[i] &= checks_held;
        }
        rows.push(Row {
            line: c.line,
            command: c.text.clone(),
            raftlab,
            etcd,
            verdict,
        });
    }
    let exit = if rows.iter().any(|r| r.verdict.fails()) {
        1
    } else {
        0
    };
    Outcome {
        file: file.to_string(),
        releases: releases
            .iter()
            .zip(simulated)
            .filter(|(_, s)| s.is_some())
            .map(|(b, _)| b.version.clone())
            .collect(),
        rows,
        all_checks_passed,
        checks_held_on: releases
            .iter()
            .zip(simulated)
            .zip(&held_on)
            .filter(|((_, s), &held)| s.is_some() && held)
            .map(|((b, _), _)| b.version.clone())
            .collect(),
        exit,
    }
}

/// A line of the script, where it is judged.
struct At<'a> {
    file: &'a str,
    line: usize,
    kind: &'a Kind,
    known: &'a Known,
}

impl At<'_> {
    /// One release's answers to the line judged: the verdict, and whether
    /// the line is no expect that failed or went unanswered.
    fn judge(
        &self,
        bins: &Binaries,
        sim: Option<&Answer>,
        real: Option<&Answer>,
    ) -> (Verdict, bool) {
        let is_expect = *self.kind == Kind::Expect;
        let (Some(sim), Some(real)) = (sim, real) else {
            return (Verdict::Same, !is_expect);
        };
        let known = || {
            let reason = self.known.reason(self.file, self.line, &bins.version);
            reason.map(|r| Verdict::Known(r.to_string()))
        };
        if is_expect && (!sim.ok || !real.ok) {
            let mut where_ = Vec::new();
            if !sim.ok {
                where_.push(format!("in raftlab (etcd={}): {}", bins.release, sim.text));
            }
            if !real.ok {
                where_.push(format!("on etcd {}: {}", bins.version, real.text));
            }
            let why = where_.join("; ");
            let v = if !real.ok && !sim.ok {
                Verdict::FailsAlike(why)
            } else {
                // One side holds, the other does not: a difference, perhaps
                // known.
                known().unwrap_or(Verdict::ExpectFailed(why))
            };
            return (v, false);
        }
        match differs(self.kind, sim, real) {
            Some(what) => {
                let v = known()
                    .unwrap_or_else(|| Verdict::Differs(format!("etcd {}: {what}", bins.version)));
                (v, true)
            }
            None => (Verdict::Same, true),
        }
    }
}

/// The graver of two verdicts.
fn worse(a: Verdict, b: Verdict) -> Verdict {
    let rank = |v: &Verdict| match v {
        Verdict::Same | Verdict::Skipped => 0,
        Verdict::Known(_) => 1,
        Verdict::FailsAlike(_) => 2,
        Verdict::Differs(_) => 3,
        Verdict::ExpectFailed(_) => 4,
    };
    if rank(&b) > rank(&a) {
        b
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timeout_is_its_length_within_ten_percent_and_an_answer_within_a_second() {
        assert!(same_time(Some("timeout"), 5000, 5013).is_ok());
        assert!(same_time(Some("timeout"), 5000, 5600).is_err());
        assert!(same_time(Some("timeout"), 2000, 5000).is_err());
        assert!(same_time(Some("timeout"), 1000, 1250).is_ok());
        assert!(same_time(Some("timeout"), 1000, 1400).is_err());
        assert!(same_time(None, 30, 800).is_ok());
        assert!(same_time(None, 1500, 2400).is_ok());
        assert!(same_time(None, 1500, 2700).is_err());
        // A learner's refusal that etcdctl retries for 2.5 s.
        assert!(same_time(Some("not-supported-for-learner"), 0, 2600).is_err());
        assert!(same_time(None, 8000, 9500).is_ok());
    }

    #[test]
    fn requests_differ_by_code_value_members_or_time() {
        let ok = Answer::ok("ok", 10);
        let mut read = Answer::ok("ok: v", 10);
        read.value = Some(Some("v".into()));
        let mut other = read.clone();
        other.value = Some(None);
        let refused = Answer::failed("unhealthy", "etcdserver: unhealthy cluster", 5);
        assert_eq!(differs(&Kind::Request, &ok, &ok), None);
        assert!(differs(&Kind::Request, &ok, &refused).is_some());
        assert!(differs(&Kind::Request, &read, &other).is_some());
        assert_eq!(differs(&Kind::Request, &read, &read), None);
        let late = Answer::ok("ok", 4000);
        assert!(differs(&Kind::Request, &ok, &late).is_some());
        // A wait-until is judged by whether it held, not when.
        let held = Answer::ok("holds", 200);
        let held_later = Answer::ok("holds", 1900);
        assert_eq!(differs(&Kind::WaitUntil, &held, &held_later), None);
        let timed_out = Answer::failed("timeout", "no leader", 2000);
        assert!(differs(&Kind::WaitUntil, &held, &timed_out).is_some());
    }

    #[test]
    fn members_and_statuses_read_plainly() {
        let list = [(1, false, true), (4, true, false)];
        assert_eq!(members_text(list.into_iter()), "1 4(learner, unstarted)");
        assert_eq!(status_text(Some(2), true), "ok: leader 2, learner");
        assert_eq!(status_text(None, false), "ok: no leader");
    }
}
