//! The report of tests/golden/determinism.scenario is kept in
//! determinism.json, and that of messages.scenario (a hand on single
//! messages) in messages.json: the engine must give each byte for byte,
//! here and in the browser (tests/wasm_determinism.rs,
//! tests/wasm_messages.rs). A deliberate change of behaviour shows up in
//! review as a change of those files; regenerate them with
//! `RAFTLAB_BLESS=1 cargo test --test golden`.
#![cfg(not(target_arch = "wasm32"))]

use raftlab::session::exec::Session;

#[test]
fn the_golden_run_is_reproduced_byte_for_byte() {
    golden("determinism");
}

#[test]
fn the_golden_run_by_hand_is_reproduced_byte_for_byte() {
    golden("messages");
}

fn golden(name: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let script = std::fs::read_to_string(dir.join(format!("{name}.scenario"))).unwrap();
    let session = Session::from_script(&script).unwrap();
    assert!(
        session.passed(),
        "the golden run must hold its expectations"
    );
    let report = serde_json::to_string_pretty(&session.report()).unwrap() + "\n";
    let path = dir.join(format!("{name}.json"));
    if std::env::var_os("RAFTLAB_BLESS").is_some() {
        std::fs::write(&path, &report).unwrap();
    }
    let golden = std::fs::read_to_string(&path).unwrap();
    assert!(
        report == golden,
        "the run differs from tests/golden/{name}.json"
    );
}
