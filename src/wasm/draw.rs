//! The canvas: links, messages in flight, nodes with their timers and the
//! leader's view of each peer, and one log strip per node. Everything is
//! read from the cluster; nothing here changes it. Drawing allocates little:
//! colours are static strings and per-frame text is a handful of labels.

use std::cell::{Cell, RefCell};
use std::fmt::Write;
use std::ops::Deref;

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::app::dots;
use crate::app::layout::{lane, Board, Hit, Layout, Segment, Spot, CAPTION_LINE, MIRROR_R};
use crate::app::palette as pal;
use crate::app::scene::{self, Badge, Bar, Body, Key, Label, Mark, NodeLook, Slots, Strip};
use crate::server::fleet::Fleet;
use crate::server::Cluster;
use crate::session::view::{self, LogMark};
use crate::sim::SimNode;
use crate::words::renderer::Renderer;

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
    pub solid: JsValue,
    pub dashed: JsValue,
    pub dotted: JsValue,
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

/// One node as the frame draws it: its view, and its process for the log
/// strip.
pub struct Drawn<'a> {
    pub view: view::NodeView,
    pub sim: Option<&'a SimNode>,
}

/// Everyone the cluster knows of, lowest id first.
pub fn drawn(c: &Cluster) -> Vec<Drawn<'_>> {
    view::nodes(c)
        .into_iter()
        .map(|v| Drawn {
            sim: c.world().node(v.id),
            view: v,
        })
        .collect()
}

/// The frame's state shared by the drawing functions.
pub struct Frame<'a> {
    pub ctx: &'a Ctx<'a>,
    pub layout: &'a Layout,
    pub cluster: &'a Cluster,
    pub nodes: &'a [Drawn<'a>],
    /// The words of every label.
    pub words: &'a dyn Renderer,
    /// Simulated time with the sub-millisecond carry, for smooth motion.
    pub t: f64,
    pub hover: Option<Hit>,
    pub dashes: &'a Dashes,
    /// Device pixels per CSS pixel.
    pub dpr: f64,
    /// Messages drawn still (less motion asked for).
    pub still: bool,
}

/// Cluster `index` of the fleet; `pictures` keeps what is painted again
/// only when it changes (its links, its nodes' bodies).
pub fn frame(f: &Frame, index: usize, pictures: &mut Pictures) {
    let ctx = f.ctx;
    let l = f.layout;
    ctx.set_fill_style_str(pal::BACKGROUND);
    ctx.fill_rect(l.left, 0.0, l.width, l.height);
    ctx.set_line_cap("round");
    let no_route = f.nodes.iter().map(|d| d.view.bad_url.is_some());
    if let Some((key, part)) = scene::links_key(l, f.cluster, no_route, f.hover) {
        let [x0, y0, x1, y1] = part;
        let paint = |c: &Ctx| {
            c.set_fill_style_str(pal::BACKGROUND);
            c.fill_rect(x0 - 1.0, y0 - 1.0, x1 - x0 + 2.0, y1 - y0 + 2.0);
            links(&Frame { ctx: c, ..*f });
        };
        pictures.paint(ctx, f.dpr, !(index as u64), key, part, &paint);
    }
    messages(f);
    let room = scene::Room::in_layout(f.nodes.len(), l);
    let mut looks: Vec<NodeLook> = f
        .nodes
        .iter()
        .map(|d| {
            let hovered = f.hover == Some(Hit::Node(d.view.id));
            let queued = f.cluster.queued_bytes(d.view.id, f.t.max(0.0) as u64);
            scene::node_look(&d.view, f.words, hovered, room, queued)
        })
        .collect();
    // Where the labels go: each keeps what clears the rest.
    ctx.set_font(LABEL_FONT);
    let width = |t: &str| ctx.measure_text(t).map_or(0.0, |m| m.width());
    let mut labels: Vec<Vec<Label>> = looks
        .iter_mut()
        .map(|k| std::mem::take(&mut k.labels))
        .collect();
    let marks = scene::cut_marks(l, f.cluster);
    let places = scene::fit_labels(l, &mut labels, &marks, width);
    for (k, kept) in looks.iter_mut().zip(labels) {
        k.labels = kept;
    }
    for (((d, s), look), place) in f.nodes.iter().zip(&l.spots).zip(&looks).zip(&places) {
        node(f, pictures, &d.view, s, look, place);
    }
    log_panel(f);
}

