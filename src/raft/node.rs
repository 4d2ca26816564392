//! One Raft node (etcd's `raft.go`): roles, elections, replication, commit,
//! configuration changes, leadership transfer and ReadIndex. It only
//! orchestrates: the arithmetic lives in `quorum`, the per-peer bookkeeping
//! in `progress`/`tracker`, membership in `confchange`, the log in `log`.
//!
//! Everything a step changes is durable at once (the world persists
//! `storage()` as etcd persists its WAL before sending), so the self-acks
//! etcd routes through storage callbacks happen inline here.

use std::ops::Bound::{Excluded, Unbounded};
use std::rc::Rc;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg32;

use crate::raft::chunked::Entries;
use crate::raft::confchange;
use crate::raft::events::{ProposeError, RaftEvent};
use crate::raft::kv::KvStore;
use crate::raft::log::RaftLog;
use crate::raft::progress::ProgressState;
use crate::raft::quorum::VoteResult;
use crate::raft::read_only::{ReadOnly, ReadRequest};
use crate::raft::tracker::ProgressTracker;
use crate::raft::types::{
    ConfChange, ConfChangeType, ConfState, Entry, EntryData, HardState, Message, MessageType,
    NodeId, ReadState, Snapshot, SnapshotMetadata, CAMPAIGN_TRANSFER, NONE,
};

/// Most committed entries handed out by one `committed_entries` call.
const MAX_COMMITTED_BATCH: u64 = 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub id: NodeId,
    /// Ticks without hearing from a leader before campaigning (etcd:
    /// election-timeout / heartbeat-interval, 10 by default). The actual
    /// timeout is drawn in [election_tick, 2 * election_tick).
    pub election_tick: u32,
    /// Ticks between a leader's heartbeats (etcd: 1).
    pub heartbeat_tick: u32,
    pub pre_vote: bool,
    pub check_quorum: bool,
    /// In-flight MsgApp window per follower (etcd: 512).
    pub max_inflight_msgs: usize,
    /// Bytes of entries per MsgApp, measured with `Entry::size` (etcd: 1 MiB).
    pub max_size_per_msg: u64,
}

impl Config {
    /// etcd's server defaults: PreVote and CheckQuorum on.
    pub fn new(id: NodeId) -> Config {
        Config {
            id,
            election_tick: 10,
            heartbeat_tick: 1,
            pre_vote: true,
            check_quorum: true,
            max_inflight_msgs: 512,
            max_size_per_msg: 1024 * 1024,
        }
    }
}

/// What survives a crash (etcd's WAL + snapshot files).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Storage {
    pub hard_state: HardState,
    pub snapshot: Snapshot,
    /// Entries after `snapshot.metadata.index`, contiguous.
    pub entries: Vec<Entry>,
}

/// The durable state every founding member of a new cluster starts from,
/// as etcd's StartNode writes it: one `AddNode` entry per initial voter at
/// term 1 (indexes 1..=n), all committed, and no snapshot. `Raft::new` then
/// starts with an empty configuration; the caller re-applies the entries
/// (through `committed_entries` and `apply_conf_change`) and the node is a voter.
pub fn bootstrap_storage(voters: &[NodeId]) -> Storage {
    let entries: Vec<Entry> = voters
        .iter()
        .enumerate()
        .map(|(i, &v)| Entry {
            term: 1,
            index: i as u64 + 1,
            data: EntryData::ConfChange(Rc::new(ConfChange {
                change_type: ConfChangeType::AddNode,
                node_id: v,
                request: 0,
                peer_url: Rc::from(format!("http://n{v}:2380")),
                promote: false,
            })),
        })
        .collect();
    Storage {
        hard_state: HardState {
            term: 1,
            vote: NONE,
            commit: entries.len() as u64,
        },
        snapshot: Snapshot::default(),
        entries,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateRole {
    Follower,
    PreCandidate,
    Candidate,
    Leader,
}

impl StateRole {
    pub fn name(self) -> &'static str {
        match self {
            StateRole::Follower => "follower",
            StateRole::PreCandidate => "pre-candidate",
            StateRole::Candidate => "candidate",
            StateRole::Leader => "leader",
        }
    }
}

/// How an election starts (etcd's CampaignType).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CampaignType {
    /// PreVote first: ask at term + 1 without raising our term.
    PreElection,
    Election,
    /// Started by MsgTimeoutNow: no PreVote, and breaks the vote lease.
    Transfer,
}

#[derive(Clone, Debug)]
pub struct Raft {
    id: NodeId,
    election_tick: u32,
    heartbeat_tick: u32,
    pre_vote: bool,
    check_quorum: bool,
    max_size_per_msg: u64,

    term: u64,
    /// Who we voted for in `term` (NONE: nobody).
    vote: NodeId,
    /// The leader we follow in `term` (NONE: unknown).
    lead: NodeId,
    role: StateRole,

