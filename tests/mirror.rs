//! A second cluster and the mirror maker (v2 section 6): `cluster ...
//! name=NAME` adds an independent cluster, commands act in the cluster of
//! the node they name, and `mirror start M from=N to=D [prefix=P]` copies
//! one cluster into another as etcdctl make-mirror does, through links that
//! can be cut; the report's `clusters` and `mirrors`.
#![cfg(not(target_arch = "wasm32"))]

use raftlab::session::exec::Session;
use raftlab::session::view::{key_history, FleetView};
use serde_json::Value;

mod common;
use common::{last_result as result, run};

fn cluster(s: &Session, name: &str) -> Value {
    s.report_json()["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no cluster {name}"))
        .clone()
}

fn mirror(s: &Session, id: u64) -> Value {
    s.report_json()["mirrors"]
        .as_array()
        .unwrap_or_else(|| panic!("no mirrors in the report"))
        .iter()
        .find(|m| m["id"] == id)
        .unwrap_or_else(|| panic!("no mirror {id}"))
        .clone()
}

/// Failed commands the script did not expect to fail, and failed expectations.
fn surprises(s: &Session) -> Vec<String> {
    let results = s.results();
    let mut out = Vec::new();
    for (i, r) in results.iter().enumerate() {
        let expected = results
            .get(i + 1)
            .is_some_and(|n| n.command.starts_with("expect error="));
        if r.error == Some("expect-failed") || (!r.ok && !expected) {
            out.push(format!(
                "{}: {} {:?}",
                r.command,
                r.error.unwrap_or(""),
                r.detail
            ));
        }
    }
    out
}

const TWO: &str = "cluster voters=1,2,3 seed=2
cluster voters=11,12,13 name=east
wait 3s
";

#[test]
fn a_second_cluster_elects_its_own_leader_independently() {
    let s = run(TWO);
    let main = cluster(&s, "main");
    let east = cluster(&s, "east");
    let lm = main["leader"].as_u64().expect("main has a leader");
    let le = east["leader"].as_u64().expect("east has a leader");
    assert!((1..=3).contains(&lm), "{main}");
    assert!((11..=13).contains(&le), "{east}");
    assert_eq!(east["voters"], serde_json::json!([11, 12, 13]));
    // The top-level fields stay the first cluster's.
    assert_eq!(s.report_json()["leader"], lm);
    assert_eq!(s.report_json()["voters"], serde_json::json!([1, 2, 3]));
    // Crashing every voter of main leaves east's leader in place.
    let s = run(&format!("{TWO}crash 1\ncrash 2\ncrash 3\nwait 3s\n"));
    assert_eq!(cluster(&s, "main")["leader"], Value::Null);
    assert_eq!(cluster(&s, "east")["leader"], le);
    // No Raft message crosses: east's members never heard of main's.
    assert!(s.passed(), "{:?}", surprises(&s));
}

#[test]
fn every_run_reports_its_one_cluster_and_no_mirrors() {
    let s = run("cluster voters=1,2,3\nwait-until leader\nput a b\n");
    let r = s.report_json();
    assert_eq!(r["clusters"].as_array().unwrap().len(), 1);
    assert_eq!(r["clusters"][0]["name"], "main");
    assert_eq!(r["clusters"][0]["revision"], 2);
    assert!(r.get("mirrors").is_none(), "{r}");
}

#[test]
fn via_routes_a_request_to_the_cluster_of_its_node() {
    let s = run(&format!(
        "{TWO}put k east-value via=12\nput k main-value\nget k via=11\nexpect value=east-value\n\
         get k via=2\nexpect value=main-value\nget j via=13\nexpect absent\n\
         delete k via=11\nget k via=12\nexpect absent\nget k\nexpect value=main-value\n"
    ));
    assert!(s.passed(), "{:?}", surprises(&s));
    // Each cluster counts its own revisions: main wrote once, east twice.
    assert_eq!(cluster(&s, "main")["revision"], 2);
    assert_eq!(cluster(&s, "east")["revision"], 3);
    // A node-naming command acts in that node's cluster; a condition about
    // a node looks at its cluster.
    let s = run(&format!(
        "{TWO}campaign 13\nwait-until leader=13 within=3s\nexpect role 13=leader\nexpect voters=11,12,13\n\
         put k v via=11\nexpect msgs-out 11>=1\nexpect msgs-in 13>=1\ncrash 12\nexpect role 12=down\n"
    ));
    assert!(s.passed(), "{:?}", surprises(&s));
}

