//! The design document's modes (docs/modes.md, src/server/modes.rs): what
//! each decides, checked on whole runs. The scripts in tests/scenarios/mode_*
//! check the membership outcomes with `expect`; these check what `expect`
//! cannot say: the values read, the messages a read costs, the decisions'
//! sentences and how often they are said, the report's member kinds.
#![cfg(not(target_arch = "wasm32"))]

use raftlab::session::exec::Session;
use raftlab::session::narrate::Said;
use raftlab::sim::EventKind;
use raftlab::words::renderer::Renderer;
use raftlab::words::text_en::English;

/// Runs `script`, which must hold its expectations; returns the session
/// and the sentences of the modes' decisions, in order.
fn run(script: &str) -> (Session, Vec<String>) {
    let mut session = Session::from_script(script).unwrap();
    let mut said = Vec::new();
    for line in session.take_narration() {
        if let Said::Event(e) = &line.said {
            if matches!(e.kind, EventKind::Mode { .. }) {
                said.push(English.event(e));
            }
        }
    }
    let failed: Vec<String> = session
        .results()
        .iter()
        .filter(|r| r.error == Some("expect-failed"))
        .map(|r| format!("line {}: {}: {:?}", r.line, r.command, r.detail))
        .collect();
    assert!(failed.is_empty(), "{failed:#?}\n{said:#?}");
    assert!(session.cluster().world().violations().is_empty());
    (session, said)
}

const READ_ONLY: &str = "\
cluster voters=1,2,3 max-learners=2
wait-until leader
wait 6s
member add 5 --learner --read-only=weak
start 5
member add 6 --learner --read-only=strong
start 6
put k v1
wait-until all-applied
";

#[test]
fn a_weak_read_is_answered_locally_and_may_be_stale() {
    let mut session = Session::from_script(READ_ONLY).unwrap();
    session.command("cut 1->5").unwrap();
    session.command("put k v2").unwrap();
    let deliveries = session.cluster().world().deliveries();
    let now = session.now();
    let r = session.command("get k via=5").unwrap();
    assert!(r.ok, "{:?}", r.detail);
    // Stale: the learner never received v2.
    assert_eq!(r.value, Some(Some("v1".to_string())));
    // Answered at once, with no message to anyone: no simulated time passed
    // and nothing was delivered.
    assert_eq!(session.now(), now);
    assert_eq!(session.cluster().world().deliveries(), deliveries);
    // An ordinary learner refuses the same read (etcd's rule).
    let mut plain = Session::from_script(
        "cluster voters=1,2,3\nwait-until leader\nwait 6s\nmember add 4 --learner\nstart 4\nwait-until caught-up=4\n",
    )
    .unwrap();
    let r = plain.command("get k via=4").unwrap();
    assert_eq!(r.error, Some("not-supported-for-learner"));
}

#[test]
fn a_strong_read_waits_and_times_out_rather_than_answer_stale() {
    let mut session = Session::from_script(READ_ONLY).unwrap();
    session.command("cut 1->6").unwrap();
    session.command("put k v2").unwrap();
    let deliveries = session.cluster().world().deliveries();
    let r = session.command("get k via=6 timeout=3s").unwrap();
    assert_eq!(r.error, Some("timeout"), "{:?}", r.value);
    assert_eq!(r.value, None);
    // It asked the leader (ReadIndex) and waited.
    assert!(session.cluster().world().deliveries() > deliveries);
    session.command("heal").unwrap();
    let r = session.command("get k via=6").unwrap();
    assert!(r.ok, "{:?}", r.detail);
    assert_eq!(r.value, Some(Some("v2".to_string())));
    // With no leader at all it waits too, and times out.
    session.command("crash 1").unwrap();
    session.command("crash 2").unwrap();
    session.command("wait 3s").unwrap();
    let r = session.command("get k via=6 timeout=2s").unwrap();
    assert_eq!(r.error, Some("timeout"));
    // The weak learner still answers, from what it has applied.
    let r = session.command("get k via=5").unwrap();
    assert_eq!(r.value, Some(Some("v2".to_string())));
}

