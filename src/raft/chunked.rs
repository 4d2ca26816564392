//! A vector kept in shared chunks, for the log's entries and the safety
//! checker's records. Cloning one (every time-travel checkpoint clones the
//! whole world) copies one pointer per chunk instead of every element; a
//! write copies only the chunk it touches, and only while a clone still
//! shares it.

use std::rc::Rc;

use crate::raft::heap::Meter;
use crate::raft::types::Entry;

/// The log's entries.
pub type Entries = Chunked<Entry>;

/// Entries per chunk: small enough that copying a shared chunk on write is
/// cheap, large enough that a clone of a long log is a short vector.
const CHUNK: usize = 256;

/// A sequence addressed by position (0 is the first kept).
#[derive(Clone, Debug)]
pub struct Chunked<T> {
    chunks: Vec<Rc<Vec<T>>>,
    /// Positions dropped from the front of the first chunk.
    skip: usize,
    len: usize,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked {
            chunks: Vec::new(),
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
        self.chunks
            .get_mut(c)
            .and_then(|chunk| Rc::make_mut(chunk).get_mut(i))
    }

    pub fn push(&mut self, e: T) {
        if (self.skip + self.len) % CHUNK == 0 {
            self.chunks.push(Rc::new(Vec::with_capacity(CHUNK)));
        }
        if let Some(last) = self.chunks.last_mut() {
            Rc::make_mut(last).push(e);
            self.len += 1;
        }
    }

    pub fn extend(&mut self, entries: impl IntoIterator<Item = T>) {
        for e in entries {
            self.push(e);
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
        if end % CHUNK != 0 {
            if let Some(last) = self.chunks.last_mut() {
                Rc::make_mut(last).truncate(end % CHUNK);
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
        self.skip -= whole * CHUNK;
    }

    pub fn clear(&mut self) {
        self.chunks.clear();
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
    /// with `item`, what each element owns.
    pub fn heap_size(&self, m: &mut Meter, item: Option<fn(&T, &mut Meter)>) {
        m.vec(&self.chunks);
        for chunk in &self.chunks {
            m.block(chunk, |m, v| {
                m.vec(v);
                if let Some(f) = item {
                    for x in v.iter() {
                        f(x, m);
                    }
                }
            });
        }
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
    use crate::raft::types::EntryData;

    fn e(index: u64) -> Entry {
        Entry {
            term: index / 100 + 1,
            index,
            data: EntryData::Empty,
        }
    }

    fn indexes(s: &Entries) -> Vec<u64> {
        s.iter().map(|e| e.index).collect()
    }

    #[test]
    fn behaves_like_a_vector_across_chunk_boundaries() {
        let mut s = Entries::default();
        let mut v: Vec<Entry> = Vec::new();
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
}
