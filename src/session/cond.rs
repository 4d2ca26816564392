//! Evaluating the conditions of `expect` and `wait-until` against the
//! cluster. Each answer comes with what was actually seen, so a failed
//! expectation explains itself.

use crate::collections::vecmap::VecSet;
use crate::raft::{NodeId, StateRole};
use crate::server::{Cluster, Fleet, SelfView};

use crate::sim::linearizability::{Anomaly, OpName};
use crate::sim::MessageCounts;

use crate::lang::ast::{
    Bound, Condition, MsgDir, ProgressName, RoleName, MAX_NODE_ID, MIN_NODE_ID,
};

/// Every node's message counts at one moment (ids 1..=15; a node never
/// started counts nothing).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts(Vec<MessageCounts>);

impl Counts {
    pub fn now(cluster: &Cluster) -> Counts {
        Counts(
            (MIN_NODE_ID..=MAX_NODE_ID)
                .map(|id| cluster.message_counts(id))
                .collect(),
        )
    }

    /// Every node's counts now, each counted in its own cluster.
    pub fn now_in(fleet: &Fleet) -> Counts {
        Counts(
            (MIN_NODE_ID..=MAX_NODE_ID)
                .map(|id| {
                    let k = fleet.cluster_of(id).unwrap_or(0);
                    fleet.cluster(k).message_counts(id)
                })
                .collect(),
        )
    }

    /// What was sent and received from `earlier` to `self`.
    pub fn since(&self, earlier: &Counts) -> Counts {
        let zero = MessageCounts::default();
        Counts(
            self.0
                .iter()
                .enumerate()
                .map(|(i, now)| {
                    let then = earlier.0.get(i).unwrap_or(&zero);
                    MessageCounts {
                        sent: now.sent.saturating_sub(then.sent),
                        received: now.received.saturating_sub(then.received),
                    }
                })
                .collect(),
        )
    }

    fn of(&self, id: NodeId) -> MessageCounts {
        id.checked_sub(MIN_NODE_ID)
            .and_then(|i| self.0.get(usize::try_from(i).ok()?))
            .copied()
            .unwrap_or_default()
    }
}

/// The result of the previous command, for `ok`, `error=CODE`, `value=TEXT`
/// and `absent`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Previous {
    /// No command that can fail has run yet.
    #[default]
    None,
    Ok,
    /// A `get` that answered: the value it read (`None`: no such key).
    Read(Option<String>),
    Error(&'static str),
}

impl Previous {
    /// Its error code, if it failed.
    pub fn error(&self) -> Option<&'static str> {
        match self {
            Previous::Error(code) => Some(code),
            _ => None,
        }
    }
}

