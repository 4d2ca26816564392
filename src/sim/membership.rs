//! The membership checks etcd makes when a configuration change is applied
//! (etcd's `ValidateConfigurationChange`), and how peer URLs resolve to
//! simulated hosts. Every member runs the same checks on the same applied
//! state, so they all reach the same verdict.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::raft::{
    ConfChange, ConfChangeSingle, ConfChangeType, ConfChangeV2, ConfState, KvStore, MemberRecord,
    NodeId,
};

/// Why an applied membership change was refused. Names mirror etcd's errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberError {
    IdExists,
    IdRemoved,
    PeerUrlExists,
    TooManyLearners,
    MemberNotFound,
    MemberNotLearner,
}

impl MemberError {
    /// The scenario language's stable error code.
    pub fn code(self) -> &'static str {
        match self {
            MemberError::IdExists => "id-exists",
            MemberError::IdRemoved => "id-removed",
            MemberError::PeerUrlExists => "peer-url-exists",
            MemberError::TooManyLearners => "too-many-learners",
            MemberError::MemberNotFound => "member-not-found",
            MemberError::MemberNotLearner => "member-not-learner",
        }
    }

    /// etcd's message for it.
    pub fn etcd_text(self) -> &'static str {
        match self {
            MemberError::IdExists => "membership: ID exists",
            MemberError::IdRemoved => "membership: ID removed",
            MemberError::PeerUrlExists => "membership: peerURL exists",
            MemberError::TooManyLearners => "membership: too many learner members in cluster",
            MemberError::MemberNotFound => "membership: member not found",
            MemberError::MemberNotLearner => "membership: can only promote a learner member",
        }
    }
}

/// The checks etcd makes before it applies `cc`.
pub fn validate(state: &KvStore, cc: &ConfChange, max_learners: usize) -> Result<(), MemberError> {
    let id = cc.node_id;
    if state.removed.contains(&id) {
        return Err(MemberError::IdRemoved);
    }
    let learners = state.members.values().filter(|m| m.learner).count();
    match cc.change_type {
        ConfChangeType::AddNode | ConfChangeType::AddLearnerNode => {
            let learner = cc.change_type == ConfChangeType::AddLearnerNode;
            match state.members.get(&id) {
                Some(m) if cc.promote && m.learner => Ok(()),
                Some(_) if cc.promote => Err(MemberError::MemberNotLearner),
                None if cc.promote => Err(MemberError::MemberNotFound),
                Some(_) => Err(MemberError::IdExists),
                None => {
                    if state.members.values().any(|m| m.peer_url == cc.peer_url) {
                        return Err(MemberError::PeerUrlExists);
                    }
                    if learner && learners + 1 > max_learners {
                        return Err(MemberError::TooManyLearners);
                    }
                    Ok(())
                }
            }
        }
        ConfChangeType::RemoveNode | ConfChangeType::UpdateNode => {
            if state.members.contains_key(&id) {
                Ok(())
            } else {
                Err(MemberError::MemberNotFound)
            }
        }
    }
}

/// Applies a validated change to the members bucket.
pub fn apply(state: &mut KvStore, cc: &ConfChange) {
    let id = cc.node_id;
    match cc.change_type {
        ConfChangeType::AddNode => match state.members.get_mut(&id) {
            Some(m) => m.learner = false,
            None => {
                state.members.insert(
                    id,
                    MemberRecord {
                        peer_url: cc.peer_url.clone(),
                        host: resolve_host(&cc.peer_url),
                        learner: false,
                        started: false,
                    },
                );
            }
        },
        ConfChangeType::AddLearnerNode => {
            state.members.insert(
                id,
                MemberRecord {
                    peer_url: cc.peer_url.clone(),
                    host: resolve_host(&cc.peer_url),
                    learner: true,
                    started: false,
                },
            );
        }
        ConfChangeType::RemoveNode => {
            state.members.remove(&id);
            state.removed.insert(id);
        }
        ConfChangeType::UpdateNode => update_url(&mut state.members, id, &cc.peer_url),
    }
}

