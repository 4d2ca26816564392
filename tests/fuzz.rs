//! The fuzzer: a short campaign passes, runs are deterministic, the shrinker
//! finds a minimal script, and the scripts of the bugs it found stay fixed.

use raftlab::fuzz::{self, Summary};
use raftlab::lang::parse::parse_script;

#[test]
fn a_short_campaign_finds_no_violation() {
    let mut summary = Summary::default();
    for seed in 1..=30 {
        let run = fuzz::run_seed(seed, 30_000);
        assert!(
            run.outcome.passed(),
            "seed {seed}: {:?}\n{}",
            run.outcome.failures,
            run.reproducer()
        );
        summary.add(&run);
    }
    assert_eq!(summary.seeds, 30);
    assert!(summary.failed_seeds.is_empty());
    // The campaign exercises what it claims to check.
    assert!(summary.acked_writes > 30, "{summary}");
    assert!(summary.liveness_checked > 20, "{summary}");
    assert!(summary.deliveries > 10_000, "{summary}");
}

#[test]
fn generated_scripts_parse_and_say_what_ran() {
    for seed in [3, 17, 99] {
        let (script, session) = fuzz::generate(seed, 20_000);
        let parsed = parse_script(&script).expect("a generated script parses");
        assert_eq!(parsed.commands.len(), session.results().len());
        // Replaying the text gives the same run as generating it.
        let replay = raftlab::session::exec::Session::run(&parsed);
        assert_eq!(replay.report_json(), session.report_json(), "seed {seed}");
    }
}

#[test]
fn the_same_seed_gives_the_same_script_and_outcome() {
    let a = fuzz::run_seed(42, 20_000);
    let b = fuzz::run_seed(42, 20_000);
    assert_eq!(a, b);
    let c = fuzz::run_seed(43, 20_000);
    assert_ne!(a.script, c.script);
    // Checking the script again gives the same verdict.
    assert_eq!(fuzz::check(&a.script).unwrap(), a.outcome);
}

#[test]
fn the_shrinker_keeps_only_the_lines_that_matter() {
    let (script, _) = fuzz::generate(7, 30_000);
    let mut lines: Vec<&str> = script.lines().collect();
    // Plant two lines far apart in a long script.
    lines.insert(5, "crash 2");
    lines.insert(lines.len() - 3, "isolate 3");
    let planted = lines.join("\n");
    let fails = |s: &str| {
        let pos = |l: &str| s.lines().position(|x| x == l);
        matches!((pos("crash 2"), pos("isolate 3")), (Some(a), Some(b)) if a < b)
    };
    assert!(fails(&planted));
    let mut calls = 0;
    let shrunk = fuzz::shrink(&planted, |s| {
        calls += 1;
        fails(s)
    });
    let head = script.lines().next().unwrap();
    assert_eq!(shrunk, format!("{head}\ncrash 2\nisolate 3\n"));
    assert!(calls < 200, "{calls} calls");
    // A predicate that does not hold leaves the script alone.
    assert_eq!(fuzz::shrink(&planted, |_| false), planted);
}

#[test]
fn shrinking_against_a_real_run_leaves_a_few_lines() {
    // A predicate on a real run: the shrunk script still has an acknowledged
    // write, and nothing else can go.
    let (script, _) = fuzz::generate(5, 15_000);
    let shrunk = fuzz::shrink(&script, |s| {
        fuzz::check(s).is_ok_and(|o| o.acked_writes >= 1)
    });
    let outcome = fuzz::check(&shrunk).unwrap();
    assert!(outcome.acked_writes >= 1);
    assert!(shrunk.lines().count() <= 4, "{shrunk}");
    assert!(outcome.passed());
}

/// Seed 407: the answer to an installed snapshot was lost and the leader,
/// never told the transfer finished, waited in the snapshot state forever.
const SNAPSHOT_ANSWER_LOST: &str = "cluster voters=1,2,3 seed=167014 heartbeat=50ms election-timeout=450ms snapshot-count=22 catchup-entries=7 latency=6ms..51ms\n\
wait-until leader within=4747ms\n\
put k1 v1 timeout=1698ms\n\
wait 1002ms\n\
put k3 v2 size=13KB nowait timeout=694ms\n\
wait 1699ms\n\
transfer-leader 2\n\
wait 1079ms\n\
transfer-leader 1\n\
wait 1120ms\n\
isolate 2\n\
wait 99ms\n\
wait 10ms\n\
wait 102ms\n\
wait 2551ms\n\
transfer-leader 3\n\
wait 4845ms\n\
wait 851ms\n\
wait 434ms\n\
wait 1334ms\n\
crash 1\n\
start 1\n\
wait 3716ms\n\
member remove 1\n\
crash 2\n\
start 2\n\
compact 3\n\
crash 2\n\
start 2\n\
net loss=6.876% latency=73ms..168ms bandwidth=2390KB/s\n\
crash 3\n\
crash 2\n\
start 2\n\
start 3\n\
wait 1176ms\n\
heal\n\
wait 2124ms\n";

