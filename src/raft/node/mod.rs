//! One Raft node (etcd's `raft.go`, driven as its `rawnode.go`): roles,
//! elections, replication, commit, configuration changes, leadership
//! transfer and ReadIndex. It only orchestrates: the arithmetic lives in
//! `quorum`, the per-peer bookkeeping in `progress`/`tracker`, membership in
//! `confchange`, the log in `log`.
//!
//! This file holds the node's state, its roles and elections and its
//! timers; the rest follows etcd's raft.go by topic: `rawnode.rs` (what the
//! caller drives), `step.rs` (Step, candidates, followers), `leader.rs`
//! (stepLeader), `replication.rs` (appends, heartbeats, snapshots),
//! `read_index.rs` (ReadIndex) and `conf_change.rs` (applying changes).
//!
//! The caller drives it as etcd's RawNode in its synchronous mode: after a
//! step it persists `storage()`, applies `committed_entries()`, sends
//! `take_messages()`, then calls `advance()`. A node's own acknowledgements
//! (its vote for itself, a leader's ack of what it appended) count only in
//! `advance()`, once what they vouch for is durable, as etcd's
//! `msgsAfterAppend` do.

use std::ops::Bound::{Excluded, Unbounded};
use std::rc::Rc;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg32;

use crate::collections::heap::Meter;
use crate::raft::confchange::{self, Changer, ConfChangeError};
use crate::raft::events::{ProposeError, RaftEvent, StepError};
use crate::raft::log::Entries;
use crate::raft::log::RaftLog;
use crate::raft::progress::ProgressState;
use crate::raft::quorum::VoteResult;
use crate::raft::read_only::{ReadOnly, ReadRequest};
use crate::raft::tracker::{ProgressMap, ProgressTracker, TrackerConfig};
use crate::raft::types::{
    ConfChange, ConfChangeType, ConfChangeV2, ConfState, Entry, EntryData, HardState, Message,
    MessageType, NodeId, Opaque, ReadState, Snapshot, SnapshotMetadata, CAMPAIGN_TRANSFER, NONE,
};

mod conf_change;
mod leader;
mod rawnode;
mod read_index;
mod replication;
mod step;

use conf_change::restore_tracker;

/// Most committed entries handed out by one `committed_entries` call.
const MAX_COMMITTED_BATCH: u64 = 1024;

/// How the leader confirms a linearizable read (etcd's `ReadOnlyOption`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReadOnlyOption {
    /// A heartbeat round confirms that no other leader took over (etcd's
    /// default, and the only one etcd's server uses).
    #[default]
    Safe,
    /// Trust the CheckQuorum lease: answer at once. Safe only with bounded
    /// clock drift; needs CheckQuorum.
    LeaseBased,
}

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
    /// Bytes of committed entries handed out by one `committed_entries`
    /// call (always at least one entry; etcd's MaxCommittedSizePerReady,
    /// which defaults to MaxSizePerMsg).
    pub max_committed_size_per_ready: u64,
    /// A leader removed from (or demoted in) the configuration steps down
    /// when it applies the change (etcd's StepDownOnRemoval; off by
    /// default, so a removed leader keeps leading until it is stopped).
    pub step_down_on_removal: bool,
    /// Accept proposed configuration changes without checking them against
    /// the active configuration (etcd's DisableConfChangeValidation).
    pub disable_conf_change_validation: bool,
    pub read_only: ReadOnlyOption,
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
            max_committed_size_per_ready: 1024 * 1024,
            step_down_on_removal: false,
            disable_conf_change_validation: false,
            read_only: ReadOnlyOption::Safe,
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

impl Storage {
    /// Counts the entries and the snapshot.
    pub fn heap_size(&self, m: &mut Meter) {
        self.snapshot.heap_size(m);
        m.vec(&self.entries);
        for e in &self.entries {
            e.heap_size(m);
        }
    }
}

/// A founding member of a new cluster (etcd's `raft.Peer`): its id and the
/// application's context for it, carried in its bootstrap change.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Peer {
    pub id: NodeId,
    pub context: Opaque,
}

/// [`bootstrap_peers`] with no context for any voter.
pub fn bootstrap_storage(voters: &[NodeId]) -> Storage {
    let peers: Vec<Peer> = voters
        .iter()
        .map(|&id| Peer {
            id,
            context: Opaque::default(),
        })
        .collect();
    bootstrap_peers(&peers)
}

