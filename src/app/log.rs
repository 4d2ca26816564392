//! The page's event log: the run's narration, the commands the reader typed
//! or clicked and what the page did about them, as lines ready to show, with
//! repeated events folded into one.
//!
//! Every line carries its structure (kind, tone, the event it tells, its
//! time) beside its words; the words come from a [`Renderer`] at the moment
//! the line is made. The page only appends the lines: it decides nothing.
//!
//! # Folding
//!
//! While a fault lasts, the same events come back every election timeout: an
//! isolated node asks for pre-votes, its peers refuse them. A line whose
//! [`FoldKey`] matches a line shown since the last line that cannot fold
//! (a leader elected, a command's result, anything that changes the
//! cluster) does not become a new line: it folds into that one, which then
//! says how many times it happened and between which moments. The folded
//! line's own sentence still comes with it, so the whole trace stays one
//! click away.
//!
//! A node's campaign gathers the answers to it: a vote granted or refused
//! to a candidate whose campaign line is open folds into that line, which
//! then says how often the node asked and who refused why ("node 3 asked
//! for pre-votes 14 times; refused: leader lease (by 1 and 2)").

use serde::Serialize;

use crate::lang::ast::escape_controls;
use crate::lessons::{Step, StepLine};
use crate::raft::NodeId;
use crate::raft::RaftEvent;
use crate::session::narrate::{CampaignFold, EventSummary, FoldKey, Line, Said, Tone};
use crate::session::refusal::Refusal;
use crate::session::report::CommandResult;
use crate::sim::EventKind;
use crate::words::renderer::Renderer;

/// What a log line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LogKind {
    /// Something happened in the cluster.
    Event,
    /// A command's result.
    Result,
    /// What a command that worked returned (an index, a value, members).
    Details,
    /// A command as the reader typed or clicked it.
    Command,
    /// A lesson's own words.
    Say,
    /// Something the reader asked for could not be done.
    Error,
    /// The page telling what it did (a branch started, nothing happens).
    Notice,
}

/// One line of the log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogLine {
    /// Unique in its engine: a fold names the line it folds into.
    pub id: u64,
    /// Simulated time it happened, for lines that happened at a moment.
    pub time_ms: Option<u64>,
    pub kind: LogKind,
    pub tone: Tone,
    /// The event a [`LogKind::Event`] line tells.
    pub event: Option<EventSummary>,
    /// The command a result or an echo is about.
    pub command: Option<String>,
    /// The line in words.
    pub text: String,
    /// Set when this line folds into an earlier one instead of standing on
    /// its own: the page updates that line and keeps this one as detail.
    pub fold: Option<Fold>,
}

/// A line folding into an earlier one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fold {
    /// The id of the line it folds into.
    pub into: u64,
    /// How many lines that line now stands for.
    pub count: usize,
    /// That line's new words.
    pub summary: String,
}

/// A line shown since the last line that cannot fold.
#[derive(Debug, Clone)]
struct Open {
    id: u64,
    key: FoldKey,
    first_ms: u64,
    count: usize,
    /// A campaign's line: its repeats and the votes that answered them.
    campaign: Option<CampaignFold>,
}

/// How many foldable lines a fold window remembers.
const WINDOW: usize = 32;

/// Makes log lines: numbers them, folds repeats, renders their words.
#[derive(Debug, Clone, Default)]
pub struct Log {
    next_id: u64,
    window: Vec<Open>,
}

impl Log {
    /// Starts afresh: nothing folds into a line made before (the page
    /// cleared its log).
    pub fn reset(&mut self) {
        self.window.clear();
    }

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// A line of the page's own: an echo, a notice, an error, a lesson's words.
    pub fn plain(&mut self, kind: LogKind, tone: Tone, text: String) -> LogLine {
        self.window.clear();
        LogLine {
            id: self.id(),
            time_ms: None,
            kind,
            tone,
            event: None,
            command: None,
            text,
            fold: None,
        }
    }

    /// The echo of a command the reader typed or clicked, its control
    /// characters escaped as an error message quoting it escapes them (the
    /// line's `command` keeps it as typed).
    pub fn echo(&mut self, r: &dyn Renderer, command: &str) -> LogLine {
        let shown = escape_controls(command);
        let mut line = self.plain(LogKind::Command, Tone::Command, r.echo(&shown));
        line.command = Some(command.to_string());
        line
    }

