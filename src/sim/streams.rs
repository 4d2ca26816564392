//! etcd's peer transport, the `transport=streams` model: per peer, one
//! ordered stream for appends, one for every other message, and snapshots
//! on their own connection (rafthttp `peer.pick`, `streamWriter`,
//! `snapshotSender`). The node's outbound link is shared fairly between
//! the streams that have bytes waiting, as TCP connections sharing one
//! network interface roughly are: each of n busy streams sends at 1/n of
//! the bandwidth (processor sharing).
//!
//! Bytes are counted in thousandths, so that a bandwidth of B bytes a second
//! moves exactly B units a millisecond. Times are whole milliseconds; a
//! message finishes at the first whole millisecond its last byte is out.

use std::collections::VecDeque;

use crate::raft::{Message, MessageType, NodeId};

use super::vecmap::VecMap;

/// The stream a message travels on: one queue, one TCP connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stream {
    /// `transport=shared`: every message to a peer goes on one ordered link.
    Link,
    /// etcd's `streamMsgAppV2`: MsgApp only.
    Append,
    /// etcd's `streamMsg`: heartbeats, votes, responses, everything else.
    Message,
    /// etcd's snapshot sender: a MsgSnap on its own connection.
    Snapshot,
}

impl Stream {
    /// etcd's `peer.pick`: MsgSnap on its own, MsgApp on the append stream,
    /// the rest on the message stream.
    pub fn pick(msg: &Message) -> Stream {
        match msg.msg_type {
            MessageType::Snap => Stream::Snapshot,
            MessageType::App => Stream::Append,
            _ => Stream::Message,
        }
    }
}

/// Thousandths of a byte per byte.
const MILLI: u128 = 1000;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Queued {
    id: u64,
    /// Thousandths of a byte still to send.
    left: u128,
}

/// One node's outbound link under fair sharing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FairLink {
    /// Messages waiting, by (peer, stream); only the front one is sending.
    queues: VecMap<(NodeId, Stream), VecDeque<Queued>>,
    /// The time up to which the fronts' progress is accounted for.
    updated_ms: u64,
    /// Bumped whenever the next completion is rescheduled: a wake-up with
    /// an older number is stale.
    pub gen: u64,
    /// The completion time the last wake-up was scheduled for.
    scheduled: Option<u64>,
}

