//! One key's revisions, as etcd's `keyIndex` (`server/storage/mvcc/key_index.go`).
//!
//! A key lives through generations: a generation starts with the put that
//! creates the key and ends with the tombstone (delete) that removes it; the
//! tombstone closes the generation and the key waits, deleted, for the next
//! put to open a new one. For example put(1); put(2); delete(3); put(4);
//! delete(5) gives
//!
//! ```text
//! {}            <- etcd's empty current generation: the key does not exist
//! {4, 5(t)}
//! {1, 2, 3(t)}
//! ```
//!
//! Two departures from etcd's layout, neither visible in any answer:
//! - a generation keeps its oldest and newest revisions, not the list of
//!   all of them; the revisions between are linked through the backend
//!   (each record names the previous revision of its key, [`Prev`]), and
//!   walking them newest first is what etcd's `generation.walk` does. So a
//!   clone of the index (every time-travel checkpoint clones the world)
//!   costs a few words per key, not one per write;
//! - etcd's trailing empty generation is the flag `deleted`.
//!
//! Each write in raftlab is a transaction of one operation, so a revision is
//! etcd's main revision alone (etcd's sub revision would always be 0).

/// The previous revision of the same key, as the backend's record at a
/// revision names it (0 for the first of a generation).
pub type Prev<'a> = &'a dyn Fn(u64) -> u64;

/// One life of a key, from its creation to its tombstone (etcd's `generation`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Generation {
    /// Versions written in this generation (etcd's `ver`), tombstone included.
    pub ver: u64,
    /// The revision of the put that created the key (etcd's `created`).
    pub created: u64,
    /// The oldest revision kept (etcd's `revs[0]`; compaction raises it).
    pub first: u64,
    /// The newest revision (etcd's last `revs`): the tombstone once closed.
    pub last: u64,
}

impl Generation {
    fn new(rev: u64) -> Generation {
        Generation {
            ver: 1,
            created: rev,
            first: rev,
            last: rev,
        }
    }

    /// The newest revision at or below `at_rev`, and how many newer ones
    /// there are (etcd's `generation.walk`, newest first).
    fn walk(&self, at_rev: u64, prev: Prev) -> Option<(u64, u64)> {
        let mut rev = self.last;
        let mut newer = 0;
        while rev > at_rev {
            if rev <= self.first {
                return None;
            }
            rev = prev(rev);
            newer += 1;
        }
        (rev >= self.first).then_some((rev, newer))
    }

    /// Revisions kept, newest first.
    pub fn revs(&self, prev: Prev) -> Vec<u64> {
        let mut out = vec![self.last];
        let mut rev = self.last;
        while rev > self.first {
            rev = prev(rev);
            out.push(rev);
        }
        out
    }
}

/// What a key's index answers for a revision (etcd's `keyIndex.get` results).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    pub mod_revision: u64,
    pub create_revision: u64,
    pub version: u64,
}

/// A key's generations (etcd's `keyIndex`). It leaves the index once
/// compaction leaves it no generation (etcd's `isEmpty`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyIndex {
    /// The revision of the last change (etcd's `modified`).
    pub modified: u64,
    /// Oldest first; every one holds at least one revision.
    pub generations: Vec<Generation>,
    /// The last generation ended with a tombstone: the key does not exist
    /// now (etcd's trailing empty generation).
    pub deleted: bool,
}

impl KeyIndex {
    /// Records a put at `rev` (etcd's `keyIndex.put`): it creates the key if
    /// it does not exist. Returns the previous revision of the generation
    /// (0 at creation), which the backend's record keeps.
    pub fn put(&mut self, rev: u64) -> u64 {
        assert!(
            rev > self.modified,
            "put at revision {rev} after {}",
            self.modified
        );
        self.modified = rev;
        match self.generations.last_mut().filter(|_| !self.deleted) {
            Some(g) => {
                let prev = g.last;
                g.last = rev;
                g.ver += 1;
                prev
            }
            None => {
                self.deleted = false;
                self.generations.push(Generation::new(rev));
                0
            }
        }
    }

    /// Records a delete at `rev` (etcd's `keyIndex.tombstone`): the tombstone
    /// ends the current generation. Deleting a key that does not exist is
    /// refused (etcd's `ErrRevisionNotFound`); the store never asks, as
    /// etcd's `deleteRange` only deletes keys it found. Returns the previous
    /// revision of the generation.
    pub fn tombstone(&mut self, rev: u64) -> Result<u64, RevisionNotFound> {
        if self.deleted || self.generations.is_empty() {
            return Err(RevisionNotFound);
        }
        let prev = self.put(rev);
        self.deleted = true;
        Ok(prev)
    }

