//! Several independent etcd clusters in one run, and the mirror processes
//! (etcdctl `make-mirror`, `mirror.rs`) that copy keys between them.
//!
//! Each cluster keeps its own world (its own seeded generator, network,
//! invariant checker and watches): no Raft message ever crosses between
//! clusters. The fleet steps them on one clock: the earliest next action of
//! any cluster runs first, ties going to the cluster added first, and the
//! other clusters' clocks move to that moment with it. After every step the
//! mirror processes do what they can (read answers, send the next write).

use crate::collections::heap::Meter;
use crate::collections::vecmap::{reorder, stable_order};
use crate::raft::NodeId;
use crate::sim::{Event, EventKind};

use super::cluster::Cluster;
use super::error::{ErrorCode, ErrorDetail, ServerError};
use super::mirror::Mirror;

/// The name of the first cluster.
pub const MAIN: &str = "main";

/// The clusters of a run, by index (0: the first, `main`), and the mirror
/// processes.
#[derive(Debug, Clone)]
pub struct Fleet {
    clusters: Vec<Cluster>,
    names: Vec<String>,
    mirrors: Vec<Mirror>,
    /// Mirror events not yet taken.
    events: Vec<Event>,
}

impl Fleet {
    pub fn new(main: Cluster) -> Fleet {
        Fleet {
            clusters: vec![main],
            names: vec![MAIN.to_string()],
            mirrors: Vec::new(),
            events: Vec::new(),
        }
    }

    pub fn main(&self) -> &Cluster {
        &self.clusters[0]
    }

    pub fn main_mut(&mut self) -> &mut Cluster {
        &mut self.clusters[0]
    }

    pub fn clusters(&self) -> &[Cluster] {
        &self.clusters
    }

    pub fn len(&self) -> usize {
        self.clusters.len()
    }

    pub fn is_empty(&self) -> bool {
        self.clusters.is_empty()
    }

    /// Cluster `i` (0: the first). Panics on an index out of range: the
    /// indexes come from [`Fleet::cluster_of`] and [`Fleet::index_of`].
    pub fn cluster(&self, i: usize) -> &Cluster {
        &self.clusters[i]
    }

    pub fn cluster_mut(&mut self, i: usize) -> &mut Cluster {
        &mut self.clusters[i]
    }

