//! The Japanese renderer: every sentence of [`Renderer`] in 日本語, made
//! from the same structured events and results as the English ones (never
//! by translating English text). The vocabulary is the design document's
//! (学習者メンバー, 投票メンバー, 昇格, クォーラム, リーダー選挙...); the
//! glossary is `docs/glossary-ja.md`.
//!
//! As in English, etcd's own error texts ("etcdserver: ..."), Raft's message
//! names ("MsgApp"), error codes, progress states and commands are quoted as
//! they are written. A server error's detail, a failed expectation and a
//! refused link are said from their facts (`ErrorDetail`, `Unmet`,
//! `ShareProblem`) after the code's Japanese explanation; only etcd's (and
//! Go's) own texts inside them stay in English.
//!
//! The words are not here: each sentence is a template of
//! `narration-ja.txt` (see `narration.rs`), said with `ja!` by its name
//! and its facts. This file is the grammar: which sentence, with which
//! facts, and how the sentences nest.

/// One sentence of the catalog (`narration.rs`), filled with its facts:
/// `ja!(ServerNoLeaderKnown, via, etcd = e.code.etcd_text())` — each fact
/// named as the template names it, in the order the template first uses
/// them (a native build checks the names; the page's module has none).
macro_rules! ja {
    (@value $name:ident) => {
        $name
    };
    (@value $name:ident = $value:expr) => {
        $value
    };
    ($id:ident $(, $name:ident $(= $value:expr)?)* $(,)?) => {{
        #[cfg(not(target_arch = "wasm32"))]
        crate::words::catalog_ja::debug_check(
            crate::words::catalog_ja::Sentence::$id,
            &[$(stringify!($name)),*],
        );
        crate::words::catalog_ja::render(
            crate::words::catalog_ja::Sentence::$id,
            &[$(&ja!(@value $name $(= $value)?) as &dyn std::fmt::Display),*],
        )
    }};
}

use crate::raft::{ConfChangeType, ConfChangeV2, NodeId, RaftEvent};
use crate::server::request::DEADLINE_EXCEEDED;
use crate::server::{ErrorCode, ErrorDetail, SelfView, ServerError, UrlProblem, Waited};
use crate::sim::{
    DropReason, Event, EventKind, JoinStep, KeyRead, MirrorEvent, ModeDecision, NotYet, Served,
};
use crate::text::fixed::Fixed;

use crate::lang::ast::COMMAND_NAMES;
use crate::lang::ast::{format_quoted, MAX_NODE_ID, MIN_NODE_ID};
use crate::lang::etcdctl::{self, EtcdctlError};
use crate::lang::parse::{ParseError, ParseErrorKind};
use crate::lang::parse_error::{Form, Least, Named, SayProblem, CONDITION_FORMS};
use crate::lang::say::{Facts, Placeholder};
use crate::session::cond::{SetName, Unmet};
use crate::session::failure::Failure;
use crate::session::narrate::CampaignFold;
use crate::session::refusal::Refusal;
use crate::session::report::{CommandResult, HandDone};
use crate::session::share::{ShareError, ShareProblem, Source, LINK_VERSION};
use crate::session::stop::{mib, Stop};
use crate::session::view::{
    FailoverView, HistoryVerdict, LearnerKind, LogMark, NodeState, ProgressView, QuorumView,
    ViolationView,
};
use crate::sim::linearizability::{Anomaly, ClientId, OpName};
use crate::words::renderer::Renderer;
use crate::words::text_en::json_string;

/// A server's refusal or failure in Japanese, from its facts. etcd's own
/// text (and Go's, for a URL) is quoted as written, after raftlab's words.
pub fn server_detail(e: &ServerError) -> String {
    use ErrorDetail::*;
    let etcd = e.code.etcd_text();
    match &e.why {
        EtcdText => ja!(ServerEtcdText, etcd),
        Membership(m) => ja!(ServerMembership, etcd = m.etcd_text()),
        NoLeaderKnown { via } => ja!(ServerNoLeaderKnown, via, etcd),
        NoMemberRunning => ja!(ServerNoMemberRunning, etcd),
        ProposalDropped { why } => ja!(ServerProposalDropped, reason = reason(why.reason()), etcd),
        Unexpected { outcome } => ja!(ServerUnexpected, outcome),
        Removed { id } => ja!(ServerRemoved, id),
        RemovedCannotReturn { id } => ja!(ServerRemovedCannotReturn, id),
        RemovedForGood { id } => ja!(ServerRemovedForGood, id),
        NotRunning { id } => ja!(ServerNotRunning, id),
        NodeDown { id } => ja!(ServerNodeDown, id),
        Stopped { id, in_raft: false } => ja!(ServerStopped, id, etcd),
        Stopped { id, in_raft: true } => ja!(ServerStoppedInRaft, id),
        AlreadyRunning { id } => ja!(ServerAlreadyRunning, id),
        NotAMember { id } => ja!(ServerNotAMember, id),
        NoSuchNode { id } => ja!(ServerNoSuchNode, id),
        LearnerRpc { via } => ja!(ServerLearnerRpc, via, etcd),
        NotTracked { leader, id } => ja!(ServerNotTracked, leader, id, etcd),
        ReadOnlyLearner { id, mode } => ja!(ServerReadOnlyLearner, id, mode),
        LearnerNotReady {
            id,
            learner: true,
            learner_match,
            leader_match,
            percent,
        } => ja!(
            ServerLearnerNotReady,
            id,
            learner_match,
            leader_match,
            percent
        ),
        // A voter's: the same facts, and why etcd measured it at all.
        LearnerNotReady {
            id,
            learner: false,
            learner_match,
            leader_match,
            percent,
        } => ja!(
            ServerVoterNotReady,
            id,
            learner_match,
            leader_match,
            percent
        ),
        NotEnoughStarted {
            started,
            quorum,
            voters,
            others,
        } => ja!(
            ServerNotEnoughStarted,
            others = if *others {
                ja!(ServerNotEnoughStartedOthers)
            } else {
                String::new()
            },
            started,
            voters,
            quorum,
            etcd
        ),
        UnhealthyNotAll {
            connected,
            voters,
            release,
        } => ja!(ServerUnhealthyNotAll, voters, connected, release, etcd),
        UnhealthyAdd {
            connected,
            quorum,
            members,
        } => ja!(ServerUnhealthyAdd, connected, members, quorum, etcd),
        UnhealthyRemove {
            connected,
            voters,
            remain,
            quorum,
            after,
        } => ja!(
            ServerUnhealthyRemove,
            voters,
            connected,
            remain,
            after,
            quorum,
            etcd
        ),
        BadPeerUrl { url, problem } => ja!(
            ServerBadPeerUrl,
            url = format!("{:?}", url),
            why = url_problem(problem),
            etcd
        ),
        PeerListener {
            id,
            peer_url,
            go_error,
        } => ja!(ServerPeerListener, id, peer_url, go_error),
        BadTransferee { to, learner: false } => ja!(ServerTransfereeNotMember, to, etcd),
        BadTransferee { to, learner: true } => ja!(ServerTransfereeLearner, to, etcd),
        Deadline {
            waited,
            raft_refused,
        } => deadline(waited, *raft_refused),
        WatchCanceled {
            watch,
            compact_revision,
        } => ja!(ServerWatchCanceled, watch, etcd, compact_revision),
        IdInCluster { id, cluster } => ja!(ServerIdInCluster, id, cluster),
        MirrorExists { id } => ja!(ServerMirrorExists, id),
        ClusterNameTaken { name } => ja!(ServerClusterNameTaken, name),
        MirrorSameCluster { from, to, cluster } => ja!(ServerMirrorSameCluster, from, to, cluster),
        NoSuchMirror { id } => ja!(ServerNoSuchMirror, id),
        NoLinkAcross { a, b } => ja!(ServerNoLinkAcross, a, b),
        NothingToDeliver { link, held } => {
            let on = link.map_or(String::new(), |(a, b)| ja!(ServerFromTo, a, b));
            match held {
                0 => ja!(ServerNothingToDeliver, on),
                held => ja!(ServerNothingToDeliverHeld, on, held),
            }
        }
        NothingToDrop { from, to, kind, id } => {
            let kind = kind.map_or(ja!(ServerAnyMessage), |k| k.name().to_string());
            let id = id.map_or(String::new(), |id| ja!(ServerMessageNumbered, id));
            ja!(ServerNothingToDrop, from, to, id, kind)
        }
    }
}

/// What etcd's client says of a peer URL it refuses, in Japanese around
/// Go's or etcd's words.
fn url_problem(problem: &UrlProblem) -> String {
    match problem {
        UrlProblem::Parse { input, go_error } => {
            ja!(UrlGoParse, input = format!("{:?}", input), go_error)
        }
        UrlProblem::Rule { input, rule } => ja!(UrlEtcdRule, rule, input),
    }
}

/// A request whose wait ended: what it waited for, and raft's refusal of
/// the change, if raft refused it.
fn deadline(waited: &Waited, raft_refused: Option<&str>) -> String {
    let what = match waited {
        Waited::Transfer { to } => ja!(DeadlineTransfer, to),
        Waited::NoLeaderAt { via } => ja!(
            DeadlineNoLeaderAt,
            deadline_exceeded = DEADLINE_EXCEEDED,
            via
        ),
        Waited::NoMember => ja!(DeadlineNoMember, deadline_exceeded = DEADLINE_EXCEEDED),
        Waited::NotRunning { via } => ja!(
            DeadlineNotRunning,
            deadline_exceeded = DEADLINE_EXCEEDED,
            via
        ),
        Waited::ClientDeadline => {
            ja!(DeadlineClient, deadline_exceeded = DEADLINE_EXCEEDED)
        }
        Waited::ServerTimeout => {
            ja!(DeadlineServerTimeout, etcd = ErrorCode::Timeout.etcd_text())
        }
    };
    match raft_refused {
        Some(r) => ja!(DeadlineRaftRefused, what, reason = reason(r)),
        None => what,
    }
}

/// A node's role as a condition names it, in Japanese.
fn role_name(role: &str) -> String {
    match role {
        "leader" => ja!(RoleLeader),
        "follower" => ja!(RoleFollower),
        "candidate" => ja!(RoleCandidate),
        "pre-candidate" => ja!(RolePreCandidate),
        "down" => ja!(RoleDown),
        other => other.to_string(),
    }
}

/// What was true instead of a condition, in Japanese.
pub fn unmet(u: &Unmet) -> String {
    match u {
        Unmet::NoLeader => ja!(UnmetNoLeader),
        Unmet::LeaderIs(l) => ja!(UnmetLeaderIs, leader = l),
        Unmet::Match { id, matched, last } => ja!(UnmetMatch, id, last, matched),
        Unmet::NotTracked(id) => ja!(UnmetNotTracked, id),
        Unmet::NotApplied { commit, behind } => {
            let each: Vec<String> = behind
                .iter()
                .map(|(id, applied)| ja!(UnmetAppliedUpTo, id, applied))
                .collect();
            ja!(UnmetNotApplied, commit, each = each.join("、"))
        }
        Unmet::Quorum(q) => ja!(UnmetQuorum, quorum = q),
        Unmet::Set { set, actual } => {
            let what = match set {
                SetName::Voters => ja!(SetVoters),
                SetName::Learners => ja!(SetLearners),
                SetName::OutgoingVoters => ja!(SetOutgoingVoters),
            };
            let ids: Vec<String> = actual.iter().map(|id| id.to_string()).collect();
            ja!(UnmetSet, what, ids = ids.join(","))
        }
        Unmet::Term(t) => ja!(UnmetTerm, term = t),
        Unmet::Commit(c) => ja!(UnmetCommit, commit = c),
        Unmet::Role { id, actual } => ja!(UnmetRole, id, role = role_name(actual)),
        Unmet::SeesItself { id, actual } => match actual {
            Some(SelfView::Learner) => ja!(UnmetSeesItselfLearner, id),
            Some(SelfView::Voter) => ja!(UnmetSeesItselfVoter, id),
            Some(SelfView::Outside) => ja!(UnmetSeesItselfOutside, id),
            None => ja!(UnmetRole, id, role = role_name("down")),
        },
        Unmet::Progress { id, actual } => ja!(UnmetProgress, id, actual),
        Unmet::NoPrevious => ja!(UnmetNoPrevious),
        Unmet::PreviousFailed(code) => ja!(UnmetPreviousFailed, code),
        Unmet::PreviousSucceeded => ja!(UnmetPreviousSucceeded),
        Unmet::PreviousNotGet => ja!(UnmetPreviousNotGet),
        Unmet::PreviousRead(Some(v)) => ja!(UnmetPreviousRead, value = format_quoted(v)),
        Unmet::PreviousRead(None) => ja!(UnmetPreviousReadAbsent),
        Unmet::Anomaly(None) => ja!(UnmetNotLinearizable),
        Unmet::Anomaly(Some(a)) => anomaly(a),
        Unmet::Linearizable { operations, keys } => ja!(UnmetLinearizable, keys, operations),
        Unmet::NoWatch(w) => ja!(UnmetNoWatch, watch = w),
        Unmet::Mirror { id, actual: None } => ja!(UnmetNoMirror, id),
        Unmet::MirrorError { id, code: None } => ja!(UnmetMirrorNotFailed, id),
        Unmet::MirrorError {
            id,
            code: Some(code),
        } => ja!(UnmetMirrorFailed, id, code),
        Unmet::Mirror {
            id,
            actual: Some(state),
        } => ja!(UnmetMirrorState, id, state),
        Unmet::WatchEvents { watch, events } => ja!(UnmetWatchEvents, watch, events),
        Unmet::WatchOpen { watch, events } => ja!(UnmetWatchOpen, watch, events),
        Unmet::Queued {
            node,
            named,
            queued,
        } => {
            let whose = if *named {
                ja!(QueuedNode, node)
            } else {
                ja!(QueuedLeader, node)
            };
            ja!(UnmetQueued, whose, queued)
        }
        Unmet::Messages { id, out, count } => {
            let verb = if *out {
                ja!(MessagesSent)
            } else {
                ja!(MessagesReceived)
            };
            ja!(UnmetMessages, id, verb, count)
        }
        Unmet::OnLink {
            from,
            to,
            held: true,
            count,
        } => ja!(UnmetHeld, from, to, count),
        Unmet::OnLink {
            from, to, count, ..
        } => ja!(UnmetInFlight, from, to, count),
    }
}

