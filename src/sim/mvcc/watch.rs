//! Watchers over the store, as etcd's `watchableStore`
//! (`server/storage/mvcc/watchable_store.go`, `watcher_group.go`).
//!
//! A watcher covers a key or a prefix and remembers the next revision it
//! wants (etcd's `minRev`). Given the store, [`Watcher::poll`] returns what
//! etcd would send it next: the events from that revision on, in revision
//! order, or the cancellation that tells it its revision was compacted away.
//!
//! etcd keeps two groups: synced watchers get each write's events as the
//! write ends (`notify`), unsynced ones are caught up from the backend every
//! 100 ms (`syncWatchers`). Here nothing is pushed: the owner polls. Polled
//! after every applied write, a watcher behaves as a synced one (it is never
//! behind, so a compaction cannot cancel it); polled later, as an unsynced
//! one.

use std::rc::Rc;

use super::store::{KeyRange, KeyValue, MvccStore};

/// The most distinct revisions one response carries to a watcher that is
/// catching up (etcd's `watchBatchMaxRevs`).
pub const WATCH_BATCH_MAX_REVS: usize = 1000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EventType {
    Put,
    Delete,
}

impl EventType {
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::Put => "put",
            EventType::Delete => "delete",
        }
    }
}

/// One change a watcher sees (etcd's `mvccpb.Event`). A delete's key-value
/// holds only the key and the revision of the delete (etcd's `kvsToEvents`
/// patches the tombstone's mod revision in).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub kind: EventType,
    pub kv: KeyValue,
}

impl Event {
    pub fn revision(&self) -> u64 {
        self.kv.mod_revision
    }
}

/// What a watcher receives (etcd's `WatchResponse`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatchResponse {
    /// Events in revision order; `revision` is the store's revision when
    /// they were read (the response header's).
    Events { events: Vec<Event>, revision: u64 },
    /// The watcher's next revision is below the compaction's: etcd sends
    /// `CompactRevision` and cancels the watch (v3rpc sets `Canceled`; the
    /// client's `Err()` is `ErrCompacted`). Nothing follows.
    Compacted { compact_revision: u64 },
}

/// One watcher (etcd's `watcher`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Watcher {
    pub range: KeyRange,
    /// The revision asked for at creation (0: from the next write).
    pub start_rev: u64,
    /// The next revision this watcher wants (etcd's `minRev`).
    pub min_rev: u64,
    /// Set once the watcher was cancelled by a compaction: the revision.
    pub compacted: Option<u64>,
}

impl Watcher {
    /// A watcher from `start_rev` (etcd's `watchableStore.watch`): 0, or a
    /// revision beyond the current one, starts with the next write (or at
    /// `start_rev`, whichever is later); an older revision makes a watcher
    /// that first catches up on history.
    pub fn new(store: &MvccStore, range: KeyRange, start_rev: u64) -> Watcher {
        let current = store.rev();
        let synced = start_rev == 0 || start_rev > current;
        let min_rev = if synced {
            (current + 1).max(start_rev)
        } else {
            start_rev
        };
        Watcher {
            range,
            start_rev,
            min_rev,
            compacted: None,
        }
    }

    /// Whether the watch is still on.
    pub fn is_active(&self) -> bool {
        self.compacted.is_none()
    }

    /// What etcd sends this watcher next, or `None` if nothing (etcd's
    /// `syncWatchers` with `chooseAll`, `rangeEvents` and `eventBatch`):
    /// a next revision below the compaction's cancels the watcher; otherwise
    /// the matching events from the next revision to the current one, at
    /// most `max_revs` distinct revisions (the rest comes with the next
    /// poll).
    pub fn poll(&mut self, store: &MvccStore, max_revs: usize) -> Option<WatchResponse> {
        if self.compacted.is_some() {
            return None;
        }
        if let Some(c) = store.compact_revision() {
            if self.min_rev < c {
                self.compacted = Some(c);
                return Some(WatchResponse::Compacted {
                    compact_revision: c,
                });
            }
        }
        let current = store.rev();
        if self.min_rev > current {
            return None;
        }
        let mut events = Vec::new();
        let mut more = None;
        for (rev, rec) in store.records_from(self.min_rev) {
            if !self.range.contains(&rec.key) {
                continue;
            }
            if events.len() == max_revs.max(1) {
                more = Some(rev);
                break;
            }
            events.push(if rec.tombstone {
                Event {
                    kind: EventType::Delete,
                    kv: KeyValue {
                        key: Rc::clone(&rec.key),
                        value: Rc::from(""),
                        create_revision: 0,
                        mod_revision: rev,
                        version: 0,
                    },
                }
            } else {
                Event {
                    kind: EventType::Put,
                    kv: KeyValue {
                        key: Rc::clone(&rec.key),
                        value: Rc::clone(&rec.value),
                        create_revision: rec.create_revision,
                        mod_revision: rev,
                        version: rec.version,
                    },
                }
            });
        }
        self.min_rev = more.unwrap_or(current + 1);
        if events.is_empty() {
            return None;
        }
        Some(WatchResponse::Events {
            events,
            revision: current,
        })
    }

    /// Polls until the watcher has caught up: every response in order.
    pub fn poll_all(&mut self, store: &MvccStore) -> Vec<WatchResponse> {
        let mut out = Vec::new();
        while let Some(r) = self.poll(store, WATCH_BATCH_MAX_REVS) {
            let done = matches!(r, WatchResponse::Compacted { .. });
            out.push(r);
            if done || self.min_rev > store.rev() {
                break;
            }
        }
        out
    }
}
