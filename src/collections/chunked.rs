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
#[derive(Clone, Debug)]
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
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked {
            chunks: Vec::new(),
            weights: Vec::new(),
            skip: 0,
            len: 0,
        }
    }
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
        self.chunks
            .get_mut(c)
            .and_then(|chunk| Rc::make_mut(chunk).get_mut(i))
    }

    pub fn push(&mut self, e: T) {
        if (self.skip + self.len) % CHUNK == 0 {
            self.chunks.push(Rc::new(Vec::with_capacity(CHUNK)));
            self.weights.push(None);
        }
        if let Some(last) = self.chunks.last_mut() {
            Rc::make_mut(last).push(e);
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
        self.chunks.truncate(end.div_ceil(CHUNK));
        self.weights.truncate(self.chunks.len());
        if end % CHUNK != 0 {
            if let Some(last) = self.chunks.last_mut() {
                Rc::make_mut(last).truncate(end % CHUNK);
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
        self.chunks.drain(..whole);
        self.weights.drain(..whole);
        self.skip -= whole * CHUNK;
    }

    pub fn clear(&mut self) {
        self.chunks.clear();
        self.weights.clear();
        self.skip = 0;
        self.len = 0;
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
}
