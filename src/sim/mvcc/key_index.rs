//! One key's revisions, as etcd's `keyIndex` (`server/storage/mvcc/key_index.go`).
//!
//! A key lives through generations: a generation starts with the put that
//! creates the key and ends with the tombstone (delete) that removes it; the
//! tombstone closes the generation and opens a new, empty one. For example
//! put(1); put(2); delete(3); put(4); delete(5) gives
//!
//! ```text
//! {}            <- the current generation, empty: the key does not exist
//! {4, 5(t)}
//! {1, 2, 3(t)}
//! ```
//!
//! Each write in raftlab is a transaction of one operation, so a revision is
//! etcd's main revision alone (etcd's sub revision would always be 0).

/// One life of a key, from its creation to its tombstone (etcd's `generation`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Generation {
    /// Versions written in this generation (etcd's `ver`), tombstone included.
    pub ver: u64,
    /// The revision of the put that created the key (etcd's `created`).
    pub created: u64,
    /// Every revision kept, ascending; in a closed generation the last one is
    /// the tombstone.
    pub revs: Vec<u64>,
}

impl Generation {
    pub fn is_empty(&self) -> bool {
        self.revs.is_empty()
    }

    /// The position of the largest revision at or below `at_rev` (etcd's
    /// `generation.walk`, which walks down from the newest revision).
    fn last_at_or_below(&self, at_rev: u64) -> Option<usize> {
        self.revs.iter().rposition(|&r| r <= at_rev)
    }
}

/// What a key's index answers for a revision (etcd's `keyIndex.get` results).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    pub mod_revision: u64,
    pub create_revision: u64,
    pub version: u64,
}

/// A key's generations (etcd's `keyIndex`). Never empty while it is in the
/// index: it has at least one generation, and is removed from the index once
/// compaction leaves only an empty one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyIndex {
    /// The revision of the last change (etcd's `modified`).
    pub modified: u64,
    pub generations: Vec<Generation>,
}

impl Default for KeyIndex {
    fn default() -> Self {
        KeyIndex {
            modified: 0,
            generations: vec![Generation::default()],
        }
    }
}

impl KeyIndex {
    /// Records a put at `rev` (etcd's `keyIndex.put`): it creates the key if
    /// the current generation is empty. Revisions only go up.
    pub fn put(&mut self, rev: u64) {
        assert!(
            rev > self.modified,
            "put at revision {rev} after {}",
            self.modified
        );
        if self.generations.is_empty() {
            self.generations.push(Generation::default());
        }
        let g = self
            .generations
            .last_mut()
            .expect("one generation at least");
        if g.revs.is_empty() {
            g.created = rev;
        }
        g.revs.push(rev);
        g.ver += 1;
        self.modified = rev;
    }

    /// Records a delete at `rev` (etcd's `keyIndex.tombstone`): the tombstone
    /// ends the current generation and a new empty one begins. Deleting a key
    /// that does not exist is refused (etcd's `ErrRevisionNotFound`); the
    /// store never asks, as etcd's `deleteRange` only deletes keys it found.
    pub fn tombstone(&mut self, rev: u64) -> Result<(), RevisionNotFound> {
        if self.generations.last().is_none_or(Generation::is_empty) {
            return Err(RevisionNotFound);
        }
        self.put(rev);
        self.generations.push(Generation::default());
        Ok(())
    }

    /// The key as it was at `at_rev` (etcd's `keyIndex.get`): the newest
    /// revision at or below `at_rev` in the generation alive then, with the
    /// generation's creation and the version counted within it.
    pub fn get(&self, at_rev: u64) -> Option<Found> {
        let g = self.find_generation(at_rev)?;
        let n = g.last_at_or_below(at_rev)?;
        Some(Found {
            mod_revision: g.revs[n],
            create_revision: g.created,
            version: g.ver - (g.revs.len() - n - 1) as u64,
        })
    }

    /// The generation alive at `rev` (etcd's `keyIndex.findGeneration`), or
    /// none when `rev` falls between a tombstone and the next creation.
    fn find_generation(&self, rev: u64) -> Option<&Generation> {
        let last = self.generations.len().checked_sub(1)?;
        for (i, g) in self.generations.iter().enumerate().rev() {
            let (Some(&first), Some(&tomb)) = (g.revs.first(), g.revs.last()) else {
                continue;
            };
            if i != last && tomb <= rev {
                return None;
            }
            if first <= rev {
                return Some(g);
            }
        }
        None
    }

    /// Forgets the revisions at or below `at_rev` except the largest one
    /// (etcd's `keyIndex.compact` and `doCompact`): generations whose
    /// tombstone is below `at_rev` go entirely; in the first generation that
    /// reaches `at_rev`, the newest revision at or below it stays (a
    /// tombstone exactly at `at_rev` stays too, until a later compaction).
    /// Returns the revisions kept at or below `at_rev` (etcd's `available`).
    pub fn compact(&mut self, at_rev: u64, available: &mut Vec<u64>) {
        let mut gen_idx = 0;
        while gen_idx + 1 < self.generations.len() {
            let g = &self.generations[gen_idx];
            match g.revs.last() {
                Some(&tomb) if tomb >= at_rev => break,
                _ => gen_idx += 1,
            }
        }
        let g = &mut self.generations[gen_idx];
        if let Some(n) = g.last_at_or_below(at_rev) {
            available.push(g.revs[n]);
            g.revs.drain(..n);
        }
        self.generations.drain(..gen_idx);
    }

