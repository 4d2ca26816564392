//! The JSON report of a run (`raftlab run --json`) and the status object the
//! browser shows: field names and meanings are the contract in
//! `docs/scenario-language.md`. Structs, not maps, so fields keep their order.

use serde::Serialize;
use std::rc::Rc;

use crate::collections::heap::Meter;
use crate::raft::NodeId;
use crate::server::fleet::MAIN;
use crate::server::member_info::MemberInfo;
use crate::server::{Cluster, Fleet, MemberStatus, Mirror};
use crate::sim::linearizability::Linearizability;
use crate::sim::Envelope;

use crate::session::detail::failure_detail;
use crate::session::failure::Failure;
use crate::session::stop::Stop;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeStatus {
    pub id: NodeId,
    /// leader, follower, candidate, pre-candidate, or down.
    pub role: &'static str,
    pub learner: bool,
    pub running: bool,
    pub term: u64,
    pub vote: NodeId,
    pub commit: u64,
    pub applied: u64,
    pub last_index: u64,
    pub snapshot_index: u64,
    /// Removed from the cluster (its process stopped for good).
    pub removed: bool,
    /// Published itself at least once (etcd's "started" member).
    pub started: bool,
    /// Bytes waiting in its outgoing queues now.
    pub queued_bytes: u64,
    /// A read-only learner's read mode (`"weak"` or `"strong"`), else null
    /// (the document's read-only mode; etcd has none).
    pub read_only: Option<&'static str>,
    /// A standby learner, kept for failover (the document's standby mode).
    pub standby: bool,
    /// Raft messages delivered to it since the run began.
    pub msgs_in: u64,
    /// Raft messages it sent since the run began (lost ones too).
    pub msgs_out: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProgressStatus {
    pub id: NodeId,
    #[serde(rename = "match")]
    pub matched: u64,
    pub next: u64,
    /// probe, replicate, or snapshot.
    pub state: &'static str,
    pub learner: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ViolationStatus {
    pub time_ms: u64,
    pub property: &'static str,
    pub text: String,
    pub nodes: Vec<NodeId>,
}

/// The cluster at one moment: the report without its results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Status {
    pub time_ms: u64,
    pub leader: Option<NodeId>,
    pub term: u64,
    pub quorum: usize,
    pub voters: Vec<NodeId>,
    pub learners: Vec<NodeId>,
    /// While a joint change is in progress, the voters of the configuration
    /// being left (`voters` are those of the one being entered); omitted
    /// otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub voters_outgoing: Vec<NodeId>,
    pub nodes: Vec<NodeStatus>,
    pub progress: Vec<ProgressStatus>,
    pub violations: Vec<ViolationStatus>,
    /// The voters the leader (without a leader, the highest-term member) can
    /// exchange messages with now, itself included: compare its length with
    /// `quorum` to see whether the cluster can commit.
    pub reachable: Vec<NodeId>,
    /// The etcd release profile (`3.4`, `3.5` or `3.6`).
    pub etcd: &'static str,
    /// Every watch opened (`watch`), with the events it received; omitted
    /// when there is none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub watches: Vec<WatchJson>,
    /// Every cluster of the run, the first (`main`, whose fields are the
    /// ones above) first: one entry when there is one cluster.
    pub clusters: Vec<ClusterJson>,
    /// The mirror processes (`mirror start`); omitted when there is none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mirrors: Vec<MirrorJson>,
    /// Every Raft message in flight or held, of every cluster, each
    /// cluster's in send order.
    pub messages: Vec<MessageJson>,
}

/// One Raft message in the report's `messages` (and in the result of a
/// command that held, released, dropped or delivered messages).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MessageJson {
    /// Its number in its cluster's network, in send order (`drop A->B id=N`).
    pub id: u64,
    pub from: NodeId,
    pub to: NodeId,
    /// etcd-raft's message type as the language names it (`app`,
    /// `vote-resp`...).
    pub kind: &'static str,
    pub term: u64,
    pub index: u64,
    pub log_term: u64,
    /// How many entries it carries.
    pub entries: u64,
    pub commit: u64,
    pub reject: bool,
    pub bytes: u64,
    pub sent_ms: u64,
    /// When it arrives; absent while held, or while it waits in a stream
    /// queue whose bandwidth has not sent it yet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arrives_ms: Option<u64>,
    pub held: bool,
}

