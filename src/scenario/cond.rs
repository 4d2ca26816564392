//! Evaluating the conditions of `expect` and `wait-until` against the
//! cluster. Each answer comes with what was actually seen, so a failed
//! expectation explains itself.

use crate::raft::vecmap::VecSet;
use crate::raft::{NodeId, StateRole};
use crate::server::Cluster;

use crate::sim::linearizability::{Linearizability, OpName};
use crate::sim::MessageCounts;

use super::ast::{format_quoted, Condition, MsgDir, RoleName, MAX_NODE_ID, MIN_NODE_ID};

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

/// The value a `get` read, for the reader: `"1"`, or "no such key".
fn read_text(value: &Option<String>) -> String {
    match value {
        Some(v) => format!("the previous get read {}", format_quoted(v)),
        None => "the previous get found no such key".to_string(),
    }
}

/// Why `value=` or `absent` cannot hold: the previous command was no `get`
/// that answered.
fn no_read(previous: &Previous) -> String {
    match previous {
        Previous::None => "there is no previous command".into(),
        Previous::Ok => "the previous command was not a get".into(),
        Previous::Error(code) => format!("the previous command failed with {code}"),
        Previous::Read(v) => read_text(v),
    }
}

/// The operations of an anomaly, as a failed expectation says them:
/// `write "2" (1.00–1.05s), read "1" (1.10–1.10s)`.
fn anomaly_text(v: &Linearizability) -> String {
    let Some(a) = &v.anomaly else {
        return String::new();
    };
    let ops: Vec<String> = a
        .operations
        .iter()
        .map(|op| {
            let what = match (op.kind, &op.value) {
                (OpName::Write, Some(v)) => format!("write {}", format_quoted(v)),
                (OpName::Read, Some(v)) => format!("read {}", format_quoted(v)),
                (OpName::Read, None) => "read (absent)".to_string(),
                (OpName::Write, None) | (OpName::Delete, _) => "delete".to_string(),
            };
            let end = op.response_ms.map_or("no answer".to_string(), |r| {
                format!("{:.2}s", r as f64 / 1000.0)
            });
            format!("{what} ({:.2}s–{end})", op.invoke_ms as f64 / 1000.0)
        })
        .collect();
    format!(
        "operations on key {} that no order explains: {}",
        format_quoted(&a.key),
        ops.join(", ")
    )
}

