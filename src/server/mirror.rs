//! etcd's mirror maker (`etcdctl make-mirror`): a client process of two
//! clusters that copies one cluster's keys into the other. It follows
//! etcdctl's `makeMirror` (`ctlv3/command/make_mirror_command.go`) over the
//! client's `mirror.Syncer` (`client/v3/mirror/syncer.go`):
//!
//! 1. `SyncBase`: a linearizable Get (of the prefix, or of one key when the
//!    whole key space is mirrored) through the source member fixes the base
//!    revision R; the keys as they were at R are read, and each is put into
//!    the destination, one Put after the other (`dc.Put` in a loop).
//! 2. `SyncUpdates`: a watch of the prefix from R+1 through the source
//!    member; each event is replayed into the destination in revision order,
//!    one request at a time (etcdctl commits a transaction per revision;
//!    every revision here is one key's put or delete).
//!
//! Any error ends the process, as `makeMirror` returns it and etcdctl exits:
//! a destination request that fails (etcd's request timeout included), and
//! a watch response with a compaction revision (`rpctypes.ErrCompacted`).
//!
//! Links: the mirror's links to its two members can be cut like any other.
//! etcd's client waits for a connection before it sends
//! (`WaitForReady(true)`, client `options.go`) and make-mirror's context has
//! no deadline, so while a link is cut requests over it wait, and an answer
//! that arrives meanwhile is read once the link is back. The watch stream
//! breaks when its link is cut (raftlab notices it at once, where etcd's
//! keepalive takes a few seconds); when the link is healed the client's
//! watcher opens it again from the revision after the last one it received
//! (clientv3 `watchGRPCStream.serveSubstream` keeps `nextRev`), which fails with the compaction
//! error if that revision was compacted meanwhile. A member that is not
//! running counts as unreachable too; but a destination member whose
//! process dies under a write fails it (the connection dies with the
//! process: `Cluster::member_crashed`), and the mirror ends there.

use std::rc::Rc;

use crate::collections::vecmap::VecSet;
use crate::raft::NodeId;
use crate::sim::event::MirrorEvent;
use crate::sim::mvcc::{self, EventType, KeyRange};
use std::collections::VecDeque;

use super::cluster::Cluster;
use super::error::{ErrorCode, ErrorDetail, ServerError};
use super::history::MIRROR_CLIENT;
use super::request::{Call, Outcome, RequestId};

/// make-mirror's context has no deadline: its requests wait as long as the
/// server lets them (the server's own request timeout still ends a write).
const NO_DEADLINE_MS: u64 = u64::MAX / 4;

/// What the mirror process is doing (the report's `state`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MirrorState {
    /// The base sync: fixing the base revision, copying the keys at it.
    Syncing,
    /// Relaying the watch's events.
    Watching,
    /// Stopped by `mirror stop`.
    Stopped,
    /// Ended with an error, as etcdctl exits.
    Failed,
}

impl MirrorState {
    pub const ALL: [MirrorState; 4] = [
        MirrorState::Syncing,
        MirrorState::Watching,
        MirrorState::Stopped,
        MirrorState::Failed,
    ];

    /// The state named `s`.
    pub fn from_name(s: &str) -> Option<MirrorState> {
        MirrorState::ALL.into_iter().find(|m| m.as_str() == s)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            MirrorState::Syncing => "syncing",
            MirrorState::Watching => "watching",
            MirrorState::Stopped => "stopped",
            MirrorState::Failed => "failed",
        }
    }
}

/// One write to replay into the destination: a key's new value (`None`: a
/// delete) and the source revision it came from (0 for the base sync).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Relay {
    rev: u64,
    key: Rc<str>,
    value: Option<Rc<str>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Phase {
    /// The Get that fixes the base revision (`SyncBase` with rev 0).
    Revision,
    /// Copying the keys at the base revision.
    Base,
    /// Watching from the base revision on.
    Watch,
    /// Stopped or failed.
    Over,
}

