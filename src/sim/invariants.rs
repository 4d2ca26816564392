//! Raft's safety properties, checked by the world after every event.
//! A broken property is recorded with its time, its text and the nodes
//! involved; it never stops the run, so the user can see what follows.

use std::num::NonZeroU64;

use crate::collections::vecmap::VecMap;

use crate::collections::chunked::Chunked;
use crate::collections::heap::Meter;
use crate::raft::{Entry, EntryData, NodeId, Raft, StateRole};
use crate::sim::kv::Request;
use crate::sim::mvcc::{MvccStore, Record};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub time_ms: u64,
    /// The property, as the Raft paper names it.
    pub property: &'static str,
    pub text: String,
    pub nodes: Vec<NodeId>,
}

/// What identifies an entry's content, independent of where it is stored:
/// its term, and a 64-bit digest ([`Digest`]) of its kind and what tells it
/// apart (its request id and size, a member's id...). The checker keeps one
/// per index of the logs, 16 bytes each.
type Fingerprint = (u64, NonZeroU64);

fn fingerprint(e: &Entry) -> Fingerprint {
    let (kind, a, b): (u8, u64, u64) = match &e.data {
        EntryData::Empty => (0, 0, 0),
        EntryData::Normal(data) => match data.get::<Request>() {
            Some(Request::Put(p)) => (1, p.request, p.size),
            Some(Request::Publish(id)) => (3, *id, 0),
            Some(Request::Delete(d)) => (6, d.request, 0),
            Some(Request::Compaction(c)) => (7, c.request, c.rev),
            // Another application's payload: told apart by its size.
            None => (5, 0, data.size()),
        },
        EntryData::ConfChange(c) => (2, c.request, c.node_id),
        EntryData::ConfChangeV2(c) => (4, c.request, c.changes.len() as u64),
    };
    let mut d = Digest::new();
    d.eat(u64::from(kind));
    d.eat(a);
    d.eat(b);
    (e.term, d.finish())
}

/// A 64-bit digest of what the checker compares across members, kept in
/// place of the thing itself: it keeps one for every index and every store
/// revision of the run. A word at a time, as the Rust compiler's own `FxHash`
/// mixes, and the last mix of `splitmix64` at the end. Two different things
/// have the same digest with a chance of about one in 2^64. Deterministic,
/// the same natively and in the page.
struct Digest(u64);

impl Digest {
    fn new() -> Digest {
        Digest(0)
    }

    fn eat(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    /// A text, its length first, so that no two different pairs of texts
    /// run together alike.
    fn eat_str(&mut self, s: &str) {
        self.eat(s.len() as u64);
        let mut words = s.as_bytes().chunks_exact(8);
        for w in &mut words {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            self.eat(u64::from_le_bytes(b));
        }
        let mut b = [0u8; 8];
        b[..words.remainder().len()].copy_from_slice(words.remainder());
        self.eat(u64::from_le_bytes(b));
    }

    fn finish(self) -> NonZeroU64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        NonZeroU64::new(z ^ (z >> 31)).unwrap_or(NonZeroU64::MIN)
    }
}

/// What a store wrote at one revision (key, value, creation, version and
/// whether it was a delete), as a digest: 8 bytes for each revision of the
/// run rather than the write itself (56 bytes, and its texts' shares).
type RevisionPrint = NonZeroU64;

fn revision_print(r: &Record) -> RevisionPrint {
    let mut d = Digest::new();
    d.eat_str(&r.key);
    d.eat_str(&r.value);
    d.eat(r.create_revision);
    d.eat(r.version);
    d.eat(u64::from(r.tombstone));
    d.finish()
}

/// A member's store after applying up to an index: its revision and its
/// compaction revision.
type StorePrint = (u64, Option<u64>);

/// A record per log index (or per store revision) from `base` on, kept in
/// shared chunks so that cloning the checker with the world stays cheap.
#[derive(Debug, Clone)]
struct ByIndex<T = Fingerprint> {
    base: u64,
    items: Chunked<Option<T>>,
}

impl<T> Default for ByIndex<T> {
    fn default() -> Self {
        // Log indexes start at 1.
        ByIndex {
            base: 1,
            items: Chunked::default(),
        }
    }
}

impl<T: Clone> ByIndex<T> {
    fn get(&self, index: u64) -> Option<&T> {
        let pos = usize::try_from(index.checked_sub(self.base)?).ok()?;
        self.items.get(pos)?.as_ref()
    }

