//! Walking a lesson for the browser: step by step, from pause to pause.

use std::sync::Arc;

use serde::Serialize;

use crate::lang::ast::Command;
use crate::lang::say::Spoken;
use crate::server::ErrorCode;
use crate::session::exec::{Running, Session};
use crate::session::narrate::{Line, Said};
use crate::session::report::{CommandResult, Status};
use crate::session::stop::{Progress, Stop};
use crate::session::view::QuorumView;
use crate::words::language::Language;

use crate::lessons::lesson::{find, Lesson};

/// One line of a step's narration, in the order it happened.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", content = "line", rename_all = "lowercase")]
pub enum StepLine {
    /// The lesson's own words (`say`, with its `say-ja`).
    Say(Spoken),
    /// What the cluster did: an event, or a command's result.
    Trace(Box<Line>),
}

/// What one `next` (or `back`, `restart`) did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// Steps done so far (0 at the start).
    pub position: usize,
    /// Steps in the lesson.
    pub steps: usize,
    /// No step is left.
    pub finished: bool,
    /// The `say` texts of this step: the narration panel's text.
    pub says: Vec<Spoken>,
    /// Says and trace lines, interleaved as they happened.
    pub lines: Vec<StepLine>,
    /// The results of this step's commands (without `say` and `pause`).
    pub results: Vec<CommandResult>,
    /// Commands of this step that failed without the script expecting it,
    /// and expectations that did not hold: empty on the lesson's path.
    pub surprises: Vec<CommandResult>,
}

/// Plays a lesson one step (one `pause`) at a time.
#[derive(Debug, Clone)]
pub struct LessonPlayer {
    lesson: Lesson,
    session: Session,
    /// The next command of the script to run.
    cursor: usize,
    /// Steps done.
    position: usize,
    /// The `say` texts of the last step run.
    says: Vec<Spoken>,
    /// Console commands and idle time since the lesson's path.
    detours: usize,
    /// The step being played, while [`LessonPlayer::play`] shows it.
    playing: Option<Playing>,
    /// The lesson's own `expect` lines that failed in this run so far.
    failed_checks: usize,
}

/// A step being played a command at a time (the page's Next, shown as it
/// happens).
#[derive(Debug, Clone)]
struct Playing {
    /// The command index just past the step.
    end: usize,
    /// The session's result count when the step began.
    first: usize,
    /// Says and trace lines not taken yet.
    lines: Vec<StepLine>,
    /// The command under way, started and not over.
    running: Option<Running>,
}

/// What [`LessonPlayer::play`] got done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Played {
    /// The command under way ran to the time asked and goes on.
    Running,
    /// A command ended (the step may have more).
    Command,
    /// Every command of the step has run: [`LessonPlayer::end_step`]
    /// closes it.
    Step,
}

impl LessonPlayer {
    /// A player at the start of `lesson`: the cluster of its `cluster`
    /// line, at time 0, before the first command.
    pub fn new(lesson: Lesson) -> LessonPlayer {
        let session = lesson.session();
        LessonPlayer {
            lesson,
            session,
            cursor: 0,
            position: 0,
            says: Vec::new(),
            detours: 0,
            playing: None,
            failed_checks: 0,
        }
    }

    /// A player for the embedded lesson with this id.
    pub fn open(id: &str) -> Option<LessonPlayer> {
        find(id).map(LessonPlayer::new)
    }

