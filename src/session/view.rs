//! The view model: everything a front end shows of a run, as typed,
//! serialisable structs built from the cluster's facts (`server::facts`).
//! The page's canvas and panels, the lesson panel and the scrubber read these
//! structs and nothing else of the cluster's state, so two views of one fact
//! cannot disagree: both quorum panels are one [`QuorumView`].
//!
//! Data only: no sentence is made here. A front end renders the words at the
//! last moment, in its reader's language (`words::text_en` for English).
//!
//! One cluster's view is one value ([`ClusterView`]), so a page showing two
//! clusters side by side holds two of them.

use serde::{Deserialize, Serialize};

use crate::raft::{NodeId, ProgressState, Raft, StateRole};
use crate::server::{
    CatchUp, Cluster, Failover, FailoverWatch, Fleet, NewMembers, ReadMode, SelfView,
};
use crate::sim::membership::resolve_host;

use crate::lang::ast::MAX_NODE_ID;
use crate::session::report::Status;
use crate::session::timeline::{BranchInfo, LeaderChange, Timeline};

/// The quorum arithmetic of the cluster now, as the quorum panel and the
/// lesson panel show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QuorumView {
    pub leader: Option<NodeId>,
    /// The member whose view this is: the leader, else the highest-term
    /// running member; `None` when no member runs.
    pub from: Option<NodeId>,
    pub voters: Vec<NodeId>,
    pub learners: Vec<NodeId>,
    /// While a joint change is in progress, the voters of the configuration
    /// being left (`voters` are those being entered); empty otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub voters_outgoing: Vec<NodeId>,
    /// How many learners the cluster allows.
    pub max_learners: usize,
    /// A majority of the voters; 0 when no voter is known.
    pub quorum: usize,
    /// The voters `from` can exchange messages with now, itself included.
    pub reachable: Vec<NodeId>,
    /// `reachable` holds a quorum.
    pub has_quorum: bool,
    /// The leader's commit index (without a leader, the authority's).
    pub commit: u64,
    /// The voters whose log holds `commit` (empty without a leader).
    pub acked: Vec<NodeId>,
    /// There is a leader and it reaches a quorum: writes can commit.
    pub can_reach_quorum: bool,
}

impl QuorumView {
    pub fn of(c: &Cluster) -> QuorumView {
        let conf = c.configuration();
        let quorum = c.majority();
        let reachable = c.reachable_voters();
        let has_quorum = quorum > 0 && reachable.len() >= quorum;
        let leader = c.leader();
        QuorumView {
            leader,
            from: c.viewpoint(),
            voters: conf.voters.into_iter().collect(),
            learners: conf.learners.into_iter().collect(),
            voters_outgoing: conf.voters_outgoing.into_iter().collect(),
            max_learners: c.max_learners(),
            quorum,
            has_quorum,
            commit: c.commit_index(),
            acked: c.acked_voters(),
            can_reach_quorum: leader.is_some() && has_quorum,
            reachable,
        }
    }

    /// Voters `from` cannot reach.
    pub fn unreachable(&self) -> Vec<NodeId> {
        self.voters
            .iter()
            .copied()
            .filter(|v| !self.reachable.contains(v))
            .collect()
    }
}

/// What a node is doing, as the panels name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeState {
    Leader,
    Follower,
    Candidate,
    PreCandidate,
    /// Its process is down (crashed).
    Down,
    /// Added, its process never ran.
    NotStarted,
    /// Added, its first process up and talking to its peers; raft not
    /// started yet (`server::join`).
    Joining,
    Removed,
}

impl NodeState {
    pub fn of_role(role: StateRole) -> NodeState {
        match role {
            StateRole::Leader => NodeState::Leader,
            StateRole::Follower => NodeState::Follower,
            StateRole::Candidate => NodeState::Candidate,
            StateRole::PreCandidate => NodeState::PreCandidate,
        }
    }

    /// The code the panels and the report use ("pre-candidate", "not started").
    pub fn code(self) -> &'static str {
        match self {
            NodeState::Leader => "leader",
            NodeState::Follower => "follower",
            NodeState::Candidate => "candidate",
            NodeState::PreCandidate => "pre-candidate",
            NodeState::Down => "down",
            NodeState::NotStarted => "not started",
            NodeState::Joining => "joining",
            NodeState::Removed => "removed",
        }
    }
}

