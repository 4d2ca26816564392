//! The design document's proposals for learners, as modes of the server
//! (`docs/modes.md`). etcd ships none of them: etcd-io/etcd#15107 (learner
//! by default, automatic promotion) is open, and the nearest code is the
//! alpha `AutoPromoteLearners` feature gate of etcd-io/etcd PR 21744, a
//! leader-only loop that wakes on the first commit of a term or every few
//! seconds and calls the same readiness and strict checks as a manual
//! `MemberPromote`. Each mode is off by default, so a cluster behaves as
//! etcd does unless a script turns one on.
//!
//! - *Learner by default* (the document's §1, `new-members=learner`): only
//!   changes what `member add N` proposes; see `Cluster::member_add`.
//! - *Automatic promotion* (§2, `auto-promote=PERCENT`): the leader checks
//!   every plain learner once per election timeout and promotes it when its
//!   match reaches PERCENT of the leader's last index, the leader heard from
//!   it within an election timeout, its progress is not in snapshot state,
//!   and the strict check for a promotion passes.
//! - *Standby failover* (§3, `--standby`, `failover-after`, `failover`):
//!   a voter the leader has not heard from for `failover-after`, while the
//!   leader still holds its quorum, is replaced by a ready standby (remove
//!   first, then promote) or, with `grow`, joined by it.
//! - *Read-only learners* (§4, `--read-only=weak|strong`): never promoted;
//!   their reads are served in `client.rs`.
//!
//! These decisions are the server's (the leader's member logic), not
//! Raft's: they read the leader's progress tracker and propose ordinary
//! single-server changes through the same path as the member commands, one
//! at a time. Every decision, and every "not yet" whose reason changed, is
//! an event ([`ModeDecision`]) the narration puts into words.

use crate::raft::opaque::Opaque;
use crate::raft::{ConfChange, ConfChangeType, NodeId, ProgressState};
use crate::sim::{Event, EventKind, ModeDecision, NotYet};

use super::cluster::Cluster;
use super::error::{ErrorCode, ErrorDetail, ServerError};
use super::mode_settings::{Failover, FailoverWatch, MemberKind, STANDBY_READY_PERCENT};
use super::mode_state::{said_key, SaidKey};
use super::reconfig;
use super::request::{Deferred, RequestId};

/// `a*100 / b` rounded down, 100 when `b` is 0.
fn percent_of(a: u64, b: u64) -> u64 {
    if b == 0 {
        100
    } else {
        (u128::from(a) * 100 / u128::from(b)) as u64
    }
}

impl Cluster {
    /// What kind of member `id` is (standby, read-only), as the server
    /// recorded it when its add was applied.
    pub fn member_kind(&self, id: NodeId) -> MemberKind {
        self.modes.kind(id)
    }

    /// Voter `id`'s failover countdown: `None` unless the leader holds its
    /// quorum, a standby learner is there to take over, and the leader has
    /// not heard from `id` for more than an election timeout, the
    /// conditions of `failover_step` (what a front end draws; it decides
    /// nothing).
    pub fn failover_watch(&self, id: NodeId) -> Option<FailoverWatch> {
        let leader = self.leader()?;
        if id == leader || self.modes.grown_for.contains(&id) {
            return None;
        }
        let conf = self.world.raft(leader)?.conf_state();
        if !conf.voters.contains(&id) || !conf.learners.iter().any(|&l| self.modes.kind(l).standby)
        {
            return None;
        }
        let now = self.now();
        let timeout = self.world.config().election_timeout_ms;
        // A leader the modes have not looked from yet starts its tenure now.
        let term = self.world.raft(leader).map_or(0, |r| r.term());
        let start = match self.modes.tenure {
            Some((l, t, s)) if l == leader && t == term => s,
            _ => now,
        };
        let silent = |v: NodeId| {
            let heard = self
                .world
                .last_ack(leader, v)
                .map_or(start, |t| t.max(start));
            now.saturating_sub(heard)
        };
        let heard = conf
            .voters
            .iter()
            .filter(|&&v| v == leader || silent(v) <= timeout)
            .count();
        if heard < reconfig::quorum(conf.voters.len()) {
            return None;
        }
        let silent_ms = silent(id);
        (silent_ms > timeout).then_some(FailoverWatch {
            silent_ms,
            after_ms: self.cfg.modes.failover_after_ms,
        })
    }

    /// Remembers the kind of a member whose add is proposed as `request`.
    pub(crate) fn remember_kind(&mut self, request: RequestId, id: NodeId, kind: MemberKind) {
        if !kind.is_plain() {
            self.modes.proposed.insert(request, (id, kind));
        }
    }

