//! A multi-version key-value store and its watchers, as etcd's
//! `server/storage/mvcc` package: revisions, per-key history, reads at a
//! revision, deletes, MVCC compaction, watch from a revision, and the image
//! a snapshot carries. See `docs/mvcc.md` for what is modelled and what is
//! simplified.
//!
//! Pure data structures: no clock, no I/O, ordered maps only, so the same
//! writes give the same store bit for bit.

pub mod backend;
pub mod index_key;
pub mod key_index;
pub mod store;
pub mod watch;

#[cfg(test)]
mod tests;

pub use backend::{Record, KEY_OVERHEAD_BYTES};
pub use key_index::KeyIndex;
pub use store::{Deleted, KeyRange, KeyValue, MvccError, MvccImage, MvccStore, RangeResult};
pub use watch::{Event, EventType, WatchResponse, Watcher, WATCH_BATCH_MAX_REVS};
