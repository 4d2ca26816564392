//! In a quarter of the runs, now and then a joint change instead of the
//! command drawn: `member change` with several lists at once (raftlab's own
//! command over etcd-raft's ConfChangeV2, which etcd's server never
//! proposes), left at once or explicitly, and `member leave-joint`. Without
//! them a campaign never entered a joint configuration, where every decision
//! needs a majority of both halves. Now and then a list names a member of
//! the wrong kind, so the change's own refusals (`member-not-learner`,
//! `member-not-voter`) are reached too. A stream of its own decides, so the
//! other runs' scripts stay as they were.

use rand::RngExt;
use rand_pcg::Pcg64;

use crate::lang::ast::Command;
use crate::raft::NodeId;
use crate::server::joint::JointChange;

use super::commands::one_of;
use super::stream::side_stream;
use super::view::View;

const JOINT_STREAM: u64 = 0x6a6f_696e_745f_6f6e;
/// The share of runs with joint changes.
const JOINT_SHARE: f64 = 0.25;
/// In those runs, the share of commands replaced by one.
const JOINT_RATE: f64 = 0.05;

/// The joint changes' stream of `seed`'s run, if it has them.
pub fn joint_stream(seed: u64) -> Option<Pcg64> {
    side_stream(seed, JOINT_STREAM, JOINT_SHARE)
}

/// Now and then, a joint change of the first cluster, or the command that
/// leaves one.
pub fn joint_command(rng: &mut Pcg64, view: &View) -> Option<Command> {
    if !rng.random_bool(JOINT_RATE) {
        return None;
    }
    let timeout_ms = rng
        .random_bool(0.6)
        .then(|| rng.random_range(500..=3000u64));
    let require_leader = rng.random_bool(0.1);
    if rng.random_bool(0.25) {
        return Some(Command::MemberLeaveJoint {
            via: None,
            timeout_ms,
            require_leader,
        });
    }
    let change = random_change(rng, view)?;
    Some(Command::MemberChange {
        change,
        via: None,
        timeout_ms,
        require_leader,
    })
}

/// A change of one to four members, each id in one list at most: new
/// voters and learners from the fresh ids, learners promoted, voters
/// demoted, members removed. One time in ten a promotion or demotion names
/// a member of the other kind, which the change's checks refuse.
fn random_change(rng: &mut Pcg64, view: &View) -> Option<JointChange> {
    let mut taken: Vec<NodeId> = Vec::new();
    let pick = |rng: &mut Pcg64, from: &[NodeId], taken: &mut Vec<NodeId>| {
        let free: Vec<NodeId> = from
            .iter()
            .copied()
            .filter(|id| !taken.contains(id))
            .collect();
        let id = one_of(rng, &free)?;
        taken.push(id);
        Some(id)
    };
    let mut change = JointChange {
        explicit_leave: rng.random_bool(0.3),
        ..JointChange::default()
    };
    let wrong = rng.random_bool(0.1);
    for _ in 0..rng.random_range(1..=4u32) {
        let (list, from) = match rng.random_range(0..5u32) {
            0 => (&mut change.add, &view.fresh),
            1 => (&mut change.add_learner, &view.fresh),
            2 if wrong => (&mut change.promote, &view.voters),
            2 => (&mut change.promote, &view.learners),
            3 if wrong => (&mut change.demote, &view.learners),
            3 => (&mut change.demote, &view.voters),
            _ => (&mut change.remove, &view.known),
        };
        if let Some(id) = pick(rng, from, &mut taken) {
            list.push(id);
        }
    }
    if taken.is_empty() {
        return None;
    }
    for list in [
        &mut change.add,
        &mut change.add_learner,
        &mut change.promote,
        &mut change.demote,
        &mut change.remove,
    ] {
        list.sort_unstable();
    }
    Some(change)
}
