//! A hand on single messages, as the world does it: hold a direction,
//! release what it holds (delivered now, in order), drop messages (each
//! told to its sender as a lost message is), and deliver the next arrival
//! alone. The network keeps what is held (`network/by_hand.rs`).
//!
//! What etcd's transport does in each case, and so what the world does:
//! - A **cut** of a held direction loses what it holds, as it loses what is
//!   on the wire: the connection breaks, and rafthttp's `streamWriter`
//!   reports the peer unreachable (`World::cut`). The hold itself stays.
//! - A **crash of the receiver** loses what was held for it at once (it
//!   waited at the receiver's side, in connections that die with its
//!   process: `streamReader` belongs to one process), each told to its
//!   sender; messages still on the wire to it are lost as they arrive.
//! - A **crash of the sender** loses what it had not put on the wire whole,
//!   held or not (`Network::drop_queued_from`); what it had sent stays held,
//!   and is delivered when released (a TCP peer reads what reached it
//!   before the other end closed). What becomes of it is told to the
//!   process that sent it only.
//! - A **heal** changes nothing held; time travel restores the world, held
//!   messages included, as it restores everything else.

use std::collections::BinaryHeap;

use crate::raft::{MessageType, NodeId};
use crate::sim::event::DropReason;
use crate::sim::network::{Envelope, UNKNOWN_MS};

use super::{Action, World};

impl World {
    /// Holds the direction `from` → `to`: every message on it not yet
    /// delivered, and every one sent later, waits at the receiver's side,
    /// neither delivered nor lost, until released. Whether it was not held.
    pub fn hold(&mut self, from: NodeId, to: NodeId) -> bool {
        self.net.hold(from, to)
    }

    /// Delivers now, in send order, the first `count` held messages (all of
    /// them with `None`) of the held directions among `links`; a direction
    /// with nothing left held is held no more. What was delivered.
    pub fn release(&mut self, links: &[(NodeId, NodeId)], count: Option<u64>) -> Vec<Envelope> {
        let taken = self.net.release(links, count, self.now, self.cfg.bandwidth);
        self.schedule_wakes();
        let mut out = Vec::with_capacity(taken.len());
        for f in taken {
            out.push(Envelope::of(&f, true));
            self.deliver_flight(f);
        }
        out
    }

    /// Drops the messages from `from` to `to`, in flight or held, of `kind`
    /// (any with `None`) or the one numbered `id`: the first `count` of
    /// them, in send order (all with `None`). Each is told to its sender as
    /// a lost message is (`report_failure`: rafthttp's ReportUnreachable
    /// for a MsgApp, a snapshot's failure for a MsgSnap). What was dropped.
    pub fn drop_messages(
        &mut self,
        from: NodeId,
        to: NodeId,
        kind: Option<MessageType>,
        id: Option<u64>,
        count: Option<u64>,
    ) -> Vec<Envelope> {
        let held = self.net.is_held(from, to);
        let ids: Vec<u64> = self
            .net
            .on_link(from, to)
            .filter(|f| kind.is_none_or(|k| f.msg.msg_type == k))
            .filter(|f| id.is_none_or(|i| f.id == i))
            .map(|f| f.id)
            .collect();
        let n = count.map_or(ids.len(), |c| {
            ids.len().min(usize::try_from(c).unwrap_or(usize::MAX))
        });
        let mut out = Vec::with_capacity(n);
        for &id in &ids[..n] {
            let Some(f) = self.net.remove(id, self.now, self.cfg.bandwidth) else {
                continue;
            };
            out.push(Envelope::of(&f, held));
            self.dropped(from, to, f.msg.msg_type, DropReason::ByHand);
            self.report_lost(&f);
        }
        self.schedule_wakes();
        out
    }

    /// The earliest arrival to come of a message that is not held (on the
    /// direction `link` only, if given): its time and the message's id.
    pub fn next_arrival(&self, link: Option<(NodeId, NodeId)>) -> Option<(u64, u64)> {
        self.net.next_arrival(link)
    }

    /// Whether `deliver-next` (on `link`, if given) has a message to
    /// deliver: one not held, on the wire or in its sender's stream.
    pub fn anything_to_deliver(&self, link: Option<(NodeId, NodeId)>) -> bool {
        self.net.anything_to_deliver(link)
    }

    /// When a stream next finishes sending a message (`transport=streams`
    /// with a bandwidth): that message's arrival is known only then.
    pub fn next_transmit(&self) -> Option<u64> {
        self.queue
            .iter()
            .filter(|r| matches!(r.0 .2, Action::Transmit { .. }))
            .map(|r| r.0 .0)
            .min()
    }

    /// Runs that moment of the network alone (the clock moves to it):
    /// `deliver-next` learns so when the messages waiting in streams arrive.
    /// Whether there was one.
    pub fn run_next_transmit(&mut self) -> bool {
        let mut all = std::mem::take(&mut self.queue).into_vec();
        let first = all
            .iter()
            .enumerate()
            .filter(|(_, r)| matches!(r.0 .2, Action::Transmit { .. }))
            .min_by_key(|(_, r)| (r.0 .0, r.0 .1))
            .map(|(i, _)| i);
        let taken = first.map(|i| all.swap_remove(i));
        self.queue = BinaryHeap::from(all);
        let Some(std::cmp::Reverse((at, _, Action::Transmit { node, gen }))) = taken else {
            return false;
        };
        self.now = self.now.max(at);
        self.net.transmit(node, gen, self.now, self.cfg.bandwidth);
        self.schedule_wakes();
        true
    }

