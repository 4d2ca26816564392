//! The simulated world as a whole: determinism, the network model, crashes,
//! and the invariant checker catching a broken property.
#![cfg(not(target_arch = "wasm32"))]

use raftlab::raft::{
    bootstrap_storage, Config, EntryData, Message, MessageType, ProgressState, Raft, RaftEvent,
    StateRole,
};
use raftlab::sim::invariants::Checker;
use raftlab::sim::{DropReason, EventKind, Transport, World, WorldConfig};

fn world(voters: &[u64], cfg: WorldConfig) -> World {
    World::new(cfg, voters)
}

fn run_to_leader(w: &mut World) -> u64 {
    while w.leader().is_none() {
        assert!(w.step(), "the world ran out of things to do");
        assert!(w.now() < 60_000, "no leader within a minute");
    }
    w.leader().unwrap()
}

#[test]
fn a_cloned_world_continues_identically() {
    let mut a = world(
        &[1, 2, 3],
        WorldConfig {
            seed: 42,
            ..WorldConfig::default()
        },
    );
    let leader = run_to_leader(&mut a);
    a.propose(leader, EntryData::Empty).unwrap();
    let mut b = a.clone();
    a.run_until(20_000);
    b.run_until(20_000);
    let describe = |w: &World| {
        w.nodes()
            .map(|n| {
                let r = n.raft.as_ref().unwrap();
                (
                    n.id,
                    r.term(),
                    r.commit(),
                    r.last_index(),
                    format!("{:?}", r.role()),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(describe(&a), describe(&b));
    assert_eq!(a.deliveries(), b.deliveries());
}

#[test]
fn the_first_leader_is_elected_in_term_two() {
    // As etcd: StartNode boots every member at term 1, so the first
    // election is for term 2.
    let mut w = world(&[1, 2, 3], WorldConfig::default());
    let leader = run_to_leader(&mut w);
    assert_eq!(w.raft(leader).unwrap().term(), 2);
    assert!(w.violations().is_empty());
}

#[test]
fn a_cut_link_drops_messages_and_says_so() {
    let mut w = world(&[1, 2, 3], WorldConfig::default());
    let leader = run_to_leader(&mut w);
    let follower = if leader == 1 { 2 } else { 1 };
    w.take_events();
    w.cut(leader, follower);
    w.run_until(w.now() + 1_000);
    let dropped = w
        .take_events()
        .into_iter()
        .filter(|e| matches!(e.kind, EventKind::MessageDropped { from, to, reason: DropReason::LinkCut, .. } if from == leader && to == follower))
        .count();
    assert!(
        dropped >= 5,
        "heartbeats on the cut link are dropped, saw {dropped}"
    );
    assert!(w
        .network()
        .in_flight()
        .all(|m| !(m.msg.from == leader && m.msg.to == follower)));
    // The other direction still works: the follower still answers.
    assert!(!w.network().is_cut(follower, leader));
}

#[test]
fn bandwidth_queues_heartbeats_behind_a_large_message() {
    let cfg = WorldConfig {
        bandwidth: Some(10_000),
        ..WorldConfig::default()
    };
    let mut w = world(&[1, 2, 3], cfg);
    let leader = run_to_leader(&mut w);
    // 50 KB of writes: five seconds of the leader's link to each follower.
    for i in 0..10 {
        let put = raftlab::sim::Put {
            key: format!("k{i}").into(),
            value: "v".into(),
            size: 5_000,
            request: 1_000 + i,
        };
        w.propose(leader, raftlab::sim::Request::Put(put).entry())
            .unwrap();
    }
    w.run_until(w.now() + 200);
    let heartbeat = w
        .network()
        .in_flight()
        .filter(|m| m.msg.msg_type == raftlab::raft::MessageType::Heartbeat && m.msg.from == leader)
        .map(|m| m.departs_ms)
        .max();
    let now = w.now();
    assert!(
        heartbeat.is_some_and(|d| d > now + 1_000),
        "a heartbeat sent now waits behind the queued appends: departs {heartbeat:?} at {now}"
    );
}

#[test]
fn a_crash_keeps_term_vote_commit_and_log() {
    let mut w = world(&[1, 2, 3], WorldConfig::default());
    let leader = run_to_leader(&mut w);
    w.propose(leader, EntryData::Empty).unwrap();
    w.run_until(w.now() + 500);
    let r = w.raft(leader).unwrap();
    let (term, vote, commit, last) = (r.term(), r.vote(), r.commit(), r.last_index());
    assert!(w.crash(leader));
    let d = &w.node(leader).unwrap().durable;
    assert_eq!(
        (d.hard_state.term, d.hard_state.vote, d.hard_state.commit),
        (term, vote, commit)
    );
    assert_eq!(d.entries.last().map(|e| e.index), Some(last));
    assert!(w.start(leader).is_ok());
    let r = w.raft(leader).unwrap();
    assert_eq!((r.term(), r.commit(), r.last_index()), (term, commit, last));
    assert_eq!(r.role(), StateRole::Follower);
}

#[test]
fn the_checker_catches_two_leaders_in_one_term() {
    // Two single-node clusters that both call themselves node 1's peers:
    // each elects itself in term 2, which Raft forbids within one cluster.
    let mut a = Raft::new(&Config::new(1), bootstrap_storage(&[1]), 1);
    let mut b = Raft::new(&Config::new(2), bootstrap_storage(&[2]), 2);
    for r in [&mut a, &mut b] {
        for e in r.committed_entries() {
            if let EntryData::ConfChange(cc) = &e.data {
                r.apply_conf_change(cc);
            }
            r.applied_to(e.index);
        }
        r.campaign();
        // Its votes for itself count once durable, in the Ready/Advance cycle.
        while {
            r.take_messages();
            r.advance()
        } {}
        assert_eq!(r.role(), StateRole::Leader);
    }
    let mut checker = Checker::default();
    checker.observe(10, 1, &a);
    assert!(checker.violations().is_empty());
    checker.observe(11, 2, &b);
    let v = checker.violations();
    assert_eq!(v[0].property, "election safety", "{v:?}");
    assert_eq!(v[0].nodes, vec![1, 2]);
    assert_eq!(v[0].time_ms, 11);
    // Their bootstrap entries differ too (each lists only itself), which
    // log matching and state machine safety also catch.
    let properties: Vec<&str> = v.iter().map(|v| v.property).collect();
    assert!(properties.contains(&"log matching"), "{properties:?}");
}

/// A single-node cluster of `id` that leads a term of its own, each entry it
/// holds committed and applied; with `newer`, it heard of term `newer` from
/// a node outside it first and leads the term after that.
fn lone_leader(id: u64, newer: Option<u64>) -> Raft {
    let mut r = Raft::new(&Config::new(id), bootstrap_storage(&[id]), id);
    let settle = |r: &mut Raft| {
        while {
            r.take_messages();
            r.advance()
        } {}
        for e in r.committed_entries() {
            if let EntryData::ConfChange(cc) = &e.data {
                r.apply_conf_change(cc);
            }
            r.applied_to(e.index);
        }
    };
    settle(&mut r);
    if let Some(term) = newer {
        r.step(Message::new(MessageType::Heartbeat, 9, id, term))
            .unwrap();
        settle(&mut r);
    }
    r.campaign();
    settle(&mut r);
    assert_eq!(r.role(), StateRole::Leader);
    r
}

#[test]
fn leader_completeness_asks_a_leader_for_the_terms_before_its_own() {
    // Node 1 commits index 2 in term 2; node 2, alone in a cluster of its
    // own, leads term 6 with another entry at index 2.
    let old = lone_leader(1, None);
    let new = lone_leader(2, Some(5));
    assert_eq!((old.term(), old.commit(), old.term_at(2)), (2, 2, Some(2)));
    assert_eq!((new.term(), new.term_at(2)), (6, Some(6)));
    let completeness = |c: &Checker| -> Vec<String> {
        c.violations()
            .iter()
            .filter(|v| v.property == "leader completeness")
            .map(|v| v.text.clone())
            .collect()
    };
    // A leader of term 6 lacks an entry committed in term 2: a violation.
    let mut checker = Checker::default();
    checker.observe(10, 1, &old);
    checker.observe(11, 2, &new);
    assert_eq!(
        completeness(&checker),
        ["node 2 became leader of term 6 without committed entry 2"]
    );
    // A leader of term 2 that lacks what term 6 committed is stale, not
    // wrong: Raft promises it nothing (its logs differ, which log matching
    // still reports).
    let mut checker = Checker::default();
    checker.observe(10, 2, &new);
    checker.observe(11, 1, &old);
    assert_eq!(completeness(&checker), Vec::<String>::new());
    assert!(checker
        .violations()
        .iter()
        .any(|v| v.property == "log matching"));
}

/// Every member ends with the same multi-version store, history included,
/// whether it applied the writes from the log, replayed them after a crash,
/// or installed a snapshot's image that rebuilt its index; the checker saw
/// every revision and found nothing.
#[test]
fn members_hold_the_same_store_at_every_revision() {
    use raftlab::sim::{Put, Request};
    let mut w = world(
        &[1, 2, 3],
        WorldConfig {
            seed: 7,
            snapshot_count: 20,
            memory_snapshot_count: None,
            catchup_entries: 5,
            ..WorldConfig::default()
        },
    );
    let leader = run_to_leader(&mut w);
    let follower = (1..=3).find(|&id| id != leader).unwrap();
    let put = |w: &mut World, n: u64| {
        let leader = run_to_leader(w);
        let req = Request::Put(Put {
            key: format!("k{}", n % 4).into(),
            value: format!("v{n}").into(),
            size: 8,
            request: 1000 + n,
        });
        w.propose(leader, req.entry()).unwrap();
        let t = w.now() + 200;
        w.run_until(t);
    };
    for n in 0..10 {
        put(&mut w, n);
    }
    assert!(w.crash(follower));
    for n in 10..60 {
        put(&mut w, n);
    }
    // The follower is behind the leader's compacted log: it catches up by
    // snapshot.
    w.take_events();
    assert!(w.start(follower).is_ok());
    let t = w.now() + 5_000;
    w.run_until(t);
    let restored = w.take_events().into_iter().any(|e| {
        matches!(e.kind, EventKind::Raft { node, event: RaftEvent::SnapshotRestored { .. } } if node == follower)
    });
    assert!(restored, "the follower caught up by snapshot");
    let stores: Vec<_> = w.nodes().map(|n| n.state.mvcc.clone()).collect();
    assert_eq!(stores[0].rev(), 61, "60 puts after revision 1");
    for s in &stores[1..] {
        assert_eq!(s.rev(), stores[0].rev());
        for rev in 2..=s.rev() {
            assert_eq!(s.record(rev), stores[0].record(rev), "revision {rev}");
        }
        assert_eq!(
            s.get("k1", 30).unwrap().map(|kv| kv.version),
            stores[0].get("k1", 30).unwrap().map(|kv| kv.version)
        );
    }
    assert!(w.violations().is_empty(), "{:?}", w.violations());
}

#[test]
fn founding_members_are_started_before_they_publish() {
    // etcd's NewClusterFromURLsMap names every member of the initial
    // cluster, and a named member IsStarted (api/membership/member.go):
    // the strict reconfiguration check counts the founding members from
    // the start, while their client URLs come with their publish.
    let mut w = world(&[1, 2, 3], WorldConfig::default());
    let mut seen_unpublished = false;
    loop {
        let mut all_published = true;
        for n in w.nodes() {
            for (id, m) in n.state.members.iter() {
                assert!(m.started, "member {id} as node {} sees it", n.id);
                all_published &= m.published;
                seen_unpublished |= !m.published;
            }
            all_published &= n.state.members.len() == 3;
        }
        if all_published {
            break;
        }
        assert!(w.step(), "the world ran out of things to do");
        assert!(w.now() < 60_000, "not all published within a minute");
    }
    assert!(seen_unpublished, "a member was named before it published");
}

#[test]
fn what_was_sent_to_a_crashed_process_never_reaches_its_next_one() {
    // rafthttp's connections belong to one process: what a peer wrote to
    // the crashed one died with it, and the restarted process is dialled
    // anew (`streamReader.run`). Messages on their way when it crashed, or
    // sent while it was down, are lost even if it runs again before they
    // would have arrived.
    for transport in [Transport::Shared, Transport::Streams] {
        let mut w = world(
            &[1, 2, 3],
            WorldConfig {
                latency_ms: (50, 50),
                transport,
                ..WorldConfig::default()
            },
        );
        let leader = run_to_leader(&mut w);
        let follower = (1..=3).find(|&id| id != leader).unwrap();
        w.propose(leader, EntryData::Empty).unwrap();
        let sent_before = w
            .network()
            .in_flight()
            .filter(|f| f.msg.to == follower)
            .count();
        assert!(sent_before > 0, "{transport:?}: the append is on its way");
        assert!(w.crash(follower));
        let t = w.now() + 10;
        w.run_until(t);
        // Sent while it is down.
        w.propose(leader, EntryData::Empty).unwrap();
        w.take_events();
        let received = w.network().counts(follower).received;
        assert!(w.start(follower).is_ok());
        assert_eq!(
            w.network()
                .in_flight()
                .filter(|f| f.msg.to == follower)
                .count(),
            0,
            "{transport:?}: nothing of before reaches the new process"
        );
        let lost = w
            .take_events()
            .into_iter()
            .filter(|e| {
                matches!(e.kind, EventKind::MessageDropped { to, reason: DropReason::NodeDown, .. } if to == follower)
            })
            .count();
        assert!(lost > 0, "{transport:?}: the drops are told");
        // Anything sent from now on arrives 50ms later at the earliest.
        let t = w.now() + 49;
        w.run_until(t);
        assert_eq!(
            w.network().counts(follower).received,
            received,
            "{transport:?}"
        );
        w.run_until(t + 2_000);
        assert!(w.network().counts(follower).received > received);
        assert!(w.violations().is_empty(), "{:?}", w.violations());
    }
}

#[test]
fn what_becomes_of_a_message_is_told_to_the_process_that_sent_it_only() {
    // rafthttp reports an unreachable peer (`peer.send`) or a snapshot's
    // fate (`snapshotSender.send`) to the raft node of its own process. A
    // message the leader sent before it crashed and ran again, lost later,
    // must not move the peer's progress in the new process.
    let mut w = world(
        &[1, 2, 3],
        WorldConfig {
            latency_ms: (300, 300),
            ..WorldConfig::default()
        },
    );
    let leader = run_to_leader(&mut w);
    let f = (1..=3).find(|&id| id != leader).unwrap();
    w.propose(leader, EntryData::Empty).unwrap();
    assert!(w
        .network()
        .in_flight()
        .any(|m| m.msg.from == leader && m.msg.to == f));
    let t = w.now() + 1;
    w.run_until(t);
    // The leader crashes and its next process wins again, fast.
    assert!(w.crash(leader));
    assert!(w.start(leader).is_ok());
    w.set_network((1, 1), None, 0);
    assert!(w.campaign(leader));
    let started = w.now();
    let replicating = |w: &World| {
        w.raft(leader).is_some_and(|r| {
            r.role() == StateRole::Leader
                && r.tracker().progress.get(&f).map(|p| p.state) == Some(ProgressState::Replicate)
        })
    };
    while !replicating(&w) {
        assert!(w.step());
        assert!(w.now() < started + 250, "the new leader replicates to {f}");
    }
    // Nothing the new process sent to `f` is on its way; the old one's is.
    while w
        .network()
        .in_flight()
        .any(|m| m.msg.to == f && m.sent_ms >= started)
    {
        assert!(w.step());
    }
    assert!(w.now() < started + 300);
    assert!(w
        .network()
        .in_flight()
        .any(|m| m.msg.from == leader && m.msg.to == f));
    // `f` restarts: the old process's message to it is lost, and the new
    // leader is not told.
    assert!(w.crash(f));
    assert!(w.start(f).is_ok());
    assert!(
        replicating(&w),
        "the old process's loss moved the new one's progress"
    );
}

#[test]
fn members_keep_one_copy_of_the_entries_and_records_they_hold_alike() {
    use raftlab::sim::{Put, Request};
    use std::rc::Rc;
    let mut w = world(&[1, 2, 3], WorldConfig::default());
    let leader = run_to_leader(&mut w);
    for n in 0..600u64 {
        let req = Request::Put(Put {
            key: format!("k{}", n % 4).into(),
            value: format!("v{n}").into(),
            size: 8,
            request: 1000 + n,
        });
        w.propose(leader, req.entry()).unwrap();
    }
    let t = w.now() + 2_000;
    w.run_until(t);
    let nodes: Vec<_> = w.nodes().collect();
    let log = |i: usize| nodes[i].raft.as_ref().unwrap().log();
    // Every log holds the same first 256 entries (index 1 on), and the
    // same first 256 records (revision 2 on): one chunk for all three.
    for i in 1..3 {
        let (a, b) = (log(0).chunk_at(1).unwrap(), log(i).chunk_at(1).unwrap());
        assert!(Rc::ptr_eq(a, b), "node {}'s entries", nodes[i].id);
        let store = |j: usize| nodes[j].state.mvcc.backend();
        let (a, b) = (store(0).chunk_at(2).unwrap(), store(i).chunk_at(2).unwrap());
        assert!(Rc::ptr_eq(a, b), "node {}'s records", nodes[i].id);
    }
    assert!(w.violations().is_empty(), "{:?}", w.violations());
}
