//! A vector kept in shared chunks, for the log's entries and the safety
//! checker's records. Cloning one (every time-travel checkpoint clones the
//! whole world) copies one pointer per chunk instead of every element; a
//! write copies only the chunk it touches, and only while a clone still
//! shares it.

use std::rc::Rc;

use crate::collections::heap::Meter;

/// Entries per chunk: small enough that copying a shared chunk on write is
/// cheap, large enough that a clone of a long log is a short vector.
const CHUNK: usize = 256;

/// What a chunk's items own beyond the chunk, walked by a [`Meter`].
pub type Weigh<T> = fn(&T, &mut Meter);

/// A sequence addressed by position (0 is the first kept).
#[derive(Debug)]
pub struct Chunked<T> {
    chunks: Vec<Rc<Vec<T>>>,
    /// Per chunk, what its items own (bytes at a whole share), weighed once
    /// when a [`Chunked::push_weighed`] filled it: a full chunk no longer
    /// changes, so counting memory walks one number instead of its 256
    /// items (a heavy run's stores hold millions). `None` until then, or
    /// after a write into it.
    weights: Vec<Option<u32>>,
    /// Positions dropped from the front of the first chunk.
    skip: usize,
    len: usize,
    /// The chunks before this one were offered for sharing already
    /// ([`Chunked::unshared_full`]).
    offered: usize,
}

/// A clone shares the full chunks and takes a copy of the last one if it is
/// not full, exactly as long as its items: the clone is nearly always kept
/// as it is (a time-travel checkpoint, a snapshot's image of a store) while
/// the original goes on filling that chunk, which a shared chunk would make
/// it copy at its next push, into a chunk's whole room, every clone leaving
/// the old room, half empty on average, to the clone.
impl<T: Clone> Clone for Chunked<T> {
    fn clone(&self) -> Self {
        let mut chunks = self.chunks.clone();
        if (self.skip + self.len) % CHUNK != 0 {
            if let Some(last) = chunks.last_mut() {
                *last = Rc::new(last.to_vec());
            }
        }
        Chunked {
            chunks,
            weights: self.weights.clone(),
            skip: self.skip,
            len: self.len,
            offered: self.offered,
        }
    }
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked {
            chunks: Vec::new(),
            weights: Vec::new(),
            skip: 0,
            len: 0,
            offered: 0,
        }
    }
}

/// The chunk, made this holder's own if a clone shares it (as
/// `Rc::make_mut`), with room for a whole chunk: a copy the size of the
/// items would double on its next push, and a chunk filled that way would
/// keep up to twice the room it needs.
fn own<T: Clone>(chunk: &mut Rc<Vec<T>>) -> &mut Vec<T> {
    if Rc::get_mut(chunk).is_none() {
        let mut copy = Vec::with_capacity(CHUNK.max(chunk.len()));
        copy.extend(chunk.iter().cloned());
        *chunk = Rc::new(copy);
    }
    let v = Rc::get_mut(chunk).expect("a chunk just made this holder's own");
    // A clone's copy is as long as its items (see `Clone`): it grows to a
    // chunk's room at once rather than by doubling past it.
    if v.len() == v.capacity() && v.len() < CHUNK {
        v.reserve_exact(CHUNK - v.len());
    }
    v
}

impl<T: Clone> Chunked<T> {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn locate(&self, pos: usize) -> (usize, usize) {
        let p = pos + self.skip;
        (p / CHUNK, p % CHUNK)
    }

    pub fn get(&self, pos: usize) -> Option<&T> {
        if pos >= self.len {
            return None;
        }
        let (c, i) = self.locate(pos);
        self.chunks.get(c).and_then(|chunk| chunk.get(i))
    }

    pub fn first(&self) -> Option<&T> {
        self.get(0)
    }

    pub fn last(&self) -> Option<&T> {
        self.len.checked_sub(1).and_then(|pos| self.get(pos))
    }

    pub fn get_mut(&mut self, pos: usize) -> Option<&mut T> {
        if pos >= self.len {
            return None;
        }
        let (c, i) = self.locate(pos);
        if let Some(w) = self.weights.get_mut(c) {
            *w = None;
        }
        self.offered = self.offered.min(c);
        self.chunks
            .get_mut(c)
            .and_then(|chunk| own(chunk).get_mut(i))
    }

