//! In a quarter of the runs (a stream of its own, so the other runs are the
//! scripts they were), a hand on single messages now and then: a direction
//! held, released (a few messages, or everything), messages dropped, the
//! next one delivered alone. The final phase releases whatever is held, as
//! it heals every link ([`super::final_phase`]); the checks are the same.

use rand::RngExt;
use rand_pcg::Pcg64;

use crate::lang::ast::Command;
use crate::raft::NodeId;
use crate::session::exec::Session;

use super::commands::one_of;
use super::stream::side_stream;

const HAND_STREAM: u64 = 0x6861_6e64_5f6f_6e21;
/// The share of runs where a hand acts on single messages.
const HAND_SHARE: f64 = 0.25;

/// The hand's stream of `seed`'s run, if it has one.
pub fn hand_stream(seed: u64) -> Option<Pcg64> {
    side_stream(seed, HAND_STREAM, HAND_SHARE)
}

/// Now and then, a hand on single messages between two nodes the first
/// cluster knows: hold a direction (or both), release one (its first few
/// messages) or every held one, drop a direction's messages (of a kind, the
/// first few), or deliver the next message alone.
pub fn hand_fault(rng: &mut Pcg64, session: &Session) -> Option<Command> {
    if !rng.random_bool(0.06) {
        return None;
    }
    let ids: Vec<NodeId> = session.cluster().known_ids().into_iter().collect();
    let a = one_of(rng, &ids)?;
    let others: Vec<NodeId> = ids.into_iter().filter(|&b| b != a).collect();
    let b = one_of(rng, &others)?;
    use crate::raft::MessageType::{App, AppResp, Heartbeat, Vote, VoteResp};
    Some(match rng.random_range(0..8u32) {
        0..=2 => Command::Hold {
            a,
            b,
            one_way: rng.random_bool(0.7),
        },
        3 => Command::Release {
            link: Some((a, b, true)),
            count: Some(rng.random_range(1..=3u64)),
        },
        4 => Command::Release {
            link: None,
            count: None,
        },
        5 | 6 => Command::Drop {
            from: a,
            to: b,
            kind: one_of(
                rng,
                &[
                    None,
                    Some(App),
                    Some(AppResp),
                    Some(Heartbeat),
                    Some(Vote),
                    Some(VoteResp),
                ],
            )
            .flatten(),
            id: None,
            count: rng.random_bool(0.6).then(|| rng.random_range(1..=2u64)),
        },
        _ => Command::DeliverNext { link: None },
    })
}

/// Whether a direction is held anywhere in the run's clusters.
pub fn anything_held(session: &Session) -> bool {
    session
        .fleet()
        .clusters()
        .iter()
        .any(|c| c.world().network().held_links().next().is_some())
}
