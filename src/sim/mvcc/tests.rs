//! The store and its watchers against etcd's behaviour, each test naming the
//! etcd function it follows, and a property test against a model that keeps
//! every write in a list.

use super::*;

fn key(k: &str) -> KeyRange {
    KeyRange::Key(k.to_string())
}

fn prefix(p: &str) -> KeyRange {
    KeyRange::Prefix(p.to_string())
}

/// (value, create_revision, mod_revision, version) of `k` at `rev`.
fn at(s: &MvccStore, k: &str, rev: u64) -> Result<Option<(String, u64, u64, u64)>, MvccError> {
    s.get(k, rev).map(|kv| {
        kv.map(|kv| {
            (
                kv.value.to_string(),
                kv.create_revision,
                kv.mod_revision,
                kv.version,
            )
        })
    })
}

fn events(r: &WatchResponse) -> Vec<(u64, EventType, String, String)> {
    match r {
        WatchResponse::Events { events, .. } => events
            .iter()
            .map(|e| {
                (
                    e.revision(),
                    e.kind,
                    e.kv.key.to_string(),
                    e.kv.value.to_string(),
                )
            })
            .collect(),
        WatchResponse::Compacted { .. } => panic!("expected events, got {r:?}"),
    }
}

#[test]
fn a_new_store_is_at_revision_1_and_the_first_write_gets_2_as_etcd_new_store() {
    let mut s = MvccStore::new();
    assert_eq!(s.rev(), 1);
    assert_eq!(s.compact_revision(), None);
    assert_eq!(s.put("a", "1", 1), 2);
    assert_eq!(s.rev(), 2);
    assert_eq!(s.put("b", "1", 1), 3);
}

#[test]
fn put_keeps_the_creation_and_counts_versions_as_etcd_store_txn_write_put() {
    let mut s = MvccStore::new();
    s.put("a", "1", 1); // 2
    s.put("b", "x", 1); // 3
    s.put("a", "2", 1); // 4
    assert_eq!(at(&s, "a", 0), Ok(Some(("2".into(), 2, 4, 2))));
    assert_eq!(at(&s, "a", 3), Ok(Some(("1".into(), 2, 2, 1))));
    assert_eq!(at(&s, "b", 4), Ok(Some(("x".into(), 3, 3, 1))));
    assert_eq!(at(&s, "a", 1), Ok(None), "a did not exist yet");
}

#[test]
fn delete_leaves_a_tombstone_and_a_new_generation_as_etcd_store_txn_write_delete() {
    let mut s = MvccStore::new();
    s.put("a", "1", 1); // 2
    s.put("a", "2", 1); // 3
    assert_eq!(s.delete("a"), Deleted { deleted: 1, rev: 4 });
    assert_eq!(at(&s, "a", 0), Ok(None));
    assert_eq!(at(&s, "a", 3), Ok(Some(("2".into(), 2, 3, 2))));
    assert!(s.record(4).unwrap().tombstone);
    // Put again: a new generation, created now, version 1.
    assert_eq!(s.put("a", "3", 1), 5);
    assert_eq!(at(&s, "a", 0), Ok(Some(("3".into(), 5, 5, 1))));
}

#[test]
fn deleting_a_missing_key_keeps_the_revision_as_etcd_store_txn_write_end() {
    let mut s = MvccStore::new();
    assert_eq!(s.delete("a"), Deleted { deleted: 0, rev: 1 });
    s.put("a", "1", 1); // 2
    s.delete("a"); // 3
    assert_eq!(s.delete("a"), Deleted { deleted: 0, rev: 3 });
    assert_eq!(s.rev(), 3);
    assert_eq!(s.record_count(), 2);
}

#[test]
fn reads_beyond_the_current_revision_are_future_rev_as_etcd_range_keys() {
    let mut s = MvccStore::new();
    s.put("a", "1", 1); // 2
    assert_eq!(at(&s, "a", 3), Err(MvccError::FutureRev));
    assert_eq!(at(&s, "a", 2), Ok(Some(("1".into(), 2, 2, 1))));
    // Revision 0 means the current one.
    assert_eq!(at(&s, "a", 0), at(&s, "a", 2));
    assert_eq!(
        s.range(&prefix(""), 99, 0).unwrap_err().as_str(),
        "future-rev"
    );
}

