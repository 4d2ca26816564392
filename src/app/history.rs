//! The history view: the clients' operations on a time axis, one lane per
//! key and client, as Porcupine's visualisation draws them, with the
//! linearizability checker's anomaly highlighted. What is shown (the time
//! window, the lanes, each bar) and where it goes are decided here and
//! tested natively; `wasm` paints them, and only while the view is open.
//!
//! The window: with an anomaly, its operations with room around them (the
//! stale read and the writes it contradicts, side by side); otherwise the
//! latest [`RECENT_MS`] of the run.

use crate::app::trig::clamp;
use crate::collections::vecmap::{reorder, stable_order, VecMap};
use crate::session::view::HistoryVerdict;
use crate::sim::linearizability::{ClientId, Linearizability, OpKind, OpName, Operation, Stamp};

/// Without an anomaly, the view shows this much of the run's end.
pub const RECENT_MS: u64 = 20_000;

/// At most this many lanes; the anomaly's come first.
pub const MAX_LANES: usize = 10;

/// One operation's bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpBar {
    /// Its position in the history the checker was given.
    pub index: usize,
    pub kind: OpName,
    /// The value written, or read (`None`: absent, or a delete).
    pub value: Option<String>,
    pub invoke_ms: u64,
    /// `None`: never answered, so its outcome is unknown: the bar stays
    /// open to the window's end.
    pub response_ms: Option<u64>,
    /// One of the anomaly's operations.
    pub flagged: bool,
    /// The exact moments, which also order events of one millisecond.
    pub invoke: Stamp,
    pub response: Option<Stamp>,
}

/// One key as one client saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lane {
    pub key: String,
    pub client: ClientId,
    /// The anomaly's key.
    pub flagged: bool,
    pub bars: Vec<OpBar>,
}

/// Everything the history view shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryScene {
    /// The time window, in simulated milliseconds.
    pub from_ms: u64,
    pub to_ms: u64,
    pub lanes: Vec<Lane>,
    /// Lanes with operations in the window that did not fit.
    pub hidden_lanes: usize,
    /// Operations drawn (in the lanes shown), and in the whole history.
    pub shown: usize,
    pub total: usize,
    /// Distinct keys in the whole history.
    pub keys: usize,
    pub ok: bool,
    pub anomaly_key: Option<String>,
}

/// When an operation ends: its response, or now while it is pending.
fn end_of(op: &Operation, now_ms: u64) -> u64 {
    op.response.map_or(now_ms, |r| r.ms).max(op.invoke.ms)
}

/// The span of time drawn: around the anomaly's operations (half their span
/// again on each side), else the recent past.
fn window(ops: &[Operation], flagged: &[usize], now_ms: u64) -> (u64, u64) {
    let span =
        flagged
            .iter()
            .filter_map(|&i| ops.get(i))
            .fold(None, |span: Option<(u64, u64)>, op| {
                let (lo, hi) = (op.invoke.ms, end_of(op, now_ms));
                Some(span.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))))
            });
    let (from_ms, to_ms) = match span {
        Some((lo, hi)) => {
            let margin = ((hi - lo) / 2).max(100);
            (lo.saturating_sub(margin), (hi + margin).min(now_ms.max(hi)))
        }
        None => (now_ms.saturating_sub(RECENT_MS), now_ms),
    };
    (from_ms, to_ms.max(from_ms + 1))
}

/// A lane per key and client, with the operations that overlap the window.
fn lanes_in(
    ops: &[Operation],
    flagged: &[usize],
    anomaly_key: Option<&str>,
    (from_ms, to_ms): (u64, u64),
    now_ms: u64,
) -> Vec<Lane> {
    let mut lanes: VecMap<(&str, ClientId), Vec<OpBar>> = VecMap::new();
    for (index, op) in ops.iter().enumerate() {
        if op.invoke.ms > to_ms || end_of(op, now_ms) < from_ms {
            continue;
        }
        let (kind, value) = match &op.kind {
            OpKind::Write(v) => (OpName::Write, Some(v.to_string())),
            OpKind::Read(v) => (OpName::Read, v.as_deref().map(str::to_string)),
            OpKind::Delete => (OpName::Delete, None),
        };
        lanes.entry((&*op.key, op.client)).or_default().push(OpBar {
            index,
            kind,
            value,
            invoke_ms: op.invoke.ms,
            response_ms: op.response.map(|r| r.ms),
            flagged: flagged.contains(&index),
            invoke: op.invoke,
            response: op.response,
        });
    }
    lanes
        .into_iter()
        .map(|((key, client), bars)| Lane {
            flagged: anomaly_key == Some(key),
            key: key.to_string(),
            client,
            bars,
        })
        .collect()
}

