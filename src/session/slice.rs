//! Running commands in slices: a bounded amount of work at a time, with
//! progress, a cancel that leaves a usable session, and a memory budget.
//!
//! A session runs a queue of commands ([`Session::queued`],
//! [`Session::queue`]). [`Session::run_slice`] does at most a given amount
//! of *work* (one unit per engine step, a message delivered or a timer
//! fired, and one per command) and returns; a command that lets time pass
//! (`wait`, `wait-until`, a request waited for) goes on in the next slice
//! exactly where it was, so a run sliced in any way is the same run, bit
//! for bit, as the run in one go ([`Session::run`] is that: one slice
//! without limit). The lesson player's [`Session::begin`],
//! [`Session::proceed`] and [`Session::finish`] drive the same command in
//! progress, bounded by simulated time instead of work; `Session::execute`
//! is those three with no bound.
//!
//! [`Session::cancel`] (and [`Session::stop`], which the runner uses for
//! `--max-wall`) stops at the last finished command: the session is left
//! as if the script had ended there. To get back there from the middle of
//! a command, the session keeps a clone of itself taken at a command
//! boundary at most [`SNAPSHOT_EVERY`] units of work back, and replays the
//! commands finished since (deterministic, so the same). A clone shares
//! the logs' chunks, so it costs little.
//!
//! The memory budget: every so often (at fixed points of the work, so a
//! run stops at the same point however it is sliced) the session counts
//! what it holds ([`Session::memory_bytes`], a counted estimate, see
//! `collections::heap`); past its budget the run stops like a cancel, with a
//! message saying so, instead of growing until the process or the page's
//! module dies.

use std::mem::size_of;
use std::sync::Arc;

use crate::collections::heap::{HeapSize, Meter};

use crate::lang::ast::{Command, Script};
use crate::lang::parse::{parse_command, ParseError};
use crate::session::driver::{Current, Drive, Op, Queued, Stepped};
use crate::session::exec::{weigh_line, weigh_result, Session};
use crate::session::narrate::{Line, Said};
use crate::session::stop::{Progress, Stop, StopReason};

/// The least work between two countings of memory. Counting walks what
/// the session holds, so the gap grows with it ([`CHECK_SPACING_BYTES`]):
/// the counting stays a small part of the work.
const CHECK_EVERY: u64 = 1 << 14;
/// One more unit of work between two countings per this many bytes held.
const CHECK_SPACING_BYTES: u64 = 1 << 10;

/// The most work a cancel replays: a rollback clone is taken at the first
/// command boundary this much work after the last one.
pub const SNAPSHOT_EVERY: u64 = 1 << 16;

impl Session {
    /// A fresh session with `script`'s commands queued, none run yet: run
    /// them with [`Session::run_slice`].
    pub fn queued(script: &Script) -> Session {
        let mut session = Session::new(&script.cluster);
        for c in &script.commands {
            session.queue(c.line, &c.text, Arc::clone(&c.node));
        }
        session
    }

    /// Queues a command to run after those already queued.
    pub fn queue(&mut self, line: usize, text: &str, cmd: Arc<Command>) {
        self.lines = self.lines.max(line);
        let now = self.now();
        self.driver.count_in(now);
        self.driver.push(Queued::new(line, text, cmd));
    }

    /// Parses a console command and queues it (numbered after everything
    /// run or queued so far). A line that does not parse queues nothing.
    pub fn queue_command(&mut self, line: &str) -> Result<(), ParseError> {
        let cmd = parse_command(line)?;
        let text = cmd.to_string();
        self.queue(self.lines + 1, &text, Arc::new(cmd));
        Ok(())
    }

    /// Commands are queued or one is in progress.
    pub fn is_running(&self) -> bool {
        self.driver.running()
    }

    /// Runs queued commands for at most `work` units of work (engine steps
    /// and commands; at least one), then returns how far the run is. A
    /// command cut by the end of the slice goes on in the next one.
    pub fn run_slice(&mut self, work: u64) -> Progress {
        let stop_at = self.work.saturating_add(work.max(1));
        loop {
            if let Some(mut cur) = self.driver.current.take() {
                match self.drive(&mut cur.op, &mut cur.result, stop_at, u64::MAX) {
                    Drive::Done => {
                        let Current { q, result, .. } = *cur;
                        self.end(q, result);
                    }
                    Drive::Paused => {
                        self.driver.current = Some(cur);
                        break;
                    }
                    Drive::OverBudget(counted) => {
                        self.driver.current = Some(cur);
                        self.stop_for_memory(counted);
                        break;
                    }
                }
            } else if self.work >= stop_at {
                break;
            } else if let Some(q) = self.driver.pop() {
                if let Some(counted) = self.over_budget() {
                    self.driver.queue.push_front(q);
                    self.stop_for_memory(counted);
                    break;
                }
                self.start_queued(q);
            } else {
                break;
            }
        }
        self.progress()
    }

