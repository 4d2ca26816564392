//! `raftlab diff FILE [--etcd PATH --etcdctl PATH]...`: runs a scenario
//! script in the simulator and on real local etcd clusters (one per
//! release given), command by command, and prints one table: each line of
//! the script, raftlab's answer, each release's answer, and whether they
//! are the same. Exit status 0 when every line is the same or is a known
//! difference (`--known`, with its reason), 1 when a line differs or an
//! `expect` failed (the line is named), 2 when the script uses something
//! the driver cannot do on a real cluster (the line and why).
//!
//! Native only (layer 5): it starts etcd processes, runs etcdctl and, for
//! the network faults, sets up one network namespace per member
//! (`netns.rs`). The simulator side is the ordinary `Session`, run once
//! per release profile. `docs/real-etcd.md` says what is driven and how,
//! and what differs.

pub mod compare;
pub mod errors;
pub mod etcdctl;
pub mod known;
pub mod netns;
pub mod observe;
pub mod plan;
pub mod real;
pub mod sim;
pub mod table;

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::raft::NodeId;
use crate::scenario::{parse_script, Script};
use crate::server::Release;

use compare::Verdict;

/// The lowest port a cluster may use and the ports one cluster takes: ids 1
/// to 15 listen for clients at `base + id` and for peers at
/// `base + 20 + id`.
pub const PORTS_PER_CLUSTER: u16 = 40;

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

/// What `raftlab diff` was asked to do.
#[derive(Debug, Clone)]
pub struct DiffOptions {
    /// The script, as named on the command line (the known differences
    /// name it so).
    pub file: PathBuf,
    pub releases: Vec<Binaries>,
    /// The known-differences file (`None`: none).
    pub known: Option<PathBuf>,
    /// Show a condition the driver cannot observe on etcd (`expect commit>=`,
    /// `linearizable`...) as skipped instead of refusing the script.
    pub skip_undrivable: bool,
    /// The first port of the first release's cluster (`PORTS_PER_CLUSTER`
    /// each), and the number of its network namespaces' subnet.
    pub port_base: u16,
    /// Also write the comparison as JSON here (the suite reads it).
    pub json: Option<PathBuf>,
    /// Keep each cluster's data directories and logs under this folder
    /// (default: a temporary folder, removed at the end).
    pub keep: Option<PathBuf>,
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
    pub exit: i32,
}

/// Runs the comparison and prints the table; returns the exit status.
pub fn run(opts: &DiffOptions, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    match compare_script(opts, err) {
        Ok((outcome, known)) => {
            let name = opts.file.display().to_string();
            table::print(out, &outcome, &opts.releases);
            for w in known.unused(&name, &outcome) {
                let _ = writeln!(err, "{name}: {w}");
            }
            if let Some(path) = &opts.json {
                let text = serde_json::to_string_pretty(&outcome).unwrap_or_default();
                if let Err(e) = std::fs::write(path, text) {
                    let _ = writeln!(err, "raftlab diff: cannot write {}: {e}", path.display());
                }
            }
            outcome.exit
        }
        Err(status) => status,
    }
}

