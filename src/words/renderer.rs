//! The [`Renderer`] each language implements: every sentence a reader
//! reads about a run is made by one of its methods, from the session's
//! facts (the narration's lines, results, the view model) and the
//! language's errors.

use std::borrow::Cow;

use crate::lang::etcdctl::EtcdctlError;
use crate::lang::parse::ParseError;
use crate::lang::say::Spoken;
use crate::raft::NodeId;
use crate::session::narrate::{CampaignFold, Line, Said};
use crate::session::refusal::Refusal;
use crate::session::report::CommandResult;
use crate::session::share::ShareError;
use crate::session::stop::Stop;
use crate::session::view::{
    FailoverView, HistoryVerdict, LearnerKind, LogMark, NodeState, ProgressView, QuorumView,
    ViolationView,
};
use crate::sim::linearizability::{ClientId, OpName};
use crate::sim::Event;

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
    /// Japanese, filled here with the run's facts in Japanese words; the
    /// `say` line's in English (and wherever no translation was written).
    fn say<'a>(&self, text: &'a Spoken) -> Cow<'a, str> {
        Cow::Borrowed(&text.en)
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
    /// An opened run (a file, a link, an address's script) had `more`
    /// failed commands besides those its log shows.
    fn more_failed(&self, more: usize) -> String;
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
    /// What a learner is, alone ("learner", "standby", "read-only strong"):
    /// a running learner's head where the canvas has no room for its role
    /// (a learner that runs is a follower).
    fn learner_word(&self, kind: LearnerKind) -> String;
    /// Under a node's head when it sees itself otherwise than the cluster
    /// does: as a learner (`learner`), or as a voter; `short` where the
    /// canvas has no room for the whole line.
    fn sees_itself(&self, learner: bool, short: bool) -> String;
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
    /// A member whose peer URL reaches no host; `short`, without the URL
    /// (a phone's canvas: a tap on the node says it).
    fn unreachable_url(&self, url: &str, short: bool) -> String;
    /// The leader's view of a peer; `compact` when many nodes share the ring.
    fn progress(&self, p: &ProgressView, compact: bool) -> String;
    /// Bytes waiting in a node's send queue.
    fn send_queue(&self, bytes: u64) -> String;
    /// The log strips' title, a strip's row label (`short`: the id alone,
    /// a learner's marked, for a narrow panel), and a strip with no log.
    fn log_title(&self) -> String;
    fn log_row(&self, id: NodeId, learner: bool, short: bool) -> String;
    fn no_log(&self) -> String;
    /// A mark in the strips' key.
    fn log_mark(&self, mark: LogMark) -> String;
    /// Under a cluster's name, when the canvas shows several: its leader
    /// and the leader's term, and its store's revision.
    fn ring_caption(&self, leader: Option<(NodeId, u64)>, revision: u64) -> String;
    /// A mirror process's two lines on the canvas: its id and state, then
    /// the last source revision it relayed or, failed, etcd's error.
    fn mirror_caption(&self, m: &crate::session::view::MirrorView) -> [String; 2];

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
