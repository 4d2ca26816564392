//! What a run is judged to be: the properties it broke, and what it did.

use std::fmt;

use super::coverage::Coverage;
use super::liveness::Liveness;

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
    /// Whether the run owed liveness ([`super::liveness::owed`]), or why not.
    pub liveness: Liveness,
    /// Whether the final phase's write committed, owed or not.
    pub final_write: bool,
    /// Client writes acknowledged with an index.
    pub acked_writes: usize,
    /// How often the run went down each counted path.
    pub coverage: Coverage,
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
