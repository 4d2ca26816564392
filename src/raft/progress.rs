//! What a leader knows about one follower's log (etcd's `tracker/progress.go`).

use crate::raft::inflights::Inflights;

/// How the leader replicates to a follower.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressState {
    /// The leader does not know where the follower's log ends: it sends at
    /// most one MsgApp per heartbeat interval and waits for the answer.
    Probe,
    /// The follower's log is known to match up to `matched`: the leader
    /// streams entries optimistically, up to the in-flight window.
    Replicate,
    /// The entries the follower needs are compacted: a snapshot is on its
    /// way and replication pauses until it is acknowledged.
    Snapshot,
}

impl ProgressState {
    /// etcd's name for the state, as `tracker.StateType` prints it.
    pub fn etcd_name(self) -> &'static str {
        match self {
            ProgressState::Probe => "StateProbe",
            ProgressState::Replicate => "StateReplicate",
            ProgressState::Snapshot => "StateSnapshot",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ProgressState::Probe => "probe",
            ProgressState::Replicate => "replicate",
            ProgressState::Snapshot => "snapshot",
        }
    }
}

/// The leader's view of one peer (voter or learner).
///
/// Invariant: `0 <= matched < next_idx`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The highest index known to be in the peer's log, identical to ours.
    pub matched: u64,
    /// The next index to send. In Probe it is a guess being tested; in
    /// Replicate everything before it has been sent (optimistically); in
    /// Snapshot it is the snapshot index + 1.
    pub next_idx: u64,
    pub state: ProgressState,
    /// In Snapshot: the index of the snapshot being sent; 0 otherwise.
    pub pending_snapshot: u64,
    /// Whether the peer answered since the last CheckQuorum round. Set by
    /// any response, cleared by the leader at each election-timeout check.
    pub recent_active: bool,
    /// etcd's MsgAppFlowPaused. In Probe: one MsgApp has been sent since the
    /// last heartbeat response, so hold off. In Replicate: the in-flight
    /// window is full.
    pub probe_sent: bool,
    /// MsgApps sent in Replicate and not yet acknowledged.
    pub inflights: Inflights,
    /// Learners are replicated to like everyone, but never counted.
    pub is_learner: bool,
    /// The highest commit index sent to the peer (etcd's sentCommit), so the
    /// leader knows when a follower is missing the latest commit index.
    pub sent_commit: u64,
}

impl Progress {
    /// A fresh progress in Probe with nothing known to match.
    pub fn new(next_idx: u64, max_inflight: usize, is_learner: bool) -> Progress {
        debug_assert!(next_idx >= 1);
        Progress {
            matched: 0,
            next_idx,
            state: ProgressState::Probe,
            pending_snapshot: 0,
            recent_active: false,
            probe_sent: false,
            inflights: Inflights::new(max_inflight),
            is_learner,
            sent_commit: 0,
        }
    }

    fn reset_state(&mut self, state: ProgressState) {
        self.probe_sent = false;
        self.pending_snapshot = 0;
        self.state = state;
        self.inflights.reset();
    }

    /// Back to probing from just after `matched` (or after the snapshot that
    /// was being sent, which the follower has presumably installed).
    pub fn become_probe(&mut self) {
        if self.state == ProgressState::Snapshot {
            let pending = self.pending_snapshot;
            self.reset_state(ProgressState::Probe);
            self.next_idx = (self.matched + 1).max(pending + 1);
        } else {
            self.reset_state(ProgressState::Probe);
            self.next_idx = self.matched + 1;
        }
        self.sent_commit = self.sent_commit.min(self.next_idx - 1);
    }

    /// Start streaming right after what is known to match.
    pub fn become_replicate(&mut self) {
        self.reset_state(ProgressState::Replicate);
        self.next_idx = self.matched + 1;
    }

    /// A snapshot at `snapshot_index` is being sent: pause until it lands.
    pub fn become_snapshot(&mut self, snapshot_index: u64) {
        self.reset_state(ProgressState::Snapshot);
        self.pending_snapshot = snapshot_index;
        self.next_idx = snapshot_index + 1;
        self.sent_commit = snapshot_index;
    }