#[test]
fn read_only_learners_are_reported_never_promoted_and_skipped_by_the_modes() {
    let script = "\
cluster voters=1,2,3 max-learners=2 auto-promote=50% failover-after=2s
wait-until leader
wait 6s
member add 5 --learner --read-only=weak
start 5
put k v1
wait-until caught-up=5
crash 3
wait 20s
expect learners=5
expect voters=1,2,3
";
    let (session, said) = run(script);
    // Neither auto-promotion nor failover touches it: no decision names it.
    assert!(said.iter().all(|s| !s.contains("learner 5")), "{said:#?}");
    let report = session.report_json();
    let node = |id: u64| {
        report["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["id"] == id)
            .unwrap()
            .clone()
    };
    assert_eq!(node(5)["read_only"], "weak");
    assert_eq!(node(5)["standby"], false);
    assert_eq!(node(1)["read_only"], serde_json::Value::Null);
}

#[test]
fn auto_promotion_waits_while_behind_and_says_why_without_flooding() {
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/scenarios/mode_auto_promote.scenario"
    ))
    .unwrap();
    let (_, said) = run(&script);
    // "not yet: 47% < 90% (match 1023 of 2173)" lines for learner 4, then
    // one promotion whose numbers hold the threshold.
    let not_yet: Vec<&String> = said
        .iter()
        .filter(|s| s.contains("learner 4, not yet: ") && s.contains("% < 90%"))
        .collect();
    assert!(not_yet.len() >= 3, "{said:#?}");
    let promoted: Vec<&String> = said
        .iter()
        .filter(|s| s.starts_with("leader 1 promotes learner 4: match "))
        .collect();
    assert_eq!(promoted.len(), 1, "{said:#?}");
    let nums: Vec<u64> = promoted[0]
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    // leader, learner, match, last, percent
    let (matched, last) = (nums[2], nums[3]);
    assert!(matched * 100 >= 90 * last, "{}", promoted[0]);
    assert!(promoted[0].ends_with("≥ 90%"), "{}", promoted[0]);
    // A "not yet" is said when its reason changes (here: a new tens of
    // percent), not at every look (one a second for about 30s).
    let tens: Vec<u64> = not_yet
        .iter()
        .map(|s| {
            let after = s.split("not yet: ").nth(1).unwrap();
            after.split('%').next().unwrap().parse::<u64>().unwrap() / 10
        })
        .collect();
    assert!(tens.windows(2).all(|w| w[0] != w[1]), "{not_yet:#?}");
    assert!(not_yet.len() < 20, "{not_yet:#?}");
    // The misconfigured learner and the cut-off one: only "never heard".
    for id in [5, 6] {
        let first = said
            .iter()
            .find(|s| s.contains(&format!("learner {id}, not yet")))
            .unwrap();
        assert!(
            first.ends_with("the leader has never heard from it"),
            "{first}"
        );
    }
    // The misconfigured one is never promoted; the cut-off one only after
    // the heal, once it has caught up.
    assert!(!said.iter().any(|s| s.contains("promotes learner 5:")));
    let healed_6 = said
        .iter()
        .position(|s| s.contains("learner 6, not yet: ") && s.contains("% < 90%"))
        .unwrap();
    let promoted_6 = said
        .iter()
        .position(|s| s.contains("promotes learner 6:"))
        .unwrap();
    assert!(healed_6 < promoted_6);
}