fn update_url(members: &mut BTreeMap<NodeId, MemberRecord>, id: NodeId, url: &Rc<str>) {
    if let Some(m) = members.get_mut(&id) {
        m.peer_url = url.clone();
        m.host = resolve_host(url);
    }
}

/// The checks for a joint change (a ConfChangeV2). etcd's server never
/// proposes one, so it has none: raftlab checks each change as etcd checks
/// a single one, in order, each against the members the earlier ones leave,
/// and allows the two moves a joint change can make on an existing member:
/// promoting a learner (AddNode) and demoting a voter (AddLearnerNode).
pub fn validate_v2(
    state: &KvStore,
    cc: &ConfChangeV2,
    max_learners: usize,
) -> Result<(), MemberError> {
    let mut members = state.members.clone();
    for c in &cc.changes {
        if state.removed.contains(&c.node_id) {
            return Err(MemberError::IdRemoved);
        }
        check_single(&members, c, &peer_url_of(cc, c.node_id), max_learners)?;
        apply_single(&mut members, c, &peer_url_of(cc, c.node_id));
    }
    Ok(())
}

fn check_single(
    members: &BTreeMap<NodeId, MemberRecord>,
    c: &ConfChangeSingle,
    url: &Rc<str>,
    max_learners: usize,
) -> Result<(), MemberError> {
    let learners = members.values().filter(|m| m.learner).count();
    match (c.change_type, members.get(&c.node_id)) {
        (ConfChangeType::AddNode, Some(m)) if m.learner => Ok(()),
        (ConfChangeType::AddLearnerNode, Some(m)) if !m.learner => Ok(()),
        (ConfChangeType::AddNode | ConfChangeType::AddLearnerNode, Some(_)) => {
            Err(MemberError::IdExists)
        }
        (ConfChangeType::AddNode | ConfChangeType::AddLearnerNode, None) => {
            if members.values().any(|m| m.peer_url == *url) {
                Err(MemberError::PeerUrlExists)
            } else if c.change_type == ConfChangeType::AddLearnerNode && learners + 1 > max_learners
            {
                Err(MemberError::TooManyLearners)
            } else {
                Ok(())
            }
        }
        (ConfChangeType::RemoveNode | ConfChangeType::UpdateNode, None) => {
            Err(MemberError::MemberNotFound)
        }
        (ConfChangeType::RemoveNode | ConfChangeType::UpdateNode, Some(_)) => Ok(()),
    }
}

/// The peer URL a change gives member `id`: the one it carries, else the default.
fn peer_url_of(cc: &ConfChangeV2, id: NodeId) -> Rc<str> {
    cc.peer_urls
        .iter()
        .find(|(n, _)| *n == id)
        .map_or_else(|| Rc::from(default_peer_url(id)), |(_, u)| u.clone())
}

/// Applies one change of a joint change to the member list; removals are
/// left to `apply_v2`.
fn apply_single(members: &mut BTreeMap<NodeId, MemberRecord>, c: &ConfChangeSingle, url: &Rc<str>) {
    let learner = c.change_type == ConfChangeType::AddLearnerNode;
    match c.change_type {
        ConfChangeType::AddNode | ConfChangeType::AddLearnerNode => {
            let record = members.entry(c.node_id).or_insert_with(|| MemberRecord {
                peer_url: url.clone(),
                host: resolve_host(url),
                learner,
                started: false,
            });
            record.learner = learner;
        }
        ConfChangeType::RemoveNode => {
            members.remove(&c.node_id);
        }
        ConfChangeType::UpdateNode => update_url(members, c.node_id, url),
    }
}

