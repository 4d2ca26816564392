//! Narration: what a run tells its reader, as structured data, and the
//! [`Renderer`] each language implements to put it into words.
//!
//! A session narrates [`Line`]s: an event of the world, or a command's
//! result, each with its simulated time. Nothing here is a sentence. Which
//! events are narrated, how a line is coloured ([`Tone`]) and which repeated
//! lines fold into one ([`FoldKey`]) are decided from the structure alone, so
//! a change of wording can never change a colour or a fold, and a second
//! language is one more [`Renderer`] (see `text_en` for English).

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use crate::raft::{MessageType, NodeId, RaftEvent};
use crate::sim::{DropReason, Event, EventKind, JoinStep, MirrorEvent, ModeDecision};

use crate::lang::say::Spoken;
use crate::session::report::CommandResult;
use crate::session::stop::Stop;

/// One narrated line of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Simulated time it happened.
    pub time_ms: u64,
    pub said: Said,
}

/// What a line tells.
#[derive(Debug, Clone, PartialEq)]
pub enum Said {
    /// Something happened in the cluster.
    Event(Event),
    /// A command finished (`say` and `pause` are not narrated as results).
    Result(CommandResult),
    /// A `say`: the script's own words (and its `say-ja` line's),
    /// placeholders filled in.
    Say(Spoken),
    /// The run was stopped before its end (a cancel, `--max-wall`, the
    /// memory budget): where, and why.
    Stopped(Stop),
}

/// How a line is shown: its colour in the page's log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Tone {
    /// Neither good nor bad news.
    #[serde(rename = "plain")]
    Plain,
    /// Progress: a leader elected, a change applied, a command that worked.
    #[serde(rename = "ok")]
    Good,
    /// Trouble: a refusal, a rejection, a crash, a command that failed.
    #[serde(rename = "err")]
    Bad,
    /// A command as the reader typed or clicked it.
    #[serde(rename = "cmd")]
    Command,
    /// A lesson's own words, and the page's guidance.
    #[serde(rename = "say")]
    Say,
    /// A command that failed as the lesson expects it to.
    #[serde(rename = "expected")]
    Expected,
    /// A lesson's `expect` that held.
    #[serde(rename = "check")]
    Check,
    /// Time travel: a branch started or resumed.
    #[serde(rename = "branch")]
    Branch,
    /// A table a program drew in text (etcdctl's `-w table`): its lines
    /// one block, in a fixed-width font, its spaces kept.
    #[serde(rename = "table")]
    Table,
}

impl Line {
    pub fn event(e: Event) -> Line {
        Line {
            time_ms: e.time_ms,
            said: Said::Event(e),
        }
    }

    pub fn result(time_ms: u64, r: CommandResult) -> Line {
        Line {
            time_ms,
            said: Said::Result(r),
        }
    }

    pub fn say(time_ms: u64, text: Spoken) -> Line {
        Line {
            time_ms,
            said: Said::Say(text),
        }
    }

    pub fn stopped(time_ms: u64, stop: Stop) -> Line {
        Line {
            time_ms,
            said: Said::Stopped(stop),
        }
    }

    /// The line's colour, from what it says.
    pub fn tone(&self) -> Tone {
        match &self.said {
            Said::Event(e) => event_tone(&e.kind),
            Said::Result(r) if r.ok => Tone::Good,
            Said::Result(_) => Tone::Bad,
            Said::Say(_) => Tone::Say,
            Said::Stopped(_) => Tone::Bad,
        }
    }

    /// The key under which repeats of this line fold into one.
    pub fn fold_key(&self) -> Option<FoldKey> {
        match &self.said {
            Said::Event(e) => fold_key(&e.kind),
            Said::Result(_) | Said::Say(_) | Said::Stopped(_) => None,
        }
    }
}

