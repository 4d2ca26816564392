//! Long runs: commands in slices (the same run as in one go), progress,
//! cancel, the memory budget, and `raftlab run --max-wall` / `--max-memory`.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use raftlab::lang::parse::parse_script;
use raftlab::session::exec::Session;
use raftlab::session::narrate::Line;
use raftlab::session::stop::StopReason;
use raftlab::words::renderer::Renderer;
use raftlab::words::text_en::English;

/// The script: 15 voters under 10,000 writes of 1MB a second for
/// three simulated hours.
const HEAVY: &str = "cluster voters=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
load rate=10000/s size=1MB
wait 3600s
wait 3600s
wait 3600s
";

/// A leader cut off from everyone, with check-quorum off, keeps leading and
/// appends every write it takes to a log that never commits: its memory
/// grows as fast as the load writes.
const HOSTILE: &str = "cluster voters=1,2,3 check-quorum=off seed=3
campaign 1
wait-until leader=1 within=5s
isolate 1
load rate=10000/s via=1
wait 3600s
";

/// Runs `src` in slices of `work`, returning the session and everything it
/// narrated.
fn sliced(src: &str, work: u64) -> (Session, Vec<Line>) {
    let script = parse_script(src).unwrap();
    let mut s = Session::queued(&script);
    let mut narration = s.take_narration();
    let mut slices = 0;
    while s.is_running() {
        s.run_slice(work);
        narration.extend(s.take_narration());
        slices += 1;
    }
    assert!(slices > 0);
    (s, narration)
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
}

#[test]
fn a_run_in_slices_is_the_run_in_one_go() {
    for file in [
        "tests/golden/determinism.scenario",
        "tests/scenarios/promotion.scenario",
        "tests/scenarios/no_leader_and_timeouts.scenario",
        "tests/scenarios/joint_change.scenario",
        "lessons/01-new-member-overloads-leader.scenario",
    ] {
        let src = read(file);
        let mut whole = Session::from_script(&src).unwrap();
        let narration = whole.take_narration();
        for work in [1, 97, 5000] {
            let (s, said) = sliced(&src, work);
            assert_eq!(
                s.report_json(),
                whole.report_json(),
                "{file} in slices of {work}"
            );
            assert_eq!(s.history(), whole.history(), "{file} in slices of {work}");
            assert_eq!(said, narration, "{file} in slices of {work}");
            assert_eq!(s.work(), whole.work(), "{file} in slices of {work}");
        }
    }
}

#[test]
fn progress_counts_simulated_time_and_commands() {
    let script = parse_script("cluster voters=1,2,3\nwait 10s\nput a 1\nwait 10s\n").unwrap();
    let mut s = Session::queued(&script);
    let p = s.progress();
    assert!(p.running);
    assert_eq!((p.done_ms, p.total_ms), (0, 20_000));
    assert_eq!((p.commands_done, p.commands_total), (0, 3));
    let mut last = p;
    let mut seen_inside = false;
    while s.is_running() {
        let p = s.run_slice(50);
        assert!(p.done_ms >= last.done_ms && p.commands_done >= last.commands_done);
        seen_inside |= p.running && p.done_ms > 0 && p.done_ms < 10_000;
        last = p;
    }
    assert!(
        seen_inside,
        "a slice of 50 steps ends inside the first wait"
    );
    assert!(!last.running);
    assert_eq!(last.commands_done, 3);
    // The put took some time: the total grew by it.
    assert_eq!(last.done_ms, last.total_ms);
    assert!(last.total_ms > 20_000, "{last:?}");
}

#[test]
fn cancel_in_a_wait_leaves_the_run_as_if_the_script_ended_before_it() {
    let head = "cluster voters=1,2,3 seed=7
put a 1
load rate=200/s
wait 5s
put b 2
";
    let src = format!("{head}wait 60s\nput c 3\n");
    let script = parse_script(&src).unwrap();
    let mut s = Session::queued(&script);
    // Into the 60-second wait.
    while s.progress().commands_done < 4 || s.now() < 8_000 {
        assert!(s.run_slice(300).running);
    }
    let stop = s.cancel().cloned().expect("a run was going on");
    assert_eq!(stop.reason, "cancelled");
    assert_eq!(stop.line, Some(6));
    assert_eq!(stop.command.as_deref(), Some("wait 60s"));
    assert_eq!(stop.commands_left, 2);
    assert!(stop.reached_ms >= 8_000);
    assert!(!s.is_running());
    let last = s.take_narration().pop().unwrap();
    assert!(English.trace(&last).contains("cancelled at line 6"));

    // The same as the script without its last two lines.
    let prefix = Session::from_script(head).unwrap();
    assert_eq!(stop.time_ms, prefix.now());
    let mut report = s.report_json();
    assert_eq!(report["stopped"]["reason"], "cancelled");
    report.as_object_mut().unwrap().remove("stopped");
    assert_eq!(report, prefix.report_json());
    assert_eq!(s.history(), prefix.history());

    // And usable: the console goes on from there.
    assert!(s.cancel().is_none(), "nothing left to cancel");
    let r = s.command("put d 4").unwrap();
    assert!(r.ok, "{r:?}");
    let r = s.command("get b").unwrap();
    assert_eq!(r.value, Some(Some("2".to_string())));
    assert!(s.passed());
}

