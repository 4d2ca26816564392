//! The cluster as etcd's clients see it: requests go to a member, wait for
//! their answer in simulated time, and time out as etcd's do.
//!
//! A request that reaches a member knowing no leader is not refused: etcd-raft
//! takes no proposal then (`node.run` sets `propc = nil`) and a follower drops
//! a ReadIndex it cannot forward, so the request waits in the server until a
//! leader is known or its context ends (etcdserver `v3_server.go`
//! `processInternalRaftRequestOnce`, `linearizableReadLoop`). Only a client
//! that asks for it (`WithRequireLeader`) is refused at once.

use std::rc::Rc;

use crate::collections::heap::Meter;
use crate::collections::vecmap::{DequeSet, IdMap, VecSet};
use crate::raft::{EntryData, NodeId, ProposeError, RaftEvent, StateRole, NONE};
use crate::sim::kv::{KeyRead, Request};
use crate::sim::{Event, EventKind, ReadOf, Served, World, WorldConfig};

use super::error::{ErrorCode, ErrorDetail, ServerError, Waited};
use super::history::{History, LOAD_CLIENT, SCRIPT_CLIENT};
use super::join_state::Join;
use super::load::Load;
use super::mode_settings::ModesConfig;
use super::mode_state::ModeState;
use super::release::Release;
use super::request::{
    refuse_empty_key, Deferred, Finished, Forwarded, Outcome, Pending, RequestId, Waiting,
    CLIENT_RETRIES_MS, CLIENT_RETRY_MS, CLIENT_TIMEOUT_MS,
};
use crate::collections::vecmap::VecMap;

/// Settings of the server layer (etcd flags).
#[derive(Debug, Clone, PartialEq)]
pub struct ServerConfig {
    /// etcd `--strict-reconfig-check`.
    pub strict_reconfig: bool,
    /// How long a peer must have been connected to count as active in the
    /// reconfiguration checks (etcd's HealthInterval).
    pub health_interval_ms: u64,
    /// The etcd release whose server rules apply.
    pub release: Release,
    /// The design document's modes (`modes.rs`), all off by default.
    pub modes: ModesConfig,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            strict_reconfig: true,
            health_interval_ms: 5_000,
            release: Release::default(),
            modes: ModesConfig::default(),
        }
    }
}

/// etcdctl's `--command-timeout`: how long a client waits for an answer.
/// Parked requests one step sends on at most.
const RELEASE_BATCH: usize = 512;

/// A ReadIndex sent for a linearizable read: etcd's `linearizableReadLoop`
/// (`requestCurrentIndex`) sends it again every 500ms until a leader answers,
/// and starts over when the leader changes (clientv3 retries the Range).
#[derive(Debug, Clone)]
struct ReadIndexSent {
    via: NodeId,
    of: ReadOf,
    /// The leader `via` knew when it was sent.
    leader: NodeId,
    at: u64,
}

/// etcd's `readIndexRetryTime`.
const READ_INDEX_RETRY_MS: u64 = 500;

/// The etcd cluster: the world plus what etcd's API adds.
#[derive(Debug, Clone)]
pub struct Cluster {
    pub(crate) world: World,
    pub(crate) cfg: ServerConfig,
    next_request: RequestId,
    pub(crate) pending: IdMap<Pending>,
    /// The pending requests by deadline, soonest first.
    deadlines: DequeSet<(u64, RequestId)>,
    /// The refused requests the client tries again, by the time of its
    /// next try, soonest first (`retry_refused`).
    retries: DequeSet<(u64, RequestId)>,
    finished: Vec<Finished>,
    pub(crate) load: Option<Load>,
    /// World events since the last `take_events_into`, for narration.
    events: Vec<Event>,
    /// `absorb`'s working vector, empty between calls: its memory serves
    /// every step rather than being allocated anew.
    absorbing: Vec<Event>,
    /// The parked requests that can go on, by the member holding them.
    parked: DequeSet<(NodeId, RequestId)>,
    /// More parked requests could go on than one step sends (see
    /// `release_parked`).
    release_more: bool,
    /// Linearizable reads sent and not yet confirmed by a leader.
    reads: VecMap<RequestId, ReadIndexSent>,
    /// What the modes remember between the leader's looks.
    pub(crate) modes: ModeState,
    /// Every client read and write, for the linearizability checker.
    pub(crate) history: History,
    /// New members' processes talking to their peers before they start
    /// raft (`server::join`).
    pub(crate) joins: Vec<Join>,
}

