//! Log replication (etcd's `raft.go`: `sendAppend`, `maybeSendAppend`,
//! `maybeSendSnapshot`, `bcastAppend`, `bcastHeartbeat` on the leader;
//! `handleAppendEntries`, `handleHeartbeat`, `handleSnapshot`, `restore` on
//! a follower).

use super::*;

impl Raft {
    pub(super) fn handle_append_entries(&mut self, m: Message) {
        let (from, prev_index, prev_term) = (m.from, m.index, m.log_term);
        if prev_index < self.log.committed {
            // Already have (and committed) all of that: say how far we are.
            let mut resp = Message::new(MessageType::AppResp, self.id, from, self.term);
            resp.index = self.log.committed;
            self.send(resp);
            return;
        }
        let well_formed = match (m.entries.first(), m.entries.last()) {
            (Some(a), Some(b)) => {
                a.index == prev_index + 1 && b.index == prev_index + m.entries.len() as u64
            }
            _ => true,
        };
        let appended = if well_formed {
            self.log
                .maybe_append(prev_index, prev_term, m.commit, m.entries)
        } else {
            None
        };
        let mut resp = Message::new(MessageType::AppResp, self.id, from, self.term);
        match appended {
            Some(last_new) => resp.index = last_new,
            None => {
                // Hint where our logs may match: the largest index at or
                // below the probe whose term is at most the probe's term.
                let hint = prev_index.min(self.log.last_index());
                let (hint_index, hint_term) = self.log.find_conflict_by_term(hint, prev_term);
                resp.index = prev_index;
                resp.reject = true;
                resp.reject_hint = hint_index;
                resp.log_term = hint_term;
            }
        }
        self.send(resp);
    }

    pub(super) fn handle_heartbeat(&mut self, m: Message) {
        // The leader never sends a commit beyond what we hold (min(match, commit)).
        self.log.commit_to(m.commit.min(self.log.last_index()));
        let mut resp = Message::new(MessageType::HeartbeatResp, self.id, m.from, self.term);
        resp.context = m.context;
        self.send(resp);
    }

    pub(super) fn handle_snapshot(&mut self, m: Message) {
        let from = m.from;
        let snapshot = m.snapshot.map(|s| *s).unwrap_or_default();
        let mut resp = Message::new(MessageType::AppResp, self.id, from, self.term);
        resp.index = if self.restore(snapshot) {
            self.log.last_index()
        } else {
            self.log.committed
        };
        self.send(resp);
    }

    /// Install a leader's snapshot: the log is replaced and the configuration
    /// becomes the snapshot's. Returns false if the snapshot is old news.
    pub(super) fn restore(&mut self, s: Snapshot) -> bool {
        let (index, term) = (s.metadata.index, s.metadata.term);
        if index <= self.log.committed {
            return false;
        }
        if self.role != StateRole::Follower {
            // Defense in depth, as etcd: only a follower restores.
            self.become_follower(self.term + 1, NONE);
            return false;
        }
        // etcd also refuses a snapshot whose configuration lacks this node.
        // The world sends the leader's applied state, as etcd's server does
        // (createMergedSnapshotMessage), so that does not happen there; a
        // caller of this library alone may send an older snapshot. Installing
        // it is safe: the entries after it, including the change that adds
        // us, follow.
        if self.log.match_term(index, term) {
            // We already have that entry: just move the commit index.
            self.log.commit_to(index);
            return false;
        }
        let conf_state = s.metadata.conf_state.clone();
        self.log.restore(s.clone());
        self.tracker = restore_tracker(
            &conf_state,
            self.tracker.max_inflight,
            self.log.last_index(),
        );
        self.restored_snapshot = Some(s);
        self.events.push(RaftEvent::SnapshotRestored { index });
        true
    }

    /// Peers (every tracked id but ours) in ascending order, one at a time,
    /// so callers can mutate `self` between them without collecting ids.
    pub(super) fn peer_after(&self, after: NodeId) -> Option<NodeId> {
        self.tracker
            .progress
            .range((Excluded(after), Unbounded))
            .map(|(&id, _)| id)
            .find(|&id| id != self.id)
    }

    /// Send entries (or at least the commit index) to every peer, learners included.
    pub(super) fn bcast_append(&mut self) {
        let mut cur = 0;
        while let Some(id) = self.peer_after(cur) {
            self.send_append(id);
            cur = id;
        }
    }

    pub(super) fn bcast_heartbeat(&mut self) {
        let ctx = self.read_only.heartbeat_ctx();
        let mut cur = 0;
        while let Some(id) = self.peer_after(cur) {
            self.send_heartbeat(id, ctx);
            cur = id;
        }
    }

    pub(super) fn send_heartbeat(&mut self, to: NodeId, ctx: u64) {
        let committed = self.log.committed;
        let Some(pr) = self.tracker.progress.get_mut(&to) else {
            return;
        };
        // Never tell a follower to commit past what it is known to hold.
        let commit = pr.matched.min(committed);
        pr.sent_commit(commit);
        let mut m = Message::new(MessageType::Heartbeat, self.id, to, self.term);
        m.commit = commit;
        m.context = ctx;
        self.send(m);
    }

    pub(super) fn send_append(&mut self, to: NodeId) {
        self.maybe_send_append(to, true);
    }

    /// Send `to` the entries from its next index, or a snapshot if they are
    /// compacted. With `send_if_empty` false, only a message with entries is
    /// worth sending. Returns whether a message went out.
    pub(super) fn maybe_send_append(&mut self, to: NodeId, send_if_empty: bool) -> bool {
        let Some(pr) = self.tracker.progress.get(&to) else {
            return false;
        };
        if pr.is_paused() {
            return false;
        }
        let prev_index = pr.next_idx - 1;
        let Some(prev_term) = self.log.term(prev_index) else {
            // The log was compacted past what the peer has.
            return self.maybe_send_snapshot(to);
        };
        // A full window in Replicate still gets an empty MsgApp so that
        // replication recovers if the in-flight messages were all lost.
        let entries = if pr.state != ProgressState::Replicate || !pr.inflights.full() {
            match self.log.entries_from(pr.next_idx, self.max_size_per_msg) {
                Some(e) => e,
                None => return self.maybe_send_snapshot(to),
            }
        } else {
            Vec::new()
        };
        if entries.is_empty() && !send_if_empty {
            return false;
        }
        let n = entries.len();
        let committed = self.log.committed;
        let mut m = Message::new(MessageType::App, self.id, to, self.term);
        m.index = prev_index;
        m.log_term = prev_term;
        m.entries = entries;
        m.commit = committed;
        self.send(m);
        if let Some(pr) = self.tracker.progress.get_mut(&to) {
            pr.sent_entries(n);
            pr.sent_commit(committed);
        }
        true
    }

    /// Only to a recently active peer: a snapshot is costly, and a silent
    /// peer may be gone.
    pub(super) fn maybe_send_snapshot(&mut self, to: NodeId) -> bool {
        let sindex = self.log.snapshot.metadata.index;
        let Some(pr) = self.tracker.progress.get_mut(&to) else {
            return false;
        };
        if !pr.recent_active || sindex == 0 {
            return false;
        }
        pr.become_snapshot(sindex);
        let mut m = Message::new(MessageType::Snap, self.id, to, self.term);
        m.snapshot = Some(Box::new(self.log.snapshot.clone()));
        self.send(m);
        self.events
            .push(RaftEvent::SnapshotSent { to, index: sindex });
        true
    }
}
