//! Where each message dot stands on the canvas at a moment: the drawing
//! paints them there, and a click or a tap on one finds it there.
//!
//! A message on the wire glides along its direction's lane from its sender
//! to its receiver (or stands at the lane's middle when the reader asked for
//! less motion); messages still waiting in their sender's queue sit at the
//! lane's start, one dot per direction; a held direction's messages queue at
//! its receiver's side, the oldest nearest the receiver, as far back as half
//! the lane (more than fit share the last place).

use crate::app::layout::{lane, Layout, Segment};
use crate::app::scene::{message_progress, message_radius};
use crate::raft::{MessageType, NodeId};
use crate::server::Cluster;
use crate::sim::network::UNKNOWN_MS;

/// Room between two held messages queued on a lane, in CSS pixels.
pub const HELD_GAP: f64 = 9.0;

/// A finger or a pointer this much beyond a dot's edge still hits it (a
/// dot can be a few pixels wide).
pub const DOT_SLOP: f64 = 4.0;

/// One message as the canvas draws it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dot {
    pub id: u64,
    pub from: NodeId,
    pub to: NodeId,
    pub kind: MessageType,
    pub reject: bool,
    pub x: f64,
    pub y: f64,
    pub r: f64,
    /// Held at its receiver's side.
    pub held: bool,
}

/// The mark of a held direction: where its receiver's end of the lane is,
/// and the lane's direction (a unit vector), with how many messages wait.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gate {
    pub from: NodeId,
    pub to: NodeId,
    pub x: f64,
    pub y: f64,
    pub ux: f64,
    pub uy: f64,
    pub count: usize,
}

/// Every dot of `cluster` on `l` at simulated time `t` (milliseconds, with
/// the frame's fraction), in the order they are painted (the last on top).
pub fn dots(l: &Layout, cluster: &Cluster, t: f64, still: bool) -> Vec<Dot> {
    let r = l.node_r + 2.0;
    let net = cluster.world().network();
    let mut out = Vec::new();
    // Messages still queued at their sender all sit at one spot: one dot a
    // direction is enough (the sender's label gives the bytes). Held ones
    // count their place in their direction's queue.
    let mut queued_drawn: Vec<(NodeId, NodeId)> = Vec::new();
    let mut held_seen: Vec<((NodeId, NodeId), usize)> = Vec::new();
    for m in cluster.in_flight() {
        let (from, to) = (m.msg.from, m.msg.to);
        let held = net.is_held_message(m);
        let queued = !held && (m.departs_ms == UNKNOWN_MS || m.departs_ms as f64 > t);
        if queued {
            if queued_drawn.contains(&(from, to)) {
                continue;
            }
            queued_drawn.push((from, to));
        }
        let (Some(a), Some(b)) = (l.spot(from), l.spot(to)) else {
            continue;
        };
        let Some(seg) = lane(a, b, r) else {
            continue;
        };
        let radius = message_radius(m.size);
        let (x, y) = if held {
            let k = match held_seen.iter_mut().find(|(link, _)| *link == (from, to)) {
                Some((_, n)) => {
                    *n += 1;
                    *n - 1
                }
                None => {
                    held_seen.push(((from, to), 1));
                    0
                }
            };
            queued_at_receiver(&seg, k)
        } else {
            let p = if queued {
                0.0
            } else {
                message_progress(m.departs_ms, m.arrives_ms, t, still)
            };
            (
                seg.x0 + (seg.x1 - seg.x0) * p,
                seg.y0 + (seg.y1 - seg.y0) * p,
            )
        };
        out.push(Dot {
            id: m.id,
            from,
            to,
            kind: m.msg.msg_type,
            reject: m.msg.reject,
            x,
            y,
            r: radius,
            held,
        });
    }
    out
}

/// Where the `k`-th held message (0: the oldest) of a lane waits: back from
/// the receiver's end, a gap apart, no further than the lane's middle.
pub fn queued_at_receiver(seg: &Segment, k: usize) -> (f64, f64) {
    let (vx, vy) = (seg.x0 - seg.x1, seg.y0 - seg.y1);
    let len = vx.hypot(vy).max(1.0);
    let d = (HELD_GAP * (k as f64 + 0.7)).min(len / 2.0);
    (seg.x1 + vx / len * d, seg.y1 + vy / len * d)
}