impl From<&Envelope> for MessageJson {
    fn from(e: &Envelope) -> MessageJson {
        MessageJson {
            id: e.id,
            from: e.from,
            to: e.to,
            kind: crate::lang::messages::kind_name(e.kind),
            term: e.term,
            index: e.index,
            log_term: e.log_term,
            entries: e.entries,
            commit: e.commit,
            reject: e.reject,
            bytes: e.bytes,
            sent_ms: e.sent_ms,
            arrives_ms: e.arrives_ms,
            held: e.held,
        }
    }
}

/// Every message of `cluster` in flight or held, in send order.
pub fn messages_of(cluster: &Cluster) -> impl Iterator<Item = MessageJson> + '_ {
    let net = cluster.world().network();
    net.in_flight()
        .map(move |f| MessageJson::from(&net.envelope(f)))
}

/// What a command of a hand on single messages did: the facts each
/// language says it with (the report's `detail` is the English).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandDone {
    /// `hold`: `from` to `to` (and back, `both`) is held, with `count`
    /// messages waiting on it.
    Held {
        from: NodeId,
        to: NodeId,
        both: bool,
        count: u64,
    },
    /// `release`: `count` messages delivered; `left` still held on the
    /// directions released.
    Released { count: u64, left: u64 },
    /// `drop`: `count` messages from `from` to `to` dropped.
    Dropped {
        from: NodeId,
        to: NodeId,
        count: u64,
    },
    /// `deliver-next`: one message of `kind` and `term`, delivered at `at_ms`.
    Delivered {
        from: NodeId,
        to: NodeId,
        kind: crate::raft::MessageType,
        term: u64,
        at_ms: u64,
    },
}

impl HandDone {
    /// The English words, the report's `detail`.
    pub fn english(&self) -> String {
        let plural = |n: u64| if n == 1 { "" } else { "s" };
        match *self {
            HandDone::Held {
                from,
                to,
                both,
                count,
            } => {
                let dirs = if both {
                    format!("{from}->{to} and {to}->{from} are held")
                } else {
                    format!("{from}->{to} is held")
                };
                let verb = if count == 1 { "waits" } else { "wait" };
                format!("{dirs}: {count} message{} {verb} there", plural(count))
            }
            HandDone::Released { count: 0, left: 0 } => "nothing was held".to_string(),
            HandDone::Released { count, left } => {
                let still = if left > 0 {
                    format!("; {left} still held")
                } else {
                    String::new()
                };
                format!("delivered {count} held message{}{still}", plural(count))
            }
            HandDone::Dropped { from, to, count } => format!(
                "dropped {count} message{} from {from} to {to}, each told to its sender",
                plural(count)
            ),
            HandDone::Delivered {
                from,
                to,
                kind,
                term,
                at_ms,
            } => format!(
                "delivered {} from {from} to {to} (term {term}) at {}",
                kind.name(),
                crate::lang::ast::format_duration(at_ms)
            ),
        }
    }
}
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClusterJson {
    pub name: String,
    pub leader: Option<NodeId>,
    pub term: u64,
    pub voters: Vec<NodeId>,
    pub learners: Vec<NodeId>,
    /// Its store's revision: the leader's, else the highest of its members'.
    pub revision: u64,
}

impl ClusterJson {
    pub fn of(name: &str, cluster: &Cluster) -> ClusterJson {
        let conf = cluster.configuration();
        ClusterJson {
            name: name.to_string(),
            leader: cluster.leader(),
            term: cluster.highest_term(),
            voters: conf.voters.into_iter().collect(),
            learners: conf.learners.into_iter().collect(),
            revision: cluster_revision(cluster),
        }
    }
}