/// The leader's view of one peer (etcd's `tracker.Progress`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ProgressView {
    #[serde(rename = "match")]
    pub matched: u64,
    pub next: u64,
    #[serde(serialize_with = "progress_state_name")]
    pub state: ProgressState,
}

fn progress_state_name<S: serde::Serializer>(s: &ProgressState, ser: S) -> Result<S::Ok, S::Error> {
    ser.serialize_str(s.name())
}

/// A learner's catch-up against etcd's readiness rule.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CatchUpView {
    #[serde(rename = "match")]
    pub matched: u64,
    pub leader_match: u64,
    /// `match / leader_match`, 0 to 1.
    pub ratio: f64,
    /// etcd would promote it now.
    pub ready: bool,
    /// The share of the leader's log at which this learner is promoted:
    /// the cluster's `auto-promote` threshold for a plain learner when that
    /// mode is on, else etcd's 90% (a manual promote, or a standby's
    /// failover); `None` for a read-only learner, which is never promoted.
    pub promote_at: Option<f64>,
    /// `promote_at` is the `auto-promote` threshold: the leader promotes it
    /// by itself once it is there.
    pub auto: bool,
}

impl From<CatchUp> for CatchUpView {
    fn from(c: CatchUp) -> CatchUpView {
        CatchUpView {
            matched: c.matched,
            leader_match: c.leader_match,
            ratio: c.ratio(),
            ready: c.ready(),
            promote_at: Some(crate::server::reconfig::READINESS_RATIO),
            auto: false,
        }
    }
}

/// Standby failover's countdown on a voter the leader has not heard from
/// (`Cluster::failover_watch`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FailoverView {
    pub silent_ms: u64,
    /// `failover-after`.
    pub after_ms: u64,
    /// Time left before the leader fails over; 0 once it is due (it may
    /// still wait for a ready standby).
    pub left_ms: u64,
}

impl From<FailoverWatch> for FailoverView {
    fn from(w: FailoverWatch) -> FailoverView {
        FailoverView {
            silent_ms: w.silent_ms,
            after_ms: w.after_ms,
            left_ms: w.left_ms(),
        }
    }
}

/// One node as the canvas and the panels show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeView {
    pub id: NodeId,
    #[serde(serialize_with = "node_state_code")]
    pub role: NodeState,
    pub learner: bool,
    /// A standby learner, kept for failover (`member add N --standby`).
    pub standby: bool,
    /// A read-only learner's read mode (`--read-only=weak|strong`).
    #[serde(serialize_with = "read_mode_name")]
    pub read_only: Option<ReadMode>,
    pub running: bool,
    pub removed: bool,
    pub never_started: bool,
    pub leader: bool,
    /// The running node's indexes (`None` while it is down).
    pub term: Option<u64>,
    pub commit: Option<u64>,
    pub applied: Option<u64>,
    pub last_index: Option<u64>,
    pub snapshot_index: Option<u64>,
    /// Its peer URL in the authority's members bucket.
    pub peer_url: Option<String>,
    /// Its peer URL when that URL reaches no simulated host (the
    /// misconfigured member: nobody gets through to it).
    pub bad_url: Option<String>,
    /// The term it is in, or was in when it stopped (`None` if it never ran).
    #[serde(skip)]
    pub shown_term: Option<u64>,
    /// What its Raft is doing while its process runs (also when removed).
    #[serde(skip)]
    pub raft_role: Option<StateRole>,
    /// Its election timer while it runs: ticks elapsed, and the randomised
    /// timeout at which it campaigns.
    #[serde(skip)]
    pub election: Option<(u32, u32)>,
    /// The leader's view of it (not for the leader itself).
    pub progress: Option<ProgressView>,
    /// A learner's catch-up, while there is a leader.
    pub catch_up: Option<CatchUpView>,
    /// Standby failover's countdown, while the leader has not heard from
    /// this voter and a standby could take over.
    pub failover: Option<FailoverView>,
    /// While the node, running, sees itself otherwise than the cluster
    /// does: `Some(true)` a learner the cluster has promoted (it has not
    /// applied its promotion yet), `Some(false)` the other way round.
    pub sees_itself_learner: Option<bool>,
    /// Raft messages it received and sent since the run began (the
    /// report's `msgs_in` and `msgs_out`).
    pub msgs_in: u64,
    pub msgs_out: u64,
}

