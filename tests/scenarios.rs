//! The scenario scripts under tests/scenarios/ each state their outcome with
//! `expect`; a script passes when every expectation holds and no safety
//! property broke. Plus the runner's contract: exit codes and the report.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use raftlab::lang::ast::ErrorCode;
use raftlab::session::exec::Session;

fn scripts() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "scenario"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_scenario_script_holds() {
    let all = scripts();
    assert!(
        all.len() >= 10,
        "expected the scenario folder, found {}",
        all.len()
    );
    let mut failures = Vec::new();
    for (name, src) in &all {
        assert!(
            src.contains("expect") || src.contains("wait-until"),
            "{name} asserts nothing"
        );
        let session = Session::from_script(src).unwrap_or_else(|e| panic!("{name}: {e}"));
        let results = session.results();
        for (i, r) in results.iter().enumerate() {
            // A failed command must be one the script expects to fail.
            let expected = results
                .get(i + 1)
                .is_some_and(|next| next.command.starts_with("expect error="));
            if r.error == Some("expect-failed") || (!r.ok && !expected) {
                failures.push(format!(
                    "{name}:{}: {}: {}",
                    r.line,
                    r.command,
                    r.detail.clone().unwrap_or_default()
                ));
            }
        }
        for c in session.fleet().clusters() {
            for v in c.world().violations() {
                failures.push(format!("{name}: violation {}: {}", v.property, v.text));
            }
        }
        // Writes and linearizable reads alone are linearizable: etcd
        // promises it, and the history records them as etcd's clients see
        // them. Only a serializable read, or a weak read of a read-only
        // learner (the document's mode, served from its applied state), may
        // be stale.
        let verdict = session.cluster().linearizability();
        let may_be_stale = src.contains("serializable") || src.contains("--read-only=weak");
        if !verdict.ok && !may_be_stale {
            failures.push(format!("{name}: not linearizable: {:?}", verdict.anomaly));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_scripts_cover_every_error_code() {
    let mut seen = BTreeSet::new();
    for (_, src) in scripts() {
        for line in src.lines() {
            if let Some(code) = line
                .split_whitespace()
                .find_map(|w| w.strip_prefix("error="))
            {
                seen.insert(code.to_string());
            }
        }
    }
    let missing: Vec<&str> = ErrorCode::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|c| *c != "expect-failed" && !seen.contains(*c))
        .collect();
    assert!(missing.is_empty(), "no scenario expects {missing:?}");
}

#[test]
fn a_false_expectation_is_expect_failed_and_the_script_goes_on() {
    let s = Session::from_script(
        "cluster voters=1,2,3\nwait-until leader\nexpect no-leader\nexpect leader\n",
    )
    .unwrap();
    let r = s.results();
    assert_eq!(r[1].error, Some("expect-failed"));
    assert!(
        r[1].detail.as_deref().unwrap().contains("the leader is"),
        "{:?}",
        r[1].detail
    );
    assert!(r[2].ok);
    assert!(!s.passed());
}

#[test]
fn term_at_least_holds_from_that_term_on() {
    // Node 1 leads term 2; node 1 then crashes and another wins term 3: `term>=2` holds in both,
    // `term>=3` only once the second election has begun.
    let s = Session::from_script(
        "cluster voters=1,2,3 seed=1\ncampaign 1\nwait-until leader=1\n\
         expect term>=2\nexpect term>=3\ncrash 1\nwait-until term>=3 within=5s\n\
         expect term>=2\nexpect term>=4\n",
    )
    .unwrap();
    let r: Vec<(bool, Option<&str>)> = s.results().iter().map(|r| (r.ok, r.error)).collect();
    assert_eq!(
        r[2..],
        [
            (true, None),
            (false, Some("expect-failed")),
            (true, None),
            (true, None),
            (true, None),
            (false, Some("expect-failed")),
        ]
    );
    assert!(s.results()[3]
        .detail
        .as_deref()
        .unwrap()
        .contains("the term is 2"));
}

#[test]
fn the_same_script_gives_a_byte_identical_report() {
    for (name, src) in scripts() {
        let a = serde_json::to_string(&Session::from_script(&src).unwrap().report()).unwrap();
        let b = serde_json::to_string(&Session::from_script(&src).unwrap().report()).unwrap();
        assert_eq!(a, b, "{name} is not deterministic");
    }
}

#[test]
fn another_seed_gives_another_run() {
    let a = Session::from_script("cluster voters=1,2,3 seed=1\nwait-until leader\n").unwrap();
    let b = Session::from_script("cluster voters=1,2,3 seed=2\nwait-until leader\n").unwrap();
    assert_ne!(
        serde_json::to_string(&a.report()).unwrap(),
        serde_json::to_string(&b.report()).unwrap()
    );
}

#[test]
fn a_far_behind_learner_is_caught_up_by_snapshot() {
    let src = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/scenarios/snapshot_catch_up.scenario"),
    )
    .unwrap();
    let s = Session::from_script(&src).unwrap();
    let status = s.status();
    let node4 = status.nodes.iter().find(|n| n.id == 4).unwrap();
    assert!(
        node4.snapshot_index > 0,
        "node 4 should have installed a snapshot: {node4:?}"
    );
    assert_eq!(
        node4.applied,
        status
            .nodes
            .iter()
            .find(|n| Some(n.id) == status.leader)
            .unwrap()
            .commit
    );
}

#[test]
fn the_report_has_the_contract_fields_in_order() {
    let s = Session::from_script(
        "cluster voters=1,2,3\nwait-until leader\nput a 1\nget a\nget zz\nstatus\nmember list\n",
    )
    .unwrap();
    let json = serde_json::to_string(&s.report()).unwrap();
    let order = [
        "\"time_ms\"",
        "\"leader\"",
        "\"term\"",
        "\"quorum\"",
        "\"voters\"",
        "\"learners\"",
        "\"nodes\"",
        "\"progress\"",
        "\"results\"",
        "\"violations\"",
        "\"linearizability\"",
    ];
    let positions: Vec<usize> = order
        .iter()
        .map(|k| json.find(k).unwrap_or_else(|| panic!("{k} missing")))
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let results = v["results"].as_array().unwrap();
    assert!(results[1]["index"].as_u64().unwrap() > 0);
    assert_eq!(results[2]["value"], "1");
    assert!(results[3]["value"].is_null() && results[3].as_object().unwrap().contains_key("value"));
    assert!(results[4]["status"]["nodes"].as_array().unwrap().len() == 3);
    assert!(results[4]["status"].get("results").is_none());
    assert_eq!(results[5]["members"].as_array().unwrap().len(), 3);
    let node = &v["nodes"][0];
    for k in [
        "id",
        "role",
        "learner",
        "running",
        "term",
        "vote",
        "commit",
        "applied",
        "last_index",
        "snapshot_index",
        "msgs_in",
        "msgs_out",
    ] {
        assert!(node.get(k).is_some(), "node field {k} missing");
    }
    // put a, get a and get zz: one key written and read, one read absent.
    assert_eq!(
        v["linearizability"],
        serde_json::json!({"ok": true, "operations": 3, "keys": 2, "anomaly": null})
    );
}

/// Seed-independent: node 1 leads, writes 1, is cut off and deposed; the
/// others elect a leader and write 2; then node 1 is read serializably.
fn deposed_leader_read(seed: u64) -> String {
    format!(
        "cluster voters=1,2,3 seed={seed}\n\
         campaign 1\n\
         wait-until leader=1 within=5s\n\
         put k 1\n\
         wait-until all-applied\n\
         isolate 1\n\
         wait-until role 1=follower within=5s\n\
         wait-until leader within=10s\n\
         put k 2\n\
         get k via=1 serializable\n"
    )
}

#[test]
fn a_stale_read_is_flagged_with_the_write_it_missed_on_every_seed() {
    for seed in 1..=8 {
        let s = Session::from_script(&deposed_leader_read(seed)).unwrap();
        let r = s.results();
        assert!(r.iter().all(|r| r.ok), "seed {seed}: {r:#?}");
        assert_eq!(
            r.last().unwrap().value,
            Some(Some("1".into())),
            "seed {seed}"
        );
        let v = s.report().linearizability;
        assert!(!v.ok, "seed {seed}: the read is stale");
        assert_eq!((v.operations, v.keys), (3, 1), "seed {seed}");
        let a = v.anomaly.expect("an anomaly");
        assert_eq!(a.key, "k");
        let said: Vec<(String, Option<&str>)> = a
            .operations
            .iter()
            .map(|o| (format!("{:?}", o.kind), o.value.as_deref()))
            .collect();
        // The stale read, the write it missed, and the write it saw.
        assert_eq!(
            said,
            [
                ("Write".to_string(), Some("1")),
                ("Write".to_string(), Some("2")),
                ("Read".to_string(), Some("1"))
            ],
            "seed {seed}"
        );
        let (missed, read) = (&a.operations[1], &a.operations[2]);
        assert!(missed.response_ms.unwrap() <= read.invoke_ms);
        // The same read through the new leader is linearizable.
        let fresh = deposed_leader_read(seed).replace("get k via=1 serializable", "get k");
        let s = Session::from_script(&fresh).unwrap();
        assert_eq!(s.results().last().unwrap().value, Some(Some("2".into())));
        assert!(s.report().linearizability.ok, "seed {seed}");
    }
}

#[test]
fn runs_with_faults_and_linearizable_reads_are_linearizable_on_every_seed() {
    for seed in 1..=6 {
        let script = format!(
            "cluster voters=1,2,3,4,5 seed={seed} latency=5ms..40ms\n\
             wait-until leader\n\
             load rate=100/s size=100B\n\
             put a 1 nowait\n\
             get a via=2\n\
             partition 1,2 | 3,4,5\n\
             put a 2 timeout=2s\n\
             get a via=3\n\
             wait 3s\n\
             heal\n\
             wait-until leader within=10s\n\
             put a 3 nowait\n\
             get a via=4\n\
             wait 2s\n\
             load stop\n\
             wait-until all-applied within=10s\n\
             get a via=5\n\
             expect linearizable\n"
        );
        let s = Session::from_script(&script).unwrap();
        let v = s.report().linearizability;
        assert!(v.ok, "seed {seed}: {:?}", v.anomaly);
        assert!(
            v.operations > 500,
            "seed {seed}: {} operations",
            v.operations
        );
        assert!(s.passed(), "seed {seed}");
    }
}

#[test]
fn a_leader_sends_and_receives_more_raft_messages_than_a_follower() {
    let s = Session::from_script(
        "cluster voters=1,2,3 seed=5\ncampaign 1\nwait-until leader=1\nwait 5s\n",
    )
    .unwrap();
    let nodes = s.status().nodes;
    let (leader, follower) = (&nodes[0], &nodes[1]);
    // Heartbeats go out to both followers every 100ms; each answers.
    assert!(leader.msgs_out >= 2 * 45, "{leader:?}");
    assert!(leader.msgs_out > follower.msgs_out + 40, "{nodes:?}");
    assert!(leader.msgs_in > follower.msgs_in + 40, "{nodes:?}");
    // Messages are counted once each way: nothing is lost on this network.
    let sent: u64 = nodes.iter().map(|n| n.msgs_out).sum();
    let received: u64 = nodes.iter().map(|n| n.msgs_in).sum();
    let in_flight = s.cluster().in_flight().count() as u64;
    assert_eq!(sent, received + in_flight);
}

fn run_bin(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_raftlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn sees_itself_tells_a_nodes_own_view_from_the_clusters() {
    // Node 3 is promoted while node 1's messages to it are held: the
    // cluster counts it a voter, it still sees itself as a learner until
    // the promotion reaches it.
    let script = "cluster voters=1,2 seed=1\ncampaign 1\nwait-until leader=1 within=2s\n\
        wait 6s\nmember add 3 --learner\nstart 3\nwait 2s\nhold 1->3\nwait 1s\n\
        member promote 3\nexpect voters=1,2,3\nexpect sees-itself 3=voter\n\
        expect sees-itself 3=learner\nexpect sees-itself 1=learner\ncrash 2\n\
        expect sees-itself 2=voter\nrelease 1->3\nwait-until sees-itself 3=voter within=2s\n";
    let session = Session::from_script(script).unwrap();
    let checks: Vec<(&str, bool, String)> = session
        .results()
        .iter()
        .filter(|r| r.command.contains("sees-itself") || r.command.starts_with("expect voters"))
        .map(|r| {
            (
                r.command.as_str(),
                r.ok,
                r.detail.clone().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        checks,
        [
            ("expect voters=1,2,3", true, String::new()),
            (
                "expect sees-itself 3=voter",
                false,
                "expected sees-itself 3=voter, but node 3 sees itself as a learner".to_string()
            ),
            ("expect sees-itself 3=learner", true, String::new()),
            (
                "expect sees-itself 1=learner",
                false,
                "expected sees-itself 1=learner, but node 1 sees itself as a voter".to_string()
            ),
            (
                "expect sees-itself 2=voter",
                false,
                "expected sees-itself 2=voter, but node 2 is down".to_string()
            ),
            (
                "wait-until sees-itself 3=voter within=2s",
                true,
                String::new()
            ),
        ]
    );
}

#[test]
fn runner_exit_codes_follow_the_contract() {
    let (code, out, _) = run_bin(
        &["run", "-"],
        "cluster voters=1,2,3\nwait-until leader\nexpect leader\n",
    );
    assert_eq!(code, 0);
    assert!(out.contains("became leader for term"), "{out}");
    let (code, _, _) = run_bin(&["run", "-"], "cluster voters=1,2,3\nexpect leader\n");
    assert_eq!(code, 1);
    let (code, out, err) = run_bin(
        &["run", "-", "--json"],
        "cluster voters=1,2,3\nwait 1s\ncrash 99\n",
    );
    assert_eq!(code, 2);
    assert!(out.is_empty(), "nothing runs: {out}");
    assert!(err.contains("line 3, column 7"), "{err}");
    let (code, out, _) = run_bin(
        &["run", "-", "--json"],
        "cluster voters=1\nwait-until leader\n",
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["leader"], 1);
    let (code, _, err) = run_bin(&["run", "/no/such/file.scenario"], "");
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
    // Bytes that are not text: said as such, nothing runs.
    let dir = std::env::temp_dir().join(format!("raftlab-not-text-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let photo = dir.join("photo.scenario");
    std::fs::write(&photo, [0xff, 0xd8, 0xff, 0xe0, 0, 0x10]).unwrap();
    let (code, out, err) = run_bin(&["run", photo.to_str().unwrap()], "");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 2);
    assert!(out.is_empty(), "nothing runs: {out}");
    assert!(
        err.contains("photo.scenario is not a text file (a scenario is UTF-8 text)"),
        "{err}"
    );
}

fn scenario(name: &str) -> String {
    std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/scenarios")
            .join(name),
    )
    .unwrap()
}

/// The session after the script's lines up to (and without) the first line
/// that starts with `stop_at`.
fn run_until_line(name: &str, stop_at: &str) -> Session {
    let src = scenario(name);
    let head: String = src
        .lines()
        .take_while(|l| !l.starts_with(stop_at))
        .map(|l| format!("{l}\n"))
        .collect();
    Session::from_script(&head).unwrap()
}

#[test]
fn a_request_without_a_leader_waits_the_client_timeout() {
    // etcdserver processInternalRaftRequestOnce: the proposal waits; the
    // client's context ends first (etcdctl --command-timeout 5s).
    let mut s = run_until_line("no_leader_and_timeouts.scenario", "put a 1 via=1");
    for (line, waited) in [
        ("put a 1 via=1", 5_000),
        ("get a", 5_000),
        ("put a 1 timeout=1500ms", 1_500),
        ("member remove 3", 5_000),
        ("get a via=1 serializable", 0),
        ("put a 1 require-leader", 0),
        ("member list require-leader", 0),
    ] {
        let before = s.now();
        let r = s.command(line).unwrap();
        assert_eq!(s.now() - before, waited, "{line}");
        if waited > 0 {
            assert_eq!(r.error, Some("timeout"), "{line}");
            let detail = r.detail.unwrap();
            assert!(
                detail.starts_with("context deadline exceeded"),
                "{line}: {detail}"
            );
        }
    }
    // A client timeout past the server's own (5s plus two election
    // timeouts): a write and a forwarded promotion end there, a read, the
    // member list and a member change wait for the client (clientv3 retries
    // a Range or a MemberList; etcdserver configure waits on its context).
    // The promotion ends with waitLeader's ErrNoLeader, the others time out.
    for (line, waited, error) in [
        ("put a 1 timeout=20s", 7_000, "timeout"),
        ("delete a timeout=20s", 7_000, "timeout"),
        ("member promote 2 timeout=20s", 7_000, "no-leader"),
        ("get a timeout=20s", 20_000, "timeout"),
        ("member list timeout=20s", 20_000, "timeout"),
        ("member remove 3 timeout=20s", 20_000, "timeout"),
    ] {
        let before = s.now();
        let r = s.command(line).unwrap();
        assert_eq!(s.now() - before, waited, "{line}");
        assert_eq!(r.error, Some(error), "{line}");
    }
    // Within the client's timeout the client gives up first: its own
    // deadline, whatever the server then answers.
    let r = s.command("member promote 2").unwrap();
    assert_eq!(r.error, Some("timeout"));
    let r = s.command("put a 1 via=1 require-leader").unwrap();
    assert_eq!(r.error, Some("no-leader"));
    assert_eq!(
        r.detail.as_deref(),
        Some("member 1 knows no leader: etcdserver: no leader")
    );
}

#[test]
fn a_held_write_goes_on_once_a_leader_appears() {
    let s =
        Session::from_script(&scenario("requests_go_on_once_a_leader_appears.scenario")).unwrap();
    let put = s
        .results()
        .iter()
        .find(|r| r.command.starts_with("put early"))
        .unwrap();
    assert!(put.ok && !put.pending, "{put:?}");
    assert!(put.index.is_some());
    let get = s
        .results()
        .iter()
        .find(|r| r.command.starts_with("get early"))
        .unwrap();
    assert_eq!(get.value, Some(Some("1".to_string())));
}

#[test]
fn the_snapshot_sent_is_the_leaders_applied_state() {
    // createMergedSnapshotMessage: metadata index = the leader's applied
    // index, past its last saved snapshot, and the configuration includes
    // the learner being caught up.
    let s = Session::from_script(&scenario("snapshot_is_the_applied_state.scenario")).unwrap();
    let status = s.status();
    let node = |id| status.nodes.iter().find(|n| n.id == id).unwrap();
    let leader = node(status.leader.unwrap());
    let learner = node(4);
    assert!(learner.snapshot_index > 0, "{learner:?}");
    assert!(
        learner.snapshot_index > leader.snapshot_index,
        "learner {learner:?} leader {leader:?}"
    );
}

#[test]
fn a_misconfigured_member_fails_with_etcds_start_up_text() {
    let s = Session::from_script(&scenario("start_misconfigured_member.scenario")).unwrap();
    let starts: Vec<&str> = s
        .results()
        .iter()
        .filter(|r| r.command.starts_with("start"))
        .map(|r| r.detail.as_deref().unwrap())
        .collect();
    assert!(
        starts[0].contains(
            "creating peer listener failed\": listen tcp 10.0.0.9:2380: bind: cannot assign requested address"
        ),
        "{}",
        starts[0]
    );
    assert!(
        starts[1].contains("listen tcp n6:2380: bind"),
        "{}",
        starts[1]
    );
}

#[test]
fn under_load_every_follower_stays_in_replicate_for_30s() {
    // rafthttp peer.pick: MsgApp travels one ordered stream per peer, so a
    // follower on a healthy link never rejects an append. Checked every
    // 10ms, for every follower, for both transports.
    for transport in ["", " transport=streams"] {
        let src = format!(
            "cluster voters=1,2,3,4,5 seed=3 latency=5ms..80ms{transport}\n\
             wait-until leader\nwait 2s\nload rate=100/s size=1KB\nwait 1s\n"
        );
        let mut s = Session::from_script(&src).unwrap();
        let leader = s.status().leader.unwrap();
        for _ in 0..3_000 {
            s.advance(10);
            let status = s.status();
            assert_eq!(status.leader, Some(leader), "{transport}");
            assert_eq!(status.progress.len(), 4);
            for p in &status.progress {
                assert_eq!(
                    p.state, "replicate",
                    "{transport}: at {}ms the leader's progress for {} is {}",
                    status.time_ms, p.id, p.state
                );
            }
        }
        assert!(s.status().nodes.iter().all(|n| n.commit > 2_500));
    }
}

#[test]
fn the_report_names_the_release_and_each_nodes_queue() {
    let s = Session::from_script(&scenario("release_3_5_member_list.scenario")).unwrap();
    let v = serde_json::to_value(s.report()).unwrap();
    assert_eq!(v["etcd"], "3.5");
    let status = s.results().last().unwrap().status.as_ref().unwrap();
    assert_eq!(status.etcd, "3.5");
    assert!(v["nodes"][0]["queued_bytes"].is_u64());
    let s = Session::from_script("cluster voters=1,2\nwait 1s\n").unwrap();
    assert_eq!(serde_json::to_value(s.report()).unwrap()["etcd"], "3.6");
    // A large write queued behind a slow link shows in queued_bytes.
    let mut s =
        Session::from_script("cluster voters=1,2,3 bandwidth=64KB/s\nwait-until leader\n").unwrap();
    let leader = s.status().leader.unwrap();
    s.command("put big x size=512KB nowait").unwrap();
    s.advance(100);
    let queued = s
        .status()
        .nodes
        .iter()
        .find(|n| n.id == leader)
        .unwrap()
        .queued_bytes;
    assert!(
        queued > 512 * 1024,
        "two copies of 512KB, 100ms sent: {queued}"
    );
}

#[test]
fn a_learner_answers_the_member_status_request() {
    let s = Session::from_script(&scenario("learner_serves_status.scenario")).unwrap();
    let r = s
        .results()
        .iter()
        .find(|r| r.command == "status via=4")
        .unwrap();
    let st = r.member_status.as_ref().unwrap();
    assert!(st.is_learner);
    assert_eq!(st.version, "3.6");
    assert!(st.leader.is_some() && st.errors.is_empty());
    assert!(st.raft_applied_index > 0);
}

#[test]
fn v3_6_snapshots_every_100_entries_in_memory_earlier_releases_do_not() {
    let src = scenario("release_snapshots.scenario");
    let leader_snapshot = |release: &str| {
        let text = src.replacen("seed=9", &format!("seed=9 etcd={release}"), 1);
        let s = Session::from_script(&text).unwrap();
        let status = s.status();
        let leader = status.leader.unwrap();
        let n = status.nodes.iter().find(|n| n.id == leader).unwrap();
        (n.snapshot_index, n.applied)
    };
    let (snap, applied) = leader_snapshot("3.6");
    assert!(applied > 300, "{applied}");
    assert!(
        snap > 200 && snap + 101 > applied,
        "3.6: {snap} of {applied}"
    );
    for old in ["3.4", "3.5"] {
        assert_eq!(leader_snapshot(old).0, 0, "{old}");
    }
}

/// A cluster of three voters made as `cluster voters=1,2,3 seed=SEED`
/// makes it, at its start.
fn three_voters(seed: u64) -> raftlab::server::Cluster {
    let script =
        raftlab::lang::parse::parse_script(&format!("cluster voters=1,2,3 seed={seed}\n")).unwrap();
    let (world, server) = raftlab::session::exec::configs(&script.cluster);
    raftlab::server::Cluster::new(world, server, &[1, 2, 3])
}

/// A cluster of three with a leader, a follower that is behind it, and a
/// linearizable read through that follower which the leader confirmed and
/// the follower has not applied yet; `None` if `seed` never gets there.
fn a_read_confirmed_and_not_applied(
    seed: u64,
) -> Option<(raftlab::server::Cluster, u64, u64, u64)> {
    let mut c = three_voters(seed);
    c.run_until(3_000);
    let leader = c.leader()?;
    let f = (1..=3).find(|&id| id != leader).unwrap();
    // The follower misses a few writes, then hears again.
    c.world_mut().cut(leader, f);
    for i in 0..5 {
        c.put("k", &format!("v{i}"), Some(leader), None, 5_000, false)
            .ok()?;
    }
    c.world_mut().heal(leader, f);
    let raftlab::server::Call::Waiting(read) =
        c.begin_get("k", 0, Some(f), false, 5_000, false).ok()?
    else {
        return None;
    };
    while c.is_pending(read) && !c.world().read_confirmed(f, read) {
        c.step(u64::MAX);
    }
    c.is_pending(read).then_some((c, leader, f, read))
}

#[test]
fn a_confirmed_read_on_a_member_that_restarts_is_asked_again() {
    // The member's process dies with the read waiting to apply its read
    // index: the client's Range fails with Unavailable, and clientv3's
    // retry interceptor sends it again (`isSafeRetryImmutableRPC`), so the
    // read is answered by the restarted member, not left to time out.
    let (mut c, _, f, read) = (1..40)
        .find_map(a_read_confirmed_and_not_applied)
        .expect("a seed where the read waits to apply");
    let sent = c.now();
    assert!(c.world_mut().crash(f));
    c.run_until(c.now() + 100);
    c.start_process(f).unwrap();
    let answer = c.finish(read).into_read();
    assert_eq!(answer.map(|r| r.value), Ok(Some("v4".to_string())));
    assert!(
        c.now() < sent + 5_000,
        "answered within the client's timeout"
    );
}

#[test]
fn a_read_waiting_for_a_learner_that_comes_back_is_tried_again_until_it_is_promoted() {
    // The read is sent while the learner's process is down: the client
    // waits for a connection. The process comes back still a learner and
    // refuses the Range with Unavailable ("rpc not supported for
    // learner"), which clientv3 tries again every 25 ms
    // (`isSafeRetryImmutableRPC`): once the learner is promoted a try goes
    // through and the read is answered, not failed at the refusal.
    let mut c = three_voters(3);
    c.run_until(9_000);
    c.put("k", "v", None, None, 5_000, false).unwrap();
    c.member_add(4, true, None, 5_000, false).unwrap();
    c.start_process(4).unwrap();
    c.run_until(c.now() + 1_000);
    assert!(c.world_mut().crash(4));
    let raftlab::server::Call::Waiting(read) =
        c.begin_get("k", 0, Some(4), false, 5_000, false).unwrap()
    else {
        panic!("a read through a member that is down waits");
    };
    c.run_until(c.now() + 100);
    c.start_process(4).unwrap();
    c.run_until(c.now() + 300);
    assert!(
        c.is_pending(read),
        "refused by the learner, and tried again"
    );
    c.member_promote(4, 5_000, false).unwrap();
    let answer = c.finish(read).into_read();
    assert_eq!(answer.map(|r| r.value), Ok(Some("v".to_string())));
}

#[test]
fn a_read_index_no_leader_answered_is_sent_again_500ms_after_it_was_sent() {
    // etcd's `linearizableReadLoop` sends a ReadIndex again every 500ms
    // (`readIndexRetryTime`) until a leader answers it: at that moment, not
    // at whatever happens next after it. Sent at moments between heartbeats.
    use raftlab::raft::MessageType;
    for start in (3_001..3_100).step_by(7) {
        let mut c = three_voters(3);
        c.run_until(start);
        let leader = c.leader().expect("a leader");
        let f = (1..=3).find(|&id| id != leader).unwrap();
        let raftlab::server::Call::Waiting(read) =
            c.begin_get("k", 0, Some(f), false, 5_000, false).unwrap()
        else {
            panic!("a linearizable read waits for its read index");
        };
        let sent = c.now();
        let lost = c
            .world_mut()
            .drop_messages(f, leader, Some(MessageType::ReadIndex), None, None);
        assert_eq!(lost.len(), 1, "the ReadIndex on its way");
        let read_indexes = |c: &raftlab::server::Cluster| -> Vec<u64> {
            c.world()
                .network()
                .in_flight()
                .filter(|m| m.msg.from == f && m.msg.msg_type == MessageType::ReadIndex)
                .map(|m| m.sent_ms)
                .collect()
        };
        c.run_until(sent + 499);
        assert_eq!(read_indexes(&c), Vec::<u64>::new());
        // A step of the cluster's own sends it, not the end of run_until.
        c.run_until(sent + 501);
        assert_eq!(read_indexes(&c), vec![sent + 500], "sent at {sent}");
        let answer = c.finish(read).into_read();
        assert_eq!(answer.map(|r| r.value), Ok(None));
    }
}

#[test]
fn a_write_on_a_member_that_crashes_fails_and_its_next_process_does_not_answer_it() {
    // The client's connection dies with the process: the Put fails with
    // Unavailable (clientv3 retries no write once sent,
    // `isSafeRetryMutableRPC`). The write may still commit; the restarted
    // process applies it but never answers a request it did not take.
    let mut c = three_voters(3);
    c.run_until(3_000);
    let leader = c.leader().expect("a leader");
    let f = (1..=3).find(|&id| id != leader).unwrap();
    let put = c.start_put("k", "v", Some(f), None, 5_000, false).unwrap();
    assert!(c.is_pending(put));
    assert!(c.world_mut().crash(f));
    c.run_until(c.now() + 50);
    c.start_process(f).unwrap();
    c.run_until(c.now() + 2_000);
    assert!(!c.is_pending(put));
    let e = c.take_outcome(put).into_put().unwrap_err();
    assert_eq!(e.code, raftlab::server::ErrorCode::NotStarted);
    // It took effect all the same: the leader forwarded it before the crash.
    let read = c.get("k", 0, Some(leader), false, 5_000, false).unwrap();
    assert_eq!(read.value.as_deref(), Some("v"));
    // The next process answers what it takes.
    let put2 = c.start_put("k", "w", Some(f), None, 5_000, false).unwrap();
    assert!(c.finish(put2).into_put().is_ok());
    let read = c.get("k", 0, Some(f), false, 5_000, false).unwrap();
    assert_eq!(read.value.as_deref(), Some("w"));
}

/// A cluster of three with a leader, and a follower whose links to the
/// others are cut (`both`: both ways, else only what it sends), and its id.
fn a_cut_follower(seed: u64, both: bool) -> (raftlab::server::Cluster, u64) {
    let mut c = three_voters(seed);
    // etcd counts a peer connected after 5s: the strict removal check.
    c.run_until(9_000);
    let leader = c.leader().expect("a leader");
    let f = (1..=3).rev().find(|&id| id != leader).unwrap();
    for o in (1..=3).filter(|&id| id != f) {
        c.world_mut().cut(f, o);
        if both {
            c.world_mut().cut(o, f);
        }
    }
    (c, f)
}

#[test]
fn a_member_that_stops_after_its_own_removal_fails_its_writes_not_its_reads() {
    // etcd's server stops a second after applying its own removal
    // (`stopWithDelay`): a write still waiting for its entry ends with
    // ErrStopped (`processInternalRaftRequestOnce`), which clientv3 does not
    // retry for a Put (`isSafeRetryMutableRPC`); a linearizable read ends
    // with it too, but clientv3 retries a Range (`isSafeRetryImmutableRPC`)
    // and the member never comes back: the read waits for its deadline.
    let (mut c, f) = a_cut_follower(14, false);
    let raftlab::server::Call::Waiting(remove) = c.begin_member_remove(f, 5_000, false).unwrap()
    else {
        panic!("the removal waits to be applied");
    };
    let put = c.start_put("k", "v", Some(f), None, 20_000, false).unwrap();
    let raftlab::server::Call::Waiting(read) =
        c.begin_get("k", 0, Some(f), false, 20_000, false).unwrap()
    else {
        panic!("a linearizable read waits");
    };
    let sent = c.now();
    assert!(c.finish(remove).into_done().is_ok());
    assert!(
        c.world().raft(f).is_some(),
        "sent before {f} applied its own removal"
    );
    ends_server_stopped(&mut c, put, f, false);
    assert!(c.world().raft(f).is_none(), "{f} stopped");
    assert!(c.now() < sent + 2_000, "ended at once, at {}", c.now());
    assert!(c.is_pending(read), "the read is sent again, not failed");
    let e = c.finish(read).into_read().unwrap_err();
    assert_eq!(e.code, raftlab::server::ErrorCode::Timeout);
    assert_eq!(c.now(), sent + 20_000);
}

/// Steps `c` until the write `put` ends, and checks it failed because member
/// `f` stopped (`in_raft`: while it waited in raft's Propose for a leader).
fn ends_server_stopped(
    c: &mut raftlab::server::Cluster,
    put: raftlab::server::RequestId,
    f: u64,
    in_raft: bool,
) {
    while c.is_pending(put) {
        assert!(c.step(u64::MAX));
    }
    let e = c.take_outcome(put).into_put().unwrap_err();
    assert_eq!(e.code, raftlab::server::ErrorCode::ServerStopped);
    assert_eq!(
        e.why,
        raftlab::server::ErrorDetail::Stopped { id: f, in_raft }
    );
}

#[test]
fn a_write_waiting_for_a_leader_on_a_member_refused_as_removed_ends_with_raft_stopped() {
    // A member cut off when it was removed never learns it: it campaigns and
    // knows no leader, so a write it takes waits in raft's Propose. Once a
    // peer refuses it as removed its server stops (rafthttp's
    // errMemberRemoved on the server's error channel), the raft node with
    // it, and the write ends with raft's ErrStopped.
    let (mut c, f) = a_cut_follower(14, true);
    c.member_remove(f, 5_000, false).unwrap();
    while c.world().raft(f).is_some_and(|r| r.leader_id() != 0) {
        assert!(c.step(u64::MAX));
    }
    let put = c.start_put("k", "v", Some(f), None, 20_000, false).unwrap();
    let sent = c.now();
    c.run_until(sent + 100);
    assert!(c.is_pending(put), "held until {f} knows a leader");
    for o in (1..=3).filter(|&id| id != f) {
        c.world_mut().heal(f, o);
    }
    ends_server_stopped(&mut c, put, f, true);
    assert!(c.world().node(f).is_some_and(|n| n.removed));
    assert!(c.now() < sent + 5_000, "ended at once, at {}", c.now());
}

/// A bare `cluster` line stands for the world's and the server's defaults,
/// which the server layer's own tests build without the language.
#[test]
fn a_bare_cluster_line_is_the_world_and_server_defaults() {
    let s = raftlab::lang::parse::parse_script("cluster voters=1,2,3,4,5 seed=7\n").unwrap();
    let (world, server) = raftlab::session::exec::configs(&s.cluster);
    let defaults = raftlab::sim::WorldConfig {
        seed: 7,
        // The world knows no etcd release; the server's default one decides.
        conn_read_timeout_ms: raftlab::server::Release::default().silent_cut_noticed_after_ms(),
        ..Default::default()
    };
    assert_eq!(format!("{world:?}"), format!("{defaults:?}"));
    assert_eq!(server, raftlab::server::ServerConfig::default());
}

/// `isolate N` cuts N off from a member that runs for the first time later,
/// as the real-etcd driver's network does (N's host is cut from every
/// other), until `heal`.
#[test]
fn an_isolated_node_stays_cut_off_from_a_member_that_starts_later() {
    let run = |between: &str| {
        let script = format!(
            "cluster voters=1,2,3 seed=1\nwait-until leader\nwait 6s\nisolate 3\n{between}member add 4 --learner\nstart 4\nwait 3s\n"
        );
        raftlab::session::exec::Session::from_script(&script).unwrap()
    };
    let s = run("");
    let net = s.cluster().world().network();
    assert!(net.is_cut(3, 4) && net.is_cut(4, 3));
    assert!(!net.is_cut(1, 4) && !net.is_cut(4, 1));
    assert!(s.cluster().world().raft(4).is_some());
    // After `heal`, a new member is cut off from nothing.
    let s = run("heal\n");
    let net = s.cluster().world().network();
    assert!(!net.is_cut(3, 4) && !net.is_cut(4, 3));
}
