//! In a share of the runs, now and then a command on the store's history
//! instead of the one drawn: a watch (from a past revision now and then), an
//! MVCC compaction (`compaction REV`, sometimes past the store's revision),
//! or a read at a revision (`get KEY rev=R`, now and then of the empty
//! key). They reach the paths a plain run never does: watches cancelled by
//! a compaction, a mirror ended by one, `compacted`, `future-rev` and
//! `empty-key`. A stream of its own decides, so the other runs' scripts
//! stay as they were.

use rand::RngExt;
use rand_pcg::Pcg64;

use crate::lang::ast::Command;
use crate::session::exec::Session;

use super::commands::{one_of, KEYS};
use super::stream::side_stream;
use super::view::View;

const HISTORY_STREAM: u64 = 0x6869_7374_6f72_7921;
/// The share of runs with commands on the store's history.
const HISTORY_SHARE: f64 = 0.25;
/// In those runs, the share of commands replaced by one.
const HISTORY_RATE: f64 = 0.06;

/// The history commands' stream of `seed`'s run, if it has them.
pub fn history_stream(seed: u64) -> Option<Pcg64> {
    side_stream(seed, HISTORY_STREAM, HISTORY_SHARE)
}

/// Now and then, a command on the store's history of the first cluster.
pub fn history_command(rng: &mut Pcg64, session: &Session, view: &View) -> Option<Command> {
    if !rng.random_bool(HISTORY_RATE) {
        return None;
    }
    // The highest revision a running member's store has reached.
    let world = session.cluster().world();
    let rev = world
        .nodes()
        .filter(|n| n.raft.is_some())
        .map(|n| n.state.mvcc.rev())
        .max()
        .unwrap_or(1)
        .max(1);
    let key = format!("k{}", rng.random_range(0..KEYS));
    Some(match rng.random_range(0..3u32) {
        0 => Command::Watch {
            prefix: rng.random_bool(0.3),
            key: if rng.random_bool(0.3) {
                "k".to_string()
            } else {
                key
            },
            from_rev: rng.random_bool(0.6).then(|| rng.random_range(1..=rev)),
            via: one_of(rng, &view.running),
        },
        1 => Command::Compaction {
            rev: rng.random_range(1..=rev + rev / 10 + 1),
            via: None,
            timeout_ms: rng
                .random_bool(0.5)
                .then(|| rng.random_range(100..=3000u64)),
            require_leader: false,
        },
        // Now and then the empty key, which etcd refuses before the
        // revision is looked at (`checkRangeRequest`).
        _ => Command::Get {
            key: if rng.random_bool(0.05) {
                String::new()
            } else {
                key
            },
            rev: Some(rng.random_range(1..=rev + 1)),
            via: if rng.random_bool(0.3) {
                one_of(rng, &view.running)
            } else {
                None
            },
            serializable: rng.random_bool(0.3),
            timeout_ms: rng
                .random_bool(0.5)
                .then(|| rng.random_range(100..=3000u64)),
            require_leader: false,
        },
    })
}