    /// [`Chunked::get_mut`] for a write that changes nothing the item owns
    /// beyond itself (a time, a flag): a weighed chunk keeps its weight.
    pub fn get_mut_same_weight(&mut self, pos: usize) -> Option<&mut T> {
        if pos >= self.len {
            return None;
        }
        let (c, i) = self.locate(pos);
        self.offered = self.offered.min(c);
        self.chunks
            .get_mut(c)
            .and_then(|chunk| own(chunk).get_mut(i))
    }

    pub fn push(&mut self, e: T) {
        if (self.skip + self.len) % CHUNK == 0 {
            self.chunks.push(Rc::new(Vec::with_capacity(CHUNK)));
            self.weights.push(None);
        }
        if let Some(last) = self.chunks.last_mut() {
            own(last).push(e);
            self.len += 1;
        }
    }

    /// Pushes `e`; when that fills its chunk, weighs the chunk's items with
    /// `item` once, for [`Chunked::heap_size`]. Shared values among them
    /// count at their share as it is now (an estimate, as all counting is).
    pub fn push_weighed(&mut self, e: T, item: Weigh<T>) {
        self.push(e);
        if (self.skip + self.len) % CHUNK != 0 {
            return;
        }
        if let (Some(chunk), Some(w)) = (self.chunks.last(), self.weights.last_mut()) {
            let mut m = Meter::new();
            for x in chunk.iter() {
                item(x, &mut m);
            }
            *w = Some(u32::try_from(m.bytes()).unwrap_or(u32::MAX));
        }
    }

    pub fn extend(&mut self, entries: impl IntoIterator<Item = T>) {
        for e in entries {
            self.push(e);
        }
    }

    /// [`Chunked::extend`] through [`Chunked::push_weighed`].
    pub fn extend_weighed(&mut self, entries: impl IntoIterator<Item = T>, item: Weigh<T>) {
        for e in entries {
            self.push_weighed(e, item);
        }
    }

