//! The history of client operations, as the linearizability checker reads
//! it (`sim::linearizability`): every `put`, `get` and background-load write
//! a client sent, with the simulated moments it was sent and answered.
//!
//! The recording rules are the checker's (its module doc, "Who decides what
//! is in the history"), applied where this layer knows the answer:
//!
//! - A write enters the history when it is sent, after the checks etcd makes
//!   before proposing (a learner's refusal, `require-leader`, a member that
//!   is down): a write refused there certainly did not take effect and never
//!   enters it.
//! - A write held by a member that knows no leader and still held when it
//!   ends, or refused by Raft when proposed (`ProposeError`), was never in
//!   any log: it leaves the history.
//! - A write proposed and then not answered (its time ran out, its member
//!   crashed) may or may not have taken effect: it stays, with no response.
//! - A read enters the history when it is answered, with the moment it was
//!   sent; a read that failed observed nothing and is left out.
//!
//! Every moment is a [`Stamp`]: the millisecond, and one counter for the
//! whole run, so two events of one millisecond keep the order they
//! happened in (a `get` sent right after a `put` returned must see it).
//!
//! The verdict is computed only when asked for (the report, the
//! `linearizable` conditions), and kept until the history changes.

use std::cell::RefCell;
use std::rc::Rc;

use crate::collections::chunked::Chunked;
use crate::collections::vecmap::DequeSet;
use crate::sim::linearizability::{self, ClientId, Linearizability, OpKind, Operation, Stamp};

use super::request::RequestId;

/// The script's (and the console's) client.
pub const SCRIPT_CLIENT: ClientId = 0;
/// The background load's client (`load rate=...`).
pub const LOAD_CLIENT: ClientId = 1;
/// A mirror process's writes into its destination (`mirror start`).
pub const MIRROR_CLIENT: ClientId = 2;

/// One operation as recorded, and whether the checker sees it.
#[derive(Debug, Clone)]
struct Recorded {
    op: Operation,
    /// False for a read not answered (yet) and for a write that certainly
    /// did not take effect.
    kept: bool,
    /// A read answered from one member's own state (serializable, or a
    /// weak read-only learner): stale by design, so the fuzzer's check of
    /// linearizable reads leaves it out.
    local: bool,
}

/// The run's client operations.
#[derive(Debug, Clone, Default)]
pub struct History {
    /// In the order they were sent. Chunked: every time-travel checkpoint
    /// clones the cluster, and a long run under load holds many operations.
    ops: Chunked<Recorded>,
    /// Operations not answered yet: (request, position in `ops`). Request
    /// ids only grow (each is sent once), so a new one goes at the end;
    /// under a heavy load thousands are open. A set of pairs of `u64`, as
    /// the cluster's deadlines are: the module compiles one deque for both.
    open: DequeSet<(RequestId, u64)>,
    /// The run-wide event counter of [`Stamp`].
    seq: u64,
    /// Bumped at every change, so a verdict knows what it is about.
    version: u64,
    /// The latest verdict and the version it is for.
    verdict: RefCell<Option<(u64, Linearizability)>>,
}

impl History {
    fn stamp(&mut self, now_ms: u64) -> Stamp {
        self.seq += 1;
        Stamp {
            ms: now_ms,
            seq: self.seq,
        }
    }

    fn push(&mut self, op: Operation, kept: bool) -> usize {
        self.version += 1;
        self.ops.push_weighed(
            Recorded {
                op,
                kept,
                local: false,
            },
            Recorded::heap_size,
        );
        self.ops.len() - 1
    }

    /// A write of `value` to `key` sent now as `request` (the request's
    /// own key and value, shared).
    pub fn write_sent(
        &mut self,
        request: RequestId,
        client: ClientId,
        key: impl Into<Rc<str>>,
        value: impl Into<Rc<str>>,
        now_ms: u64,
    ) {
        let op = Operation {
            client,
            key: key.into(),
            kind: OpKind::Write(value.into()),
            invoke: self.stamp(now_ms),
            response: None,
        };
        let at = self.push(op, true);
        self.open.insert((request, at as u64));
    }

    /// A delete of `key` sent now as `request` (afterwards the key is
    /// absent, as after etcd's DeleteRange).
    pub fn delete_sent(&mut self, request: RequestId, client: ClientId, key: &str, now_ms: u64) {
        let op = Operation {
            client,
            key: Rc::from(key),
            kind: OpKind::Delete,
            invoke: self.stamp(now_ms),
            response: None,
        };
        let at = self.push(op, true);
        self.open.insert((request, at as u64));
    }