#[test]
fn the_threshold_decides_when_a_learner_is_promoted() {
    // The same learner under the same load: with 100% it never quite
    // catches up while writes keep coming; with 50% it goes sooner than with 90%.
    let script = |percent: &str| {
        format!(
            "cluster voters=1,2,3 auto-promote={percent} bandwidth=2MB/s transport=streams\n\
             wait-until leader\nload rate=100/s size=4KB\nwait 20s\n\
             member add 4 --learner\nstart 4\n"
        )
    };
    let promoted_at = |percent: &str| {
        let mut s = Session::from_script(&script(percent)).unwrap();
        s.command("wait-until voters=1,2,3,4 within=60s").unwrap();
        let r = s.results().last().unwrap().clone();
        r.ok.then(|| s.now())
    };
    let at_50 = promoted_at("50%").expect("promoted at 50%");
    let at_90 = promoted_at("90%").expect("promoted at 90%");
    assert!(at_50 < at_90, "{at_50} {at_90}");
    assert_eq!(promoted_at("100%"), None);
}

#[test]
fn a_standby_is_reported_and_only_promoted_by_failover() {
    let script = "\
cluster voters=1,2,3 auto-promote=90% seed=3
wait-until leader
wait 6s
member add 4 --learner --standby
start 4
wait-until caught-up=4
wait 10s
expect learners=4
";
    let (mut session, said) = run(script);
    // Caught up and healthy, yet auto-promotion leaves a standby alone.
    assert!(said.is_empty(), "{said:#?}");
    let standby = |s: &Session| {
        s.report_json()["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["id"] == 4)
            .unwrap()["standby"]
            .clone()
    };
    assert_eq!(standby(&session), true);
    session.command("crash 2").unwrap();
    session.command("wait 12s").unwrap();
    let r = session.command("expect voters=1,3,4").unwrap();
    assert!(r.ok, "{:?}", r.detail);
    // Once promoted it is a voter like any other.
    assert_eq!(standby(&session), false);
}

#[test]
fn failover_replaces_remove_first_then_promote() {
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/scenarios/mode_failover.scenario"
    ))
    .unwrap();
    let (_, said) = run(&script);
    let pos = |needle: &str| {
        said.iter()
            .position(|s| s.contains(needle))
            .unwrap_or_else(|| panic!("no {needle:?} in {said:#?}"))
    };
    let countdown = pos("has not heard from voter 3");
    let remove = pos("removes voter 3 first, then promotes standby 4");
    let promote = pos("promotes standby 4 to replace voter 3");
    assert!(countdown < remove && remove < promote, "{said:#?}");
}

#[test]
fn a_flapping_voter_is_not_failed_over() {
    // Cut for 5s, healed for 2s, again and again: never silent for the
    // 10s failover-after, so the membership never changes.
    let mut script = String::from(
        "cluster voters=1,2,3 seed=3\nwait-until leader\nwait 6s\n\
         member add 4 --learner --standby\nstart 4\nwait-until caught-up=4\n",
    );
    for _ in 0..5 {
        script.push_str("cut 1 3\nwait 5s\nheal\nwait 2s\n");
    }
    script.push_str("expect voters=1,2,3\nexpect learners=4\n");
    let (_, said) = run(&script);
    assert!(
        said.iter().any(|s| s.contains("hears from voter 3 again")),
        "{said:#?}"
    );
    assert!(!said.iter().any(|s| s.contains("fails over")), "{said:#?}");
}

#[test]
fn without_a_ready_standby_failover_says_why() {
    // The standby was never started: the leader never heard from it.
    let script = "\
cluster voters=1,2,3 failover-after=2s seed=3
wait-until leader
wait 6s
member add 4 --learner --standby
crash 3
wait 10s
expect voters=1,2,3
expect learners=4
";
    let (_, said) = run(script);
    let blocked: Vec<&String> = said
        .iter()
        .filter(|s| s.contains("cannot fail over voter 3"))
        .collect();
    // Said once, not at every look.
    assert_eq!(blocked.len(), 1, "{said:#?}");
    assert!(blocked[0].contains("standby 4, not yet: the leader has never heard from it"));
}

