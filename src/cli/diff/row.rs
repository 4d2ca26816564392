//! What a comparison is made of: the releases compared ([`Binaries`]),
//! each side's answer to a line ([`Answer`]), the line compared ([`Row`]) and
//! its [`Verdict`], and the whole comparison ([`Outcome`]).

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::raft::NodeId;
use crate::server::Release;

/// One etcd release to compare with: its two binaries and what they say
/// they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binaries {
    pub etcd: PathBuf,
    pub etcdctl: PathBuf,
    /// `3.4.23`, as `etcd --version` prints it.
    pub version: String,
    /// The release profile raftlab runs the script with beside it.
    pub release: Release,
}

impl Binaries {
    /// Asks both binaries their version. The profile is the release's own
    /// when raftlab models that patch (`3.4.23`, `3.5.1`), else its minor's.
    pub fn probe(etcd: &Path, etcdctl: &Path) -> Result<Binaries, String> {
        let version = etcd_version(etcd)?;
        let ctl = etcdctl_version(etcdctl)?;
        if ctl != version {
            return Err(format!(
                "{} is etcd {version} but {} is etcdctl {ctl}: give the etcdctl of the same release",
                etcd.display(),
                etcdctl.display()
            ));
        }
        let release = Release::for_version(&version).ok_or_else(|| {
            format!(
                "{} is etcd {version}, a release raftlab does not model (3.4, 3.5 or 3.6)",
                etcd.display()
            )
        })?;
        Ok(Binaries {
            etcd: etcd.to_path_buf(),
            etcdctl: etcdctl.to_path_buf(),
            version,
            release,
        })
    }
}

fn first_line_of(bin: &Path, args: &[&str]) -> Result<String, String> {
    let out = std::process::Command::new(bin)
        .args(args)
        .env("ETCDCTL_API", "3")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    Ok(String::from_utf8_lossy(&out.stdout).to_string())
}

/// `etcd --version`'s first line: `etcd Version: 3.4.23`.
fn etcd_version(bin: &Path) -> Result<String, String> {
    let text = first_line_of(bin, &["--version"])?;
    text.lines()
        .find_map(|l| l.strip_prefix("etcd Version: "))
        .map(|v| v.trim().to_string())
        .ok_or_else(|| format!("{} --version does not say an etcd version", bin.display()))
}

/// `etcdctl version`'s first line: `etcdctl version: 3.4.23`.
fn etcdctl_version(bin: &Path) -> Result<String, String> {
    let text = first_line_of(bin, &["version"])?;
    text.lines()
        .find_map(|l| l.strip_prefix("etcdctl version: "))
        .map(|v| v.trim().to_string())
        .ok_or_else(|| format!("{} version does not say an etcdctl version", bin.display()))
}

/// What one side answered to one line of the script.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Answer {
    /// The command succeeded; an `expect` held; a `wait-until` held in time.
    pub ok: bool,
    /// raftlab's error code when it failed (etcd's text is mapped by
    /// `errors::code_of`; a text no code stands for is kept whole).
    pub code: Option<String>,
    /// What it said, for the table: etcd's own text for its errors.
    pub text: String,
    /// A `get`: the value read (`None`: no such key).
    pub value: Option<Option<String>>,
    /// A `member list`: each member as (id, learner, started), by id; a
    /// member the driver cannot name has id 0.
    pub members: Option<Vec<(NodeId, bool, bool)>>,
    /// A `status via=N`: the leader N knows and whether N is a learner.
    pub status: Option<(Option<NodeId>, bool)>,
    /// How long the command took: simulated or wall-clock milliseconds.
    pub ms: u64,
}

impl Answer {
    pub fn ok(text: impl Into<String>, ms: u64) -> Answer {
        Answer {
            ok: true,
            text: text.into(),
            ms,
            ..Answer::default()
        }
    }

    pub fn failed(code: impl Into<String>, text: impl Into<String>, ms: u64) -> Answer {
        Answer {
            ok: false,
            code: Some(code.into()),
            text: text.into(),
            ms,
            ..Answer::default()
        }
    }
}

/// One line of the script, compared.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub line: usize,
    pub command: String,
    /// raftlab's answer under each release's profile (same order as the
    /// releases).
    pub raftlab: Vec<Option<Answer>>,
    /// Each release's answer (`None`: the release did not run this line).
    pub etcd: Vec<Option<Answer>>,
    pub verdict: Verdict,
}

/// The whole comparison, as `--json` writes it.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub file: String,
    pub releases: Vec<String>,
    pub rows: Vec<Row>,
    /// Every `expect` line was driven on every release and held there.
    pub all_checks_passed: bool,
    /// The releases (of `releases`) on which every `expect` line was driven
    /// and held.
    pub checks_held_on: Vec<String>,
    pub exit: i32,
}

/// A line's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", content = "why", rename_all = "kebab-case")]
pub enum Verdict {
    Same,
    /// Shown, not run or not judged (narration, a condition skipped).
    Skipped,
    /// Different, and listed in the known differences: their reason.
    Known(String),
    /// Different: what differs.
    Differs(String),
    /// An `expect` that did not hold (on some side): where.
    ExpectFailed(String),
    /// An `expect` that holds neither in raftlab nor on etcd, alike (the
    /// script's claim is not true of that release): where. A failure of
    /// the script, not a difference.
    FailsAlike(String),
}