/// What kind of learner a node is, as the canvas marks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LearnerKind {
    /// A learner: promoted by hand, or automatically with `auto-promote`.
    Plain,
    /// A standby, kept to replace a failed voter.
    Standby,
    /// A read-only learner, never promoted, in its read mode.
    ReadOnly(ReadMode),
}

impl NodeView {
    /// `None` for a voter.
    pub fn learner_kind(&self) -> Option<LearnerKind> {
        if !self.learner {
            None
        } else if let Some(m) = self.read_only {
            Some(LearnerKind::ReadOnly(m))
        } else if self.standby {
            Some(LearnerKind::Standby)
        } else {
            Some(LearnerKind::Plain)
        }
    }
}

fn read_mode_name<S: serde::Serializer>(m: &Option<ReadMode>, ser: S) -> Result<S::Ok, S::Error> {
    match m {
        Some(m) => ser.serialize_str(m.as_str()),
        None => ser.serialize_none(),
    }
}

fn node_state_code<S: serde::Serializer>(s: &NodeState, ser: S) -> Result<S::Ok, S::Error> {
    ser.serialize_str(s.code())
}

impl NodeView {
    pub fn of(c: &Cluster, id: NodeId) -> NodeView {
        let sim = c.world().node(id);
        let raft: Option<&Raft> = sim.and_then(|s| s.raft.as_ref());
        let removed = c.is_removed(id);
        let never_started = c.never_started(id);
        let role = if removed {
            NodeState::Removed
        } else if c.joining(id) {
            NodeState::Joining
        } else if never_started {
            NodeState::NotStarted
        } else {
            raft.map_or(NodeState::Down, |r| NodeState::of_role(r.role()))
        };
        let member = c.member(id);
        let bad_url = member
            .filter(|m| resolve_host(&m.peer_url) != Some(id))
            .map(|m| m.peer_url.to_string());
        let learner = c.is_learner(id);
        // A promoted standby is a voter like any other.
        let kind = c.member_kind(id);
        let kind = if learner { kind } else { Default::default() };
        let shown_term = raft.map(Raft::term).or_else(|| {
            sim.filter(|_| !never_started)
                .map(|s| s.durable.hard_state.term)
        });
        NodeView {
            id,
            role,
            learner,
            standby: kind.standby,
            read_only: kind.read_only,
            running: raft.is_some(),
            removed,
            never_started,
            leader: raft.is_some_and(|r| r.role() == StateRole::Leader),
            term: raft.map(Raft::term),
            commit: raft.map(Raft::commit),
            applied: raft.map(Raft::applied),
            last_index: raft.map(Raft::last_index),
            snapshot_index: raft.map(Raft::snapshot_index),
            peer_url: member.map(|m| m.peer_url.to_string()),
            bad_url,
            shown_term,
            raft_role: raft.map(Raft::role),
            election: raft.map(|r| (r.election_elapsed(), r.randomized_election_timeout())),
            progress: c.progress(id).map(|p| ProgressView {
                matched: p.matched,
                next: p.next_idx,
                state: p.state,
            }),
            catch_up: c.learner_catch_up(id).map(|cu| {
                let mut v = CatchUpView::from(cu);
                let auto = c.config().modes.auto_promote.filter(|_| kind.is_plain());
                if let Some(p) = auto {
                    v.promote_at = Some(f64::from(p) / 100.0);
                    v.auto = true;
                } else if kind.read_only.is_some() {
                    v.promote_at = None;
                }
                v
            }),
            failover: c.failover_watch(id).map(FailoverView::from),
            sees_itself_learner: match c.sees_itself(id) {
                Some(SelfView::Learner) if !learner => Some(true),
                Some(SelfView::Voter) if learner => Some(false),
                _ => None,
            },
            msgs_in: c.message_counts(id).received,
            msgs_out: c.message_counts(id).sent,
        }
    }
}

/// Everyone the cluster knows of, lowest id first.
pub fn nodes(c: &Cluster) -> Vec<NodeView> {
    c.known_ids()
        .into_iter()
        .map(|id| NodeView::of(c, id))
        .collect()
}