/// What was true instead of a condition: the facts a failed `expect` or
/// `wait-until` says (in each language's words, `text_en` and `text_ja`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unmet {
    NoLeader,
    LeaderIs(NodeId),
    /// The leader's match for `id` is `matched` of its last index `last`.
    Match {
        id: NodeId,
        matched: u64,
        last: u64,
    },
    /// The leader tracks no progress for this node.
    NotTracked(NodeId),
    /// The leader's commit, and the nodes it reaches that applied less
    /// (each with what it applied).
    NotApplied {
        commit: u64,
        behind: Vec<(NodeId, u64)>,
    },
    Quorum(usize),
    /// The actual voters, learners or outgoing voters.
    Set {
        set: SetName,
        actual: Vec<NodeId>,
    },
    /// The highest term.
    Term(u64),
    /// The leader's commit index.
    Commit(u64),
    /// Node `id`'s role ("leader", "down"...).
    Role {
        id: NodeId,
        actual: &'static str,
    },
    /// How node `id` sees itself; `None` while it is not running.
    SeesItself {
        id: NodeId,
        actual: Option<SelfView>,
    },
    /// The leader's progress state for `id` ("replicate"...).
    Progress {
        id: NodeId,
        actual: &'static str,
    },
    NoPrevious,
    /// The previous command failed with this code.
    PreviousFailed(&'static str),
    PreviousSucceeded,
    /// The previous command was not a `get` that answered.
    PreviousNotGet,
    /// What the previous `get` read (`None`: no such key).
    PreviousRead(Option<String>),
    /// The history is not linearizable: the anomaly, if the checker found
    /// one to show.
    Anomaly(Option<Box<Anomaly>>),
    /// The history of `operations` on `keys` keys is linearizable.
    Linearizable {
        operations: usize,
        keys: usize,
    },
    NoWatch(u64),
    /// Mirror process `id` failed with `code` (`None`: it has not failed,
    /// or there is none).
    MirrorError {
        id: NodeId,
        code: Option<&'static str>,
    },
    /// Mirror process `id` is in state `actual` (`None`: there is none).
    Mirror {
        id: NodeId,
        actual: Option<&'static str>,
    },
    /// Watch `watch` has received `events` events.
    WatchEvents {
        watch: u64,
        events: u64,
    },
    /// Watch `watch` is still open after `events` events.
    WatchOpen {
        watch: u64,
        events: usize,
    },
    /// A send queue holds `queued` bytes: node `node`'s (`named`), or the
    /// leader's.
    Queued {
        node: NodeId,
        named: bool,
        queued: u64,
    },
    /// Node `id` sent (`out`) or received `count` messages during the
    /// previous command.
    Messages {
        id: NodeId,
        out: bool,
        count: u64,
    },
    /// `count` messages are held (`held`), or in flight and not held, on
    /// the direction `from` to `to`.
    OnLink {
        from: NodeId,
        to: NodeId,
        held: bool,
        count: u64,
    },
}

/// The sets of members a condition names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetName {
    Voters,
    Learners,
    OutgoingVoters,
}

impl Unmet {
    /// One sample of every kind, for the tests that every renderer says each.
    pub fn samples() -> Vec<Unmet> {
        use crate::sim::linearizability::OperationView;
        let op = |kind, value: Option<&str>, response_ms| OperationView {
            index: 0,
            client: Default::default(),
            kind,
            value: value.map(str::to_string),
            invoke_ms: 1000,
            response_ms,
        };
        vec![
            Unmet::NoLeader,
            Unmet::LeaderIs(2),
            Unmet::Match {
                id: 4,
                matched: 3,
                last: 9,
            },
            Unmet::NotTracked(4),
            Unmet::NotApplied {
                commit: 9,
                behind: vec![(2, 7), (3, 8)],
            },
            Unmet::Quorum(2),
            Unmet::Set {
                set: SetName::Voters,
                actual: vec![1, 2],
            },
            Unmet::Set {
                set: SetName::Learners,
                actual: vec![],
            },
            Unmet::Set {
                set: SetName::OutgoingVoters,
                actual: vec![3],
            },
            Unmet::Term(3),
            Unmet::Commit(5),
            Unmet::Role {
                id: 2,
                actual: "follower",
            },
            Unmet::SeesItself {
                id: 3,
                actual: Some(SelfView::Learner),
            },
            Unmet::SeesItself {
                id: 3,
                actual: Some(SelfView::Voter),
            },
            Unmet::SeesItself {
                id: 3,
                actual: Some(SelfView::Outside),
            },
            Unmet::SeesItself {
                id: 3,
                actual: None,
            },
            Unmet::Progress {
                id: 4,
                actual: "probe",
            },
            Unmet::NoPrevious,
            Unmet::PreviousFailed("no-leader"),
            Unmet::PreviousSucceeded,
            Unmet::PreviousNotGet,
            Unmet::PreviousRead(Some("1".into())),
            Unmet::PreviousRead(None),
            Unmet::Anomaly(Some(Box::new(Anomaly {
                key: "a".into(),
                operations: vec![
                    op(OpName::Write, Some("2"), Some(1050)),
                    op(OpName::Read, Some("1"), None),
                    op(OpName::Read, None, Some(1100)),
                    op(OpName::Delete, None, Some(1200)),
                ],
            }))),
            Unmet::Anomaly(None),
            Unmet::Linearizable {
                operations: 4,
                keys: 1,
            },
            Unmet::NoWatch(2),
            Unmet::Mirror {
                id: 9,
                actual: None,
            },
            Unmet::Mirror {
                id: 9,
                actual: Some("watching"),
            },
            Unmet::MirrorError { id: 9, code: None },
            Unmet::MirrorError {
                id: 9,
                code: Some("timeout"),
            },
            Unmet::WatchEvents {
                watch: 1,
                events: 3,
            },
            Unmet::WatchOpen {
                watch: 1,
                events: 2,
            },
            Unmet::Queued {
                node: 2,
                named: true,
                queued: 512,
            },
            Unmet::Queued {
                node: 1,
                named: false,
                queued: 512,
            },
            Unmet::Messages {
                id: 2,
                out: true,
                count: 4,
            },
            Unmet::Messages {
                id: 2,
                out: false,
                count: 4,
            },
            Unmet::OnLink {
                from: 1,
                to: 2,
                held: true,
                count: 3,
            },
            Unmet::OnLink {
                from: 1,
                to: 2,
                held: false,
                count: 1,
            },
        ]
    }
}

