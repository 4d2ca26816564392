//! The scenario scripts under tests/scenarios/ each state their outcome with
//! `expect`; a script passes when every expectation holds and no safety
//! property broke. Plus the runner's contract: exit codes and the report.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use raftlab::scenario::{ErrorCode, Session};

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
        for v in session.cluster().world().violations() {
            failures.push(format!("{name}: violation {}: {}", v.property, v.text));
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
    ] {
        assert!(node.get(k).is_some(), "node field {k} missing");
    }
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
}