    log: RaftLog,
    tracker: ProgressTracker,

    /// Ticks since the last election timeout reset (followers/candidates:
    /// since hearing from a leader or granting a vote; leader: since the
    /// last CheckQuorum round).
    election_elapsed: u32,
    heartbeat_elapsed: u32,
    /// Drawn in [election_tick, 2 * election_tick) at every reset.
    randomized_election_timeout: u32,
    /// The only randomness in the node, seeded by the world.
    rng: Pcg32,

    /// The peer leadership is being handed to (NONE: no transfer).
    lead_transferee: NodeId,
    /// Leader: index of the latest conf change appended; no new one is
    /// accepted until it is applied.
    pending_conf_index: u64,
    read_only: ReadOnly,
    /// Reads received before this leader committed an entry of its term.
    pending_read_index: Vec<ReadRequest>,

    msgs: Vec<Message>,
    read_states: Vec<ReadState>,
    events: Vec<RaftEvent>,
    /// A snapshot restored from the leader that the state machine must install.
    restored_snapshot: Option<Snapshot>,
}

impl Raft {
    /// Start (or restart after a crash) from durable state. `seed` seeds this
    /// node's election-timeout jitter; it is the node's only randomness.
    ///
    /// The node is a follower at `hard_state.term`, with the configuration of
    /// `snapshot.metadata.conf_state`, applied = the snapshot index and
    /// committed = `hard_state.commit`. On a restart the caller installs
    /// `storage.snapshot.data` itself, then re-applies the committed entries
    /// after it (configuration changes included) via `committed_entries`.
    pub fn new(config: &Config, storage: Storage, seed: u64) -> Raft {
        let Storage {
            hard_state,
            snapshot,
            entries,
        } = storage;
        let conf_state = snapshot.metadata.conf_state.clone();
        let mut log = RaftLog::new(snapshot, entries);
        log.commit_to(hard_state.commit.min(log.last_index()));
        let tracker = confchange::restore(&conf_state, config.max_inflight_msgs, log.last_index());
        let mut r = Raft {
            id: config.id,
            election_tick: config.election_tick.max(1),
            heartbeat_tick: config.heartbeat_tick.max(1),
            pre_vote: config.pre_vote,
            check_quorum: config.check_quorum,
            max_size_per_msg: config.max_size_per_msg,
            term: hard_state.term,
            vote: hard_state.vote,
            lead: NONE,
            role: StateRole::Follower,
            log,
            tracker,
            election_elapsed: 0,
            heartbeat_elapsed: 0,
            randomized_election_timeout: 0,
            rng: Pcg32::seed_from_u64(seed),
            lead_transferee: NONE,
            pending_conf_index: 0,
            read_only: ReadOnly::default(),
            pending_read_index: Vec::new(),
            msgs: Vec::new(),
            read_states: Vec::new(),
            events: Vec::new(),
            restored_snapshot: None,
        };
        r.reset(hard_state.term);
        r
    }

    // ----- the caller's entry points -----

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

    /// Handles one message from the network (or a local one). Stale,
    /// duplicated or unexpected messages are ignored as etcd ignores them.
    pub fn step(&mut self, m: Message) {
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
                self.msgs.push(m);
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
        self.step(m);
    }

    pub fn take_messages(&mut self) -> Vec<Message> {
        std::mem::take(&mut self.msgs)
    }

    pub fn take_read_states(&mut self) -> Vec<ReadState> {
        std::mem::take(&mut self.read_states)
    }

    pub fn take_events(&mut self) -> Vec<RaftEvent> {
        std::mem::take(&mut self.events)
    }

    /// Committed entries not yet applied, in order (at most 1024). Empty
    /// while a restored snapshot waits to be taken and installed.
    pub fn committed_entries(&self) -> Vec<Entry> {
        if self.restored_snapshot.is_some() {
            return Vec::new();
        }
        let lo = self.log.applied + 1;
        let hi = (self.log.committed + 1).min(lo + MAX_COMMITTED_BATCH);
        self.log.slice(lo, hi, u64::MAX).unwrap_or_default()
    }

    /// The state machine applied everything up to `index`.
    pub fn applied_to(&mut self, index: u64) {
        self.log.applied_to(index);
    }

