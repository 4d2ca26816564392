//! Behaviour of whole nodes talking over the in-memory test network: the
//! cases etcd's raft tests cover that raftlab's scenarios rely on.

mod raft_core {
    pub mod testnet;
}
use raft_core::testnet;

use std::rc::Rc;

use raftlab::raft::events::{ProposeError, RaftEvent, StepError};
use raftlab::raft::node::{bootstrap_storage, Config, Raft, ReadOnlyOption, StateRole, Storage};
use raftlab::raft::progress::ProgressState;
use raftlab::raft::types::{
    ConfChangeSingle, ConfChangeTransition, ConfChangeType, ConfChangeV2, EntryData, Message,
    MessageType, NodeId, Opaque, CAMPAIGN_TRANSFER,
};
use testnet::{conf_change, config, Network};

use ConfChangeType::{AddLearnerNode, AddNode, RemoveNode};

/// A cluster of `voters` with node 1 elected.
fn cluster(voters: &[NodeId]) -> Network {
    let mut net = Network::new(voters);
    net.campaign(1);
    assert_eq!(net.leaders(), vec![1]);
    net
}

/// Node 1 leads `voters`; `learners` were added and caught up.
fn cluster_with_learners(voters: &[NodeId], learners: &[NodeId]) -> Network {
    let mut net = cluster(voters);
    for &l in learners {
        net.start(l, Storage::default());
        assert!(net.propose_conf(1, AddLearnerNode, l));
        assert!(net.node(l).is_learner(), "{l} learned it is a learner");
    }
    net
}

/// Ticks every node until a leader other than `old` is elected (the
/// followers must first outlive the CheckQuorum lease of `old`).
fn elect_new_leader(net: &mut Network, old: NodeId) -> NodeId {
    for _ in 0..100 {
        net.tick_all(1);
        if let Some(&l) = net.leaders().iter().find(|&&l| l != old) {
            return l;
        }
    }
    panic!("no new leader");
}

fn assert_same_logs(net: &Network, ids: &[NodeId]) {
    let first = net.node(ids[0]);
    for &id in &ids[1..] {
        let n = net.node(id);
        assert_eq!(n.last_index(), first.last_index(), "last index of {id}");
        assert_eq!(n.commit(), first.commit(), "commit of {id}");
        for i in n.first_index().max(first.first_index())..=n.last_index() {
            assert_eq!(n.term_at(i), first.term_at(i), "term of entry {i} on {id}");
        }
        assert_eq!(net.state[&id], net.state[&ids[0]], "state machine of {id}");
    }
}

// ----- elections -----

#[test]
fn single_voter_elects_itself_and_commits_alone() {
    let mut net = Network::new(&[1]);
    net.campaign(1);
    let n = net.node(1);
    assert_eq!(n.role(), StateRole::Leader);
    assert_eq!(n.term(), 2);
    // Bootstrap entry 1 + the leader's empty entry.
    assert_eq!((n.last_index(), n.commit()), (2, 2));
    assert!(net.put(1, "a", "1"));
    assert_eq!(net.node(1).commit(), 3);
    assert_eq!(net.state[&1].get("a"), Some("1"));
}

#[test]
fn bootstrap_makes_every_founder_a_voter() {
    let net = Network::new(&[1, 2, 3]);
    for id in 1..=3 {
        let n = net.node(id);
        assert_eq!(n.conf_state().voters.len(), 3);
        assert_eq!((n.term(), n.commit(), n.applied()), (1, 3, 3));
        assert!(n.promotable());
    }
    assert_eq!(bootstrap_storage(&[1, 2]).entries.len(), 2);
}

#[test]
fn elections_need_a_majority_of_voters() {
    // (voters, down, electable)
    let cases: &[(&[NodeId], &[NodeId], bool)] = &[
        (&[1, 2, 3], &[], true),
        (&[1, 2, 3], &[3], true),
        (&[1, 2, 3], &[2, 3], false),
        (&[1, 2, 3, 4], &[4], true),
        (&[1, 2, 3, 4], &[3, 4], false),
        (&[1, 2, 3, 4, 5], &[4, 5], true),
        (&[1, 2, 3, 4, 5], &[3, 4, 5], false),
    ];
    for &(voters, down, electable) in cases {
        let mut net = Network::new(voters);
        for &d in down {
            net.isolate(d);
        }
        net.campaign(1);
        let role = net.node(1).role();
        if electable {
            assert_eq!(role, StateRole::Leader, "{voters:?} with {down:?} down");
            let votes = net.events_of(1, |e| matches!(e, RaftEvent::BecameLeader { .. }));
            let RaftEvent::BecameLeader { votes, .. } = &votes[0] else {
                unreachable!()
            };
            assert!(votes.len() > voters.len() / 2);
            assert!(votes.iter().all(|v| !down.contains(v)));
        } else {
            // The pre-vote gets no majority: no leader, and no term raised.
            assert_eq!(
                role,
                StateRole::PreCandidate,
                "{voters:?} with {down:?} down"
            );
            assert_eq!(net.node(1).term(), 1);
            net.tick_all(100);
            assert!(net.leaders().is_empty());
            assert_eq!(net.node(1).term(), 1);
        }
    }
}