/// Lanes come in key and client order. Too many: keep the anomaly's, then
/// the most recently active (picked one by one rather than sorted: each sort
/// of a new type adds kilobytes to the page). Returns how many were hidden.
fn keep_busiest(lanes: &mut Vec<Lane>) -> usize {
    let hidden_lanes = lanes.len().saturating_sub(MAX_LANES);
    if hidden_lanes == 0 {
        return 0;
    }
    let last = |l: &Lane| l.bars.iter().map(|b| b.invoke_ms).max().unwrap_or(0);
    let mut keep: Vec<bool> = lanes.iter().map(|l| l.flagged).collect();
    while keep.iter().filter(|&&k| k).count() < MAX_LANES {
        let next = (0..lanes.len())
            .filter(|&i| !keep[i])
            .max_by_key(|&i| (last(&lanes[i]), std::cmp::Reverse(i)));
        match next {
            Some(i) => keep[i] = true,
            None => break,
        }
    }
    let mut k = keep.into_iter();
    lanes.retain(|_| k.next().unwrap_or(false));
    lanes.truncate(MAX_LANES);
    hidden_lanes
}

impl HistoryScene {
    /// The view of `ops` (the history the checker was given, in the order it
    /// was given) with its `verdict`, at moment `now_ms` of the run.
    pub fn of(ops: &[Operation], verdict: &Linearizability, now_ms: u64) -> HistoryScene {
        let flagged: Vec<usize> = verdict
            .anomaly
            .iter()
            .flat_map(|a| a.operations.iter().map(|o| o.index))
            .collect();
        let anomaly_key = verdict.anomaly.as_ref().map(|a| a.key.clone());
        let (from_ms, to_ms) = window(ops, &flagged, now_ms);
        let mut lanes = lanes_in(
            ops,
            &flagged,
            anomaly_key.as_deref(),
            (from_ms, to_ms),
            now_ms,
        );
        let hidden_lanes = keep_busiest(&mut lanes);
        // The anomaly's key on top.
        let (mut lanes, rest): (Vec<Lane>, Vec<Lane>) = lanes.into_iter().partition(|l| l.flagged);
        lanes.extend(rest);
        let shown = lanes.iter().map(|l| l.bars.len()).sum();
        HistoryScene {
            from_ms,
            to_ms,
            shown,
            total: ops.len(),
            keys: verdict.keys,
            hidden_lanes,
            lanes,
            ok: verdict.ok,
            anomaly_key,
        }
    }

    /// The operations the stale-read sentence names, when the anomaly is
    /// one: the read, the write whose value it returned (if any), and a
    /// write of another value that had finished before the read was sent.
    pub fn stale_read(&self) -> Option<StaleRead<'_>> {
        let flagged: Vec<&OpBar> = self
            .lanes
            .iter()
            .flat_map(|l| &l.bars)
            .filter(|b| b.flagged)
            .collect();
        flagged.iter().find_map(|read| {
            if read.kind != OpName::Read {
                return None;
            }
            let missed = flagged.iter().find(|w| {
                w.kind != OpName::Read
                    && w.value != read.value
                    && w.response.is_some_and(|r| r < read.invoke)
            })?;
            Some(StaleRead {
                key: self.anomaly_key.as_deref().unwrap_or(""),
                read,
                missed,
            })
        })
    }
}

impl HistoryScene {
    /// The verdict as the view states it.
    pub fn verdict(&self) -> HistoryVerdict {
        if self.total == 0 {
            return HistoryVerdict::Empty;
        }
        let Some(key) = &self.anomaly_key else {
            return HistoryVerdict::Linearizable {
                operations: self.total,
                keys: self.keys,
            };
        };
        match self.stale_read() {
            Some(s) => HistoryVerdict::StaleRead {
                key: key.clone(),
                read_value: s.read.value.clone(),
                read_ms: s.read.invoke_ms,
                missed_value: s.missed.value.clone(),
                missed_done_ms: s.missed.response_ms.unwrap_or(s.missed.invoke_ms),
            },
            None => HistoryVerdict::NotLinearizable {
                key: key.clone(),
                operations: self
                    .lanes
                    .iter()
                    .flat_map(|l| &l.bars)
                    .filter(|b| b.flagged)
                    .count(),
            },
        }
    }
}

/// A read that returned an older value than a write finished before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StaleRead<'a> {
    pub key: &'a str,
    pub read: &'a OpBar,
    pub missed: &'a OpBar,
}

/// Where the history view's parts go on a canvas of `width` x `height` CSS
/// pixels. As in Porcupine's visualisation, the axis is not to scale: every
/// invocation and response drawn gets its own slot, in the order they
/// happened, so what came before what (all linearizability is about) shows
/// even for operations a millisecond apart.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryLayout {
    /// The lanes' labels end here; the axis runs from `x0` to `x1`.
    pub x0: f64,
    pub x1: f64,
    /// The first lane's top, and each lane's height.
    pub top: f64,
    pub lane_h: f64,
    /// The time axis's line.
    pub axis_y: f64,
    /// One slot's width.
    pub slot: f64,
    /// Every invocation and response drawn, in order.
    events: Vec<Stamp>,
}