#[test]
fn refusals_are_clear_and_change_nothing() {
    // Ids shared with the first cluster.
    let s = run("cluster voters=1,2,3\ncluster voters=3,4,5 name=x\nexpect error=id-exists\n");
    assert!(s.passed(), "{:?}", surprises(&s));
    assert_eq!(s.report_json()["clusters"].as_array().unwrap().len(), 1);
    let d = result(&s, "cluster voters=3,4,5 name=x")["detail"].clone();
    assert!(d.as_str().unwrap().contains("cluster main"), "{d}");
    // A name taken.
    let s = run(&format!("{TWO}cluster voters=14 name=east\nexpect error=id-exists\ncluster voters=15 name=main\nexpect error=id-exists\n"));
    assert!(s.passed(), "{:?}", surprises(&s));
    // A second cluster line needs a name; the first may only be main.
    let e = Session::from_script("cluster voters=1\ncluster voters=2\n").unwrap_err();
    assert!(e.message.contains("name=NAME"), "{e}");
    let e = Session::from_script("cluster voters=1 name=west\n").unwrap_err();
    assert!(e.message.contains("main"), "{e}");
    assert!(Session::from_script("cluster voters=1 name=main\n").is_ok());
    let e = Session::from_script("cluster voters=1\ncluster voters=2 name=\"a b\"\n").unwrap_err();
    assert!(e.message.contains("cluster name"), "{e}");
    // Unknown nodes, links across clusters, mirror ids.
    let s = run(&format!(
        "{TWO}crash 9\nexpect error=member-not-found\ncut 1 11\nexpect error=member-not-found\n\
         mirror start 2 from=1 to=11\nexpect error=id-exists\n\
         mirror start 9 from=1 to=2\nexpect error=member-not-found\n\
         mirror start 9 from=1 to=14\nexpect error=member-not-found\n\
         mirror start 9 from=1 to=11\nexpect ok\nmirror start 9 from=2 to=12\nexpect error=id-exists\n\
         mirror stop 7\nexpect error=member-not-found\nmember add 9\nexpect error=id-exists\n\
         member add 12\nexpect error=id-exists\ncluster voters=9 name=z\nexpect error=id-exists\n"
    ));
    assert!(s.passed(), "{:?}", surprises(&s));
    let d = result(&s, "cut 1 11")["detail"].clone();
    assert!(d.as_str().unwrap().contains("different clusters"), "{d}");
    let s = run(&format!("{TWO}mirror start 9 from=1 to=11\ncut 9 2\nexpect error=member-not-found\ncut 9 12\nexpect error=member-not-found\ncut 9 11\nexpect ok\n"));
    assert!(s.passed(), "{:?}", surprises(&s));
    assert_eq!(s.report_json()["mirrors"].as_array().unwrap().len(), 1);
    assert_eq!(s.report_json()["voters"], serde_json::json!([1, 2, 3]));
    // Parse errors name what is missing.
    for (line, word) in [
        ("mirror start 9 to=11", "from=N"),
        ("mirror start 9 from=1", "to=N"),
        ("mirror go 9", "mirror subcommand"),
        ("expect mirror 9=sleeping", "mirror state"),
    ] {
        let mut s = run(TWO);
        let before = s.report_json();
        let e = s.command(line).unwrap_err();
        assert!(e.message.contains(word), "{line}: {e}");
        assert_eq!(s.report_json(), before);
    }
}

const MIRRORED: &str = "cluster voters=1,2,3 seed=5
cluster voters=11,12,13 name=copy
wait 3s
put a 1
put b 2
mirror start 9 from=1 to=11
wait-until mirror 9=watching within=10s
";

