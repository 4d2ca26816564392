//! The commands the generator picks from, one row of [`CHOICES`] each.
//!
//! A roll picks a row by its weight; the row makes a command from the
//! cluster as it is now ([`Pick`]), or finds nothing to target and the roll
//! is made again. A new kind of command is a new row and a maker. Adding a
//! row changes the total weight, so every seed's script changes: campaigns
//! before and after it are different scripts (the performance page says
//! which campaign ran on which). A kind that should leave the other scripts
//! as they were draws from a stream of its own instead, as the modes and the
//! mirror do (`generate.rs`).

use std::sync::Arc;

use rand::RngExt;
use rand_pcg::Pcg64;

use crate::lang::ast::{ClusterSpec, Command, Condition};
use crate::raft::NodeId;

use super::view::View;

/// The keys the generated client writes use (the background load writes
/// `load/N`, which nothing checks).
pub const KEYS: u64 = 6;

/// A peer URL that is well formed but names no simulated host.
const MISCONFIGURED_URL: &str = "http://10.0.0.9:2380";

/// What a maker sees: the cluster now, its `cluster` line, and the count of
/// writes so far (each write's value is `vN`, unique in the run).
pub struct Pick<'a> {
    pub view: &'a View,
    pub spec: &'a ClusterSpec,
    pub writes: &'a mut u64,
}

/// One kind of command: its weight among the rows, and its maker.
pub struct Choice {
    pub weight: u32,
    pub make: fn(&mut Pcg64, &mut Pick) -> Option<Command>,
}

/// Every kind of command, with its share of the rolls (out of 100).
pub const CHOICES: &[Choice] = &[
    // Time.
    Choice {
        weight: 25,
        make: wait,
    },
    Choice {
        weight: 3,
        make: wait_until_leader,
    },
    // Client load.
    Choice {
        weight: 17,
        make: put,
    },
    Choice {
        weight: 7,
        make: get,
    },
    Choice {
        weight: 3,
        make: load,
    },
    // Processes.
    Choice {
        weight: 4,
        make: crash,
    },
    Choice {
        weight: 6,
        make: start,
    },
    Choice {
        weight: 1,
        make: campaign,
    },
    Choice {
        weight: 1,
        make: compact,
    },
    // The network.
    Choice {
        weight: 3,
        make: cut,
    },
    Choice {
        weight: 4,
        make: heal_one,
    },
    Choice {
        weight: 2,
        make: partition,
    },
    Choice {
        weight: 1,
        make: isolate,
    },
    Choice {
        weight: 2,
        make: net,
    },
    // Membership.
    Choice {
        weight: 5,
        make: member_add,
    },
    Choice {
        weight: 4,
        make: member_promote,
    },
    Choice {
        weight: 2,
        make: member_remove,
    },
    Choice {
        weight: 3,
        make: transfer_leader,
    },
    Choice {
        weight: 1,
        make: member_list,
    },
    Choice {
        weight: 1,
        make: status,
    },
    Choice {
        weight: 1,
        make: expect_caught_up,
    },
    Choice {
        weight: 4,
        make: heal_all,
    },
];

/// One random command, chosen with the cluster as it is now.
pub fn next_command(rng: &mut Pcg64, pick: &mut Pick) -> Command {
    let total: u32 = CHOICES.iter().map(|c| c.weight).sum();
    loop {
        let mut roll = rng.random_range(0..total);
        let choice = CHOICES.iter().find(|c| {
            let here = roll < c.weight;
            roll = roll.saturating_sub(c.weight);
            here
        });
        if let Some(cmd) = choice.and_then(|c| (c.make)(rng, pick)) {
            return cmd;
        }
    }
}

/// One of `items`, or none when there is none.
pub fn one_of<T: Copy>(rng: &mut Pcg64, items: &[T]) -> Option<T> {
    if items.is_empty() {
        None
    } else {
        Some(items[rng.random_range(0..items.len())])
    }
}

/// A client timeout: etcdctl's default, or a shorter one so that runs
/// without a leader do not all wait 5s.
fn client_timeout(rng: &mut Pcg64) -> Option<u64> {
    rng.random_bool(0.6)
        .then(|| rng.random_range(100..=3000u64))
}

