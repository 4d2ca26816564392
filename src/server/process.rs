//! An etcd process starting: the rules etcd applies when a member's process
//! comes up (the second step of adding a member, or a restart after a
//! crash), and whether a process runs at all. The scenario's `start N` asks
//! here; crash, campaign and compaction are faults and operator actions a
//! scenario injects straight into the world (the one shortcut past this
//! layer, see docs/architecture.md).

use crate::raft::NodeId;
use crate::sim::membership::{resolve_host, url_authority, url_host};

use super::cluster::Cluster;
use super::error::{ErrorCode, ErrorDetail, ServerError};
use crate::sim::kv::MemberRecord;
use crate::sim::world::StartError;

/// What etcd prints when member `id`'s process, on host `nID`, starts with
/// a peer URL naming another host: listening on it fails (embed
/// `configurePeerListeners`: "creating peer listener failed"), and etcd exits.
pub fn peer_listener_failure(id: NodeId, peer_url: &str) -> ServerError {
    let authority = url_authority(peer_url).unwrap_or(peer_url);
    let host = url_host(peer_url).unwrap_or("");
    // An address literal (IPv4 digits and dots, or IPv6 in brackets) or a
    // simulated host name resolves; any other name is looked up in vain.
    let literal = host.starts_with('[')
        || (!host.is_empty() && host.bytes().all(|b| b.is_ascii_digit() || b == b'.'));
    let resolvable = literal || resolve_host(peer_url).is_some();
    let go_error = if resolvable {
        format!("listen tcp {authority}: bind: cannot assign requested address")
    } else {
        format!("listen tcp: lookup {host}: no such host")
    };
    ServerError::new(
        ErrorCode::BadUrl,
        ErrorDetail::PeerListener {
            id,
            peer_url: peer_url.to_string(),
            go_error,
        },
    )
}

impl Cluster {
    /// Starts member `id`'s process, as etcd's start-up checks allow:
    /// - a process already running is not started twice;
    /// - a removed member never comes back: its own record says so, or its
    ///   peers answer it "removed" and it stops at once (rafthttp's
    ///   `errMemberRemoved`);
    /// - a process needs a member record to join (etcdserver `NewServer`,
    ///   `ValidateClusterAndAssignIDs`: it must be in the cluster);
    /// - a new member whose peer URL names another host fails to listen
    ///   ([`peer_listener_failure`]);
    /// - a new member talks to its peers before it starts raft
    ///   (`server::join`).
    pub fn start_process(&mut self, id: NodeId) -> Result<(), ServerError> {
        if self.world().raft(id).is_some() || self.joining(id) {
            return Err(ServerError::new(
                ErrorCode::IdExists,
                ErrorDetail::AlreadyRunning { id },
            ));
        }
        if self.world().node(id).is_some_and(|n| n.removed) || self.removed_ids().contains(&id) {
            return Err(ServerError::new(
                ErrorCode::IdRemoved,
                ErrorDetail::RemovedCannotReturn { id },
            ));
        }
        match (self.member_for_start(id), self.world().has_node(id)) {
            (None, false) => {
                return Err(ServerError::new(
                    ErrorCode::MemberNotFound,
                    ErrorDetail::NotAMember { id },
                ));
            }
            (Some(m), false) if m.host != Some(id) => {
                return Err(peer_listener_failure(id, &m.peer_url));
            }
            (Some(_), false) => {
                let peers = self.join_peers(id);
                if !peers.is_empty() {
                    self.join(id, peers);
                    return Ok(());
                }
            }
            _ => {}
        }
        self.world_mut().start(id).map_err(|e| {
            let why = match e {
                StartError::AlreadyRunning => ErrorDetail::AlreadyRunning { id },
                StartError::Removed => ErrorDetail::RemovedCannotReturn { id },
            };
            ServerError::new(ErrorCode::NotStarted, why)
        })
    }

    /// The record a new member's process finds for itself when it starts:
    /// etcd's `GetClusterFromRemotePeers` asks the peers it was given and
    /// takes the first answer, so any running member it can reach that
    /// knows it will do, the authority's view first (checked against etcd
    /// 3.4.23 and 3.5.1: a member added before its cluster split starts
    /// on the side that knows it, while a cut-off member with a higher term
    /// holds the older membership).
    fn member_for_start(&self, id: NodeId) -> Option<MemberRecord> {
        if let Some(m) = self.member(id) {
            return Some(m.clone());
        }
        let net = self.world().network();
        self.world()
            .nodes()
            .filter(|n| n.is_running() && !net.is_cut(id, n.id) && !net.is_cut(n.id, id))
            .find_map(|n| n.state.members.get(&id).cloned())
    }

    /// The members a new member's process talks to before it starts raft:
    /// every other member of the cluster it joins (the membership the
    /// cluster's authority holds), lowest first.
    fn join_peers(&self, id: NodeId) -> Vec<NodeId> {
        self.authority()
            .and_then(|a| self.world().node(a))
            .map(|n| {
                n.state
                    .members
                    .keys()
                    .copied()
                    .filter(|&p| p != id)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Stops member `id`'s process (a crash): one running raft, or one
    /// still talking to its peers before it starts raft, which leaves
    /// nothing behind.
    pub fn crash_process(&mut self, id: NodeId) -> Result<(), ServerError> {
        if self.stop_join(id) {
            let time_ms = self.now();
            self.push_event(crate::sim::Event {
                time_ms,
                kind: crate::sim::EventKind::Crashed { node: id },
            });
            return Ok(());
        }
        self.check_running(id)?;
        self.world_mut().crash(id);
        Ok(())
    }

    /// Whether member `id`'s process runs; if not, why (removed for good,
    /// down, or no such node). A member added but never started is down
    /// like a crashed one (`not-started`): the cluster knows it, its
    /// process does not run.
    pub fn check_running(&self, id: NodeId) -> Result<(), ServerError> {
        if self.world().raft(id).is_some() {
            return Ok(());
        }
        // Removed: its own process knows it stopped for good; a member that
        // never ran, by the cluster's record.
        let removed = match self.world().node(id) {
            Some(n) => n.removed,
            None => self.removed_ids().contains(&id),
        };
        let (code, why) = if removed {
            (ErrorCode::IdRemoved, ErrorDetail::RemovedForGood { id })
        } else if self.known_ids().contains(&id) {
            // A node that ran, or a member the cluster knows.
            (ErrorCode::NotStarted, ErrorDetail::NodeDown { id })
        } else {
            (ErrorCode::MemberNotFound, ErrorDetail::NoSuchNode { id })
        };
        Err(ServerError::new(code, why))
    }
}