/// A cluster's name and caption at the top of its column (when the
/// canvas shows several).
pub fn ring_name(ctx: &Ctx, l: &Layout, name: &str, caption: &str) {
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    ctx.set_font("bold 13px system-ui, sans-serif");
    ctx.set_fill_style_str(pal::TEXT);
    text(ctx, name, l.cx, l.name_y);
    ctx.set_font(CAPTION_FONT);
    ctx.set_fill_style_str(pal::TEXT_DIM);
    let y = l.name_y + 15.0;
    if l.caption_lines > 1 {
        let (first, second) = scene::split_caption(caption);
        text(ctx, first, l.cx, y);
        text(ctx, second, l.cx, y + CAPTION_LINE);
    } else {
        text(ctx, caption, l.cx, y);
    }
}

/// A node's labels' font.
const LABEL_FONT: &str = "12px system-ui, sans-serif";
/// The width of the background's halo around a label's letters.
const LABEL_HALO: f64 = 3.0;

const CAPTION_FONT: &str = "11px system-ui, sans-serif";

/// The width of the widest of `captions` as `ring_name` draws them.
pub fn caption_width(ctx: &CanvasRenderingContext2d, captions: &[String]) -> f64 {
    ctx.set_font(CAPTION_FONT);
    captions
        .iter()
        .filter_map(|c| ctx.measure_text(c).ok())
        .map(|m| m.width())
        .fold(0.0, f64::max)
}

