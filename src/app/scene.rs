//! What the canvas shows, decided before anything is painted: each node's
//! look (its body, colour, timer, labels) and where its labels go, the log
//! strips' window and each cell. `wasm::draw` only paints these decisions,
//! so they are tested natively.

use crate::app::trig::clamp;
use crate::raft::{Entry, EntryData, Raft, StateRole};
use crate::server::{Cluster, ReadMode};
use crate::session::view::{CatchUpView, LearnerKind, NodeState, NodeView};
use crate::sim::{Request, SimNode};
use crate::words::renderer::Renderer;

use super::layout::{Board, Hit, Layout, MirrorSpot, Spot, MIRROR_R};
use super::palette as pal;

/// A node's body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Body {
    /// A voter (or a node whose process is down): a solid disc.
    Disc,
    /// A learner: a hollow, dashed hexagon.
    Hexagon,
    /// A member whose process never ran: a hollow, dashed circle.
    NotStarted,
}

/// A badge on a learner's hexagon: what it is kept for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Badge {
    /// A standby for failover: a plus.
    Standby,
    /// A read-only learner: an eye, hollow for weak reads (possibly stale),
    /// filled for strong ones.
    ReadWeak,
    ReadStrong,
}

impl Badge {
    pub fn of(kind: Option<LearnerKind>) -> Option<Badge> {
        match kind? {
            LearnerKind::Plain => None,
            LearnerKind::Standby => Some(Badge::Standby),
            LearnerKind::ReadOnly(ReadMode::Weak) => Some(Badge::ReadWeak),
            LearnerKind::ReadOnly(ReadMode::Strong) => Some(Badge::ReadStrong),
        }
    }

    pub fn colour(self) -> &'static str {
        match self {
            Badge::Standby => pal::STANDBY,
            Badge::ReadWeak => pal::READ_WEAK,
            Badge::ReadStrong => pal::READ_STRONG,
        }
    }
}

/// A learner's catch-up bar: how much of the leader's log it holds, and
/// the line at which it is promoted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bar {
    /// 0 to 1.
    pub ratio: f64,
    pub fill: &'static str,
    /// The promotion line and its colour: etcd's 90% (white), or the
    /// cluster's `auto-promote` threshold; none for a read-only learner.
    pub line: Option<(f64, &'static str)>,
}

impl Bar {
    pub fn of(c: &CatchUpView) -> Bar {
        let line = c
            .promote_at
            .map(|at| (at, if c.auto { pal::AUTO_LINE } else { pal::TEXT }));
        let fill = match c.promote_at {
            None => pal::FOLLOWER,
            Some(at) if c.ratio >= at => pal::GOOD,
            Some(_) => pal::LEADER,
        };
        Bar {
            ratio: clamp(c.ratio, 0.0, 1.0),
            fill,
            line,
        }
    }

    /// The share written after the bar, rounded down.
    pub fn percent(&self) -> u32 {
        (self.ratio * 100.0).floor() as u32
    }
}

/// One line of the labels stacked outside a node.
#[derive(Debug, Clone, PartialEq)]
pub enum Label {
    Text(String, &'static str),
    /// A line with a shorter way to say it, taken where the full one does
    /// not fit ([`fit_labels`] makes it a `Text`).
    Brief {
        full: String,
        short: String,
        colour: &'static str,
    },
    /// A learner's catch-up.
    Bar(Bar),
}

/// How one node is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeLook {
    pub body: Body,
    /// The role's colour: the body's fill, a learner's outline.
    pub colour: &'static str,
    /// The outline: `None` for a disc nobody hovers.
    pub outline: Option<&'static str>,
    /// A removed member is drawn faint.
    pub faded: bool,
    /// The leader's halo.
    pub halo: bool,
    /// The election timer's arc (how full, 0 to 1) and its colour, for a
    /// running voter that does not lead.
    pub timer: Option<(f64, &'static str)>,
    /// Dark text on a coloured disc, light text otherwise.
    pub dark_text: bool,
    /// The term written under the id.
    pub term: Option<u64>,
    /// The red cross of a process that is down.
    pub down_mark: bool,
    /// A standby's or a read-only learner's badge.
    pub badge: Option<Badge>,
    /// Failover's countdown on a voter: the share of `failover-after`
    /// still left (1 to 0), drawn as a shrinking red arc.
    pub countdown: Option<f64>,
    pub labels: Vec<Label>,
}

/// The timer turns to the candidate's colour in its last quarter.
const TIMER_WARN: f64 = 0.75;

/// Send queues from this size on are labelled.
const QUEUE_LABEL_BYTES: u64 = 4096;

/// More nodes than this share the ring: progress labels get short.
const CROWDED: usize = 5;

/// How much room a node's labels have on the canvas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Room {
    /// Every label in full.
    Full,
    /// A crowded ring, a narrow column or a phone's canvas: short words.
    Short,
    /// A crowded ring on a phone's canvas, or a cramped column: what the
    /// node is, and a learner's catch-up bar, without the progress and
    /// message counts (their lines ran over the next node's; a tap on the
    /// node shows them).
    Tight,
}

impl Room {
    /// The room of `nodes` on one ring laid out as `l`.
    pub fn in_layout(nodes: usize, l: &Layout) -> Room {
        if l.cramped {
            Room::Tight
        } else {
            Room::of(nodes, l.narrow, l.small)
        }
    }

    /// The room of `nodes` on one ring, in a narrow column (`narrow`) or on a
    /// phone's canvas (`small`).
    pub fn of(nodes: usize, narrow: bool, small: bool) -> Room {
        let crowded = nodes > CROWDED;
        if crowded && small {
            Room::Tight
        } else if crowded || narrow || small {
            Room::Short
        } else {
            Room::Full
        }
    }
}

/// How node `v` looks. `hovered`: the pointer is on it; `room`: its labels'
/// room; `queued`: bytes in its send queue now.
pub fn node_look(
    v: &NodeView,
    words: &dyn Renderer,
    hovered: bool,
    room: Room,
    queued: u64,
) -> NodeLook {
    let colour = if v.never_started {
        pal::NOT_STARTED
    } else {
        pal::role(v.raft_role)
    };
    let leads = v.raft_role == Some(StateRole::Leader);
    let timer = v
        .election
        .filter(|_| !v.learner && !leads)
        .map(|(elapsed, timeout)| {
            let frac = clamp(f64::from(elapsed) / f64::from(timeout.max(1)), 0.0, 1.0);
            let warn = if frac > TIMER_WARN {
                pal::CANDIDATE
            } else {
                pal::TIMER
            };
            (frac, warn)
        });
    let (body, outline) = if v.learner {
        (
            Body::Hexagon,
            Some(if hovered { pal::HOVER } else { colour }),
        )
    } else if v.never_started {
        (
            Body::NotStarted,
            Some(if hovered { pal::HOVER } else { pal::TEXT_FAINT }),
        )
    } else {
        (Body::Disc, hovered.then_some(pal::HOVER))
    };
    NodeLook {
        body,
        colour,
        outline,
        faded: v.removed,
        halo: leads,
        timer,
        dark_text: !v.learner && !v.never_started && v.raft_role.is_some(),
        term: v.shown_term,
        down_mark: v.raft_role.is_none() && !v.never_started && !v.removed,
        badge: Badge::of(v.learner_kind()),
        countdown: v
            .failover
            .map(|f| clamp(f.left_ms as f64 / f.after_ms.max(1) as f64, 0.0, 1.0)),
        labels: labels(v, words, colour, room, queued),
    }
}

/// The labels outside the ring: what the node is, a bad URL, the leader's
/// view of it with a learner's catch-up, a long send queue.
fn labels(
    v: &NodeView,
    words: &dyn Renderer,
    colour: &'static str,
    room: Room,
    queued: u64,
) -> Vec<Label> {
    let short = room != Room::Full;
    let mut labels = Vec::with_capacity(4);
    let head_colour = if v.role == NodeState::Removed {
        pal::TEXT_FAINT
    } else {
        label_colour(colour)
    };
    // With no room, a running learner is said to be one: its role is
    // a follower's, which the colour shows.
    let head = match v.learner_kind() {
        Some(kind) if room == Room::Tight && v.role == NodeState::Follower => {
            words.learner_word(kind)
        }
        kind => words.node_head(kind, v.role),
    };
    labels.push(Label::Text(head, head_colour));
    if let Some(learner) = v.sees_itself_learner {
        // Said shortly where it does not fit in full (a phone's side
        // node), rather than run up to the next node.
        labels.push(Label::Brief {
            full: words.sees_itself(learner, false),
            short: words.sees_itself(learner, true),
            colour: pal::SELF_VIEW,
        });
    }
    if let Some(f) = &v.failover {
        labels.push(Label::Text(words.failover_countdown(f), pal::COUNTDOWN));
    }
    if let Some(url) = &v.bad_url {
        // On a phone beside other nodes the URL may not fit: the reason
        // stays, and a tap on the node gives the URL.
        labels.push(Label::Brief {
            full: words.unreachable_url(url, false),
            short: words.unreachable_url(url, true),
            colour: pal::BAD,
        });
    }
    if let Some(p) = &v.progress {
        let state_colour = match p.state {
            crate::raft::ProgressState::Probe => pal::TEXT_DIM,
            crate::raft::ProgressState::Replicate => pal::GOOD,
            crate::raft::ProgressState::Snapshot => pal::SNAPSHOT,
        };
        if room != Room::Tight {
            labels.push(Label::Text(words.progress(p, short), state_colour));
        }
        if let Some(c) = v.catch_up {
            labels.push(Label::Bar(Bar::of(&c)));
            if let Some(at) = c.promote_at.filter(|_| c.auto) {
                let percent = (at * 100.0).round() as u8;
                labels.push(Label::Text(words.auto_promote_at(percent), pal::AUTO_LINE));
            }
        }
    }
    // What each node's Raft handled: a weak read leaves the leader's
    // counts as they were; a strong one adds a read index round.
    if room != Room::Tight && (v.running || v.msgs_in + v.msgs_out > 0) {
        labels.push(Label::Text(
            words.message_counts(v.msgs_in, v.msgs_out, short),
            pal::TEXT_FAINT,
        ));
    }
    if queued >= QUEUE_LABEL_BYTES {
        labels.push(Label::Text(words.send_queue(queued), pal::SNAPSHOT));
    }
    labels
}