/// Why `value=` or `absent` cannot hold: the previous command was no `get`
/// that answered.
fn no_read(previous: &Previous) -> Unmet {
    match previous {
        Previous::None => Unmet::NoPrevious,
        Previous::Ok => Unmet::PreviousNotGet,
        Previous::Error(code) => Unmet::PreviousFailed(code),
        Previous::Read(v) => Unmet::PreviousRead(v.clone()),
    }
}

/// The node a condition is about, if it names one: the condition looks at
/// that node's cluster (the others look at the first cluster).
pub fn node_named(cond: &Condition) -> Option<NodeId> {
    match cond {
        Condition::LeaderIs(id)
        | Condition::CaughtUp(id)
        | Condition::Role { id, .. }
        | Condition::SeesItself { id, .. }
        | Condition::Progress { id, .. }
        | Condition::MatchShare { id, .. }
        | Condition::Messages { id, .. } => Some(*id),
        Condition::Held { from, .. } | Condition::InFlight { from, .. } => Some(*from),
        Condition::Queued { id, .. } => *id,
        Condition::Voters(ids) | Condition::Learners(ids) | Condition::VotersOutgoing(ids) => {
            ids.first().copied()
        }
        _ => None,
    }
}

/// Checks a condition in a run of several clusters: one naming a node looks
/// at that node's cluster, `mirror M=STATE` at the mirror processes, any
/// other at the first cluster.
pub fn check_in(
    cond: &Condition,
    fleet: &Fleet,
    previous: &Previous,
    spent: Option<&Counts>,
) -> Result<(), Unmet> {
    if let Condition::MirrorError { id, code } = cond {
        let actual = fleet
            .mirror(*id)
            .and_then(|m| m.error.as_ref())
            .map(|e| e.code);
        return match actual {
            Some(c) if c == *code => Ok(()),
            _ => Err(Unmet::MirrorError {
                id: *id,
                code: actual.map(|c| c.as_str()),
            }),
        };
    }
    if let Condition::Mirror { id, state } = cond {
        let actual = fleet.mirror(*id).map(|m| m.state);
        return match actual {
            Some(s) if s == *state => Ok(()),
            _ => Err(Unmet::Mirror {
                id: *id,
                actual: actual.map(|s| s.as_str()),
            }),
        };
    }
    let k = node_named(cond)
        .and_then(|id| fleet.cluster_of(id))
        .unwrap_or(0);
    check(cond, fleet.cluster(k), previous, spent)
}