    pub fn lesson(&self) -> &Lesson {
        &self.lesson
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Direct access to the session. Anything done through it is a detour
    /// the player does not see; prefer [`LessonPlayer::command`].
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    pub fn status(&self) -> Status {
        self.session.status()
    }

    /// Steps done so far: 0 at the start, [`LessonPlayer::steps`] at the end.
    pub fn position(&self) -> usize {
        self.position
    }

    /// Steps in the lesson (one per `pause`, plus the tail after the last).
    pub fn steps(&self) -> usize {
        self.lesson.steps()
    }

    /// `pause` lines in the lesson.
    pub fn pauses(&self) -> usize {
        self.lesson.pauses()
    }

    pub fn finished(&self) -> bool {
        self.position >= self.steps()
    }

    /// The `say` texts of the current step, for the narration panel.
    pub fn says(&self) -> &[Spoken] {
        &self.says
    }

    /// The current step's narration as one text (paragraphs separated by a
    /// blank line), in English; empty at the start.
    pub fn say(&self) -> String {
        self.say_in(Language::English)
    }

    /// The current step's narration as one text, in `lang`.
    pub fn say_in(&self, lang: Language) -> String {
        let says: Vec<_> = self.says.iter().map(|s| lang.said(s)).collect();
        says.join("\n\n")
    }

    /// The script line the lesson will run next, if any.
    pub fn next_line(&self) -> Option<usize> {
        self.lesson.script.commands.get(self.cursor).map(|c| c.line)
    }

    /// Whether the cluster is exactly as the lesson left it at this pause
    /// (no console command and no idle time since).
    pub fn on_path(&self) -> bool {
        self.detours == 0
    }

    /// Runs the lesson's commands up to and including the next `pause` (or
    /// to the end). At the end it does nothing and says so. While a step
    /// plays, it runs the rest of it at once (the page's second Next).
    // Named for the browser's Next button; a player is not an iterator (a
    // finished lesson still answers).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Step {
        if !self.begin_step() {
            let mut step = self.blank_step();
            // Narration the browser did not collect (a console command's,
            // say) is still told.
            for line in self.session.take_narration() {
                step.lines.push(StepLine::Trace(Box::new(line)));
            }
            step.finished = true;
            return step;
        }
        self.end_step()
    }

    /// Whether a step is being played (begun and not ended).
    pub fn playing(&self) -> bool {
        self.playing.is_some()
    }

    /// The lesson's own `expect` lines that failed in this run so far.
    pub fn failed_checks(&self) -> usize {
        self.failed_checks
    }

    /// Begins playing the next step: nothing runs yet
    /// ([`LessonPlayer::play`] runs it). False at the end of the lesson;
    /// true (and nothing changes) while a step is playing.
    pub fn begin_step(&mut self) -> bool {
        if self.playing.is_some() {
            return true;
        }
        if self.finished() {
            return false;
        }
        self.says.clear();
        // Narration the browser did not collect (a console command's, say)
        // comes first, as it happened first.
        let lines = self
            .session
            .take_narration()
            .into_iter()
            .map(|line| StepLine::Trace(Box::new(line)))
            .collect();
        self.playing = Some(Playing {
            end: self.lesson.stop(self.position + 1),
            first: self.session.results().len(),
            lines,
            running: None,
        });
        true
    }

    /// The command the playing step runs now or next; `None` when no step
    /// plays or its commands have all run.
    pub fn current(&self) -> Option<&Command> {
        let p = self.playing.as_ref()?;
        match &p.running {
            Some(r) => Some(r.command()),
            None => (self.cursor < p.end).then(|| &*self.lesson.script.commands[self.cursor].node),
        }
    }

    /// Plays one command of the step: the one under way, or the next. A
    /// `wait` or `wait-until` runs to simulated time `until` at most; any
    /// other command runs whole. Playing a step in any slices gives exactly
    /// the run of [`LessonPlayer::next`].
    pub fn play(&mut self, until: u64) -> Played {
        let Some(p) = self.playing.as_mut() else {
            return Played::Step;
        };
        let mut running = match p.running.take() {
            Some(r) => r,
            None => {
                if self.cursor >= p.end {
                    return Played::Step;
                }
                let c = &self.lesson.script.commands[self.cursor];
                self.session.begin(c.line, &c.text, Arc::clone(&c.node))
            }
        };
        let over = self.session.proceed(&mut running, until);
        let played = if over {
            let result = self.session.finish(running);
            let c = &self.lesson.script.commands[self.cursor];
            if matches!(*c.node, Command::Expect(_))
                && result.error == Some(ErrorCode::ExpectFailed.as_str())
            {
                self.failed_checks += 1;
            }
            self.cursor += 1;
            Played::Command
        } else {
            p.running = Some(running);
            Played::Running
        };
        for line in self.session.take_narration() {
            let line = match line.said {
                // A `say`, its placeholders filled in by this run.
                Said::Say(text) => {
                    self.says.push(text.clone());
                    StepLine::Say(text)
                }
                _ => StepLine::Trace(Box::new(line)),
            };
            p.lines.push(line);
        }
        played
    }

