//! The membership checks etcd makes when a configuration change is applied
//! (etcd's `ValidateConfigurationChange`), and how peer URLs resolve to
//! simulated hosts. Every member runs the same checks on the same applied
//! state, so they all reach the same verdict.

use crate::collections::vecmap::VecMap;
use std::rc::Rc;

use crate::raft::{ConfChange, ConfChangeSingle, ConfChangeType, ConfChangeV2, ConfState, NodeId};
use crate::sim::kv::{KvStore, MemberRecord, PeerUrls};

/// Why an applied membership change was refused. Names mirror etcd's errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberError {
    IdExists,
    IdRemoved,
    PeerUrlExists,
    TooManyLearners,
    MemberNotFound,
    MemberNotLearner,
    /// A joint change demoted a member that is not a voter (raftlab's own:
    /// etcd's server never demotes).
    MemberNotVoter,
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
            MemberError::MemberNotVoter => "member-not-voter",
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
            // raftlab's own: etcd has no demotion, so no text for it.
            MemberError::MemberNotVoter => "membership: can only demote a voting member",
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
                    let url = PeerUrls::single(cc);
                    if state.members.values().any(|m| m.peer_url == url) {
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
    let url = PeerUrls::single(cc);
    match cc.change_type {
        ConfChangeType::AddNode => match state.members.get_mut(&id) {
            Some(m) => m.learner = false,
            None => {
                state.members.insert(
                    id,
                    MemberRecord {
                        host: resolve_host(&url),
                        peer_url: url,
                        learner: false,
                        started: PeerUrls::named(&cc.context),
                        published: false,
                    },
                );
            }
        },
        ConfChangeType::AddLearnerNode => {
            state.members.insert(
                id,
                MemberRecord {
                    host: resolve_host(&url),
                    peer_url: url,
                    learner: true,
                    started: false,
                    published: false,
                },
            );
        }
        ConfChangeType::RemoveNode => {
            state.members.remove(&id);
            state.removed.insert(id);
        }
        ConfChangeType::UpdateNode => update_url(&mut state.members, id, &url),
    }
}

fn update_url(members: &mut VecMap<NodeId, MemberRecord>, id: NodeId, url: &Rc<str>) {
    if let Some(m) = members.get_mut(&id) {
        m.peer_url = url.clone();
        m.host = resolve_host(url);
    }
}

/// The checks for a joint change (a ConfChangeV2). etcd's server never
/// proposes one, so it has none: raftlab checks each change as etcd checks
/// a single one, in order, each against the members the earlier ones leave.
/// A change that carries a peer URL adds a member (as MemberAdd does); one
/// without promotes a learner (AddNode) or demotes a voter (AddLearnerNode).
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
        let url = peer_url_of(cc, c.node_id);
        check_single(&members, c, url.as_ref(), max_learners)?;
        apply_single(&mut members, c, url.as_ref());
    }
    Ok(())
}

fn check_single(
    members: &VecMap<NodeId, MemberRecord>,
    c: &ConfChangeSingle,
    url: Option<&Rc<str>>,
    max_learners: usize,
) -> Result<(), MemberError> {
    use ConfChangeType::{AddLearnerNode, AddNode, RemoveNode, UpdateNode};
    let learners = members.values().filter(|m| m.learner).count();
    let member = members.get(&c.node_id);
    match (c.change_type, url, member) {
        (AddNode | AddLearnerNode, Some(_), Some(_)) => Err(MemberError::IdExists),
        (AddNode | AddLearnerNode, Some(url), None) => {
            if members.values().any(|m| m.peer_url == *url) {
                Err(MemberError::PeerUrlExists)
            } else if c.change_type == AddLearnerNode && learners + 1 > max_learners {
                Err(MemberError::TooManyLearners)
            } else {
                Ok(())
            }
        }
        (_, None, None) => Err(MemberError::MemberNotFound),
        (AddNode, None, Some(m)) if !m.learner => Err(MemberError::MemberNotLearner),
        (AddLearnerNode, None, Some(m)) if m.learner => Err(MemberError::MemberNotVoter),
        (AddNode | AddLearnerNode | RemoveNode | UpdateNode, _, Some(_)) => Ok(()),
        (RemoveNode | UpdateNode, Some(_), None) => Err(MemberError::MemberNotFound),
    }
}

/// The peer URL the change gives member `id`, if it adds (or updates) it.
fn peer_url_of(cc: &ConfChangeV2, id: NodeId) -> Option<Rc<str>> {
    PeerUrls::joint(cc)
        .iter()
        .find(|(n, _)| *n == id)
        .map(|(_, u)| u.clone())
}

