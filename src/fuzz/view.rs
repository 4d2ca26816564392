//! What the generator sees of the live cluster when it picks a command.

use std::collections::BTreeSet;

use crate::lang::ast::MAX_NODE_ID;
use crate::raft::NodeId;
use crate::session::exec::Session;

/// The members the next command may target, by what they are now.
pub struct View {
    pub known: Vec<NodeId>,
    pub running: Vec<NodeId>,
    pub down: Vec<NodeId>,
    pub voters: Vec<NodeId>,
    pub learners: Vec<NodeId>,
    pub cut: Vec<(NodeId, NodeId)>,
    /// Ids never used, for `member add`.
    pub fresh: Vec<NodeId>,
}

pub fn view(session: &Session) -> View {
    let cluster = session.cluster();
    let world = cluster.world();
    let known: Vec<NodeId> = cluster.known_ids().into_iter().collect();
    let removed = |id: NodeId| world.node(id).is_some_and(|n| n.removed);
    let running: Vec<NodeId> = known
        .iter()
        .copied()
        .filter(|&id| world.raft(id).is_some())
        .collect();
    let down = known
        .iter()
        .copied()
        .filter(|&id| world.raft(id).is_none() && !removed(id))
        .collect();
    let status = session.status();
    // Ids of the other clusters and of mirror processes are taken too.
    let fleet = session.fleet();
    let elsewhere = fleet.clusters()[1..]
        .iter()
        .flat_map(|c| c.known_ids())
        .chain(fleet.mirrors().iter().map(|m| m.id));
    let ever: BTreeSet<NodeId> = world
        .nodes()
        .map(|n| n.id)
        .chain(known.clone())
        .chain(elsewhere)
        .collect();
    View {
        fresh: (1..=MAX_NODE_ID).filter(|id| !ever.contains(id)).collect(),
        known,
        running,
        down,
        voters: status.voters,
        learners: status.learners,
        cut: world.network().cut_links().collect(),
    }
}
