//! The multi-version key-value store, as etcd's `mvcc.store`
//! (`server/storage/mvcc/kvstore.go`, `kvstore_txn.go`,
//! `kvstore_compaction.go`).
//!
//! Two structures, as in etcd: the backend holds one record per revision
//! (etcd's bbolt "key" bucket, keyed by revision), and the index maps each
//! key to its revisions (etcd's `treeIndex` of `keyIndex`). Every write that
//! changes something raises the store's revision by one; a read names a
//! revision and sees the store as it was then, unless compaction has
//! forgotten it.

use std::fmt;
use std::ops::Bound;
use std::rc::Rc;

use crate::collections::vecmap::VecMap;

use super::backend::{Backend, Record};
use super::index_key::{head_of, IndexKey};
use super::key_index::{Found, KeyIndex};

/// A key as a read sees it (etcd's `mvccpb.KeyValue` in a range response).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyValue {
    pub key: Rc<str>,
    pub value: Rc<str>,
    pub create_revision: u64,
    pub mod_revision: u64,
    pub version: u64,
}

/// The keys a read, a delete or a watch covers: one key, or every key with a
/// prefix (etcd's `[key, range_end)` with `GetPrefixRangeEnd`; the empty
/// prefix covers every key, as etcd's `WithPrefix` on an empty key does).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KeyRange {
    Key(String),
    Prefix(String),
}

impl KeyRange {
    pub fn contains(&self, key: &str) -> bool {
        match self {
            KeyRange::Key(k) => k == key,
            KeyRange::Prefix(p) => key.starts_with(p.as_str()),
        }
    }
}

/// etcd's two revision errors (`mvcc.ErrCompacted`, `mvcc.ErrFutureRev`),
/// under the scenario language's codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MvccError {
    /// The revision asked for has been compacted away.
    Compacted,
    /// The revision asked for is beyond the store's current revision.
    FutureRev,
}

impl MvccError {
    /// The scenario language's code.
    pub fn as_str(self) -> &'static str {
        match self {
            MvccError::Compacted => "compacted",
            MvccError::FutureRev => "future-rev",
        }
    }

    /// The text an etcd client shows (`rpctypes.ErrCompacted` and
    /// `rpctypes.ErrFutureRev`, which wrap the mvcc errors).
    pub fn etcd_text(self) -> &'static str {
        match self {
            MvccError::Compacted => "etcdserver: mvcc: required revision has been compacted",
            MvccError::FutureRev => "etcdserver: mvcc: required revision is a future revision",
        }
    }
}

impl fmt::Display for MvccError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.etcd_text())
    }
}

/// A read's answer (etcd's `RangeResult`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeResult {
    /// The keys found, in key order, at most `limit` of them.
    pub kvs: Vec<KeyValue>,
    /// How many keys the range holds at that revision, beyond the limit too.
    pub count: usize,
    /// The store's current revision (the response header's revision), not
    /// the revision read at.
    pub rev: u64,
}

impl RangeResult {
    /// More keys than the limit let through (etcd's `RangeResponse.more`).
    pub fn more(&self) -> bool {
        self.count > self.kvs.len()
    }
}

/// A delete's answer (etcd's `DeleteRange` results).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deleted {
    /// Keys deleted: 0 when the key did not exist.
    pub deleted: u64,
    /// The store's revision after the delete: unchanged when nothing was
    /// deleted, as etcd only raises it for a transaction that changed something.
    pub rev: u64,
}

/// The store (etcd's `mvcc.store`).
#[derive(Debug, Clone, PartialEq)]
pub struct MvccStore {
    /// key -> its revisions (etcd's `treeIndex`).
    index: VecMap<IndexKey, KeyIndex>,
    /// revision -> what was written then (etcd's backend "key" bucket).
    backend: Backend,
    /// The revision of the last write (etcd's `currentRev`; 1 when empty).
    current_rev: u64,
    /// The last compaction's revision (etcd's `compactMainRev`, -1 before the
    /// first compaction: `None` here).
    compact_rev: Option<u64>,
    /// Bytes of the live keys' latest values.
    live_bytes: u64,
    /// Bytes of every record the backend keeps.
    history_bytes: u64,
}

impl Default for MvccStore {
    fn default() -> Self {
        MvccStore::new()
    }
}