/// Any member the cluster knows (1 when it knows none).
fn any_known(rng: &mut Pcg64, p: &Pick) -> NodeId {
    one_of(rng, &p.view.known).unwrap_or(1)
}

// ---- time -------------------------------------------------------------------

fn wait(rng: &mut Pcg64, _: &mut Pick) -> Option<Command> {
    Some(Command::Wait(match rng.random_range(0..4u32) {
        0 => rng.random_range(10..=200u64),
        1 | 2 => rng.random_range(200..=1500u64),
        _ => rng.random_range(1500..=5000u64),
    }))
}

fn wait_until_leader(rng: &mut Pcg64, _: &mut Pick) -> Option<Command> {
    Some(Command::WaitUntil {
        cond: Arc::new(Condition::Leader),
        within_ms: rng.random_range(500..=5000u64),
    })
}

// ---- client load --------------------------------------------------------------

fn put(rng: &mut Pcg64, p: &mut Pick) -> Option<Command> {
    *p.writes += 1;
    let key = format!("k{}", rng.random_range(0..KEYS));
    let value = format!("v{}", p.writes);
    let via = if rng.random_bool(0.2) {
        one_of(rng, &p.view.running)
    } else {
        None
    };
    let nowait = rng.random_bool(0.5);
    Some(Command::Put {
        key,
        value,
        via,
        size: rng
            .random_bool(0.2)
            .then(|| rng.random_range(1..=16u64) * 1024),
        nowait,
        timeout_ms: (!nowait || rng.random_bool(0.5)).then(|| rng.random_range(100..=3000u64)),
        require_leader: rng.random_bool(0.1),
    })
}

fn get(rng: &mut Pcg64, p: &mut Pick) -> Option<Command> {
    Some(Command::Get {
        key: format!("k{}", rng.random_range(0..KEYS)),
        rev: None,
        via: if rng.random_bool(0.3) {
            one_of(rng, &p.view.running)
        } else {
            None
        },
        serializable: rng.random_bool(0.25),
        timeout_ms: client_timeout(rng),
        require_leader: rng.random_bool(0.1),
    })
}

fn load(rng: &mut Pcg64, _: &mut Pick) -> Option<Command> {
    Some(if rng.random_bool(0.6) {
        Command::LoadStart {
            rate_per_s: rng.random_range(1..=100u64),
            size: rng.random_bool(0.3).then(|| rng.random_range(64..=4096u64)),
            via: None,
        }
    } else {
        Command::LoadStop
    })
}

// ---- processes ----------------------------------------------------------------

fn crash(rng: &mut Pcg64, p: &mut Pick) -> Option<Command> {
    one_of(rng, &p.view.running).map(Command::Crash)
}

fn start(rng: &mut Pcg64, p: &mut Pick) -> Option<Command> {
    one_of(rng, &p.view.down).map(Command::Start)
}

fn campaign(rng: &mut Pcg64, p: &mut Pick) -> Option<Command> {
    one_of(rng, &p.view.running).map(Command::Campaign)
}

fn compact(rng: &mut Pcg64, p: &mut Pick) -> Option<Command> {
    one_of(rng, &p.view.running).map(Command::Compact)
}

// ---- the network --------------------------------------------------------------

fn cut(rng: &mut Pcg64, p: &mut Pick) -> Option<Command> {
    let a = any_known(rng, p);
    let b = any_known(rng, p);
    (a != b).then(|| Command::Cut {
        a,
        b,
        one_way: rng.random_bool(0.4),
    })
}

fn heal_one(rng: &mut Pcg64, p: &mut Pick) -> Option<Command> {
    Some(match one_of(rng, &p.view.cut) {
        Some((a, b)) if rng.random_bool(0.7) => Command::Heal {
            link: Some((a, b, rng.random_bool(0.6))),
        },
        _ => Command::Heal { link: None },
    })
}

fn heal_all(_: &mut Pcg64, _: &mut Pick) -> Option<Command> {
    Some(Command::Heal { link: None })
}

