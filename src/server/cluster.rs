//! The cluster as etcd's clients see it: requests go to a member, wait for
//! their answer in simulated time, and time out as etcd's do.

use std::collections::{BTreeMap, BTreeSet};

use crate::raft::{NodeId, RaftEvent, StateRole, NONE};
use crate::sim::{Event, EventKind, World, WorldConfig};

use super::error::{ErrorCode, ServerError};
use super::load::Load;

/// Settings of the server layer (etcd flags).
#[derive(Debug, Clone, PartialEq)]
pub struct ServerConfig {
    /// etcd `--strict-reconfig-check`.
    pub strict_reconfig: bool,
    /// How long a peer must have been connected to count as active in the
    /// reconfiguration checks (etcd's HealthInterval).
    pub health_interval_ms: u64,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            strict_reconfig: true,
            health_interval_ms: 5_000,
        }
    }
}

pub type RequestId = u64;

/// What a finished request returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A write took effect at this log index.
    Put {
        index: u64,
    },
    /// A read's value (`None`: no such key).
    Read {
        value: Option<String>,
    },
    /// A membership change or a leader move took effect.
    Done,
    Failed(ServerError),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Waiting {
    /// A write applied on `via`.
    Put { via: NodeId },
    /// A linearizable read served on `via`.
    Read { via: NodeId },
    /// A membership change applied on `via`.
    Member { via: NodeId },
    /// Leadership reaching `to`.
    Leader { to: NodeId },
}

#[derive(Debug, Clone)]
pub(crate) struct Pending {
    pub waiting: Waiting,
    pub deadline: u64,
    /// Why it can no longer succeed, said when it times out.
    pub note: Option<String>,
    /// Background load: nobody reads its outcome.
    pub quiet: bool,
}

/// The etcd cluster: the world plus what etcd's API adds.
#[derive(Debug, Clone)]
pub struct Cluster {
    pub(crate) world: World,
    pub(crate) cfg: ServerConfig,
    next_request: RequestId,
    pub(crate) pending: BTreeMap<RequestId, Pending>,
    /// The pending requests by deadline, soonest first.
    deadlines: BTreeSet<(u64, RequestId)>,
    finished: Vec<(RequestId, Outcome)>,
    pub(crate) load: Option<Load>,
    /// World events since the last `take_events`, for narration.
    events: Vec<Event>,
}

