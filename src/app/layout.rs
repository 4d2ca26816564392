//! Where things sit on the canvas, in CSS pixels, and what is under a point.
//! Nodes stand on a ring (lowest id at the top, clockwise); the log strips
//! fill a panel under the ring, one row per node.

use crate::app::trig::clamp;
use crate::raft::NodeId;

/// One node's place.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spot {
    pub id: NodeId,
    pub x: f64,
    pub y: f64,
    /// Unit vector from the ring's centre: labels go further out this way.
    pub dx: f64,
    pub dy: f64,
    /// Whether links to it are drawn (a removed member has none).
    pub linked: bool,
}

/// What a point on the canvas falls on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hit {
    Node(NodeId),
    /// The link between `a` and `b`; `near` is the end closer to the point.
    Link {
        a: NodeId,
        b: NodeId,
        near: NodeId,
    },
}

#[derive(Debug, Clone, Default)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    pub cx: f64,
    pub cy: f64,
    pub ring: f64,
    pub node_r: f64,
    pub spots: Vec<Spot>,
    /// The log panel: top-left corner, size, one row per spot.
    pub log_x: f64,
    pub log_y: f64,
    pub log_w: f64,
    pub log_h: f64,
    pub row_h: f64,
    pub label_w: f64,
    pub cell_w: f64,
    /// How many log entries each strip shows.
    pub cells: usize,
    /// Left edge of the log legend, right of the strips (0: no room for it).
    pub key_x: f64,
    /// Room at the top left free for the page's legend, in CSS pixels.
    pub top_inset: f64,
}

/// Nearer than this to a link (in CSS pixels) counts as on it.
const LINK_SLOP: f64 = 7.0;

impl Layout {
    /// Recomputes every position for a canvas of `width` x `height` CSS
    /// pixels and these nodes (id, linked), reusing the allocation.
    pub fn compute(&mut self, width: f64, height: f64, nodes: &[(NodeId, bool)]) {
        self.width = width;
        self.height = height;
        let n = nodes.len().max(1);
        self.row_h = if height < 700.0 { 14.0 } else { 17.0 };
        self.log_h = 22.0 + self.row_h * n as f64 + 8.0;
        self.log_x = 8.0;
        self.log_w = (width - 16.0).max(40.0);
        self.log_y = height - self.log_h - 6.0;
        self.label_w = 78.0;
        let key_w = if self.log_w > 560.0 { 118.0 } else { 0.0 };
        let avail = self.log_w - self.label_w - 12.0 - key_w;
        self.cells = ((avail / 22.0) as usize).clamp(8, 30);
        self.cell_w = (avail / self.cells as f64).min(26.0);
        self.key_x = if key_w > 0.0 {
            self.log_x + self.label_w + self.cell_w * self.cells as f64 + 16.0
        } else {
            0.0
        };

        let top = clamp(self.top_inset, 0.0, height / 3.0);
        let top_h = (self.log_y - top).max(80.0);
        self.cx = width / 2.0;
        self.cy = top + top_h / 2.0;
        // Room outside the ring for each node's labels and bars: three lines
        // above the top node and below a bottom one, wide text at the sides.
        self.ring = ((width / 2.0) - 160.0).min(top_h / 2.0 - 84.0).max(40.0);
        let chord = if n > 1 {
            2.0 * self.ring * super::trig::sin_cos(std::f64::consts::PI / n as f64).0
        } else {
            self.ring
        };
        self.node_r = clamp((chord * 0.26).min(self.ring * 0.3), 13.0, 28.0);

        self.spots.clear();
        for (k, &(id, linked)) in nodes.iter().enumerate() {
            let angle = -std::f64::consts::FRAC_PI_2 + std::f64::consts::TAU * k as f64 / n as f64;
            let (dy, dx) = super::trig::sin_cos(angle);
            self.spots.push(Spot {
                id,
                x: self.cx + self.ring * dx,
                y: self.cy + self.ring * dy,
                dx,
                dy,
                linked,
            });
        }
    }

    pub fn spot(&self, id: NodeId) -> Option<&Spot> {
        self.spots.iter().find(|s| s.id == id)
    }

    /// The top of log row `i`.
    pub fn row_y(&self, i: usize) -> f64 {
        self.log_y + 22.0 + self.row_h * i as f64
    }