    /// Keeps the first `len` entries.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        if len == 0 {
            self.clear();
            return;
        }
        let end = self.skip + len;
        self.offered = self.offered.min(end / CHUNK);
        self.chunks.truncate(end.div_ceil(CHUNK));
        self.weights.truncate(self.chunks.len());
        if end % CHUNK != 0 {
            if let Some(last) = self.chunks.last_mut() {
                own(last).truncate(end % CHUNK);
            }
            if let Some(w) = self.weights.last_mut() {
                *w = None;
            }
        }
        self.len = len;
    }

    /// Drops the first `n` entries (compaction).
    pub fn drop_front(&mut self, n: usize) {
        let n = n.min(self.len);
        if n == self.len {
            self.clear();
            return;
        }
        self.skip += n;
        self.len -= n;
        let whole = self.skip / CHUNK;
        self.offered = self.offered.saturating_sub(whole);
        self.chunks.drain(..whole);
        self.weights.drain(..whole);
        self.skip -= whole * CHUNK;
    }

    pub fn clear(&mut self) {
        self.chunks.clear();
        self.weights.clear();
        self.skip = 0;
        self.len = 0;
        self.offered = 0;
    }

    // ---- one copy of what several holders hold alike ----------------------
    //
    // Every member of a cluster keeps the same entries at the same log
    // indexes, and the same records at the same store revisions: a full
    // chunk of one member equal to another's can be the other's, one copy
    // for all of them (and for every checkpoint that holds either). A chunk
    // is named by its *key*, the key of its first slot, where position 0
    // has the key `first` the holder gives (a log index, a revision); two
    // holders share only chunks that start at the same key.

    /// Full chunks: each holds `CHUNK` items.
    fn full_chunks(&self) -> usize {
        (self.skip + self.len) / CHUNK
    }

    /// The key of chunk `c`'s first slot.
    fn key_of(&self, first: u64, c: usize) -> Option<u64> {
        first
            .checked_sub(self.skip as u64)
            .map(|k| k + (c * CHUNK) as u64)
    }

    /// The full chunk whose first slot has key `key`, if there is one.
    pub fn full_chunk(&self, first: u64, key: u64) -> Option<&Rc<Vec<T>>> {
        let off = key.checked_sub(self.key_of(first, 0)?)?;
        if off % CHUNK as u64 != 0 {
            return None;
        }
        let c = usize::try_from(off / CHUNK as u64).ok()?;
        self.chunks.get(c).filter(|_| c < self.full_chunks())
    }

    /// The keys of the chunks that filled since they were last offered, in
    /// order (none, nearly always: a chunk fills once per `CHUNK` pushes).
    pub fn unshared_full(&self, first: u64) -> impl Iterator<Item = u64> + '_ {
        (self.offered..self.full_chunks()).filter_map(move |c| self.key_of(first, c))
    }

    /// Takes `other` for the full chunk with key `key` if it holds the same
    /// items; then counts every full chunk as offered. Call once per
    /// [`Chunked::unshared_full`] key with the chunk another holder has there.
    pub fn share(&mut self, first: u64, key: u64, other: &Rc<Vec<T>>)
    where
        T: PartialEq,
    {
        let Some(c) = self
            .key_of(first, 0)
            .and_then(|k0| key.checked_sub(k0))
            .filter(|off| off % CHUNK as u64 == 0)
            .and_then(|off| usize::try_from(off / CHUNK as u64).ok())
            .filter(|&c| c < self.full_chunks())
        else {
            return;
        };
        if !Rc::ptr_eq(&self.chunks[c], other) && self.chunks[c] == *other {
            self.chunks[c] = Rc::clone(other);
        }
    }

    /// Counts every full chunk as offered.
    pub fn offered_all(&mut self) {
        self.offered = self.full_chunks();
    }

    /// The entries at positions `[lo, hi)` (clamped to the stored ones).
    pub fn range(&self, lo: usize, hi: usize) -> impl Iterator<Item = &T> + '_ {
        let hi = hi.min(self.len);
        let lo = lo.min(hi);
        let (c, i) = self.locate(lo);
        self.chunks
            .iter()
            .skip(c)
            .flat_map(|chunk| chunk.iter())
            .skip(i)
            .take(hi - lo)
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        self.range(0, self.len)
    }

    pub fn to_vec(&self) -> Vec<T> {
        self.iter().cloned().collect()
    }

    /// Counts the chunks (each at its share: checkpoints share them) and,
    /// with `item`, what each element owns (a chunk weighed when it filled
    /// counts its weight instead: see [`Chunked::push_weighed`]).
    pub fn heap_size(&self, m: &mut Meter, item: Option<Weigh<T>>) {
        m.vec(&self.chunks);
        m.vec(&self.weights);
        for (chunk, weight) in self.chunks.iter().zip(&self.weights) {
            m.block(chunk, |m, v| {
                m.vec(v);
                match (item, weight) {
                    (None, _) => {}
                    (Some(_), Some(w)) => m.add(*w as usize),
                    (Some(f), None) => {
                        for x in v.iter() {
                            f(x, m);
                        }
                    }
                }
            });
        }
    }
}

impl<T: Clone> FromIterator<T> for Chunked<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut c = Chunked::default();
        c.extend(items);
        c
    }
}

impl<T: Clone> std::ops::Index<usize> for Chunked<T> {
    type Output = T;
    fn index(&self, pos: usize) -> &T {
        match self.get(pos) {
            Some(t) => t,
            None => panic!("index {pos} out of a sequence of {}", self.len),
        }
    }
}

impl<'a, T: Clone> IntoIterator for &'a Chunked<T> {
    type Item = &'a T;
    type IntoIter = Box<dyn Iterator<Item = &'a T> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl<T: Clone + PartialEq> PartialEq for Chunked<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An item shaped like a log entry: what the log keeps here.
    #[derive(Clone, Debug, PartialEq)]
    struct Item {
        term: u64,
        index: u64,
    }

    type Entries = Chunked<Item>;

    fn e(index: u64) -> Item {
        Item {
            term: index / 100 + 1,
            index,
        }
    }

