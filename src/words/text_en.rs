//! The English renderer: every sentence a reader of raftlab reads in
//! English about a run (event sentences, command results, the page's log,
//! panel verdicts) is made here, from structured data, at the last moment.
//! A second language is one more module implementing [`Renderer`] beside
//! this one.
//!
//! etcd's own error texts ("membership: ID exists") and Raft's message
//! names ("MsgApp") are quoted as etcd writes them, in every language.

use crate::text::fixed::Fixed;
use std::fmt::Write;

use crate::raft::{ConfChange, ConfChangeType, ConfChangeV2, NodeId, RaftEvent};
use crate::sim::linearizability::{ClientId, OpName};
use crate::sim::{
    DropReason, Event, EventKind, JoinStep, KeyRead, MirrorEvent, ModeDecision, NotYet, Served,
};

use crate::server::ServerError;

use crate::lang::etcdctl::{self, EtcdctlError};
use crate::lang::parse::ParseError;
use crate::session::detail::server_detail;
use crate::session::narrate::CampaignFold;
use crate::session::refusal::Refusal;
use crate::session::report::CommandResult;
use crate::session::share::ShareError;
use crate::session::view::{
    FailoverView, HistoryVerdict, LearnerKind, LogMark, NodeState, ProgressView, QuorumView,
    ViolationView,
};
use crate::words::renderer::Renderer;

/// raftlab in English.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct English;