/// A node with the keys its state machine holds: the keys panel and the
/// node's pop-up.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeDetails {
    #[serde(flatten)]
    pub node: NodeView,
    /// Its applied key-value pairs, in key order.
    pub kv: Vec<(String, String)>,
}

/// Every node with its keys.
pub fn node_details(c: &Cluster) -> Vec<NodeDetails> {
    nodes(c)
        .into_iter()
        .map(|node| {
            let kv = c
                .world()
                .node(node.id)
                .map(|s| {
                    s.state
                        .iter()
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .collect()
                })
                .unwrap_or_default();
            NodeDetails { node, kv }
        })
        .collect()
}

/// The lowest id free for a new member: never used, never removed.
pub fn next_id(c: &Cluster) -> Option<NodeId> {
    let known = c.known_ids();
    let removed = c.removed_ids();
    (1..=MAX_NODE_ID).find(|id| !known.contains(id) && !removed.contains(id))
}

/// A background write load that runs now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LoadView {
    /// Bytes per write.
    pub size: u64,
    pub via: Option<NodeId>,
    /// Writes sent so far, and those refused at once.
    pub sent: u64,
    pub refused: u64,
}

impl LoadView {
    pub fn of(c: &Cluster) -> Option<LoadView> {
        c.load().map(|l| LoadView {
            size: l.size,
            via: l.via,
            sent: l.sent,
            refused: l.refused,
        })
    }
}

/// The page's status: the runner's report without its results (the same
/// object, field for field), and whether a write load runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageStatus {
    #[serde(flatten)]
    pub status: Status,
    /// The load running now, if any.
    pub load: Option<LoadView>,
}

/// One broken safety property, as the safety indicator lists it. Read
/// leniently (a missing field is empty) because a test may hand the page a
/// status object of its own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViolationView {
    pub time_ms: u64,
    pub property: String,
    pub nodes: Vec<NodeId>,
    pub text: String,
}

impl Default for ViolationView {
    fn default() -> ViolationView {
        ViolationView {
            time_ms: 0,
            property: "a safety property".to_string(),
            nodes: Vec::new(),
            text: String::new(),
        }
    }
}

/// The linearizability checker's verdict as the history view states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HistoryVerdict {
    /// No client operation yet.
    Empty,
    Linearizable {
        operations: usize,
        keys: usize,
    },
    /// A read sent after a write of another value had finished returned an
    /// older value (`None`: absent).
    StaleRead {
        key: String,
        read_value: Option<String>,
        read_ms: u64,
        missed_value: Option<String>,
        missed_done_ms: u64,
    },
    /// Another anomaly: these operations on `key` contradict each other.
    NotLinearizable {
        key: String,
        operations: usize,
    },
}

/// The marks of the canvas's log strips, for their key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogMark {
    Commit,
    Applied,
    Snapshot,
    MemberChange,
    Uncommitted,
    Compacted,
}

impl LogMark {
    pub const ALL: [LogMark; 6] = [
        LogMark::Commit,
        LogMark::Applied,
        LogMark::Snapshot,
        LogMark::MemberChange,
        LogMark::Uncommitted,
        LogMark::Compacted,
    ];
}

/// The cluster's modes (the document's proposals), as its `cluster` line
/// set them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ModesView {
    /// "learner" or "voter": what a bare `member add` adds.
    #[serde(serialize_with = "display")]
    pub new_members: NewMembers,
    /// `auto-promote` in percent; `None` is off.
    pub auto_promote: Option<u8>,
    pub failover_after_ms: u64,
    /// "replace" or "grow".
    #[serde(serialize_with = "display")]
    pub failover: Failover,
    /// etcd's `--max-learners` (not a mode, but what limits how many
    /// standby and read-only learners a cluster may have).
    pub max_learners: usize,
}

fn display<T: std::fmt::Display, S: serde::Serializer>(v: &T, ser: S) -> Result<S::Ok, S::Error> {
    ser.collect_str(v)
}

impl ModesView {
    pub fn of(c: &Cluster) -> ModesView {
        let m = c.config().modes;
        ModesView {
            new_members: m.new_members,
            auto_promote: m.auto_promote,
            failover_after_ms: m.failover_after_ms,
            failover: m.failover,
            max_learners: c.max_learners(),
        }
    }
}

