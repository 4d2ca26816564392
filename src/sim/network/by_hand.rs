//! A hand on single messages, as the network sees it: a held direction
//! (`hold A->B`) keeps every message on it at the receiver's side, neither
//! delivered nor lost, in send order, until `release`; a message can be
//! taken out of the network whatever its state (`drop`, or delivered at
//! once by `release`); and the earliest arrival still to come is known
//! (`deliver-next`). The world (`world/by_hand.rs`) does the rest: it
//! delivers what is released and tells senders what was dropped.
//!
//! A held message is on a held direction, wherever it is: still in its
//! sender's queue, on the wire, or arrived. Its stream goes on sending it
//! (it takes its share of the sender's bandwidth, and a crash of the sender
//! before its last byte is out loses it, as any message); when it arrives it
//! waits. With `transport=streams`, each stream keeps its order: a held
//! MsgApp holds every MsgApp behind it, as its TCP stream would, and the
//! other streams of the direction are held alike.

use crate::raft::{MessageType, NodeId};

use super::{InFlight, Network, Transport, UNKNOWN_MS};

/// What one message carries, as the report's `messages` and the canvas
/// show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Envelope {
    pub id: u64,
    pub from: NodeId,
    pub to: NodeId,
    pub kind: MessageType,
    pub term: u64,
    /// The entry before the first one carried (MsgApp), the candidate's
    /// last index (votes), the index acknowledged (MsgAppResp).
    pub index: u64,
    pub log_term: u64,
    /// How many entries it carries.
    pub entries: u64,
    pub commit: u64,
    pub reject: bool,
    pub bytes: u64,
    pub sent_ms: u64,
    /// When it arrives; `None` while held, or while it waits in a stream
    /// queue and its arrival is not known yet.
    pub arrives_ms: Option<u64>,
    /// It waits on a held direction.
    pub held: bool,
}

impl Envelope {
    pub fn of(f: &InFlight, held: bool) -> Envelope {
        let m = &f.msg;
        Envelope {
            id: f.id,
            from: m.from,
            to: m.to,
            kind: m.msg_type,
            term: m.term,
            index: m.index,
            log_term: m.log_term,
            entries: m.entries.len() as u64,
            commit: m.commit,
            reject: m.reject,
            bytes: f.size,
            sent_ms: f.sent_ms,
            arrives_ms: (!held && f.arrives_ms != UNKNOWN_MS).then_some(f.arrives_ms),
            held,
        }
    }
}

impl Network {
    /// Holds the direction `from` → `to`; returns whether it was not held.
    pub fn hold(&mut self, from: NodeId, to: NodeId) -> bool {
        self.held.insert((from, to))
    }

    /// Ends the hold of a direction (nothing held is left on it): what is
    /// sent on it from now on travels as usual, not behind the arrival
    /// times of what was held. Returns whether it was held.
    pub fn unhold(&mut self, from: NodeId, to: NodeId) -> bool {
        let was = self.held.remove(&(from, to));
        if was {
            self.last_arrival
                .retain(|(f, t, _), _| !(*f == from && *t == to));
        }
        was
    }

    pub fn is_held(&self, from: NodeId, to: NodeId) -> bool {
        self.held.contains(&(from, to))
    }