/// "1, 2, 3".
fn list(ids: &[NodeId]) -> String {
    ids.iter()
        .map(|id| id.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// "1, 2 and 3".
fn and_list(ids: &[NodeId]) -> String {
    let mut s = String::new();
    for (i, id) in ids.iter().enumerate() {
        if i > 0 {
            s.push_str(if i + 1 == ids.len() { " and " } else { ", " });
        }
        let _ = write!(s, "{id}");
    }
    s
}

/// Why a node refused a vote, as a reader says it.
fn refusal_words(code: &str) -> &str {
    match code {
        "lease" => "leader lease",
        "leader known" => "it knows a leader",
        "log not up to date" => "the candidate's log is behind",
        other => other,
    }
}

/// "2.31 s": a moment in running text.
/// A lesson's header note: "checked against etcd 3.4.23 and 3.5.1".
pub fn lesson_checked(releases: &[String]) -> String {
    let list = match releases {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    format!("checked against etcd {list}")
}

pub fn seconds(ms: u64) -> String {
    format!("{} s", Fixed(ms as f64 / 1000.0, 2))
}

/// "s" for a count other than one.
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// "2.0s": a duration in a mode's sentence.
fn span(ms: u64) -> String {
    format!("{}s", Fixed(ms as f64 / 1000.0, 1))
}

/// Why a learner is not promoted yet, after "not yet: ".
fn not_yet_text(reason: &NotYet) -> String {
    match reason {
        NotYet::Behind {
            matched,
            last,
            percent_now,
            percent,
        } => format!("{percent_now}% < {percent}% (match {matched} of {last})"),
        NotYet::NotHeard { silent_ms: None } => "the leader has never heard from it".to_string(),
        NotYet::NotHeard {
            silent_ms: Some(ms),
        } => format!(
            "the leader has not heard from it for {} (more than an election timeout)",
            span(*ms)
        ),
        NotYet::Snapshot => "the leader is still sending it a snapshot".to_string(),
        NotYet::Strict(e) => format!(
            "the strict reconfiguration check refuses: {}",
            e.get::<ServerError>()
                .map(server_detail)
                .unwrap_or_default()
        ),
        NotYet::NotTracked => "the leader tracks no progress for it".to_string(),
        NotYet::NoStandby => "there is no standby learner".to_string(),
    }
}

/// A decision of the server's modes (the design document's proposals).
fn mode_sentence(leader: NodeId, d: &ModeDecision) -> String {
    match d {
        ModeDecision::Promote {
            learner,
            matched,
            last,
            percent,
        } => format!(
            "leader {leader} promotes learner {learner}: match {matched} of {last} ≥ {percent}%"
        ),
        ModeDecision::NotYet { learner, reason } => format!(
            "leader {leader} does not promote learner {learner}, not yet: {}",
            not_yet_text(reason)
        ),
        ModeDecision::FailoverCountdown {
            voter,
            silent_ms,
            left_ms,
        } => format!(
            "leader {leader} has not heard from voter {voter} for {}: failover to a standby in {} unless it answers",
            span(*silent_ms),
            span(*left_ms)
        ),
        ModeDecision::FailoverCancelled { voter } => {
            format!("leader {leader} hears from voter {voter} again: no failover")
        }
        ModeDecision::FailoverRemove {
            voter,
            standby,
            silent_ms,
        } => format!(
            "leader {leader} fails over: voter {voter} silent for {}; it removes voter {voter} first, then promotes standby {standby}",
            span(*silent_ms)
        ),
        ModeDecision::FailoverPromote {
            standby,
            voter,
            grow: false,
        } => format!("leader {leader} promotes standby {standby} to replace voter {voter}"),
        ModeDecision::FailoverPromote {
            standby,
            voter,
            grow: true,
        } => format!(
            "leader {leader} fails over: promotes standby {standby} beside silent voter {voter} (failover=grow)"
        ),
        ModeDecision::FailoverBlocked {
            voter,
            standby: Some(s),
            reason,
        } => format!(
            "leader {leader} cannot fail over voter {voter} yet: standby {s}, not yet: {}",
            not_yet_text(reason)
        ),
        ModeDecision::FailoverBlocked {
            voter,
            standby: None,
            reason,
        } => format!(
            "leader {leader} cannot fail over voter {voter}: {}",
            not_yet_text(reason)
        ),
    }
}

fn mirror_sentence(m: &MirrorEvent) -> String {
    match *m {
        MirrorEvent::Started { mirror, from, to } => {
            format!("mirror {mirror} started: it copies member {from}'s cluster into member {to}'s")
        }
        MirrorEvent::Synced {
            mirror,
            revision,
            keys,
        } => format!(
            "mirror {mirror} copied {keys} key{} as of revision {revision}; it now watches from \
             revision {}",
            plural(keys as usize),
            revision + 1
        ),
        MirrorEvent::Relayed {
            mirror,
            count,
            revision,
        } => format!(
            "mirror {mirror} relayed {count} write{}, up to source revision {revision}",
            plural(count as usize)
        ),
        MirrorEvent::Paused {
            mirror,
            peer,
            revision,
        } => format!(
            "mirror {mirror} lost its watch through {peer}: it pauses, having received up to \
             revision {revision}"
        ),
        MirrorEvent::Resumed { mirror, revision } => {
            format!("mirror {mirror} watches again from revision {revision}")
        }
        MirrorEvent::Failed { mirror, error, .. } => {
            format!("mirror {mirror} failed and exited: {error}")
        }
        MirrorEvent::Stopped { mirror } => format!("mirror {mirror} stopped"),
    }
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

fn drop_reason(r: DropReason) -> &'static str {
    match r {
        DropReason::LinkCut => "the link is cut",
        DropReason::NodeDown => "the receiver is down",
        DropReason::NoRoute => "its peer URL names no host",
        DropReason::SenderRemoved => "the sender was removed from the cluster",
        DropReason::Lost => "it was lost on the network",
        DropReason::ByHand => "the `drop` command took it off the network",
    }
}

fn pre(pre_vote: bool) -> &'static str {
    if pre_vote {
        "pre-"
    } else {
        ""
    }
}

fn raft_sentence(node: NodeId, event: &RaftEvent) -> String {
    use RaftEvent::*;
    match event {
        BecameFollower { term, leader } if *leader != 0 => {
            format!("node {node} became follower of {leader} in term {term}")
        }
        BecameFollower { term, .. } => format!("node {node} became follower in term {term}"),
        BecamePreCandidate { term } => format!(
            "node {node} became pre-candidate and asks for pre-votes for term {}",
            term + 1
        ),
        BecameCandidate { term } => format!("node {node} became candidate for term {term}"),
        BecameLeader { term, votes } => format!(
            "node {node} became leader for term {term} with votes from {}",
            and_list(votes)
        ),
        VoteGranted {
            candidate,
            term,
            pre_vote,
        } => format!(
            "node {node} granted its {}vote to {candidate} for term {term}",
            pre(*pre_vote)
        ),
        VoteRejected {
            candidate,
            term,
            pre_vote,
            reason,
        } => format!(
            "node {node} rejected the {}vote of {candidate} for term {term}: {reason}",
            pre(*pre_vote)
        ),
        StepDownNoQuorum { term } => format!(
            "node {node} stepped down in term {term}: it cannot reach a quorum of voters (check-quorum)"
        ),
        Committed { index } => format!("node {node} committed up to index {index}"),
        SnapshotSent { to, index } => {
            format!("node {node} sent a snapshot at index {index} to {to}")
        }
        SnapshotRestored { index } => format!("node {node} installed a snapshot at index {index}"),
        ConfChangeRefused { reason, .. } => {
            format!("node {node} refused a membership change: {reason}")
        }
        ProposalDropped { reason } => format!("node {node} dropped a proposal: {reason}"),
        TransferStarted { to } => format!("node {node} is transferring leadership to {to}"),
        TransferIgnored { to, reason } => {
            format!("node {node} ignored a leadership transfer to {to}: {reason}")
        }
        TransferAborted { to } => format!("node {node} gave up transferring leadership to {to}"),
        IgnoredTimeoutNow { reason } => format!("node {node} ignored MsgTimeoutNow: {reason}"),
        CampaignIgnored { reason } => format!("node {node} will not campaign: {reason}"),
        ForgetLeaderIgnored => format!("node {node} ignored ForgetLeader: reads rely on the lease"),
        AutoLeaveProposed => format!("node {node} proposed leaving the joint configuration"),
    }
}

impl Renderer for English {
    fn time(&self, ms: u64) -> String {
        format!("t={}s", Fixed(ms as f64 / 1000.0, 2))
    }

    fn time_span(&self, from_ms: u64, to_ms: u64) -> String {
        format!(
            "t={}–{}s",
            Fixed(from_ms as f64 / 1000.0, 2),
            Fixed(to_ms as f64 / 1000.0, 2)
        )
    }

    fn event(&self, e: &Event) -> String {
        use EventKind::*;
        match &e.kind {
            Raft { node, event } => raft_sentence(*node, event),
            PutApplied { node, index, .. } => {
                format!("node {node} applied a write at index {index}")
            }
            PublishApplied { node, member } => {
                format!("node {node} applied member {member}'s announcement of itself")
            }
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
                Some(err) => format!(
                    "node {node} refused \"{}\" at index {index}: {}",
                    change_text(change),
                    err.etcd_text()
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
                Some(err) => format!(
                    "node {node} refused \"{}\" at index {index}: {}",
                    joint_text(change),
                    err.etcd_text()
                ),
            },
            DeleteApplied {
                node,
                index,
                deleted,
                revision,
                ..
            } => match deleted {
                0 => format!("node {node} applied a delete at index {index}: no such key"),
                _ => format!("node {node} applied a delete at index {index}: revision {revision}"),
            },
            CompactionApplied {
                node,
                index,
                rev,
                refused,
                ..
            } => match refused {
                None => format!(
                    "node {node} compacted its key history at revision {rev} (index {index})"
                ),
                Some(e) => format!(
                    "node {node} refused a compaction at revision {rev} (index {index}): {}",
                    e.etcd_text()
                ),
            },
            ReadServed { node, read, .. } => match read {
                Served::Key { key, rev, read } => {
                    let what = match rev {
                        0 => format!("a linearizable read of {key:?}"),
                        r => format!("a linearizable read of {key:?} at revision {r}"),
                    };
                    match read {
                        Ok(KeyRead { value: Some(v), .. }) => {
                            format!("node {node} served {what}: {v:?}")
                        }
                        Ok(KeyRead { value: None, .. }) => {
                            format!("node {node} served {what}: no such key")
                        }
                        Err(e) => format!("node {node} refused {what}: {}", e.etcd_text()),
                    }
                }
                Served::Members => format!("node {node} served a linearizable member list"),
                Served::Downgrade { asker } => format!(
                    "node {node} served a linearizable read for node {asker}'s process: no downgrade \
                     is enabled, and node {asker} starts raft"
                ),
            },
            Compacted { node, index } => {
                format!("node {node} took a snapshot at index {index} and compacted its log")
            }
            Join { node, peer, step } => match step {
                JoinStep::Unreachable { ms } => format!(
                    "node {node}'s process, joining, cannot reach node {peer} (cut off): it gives up \
                     dialling after {} (the peer dial timeout) before it starts raft",
                    span(*ms)
                ),
                JoinStep::Asks => format!(
                    "node {node}'s process, joining, asks node {peer} whether a downgrade is enabled \
                     before it starts raft: node {peer} answers after a linearizable read"
                ),
                JoinStep::LeaderChanged => format!(
                    "node {peer}'s leader changed before it confirmed the read for node {node}'s \
                     process, which fails it (leader changed): node {node} asks the next member"
                ),
                JoinStep::NoAnswer { ms } => format!(
                    "node {peer} could not confirm the read for node {node}'s process within {} \
                     (the request timeout): node {node} asks the next member",
                    span(*ms)
                ),
            },
            MessageDropped {
                from,
                to,
                kind,
                reason,
            } => format!(
                "{} from {from} to {to} was dropped: {}",
                kind.name(),
                drop_reason(*reason)
            ),
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
            WatchEvents {
                node,
                watch,
                count: 1,
                revision,
            } => format!("watch {watch} on node {node} received an event at revision {revision}"),
            WatchEvents {
                node,
                watch,
                count,
                revision,
            } => format!(
                "watch {watch} on node {node} received {count} events, up to revision {revision}"
            ),
            WatchCanceled {
                node,
                watch,
                compact_revision,
            } => format!(
                "watch {watch} on node {node} was cancelled: the history it needed was compacted \
                 at revision {compact_revision}"
            ),
            Mode { leader, decision } => mode_sentence(*leader, decision),
            Mirror(m) => mirror_sentence(m),
        }
    }

    fn result_summary(&self, r: &CommandResult) -> String {
        match (r.error, &r.detail) {
            (Some(code), Some(d)) => format!("error {code}: {d}"),
            (Some(code), None) => format!("error {code}"),
            (None, _) if r.pending => "sent, not waited for".to_string(),
            // A read shows what it read, in the trace, the log and a
            // lesson's step alike.
            (None, _) if r.value.is_some() => match r.value.as_ref().and_then(Option::as_ref) {
                Some(v) => format!("ok: value {}", json_string(v)),
                None => "ok: no such key".to_string(),
            },
            (None, Some(d)) => format!("ok: {d}"),
            (None, None) => "ok".to_string(),
        }
    }

    fn result_details(&self, r: &CommandResult) -> Option<String> {
        if !r.ok {
            return None;
        }
        let mut bits = Vec::new();
        if let Some(index) = r.index {
            bits.push(format!("committed at index {index}"));
        }
        if let Some(deleted) = r.deleted {
            bits.push(match (deleted, r.revision) {
                (0, _) => "no such key".to_string(),
                (_, Some(rev)) => format!("deleted at revision {rev}"),
                (_, None) => "deleted".to_string(),
            });
        }
        if let (Some(w), Some(events)) = (r.watch, &r.events) {
            bits.push(match events.len() {
                1 => format!("watch {w}: 1 event so far"),
                n => format!("watch {w}: {n} events so far"),
            });
        }
        if let Some(members) = &r.members {
            let text: Vec<String> = members
                .iter()
                .map(|m| {
                    format!(
                        "{}{} {}{}",
                        m.id,
                        if m.learner { " (learner)" } else { "" },
                        m.peer_url,
                        if m.started { "" } else { " not started" }
                    )
                })
                .collect();
            bits.push(text.join("; "));
        }
        (!bits.is_empty()).then(|| format!("  {}", bits.join(", ")))
    }

    fn echo(&self, command: &str) -> String {
        format!("› {command}")
    }

    fn logged_result(
        &self,
        time_ms: u64,
        r: &CommandResult,
        named: bool,
        expected: bool,
    ) -> String {
        let summary = self.result_summary(r);
        let what = if named {
            format!("{}: ", r.command)
        } else {
            String::new()
        };
        let bad = r.error.is_some();
        if bad && expected {
            return format!(
                "{} ✗ {what}{summary} (as the lesson expects)",
                self.time(time_ms)
            );
        }
        let mark = if bad { "✗" } else { "✓" };
        format!("{} {mark} {what}{summary}", self.time(time_ms))
    }

    fn unparsed(&self, command: &str, e: &ParseError) -> String {
        format!(
            "error: \"{command}\" does not parse: line {}, column {}: {}",
            e.line,
            e.column,
            e.kind.english()
        )
    }

    fn folded(&self, first_ms: u64, last_ms: u64, latest: &str, count: usize) -> String {
        format!("{} {latest} (×{count})", self.time_span(first_ms, last_ms))
    }

    fn campaign_folded(&self, c: &CampaignFold) -> String {
        let when = if c.first_ms == c.last_ms {
            self.time(c.first_ms)
        } else {
            self.time_span(c.first_ms, c.last_ms)
        };
        let what = if c.pre_vote { "pre-votes" } else { "votes" };
        let times = match c.campaigns {
            1 => "once".to_string(),
            n => format!("{n} times"),
        };
        let mut s = format!(
            "{when} node {} asked for {what} {times} (latest for term {})",
            c.node, c.term
        );
        if !c.granted.is_empty() {
            let _ = write!(s, "; granted by {}", and_list(&c.granted));
        }
        if !c.refused.is_empty() {
            let refusals: Vec<String> = c
                .refused
                .iter()
                .map(|(why, by)| format!("{} (by {})", refusal_words(why), and_list(by)))
                .collect();
            let _ = write!(s, "; refused: {}", refusals.join(", "));
        }
        s
    }

    fn branch_started(&self, fork_ms: u64, branch: u32, left: u32) -> String {
        format!(
            "↪ You acted in the past, at t = {}: branch {branch} starts here. \
             The run you left is kept as branch {left}: pick it in the branch list under the cluster.",
            seconds(fork_ms)
        )
    }

    fn branch_resumed(&self, branch: u32, at_ms: u64) -> String {
        format!(
            "↪ Back on branch {branch}, at t = {}, where you left it.",
            seconds(at_ms)
        )
    }

    fn refusal(&self, why: &Refusal) -> String {
        match why {
            Refusal::NoFreeId { max } => format!("error: every id from 1 to {max} is taken"),
            Refusal::NoLeaderToIsolate => {
                "error: there is no leader to isolate (no-leader)".to_string()
            }
            Refusal::TooFewToPartition => "error: a partition needs at least two nodes".to_string(),
            Refusal::NoBranch(id) => format!("error: there is no branch {id}"),
            Refusal::LessonHasNoBranches => {
                "error: a lesson has no branches: leave it first".to_string()
            }
            Refusal::RunInProgress => {
                "error: a run is in progress: wait for it to end, or cancel it".to_string()
            }
            Refusal::ClockOverBudget { budget, counted } => format!(
                "the clock stopped: the run holds more than its memory budget of {} (it counted {}); \
                 go back in time or reset to go on",
                crate::session::stop::mib(*budget),
                crate::session::stop::mib(*counted)
            ),
            Refusal::AutoPromoteRange => {
                "error: auto-promote takes a whole percentage from 1% to 100%".to_string()
            }
            Refusal::FailoverAfterRange { min_ms, max_ms } => format!(
                "error: failover-after must be from {} (the election timeout) to {}",
                crate::lang::ast::format_duration(*min_ms),
                crate::lang::ast::format_duration(*max_ms)
            ),
            Refusal::MaxLearnersRange { max } => {
                format!("error: max-learners takes a whole number from 0 to {max}")
            }
            Refusal::ModeChoice {
                option,
                found,
                choices,
            } => format!(
                "error: unknown {option} {found:?}; expected {}",
                choices.join(" or ")
            ),
            Refusal::Modes(e) => format!("error: {e}"),
        }
    }

    fn more_failed(&self, more: usize) -> String {
        let commands = if more == 1 { "command" } else { "commands" };
        format!("… and {more} more of its {commands} failed.")
    }

    fn nothing_happens(&self) -> String {
        "nothing more happens within a minute".to_string()
    }

    fn at_the_beginning(&self) -> String {
        "this is the beginning of the run".to_string()
    }

    fn seek_cancelled(&self, at_ms: u64) -> String {
        format!("Seek cancelled: still at t = {}.", seconds(at_ms))
    }

    fn surprises(&self, results: &[CommandResult]) -> String {
        let each: Vec<String> = results
            .iter()
            .map(|r| {
                let error = r.error.unwrap_or("");
                match &r.detail {
                    Some(d) if !d.is_empty() => format!("{}: {error} ({d})", r.command),
                    _ => format!("{}: {error}", r.command),
                }
            })
            .collect();
        format!("Not as the lesson says: {}", each.join("; "))
    }

    fn etcdctl_refusal(&self, e: &EtcdctlError) -> String {
        match e {
            EtcdctlError::Etcdctl(msg) => format!("Error: {msg}"),
            EtcdctlError::Server { code, member_id } => format!(
                "Error: {} (no member has the id {member_id:x}: etcdctl member list shows the ids)",
                code.etcd_text()
            ),
            EtcdctlError::Unmodelled { command } => format!(
                "raftlab does not model \"{}\": the console understands etcdctl {}; or type raftlab's own commands",
                etcdctl::full_name(command),
                etcdctl::MODELLED.join(", ")
            ),
            EtcdctlError::UnmodelledFlag { command, flag } => {
                format!(
                    "raftlab does not model the flag {flag} of \"{}\"",
                    etcdctl::full_name(command)
                )
            }
            EtcdctlError::UnmodelledPrinter { printer } => format!(
                "raftlab does not model etcdctl's {printer} printer (-w {printer}): the console \
                 prints with its simple and table printers (-w simple, -w table)"
            ),
            EtcdctlError::BadName { name } => format!(
                "raftlab cannot add a member named {name:?}: its members are named n1 to n15 (member N runs on host nN), \
                 as in etcdctl member add n4 --peer-urls=http://n4:2380"
            ),
            EtcdctlError::SeveralUrls => {
                "raftlab's members have one peer URL each: give --peer-urls a single URL".to_string()
            }
            EtcdctlError::BadEndpoints { endpoints } => format!(
                "raftlab's etcdctl takes one endpoint in --endpoints, a member's client URL, as in \
                 --endpoints=http://n2:2379 (member N listens on host nN, port 2379), not {endpoints:?}; \
                 without --endpoints it reaches every member"
            ),
            EtcdctlError::NegativeRevision { rev } => format!(
                "raftlab's revisions are whole numbers, and it does not run a compaction to {rev}: \
                 etcd refuses a negative revision as \"etcdserver: mvcc: required revision has been compacted\""
            ),
        }
    }

    fn etcdctl_recorded(&self, command: &str) -> String {
        format!("recorded as: {command}")
    }

    fn share_refusal(&self, e: &ShareError) -> String {
        e.message.clone()
    }

    fn no_lesson(&self, id: &str) -> String {
        format!("there is no lesson {id:?}")
    }

    fn quorum_verdict(&self, q: &QuorumView) -> String {
        let Some(leader) = q.leader else {
            return "no leader: no write can commit until an election is won".to_string();
        };
        let (n, voters) = (q.reachable.len(), q.voters.len());
        if q.can_reach_quorum {
            format!(
                "leader {leader} reaches {n} of {voters} voters: quorum {} holds",
                q.quorum
            )
        } else {
            format!(
                "leader {leader} reaches only {n} of {voters} voters (quorum {}): it will step down",
                q.quorum
            )
        }
    }

    fn quorum_sentence(&self, q: &QuorumView) -> String {
        let mut s = format!(
            "Voters: {} ({}). Quorum: {}.",
            q.voters.len(),
            list(&q.voters),
            q.quorum
        );
        if !q.learners.is_empty() {
            s += &format!(" Learners (not counted): {}.", list(&q.learners));
        }
        let Some(from) = q.from else {
            s += " No member is running.";
            return s;
        };
        let who = if q.leader == Some(from) {
            format!("Leader {from}")
        } else {
            format!("No leader; node {from} (highest term)")
        };
        let n = q.reachable.len();
        s += &format!(
            " {who} reaches {n} voter{} ({}): ",
            if n == 1 { "" } else { "s" },
            list(&q.reachable)
        );
        if q.has_quorum {
            s += "a quorum.";
        } else {
            s += &format!("{} short of the quorum.", q.quorum.saturating_sub(n));
        }
        s
    }

    fn node_head(&self, kind: Option<LearnerKind>, state: NodeState) -> String {
        let what = state.code();
        match kind {
            None => what.to_string(),
            Some(LearnerKind::Plain) => format!("learner · {what}"),
            Some(LearnerKind::Standby) => format!("standby · {what}"),
            Some(LearnerKind::ReadOnly(m)) => format!("read-only {m} · {what}"),
        }
    }

    fn learner_word(&self, kind: LearnerKind) -> String {
        match kind {
            LearnerKind::Plain => "learner".to_string(),
            LearnerKind::Standby => "standby".to_string(),
            LearnerKind::ReadOnly(m) => format!("read-only {m}"),
        }
    }

    fn sees_itself(&self, learner: bool, short: bool) -> String {
        let kind = if learner { "learner" } else { "voter" };
        if short {
            format!("thinks: {kind}")
        } else {
            format!("sees itself as a {kind}")
        }
    }

    fn auto_promote_at(&self, percent: u8) -> String {
        format!("auto-promotes at {percent}%")
    }

    fn message_counts(&self, received: u64, sent: u64, compact: bool) -> String {
        if compact {
            format!("in {received} · out {sent}")
        } else {
            format!("msgs in {received} · out {sent}")
        }
    }

    fn history_lane(&self, key: &str, client: ClientId) -> String {
        let who = match client {
            crate::server::history::SCRIPT_CLIENT => "you".to_string(),
            crate::server::history::LOAD_CLIENT => "load".to_string(),
            c => format!("client {c}"),
        };
        format!("{} · {who}", crate::lang::ast::format_text(key))
    }

    fn history_op(&self, kind: OpName, value: Option<&str>) -> String {
        let v = |v: Option<&str>| v.map_or("absent".to_string(), crate::lang::ast::format_text);
        match kind {
            OpName::Write => format!("put {}", v(value)),
            OpName::Read => format!("get → {}", v(value)),
            OpName::Delete => "delete".to_string(),
        }
    }

    fn history_tick(&self, ms: u64) -> String {
        format!("{}.{:02}s", ms / 1000, ms % 1000 / 10)
    }

    fn history_verdict(&self, v: &HistoryVerdict) -> String {
        let value = |v: &Option<String>| {
            v.as_deref()
                .map_or("nothing (the key was absent)".to_string(), |v| {
                    format!("\"{v}\"")
                })
        };
        match v {
            HistoryVerdict::Empty => {
                "No client operation yet: put and get keys, and each appears here on a time axis."
                    .to_string()
            }
            HistoryVerdict::Linearizable { operations, keys } => format!(
                "✓ Linearizable: one order of the {operations} operation{} on {keys} key{} explains every read.",
                plural(*operations),
                plural(*keys)
            ),
            HistoryVerdict::StaleRead {
                key,
                read_value,
                read_ms,
                missed_value,
                missed_done_ms,
            } if read_ms == missed_done_ms => format!(
                "✗ Not linearizable: a stale read. On key {}, the get sent right after the put of {} finished (at {}) returned {}. No order of these operations explains it.",
                crate::lang::ast::format_text(key),
                value(missed_value),
                seconds(*read_ms),
                value(read_value),
            ),
            HistoryVerdict::StaleRead {
                key,
                read_value,
                read_ms,
                missed_value,
                missed_done_ms,
            } => format!(
                "✗ Not linearizable: a stale read. On key {}, the get sent at {} returned {}, though the put of {} had finished at {}. No order of these operations explains it.",
                crate::lang::ast::format_text(key),
                seconds(*read_ms),
                value(read_value),
                value(missed_value),
                seconds(*missed_done_ms)
            ),
            HistoryVerdict::NotLinearizable { key, operations } => format!(
                "✗ Not linearizable: on key {}, no order of the {operations} operations in red explains what the reads returned.",
                crate::lang::ast::format_text(key)
            ),
        }
    }

    fn history_note(
        &self,
        from_ms: u64,
        to_ms: u64,
        shown: usize,
        total: usize,
        hidden_lanes: usize,
    ) -> String {
        let mut s = format!(
            "t = {} to {}: {shown} of {total} operation{}",
            seconds(from_ms),
            seconds(to_ms),
            plural(total)
        );
        if hidden_lanes > 0 {
            let _ = write!(
                s,
                "; {hidden_lanes} more lane{} not shown",
                plural(hidden_lanes)
            );
        }
        s
    }

    fn failover_countdown(&self, f: &FailoverView) -> String {
        if f.left_ms == 0 {
            "failover due: needs a ready standby".to_string()
        } else {
            format!("failover in {}", span(f.left_ms))
        }
    }

    fn unreachable_url(&self, url: &str, short: bool) -> String {
        if short {
            "unreachable URL".to_string()
        } else {
            format!("unreachable URL {url}")
        }
    }

    fn progress(&self, p: &ProgressView, compact: bool) -> String {
        let state = p.state.name();
        if compact {
            format!("m {} · n {} · {state}", p.matched, p.next)
        } else {
            format!("match {} · next {} · {state}", p.matched, p.next)
        }
    }

    fn send_queue(&self, bytes: u64) -> String {
        let size = if bytes >= 1 << 20 {
            format!("{} MB", Fixed(bytes as f64 / (1u64 << 20) as f64, 1))
        } else if bytes >= 1 << 10 {
            format!("{} KB", Fixed(bytes as f64 / 1024.0, 0))
        } else {
            format!("{bytes} B")
        };
        format!("send queue {size}")
    }

    fn log_title(&self) -> String {
        "log".to_string()
    }

    fn log_row(&self, id: NodeId, learner: bool, short: bool) -> String {
        match (learner, short) {
            (true, false) => format!("node {id} (L)"),
            (true, true) => format!("{id}(L)"),
            (false, false) => format!("node {id}"),
            (false, true) => id.to_string(),
        }
    }

    fn no_log(&self) -> String {
        "no log yet".to_string()
    }

    fn ring_caption(&self, leader: Option<(NodeId, u64)>, revision: u64) -> String {
        match leader {
            Some((id, term)) => format!("leader {id} · term {term} · rev {revision}"),
            None => format!("no leader · rev {revision}"),
        }
    }

    fn mirror_caption(&self, m: &crate::session::view::MirrorView) -> [String; 2] {
        let r = &m.report;
        [
            format!("mirror {} · {}", r.id, r.state),
            match r.error {
                Some(e) => e.to_string(),
                None => format!("relayed to rev {}", r.last_revision),
            },
        ]
    }

    fn log_mark(&self, mark: LogMark) -> String {
        match mark {
            LogMark::Commit => "commit",
            LogMark::Applied => "applied",
            LogMark::Snapshot => "snapshot",
            LogMark::MemberChange => "member change",
            LogMark::Uncommitted => "uncommitted",
            LogMark::Compacted => "compacted",
        }
        .to_string()
    }

    fn safety_headline(&self, violations: &[ViolationView]) -> String {
        let Some(first) = violations.first() else {
            return "Raft safety: all invariants hold".to_string();
        };
        let more = match violations.len() {
            1 => String::new(),
            n => format!(" (+{} more)", n - 1),
        };
        format!(
            "Raft safety broken: {} at {}{more}",
            first.property,
            when_who(first)
        )
    }

    fn violation(&self, v: &ViolationView) -> String {
        if v.text.is_empty() {
            format!("{} · {}", when_who(v), v.property)
        } else {
            format!("{} · {}: {}", when_who(v), v.property, v.text)
        }
    }

    fn safety_list_head(&self, count: usize) -> String {
        if count == 0 {
            format!("No violation. Checked after every event: {CHECKED}.")
        } else {
            format!(
                "{count} violation{} of Raft's safety properties (checked after every event):",
                if count == 1 { "" } else { "s" }
            )
        }
    }

    fn safety_tip(&self, ok: bool) -> String {
        if ok {
            "Every Raft safety property is checked after every event; click for the list"
        } else {
            "A safety property was broken; click for every violation"
        }
        .to_string()
    }
}

/// What the world checks after every event.
const CHECKED: &str = "election safety, log matching, leader completeness, \
     state machine safety, term and commit monotonicity, learners never campaign";

/// "t=12.34s, nodes 1 and 2" (no nodes: just the time).
fn when_who(v: &ViolationView) -> String {
    let t = format!("t={}s", Fixed(v.time_ms as f64 / 1000.0, 2));
    match v.nodes.as_slice() {
        [] => t,
        [one] => format!("{t}, node {one}"),
        many => format!("{t}, nodes {}", and_list(many)),
    }
}

/// A value as JavaScript's `JSON.stringify` writes a string (the page
/// showed values that way): double-quoted, with `"`, `\` and control
/// characters escaped.
pub(crate) fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_quoted_as_javascript_quotes_them() {
        for s in [
            "plain",
            "with \"quotes\" and \\",
            "tab\tnew\nline\u{1}",
            "ünï ✓",
        ] {
            assert_eq!(json_string(s), serde_json::to_string(s).unwrap(), "{s:?}");
        }
    }
}
