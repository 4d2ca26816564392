//! The page's handle on a running scenario: every user action arrives here as
//! one command of the scenario language (so the history replays it), and
//! simulated time moves only through here. Nothing the user types can throw:
//! every outcome, parse errors included, is a result object, and everything
//! the page tells the reader comes out of [`Engine::take_narration`] as
//! [`LogLine`]s, in words made by the engine's [`Renderer`].
//!
//! Two modes:
//! - the **sandbox**: a [`Timeline`], so the page can travel in time, act
//!   in the past (which starts a branch) and share the run as a link;
//! - a **lesson**: a [`LessonPlayer`] walking one lesson pause by pause.
//!   The sandbox is kept aside meanwhile; leaving the lesson returns to it
//!   as it was.

use serde::Serialize;
use std::sync::Arc;

use crate::lang::etcdctl::{self, Translation};
use crate::lang::parse::{parse_command, parse_script};
use crate::lessons::view::LessonView;
use crate::lessons::{LessonPlayer, Step};
use crate::server::{Cluster, Fleet};
use crate::session::exec::Session;
use crate::session::narrate::{Line, Said, Tone};
use crate::session::refusal::Refusal;
use crate::session::report::CommandResult;
use crate::session::share::{self, ShareError};
use crate::session::stop::{Progress, STOPPED};
use crate::session::timeline::Timeline;
use crate::session::view::{LoadView, PageStatus, QuorumView, TimelineView};
use crate::sim::linearizability::Linearizability;
use crate::words::language::Language;
use crate::words::renderer::Renderer;
use crate::words::text_en::English;

use super::history::HistoryScene;
use super::log::{Log, LogKind, LogLine};
use super::plan::Plan;
use super::player::Pacer;
use super::presets::{self, Preset};

/// How far "step" looks for the next event before giving up.
const STEP_LIMIT_MS: u64 = 60_000;

pub struct Engine {
    sandbox: Timeline,
    lesson: Option<Box<LessonPlayer>>,
    /// The words of everything the page shows, in `language`.
    renderer: &'static dyn Renderer,
    language: Language,
    log: Log,
    /// Lines made and not yet taken by the page.
    out: Vec<LogLine>,
    /// The pace of the lesson step playing.
    pacer: Pacer,
    /// A run being opened (a link, a file, a script) in slices: its
    /// narration is old news, and it ends at its moment.
    opening: Option<Opening>,
    /// A console command running in slices, and its reply once it ended.
    pending: Option<Pending>,
    reply: Option<Reply>,
    /// The memory budget stopped the clock (said once).
    over_budget: bool,
}

/// A run being opened.
#[derive(Debug, Clone)]
struct Opening {
    /// The moment to show once it ran (`# at:`), else its end.
    at: Option<u64>,
    /// What it runs.
    plan: Plan,
    /// How many of its commands failed so far.
    failed: usize,
}

/// An opened run's failed commands the log shows; a line counts the rest.
const FAILED_SHOWN: usize = 8;

/// A console command running in slices: what its reply needs.
struct Pending {
    text: String,
    branch: u32,
    etcdctl: Option<(Translation, Option<crate::raft::NodeId>)>,
}

impl Engine {
    /// Parses and runs a whole script; the engine holds its end state.
    pub fn from_script(src: &str) -> Result<Engine, String> {
        let mut e = Engine::queued_script(src)?;
        e.finish();
        Ok(e)
    }

    /// Parses a script and queues it: it runs with [`Engine::run_slice`].
    pub fn queued_script(src: &str) -> Result<Engine, String> {
        let script = parse_script(src).map_err(|e| e.to_string())?;
        Ok(Engine::opening(&script, None))
    }

    /// A sandbox with a script queued, to stand at `at` once it ran.
    fn opening(script: &crate::lang::ast::Script, at: Option<u64>) -> Engine {
        let mut e = Engine::sandbox(Timeline::queued(script));
        e.opening = Some(Opening {
            at,
            plan: Plan::of(script),
            failed: 0,
        });
        e
    }

    /// What the run being opened runs (`None` once it ran).
    pub fn planned(&self) -> Option<&Plan> {
        self.opening.as_ref().map(|o| &o.plan)
    }

    /// Runs whatever is queued to its end, in one go.
    pub fn finish(&mut self) {
        while self.is_running() {
            self.run_slice(u64::MAX);
        }
    }

    /// A sandbox over an opened run (a link or a file).
    pub fn sandbox(mut timeline: Timeline) -> Engine {
        // Opening replays the run: its narration is old news.
        timeline.take_narration();
        Engine {
            sandbox: timeline,
            lesson: None,
            renderer: &English,
            language: Language::English,
            log: Log::default(),
            out: Vec::new(),
            pacer: Pacer::default(),
            opening: None,
            pending: None,
            reply: None,
            over_budget: false,
        }
    }

    /// Opens a share link (`#v1.…`, or a whole URL ending in one), run
    /// in one go.
    pub fn from_link(link: &str) -> Result<Engine, ShareError> {
        let mut e = Engine::queued_link(link)?;
        e.finish();
        Ok(e)
    }

    /// Why a link or a file did not open, in the page's language.
    pub fn share_refusal(&self, e: &ShareError) -> String {
        self.renderer.share_refusal(e)
    }

    /// Opens a `.scenario` file, run in one go.
    pub fn from_file(text: &str) -> Result<Engine, ShareError> {
        let mut e = Engine::queued_file(text)?;
        e.finish();
        Ok(e)
    }

    /// Opens a share link with its run queued, none of it run yet.
    pub fn queued_link(link: &str) -> Result<Engine, ShareError> {
        let text = share::link_text(link)?;
        let (script, at) = share::read_run(&text, share::Source::Link)?;
        Ok(Engine::opening(&script, at))
    }

    /// Opens a `.scenario` file with its run queued.
    pub fn queued_file(text: &str) -> Result<Engine, ShareError> {
        let (script, at) = share::read_run(text, share::Source::File)?;
        Ok(Engine::opening(&script, at))
    }

    // ---- runs in slices -------------------------------------------------------------

    /// A run goes on in slices (an opened run, a long console command).
    pub fn is_running(&self) -> bool {
        match &self.lesson {
            Some(l) => l.is_running(),
            None => self.sandbox.is_running(),
        }
    }

    /// Runs the sandbox's queued commands for at most `work` units of work
    /// (see `Timeline::run_slice`); when they end, an opened run goes to
    /// its moment and a console command's reply is ready
    /// ([`Engine::take_reply`]).
    pub fn run_slice(&mut self, work: u64) -> Progress {
        let p = match &mut self.lesson {
            Some(l) => l.run_slice(work),
            None => self.sandbox.run_slice(work),
        };
        if !p.running {
            self.run_ended();
        }
        p
    }

    pub fn progress(&self) -> Progress {
        match &self.lesson {
            Some(l) => l.progress(),
            None => self.sandbox.progress(),
        }
    }

    /// Cancels the run going on: it ends with the last command that
    /// finished, as if its script had ended there; the log says so.
    /// False if nothing was running.
    pub fn cancel(&mut self) -> bool {
        if !self.is_running() {
            return false;
        }
        if self.lesson.is_none() && self.sandbox.is_seeking() && !self.sandbox.is_running_commands()
        {
            self.sandbox.cancel();
            let said = self.renderer.seek_cancelled(self.sandbox.now());
            let line = self.log.plain(LogKind::Notice, Tone::Plain, said);
            self.out.push(line);
            return true;
        }
        match &mut self.lesson {
            Some(l) => {
                l.cancel();
            }
            None => {
                self.sandbox.cancel();
            }
        }
        self.run_ended();
        true
    }

    /// The reply of a console command that ran in slices, once it ended.
    pub fn take_reply(&mut self) -> Option<Reply> {
        self.reply.take()
    }