    /// A refused page action.
    pub fn refusal(&mut self, r: &dyn Renderer, why: &Refusal) -> LogLine {
        self.plain(LogKind::Error, Tone::Bad, r.refusal(why))
    }

    /// A narrated line of the run. `named`: a command's result names its
    /// command (it was not echoed: a lesson's own). `surprise`: whether a
    /// failed result is one the lesson did not expect.
    pub fn narrated(
        &mut self,
        r: &dyn Renderer,
        line: &Line,
        named: bool,
        // `dyn`: one copy of this function in the page's module rather than
        // one per caller's closure.
        surprise: &dyn Fn(&CommandResult) -> bool,
    ) -> LogLine {
        match &line.said {
            Said::Event(e) => {
                let text = format!("{} {}", r.time(line.time_ms), r.event(e));
                let fold = self.fold(r, line, &text);
                LogLine {
                    id: self.id(),
                    time_ms: Some(line.time_ms),
                    kind: LogKind::Event,
                    tone: line.tone(),
                    event: Some(EventSummary::of(e)),
                    command: None,
                    text,
                    fold,
                }
            }
            // The script's own words, in any renderer.
            Said::Say(text) => self.plain(LogKind::Say, Tone::Say, r.say(text).into_owned()),
            Said::Stopped(stop) => self.plain(
                LogKind::Error,
                Tone::Bad,
                format!("{} {}", r.time(line.time_ms), r.stopped(stop)),
            ),
            Said::Result(res) => {
                self.window.clear();
                let bad = res.error.is_some();
                let expected = named && bad && !surprise(res);
                let tone = if expected {
                    Tone::Expected
                } else if bad {
                    Tone::Bad
                } else if named && res.command.starts_with("expect") {
                    Tone::Check
                } else {
                    Tone::Good
                };
                LogLine {
                    id: self.id(),
                    time_ms: Some(line.time_ms),
                    kind: LogKind::Result,
                    tone,
                    event: None,
                    command: Some(res.command.clone()),
                    text: r.logged_result(line.time_ms, res, named, expected),
                    fold: None,
                }
            }
        }
    }

    /// Where `line` folds, if it does; remembers it as foldable if not.
    fn fold(&mut self, r: &dyn Renderer, line: &Line, text: &str) -> Option<Fold> {
        let Some(key) = line.fold_key() else {
            self.window.clear();
            return None;
        };
        let t = line.time_ms;
        // A vote answers its candidate's campaign: it joins that line.
        if let FoldKey::Vote {
            node,
            candidate,
            pre_vote,
            granted,
            reason,
        } = key
        {
            let vote = (node, granted, reason);
            if let Some(fold) = self.fold_vote(r, candidate, pre_vote, vote, t) {
                return Some(fold);
            }
        }
        if let Some(open) = self.window.iter_mut().find(|o| o.key == key) {
            open.count += 1;
            let summary = match open.campaign.as_mut() {
                Some(c) => {
                    c.campaigns += 1;
                    c.last_ms = t;
                    c.term = campaign_term(line).unwrap_or(c.term);
                    r.campaign_folded(c)
                }
                None => r.folded(open.first_ms, t, strip_time(r, line, text), open.count),
            };
            return Some(Fold {
                into: open.id,
                count: open.count,
                summary,
            });
        }
        self.open(key, line);
        None
    }