    /// Apply a committed configuration change: it takes effect now. Returns
    /// the new configuration. A change that would leave no voter is refused
    /// (ConfChangeRefused) and the configuration stays as it was. A removed
    /// leader keeps leading (etcd's default, StepDownOnRemoval off).
    pub fn apply_conf_change(&mut self, cc: &ConfChange) -> ConfState {
        let before = self.log.committed;
        if let Err(reason) = confchange::apply(&mut self.tracker, cc, self.log.last_index()) {
            self.events.push(RaftEvent::ConfChangeRefused {
                request: cc.request,
                reason,
            });
            return self.tracker.conf_state();
        }
        let cs = self.tracker.conf_state();
        let member = self.tracker.progress.contains_key(&self.id);
        if self.role != StateRole::Leader || !member || self.is_learner() || cs.voters.is_empty() {
            return cs;
        }
        // The voter set changed: the majority may now be satisfied.
        if self.maybe_commit() {
            self.release_pending_read_index();
            self.bcast_append();
        } else {
            // Probe new peers now rather than at the next heartbeat.
            let mut cur = 0;
            while let Some(id) = self.peer_after(cur) {
                self.maybe_send_append(id, false);
                cur = id;
            }
        }
        if self.lead_transferee != NONE && !self.tracker.voters.contains(&self.lead_transferee) {
            self.abort_leader_transfer_event();
        }
        self.note_commit(before);
        cs
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
    pub fn compact(&mut self, index: u64, data: Rc<KvStore>, keep_entries: u64) {
        let index = index.min(self.log.applied);
        if index <= self.log.snapshot.metadata.index {
            return;
        }
        let Some(term) = self.log.term(index) else {
            return;
        };
        let snapshot = Snapshot {
            metadata: SnapshotMetadata {
                index,
                term,
                conf_state: self.tracker.conf_state(),
            },
            data,
        };
        self.log
            .compact(snapshot, index.saturating_sub(keep_entries));
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

    // ----- observability -----

    pub fn id(&self) -> NodeId {
        self.id
    }
    pub fn role(&self) -> StateRole {
        self.role
    }
    pub fn term(&self) -> u64 {
        self.term
    }
    pub fn vote(&self) -> NodeId {
        self.vote
    }
    pub fn leader_id(&self) -> NodeId {
        self.lead
    }
    pub fn commit(&self) -> u64 {
        self.log.committed
    }
    pub fn applied(&self) -> u64 {
        self.log.applied
    }
    pub fn first_index(&self) -> u64 {
        self.log.first_index()
    }
    pub fn last_index(&self) -> u64 {
        self.log.last_index()
    }
    pub fn last_term(&self) -> u64 {
        self.log.last_term()
    }
    pub fn snapshot_index(&self) -> u64 {
        self.log.snapshot.metadata.index
    }
    pub fn snapshot(&self) -> &Snapshot {
        &self.log.snapshot
    }
    /// The retained log entries, `first_index()..=last_index()` (they may
    /// start before the snapshot index: catch-up entries kept by `compact`).
    pub fn entries(&self) -> &Entries {
        self.log.entries()
    }
    /// Entry `index`, if it is still in the log.
    pub fn entry(&self, index: u64) -> Option<&Entry> {
        self.log.entry(index)
    }
    /// The retained entries with index in `[lo, hi)`.
    pub fn entries_in(&self, lo: u64, hi: u64) -> impl Iterator<Item = &Entry> + '_ {
        self.log.range(lo, hi)
    }
    pub fn term_at(&self, index: u64) -> Option<u64> {
        self.log.term(index)
    }
    pub fn log(&self) -> &RaftLog {
        &self.log
    }
    pub fn conf_state(&self) -> ConfState {
        self.tracker.conf_state()
    }
    pub fn is_learner(&self) -> bool {
        self.tracker
            .progress
            .get(&self.id)
            .is_some_and(|p| p.is_learner)
    }
    /// Whether this node may campaign: a voter in its configuration, with no
    /// restored snapshot waiting to be installed (etcd's promotable).
    pub fn promotable(&self) -> bool {
        self.unpromotable_reason().is_none()
    }
    pub fn election_elapsed(&self) -> u32 {
        self.election_elapsed
    }
    pub fn randomized_election_timeout(&self) -> u32 {
        self.randomized_election_timeout
    }
    pub fn heartbeat_elapsed(&self) -> u32 {
        self.heartbeat_elapsed
    }
    pub fn lead_transferee(&self) -> Option<NodeId> {
        (self.lead_transferee != NONE).then_some(self.lead_transferee)
    }
    pub fn pending_conf_index(&self) -> u64 {
        self.pending_conf_index
    }
    /// Progress is meaningful on the leader only.
    pub fn tracker(&self) -> &ProgressTracker {
        &self.tracker
    }
    pub fn hard_state(&self) -> HardState {
        HardState {
            term: self.term,
            vote: self.vote,
            commit: self.log.committed,
        }
    }
    /// Reads the leader holds until its heartbeat round or first commit confirms them.
    pub fn pending_reads(&self) -> usize {
        self.read_only.pending() + self.pending_read_index.len()
    }

    /// One line, like etcd's raft status: "2 leader term=3 commit=7 applied=7 last=7".
    pub fn describe(&self) -> String {
        format!(
            "{} {} term={} vote={} lead={} commit={} applied={} last={}",
            self.id,
            self.role.name(),
            self.term,
            self.vote,
            self.lead,
            self.log.committed,
            self.log.applied,
            self.log.last_index()
        )
    }

    // ----- role transitions (the paper's Figure 2 "Rules for Servers") -----

    /// Back to a clean slate for `term` (etcd's reset): a new term forgets
    /// the vote; timers restart; every peer's progress starts over.
    fn reset(&mut self, term: u64) {
        if self.term != term {
            self.term = term;
            self.vote = NONE;
        }
        self.lead = NONE;
        self.election_elapsed = 0;
        self.heartbeat_elapsed = 0;
        self.reset_randomized_election_timeout();
        self.lead_transferee = NONE;
        self.tracker.reset_votes();
        let last = self.log.last_index();
        let cap = self.tracker.max_inflight;
        for (&id, pr) in self.tracker.progress.iter_mut() {
            *pr = crate::raft::progress::Progress::new(last + 1, cap, pr.is_learner);
            if id == self.id {
                pr.matched = last;
            }
        }
        self.pending_conf_index = 0;
        self.read_only = ReadOnly::default();
        self.pending_read_index.clear();
    }

    fn reset_randomized_election_timeout(&mut self) {
        let et = self.election_tick;
        self.randomized_election_timeout = et + self.rng.random_range(0..et);
    }

    fn become_follower(&mut self, term: u64, lead: NodeId) {
        self.reset(term);
        self.lead = lead;
        self.role = StateRole::Follower;
        self.events.push(RaftEvent::BecameFollower {
            term: self.term,
            leader: lead,
        });
    }

    /// PreVote: changes role and forgets the leader, but neither the term,
    /// the vote nor the timers (as etcd's becomePreCandidate).
    fn become_pre_candidate(&mut self) {
        debug_assert!(self.role != StateRole::Leader);
        self.tracker.reset_votes();
        self.lead = NONE;
        self.role = StateRole::PreCandidate;
        self.events
            .push(RaftEvent::BecamePreCandidate { term: self.term });
    }

    fn become_candidate(&mut self) {
        debug_assert!(self.role != StateRole::Leader);
        self.reset(self.term + 1);
        self.vote = self.id;
        self.role = StateRole::Candidate;
        self.events
            .push(RaftEvent::BecameCandidate { term: self.term });
    }

    /// Won: lead, and append an empty entry of the new term so that earlier
    /// entries can commit (the Figure 8 rule only commits current-term entries).
    fn become_leader(&mut self) {
        debug_assert!(self.role != StateRole::Follower);
        let votes = self.tracker.granted_voters();
        self.reset(self.term);
        self.lead = self.id;
        self.role = StateRole::Leader;
        if let Some(pr) = self.tracker.progress.get_mut(&self.id) {
            pr.become_replicate();
            pr.recent_active = true;
        }
        // Whatever is in the log may hold a conf change: refuse new ones
        // until everything we have now is applied (etcd; also the fix to the
        // single-server membership change bug).
        self.pending_conf_index = self.log.last_index();
        self.events.push(RaftEvent::BecameLeader {
            term: self.term,
            votes,
        });
        self.append_entry(vec![Entry {
            term: 0,
            index: 0,
            data: EntryData::Empty,
        }]);
    }

    fn default_campaign(&self) -> CampaignType {
        if self.pre_vote {
            CampaignType::PreElection
        } else {
            CampaignType::Election
        }
    }

    fn unpromotable_reason(&self) -> Option<&'static str> {
        match self.tracker.progress.get(&self.id) {
            None => Some("not in the configuration"),
            Some(pr) if pr.is_learner => Some("learner"),
            Some(_) if self.restored_snapshot.is_some() => Some("pending snapshot"),
            Some(_) => None,
        }
    }

