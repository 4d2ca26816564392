//! The records by revision (etcd's backend "key" bucket, keyed by revision).
//!
//! Every write that changes something raises the revision by one and leaves
//! one record, so the records above the last compaction are dense: they live
//! in shared chunks (`Chunked`), and a clone (every time-travel checkpoint
//! clones the world) copies a pointer per 256 records, not the records. At
//! or below the compaction only each key's newest record is left, at most
//! one per key: those sit in an ordered map.

use std::rc::Rc;

use crate::collections::chunked::Chunked;
use crate::collections::vecmap::VecMap;

/// Bytes of bookkeeping each record costs, so an empty value still weighs
/// something (the same figure the single-value store used per key).
pub const KEY_OVERHEAD_BYTES: u64 = 16;

/// What a write leaves in the backend under its revision (etcd's
/// `mvccpb.KeyValue` as `storeTxnWrite.put` and `delete` marshal it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub key: Rc<str>,
    /// Empty for a tombstone.
    pub value: Rc<str>,
    /// The revision of the put that created the key; 0 for a tombstone
    /// (etcd writes a tombstone as a `KeyValue` holding only the key).
    pub create_revision: u64,
    /// The key's version after this put (1 at creation); 0 for a tombstone.
    pub version: u64,
    /// The bytes the write weighs (its client request's size).
    pub size: u64,
    pub tombstone: bool,
    /// The key's previous revision in the same generation (0 at creation):
    /// the link the index walks instead of keeping every revision.
    pub prev: u64,
}

impl Record {
    /// Bytes this record weighs.
    pub fn weight(&self) -> u64 {
        KEY_OVERHEAD_BYTES + self.size
    }
}

/// The first revision a write can get (an empty store is at revision 1).
const FIRST_WRITE: u64 = 2;

#[derive(Debug, Clone, PartialEq)]
pub struct Backend {
    /// Records at or below the last compaction that it kept.
    compacted: VecMap<u64, Record>,
    /// Records from `base` on, one per revision.
    tail: Chunked<Record>,
    base: u64,
}

impl Default for Backend {
    fn default() -> Self {
        Backend {
            compacted: VecMap::new(),
            tail: Chunked::default(),
            base: FIRST_WRITE,
        }
    }
}

impl Backend {
    pub fn get(&self, rev: u64) -> Option<&Record> {
        if rev >= self.base {
            self.tail.get(usize::try_from(rev - self.base).ok()?)
        } else {
            self.compacted.get(&rev)
        }
    }

    /// The key's previous revision before the record at `rev` (0 if none).
    pub fn prev(&self, rev: u64) -> u64 {
        self.get(rev).map_or(0, |r| r.prev)
    }

    /// The full chunk of records starting at revision `rev`, to share with
    /// a store that holds the same records ([`Backend::share_chunks`]).
    pub fn chunk_at(&self, rev: u64) -> Option<&Rc<Vec<Record>>> {
        self.tail.full_chunk(self.base, rev)
    }

