//! The linearizability checker: does what the clients saw match one key-value
//! store that does one thing at a time?
//!
//! # What linearizability is
//!
//! Each client operation (a `put`, a `get`, a `delete`) takes time: it is
//! *invoked* at one moment and its *response* arrives later. A history of
//! such operations is **linearizable** when every operation can be given one
//! instant between its invocation and its response at which it "happens", so
//! that, played in the order of those instants, the operations behave as on a
//! single copy of the data: every read returns the value of the latest write
//! before it. Two operations that overlap in time may happen in either order;
//! but if one returned before the other was invoked, it happened first. So a
//! read that starts after a write has *returned* must see that write, or a
//! newer one: a read that returns an older value is *stale*, and no order
//! explains it (Herlihy and Wing's definition). This is the guarantee etcd
//! gives to linearizable requests, and not to serializable ones.
//!
//! # What it checks here
//!
//! The store is checked one key at a time: a history of a key-value store is
//! linearizable exactly when each key's sub-history is linearizable for one
//! register (Herlihy and Wing call this locality; Horn and Kroening's
//! P-compositionality, which Porcupine uses, is the same split). Each key is
//! a register whose initial state is "absent"; a write sets a value, a delete
//! sets "absent", a read returns the value or "absent".
//!
//! An operation that never returned (it timed out, or the run ended first)
//! *may or may not* have taken effect, at any time after its invocation: its
//! response time is infinity, as Jepsen's Knossos and Porcupine treat such
//! operations. A read that never returned observed nothing and is ignored.
//!
//! # Who decides what is in the history
//!
//! The layer that records client operations (the server's client API, as the
//! executor drives it) decides; the checker believes it. A write that
//! *certainly* did not take effect, because it was refused before it was
//! proposed (`not-supported-for-learner`, `no-leader` under `require-leader`,
//! a member that is down), is left out. A write whose fate is unknown (sent,
//! then timed out or never answered) is recorded with no response. When in
//! doubt, record no response: that is always safe (it only gives the checker
//! more freedom), while leaving out a write that did take effect would make
//! its readers look wrong.
//!
//! # The algorithm
//!
//! Per key, an exact search (module `search`):
//!
//! - **Wing and Gong's search.** The key's calls and returns are put in time
//!   order in a linked list. Going along it, the search *linearizes* (removes
//!   from the list, applying it to the register) the next call it can: a
//!   write always, a read if the register holds its value. Meeting a return
//!   whose operation is still in the list means every order tried so far
//!   breaks real time: the search undoes its latest step and tries the next
//!   candidate. This is how "an operation that returned before another was
//!   invoked comes first" prunes the search: nothing after a return is tried
//!   until that operation is placed.
//! - **Lowe's memoisation.** A configuration is the set of operations
//!   linearized (a bitset) and the register's value; reaching one already
//!   explored cannot succeed where it failed before, so it is skipped. The
//!   key stored is only the window of the bitset from the first operation
//!   not yet linearized on, so it stays a word or two long when few
//!   operations overlap, however long the history.
//! - **Dead reads.** A configuration in which a read still to come wants a
//!   value that the register does not hold and that no write left can
//!   produce is abandoned at once. This keeps a stale read that overlaps many
//!   writes from trying every subset of them.
//! - **Unknown outcomes.** An operation with no response is useful only to
//!   explain a read of its value. It is dropped when no read returns its
//!   value after its invocation; otherwise it must take effect (or be taken
//!   as having had none) by the latest such read's response. This bound is
//!   exact (placing it later could only be unobserved), and it keeps such
//!   operations from staying open to the end of the history.
//!
//! Linearizability checking is NP-complete in general (Gibbons and Korach),
//! so no exact checker is fast on every history; histories where a handful
//! of operations overlap at a time, as a simulated cluster produces, are
//! decided in time close to linear. Ten minutes at 100 writes/s over 100
//! keys with readers take a few tens of milliseconds natively (the
//! `linearizability` criterion benchmark).
//!
//! # The anomaly
//!
//! When a key is not linearizable, the checker names an **anomaly**: a set of
//! that key's operations that contradict each other *whatever the key's
//! other operations did* (each other write may have taken effect at any
//! moment, or not at all; other reads are ignored). The set is minimal:
//! without any one of its operations, the rest can be explained. A stale read
//! gives the read, the write it missed and the write whose value it returned
//! (that write finished before the missed one began); a read of a value never
//! written gives the read alone; a read from the future gives the read and
//! the write it saw, invoked only after the read returned.
//!
//! It is found by shrinking: the shortest failing prefix of the key's
//! operations in invocation order (binary search), then the latest start
//! that still fails (binary search again), then dropping the operations of
//! that window one by one while the rest still fails. Failing is monotone
//! (adding operations only adds constraints), so one greedy pass yields a
//! minimal set. Of several failing keys, the one whose failure shows up
//! first is reported.
//!
//! # References
//!
//! - M. Herlihy and J. Wing, "Linearizability: a correctness condition for
//!   concurrent objects", ACM TOPLAS 12(3), 1990.
//! - J. Wing and C. Gong, "Testing and verifying concurrent objects",
//!   Journal of Parallel and Distributed Computing 17(1-2), 1993.
//! - G. Lowe, "Testing for linearizability", Concurrency and Computation:
//!   Practice and Experience 29(4), 2017.
//! - A. Horn and D. Kroening, "Faster linearizability checking via
//!   P-compositionality", FORTE 2015.
//! - A. Athalye, Porcupine, a fast linearizability checker in Go
//!   (github.com/anishathalye/porcupine).
//! - P. Gibbons and E. Korach, "Testing shared memories", SIAM Journal on
//!   Computing 26(4), 1997.