/// One cluster as a front end shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClusterView {
    pub time_ms: u64,
    pub quorum: QuorumView,
    pub nodes: Vec<NodeView>,
    pub load: Option<LoadView>,
    pub modes: ModesView,
}

impl ClusterView {
    pub fn of(c: &Cluster) -> ClusterView {
        ClusterView {
            time_ms: c.now(),
            quorum: QuorumView::of(c),
            nodes: nodes(c),
            load: LoadView::of(c),
            modes: ModesView::of(c),
        }
    }
}

// ---- several clusters and the mirror processes ---------------------------------

/// One cluster of a run of several, as a front end shows it: its name, its
/// store's revision, and the same view as a lone cluster's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NamedClusterView {
    /// `main` for the first.
    pub name: String,
    /// Its store's revision (the report's `clusters[].revision`).
    pub revision: u64,
    /// Flattened natively; the page's bindings put it after the fields
    /// above in the browser instead (`src/wasm/mod.rs`, `fleet_js`), so
    /// `flatten`'s second serializer stays out of the page's module.
    #[cfg_attr(not(target_arch = "wasm32"), serde(flatten))]
    #[cfg_attr(target_arch = "wasm32", serde(skip))]
    pub view: ClusterView,
}

/// A mirror process as a front end shows it: the report's entry, the
/// clusters it joins and the state of its two links.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MirrorView {
    /// Flattened natively; put before the fields below in the browser
    /// (`fleet_js`), as for [`NamedClusterView::view`].
    #[cfg_attr(not(target_arch = "wasm32"), serde(flatten))]
    #[cfg_attr(target_arch = "wasm32", serde(skip))]
    pub report: crate::session::report::MirrorJson,
    /// The clusters of `from` and `to`, by name.
    pub source: String,
    pub destination: String,
    /// Which way its link to `from` (to `to`) is cut, when it is.
    pub from_cut: Option<CutWay>,
    pub to_cut: Option<CutWay>,
    /// Keys its base sync copied, and writes it relayed since.
    pub base_keys: u64,
    pub relayed: u64,
}

/// Which directions of a mirror process's link to a member are cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CutWay {
    Both,
    /// The mirror's requests to the member are lost.
    Out,
    /// The member's answers to the mirror are lost.
    In,
}

impl CutWay {
    fn of(m: &crate::server::mirror::Mirror, peer: NodeId) -> Option<CutWay> {
        match (m.is_cut(m.id, peer), m.is_cut(peer, m.id)) {
            (true, true) => Some(CutWay::Both),
            (true, false) => Some(CutWay::Out),
            (false, true) => Some(CutWay::In),
            (false, false) => None,
        }
    }
}

/// Every cluster of the run (the first first) and the mirror processes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FleetView {
    pub clusters: Vec<NamedClusterView>,
    pub mirrors: Vec<MirrorView>,
}

impl FleetView {
    pub fn of(f: &Fleet) -> FleetView {
        FleetView {
            clusters: f
                .clusters()
                .iter()
                .enumerate()
                .map(|(i, c)| NamedClusterView {
                    name: f.name(i).to_string(),
                    revision: crate::session::report::cluster_revision(c),
                    view: ClusterView::of(c),
                })
                .collect(),
            mirrors: MirrorView::all(f),
        }
    }
}

impl MirrorView {
    /// Every mirror process of the fleet.
    pub fn all(f: &Fleet) -> Vec<MirrorView> {
        f.mirrors()
            .iter()
            .map(|m| MirrorView {
                report: m.into(),
                source: f.name(m.source).to_string(),
                destination: f.name(m.destination).to_string(),
                from_cut: CutWay::of(m, m.from),
                to_cut: CutWay::of(m, m.to),
                base_keys: m.base_keys,
                relayed: m.relayed,
            })
            .collect()
    }
}

/// One version of a key a store still holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KeyVersionView {
    /// The revision that wrote it (its mod revision).
    pub revision: u64,
    /// The revision that created the key (0 for a delete).
    pub create_revision: u64,
    /// The key's version after it (0 for a delete).
    pub version: u64,
    /// The value put; `None` for a delete.
    pub value: Option<String>,
}

