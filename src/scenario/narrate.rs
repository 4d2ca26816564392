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
use crate::sim::{DropReason, Event, EventKind, MirrorEvent, ModeDecision};

use super::etcdctl::EtcdctlError;
use super::parse::ParseError;
use super::report::CommandResult;
use super::say::Spoken;
use super::share::ShareError;
use super::slice::Stop;
use crate::sim::linearizability::{ClientId, OpName};

use super::view::{
    FailoverView, HistoryVerdict, LearnerKind, LogMark, NodeState, ProgressView, QuorumView,
    ViolationView,
};

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

    /// Whether the line, as `raftlab run` prints it in English, says
    /// `text`.
    pub fn contains(&self, text: &str) -> bool {
        super::text_en::English.trace(self).contains(text)
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

/// Puts the view model and the narration into one language's words. Every
/// sentence a reader reads is made by one of these methods.
pub trait Renderer {
    // ---- the run's narration ----

    /// A moment of simulated time as lines are prefixed with it.
    fn time(&self, ms: u64) -> String;
    /// A stretch of simulated time (a folded line's first and last moment).
    fn time_span(&self, from_ms: u64, to_ms: u64) -> String;
    /// An event as one sentence, without its time.
    fn event(&self, e: &Event) -> String;
    /// A command's outcome in a few words ("ok", "error no-leader: ...").
    fn result_summary(&self, r: &CommandResult) -> String;
    /// What a command that worked returned (the index of a write, the
    /// member list), if anything; a value read is in its summary.
    fn result_details(&self, r: &CommandResult) -> Option<String>;
    /// A run stopped before its end: where, and why. The session makes the
    /// sentence in English (`Stop::message`, also the report's).
    fn stopped(&self, stop: &Stop) -> String {
        stop.message.clone()
    }
    /// A line as `raftlab run` prints it: "t=1.23s node 2 crashed",
    /// "t=1.23s > crash 2 : ok" for a command's result, or
    /// "t=1.23s say: node 1 leads" for a script's own words.
    fn trace(&self, line: &Line) -> String {
        match &line.said {
            Said::Event(e) => format!("{} {}", self.time(line.time_ms), self.event(e)),
            Said::Result(r) => format!(
                "{} > {} : {}",
                self.time(line.time_ms),
                r.command,
                self.result_summary(r)
            ),
            Said::Say(text) => format!("{} say: {}", self.time(line.time_ms), self.say(text)),
            Said::Stopped(stop) => format!("{} {}", self.time(line.time_ms), self.stopped(stop)),
        }
    }

    /// A lesson's own words in this language: its `say-ja` line's in
    /// Japanese, the `say` line's in English (and wherever no translation
    /// was written).
    fn say<'a>(&self, text: &'a Spoken) -> &'a str {
        &text.en
    }

    // ---- the page's log ----

    /// A command as the reader typed or clicked it.
    fn echo(&self, command: &str) -> String;
    /// A command's result in the log. `named`: the command was not echoed
    /// (a lesson's own), so the line names it. `expected`: it failed as the
    /// lesson expects.
    fn logged_result(&self, time_ms: u64, r: &CommandResult, named: bool, expected: bool)
        -> String;
    /// A console line that does not parse.
    fn unparsed(&self, command: &str, e: &ParseError) -> String;
    /// Several repeats of one line, shown as one: `latest` is the last
    /// repeat's sentence.
    fn folded(&self, first_ms: u64, last_ms: u64, latest: &str, count: usize) -> String;
    /// A node's repeated campaigns and the answers to them, shown as one
    /// line ("node 3 asked for pre-votes 14 times; refused: leader lease").
    fn campaign_folded(&self, c: &CampaignFold) -> String;
    /// Acting in the past started branch `branch` at `fork_ms`; the run left
    /// is kept as branch `left`.
    fn branch_started(&self, fork_ms: u64, branch: u32, left: u32) -> String;
    /// Back on a branch, where it was left.
    fn branch_resumed(&self, branch: u32, at_ms: u64) -> String;
    /// An action was refused: the reason, as the log shows it.
    fn refusal(&self, why: &Refusal) -> String;
    /// Stepping found nothing within the limit, or the start of the run.
    fn nothing_happens(&self) -> String;
    fn at_the_beginning(&self) -> String;
    /// A seek in slices was cancelled: the moment shown stays `at_ms`.
    fn seek_cancelled(&self, at_ms: u64) -> String;

    /// Commands of a lesson step that did not go as the lesson says.
    fn surprises(&self, results: &[CommandResult]) -> String;

    // ---- etcdctl in the console ----

    /// An etcdctl line that ran nothing, and why.
    fn etcdctl_refusal(&self, e: &EtcdctlError) -> String;

    // ---- opening a run ----

    /// Why a link or a file does not open (no "error:" before it: the page
    /// adds its own).
    fn share_refusal(&self, e: &ShareError) -> String;
    /// A lesson id that names no lesson.
    fn no_lesson(&self, id: &str) -> String;
    /// The scenario command an etcdctl line was recorded as.
    fn etcdctl_recorded(&self, command: &str) -> String;

    // ---- panels ----

    /// The quorum panel's verdict: can the leader commit?
    fn quorum_verdict(&self, q: &QuorumView) -> String;
    /// The lesson panel's sentence: the quorum arithmetic spelled out.
    fn quorum_sentence(&self, q: &QuorumView) -> String;

    // ---- the canvas ----

    /// A node's first label: what it is ("learner · follower", "standby ·
    /// follower"); `kind` is `None` for a voter.
    fn node_head(&self, kind: Option<LearnerKind>, state: NodeState) -> String;
    /// Under a learner's catch-up bar: the leader promotes it by itself at
    /// `percent` (`auto-promote`).
    fn auto_promote_at(&self, percent: u8) -> String;
    /// Beside a voter the leader has not heard from while a standby could
    /// take over: the time left before failover.
    fn failover_countdown(&self, f: &FailoverView) -> String;
    /// A node's Raft messages received and sent since the run began;
    /// `compact` when many nodes share the ring.
    fn message_counts(&self, received: u64, sent: u64, compact: bool) -> String;

    // ---- the history view ----

    /// A lane: one key as one client saw it.
    fn history_lane(&self, key: &str, client: ClientId) -> String;
    /// An operation's bar.
    fn history_op(&self, kind: OpName, value: Option<&str>) -> String;
    /// A moment labelled on the history's axis.
    fn history_tick(&self, ms: u64) -> String;
    /// The checker's verdict on the history.
    fn history_verdict(&self, v: &HistoryVerdict) -> String;
    /// What part of the history is drawn: the window, operations drawn of
    /// all, and lanes left out.
    fn history_note(
        &self,
        from_ms: u64,
        to_ms: u64,
        shown: usize,
        total: usize,
        hidden_lanes: usize,
    ) -> String;
    /// A member whose peer URL reaches no host.
    fn unreachable_url(&self, url: &str) -> String;
    /// The leader's view of a peer; `compact` when many nodes share the ring.
    fn progress(&self, p: &ProgressView, compact: bool) -> String;
    /// Bytes waiting in a node's send queue.
    fn send_queue(&self, bytes: u64) -> String;
    /// The log strips' title, a strip's row label, and a strip with no log.
    fn log_title(&self) -> String;
    fn log_row(&self, id: NodeId, learner: bool) -> String;
    fn no_log(&self) -> String;
    /// A mark in the strips' key.
    fn log_mark(&self, mark: LogMark) -> String;

    // ---- the safety indicator ----

    /// Its headline: all holds, or the first broken property and how many
    /// more.
    fn safety_headline(&self, violations: &[ViolationView]) -> String;
    /// One violation in the list.
    fn violation(&self, v: &ViolationView) -> String;
    /// The list's heading.
    fn safety_list_head(&self, count: usize) -> String;
    /// The button's tooltip.
    fn safety_tip(&self, ok: bool) -> String;
}

