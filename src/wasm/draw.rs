//! The canvas: links, messages in flight, nodes with their timers and the
//! leader's view of each peer, and one log strip per node. Everything is
//! read from the cluster; nothing here changes it. Drawing allocates little:
//! colours are static strings and per-frame text is a handful of labels.

use std::cell::{Cell, RefCell};
use std::fmt::Write;
use std::ops::Deref;

use wasm_bindgen::JsValue;
use web_sys::CanvasRenderingContext2d;

use crate::raft::{EntryData, NodeId, ProgressState, Raft, StateRole};
use crate::server::Cluster;
use crate::sim::membership::resolve_host;
use crate::sim::SimNode;

use super::layout::{Hit, Layout, Spot};
use super::palette as pal;

const TAU: f64 = std::f64::consts::TAU;

/// The 2D context with its state remembered: every string crossing into
/// JavaScript costs a decode, so a style already set is not set again.
pub struct Ctx<'a> {
    raw: &'a CanvasRenderingContext2d,
    fill: Cell<(usize, usize)>,
    stroke: Cell<(usize, usize)>,
    align: Cell<(usize, usize)>,
    baseline: Cell<(usize, usize)>,
    font: RefCell<String>,
    width: Cell<f64>,
    alpha: Cell<f64>,
}

fn key(s: &str) -> (usize, usize) {
    (s.as_ptr() as usize, s.len())
}

impl<'a> Ctx<'a> {
    pub fn new(raw: &'a CanvasRenderingContext2d) -> Ctx<'a> {
        // Unknown state: the first setting of each always goes through.
        Ctx {
            raw,
            fill: Cell::new((0, 0)),
            stroke: Cell::new((0, 0)),
            align: Cell::new((0, 0)),
            baseline: Cell::new((0, 0)),
            font: RefCell::new(String::new()),
            width: Cell::new(f64::NAN),
            alpha: Cell::new(f64::NAN),
        }
    }
    pub fn set_fill_style_str(&self, c: &str) {
        if self.fill.replace(key(c)) != key(c) {
            self.raw.set_fill_style_str(c);
        }
    }
    pub fn set_stroke_style_str(&self, c: &str) {
        if self.stroke.replace(key(c)) != key(c) {
            self.raw.set_stroke_style_str(c);
        }
    }
    pub fn set_text_align(&self, a: &str) {
        if self.align.replace(key(a)) != key(a) {
            self.raw.set_text_align(a);
        }
    }
    pub fn set_text_baseline(&self, b: &str) {
        if self.baseline.replace(key(b)) != key(b) {
            self.raw.set_text_baseline(b);
        }
    }
    pub fn set_font(&self, f: &str) {
        let mut cur = self.font.borrow_mut();
        if *cur != f {
            cur.clear();
            cur.push_str(f);
            self.raw.set_font(f);
        }
    }
    pub fn set_line_width(&self, w: f64) {
        if self.width.replace(w) != w {
            self.raw.set_line_width(w);
        }
    }
    pub fn set_global_alpha(&self, a: f64) {
        if self.alpha.replace(a) != a {
            self.raw.set_global_alpha(a);
        }
    }
}

impl Deref for Ctx<'_> {
    type Target = CanvasRenderingContext2d;
    fn deref(&self) -> &CanvasRenderingContext2d {
        self.raw
    }
}

/// Line-dash patterns, made once (each is a JavaScript array).
pub struct Dashes {
    solid: JsValue,
    dashed: JsValue,
    dotted: JsValue,
}

impl Dashes {
    pub fn new() -> Dashes {
        let arr = |v: &[f64]| -> JsValue {
            let a = js_sys::Array::new();
            for x in v {
                a.push(&JsValue::from_f64(*x));
            }
            a.into()
        };
        Dashes {
            solid: arr(&[]),
            dashed: arr(&[5.0, 4.0]),
            dotted: arr(&[1.5, 4.0]),
        }
    }
}

/// What the drawing needs to know about one node, gathered once a frame.
pub struct NodeView<'a> {
    pub id: NodeId,
    pub sim: Option<&'a SimNode>,
    pub raft: Option<&'a Raft>,
    pub learner: bool,
    pub removed: bool,
    /// A member whose process never ran.
    pub never_started: bool,
    /// Its peer URL reaches no simulated host (the misconfigured member).
    pub bad_url: Option<String>,
}