/// The durable state every founding member of a new cluster starts from,
/// as etcd's StartNode writes it: one `AddNode` entry per initial voter at
/// term 1 (indexes 1..=n), all committed, and no snapshot. `Raft::new` then
/// starts with an empty configuration; the caller re-applies the entries
/// (through `committed_entries` and `apply_conf_change`) and the node is a voter.
pub fn bootstrap_peers(peers: &[Peer]) -> Storage {
    let entries: Vec<Entry> = peers
        .iter()
        .enumerate()
        .map(|(i, p)| Entry {
            term: 1,
            index: i as u64 + 1,
            data: EntryData::ConfChange(Rc::new(ConfChange {
                change_type: ConfChangeType::AddNode,
                node_id: p.id,
                request: 0,
                context: p.context.clone(),
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
    max_committed_size_per_ready: u64,
    step_down_on_removal: bool,
    disable_conf_change_validation: bool,
    read_only_option: ReadOnlyOption,

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

    /// Messages to send now.
    msgs: Vec<Message>,
    /// Acknowledgements (MsgAppResp, MsgVoteResp, MsgPreVoteResp) that may
    /// only leave once the state they vouch for is durable: sent, or for
    /// the node's own ones stepped, after the caller persisted (etcd's
    /// msgsAfterAppend).
    msgs_after_append: Vec<Message>,
    /// This node's own acknowledgements taken with the last messages,
    /// stepped by `advance` (etcd's RawNode.stepsOnAdvance).
    steps_on_advance: Vec<Message>,
    read_states: Vec<ReadState>,
    events: Vec<RaftEvent>,
    /// A snapshot restored from the leader that the state machine must install.
    restored_snapshot: Option<Snapshot>,
}

impl Raft {
    /// Counts what the node holds: its log and snapshot, the leader's view
    /// of its peers, and the messages and events not yet taken.
    pub fn heap_size(&self, m: &mut Meter) {
        self.log.heap_size(m);
        let t = &self.tracker;
        t.progress.heap_size(m);
        for p in t.progress.values() {
            p.inflights.heap_size(m);
        }
        t.votes.heap_size(m);
        t.config.learners.heap_size(m);
        t.config.learners_next.heap_size(m);
        self.read_only.heap_size(m);
        m.vec(&self.pending_read_index);
        for msgs in [&self.msgs, &self.msgs_after_append, &self.steps_on_advance] {
            m.vec(msgs);
            for msg in msgs {
                msg.heap_size(m);
            }
        }
        m.vec(&self.read_states);
        m.vec(&self.events);
        if let Some(s) = &self.restored_snapshot {
            s.heap_size(m);
        }
    }
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
        let tracker = restore_tracker(&conf_state, config.max_inflight_msgs, log.last_index());
        debug_assert!(
            config.read_only == ReadOnlyOption::Safe || config.check_quorum,
            "lease-based reads need CheckQuorum"
        );
        let mut r = Raft {
            id: config.id,
            election_tick: config.election_tick.max(1),
            heartbeat_tick: config.heartbeat_tick.max(1),
            pre_vote: config.pre_vote,
            check_quorum: config.check_quorum,
            max_size_per_msg: config.max_size_per_msg,
            max_committed_size_per_ready: config.max_committed_size_per_ready,
            step_down_on_removal: config.step_down_on_removal,
            disable_conf_change_validation: config.disable_conf_change_validation,
            read_only_option: config.read_only,
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
            msgs_after_append: Vec::new(),
            steps_on_advance: Vec::new(),
            read_states: Vec::new(),
            events: Vec::new(),
            restored_snapshot: None,
        };
        r.reset(hard_state.term);
        r
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

    /// [`RaftLog::share_chunks`]: one copy of the entries this node's log
    /// holds alike with other logs.
    pub fn share_log_chunks(&mut self, others: &[(u64, std::rc::Rc<Vec<Entry>>)]) {
        self.log.share_chunks(others);
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

    /// Overrides the drawn election timeout until the next reset (etcd's
    /// test hook SetRandomizedElectionTimeout), for tests that need a
    /// follower to campaign after an exact number of ticks.
    pub fn set_randomized_election_timeout(&mut self, ticks: u32) {
        self.randomized_election_timeout = ticks;
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
        // single-server membership change bug). A joint configuration to be
        // left automatically is left once that much is applied.
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
        self.log.range(lo, hi).any(|e| e.data.is_conf_change())
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
        // Learners are never asked: they are not voters. Our own vote
        // counts once it is durable, in `advance`.
        let resp_type = if vote_type == MessageType::PreVote {
            MessageType::PreVoteResp
        } else {
            MessageType::VoteResp
        };
        for id in self.tracker.voter_nodes() {
            if id == self.id {
                self.send(Message::new(resp_type, self.id, id, term));
                continue;
            }
            let mut m = Message::new(vote_type, self.id, id, term);
            m.index = last_index;
            m.log_term = last_term;
            m.context = context;
            self.send(m);
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

    // ----- sending and committing -----

    /// Queues `m` as etcd's raft.send does: acknowledgements wait for the
    /// state they vouch for to be durable; everything but votes and
    /// forwarded proposals and reads carries our term.
    fn send(&mut self, mut m: Message) {
        if m.from == NONE {
            m.from = self.id;
        }
        let keeps_term = matches!(
            m.msg_type,
            MessageType::Vote
                | MessageType::VoteResp
                | MessageType::PreVote
                | MessageType::PreVoteResp
                | MessageType::Prop
                | MessageType::ReadIndex
        );
        if !keeps_term {
            m.term = self.term;
        }
        match m.msg_type {
            MessageType::AppResp | MessageType::VoteResp | MessageType::PreVoteResp => {
                self.msgs_after_append.push(m)
            }
            _ => self.msgs.push(m),
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
}

/// Who a MsgTransferLeader asks leadership to move to. etcd names the
/// transferee in `from` (a follower forwarding the request keeps it there);
/// raftlab's network takes `from` to be the sender, so the transferee
/// travels in `context`, `from` when it is 0.
fn transferee_of(m: &Message) -> NodeId {
    if m.context != NONE {
        m.context
    } else {
        m.from
    }
}