    pub fn name(&self, i: usize) -> &str {
        &self.names[i]
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The index of the cluster named `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    pub fn mirrors(&self) -> &[Mirror] {
        &self.mirrors
    }

    pub fn mirror(&self, id: NodeId) -> Option<&Mirror> {
        self.mirrors.iter().find(|m| m.id == id)
    }

    /// The cluster that knows node `id` (a member, or a node added to it).
    pub fn cluster_of(&self, id: NodeId) -> Option<usize> {
        self.clusters
            .iter()
            .position(|c| c.known_ids().contains(&id))
    }

    /// Whether `id` is a mirror process.
    pub fn is_mirror(&self, id: NodeId) -> bool {
        self.mirrors.iter().any(|m| m.id == id)
    }

    /// Refuses an id some cluster or mirror already uses.
    pub fn check_free(&self, id: NodeId) -> Result<(), ServerError> {
        if let Some(i) = self.cluster_of(id) {
            return Err(ServerError::new(
                ErrorCode::IdExists,
                ErrorDetail::IdInCluster {
                    id,
                    cluster: self.names[i].clone(),
                },
            ));
        }
        if self.is_mirror(id) {
            return Err(ServerError::new(
                ErrorCode::IdExists,
                ErrorDetail::MirrorExists { id },
            ));
        }
        Ok(())
    }

    /// Adds an independent cluster named `name` (ids disjoint from every
    /// other cluster's and mirror's, the name unused), its clock at the
    /// fleet's time (its world made to start now: `WorldConfig::start_ms`).
    pub fn add_cluster(&mut self, name: &str, cluster: Cluster) -> Result<(), ServerError> {
        if self.index_of(name).is_some() {
            return Err(ServerError::new(
                ErrorCode::IdExists,
                ErrorDetail::ClusterNameTaken {
                    name: name.to_string(),
                },
            ));
        }
        for id in cluster.known_ids().iter() {
            self.check_free(*id)?;
        }
        self.clusters.push(cluster);
        self.names.push(name.to_string());
        Ok(())
    }

    pub fn now(&self) -> u64 {
        self.clusters.iter().map(Cluster::now).max().unwrap_or(0)
    }

    // ---- time --------------------------------------------------------------

    /// The earliest next action of any cluster, and the first cluster with
    /// one then.
    fn next(&self) -> Option<(u64, usize)> {
        self.clusters
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.next_time().map(|t| (t, i)))
            .min()
    }

    /// Does the next thing of any cluster if it happens no later than
    /// `limit`. Returns false (and leaves the clocks) when nothing is due by
    /// then.
    pub fn step(&mut self, limit: u64) -> bool {
        // One cluster and no mirror: the cluster steps as it always did.
        if self.clusters.len() == 1 && self.mirrors.is_empty() {
            return self.clusters[0].step(limit);
        }
        let Some((t, i)) = self.next().filter(|&(t, _)| t <= limit) else {
            return false;
        };
        for c in &mut self.clusters {
            c.advance_clock(t);
        }
        self.clusters[i].step(limit);
        self.pump();
        true
    }

    /// Advances every cluster to `t`, running everything due on the way.
    pub fn run_until(&mut self, t: u64) {
        while self.step(t) {}
        self.settle(t);
    }

    /// Sets every clock to `t` once `step(t)` has nothing left to do.
    pub fn settle(&mut self, t: u64) {
        for c in &mut self.clusters {
            c.settle(t);
        }
        self.pump();
    }

    /// Runs until `request` of cluster `i` finishes.
    pub fn finish(
        &mut self,
        i: usize,
        request: super::request::RequestId,
    ) -> super::request::Outcome {
        while self.clusters[i].is_pending(request) {
            if !self.step(u64::MAX) {
                break;
            }
        }
        self.clusters[i].take_outcome(request)
    }

    /// Whether [`Fleet::take_events_into`] may find something: events wait
    /// in a cluster or here, or a mirror runs (its pump may make some).
    pub fn has_events(&self) -> bool {
        !self.events.is_empty()
            || !self.mirrors.is_empty()
            || self.clusters.iter().any(Cluster::has_events)
    }

    /// Every cluster's events since the last call, then the mirrors', in
    /// time order, into `all`, which must be empty: its room and the
    /// clusters' serve again (the session takes the events after every step
    /// of a `wait`). The events a mirror's own watch receives are left out:
    /// the mirror's relays tell them.
    pub fn take_events_into(&mut self, all: &mut Vec<Event>) {
        debug_assert!(all.is_empty());
        self.pump();
        for (i, c) in self.clusters.iter_mut().enumerate() {
            let start = all.len();
            c.take_events_into(all);
            let mirrors = &self.mirrors;
            if mirrors.is_empty() {
                continue;
            }
            let mirrored = |watch: u64| {
                mirrors
                    .iter()
                    .any(|m| m.source == i && m.watches.contains(&watch))
            };
            let mut at = 0;
            all.retain(|e| {
                at += 1;
                at <= start
                    || !matches!(e.kind, EventKind::WatchEvents { watch, .. } if mirrored(watch))
            });
        }
        all.append(&mut self.events);
        if self.clusters.len() > 1 || !self.mirrors.is_empty() {
            // Stable, through the module's one merge sort (`sort_by_key`
            // would compile another for `Event`).
            let order = stable_order(all.len(), &|a, b| all[a].time_ms < all[b].time_ms);
            reorder(all, &order);
        }
    }

    // ---- mirrors -------------------------------------------------------------

    /// `mirror start M from=N to=D [prefix=P]`: process `id` (in no cluster)
    /// mirrors `from`'s cluster into `to`'s, another one.
    pub fn mirror_start(
        &mut self,
        id: NodeId,
        from: NodeId,
        to: NodeId,
        prefix: Option<String>,
    ) -> Result<(), ServerError> {
        self.check_free(id)?;
        let source = self.known(from)?;
        let dest = self.known(to)?;
        if source == dest {
            return Err(ServerError::new(
                ErrorCode::MemberNotFound,
                ErrorDetail::MirrorSameCluster {
                    from,
                    to,
                    cluster: self.names[source].clone(),
                },
            ));
        }
        self.mirrors
            .push(Mirror::new(id, (source, from), (dest, to), prefix));
        self.pump();
        Ok(())
    }

    /// `mirror stop M`.
    pub fn mirror_stop(&mut self, id: NodeId) -> Result<(), ServerError> {
        let Some(i) = self.mirrors.iter().position(|m| m.id == id) else {
            return Err(ServerError::new(
                ErrorCode::MemberNotFound,
                ErrorDetail::NoSuchMirror { id },
            ));
        };
        if self.mirrors[i].is_running() {
            let source = self.mirrors[i].source;
            let m = &mut self.mirrors[i];
            m.stop(&mut self.clusters[source]);
        }
        self.pump();
        Ok(())
    }

    /// The cluster of node `id`, or `member-not-found`.
    pub fn known(&self, id: NodeId) -> Result<usize, ServerError> {
        self.cluster_of(id).ok_or_else(|| {
            ServerError::new(ErrorCode::MemberNotFound, ErrorDetail::NoSuchNode { id })
        })
    }

    /// Whether `a`–`b` is a mirror's link (one of them a mirror, the other
    /// one of its two members).
    pub fn is_mirror_link(&self, a: NodeId, b: NodeId) -> bool {
        self.mirrors.iter().any(|m| {
            (m.id == a && (b == m.from || b == m.to)) || (m.id == b && (a == m.from || a == m.to))
        })
    }

    /// Whether messages from `a` to `b` are cut off: on a mirror's link, or
    /// in the cluster of `a` (the first when no cluster knows it).
    pub fn is_cut(&self, a: NodeId, b: NodeId) -> bool {
        if let Some(m) = self.mirrors.iter().find(|m| {
            (m.id == a && (b == m.from || b == m.to)) || (m.id == b && (a == m.from || a == m.to))
        }) {
            return m.is_cut(a, b);
        }
        self.clusters[self.cluster_of(a).unwrap_or(0)].is_cut(a, b)
    }

    /// Cuts or heals the direction `a` to `b` of a mirror's link.
    pub fn set_mirror_link(&mut self, a: NodeId, b: NodeId, cut: bool) {
        for m in &mut self.mirrors {
            if m.id == a || m.id == b {
                let peer = if m.id == a { b } else { a };
                if peer == m.from || peer == m.to {
                    m.set_link(a, b, cut);
                }
            }
        }
        self.pump();
    }

    /// Heals every mirror link.
    pub fn heal_mirror_links(&mut self) {
        for m in &mut self.mirrors {
            m.heal_all();
        }
        self.pump();
    }

    /// Lets every running mirror do what it can now, and collects its events.
    pub fn pump(&mut self) {
        let time_ms = self.now();
        for k in 0..self.mirrors.len() {
            let (s, d) = (self.mirrors[k].source, self.mirrors[k].destination);
            let m = &mut self.mirrors[k];
            if m.is_running() && s != d {
                let (source, dest) = two_mut(&mut self.clusters, s, d);
                m.pump(source, dest);
            }
            if !m.events.is_empty() {
                for e in m.events.drain(..) {
                    self.events.push(Event {
                        time_ms,
                        kind: EventKind::Mirror(e),
                    });
                }
            }
        }
    }

    /// Counts what the fleet holds.
    pub fn heap_size(&self, m: &mut Meter) {
        for c in &self.clusters {
            c.heap_size(m);
        }
        m.vec(&self.mirrors);
        for mirror in &self.mirrors {
            mirror.heap_size(m);
        }
        m.vec(&self.events);
    }
}

/// Two distinct elements of a slice, both mutable.
fn two_mut<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    if a < b {
        let (lo, hi) = v.split_at_mut(b);
        (&mut lo[a], &mut hi[0])
    } else {
        let (lo, hi) = v.split_at_mut(a);
        (&mut hi[0], &mut lo[b])
    }
}