    /// Keeps the kinds in step with an applied membership change.
    pub(crate) fn kind_applied(&mut self, change: &ConfChange) {
        match change.change_type {
            ConfChangeType::AddLearnerNode => {
                if let Some((id, kind)) = self.modes.proposed.remove(&change.request) {
                    if id == change.node_id {
                        self.modes.kinds.insert(id, kind);
                    }
                }
            }
            // A promoted standby is a voter like any other.
            ConfChangeType::AddNode => {
                self.modes.kinds.remove(&change.node_id);
            }
            ConfChangeType::RemoveNode => {
                self.modes.kinds.remove(&change.node_id);
                self.modes.grown_for.remove(&change.node_id);
            }
            ConfChangeType::UpdateNode => {}
        }
    }

    /// A read-only learner is never promoted: `member-read-only`.
    pub(crate) fn refuse_read_only(&self, id: NodeId) -> Result<(), ServerError> {
        match self.modes.kind(id).read_only {
            Some(mode) => Err(ServerError::new(
                ErrorCode::MemberReadOnly,
                ErrorDetail::ReadOnlyLearner { id, mode },
            )),
            None => Ok(()),
        }
    }

    /// Whether any mode needs the leader's periodic look.
    fn modes_active(&self) -> bool {
        self.cfg.modes.auto_promote.is_some() || self.modes.kinds.values().any(|k| k.standby)
    }

    /// When the modes next look, if any mode is on.
    pub(crate) fn next_mode_check(&self) -> Option<u64> {
        self.modes_active().then_some(self.modes.next_check)
    }

    fn say(&mut self, leader: NodeId, decision: ModeDecision) {
        let time_ms = self.now();
        self.push_event(Event {
            time_ms,
            kind: EventKind::Mode { leader, decision },
        });
    }

    /// Says a "not yet" for `about` only when its reason changed.
    fn say_not_yet(&mut self, leader: NodeId, about: NodeId, decision: ModeDecision, key: SaidKey) {
        if self.modes.said.get(&about) != Some(&key) {
            self.modes.said.insert(about, key);
            self.say(leader, decision);
        }
    }

    /// The leader's periodic look (once per election timeout, and as soon as
    /// a new leader is seen): failover first, then automatic promotion; at
    /// most one change proposed per look, none while one is pending.
    pub(crate) fn check_modes(&mut self) {
        if !self.modes_active() {
            return;
        }
        let now = self.now();
        let period = self.world.config().election_timeout_ms.max(1);
        let Some(leader) = self.leader() else {
            self.modes.tenure = None;
            self.modes.next_check = now + period;
            return;
        };
        let term = self.world.raft(leader).map_or(0, |r| r.term());
        let new_tenure = !matches!(self.modes.tenure, Some((l, t, _)) if l == leader && t == term);
        // A change the modes proposed has just finished: look again at once
        // (the second step of a replacement follows the first).
        let finished = self
            .modes
            .in_flight
            .is_some_and(|r| !self.pending.contains_key(&r));
        if finished {
            self.modes.in_flight = None;
        }
        if new_tenure {
            self.modes.tenure = Some((leader, term, now));
            self.modes.counting.clear();
        } else if now < self.modes.next_check && !finished {
            return;
        }
        self.modes.next_check = now + period;
        if self.change_pending(leader) {
            return;
        }
        if self.failover_step(leader) {
            return;
        }
        if let Some(percent) = self.cfg.modes.auto_promote {
            self.auto_promote_step(leader, percent);
        }
    }

    /// Whether a membership change is on its way: one the modes proposed,
    /// one in the leader's log not yet applied, or a joint configuration.
    fn change_pending(&self, leader: NodeId) -> bool {
        if self
            .modes
            .in_flight
            .is_some_and(|r| self.pending.contains_key(&r))
        {
            return true;
        }
        let Some(r) = self.world.raft(leader) else {
            return true;
        };
        r.pending_conf_index() > r.applied() || !r.conf_state().voters_outgoing.is_empty()
    }

    /// When the leader last heard an answer from `id` in its current tenure
    /// (never before the tenure began, so a new leader gives every peer a
    /// fresh start).
    fn heard_since(&self, leader: NodeId, id: NodeId) -> u64 {
        let start = self.modes.tenure.map_or(0, |(_, _, s)| s);
        self.world
            .last_ack(leader, id)
            .map_or(start, |t| t.max(start))
    }