impl FairLink {
    /// Counts the queues.
    pub fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        self.queues.heap_size(m);
        for q in self.queues.values() {
            m.deque(q);
        }
    }

    fn busy(&self) -> usize {
        self.queues.values().filter(|q| !q.is_empty()).count()
    }

    /// Queues a message of `size` bytes on `(to, stream)` at `now`. Returns
    /// the messages finished meanwhile, with the millisecond they finished.
    pub fn push(
        &mut self,
        to: NodeId,
        stream: Stream,
        id: u64,
        size: u64,
        now: u64,
        bps: u64,
    ) -> Vec<(u64, u64)> {
        let done = self.advance(now, bps);
        self.queues
            .get_or_insert_with((to, stream), VecDeque::new)
            .push_back(Queued {
                id,
                left: u128::from(size.max(1)) * MILLI,
            });
        done
    }

    /// Accounts for the bytes sent up to `now`; returns the messages whose
    /// last byte left by then, in the order they finished.
    pub fn advance(&mut self, now: u64, bps: u64) -> Vec<(u64, u64)> {
        let mut done = Vec::new();
        let rate = u128::from(bps.max(1));
        while self.updated_ms < now {
            let n = self.busy() as u128;
            if n == 0 {
                break;
            }
            let Some(min_left) = self
                .queues
                .values()
                .filter_map(|q| q.front())
                .map(|q| q.left)
                .min()
            else {
                break;
            };
            // Each busy stream moves rate / n units a millisecond.
            let to_finish = (min_left * n).div_ceil(rate) as u64;
            let step = to_finish.min(now - self.updated_ms);
            let moved = u128::from(step) * rate / n;
            let at = self.updated_ms + step;
            for q in self.queues.values_mut() {
                let Some(front) = q.front_mut() else { continue };
                front.left = front.left.saturating_sub(moved);
                if front.left == 0 {
                    done.push((front.id, at));
                    q.pop_front();
                }
            }
            self.updated_ms = at;
        }
        self.updated_ms = self.updated_ms.max(now);
        self.queues.retain(|_, q| !q.is_empty());
        done
    }

    /// When the next message will finish, if any is waiting.
    pub fn next_done(&self, bps: u64) -> Option<u64> {
        let n = self.busy() as u128;
        let min_left = self
            .queues
            .values()
            .filter_map(|q| q.front())
            .map(|q| q.left)
            .min()?;
        let rate = u128::from(bps.max(1));
        Some(self.updated_ms + (min_left * n).div_ceil(rate) as u64)
    }

    /// Whether a wake-up must be scheduled: `Some((time, gen))` when the
    /// next completion changed since the last one scheduled.
    pub fn reschedule(&mut self, bps: u64) -> Option<(u64, u64)> {
        let next = self.next_done(bps);
        if next == self.scheduled {
            return None;
        }
        self.scheduled = next;
        self.gen += 1;
        next.map(|t| (t, self.gen))
    }

    /// The wake-up at `gen` fired: nothing is scheduled any more.
    pub fn fired(&mut self, gen: u64) -> bool {
        if gen != self.gen {
            return false;
        }
        self.scheduled = None;
        true
    }

    /// Drops every waiting message to `to` (a cut link); returns their ids.
    pub fn drop_to(&mut self, to: NodeId) -> Vec<u64> {
        let mut ids = Vec::new();
        self.queues.retain(|(peer, _), q| {
            if *peer == to {
                ids.extend(q.iter().map(|m| m.id));
                false
            } else {
                true
            }
        });
        ids
    }

    /// Takes message `id` out of its queue (dropped by hand, or delivered
    /// at once by a `release`): the rest of its stream moves up. Whether it
    /// was waiting here.
    pub fn remove(&mut self, id: u64) -> bool {
        let mut found = false;
        for q in self.queues.values_mut() {
            if let Some(i) = q.iter().position(|m| m.id == id) {
                q.remove(i);
                found = true;
                break;
            }
        }
        self.queues.retain(|_, q| !q.is_empty());
        found
    }

    /// Drops everything waiting (the process stopped); returns the ids.
    pub fn clear(&mut self) -> Vec<u64> {
        let ids = self.queues.values().flatten().map(|m| m.id).collect();
        self.queues.clear();
        ids
    }

    /// Bytes still to send at `now` (the fronts' progress since the last
    /// accounting estimated at the current share).
    pub fn queued_bytes(&self, now: u64, bps: u64) -> u64 {
        let n = self.busy() as u128;
        if n == 0 {
            return 0;
        }
        let moved = u128::from(now.saturating_sub(self.updated_ms)) * u128::from(bps.max(1)) / n;
        let mut total = 0u128;
        for q in self.queues.values() {
            for (i, m) in q.iter().enumerate() {
                total += if i == 0 {
                    m.left.saturating_sub(moved)
                } else {
                    m.left
                };
            }
        }
        (total.div_ceil(MILLI)) as u64
    }

    pub fn is_empty(&self) -> bool {
        self.queues.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_stream_gets_the_whole_link() {
        let mut l = FairLink::default();
        // 1000 bytes at 1000 B/s: one second.
        assert!(l.push(2, Stream::Append, 1, 1000, 0, 1000).is_empty());
        assert_eq!(l.next_done(1000), Some(1000));
        assert_eq!(l.advance(1000, 1000), vec![(1, 1000)]);
        assert!(l.is_empty());
    }

    #[test]
    fn busy_streams_share_the_link_fairly() {
        let mut l = FairLink::default();
        // A big append to 2, then a heartbeat to 3 on another stream: the
        // heartbeat is not stuck behind the append, it gets half the link.
        l.push(2, Stream::Append, 1, 10_000, 0, 1000);
        l.push(3, Stream::Message, 2, 100, 0, 1000);
        assert_eq!(l.next_done(1000), Some(200));
        assert_eq!(l.advance(200, 1000), vec![(2, 200)]);
        // The append sent 100 bytes meanwhile and has the link alone again.
        assert_eq!(l.queued_bytes(200, 1000), 9_900);
        assert_eq!(l.next_done(1000), Some(200 + 9_900));
    }

    #[test]
    fn a_stream_keeps_its_order() {
        let mut l = FairLink::default();
        l.push(2, Stream::Append, 1, 500, 0, 1000);
        l.push(2, Stream::Append, 2, 10, 0, 1000);
        let done = l.advance(10_000, 1000);
        assert_eq!(done, vec![(1, 500), (2, 510)]);
    }

    #[test]
    fn a_cut_peer_frees_its_share() {
        let mut l = FairLink::default();
        l.push(2, Stream::Append, 1, 10_000, 0, 1000);
        l.push(3, Stream::Append, 2, 1_000, 0, 1000);
        assert_eq!(l.advance(1000, 1000), vec![]);
        assert_eq!(l.drop_to(2), vec![1]);
        // 3's append sent 500 bytes in the first second; 500 remain, alone.
        assert_eq!(l.next_done(1000), Some(1500));
    }

    #[test]
    fn a_message_taken_out_frees_its_place_in_the_stream() {
        let mut l = FairLink::default();
        l.push(2, Stream::Append, 1, 500, 0, 1000);
        l.push(2, Stream::Append, 2, 10, 0, 1000);
        assert!(l.remove(1));
        assert!(!l.remove(1));
        // The second goes out alone, from the start.
        assert_eq!(l.advance(10_000, 1000), vec![(2, 10)]);
        assert!(l.remove(2) || l.is_empty());
    }

    #[test]
    fn reschedule_only_when_the_next_completion_moves() {
        let mut l = FairLink::default();
        l.push(2, Stream::Append, 1, 1000, 0, 1000);
        assert_eq!(l.reschedule(1000), Some((1000, 1)));
        assert_eq!(l.reschedule(1000), None);
        l.push(3, Stream::Message, 2, 100, 0, 1000);
        assert_eq!(l.reschedule(1000), Some((200, 2)));
        assert!(!l.fired(1));
        assert!(l.fired(2));
    }
}