#[test]
fn election_timeouts_elect_a_leader_without_help() {
    let mut net = Network::new(&[1, 2, 3, 4, 5]);
    net.tick_all(40);
    assert_eq!(net.leaders().len(), 1);
    let leader = net.leaders()[0];
    let term = net.node(leader).term();
    for id in 1..=5 {
        assert_eq!(net.node(id).term(), term);
        assert_eq!(net.node(id).leader_id(), leader);
    }
    // Randomized timeouts are within [et, 2et).
    for n in net.nodes.values() {
        assert!((10..20).contains(&n.randomized_election_timeout()));
    }
}

#[test]
fn split_vote_resolves_in_a_later_term() {
    let mut cfg = config(0);
    cfg.pre_vote = false;
    let mut net = Network::with_config(&[1, 2, 3, 4], cfg);
    // 3 only hears 1 and 4 only hears 2: each candidate gets 2 of 4 votes.
    net.cut(3, 2);
    net.cut(4, 1);
    net.node_mut(1).campaign();
    net.node_mut(2).campaign();
    net.drain();
    assert!(net.leaders().is_empty());
    assert_eq!(net.node(1).role(), StateRole::Candidate);
    assert_eq!(net.node(2).role(), StateRole::Candidate);
    assert_eq!(net.node(1).term(), 2);
    net.heal();
    net.tick_all(60);
    assert_eq!(net.leaders().len(), 1);
    assert!(net.node(net.leaders()[0]).term() > 2);
}

#[test]
fn candidates_ask_voters_only() {
    let mut net = cluster_with_learners(&[1, 2, 3], &[4]);
    net.isolate(1);
    net.tick_all(25);
    let leader = net.leaders();
    assert_eq!(leader.len(), 1);
    let l = leader[0];
    assert_ne!(l, 1);
    assert_eq!(net.count_delivered(MessageType::PreVote, l, 4), 0);
    assert_eq!(net.count_delivered(MessageType::Vote, l, 4), 0);
    assert_eq!(net.node(4).leader_id(), l);
}

// ----- replication and log repair -----

#[test]
fn conflicting_logs_are_repaired_by_the_new_leader() {
    let mut net = cluster(&[1, 2, 3, 4, 5]);
    assert!(net.put(1, "k", "v0"));
    // The old leader appends entries nobody else gets.
    net.isolate(1);
    for _ in 0..5 {
        net.node_mut(1).propose(EntryData::Empty).unwrap();
    }
    net.drain();
    let stale_last = net.node(1).last_index();
    // The rest elect a new leader and write more.
    let l = elect_new_leader(&mut net, 1);
    for i in 0..3 {
        assert!(net.put(l, "k", &format!("v{}", i + 1)));
    }
    let leader_last = net.node(l).last_index();
    assert!(net.node(1).term_at(stale_last) != net.node(l).term_at(stale_last));
    net.heal();
    net.tick_all(3);
    assert_eq!(net.node(1).role(), StateRole::Follower);
    assert_eq!(net.node(1).leader_id(), l);
    assert_eq!(net.node(1).last_index(), leader_last);
    assert_same_logs(&net, &[1, 2, 3, 4, 5]);
    assert_eq!(net.state[&1].get("k"), Some("v3"));
}

#[test]
fn a_divergent_tail_of_higher_terms_is_skipped_by_term() {
    // The follower's tail has several terms above the leader's; the reject
    // hints (findConflictByTerm on both sides) need few round trips.
    let mut net = cluster(&[1, 2, 3]);
    net.isolate(1);
    for _ in 0..3 {
        net.node_mut(1).propose(EntryData::Empty).unwrap();
    }
    net.drain();
    // Two more terms pass on 2 and 3 while 1 is away.
    let l = elect_new_leader(&mut net, 1);
    net.node_mut(l).transfer_leader(5 - l);
    net.drain();
    let l = 5 - l;
    assert_eq!(net.node(l).role(), StateRole::Leader);
    for _ in 0..3 {
        net.node_mut(l).propose(EntryData::Empty).unwrap();
    }
    net.drain();
    net.heal();
    net.delivered.clear();
    net.tick_all(2);
    assert_same_logs(&net, &[1, 2, 3]);
    let rejects = net
        .delivered
        .iter()
        .filter(|m| m.msg_type == MessageType::AppResp && m.from == 1 && m.reject)
        .count();
    assert!(rejects <= 2, "{rejects} rejections");
}

#[test]
fn figure_8_entries_of_earlier_terms_are_not_committed_by_counting() {
    let mut cfg = config(0);
    cfg.pre_vote = false;
    cfg.check_quorum = false;
    let mut net = Network::with_config(&[1, 2, 3, 4, 5], cfg);
    net.campaign(1);
    let term_a = net.node(1).term();
    // X reaches nodes 2 and 3, but their acks are lost: not committed.
    net.cut(1, 4);
    net.cut(1, 5);
    net.drop_if = Some(Box::new(|m: &Message| m.msg_type == MessageType::AppResp));
    net.node_mut(1).propose(EntryData::Empty).unwrap();
    net.drain();
    let x = net.node(1).last_index();
    assert_eq!(net.node(2).last_index(), x);
    assert_eq!(net.node(3).last_index(), x);
    assert!(net.node(1).commit() < x);
    // Node 1 restarts and is re-elected in a later term, but its new
    // messages are lost: the new term's empty entry reaches nobody.
    let s = net.crash(1);
    net.start(1, s);
    net.heal();
    net.drop_if = Some(Box::new(|m: &Message| {
        m.from == 1 && matches!(m.msg_type, MessageType::App | MessageType::Heartbeat)
    }));
    net.node_mut(1).campaign();
    net.drain();
    assert_eq!(net.node(1).role(), StateRole::Leader);
    let term_b = net.node(1).term();
    assert!(term_b > term_a);
    assert_eq!(net.node(1).term_at(x), Some(term_a));
    // Voters 2 and 3 report holding X (they do): a majority (1, 2, 3) has
    // it, but it is of an earlier term, so counting replicas must not commit it.
    for from in [2, 3] {
        let mut ack = Message::new(MessageType::AppResp, from, 1, term_b);
        ack.index = x;
        net.node_mut(1).step(ack).unwrap();
    }
    assert!(net.node(1).commit() < x, "X committed by counting replicas");
    // Once an entry of the leader's own term is replicated, both commit.
    net.heal();
    net.tick_all(2);
    assert_eq!(net.node(1).commit(), x + 1);
    assert_same_logs(&net, &[1, 2, 3, 4, 5]);
}

