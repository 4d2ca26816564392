//! Hostile input: no script, console line or command panics, every refusal
//! is a clear one-line message, a refused console line changes nothing, and
//! no single command can keep a session busy without end.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use raftlab::lang::ast::Command;
use raftlab::lang::ast::MAX_WAIT_MS;
use raftlab::lang::parse::parse_command;
use raftlab::lang::parse::parse_script;
use raftlab::session::exec::Session;

/// Valid lines of every command, for mutation.
const LINES: &[&str] = &[
    "wait 250ms",
    "wait-until leader within=2s",
    "wait-until role 2=down within=500ms",
    "expect voters=1,2,3",
    "expect learners=",
    "expect commit>=3",
    "expect error=learner-not-ready",
    "status",
    "say \"hello \\\"world\\\"\"",
    "pause",
    "put k v via=2 size=1KB nowait timeout=1s",
    "put \"a key\" \"a=b\"",
    "get k via=1 serializable",
    "load rate=50/s size=256B via=1",
    "load stop",
    "member add 4 --learner --peer-url=http://n4:2380",
    "member add 5 --peer-url=\"http://10.0.0.9:2380\"",
    "member promote 4",
    "member remove 2",
    "member list",
    "start 4",
    "crash 1",
    "campaign 3",
    "transfer-leader 2",
    "compact 1",
    "cut 1 2",
    "cut 3->1",
    "heal 3->1",
    "heal",
    "partition 1,2 | 3",
    "isolate 2",
    "net loss=1% latency=5ms..200ms bandwidth=1MB/s",
    "net bandwidth=unlimited",
    "cluster voters=11,12,13 name=east latency=50ms",
    "mirror start 9 from=1 to=11 prefix=app/",
    "mirror stop 9",
    "cut 9 1",
    "expect mirror 9=watching",
    "expect mirror-error 9=compacted",
    "member list via=12",
];

/// Words that break things: huge numbers, units, quotes, unicode, ids out
/// of range, separators.
const NASTY: &[&str] = &[
    "",
    "0",
    "16",
    "-1",
    "99999999999999999999999",
    "18446744073709551616ms",
    "3601s",
    "1.00001s",
    "0.5ms",
    "\"",
    "\\",
    "=",
    "==",
    "a=",
    "=b",
    "#",
    "|",
    ",",
    "->",
    "1->",
    "->1",
    "..",
    "5ms..",
    "%",
    "101%",
    "/s",
    "0/s",
    "10001/s",
    "2GB",
    "é",
    "🦀",
    "\u{0}",
    "\t",
    "\u{feff}",
    "nowait",
    "--learner",
    "via=",
    "within=1h",
];

/// A valid line with one word replaced, inserted or removed, or one
/// character changed.
fn near_valid() -> impl Strategy<Value = String> {
    (
        proptest::sample::select(LINES.to_vec()),
        proptest::sample::select(NASTY.to_vec()),
        0usize..8,
        0u8..4,
        any::<char>(),
    )
        .prop_map(|(line, nasty, at, how, c)| {
            let mut words: Vec<String> = line.split(' ').map(String::from).collect();
            let i = at % (words.len() + 1);
            match how {
                0 if i < words.len() => words[i] = nasty.to_string(),
                1 => words.insert(i, nasty.to_string()),
                2 if i < words.len() => {
                    words.remove(i);
                }
                _ => {
                    let mut chars: Vec<char> = line.chars().collect();
                    let j = at % (chars.len() + 1);
                    if j < chars.len() && c != '\n' {
                        chars[j] = c;
                    } else {
                        chars.insert(j.min(chars.len()), c);
                    }
                    return chars.into_iter().collect();
                }
            }
            words.join(" ")
        })
}

/// Whether running `cmd` could take long in a debug test (long waits, fast loads).
fn slow(cmd: &Command) -> bool {
    match cmd {
        Command::Wait(ms) => *ms > 5_000,
        Command::WaitUntil { within_ms, .. } => *within_ms > 5_000,
        Command::Put { timeout_ms, .. }
        | Command::Get { timeout_ms, .. }
        | Command::Delete { timeout_ms, .. }
        | Command::Compaction { timeout_ms, .. }
        | Command::MemberAdd { timeout_ms, .. }
        | Command::MemberPromote { timeout_ms, .. }
        | Command::MemberRemove { timeout_ms, .. }
        | Command::MemberList { timeout_ms, .. } => timeout_ms.is_some_and(|t| t > 5_000),
        Command::LoadStart { rate_per_s, .. } => *rate_per_s > 200,
        _ => false,
    }
}

