//! `watch KEY [prefix] [from-rev=R] [via=N]` (v2 section 6): the result
//! lists the events received so far and is kept up to date; the report's
//! `watches`; cancellation by a compaction, as etcd's watchable store does.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::json;

mod common;
use common::{first_result as result, run};

// The wait lets every member apply `put k a`: a watch from the next write
// starts after the revision its own member has applied.
const START: &str = "cluster voters=1,2,3 seed=3
wait-until leader
put k a
wait 1s
";

#[test]
fn a_watch_result_lists_the_events_received_since_and_grows() {
    let s = run(&format!(
        "{START}watch k via=3\nput k b\nput other x\ndelete k\nput k c\nwait 1s\n"
    ));
    let r = result(&s, "watch k via=3");
    assert_eq!(r["ok"], true);
    assert_eq!(r["watch"], 1);
    // put k a is revision 2; b 3, other 4, the delete 5, c 6.
    assert_eq!(
        r["events"],
        json!([
            {"revision": 3, "type": "put", "key": "k", "value": "b", "version": 2},
            {"revision": 5, "type": "delete", "key": "k", "value": null, "version": null},
            {"revision": 6, "type": "put", "key": "k", "value": "c", "version": 1},
        ])
    );
    let w = &s.report_json()["watches"][0];
    assert_eq!(w["node"], 3);
    assert_eq!(w["key"], "k");
    assert_eq!(w["prefix"], false);
    assert_eq!(w["start_revision"], 0);
    assert_eq!(w["next_revision"], 7);
    assert_eq!(w["canceled"], false);
    assert_eq!(w["events"], r["events"]);
}

#[test]
fn a_report_without_watches_has_no_watches_field() {
    let s = run(START);
    assert!(s.report_json().get("watches").is_none());
}

#[test]
fn a_prefix_watch_from_an_old_revision_replays_the_history() {
    let s = run(&format!(
        "{START}put app/x 1\nput zzz 2\nput app/y 3\nwatch app/ prefix from-rev=1\n"
    ));
    let r = result(&s, "watch app/ prefix from-rev=1");
    let keys: Vec<&str> = r["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["app/x", "app/y"]);
}

#[test]
fn a_compacted_start_revision_cancels_the_watch_with_the_compact_revision() {
    let s = run(&format!(
        "{START}put k b\nput k c\ncompaction 3\nwatch k from-rev=2\nwatch k from-rev=3\n"
    ));
    let r = result(&s, "watch k from-rev=2");
    assert_eq!(r["ok"], false);
    assert_eq!(r["error"], "compacted");
    assert_eq!(r["compact_revision"], 3);
    assert_eq!(r["events"], json!([]));
    // At the compaction revision itself the record is kept: served.
    let r = result(&s, "watch k from-rev=3");
    assert_eq!(r["ok"], true);
    assert_eq!(r["events"].as_array().unwrap().len(), 2);
    let w = &s.report_json()["watches"][0];
    assert_eq!(w["canceled"], true);
    assert_eq!(w["compact_revision"], 3);
}

#[test]
fn an_up_to_date_watcher_is_never_cancelled_by_a_compaction() {
    let s = run(&format!(
        "{START}watch k via=2\nput k b\nput k c\ncompaction 4\nput k d\nwait 1s\n"
    ));
    let r = result(&s, "watch k via=2");
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["events"].as_array().unwrap().len(), 3);
}

#[test]
fn a_watch_on_a_member_that_was_down_catches_up_when_it_returns() {
    // Node 3 is down while k changes and the history is compacted: nothing
    // arrives meanwhile; once it runs again it applies the writes it missed
    // (each before the compaction) and its watcher receives them.
    let mut s = run(&format!(
        "{START}watch k via=3\ncrash 3\nput k b\nput k c\ncompaction 4\n"
    ));
    assert_eq!(result(&s, "watch k via=3")["events"], json!([]));
    s.command("start 3").unwrap();
    s.advance(2000);
    let r = result(&s, "watch k via=3");
    assert_eq!(r["ok"], true, "{r}");
    let revs: Vec<u64> = r["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["revision"].as_u64().unwrap())
        .collect();
    assert_eq!(revs, [3, 4]);
}

#[test]
fn a_learner_refuses_a_watch_and_a_bad_watch_changes_nothing() {
    let mut s = run(&format!(
        "{START}wait 6s\nmember add 4 --learner\nstart 4\nwait 2s\nwatch k via=4\n"
    ));
    assert_eq!(
        result(&s, "watch k via=4")["error"],
        "not-supported-for-learner"
    );
    assert!(s.report_json().get("watches").is_none());
    assert!(s.command("watch k from-rev=x").is_err());
    let r = s.command("watch k via=9").unwrap();
    assert!(!r.ok);
    assert!(s.report_json().get("watches").is_none());
}

#[test]
fn watch_conditions_count_events_and_see_a_cancellation() {
    let s = run(&format!(
        "{START}watch k\nput k b\nwait-until watch-events 1>=1 within=2s\n\
         expect watch-events 1=1\nexpect watch-events 1<=1\nexpect watch-events 1>=2\n\
         expect watch-canceled 1\nexpect watch-events 7=0\n"
    ));
    let rs = s.report_json()["results"].as_array().unwrap().clone();
    let ok = |c: &str| rs.iter().find(|r| r["command"] == c).unwrap()["ok"] == true;
    assert!(ok("wait-until watch-events 1>=1 within=2s"));
    assert!(ok("expect watch-events 1=1"));
    assert!(ok("expect watch-events 1<=1"));
    assert!(!ok("expect watch-events 1>=2"));
    assert!(!ok("expect watch-canceled 1"));
    let missing = rs
        .iter()
        .find(|r| r["command"] == "expect watch-events 7=0")
        .unwrap();
    assert!(missing["detail"]
        .as_str()
        .unwrap()
        .contains("there is no watch 7"));
}

#[test]
fn watch_events_are_in_the_narration() {
    let mut s = run(START);
    s.take_narration();
    s.command("watch k").unwrap();
    s.command("put k b").unwrap();
    let text: Vec<String> = s
        .take_narration()
        .iter()
        .map(|l| format!("{l:?}"))
        .collect();
    assert!(text.iter().any(|t| t.contains("WatchEvents")), "{text:?}");
}