/// Why a page action did nothing: each says what the reader can do instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Every id of the language's range is taken.
    NoFreeId { max: NodeId },
    /// "Isolate leader" without a leader.
    NoLeaderToIsolate,
    /// A partition preset with fewer than two members.
    TooFewToPartition,
    /// A branch that does not exist.
    NoBranch(u32),
    /// Branches asked for in a lesson, which has none.
    LessonHasNoBranches,
    /// Anything but Cancel while a run goes on in slices (an opened link,
    /// a long console command).
    RunInProgress,
    /// The page's clock stopped: the run holds more than its memory budget.
    ClockOverBudget { budget: u64, counted: u64 },
    /// The modes control: `auto-promote` is not a whole percentage from 1
    /// to 100.
    AutoPromoteRange,
    /// The modes control: `failover-after` out of its range.
    FailoverAfterRange { min_ms: u64, max_ms: u64 },
    /// The modes control: `max-learners` is not a whole number from 0 to
    /// `max`.
    MaxLearnersRange { max: NodeId },
    /// The modes control: a choice that is none of `choices` (which are
    /// the language's words, as typed).
    ModeChoice {
        option: &'static str,
        found: String,
        choices: &'static [&'static str],
    },
    /// The modes control: a value the `cluster` line does not take.
    Modes(ParseError),
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::raft::{ConfChange, ConfChangeSingle, ConfChangeType, ConfChangeV2};
    use crate::sim::membership::MemberError;
    use crate::sim::KeyRead;

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
                    read: Ok(KeyRead {
                        value: Some("failed".into()),
                        mod_revision: Some(2),
                        revision: 2,
                    }),
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
