//! etcd's cluster API: MemberAdd, MemberPromote, MemberRemove, MemberList
//! and MoveLeader. Each goes to the leader (or the lowest running voter when
//! there is none, which forwards or fails as etcd's would), passes etcd's
//! checks, is proposed as a single-server configuration change, and returns
//! once the change is applied on the member that took the request.

use std::rc::Rc;

use crate::raft::{ConfChange, ConfChangeType, EntryData, NodeId, StateRole};
use crate::sim::membership::default_peer_url;

use super::cluster::{Cluster, Outcome, RequestId, Waiting};
use super::error::{ErrorCode, ServerError};
use super::reconfig::{self, VoterView};

/// One member in a MemberList answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberInfo {
    pub id: NodeId,
    pub peer_url: String,
    pub learner: bool,
    /// The member's process has published itself (etcd lists a name).
    pub started: bool,
}

impl Cluster {
    /// etcd's request timeout: 5s plus two election timeouts.
    pub fn request_timeout_ms(&self) -> u64 {
        5_000 + 2 * self.world.config().election_timeout_ms
    }

    /// Where a membership request goes: the leader if there is one; else the
    /// lowest running voter, which fails with `no-leader` if it knows none.
    /// Returns (the member taking the request, whether it leads).
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

    /// The voters as the leader sees them, for the strict checks.
    fn voter_views(&self, leader: NodeId) -> Vec<VoterView> {
        let Some(node) = self.world.node(leader) else {
            return Vec::new();
        };
        let Some(r) = node.raft.as_ref() else {
            return Vec::new();
        };
        let now = self.now();
        let health = self.cfg.health_interval_ms;
        r.conf_state()
            .voters
            .iter()
            .map(|&id| VoterView {
                id,
                started: node.state.members.get(&id).is_some_and(|m| m.started),
                active: id == leader
                    || self
                        .world
                        .connected_since(leader, id)
                        .is_some_and(|since| since.saturating_add(health) <= now),
            })
            .collect()
    }

    fn propose_change(
        &mut self,
        via: NodeId,
        change_type: ConfChangeType,
        id: NodeId,
        peer_url: &str,
        promote: bool,
    ) -> Result<RequestId, ServerError> {
        let request = self.new_request();
        let cc = ConfChange {
            change_type,
            node_id: id,
            request,
            peer_url: Rc::from(peer_url),
            promote,
        };
        self.world
            .propose(via, EntryData::ConfChange(Rc::new(cc)))
            .map_err(|e| ServerError::dropped(via, e))?;
        let timeout = self.request_timeout_ms();
        self.wait_for(request, Waiting::Member { via }, timeout);
        Ok(request)
    }

    pub(super) fn finish_change(&mut self, request: RequestId) -> Result<(), ServerError> {
        match self.finish(request) {
            Outcome::Done => Ok(()),
            Outcome::Failed(e) => Err(e),
            other => Err(ServerError::new(
                ErrorCode::Timeout,
                format!("unexpected outcome {other:?}"),
            )),
        }
    }

    /// etcd MemberAdd. Adds the member to the configuration; does not start
    /// its process (that is the second step, `start N`).
    pub fn member_add(
        &mut self,
        id: NodeId,
        learner: bool,
        peer_url: Option<&str>,
    ) -> Result<(), ServerError> {
        let url = peer_url.map_or_else(|| default_peer_url(id), str::to_string);
        reconfig::check_peer_url(&url)?;
        let (via, leads) = self.member_target()?;
        if leads && self.cfg.strict_reconfig {
            let voters = self.voter_views(via);
            if learner {
                reconfig::check_add_learner(&voters)?;
            } else {
                reconfig::check_add_voter(&voters)?;
            }
        }
        let kind = if learner {
            ConfChangeType::AddLearnerNode
        } else {
            ConfChangeType::AddNode
        };
        let request = self.propose_change(via, kind, id, &url, false)?;
        self.finish_change(request)
    }

    /// etcd MemberPromote: decided by the leader; the learner must be in sync
    /// (its match at least 90% of the leader's).
    pub fn member_promote(&mut self, id: NodeId) -> Result<(), ServerError> {
        let (via, leads) = self.member_target()?;
        if leads {
            if let Some(r) = self.world.raft(via) {
                let progress = r.tracker().progress.get(&id).map(|p| p.matched);
                let leader_match = r
                    .tracker()
                    .progress
                    .get(&via)
                    .map_or(r.last_index(), |p| p.matched);
                // etcd finds no progress for an unknown member and lets it
                // pass: whether it is a learner at all is decided at apply.
                if let Some(learner_match) = progress {
                    reconfig::check_learner_ready(id, learner_match, leader_match)?;
                }
            }
            if self.cfg.strict_reconfig {
                reconfig::check_promote(&self.voter_views(via))?;
            }
        }
        let url = self
            .world
            .node(via)
            .and_then(|n| n.state.members.get(&id))
            .map_or_else(String::new, |m| m.peer_url.to_string());
        let request = self.propose_change(via, ConfChangeType::AddNode, id, &url, true)?;
        self.finish_change(request)
    }

    /// etcd MemberRemove. A removed member stops itself; its id never returns.
    pub fn member_remove(&mut self, id: NodeId) -> Result<(), ServerError> {
        let (via, leads) = self.member_target()?;
        // etcd checks only the quorum before proposing: whether the member
        // exists is decided when the change is applied, after any change
        // still in the log (a new leader may not have applied an add yet).
        let member = self
            .world
            .node(via)
            .and_then(|n| n.state.members.get(&id).cloned());
        let learner = member.as_ref().is_some_and(|m| m.learner);
        if leads && self.cfg.strict_reconfig && !learner {
            reconfig::check_remove_voter(&self.voter_views(via), id, via)?;
        }
        let url = member.map_or_else(String::new, |m| m.peer_url.to_string());
        let request = self.propose_change(via, ConfChangeType::RemoveNode, id, &url, false)?;
        self.finish_change(request)
    }

    /// etcd MemberList, answered from the applied membership of the member
    /// taking the request.
    pub fn member_list(&self) -> Result<Vec<MemberInfo>, ServerError> {
        let via = self.target(None)?;
        let node = self
            .world
            .node(via)
            .ok_or_else(|| ServerError::new(ErrorCode::NoLeader, "no member is running"))?;
        Ok(node
            .state
            .members
            .iter()
            .map(|(&id, m)| MemberInfo {
                id,
                peer_url: m.peer_url.to_string(),
                learner: m.learner,
                started: m.started,
            })
            .collect())
    }

    /// etcd MoveLeader: the leader hands leadership to voter `to` and the
    /// call returns once `to` leads.
    pub fn move_leader(&mut self, to: NodeId) -> Result<(), ServerError> {
        let (via, leads) = self.member_target()?;
        let bad = |why: String| {
            ServerError::new(
                ErrorCode::BadLeaderTransferee,
                format!("{why}: {}", ErrorCode::BadLeaderTransferee.etcd_text()),
            )
        };
        let member = self
            .world
            .node(via)
            .and_then(|n| n.state.members.get(&to).cloned());
        match member {
            None => return Err(bad(format!("member {to} is not in the cluster"))),
            Some(m) if m.learner => return Err(bad(format!("member {to} is a learner"))),
            Some(_) => {}
        }
        if leads && via == to {
            return Ok(());
        }
        let request = self.new_request();
        self.world.transfer_leader(via, to);
        let timeout = self.request_timeout_ms();
        self.wait_for(request, Waiting::Leader { to }, timeout);
        self.finish_change(request)
    }
}