    /// The playing step's lines told since the last call.
    pub fn take_lines(&mut self) -> Vec<StepLine> {
        self.playing
            .as_mut()
            .map(|p| std::mem::take(&mut p.lines))
            .unwrap_or_default()
    }

    /// Runs what is left of the playing step at once and closes it: the
    /// step, with the lines not taken yet. With no step playing, the step
    /// as `next` returns it at the end of the lesson.
    pub fn end_step(&mut self) -> Step {
        if self.playing.is_none() {
            return self.next();
        }
        while self.play(u64::MAX) != Played::Step {}
        let Some(p) = self.playing.take() else {
            return self.blank_step();
        };
        self.position += 1;
        let mut step = self.blank_step();
        step.lines = p.lines;
        let all = self.session.results();
        let results: Vec<CommandResult> = all.range(p.first, all.len()).cloned().collect();
        step.results = results
            .iter()
            .filter(|r| !is_narration(&r.command))
            .cloned()
            .collect();
        step.surprises = surprises(&results);
        step
    }

    /// Whether a result of the lesson's own is one the lesson did not ask
    /// for (as [`surprises`] tells, looking at the script's next command
    /// rather than at a result that may not exist yet).
    pub fn surprising(&self, r: &CommandResult) -> bool {
        if r.error == Some(ErrorCode::ExpectFailed.as_str()) {
            return true;
        }
        if r.ok || r.pending {
            return false;
        }
        let commands = &self.lesson.script.commands;
        let next = commands
            .iter()
            .position(|c| c.line == r.line)
            .and_then(|i| commands.get(i + 1));
        !next.is_some_and(|n| n.text.starts_with("expect error="))
    }

    /// Goes back one step: rebuilds the run from the start to the previous
    /// pause. The returned step is that pause's step, as `next` showed it.
    /// While a step plays, back is the pause it started from.
    pub fn back(&mut self) -> Step {
        if self.playing() {
            return self.goto(self.position);
        }
        self.goto(self.position.saturating_sub(1))
    }

    /// Back to the start: the cluster of the `cluster` line at time 0.
    pub fn restart(&mut self) -> Step {
        self.goto(0)
    }

    /// Returns to the lesson's path after console commands: rebuilds the run
    /// to the current pause, forgetting the detour.
    pub fn rejoin(&mut self) -> Step {
        self.goto(self.position)
    }

    /// Rebuilds the run from the start and plays `position` steps; returns
    /// the last of them (a blank step at position 0).
    pub fn goto(&mut self, position: usize) -> Step {
        let position = position.min(self.steps());
        self.session = self.lesson.session();
        self.cursor = 0;
        self.position = 0;
        self.says.clear();
        self.detours = 0;
        self.playing = None;
        self.failed_checks = 0;
        let mut step = self.blank_step();
        // Earlier steps replay unseen; the last one is returned, lines and
        // all, exactly as `next` returned it the first time.
        while self.position < position {
            step = self.next();
        }
        step
    }

    /// Runs one console command on the lesson's cluster. The lesson goes on
    /// from where its script is; see [`LessonPlayer::rejoin`].
    pub fn command(&mut self, line: &str) -> Result<CommandResult, crate::lang::parse::ParseError> {
        self.settle();
        let result = self.session.command(line)?;
        self.detours += 1;
        Ok(result)
    }