    /// Delivers message `id` at its arrival, which the clock moves to, and
    /// runs nothing else: a Raft tick, a removed member's stop, due before
    /// the arrival, runs when time next passes, late (a node's ticker fires
    /// once however many ticks it missed, see `tick`). `None` if it is not
    /// on the wire or is held.
    pub fn deliver_now(&mut self, id: u64) -> Option<Envelope> {
        let f = self.net.in_flight_message(id)?;
        if self.net.is_held_message(f) || f.arrives_ms == UNKNOWN_MS {
            return None;
        }
        let envelope = Envelope::of(f, false);
        self.now = self.now.max(f.arrives_ms);
        let f = self.net.take(id)?;
        self.deliver_flight(f);
        Some(envelope)
    }

    /// Moves the clock to `t`, leaving what was due before it to run when
    /// time next passes (another cluster of the run delivered its next
    /// message at `t`).
    pub fn jump_clock(&mut self, t: u64) {
        self.now = self.now.max(t);
    }
}

#[cfg(test)]
mod tests {
    use crate::raft::StateRole;
    use crate::sim::{EventKind, World, WorldConfig};

    fn elected() -> World {
        let mut w = World::new(WorldConfig::default(), &[1, 2, 3]);
        w.run_until(100);
        w.campaign(1);
        w.run_until(1_000);
        assert_eq!(w.leader(), Some(1));
        w
    }

    #[test]
    fn a_held_direction_delivers_nothing_until_released() {
        let mut w = elected();
        w.hold(1, 2);
        let before = w.raft(2).unwrap().commit();
        w.propose(1, crate::raft::EntryData::Empty).unwrap();
        w.run_until(3_000);
        // Node 2 heard nothing from the leader: no heartbeat, no append.
        assert_eq!(w.raft(2).unwrap().commit(), before);
        let held = w.network().on_link(1, 2).count();
        assert!(held > 10, "{held} held");
        let delivered = w.release(&[(1, 2)], None);
        assert_eq!(delivered.len(), held);
        assert!(delivered.windows(2).all(|p| p[0].id < p[1].id), "in order");
        assert!(!w.network().is_held(1, 2));
        w.run_until(3_500);
        assert_eq!(w.raft(2).unwrap().commit(), w.raft(1).unwrap().commit());
    }

    #[test]
    fn a_dropped_append_is_reported_to_its_sender() {
        let mut w = elected();
        w.run_until(1_200);
        w.hold(1, 2);
        w.propose(1, crate::raft::EntryData::Empty).unwrap();
        w.take_events();
        let dropped = w.drop_messages(1, 2, Some(crate::raft::MessageType::App), None, Some(1));
        assert_eq!(dropped.len(), 1);
        assert!(dropped[0].held);
        let events = w.take_events();
        assert!(events.iter().any(|e| matches!(
            e.kind,
            EventKind::MessageDropped {
                from: 1,
                to: 2,
                reason: crate::sim::DropReason::ByHand,
                ..
            }
        )));
        // The leader heard of it: it probes node 2 again (ReportUnreachable).
        let p = &w.raft(1).unwrap().tracker().progress[&2];
        assert_eq!(p.state.name(), "probe");
    }

    #[test]
    fn a_crashed_receiver_loses_what_was_held_for_it() {
        let mut w = elected();
        w.hold(1, 2);
        w.run_until(1_500);
        assert!(w.network().on_link(1, 2).count() > 0);
        w.take_events();
        w.crash(2);
        assert_eq!(w.network().on_link(1, 2).count(), 0);
        assert!(w.network().is_held(1, 2), "the hold stays");
        assert!(w.take_events().iter().any(|e| matches!(
            e.kind,
            EventKind::MessageDropped {
                from: 1,
                to: 2,
                reason: crate::sim::DropReason::NodeDown,
                ..
            }
        )));
    }

    #[test]
    fn deliver_now_moves_the_clock_to_one_arrival_and_runs_nothing_else() {
        let mut w = elected();
        w.propose(1, crate::raft::EntryData::Empty).unwrap();
        let (at, id) = w.next_arrival(None).unwrap();
        let before = w.now();
        let ticks_before = w.raft(3).unwrap().term();
        let e = w.deliver_now(id).unwrap();
        assert_eq!(e.id, id);
        assert_eq!(w.now(), at.max(before));
        assert_eq!(w.raft(3).unwrap().term(), ticks_before);
        assert!(w.deliver_now(id).is_none(), "delivered once");
    }

    #[test]
    fn a_tick_missed_by_a_jump_fires_once_late_then_keeps_its_phase() {
        let mut w = elected();
        // Nothing on the wire: jump a whole second, as deliver-next may.
        w.hold(1, 2);
        w.hold(1, 3);
        let t = w.now();
        w.jump_clock(t + 1_000);
        let term_of = |w: &World| w.raft(2).unwrap().term();
        let term = term_of(&w);
        // One late tick each, not ten: no election timer runs out at once.
        w.run_until(t + 1_000);
        assert_eq!(term_of(&w), term);
        assert_eq!(w.raft(2).unwrap().role(), StateRole::Follower);
        assert!(w.next_time().unwrap() > t + 1_000);
    }
}