/// A label in a role's colour stays readable when the role is grey.
pub fn label_colour(c: &'static str) -> &'static str {
    if c == pal::DOWN || c == pal::NOT_STARTED {
        pal::TEXT_DIM
    } else {
        c
    }
}

/// The term fits under the id only on nodes at least this large.
pub fn shows_term(node_r: f64) -> bool {
    node_r >= 17.0
}

// ---- pictures' keys -------------------------------------------------------------

/// What a picture painted once shows, folded into one number: the canvas
/// keeps a picture of each node's still parts and of each cluster's links,
/// and paints one again only when its key changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key(pub u64);

impl Key {
    pub fn new() -> Key {
        Key(0xcbf2_9ce4_8422_2325)
    }

    pub fn n(self, v: u64) -> Key {
        let x = (self.0 ^ v).wrapping_mul(0x0000_0100_0000_01b3);
        Key(x ^ (x >> 29))
    }

    pub fn f(self, v: f64) -> Key {
        self.n(v.to_bits())
    }

    pub fn s(self, s: &str) -> Key {
        s.bytes().fold(self.n(s.len() as u64), |k, b| k.n(b.into()))
    }
}

impl Default for Key {
    fn default() -> Key {
        Key::new()
    }
}

/// What the canvas keeps across frames (its pictures), each in a slot (a
/// node's id, a cluster's place), with whether the frame being drawn used
/// it. After each frame, [`Slots::sweep`] drops what that frame did not
/// use: a node removed from the run, a cluster gone with a new run, no
/// longer keeps a picture (and its canvas) forever.
pub struct Slots<T>(Vec<(u64, bool, T)>);

impl<T> Default for Slots<T> {
    fn default() -> Slots<T> {
        Slots(Vec::new())
    }
}

impl<T> Slots<T> {
    /// Slot `slot`'s thing, made by `make` if the slot is empty (`None`
    /// when it cannot be made); marked as used by this frame.
    pub fn get(&mut self, slot: u64, make: impl FnOnce() -> Option<T>) -> Option<&mut T> {
        let i = match self.0.iter().position(|e| e.0 == slot) {
            Some(i) => i,
            None => {
                self.0.push((slot, false, make()?));
                self.0.len() - 1
            }
        };
        let e = &mut self.0[i];
        e.1 = true;
        Some(&mut e.2)
    }

    /// Ends a frame: drops what it did not use; the rest wait for the next.
    pub fn sweep(&mut self) {
        self.0.retain(|e| e.1);
        for e in &mut self.0 {
            e.1 = false;
        }
    }

    /// The slots held, in the order they were filled.
    pub fn slots(&self) -> impl Iterator<Item = u64> + '_ {
        self.0.iter().map(|e| e.0)
    }
}

impl NodeLook {
    /// The key of a node's picture: its look without what moves (the
    /// timer's progress, the countdown) or is drawn beside it (labels).
    pub fn still(&self) -> Key {
        let k = Key::new()
            .n(self.body as u64)
            .s(self.colour)
            .s(self.outline.unwrap_or(""))
            .n(self.term.map_or(0, |t| t + 1))
            .n(self.badge.map_or(0, |b| b as u64 + 1));
        [
            self.faded,
            self.halo,
            self.timer.is_some(),
            self.dark_text,
            self.down_mark,
        ]
        .into_iter()
        .fold(k, |k, b| k.n(b.into()))
    }
}

/// The key of a cluster's links (their places, cuts, the hovered link,
/// unreachable URLs: `no_route`, node by node) and the part of the canvas
/// they cover, `[left, top, right, bottom]`; `None` when fewer than two
/// nodes are linked.
pub fn links_key(
    l: &Layout,
    c: &Cluster,
    no_route: impl Iterator<Item = bool>,
    hover: Option<Hit>,
) -> Option<(Key, [f64; 4])> {
    let mut k = Key::new().f(l.node_r);
    if let Some(Hit::Link { a, b, .. }) = hover {
        k = k.n(a).n(b);
    }
    for bad in no_route {
        k = k.n(bad.into());
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    let mut linked = 0;
    for (a, b) in c.world().network().cut_links() {
        k = k.n(a).n(b);
    }
    for a in &l.spots {
        k = k.n(a.id).f(a.x).f(a.y).n(a.linked.into());
        if a.linked {
            linked += 1;
            (x0, y0, x1, y1) = (x0.min(a.x), y0.min(a.y), x1.max(a.x), y1.max(a.y));
        }
    }
    // A hovered link's half width and its round cap, with room to spare.
    let m = 8.0;
    (linked >= 2).then_some((k, [x0 - m, y0 - m, x1 + m, y1 + m]))
}

/// How far a cut link's mark reaches from its middle (the cross, or the
/// arrow stopped by a bar on its disc of background).
pub const CUT_MARK_R: f64 = 11.0;

/// The middle of every link drawn cut, one way or both: where its mark is,
/// which labels keep clear of.
pub fn cut_marks(l: &Layout, c: &Cluster) -> Vec<(f64, f64)> {
    let mut marks = Vec::new();
    for (i, a) in l.spots.iter().enumerate() {
        for b in l.spots.iter().skip(i + 1) {
            if a.linked && b.linked && (c.is_cut(a.id, b.id) || c.is_cut(b.id, a.id)) {
                marks.push(((a.x + b.x) / 2.0, (a.y + b.y) / 2.0));
            }
        }
    }
    marks
}

// ---- labels' place --------------------------------------------------------------

/// The height of one label line, and a catch-up bar's width.
pub const LABEL_LINE: f64 = 14.0;
pub const BAR_W: f64 = 96.0;

/// The least room between two nodes' label blocks side by side: about a
/// space's width, so that two nodes' words never read as one line (their
/// lines' height already spaces them one above the other).
pub const LABEL_GAP: f64 = 6.0;

/// How much further from the other nodes than their reach a line that can
/// be said shortly stands in full.
pub const LABEL_ROOM: f64 = 12.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
    Center,
}

impl Align {
    /// The canvas's name for it.
    pub fn css(self) -> &'static str {
        match self {
            Align::Left => "left",
            Align::Right => "right",
            Align::Center => "center",
        }
    }
}

/// Where a node's labels go: their alignment, the anchor's x, and the top
/// of the first line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    pub align: Align,
    pub x: f64,
    pub top: f64,
}

impl Placement {
    /// The middle of line `i`.
    pub fn line_y(&self, i: usize) -> f64 {
        self.top + LABEL_LINE * (i as f64 + 0.5)
    }

    /// The left edge of a catch-up bar on this placement's lines.
    pub fn bar_x(&self) -> f64 {
        match self.align {
            Align::Left => self.x,
            Align::Right => self.x - BAR_W,
            Align::Center => self.x - BAR_W / 2.0,
        }
    }
}

/// A column's caption on two lines, cut at the separator (" · ") that
/// leaves the longer line shortest; a caption without one stays whole.
pub fn split_caption(caption: &str) -> (&str, &str) {
    const SEP: &str = " · ";
    let total = caption.chars().count();
    caption
        .match_indices(SEP)
        .map(|(at, _)| {
            let head = caption[..at].chars().count();
            let longer = head.max(total - head - SEP.chars().count());
            (longer, at)
        })
        .min()
        .map_or((caption, ""), |(_, at)| {
            (&caption[..at], &caption[at + SEP.len()..])
        })
}

/// Places the labels of the node at `s` further out along its direction
/// from the ring's centre, kept inside the canvas. `width` measures a line
/// of text as the canvas will draw it.
pub fn place_labels(
    l: &Layout,
    s: &Spot,
    labels: &[Label],
    width: impl Fn(&str) -> f64,
) -> Placement {
    place(l, s, labels.len(), widest(labels, width), false)
}

/// How wide a label is drawn (a brief one in full, or `brief`ly).
fn label_width(label: &Label, width: impl Fn(&str) -> f64, brief: bool) -> f64 {
    match label {
        Label::Text(t, _) => width(t),
        Label::Brief { full, short, .. } => width(if brief { short } else { full }),
        Label::Bar(_) => BAR_W,
    }
}

/// How wide the widest of `labels` is drawn.
fn widest(labels: &[Label], width: impl Fn(&str) -> f64) -> f64 {
    labels
        .iter()
        .map(|label| label_width(label, &width, false))
        .fold(0.0, f64::max)
}

/// Whether the box `b` (left, top, right, bottom) stays `r` or more from
/// the point (x, y): clear of a disc of radius `r` there.
fn clears(b: &[f64; 4], x: f64, y: f64, r: f64) -> bool {
    let (nx, ny) = (x.clamp(b[0], b[2]), y.clamp(b[1], b[3]));
    (nx - x).hypot(ny - y) >= r
}

/// `place_labels` for `lines` lines, the widest `widest` wide; with `flip`
/// a block that goes past its node goes the other way (down for a node in
/// the ring's upper half).
fn place(l: &Layout, s: &Spot, lines: usize, widest: f64, flip: bool) -> Placement {
    let gap = l.node_r + 13.0;
    let ax = s.x + s.dx * gap;
    let ay = s.y + s.dy * gap;
    let align = if s.dx > 0.2 {
        Align::Left
    } else if s.dx < -0.2 {
        Align::Right
    } else {
        Align::Center
    };
    let total = lines as f64 * LABEL_LINE;
    let top = if s.dy < -0.5 {
        ay - total
    } else if s.dy > 0.5 {
        ay
    } else {
        ay - total / 2.0
    };
    // Keep the widest line inside the canvas.
    let x = match align {
        Align::Right => ax.max(l.left + widest + 4.0),
        Align::Left => ax.min(l.left + l.width - widest - 4.0),
        // Not clamp(): on a canvas narrower than the text its bounds cross.
        Align::Center => ax
            .min(l.left + l.width - widest / 2.0 - 4.0)
            .max(l.left + widest / 2.0 + 4.0),
    };
    // Pulled in that far, a block beside the node would cover it (a narrow
    // canvas, long words): it keeps its side and goes down past the node
    // (up, for a node in the ring's upper half), clear of it and of the
    // next node's block on the other side, where there is room between the
    // legend and the log panel (on a tiny canvas it stays beside the node).
    let covers = match align {
        Align::Left => x < s.x + l.node_r + 4.0,
        Align::Right => x > s.x - l.node_r - 4.0,
        Align::Center => false,
    };
    // Past the node's timer arc (6 pixels out, 3 wide), and so past the
    // arc of a node level with it.
    let past = if (s.dy < 0.0) != flip {
        s.y - l.node_r - 8.0 - total
    } else {
        s.y + l.node_r + 8.0
    };
    let fits = past >= l.top_inset && past + total <= l.log_y - 2.0;
    let top = if covers && fits { past } else { top };
    Placement { align, x, top }
}