    fn indexes(s: &Entries) -> Vec<u64> {
        s.iter().map(|e| e.index).collect()
    }

    #[test]
    fn behaves_like_a_vector_across_chunk_boundaries() {
        let mut s = Entries::default();
        let mut v: Vec<Item> = Vec::new();
        // Push, truncate and drop from the front in a pattern that crosses
        // chunk edges, checking against a plain vector each time.
        let mut next = 1;
        for round in 0..40usize {
            for _ in 0..(round * 37 % 300 + 1) {
                s.push(e(next));
                v.push(e(next));
                next += 1;
            }
            let cut = v.len() - (round * 13 % v.len().max(1)).min(v.len());
            s.truncate(cut);
            v.truncate(cut);
            let drop = (round * 29) % (v.len() / 2 + 1);
            s.drop_front(drop);
            v.drain(..drop);
            assert_eq!(s.len(), v.len());
            assert_eq!(s.to_vec(), v);
            assert_eq!(s.first(), v.first());
            assert_eq!(s.last(), v.last());
            let (lo, hi) = (v.len() / 3, v.len() * 2 / 3 + 1);
            assert!(s.range(lo, hi).eq(v[lo..hi.min(v.len())].iter()));
            next = v.last().map_or(next, |e| e.index + 1);
        }
    }

    #[test]
    fn a_clone_shares_chunks_and_writes_do_not_leak_between_clones() {
        let mut a = Entries::default();
        a.extend((1..=1000).map(e));
        let mut b = a.clone();
        b.push(e(1001));
        // Only the chunk b wrote to was copied.
        assert!(Rc::ptr_eq(&a.chunks[1], &b.chunks[1]));
        assert!(!Rc::ptr_eq(&a.chunks[3], &b.chunks[3]));
        b.truncate(500);
        b.push(e(9999));
        a.drop_front(300);
        assert_eq!(a.len(), 700);
        assert_eq!(a.first().unwrap().index, 301);
        assert_eq!(a.last().unwrap().index, 1000);
        assert_eq!(b.len(), 501);
        assert_eq!(b.get(499).unwrap().index, 500);
        assert_eq!(b.last().unwrap().index, 9999);
        assert_eq!(a.get(199).unwrap().index, 500);
    }

    #[test]
    fn a_clone_copies_an_unfilled_last_chunk_as_long_as_its_items() {
        let mut a = Entries::default();
        a.extend((1..=300).map(e));
        let b = a.clone();
        // The full chunk is shared; the last one, 44 of 256, is the
        // clone's own copy, exactly as long.
        assert!(Rc::ptr_eq(&a.chunks[0], &b.chunks[0]));
        assert!(!Rc::ptr_eq(&a.chunks[1], &b.chunks[1]));
        assert_eq!(b.chunks[1].capacity(), 44);
        // The original goes on in its own chunk, with a chunk's room.
        a.push(e(301));
        assert_eq!(a.chunks[1].capacity(), CHUNK);
        assert_eq!(b.len(), 300);
        // A clone's copy grows to a chunk's room at once, not past it.
        let mut c = b.clone();
        c.extend((301..=512).map(e));
        assert_eq!(c.chunks[1].capacity(), CHUNK);
        assert_eq!(indexes(&c), (1..=512).collect::<Vec<_>>());
    }