/// Whether `cond` holds now; on false, what is true instead.
///
/// `spent`: the messages each node sent and received while the previous
/// command ran (`None`: no command that can fail has run yet).
pub fn check(
    cond: &Condition,
    cluster: &Cluster,
    previous: &Previous,
    spent: Option<&Counts>,
) -> Result<(), Unmet> {
    let leader = cluster.leader();
    let leader_text = |l: Option<NodeId>| l.map_or(Unmet::NoLeader, Unmet::LeaderIs);
    match cond {
        Condition::Leader => holds(leader.is_some(), Unmet::NoLeader),
        Condition::LeaderIs(n) => holds(leader == Some(*n), leader_text(leader)),
        Condition::NoLeader => holds(leader.is_none(), leader_text(leader)),
        Condition::CaughtUp(n) => leader_match(cluster, *n, &|matched, last| matched == last),
        // In whole numbers: match / last against percent / 100.
        Condition::MatchShare { id, bound, percent } => {
            leader_match(cluster, *id, &|matched, last| {
                bound.holds(matched.saturating_mul(100), percent.saturating_mul(last))
            })
        }
        Condition::AllApplied => all_applied(cluster, leader),
        Condition::CommitAtLeast(i) => commit_at_least(cluster, *i),
        Condition::Term(t) => term(cluster, &|term| term == *t),
        Condition::TermAtLeast(t) => term(cluster, &|term| term >= *t),
        Condition::Role { id, role } => role_is(cluster, *id, *role),
        Condition::SeesItself { id, learner } => sees_itself(cluster, *id, *learner),
        Condition::Progress { id, state } => progress_is(cluster, *id, *state),
        Condition::Quorum(q) => {
            let quorum = cluster.majority();
            holds(quorum as u64 == *q, Unmet::Quorum(quorum))
        }
        Condition::Voters(list) => same_set(list, cluster, SetName::Voters),
        Condition::Learners(list) => same_set(list, cluster, SetName::Learners),
        Condition::VotersOutgoing(list) => same_set(list, cluster, SetName::OutgoingVoters),
        Condition::Ok => previous_ok(previous),
        Condition::Error(code) => previous_failed_with(previous, code.as_str()),
        Condition::Value(text) => match previous {
            Previous::Read(Some(v)) if v == text => Ok(()),
            other => Err(no_read(other)),
        },
        Condition::Absent => match previous {
            Previous::Read(None) => Ok(()),
            other => Err(no_read(other)),
        },
        Condition::Linearizable => {
            let v = cluster.linearizability();
            holds(v.ok, Unmet::Anomaly(v.anomaly.map(Box::new)))
        }
        Condition::NotLinearizable => not_linearizable(cluster),
        Condition::WatchEvents {
            watch,
            bound,
            count,
        } => watch_events(cluster, *watch, *bound, *count),
        Condition::WatchCanceled(watch) => watch_canceled(cluster, *watch),
        // A cluster alone has no mirror processes: `check_in` looks.
        Condition::Mirror { id, .. } => Err(Unmet::Mirror {
            id: *id,
            actual: None,
        }),
        Condition::MirrorError { id, .. } => Err(Unmet::MirrorError {
            id: *id,
            code: None,
        }),
        Condition::Queued { id, bound, bytes } => {
            queued(cluster, id.or(leader), id.is_some(), *bound, *bytes)
        }
        Condition::Messages {
            id,
            dir,
            bound,
            count,
        } => messages(spent, *id, *dir, *bound, *count),
        Condition::Held {
            from,
            to,
            bound,
            count,
        }
        | Condition::InFlight {
            from,
            to,
            bound,
            count,
        } => on_link(
            cluster,
            *from,
            *to,
            matches!(cond, Condition::Held { .. }),
            *bound,
            *count,
        ),
    }
}

/// `held A->B` (`held`) or `in-flight A->B`: how many messages are held,
/// or on their way and not held, on the direction, within `bound` of
/// `count`. On a held direction every message is held; on another, none.
fn on_link(
    cluster: &Cluster,
    from: NodeId,
    to: NodeId,
    held: bool,
    bound: crate::lang::ast::Bound,
    count: u64,
) -> Result<(), Unmet> {
    let net = cluster.world().network();
    let n = if net.is_held(from, to) == held {
        net.on_link(from, to).count() as u64
    } else {
        0
    };
    holds(
        bound.holds(n, count),
        Unmet::OnLink {
            from,
            to,
            held,
            count: n,
        },
    )
}

/// `Ok(())` if `ok`, else what was true instead.
fn holds(ok: bool, otherwise: Unmet) -> Result<(), Unmet> {
    if ok {
        Ok(())
    } else {
        Err(otherwise)
    }
}