    /// Whether generation `i` is closed by a tombstone.
    fn closed(&self, i: usize) -> bool {
        i + 1 < self.generations.len() || self.deleted
    }

    /// The key as it was at `at_rev` (etcd's `keyIndex.get`): the newest
    /// revision at or below `at_rev` in the generation alive then, with the
    /// generation's creation and the version counted within it.
    pub fn get(&self, at_rev: u64, prev: Prev) -> Option<Found> {
        let g = self.find_generation(at_rev)?;
        let (rev, newer) = g.walk(at_rev, prev)?;
        Some(Found {
            mod_revision: rev,
            create_revision: g.created,
            version: g.ver - newer,
        })
    }

    /// The generation alive at `rev` (etcd's `keyIndex.findGeneration`), or
    /// none when `rev` falls between a tombstone and the next creation.
    fn find_generation(&self, rev: u64) -> Option<&Generation> {
        for (i, g) in self.generations.iter().enumerate().rev() {
            if self.closed(i) && g.last <= rev {
                return None;
            }
            if g.first <= rev {
                return Some(g);
            }
        }
        None
    }

    /// Forgets the revisions at or below `at_rev` except the largest one
    /// (etcd's `keyIndex.compact` and `doCompact`): closed generations whose
    /// tombstone is below `at_rev` go entirely; in the first generation that
    /// reaches `at_rev`, the newest revision at or below it becomes the
    /// oldest kept (a tombstone exactly at `at_rev` stays, until a later
    /// compaction). Pushes the revision kept at or below `at_rev`, if any
    /// (etcd's `available`).
    pub fn compact(&mut self, at_rev: u64, prev: Prev, available: &mut Vec<u64>) {
        let mut gone = 0;
        while gone < self.generations.len()
            && self.closed(gone)
            && self.generations[gone].last < at_rev
        {
            gone += 1;
        }
        self.generations.drain(..gone);
        if let Some(g) = self.generations.first_mut() {
            if let Some((rev, _)) = g.walk(at_rev, prev) {
                g.first = rev;
                available.push(rev);
            }
        }
    }

    /// No generation left: the key leaves the index (etcd's
    /// `keyIndex.isEmpty`).
    pub fn is_empty(&self) -> bool {
        self.generations.is_empty()
    }

    /// Rebuilds the index of a key whose first record after a compaction is
    /// a put (etcd's `keyIndex.restore`): the creation and version come from
    /// the record, as etcd's `restoreIntoIndex` reads them.
    pub fn restored(created: u64, modified: u64, ver: u64) -> KeyIndex {
        KeyIndex {
            modified,
            generations: vec![Generation {
                ver,
                created,
                first: modified,
                last: modified,
            }],
            deleted: false,
        }
    }

    /// Rebuilds the index of a key whose first record is a tombstone (etcd's
    /// `keyIndex.restoreTombstone`): its creation was compacted away, so it
    /// is unknown (0) and the generation counts one version.
    pub fn restored_tombstone(rev: u64) -> KeyIndex {
        let mut ki = KeyIndex::restored(0, rev, 1);
        ki.deleted = true;
        ki
    }
}