    #[test]
    fn holders_of_the_same_items_share_their_full_chunks_and_nothing_else() {
        // Two logs of the same entries; position 0 is index 1 in both.
        let mut a = Entries::default();
        let mut b = Entries::default();
        a.extend((1..=700).map(e));
        b.extend((1..=600).map(e));
        let keys: Vec<u64> = b.unshared_full(1).collect();
        assert_eq!(keys, vec![1, 257]);
        for k in keys {
            let other = Rc::clone(a.full_chunk(1, k).unwrap());
            b.share(1, k, &other);
        }
        b.offered_all();
        assert!(Rc::ptr_eq(&a.chunks[0], &b.chunks[0]));
        assert!(Rc::ptr_eq(&a.chunks[1], &b.chunks[1]));
        assert_eq!(b.unshared_full(1).count(), 0);
        // Not full, or at another key: nothing to share.
        assert!(a.full_chunk(1, 513).is_none());
        assert!(a.full_chunk(1, 2).is_none());
        // A chunk holding other items is not taken.
        let mut c = Entries::default();
        c.extend((1..=256).map(|i| Item { term: 9, ..e(i) }));
        let first = Rc::clone(&a.chunks[0]);
        c.share(1, 1, &first);
        assert!(!Rc::ptr_eq(&c.chunks[0], &first));
        // Writing into a shared chunk copies it: the other holder keeps
        // what it had.
        b.truncate(300);
        b.push(e(9999));
        assert_eq!(a.get(300).unwrap().index, 301);
        assert_eq!(b.get(300).unwrap().index, 9999);
        assert_eq!(b.unshared_full(1).collect::<Vec<_>>(), Vec::<u64>::new());
        // Dropping from the front keeps the keys: index 257's chunk is
        // still at key 257 when position 0 is index 301.
        let second = Rc::clone(&a.chunks[1]);
        a.drop_front(300);
        assert!(Rc::ptr_eq(a.full_chunk(301, 257).unwrap(), &second));
    }

    #[test]
    fn emptied_stores_start_clean() {
        let mut s = Entries::default();
        s.extend((1..=300).map(e));
        s.drop_front(300);
        assert!(s.is_empty());
        s.push(e(301));
        assert_eq!(indexes(&s), vec![301]);
        s.get_mut(0).unwrap().term = 7;
        assert_eq!(s.first().unwrap().term, 7);
        s.truncate(0);
        assert!(s.is_empty() && s.first().is_none() && s.get_mut(0).is_none());
    }

    /// Each string's bytes, as an item walk sees them.
    fn weigh(s: &String, m: &mut Meter) {
        m.string(s);
    }

    fn count(c: &Chunked<String>) -> u64 {
        let mut m = Meter::new();
        c.heap_size(&mut m, Some(weigh));
        m.bytes()
    }

    #[test]
    fn a_chunk_weighed_when_full_counts_as_its_walk_until_it_changes() {
        let item = |i: usize| "x".repeat(i % 7 + 1);
        let mut weighed = Chunked::default();
        let mut walked = Chunked::default();
        for i in 0..700 {
            weighed.push_weighed(item(i), weigh);
            walked.push(item(i));
        }
        // Two full chunks weighed, the third walked: the same count.
        assert!(weighed.weights[..2].iter().all(Option::is_some));
        assert_eq!(weighed.weights[2], None);
        assert_eq!(count(&weighed), count(&walked));
        // A write into a weighed chunk, or a cut through it, makes it walked
        // again, so the count follows the change.
        *weighed.get_mut(3).unwrap() = "y".repeat(100);
        *walked.get_mut(3).unwrap() = "y".repeat(100);
        assert_eq!(weighed.weights[0], None);
        assert_eq!(count(&weighed), count(&walked));
        weighed.truncate(300);
        walked.truncate(300);
        assert_eq!(weighed.weights, [None, None]);
        assert_eq!(count(&weighed), count(&walked));
        // Refilled, the chunk is weighed again; dropped chunks take their
        // weights with them.
        weighed.extend_weighed((300..600).map(item), weigh);
        walked.extend((300..600).map(item));
        assert!(weighed.weights[1].is_some());
        weighed.drop_front(256);
        walked.drop_front(256);
        assert_eq!(weighed.weights.len(), weighed.chunks.len());
        assert_eq!(count(&weighed), count(&walked));
    }

    #[test]
    fn a_write_that_changes_nothing_an_item_owns_keeps_the_weight() {
        let mut s = Chunked::default();
        for i in 0..300 {
            s.push_weighed((i, "x".repeat(i % 5 + 1)), |x: &(usize, String), m| {
                m.string(&x.1)
            });
        }
        assert!(s.weights[0].is_some());
        s.get_mut_same_weight(7).unwrap().0 = 1000;
        assert!(s.weights[0].is_some());
        assert_eq!(s.get(7).unwrap().0, 1000);
        s.get_mut(8).unwrap().1.push('y');
        assert_eq!(s.weights[0], None);
    }
}