#[test]
fn inflight_window_caps_pipelined_appends() {
    let mut cfg = config(0);
    cfg.max_inflight_msgs = 3;
    let mut net = Network::with_config(&[1, 2], cfg);
    net.campaign(1);
    assert_eq!(
        net.node(1).tracker().progress[&2].state,
        ProgressState::Replicate
    );
    // Nothing reaches 2: only 3 MsgApps go out however much is proposed.
    net.cut(1, 2);
    net.delivered.clear();
    for _ in 0..10 {
        net.node_mut(1).propose(EntryData::Empty).unwrap();
    }
    let apps = net
        .node_mut(1)
        .take_messages()
        .into_iter()
        .filter(|m| m.msg_type == MessageType::App && !m.entries.is_empty())
        .count();
    assert_eq!(apps, 3);
    let pr = &net.node(1).tracker().progress[&2];
    assert!(pr.inflights.full() && pr.is_paused());
    // Unreachable: back to probing.
    net.node_mut(1).report_unreachable(2);
    assert_eq!(
        net.node(1).tracker().progress[&2].state,
        ProgressState::Probe
    );
    net.heal();
    net.tick_all(3);
    assert_same_logs(&net, &[1, 2]);
}

// ----- learners -----

#[test]
fn a_learner_never_campaigns_and_keeps_its_term() {
    let mut net = cluster_with_learners(&[1, 2, 3], &[4]);
    let term = net.node(4).term();
    net.isolate(4);
    net.tick_node(4, 100 * 20);
    let n = net.node(4);
    assert_eq!(n.role(), StateRole::Follower);
    assert_eq!(n.term(), term);
    assert!(!n.promotable());
    // Even with every voter gone.
    net.heal();
    for v in 1..=3 {
        net.isolate(v);
    }
    net.tick_node(4, 100 * 20);
    assert_eq!(net.node(4).role(), StateRole::Follower);
    assert_eq!(net.node(4).term(), term);
    // `campaign` is refused too.
    net.campaign(4);
    assert_eq!(net.node(4).role(), StateRole::Follower);
    assert!(!net
        .events_of(4, |e| *e
            == RaftEvent::CampaignIgnored { reason: "learner" })
        .is_empty());
    // And so is MsgTimeoutNow.
    let m = Message::new(MessageType::TimeoutNow, 1, 4, term);
    net.node_mut(4).step(m).unwrap();
    assert_eq!(net.node(4).role(), StateRole::Follower);
    assert!(matches!(
        net.node_mut(4).take_events().as_slice(),
        [RaftEvent::IgnoredTimeoutNow { reason: "learner" }]
    ));
}

#[test]
fn a_learner_grants_a_vote_when_asked() {
    let mut net = cluster_with_learners(&[1, 2, 3], &[4]);
    let n = net.node_mut(4);
    let term = n.term();
    // A candidate with an up-to-date log, past the learner's lease.
    for _ in 0..20 {
        n.tick();
    }
    let mut vote = Message::new(MessageType::Vote, 2, 4, term + 1);
    vote.index = n.last_index();
    vote.log_term = n.last_term();
    n.step(vote).unwrap();
    let resp = n.take_messages();
    assert_eq!(resp.len(), 1);
    assert_eq!(resp[0].msg_type, MessageType::VoteResp);
    assert!(!resp[0].reject);
    assert_eq!(n.vote(), 2);
    assert_eq!(n.term(), term + 1);
}

#[test]
fn a_learners_ack_never_commits_nor_keeps_a_leader_in_office() {
    let mut net = cluster_with_learners(&[1, 2, 3], &[4]);
    let commit = net.node(1).commit();
    net.isolate(2);
    net.isolate(3);
    assert!(net.put(1, "a", "1"));
    assert_eq!(net.node(4).last_index(), net.node(1).last_index());
    assert_eq!(
        net.node(1).commit(),
        commit,
        "committed with a learner's ack"
    );
    // CheckQuorum: the learner's heartbeat answers don't count.
    net.tick_node(1, 20);
    assert_eq!(net.node(1).role(), StateRole::Follower);
    assert!(!net
        .events_of(1, |e| matches!(e, RaftEvent::StepDownNoQuorum { .. }))
        .is_empty());
}