/// A key's history in one cluster: what the store of one of its members
/// (`report::reference_member`: the leader, else a running member) still holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KeyHistoryView {
    pub cluster: String,
    /// The member whose store it is (`None`: no member has a store).
    pub node: Option<NodeId>,
    /// The store's revision and its last compaction's.
    pub revision: u64,
    pub compact_revision: Option<u64>,
    /// Oldest first.
    pub versions: Vec<KeyVersionView>,
}

/// `key`'s history in every cluster of the run, the first cluster first
/// (the page's "key history" view).
pub fn key_history(f: &Fleet, key: &str) -> Vec<KeyHistoryView> {
    f.clusters()
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let node = crate::session::report::reference_member(c);
            let store = node
                .and_then(|id| c.world().node(id))
                .map(|n| &n.state.mvcc);
            KeyHistoryView {
                cluster: f.name(i).to_string(),
                node,
                revision: store.map_or(1, |s| s.rev()),
                compact_revision: store.and_then(|s| s.compact_revision()),
                versions: store
                    .map(|s| {
                        s.key_history(key)
                            .map(|(revision, r)| KeyVersionView {
                                revision,
                                create_revision: r.create_revision,
                                version: r.version,
                                value: (!r.tombstone).then(|| r.value.to_string()),
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
            }
        })
        .collect()
}

// ---- the timeline ---------------------------------------------------------------

/// One command on the scrubber.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TimelineEntry {
    pub at_ms: u64,
    pub end_ms: u64,
    /// The command's canonical text.
    pub text: String,
}

/// Everything the scrubber draws.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TimelineView {
    pub now_ms: u64,
    pub end_ms: u64,
    pub live: bool,
    pub branch: u32,
    /// The commands typed or clicked (idle time left out); of a run with
    /// more than [`MAX_VIEW_ENTRIES`], the first in each of that many
    /// equal stretches of the run (the scrubber has no more room).
    pub entries: Vec<TimelineEntry>,
    /// How many commands there are (all of them).
    pub entries_total: usize,
    pub leaders: Vec<LeaderChange>,
    pub branches: Vec<BranchInfo>,
}

/// The most commands the scrubber's view lists.
pub const MAX_VIEW_ENTRIES: usize = 1000;