/// Everyone the cluster knows of, lowest id first, with the authority's view
/// of who is a learner.
pub fn node_views(c: &Cluster) -> Vec<NodeView<'_>> {
    let w = c.world();
    let auth = c.authority().and_then(|a| w.node(a));
    c.known_ids()
        .into_iter()
        .map(|id| {
            let sim = w.node(id);
            let record = auth.and_then(|a| a.state.members.get(&id));
            let learner = match (record, sim) {
                (Some(m), _) => m.learner,
                (None, Some(s)) => s.is_learner(),
                _ => false,
            };
            let removed = sim.is_some_and(|s| s.removed)
                || auth.is_some_and(|a| a.state.removed.contains(&id));
            let bad_url = record
                .filter(|m| resolve_host(&m.peer_url) != Some(id))
                .map(|m| m.peer_url.to_string());
            NodeView {
                id,
                sim,
                raft: sim.and_then(|s| s.raft.as_ref()),
                learner,
                removed,
                never_started: sim.is_none_or(|s| s.raft.is_none() && s.epoch == 0),
                bad_url,
            }
        })
        .collect()
}

/// The frame's state shared by the drawing functions.
pub struct Frame<'a> {
    pub ctx: &'a Ctx<'a>,
    pub layout: &'a Layout,
    pub cluster: &'a Cluster,
    pub views: &'a [NodeView<'a>],
    /// Simulated time with the sub-millisecond carry, for smooth motion.
    pub t: f64,
    pub hover: Option<Hit>,
    pub dashes: &'a Dashes,
}

pub fn frame(f: &Frame) {
    let ctx = f.ctx;
    let l = f.layout;
    ctx.set_fill_style_str(pal::BACKGROUND);
    ctx.fill_rect(0.0, 0.0, l.width, l.height);
    ctx.set_line_cap("round");
    links(f);
    messages(f);
    let leader = f.cluster.leader().and_then(|id| f.cluster.world().raft(id));
    for (v, s) in f.views.iter().zip(&l.spots) {
        node(f, v, s, leader);
    }
    log_panel(f);
}

fn set_dash(ctx: &Ctx, d: &JsValue) {
    let _ = ctx.set_line_dash(d);
}

fn circle(ctx: &Ctx, x: f64, y: f64, r: f64) {
    ctx.begin_path();
    let _ = ctx.arc(x, y, r, 0.0, TAU);
}

fn hexagon(ctx: &Ctx, x: f64, y: f64, r: f64) {
    ctx.begin_path();
    for k in 0..6 {
        let a = TAU * k as f64 / 6.0;
        let (px, py) = (x + r * a.cos(), y + r * a.sin());
        if k == 0 {
            ctx.move_to(px, py);
        } else {
            ctx.line_to(px, py);
        }
    }
    ctx.close_path();
}

fn text(ctx: &Ctx, s: &str, x: f64, y: f64) {
    let _ = ctx.fill_text(s, x, y);
}

/// Each direction of a link has its own lane, a little to its right, so
/// messages going both ways and one-way cuts can be told apart.
fn lane(a: &Spot, b: &Spot, r: f64) -> Option<(f64, f64, f64, f64)> {
    let (vx, vy) = (b.x - a.x, b.y - a.y);
    let len = vx.hypot(vy);
    if len < 2.0 * r + 1.0 {
        return None;
    }
    let (ux, uy) = (vx / len, vy / len);
    let off = 3.5;
    let (nx, ny) = (-uy * off, ux * off);
    Some((
        a.x + ux * r + nx,
        a.y + uy * r + ny,
        b.x - ux * r + nx,
        b.y - uy * r + ny,
    ))
}

