//! The simulated network: directed links that can be cut, a latency drawn
//! per message, a per-node outbound bandwidth, and delivery in order on
//! each connection, as TCP delivers.
//!
//! Two transports (`transport=` on the cluster line):
//! - `shared` (the default): every message from A to B travels one ordered
//!   connection, and each node sends through one FIFO queue, so a large
//!   catch-up delays the heartbeats queued behind it (the design document's
//!   figure 1).
//! - `streams`: etcd's rafthttp. Per peer, MsgApp on one stream, every other
//!   message on another, a snapshot on its own connection; the node's link is
//!   shared fairly between the streams with bytes waiting (`streams.rs`).
//!
//! In both, latency varies from message to message but never reorders a
//! connection: a message arrives no earlier than the one sent before it.

use crate::raft::{Message, NodeId};

use super::streams::{FairLink, Stream};
use super::vecmap::{IdMap, VecMap, VecSet};

mod by_hand;
pub use by_hand::Envelope;

/// How nodes send to each other (the cluster's `transport=` option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Transport {
    /// One ordered connection per peer, one FIFO queue per node.
    #[default]
    Shared,
    /// etcd's per-peer streams, sharing the node's link fairly.
    Streams,
}

/// "Not known yet": a message waiting in a stream queue has no departure
/// or arrival time until its last byte is out.
pub const UNKNOWN_MS: u64 = u64::MAX;

/// How many Raft messages a node has sent and received since the run began
/// (across its restarts): the report's `msgs_out` and `msgs_in`, how a
/// lesson shows the load on a leader.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MessageCounts {
    /// Messages the node's Raft handed to the network, whether or not they
    /// arrived (a cut link or a lost message still cost the sender).
    pub sent: u64,
    /// Messages delivered to the node's Raft.
    pub received: u64,
}

/// A message on its way. Times in milliseconds of simulated time.
#[derive(Debug, Clone, PartialEq)]
pub struct InFlight {
    pub id: u64,
    pub msg: Message,
    /// Bytes on the wire.
    pub size: u64,
    /// The connection it travels on.
    pub stream: Stream,
    /// The one-way delay drawn for it.
    pub latency_ms: u64,
    /// When the sender handed it to the network.
    pub sent_ms: u64,
    /// When its first byte left the sender (after the queue ahead of it);
    /// `UNKNOWN_MS` while it waits in a stream queue.
    pub departs_ms: u64,
    /// When its last byte left the sender; `UNKNOWN_MS` while queued.
    pub sent_out_ms: u64,
    /// When it reaches the receiver; `UNKNOWN_MS` while queued.
    pub arrives_ms: u64,
    /// Which of the sender's processes sent it (its start count): what
    /// becomes of it is told to that process only.
    pub sender_epoch: u64,
}

/// What the world must schedule after a network operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wake {
    /// Message `id` reaches its receiver at `at`.
    Deliver { id: u64, at: u64 },
    /// `node`'s fair link finishes a message at `at` (if `gen` is still current).
    Transmit { node: NodeId, gen: u64, at: u64 },
}

/// The history etcd's transport sees of one pair of peers: a silent cut is
/// noticed only when the stream's read deadline passes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PeerLink {
    /// Since when a direction between the two is cut (`None`: both up).
    pub cut_since: Option<u64>,
    /// When the connection last came back after etcd noticed it down.
    pub back_since: u64,
}

#[derive(Debug, Clone, Default)]
pub struct Network {
    transport: Transport,
    /// Directed links that are cut: (from, to).
    cut: VecSet<(NodeId, NodeId)>,
    /// When each directed link last changed state (cut or healed).
    changed_at: VecMap<(NodeId, NodeId), u64>,
    /// Each pair of peers (lower id first) as etcd's transport sees it.
    peers: VecMap<(NodeId, NodeId), PeerLink>,
    /// Messages in flight by id; ids grow, so iteration follows send order.
    /// Not boxed: a box per message cost an allocation on every send.
    in_flight: IdMap<InFlight>,
    /// `shared`: when each node's outbound queue is next free.
    free_at: VecMap<NodeId, u64>,
    /// `streams` with a bandwidth: each node's fairly shared link.
    links: VecMap<NodeId, FairLink>,
    /// The latest arrival time on each connection, so none overtakes.
    last_arrival: VecMap<(NodeId, NodeId, Stream), u64>,
    next_id: u64,
    wakes: Vec<Wake>,
    /// Messages each node sent and received.
    counts: VecMap<NodeId, MessageCounts>,
    /// Directed links held by hand (`hold A->B`): their messages wait at
    /// the receiver's side until released (`by_hand.rs`).
    held: VecSet<(NodeId, NodeId)>,
}