/// etcd's `ErrRevisionNotFound`: no such key at that revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RevisionNotFound;

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// A key index with the backend's previous-revision links beside it.
    #[derive(Default)]
    struct Key {
        ki: KeyIndex,
        prev: BTreeMap<u64, u64>,
    }

    impl Key {
        fn put(&mut self, rev: u64) {
            let p = self.ki.put(rev);
            self.prev.insert(rev, p);
        }

        fn tombstone(&mut self, rev: u64) -> Result<(), RevisionNotFound> {
            let p = self.ki.tombstone(rev)?;
            self.prev.insert(rev, p);
            Ok(())
        }

        fn get(&self, rev: u64) -> Option<(u64, u64, u64)> {
            self.ki
                .get(rev, &|r| self.prev[&r])
                .map(|f| (f.mod_revision, f.create_revision, f.version))
        }

        fn compact(&mut self, rev: u64) -> Vec<u64> {
            let mut kept = Vec::new();
            let prev = self.prev.clone();
            self.ki.compact(rev, &|r| prev[&r], &mut kept);
            kept
        }

        /// etcd's picture: each generation's revisions, oldest first, and
        /// an empty one after a tombstone.
        fn gens(&self) -> Vec<Vec<u64>> {
            let mut out: Vec<Vec<u64>> = self
                .ki
                .generations
                .iter()
                .map(|g| {
                    let mut r = g.revs(&|r| self.prev[&r]);
                    r.reverse();
                    r
                })
                .collect();
            if self.ki.deleted || out.is_empty() {
                out.push(Vec::new());
            }
            out
        }
    }

    /// put(1); put(2); delete(3); put(4); delete(5): the example of etcd's
    /// `keyIndex` comment, with etcd's sub revisions dropped.
    fn example() -> Key {
        let mut k = Key::default();
        k.put(1);
        k.put(2);
        k.tombstone(3).unwrap();
        k.put(4);
        k.tombstone(5).unwrap();
        k
    }

    #[test]
    fn generations_follow_tombstones_as_etcd_key_index_put_and_tombstone() {
        let k = example();
        assert_eq!(k.gens(), vec![vec![1, 2, 3], vec![4, 5], vec![]]);
        assert_eq!(k.ki.modified, 5);
        assert_eq!(k.ki.generations[0].ver, 3);
        assert_eq!(k.ki.generations[1].created, 4);
    }

    #[test]
    fn tombstone_on_a_deleted_key_is_refused_as_etcd_key_index_tombstone() {
        let mut k = example();
        assert_eq!(k.tombstone(6), Err(RevisionNotFound));
        assert_eq!(k.ki.modified, 5);
        assert_eq!(KeyIndex::default().tombstone(1), Err(RevisionNotFound));
    }

    #[test]
    fn get_finds_the_generation_alive_as_etcd_key_index_get() {
        let k = example();
        assert_eq!(k.get(0), None);
        assert_eq!(k.get(1), Some((1, 1, 1)));
        assert_eq!(k.get(2), Some((2, 1, 2)));
        // At a tombstone's revision and after it, the key does not exist.
        assert_eq!(k.get(3), None);
        assert_eq!(k.get(4), Some((4, 4, 1)));
        assert_eq!(k.get(5), None);
        assert_eq!(k.get(100), None);
    }

    /// The compaction sequence of etcd's `keyIndex` comment.
    #[test]
    fn compaction_keeps_the_largest_revision_as_etcd_key_index_compact() {
        let mut k = example();
        assert_eq!(k.compact(2), vec![2]);
        assert_eq!(k.gens(), vec![vec![2, 3], vec![4, 5], vec![]]);
        assert_eq!(k.get(2), Some((2, 1, 2)));

        assert_eq!(k.compact(4), vec![4]);
        assert_eq!(k.gens(), vec![vec![4, 5], vec![]]);

        assert_eq!(k.compact(5), vec![5]);
        assert_eq!(k.gens(), vec![vec![5], vec![]]);
        assert!(!k.ki.is_empty());
        assert_eq!(k.get(5), None);

        assert_eq!(k.compact(6), Vec::<u64>::new());
        assert_eq!(k.gens(), vec![Vec::<u64>::new()]);
        assert!(k.ki.is_empty(), "the key leaves the index");
    }

    #[test]
    fn compaction_of_a_live_key_keeps_its_version_count_as_etcd_key_index_compact() {
        let mut k = Key::default();
        for rev in [2, 5, 7] {
            k.put(rev);
        }
        assert_eq!(k.compact(6), vec![5]);
        assert_eq!(k.gens(), vec![vec![5, 7]]);
        // The version is counted from the generation's `ver`, not from the
        // revisions left: it survives the compaction.
        assert_eq!(k.get(6), Some((5, 2, 2)));
        assert_eq!(k.get(7), Some((7, 2, 3)));
        assert_eq!(k.get(4), None, "compacted away");
        // A compaction below every revision keeps nothing at or below it.
        assert_eq!(k.compact(3), Vec::<u64>::new());
        assert_eq!(k.gens(), vec![vec![5, 7]]);
    }

    #[test]
    fn restore_rebuilds_a_compacted_key_as_etcd_key_index_restore() {
        let mut k = Key {
            ki: KeyIndex::restored(2, 5, 2),
            prev: BTreeMap::from([(5, 3)]),
        };
        k.put(7);
        assert_eq!(k.get(8), Some((7, 2, 3)));
        assert_eq!(k.get(5), Some((5, 2, 2)));
        assert_eq!(k.get(4), None);

        let mut t = Key {
            ki: KeyIndex::restored_tombstone(5),
            prev: BTreeMap::from([(5, 4)]),
        };
        assert_eq!(t.get(5), None);
        assert!(!t.ki.is_empty());
        t.put(6);
        assert_eq!(t.get(6), Some((6, 6, 1)));
    }
}