    /// Queues a console command on the lesson's cluster to run in slices
    /// ([`LessonPlayer::run_slice`]): a long one keeps the page drawing and
    /// can be cancelled. A detour like [`LessonPlayer::command`]; a line
    /// that does not parse changes nothing.
    pub fn queue_command(&mut self, line: &str) -> Result<(), crate::lang::parse::ParseError> {
        self.settle();
        self.session.queue_command(line)?;
        self.session.forget_stop();
        self.detours += 1;
        Ok(())
    }

    /// A console command queued with [`LessonPlayer::queue_command`] is
    /// not over yet. (A playing step's command runs in the session too,
    /// paced by the page: that is not a console command.)
    pub fn is_running(&self) -> bool {
        self.playing.is_none() && self.session.is_running()
    }

    /// Runs the queued console command for at most `work` units of work.
    pub fn run_slice(&mut self, work: u64) -> Progress {
        self.session.run_slice(work)
    }

    pub fn progress(&self) -> Progress {
        self.session.progress()
    }

    /// Stops the queued console command: the cluster is as before it, and
    /// the narration says so. False if none was running.
    pub fn cancel(&mut self) -> bool {
        self.session.cancel().is_some()
    }

    /// The result of the last console command that ended, unless it was
    /// stopped (then the stop).
    pub fn last_command(&self) -> Result<Option<&CommandResult>, &Stop> {
        match self.session.stopped() {
            Some(stop) => Err(stop),
            None => Ok(self.session.results().last()),
        }
    }

    /// Lets simulated time pass outside the script (the browser's clock
    /// running while the reader looks). This is a detour like a command.
    pub fn advance(&mut self, ms: u64) {
        self.settle();
        if ms > 0 {
            self.session.advance(ms);
            self.detours += 1;
        }
    }

    /// Runs to the next narrated event outside the script (the page's Step
    /// button), at most `limit_ms` ahead: a detour like
    /// [`LessonPlayer::advance`] when time moved. Returns whether something
    /// was narrated.
    pub fn step_event(&mut self, limit_ms: u64) -> bool {
        self.settle();
        let before = self.session.now();
        let narrated = self.session.step_event(limit_ms);
        if narrated || self.session.now() > before {
            self.detours += 1;
        }
        narrated
    }

    /// Ends a playing step at once before anything else acts on the
    /// cluster; its lines are told with the session's next narration.
    fn settle(&mut self) {
        if self.playing.is_none() {
            return;
        }
        let step = self.end_step();
        let mut lines: Vec<Line> = Vec::new();
        for l in step.lines {
            match l {
                StepLine::Say(text) => lines.push(Line::say(self.session.now(), text)),
                StepLine::Trace(line) => lines.push(*line),
            }
        }
        lines.extend(self.session.take_narration());
        self.session.push_narration(lines);
    }

    /// The quorum arithmetic now.
    pub fn quorum(&self) -> QuorumView {
        QuorumView::of(self.session.cluster())
    }

    fn blank_step(&self) -> Step {
        Step {
            position: self.position,
            steps: self.steps(),
            finished: self.finished(),
            says: self.says.clone(),
            lines: Vec::new(),
            results: Vec::new(),
            surprises: Vec::new(),
        }
    }
}

fn is_narration(command: &str) -> bool {
    command == "pause" || command.starts_with("say ") || command == "say"
}

/// Results the script did not ask for: a failed `expect`, or a command that
/// failed when the next command is not `expect error=...`.
pub fn surprises(results: &[CommandResult]) -> Vec<CommandResult> {
    results
        .iter()
        .enumerate()
        .filter(|(i, r)| {
            let expected = results
                .get(i + 1)
                .is_some_and(|n| n.command.starts_with("expect error="));
            r.error == Some("expect-failed") || (!r.ok && !r.pending && !expected)
        })
        .map(|(_, r)| r.clone())
        .collect()
}