/// The box `lines` lines placed as `p` take, the widest `widest` wide:
/// left, top, right, bottom.
fn extent(p: &Placement, lines: usize, widest: f64) -> [f64; 4] {
    let (left, right) = match p.align {
        Align::Left => (p.x, p.x + widest),
        Align::Right => (p.x - widest, p.x),
        Align::Center => (p.x - widest / 2.0, p.x + widest / 2.0),
    };
    [left, p.top, right, p.top + lines as f64 * LABEL_LINE]
}

/// The box `labels` placed as `p` take: left, top, right, bottom.
pub fn block(p: &Placement, labels: &[Label], width: impl Fn(&str) -> f64) -> [f64; 4] {
    extent(p, labels.len(), widest(labels, width))
}

/// Each node's labels keep as many of their lines as clear the nodes (their
/// discs and timer arcs), the other nodes' labels, the marks of cut links
/// (`marks`, their middles), the top of the column (the legend, a column's
/// caption), a button over its corner and the log panel, where
/// `place_labels` puts them or past the node the other way. First every node, in the order of the ring, gets
/// its first line (what it is; over a cut's mark only if it fits nowhere
/// else), then each as many more as fit (its message counts come last); a
/// node with no room at all says nothing (a tap on it still says
/// everything). `labels[i]` are those of `l.spots[i]`; returns where each
/// node's labels go.
pub fn fit_labels(
    l: &Layout,
    labels: &mut [Vec<Label>],
    marks: &[(f64, f64)],
    width: impl Fn(&str) -> f64,
) -> Vec<Placement> {
    let n = labels.len().min(l.spots.len());
    let reach = l.node_r + 8.0;
    let ceiling = l.labels_top();
    // The widest of each node's first k lines, for each k, each measured
    // once: `[full, brief]` (brief lines said shortly).
    let widest: Vec<[Vec<f64>; 2]> = labels
        .iter()
        .map(|mine| {
            [false, true].map(|brief| {
                let mut w = vec![0.0];
                for label in mine {
                    let next = label_width(label, &width, brief).max(*w.last().unwrap_or(&0.0));
                    w.push(next);
                }
                w
            })
        })
        .collect();
    // Whether each node's brief lines are said shortly.
    let mut brief = vec![false; n];
    let mut keep = vec![0usize; n];
    let mut places: Vec<Placement> = (0..n)
        .map(|i| place(l, &l.spots[i], 0, 0.0, false))
        .collect();
    let mut blocks: Vec<Option<[f64; 4]>> = vec![None; n];
    // Whether each node's first line clears the cuts' marks: if it could
    // not, its other lines need not either.
    let mut marks_cleared = vec![true; n];
    // Node i's labels cut to k lines, where they clear everything else
    // (the marks only if `marked`).
    let fit = |i: usize, k: usize, blocks: &[Option<[f64; 4]>], marked: bool| {
        let s = &l.spots[i];
        let clear = |b: &[f64; 4], roomy: bool| {
            let [x0, y0, x1, y1] = *b;
            let off_nodes = l.spots.iter().all(|o| {
                // Its own node only the disc: a block beside it may stand
                // by its arc.
                let r = if o.id == s.id {
                    l.node_r + 2.0
                } else if roomy {
                    reach + LABEL_ROOM
                } else {
                    reach
                };
                clears(b, o.x, o.y, r)
            });
            let off_blocks = blocks
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .filter_map(|(_, k)| k.as_ref())
                .all(|k| {
                    x1 + LABEL_GAP <= k[0] || k[2] + LABEL_GAP <= x0 || y1 <= k[1] || k[3] <= y0
                });
            let off_marks = !marked || marks.iter().all(|&(x, y)| clears(b, x, y, CUT_MARK_R));
            let [cx, cy] = l.corner;
            let off_corner = x0 >= cx || y0 >= cy;
            off_nodes && off_blocks && off_marks && off_corner && y0 >= ceiling && y1 <= l.log_y
        };
        // In full where it fits, else shortly; where it stands, else past
        // the node. Lines that can be said shortly are said in full only
        // where that keeps room from the other nodes (a line running up to
        // the next node reads as that node's), if said shortly anywhere
        // does.
        let ways = [(false, false), (false, true), (true, false), (true, true)];
        let brief_differs = widest[i][1][k] < widest[i][0][k];
        let passes: &[bool] = if brief_differs {
            &[true, false]
        } else {
            &[false]
        };
        passes.iter().find_map(|&roomy| {
            ways.into_iter().find_map(|(short, flip)| {
                let w = widest[i][usize::from(short)][k];
                let p = place(l, s, k, w, flip);
                let b = extent(&p, k, w);
                clear(&b, roomy).then_some((p, b, short))
            })
        })
    };
    for i in (0..n).filter(|&i| !labels[i].is_empty()) {
        let first = fit(i, 1, &blocks, true);
        marks_cleared[i] = first.is_some();
        if let Some((p, b, short)) = first.or_else(|| fit(i, 1, &blocks, false)) {
            (keep[i], places[i], blocks[i], brief[i]) = (1, p, Some(b), short);
        }
    }
    for i in 0..n {
        if keep[i] != 1 {
            continue;
        }
        if let Some((k, (p, b, short))) = (2..=labels[i].len())
            .rev()
            .find_map(|k| fit(i, k, &blocks, marks_cleared[i]).map(|f| (k, f)))
        {
            (keep[i], places[i], blocks[i], brief[i]) = (k, p, Some(b), short);
        }
    }
    for ((mine, k), short) in labels.iter_mut().zip(&keep).zip(&brief) {
        mine.truncate(*k);
        for label in mine.iter_mut() {
            if let Label::Brief {
                full,
                short: s,
                colour,
            } = label
            {
                let text = std::mem::take(if *short { s } else { full });
                *label = Label::Text(text, colour);
            }
        }
    }
    places
}

/// Where a mirror's caption line `i` stands under its box: its middle.
pub fn mirror_line_y(m: &MirrorSpot, i: usize) -> f64 {
    m.y + MIRROR_R + 9.0 + 13.0 * i as f64
}

/// How many of a mirror's caption lines (`widths`, from the first) clear
/// every node of the board (disc and timer arc): between two cramped
/// rings a second mirror's lines could cover a side node, and there they
/// give way, its second line first (a tap on the mirror still says all).
pub fn mirror_caption_lines(b: &Board, m: &MirrorSpot, widths: &[f64]) -> usize {
    let clear = |i: usize| {
        let (half, y) = (widths[i] / 2.0 + 3.0, mirror_line_y(m, i));
        let line = [m.x - half, y - 7.0, m.x + half, y + 7.0];
        b.parts.iter().all(|l| {
            l.spots
                .iter()
                .all(|o| clears(&line, o.x, o.y, l.node_r + 8.0))
        })
    };
    (0..widths.len()).take_while(|&i| clear(i)).count()
}

/// How far along its link a message is drawn at simulated time `t`
/// (milliseconds, with the frame's fraction): 0 at its sender (still
/// queued there), 1 at its receiver. `still` (the reader asked for less
/// motion): a message on the wire stays at its link's middle until it
/// arrives, rather than gliding.
pub fn message_progress(departs_ms: u64, arrives_ms: u64, t: f64, still: bool) -> f64 {
    let departs = departs_ms as f64;
    if t < departs {
        return 0.0;
    }
    if still {
        return 0.5;
    }
    let span = (arrives_ms as f64 - departs).max(1.0);
    clamp((t - departs) / span, 0.0, 1.0)
}

/// Radius of a message dot: grows with the log of its size.
pub fn message_radius(bytes: u64) -> f64 {
    let b = (bytes.max(64) as f64 / 64.0).log2();
    (2.6 + 0.9 * b).min(10.0)
}

// ---- the log strips -------------------------------------------------------------

/// Where a log strip reads its entries: a running node's log, or what a
/// crashed one kept on disk.
enum Source<'a> {
    Running(&'a Raft),
    Stored(&'a [Entry]),
}

/// One node's log as its strip shows it.
pub struct Strip<'a> {
    source: Source<'a>,
    /// The first entry still in the log.
    pub first: u64,
    pub snapshot: u64,
    pub commit: u64,
    /// Applied index of a running node.
    pub applied: Option<u64>,
    pub last: u64,
}

impl<'a> Strip<'a> {
    /// The strip of a node: its running log, or what it kept on disk; `None`
    /// for a member that never ran.
    pub fn of(v: &NodeView, sim: Option<&'a SimNode>) -> Option<Strip<'a>> {
        let sim = sim?;
        if let Some(r) = sim.raft.as_ref() {
            return Some(Strip {
                source: Source::Running(r),
                first: r.first_index(),
                snapshot: r.snapshot_index(),
                commit: r.commit(),
                applied: Some(r.applied()),
                last: r.last_index(),
            });
        }
        if v.never_started {
            return None;
        }
        let d = &sim.durable;
        let snapshot = d.snapshot.metadata.index;
        Some(Strip {
            source: Source::Stored(&d.entries),
            first: d.entries.first().map_or(snapshot + 1, |e| e.index),
            snapshot,
            commit: d.hard_state.commit,
            applied: None,
            last: d.entries.last().map_or(snapshot, |e| e.index),
        })
    }

    fn entry(&self, index: u64) -> Option<&Entry> {
        match self.source {
            Source::Running(r) => r.entry(index),
            Source::Stored(entries) => {
                entries.get(usize::try_from(index.checked_sub(self.first)?).ok()?)
            }
        }
    }

    /// What cell `index` shows.
    pub fn cell(&self, index: u64) -> Cell {
        if index > self.last {
            return Cell::Empty;
        }
        if index < self.first {
            return Cell::Compacted;
        }
        match self.entry(index) {
            None => Cell::Missing,
            Some(e) => Cell::Entry {
                term: e.term,
                committed: index <= self.commit,
                mark: match &e.data {
                    EntryData::ConfChange(_) | EntryData::ConfChangeV2(_) => Mark::Diamond,
                    EntryData::Empty => Mark::Dot,
                    EntryData::Normal(data) => match data.get::<Request>() {
                        Some(Request::Publish(_)) => Mark::Dot,
                        _ => Mark::None,
                    },
                },
            },
        }
    }
}

/// One cell of a strip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// Past the end of the log.
    Empty,
    /// Compacted into the snapshot.
    Compacted,
    /// An entry, coloured by its term, faint until committed.
    Entry {
        term: u64,
        committed: bool,
        mark: Mark,
    },
    /// Not readable (never happens for a consistent log).
    Missing,
}