#[test]
fn a_run_past_its_memory_budget_stops_with_a_message() {
    let budget = 8 << 20;
    let script = parse_script(HOSTILE).unwrap();
    let mut s = Session::queued(&script);
    s.set_memory_budget(Some(budget));
    let started = Instant::now();
    while s.is_running() {
        s.run_slice(10_000);
        assert!(started.elapsed() < Duration::from_secs(60), "never stopped");
    }
    let stop = s.stopped().cloned().expect("the budget stopped it");
    assert_eq!(stop.reason, "memory");
    assert_eq!(stop.line, Some(6));
    assert!(stop.counted_bytes.unwrap() > budget);
    assert_eq!(stop.budget_bytes, Some(budget));
    assert!(stop.reached_ms > stop.time_ms);
    assert!(
        stop.message.contains("memory budget of 8.0 MB"),
        "{}",
        stop.message
    );
    // Back at the end of `load rate=...`, holding far less.
    assert_eq!(s.results().len(), 4);
    assert!(s.memory_bytes() < budget / 2, "{}", s.memory_bytes());
    assert_eq!(s.report_json()["stopped"]["reason"], "memory");

    // A console command past the budget is refused whole; one within it runs.
    let (results, now) = (s.results().len(), s.now());
    let r = s.command("wait 3600s").unwrap();
    assert_eq!(r.error, Some("stopped"));
    assert!(r.detail.unwrap().contains("at line 7 (`wait 3600s`)"));
    assert_eq!((s.results().len(), s.now()), (results, now));
    assert_eq!(s.stopped().unwrap().line, Some(7));
    assert!(s.command("load stop").unwrap().ok);
    assert!(s.command("wait 10s").unwrap().ok);
}

#[test]
fn memory_is_counted_and_shared_payloads_count_once() {
    let mut s = Session::from_script("cluster voters=1,2,3\nwait 2s\n").unwrap();
    let small = s.memory_bytes();
    assert!(small > 10_000 && small < 1_000_000, "{small}");
    s.command("load rate=1000/s").unwrap();
    s.command("wait 4s").unwrap();
    // The applied MVCC store keeps every revision until a `compaction`
    // (etcd's, without auto-compaction): compact it before each measure.
    let compact = |s: &mut Session| {
        let rev = s.command("get load/0").unwrap().revision.unwrap();
        let r = s.command(&format!("compaction {rev}")).unwrap();
        assert!(r.ok, "{r:?}");
    };
    compact(&mut s);
    let loaded = s.memory_bytes();
    assert!(loaded > small, "{small} then {loaded}");
    // Logs are compacted as etcd's are, and the store was: more of the same
    // load holds about the same (each log keeps catchup-entries, 5,000,
    // after a snapshot).
    s.command("wait 8s").unwrap();
    compact(&mut s);
    let later = s.memory_bytes();
    assert!(later < loaded * 2, "{loaded} then {later}");
}

fn run_bin(args: &[&str], stdin: &str) -> (i32, String, String, Duration) {
    use std::io::Write;
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_raftlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command line refused before reading its input closes the pipe.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        started.elapsed(),
    )
}

#[test]
fn max_wall_stops_the_run_with_status_3_and_one_line() {
    let (code, out, err, took) = run_bin(&["run", "--json", "--max-wall=300ms", "-"], HEAVY);
    assert_eq!(code, 3, "{err}");
    assert!(took < Duration::from_secs(20), "{took:?}");
    // One line, no progress bar (standard error is a pipe).
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("raftlab run: -: stopped at line 3 (`wait 3600s`)"),
        "{err}"
    );
    assert!(err.contains("wall-clock limit of 300ms"), "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["stopped"]["reason"], "max-wall");
    assert_eq!(report["stopped"]["max_wall_ms"], 300);
    assert_eq!(report["stopped"]["line"], 3);
    assert_eq!(report["stopped"]["commands_left"], 3);
    assert_eq!(report["time_ms"], 0);
    assert_eq!(report["results"].as_array().unwrap().len(), 1);

    // The trace ends with the stop and the summary.
    let (code, out, err, _) = run_bin(&["run", "--max-wall=0.3s", "-"], HEAVY);
    assert_eq!(code, 3);
    assert_eq!(err.lines().count(), 1, "{err}");
    let last: Vec<&str> = out.lines().rev().take(2).collect();
    assert!(last[0].starts_with("1 commands, 0 failed"), "{out}");
    assert!(last[1].contains("stopped at line 3"), "{out}");
}

