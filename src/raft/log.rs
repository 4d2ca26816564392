//! One node's log (etcd's `log.go` with its storage folded in): the last
//! snapshot, the entries kept after the compaction point, and the commit and
//! apply cursors.
//!
//! Invariants: `applied <= committed <= last_index()`;
//! `offset - 1 <= snapshot index` (entries before the snapshot may be kept
//! so slow followers can still catch up from the log, etcd's
//! SnapshotCatchUpEntries); `entries[i].index == offset + i`.

use std::rc::Rc;

use crate::collections::chunked::Chunked;
use crate::collections::heap::Meter;
use crate::raft::types::{Entry, Snapshot};

/// The log's entries, in shared chunks (a time-travel checkpoint's clone
/// copies a pointer per chunk).
pub type Entries = Chunked<Entry>;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct RaftLog {
    /// The most recent snapshot (index 0: none).
    pub snapshot: Snapshot,
    /// Index of `entries[0]` (the first index still in the log).
    offset: u64,
    /// Term of the entry at `offset - 1`, the compaction point.
    prev_term: u64,
    entries: Entries,
    /// Highest index known to be committed.
    pub committed: u64,
    /// Highest index the state machine applied.
    pub applied: u64,
}

impl RaftLog {
    /// A log holding `snapshot` and then `entries` (which should continue
    /// right after it; entries at or before the snapshot index are skipped,
    /// and a gap ends the log).
    pub fn new(snapshot: Snapshot, entries: Vec<Entry>) -> RaftLog {
        let sindex = snapshot.metadata.index;
        let mut kept = Entries::default();
        for e in entries {
            if e.index <= sindex {
                continue;
            }
            if e.index != sindex + 1 + kept.len() as u64 {
                debug_assert!(false, "gap in stored entries at {}", e.index);
                break;
            }
            kept.push(e);
        }
        RaftLog {
            offset: sindex + 1,
            prev_term: snapshot.metadata.term,
            entries: kept,
            committed: sindex,
            applied: sindex,
            snapshot,
        }
    }

    /// Counts the entries kept and the snapshot.
    pub fn heap_size(&self, m: &mut Meter) {
        self.snapshot.heap_size(m);
        self.entries.heap_size(m, Some(Entry::heap_size));
    }

    pub fn first_index(&self) -> u64 {
        self.offset
    }

    pub fn last_index(&self) -> u64 {
        self.offset + self.entries.len() as u64 - 1
    }

    pub fn last_term(&self) -> u64 {
        self.entries.last().map_or(self.prev_term, |e| e.term)
    }

    /// The full chunk of entries starting at log index `index`, to share
    /// with a log that holds the same entries ([`RaftLog::share_chunks`]).
    pub fn chunk_at(&self, index: u64) -> Option<&Rc<Vec<Entry>>> {
        self.entries.full_chunk(self.offset, index)
    }

