//! The conformance runner: etcd-io/raft's own data-driven test files, read
//! in place and run against raftlab's Raft core, each directive's output
//! compared with etcd's line by line (etcd's log lines aside: raftlab
//! reports events, not logs).

pub mod confchange;
pub mod datadriven;
pub mod interaction;
pub mod quorum;

use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The files raftlab does not run, each with the etcd API it would need and
/// raftlab does not model. Nothing else is skipped.
pub const SKIPS: &[(&str, &str)] = &[
    (
        "testdata/async_storage_writes.txt",
        "needs Config.AsyncStorageWrites (MsgStorageAppend/MsgStorageApply to separate append \
         and apply threads); raftlab's node persists and applies synchronously, etcd's \
         Ready/Advance mode",
    ),
    (
        "testdata/async_storage_writes_append_aba_race.txt",
        "needs Config.AsyncStorageWrites (an append thread whose writes race with a new \
         term's); raftlab's node persists synchronously, etcd's Ready/Advance mode",
    ),
];

/// Where etcd-raft's files are: `RAFTLAB_ETCD_RAFT_TESTDATA` if set, else
/// the shared material beside the project.
pub fn data_dir() -> PathBuf {
    match std::env::var_os("RAFTLAB_ETCD_RAFT_TESTDATA") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/etcd-raft"),
    }
}

/// What happened to one file.
#[derive(Debug)]
pub enum FileOutcome {
    Passed { directives: usize },
    Failed { line: usize, what: String },
    Skipped { reason: &'static str },
}

/// The outcome of every file, by path relative to the data directory.
pub struct Report {
    pub files: Vec<(String, FileOutcome)>,
}

impl Report {
    fn count(&self, dir: &str, f: impl Fn(&FileOutcome) -> bool) -> usize {
        self.files
            .iter()
            .filter(|(p, o)| p.starts_with(dir) && f(o))
            .count()
    }

    pub fn passed(&self, dir: &str) -> usize {
        self.count(dir, |o| matches!(o, FileOutcome::Passed { .. }))
    }

    pub fn failed(&self, dir: &str) -> usize {
        self.count(dir, |o| matches!(o, FileOutcome::Failed { .. }))
    }

    pub fn total(&self, dir: &str) -> usize {
        self.count(dir, |_| true)
    }

    /// One line per file, then the totals.
    pub fn text(&self) -> String {
        let mut s = String::from("etcd-raft conformance: etcd-io/raft's data-driven test files\n");
        for (path, outcome) in &self.files {
            let _ = match outcome {
                FileOutcome::Passed { directives } => {
                    writeln!(s, "  passed   {path} ({directives} directives)")
                }
                FileOutcome::Skipped { reason } => writeln!(s, "  skipped  {path}: {reason}"),
                FileOutcome::Failed { line, what } => {
                    writeln!(s, "  FAILED   {path}:{line}: {what}")
                }
            };
        }
        let _ = writeln!(
            s,
            "passed {} of {} files ({} skipped, {} failed): quorum {}/{}, confchange {}/{}, \
             interaction {}/{}",
            self.passed(""),
            self.total(""),
            self.total("") - self.passed("") - self.failed(""),
            self.failed(""),
            self.passed("quorum/"),
            self.total("quorum/"),
            self.passed("confchange/"),
            self.total("confchange/"),
            self.passed("testdata/"),
            self.total("testdata/"),
        );
        s
    }
}

/// Runs every file of the three directories, in name order.
pub fn run_all(dir: &Path) -> Result<Report, String> {
    let mut files = Vec::new();
    for sub in ["quorum/testdata", "confchange/testdata", "testdata"] {
        let entries = std::fs::read_dir(dir.join(sub))
            .map_err(|e| format!("cannot read {}: {e}", dir.join(sub).display()))?;
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".txt"))
            .collect();
        names.sort();
        for name in names {
            let rel = format!("{sub}/{name}");
            let outcome = run_file(dir, &rel);
            files.push((rel, outcome));
        }
    }
    Ok(Report { files })
}

fn run_file(dir: &Path, rel: &str) -> FileOutcome {
    if let Some((_, reason)) = SKIPS.iter().find(|(p, _)| *p == rel) {
        return FileOutcome::Skipped { reason };
    }
    let text = match std::fs::read_to_string(dir.join(rel)) {
        Ok(t) => t,
        Err(e) => return failed(0, format!("cannot read: {e}")),
    };
    let directives = match datadriven::parse(&text) {
        Ok(d) => d,
        Err(e) => return failed(0, e),
    };
    let mut run = runner_for(rel);
    for d in &directives {
        let got = match run(d) {
            Ok(out) => out,
            Err(e) => return failed(d.line, format!("`{}` cannot run: {e}", d.cmd)),
        };
        let expected = datadriven::expected_without_logs(&d.expected);
        if let Some(diff) = first_difference(&expected, &got) {
            return failed(d.line, format!("`{}`: {diff}", d.cmd));
        }
    }
    FileOutcome::Passed {
        directives: directives.len(),
    }
}

fn failed(line: usize, what: String) -> FileOutcome {
    FileOutcome::Failed { line, what }
}

type Runner = Box<dyn FnMut(&datadriven::Directive) -> Result<String, String>>;

/// The harness a file needs, fresh for each file as in etcd's tests.
fn runner_for(rel: &str) -> Runner {
    if rel.starts_with("quorum/") {
        Box::new(quorum::run)
    } else if rel.starts_with("confchange/") {
        let mut env = confchange::Env::new();
        Box::new(move |d| env.run(d))
    } else {
        let mut env = interaction::Env::new();
        Box::new(move |d| env.run(d))
    }
}

/// The first line where `got` differs from `expected`, both shown.
fn first_difference(expected: &str, got: &str) -> Option<String> {
    if expected == got {
        return None;
    }
    let (e, g): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), got.lines().collect());
    let n = (0..e.len().max(g.len()))
        .find(|&i| e.get(i) != g.get(i))
        .unwrap_or(0);
    let show = |l: Option<&&str>| l.map_or("<end of output>".to_string(), |l| format!("{l:?}"));
    Some(format!(
        "output line {}: expected {}, got {}",
        n + 1,
        show(e.get(n)),
        show(g.get(n))
    ))
}
