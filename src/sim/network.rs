//! The simulated network: directed links that can be cut, a latency drawn
//! per message, and a per-node outbound bandwidth with one FIFO queue, so a
//! large catch-up delays the heartbeats queued behind it (the design
//! document's figure 1).

use std::collections::{BTreeMap, BTreeSet};

use crate::raft::{Message, NodeId};

/// A message on its way. Times in milliseconds of simulated time.
#[derive(Debug, Clone, PartialEq)]
pub struct InFlight {
    pub id: u64,
    pub msg: Message,
    /// Bytes on the wire.
    pub size: u64,
    /// When the sender handed it to the network.
    pub sent_ms: u64,
    /// When its first byte left the sender (after the queue ahead of it).
    pub departs_ms: u64,
    /// When its last byte left the sender: the sender's queue is busy until then.
    pub sent_out_ms: u64,
    /// When it reaches the receiver.
    pub arrives_ms: u64,
}

#[derive(Debug, Clone, Default)]
pub struct Network {
    /// Directed links that are cut: (from, to).
    cut: BTreeSet<(NodeId, NodeId)>,
    /// When each directed link last changed state (cut or healed).
    changed_at: BTreeMap<(NodeId, NodeId), u64>,
    /// Messages in flight by id; ids grow, so iteration follows send order.
    /// Boxed: a message is large, and the map moves its values around.
    in_flight: BTreeMap<u64, Box<InFlight>>,
    /// When each node's outbound queue is next free.
    free_at: BTreeMap<NodeId, u64>,
    next_id: u64,
}

impl Network {
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

    /// Cuts one direction. Returns the messages lost on it, and whether the
    /// link was up before.
    pub fn cut(&mut self, from: NodeId, to: NodeId, now: u64) -> (bool, Vec<InFlight>) {
        if !self.cut.insert((from, to)) {
            return (false, Vec::new());
        }
        self.changed_at.insert((from, to), now);
        let lost: Vec<u64> = self
            .in_flight
            .values()
            .filter(|m| m.msg.from == from && m.msg.to == to)
            .map(|m| m.id)
            .collect();
        let lost: Vec<InFlight> = lost
            .into_iter()
            .filter_map(|id| self.in_flight.remove(&id).map(|f| *f))
            .collect();
        if lost.iter().any(|m| m.sent_out_ms > now) {
            // The lost messages no longer hold the sender's queue: it is busy
            // only until the last message still queued has gone out. (Those
            // keep the times they were given.)
            let busy = self
                .in_flight
                .values()
                .filter(|m| m.msg.from == from)
                .map(|m| m.sent_out_ms)
                .max()
                .unwrap_or(now)
                .max(now);
            self.free_at.insert(from, busy);
        }
        (true, lost)
    }

    /// Heals one direction; returns whether it was cut.
    pub fn heal(&mut self, from: NodeId, to: NodeId, now: u64) -> bool {
        let was_cut = self.cut.remove(&(from, to));
        if was_cut {
            self.changed_at.insert((from, to), now);
        }
        was_cut
    }

    /// Queues a message behind everything `from` already sends, and returns
    /// its flight. `latency` is the one-way delay drawn for it.
    pub fn send(
        &mut self,
        msg: Message,
        now: u64,
        latency: u64,
        bandwidth: Option<u64>,
    ) -> &InFlight {
        let size = msg.size();
        let free = self.free_at.get(&msg.from).copied().unwrap_or(0).max(now);
        let transmit = match bandwidth {
            // Whole milliseconds, rounded up: even a heartbeat takes its turn.
            Some(bps) if bps > 0 => (size * 1000).div_ceil(bps),
            _ => 0,
        };
        self.free_at.insert(msg.from, free + transmit);
        let id = self.next_id;
        self.next_id += 1;
        let flight = InFlight {
            id,
            size,
            sent_ms: now,
            departs_ms: free,
            sent_out_ms: free + transmit,
            arrives_ms: free + transmit + latency,
            msg,
        };
        self.in_flight.entry(id).or_insert(Box::new(flight))
    }

    /// Takes a message out of the network when it arrives.
    pub fn take(&mut self, id: u64) -> Option<InFlight> {
        self.in_flight.remove(&id).map(|f| *f)
    }

    pub fn in_flight(&self) -> impl Iterator<Item = &InFlight> {
        self.in_flight.values().map(|f| &**f)
    }

    /// A crashed process loses what it had not yet put on the wire.
    pub fn drop_queued_from(&mut self, node: NodeId, now: u64) -> usize {
        let queued: Vec<u64> = self
            .in_flight
            .values()
            .filter(|m| m.msg.from == node && m.departs_ms > now)
            .map(|m| m.id)
            .collect();
        for id in &queued {
            self.in_flight.remove(id);
        }
        self.free_at.insert(node, now);
        queued.len()
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

    #[test]
    fn a_big_message_delays_the_heartbeat_queued_behind_it() {
        let mut net = Network::default();
        let big = msg(1, 4, 1000); // 64 + 1000 * 24 bytes
        let size = big.size();
        let a = net.send(big, 0, 10, Some(10_000)).arrives_ms;
        assert_eq!(a, size.div_ceil(10) + 10);
        let hb = Message::new(MessageType::Heartbeat, 1, 2, 1);
        let f = net.send(hb, 0, 10, Some(10_000)).clone();
        assert_eq!(f.departs_ms, size.div_ceil(10));
        assert!(f.arrives_ms > a, "the heartbeat waits behind the catch-up");
    }

    #[test]
    fn messages_lost_on_a_cut_link_free_the_senders_queue() {
        let mut net = Network::default();
        // 1 queues a large catch-up to 4, then a heartbeat to 2 behind it.
        let big = net.send(msg(1, 4, 1000), 0, 10, Some(1000)).clone();
        let hb = Message::new(MessageType::Heartbeat, 1, 2, 1);
        let queued = net.send(hb, 0, 10, Some(1000)).clone();
        assert!(queued.departs_ms >= big.sent_out_ms);
        let (_, lost) = net.cut(1, 4, 5);
        assert_eq!(lost.len(), 1);
        // The next message waits only for the heartbeat still queued, not
        // for the catch-up that will never go out.
        let next = net.send(
            Message::new(MessageType::Heartbeat, 1, 3, 1),
            5,
            10,
            Some(1000),
        );
        assert_eq!(next.departs_ms, queued.sent_out_ms);
        net.cut(1, 2, 6);
        let last = net.send(
            Message::new(MessageType::Heartbeat, 1, 3, 1),
            6,
            10,
            Some(1000),
        );
        assert!(last.departs_ms < queued.sent_out_ms + 100);
    }

    #[test]
    fn cutting_a_link_loses_only_its_messages() {
        let mut net = Network::default();
        net.send(msg(1, 2, 1), 0, 10, None);
        net.send(msg(2, 1, 1), 0, 10, None);
        let (changed, lost) = net.cut(1, 2, 5);
        assert!(changed);
        assert_eq!(lost.len(), 1);
        assert_eq!(net.in_flight().count(), 1);
        assert!(net.is_cut(1, 2) && !net.is_cut(2, 1));
        assert!(net.heal(1, 2, 6));
        assert!(!net.heal(1, 2, 7));
        assert_eq!(net.changed_at(1, 2), 6);
    }
}
