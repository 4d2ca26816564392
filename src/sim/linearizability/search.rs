//! The exact search for one key: Wing and Gong's backtracking over the
//! history's call and return events, with Lowe's memoisation of the
//! configurations already explored, as Porcupine implements it, and one
//! register-specific pruning rule (a read that can no longer be satisfied).
//!
//! The input is already reduced to what the search needs (see
//! [`SearchOp`]): every operation has a finite return time, and an
//! operation whose outcome is unknown is an *optional* write, which may take
//! effect or not.

use super::Stamp;
use crate::collections::vecmap::stable_order;

/// The register's value id of "no such key": the initial state.
pub const ABSENT: u32 = 0;

/// One operation as the search sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOp {
    /// When it was invoked; `None` is "before everything" (a write the
    /// anomaly search leaves unconstrained).
    pub call: Option<Stamp>,
    /// By when it must have taken effect.
    pub ret: Stamp,
    /// A read (of `value`), else a write of `value` (a delete writes
    /// [`ABSENT`]).
    pub read: bool,
    /// A write that may also have had no effect at all.
    pub optional: bool,
    /// The value read or written, as an id ([`ABSENT`] or a key's value).
    pub value: u32,
}

/// A fast hash of words (FxHash's multiply-rotate with a final mix): the
/// standard SipHash cost more than the search itself.
fn mix(h: u64, word: u64) -> u64 {
    (h.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

/// A final mix (MurmurHash3's fmix64): the table indexes by the low bits,
/// which the multiply alone leaves weak.
fn finish(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

pub fn hash_words(words: &[u64]) -> u64 {
    finish(words.iter().fold(0, |h, &w| mix(h, w)))
}

pub fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut chunks = bytes.chunks_exact(8);
    let mut h = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h = mix(h, u64::from_le_bytes(word));
    }
    for &b in chunks.remainder() {
        h = mix(h, u64::from(b));
    }
    finish(mix(h, bytes.len() as u64))
}

/// A hash table of entry numbers, for the checker's tables (the memo, the
/// keys, the values' ids): the entries stay with the caller, who says how
/// each is hashed and compared, so the module holds this one table instead
/// of a `HashMap` compiled for each key type. Open addressing with linear
/// probing, at most half full. It is only looked up, never iterated, so
/// runs stay deterministic.
#[derive(Default)]
pub struct Index {
    /// `0`: empty; else one more than an entry's number.
    slots: Vec<u32>,
    len: u32,
}

impl Index {
    /// The entry that `is` recognises, among those whose hash is `hash`; if
    /// there is none, entry number `len()` is recorded as the one of that
    /// hash (the caller then adds it) and `None` returned. `hash_of` gives an
    /// entry's hash again when the table grows.
    pub fn find_or_add(
        &mut self,
        hash: u64,
        is: &dyn Fn(u32) -> bool,
        hash_of: &dyn Fn(u32) -> u64,
    ) -> Option<u32> {
        if 2 * (self.len as usize + 1) > self.slots.len() {
            let size = (2 * self.slots.len()).max(16);
            self.slots = vec![0; size];
            for e in 0..self.len {
                let at = self.free(hash_of(e));
                self.slots[at] = e + 1;
            }
        }
        let mask = self.slots.len() - 1;
        let mut at = hash as usize & mask;
        loop {
            match self.slots[at] {
                0 => break,
                s if is(s - 1) => return Some(s - 1),
                _ => at = (at + 1) & mask,
            }
        }
        self.len += 1;
        self.slots[at] = self.len;
        None
    }

    /// The first empty slot from `hash`'s on.
    fn free(&self, hash: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = hash as usize & mask;
        while self.slots[at] != 0 {
            at = (at + 1) & mask;
        }
        at
    }
}

/// What undoes one linearization step.
#[derive(Debug, Clone, Copy)]
struct Frame {
    op: usize,
    alt: u8,
    /// Taken as a forced step: undoing it leaves nothing else to try.
    forced: bool,
    old_state: u32,
    old_low: usize,
    old_high: usize,
}

/// Decides whether `ops` (one key's operations) can be put in one order
/// that respects real time (an operation that returned before another was
/// invoked comes first) and in which every read returns the value of the
/// latest write before it ([`ABSENT`] if none). `values` is one more than
/// the largest value id.
pub fn linearizable(ops: &mut [SearchOp], values: usize) -> bool {
    // Index the operations in the order of their calls: the memo's window
    // then starts at the first one not yet linearized.
    let order = stable_order(ops.len(), &|a, b| ops[a].call < ops[b].call);
    let sorted: Vec<SearchOp> = order.iter().map(|&i| ops[i]).collect();
    ops.copy_from_slice(&sorted);
    Search::new(ops, values).run()
}

struct Search<'a> {
    ops: &'a [SearchOp],
    /// The doubly linked list of events not yet linearized: node `2i` is the
    /// call of operation `i`, `2i + 1` its return; `2n` is the head and
    /// `2n + 1` the tail.
    next: Vec<usize>,
    prev: Vec<usize>,
    head: usize,
    /// Per value: reads and writes not yet linearized.
    unread: Vec<u32>,
    unwritten: Vec<u32>,
    /// Reads and certain writes not yet linearized; at 0 the rest (optional
    /// writes) can all be taken as having had no effect.
    required_left: usize,
    /// The register's value after the operations linearized so far.
    state: u32,
    /// The set of operations linearized so far, one bit each; every one
    /// below `low` is in it, none from `high` on.
    lifted: Vec<u64>,
    low: usize,
    high: usize,
    /// Lowe's memo: the configurations (set linearized, state) already
    /// reached. Reaching one again cannot succeed where the first did not.
    /// Entry `e` is the words `seen_words[seen_ends[e - 1]..seen_ends[e]]`.
    seen: Index,
    seen_words: Vec<u64>,
    seen_ends: Vec<usize>,
    key: Vec<u64>,
    stack: Vec<Frame>,
}