    /// A linearizable read of `key` sent now as `request`.
    pub fn read_sent(&mut self, request: RequestId, client: ClientId, key: &str, now_ms: u64) {
        let op = Operation {
            client,
            key: Rc::from(key),
            kind: OpKind::Read(None),
            invoke: self.stamp(now_ms),
            response: None,
        };
        let at = self.push(op, false);
        self.open.insert((request, at as u64));
    }

    /// A read answered at once (a serializable one): sent and answered in
    /// the same millisecond, in that order.
    pub fn read_at_once(&mut self, client: ClientId, key: &str, value: Option<&str>, now_ms: u64) {
        let invoke = self.stamp(now_ms);
        let response = Some(self.stamp(now_ms));
        let op = Operation {
            client,
            key: Rc::from(key),
            kind: OpKind::Read(value.map(Rc::from)),
            invoke,
            response,
        };
        let at = self.push(op, true);
        if let Some(r) = self.ops.get_mut_same_weight(at) {
            r.local = true;
        }
    }

    /// Takes `request` out of the open ones: its position in `ops`.
    fn close(&mut self, request: RequestId) -> Option<usize> {
        let &(_, at) = self.open.range((request, 0)..=(request, u64::MAX)).next()?;
        self.open.remove(&(request, at));
        Some(at as usize)
    }

    /// `request` was answered now: a write took effect (`read` is `None`),
    /// or a read returned `read` (`Some(None)`: the key was absent).
    pub fn answered(&mut self, request: RequestId, read: Option<Option<String>>, now_ms: u64) {
        let Some(at) = self.close(request) else {
            return;
        };
        let response = self.stamp(now_ms);
        self.version += 1;
        // A read's answer brings its value, which the item then owns; a
        // write's is a time.
        let read = read.filter(
            |_| matches!(self.ops.get(at), Some(r) if matches!(r.op.kind, OpKind::Read(_))),
        );
        let r = if read.is_some() {
            self.ops.get_mut(at)
        } else {
            self.ops.get_mut_same_weight(at)
        };
        if let Some(r) = r {
            r.op.response = Some(response);
            if let Some(value) = read {
                r.op.kind = OpKind::Read(value.map(Rc::from));
                r.kept = true;
            }
        }
    }

    /// `request` failed. `proposed`: a write reached Raft, so its outcome
    /// is unknown and it stays without a response; otherwise it certainly
    /// did not take effect and leaves the history. A failed read observed
    /// nothing and is never kept.
    pub fn failed(&mut self, request: RequestId, proposed: bool) {
        let Some(at) = self.close(request) else {
            return;
        };
        if let Some(r) = self.ops.get_mut_same_weight(at) {
            if matches!(r.op.kind, OpKind::Write(_)) && !proposed {
                self.version += 1;
                r.kept = false;
            }
        }
    }

    /// Every (key, value) a client sent a write of, sent or not kept.
    pub fn written(&self) -> impl Iterator<Item = (String, String)> + '_ {
        self.ops.iter().filter_map(|r| match &r.op.kind {
            crate::sim::linearizability::OpKind::Write(v) => {
                Some((r.op.key.to_string(), v.to_string()))
            }
            _ => None,
        })
    }

    /// The operations the checker sees, in the order they were sent.
    pub fn operations(&self) -> Vec<Operation> {
        self.ops
            .iter()
            .filter(|r| r.kept)
            .map(|r| r.op.clone())
            .collect()
    }

    /// The operations without the reads answered from one member's own
    /// state: what etcd promises to be linearizable (every write, and the
    /// reads that went through a ReadIndex).
    pub fn strong_operations(&self) -> Vec<Operation> {
        self.ops
            .iter()
            .filter(|r| r.kept && !r.local)
            .map(|r| r.op.clone())
            .collect()
    }

    /// Whether the history so far is linearizable, key by key, and if not
    /// a smallest anomaly: computed when first asked after a change.
    pub fn verdict(&self) -> Linearizability {
        if let Some((v, verdict)) = self.verdict.borrow().as_ref() {
            if *v == self.version {
                return verdict.clone();
            }
        }
        let verdict = linearizability::check(&self.operations());
        *self.verdict.borrow_mut() = Some((self.version, verdict.clone()));
        verdict
    }
}

impl History {
    /// Counts the operations recorded (a steady load adds one per write).
    pub fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        self.ops.heap_size(m, Some(Recorded::heap_size));
        self.open.heap_size(m);
    }
}

