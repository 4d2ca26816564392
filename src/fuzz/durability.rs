//! Durability: every acknowledged write is committed on the final leader at
//! the index it was acknowledged with, and the leader's state holds it or a
//! later write of the same key.

use std::collections::BTreeSet;

use crate::session::exec::Session;
use crate::sim::kv::Request;

use super::tracker::Tracker;
use super::verdict::{Failure, FailureKind};

/// Every acknowledged write is on the final leader, committed, at its index,
/// and the leader's state holds it or a later write of its key.
pub fn durability(session: &Session, tracker: &Tracker) -> Vec<Failure> {
    let mut failures = Vec::new();
    let cluster = session.cluster();
    let Some(leader) = cluster.leader() else {
        return failures;
    };
    let world = cluster.world();
    let (Some(raft), Some(node)) = (world.raft(leader), world.node(leader)) else {
        return failures;
    };
    let commit = raft.commit();
    let entries = raft.entries();
    let first = entries.first().map_or(u64::MAX, |e| e.index);
    let mut fail = |text: String| {
        failures.push(Failure {
            kind: FailureKind::Durability,
            text,
        })
    };
    for a in &tracker.acks {
        if a.index > commit {
            fail(format!(
                "the write {}={} acknowledged at index {} (line {}) is beyond leader {leader}'s \
                 commit index {commit}",
                a.key, a.value, a.index, a.line
            ));
            continue;
        }
        if a.index >= first {
            let entry = entries.get((a.index - first) as usize);
            let same = entry.is_some_and(
                |e| matches!(Request::of(&e.data), Some(Request::Put(p)) if *p.key == *a.key && *p.value == *a.value),
            );
            if !same {
                fail(format!(
                    "the write {}={} acknowledged at index {} (line {}) is not the entry at that \
                     index on leader {leader}",
                    a.key, a.value, a.index, a.line
                ));
            }
        }
    }
    let keys: BTreeSet<&str> = tracker.acks.iter().map(|a| a.key.as_str()).collect();
    for key in keys {
        let Some(latest) = tracker.latest_ack(key) else {
            continue;
        };
        let value = node.state.get(key);
        if !value.is_some_and(|v| tracker.fresh_enough(key, v, latest.index)) {
            fail(format!(
                "leader {leader}'s state holds {key}={} but {key}={} was acknowledged at index {} \
                 (line {})",
                value.unwrap_or("(nothing)"),
                latest.value,
                latest.index,
                latest.line
            ));
        }
    }
    failures
}