/// The operations on one key that no order explains, each with its
/// moments, in Japanese.
fn anomaly(a: &Anomaly) -> String {
    let ops: Vec<String> = a
        .operations
        .iter()
        .map(|op| {
            let what = match (op.kind, &op.value) {
                (OpName::Write, Some(v)) => ja!(AnomalyWrite, value = format_quoted(v)),
                (OpName::Read, Some(v)) => ja!(AnomalyRead, value = format_quoted(v)),
                (OpName::Read, None) => ja!(AnomalyReadAbsent),
                (OpName::Write, None) | (OpName::Delete, _) => ja!(AnomalyDelete),
            };
            let end = op.response_ms.map_or(ja!(AnomalyNoResponse), |r| {
                ja!(AnomalySeconds, seconds = Fixed(r as f64 / 1000.0, 2))
            });
            ja!(
                AnomalyOperation,
                what,
                invoke = Fixed(op.invoke_ms as f64 / 1000.0, 2),
                end
            )
        })
        .collect();
    ja!(
        UnmetAnomalyKey,
        key = format_quoted(&a.key),
        ops = ops.join("、")
    )
}

/// Why a command failed, in Japanese.
pub fn failure_detail(f: &Failure) -> String {
    match f {
        Failure::Server(e) => server_detail(e),
        Failure::Expect { cond, unmet: u } => ja!(FailureExpect, cond, unmet = unmet(u)),
        Failure::WaitUntil {
            cond,
            within_ms,
            unmet: u,
        } => ja!(
            FailureWaitUntil,
            cond,
            within_ms = duration(*within_ms),
            unmet = unmet(u)
        ),
        Failure::Stopped(stop) => Japanese.stopped(stop),
    }
}

/// A failed command's detail in Japanese: from its facts when it has
/// them, else the words it carries.
fn result_detail(r: &CommandResult) -> Option<String> {
    match &r.failure {
        Some(f) => Some(failure_detail(f)),
        None => r.detail.clone(),
    }
}

/// Why a link or a file does not open, in Japanese.
pub fn share_problem(p: &ShareProblem) -> String {
    use ShareProblem::*;
    let source = |s: &Source| match s {
        Source::File => ja!(SourceFile),
        Source::Link => ja!(SourceLink),
    };
    match p {
        Script { source: s, error } => ja!(
            ShareScript,
            source = source(s),
            line = error.line,
            column = error.column,
            why = parse_error(&error.kind)
        ),
        TooLongRun {
            source: s,
            bound,
            limit,
        } => ja!(ShareTooLongRun, source = source(s), bound, limit),
        Moment { line, why } => ja!(ShareMoment, line, why = parse_error(why)),
        LinkTooLong { chars, max } => ja!(ShareLinkTooLong, chars, max),
        NotALink { found } => ja!(ShareNotALink, link_version = LINK_VERSION, found),
        Version { version } => ja!(ShareVersion, version, link_version = LINK_VERSION),
        TruncatedBytes { bytes } => ja!(ShareTruncatedBytes, bytes),
        Checksum { expected, actual } => ja!(
            ShareChecksum,
            expected = format!("{:08x}", expected),
            actual = format!("{:08x}", actual)
        ),
        EscapeAtEnd => ja!(ShareEscapeAtEnd),
        NotUtf8 { at } => ja!(ShareNotUtf8, at),
        NotBase64 { c, at } => ja!(
            ShareNotBase64,
            at,
            char = format!("{:?}", c),
            link_version = LINK_VERSION
        ),
        TruncatedChars { chars } => ja!(ShareTruncatedChars, chars),
        NotCanonical => ja!(ShareNotCanonical),
    }
}

/// A `say-ja` line filled with the run's facts in Japanese words.
pub fn say_ja(template: &str, facts: &Facts) -> String {
    crate::lang::say::fill_with(template, facts, &say_word)
}

/// What a `say` placeholder stands for, in Japanese: a node always as
/// 「ノード2」 (a list 「ノード1、2、3」), a count with its counter
/// (「2つ」), a moment in seconds (「4.21秒」), 「なし」 for none; a term, an
/// index, a value and an error code as they are.
pub fn say_word(slot: Placeholder, facts: &Facts) -> String {
    let none = || ja!(SayNone);
    match slot {
        Placeholder::Leader => facts.leader.map_or_else(none, |id| ja!(SayNode, id)),
        Placeholder::Voters if facts.voters.is_empty() => none(),
        Placeholder::Voters => ja!(SayNode, id = list(&facts.voters)),
        Placeholder::Learners if facts.learners.is_empty() => none(),
        Placeholder::Learners => ja!(SayNode, id = list(&facts.learners)),
        Placeholder::Quorum => ja!(SayCount, count = facts.quorum),
        Placeholder::Term => facts.term.to_string(),
        Placeholder::Commit => facts.commit.to_string(),
        Placeholder::Value => facts.value.clone().unwrap_or_else(none),
        Placeholder::Error => facts.error.map_or_else(none, str::to_string),
        Placeholder::Time => ja!(
            SaySeconds,
            seconds = Fixed(facts.time_ms as f64 / 1000.0, 2)
        ),
    }
}

/// raftlab in 日本語.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Japanese;

/// "1、2、3".
fn list(ids: &[NodeId]) -> String {
    ids.iter()
        .map(|id| id.to_string())
        .collect::<Vec<_>>()
        .join("、")
}

/// A lesson's header note: "etcd 3.4.23と3.5.1で検証済み" (a list in 「、」, the last after と).
pub fn lesson_checked(releases: &[String]) -> String {
    let list = match releases {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{}と{last}", rest.join("、")),
    };
    ja!(LessonChecked, releases = list)
}

/// "2.31秒": a moment in running text.
pub fn seconds(ms: u64) -> String {
    ja!(Seconds, ms = Fixed(ms as f64 / 1000.0, 2))
}

/// "2.0秒": a duration in a mode's sentence.
/// "2秒", "1.5秒", "250ミリ秒": a stretch of time in running text (the
/// scenario language's `2s`, `1500ms`, `250ms`).
fn duration(ms: u64) -> String {
    if ms >= 1000 && ms % 100 == 0 {
        let tenths = ms / 100;
        if tenths % 10 == 0 {
            ja!(DurationSeconds, seconds = tenths / 10)
        } else {
            ja!(DurationSeconds, seconds = Fixed(ms as f64 / 1000.0, 1))
        }
    } else if ms >= 1000 {
        ja!(DurationSeconds, seconds = Fixed(ms as f64 / 1000.0, 3))
    } else {
        ja!(DurationMillis, ms)
    }
}

fn span(ms: u64) -> String {
    ja!(Span, ms = Fixed(ms as f64 / 1000.0, 1))
}

/// A reason a Raft node gives (etcd-raft's words), in Japanese; an unknown
/// one is quoted as it is.
fn reason(r: &str) -> String {
    match r {
        "lease" => ja!(ReasonLease),
        "already voted" => ja!(ReasonAlreadyVoted),
        "leader known" => ja!(ReasonLeaderKnown),
        "log not up to date" => ja!(ReasonLogNotUpToDate),
        "learner" => ja!(ReasonLearner),
        "no leader" => ja!(ReasonNoLeader),
        "already leader" => ja!(ReasonAlreadyLeader),
        "pending configuration changes to apply" => ja!(ReasonPendingConfigurationChangesToApply),
        "not a follower" => ja!(ReasonNotAFollower),
        "unknown member" => ja!(ReasonUnknownMember),
        "transfer already in progress" => ja!(ReasonTransferAlreadyInProgress),
        "leadership transfer in progress" => ja!(ReasonLeadershipTransferInProgress),
        "leader not in the configuration" => ja!(ReasonLeaderNotInTheConfiguration),
        "must transition out of joint config first" => {
            ja!(ReasonMustTransitionOutOfJointConfigFirst)
        }
        "config is already joint" => ja!(ReasonConfigIsAlreadyJoint),
        "can't make a zero-voter config joint" => ja!(ReasonCantMakeAZeroVoterConfigJoint),
        "can't leave a non-joint config" => ja!(ReasonCantLeaveANonJointConfig),
        "can't apply simple config change in joint config" => {
            ja!(ReasonCantApplySimpleConfigChangeInJointConfig)
        }
        "more than one voter changed without entering joint config" => {
            ja!(ReasonMoreThanOneVoterChangedWithoutEnteringJointConfig)
        }
        "removed all voters" => ja!(ReasonRemovedAllVoters),
        other => ja!(ReasonUnknown, other),
    }
}

/// Why a learner is not promoted yet.
fn not_yet_text(reason: &NotYet) -> String {
    match reason {
        NotYet::Behind {
            matched,
            last,
            percent_now,
            percent,
        } => ja!(NotYetBehind, percent_now, percent, last, matched),
        NotYet::NotHeard { silent_ms: None } => ja!(NotYetNeverHeard),
        NotYet::NotHeard {
            silent_ms: Some(ms),
        } => ja!(NotYetNotHeard, silent = span(*ms)),
        NotYet::Snapshot => ja!(NotYetSnapshot),
        NotYet::Strict(e) => ja!(
            NotYetStrict,
            detail = e
                .get::<ServerError>()
                .map(server_detail)
                .unwrap_or_default()
        ),
        NotYet::NotTracked => ja!(NotYetNotTracked),
        NotYet::NoStandby => ja!(NotYetNoStandby),
    }
}

/// A mirror's event.
fn mirror_sentence(m: &MirrorEvent) -> String {
    match *m {
        MirrorEvent::Started { mirror, from, to } => ja!(MirrorStarted, mirror, from, to),
        MirrorEvent::Synced {
            mirror,
            revision,
            keys,
        } => ja!(MirrorSynced, mirror, revision, keys, next = revision + 1),
        MirrorEvent::Relayed {
            mirror,
            count,
            revision,
        } => ja!(MirrorRelayed, mirror, count, revision),
        MirrorEvent::Paused {
            mirror,
            peer,
            revision,
        } => ja!(MirrorPaused, mirror, peer, revision),
        MirrorEvent::Resumed { mirror, revision } => ja!(MirrorResumed, mirror, revision),
        MirrorEvent::Failed { mirror, error, .. } => ja!(MirrorFailed, mirror, error),
        MirrorEvent::Stopped { mirror } => ja!(MirrorStopped, mirror),
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
        } => ja!(ModePromote, leader, learner, last, matched, percent),
        ModeDecision::NotYet { learner, reason } => {
            ja!(ModeNotYet, leader, learner, not_yet = not_yet_text(reason))
        }
        ModeDecision::FailoverCountdown {
            voter,
            silent_ms,
            left_ms,
        } => ja!(
            ModeFailoverCountdown,
            leader,
            voter,
            silent_ms = span(*silent_ms),
            left_ms = span(*left_ms)
        ),
        ModeDecision::FailoverCancelled { voter } => ja!(ModeFailoverCancelled, leader, voter),
        ModeDecision::FailoverRemove {
            voter,
            standby,
            silent_ms,
        } => ja!(
            ModeFailoverRemove,
            leader,
            voter,
            silent_ms = span(*silent_ms),
            standby
        ),
        ModeDecision::FailoverPromote {
            standby,
            voter,
            grow: false,
        } => ja!(ModeFailoverReplace, leader, standby, voter),
        ModeDecision::FailoverPromote {
            standby,
            voter,
            grow: true,
        } => ja!(ModeFailoverGrow, leader, voter, standby),
        ModeDecision::FailoverBlocked {
            voter,
            standby: Some(s),
            reason,
        } => ja!(
            ModeFailoverStandbyNotReady,
            leader,
            voter,
            standby = s,
            not_yet = not_yet_text(reason)
        ),
        ModeDecision::FailoverBlocked {
            voter,
            standby: None,
            reason,
        } => ja!(
            ModeFailoverBlocked,
            leader,
            voter,
            not_yet = not_yet_text(reason)
        ),
    }
}

