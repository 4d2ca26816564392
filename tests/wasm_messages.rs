//! A hand on single messages in the browser's module: the lessons that need
//! it hold on twenty seeds there as natively, and a run that holds,
//! releases, drops and delivers single messages gives the same report in
//! wasm as natively (the page draws the same dots where a click finds them).
#![cfg(target_arch = "wasm32")]

use raftlab::lessons;
use raftlab::session::exec::Session;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const RAFT_LESSONS: [&str; 4] = [
    "18-figure-8-an-old-entry-overwritten",
    "18b-figure-8-the-leaders-own-entry-commits-it",
    "19-the-election-restriction",
    "20-a-learner-votes",
];

#[wasm_bindgen_test]
fn the_lessons_of_rafts_own_story_hold_on_twenty_seeds_in_wasm() {
    for id in RAFT_LESSONS {
        let lesson = lessons::find(id).unwrap_or_else(|| panic!("no lesson {id}"));
        for seed in 1..=20 {
            let s = lesson.with_seed(seed).run();
            let surprises = lessons::surprises(&s.results().to_vec());
            assert!(
                surprises.is_empty(),
                "{id} seed={seed}: {:?}",
                surprises
                    .iter()
                    .map(|r| (r.line, r.command.clone(), r.detail.clone()))
                    .collect::<Vec<_>>()
            );
            assert!(s.results().iter().all(|r| !r.pending), "{id} seed={seed}");
            for c in s.fleet().clusters() {
                assert!(c.world().violations().is_empty(), "{id} seed={seed}");
            }
        }
    }
}

/// The same script natively (`tests/messages.rs` runs it twice) and here:
/// its report, held messages, drops and deliveries included, is the same
/// JSON in both (the golden file is the native run's).
#[wasm_bindgen_test]
fn a_run_by_hand_gives_the_native_report() {
    let script = include_str!("golden/messages.scenario");
    let golden = include_str!("golden/messages.json");
    let session = Session::from_script(script).unwrap();
    let report = serde_json::to_string_pretty(&session.report()).unwrap() + "\n";
    assert!(report == golden, "wasm run differs from the native report");
}