    /// Whether `learner` may be promoted now at `percent`: healthy, caught
    /// up, and passing the strict check. Ok carries (match, last index).
    fn readiness(
        &self,
        leader: NodeId,
        learner: NodeId,
        percent: u8,
    ) -> Result<(u64, u64), NotYet> {
        let Some(r) = self.world.raft(leader) else {
            return Err(NotYet::NotTracked);
        };
        let Some(pr) = r.tracker().progress.get(&learner) else {
            return Err(NotYet::NotTracked);
        };
        let now = self.now();
        let timeout = self.world.config().election_timeout_ms;
        match self.world.last_ack(leader, learner) {
            Some(t) if now.saturating_sub(t) <= timeout => {}
            heard => {
                return Err(NotYet::NotHeard {
                    silent_ms: heard.map(|t| now.saturating_sub(t)),
                })
            }
        }
        if pr.state == ProgressState::Snapshot {
            return Err(NotYet::Snapshot);
        }
        let (matched, last) = (pr.matched, r.last_index());
        if u128::from(matched) * 100 < u128::from(percent) * u128::from(last) {
            return Err(NotYet::Behind {
                matched,
                last,
                percent_now: percent_of(matched, last),
                percent,
            });
        }
        if self.cfg.strict_reconfig {
            if let Err(e) = reconfig::check_promote(&self.voter_views(leader)) {
                return Err(NotYet::Strict(Opaque::new(e, 0)));
            }
        }
        Ok((matched, last))
    }

    /// Proposes promoting `learner` through the leader, as `member promote`
    /// does, with nobody waiting for the answer.
    fn propose_promotion(&mut self, leader: NodeId, learner: NodeId) {
        self.propose_quiet(leader, ConfChangeType::AddNode, learner, true);
    }

    /// Proposes removing `voter`, as `member remove` does.
    fn propose_removal(&mut self, leader: NodeId, voter: NodeId) {
        self.propose_quiet(leader, ConfChangeType::RemoveNode, voter, false);
    }

    fn propose_quiet(
        &mut self,
        leader: NodeId,
        change_type: ConfChangeType,
        id: NodeId,
        promote: bool,
    ) {
        let url = self
            .world
            .node(leader)
            .and_then(|n| n.state.members.get(&id))
            .map_or_else(String::new, |m| m.peer_url.to_string());
        let cc = self.conf_change(change_type, id, &url, promote);
        self.send_quiet(cc.request, leader, Deferred::Change(cc));
    }

    fn send_quiet(&mut self, request: RequestId, leader: NodeId, then: Deferred) {
        let timeout = self.request_timeout_ms();
        self.send(request, Some(leader), then, timeout);
        if let Some(p) = self.pending.get_mut(&request) {
            p.quiet = true;
            self.modes.in_flight = Some(request);
        } else {
            // Answered at once (a one-node cluster): nobody reads it.
            self.take_finished_request(request);
        }
    }

    /// The learners the leader tracks, by kind.
    fn learners_of(&self, leader: NodeId) -> Vec<NodeId> {
        self.world
            .raft(leader)
            .map(|r| r.conf_state().learners.into_iter().collect())
            .unwrap_or_default()
    }

    /// Automatic promotion: the first plain learner that is ready is
    /// promoted; every other says why not, when that changed.
    fn auto_promote_step(&mut self, leader: NodeId, percent: u8) {
        for learner in self.learners_of(leader) {
            if !self.modes.kind(learner).is_plain() {
                continue;
            }
            match self.readiness(leader, learner, percent) {
                Ok((matched, last)) => {
                    self.modes.said.remove(&learner);
                    self.say(
                        leader,
                        ModeDecision::Promote {
                            learner,
                            matched,
                            last,
                            percent,
                        },
                    );
                    self.propose_promotion(leader, learner);
                    return;
                }
                Err(reason) => {
                    let key = said_key(&reason);
                    self.say_not_yet(
                        leader,
                        learner,
                        ModeDecision::NotYet { learner, reason },
                        key,
                    );
                }
            }
        }
    }

    /// Standby failover. Returns whether it proposed a change.
    fn failover_step(&mut self, leader: NodeId) -> bool {
        if let Some(proposed) = self.finish_replacement(leader) {
            return proposed;
        }
        let standbys: Vec<NodeId> = self
            .learners_of(leader)
            .into_iter()
            .filter(|&l| self.modes.kind(l).standby)
            .collect();
        if standbys.is_empty() {
            return false;
        }
        let Some(voters) = self.voters_if_quorum_heard(leader) else {
            return false;
        };
        for voter in voters {
            if voter == leader || self.modes.grown_for.contains(&voter) {
                continue;
            }
            let Some(silent) = self.silent_past_failover(leader, voter) else {
                continue;
            };
            let Some(standby) = self.ready_standby(leader, voter, &standbys) else {
                continue;
            };
            self.modes.counting.remove(&voter);
            self.modes.said.remove(&voter);
            if self.fail_over(leader, voter, standby, silent) {
                return true;
            }
        }
        false
    }