#[test]
fn promotion_makes_the_learner_count() {
    let mut net = cluster_with_learners(&[1], &[2]);
    // As a learner, 2's absence doesn't stop commits.
    net.isolate(2);
    assert!(net.put(1, "a", "1"));
    assert_eq!(net.node(1).commit(), net.node(1).last_index());
    net.heal();
    net.tick_all(2);
    let matched = net.node(1).tracker().progress[&2].matched;
    assert!(net.propose_conf(1, AddNode, 2));
    assert!(!net.node(2).is_learner());
    assert!(net.node(1).tracker().is_voter(2));
    // Promotion kept its progress.
    assert!(net.node(1).tracker().progress[&2].matched >= matched);
    // Now 2 of 2 voters are needed.
    net.isolate(2);
    let commit = net.node(1).commit();
    assert!(net.put(1, "b", "2"));
    assert_eq!(net.node(1).commit(), commit);
    net.heal();
    net.tick_all(2);
    assert_eq!(net.node(1).commit(), net.node(1).last_index());
    assert_same_logs(&net, &[1, 2]);
}

#[test]
fn a_joining_member_starts_empty_and_is_caught_up_from_index_1() {
    let mut net = cluster(&[1, 2, 3]);
    assert!(net.put(1, "a", "1"));
    net.start(4, Storage::default());
    assert!(!net.node(4).promotable());
    net.delivered.clear();
    assert!(net.propose_conf(1, AddNode, 4));
    // The first probe is rejected; the leader falls back to index 1.
    let first_reject = net
        .delivered
        .iter()
        .find(|m| m.msg_type == MessageType::AppResp && m.from == 4)
        .expect("4 answered");
    assert!(first_reject.reject);
    assert!(net
        .delivered
        .iter()
        .any(|m| m.msg_type == MessageType::App && m.to == 4 && m.index == 0));
    assert_same_logs(&net, &[1, 2, 3, 4]);
    assert!(net.node(4).promotable());
    assert_eq!(net.node(4).conf_state().voters.len(), 4);
    assert_eq!(net.state[&4].get("a"), Some("1"));
}

// ----- membership changes -----

#[test]
fn only_one_conf_change_may_be_pending() {
    let mut net = cluster(&[1, 2, 3]);
    // A new leader may not change membership before applying what it had.
    assert_eq!(
        net.node(1).pending_conf_index(),
        net.node(1).last_index() - 1
    );
    net.start(4, Storage::default());
    net.start(5, Storage::default());
    let leader = net.node_mut(1);
    leader.propose(conf_change(AddLearnerNode, 4)).unwrap();
    leader.propose(conf_change(AddLearnerNode, 5)).unwrap();
    let last = leader.last_index();
    assert_eq!(leader.pending_conf_index(), last - 1);
    assert!(matches!(
        leader.log().entries().last().unwrap().data,
        EntryData::Empty
    ));
    assert!(leader
        .take_events()
        .iter()
        .any(|e| matches!(e, RaftEvent::ConfChangeRefused { request: 1005, .. })));
    net.drain();
    assert_eq!(net.node(1).conf_state().learners.len(), 1);
    // Once applied, the next change is accepted.
    assert!(net.propose_conf(1, AddLearnerNode, 5));
    assert_eq!(net.node(1).conf_state().learners.len(), 2);
    assert_eq!(net.node(5).conf_state(), net.node(1).conf_state());
}

#[test]
fn removing_the_last_voter_is_refused_at_apply_time() {
    let mut net = cluster_with_learners(&[1], &[2]);
    assert!(net.propose_conf(1, RemoveNode, 1));
    assert_eq!(net.node(1).conf_state().voters.len(), 1);
    assert_eq!(net.node(2).conf_state().voters.len(), 1);
    assert!(!net
        .events_of(2, |e| matches!(e, RaftEvent::ConfChangeRefused { .. }))
        .is_empty());
}

#[test]
fn a_removed_leader_keeps_leading_until_stopped() {
    let mut net = cluster(&[1, 2, 3]);
    assert!(net.propose_conf(1, RemoveNode, 1));
    for id in 1..=3 {
        let voters: Vec<_> = net.node(id).conf_state().voters.into_iter().collect();
        assert_eq!(voters, vec![2, 3], "configuration on {id}");
    }
    // etcd's default: no step-down on removal; proposals are dropped.
    assert_eq!(net.node(1).role(), StateRole::Leader);
    assert_eq!(
        net.node_mut(1).propose(EntryData::Empty),
        Err(ProposeError::NotMember)
    );
    assert!(!net.node(1).promotable());
    // The process stops; the others elect a leader among themselves.
    net.crash(1);
    net.tick_all(40);
    let leaders = net.leaders();
    assert_eq!(leaders.len(), 1);
    assert!(net.put(leaders[0], "after", "removal"));
    assert_same_logs(&net, &[2, 3]);
}

// ----- joint consensus (ConfChangeV2) -----

fn joint(transition: ConfChangeTransition, changes: &[(ConfChangeType, NodeId)]) -> EntryData {
    let changes = changes
        .iter()
        .map(|&(change_type, node_id)| ConfChangeSingle {
            change_type,
            node_id,
        })
        .collect();
    EntryData::ConfChangeV2(Rc::new(ConfChangeV2 {
        transition,
        changes,
        request: 77,
        context: Opaque::default(),
    }))
}