/// A mirror process (`mirror start M from=N to=D [prefix=P]`).
#[derive(Debug, Clone)]
pub struct Mirror {
    pub id: NodeId,
    /// The source member it reads and watches through.
    pub from: NodeId,
    /// The destination member it writes through.
    pub to: NodeId,
    /// The clusters of `from` and `to` (indexes in the fleet).
    pub source: usize,
    pub destination: usize,
    /// The prefix mirrored (`None`: every key).
    pub prefix: Option<String>,
    pub state: MirrorState,
    /// Why it failed.
    pub error: Option<ServerError>,
    /// The base revision, once the first Get fixed it.
    pub base_revision: Option<u64>,
    /// The last source revision whose write the destination took (the base
    /// revision once the base sync is done).
    pub last_relayed: u64,
    /// The last source revision the watch delivered.
    pub last_received: u64,
    /// Keys copied by the base sync.
    pub base_keys: u64,
    /// Writes relayed from the watch.
    pub relayed: u64,
    phase: Phase,
    /// The request in flight and the cluster it went to, with its answer
    /// once it came (read when the link is up).
    in_flight: Option<(usize, RequestId, Option<Relay>)>,
    answer: Option<Outcome>,
    /// The watch open on the source member, and how many of its events
    /// were taken.
    watch: Option<(u64, usize)>,
    /// Every watch it opened on its source member, oldest first.
    pub watches: Vec<u64>,
    /// The writes to relay, oldest first.
    queue: VecDeque<Relay>,
    /// Writes relayed since the last `Relayed` event.
    unreported: u64,
    /// The watch stream broke and has not been opened again yet.
    paused: bool,
    /// Links cut, as (sender, receiver).
    cuts: VecSet<(NodeId, NodeId)>,
    /// Events to narrate.
    pub(crate) events: Vec<MirrorEvent>,
}

impl Mirror {
    pub fn new(
        id: NodeId,
        from: (usize, NodeId),
        to: (usize, NodeId),
        prefix: Option<String>,
    ) -> Mirror {
        Mirror {
            id,
            from: from.1,
            to: to.1,
            source: from.0,
            destination: to.0,
            prefix,
            state: MirrorState::Syncing,
            error: None,
            base_revision: None,
            last_relayed: 0,
            last_received: 0,
            base_keys: 0,
            relayed: 0,
            phase: Phase::Revision,
            in_flight: None,
            answer: None,
            watch: None,
            watches: Vec::new(),
            queue: VecDeque::new(),
            unreported: 0,
            paused: false,
            cuts: VecSet::new(),
            events: vec![MirrorEvent::Started {
                mirror: id,
                from: from.1,
                to: to.1,
            }],
        }
    }

    /// Whether it still runs.
    pub fn is_running(&self) -> bool {
        matches!(self.state, MirrorState::Syncing | MirrorState::Watching)
    }

    /// The watch it has open on the source member, if any.
    pub fn watch_id(&self) -> Option<u64> {
        self.watch.map(|(w, _)| w)
    }

    /// Whether the mirror's link to `peer` is cut in either direction.
    pub fn link_cut(&self, peer: NodeId) -> bool {
        self.cuts.contains(&(self.id, peer)) || self.cuts.contains(&(peer, self.id))
    }

    /// Whether the direction `a` to `b` of one of its links is cut.
    pub fn is_cut(&self, a: NodeId, b: NodeId) -> bool {
        self.cuts.contains(&(a, b))
    }

    /// Cuts (`cut == true`) or heals the direction `a` to `b` of one of its links.
    pub(crate) fn set_link(&mut self, a: NodeId, b: NodeId, cut: bool) {
        if cut {
            self.cuts.insert((a, b));
        } else {
            self.cuts.remove(&(a, b));
        }
    }

    pub(crate) fn heal_all(&mut self) {
        self.cuts = VecSet::new();
    }

    /// `mirror stop`: the process ends; its watch closes.
    pub(crate) fn stop(&mut self, source: &mut Cluster) {
        if let Some((w, _)) = self.watch.take() {
            source.world_mut().close_watch(w);
        }
        self.state = MirrorState::Stopped;
        self.phase = Phase::Over;
        self.events.push(MirrorEvent::Stopped { mirror: self.id });
    }

    fn fail(&mut self, source: &mut Cluster, e: ServerError) {
        if let Some((w, _)) = self.watch.take() {
            source.world_mut().close_watch(w);
        }
        self.events.push(MirrorEvent::Failed {
            mirror: self.id,
            code: e.code.as_str(),
            error: e.code.etcd_text(),
        });
        self.state = MirrorState::Failed;
        self.phase = Phase::Over;
        self.error = Some(e);
    }

    fn reachable(&self, c: &Cluster, peer: NodeId) -> bool {
        !self.link_cut(peer) && c.world().raft(peer).is_some()
    }

    /// Does everything the process can do now; called after every step of
    /// the fleet and every command.
    pub(crate) fn pump(&mut self, source: &mut Cluster, dest: &mut Cluster) {
        // Take a finished request's answer before anything else can: it is
        // read once its link is up.
        if let Some((c, request, _)) = &self.in_flight {
            let cluster = if *c == self.source {
                &mut *source
            } else {
                &mut *dest
            };
            if self.answer.is_none() && !cluster.is_pending(*request) {
                self.answer = Some(cluster.take_outcome(*request));
            }
        }
        for _ in 0..10_000 {
            if !self.is_running() || !self.pump_once(source, dest) {
                break;
            }
        }
    }