/// Applies one change of a joint change to the member list; removals are
/// left to `apply_v2`.
fn apply_single(
    members: &mut VecMap<NodeId, MemberRecord>,
    c: &ConfChangeSingle,
    url: Option<&Rc<str>>,
) {
    let learner = c.change_type == ConfChangeType::AddLearnerNode;
    match (c.change_type, url) {
        (ConfChangeType::AddNode | ConfChangeType::AddLearnerNode, _) => {
            let url = url
                .cloned()
                .unwrap_or_else(|| Rc::from(default_peer_url(c.node_id)));
            let record = members.entry(c.node_id).or_insert_with(|| MemberRecord {
                host: resolve_host(&url),
                peer_url: url,
                learner,
                started: false,
                published: false,
            });
            record.learner = learner;
        }
        (ConfChangeType::RemoveNode, _) => {
            members.remove(&c.node_id);
        }
        (ConfChangeType::UpdateNode, Some(url)) => update_url(members, c.node_id, url),
        (ConfChangeType::UpdateNode, None) => {}
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
        apply_single(&mut state.members, c, peer_url_of(cc, c.node_id).as_ref());
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

/// The `host:port` a peer URL names: what follows `scheme://`, up to the
/// path, query or fragment, without user information.
pub fn url_authority(url: &str) -> Option<&str> {
    let url = url.trim();
    let rest = url[url.find(':')?..].strip_prefix("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    Some(authority.rsplit_once('@').map_or(authority, |(_, h)| h))
}

/// The host part of a peer URL (an IPv6 literal keeps its brackets).
pub fn url_host(url: &str) -> Option<&str> {
    let authority = url_authority(url)?;
    if authority.starts_with('[') {
        return authority.find(']').map(|i| &authority[..=i]);
    }
    authority.split(':').next()
}

/// The simulated host a peer URL reaches: `nK` is node K's host; any other
/// host name or address reaches nobody (the misconfigured member).
pub fn resolve_host(url: &str) -> Option<NodeId> {
    let host = url_host(url)?;
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
            context: PeerUrls::one(node_id, url),
            promote: false,
        }
    }

    #[test]
    fn joint_changes_are_checked_change_by_change() {
        use crate::raft::{ConfChangeSingle, ConfChangeTransition, ConfChangeV2, ConfState};
        let mut s = KvStore::default();
        apply(&mut s, &cc(ConfChangeType::AddNode, 1, "http://n1:2380"));
        apply(&mut s, &cc(ConfChangeType::AddNode, 2, "http://n2:2380"));
        apply(
            &mut s,
            &cc(ConfChangeType::AddLearnerNode, 3, "http://n3:2380"),
        );
        let joint = |changes: &[(ConfChangeType, NodeId)], new: &[NodeId]| ConfChangeV2 {
            transition: ConfChangeTransition::JointImplicit,
            changes: changes
                .iter()
                .map(|&(change_type, node_id)| ConfChangeSingle {
                    change_type,
                    node_id,
                })
                .collect(),
            request: 1,
            context: PeerUrls::context(
                new.iter()
                    .map(|&id| (id, Rc::from(default_peer_url(id))))
                    .collect(),
            ),
        };
        use ConfChangeType::{AddLearnerNode as L, AddNode as V, RemoveNode as R};
        // Promote 3, demote 2, add 4: fine.
        let ok = joint(&[(V, 3), (L, 2), (V, 4)], &[4]);
        assert_eq!(validate_v2(&s, &ok, 1), Ok(()));
        // A promotion needs a learner, a demotion a voter, an add a new id.
        let cases = [
            (joint(&[(V, 1)], &[]), MemberError::MemberNotLearner),
            (joint(&[(L, 3)], &[]), MemberError::MemberNotVoter),
            (joint(&[(V, 9)], &[]), MemberError::MemberNotFound),
            (joint(&[(V, 2)], &[2]), MemberError::IdExists),
            (joint(&[(R, 9)], &[]), MemberError::MemberNotFound),
            // Adding a second learner exceeds max-learners 1 ...
            (joint(&[(L, 5)], &[5]), MemberError::TooManyLearners),
        ];
        for (change, err) in cases {
            assert_eq!(validate_v2(&s, &change, 1), Err(err), "{change:?}");
        }
        // ... unless the same change promotes the learner there is.
        assert_eq!(validate_v2(&s, &joint(&[(V, 3), (L, 5)], &[5]), 1), Ok(()));

        // Removing 1 in a joint change keeps it a member until it leaves
        // the configuration.
        let remove = joint(&[(R, 1), (V, 4)], &[4]);
        let joint_conf = ConfState {
            voters: [2, 4].into(),
            voters_outgoing: [1, 2].into(),
            learners: [3].into(),
            ..Default::default()
        };
        apply_v2(&mut s, &remove, &joint_conf);
        assert!(s.members.contains_key(&1) && s.members.contains_key(&4));
        let left = ConfState {
            voters: [2, 4].into(),
            learners: [3].into(),
            ..Default::default()
        };
        apply_v2(&mut s, &ConfChangeV2::default(), &left);
        assert!(!s.members.contains_key(&1));
        assert!(s.removed.contains(&1));
    }

    #[test]
    fn urls_resolve_only_to_simulated_hosts() {
        assert_eq!(resolve_host("http://n4:2380"), Some(4));
        assert_eq!(resolve_host("https://n12:2380"), Some(12));
        assert_eq!(resolve_host("http://10.0.0.9:2380"), None);
        assert_eq!(resolve_host("http://n16:2380"), None);
        assert_eq!(resolve_host("garbage"), None);
        assert_eq!(resolve_host("http://n4:2380?name=n4"), Some(4));
        assert_eq!(resolve_host("http://user@n5:2380/"), Some(5));
        assert_eq!(
            url_authority("http://10.0.0.9:2380/x"),
            Some("10.0.0.9:2380")
        );
        assert_eq!(url_host("http://[::1]:2380"), Some("[::1]"));
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
