//! Watching a run's client results as commands run: which writes were
//! acknowledged (and at what index), and whether each linearizable read saw
//! the writes acknowledged before it was sent.

use std::collections::BTreeMap;

use crate::lang::ast::Command;
use crate::lang::parse::parse_command;
use crate::raft::NodeId;
use crate::server::ReadMode;
use crate::session::exec::Session;

use super::verdict::{Failure, FailureKind};

/// A client write acknowledged with its index.
#[derive(Debug, Clone)]
pub struct Ack {
    pub key: String,
    pub value: String,
    pub index: u64,
    pub line: usize,
}

/// Watches a session's results as commands run: acknowledged writes, and
/// linearizable reads checked against the writes acknowledged before them.
#[derive(Debug, Default, Clone)]
pub struct Tracker {
    /// Results seen so far.
    seen: usize,
    /// `put ... nowait` results still pending: (result index, key, value).
    pending: Vec<(usize, String, String)>,
    pub acks: Vec<Ack>,
    /// key -> value -> highest acknowledged index of a write of that value.
    written: BTreeMap<String, BTreeMap<String, Option<u64>>>,
    pub failures: Vec<Failure>,
}

impl Tracker {
    /// Looks at the results of the command just run, and at writes that
    /// finished meanwhile.
    pub fn observe(&mut self, session: &Session) {
        let results = session.results();
        // New results first: a read is judged against the writes
        // acknowledged before it was sent.
        let mut new_puts = Vec::new();
        // Only the first cluster's requests are tracked.
        let elsewhere = |via: Option<NodeId>| {
            via.and_then(|v| session.fleet().cluster_of(v))
                .is_some_and(|k| k != 0)
        };
        for (i, r) in results.iter().enumerate().skip(self.seen) {
            match parse_command(&r.command) {
                Ok(Command::Put { via, .. }) | Ok(Command::Get { via, .. }) if elsewhere(via) => {}
                Ok(Command::Put { key, value, .. }) => {
                    self.written
                        .entry(key.clone())
                        .or_default()
                        .entry(value.clone())
                        .or_insert(None);
                    new_puts.push((i, key, value));
                }
                // A weak read of a read-only learner may be stale by
                // design; a strong one is held to linearizability.
                Ok(Command::Get {
                    key,
                    rev: None | Some(0),
                    serializable: false,
                    via,
                    ..
                }) if r.ok
                    && via.is_none_or(|v| {
                        session.cluster().member_kind(v).read_only != Some(ReadMode::Weak)
                    }) =>
                {
                    if let Some(value) = &r.value {
                        self.check_read(r.line, &key, value.as_deref());
                    }
                }
                _ => {}
            }
        }
        self.seen = results.len();
        self.pending.append(&mut new_puts);
        let mut still = Vec::new();
        for (i, key, value) in std::mem::take(&mut self.pending) {
            let Some(r) = results.get(i) else { continue };
            if r.pending {
                still.push((i, key, value));
                continue;
            }
            if let (true, Some(index)) = (r.ok, r.index) {
                let best = self
                    .written
                    .entry(key.clone())
                    .or_default()
                    .entry(value.clone())
                    .or_insert(None);
                *best = Some(best.map_or(index, |b| b.max(index)));
                self.acks.push(Ack {
                    key,
                    value,
                    index,
                    line: r.line,
                });
            }
        }
        self.pending = still;
    }

    /// The highest index acknowledged for `key` so far, with its line.
    pub fn latest_ack(&self, key: &str) -> Option<&Ack> {
        self.acks
            .iter()
            .filter(|a| a.key == key)
            .max_by_key(|a| a.index)
    }

    /// A value read for `key` must be no older than the latest write of it
    /// acknowledged before the read.
    fn check_read(&mut self, line: usize, key: &str, value: Option<&str>) {
        let Some(latest) = self.latest_ack(key).cloned() else {
            return;
        };
        let fresh = value.is_some_and(|v| self.fresh_enough(key, v, latest.index));
        if !fresh {
            self.failures.push(Failure {
                kind: FailureKind::Linearizability,
                text: format!(
                    "line {line}: a linearizable get of {key} returned {}, but the write of {:?} \
                     at index {} (line {}) was acknowledged before the read",
                    value.map_or("nothing".to_string(), |v| format!("{v:?}")),
                    latest.value,
                    latest.index,
                    latest.line
                ),
            });
        }
    }

    /// Whether `value` for `key` comes from a write that may follow the
    /// acknowledged write at `index`: an unacknowledged write (its index is
    /// unknown) or one acknowledged at `index` or later.
    pub fn fresh_enough(&self, key: &str, value: &str, index: u64) -> bool {
        match self.written.get(key).and_then(|m| m.get(value)) {
            Some(None) => true,
            Some(Some(i)) => *i >= index,
            // Never written by the script: a value from nowhere.
            None => false,
        }
    }
}
