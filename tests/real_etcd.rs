//! The real-etcd suite: every scenario of `tests/real_etcd/` and every lesson,
//! run in the simulator and on real local etcd clusters of each release
//! given, compared line by line by `raftlab diff` (`src/cli/diff/`).
//!
//! `make test` runs it (`tools/test.sh`, after installing etcd 3.4.23 and
//! 3.5.1 once: `tools/lib.sh` `ensure_etcd`), with the releases in
//! `RAFTLAB_REAL_ETCD`: `ETCD,ETCDCTL` pairs separated by `;`. Without it,
//! as in a plain `cargo test`, it runs nothing and says so in one line.
//!
//! A scenario passes when every line is the same as raftlab's or a known
//! difference (`tests/real_etcd/known-differences.txt`, each with its
//! reason). A lesson passes unless a line it can drive differs; a lesson
//! that uses something a real cluster cannot do (a second cluster, the
//! design document's proposals, a hand on single messages) is counted as
//! not drivable, and its conditions etcd does not show are skipped. Without
//! root, what needs network namespaces (a cut, a partition) is skipped with
//! one line. Real clusters share a machine: a scenario that fails is run
//! once more before it counts as failed.
//!
//! At the end it writes `lessons/checked-against-etcd.txt`: the lessons
//! whose every check (`expect`) ran and held on every release. The build
//! embeds that file, and the page says so in each such lesson's header.
//!
//! Its own harness (`harness = false`), so it prints cargo's summary line
//! (`test result: ok. N passed; M failed`), which `tools/test.sh` counts.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    suite::main();
}