/// Runs the comparison: its outcome (and the known differences it read),
/// or, when it could not run, the exit status (2) after saying why on `err`.
pub fn compare_script(
    opts: &DiffOptions,
    err: &mut dyn Write,
) -> Result<(Outcome, known::Known), i32> {
    let name = opts.file.display().to_string();
    let source = match std::fs::read_to_string(&opts.file) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "raftlab diff: cannot read {name}: {e}");
            return Err(2);
        }
    };
    let script = match parse_script(&source) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "{name}: {e}");
            return Err(2);
        }
    };
    if opts.releases.is_empty() {
        let _ = writeln!(
            err,
            "raftlab diff: no etcd release to compare with (--etcd PATH)"
        );
        return Err(2);
    }
    let known = match &opts.known {
        Some(path) => match known::Known::load(path) {
            Ok(k) => k,
            Err(e) => {
                let _ = writeln!(err, "raftlab diff: {e}");
                return Err(2);
            }
        },
        None => known::Known::default(),
    };
    let plan = plan::Plan::of(&script, opts.skip_undrivable);
    if !plan.refused.is_empty() {
        for r in &plan.refused {
            let _ = writeln!(
                err,
                "{name}: line {}: {}: cannot drive this on a real etcd: {}",
                r.line, r.text, r.why
            );
        }
        return Err(2);
    }
    if plan.needs_network {
        if let Err(why) = netns::available() {
            let _ = writeln!(
                err,
                "{name}: line {}: {}: needs network namespaces, {why}",
                plan.network_line, plan.network_text
            );
            return Err(2);
        }
    }
    // Which releases run the script: one pinned to another minor does not.
    let mut runs = Vec::new();
    for (i, bins) in opts.releases.iter().enumerate() {
        match sim::profile_for(&script, bins) {
            Ok(profile) => runs.push((i, profile)),
            Err(why) => {
                let _ = writeln!(err, "{name}: skipping etcd {}: {why}", bins.version);
            }
        }
    }
    if runs.is_empty() {
        let _ = writeln!(err, "{name}: no release given can run this script");
        return Err(2);
    }
    // The simulator, once per profile; the script as each profile reads it
    // (its defaults are the release's) for the real cluster beside it.
    let mut simulated: Vec<Option<Vec<Answer>>> = vec![None; opts.releases.len()];
    let mut profiled: Vec<Option<Script>> = vec![None; opts.releases.len()];
    for &(i, profile) in &runs {
        match sim::script_for(&source, profile).and_then(|s| Ok((sim::run(&source, profile)?, s))) {
            Ok((answers, s)) => {
                simulated[i] = Some(answers);
                profiled[i] = Some(s);
            }
            Err(e) => {
                let _ = writeln!(
                    err,
                    "{name}: with etcd={profile} the script does not parse: {e}"
                );
                return Err(2);
            }
        }
    }
    // The real clusters, all at once.
    let scratch = match Scratch::new(opts.keep.as_deref(), opts.port_base) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "raftlab diff: {e}");
            return Err(2);
        }
    };
    let results: Vec<(usize, Result<Vec<Answer>, String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = runs
            .iter()
            .enumerate()
            .map(|(k, &(i, _))| {
                let bins = &opts.releases[i];
                let script = profiled[i].as_ref();
                let dir = scratch.path.join(format!("etcd-{}", bins.version));
                let base = opts
                    .port_base
                    .saturating_add(PORTS_PER_CLUSTER.saturating_mul(k as u16));
                s.spawn(move || match script {
                    Some(script) => (i, real::run(script, bins, &dir, base)),
                    None => (i, Err("no script".to_string())),
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| (usize::MAX, Err("the driver panicked".to_string())))
            })
            .collect()
    });
    let mut driven: Vec<Option<Vec<Answer>>> = vec![None; opts.releases.len()];
    for (i, r) in results {
        match r {
            Ok(answers) => {
                if let Some(slot) = driven.get_mut(i) {
                    *slot = Some(answers);
                }
            }
            Err(e) => {
                let version = opts.releases.get(i).map_or("?", |b| b.version.as_str());
                let _ = writeln!(err, "{name}: etcd {version}: {e}");
                return Err(2);
            }
        }
    }
    let outcome = compare::compare(&name, &script, &opts.releases, &simulated, &driven, &known);
    Ok((outcome, known))
}

/// The folder the clusters' data directories and logs go in: the one given
/// (kept), else a temporary one removed at the end.
struct Scratch {
    path: PathBuf,
    keep: bool,
}

impl Scratch {
    /// Named by the process and the first port, which no two comparisons
    /// running at once share.
    fn new(keep: Option<&Path>, port_base: u16) -> Result<Scratch, String> {
        let (path, keep) = match keep {
            Some(p) => (p.to_path_buf(), true),
            None => (
                std::env::temp_dir()
                    .join(format!("raftlab-diff-{}-{port_base}", std::process::id())),
                false,
            ),
        };
        std::fs::create_dir_all(&path)
            .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(Scratch { path, keep })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}
