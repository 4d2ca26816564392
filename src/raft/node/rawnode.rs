//! What the caller drives (etcd's `rawnode.go`, and the parts of `raft.go`
//! and `storage.go` the application calls): ticks, messages, proposals,
//! the Ready/Advance cycle (messages to send, committed entries to apply,
//! acknowledgements that count once durable), snapshots and compaction.

use super::*;

impl Raft {
    /// One logical clock tick: election timer for followers and candidates,
    /// heartbeat and CheckQuorum timers for the leader.
    pub fn tick(&mut self) {
        let before = self.log.committed;
        match self.role {
            StateRole::Leader => self.tick_heartbeat(),
            _ => self.tick_election(),
        }
        self.note_commit(before);
    }

    /// Handles one message from the network. Stale, duplicated or
    /// unexpected messages are ignored as etcd ignores them; a local message
    /// type or a response from an untracked peer is refused (etcd's
    /// RawNode.Step).
    pub fn step(&mut self, m: Message) -> Result<(), StepError> {
        if m.msg_type.is_local() {
            return Err(StepError::LocalMessage);
        }
        if m.msg_type.is_response() && !self.tracker.progress.contains_key(&m.from) {
            return Err(StepError::PeerNotFound);
        }
        self.step_local(m);
        Ok(())
    }

    /// Steps a message without RawNode's checks.
    pub(super) fn step_local(&mut self, m: Message) {
        let before = self.log.committed;
        self.step_inner(m);
        self.note_commit(before);
    }

    /// Start an election now (etcd's MsgHup; the scenario's `campaign N`).
    pub fn campaign(&mut self) {
        let before = self.log.committed;
        self.hup(self.default_campaign());
        self.note_commit(before);
    }

    /// Propose `data`: the leader appends and replicates it; a follower
    /// forwards it to the leader it knows; otherwise it is dropped.
    pub fn propose(&mut self, data: EntryData) -> Result<(), ProposeError> {
        let before = self.log.committed;
        let entry = Entry {
            term: 0,
            index: 0,
            data,
        };
        let r = self.handle_prop(vec![entry]);
        self.note_commit(before);
        r
    }

    /// A linearizable read with id `request` (etcd's ReadIndex, ReadOnlySafe).
    /// The answer arrives later as a `ReadState` on this node.
    pub fn read_index(&mut self, request: u64) -> Result<(), ProposeError> {
        match self.role {
            StateRole::Leader => {
                self.leader_read_index(ReadRequest {
                    request,
                    from: self.id,
                    index: 0,
                });
                Ok(())
            }
            StateRole::Follower if self.lead != NONE => {
                let mut m = Message::new(MessageType::ReadIndex, self.id, self.lead, 0);
                m.context = request;
                self.send(m);
                Ok(())
            }
            _ => Err(ProposeError::NotLeaderNoLeader),
        }
    }

    /// Ask for leadership to move to `to` (etcd's MsgTransferLeader stepped
    /// locally; a follower forwards it to its leader).
    ///
    /// The transferee travels in `context` (see `transferee_of`), so that
    /// `from` is always the sender, as the network expects.
    pub fn transfer_leader(&mut self, to: NodeId) {
        let mut m = Message::new(MessageType::TransferLeader, self.id, self.id, 0);
        m.context = to;
        self.step_local(m);
    }

    /// A follower forgets its leader, as if it had not heard from it (etcd's
    /// ForgetLeader): it will grant (pre-)votes at once rather than after
    /// the lease. Ignored by leaders and candidates, and under lease-based
    /// reads, which rely on followers keeping the lease.
    pub fn forget_leader(&mut self) {
        if self.role != StateRole::Follower {
            return;
        }
        if self.read_only_option == ReadOnlyOption::LeaseBased {
            self.events.push(RaftEvent::ForgetLeaderIgnored);
            return;
        }
        self.lead = NONE;
    }

    /// The messages to send, as etcd's Ready hands them out: first those
    /// sendable at once, then the acknowledgements that wait for the state
    /// to be durable. Call it after persisting `storage()`; the node's own
    /// acknowledgements are kept for `advance`.
    pub fn take_messages(&mut self) -> Vec<Message> {
        let mut out = Vec::new();
        self.take_messages_into(&mut out);
        out
    }

    /// `take_messages` appended to `out`; the node's own vectors keep their
    /// memory for the next Ready.
    pub fn take_messages_into(&mut self, out: &mut Vec<Message>) {
        out.append(&mut self.msgs);
        for m in self.msgs_after_append.drain(..) {
            if m.to == self.id {
                self.steps_on_advance.push(m);
            } else {
                out.push(m);
            }
        }
    }

    /// The caller has persisted, applied and sent what it took: the node's
    /// own acknowledgements count now (etcd's RawNode.Advance), which may
    /// win an election or commit entries. Returns whether it stepped any;
    /// if so, there may be new work (entries, messages) to take.
    pub fn advance(&mut self) -> bool {
        if self.steps_on_advance.is_empty() {
            return false;
        }
        for m in std::mem::take(&mut self.steps_on_advance) {
            self.step_local(m);
        }
        true
    }

    /// Whether messages wait to be taken (etcd's HasReady, for messages).
    pub fn has_pending_messages(&self) -> bool {
        !self.msgs.is_empty() || !self.msgs_after_append.is_empty()
    }

    pub fn take_read_states(&mut self) -> Vec<ReadState> {
        std::mem::take(&mut self.read_states)
    }

    pub fn take_events(&mut self) -> Vec<RaftEvent> {
        std::mem::take(&mut self.events)
    }