    /// Sets the sandbox's memory budget in bytes (`None`: no limit).
    pub fn set_memory_budget(&mut self, budget: Option<u64>) {
        self.sandbox.set_memory_budget(budget);
        self.over_budget = false;
    }

    /// `(counted bytes, budget)` of the sandbox's run (a walk of it: for
    /// the console, not for a frame).
    pub fn memory(&self) -> (u64, Option<u64>) {
        (self.sandbox.memory_bytes(), self.sandbox.memory_budget())
    }

    /// What a script would run (cluster, time, load, an estimate), without
    /// running it; a script that does not parse is an error.
    pub fn plan(src: &str) -> Result<Plan, String> {
        parse_script(src)
            .map(|s| Plan::of(&s))
            .map_err(|e| e.to_string())
    }

    /// What an opened run (a link or a file) would run.
    pub fn plan_run(text: &str, link: bool) -> Result<Plan, ShareError> {
        let (script, _) = if link {
            share::read_run(&share::link_text(text)?, share::Source::Link)?
        } else {
            share::read_run(text, share::Source::File)?
        };
        Ok(Plan::of(&script))
    }

    /// The queue ran out or was stopped.
    fn run_ended(&mut self) {
        if self.opening.is_some() {
            // Its narration is old news; a stop and a failed command are not.
            let said = self.sandbox.take_narration();
            self.show_news(&said);
        }
        if let Some(o) = self.opening.take() {
            if o.failed > FAILED_SHOWN {
                let text = self.renderer.more_failed(o.failed - FAILED_SHOWN);
                let line = self.log.plain(LogKind::Error, Tone::Bad, text);
                self.out.push(line);
            }
            if let (Some(at), None) = (o.at, self.sandbox.stopped()) {
                self.sandbox.seek(at);
            }
            self.sandbox.take_narration();
        }
        if let Some(p) = self.pending.take() {
            let reply = self.finish_command(p);
            self.reply = Some(reply);
        }
    }

    /// Logs what an opened run's narration holds that is news to its
    /// reader: a stop, and a command that failed (a file's or an address's
    /// script may hold one that etcd refuses): the first few of them.
    fn show_news(&mut self, lines: &[Line]) {
        for l in lines {
            let news = match &l.said {
                Said::Stopped(_) => true,
                Said::Result(r) if r.error.is_some() => match self.opening.as_mut() {
                    Some(o) => {
                        o.failed += 1;
                        o.failed <= FAILED_SHOWN
                    }
                    None => false,
                },
                _ => false,
            };
            if news {
                let line = self.log.narrated(self.renderer, l, true, &|_| true);
                self.out.push(line);
            }
        }
    }

    /// Says a refusal in the log: nothing but Cancel while a run goes on.
    fn busy(&mut self) {
        let line = self.log.refusal(self.renderer, &Refusal::RunInProgress);
        self.out.push(line);
    }

    pub fn cluster(&self) -> &Cluster {
        self.fleet().main()
    }

    /// Every cluster of the run and the mirror processes.
    pub fn fleet(&self) -> &Fleet {
        self.session().fleet()
    }

    /// The run on screen: the lesson's, or the sandbox's.
    fn session(&self) -> &Session {
        match &self.lesson {
            Some(p) => p.session(),
            None => self.sandbox.session(),
        }
    }

    pub fn now(&self) -> u64 {
        self.cluster().now()
    }

    pub fn renderer(&self) -> &dyn Renderer {
        self.renderer
    }

    /// Speaks `lang` from now on: lines made from now, the panels and the
    /// canvas. The run is untouched; lines already made keep their words.
    pub fn set_language(&mut self, lang: Language) {
        self.pull();
        self.renderer = lang.renderer();
        self.language = lang;
    }

    pub fn language(&self) -> Language {
        self.language
    }

    /// One console command; its result object. The log gets the command as
    /// typed, what happened, and the result. A line that does not parse
    /// changes nothing and comes back as `ok: false, error: "parse"`. In the
    /// sandbox's past it starts a branch; in a lesson it is a detour.
    pub fn command(&mut self, line: &str) -> Reply {
        let reply = self.command_in(line, u64::MAX);
        match reply {
            Reply::Running(_) => {
                self.finish();
                self.take_reply().unwrap_or(reply)
            }
            r => r,
        }
    }

    /// [`Engine::command`] run in slices in the sandbox: the first slice of
    /// `work` now; if the command is not over, it comes back as
    /// `Reply::Running` and goes on with [`Engine::run_slice`], its reply
    /// then from [`Engine::take_reply`]. While a run goes on, a command is
    /// refused (the log says so) and changes nothing.
    pub fn command_in(&mut self, line: &str, work: u64) -> Reply {
        let text = line.trim();
        self.settle_lesson();
        if self.is_running() {
            let echo = self.log.echo(self.renderer, text);
            self.out.push(echo);
            self.busy();
            return Reply::Unparsed(Unparsed {
                line: None,
                command: text.to_string(),
                ok: false,
                error: "running",
                detail: self.renderer.refusal(&Refusal::RunInProgress),
            });
        }
        if etcdctl::is_etcdctl(text) {
            return self.etcdctl(text, work);
        }
        let echo = self.log.echo(self.renderer, text);
        self.out.push(echo);
        let branch = self.sandbox.branch_id();
        if let Some(p) = &mut self.lesson {
            // In slices too: a long command in a lesson keeps the page
            // drawing, with the progress bar and its Cancel.
            return match p.queue_command(text) {
                Ok(()) => self.start(
                    Pending {
                        text: text.to_string(),
                        branch,
                        etcdctl: None,
                    },
                    work,
                ),
                Err(e) => self.unparsed(text, e),
            };
        }
        match parse_command(text) {
            Ok(cmd) => {
                self.sandbox.queue(Arc::new(cmd));
                self.start(
                    Pending {
                        text: text.to_string(),
                        branch,
                        etcdctl: None,
                    },
                    work,
                )
            }
            Err(e) => self.unparsed(text, e),
        }
    }

    /// A console line that does not parse: the log says why.
    fn unparsed(&mut self, text: &str, e: crate::lang::parse::ParseError) -> Reply {
        let detail = e.to_string();
        let said = self
            .renderer
            .unparsed(&crate::lang::ast::escape_controls(text), &e);
        let line = self.log.plain(LogKind::Error, Tone::Bad, said);
        self.out.push(line);
        Reply::Unparsed(Unparsed {
            line: None,
            command: text.to_string(),
            ok: false,
            error: "parse",
            detail,
        })
    }

    /// Runs the first slice of a command just queued; its reply if it is
    /// over, else `Reply::Running`.
    fn start(&mut self, p: Pending, work: u64) -> Reply {
        let command = p.text.clone();
        self.pending = Some(p);
        self.reply = None;
        self.run_slice(work);
        match self.reply.take() {
            Some(r) => r,
            None => Reply::Running(RunningReply {
                command,
                ok: true,
                running: true,
            }),
        }
    }

