//! Where things sit on the canvas, in CSS pixels, and what is under a point.
//! Nodes stand on a ring (lowest id at the top, clockwise); the log strips
//! fill a panel under the ring, one row per node. Several clusters
//! ([`Board`]) stand side by side, each in its own column with its ring and
//! its strips; a mirror process sits between its source's and its
//! destination's rings.

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
    /// A mirror process's shape.
    Mirror(NodeId),
    /// Message `id`'s dot, on its way from `from` to `to` (`app::dots`).
    Message {
        id: u64,
        from: NodeId,
        to: NodeId,
    },
}

#[derive(Debug, Clone, Default)]
pub struct Layout {
    /// The column's left edge (0 for a lone cluster) and its width.
    pub left: f64,
    pub width: f64,
    pub height: f64,
    pub cx: f64,
    pub cy: f64,
    /// The ring's radius across, and down (taller in a narrow column,
    /// where the height is to spare).
    pub ring: f64,
    pub ring_y: f64,
    pub node_r: f64,
    /// One column of several: the ring may be taller than wide, labels
    /// are short.
    pub narrow: bool,
    /// A canvas narrower than [`SMALL_WIDTH`] (a phone's): labels are
    /// short, and the ring may be wider than tall.
    pub small: bool,
    /// A narrow column thinner than [`CRAMPED_WIDTH`] (several clusters on
    /// a phone's canvas): each node keeps only what it is, and the ring
    /// takes the height its longer labels would have had.
    pub cramped: bool,
    /// Where a narrow column's cluster name stands (its middle).
    pub name_y: f64,
    /// Lines of the caption under a narrow column's name: 2 when the
    /// widest caption of the board does not fit its column on one.
    pub caption_lines: usize,
    pub spots: Vec<Spot>,
    /// The log panel: top-left corner, size, one row per spot.
    pub log_x: f64,
    pub log_y: f64,
    pub log_w: f64,
    pub log_h: f64,
    pub row_h: f64,
    pub label_w: f64,
    /// A log panel too narrow for "node 12 (L)" beside readable cells
    /// (several clusters on a phone): its rows are named by id alone.
    pub short_rows: bool,
    pub cell_w: f64,
    /// How many log entries each strip shows.
    pub cells: usize,
    /// Left edge of the log legend, right of the strips (0: no room for it).
    pub key_x: f64,
    /// Room at the top left free for the page's legend, in CSS pixels.
    pub top_inset: f64,
    /// A button over the canvas's top-left corner (the legend's, on a
    /// phone): its right and bottom edges. Labels keep clear of it.
    pub corner: [f64; 2],
}

/// Nearer than this to a link (in CSS pixels) counts as on it.
const LINK_SLOP: f64 = 7.0;

/// A lone cluster's canvas narrower than this is small (a phone held
/// upright, a small embedded frame).
pub const SMALL_WIDTH: f64 = 560.0;

/// A caption's line under a narrow column's name.
pub const CAPTION_LINE: f64 = 13.0;

/// A column of several narrower than this is cramped: two clusters side by
/// side on a phone held upright, three on a small laptop's canvas.
pub const CRAMPED_WIDTH: f64 = 320.0;

/// A log panel narrower than this names its rows by id alone: two or
/// three clusters side by side on a phone held upright.
const NARROW_LOG: f64 = 240.0;

/// The thinnest log cell drawn, when fewer than eight fit.
const MIN_CELL: f64 = 12.0;

/// A cramped column's node radius, at most: this much of its ring across.
const CRAMPED_NODE: f64 = 0.26;

impl Layout {
    /// Recomputes every position for a canvas of `width` x `height` CSS
    /// pixels and these nodes (id, linked), reusing the allocation.
    pub fn compute(&mut self, width: f64, height: f64, nodes: &[(NodeId, bool)]) {
        self.compute_in(0.0, width, height, nodes.len(), nodes);
    }