    /// etcd's hup: campaign unless leading, unpromotable, or holding
    /// committed conf changes not yet applied (they may change who votes).
    fn hup(&mut self, kind: CampaignType) {
        if self.role == StateRole::Leader {
            self.events.push(RaftEvent::CampaignIgnored {
                reason: "already leader",
            });
            return;
        }
        if let Some(reason) = self.unpromotable_reason() {
            self.events.push(RaftEvent::CampaignIgnored { reason });
            return;
        }
        if self.has_unapplied_conf_changes() {
            self.events.push(RaftEvent::CampaignIgnored {
                reason: "pending configuration changes to apply",
            });
            return;
        }
        self.run_campaign(kind);
    }

    fn has_unapplied_conf_changes(&self) -> bool {
        let (lo, hi) = (self.log.applied + 1, self.log.committed + 1);
        if lo >= hi {
            return false;
        }
        self.log
            .range(lo, hi)
            .any(|e| matches!(e.data, EntryData::ConfChange(_)))
    }

    /// Become (pre-)candidate and ask every other voter; then count our own vote.
    fn run_campaign(&mut self, kind: CampaignType) {
        let (vote_type, term) = if kind == CampaignType::PreElection {
            self.become_pre_candidate();
            // Pre-votes are asked for the term we would campaign at.
            (MessageType::PreVote, self.term + 1)
        } else {
            self.become_candidate();
            (MessageType::Vote, self.term)
        };
        let (last_index, last_term) = (self.log.last_index(), self.log.last_term());
        let context = if kind == CampaignType::Transfer {
            CAMPAIGN_TRANSFER
        } else {
            0
        };
        // Learners are never asked: they are not in `voters`.
        for &id in &self.tracker.voters {
            if id == self.id {
                continue;
            }
            let mut m = Message::new(vote_type, self.id, id, term);
            m.index = last_index;
            m.log_term = last_term;
            m.context = context;
            self.msgs.push(m);
        }
        if self.tracker.voters.contains(&self.id) {
            self.poll(self.id, true);
        }
    }