    /// The first indexes of the chunks of entries that filled since the
    /// last [`RaftLog::share_chunks`].
    pub fn unshared_chunks(&self) -> impl Iterator<Item = u64> + '_ {
        self.entries.unshared_full(self.offset)
    }

    /// Takes each of `others` (a chunk another log holds, by its first
    /// index) for ours where it holds the same entries: one copy of what
    /// every member's log holds alike. Nothing a reader sees changes.
    pub fn share_chunks(&mut self, others: &[(u64, Rc<Vec<Entry>>)]) {
        for (index, chunk) in others {
            self.entries.share(self.offset, *index, chunk);
        }
        self.entries.offered_all();
    }

    /// The retained entries, from `first_index()` to `last_index()`.
    pub fn entries(&self) -> &Entries {
        &self.entries
    }

    /// Entry `i`, if it is still in the log.
    pub fn entry(&self, i: u64) -> Option<&Entry> {
        let pos = i.checked_sub(self.offset)?;
        self.entries.get(usize::try_from(pos).ok()?)
    }

    /// The retained entries with index in `[lo, hi)`.
    pub fn range(&self, lo: u64, hi: u64) -> impl Iterator<Item = &Entry> + '_ {
        let pos = |i: u64| usize::try_from(i.saturating_sub(self.offset)).unwrap_or(usize::MAX);
        self.entries.range(pos(lo), pos(hi))
    }

    /// The term of entry `i`, if it is still known (not compacted, not beyond the end).
    pub fn term(&self, i: u64) -> Option<u64> {
        if i + 1 == self.offset {
            return Some(self.prev_term);
        }
        if i < self.offset {
            return None;
        }
        self.entry(i).map(|e| e.term)
    }

    pub fn match_term(&self, i: u64, term: u64) -> bool {
        self.term(i) == Some(term)
    }

    /// The candidate's log (ending at `last_index` in `term`) is at least as
    /// up to date as ours (the paper's §5.4.1 election restriction).
    pub fn is_up_to_date(&self, last_index: u64, term: u64) -> bool {
        let our = self.last_term();
        term > our || (term == our && last_index >= self.last_index())
    }

    /// The index of the first of `entries` that is not in our log with the
    /// same term (0 if all are). Entries beyond our end count as conflicts,
    /// so a non-zero answer is where new entries start.
    pub fn find_conflict(&self, entries: &[Entry]) -> u64 {
        entries
            .iter()
            .find(|e| !self.match_term(e.index, e.term))
            .map_or(0, |e| e.index)
    }

    /// The largest index at or below `index` whose term is at most `term`,
    /// with that term (etcd's findConflictByTerm): where a log ending in
    /// `term` can possibly match ours. Stops at the compaction point,
    /// answering its index with term 0 (unknown).
    pub fn find_conflict_by_term(&self, mut index: u64, term: u64) -> (u64, u64) {
        while index > 0 {
            match self.term(index) {
                None => return (index, 0),
                Some(t) if t <= term => return (index, t),
                Some(_) => index -= 1,
            }
        }
        (0, 0)
    }

    /// The follower side of AppendEntries: if our log has `(prev_index,
    /// prev_term)`, append `entries` (dropping any conflicting suffix),
    /// advance the commit index to min(`leader_commit`, last new entry) and
    /// return the index of the last new entry.
    pub fn maybe_append(
        &mut self,
        prev_index: u64,
        prev_term: u64,
        leader_commit: u64,
        mut entries: Vec<Entry>,
    ) -> Option<u64> {
        if !self.match_term(prev_index, prev_term) {
            return None;
        }
        let last_new = prev_index + entries.len() as u64;
        let conflict = self.find_conflict(&entries);
        if conflict != 0 {
            if conflict <= self.committed {
                // A leader never contradicts a committed entry; a message
                // that does is corrupt: refuse it rather than lose data.
                debug_assert!(false, "entry {conflict} conflicts with committed entry");
                return None;
            }
            let skip = (conflict - (prev_index + 1)) as usize;
            entries.drain(..skip);
            self.append(entries);
        }
        self.commit_to(leader_commit.min(last_new));
        Some(last_new)
    }

    /// Appends `entries` (contiguous, starting at most at `last_index() + 1`),
    /// truncating any existing entries from the first one's index on.
    pub fn append(&mut self, entries: Vec<Entry>) -> u64 {
        let Some(first) = entries.first() else {
            return self.last_index();
        };
        let after = first.index - 1;
        debug_assert!(after >= self.committed, "truncating committed entries");
        debug_assert!(after <= self.last_index() && after + 1 >= self.offset);
        let keep = (after + 1).saturating_sub(self.offset) as usize;
        self.entries.truncate(keep);
        self.entries.extend_weighed(entries, Entry::heap_size);
        self.last_index()
    }

    /// Entries in `[lo, hi)`, at most `max_size` bytes (but always at least
    /// one, so a huge entry still moves). `None` if `lo` is compacted.
    pub fn slice(&self, lo: u64, hi: u64, max_size: u64) -> Option<Vec<Entry>> {
        let mut out = Vec::new();
        self.slice_into(lo, hi, max_size, &mut out).then_some(out)
    }

    /// [`RaftLog::slice`] appended to `out`; false (and nothing appended) if
    /// `lo` is compacted.
    pub fn slice_into(&self, lo: u64, hi: u64, max_size: u64, out: &mut Vec<Entry>) -> bool {
        if lo < self.offset {
            return false;
        }
        let hi = hi.min(self.last_index() + 1);
        if lo >= hi {
            return true;
        }
        let from = (lo - self.offset) as usize;
        let to = (hi - self.offset) as usize;
        let mut size = 0;
        let first = out.len();
        for e in self.entries.range(from, to) {
            size += e.size();
            if out.len() > first && size > max_size {
                break;
            }
            out.push(e.clone());
        }
        true
    }

    /// Entries from `lo` to the end, limited by `max_size` (see [`RaftLog::slice`]).
    pub fn entries_from(&self, lo: u64, max_size: u64) -> Option<Vec<Entry>> {
        self.slice(lo, self.last_index() + 1, max_size)
    }

    pub fn commit_to(&mut self, index: u64) {
        if index > self.committed {
            debug_assert!(index <= self.last_index(), "commit beyond the log");
            self.committed = index.min(self.last_index());
        }
    }

    /// Leader: commit up to `max_index` (the majority-acknowledged index) if
    /// that entry is of the leader's `term`. Entries of earlier terms are
    /// never committed by counting replicas, only along with one of the
    /// current term (the paper's Figure 8 and §5.4.2).
    pub fn maybe_commit(&mut self, max_index: u64, term: u64) -> bool {
        if max_index > self.committed && self.term(max_index) == Some(term) {
            self.commit_to(max_index);
            true
        } else {
            false
        }
    }

    pub fn applied_to(&mut self, index: u64) {
        self.applied = self.applied.max(index.min(self.committed));
    }

    /// Replace everything by `snapshot` (a follower installing the leader's snapshot).
    pub fn restore(&mut self, snapshot: Snapshot) {
        let index = snapshot.metadata.index;
        self.offset = index + 1;
        self.prev_term = snapshot.metadata.term;
        self.entries.clear();
        self.committed = index;
        self.applied = index;
        self.snapshot = snapshot;
    }

    /// The application snapshotted its state at `snapshot.metadata.index`
    /// (<= committed): the snapshot a lagging follower is sent from now on
    /// (etcd's `MemoryStorage.CreateSnapshot`). Entries stay.
    pub fn set_snapshot(&mut self, snapshot: Snapshot) {
        let sindex = snapshot.metadata.index;
        debug_assert!(sindex <= self.committed && sindex + 1 >= self.offset);
        if sindex > self.snapshot.metadata.index {
            self.snapshot = snapshot;
        }
    }

    /// Drops the entries up to and including `compact_index` (etcd's
    /// `MemoryStorage.Compact`). Only entries the snapshot covers may go, so
    /// `compact_index` is capped at the snapshot index. Returns whether any
    /// entry was dropped.
    pub fn compact_to(&mut self, compact_index: u64) -> bool {
        let compact_index = compact_index.min(self.snapshot.metadata.index);
        if compact_index < self.offset {
            return false;
        }
        let Some(term) = self.term(compact_index) else {
            return false;
        };
        let drop = (compact_index + 1 - self.offset) as usize;
        self.entries.drop_front(drop);
        self.offset = compact_index + 1;
        self.prev_term = term;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::types::{EntryData, SnapshotMetadata};

    fn ent(index: u64, term: u64) -> Entry {
        Entry {
            term,
            index,
            data: EntryData::Empty,
        }
    }

    /// A log with entries 1..=terms.len(), entry i at terms[i-1].
    fn log_with(terms: &[u64]) -> RaftLog {
        let entries = terms
            .iter()
            .enumerate()
            .map(|(i, &t)| ent(i as u64 + 1, t))
            .collect();
        RaftLog::new(Snapshot::default(), entries)
    }

    fn snap(index: u64, term: u64) -> Snapshot {
        Snapshot {
            metadata: SnapshotMetadata {
                index,
                term,
                ..Default::default()
            },
            ..Default::default()
        }
    }

    #[test]
    fn terms_and_bounds() {
        let log = log_with(&[1, 1, 2]);
        assert_eq!(
            (log.first_index(), log.last_index(), log.last_term()),
            (1, 3, 2)
        );
        assert_eq!(log.term(0), Some(0));
        assert_eq!(log.term(3), Some(2));
        assert_eq!(log.term(4), None);
        let empty = RaftLog::default();
        assert_eq!(RaftLog::new(Snapshot::default(), vec![]).last_index(), 0);
        assert_eq!(empty.committed, 0);
    }

    #[test]
    fn up_to_date_compares_last_term_then_length() {
        let log = log_with(&[1, 2, 2]);
        assert!(log.is_up_to_date(3, 2));
        assert!(log.is_up_to_date(4, 2));
        assert!(!log.is_up_to_date(2, 2));
        assert!(log.is_up_to_date(1, 3));
        assert!(!log.is_up_to_date(9, 1));
    }

    #[test]
    fn maybe_append_truncates_conflicts_and_commits() {
        let mut log = log_with(&[1, 2, 2]);
        // Mismatched previous entry: refused.
        assert_eq!(log.maybe_append(3, 3, 3, vec![ent(4, 3)]), None);
        // Conflict at 3: replaced, and the commit follows the leader up to the last new entry.
        assert_eq!(
            log.maybe_append(2, 2, 10, vec![ent(3, 3), ent(4, 3)]),
            Some(4)
        );
        assert_eq!(log.term(3), Some(3));
        assert_eq!(log.last_index(), 4);
        assert_eq!(log.committed, 4);
        // A stale, shorter append leaves later entries alone.
        assert_eq!(log.maybe_append(1, 1, 2, vec![ent(2, 2)]), Some(2));
        assert_eq!(log.last_index(), 4);
        assert_eq!(log.committed, 4);
    }

    #[test]
    fn find_conflict_by_term_skips_higher_terms() {
        // idx 1 2 3 4 5 6 7 8 9 / term 1 3 3 4 4 5 5 5 6
        let log = log_with(&[1, 3, 3, 4, 4, 5, 5, 5, 6]);
        assert_eq!(log.find_conflict_by_term(8, 3), (3, 3));
        assert_eq!(log.find_conflict_by_term(9, 6), (9, 6));
        assert_eq!(log.find_conflict_by_term(9, 0), (0, 0));
        assert_eq!(log.find_conflict_by_term(5, 2), (1, 1));
    }

    #[test]
    fn figure_8_rule_commits_only_current_term_entries() {
        let mut log = log_with(&[1, 2, 2]);
        assert!(
            !log.maybe_commit(3, 4),
            "entry 3 is of term 2, leader is at term 4"
        );
        assert_eq!(log.committed, 0);
        assert!(log.maybe_commit(3, 2));
        assert_eq!(log.committed, 3);
        assert!(!log.maybe_commit(2, 2), "never goes backwards");
    }

    #[test]
    fn slice_respects_size_but_sends_at_least_one() {
        let log = log_with(&[1, 1, 1, 1]);
        let one = ent(1, 1).size();
        assert_eq!(log.slice(1, 5, 0).unwrap().len(), 1);
        assert_eq!(log.slice(1, 5, 2 * one).unwrap().len(), 2);
        assert_eq!(log.slice(2, 99, u64::MAX).unwrap().len(), 3);
        assert_eq!(log.slice(5, 9, u64::MAX).unwrap().len(), 0);
    }

    #[test]
    fn compaction_keeps_catch_up_entries_and_restore_replaces_all() {
        let mut log = log_with(&[1, 1, 2, 2, 2, 3]);
        log.commit_to(6);
        log.applied_to(6);
        log.set_snapshot(snap(5, 2));
        assert!(log.compact_to(3));
        assert!(!log.compact_to(3), "already compacted");
        assert_eq!(log.first_index(), 4);
        assert_eq!(log.term(3), Some(2));
        assert_eq!(log.term(2), None);
        assert_eq!(log.snapshot.metadata.index, 5);
        assert_eq!(log.slice(3, 7, u64::MAX), None);
        assert_eq!(log.entries().len(), 3);

        log.restore(snap(10, 4));
        assert_eq!(
            (log.first_index(), log.last_index(), log.last_term()),
            (11, 10, 4)
        );
        assert_eq!((log.committed, log.applied), (10, 10));
        assert!(log.match_term(10, 4));
    }

    #[test]
    fn new_skips_entries_covered_by_the_snapshot() {
        let log = RaftLog::new(snap(2, 1), vec![ent(1, 1), ent(2, 1), ent(3, 2)]);
        assert_eq!((log.first_index(), log.last_index()), (3, 3));
        assert_eq!(log.term(2), Some(1));
    }
}