/// Seed 1192: a cut link's lost catch-up kept the sender's bandwidth queue
/// reserved for 23s after every link healed.
const CUT_QUEUE_RESERVED: &str = "cluster voters=1,2,3,4 seed=868992 strict-reconfig=off max-learners=3 snapshot-count=73 catchup-entries=20 latency=6ms..37ms bandwidth=2447KB/s\n\
wait 1854ms\n\
member add 12 --learner\n\
start 12\n\
wait 291ms\n\
partition 2,4 | 12 | 1,3\n\
wait 3429ms\n\
load rate=47/s size=3858B\n\
heal\n\
partition 3 | 1,2,4,12\n\
campaign 1\n\
wait 2812ms\n\
member promote 12\n\
heal 3 1\n\
put k2 v6 nowait timeout=330ms\n\
put k5 v7 nowait\n\
wait 1004ms\n\
member remove 2\n\
member remove 12\n\
member remove 3\n\
wait 1084ms\n\
wait 3583ms\n\
wait 842ms\n\
get k0\n\
cut 1 4\n";

/// Seed 3659's shrunk script: the leader (15) applies its own removal at
/// the heal, and drops every proposal until its process stops. The final
/// phase tried its write 64 times in the same millisecond and called it a
/// liveness failure "within 0ms of the heal"; a client backs off instead.
const REMOVED_LEADER_DROPS_PROPOSALS: &str = "\
cluster voters=1,2,3 seed=582056 etcd=3.4 heartbeat=50ms election-timeout=650ms check-quorum=off strict-reconfig=off snapshot-count=160 catchup-entries=18 latency=25ms..28ms bandwidth=2923KB/s transport=streams\n\
partition 1 | 2,3\n\
wait 1374ms\n\
heal\n\
isolate 3\n\
member add 15\n\
start 15\n\
wait 3927ms\n\
crash 2\n\
wait 3999ms\n\
member remove 15 timeout=711ms\n";

/// Seed 505298: node 3 crashed with catch-ups queued behind its bandwidth;
/// started again, its vote requests to 1 were held behind the arrival times
/// of those lost messages, 20s away, and no election could finish.
const CRASH_QUEUE_HELD: &str = "\
cluster voters=1,2,3 seed=735989 etcd=3.5 heartbeat=20ms election-timeout=300ms prevote=off snapshot-count=3 catchup-entries=1 latency=20ms..34ms bandwidth=3631KB/s new-members=learner auto-promote=97% failover-after=900ms failover=grow\n\
wait 1222ms\n\
get k1\n\
net loss=4.8589% bandwidth=1075KB/s\n\
wait 880ms\n\
get k3\n\
get k3\n\
crash 2\n\
wait 798ms\n\
member remove 2 timeout=438ms\n\
partition 3 | 1,2\n\
load rate=74/s size=1028B\n\
get k4 via=3 timeout=1736ms\n\
heal\n\
wait 4551ms\n\
get k5\n\
crash 3\n";

/// Leader 1 applies its own removal from a two-voter cluster and crashes
/// before 2 learns that the removal committed. The fuzzer found it (seed
/// 504891, a crash in the same millisecond); the engine's timing has
/// changed under that seed since, so it is written by hand: a load of large
/// writes keeps 1's send queue busy at 256KB/s, so the message telling 2 the
/// new commit index still waits in it when 1 crashes, right after `member
/// remove` returns (applied on 1). Started again, 1 applies its removal
/// again and stops for good (etcd's `stopWithDelay`); 2's configuration
/// ({1,2}) still needs 1's vote, so 2 campaigns for ever. etcd is stuck
/// there too: no liveness is owed.
const REMOVED_LEADER_HOLDS_THE_LOG: &str = "\
cluster voters=1,2 seed=257201 etcd=3.4 check-quorum=off strict-reconfig=off bandwidth=256KB/s\n\
campaign 1\n\
wait-until leader=1 within=2s\n\
load rate=5/s size=128KB\n\
wait 2s\n\
member remove 1\n\
crash 1\n\
load stop\n";

#[test]
fn the_bugs_the_fuzzer_found_stay_fixed() {
    for (name, src) in [
        ("snapshot answer lost", SNAPSHOT_ANSWER_LOST),
        ("cut queue reserved", CUT_QUEUE_RESERVED),
        (
            "removed leader drops proposals",
            REMOVED_LEADER_DROPS_PROPOSALS,
        ),
        ("crash queue held", CRASH_QUEUE_HELD),
    ] {
        let outcome = fuzz::check(src).unwrap();
        assert!(outcome.liveness_expected, "{name}");
        assert!(outcome.passed(), "{name}: {:?}", outcome.failures);
    }
}

#[test]
fn no_liveness_is_asked_when_nobody_can_win_an_election() {
    let outcome = fuzz::check(REMOVED_LEADER_HOLDS_THE_LOG).unwrap();
    assert!(!outcome.liveness_expected, "{:?}", outcome.failures);
    assert!(outcome.passed(), "{:?}", outcome.failures);
    // The stuck state is the one described: 1 is gone, removed in its own
    // view; 2 never learnt it, and no leader comes.
    let src = format!("{REMOVED_LEADER_HOLDS_THE_LOG}heal\nstart 1\nwait 20s\n");
    let session = raftlab::session::exec::Session::from_script(&src).unwrap();
    let w = session.cluster().world();
    assert!(w.raft(1).is_none());
    assert!(w.node(1).is_some_and(|n| n.removed));
    assert!(w.raft(2).unwrap().conf_state().voters.contains(&1));
    assert_eq!(session.cluster().leader(), None);
}