#[test]
fn the_base_sync_copies_the_keys_then_the_watch_relays_each_write() {
    let s = run(&format!(
        "{MIRRORED}put a 3\ndelete b\nput c 4\nwait 1s\nget a via=11\nexpect value=3\n\
         get b via=12\nexpect absent\nget c via=13\nexpect value=4\n"
    ));
    assert!(s.passed(), "{:?}", surprises(&s));
    let m = mirror(&s, 9);
    assert_eq!(m["state"], "watching");
    assert_eq!(m["from"], 1);
    assert_eq!(m["to"], 11);
    assert_eq!(m["error"], Value::Null);
    assert_eq!(m["detail"], Value::Null);
    // Source: a 2, b 3 (the base, at revision 3), then a 4, delete 5, c 6.
    assert_eq!(m["base_revision"], 3);
    assert_eq!(m["last_revision"], 6);
    let fleet = FleetView::of(s.fleet());
    assert_eq!(fleet.mirrors[0].base_keys, 2);
    assert_eq!(fleet.mirrors[0].relayed, 3);
    assert_eq!(fleet.clusters[1].name, "copy");
    // The narration tells the start, the base sync and the relays.
    let text: Vec<String> = s.report_json()["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["command"].as_str().unwrap().to_string())
        .collect();
    assert!(text.iter().any(|c| c == "mirror start 9 from=1 to=11"));
}

#[test]
fn a_prefix_mirrors_only_its_keys() {
    let s = run("cluster voters=1,2,3 seed=5
cluster voters=11,12,13 name=copy
wait 3s
put app/a 1
put other 2
mirror start 9 from=1 to=11 prefix=app/
wait-until mirror 9=watching within=10s
put app/b 3
put else 4
wait 1s
get app/a via=11
expect value=1
get app/b via=11
expect value=3
get other via=11
expect absent
get else via=11
expect absent
");
    assert!(s.passed(), "{:?}", surprises(&s));
    assert_eq!(mirror(&s, 9)["prefix"], "app/");
}

#[test]
fn a_cut_link_to_the_source_pauses_the_mirror_and_healing_resumes_it() {
    let s = run(&format!(
        "{MIRRORED}cut 9 1\nput a 5\nput a 6\nwait 2s\nget a via=11\nexpect value=1\n\
         expect mirror 9=watching\nheal 9 1\nwait 1s\nget a via=11\nexpect value=6\n"
    ));
    assert!(s.passed(), "{:?}", surprises(&s));
    let m = mirror(&s, 9);
    assert_eq!(m["state"], "watching");
    // The watch resumed from the revision after the last one received.
    let watches = s.report_json()["watches"].as_array().unwrap().clone();
    assert_eq!(watches.len(), 2, "{watches:?}");
    assert_eq!(watches[1]["start_revision"], 4);
    assert_eq!(m["last_revision"], 5);
    // Both writes came over, in order, as the destination's own revisions.
    let h = key_history(s.fleet(), "a");
    let copy: Vec<Option<String>> = h[1].versions.iter().map(|v| v.value.clone()).collect();
    assert_eq!(copy, [Some("1".into()), Some("5".into()), Some("6".into())]);
}

#[test]
fn a_cut_link_to_the_destination_holds_the_writes_until_it_heals() {
    let s = run(&format!(
        "{MIRRORED}cut 9 11\nput a 5\nwait 3s\nget a via=11\nexpect value=1\nheal\nwait 1s\nget a via=11\nexpect value=5\n"
    ));
    assert!(s.passed(), "{:?}", surprises(&s));
    assert_eq!(mirror(&s, 9)["state"], "watching");
    // isolate cuts both of a mirror's links.
    let s = run(&format!(
        "{MIRRORED}isolate 9\nput a 7\nwait 2s\nget a via=11\nexpect value=1\nheal 9 11\nheal 9 1\nwait 1s\nget a via=11\nexpect value=7\n"
    ));
    assert!(s.passed(), "{:?}", surprises(&s));
}

#[test]
fn a_compaction_past_the_paused_mirror_fails_it_with_etcds_error() {
    let s = run(&format!(
        "{MIRRORED}cut 9 1\nput a 5\nput a 6\ncompaction 5\nexpect ok\nheal 9 1\n\
         expect mirror 9=failed\nexpect mirror-error 9=compacted\nput a 7\nwait 1s\nget a via=11\nexpect value=1\n"
    ));
    assert!(s.passed(), "{:?}", surprises(&s));
    let m = mirror(&s, 9);
    assert_eq!(m["state"], "failed");
    // The code, as a failed command's result names it, and etcd's text.
    assert_eq!(m["error"], "compacted");
    assert_eq!(
        m["detail"],
        "etcdserver: mvcc: required revision has been compacted"
    );
    assert_eq!(m["last_revision"], 3);
    // A compaction at the very revision the watch wants next leaves it be.
    let s = run(&format!(
        "{MIRRORED}cut 9 1\nput a 5\ncompaction 4\nheal 9 1\nwait 1s\nexpect mirror 9=watching\nget a via=11\nexpect value=5\n"
    ));
    assert!(s.passed(), "{:?}", surprises(&s));
    // And a mirror stopped stays stopped.
    let s = run(&format!(
        "{MIRRORED}mirror stop 9\nexpect mirror 9=stopped\nput a 8\nwait 1s\nget a via=11\nexpect value=1\nmirror stop 9\nexpect ok\n"
    ));
    assert!(s.passed(), "{:?}", surprises(&s));
}

#[test]
fn the_destination_keeps_its_own_revisions() {
    let s = run(&format!(
        "{MIRRORED}put a 5\nput a 6\nwait 1s\nget a via=1\nget a via=11\n"
    ));
    assert!(s.passed(), "{:?}", surprises(&s));
    let src = result(&s, "get a via=1");
    let dst = result(&s, "get a via=11");
    assert_eq!(src["value"], dst["value"]);
    // Source: a 2, b 3, a 4, a 5; the copy: its base a 2, b 3, then 4, 5 —
    // equal here because nothing else wrote to it: write into the copy and
    // they part.
    let s2 = run(&format!(
        "{MIRRORED}put x 0 via=12\nput a 5\nwait 1s\nget a via=1\nget a via=11\n"
    ));
    let src = result(&s2, "get a via=1");
    let dst = result(&s2, "get a via=11");
    assert_eq!(src["value"], dst["value"]);
    assert_ne!(src["mod_revision"], dst["mod_revision"], "{src} {dst}");
    // The key history keeps what each store holds, per cluster.
    let h = key_history(s2.fleet(), "a");
    assert_eq!(h[0].cluster, "main");
    assert_eq!(h[1].cluster, "copy");
    let revs = |i: usize| h[i].versions.iter().map(|v| v.revision).collect::<Vec<_>>();
    assert_eq!(revs(0), [2, 4]);
    assert_eq!(revs(1), [2, 5]);
    assert_eq!(h[1].versions[1].version, 2);
    assert_eq!(h[1].versions[1].create_revision, 2);
}

#[test]
fn the_same_script_gives_the_same_report() {
    let script = format!(
        "{MIRRORED}cut 9 1\nput a 5\nheal 9 1\nload rate=50/s via=12\nwait 2s\nload stop\nwait 1s\n"
    );
    let a = run(&script).report_json();
    let b = run(&script).report_json();
    assert_eq!(a, b);
    // The history replays to the same run.
    let s = run(&script);
    let again = run(&s.history().join("\n"));
    assert_eq!(again.report_json()["clusters"], a["clusters"]);
    assert_eq!(again.report_json()["mirrors"], a["mirrors"]);
    // A console `cluster ... name=` line adds a cluster too.
    let mut s = run("cluster voters=1,2,3\nwait 1s\n");
    s.command("cluster voters=11 name=solo").unwrap();
    s.advance(3_000);
    assert_eq!(cluster(&s, "solo")["leader"], 11);
    assert!(s.command("cluster voters=12").is_err());
}

#[test]
fn member_commands_go_to_the_cluster_via_names() {
    let s = run(&format!(
        "{TWO}wait 3s\nmember add 14 --learner via=12\nexpect ok\nstart 14\nexpect ok\n\
         member list via=13\nexpect ok\nmember add 14 --learner\nexpect error=id-exists\n\
         wait-until caught-up=14 within=5s\nmember promote 14\nexpect ok\nexpect voters=11,12,13,14\n\
         expect voters=1,2,3\nmember add 5 --learner via=11\nexpect ok\nexpect learners=5\n"
    ));
    assert!(s.passed(), "{:?}", surprises(&s));
    let listed = result(&s, "member list via=13")["members"].clone();
    let ids: Vec<u64> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [11, 12, 13, 14]);
    assert_eq!(cluster(&s, "main")["voters"], serde_json::json!([1, 2, 3]));
}

#[test]
fn time_travel_and_links_keep_every_cluster_and_mirror() {
    use raftlab::session::share::{decode_link, encode_link};
    use raftlab::session::timeline::Timeline;
    let mut t = Timeline::from_script(&format!("{MIRRORED}put a 5\nwait 1s\n")).unwrap();
    t.command("cut 9 1").unwrap();
    t.advance(1_500);
    t.command("put a 6").unwrap();
    t.advance(2_000);
    t.command("heal").unwrap();
    t.advance(1_000);
    let live = t.status_json();
    assert_eq!(live["mirrors"][0]["last_revision"], 5, "{live}");
    // Back to before the cut, then live again: the same states.
    let mid = t.seek(t.end() - 3_000);
    let there = t.status_json();
    assert_eq!(there["mirrors"][0]["last_revision"], 4, "{there}");
    assert_eq!(there["clusters"].as_array().unwrap().len(), 2);
    t.go_live();
    assert_eq!(t.status_json(), live);
    // A link holds the run: the second cluster and the mirror come back.
    t.seek(mid);
    let back = decode_link(&encode_link(&t)).unwrap();
    assert_eq!(back.status_json(), there);
    assert_eq!(back.history(), t.history());
}

#[test]
fn with_no_leader_the_key_history_reads_a_running_member_before_a_stopped_one() {
    // 3 is cut off and misses the later writes; 1 and 2 hold them, then stop.
    let s = run("cluster voters=1,2,3\nwait-until leader\nput a 1\nwait 1s\n\
         cut 3 1\ncut 3 2\nput a 2\nput a 3\nwait 1s\ncrash 1\ncrash 2\nheal 3 1\nheal 3 2\nwait 1s\n");
    let h = key_history(s.fleet(), "a");
    assert_eq!(h[0].node, Some(3), "{h:?}");
    let seen: Vec<Option<String>> = h[0].versions.iter().map(|v| v.value.clone()).collect();
    assert_eq!(seen, [Some("1".into())]);
    // The report's cluster revision is the same member's.
    assert_eq!(cluster(&s, "main")["revision"], h[0].revision);
    // With every member down, a stopped one's store stands for the cluster.
    let s = run(
        "cluster voters=1,2,3\nwait-until leader\nput a 1\nwait 1s\ncrash 1\ncrash 2\ncrash 3\n",
    );
    assert!(key_history(s.fleet(), "a")[0].node.is_some());
}

#[test]
fn a_destination_that_crashes_under_a_write_ends_the_mirror() {
    // The destination member is cut from its peers, so the mirror's write
    // waits there; then its process dies. The write's connection dies with
    // it: the Put fails with Unavailable, which clientv3 does not retry once
    // sent (`isSafeRetryMutableRPC`), and make-mirror returns it, rather
    // than waiting for the server's request timeout.
    let s = run(&format!(
        "{MIRRORED}cut 11 12\ncut 11 13\ncut 12 11\ncut 13 11\nput a 3\nwait 1s\n\
         expect mirror 9=watching\ncrash 11\nwait 100ms\n\
         expect mirror 9=failed\nexpect mirror-error 9=not-started\n"
    ));
    assert!(s.passed(), "{:?}", surprises(&s));
    assert_eq!(mirror(&s, 9)["state"], "failed");
}

#[test]
fn an_answer_that_arrives_while_the_link_is_cut_is_read_once_it_heals() {
    // The mirror's write waits on the destination's leader (cut from its
    // peers for less than an election timeout); the mirror's own link to
    // it is cut; the write then commits.
    // Its answer is read once the link is back: the write succeeded, and
    // the mirror goes on.
    let s = run(&format!(
        "{MIRRORED}transfer-leader 11\nwait-until leader=11 within=5s\n\
         cut 11 12\ncut 11 13\ncut 12 11\ncut 13 11\nput a 3\nwait 300ms\n\
         cut 9 11\nheal 11 12\nheal 11 13\nheal 12 11\nheal 13 11\nwait 1s\n\
         heal 9 11\nwait 1s\nexpect mirror 9=watching\nget a via=11\nexpect value=3\n\
         put a 4\nwait 1s\nget a via=12\nexpect value=4\n"
    ));
    assert!(s.passed(), "{:?} {}", surprises(&s), mirror(&s, 9));
    assert_eq!(mirror(&s, 9)["error"], Value::Null);
}
