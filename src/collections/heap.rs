//! Counting what the engine holds in memory: an estimate made by walking the
//! structures (their lengths and capacities), not by asking the allocator.
//! The same run counts the same bytes natively and in the page, so a memory
//! budget stops a run at the same moment everywhere.
//!
//! Shared data (`Rc`: log chunks shared by time-travel checkpoints, a
//! write's payload shared by every log and message that carries it) is
//! counted as a fraction at each holder, `1/strong_count` of it each time it
//! is met: once in all when every holder is walked, and only its share when
//! a part is (a session counts its share of what it shares with the
//! checkpoints of its timeline). The figures leave out the allocator's own
//! overhead; docs/performance.md compares them with measured memory.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::mem::size_of;
use std::rc::Rc;

/// The addresses a deduplicating walk has met: a set of addresses as an
/// open-addressing table (linear probing, at most half full), not a
/// `HashSet`, whose table the page's module would compile for this one
/// element type (docs/crates.md, the eighth round). An address is spread by
/// Fibonacci hashing (one multiplication, the product's high bits); SipHash
/// was a tenth of a timeline's run time. Slot 0 marks an empty slot: no
/// block lives at address 0. Only looked up, never iterated.
#[derive(Debug, Clone, Default)]
pub struct Seen {
    slots: Vec<usize>,
    len: usize,
}

impl Seen {
    /// Adds `addr`; false if it was there already.
    pub fn insert(&mut self, addr: usize) -> bool {
        if 2 * (self.len + 1) > self.slots.len() {
            let size = (2 * self.slots.len()).max(16);
            let old = std::mem::replace(&mut self.slots, vec![0; size]);
            for a in old {
                if a != 0 {
                    let at = self.slot(a);
                    self.slots[at] = a;
                }
            }
        }
        let at = self.slot(addr);
        if self.slots[at] == addr {
            return false;
        }
        self.slots[at] = addr;
        self.len += 1;
        true
    }