fn partition(rng: &mut Pcg64, p: &mut Pick) -> Option<Command> {
    let mut groups: Vec<Vec<NodeId>> = vec![Vec::new(); rng.random_range(2..=3usize)];
    for &id in &p.view.known {
        let g = rng.random_range(0..groups.len());
        groups[g].push(id);
    }
    groups.retain(|g| !g.is_empty());
    (groups.len() >= 2).then_some(Command::Partition(groups))
}

fn isolate(rng: &mut Pcg64, p: &mut Pick) -> Option<Command> {
    Some(Command::Isolate(any_known(rng, p)))
}

/// `net`: loss, a latency (the cluster's own now and then) and a bandwidth,
/// each or none.
fn net(rng: &mut Pcg64, p: &mut Pick) -> Option<Command> {
    let loss_ppm = rng
        .random_bool(0.7)
        .then(|| match rng.random_range(0..4u32) {
            0 => 0,
            1 => rng.random_range(1..=10_000u32),
            2 => rng.random_range(10_000..=50_000u32),
            _ => rng.random_range(50_000..=200_000u32),
        });
    let latency = rng.random_bool(0.5).then(|| {
        if rng.random_bool(0.3) {
            (p.spec.latency_min_ms, p.spec.latency_max_ms)
        } else {
            let lo = rng.random_range(1..=100u64);
            (lo, lo + rng.random_range(0..=200u64))
        }
    });
    let bandwidth = rng.random_bool(0.3).then(|| {
        if rng.random_bool(0.4) {
            None
        } else {
            Some(rng.random_range(256..=4096u64) * 1024)
        }
    });
    if loss_ppm.is_none() && latency.is_none() && bandwidth.is_none() {
        return Some(Command::Net {
            loss_ppm: Some(0),
            latency: None,
            bandwidth: None,
        });
    }
    Some(Command::Net {
        loss_ppm,
        latency,
        bandwidth,
    })
}

// ---- membership ---------------------------------------------------------------

fn member_add(rng: &mut Pcg64, p: &mut Pick) -> Option<Command> {
    one_of(rng, &p.view.fresh).map(|id| {
        let peer_url = match rng.random_range(0..12u32) {
            0 => Some(MISCONFIGURED_URL.to_string()),
            1 => Some(format!("http://n{id}:2380/path")),
            2 => Some(format!("https://n{id}:2380")),
            _ => None,
        };
        Command::MemberAdd {
            id,
            learner: rng.random_bool(0.6),
            voter: false,
            standby: false,
            read_only: None,
            peer_url,
            via: None,
            timeout_ms: client_timeout(rng),
            require_leader: rng.random_bool(0.1),
        }
    })
}

fn member_promote(rng: &mut Pcg64, p: &mut Pick) -> Option<Command> {
    one_of(rng, &p.view.learners).map(|id| Command::MemberPromote {
        id,
        timeout_ms: client_timeout(rng),
        require_leader: rng.random_bool(0.1),
    })
}

fn member_remove(rng: &mut Pcg64, p: &mut Pick) -> Option<Command> {
    one_of(rng, &p.view.known).map(|id| Command::MemberRemove {
        id,
        timeout_ms: client_timeout(rng),
        require_leader: rng.random_bool(0.1),
    })
}

fn transfer_leader(rng: &mut Pcg64, p: &mut Pick) -> Option<Command> {
    one_of(rng, &p.view.voters).map(Command::TransferLeader)
}

fn member_list(rng: &mut Pcg64, _: &mut Pick) -> Option<Command> {
    Some(Command::MemberList {
        serializable: rng.random_bool(0.3),
        via: None,
        timeout_ms: client_timeout(rng),
        require_leader: false,
    })
}

fn status(rng: &mut Pcg64, p: &mut Pick) -> Option<Command> {
    Some(Command::Status {
        via: if rng.random_bool(0.5) {
            one_of(rng, &p.view.known)
        } else {
            None
        },
    })
}

fn expect_caught_up(rng: &mut Pcg64, p: &mut Pick) -> Option<Command> {
    one_of(rng, &p.view.known).map(|id| Command::Expect(Arc::new(Condition::CaughtUp(id))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rows_weigh_a_hundred_and_every_roll_finds_one() {
        let total: u32 = CHOICES.iter().map(|c| c.weight).sum();
        assert_eq!(total, 100);
        assert!(CHOICES.iter().all(|c| c.weight > 0));
    }
}