/// Whether an event is told to the reader. Commits, applied writes and
/// announcements happen on every node all the time: the drawing shows them.
/// Dropped messages repeat every heartbeat on a cut link and link changes are
/// what the command just said. The bootstrap configuration (request 0) is
/// applied by every member as it starts: it is the `cluster` line, not news.
pub fn is_narrated(e: &Event) -> bool {
    use EventKind::*;
    match &e.kind {
        Raft {
            event: RaftEvent::Committed { .. },
            ..
        } => false,
        PutApplied { .. }
        | DeleteApplied { .. }
        | CompactionApplied { .. }
        | PublishApplied { .. } => false,
        ConfChangeApplied { change, .. } => change.request != 0,
        MessageDropped { .. } | LinkCut { .. } | LinkHealed { .. } => false,
        _ => true,
    }
}

/// Good news, bad news, or neither.
pub fn event_tone(kind: &EventKind) -> Tone {
    use EventKind::*;
    match kind {
        Raft { event, .. } => match event {
            RaftEvent::BecameLeader { .. } => Tone::Good,
            RaftEvent::VoteRejected { .. }
            | RaftEvent::StepDownNoQuorum { .. }
            | RaftEvent::ConfChangeRefused { .. }
            | RaftEvent::ProposalDropped { .. } => Tone::Bad,
            _ => Tone::Plain,
        },
        ConfChangeApplied { refused: None, .. } | JointChangeApplied { refused: None, .. } => {
            Tone::Good
        }
        ConfChangeApplied {
            refused: Some(_), ..
        }
        | JointChangeApplied {
            refused: Some(_), ..
        } => Tone::Bad,
        MessageDropped { .. } | Crashed { .. } | WatchCanceled { .. } => Tone::Bad,
        Mirror(MirrorEvent::Failed { .. }) | Mirror(MirrorEvent::Paused { .. }) => Tone::Bad,
        Mirror(MirrorEvent::Synced { .. }) => Tone::Good,
        Mode { decision, .. } => match decision {
            ModeDecision::Promote { .. }
            | ModeDecision::FailoverRemove { .. }
            | ModeDecision::FailoverPromote { .. } => Tone::Good,
            ModeDecision::FailoverCountdown { .. } | ModeDecision::FailoverBlocked { .. } => {
                Tone::Bad
            }
            _ => Tone::Plain,
        },
        _ => Tone::Plain,
    }
}

/// What makes two events "the same thing again" for folding: the event's
/// kind and the nodes and reasons involved, not its term or time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FoldKey {
    Follower {
        node: NodeId,
        leader: NodeId,
    },
    PreCampaign {
        node: NodeId,
    },
    Campaign {
        node: NodeId,
    },
    Vote {
        node: NodeId,
        candidate: NodeId,
        pre_vote: bool,
        granted: bool,
        reason: &'static str,
    },
    Ignored {
        node: NodeId,
        what: &'static str,
        reason: &'static str,
    },
    Dropped {
        from: NodeId,
        to: NodeId,
        kind: MessageType,
        reason: DropReason,
    },
    /// A mirror relaying writes, again and again under a steady load.
    Relayed {
        mirror: NodeId,
    },
}

/// A node's campaigns folded into one line with the votes they got.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CampaignFold {
    pub node: NodeId,
    /// Pre-vote campaigns (pre-candidate), or real ones (candidate).
    pub pre_vote: bool,
    pub first_ms: u64,
    pub last_ms: u64,
    /// How many times it campaigned.
    pub campaigns: usize,
    /// The term the latest campaign asked votes for.
    pub term: u64,
    /// Nodes that granted a vote, in id order.
    pub granted: Vec<NodeId>,
    /// Refusals by reason (the event's code, e.g. "lease"), each with the
    /// nodes that gave it, in the order the reasons first came.
    pub refused: Vec<(&'static str, Vec<NodeId>)>,
}