    /// The same in the column from `left`, `width` wide, with room for
    /// `rows` log rows (columns side by side get as many, so their rings
    /// stand level).
    pub fn compute_in(
        &mut self,
        left: f64,
        width: f64,
        height: f64,
        rows: usize,
        nodes: &[(NodeId, bool)],
    ) {
        self.left = left;
        self.width = width;
        self.height = height;
        let n = nodes.len().max(1);
        self.row_h = if height < 700.0 { 14.0 } else { 17.0 };
        self.log_h = 22.0 + self.row_h * rows.max(1) as f64 + 8.0;
        self.log_x = left + 8.0;
        self.log_w = (width - 16.0).max(40.0);
        self.log_y = height - self.log_h - 6.0;
        self.short_rows = self.log_w < NARROW_LOG;
        self.label_w = if self.short_rows { 46.0 } else { 78.0 };
        let key_w = if self.log_w > 560.0 { 118.0 } else { 0.0 };
        let avail = self.log_w - self.label_w - 12.0 - key_w;
        // Eight cells at least, unless they would be thinner than a cell's
        // colour and mark can be told apart in: then as many as are that wide.
        let fewest = ((avail / MIN_CELL) as usize).clamp(3, 8);
        self.cells = ((avail / 22.0) as usize).clamp(fewest, 30);
        self.cell_w = (avail / self.cells as f64).min(26.0);
        self.key_x = if key_w > 0.0 {
            self.log_x + self.label_w + self.cell_w * self.cells as f64 + 16.0
        } else {
            0.0
        };

        self.small = !self.narrow && width < SMALL_WIDTH;
        self.cramped = self.narrow && width < CRAMPED_WIDTH;
        let top = clamp(self.top_inset, 0.0, height / 3.0);
        // A narrow column's cluster name and caption go on top.
        self.name_y = top + 10.0;
        let top = if self.narrow {
            top + 34.0 + self.caption_more()
        } else {
            top
        };
        let top_h = (self.log_y - top).max(80.0);
        self.cx = left + width / 2.0;
        self.cy = top + top_h / 2.0;
        // Room outside the ring for each node's labels and bars: three lines
        // above the top node and below a bottom one, wide text at the sides.
        self.ring = ((width / 2.0) - 160.0).min(top_h / 2.0 - 84.0).max(40.0);
        // A cramped column's labels are short: the ring takes the column's
        // width but for a side node's disc and a little, its nodes are
        // smaller, and above the top node and under the bottom one there is
        // room for one line (the node, at most CRAMPED_NODE of the ring
        // across and at least 13, its gap of 13, a line of 14 and 2 to
        // spare), so that a side node's block, gone under it, clears the
        // bottom node.
        let reserve = if self.cramped {
            let across = width / 2.0 - 45.0;
            let reserve = clamp(CRAMPED_NODE * across.max(self.ring), 13.0, 28.0) + 29.0;
            self.ring = self.ring.max(across.min(top_h / 2.0 - reserve));
            reserve
        } else {
            84.0
        };
        self.ring_y = if self.narrow {
            clamp(top_h / 2.0 - reserve, self.ring, self.ring * 2.2)
        } else {
            self.ring
        };
        if self.small {
            // Short labels, which give way downwards when they would cover
            // their node (place_labels): the ring takes the width, wider
            // than tall when the height is short. Under the bottom node,
            // its gap and three lines of labels clear the log panel (a
            // 28-pixel disc, 13 of gap, three lines of 14).
            self.ring_y = (top_h / 2.0 - 84.0).max(40.0);
            self.ring = ((width / 2.0) - 58.0)
                .min(self.ring_y * 2.0)
                .max(self.ring_y);
        }
        let chord = if n > 1 {
            2.0 * self.ring.min(self.ring_y)
                * super::trig::sin_cos(std::f64::consts::PI / n as f64).0
        } else {
            self.ring.min(self.ring_y)
        };
        let most = if self.cramped { CRAMPED_NODE } else { 0.3 };
        self.node_r = clamp(
            (chord * 0.26).min(self.ring.min(self.ring_y) * most),
            13.0,
            28.0,
        );

        self.spots.clear();
        for (k, &(id, linked)) in nodes.iter().enumerate() {
            let angle = -std::f64::consts::FRAC_PI_2 + std::f64::consts::TAU * k as f64 / n as f64;
            let (dy, dx) = super::trig::sin_cos(angle);
            self.spots.push(Spot {
                id,
                x: self.cx + self.ring * dx,
                y: self.cy + self.ring_y * dy,
                dx,
                dy,
                linked,
            });
        }
    }

    /// The highest a node's labels may go: under the page's legend, or a
    /// narrow column's caption.
    pub fn labels_top(&self) -> f64 {
        if self.narrow {
            self.name_y + 22.0 + self.caption_more()
        } else {
            clamp(self.top_inset, 0.0, self.height / 3.0)
        }
    }