impl HistoryLayout {
    pub fn new(scene: &HistoryScene, width: f64, height: f64) -> HistoryLayout {
        let x0 = clamp(width * 0.26, 60.0, 140.0);
        let x1 = (width - 8.0).max(x0 + 20.0);
        let axis_y = 18.0;
        let top = axis_y + 8.0;
        let lanes = scene.lanes.len().max(1) as f64;
        let lane_h = clamp((height - top - 4.0) / lanes, 12.0, 30.0);
        // Sorted as the checker sorts its events (`stable_order`, so no new
        // sorting code in the page's module).
        let mut events: Vec<Stamp> = scene
            .lanes
            .iter()
            .flat_map(|l| &l.bars)
            .flat_map(|b| std::iter::once(b.invoke).chain(b.response))
            .collect();
        let order = stable_order(events.len(), &|a, b| events[a] < events[b]);
        reorder(&mut events, &order);
        events.dedup();
        // One slot more than the events: room for bars never answered.
        let slot = (x1 - x0) / (events.len() + 1) as f64;
        HistoryLayout {
            x0,
            x1,
            top,
            lane_h,
            axis_y,
            slot,
            events,
        }
    }

    /// The x of an event drawn (the middle of its slot).
    pub fn x(&self, at: Stamp) -> f64 {
        let i = self.events.partition_point(|e| *e < at);
        self.x0 + self.slot * (i as f64 + 0.5)
    }

    /// The top of lane `i`.
    pub fn lane_y(&self, i: usize) -> f64 {
        self.top + self.lane_h * i as f64
    }

    /// A bar's left and right edge, from its invocation's slot to its
    /// response's, a little wider than both; one never answered runs to the
    /// axis's end.
    pub fn bar(&self, b: &OpBar) -> (f64, f64) {
        let pad = (self.slot * 0.35).min(10.0);
        let left = self.x(b.invoke) - pad;
        let right = b.response.map_or(self.x1, |r| self.x(r) + pad);
        (left, right.max(left + 4.0))
    }