#[test]
fn max_memory_stops_the_run_with_status_3() {
    let (code, out, err, _) = run_bin(&["run", "--json", "--max-memory=8MB", "-"], HOSTILE);
    assert_eq!(code, 3, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("memory budget of 8.0 MB"), "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["stopped"]["reason"], "memory");
    assert_eq!(report["results"].as_array().unwrap().len(), 4);
}

#[test]
fn bad_limits_are_refused_by_the_command_line() {
    for args in [
        ["run", "--max-wall=30", "-"],
        ["run", "--max-wall=0s", "-"],
        ["run", "--max-memory=12", "-"],
        ["run", "--max-memory=0MB", "-"],
    ] {
        let (code, _, err, _) = run_bin(&args, "cluster voters=1\n");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("--max-"), "{args:?}: {err}");
    }
    // A run that finishes in time is not stopped, and says nothing more.
    let (code, out, err, _) = run_bin(
        &["run", "--json", "--max-wall=1h", "--max-memory=none", "-"],
        "cluster voters=1,2,3\nwait 2s\nexpect leader\n",
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(report.get("stopped").is_none());
}

#[test]
fn stop_reasons_have_names() {
    assert_eq!(StopReason::Cancelled.name(), "cancelled");
    assert_eq!(StopReason::MaxWall { limit_ms: 1 }.name(), "max-wall");
    let m = StopReason::Memory {
        budget: 1,
        counted: 2,
    };
    assert_eq!(m.name(), "memory");
}

#[test]
fn a_timeline_counts_what_its_checkpoints_share_once() {
    use raftlab::session::timeline::Timeline;
    let src = "cluster voters=1,2,3\nload rate=50/s\nwait 60s\n";
    let t = Timeline::from_script(src).unwrap();
    let checkpoints = t.checkpoint_times().len() as u64;
    assert!(checkpoints >= 20, "{checkpoints}");
    let alone = Session::from_script(src).unwrap().memory_bytes();
    let total = t.memory_bytes();
    assert!(total > alone, "{total} <= {alone}");
    // Checkpoints share their logs' chunks: far less than a full session each.
    assert!(
        total < alone * checkpoints / 4,
        "{total} vs {checkpoints} x {alone}"
    );
    // The session's budget counts the checkpoints with it.
    assert!(t.session().memory_bytes() < total);
}

#[test]
fn cancel_inside_any_waiting_command_is_the_script_cut_before_it() {
    let lines = [
        "cluster voters=1,2,3 seed=2",
        "wait-until leader",
        "put a 1",
        "get a",
        "wait 6s",
        "member add 4 --learner",
        "transfer-leader 3",
    ];
    let src = lines.join("\n");
    let script = parse_script(&src).unwrap();
    for k in [0, 1, 2, 4, 5] {
        let mut s = Session::queued(&script);
        let mut inside = 0;
        while inside < 3 {
            let p = s.run_slice(2);
            assert!(p.running, "command {k} ended before it could be cut");
            if p.commands_done == k {
                inside += 1;
            }
        }
        let stop = s.cancel().cloned().unwrap();
        assert_eq!(stop.command.as_deref(), Some(lines[k + 1]), "cut {k}");
        let prefix = Session::from_script(&lines[..k + 1].join("\n")).unwrap();
        let mut report = s.report_json();
        report.as_object_mut().unwrap().remove("stopped");
        assert_eq!(report, prefix.report_json(), "cut in {}", lines[k + 1]);
        assert_eq!(s.history(), prefix.history(), "cut in {}", lines[k + 1]);
        assert!(
            s.command("put z 9").unwrap().ok,
            "usable after a cut in {}",
            lines[k + 1]
        );
    }
}

/// Under a heavy load thousands of writes wait for the first leader; they go
/// on a few hundred a step, all in the millisecond the leader is known, so
/// no step of the engine (a page's frame) takes them all at once.
#[test]
fn writes_parked_before_the_first_leader_go_on_a_few_hundred_a_step_in_one_millisecond() {
    let script = parse_script("cluster voters=1,2,3 seed=1\n").unwrap();
    let (world, server) = raftlab::session::exec::configs(&script.cluster);
    let mut c = raftlab::server::Cluster::new(world, server, &[1, 2, 3]);
    c.start_load(10_000, 64, None);
    let longest = |c: &raftlab::server::Cluster| {
        (1..=3)
            .filter_map(|id| c.world().raft(id).map(|r| r.last_index()))
            .max()
            .unwrap_or(0)
    };
    let mut elected_at = None;
    let mut steps_then = 0;
    while elected_at.is_none_or(|at| c.now() == at) {
        let before = longest(&c);
        assert!(c.step(u64::MAX));
        let grew = longest(&c) - before;
        // 512 parked ones at most, and the load's own write of the moment.
        assert!(
            grew <= 520,
            "{grew} writes went on in one step at {} ms",
            c.now()
        );
        if elected_at.is_none() && c.leader().is_some() {
            elected_at = Some(c.now());
        }
        if elected_at == Some(c.now()) {
            steps_then += 1;
        }
    }
    let at = elected_at.unwrap();
    assert!(
        at > 500,
        "writes piled up first: the leader came at {at} ms"
    );
    assert!(steps_then >= 5, "the backlog took {steps_then} steps");
    // All of them went on in that millisecond.
    let entries = longest(&c);
    assert!(
        entries as f64 > at as f64 * 10.0 * 0.9,
        "{entries} entries after {at} ms of writes"
    );
}