/// Events that repeat while a fault lasts (an isolated node campaigning
/// every election timeout, its peers refusing it each time) fold; events
/// that change the cluster (a leader elected, a change applied) never do.
pub fn fold_key(kind: &EventKind) -> Option<FoldKey> {
    use RaftEvent::*;
    let (node, event) = match kind {
        EventKind::Raft { node, event } => (*node, event),
        EventKind::MessageDropped {
            from,
            to,
            kind,
            reason,
        } => {
            return Some(FoldKey::Dropped {
                from: *from,
                to: *to,
                kind: *kind,
                reason: *reason,
            })
        }
        EventKind::Mirror(MirrorEvent::Relayed { mirror, .. }) => {
            return Some(FoldKey::Relayed { mirror: *mirror })
        }
        _ => return None,
    };
    Some(match event {
        BecameFollower { leader, .. } => FoldKey::Follower {
            node,
            leader: *leader,
        },
        BecamePreCandidate { .. } => FoldKey::PreCampaign { node },
        BecameCandidate { .. } => FoldKey::Campaign { node },
        VoteGranted {
            candidate,
            pre_vote,
            ..
        } => FoldKey::Vote {
            node,
            candidate: *candidate,
            pre_vote: *pre_vote,
            granted: true,
            reason: "",
        },
        VoteRejected {
            candidate,
            pre_vote,
            reason,
            ..
        } => FoldKey::Vote {
            node,
            candidate: *candidate,
            pre_vote: *pre_vote,
            granted: false,
            reason,
        },
        ProposalDropped { reason } => FoldKey::Ignored {
            node,
            what: "proposal",
            reason,
        },
        CampaignIgnored { reason } => FoldKey::Ignored {
            node,
            what: "campaign",
            reason,
        },
        IgnoredTimeoutNow { reason } => FoldKey::Ignored {
            node,
            what: "timeout-now",
            reason,
        },
        TransferIgnored { reason, .. } => FoldKey::Ignored {
            node,
            what: "transfer",
            reason,
        },
        _ => return None,
    })
}

/// A stable name for an event's kind, for front ends that filter or mark
/// lines (never shown as text).
pub fn event_code(kind: &EventKind) -> &'static str {
    use RaftEvent::*;
    match kind {
        EventKind::Raft { event, .. } => match event {
            BecameFollower { .. } => "became-follower",
            BecamePreCandidate { .. } => "became-pre-candidate",
            BecameCandidate { .. } => "became-candidate",
            BecameLeader { .. } => "became-leader",
            VoteGranted { .. } => "vote-granted",
            VoteRejected { .. } => "vote-rejected",
            StepDownNoQuorum { .. } => "step-down-no-quorum",
            Committed { .. } => "committed",
            SnapshotSent { .. } => "snapshot-sent",
            SnapshotRestored { .. } => "snapshot-restored",
            ConfChangeRefused { .. } => "conf-change-refused",
            ProposalDropped { .. } => "proposal-dropped",
            TransferStarted { .. } => "transfer-started",
            TransferIgnored { .. } => "transfer-ignored",
            TransferAborted { .. } => "transfer-aborted",
            IgnoredTimeoutNow { .. } => "timeout-now-ignored",
            CampaignIgnored { .. } => "campaign-ignored",
            ForgetLeaderIgnored => "forget-leader-ignored",
            AutoLeaveProposed => "auto-leave-proposed",
        },
        EventKind::PutApplied { .. } => "put-applied",
        EventKind::DeleteApplied { .. } => "delete-applied",
        EventKind::CompactionApplied { .. } => "compaction-applied",
        EventKind::ConfChangeApplied { .. } => "conf-change-applied",
        EventKind::JointChangeApplied { .. } => "joint-change-applied",
        EventKind::PublishApplied { .. } => "publish-applied",
        EventKind::ReadServed { .. } => "read-served",
        EventKind::Join { step, .. } => match step {
            JoinStep::Unreachable { .. } => "join-unreachable",
            JoinStep::Asks => "join-asks",
            JoinStep::NoAnswer { .. } => "join-no-answer",
            JoinStep::LeaderChanged => "join-leader-changed",
        },
        EventKind::Compacted { .. } => "compacted",
        EventKind::MessageDropped { .. } => "message-dropped",
        EventKind::Crashed { .. } => "crashed",
        EventKind::Started { .. } => "started",
        EventKind::StoppedRemoved { .. } => "stopped-removed",
        EventKind::LinkCut { .. } => "link-cut",
        EventKind::LinkHealed { .. } => "link-healed",
        EventKind::WatchEvents { .. } => "watch-events",
        EventKind::WatchCanceled { .. } => "watch-canceled",
        EventKind::Mirror(m) => match m {
            MirrorEvent::Started { .. } => "mirror-started",
            MirrorEvent::Synced { .. } => "mirror-synced",
            MirrorEvent::Relayed { .. } => "mirror-relayed",
            MirrorEvent::Paused { .. } => "mirror-paused",
            MirrorEvent::Resumed { .. } => "mirror-resumed",
            MirrorEvent::Failed { .. } => "mirror-failed",
            MirrorEvent::Stopped { .. } => "mirror-stopped",
        },
        EventKind::Mode { decision, .. } => match decision {
            ModeDecision::Promote { .. } => "auto-promote",
            ModeDecision::NotYet { .. } => "auto-promote-not-yet",
            ModeDecision::FailoverCountdown { .. } => "failover-countdown",
            ModeDecision::FailoverCancelled { .. } => "failover-cancelled",
            ModeDecision::FailoverRemove { .. } => "failover-remove",
            ModeDecision::FailoverPromote { .. } => "failover-promote",
            ModeDecision::FailoverBlocked { .. } => "failover-blocked",
        },
    }
}