/// A cluster's store revision: its leader's, else the highest of its
/// members' (what a client reading it now would see at best).
pub fn cluster_revision(cluster: &Cluster) -> u64 {
    reference_member(cluster)
        .and_then(|id| cluster.world().node(id))
        .map_or(1, |n| n.state.mvcc.rev())
}

/// The member whose store stands for the cluster's: the leader, else the
/// running member with the highest revision (the lowest id among equals),
/// else, with every member down, the stopped one with the highest.
pub fn reference_member(cluster: &Cluster) -> Option<NodeId> {
    let world = cluster.world();
    let rev = |id: NodeId| world.node(id).map(|n| n.state.mvcc.rev());
    let best = |running: bool| {
        cluster
            .known_ids()
            .into_iter()
            .filter(|&id| world.node(id).is_some_and(|n| n.raft.is_some() == running))
            .filter_map(|id| rev(id).map(|r| (r, std::cmp::Reverse(id))))
            .max()
            .map(|(_, std::cmp::Reverse(id))| id)
    };
    cluster
        .leader()
        .filter(|&l| rev(l).is_some())
        .or_else(|| best(true))
        .or_else(|| best(false))
}

/// One mirror process in the report's `mirrors`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MirrorJson {
    pub id: NodeId,
    /// The source member it reads and watches through.
    pub from: NodeId,
    /// The destination member it writes through.
    pub to: NodeId,
    /// The prefix it mirrors (null: every key).
    pub prefix: Option<String>,
    /// `syncing`, `watching`, `stopped` or `failed`.
    pub state: &'static str,
    /// The base sync's revision, once fixed.
    pub base_revision: Option<u64>,
    /// The last source revision whose write the destination took (the base
    /// revision once the base sync is done; 0 before).
    pub last_revision: u64,
    /// Why it failed: the error's code (`compacted`, `timeout`...), as a
    /// failed command's result names it; null.
    pub error: Option<&'static str>,
    /// etcd's text of that error, as etcdctl prints it; null.
    pub detail: Option<&'static str>,
}

impl From<&Mirror> for MirrorJson {
    fn from(m: &Mirror) -> MirrorJson {
        MirrorJson {
            id: m.id,
            from: m.from,
            to: m.to,
            prefix: m.prefix.clone(),
            state: m.state.as_str(),
            base_revision: m.base_revision,
            last_revision: m.last_relayed,
            error: m.error.as_ref().map(|e| e.code.as_str()),
            detail: m.error.as_ref().map(|e| e.code.etcd_text()),
        }
    }
}

/// One command's result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CommandResult {
    pub line: usize,
    pub command: String,
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// A `put`: the log index the write was committed at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<u64>,
    /// A `get`: the value read (null when the key is absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Option<String>>,
    /// A `get` or a `delete`: the store's revision when it answered (etcd's
    /// response header revision).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revision: Option<u64>,
    /// A `get`: the revision that wrote the value read (null when the key
    /// is absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mod_revision: Option<Option<u64>>,
    /// A `delete`: how many keys it deleted (0 or 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deleted: Option<u64>,
    /// A `watch`: its number (1 for the run's first), for `watch-events`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub watch: Option<u64>,
    /// A `watch`: the events it has received so far, updated as the run
    /// goes on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<WatchEventJson>>,
    /// A `watch` a compaction cancelled: the compaction's revision (etcd's
    /// `CompactRevision`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compact_revision: Option<u64>,
    /// A `put ... nowait` still waiting for its write.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pending: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Rc<Status>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub members: Option<Vec<MemberJson>>,
    /// A `status via=N`: member N's own status (behind a pointer: a rare
    /// result, and large beside the others).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member_status: Option<Rc<MemberStatus>>,
    /// `hold`, `release`, `drop`, `deliver-next`: the messages it held,
    /// delivered or dropped, as the report's `messages` lists them (`held`
    /// as they were before).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub messages: Option<Vec<MessageJson>>,
    /// What that command did, for each language's words.
    #[serde(skip)]
    pub hand: Option<HandDone>,
    /// Why it failed, as facts (its `error` and `detail` are made from it);
    /// the page renders it in the reader's language. Shared, not boxed: it
    /// never changes once set, and a result is copied (into the narration,
    /// a checkpoint) far more often than it fails; a copy counts a
    /// reference instead of running `Failure`'s derived `Clone`.
    #[serde(skip)]
    pub failure: Option<Rc<Failure>>,
}

