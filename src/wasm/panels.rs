//! The text beside the canvas: the quorum panel and each node's details, as
//! plain JSON objects the page turns into accessible DOM.

use serde_json::{json, Value};

use crate::raft::{NodeId, StateRole};
use crate::server::Cluster;

use super::draw::{node_views, NodeView};

/// Voters, learners, quorum size, who acknowledged the latest commit, and
/// whether the leader can reach a quorum right now.
pub fn quorum(c: &Cluster) -> Value {
    let w = c.world();
    let max_learners = w.config().max_learners;
    let leader = c.leader();
    let auth = c.authority().and_then(|a| w.raft(a));
    let conf = auth.map(|r| r.conf_state()).unwrap_or_default();
    let quorum = conf.voters.len() / 2 + 1;
    let base = json!({
        "leader": leader,
        "voters": conf.voters,
        "learners": conf.learners,
        "max_learners": max_learners,
        "quorum": quorum,
    });
    let Some(l) = leader.and_then(|id| w.raft(id)) else {
        let mut v = base;
        v["acked"] = json!([]);
        v["commit"] = json!(auth.map_or(0, |r| r.commit()));
        v["reachable"] = json!([]);
        v["can_reach_quorum"] = json!(false);
        v["summary"] = json!("no leader: no write can commit until an election is won");
        return v;
    };
    let commit = l.commit();
    let acked: Vec<NodeId> = conf
        .voters
        .iter()
        .copied()
        .filter(|id| {
            *id == l.id()
                || l.tracker()
                    .progress
                    .get(id)
                    .is_some_and(|p| p.matched >= commit)
        })
        .collect();
    let reachable: Vec<NodeId> = conf
        .voters
        .iter()
        .copied()
        .filter(|&id| id == l.id() || w.connected_since(l.id(), id).is_some())
        .collect();
    let ok = reachable.len() >= quorum;
    let mut v = base;
    v["acked"] = json!(acked);
    v["commit"] = json!(commit);
    v["reachable"] = json!(reachable);
    v["can_reach_quorum"] = json!(ok);
    v["summary"] = json!(if ok {
        format!(
            "leader {} reaches {} of {} voters: quorum {} holds",
            l.id(),
            reachable.len(),
            conf.voters.len(),
            quorum
        )
    } else {
        format!(
            "leader {} reaches only {} of {} voters (quorum {}): it will step down",
            l.id(),
            reachable.len(),
            conf.voters.len(),
            quorum
        )
    });
    v
}

fn node_json(c: &Cluster, v: &NodeView) -> Value {
    let role = if v.removed {
        "removed"
    } else if v.never_started {
        "not started"
    } else {
        v.raft.map_or("down", |r| r.role().name())
    };
    let kv: Vec<Value> = v
        .sim
        .map(|s| s.state.iter().map(|(k, val)| json!([k, val])).collect())
        .unwrap_or_default();
    let url = c
        .authority()
        .and_then(|a| c.world().node(a))
        .and_then(|a| a.state.members.get(&v.id))
        .map(|m| m.peer_url.to_string());
    json!({
        "id": v.id,
        "role": role,
        "learner": v.learner,
        "running": v.raft.is_some(),
        "removed": v.removed,
        "never_started": v.never_started,
        "leader": v.raft.is_some_and(|r| r.role() == StateRole::Leader),
        "term": v.raft.map(|r| r.term()),
        "commit": v.raft.map(|r| r.commit()),
        "applied": v.raft.map(|r| r.applied()),
        "last_index": v.raft.map(|r| r.last_index()),
        "snapshot_index": v.raft.map(|r| r.snapshot_index()),
        "peer_url": url,
        "bad_url": v.bad_url,
        "kv": kv,
    })
}

/// Every node the cluster knows of, with its keys.
pub fn nodes(c: &Cluster) -> Value {
    let views = node_views(c);
    Value::Array(views.iter().map(|v| node_json(c, v)).collect())
}

/// The lowest id free for a new member: never used, never removed.
pub fn next_id(c: &Cluster) -> Option<NodeId> {
    let known = c.known_ids();
    let removed = c
        .authority()
        .and_then(|a| c.world().node(a))
        .map(|a| a.state.removed.clone())
        .unwrap_or_default();
    (1..=15).find(|id| !known.contains(id) && !removed.contains(id))
}
