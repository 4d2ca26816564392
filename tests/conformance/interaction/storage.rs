//! What each node of the interaction tests has persisted: etcd's
//! MemoryStorage, which the harness writes from each Ready (hard state,
//! snapshot, entries) and prints with `raft-log`.

use raftlab::raft::{Entry, HardState, Snapshot};

/// Invariant: `entries[i].index == dummy_index + 1 + i`.
#[derive(Default)]
pub struct MemStorage {
    /// The compaction point (etcd's dummy entry `ents[0]`): the index and
    /// term of the last entry dropped or covered by the snapshot.
    dummy_index: u64,
    dummy_term: u64,
    entries: Vec<Entry>,
    pub hard_state: HardState,
}

impl MemStorage {
    pub fn first_index(&self) -> u64 {
        self.dummy_index + 1
    }

    pub fn last_index(&self) -> u64 {
        self.dummy_index + self.entries.len() as u64
    }

    pub fn term(&self, i: u64) -> Option<u64> {
        if i == self.dummy_index {
            return Some(self.dummy_term);
        }
        let pos = i.checked_sub(self.first_index())?;
        self.entries.get(pos as usize).map(|e| e.term)
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Replaces everything by the snapshot (etcd's ApplySnapshot).
    pub fn apply_snapshot(&mut self, s: &Snapshot) {
        self.dummy_index = s.metadata.index;
        self.dummy_term = s.metadata.term;
        self.entries.clear();
    }

    /// Appends `entries`, replacing any from the first one's index on, and
    /// skipping those already compacted (etcd's Append).
    pub fn append(&mut self, entries: &[Entry]) -> Result<(), String> {
        let Some(first) = entries.first() else {
            return Ok(());
        };
        let skip = self.first_index().saturating_sub(first.index) as usize;
        let entries = entries.get(skip..).unwrap_or(&[]);
        let Some(first) = entries.first() else {
            return Ok(());
        };
        if first.index > self.last_index() + 1 {
            return Err(format!(
                "missing log entry [last: {}, append at: {}]",
                self.last_index(),
                first.index
            ));
        }
        self.entries
            .truncate((first.index - self.first_index()) as usize);
        self.entries.extend_from_slice(entries);
        Ok(())
    }

    /// Drops the entries up to `compact_index`, which becomes the
    /// compaction point (etcd's Compact).
    pub fn compact(&mut self, compact_index: u64) -> Result<(), String> {
        if compact_index <= self.dummy_index {
            return Err("requested index is unavailable due to compaction".into());
        }
        let Some(term) = self.term(compact_index) else {
            return Err(format!(
                "compact {compact_index} is out of bound lastindex({})",
                self.last_index()
            ));
        };
        self.entries
            .drain(..(compact_index - self.dummy_index) as usize);
        self.dummy_index = compact_index;
        self.dummy_term = term;
        Ok(())
    }
}