    /// Only an empty generation left: the key is gone from the index
    /// (etcd's `keyIndex.isEmpty`).
    pub fn is_empty(&self) -> bool {
        self.generations.len() == 1 && self.generations[0].is_empty()
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
                revs: vec![modified],
            }],
        }
    }

    /// Rebuilds the index of a key whose first record is a tombstone (etcd's
    /// `keyIndex.restoreTombstone`): its creation was compacted away, so it
    /// is unknown (0) and the generation counts one version.
    pub fn restored_tombstone(rev: u64) -> KeyIndex {
        let mut ki = KeyIndex::restored(0, rev, 1);
        ki.generations.push(Generation::default());
        ki
    }
}

/// etcd's `ErrRevisionNotFound`: no such key at that revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RevisionNotFound;

#[cfg(test)]
mod tests {
    use super::*;

    /// put(1); put(2); delete(3); put(4); delete(5): the example of etcd's
    /// `keyIndex` comment, with etcd's sub revisions dropped.
    fn example() -> KeyIndex {
        let mut ki = KeyIndex::default();
        ki.put(1);
        ki.put(2);
        ki.tombstone(3).unwrap();
        ki.put(4);
        ki.tombstone(5).unwrap();
        ki
    }

    fn gens(ki: &KeyIndex) -> Vec<Vec<u64>> {
        ki.generations.iter().map(|g| g.revs.clone()).collect()
    }

    #[test]
    fn generations_follow_tombstones_as_etcd_key_index_put_and_tombstone() {
        let ki = example();
        assert_eq!(gens(&ki), vec![vec![1, 2, 3], vec![4, 5], vec![]]);
        assert_eq!(ki.modified, 5);
        assert_eq!(ki.generations[0].ver, 3);
        assert_eq!(ki.generations[1].created, 4);
    }

    #[test]
    fn tombstone_on_a_deleted_key_is_refused_as_etcd_key_index_tombstone() {
        let mut ki = example();
        assert_eq!(ki.tombstone(6), Err(RevisionNotFound));
        assert_eq!(ki.modified, 5);
    }

    #[test]
    fn get_finds_the_generation_alive_as_etcd_key_index_get() {
        let ki = example();
        let f = |rev| {
            ki.get(rev)
                .map(|f| (f.mod_revision, f.create_revision, f.version))
        };
        assert_eq!(f(0), None);
        assert_eq!(f(1), Some((1, 1, 1)));
        assert_eq!(f(2), Some((2, 1, 2)));
        // At a tombstone's revision and after it, the key does not exist.
        assert_eq!(f(3), None);
        assert_eq!(f(4), Some((4, 4, 1)));
        assert_eq!(f(5), None);
        assert_eq!(f(100), None);
    }

    /// The compaction sequence of etcd's `keyIndex` comment.
    #[test]
    fn compaction_keeps_the_largest_revision_as_etcd_key_index_compact() {
        let mut ki = example();
        let mut kept = Vec::new();
        ki.compact(2, &mut kept);
        assert_eq!(gens(&ki), vec![vec![2, 3], vec![4, 5], vec![]]);
        assert_eq!(kept, vec![2]);

        kept.clear();
        ki.compact(4, &mut kept);
        assert_eq!(gens(&ki), vec![vec![4, 5], vec![]]);
        assert_eq!(kept, vec![4]);

        kept.clear();
        ki.compact(5, &mut kept);
        assert_eq!(gens(&ki), vec![vec![5], vec![]]);
        assert_eq!(kept, vec![5]);
        assert!(!ki.is_empty());
        assert_eq!(ki.get(5), None);

        kept.clear();
        ki.compact(6, &mut kept);
        assert_eq!(gens(&ki), vec![Vec::<u64>::new()]);
        assert!(kept.is_empty());
        assert!(ki.is_empty(), "the key leaves the index");
    }

    #[test]
    fn compaction_of_a_live_key_keeps_its_version_count_as_etcd_key_index_compact() {
        let mut ki = KeyIndex::default();
        for rev in [2, 5, 7] {
            ki.put(rev);
        }
        let mut kept = Vec::new();
        ki.compact(6, &mut kept);
        assert_eq!(gens(&ki), vec![vec![5, 7]]);
        // The version is counted from the generation's `ver`, not from the
        // revisions left: it survives the compaction.
        let f = ki.get(6).unwrap();
        assert_eq!((f.mod_revision, f.create_revision, f.version), (5, 2, 2));
        assert_eq!(ki.get(7).unwrap().version, 3);
    }

    #[test]
    fn restore_rebuilds_a_compacted_key_as_etcd_key_index_restore() {
        let mut ki = KeyIndex::restored(2, 5, 2);
        ki.put(7);
        let f = ki.get(8).unwrap();
        assert_eq!((f.mod_revision, f.create_revision, f.version), (7, 2, 3));

        let mut t = KeyIndex::restored_tombstone(5);
        assert_eq!(t.get(5), None);
        assert!(!t.is_empty());
        t.put(6);
        assert_eq!(t.get(6).unwrap().create_revision, 6);
        assert_eq!(t.get(6).unwrap().version, 1);
    }
}