impl<'a> Search<'a> {
    fn new(ops: &'a [SearchOp], values: usize) -> Search<'a> {
        let n = ops.len();
        let mut events: Vec<(Option<Stamp>, bool, usize)> = Vec::with_capacity(2 * n);
        for (i, o) in ops.iter().enumerate() {
            // At equal times a call sorts before a return: the two
            // operations overlap (Porcupine's rule), so neither is forced
            // before the other.
            events.push((o.call, false, i));
            events.push((Some(o.ret.max(o.call.unwrap_or_default())), true, i));
        }
        // Every event distinct (its operation and kind): any order of
        // the sort is the one.
        let order = stable_order(events.len(), &|a, b| events[a] < events[b]);
        let (head, tail) = (2 * n, 2 * n + 1);
        let mut next = vec![tail; 2 * n + 2];
        let mut prev = vec![head; 2 * n + 2];
        let mut last = head;
        for &e in &order {
            let (_, is_return, i) = events[e];
            let node = 2 * i + usize::from(is_return);
            next[last] = node;
            prev[node] = last;
            last = node;
        }
        next[last] = tail;
        prev[tail] = last;

        let mut unread = vec![0u32; values];
        let mut unwritten = vec![0u32; values];
        let mut required_left = 0;
        for o in ops {
            let v = o.value as usize;
            if o.read {
                unread[v] += 1;
            } else {
                unwritten[v] += 1;
            }
            if !o.optional {
                required_left += 1;
            }
        }
        Search {
            ops,
            next,
            prev,
            head,
            unread,
            unwritten,
            required_left,
            state: ABSENT,
            lifted: vec![0; n.div_ceil(64)],
            low: 0,
            high: 0,
            seen: Index::default(),
            seen_words: Vec::new(),
            seen_ends: Vec::new(),
            key: Vec::new(),
            stack: Vec::new(),
        }
    }

    fn run(&mut self) -> bool {
        // A read of a value no write produces (and that is not the initial
        // state) can never be satisfied.
        if (0..self.unread.len() as u32).any(|v| self.dead(v)) {
            return false;
        }
        let mut entry = self.next[self.head];
        // A configuration just reached takes its forced step, if any, first.
        let mut fresh = true;
        loop {
            if self.required_left == 0 {
                return true;
            }
            let lifted = if fresh {
                fresh = false;
                // Seen before: if it failed after the forced step, it fails.
                self.forced_step()
                    .map(|(op, alt)| self.try_lift(op, alt, true))
            } else {
                None
            };
            let lifted = match lifted {
                Some(lifted) => lifted,
                None if entry < self.head && entry % 2 == 0 => {
                    if self.try_lift(entry / 2, 0, false) {
                        true
                    } else {
                        entry = self.next[entry];
                        continue;
                    }
                }
                // The return of an operation not yet linearized: every
                // order of what came before fails.
                None => false,
            };
            if lifted {
                entry = self.next[self.head];
                fresh = true;
                continue;
            }
            match self.backtrack() {
                Some((next, lifted)) => (entry, fresh) = (next, lifted),
                None => return false,
            }
        }
    }

    /// Undoes the latest step that had an alternative and takes the next
    /// one: its operation's next alternative, or the next event after its
    /// call. Returns where the scan goes on and whether a step was taken;
    /// `None` when there is nothing left to try.
    fn backtrack(&mut self) -> Option<(usize, bool)> {
        loop {
            let frame = self.stack.pop()?;
            self.undo(frame);
            if frame.forced {
                continue;
            }
            if self.try_lift(frame.op, frame.alt + 1, false) {
                return Some((self.next[self.head], true));
            }
            return Some((self.next[2 * frame.op], false));
        }
    }

    /// A step that no solution loses by taking now, so no other is tried
    /// instead (a partial-order reduction): among the calls that may go
    /// next, a read of the value the register holds (a read changes nothing,
    /// so it may go as early as it is allowed to); an optional write whose
    /// value no read still wants, taken as having had no effect; a write
    /// whose value no read still wants while no read wants the value it
    /// replaces either (moving it first changes only values nobody reads).
    fn forced_step(&self) -> Option<(usize, u8)> {
        let wanted = |v: u32| self.unread[v as usize] > 0;
        let mut entry = self.next[self.head];
        while entry < self.head && entry % 2 == 0 {
            let op = entry / 2;
            let o = self.ops[op];
            if o.read {
                if o.value == self.state {
                    return Some((op, 0));
                }
            } else if !wanted(o.value) {
                if o.optional {
                    return Some((op, 1));
                }
                if !wanted(self.state) {
                    return Some((op, 0));
                }
            }
            entry = self.next[entry];
        }
        None
    }

    /// A read of `v` is still to come, the register does not hold `v`, and
    /// no write left can put it there: this configuration cannot succeed.
    fn dead(&self, v: u32) -> bool {
        let i = v as usize;
        self.state != v && self.unwritten[i] == 0 && self.unread[i] > 0
    }

    /// Linearizes `op` next, trying its alternatives from `first_alt` on
    /// (a read or a certain write has one; an optional write two: taking
    /// effect, then none), or only `first_alt` if the step is `forced`.
    /// Keeps the first that is legal, not pruned and not seen before.
    fn try_lift(&mut self, op: usize, first_alt: u8, forced: bool) -> bool {
        let o = self.ops[op];
        let alts = match (forced, o.optional) {
            (true, _) => first_alt + 1,
            (false, true) => 2,
            (false, false) => 1,
        };
        let v = o.value as usize;
        for alt in first_alt..alts {
            if o.read && self.state != o.value {
                return false;
            }
            let old_state = self.state;
            if o.read {
                self.unread[v] -= 1;
            } else {
                self.unwritten[v] -= 1;
                if alt == 0 {
                    self.state = o.value;
                }
            }
            if !o.optional {
                self.required_left -= 1;
            }
            let frame = Frame {
                op,
                alt,
                forced,
                old_state,
                old_low: self.low,
                old_high: self.high,
            };
            // Lifting a read leaves every other read as satisfiable as it
            // was; a write may strand the reads of the value it replaced, or
            // (taking no effect) of its own value.
            let pruned = !o.read && (self.dead(old_state) || self.dead(o.value));
            if !pruned {
                self.set_lifted(op);
                if self.remember() {
                    self.stack.push(frame);
                    self.unlink(2 * op);
                    self.unlink(2 * op + 1);
                    return true;
                }
                self.clear_lifted(frame);
            }
            self.restore_counts(frame);
        }
        false
    }

    fn undo(&mut self, frame: Frame) {
        let op = frame.op;
        // Dancing links: put the nodes back in the reverse order of removal.
        self.relink(2 * op + 1);
        self.relink(2 * op);
        self.clear_lifted(frame);
        self.restore_counts(frame);
    }

    fn restore_counts(&mut self, frame: Frame) {
        let o = self.ops[frame.op];
        if o.read {
            self.unread[o.value as usize] += 1;
        } else {
            self.unwritten[o.value as usize] += 1;
        }
        if !o.optional {
            self.required_left += 1;
        }
        self.state = frame.old_state;
    }

    fn set_lifted(&mut self, op: usize) {
        self.lifted[op / 64] |= 1 << (op % 64);
        self.high = self.high.max(op + 1);
        while self.low < self.high && self.lifted[self.low / 64] & (1 << (self.low % 64)) != 0 {
            self.low += 1;
        }
    }

    fn clear_lifted(&mut self, frame: Frame) {
        let op = frame.op;
        self.lifted[op / 64] &= !(1 << (op % 64));
        self.low = frame.old_low;
        self.high = frame.old_high;
    }

    /// Records the current configuration; false if it was already seen.
    /// Only the words from the one holding `low` to the one holding `high`
    /// vary, so the key is that window with `low` and the state: short when
    /// few operations overlap, however long the history.
    fn remember(&mut self) -> bool {
        self.key.clear();
        self.key.push(self.low as u64);
        self.key.push(u64::from(self.state));
        self.key
            .extend_from_slice(&self.lifted[self.low / 64..self.high.div_ceil(64)]);
        let (words, ends, key) = (&self.seen_words, &self.seen_ends, &self.key);
        let entry = |e: u32| {
            let e = e as usize;
            &words[if e == 0 { 0 } else { ends[e - 1] }..ends[e]]
        };
        let is = |e| entry(e) == key.as_slice();
        let hash_of = |e| hash_words(entry(e));
        if self
            .seen
            .find_or_add(hash_words(key), &is, &hash_of)
            .is_some()
        {
            return false;
        }
        self.seen_words.extend_from_slice(&self.key);
        self.seen_ends.push(self.seen_words.len());
        true
    }

    fn unlink(&mut self, node: usize) {
        let (p, n) = (self.prev[node], self.next[node]);
        self.next[p] = n;
        self.prev[n] = p;
    }

    fn relink(&mut self, node: usize) {
        let (p, n) = (self.prev[node], self.next[node]);
        self.next[p] = node;
        self.prev[n] = node;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(call: u64, ret: u64, read: bool, value: u32) -> SearchOp {
        SearchOp {
            call: Some(Stamp::at(call)),
            ret: Stamp::at(ret),
            read,
            optional: false,
            value,
        }
    }

    #[test]
    fn memo_key_window_follows_the_lowest_unlinearized_operation() {
        let ops: Vec<SearchOp> = (0..200).map(|i| op(2 * i, 2 * i + 1, false, 1)).collect();
        let mut s = Search::new(&ops, 2);
        for i in 0..130 {
            s.set_lifted(i);
        }
        assert_eq!((s.low, s.high), (130, 130));
        assert!(s.remember());
        // Words 2 only: the window is one word, whatever came before.
        assert_eq!(s.key.len(), 2 + 1);
        assert!(!s.remember());
    }
}