impl TimelineView {
    pub fn of(t: &Timeline) -> TimelineView {
        let typed = || t.entries().iter().filter(|e| !e.idle);
        let total = typed().count();
        let span = u128::from(t.end().max(1));
        let mut last = None;
        let entries = typed()
            .filter(|e| {
                if total <= MAX_VIEW_ENTRIES {
                    return true;
                }
                let stretch = u128::from(e.at_ms) * MAX_VIEW_ENTRIES as u128 / span;
                let first = last != Some(stretch);
                last = Some(stretch);
                first
            })
            .map(|e| TimelineEntry {
                at_ms: e.at_ms,
                end_ms: e.end_ms,
                text: e.text.clone(),
            })
            .collect();
        TimelineView {
            now_ms: t.now(),
            end_ms: t.end(),
            live: t.is_live(),
            branch: t.branch_id(),
            entries,
            entries_total: total,
            leaders: t.leader_changes(),
            branches: t.branches(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::exec::Session;

    fn session(src: &str) -> Session {
        Session::from_script(src).unwrap()
    }

    #[test]
    fn the_quorum_view_and_the_report_agree_on_an_empty_cluster() {
        // Every process down: no member runs, so nothing is known.
        let s = session("cluster voters=1,2,3\nwait-until leader\ncrash 1\ncrash 2\ncrash 3\n");
        let q = QuorumView::of(s.cluster());
        let status = s.status();
        assert_eq!(q.quorum, 0);
        assert_eq!(q.quorum, status.quorum);
        assert_eq!(q.voters, status.voters);
        assert_eq!(q.reachable, status.reachable);
        assert!(q.reachable.is_empty());
        assert_eq!(q.from, None);
        assert!(!q.has_quorum && !q.can_reach_quorum);
    }

    #[test]
    fn the_quorum_view_and_the_report_agree_without_a_leader() {
        // The leader crashed a moment ago: the others have not elected a new
        // one yet, and still reach each other.
        let s = session("cluster voters=1,2,3 seed=1\nwait-until leader\ncrash 1\nwait 10ms\n");
        let q = QuorumView::of(s.cluster());
        let status = s.status();
        assert_eq!(q.leader, None, "{q:?}");
        assert_eq!(q.quorum, 2);
        assert_eq!(q.quorum, status.quorum);
        assert_eq!(q.reachable, status.reachable);
        assert_eq!(q.reachable.len(), 2, "{q:?}");
        assert!(q.has_quorum, "two of three voters reach each other");
        assert!(!q.can_reach_quorum, "but no leader can commit");
        assert!(q.acked.is_empty());
        assert_eq!(q.unreachable(), vec![1]);
    }

    #[test]
    fn the_quorum_view_and_the_report_agree_with_a_leader() {
        let s = session("cluster voters=1,2,3 seed=1\nwait-until leader\nput a 1\n");
        let q = QuorumView::of(s.cluster());
        let status = s.status();
        assert_eq!(q.leader, status.leader);
        assert_eq!(q.from, status.leader);
        assert_eq!((q.quorum, &q.voters), (status.quorum, &status.voters));
        assert_eq!(q.reachable, vec![1, 2, 3]);
        assert!(q.can_reach_quorum);
        assert!(q.acked.len() >= 2, "{q:?}");
    }

    #[test]
    fn nodes_name_their_state_and_a_learner_its_catch_up() {
        let s = session(
            "cluster voters=1,2,3 seed=1\nwait-until leader\nwait 6s\nmember add 4 --learner\nmember add 5 --peer-url=http://10.0.0.9:2380\n",
        );
        let all = nodes(s.cluster());
        assert_eq!(
            all.iter().map(|n| n.id).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5]
        );
        let four = &all[3];
        assert_eq!(four.role, NodeState::NotStarted);
        assert!(four.learner && !four.running);
        assert_eq!(four.bad_url, None);
        assert_eq!(all[4].bad_url.as_deref(), Some("http://10.0.0.9:2380"));
        assert!(!all[4].learner && all[4].catch_up.is_none());
        let leader = all.iter().find(|n| n.leader).unwrap();
        assert_eq!(leader.role, NodeState::Leader);
        assert!(
            leader.progress.is_none(),
            "the leader tracks no progress of itself"
        );
        let c = four
            .catch_up
            .expect("a learner's catch-up while there is a leader");
        assert!(!c.ready && c.matched == 0, "{c:?}");
        let json = serde_json::to_value(&all[3]).unwrap();
        assert_eq!(json["role"], "not started");
        assert_eq!(json["catch_up"]["match"], 0);
    }

    #[test]
    fn the_scrubber_marks_each_election_the_timeline_noted() {
        let mut t =
            Timeline::from_script("cluster voters=1,2,3\nwait-until leader\nwait 2s\n").unwrap();
        let leader = t.leader_changes()[0].id;
        t.command(&format!("crash {leader}")).unwrap();
        t.advance(5_000);
        let changes = t.leader_changes();
        assert_eq!(changes.len(), 2, "{changes:?}");
        assert_eq!(TimelineView::of(&t).leaders, changes);
    }

    #[test]
    fn the_next_id_skips_known_and_removed_members() {
        let s =
            session("cluster voters=1,2,3 seed=1\nwait-until leader\nwait 6s\nmember remove 3\n");
        assert_eq!(next_id(s.cluster()), Some(4));
        let full: Vec<String> = (1..=MAX_NODE_ID).map(|i| i.to_string()).collect();
        let s = session(&format!("cluster voters={}\n", full.join(",")));
        assert_eq!(next_id(s.cluster()), None);
    }

    #[test]
    fn the_page_status_is_the_report_plus_the_load() {
        let mut s = session("cluster voters=1,2,3 seed=1\nwait-until leader\n");
        let page = PageStatus {
            status: s.status(),
            load: LoadView::of(s.cluster()),
        };
        let json = serde_json::to_value(&page).unwrap();
        assert_eq!(json["load"], serde_json::Value::Null);
        assert_eq!(json["quorum"], 2);
        s.command("load rate=10/s size=100B").unwrap();
        s.advance(1000);
        let load = LoadView::of(s.cluster()).expect("a load runs");
        assert_eq!((load.size, load.sent), (100, 10));
        s.command("load stop").unwrap();
        assert_eq!(LoadView::of(s.cluster()), None);
    }
}
