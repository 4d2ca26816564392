//! etcd's cluster API: MemberAdd, MemberPromote, MemberRemove, MemberList,
//! MoveLeader, and the maintenance API's Status. Each goes to the leader (or
//! the lowest running voter when there is none), passes etcd's checks there,
//! is proposed as a single-server configuration change, and returns once
//! the change is applied on the member that took the request. A member that
//! knows no leader holds the request until it knows one (see `cluster.rs`).

use crate::raft::{ConfChange, ConfChangeType, NodeId, StateRole, NONE};
use crate::sim::kv::PeerUrls;
use crate::sim::membership::default_peer_url;
use crate::sim::node::ReadOf;

use super::cluster::Cluster;
use super::error::{ErrorCode, ErrorDetail, ServerError};
use super::member_info::{MemberInfo, MemberStatus};
use super::mode_settings::MemberKind;
use super::reconfig::{self, VoterView};
use super::request::{Call, Deferred, RequestId, Waiting};

impl Cluster {
    /// Where a membership request goes when there is no leader to take it:
    /// (the member taking the request, whether it leads).
    pub(super) fn member_target(&self) -> Result<(NodeId, bool), ServerError> {
        let via = self.target(None)?;
        let leads = self
            .world
            .raft(via)
            .is_some_and(|r| r.role() == StateRole::Leader);
        if !leads {
            self.known_leader(via)?;
        }
        Ok((via, leads))
    }

    /// The voting members as member `local` sees them, for the strict
    /// checks: its applied membership, and what its transport has noticed
    /// of each peer (etcd `isConnectedSince`, `ActiveSince`).
    pub(super) fn voter_views(&self, local: NodeId) -> Vec<VoterView> {
        let Some(node) = self.world.node(local) else {
            return Vec::new();
        };
        let now = self.now();
        let health = self.cfg.health_interval_ms;
        node.state
            .members
            .iter()
            .filter(|(_, m)| !m.learner)
            .map(|(&id, m)| {
                let since = self.world.active_since(local, id);
                VoterView {
                    id,
                    started: m.started,
                    connected: id == local || since.is_some_and(|t| t.saturating_add(health) < now),
                    active: id == local || since.is_some(),
                }
            })
            .collect()
    }

    /// Every member in `node`'s applied membership.
    pub(crate) fn members_of(&self, node: NodeId) -> Vec<MemberInfo> {
        self.world.node(node).map_or_else(Vec::new, |n| {
            n.state
                .members
                .iter()
                .map(|(&id, m)| MemberInfo {
                    id,
                    peer_url: m.peer_url.to_string(),
                    learner: m.learner,
                    started: m.started,
                    published: m.published,
                })
                .collect()
        })
    }

    pub(super) fn conf_change(
        &mut self,
        change_type: ConfChangeType,
        id: NodeId,
        peer_url: &str,
        promote: bool,
    ) -> ConfChange {
        ConfChange {
            change_type,
            node_id: id,
            request: self.new_request(),
            context: PeerUrls::one(id, peer_url),
            promote,
        }
    }

    /// Waits for a membership change or leader move taken by a `begin_`
    /// method.
    pub(super) fn finish_change(&mut self, call: Call<()>) -> Result<(), ServerError> {
        match call {
            Call::Done(()) => Ok(()),
            Call::Waiting(request) => self.finish(request).into_done(),
        }
    }