// ---- the leader, its log and its followers ----

/// `all-applied`: every node the leader reaches applied its commit.
fn all_applied(cluster: &Cluster, leader: Option<NodeId>) -> Result<(), Unmet> {
    let Some(l) = leader else {
        return Err(Unmet::NoLeader);
    };
    let world = cluster.world();
    let commit = world.raft(l).map_or(0, |r| r.commit());
    let behind: Vec<(NodeId, u64)> = world
        .nodes()
        .filter(|n| n.id == l || world.connected_since(l, n.id).is_some())
        .filter_map(|n| n.raft.as_ref())
        .filter(|r| r.applied() < commit)
        .map(|r| (r.id(), r.applied()))
        .collect();
    holds(behind.is_empty(), Unmet::NotApplied { commit, behind })
}

/// `commit>=I`: the leader's commit index.
fn commit_at_least(cluster: &Cluster, i: u64) -> Result<(), Unmet> {
    let Some(r) = cluster.leader_raft() else {
        return Err(Unmet::NoLeader);
    };
    holds(r.commit() >= i, Unmet::Commit(r.commit()))
}

/// `term=T`, `term>=T`: the highest term, judged by `ok`.
fn term(cluster: &Cluster, ok: &dyn Fn(u64) -> bool) -> Result<(), Unmet> {
    let term = cluster.highest_term();
    holds(ok(term), Unmet::Term(term))
}

/// `role N=ROLE`: node `id`'s role (`down` if it is not running).
fn role_is(cluster: &Cluster, id: NodeId, role: RoleName) -> Result<(), Unmet> {
    let actual = cluster
        .role(id)
        .map_or(RoleName::Down.as_str(), StateRole::name);
    holds(actual == role.as_str(), Unmet::Role { id, actual })
}

/// `sees-itself N=learner|voter`: what node `id`'s own configuration makes
/// it (etcd-raft's `isLearner`, and its voters).
fn sees_itself(cluster: &Cluster, id: NodeId, learner: bool) -> Result<(), Unmet> {
    self_view_is(id, cluster.sees_itself(id), learner)
}

/// `sees-itself N=learner|voter` against what node `id` takes itself for
/// (`None`: down), in raftlab or on a real member.
pub fn self_view_is(id: NodeId, actual: Option<SelfView>, learner: bool) -> Result<(), Unmet> {
    let wanted = if learner {
        SelfView::Learner
    } else {
        SelfView::Voter
    };
    holds(actual == Some(wanted), Unmet::SeesItself { id, actual })
}

/// `progress N=STATE`: the leader's progress state for `id`.
fn progress_is(cluster: &Cluster, id: NodeId, state: ProgressName) -> Result<(), Unmet> {
    if cluster.leader_raft().is_none() {
        return Err(Unmet::NoLeader);
    }
    match cluster.progress(id) {
        Some(p) => {
            let actual = p.state.name();
            holds(actual == state.as_str(), Unmet::Progress { id, actual })
        }
        None => Err(Unmet::NotTracked(id)),
    }
}

// ---- the previous command ----

/// `ok`: the previous command that can fail did not.
fn previous_ok(previous: &Previous) -> Result<(), Unmet> {
    match previous {
        Previous::Ok | Previous::Read(_) => Ok(()),
        Previous::Error(code) => Err(Unmet::PreviousFailed(code)),
        Previous::None => Err(Unmet::NoPrevious),
    }
}

/// `error=CODE`: the previous command that can fail failed with `code`.
fn previous_failed_with(previous: &Previous, code: &str) -> Result<(), Unmet> {
    match previous {
        Previous::Error(c) if *c == code => Ok(()),
        Previous::Error(c) => Err(Unmet::PreviousFailed(c)),
        Previous::Ok | Previous::Read(_) => Err(Unmet::PreviousSucceeded),
        Previous::None => Err(Unmet::NoPrevious),
    }
}

// ---- the history, watches and traffic ----