impl MvccStore {
    /// An empty store at revision 1, as etcd's `NewStore` starts: the first
    /// write gets revision 2.
    pub fn new() -> MvccStore {
        MvccStore {
            index: VecMap::new(),
            backend: Backend::default(),
            current_rev: 1,
            compact_rev: None,
            live_bytes: 0,
            history_bytes: 0,
        }
    }

    /// The store's records, for sharing what members hold alike
    /// ([`Backend::share_chunks`]).
    pub fn backend(&self) -> &Backend {
        &self.backend
    }

    /// [`Backend::share_chunks`].
    pub fn share_chunks(&mut self, others: &[(u64, Rc<Vec<Record>>)]) {
        self.backend.share_chunks(others);
    }

    /// The revision of the last write (etcd's `store.Rev`).
    pub fn rev(&self) -> u64 {
        self.current_rev
    }

    /// The revision of the last compaction, if any.
    pub fn compact_revision(&self) -> Option<u64> {
        self.compact_rev
    }

    /// Bytes of the live keys' latest values, each with its bookkeeping:
    /// what a read of everything returns.
    pub fn bytes(&self) -> u64 {
        self.live_bytes
    }

    /// Bytes of every record kept, history included: what etcd's database
    /// holds until compaction frees it.
    pub fn history_bytes(&self) -> u64 {
        self.history_bytes
    }