fn voters(net: &Network, id: NodeId) -> (Vec<NodeId>, Vec<NodeId>) {
    let cs = net.node(id).conf_state();
    (
        cs.voters.into_iter().collect(),
        cs.voters_outgoing.into_iter().collect(),
    )
}

#[test]
fn a_joint_change_needs_both_majorities_until_it_is_left() {
    let mut net = cluster(&[1, 2, 3]);
    net.start(4, Storage::default());
    net.start(5, Storage::default());
    let change = joint(
        ConfChangeTransition::JointExplicit,
        &[(AddNode, 4), (AddNode, 5), (RemoveNode, 3)],
    );
    net.node_mut(1).propose(change).unwrap();
    net.drain();
    for id in 1..=5 {
        assert_eq!(
            voters(&net, id),
            (vec![1, 2, 4, 5], vec![1, 2, 3]),
            "on {id}"
        );
    }
    // (1 2) is a majority of (1 2 3) but not of (1 2 4 5).
    net.isolate(4);
    net.isolate(5);
    let commit = net.node(1).commit();
    assert!(net.put(1, "a", "1"));
    assert_eq!(net.node(1).commit(), commit, "no majority of (1 2 4 5)");
    net.heal();
    net.tick_all(2);
    assert!(net.node(1).commit() > commit);
    // No other change until the joint configuration is left.
    assert!(net.propose_conf(1, AddLearnerNode, 6));
    assert!(
        net.events_of(1, |e| matches!(
            e,
            RaftEvent::ConfChangeRefused {
                reason: "must transition out of joint config first",
                ..
            }
        ))
        .len()
            == 1
    );
    net.node_mut(1)
        .propose(EntryData::ConfChangeV2(Rc::new(ConfChangeV2::default())))
        .unwrap();
    net.drain();
    assert_eq!(voters(&net, 1), (vec![1, 2, 4, 5], vec![]));
    assert!(!net.node(1).tracker().progress.contains_key(&3));
}

#[test]
fn an_auto_joint_change_is_left_by_the_leader_and_stages_demoted_voters() {
    let mut net = cluster(&[1, 2, 3]);
    net.start(4, Storage::default());
    let change = joint(
        ConfChangeTransition::Auto,
        &[(AddNode, 4), (AddLearnerNode, 3)],
    );
    net.node_mut(1).propose(change).unwrap();
    // Entering: 3 still votes in the outgoing half, staged as a learner.
    net.drain();
    assert_eq!(
        net.events_of(1, |e| *e == RaftEvent::AutoLeaveProposed)
            .len(),
        1
    );
    for id in 1..=4 {
        let cs = net.node(id).conf_state();
        assert_eq!(cs.voters, [1, 2, 4].into(), "on {id}");
        assert_eq!(cs.learners, [3].into(), "on {id}");
        assert!(cs.voters_outgoing.is_empty() && cs.learners_next.is_empty());
    }
    assert!(net.node(3).is_learner());
    assert_same_logs(&net, &[1, 2, 3, 4]);
}

#[test]
fn joint_configurations_survive_a_restart() {
    let mut net = cluster(&[1, 2, 3]);
    net.start(4, Storage::default());
    let change = joint(ConfChangeTransition::JointExplicit, &[(AddNode, 4)]);
    net.node_mut(1).propose(change).unwrap();
    net.drain();
    let applied = net.node(2).applied();
    net.node_mut(2).compact(applied, Opaque::default(), 0);
    let storage = net.crash(2);
    assert!(storage.snapshot.metadata.conf_state.is_joint());
    net.start(2, storage);
    assert_eq!(voters(&net, 2), (vec![1, 2, 3, 4], vec![1, 2, 3]));
}

// ----- the Ready/Advance cycle and RawNode's checks -----

#[test]
fn a_nodes_own_acks_count_only_in_advance() {
    let mut r = Raft::new(&config(1), bootstrap_storage(&[1]), 1);
    for e in r.committed_entries() {
        if let EntryData::ConfChange(cc) = &e.data {
            r.apply_conf_change(cc);
        }
        r.applied_to(e.index);
    }
    r.campaign();
    assert_eq!(
        r.role(),
        StateRole::PreCandidate,
        "its pre-vote is not durable yet"
    );
    while {
        r.take_messages();
        r.advance()
    } {}
    assert_eq!(r.role(), StateRole::Leader);
    let last = r.last_index();
    assert_eq!(r.commit(), last);
    r.propose(EntryData::Empty).unwrap();
    assert_eq!(r.commit(), last, "appended, not yet acknowledged");
    r.take_messages();
    assert!(r.advance());
    assert_eq!(r.commit(), last + 1);
    assert!(!r.advance(), "nothing left to step");
}

#[test]
fn step_refuses_local_messages_and_answers_from_strangers() {
    let mut net = cluster(&[1, 2, 3]);
    let hup = Message::new(MessageType::Hup, 2, 1, 0);
    assert_eq!(net.node_mut(1).step(hup), Err(StepError::LocalMessage));
    let resp = Message::new(MessageType::AppResp, 9, 1, 50);
    assert_eq!(net.node_mut(1).step(resp), Err(StepError::PeerNotFound));
    assert_eq!(net.node(1).term(), 2, "the stranger's term was not taken");
}