    /// The first revisions of the chunks of records that filled since the
    /// last [`Backend::share_chunks`].
    pub fn unshared_chunks(&self) -> impl Iterator<Item = u64> + '_ {
        self.tail.unshared_full(self.base)
    }

    /// Takes each of `others` (a chunk another store holds, by its first
    /// revision) for ours where it holds the same records: one copy of what
    /// every member's store holds alike. Nothing a reader sees changes.
    pub fn share_chunks(&mut self, others: &[(u64, Rc<Vec<Record>>)]) {
        for (rev, chunk) in others {
            self.tail.share(self.base, *rev, chunk);
        }
        self.tail.offered_all();
    }

    /// The revision the next record must have.
    pub fn next_rev(&self) -> u64 {
        self.base + self.tail.len() as u64
    }

    /// Appends the record of revision `rev`, which must be the next one.
    pub fn push(&mut self, rev: u64, record: Record) {
        assert_eq!(
            rev,
            self.next_rev(),
            "records are written in revision order"
        );
        self.tail.push_weighed(record, Record::heap_size);
    }

    /// An empty backend whose first record will be the one after revision
    /// `compact_rev` (a restore fills it with the image's records).
    pub fn after(compact_rev: Option<u64>) -> Backend {
        Backend {
            base: compact_rev.map_or(FIRST_WRITE, |c| (c + 1).max(FIRST_WRITE)),
            ..Backend::default()
        }
    }

    /// Puts back a record at or below the compaction.
    pub fn insert_compacted(&mut self, rev: u64, record: Record) {
        assert!(rev < self.base, "a compacted record below the dense run");
        self.compacted.insert(rev, record);
    }

    pub fn len(&self) -> usize {
        self.compacted.len() + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every record from revision `from` on, in revision order.
    pub fn range_from(&self, from: u64) -> impl Iterator<Item = (u64, &Record)> + '_ {
        let skip = from.saturating_sub(self.base) as usize;
        self.compacted
            .range(from..)
            .map(|(r, rec)| (*r, rec))
            .chain(
                self.tail
                    .range(skip, self.tail.len())
                    .enumerate()
                    .map(move |(i, rec)| (self.base + (skip + i) as u64, rec)),
            )
    }

    /// Drops every record at or below `rev` except those in `keep` (sorted),
    /// as etcd's `scheduleCompaction` deletes what `treeIndex.Compact` did
    /// not keep. Returns the bytes freed.
    pub fn compact(&mut self, rev: u64, keep: &[u64]) -> u64 {
        let mut freed = 0;
        let kept = |r: &u64| keep.binary_search(r).is_ok();
        self.compacted.retain(|r, rec| {
            let stay = *r > rev || kept(r);
            if !stay {
                freed += rec.weight();
            }
            stay
        });
        let upto = (rev + 1)
            .saturating_sub(self.base)
            .min(self.tail.len() as u64) as usize;
        for (i, rec) in self.tail.range(0, upto).enumerate() {
            let r = self.base + i as u64;
            if kept(&r) {
                self.compacted.insert(r, rec.clone());
            } else {
                freed += rec.weight();
            }
        }
        self.tail.drop_front(upto);
        self.base += upto as u64;
        freed
    }
}

impl Record {
    fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        m.shared_str(&self.key);
        m.shared_str(&self.value);
    }
}

impl Backend {
    /// Counts the records (the tail's chunks at their share: images share
    /// them).
    pub fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        self.compacted.heap_size(m);
        for r in self.compacted.values() {
            r.heap_size(m);
        }
        self.tail.heap_size(m, Some(Record::heap_size));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(i: u64) -> Record {
        Record {
            key: Rc::from(format!("k{}", i % 3).as_str()),
            value: Rc::from(i.to_string().as_str()),
            create_revision: 2,
            version: i,
            size: 1,
            tombstone: false,
            prev: i.saturating_sub(3),
        }
    }

    fn revs(b: &Backend, from: u64) -> Vec<u64> {
        b.range_from(from).map(|(r, _)| r).collect()
    }

    /// etcd's `scheduleCompaction` deletes, at or below the compaction, the
    /// revisions `treeIndex.Compact` did not keep; the rest stay readable
    /// by revision, across the chunks' edges, and a clone taken before is
    /// untouched.
    #[test]
    fn compaction_keeps_what_the_index_kept_as_etcd_schedule_compaction() {
        let mut b = Backend::default();
        for r in 2..=700 {
            b.push(r, rec(r));
        }
        let before = b.clone();
        let freed = b.compact(600, &[598, 599, 600]);
        assert_eq!(freed, (2..=597).count() as u64 * (KEY_OVERHEAD_BYTES + 1));
        assert_eq!(b.len(), 3 + 100);
        assert_eq!(revs(&b, 0)[..4], [598, 599, 600, 601]);
        assert_eq!(revs(&b, 650).len(), 51);
        assert_eq!(b.get(599).unwrap().version, 599);
        assert_eq!(b.get(601).unwrap().version, 601);
        assert!(b.get(597).is_none());
        assert_eq!(b.prev(601), 598);
        assert_eq!(b.next_rev(), 701);
        b.push(701, rec(701));
        assert_eq!(before.len(), 699);
        assert_eq!(before.get(2).unwrap().version, 2);
        assert!(before.get(701).is_none());
        // A second compaction drops earlier kept records too.
        b.compact(650, &[599, 649, 650]);
        assert_eq!(revs(&b, 0)[..4], [599, 649, 650, 651]);
    }
}
