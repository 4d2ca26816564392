//! The membership checks etcd makes when a configuration change is applied
//! (etcd's `ValidateConfigurationChange`), and how peer URLs resolve to
//! simulated hosts. Every member runs the same checks on the same applied
//! state, so they all reach the same verdict.

use crate::raft::{ConfChange, ConfChangeType, KvStore, MemberRecord, NodeId};

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
        ConfChangeType::RemoveNode => {
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