mod search;
pub mod synthetic;

#[cfg(test)]
mod tests;

use std::rc::Rc;

use serde::Serialize;

use search::{hash_bytes, Index, SearchOp, ABSENT};

use crate::collections::vecmap::{reorder, stable_order};

/// Who sent an operation: only drawn (one lane per client) and reported; the
/// checker does not assume a client has one operation in flight at a time.
pub type ClientId = u64;

/// A moment of the simulated run: its millisecond, and the order of events
/// within that millisecond.
///
/// An operation comes before another when its response is *strictly* before
/// the other's invocation. Two events with equal stamps count as
/// simultaneous, so their operations overlap (Porcupine's rule): with `seq`
/// left at 0 everywhere, a response and an invocation in the same millisecond
/// are not ordered. A recorder that numbers its events in `seq` (one counter
/// for the whole run) orders them as they happened: a `get` sent right after
/// a `put` returned, in the same millisecond, then has to see it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Stamp {
    pub ms: u64,
    pub seq: u64,
}

impl Stamp {
    pub const fn at(ms: u64) -> Stamp {
        Stamp { ms, seq: 0 }
    }
}

/// What an operation did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpKind {
    /// A `put` of this value (shared with the request that carries it: a
    /// steady load records thousands).
    Write(Rc<str>),
    /// A `get` that returned this value (`None`: the key was absent).
    Read(Option<Rc<str>>),
    /// A `delete`: afterwards the key is absent.
    Delete,
}

/// One client operation of the history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    pub client: ClientId,
    pub key: Rc<str>,
    pub kind: OpKind,
    /// When the client sent it.
    pub invoke: Stamp,
    /// When the client got its answer; `None`: never (timed out, or still
    /// waiting when the history was taken), so its outcome is unknown.
    pub response: Option<Stamp>,
}

impl Operation {
    pub fn write(
        client: ClientId,
        key: &str,
        value: &str,
        invoke_ms: u64,
        response_ms: Option<u64>,
    ) -> Operation {
        Operation::new(
            client,
            key,
            OpKind::Write(Rc::from(value)),
            invoke_ms,
            response_ms,
        )
    }

    /// A read that returned `value` (`None`: absent).
    pub fn read(
        client: ClientId,
        key: &str,
        value: Option<&str>,
        invoke_ms: u64,
        response_ms: Option<u64>,
    ) -> Operation {
        let kind = OpKind::Read(value.map(Rc::from));
        Operation::new(client, key, kind, invoke_ms, response_ms)
    }

    pub fn delete(
        client: ClientId,
        key: &str,
        invoke_ms: u64,
        response_ms: Option<u64>,
    ) -> Operation {
        Operation::new(client, key, OpKind::Delete, invoke_ms, response_ms)
    }

    fn new(
        client: ClientId,
        key: &str,
        kind: OpKind,
        invoke_ms: u64,
        response_ms: Option<u64>,
    ) -> Operation {
        Operation {
            client,
            key: Rc::from(key),
            kind,
            invoke: Stamp::at(invoke_ms),
            response: response_ms.map(Stamp::at),
        }
    }
}

/// The checker's verdict, in the report's shape:
/// `{"ok": bool, "operations": N, "keys": K, "anomaly": null | {...}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Linearizability {
    /// Every key's history is linearizable.
    pub ok: bool,
    /// Operations in the history checked (all of them, answered or not).
    pub operations: usize,
    /// Distinct keys among them.
    pub keys: usize,
    /// When not `ok`: a smallest set of operations on one key that no order
    /// explains.
    pub anomaly: Option<Anomaly>,
}