    /// The height a narrow column's caption takes beyond its first line.
    fn caption_more(&self) -> f64 {
        CAPTION_LINE * (self.caption_lines.max(1) - 1) as f64
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

/// A mirror process's place, between its two members' rings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MirrorSpot {
    pub id: NodeId,
    pub from: NodeId,
    pub to: NodeId,
    pub x: f64,
    pub y: f64,
}

/// The mirror's shape: a square this far from its centre to a side.
pub const MIRROR_R: f64 = 11.0;

/// Every cluster of a run, each in its column (one cluster: one column,
/// the whole canvas, as [`Layout`] alone), and the mirror processes.
#[derive(Debug, Clone, Default)]
pub struct Board {
    pub parts: Vec<Layout>,
    pub mirrors: Vec<MirrorSpot>,
    /// Room at the top left free for the page's legend, in CSS pixels.
    pub top_inset: f64,
    /// A button over the top-left corner (`Layout::corner`).
    pub corner: [f64; 2],
    /// Lines of each column's caption (`Layout::caption_lines`).
    pub caption_lines: usize,
}

impl Board {
    /// Lays out `clusters` (each one's nodes, id and linked) side by side
    /// and `mirrors` (id, from, to) between their members' rings.
    pub fn compute(
        &mut self,
        width: f64,
        height: f64,
        clusters: &[Vec<(NodeId, bool)>],
        mirrors: &[(NodeId, NodeId, NodeId)],
    ) {
        let k = clusters.len().max(1);
        let rows = clusters.iter().map(Vec::len).max().unwrap_or(0);
        let w = width / k as f64;
        self.parts.resize_with(clusters.len(), Layout::default);
        for (i, (part, nodes)) in self.parts.iter_mut().zip(clusters).enumerate() {
            part.top_inset = self.top_inset;
            part.corner = self.corner;
            part.caption_lines = self.caption_lines;
            part.narrow = clusters.len() > 1;
            part.compute_in(w * i as f64, w, height, rows, nodes);
        }
        self.mirrors.clear();
        for (i, &(id, from, to)) in mirrors.iter().enumerate() {
            let (Some((a, pa)), Some((b, pb))) = (self.spot(from), self.spot(to)) else {
                continue;
            };
            let (la, lb) = (&self.parts[pa], &self.parts[pb]);
            // Between the two rings, above their middles, where no label
            // goes; later mirrors lower down.
            let top = la.name_y + 48.0 + la.caption_more();
            let y = (la.cy - la.ring_y - 20.0).max(top) + 56.0 * i as f64;
            let x = if pa == pb {
                (a.x + b.x) / 2.0
            } else {
                (la.cx + lb.cx) / 2.0
            };
            self.mirrors.push(MirrorSpot { id, from, to, x, y });
        }
    }

    /// Node `id`'s spot and the index of its column.
    pub fn spot(&self, id: NodeId) -> Option<(&Spot, usize)> {
        self.parts
            .iter()
            .enumerate()
            .find_map(|(i, l)| l.spot(id).map(|s| (s, i)))
    }