#[test]
fn reads_below_the_compaction_are_compacted_but_at_it_work_as_etcd_range_keys() {
    let mut s = MvccStore::new();
    for v in ["1", "2", "3", "4"] {
        s.put("a", v, 1); // 2..=5
    }
    s.compact(4).unwrap();
    assert_eq!(at(&s, "a", 3), Err(MvccError::Compacted));
    assert_eq!(at(&s, "a", 2), Err(MvccError::Compacted));
    assert_eq!(at(&s, "a", 4), Ok(Some(("3".into(), 2, 4, 3))));
    assert_eq!(at(&s, "a", 5), Ok(Some(("4".into(), 2, 5, 4))));
    assert_eq!(at(&s, "a", 0), Ok(Some(("4".into(), 2, 5, 4))));
    assert_eq!(MvccError::Compacted.as_str(), "compacted");
    assert_eq!(
        MvccError::Compacted.etcd_text(),
        "etcdserver: mvcc: required revision has been compacted"
    );
}

#[test]
fn compaction_refuses_old_and_future_revisions_as_etcd_update_compact_rev() {
    let mut s = MvccStore::new();
    for v in ["1", "2", "3"] {
        s.put("a", v, 1); // 2..=4
    }
    assert_eq!(s.compact(5), Err(MvccError::FutureRev));
    assert_eq!(s.compact_revision(), None);
    assert_eq!(s.compact(3), Ok(()));
    assert_eq!(
        s.compact(3),
        Err(MvccError::Compacted),
        "at the last compaction"
    );
    assert_eq!(s.compact(2), Err(MvccError::Compacted), "below it");
    assert_eq!(s.compact(4), Ok(()), "up to the current revision");
    assert_eq!(s.compact_revision(), Some(4));
    assert_eq!(s.compact(5), Err(MvccError::FutureRev));
}

#[test]
fn compaction_keeps_each_keys_newest_revision_as_etcd_tree_index_compact() {
    let mut s = MvccStore::new();
    s.put("a", "1", 1); // 2
    s.put("a", "2", 1); // 3
    s.put("b", "1", 1); // 4
    s.delete("b"); // 5
    s.put("c", "1", 1); // 6
    s.delete("c"); // 7
    s.put("a", "3", 1); // 8
    s.compact(7).unwrap();
    // a keeps 3 (newest at or below 7) and 8; b's generation ended before 7
    // and is gone; c's tombstone is exactly at 7 and stays.
    let kept: Vec<u64> = s.records_from(0).map(|(r, _)| r).collect();
    assert_eq!(kept, vec![3, 7, 8]);
    assert_eq!(at(&s, "a", 7), Ok(Some(("2".into(), 2, 3, 2))));
    assert_eq!(at(&s, "b", 7), Ok(None));
    assert_eq!(at(&s, "c", 7), Ok(None));
    assert_eq!(at(&s, "a", 8), Ok(Some(("3".into(), 2, 8, 3))));
    // A later compaction drops c's tombstone and c leaves the index.
    s.put("d", "1", 1); // 9
    s.compact(9).unwrap();
    let kept: Vec<u64> = s.records_from(0).map(|(r, _)| r).collect();
    assert_eq!(kept, vec![8, 9]);
    assert_eq!(s.history_bytes(), 2 * (KEY_OVERHEAD_BYTES + 1));
}

#[test]
fn range_counts_beyond_its_limit_as_etcd_tree_index_revisions() {
    let mut s = MvccStore::new();
    for k in ["k1", "k2", "k3", "kz", "l"] {
        s.put(k, k, 1);
    }
    s.delete("k2");
    let r = s.range(&prefix("k"), 0, 2).unwrap();
    let keys: Vec<&str> = r.kvs.iter().map(|kv| &*kv.key).collect();
    assert_eq!(keys, vec!["k1", "k3"]);
    assert_eq!(r.count, 3);
    assert!(r.more());
    assert_eq!(r.rev, 7, "the header carries the current revision");
    // At revision 4 k2 still existed; the header still says 7.
    let r = s.range(&prefix("k"), 4, 0).unwrap();
    let keys: Vec<&str> = r.kvs.iter().map(|kv| &*kv.key).collect();
    assert_eq!(keys, vec!["k1", "k2", "k3"]);
    assert!(!r.more());
    assert_eq!(r.rev, 7);
    assert_eq!(s.range(&prefix(""), 0, 0).unwrap().count, 4);
    assert_eq!(s.range(&key("k"), 0, 0).unwrap().count, 0);
}