    /// etcd MemberAdd. Adds the member to the configuration; does not start
    /// its process (that is the second step, `start N`).
    pub fn member_add(
        &mut self,
        id: NodeId,
        learner: bool,
        peer_url: Option<&str>,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<(), ServerError> {
        self.member_add_as(
            id,
            learner,
            MemberKind::default(),
            peer_url,
            timeout_ms,
            require_leader,
        )
    }

    /// MemberAdd of a learner of a given kind (a standby or a read-only
    /// learner, the modes of `modes.rs`; etcd has neither): the same checks
    /// and the same single change, the kind remembered once it is applied.
    pub fn member_add_as(
        &mut self,
        id: NodeId,
        learner: bool,
        kind: MemberKind,
        peer_url: Option<&str>,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<(), ServerError> {
        let call =
            self.begin_member_add_as(id, learner, kind, peer_url, timeout_ms, require_leader)?;
        self.finish_change(call)
    }

    /// `member_add_as` without the waiting.
    pub fn begin_member_add_as(
        &mut self,
        id: NodeId,
        learner: bool,
        kind: MemberKind,
        peer_url: Option<&str>,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<Call<()>, ServerError> {
        let learner = learner || !kind.is_plain();
        let via = self.route(None)?;
        if require_leader {
            self.require_leader(via)?;
        }
        let url = peer_url.map_or_else(|| default_peer_url(id), str::to_string);
        reconfig::check_peer_url(&url, self.cfg.release)?;
        if let Some(local) = via.filter(|_| self.cfg.strict_reconfig) {
            reconfig::check_add(&self.voter_views(local), learner, self.cfg.release)?;
        }
        let change_type = if learner {
            ConfChangeType::AddLearnerNode
        } else {
            ConfChangeType::AddNode
        };
        let cc = self.conf_change(change_type, id, &url, false);
        let request = cc.request;
        self.remember_kind(request, id, kind);
        self.send(request, via, Deferred::Change(cc), timeout_ms);
        Ok(Call::Waiting(request))
    }

    /// The leader's checks of a promotion (etcd `mayPromoteMember`): the
    /// learner must be tracked and in sync (`isLearnerReady`), and with the
    /// strict check the started voters must stay a quorum. Returns the
    /// change to propose.
    pub(crate) fn promote_checks(
        &self,
        leader: NodeId,
        id: NodeId,
        request: RequestId,
    ) -> Result<ConfChange, ServerError> {
        let Some(r) = self.world.raft(leader) else {
            return Err(ServerError::no_leader(leader));
        };
        self.refuse_read_only(id)?;
        // isLearnerReady answers "not found" for an id the leader tracks no
        // progress for, before anything reaches raft.
        let Some((learner, learner_match)) = r
            .tracker()
            .progress
            .get(&id)
            .map(|p| (p.is_learner, p.matched))
        else {
            return Err(ServerError::new(
                ErrorCode::MemberNotFound,
                ErrorDetail::NotTracked { leader, id },
            ));
        };
        let leader_match = r
            .tracker()
            .progress
            .get(&leader)
            .map_or(r.last_index(), |p| p.matched);
        reconfig::check_learner_ready(id, learner, learner_match, leader_match)?;
        if self.cfg.strict_reconfig {
            reconfig::check_promote(&self.voter_views(leader))?;
        }
        let url = self
            .world
            .node(leader)
            .and_then(|n| n.state.members.get(&id))
            .map_or_else(String::new, |m| m.peer_url.to_string());
        Ok(ConfChange {
            change_type: ConfChangeType::AddNode,
            node_id: id,
            request,
            context: PeerUrls::one(id, &url),
            promote: true,
        })
    }

    /// etcd MemberPromote: decided by the leader; the learner must be in sync
    /// (its match at least 90% of the leader's). A follower forwards it to
    /// the leader once it knows one.
    pub fn member_promote(
        &mut self,
        id: NodeId,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<(), ServerError> {
        let call = self.begin_member_promote(id, timeout_ms, require_leader)?;
        self.finish_change(call)
    }

    /// `member_promote` without the waiting.
    pub fn begin_member_promote(
        &mut self,
        id: NodeId,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<Call<()>, ServerError> {
        let via = self.route(None)?;
        if require_leader {
            self.require_leader(via)?;
        }
        // Every member knows a read-only learner for one (its kind was
        // applied with its add): refused before anything is sent on.
        self.refuse_read_only(id)?;
        let request = self.new_request();
        let leads = via.is_some_and(|v| {
            self.world
                .raft(v)
                .is_some_and(|r| r.role() == StateRole::Leader)
        });
        let then = match via {
            Some(leader) if leads => Deferred::Change(self.promote_checks(leader, id, request)?),
            _ => Deferred::Promote { id },
        };
        self.send(request, via, then, timeout_ms);
        Ok(Call::Waiting(request))
    }

    /// etcd MemberRemove. A removed member stops itself; its id never returns.
    pub fn member_remove(
        &mut self,
        id: NodeId,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<(), ServerError> {
        let call = self.begin_member_remove(id, timeout_ms, require_leader)?;
        self.finish_change(call)
    }

    /// `member_remove` without the waiting.
    pub fn begin_member_remove(
        &mut self,
        id: NodeId,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<Call<()>, ServerError> {
        let via = self.route(None)?;
        if require_leader {
            self.require_leader(via)?;
        }
        // etcd checks only the quorum before proposing: whether the member
        // exists is decided when the change is applied, after any change
        // still in the log (a new leader may not have applied an add yet).
        let member = via
            .and_then(|v| self.world.node(v))
            .and_then(|n| n.state.members.get(&id).cloned());
        let learner = member.as_ref().is_some_and(|m| m.learner);
        if let Some(local) = via.filter(|_| self.cfg.strict_reconfig && !learner) {
            reconfig::check_remove_voter(&self.voter_views(local), id, local)?;
        }
        let url = member.map_or_else(String::new, |m| m.peer_url.to_string());
        let cc = self.conf_change(ConfChangeType::RemoveNode, id, &url, false);
        let request = cc.request;
        self.send(request, via, Deferred::Change(cc), timeout_ms);
        Ok(Call::Waiting(request))
    }

    /// etcd MemberList. Since v3.6 etcdctl asks for a linearizable list by
    /// default (a ReadIndex first, so it waits for a leader like a read);
    /// before, and with `serializable`, the member answers from its applied
    /// membership at once.
    pub fn member_list(
        &mut self,
        serializable: bool,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<Vec<MemberInfo>, ServerError> {
        match self.begin_member_list(serializable, timeout_ms, require_leader)? {
            Call::Done(list) => Ok(list),
            Call::Waiting(request) => self.finish(request).into_members(),
        }
    }

    /// `member_list` without the waiting.
    pub fn begin_member_list(
        &mut self,
        serializable: bool,
        timeout_ms: u64,
        require_leader: bool,
    ) -> Result<Call<Vec<MemberInfo>>, ServerError> {
        let via = self.route(None)?;
        if require_leader {
            self.require_leader(via)?;
        }
        let linearizable = !serializable && self.cfg.release.member_list_linearizable();
        if let Some(v) = via.filter(|_| !linearizable) {
            return Ok(Call::Done(self.members_of(v)));
        }
        let request = self.new_request();
        let then = Deferred::Read(ReadOf::Members);
        self.send(request, via, then, timeout_ms);
        Ok(Call::Waiting(request))
    }

    /// etcd's maintenance Status, answered by member `id` itself: learners
    /// serve it too (v3rpc `isRPCSupportedForLearner`).
    pub fn member_status(&self, id: NodeId) -> Result<MemberStatus, ServerError> {
        self.target(Some(id))?;
        let node = self.world.node(id).ok_or_else(|| {
            ServerError::new(ErrorCode::NotStarted, ErrorDetail::NotRunning { id })
        })?;
        let r = node.raft.as_ref().ok_or_else(|| {
            ServerError::new(ErrorCode::NotStarted, ErrorDetail::NotRunning { id })
        })?;
        let leader = (r.leader_id() != NONE).then_some(r.leader_id());
        Ok(MemberStatus {
            id,
            version: self.cfg.release.as_str(),
            leader,
            // etcd's Status says `EtcdServer.Term`: the term of the last
            // entry the member applied (`applyEntries` sets it), not its
            // raft term, which rises while it campaigns alone.
            raft_term: r.term_at(r.applied()).unwrap_or_else(|| r.term()),
            raft_index: r.commit(),
            raft_applied_index: r.applied(),
            is_learner: node.is_learner(),
            db_size: node.state.bytes(),
            errors: if leader.is_none() {
                vec![ErrorCode::NoLeader.etcd_text()]
            } else {
                Vec::new()
            },
        })
    }

    /// etcd MoveLeader: the leader hands leadership to voter `to` and the
    /// call returns once `to` leads. etcdctl sends it to the leader it finds
    /// among the endpoints; with none, it fails at once. It waits on the
    /// client's context alone (etcdserver `MoveLeader` loops until `ctx` is
    /// done: `ErrTimeoutLeaderTransfer`), etcdctl's 5 s: checked against
    /// etcd 3.4.23 and 3.5.1 (raftlab waited for the server's request
    /// timeout, 5 s plus two election timeouts).
    pub fn move_leader(&mut self, to: NodeId) -> Result<(), ServerError> {
        let call = self.begin_move_leader(to)?;
        self.finish_change(call)
    }

    /// `move_leader` without the waiting.
    pub fn begin_move_leader(&mut self, to: NodeId) -> Result<Call<()>, ServerError> {
        let (via, leads) = self.member_target()?;
        let bad = |learner: bool| {
            ServerError::new(
                ErrorCode::BadLeaderTransferee,
                ErrorDetail::BadTransferee { to, learner },
            )
        };
        let member = self
            .world
            .node(via)
            .and_then(|n| n.state.members.get(&to).cloned());
        match member {
            None => return Err(bad(false)),
            Some(m) if m.learner => return Err(bad(true)),
            Some(_) => {}
        }
        if leads && via == to {
            return Ok(Call::Done(()));
        }
        let request = self.new_request();
        self.world.transfer_leader(via, to);
        self.wait_for(
            request,
            Waiting::Leader { to },
            super::request::CLIENT_TIMEOUT_MS,
        );
        Ok(Call::Waiting(request))
    }
}
