//! A campaign's result as `raftlab fuzz --json` prints it: the campaign,
//! the part of it that ran (if a shard), its summary, and the lowest failing
//! seed's script, shrunk.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::check::check;
use super::shard::{Campaign, Shard};
use super::shrink::shrink_failure;
use super::summary::Summary;
use super::verdict::{reproducer, FuzzRun};

/// The lowest failing seed's script, shrunk, with its final phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Reproducer {
    pub seed: u64,
    /// Lines of the generated script, and of the shrunk one.
    pub lines: usize,
    pub shrunk_lines: usize,
    /// What the shrunk script breaks, each as `kind: text`.
    pub failures: Vec<String>,
    /// The shrunk script and its final phase, as `raftlab run` takes it.
    pub script: String,
}

impl Reproducer {
    /// Shrinks `run`'s script, keeping the kind of its first failure.
    pub fn of(run: &FuzzRun) -> Reproducer {
        let shrunk = match run.outcome.first_kind() {
            Some(k) => shrink_failure(&run.script, k),
            None => run.script.clone(),
        };
        let (failures, script) = match check(&shrunk) {
            Ok(o) => (
                o.failures.iter().map(|f| f.to_string()).collect(),
                reproducer(&shrunk, &o),
            ),
            Err(_) => (Vec::new(), shrunk.clone()),
        };
        Reproducer {
            seed: run.seed,
            lines: run.script.lines().count(),
            shrunk_lines: shrunk.lines().count(),
            failures,
            script,
        }
    }
}

/// A paragraph: the seed, the failures as comments, the script.
impl fmt::Display for Reproducer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "seed {} fails; the script that reproduces it, shrunk from {} to {} lines \
             (run it with `raftlab run FILE`):\n",
            self.seed, self.lines, self.shrunk_lines
        )?;
        for failure in &self.failures {
            writeln!(f, "# {failure}")?;
        }
        write!(f, "{}", self.script)
    }
}

/// What `raftlab fuzz --json` prints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Report {
    pub campaign: Campaign,
    /// The part that ran; none for the whole campaign (or parts merged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    pub summary: Summary,
    pub reproducer: Option<Reproducer>,
}

impl Report {
    /// As `--json` prints it, ending with a line break.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    pub fn from_json(text: &str) -> Result<Report, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}
