//! The world: nodes, network and simulated time, driven one scheduled action
//! at a time. Every random choice comes from the one seeded generator here,
//! and every collection is ordered, so a run is a function of its inputs.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::rc::Rc;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

use crate::collections::vecmap::{VecMap, VecSet};
use crate::raft::{
    self, ConfChangeType, Entry, EntryData, Message, MessageType, NodeId, ProposeError, Raft,
    Storage,
};
use crate::sim::config::WorldConfig;
use crate::sim::event::{DropReason, Event, EventKind, Served};
use crate::sim::invariants::{Checker, Violation};
use crate::sim::kv::{KvStore, PeerUrls, Request};
use crate::sim::membership;
use crate::sim::mvcc::{self, KeyRange, MvccStore, WatchResponse, Watcher};
use crate::sim::network::{Network, Wake};
use crate::sim::node::{PendingRead, ReadOf, SimNode};

mod by_hand;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Action {
    /// A node's Raft ticker fires (only if the node is still in `epoch`).
    Tick { node: NodeId, epoch: u64 },
    /// A message reaches its receiver.
    Deliver { id: u64 },
    /// A node's fairly shared link finishes a message (`transport=streams`).
    Transmit { node: NodeId, gen: u64 },
    /// A member that applied its own removal stops (etcd's `stopWithDelay`).
    StopRemoved { node: NodeId, epoch: u64 },
}

/// Why a process cannot be started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartError {
    AlreadyRunning,
    Removed,
}

#[derive(Debug, Clone)]
pub struct World {
    cfg: WorldConfig,
    now: u64,
    rng: Pcg64,
    /// Boxed: a node is over a kilobyte, and the map is searched on every
    /// message; boxes keep its ids a few bytes apart.
    nodes: VecMap<NodeId, Box<SimNode>>,
    net: Network,
    queue: BinaryHeap<Reverse<(u64, u64, Action)>>,
    seq: u64,
    events: Vec<Event>,
    checker: Checker,
    deliveries: u64,
    /// When each node last received an answer to its replication from a
    /// peer (MsgAppResp or MsgHeartbeatResp): `(receiver, sender)` to time.
    /// etcd-raft marks a peer `RecentActive` on exactly these
    /// (`stepLeader`); the server's modes read it as "heard from".
    acks: VecMap<(NodeId, NodeId), u64>,
    /// Watches on members' stores, by id (id 1 first).
    watches: Vec<NodeWatch>,
    /// `handle_ready`'s working vectors, empty between calls.
    scratch: Scratch,
    /// Processes up and listening that have not started raft (a new member
    /// talking to its peers first), with the messages that reached each:
    /// its peer port accepts their connections, and it reads them once it
    /// serves, when raft starts.
    listening: VecMap<NodeId, Vec<crate::sim::network::InFlight>>,
    /// Nodes `isolate` cut off, until `heal`: a member that runs for the
    /// first time later is cut off from them too (its host is on the same
    /// network they were cut from).
    isolated: VecSet<NodeId>,
}

/// The vectors `handle_ready` fills and empties on every call, kept so that
/// their memory serves the next call: a Ready for every message delivered
/// would otherwise allocate each of them anew (with the boxes they replaced,
/// about four allocations per delivery; docs/crates.md).
#[derive(Debug, Clone, Default)]
struct Scratch {
    entries: Vec<Entry>,
    messages: Vec<Message>,
    raft_events: Vec<raft::RaftEvent>,
    applied: Vec<EventKind>,
}

/// A watch a client opened on one member's store (etcd's watch stream to
/// that member): the watcher and every event it received so far.
#[derive(Debug, Clone)]
pub struct NodeWatch {
    /// 1 for the first watch of the run, then 2, ...
    pub id: u64,
    pub node: NodeId,
    pub watcher: Watcher,
    /// Everything received, in revision order.
    pub events: Vec<mvcc::Event>,
    /// The compaction revision that cancelled it, if one did.
    pub canceled: Option<u64>,
    /// Stopped by its client (`mirror stop`): it receives nothing more.
    pub closed: bool,
}

impl NodeWatch {
    /// Whether it still receives events.
    pub fn is_active(&self) -> bool {
        self.canceled.is_none() && !self.closed
    }
}

/// A member applying its committed entries to its store (etcd's
/// `applyEntries`: `applyEntryNormal` for requests, `applyConfChange` for
/// membership), each application an event.
struct Applying<'a> {
    id: NodeId,
    max_learners: usize,
    watches: &'a mut Vec<NodeWatch>,
    events: &'a mut Vec<EventKind>,
}