    /// A MsgApp carrying `entries` entries (the last at `next_idx + entries - 1`) was sent.
    pub fn sent_entries(&mut self, entries: usize) {
        match self.state {
            ProgressState::Replicate => {
                if entries > 0 {
                    self.next_idx += entries as u64;
                    self.inflights.add(self.next_idx - 1);
                }
                self.probe_sent = self.inflights.full();
            }
            ProgressState::Probe => {
                if entries > 0 {
                    self.probe_sent = true;
                }
            }
            ProgressState::Snapshot => debug_assert!(false, "sending entries in snapshot state"),
        }
    }

    /// Whether the peer may lack commit index `index` and can be told it
    /// (only up to what it is known or believed to hold).
    pub fn can_bump_commit(&self, index: u64) -> bool {
        index > self.sent_commit && self.sent_commit < self.next_idx - 1
    }

    pub fn sent_commit(&mut self, commit: u64) {
        self.sent_commit = commit;
    }

    /// The peer acknowledged its log up to `n`. Returns false if that is old news.
    pub fn maybe_update(&mut self, n: u64) -> bool {
        if n <= self.matched {
            return false;
        }
        self.matched = n;
        self.next_idx = self.next_idx.max(n + 1);
        self.probe_sent = false;
        true
    }

    /// The peer rejected a MsgApp whose previous index was `rejected`; its
    /// log may match up to `match_hint`. Returns false if the rejection is
    /// stale (a duplicate, or about an index already known to match).
    pub fn maybe_decr_to(&mut self, rejected: u64, match_hint: u64) -> bool {
        if self.state == ProgressState::Replicate {
            // In Replicate a rejection of something at or below `matched` is
            // out of date; otherwise fall back to just after `matched`.
            if rejected <= self.matched {
                return false;
            }
            self.next_idx = self.matched + 1;
            self.sent_commit = self.sent_commit.min(self.next_idx - 1);
            return true;
        }
        // In Probe only the answer to the latest probe (at next - 1) matters.
        if self.next_idx - 1 != rejected {
            return false;
        }
        self.next_idx = rejected.min(match_hint + 1).max(self.matched + 1);
        self.sent_commit = self.sent_commit.min(self.next_idx - 1);
        self.probe_sent = false;
        true
    }

    /// Whether the leader should hold off sending MsgApp to this peer.
    pub fn is_paused(&self) -> bool {
        match self.state {
            ProgressState::Probe | ProgressState::Replicate => self.probe_sent,
            ProgressState::Snapshot => true,
        }
    }