    /// Runs the command in progress, if any, to its end (the queue waits).
    pub(super) fn finish_current(&mut self) {
        let Some(mut cur) = self.driver.current.take() else {
            return;
        };
        match self.drive(&mut cur.op, &mut cur.result, u64::MAX, u64::MAX) {
            Drive::Done | Drive::Paused => {
                let Current { q, result, .. } = *cur;
                self.end(q, result);
            }
            Drive::OverBudget(counted) => {
                self.driver.current = Some(cur);
                self.stop_for_memory(counted);
            }
        }
    }

    /// How far the run of queued commands is.
    pub fn progress(&self) -> Progress {
        let d = &self.driver;
        let now = self.now();
        let mut left = d.queued_wait_ms;
        if let Some(Op::Wait { until }) = d.current.as_ref().map(|c| &c.op) {
            left = left.saturating_add(until.saturating_sub(now));
        }
        Progress::at(
            d.running(),
            now,
            d.start_ms,
            left,
            d.commands_done,
            d.commands_total,
        )
    }

    /// Stops the run at the last finished command (the page's Cancel).
    /// Returns the stop, or `None` if nothing was running.
    pub fn cancel(&mut self) -> Option<&Stop> {
        self.stop(StopReason::Cancelled)
    }

    /// Stops the run at the last finished command: the command in progress
    /// is undone, the queued ones dropped, and the session is as if the
    /// script had ended there. The narration and [`Session::stopped`] say
    /// so. Returns `None` if nothing was running.
    pub fn stop(&mut self, reason: StopReason) -> Option<&Stop> {
        if !self.is_running() {
            return None;
        }
        let reached_ms = self.now();
        let cut = self.driver.current.take();
        let (line, command) = match cut.as_ref().map(|c| &c.q).or(self.driver.queue.front()) {
            Some(q) => (Some(q.line), Some(q.text.clone())),
            None => (None, None),
        };
        let commands_left = self.driver.queue.len() + usize::from(cut.is_some());
        if cut.is_some() {
            self.roll_back();
        }
        self.driver.queue.clear();
        self.driver.queued_wait_ms = 0;
        let time_ms = self.now();
        let stop = Stop::new(reason, line, command, reached_ms, time_ms, commands_left);
        self.narration.push(Line::stopped(time_ms, stop.clone()));
        self.stopped = Some(stop);
        self.stopped.as_ref()
    }

    pub(super) fn stop_for_memory(&mut self, counted: u64) {
        let budget = self.memory_budget.unwrap_or(0);
        self.stop(StopReason::Memory { budget, counted });
    }

    /// Why the run stopped before its end, if it did.
    /// Forgets the last stop: a command queued after it starts a new run.
    pub fn forget_stop(&mut self) {
        self.stopped = None;
    }

    pub fn stopped(&self) -> Option<&Stop> {
        self.stopped.as_ref()
    }

    /// Back to the rollback clone, then forward through the commands that
    /// finished since: the session at the end of the last finished command.
    fn roll_back(&mut self) {
        let Some(snapshot) = self.driver.snapshot.take() else {
            return;
        };
        let since = std::mem::take(&mut self.driver.since);
        let mut back = *snapshot;
        // It ran once within the budget: it is not stopped again.
        back.memory_budget = None;
        back.external_bytes = self.external_bytes;
        for q in since {
            back.start_queued(q);
            back.finish_current();
        }
        // What the replay said was said the first time.
        back.narration = std::mem::take(&mut self.narration);
        back.memory_budget = self.memory_budget;
        back.driver.start_ms = self.driver.start_ms;
        back.driver.commands_total = self.driver.commands_total;
        back.driver.commands_done = self.driver.commands_done;
        *self = back;
    }

