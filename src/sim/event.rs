//! The world's event stream: what happened, when, structured for drawing and
//! tests, and rendered as plain sentences for the narrated log.

use std::fmt::Write;

use crate::raft::{ConfChange, ConfChangeType, ConfChangeV2, MessageType, NodeId, RaftEvent};
use crate::sim::membership::MemberError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropReason {
    /// The link from sender to receiver is cut.
    LinkCut,
    /// The receiver's process is down (or was never started).
    NodeDown,
    /// The sender's URL for the receiver names no simulated host.
    NoRoute,
    /// The sender was removed from the cluster; peers refuse it.
    SenderRemoved,
    /// Lost at random (a fault injected by the scenario).
    Lost,
}

impl DropReason {
    pub fn text(self) -> &'static str {
        match self {
            DropReason::LinkCut => "the link is cut",
            DropReason::NodeDown => "the receiver is down",
            DropReason::NoRoute => "its peer URL names no host",
            DropReason::SenderRemoved => "the sender was removed from the cluster",
            DropReason::Lost => "it was lost on the network",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum EventKind {
    /// Something inside one node's Raft.
    Raft {
        node: NodeId,
        event: RaftEvent,
    },
    /// A client write took effect on `node`.
    PutApplied {
        node: NodeId,
        index: u64,
        request: u64,
    },
    /// A membership change was applied on `node`, or refused there by etcd's checks.
    ConfChangeApplied {
        node: NodeId,
        index: u64,
        change: ConfChange,
        refused: Option<MemberError>,
    },
    /// A joint membership change (several members at once) was applied on
    /// `node`, or refused there by the membership checks.
    JointChangeApplied {
        node: NodeId,
        index: u64,
        change: ConfChangeV2,
        refused: Option<MemberError>,
    },
    /// A member's announcement of itself was applied on `node`.
    PublishApplied {
        node: NodeId,
        member: NodeId,
    },
    /// A linearizable read is served on `node`.
    ReadServed {
        node: NodeId,
        request: u64,
        value: Option<String>,
    },
    /// `node` took a snapshot of its state at `index` and compacted its log.
    Compacted {
        node: NodeId,
        index: u64,
    },
    MessageDropped {
        from: NodeId,
        to: NodeId,
        kind: MessageType,
        reason: DropReason,
    },
    Crashed {
        node: NodeId,
    },
    Started {
        node: NodeId,
    },
    /// `node` learned it was removed and stopped itself for good: a peer
    /// refused it as removed, or (`delayed`) the moment after it applied its
    /// own removal ran out (etcd's `stopWithDelay`).
    StoppedRemoved {
        node: NodeId,
        delayed: bool,
    },
    LinkCut {
        from: NodeId,
        to: NodeId,
    },
    LinkHealed {
        from: NodeId,
        to: NodeId,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub time_ms: u64,
    pub kind: EventKind,
}

fn ids(list: &[NodeId]) -> String {
    let mut s = String::new();
    for (i, id) in list.iter().enumerate() {
        if i > 0 {
            s.push_str(if i + 1 == list.len() { " and " } else { ", " });
        }
        let _ = write!(s, "{id}");
    }
    s
}

fn change_text(c: &ConfChange) -> String {
    single_text(c.change_type, c.node_id)
}

fn single_text(change_type: ConfChangeType, id: NodeId) -> String {
    match change_type {
        ConfChangeType::AddNode => format!("add voter {id}"),
        ConfChangeType::AddLearnerNode => format!("add learner {id}"),
        ConfChangeType::RemoveNode => format!("remove member {id}"),
        ConfChangeType::UpdateNode => format!("update member {id}"),
    }
}

fn joint_text(c: &ConfChangeV2) -> String {
    if c.leave_joint() {
        return "leave the joint configuration".to_string();
    }
    let changes: Vec<String> = c
        .changes
        .iter()
        .map(|s| single_text(s.change_type, s.node_id))
        .collect();
    match c.enter_joint() {
        Some(_) => format!("enter a joint configuration: {}", changes.join(", ")),
        None => changes.join(", "),
    }
}

impl Event {
    /// Counts what the event owns beyond itself.
    pub fn heap_size(&self, m: &mut crate::raft::heap::Meter) {
        match &self.kind {
            EventKind::Raft {
                event: RaftEvent::BecameLeader { votes, .. },
                ..
            } => m.vec(votes),
            EventKind::ConfChangeApplied { change, .. } => m.shared_str(&change.peer_url),
            EventKind::JointChangeApplied { change, .. } => {
                m.vec(&change.changes);
                m.vec(&change.peer_urls);
                for (_, url) in &change.peer_urls {
                    m.shared_str(url);
                }
            }
            EventKind::ReadServed { value: Some(v), .. } => m.string(v),
            _ => {}
        }
    }

    /// `t=2.31s`: the time prefix of every sentence.
    pub fn time_text(&self) -> String {
        format!("t={:.2}s", self.time_ms as f64 / 1000.0)
    }

    /// The event as one plain sentence, or `None` for events too fine-grained
    /// to narrate (every applied write on every node).
    pub fn sentence(&self) -> Option<String> {
        use EventKind::*;
        let text = match &self.kind {
            Raft { node, event } => raft_sentence(*node, event)?,
            PutApplied { .. } | PublishApplied { .. } => return None,
            // The bootstrap configuration (request 0) is applied by every
            // member as it starts; it is the cluster line, not news.
            ConfChangeApplied { change, .. } if change.request == 0 => return None,
            ConfChangeApplied {
                node,
                index,
                change,
                refused,
            } => match refused {
                None => format!(
                    "node {node} applied \"{}\" at index {index}",
                    change_text(change)
                ),
                Some(e) => format!(
                    "node {node} refused \"{}\" at index {index}: {}",
                    change_text(change),
                    e.etcd_text()
                ),
            },
            JointChangeApplied {
                node,
                index,
                change,
                refused,
            } => match refused {
                None => format!(
                    "node {node} applied \"{}\" at index {index}",
                    joint_text(change)
                ),
                Some(e) => format!(
                    "node {node} refused \"{}\" at index {index}: {}",
                    joint_text(change),
                    e.etcd_text()
                ),
            },
            ReadServed { node, value, .. } => match value {
                Some(v) => format!("node {node} served a linearizable read: {v:?}"),
                None => format!("node {node} served a linearizable read: no such key"),
            },
            Compacted { node, index } => {
                format!("node {node} took a snapshot at index {index} and compacted its log")
            }
            MessageDropped {
                from,
                to,
                kind,
                reason,
            } => {
                format!(
                    "{} from {from} to {to} was dropped: {}",
                    kind.name(),
                    reason.text()
                )
            }
            Crashed { node } => format!("node {node} crashed"),
            Started { node } => format!("node {node} started"),
            StoppedRemoved {
                node,
                delayed: false,
            } => format!("node {node} found it was removed from the cluster and stopped"),
            StoppedRemoved {
                node,
                delayed: true,
            } => format!(
                "node {node} stopped: it applied its own removal from the cluster a moment ago"
            ),
            LinkCut { from, to } => format!("link {from}->{to} cut"),
            LinkHealed { from, to } => format!("link {from}->{to} healed"),
        };
        Some(format!("{} {}", self.time_text(), text))
    }
}

fn raft_sentence(node: NodeId, event: &RaftEvent) -> Option<String> {
    use RaftEvent::*;
    Some(match event {
        BecameFollower { term, leader } if *leader != 0 => {
            format!("node {node} became follower of {leader} in term {term}")
        }
        BecameFollower { term, .. } => format!("node {node} became follower in term {term}"),
        BecamePreCandidate { term } => {
            format!("node {node} became pre-candidate and asks for pre-votes for term {}", term + 1)
        }
        BecameCandidate { term } => format!("node {node} became candidate for term {term}"),
        BecameLeader { term, votes } => format!(
            "node {node} became leader for term {term} with votes from {}",
            ids(votes)
        ),
        VoteGranted { candidate, term, pre_vote } => format!(
            "node {node} granted its {}vote to {candidate} for term {term}",
            if *pre_vote { "pre-" } else { "" }
        ),
        VoteRejected { candidate, term, pre_vote, reason } => format!(
            "node {node} rejected the {}vote of {candidate} for term {term}: {reason}",
            if *pre_vote { "pre-" } else { "" }
        ),
        StepDownNoQuorum { term } => format!(
            "node {node} stepped down in term {term}: it cannot reach a quorum of voters (check-quorum)"
        ),
        // Commits on every node would drown the log; the leader's are enough.
        Committed { .. } => return None,
        SnapshotSent { to, index } => format!("node {node} sent a snapshot at index {index} to {to}"),
        SnapshotRestored { index } => format!("node {node} installed a snapshot at index {index}"),
        ConfChangeRefused { reason, .. } => {
            format!("node {node} refused a membership change: {reason}")
        }
        ProposalDropped { reason } => format!("node {node} dropped a proposal: {reason}"),
        TransferStarted { to } => format!("node {node} is transferring leadership to {to}"),
        TransferIgnored { to, reason } => {
            format!("node {node} ignored a leadership transfer to {to}: {reason}")
        }
        TransferAborted { to } => {
            format!("node {node} gave up transferring leadership to {to}")
        }
        IgnoredTimeoutNow { reason } => format!("node {node} ignored MsgTimeoutNow: {reason}"),
        CampaignIgnored { reason } => format!("node {node} will not campaign: {reason}"),
        ForgetLeaderIgnored => format!("node {node} ignored ForgetLeader: reads rely on the lease"),
        AutoLeaveProposed => format!("node {node} proposed leaving the joint configuration"),
    })
}