/// `{"key": ..., "operations": [...]}`: operations in invocation order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Anomaly {
    pub key: String,
    pub operations: Vec<OperationView>,
}

/// An operation as the report shows it:
/// `{"index": 12, "client": 0, "kind": "read", "value": "1", "invoke_ms": 300, "response_ms": 310}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OperationView {
    /// Its position in the history given to the checker (to highlight it).
    pub index: usize,
    pub client: ClientId,
    pub kind: OpName,
    /// The value written, or read; `null` for a read that found the key
    /// absent, and for a delete.
    pub value: Option<String>,
    pub invoke_ms: u64,
    /// `null`: no response, so its outcome is unknown.
    pub response_ms: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OpName {
    Write,
    Read,
    Delete,
}

impl OperationView {
    pub fn of(index: usize, op: &Operation) -> OperationView {
        let (kind, value) = match &op.kind {
            OpKind::Write(v) => (OpName::Write, Some(v.to_string())),
            OpKind::Read(v) => (OpName::Read, v.as_deref().map(str::to_string)),
            OpKind::Delete => (OpName::Delete, None),
        };
        OperationView {
            index,
            client: op.client,
            kind,
            value,
            invoke_ms: op.invoke.ms,
            response_ms: op.response.map(|r| r.ms),
        }
    }
}

/// Decides whether `history` is linearizable, key by key, and if not, names
/// a minimal anomaly on the key whose failure shows up first.
pub fn check(history: &[Operation]) -> Linearizability {
    let keys = by_key(history);
    let key_count = keys.len();
    // The failing key whose shortest failing prefix ends earliest; on a tie,
    // the first in key order.
    let mut first: Option<(Stamp, &str, KeyHistory, usize)> = None;
    for (key, positions) in keys {
        let k = KeyHistory::new(history, positions);
        if k.explained(&k.all()) {
            continue;
        }
        let end = k.shortest_failing_prefix();
        let at = k.ops[end - 1].invoke;
        if first.as_ref().is_none_or(|f| at < f.0) {
            first = Some((at, key, k, end));
        }
    }
    let anomaly = first.map(|(_, key, k, end)| Anomaly {
        key: key.to_string(),
        operations: k
            .minimal_anomaly(end)
            .into_iter()
            .map(|i| OperationView::of(k.positions[i], &history[k.positions[i]]))
            .collect(),
    });
    Linearizability {
        ok: anomaly.is_none(),
        operations: history.len(),
        keys: key_count,
        anomaly,
    }
}

/// Only the verdict: whether every key's history is linearizable.
pub fn is_linearizable(history: &[Operation]) -> bool {
    by_key(history).into_iter().all(|(_, positions)| {
        let k = KeyHistory::new(history, positions);
        k.explained(&k.all())
    })
}

/// Positions of each key's operations, keys in order.
fn by_key(history: &[Operation]) -> Vec<(&str, Vec<usize>)> {
    // Each key's place in `keys`.
    let mut place = Index::default();
    let mut keys: Vec<(&str, Vec<usize>)> = Vec::new();
    for (i, op) in history.iter().enumerate() {
        let key = &*op.key;
        let found = {
            let keys = &keys;
            place.find_or_add(
                hash_bytes(key.as_bytes()),
                &|e| keys[e as usize].0 == key,
                &|e| hash_bytes(keys[e as usize].0.as_bytes()),
            )
        };
        let at = match found {
            Some(at) => at as usize,
            None => {
                keys.push((key, Vec::new()));
                keys.len() - 1
            }
        };
        keys[at].1.push(i);
    }
    let order = stable_order(keys.len(), &|a, b| keys[a].0 < keys[b].0);
    reorder(&mut keys, &order);
    keys
}

/// One key's operation, its value as an id.
#[derive(Debug, Clone, Copy)]
struct KeyOp {
    read: bool,
    value: u32,
    invoke: Stamp,
    response: Option<Stamp>,
}

/// One key's operations in invocation order, with their positions in the
/// whole history.
struct KeyHistory {
    positions: Vec<usize>,
    ops: Vec<KeyOp>,
    /// Distinct values, "absent" included (ids `0..values`).
    values: usize,
}