    /// Record a vote and act on the tally.
    fn poll(&mut self, from: NodeId, granted: bool) {
        self.tracker.record_vote(from, granted);
        let (_, _, result) = self.tracker.tally_votes();
        match result {
            VoteResult::Won => {
                if self.role == StateRole::PreCandidate {
                    self.run_campaign(CampaignType::Election);
                } else {
                    self.become_leader();
                    self.bcast_append();
                }
            }
            // A pre-candidate's rejections may come at its term + 1: stay at ours.
            VoteResult::Lost => self.become_follower(self.term, NONE),
            VoteResult::Pending => {}
        }
    }

    // ----- timers -----

    fn tick_election(&mut self) {
        self.election_elapsed += 1;
        if self.promotable() && self.election_elapsed >= self.randomized_election_timeout {
            self.election_elapsed = 0;
            self.hup(self.default_campaign());
        }
    }

    fn tick_heartbeat(&mut self) {
        self.heartbeat_elapsed += 1;
        self.election_elapsed += 1;
        if self.election_elapsed >= self.election_tick {
            self.election_elapsed = 0;
            if self.check_quorum {
                self.check_quorum_active();
            }
            // A transfer that did not finish within an election timeout is abandoned.
            if self.role == StateRole::Leader && self.lead_transferee != NONE {
                self.abort_leader_transfer_event();
            }
        }
        if self.role != StateRole::Leader {
            return;
        }
        if self.heartbeat_elapsed >= self.heartbeat_tick {
            self.heartbeat_elapsed = 0;
            self.bcast_heartbeat();
        }
    }

    /// CheckQuorum: step down unless a quorum of voters answered since the
    /// last check; then start a new observation period.
    fn check_quorum_active(&mut self) {
        if !self.tracker.quorum_active() {
            self.events
                .push(RaftEvent::StepDownNoQuorum { term: self.term });
            self.become_follower(self.term, NONE);
        }
        for (&id, pr) in self.tracker.progress.iter_mut() {
            if id != self.id {
                pr.recent_active = false;
            }
        }
    }

    // ----- Step: term rules common to every role, then per role -----

    fn step_inner(&mut self, m: Message) {
        if m.term > self.term {
            if matches!(m.msg_type, MessageType::Vote | MessageType::PreVote) {
                let force = m.context == CAMPAIGN_TRANSFER;
                let in_lease = self.check_quorum
                    && self.lead != NONE
                    && self.election_elapsed < self.election_tick;
                if !force && in_lease {
                    // We heard from a leader less than an election timeout
                    // ago: a disruptive candidate is ignored, term unchanged.
                    self.events.push(RaftEvent::VoteRejected {
                        candidate: m.from,
                        term: m.term,
                        pre_vote: m.msg_type == MessageType::PreVote,
                        reason: "lease",
                    });
                    return;
                }
            }
            match m.msg_type {
                // A pre-vote never changes our term.
                MessageType::PreVote => {}
                // A granted pre-vote comes at our term + 1: we raise our term only
                // once we win. A rejection carries the voter's (higher) term.
                MessageType::PreVoteResp if !m.reject => {}
                MessageType::App | MessageType::Heartbeat | MessageType::Snap => {
                    self.become_follower(m.term, m.from);
                }
                _ => self.become_follower(m.term, NONE),
            }
        } else if m.term < self.term && m.term != 0 {
            if (self.check_quorum || self.pre_vote)
                && matches!(m.msg_type, MessageType::Heartbeat | MessageType::App)
            {
                // A leader of an older term: tell it our term so it steps
                // down. With CheckQuorum/PreVote our higher term could not
                // otherwise reach it (its followers ignore our votes).
                let resp = Message::new(MessageType::AppResp, self.id, m.from, self.term);
                self.msgs.push(resp);
            } else if m.msg_type == MessageType::PreVote {
                // Reject so that an old-term pre-candidate learns our term.
                let mut resp = Message::new(MessageType::PreVoteResp, self.id, m.from, self.term);
                resp.reject = true;
                self.msgs.push(resp);
            }
            // Anything else from an older term is stale: ignored.
            return;
        }

        match m.msg_type {
            MessageType::Hup => self.hup(self.default_campaign()),
            MessageType::Vote | MessageType::PreVote => self.handle_vote_request(m),
            MessageType::Prop => {
                let _ = self.handle_prop(m.entries);
            }
            _ => match self.role {
                StateRole::Leader => self.step_leader(m),
                StateRole::Candidate | StateRole::PreCandidate => self.step_candidate(m),
                StateRole::Follower => self.step_follower(m),
            },
        }
    }