/// The nodes an event concerns, the node it happened on first.
pub fn event_nodes(kind: &EventKind) -> Vec<NodeId> {
    use RaftEvent::*;
    match kind {
        EventKind::Raft { node, event } => {
            let other = match event {
                BecameFollower { leader, .. } if *leader != 0 => Some(*leader),
                VoteGranted { candidate, .. } | VoteRejected { candidate, .. } => Some(*candidate),
                SnapshotSent { to, .. }
                | TransferStarted { to }
                | TransferIgnored { to, .. }
                | TransferAborted { to } => Some(*to),
                _ => None,
            };
            std::iter::once(*node).chain(other).collect()
        }
        EventKind::PutApplied { node, .. }
        | EventKind::DeleteApplied { node, .. }
        | EventKind::CompactionApplied { node, .. }
        | EventKind::ReadServed { node, .. }
        | EventKind::Compacted { node, .. }
        | EventKind::Crashed { node }
        | EventKind::Started { node }
        | EventKind::StoppedRemoved { node, .. }
        | EventKind::WatchEvents { node, .. }
        | EventKind::WatchCanceled { node, .. } => vec![*node],
        EventKind::ConfChangeApplied { node, change, .. } => vec![*node, change.node_id],
        EventKind::JointChangeApplied { node, change, .. } => std::iter::once(*node)
            .chain(change.changes.iter().map(|c| c.node_id))
            .collect(),
        EventKind::PublishApplied { node, member } => vec![*node, *member],
        EventKind::Join { node, peer, .. } => vec![*node, *peer],
        EventKind::MessageDropped { from, to, .. }
        | EventKind::LinkCut { from, to }
        | EventKind::LinkHealed { from, to } => vec![*from, *to],
        EventKind::Mirror(m) => match m {
            MirrorEvent::Started { mirror, from, to } => vec![*mirror, *from, *to],
            MirrorEvent::Paused { mirror, peer, .. } => vec![*mirror, *peer],
            other => vec![other.mirror()],
        },
        EventKind::Mode { leader, decision } => {
            let other = match decision {
                ModeDecision::Promote { learner, .. } | ModeDecision::NotYet { learner, .. } => {
                    vec![*learner]
                }
                ModeDecision::FailoverCountdown { voter, .. }
                | ModeDecision::FailoverCancelled { voter }
                | ModeDecision::FailoverBlocked { voter, .. } => vec![*voter],
                ModeDecision::FailoverRemove { voter, standby, .. }
                | ModeDecision::FailoverPromote { voter, standby, .. } => vec![*voter, *standby],
            };
            std::iter::once(*leader).chain(other).collect()
        }
    }
}

/// An event as a front end receives it beside its sentence: its kind's
/// code and the nodes it concerns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventSummary {
    pub code: &'static str,
    pub nodes: Vec<NodeId>,
}