impl Cluster {
    pub fn new(world_cfg: WorldConfig, cfg: ServerConfig, voters: &[NodeId]) -> Cluster {
        let mut cluster = Cluster {
            world: World::new(world_cfg, voters),
            cfg,
            next_request: 1,
            pending: IdMap::new(),
            deadlines: DequeSet::new(),
            retries: DequeSet::new(),
            finished: Vec::new(),
            load: None,
            events: Vec::new(),
            absorbing: Vec::new(),
            parked: DequeSet::new(),
            release_more: false,
            reads: VecMap::default(),
            modes: ModeState::default(),
            history: History::default(),
            joins: Vec::new(),
        };
        cluster.absorb();
        cluster
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    /// Counts what the cluster holds: the world, the requests waiting (a
    /// steady load keeps up to a client timeout's worth of them), the
    /// answers and events not yet taken.
    pub fn heap_size(&self, m: &mut Meter) {
        self.world.heap_size(m);
        m.vec(&self.joins);
        for j in &self.joins {
            m.vec(&j.peers);
        }
        self.pending.heap_size(m);
        for p in self.pending.values() {
            if let Waiting::Parked { then, .. } = &p.waiting {
                match then {
                    Deferred::Put(put) => {
                        m.shared_str(&put.key);
                        m.shared_str(&put.value);
                    }
                    Deferred::Delete(d) => m.string(&d.key),
                    Deferred::Read(ReadOf::Key { key, .. }) | Deferred::LocalRead { key, .. } => {
                        m.string(key)
                    }
                    Deferred::Read(ReadOf::Members | ReadOf::Downgrade { .. }) => {}
                    Deferred::Change(cc) => cc.context.heap_size(m),
                    Deferred::ChangeV2 { cc, promote } => {
                        m.shared(cc, |m, cc| {
                            m.vec(&cc.changes);
                            cc.context.heap_size(m);
                        });
                        m.vec(promote);
                    }
                    Deferred::Retried { error, then } => {
                        error.heap_size(m);
                        if let Deferred::Read(ReadOf::Key { key, .. }) = &**then {
                            m.string(key);
                        }
                    }
                    Deferred::Compaction(_) | Deferred::Promote { .. } => {}
                }
            }
        }
        self.deadlines.heap_size(m);
        self.retries.heap_size(m);
        m.vec(&self.finished);
        for f in &self.finished {
            match &f.outcome {
                Outcome::Read(KeyRead { value: Some(v), .. }) => m.string(v),
                Outcome::Members(list) => {
                    m.vec(list);
                    for member in list {
                        m.string(&member.peer_url);
                    }
                }
                Outcome::Failed(e) => e.heap_size(m),
                _ => {}
            }
        }
        m.vec(&self.events);
        for e in &self.events {
            e.heap_size(m);
        }
        self.parked.heap_size(m);
        self.reads.heap_size(m);
        for (_, r) in self.reads.iter() {
            if let ReadOf::Key { key, .. } = &r.of {
                m.string(key);
            }
        }
        self.history.heap_size(m);
    }

    /// Direct access to the world for the faults a scenario injects past
    /// etcd's API (links, crashes, campaigns, compactions): the one allowed
    /// shortcut past this layer (docs/architecture.md).
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    pub fn config(&self) -> &ServerConfig {
        &self.cfg
    }

    pub fn now(&self) -> u64 {
        self.world.now()
    }

    /// Whether events wait to be taken (`take_events_into`).
    pub fn has_events(&self) -> bool {
        !self.events.is_empty() || self.world.has_events()
    }

    /// World events since the last call, in order, appended to `out`: the
    /// cluster keeps its vector's room for the next step's events, as the
    /// session, which takes them after every step of a `wait`, keeps `out`'s.
    pub fn take_events_into(&mut self, out: &mut Vec<Event>) {
        self.absorb();
        out.append(&mut self.events);
    }

    /// Whether requests finished since the last `take_finished`.
    pub fn has_finished(&self) -> bool {
        !self.finished.is_empty()
    }

    /// Requests that finished since the last call (those started with
    /// `nowait`, and any other the caller stopped waiting for).
    pub fn take_finished(&mut self) -> Vec<Finished> {
        std::mem::take(&mut self.finished)
    }

    pub(crate) fn new_request(&mut self) -> RequestId {
        let id = self.next_request;
        self.next_request += 1;
        id
    }

    /// etcd's server-side request timeout (`ReqTimeout`): 5s plus two
    /// election timeouts.
    pub fn request_timeout_ms(&self) -> u64 {
        5_000 + 2 * self.world.config().election_timeout_ms
    }

    /// Waits for `waiting` until the client's `timeout_ms` passes, or the
    /// server's request timeout if that comes first and ends such a request
    /// (see [`Waiting::server_timeout_ends_it`]).
    pub(crate) fn wait_for(&mut self, request: RequestId, waiting: Waiting, timeout_ms: u64) {
        let now = self.now();
        let client_deadline = now.saturating_add(timeout_ms);
        let deadline = if waiting.server_timeout_ends_it() {
            client_deadline.min(now.saturating_add(self.request_timeout_ms()))
        } else if let Waiting::Parked {
            then: Deferred::Retried { .. },
            ..
        } = waiting
        {
            self.first_retry(request, client_deadline)
        } else {
            client_deadline
        };
        self.deadlines.insert((deadline, request));
        if let Waiting::Parked { via: Some(via), .. } = waiting {
            self.parked.insert((via, request));
        }
        self.pending.insert(
            request,
            Pending {
                waiting: waiting.clone(),
                deadline,
                client_deadline,
                note: None,
                quiet: false,
                forwarded: None,
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
                        ErrorDetail::Removed { id },
                    ))
                } else {
                    Err(ServerError::new(
                        ErrorCode::NotStarted,
                        ErrorDetail::NotRunning { id },
                    ))
                }
            }
            None => self
                .leader()
                .or_else(|| self.running_voters().next())
                .ok_or_else(|| ServerError::new(ErrorCode::NoLeader, ErrorDetail::NoMemberRunning)),
        }
    }

    /// Where a client request goes: `via` if named, else the leader, else
    /// the lowest running voter; with no member running it goes nowhere and
    /// waits (`None`). A member named whose process is not running (crashed,
    /// never started, removed) still gets it: clientv3 dials the member it
    /// is given and waits for a connection (`WaitForReady`, gRPC's re-dials)
    /// until the client's deadline, and sends it once the member runs
    /// (`send` holds it until then). Checked against etcd 3.4.23 and 3.5.1:
    /// etcdctl fails with "context deadline exceeded" after its 5 s.
    pub(crate) fn route(&self, via: Option<NodeId>) -> Result<Option<NodeId>, ServerError> {
        match via {
            Some(id) => Ok(Some(id)),
            None => Ok(self.leader().or_else(|| self.running_voters().next())),
        }
    }

    /// Whether member `id`'s process runs.
    pub(crate) fn runs(&self, id: NodeId) -> bool {
        self.world.raft(id).is_some()
    }

    /// Whether `via` knows a leader (etcd's `s.Leader() != None`).
    pub(crate) fn knows_leader(&self, via: NodeId) -> bool {
        self.world.raft(via).is_some_and(|r| r.leader_id() != NONE)
    }

    /// A client's `WithRequireLeader`: refused at once with ErrNoLeader when
    /// the member taking the request knows no leader (v3rpc's interceptor).
    pub(crate) fn require_leader(&self, via: Option<NodeId>) -> Result<(), ServerError> {
        match via {
            Some(v) if self.knows_leader(v) => Ok(()),
            Some(v) => Err(ServerError::no_leader(v)),
            None => Err(ServerError::new(
                ErrorCode::NoLeader,
                ErrorDetail::NoMemberRunning,
            )),
        }
    }

    /// Sends a request on through `via` now if `via` knows a leader, or parks
    /// it until then; either way it waits at most `timeout_ms`.
    pub(crate) fn send(
        &mut self,
        request: RequestId,
        via: Option<NodeId>,
        then: Deferred,
        timeout_ms: u64,
    ) {
        self.wait_for(request, Waiting::Parked { via, then }, timeout_ms);
        if self.can_go_on(request) {
            self.go_on(request);
        }
    }

    fn can_go_on(&self, request: RequestId) -> bool {
        let Some(Waiting::Parked {
            via: Some(via),
            then,
        }) = self.pending.get(&request).map(|p| &p.waiting)
        else {
            return false;
        };
        let lead = self.world.raft(*via).map_or(NONE, |r| r.leader_id());
        match then {
            // Answered from the member's own state: it needs only to run.
            Deferred::LocalRead { .. } => self.runs(*via),
            // Tried again on the client's own schedule (`retry_refused`).
            Deferred::Retried { .. } => false,
            // Forwarded to the leader itself, which must take it as leader.
            Deferred::Promote { .. } => self
                .world
                .raft(lead)
                .is_some_and(|r| r.role() == StateRole::Leader),
            _ => lead != NONE,
        }
    }

    /// The parked `request`'s member knows a leader: send it on.
    fn go_on(&mut self, request: RequestId) {
        let Some(Waiting::Parked {
            via: Some(via),
            then,
        }) = self.pending.get(&request).map(|p| p.waiting.clone())
        else {
            return;
        };
        if self.learner_refuses(via, &then) {
            let error = ServerError::new(
                ErrorCode::NotSupportedForLearner,
                ErrorDetail::LearnerRpc { via },
            );
            if matches!(then, Deferred::Read(_)) {
                // A read (the member's process came back, still a
                // learner): clientv3 tries it again, as when it was
                // refused at once.
                self.retry_from_now(request, via, error, then);
            } else {
                // A write: clientv3 does not try it again.
                self.unpark(via, request);
                self.complete(request, Outcome::Failed(error));
            }
            return;
        }
        let Some(sent) = self.send_deferred(via, request, then) else {
            return;
        };
        match sent {
            Ok(waiting) => {
                if let Some(p) = self.pending.get_mut(&request) {
                    p.waiting = waiting;
                    self.unpark(via, request);
                }
            }
            // Not yet after all: it stays parked until a leader is known.
            Err(ProposeError::NotLeaderNoLeader) => {}
            Err(e) => self.complete(request, Outcome::Failed(ServerError::dropped(via, e))),
        }
        self.absorb();
    }

    /// A write or a linearizable read that waited for its member's process
    /// meets the learner check when it gets there (a read-only learner
    /// serves reads).
    fn learner_refuses(&self, via: NodeId, then: &Deferred) -> bool {
        let writes = matches!(
            then,
            Deferred::Put(_) | Deferred::Delete(_) | Deferred::Compaction(_)
        );
        (writes || matches!(then, Deferred::Read(ReadOf::Key { .. })))
            && self.world.node(via).is_some_and(|n| n.is_learner())
            && (writes || self.member_kind(via).read_only.is_none())
    }

    /// Sends what a parked request waited to send, now that its member can:
    /// what it waits for next, or the proposal's refusal. None when it is
    /// over already (answered, refused by a check, or retried elsewhere).
    fn send_deferred(
        &mut self,
        via: NodeId,
        request: RequestId,
        then: Deferred,
    ) -> Option<Result<Waiting, ProposeError>> {
        Some(match then {
            Deferred::Retried { .. } => return None,
            Deferred::LocalRead { key, rev } => {
                self.read_locally(via, request, &key, rev);
                return None;
            }
            Deferred::Put(put) => self
                .world
                .propose(via, Request::Put(put).entry())
                .map(|()| Waiting::Put { via }),
            Deferred::Delete(d) => self
                .world
                .propose(via, Request::Delete(d).entry())
                .map(|()| Waiting::Put { via }),
            Deferred::Compaction(c) => self
                .world
                .propose(via, Request::Compaction(c).entry())
                .map(|()| Waiting::Put { via }),
            Deferred::Read(of) => {
                let members = matches!(of, ReadOf::Members | ReadOf::Downgrade { .. });
                self.send_read_index(via, request, of)
                    .map(|()| Waiting::Read { via, members })
            }
            Deferred::Change(cc) => self
                .world
                .propose(via, EntryData::ConfChange(Rc::new(cc)))
                .map(|()| Waiting::Member { via }),
            Deferred::ChangeV2 { cc, promote } => {
                let leader = self.world.raft(via).map_or(NONE, |r| r.leader_id());
                if let Err(e) = self.check_promotions(leader, &promote) {
                    self.complete(request, Outcome::Failed(e));
                    return None;
                }
                self.world
                    .propose(via, EntryData::ConfChangeV2(cc))
                    .map(|()| Waiting::Member { via })
            }
            Deferred::Promote { id } => return self.forward_promote(via, request, id),
        })
    }

    /// A serializable read on a member that waited for its process:
    /// answered now from the member's state (the checker judges reads of
    /// the latest state only).
    fn read_locally(&mut self, via: NodeId, request: RequestId, key: &str, rev: u64) {
        self.unpark(via, request);
        let outcome = match self.world.node(via).map(|n| n.state.read(key, rev)) {
            Some(Ok(read)) => {
                if rev == 0 {
                    let now = self.now();
                    self.history.read_at_once(
                        super::history::SCRIPT_CLIENT,
                        key,
                        read.value.as_deref(),
                        now,
                    );
                }
                Outcome::Read(read)
            }
            Some(Err(e)) => Outcome::Failed(e.into()),
            None => return,
        };
        self.complete(request, outcome);
    }

    /// A linearizable read's ReadIndex, sent through `via`, remembered with
    /// the leader it went to so that it can be sent again.
    fn send_read_index(
        &mut self,
        via: NodeId,
        request: RequestId,
        of: ReadOf,
    ) -> Result<(), ProposeError> {
        let sent = self.world.read_index(via, request, &of);
        if sent.is_ok() {
            let leader = self.world.raft(via).map_or(NONE, |r| r.leader_id());
            let at = self.now();
            let read = ReadIndexSent {
                via,
                of,
                leader,
                at,
            };
            self.reads.insert(request, read);
        }
        sent
    }

    /// A promotion taken by `via` goes to the leader, which checks it
    /// (etcd's `MemberPromote` forwarded to the leader's `mayPromoteMember`)
    /// and proposes it. None when a check refused it (it is answered).
    fn forward_promote(
        &mut self,
        via: NodeId,
        request: RequestId,
        id: NodeId,
    ) -> Option<Result<Waiting, ProposeError>> {
        let leader = self.world.raft(via).map_or(NONE, |r| r.leader_id());
        let cc = match self.promote_checks(leader, id, request) {
            Ok(cc) => cc,
            Err(e) => {
                self.complete(request, Outcome::Failed(e));
                return None;
            }
        };
        let sent = self
            .world
            .propose(leader, EntryData::ConfChange(Rc::new(cc)));
        if sent.is_ok() {
            let from = self.world.raft(leader).map_or(0, |r| r.last_index());
            if let Some(p) = self.pending.get_mut(&request) {
                p.forwarded = Some(Forwarded {
                    taken: via,
                    id,
                    from,
                });
            }
        }
        Some(sent.map(|()| Waiting::Member { via: leader }))
    }

    fn unpark(&mut self, via: NodeId, request: RequestId) {
        self.parked.remove(&(via, request));
    }

    /// The client's tries again of the requests its member refused, due by
    /// now (clientv3's retry interceptor, [`CLIENT_RETRY_MS`] apart): one
    /// its member still refuses (a learner, or a process not running)
    /// waits for the next try, or for its deadline; one it takes goes on,
    /// from now, as the request it is (a read: recorded for the history
    /// now, and waiting for a leader like any other).
    fn retry_refused(&mut self) {
        let now = self.now();
        while let Some(&(at, request)) = self.retries.first().filter(|(at, _)| *at <= now) {
            self.retries.remove(&(at, request));
            let Some(Waiting::Parked {
                via: Some(via),
                then: Deferred::Retried { then, .. },
            }) = self.pending.get(&request).map(|p| p.waiting.clone())
            else {
                continue;
            };
            let refused = !self.runs(via) || self.learner_refuses(via, &then);
            if refused {
                if self
                    .pending
                    .get(&request)
                    .is_some_and(|p| at + CLIENT_RETRY_MS < p.deadline)
                {
                    self.retries.insert((at + CLIENT_RETRY_MS, request));
                }
                continue;
            }
            if let Deferred::Read(ReadOf::Key { key, rev }) = &*then {
                if let Err(e) = refuse_empty_key(key) {
                    self.unpark(via, request);
                    self.complete(request, Outcome::Failed(e));
                    continue;
                }
                if *rev == 0 {
                    self.history.read_sent(request, SCRIPT_CLIENT, key, now);
                }
            }
            // The retries no longer bound it: the client's deadline does.
            let Some(p) = self.pending.get_mut(&request) else {
                continue;
            };
            p.waiting = Waiting::Parked {
                via: Some(via),
                then: *then,
            };
            let client_deadline = p.client_deadline;
            self.move_deadline(request, client_deadline);
            self.go_on(request);
        }
    }

    /// Parked `request` was refused by its member with an error clientv3
    /// tries again ([`Deferred::Retried`]): its tries start now, and its
    /// retries bound it from now on as well as the client's deadline.
    fn retry_from_now(
        &mut self,
        request: RequestId,
        via: NodeId,
        error: ServerError,
        then: Deferred,
    ) {
        let Some(p) = self.pending.get_mut(&request) else {
            return;
        };
        p.waiting = Waiting::Parked {
            via: Some(via),
            then: Deferred::Retried {
                error,
                then: Box::new(then),
            },
        };
        let client_deadline = p.client_deadline;
        let deadline = self.first_retry(request, client_deadline);
        self.move_deadline(request, deadline);
    }

    /// A refused `request`'s first try again, [`CLIENT_RETRY_MS`] from
    /// now; returns its deadline: the client's, or the end of its retries
    /// if that comes first.
    fn first_retry(&mut self, request: RequestId, client_deadline: u64) -> u64 {
        let now = self.now();
        self.retries
            .insert((now.saturating_add(CLIENT_RETRY_MS), request));
        client_deadline.min(now.saturating_add(CLIENT_RETRIES_MS))
    }

    /// Pending `request` ends at `deadline` now.
    fn move_deadline(&mut self, request: RequestId, deadline: u64) {
        if let Some(p) = self.pending.get_mut(&request) {
            self.deadlines.remove(&(p.deadline, request));
            p.deadline = deadline;
            self.deadlines.insert((deadline, request));
        }
    }

    /// Sends again the ReadIndex of every read no leader confirmed within
    /// 500ms, or whose member's leader changed since.
    fn retry_reads(&mut self) {
        if self.reads.is_empty() {
            return;
        }
        let now = self.now();
        let mut again = Vec::new();
        let mut failed = Vec::new();
        for (&request, read) in self.reads.iter() {
            // A confirmed read waits for its member to apply; it stays here
            // until answered, for its member may crash first: the process
            // that held it is gone, the client's Range fails with
            // Unavailable and clientv3 sends it again (`retry_interceptor.go`
            // `isSafeRetryImmutableRPC`), to the member once it runs again.
            if self.world.read_confirmed(read.via, request) {
                continue;
            }
            let leader = self.world.raft(read.via).map_or(NONE, |r| r.leader_id());
            if leader != read.leader && self.is_join_read(request) {
                failed.push(request);
                continue;
            }
            let due = leader != read.leader || now >= read.at + READ_INDEX_RETRY_MS;
            if due && leader != NONE {
                again.push(request);
            }
        }
        for request in failed {
            self.fail_join_read(request);
        }
        for request in again {
            let Some(read) = self.reads.get(&request).cloned() else {
                continue;
            };
            let _ = self.world.read_index(read.via, request, &read.of);
            let leader = self.world.raft(read.via).map_or(NONE, |r| r.leader_id());
            if let Some(r) = self.reads.get_mut(&request) {
                r.leader = leader;
                r.at = now;
            }
            self.absorb();
        }
    }

    /// Sends on every parked request whose member now knows a leader, and
    /// the reads that must be asked again.
    fn release_parked(&mut self) {
        self.retry_reads();
        self.retry_refused();
        if self.parked.is_empty() {
            return;
        }
        // One member at a time: the requests of a member that knows no
        // leader are skipped without looking at each.
        let mut ready: Vec<RequestId> = Vec::new();
        let mut next = self.parked.first().map(|&(via, _)| via);
        while let Some(via) = next {
            let held = self
                .parked
                .range((via, 0)..=(via, RequestId::MAX))
                .map(|&(_, r)| r);
            if self.runs(via) {
                ready.extend(held.filter(|&r| self.can_go_on(r)));
            }
            next = (via < NodeId::MAX)
                .then(|| self.parked.range((via + 1, 0)..).next().map(|&(v, _)| v))
                .flatten();
        }
        // A few hundred at a time, the rest in the next steps of the same
        // millisecond (see `next_time`): under a heavy load thousands wait
        // for the first leader, and one step sending them all on took a
        // page's frame many times over. The simulated time is the same.
        self.release_more = ready.len() > RELEASE_BATCH;
        for request in ready.into_iter().take(RELEASE_BATCH) {
            // A peer's read for a joining process that waited for a leader
            // fails when one appears (the peer's leader changed).
            if self.is_join_read(request) {
                self.fail_join_read(request);
            } else {
                self.go_on(request);
            }
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
    /// write, a request deadline, or a client's next try.
    pub fn next_time(&self) -> Option<u64> {
        let deadline = self.deadlines.first().map(|(t, _)| *t);
        let retry = self.retries.first().map(|(t, _)| *t);
        // A ReadIndex not confirmed is sent again 500ms after it was sent
        // (`retry_reads`): that moment is one of the clock's.
        let now = self.now();
        let resend = self
            .reads
            .values()
            .map(|r| r.at + READ_INDEX_RETRY_MS)
            .filter(|&t| t > now)
            .min();
        let load = self.load.as_ref().map(Load::next_ms);
        let modes = self.next_mode_check();
        let parked = self.release_more.then_some(now);
        [
            self.world.next_time(),
            deadline,
            retry,
            resend,
            load,
            modes,
            parked,
            self.next_join_time(),
        ]
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
        self.release_parked();
        self.check_modes();
        self.drive_joins();
        true
    }

    /// Moves the clock to `t` without running anything, when nothing of this
    /// cluster is due before `t` (the fleet keeps its clusters on one clock).
    pub fn advance_clock(&mut self, t: u64) {
        if self.next_time().is_none_or(|next| next >= t) {
            self.world.advance_clock(t);
        }
    }

    /// Advances simulated time to `t`, running everything due on the way.
    pub fn run_until(&mut self, t: u64) {
        while self.step(t) {}
        self.settle(t);
    }

    /// Sets the clock to `t` once `step(t)` has nothing left to do
    /// (the end of `run_until`, for a caller that steps by itself).
    pub fn settle(&mut self, t: u64) {
        self.world.run_until(t);
        self.absorb();
        self.expire();
        self.release_parked();
        self.check_modes();
        self.drive_joins();
    }

    /// Runs until `request` finishes (it always does: it has a deadline).
    pub fn finish(&mut self, request: RequestId) -> Outcome {
        while self.is_pending(request) {
            if !self.step(u64::MAX) {
                break;
            }
        }
        self.take_outcome(request)
    }

    /// Whether `request` still waits for its answer.
    pub fn is_pending(&self, request: RequestId) -> bool {
        self.pending.contains_key(&request)
    }

    /// The answer of a request that no longer waits (a timeout if it has
    /// none: nothing was left to run and it never finished).
    pub fn take_outcome(&mut self, request: RequestId) -> Outcome {
        match self.finished.iter().position(|f| f.request == request) {
            Some(i) => self.finished.remove(i).outcome,
            None => Outcome::Failed(ServerError::new(ErrorCode::Timeout, ErrorDetail::EtcdText)),
        }
    }

    pub(crate) fn complete(&mut self, request: RequestId, outcome: Outcome) {
        if let Some(p) = self.pending.remove(&request) {
            let now = self.now();
            match &outcome {
                Outcome::Put { .. } => self.history.answered(request, None, now),
                Outcome::Deleted { .. } => self.history.answered(request, None, now),
                Outcome::Read(read) => {
                    self.history
                        .answered(request, Some(read.value.clone()), now)
                }
                // A write that failed while its member still held it
                // (parked) never reached Raft: it took no effect.
                Outcome::Failed(_) => {
                    let proposed = !matches!(p.waiting, Waiting::Parked { .. });
                    self.history.failed(request, proposed);
                }
                Outcome::Members(_) | Outcome::Done => {}
            }
            if let Waiting::Parked { via: Some(via), .. } = p.waiting {
                self.unpark(via, request);
            }
            self.reads.remove(&request);
            self.deadlines.remove(&(p.deadline, request));
            let joining = self.join_answered(request, &outcome);
            if !p.quiet && !joining {
                self.finished.push(Finished { request, outcome });
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
        let sent = self.put_as(
            LOAD_CLIENT,
            &key,
            &value,
            via,
            Some(size),
            CLIENT_TIMEOUT_MS,
            false,
        );
        match sent {
            Ok(request) => {
                if let Some(p) = self.pending.get_mut(&request) {
                    p.quiet = true;
                } else {
                    self.finished.retain(|f| f.request != request);
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
        // Nearly always: nothing is due (a step is a message or a tick).
        if self
            .deadlines
            .first()
            .is_none_or(|(deadline, _)| *deadline > now)
        {
            return;
        }
        let expired: Vec<(RequestId, Option<&'static str>, Waiting, bool)> = self
            .deadlines
            .iter()
            .take_while(|(deadline, _)| *deadline <= now)
            .filter_map(|(_, r)| {
                self.pending.get(r).map(|p| {
                    let client = p.client_deadline <= p.deadline;
                    (*r, p.note, p.waiting.clone(), client)
                })
            })
            .collect();
        for (request, note, waiting, client) in expired {
            // clientv3's retries ran out first: the member's refusal.
            if let (
                false,
                Waiting::Parked {
                    then: Deferred::Retried { error, .. },
                    ..
                },
            ) = (client, &waiting)
            {
                self.complete(request, Outcome::Failed(error.clone()));
                continue;
            }
            // A promotion a follower forwards waits for a leader in
            // `waitLeader`, which gives up with ErrNoLeader when the
            // forwarding's own timeout (ReqTimeout) ends before the client's
            // (etcdserver PromoteMember); clientv3 does not retry it.
            if let (
                false,
                Waiting::Parked {
                    via: Some(via),
                    then: Deferred::Promote { .. },
                },
            ) = (client, &waiting)
            {
                let why = ErrorDetail::NoLeaderKnown { via: *via };
                let e = ServerError::new(ErrorCode::NoLeader, why);
                self.complete(request, Outcome::Failed(e));
                continue;
            }
            // The client's context ends first ("context deadline exceeded"),
            // unless it waits longer than the server's own request timeout.
            let waited = match waiting {
                Waiting::Leader { to } => Waited::Transfer { to },
                Waiting::Parked {
                    then: Deferred::Retried { .. },
                    ..
                } => Waited::ClientDeadline,
                Waiting::Parked { via: Some(v), .. } if !self.runs(v) => {
                    Waited::NotRunning { via: v }
                }
                Waiting::Parked { via: Some(v), .. } => Waited::NoLeaderAt { via: v },
                Waiting::Parked { via: None, .. } => Waited::NoMember,
                _ if client => Waited::ClientDeadline,
                _ => Waited::ServerTimeout,
            };
            let why = ErrorDetail::Deadline {
                waited,
                raft_refused: note,
            };
            self.complete(
                request,
                Outcome::Failed(ServerError::new(ErrorCode::Timeout, why)),
            );
        }
    }

    /// Adds an event of the server's own (a mode's decision) after the
    /// world's events so far.
    pub(crate) fn push_event(&mut self, e: Event) {
        self.absorb();
        self.events.push(e);
    }

    /// Forgets the outcome of a request nobody waits for.
    pub(crate) fn take_finished_request(&mut self, request: RequestId) {
        self.finished.retain(|f| f.request != request);
    }

    /// Takes in the world's events of something done outside a step.
    pub(crate) fn absorb_events(&mut self) {
        self.absorb();
    }

    /// Reads the world's new events: they finish requests and feed the narration.
    fn absorb(&mut self) {
        let mut events = std::mem::take(&mut self.absorbing);
        self.world.take_events_into(&mut events);
        for e in &events {
            self.observe(e);
        }
        self.events.append(&mut events);
        self.absorbing = events;
    }

    /// Member `node`'s process died: the client connections to it break, so
    /// a request it held fails at once with gRPC's Unavailable, unless
    /// clientv3 sends it again. Its retry interceptor retries a Range and a
    /// MemberList (`isSafeRetryImmutableRPC`: they wait for the member to
    /// run again, as `retry_reads` does), but never a write or a membership
    /// change once sent (`isSafeRetryMutableRPC`). A write it had proposed
    /// may still commit; the process that would have answered is gone, and
    /// the next one knows nothing of the request.
    fn member_crashed(&mut self, node: NodeId) {
        self.forward_again(node);
        for (request, _) in self.held_by(node) {
            let e = ServerError::new(ErrorCode::NotStarted, ErrorDetail::NotRunning { id: node });
            self.complete(request, Outcome::Failed(e));
        }
    }

    /// Member `node` stopped, removed from the cluster (after applying its
    /// own removal, or refused by a peer as removed): etcd's run loop
    /// returns (`EtcdServer.run`, on `errorc`) and its server stops. A write
    /// waiting for its entry to apply ends with `ErrStopped`
    /// (`processInternalRaftRequestOnce`, on `s.done`), as does a
    /// membership change (`configure`, on `s.stopping`) and a promotion
    /// waiting for a leader to forward it to (`PromoteMember`'s
    /// `waitLeader`). One still waiting in raft's `Propose` for a leader
    /// ends with raft's own `ErrStopped` once the raft node stops. Either is
    /// an error clientv3 never retries for a write or a membership change
    /// (`isSafeRetryMutableRPC`: "etcdserver: server stopped" is an
    /// Unavailable it does not know, "raft: stopped" not Unavailable at
    /// all), so the request ends at once. A linearizable read or a member
    /// list ends with `ErrStopped` too, an Unavailable that clientv3 retries
    /// (`isSafeRetryImmutableRPC`): the member never runs again, so it waits
    /// until the client's deadline, as before.
    fn member_stopped(&mut self, node: NodeId) {
        self.forward_again(node);
        for (request, in_raft) in self.held_by(node) {
            let e = ServerError::new(
                ErrorCode::ServerStopped,
                ErrorDetail::Stopped { id: node, in_raft },
            );
            self.complete(request, Outcome::Failed(e));
        }
    }

    /// Leader `node` crashed or stopped: a promotion another member forwarded
    /// to it goes back to wait at that member for the next leader. etcd's
    /// `PromoteMember` loops until its request timeout: `waitLeader`, then
    /// `promoteMemberHTTP` to the leader, ending early only on a refusal
    /// (learner not ready, id not found, member not a learner); a failed
    /// call to a leader that is gone is tried again. Its deadline stays.
    fn forward_again(&mut self, node: NodeId) {
        let again: Vec<(RequestId, Forwarded)> = self
            .pending
            .iter()
            .filter(|(_, p)| p.waiting == Waiting::Member { via: node })
            .filter_map(|(r, p)| p.forwarded.map(|f| (*r, f)))
            .filter(|(_, f)| f.taken != node)
            .collect();
        for (request, f) in again {
            if let Some(p) = self.pending.get_mut(&request) {
                p.waiting = Waiting::Parked {
                    via: Some(f.taken),
                    then: Deferred::Promote { id: f.id },
                };
                p.note = None;
                self.parked.insert((f.taken, request));
            }
        }
    }

    /// The requests member `node` holds that end when its process ends: its
    /// writes and membership changes, sent on or parked, not its reads (a
    /// promotion it forwarded is held by the member that took it).
    /// With each, whether it is parked waiting in raft's `Propose` for a
    /// leader (a write or a change; a promotion parks in etcd's server).
    fn held_by(&self, node: NodeId) -> Vec<(RequestId, bool)> {
        self.pending
            .iter()
            .filter_map(|(r, p)| match &p.waiting {
                Waiting::Put { via } => (*via == node).then_some((*r, false)),
                Waiting::Member { via } => {
                    let holder = p.forwarded.map_or(*via, |f| f.taken);
                    (holder == node).then_some((*r, false))
                }
                Waiting::Parked {
                    via: Some(via),
                    then,
                } => (*via == node && !matches!(then, Deferred::Read(_)))
                    .then_some((*r, !matches!(then, Deferred::Promote { .. }))),
                Waiting::Read { .. }
                | Waiting::Leader { .. }
                | Waiting::Parked { via: None, .. } => None,
            })
            .collect()
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
        if self.member_event(&e.kind) {
            return;
        }
        let Some((request, expected, outcome)) = self.answer_in(&e.kind) else {
            return;
        };
        if self.waits(request, &expected) {
            self.complete(request, outcome);
        }
    }

    /// A leader elected, a member crashed or stopped, a change Raft
    /// refused: what the server does about it. False for other events.
    fn member_event(&mut self, kind: &EventKind) -> bool {
        match kind {
            EventKind::Raft {
                node,
                event: RaftEvent::BecameLeader { .. },
            } => {
                self.leader_arrived(*node);
                true
            }
            EventKind::Crashed { node } => {
                self.member_crashed(*node);
                true
            }
            EventKind::StoppedRemoved { node, .. } => {
                self.member_stopped(*node);
                true
            }
            EventKind::Raft {
                event: RaftEvent::ConfChangeRefused { request, reason },
                ..
            } => {
                // Raft turned the change into an empty entry: etcd's client
                // waits until its deadline. Say why when it times out.
                if let Some(p) = self.pending.get_mut(request) {
                    p.note = Some(*reason);
                }
                true
            }
            _ => false,
        }
    }

    /// The answer an applied entry or a served read gives: the request, what
    /// it must be waiting for, and its outcome.
    fn answer_in(&mut self, kind: &EventKind) -> Option<(RequestId, Waiting, Outcome)> {
        Some(match kind {
            EventKind::PutApplied {
                node,
                index,
                request,
            } => (
                *request,
                Waiting::Put { via: *node },
                Outcome::Put { index: *index },
            ),
            EventKind::DeleteApplied {
                node,
                request,
                deleted,
                revision,
                ..
            } => (
                *request,
                Waiting::Put { via: *node },
                Outcome::Deleted {
                    deleted: *deleted,
                    revision: *revision,
                },
            ),
            EventKind::CompactionApplied {
                node,
                request,
                refused,
                ..
            } => (
                *request,
                Waiting::Put { via: *node },
                match refused {
                    None => Outcome::Done,
                    Some(e) => Outcome::Failed(ServerError::from(*e)),
                },
            ),
            EventKind::ReadServed {
                node,
                request,
                read,
            } => {
                let members = matches!(read, Served::Members | Served::Downgrade { .. });
                let outcome = match read {
                    Served::Members => Outcome::Members(self.members_of(*node)),
                    Served::Downgrade { .. } => Outcome::Done,
                    Served::Key { read: Ok(read), .. } => Outcome::Read(read.clone()),
                    Served::Key { read: Err(e), .. } => Outcome::Failed(ServerError::from(*e)),
                };
                (
                    *request,
                    Waiting::Read {
                        via: *node,
                        members,
                    },
                    outcome,
                )
            }
            EventKind::ConfChangeApplied {
                node,
                index,
                change,
                refused,
            } => {
                if refused.is_none() {
                    self.kind_applied(change);
                }
                // A forwarded promotion's earlier attempt, sent to a leader
                // since lost, may still commit: its retry waits for its own.
                let earlier = self
                    .pending
                    .get(&change.request)
                    .and_then(|p| p.forwarded)
                    .is_some_and(|f| *index < f.from);
                if earlier {
                    return None;
                }
                let outcome = match refused {
                    None => Outcome::Done,
                    Some(err) => Outcome::Failed(ServerError::from(*err)),
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
                    Some(err) => Outcome::Failed(ServerError::from(*err)),
                };
                (change.request, Waiting::Member { via: *node }, outcome)
            }
            _ => return None,
        })
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
    pub fn known_ids(&self) -> VecSet<NodeId> {
        let mut ids: VecSet<NodeId> = self.world.nodes().map(|n| n.id).collect();
        if let Some(a) = self.authority().and_then(|a| self.world.node(a)) {
            ids.extend(a.state.members.keys().copied());
        }
        ids
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::request::Call;
    use crate::server::Release;

    /// Five voters with a leader, and learner 6 caught up.
    fn five_and_a_learner(seed: u64) -> Cluster {
        // What `cluster voters=1,2,3,4,5 seed=SEED` stands for
        // (tests/scenarios.rs checks that the two agree).
        let world = WorldConfig {
            seed,
            conn_read_timeout_ms: Release::default().silent_cut_noticed_after_ms(),
            ..WorldConfig::default()
        };
        let mut c = Cluster::new(world, ServerConfig::default(), &[1, 2, 3, 4, 5]);
        // Peers active for longer than etcd's health interval (5s).
        c.run_until(9_000);
        c.member_add(6, true, None, 5_000, false).unwrap();
        c.start_process(6).unwrap();
        c.run_until(c.now() + 3_000);
        c
    }

    /// Cuts `node` off from every other member, both ways (or heals).
    fn cut_off(c: &mut Cluster, node: NodeId, cut: bool) {
        for other in (1..=6).filter(|&o| o != node) {
            if cut {
                c.world_mut().cut(node, other);
                c.world_mut().cut(other, node);
            } else {
                c.world_mut().heal(node, other);
                c.world_mut().heal(other, node);
            }
        }
    }

    /// Runs with `node` cut off from the others until a leader knows the
    /// learner's match (for 5s at most).
    fn run_cut_off(c: &mut Cluster, node: NodeId) {
        cut_off(c, node, true);
        let end = c.now() + 5_000;
        while c.now() < end && !learner_known(c) {
            c.run_until(c.now() + 10);
        }
        cut_off(c, node, false);
        assert!(learner_known(c));
    }

    fn learner_known(c: &Cluster) -> bool {
        c.leader()
            .and_then(|l| c.world.raft(l))
            .and_then(|r| r.tracker().progress.get(&6).map(|p| p.matched))
            .is_some_and(|m| m > 0)
    }

    /// `member promote 6` taken by a follower while no leader is known (the
    /// leader just crashed), sent on once it hears from the next leader:
    /// the cluster, the request, the member that took it and the leader it
    /// went to, at the instant that leader proposed it. The follower is cut
    /// off while the others elect, so that the leader has heard from the
    /// learner when the promotion reaches it (a new leader knows no
    /// learner's match until then: etcd's isLearnerReady refuses it). The
    /// crashed member runs again, so that another crash leaves a quorum.
    fn forwarded_promotion(seed: u64) -> Option<(Cluster, RequestId, NodeId, NodeId)> {
        let mut c = five_and_a_learner(seed);
        let old = c.leader()?;
        assert!(c.world_mut().crash(old));
        let Ok(Call::Waiting(request)) = c.begin_member_promote(6, 20_000, false) else {
            return None;
        };
        let taken = match c.pending.get(&request).map(|p| &p.waiting) {
            Some(Waiting::Parked { via: Some(v), .. }) => *v,
            _ => return None,
        };
        run_cut_off(&mut c, taken);
        c.start_process(old).unwrap();
        let end = c.now() + 3_000;
        while c.now() < end {
            c.run_until(c.now() + 1);
            match c.pending.get(&request).map(|p| p.waiting.clone()) {
                Some(Waiting::Member { via }) if via != taken => {
                    return Some((c, request, taken, via));
                }
                Some(Waiting::Parked { .. }) => {}
                _ => return None,
            }
        }
        None
    }

    /// Runs `test` (seed, cluster, request, the member that took it, the
    /// leader it went to) on the forwarded promotion of each seed that gives
    /// one, and checks that most seeds did.
    fn each_forwarded_promotion(mut test: impl FnMut(u64, Cluster, RequestId, NodeId, NodeId)) {
        let mut tried = 0;
        for seed in 1..=6 {
            if let Some((c, request, taken, leader)) = forwarded_promotion(seed) {
                tried += 1;
                test(seed, c, request, taken, leader);
            }
        }
        assert!(tried >= 4, "only {tried} seeds forwarded the promotion");
    }

    /// Sets the log index below which an applied entry of `request` is an
    /// earlier attempt's.
    fn set_forwarded_from(c: &mut Cluster, request: RequestId, from: u64) {
        if let Some(f) = c
            .pending
            .get_mut(&request)
            .and_then(|p| p.forwarded.as_mut())
        {
            f.from = from;
        }
    }

    fn is_voter(c: &Cluster, id: NodeId) -> bool {
        let leader = c.leader().unwrap();
        c.world.raft(leader).unwrap().tracker().is_voter(id)
    }

    /// The forwarded promotion's leader crashes before the change commits:
    /// the request waits again at the member that took it.
    fn crash_its_leader(c: &mut Cluster, request: RequestId, taken: NodeId, leader: NodeId) {
        assert!(c.world_mut().crash(leader));
        c.run_until(c.now() + 1);
        assert!(c.waits(request, &parked_at(taken)));
    }

    fn parked_at(taken: NodeId) -> Waiting {
        Waiting::Parked {
            via: Some(taken),
            then: Deferred::Promote { id: 6 },
        }
    }

    #[test]
    fn a_forwarded_promotion_goes_to_the_next_leader_when_its_leader_crashes() {
        // etcdserver PromoteMember: a follower forwards the promotion to the
        // leader (promoteMemberHTTP) and, when that call fails, waits for
        // the next leader (waitLeader) and sends it again, until ReqTimeout.
        each_forwarded_promotion(|seed, mut c, request, taken, leader| {
            let deadline = c.pending.get(&request).unwrap().deadline;
            // The leader's entry reaches no other voter but the member that
            // took the request: it cannot commit.
            for other in (1..=6).filter(|&o| o != leader && o != taken) {
                c.world_mut().cut(leader, other);
            }
            crash_its_leader(&mut c, request, taken, leader);
            assert_eq!(c.pending.get(&request).unwrap().deadline, deadline);
            // The next leader hears from the learner before it hears again
            // from the member that took the request.
            run_cut_off(&mut c, taken);
            let outcome = c.finish(request);
            assert_eq!(outcome, Outcome::Done, "seed {seed}");
            assert!(is_voter(&c, 6), "seed {seed}");
        });
    }

    #[test]
    fn a_forwarded_promotion_its_leader_lost_ends_with_the_next_leaders_answer() {
        // Sent again as soon as the next leader is known, before that leader
        // has heard from the learner: isLearnerReady's ErrLearnerNotReady,
        // which ends PromoteMember's loop (not the crash's not-started).
        each_forwarded_promotion(|seed, mut c, request, taken, leader| {
            crash_its_leader(&mut c, request, taken, leader);
            let e = c.finish(request).into_done().unwrap_err();
            assert_eq!(e.code, ErrorCode::LearnerNotReady, "seed {seed}");
        });
    }

    #[test]
    fn a_promotion_committed_before_its_leader_crashed_is_no_longer_a_learners() {
        // The change committed and applied, but the leader crashed before
        // it answered: the retry finds a voter. isLearnerReady lets it
        // through (a voter is tracked and in sync); the apply refuses it
        // (membership ValidateConfigurationChange, ErrMemberNotLearner).
        each_forwarded_promotion(|seed, mut c, request, taken, leader| {
            // Run until the leader applied the change, then crash it before
            // the answer reaches the member that took the request: the
            // answer is lost with the leader, as the forwarded HTTP call is.
            let applied = |c: &Cluster| {
                c.world
                    .node(leader)
                    .and_then(|n| n.state.members.get(&6))
                    .is_some_and(|m| !m.learner)
            };
            // Detach the request from the apply: nothing answers it there.
            let from = c.pending.get(&request).unwrap().forwarded.unwrap().from;
            set_forwarded_from(&mut c, request, u64::MAX);
            let end = c.now() + 3_000;
            while c.now() < end && !applied(&c) {
                c.run_until(c.now() + 1);
            }
            assert!(applied(&c), "seed {seed}");
            set_forwarded_from(&mut c, request, from);
            crash_its_leader(&mut c, request, taken, leader);
            run_cut_off(&mut c, taken);
            let e = c.finish(request).into_done().unwrap_err();
            assert_eq!(e.code, ErrorCode::MemberNotLearner, "seed {seed}");
            assert!(is_voter(&c, 6), "seed {seed}");
        });
    }

    #[test]
    fn an_earlier_attempt_applied_does_not_answer_the_retry() {
        // etcd waits for the retry's proposal by its own id: the entry of an
        // attempt sent to a leader since lost, should the next leader commit
        // it, answers nobody (the retry then ends with its own entry's
        // answer, or with the request timeout if raft dropped it).
        let (mut c, request, _, leader) = forwarded_promotion(1).unwrap();
        let from = c.pending.get(&request).unwrap().forwarded.unwrap().from;
        let change = c.promote_checks(leader, 6, request).unwrap();
        let applied = |index| Event {
            time_ms: 0,
            kind: EventKind::ConfChangeApplied {
                node: leader,
                index,
                change: change.clone(),
                refused: None,
            },
        };
        c.observe(&applied(from - 1));
        assert!(c.waits(request, &Waiting::Member { via: leader }));
        c.observe(&applied(from));
        assert!(!c.is_pending(request));
        assert_eq!(c.take_outcome(request), Outcome::Done);
    }

    #[test]
    fn a_forwarded_promotion_fails_when_the_member_that_took_it_crashes() {
        each_forwarded_promotion(|seed, mut c, request, taken, _| {
            assert!(c.world_mut().crash(taken));
            c.run_until(c.now() + 1);
            let e = c.take_outcome(request).into_done().unwrap_err();
            assert_eq!(e.code, ErrorCode::NotStarted, "seed {seed}");
        });
    }
}