    /// The events labelled with their moment: the first, then each later
    /// one of another millisecond at least `gap` pixels further on.
    pub fn ticks(&self, gap: f64) -> Vec<(f64, u64)> {
        let mut out: Vec<(f64, u64)> = Vec::new();
        for &e in &self.events {
            let x = self.x(e);
            if out
                .last()
                .is_none_or(|&(lx, ms)| x - lx >= gap && e.ms != ms)
            {
                out.push((x, e.ms));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::linearizability::{check, Operation};

    /// A stale read: "a" is 1, then 2 (finished at 300); client 1 then
    /// reads 1 at 400. Around it, another key and the load's writes.
    fn stale() -> Vec<Operation> {
        vec![
            Operation::write(0, "a", "1", 100, Some(120)),
            Operation::write(0, "b", "x", 130, Some(150)),
            Operation::write(0, "a", "2", 200, Some(300)),
            Operation::read(1, "a", Some("1"), 400, Some(400)),
            Operation::read(0, "b", Some("x"), 420, Some(440)),
            Operation::write(2, "load-1", "v", 900, None),
        ]
    }

    #[test]
    fn a_stale_read_is_shown_with_the_writes_it_contradicts_on_top() {
        let ops = stale();
        let verdict = check(&ops);
        assert!(!verdict.ok);
        let s = HistoryScene::of(&ops, &verdict, 1000);
        assert_eq!(s.anomaly_key.as_deref(), Some("a"));
        // The window is the anomaly's span (100 to 400) with room around it.
        assert_eq!((s.from_ms, s.to_ms), (0, 550));
        // Lanes: the anomaly's key first (client 0, then client 1), then b.
        let lanes: Vec<(&str, u64, bool)> = s
            .lanes
            .iter()
            .map(|l| (l.key.as_str(), l.client, l.flagged))
            .collect();
        assert_eq!(lanes, [("a", 0, true), ("a", 1, true), ("b", 0, false)]);
        let flagged: Vec<usize> = s
            .lanes
            .iter()
            .flat_map(|l| &l.bars)
            .filter(|b| b.flagged)
            .map(|b| b.index)
            .collect();
        assert_eq!(flagged, [0, 2, 3], "the stale read and both writes");
        assert_eq!((s.shown, s.total), (5, 6), "the load's write is later");
        let stale = s.stale_read().expect("a stale read");
        assert_eq!(
            (stale.key, stale.read.index, stale.missed.index),
            ("a", 3, 2)
        );
        assert_eq!(stale.read.value.as_deref(), Some("1"));
        use crate::words::renderer::Renderer;
        use crate::words::text_en::English;
        assert_eq!(
            English.history_verdict(&s.verdict()),
            "✗ Not linearizable: a stale read. On key a, the get sent at 0.40 s returned \"1\", though the put of \"2\" had finished at 0.30 s. No order of these operations explains it."
        );
        assert_eq!(
            English.history_note(s.from_ms, s.to_ms, s.shown, s.total, s.hidden_lanes),
            "t = 0.00 s to 0.55 s: 5 of 6 operations"
        );
        assert_eq!(English.history_lane("a", 1), "a · load");
        assert_eq!(English.history_op(OpName::Read, None), "get → absent");
    }

    #[test]
    fn without_an_anomaly_the_latest_part_of_the_run_is_shown() {
        let ops = vec![
            Operation::write(0, "a", "1", 1_000, Some(1_020)),
            Operation::read(0, "a", Some("1"), 30_000, Some(30_010)),
            Operation::write(1, "a", "2", 39_000, None),
        ];
        let verdict = check(&ops);
        assert!(verdict.ok);
        let s = HistoryScene::of(&ops, &verdict, 40_000);
        assert_eq!((s.from_ms, s.to_ms), (20_000, 40_000));
        assert_eq!(s.shown, 2, "the first write is out of the window");
        assert_eq!(s.stale_read(), None);
        assert_eq!(
            s.verdict(),
            HistoryVerdict::Linearizable {
                operations: 3,
                keys: 1
            }
        );
        assert!(s.lanes.iter().all(|l| !l.flagged));
        // The unanswered write runs to the axis's end.
        let l = HistoryLayout::new(&s, 400.0, 200.0);
        let open = &s.lanes[1].bars[0];
        assert_eq!(open.response_ms, None);
        assert_eq!(l.bar(open).1, l.x1);
        assert!(l.bar(open).0 < l.x1 - l.slot);
        // An empty history still has a window.
        let empty = HistoryScene::of(&[], &check(&[]), 0);
        assert!(empty.lanes.is_empty() && empty.to_ms > empty.from_ms);
        assert_eq!(empty.verdict(), HistoryVerdict::Empty);
    }

    #[test]
    fn too_many_lanes_keep_the_anomaly_and_the_latest() {
        let mut ops = stale();
        for k in 0..20u64 {
            ops.push(Operation::write(
                3,
                &format!("k{k:02}"),
                "v",
                200 + k,
                Some(210 + k),
            ));
        }
        let verdict = check(&ops);
        let s = HistoryScene::of(&ops, &verdict, 1000);
        assert_eq!(s.lanes.len(), MAX_LANES);
        assert_eq!(s.hidden_lanes, 23 - MAX_LANES);
        assert_eq!(s.shown, s.lanes.iter().map(|l| l.bars.len()).sum::<usize>());
        assert!(s.shown < 25);
        assert!(s.lanes[0].flagged && s.lanes[1].flagged);
        // The latest writes were kept.
        assert!(s.lanes.iter().any(|l| l.key == "k19"));
        assert!(!s.lanes.iter().any(|l| l.key == "k00"));
    }

    #[test]
    fn the_axis_gives_each_event_its_slot_in_the_order_they_happened() {
        let ops = stale();
        let s = HistoryScene::of(&ops, &check(&ops), 1000);
        let l = HistoryLayout::new(&s, 500.0, 150.0);
        // Five operations, each sent and answered: nine events, as the read
        // was answered at the very moment it was sent (one stamp).
        assert!((l.slot - (l.x1 - l.x0) / 10.0).abs() < 1e-9);
        let bar = |key: &str, client: u64| {
            s.lanes
                .iter()
                .find(|b| b.key == key && b.client == client)
                .unwrap()
        };
        let put2 = &bar("a", 0).bars[1];
        let read = &bar("a", 1).bars[0];
        let (_, put2_right) = l.bar(put2);
        let (read_left, read_right) = l.bar(read);
        assert!(
            put2_right < read_left,
            "the write came first: it is drawn first"
        );
        assert!(
            read_right - read_left > 3.99,
            "an instant read still has a bar"
        );
        assert!(l.x(put2.invoke) < l.x(read.invoke));
        // Each labelled moment is a distinct millisecond, left to right.
        let ticks = l.ticks(40.0);
        assert_eq!(ticks[0].1, 100);
        assert!(ticks
            .windows(2)
            .all(|w| w[1].0 - w[0].0 >= 40.0 && w[1].1 > w[0].1));
        assert_eq!(l.lane_y(1) - l.lane_y(0), l.lane_h);
        assert!(l.lane_y(2) + l.lane_h <= 150.0);
    }
}