impl CommandResult {
    pub fn new(line: usize, command: String) -> CommandResult {
        CommandResult {
            line,
            command,
            ok: true,
            error: None,
            detail: None,
            index: None,
            value: None,
            revision: None,
            mod_revision: None,
            deleted: None,
            watch: None,
            events: None,
            compact_revision: None,
            pending: false,
            status: None,
            members: None,
            member_status: None,
            messages: None,
            hand: None,
            failure: None,
        }
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }

    /// The command failed with `e`.
    pub fn fail(&mut self, e: impl Into<Failure>) {
        let f = e.into();
        self.ok = false;
        self.error = Some(f.code());
        self.detail = Some(failure_detail(&f));
        self.failure = Some(Rc::new(f));
    }

    /// Counts what the result owns (about: a recorded status by its lists).
    pub fn heap_size(&self, m: &mut Meter) {
        m.string(&self.command);
        if let Some(d) = &self.detail {
            m.string(d);
        }
        if let Some(Some(v)) = &self.value {
            m.string(v);
        }
        if let Some(s) = &self.status {
            m.add(std::mem::size_of::<Status>());
            m.vec(&s.nodes);
            m.vec(&s.progress);
            m.vec(&s.voters);
            m.vec(&s.learners);
            m.vec(&s.reachable);
            m.vec(&s.violations);
            m.vec(&s.messages);
        }
        if let Some(list) = &self.messages {
            m.vec(list);
        }
        if let Some(events) = &self.events {
            m.vec(events);
            for e in events {
                m.string(&e.key);
                if let Some(v) = &e.value {
                    m.string(v);
                }
            }
        }
        if let Some(list) = &self.members {
            m.vec(list);
            for member in list {
                m.string(&member.peer_url);
            }
        }
    }

    /// "error learner-not-ready: learner 4 match 3 < 90% of leader match 12",
    /// or "ok".
    pub fn summary(&self) -> String {
        match (self.error, &self.detail) {
            (Some(code), Some(d)) => format!("error {code}: {d}"),
            (Some(code), None) => format!("error {code}"),
            (None, _) if self.pending => "sent, not waited for".to_string(),
            (None, Some(d)) => format!("ok: {d}"),
            (None, None) => "ok".to_string(),
        }
    }
}

/// One event a watch received (etcd's `mvccpb.Event`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WatchEventJson {
    /// The revision of the write (the key's `mod_revision`).
    pub revision: u64,
    /// `put` or `delete`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub key: String,
    /// The value written; null for a delete.
    pub value: Option<String>,
    /// The key's version after a put (1 for a new key); null for a delete.
    pub version: Option<u64>,
}

impl From<&crate::sim::mvcc::Event> for WatchEventJson {
    fn from(e: &crate::sim::mvcc::Event) -> WatchEventJson {
        let put = e.kind == crate::sim::mvcc::EventType::Put;
        WatchEventJson {
            revision: e.revision(),
            kind: e.kind.as_str(),
            key: e.kv.key.to_string(),
            value: put.then(|| e.kv.value.to_string()),
            version: put.then_some(e.kv.version),
        }
    }
}

