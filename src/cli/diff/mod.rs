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
pub mod disk;
pub mod errors;
pub mod etcdctl;
pub mod gateway;
pub mod known;
pub mod load;
pub mod netns;
pub mod observe;
pub mod plan;
pub mod real;
pub mod row;
pub mod sim;
pub mod table;

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::lang::ast::Script;
use crate::lang::parse::parse_script;
use crate::server::Release;

pub use row::{Answer, Binaries, Outcome, Row, Verdict};

/// The lowest port a cluster may use and the ports one cluster takes: ids 1
/// to 15 listen for clients at `base + id` and for peers at
/// `base + 20 + id`.
pub const PORTS_PER_CLUSTER: u16 = 40;

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
    let said = |err: &mut dyn Write, why: String| {
        let _ = writeln!(err, "{why}");
        2
    };
    let (source, script, known) = read_inputs(opts, &name).map_err(|why| said(err, why))?;
    check_plan(&script, opts, &name).map_err(|why| said(err, why))?;
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
        return Err(said(
            err,
            format!("{name}: no release given can run this script"),
        ));
    }
    let (simulated, profiled) =
        simulate(&source, &runs, opts.releases.len(), &name).map_err(|why| said(err, why))?;
    let driven = drive(opts, &runs, &profiled, &name).map_err(|why| said(err, why))?;
    let outcome = compare::compare(&name, &script, &opts.releases, &simulated, &driven, &known);
    Ok((outcome, known))
}

/// The script's text and syntax, and the known differences: what the
/// command line names, read and checked before anything runs.
fn read_inputs(opts: &DiffOptions, name: &str) -> Result<(String, Script, known::Known), String> {
    let source =
        crate::cli::read_script(&opts.file, false).map_err(|e| format!("raftlab diff: {e}"))?;
    let script = parse_script(&source).map_err(|e| format!("{name}: {e}"))?;
    if opts.releases.is_empty() {
        return Err("raftlab diff: no etcd release to compare with (--etcd PATH)".to_string());
    }
    let known = match &opts.known {
        Some(path) => known::Known::load(path).map_err(|e| format!("raftlab diff: {e}"))?,
        None => known::Known::default(),
    };
    Ok((source, script, known))
}

/// Every command can be driven on a real etcd, and the network faults it
/// needs can be made here.
fn check_plan(script: &Script, opts: &DiffOptions, name: &str) -> Result<(), String> {
    let plan = plan::Plan::of(script, opts.skip_undrivable);
    if !plan.refused.is_empty() {
        let lines: Vec<String> = plan
            .refused
            .iter()
            .map(|r| {
                format!(
                    "{name}: line {}: {}: cannot drive this on a real etcd: {}",
                    r.line, r.text, r.why
                )
            })
            .collect();
        return Err(lines.join("\n"));
    }
    if plan.needs_network {
        if let Err(why) = netns::available() {
            return Err(format!(
                "{name}: line {}: {}: needs network namespaces, {why}",
                plan.network_line, plan.network_text
            ));
        }
    }
    Ok(())
}

/// A script's answers from one release's run.
type Answers = Vec<Option<Vec<Answer>>>;

/// The simulator, once per profile; the script as each profile reads it
/// (its defaults are the release's) for the real cluster beside it.
fn simulate(
    source: &str,
    runs: &[(usize, Release)],
    releases: usize,
    name: &str,
) -> Result<(Answers, Vec<Option<Script>>), String> {
    let mut simulated: Answers = vec![None; releases];
    let mut profiled: Vec<Option<Script>> = vec![None; releases];
    for &(i, profile) in runs {
        let (answers, s) = sim::script_for(source, profile)
            .and_then(|s| Ok((sim::run(source, profile)?, s)))
            .map_err(|e| format!("{name}: with etcd={profile} the script does not parse: {e}"))?;
        simulated[i] = Some(answers);
        profiled[i] = Some(s);
    }
    Ok((simulated, profiled))
}

/// The real clusters, all at once, one thread each.
fn drive(
    opts: &DiffOptions,
    runs: &[(usize, Release)],
    profiled: &[Option<Script>],
    name: &str,
) -> Result<Answers, String> {
    let scratch = Scratch::new(opts.keep.as_deref(), opts.port_base)
        .map_err(|e| format!("raftlab diff: {e}"))?;
    if let Some(script) = profiled.iter().flatten().next() {
        disk::check(&scratch.path, script, runs.len()).map_err(|e| format!("{name}: {e}"))?;
    }
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
    let mut driven: Answers = vec![None; opts.releases.len()];
    for (i, r) in results {
        match r {
            Ok(answers) => {
                if let Some(slot) = driven.get_mut(i) {
                    *slot = Some(answers);
                }
            }
            Err(e) => {
                let version = opts.releases.get(i).map_or("?", |b| b.version.as_str());
                return Err(format!("{name}: etcd {version}: {e}"));
            }
        }
    }
    Ok(driven)
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