fn links(f: &Frame) {
    let ctx = f.ctx;
    let l = f.layout;
    let net = f.cluster.world().network();
    let r = l.node_r + 2.0;
    for (i, a) in l.spots.iter().enumerate() {
        for (j, b) in l.spots.iter().enumerate().skip(i + 1) {
            if !a.linked || !b.linked {
                continue;
            }
            let (ab, ba) = (net.is_cut(a.id, b.id), net.is_cut(b.id, a.id));
            let hovered = matches!(f.hover, Some(Hit::Link { a: ha, b: hb, .. })
                if (ha, hb) == (a.id, b.id) || (ha, hb) == (b.id, a.id));
            // A member whose peer URL reaches no host: nobody gets through.
            let no_route = f.views.get(i).is_some_and(|v| v.bad_url.is_some())
                || f.views.get(j).is_some_and(|v| v.bad_url.is_some());
            if !ab && !ba {
                ctx.set_stroke_style_str(if hovered { pal::HOVER } else { pal::LINK });
                ctx.set_line_width(if hovered { 3.0 } else { 1.5 });
                set_dash(
                    ctx,
                    if no_route {
                        &f.dashes.dotted
                    } else {
                        &f.dashes.solid
                    },
                );
                ctx.begin_path();
                ctx.move_to(a.x, a.y);
                ctx.line_to(b.x, b.y);
                ctx.stroke();
                continue;
            }
            for (from, to, cut) in [(a, b, ab), (b, a, ba)] {
                let Some((x0, y0, x1, y1)) = lane(from, to, r) else {
                    continue;
                };
                ctx.set_line_width(if hovered { 3.0 } else { 1.8 });
                if cut {
                    ctx.set_stroke_style_str(pal::LINK_CUT);
                    set_dash(ctx, &f.dashes.dashed);
                } else {
                    ctx.set_stroke_style_str(if hovered { pal::HOVER } else { pal::LINK });
                    set_dash(ctx, &f.dashes.solid);
                }
                ctx.begin_path();
                ctx.move_to(x0, y0);
                ctx.line_to(x1, y1);
                ctx.stroke();
            }
            set_dash(ctx, &f.dashes.solid);
            let (mx, my) = ((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
            if ab && ba {
                cross(ctx, mx, my, 6.0, pal::LINK_CUT);
            } else {
                // One way only: an arrow along the cut direction, stopped by a bar.
                let (from, to) = if ab { (a, b) } else { (b, a) };
                blocked_arrow(ctx, from, to, mx, my);
            }
        }
    }
    set_dash(ctx, &f.dashes.solid);
}

fn cross(ctx: &Ctx, x: f64, y: f64, s: f64, colour: &str) {
    ctx.set_fill_style_str(pal::BACKGROUND);
    circle(ctx, x, y, s + 3.0);
    ctx.fill();
    ctx.set_stroke_style_str(colour);
    ctx.set_line_width(2.5);
    ctx.begin_path();
    ctx.move_to(x - s, y - s);
    ctx.line_to(x + s, y + s);
    ctx.move_to(x + s, y - s);
    ctx.line_to(x - s, y + s);
    ctx.stroke();
}

fn blocked_arrow(ctx: &Ctx, from: &Spot, to: &Spot, mx: f64, my: f64) {
    let (vx, vy) = (to.x - from.x, to.y - from.y);
    let len = vx.hypot(vy).max(1.0);
    let (ux, uy) = (vx / len, vy / len);
    let (nx, ny) = (-uy, ux);
    ctx.set_fill_style_str(pal::BACKGROUND);
    circle(ctx, mx, my, 11.0);
    ctx.fill();
    ctx.set_stroke_style_str(pal::LINK_CUT);
    ctx.set_line_width(2.5);
    ctx.begin_path();
    // Shaft and head pointing at the receiver.
    ctx.move_to(mx - ux * 9.0, my - uy * 9.0);
    ctx.line_to(mx + ux * 4.0, my + uy * 4.0);
    ctx.move_to(
        mx + ux * 4.0 - ux * 5.0 + nx * 4.0,
        my + uy * 4.0 - uy * 5.0 + ny * 4.0,
    );
    ctx.line_to(mx + ux * 4.0, my + uy * 4.0);
    ctx.line_to(
        mx + ux * 4.0 - ux * 5.0 - nx * 4.0,
        my + uy * 4.0 - uy * 5.0 - ny * 4.0,
    );
    // The bar it runs into.
    ctx.move_to(mx + ux * 8.0 + nx * 6.0, my + uy * 8.0 + ny * 6.0);
    ctx.line_to(mx + ux * 8.0 - nx * 6.0, my + uy * 8.0 - ny * 6.0);
    ctx.stroke();
}

/// Radius of a message dot: grows with the log of its size.
pub fn message_radius(bytes: u64) -> f64 {
    let b = (bytes.max(64) as f64 / 64.0).log2();
    (2.6 + 0.9 * b).min(10.0)
}

fn messages(f: &Frame) {
    let ctx = f.ctx;
    let l = f.layout;
    let r = l.node_r + 2.0;
    // Messages still queued at their sender all sit at the same spot: one
    // dot per direction is enough (the sender's label gives the bytes).
    let mut queued_drawn = [[false; 16]; 16];
    for m in f.cluster.world().network().in_flight() {
        if (m.departs_ms as f64) > f.t {
            let (from, to) = (m.msg.from as usize, m.msg.to as usize);
            if from < 16 && to < 16 {
                if queued_drawn[from][to] {
                    continue;
                }
                queued_drawn[from][to] = true;
            }
        }
        let (Some(a), Some(b)) = (l.spot(m.msg.from), l.spot(m.msg.to)) else {
            continue;
        };
        let Some((x0, y0, x1, y1)) = lane(a, b, r) else {
            continue;
        };
        let span = (m.arrives_ms as f64 - m.departs_ms as f64).max(1.0);
        let p = ((f.t - m.departs_ms as f64) / span).clamp(0.0, 1.0);
        let (x, y) = (x0 + (x1 - x0) * p, y0 + (y1 - y0) * p);
        let kind = m.msg.msg_type;
        ctx.set_fill_style_str(pal::message(kind));
        circle(ctx, x, y, message_radius(m.size));
        ctx.fill();
        if m.msg.reject && kind.is_response() {
            // A rejection: a dark ring inside the dot.
            ctx.set_stroke_style_str(pal::BACKGROUND);
            ctx.set_line_width(1.2);
            circle(ctx, x, y, message_radius(m.size) * 0.5);
            ctx.stroke();
        }
    }
}

/// One line of the labels stacked outside a node.
enum Label {
    Text(String, &'static str),
    /// A learner's catch-up: match / leader match, with etcd's 90% line.
    Bar(f64),
}

fn node(f: &Frame, v: &NodeView, s: &Spot, leader: Option<&Raft>) {
    let ctx = f.ctx;
    let r = f.layout.node_r;
    let role = v.raft.map(Raft::role);
    let colour = if v.never_started {
        pal::NOT_STARTED
    } else {
        pal::role(role)
    };
    let faded = v.removed;
    if faded {
        ctx.set_global_alpha(0.35);
    }
    // The leader's halo.
    if role == Some(StateRole::Leader) {
        ctx.set_stroke_style_str(pal::LEADER);
        ctx.set_global_alpha(0.3);
        ctx.set_line_width(6.0);
        circle(ctx, s.x, s.y, r + 7.0);
        ctx.stroke();
        ctx.set_global_alpha(1.0);
    }
    // The election timer: an arc that fills until the node campaigns.
    if let Some(raft) = v.raft {
        if !v.learner && role != Some(StateRole::Leader) {
            let total = f64::from(raft.randomized_election_timeout().max(1));
            let frac = (f64::from(raft.election_elapsed()) / total).clamp(0.0, 1.0);
            ctx.set_line_width(3.0);
            ctx.set_stroke_style_str(pal::TIMER_TRACK);
            circle(ctx, s.x, s.y, r + 6.0);
            ctx.stroke();
            ctx.set_stroke_style_str(if frac > 0.75 {
                pal::CANDIDATE
            } else {
                pal::TIMER
            });
            ctx.begin_path();
            let start = -std::f64::consts::FRAC_PI_2;
            let _ = ctx.arc(s.x, s.y, r + 6.0, start, start + TAU * frac);
            ctx.stroke();
        }
    }
    // The body: a solid disc for a voter, a hollow dashed hexagon for a learner.
    let hovered = f.hover == Some(Hit::Node(v.id));
    if v.learner {
        hexagon(ctx, s.x, s.y, r + 2.0);
        ctx.set_fill_style_str(colour);
        ctx.set_global_alpha(if faded { 0.1 } else { 0.22 });
        ctx.fill();
        ctx.set_global_alpha(if faded { 0.35 } else { 1.0 });
        set_dash(ctx, &f.dashes.dashed);
        ctx.set_line_width(2.5);
        ctx.set_stroke_style_str(if hovered { pal::HOVER } else { colour });
        ctx.stroke();
        set_dash(ctx, &f.dashes.solid);
    } else if v.never_started {
        circle(ctx, s.x, s.y, r);
        ctx.set_fill_style_str(pal::PANEL);
        ctx.fill();
        set_dash(ctx, &f.dashes.dashed);
        ctx.set_line_width(2.0);
        ctx.set_stroke_style_str(if hovered { pal::HOVER } else { pal::TEXT_FAINT });
        ctx.stroke();
        set_dash(ctx, &f.dashes.solid);
    } else {
        circle(ctx, s.x, s.y, r);
        ctx.set_fill_style_str(colour);
        ctx.fill();
        if hovered {
            ctx.set_stroke_style_str(pal::HOVER);
            ctx.set_line_width(2.5);
            ctx.stroke();
        }
    }
    // Id and term inside.
    let dark_text = !v.learner && !v.never_started && role.is_some();
    ctx.set_fill_style_str(if dark_text {
        pal::NODE_TEXT_DARK
    } else {
        pal::TEXT
    });
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    let big = (r * 0.78).round();
    let mut buf = String::new();
    let _ = write!(buf, "bold {big}px system-ui, sans-serif");
    ctx.set_font(&buf);
    let term = v.raft.map(Raft::term).or_else(|| {
        v.sim
            .filter(|_| !v.never_started)
            .map(|s| s.durable.hard_state.term)
    });
    let id_y = if term.is_some() && r >= 17.0 {
        s.y - r * 0.18
    } else {
        s.y
    };
    buf.clear();
    let _ = write!(buf, "{}", v.id);
    text(ctx, &buf, s.x, id_y);
    if let (Some(t), true) = (term, r >= 17.0) {
        buf.clear();
        let _ = write!(buf, "{}px system-ui, sans-serif", (r * 0.42).round());
        ctx.set_font(&buf);
        buf.clear();
        let _ = write!(buf, "t{t}");
        text(ctx, &buf, s.x, s.y + r * 0.48);
    }
    if role.is_none() && !v.never_started && !v.removed {
        cross(ctx, s.x + r * 0.7, s.y - r * 0.7, 5.0, pal::BAD);
    }
    ctx.set_global_alpha(1.0);

    // Labels outside the ring.
    let mut labels: Vec<Label> = Vec::with_capacity(4);
    let mut head = String::new();
    if v.learner {
        head.push_str("learner · ");
    }
    head.push_str(if v.removed {
        "removed"
    } else if v.never_started {
        "not started"
    } else {
        role.map_or("down", StateRole::name)
    });
    labels.push(Label::Text(
        head,
        if v.removed {
            pal::TEXT_FAINT
        } else {
            colour_for_label(colour)
        },
    ));
    if let Some(url) = &v.bad_url {
        labels.push(Label::Text(format!("unreachable URL {url}"), pal::BAD));
    }
    if let Some(l) = leader.filter(|l| l.id() != v.id) {
        if let Some(p) = l.tracker().progress.get(&v.id) {
            let (state, col) = match p.state {
                ProgressState::Probe => ("probe", pal::TEXT_DIM),
                ProgressState::Replicate => ("replicate", pal::GOOD),
                ProgressState::Snapshot => ("snapshot", pal::SNAPSHOT),
            };
            let text = if f.views.len() <= 5 {
                format!("match {} · next {} · {state}", p.matched, p.next_idx)
            } else {
                format!("m {} · n {} · {state}", p.matched, p.next_idx)
            };
            labels.push(Label::Text(text, col));
            if v.learner {
                let lm = l
                    .tracker()
                    .progress
                    .get(&l.id())
                    .map_or(l.last_index(), |p| p.matched)
                    .max(1);
                labels.push(Label::Bar(p.matched as f64 / lm as f64));
            }
        }
    }
    // Bytes waiting in the node's outgoing queues (the report's queued_bytes).
    let world = f.cluster.world();
    let queued = world
        .network()
        .queued_bytes(v.id, f.t.max(0.0) as u64, world.config().bandwidth);
    if queued >= 4096 {
        labels.push(Label::Text(
            format!("send queue {}", bytes_text(queued)),
            pal::SNAPSHOT,
        ));
    }
    place_labels(ctx, f.layout, s, &labels);
}

fn colour_for_label(c: &'static str) -> &'static str {
    if c == pal::DOWN || c == pal::NOT_STARTED {
        pal::TEXT_DIM
    } else {
        c
    }
}

pub fn bytes_text(b: u64) -> String {
    if b >= 1 << 20 {
        format!("{:.1} MB", b as f64 / (1u64 << 20) as f64)
    } else if b >= 1 << 10 {
        format!("{:.0} KB", b as f64 / 1024.0)
    } else {
        format!("{b} B")
    }
}

const LABEL_LINE: f64 = 14.0;
const BAR_W: f64 = 96.0;

fn place_labels(ctx: &Ctx, l: &Layout, s: &Spot, labels: &[Label]) {
    let gap = l.node_r + 13.0;
    let ax = s.x + s.dx * gap;
    let ay = s.y + s.dy * gap;
    let align = if s.dx > 0.2 {
        "left"
    } else if s.dx < -0.2 {
        "right"
    } else {
        "center"
    };
    let total = labels.len() as f64 * LABEL_LINE;
    let top = if s.dy < -0.5 {
        ay - total
    } else if s.dy > 0.5 {
        ay
    } else {
        ay - total / 2.0
    };
    ctx.set_text_align(align);
    ctx.set_text_baseline("middle");
    ctx.set_font("12px system-ui, sans-serif");
    // Keep the widest line inside the canvas.
    let widest = labels
        .iter()
        .map(|label| match label {
            Label::Text(t, _) => ctx.measure_text(t).map_or(0.0, |m| m.width()),
            Label::Bar(_) => BAR_W,
        })
        .fold(0.0, f64::max);
    let ax = match align {
        "right" => ax.max(widest + 4.0),
        "left" => ax.min(l.width - widest - 4.0),
        // Not clamp(): on a canvas narrower than the text its bounds cross.
        _ => ax.min(l.width - widest / 2.0 - 4.0).max(widest / 2.0 + 4.0),
    };
    for (i, label) in labels.iter().enumerate() {
        let y = top + LABEL_LINE * (i as f64 + 0.5);
        match label {
            Label::Text(t, c) => {
                ctx.set_fill_style_str(c);
                text(ctx, t, ax, y);
            }
            Label::Bar(frac) => {
                let x = match align {
                    "left" => ax,
                    "right" => ax - BAR_W,
                    _ => ax - BAR_W / 2.0,
                };
                catchup_bar(ctx, x, y, *frac);
            }
        }
    }
}

fn catchup_bar(ctx: &Ctx, x: f64, y: f64, frac: f64) {
    let (w, h) = (BAR_W - 34.0, 7.0);
    let frac = frac.clamp(0.0, 1.0);
    ctx.set_fill_style_str(pal::GRID);
    ctx.fill_rect(x, y - h / 2.0, w, h);
    ctx.set_fill_style_str(if frac >= 0.9 { pal::GOOD } else { pal::LEADER });
    ctx.fill_rect(x, y - h / 2.0, w * frac, h);
    // etcd promotes a learner only once its match is 90% of the leader's.
    ctx.set_fill_style_str(pal::TEXT);
    ctx.fill_rect(x + w * 0.9 - 0.75, y - h / 2.0 - 3.0, 1.5, h + 6.0);
    ctx.set_text_align("left");
    ctx.set_fill_style_str(pal::TEXT_DIM);
    ctx.set_font("11px system-ui, sans-serif");
    let pct = (frac * 100.0).floor() as u32;
    let mut b = String::new();
    let _ = write!(b, "{pct}%");
    text(ctx, &b, x + w + 5.0, y);
}

/// The legend of the strips' marks, right of them.
fn log_key(ctx: &Ctx, l: &Layout) {
    let x = l.key_x;
    let line = 13.0;
    let mut y = l.log_y + 12.0;
    ctx.set_font("11px system-ui, sans-serif");
    ctx.set_text_align("left");
    ctx.set_text_baseline("middle");
    let items: [(&str, &str, u8); 6] = [
        ("commit", pal::COMMIT, 0),
        ("applied", pal::APPLIED, 1),
        ("snapshot", pal::SNAPSHOT, 0),
        ("member change", pal::TEXT, 2),
        ("uncommitted", pal::TEXT_DIM, 3),
        ("compacted", pal::GRID, 4),
    ];
    for (name, colour, mark) in items {
        if y > l.log_y + l.log_h - 6.0 {
            break;
        }
        ctx.set_fill_style_str(colour);
        match mark {
            0 => ctx.fill_rect(x + 4.0, y - 5.5, 2.0, 11.0),
            1 => {
                ctx.begin_path();
                ctx.move_to(x + 1.5, y + 4.0);
                ctx.line_to(x + 8.5, y + 4.0);
                ctx.line_to(x + 5.0, y - 2.0);
                ctx.close_path();
                ctx.fill();
            }
            2 => {
                ctx.begin_path();
                ctx.move_to(x + 5.0, y - 4.5);
                ctx.line_to(x + 9.5, y);
                ctx.line_to(x + 5.0, y + 4.5);
                ctx.line_to(x + 0.5, y);
                ctx.close_path();
                ctx.fill();
            }
            3 => {
                ctx.set_global_alpha(0.45);
                ctx.set_fill_style_str(pal::term(2));
                ctx.fill_rect(x, y - 5.0, 10.0, 10.0);
                ctx.set_global_alpha(1.0);
            }
            _ => ctx.fill_rect(x, y - 5.0, 10.0, 10.0),
        }
        ctx.set_fill_style_str(pal::TEXT_DIM);
        text(ctx, name, x + 16.0, y);
        y += line;
    }
}

/// Where a log strip reads its entries: a running node's log, or what a
/// crashed one kept on disk.
enum LogSource<'a> {
    Running(&'a crate::raft::Raft),
    Stored(&'a [crate::raft::Entry]),
}

/// One node's log as the strip shows it.
struct LogView<'a> {
    source: LogSource<'a>,
    /// The first entry still in the log.
    first: u64,
    snapshot: u64,
    commit: u64,
    applied: Option<u64>,
    last: u64,
}

impl LogView<'_> {
    fn entry(&self, index: u64) -> Option<&crate::raft::Entry> {
        match self.source {
            LogSource::Running(r) => r.entry(index),
            LogSource::Stored(entries) => {
                entries.get(usize::try_from(index.checked_sub(self.first)?).ok()?)
            }
        }
    }
}

fn log_view<'a>(v: &'a NodeView) -> Option<LogView<'a>> {
    if let Some(r) = v.raft {
        return Some(LogView {
            source: LogSource::Running(r),
            first: r.first_index(),
            snapshot: r.snapshot_index(),
            commit: r.commit(),
            applied: Some(r.applied()),
            last: r.last_index(),
        });
    }
    let s = v.sim.filter(|_| !v.never_started)?;
    let d = &s.durable;
    let snapshot = d.snapshot.metadata.index;
    Some(LogView {
        source: LogSource::Stored(&d.entries),
        first: d.entries.first().map_or(snapshot + 1, |e| e.index),
        snapshot,
        commit: d.hard_state.commit,
        applied: None,
        last: d.entries.last().map_or(snapshot, |e| e.index),
    })
}

fn log_panel(f: &Frame) {
    let ctx = f.ctx;
    let l = f.layout;
    ctx.set_fill_style_str(pal::PANEL);
    ctx.begin_path();
    let _ = ctx.round_rect_with_f64(l.log_x, l.log_y, l.log_w, l.log_h, 8.0);
    ctx.fill();

    let logs: Vec<Option<LogView>> = f.views.iter().map(log_view).collect();
    let hi = logs.iter().flatten().map(|g| g.last).max().unwrap_or(0);
    let cells = l.cells as u64;
    // The newest entries, unless the highest commit would fall out of view
    // (a leader far ahead of everyone): then keep it two thirds along.
    let commit = logs.iter().flatten().map(|g| g.commit).max().unwrap_or(0);
    let lo = (hi + 1)
        .saturating_sub(cells)
        .min(commit.saturating_sub(cells * 2 / 3))
        .max(1);
    let x0 = l.log_x + l.label_w;
    let cw = l.cell_w;

    ctx.set_font("11px system-ui, sans-serif");
    ctx.set_text_baseline("middle");
    ctx.set_text_align("left");
    ctx.set_fill_style_str(pal::TEXT_DIM);
    text(ctx, "log", l.log_x + 10.0, l.log_y + 12.0);
    ctx.set_text_align("center");
    let mut buf = String::new();
    for i in lo..lo + cells {
        // Every fifth index, and the first unless it would crowd the next.
        if i % 5 == 0 || (i == lo && i % 5 <= 2) {
            buf.clear();
            let _ = write!(buf, "{i}");
            ctx.set_fill_style_str(pal::TEXT_FAINT);
            text(
                ctx,
                &buf,
                x0 + (i - lo) as f64 * cw + cw / 2.0,
                l.log_y + 12.0,
            );
        }
    }

    if l.key_x > 0.0 {
        log_key(ctx, l);
    }
    let rh = l.row_h;
    let ch = rh - 4.0;
    ctx.set_font("10px system-ui, sans-serif");
    for (row, (v, g)) in f.views.iter().zip(&logs).enumerate() {
        let y = l.row_y(row);
        // The row's label: the node in its role's colour.
        let colour = if v.never_started {
            pal::TEXT_FAINT
        } else {
            colour_for_label(pal::role(v.raft.map(Raft::role)))
        };
        ctx.set_fill_style_str(colour);
        ctx.set_text_align("left");
        ctx.set_font("12px system-ui, sans-serif");
        buf.clear();
        let _ = write!(buf, "node {}", v.id);
        if v.learner {
            buf.push_str(" (L)");
        }
        text(ctx, &buf, l.log_x + 10.0, y + rh / 2.0);
        ctx.set_font("10px system-ui, sans-serif");
        let Some(g) = g else {
            ctx.set_fill_style_str(pal::TEXT_FAINT);
            text(ctx, "no log yet", x0 + 2.0, y + rh / 2.0);
            continue;
        };
        let first = g.first;
        for i in lo..lo + cells {
            let x = x0 + (i - lo) as f64 * cw;
            if i > g.last {
                ctx.set_stroke_style_str(pal::GRID);
                ctx.set_line_width(1.0);
                ctx.stroke_rect(x + 1.5, y + 2.5, cw - 3.0, ch - 1.0);
                continue;
            }
            if i < first {
                // Compacted into the snapshot.
                ctx.set_fill_style_str(pal::GRID);
                ctx.fill_rect(x + 1.0, y + 2.0, cw - 2.0, ch);
                continue;
            }
            let Some(e) = g.entry(i) else { continue };
            ctx.set_global_alpha(if i <= g.commit { 1.0 } else { 0.45 });
            ctx.set_fill_style_str(pal::term(e.term));
            ctx.fill_rect(x + 1.0, y + 2.0, cw - 2.0, ch);
            ctx.set_global_alpha(1.0);
            match &e.data {
                EntryData::ConfChange(_) | EntryData::ConfChangeV2(_) => {
                    // A membership change: a white diamond.
                    let (mx, my) = (x + cw / 2.0, y + 2.0 + ch / 2.0);
                    let d = (ch / 2.0 - 1.5).max(2.0);
                    ctx.set_fill_style_str(pal::TEXT);
                    ctx.begin_path();
                    ctx.move_to(mx, my - d);
                    ctx.line_to(mx + d, my);
                    ctx.line_to(mx, my + d);
                    ctx.line_to(mx - d, my);
                    ctx.close_path();
                    ctx.fill();
                }
                EntryData::Empty | EntryData::Publish(_) => {
                    ctx.set_fill_style_str(pal::BACKGROUND);
                    circle(ctx, x + cw / 2.0, y + 2.0 + ch / 2.0, 1.6);
                    ctx.fill();
                }
                EntryData::Put(_) => {}
            }
        }
        // Markers: snapshot boundary (orange), commit (white), applied (green).
        let marker = |index: u64, colour: &str, width: f64| {
            if index + 1 < lo || index >= lo + cells {
                return;
            }
            let x = x0 + (index + 1 - lo) as f64 * cw;
            ctx.set_fill_style_str(colour);
            ctx.fill_rect(x - width / 2.0, y, width, rh);
        };
        if g.snapshot > 0 {
            marker(g.snapshot, pal::SNAPSHOT, 2.0);
        }
        marker(g.commit, pal::COMMIT, 2.0);
        if let Some(a) = g.applied {
            if a + 1 >= lo && a < lo + cells {
                let x = x0 + (a + 1 - lo) as f64 * cw;
                ctx.set_fill_style_str(pal::APPLIED);
                ctx.begin_path();
                ctx.move_to(x - 3.5, y + rh);
                ctx.line_to(x + 3.5, y + rh);
                ctx.line_to(x, y + rh - 5.0);
                ctx.close_path();
                ctx.fill();
            }
        }
    }
}