/// `not-linearizable`: the checker found an anomaly.
fn not_linearizable(cluster: &Cluster) -> Result<(), Unmet> {
    let v = cluster.linearizability();
    holds(
        !v.ok,
        Unmet::Linearizable {
            operations: v.operations,
            keys: v.keys,
        },
    )
}

/// `watch-events W=N` (or `>=`, `<=`): the events watch `watch` received.
fn watch_events(
    cluster: &Cluster,
    watch: u64,
    bound: Option<Bound>,
    count: u64,
) -> Result<(), Unmet> {
    let Some(w) = cluster.world().watch_of(watch) else {
        return Err(Unmet::NoWatch(watch));
    };
    let n = w.events.len() as u64;
    let ok = match bound {
        Some(b) => b.holds(n, count),
        None => n == count,
    };
    holds(ok, Unmet::WatchEvents { watch, events: n })
}

/// `watch-canceled W`: etcd cancelled watch `watch`.
fn watch_canceled(cluster: &Cluster, watch: u64) -> Result<(), Unmet> {
    let Some(w) = cluster.world().watch_of(watch) else {
        return Err(Unmet::NoWatch(watch));
    };
    holds(
        w.canceled.is_some(),
        Unmet::WatchOpen {
            watch,
            events: w.events.len(),
        },
    )
}

/// `queued>=SIZE`, `queued N<=SIZE`...: the bytes in `node`'s send queue
/// (`named`: the condition named it; else it is the leader, if any).
fn queued(
    cluster: &Cluster,
    node: Option<NodeId>,
    named: bool,
    bound: Bound,
    bytes: u64,
) -> Result<(), Unmet> {
    let Some(node) = node else {
        return Err(Unmet::NoLeader);
    };
    let queued = cluster.queued_bytes(node, cluster.now());
    holds(
        bound.holds(queued, bytes),
        Unmet::Queued {
            node,
            named,
            queued,
        },
    )
}

/// `msgs-out N=K`, `msgs-in N>=K`...: what node `id` sent or received
/// while the previous command ran.
fn messages(
    spent: Option<&Counts>,
    id: NodeId,
    dir: MsgDir,
    bound: Bound,
    count: u64,
) -> Result<(), Unmet> {
    let Some(spent) = spent else {
        return Err(Unmet::NoPrevious);
    };
    let c = spent.of(id);
    let (n, out) = match dir {
        MsgDir::Out => (c.sent, true),
        MsgDir::In => (c.received, false),
    };
    holds(bound.holds(n, count), Unmet::Messages { id, out, count: n })
}

/// The leader's match index for `id` and its own last index, judged by
/// `ok` (`caught-up=N`, `match N>=P%`); what they are when it fails.
fn leader_match(cluster: &Cluster, id: NodeId, ok: &dyn Fn(u64, u64) -> bool) -> Result<(), Unmet> {
    let Some(r) = cluster.leader_raft() else {
        return Err(Unmet::NoLeader);
    };
    let last = r.last_index();
    match r.tracker().progress.get(&id) {
        Some(p) if ok(p.matched, last) => Ok(()),
        Some(p) => Err(Unmet::Match {
            id,
            matched: p.matched,
            last,
        }),
        None => Err(Unmet::NotTracked(id)),
    }
}

/// `voters=...`, `learners=...`, `voters-outgoing=...`: the cluster's
/// configuration holds exactly `expected` in `set`.
fn same_set(expected: &[NodeId], cluster: &Cluster, set: SetName) -> Result<(), Unmet> {
    let conf = cluster.configuration();
    let actual: Vec<NodeId> = match set {
        SetName::Voters => conf.voters.into_iter().collect(),
        SetName::Learners => conf.learners.into_iter().collect(),
        SetName::OutgoingVoters => conf.voters_outgoing.into_iter().collect(),
    };
    let actual = &actual[..];
    let a: VecSet<_> = expected.iter().copied().collect();
    let b: VecSet<_> = actual.iter().copied().collect();
    if a == b {
        Ok(())
    } else {
        Err(Unmet::Set {
            set,
            actual: actual.to_vec(),
        })
    }
}