impl Applying<'_> {
    /// Applies entry `e`; true when it removed the member itself.
    fn entry(self, state: &mut KvStore, r: &mut Raft, e: &Entry) -> bool {
        let (id, index) = (self.id, e.index);
        match &e.data {
            EntryData::Empty => {}
            EntryData::Normal(data) => match data.get::<Request>() {
                Some(Request::Put(p)) => {
                    state.apply_put(p);
                    self.events.push(EventKind::PutApplied {
                        node: id,
                        index,
                        request: p.request,
                    });
                }
                Some(Request::Delete(d)) => {
                    let done = state.mvcc.delete(&d.key);
                    self.events.push(EventKind::DeleteApplied {
                        node: id,
                        index,
                        request: d.request,
                        deleted: done.deleted,
                        revision: done.rev,
                    });
                }
                Some(Request::Compaction(c)) => {
                    // A synced watcher has every write before the
                    // compaction already (etcd's `notify` at each write's
                    // end): it is never cancelled by it.
                    poll_watches(self.watches, id, &state.mvcc, self.events);
                    let refused = state.mvcc.compact(c.rev).err();
                    self.events.push(EventKind::CompactionApplied {
                        node: id,
                        index,
                        request: c.request,
                        rev: c.rev,
                        refused,
                    });
                }
                Some(Request::Publish(member)) => {
                    if let Some(m) = state.members.get_mut(member) {
                        m.started = true;
                        m.published = true;
                    }
                    self.events.push(EventKind::PublishApplied {
                        node: id,
                        member: *member,
                    });
                }
                // Only the server's requests are proposed here.
                None => {}
            },
            EntryData::ConfChange(cc) => {
                let refused = membership::validate(state, cc, self.max_learners).err();
                let mut removed_self = false;
                if refused.is_none() {
                    r.apply_conf_change(cc);
                    membership::apply(state, cc);
                    removed_self = cc.change_type == ConfChangeType::RemoveNode && cc.node_id == id;
                }
                self.events.push(EventKind::ConfChangeApplied {
                    node: id,
                    index,
                    change: (**cc).clone(),
                    refused,
                });
                return removed_self;
            }
            EntryData::ConfChangeV2(cc) => {
                let refused = membership::validate_v2(state, cc, self.max_learners).err();
                let mut removed_self = false;
                if refused.is_none() {
                    // Raft may refuse it too (ConfChangeRefused): then the
                    // member list stays as it is.
                    if let Ok(conf) = r.apply_conf_change_v2(cc) {
                        membership::apply_v2(state, cc, &conf);
                        removed_self = state.removed.contains(&id);
                    }
                }
                self.events.push(EventKind::JointChangeApplied {
                    node: id,
                    index,
                    change: (**cc).clone(),
                    refused,
                });
                return removed_self;
            }
        }
        false
    }
}

/// The reads whose index node `id` has applied, served from its store and
/// taken out of `pending` (index 0: not yet confirmed by the leader).
fn serve_reads(
    pending: &mut Vec<PendingRead>,
    state: &KvStore,
    id: NodeId,
    applied: u64,
) -> Vec<EventKind> {
    let mut served = Vec::new();
    pending.retain(|p| {
        let ready = p.index > 0 && p.index <= applied;
        if ready {
            let read = match &p.of {
                ReadOf::Key { key, rev } => Served::Key {
                    key: key.clone(),
                    rev: *rev,
                    read: state.read(key, *rev),
                },
                ReadOf::Members => Served::Members,
                ReadOf::Downgrade { asker } => Served::Downgrade { asker: *asker },
            };
            served.push(EventKind::ReadServed {
                node: id,
                request: p.request,
                read,
            });
        }
        !ready
    });
    served
}

/// etcd's createMergedSnapshotMessage: the snapshot a leader sends is its
/// applied state at the applied index, not its last compaction (which the
/// raft library handed it); the events that say it was sent say so too.
fn attach_snapshots(
    r: &Raft,
    state: &KvStore,
    messages: &mut [Message],
    events: &mut [raft::RaftEvent],
) {
    for m in messages
        .iter_mut()
        .filter(|m| m.msg_type == MessageType::Snap)
    {
        let index = r.applied();
        let Some(term) = r.term_at(index) else {
            continue;
        };
        m.snapshot = Some(Box::new(raft::Snapshot {
            metadata: raft::SnapshotMetadata {
                index,
                term,
                conf_state: r.conf_state(),
            },
            data: state.snapshot_data(),
        }));
        for e in events.iter_mut() {
            if let raft::RaftEvent::SnapshotSent { to, index: sent } = e {
                if *to == m.to {
                    *sent = index;
                }
            }
        }
    }
}

/// Delivers to every open watch on `id` what its store holds for it
/// (etcd's `notify` for synced watchers, `syncWatchers` for the others),
/// with one event for each response.
fn poll_watches(
    watches: &mut [NodeWatch],
    id: NodeId,
    store: &MvccStore,
    out: &mut Vec<EventKind>,
) {
    for w in watches.iter_mut().filter(|w| w.node == id && w.is_active()) {
        for response in w.watcher.poll_all(store) {
            match response {
                WatchResponse::Events { events, .. } => {
                    let revision = events.last().map_or(0, mvcc::Event::revision);
                    out.push(EventKind::WatchEvents {
                        node: id,
                        watch: w.id,
                        count: events.len() as u64,
                        revision,
                    });
                    w.events.extend(events);
                }
                WatchResponse::Compacted { compact_revision } => {
                    w.canceled = Some(compact_revision);
                    out.push(EventKind::WatchCanceled {
                        node: id,
                        watch: w.id,
                        compact_revision,
                    });
                }
            }
        }
    }
}

impl World {
    /// A new cluster of `voters`, bootstrapped as etcd's `--initial-cluster`
    /// does, every process started at time 0.
    pub fn new(cfg: WorldConfig, voters: &[NodeId]) -> World {
        let net = Network::new(cfg.transport);
        let mut world = World {
            rng: Pcg64::seed_from_u64(cfg.seed),
            now: cfg.start_ms,
            cfg,
            nodes: VecMap::new(),
            net,
            queue: BinaryHeap::new(),
            seq: 0,
            events: Vec::new(),
            checker: Checker::default(),
            deliveries: 0,
            acks: VecMap::default(),
            watches: Vec::new(),
            listening: VecMap::new(),
            isolated: VecSet::new(),
            scratch: Scratch::default(),
        };
        // etcd's StartNode: each founding member's change carries its peer
        // URL, so every member learns the others' as it applies them.
        let peers: Vec<raft::Peer> = voters
            .iter()
            .map(|&id| raft::Peer {
                id,
                context: PeerUrls::founding(id, &membership::default_peer_url(id)),
            })
            .collect();
        let storage = raft::bootstrap_peers(&peers);
        for &id in voters {
            world
                .nodes
                .insert(id, Box::new(SimNode::new(id, storage.clone())));
            // Infallible: the node is new and not removed.
            let _ = world.start(id);
        }
        world
    }