/// The mirror processes: each a square between its two members' rings,
/// its two links (red and dashed, with a cross, when cut; a link cut one
/// way only, as a cluster's: each direction in its lane, the cut one red,
/// and an arrow stopped by a bar) and its state.
pub fn mirrors(
    ctx: &Ctx,
    b: &Board,
    fleet: &Fleet,
    views: &[view::MirrorView],
    hover: Option<Hit>,
    dashes: &Dashes,
    words: &dyn Renderer,
) {
    for spot in &b.mirrors {
        let Some(m) = views.iter().find(|v| v.report.id == spot.id) else {
            continue;
        };
        let process = fleet.mirror(spot.id);
        let is_cut = |a, b| process.is_some_and(|p| p.is_cut(a, b));
        let colour = match m.report.state {
            "watching" => pal::GOOD,
            "syncing" => pal::CANDIDATE,
            "failed" => pal::BAD,
            _ => pal::TEXT_FAINT,
        };
        for peer in [m.report.from, m.report.to] {
            let Some((s, i)) = b.spot(peer) else {
                continue;
            };
            let (out, back) = (is_cut(spot.id, peer), is_cut(peer, spot.id));
            let hovered =
                matches!(hover, Some(Hit::Link { a, b, .. }) if a == spot.id && b == peer);
            let (vx, vy) = (s.x - spot.x, s.y - spot.y);
            let len = vx.hypot(vy).max(1.0);
            let (ux, uy) = (vx / len, vy / len);
            let r = b.parts[i].node_r + 2.0;
            let plain = if hovered {
                pal::HOVER
            } else if matches!(m.report.state, "syncing" | "watching") {
                colour
            } else {
                // Over: a plain link, not to be taken for a cut one.
                pal::LINK
            };
            ctx.set_line_width(if hovered { 3.0 } else { 1.8 });
            // Both ways alike: one line. One way only: a lane each, to the
            // right of its direction (the mirror's lane first).
            let lanes: &[(f64, bool)] = if out == back {
                &[(0.0, out)]
            } else {
                &[(3.5, out), (-3.5, back)]
            };
            for &(off, cut) in lanes {
                let (nx, ny) = (-uy * off, ux * off);
                ctx.set_stroke_style_str(if cut { pal::LINK_CUT } else { plain });
                set_dash(ctx, if cut { &dashes.dashed } else { &dashes.dotted });
                ctx.begin_path();
                ctx.move_to(spot.x + ux * MIRROR_R + nx, spot.y + uy * MIRROR_R + ny);
                ctx.line_to(s.x - ux * r + nx, s.y - uy * r + ny);
                ctx.stroke();
            }
            set_dash(ctx, &dashes.solid);
            let (mx, my) = ((spot.x + s.x) / 2.0, (spot.y + s.y) / 2.0);
            if out && back {
                cross(ctx, mx, my, 6.0, pal::LINK_CUT);
            } else if out {
                blocked_arrow(ctx, (spot.x, spot.y), (s.x, s.y), mx, my);
            } else if back {
                blocked_arrow(ctx, (s.x, s.y), (spot.x, spot.y), mx, my);
            }
        }
        ctx.set_fill_style_str(pal::PANEL);
        ctx.begin_path();
        let side = 2.0 * MIRROR_R;
        let _ = ctx.round_rect_with_f64(spot.x - MIRROR_R, spot.y - MIRROR_R, side, side, 4.0);
        ctx.fill();
        ctx.set_line_width(2.5);
        ctx.set_stroke_style_str(if hover == Some(Hit::Mirror(spot.id)) {
            pal::HOVER
        } else {
            colour
        });
        ctx.stroke();
        ctx.set_text_align("center");
        ctx.set_text_baseline("middle");
        ctx.set_font("bold 12px system-ui, sans-serif");
        ctx.set_fill_style_str(pal::TEXT);
        let mut buf = String::new();
        let _ = write!(buf, "{}", spot.id);
        text(ctx, &buf, spot.x, spot.y);
        ctx.set_font("11px system-ui, sans-serif");
        let [head, tail] = words.mirror_caption(m);
        let lines = [(&head, colour), (&tail, pal::TEXT_DIM)];
        let widths = lines.map(|(line, _)| ctx.measure_text(line).map_or(0.0, |m| m.width()));
        let keep = scene::mirror_caption_lines(b, spot, &widths);
        for (i, ((line, c), w)) in lines.iter().zip(widths).enumerate().take(keep) {
            // On the background: another mirror's links may pass behind.
            let (w, y) = (w + 6.0, scene::mirror_line_y(spot, i));
            ctx.set_fill_style_str(pal::BACKGROUND);
            ctx.fill_rect(spot.x - w / 2.0, y - 7.0, w, 14.0);
            ctx.set_fill_style_str(c);
            text(ctx, line, spot.x, y);
        }
    }
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
        let (sin, cos) = crate::app::trig::sin_cos(TAU * k as f64 / 6.0);
        let (px, py) = (x + r * cos, y + r * sin);
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

fn links(f: &Frame) {
    let ctx = f.ctx;
    let l = f.layout;
    let r = l.node_r + 2.0;
    for (i, a) in l.spots.iter().enumerate() {
        for (j, b) in l.spots.iter().enumerate().skip(i + 1) {
            if !a.linked || !b.linked {
                continue;
            }
            let (ab, ba) = (f.cluster.is_cut(a.id, b.id), f.cluster.is_cut(b.id, a.id));
            let hovered = matches!(f.hover, Some(Hit::Link { a: ha, b: hb, .. })
                if (ha, hb) == (a.id, b.id) || (ha, hb) == (b.id, a.id));
            // A member whose peer URL reaches no host: nobody gets through.
            let no_route = f.nodes.get(i).is_some_and(|d| d.view.bad_url.is_some())
                || f.nodes.get(j).is_some_and(|d| d.view.bad_url.is_some());
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
                let Some(Segment { x0, y0, x1, y1 }) = lane(from, to, r) else {
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
                blocked_arrow(ctx, (from.x, from.y), (to.x, to.y), mx, my);
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

fn blocked_arrow(ctx: &Ctx, from: (f64, f64), to: (f64, f64), mx: f64, my: f64) {
    let (vx, vy) = (to.0 - from.0, to.1 - from.1);
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

fn messages(f: &Frame) {
    let ctx = f.ctx;
    // A held direction: a bar across its lane at the receiver's side, the
    // held messages queued behind it (`app::dots`).
    for g in dots::gates(f.layout, f.cluster) {
        let (nx, ny) = (-g.uy, g.ux);
        ctx.set_stroke_style_str(pal::HELD);
        ctx.set_line_width(3.0);
        ctx.begin_path();
        ctx.move_to(g.x + nx * 6.0, g.y + ny * 6.0);
        ctx.line_to(g.x - nx * 6.0, g.y - ny * 6.0);
        ctx.stroke();
    }
    let hovered = match f.hover {
        Some(Hit::Message { id, from, .. }) => f.layout.spot(from).map(|_| id),
        _ => None,
    };
    for d in dots::dots(f.layout, f.cluster, f.t, f.still) {
        ctx.set_fill_style_str(pal::message(d.kind));
        circle(ctx, d.x, d.y, d.r);
        ctx.fill();
        if d.reject && d.kind.is_response() {
            // A rejection: a dark ring inside the dot.
            ctx.set_stroke_style_str(pal::BACKGROUND);
            ctx.set_line_width(1.2);
            circle(ctx, d.x, d.y, d.r * 0.5);
            ctx.stroke();
        }
        if d.held || hovered == Some(d.id) {
            // Held: an amber ring; under the pointer: a white one.
            ctx.set_stroke_style_str(if hovered == Some(d.id) {
                pal::HOVER
            } else {
                pal::HELD
            });
            ctx.set_line_width(1.5);
            circle(ctx, d.x, d.y, d.r + 1.5);
            ctx.stroke();
        }
    }
}

/// Node `v` at `s`, looking as `look`, its labels placed as `place`.
fn node(
    f: &Frame,
    pictures: &mut Pictures,
    v: &view::NodeView,
    s: &Spot,
    look: &NodeLook,
    place: &scene::Placement,
) {
    let ctx = f.ctx;
    let r = f.layout.node_r;
    // The still parts come from the node's picture, painted again only
    // when they change; what moves is drawn over it. The picture has room
    // for the halo, the track and a learner's badge.
    let half = r * 1.6 + 10.0;
    let part = [s.x - half, s.y - half, s.x + half, s.y + half];
    let key = look.still().n(v.id).f(s.x).f(s.y).f(r);
    let paint = |c: &Ctx| body(c, look, v.id, s.x, s.y, r, f.dashes);
    pictures.paint(ctx, f.dpr, v.id, key, part, &paint);
    if look.faded {
        ctx.set_global_alpha(0.35);
    }
    // The election timer: an arc that fills until the node campaigns.
    if let Some((frac, arc_colour)) = look.timer {
        ctx.set_line_width(3.0);
        ctx.set_stroke_style_str(arc_colour);
        ctx.begin_path();
        let start = -std::f64::consts::FRAC_PI_2;
        let _ = ctx.arc(s.x, s.y, r + 6.0, start, start + TAU * frac);
        ctx.stroke();
    }
    // Failover's countdown: a red arc that shrinks as failover-after runs out.
    if let Some(left) = look.countdown {
        ctx.set_line_width(3.0);
        ctx.set_stroke_style_str(pal::COUNTDOWN);
        ctx.begin_path();
        let start = -std::f64::consts::FRAC_PI_2;
        let _ = ctx.arc(s.x, s.y, r + 11.0, start, start + TAU * left.max(0.02));
        ctx.stroke();
    }
    ctx.set_global_alpha(1.0);
    labels(ctx, place, &look.labels);
}

/// What of a node changes only with its look (its timer's arc, its
/// countdown and its labels aside): halo, the timer's track, body, id
/// and term, marks.
fn body(ctx: &Ctx, look: &NodeLook, id: u64, x: f64, y: f64, r: f64, dashes: &Dashes) {
    let colour = look.colour;
    if look.faded {
        ctx.set_global_alpha(0.35);
    }
    if look.halo {
        ctx.set_stroke_style_str(pal::LEADER);
        ctx.set_global_alpha(0.3);
        ctx.set_line_width(6.0);
        circle(ctx, x, y, r + 7.0);
        ctx.stroke();
        ctx.set_global_alpha(1.0);
    }
    if look.timer.is_some() {
        ctx.set_line_width(3.0);
        ctx.set_stroke_style_str(pal::TIMER_TRACK);
        circle(ctx, x, y, r + 6.0);
        ctx.stroke();
    }
    match look.body {
        Body::Hexagon => {
            hexagon(ctx, x, y, r + 2.0);
            ctx.set_fill_style_str(colour);
            ctx.set_global_alpha(if look.faded { 0.1 } else { 0.22 });
            ctx.fill();
            ctx.set_global_alpha(if look.faded { 0.35 } else { 1.0 });
            set_dash(ctx, &dashes.dashed);
            ctx.set_line_width(2.5);
            ctx.set_stroke_style_str(look.outline.unwrap_or(colour));
            ctx.stroke();
            set_dash(ctx, &dashes.solid);
        }
        Body::NotStarted => {
            circle(ctx, x, y, r);
            ctx.set_fill_style_str(pal::PANEL);
            ctx.fill();
            set_dash(ctx, &dashes.dashed);
            ctx.set_line_width(2.0);
            ctx.set_stroke_style_str(look.outline.unwrap_or(pal::TEXT_FAINT));
            ctx.stroke();
            set_dash(ctx, &dashes.solid);
        }
        Body::Disc => {
            circle(ctx, x, y, r);
            ctx.set_fill_style_str(colour);
            ctx.fill();
            if let Some(outline) = look.outline {
                ctx.set_stroke_style_str(outline);
                ctx.set_line_width(2.5);
                ctx.stroke();
            }
        }
    }
    // Id and term inside.
    ctx.set_fill_style_str(if look.dark_text {
        pal::NODE_TEXT_DARK
    } else {
        pal::TEXT
    });
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    // Whole pixels, printed as integers: an f64 here would bring the
    // standard library's float printing into the module.
    let big = (r * 0.78).round() as i64;
    let mut buf = String::new();
    let _ = write!(buf, "bold {big}px system-ui, sans-serif");
    ctx.set_font(&buf);
    let term = look.term.filter(|_| scene::shows_term(r));
    let id_y = if term.is_some() { y - r * 0.18 } else { y };
    buf.clear();
    let _ = write!(buf, "{id}");
    text(ctx, &buf, x, id_y);
    if let Some(t) = term {
        buf.clear();
        let _ = write!(buf, "{}px system-ui, sans-serif", (r * 0.42).round() as i64);
        ctx.set_font(&buf);
        buf.clear();
        let _ = write!(buf, "t{t}");
        text(ctx, &buf, x, y + r * 0.48);
    }
    if look.down_mark {
        cross(ctx, x + r * 0.7, y - r * 0.7, 5.0, pal::BAD);
    }
    if let Some(b) = look.badge {
        badge(ctx, x + r * 0.8, y - r * 0.8, (r * 0.42).max(6.5), b);
    }
    ctx.set_global_alpha(1.0);
}

/// A picture of part of the canvas, painted at its resolution off the
/// page.
struct Picture {
    key: Key,
    canvas: HtmlCanvasElement,
    ctx: CanvasRenderingContext2d,
    /// Its place on the canvas in device pixels: left, top, width, height.
    at: [f64; 4],
}

/// The pictures kept across frames, each in its slot: a node's still
/// parts by its id, a cluster's links by the complement of its place in
/// the fleet. Those a frame did not use are dropped after it
/// ([`Pictures::sweep`]).
#[derive(Default)]
pub struct Pictures(Slots<Picture>);

impl Pictures {
    /// Ends a frame: drops the pictures it did not use (a node or a
    /// cluster no longer drawn).
    pub fn sweep(&mut self) {
        self.0.sweep();
    }

    /// Copies slot `slot`'s picture of the part of the canvas from `(x0,
    /// y0)` to `(x1, y1)` (CSS pixels) onto `main`, painting it first with
    /// `paint` (in the canvas's coordinates) when `key`, the part or the
    /// resolution changed. Without a canvas off the page, `paint` paints
    /// onto `main` itself.
    fn paint(
        &mut self,
        main: &Ctx,
        dpr: f64,
        slot: u64,
        key: Key,
        [x0, y0, x1, y1]: [f64; 4],
        paint: &dyn Fn(&Ctx),
    ) {
        let key = key.f(dpr);
        let made = || {
            offscreen(main).map(|(canvas, ctx)| Picture {
                key,
                canvas,
                ctx,
                at: [f64::NAN; 4],
            })
        };
        let Some(p) = self.0.get(slot, made) else {
            paint(main);
            return;
        };
        // Whole device pixels, so that the copy is pixel for pixel.
        let (left, top) = ((x0 * dpr).floor(), (y0 * dpr).floor());
        let at = [left, top, (x1 * dpr).ceil() - left, (y1 * dpr).ceil() - top];
        if p.key != key || p.at != at {
            // Setting the size clears the picture and its context's state.
            p.canvas.set_width(at[2] as u32);
            p.canvas.set_height(at[3] as u32);
            let _ = p.ctx.set_transform(dpr, 0.0, 0.0, dpr, -left, -top);
            p.ctx.set_line_cap("round");
            paint(&Ctx::new(&p.ctx));
            p.key = key;
            p.at = at;
        }
        let _ = main.draw_image_with_html_canvas_element_and_dw_and_dh(
            &p.canvas,
            left / dpr,
            top / dpr,
            at[2] / dpr,
            at[3] / dpr,
        );
    }
}

/// A canvas off the page, beside the one `main` draws on.
fn offscreen(main: &Ctx) -> Option<(HtmlCanvasElement, CanvasRenderingContext2d)> {
    let canvas: HtmlCanvasElement = main
        .canvas()?
        .owner_document()?
        .create_element("canvas")
        .ok()?
        .unchecked_into();
    let ctx = canvas.get_context("2d").ok()??.unchecked_into();
    Some((canvas, ctx))
}

/// Paints a node's labels where `p` puts them (`scene::place_labels`, or
/// `scene::fit_labels` where there is no room).
fn labels(ctx: &Ctx, p: &scene::Placement, labels: &[Label]) {
    ctx.set_text_baseline("middle");
    // Each line on a halo of the background: a link line or a message
    // passing under it stops short of its letters (the fitting keeps labels
    // off nodes and each other, not off the links).
    ctx.set_stroke_style_str(pal::BACKGROUND);
    ctx.set_line_width(LABEL_HALO);
    ctx.set_line_join("round");
    for (i, label) in labels.iter().enumerate() {
        let y = p.line_y(i);
        match label {
            // `fit_labels` has said each brief line one way or the other.
            Label::Text(t, c)
            | Label::Brief {
                full: t, colour: c, ..
            } => {
                // A bar's percentage before it is left-aligned.
                ctx.set_text_align(p.align.css());
                ctx.set_font(LABEL_FONT);
                ctx.set_fill_style_str(c);
                let _ = ctx.stroke_text(t, p.x, y);
                text(ctx, t, p.x, y);
            }
            Label::Bar(b) => catchup_bar(ctx, p.bar_x(), y, b),
        }
    }
    ctx.set_line_join("miter");
}

fn catchup_bar(ctx: &Ctx, x: f64, y: f64, bar: &Bar) {
    let (w, h) = (scene::BAR_W - 34.0, 7.0);
    ctx.set_fill_style_str(pal::GRID);
    ctx.fill_rect(x, y - h / 2.0, w, h);
    ctx.set_fill_style_str(bar.fill);
    ctx.fill_rect(x, y - h / 2.0, w * bar.ratio, h);
    // The promotion line: etcd's 90%, or the auto-promote threshold.
    if let Some((at, colour)) = bar.line {
        ctx.set_fill_style_str(colour);
        ctx.fill_rect(x + w * at - 1.0, y - h / 2.0 - 3.0, 2.0, h + 6.0);
    }
    ctx.set_text_align("left");
    ctx.set_fill_style_str(pal::TEXT_DIM);
    ctx.set_font("11px system-ui, sans-serif");
    let mut b = String::new();
    let _ = write!(b, "{}%", bar.percent());
    text(ctx, &b, x + w + 5.0, y);
}

/// A learner's badge, on its hexagon's upper right: a plus for a
/// standby, an eye for a read-only learner (hollow: weak, filled: strong).
fn badge(ctx: &Ctx, x: f64, y: f64, r: f64, b: Badge) {
    ctx.set_fill_style_str(b.colour());
    circle(ctx, x, y, r);
    ctx.fill();
    ctx.set_stroke_style_str(pal::BACKGROUND);
    ctx.set_line_width(1.5);
    ctx.stroke();
    ctx.set_stroke_style_str(pal::NODE_TEXT_DARK);
    ctx.set_fill_style_str(pal::NODE_TEXT_DARK);
    let k = r * 0.55;
    ctx.begin_path();
    match b {
        Badge::Standby => {
            ctx.set_line_width(2.2);
            ctx.move_to(x - k, y);
            ctx.line_to(x + k, y);
            ctx.move_to(x, y - k);
            ctx.line_to(x, y + k);
            ctx.stroke();
        }
        Badge::ReadWeak | Badge::ReadStrong => {
            ctx.set_line_width(1.4);
            let _ = ctx.ellipse(x, y, r * 0.7, r * 0.4, 0.0, 0.0, TAU);
            ctx.stroke();
            circle(ctx, x, y, r * 0.22);
            if b == Badge::ReadStrong {
                ctx.fill();
            } else {
                ctx.stroke();
            }
        }
    }
}

/// The legend of the strips' marks, right of them.
fn log_key(ctx: &Ctx, l: &Layout, words: &dyn Renderer) {
    let x = l.key_x;
    let line = 13.0;
    let mut y = l.log_y + 12.0;
    ctx.set_font("11px system-ui, sans-serif");
    ctx.set_text_align("left");
    ctx.set_text_baseline("middle");
    let items: [(LogMark, &str, u8); 6] = [
        (LogMark::Commit, pal::COMMIT, 0),
        (LogMark::Applied, pal::APPLIED, 1),
        (LogMark::Snapshot, pal::SNAPSHOT, 0),
        (LogMark::MemberChange, pal::TEXT, 2),
        (LogMark::Uncommitted, pal::TEXT_DIM, 3),
        (LogMark::Compacted, pal::GRID, 4),
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
        text(ctx, &words.log_mark(name), x + 16.0, y);
        y += line;
    }
}

fn log_panel(f: &Frame) {
    let ctx = f.ctx;
    let l = f.layout;
    ctx.set_fill_style_str(pal::PANEL);
    ctx.begin_path();
    let _ = ctx.round_rect_with_f64(l.log_x, l.log_y, l.log_w, l.log_h, 8.0);
    ctx.fill();

    let logs: Vec<Option<Strip>> = f.nodes.iter().map(|d| Strip::of(&d.view, d.sim)).collect();
    let hi = logs.iter().flatten().map(|g| g.last).max().unwrap_or(0);
    let cells = l.cells as u64;
    let commit = logs.iter().flatten().map(|g| g.commit).max().unwrap_or(0);
    let w = LogWindow {
        lo: scene::log_window(hi, commit, cells),
        cells,
        x0: l.log_x + l.label_w,
        cw: l.cell_w,
    };
    log_header(f, &w);
    if l.key_x > 0.0 {
        log_key(ctx, l, f.words);
    }
    ctx.set_font("10px system-ui, sans-serif");
    for (row, (d, g)) in f.nodes.iter().zip(&logs).enumerate() {
        log_row(f, &w, l.row_y(row), &d.view, g.as_ref());
    }
}

/// The indexes the log panel shows: `cells` of them from `lo`, the first
/// cell at `x0`, each `cw` wide.
struct LogWindow {
    lo: u64,
    cells: u64,
    x0: f64,
    cw: f64,
}

impl LogWindow {
    /// The left edge of index `i`'s cell.
    fn x(&self, i: u64) -> f64 {
        self.x0 + (i - self.lo) as f64 * self.cw
    }

    fn indexes(&self) -> std::ops::Range<u64> {
        self.lo..self.lo + self.cells
    }
}

/// The panel's title and its index ticks.
fn log_header(f: &Frame, w: &LogWindow) {
    let (ctx, l) = (f.ctx, f.layout);
    ctx.set_font("11px system-ui, sans-serif");
    ctx.set_text_baseline("middle");
    ctx.set_text_align("left");
    ctx.set_fill_style_str(pal::TEXT_DIM);
    text(ctx, &f.words.log_title(), l.log_x + 10.0, l.log_y + 12.0);
    ctx.set_text_align("center");
    let mut buf = String::new();
    for i in w.indexes() {
        if scene::index_tick(i, w.lo) {
            buf.clear();
            let _ = write!(buf, "{i}");
            ctx.set_fill_style_str(pal::TEXT_FAINT);
            text(ctx, &buf, w.x(i) + w.cw / 2.0, l.log_y + 12.0);
        }
    }
}

/// One node's row: its label in its role's colour, its cells, and the
/// snapshot, commit and applied markers.
fn log_row(f: &Frame, w: &LogWindow, y: f64, v: &view::NodeView, g: Option<&Strip>) {
    let (ctx, l) = (f.ctx, f.layout);
    let rh = l.row_h;
    let colour = if v.never_started {
        pal::TEXT_FAINT
    } else {
        scene::label_colour(pal::role(v.raft_role))
    };
    ctx.set_fill_style_str(colour);
    ctx.set_text_align("left");
    ctx.set_font("12px system-ui, sans-serif");
    text(
        ctx,
        &f.words.log_row(v.id, v.learner, l.short_rows),
        l.log_x + 10.0,
        y + rh / 2.0,
    );
    ctx.set_font("10px system-ui, sans-serif");
    let Some(g) = g else {
        ctx.set_fill_style_str(pal::TEXT_FAINT);
        text(ctx, &f.words.no_log(), w.x0 + 2.0, y + rh / 2.0);
        return;
    };
    for i in w.indexes() {
        log_cell(ctx, w.x(i), y, w.cw, rh - 4.0, g.cell(i));
    }
    ctx.set_global_alpha(1.0);
    log_markers(ctx, w, g, y, rh);
}

/// One cell of a row at (`x`, `y`), `cw` wide and `ch` high.
fn log_cell(ctx: &Ctx, x: f64, y: f64, cw: f64, ch: f64, cell: scene::Cell) {
    let (term, committed, mark) = match cell {
        scene::Cell::Empty => {
            ctx.set_global_alpha(1.0);
            ctx.set_stroke_style_str(pal::GRID);
            ctx.set_line_width(1.0);
            ctx.stroke_rect(x + 1.5, y + 2.5, cw - 3.0, ch - 1.0);
            return;
        }
        scene::Cell::Compacted => {
            ctx.set_global_alpha(1.0);
            ctx.set_fill_style_str(pal::GRID);
            ctx.fill_rect(x + 1.0, y + 2.0, cw - 2.0, ch);
            return;
        }
        scene::Cell::Missing => return,
        scene::Cell::Entry {
            term,
            committed,
            mark,
        } => (term, committed, mark),
    };
    // Faint until committed. The alpha stays set while cells alike follow
    // (each change crosses into JavaScript).
    ctx.set_global_alpha(if committed { 1.0 } else { 0.45 });
    ctx.set_fill_style_str(pal::term(term));
    ctx.fill_rect(x + 1.0, y + 2.0, cw - 2.0, ch);
    if mark != Mark::None {
        ctx.set_global_alpha(1.0);
    }
    match mark {
        Mark::Diamond => {
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
        Mark::Dot => {
            ctx.set_fill_style_str(pal::BACKGROUND);
            circle(ctx, x + cw / 2.0, y + 2.0 + ch / 2.0, 1.6);
            ctx.fill();
        }
        Mark::None => {}
    }
}

/// A row's markers: snapshot boundary (orange), commit (white), applied
/// (a green triangle).
fn log_markers(ctx: &Ctx, w: &LogWindow, g: &Strip, y: f64, rh: f64) {
    let shown = |index: u64| index + 1 >= w.lo && index < w.lo + w.cells;
    let marker = |index: u64, colour: &str, width: f64| {
        if !shown(index) {
            return;
        }
        let x = w.x(index + 1);
        ctx.set_fill_style_str(colour);
        ctx.fill_rect(x - width / 2.0, y, width, rh);
    };
    if g.snapshot > 0 {
        marker(g.snapshot, pal::SNAPSHOT, 2.0);
    }
    marker(g.commit, pal::COMMIT, 2.0);
    if let Some(a) = g.applied.filter(|&a| shown(a)) {
        let x = w.x(a + 1);
        ctx.set_fill_style_str(pal::APPLIED);
        ctx.begin_path();
        ctx.move_to(x - 3.5, y + rh);
        ctx.line_to(x + 3.5, y + rh);
        ctx.line_to(x, y + rh - 5.0);
        ctx.close_path();
        ctx.fill();
    }
}