    fn set(&mut self, index: u64, fp: T) {
        let Some(pos) = index
            .checked_sub(self.base)
            .and_then(|p| usize::try_from(p).ok())
        else {
            return; // forgotten already
        };
        while self.items.len() <= pos {
            self.items.push(None);
        }
        if let Some(slot) = self.items.get_mut(pos) {
            *slot = Some(fp);
        }
    }

    fn heap_size(&self, m: &mut Meter) {
        self.items.heap_size(m, None);
    }

    fn forget_below(&mut self, index: u64) {
        if index > self.base {
            self.items.drop_front((index - self.base) as usize);
            self.base = index;
        }
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct NodeWatch {
    term: u64,
    commit: u64,
    /// (term, last index) while this node leads in `term`.
    leading: Option<(u64, u64)>,
    /// Entries up to this (index, term) were checked against the others.
    verified: (u64, u64),
}

#[derive(Debug, Clone, Default)]
pub struct Checker {
    nodes: VecMap<NodeId, NodeWatch>,
    /// Who led each term.
    leaders: VecMap<u64, NodeId>,
    /// Content of the first (index, term) seen at each index in any log:
    /// log matching. Its term is the fingerprint's first field.
    seen: ByIndex,
    /// The rarer other terms seen at an index (entries that were replaced).
    seen_other_terms: VecMap<(u64, u64), Fingerprint>,
    /// Content of every committed index: state machine safety.
    committed: ByIndex,
    /// The highest index committed in each term, by the term of the node
    /// that first saw it committed (the leader that committed it: a commit
    /// reaches other nodes only through its messages). Leader completeness
    /// asks a leader for what was committed in the terms before its own.
    committed_in_term: VecMap<u64, u64>,
    /// What the first member to write each store revision wrote there.
    revisions: ByIndex<RevisionPrint>,
    /// Each member's store after applying up to an index, as first seen.
    stores: ByIndex<StorePrint>,
    /// The store revision up to which each member was checked.
    store_checked: VecMap<NodeId, u64>,
    violations: Vec<Violation>,
}

impl Checker {
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// Counts what the checker remembers: a fingerprint per index of the
    /// logs not yet compacted away everywhere, the leader of each term,
    /// and the violations.
    pub fn heap_size(&self, m: &mut Meter) {
        self.nodes.heap_size(m);
        self.leaders.heap_size(m);
        self.seen.heap_size(m);
        self.seen_other_terms.heap_size(m);
        self.committed.heap_size(m);
        self.committed_in_term.heap_size(m);
        self.revisions.heap_size(m);
        self.stores.heap_size(m);
        m.vec(&self.violations);
        for v in &self.violations {
            m.string(&v.text);
            m.vec(&v.nodes);
        }
    }

    fn violate(&mut self, time_ms: u64, property: &'static str, text: String, nodes: Vec<NodeId>) {
        self.violations.push(Violation {
            time_ms,
            property,
            text,
            nodes,
        });
    }

    /// Checks one node after it handled an event.
    pub fn observe(&mut self, now: u64, id: NodeId, raft: &Raft) {
        // NodeWatch is Copy: read once here, written back once at the end.
        let watch = self.nodes.get(&id).copied().unwrap_or_default();
        let term = raft.term();
        let commit = raft.commit();
        let role = raft.role();

        if term < watch.term {
            self.violate(
                now,
                "term monotonicity",
                format!("node {id}'s term went down from {} to {term}", watch.term),
                vec![id],
            );
        }
        if commit < watch.commit {
            self.violate(
                now,
                "commit monotonicity",
                format!(
                    "node {id}'s commit index went down from {} to {commit}",
                    watch.commit
                ),
                vec![id],
            );
        }
        // A leader demoted to learner by a joint change keeps leading (etcd-raft
        // without StepDownOnRemoval, etcd's default): it did not campaign.
        let demoted_leader =
            role == StateRole::Leader && watch.leading.is_some_and(|(t, _)| t == term);
        // The learner test last: it looks the node up in its tracker.
        if role != StateRole::Follower && !demoted_leader && raft.is_learner() {
            self.violate(
                now,
                "learners never campaign",
                format!("learner {id} became {role:?} in term {term}"),
                vec![id],
            );
        }

        let mut leading = None;
        if role == StateRole::Leader {
            match self.leaders.get(&term) {
                Some(&other) if other != id => {
                    self.violate(
                        now,
                        "election safety",
                        format!("nodes {other} and {id} both lead term {term}"),
                        vec![other, id],
                    );
                }
                Some(_) => {}
                None => {
                    self.leaders.insert(term, id);
                    self.check_leader_completeness(now, id, raft);
                }
            }
            let last = raft.last_index();
            if let Some((t, before)) = watch.leading {
                if t == term && last < before {
                    self.violate(now, "leader append-only", format!("leader {id} of term {term} shrank its log from {before} to {last} entries"), vec![id]);
                }
            }
            leading = Some((term, last));
        }

        let verified = self.check_log_matching(now, id, raft, watch.verified, commit);
        self.check_commit(now, id, raft, watch.commit, commit);
        self.nodes.insert(
            id,
            NodeWatch {
                term: term.max(watch.term),
                commit: commit.max(watch.commit),
                leading,
                verified,
            },
        );
    }

    /// A new leader holds every entry committed in the terms before its
    /// own (the Raft paper's Leader Completeness). A leader of an older term
    /// than a commit may still win late, from votes held on the way (etcd-raft
    /// counts a vote answer of its own term whenever it arrives): it lacks
    /// nothing it was promised, and can commit nothing, since a quorum has
    /// moved on to the newer term.
    fn check_leader_completeness(&mut self, now: u64, id: NodeId, raft: &Raft) {
        let term = raft.term();
        let Some(index) = self
            .committed_in_term
            .iter()
            .filter(|&(&t, _)| t < term)
            .map(|(_, &i)| i)
            .max()
        else {
            return;
        };
        if index <= raft.snapshot_index() {
            return;
        }
        let Some(&fp) = self.committed.get(index) else {
            return; // forgotten: every node compacted it away
        };
        if raft.term_at(index) != Some(fp.0) {
            self.violate(
                now,
                "leader completeness",
                format!("node {id} became leader of term {term} without committed entry {index}"),
                vec![id],
            );
        }
    }

    /// Entries with the same index and term hold the same content, in every
    /// log. Only entries not yet checked are compared, so this stays cheap.
    fn check_log_matching(
        &mut self,
        now: u64,
        id: NodeId,
        raft: &Raft,
        verified: (u64, u64),
        commit: u64,
    ) -> (u64, u64) {
        let (mut from, vterm) = verified;
        if from > 0 && raft.term_at(from) != Some(vterm) {
            // The log was truncated or compacted past the checked point.
            from = from.min(commit).min(raft.last_index());
        }
        let start = from.max(raft.snapshot_index()) + 1;
        for e in raft.entries_in(start, u64::MAX) {
            let fp = fingerprint(e);
            match self.seen_at(e.index, e.term) {
                Some(other) if other != fp => {
                    self.violate(
                        now,
                        "log matching",
                        format!("node {id} holds a different entry at index {} term {} than another node", e.index, e.term),
                        vec![id],
                    );
                }
                Some(_) => {}
                None => self.record_seen(e.index, fp),
            }
        }
        let last = raft.last_index();
        (last, raft.term_at(last).unwrap_or(0))
    }

    /// Once committed, an index holds the same entry on every node forever.
    fn check_commit(&mut self, now: u64, id: NodeId, raft: &Raft, before: u64, commit: u64) {
        let from = before.max(raft.snapshot_index()) + 1;
        let mut newest = None;
        for e in raft.entries_in(from, commit.saturating_add(1)) {
            let fp = fingerprint(e);
            match self.committed.get(e.index) {
                Some(other) if *other != fp => {
                    self.violate(
                        now,
                        "state machine safety",
                        format!(
                            "node {id} committed a different entry at index {} than another node",
                            e.index
                        ),
                        vec![id],
                    );
                }
                Some(_) => {}
                None => {
                    self.committed.set(e.index, fp);
                    newest = Some(e.index);
                }
            }
        }
        // Once a call, not once an entry: the indexes only grow.
        if let Some(index) = newest {
            let highest = self.committed_in_term.entry(raft.term()).or_insert(0);
            *highest = (*highest).max(index);
        }
    }

    /// What was seen at `index` in `term`, if anything.
    fn seen_at(&self, index: u64, term: u64) -> Option<Fingerprint> {
        match self.seen.get(index) {
            Some(fp) if fp.0 == term => Some(*fp),
            _ => self.seen_other_terms.get(&(index, term)).copied(),
        }
    }

    fn record_seen(&mut self, index: u64, fp: Fingerprint) {
        if self.seen.get(index).is_none() {
            self.seen.set(index, fp);
        } else {
            self.seen_other_terms.insert((index, fp.0), fp);
        }
    }

    /// Every member's store holds the same at each revision, and the same
    /// revision and compaction after applying the same entries (etcd's
    /// members apply the same log to the same mvcc store). Only revisions
    /// not yet checked are compared; a member whose store went back (a
    /// restart replays its log) is checked again as it replays.
    pub fn observe_store(&mut self, now: u64, id: NodeId, applied: u64, store: &MvccStore) {
        let print = (store.rev(), store.compact_revision());
        match self.stores.get(applied) {
            Some(other) if *other != print => self.violate(
                now,
                "same store at each revision",
                format!(
                    "node {id}'s store is at revision {} (compacted at {:?}) after applying \
                     index {applied}; another member's was at {} (compacted at {:?})",
                    print.0, print.1, other.0, other.1
                ),
                vec![id],
            ),
            Some(_) => {}
            None => self.stores.set(applied, print),
        }
        let checked = self.store_checked.get(&id).copied().unwrap_or(0);
        if checked == store.rev() {
            // Nothing written since the last look (most readies write nothing).
            return;
        }
        let from = checked.min(store.rev()) + 1;
        let mut differ = None;
        for (rev, r) in store.records_from(from) {
            let print = revision_print(r);
            match self.revisions.get(rev) {
                Some(other) if *other != print => {
                    differ.get_or_insert(rev);
                }
                Some(_) => {}
                None => self.revisions.set(rev, print),
            }
        }
        if let Some(rev) = differ {
            self.violate(
                now,
                "same store at each revision",
                format!("node {id}'s store holds a different write at revision {rev} than another member's"),
                vec![id],
            );
        }
        self.store_checked.insert(id, store.rev());
    }

    /// Forgets entries below `index`, which every node has compacted away.
    pub fn forget_below(&mut self, index: u64) {
        self.stores.forget_below(index);
        self.seen.forget_below(index);
        self.seen_other_terms = self.seen_other_terms.split_off(&(index, 0));
        self.committed.forget_below(index);
    }

    /// A node applied `entry`: it must be the entry committed at its index.
    pub fn observe_applied(&mut self, now: u64, id: NodeId, entry: &Entry) {
        let fp = fingerprint(entry);
        match self.committed.get(entry.index) {
            Some(other) if *other != fp => self.violate(
                now,
                "state machine safety",
                format!(
                    "node {id} applied a different entry at index {} than another node",
                    entry.index
                ),
                vec![id],
            ),
            Some(_) => {}
            None => self.committed.set(entry.index, fp),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(writes: &[(&str, &str)]) -> MvccStore {
        let mut s = MvccStore::new();
        for (k, v) in writes {
            s.put(k, *v, 1);
        }
        s
    }

    fn properties(c: &Checker) -> Vec<(&'static str, Vec<NodeId>)> {
        c.violations()
            .iter()
            .map(|v| (v.property, v.nodes.clone()))
            .collect()
    }

    #[test]
    fn members_that_wrote_the_same_revisions_agree() {
        let mut c = Checker::default();
        let a = store(&[("a", "1"), ("b", "2")]);
        c.observe_store(1, 1, 2, &a);
        c.observe_store(2, 2, 2, &a.clone());
        // A member behind, then catching up.
        c.observe_store(3, 3, 1, &store(&[("a", "1")]));
        c.observe_store(4, 3, 2, &a.clone());
        assert!(c.violations().is_empty(), "{:?}", c.violations());
    }

    #[test]
    fn a_different_write_at_a_revision_is_a_violation() {
        let mut c = Checker::default();
        c.observe_store(1, 1, 2, &store(&[("a", "1"), ("b", "2")]));
        c.observe_store(2, 2, 3, &store(&[("a", "1"), ("b", "3")]));
        assert_eq!(
            properties(&c),
            vec![("same store at each revision", vec![2])]
        );
        assert!(c.violations()[0].text.contains("revision 3"));
    }

    #[test]
    fn a_different_revision_after_the_same_entries_is_a_violation() {
        let mut c = Checker::default();
        let mut a = store(&[("a", "1"), ("a", "2")]);
        c.observe_store(1, 1, 5, &a);
        // Node 2 applied the same entries but compacted (or missed a write).
        let mut b = a.clone();
        b.compact(2).unwrap();
        c.observe_store(2, 2, 5, &b);
        assert_eq!(
            properties(&c),
            vec![("same store at each revision", vec![2])]
        );
        a.put("c", "3", 1);
        c.observe_store(3, 1, 6, &a);
        assert_eq!(c.violations().len(), 1);
    }

    #[test]
    fn a_member_that_replays_its_log_is_checked_again() {
        let mut c = Checker::default();
        c.observe_store(1, 1, 2, &store(&[("a", "1"), ("b", "2")]));
        // Node 1 restarts: its store goes back to revision 2, then replays a
        // different write at revision 3.
        c.observe_store(2, 1, 1, &store(&[("a", "1")]));
        c.observe_store(3, 1, 2, &store(&[("a", "1"), ("b", "other")]));
        assert_eq!(
            properties(&c),
            vec![("same store at each revision", vec![1])]
        );
    }
}
