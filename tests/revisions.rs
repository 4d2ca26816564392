//! The scenario language's revisions (v2 section 6): `get KEY rev=R`,
//! `delete KEY`, `compaction REV`, and the `revision` and `mod_revision` a
//! get result carries, as etcd's mvcc store answers them.
#![cfg(not(target_arch = "wasm32"))]

use raftlab::session::exec::Session;

mod common;
use common::run;

/// (command, ok, error, value, revision, mod_revision) of every result.
type Row = (
    String,
    bool,
    Option<&'static str>,
    Option<Option<String>>,
    Option<u64>,
    Option<Option<u64>>,
);

fn rows(s: &Session) -> Vec<Row> {
    s.results()
        .iter()
        .map(|r| {
            (
                r.command.clone(),
                r.ok,
                r.error,
                r.value.clone(),
                r.revision,
                r.mod_revision,
            )
        })
        .collect()
}

fn row(s: &Session, command: &str) -> Row {
    rows(s)
        .into_iter()
        .find(|r| r.0 == command)
        .unwrap_or_else(|| panic!("no result for {command}"))
}

const WRITES: &str = "cluster voters=1,2,3 seed=4
wait-until leader
put k a
put k b
put other x
delete k
delete k
";

#[test]
fn a_get_carries_the_store_revision_and_the_keys_mod_revision() {
    let s = run(&format!(
        "{WRITES}get other\nget k\nget k rev=3\nget k rev=2\n"
    ));
    // put k a is revision 2 (an empty store is at 1), put k b 3, put other 4,
    // delete k 5; the second delete finds nothing and the revision stays.
    assert_eq!(
        row(&s, "get other"),
        (
            "get other".into(),
            true,
            None,
            Some(Some("x".into())),
            Some(5),
            Some(Some(4))
        )
    );
    assert_eq!(
        row(&s, "get k"),
        ("get k".into(), true, None, Some(None), Some(5), Some(None))
    );
    let r = row(&s, "get k rev=3");
    assert_eq!(
        (r.3, r.4, r.5),
        (Some(Some("b".into())), Some(5), Some(Some(3)))
    );
    let r = row(&s, "get k rev=2");
    assert_eq!((r.3, r.5), (Some(Some("a".into())), Some(Some(2))));

    let report = s.report_json();
    let get = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["command"] == "get k rev=3")
        .unwrap();
    assert_eq!(get["value"], "b");
    assert_eq!(get["revision"], 5);
    assert_eq!(get["mod_revision"], 3);
}

#[test]
fn a_delete_reports_what_it_deleted_and_the_revision() {
    let s = run(WRITES);
    let deletes: Vec<(Option<u64>, Option<u64>)> = s
        .results()
        .iter()
        .filter(|r| r.command == "delete k")
        .map(|r| (r.deleted, r.revision))
        .collect();
    assert_eq!(deletes, vec![(Some(1), Some(5)), (Some(0), Some(5))]);
}

#[test]
fn reads_outside_the_history_fail_with_etcds_errors() {
    let s = run(&format!(
        "{WRITES}get k rev=6\ncompaction 4\nget k rev=3\nget k rev=4\n\
         get k rev=3 serializable via=2\ncompaction 4\ncompaction 9\n"
    ));
    let outcome: Vec<(String, Option<&str>)> = s
        .results()
        .iter()
        .skip(6)
        .map(|r| (r.command.clone(), r.error))
        .collect();
    assert_eq!(
        outcome,
        vec![
            ("get k rev=6".into(), Some("future-rev")),
            ("compaction 4".into(), None),
            ("get k rev=3".into(), Some("compacted")),
            ("get k rev=4".into(), None),
            ("get k rev=3 serializable via=2".into(), Some("compacted")),
            ("compaction 4".into(), Some("compacted")),
            ("compaction 9".into(), Some("future-rev")),
        ]
    );
    // At the compaction's revision the read still works: k was "b" then.
    let r = row(&s, "get k rev=4");
    assert_eq!((r.3, r.5), (Some(Some("b".into())), Some(Some(3))));
}

#[test]
fn a_learner_refuses_deletes_and_compactions_but_serves_serializable_reads() {
    let s = run("cluster voters=1,2,3 seed=11
wait-until leader
wait 6s
put k v
member add 4 --learner
start 4
wait-until caught-up=4 within=10s
delete k via=4
compaction 2 via=4
get k via=4 serializable
");
    let outcome: Vec<(String, Option<&str>)> = s
        .results()
        .iter()
        .skip(5)
        .map(|r| (r.command.clone(), r.error))
        .collect();
    assert_eq!(
        outcome,
        vec![
            ("wait-until caught-up=4 within=10s".into(), None),
            ("delete k via=4".into(), Some("not-supported-for-learner")),
            (
                "compaction 2 via=4".into(),
                Some("not-supported-for-learner")
            ),
            ("get k via=4 serializable".into(), None),
        ]
    );
    assert_eq!(row(&s, "get k via=4 serializable").5, Some(Some(2)));
}

/// The history a compaction keeps is the same on every member: a member
/// that was down catches up (by log or snapshot) and reads the same.
#[test]
fn every_member_reads_the_same_history_after_a_compaction() {
    let s = run(
        "cluster voters=1,2,3 seed=9 snapshot-count=10 catchup-entries=3
wait-until leader
crash 3
put a 1
put a 2
put b 1
delete a
put a 3
compaction 5
put b 2
start 3
wait-until all-applied within=10s
get a rev=5 serializable via=1
get a rev=5 serializable via=3
get b rev=6 serializable via=3
get a rev=4 serializable via=3
",
    );
    let a1 = row(&s, "get a rev=5 serializable via=1");
    let a3 = row(&s, "get a rev=5 serializable via=3");
    assert_eq!((a1.3.clone(), a1.5), (a3.3.clone(), a3.5));
    assert_eq!(a3.3, Some(None), "a was deleted at 5");
    let b3 = row(&s, "get b rev=6 serializable via=3");
    assert_eq!((b3.3, b3.5), (Some(Some("1".into())), Some(Some(4))));
    assert_eq!(
        row(&s, "get a rev=4 serializable via=3").2,
        Some("compacted")
    );
    assert!(s.cluster().world().violations().is_empty());
}