    /// The slot holding `addr`, or the empty one where it would go.
    fn slot(&self, addr: usize) -> usize {
        let mask = self.slots.len() - 1;
        let shift = 64 - self.slots.len().trailing_zeros();
        let mut at = ((addr as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize;
        while self.slots[at] != 0 && self.slots[at] != addr {
            at = (at + 1) & mask;
        }
        at
    }
}

/// What a value owns beyond itself, for a type the core carries without
/// knowing it (an opaque payload made with `Opaque::metered`).
pub trait HeapSize {
    fn heap_size(&self, m: &mut Meter);
}

/// Adds up bytes while walking structures.
#[derive(Debug, Clone)]
pub struct Meter {
    bytes: f64,
    /// The share of what is being walked that belongs to the walk (below an
    /// `Rc`, 1 divided by the holders of every `Rc` on the way).
    weight: f64,
    /// In a deduplicating walk, the blocks (`Meter::block`) met so far: each
    /// is counted whole the first time and skipped after.
    seen: Option<Seen>,
}

impl Default for Meter {
    fn default() -> Self {
        Meter {
            bytes: 0.0,
            weight: 1.0,
            seen: None,
        }
    }
}

/// Bytes an `Rc`'s allocation adds to its value: the two counts.
const RC_HEADER: usize = 2 * size_of::<usize>();

/// A B-tree holds its pairs in nodes of up to 11, about two thirds full,
/// plus the edges of its inner nodes: about half again the pairs' size.
fn btree_entry<K, V>() -> usize {
    (size_of::<K>() + size_of::<V>()) * 3 / 2 + size_of::<usize>()
}

impl Meter {
    pub fn new() -> Meter {
        Meter::default()
    }

    /// A walk that counts each block (a log chunk, a snapshot's state)
    /// whole, once, however many holders it meets: to count what one
    /// structure adds to another (walk the other first, then read the
    /// difference). Smaller shared values still count as a share.
    pub fn deduplicating() -> Meter {
        Meter::deduplicating_from(Seen::default())
    }

    /// A deduplicating walk that goes on from where another left off: the
    /// blocks that walk met (its [`Meter::into_seen`]) are not counted
    /// again. They must all still be alive, or a new block at a freed
    /// address would be taken for an old one.
    pub fn deduplicating_from(seen: Seen) -> Meter {
        Meter {
            seen: Some(seen),
            ..Meter::default()
        }
    }

    /// The blocks a deduplicating walk has met (empty for a plain walk).
    pub fn into_seen(self) -> Seen {
        self.seen.unwrap_or_default()
    }

    /// The bytes counted so far.
    pub fn bytes(&self) -> u64 {
        self.bytes.round() as u64
    }

    /// Counts `n` bytes (at the current share).
    pub fn add(&mut self, n: usize) {
        self.bytes += n as f64 * self.weight;
    }

    /// A vector's buffer (not what its items own).
    pub fn vec<T>(&mut self, v: &Vec<T>) {
        self.add(v.capacity() * size_of::<T>());
    }

    pub fn deque<T>(&mut self, v: &VecDeque<T>) {
        self.add(v.capacity() * size_of::<T>());
    }

    pub fn string(&mut self, s: &String) {
        self.add(s.capacity());
    }

    /// A vector of strings, with the strings.
    pub fn strings(&mut self, v: &Vec<String>) {
        self.vec(v);
        for s in v {
            self.string(s);
        }
    }

    /// A map's pairs (not what its keys and values own).
    pub fn btree_map<K, V>(&mut self, m: &BTreeMap<K, V>) {
        self.add(m.len() * btree_entry::<K, V>());
    }

    pub fn btree_set<K>(&mut self, s: &BTreeSet<K>) {
        self.add(s.len() * btree_entry::<K, ()>());
    }

    /// A value behind an `Rc`: its share of the allocation, and of what the
    /// value owns (walked by `inner`).
    pub fn shared<T>(&mut self, rc: &Rc<T>, inner: impl FnOnce(&mut Meter, &T)) {
        let saved = self.weight;
        self.weight /= Rc::strong_count(rc) as f64;
        self.add(RC_HEADER + size_of::<T>());
        inner(self, rc);
        self.weight = saved;
    }

    /// A large shared value (a log chunk, a snapshot's state): a share of
    /// it as [`Meter::shared`], or in a deduplicating walk all of it the
    /// first time it is met and nothing after.
    pub fn block<T>(&mut self, rc: &Rc<T>, inner: impl FnOnce(&mut Meter, &T)) {
        let Some(seen) = &mut self.seen else {
            return self.shared(rc, inner);
        };
        if !seen.insert(Rc::as_ptr(rc) as *const u8 as usize) {
            return;
        }
        self.add(RC_HEADER + size_of::<T>());
        inner(self, rc);
    }

    /// A shared value of a type the walk does not know (an opaque
    /// payload): `bytes` of allocation at the address `ptr`, held by
    /// `holders`, and what the value owns (walked by `inner`). Large, so
    /// counted as a [`Meter::block`].
    pub fn shared_dyn(
        &mut self,
        ptr: usize,
        holders: usize,
        bytes: usize,
        inner: impl FnOnce(&mut Meter),
    ) {
        if let Some(seen) = &mut self.seen {
            if !seen.insert(ptr) {
                return;
            }
            self.add(RC_HEADER + bytes);
            return inner(self);
        }
        let saved = self.weight;
        self.weight /= holders.max(1) as f64;
        self.add(RC_HEADER + bytes);
        inner(self);
        self.weight = saved;
    }

    pub fn shared_str(&mut self, rc: &Rc<str>) {
        let saved = self.weight;
        self.weight /= Rc::strong_count(rc) as f64;
        self.add(RC_HEADER + rc.len());
        self.weight = saved;
    }

    /// A shared string counted whole: its holder keeps it longest (a
    /// history's key and value, which the request and the stores that
    /// share them drop first), and a full chunk of holders is weighed once,
    /// when the others still hold it.
    pub fn kept_str(&mut self, rc: &Rc<str>) {
        self.add(RC_HEADER + rc.len());
    }

    /// A `Box`'s allocation, and what its value owns.
    pub fn boxed<T>(&mut self, b: &T, inner: impl FnOnce(&mut Meter, &T)) {
        self.add(size_of::<T>());
        inner(self, b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_values_count_once_across_their_holders() {
        let payload = Rc::new(vec![0u8; 1000]);
        let holders = [payload.clone(), payload.clone(), payload.clone()];
        drop(payload);
        let mut all = Meter::new();
        for h in &holders {
            all.shared(h, |m, v| m.vec(v));
        }
        let once = RC_HEADER + size_of::<Vec<u8>>() + 1000;
        assert_eq!(all.bytes(), once as u64);
        let mut one = Meter::new();
        one.shared(&holders[0], |m, v| m.vec(v));
        assert_eq!(one.bytes(), (once as f64 / 3.0).round() as u64);
    }

    #[test]
    fn a_deduplicating_walk_counts_each_shared_value_once_and_whole() {
        let payload = Rc::new(vec![0u8; 1000]);
        let other = payload.clone();
        let mut m = Meter::deduplicating();
        m.block(&payload, |m, v| m.vec(v));
        let once = m.bytes();
        assert_eq!(once, (RC_HEADER + size_of::<Vec<u8>>() + 1000) as u64);
        m.block(&other, |m, v| m.vec(v));
        assert_eq!(m.bytes(), once, "met again: not counted again");
        // Outside a deduplicating walk a block counts as a share.
        let mut share = Meter::new();
        share.block(&payload, |m, v| m.vec(v));
        assert_eq!(share.bytes(), once / 2);
    }

    #[test]
    fn strings_and_vectors_count_their_capacity() {
        let mut m = Meter::new();
        let v: Vec<String> = vec![String::with_capacity(10), "abc".to_string()];
        m.strings(&v);
        assert_eq!(
            m.bytes(),
            (v.capacity() * size_of::<String>() + 10 + v[1].capacity()) as u64
        );
    }

    #[test]
    fn seen_answers_as_a_hash_set_does() {
        // Addresses as the allocator gives them (aligned, close together)
        // and spread ones, each inserted again and again as a walk meets
        // them: `insert` says what `HashSet::insert` says, through growth.
        let mut seen = Seen::default();
        let mut set = std::collections::HashSet::new();
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for i in 0..200_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let addr = match i % 3 {
                0 => 0x10_0000 + 8 * (x % 30_000) as usize,
                1 => 16 * (1 + (x % 1_000) as usize),
                _ => (x as usize) | 1,
            };
            assert_eq!(seen.insert(addr), set.insert(addr), "{addr:#x} at {i}");
        }
        assert_eq!(seen.len, set.len());
        let mut copy = seen.clone();
        for &a in set.iter().take(1_000) {
            assert!(!copy.insert(a), "{a:#x} in the copy");
        }
        assert!(copy.insert(0x8) && !set.contains(&0x8));
    }
}