/// Native only: the page's module has no processes to start.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod suite {
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Condvar, Mutex};
    use std::time::Instant;

    use raftlab::cli::diff::{self, Binaries, DiffOptions, Outcome};

    /// Scenarios run at once (each with one cluster per release).
    const DEFAULT_JOBS: usize = 4;
    /// The first port: each job owns `2 * PORTS_PER_CLUSTER` ports from
    /// `FIRST_PORT + job * 2 * PORTS_PER_CLUSTER`.
    const FIRST_PORT: u16 = 21000;

    fn releases() -> Result<Option<Vec<Binaries>>, String> {
        let Ok(spec) = std::env::var("RAFTLAB_REAL_ETCD") else {
            return Ok(None);
        };
        let mut out = Vec::new();
        for pair in spec.split(';').filter(|p| !p.trim().is_empty()) {
            let (etcd, ctl) = pair.split_once(',').ok_or_else(|| {
                format!("RAFTLAB_REAL_ETCD: expected ETCD,ETCDCTL, found {pair:?}")
            })?;
            out.push(Binaries::probe(
                Path::new(etcd.trim()),
                Path::new(ctl.trim()),
            )?);
        }
        Ok(Some(out))
    }

    /// What one script came to.
    enum Result_ {
        /// No line differs (a lesson's claim may fail alike on both sides:
        /// `alike` names those lines).
        Passed {
            outcome: Outcome,
            retried: usize,
            alike: Vec<usize>,
        },
        Failed {
            table: String,
        },
        NotDrivable(String),
        Skipped(String),
    }

    fn scripts(root: &Path) -> Vec<PathBuf> {
        let mut all = Vec::new();
        for dir in ["tests/real_etcd", "lessons"] {
            if let Ok(entries) = std::fs::read_dir(root.join(dir)) {
                let mut files: Vec<PathBuf> = entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "scenario"))
                    .collect();
                files.sort();
                all.extend(files);
            }
        }
        all
    }

    /// The temporary folder's free space, shared by the jobs: a scenario
    /// starts when what its clusters need (`diff::disk::needed`: etcd
    /// allocates each member's log 64 MB at a time) is free, so a small disk
    /// runs fewer at once instead of failing them all with a full disk. A
    /// scenario that needs more than is free runs alone, and `raftlab diff`
    /// refuses it with what it needs.
    struct DiskBudget {
        state: Mutex<Budget>,
        changed: Condvar,
    }

    struct Budget {
        free: u64,
        running: usize,
    }

    struct Reserved<'a> {
        budget: &'a DiskBudget,
        bytes: u64,
    }

    impl DiskBudget {
        fn new(free: u64) -> DiskBudget {
            DiskBudget {
                state: Mutex::new(Budget { free, running: 0 }),
                changed: Condvar::new(),
            }
        }

        fn take(&self, bytes: u64) -> Reserved<'_> {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            while state.free < bytes && state.running > 0 {
                state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
            }
            state.free = state.free.saturating_sub(bytes);
            state.running += 1;
            Reserved {
                budget: self,
                bytes,
            }
        }
    }

    impl Drop for Reserved<'_> {
        fn drop(&mut self) {
            let mut state = self.budget.state.lock().unwrap_or_else(|e| e.into_inner());
            state.free += self.bytes;
            state.running -= 1;
            self.budget.changed.notify_all();
        }
    }

    fn run_one(
        root: &Path,
        path: &Path,
        releases: &[Binaries],
        port_base: u16,
        root_user: bool,
        disk: &DiskBudget,
    ) -> Result_ {
        let lesson = path.starts_with(root.join("lessons"));
        let rel = path.strip_prefix(root).unwrap_or(path).to_path_buf();
        let source = std::fs::read_to_string(path).unwrap_or_default();
        let Ok(script) = raftlab::lang::parse::parse_script(&source) else {
            return Result_::Failed {
                table: format!("{}: does not parse", rel.display()),
            };
        };
        let plan = diff::plan::Plan::of(&script, lesson);
        if let Some(r) = plan.refused.first() {
            let why = format!("line {}: {}: {}", r.line, r.text, r.why);
            return if lesson {
                Result_::NotDrivable(why)
            } else {
                Result_::Failed { table: why }
            };
        }
        if plan.needs_network && !root_user {
            return Result_::Skipped(format!(
                "line {}: {} needs root (a network namespace per member)",
                plan.network_line, plan.network_text
            ));
        }
        let _reserved = disk.take(diff::disk::needed(&script, releases.len()));
        let opts = DiffOptions {
            file: rel.clone(),
            releases: releases.to_vec(),
            known: Some(root.join("tests/real_etcd/known-differences.txt")),
            skip_undrivable: lesson,
            port_base,
            json: None,
            keep: None,
        };
        let mut last_table = String::new();
        // A timing difference on a loaded machine (etcdctl started late, a
        // slow fsync) does not come back three times; a real one does.
        for attempt in 0..3 {
            let mut err = Vec::new();
            match diff::compare_script(&opts, &mut err) {
                // A lesson's claim that fails alike in raftlab and on etcd is no
                // difference: the lesson is about another release.
                Ok((outcome, _))
                    if outcome.exit == 0
                        || (lesson && !outcome.rows.iter().any(|r| r.verdict.differs())) =>
                {
                    let alike = outcome
                        .rows
                        .iter()
                        .filter(|r| r.verdict.fails())
                        .map(|r| r.line)
                        .collect();
                    return Result_::Passed {
                        outcome,
                        retried: attempt,
                        alike,
                    };
                }
                Ok((outcome, _)) => {
                    let mut out = Vec::new();
                    diff::table::print(&mut out, &outcome, releases);
                    last_table = String::from_utf8_lossy(&out).to_string();
                }
                Err(_) => {
                    last_table = String::from_utf8_lossy(&err).to_string();
                }
            }
        }
        Result_::Failed { table: last_table }
    }

    pub fn main() {
        let started = Instant::now();
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let releases = match releases() {
            Ok(Some(r)) if !r.is_empty() => r,
            Ok(_) => {
                println!("real-etcd suite: not run (set RAFTLAB_REAL_ETCD to ETCD,ETCDCTL pairs; make test does)");
                println!(
                    "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out"
                );
                return;
            }
            Err(e) => {
                println!("real-etcd suite: {e}");
                println!(
                    "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out"
                );
                std::process::exit(1);
            }
        };
        let root_user = diff::netns::available().is_ok();
        if !root_user {
            println!("real-etcd suite: not root: the scenarios with network faults are skipped");
        }
        let versions: Vec<String> = releases.iter().map(|b| b.version.clone()).collect();
        println!("real-etcd suite against etcd {}", versions.join(" and "));
        let jobs: usize = std::env::var("RAFTLAB_REAL_ETCD_JOBS")
            .ok()
            .and_then(|j| j.parse().ok())
            .unwrap_or(DEFAULT_JOBS)
            .clamp(1, 12);
        let all = scripts(&root);
        // What is free less a margin for the logs and the report.
        let tmp = std::env::temp_dir();
        let free = diff::disk::free(&tmp).unwrap_or(u64::MAX);
        let disk = DiskBudget::new(free.saturating_sub(256 << 20));
        if free < u64::MAX {
            println!(
                "{} MB free in {} for the clusters' data directories",
                diff::disk::mb(free),
                tmp.display()
            );
        }
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<(PathBuf, Result_, f64)>> = Mutex::new(Vec::new());
        let per_job = diff::PORTS_PER_CLUSTER * releases.len() as u16;
        std::thread::scope(|s| {
            for job in 0..jobs {
                let (all, next, results, releases, root, disk) =
                    (&all, &next, &results, &releases, &root, &disk);
                s.spawn(move || loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(path) = all.get(i) else { break };
                    let t = Instant::now();
                    let base = FIRST_PORT + per_job * job as u16;
                    let r = run_one(root, path, releases, base, root_user, disk);
                    let secs = t.elapsed().as_secs_f64();
                    let name = path
                        .strip_prefix(root)
                        .unwrap_or(path)
                        .display()
                        .to_string();
                    match &r {
                        Result_::Passed { retried, alike, outcome } => {
                            let again = match retried {
                                0 => String::new(),
                                n => format!(", on run {}", n + 1),
                            };
                            let note = if alike.is_empty() {
                                String::new()
                            } else {
                                let failed_on: Vec<&str> = outcome
                                    .releases
                                    .iter()
                                    .filter(|r| !outcome.checks_held_on.contains(r))
                                    .map(String::as_str)
                                    .collect();
                                format!(
                                    "; its claims at lines {alike:?} do not hold on etcd {}, alike in raftlab",
                                    failed_on.join(" and ")
                                )
                            };
                            println!("ok      {name} ({secs:.1}s{again}{note})");
                        }
                        Result_::Failed { .. } => println!("FAILED  {name} ({secs:.1}s)"),
                        Result_::NotDrivable(why) => println!("-       {name}: not drivable: {why}"),
                        Result_::Skipped(why) => println!("skipped {name}: {why}"),
                    }
                    if let Ok(mut all) = results.lock() {
                        all.push((path.clone(), r, secs));
                    }
                });
            }
        });
        let mut results = results.into_inner().unwrap_or_default();
        results.sort_by(|a, b| a.0.cmp(&b.0));
        let (mut passed, mut failed, mut ignored) = (0, 0, 0);
        let mut checked = Vec::new();
        for (path, r, _) in &results {
            match r {
                Result_::Passed { outcome, .. } => {
                    passed += 1;
                    let lesson = path.starts_with(root.join("lessons"));
                    // With the releases on which every check held: a lesson
                    // written for pre-vote holds on 3.5 on, not on 3.4.
                    if lesson && !outcome.checks_held_on.is_empty() {
                        if let Some(stem) = path.file_stem() {
                            checked.push(format!(
                                "{} {}",
                                stem.to_string_lossy(),
                                outcome.checks_held_on.join(" ")
                            ));
                        }
                    }
                }
                Result_::Failed { table } => {
                    failed += 1;
                    println!("\n---- {} ----\n{table}", path.display());
                }
                Result_::NotDrivable(_) | Result_::Skipped(_) => ignored += 1,
            }
        }
        // The lessons checked, for the page (only from a whole run: every
        // scenario driven, none skipped for want of root).
        if root_user {
            let mut text = String::from(
                "# Written by the real-etcd suite (tests/real_etcd.rs): each lesson whose every\n\
                 # check ran and held on real etcd, with the releases it held on (raftlab diff,\n\
                 # beside the same release profile). The build embeds it; do not edit it by hand.\n",
            );
            for c in &checked {
                text.push_str(c);
                text.push('\n');
            }
            let path = root.join("lessons/checked-against-etcd.txt");
            if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                if let Err(e) = std::fs::write(&path, &text) {
                    println!("cannot write {}: {e}", path.display());
                } else {
                    println!("wrote {}", path.display());
                }
            }
        }
        println!(
            "\nreal-etcd suite: {passed} passed, {failed} failed, {ignored} not drivable or skipped, in {:.0}s",
            started.elapsed().as_secs_f64()
        );
        let word = if failed == 0 { "ok" } else { "FAILED" };
        println!(
            "test result: {word}. {passed} passed; {failed} failed; {ignored} ignored; 0 measured; 0 filtered out"
        );
        if failed > 0 {
            std::process::exit(1);
        }
    }
}