    /// A node first (anywhere on its disc, or on its log row label), then the
    /// nearest link within a few pixels.
    pub fn hit(&self, x: f64, y: f64) -> Option<Hit> {
        let r = self.node_r + 3.0;
        if let Some(s) = self.spots.iter().find(|s| (x - s.x).hypot(y - s.y) <= r) {
            return Some(Hit::Node(s.id));
        }
        if x >= self.log_x && x <= self.log_x + self.label_w && y >= self.row_y(0) {
            let i = ((y - self.row_y(0)) / self.row_h) as usize;
            if let Some(s) = self.spots.get(i) {
                return Some(Hit::Node(s.id));
            }
        }
        let mut best: Option<(f64, Hit)> = None;
        for (i, a) in self.spots.iter().enumerate() {
            for b in &self.spots[i + 1..] {
                if !a.linked || !b.linked {
                    continue;
                }
                let (d, t) = segment_distance(x, y, a.x, a.y, b.x, b.y);
                let len = (b.x - a.x).hypot(b.y - a.y);
                // Not on the discs at either end.
                if d > LINK_SLOP || t * len < r || (1.0 - t) * len < r {
                    continue;
                }
                if best.is_none_or(|(bd, _)| d < bd) {
                    let near = if t <= 0.5 { a.id } else { b.id };
                    best = Some((
                        d,
                        Hit::Link {
                            a: a.id,
                            b: b.id,
                            near,
                        },
                    ));
                }
            }
        }
        best.map(|(_, h)| h)
    }
}

/// Each direction of a link has its own lane, a little to its right, so
/// messages going both ways and one-way cuts can be told apart: the lane
/// from `a` to `b`, stopping `r` short of each centre; `None` when the
/// nodes are too close for one.
pub fn lane(a: &Spot, b: &Spot, r: f64) -> Option<Segment> {
    let (vx, vy) = (b.x - a.x, b.y - a.y);
    let len = vx.hypot(vy);
    if len < 2.0 * r + 1.0 {
        return None;
    }
    let (ux, uy) = (vx / len, vy / len);
    let off = 3.5;
    let (nx, ny) = (-uy * off, ux * off);
    Some(Segment {
        x0: a.x + ux * r + nx,
        y0: a.y + uy * r + ny,
        x1: b.x - ux * r + nx,
        y1: b.y - uy * r + ny,
    })
}

/// A straight stretch from (x0, y0) to (x1, y1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

/// Distance from (px, py) to the segment (ax, ay)-(bx, by), and where along
/// it (0 at a, 1 at b) the nearest point lies.
pub fn segment_distance(px: f64, py: f64, ax: f64, ay: f64, bx: f64, by: f64) -> (f64, f64) {
    let (vx, vy) = (bx - ax, by - ay);
    let len2 = vx * vx + vy * vy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        clamp(((px - ax) * vx + (py - ay) * vy) / len2, 0.0, 1.0)
    };
    ((px - (ax + t * vx)).hypot(py - (ay + t * vy)), t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn three() -> Layout {
        let mut l = Layout::default();
        l.compute(900.0, 600.0, &[(1, true), (2, true), (3, true)]);
        l
    }

    #[test]
    fn nodes_stand_on_a_ring_lowest_id_at_the_top_clockwise() {
        let l = three();
        let (a, b, c) = (l.spots[0], l.spots[1], l.spots[2]);
        assert!(a.y < b.y && a.y < c.y, "node 1 is at the top");
        assert!(
            b.x > a.x && c.x < a.x,
            "clockwise: 2 on the right, 3 on the left"
        );
        for s in &l.spots {
            let r = (s.x - l.cx).hypot(s.y - l.cy);
            assert!((r - l.ring).abs() < 1e-9);
        }
        // The log panel sits under the ring, one row per node.
        assert!(l.log_y > b.y + l.node_r && l.row_y(2) + l.row_h <= l.log_y + l.log_h);
        assert!((8..=30).contains(&l.cells));
    }

    #[test]
    fn a_point_hits_a_node_its_log_row_or_the_nearest_link() {
        let l = three();
        let (a, b) = (l.spots[0], l.spots[1]);
        assert_eq!(l.hit(a.x + 2.0, a.y - 2.0), Some(Hit::Node(1)));
        assert_eq!(l.hit(l.log_x + 5.0, l.row_y(1) + 2.0), Some(Hit::Node(2)));
        let at = |t: f64| (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
        let (x, y) = at(0.4);
        assert_eq!(
            l.hit(x, y),
            Some(Hit::Link {
                a: 1,
                b: 2,
                near: 1
            })
        );
        let (x, y) = at(0.7);
        assert_eq!(
            l.hit(x, y),
            Some(Hit::Link {
                a: 1,
                b: 2,
                near: 2
            })
        );
        assert_eq!(l.hit(1.0, 1.0), None);
    }

    #[test]
    fn an_unlinked_node_has_no_links_and_each_direction_its_lane() {
        let mut l = Layout::default();
        l.compute(900.0, 600.0, &[(1, true), (2, false)]);
        let (a, b) = (l.spots[0], l.spots[1]);
        let mid = ((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
        assert_eq!(l.hit(mid.0, mid.1), None);
        let there = lane(&a, &b, l.node_r).unwrap();
        let back = lane(&b, &a, l.node_r).unwrap();
        assert!((there.x0 - back.x1).abs() > 1.0, "the lanes are apart");
        assert_eq!(lane(&a, &a, l.node_r), None);
    }
}
