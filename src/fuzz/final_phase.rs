//! The fixed end of every run: stop the load, heal every link, restore the
//! cluster's own network, start every member that can start, then wait for
//! a leader and write once more.

use std::sync::Arc;

use crate::lang::ast::{Command, Condition, MAX_WAIT_MS};
use crate::raft::NodeId;
use crate::session::exec::Session;
use crate::sim::membership::resolve_host;

use super::by_hand::anything_held;
use super::liveness::can_win;
use super::observed::Observed;

/// Makes the cluster whole; returns the simulated time of the heal.
pub fn make_whole(o: &mut Observed) -> u64 {
    let spec = o.session.spec().clone();
    o.run(Command::LoadStop);
    o.run(Command::Heal { link: None });
    // Held messages are delivered, as cut links heal (only in a run that
    // held some: the others' final phase is as it was).
    if anything_held(&o.session) {
        o.run(Command::Release {
            link: None,
            count: None,
        });
    }
    let healed_at = o.session.now();
    o.run(Command::Net {
        loss_ppm: Some(0),
        latency: Some((spec.latency_min_ms, spec.latency_max_ms)),
        // Unlimited, not the cluster's: each node sends through one FIFO
        // queue, so with a low bandwidth a 1MB catch-up append can hold
        // the heartbeats behind it longer than an election timeout, again
        // and again (the bandwidth lesson). That livelock is the model's
        // point, not a bug, so liveness is asked of a network without it.
        bandwidth: Some(None),
    });
    // Start every member whose process is down and can run.
    for id in startable(&o.session) {
        o.run(Command::Start(id));
    }
    healed_at
}

/// Waits for a leader and writes `fuzz/final`, trying again until the
/// bounds have passed; whether the write committed.
pub fn final_write(o: &mut Observed) -> bool {
    // Messages already queued behind a node's bandwidth keep their times:
    // the network is whole only once the longest queue has drained.
    let world = o.session.cluster().world();
    let backlog = world
        .network()
        .backlog_ms(world.now(), world.config().bandwidth);
    let et = o.session.spec().election_timeout_ms;
    let climb = terms_behind(&o.session) * 2 * et;
    let join = joining_wait(&o.session);
    let disrupt = if disrupted(&o.session) {
        DISRUPTED_ROUNDS * 2 * et
    } else {
        0
    };
    let leader_bound =
        ((20 * et).clamp(10_000, 60_000) + backlog + climb + join + disrupt).min(MAX_WAIT_MS);
    let write_bound = ((5 * et).clamp(5_000, 30_000) + backlog).min(MAX_WAIT_MS);
    // A write ends at etcd's server request timeout (5s plus two election
    // timeouts) however long the client waits, so a backlog longer than that
    // needs several tries: keep trying until the write bound has passed. As
    // many tries as request timeouts fit in the bounds, and 64 more for
    // tries that end sooner (each takes some time: the loop ends).
    let give_up = o.session.now() + leader_bound + write_bound;
    let tries =
        64 + (leader_bound + write_bound).div_ceil(o.session.cluster().request_timeout_ms());
    for attempt in 0..tries {
        if attempt >= 3 && o.session.now() >= give_up {
            break;
        }
        if !o.run(Command::WaitUntil {
            cond: Arc::new(Condition::Leader),
            within_ms: leader_bound,
        }) {
            break;
        }
        let sent_at = o.session.now();
        let via = voter_if_a_learner_leads(&o.session);
        if o.run(Command::Put {
            key: "fuzz/final".to_string(),
            value: "done".to_string(),
            via,
            size: None,
            nowait: false,
            timeout_ms: Some(write_bound),
            require_leader: false,
        }) {
            return true;
        }
        // Refused at once (a leader that has applied its own removal drops
        // proposals until its process stops, etcd-raft's
        // ErrProposalDropped): a client backs off before it tries again, so
        // time passes and the cluster moves on.
        if o.session.now() == sent_at {
            o.run(Command::Wait(et));
        }
    }
    false
}