impl EventSummary {
    pub fn of(e: &Event) -> EventSummary {
        EventSummary {
            code: event_code(&e.kind),
            nodes: event_nodes(&e.kind),
        }
    }
}

/// `{time_ms, kind: "event", tone, event: {code, nodes}}` or `{time_ms,
/// kind: "result", tone, result}`: the structure, without words.
impl Serialize for Line {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Line", 4)?;
        st.serialize_field("time_ms", &self.time_ms)?;
        match &self.said {
            Said::Event(e) => {
                st.serialize_field("kind", "event")?;
                st.serialize_field("tone", &self.tone())?;
                st.serialize_field("event", &EventSummary::of(e))?;
            }
            Said::Result(r) => {
                st.serialize_field("kind", "result")?;
                st.serialize_field("tone", &self.tone())?;
                st.serialize_field("result", r)?;
            }
            Said::Say(text) => {
                st.serialize_field("kind", "say")?;
                st.serialize_field("tone", &self.tone())?;
                st.serialize_field("text", &text.en)?;
                if let Some(ja) = &text.ja {
                    st.serialize_field("ja", ja)?;
                }
            }
            Said::Stopped(stop) => {
                st.serialize_field("kind", "stopped")?;
                st.serialize_field("tone", &self.tone())?;
                st.serialize_field("stopped", stop)?;
            }
        }
        st.end()
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::raft::{ConfChange, ConfChangeSingle, ConfChangeType, ConfChangeV2};
    use crate::sim::membership::MemberError;
    use crate::sim::{KeyRead, Served};

    fn joint(request: u64) -> ConfChangeV2 {
        ConfChangeV2 {
            changes: vec![ConfChangeSingle {
                change_type: ConfChangeType::AddNode,
                node_id: 4,
            }],
            request,
            ..ConfChangeV2::default()
        }
    }

    fn change(request: u64) -> ConfChange {
        ConfChange {
            change_type: ConfChangeType::AddLearnerNode,
            node_id: 4,
            request,
            context: crate::sim::PeerUrls::one(4, "http://n4:2380"),
            promote: false,
        }
    }

    fn raft(event: RaftEvent) -> EventKind {
        EventKind::Raft { node: 1, event }
    }