    // ---- reading the world -------------------------------------------------

    pub fn now(&self) -> u64 {
        self.now
    }

    pub fn config(&self) -> &WorldConfig {
        &self.cfg
    }

    pub fn nodes(&self) -> impl Iterator<Item = &SimNode> {
        self.nodes.values().map(|n| &**n)
    }

    pub fn node(&self, id: NodeId) -> Option<&SimNode> {
        self.nodes.get(&id).map(|n| &**n)
    }

    pub fn raft(&self, id: NodeId) -> Option<&Raft> {
        self.nodes.get(&id).and_then(|n| n.raft.as_ref())
    }

    pub fn network(&self) -> &Network {
        &self.net
    }

    pub fn violations(&self) -> &[Violation] {
        self.checker.violations()
    }

    /// Counts what the world holds: every node (log, snapshot, applied
    /// state), the messages in flight, the scheduled actions, the events
    /// not yet taken and the safety checker's records.
    pub fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        self.nodes.heap_size(m);
        for n in self.nodes.values() {
            n.heap_size(m);
        }
        self.net.heap_size(m);
        m.add(self.queue.capacity() * std::mem::size_of::<Reverse<(u64, u64, Action)>>());
        m.vec(&self.events);
        for e in &self.events {
            e.heap_size(m);
        }
        self.checker.heap_size(m);
        m.vec(&self.watches);
        self.listening.heap_size(m);
        self.isolated.heap_size(m);
        for waiting in self.listening.values() {
            m.vec(waiting);
        }
        for w in &self.watches {
            m.vec(&w.events);
        }
    }

    /// Messages delivered to a receiver so far.
    pub fn deliveries(&self) -> u64 {
        self.deliveries
    }

    /// The leader: the running node that leads, with the highest term if
    /// several believe they do (possible with check-quorum off).
    pub fn leader(&self) -> Option<NodeId> {
        self.nodes
            .values()
            .filter_map(|n| n.raft.as_ref())
            .filter(|r| r.role() == raft::StateRole::Leader)
            .max_by_key(|r| (r.term(), Reverse(r.id())))
            .map(|r| r.id())
    }

    /// When node `at` last received an answer to its replication (MsgAppResp
    /// or MsgHeartbeatResp) from `from`, if ever.
    pub fn last_ack(&self, at: NodeId, from: NodeId) -> Option<u64> {
        self.acks.get(&(at, from)).copied()
    }

    /// Drains the events since the last call.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// Whether events wait to be taken.
    pub fn has_events(&self) -> bool {
        !self.events.is_empty()
    }

    /// `take_events` appended to `out`, keeping the world's vector's memory.
    pub fn take_events_into(&mut self, out: &mut Vec<Event>) {
        out.append(&mut self.events);
    }

    /// etcd's view, from `a`'s transport, of its connection to peer `b`
    /// (rafthttp `peerStatus.activeSince`): since when the peer has been
    /// active, or `None` if `a` sees it down. A crashed peer resets the
    /// connection and is seen down at once; a silently cut link is seen down
    /// only once the stream's read deadline passes (ConnReadTimeout), and a
    /// cut healed before that was never noticed at all. A connection comes
    /// up when both processes run and the link is whole.
    pub fn active_since(&self, a: NodeId, b: NodeId) -> Option<u64> {
        let sa = self.nodes.get(&a)?.started_at?;
        let sb = self.nodes.get(&b)?.started_at?;
        if !self.routes(a, b) || !self.routes(b, a) {
            return None;
        }
        let link = self.net.peer_link(a, b);
        if let Some(c) = link.cut_since {
            let noticed = c.saturating_add(self.cfg.conn_read_timeout_ms);
            // Cut before a process (re)started: its stream never came up.
            if self.now >= noticed || sa.max(sb) >= c {
                return None;
            }
        }
        Some(sa.max(sb).max(link.back_since))
    }

    /// Since when `a` and `b` have been able to talk both ways without a
    /// break (both running, both links up); `None` if they cannot now.
    /// What the network is, not what etcd has noticed (see `active_since`).
    pub fn connected_since(&self, a: NodeId, b: NodeId) -> Option<u64> {
        let sa = self.nodes.get(&a)?.started_at?;
        let sb = self.nodes.get(&b)?.started_at?;
        if self.net.is_cut(a, b)
            || self.net.is_cut(b, a)
            || !self.routes(a, b)
            || !self.routes(b, a)
        {
            return None;
        }
        Some(
            sa.max(sb)
                .max(self.net.changed_at(a, b))
                .max(self.net.changed_at(b, a)),
        )
    }

    /// When the next scheduled action happens.
    pub fn next_time(&self) -> Option<u64> {
        self.queue.peek().map(|Reverse((t, _, _))| *t)
    }

    // ---- driving time ------------------------------------------------------

    /// Runs the next scheduled action. Returns false when nothing is scheduled.
    pub fn step(&mut self) -> bool {
        let Some(Reverse((time, _, action))) = self.queue.pop() else {
            return false;
        };
        self.now = self.now.max(time);
        match action {
            Action::Tick { node, epoch } => self.tick(node, epoch, time),
            Action::Deliver { id } => self.deliver(id),
            Action::Transmit { node, gen } => {
                self.net.transmit(node, gen, self.now, self.cfg.bandwidth);
                self.schedule_wakes();
            }
            Action::StopRemoved { node, epoch } => {
                if self.nodes.get(&node).is_some_and(|n| n.epoch == epoch) {
                    self.stop_removed(node, true);
                }
            }
        }
        true
    }

    /// Runs every action up to and including time `t`, then sets the clock to `t`.
    pub fn run_until(&mut self, t: u64) {
        while self.next_time().is_some_and(|next| next <= t) {
            self.step();
        }
        self.now = self.now.max(t);
    }

    /// Moves the clock to `t` without running anything, when nothing is
    /// due before `t` (another cluster of the same run stepped to `t`: every
    /// cluster keeps the one clock).
    pub fn advance_clock(&mut self, t: u64) {
        if self.next_time().is_none_or(|next| next >= t) {
            self.now = self.now.max(t);
        }
    }

    fn schedule(&mut self, at: u64, action: Action) {
        self.seq += 1;
        self.queue.push(Reverse((at, self.seq, action)));
    }

    /// Schedules what the network asked for: arrivals, and the moments a
    /// shared link finishes a message.
    fn schedule_wakes(&mut self) {
        while let Some(wake) = self.net.next_wake() {
            match wake {
                Wake::Deliver { id, at } => self.schedule(at.max(self.now), Action::Deliver { id }),
                Wake::Transmit { node, gen, at } => {
                    self.schedule(at.max(self.now), Action::Transmit { node, gen })
                }
            }
        }
    }

    /// Node `id`'s ticker fires; it was due at `due`. It fires once however
    /// late it is (after a `deliver-next` moved the clock past it), and the
    /// next tick keeps its phase: Go's `time.Ticker`, which etcd's raft
    /// loop reads (`raftNode.start`), holds one tick and drops the ones a
    /// slow reader missed.
    fn tick(&mut self, id: NodeId, epoch: u64, due: u64) {
        let heartbeat = self.cfg.heartbeat_ms.max(1);
        let now = self.now;
        let next = due + heartbeat * (now.saturating_sub(due) / heartbeat + 1);
        let Some(node) = self.nodes.get_mut(&id) else {
            return;
        };
        if node.epoch != epoch {
            return;
        }
        let Some(r) = node.raft.as_mut() else { return };
        r.tick();
        self.schedule(next, Action::Tick { node: id, epoch });
        self.process(id);
    }

    fn deliver(&mut self, msg_id: u64) {
        if self
            .net
            .in_flight_message(msg_id)
            .is_some_and(|f| self.net.is_held_message(f))
        {
            // Held by hand: it waits at the receiver's side (`by_hand.rs`).
            return;
        }
        let Some(flight) = self.net.take(msg_id) else {
            return;
        };
        self.deliver_flight(flight);
    }

    /// Message `flight`, out of the network, reaches its receiver now.
    fn deliver_flight(&mut self, flight: crate::sim::network::InFlight) {
        // A process listening before it starts raft reads it later.
        if let Some(waiting) = self.listening.get_mut(&flight.msg.to) {
            waiting.push(flight);
            return;
        }
        // What became of it is told to the sender's process that sent it
        // alone, if it still runs.
        let epoch = flight.sender_epoch;
        let msg = flight.msg;
        let (from, to) = (msg.from, msg.to);
        let receiver = self.nodes.get(&to);
        if !receiver.is_some_and(|n| n.is_running()) {
            // etcd's transport notices the broken stream and tells Raft.
            self.dropped(from, to, msg.msg_type, DropReason::NodeDown);
            if self.sender_runs(from, epoch) {
                self.report_failure(from, to, msg.msg_type);
            }
            return;
        }
        if receiver.is_some_and(|n| n.state.removed.contains(&from)) {
            // etcd answers a removed member's stream with "removed"; the
            // removed process then stops itself for good.
            self.dropped(from, to, msg.msg_type, DropReason::SenderRemoved);
            self.stop_removed(from, false);
            return;
        }
        self.deliveries += 1;
        self.net.count_received(to);
        if matches!(
            msg.msg_type,
            MessageType::AppResp | MessageType::HeartbeatResp
        ) {
            self.acks.insert((to, from), self.now);
        }
        let report_snapshot = msg.msg_type == MessageType::Snap && self.sender_runs(from, epoch);
        if let Some(r) = self.nodes.get_mut(&to).and_then(|n| n.raft.as_mut()) {
            // A response from a peer it does not track is refused, as
            // etcd's RawNode refuses it: it answers nothing it asked.
            let _ = r.step(msg);
        }
        self.process(to);
        if report_snapshot {
            // etcd's snapshot sender reports the transfer finished
            // (ReportSnapshot(SnapshotFinish)). Without it the leader waits
            // in the snapshot state for the follower's answer, and if that
            // answer is lost it waits forever. The sender is a goroutine of
            // the process that sent it (`snapshotSender.send`): a process
            // started since knows nothing of that snapshot.
            if let Some(r) = self.nodes.get_mut(&from).and_then(|n| n.raft.as_mut()) {
                r.report_snapshot(to, true);
                self.process(from);
            }
        }
    }

    // ---- the effects of a step ---------------------------------------------

    /// Handles what node `id` produced, as etcd's server handles a Ready,
    /// then lets the node count its own acknowledgements (etcd's Advance),
    /// which may produce more: until nothing is left.
    fn process(&mut self, id: NodeId) {
        self.drain(id);
        self.maybe_publish(id);
    }

    /// Node `id`'s Ready/Advance cycle until it has nothing more.
    fn drain(&mut self, id: NodeId) {
        loop {
            self.handle_ready(id);
            let Some(r) = self.nodes.get_mut(&id).and_then(|n| n.raft.as_mut()) else {
                return;
            };
            if !r.advance() {
                return;
            }
        }
    }

    /// A started member announces itself (etcd's `publishV3`, which the
    /// server starts with it: raft takes the proposal as soon as a leader
    /// is known) until its announcement is applied, again every election
    /// timeout; even before it has applied its own addition. Checked against etcd 3.4.23 and 3.5.1: a member started
    /// lists as started within a heartbeat or two; raftlab's waited for its
    /// next tick.
    fn maybe_publish(&mut self, id: NodeId) {
        let (now, election) = (self.now, self.cfg.election_timeout_ms);
        let Some(node) = self.nodes.get_mut(&id) else {
            return;
        };
        let Some(r) = node.raft.as_mut() else { return };
        if r.leader_id() == raft::NONE
            || node.last_publish_ms.is_some_and(|t| now < t + election)
            // Not published in its own view: it may not have applied its
            // own addition yet (etcd's joining member knows itself from
            // the member list its peers gave it at start).
            || node.state.members.get(&id).is_some_and(|m| m.published)
        {
            return;
        }
        node.last_publish_ms = Some(now);
        let _ = r.propose(Request::Publish(id).entry());
        self.drain(id);
    }

    /// Collects everything node `id` produced: installs a restored snapshot,
    /// applies committed entries, serves reads, sends messages, narrates,
    /// checks invariants, and snapshots when the log has grown enough.
    fn handle_ready(&mut self, id: NodeId) {
        let mut scratch = std::mem::take(&mut self.scratch);
        self.handle_ready_with(id, &mut scratch);
        self.scratch = scratch;
    }

    fn handle_ready_with(&mut self, id: NodeId, scratch: &mut Scratch) {
        let now = self.now;
        let max_learners = self.cfg.max_learners;
        let Some(node) = self.nodes.get_mut(&id) else {
            return;
        };
        let Some(r) = node.raft.as_mut() else { return };

        if let Some(snap) = r.take_restored_snapshot() {
            node.state = KvStore::of_snapshot(&snap);
        }

        let applied_events = &mut scratch.applied;
        let mut removed_self = false;
        loop {
            scratch.entries.clear();
            r.committed_entries_into(&mut scratch.entries);
            let Some(last) = scratch.entries.last().map(|e| e.index) else {
                break;
            };
            for e in &scratch.entries {
                self.checker.observe_applied(now, id, e);
                let applying = Applying {
                    id,
                    max_learners,
                    watches: &mut self.watches,
                    events: applied_events,
                };
                removed_self |= applying.entry(&mut node.state, r, e);
            }
            r.applied_to(last);
        }

        for rs in r.take_read_states() {
            if let Some(read) = node
                .pending_reads
                .iter_mut()
                .find(|p| p.request == rs.request)
            {
                read.index = rs.index;
            }
        }
        poll_watches(&mut self.watches, id, &node.state.mvcc, applied_events);
        let applied = r.applied();
        let served = serve_reads(&mut node.pending_reads, &node.state, id, applied);

        r.take_messages_into(&mut scratch.messages);
        r.take_events_into(&mut scratch.raft_events);
        attach_snapshots(
            r,
            &node.state,
            &mut scratch.messages,
            &mut scratch.raft_events,
        );
        self.checker.observe(now, id, r);
        self.checker
            .observe_store(now, id, r.applied(), &node.state.mvcc);
        // Entries come with the step before, records with the applying
        // above: a chunk of either that filled is shared below.
        let filled = r.log().unshared_chunks().next().is_some()
            || node.state.mvcc.backend().unshared_chunks().next().is_some();

        // etcd's triggerSnapshot: once more than snapshot-count entries were
        // applied since the last snapshot; v3.6 also every 100 entries in
        // memory (snapshotIfNeededAndCompactRaftLog, shouldSnapshotToMemory).
        // Either way the raft log is compacted down to catchup-entries.
        let every = self
            .cfg
            .memory_snapshot_count
            .map_or(self.cfg.snapshot_count, |m| m.min(self.cfg.snapshot_count));
        let compacted = applied > r.snapshot_index() + every.max(1);
        if compacted {
            r.compact(
                applied,
                node.state.snapshot_data(),
                self.cfg.catchup_entries,
            );
            applied_events.push(EventKind::Compacted {
                node: id,
                index: applied,
            });
        }
        self.publish_ready(id, scratch, served);
        if removed_self {
            // etcd keeps the process running a moment after it applied its
            // own removal (`stopWithDelay`), then stops it.
            if let Some(epoch) = self.nodes.get(&id).map(|n| n.epoch) {
                let at = now + self.cfg.removed_stop_delay_ms;
                self.schedule(at, Action::StopRemoved { node: id, epoch });
            }
        }
        if compacted {
            self.forget_compacted();
        }
        if filled {
            self.share_chunks(id);
        }
    }

    /// What a ready of node `id` produced, in its order: Raft's events, the
    /// entries applied and the reads served, then the messages sent.
    fn publish_ready(&mut self, id: NodeId, scratch: &mut Scratch, served: Vec<EventKind>) {
        for event in scratch.raft_events.drain(..) {
            self.push(EventKind::Raft { node: id, event });
        }
        for kind in scratch.applied.drain(..).chain(served) {
            self.push(kind);
        }
        for m in scratch.messages.drain(..) {
            self.send(m);
        }
    }

    /// Gives node `id` one copy, with the other members, of the chunks of
    /// log entries and store records that filled since the last call and
    /// that another member holds alike (`Chunked::share`): every member
    /// keeps the same entries at the same indexes and the same records at
    /// the same revisions, and every time-travel checkpoint keeps what each
    /// member held, so sharing them divides that memory by the members.
    /// Called when a chunk filled: once per 256 entries or records.
    fn share_chunks(&mut self, id: NodeId) {
        let Some(node) = self.nodes.get(&id) else {
            return;
        };
        let others = || self.nodes.values().filter(move |n| n.id != id);
        let mut entries = Vec::new();
        if let Some(r) = &node.raft {
            for index in r.log().unshared_chunks() {
                let found = others().find_map(|n| n.raft.as_ref()?.log().chunk_at(index));
                if let Some(chunk) = found {
                    entries.push((index, Rc::clone(chunk)));
                }
            }
        }
        let mut records = Vec::new();
        for rev in node.state.mvcc.backend().unshared_chunks() {
            let found = others().find_map(|n| n.state.mvcc.backend().chunk_at(rev));
            if let Some(chunk) = found {
                records.push((rev, Rc::clone(chunk)));
            }
        }
        let Some(node) = self.nodes.get_mut(&id) else {
            return;
        };
        if let Some(r) = node.raft.as_mut() {
            r.share_log_chunks(&entries);
        }
        node.state.mvcc.share_chunks(&records);
    }

    fn push(&mut self, kind: EventKind) {
        self.events.push(Event {
            time_ms: self.now,
            kind,
        });
    }

    fn dropped(&mut self, from: NodeId, to: NodeId, kind: MessageType, reason: DropReason) {
        self.push(EventKind::MessageDropped {
            from,
            to,
            kind,
            reason,
        });
    }

    /// Whether `from`'s view of `to`'s peer URL reaches `to`'s host.
    fn routes(&self, from: NodeId, to: NodeId) -> bool {
        let Some(sender) = self.nodes.get(&from) else {
            return false;
        };
        match sender.state.members.get(&to) {
            Some(m) => m.host == Some(to),
            // Not a member in the sender's view: it answers whoever wrote to it.
            None => true,
        }
    }

    fn send(&mut self, m: Message) {
        let (from, to, kind) = (m.from, m.to, m.msg_type);
        self.net.count_sent(from);
        let reason = if !self.routes(from, to) {
            Some(DropReason::NoRoute)
        } else if self.net.is_cut(from, to) {
            Some(DropReason::LinkCut)
        } else if self.cfg.loss_ppm > 0 && self.rng.random_range(0..1_000_000) < self.cfg.loss_ppm {
            Some(DropReason::Lost)
        } else {
            None
        };
        if let Some(reason) = reason {
            self.dropped(from, to, kind, reason);
            self.report_failure(from, to, kind);
            return;
        }
        let (lo, hi) = self.cfg.latency_ms;
        let latency = if hi > lo {
            self.rng.random_range(lo..=hi)
        } else {
            lo
        };
        let epoch = self.nodes.get(&from).map_or(0, |n| n.epoch);
        self.net
            .send(m, epoch, self.now, latency, self.cfg.bandwidth);
        self.schedule_wakes();
    }

    /// `report_failure` for a message that was on its way, told only to
    /// the process that sent it: the one that sent it may be gone, and
    /// what rafthttp reports (`peer.send`, the snapshot sender) it reports
    /// to the raft node of its own process.
    fn report_lost(&mut self, f: &crate::sim::network::InFlight) {
        if self.sender_runs(f.msg.from, f.sender_epoch) {
            self.report_failure(f.msg.from, f.msg.to, f.msg.msg_type);
        }
    }

    /// Whether `from`'s process `epoch` (the one that sent a message) still
    /// runs.
    fn sender_runs(&self, from: NodeId, epoch: u64) -> bool {
        self.nodes
            .get(&from)
            .is_some_and(|n| n.is_running() && n.epoch == epoch)
    }

    /// etcd's transport tells Raft when a peer cannot be reached, so the
    /// leader stops pipelining to it and retries a lost snapshot.
    fn report_failure(&mut self, from: NodeId, to: NodeId, kind: MessageType) {
        let Some(r) = self.nodes.get_mut(&from).and_then(|n| n.raft.as_mut()) else {
            return;
        };
        match kind {
            MessageType::App => r.report_unreachable(to),
            MessageType::Snap => r.report_snapshot(to, false),
            _ => return,
        }
        self.process(from);
    }

    /// The checker's memory of entries every log has compacted away is
    /// of no further use: no node can hold or apply them again (a node that
    /// restarts replays from its own snapshot; a new one gets the leader's log
    /// or snapshot). Forgetting them keeps the world, and so each time-travel
    /// checkpoint, small.
    fn forget_compacted(&mut self) {
        let bound = self
            .nodes
            .values()
            .map(|n| match &n.raft {
                Some(r) => r.first_index(),
                None => n.durable.snapshot.metadata.index + 1,
            })
            .min()
            .unwrap_or(0);
        self.checker.forget_below(bound);
    }

    // ---- commands ------------------------------------------------------------

    /// Member `id`'s new process is up and listens on its peer port but
    /// has not started raft (it talks to its peers first): what was sent to
    /// it before is lost (no process listened), what reaches it from now on
    /// waits until [`World::start`].
    pub fn listen(&mut self, id: NodeId) {
        self.cut_from_isolated(id);
        let lost = self.net.drop_to(id, self.now, self.cfg.bandwidth);
        self.lost_at(id, lost);
        self.listening.insert(id, Vec::new());
    }

    /// Member `id`'s listening process stops before it started raft: what
    /// waited for it is lost.
    pub fn stop_listening(&mut self, id: NodeId) {
        let lost = self.listening.remove(&id).unwrap_or_default();
        self.lost_at(id, lost);
    }

    /// Messages that never reach `id`'s process (it is gone, or none
    /// listened when they came): each said lost, and told to its sender.
    fn lost_at(&mut self, id: NodeId, flights: Vec<crate::sim::network::InFlight>) {
        for f in flights {
            self.dropped(f.msg.from, id, f.msg.msg_type, DropReason::NodeDown);
            self.report_lost(&f);
        }
    }

    /// Starts member `id`'s process: from what survived its last crash, or
    /// empty if it never ran (a member just added).
    pub fn start(&mut self, id: NodeId) -> Result<(), StartError> {
        let now = self.now;
        let seed = self.rng.random::<u64>();
        let phase = self.rng.random_range(1..=self.cfg.heartbeat_ms.max(1));
        let raft_cfg = self.raft_config(id);
        if !self.nodes.contains_key(&id) && !self.listening.contains_key(&id) {
            self.cut_from_isolated(id);
        }
        let node = self
            .nodes
            .entry(id)
            .or_insert_with(|| Box::new(SimNode::new(id, Storage::default())));
        if node.removed {
            return Err(StartError::Removed);
        }
        if node.is_running() {
            return Err(StartError::AlreadyRunning);
        }
        let storage = std::mem::take(&mut node.durable);
        node.state = KvStore::of_snapshot(&storage.snapshot);
        node.raft = Some(Raft::new(&raft_cfg, storage, seed));
        node.started_at = Some(now);
        node.epoch += 1;
        node.last_publish_ms = None;
        let epoch = node.epoch;
        self.push(EventKind::Started { node: id });
        // What was sent to the process before this one (or while none ran)
        // never reaches this one: rafthttp's connections die with their
        // process and `streamReader.run` dials the new one anew. Its senders
        // learn it as they would have on arrival (`peer.send`'s
        // `ReportUnreachable`, a snapshot's `ReportSnapshot` failure). A
        // process that listened before it started raft reads what reached
        // it meanwhile, in the order it arrived.
        let waited = self.listening.remove(&id);
        if waited.is_none() {
            let lost = self.net.drop_to(id, now, self.cfg.bandwidth);
            self.lost_at(id, lost);
        }
        self.schedule_wakes();
        self.schedule(now + phase, Action::Tick { node: id, epoch });
        // Re-apply what was committed before the crash.
        self.process(id);
        for f in waited.unwrap_or_default() {
            self.deliver_flight(f);
        }
        Ok(())
    }

    fn raft_config(&self, id: NodeId) -> raft::Config {
        raft::Config {
            id,
            election_tick: self.cfg.election_tick(),
            heartbeat_tick: 1,
            pre_vote: self.cfg.pre_vote,
            check_quorum: self.cfg.check_quorum,
            max_inflight_msgs: self.cfg.max_inflight_msgs,
            max_size_per_msg: self.cfg.max_size_per_msg,
            ..raft::Config::new(id)
        }
    }

    /// Stops `id`'s process. Term, vote, commit, log and snapshot survive;
    /// its applied state, timers and unsent messages are lost. Returns false
    /// if it was not running.
    pub fn crash(&mut self, id: NodeId) -> bool {
        if !self.halt(id) {
            return false;
        }
        self.push(EventKind::Crashed { node: id });
        true
    }

    fn halt(&mut self, id: NodeId) -> bool {
        let now = self.now;
        let Some(node) = self.nodes.get_mut(&id) else {
            return false;
        };
        let Some(r) = node.raft.take() else {
            return false;
        };
        node.durable = r.storage();
        node.started_at = None;
        node.pending_reads.clear();
        node.epoch += 1;
        self.net.drop_queued_from(id, now, self.cfg.bandwidth);
        // What was held for it waited at its side, in connections that
        // died with the process: lost, and told to its senders.
        let lost = self.net.take_held_to(id, now, self.cfg.bandwidth);
        self.lost_at(id, lost);
        self.schedule_wakes();
        true
    }

    fn stop_removed(&mut self, id: NodeId, delayed: bool) {
        if self.halt(id) {
            if let Some(n) = self.nodes.get_mut(&id) {
                n.removed = true;
            }
            self.push(EventKind::StoppedRemoved { node: id, delayed });
        }
    }

    /// Makes `id`'s election timer fire now (etcd raft's MsgHup).
    pub fn campaign(&mut self, id: NodeId) -> bool {
        let Some(r) = self.nodes.get_mut(&id).and_then(|n| n.raft.as_mut()) else {
            return false;
        };
        r.campaign();
        self.process(id);
        true
    }

    /// Asks node `via` to move leadership to `to` (forwarded to the leader).
    pub fn transfer_leader(&mut self, via: NodeId, to: NodeId) -> bool {
        let Some(r) = self.nodes.get_mut(&via).and_then(|n| n.raft.as_mut()) else {
            return false;
        };
        r.transfer_leader(to);
        self.process(via);
        true
    }

    /// Proposes an entry through node `via`.
    pub fn propose(&mut self, via: NodeId, data: EntryData) -> Result<(), ProposeError> {
        let Some(r) = self.nodes.get_mut(&via).and_then(|n| n.raft.as_mut()) else {
            return Err(ProposeError::NotLeaderNoLeader);
        };
        let result = r.propose(data);
        self.process(via);
        result
    }

    /// Starts a linearizable read of `of` through node `via`; a
    /// `ReadServed` event with `request` carries the answer.
    pub fn read_index(
        &mut self,
        via: NodeId,
        request: u64,
        of: &ReadOf,
    ) -> Result<(), ProposeError> {
        let Some(node) = self.nodes.get_mut(&via) else {
            return Err(ProposeError::NotLeaderNoLeader);
        };
        let Some(r) = node.raft.as_mut() else {
            return Err(ProposeError::NotLeaderNoLeader);
        };
        let result = r.read_index(request);
        // Sent again (a retry): the read waits once.
        if result.is_ok() && !node.pending_reads.iter().any(|p| p.request == request) {
            node.pending_reads.push(PendingRead {
                request,
                index: 0,
                of: of.clone(),
            });
        }
        self.process(via);
        result
    }

    /// Whether the leader confirmed read `request` through `via` (a read
    /// index arrived); it then only waits for `via` to apply that far.
    pub fn read_confirmed(&self, via: NodeId, request: u64) -> bool {
        self.nodes.get(&via).is_some_and(|n| {
            n.pending_reads
                .iter()
                .any(|p| p.request == request && p.index > 0)
        })
    }

    /// Node `id` snapshots its applied state and compacts its log now.
    pub fn compact(&mut self, id: NodeId) -> bool {
        let keep = self.cfg.catchup_entries;
        let now = self.now;
        let Some(node) = self.nodes.get_mut(&id) else {
            return false;
        };
        let Some(r) = node.raft.as_mut() else {
            return false;
        };
        let applied = r.applied();
        r.compact(applied, node.state.snapshot_data(), keep);
        self.events.push(Event {
            time_ms: now,
            kind: EventKind::Compacted {
                node: id,
                index: applied,
            },
        });
        true
    }

    /// Cuts the link from `from` to `to`; messages on it are lost.
    pub fn cut(&mut self, from: NodeId, to: NodeId) {
        let (changed, lost) = self.net.cut(from, to, self.now, self.cfg.bandwidth);
        self.schedule_wakes();
        if changed {
            self.push(EventKind::LinkCut { from, to });
        }
        for f in lost {
            self.dropped(from, to, f.msg.msg_type, DropReason::LinkCut);
            self.report_lost(&f);
        }
    }

    pub fn heal(&mut self, from: NodeId, to: NodeId) {
        // A process that (re)started during the cut could not connect: its
        // peers see the connection come up now, however short the cut.
        let cut_since = self.net.peer_link(from, to).cut_since;
        let restarted = cut_since.is_some_and(|c| {
            [from, to].iter().any(|id| {
                self.nodes
                    .get(id)
                    .and_then(|n| n.started_at)
                    .is_none_or(|s| s >= c)
            })
        });
        let timeout = self.cfg.conn_read_timeout_ms;
        if self.net.heal(from, to, self.now, timeout, restarted) {
            self.push(EventKind::LinkHealed { from, to });
        }
    }

    /// Cuts every link between `id` and `others`, both ways, and keeps
    /// `id` cut off from members that run for the first time later.
    pub fn isolate(&mut self, id: NodeId, others: &[NodeId]) {
        self.isolated.insert(id);
        self.cut_both_ways(id, others);
    }

    /// A node about to run for the first time: cut off from the isolated.
    fn cut_from_isolated(&mut self, id: NodeId) {
        let isolated: Vec<NodeId> = self.isolated.iter().copied().filter(|&x| x != id).collect();
        for x in isolated {
            self.cut_both_ways(x, &[id]);
        }
    }

    /// Cuts every link between `id` and `others`, both ways.
    fn cut_both_ways(&mut self, id: NodeId, others: &[NodeId]) {
        for &o in others {
            self.cut(id, o);
            self.cut(o, id);
        }
    }

    pub fn heal_all(&mut self) {
        self.isolated.clear();
        let cut: Vec<_> = self.net.cut_links().collect();
        for (a, b) in cut {
            self.heal(a, b);
        }
    }

    /// Changes the network's fault knobs mid-run (fault injection).
    pub fn set_network(&mut self, latency_ms: (u64, u64), bandwidth: Option<u64>, loss_ppm: u32) {
        self.cfg.latency_ms = latency_ms;
        if bandwidth != self.cfg.bandwidth {
            self.net
                .set_bandwidth(self.now, self.cfg.bandwidth, bandwidth);
            self.cfg.bandwidth = bandwidth;
            self.schedule_wakes();
        }
        self.cfg.loss_ppm = loss_ppm;
    }

    /// Whether a process for `id` exists (running or crashed).
    /// Opens a watch on member `node`'s store for `range` from `start_rev`
    /// (etcd's `watchableStore.watch`; 0: from the next write) and hands it
    /// at once what its store holds for it. `None` if `node` is not running.
    pub fn watch(&mut self, node: NodeId, range: KeyRange, start_rev: u64) -> Option<u64> {
        let store = &self
            .nodes
            .get(&node)
            .filter(|n| n.raft.is_some())?
            .state
            .mvcc;
        let id = self.watches.len() as u64 + 1;
        self.watches.push(NodeWatch {
            id,
            node,
            watcher: Watcher::new(store, range, start_rev),
            events: Vec::new(),
            canceled: None,
            closed: false,
        });
        let mut out = Vec::new();
        poll_watches(&mut self.watches, node, store, &mut out);
        for kind in out {
            self.push(kind);
        }
        Some(id)
    }

    /// Closes watch `id` (its client cancels it): nothing more arrives.
    pub fn close_watch(&mut self, id: u64) {
        if let Some(w) = self.watches.iter_mut().find(|w| w.id == id) {
            w.closed = true;
        }
    }

    /// Every watch opened so far, by id.
    pub fn watches(&self) -> &[NodeWatch] {
        &self.watches
    }

    /// Watch `id`, if it was opened.
    pub fn watch_of(&self, id: u64) -> Option<&NodeWatch> {
        self.watches.get((id as usize).checked_sub(1)?)
    }

    pub fn has_node(&self, id: NodeId) -> bool {
        self.nodes.contains_key(&id)
    }
}