impl KeyHistory {
    fn new(history: &[Operation], mut positions: Vec<usize>) -> KeyHistory {
        let order = stable_order(positions.len(), &|a, b| {
            let (a, b) = (positions[a], positions[b]);
            (history[a].invoke, a) < (history[b].invoke, b)
        });
        reorder(&mut positions, &order);
        // Each value's id, in the order first seen: one more than its place
        // in `values` (0 is `ABSENT`).
        fn id<'a>(index: &mut Index, values: &mut Vec<&'a str>, v: Option<&'a str>) -> u32 {
            let Some(v) = v else { return ABSENT };
            let found = index.find_or_add(
                hash_bytes(v.as_bytes()),
                &|e| values[e as usize] == v,
                &|e| hash_bytes(values[e as usize].as_bytes()),
            );
            found.unwrap_or_else(|| {
                values.push(v);
                values.len() as u32 - 1
            }) + 1
        }
        let (mut index, mut values) = (Index::default(), Vec::new());
        let ops = positions
            .iter()
            .map(|&p| {
                let op = &history[p];
                let (read, value) = match &op.kind {
                    OpKind::Write(v) => (false, id(&mut index, &mut values, Some(v))),
                    OpKind::Read(v) => (true, id(&mut index, &mut values, v.as_deref())),
                    OpKind::Delete => (false, ABSENT),
                };
                KeyOp {
                    read,
                    value,
                    invoke: op.invoke,
                    // A response stamped before its invocation is a
                    // recorder's slip; read it as instantaneous.
                    response: op.response.map(|r| r.max(op.invoke)),
                }
            })
            .collect();
        KeyHistory {
            positions,
            ops,
            values: values.len() + 1,
        }
    }

    fn all(&self) -> Vec<bool> {
        vec![true; self.ops.len()]
    }

    fn range(&self, from: usize, to: usize) -> Vec<bool> {
        (0..self.ops.len()).map(|i| from <= i && i < to).collect()
    }

    /// Whether the operations marked in `keep` can be explained when every
    /// other write of the key may have taken effect at any moment, or not at
    /// all, and every other read is ignored. With all kept, this is exactly
    /// "the key's history is linearizable".
    fn explained(&self, keep: &[bool]) -> bool {
        let mut ops = self.search_ops(keep);
        search::linearizable(&mut ops, self.values)
    }

    /// The operations the search needs, with every return time finite.
    fn search_ops(&self, keep: &[bool]) -> Vec<SearchOp> {
        // Per value: the kept, answered reads of it, and the latest response
        // among them (by which a write of it must have taken effect to be
        // seen at all).
        let mut reads = vec![0u32; self.values];
        let mut last_read: Vec<Option<Stamp>> = vec![None; self.values];
        for (op, _) in self.ops.iter().zip(keep).filter(|(o, &k)| k && o.read) {
            if let Some(r) = op.response {
                let v = op.value as usize;
                reads[v] += 1;
                last_read[v] = last_read[v].max(Some(r));
            }
        }
        let mut free = vec![0u32; self.values];
        let mut out = Vec::with_capacity(self.ops.len());
        for (op, &kept) in self.ops.iter().zip(keep) {
            let v = op.value as usize;
            let sop = |call, ret, optional| SearchOp {
                call,
                ret,
                read: op.read,
                optional,
                value: op.value,
            };
            match (kept, op.read, op.response) {
                (true, _, Some(r)) => out.push(sop(Some(op.invoke), r, false)),
                // A read never answered observed nothing.
                (true, true, None) | (false, true, _) => {}
                // Unknown outcome: useful only to a read of its value that
                // did not finish before it began, and by that read's end.
                (true, false, None) => {
                    if let Some(d) = last_read[v].filter(|&d| d >= op.invoke) {
                        out.push(sop(Some(op.invoke), d, true));
                    }
                }
                // A write left out of an anomaly is unconstrained; copies of
                // one value beyond its readers' number add nothing.
                (false, false, _) => {
                    if let Some(d) = last_read[v].filter(|_| free[v] < reads[v]) {
                        free[v] += 1;
                        out.push(sop(None, d, true));
                    }
                }
            }
        }
        out
    }

    /// The length of the shortest prefix (in invocation order) that cannot
    /// be explained; the whole history cannot.
    fn shortest_failing_prefix(&self) -> usize {
        // explained(..lo) and !explained(..hi).
        let (mut lo, mut hi) = (0, self.ops.len());
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.explained(&self.range(0, mid)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        hi
    }

    /// A minimal set of operations within `..end` that cannot be explained,
    /// given that `..end` cannot; their indices, in invocation order.
    fn minimal_anomaly(&self, end: usize) -> Vec<usize> {
        // The latest start that still fails: !explained(lo..end) and
        // explained(hi..end).
        let (mut lo, mut hi) = (0, end);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.explained(&self.range(mid, end)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        // The first and the last operation of the window are needed (the
        // window without either is explained); try dropping each other one.
        let mut keep = self.range(lo, end);
        for i in lo + 1..end.saturating_sub(1) {
            keep[i] = false;
            if self.explained(&keep) {
                keep[i] = true;
            }
        }
        (lo..end).filter(|&i| keep[i]).collect()
    }
}