/// A watch in the report's `watches`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WatchJson {
    /// Its number: 1 for the run's first `watch` (mirrors' watches count too).
    pub id: u64,
    /// The member whose store it watches.
    pub node: NodeId,
    pub key: String,
    pub prefix: bool,
    /// The revision it was asked to start from (0: the next write).
    pub start_revision: u64,
    /// The revision it wants next.
    pub next_revision: u64,
    pub events: Vec<WatchEventJson>,
    /// Cancelled because the history it needed was compacted.
    pub canceled: bool,
    /// That compaction's revision.
    pub compact_revision: Option<u64>,
}

impl From<&crate::sim::world::NodeWatch> for WatchJson {
    fn from(w: &crate::sim::world::NodeWatch) -> WatchJson {
        let (key, prefix) = match &w.watcher.range {
            crate::sim::mvcc::KeyRange::Key(k) => (k.clone(), false),
            crate::sim::mvcc::KeyRange::Prefix(p) => (p.clone(), true),
        };
        WatchJson {
            id: w.id,
            node: w.node,
            key,
            prefix,
            start_revision: w.watcher.start_rev,
            next_revision: w.watcher.min_rev,
            events: w.events.iter().map(WatchEventJson::from).collect(),
            canceled: w.canceled.is_some(),
            compact_revision: w.canceled,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MemberJson {
    pub id: NodeId,
    pub peer_url: String,
    pub learner: bool,
    pub started: bool,
    /// Its client URLs are known (etcdctl prints them); the report keeps
    /// the spec's four fields.
    #[serde(skip)]
    pub published: bool,
}

impl From<MemberInfo> for MemberJson {
    fn from(m: MemberInfo) -> MemberJson {
        MemberJson {
            id: m.id,
            peer_url: m.peer_url,
            learner: m.learner,
            started: m.started,
            published: m.published,
        }
    }
}

/// The whole report of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub time_ms: u64,
    pub leader: Option<NodeId>,
    pub term: u64,
    pub quorum: usize,
    pub voters: Vec<NodeId>,
    pub learners: Vec<NodeId>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub voters_outgoing: Vec<NodeId>,
    pub nodes: Vec<NodeStatus>,
    pub progress: Vec<ProgressStatus>,
    pub results: Vec<CommandResult>,
    pub violations: Vec<ViolationStatus>,
    pub reachable: Vec<NodeId>,
    pub etcd: &'static str,
    /// Every watch opened, with its events; omitted when there is none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub watches: Vec<WatchJson>,
    /// Every cluster of the run (`main` first): name, leader, term, voters,
    /// learners, revision. One entry when there is one cluster.
    pub clusters: Vec<ClusterJson>,
    /// The mirror processes; omitted when there is none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mirrors: Vec<MirrorJson>,
    /// Present only when the run was stopped before the end of its script
    /// (`raftlab run --max-wall`, the memory budget, a cancel in the page):
    /// why, and where. The rest of the report is the run up to the last
    /// command that finished.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stop>,
    /// Whether the history of client operations (every `put`, `get` and
    /// load write) is linearizable per key, and if not, a smallest anomaly.
    pub linearizability: Linearizability,
    /// Every Raft message in flight or held at the end of the run.
    pub messages: Vec<MessageJson>,
}

impl Report {
    pub fn new(
        status: Status,
        results: Vec<CommandResult>,
        linearizability: Linearizability,
    ) -> Report {
        Report {
            time_ms: status.time_ms,
            leader: status.leader,
            term: status.term,
            quorum: status.quorum,
            voters: status.voters,
            learners: status.learners,
            voters_outgoing: status.voters_outgoing,
            nodes: status.nodes,
            progress: status.progress,
            results,
            violations: status.violations,
            reachable: status.reachable,
            etcd: status.etcd,
            watches: status.watches,
            clusters: status.clusters,
            mirrors: status.mirrors,
            stopped: None,
            linearizability,
            messages: status.messages,
        }
    }
}

/// The status of `cluster` now.
pub fn status(cluster: &Cluster) -> Status {
    let world = cluster.world();
    let conf = cluster.configuration();
    let nodes = cluster
        .known_ids()
        .into_iter()
        .map(|id| node_status(cluster, id))
        .collect();
    let progress = cluster
        .leader_raft()
        .map(|r| {
            r.tracker()
                .progress
                .iter()
                .filter(|(&id, _)| id != r.id())
                .map(|(&id, p)| ProgressStatus {
                    id,
                    matched: p.matched,
                    next: p.next_idx,
                    state: p.state.name(),
                    learner: p.is_learner,
                })
                .collect()
        })
        .unwrap_or_default();
    Status {
        time_ms: world.now(),
        leader: cluster.leader(),
        term: cluster.highest_term(),
        quorum: cluster.majority(),
        voters: conf.voters.into_iter().collect(),
        learners: conf.learners.into_iter().collect(),
        voters_outgoing: conf.voters_outgoing.into_iter().collect(),
        nodes,
        progress,
        violations: world
            .violations()
            .iter()
            .map(|v| ViolationStatus {
                time_ms: v.time_ms,
                property: v.property,
                text: v.text.clone(),
                nodes: v.nodes.clone(),
            })
            .collect(),
        reachable: cluster.reachable_voters(),
        etcd: cluster.config().release.as_str(),
        watches: world.watches().iter().map(WatchJson::from).collect(),
        clusters: vec![ClusterJson::of(MAIN, cluster)],
        mirrors: Vec::new(),
        messages: messages_of(cluster).collect(),
    }
}

/// The status of a run of several clusters: the first cluster's, with every
/// cluster in `clusters` and the mirror processes.
pub fn fleet_status(fleet: &Fleet) -> Status {
    let mut s = status(fleet.main());
    s.time_ms = fleet.now();
    s.clusters = fleet
        .clusters()
        .iter()
        .enumerate()
        .map(|(i, c)| ClusterJson::of(fleet.name(i), c))
        .collect();
    s.mirrors = fleet.mirrors().iter().map(MirrorJson::from).collect();
    if fleet.len() > 1 {
        s.messages = fleet.clusters().iter().flat_map(messages_of).collect();
    }
    s
}

/// One node's line of the status: a running node's own numbers, a stopped
/// one's from what it kept on disk.
fn node_status(cluster: &Cluster, id: NodeId) -> NodeStatus {
    let node = cluster.world().node(id);
    let base = NodeStatus {
        id,
        role: "down",
        learner: cluster.is_learner(id),
        running: false,
        term: 0,
        vote: 0,
        commit: 0,
        applied: 0,
        last_index: 0,
        snapshot_index: 0,
        removed: node.is_some_and(|n| n.removed),
        started: cluster.member(id).is_some_and(|m| m.started),
        queued_bytes: cluster.queued_bytes(id, cluster.world().now()),
        read_only: cluster.member_kind(id).read_only.map(|m| m.as_str()),
        standby: cluster.member_kind(id).standby,
        msgs_in: cluster.message_counts(id).received,
        msgs_out: cluster.message_counts(id).sent,
    };
    let Some(n) = node else {
        return base;
    };
    match &n.raft {
        Some(r) => NodeStatus {
            role: r.role().name(),
            running: true,
            term: r.term(),
            vote: r.vote(),
            commit: r.commit(),
            applied: r.applied(),
            last_index: r.last_index(),
            snapshot_index: r.snapshot_index(),
            ..base
        },
        None => {
            let d = &n.durable;
            let snap = d.snapshot.metadata.index;
            NodeStatus {
                term: d.hard_state.term,
                vote: d.hard_state.vote,
                commit: d.hard_state.commit,
                applied: 0,
                last_index: d.entries.last().map_or(snap, |e| e.index),
                snapshot_index: snap,
                ..base
            }
        }
    }
}