    /// The held directions, lowest sender first.
    pub fn held_links(&self) -> impl Iterator<Item = (NodeId, NodeId)> + '_ {
        self.held.iter().copied()
    }

    /// Whether message `f` waits on a held direction.
    pub fn is_held_message(&self, f: &InFlight) -> bool {
        !self.held.is_empty() && self.is_held(f.msg.from, f.msg.to)
    }

    /// What message `f` carries, held or not.
    pub fn envelope(&self, f: &InFlight) -> Envelope {
        Envelope::of(f, self.is_held_message(f))
    }

    /// Every message on its way from `from` to `to`, held or not, in send
    /// order.
    pub fn on_link(&self, from: NodeId, to: NodeId) -> impl Iterator<Item = &InFlight> {
        self.in_flight
            .values()
            .filter(move |m| m.msg.from == from && m.msg.to == to)
    }

    /// Takes message `id` out of the network at `now`, wherever it is: in
    /// its sender's queue (which then no longer waits for it), on the
    /// wire, or held.
    pub fn remove(&mut self, id: u64, now: u64, bandwidth: Option<u64>) -> Option<InFlight> {
        let f = self.in_flight.remove(&id)?;
        let from = f.msg.from;
        match self.transport {
            Transport::Streams => {
                if let (Some(bps), Some(link)) =
                    (bandwidth.filter(|&b| b > 0), self.links.get_mut(&from))
                {
                    let done = link.advance(now, bps);
                    link.remove(id);
                    self.departed(done);
                    self.reschedule(from, bps);
                }
            }
            Transport::Shared => {
                if f.sent_out_ms != UNKNOWN_MS && f.sent_out_ms > now {
                    // Its sender's queue is busy only until the last message
                    // still in it has gone out (those keep their times, as
                    // after a cut).
                    let busy = self.queue_busy_until(from, now);
                    self.free_at.insert(from, busy);
                }
            }
        }
        Some(f)
    }

    /// Takes out every held message to `node`, in send order: its process
    /// stopped, and they waited at its side, in connections that died with
    /// it.
    pub fn take_held_to(
        &mut self,
        node: NodeId,
        now: u64,
        bandwidth: Option<u64>,
    ) -> Vec<InFlight> {
        let ids: Vec<u64> = self
            .in_flight
            .values()
            .filter(|m| m.msg.to == node && self.is_held(m.msg.from, node))
            .map(|m| m.id)
            .collect();
        ids.into_iter()
            .filter_map(|id| self.remove(id, now, bandwidth))
            .collect()
    }

    /// The first `count` held messages (all of them with `None`) of the
    /// held directions among `links`, in send order, taken out of the
    /// network to be delivered now. A direction with none left held is
    /// held no more.
    pub fn release(
        &mut self,
        links: &[(NodeId, NodeId)],
        count: Option<u64>,
        now: u64,
        bandwidth: Option<u64>,
    ) -> Vec<InFlight> {
        let on = |m: &InFlight| links.contains(&(m.msg.from, m.msg.to));
        let ids: Vec<u64> = self
            .in_flight
            .values()
            .filter(|m| on(m) && self.is_held_message(m))
            .map(|m| m.id)
            .collect();
        let n = count.map_or(ids.len(), |c| {
            ids.len().min(usize::try_from(c).unwrap_or(usize::MAX))
        });
        let taken: Vec<InFlight> = ids[..n]
            .iter()
            .filter_map(|&id| self.remove(id, now, bandwidth))
            .collect();
        for &(from, to) in links {
            if self.on_link(from, to).next().is_none() {
                self.unhold(from, to);
            }
        }
        taken
    }

    /// The earliest arrival to come among the messages on the wire that
    /// are not held (on the direction `link` only, if given): its time and
    /// the message's id, the one sent first among arrivals at one moment.
    /// A message waiting in a stream queue has no arrival yet.
    pub fn next_arrival(&self, link: Option<(NodeId, NodeId)>) -> Option<(u64, u64)> {
        self.in_flight
            .values()
            .filter(|m| m.arrives_ms != UNKNOWN_MS && !self.is_held_message(m))
            .filter(|m| link.is_none_or(|(a, b)| m.msg.from == a && m.msg.to == b))
            .map(|m| (m.arrives_ms, m.id))
            .min()
    }

    /// Whether a message not held is on its way (on the direction `link`
    /// only, if given): on the wire, or still waiting in its sender's
    /// stream (whose arrival is known once the stream has sent it).
    pub fn anything_to_deliver(&self, link: Option<(NodeId, NodeId)>) -> bool {
        self.in_flight
            .values()
            .filter(|m| link.is_none_or(|(a, b)| m.msg.from == a && m.msg.to == b))
            .any(|m| !self.is_held_message(m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::Message;

    fn app(from: NodeId, to: NodeId) -> Message {
        Message::new(MessageType::App, from, to, 1)
    }

    #[test]
    fn a_held_direction_keeps_its_messages_in_order_until_released() {
        let mut net = Network::default();
        let a = net.send(app(1, 2), 0, 0, 10, None);
        assert!(net.hold(1, 2));
        assert!(!net.hold(1, 2));
        let b = net.send(app(1, 2), 0, 5, 10, None);
        let other = net.send(app(2, 1), 0, 5, 10, None);
        let held: Vec<u64> = net
            .on_link(1, 2)
            .filter(|m| net.is_held_message(m))
            .map(|m| m.id)
            .collect();
        assert_eq!(held, vec![a, b]);
        // Only the other direction's message is still to arrive.
        assert_eq!(net.next_arrival(None), Some((15, other)));
        assert_eq!(net.next_arrival(Some((1, 2))), None);
        // One released: the hold goes on; then the rest, and it ends.
        let first = net.release(&[(1, 2)], Some(1), 20, None);
        assert_eq!(first.iter().map(|f| f.id).collect::<Vec<_>>(), vec![a]);
        assert!(net.is_held(1, 2));
        let rest = net.release(&[(1, 2)], None, 20, None);
        assert_eq!(rest.iter().map(|f| f.id).collect::<Vec<_>>(), vec![b]);
        assert!(!net.is_held(1, 2));
        // A message sent now is not held back behind what was held.
        let c = net.send(app(1, 2), 0, 20, 10, None);
        assert_eq!(net.next_arrival(Some((1, 2))), Some((30, c)));
    }

    #[test]
    fn a_removed_message_frees_its_senders_queue() {
        let mut net = Network::default();
        let mut big = app(1, 4);
        big.entries = (1..=1000)
            .map(|i| crate::raft::Entry {
                term: 1,
                index: i,
                data: crate::raft::EntryData::Empty,
            })
            .collect();
        let big = net.send(big, 0, 0, 10, Some(1000));
        let f = net.remove(big, 5, Some(1000)).unwrap();
        assert_eq!(f.id, big);
        assert!(net.remove(big, 5, Some(1000)).is_none());
        let next = net.send(app(1, 2), 0, 5, 10, Some(1000));
        let next = net.in_flight().find(|m| m.id == next).unwrap();
        assert_eq!(next.departs_ms, 5, "no longer behind the removed catch-up");
    }

    #[test]
    fn an_envelope_has_no_arrival_while_held() {
        let mut net = Network::default();
        let id = net.send(app(1, 2), 0, 0, 10, None);
        let f = net.in_flight().find(|m| m.id == id).unwrap().clone();
        assert_eq!(net.envelope(&f).arrives_ms, Some(10));
        net.hold(1, 2);
        let e = net.envelope(&f);
        assert_eq!((e.arrives_ms, e.held), (None, true));
        assert_eq!(net.take_held_to(2, 3, None).len(), 1);
        assert_eq!(net.in_flight().count(), 0);
    }
}