    /// The reply of a console command whose run ended (or was stopped).
    fn finish_command(&mut self, p: Pending) -> Reply {
        self.pull();
        let last = match &self.lesson {
            Some(l) => l.last_command(),
            None => match self.sandbox.stopped() {
                Some(stop) => Err(stop),
                None => Ok(self.sandbox.last_result()),
            },
        };
        let result = match last {
            Ok(Some(r)) => r.clone(),
            Ok(None) | Err(_) => {
                let stop = last.err();
                let mut r = CommandResult::new(0, p.text.clone());
                r.ok = false;
                r.error = Some(STOPPED);
                r.detail = stop.map(|s| self.renderer.stopped(s));
                r
            }
        };
        let reply = match p.etcdctl {
            None => {
                if let Some(details) = self.log.details(self.renderer, &result) {
                    self.out.push(details);
                }
                Reply::Ran(Box::new(result))
            }
            Some((t, leader_before)) => {
                if result.error == Some(STOPPED) {
                    Reply::Ran(Box::new(result))
                } else {
                    let canonical = t.command.to_string();
                    let said = self.renderer.etcdctl_recorded(&canonical);
                    let line = self.log.plain(LogKind::Notice, Tone::Plain, said);
                    self.out.push(line);
                    let printed =
                        crate::words::etcdctl::output(&t, &result, leader_before, self.session());
                    // A table is one block (its border starts it); the lines
                    // etcdctl writes before it (endpoints that did not
                    // answer) stand alone.
                    let at = match t.table {
                        true => printed.iter().position(|l| l.starts_with('+')),
                        false => None,
                    };
                    let (lines, table) = printed.split_at(at.unwrap_or(printed.len()));
                    for p in lines {
                        let line = self.log.plain(LogKind::Details, Tone::Plain, p.clone());
                        self.out.push(line);
                    }
                    if !table.is_empty() {
                        let block = self
                            .log
                            .plain(LogKind::Details, Tone::Table, table.join("\n"));
                        self.out.push(block);
                    }
                    Reply::Etcdctl(Box::new(EtcdctlReply {
                        result,
                        etcdctl: printed,
                    }))
                }
            }
        };
        if self.sandbox.branch_id() != p.branch {
            self.branch_started(p.branch);
        }
        reply
    }

    /// An etcdctl line: translated to its scenario command, which runs and
    /// is recorded; the log shows what it was recorded as and what etcdctl
    /// prints. A line raftlab cannot take changes nothing and says why.
    fn etcdctl(&mut self, text: &str, work: u64) -> Reply {
        let echo = self.log.echo(self.renderer, text);
        self.out.push(echo);
        let t = match etcdctl::translate(text, self.session().spec().etcd) {
            Ok(t) => t,
            Err(e) => {
                let said = self.renderer.etcdctl_refusal(&e);
                let line = self.log.plain(LogKind::Error, Tone::Bad, said.clone());
                self.out.push(line);
                return Reply::Unparsed(Unparsed {
                    line: None,
                    command: text.to_string(),
                    ok: false,
                    error: "etcdctl",
                    detail: said,
                });
            }
        };
        let canonical = t.command.to_string();
        let leader_before = self.cluster().leader();
        let branch = self.sandbox.branch_id();
        if let Some(p) = &mut self.lesson {
            if let Err(e) = p.queue_command(&canonical) {
                // A translation is always a command the parser reads back.
                return self.unparsed(text, e);
            }
        } else {
            self.sandbox.queue(Arc::clone(&t.command));
        }
        self.start(
            Pending {
                text: canonical,
                branch,
                etcdctl: Some((t, leader_before)),
            },
            work,
        )
    }

    /// Says that acting in the past started a branch.
    fn branch_started(&mut self, left: u32) {
        let now = self.sandbox.branch_id();
        let fork = self
            .sandbox
            .branches()
            .into_iter()
            .find(|b| b.current)
            .map_or(0, |b| b.fork_ms);
        let said = self.renderer.branch_started(fork, now, left);
        let line = self.log.plain(LogKind::Notice, Tone::Branch, said);
        self.out.push(line);
    }

    /// The command a page button stands for, or `None` (the log says why)
    /// when it cannot apply now.
    pub fn preset(&mut self, p: Preset) -> Option<String> {
        match presets::command(p, self.cluster()) {
            Ok(command) => Some(command),
            Err(why) => {
                let line = self.log.refusal(self.renderer, &why);
                self.out.push(line);
                None
            }
        }
    }

    /// Lets `ms` of simulated time pass (the page's clock). While a run
    /// goes on in slices it owns the clock: nothing happens. Once the
    /// sandbox is over its memory budget the clock stops (the log says so
    /// once).
    pub fn advance(&mut self, ms: u64) {
        self.settle_lesson();
        match &mut self.lesson {
            Some(p) => p.advance(ms),
            None => {
                if self.sandbox.is_running() || self.over_budget {
                    return;
                }
                self.sandbox.advance(ms);
                if let Some(counted) = self.sandbox.take_over_budget() {
                    self.over_budget = true;
                    let budget = self.sandbox.memory_budget().unwrap_or(0);
                    let line = self
                        .log
                        .refusal(self.renderer, &Refusal::ClockOverBudget { budget, counted });
                    self.out.push(line);
                }
            }
        }
    }

    /// Runs to the next narrated event; false (and the log says so) if
    /// nothing happens within a minute of simulated time.
    pub fn step_event(&mut self) -> bool {
        self.settle_lesson();
        if self.is_running() {
            self.busy();
            return false;
        }
        let stepped = match &mut self.lesson {
            Some(p) => p.step_event(STEP_LIMIT_MS),
            None => self.sandbox.step_event(STEP_LIMIT_MS),
        };
        if !stepped {
            self.pull();
            let said = self.renderer.nothing_happens();
            let line = self.log.plain(LogKind::Notice, Tone::Plain, said);
            self.out.push(line);
        }
        stepped
    }

    /// Moves the run's narration into the log.
    fn pull(&mut self) {
        let lines: Vec<Line> = match &mut self.lesson {
            Some(p) => p.session_mut().take_narration(),
            None => self.sandbox.take_narration(),
        };
        if self.opening.is_some() && self.lesson.is_none() {
            // An opened run's narration is old news, but for its stops
            // and failures.
            self.show_news(&lines);
            return;
        }
        for l in &lines {
            let line = self.log.narrated(self.renderer, l, false, &|_| true);
            self.out.push(line);
        }
    }

    /// Everything the log should show since the last call, in order.
    pub fn take_narration(&mut self) -> Vec<LogLine> {
        self.pull();
        std::mem::take(&mut self.out)
    }

    /// Drops all but the last `keep` of the lines not yet taken (each still
    /// folded as it came, so later lines fold as before); how many went.
    /// The page shows a long run's newest lines only.
    pub fn skip_narration(&mut self, keep: usize) -> usize {
        self.pull();
        let skipped = self.out.len().saturating_sub(keep);
        self.out.drain(..skipped);
        skipped
    }

    /// Forgets lines not yet taken and starts folding afresh: the page
    /// cleared its log.
    pub fn clear_log(&mut self) {
        self.pull();
        self.out.clear();
        self.log.reset();
    }

    /// The script of the run: replaying it gives the state at its end.
    pub fn history(&self) -> Vec<String> {
        match &self.lesson {
            Some(p) => p.session().history(),
            None => self.sandbox.history(),
        }
    }

    /// The runner's status of the run now, and the load running.
    pub fn status(&self) -> PageStatus {
        PageStatus {
            status: self.session().status(),
            load: LoadView::of(self.cluster()),
        }
    }

    /// Whether the run's client operations so far are linearizable: the
    /// report's `linearizability`, computed only when asked (the console's
    /// `status()`), never for a frame.
    pub fn linearizability(&self) -> Linearizability {
        self.cluster().linearizability()
    }

    /// The history view: the run's client operations and the checker's
    /// verdict, decided when the view asks (it is drawn only while open).
    pub fn history_scene(&self) -> HistoryScene {
        let h = self.cluster().history();
        HistoryScene::of(&h.operations(), &h.verdict(), self.now())
    }

    /// The quorum panel.
    pub fn quorum(&self) -> QuorumPanel {
        let quorum = QuorumView::of(self.cluster());
        QuorumPanel {
            summary: self.renderer.quorum_verdict(&quorum),
            quorum,
        }
    }

    // ---- time travel (the sandbox) ----------------------------------------------------

    pub fn in_lesson(&self) -> bool {
        self.lesson.is_some()
    }