    /// Grant a (pre-)vote to an up-to-date candidate we can vote for. Any
    /// node answers, learners included: a learner may already be a voter in
    /// the candidate's configuration without knowing it yet.
    fn handle_vote_request(&mut self, m: Message) {
        let pre_vote = m.msg_type == MessageType::PreVote;
        let resp_type = if pre_vote {
            MessageType::PreVoteResp
        } else {
            MessageType::VoteResp
        };
        let can_vote = self.vote == m.from
            || (self.vote == NONE && self.lead == NONE)
            || (pre_vote && m.term > self.term);
        let up_to_date = self.log.is_up_to_date(m.index, m.log_term);
        if can_vote && up_to_date {
            // Answer at the request's term, so a pre-candidate (whose own
            // term is lower) does not discard the grant as stale.
            self.msgs
                .push(Message::new(resp_type, self.id, m.from, m.term));
            if !pre_vote {
                self.election_elapsed = 0;
                self.vote = m.from;
            }
            self.events.push(RaftEvent::VoteGranted {
                candidate: m.from,
                term: m.term,
                pre_vote,
            });
        } else {
            let mut resp = Message::new(resp_type, self.id, m.from, self.term);
            resp.reject = true;
            self.msgs.push(resp);
            let reason = if !can_vote && self.vote != NONE {
                "already voted"
            } else if !can_vote {
                "leader known"
            } else {
                "log not up to date"
            };
            self.events.push(RaftEvent::VoteRejected {
                candidate: m.from,
                term: m.term,
                pre_vote,
                reason,
            });
        }
    }

    fn handle_prop(&mut self, entries: Vec<Entry>) -> Result<(), ProposeError> {
        if entries.is_empty() {
            return Ok(());
        }
        let r = match self.role {
            StateRole::Leader => self.leader_append_proposal(entries),
            StateRole::Follower if self.lead != NONE => {
                let mut m = Message::new(MessageType::Prop, self.id, self.lead, 0);
                m.entries = entries;
                self.msgs.push(m);
                Ok(())
            }
            _ => Err(ProposeError::NotLeaderNoLeader),
        };
        if let Err(e) = r {
            self.events
                .push(RaftEvent::ProposalDropped { reason: e.reason() });
        }
        r
    }

    fn leader_append_proposal(&mut self, mut entries: Vec<Entry>) -> Result<(), ProposeError> {
        if !self.tracker.progress.contains_key(&self.id) {
            return Err(ProposeError::NotMember);
        }
        if self.lead_transferee != NONE {
            return Err(ProposeError::TransferInProgress);
        }
        let last = self.log.last_index();
        for (i, e) in entries.iter_mut().enumerate() {
            if let EntryData::ConfChange(cc) = &e.data {
                if self.pending_conf_index > self.log.applied {
                    // One change at a time: it becomes an empty entry.
                    self.events.push(RaftEvent::ConfChangeRefused {
                        request: cc.request,
                        reason: "possible unapplied conf change",
                    });
                    e.data = EntryData::Empty;
                } else {
                    self.pending_conf_index = last + 1 + i as u64;
                }
            }
        }
        self.append_entry(entries);
        self.bcast_append();
        Ok(())
    }

    /// Leader: stamp and append entries, acknowledging them for ourselves.
    fn append_entry(&mut self, mut entries: Vec<Entry>) {
        let last = self.log.last_index();
        for (i, e) in entries.iter_mut().enumerate() {
            e.term = self.term;
            e.index = last + 1 + i as u64;
        }
        let last = self.log.append(entries);
        if let Some(pr) = self.tracker.progress.get_mut(&self.id) {
            pr.maybe_update(last);
        }
        if self.maybe_commit() {
            self.release_pending_read_index();
        }
    }

    fn maybe_commit(&mut self) -> bool {
        let index = self.tracker.committed();
        self.log.maybe_commit(index, self.term)
    }

    fn note_commit(&mut self, before: u64) {
        if self.log.committed > before {
            self.events.push(RaftEvent::Committed {
                index: self.log.committed,
            });
        }
    }