/// `raftlab fuzz` with its arguments: (status, stdout, stderr).
fn fuzz_cli(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_raftlab"))
        .arg("fuzz")
        .args(args)
        .output()
        .expect("raftlab runs");
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn the_output_is_the_same_on_one_thread_or_three() {
    // Seed 19790 fails liveness: its seven voters have a 100ms election
    // timeout under 28ms..76ms of latency each way and never commit (the
    // shrunk script is its cluster line and a read). The fuzzer has no way
    // to plant a failure; if that seed ever passes, pick another failing
    // seed (a 20,000-seed campaign from seed 1 found this one alone) for
    // this range.
    let (first, count) = (19784, 12);
    let mut summary = Summary::default();
    for seed in first..first + count {
        summary.add(&fuzz::run_seed(seed, fuzz::DEFAULT_DURATION_MS));
    }
    assert_eq!(summary.failed_seeds, [19790], "{summary}");
    let campaign = ["--start", "19784", "--seeds", "12"];
    let (status, one, err) = fuzz_cli(&[&campaign[..], &["--jobs", "1"]].concat());
    assert_eq!(status, Some(1), "{one}{err}");
    assert!(err.contains("12 seeds on 1 thread,"), "{err}");
    let (status, three, err) = fuzz_cli(&[&campaign[..], &["--jobs", "3"]].concat());
    assert_eq!(status, Some(1), "{three}{err}");
    assert!(err.contains("12 seeds on 3 threads,"), "{err}");
    assert_eq!(one, three);
    // The seed's line, its shrunk reproducer, and the sum of the same seeds
    // run one by one.
    assert!(one.starts_with("seed 19790: liveness: "), "{one}");
    assert!(one.contains("\nseed 19790 fails; the script"), "{one}");
    assert!(one.ends_with(&format!("\n{summary}\n")), "{one}");
}

#[test]
fn jobs_must_be_a_positive_number() {
    for (bad, says) in [("0", "at least 1 thread"), ("two", "whole number")] {
        let (status, out, err) = fuzz_cli(&["--seeds", "1", "--jobs", bad]);
        assert_eq!(status, Some(2), "--jobs {bad}");
        assert!(out.is_empty(), "{out}");
        assert!(
            err.contains(&format!("invalid value '{bad}' for '--jobs <N>'")) && err.contains(says),
            "{err}"
        );
    }
}

#[test]
fn a_share_of_the_runs_turns_the_design_documents_modes_on() {
    let (mut with_modes, mut standby, mut read_only) = (0, 0, 0);
    for seed in 1..=60 {
        let run = fuzz::run_seed(seed, 20_000);
        let first = run.script.lines().next().unwrap();
        if first.contains("failover-after=") {
            with_modes += 1;
            standby += run.script.matches("--standby").count();
            read_only += run.script.matches("--read-only=").count();
            assert!(
                run.outcome.passed(),
                "seed {seed}: {:?}",
                run.outcome.failures
            );
        }
    }
    assert!((5..=30).contains(&with_modes), "{with_modes} of 60 runs");
    assert!(
        standby > 0 && read_only > 0,
        "{standby} standbys, {read_only} read-only learners"
    );
}

#[test]
fn a_share_of_the_runs_mirrors_into_a_second_cluster() {
    let mut mirrored = Vec::new();
    for seed in 1..=30 {
        let run = fuzz::run_seed(seed, 20_000);
        if run.script.contains("\nmirror start 12 from=") {
            assert!(
                run.script.contains("\ncluster voters=13,14,15 name=copy\n"),
                "seed {seed}"
            );
            assert!(
                run.outcome.passed(),
                "seed {seed}: {:?}\n{}",
                run.outcome.failures,
                run.reproducer()
            );
            mirrored.push(seed);
        }
    }
    assert!((2..=15).contains(&mirrored.len()), "{mirrored:?}");
}

#[test]
fn the_mirror_check_finds_a_value_the_source_never_had() {
    let script = "cluster voters=1,2,3 seed=4
cluster voters=13,14,15 name=copy
mirror start 12 from=1 to=13
wait 3s
put k a
wait 1s
put k forged via=14
wait 1s
";
    let verdict = fuzz::check(script).unwrap();
    assert_eq!(
        verdict.first_kind(),
        Some(&fuzz::FailureKind::Mirror),
        "{:?}",
        verdict.failures
    );
    assert!(
        verdict.failures[0].text.contains("\"forged\""),
        "{:?}",
        verdict.failures
    );
    // The same run without the forged write passes.
    let verdict = fuzz::check(&script.replace("put k forged via=14\n", "")).unwrap();
    assert!(verdict.passed(), "{:?}", verdict.failures);
}