#[test]
fn a_leader_removed_with_step_down_on_removal_steps_down() {
    let template = Config {
        step_down_on_removal: true,
        ..config(0)
    };
    let mut net = Network::with_config(&[1, 2, 3], template);
    net.campaign(1);
    assert!(net.propose_conf(1, RemoveNode, 1));
    assert_eq!(net.node(1).role(), StateRole::Follower);
}

#[test]
fn forget_leader_lets_a_follower_vote_within_the_lease() {
    let mut net = cluster(&[1, 2, 3]);
    assert_eq!(net.node(2).leader_id(), 1);
    net.node_mut(2).forget_leader();
    assert_eq!(net.node(2).leader_id(), 0);
    // Lease-based reads rely on the followers' lease: no forgetting.
    let template = Config {
        read_only: ReadOnlyOption::LeaseBased,
        ..config(0)
    };
    let mut net = Network::with_config(&[1, 2, 3], template);
    net.campaign(1);
    net.node_mut(2).forget_leader();
    assert_eq!(net.node(2).leader_id(), 1);
    // The leader answers a read at once, without a heartbeat round.
    net.node_mut(1).read_index(5).unwrap();
    let states = net.node_mut(1).take_read_states();
    assert_eq!(states.len(), 1);
    assert_eq!(states[0].index, net.node(1).commit());
}

// ----- leadership transfer -----

#[test]
fn transfer_to_an_up_to_date_voter() {
    let mut net = cluster(&[1, 2, 3]);
    let term = net.node(1).term();
    net.node_mut(1).transfer_leader(2);
    net.drain();
    assert_eq!(net.leaders(), vec![2]);
    assert_eq!(net.node(2).term(), term + 1);
    assert_eq!(net.node(1).leader_id(), 2);
    // The transferee campaigned without PreVote, breaking the lease.
    assert_eq!(net.count_delivered(MessageType::PreVote, 2, 1), 0);
    assert!(net
        .delivered
        .iter()
        .any(|m| m.msg_type == MessageType::Vote && m.context == CAMPAIGN_TRANSFER));
}

#[test]
fn transfer_to_a_lagging_voter_catches_it_up_first() {
    let mut net = cluster(&[1, 2, 3]);
    net.isolate(3);
    for i in 0..5 {
        assert!(net.put(1, "k", &i.to_string()));
    }
    net.heal();
    net.cut(1, 3);
    net.node_mut(1).transfer_leader(3);
    assert_eq!(net.node(1).lead_transferee(), Some(3));
    // Proposals are dropped meanwhile.
    assert_eq!(
        net.node_mut(1).propose(EntryData::Empty),
        Err(ProposeError::TransferInProgress)
    );
    net.drain();
    assert_eq!(net.leaders(), vec![1]);
    net.heal();
    net.tick_all(1);
    assert_eq!(net.leaders(), vec![3]);
    assert_eq!(net.state[&3].get("k"), Some("4"));
}

#[test]
fn transfer_is_refused_for_a_learner_self_or_unknown() {
    let mut net = cluster_with_learners(&[1, 2, 3], &[4]);
    for (to, reason) in [(4, "learner"), (1, "already leader"), (9, "unknown member")] {
        net.node_mut(1).transfer_leader(to);
        net.drain();
        assert_eq!(net.leaders(), vec![1]);
        assert_eq!(net.node(1).lead_transferee(), None);
        assert!(
            !net.events_of(1, |e| *e == RaftEvent::TransferIgnored { to, reason })
                .is_empty(),
            "{to}: {reason}"
        );
    }
}

#[test]
fn a_follower_forwards_a_transfer_and_a_stuck_transfer_is_aborted() {
    let mut net = cluster(&[1, 2, 3]);
    net.isolate(3);
    net.node_mut(2).transfer_leader(3);
    net.drain();
    assert_eq!(net.node(1).lead_transferee(), Some(3));
    net.heal();
    net.isolate(3);
    net.tick_node(1, 10);
    assert_eq!(net.node(1).lead_transferee(), None);
    assert_eq!(net.leaders(), vec![1]);
    assert!(!net
        .events_of(1, |e| *e == RaftEvent::TransferAborted { to: 3 })
        .is_empty());
    assert!(net.put(1, "ok", "again"));
}

// ----- CheckQuorum, PreVote, lease -----

#[test]
fn an_isolated_leader_steps_down_under_check_quorum() {
    let mut net = cluster(&[1, 2, 3]);
    let term = net.node(1).term();
    net.isolate(1);
    net.tick_node(1, 9);
    assert_eq!(net.node(1).role(), StateRole::Leader);
    net.tick_node(1, 11);
    assert_eq!(net.node(1).role(), StateRole::Follower);
    assert_eq!(net.node(1).term(), term, "steps down in the same term");
    assert!(
        net.events_of(1, |e| *e == RaftEvent::StepDownNoQuorum { term })
            .len()
            == 1
    );
}

#[test]
fn prevote_keeps_a_partitioned_node_from_raising_terms() {
    let mut net = cluster(&[1, 2, 3]);
    let term = net.node(1).term();
    net.isolate(3);
    net.tick_all(200);
    assert_eq!(net.node(3).term(), term);
    assert_eq!(net.node(3).role(), StateRole::PreCandidate);
    net.heal();
    net.tick_all(5);
    assert_eq!(net.leaders(), vec![1]);
    for id in 1..=3 {
        assert_eq!(net.node(id).term(), term);
    }
}