#[test]
fn live_bytes_weigh_the_latest_values_as_the_single_value_store_did() {
    let mut s = MvccStore::new();
    s.put("a", "1", 100);
    s.put("b", "2", 10);
    assert_eq!(s.bytes(), 2 * KEY_OVERHEAD_BYTES + 110);
    s.put("a", "3", 1);
    assert_eq!(s.bytes(), 2 * KEY_OVERHEAD_BYTES + 11);
    assert_eq!(s.history_bytes(), 3 * KEY_OVERHEAD_BYTES + 111);
    s.delete("b");
    assert_eq!(s.bytes(), KEY_OVERHEAD_BYTES + 1);
    assert_eq!(s.len(), 1);
    let all: Vec<(String, String)> = s
        .iter()
        .map(|(_, r)| (r.key.to_string(), r.value.to_string()))
        .collect();
    assert_eq!(all, vec![("a".to_string(), "3".to_string())]);
}

#[test]
fn a_restored_store_reads_as_the_original_as_etcd_store_restore() {
    let mut s = MvccStore::new();
    s.put("a", "1", 5); // 2
    s.put("b", "1", 5); // 3
    s.put("a", "2", 5); // 4
    s.delete("b"); // 5
    s.put("b", "2", 5); // 6
    s.put("c", "1", 5); // 7
    s.delete("c"); // 8
    s.compact(5).unwrap();
    let image = s.image();
    assert_eq!(image.bytes(), s.history_bytes());
    let mut r = MvccStore::restore(&image);
    assert_eq!(r.rev(), s.rev());
    assert_eq!(r.compact_revision(), Some(5));
    assert_eq!(r.bytes(), s.bytes());
    assert_eq!(r.history_bytes(), s.history_bytes());
    for rev in 0..=9 {
        for k in ["a", "b", "c"] {
            assert_eq!(at(&r, k, rev), at(&s, k, rev), "{k} at {rev}");
        }
    }
    // Writes go on with the same revisions, creations and versions.
    assert_eq!(r.put("a", "3", 1), s.put("a", "3", 1));
    assert_eq!(at(&r, "a", 0), at(&s, "a", 0));
    assert_eq!(at(&r, "a", 0), Ok(Some(("3".into(), 2, 9, 3))));
}

#[test]
fn the_current_revision_survives_a_restore_of_compacted_tombstones_as_etcd_store_restore() {
    let mut s = MvccStore::new();
    s.put("a", "1", 1); // 2
    s.delete("a"); // 3
    s.compact(3).unwrap();
    let r = MvccStore::restore(&s.image());
    assert_eq!(r.rev(), 3);
    assert_eq!(r.compact_revision(), Some(3));
    assert!(r.is_empty());
    assert_eq!(
        MvccStore::restore(&MvccStore::new().image()),
        MvccStore::new()
    );
}

#[test]
fn a_watch_from_revision_0_starts_at_the_next_write_as_etcd_watchable_store_watch() {
    let mut s = MvccStore::new();
    s.put("a", "1", 1); // 2
    let mut w = Watcher::new(&s, key("a"), 0);
    assert_eq!(w.min_rev, 3);
    assert_eq!(w.poll(&s, WATCH_BATCH_MAX_REVS), None);
    s.put("a", "2", 1); // 3
    s.put("b", "2", 1); // 4: another key
    let r = w.poll(&s, WATCH_BATCH_MAX_REVS).unwrap();
    assert_eq!(
        events(&r),
        vec![(3, EventType::Put, "a".into(), "2".into())]
    );
    assert!(matches!(r, WatchResponse::Events { revision: 4, .. }));
    assert_eq!(w.min_rev, 5);
    assert_eq!(w.poll(&s, WATCH_BATCH_MAX_REVS), None);
}