fn single_text(change_type: ConfChangeType, id: NodeId) -> String {
    match change_type {
        ConfChangeType::AddNode => ja!(ChangeAddNode, id),
        ConfChangeType::AddLearnerNode => ja!(ChangeAddLearnerNode, id),
        ConfChangeType::RemoveNode => ja!(ChangeRemoveNode, id),
        ConfChangeType::UpdateNode => ja!(ChangeUpdateNode, id),
    }
}

fn joint_text(c: &ConfChangeV2) -> String {
    if c.leave_joint() {
        return ja!(JointLeave);
    }
    let changes: Vec<String> = c
        .changes
        .iter()
        .map(|s| single_text(s.change_type, s.node_id))
        .collect();
    match c.enter_joint() {
        Some(_) => ja!(JointEnter, changes = changes.join("、")),
        None => changes.join("、"),
    }
}

/// What a command of a hand on single messages did, in Japanese.
pub fn hand_done(h: &HandDone) -> String {
    match *h {
        HandDone::Held {
            from,
            to,
            both: false,
            count,
        } => ja!(HandHeld, from, to, count),
        HandDone::Held {
            from, to, count, ..
        } => ja!(HandHeldBoth, from, to, count),
        HandDone::Released { count: 0, left: 0 } => ja!(HandNothingHeld),
        HandDone::Released { count, left: 0 } => ja!(HandReleased, count),
        HandDone::Released { count, left } => ja!(HandReleasedSome, count, left),
        HandDone::Dropped { from, to, count } => ja!(HandDropped, from, to, count),
        HandDone::Delivered {
            from,
            to,
            kind,
            term,
            at_ms,
        } => ja!(
            HandDelivered,
            from,
            to,
            kind = kind.name(),
            term,
            at = seconds(at_ms)
        ),
    }
}

fn drop_reason(r: DropReason) -> String {
    match r {
        DropReason::LinkCut => ja!(DroppedLinkCut),
        DropReason::NodeDown => ja!(DroppedNodeDown),
        DropReason::NoRoute => ja!(DroppedNoRoute),
        DropReason::SenderRemoved => ja!(DroppedSenderRemoved),
        DropReason::Lost => ja!(DroppedLost),
        DropReason::ByHand => ja!(DroppedByHand),
    }
}

fn vote(pre_vote: bool) -> String {
    if pre_vote {
        ja!(PreVote)
    } else {
        ja!(Vote)
    }
}

fn raft_sentence(node: NodeId, event: &RaftEvent) -> String {
    use RaftEvent::*;
    match event {
        BecameFollower { term, leader } if *leader != 0 => {
            ja!(RaftBecameFollowerOf, node, term, leader)
        }
        BecameFollower { term, .. } => ja!(RaftBecameFollower, node, term),
        BecamePreCandidate { term } => ja!(RaftBecamePreCandidate, node, term = term + 1),
        BecameCandidate { term } => ja!(RaftBecameCandidate, node, term),
        BecameLeader { term, votes } => ja!(RaftBecameLeader, node, votes = list(votes), term),
        VoteGranted {
            candidate,
            term,
            pre_vote,
        } => ja!(
            RaftVoteGranted,
            node,
            term,
            vote = vote(*pre_vote),
            candidate
        ),
        VoteRejected {
            candidate,
            term,
            pre_vote,
            reason: r,
        } => ja!(
            RaftVoteRejected,
            node,
            candidate,
            term,
            vote = vote(*pre_vote),
            reason = reason(r)
        ),
        StepDownNoQuorum { term } => ja!(RaftStepDownNoQuorum, node, term),
        Committed { index } => ja!(RaftCommitted, node, index),
        SnapshotSent { to, index } => ja!(RaftSnapshotSent, node, index, to),
        SnapshotRestored { index } => ja!(RaftSnapshotRestored, node, index),
        ConfChangeRefused { reason: r, .. } => ja!(RaftConfChangeRefused, node, reason = reason(r)),
        ProposalDropped { reason: r } => ja!(RaftProposalDropped, node, reason = reason(r)),
        TransferStarted { to } => ja!(RaftTransferStarted, node, to),
        TransferIgnored { to, reason: r } => ja!(RaftTransferIgnored, node, to, reason = reason(r)),
        TransferAborted { to } => ja!(RaftTransferAborted, node, to),
        IgnoredTimeoutNow { reason: r } => ja!(RaftIgnoredTimeoutNow, node, reason = reason(r)),
        CampaignIgnored { reason: r } => ja!(RaftCampaignIgnored, node, reason = reason(r)),
        ForgetLeaderIgnored => ja!(RaftForgetLeaderIgnored, node),
        AutoLeaveProposed => ja!(RaftAutoLeaveProposed, node),
    }
}

/// A word the parser found missing, in Japanese; forms such as `N=K` are
/// written as they are typed.
pub fn missing_ja(what: &str) -> String {
    match what {
        "node id" => ja!(MissingNodeId),
        "quoted text" => ja!(MissingQuotedText),
        "duration" => ja!(MissingDuration),
        "a key" => ja!(MissingAKey),
        "a value" => ja!(MissingAValue),
        "a condition" => ja!(MissingACondition),
        "a number" => ja!(MissingANumber),
        "a revision" => ja!(MissingARevision),
        "an error code" => ja!(MissingAnErrorCode),
        "a size" => ja!(MissingASize),
        "state" => ja!(MissingState),
        "a member subcommand (add, promote, remove, list, change or leave-joint)" => {
            ja!(MissingMemberSubcommand)
        }
        form => ja!(MissingForm, form),
    }
}

/// A word of the input as a Japanese sentence quotes it: 「pt」 for the
/// parser's `"pt"` (its escapes undone); anything else as it is.
fn word_ja(found: &str) -> String {
    match found.strip_prefix('"').and_then(|f| f.strip_suffix('"')) {
        Some(inner) if found.len() >= 2 => {
            format!("「{}」", inner.replace("\\\"", "\"").replace("\\\\", "\\"))
        }
        _ => found.to_string(),
    }
}

/// A kind of name, as a Japanese sentence calls it.
fn named_ja(what: Named) -> String {
    match what {
        Named::MemberSubcommand => ja!(NamedMemberSubcommand),
        Named::MirrorSubcommand => ja!(NamedMirrorSubcommand),
        Named::MirrorState => ja!(NamedMirrorState),
        Named::Role => ja!(NamedRole),
        Named::ProgressState => ja!(NamedProgressState),
        Named::ErrorCode => ja!(NamedErrorCode),
        Named::MessageKind => ja!(NamedMessageKind),
    }
}

/// Why a line does not parse, in Japanese, from the parser's
/// [`ParseErrorKind`]. Words quoted from the input, commands, options and
/// the lists of forms are shown as they are typed.
pub fn parse_error(kind: &ParseErrorKind) -> String {
    use ParseErrorKind::*;
    match kind {
        QuoteInsideWord { word } => ja!(ParseQuoteInsideWord, word = word_ja(word)),
        UnknownEscape { escape } => ja!(ParseUnknownEscape, escape),
        Unterminated => ja!(ParseUnterminated),
        SpaceAfterQuote { found } => ja!(ParseSpaceAfterQuote, found = word_ja(found)),
        ClusterFirst { found } => ja!(ParseClusterFirst, found = word_ja(found)),
        SecondCluster => ja!(ParseSecondCluster),
        SecondSayJa => ja!(ParseSecondSayJa),
        SayJaAlone => ja!(ParseSayJaAlone),
        EmptyScript => ja!(ParseEmptyScript),
        NoCommand => ja!(ParseNoCommand, command_names = COMMAND_NAMES.join(", ")),
        ClusterNotCommand => ja!(ParseClusterNotCommand),
        BadClusterName { found } => ja!(ParseBadClusterName, found = word_ja(found)),
        QuotedCommand { found } => ja!(ParseQuotedCommand, found),
        UnknownCommand { found } => ja!(
            ParseUnknownCommand,
            found = word_ja(found),
            command_names = COMMAND_NAMES.join(", ")
        ),
        UnknownCommandNear { found, near } => ja!(
            ParseUnknownCommandNear,
            found = word_ja(found),
            near = word_ja(near)
        ),
        EtcdctlLine => ja!(ParseEtcdctlLine),
        EtcdctlCommand {
            found,
            etcdctl,
            scenario,
            console: true,
        } => ja!(ParseEtcdctlCommand, found, etcdctl, scenario),
        EtcdctlCommand {
            found,
            etcdctl,
            scenario,
            console: false,
        } => ja!(ParseEtcdctlCommandScript, found, etcdctl, scenario),
        EtcdctlUnmodelled { found } => ja!(
            ParseEtcdctlUnmodelled,
            found,
            command_names = COMMAND_NAMES.join(", ")
        ),
        Missing { what, after } => ja!(ParseMissing, after, what = missing_ja(what)),
        TextIsOption { what, after, found } => {
            let what = missing_ja(what);
            ja!(ParseTextIsOption, after, what, found = word_ja(found))
        }
        ExtraWord { word, after } => ja!(ParseExtraWord, after, word = word_ja(word)),
        ExtraSayWord { word, after } => ja!(ParseExtraSayWord, after, word = word_ja(word)),
        QuotedOption {
            found,
            cmd,
            expected,
        } => ja!(ParseQuotedOption, cmd, found, expected),
        UnknownOption {
            name,
            cmd,
            expected,
        } => ja!(ParseUnknownOption, cmd, name = word_ja(name), expected),
        UnknownOptionNear { name, cmd, near } => ja!(
            ParseUnknownOptionNear,
            cmd,
            name = word_ja(name),
            near = word_ja(near)
        ),
        DuplicateOption { name } => ja!(ParseDuplicateOption, name),
        OptionTakesNoValue { name } => ja!(ParseOptionTakesNoValue, name),
        MissingOptionValue { name, hint } => ja!(ParseMissingOptionValue, name, hint),
        UnknownCondition { found } => {
            ja!(
                ParseUnknownCondition,
                found = word_ja(found),
                condition_forms = CONDITION_FORMS
            )
        }
        UnknownConditionNear { found, forms } => ja!(
            ParseUnknownConditionNear,
            found = word_ja(found),
            forms = forms.join("、")
        ),
        BadDuration { found } => ja!(ParseBadDuration, found = word_ja(found)),
        NegativeDuration { found } => ja!(ParseNegativeDuration, found = word_ja(found)),
        DurationUnit { found } => ja!(ParseDurationUnit, found = word_ja(found)),
        DurationOtherUnit { found, write } => {
            ja!(ParseDurationOtherUnit, found = word_ja(found), write)
        }
        DurationSpace { found, write } => {
            ja!(ParseDurationSpace, found = word_ja(found), write)
        }
        DurationTooLong { found } => ja!(ParseDurationTooLong, found = word_ja(found)),
        DurationFraction { found } => ja!(ParseDurationFraction, found = word_ja(found)),
        WaitTooLong { found, limit } => ja!(ParseWaitTooLong, found = word_ja(found), limit),
        BadPercent { found } => ja!(ParseBadPercent, found = word_ja(found)),
        LossAbove100 { found } => ja!(ParseLossAbove100, found = word_ja(found)),
        LossDecimals { found } => ja!(ParseLossDecimals, found = word_ja(found)),
        BadSize { found } => ja!(ParseBadSize, found = word_ja(found)),
        NegativeSize { found } => ja!(ParseNegativeSize, found = word_ja(found)),
        SizeUnit { found } => ja!(ParseSizeUnit, found = word_ja(found)),
        SizeTooLarge { found, limit } => ja!(ParseSizeTooLarge, found = word_ja(found), limit),
        SizeFraction { found } => ja!(ParseSizeFraction, found = word_ja(found)),
        BadNodeId { found } => ja!(
            ParseBadNodeId,
            min_node_id = MIN_NODE_ID,
            max_node_id = MAX_NODE_ID,
            found = word_ja(found)
        ),
        NodeIdNamed { found, id } => ja!(
            ParseNodeIdNamed,
            min_node_id = MIN_NODE_ID,
            max_node_id = MAX_NODE_ID,
            found = word_ja(found),
            id
        ),
        NodeIdRange { found } => {
            ja!(
                ParseNodeIdRange,
                found = word_ja(found),
                min_node_id = MIN_NODE_ID,
                max_node_id = MAX_NODE_ID
            )
        }
        BadNumber { found } => ja!(ParseBadNumber, found = word_ja(found)),
        NumberTooLarge { found } => ja!(ParseNumberTooLarge, found = word_ja(found)),
        Say(SayProblem::Unclosed) => ja!(ParseUnclosed),
        Say(SayProblem::UnknownPlaceholder { name, known }) => {
            ja!(ParseUnknownPlaceholder, name, known)
        }
        Say(SayProblem::StrayClose) => ja!(ParseStrayClose),
        CommandExpected => ja!(ParseCommandExpected),
        SayJaInConsole => ja!(ParseSayJaInConsole),
        LoadMissing => ja!(ParseLoadMissing),
        LoadNoRate => ja!(ParseLoadNoRate),
        NetMissing => ja!(ParseNetMissing),
        LearnerAndVoter => ja!(ParseLearnerAndVoter),
        LearnerKindWithVoter { kind } => ja!(ParseLearnerKindWithVoter, kind),
        StandbyAndReadOnly => ja!(ParseStandbyAndReadOnly),
        UnknownName {
            what,
            found,
            expected,
        } => ja!(
            ParseUnknownName,
            what = named_ja(*what),
            found = word_ja(found),
            expected
        ),
        UnknownNameNear { what, found, near } => ja!(
            ParseUnknownNameNear,
            what = named_ja(*what),
            found = word_ja(found),
            near = word_ja(near)
        ),
        UnknownRelease { found } => ja!(ParseUnknownRelease, found = word_ja(found)),
        TwiceInChange { id } => ja!(ParseTwiceInChange, id),
        ChangeMissing => ja!(ParseChangeMissing),
        MissingLinkEnd { from } => ja!(ParseMissingLinkEnd, from),
        SameNodeLink { a, b } => ja!(ParseSameNodeLink, a, b),
        OneDirection { cmd, a, b } => ja!(ParseOneDirection, cmd, a, b),
        QuotedGroups { found } => ja!(ParseQuotedGroups, found),
        PartitionMissing => ja!(ParsePartitionMissing),
        GroupSeparator { id } => ja!(ParseGroupSeparator, id),
        TwiceInGroup { id } => ja!(ParseTwiceInGroup, id),
        InTwoGroups { id } => ja!(ParseInTwoGroups, id),
        CommaBeforeId => ja!(ParseCommaBeforeId),
        EmptyGroupBeforeBar => ja!(ParseEmptyGroupBeforeBar),
        EmptyGroupAfterBar => ja!(ParseEmptyGroupAfterBar),
        IdAfterComma => ja!(ParseIdAfterComma),
        OneGroup => ja!(ParseOneGroup),
        EmptyList => ja!(ParseEmptyList),
        TwiceInList { id } => ja!(ParseTwiceInList, id),
        EmptyValue => ja!(ParseEmptyValue),
        FormExpected { form, found } => {
            let form = match form {
                Form::Messages(name) => ja!(FormMessages, name),
                Form::Queued => ja!(FormQueued),
                Form::WatchEvents => ja!(FormWatchEvents),
                Form::Role => ja!(FormRole),
                Form::Mirror => ja!(FormMirror),
                Form::Progress => ja!(FormProgress),
                Form::MatchShare => ja!(FormMatchShare),
                Form::Rate => ja!(FormRate),
                Form::WatchNumber => ja!(FormWatchNumber),
                Form::AutoPromote => ja!(FormAutoPromote),
                Form::Latency => ja!(FormLatency),
                Form::Bandwidth => ja!(FormBandwidth),
                Form::LinkCount(name) => ja!(FormLinkCount, name),
                Form::Choice(a, b) => ja!(FormChoice, a, b),
            };
            ja!(ParseFormExpected, form, found = word_ja(found))
        }
        MissingEventCount => ja!(ParseMissingEventCount),
        MissingRole { id } => ja!(ParseMissingRole, id),
        MissingVoters => ja!(ParseMissingVoters),
        MaxLearnersRelease { etcd } => ja!(ParseMaxLearnersRelease, etcd),
        TooSmall(least) => match least {
            Least::Heartbeat => ja!(LeastHeartbeat),
            Least::SnapshotCount => ja!(LeastSnapshotCount),
            Least::Rate => ja!(LeastRate),
            Least::Bandwidth => ja!(LeastBandwidth),
            Least::WatchNumber => ja!(LeastWatchNumber),
            Least::Count => ja!(LeastCount),
        },
        RateTooHigh { rate, limit } => ja!(ParseRateTooHigh, rate, limit),
        AutoPromoteRange { found } => ja!(ParseAutoPromoteRange, found = word_ja(found)),
        LatencyOrder { min, max } => ja!(ParseLatencyOrder, min, max),
        ElectionTooShort {
            election,
            times,
            heartbeat,
        } => ja!(ParseElectionTooShort, election, heartbeat, times),
        ElectionTooLong { election, max } => ja!(ParseElectionTooLong, election, max),
        FailoverTooShort { failover, election } => ja!(ParseFailoverTooShort, failover, election),
    }
}

