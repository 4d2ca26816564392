//! The leader's side of Step (etcd's `raft.go`: `stepLeader`, `appendEntry`):
//! proposals, acknowledgements, heartbeat answers, leadership transfer.

use super::*;

impl Raft {
    pub(super) fn leader_append_proposal(
        &mut self,
        mut entries: Vec<Entry>,
    ) -> Result<(), ProposeError> {
        if !self.tracker.progress.contains_key(&self.id) {
            return Err(ProposeError::NotMember);
        }
        if self.lead_transferee != NONE {
            return Err(ProposeError::TransferInProgress);
        }
        let last = self.log.last_index();
        for (i, e) in entries.iter_mut().enumerate() {
            let request = match &e.data {
                EntryData::ConfChange(cc) => cc.request,
                EntryData::ConfChangeV2(cc) => cc.request,
                _ => continue,
            };
            match self.conf_change_refusal(&e.data) {
                // Refused changes become empty entries, keeping the batch's indexes.
                Some(reason) if !self.disable_conf_change_validation => {
                    self.events
                        .push(RaftEvent::ConfChangeRefused { request, reason });
                    e.data = EntryData::Empty;
                }
                _ => self.pending_conf_index = last + 1 + i as u64,
            }
        }
        self.append_entry(entries);
        self.bcast_append();
        Ok(())
    }

    /// Leader: stamp and append entries. Our own acknowledgement of them
    /// counts in `advance`, once they are durable.
    pub(super) fn append_entry(&mut self, mut entries: Vec<Entry>) {
        let last = self.log.last_index();
        for (i, e) in entries.iter_mut().enumerate() {
            e.term = self.term;
            e.index = last + 1 + i as u64;
        }
        let last = self.log.append(entries);
        let mut ack = Message::new(MessageType::AppResp, self.id, self.id, self.term);
        ack.index = last;
        self.send(ack);
    }

    pub(super) fn step_leader(&mut self, m: Message) {
        match m.msg_type {
            MessageType::Beat => return self.bcast_heartbeat(),
            MessageType::ReadIndex => {
                return self.leader_read_index(ReadRequest {
                    request: m.context,
                    from: m.from,
                    index: 0,
                })
            }
            MessageType::TransferLeader => return self.leader_transfer(transferee_of(&m)),
            _ => {}
        }
        // Everything else must come from a peer we track.
        if !self.tracker.progress.contains_key(&m.from) {
            return;
        }
        match m.msg_type {
            MessageType::AppResp => self.handle_append_response(m),
            MessageType::HeartbeatResp => self.handle_heartbeat_response(m),
            _ => {}
        }
    }

    pub(super) fn handle_append_response(&mut self, m: Message) {
        let from = m.from;
        let last = self.log.last_index();
        let first = self.log.first_index();
        // Where to probe next on a rejection: skip every index whose term in
        // our log exceeds the follower's term there (etcd's findConflictByTerm).
        let next_probe = if m.reject && m.log_term > 0 {
            self.log.find_conflict_by_term(m.reject_hint, m.log_term).0
        } else {
            m.reject_hint
        };
        let Some(pr) = self.tracker.progress.get_mut(&from) else {
            return;
        };
        pr.recent_active = true;
        if m.reject {
            if pr.maybe_decr_to(m.index, next_probe) {
                if pr.state == ProgressState::Replicate {
                    pr.become_probe();
                }
                self.send_append(from);
            }
            return;
        }
        let probe_confirmed = pr.matched == m.index && pr.state == ProgressState::Probe;
        if !(pr.maybe_update(m.index) || probe_confirmed) {
            return;
        }
        match pr.state {
            ProgressState::Probe => pr.become_replicate(),
            ProgressState::Snapshot if pr.matched + 1 >= first => {
                // Caught up (by the snapshot or otherwise): back to replicating.
                pr.become_probe();
                pr.become_replicate();
            }
            ProgressState::Replicate => pr.inflights.free_le(m.index),
            ProgressState::Snapshot => {}
        }
        if self.maybe_commit() {
            self.release_pending_read_index();
            self.bcast_append();
        } else if from != self.id {
            let committed = self.log.committed;
            if self
                .tracker
                .progress
                .get(&from)
                .is_some_and(|p| p.can_bump_commit(committed))
            {
                self.send_append(from);
            }
        }
        if from != self.id {
            // The window may have opened: send what fits, without empty messages.
            while self.maybe_send_append(from, false) {}
        }
        if from == self.lead_transferee
            && self
                .tracker
                .progress
                .get(&from)
                .is_some_and(|p| p.matched == last)
        {
            self.send_timeout_now(from);
        }
    }

    pub(super) fn handle_heartbeat_response(&mut self, m: Message) {
        let last = self.log.last_index();
        let Some(pr) = self.tracker.progress.get_mut(&m.from) else {
            return;
        };
        pr.recent_active = true;
        pr.probe_sent = false;
        if pr.matched < last || pr.state == ProgressState::Probe {
            self.send_append(m.from);
        }
        if self.read_only_option != ReadOnlyOption::Safe || m.context == 0 {
            return;
        }
        self.read_only.recv_ack(m.from, m.context);
        for req in self.read_only.maybe_advance(self.tracker.voters()) {
            self.answer_read(req, req.index);
        }
    }

    pub(super) fn leader_transfer(&mut self, to: NodeId) {
        let ignored = |reason| RaftEvent::TransferIgnored { to, reason };
        let Some(pr) = self.tracker.progress.get(&to) else {
            self.events.push(ignored("unknown member"));
            return;
        };
        if pr.is_learner {
            self.events.push(ignored("learner"));
            return;
        }
        let matched = pr.matched;
        if self.lead_transferee != NONE {
            if self.lead_transferee == to {
                self.events.push(ignored("transfer already in progress"));
                return;
            }
            self.abort_leader_transfer_event();
        }
        if to == self.id {
            self.events.push(ignored("already leader"));
            return;
        }
        self.events.push(RaftEvent::TransferStarted { to });
        // The transfer must finish within an election timeout.
        self.election_elapsed = 0;
        self.lead_transferee = to;
        if matched == self.log.last_index() {
            self.send_timeout_now(to);
        } else {
            self.send_append(to);
        }
    }

    pub(super) fn abort_leader_transfer_event(&mut self) {
        let to = self.lead_transferee;
        self.lead_transferee = NONE;
        self.events.push(RaftEvent::TransferAborted { to });
    }

    pub(super) fn send_timeout_now(&mut self, to: NodeId) {
        self.send(Message::new(
            MessageType::TimeoutNow,
            self.id,
            to,
            self.term,
        ));
    }
}