/// What marks an entry's cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// A membership change: a white diamond.
    Diamond,
    /// An entry with no client data (a new leader's empty entry, a member's
    /// announcement): a dark dot.
    Dot,
    None,
}

/// The first index the strips show, `cells` wide: the newest entries
/// (`hi` is the highest last index), unless the highest commit would fall
/// out of view (a leader far ahead of everyone): then it stays two thirds
/// along.
pub fn log_window(hi: u64, commit: u64, cells: u64) -> u64 {
    (hi + 1)
        .saturating_sub(cells)
        .min(commit.saturating_sub(cells * 2 / 3))
        .max(1)
}

/// Whether index `i` gets a number over the strips: every fifth, and the
/// first shown unless it would crowd the next.
pub fn index_tick(i: u64, lo: u64) -> bool {
    i % 5 == 0 || (i == lo && i % 5 <= 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sweep_drops_the_pictures_the_frame_did_not_use() {
        let mut p: Slots<u32> = Slots::default();
        let mut made = 0;
        let mut frame = |p: &mut Slots<u32>, ids: &[u64]| {
            for &id in ids {
                assert!(p
                    .get(id, || {
                        made += 1;
                        Some(made)
                    })
                    .is_some());
            }
            p.sweep();
        };
        frame(&mut p, &[1, 2, 3, !0]);
        assert_eq!(p.slots().collect::<Vec<_>>(), [1, 2, 3, !0]);
        // Node 2 removed, node 4 added, the second cluster's links gone.
        frame(&mut p, &[1, 3, 4]);
        assert_eq!(p.slots().collect::<Vec<_>>(), [1, 3, 4]);
        // What stayed is kept, not made again.
        assert_eq!(p.get(1, || Some(99)).copied(), Some(1));
        assert_eq!(p.get(4, || Some(99)).copied(), Some(5));
        p.sweep();
        assert_eq!(p.slots().collect::<Vec<_>>(), [1, 4]);
        // A frame that draws nothing keeps nothing; what cannot be made is not kept.
        p.sweep();
        assert_eq!(p.slots().count(), 0);
        assert!(p.get(7, || None).is_none());
        assert_eq!(p.slots().count(), 0);
    }
    use crate::app::layout::{Board, CAPTION_LINE};
    use crate::app::log::tests::Reworded;
    use crate::session::exec::Session;
    use crate::session::view;
    use crate::words::text_en::English;

    fn views(src: &str) -> (Session, Vec<NodeView>) {
        let s = Session::from_script(src).unwrap();
        let v = view::nodes(s.cluster());
        (s, v)
    }

    /// How node `id` of `v` (one ring, ids from 1) looks, not hovered, its
    /// send queue empty.
    fn look_of(v: &[NodeView], id: u64) -> NodeLook {
        node_look(
            &v[id as usize - 1],
            &English,
            false,
            Room::of(v.len(), false, false),
            0,
        )
    }

    fn texts(look: &NodeLook) -> Vec<&str> {
        look.labels
            .iter()
            .filter_map(|l| match l {
                Label::Text(t, _) => Some(t.as_str()),
                Label::Brief { full, .. } => Some(full.as_str()),
                Label::Bar(_) => None,
            })
            .collect()
    }

    #[test]
    fn a_crowded_ring_on_a_phone_keeps_what_each_node_is_and_a_learners_bar() {
        assert_eq!(Room::of(5, false, false), Room::Full);
        assert_eq!(Room::of(6, false, false), Room::Short);
        assert_eq!(Room::of(3, true, false), Room::Short);
        assert_eq!(Room::of(5, false, true), Room::Short);
        assert_eq!(Room::of(6, false, true), Room::Tight);
        assert_eq!(Room::of(6, true, true), Room::Tight);
        let (s, v) = views(
            "cluster voters=1,2,3,4,5,6 seed=1\nwait-until leader\nwait 6s\nmember add 7 --learner\nstart 7\nwait 1s\n",
        );
        let leader = s.cluster().leader().unwrap();
        let follower = v
            .iter()
            .find(|n| n.running && n.id != leader && !n.learner)
            .unwrap();
        let learner = v.iter().find(|n| n.learner).unwrap();
        for n in [follower, learner] {
            let short = node_look(n, &English, false, Room::Short, 0);
            let tight = node_look(n, &English, false, Room::Tight, 0);
            // Short: what it is, its progress (m · n · state), its counts.
            assert_eq!(texts(&short).len(), 3, "{:?}", texts(&short));
            assert!(texts(&short)[1].starts_with("m "), "{:?}", texts(&short));
            // Tight: what it is, alone, and a learner's catch-up bar; a
            // learner is said to be one, its role (a follower's) left to
            // its colour.
            if n.learner {
                assert_eq!(texts(&short)[0], "learner · follower");
                assert_eq!(texts(&tight), ["learner"]);
            } else {
                assert_eq!(texts(&tight), texts(&short)[..1]);
            }
            let bars = |l: &NodeLook| {
                l.labels
                    .iter()
                    .filter(|l| matches!(l, Label::Bar(_)))
                    .count()
            };
            assert_eq!(bars(&tight), bars(&short));
            assert_eq!(bars(&tight), usize::from(n.learner));
        }
    }

    #[test]
    fn each_kind_of_node_has_its_body_colour_and_labels() {
        let (s, v) = views(
            "cluster voters=1,2,3 seed=1\nwait-until leader\nwait 6s\nmember add 4 --learner\nmember add 5 --peer-url=http://10.0.0.9:2380\ncrash 2\n",
        );
        let leader = s.cluster().leader().unwrap();
        let look = |id: u64| look_of(&v, id);
        let l = look(leader);
        assert_eq!(
            (l.body, l.colour, l.halo, l.timer),
            (Body::Disc, pal::LEADER, true, None)
        );
        assert!(l.dark_text && !l.down_mark && l.outline.is_none());
        assert_eq!(texts(&l)[0], "leader");
        assert!(texts(&l)[1].starts_with("msgs in "), "{:?}", texts(&l));

        let down = look(2);
        assert_eq!(
            (down.colour, down.down_mark, down.timer),
            (pal::DOWN, true, None)
        );
        assert_eq!(texts(&down)[0], "down");
        assert!(texts(&down)[1].starts_with("match "), "{:?}", texts(&down));

        let learner = look(4);
        assert_eq!(learner.body, Body::Hexagon);
        assert_eq!(learner.outline, Some(pal::NOT_STARTED));
        assert!(!learner.dark_text && !learner.down_mark);
        assert_eq!(texts(&learner)[0], "learner · not started");
        assert!(learner.labels.iter().any(|l| matches!(l, Label::Bar(_))));

        let bad = look(5);
        assert_eq!(bad.body, Body::NotStarted);
        assert_eq!(
            texts(&bad)[..2],
            ["not started", "unreachable URL http://10.0.0.9:2380"]
        );
        // Where the URL does not fit (a phone, beside other nodes), the
        // reason stays without it: a tap on the node gives it.
        assert_eq!(
            bad.labels[1],
            Label::Brief {
                full: "unreachable URL http://10.0.0.9:2380".into(),
                short: "unreachable URL".into(),
                colour: pal::BAD,
            }
        );
        assert_eq!(
            node_look(&v[4], &English, true, Room::Full, 0).outline,
            Some(pal::HOVER)
        );

        // A follower's timer runs; many nodes shorten the progress label.
        let follower = v.iter().find(|n| n.running && !n.leader).unwrap();
        let f = node_look(follower, &English, false, Room::Short, 64 * 1024);
        assert!(f.timer.is_some_and(|(frac, _)| (0.0..=1.0).contains(&frac)));
        assert!(texts(&f)[1].starts_with("m "), "{:?}", texts(&f));
        assert_eq!(*texts(&f).last().unwrap(), "send queue 64 KB");
    }

    #[test]
    fn a_learner_promoted_behind_its_back_says_how_it_sees_itself() {
        let (_, v) = views(
            "cluster voters=1,2 seed=1\ncampaign 1\nwait-until leader=1 within=2s\nwait 6s\n\
             member add 3 --learner\nstart 3\nwait 2s\nhold 1->3\nwait 1s\nmember promote 3\n",
        );
        let three = v.iter().find(|n| n.id == 3).unwrap();
        assert!(!three.learner, "the cluster counts it a voter");
        assert_eq!(three.sees_itself_learner, Some(true));
        let look = node_look(three, &English, false, Room::Full, 0);
        assert_eq!(texts(&look)[..2], ["follower", "sees itself as a learner"]);
        // The others see themselves as the cluster does: no such line.
        for n in v.iter().filter(|n| n.id != 3) {
            assert_eq!(n.sees_itself_learner, None, "node {}", n.id);
        }
    }

    #[test]
    fn the_look_does_not_depend_on_the_words() {
        let (_, v) = views(
            "cluster voters=1,2,3 seed=1\nwait-until leader\nwait 6s\nmember add 4 --learner\n",
        );
        for n in &v {
            let a = node_look(n, &English, false, Room::of(v.len(), false, false), 8000);
            let b = node_look(n, &Reworded, false, Room::of(v.len(), false, false), 8000);
            assert_eq!(a.labels.len(), b.labels.len());
            assert_eq!(
                (a.body, a.colour, a.timer, a.term),
                (b.body, b.colour, b.timer, b.term)
            );
        }
    }

    #[test]
    fn labels_go_outwards_and_stay_inside_the_canvas() {
        let mut l = Layout::default();
        l.compute(800.0, 600.0, &[(1, true), (2, true), (3, true), (4, true)]);
        let labels = vec![
            Label::Text("x".repeat(10), pal::TEXT),
            Label::Text("x".repeat(40), pal::TEXT),
        ];
        let width = |t: &str| t.len() as f64 * 7.0;
        // Node 1 at the top: centred, above.
        let top = place_labels(&l, &l.spots[0], &labels, width);
        assert_eq!(top.align, Align::Center);
        assert!(top.line_y(1) < l.spots[0].y - l.node_r);
        // Node 2 on the right: left-aligned beyond the node, or pulled in
        // so its widest line stays inside the canvas.
        let right = place_labels(&l, &l.spots[1], &labels[..1], width);
        assert_eq!(right.align, Align::Left);
        assert!(right.x > l.spots[1].x + l.node_r);
        let s1 = &l.spots[1];
        let w = l.width - 4.0 - (s1.x + l.node_r + 8.0);
        let pulled = place_labels(&l, s1, &labels, |t| if t.len() == 40 { w } else { 70.0 });
        assert_eq!(pulled.align, Align::Left);
        assert_eq!(pulled.x + w, l.width - 4.0);
        assert!(pulled.x > s1.x + l.node_r);
        // Node 4 on the left: right-aligned, its widest line inside.
        let s4 = &l.spots[3];
        let w = s4.x - l.node_r - 8.0 - l.left - 4.0;
        let left = place_labels(&l, s4, &labels, |t| if t.len() == 40 { w } else { 70.0 });
        assert_eq!(left.align, Align::Right);
        assert!(left.x - w >= 4.0 - 1e-9 && left.x < s4.x - l.node_r);
        assert_eq!(left.bar_x(), left.x - BAR_W);
        // Node 3 at the bottom: below.
        let bottom = place_labels(&l, &l.spots[2], &labels, width);
        assert!(bottom.top > l.spots[2].y);
    }

    #[test]
    fn on_a_phone_three_lines_under_the_bottom_node_clear_the_log_panel() {
        // A phone's canvas, held upright (an iPhone's 390x844 screen shows
        // it 390x408, an Android's 412x915 412x449; a small phone's and a
        // large one's): a node at the bottom of the ring has its role, its
        // progress and its message counts under it.
        let three = [
            Label::Text("learner · follower".into(), pal::TEXT),
            Label::Text("m 10 · n 12 · replicate".into(), pal::TEXT),
            Label::Text("in 91 · out 92".into(), pal::TEXT),
        ];
        let width = |t: &str| t.chars().count() as f64 * 7.0;
        for (w, h) in [
            (360.0, 380.0),
            (390.0, 408.0),
            (412.0, 449.0),
            (430.0, 480.0),
        ] {
            for n in 3..=8 {
                let nodes: Vec<_> = (1..=n).map(|id| (id, true)).collect();
                let mut l = Layout::default();
                l.compute(w, h, &nodes);
                assert!(l.small, "{w}x{h}");
                for s in l.spots.iter().filter(|s| s.dy > 0.5) {
                    let p = place_labels(&l, s, &three, width);
                    let bottom = p.top + three.len() as f64 * LABEL_LINE;
                    assert!(
                        bottom <= l.log_y,
                        "{w}x{h}, {n} nodes, node {}: labels end at {bottom}, the log panel starts at {}",
                        s.id,
                        l.log_y
                    );
                }
            }
        }
    }

    #[test]
    fn labels_too_wide_to_stand_beside_their_node_go_under_it() {
        // A narrow canvas (an embedded lesson's): three voters, node 2
        // lower right.
        let mut l = Layout::default();
        l.compute(600.0, 420.0, &[(1, true), (2, true), (3, true)]);
        let width = |t: &str| t.chars().count() as f64 * 7.0;
        let short = [Label::Text("follower".into(), pal::TEXT)];
        let long = [
            Label::Text("follower".into(), pal::TEXT),
            Label::Text("match 2007 · next 2008 · replicate".into(), pal::TEXT),
        ];
        let s = &l.spots[1];
        assert!(s.dx > 0.2 && s.dy > 0.0, "node 2 is lower right: {s:?}");
        // Short words stand beside it.
        let beside = place_labels(&l, s, &short, width);
        assert_eq!(beside.align, Align::Left);
        assert!(beside.x >= s.x + l.node_r);
        // Long ones would cover it: on the same side, pulled in, and down
        // past the node.
        let under = place_labels(&l, s, &long, width);
        assert_eq!(under.align, Align::Left);
        assert!(under.x < s.x + l.node_r, "pulled over the node: {under:?}");
        assert!(under.top >= s.y + l.node_r, "{under:?}");
        assert_eq!(under.x + 34.0 * 7.0, l.left + l.width - 4.0);
        // The same on the left, mirrored (node 3): the two blocks stay apart.
        let s3 = &l.spots[2];
        let under3 = place_labels(&l, s3, &long, width);
        assert_eq!(under3.align, Align::Right);
        assert!(under3.top >= s3.y + l.node_r || under3.x <= s3.x - l.node_r);
        assert!(under3.x < under.x, "{under3:?} and {under:?} overlap");
        // A canvas with no room under the node (above the log panel) keeps
        // the block beside it.
        let mut tiny = Layout::default();
        tiny.compute(600.0, 200.0, &[(1, true), (2, true), (3, true)]);
        let t = &tiny.spots[1];
        let beside = place_labels(&tiny, t, &long, width);
        assert!(
            beside.top < t.y && beside.top + 2.0 * LABEL_LINE > t.y,
            "{beside:?}"
        );
    }

    #[test]
    fn two_clusters_on_a_phone_keep_each_nodes_labels_clear_of_the_other_nodes() {
        // Side by side on a phone held upright, each column half its width:
        // cramped, so a node says only what it is (and a learner's bar),
        // and what would cover another node, another's labels or the log
        // panel gives way: the bar first, then the words.
        let width = |t: &str| t.chars().count() as f64 * 7.0;
        // The widest head a running learner has there, and its bar.
        let learner = || {
            vec![
                Label::Text("read-only strong".into(), pal::TEXT),
                Label::Bar(Bar {
                    ratio: 1.0,
                    fill: pal::GOOD,
                    line: None,
                }),
            ]
        };
        let voter = || vec![Label::Text("follower".into(), pal::TEXT)];
        let mut whole = 0;
        for (w, h) in [(360.0, 380.0), (390.0, 408.0), (412.0, 449.0)] {
            for lines in [1, 2] {
                for n in 3..=5u64 {
                    let ring: Vec<_> = (1..=n).map(|id| (id, true)).collect();
                    let other: Vec<_> = (11..=13).map(|id| (id, true)).collect();
                    let mut b = Board {
                        top_inset: 50.0,
                        caption_lines: lines,
                        ..Board::default()
                    };
                    b.compute(w, h, &[ring, other], &[]);
                    // Each node of the first ring a learner in turn.
                    for learner_at in 0..n as usize {
                        let l = &b.parts[0];
                        assert!(l.cramped && b.parts[1].cramped, "{w}x{h}");
                        assert_eq!(Room::in_layout(n as usize, l), Room::Tight);
                        let mut labels: Vec<_> = (0..n as usize)
                            .map(|i| if i == learner_at { learner() } else { voter() })
                            .collect();
                        let places = fit_labels(l, &mut labels, &[], width);
                        let at = format!("{w}x{h}, {lines} caption lines, {n} nodes");
                        assert_fitted(l, &labels, &places, &at);
                        // On the common phones every node keeps what it is,
                        // and a learner at the ring's side (not at its top or
                        // bottom, where a line more would not fit) its bar.
                        if w >= 390.0 {
                            let at = format!("{w}x{h}, {lines} caption lines, {n} nodes, learner {learner_at}: {labels:?}");
                            assert!(labels.iter().all(|m| !m.is_empty()), "{at}");
                            let s = &l.spots[learner_at];
                            if s.dy.abs() < 0.5 && lines == 1 {
                                assert_eq!(labels[learner_at].len(), 2, "{at}");
                                whole += 1;
                            }
                        }
                    }
                }
            }
        }
        // Side learners were looked at on both common phones (two a ring
        // of four and of five at least).
        assert!(whole >= 8, "{whole}");
    }

    /// Every block `fit_labels` kept, placed as it says: inside the column,
    /// clear of the other nodes, of each other (a gap between two side by
    /// side), of the top and of the log.
    fn assert_fitted(l: &Layout, labels: &[Vec<Label>], places: &[Placement], at: &str) {
        let width = |t: &str| t.chars().count() as f64 * 7.0;
        assert_fitted_at_width(l, labels, places, at, width);
    }

    /// [`assert_fitted`], each line measured by `width`.
    fn assert_fitted_at_width(
        l: &Layout,
        labels: &[Vec<Label>],
        places: &[Placement],
        at: &str,
        width: impl Fn(&str) -> f64,
    ) {
        let mut blocks: Vec<[f64; 4]> = Vec::new();
        for ((s, mine), p) in l.spots.iter().zip(labels).zip(places) {
            if mine.is_empty() {
                continue;
            }
            let b = block(p, mine, &width);
            let [x0, y0, x1, y1] = b;
            let at = format!("{at}, node {}: {b:?}", s.id);
            assert!(x0 >= l.left && x1 <= l.left + l.width, "{at}: outside");
            assert!(
                y0 >= l.labels_top() && y1 <= l.log_y,
                "{at}: over the top or the log"
            );
            assert!(
                x0 >= l.corner[0] || y0 >= l.corner[1],
                "{at}: under the corner's button"
            );
            for o in l.spots.iter().filter(|o| o.id != s.id) {
                let (nx, ny) = (o.x.clamp(x0, x1), o.y.clamp(y0, y1));
                assert!(
                    (nx - o.x).hypot(ny - o.y) >= l.node_r + 6.0,
                    "{at}: covers node {}",
                    o.id
                );
            }
            for k in &blocks {
                assert!(
                    x1 + LABEL_GAP <= k[0] || k[2] + LABEL_GAP <= x0 || y1 <= k[1] || k[3] <= y0,
                    "{at}: covers {k:?} or stands against it"
                );
            }
            blocks.push(b);
        }
    }

    /// A line's width as the tests measure Japanese: 12 px a character
    /// outside ASCII, 7 px in it.
    fn japanese_width(t: &str) -> f64 {
        t.chars()
            .map(|c| if c.is_ascii() { 7.0 } else { 12.0 })
            .sum()
    }

    /// A follower's three lines: what it is, the leader's view, its counts.
    fn follower_lines(progress: &str, counts: &str) -> Vec<Label> {
        [
            ("follower", pal::TEXT),
            (progress, pal::TEXT),
            (counts, pal::TEXT),
        ]
        .map(|(t, c)| Label::Text(t.into(), c))
        .to_vec()
    }

    #[test]
    fn labels_keep_clear_of_a_cut_links_mark() {
        // Lesson 4 on a phone: node 3 cut from the other three. The crosses
        // of 4-3 and 2-3 stood under the words "follower" of nodes 4 and 2.
        let width = |t: &str| t.chars().count() as f64 * 7.0;
        let three = || follower_lines("m 9 · n 10 · replicate", "in 55 · out 56");
        let mut s = Session::from_script("cluster voters=1,2,3,4 seed=1\n").unwrap();
        for c in ["cut 3 1", "cut 3 2", "cut 3 4", "cut 1->2"] {
            s.command(c).unwrap();
        }
        for (w, h) in [
            (360.0, 380.0),
            (390.0, 408.0),
            (412.0, 449.0),
            (1100.0, 700.0),
        ] {
            let mut l = Layout {
                top_inset: 40.0,
                ..Layout::default()
            };
            l.compute(w, h, &[(1, true), (2, true), (3, true), (4, true)]);
            let marks = cut_marks(&l, s.cluster());
            assert_eq!(marks.len(), 4, "three both ways, one one way");
            let mut labels: Vec<_> = (0..4).map(|_| three()).collect();
            let places = fit_labels(&l, &mut labels, &marks, width);
            let at = format!("{w}x{h}");
            assert_fitted(&l, &labels, &places, &at);
            for (mine, p) in labels.iter().zip(&places) {
                assert!(!mine.is_empty(), "{at}: every node says what it is");
                let b = block(p, mine, width);
                for &(x, y) in &marks {
                    assert!(
                        clears(&b, x, y, CUT_MARK_R),
                        "{at}: {b:?} covers the mark at {x}, {y}"
                    );
                }
            }
        }
        // Marks that leave a node's first line nowhere else do not silence
        // it: its labels stand over them as if there were none.
        let mut l = Layout::default();
        l.compute(390.0, 408.0, &[(1, true), (2, true), (3, true)]);
        let everywhere: Vec<(f64, f64)> = (0..40)
            .flat_map(|i| (0..42).map(move |j| (i as f64 * 10.0, j as f64 * 10.0)))
            .collect();
        let mut over: Vec<_> = (0..3).map(|_| three()).collect();
        let mut none = over.clone();
        let at = fit_labels(&l, &mut over, &everywhere, width);
        assert_eq!(at, fit_labels(&l, &mut none, &[], width));
        assert_eq!(over, none);
        assert!(over.iter().all(|m| !m.is_empty()), "{over:?}");
    }

    #[test]
    fn a_misconfigured_learners_long_labels_give_way_rather_than_cover_the_leader() {
        // Lesson 14 on a phone: node 5, a learner that cannot start, has
        // five lines (what it is, its bad URL, the leader's view of it, its
        // bar, its promotion threshold); the others three. Its block went
        // up over the leader's. Now on any canvas no block covers a node or
        // another block, and on a laptop's every node keeps three lines.
        let width = |t: &str| t.chars().count() as f64 * 7.0;
        let three = || follower_lines("m 2025 · n 2026 · replicate", "in 4829 · out 4830");
        let five = || {
            vec![
                Label::Text("learner · not started".into(), pal::TEXT),
                Label::Brief {
                    full: "unreachable URL http://10.0.0.9:2380".into(),
                    short: "unreachable URL".into(),
                    colour: pal::TEXT,
                },
                Label::Text("m 0 · n 2025 · probe".into(), pal::TEXT),
                Label::Bar(Bar {
                    ratio: 0.0,
                    fill: pal::GOOD,
                    line: None,
                }),
                Label::Text("auto-promotes at 90%".into(), pal::TEXT),
            ]
        };
        // How often the URL line was said shortly, and in full.
        let mut said = [0, 0];
        for (w, h) in [
            (360.0, 380.0),
            (390.0, 408.0),
            (412.0, 449.0),
            (870.0, 640.0),
            (1100.0, 700.0),
        ] {
            for n in 3..=9u64 {
                let nodes: Vec<_> = (1..=n).map(|id| (id, true)).collect();
                let mut l = Layout {
                    top_inset: 40.0,
                    ..Layout::default()
                };
                // On a phone the legend's button stands in the top-left
                // corner (English's, the wider).
                if w < 560.0 {
                    l.corner = [82.0, 50.0];
                }
                l.compute(w, h, &nodes);
                for misconfigured in 0..n as usize {
                    let mut labels: Vec<_> = (0..n as usize)
                        .map(|i| if i == misconfigured { five() } else { three() })
                        .collect();
                    let places = fit_labels(&l, &mut labels, &[], width);
                    let at = format!(
                        "{w}x{h}, {n} nodes, node {} misconfigured",
                        misconfigured + 1
                    );
                    assert_fitted(&l, &labels, &places, &at);
                    // On the common phones and wider, a ring of up to five
                    // keeps at least what each node is.
                    if w >= 390.0 && n <= 5 {
                        assert!(labels.iter().all(|m| !m.is_empty()), "{at}: {labels:?}");
                    }
                    // On a laptop's, three lines at least (all a voter
                    // says; a node at the top or the bottom has three
                    // lines' room under the legend or above the log panel).
                    if w >= 870.0 && n <= 5 {
                        let whole = labels.iter().all(|m| m.len() >= 3);
                        assert!(whole, "{at}: {labels:?}");
                    }
                    // The reason it cannot start comes right after what it
                    // is: with its URL where that fits (a laptop's), else
                    // without (a phone's, beside the leader).
                    let mine = &labels[misconfigured];
                    if let Some(Label::Text(t, _)) = mine.get(1) {
                        assert!(t.starts_with("unreachable URL"), "{at}: {mine:?}");
                        said[usize::from(t.len() > 15)] += 1;
                        if w >= 870.0 && n <= 5 {
                            assert!(t.ends_with(":2380"), "{at}: {mine:?}");
                        }
                    }
                    if (390.0..870.0).contains(&w)
                        && n == 5
                        && l.spots[misconfigured].dy.abs() < 0.5
                    {
                        assert!(mine.len() >= 2, "{at}: {mine:?}");
                    }
                }
            }
        }
        // Both ways were taken.
        assert!(said[0] > 0 && said[1] > 0, "{said:?}");
    }

    #[test]
    fn a_cramped_rings_top_and_bottom_lines_clear_the_caption_and_the_log() {
        // Two or three clusters on a phone, three on a laptop's canvas:
        // the top node's line stays under its column's caption (on one
        // line or two), the bottom node's above the log panel.
        let head = [Label::Text("follower".into(), pal::TEXT)];
        let width = |t: &str| t.chars().count() as f64 * 7.0;
        for (w, h) in [
            (360.0, 380.0),
            (390.0, 408.0),
            (412.0, 449.0),
            (870.0, 640.0),
        ] {
            for k in 2..=3usize {
                for lines in [1, 2] {
                    for n in 3..=5u64 {
                        let clusters: Vec<Vec<_>> = (0..k as u64)
                            .map(|c| (1..=n).map(|id| (c * 10 + id, true)).collect())
                            .collect();
                        let mut b = Board {
                            top_inset: 50.0,
                            caption_lines: lines,
                            ..Board::default()
                        };
                        b.compute(w, h, &clusters, &[]);
                        for l in b.parts.iter().filter(|l| l.cramped) {
                            let caption_end =
                                l.name_y + 15.0 + CAPTION_LINE * (lines - 1) as f64 + 6.0;
                            for s in &l.spots {
                                let p = place_labels(l, s, &head, width);
                                let [_, y0, _, y1] = block(&p, &head, width);
                                let at = format!("{w}x{h}, {k} clusters, {lines} caption lines, {n} nodes, node {}", s.id);
                                assert!(
                                    y0 >= caption_end,
                                    "{at}: {y0} over the caption ({caption_end})"
                                );
                                assert!(
                                    y1 <= l.log_y,
                                    "{at}: {y1} under the log panel ({})",
                                    l.log_y
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_line_said_in_full_keeps_room_from_the_next_node_or_is_said_shortly() {
        // Lesson 14's end on a phone, in Japanese: node 6 at the ring's
        // left side sees itself as a learner. Its line in full
        // (自分を学習者だと思っている) went up past the node and ran up to the
        // leader's disc, where it read as the leader's; said shortly it
        // stands clear. On a laptop's canvas it is said in full.
        let width = japanese_width;
        let text = |t: &str| Label::Text(t.into(), pal::TEXT);
        let follower = || {
            vec![
                text("フォロワー"),
                text("m 2043 · n 2044 · replicate"),
                text("受1181・送1196"),
            ]
        };
        let nodes: Vec<_> = [1, 2, 3, 4, 6].map(|id| (id, true)).to_vec();
        for (w, h, phone) in [(390.0, 423.0, true), (870.0, 640.0, false)] {
            let mut l = Layout {
                top_inset: 40.0,
                ..Layout::default()
            };
            if phone {
                l.corner = [46.0, 50.0];
            }
            l.compute(w, h, &nodes);
            let mut labels = vec![
                vec![text("リーダー"), text("受12185・送12767")],
                follower(),
                follower(),
                follower(),
                vec![
                    text("フォロワー"),
                    Label::Brief {
                        full: "自分を学習者だと思っている".into(),
                        short: "自認：学習者".into(),
                        colour: pal::SELF_VIEW,
                    },
                ],
            ];
            let places = fit_labels(&l, &mut labels, &[], width);
            let at = format!("{w}x{h}: {labels:?}");
            assert_fitted_at_width(&l, &labels, &places, &at, width);
            let said = match &labels[4][..] {
                [_, Label::Text(t, _)] => t.as_str(),
                other => panic!("{at}: {other:?}"),
            };
            let b = block(&places[4], &labels[4], width);
            let leader = &l.spots[0];
            let room = (leader.x.clamp(b[0], b[2]) - leader.x)
                .hypot(leader.y.clamp(b[1], b[3]) - leader.y);
            assert!(room >= l.node_r + 8.0 + LABEL_ROOM, "{at}: {room}");
            assert_eq!(
                said,
                if phone {
                    "自認：学習者"
                } else {
                    "自分を学習者だと思っている"
                },
                "{at}"
            );
        }
    }

    #[test]
    fn side_by_side_labels_keep_a_gap_in_japanese_on_a_phone() {
        // Three clusters of three on a phone, in Japanese: the bottom
        // nodes' "フォロワー" of neighbouring nodes stood edge to edge and
        // read as one line. Each block keeps a space's width from the next
        // (`assert_fitted_at_width`), and every node still says what it is.
        let width = japanese_width;
        let mut gaps = 0;
        for (w, h) in [(360.0, 380.0), (390.0, 408.0), (412.0, 449.0)] {
            for n in 3..=4u64 {
                let clusters: Vec<Vec<_>> = (0..3u64)
                    .map(|c| (1..=n).map(|id| (c * 10 + id, true)).collect())
                    .collect();
                let mut b = Board {
                    top_inset: 50.0,
                    ..Board::default()
                };
                b.compute(w, h, &clusters, &[]);
                for l in &b.parts {
                    let mut labels: Vec<_> = (0..n)
                        .map(|_| vec![Label::Text("フォロワー".into(), pal::TEXT)])
                        .collect();
                    let places = fit_labels(l, &mut labels, &[], width);
                    let at = format!("{w}x{h}, {n} nodes a cluster");
                    assert_fitted_at_width(l, &labels, &places, &at, width);
                    assert!(labels.iter().all(|m| m.len() == 1), "{at}: {labels:?}");
                    // Blocks that stand level, side by side (the gap
                    // between them asked above).
                    let blocks: Vec<_> =
                        places.iter().map(|p| block(p, &labels[0], width)).collect();
                    for (i, a) in blocks.iter().enumerate() {
                        gaps += blocks[i + 1..]
                            .iter()
                            .filter(|c| a[1] < c[3] && c[1] < a[3])
                            .count();
                    }
                }
            }
        }
        // Some of them did stand level, side by side.
        assert!(gaps > 0);
    }

    #[test]
    fn a_mirrors_caption_gives_way_to_the_nodes_it_would_cover() {
        // Lesson 17's last step: two mirrors between a ring of four and a
        // ring of three. On a laptop's canvas both keep both lines; on a
        // phone's, the second mirror stands level with the first ring's
        // side node, and its lines keep only what clears every node.
        let widths = [120.0, 110.0];
        let board = |w: f64, h: f64| {
            let mut b = Board {
                top_inset: 50.0,
                ..Board::default()
            };
            let main: Vec<_> = (1..=4).map(|id| (id, true)).collect();
            let copy: Vec<_> = (11..=13).map(|id| (id, true)).collect();
            b.compute(w, h, &[main, copy], &[(9, 1, 11), (8, 1, 11)]);
            b
        };
        let wide = board(870.0, 640.0);
        for m in &wide.mirrors {
            assert_eq!(mirror_caption_lines(&wide, m, &widths), 2, "{m:?}");
        }
        let phone = board(390.0, 408.0);
        let kept: Vec<usize> = phone
            .mirrors
            .iter()
            .map(|m| mirror_caption_lines(&phone, m, &widths))
            .collect();
        assert_eq!(kept[0], 2, "the first mirror stands above the rings");
        assert!(kept[1] < 2, "{kept:?}: the second would cover node 2");
        // What is kept covers no node.
        for (m, &k) in phone.mirrors.iter().zip(&kept) {
            for (i, w) in widths.iter().enumerate().take(k) {
                let y = mirror_line_y(m, i);
                for l in &phone.parts {
                    for o in &l.spots {
                        let nx = o.x.clamp(m.x - w / 2.0, m.x + w / 2.0);
                        let ny = o.y.clamp(y - 7.0, y + 7.0);
                        assert!(
                            (nx - o.x).hypot(ny - o.y) >= l.node_r + 6.0,
                            "mirror {} line {i} on node {}",
                            m.id,
                            o.id
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_caption_too_wide_for_its_column_is_cut_where_its_lines_come_out_even() {
        assert_eq!(
            split_caption("リーダー：ノード11 · 任期2 · リビジョン7"),
            ("リーダー：ノード11", "任期2 · リビジョン7")
        );
        assert_eq!(
            split_caption("leader 12 · term 2 · rev 7"),
            ("leader 12", "term 2 · rev 7")
        );
        assert_eq!(split_caption("no leader · rev 12"), ("no leader", "rev 12"));
        assert_eq!(split_caption("main"), ("main", ""));
    }

    #[test]
    fn the_strips_window_follows_the_newest_entries_and_keeps_the_commit() {
        assert_eq!(log_window(10, 10, 30), 1);
        assert_eq!(log_window(100, 100, 30), 71);
        // A leader far ahead: the commit stays two thirds along.
        assert_eq!(log_window(200, 100, 30), 80);
        assert!(index_tick(5, 3) && index_tick(71, 71) && !index_tick(74, 71));
        assert!(!index_tick(73, 73), "3 would crowd the 5 after it");
    }

    #[test]
    fn a_strip_shows_each_entry_and_what_was_compacted() {
        let (s, v) = views(
            "cluster voters=1,2,3 seed=1 snapshot-count=5 catchup-entries=2\nwait-until leader\nput a 1\nput b 2\nput c 3\nput d 4\nput e 5\ncompact 1\ncrash 3\n",
        );
        let one = Strip::of(&v[0], s.cluster().world().node(1)).unwrap();
        assert!(one.first > 1, "compacted: first {}", one.first);
        assert_eq!(one.cell(1), Cell::Compacted);
        assert_eq!(one.cell(one.last + 1), Cell::Empty);
        assert!(matches!(
            one.cell(one.last),
            Cell::Entry {
                committed: true,
                mark: Mark::None,
                ..
            }
        ));
        // A crashed node's strip is what it kept on disk.
        let three = Strip::of(&v[2], s.cluster().world().node(3)).unwrap();
        assert_eq!(three.applied, None);
        assert!(three.last >= 5);
        assert!(matches!(three.cell(three.last), Cell::Entry { .. }));
        // The bootstrap configuration is three membership changes; a new
        // leader's first entry carries no data.
        let (s, v) = views("cluster voters=1,2,3 seed=1\nwait-until leader\n");
        let one = Strip::of(&v[0], s.cluster().world().node(1)).unwrap();
        assert!(matches!(
            one.cell(1),
            Cell::Entry {
                mark: Mark::Diamond,
                committed: true,
                ..
            }
        ));
        assert!(matches!(
            one.cell(4),
            Cell::Entry {
                mark: Mark::Dot,
                ..
            }
        ));
    }

    #[test]
    fn the_links_picture_changes_with_a_cut_a_hover_or_the_layout_not_with_time() {
        let mut s =
            Session::from_script("cluster voters=1,2,3 seed=1\nwait-until leader\n").unwrap();
        let mut l = Layout::default();
        l.compute(800.0, 600.0, &[(1, true), (2, true), (3, true)]);
        let key = |s: &Session, l: &Layout, hover| {
            let v = view::nodes(s.cluster());
            let bad = v.iter().map(|v| v.bad_url.is_some());
            links_key(l, s.cluster(), bad, hover).map(|k| k.0)
        };
        let before = key(&s, &l, None).unwrap();
        // Time passes, messages fly, a node is hovered: the same picture.
        s.advance(700);
        assert_eq!(key(&s, &l, Some(Hit::Node(2))), Some(before));
        // A cut either way, a hovered link, another layout: painted again.
        s.command("cut 1->2").unwrap();
        let one_way = key(&s, &l, None).unwrap();
        s.command("cut 2->1").unwrap();
        let both = key(&s, &l, None).unwrap();
        assert!(one_way != before && both != before && both != one_way);
        s.command("heal 1 2").unwrap();
        assert_eq!(key(&s, &l, None), Some(before));
        let link = |a, b| Some(Hit::Link { a, b, near: a });
        let (a, b) = (key(&s, &l, link(1, 3)), key(&s, &l, link(1, 2)));
        assert!(a != Some(before) && b != Some(before) && a != b);
        let mut wide = Layout::default();
        wide.compute(1000.0, 600.0, &[(1, true), (2, true), (3, true)]);
        assert_ne!(key(&s, &wide, None), Some(before));
        // The part covers every linked node's centre, with room for a
        // hovered link's width.
        let bad = [false; 3].into_iter();
        let [x0, y0, x1, y1] = links_key(&l, s.cluster(), bad, None).unwrap().1;
        for sp in &l.spots {
            assert!(x0 + 3.0 < sp.x && sp.x < x1 - 3.0 && y0 + 3.0 < sp.y && sp.y < y1 - 3.0);
        }
        // One linked node: no link, no picture.
        let mut one = Layout::default();
        one.compute(800.0, 600.0, &[(1, true), (2, false), (3, false)]);
        assert_eq!(key(&s, &one, None), None);
    }

    #[test]
    fn a_nodes_picture_changes_with_its_look_not_with_its_timer_or_labels() {
        let (_, v) = views("cluster voters=1,2,3 seed=1\nwait-until leader\nwait 1s\n");
        let follower = v.iter().find(|n| n.running && !n.leader).unwrap();
        let leader = v.iter().find(|n| n.leader).unwrap();
        let look = node_look(follower, &English, false, Room::Full, 0);
        assert!(look.timer.is_some());
        let mut moved = look.clone();
        moved.timer = moved.timer.map(|(f, _)| (1.0 - f, pal::CANDIDATE));
        moved.countdown = Some(0.5);
        moved.labels.clear();
        assert_eq!(moved.still(), look.still());
        let hovered = node_look(follower, &English, true, Room::Full, 0);
        let other = node_look(leader, &English, false, Room::Full, 0);
        let mut term = look.clone();
        term.term = term.term.map(|t| t + 1);
        let mut down = look.clone();
        down.down_mark = true;
        let keys = [
            look.still(),
            hovered.still(),
            other.still(),
            term.still(),
            down.still(),
        ];
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
        // Strings by their words, not their place in memory.
        let owned = String::from("#38bdf8");
        assert_eq!(Key::new().s("#38bdf8"), Key::new().s(owned.as_str()));
        assert_ne!(Key::new().s("ab").s(""), Key::new().s("a").s("b"));
    }

    #[test]
    fn message_dots_grow_slowly_and_stop_growing() {
        assert_eq!(message_radius(0), message_radius(64));
        assert!(message_radius(1024) > message_radius(64));
        assert_eq!(message_radius(1 << 30), 10.0);
    }

    #[test]
    fn a_message_glides_from_sender_to_receiver_unless_still() {
        // Queued at its sender until it departs, then on its way.
        assert_eq!(message_progress(100, 140, 90.0, false), 0.0);
        assert_eq!(message_progress(100, 140, 110.0, false), 0.25);
        assert_eq!(message_progress(100, 140, 150.0, false), 1.0);
        // Less motion: at the link's middle the whole way, never gliding;
        // still at its sender while queued.
        for t in [100.0, 110.0, 130.5, 139.9] {
            assert_eq!(message_progress(100, 140, t, true), 0.5);
        }
        assert_eq!(message_progress(100, 140, 90.0, true), 0.0);
    }

    #[test]
    fn learners_carry_their_kind_and_their_promotion_line() {
        let (_, v) = views(
            "cluster voters=1,2,3 seed=1 max-learners=5 auto-promote=80%\nwait-until leader\nwait 6s\nmember add 4 --learner --standby\nmember add 5 --learner --read-only=weak\nmember add 6 --learner --read-only=strong\nmember add 7 --learner\n",
        );
        let look = |id: u64| look_of(&v, id);
        let bar = |l: &NodeLook| {
            l.labels
                .iter()
                .find_map(|l| match l {
                    Label::Bar(b) => Some(*b),
                    _ => None,
                })
                .expect("a learner's catch-up bar")
        };
        // Every learner is a hexagon; the kind is its badge and its words.
        let kinds: Vec<_> = (4..=7).map(|id| (look(id).body, look(id).badge)).collect();
        assert_eq!(
            kinds,
            [
                (Body::Hexagon, Some(Badge::Standby)),
                (Body::Hexagon, Some(Badge::ReadWeak)),
                (Body::Hexagon, Some(Badge::ReadStrong)),
                (Body::Hexagon, None),
            ]
        );
        assert_eq!(look(1).badge, None);
        let heads: Vec<String> = (4..=7).map(|id| texts(&look(id))[0].to_string()).collect();
        assert_eq!(
            heads,
            [
                "standby · not started",
                "read-only weak · not started",
                "read-only strong · not started",
                "learner · not started"
            ]
        );
        let colours: Vec<_> = [Badge::Standby, Badge::ReadWeak, Badge::ReadStrong]
            .map(Badge::colour)
            .to_vec();
        assert!(colours[0] != colours[1] && colours[1] != colours[2] && colours[0] != colours[2]);
        // The plain learner is promoted by the leader at the cluster's 80%:
        // its bar shows that line, in the auto colour, and says so.
        let plain = look(7);
        assert_eq!(bar(&plain).line, Some((0.8, pal::AUTO_LINE)));
        assert!(texts(&plain).contains(&"auto-promotes at 80%"));
        // A standby is promoted (by failover) at etcd's 90%, never by
        // auto-promote; a read-only learner is never promoted: no line.
        let standby = look(4);
        assert_eq!(bar(&standby).line, Some((0.9, pal::TEXT)));
        assert!(!texts(&standby).iter().any(|t| t.starts_with("auto")));
        for id in [5, 6] {
            let b = bar(&look(id));
            assert_eq!((b.line, b.fill), (None, pal::FOLLOWER), "node {id}");
        }
        assert_eq!(bar(&plain).fill, pal::LEADER, "behind its line");
        assert_eq!(bar(&plain).percent(), 0);
        // Without auto-promote, a plain learner's line is etcd's 90%.
        let (_, v) = views(
            "cluster voters=1,2,3 seed=1\nwait-until leader\nwait 6s\nmember add 4 --learner\n",
        );
        let l = node_look(&v[3], &English, false, Room::Full, 0);
        assert_eq!(bar(&l).line, Some((0.9, pal::TEXT)));
        assert!(!texts(&l).iter().any(|t| t.starts_with("auto")));
    }

    #[test]
    fn a_silent_voter_counts_down_to_failover_while_a_standby_waits() {
        let mut s = Session::from_script(
            "cluster voters=1,2,3 seed=1 failover-after=5s\nwait-until leader\nwait 6s\nmember add 4 --learner --standby\nstart 4\nwait 3s\n",
        )
        .unwrap();
        let leader = s.cluster().leader().unwrap();
        let victim = (1..=3).find(|&id| id != leader).unwrap();
        let look = |s: &Session, id: u64| {
            let v = view::NodeView::of(s.cluster(), id);
            node_look(&v, &English, false, Room::Full, 0)
        };
        assert_eq!(look(&s, victim).countdown, None, "heard from: no countdown");
        s.command(&format!("crash {victim}")).unwrap();
        s.advance(500);
        assert_eq!(
            look(&s, victim).countdown,
            None,
            "silent for less than an election timeout"
        );
        s.advance(1500);
        let l = look(&s, victim);
        let left = l.countdown.expect("silent for 2s: the countdown runs");
        assert!((0.5..0.8).contains(&left), "{left}");
        let said = texts(&l)
            .into_iter()
            .find(|t| t.starts_with("failover in "))
            .expect("the countdown in words")
            .to_string();
        let v = view::NodeView::of(s.cluster(), victim);
        let f = v.failover.unwrap();
        assert_eq!(f.after_ms, 5000);
        assert_eq!(f.left_ms + f.silent_ms, 5000);
        assert_eq!(said, English.failover_countdown(&f));
        let at = |left_ms| view::FailoverView {
            silent_ms: 5000 - left_ms,
            after_ms: 5000,
            left_ms,
        };
        assert_eq!(English.failover_countdown(&at(2400)), "failover in 2.4s");
        assert_eq!(
            English.failover_countdown(&at(0)),
            "failover due: needs a ready standby"
        );
        assert_eq!(look(&s, leader).countdown, None);
        assert_eq!(look(&s, 4).countdown, None);
        // Time up: the leader replaced the voter; no countdown is left.
        s.advance(4000);
        let q = view::QuorumView::of(s.cluster());
        assert!(
            q.voters.contains(&4) && !q.voters.contains(&victim),
            "{q:?}"
        );
        assert!(view::nodes(s.cluster())
            .iter()
            .all(|n| n.failover.is_none()));
    }

    #[test]
    fn no_countdown_without_a_standby() {
        let mut s = Session::from_script(
            "cluster voters=1,2,3 seed=1 failover-after=5s\nwait-until leader\nwait 6s\n",
        )
        .unwrap();
        let leader = s.cluster().leader().unwrap();
        let victim = (1..=3).find(|&id| id != leader).unwrap();
        s.command(&format!("crash {victim}")).unwrap();
        s.advance(3000);
        assert!(view::nodes(s.cluster())
            .iter()
            .all(|n| n.failover.is_none()));
    }

    #[test]
    fn each_node_counts_its_messages_and_a_weak_read_costs_the_leader_nothing() {
        let mut s = Session::from_script(
            "cluster voters=1,2,3 seed=1 max-learners=2\nwait-until leader\nwait 6s\nmember add 4 --learner --read-only=weak\nmember add 5 --learner --read-only=strong\nstart 4\nstart 5\nput k v\nwait 2s\n",
        )
        .unwrap();
        let leader = s.cluster().leader().unwrap();
        let counts = |s: &Session, id| {
            let v = view::NodeView::of(s.cluster(), id);
            (v.msgs_in, v.msgs_out)
        };
        let before = counts(&s, leader);
        assert!(before.0 > 0 && before.1 > 0, "{before:?}");
        let four = counts(&s, 4);
        let r = s.command("get k via=4").unwrap();
        assert_eq!(r.value, Some(Some("v".to_string())), "{r:?}");
        assert_eq!(
            counts(&s, leader),
            before,
            "the weak read sent the leader nothing"
        );
        assert_eq!(counts(&s, 4), four);
        let v = view::NodeView::of(s.cluster(), leader);
        let look = node_look(&v, &English, false, Room::Full, 0);
        assert!(texts(&look).contains(&format!("msgs in {} · out {}", before.0, before.1).as_str()));
        // A strong read goes through the leader: a read index round.
        let r = s.command("get k via=5").unwrap();
        assert_eq!(r.value, Some(Some("v".to_string())), "{r:?}");
        let after = counts(&s, leader);
        assert!(
            after.0 > before.0 && after.1 > before.1,
            "{before:?} {after:?}"
        );
    }

    #[test]
    fn a_second_cluster_and_a_mirror_are_captioned_in_both_languages() {
        use crate::words::text_ja::Japanese;
        let s = Session::from_script(
            "cluster voters=1,2,3 seed=1\ncluster voters=11,12,13 name=copy\ncampaign 1\ncampaign 11\nwait-until leader=1 within=2s\nwait-until leader=11 within=2s\nmirror start 9 from=1 to=11\nwait-until mirror 9=watching within=10s\nput k 1\nwait 1s\n",
        )
        .unwrap();
        let m = &view::MirrorView::all(s.fleet())[0];
        let last = m.report.last_revision;
        assert!(last > 0);
        assert_eq!(
            English.mirror_caption(m),
            [
                "mirror 9 · watching".to_string(),
                format!("relayed to rev {last}")
            ]
        );
        assert_eq!(
            Japanese.mirror_caption(m),
            [
                "ミラー9 · ウォッチ中".to_string(),
                format!("リビジョン{last}まで中継")
            ]
        );
        assert_eq!(
            English.ring_caption(Some((1, 2)), 7),
            "leader 1 · term 2 · rev 7"
        );
        assert_eq!(English.ring_caption(None, 7), "no leader · rev 7");
        assert_eq!(
            Japanese.ring_caption(Some((11, 2)), 3),
            "リーダー：ノード11 · 任期2 · リビジョン3"
        );
        // Failed: the second line is the error's code.
        let mut s = s;
        for c in [
            "cut 9 1",
            "put k 2",
            "put k 3",
            "compaction 4",
            "heal 9 1",
            "wait 1s",
        ] {
            s.command(c).unwrap();
        }
        let m = &view::MirrorView::all(s.fleet())[0];
        assert_eq!(m.report.state, "failed");
        let [head, tail] = English.mirror_caption(m);
        assert_eq!(head, "mirror 9 · failed");
        assert_eq!(Some(tail.as_str()), m.report.error);
        // In Japanese, what the error means, not its English code.
        assert_eq!(
            Japanese.mirror_caption(m),
            [
                "ミラー9 · 失敗".to_string(),
                "コンパクション済み".to_string()
            ]
        );
    }
}