/// What an error code means, in Japanese (the code itself is shown too).
pub fn error_meaning(code: ErrorCode) -> String {
    match code {
        ErrorCode::BadUrl => ja!(CodeBadUrl),
        ErrorCode::IdExists => ja!(CodeIdExists),
        ErrorCode::IdRemoved => ja!(CodeIdRemoved),
        ErrorCode::PeerUrlExists => ja!(CodePeerUrlExists),
        ErrorCode::TooManyLearners => ja!(CodeTooManyLearners),
        ErrorCode::MemberNotFound => ja!(CodeMemberNotFound),
        ErrorCode::MemberNotLearner => ja!(CodeMemberNotLearner),
        ErrorCode::MemberNotVoter => ja!(CodeMemberNotVoter),
        ErrorCode::LearnerNotReady => ja!(CodeLearnerNotReady),
        ErrorCode::MemberReadOnly => ja!(CodeMemberReadOnly),
        ErrorCode::NotEnoughStartedMembers => ja!(CodeNotEnoughStartedMembers),
        ErrorCode::Unhealthy => ja!(CodeUnhealthy),
        ErrorCode::BadLeaderTransferee => ja!(CodeBadLeaderTransferee),
        ErrorCode::NotSupportedForLearner => ja!(CodeNotSupportedForLearner),
        ErrorCode::NotStarted => ja!(CodeNotStarted),
        ErrorCode::ServerStopped => ja!(CodeServerStopped),
        ErrorCode::NoLeader => ja!(CodeNoLeader),
        ErrorCode::Timeout => ja!(CodeTimeout),
        ErrorCode::ExpectFailed => ja!(CodeExpectFailed),
        ErrorCode::Compacted => ja!(CodeCompacted),
        ErrorCode::FutureRev => ja!(CodeFutureRev),
        ErrorCode::EmptyKey => ja!(CodeEmptyKey),
        ErrorCode::NoMessage => ja!(CodeNoMessage),
    }
}

fn code_text(code: &str) -> String {
    match code.parse::<ErrorCode>() {
        Ok(c) => ja!(CodeWithMeaning, code, meaning = error_meaning(c)),
        Err(_) => code.to_string(),
    }
}

/// A read-only learner's read mode in Japanese.
fn read_mode(m: crate::server::ReadMode) -> String {
    match m {
        crate::server::ReadMode::Weak => ja!(ReadModeWeak),
        crate::server::ReadMode::Strong => ja!(ReadModeStrong),
    }
}

/// A node state in Japanese.
pub fn state_name(state: NodeState) -> String {
    match state {
        NodeState::Leader => ja!(StateLeader),
        NodeState::Follower => ja!(StateFollower),
        NodeState::Candidate => ja!(StateCandidate),
        NodeState::PreCandidate => ja!(StatePreCandidate),
        NodeState::Down => ja!(StateDown),
        NodeState::NotStarted => ja!(StateNotStarted),
        NodeState::Joining => ja!(StateJoining),
        NodeState::Removed => ja!(StateRemoved),
    }
}

/// A safety property in Japanese (an unknown one as it is written).
fn property(p: &str) -> String {
    match p {
        "election safety" => ja!(PropertyElectionSafety),
        "log matching" => ja!(PropertyLogMatching),
        "leader completeness" => ja!(PropertyLeaderCompleteness),
        "state machine safety" => ja!(PropertyStateMachineSafety),
        "leader append-only" => ja!(PropertyLeaderAppendOnly),
        "term monotonicity" => ja!(PropertyTermMonotonicity),
        "commit monotonicity" => ja!(PropertyCommitMonotonicity),
        "learners never campaign" => ja!(PropertyLearnersNeverCampaign),
        other => other.to_string(),
    }
}