    /// Replace, second step: the voter is gone; promote the standby. None
    /// when no replacement is owed (or it cannot finish: it is forgotten).
    fn finish_replacement(&mut self, leader: NodeId) -> Option<bool> {
        let (voter, standby) = self.modes.owed?;
        let voters = self
            .world
            .raft(leader)
            .map(|r| r.conf_state().voters)
            .unwrap_or_default();
        if voters.contains(&voter) || !self.learners_of(leader).contains(&standby) {
            // The removal did not happen (or the standby left): start over.
            self.modes.owed = None;
            return None;
        }
        Some(
            match self.readiness(leader, standby, STANDBY_READY_PERCENT) {
                Ok(_) => {
                    self.modes.owed = None;
                    let d = ModeDecision::FailoverPromote {
                        standby,
                        voter,
                        grow: false,
                    };
                    self.say(leader, d);
                    self.propose_promotion(leader, standby);
                    true
                }
                Err(reason) => {
                    let key = said_key(&reason);
                    let d = ModeDecision::NotYet {
                        learner: standby,
                        reason,
                    };
                    self.say_not_yet(leader, standby, d, key);
                    false
                }
            },
        )
    }

    /// The leader's voters, when it still holds its quorum: it heard from a
    /// majority of them (itself included) within an election timeout.
    fn voters_if_quorum_heard(&self, leader: NodeId) -> Option<Vec<NodeId>> {
        let voters: Vec<NodeId> = self
            .world
            .raft(leader)?
            .conf_state()
            .voters
            .into_iter()
            .collect();
        let now = self.now();
        let timeout = self.world.config().election_timeout_ms;
        let heard = voters
            .iter()
            .filter(|&&v| v == leader || now.saturating_sub(self.heard_since(leader, v)) <= timeout)
            .count();
        (heard >= reconfig::quorum(voters.len())).then_some(voters)
    }

    /// How long the leader has not heard from `voter`, once that is
    /// failover-after or more. Before, a countdown is said (and cancelled
    /// when the voter is heard again) and the next look is set to its end.
    fn silent_past_failover(&mut self, leader: NodeId, voter: NodeId) -> Option<u64> {
        let now = self.now();
        let timeout = self.world.config().election_timeout_ms;
        let after = self.cfg.modes.failover_after_ms;
        let silent = now.saturating_sub(self.heard_since(leader, voter));
        if silent <= timeout {
            if self.modes.counting.remove(&voter) {
                self.modes.said.remove(&voter);
                self.say(leader, ModeDecision::FailoverCancelled { voter });
            }
            return None;
        }
        if silent < after {
            // Look again when its time is up, not a period later.
            let due = now + (after - silent);
            self.modes.next_check = self.modes.next_check.min(due);
            if self.modes.counting.insert(voter) {
                let d = ModeDecision::FailoverCountdown {
                    voter,
                    silent_ms: silent,
                    left_ms: after - silent,
                };
                self.say(leader, d);
            }
            return None;
        }
        Some(silent)
    }

    /// The first standby ready to replace the unreachable `voter`; when
    /// none is, the failover is said to be blocked, with the last reason.
    fn ready_standby(
        &mut self,
        leader: NodeId,
        voter: NodeId,
        standbys: &[NodeId],
    ) -> Option<NodeId> {
        let mut why = NotYet::NoStandby;
        for &s in standbys {
            match self.readiness(leader, s, STANDBY_READY_PERCENT) {
                Ok(_) => return Some(s),
                Err(reason) => why = reason,
            }
        }
        let key = said_key(&why);
        let d = ModeDecision::FailoverBlocked {
            voter,
            standby: standbys.first().copied(),
            reason: why,
        };
        self.say_not_yet(leader, voter, d, key);
        None
    }

    /// Fails `voter` over to `standby` as the failover setting says: replace
    /// (remove the voter first; the promotion is owed) or grow (promote at
    /// once). False when the strict check refuses the removal.
    fn fail_over(&mut self, leader: NodeId, voter: NodeId, standby: NodeId, silent: u64) -> bool {
        match self.cfg.modes.failover {
            Failover::Replace => {
                if self.cfg.strict_reconfig {
                    let views = self.voter_views(leader);
                    if let Err(e) = reconfig::check_remove_voter(&views, voter, leader) {
                        let d = ModeDecision::FailoverBlocked {
                            voter,
                            standby: Some(standby),
                            reason: NotYet::Strict(Opaque::new(e, 0)),
                        };
                        self.say_not_yet(leader, voter, d, SaidKey::Strict);
                        return false;
                    }
                }
                let d = ModeDecision::FailoverRemove {
                    voter,
                    standby,
                    silent_ms: silent,
                };
                self.say(leader, d);
                self.modes.owed = Some((voter, standby));
                self.propose_removal(leader, voter);
            }
            Failover::Grow => {
                let d = ModeDecision::FailoverPromote {
                    standby,
                    voter,
                    grow: true,
                };
                self.say(leader, d);
                self.modes.grown_for.insert(voter);
                self.propose_promotion(leader, standby);
            }
        }
        true
    }
}
