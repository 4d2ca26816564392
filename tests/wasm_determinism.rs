//! The engine gives the same run in the browser as natively, byte for byte:
//! the report of the golden script equals the one recorded natively.
#![cfg(target_arch = "wasm32")]

use raftlab::session::exec::Session;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn the_golden_run_is_the_same_in_wasm() {
    let script = include_str!("golden/determinism.scenario");
    let golden = include_str!("golden/determinism.json");
    let session = Session::from_script(script).unwrap();
    let report = serde_json::to_string_pretty(&session.report()).unwrap() + "\n";
    assert!(
        report == golden,
        "wasm run differs from the native golden report"
    );
}