#[test]
fn learner_by_default_changes_only_a_bare_add() {
    let (session, _) = run("cluster voters=1,2,3 new-members=learner\nwait-until leader\nwait 6s\nmember add 4\nexpect learners=4\nexpect quorum=2\n");
    assert_eq!(session.report_json()["nodes"].as_array().unwrap().len(), 4);
    // Off (the default), a bare add adds a voter as etcd does.
    run("cluster voters=1,2,3\nwait-until leader\nwait 6s\nmember add 4\nexpect voters=1,2,3,4\n");
    // --learner still works with the mode on; --voter overrides it.
    run("cluster voters=1,2,3 new-members=learner\nwait-until leader\nwait 6s\nmember add 4 --learner\nexpect learners=4\nmember remove 4\nmember add 5 --voter\nexpect voters=1,2,3,5\n");
}

#[test]
fn msgs_conditions_count_what_the_previous_command_cost_each_node() {
    // A weak read costs nobody a message; a strong one costs the leader
    // messages in and out; a `wait` after a command changes nothing (the
    // count is the command's own, from its start to its end).
    run(&format!(
        "{READ_ONLY}get k via=5\nexpect msgs-out 1=0\nexpect msgs-in 1=0\nexpect msgs-out 5=0\n\
         wait 2s\nexpect msgs-out 1<=0\n\
         get k via=6\nexpect msgs-out 6>=1\nexpect msgs-in 1>=1\nexpect msgs-out 1>=1\n"
    ));
    // A strong read that costs the leader nothing is a failed expectation,
    // which says what was counted.
    let mut session = Session::from_script(READ_ONLY).unwrap();
    session.command("get k via=6").unwrap();
    let r = session.command("expect msgs-out 1=0").unwrap();
    assert_eq!(r.error, Some("expect-failed"));
    let detail = r.detail.unwrap();
    assert!(
        detail.starts_with("expected msgs-out 1=0, but node 1 sent ")
            && detail.ends_with(" messages during the previous command"),
        "{detail}"
    );
    // Before any command that can fail there is nothing to count.
    let mut fresh = Session::from_script("cluster voters=1\n").unwrap();
    let r = fresh.command("expect msgs-in 1=0").unwrap();
    assert_eq!(r.error, Some("expect-failed"));
    assert!(r.detail.unwrap().contains("there is no previous command"));
}

#[test]
fn the_leader_looks_at_its_learners_at_least_once_per_election_timeout() {
    // A learner started at ten different moments of the leader's cycle, in a
    // quiet cluster: it catches up within a few heartbeats, so the leader
    // promotes it within an election timeout of that (the look is periodic,
    // v2 spec §3), whichever moment it started at. Were the look made every
    // two election timeouts, some of these starts would wait longer.
    let mut worst = 0;
    for offset_ms in (0..1000).step_by(97) {
        let script = format!(
            "cluster voters=1,2,3 auto-promote=90% election-timeout=1000ms
wait-until leader
wait 6s
put a 1
member add 4 --learner
wait {}ms
start 4
wait-until voters=1,2,3,4 within=10s
",
            5000 + offset_ms
        );
        let mut session = Session::from_script(&script).unwrap();
        let lines = session.take_narration();
        let started = lines
            .iter()
            .find_map(|line| match &line.said {
                Said::Result(r) if r.command == "start 4" => Some(line.time_ms),
                _ => None,
            })
            .unwrap();
        let promoted = lines
            .iter()
            .find_map(|line| match &line.said {
                Said::Event(e) if English.event(e).contains("promotes learner 4:") => {
                    Some(line.time_ms)
                }
                _ => None,
            })
            .unwrap_or_else(|| panic!("never promoted when started after {offset_ms} ms"));
        assert!(
            session.results().iter().all(|r| r.ok),
            "{:?}",
            session.results()
        );
        worst = worst.max(promoted - started);
    }
    // Catching up takes a heartbeat or two (100 ms each) and a round trip.
    assert!(worst <= 1000 + 300, "a promotion waited {worst} ms");
    // And the look is not continuous either: no promotion is instant.
    assert!(worst > 0);
}