    /// A mirror first, then whatever a column has under the point, then
    /// the nearest mirror link (`Hit::Link` with the mirror as `a`).
    pub fn hit(&self, x: f64, y: f64) -> Option<Hit> {
        if let Some(m) = self
            .mirrors
            .iter()
            .find(|m| (x - m.x).abs() <= MIRROR_R + 2.0 && (y - m.y).abs() <= MIRROR_R + 2.0)
        {
            return Some(Hit::Mirror(m.id));
        }
        if let Some(h) = self.parts.iter().find_map(|l| l.hit(x, y)) {
            return Some(h);
        }
        let mut best: Option<(f64, Hit)> = None;
        for m in &self.mirrors {
            for peer in [m.from, m.to] {
                let Some((s, i)) = self.spot(peer) else {
                    continue;
                };
                let r = self.parts[i].node_r + 3.0;
                let (d, t) = segment_distance(x, y, m.x, m.y, s.x, s.y);
                let len = (s.x - m.x).hypot(s.y - m.y);
                if d > LINK_SLOP || t * len < MIRROR_R || (1.0 - t) * len < r {
                    continue;
                }
                if best.is_none_or(|(bd, _)| d < bd) {
                    let near = if t <= 0.5 { m.id } else { peer };
                    best = Some((
                        d,
                        Hit::Link {
                            a: m.id,
                            b: peer,
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
    fn a_phones_canvas_is_small_its_ring_takes_the_width() {
        // 390x408 CSS pixels, as an iPhone held upright shows the canvas.
        let mut l = Layout::default();
        let nodes: Vec<_> = (1..=4).map(|id| (id, true)).collect();
        l.compute(390.0, 408.0, &nodes);
        assert!(l.small);
        // Wider than tall, and wider than the wide layout's room for long
        // labels would leave it (its 160 pixels a side: the 40 minimum).
        assert!(
            l.ring > l.ring_y && l.ring > 100.0,
            "{} x {}",
            l.ring,
            l.ring_y
        );
        for s in &l.spots {
            assert!(s.x - l.node_r >= 0.0 && s.x + l.node_r <= 390.0, "{s:?}");
            assert!(
                s.y - l.node_r >= l.top_inset && s.y + l.node_r < l.log_y,
                "{s:?}"
            );
        }
        // The discs stay apart.
        for (i, a) in l.spots.iter().enumerate() {
            for b in &l.spots[i + 1..] {
                assert!((a.x - b.x).hypot(a.y - b.y) > 2.0 * l.node_r, "{a:?} {b:?}");
            }
        }
        // A laptop's canvas is not small; nor is a column of several.
        l.compute(900.0, 600.0, &nodes);
        assert!(!l.small);
        let mut b = Board::default();
        b.compute(390.0, 360.0, &[nodes.clone(), nodes], &[]);
        assert!(b.parts.iter().all(|p| p.narrow && !p.small));
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

    /// Three clusters of two side by side.
    fn three_pairs(width: f64, height: f64) -> Board {
        let mut b = Board::default();
        let rings: Vec<_> = [1, 6, 11]
            .iter()
            .map(|&f| vec![(f, true), (f + 1, true)])
            .collect();
        b.compute(width, height, &rings, &[]);
        b
    }

    fn two_rings(width: f64, height: f64) -> Board {
        let mut b = Board {
            top_inset: 40.0,
            ..Board::default()
        };
        let main = vec![(1, true), (2, true), (3, true), (4, true)];
        let copy = vec![(11, true), (12, true), (13, true)];
        b.compute(width, height, &[main, copy], &[(9, 1, 11), (8, 1, 11)]);
        b
    }

    #[test]
    fn a_narrow_log_panel_names_rows_by_id_and_keeps_its_cells_readable() {
        // Two and three clusters on phones held upright: the row names
        // "node 12 (L)" left the cells under 4 px each.
        for (width, k) in [(390.0, 3), (360.0, 3), (390.0, 2), (412.0, 2)] {
            let mut b = Board::default();
            let ring = |base: u64| (base..base + 3).map(|id| (id, true)).collect::<Vec<_>>();
            let clusters: Vec<_> = (0..k).map(|i| ring(1 + 5 * i)).collect();
            b.compute(width, 460.0, &clusters, &[]);
            for l in &b.parts {
                assert!(l.short_rows, "{width} / {k}");
                assert!(
                    l.cell_w >= MIN_CELL && l.cells >= 3,
                    "{} cells of {}",
                    l.cells,
                    l.cell_w
                );
                let end = l.log_x + l.label_w + l.cell_w * l.cells as f64;
                assert!(end <= l.log_x + l.log_w, "the strips stay in the panel");
            }
        }
        // A lone cluster on a phone, and three on a laptop, keep the names.
        assert!(!three().short_rows);
        let b = three_pairs(920.0, 650.0);
        assert!(b.parts.iter().all(|l| !l.short_rows && l.cells >= 8));
        let mut phone = Layout::default();
        phone.compute(390.0, 460.0, &[(1, true), (2, true), (3, true)]);
        assert!(!phone.short_rows && phone.cells >= 8);
    }

    #[test]
    fn every_log_rows_name_fits_before_its_cells_in_each_language() {
        // Drawn in 12 px type from 10 px in: a full-width character about
        // 12 px wide, a space or a bracket 4, any other at most 7.
        // "ノード5（学）" ran into the cells.
        use crate::words::renderer::Renderer;
        use crate::words::{text_en::English, text_ja::Japanese};
        let width = |t: &str| -> f64 {
            t.chars()
                .map(|c| match c {
                    ' ' | '(' | ')' => 4.0,
                    c if c.len_utf8() > 1 => 12.0,
                    _ => 7.0,
                })
                .sum()
        };
        let mut wide = Layout::default();
        wide.compute(1280.0, 800.0, &[(1, true), (2, true), (3, true)]);
        let narrow = three_pairs(390.0, 460.0);
        let words: [&dyn Renderer; 2] = [&English, &Japanese];
        for l in [&wide, &narrow.parts[0]] {
            for w in words {
                for id in 1..=15 {
                    for learner in [false, true] {
                        let name = w.log_row(id, learner, l.short_rows);
                        assert!(10.0 + width(&name) <= l.label_w, "{name}: {}", l.label_w);
                    }
                }
            }
        }
    }

    #[test]
    fn one_cluster_on_a_board_is_laid_out_as_alone() {
        let mut b = Board::default();
        b.compute(900.0, 600.0, &[vec![(1, true), (2, true), (3, true)]], &[]);
        let l = three();
        assert_eq!(b.parts.len(), 1);
        assert_eq!(b.parts[0].spots, l.spots);
        assert_eq!(
            (b.parts[0].cx, b.parts[0].log_y, b.parts[0].cells),
            (l.cx, l.log_y, l.cells)
        );
        assert!(b.mirrors.is_empty());
    }

    #[test]
    fn clusters_stand_side_by_side_and_mirrors_between_them() {
        for (w, h) in [(1280.0, 800.0), (1024.0, 600.0), (700.0, 500.0)] {
            let b = two_rings(w, h);
            let (l, r) = (&b.parts[0], &b.parts[1]);
            // Each ring, with room for its labels, stays in its column.
            assert!(l.cx + l.ring + l.node_r < r.cx - r.ring - r.node_r, "{w}");
            assert!(l.cx - l.ring - l.node_r > 0.0 && r.cx + r.ring + r.node_r < w);
            assert!(l.log_x + l.log_w <= r.log_x, "the strips do not overlap");
            assert_eq!(l.cy, r.cy, "the rings stand level");
            for id in [1, 2, 3, 4, 11, 12, 13] {
                assert!(b.spot(id).is_some(), "node {id}");
            }
            assert_eq!(b.spot(12).unwrap().1, 1);
            assert_eq!(b.mirrors.len(), 2);
            for m in &b.mirrors {
                assert!(m.x > l.cx && m.x < r.cx, "between the rings");
                assert!(m.y > 0.0 && m.y < l.log_y, "above the strips");
                for part in &b.parts {
                    for s in &part.spots {
                        let d = (m.x - s.x).hypot(m.y - s.y);
                        assert!(d > part.node_r + MIRROR_R, "clear of node {}", s.id);
                    }
                }
            }
            assert!(b.mirrors[1].y > b.mirrors[0].y + 2.0 * MIRROR_R);
        }
    }

    #[test]
    fn a_point_hits_a_mirror_its_links_or_a_columns_node() {
        let b = two_rings(1280.0, 800.0);
        let m = b.mirrors[0];
        assert_eq!(b.hit(m.x + 3.0, m.y - 3.0), Some(Hit::Mirror(9)));
        let (one, _) = *b.spot(1).as_ref().unwrap();
        let (eleven, _) = *b.spot(11).as_ref().unwrap();
        let along = |s: &Spot, t: f64| (m.x + (s.x - m.x) * t, m.y + (s.y - m.y) * t);
        let (x, y) = along(one, 0.6);
        assert_eq!(
            b.hit(x, y),
            Some(Hit::Link {
                a: 9,
                b: 1,
                near: 1
            })
        );
        let (x, y) = along(eleven, 0.4);
        assert_eq!(
            b.hit(x, y),
            Some(Hit::Link {
                a: 9,
                b: 11,
                near: 9
            })
        );
        assert_eq!(b.hit(eleven.x, eleven.y), Some(Hit::Node(11)));
        // No link joins the two clusters' members.
        let (x, y) = ((one.x + eleven.x) / 2.0, (one.y + eleven.y) / 2.0 + 60.0);
        assert!(!matches!(b.hit(x, y), Some(Hit::Link { a: 1, b: 11, .. })));
    }
}