    /// The sandbox's timeline may move: not in a lesson (it has none), and
    /// not while commands run (the log says so). A seek going on in slices
    /// gives way.
    fn may_travel(&mut self) -> bool {
        if self.in_lesson() {
            return false;
        }
        if self.sandbox.is_running_commands() {
            self.busy();
            return false;
        }
        true
    }

    /// Goes to moment `t` of the sandbox; where it landed (a seek going on
    /// in slices gives way to it). A lesson has no timeline: `None`.
    pub fn seek(&mut self, t: u64) -> Option<u64> {
        if !self.may_travel() {
            return None;
        }
        self.over_budget = false;
        Some(self.sandbox.seek(t))
    }

    /// Starts going to moment `t` of the sandbox in slices (see
    /// `Timeline::begin_seek`): [`Engine::run_slice`] goes on with it, the
    /// moment shown stays until it lands, and Cancel drops it. Where it
    /// will land; `None` in a lesson, or while commands run (the log says
    /// so). A new target while a seek goes on replaces it.
    pub fn begin_seek(&mut self, t: u64) -> Option<u64> {
        if !self.may_travel() {
            return None;
        }
        self.over_budget = false;
        Some(self.sandbox.begin_seek(t))
    }

    /// Back to the previous narrated moment; `None` (the log says so) at
    /// the very beginning, and in a lesson.
    pub fn step_back(&mut self) -> Option<u64> {
        if !self.may_travel() {
            return None;
        }
        self.over_budget = false;
        let at = self.sandbox.step_back();
        if at.is_none() {
            let said = self.renderer.at_the_beginning();
            let line = self.log.plain(LogKind::Notice, Tone::Plain, said);
            self.out.push(line);
        }
        at
    }

    pub fn go_live(&mut self) -> Option<u64> {
        if !self.may_travel() {
            return None;
        }
        Some(self.sandbox.go_live())
    }

    /// Makes branch `id` current where it was left; the log says where, or
    /// why not.
    pub fn switch_branch(&mut self, id: u32) -> Result<u64, String> {
        let switched = if self.in_lesson() {
            Err(Refusal::LessonHasNoBranches)
        } else if self.sandbox.is_running_commands() {
            Err(Refusal::RunInProgress)
        } else {
            // The timeline's only refusal: no such branch.
            self.sandbox.switch_branch(id)
        };
        let line = match &switched {
            Ok(at) => {
                let said = self.renderer.branch_resumed(id, *at);
                self.log.plain(LogKind::Notice, Tone::Branch, said)
            }
            Err(why) => self.log.refusal(self.renderer, why),
        };
        self.pull();
        self.out.push(line);
        // The caller gets the refusal in the page's language.
        switched.map_err(|why| self.renderer.refusal(&why))
    }

    /// The scrubber's view, or `None` in a lesson.
    pub fn timeline(&self) -> Option<TimelineView> {
        (!self.in_lesson()).then(|| TimelineView::of(&self.sandbox))
    }

    // ---- sharing ------------------------------------------------------------------------

    /// The run as a timeline: the sandbox itself, or a lesson's run replayed
    /// into one (a lesson is shared as a sandbox run at the same moment).
    fn shared(&self) -> std::borrow::Cow<'_, Timeline> {
        match &self.lesson {
            None => std::borrow::Cow::Borrowed(&self.sandbox),
            Some(p) => {
                let mut script = p.session().history().join("\n");
                script.push('\n');
                let t = Timeline::from_script(&script)
                    .unwrap_or_else(|_| Timeline::new(&p.lesson().script.cluster));
                std::borrow::Cow::Owned(t)
            }
        }
    }

    /// The link fragment `#v1.…` of the run at the current moment.
    pub fn share_link(&self) -> String {
        share::encode_link(&self.shared())
    }

    /// The run as a `.scenario` file at the current moment.
    pub fn export_scenario(&self) -> String {
        share::export_scenario(&self.shared())
    }

    // ---- lessons ------------------------------------------------------------------------

    /// Opens the lesson with this id; the sandbox waits aside. An unknown
    /// id changes nothing.
    pub fn open_lesson(&mut self, id: &str) -> Result<(), String> {
        let player = LessonPlayer::open(id).ok_or_else(|| self.renderer.no_lesson(id))?;
        // A run going on in the sandbox ends where it is.
        self.cancel();
        self.lesson = Some(Box::new(player));
        self.out.clear();
        self.log.reset();
        Ok(())
    }

    /// Back to the sandbox as it was before the lesson.
    pub fn leave_lesson(&mut self) -> bool {
        self.cancel_lesson_command();
        let was = self.lesson.take().is_some();
        self.sandbox.take_narration();
        self.out.clear();
        self.log.reset();
        was
    }

    /// The lesson's next, back, restart, rejoin or goto; `None` outside a
    /// lesson. A move that rebuilds the run starts the log afresh. While a
    /// step plays, Next runs the rest of it at once (its lines not shown
    /// yet come with it), and the other moves drop it and rebuild.
    pub fn lesson_step(&mut self, what: LessonMove) -> Option<PageStep> {
        self.cancel_lesson_command();
        let p = self.lesson.as_mut()?;
        self.pacer = Pacer::default();
        let step = match what {
            LessonMove::Next => p.next(),
            LessonMove::Back => p.back(),
            LessonMove::Restart => p.restart(),
            LessonMove::Rejoin => p.rejoin(),
            LessonMove::Goto(k) => p.goto(k),
        };
        if what != LessonMove::Next {
            self.out.clear();
            self.log.reset();
        }
        Some(self.page_step(step))
    }

    fn page_step(&mut self, step: Step) -> PageStep {
        PageStep {
            lines: self.log.step(self.renderer, &step),
            surprise: (!step.surprises.is_empty())
                .then(|| self.renderer.surprises(&step.surprises)),
            position: step.position,
            steps: step.steps,
            finished: step.finished,
            says: step
                .says
                .iter()
                .map(|s| self.renderer.say(s).into_owned())
                .collect(),
            results: step.results,
            surprises: step.surprises,
        }
    }

    /// Begins playing the lesson's next step (the page's Next): nothing
    /// runs until [`Engine::lesson_frame`]. `Some(false)` at the lesson's
    /// end, `Some(true)` while a step plays, `None` outside a lesson.
    pub fn lesson_play(&mut self) -> Option<bool> {
        self.cancel_lesson_command();
        let p = self.lesson.as_mut()?;
        if !p.playing() {
            self.pacer = Pacer::default();
        }
        Some(p.begin_step())
    }

    /// Whether a lesson step is playing.
    pub fn lesson_playing(&self) -> bool {
        self.lesson.as_ref().is_some_and(|p| p.playing())
    }

    /// One animation frame of the playing step: `real_ms` of wall time at
    /// the page's `speed` (see `player`). What happened goes to the log as
    /// it happens ([`Engine::take_narration`]); the step, once its pause is
    /// reached, comes back (its lines: those not told yet). `None` while it
    /// goes on, and when nothing plays.
    pub fn lesson_frame(&mut self, real_ms: f64, speed: f64) -> Option<PageStep> {
        let p = self.lesson.as_mut()?;
        if !p.playing() {
            return None;
        }
        let done = self.pacer.frame(p, real_ms, speed);
        self.tell_played();
        if !done {
            return None;
        }
        let step = self.lesson.as_mut()?.end_step();
        Some(self.page_step(step))
    }

    /// The playing step's lines told so far, to the log.
    fn tell_played(&mut self) {
        let Some(p) = self.lesson.as_mut() else {
            return;
        };
        let lines = p.take_lines();
        let p = &**p;
        let made = self
            .log
            .step_lines(self.renderer, &lines, |r| p.surprising(r));
        self.out.extend(made);
    }

    /// A console command running in the lesson is cancelled (the log says
    /// so) before the lesson moves: the reader's move wins, and nothing
    /// waits for a long command to end.
    fn cancel_lesson_command(&mut self) {
        if self.lesson.as_ref().is_some_and(|l| l.is_running()) {
            self.cancel();
        }
    }

    /// Ends a playing step at once, its lines to the log, before anything
    /// else acts on the lesson's cluster.
    fn settle_lesson(&mut self) {
        if !self.lesson_playing() {
            return;
        }
        self.tell_played();
        self.pacer = Pacer::default();
        if let Some(step) = self.lesson.as_mut().map(|p| p.end_step()) {
            let step = self.page_step(step);
            self.out.extend(step.lines);
        }
    }

    /// The lesson panel, or `None` in the sandbox.
    pub fn lesson(&self) -> Option<LessonPanel> {
        let lesson = LessonView::of_in(self.lesson.as_deref()?, self.language);
        Some(LessonPanel {
            sentence: self.renderer.quorum_sentence(&lesson.quorum),
            lesson,
        })
    }
}

