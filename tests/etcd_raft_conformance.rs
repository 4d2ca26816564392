//! etcd-raft's own tests, run against raftlab: every data-driven test file
//! of etcd-io/raft (`quorum/testdata`, `confchange/testdata`, `testdata/`),
//! read in place from the shared material, through the adapters in
//! `tests/conformance/`. The per-file report is printed on every run.
#![cfg(not(target_arch = "wasm32"))]

mod conformance;

use std::io::Write;

use conformance::{data_dir, run_all, FileOutcome, SKIPS};

#[test]
fn etcd_raft_test_files_pass() {
    let dir = data_dir();
    let report = run_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    // Straight to stderr, past the test harness's capture: the report is
    // the point of this test.
    let _ = std::io::stderr().write_all(report.text().as_bytes());
    assert!(
        report.total("") >= 41,
        "etcd-raft has 41 test files; found {} in {}",
        report.total(""),
        dir.display()
    );
    assert_eq!(report.failed(""), 0, "\n{}", report.text());
    for (path, _) in SKIPS {
        let listed = report
            .files
            .iter()
            .any(|(p, o)| p == path && matches!(o, FileOutcome::Skipped { .. }));
        assert!(listed, "the skip of {path} names no file");
    }
}

/// README's front section states the result; it must be this run's.
#[test]
fn readme_states_the_pass_count() {
    let report = run_all(&data_dir()).unwrap_or_else(|e| panic!("{e}"));
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let claim = format!(
        "passes {} of etcd-raft's {} own test files",
        report.passed(""),
        report.total("")
    );
    assert!(readme.contains(&claim), "README.md should say \"{claim}\"");
    for (path, _) in SKIPS {
        assert!(
            readme.contains(path),
            "README.md should name the skipped {path}"
        );
    }
}