#[test]
fn without_prevote_a_rejoining_node_disrupts_the_leader() {
    let mut cfg = config(0);
    cfg.pre_vote = false;
    let mut net = Network::with_config(&[1, 2, 3], cfg);
    net.campaign(1);
    let term = net.node(1).term();
    net.isolate(3);
    net.tick_all(60);
    assert!(net.node(3).term() > term);
    net.heal();
    net.tick_all(40);
    // Node 3's higher term deposed leader 1 (via the AppResp to the stale term).
    assert!(net.node(1).term() > term);
    assert_eq!(net.leaders().len(), 1);
}

#[test]
fn the_vote_lease_ignores_disruptive_candidates_but_not_transfers() {
    let mut net = cluster(&[1, 2, 3]);
    let n = net.node_mut(2);
    let term = n.term();
    let mut vote = Message::new(MessageType::Vote, 3, 2, term + 5);
    vote.index = n.last_index();
    vote.log_term = n.last_term();
    n.step(vote.clone()).unwrap();
    assert_eq!(n.term(), term);
    assert!(n.take_messages().is_empty(), "ignored, not answered");
    assert!(n.take_events().iter().any(|e| matches!(
        e,
        RaftEvent::VoteRejected {
            reason: "lease",
            ..
        }
    )));
    vote.context = CAMPAIGN_TRANSFER;
    n.step(vote).unwrap();
    assert_eq!(n.term(), term + 5);
    assert_eq!(n.vote(), 3);
}

#[test]
fn a_stale_leader_learns_the_higher_term_from_an_app_response() {
    let mut net = cluster(&[1, 2, 3]);
    let term = net.node(1).term();
    let n = net.node_mut(1);
    let mut resp = Message::new(MessageType::AppResp, 2, 1, term + 3);
    resp.index = 0;
    n.step(resp).unwrap();
    assert_eq!(n.role(), StateRole::Follower);
    assert_eq!((n.term(), n.leader_id()), (term + 3, 0));
}

// ----- snapshots and restarts -----

#[test]
fn a_node_far_behind_is_caught_up_by_snapshot() {
    let mut net = cluster(&[1, 2, 3]);
    net.isolate(3);
    for i in 0..30 {
        assert!(net.put(1, &format!("k{}", i % 7), &i.to_string()));
    }
    let applied = net.node(1).applied();
    let data = net.snapshot_data(1);
    net.node_mut(1).compact(applied, data, 5);
    assert_eq!(net.node(1).snapshot_index(), applied);
    assert_eq!(net.node(1).first_index(), applied - 4);
    net.heal();
    net.tick_all(3);
    assert!(!net
        .events_of(1, |e| matches!(e, RaftEvent::SnapshotSent { to: 3, .. }))
        .is_empty());
    assert!(!net
        .events_of(3, |e| *e == RaftEvent::SnapshotRestored { index: applied })
        .is_empty());
    // The follower learned the configuration from the snapshot.
    assert_eq!(net.node(3).conf_state(), net.node(1).conf_state());
    net.node_mut(1).report_snapshot(3, true);
    assert!(net.put(1, "after", "snap"));
    net.tick_all(2);
    assert_eq!(
        net.node(1).tracker().progress[&3].state,
        ProgressState::Replicate
    );
    assert_same_logs(&net, &[1, 2, 3]);
}

#[test]
fn a_member_joining_after_compaction_gets_a_snapshot() {
    let mut net = cluster(&[1, 2, 3]);
    for i in 0..10 {
        assert!(net.put(1, "k", &i.to_string()));
    }
    let applied = net.node(1).applied();
    let data = net.snapshot_data(1);
    net.node_mut(1).compact(applied, data, 2);
    net.start(4, Storage::default());
    assert!(net.propose_conf(1, AddLearnerNode, 4));
    net.tick_all(3);
    assert!(!net
        .events_of(4, |e| matches!(e, RaftEvent::SnapshotRestored { .. }))
        .is_empty());
    assert!(net.node(4).is_learner());
    assert_eq!(net.state[&4].get("k"), Some("9"));
    assert_eq!(net.node(4).last_index(), net.node(1).last_index());
}

#[test]
fn restart_from_storage_loses_nothing_committed() {
    let mut net = cluster(&[1, 2, 3]);
    for i in 0..5 {
        assert!(net.put(1, "k", &i.to_string()));
    }
    // Node 2 snapshots its state, then more is written after the snapshot.
    let applied = net.node(2).applied();
    let data = net.snapshot_data(2);
    net.node_mut(2).compact(applied, data, 0);
    for i in 5..8 {
        assert!(net.put(1, &format!("j{i}"), "x"));
    }
    let state_before = net.state[&2].clone();
    let storage = net.crash(2);
    assert_eq!(storage.snapshot.metadata.index, applied);
    assert!(storage.entries.iter().all(|e| e.index > applied));
    let before = net.node(3).commit();
    net.start(2, storage.clone());
    let n = net.node(2);
    assert_eq!(n.commit(), before);
    assert_eq!(n.term(), net.node(1).term());
    assert_eq!(n.role(), StateRole::Follower);
    assert_eq!(n.storage(), storage, "restart is faithful");
    assert_eq!(net.state[&2], state_before, "snapshot + re-applied entries");
    // Everyone restarts at once.
    for id in 1..=3 {
        let s = net.crash(id);
        net.start(id, s);
    }
    net.tick_all(40);
    let l = net.leaders();
    assert_eq!(l.len(), 1);
    assert!(net.put(l[0], "k", "after"));
    assert_same_logs(&net, &[1, 2, 3]);
    assert_eq!(net.state[&2].get("k"), Some("after"));
}