#[test]
fn a_watch_from_the_past_replays_history_as_etcd_sync_watchers_and_range_events() {
    let mut s = MvccStore::new();
    s.put("k/a", "1", 1); // 2
    s.put("x", "1", 1); // 3
    s.put("k/b", "1", 1); // 4
    s.delete("k/a"); // 5
    let mut w = Watcher::new(&s, prefix("k/"), 2);
    let r = w.poll(&s, WATCH_BATCH_MAX_REVS).unwrap();
    assert_eq!(
        events(&r),
        vec![
            (2, EventType::Put, "k/a".into(), "1".into()),
            (4, EventType::Put, "k/b".into(), "1".into()),
            (5, EventType::Delete, "k/a".into(), String::new()),
        ]
    );
    // The delete event carries the delete's revision and only the key
    // (etcd's kvsToEvents).
    let WatchResponse::Events { events, .. } = &r else {
        unreachable!()
    };
    assert_eq!(events[2].kv.create_revision, 0);
    assert_eq!(events[2].kv.version, 0);
    assert_eq!(events[1].kv.version, 1);
    assert_eq!(events[1].kv.create_revision, 4);
}

#[test]
fn a_watch_from_a_future_revision_waits_for_it_as_etcd_watchable_store_watch() {
    let mut s = MvccStore::new();
    let mut w = Watcher::new(&s, key("a"), 4);
    assert_eq!(w.min_rev, 4);
    s.put("a", "1", 1); // 2
    s.put("a", "2", 1); // 3
    assert_eq!(w.poll(&s, WATCH_BATCH_MAX_REVS), None);
    s.put("a", "3", 1); // 4
    let r = w.poll(&s, WATCH_BATCH_MAX_REVS).unwrap();
    assert_eq!(
        events(&r),
        vec![(4, EventType::Put, "a".into(), "3".into())]
    );
}

#[test]
fn a_watch_below_the_compaction_is_cancelled_as_etcd_choose_all() {
    let mut s = MvccStore::new();
    for v in ["1", "2", "3", "4"] {
        s.put("a", v, 1); // 2..=5
    }
    s.compact(4).unwrap();
    let mut w = Watcher::new(&s, key("a"), 3);
    assert_eq!(
        w.poll(&s, WATCH_BATCH_MAX_REVS),
        Some(WatchResponse::Compacted {
            compact_revision: 4
        })
    );
    assert!(!w.is_active());
    // Cancelled for good: later writes are not delivered.
    s.put("a", "5", 1);
    assert_eq!(w.poll(&s, WATCH_BATCH_MAX_REVS), None);

    // At the compaction's revision itself the watch works: the revision's
    // record is the newest at or below it, so compaction kept it.
    let mut w = Watcher::new(&s, key("a"), 4);
    let r = w.poll(&s, WATCH_BATCH_MAX_REVS).unwrap();
    assert_eq!(
        events(&r),
        vec![
            (4, EventType::Put, "a".into(), "3".into()),
            (5, EventType::Put, "a".into(), "4".into()),
            (6, EventType::Put, "a".into(), "5".into()),
        ]
    );
}

#[test]
fn a_lagging_watcher_is_cancelled_but_a_synced_one_is_not_as_etcd_notify_and_sync_watchers() {
    let mut s = MvccStore::new();
    let mut synced = Watcher::new(&s, prefix(""), 0);
    let mut lagging = Watcher::new(&s, prefix(""), 0);
    let mut seen = Vec::new();
    for v in ["1", "2", "3"] {
        s.put("a", v, 1); // 2..=4
        seen.extend(events(&synced.poll(&s, WATCH_BATCH_MAX_REVS).unwrap()));
    }
    s.compact(3).unwrap();
    assert_eq!(synced.poll(&s, WATCH_BATCH_MAX_REVS), None);
    assert!(synced.is_active());
    assert_eq!(seen.len(), 3);
    // The other watcher was not served since revision 2: it is behind the
    // compaction.
    assert_eq!(
        lagging.poll(&s, WATCH_BATCH_MAX_REVS),
        Some(WatchResponse::Compacted {
            compact_revision: 3
        })
    );
}