/// A move through a lesson.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LessonMove {
    Next,
    Back,
    Restart,
    Rejoin,
    Goto(usize),
}

/// What a console command comes back as.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Reply {
    /// It ran: its result, as the runner's report has it.
    Ran(Box<CommandResult>),
    /// It did not parse; nothing changed.
    Unparsed(Unparsed),
    /// An etcdctl line that ran: its scenario command's result, and what
    /// etcdctl prints.
    Etcdctl(Box<EtcdctlReply>),
    /// It runs in slices: its reply comes when it ends.
    Running(RunningReply),
}

/// A console command still running in slices.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunningReply {
    pub command: String,
    /// It was accepted (the result comes when it ends).
    pub ok: bool,
    pub running: bool,
}

/// An etcdctl line that ran.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EtcdctlReply {
    /// The result of the scenario command it stands for (`command` is that
    /// command, as the history records it).
    #[serde(flatten)]
    pub result: CommandResult,
    /// etcdctl's output, line by line.
    pub etcdctl: Vec<String>,
}

/// A console line that does not parse.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unparsed {
    /// Always `None`: it never became a line of the run.
    pub line: Option<usize>,
    pub command: String,
    pub ok: bool,
    /// "parse", or "etcdctl" for an etcdctl line raftlab does not take.
    pub error: &'static str,
    /// The parser's message, with the column, or why the etcdctl line was
    /// refused.
    pub detail: String,
}

/// The quorum panel: the arithmetic and its verdict in words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QuorumPanel {
    #[serde(flatten)]
    pub quorum: QuorumView,
    /// The verdict, rendered.
    pub summary: String,
}

/// The lesson panel: the lesson and its quorum sentence in words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LessonPanel {
    #[serde(flatten)]
    pub lesson: LessonView,
    pub sentence: String,
}