/// A running voter to write through when the leader is a learner (a leader
/// demoted by `member change` leads on, as etcd-raft's does without
/// StepDownOnRemoval): etcd's server refuses a learner's client requests
/// (`rpc not supported for learner`, gRPC's Unavailable, which a client
/// with other endpoints retries on the next), and a voter forwards the
/// proposal to the leader. `None` (the leader itself) otherwise.
fn voter_if_a_learner_leads(session: &Session) -> Option<NodeId> {
    let status = session.status();
    let leader = status.leader?;
    if !status.learners.contains(&leader) {
        return None;
    }
    let world = session.cluster().world();
    status
        .voters
        .iter()
        .copied()
        .find(|&id| world.raft(id).is_some())
}

/// Election rounds added to the leader's bound when a voter that cannot
/// win keeps campaigning ([`disrupted`]): with one such voter, the one that
/// can win misses a round about one time in two, and 20 more rounds missed
/// in a row is a chance in a million.
const DISRUPTED_ROUNDS: u64 = 20;

/// Whether, without pre-vote, a running voter that cannot win (a majority's
/// logs are more up to date than its own) campaigns on. Each of its
/// campaigns raises the term and puts the others' election timers back
/// (etcd-raft's `becomeFollower` on a vote request of a higher term), so
/// the voter that can win does so only in a round where its own randomized
/// timeout runs out first. etcd promises no bound on that: it is why
/// pre-vote exists. Seed 220006247 (two voters, one behind) lost eleven
/// rounds in a row, past the bound without this allowance.
fn disrupted(session: &Session) -> bool {
    let world = session.cluster().world();
    !world.config().pre_vote
        && world
            .nodes()
            .filter_map(|n| n.raft.as_ref())
            .any(|c| c.tracker().is_voter(c.id()) && !can_win(world, c))
}

/// How many terms the running voter furthest behind must climb to reach the
/// highest term a running member holds. A vote request of a lower term is
/// ignored (etcd-raft's `Step`: "ignored a MsgVote message with lower
/// term"), and without pre-vote and check-quorum nothing tells the voter of
/// the higher term: it climbs one term an election, each within two election
/// timeouts (the randomized timeout is below twice the setting). A member
/// that voted in a term a removed node campaigned in makes such a gap.
fn terms_behind(session: &Session) -> u64 {
    let world = session.cluster().world();
    let running: Vec<_> = world.nodes().filter_map(|n| world.raft(n.id)).collect();
    let highest = running.iter().map(|r| r.term()).max().unwrap_or(0);
    let voter_low = running
        .iter()
        .filter(|r| r.conf_state().voters.contains(&r.id()))
        .map(|r| r.term())
        .min()
        .unwrap_or(highest);
    highest - voter_low
}

/// How long a new member started by the final phase may talk to its peers
/// before it starts raft (`server::join`): on a healed network, at most one
/// read on each other member, each ending at etcd's request timeout. The
/// members join at once, so the longest of them is the wait.
fn joining_wait(session: &Session) -> u64 {
    let cluster = session.cluster();
    let ids = cluster.known_ids();
    if !ids.iter().any(|&id| cluster.joining(id)) {
        return 0;
    }
    (ids.len() as u64).saturating_sub(1) * cluster.request_timeout_ms()
}

/// Members whose process is down, not removed, and whose peer URL (in the
/// cluster's view) names their own host.
fn startable(session: &Session) -> Vec<NodeId> {
    let cluster = session.cluster();
    let world = cluster.world();
    let authority = cluster.authority().and_then(|a| world.node(a));
    cluster
        .known_ids()
        .into_iter()
        .filter(|&id| world.raft(id).is_none())
        .filter(|&id| !world.node(id).is_some_and(|n| n.removed))
        .filter(|&id| !authority.is_some_and(|a| a.state.removed.contains(&id)))
        .filter(|&id| {
            world.has_node(id)
                || authority
                    .and_then(|a| a.state.members.get(&id))
                    .is_some_and(|m| resolve_host(&m.peer_url) == Some(id))
        })
        .collect()
}