    fn step_leader(&mut self, m: Message) {
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

    fn handle_append_response(&mut self, m: Message) {
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

    fn handle_heartbeat_response(&mut self, m: Message) {
        let last = self.log.last_index();
        let Some(pr) = self.tracker.progress.get_mut(&m.from) else {
            return;
        };
        pr.recent_active = true;
        pr.probe_sent = false;
        if pr.matched < last || pr.state == ProgressState::Probe {
            self.send_append(m.from);
        }
        if m.context == 0 {
            return;
        }
        self.read_only.recv_ack(m.from, m.context);
        for req in self.read_only.maybe_advance(&self.tracker.voters) {
            self.answer_read(req, req.index);
        }
    }

    fn leader_transfer(&mut self, to: NodeId) {
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

    fn abort_leader_transfer_event(&mut self) {
        let to = self.lead_transferee;
        self.lead_transferee = NONE;
        self.events.push(RaftEvent::TransferAborted { to });
    }

    fn send_timeout_now(&mut self, to: NodeId) {
        self.msgs.push(Message::new(
            MessageType::TimeoutNow,
            self.id,
            to,
            self.term,
        ));
    }

    fn step_candidate(&mut self, m: Message) {
        // Only answers to our own kind of election count: a candidate may
        // still receive pre-vote answers from its pre-candidacy.
        let my_resp = if self.role == StateRole::PreCandidate {
            MessageType::PreVoteResp
        } else {
            MessageType::VoteResp
        };
        match m.msg_type {
            // A leader of our term exists (m.term == our term here).
            MessageType::App => {
                self.become_follower(m.term, m.from);
                self.handle_append_entries(m);
            }
            MessageType::Heartbeat => {
                self.become_follower(m.term, m.from);
                self.handle_heartbeat(m);
            }
            MessageType::Snap => {
                self.become_follower(m.term, m.from);
                self.handle_snapshot(m);
            }
            t if t == my_resp => self.poll(m.from, !m.reject),
            MessageType::TimeoutNow => self.events.push(RaftEvent::IgnoredTimeoutNow {
                reason: "not a follower",
            }),
            MessageType::TransferLeader => self.events.push(RaftEvent::TransferIgnored {
                to: transferee_of(&m),
                reason: "no leader",
            }),
            _ => {}
        }
    }

    fn step_follower(&mut self, m: Message) {
        match m.msg_type {
            MessageType::App => {
                self.election_elapsed = 0;
                self.lead = m.from;
                self.handle_append_entries(m);
            }
            MessageType::Heartbeat => {
                self.election_elapsed = 0;
                self.lead = m.from;
                self.handle_heartbeat(m);
            }
            MessageType::Snap => {
                self.election_elapsed = 0;
                self.lead = m.from;
                self.handle_snapshot(m);
            }
            MessageType::TransferLeader => {
                let to = transferee_of(&m);
                if self.lead == NONE {
                    self.events.push(RaftEvent::TransferIgnored {
                        to,
                        reason: "no leader",
                    });
                } else {
                    let mut fwd =
                        Message::new(MessageType::TransferLeader, self.id, self.lead, self.term);
                    fwd.context = to;
                    self.msgs.push(fwd);
                }
            }
            MessageType::TimeoutNow => match self.unpromotable_reason() {
                Some(reason) => self.events.push(RaftEvent::IgnoredTimeoutNow { reason }),
                // A transfer skips PreVote: we know the leader wants us to win.
                None => self.hup(CampaignType::Transfer),
            },
            // Without a leader the read is dropped, as etcd does.
            MessageType::ReadIndex if self.lead != NONE => {
                let mut fwd = Message::new(MessageType::ReadIndex, self.id, self.lead, 0);
                fwd.context = m.context;
                self.msgs.push(fwd);
            }
            MessageType::ReadIndexResp => self.read_states.push(ReadState {
                index: m.index,
                request: m.context,
            }),
            _ => {}
        }
    }

    // ----- follower side of replication -----

    fn handle_append_entries(&mut self, m: Message) {
        let (from, prev_index, prev_term) = (m.from, m.index, m.log_term);
        if prev_index < self.log.committed {
            // Already have (and committed) all of that: say how far we are.
            let mut resp = Message::new(MessageType::AppResp, self.id, from, self.term);
            resp.index = self.log.committed;
            self.msgs.push(resp);
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
        self.msgs.push(resp);
    }

    fn handle_heartbeat(&mut self, m: Message) {
        // The leader never sends a commit beyond what we hold (min(match, commit)).
        self.log.commit_to(m.commit.min(self.log.last_index()));
        let mut resp = Message::new(MessageType::HeartbeatResp, self.id, m.from, self.term);
        resp.context = m.context;
        self.msgs.push(resp);
    }

    fn handle_snapshot(&mut self, m: Message) {
        let from = m.from;
        let snapshot = m.snapshot.unwrap_or_default();
        let mut resp = Message::new(MessageType::AppResp, self.id, from, self.term);
        resp.index = if self.restore(snapshot) {
            self.log.last_index()
        } else {
            self.log.committed
        };
        self.msgs.push(resp);
    }

    /// Install a leader's snapshot: the log is replaced and the configuration
    /// becomes the snapshot's. Returns false if the snapshot is old news.
    fn restore(&mut self, s: Snapshot) -> bool {
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
        self.tracker = confchange::restore(
            &conf_state,
            self.tracker.max_inflight,
            self.log.last_index(),
        );
        self.restored_snapshot = Some(s);
        self.events.push(RaftEvent::SnapshotRestored { index });
        true
    }

    // ----- leader side of replication -----

    /// Peers (every tracked id but ours) in ascending order, one at a time,
    /// so callers can mutate `self` between them without collecting ids.
    fn peer_after(&self, after: NodeId) -> Option<NodeId> {
        self.tracker
            .progress
            .range((Excluded(after), Unbounded))
            .map(|(&id, _)| id)
            .find(|&id| id != self.id)
    }

    /// Send entries (or at least the commit index) to every peer, learners included.
    fn bcast_append(&mut self) {
        let mut cur = 0;
        while let Some(id) = self.peer_after(cur) {
            self.send_append(id);
            cur = id;
        }
    }

    fn bcast_heartbeat(&mut self) {
        let ctx = self.read_only.heartbeat_ctx();
        let mut cur = 0;
        while let Some(id) = self.peer_after(cur) {
            self.send_heartbeat(id, ctx);
            cur = id;
        }
    }

    fn send_heartbeat(&mut self, to: NodeId, ctx: u64) {
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
        self.msgs.push(m);
    }

    fn send_append(&mut self, to: NodeId) {
        self.maybe_send_append(to, true);
    }

    /// Send `to` the entries from its next index, or a snapshot if they are
    /// compacted. With `send_if_empty` false, only a message with entries is
    /// worth sending. Returns whether a message went out.
    fn maybe_send_append(&mut self, to: NodeId, send_if_empty: bool) -> bool {
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
        self.msgs.push(m);
        if let Some(pr) = self.tracker.progress.get_mut(&to) {
            pr.sent_entries(n);
            pr.sent_commit(committed);
        }
        true
    }

    /// Only to a recently active peer: a snapshot is costly, and a silent
    /// peer may be gone.
    fn maybe_send_snapshot(&mut self, to: NodeId) -> bool {
        let sindex = self.log.snapshot.metadata.index;
        let Some(pr) = self.tracker.progress.get_mut(&to) else {
            return false;
        };
        if !pr.recent_active || sindex == 0 {
            return false;
        }
        pr.become_snapshot(sindex);
        let mut m = Message::new(MessageType::Snap, self.id, to, self.term);
        m.snapshot = Some(self.log.snapshot.clone());
        self.msgs.push(m);
        self.events
            .push(RaftEvent::SnapshotSent { to, index: sindex });
        true
    }

    // ----- ReadIndex -----

    fn committed_entry_in_current_term(&self) -> bool {
        self.log.term(self.log.committed) == Some(self.term)
    }

    fn leader_read_index(&mut self, req: ReadRequest) {
        if self.tracker.is_singleton() {
            // The only voter: nobody can have replaced us.
            self.answer_read(req, self.log.committed);
            return;
        }
        if !self.committed_entry_in_current_term() {
            // Our commit index may lag the real one until we commit in our term.
            self.pending_read_index.push(req);
            return;
        }
        self.start_read_round(req);
    }

    /// Record the read at the current commit index and confirm leadership
    /// with a heartbeat round carrying its position.
    fn start_read_round(&mut self, mut req: ReadRequest) {
        req.index = self.log.committed;
        self.read_only.add_request(req);
        let ctx = self.read_only.heartbeat_ctx();
        self.read_only.recv_ack(self.id, ctx);
        self.bcast_heartbeat();
    }

    fn release_pending_read_index(&mut self) {
        if self.pending_read_index.is_empty() || !self.committed_entry_in_current_term() {
            return;
        }
        for req in std::mem::take(&mut self.pending_read_index) {
            self.start_read_round(req);
        }
    }

    fn answer_read(&mut self, req: ReadRequest, index: u64) {
        if req.from == NONE || req.from == self.id {
            self.read_states.push(ReadState {
                index,
                request: req.request,
            });
        } else {
            let mut m = Message::new(MessageType::ReadIndexResp, self.id, req.from, self.term);
            m.index = index;
            m.context = req.request;
            self.msgs.push(m);
        }
    }
}

/// Who a MsgTransferLeader asks leadership to move to. etcd uses `from`, so
/// a follower forwarding the request (which rewrites `from` to itself)
/// makes itself the transferee; raftlab carries the transferee in
/// `context` instead and falls back to `from` when it is 0.
fn transferee_of(m: &Message) -> NodeId {
    if m.context != NONE {
        m.context
    } else {
        m.from
    }
}
