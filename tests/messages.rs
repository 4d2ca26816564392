//! A hand on single messages, through the runner's report: the `messages`
//! list and its fields, held messages neither delivered nor lost and in
//! order, a drop told to its sender, `deliver-next` moving the clock to one
//! arrival, bad input changing nothing, and the same run twice.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;

use raftlab::session::exec::Session;

const ELECTED: &str = "cluster voters=1,2,3 seed=7\ncampaign 1\nwait-until leader=1 within=2s\n";

fn run(script: &str) -> Session {
    Session::from_script(script).unwrap_or_else(|e| panic!("{e}"))
}

fn messages(s: &Session) -> Vec<Value> {
    s.report_json()["messages"].as_array().cloned().unwrap()
}

fn on(list: &[Value], from: u64, to: u64) -> Vec<Value> {
    list.iter()
        .filter(|m| m["from"] == from && m["to"] == to)
        .cloned()
        .collect()
}

fn node(s: &Session, id: u64) -> Value {
    s.report_json()["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == id)
        .cloned()
        .unwrap()
}

#[test]
fn the_report_lists_every_message_with_exactly_the_issues_fields() {
    let s = run(&format!("{ELECTED}hold 1->2\nput x 1\nwait 300ms\n"));
    let list = messages(&s);
    assert!(!list.is_empty());
    let fields = [
        "id",
        "from",
        "to",
        "kind",
        "term",
        "index",
        "log_term",
        "entries",
        "commit",
        "reject",
        "bytes",
        "sent_ms",
        "arrives_ms",
        "held",
    ];
    for m in &list {
        let obj = m.as_object().unwrap();
        for k in obj.keys() {
            assert!(fields.contains(&k.as_str()), "extra field {k}: {m}");
        }
        for k in fields {
            // `arrives_ms` is absent exactly when held.
            if k == "arrives_ms" {
                assert_eq!(obj.contains_key(k), m["held"] == false, "{m}");
            } else {
                assert!(obj.contains_key(k), "no {k}: {m}");
            }
        }
    }
    let held = on(&list, 1, 2);
    assert!(held.len() >= 3, "{held:?}");
    assert!(held.iter().all(|m| m["held"] == true));
    assert!(held.iter().any(|m| m["kind"] == "app"));
    assert!(held.iter().any(|m| m["kind"] == "heartbeat"));
    // The other directions are not held.
    assert!(list
        .iter()
        .filter(|m| !(m["from"] == 1 && m["to"] == 2))
        .all(|m| m["held"] == false && m["arrives_ms"].is_u64()));
}

#[test]
fn held_messages_are_neither_delivered_nor_lost_and_keep_their_order() {
    let mut s = run(&format!("{ELECTED}hold 1->2\nput x 1\n"));
    let received = node(&s, 2)["msgs_in"].as_u64().unwrap();
    s.advance(2_000);
    // Node 2 received nothing meanwhile; nothing held was dropped.
    assert_eq!(node(&s, 2)["msgs_in"].as_u64().unwrap(), received);
    let held = on(&messages(&s), 1, 2);
    let ids: Vec<u64> = held.iter().map(|m| m["id"].as_u64().unwrap()).collect();
    let sent: Vec<u64> = held
        .iter()
        .map(|m| m["sent_ms"].as_u64().unwrap())
        .collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    assert!(sent.windows(2).all(|w| w[0] <= w[1]), "{sent:?}");
    // A heartbeat every 100ms for 2s, and the write's append: all still there.
    assert!(held.len() >= 20, "{}", held.len());
    let r = s.command("release 1->2").unwrap();
    assert!(r.ok, "{r:?}");
    let released: Vec<u64> = r.to_json()["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_u64().unwrap())
        .collect();
    assert_eq!(released, ids, "all of them, in send order");
    assert_eq!(
        node(&s, 2)["msgs_in"].as_u64().unwrap(),
        received + ids.len() as u64,
        "each delivered once"
    );
    assert!(on(&messages(&s), 1, 2).iter().all(|m| m["held"] == false));
}

#[test]
fn a_dropped_append_is_told_to_the_leader_which_probes_again() {
    let mut s = run(&format!(
        "{ELECTED}wait-until progress 2=replicate within=2s\nhold 1->2\nput x 1\n"
    ));
    let r = s.command("drop 1->2 kind=app count=1").unwrap();
    assert!(r.ok, "{r:?}");
    let dropped = &r.to_json()["messages"];
    assert_eq!(dropped.as_array().unwrap().len(), 1);
    assert_eq!(dropped[0]["kind"], "app");
    let progress = s.report_json()["progress"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == 2)
        .cloned()
        .unwrap();
    assert_eq!(progress["state"], "probe", "etcd's ReportUnreachable");
}

#[test]
fn deliver_next_moves_the_clock_to_one_arrival_and_delivers_that_message_alone() {
    let mut s = run(&format!("{ELECTED}put x 1 nowait\n"));
    for _ in 0..20 {
        let before = messages(&s);
        let now = s.now();
        let Some(first) = before
            .iter()
            .filter(|m| m["held"] == false)
            .min_by_key(|m| (m["arrives_ms"].as_u64().unwrap(), m["id"].as_u64().unwrap()))
            .cloned()
        else {
            break;
        };
        let r = s.command("deliver-next").unwrap();
        assert!(r.ok, "{r:?}");
        assert_eq!(r.to_json()["messages"][0]["id"], first["id"]);
        let at = first["arrives_ms"].as_u64().unwrap();
        assert_eq!(s.now(), at.max(now), "the clock moved to its arrival");
        let after = messages(&s);
        // That message is gone; every other one is still there, unchanged.
        assert!(!after.iter().any(|m| m["id"] == first["id"]));
        for m in before.iter().filter(|m| m["id"] != first["id"]) {
            assert!(after.contains(m), "{m} disappeared");
        }
    }
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let mut s = run(&format!("{ELECTED}hold 1->3\nput x 1 nowait\n"));
    let before = s.report_json();
    for line in [
        "hold 1->1",
        "hold 1->16",
        "drop 1->2 kind=nothing",
        "drop 1->2 count=0",
        "release 1->3 count=0",
        "drop 1 2",
    ] {
        assert!(s.command(line).is_err(), "{line}");
    }
    for line in ["hold 1->9", "drop 1->4", "release 9 1", "deliver-next 5->1"] {
        let r = s.command(line).unwrap();
        assert_eq!(r.error, Some("member-not-found"), "{line}: {r:?}");
    }
    let after = s.report_json();
    assert_eq!(before["messages"], after["messages"]);
    assert_eq!(before["nodes"], after["nodes"]);
    assert_eq!(before["time_ms"], after["time_ms"]);
}

#[test]
fn the_same_script_gives_the_same_run_twice() {
    let script = format!(
        "{ELECTED}hold 1 2\nput x 1 nowait\nwait 150ms\ndeliver-next\ndeliver-next 1->3\n\
         drop 1->2 kind=heartbeat count=1\nrelease 1->2 count=2\nwait 100ms\nrelease\n\
         deliver-next\nwait 1s\n"
    );
    assert_eq!(run(&script).report(), run(&script).report());
}

#[test]
fn time_travel_replays_held_messages_and_lands_after_a_deliver_next() {
    use raftlab::session::timeline::Timeline;
    let mut t = Timeline::from_script("cluster voters=1,2,3 seed=7").unwrap();
    t.command("campaign 1").unwrap();
    t.command("wait-until leader=1 within=2s").unwrap();
    t.command("hold 1->2").unwrap();
    t.command("put x 1").unwrap();
    t.advance(399);
    let held_at = t.now();
    let held = t.status_json()["messages"].clone();
    assert!(held.as_array().unwrap().iter().any(|m| m["held"] == true));
    t.advance(1);
    t.command("put y 2 nowait").unwrap();
    let before_jump = t.now();
    let r = t.command("deliver-next").unwrap();
    assert!(r.ok, "{r:?}");
    let after_jump = t.now();
    assert!(after_jump > before_jump, "the clock moved to the arrival");
    t.command("release 1->2 count=2").unwrap();
    t.advance(300);
    let end = t.report_json();
    // Back to a moment the messages were held (inside idle time, where a
    // seek lands exactly): the same messages, held.
    assert_eq!(t.seek(held_at), held_at);
    assert_eq!(t.status_json()["messages"], held);
    // A moment inside the jump lands where deliver-next ended.
    if after_jump > before_jump + 1 {
        assert_eq!(t.seek(before_jump + 1), after_jump);
    }
    // And forward again: the run as it was.
    t.go_live();
    assert_eq!(t.report_json()["messages"], end["messages"]);
    assert_eq!(t.report_json()["nodes"], end["nodes"]);
}

#[test]
fn a_deliver_next_with_only_held_messages_on_streams_fails_and_changes_nothing() {
    // On etcd's streams with a bandwidth, a held write still travels: its
    // stream has it to send, but no message will arrive to be delivered.
    let mut s = run(
        "cluster voters=1,2,3 seed=7 transport=streams bandwidth=1MB/s\ncampaign 1\n\
         wait-until leader=1 within=2s\nhold 1 2\nhold 1 3\nhold 2 3\nput x 1 size=64KB nowait\n",
    );
    let before = s.report_json();
    let r = s.command("deliver-next").unwrap();
    assert_eq!(r.error, Some("no-message"), "{r:?}");
    let after = s.report_json();
    assert_eq!(before["time_ms"], after["time_ms"], "the clock stayed");
    assert_eq!(before["messages"], after["messages"]);
    assert_eq!(before["nodes"], after["nodes"]);
}
