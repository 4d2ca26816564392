//! Configuration changes on a node (etcd's `raft.go`: `applyConfChange`,
//! `switchToConfig`, and `stepLeader`'s checks of a proposed change).

use super::*;

impl Raft {
    /// Apply a committed single-member change (etcd's ApplyConfChange of a
    /// ConfChange): see `apply_conf_change_v2`.
    pub fn apply_conf_change(&mut self, cc: &ConfChange) -> ConfState {
        let _ = self.apply_conf_change_v2(&cc.as_v2());
        self.tracker.conf_state()
    }

    /// Apply a committed configuration change: it takes effect now (etcd's
    /// applyConfChange). The empty change leaves a joint configuration; a
    /// joint change enters one; anything else is a simple change. Returns
    /// the new configuration. A change the configuration cannot take (no
    /// voter left, a second joint change...) is refused (ConfChangeRefused
    /// and an error) and the configuration stays as it was, where etcd would
    /// panic.
    pub fn apply_conf_change_v2(
        &mut self,
        cc: &ConfChangeV2,
    ) -> Result<ConfState, ConfChangeError> {
        let changer = Changer {
            tracker: &self.tracker,
            last_index: self.log.last_index(),
        };
        let changed = if cc.leave_joint() {
            changer.leave_joint()
        } else if let Some(auto_leave) = cc.enter_joint() {
            changer.enter_joint(auto_leave, &cc.changes)
        } else {
            changer.simple(&cc.changes)
        };
        match changed {
            Ok((cfg, progress)) => Ok(self.switch_to_config(cfg, progress)),
            Err(e) => {
                self.events.push(RaftEvent::ConfChangeRefused {
                    request: cc.request,
                    reason: e.reason(),
                });
                Err(e)
            }
        }
    }

    /// Make `cfg` the configuration (etcd's switchToConfig). A leader that
    /// is no longer a voter steps down only with StepDownOnRemoval;
    /// otherwise a leader commits what the new voters allow and probes new
    /// peers at once rather than at the next heartbeat.
    pub(super) fn switch_to_config(
        &mut self,
        cfg: TrackerConfig,
        progress: ProgressMap,
    ) -> ConfState {
        let before = self.log.committed;
        self.tracker.config = cfg;
        self.tracker.progress = progress;
        let cs = self.tracker.conf_state();
        let member = self.tracker.progress.contains_key(&self.id);
        if self.role == StateRole::Leader && (!member || self.is_learner()) {
            if self.step_down_on_removal {
                self.become_follower(self.term, NONE);
            }
            return cs;
        }
        if self.role != StateRole::Leader || cs.voters.is_empty() {
            return cs;
        }
        if self.maybe_commit() {
            self.bcast_append();
        } else {
            let mut cur = 0;
            while let Some(id) = self.peer_after(cur) {
                self.maybe_send_append(id, false);
                cur = id;
            }
        }
        if self.lead_transferee != NONE && !self.tracker.is_voter(self.lead_transferee) {
            self.abort_leader_transfer_event();
        }
        self.note_commit(before);
        cs
    }

    /// Why the leader refuses to propose a configuration change now (etcd's
    /// checks in stepLeader): one change at a time (an earlier one may not
    /// be applied yet), a joint configuration must be left before any other
    /// change, and only a joint configuration can be left.
    pub(super) fn conf_change_refusal(&self, data: &EntryData) -> Option<&'static str> {
        let wants_leave_joint = match data {
            EntryData::ConfChangeV2(cc) => cc.changes.is_empty(),
            _ => false,
        };
        let joint = self.tracker.voters().is_joint();
        if self.pending_conf_index > self.log.applied {
            Some("possible unapplied conf change")
        } else if joint && !wants_leave_joint {
            Some("must transition out of joint config first")
        } else if !joint && wants_leave_joint {
            Some("not in joint state; refusing empty conf change")
        } else {
            None
        }
    }
}

/// The configuration of `cs` with every peer fresh (etcd's
/// confchange.Restore). Every ConfState comes from a tracker, so it is
/// valid; an invalid one would give the empty configuration, where etcd
/// panics.
pub(super) fn restore_tracker(
    cs: &ConfState,
    max_inflight: usize,
    last_index: u64,
) -> ProgressTracker {
    confchange::restore(cs, max_inflight, last_index).unwrap_or_else(|e: ConfChangeError| {
        debug_assert!(false, "invalid ConfState {cs:?}: {e}");
        ProgressTracker::new(max_inflight)
    })
}