    /// Takes a rollback clone at this command boundary if the last one is
    /// missing or `SNAPSHOT_EVERY` work old.
    pub(super) fn snapshot_if_due(&mut self) {
        if !self.rollback_clones {
            return;
        }
        let d = &self.driver;
        if d.snapshot.is_some() && self.work < d.snapshot_work.saturating_add(SNAPSHOT_EVERY) {
            return;
        }
        let narration = std::mem::take(&mut self.narration);
        let clone = self.clone();
        self.narration = narration;
        self.driver.snapshot = Some(Box::new(clone));
        self.driver.snapshot_work = self.work;
        self.driver.since.clear();
    }

    /// [`Session::step_event`] bounded by work, for a run that lets time
    /// pass outside any command (the timeline's `wait`): steps until
    /// something is narrated, simulated time `limit` is reached (the clock
    /// then moves there), the work reaches `stop_at`, or memory is over the
    /// budget (counted at fixed points of the work, as inside commands). A
    /// paused call goes on exactly where it was when called again, so any
    /// slicing gives the same run.
    pub(super) fn step_event_bounded(&mut self, limit: u64, stop_at: u64) -> Stepped {
        if self.driver.in_command() {
            return Stepped::Reached;
        }
        self.driver.forget_snapshot();
        let before = self.narration.len();
        loop {
            if self.narration.len() != before {
                return Stepped::Narrated;
            }
            if self.work >= stop_at {
                return Stepped::Paused;
            }
            if let Some(counted) = self.over_budget() {
                return Stepped::OverBudget(counted);
            }
            if !self.fleet_mut().step(limit) {
                self.fleet_mut().run_until(limit);
                self.after_time();
                return Stepped::Reached;
            }
            self.work += 1;
            self.after_time();
        }
    }

    /// Counts memory if it is due; returns what was counted if it is over
    /// the budget.
    pub(super) fn over_budget(&mut self) -> Option<u64> {
        let budget = self.memory_budget?;
        if self.work < self.next_check {
            return None;
        }
        let counted = self.memory_bytes().saturating_add(self.external_bytes);
        self.next_check = self
            .work
            .saturating_add(CHECK_EVERY.max(counted / CHECK_SPACING_BYTES));
        (counted > budget).then_some(counted)
    }

    /// Bytes this session may hold before its run is stopped (`None`: no
    /// limit). The default is [`DEFAULT_MEMORY_BUDGET`].
    pub fn set_memory_budget(&mut self, budget: Option<u64>) {
        self.memory_budget = budget;
        self.next_check = self.work;
    }

    pub fn memory_budget(&self) -> Option<u64> {
        self.memory_budget
    }

    /// Bytes the session's owner holds for it (a timeline's checkpoints),
    /// counted against the budget with the session's own.
    pub fn set_external_bytes(&mut self, bytes: u64) {
        self.external_bytes = bytes;
    }

    /// Work done so far: engine steps and commands.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// A counted estimate of the bytes this session holds: the cluster (logs,
    /// snapshots, applied state, messages in flight, requests waiting,
    /// the safety checker's records), the results, history and narration,
    /// the queue and the rollback clone. What it shares with others (a
    /// timeline's checkpoints) counts for its share.
    pub fn memory_bytes(&self) -> u64 {
        let mut m = Meter::new();
        m.add(size_of::<Session>());
        self.heap_size(&mut m);
        m.bytes()
    }

    /// Counts what the session owns beyond itself.
    pub fn heap_size(&self, m: &mut Meter) {
        self.fleet().heap_size(m);
        self.results.heap_size(m, Some(weigh_result));
        self.history.heap_size(m, Some(weigh_line));
        narration_heap_size(&self.narration, m);
        m.vec(&self.events);
        self.nowait.heap_size(m);
        self.driver.heap_size(m);
    }
}

/// Counts narrated lines not taken yet.
pub(crate) fn narration_heap_size(lines: &Vec<Line>, m: &mut Meter) {
    m.vec(lines);
    for line in lines {
        match &line.said {
            Said::Event(e) => e.heap_size(m),
            Said::Result(r) => r.heap_size(m),
            Said::Say(spoken) => {
                m.string(&spoken.en);
                if let Some(ja) = &spoken.ja {
                    m.string(ja);
                }
                let facts = &spoken.facts;
                m.vec(&facts.voters);
                m.vec(&facts.learners);
                if let Some(v) = &facts.value {
                    m.string(v);
                }
            }
            Said::Stopped(stop) => m.string(&stop.message),
        }
    }
}

/// The driver's rollback clone is a session: it counts as one.
impl HeapSize for Session {
    fn heap_size(&self, m: &mut Meter) {
        Session::heap_size(self, m);
    }
}