impl Renderer for Japanese {
    fn stopped(&self, stop: &Stop) -> String {
        let secs = |ms: u64| ja!(StoppedTime, seconds = Fixed(ms as f64 / 1000.0, 2));
        let place = match (stop.line, &stop.command) {
            (Some(l), Some(c)) => ja!(StoppedPlace, line = l, command = c),
            _ => String::new(),
        };
        let why = match (
            stop.reason,
            stop.max_wall_ms,
            stop.budget_bytes,
            stop.counted_bytes,
        ) {
            ("max-wall", Some(limit), _, _) => ja!(StoppedMaxWall, limit = duration(limit)),
            ("memory", _, Some(budget), Some(counted)) => {
                ja!(StoppedMemory, budget = mib(budget), counted = mib(counted))
            }
            _ => String::new(),
        };
        let verb = if stop.reason == "cancelled" {
            ja!(StoppedCancelled)
        } else {
            ja!(StoppedStopped)
        };
        ja!(
            Stopped,
            place,
            reached_ms = secs(stop.reached_ms),
            verb,
            why,
            time_ms = secs(stop.time_ms)
        )
    }
    fn say<'a>(&self, text: &'a crate::lang::say::Spoken) -> std::borrow::Cow<'a, str> {
        match &text.ja {
            Some(ja) => std::borrow::Cow::Owned(say_ja(ja, &text.facts)),
            None => std::borrow::Cow::Borrowed(&text.en),
        }
    }

    fn time(&self, ms: u64) -> String {
        ja!(StoppedTime, seconds = Fixed(ms as f64 / 1000.0, 2))
    }

    fn time_span(&self, from_ms: u64, to_ms: u64) -> String {
        ja!(
            TimeSpan,
            from = Fixed(from_ms as f64 / 1000.0, 2),
            to = Fixed(to_ms as f64 / 1000.0, 2)
        )
    }

    fn event(&self, e: &Event) -> String {
        use EventKind::*;
        match &e.kind {
            Raft { node, event } => raft_sentence(*node, event),
            PutApplied { node, index, .. } => ja!(EventPutApplied, node, index),
            PublishApplied { node, member } => ja!(EventPublishApplied, node, member),
            ConfChangeApplied {
                node,
                index,
                change,
                refused,
            } => match refused {
                None => ja!(
                    EventConfChangeApplied,
                    node,
                    index,
                    change = single_text(change.change_type, change.node_id)
                ),
                Some(err) => ja!(
                    EventConfChangeRefused,
                    node,
                    index,
                    change = single_text(change.change_type, change.node_id),
                    etcd = err.etcd_text()
                ),
            },
            JointChangeApplied {
                node,
                index,
                change,
                refused,
            } => match refused {
                None => ja!(
                    EventJointChangeApplied,
                    node,
                    index,
                    joint = joint_text(change)
                ),
                Some(err) => ja!(
                    EventJointChangeRefused,
                    node,
                    index,
                    joint = joint_text(change),
                    etcd = err.etcd_text()
                ),
            },
            DeleteApplied {
                node,
                index,
                deleted,
                revision,
                ..
            } => match deleted {
                0 => ja!(EventDeleteAppliedNone, node, index),
                _ => ja!(EventDeleteApplied, node, index, revision),
            },
            CompactionApplied {
                node,
                index,
                rev,
                refused,
                ..
            } => match refused {
                None => ja!(EventCompactionApplied, node, rev, index),
                Some(e) => ja!(
                    EventCompactionRefused,
                    node,
                    rev,
                    index,
                    etcd = e.etcd_text()
                ),
            },
            ReadServed { node, read, .. } => match read {
                Served::Key { key, rev, read } => {
                    let key = format!("{key:?}");
                    let what = match rev {
                        0 => ja!(EventReadOfKey, key),
                        r => ja!(EventReadOfKeyAt, rev = r, key),
                    };
                    match read {
                        Ok(KeyRead { value: Some(v), .. }) => {
                            ja!(EventReadServed, node, what, value = format!("{:?}", v))
                        }
                        Ok(KeyRead { value: None, .. }) => {
                            ja!(EventReadServedAbsent, node, what)
                        }
                        Err(e) => ja!(EventReadRefused, node, what, etcd = e.etcd_text()),
                    }
                }
                Served::Members => ja!(EventMembersServed, node),
                Served::Downgrade { asker } => ja!(EventDowngradeServed, node, asker),
            },
            Compacted { node, index } => ja!(EventCompacted, node, index),
            Join { node, peer, step } => match step {
                JoinStep::Unreachable { ms } => {
                    ja!(EventJoinUnreachable, node, peer, ms = span(*ms))
                }
                JoinStep::Asks => ja!(EventJoinAsks, node, peer),
                JoinStep::LeaderChanged => ja!(EventJoinLeaderChanged, peer, node),
                JoinStep::NoAnswer { ms } => ja!(EventJoinNoAnswer, peer, node, ms = span(*ms)),
            },
            MessageDropped {
                from,
                to,
                kind,
                reason,
            } => ja!(
                EventMessageDropped,
                from,
                to,
                kind = kind.name(),
                why = drop_reason(*reason)
            ),
            Crashed { node } => ja!(EventCrashed, node),
            Started { node } => ja!(EventStarted, node),
            StoppedRemoved {
                node,
                delayed: false,
            } => ja!(EventStoppedRemoved, node),
            StoppedRemoved {
                node,
                delayed: true,
            } => ja!(EventStoppedRemovedDelayed, node),
            LinkCut { from, to } => ja!(EventLinkCut, from, to),
            LinkHealed { from, to } => ja!(EventLinkHealed, from, to),
            WatchEvents {
                node,
                watch,
                count: 1,
                revision,
            } => ja!(EventWatchEvent, node, watch, revision),
            WatchEvents {
                node,
                watch,
                count,
                revision,
            } => ja!(EventWatchEvents, node, watch, revision, count),
            WatchCanceled {
                node,
                watch,
                compact_revision,
            } => ja!(EventWatchCanceled, node, watch, compact_revision),
            Mode { leader, decision } => mode_sentence(*leader, decision),
            Mirror(m) => mirror_sentence(m),
        }
    }

    fn result_summary(&self, r: &CommandResult) -> String {
        match (r.error, &r.detail) {
            (Some(code), Some(_)) if r.failure.is_some() => ja!(
                ResultErrorFailure,
                code = code_text(code),
                detail = result_detail(r).unwrap_or_default()
            ),
            (Some(code), Some(d)) => ja!(ResultErrorDetail, code = code_text(code), detail = d),
            (Some(code), None) => ja!(ResultError, code = code_text(code)),
            (None, _) if r.pending => ja!(ResultPending),
            // A read shows what it read, as in English.
            (None, _) if r.value.is_some() => match r.value.as_ref().and_then(Option::as_ref) {
                Some(v) => ja!(ResultValue, value = json_string(v)),
                None => ja!(ResultValueAbsent),
            },
            (None, _) if r.hand.is_some() => {
                ja!(
                    ResultOkDetail,
                    detail = r.hand.as_ref().map(hand_done).unwrap_or_default()
                )
            }
            (None, Some(d)) => ja!(ResultOkDetail, detail = d),
            (None, None) => ja!(ResultOk),
        }
    }

    fn result_details(&self, r: &CommandResult) -> Option<String> {
        if !r.ok {
            return None;
        }
        let mut bits = Vec::new();
        if let Some(index) = r.index {
            bits.push(ja!(DetailsIndex, index));
        }
        if let Some(deleted) = r.deleted {
            bits.push(match (deleted, r.revision) {
                (0, _) => ja!(DetailsNoKey),
                (_, Some(rev)) => ja!(DetailsDeletedAt, rev),
                (_, None) => ja!(DetailsDeleted),
            });
        }
        if let (Some(w), Some(events)) = (r.watch, &r.events) {
            bits.push(ja!(DetailsWatch, watch = w, events = events.len()));
        }
        if let Some(members) = &r.members {
            let text: Vec<String> = members
                .iter()
                .map(|m| {
                    format!(
                        "{}{} {}{}",
                        ja!(LogRow, id = m.id),
                        if m.learner {
                            ja!(DetailsLearner)
                        } else {
                            String::new()
                        },
                        m.peer_url,
                        if m.started {
                            String::new()
                        } else {
                            ja!(DetailsNotStarted)
                        }
                    )
                })
                .collect();
            bits.push(text.join("、"));
        }
        (!bits.is_empty()).then(|| format!("  {}", bits.join("、")))
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
        // The command quoted, as running text quotes one: 「put k v」：成功.
        let what = if named {
            format!("「{}」：", r.command)
        } else {
            String::new()
        };
        let bad = r.error.is_some();
        if bad && expected {
            return ja!(
                LoggedResultExpected,
                time = self.time(time_ms),
                what,
                summary
            );
        }
        let mark = if bad { "✗" } else { "✓" };
        format!("{} {mark} {what}{summary}", self.time(time_ms))
    }

    fn unparsed(&self, command: &str, e: &ParseError) -> String {
        ja!(
            Unparsed,
            command,
            line = e.line,
            column = e.column,
            why = parse_error(&e.kind)
        )
    }

    fn folded(&self, first_ms: u64, last_ms: u64, latest: &str, count: usize) -> String {
        ja!(
            Folded,
            time_span = self.time_span(first_ms, last_ms),
            latest,
            count
        )
    }

    fn campaign_folded(&self, c: &CampaignFold) -> String {
        let when = if c.first_ms == c.last_ms {
            self.time(c.first_ms)
        } else {
            self.time_span(c.first_ms, c.last_ms)
        };
        let mut s = ja!(
            CampaignFolded,
            when,
            node = c.node,
            vote = vote(c.pre_vote),
            campaigns = c.campaigns,
            term = c.term
        );
        if !c.granted.is_empty() {
            s.push_str(&ja!(CampaignFoldedGranted, granted = list(&c.granted)));
        }
        if !c.refused.is_empty() {
            let refusals: Vec<String> = c
                .refused
                .iter()
                .map(|(why, by)| ja!(CampaignFoldedRefusal, why = reason(why), by = list(by)))
                .collect();
            s.push_str(&ja!(CampaignFoldedRefused, refusals = refusals.join("、")));
        }
        s
    }

    fn branch_started(&self, fork_ms: u64, branch: u32, left: u32) -> String {
        ja!(BranchStarted, fork_ms = seconds(fork_ms), branch, left)
    }

    fn branch_resumed(&self, branch: u32, at_ms: u64) -> String {
        ja!(BranchResumed, branch, at_ms = seconds(at_ms))
    }

    fn refusal(&self, why: &Refusal) -> String {
        match why {
            Refusal::NoFreeId { max } => ja!(RefusalNoFreeId, max),
            Refusal::NoLeaderToIsolate => ja!(RefusalNoLeaderToIsolate),
            Refusal::TooFewToPartition => ja!(RefusalTooFewToPartition),
            Refusal::NoBranch(id) => ja!(RefusalNoBranch, id),
            Refusal::LessonHasNoBranches => ja!(RefusalLessonHasNoBranches),
            Refusal::RunInProgress => ja!(RefusalRunInProgress),
            Refusal::ClockOverBudget { budget, counted } => ja!(
                RefusalClockOverBudget,
                budget = crate::session::stop::mib(*budget),
                counted = crate::session::stop::mib(*counted)
            ),
            Refusal::AutoPromoteRange => ja!(RefusalAutoPromoteRange),
            Refusal::FailoverAfterRange { min_ms, max_ms } => ja!(
                RefusalFailoverAfterRange,
                min_ms = duration(*min_ms),
                max_ms = duration(*max_ms)
            ),
            Refusal::MaxLearnersRange { max } => ja!(RefusalMaxLearnersRange, max),
            Refusal::ModeChoice {
                option,
                found,
                choices,
            } => ja!(
                RefusalModeChoice,
                option,
                found = format!("{:?}", found),
                choices = choices.join(&ja!(ChoiceOr))
            ),
            Refusal::Modes(e) => ja!(
                RefusalModes,
                line = e.line,
                column = e.column,
                why = parse_error(&e.kind)
            ),
        }
    }

    fn more_failed(&self, more: usize) -> String {
        ja!(MoreFailed, more)
    }

    fn nothing_happens(&self) -> String {
        ja!(NothingHappens)
    }

    fn at_the_beginning(&self) -> String {
        ja!(AtTheBeginning)
    }

    fn seek_cancelled(&self, at_ms: u64) -> String {
        ja!(SeekCancelled, at_ms = seconds(at_ms))
    }

    fn surprises(&self, results: &[CommandResult]) -> String {
        let each: Vec<String> = results
            .iter()
            .map(|r| {
                let error = r.error.unwrap_or("");
                match &result_detail(r) {
                    Some(d) if !d.is_empty() => {
                        ja!(Surprise, command = r.command, error, detail = d)
                    }
                    _ => format!("{}: {error}", r.command),
                }
            })
            .collect();
        ja!(Surprises, each = each.join("; "))
    }

    fn etcdctl_refusal(&self, e: &EtcdctlError) -> String {
        match e {
            EtcdctlError::Etcdctl(msg) => format!("Error: {msg}"),
            EtcdctlError::Server { code, member_id } => ja!(
                EtcdctlRefusalServer,
                etcd = code.etcd_text(),
                member_id = format!("{:x}", member_id)
            ),
            EtcdctlError::Unmodelled { command } => ja!(
                EtcdctlRefusalUnmodelled,
                command = etcdctl::full_name(command),
                modelled = etcdctl::MODELLED.join("、")
            ),
            EtcdctlError::UnmodelledFlag { command, flag } => ja!(
                EtcdctlRefusalUnmodelledFlag,
                command = etcdctl::full_name(command),
                flag
            ),
            EtcdctlError::UnmodelledPrinter { printer } => {
                ja!(EtcdctlRefusalUnmodelledPrinter, printer)
            }
            EtcdctlError::BadName { name } => {
                ja!(EtcdctlRefusalBadName, name = format!("{:?}", name))
            }
            EtcdctlError::SeveralUrls => ja!(EtcdctlRefusalSeveralUrls),
            EtcdctlError::BadEndpoints { endpoints } => ja!(
                EtcdctlRefusalBadEndpoints,
                endpoints = format!("{:?}", endpoints)
            ),
            EtcdctlError::NegativeRevision { rev } => ja!(EtcdctlRefusalNegativeRevision, rev),
        }
    }

    fn etcdctl_recorded(&self, command: &str) -> String {
        ja!(EtcdctlRecorded, command)
    }

    fn share_refusal(&self, e: &ShareError) -> String {
        share_problem(&e.problem)
    }

    fn no_lesson(&self, id: &str) -> String {
        ja!(NoLesson, id = format!("{:?}", id))
    }

    fn quorum_verdict(&self, q: &QuorumView) -> String {
        let Some(leader) = q.leader else {
            return ja!(QuorumVerdictNoLeader);
        };
        let (n, voters) = (q.reachable.len(), q.voters.len());
        if q.can_reach_quorum {
            ja!(
                QuorumVerdictReaches,
                leader,
                voters,
                reached = n,
                quorum = q.quorum
            )
        } else {
            ja!(
                QuorumVerdictShort,
                leader,
                voters,
                reached = n,
                quorum = q.quorum
            )
        }
    }

    fn quorum_sentence(&self, q: &QuorumView) -> String {
        let mut s = ja!(
            QuorumSentenceVoters,
            count = q.voters.len(),
            voters = list(&q.voters),
            quorum = q.quorum
        );
        if !q.learners.is_empty() {
            s += &ja!(QuorumSentenceLearners, learners = list(&q.learners));
        }
        let Some(from) = q.from else {
            s += &ja!(QuorumSentenceNoneRunning);
            return s;
        };
        let who = if q.leader == Some(from) {
            ja!(QuorumSentenceLeader, from)
        } else {
            ja!(QuorumSentenceNoLeader, from)
        };
        let n = q.reachable.len();
        s += &ja!(
            QuorumSentenceReach,
            who,
            reached = n,
            reachable = list(&q.reachable)
        );
        if q.has_quorum {
            s += &ja!(QuorumSentenceHasQuorum);
        } else {
            s += &ja!(QuorumSentenceShort, missing = q.quorum.saturating_sub(n));
        }
        s
    }

    fn node_head(&self, kind: Option<LearnerKind>, state: NodeState) -> String {
        let what = state_name(state);
        match kind {
            None => what.to_string(),
            Some(LearnerKind::Plain) => ja!(NodeHeadPlain, what),
            Some(LearnerKind::Standby) => ja!(NodeHeadStandby, what),
            Some(LearnerKind::ReadOnly(m)) => ja!(NodeHeadReadOnly, mode = read_mode(m), what),
        }
    }

    fn learner_word(&self, kind: LearnerKind) -> String {
        match kind {
            LearnerKind::Plain => ja!(LearnerWordPlain),
            LearnerKind::Standby => ja!(LearnerWordStandby),
            LearnerKind::ReadOnly(m) => ja!(LearnerWordReadOnly, mode = read_mode(m)),
        }
    }

    fn sees_itself(&self, learner: bool, short: bool) -> String {
        match (learner, short) {
            (true, false) => ja!(SeesItselfLearner),
            (false, false) => ja!(SeesItselfVoter),
            (true, true) => ja!(SeesItselfLearnerShort),
            (false, true) => ja!(SeesItselfVoterShort),
        }
    }

    fn auto_promote_at(&self, percent: u8) -> String {
        ja!(AutoPromoteAt, percent)
    }

    fn failover_countdown(&self, f: &FailoverView) -> String {
        if f.left_ms == 0 {
            ja!(FailoverDue)
        } else {
            ja!(FailoverCountdown, left_ms = span(f.left_ms))
        }
    }

    fn message_counts(&self, received: u64, sent: u64, compact: bool) -> String {
        if compact {
            ja!(MessageCountsCompact, received, sent)
        } else {
            ja!(MessageCounts, received, sent)
        }
    }

    fn history_lane(&self, key: &str, client: ClientId) -> String {
        let who = match client {
            crate::server::history::SCRIPT_CLIENT => ja!(HistoryLaneScript),
            crate::server::history::LOAD_CLIENT => ja!(HistoryLaneLoad),
            c => ja!(HistoryLaneClient, client = c),
        };
        format!("{} · {who}", crate::lang::ast::format_text(key))
    }

    fn history_op(&self, kind: OpName, value: Option<&str>) -> String {
        let v = |v: Option<&str>| v.map_or(ja!(HistoryOpNone), crate::lang::ast::format_text);
        match kind {
            OpName::Write => format!("put {}", v(value)),
            OpName::Read => format!("get → {}", v(value)),
            OpName::Delete => "delete".to_string(),
        }
    }

    fn history_tick(&self, ms: u64) -> String {
        ja!(
            HistoryTick,
            seconds = ms / 1000,
            hundredths = format!("{:02}", ms % 1000 / 10)
        )
    }

    fn history_verdict(&self, v: &HistoryVerdict) -> String {
        let value = |v: &Option<String>| {
            v.as_deref()
                .map_or(ja!(ValueAbsent), |v| ja!(ValueQuoted, value = v))
        };
        match v {
            HistoryVerdict::Empty => ja!(HistoryVerdictEmpty),
            HistoryVerdict::Linearizable { operations, keys } => {
                ja!(HistoryVerdictLinearizable, keys, operations)
            }
            HistoryVerdict::StaleRead {
                key,
                read_value,
                read_ms,
                missed_value,
                missed_done_ms,
            } => ja!(
                HistoryVerdictStaleRead,
                key = crate::lang::ast::format_text(key),
                read_ms = seconds(*read_ms),
                read_value = value(read_value),
                missed_value = value(missed_value),
                missed_done_ms = seconds(*missed_done_ms)
            ),
            HistoryVerdict::NotLinearizable { key, operations } => ja!(
                HistoryVerdictNotLinearizable,
                key = crate::lang::ast::format_text(key),
                operations
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
        let mut s = ja!(
            HistoryNote,
            from_ms = seconds(from_ms),
            to_ms = seconds(to_ms),
            total,
            shown
        );
        if hidden_lanes > 0 {
            s += &ja!(HistoryNoteHidden, hidden_lanes);
        }
        s
    }

    fn unreachable_url(&self, url: &str, short: bool) -> String {
        if short {
            ja!(UnreachableUrlShort)
        } else {
            ja!(UnreachableUrl, url)
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
        ja!(SendQueue, size)
    }

    fn log_title(&self) -> String {
        ja!(LogTitle)
    }

    fn log_row(&self, id: NodeId, learner: bool, short: bool) -> String {
        match (learner, short) {
            (true, false) => ja!(LogRowLearner, id),
            (true, true) => ja!(LogRowLearnerShort, id),
            (false, false) => ja!(LogRow, id),
            (false, true) => id.to_string(),
        }
    }

    fn no_log(&self) -> String {
        ja!(NoLog)
    }

    fn ring_caption(&self, leader: Option<(NodeId, u64)>, revision: u64) -> String {
        match leader {
            Some((id, term)) => ja!(RingCaptionLeader, id, term, revision),
            None => ja!(RingCaptionNoLeader, revision),
        }
    }

    fn mirror_caption(&self, m: &crate::session::view::MirrorView) -> [String; 2] {
        let r = &m.report;
        let state = match r.state {
            "syncing" => ja!(MirrorCaptionSyncing),
            "watching" => ja!(MirrorCaptionWatching),
            "stopped" => ja!(MirrorCaptionStopped),
            _ => ja!(MirrorCaptionFailed),
        };
        [
            ja!(MirrorCaption, id = r.id, state),
            // Why it failed, in words (the code is English: it stays in
            // the report and the events' details); the failure a mirror
            // meets most, its next revision compacted, in the log's short
            // word, as the canvas has little room between two rings.
            match r.error {
                Some(e) => match e.parse::<ErrorCode>() {
                    Ok(ErrorCode::Compacted) => ja!(LogMarkCompacted),
                    Ok(c) => error_meaning(c),
                    Err(_) => e.to_string(),
                },
                None => ja!(MirrorCaptionRelayed, last_revision = r.last_revision),
            },
        ]
    }

    fn log_mark(&self, mark: LogMark) -> String {
        match mark {
            LogMark::Commit => ja!(LogMarkCommit),
            LogMark::Applied => ja!(LogMarkApplied),
            LogMark::Snapshot => ja!(LogMarkSnapshot),
            LogMark::MemberChange => ja!(LogMarkMemberChange),
            LogMark::Uncommitted => ja!(LogMarkUncommitted),
            LogMark::Compacted => ja!(LogMarkCompacted),
        }
    }

    fn safety_headline(&self, violations: &[ViolationView]) -> String {
        let Some(first) = violations.first() else {
            return ja!(SafetyHeadlineOk);
        };
        let more = match violations.len() {
            1 => String::new(),
            n => ja!(SafetyHeadlineMore, others = n - 1),
        };
        ja!(
            SafetyHeadline,
            property = property(&first.property),
            when_who = when_who(first),
            more
        )
    }

    fn violation(&self, v: &ViolationView) -> String {
        if v.text.is_empty() {
            format!("{} · {}", when_who(v), property(&v.property))
        } else {
            format!("{} · {}: {}", when_who(v), property(&v.property), v.text)
        }
    }

    fn safety_list_head(&self, count: usize) -> String {
        if count == 0 {
            ja!(SafetyListHeadNone, checked = ja!(SafetyChecked))
        } else {
            ja!(SafetyListHead, count)
        }
    }

    fn safety_tip(&self, ok: bool) -> String {
        if ok {
            ja!(SafetyTipOk)
        } else {
            ja!(SafetyTipBroken)
        }
    }
}

/// "t=12.34秒、ノード1、2" (no nodes: just the time).
fn when_who(v: &ViolationView) -> String {
    let t = ja!(StoppedTime, seconds = Fixed(v.time_ms as f64 / 1000.0, 2));
    match v.nodes.as_slice() {
        [] => t,
        many => ja!(WhenWho, time = t, nodes = list(many)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::{ConfChange, ConfChangeSingle, MessageType, ProgressState};
    use crate::session::exec::Session;
    use crate::sim::membership::MemberError;
    use crate::sim::mvcc::MvccError;
    use crate::sim::PeerUrls;
    use crate::words::text_en::English;

    /// Whether a text holds Japanese (kana or kanji).
    fn japanese(s: &str) -> bool {
        s.chars()
            .any(|c| matches!(c as u32, 0x3040..=0x30ff | 0x4e00..=0x9fff | 0xff01..=0xff60))
    }

    fn raft(event: RaftEvent) -> EventKind {
        EventKind::Raft { node: 1, event }
    }

    /// The first run of three or more English words left in `text` once
    /// the texts kept as written (etcd's, Go's, commands) are taken out.
    fn english_phrase(text: &str, kept: &[&str]) -> Option<String> {
        // A list joined with 「、」 is a list, as with commas.
        let mut rest = text.replace('、', ", ");
        for k in kept.iter().filter(|k| !k.is_empty()) {
            rest = rest.replace(k, " ");
        }
        // Words joined by single spaces make a phrase; punctuation (a list's
        // commas) ends one.
        let mut run: Vec<&str> = Vec::new();
        for token in rest.split(|c: char| c.is_whitespace() || !c.is_ascii()) {
            let w = token.trim_start_matches(|c: char| "(\"'".contains(c));
            let bare = w.trim_end_matches(|c: char| ",.;:)\"'".contains(c));
            // Units and names in capitals (KB, MB) are no words.
            let word = bare.len() >= 2
                && bare.chars().any(|c| c.is_ascii_lowercase())
                && bare.chars().all(|c| c.is_ascii_alphabetic() || c == '\'');
            if word {
                run.push(bare);
                if run.len() >= 3 {
                    return Some(run.join(" "));
                }
                if bare.len() < w.len() {
                    run.clear();
                }
            } else {
                run.clear();
            }
        }
        None
    }

    /// What a server error's detail quotes as written: etcd's text and the
    /// Go error, rule or outcome it carries.
    fn kept_texts(e: &crate::server::ServerError) -> Vec<&'static str> {
        let mut kept = vec![e.code.etcd_text(), DEADLINE_EXCEEDED];
        match &e.why {
            ErrorDetail::Membership(m) => kept.push(m.etcd_text()),
            ErrorDetail::PeerListener { go_error, .. } => {
                kept.push("creating peer listener failed");
                kept.push(go_error.clone().leak());
            }
            ErrorDetail::BadPeerUrl { problem, .. } => match problem {
                UrlProblem::Parse { go_error, .. } => kept.push(go_error.clone().leak()),
                UrlProblem::Rule { rule, .. } => kept.push(rule),
            },
            _ => {}
        }
        kept
    }

    fn not_yets() -> Vec<NotYet> {
        vec![
            NotYet::Behind {
                matched: 3,
                last: 9,
                percent_now: 33,
                percent: 90,
            },
            NotYet::NotHeard { silent_ms: None },
            NotYet::NotHeard {
                silent_ms: Some(1500),
            },
            NotYet::Snapshot,
            NotYet::Strict(crate::raft::opaque::Opaque::new(
                crate::server::ServerError::new(
                    ErrorCode::NotEnoughStartedMembers,
                    ErrorDetail::NotEnoughStarted {
                        started: 1,
                        quorum: 2,
                        voters: 3,
                        others: false,
                    },
                ),
                0,
            )),
            NotYet::NotTracked,
            NotYet::NoStandby,
        ]
    }

    /// One event of every kind (each Raft event, each mode decision, each
    /// way a message is dropped).
    fn every_event() -> Vec<EventKind> {
        use RaftEvent::*;
        let change = |t, request| ConfChange {
            change_type: t,
            node_id: 4,
            request,
            context: PeerUrls::one(4, "http://n4:2380"),
            promote: false,
        };
        let joint = |changes: Vec<ConfChangeSingle>| ConfChangeV2 {
            changes,
            request: 3,
            ..ConfChangeV2::default()
        };
        let mut all = vec![
            raft(BecameFollower { term: 2, leader: 3 }),
            raft(BecameFollower { term: 2, leader: 0 }),
            raft(BecamePreCandidate { term: 2 }),
            raft(BecameCandidate { term: 3 }),
            raft(BecameLeader {
                term: 3,
                votes: vec![1, 2],
            }),
            raft(StepDownNoQuorum { term: 3 }),
            raft(Committed { index: 9 }),
            raft(SnapshotSent { to: 4, index: 9 }),
            raft(SnapshotRestored { index: 9 }),
            raft(TransferStarted { to: 2 }),
            raft(TransferAborted { to: 2 }),
            raft(ForgetLeaderIgnored),
            raft(AutoLeaveProposed),
            EventKind::PutApplied {
                node: 1,
                index: 5,
                request: 1,
            },
            EventKind::PublishApplied { node: 1, member: 4 },
            EventKind::ReadServed {
                node: 1,
                request: 2,
                read: Served::Key {
                    key: "k".into(),
                    rev: 0,
                    read: Ok(KeyRead {
                        value: Some("v".into()),
                        mod_revision: Some(2),
                        revision: 3,
                    }),
                },
            },
            EventKind::ReadServed {
                node: 1,
                request: 2,
                read: Served::Key {
                    key: "k".into(),
                    rev: 2,
                    read: Ok(KeyRead {
                        value: None,
                        mod_revision: None,
                        revision: 3,
                    }),
                },
            },
            EventKind::ReadServed {
                node: 1,
                request: 2,
                read: Served::Key {
                    key: "k".into(),
                    rev: 1,
                    read: Err(MvccError::Compacted),
                },
            },
            EventKind::ReadServed {
                node: 1,
                request: 2,
                read: Served::Members,
            },
            EventKind::DeleteApplied {
                node: 1,
                index: 6,
                request: 3,
                deleted: 1,
                revision: 4,
            },
            EventKind::DeleteApplied {
                node: 1,
                index: 6,
                request: 3,
                deleted: 0,
                revision: 4,
            },
            EventKind::CompactionApplied {
                node: 1,
                index: 7,
                request: 4,
                rev: 3,
                refused: None,
            },
            EventKind::CompactionApplied {
                node: 1,
                index: 7,
                request: 4,
                rev: 9,
                refused: Some(MvccError::FutureRev),
            },
            EventKind::Compacted { node: 1, index: 9 },
            EventKind::Crashed { node: 1 },
            EventKind::Started { node: 1 },
            EventKind::StoppedRemoved {
                node: 1,
                delayed: false,
            },
            EventKind::StoppedRemoved {
                node: 1,
                delayed: true,
            },
            EventKind::LinkCut { from: 1, to: 2 },
            EventKind::LinkHealed { from: 1, to: 2 },
            EventKind::WatchEvents {
                node: 1,
                watch: 1,
                count: 1,
                revision: 5,
            },
            EventKind::WatchEvents {
                node: 1,
                watch: 1,
                count: 3,
                revision: 7,
            },
            EventKind::WatchCanceled {
                node: 1,
                watch: 2,
                compact_revision: 6,
            },
            EventKind::Mirror(MirrorEvent::Started {
                mirror: 9,
                from: 1,
                to: 11,
            }),
            EventKind::Mirror(MirrorEvent::Synced {
                mirror: 9,
                revision: 4,
                keys: 3,
            }),
            EventKind::Mirror(MirrorEvent::Relayed {
                mirror: 9,
                count: 2,
                revision: 6,
            }),
            EventKind::Mirror(MirrorEvent::Paused {
                mirror: 9,
                peer: 1,
                revision: 6,
            }),
            EventKind::Mirror(MirrorEvent::Resumed {
                mirror: 9,
                revision: 7,
            }),
            EventKind::Mirror(MirrorEvent::Failed {
                mirror: 9,
                code: "compacted",
                error: "etcdserver: mvcc: required revision has been compacted",
            }),
            EventKind::Mirror(MirrorEvent::Stopped { mirror: 9 }),
        ];
        for pre_vote in [false, true] {
            all.push(raft(VoteGranted {
                candidate: 2,
                term: 3,
                pre_vote,
            }));
            all.push(raft(VoteRejected {
                candidate: 2,
                term: 3,
                pre_vote,
                reason: "lease",
            }));
        }
        for t in [
            ConfChangeType::AddNode,
            ConfChangeType::AddLearnerNode,
            ConfChangeType::RemoveNode,
            ConfChangeType::UpdateNode,
        ] {
            for refused in [None, Some(MemberError::IdExists)] {
                all.push(EventKind::ConfChangeApplied {
                    node: 1,
                    index: 9,
                    change: change(t, 1),
                    refused,
                });
            }
        }
        let single = ConfChangeSingle {
            change_type: ConfChangeType::AddNode,
            node_id: 4,
        };
        for c in [
            joint(vec![single]),
            joint(vec![single, single]),
            joint(Vec::new()),
        ] {
            for refused in [None, Some(MemberError::MemberNotFound)] {
                all.push(EventKind::JointChangeApplied {
                    node: 1,
                    index: 9,
                    change: c.clone(),
                    refused,
                });
            }
        }
        for reason in [
            DropReason::LinkCut,
            DropReason::NodeDown,
            DropReason::NoRoute,
            DropReason::SenderRemoved,
            DropReason::Lost,
            DropReason::ByHand,
        ] {
            all.push(EventKind::MessageDropped {
                from: 1,
                to: 2,
                kind: MessageType::App,
                reason,
            });
        }
        let mut decisions = vec![
            ModeDecision::Promote {
                learner: 4,
                matched: 9,
                last: 9,
                percent: 90,
            },
            ModeDecision::FailoverCountdown {
                voter: 2,
                silent_ms: 1000,
                left_ms: 500,
            },
            ModeDecision::FailoverCancelled { voter: 2 },
            ModeDecision::FailoverRemove {
                voter: 2,
                standby: 4,
                silent_ms: 2000,
            },
            ModeDecision::FailoverPromote {
                standby: 4,
                voter: 2,
                grow: false,
            },
            ModeDecision::FailoverPromote {
                standby: 4,
                voter: 2,
                grow: true,
            },
        ];
        for reason in not_yets() {
            decisions.push(ModeDecision::NotYet {
                learner: 4,
                reason: reason.clone(),
            });
            decisions.push(ModeDecision::FailoverBlocked {
                voter: 2,
                standby: Some(4),
                reason: reason.clone(),
            });
            decisions.push(ModeDecision::FailoverBlocked {
                voter: 2,
                standby: None,
                reason,
            });
        }
        all.extend(decisions.into_iter().map(|decision| EventKind::Mode {
            leader: 1,
            decision,
        }));
        for step in [
            JoinStep::Unreachable { ms: 2000 },
            JoinStep::Asks,
            JoinStep::NoAnswer { ms: 7000 },
            JoinStep::LeaderChanged,
        ] {
            all.push(EventKind::Join {
                node: 4,
                peer: 1,
                step,
            });
        }
        all.push(EventKind::ReadServed {
            node: 1,
            request: 2,
            read: Served::Downgrade { asker: 4 },
        });
        all
    }

    /// A new kind of event must be added to `every_event` (this match has
    /// no catch-all, so it stops compiling until it is).
    #[allow(dead_code)]
    fn every_event_is_listed(k: &EventKind) {
        match k {
            EventKind::Raft { .. }
            | EventKind::PutApplied { .. }
            | EventKind::PublishApplied { .. }
            | EventKind::ConfChangeApplied { .. }
            | EventKind::JointChangeApplied { .. }
            | EventKind::ReadServed { .. }
            | EventKind::DeleteApplied { .. }
            | EventKind::CompactionApplied { .. }
            | EventKind::Compacted { .. }
            | EventKind::MessageDropped { .. }
            | EventKind::Crashed { .. }
            | EventKind::Started { .. }
            | EventKind::StoppedRemoved { .. }
            | EventKind::LinkCut { .. }
            | EventKind::LinkHealed { .. }
            | EventKind::WatchEvents { .. }
            | EventKind::WatchCanceled { .. }
            | EventKind::Mirror(_)
            | EventKind::Join { .. }
            | EventKind::Mode { .. } => {}
        }
    }

    #[test]
    fn a_stopped_run_is_said_in_japanese() {
        let stop = Stop {
            reason: "memory",
            line: Some(3),
            command: Some("wait 3600s".into()),
            reached_ms: 2_688_000,
            time_ms: 20_000,
            commands_left: 2,
            budget_bytes: Some(512 << 20),
            counted_bytes: Some(519 << 20),
            max_wall_ms: None,
            message: String::new(),
        };
        let ja = Japanese.stopped(&stop);
        assert!(japanese(&ja), "{ja}");
        assert!(ja.contains("3行目") && ja.contains("メモリ予算"), "{ja}");
    }

    #[test]
    fn every_event_sentence_is_in_japanese() {
        let events = every_event();
        let codes: std::collections::BTreeSet<&str> = events
            .iter()
            .map(crate::session::narrate::event_code)
            .collect();
        // Every code of `event_code` but the raft events built per reason below.
        assert!(codes.len() >= 30, "{codes:?}");
        for kind in events {
            let e = Event { time_ms: 5, kind };
            let ja = Japanese.event(&e);
            assert!(japanese(&ja), "not Japanese: {ja} ({:?})", e.kind);
            assert_ne!(ja, English.event(&e));
        }
    }

    /// Every reason a Raft node gives in src/raft is in the table of
    /// `reason` (found by reading the source: a new reason fails here).
    #[test]
    fn every_raft_reason_has_a_translation() {
        let files = [
            include_str!("../raft/node/step.rs"),
            include_str!("../raft/node/leader.rs"),
            include_str!("../raft/node/mod.rs"),
            include_str!("../raft/node/conf_change.rs"),
            include_str!("../raft/events.rs"),
            include_str!("../raft/confchange/mod.rs"),
        ];
        let mut found = Vec::new();
        for text in files {
            let mut in_reason_fn = false;
            let mut in_let_reason = false;
            for line in text.lines() {
                let t = line.trim();
                if t.starts_with("pub fn reason(") {
                    in_reason_fn = true;
                }
                if t.starts_with("let reason = if") {
                    in_let_reason = true;
                }
                let quoted = |s: &str| s.split('"').nth(1).map(str::to_string);
                if let Some(rest) = t.split("reason: \"").nth(1) {
                    found.extend(quoted(&format!("\"{rest}")));
                } else if let Some(rest) = t.split("ignored(\"").nth(1) {
                    found.extend(quoted(&format!("\"{rest}")));
                } else if in_reason_fn && t.contains("=> \"") {
                    found.extend(quoted(t.split("=> ").nth(1).unwrap_or("")));
                } else if (in_reason_fn || in_let_reason) && t.starts_with('"') {
                    found.extend(quoted(t));
                }
                if in_reason_fn && t == "}" && line.starts_with("    }") {
                    in_reason_fn = false;
                }
                if in_let_reason && t == "};" {
                    in_let_reason = false;
                }
            }
        }
        assert!(found.len() >= 15, "{found:?}");
        for r in found {
            if r == "configuration invariant broken" {
                continue; // shown with its own detail, never as a reason
            }
            assert!(japanese(&reason(&r)), "no Japanese for the reason {r:?}");
        }
    }

    #[test]
    fn a_word_of_the_input_is_quoted_in_kagikakko_text_that_was_quoted_keeps_its_quotes() {
        let said =
            |line: &str| parse_error(&crate::lang::parse::parse_command(line).unwrap_err().kind);
        assert!(
            said("pt a b").starts_with("未知のコマンド「pt」です。"),
            "{}",
            said("pt a b")
        );
        assert_eq!(word_ja("\"a\\\"b\""), "「a\"b」");
        assert_eq!(word_ja("16"), "16");
        assert_eq!(word_ja("\""), "\"");
        // Text the script put in quotes is named as quoted text, in its quotes.
        assert!(
            said("\"put\" a b").contains("引用符で囲んだテキスト\"put\""),
            "{}",
            said("\"put\" a b")
        );
    }

    #[test]
    fn every_parse_error_kind_is_said_in_japanese_and_differs_from_english() {
        use crate::lang::parse_error::MissingWhat;
        let samples = ParseErrorKind::samples();
        assert!(samples.len() >= 110, "{}", samples.len());
        for kind in samples {
            let ja = parse_error(&kind);
            assert!(japanese(&ja), "no Japanese for {kind:?}: {ja}");
            assert_ne!(ja, kind.english());
            // Only what is quoted from the input or the language (commands,
            // options, forms, lists of names) stays as typed.
            let kept = [CONDITION_FORMS, &COMMAND_NAMES.join(", ")];
            assert_eq!(english_phrase(&ja, &kept), None, "{kind:?}: {ja}");
        }
        for what in MissingWhat::ALL {
            assert!(japanese(&missing_ja(what)), "no Japanese word for {what:?}");
        }
        // Every parse error the parser gives for these lines is one of the
        // kinds said in Japanese (there is no English-only kind left).
        for line in [
            "",
            "pt a b",
            "\"put\" a b",
            "cluster voters=1",
            "put",
            "put a=b c",
            "crash 1 2",
            "crash x",
            "crash 16",
            "get a vai=1",
            "get a via=1 via=2",
            "get a serializable=1",
            "get a via",
            "get a \"x\"",
            "wait 5",
            "wait -1s",
            "wait 0.1ms",
            "wait 2h",
            "wait x",
            "expect leeder",
            "expect",
            "expect role",
            "expect queued>=x",
            "expect queued>=5",
            "expect msgs-out 1=x",
            "say \"a\" b",
            "put \"a",
            "put a\"b",
            "put \"a\\x\"",
            "put \"a\"b",
            "net loss=x",
            "net loss=101%",
            "member",
            "member add",
            "say \"{lader}\"",
            "say \"a {\"",
            "say \"a }\"",
            "say-ja \"x\"",
            "load",
            "load size=1KB",
            "load rate=0/s",
            "load rate=99999999/s",
            "load rate=x",
            "net",
            "net latency=30ms..10ms",
            "net latency=x",
            "net bandwidth=0B/s",
            "net bandwidth=x",
            "member add 4 --learner --voter",
            "member add 4 --voter --standby",
            "member add 4 --standby --read-only=weak",
            "member add 4 --read-only=x",
            "member frob",
            "member change",
            "member change add=4 remove=4",
            "member change add=4 leave=x",
            "cut 1->",
            "cut 1->1",
            "partition",
            "partition \"1\"",
            "partition 1 2",
            "partition 1,1 | 2",
            "partition 1 | 1",
            "partition , | 2",
            "partition | 2",
            "partition 1 |",
            "partition 1,",
            "partition 1,2",
            "expect value=",
            "expect msgs-out x",
            "expect queued x",
            "expect watch-events x",
            "expect watch-events 1=",
            "expect watch-events 0=1",
            "expect watch-canceled x",
            "expect role x",
            "expect role 2=",
            "expect role 2=boss",
            "expect progress x",
            "expect progress 2=fast",
            "expect error=nope",
            "expect voters=",
            "expect voters=1,1",
        ] {
            let e = crate::lang::parse::parse_command(line).unwrap_err();
            assert_eq!(e.message, e.kind.english(), "{line:?}");
            let said = Japanese.unparsed(line, &e);
            assert!(japanese(&said), "{line:?}");
            let kept = [CONDITION_FORMS, line];
            assert_eq!(english_phrase(&said, &kept), None, "{line:?}: {said}");
        }
        for script in [
            "",
            "put a b",
            "cluster voters=1\ncluster voters=2",
            "cluster voters=1\nsay-ja \"x\"",
            "cluster voters=1\nsay \"a\"\nsay-ja \"b\"\nsay-ja \"c\"",
            "cluster seed=1",
            "cluster voters=1 heartbeat=0ms",
            "cluster voters=1 heartbeat=100ms election-timeout=100ms",
            "cluster voters=1 election-timeout=999s",
            "cluster voters=1 failover-after=10ms",
            "cluster voters=1 snapshot-count=0",
            "cluster voters=1 etcd=3.3",
            "cluster voters=1 etcd=3.5 max-learners=2",
            "cluster voters=1 transport=x",
            "cluster voters=1 new-members=x",
            "cluster voters=1 failover=x",
            "cluster voters=1 auto-promote=0%",
            "cluster voters=1 auto-promote=x",
            "cluster voters=1 prevote=x",
        ] {
            let e = crate::lang::parse::parse_script(script).unwrap_err();
            assert!(japanese(&parse_error(&e.kind)), "{script:?}");
        }
    }

    #[test]
    fn every_result_refusal_and_panel_sentence_is_in_japanese() {
        let mut r = CommandResult::new(1, "member promote 4".into());
        let mut texts = vec![Japanese.result_summary(&r)];
        r.index = Some(3);
        texts.push(Japanese.result_details(&r).unwrap());
        r.value = Some(Some("v".into()));
        texts.push(Japanese.result_summary(&r));
        r.value = Some(None);
        texts.push(Japanese.result_summary(&r));
        r.pending = true;
        texts.push(Japanese.result_summary(&r));
        for code in ErrorCode::ALL {
            let mut failed = CommandResult::new(1, "x".into());
            failed.ok = false;
            failed.error = Some(code.as_str());
            texts.push(Japanese.result_summary(&failed));
            texts.push(Japanese.logged_result(0, &failed, true, true));
            texts.push(Japanese.surprises(&[failed.clone()]));
        }
        texts.push(Japanese.unparsed("x", &ParseError::new(1, 1, ParseErrorKind::Unterminated)));
        texts.push(Japanese.folded(0, 5, "z", 2));
        texts.push(Japanese.branch_started(0, 2, 1));
        texts.push(Japanese.branch_resumed(1, 0));
        for why in [
            Refusal::NoFreeId { max: 15 },
            Refusal::NoLeaderToIsolate,
            Refusal::TooFewToPartition,
            Refusal::NoBranch(9),
            Refusal::LessonHasNoBranches,
            Refusal::RunInProgress,
            Refusal::ClockOverBudget {
                budget: 512 << 20,
                counted: 600 << 20,
            },
            Refusal::ModeChoice {
                option: "failover",
                found: "x".into(),
                choices: &["replace", "grow"],
            },
            Refusal::Modes(ParseError::new(1, 1, ParseErrorKind::Unterminated)),
            Refusal::AutoPromoteRange,
            Refusal::FailoverAfterRange {
                min_ms: 1000,
                max_ms: 600_000,
            },
            Refusal::MaxLearnersRange { max: 15 },
        ] {
            texts.push(Japanese.refusal(&why));
        }
        texts.push(Japanese.nothing_happens());
        texts.push(Japanese.at_the_beginning());
        texts.push(Japanese.seek_cancelled(1500));
        for e in [
            EtcdctlError::Etcdctl("x".into()),
            EtcdctlError::Server {
                code: ErrorCode::MemberNotFound,
                member_id: 1,
            },
            EtcdctlError::Unmodelled {
                command: "txn".into(),
            },
            EtcdctlError::UnmodelledFlag {
                command: "get".into(),
                flag: "--prefix".into(),
            },
            EtcdctlError::UnmodelledPrinter {
                printer: "json".into(),
            },
            EtcdctlError::BadName { name: "a".into() },
            EtcdctlError::SeveralUrls,
            EtcdctlError::BadEndpoints {
                endpoints: "localhost:2379".into(),
            },
            EtcdctlError::NegativeRevision { rev: "-1".into() },
        ] {
            let ja = Japanese.etcdctl_refusal(&e);
            // etcdctl's own refusal is quoted as etcdctl prints it.
            if !matches!(e, EtcdctlError::Etcdctl(_)) {
                texts.push(ja);
            }
        }
        texts.push(Japanese.etcdctl_recorded("x"));
        // The panels, from real clusters: with and without a leader, a
        // learner, a quorum lost.
        let mut s = Session::from_script(
            "cluster voters=1,2,3 seed=1\nwait-until leader\nwait 6s\nmember add 4 --learner\n",
        )
        .unwrap();
        for _ in 0..3 {
            let q = QuorumView::of(s.cluster());
            texts.push(Japanese.quorum_verdict(&q));
            texts.push(Japanese.quorum_sentence(&q));
            s.command("isolate 1").unwrap();
            s.command("wait 3s").unwrap();
        }
        for state in [
            NodeState::Leader,
            NodeState::Follower,
            NodeState::Candidate,
            NodeState::PreCandidate,
            NodeState::Down,
            NodeState::NotStarted,
            NodeState::Joining,
            NodeState::Removed,
        ] {
            texts.push(Japanese.node_head(None, state));
            texts.push(Japanese.node_head(Some(LearnerKind::Plain), state));
        }
        texts.push(Japanese.unreachable_url("http://x", false));
        texts.push(Japanese.unreachable_url("http://x", true));
        texts.push(Japanese.send_queue(2048));
        texts.push(Japanese.log_title());
        texts.push(Japanese.log_row(1, true, false));
        texts.push(Japanese.log_row(1, true, true));
        texts.push(Japanese.no_log());
        for mark in LogMark::ALL {
            texts.push(Japanese.log_mark(mark));
        }
        let v = ViolationView {
            time_ms: 1,
            property: "election safety".into(),
            nodes: vec![1, 2],
            text: String::new(),
        };
        texts.push(Japanese.safety_headline(&[]));
        texts.push(Japanese.safety_headline(&[v.clone(), v.clone()]));
        texts.push(Japanese.violation(&v));
        texts.push(Japanese.safety_list_head(0));
        texts.push(Japanese.safety_list_head(2));
        texts.push(Japanese.safety_tip(true));
        texts.push(Japanese.safety_tip(false));
        for t in texts {
            assert!(japanese(&t), "not Japanese: {t}");
        }
        // Progress states are Raft's own words, as in etcd's tracker.
        let p = ProgressView {
            matched: 1,
            next: 2,
            state: ProgressState::Replicate,
        };
        assert_eq!(Japanese.progress(&p, false), English.progress(&p, false));
    }

    #[test]
    fn every_safety_property_has_a_translation() {
        let src = include_str!("../sim/invariants.rs");
        let mut n = 0;
        for line in src.lines() {
            for p in line.split('"').skip(1).step_by(2) {
                if [
                    "election safety",
                    "log matching",
                    "leader completeness",
                    "state machine safety",
                    "leader append-only",
                    "term monotonicity",
                    "commit monotonicity",
                    "learners never campaign",
                ]
                .contains(&p)
                {
                    n += 1;
                    assert!(japanese(&property(p)), "{p}");
                }
            }
        }
        assert!(n >= 8);
    }

    #[test]
    fn every_server_refusal_is_said_in_japanese_from_its_facts() {
        // The check itself: a phrase is caught, a list or a kept text not.
        assert_eq!(
            english_phrase("ノード 2 は (is not running)", &[]),
            Some("is not running".to_string())
        );
        assert_eq!(
            english_phrase("使えるのは: add, promote, remove", &[]),
            None
        );
        assert_eq!(
            english_phrase("拒否: etcdserver: no leader", &["etcdserver: no leader"]),
            None
        );
        let samples = crate::server::ServerError::samples();
        assert!(samples.len() >= 30, "{}", samples.len());
        for e in samples {
            let en = crate::session::detail::server_detail(&e);
            let ja = server_detail(&e);
            assert!(japanese(&ja), "no Japanese for {:?}: {ja}", e.why);
            assert_ne!(ja, en, "{:?}", e.why);
            let kept = kept_texts(&e);
            assert_eq!(english_phrase(&ja, &kept), None, "{:?}: {ja}", e.why);
            // The English sentence is the report's detail, as before.
            assert_eq!(crate::session::detail::server_detail(&e), en);
            // A result that failed with it reads in Japanese on the page.
            let mut r = CommandResult::new(1, "member promote 4".into());
            r.fail(e.clone());
            assert_eq!(r.detail.as_deref(), Some(en.as_str()));
            let summary = Japanese.result_summary(&r);
            assert!(summary.contains(&ja), "{summary}");
            assert_eq!(english_phrase(&summary, &kept), None, "{summary}");
            let logged = Japanese.logged_result(0, &r, true, false);
            assert_eq!(english_phrase(&logged, &kept), None, "{logged}");
        }
        // The one sentence English cannot finish by itself: a detail with
        // facts of its own beyond etcd's text is never etcd's text alone.
        let not_ready = crate::server::reconfig::check_learner_ready(4, true, 3, 12).unwrap_err();
        assert_eq!(
            server_detail(&not_ready),
            "学習者のノード4のmatch（3）が、リーダーのmatch（12）の90%に届いていません"
        );
    }

    #[test]
    fn every_failed_expectation_is_said_in_japanese_from_its_facts() {
        use crate::lang::ast::Condition;
        use crate::session::cond::Unmet;
        for u in Unmet::samples() {
            let en = crate::session::detail::unmet(&u);
            let ja = unmet(&u);
            assert!(japanese(&ja), "no Japanese for {u:?}: {ja}");
            assert_ne!(ja, en, "{u:?}");
            assert_eq!(english_phrase(&ja, &[]), None, "{u:?}: {ja}");
            for f in [
                Failure::Expect {
                    cond: Condition::Leader.into(),
                    unmet: u.clone(),
                },
                Failure::WaitUntil {
                    cond: Condition::CaughtUp(4).into(),
                    within_ms: 2000,
                    unmet: u.clone(),
                },
            ] {
                let mut r = CommandResult::new(3, "expect leader".into());
                r.fail(f.clone());
                let en_detail = crate::session::detail::failure_detail(&f);
                assert_eq!(r.detail.as_deref(), Some(en_detail.as_str()));
                let said = Japanese.result_summary(&r);
                assert!(said.contains(&ja), "{said}");
                assert_eq!(english_phrase(&said, &[]), None, "{said}");
                assert!(!said.contains(&en_detail), "{said}");
            }
        }
        // The English sentences stay the report's, word for word.
        let f = Failure::Expect {
            cond: Condition::LeaderIs(2).into(),
            unmet: Unmet::LeaderIs(3),
        };
        assert_eq!(
            crate::session::detail::failure_detail(&f),
            "expected leader=2, but the leader is 3"
        );
        assert_eq!(
            failure_detail(&f),
            "leader=2を期待しましたが、リーダーはノード3です"
        );
    }

    /// Refused commands in a real run: the page's Japanese line says each
    /// refusal in Japanese, while the report keeps the English detail.
    #[test]
    fn refused_promotions_read_in_japanese_and_report_in_english() {
        let script = "cluster voters=1,2,3\nwait-until leader within=5s\nmember promote 2\n\
                      wait 1s\nmember promote 2\n";
        let session = Session::run(&crate::lang::parse::parse_script(script).unwrap());
        let early = &session.results()[1];
        assert_eq!(early.error, Some("learner-not-ready"));
        let en = early.detail.clone().unwrap();
        assert!(
            en.starts_with("voter 2 match 0 < 90% of leader match"),
            "{en}"
        );
        let ja = Japanese.result_summary(early);
        assert!(
            ja.starts_with(
                "エラー：learner-not-ready（学習者メンバーがまだリーダーに追いついていない）。\
                 投票メンバーのノード2のmatch（0）が、リーダーのmatch"
            ),
            "{ja}"
        );
        assert_eq!(english_phrase(&ja, &[]), None, "{ja}");
        let late = &session.results()[3];
        assert_eq!(late.error, Some("member-not-learner"));
        let en = late.detail.clone().unwrap();
        assert_eq!(en, MemberError::MemberNotLearner.etcd_text());
        let ja = Japanese.result_summary(late);
        assert!(
            ja.starts_with("エラー：member-not-learner（学習者メンバーではない）"),
            "{ja}"
        );
        assert_eq!(english_phrase(&ja, &[&en]), None, "{ja}");
        assert_ne!(ja.replace(&en, ""), ja, "etcd's text is quoted: {ja}");
    }

    #[test]
    fn every_link_and_file_refusal_is_said_in_japanese_from_its_facts() {
        let samples = ShareProblem::samples();
        assert_eq!(samples.len(), 13);
        for p in samples {
            let e = crate::session::share::ShareError {
                kind: p.kind(),
                message: p.english(),
                parse: None,
                problem: Box::new(p.clone()),
            };
            let ja = Japanese.share_refusal(&e);
            assert!(japanese(&ja), "no Japanese for {p:?}: {ja}");
            assert_ne!(ja, English.share_refusal(&e), "{p:?}");
            assert_eq!(English.share_refusal(&e), p.english());
            assert_eq!(english_phrase(&ja, &[]), None, "{p:?}: {ja}");
        }
        // A real link and file: the words of the error each carries.
        let bad = crate::session::share::decode_link("#v1.ab$").unwrap_err();
        assert_eq!(
            Japanese.share_refusal(&bad),
            "リンクのペイロードがbase64urlではありません：3文字目に'$'があります（「#v1.」の後に使えるのは英字、数字、「-」、「_」だけです）"
        );
        let bad = crate::session::share::import_scenario("cluster voters=1\nput \"a").unwrap_err();
        let ja = Japanese.share_refusal(&bad);
        assert!(ja.starts_with("ファイルのスクリプトの2行目"), "{ja}");
        assert!(bad
            .message
            .starts_with("the file holds a script that does not parse"));
        assert_eq!(Japanese.no_lesson("x"), "レッスン\"x\"はありません");
        assert_eq!(English.no_lesson("x"), "there is no lesson \"x\"");
    }
}