impl Recorded {
    /// Its key and value: a full chunk of them is weighed once, when it
    /// fills (`Chunked::push_weighed`), not at every count; answering an
    /// operation changes its time, and a read's value only then.
    fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        m.kept_str(&self.op.key);
        match &self.op.kind {
            OpKind::Write(v) | OpKind::Read(Some(v)) => m.kept_str(v),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strong_history_leaves_out_reads_answered_locally_only() {
        let mut h = History::default();
        h.write_sent(1, SCRIPT_CLIENT, "k", "v", 10);
        h.answered(1, None, 20);
        // A serializable read after the write, stale: flagged in the whole
        // history, left out of the strong one.
        h.read_at_once(SCRIPT_CLIENT, "k", None, 30);
        assert!(!h.verdict().ok);
        assert!(linearizability::check(&h.strong_operations()).ok);
        assert_eq!(h.strong_operations().len(), 1);
        // A stale linearizable read stays in, and is flagged.
        h.read_sent(2, SCRIPT_CLIENT, "k", 40);
        h.answered(2, Some(None), 50);
        let strong = linearizability::check(&h.strong_operations());
        assert!(!strong.ok, "{strong:?}");
        assert_eq!(h.strong_operations().len(), 2);
    }

    #[test]
    fn a_stale_read_after_a_write_returned_in_the_same_millisecond_is_flagged() {
        let mut h = History::default();
        h.read_at_once(SCRIPT_CLIENT, "k", None, 5);
        h.write_sent(1, SCRIPT_CLIENT, "k", "v", 10);
        h.answered(1, None, 20);
        // Sent in the millisecond the write returned, after it: it must see it.
        h.read_at_once(SCRIPT_CLIENT, "k", None, 20);
        let v = h.verdict();
        assert!(!v.ok, "{v:?}");
        assert_eq!(v.operations, 3);
        let anomaly = v.anomaly.expect("an anomaly");
        assert_eq!(anomaly.operations.len(), 2, "{anomaly:?}");
    }

    #[test]
    fn recording_rules_keep_unknown_writes_and_drop_refused_ones_and_failed_reads() {
        let mut h = History::default();
        // Proposed, then timed out: unknown, kept without a response.
        h.write_sent(1, SCRIPT_CLIENT, "k", "a", 0);
        h.failed(1, true);
        // Held without a leader until it ended: never proposed, dropped.
        h.write_sent(2, SCRIPT_CLIENT, "k", "b", 1);
        h.failed(2, false);
        // A read that timed out observed nothing.
        h.read_sent(3, SCRIPT_CLIENT, "k", 2);
        h.failed(3, true);
        // A read that returned the unknown write's value: explained by it.
        h.read_sent(4, SCRIPT_CLIENT, "k", 3);
        h.answered(4, Some(Some("a".into())), 4);
        let ops = h.operations();
        assert_eq!(ops.len(), 2, "{ops:?}");
        assert_eq!(ops[0].response, None);
        assert_eq!(ops[1].kind, OpKind::Read(Some("a".into())));
        assert!(h.verdict().ok);
        // A read of the dropped write's value has no write to explain it.
        h.read_at_once(SCRIPT_CLIENT, "k", Some("b"), 5);
        assert!(!h.verdict().ok);
    }

    #[test]
    fn a_read_of_a_deleted_key_must_find_it_absent() {
        let mut h = History::default();
        h.write_sent(1, SCRIPT_CLIENT, "k", "a", 0);
        h.answered(1, None, 10);
        h.delete_sent(2, SCRIPT_CLIENT, "k", 20);
        h.answered(2, None, 30);
        h.read_at_once(SCRIPT_CLIENT, "k", None, 40);
        assert!(h.verdict().ok);
        // The value the delete removed, read after the delete returned.
        h.read_at_once(SCRIPT_CLIENT, "k", Some("a"), 50);
        let v = h.verdict();
        assert!(!v.ok);
        // The read, the delete it missed, and the write whose value it saw.
        assert_eq!(v.anomaly.map(|a| a.operations.len()), Some(3));
    }

    #[test]
    fn the_verdict_is_kept_until_the_history_changes() {
        let mut h = History::default();
        h.write_sent(1, LOAD_CLIENT, "k", "a", 0);
        assert!(h.verdict().ok);
        assert_eq!(h.verdict.borrow().as_ref().map(|(v, _)| *v), Some(1));
        h.answered(1, None, 3);
        assert_eq!(h.verdict().operations, 1);
        assert_eq!(h.verdict.borrow().as_ref().map(|(v, _)| *v), Some(2));
    }
}
