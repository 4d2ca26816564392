//! The fuzzer's hand on single messages: a share of its runs holds,
//! releases, drops and delivers single messages, and those runs pass the
//! same checks (safety, linearizability, liveness, durability) after a
//! final phase that releases whatever is held.
#![cfg(not(target_arch = "wasm32"))]

use raftlab::fuzz;

#[test]
fn a_share_of_the_runs_holds_releases_and_drops_single_messages_and_passes() {
    let mut by_hand = Vec::new();
    let mut released_at_the_end = 0;
    for seed in 1..=40 {
        let run = fuzz::run_seed(seed, 20_000);
        let lines: Vec<&str> = run.script.lines().collect();
        let hand = |word: &str| lines.iter().any(|l| l.starts_with(word));
        if hand("hold ") {
            assert!(
                run.outcome.passed(),
                "seed {seed}: {:?}\n{}",
                run.outcome.failures,
                run.reproducer()
            );
            by_hand.push(seed);
            if run.outcome.final_phase.iter().any(|l| l == "release") {
                released_at_the_end += 1;
            }
        }
    }
    // A share of the runs, not all of them nor none.
    assert!((4..=20).contains(&by_hand.len()), "{by_hand:?}");
    // Some ended with a direction still held, which the final phase released.
    assert!(released_at_the_end >= 1, "{by_hand:?}");
}