/// Applies a validated joint change, given the Raft configuration `conf` it
/// produced. A removed voter stays a member while the joint configuration
/// still counts it (it votes in the outgoing half); it is removed for good
/// when the configuration no longer holds it, which for a joint change is
/// when the joint configuration is left.
pub fn apply_v2(state: &mut KvStore, cc: &ConfChangeV2, conf: &ConfState) {
    for c in cc
        .changes
        .iter()
        .filter(|c| c.change_type != ConfChangeType::RemoveNode)
    {
        apply_single(&mut state.members, c, &peer_url_of(cc, c.node_id));
    }
    let gone: Vec<NodeId> = state
        .members
        .keys()
        .copied()
        .filter(|&id| !conf.contains(id))
        .collect();
    for id in gone {
        state.members.remove(&id);
        state.removed.insert(id);
    }
}

/// The default peer URL of member `id`.
pub fn default_peer_url(id: NodeId) -> String {
    format!("http://n{id}:2380")
}

/// The simulated host a peer URL reaches: `nK` is node K's host; any other
/// host name or address reaches nobody (the misconfigured member).
pub fn resolve_host(url: &str) -> Option<NodeId> {
    let rest = url.split_once("://")?.1;
    let host = rest.split(['/', ':']).next()?;
    let id: NodeId = host.strip_prefix('n')?.parse().ok()?;
    (1..=15).contains(&id).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    fn cc(change_type: ConfChangeType, node_id: NodeId, url: &str) -> ConfChange {
        ConfChange {
            change_type,
            node_id,
            request: 0,
            peer_url: Rc::from(url),
            promote: false,
        }
    }

    #[test]
    fn urls_resolve_only_to_simulated_hosts() {
        assert_eq!(resolve_host("http://n4:2380"), Some(4));
        assert_eq!(resolve_host("https://n12:2380"), Some(12));
        assert_eq!(resolve_host("http://10.0.0.9:2380"), None);
        assert_eq!(resolve_host("http://n16:2380"), None);
        assert_eq!(resolve_host("garbage"), None);
    }

    #[test]
    fn apply_time_checks_mirror_etcd() {
        let mut s = KvStore::default();
        let add4 = cc(ConfChangeType::AddLearnerNode, 4, "http://n4:2380");
        assert_eq!(validate(&s, &add4, 1), Ok(()));
        apply(&mut s, &add4);
        assert_eq!(validate(&s, &add4, 1), Err(MemberError::IdExists));
        let add5 = cc(ConfChangeType::AddLearnerNode, 5, "http://n5:2380");
        assert_eq!(validate(&s, &add5, 1), Err(MemberError::TooManyLearners));
        assert_eq!(validate(&s, &add5, 2), Ok(()));
        let same_url = cc(ConfChangeType::AddNode, 6, "http://n4:2380");
        assert_eq!(validate(&s, &same_url, 1), Err(MemberError::PeerUrlExists));
        // A plain add of a learner's id is refused; a promotion is not.
        let add_again = cc(ConfChangeType::AddNode, 4, "http://n4:2380");
        assert_eq!(validate(&s, &add_again, 1), Err(MemberError::IdExists));
        let promote = ConfChange {
            promote: true,
            ..add_again
        };
        assert_eq!(validate(&s, &promote, 1), Ok(()));
        let promote_unknown = ConfChange {
            node_id: 7,
            ..promote.clone()
        };
        assert_eq!(
            validate(&s, &promote_unknown, 1),
            Err(MemberError::MemberNotFound)
        );
        apply(&mut s, &promote);
        assert!(!s.members[&4].learner);
        assert_eq!(
            validate(&s, &promote, 1),
            Err(MemberError::MemberNotLearner)
        );
        let remove = cc(ConfChangeType::RemoveNode, 4, "");
        apply(&mut s, &remove);
        assert_eq!(validate(&s, &add4, 1), Err(MemberError::IdRemoved));
        assert_eq!(
            validate(&s, &cc(ConfChangeType::RemoveNode, 9, ""), 1),
            Err(MemberError::MemberNotFound)
        );
    }
}