fn session() -> Session {
    Session::from_script("cluster voters=1,2,3 seed=5\nwait-until leader\n").unwrap()
}

/// Feeds a console line to a session: never panics; a refused line is a
/// clear message and changes nothing; an accepted one runs.
fn console(s: &mut Session, line: &str) -> Result<(), TestCaseError> {
    match parse_command(line) {
        Ok(cmd) => {
            // Canonical text parses back to the same command.
            prop_assert_eq!(parse_command(&cmd.to_string()), Ok(cmd.clone()));
            if !slow(&cmd) {
                let r = s.command(line);
                prop_assert!(r.is_ok());
            }
        }
        Err(e) => {
            let before = s.report_json();
            let refused = s.command(line);
            prop_assert!(refused.is_err());
            prop_assert_eq!(s.report_json(), before, "{:?} changed the session", line);
            prop_assert!(e.column >= 1);
            prop_assert!(!e.message.is_empty());
            prop_assert!(!e.to_string().contains('\n'), "{}", e);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_script_parses_or_is_refused_clearly(src in any::<String>()) {
        if let Err(e) = parse_script(&src) {
            prop_assert!(e.line >= 1 && e.column >= 1);
            prop_assert!(!e.message.is_empty() && !e.message.contains('\n'));
        }
        if let Err(e) = parse_script(&format!("cluster voters=1,2,3\n{src}")) {
            prop_assert!(e.line >= 1 && e.column >= 1);
            prop_assert!(!e.message.is_empty() && !e.message.contains('\n'));
        }
    }

    #[test]
    fn near_valid_scripts_parse_or_are_refused_clearly(
        lines in proptest::collection::vec(near_valid(), 1..6)
    ) {
        let src = format!("cluster voters=1,2,3\n{}\n", lines.join("\n"));
        match parse_script(&src) {
            Ok(script) => {
                if !script.commands.iter().any(|c| slow(&c.node)) {
                    let _ = Session::run(&script);
                }
            }
            Err(e) => {
                // A generated line may itself hold line breaks.
                let last_line = src.lines().count();
                prop_assert!(e.line >= 2 && e.line <= last_line, "{}", e);
                prop_assert!(!e.message.contains('\n'));
            }
        }
    }

    #[test]
    fn arbitrary_console_lines_never_panic(line in any::<String>()) {
        let mut s = session();
        console(&mut s, &line)?;
    }

    #[test]
    fn near_valid_console_lines_never_panic(
        lines in proptest::collection::vec(near_valid(), 1..8)
    ) {
        let mut s = session();
        for line in &lines {
            console(&mut s, line)?;
        }
    }
}

/// Random valid commands (from valid lines with random ids and durations).
fn valid_command() -> impl Strategy<Value = String> {
    let id = || 1u64..=8;
    prop_oneof![
        (0u64..3000).prop_map(|ms| format!("wait {ms}ms")),
        (0u64..3000).prop_map(|ms| format!("wait-until leader within={ms}ms")),
        (id(), 0usize..5).prop_map(|(n, r)| format!(
            "wait-until role {n}={} within=1s",
            ["leader", "follower", "candidate", "pre-candidate", "down"][r]
        )),
        (0u8..4, id(), any::<bool>()).prop_map(|(k, n, nowait)| format!(
            "put k{k} v via={n} timeout=1s{}",
            if nowait { " nowait" } else { "" }
        )),
        (0u8..4, proptest::option::of(id()), any::<bool>()).prop_map(|(k, via, ser)| format!(
            "get k{k}{}{}",
            via.map_or(String::new(), |n| format!(" via={n}")),
            if ser { " serializable" } else { "" }
        )),
        (1u64..100).prop_map(|r| format!("load rate={r}/s")),
        Just("load stop".to_string()),
        (id(), any::<bool>(), 0u8..3).prop_map(|(n, learner, url)| format!(
            "member add {n}{}{}",
            if learner { " --learner" } else { "" },
            [
                "",
                " --peer-url=http://10.0.0.9:2380",
                " --peer-url=ftp://x/y"
            ][url as usize]
        )),
        id().prop_map(|n| format!("member promote {n}")),
        id().prop_map(|n| format!("member remove {n}")),
        Just("member list".to_string()),
        id().prop_map(|n| format!("start {n}")),
        id().prop_map(|n| format!("crash {n}")),
        id().prop_map(|n| format!("campaign {n}")),
        id().prop_map(|n| format!("transfer-leader {n}")),
        id().prop_map(|n| format!("compact {n}")),
        (id(), id(), any::<bool>())
            .prop_filter("two nodes", |(a, b, _)| a != b)
            .prop_map(|(a, b, one)| if one {
                format!("cut {a}->{b}")
            } else {
                format!("cut {a} {b}")
            }),
        (id(), id())
            .prop_filter("two nodes", |(a, b)| a != b)
            .prop_map(|(a, b)| format!("heal {a} {b}")),
        Just("heal".to_string()),
        id().prop_map(|n| format!("isolate {n}")),
        (0u32..=100, 0u64..300).prop_map(|(l, ms)| format!("net loss={l}% latency={ms}ms")),
        Just("expect all-applied".to_string()),
        Just("status".to_string()),
        Just("cluster voters=11,12,13 name=east".to_string()),
        (9u64..=10, id(), 11u64..=13, any::<bool>()).prop_map(|(m, n, d, p)| format!(
            "mirror start {m} from={n} to={d}{}",
            if p { " prefix=k" } else { "" }
        )),
        (9u64..=10).prop_map(|m| format!("mirror stop {m}")),
        (9u64..=10, id(), any::<bool>())
            .prop_map(|(m, n, cut)| format!("{} {m} {n}", if cut { "cut" } else { "heal" })),
        (0u8..4, 11u64..=13).prop_map(|(k, n)| format!("put k{k} w via={n} timeout=1s")),
        (9u64..=10).prop_map(|m| format!("expect mirror {m}=watching")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_executor_runs_any_valid_commands(
        voters in 1u64..=5,
        lines in proptest::collection::vec(valid_command(), 1..25)
    ) {
        let voters: Vec<String> = (1..=voters).map(|v| v.to_string()).collect();
        let src = format!("cluster voters={}\n{}\n", voters.join(","), lines.join("\n"));
        let script = parse_script(&src).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let session = Session::run(&script);
        prop_assert_eq!(session.results().len(), lines.len());
        for r in session.results() {
            if !r.ok {
                prop_assert!(r.error.is_some(), "{:?}", r);
            }
        }
        // A run can be checked by the fuzzer's judge too.
        let _ = raftlab::fuzz::check(&src);
    }
}

#[test]
fn one_command_cannot_wait_without_end() {
    let mut s = session();
    let before = s.report_json();
    for line in [
        "wait 100000000s",
        "wait 3601s",
        "wait-until no-leader within=100000000s",
        "put k v timeout=2h",
        "put k v timeout=3600001ms",
    ] {
        let e = s.command(line).expect_err(line);
        assert!(
            e.message.contains("3600s") || e.message.contains("duration"),
            "{line}: {e}"
        );
        assert_eq!(s.report_json(), before, "{line}");
    }
    assert_eq!(parse_command("wait 3600s"), Ok(Command::Wait(MAX_WAIT_MS)));
}

#[test]
fn a_fast_load_over_a_long_wait_ends() {
    // The longest wait there is, under the fastest load there is, on a
    // one-node cluster: bounded, so it ends (kept short here for debug builds).
    let mut s = Session::from_script("cluster voters=1\nwait-until leader\n").unwrap();
    s.command("load rate=10000/s").unwrap();
    let r = s.command("wait 2s").unwrap();
    assert!(r.ok);
    assert!(s.now() >= 2_000);
}

/// The command line's own numbers: `raftlab bench` refuses a rate or a
/// length its workload cannot run, with clap's one line and status 2, where
/// a rate of 0 or over the language's limit once panicked.
#[test]
fn bench_refuses_a_rate_or_a_length_it_cannot_run() {
    for (args, says) in [
        (["--rate", "0"], "from 1 to 10000 writes a second"),
        (["--rate", "100000000"], "from 1 to 10000 writes a second"),
        (["--rate", "many"], "whole number of writes a second"),
        (["--seconds", "0"], "from 1 to 86400 simulated seconds"),
        (
            ["--seconds", "99999999999"],
            "from 1 to 86400 simulated seconds",
        ),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_raftlab"))
            .arg("bench")
            .args(args)
            .output()
            .expect("raftlab runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(
            err.contains(&format!("invalid value '{}'", args[1])) && err.contains(says),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}