    /// The key's previous revision before `rev`, as the backend links them.
    fn prev(&self) -> impl Fn(u64) -> u64 + '_ {
        |rev| self.backend.prev(rev)
    }

    /// `key`'s index entry at `rev`.
    fn find(&self, key: &str, rev: u64) -> Option<Found> {
        self.index.get(key)?.get(rev, &self.prev())
    }

    /// Live keys at the current revision.
    pub fn len(&self) -> usize {
        self.index
            .values()
            .filter(|ki| !ki.deleted && !ki.is_empty())
            .count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Records the backend keeps (history included).
    pub fn record_count(&self) -> usize {
        self.backend.len()
    }

    /// The record written at `rev`, if the backend still holds it.
    pub fn record(&self, rev: u64) -> Option<&Record> {
        self.backend.get(rev)
    }

    /// Every record of `key` the backend still holds (its puts and
    /// tombstones), oldest first: what compaction left of its history.
    pub fn key_history<'a>(&'a self, key: &'a str) -> impl Iterator<Item = (u64, &'a Record)> + 'a {
        self.backend
            .range_from(0)
            .filter(move |(_, r)| &*r.key == key)
    }

    /// Every record kept from `from` on, in revision order.
    pub fn records_from(&self, from: u64) -> impl Iterator<Item = (u64, &Record)> + '_ {
        self.backend.range_from(from)
    }

    /// The shared copy of `key` the index holds, so records do not each
    /// carry their own.
    fn shared_key(&self, key: &str) -> Rc<str> {
        self.index
            .get_key_value(key)
            .map_or_else(|| Rc::from(key), |(k, _)| Rc::clone(k.text()))
    }

    fn write(&mut self, rev: u64, record: Record) {
        self.history_bytes += record.weight();
        self.backend.push(rev, record);
        self.current_rev = rev;
    }

    /// The weight of the record the key holds now (0 if none).
    fn live_weight(&self, found: Option<Found>) -> u64 {
        found
            .and_then(|f| self.backend.get(f.mod_revision))
            .map_or(0, Record::weight)
    }

    /// Puts `value` under `key` at the next revision and returns it (etcd's
    /// `storeTxnWrite.put`): the key keeps its creation revision and its
    /// version goes up by one; a key that did not exist starts at version 1
    /// with the new revision as its creation. A shared value (`Rc<str>`) is
    /// kept as it is, so members applying the same entry share its value.
    pub fn put(&mut self, key: &str, value: impl Into<Rc<str>>, size: u64) -> u64 {
        let rev = self.current_rev + 1;
        // One search of the index: a key it did not hold gets an empty
        // entry first, which finds nothing, as a missing key would.
        let backend = &self.backend;
        let head = head_of(key);
        let (key, ki) = self
            .index
            .get_or_insert_ordered(|k| k.cmp_text(head, key), || IndexKey::new(Rc::from(key)));
        let found = ki.get(rev, &|r| backend.prev(r));
        let (created, version) = found.map_or((rev, 1), |f| (f.create_revision, f.version + 1));
        let live = found
            .and_then(|f| backend.get(f.mod_revision))
            .map_or(0, Record::weight);
        let key = Rc::clone(key.text());
        let prev = ki.put(rev);
        self.live_bytes -= live;
        let record = Record {
            key,
            value: value.into(),
            create_revision: created,
            version,
            size,
            tombstone: false,
            prev,
        };
        self.live_bytes += record.weight();
        self.write(rev, record);
        rev
    }

    /// Deletes `key` (etcd's `storeTxnWrite.DeleteRange` on one key): a
    /// tombstone at the next revision if the key exists; otherwise nothing
    /// changes, not even the revision.
    pub fn delete(&mut self, key: &str) -> Deleted {
        let rev = self.current_rev + 1;
        let Some(found) = self.find(key, self.current_rev) else {
            return Deleted {
                deleted: 0,
                rev: self.current_rev,
            };
        };
        self.live_bytes -= self.live_weight(Some(found));
        let key = self.shared_key(key);
        let prev = self
            .index
            .get_mut(&*key)
            .and_then(|ki| ki.tombstone(rev).ok())
            .expect("a key found at the current revision has a live generation");
        self.write(
            rev,
            Record {
                key,
                value: Rc::from(""),
                create_revision: 0,
                version: 0,
                size: 0,
                tombstone: true,
                prev,
            },
        );
        Deleted { deleted: 1, rev }
    }

    /// Checks a read's revision (etcd's `storeTxnCommon.rangeKeys`): above
    /// the current revision is `FutureRev`; 0 means the current revision;
    /// below the compaction's revision is `Compacted`. The compaction's own
    /// revision can still be read.
    pub fn check_read_rev(&self, rev: u64) -> Result<u64, MvccError> {
        if rev > self.current_rev {
            return Err(MvccError::FutureRev);
        }
        let rev = if rev == 0 { self.current_rev } else { rev };
        if self.compact_rev.is_some_and(|c| rev < c) {
            return Err(MvccError::Compacted);
        }
        Ok(rev)
    }

    /// The keys of `range` as they were at `rev` (0: now), in key order, at
    /// most `limit` of them (0: no limit) (etcd's `rangeKeys` over
    /// `treeIndex.Revisions`).
    pub fn range(
        &self,
        range: &KeyRange,
        rev: u64,
        limit: usize,
    ) -> Result<RangeResult, MvccError> {
        let at = self.check_read_rev(rev)?;
        let prev = self.prev();
        let mut kvs = Vec::new();
        let mut count = 0;
        let mut visit = |ki: &KeyIndex| {
            if let Some(found) = ki.get(at, &prev) {
                count += 1;
                if limit == 0 || kvs.len() < limit {
                    kvs.push(self.key_value(found.mod_revision));
                }
            }
        };
        match range {
            KeyRange::Key(k) => {
                if let Some(ki) = self.index.get(k.as_str()) {
                    visit(ki);
                }
            }
            KeyRange::Prefix(p) => {
                for (_, ki) in self
                    .index
                    .range::<str>((Bound::Included(p.as_str()), Bound::Unbounded))
                    .take_while(|(k, _)| k.starts_with(p.as_str()))
                {
                    visit(ki);
                }
            }
        }
        Ok(RangeResult {
            kvs,
            count,
            rev: self.current_rev,
        })
    }

    /// One key at `rev` (0: now): `Ok(None)` when it did not exist then.
    pub fn get(&self, key: &str, rev: u64) -> Result<Option<KeyValue>, MvccError> {
        let at = self.check_read_rev(rev)?;
        Ok(self
            .find(key, at)
            .map(|found| self.key_value(found.mod_revision)))
    }

    /// The record a key holds now, if it exists.
    pub fn latest(&self, key: &str) -> Option<&Record> {
        let found = self.find(key, self.current_rev)?;
        self.backend.get(found.mod_revision)
    }

    /// Every live key and its record now, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &Record)> + '_ {
        self.index
            .values()
            .filter_map(|ki| ki.get(self.current_rev, &self.prev()))
            .filter_map(|f| Some((f.mod_revision, self.backend.get(f.mod_revision)?)))
    }

    fn key_value(&self, mod_revision: u64) -> KeyValue {
        let r = self
            .backend
            .get(mod_revision)
            .expect("the index points at a record the backend keeps");
        KeyValue {
            key: Rc::clone(&r.key),
            value: Rc::clone(&r.value),
            create_revision: r.create_revision,
            mod_revision,
            version: r.version,
        }
    }

    /// Compacts the history at `rev` (etcd's `store.Compact`:
    /// `updateCompactRev`, then `scheduleCompaction` over
    /// `treeIndex.Compact`). A revision at or below the last compaction's is
    /// `Compacted`; above the current revision, `FutureRev`. Afterwards reads
    /// below `rev` fail, and every key keeps its newest revision at or below
    /// `rev` (a deleted key its tombstone only when deleted exactly at
    /// `rev`) and everything after.
    ///
    /// etcd records the new compaction revision at once and removes the old
    /// records in the background; reads check the revision, so nobody can
    /// tell the two apart, and here both happen at once.
    pub fn compact(&mut self, rev: u64) -> Result<(), MvccError> {
        if self.compact_rev.is_some_and(|c| rev <= c) {
            return Err(MvccError::Compacted);
        }
        if rev > self.current_rev {
            return Err(MvccError::FutureRev);
        }
        self.compact_rev = Some(rev);

        let mut keep = Vec::new();
        let backend = &self.backend;
        self.index.retain(|_, ki| {
            ki.compact(rev, &|r| backend.prev(r), &mut keep);
            !ki.is_empty()
        });
        crate::collections::vecmap::sort_u64s(&mut keep);
        self.history_bytes -= self.backend.compact(rev, &keep);
        Ok(())
    }

    /// The store's image for a snapshot: its backend and its compaction
    /// revision, as etcd's snapshot is its backend database (the index is
    /// not in it; a restore rebuilds it). The records are shared, not
    /// copied.
    pub fn image(&self) -> MvccImage {
        MvccImage {
            backend: self.backend.clone(),
            compact_rev: self.compact_rev,
        }
    }

    /// Rebuilds a store from an image (etcd's `store.restore` and
    /// `restoreIntoIndex`): records are read in revision order; a key's
    /// first record starts its index from what the record says (its creation
    /// and version, or a tombstone of unknown creation), later ones are puts
    /// and tombstones. The current revision is the last record's, and never
    /// below the compaction's.
    pub fn restore(image: &MvccImage) -> MvccStore {
        let mut s = MvccStore::new();
        s.compact_rev = image.compact_rev;
        s.backend = Backend::after(image.compact_rev);
        for (rev, rec) in image.backend.range_from(0) {
            let key = s.shared_key(&rec.key);
            let mut rec = rec.clone();
            match s.index.get_mut(&*key) {
                Some(ki) => {
                    // etcd logs and skips a tombstone it cannot apply.
                    let prev = if rec.tombstone {
                        ki.tombstone(rev).unwrap_or(0)
                    } else {
                        ki.put(rev)
                    };
                    debug_assert_eq!(prev, rec.prev);
                }
                None => {
                    let ki = if rec.tombstone {
                        KeyIndex::restored_tombstone(rev)
                    } else {
                        KeyIndex::restored(rec.create_revision, rev, rec.version)
                    };
                    s.index.insert(IndexKey::new(Rc::clone(&key)), ki);
                }
            }
            rec.key = key;
            s.history_bytes += rec.weight();
            if s.compact_rev.is_some_and(|c| rev <= c) {
                s.backend.insert_compacted(rev, rec);
            } else {
                s.backend.push(rev, rec);
            }
            s.current_rev = rev;
        }
        if let Some(c) = s.compact_rev {
            s.current_rev = s.current_rev.max(c);
        }
        s.live_bytes = s.iter().map(|(_, r)| r.weight()).sum();
        s
    }
}

/// What a snapshot carries of the store (etcd's backend file): the records
/// and the compaction revision. Shared, not copied, once taken.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MvccImage {
    pub backend: Backend,
    pub compact_rev: Option<u64>,
}

impl MvccImage {
    /// Bytes of the records: what sending the image costs.
    pub fn bytes(&self) -> u64 {
        self.backend.range_from(0).map(|(_, r)| r.weight()).sum()
    }
}

impl MvccStore {
    /// Counts what the store owns: its index and its records.
    pub fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        self.index.heap_size(m);
        for (k, ki) in &self.index {
            m.shared_str(k.text());
            m.vec(&ki.generations);
        }
        self.backend.heap_size(m);
    }
}

impl MvccImage {
    /// Counts what the image owns (records shared with the store it was
    /// taken from count for their share).
    pub fn heap_size(&self, m: &mut crate::collections::heap::Meter) {
        self.backend.heap_size(m);
    }
}