fn pair(a: NodeId, b: NodeId) -> (NodeId, NodeId) {
    (a.min(b), a.max(b))
}

impl Network {
    /// When `from`'s send queue is free: once the last of its messages
    /// still in flight has gone out (those keep the times they were given),
    /// or now.
    pub(crate) fn queue_busy_until(&self, from: NodeId, now: u64) -> u64 {
        self.in_flight
            .values()
            .filter(|m| m.msg.from == from)
            .map(|m| m.sent_out_ms)
            .max()
            .unwrap_or(now)
            .max(now)
    }

    /// Counts the messages in flight (each with its entries) and the
    /// bookkeeping of links and queues.
    pub fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        self.in_flight.heap_size(m);
        for f in self.in_flight.values() {
            f.msg.heap_size(m);
        }
        self.cut.heap_size(m);
        self.changed_at.heap_size(m);
        self.peers.heap_size(m);
        self.free_at.heap_size(m);
        self.links.heap_size(m);
        for l in self.links.values() {
            l.heap_size(m);
        }
        self.last_arrival.heap_size(m);
        m.vec(&self.wakes);
        self.held.heap_size(m);
    }

    pub fn new(transport: Transport) -> Network {
        Network {
            transport,
            ..Network::default()
        }
    }

    pub fn transport(&self) -> Transport {
        self.transport
    }

    pub fn is_cut(&self, from: NodeId, to: NodeId) -> bool {
        self.cut.contains(&(from, to))
    }

    pub fn cut_links(&self) -> impl Iterator<Item = (NodeId, NodeId)> + '_ {
        self.cut.iter().copied()
    }

    /// When the link last changed state, or 0 if it never did.
    pub fn changed_at(&self, from: NodeId, to: NodeId) -> u64 {
        self.changed_at.get(&(from, to)).copied().unwrap_or(0)
    }

    /// The pair's history as etcd's transport sees it.
    pub fn peer_link(&self, a: NodeId, b: NodeId) -> PeerLink {
        self.peers.get(&pair(a, b)).copied().unwrap_or_default()
    }

    /// What the world must schedule since the last call.
    pub fn take_wakes(&mut self) -> Vec<Wake> {
        std::mem::take(&mut self.wakes)
    }

    /// The next thing the world must schedule, oldest first (no allocation).
    pub fn next_wake(&mut self) -> Option<Wake> {
        if self.wakes.is_empty() {
            return None;
        }
        Some(self.wakes.remove(0))
    }

    /// Cuts one direction. Returns the messages lost on it, and whether the
    /// link was up before.
    pub fn cut(
        &mut self,
        from: NodeId,
        to: NodeId,
        now: u64,
        bandwidth: Option<u64>,
    ) -> (bool, Vec<InFlight>) {
        if !self.cut.insert((from, to)) {
            return (false, Vec::new());
        }
        self.changed_at.insert((from, to), now);
        let peer = self
            .peers
            .get_or_insert_with(pair(from, to), PeerLink::default);
        if peer.cut_since.is_none() {
            peer.cut_since = Some(now);
        }
        let lost = self.lose(from, to, now, bandwidth);
        (true, lost)
    }

    /// Takes out of the network everything `from` has on its way to `to`
    /// (its queues to `to`, and what is on the wire), as when their
    /// connection breaks, and returns it.
    fn lose(
        &mut self,
        from: NodeId,
        to: NodeId,
        now: u64,
        bandwidth: Option<u64>,
    ) -> Vec<InFlight> {
        // Bring the sender's streams up to date, then empty its queues to `to`.
        if let (Some(bps), Some(link)) = (bandwidth, self.links.get_mut(&from)) {
            let done = link.advance(now, bps);
            link.drop_to(to);
            self.departed(done);
            self.reschedule(from, bps);
        }
        let lost: Vec<u64> = self
            .in_flight
            .values()
            .filter(|m| m.msg.from == from && m.msg.to == to)
            .map(|m| m.id)
            .collect();
        let lost: Vec<InFlight> = lost
            .into_iter()
            .filter_map(|id| self.in_flight.remove(&id))
            .collect();
        // Nothing still on the link constrains what is sent after a heal.
        self.last_arrival
            .retain(|(f, t, _), _| !(*f == from && *t == to));
        if self.transport == Transport::Shared
            && lost
                .iter()
                .any(|m| m.sent_out_ms != UNKNOWN_MS && m.sent_out_ms > now)
        {
            // The lost messages no longer hold the sender's queue: it is busy
            // only until the last message still queued has gone out. (Those
            // keep the times they were given.)
            self.free_at.insert(from, self.queue_busy_until(from, now));
        }
        lost
    }

    /// Every message on its way to `node`, from any sender, is lost: `node`
    /// is starting, and whatever was sent to it before went to a process
    /// that is gone (its connections were reset) or that did not run (the
    /// sender could not connect). rafthttp's connections belong to one
    /// process: `streamReader.run` dials the new process anew, and what was
    /// written to the old connection died with it. Returns the messages,
    /// in send order.
    pub fn drop_to(&mut self, node: NodeId, now: u64, bandwidth: Option<u64>) -> Vec<InFlight> {
        let mut senders: Vec<NodeId> = self
            .in_flight
            .values()
            .filter(|m| m.msg.to == node)
            .map(|m| m.msg.from)
            .collect();
        // The module's own sorts, not the standard library's (a sort
        // compiled for each element type is kilobytes of wasm).
        super::vecmap::sort_u64s(&mut senders);
        senders.dedup();
        let mut lost = Vec::new();
        for from in senders {
            lost.extend(self.lose(from, node, now, bandwidth));
        }
        let order = super::vecmap::stable_order(lost.len(), &|a, b| lost[a].id < lost[b].id);
        super::vecmap::reorder(&mut lost, &order);
        // Nothing sent to the new process waits behind what the old one had.
        self.last_arrival.retain(|(_, to, _), _| *to != node);
        lost
    }

    /// Heals one direction; returns whether it was cut. `noticed` says that
    /// etcd's transport saw the connection go down whatever the cut's
    /// length (a process restarted meanwhile); otherwise a cut shorter than
    /// `read_timeout_ms` (rafthttp's ConnReadTimeout) was never noticed.
    pub fn heal(
        &mut self,
        from: NodeId,
        to: NodeId,
        now: u64,
        read_timeout_ms: u64,
        noticed: bool,
    ) -> bool {
        let was_cut = self.cut.remove(&(from, to));
        if !was_cut {
            return false;
        }
        self.changed_at.insert((from, to), now);
        if !self.cut.contains(&(to, from)) {
            let peer = self
                .peers
                .get_or_insert_with(pair(from, to), PeerLink::default);
            if let Some(c) = peer.cut_since.take() {
                if noticed || now >= c.saturating_add(read_timeout_ms) {
                    peer.back_since = now;
                }
            }
        }
        true
    }

    /// Counts a message `from` sent, whatever then becomes of it.
    pub fn count_sent(&mut self, from: NodeId) {
        self.counts
            .get_or_insert_with(from, MessageCounts::default)
            .sent += 1;
    }

    /// Counts a message delivered to `to`.
    pub fn count_received(&mut self, to: NodeId) {
        self.counts
            .get_or_insert_with(to, MessageCounts::default)
            .received += 1;
    }

    /// What `id` has sent and received since the run began.
    pub fn counts(&self, id: NodeId) -> MessageCounts {
        self.counts.get(&id).copied().unwrap_or_default()
    }

    /// Hands a message to the network at `now`, with the one-way delay
    /// `latency` drawn for it. Returns its id; `take_wakes` says when it
    /// arrives (or when its stream will have sent it).
    /// Sends `msg` from its sender's process `sender_epoch` (its start
    /// count: what becomes of the message is told to that process only).
    pub fn send(
        &mut self,
        msg: Message,
        sender_epoch: u64,
        now: u64,
        latency: u64,
        bandwidth: Option<u64>,
    ) -> u64 {
        let size = msg.size();
        let (from, to) = (msg.from, msg.to);
        let stream = match self.transport {
            Transport::Shared => Stream::Link,
            Transport::Streams => Stream::pick(&msg),
        };
        let id = self.next_id;
        self.next_id += 1;
        let bps = bandwidth.filter(|&b| b > 0);
        // When it leaves, if that is known now: (first byte, last byte).
        let leaves = match (self.transport, bps) {
            (Transport::Shared, _) => {
                let free = self.free_at.get(&from).copied().unwrap_or(0).max(now);
                // Whole milliseconds, rounded up: even a heartbeat takes its turn.
                let transmit = bps.map_or(0, |b| (size * 1000).div_ceil(b));
                self.free_at.insert(from, free + transmit);
                Some((free, free + transmit))
            }
            (Transport::Streams, None) => Some((now, now)),
            (Transport::Streams, Some(_)) => None,
        };
        let (departs, out, arrives) = match leaves {
            Some((departs, out)) => (departs, out, self.arrival(from, to, stream, out, latency)),
            None => (UNKNOWN_MS, UNKNOWN_MS, UNKNOWN_MS),
        };
        self.in_flight.insert(
            id,
            InFlight {
                id,
                msg,
                size,
                stream,
                latency_ms: latency,
                sent_ms: now,
                departs_ms: departs,
                sent_out_ms: out,
                arrives_ms: arrives,
                sender_epoch,
            },
        );
        match bps.filter(|_| leaves.is_none()) {
            None => self.wakes.push(Wake::Deliver { id, at: arrives }),
            Some(bps) => {
                let link = self.links.get_or_insert_with(from, FairLink::default);
                let done = link.push(to, stream, id, size, now, bps);
                self.departed(done);
                self.reschedule(from, bps);
            }
        }
        id
    }

    /// When a message whose last byte is out at `out` arrives: a latency
    /// later, but never before the one sent before it on its connection.
    fn arrival(&mut self, from: NodeId, to: NodeId, stream: Stream, out: u64, latency: u64) -> u64 {
        let last = self
            .last_arrival
            .get_or_insert_with((from, to, stream), || 0);
        let arrives = out.saturating_add(latency).max(*last);
        *last = arrives;
        arrives
    }

    /// The wake-up `gen` of `node`'s fair link fired at `now`.
    pub fn transmit(&mut self, node: NodeId, gen: u64, now: u64, bandwidth: Option<u64>) {
        let Some(bps) = bandwidth.filter(|&b| b > 0) else {
            return;
        };
        let Some(link) = self.links.get_mut(&node) else {
            return;
        };
        if !link.fired(gen) {
            return;
        }
        let done = link.advance(now, bps);
        self.departed(done);
        self.reschedule(node, bps);
    }

    /// The bandwidth changes at `now` from `old` to `new`. Messages queued
    /// in a shared FIFO keep the times they were given; stream queues go on
    /// at the new rate (all at once if it is unlimited).
    pub fn set_bandwidth(&mut self, now: u64, old: Option<u64>, new: Option<u64>) {
        let nodes: Vec<NodeId> = self.links.keys().copied().collect();
        for node in nodes {
            if let (Some(bps), Some(link)) = (old.filter(|&b| b > 0), self.links.get_mut(&node)) {
                let done = link.advance(now, bps);
                self.departed(done);
            }
            match new.filter(|&b| b > 0) {
                Some(bps) => self.reschedule(node, bps),
                None => {
                    let Some(link) = self.links.get_mut(&node) else {
                        continue;
                    };
                    let ids = link.clear();
                    link.reschedule(1);
                    for id in ids {
                        self.depart(id, now, now);
                    }
                }
            }
        }
    }

    fn reschedule(&mut self, node: NodeId, bps: u64) {
        if let Some(link) = self.links.get_mut(&node) {
            if let Some((at, gen)) = link.reschedule(bps) {
                self.wakes.push(Wake::Transmit { node, gen, at });
            }
        }
    }

    fn departed(&mut self, done: Vec<(u64, u64)>) {
        for (id, at) in done {
            self.depart(id, at, at);
        }
    }

    /// Message `id`, waiting in a stream, starts leaving at `departs` and
    /// is out at `out`.
    fn depart(&mut self, id: u64, departs: u64, out: u64) {
        let Some((from, to, stream, latency)) = self
            .in_flight
            .get(&id)
            .map(|f| (f.msg.from, f.msg.to, f.stream, f.latency_ms))
        else {
            return;
        };
        let arrives = self.arrival(from, to, stream, out, latency);
        if let Some(f) = self.in_flight.get_mut(&id) {
            f.departs_ms = departs;
            f.sent_out_ms = out;
            f.arrives_ms = arrives;
        }
        self.wakes.push(Wake::Deliver { id, at: arrives });
    }

    /// Message `id`, if it is on its way.
    pub fn in_flight_message(&self, id: u64) -> Option<&InFlight> {
        self.in_flight.get(&id)
    }

    /// Takes a message out of the network when it arrives.
    pub fn take(&mut self, id: u64) -> Option<InFlight> {
        self.in_flight.remove(&id)
    }

    pub fn in_flight(&self) -> impl Iterator<Item = &InFlight> {
        self.in_flight.values()
    }

    /// A crashed process loses what it had not yet put on the wire whole
    /// (the receiver of a message cut off half way discards it).
    pub fn drop_queued_from(&mut self, node: NodeId, now: u64, bandwidth: Option<u64>) -> usize {
        let mut queued: Vec<u64> = Vec::new();
        if let Some(link) = self.links.get_mut(&node) {
            if let Some(bps) = bandwidth.filter(|&b| b > 0) {
                let done = link.advance(now, bps);
                let link_ids = link.clear();
                link.reschedule(bps);
                self.departed(done);
                queued.extend(link_ids);
            }
        }
        queued.extend(
            self.in_flight
                .values()
                .filter(|m| {
                    m.msg.from == node && m.sent_out_ms != UNKNOWN_MS && m.sent_out_ms > now
                })
                .map(|m| m.id),
        );
        for id in &queued {
            self.in_flight.remove(id);
        }
        // The process's connections died with it: what it sends once started
        // again goes on new ones, not behind the arrival times of messages
        // that never left (they would hold its first vote requests back for
        // as long as its queue was long).
        self.last_arrival.retain(|(from, _, _), _| *from != node);
        self.free_at.insert(node, now);
        queued.len()
    }

    /// Bytes waiting in `node`'s outgoing queues at `now`, counting what is
    /// left of a message half sent.
    pub fn queued_bytes(&self, node: NodeId, now: u64, bandwidth: Option<u64>) -> u64 {
        match self.transport {
            Transport::Shared => {
                if self.free_at.get(&node).is_none_or(|&t| t <= now) {
                    return 0;
                }
                self.in_flight
                    .values()
                    .filter(|m| m.msg.from == node && m.sent_out_ms > now)
                    .map(|m| {
                        if m.departs_ms >= now {
                            m.size
                        } else {
                            let span = m.sent_out_ms - m.departs_ms;
                            (m.size * (m.sent_out_ms - now)).div_ceil(span.max(1))
                        }
                    })
                    .sum()
            }
            Transport::Streams => match (self.links.get(&node), bandwidth) {
                (Some(link), Some(bps)) => link.queued_bytes(now, bps),
                _ => 0,
            },
        }
    }

    /// How long until every queue has drained, at the present bandwidth.
    pub fn backlog_ms(&self, now: u64, bandwidth: Option<u64>) -> u64 {
        let shared = self
            .free_at
            .values()
            .map(|t| t.saturating_sub(now))
            .max()
            .unwrap_or(0);
        let streams = match bandwidth.filter(|&b| b > 0) {
            Some(bps) => self
                .links
                .keys()
                .map(|&n| (self.queued_bytes(n, now, Some(bps)) * 1000).div_ceil(bps))
                .max()
                .unwrap_or(0),
            None => 0,
        };
        shared.max(streams)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::MessageType;

    fn msg(from: NodeId, to: NodeId, payload: usize) -> Message {
        let mut m = Message::new(MessageType::App, from, to, 1);
        m.entries = (0..payload)
            .map(|i| crate::raft::Entry {
                term: 1,
                index: i as u64 + 1,
                data: crate::raft::EntryData::Empty,
            })
            .collect();
        m
    }

    fn flight(net: &Network, id: u64) -> InFlight {
        net.in_flight().find(|f| f.id == id).unwrap().clone()
    }

    #[test]
    fn a_big_message_delays_the_heartbeat_queued_behind_it() {
        let mut net = Network::default();
        let big = msg(1, 4, 1000); // 64 + 1000 * 24 bytes
        let size = big.size();
        let a = net.send(big, 0, 0, 10, Some(10_000));
        let a = flight(&net, a).arrives_ms;
        assert_eq!(a, size.div_ceil(10) + 10);
        let hb = Message::new(MessageType::Heartbeat, 1, 2, 1);
        let f = net.send(hb, 0, 0, 10, Some(10_000));
        let f = flight(&net, f);
        assert_eq!(f.departs_ms, size.div_ceil(10));
        assert!(f.arrives_ms > a, "the heartbeat waits behind the catch-up");
        assert!(net.queued_bytes(1, 0, Some(10_000)) >= size);
    }

    #[test]
    fn a_restarted_process_is_not_held_behind_what_its_crash_dropped() {
        for transport in [Transport::Shared, Transport::Streams] {
            let mut net = Network::new(transport);
            // Two catch-ups: at t=5 the first is going out, the second
            // waits behind it. Neither is out whole, so the crash loses both.
            net.send(msg(3, 1, 1000), 0, 0, 10, Some(10_000));
            net.send(msg(3, 1, 1000), 0, 0, 10, Some(10_000));
            assert_eq!(net.drop_queued_from(3, 5, Some(10_000)), 2, "{transport:?}");
            assert_eq!(net.in_flight().count(), 0, "{transport:?}");
            // Started again, its first vote request goes out at once, on a
            // new connection: a latency later, not after the dropped ones.
            let vote = Message::new(MessageType::Vote, 3, 1, 2);
            let id = net.send(vote, 0, 5, 10, None);
            let v = flight(&net, id);
            assert_eq!(v.arrives_ms, 15, "{transport:?}");
        }
    }

    #[test]
    fn a_connection_never_reorders_whatever_the_latency() {
        let mut net = Network::default();
        // The first message draws a long delay, the second a short one.
        let a = net.send(msg(1, 2, 1), 0, 0, 50, None);
        let b = net.send(msg(1, 2, 1), 0, 1, 10, None);
        assert_eq!(flight(&net, a).arrives_ms, 50);
        assert_eq!(flight(&net, b).arrives_ms, 50, "b may not overtake a");
        // Another link is not held up.
        let c = net.send(msg(1, 3, 1), 0, 1, 10, None);
        assert_eq!(flight(&net, c).arrives_ms, 11);
    }

    #[test]
    fn streams_order_each_stream_only() {
        let mut net = Network::new(Transport::Streams);
        let app = net.send(msg(1, 2, 1), 0, 0, 50, None);
        let hb = net.send(
            Message::new(MessageType::Heartbeat, 1, 2, 1),
            0,
            1,
            10,
            None,
        );
        let app2 = net.send(msg(1, 2, 1), 0, 1, 10, None);
        assert_eq!(flight(&net, app).arrives_ms, 50);
        // A heartbeat travels its own stream and may arrive first.
        assert_eq!(flight(&net, hb).arrives_ms, 11);
        assert_eq!(flight(&net, app2).arrives_ms, 50);
    }

    #[test]
    fn streams_share_the_senders_bandwidth() {
        let mut net = Network::new(Transport::Streams);
        let big = msg(1, 4, 1000);
        let size = big.size();
        let a = net.send(big, 0, 0, 10, Some(10_000));
        let hb = net.send(
            Message::new(MessageType::Heartbeat, 1, 2, 1),
            0,
            0,
            10,
            Some(10_000),
        );
        // Both wait on the link; nothing is known yet.
        assert_eq!(flight(&net, hb).arrives_ms, UNKNOWN_MS);
        let wakes = net.take_wakes();
        let Some(Wake::Transmit { node: 1, gen, at }) = wakes.last().copied() else {
            panic!("{wakes:?}");
        };
        // The heartbeat has half of 10KB/s: 64 bytes in 13ms, not behind 24KB.
        assert_eq!(at, 13);
        net.transmit(1, gen, at, Some(10_000));
        assert_eq!(flight(&net, hb).arrives_ms, 23);
        assert_eq!(flight(&net, a).arrives_ms, UNKNOWN_MS);
        assert!(net.queued_bytes(1, 13, Some(10_000)) < size);
        assert!(net.backlog_ms(13, Some(10_000)) > 0);
    }

    #[test]
    fn messages_lost_on_a_cut_link_free_the_senders_queue() {
        let mut net = Network::default();
        // 1 queues a large catch-up to 4, then a heartbeat to 2 behind it.
        let big = net.send(msg(1, 4, 1000), 0, 0, 10, Some(1000));
        let big = flight(&net, big);
        let hb = Message::new(MessageType::Heartbeat, 1, 2, 1);
        let queued = net.send(hb, 0, 0, 10, Some(1000));
        let queued = flight(&net, queued);
        assert!(queued.departs_ms >= big.sent_out_ms);
        let (_, lost) = net.cut(1, 4, 5, Some(1000));
        assert_eq!(lost.len(), 1);
        // The next message waits only for the heartbeat still queued, not
        // for the catch-up that will never go out.
        let next = net.send(
            Message::new(MessageType::Heartbeat, 1, 3, 1),
            0,
            5,
            10,
            Some(1000),
        );
        assert_eq!(flight(&net, next).departs_ms, queued.sent_out_ms);
        net.cut(1, 2, 6, Some(1000));
        let last = net.send(
            Message::new(MessageType::Heartbeat, 1, 3, 1),
            0,
            6,
            10,
            Some(1000),
        );
        assert!(flight(&net, last).departs_ms < queued.sent_out_ms + 100);
    }

    #[test]
    fn cutting_a_link_loses_only_its_messages() {
        let mut net = Network::default();
        net.send(msg(1, 2, 1), 0, 0, 10, None);
        net.send(msg(2, 1, 1), 0, 0, 10, None);
        let (changed, lost) = net.cut(1, 2, 5, None);
        assert!(changed);
        assert_eq!(lost.len(), 1);
        assert_eq!(net.in_flight().count(), 1);
        assert!(net.is_cut(1, 2) && !net.is_cut(2, 1));
        assert!(net.heal(1, 2, 6, 5000, false));
        assert!(!net.heal(1, 2, 7, 5000, false));
        assert_eq!(net.changed_at(1, 2), 6);
    }

    #[test]
    fn a_short_cut_goes_unnoticed_a_long_one_does_not() {
        let mut net = Network::default();
        net.cut(1, 2, 1000, None);
        assert_eq!(net.peer_link(2, 1).cut_since, Some(1000));
        net.heal(1, 2, 3000, 5000, false);
        // Healed within the read timeout: the stream never broke.
        assert_eq!(net.peer_link(1, 2), PeerLink::default());
        net.cut(2, 1, 10_000, None);
        net.cut(1, 2, 11_000, None);
        net.heal(2, 1, 20_000, 5000, false);
        assert_eq!(
            net.peer_link(1, 2).cut_since,
            Some(10_000),
            "one way still cut"
        );
        net.heal(1, 2, 21_000, 5000, false);
        assert_eq!(
            net.peer_link(1, 2),
            PeerLink {
                cut_since: None,
                back_since: 21_000
            }
        );
    }
}