/// The held directions of `cluster` drawn on `l`, each with its mark's place.
pub fn gates(l: &Layout, cluster: &Cluster) -> Vec<Gate> {
    let r = l.node_r + 2.0;
    let net = cluster.world().network();
    net.held_links()
        .filter_map(|(from, to)| {
            let (a, b) = (l.spot(from)?, l.spot(to)?);
            let seg = lane(a, b, r)?;
            let (vx, vy) = (seg.x1 - seg.x0, seg.y1 - seg.y0);
            let len = vx.hypot(vy).max(1.0);
            Some(Gate {
                from,
                to,
                x: seg.x1,
                y: seg.y1,
                ux: vx / len,
                uy: vy / len,
                count: net.on_link(from, to).count(),
            })
        })
        .collect()
}

/// The dot under (`x`, `y`): the nearest one whose disc, widened by
/// [`DOT_SLOP`], holds the point; among equals, the one painted last.
pub fn dot_at(dots: &[Dot], x: f64, y: f64) -> Option<&Dot> {
    let mut best: Option<(f64, &Dot)> = None;
    for d in dots {
        let dist = (x - d.x).hypot(y - d.y);
        if dist > d.r + DOT_SLOP {
            continue;
        }
        if best.is_none_or(|(b, _)| dist <= b) {
            best = Some((dist, d));
        }
    }
    best.map(|(_, d)| d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::exec::Session;

    fn layout(c: &Cluster) -> Layout {
        let mut l = Layout::default();
        let nodes: Vec<(NodeId, bool)> = c.known_ids().iter().map(|&id| (id, true)).collect();
        l.compute(900.0, 700.0, &nodes);
        l
    }

    fn session(extra: &str) -> Session {
        Session::from_script(&format!(
            "cluster voters=1,2,3 seed=2\ncampaign 1\nwait-until leader=1 within=2s\n{extra}"
        ))
        .unwrap()
    }

    #[test]
    fn a_dot_on_the_wire_is_between_its_ends_and_is_found_where_it_is() {
        let s = session("put x 1 nowait\n");
        let c = s.cluster();
        let l = layout(c);
        let t = c.now() as f64;
        let all = dots(&l, c, t, false);
        assert!(!all.is_empty());
        for d in &all {
            assert_eq!(dot_at(&all, d.x, d.y).map(|f| f.id), Some(d.id));
            let (a, b) = (l.spot(d.from).unwrap(), l.spot(d.to).unwrap());
            let (lo, hi) = (a.x.min(b.x) - 5.0, a.x.max(b.x) + 5.0);
            assert!(d.x >= lo && d.x <= hi, "{d:?}");
        }
        // Far from every dot, nothing.
        assert_eq!(dot_at(&all, 1.0, 1.0), None);
    }

    #[test]
    fn held_messages_queue_at_the_receivers_side_oldest_nearest() {
        let s = session("hold 1->2\nwait 500ms\n");
        let c = s.cluster();
        let l = layout(c);
        let all: Vec<Dot> = dots(&l, c, c.now() as f64, false)
            .into_iter()
            .filter(|d| d.held)
            .collect();
        assert!(all.len() >= 4, "{all:?}");
        let to = l.spot(2).unwrap();
        let dist: Vec<f64> = all.iter().map(|d| (d.x - to.x).hypot(d.y - to.y)).collect();
        assert!(dist.windows(2).all(|w| w[0] <= w[1]), "{dist:?}");
        // Nearer the receiver than the sender, all of them.
        let from = l.spot(1).unwrap();
        for d in &all {
            assert!((d.x - to.x).hypot(d.y - to.y) <= (d.x - from.x).hypot(d.y - from.y));
        }
        let g = gates(&l, c);
        assert_eq!(g.len(), 1);
        assert_eq!((g[0].from, g[0].to, g[0].count), (1, 2, all.len()));
    }
}