#[test]
fn a_catching_up_watcher_gets_batches_of_revisions_as_etcd_event_batch_add() {
    let mut s = MvccStore::new();
    for i in 0..7 {
        s.put("a", i.to_string().as_str(), 1); // 2..=8
        s.put("b", i.to_string().as_str(), 1); // 3..=9
    }
    let mut w = Watcher::new(&s, key("a"), 1);
    let r1 = w.poll(&s, 3).unwrap();
    let revs: Vec<u64> = events(&r1).iter().map(|e| e.0).collect();
    assert_eq!(revs, vec![2, 4, 6]);
    assert_eq!(
        w.min_rev, 8,
        "the next batch starts at the next matching revision"
    );
    let r2 = w.poll(&s, 3).unwrap();
    let revs: Vec<u64> = events(&r2).iter().map(|e| e.0).collect();
    assert_eq!(revs, vec![8, 10, 12]);
    let r3 = w.poll(&s, 3).unwrap();
    let revs: Vec<u64> = events(&r3).iter().map(|e| e.0).collect();
    assert_eq!(revs, vec![14]);
    assert_eq!(w.poll(&s, 3), None);
    assert_eq!(w.min_rev, 16);
}

// proptest is a native dev-dependency.
#[cfg(not(target_arch = "wasm32"))]
mod model {
    //! The store as a list of every write, answered by scanning it.

    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone)]
    enum Op {
        Put(u8, u8),
        Delete(u8),
        /// Compact at the current revision minus this (saturating), or one
        /// beyond it when the offset is 255.
        Compact(u16),
        /// Replace the store by its restored image.
        Restore,
        /// Start a watcher on key K (or every key) from the current revision
        /// minus this offset.
        Watch(Option<u8>, u16),
    }

    /// Operations whose revision offsets reach `span` back.
    fn op(span: u16) -> impl Strategy<Value = Op> {
        prop_oneof![
            6 => (0u8..4, any::<u8>()).prop_map(|(k, v)| Op::Put(k, v)),
            2 => (0u8..4).prop_map(Op::Delete),
            1 => prop_oneof![0..span, Just(FUTURE)].prop_map(Op::Compact),
            1 => Just(Op::Restore),
            1 => (proptest::option::of(0u8..4), 0..span).prop_map(|(k, o)| Op::Watch(k, o)),
        ]
    }

    /// A compaction offset that means one beyond the current revision.
    const FUTURE: u16 = u16::MAX;

    #[derive(Default)]
    struct Model {
        /// (revision, key, value or None for a delete), in order.
        writes: Vec<(u64, String, Option<String>)>,
        compact: Option<u64>,
    }

    impl Model {
        fn rev(&self) -> u64 {
            self.writes.last().map_or(1, |w| w.0)
        }

        /// (value, create, mod, version) of `k` at `rev`, by scanning.
        fn at(&self, k: &str, rev: u64) -> Option<(String, u64, u64, u64)> {
            let mut cur: Option<(String, u64, u64, u64)> = None;
            for (r, key, v) in self.writes.iter().filter(|w| w.0 <= rev && w.1 == k) {
                let _ = key;
                cur = v.as_ref().map(|v| match &cur {
                    Some((_, c, _, ver)) => (v.clone(), *c, *r, ver + 1),
                    None => (v.clone(), *r, *r, 1),
                });
            }
            cur
        }

        fn read(&self, k: &str, rev: u64) -> Result<Option<(String, u64, u64, u64)>, MvccError> {
            if rev > self.rev() {
                return Err(MvccError::FutureRev);
            }
            let rev = if rev == 0 { self.rev() } else { rev };
            if self.compact.is_some_and(|c| rev < c) {
                return Err(MvccError::Compacted);
            }
            Ok(self.at(k, rev))
        }

        fn events_from(
            &self,
            from: u64,
            filter: &Option<String>,
        ) -> Vec<(u64, EventType, String, String)> {
            self.writes
                .iter()
                .filter(|w| w.0 >= from && filter.as_ref().is_none_or(|k| *k == w.1))
                .map(|(r, k, v)| match v {
                    Some(v) => (*r, EventType::Put, k.clone(), v.clone()),
                    None => (*r, EventType::Delete, k.clone(), String::new()),
                })
                .collect()
        }
    }

    struct Watch {
        filter: Option<String>,
        watcher: Watcher,
        /// The first revision it should report (etcd's first `minRev`).
        from: u64,
        /// The compaction when it was made.
        compact_then: Option<u64>,
        seen: Vec<(u64, EventType, String, String)>,
        compacted: bool,
        /// Polled after every operation (synced) or only at the end (lagging).
        synced: bool,
    }

    impl Watch {
        fn take(&mut self, responses: Vec<WatchResponse>) {
            for r in responses {
                match r {
                    WatchResponse::Events { .. } => self.seen.extend(events(&r)),
                    WatchResponse::Compacted { .. } => self.compacted = true,
                }
            }
        }
    }

    fn k(i: u8) -> String {
        format!("k{i}")
    }

    fn check(s: &MvccStore, m: &Model) -> Result<(), TestCaseError> {
        prop_assert_eq!(s.rev(), m.rev());
        prop_assert_eq!(s.compact_revision(), m.compact);
        for rev in 0..=m.rev() + 1 {
            for i in 0..4 {
                prop_assert_eq!(at(s, &k(i), rev), m.read(&k(i), rev), "{} at {}", k(i), rev);
            }
        }
        // Live bytes: one unit-sized value per live key.
        let live = (0..4).filter(|i| m.at(&k(*i), m.rev()).is_some()).count() as u64;
        prop_assert_eq!(s.bytes(), live * (KEY_OVERHEAD_BYTES + 1));
        prop_assert_eq!(s.len() as u64, live);
        Ok(())
    }

    fn run(ops: &[Op], check_every: usize) -> Result<(), TestCaseError> {
        let mut s = MvccStore::new();
        let mut m = Model::default();
        let mut watches: Vec<Watch> = Vec::new();
        for (n, op) in ops.iter().enumerate() {
            match op {
                Op::Put(i, v) => {
                    let rev = s.put(&k(*i), v.to_string().as_str(), 1);
                    m.writes.push((m.rev() + 1, k(*i), Some(v.to_string())));
                    prop_assert_eq!(rev, m.rev());
                }
                Op::Delete(i) => {
                    let existed = m.at(&k(*i), m.rev()).is_some();
                    let d = s.delete(&k(*i));
                    if existed {
                        m.writes.push((m.rev() + 1, k(*i), None));
                    }
                    prop_assert_eq!(d.deleted, u64::from(existed));
                    prop_assert_eq!(d.rev, m.rev());
                }
                Op::Compact(off) => {
                    let rev = if *off == FUTURE {
                        m.rev() + 1
                    } else {
                        m.rev().saturating_sub(u64::from(*off))
                    };
                    let want = if m.compact.is_some_and(|c| rev <= c) {
                        Err(MvccError::Compacted)
                    } else if rev > m.rev() {
                        Err(MvccError::FutureRev)
                    } else {
                        m.compact = Some(rev);
                        Ok(())
                    };
                    prop_assert_eq!(s.compact(rev), want);
                }
                Op::Restore => {
                    let r = MvccStore::restore(&s.image());
                    prop_assert_eq!(r.history_bytes(), s.history_bytes());
                    s = r;
                }
                Op::Watch(key, off) => {
                    let filter = key.map(k);
                    let range = filter
                        .clone()
                        .map_or(KeyRange::Prefix(String::new()), KeyRange::Key);
                    let start = m.rev().saturating_sub(u64::from(*off));
                    let from = if start == 0 { m.rev() + 1 } else { start };
                    watches.push(Watch {
                        filter,
                        watcher: Watcher::new(&s, range, start),
                        from,
                        compact_then: m.compact,
                        seen: Vec::new(),
                        compacted: false,
                        synced: n % 2 == 0,
                    });
                }
            }
            for w in watches.iter_mut().filter(|w| w.synced) {
                let r = w.watcher.poll_all(&s);
                w.take(r);
            }
            if n % check_every == 0 || n + 1 == ops.len() {
                check(&s, &m)?;
            }
        }
        for w in watches.iter_mut() {
            let r = w.watcher.poll_all(&s);
            w.take(r);
            // A synced watcher can only be behind a compaction made
            // before it; a lagging one, behind any compaction.
            let behind = if w.synced { w.compact_then } else { m.compact };
            prop_assert_eq!(w.compacted, behind.is_some_and(|c| w.from < c));
            if !w.compacted {
                prop_assert_eq!(&w.seen, &m.events_from(w.from, &w.filter));
            } else if w.synced {
                prop_assert!(w.seen.is_empty());
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn the_store_answers_as_the_list_of_its_writes(ops in proptest::collection::vec(op(8), 1..60)) {
            run(&ops, 1)?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

        /// Long histories: the records cross the backend's chunk edges and
        /// compactions cut through them.
        #[test]
        fn long_histories_answer_as_the_list_of_their_writes(ops in proptest::collection::vec(op(400), 600..1200)) {
            run(&ops, 97)?;
        }
    }
}