impl Cluster {
    pub fn new(world_cfg: WorldConfig, cfg: ServerConfig, voters: &[NodeId]) -> Cluster {
        let mut cluster = Cluster {
            world: World::new(world_cfg, voters),
            cfg,
            next_request: 1,
            pending: BTreeMap::new(),
            deadlines: BTreeSet::new(),
            finished: Vec::new(),
            load: None,
            events: Vec::new(),
        };
        cluster.absorb();
        cluster
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    /// Direct access to the world for faults that bypass the API (links,
    /// crashes).
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    pub fn config(&self) -> &ServerConfig {
        &self.cfg
    }

    pub fn now(&self) -> u64 {
        self.world.now()
    }

    /// World events since the last call, in order.
    pub fn take_events(&mut self) -> Vec<Event> {
        self.absorb();
        std::mem::take(&mut self.events)
    }

    /// Requests that finished since the last call (those started with
    /// `nowait`, and any other the caller stopped waiting for).
    pub fn take_finished(&mut self) -> Vec<(RequestId, Outcome)> {
        std::mem::take(&mut self.finished)
    }

    pub(crate) fn new_request(&mut self) -> RequestId {
        let id = self.next_request;
        self.next_request += 1;
        id
    }

    pub(crate) fn wait_for(&mut self, request: RequestId, waiting: Waiting, timeout_ms: u64) {
        let deadline = self.now().saturating_add(timeout_ms);
        self.deadlines.insert((deadline, request));
        self.pending.insert(
            request,
            Pending {
                waiting: waiting.clone(),
                deadline,
                note: None,
                quiet: false,
            },
        );
        // The answer may already be in the world's events (a one-node cluster
        // commits as it proposes).
        self.absorb();
        // A leader move may find its node leading already.
        if let Waiting::Leader { to } = waiting {
            if self
                .world
                .raft(to)
                .is_some_and(|r| r.role() == StateRole::Leader)
            {
                self.leader_arrived(to);
            }
        }
    }

    // ---- targets -------------------------------------------------------------

    /// The leader, as the scenario language defines it.
    pub fn leader(&self) -> Option<NodeId> {
        self.world.leader()
    }

    /// The running voters, lowest first (by each node's own configuration).
    pub fn running_voters(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.world
            .nodes()
            .filter(|n| n.raft.as_ref().is_some_and(|r| r.tracker().is_voter(n.id)))
            .map(|n| n.id)
    }

    /// Where a request goes: `via` if named (it must be running), else the
    /// leader, else the lowest running voter.
    pub fn target(&self, via: Option<NodeId>) -> Result<NodeId, ServerError> {
        match via {
            Some(id) => {
                if self.world.raft(id).is_some() {
                    Ok(id)
                } else if self.world.node(id).is_some_and(|n| n.removed) {
                    Err(ServerError::new(
                        ErrorCode::IdRemoved,
                        format!(
                            "member {id} was removed from the cluster; its process has stopped"
                        ),
                    ))
                } else {
                    Err(ServerError::new(
                        ErrorCode::NotStarted,
                        format!("member {id}'s process is not running"),
                    ))
                }
            }
            None => self
                .leader()
                .or_else(|| self.running_voters().next())
                .ok_or_else(|| {
                    ServerError::new(
                        ErrorCode::NoLeader,
                        "no member is running: etcdserver: no leader",
                    )
                }),
        }
    }

    /// The leader `via` knows of, or `no-leader` (etcd answers a request
    /// with ErrNoLeader when its member knows no leader).
    pub(crate) fn known_leader(&self, via: NodeId) -> Result<NodeId, ServerError> {
        let lead = self.world.raft(via).map_or(NONE, |r| r.leader_id());
        if lead == NONE {
            Err(ServerError::no_leader(via))
        } else {
            Ok(lead)
        }
    }

    // ---- time --------------------------------------------------------------

    /// The time of the next thing that will happen: a world action, a load
    /// write, or a request deadline.
    fn next_time(&self) -> Option<u64> {
        let deadline = self.deadlines.first().map(|(t, _)| *t);
        let load = self.load.as_ref().map(Load::next_ms);
        [self.world.next_time(), deadline, load]
            .into_iter()
            .flatten()
            .min()
    }

    /// Does the next thing if it happens no later than `limit`. Returns
    /// false (and leaves the clock) when nothing is due by then.
    pub fn step(&mut self, limit: u64) -> bool {
        let Some(next) = self.next_time().filter(|&t| t <= limit) else {
            return false;
        };
        if self.load.as_ref().is_some_and(|l| l.next_ms() == next) {
            self.world.run_until(next);
            self.absorb();
            self.issue_load();
        } else if self.world.next_time() == Some(next) {
            self.world.step();
        } else {
            self.world.run_until(next);
        }
        self.absorb();
        self.expire();
        true
    }

    /// Advances simulated time to `t`, running everything due on the way.
    pub fn run_until(&mut self, t: u64) {
        while self.step(t) {}
        self.world.run_until(t);
        self.absorb();
        self.expire();
    }

    /// Runs until `request` finishes (it always does: it has a deadline).
    pub fn finish(&mut self, request: RequestId) -> Outcome {
        while self.pending.contains_key(&request) {
            if !self.step(u64::MAX) {
                break;
            }
        }
        match self.finished.iter().position(|(r, _)| *r == request) {
            Some(i) => self.finished.remove(i).1,
            None => Outcome::Failed(ServerError::new(
                ErrorCode::Timeout,
                ErrorCode::Timeout.etcd_text(),
            )),
        }
    }

    fn complete(&mut self, request: RequestId, outcome: Outcome) {
        if let Some(p) = self.pending.remove(&request) {
            self.deadlines.remove(&(p.deadline, request));
            if !p.quiet {
                self.finished.push((request, outcome));
            }
        }
    }

    // ---- background load -----------------------------------------------------

    /// Starts (or replaces) a steady write load of `rate_per_s` writes a second.
    pub fn start_load(&mut self, rate_per_s: u64, size: u64, via: Option<NodeId>) {
        self.load = Some(Load::new(self.now(), rate_per_s, size, via));
    }

    /// Stops the load; returns it, with its counts, if one ran.
    pub fn stop_load(&mut self) -> Option<Load> {
        self.load.take()
    }

    fn issue_load(&mut self) {
        let Some(load) = self.load.as_mut() else {
            return;
        };
        let (key, value) = load.next_write();
        let (size, via) = (load.size, load.via);
        match self.start_put(&key, &value, via, Some(size), 5_000) {
            Ok(request) => {
                if let Some(p) = self.pending.get_mut(&request) {
                    p.quiet = true;
                } else {
                    self.finished.retain(|(r, _)| *r != request);
                }
            }
            Err(_) => {
                if let Some(load) = self.load.as_mut() {
                    load.refused += 1;
                }
            }
        }
    }

    fn expire(&mut self) {
        let now = self.now();
        let expired: Vec<(RequestId, Option<String>, Waiting)> = self
            .deadlines
            .iter()
            .take_while(|(deadline, _)| *deadline <= now)
            .filter_map(|(_, r)| {
                self.pending
                    .get(r)
                    .map(|p| (*r, p.note.clone(), p.waiting.clone()))
            })
            .collect();
        for (request, note, waiting) in expired {
            let what = match waiting {
                Waiting::Leader { to } => format!("leadership did not move to {to} in time"),
                _ => ErrorCode::Timeout.etcd_text().to_string(),
            };
            let detail = match note {
                Some(n) => format!("{what} ({n})"),
                None => what,
            };
            self.complete(
                request,
                Outcome::Failed(ServerError::new(ErrorCode::Timeout, detail)),
            );
        }
    }

    /// Reads the world's new events: they finish requests and feed the narration.
    fn absorb(&mut self) {
        let events = self.world.take_events();
        for e in &events {
            self.observe(e);
        }
        self.events.extend(events);
    }

    /// Finishes every leader move waiting for `node` to lead.
    fn leader_arrived(&mut self, node: NodeId) {
        let done: Vec<RequestId> = self
            .pending
            .iter()
            .filter(|(_, p)| p.waiting == Waiting::Leader { to: node })
            .map(|(r, _)| *r)
            .collect();
        for request in done {
            self.complete(request, Outcome::Done);
        }
    }

    fn waits(&self, request: RequestId, expected: &Waiting) -> bool {
        self.pending
            .get(&request)
            .is_some_and(|p| p.waiting == *expected)
    }

    /// Finishes the request an event answers, if one waits for it.
    fn observe(&mut self, e: &Event) {
        let (request, expected, outcome) = match &e.kind {
            EventKind::PutApplied {
                node,
                index,
                request,
            } => (
                *request,
                Waiting::Put { via: *node },
                Outcome::Put { index: *index },
            ),
            EventKind::ReadServed {
                node,
                request,
                value,
            } => (
                *request,
                Waiting::Read { via: *node },
                Outcome::Read {
                    value: value.clone(),
                },
            ),
            EventKind::ConfChangeApplied {
                node,
                change,
                refused,
                ..
            } => {
                let outcome = match refused {
                    None => Outcome::Done,
                    Some(err) => {
                        Outcome::Failed(ServerError::new(ErrorCode::from(*err), err.etcd_text()))
                    }
                };
                (change.request, Waiting::Member { via: *node }, outcome)
            }
            EventKind::JointChangeApplied {
                node,
                change,
                refused,
                ..
            } => {
                let outcome = match refused {
                    None => Outcome::Done,
                    Some(err) => {
                        Outcome::Failed(ServerError::new(ErrorCode::from(*err), err.etcd_text()))
                    }
                };
                (change.request, Waiting::Member { via: *node }, outcome)
            }
            EventKind::Raft {
                node,
                event: RaftEvent::BecameLeader { .. },
            } => {
                self.leader_arrived(*node);
                return;
            }
            EventKind::Raft {
                event: RaftEvent::ConfChangeRefused { request, reason },
                ..
            } => {
                // Raft turned the change into an empty entry: etcd's client
                // waits until its deadline. Say why when it times out.
                if let Some(p) = self.pending.get_mut(request) {
                    p.note = Some(format!("raft refused the change: {reason}"));
                }
                return;
            }
            _ => return,
        };
        if self.waits(request, &expected) {
            self.complete(request, outcome);
        }
    }

    // ---- membership views ----------------------------------------------------

    /// The member whose view of the cluster the report shows: the leader,
    /// else the running member with the highest term, else any member.
    pub fn authority(&self) -> Option<NodeId> {
        self.leader().or_else(|| {
            self.world
                .nodes()
                .filter_map(|n| n.raft.as_ref())
                .max_by_key(|r| (r.term(), std::cmp::Reverse(r.id())))
                .map(|r| r.id())
        })
    }

    /// Every id the cluster knows of: processes that ever ran, and members
    /// in the authority's view (added but never started).
    pub fn known_ids(&self) -> BTreeSet<NodeId> {
        let mut ids: BTreeSet<NodeId> = self.world.nodes().map(|n| n.id).collect();
        if let Some(a) = self.authority().and_then(|a| self.world.node(a)) {
            ids.extend(a.state.members.keys().copied());
        }
        ids
    }
}
