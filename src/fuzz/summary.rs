//! The totals of a campaign: every figure a sum over its runs, so the
//! summaries of disjoint parts add up to the summary of the whole.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::coverage::Coverage;
use super::liveness::Liveness;
use super::verdict::FuzzRun;

/// How many runs owed liveness, and how many did not, by why.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct LivenessCounts {
    pub checked: u64,
    /// Exempt: the election timeout is under etcd's 10 round trips.
    pub timing: u64,
    /// Exempt: no majority of the voters can run.
    pub no_quorum: u64,
    /// Exempt: no running voter's log can win an election.
    pub nobody_can_win: u64,
}

impl LivenessCounts {
    pub fn exempt(&self) -> u64 {
        self.timing + self.no_quorum + self.nobody_can_win
    }

    fn count(&mut self, l: Liveness) {
        *match l {
            Liveness::Checked => &mut self.checked,
            Liveness::ExemptTiming => &mut self.timing,
            Liveness::ExemptNoQuorum => &mut self.no_quorum,
            Liveness::ExemptNobodyCanWin => &mut self.nobody_can_win,
        } += 1;
    }

    fn add(&mut self, o: &LivenessCounts) {
        self.checked += o.checked;
        self.timing += o.timing;
        self.no_quorum += o.no_quorum;
        self.nobody_can_win += o.nobody_can_win;
    }
}

/// A failing seed and what it broke.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedFailures {
    pub seed: u64,
    /// Each failure as `kind: text`.
    pub failures: Vec<String>,
}

/// The totals of a fuzz campaign.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Summary {
    pub seeds: u64,
    pub simulated_ms: u64,
    pub deliveries: u64,
    pub acked_writes: u64,
    pub liveness: LivenessCounts,
    pub violations: u64,
    /// The failing seeds, lowest first.
    pub failed: Vec<SeedFailures>,
    pub coverage: Coverage,
}

impl Summary {
    pub fn add(&mut self, run: &FuzzRun) {
        let o = &run.outcome;
        self.seeds += 1;
        self.simulated_ms += o.time_ms;
        self.deliveries += o.deliveries;
        self.acked_writes += o.acked_writes as u64;
        self.liveness.count(o.liveness);
        self.violations += o.failures.len() as u64;
        if !o.passed() {
            self.failed.push(SeedFailures {
                seed: run.seed,
                failures: o.failures.iter().map(|f| f.to_string()).collect(),
            });
        }
        self.coverage.add(&o.coverage);
    }

    /// Adds the summary of a disjoint part of the campaign.
    pub fn merge(&mut self, part: &Summary) {
        self.seeds += part.seeds;
        self.simulated_ms += part.simulated_ms;
        self.deliveries += part.deliveries;
        self.acked_writes += part.acked_writes;
        self.liveness.add(&part.liveness);
        self.violations += part.violations;
        self.failed.extend(part.failed.iter().cloned());
        self.failed.sort_by_key(|f| f.seed);
        self.coverage.add(&part.coverage);
    }

    pub fn failed_seeds(&self) -> Vec<u64> {
        self.failed.iter().map(|f| f.seed).collect()
    }
}

/// The figures on one line, liveness on the next, then the coverage.
impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = &self.liveness;
        writeln!(
            f,
            "fuzz: {} seeds, {:.1}s simulated, {} message deliveries, {} acknowledged writes \
             checked, {} violations in {} seeds",
            self.seeds,
            self.simulated_ms as f64 / 1000.0,
            self.deliveries,
            self.acked_writes,
            self.violations,
            self.failed.len()
        )?;
        writeln!(
            f,
            "liveness: checked in {} runs, exempt in {} (timing outside etcd's rule {}, no \
             quorum {}, nobody can win {})",
            l.checked,
            l.exempt(),
            l.timing,
            l.no_quorum,
            l.nobody_can_win
        )?;
        writeln!(f, "coverage, summed over the runs:")?;
        write!(f, "{}", self.coverage)
    }
}