    /// One thing done; false when nothing could be.
    fn pump_once(&mut self, source: &mut Cluster, dest: &mut Cluster) -> bool {
        let from_up = self.reachable(source, self.from);
        let to_up = self.reachable(dest, self.to);
        // A broken watch stream (its link cut, its member down) closes.
        if !from_up && self.close_broken_watch(source) {
            return true;
        }
        if let Some((c, _, relay)) = self.in_flight.clone() {
            return self.read_answer(source, c, relay);
        }
        match self.phase {
            Phase::Over => false,
            Phase::Revision => from_up && self.ask_revision(source),
            Phase::Base | Phase::Watch => self.relay_step(source, dest, from_up, to_up),
        }
    }

    /// Closes the watch stream of a source member that cannot be reached;
    /// false when there was none.
    fn close_broken_watch(&mut self, source: &mut Cluster) -> bool {
        let Some((w, _)) = self.watch.take() else {
            return false;
        };
        source.world_mut().close_watch(w);
        self.paused = true;
        self.events.push(MirrorEvent::Paused {
            mirror: self.id,
            peer: self.from,
            revision: self.last_received,
        });
        true
    }

    /// An answer read, once its link is whole: it waits there meanwhile
    /// (taken out only when read, or it would be lost and read later as a
    /// timeout). A member that is down answers all the same: its process's
    /// death broke the connection, which the client learns at once
    /// (`Cluster::member_crashed`).
    fn read_answer(&mut self, source: &mut Cluster, c: usize, relay: Option<Relay>) -> bool {
        let peer = if c == self.source { self.from } else { self.to };
        if self.link_cut(peer) {
            return false;
        }
        let Some(answer) = self.answer.take() else {
            return false;
        };
        self.in_flight = None;
        self.answered(source, answer, relay)
    }

    /// etcd's syncer reads one key to learn the revision: the prefix, or
    /// "foo" for the whole key space.
    fn ask_revision(&mut self, source: &mut Cluster) -> bool {
        let key = self.prefix.clone().unwrap_or_else(|| "foo".to_string());
        match source.begin_get(&key, 0, Some(self.from), false, NO_DEADLINE_MS, false) {
            Ok(Call::Done(read)) => self.base(source, read.revision),
            Ok(Call::Waiting(r)) => self.in_flight = Some((self.source, r, None)),
            Err(e) => self.fail(source, e),
        }
        true
    }

    /// Copying the base and watching: open the watch, take what it saw,
    /// send what is queued; then, once the queue is empty, the base is
    /// synced or the relayed writes are reported.
    fn relay_step(
        &mut self,
        source: &mut Cluster,
        dest: &mut Cluster,
        from_up: bool,
        to_up: bool,
    ) -> bool {
        if self.phase == Phase::Watch && self.watch.is_none() && from_up {
            return self.open_watch(source);
        }
        if self.phase == Phase::Watch && from_up && self.take_watched(source) {
            return true;
        }
        if !self.queue.is_empty() {
            if !to_up {
                return false;
            }
            if let Some(relay) = self.queue.pop_front() {
                self.send(source, dest, relay);
            }
            return true;
        }
        if self.phase == Phase::Base {
            // The base is copied: watch from the revision after it.
            let base = self.base_revision.unwrap_or(0);
            self.last_relayed = base;
            self.last_received = base;
            self.phase = Phase::Watch;
            self.state = MirrorState::Watching;
            self.events.push(MirrorEvent::Synced {
                mirror: self.id,
                revision: base,
                keys: self.base_keys,
            });
            return true;
        }
        if self.unreported > 0 {
            self.events.push(MirrorEvent::Relayed {
                mirror: self.id,
                count: self.unreported,
                revision: self.last_relayed,
            });
            self.unreported = 0;
            return true;
        }
        false
    }