#[test]
fn a_restarted_voter_remembers_its_vote() {
    let mut cfg = config(0);
    cfg.pre_vote = false;
    cfg.check_quorum = false;
    let mut net = Network::with_config(&[1, 2, 3], cfg.clone());
    net.isolate(3);
    net.campaign(1);
    let term = net.node(2).term();
    assert_eq!(net.node(2).vote(), 1);
    let s = net.crash(2);
    net.start(2, s);
    let n = net.node_mut(2);
    let mut vote = Message::new(MessageType::Vote, 3, 2, term);
    vote.index = 100;
    vote.log_term = 100;
    n.step(vote).unwrap();
    let resp = n.take_messages();
    assert!(resp[0].reject, "voted twice in term {term}");
}

// ----- ReadIndex -----

#[test]
fn read_index_needs_a_quorum_of_voter_acks() {
    let mut net = cluster_with_learners(&[1, 2, 3], &[4]);
    net.isolate(2);
    net.isolate(3);
    net.node_mut(1).read_index(77).unwrap();
    net.drain();
    assert!(
        net.node_mut(1).take_read_states().is_empty(),
        "a learner's ack confirmed a read"
    );
    assert_eq!(net.node(1).pending_reads(), 1);
    net.heal();
    net.isolate(3);
    net.tick_node(1, 1);
    let rs = net.node_mut(1).take_read_states();
    assert_eq!(rs.len(), 1);
    assert_eq!((rs[0].request, rs[0].index), (77, net.node(1).commit()));
}

#[test]
fn read_index_from_a_follower_or_learner_is_answered_by_the_leader() {
    let mut net = cluster_with_learners(&[1, 2, 3], &[4]);
    assert!(net.put(1, "a", "1"));
    for id in [2, 4] {
        net.node_mut(id).read_index(id * 10).unwrap();
        net.drain();
        let rs = net.node_mut(id).take_read_states();
        assert_eq!(rs.len(), 1, "read on {id}");
        assert_eq!(
            (rs[0].request, rs[0].index),
            (id * 10, net.node(1).commit())
        );
    }
}

#[test]
fn read_index_waits_for_a_commit_in_the_leaders_term() {
    let mut net = Network::new(&[1, 2, 3]);
    // Node 1 wins but its first entry does not commit yet.
    net.drop_if = Some(Box::new(|m: &Message| m.msg_type == MessageType::AppResp));
    net.campaign(1);
    assert_eq!(net.node(1).role(), StateRole::Leader);
    net.node_mut(1).read_index(5).unwrap();
    net.tick_node(1, 1);
    assert!(net.node_mut(1).take_read_states().is_empty());
    net.heal();
    net.tick_node(1, 2);
    let rs = net.node_mut(1).take_read_states();
    assert_eq!(rs.len(), 1);
    assert_eq!(rs[0].index, net.node(1).commit());
}

#[test]
fn proposals_without_a_leader_are_dropped() {
    let mut net = Network::new(&[1, 2, 3]);
    assert_eq!(
        net.node_mut(2).propose(EntryData::Empty),
        Err(ProposeError::NotLeaderNoLeader)
    );
    assert_eq!(
        ProposeError::NotLeaderNoLeader.to_string(),
        "raft proposal dropped (no leader)"
    );
    assert!(net.node_mut(2).read_index(1).is_err());
    // A follower with a leader forwards.
    net.campaign(1);
    assert!(net.put(2, "via", "follower"));
    assert_eq!(net.state[&1].get("via"), Some("follower"));
}

#[test]
fn garbage_messages_never_panic() {
    let mut net = cluster_with_learners(&[1, 2, 3], &[4]);
    let types = [
        MessageType::App,
        MessageType::AppResp,
        MessageType::Vote,
        MessageType::VoteResp,
        MessageType::PreVote,
        MessageType::PreVoteResp,
        MessageType::Snap,
        MessageType::Heartbeat,
        MessageType::HeartbeatResp,
        MessageType::TransferLeader,
        MessageType::TimeoutNow,
        MessageType::ReadIndex,
        MessageType::ReadIndexResp,
        MessageType::Prop,
    ];
    for to in 1..=4 {
        for t in types {
            for from in [0, 2, 9] {
                for term in [0, 1, 2, 3, 50] {
                    for index in [0, 3, 1000] {
                        let mut m = Message::new(t, from, to, term);
                        m.index = index;
                        m.log_term = term;
                        m.commit = index;
                        m.reject = index == 3;
                        m.reject_hint = index;
                        let _ = net.node_mut(to).step(m);
                    }
                }
            }
        }
    }
    net.node_mut(1).report_snapshot(9, false);
    net.node_mut(1).report_unreachable(9);
    net.drain();
    net.tick_all(60);
    assert_eq!(net.leaders().len(), 1);
}

#[test]
fn storage_roundtrips_through_new() {
    let cfg = Config::new(1);
    let s = bootstrap_storage(&[1, 2, 3]);
    let r = Raft::new(&cfg, s.clone(), 1);
    assert_eq!(r.storage(), s);
    assert!(r.conf_state().voters.is_empty());
    assert_eq!(r.committed_entries().len(), 3);
}