    /// etcd's `Progress.String`: "StateReplicate match=5 next=6", then the
    /// flags that apply (learner, paused, pendingSnap, inactive, inflight).
    pub fn describe(&self) -> String {
        let mut s = format!(
            "{} match={} next={}",
            self.state.etcd_name(),
            self.matched,
            self.next_idx
        );
        if self.is_learner {
            s.push_str(" learner");
        }
        if self.is_paused() {
            s.push_str(" paused");
        }
        if self.pending_snapshot > 0 {
            s.push_str(&format!(" pendingSnap={}", self.pending_snapshot));
        }
        if !self.recent_active {
            s.push_str(" inactive");
        }
        if self.inflights.count() > 0 {
            s.push_str(&format!(" inflight={}", self.inflights.count()));
            if self.inflights.full() {
                s.push_str("[full]");
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(state: ProgressState, matched: u64, next: u64) -> Progress {
        let mut pr = Progress::new(next, 4, false);
        pr.state = state;
        pr.matched = matched;
        pr
    }

    #[test]
    fn probe_pauses_after_one_append_until_an_answer() {
        let mut pr = progress(ProgressState::Probe, 0, 1);
        assert!(!pr.is_paused());
        pr.sent_entries(0);
        assert!(!pr.is_paused(), "an empty probe does not pause");
        pr.sent_entries(3);
        assert!(pr.is_paused());
        assert_eq!(pr.next_idx, 1, "probe does not advance next optimistically");
        assert!(pr.maybe_update(3));
        assert!(!pr.is_paused());
        assert_eq!((pr.matched, pr.next_idx), (3, 4));
    }

    #[test]
    fn replicate_streams_until_the_window_is_full() {
        let mut pr = progress(ProgressState::Probe, 5, 6);
        pr.become_replicate();
        assert_eq!(pr.next_idx, 6);
        for i in 0..4 {
            assert!(!pr.is_paused(), "message {i}");
            pr.sent_entries(2);
        }
        assert_eq!(pr.next_idx, 14);
        assert!(pr.is_paused());
        assert!(pr.maybe_update(9));
        pr.inflights.free_le(9);
        assert_eq!(pr.inflights.count(), 2);
        assert!(!pr.is_paused());
    }

    #[test]
    fn snapshot_pauses_and_probe_resumes_after_it() {
        let mut pr = progress(ProgressState::Replicate, 3, 10);
        pr.become_snapshot(20);
        assert_eq!(pr.state, ProgressState::Snapshot);
        assert!(pr.is_paused());
        assert_eq!((pr.pending_snapshot, pr.next_idx), (20, 21));
        pr.become_probe();
        assert_eq!(pr.state, ProgressState::Probe);
        assert_eq!((pr.pending_snapshot, pr.next_idx), (0, 21));
        // A failed snapshot clears pending_snapshot first: probe from matched.
        pr.become_snapshot(20);
        pr.pending_snapshot = 0;
        pr.become_probe();
        assert_eq!(pr.next_idx, 4);
    }

    #[test]
    fn maybe_update_keeps_match_below_next() {
        let mut pr = progress(ProgressState::Probe, 2, 3);
        assert!(!pr.maybe_update(2));
        assert!(!pr.maybe_update(1));
        assert!(pr.maybe_update(7));
        assert_eq!((pr.matched, pr.next_idx), (7, 8));
        let mut pr = progress(ProgressState::Replicate, 2, 12);
        assert!(pr.maybe_update(5));
        assert_eq!((pr.matched, pr.next_idx), (5, 12));
    }

    #[test]
    fn maybe_decr_to_in_replicate_ignores_stale_rejections() {
        let mut pr = progress(ProgressState::Replicate, 5, 10);
        assert!(!pr.maybe_decr_to(5, 5));
        assert!(!pr.maybe_decr_to(4, 4));
        assert!(pr.maybe_decr_to(9, 9));
        assert_eq!(pr.next_idx, 6);
    }

    #[test]
    fn maybe_decr_to_in_probe_uses_the_hint() {
        let mut pr = progress(ProgressState::Probe, 0, 10);
        // Not the answer to the latest probe (which was at 9): stale.
        assert!(!pr.maybe_decr_to(5, 2));
        assert_eq!(pr.next_idx, 10);
        pr.probe_sent = true;
        assert!(pr.maybe_decr_to(9, 2));
        assert_eq!(pr.next_idx, 3);
        assert!(!pr.probe_sent, "a rejection unpauses the probe");
        // The hint can't take next below match + 1, nor above the rejected index.
        let mut pr = progress(ProgressState::Probe, 4, 10);
        assert!(pr.maybe_decr_to(9, 0));
        assert_eq!(pr.next_idx, 5);
        let mut pr = progress(ProgressState::Probe, 0, 10);
        assert!(pr.maybe_decr_to(9, 50));
        assert_eq!(pr.next_idx, 9);
    }

    #[test]
    fn describe_is_compact() {
        let mut pr = progress(ProgressState::Replicate, 5, 6);
        pr.recent_active = true;
        assert_eq!(pr.describe(), "StateReplicate match=5 next=6");
        pr.is_learner = true;
        pr.recent_active = false;
        assert_eq!(
            pr.describe(),
            "StateReplicate match=5 next=6 learner inactive"
        );
        for i in 0..4 {
            pr.sent_entries(1);
            assert_eq!(pr.inflights.count(), i + 1);
        }
        assert_eq!(
            pr.describe(),
            "StateReplicate match=5 next=10 learner paused inactive inflight=4[full]"
        );
    }
}