    /// A vote (`voter`, granted or refused for `reason`) joins the line of
    /// the campaign it answers, if that line is open.
    fn fold_vote(
        &mut self,
        r: &dyn Renderer,
        candidate: NodeId,
        pre_vote: bool,
        (voter, granted, reason): (NodeId, bool, &'static str),
        t: u64,
    ) -> Option<Fold> {
        let open = self.window.iter_mut().find(|o| {
            o.campaign
                .as_ref()
                .is_some_and(|c| c.node == candidate && c.pre_vote == pre_vote)
        })?;
        let c = open.campaign.as_mut()?;
        let by = if granted {
            &mut c.granted
        } else {
            match c.refused.iter().position(|(why, _)| *why == reason) {
                Some(i) => &mut c.refused[i].1,
                None => {
                    c.refused.push((reason, Vec::new()));
                    let last = c.refused.len() - 1;
                    &mut c.refused[last].1
                }
            }
        };
        if let Err(i) = by.binary_search(&voter) {
            by.insert(i, voter);
        }
        c.last_ms = c.last_ms.max(t);
        open.count += 1;
        Some(Fold {
            into: open.id,
            count: open.count,
            summary: r.campaign_folded(c),
        })
    }

    /// Remembers `line` as the first of its kind that later ones may fold
    /// into (the oldest forgotten when the window is full).
    fn open(&mut self, key: FoldKey, line: &Line) {
        let t = line.time_ms;
        if self.window.len() == WINDOW {
            self.window.remove(0);
        }
        let campaign = match key {
            FoldKey::PreCampaign { node } | FoldKey::Campaign { node } => Some(CampaignFold {
                node,
                pre_vote: matches!(key, FoldKey::PreCampaign { .. }),
                first_ms: t,
                last_ms: t,
                campaigns: 1,
                term: campaign_term(line).unwrap_or(0),
                granted: Vec::new(),
                refused: Vec::new(),
            }),
            _ => None,
        };
        self.window.push(Open {
            id: self.next_id + 1,
            key,
            first_ms: t,
            count: 1,
            campaign,
        });
    }

    /// What a command that worked returned, if anything, as a line.
    pub fn details(&mut self, r: &dyn Renderer, res: &CommandResult) -> Option<LogLine> {
        let text = r.result_details(res)?;
        let mut line = self.plain(LogKind::Details, Tone::Good, text);
        line.command = Some(res.command.clone());
        Some(line)
    }

    /// A lesson step's lines: its `say`s and what the cluster did, each
    /// command's result naming its command; a failed command the lesson
    /// expects (an `expect error=...` follows it) is not a surprise.
    pub fn step(&mut self, r: &dyn Renderer, step: &Step) -> Vec<LogLine> {
        let surprise = |res: &CommandResult| {
            step.surprises
                .iter()
                .any(|s| s.line == res.line && s.command == res.command)
        };
        self.step_lines(r, &step.lines, surprise)
    }

    /// Lines of a lesson step as it plays; `surprise` tells whether a failed
    /// result is one the lesson did not ask for.
    pub fn step_lines(
        &mut self,
        r: &dyn Renderer,
        lines: &[StepLine],
        surprise: impl Fn(&CommandResult) -> bool,
    ) -> Vec<LogLine> {
        lines
            .iter()
            .map(|l| match l {
                StepLine::Say(text) => {
                    self.plain(LogKind::Say, Tone::Say, r.say(text).into_owned())
                }
                StepLine::Trace(line) => self.narrated(r, line, true, &surprise),
            })
            .collect()
    }
}

/// The term a campaign line asks votes for.
fn campaign_term(line: &Line) -> Option<u64> {
    let Said::Event(e) = &line.said else {
        return None;
    };
    match &e.kind {
        EventKind::Raft {
            event: RaftEvent::BecamePreCandidate { term },
            ..
        } => Some(term + 1),
        EventKind::Raft {
            event: RaftEvent::BecameCandidate { term },
            ..
        } => Some(*term),
        _ => None,
    }
}

/// The sentence of an event line without its time prefix.
fn strip_time<'a>(r: &dyn Renderer, line: &Line, text: &'a str) -> &'a str {
    let prefix = r.time(line.time_ms);
    text.strip_prefix(&prefix)
        .map_or(text, |rest| rest.trim_start())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::raft::RaftEvent;
    use crate::session::refusal::Refusal;
    use crate::session::view;
    use crate::sim::{Event, EventKind};
    use crate::words::text_en::English;

    fn raft(t: u64, node: u64, event: RaftEvent) -> Line {
        Line::event(Event {
            time_ms: t,
            kind: EventKind::Raft { node, event },
        })
    }

    fn pre_campaign(t: u64) -> Line {
        raft(t, 1, RaftEvent::BecamePreCandidate { term: 2 })
    }

    fn lease(t: u64, node: u64) -> Line {
        raft(
            t,
            node,
            RaftEvent::VoteRejected {
                candidate: 1,
                term: 3,
                pre_vote: true,
                reason: "lease",
            },
        )
    }

    fn show(log: &mut Log, lines: &[Line]) -> Vec<LogLine> {
        lines
            .iter()
            .map(|l| log.narrated(&English, l, false, &|_| true))
            .collect()
    }

    #[test]
    fn a_nodes_campaigns_and_their_refusals_fold_into_one_line() {
        let mut log = Log::default();
        let lines = show(
            &mut log,
            &[
                pre_campaign(1000),
                lease(1010, 2),
                lease(1012, 3),
                pre_campaign(2000),
                lease(2010, 2),
                lease(2011, 3),
                pre_campaign(3000),
            ],
        );
        let standing: Vec<&LogLine> = lines.iter().filter(|l| l.fold.is_none()).collect();
        assert_eq!(standing.len(), 1, "{lines:#?}");
        assert!(lines[1..]
            .iter()
            .all(|l| l.fold.as_ref().map(|f| f.into) == Some(lines[0].id)));
        let last = lines.last().unwrap().fold.as_ref().unwrap();
        assert_eq!(last.count, 7, "the trace holds every line");
        assert_eq!(
            last.summary,
            "t=1.00–3.00s node 1 asked for pre-votes 3 times (latest for term 3); \
             refused: leader lease (by 2 and 3)"
        );
        // The first refusal already joins the campaign line.
        assert_eq!(
            lines[1].fold.as_ref().unwrap().summary,
            "t=1.00–1.01s node 1 asked for pre-votes once (latest for term 3); \
             refused: leader lease (by 2)"
        );
        // Each folded line keeps its own full sentence.
        assert_eq!(
            lines[6].text,
            "t=3.00s node 1 became pre-candidate and asks for pre-votes for term 3"
        );
        assert_eq!(
            lines[5].text,
            "t=2.01s node 3 rejected the pre-vote of 1 for term 3: lease"
        );
    }

    #[test]
    fn votes_granted_join_their_campaign_and_a_vote_with_no_campaign_open_stands() {
        let granted = |t, node| {
            raft(
                t,
                node,
                RaftEvent::VoteGranted {
                    candidate: 1,
                    term: 3,
                    pre_vote: true,
                },
            )
        };
        let mut log = Log::default();
        let lines = show(
            &mut log,
            &[
                lease(500, 3),
                pre_campaign(1000),
                granted(1010, 2),
                lease(1020, 3),
            ],
        );
        assert!(lines[0].fold.is_none() && lines[1].fold.is_none());
        let f = lines[3].fold.as_ref().unwrap();
        assert_eq!(f.into, lines[1].id);
        assert!(
            f.summary
                .ends_with("granted by 2; refused: leader lease (by 3)"),
            "{}",
            f.summary
        );
        let mut ja = Log::default();
        let jl: Vec<LogLine> = [pre_campaign(1000), lease(1010, 2), pre_campaign(2000)]
            .iter()
            .map(|l| ja.narrated(&crate::words::text_ja::Japanese, l, false, &|_| true))
            .collect();
        let summary = &jl[2].fold.as_ref().unwrap().summary;
        assert!(summary.contains("事前投票を2回求めました"), "{summary}");
        assert!(summary.contains("リース"), "{summary}");
    }

    /// English, every sentence reworded: the words change, nothing else may.
    pub(crate) struct Reworded;

    pub(crate) fn reword(s: String) -> String {
        // Words the page once coloured by: no longer anything but words.
        format!("became leader, failed and refused: {}", s.to_uppercase())
    }

    impl Renderer for Reworded {
        fn ring_caption(
            &self,
            leader: Option<(crate::raft::NodeId, u64)>,
            revision: u64,
        ) -> String {
            reword(English.ring_caption(leader, revision))
        }
        fn mirror_caption(&self, m: &crate::session::view::MirrorView) -> [String; 2] {
            English.mirror_caption(m).map(reword)
        }
        fn time(&self, ms: u64) -> String {
            format!("[{ms} ms]")
        }
        fn time_span(&self, a: u64, b: u64) -> String {
            format!("[{a}..{b} ms]")
        }
        fn event(&self, e: &Event) -> String {
            reword(English.event(e))
        }
        fn result_summary(&self, r: &CommandResult) -> String {
            reword(English.result_summary(r))
        }
        fn result_details(&self, r: &CommandResult) -> Option<String> {
            English.result_details(r).map(reword)
        }
        fn echo(&self, c: &str) -> String {
            reword(English.echo(c))
        }
        fn logged_result(&self, t: u64, r: &CommandResult, named: bool, expected: bool) -> String {
            reword(English.logged_result(t, r, named, expected))
        }
        fn unparsed(&self, c: &str, e: &crate::lang::parse::ParseError) -> String {
            reword(English.unparsed(c, e))
        }
        fn folded(&self, a: u64, b: u64, latest: &str, n: usize) -> String {
            reword(English.folded(a, b, latest, n))
        }
        fn campaign_folded(&self, c: &crate::session::narrate::CampaignFold) -> String {
            reword(English.campaign_folded(c))
        }
        fn branch_started(&self, f: u64, b: u32, l: u32) -> String {
            reword(English.branch_started(f, b, l))
        }
        fn branch_resumed(&self, b: u32, t: u64) -> String {
            reword(English.branch_resumed(b, t))
        }
        fn refusal(&self, why: &Refusal) -> String {
            reword(English.refusal(why))
        }
        fn more_failed(&self, more: usize) -> String {
            reword(English.more_failed(more))
        }
        fn nothing_happens(&self) -> String {
            reword(English.nothing_happens())
        }
        fn at_the_beginning(&self) -> String {
            reword(English.at_the_beginning())
        }
        fn seek_cancelled(&self, t: u64) -> String {
            reword(English.seek_cancelled(t))
        }
        fn surprises(&self, r: &[CommandResult]) -> String {
            reword(English.surprises(r))
        }
        fn etcdctl_refusal(&self, e: &crate::lang::etcdctl::EtcdctlError) -> String {
            reword(English.etcdctl_refusal(e))
        }
        fn etcdctl_recorded(&self, c: &str) -> String {
            reword(English.etcdctl_recorded(c))
        }
        fn share_refusal(&self, e: &crate::session::share::ShareError) -> String {
            reword(English.share_refusal(e))
        }
        fn no_lesson(&self, id: &str) -> String {
            reword(English.no_lesson(id))
        }
        fn quorum_verdict(&self, q: &view::QuorumView) -> String {
            reword(English.quorum_verdict(q))
        }
        fn quorum_sentence(&self, q: &view::QuorumView) -> String {
            reword(English.quorum_sentence(q))
        }
        fn node_head(&self, kind: Option<view::LearnerKind>, state: view::NodeState) -> String {
            reword(English.node_head(kind, state))
        }
        fn learner_word(&self, kind: view::LearnerKind) -> String {
            reword(English.learner_word(kind))
        }
        fn sees_itself(&self, learner: bool, short: bool) -> String {
            reword(English.sees_itself(learner, short))
        }
        fn auto_promote_at(&self, percent: u8) -> String {
            reword(English.auto_promote_at(percent))
        }
        fn failover_countdown(&self, f: &view::FailoverView) -> String {
            reword(English.failover_countdown(f))
        }
        fn message_counts(&self, received: u64, sent: u64, compact: bool) -> String {
            reword(English.message_counts(received, sent, compact))
        }
        fn history_lane(&self, key: &str, client: u64) -> String {
            reword(English.history_lane(key, client))
        }
        fn history_op(
            &self,
            kind: crate::sim::linearizability::OpName,
            value: Option<&str>,
        ) -> String {
            reword(English.history_op(kind, value))
        }
        fn history_tick(&self, ms: u64) -> String {
            reword(English.history_tick(ms))
        }
        fn history_verdict(&self, v: &view::HistoryVerdict) -> String {
            reword(English.history_verdict(v))
        }
        fn history_note(
            &self,
            from_ms: u64,
            to_ms: u64,
            shown: usize,
            total: usize,
            hidden: usize,
        ) -> String {
            reword(English.history_note(from_ms, to_ms, shown, total, hidden))
        }
        fn unreachable_url(&self, url: &str, short: bool) -> String {
            reword(English.unreachable_url(url, short))
        }
        fn progress(&self, p: &view::ProgressView, compact: bool) -> String {
            reword(English.progress(p, compact))
        }
        fn send_queue(&self, bytes: u64) -> String {
            reword(English.send_queue(bytes))
        }
        fn log_title(&self) -> String {
            reword(English.log_title())
        }
        fn log_row(&self, id: u64, learner: bool, short: bool) -> String {
            reword(English.log_row(id, learner, short))
        }
        fn no_log(&self) -> String {
            reword(English.no_log())
        }
        fn log_mark(&self, mark: view::LogMark) -> String {
            reword(English.log_mark(mark))
        }
        fn safety_headline(&self, v: &[view::ViolationView]) -> String {
            reword(English.safety_headline(v))
        }
        fn violation(&self, v: &view::ViolationView) -> String {
            reword(English.violation(v))
        }
        fn safety_list_head(&self, count: usize) -> String {
            reword(English.safety_list_head(count))
        }
        fn safety_tip(&self, ok: bool) -> String {
            reword(English.safety_tip(ok))
        }
    }

    /// A lesson's whole log, step by step, in one wording.
    fn lesson_log(r: &dyn Renderer, id: &str) -> Vec<LogLine> {
        let mut player = crate::lessons::LessonPlayer::open(id).unwrap();
        let mut log = Log::default();
        let mut all = Vec::new();
        while !player.finished() {
            all.extend(log.step(r, &player.next()));
        }
        all
    }

    #[test]
    fn another_wording_keeps_every_colour_and_every_fold() {
        // The 2-2 split: both halves campaign in vain, again and again.
        let id = "05-four-voters-split-2-2";
        let english = lesson_log(&English, id);
        let reworded = lesson_log(&Reworded, id);
        assert_eq!(english.len(), reworded.len());
        let shape = |l: &LogLine| {
            (
                l.id,
                l.kind,
                l.tone,
                l.time_ms,
                l.event.clone(),
                l.fold.as_ref().map(|f| (f.into, f.count)),
            )
        };
        for (a, b) in english.iter().zip(&reworded) {
            assert_eq!(shape(a), shape(b), "{} / {}", a.text, b.text);
            // A lesson's own words are the lesson's, in any renderer.
            assert!(a.kind == LogKind::Say || a.text != b.text, "{}", a.text);
        }
        let folds = english.iter().filter(|l| l.fold.is_some()).count();
        assert!(folds >= 10, "the split's campaigns fold: {folds}");
        let tones: std::collections::BTreeSet<&str> = english
            .iter()
            .map(|l| match l.tone {
                Tone::Good => "good",
                Tone::Bad => "bad",
                Tone::Say => "say",
                Tone::Check => "check",
                Tone::Plain => "plain",
                _ => "other",
            })
            .collect();
        assert!(tones.len() >= 5, "{tones:?}");
    }

    #[test]
    fn a_line_that_changes_the_cluster_ends_the_fold() {
        let mut log = Log::default();
        let leader = raft(
            1500,
            2,
            RaftEvent::BecameLeader {
                term: 3,
                votes: vec![2, 3],
            },
        );
        let lines = show(&mut log, &[pre_campaign(1000), leader, pre_campaign(2000)]);
        assert!(lines.iter().all(|l| l.fold.is_none()), "{lines:#?}");
        assert_eq!(lines[1].tone, Tone::Good);
        // So does a line of the page's own, and a reset (the page cleared
        // its log).
        let mut log = Log::default();
        let first = show(&mut log, &[pre_campaign(1000), pre_campaign(1500)]);
        assert_eq!(first[1].fold.as_ref().map(|f| f.count), Some(2));
        let _ = log.echo(&English, "crash 2");
        let again = show(&mut log, &[pre_campaign(2000)]);
        assert!(again[0].fold.is_none());
        log.reset();
        let after = show(&mut log, &[pre_campaign(3000)]);
        assert!(after[0].fold.is_none());
    }
}