    /// `take_events` appended to `out`, keeping the node's vector's memory.
    pub fn take_events_into(&mut self, out: &mut Vec<RaftEvent>) {
        out.append(&mut self.events);
    }

    /// Committed entries not yet applied, in order (at most 1024). Empty
    /// while a restored snapshot waits to be taken and installed.
    pub fn committed_entries(&self) -> Vec<Entry> {
        let mut out = Vec::new();
        self.committed_entries_into(&mut out);
        out
    }

    /// `committed_entries` appended to `out`.
    pub fn committed_entries_into(&self, out: &mut Vec<Entry>) {
        if self.restored_snapshot.is_some() {
            return;
        }
        let lo = self.log.applied + 1;
        let hi = (self.log.committed + 1).min(lo + MAX_COMMITTED_BATCH);
        self.log
            .slice_into(lo, hi, self.max_committed_size_per_ready, out);
    }

    /// The state machine applied everything up to `index` (etcd's
    /// appliedTo). A leader whose joint configuration is to be left
    /// automatically proposes the leaving change once it has applied the
    /// change that entered it (and anything proposed after: the pending
    /// configuration index).
    pub fn applied_to(&mut self, index: u64) {
        self.log.applied_to(index);
        let cfg = &self.tracker.config;
        if cfg.auto_leave
            && self.log.applied >= self.pending_conf_index
            && self.role == StateRole::Leader
        {
            self.propose_auto_leave();
        }
    }

    /// Proposes the empty ConfChangeV2 that leaves the joint configuration.
    /// A leadership transfer in progress drops it; the next applied entry
    /// tries again.
    pub(super) fn propose_auto_leave(&mut self) {
        let before = self.log.committed;
        let leave = Entry {
            term: 0,
            index: 0,
            data: EntryData::ConfChangeV2(Rc::new(ConfChangeV2::default())),
        };
        if self.handle_prop(vec![leave]).is_ok() {
            self.events.push(RaftEvent::AutoLeaveProposed);
        }
        self.note_commit(before);
    }

    /// The snapshot restored from the leader that waits to be taken, if any.
    pub fn restored_snapshot(&self) -> Option<&Snapshot> {
        self.restored_snapshot.as_ref()
    }

    /// A snapshot this follower restored from the leader: the caller
    /// replaces its state machine by `snapshot.data` (applied is already the
    /// snapshot index).
    pub fn take_restored_snapshot(&mut self) -> Option<Snapshot> {
        self.restored_snapshot.take()
    }

    /// The application snapshotted its state at `index` (<= applied; the
    /// configuration recorded is the current one, so take it at the applied
    /// index). Entries up to `index - keep_entries` are dropped; the rest stay
    /// so slow followers can catch up from the log (etcd's SnapshotCatchUpEntries).
    pub fn compact(&mut self, index: u64, data: Opaque, keep_entries: u64) {
        let index = index.min(self.log.applied);
        if self.create_snapshot(index, data) {
            self.compact_log(index.saturating_sub(keep_entries));
        }
    }

    /// The application holds its state at `index`, which it has applied
    /// (<= committed), with the current configuration: from now on a peer
    /// that needs entries the log no longer has is sent this snapshot
    /// (etcd's MemoryStorage.CreateSnapshot). Returns false if `index` is
    /// not newer than the last snapshot or not in the log.
    pub fn create_snapshot(&mut self, index: u64, data: Opaque) -> bool {
        if index <= self.log.snapshot.metadata.index || index > self.log.committed {
            return false;
        }
        let Some(term) = self.log.term(index) else {
            return false;
        };
        self.log.set_snapshot(Snapshot {
            metadata: SnapshotMetadata {
                index,
                term,
                conf_state: self.tracker.conf_state(),
            },
            data,
        });
        true
    }

    /// Drops the log's entries up to `compact_index`, at most up to the
    /// last snapshot (etcd's MemoryStorage.Compact). Returns whether any
    /// entry was dropped.
    pub fn compact_log(&mut self, compact_index: u64) -> bool {
        self.log.compact_to(compact_index)
    }

    /// Leader: messages to `to` are being lost (etcd's ReportUnreachable):
    /// stop streaming optimistically and probe.
    pub fn report_unreachable(&mut self, to: NodeId) {
        if self.role != StateRole::Leader {
            return;
        }
        if let Some(pr) = self.tracker.progress.get_mut(&to) {
            if pr.state == ProgressState::Replicate {
                pr.become_probe();
            }
        }
    }

    /// Leader: the snapshot sent to `to` was delivered (`success`) or lost
    /// (etcd's ReportSnapshot). Either way, probe again after the next
    /// heartbeat response.
    pub fn report_snapshot(&mut self, to: NodeId, success: bool) {
        if self.role != StateRole::Leader {
            return;
        }
        let Some(pr) = self.tracker.progress.get_mut(&to) else {
            return;
        };
        if pr.state != ProgressState::Snapshot {
            return;
        }
        if !success {
            // Clear it first, or probing would start after a snapshot never installed.
            pr.pending_snapshot = 0;
        }
        pr.become_probe();
        pr.probe_sent = true;
    }

    /// The durable state now: hard state, last snapshot, entries after it.
    /// Costs a copy of the log (entries share their payloads).
    pub fn storage(&self) -> Storage {
        let sindex = self.log.snapshot.metadata.index;
        Storage {
            hard_state: self.hard_state(),
            snapshot: self.log.snapshot.clone(),
            entries: self.log.range(sindex + 1, u64::MAX).cloned().collect(),
        }
    }
}