/// Whether `cond` holds now; on false, a sentence saying what is true instead.
///
/// `spent`: the messages each node sent and received while the previous
/// command ran (`None`: no command that can fail has run yet).
pub fn check(
    cond: &Condition,
    cluster: &Cluster,
    previous: &Previous,
    spent: Option<&Counts>,
) -> Result<(), String> {
    let leader = cluster.leader();
    let leader_text = |l: Option<NodeId>| {
        l.map_or("there is no leader".to_string(), |l| {
            format!("the leader is {l}")
        })
    };
    let holds = |ok: bool, otherwise: String| if ok { Ok(()) } else { Err(otherwise) };
    match cond {
        Condition::Leader => holds(leader.is_some(), "there is no leader".into()),
        Condition::LeaderIs(n) => holds(leader == Some(*n), leader_text(leader)),
        Condition::NoLeader => holds(leader.is_none(), leader_text(leader)),
        Condition::CaughtUp(n) => {
            let Some(r) = cluster.leader_raft() else {
                return Err("there is no leader".into());
            };
            let last = r.last_index();
            match r.tracker().progress.get(n) {
                Some(p) => holds(
                    p.matched == last,
                    format!("the leader's match for {n} is {} of {last}", p.matched),
                ),
                None => Err(format!("the leader tracks no progress for {n}")),
            }
        }
        Condition::AllApplied => {
            let Some(l) = leader else {
                return Err("there is no leader".into());
            };
            let world = cluster.world();
            let commit = world.raft(l).map_or(0, |r| r.commit());
            let behind: Vec<String> = world
                .nodes()
                .filter(|n| n.id == l || world.connected_since(l, n.id).is_some())
                .filter_map(|n| n.raft.as_ref())
                .filter(|r| r.applied() < commit)
                .map(|r| format!("{} has applied {}", r.id(), r.applied()))
                .collect();
            holds(
                behind.is_empty(),
                format!("the leader's commit is {commit} but {}", behind.join(", ")),
            )
        }
        Condition::Quorum(q) => {
            let quorum = cluster.majority();
            holds(quorum as u64 == *q, format!("the quorum is {quorum}"))
        }
        Condition::Voters(list) => {
            let voters: Vec<NodeId> = cluster.configuration().voters.into_iter().collect();
            same_set(list, &voters, "voters")
        }
        Condition::Learners(list) => {
            let learners: Vec<NodeId> = cluster.configuration().learners.into_iter().collect();
            same_set(list, &learners, "learners")
        }
        Condition::VotersOutgoing(list) => {
            let outgoing: Vec<NodeId> = cluster
                .configuration()
                .voters_outgoing
                .into_iter()
                .collect();
            same_set(list, &outgoing, "outgoing voters")
        }
        Condition::Term(t) => {
            let term = cluster.highest_term();
            holds(term == *t, format!("the term is {term}"))
        }
        Condition::TermAtLeast(t) => {
            let term = cluster.highest_term();
            holds(term >= *t, format!("the term is {term}"))
        }
        Condition::CommitAtLeast(i) => {
            let Some(r) = cluster.leader_raft() else {
                return Err("there is no leader".into());
            };
            holds(
                r.commit() >= *i,
                format!("the leader's commit index is {}", r.commit()),
            )
        }
        Condition::Role { id, role } => {
            let actual = cluster
                .role(*id)
                .map_or(RoleName::Down.as_str(), StateRole::name);
            holds(actual == role.as_str(), format!("node {id} is {actual}"))
        }
        Condition::Progress { id, state } => {
            if cluster.leader_raft().is_none() {
                return Err("there is no leader".into());
            }
            match cluster.progress(*id) {
                Some(p) => {
                    let actual = p.state.name();
                    holds(
                        actual == state.as_str(),
                        format!("the leader's progress for {id} is {actual}"),
                    )
                }
                None => Err(format!("the leader tracks no progress for {id}")),
            }
        }
        Condition::Ok => match previous {
            Previous::Ok | Previous::Read(_) => Ok(()),
            Previous::Error(code) => Err(format!("the previous command failed with {code}")),
            Previous::None => Err("there is no previous command".into()),
        },
        Condition::Error(code) => match previous {
            Previous::Error(c) if *c == code.as_str() => Ok(()),
            Previous::Error(c) => Err(format!("the previous command failed with {c}")),
            Previous::Ok | Previous::Read(_) => Err("the previous command succeeded".into()),
            Previous::None => Err("there is no previous command".into()),
        },
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
            holds(v.ok, anomaly_text(&v))
        }
        Condition::NotLinearizable => {
            let v = cluster.linearizability();
            holds(
                !v.ok,
                format!(
                    "the history of {} operations on {} keys is linearizable",
                    v.operations, v.keys
                ),
            )
        }
        Condition::WatchEvents {
            watch,
            bound,
            count,
        } => {
            let Some(w) = cluster.world().watch_of(*watch) else {
                return Err(format!("there is no watch {watch}"));
            };
            let n = w.events.len() as u64;
            let ok = match bound {
                Some(b) => b.holds(n, *count),
                None => n == *count,
            };
            holds(ok, format!("watch {watch} has received {n} events"))
        }
        Condition::WatchCanceled(watch) => {
            let Some(w) = cluster.world().watch_of(*watch) else {
                return Err(format!("there is no watch {watch}"));
            };
            holds(
                w.canceled.is_some(),
                format!(
                    "watch {watch} is still open ({} events received)",
                    w.events.len()
                ),
            )
        }
        Condition::Queued { id, bound, bytes } => {
            let Some(node) = id.or(leader) else {
                return Err("there is no leader".into());
            };
            let queued = cluster.queued_bytes(node, cluster.now());
            let whose = match id {
                Some(_) => format!("node {node}'s"),
                None => format!("the leader's ({node})"),
            };
            holds(
                bound.holds(queued, *bytes),
                format!("{whose} send queue holds {queued} bytes"),
            )
        }
        Condition::Messages {
            id,
            dir,
            bound,
            count,
        } => {
            let Some(spent) = spent else {
                return Err("there is no previous command".into());
            };
            let c = spent.of(*id);
            let (n, verb) = match dir {
                MsgDir::Out => (c.sent, "sent"),
                MsgDir::In => (c.received, "received"),
            };
            holds(
                bound.holds(n, *count),
                format!("node {id} {verb} {n} messages during the previous command"),
            )
        }
    }
}

fn same_set(expected: &[NodeId], actual: &[NodeId], what: &str) -> Result<(), String> {
    let a: VecSet<_> = expected.iter().collect();
    let b: VecSet<_> = actual.iter().collect();
    if a == b {
        Ok(())
    } else {
        let list: Vec<String> = actual.iter().map(|id| id.to_string()).collect();
        Err(format!("the {what} are [{}]", list.join(",")))
    }
}