    /// The keys at the base revision `rev`, read on the source member (the
    /// syncer's paged Get `WithRev(rev)`; a read at a fixed revision the
    /// member has applied answers the same on every member, so it is read
    /// at once).
    fn base(&mut self, source: &mut Cluster, rev: u64) {
        self.base_revision = Some(rev);
        let range = KeyRange::Prefix(self.prefix.clone().unwrap_or_default());
        let read = match source.world().node(self.from) {
            Some(n) => n.state.mvcc.range(&range, rev, 0),
            None => {
                let e = ServerError::new(
                    ErrorCode::NotStarted,
                    ErrorDetail::NotRunning { id: self.from },
                );
                self.fail(source, e);
                return;
            }
        };
        match read {
            Ok(r) => {
                for kv in r.kvs {
                    self.queue.push_back(Relay {
                        rev: 0,
                        key: kv.key,
                        value: Some(kv.value),
                    });
                }
                self.phase = Phase::Base;
            }
            Err(e) => self.fail(source, e.into()),
        }
    }

    fn open_watch(&mut self, source: &mut Cluster) -> bool {
        let prefix = self.prefix.clone().unwrap_or_default();
        let from_rev = self.last_received + 1;
        match source.watch(&prefix, true, from_rev, Some(self.from)) {
            Ok(w) => {
                self.watch = Some((w, 0));
                self.watches.push(w);
                if std::mem::take(&mut self.paused) {
                    self.events.push(MirrorEvent::Resumed {
                        mirror: self.id,
                        revision: from_rev,
                    });
                }
            }
            Err(e) => self.fail(source, e),
        }
        true
    }

    /// Takes the watch's new events into the queue; a compaction ends the
    /// process (make-mirror returns `rpctypes.ErrCompacted`).
    fn take_watched(&mut self, source: &mut Cluster) -> bool {
        let Some((w, taken)) = self.watch else {
            return false;
        };
        let Some(nw) = source.world().watch_of(w) else {
            return false;
        };
        if let Some(compact_revision) = nw.canceled {
            let e = ServerError::new(
                ErrorCode::Compacted,
                ErrorDetail::WatchCanceled {
                    watch: w,
                    compact_revision,
                },
            );
            self.fail(source, e);
            return true;
        }
        if nw.events.len() <= taken {
            return false;
        }
        let new: Vec<mvcc::Event> = nw.events[taken..].to_vec();
        self.watch = Some((w, nw.events.len()));
        for ev in new {
            let rev = ev.revision();
            self.last_received = self.last_received.max(rev);
            self.queue.push_back(Relay {
                rev,
                key: ev.kv.key.clone(),
                value: match ev.kind {
                    EventType::Put => Some(ev.kv.value.clone()),
                    EventType::Delete => None,
                },
            });
        }
        true
    }

    /// Sends one write to the destination member.
    fn send(&mut self, source: &mut Cluster, dest: &mut Cluster, relay: Relay) {
        let sent = match &relay.value {
            Some(v) => dest
                .put_as(
                    MIRROR_CLIENT,
                    &relay.key,
                    v,
                    Some(self.to),
                    None,
                    NO_DEADLINE_MS,
                    false,
                )
                .map(Call::Waiting),
            None => dest
                .begin_delete_as(
                    MIRROR_CLIENT,
                    &relay.key,
                    Some(self.to),
                    NO_DEADLINE_MS,
                    false,
                )
                .map(|c| match c {
                    Call::Done(_) => Call::Done(()),
                    Call::Waiting(r) => Call::Waiting(r),
                }),
        };
        match sent {
            Ok(Call::Waiting(r)) => {
                self.in_flight = Some((self.destination, r, Some(relay)));
                // It may have finished already (a one-member cluster).
                if !dest.is_pending(r) {
                    self.answer = Some(dest.take_outcome(r));
                }
            }
            Ok(Call::Done(())) => self.relayed_one(&relay),
            Err(e) => self.fail(source, e),
        }
    }

    fn answered(&mut self, source: &mut Cluster, answer: Outcome, relay: Option<Relay>) -> bool {
        match relay {
            // The Get that fixed the base revision.
            None => match answer.into_read() {
                Ok(read) => self.base(source, read.revision),
                Err(e) => self.fail(source, e),
            },
            Some(relay) => {
                let done = match answer {
                    Outcome::Failed(e) => Err(e),
                    _ => Ok(()),
                };
                match done {
                    Ok(()) => self.relayed_one(&relay),
                    Err(e) => self.fail(source, e),
                }
            }
        }
        true
    }

    fn relayed_one(&mut self, relay: &Relay) {
        if relay.rev == 0 {
            self.base_keys += 1;
        } else {
            self.last_relayed = relay.rev;
            self.relayed += 1;
            self.unreported += 1;
        }
    }

    /// Counts what it owns.
    pub fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        m.vec(&self.events);
        m.vec(&self.watches);
        self.cuts.heap_size(m);
        for r in self.queue.iter() {
            m.shared_str(&r.key);
            if let Some(v) = &r.value {
                m.shared_str(v);
            }
        }
    }
}
