//! Tests of the scenario parser: every error message with its line and
//! column, the `cluster` defaults, and the render/parse round trip.

use super::ast::*;
use super::parse::*;

/// The (column, message) of a console line that must not parse.
fn err(line: &str) -> (usize, String) {
    let e = parse_command(line).expect_err(line);
    assert_eq!(e.line, 1, "{line}");
    (e.column, e.message)
}

/// The (line, column, message) of a script that must not parse.
fn script_err(src: &str) -> (usize, usize, String) {
    let e = parse_script(src).expect_err(src);
    (e.line, e.column, e.message)
}

fn cmd(line: &str) -> Command {
    parse_command(line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

fn cluster(line: &str) -> ClusterSpec {
    parse_script(line)
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .cluster
}

fn cluster_err(line: &str) -> (usize, String) {
    let (l, c, m) = script_err(line);
    assert_eq!(l, 1);
    (c, m)
}

const ALL_COMMANDS: &str = "wait, wait-until, expect, status, say, pause, put, get, load, \
     member, start, crash, campaign, transfer-leader, compact, cut, heal, partition, isolate, net";

// ---- the cluster line ------------------------------------------------------

#[test]
fn cluster_defaults_follow_etcd() {
    let c = cluster("cluster voters=1,2,3");
    assert_eq!(
        c,
        ClusterSpec {
            voters: vec![1, 2, 3],
            seed: 1,
            heartbeat_ms: 100,
            election_timeout_ms: 1000,
            prevote: true,
            check_quorum: true,
            strict_reconfig: true,
            max_learners: 1,
            snapshot_count: 10_000,
            catchup_entries: 5_000,
            latency_min_ms: 10,
            latency_max_ms: 30,
            bandwidth: None,
            transport: Transport::Shared,
            etcd: Release::V3_6,
        }
    );
    assert_eq!(c.election_tick(), 10);
    assert_eq!(c, ClusterSpec::new(vec![1, 2, 3]));
    assert_eq!(c.to_string(), "cluster voters=1,2,3");
}

#[test]
fn cluster_every_option() {
    let line = "cluster voters=3,1,2 seed=42 heartbeat=50ms election-timeout=1.5s prevote=off \
                check-quorum=off strict-reconfig=off max-learners=3 snapshot-count=100 \
                catchup-entries=0 latency=0ms..2s bandwidth=64KB/s";
    let c = cluster(line);
    assert_eq!(
        c,
        ClusterSpec {
            voters: vec![3, 1, 2],
            seed: 42,
            heartbeat_ms: 50,
            election_timeout_ms: 1500,
            prevote: false,
            check_quorum: false,
            strict_reconfig: false,
            max_learners: 3,
            snapshot_count: 100,
            catchup_entries: 0,
            latency_min_ms: 0,
            latency_max_ms: 2000,
            bandwidth: Some(64 * 1024),
            transport: Transport::Shared,
            etcd: Release::V3_6,
        }
    );
    assert_eq!(c.election_tick(), 30);
    assert_eq!(
        c.to_string(),
        "cluster voters=3,1,2 seed=42 heartbeat=50ms election-timeout=1500ms prevote=off \
         check-quorum=off strict-reconfig=off max-learners=3 snapshot-count=100 \
         catchup-entries=0 latency=0ms..2s bandwidth=64KB/s"
    );
    assert_eq!(cluster(&c.to_string()), c);
    // A single latency is a fixed delay; unlimited bandwidth is the default.
    let c = cluster("cluster voters=1 latency=20ms bandwidth=unlimited");
    assert_eq!(
        (c.latency_min_ms, c.latency_max_ms, c.bandwidth),
        (20, 20, None)
    );
}

#[test]
fn cluster_errors() {
    assert_eq!(
        cluster_err("cluster"),
        (
            9,
            "missing option \"voters\" for cluster; expected cluster voters=1,2,3".into()
        )
    );
    assert_eq!(
        cluster_err("cluster voters="),
        (
            9,
            "missing value for option \"voters\"; expected voters=1,2,3".into()
        )
    );
    assert_eq!(
        cluster_err("cluster voters=1,2,16"),
        (20, "node id 16 is out of range 1..=15".into())
    );
    assert_eq!(
        cluster_err("cluster voters=1,2,2"),
        (20, "node 2 appears twice in the list".into())
    );
    assert_eq!(
        cluster_err("cluster voters=1,,2"),
        (18, "expected a node id (1..=15), found \"\"".into())
    );
    assert_eq!(
        cluster_err("cluster voters=1 foo=2"),
        (
            18,
            "unknown option \"foo\" for cluster; expected voters, seed, heartbeat, \
             election-timeout, prevote, check-quorum, strict-reconfig, max-learners, \
             snapshot-count, catchup-entries, latency, bandwidth, transport, etcd"
                .into()
        )
    );
    assert_eq!(
        cluster_err("cluster voters=1 seed=1 seed=2"),
        (25, "duplicate option \"seed\"".into())
    );
    assert_eq!(
        cluster_err("cluster voters=1 heartbeat=0ms"),
        (28, "the heartbeat must be at least 1ms".into())
    );
    assert_eq!(
        cluster_err("cluster voters=1 election-timeout=400ms"),
        (
            35,
            "election-timeout 400ms must be at least 5 times the heartbeat 100ms (etcd's rule)"
                .into()
        )
    );
    // Without election-timeout the heartbeat is the word to blame.
    assert_eq!(cluster_err("cluster voters=1 heartbeat=300ms").0, 28);
    assert_eq!(
        cluster_err("cluster voters=1 election-timeout=51s"),
        (
            35,
            "election-timeout 51s is too long; etcd allows at most 50s".into()
        )
    );
    assert_eq!(
        cluster_err("cluster voters=1 prevote=yes"),
        (26, "expected on or off, found \"yes\"".into())
    );
    assert_eq!(
        cluster_err("cluster voters=1 latency=30ms..10ms"),
        (
            26,
            "the latency minimum 30ms is above its maximum 10ms".into()
        )
    );
    assert_eq!(
        cluster_err("cluster voters=1 latency=fast"),
        (
            26,
            "expected a latency range like 10ms..30ms, found \"fast\"".into()
        )
    );
    assert_eq!(
        cluster_err("cluster voters=1 bandwidth=1MB"),
        (
            28,
            "expected a bandwidth like 1MB/s or unlimited, found \"1MB\"".into()
        )
    );
    assert_eq!(
        cluster_err("cluster voters=1 bandwidth=0B/s"),
        (28, "the bandwidth must be at least 1B/s".into())
    );
    assert_eq!(
        cluster_err("cluster voters=1 snapshot-count=0"),
        (33, "snapshot-count must be at least 1".into())
    );
    assert_eq!(
        cluster_err("cluster voters=1 seed=99999999999999999999999"),
        (23, "the number 99999999999999999999999 is too large".into())
    );
    assert_eq!(
        cluster_err("cluster voters=1 prevote"),
        (
            18,
            "missing value for option \"prevote\"; expected prevote=on|off".into()
        )
    );
}

// ---- scripts ---------------------------------------------------------------

#[test]
fn script_lines_keep_their_number_and_text() {
    let src = "# a lesson\n\ncluster voters=1,2,3 # three voters\r\n  wait 2s   # settle\n\
               member add 4 --learner\n\nsay \"a # inside\" # outside\n";
    let s = parse_script(src).unwrap();
    assert_eq!(s.cluster, ClusterSpec::new(vec![1, 2, 3]));
    let lines: Vec<(usize, &str)> = s
        .commands
        .iter()
        .map(|c| (c.line, c.text.as_str()))
        .collect();
    assert_eq!(
        lines,
        vec![
            (4, "wait 2s"),
            (5, "member add 4 --learner"),
            (7, "say \"a # inside\"")
        ]
    );
    assert_eq!(s.commands[2].node, Command::Say("a # inside".into()));
    assert_eq!(
        s.to_string(),
        "cluster voters=1,2,3\nwait 2s\nmember add 4 --learner\nsay \"a # inside\"\n"
    );
    // A byte-order mark at the start is ignored.
    assert!(parse_script("\u{feff}cluster voters=1").is_ok());
}

#[test]
fn script_errors() {
    assert_eq!(
        script_err(""),
        (
            1,
            1,
            "the script is empty; it must start with a line like \"cluster voters=1,2,3\"".into()
        )
    );
    assert_eq!(script_err("# nothing\n\n").2, script_err("").2);
    assert_eq!(
        script_err("# intro\n  wait 1s\ncluster voters=1"),
        (
            2,
            3,
            "expected the cluster line first, like \"cluster voters=1,2,3\", found \"wait\"".into()
        )
    );
    assert_eq!(
        script_err("cluster voters=1\nwait 1s\n cluster voters=2"),
        (
            3,
            2,
            "a script has only one \"cluster\" line, and this is a second one".into()
        )
    );
    assert_eq!(
        script_err("cluster voters=1\n\nmembr add 4"),
        (
            3,
            1,
            format!("unknown command \"membr\"; expected one of: {ALL_COMMANDS}")
        )
    );
    assert_eq!(
        script_err("cluster voters=1\nsay \"oops"),
        (2, 5, "unterminated quoted text".into())
    );
}

// ---- commands: the errors named in the brief --------------------------------

#[test]
fn unknown_command() {
    assert_eq!(
        err("membr add 4"),
        (
            1,
            format!("unknown command \"membr\"; expected one of: {ALL_COMMANDS}")
        )
    );
    assert_eq!(
        err("  Wait 1s"),
        (
            3,
            format!("unknown command \"Wait\"; expected one of: {ALL_COMMANDS}")
        )
    );
    assert_eq!(
        err("\"wait\" 1s"),
        (1, "expected a command, found quoted text \"wait\"".into())
    );
    assert_eq!(
        err("cluster voters=1"),
        (
            1,
            "\"cluster\" can only be the first line of a script".into()
        )
    );
    assert_eq!(err("   # just a comment").0, 1);
    assert!(err("").1.starts_with("expected a command, found nothing"));
}

#[test]
fn duration_errors() {
    assert_eq!(
        err("wait fast"),
        (
            6,
            "expected a duration like 250ms or 2s, found \"fast\"".into()
        )
    );
    assert_eq!(
        err("wait 250"),
        (6, "a duration needs a unit (ms or s), found \"250\"".into())
    );
    assert_eq!(
        err("wait -5ms"),
        (6, "a duration cannot be negative, found \"-5ms\"".into())
    );
    assert_eq!(
        err("wait 0.5ms"),
        (
            6,
            "durations are whole milliseconds; \"0.5ms\" is finer than 1ms".into()
        )
    );
    assert_eq!(
        err("wait 1.0001s").1,
        "durations are whole milliseconds; \"1.0001s\" is finer than 1ms"
    );
    assert_eq!(
        err("wait 99999999999999999999s"),
        (
            6,
            "the duration \"99999999999999999999s\" is too long".into()
        )
    );
    assert_eq!(err("wait"), (6, "missing duration after \"wait\"".into()));
    assert_eq!(
        err("wait 1s 2s"),
        (9, "unexpected extra word \"2s\" after wait".into())
    );
    assert_eq!(
        err("put k v timeout=soon"),
        (
            17,
            "expected a duration like 250ms or 2s, found \"soon\"".into()
        )
    );
}

#[test]
fn durations_and_sizes() {
    assert_eq!(parse_duration("250ms"), Ok(250));
    assert_eq!(parse_duration("2s"), Ok(2000));
    assert_eq!(parse_duration("1.5s"), Ok(1500));
    assert_eq!(parse_duration("1.250s"), Ok(1250));
    assert_eq!(parse_duration("0ms"), Ok(0));
    assert_eq!(parse_duration("2.0ms"), Ok(2));
    assert_eq!(parse_duration("18446744073709551615ms"), Ok(u64::MAX));
    assert!(parse_duration("18446744073709551616ms").is_err());
    assert!(parse_duration("18446744073709552s").is_err());
    for bad in [
        "", "s", "ms", ".5s", "1.s", "1..2s", "1e3ms", "+1s", "1 s", "1m", "٣s",
    ] {
        assert!(parse_duration(bad).is_err(), "{bad}");
    }
    assert_eq!(parse_size("512B"), Ok(512));
    assert_eq!(parse_size("4KB"), Ok(4096));
    assert_eq!(parse_size("1MB"), Ok(1 << 20));
    assert_eq!(parse_size("1.5KB"), Ok(1536));
    assert_eq!(parse_size("1GB"), Ok(1 << 30));
    assert_eq!(parse_size("0B"), Ok(0));
    assert_eq!(
        parse_size("2GB"),
        Err("the size \"2GB\" is larger than the limit of 1GB".into())
    );
    assert_eq!(
        parse_size("1025MB"),
        Err("the size \"1025MB\" is larger than the limit of 1GB".into())
    );
    assert_eq!(
        parse_size("99999999999999999999999999999999999999999GB"),
        Err(
            "the size \"9999999999999999999999999999999999999999...\" is larger than the limit of 1GB"
                .into()
        )
    );
    assert_eq!(
        parse_size("0.5B"),
        Err("the size \"0.5B\" is not a whole number of bytes".into())
    );
    assert_eq!(
        parse_size("512"),
        Err("a size needs a unit (B, KB, MB or GB), found \"512\"".into())
    );
    assert_eq!(
        parse_size("big"),
        Err("expected a size like 512B, 4KB or 1MB, found \"big\"".into())
    );
    assert_eq!(
        parse_size("-1KB"),
        Err("a size cannot be negative, found \"-1KB\"".into())
    );
    assert_eq!(format_size(1536), "1536B");
    assert_eq!(format_size(3 << 20), "3MB");
    assert_eq!(format_duration(1500), "1500ms");
    assert_eq!(format_duration(3000), "3s");
    assert_eq!(format_duration(0), "0ms");
}

#[test]
fn node_id_errors() {
    assert_eq!(
        err("crash 16"),
        (7, "node id 16 is out of range 1..=15".into())
    );
    assert_eq!(
        err("crash 0"),
        (7, "node id 0 is out of range 1..=15".into())
    );
    assert_eq!(
        err("crash 99999999999999999999999999"),
        (
            7,
            "node id 99999999999999999999999999 is out of range 1..=15".into()
        )
    );
    assert_eq!(
        err("crash two"),
        (7, "expected a node id (1..=15), found \"two\"".into())
    );
    assert_eq!(
        err("crash -1"),
        (7, "expected a node id (1..=15), found \"-1\"".into())
    );
    assert_eq!(err("crash"), (7, "missing node id after \"crash\"".into()));
    assert_eq!(
        err("member promote"),
        (16, "missing node id after \"member promote\"".into())
    );
    assert_eq!(
        err("crash 2 3"),
        (9, "unexpected extra word \"3\" after crash 2".into())
    );
    assert_eq!(
        err("put k v via=16"),
        (13, "node id 16 is out of range 1..=15".into())
    );
}

#[test]
fn option_errors() {
    assert_eq!(
        err("put k v via=1 via=2"),
        (15, "duplicate option \"via\"".into())
    );
    assert_eq!(
        err("put k v foo=1"),
        (
            9,
            "unknown option \"foo\" for put; expected via, size, nowait, timeout, require-leader"
                .into()
        )
    );
    assert_eq!(
        err("put k v fast"),
        (
            9,
            "unknown option \"fast\" for put; expected via, size, nowait, timeout, require-leader"
                .into()
        )
    );
    assert_eq!(
        err("put k v nowait=yes"),
        (9, "option \"nowait\" takes no value".into())
    );
    assert_eq!(
        err("put k v via"),
        (9, "missing value for option \"via\"; expected via=N".into())
    );
    assert_eq!(
        err("put k v via="),
        (9, "missing value for option \"via\"; expected via=N".into())
    );
    assert_eq!(
        err("put k v \"x\""),
        (
            9,
            "unexpected quoted text \"x\" for put; expected via, size, nowait, timeout, require-leader".into()
        )
    );
    assert_eq!(
        err("get k nowait"),
        (
            7,
            "unknown option \"nowait\" for get; expected via, serializable, timeout, \
             require-leader"
                .into()
        )
    );
    assert_eq!(
        err("put k v size=2GB"),
        (
            14,
            "the size \"2GB\" is larger than the limit of 1GB".into()
        )
    );
}

#[test]
fn put_and_get_positionals() {
    assert_eq!(err("put"), (5, "missing a key after \"put\"".into()));
    assert_eq!(err("put k"), (7, "missing a value after \"put k\"".into()));
    assert_eq!(
        err("put k via=2"),
        (
            7,
            "expected a value after \"put k\", found the option \"via=2\"; \
             quote a value that contains \"=\""
                .into()
        )
    );
    assert_eq!(
        err("put \"a b\""),
        (11, "missing a value after \"put \\\"a b\\\"\"".into())
    );
    assert_eq!(err("get"), (5, "missing a key after \"get\"".into()));
    // Positionals come first, so option-like words are keys and values there.
    assert_eq!(
        cmd("put nowait serializable nowait"),
        Command::Put {
            key: "nowait".into(),
            value: "serializable".into(),
            via: None,
            size: None,
            nowait: true,
            timeout_ms: None,
            require_leader: false,
        }
    );
    assert_eq!(
        cmd(r#"put "a=b" "x \"y\" \\ z""#),
        Command::Put {
            key: "a=b".into(),
            value: r#"x "y" \ z"#.into(),
            via: None,
            size: None,
            nowait: false,
            timeout_ms: None,
            require_leader: false,
        }
    );
    assert_eq!(
        cmd("put k \"\""),
        Command::Put {
            key: "k".into(),
            value: String::new(),
            via: None,
            size: None,
            nowait: false,
            timeout_ms: None,
            require_leader: false,
        }
    );
}

#[test]
fn quoted_text_errors() {
    assert_eq!(err("say \"abc"), (5, "unterminated quoted text".into()));
    assert_eq!(err("say \"abc\\\""), (5, "unterminated quoted text".into()));
    assert_eq!(
        err("say Node 4 is a learner"),
        (
            10,
            "unexpected extra word \"4\" after the text of say; \
             put text with spaces in double quotes"
                .into()
        )
    );
    assert_eq!(err("say"), (5, "missing quoted text after \"say\"".into()));
    assert_eq!(cmd("say hello"), Command::Say("hello".into()));
    assert_eq!(cmd("say \"\""), Command::Say(String::new()));
}

#[test]
fn joint_change_commands() {
    assert_eq!(
        cmd("member change remove=3 add=5,4 leave=explicit"),
        Command::MemberChange {
            change: JointChange {
                add: vec![4, 5],
                remove: vec![3],
                explicit_leave: true,
                ..Default::default()
            },
            timeout_ms: None,
            require_leader: false,
        }
    );
    assert_eq!(
        cmd("member change add=4 timeout=2s require-leader").to_string(),
        "member change add=4 timeout=2s require-leader"
    );
    assert_eq!(
        cmd("member change promote=6 demote=2 leave=auto").to_string(),
        "member change promote=6 demote=2"
    );
    assert_eq!(
        cmd("member change add-learner=7").to_string(),
        "member change add-learner=7"
    );
    assert_eq!(
        cmd("member leave-joint"),
        Command::MemberLeaveJoint {
            timeout_ms: None,
            require_leader: false
        }
    );
    assert_eq!(
        cmd("member leave-joint require-leader").to_string(),
        "member leave-joint require-leader"
    );
    assert_eq!(
        err("member change"),
        (
            15,
            "missing changes after \"member change\"; expected add=, add-learner=, promote=, \
             demote= or remove= with node ids"
                .into()
        )
    );
    assert_eq!(
        err("member change leave=explicit"),
        (
            30,
            "missing changes after \"member change\"; expected add=, add-learner=, promote=, \
             demote= or remove= with node ids"
                .into()
        )
    );
    assert_eq!(
        err("member change add=4 remove=2,4"),
        (28, "node 4 appears in two changes of member change".into())
    );
    assert_eq!(
        err("member change add=4,4"),
        (21, "node 4 appears twice in the list".into())
    );
    assert_eq!(
        err("member change add=4 leave=later"),
        (
            27,
            "expected leave=auto or leave=explicit, found \"later\"".into()
        )
    );
    assert_eq!(
        err("member change join=4"),
        (
            15,
            "unknown option \"join\" for member change; expected add, add-learner, promote, \
             demote, remove, leave, timeout, require-leader"
                .into()
        )
    );
    assert_eq!(
        err("member change add="),
        (15, "missing value for option \"add\"; expected LIST".into())
    );
    assert_eq!(
        err("member leave-joint now"),
        (
            20,
            "unknown option \"now\" for member leave-joint; expected timeout, require-leader"
                .into()
        )
    );
    assert_eq!(
        cmd("expect voters-outgoing=3,1"),
        Command::Expect(Condition::VotersOutgoing(vec![3, 1]))
    );
    assert_eq!(
        cmd("expect voters-outgoing="),
        Command::Expect(Condition::VotersOutgoing(vec![]))
    );
}

#[test]
fn member_commands() {
    assert_eq!(
        cmd("member add 4 --learner --peer-url=http://10.0.0.9:2380"),
        Command::MemberAdd {
            id: 4,
            learner: true,
            peer_url: Some("http://10.0.0.9:2380".into()),
            timeout_ms: None,
            require_leader: false,
        }
    );
    // URL syntax is checked when the command runs (bad-url), not here.
    assert_eq!(
        cmd("member add 5 --peer-url=ftp:/nonsense"),
        Command::MemberAdd {
            id: 5,
            learner: false,
            peer_url: Some("ftp:/nonsense".into()),
            timeout_ms: None,
            require_leader: false,
        }
    );
    assert_eq!(
        cmd("member add 5 --peer-url=\"\""),
        Command::MemberAdd {
            id: 5,
            learner: false,
            peer_url: Some(String::new()),
            timeout_ms: None,
            require_leader: false,
        }
    );
    assert_eq!(
        err("member add 4 --peer-url="),
        (
            14,
            "missing value for option \"--peer-url\"; expected --peer-url=URL".into()
        )
    );
    assert_eq!(
        err("member add 4 --peer-url"),
        (
            14,
            "missing value for option \"--peer-url\"; expected --peer-url=URL".into()
        )
    );
    assert_eq!(
        err("member add 4 learner"),
        (
            14,
            "unknown option \"learner\" for member add; expected --learner, --peer-url, timeout, require-leader".into()
        )
    );
    assert_eq!(
        err("member"),
        (
            8,
            "missing a member subcommand (add, promote, remove, list, change or leave-joint) after \"member\"".into()
        )
    );
    assert_eq!(
        err("member join 4"),
        (
            8,
            "unknown member subcommand \"join\"; expected one of: add, promote, remove, list, \
             change, leave-joint"
                .into()
        )
    );
    assert_eq!(
        err("member list 2"),
        (
            13,
            "unknown option \"2\" for member list; expected serializable, timeout, \
             require-leader"
                .into()
        )
    );
    assert_eq!(
        err("member promote 4 now"),
        (
            18,
            "unknown option \"now\" for member promote; expected timeout, require-leader".into()
        )
    );
}

#[test]
fn client_options_wait_and_require_a_leader() {
    assert_eq!(
        cmd("member promote 4 timeout=2s require-leader"),
        Command::MemberPromote {
            id: 4,
            timeout_ms: Some(2000),
            require_leader: true,
        }
    );
    assert_eq!(
        cmd("member remove 3 require-leader"),
        Command::MemberRemove {
            id: 3,
            timeout_ms: None,
            require_leader: true,
        }
    );
    assert_eq!(
        cmd("member list serializable"),
        Command::MemberList {
            serializable: true,
            timeout_ms: None,
            require_leader: false,
        }
    );
    assert_eq!(
        cmd("get k require-leader timeout=500ms"),
        Command::Get {
            key: "k".into(),
            via: None,
            serializable: false,
            timeout_ms: Some(500),
            require_leader: true,
        }
    );
    // Canonical order: timeout, then require-leader.
    assert_eq!(
        cmd("put k v require-leader timeout=1s").to_string(),
        "put k v timeout=1s require-leader"
    );
    assert_eq!(
        cmd("member add 4 require-leader --learner").to_string(),
        "member add 4 --learner require-leader"
    );
    assert_eq!(
        err("get k require-leader=yes"),
        (7, "option \"require-leader\" takes no value".into())
    );
    assert_eq!(
        err("member remove 3 timeout=2h"),
        (
            25,
            "expected a duration like 250ms or 2s, found \"2h\"".into()
        )
    );
}

#[test]
fn status_of_one_member_and_progress_conditions() {
    assert_eq!(cmd("status"), Command::Status { via: None });
    assert_eq!(cmd("status via=4"), Command::Status { via: Some(4) });
    assert_eq!(cmd("status via=4").to_string(), "status via=4");
    assert_eq!(
        err("status 4"),
        (8, "unknown option \"4\" for status; expected via".into())
    );
    assert_eq!(
        cmd("wait-until progress 2=replicate within=1s"),
        Command::WaitUntil {
            cond: Condition::Progress {
                id: 2,
                state: ProgressName::Replicate
            },
            within_ms: 1000
        }
    );
    assert_eq!(
        err("expect progress 2=fast"),
        (
            19,
            "unknown progress state \"fast\"; expected one of: probe, replicate, snapshot".into()
        )
    );
    assert_eq!(
        err("expect progress 2"),
        (17, "expected N=STATE like 2=replicate, found \"2\"".into())
    );
}

#[test]
fn release_profiles_and_transports_on_the_cluster_line() {
    let c = cluster("cluster voters=1,2,3 etcd=3.4 transport=streams");
    assert_eq!(c.etcd, Release::V3_4);
    assert_eq!(c.transport, Transport::Streams);
    // etcd's DefaultSnapshotCount of that release.
    assert_eq!(c.snapshot_count, 100_000);
    assert_eq!(
        c.to_string(),
        "cluster voters=1,2,3 etcd=3.4 transport=streams"
    );
    let c = cluster("cluster voters=1 snapshot-count=500 etcd=3.5");
    assert_eq!(c.snapshot_count, 500);
    assert_eq!(
        c.to_string(),
        "cluster voters=1 etcd=3.5 snapshot-count=500"
    );
    let c = cluster("cluster voters=1 etcd=3.6 max-learners=2");
    assert_eq!((c.etcd, c.max_learners), (Release::V3_6, 2));
    assert_eq!(c.to_string(), "cluster voters=1 max-learners=2");
    // v3.4 and v3.5 fix one learner: the option does not exist there,
    // wherever it is written.
    for line in [
        "cluster voters=1 etcd=3.4 max-learners=2",
        "cluster voters=1 max-learners=1 etcd=3.5",
    ] {
        let (col, msg) = cluster_err(line);
        assert!(
            msg.starts_with("max-learners cannot be set with etcd=3."),
            "{msg}"
        );
        assert_eq!(line[col - 1..].split('=').next(), Some("max-learners"));
    }
    assert_eq!(
        cluster_err("cluster voters=1 etcd=3.7"),
        (
            23,
            "unknown etcd release \"3.7\"; expected 3.4, 3.5 or 3.6".into()
        )
    );
    assert_eq!(
        cluster_err("cluster voters=1 transport=tcp"),
        (28, "expected shared or streams, found \"tcp\"".into())
    );
}

#[test]
fn links_and_partitions() {
    assert_eq!(
        cmd("cut 1 2"),
        Command::Cut {
            a: 1,
            b: 2,
            one_way: false
        }
    );
    assert_eq!(
        cmd("cut 1->2"),
        Command::Cut {
            a: 1,
            b: 2,
            one_way: true
        }
    );
    assert_eq!(cmd("heal"), Command::Heal { link: None });
    assert_eq!(
        cmd("heal 3 1"),
        Command::Heal {
            link: Some((3, 1, false))
        }
    );
    assert_eq!(
        cmd("heal 3->1"),
        Command::Heal {
            link: Some((3, 1, true))
        }
    );
    assert_eq!(
        err("cut 2 2"),
        (5, "a link joins two different nodes, found 2 and 2".into())
    );
    assert_eq!(
        err("heal 2->2"),
        (6, "a link joins two different nodes, found 2 and 2".into())
    );
    assert_eq!(err("cut"), (5, "missing node id after \"cut\"".into()));
    assert_eq!(err("cut 1"), (7, "missing node id after \"cut 1\"".into()));
    assert_eq!(err("cut 1->"), (8, "missing node id after \"1->\"".into()));
    assert_eq!(
        err("cut 1->16"),
        (8, "node id 16 is out of range 1..=15".into())
    );
    assert_eq!(
        err("cut 1 2 3"),
        (9, "unexpected extra word \"3\" after cut 1 2".into())
    );

    assert_eq!(
        cmd("partition 1,2 | 3,4 | 5"),
        Command::Partition(vec![vec![1, 2], vec![3, 4], vec![5]])
    );
    assert_eq!(
        cmd("partition 1,2|3"),
        Command::Partition(vec![vec![1, 2], vec![3]])
    );
    assert_eq!(
        cmd("partition 1 , 2 |3"),
        Command::Partition(vec![vec![1, 2], vec![3]])
    );
    assert_eq!(
        err("partition 1,2 | 2,3"),
        (17, "node 2 is in two groups".into())
    );
    assert_eq!(
        err("partition 1,1 | 3"),
        (13, "node 1 appears twice in the same group".into())
    );
    assert_eq!(
        err("partition 1,2,3"),
        (
            11,
            "a partition needs at least two groups separated by \"|\", like 1,2 | 3".into()
        )
    );
    assert_eq!(
        err("partition"),
        (
            11,
            "missing groups after \"partition\"; expected groups like 1,2 | 3".into()
        )
    );
    assert_eq!(
        err("partition 1 2 | 3"),
        (
            13,
            "expected \",\" or \"|\" between node ids, found \"2\"".into()
        )
    );
    assert_eq!(
        err("partition 1 | | 3"),
        (15, "empty group; expected node ids before \"|\"".into())
    );
    assert_eq!(err("partition 1 |"), (14, "empty group after \"|\"".into()));
    assert_eq!(err("partition 1, | 2").0, 14);
    assert_eq!(
        err("partition 1,2 | 3,"),
        (19, "missing node id after \",\"".into())
    );
    assert_eq!(
        err("partition 1 | x"),
        (15, "expected a node id (1..=15), found \"x\"".into())
    );
}

#[test]
fn load_commands() {
    assert_eq!(
        cmd("load rate=50/s"),
        Command::LoadStart {
            rate_per_s: 50,
            size: None,
            via: None
        }
    );
    assert_eq!(
        cmd("load via=2 size=1KB rate=5/s"),
        Command::LoadStart {
            rate_per_s: 5,
            size: Some(1024),
            via: Some(2)
        }
    );
    assert_eq!(cmd("load stop"), Command::LoadStop);
    assert_eq!(
        err("load"),
        (6, "missing \"rate=N/s\" or \"stop\" after \"load\"".into())
    );
    assert_eq!(
        err("load size=1KB"),
        (
            6,
            "missing option \"rate\" for load; expected \"load rate=N/s\" or \"load stop\"".into()
        )
    );
    assert_eq!(
        err("load rate=fast"),
        (11, "expected a rate like 50/s, found \"fast\"".into())
    );
    assert_eq!(
        err("load rate=0/s"),
        (11, "the rate must be at least 1/s".into())
    );
    assert_eq!(
        err("load rate=10001/s"),
        (11, "the rate 10001/s is above the limit of 10000/s".into())
    );
    assert_eq!(
        err("load stop now"),
        (11, "unexpected extra word \"now\" after load stop".into())
    );
}

#[test]
fn conditions() {
    let c = |s: &str| match cmd(&format!("expect {s}")) {
        Command::Expect(c) => c,
        other => panic!("{other:?}"),
    };
    assert_eq!(c("leader"), Condition::Leader);
    assert_eq!(c("leader=2"), Condition::LeaderIs(2));
    assert_eq!(c("no-leader"), Condition::NoLeader);
    assert_eq!(c("caught-up=4"), Condition::CaughtUp(4));
    assert_eq!(c("all-applied"), Condition::AllApplied);
    assert_eq!(c("quorum=2"), Condition::Quorum(2));
    assert_eq!(c("voters=1,2,3"), Condition::Voters(vec![1, 2, 3]));
    assert_eq!(c("learners=4"), Condition::Learners(vec![4]));
    assert_eq!(c("learners="), Condition::Learners(vec![]));
    assert_eq!(c("term=3"), Condition::Term(3));
    assert_eq!(c("commit>=12"), Condition::CommitAtLeast(12));
    assert_eq!(
        c("role 2=pre-candidate"),
        Condition::Role {
            id: 2,
            role: RoleName::PreCandidate
        }
    );
    assert_eq!(c("ok"), Condition::Ok);
    assert_eq!(
        c("error=learner-not-ready"),
        Condition::Error(ErrorCode::LearnerNotReady)
    );
    assert_eq!(
        cmd("wait-until role 4=down within=2s"),
        Command::WaitUntil {
            cond: Condition::Role {
                id: 4,
                role: RoleName::Down
            },
            within_ms: 2000,
        }
    );
    assert_eq!(
        cmd("wait-until leader"),
        Command::WaitUntil {
            cond: Condition::Leader,
            within_ms: 30_000
        }
    );
}

#[test]
fn condition_errors() {
    let forms = "leader, leader=N, no-leader, caught-up=N, all-applied, quorum=Q, \
                 voters=LIST, learners=LIST, voters-outgoing=LIST, term=T, commit>=I, role N=ROLE, \
                 progress N=STATE, ok, error=CODE";
    assert_eq!(
        err("expect leeder"),
        (
            8,
            format!("unknown condition \"leeder\"; expected one of: {forms}")
        )
    );
    assert_eq!(
        err("expect commit=3"),
        (
            8,
            format!("unknown condition \"commit=3\"; expected one of: {forms}")
        )
    );
    assert_eq!(
        err("expect"),
        (8, "missing a condition after \"expect\"".into())
    );
    assert_eq!(
        err("expect leader 2"),
        (15, "unexpected extra word \"2\" after the condition".into())
    );
    assert_eq!(
        err("expect leader=16"),
        (15, "node id 16 is out of range 1..=15".into())
    );
    assert_eq!(
        err("expect leader="),
        (15, "missing node id after \"leader=\"".into())
    );
    assert_eq!(
        err("expect term=x"),
        (13, "expected a whole number, found \"x\"".into())
    );
    assert_eq!(
        err("expect quorum="),
        (15, "missing a number after \"quorum=\"".into())
    );
    assert_eq!(
        err("expect voters="),
        (
            15,
            "expected a list of node ids like 1,2,3, found nothing".into()
        )
    );
    assert_eq!(
        err("expect learners=4,4"),
        (19, "node 4 appears twice in the list".into())
    );
    assert_eq!(
        err("expect role"),
        (13, "missing N=ROLE after \"role\"".into())
    );
    assert_eq!(
        err("expect role 2"),
        (13, "expected N=ROLE like 2=leader, found \"2\"".into())
    );
    assert_eq!(
        err("expect role 2=boss"),
        (
            15,
            "unknown role \"boss\"; expected one of: leader, follower, candidate, \
             pre-candidate, down"
                .into()
        )
    );
    assert_eq!(
        err("expect role 2="),
        (15, "missing role after \"2=\"".into())
    );
    assert_eq!(err("expect role x=leader").0, 13);
    let codes = ErrorCode::ALL.map(|c| c.as_str()).join(", ");
    assert_eq!(
        err("expect error=oops"),
        (
            14,
            format!("unknown error code \"oops\"; expected one of: {codes}")
        )
    );
    assert_eq!(
        err("wait-until leader within=soon"),
        (
            26,
            "expected a duration like 250ms or 2s, found \"soon\"".into()
        )
    );
    assert_eq!(
        err("wait-until leader by=2s"),
        (
            19,
            "unknown option \"by\" for wait-until; expected within".into()
        )
    );
}

#[test]
fn error_codes_round_trip() {
    let names = [
        "bad-url",
        "id-exists",
        "id-removed",
        "peer-url-exists",
        "too-many-learners",
        "member-not-found",
        "member-not-learner",
        "member-not-voter",
        "learner-not-ready",
        "not-enough-started-members",
        "unhealthy",
        "bad-leader-transferee",
        "not-supported-for-learner",
        "not-started",
        "no-leader",
        "timeout",
        "expect-failed",
    ];
    assert_eq!(ErrorCode::ALL.map(|c| c.as_str()), names);
    for code in ErrorCode::ALL {
        assert_eq!(code.as_str().parse::<ErrorCode>(), Ok(code));
        assert_eq!(code.to_string(), code.as_str());
    }
    for role in RoleName::ALL {
        assert_eq!(role.as_str().parse::<RoleName>(), Ok(role));
    }
}

// ---- rendering ---------------------------------------------------------------

/// Every command form, in its canonical text.
const CANONICAL: &[&str] = &[
    "wait 250ms",
    "wait 2s",
    "wait 0ms",
    "wait-until leader",
    "wait-until caught-up=4 within=5s",
    "wait-until role 3=candidate within=1500ms",
    "expect leader",
    "expect leader=1",
    "expect no-leader",
    "expect caught-up=4",
    "expect all-applied",
    "expect quorum=2",
    "expect voters=1,2,3",
    "expect learners=4,5",
    "expect learners=",
    "expect term=3",
    "expect commit>=12",
    "expect role 1=leader",
    "expect role 2=follower",
    "expect role 3=candidate",
    "expect role 4=pre-candidate",
    "expect role 5=down",
    "expect ok",
    "expect error=too-many-learners",
    "status",
    "say \"Node 4 is a learner: \\\"fast\\\" \\\\ # not a comment\"",
    "say \"\"",
    "pause",
    "put k v",
    "put \"a key\" \"a=b\" via=2 size=4KB nowait timeout=2s",
    "put k \"\" size=1536B",
    "get k",
    "get \"#k\" via=4 serializable",
    "load rate=50/s",
    "load rate=50/s size=1MB via=3",
    "load stop",
    "member add 4",
    "member add 4 --learner --peer-url=http://10.0.0.9:2380",
    "member add 6 --peer-url=\"\"",
    "member add 6 --peer-url=\"http://a b\"",
    "member promote 4",
    "member remove 2",
    "member list",
    "member change add=4,5 remove=3 leave=explicit",
    "member change add-learner=6 promote=4 demote=2",
    "member leave-joint",
    "expect voters-outgoing=1,2,3",
    "expect voters-outgoing=",
    "start 4",
    "crash 1",
    "campaign 2",
    "transfer-leader 3",
    "compact 1",
    "cut 1 2",
    "cut 1->2",
    "heal",
    "heal 1 2",
    "heal 2->1",
    "partition 1,2 | 3,4 | 5",
    "isolate 15",
];

#[test]
fn canonical_text_renders_to_itself() {
    for line in CANONICAL {
        let c = cmd(line);
        assert_eq!(&c.to_string(), line);
        assert_eq!(cmd(&c.to_string()), c);
    }
}

#[test]
fn non_canonical_text_renders_canonically() {
    for (written, canonical) in [
        ("wait 1.5s", "wait 1500ms"),
        ("wait 2000ms", "wait 2s"),
        ("wait-until leader within=30s", "wait-until leader"),
        (
            "put k v timeout=5000ms size=1024B",
            "put k v size=1KB timeout=5s",
        ),
        ("put \"k\" v", "put k v"),
        (
            "member add 4 --peer-url=\"http://x:1\" --learner",
            "member add 4 --learner --peer-url=http://x:1",
        ),
        ("partition 1 , 2|3", "partition 1,2 | 3"),
        ("load via=2 rate=1/s", "load rate=1/s via=2"),
        ("expect   leader # why", "expect leader"),
    ] {
        assert_eq!(cmd(written).to_string(), canonical, "{written}");
    }
}

#[test]
fn never_panics_on_odd_input() {
    let long = "9".repeat(100_000);
    let inputs = [
        "\u{0}",
        "\"",
        "\\",
        "=",
        "==",
        "put =",
        "put k =\"",
        "put k x=\"",
        "put k v via=\"\"",
        "say \"\\",
        "expect role =",
        "expect role =\"x\"",
        "expect commit>=",
        "expect =",
        "cut ->",
        "cut ->->",
        "cut 1->->2",
        "partition ||,,",
        "partition |",
        "partition ,",
        "wait .s",
        "wait 1.5.5s",
        "wait ms",
        "wait é",
        "wait 1.ééé",
        "put k v size=.KB",
        "put k v size=1.KB",
        "cluster voters=1",
        "load rate=/s",
        "member add 1 --peer-url=\"é\"é",
        "say «ça» \"日本語 \u{1F600}\"",
        "\u{202E}crash 1",
        "put k v size=0.00000000000000000000000000000000000001GB",
        "put k v size=1.0000000000000000000000000000000000000000000000000KB",
        "wait 0.00000000000000000000000000000000000000000000000000000000s",
    ];
    for input in inputs {
        let _ = parse_command(input);
        let _ = parse_script(&format!("cluster voters=1\n{input}"));
        let _ = parse_script(input);
    }
    for input in [
        format!("wait {long}s"),
        format!("wait 1.{long}s"),
        format!("crash {long}"),
        format!("put k v size={long}B"),
        format!("put k v size=1.{long}B"),
        format!("cluster voters={long}"),
        format!("say \"{long}"),
        format!("expect commit>={long}"),
        format!("partition {long} | 1"),
        "x ".repeat(50_000),
    ] {
        let _ = parse_command(&input);
        let _ = parse_script(&input);
    }
    // A zero fraction is still a whole number.
    assert_eq!(
        cmd("wait 0.000000000000000000000000000000000000000000000s"),
        Command::Wait(0)
    );
    assert_eq!(
        parse_size("1.0000000000000000000000000000000000000000000000000KB"),
        Ok(1024)
    );
}

// ---- net, and the bound on waits ---------------------------------------------

#[test]
fn net_changes_the_fault_knobs() {
    assert_eq!(
        cmd("net loss=1% latency=5ms..200ms bandwidth=1MB/s"),
        Command::Net {
            loss_ppm: Some(10_000),
            latency: Some((5, 200)),
            bandwidth: Some(Some(1 << 20)),
        }
    );
    assert_eq!(
        cmd("net bandwidth=unlimited"),
        Command::Net {
            loss_ppm: None,
            latency: None,
            bandwidth: Some(None),
        }
    );
    assert_eq!(
        cmd("net latency=20ms loss=0.25%"),
        Command::Net {
            loss_ppm: Some(2_500),
            latency: Some((20, 20)),
            bandwidth: None,
        }
    );
    assert_eq!(cmd("net loss=100%").to_string(), "net loss=100%");
    assert_eq!(cmd("net loss=0.0001%").to_string(), "net loss=0.0001%");
    assert_eq!(
        cmd("net bandwidth=1024KB/s latency=20ms loss=1.50%").to_string(),
        "net loss=1.5% latency=20ms..20ms bandwidth=1MB/s"
    );
}

#[test]
fn net_errors() {
    assert_eq!(
        err("net"),
        (
            5,
            "missing options after \"net\"; expected loss=PERCENT, latency=MIN..MAX \
             or bandwidth=SIZE/s|unlimited"
                .into()
        )
    );
    assert_eq!(
        err("net loss=5"),
        (
            10,
            "expected a percentage like 1% or 0.5%, found \"5\"".into()
        )
    );
    assert_eq!(
        err("net loss=101%"),
        (10, "the loss \"101%\" is above 100%".into())
    );
    assert_eq!(
        err("net loss=0.00001%"),
        (
            10,
            "the loss \"0.00001%\" has more than four decimals".into()
        )
    );
    assert_eq!(
        err("net loss=-1%"),
        (
            10,
            "expected a percentage like 1% or 0.5%, found \"-1%\"".into()
        )
    );
    assert_eq!(
        err("net latency=30ms..10ms"),
        (
            13,
            "the latency minimum 30ms is above its maximum 10ms".into()
        )
    );
    assert_eq!(
        err("net bandwidth=0B/s"),
        (15, "the bandwidth must be at least 1B/s".into())
    );
    assert_eq!(
        err("net jitter=5ms"),
        (
            5,
            "unknown option \"jitter\" for net; expected loss, latency, bandwidth".into()
        )
    );
    assert_eq!(
        err("net loss=1% loss=2%"),
        (13, "duplicate option \"loss\"".into())
    );
}

#[test]
fn one_command_waits_at_most_an_hour() {
    assert_eq!(cmd("wait 3600s"), Command::Wait(MAX_WAIT_MS));
    assert_eq!(cmd("wait 3600000ms"), Command::Wait(3_600_000));
    let limit = "is longer than the limit of 3600s (one command lets at most an hour of \
                 simulated time pass)";
    assert_eq!(
        err("wait 100000000s"),
        (6, format!("the duration \"100000000s\" {limit}"))
    );
    assert_eq!(
        err("wait-until leader within=3601s"),
        (26, format!("the duration \"3601s\" {limit}"))
    );
    assert_eq!(
        err("put k v timeout=3600001ms"),
        (17, format!("the duration \"3600001ms\" {limit}"))
    );
}

#[cfg(not(target_arch = "wasm32"))]
mod props {
    use super::*;
    use proptest::prelude::*;

    fn id() -> impl Strategy<Value = NodeId> {
        1u64..=15
    }

    fn ids(min: usize) -> impl Strategy<Value = Vec<NodeId>> {
        proptest::sample::subsequence((1u64..=15).collect::<Vec<_>>(), min..=15).prop_shuffle()
    }

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z0-9/_.:-]{1,12}",
            any::<String>(),
            "[ \"\\\\#=a-z]{0,8}",
        ]
    }

    fn duration() -> impl Strategy<Value = u64> {
        prop_oneof![
            0u64..5000,
            (0u64..100).prop_map(|s| s * 1000),
            0..=MAX_WAIT_MS
        ]
    }

    fn net() -> impl Strategy<Value = Command> {
        (
            proptest::option::of(prop_oneof![0u32..=1_000_000, Just(10_000u32)]),
            proptest::option::of((0u64..5000, 0u64..5000)),
            proptest::option::of(proptest::option::of(1..=MAX_SIZE_BYTES)),
        )
            .prop_filter("at least one option", |(l, t, b)| {
                l.is_some() || t.is_some() || b.is_some()
            })
            .prop_map(|(loss_ppm, latency, bandwidth)| Command::Net {
                loss_ppm,
                latency: latency.map(|(a, b)| (a.min(b), a.max(b))),
                bandwidth,
            })
    }

    fn size() -> impl Strategy<Value = u64> {
        prop_oneof![
            0u64..5000,
            (0u64..=1024).prop_map(|k| k * 1024),
            0..=MAX_SIZE_BYTES
        ]
    }

    fn role() -> impl Strategy<Value = RoleName> {
        proptest::sample::select(RoleName::ALL.to_vec())
    }

    fn code() -> impl Strategy<Value = ErrorCode> {
        proptest::sample::select(ErrorCode::ALL.to_vec())
    }

    fn condition() -> impl Strategy<Value = Condition> {
        prop_oneof![
            Just(Condition::Leader),
            id().prop_map(Condition::LeaderIs),
            Just(Condition::NoLeader),
            id().prop_map(Condition::CaughtUp),
            Just(Condition::AllApplied),
            any::<u64>().prop_map(Condition::Quorum),
            ids(1).prop_map(Condition::Voters),
            ids(0).prop_map(Condition::Learners),
            ids(0).prop_map(Condition::VotersOutgoing),
            any::<u64>().prop_map(Condition::Term),
            any::<u64>().prop_map(Condition::CommitAtLeast),
            (id(), role()).prop_map(|(id, role)| Condition::Role { id, role }),
            (id(), proptest::sample::select(ProgressName::ALL.to_vec()))
                .prop_map(|(id, state)| Condition::Progress { id, state }),
            Just(Condition::Ok),
            code().prop_map(Condition::Error),
        ]
    }

    /// Distinct ids dealt into the five lists, each list ascending.
    fn joint_change() -> impl Strategy<Value = JointChange> {
        (
            ids(1),
            proptest::collection::vec(0usize..5, 15),
            any::<bool>(),
        )
            .prop_map(|(all, slots, explicit_leave)| {
                let mut lists: [Vec<NodeId>; 5] = Default::default();
                for (id, slot) in all.into_iter().zip(slots) {
                    lists[slot].push(id);
                }
                for l in &mut lists {
                    l.sort_unstable();
                }
                let [add, add_learner, promote, demote, remove] = lists;
                JointChange {
                    add,
                    add_learner,
                    promote,
                    demote,
                    remove,
                    explicit_leave,
                }
            })
    }

    fn link() -> impl Strategy<Value = (NodeId, NodeId, bool)> {
        (id(), id(), any::<bool>()).prop_filter("two nodes", |(a, b, _)| a != b)
    }

    fn partition() -> impl Strategy<Value = Vec<Vec<NodeId>>> {
        ids(2).prop_flat_map(|all| {
            let n = all.len();
            proptest::collection::vec(any::<bool>(), n - 1).prop_map(move |cuts| {
                // Split `all` into groups at the chosen points; force one split.
                let mut groups = vec![vec![all[0]]];
                for (i, cut) in cuts.iter().enumerate() {
                    if *cut || (i == n - 2 && groups.len() == 1) {
                        groups.push(Vec::new());
                    }
                    groups.last_mut().unwrap().push(all[i + 1]);
                }
                groups
            })
        })
    }

    /// A client's `timeout=` and `require-leader`.
    fn client() -> impl Strategy<Value = (Option<u64>, bool)> {
        (proptest::option::of(duration()), any::<bool>())
    }

    fn command() -> impl Strategy<Value = Command> {
        prop_oneof![
            duration().prop_map(Command::Wait),
            (condition(), duration())
                .prop_map(|(cond, within_ms)| Command::WaitUntil { cond, within_ms }),
            condition().prop_map(Command::Expect),
            proptest::option::of(id()).prop_map(|via| Command::Status { via }),
            any::<String>().prop_map(Command::Say),
            Just(Command::Pause),
            (
                text(),
                text(),
                proptest::option::of(id()),
                proptest::option::of(size()),
                any::<bool>(),
                client()
            )
                .prop_map(
                    |(key, value, via, size, nowait, (timeout_ms, require_leader))| Command::Put {
                        key,
                        value,
                        via,
                        size,
                        nowait,
                        timeout_ms,
                        require_leader
                    }
                ),
            (text(), proptest::option::of(id()), any::<bool>(), client()).prop_map(
                |(key, via, serializable, (timeout_ms, require_leader))| Command::Get {
                    key,
                    via,
                    serializable,
                    timeout_ms,
                    require_leader
                }
            ),
            (
                1..=MAX_LOAD_RATE_PER_S,
                proptest::option::of(size()),
                proptest::option::of(id())
            )
                .prop_map(|(rate_per_s, size, via)| Command::LoadStart {
                    rate_per_s,
                    size,
                    via
                }),
            Just(Command::LoadStop),
            (id(), any::<bool>(), proptest::option::of(text()), client()).prop_map(
                |(id, learner, peer_url, (timeout_ms, require_leader))| Command::MemberAdd {
                    id,
                    learner,
                    peer_url,
                    timeout_ms,
                    require_leader
                }
            ),
            (joint_change(), client()).prop_map(|(change, (timeout_ms, require_leader))| {
                Command::MemberChange {
                    change,
                    timeout_ms,
                    require_leader,
                }
            }),
            client().prop_map(|(timeout_ms, require_leader)| Command::MemberLeaveJoint {
                timeout_ms,
                require_leader,
            }),
            (id(), client()).prop_map(|(id, (timeout_ms, require_leader))| {
                Command::MemberPromote {
                    id,
                    timeout_ms,
                    require_leader,
                }
            }),
            (id(), client()).prop_map(|(id, (timeout_ms, require_leader))| {
                Command::MemberRemove {
                    id,
                    timeout_ms,
                    require_leader,
                }
            }),
            (any::<bool>(), client()).prop_map(|(serializable, (timeout_ms, require_leader))| {
                Command::MemberList {
                    serializable,
                    timeout_ms,
                    require_leader,
                }
            }),
            id().prop_map(Command::Start),
            id().prop_map(Command::Crash),
            id().prop_map(Command::Campaign),
            id().prop_map(Command::TransferLeader),
            id().prop_map(Command::Compact),
            link().prop_map(|(a, b, one_way)| Command::Cut { a, b, one_way }),
            proptest::option::of(link()).prop_map(|link| Command::Heal { link }),
            partition().prop_map(Command::Partition),
            id().prop_map(Command::Isolate),
            net(),
        ]
    }

    fn cluster_spec() -> impl Strategy<Value = ClusterSpec> {
        (
            ids(1),
            any::<u64>(),
            1u64..2000,
            0u64..=45_000,
            any::<(bool, bool, bool)>(),
            any::<(u64, u64, u64)>(),
            (0u64..500, 0u64..500),
            proptest::option::of(1..=MAX_SIZE_BYTES),
            (
                proptest::sample::select(Release::ALL.to_vec()),
                any::<bool>(),
            ),
        )
            .prop_map(
                |(
                    voters,
                    seed,
                    hb,
                    extra,
                    (pv, cq, sr),
                    (ml, sc, ce),
                    (l1, l2),
                    bw,
                    (etcd, st),
                )| {
                    ClusterSpec {
                        voters,
                        seed,
                        heartbeat_ms: hb,
                        election_timeout_ms: (hb * 5 + extra).min(MAX_ELECTION_TIMEOUT_MS),
                        prevote: pv,
                        check_quorum: cq,
                        strict_reconfig: sr,
                        // Only v3.6 lets it be set.
                        max_learners: if etcd.max_learners_settable() { ml } else { 1 },
                        snapshot_count: sc.max(1),
                        catchup_entries: ce,
                        latency_min_ms: l1.min(l2),
                        latency_max_ms: l1.max(l2),
                        bandwidth: bw,
                        transport: if st {
                            Transport::Streams
                        } else {
                            Transport::Shared
                        },
                        etcd,
                    }
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn render_then_parse_is_identity(c in command()) {
            let text = c.to_string();
            prop_assert_eq!(parse_command(&text), Ok(c), "{}", text);
        }

        #[test]
        fn cluster_render_then_parse_is_identity(spec in cluster_spec()) {
            let text = spec.to_string();
            let parsed = parse_script(&text).map(|s| s.cluster);
            prop_assert_eq!(parsed, Ok(spec), "{}", text);
        }

        #[test]
        fn parse_never_panics(s in any::<String>()) {
            let _ = parse_command(&s);
            let _ = parse_script(&s);
            let _ = parse_script(&format!("cluster voters=1\n{s}"));
        }

        #[test]
        fn parse_never_panics_on_language_soup(
            words in proptest::collection::vec(
                prop_oneof![
                    proptest::sample::select(COMMAND_NAMES.to_vec()).prop_map(String::from),
                    "[a-z0-9=,|.>\"\\\\#: -]{0,12}",
                    "[0-9]{1,30}(ms|s|B|KB|MB|GB|/s)?",
                    "(via|size|rate|within|--peer-url|voters|learners|role|commit>)=[0-9,.\"]{0,6}",
                ],
                0..8,
            )
        ) {
            let line = words.join(" ");
            let _ = parse_command(&line);
            let _ = parse_script(&format!("cluster {line}"));
        }

        #[test]
        fn errors_point_inside_or_just_past_the_line(s in "[a-z0-9=,|.>\"\\\\#: -]{0,40}") {
            if let Err(e) = parse_command(&s) {
                prop_assert!(e.column >= 1);
                prop_assert!(e.column <= s.chars().count() + 2, "{} {:?}", s, e);
            }
        }
    }
}