/// A lesson step as the page shows it (see `lessons::Step`), its lines ready for
/// the log and its surprises in words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageStep {
    pub position: usize,
    pub steps: usize,
    pub finished: bool,
    pub says: Vec<String>,
    /// The step's says and trace, as log lines.
    pub lines: Vec<LogLine>,
    pub results: Vec<CommandResult>,
    pub surprises: Vec<CommandResult>,
    /// The surprises in words; `None` on the lesson's path.
    pub surprise: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUN: &str =
        "cluster voters=1,2,3 seed=2\nwait-until leader\nput a 1\nwait 2s\ncrash 2\nwait 1500ms\n";

    fn texts(lines: &[LogLine], kind: LogKind) -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.kind == kind)
            .map(|l| l.text.clone())
            .collect()
    }

    #[test]
    fn skipping_narration_keeps_the_newest_lines_as_taking_them_all_would_end() {
        let said = |skip: Option<usize>| {
            let mut e = Engine::from_script(RUN).unwrap();
            e.take_narration();
            for c in [
                "put b 2", "crash 3", "wait 3s", "start 3", "wait 2s", "get b",
            ] {
                let Reply::Ran(_) = e.command(c) else {
                    panic!("{c} parses")
                };
            }
            let skipped = skip.map_or(0, |keep| e.skip_narration(keep));
            (skipped, e.take_narration())
        };
        let (none, all) = said(None);
        assert_eq!(none, 0);
        assert!(all.len() > 6, "{} lines", all.len());
        let (skipped, last) = said(Some(4));
        assert_eq!(skipped, all.len() - 4);
        assert_eq!(last, all[all.len() - 4..]);
        // Keeping more than there are skips none.
        assert_eq!(said(Some(all.len() + 1)), (0, all));
    }

    #[test]
    fn an_opened_run_says_its_failed_commands_and_counts_those_past_the_first_few() {
        // etcd refuses the add (the voters have not been connected for 5 s)
        // and so the start: an opened file says so, its other lines are old news.
        let src = "cluster voters=1,2,3 seed=1\ncampaign 1\nwait-until leader=1 within=2s\n\
                   member add 4 --learner\nstart 4\nput k 1\nwait 1s\n";
        let mut e = Engine::from_script(src).unwrap();
        let lines = e.take_narration();
        let failed = texts(&lines, LogKind::Result);
        assert_eq!(failed.len(), 2, "{lines:?}");
        assert!(failed[0].contains("member add 4 --learner") && failed[0].contains("unhealthy"));
        assert!(failed[1].contains("start 4") && failed[1].contains("member-not-found"));
        assert!(lines
            .iter()
            .all(|l| l.tone == Tone::Bad && l.kind == LogKind::Result));
        // Past the first few, one line counts the rest.
        let many = format!("{src}{}", "start 9\n".repeat(FAILED_SHOWN + 1));
        let mut e = Engine::from_script(&many).unwrap();
        let lines = e.take_narration();
        assert_eq!(texts(&lines, LogKind::Result).len(), FAILED_SHOWN);
        let last = lines.last().unwrap();
        assert_eq!(last.text, "… and 3 more of its commands failed.");
        // A run whose commands all worked opens as quietly as before.
        let mut e = Engine::from_script(RUN).unwrap();
        assert!(e.take_narration().is_empty());
    }

    #[test]
    fn a_command_is_logged_as_typed_then_what_happened_then_its_result() {
        let mut e = Engine::from_script(RUN).unwrap();
        assert!(e.take_narration().is_empty(), "opening replays: old news");
        let Reply::Ran(r) = e.command(" get a ") else {
            panic!("it parses")
        };
        assert_eq!(r.value, Some(Some("1".to_string())));
        let lines = e.take_narration();
        let kinds: Vec<LogKind> = lines.iter().map(|l| l.kind).collect();
        assert_eq!(kinds, [LogKind::Command, LogKind::Event, LogKind::Result]);
        assert_eq!(lines[0].text, "› get a");
        // The value read is in the result's own line.
        assert!(lines[2].text.ends_with("✓ ok: value \"1\"") && lines[2].tone == Tone::Good);
        let Reply::Ran(_) = e.command("get nothing-here serializable") else {
            panic!("it parses")
        };
        let lines = e.take_narration();
        assert!(lines[1].text.ends_with("✓ ok: no such key"), "{lines:?}");
        assert!(lines.windows(2).all(|w| w[0].id < w[1].id));
    }

    #[test]
    fn the_console_reads_the_historys_verdict_and_a_stale_read_breaks_it() {
        let mut e = Engine::from_script(
            "cluster voters=1,2,3 seed=2\ncampaign 1\nwait-until leader=1\nput a 1\n\
             wait-until all-applied\n",
        )
        .unwrap();
        let before = e.linearizability();
        assert!(before.ok && before.operations == 1, "{before:?}");
        for c in ["isolate 3", "put a 2", "get a via=3 serializable"] {
            let Reply::Ran(r) = e.command(c) else {
                panic!("{c} parses")
            };
            assert!(r.ok, "{c}: {r:?}");
        }
        let v = e.linearizability();
        assert!(!v.ok, "node 3 missed the second write: {v:?}");
        let read = v.anomaly.unwrap().operations.pop().unwrap();
        assert_eq!(read.value.as_deref(), Some("1"));
    }

    #[test]
    fn the_history_view_flags_a_stale_read_from_a_weak_learner() {
        let mut e = Engine::from_script(
            "cluster voters=1,2,3 seed=2 max-learners=1\ncampaign 1\nwait-until leader=1\nwait 6s\n\
             member add 4 --learner --read-only=weak\nstart 4\nput k v1\nwait-until all-applied\n",
        )
        .unwrap();
        let before = e.history_scene();
        assert!(before.ok && before.total == 1, "{before:?}");
        for c in ["cut 1->4", "put k v2", "get k via=4"] {
            let Reply::Ran(r) = e.command(c) else {
                panic!("{c} parses")
            };
            assert!(r.ok, "{c}: {r:?}");
        }
        let s = e.history_scene();
        assert!(!s.ok);
        let stale = s
            .stale_read()
            .unwrap_or_else(|| panic!("the weak read is stale: {s:#?}"));
        assert_eq!(stale.read.value.as_deref(), Some("v1"));
        assert_eq!(stale.missed.value.as_deref(), Some("v2"));
        let said = e.renderer().history_verdict(&s.verdict());
        assert!(
            said.starts_with(
                "✗ Not linearizable: a stale read. On key k, the get sent right after the put of \"v2\" finished"
            ),
            "{said}"
        );
        assert_eq!(s.lanes[0].key, "k");
    }

    #[test]
    fn a_long_console_wait_runs_in_slices_refuses_the_rest_and_cancels_back() {
        let mut e = Engine::from_script(RUN).unwrap();
        e.take_narration();
        let before = e.now();
        let reply = e.command_in("wait 3600s", 50);
        assert!(matches!(reply, Reply::Running(_)), "{reply:?}");
        assert!(e.is_running());
        let a = e.run_slice(200);
        let b = e.run_slice(200);
        assert!(b.done_ms > a.done_ms && b.running, "{a:?} {b:?}");
        // Anything else is refused, in the log too, and changes nothing.
        let refused = e.command_in("crash 1", 50);
        assert!(
            matches!(&refused, Reply::Unparsed(u) if u.error == "running"),
            "{refused:?}"
        );
        assert!(e.seek(0).is_none());
        let said = texts(&e.take_narration(), LogKind::Error);
        assert!(
            said.iter().any(|l| l.contains("a run is in progress")),
            "{said:?}"
        );
        // Cancel: back where the wait began, the log says so, the reply is
        // the `stopped` result.
        assert!(e.cancel());
        assert!(!e.is_running());
        assert_eq!(e.now(), before);
        let reply = e.take_reply().expect("the cancelled command's reply");
        assert!(
            matches!(&reply, Reply::Ran(r) if r.error == Some(STOPPED)),
            "{reply:?}"
        );
        let lines = e.take_narration();
        assert!(
            lines.iter().any(|l| l.text.contains("cancelled at line")),
            "{lines:?}"
        );
        assert!(matches!(e.command("put x 1"), Reply::Ran(r) if r.ok));
    }

    #[test]
    fn an_opened_run_queues_its_script_says_nothing_old_and_ends_at_its_moment() {
        let mut e = Engine::queued_script(RUN).unwrap();
        assert_eq!(e.planned().map(|p| p.commands), Some(5));
        assert!(e.is_running());
        while e.is_running() {
            e.run_slice(7);
        }
        assert!(e.planned().is_none());
        // The opened run's narration is old news.
        assert!(e.take_narration().is_empty());
        let whole = Engine::from_script(RUN).unwrap();
        assert_eq!(e.history(), whole.history());
        assert_eq!(e.now(), whole.now());
    }

    #[test]
    fn a_line_that_does_not_parse_changes_nothing_and_says_why() {
        let mut e = Engine::from_script(RUN).unwrap();
        let before = e.status();
        let Reply::Unparsed(u) = e.command("membr add 4") else {
            panic!("it does not parse")
        };
        assert_eq!((u.ok, u.error, u.line), (false, "parse", None));
        assert_eq!(e.status(), before);
        let lines = e.take_narration();
        assert_eq!(texts(&lines, LogKind::Command), ["› membr add 4"]);
        let error = &texts(&lines, LogKind::Error)[0];
        assert!(
            error.starts_with("error: \"membr add 4\" does not parse: line 1, column 1"),
            "{error}"
        );
    }

    #[test]
    fn a_console_line_with_a_nul_is_echoed_escaped_as_its_error_message_escapes_it() {
        let mut e = Engine::from_script(RUN).unwrap();
        let Reply::Unparsed(u) = e.command("membr\u{0} add\t4") else {
            panic!("it does not parse")
        };
        assert_eq!(
            u.command, "membr\u{0} add\t4",
            "the reply keeps it as typed"
        );
        let lines = e.take_narration();
        let echo: Vec<&LogLine> = lines
            .iter()
            .filter(|l| l.kind == LogKind::Command)
            .collect();
        assert_eq!(echo.len(), 1);
        assert_eq!(echo[0].text, "› membr\\u{0} add\\t4");
        assert_eq!(echo[0].command.as_deref(), Some("membr\u{0} add\t4"));
        let error = &texts(&lines, LogKind::Error)[0];
        assert!(
            error.starts_with(
                "error: \"membr\\u{0} add\\t4\" does not parse: line 1, column 1: \
                 unknown command \"membr\\u{0}\""
            ),
            "{error}"
        );
        // A line that runs is echoed so too; a plain one as it is.
        e.command("put k \u{0}");
        e.command("put k v");
        let more = e.take_narration();
        assert_eq!(
            texts(&more, LogKind::Command),
            ["› put k \\u{0}", "› put k v"]
        );
        assert!(lines.iter().chain(&more).all(|l| !l.text.contains('\u{0}')));
    }

    #[test]
    fn a_seek_in_slices_lands_or_is_cancelled_and_the_log_says_where_it_stays() {
        let mut e = Engine::from_script(RUN).unwrap();
        let end = e.now();
        e.seek(end / 2);
        let want = e.status();
        e.seek(0);
        let start = e.status();
        e.take_narration();

        assert_eq!(e.begin_seek(end / 2), Some(end / 2));
        assert!(e.is_running() && e.progress().seeking);
        while e.is_running() {
            e.run_slice(3);
        }
        assert_eq!(e.status(), want);
        assert!(e.take_narration().is_empty(), "a seek says nothing");

        e.seek(0);
        e.begin_seek(end);
        e.run_slice(1);
        assert!(e.cancel());
        assert!(!e.is_running());
        assert_eq!(e.status(), start);
        assert_eq!(
            texts(&e.take_narration(), LogKind::Notice),
            [format!(
                "Seek cancelled: still at t = {}.",
                crate::words::text_en::seconds(e.now())
            )]
        );
    }

    #[test]
    fn acting_in_the_past_says_a_branch_started_and_switching_back_says_where() {
        let mut e = Engine::from_script(RUN).unwrap();
        let end = e.now();
        e.seek(end - 1000);
        e.command("put b 2");
        let notice = texts(&e.take_narration(), LogKind::Notice);
        assert_eq!(notice.len(), 1);
        assert!(
            notice[0].contains("branch 2 starts here") && notice[0].contains("kept as branch 1")
        );
        assert_eq!(e.switch_branch(1), Ok(end - 1000));
        assert_eq!(
            texts(&e.take_narration(), LogKind::Notice),
            [format!(
                "↪ Back on branch 1, at t = {}, where you left it.",
                crate::words::text_en::seconds(end - 1000)
            )]
        );
        assert!(e.switch_branch(9).is_err());
        assert_eq!(
            texts(&e.take_narration(), LogKind::Error),
            ["error: there is no branch 9"]
        );
    }

    #[test]
    fn stepping_says_when_nothing_happens_and_when_the_run_begins() {
        let mut e = Engine::from_script("cluster voters=1\nwait-until leader\n").unwrap();
        e.take_narration();
        assert!(!e.step_event(), "a lone leader: nothing happens");
        assert_eq!(
            texts(&e.take_narration(), LogKind::Notice),
            ["nothing more happens within a minute"]
        );
        e.seek(0);
        while e.step_back().is_some() {}
        assert_eq!(
            texts(&e.take_narration(), LogKind::Notice),
            ["this is the beginning of the run"]
        );
    }

    #[test]
    fn a_preset_that_cannot_apply_is_logged_and_runs_nothing() {
        let mut e = Engine::from_script("cluster voters=1\ncrash 1\n").unwrap();
        assert_eq!(e.preset(Preset::IsolateLeader), None);
        assert_eq!(
            texts(&e.take_narration(), LogKind::Error),
            ["error: there is no leader to isolate (no-leader)"]
        );
        assert_eq!(e.preset(Preset::HealAll).as_deref(), Some("heal"));
    }

    #[test]
    fn a_long_console_command_in_a_lesson_runs_in_slices_and_a_lesson_move_cancels_it() {
        let mut e = Engine::from_script(RUN).unwrap();
        e.open_lesson("10-promoting-a-learner").unwrap();
        e.lesson_step(LessonMove::Next).unwrap();
        e.take_narration();
        let before = e.now();
        let reply = e.command_in("wait 600s", 50);
        assert!(matches!(reply, Reply::Running(_)), "{reply:?}");
        let a = e.run_slice(200);
        let b = e.run_slice(200);
        assert!(
            e.is_running() && b.running && b.done_ms > a.done_ms,
            "{a:?} {b:?}"
        );
        assert_eq!(b.total_ms, 600_000);
        // Refused meanwhile, and nothing changes.
        let refused = e.command_in("crash 1", 50);
        assert!(matches!(&refused, Reply::Unparsed(u) if u.error == "running"));
        // Cancel: the lesson's cluster is back where the wait began.
        assert!(e.cancel());
        assert_eq!(e.now(), before);
        let reply = e.take_reply().expect("the cancelled command's reply");
        assert!(matches!(&reply, Reply::Ran(r) if r.error == Some(STOPPED)));

        // A short one runs whole in its first slice and answers at once.
        let put = e.command_in("put x 1", 100_000);
        assert!(matches!(&put, Reply::Ran(r) if r.ok), "{put:?}");
        let get = e.command("get x");
        assert!(
            matches!(&get, Reply::Ran(r) if r.value == Some(Some("1".to_string()))),
            "{get:?}"
        );

        // A lesson move while one runs cancels it, and the reply says so.
        e.command_in("wait 600s", 50);
        assert!(e.is_running());
        let step = e.lesson_step(LessonMove::Next).unwrap();
        assert_eq!(step.position, 2);
        assert!(!e.is_running());
        assert!(matches!(e.take_reply(), Some(Reply::Ran(r)) if r.error == Some(STOPPED)));
    }

    #[test]
    fn a_lesson_step_names_its_commands_and_marks_what_it_expects() {
        let mut e = Engine::from_script(RUN).unwrap();
        e.open_lesson("10-promoting-a-learner").unwrap();
        assert!(e.timeline().is_none() && e.seek(5).is_none());
        let first = e.lesson_step(LessonMove::Next).unwrap();
        let second = e.lesson_step(LessonMove::Next).unwrap();
        assert_eq!((first.position, second.position), (1, 2));
        assert_eq!(second.surprise, None);
        let tones = |kind: LogKind, tone: Tone| {
            second
                .lines
                .iter()
                .filter(|l| l.kind == kind && l.tone == tone)
                .map(|l| l.text.clone())
                .collect::<Vec<_>>()
        };
        // The refused promotion is what the lesson shows: expected, not red.
        let expected = tones(LogKind::Result, Tone::Expected);
        assert_eq!(expected.len(), 1, "{:?}", second.lines);
        assert!(expected[0].contains("member promote 4: error learner-not-ready"));
        assert!(expected[0].ends_with("(as the lesson expects)"));
        assert!(tones(LogKind::Result, Tone::Check)
            .iter()
            .any(|t| t.contains("expect learners=4: ok")));
        assert!(!tones(LogKind::Say, Tone::Say).is_empty());
        let panel = e.lesson().unwrap();
        assert_eq!(
            (panel.lesson.number.as_str(), panel.lesson.position),
            ("10", 2)
        );
        assert!(panel
            .sentence
            .starts_with("Voters: 3 (1, 2, 3). Quorum: 2."));
        // After a detour the lesson's own commands may fail: a surprise,
        // in words.
        e.command("member remove 4");
        let step = e.lesson_step(LessonMove::Next).unwrap();
        let surprise = step.surprise.expect("the lesson's next step fails");
        assert!(
            surprise.starts_with("Not as the lesson says: wait-until caught-up=4"),
            "{surprise}"
        );
        assert!(e.leave_lesson());
        assert!(e.timeline().is_some());
    }

    #[test]
    fn an_etcdctl_line_is_recorded_as_its_scenario_command_and_printed_as_etcdctl_prints() {
        let mut e =
            Engine::from_script("cluster voters=1,2,3 seed=2\nwait-until leader\nwait 6s\n")
                .unwrap();
        e.take_narration();
        let Reply::Etcdctl(r) =
            e.command("etcdctl member add n4 --peer-urls=http://n4:2380 --learner")
        else {
            panic!("an etcdctl line that runs")
        };
        assert!(r.result.ok, "{:?}", r.result);
        assert_eq!(
            r.result.command,
            "member add 4 --learner --peer-url=http://n4:2380"
        );
        let hex = crate::lang::etcdctl::member_id(4);
        assert!(r.etcdctl[0].starts_with(&format!("Member {hex:16x} added as learner to cluster ")));
        assert_eq!(
            e.history().last().map(String::as_str),
            Some("member add 4 --learner --peer-url=http://n4:2380")
        );
        assert_eq!(e.status().status.learners, [4]);
        let lines = e.take_narration();
        assert_eq!(
            texts(&lines, LogKind::Command),
            ["› etcdctl member add n4 --peer-urls=http://n4:2380 --learner"]
        );
        assert_eq!(
            texts(&lines, LogKind::Notice),
            ["recorded as: member add 4 --learner --peer-url=http://n4:2380"]
        );
        assert_eq!(texts(&lines, LogKind::Details), r.etcdctl);
        // A command raftlab does not model changes nothing and says so.
        let before = e.history();
        let Reply::Unparsed(u) = e.command("etcdctl watch k") else {
            panic!("refused")
        };
        assert_eq!((u.ok, u.error), (false, "etcdctl"));
        assert!(u
            .detail
            .starts_with("raftlab does not model \"etcdctl watch\""));
        assert_eq!(e.history(), before);
        assert_eq!(texts(&e.take_narration(), LogKind::Error), [u.detail]);
    }

    #[test]
    fn an_etcdctl_table_is_one_block_in_the_log_after_the_endpoints_that_did_not_answer() {
        let mut e =
            Engine::from_script("cluster voters=1,2,3 seed=2\nwait-until leader\ncrash 3\n")
                .unwrap();
        e.take_narration();
        let Reply::Etcdctl(r) = e.command("etcdctl endpoint status -w table") else {
            panic!("an etcdctl line that runs")
        };
        assert!(r.etcdctl[0].starts_with("Failed to get the status of endpoint http://n3:2379"));
        // The failure, then the border, the header, the border, two rows and
        // the border.
        assert_eq!(r.etcdctl.len(), 1 + 6, "{:?}", r.etcdctl);
        let lines = e.take_narration();
        let details: Vec<&LogLine> = lines
            .iter()
            .filter(|l| l.kind == LogKind::Details)
            .collect();
        assert_eq!(details.len(), 2);
        assert_eq!(
            (details[0].tone, &details[0].text),
            (Tone::Plain, &r.etcdctl[0])
        );
        assert_eq!(details[1].tone, Tone::Table);
        assert_eq!(details[1].text, r.etcdctl[1..].join("\n"));
        // Without -w table the rows are lines of their own, as before.
        let Reply::Etcdctl(r) = e.command("etcdctl endpoint status") else {
            panic!("an etcdctl line that runs")
        };
        let lines = e.take_narration();
        assert!(lines.iter().all(|l| l.tone != Tone::Table));
        assert_eq!(texts(&lines, LogKind::Details), r.etcdctl);
    }

    #[test]
    fn the_quorum_panel_and_the_status_read_the_same_cluster() {
        let mut e = Engine::from_script(RUN).unwrap();
        let q = e.quorum();
        let status = e.status();
        assert_eq!(q.quorum.quorum, status.status.quorum);
        assert_eq!(q.quorum.reachable, status.status.reachable);
        assert!(q.summary.contains("quorum 2 holds"), "{}", q.summary);
        assert_eq!(status.load, None);
        e.command(presets::LOAD);
        assert!(e.status().load.is_some());
    }

    /// Plays the current step frame by frame (16 ms frames); the lines told
    /// while it played, then the step that ended it.
    fn play_step(e: &mut Engine) -> (Vec<LogLine>, PageStep, usize) {
        assert_eq!(e.lesson_play(), Some(true));
        let mut told = Vec::new();
        let mut frames = 0;
        loop {
            frames += 1;
            let end = e.lesson_frame(16.0, super::super::player::DEFAULT_SPEED);
            told.extend(e.take_narration());
            if let Some(step) = end {
                return (told, step, frames);
            }
            assert!(e.lesson_playing());
            assert!(frames < 50_000);
        }
    }

    #[test]
    fn next_plays_a_step_over_frames_and_tells_each_line_once() {
        let id = "05-four-voters-split-2-2";
        let mut at_once = Engine::from_script(RUN).unwrap();
        at_once.open_lesson(id).unwrap();
        let mut e = Engine::from_script(RUN).unwrap();
        e.open_lesson(id).unwrap();
        let steps = e.lesson().unwrap().lesson.steps;
        for _ in 0..steps {
            let whole = at_once.lesson_step(LessonMove::Next).unwrap();
            let (told, end, frames) = play_step(&mut e);
            assert!(frames > 1 || whole.results.iter().all(|r| !r.command.starts_with("wait")));
            let texts = |l: &[LogLine]| l.iter().map(|l| l.text.clone()).collect::<Vec<_>>();
            let mut played = texts(&told);
            played.extend(texts(&end.lines));
            assert_eq!(played, texts(&whole.lines));
            assert_eq!((end.position, &end.says), (whole.position, &whole.says));
            let panel = e.lesson().unwrap().lesson;
            assert!(!panel.playing && panel.failed_checks == 0);
            assert_eq!(e.status(), at_once.status());
        }
        assert_eq!(e.history(), at_once.history());
        assert_eq!(e.lesson_play(), Some(false), "the lesson is over");
    }

    /// Plays steps until one is still under way after `frames` frames of
    /// 16 ms; its position (steps done before it).
    fn under_way(e: &mut Engine, frames: usize) -> usize {
        'steps: loop {
            e.take_narration();
            assert_eq!(e.lesson_play(), Some(true), "no step lasts {frames} frames");
            for _ in 0..frames {
                if e.lesson_frame(16.0, 0.2).is_some() {
                    continue 'steps;
                }
            }
            return e.lesson().unwrap().lesson.position;
        }
    }

    #[test]
    fn a_second_next_skips_to_the_pause_and_back_or_restart_mid_step_rebuild() {
        let id = "01-new-member-overloads-leader";
        let lesson = |k: usize| {
            let mut e = Engine::from_script(RUN).unwrap();
            e.open_lesson(id).unwrap();
            e.lesson_step(LessonMove::Goto(k));
            e
        };
        let mut e = lesson(0);
        let k = under_way(&mut e, 20);
        let mid = e.now();
        let panel = e.lesson().unwrap().lesson;
        assert!(panel.playing && panel.position == k, "{panel:?}");
        let mut reference = lesson(k);
        let whole = reference.lesson_step(LessonMove::Next).unwrap();
        assert!(mid > lesson(k).now() && mid < reference.now());
        let told = e.take_narration();
        let skipped = e.lesson_step(LessonMove::Next).unwrap();
        assert_eq!(skipped.position, k + 1);
        assert_eq!(skipped.says, whole.says);
        assert_eq!(told.len() + skipped.lines.len(), whole.lines.len());
        assert_eq!(e.status(), reference.status());
        assert_eq!(e.history(), reference.history());
        assert!(!e.lesson_playing() && e.lesson_frame(16.0, 0.2).is_none());
        // Back while playing: the step is dropped, the run rebuilt at the
        // pause it started from.
        let mut e = lesson(0);
        let k = under_way(&mut e, 1);
        let back = e.lesson_step(LessonMove::Back).unwrap();
        assert_eq!(back.position, k);
        assert!(!e.lesson_playing());
        assert_eq!(e.status(), lesson(k).status());
        assert_eq!(e.history(), lesson(k).history());
        // Restart mid-step: the start, nothing playing.
        under_way(&mut e, 1);
        let start = e.lesson_step(LessonMove::Restart).unwrap();
        assert_eq!((start.position, e.now()), (0, 0));
        assert!(!e.lesson_playing());
        assert!(e.lesson_frame(16.0, 0.2).is_none());
        // A dot mid-step goes where it says.
        under_way(&mut e, 1);
        let dot = e.lesson_step(LessonMove::Goto(2)).unwrap();
        assert_eq!(dot.position, 2);
        assert_eq!(e.status(), lesson(2).status());
    }

    #[test]
    fn a_console_command_mid_step_ends_the_step_first_and_checks_are_counted() {
        let mut e = Engine::from_script(RUN).unwrap();
        e.open_lesson("01-new-member-overloads-leader").unwrap();
        let k = under_way(&mut e, 1);
        e.take_narration();
        let Reply::Ran(r) = e.command("get a") else {
            panic!("it parses")
        };
        assert!(!e.lesson_playing());
        let panel = e.lesson().unwrap().lesson;
        assert_eq!((panel.position, panel.on_path), (k + 1, false));
        let lines = e.take_narration();
        let says = texts(&lines, LogKind::Say);
        assert!(!says.is_empty(), "the rest of the step is told: {lines:?}");
        let echo = lines
            .iter()
            .position(|l| l.kind == LogKind::Command)
            .unwrap();
        assert!(lines[..echo].iter().any(|l| l.kind == LogKind::Say));
        assert!(r.ok || r.error.is_some());
        // A detour that breaks the next step's claims: its failed expects count.
        e.command("crash 1");
        e.lesson_step(LessonMove::Next);
        e.lesson_step(LessonMove::Next);
        let failed = e.lesson().unwrap().lesson.failed_checks;
        assert!(failed > 0);
        // Rebuilding forgets them with the detour.
        e.lesson_step(LessonMove::Rejoin);
        assert_eq!(e.lesson().unwrap().lesson.failed_checks, 0);
    }
}