    /// Every kind of event: its tone, whether it folds, whether it is told.
    #[test]
    fn tone_folding_and_narration_follow_the_event_not_its_words() {
        use RaftEvent::*;
        let (good, bad, plain) = (Tone::Good, Tone::Bad, Tone::Plain);
        let table: Vec<(EventKind, Tone, bool, bool)> = vec![
            (
                raft(BecameFollower { term: 2, leader: 3 }),
                plain,
                true,
                true,
            ),
            (raft(BecamePreCandidate { term: 2 }), plain, true, true),
            (raft(BecameCandidate { term: 3 }), plain, true, true),
            (
                raft(BecameLeader {
                    term: 3,
                    votes: vec![1, 2],
                }),
                good,
                false,
                true,
            ),
            (
                raft(VoteGranted {
                    candidate: 2,
                    term: 3,
                    pre_vote: true,
                }),
                plain,
                true,
                true,
            ),
            (
                raft(VoteRejected {
                    candidate: 2,
                    term: 3,
                    pre_vote: false,
                    reason: "lease",
                }),
                bad,
                true,
                true,
            ),
            (raft(StepDownNoQuorum { term: 3 }), bad, false, true),
            (raft(Committed { index: 9 }), plain, false, false),
            (raft(SnapshotSent { to: 4, index: 9 }), plain, false, true),
            (raft(SnapshotRestored { index: 9 }), plain, false, true),
            (
                raft(ConfChangeRefused {
                    request: 1,
                    reason: "x",
                }),
                bad,
                false,
                true,
            ),
            (
                raft(ProposalDropped {
                    reason: "no leader",
                }),
                bad,
                true,
                true,
            ),
            (raft(TransferStarted { to: 2 }), plain, false, true),
            (
                raft(TransferIgnored { to: 2, reason: "x" }),
                plain,
                true,
                true,
            ),
            (raft(TransferAborted { to: 2 }), plain, false, true),
            (
                raft(IgnoredTimeoutNow { reason: "learner" }),
                plain,
                true,
                true,
            ),
            (
                raft(CampaignIgnored { reason: "learner" }),
                plain,
                true,
                true,
            ),
            (
                EventKind::PutApplied {
                    node: 1,
                    index: 5,
                    request: 1,
                },
                plain,
                false,
                false,
            ),
            (
                EventKind::ConfChangeApplied {
                    node: 1,
                    index: 9,
                    change: change(1),
                    refused: None,
                },
                good,
                false,
                true,
            ),
            (
                EventKind::ConfChangeApplied {
                    node: 1,
                    index: 9,
                    change: change(0),
                    refused: None,
                },
                good,
                false,
                false,
            ),
            (
                EventKind::ConfChangeApplied {
                    node: 1,
                    index: 9,
                    change: change(1),
                    refused: Some(MemberError::IdExists),
                },
                bad,
                false,
                true,
            ),
            (
                EventKind::PublishApplied { node: 1, member: 4 },
                plain,
                false,
                false,
            ),
            // A value read is the reader's data: whatever it says, it
            // colours nothing.
            (
                EventKind::ReadServed {
                    node: 1,
                    request: 2,
                    read: Served::Key {
                        key: "k".into(),
                        rev: 0,
                        read: Ok(KeyRead {
                            value: Some("failed".into()),
                            mod_revision: Some(2),
                            revision: 2,
                        }),
                    },
                },
                plain,
                false,
                true,
            ),
            (
                EventKind::Compacted { node: 1, index: 9 },
                plain,
                false,
                true,
            ),
            (
                EventKind::MessageDropped {
                    from: 1,
                    to: 2,
                    kind: MessageType::App,
                    reason: DropReason::LinkCut,
                },
                bad,
                true,
                false,
            ),
            (EventKind::Crashed { node: 1 }, bad, false, true),
            (EventKind::Started { node: 1 }, plain, false, true),
            (
                EventKind::StoppedRemoved {
                    node: 1,
                    delayed: false,
                },
                plain,
                false,
                true,
            ),
            (
                EventKind::StoppedRemoved {
                    node: 1,
                    delayed: true,
                },
                plain,
                false,
                true,
            ),
            (raft(ForgetLeaderIgnored), plain, false, true),
            (raft(AutoLeaveProposed), plain, false, true),
            // The leader's own leave of a joint configuration (request 0)
            // is news, unlike the bootstrap configuration.
            (
                EventKind::JointChangeApplied {
                    node: 1,
                    index: 9,
                    change: joint(0),
                    refused: None,
                },
                good,
                false,
                true,
            ),
            (
                EventKind::JointChangeApplied {
                    node: 1,
                    index: 9,
                    change: joint(3),
                    refused: Some(MemberError::IdExists),
                },
                bad,
                false,
                true,
            ),
            (EventKind::LinkCut { from: 1, to: 2 }, plain, false, false),
            (
                EventKind::LinkHealed { from: 1, to: 2 },
                plain,
                false,
                false,
            ),
        ];
        for (kind, tone, folds, told) in table {
            let e = Event { time_ms: 5, kind };
            let line = Line::event(e.clone());
            assert_eq!(line.tone(), tone, "{:?}", e.kind);
            assert_eq!(line.fold_key().is_some(), folds, "{:?}", e.kind);
            assert_eq!(is_narrated(&e), told, "{:?}", e.kind);
            assert!(!event_code(&e.kind).is_empty());
            // Each sample happened on (or was sent by) node 1.
            assert_eq!(event_nodes(&e.kind).first(), Some(&1), "{:?}", e.kind);
        }
    }

    #[test]
    fn a_line_serialises_its_structure() {
        let e = Event {
            time_ms: 1234,
            kind: raft(RaftEvent::BecameLeader {
                term: 2,
                votes: vec![1, 3],
            }),
        };
        let json = serde_json::to_value(Line::event(e)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"time_ms": 1234, "kind": "event", "tone": "ok",
                "event": {"code": "became-leader", "nodes": [1]}})
        );
    }
}
