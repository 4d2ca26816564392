//! Time travel over one run: scrub back to any moment, step back through the
//! narrated events, play forward again, and act in the past, which keeps the
//! old future as a branch one can return to.
//!
//! A [`Timeline`] owns the live [`Session`] and the run as *timed commands*
//! ([`TimedCommand`]: each command of the history with the simulated times it
//! started and ended). Because the engine is deterministic, the cluster at
//! any moment is a pure function of the run and the moment, so travelling is
//! replaying: [`Timeline::seek`] restores the nearest checkpoint (a clone of
//! the session, taken every couple of simulated seconds) at or before the
//! target and replays the commands from there.
//!
//! # The state at a moment
//!
//! `seek(t)` shows the run at `t` with every command that *starts* at or
//! before `t` applied:
//!
//! - a command that takes no time (`crash 2` at 5000 ms) is included at its
//!   own moment: `seek(5000)` shows node 2 down;
//! - a command that lets time pass while it waits for the cluster (`put`,
//!   `get`, the `member` commands, `transfer-leader`, `wait-until`) cannot be
//!   shown half done: a moment inside it lands where it **ends**, and
//!   `seek` returns that time (it is the only case where `seek(t)` does not
//!   land at `t`); commands that start at that end are not applied;
//! - `wait N` is plain time passing: a moment inside it lands exactly there.
//!
//! # Idle time is a `wait`
//!
//! The history writes the time that passes between commands as `wait`
//! lines, and a script replays each of them as a command (which, like any
//! command, sets what `expect ok` / `expect error=...` look at). The
//! timeline runs the live edge the same way: when a command follows idle
//! time, that time becomes a `wait` entry first. So the live run, a `seek`
//! to any moment, and the exported script replayed by `raftlab run` all see
//! the same states. (The narration does not show these implicit waits.)
//!
//! # Branches
//!
//! Acting (any command) while positioned in the past cuts the run at the
//! current moment: the commands after it are saved as a branch (listed by
//! [`Timeline::branches`], restored by [`Timeline::switch_branch`]) and a new
//! branch continues from the moment. If nothing but idle time follows the
//! moment, nothing is lost (idle time replays identically) and no branch is
//! saved.
//!
//! Layer 4: no browser types; the wasm front end wraps this type.

use crate::collections::vecmap::{VecMap, VecSet};
use std::rc::Rc;
use std::sync::Arc;

use serde::Serialize;

use crate::collections::heap::{Meter, Seen};
use crate::raft::NodeId;
use crate::server::Cluster;

use crate::lang::ast::{ClusterSpec, Command, Script};
use crate::lang::parse::{parse_command, parse_script, ParseError};
use crate::session::driver::{Queued, Stepped};
use crate::session::exec::{passes_time, Session};
use crate::session::narrate::{Line, Said};
use crate::session::refusal::Refusal;
use crate::session::report::CommandResult;
use crate::session::stop::{Progress, Stop, StopReason, STOPPED};
use std::collections::VecDeque;

/// A moment a new leader was first seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LeaderChange {
    pub at_ms: u64,
    pub id: NodeId,
    pub term: u64,
}

/// Simulated time between two checkpoints.
pub const DEFAULT_CHECKPOINT_EVERY_MS: u64 = 2_000;
/// Checkpoints kept per branch before old ones are thinned out.
pub const DEFAULT_MAX_CHECKPOINTS: usize = 48;
/// Checkpoints a branch that is not the current one keeps beyond its fork.
pub const DEFAULT_SAVED_BRANCH_CHECKPOINTS: usize = 16;

/// How densely a timeline keeps checkpoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimelineConfig {
    /// A checkpoint is taken each time the run passes this much simulated
    /// time since the last one.
    pub checkpoint_every_ms: u64,
    /// About this many checkpoints per branch: an eighth more, and the
    /// branch is thinned back to this many, removing one at a time where
    /// they are densest (the first and the newest eighth excepted), so the
    /// gaps stay even as the run grows. A checkpoint is a clone of the
    /// session whose logs, stores and safety-checker records are shared
    /// chunks, so it costs only what changed since the last one; together
    /// they keep what each member held at their moments (a 10-minute
    /// timeline under 50 writes/s: about 80 MB, docs/performance.md).
    /// [`Timeline::memory_bytes`] counts them.
    pub max_checkpoints: usize,
    /// A branch that is left keeps at most this many checkpoints of its own
    /// (past its fork; those before are shared with its parent).
    pub saved_branch_checkpoints: usize,
}

impl Default for TimelineConfig {
    fn default() -> Self {
        TimelineConfig {
            checkpoint_every_ms: DEFAULT_CHECKPOINT_EVERY_MS,
            max_checkpoints: DEFAULT_MAX_CHECKPOINTS,
            saved_branch_checkpoints: DEFAULT_SAVED_BRANCH_CHECKPOINTS,
        }
    }
}

/// One command of the run, with when it ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TimedCommand {
    /// Simulated time the command started.
    pub at_ms: u64,
    /// Simulated time it ended (`at_ms` for a command that takes no time).
    pub end_ms: u64,
    /// Its canonical text, as the history writes it.
    pub text: String,
    /// A `wait` standing for idle time between two commands at the live
    /// edge, not a command anyone typed.
    pub idle: bool,
    #[serde(skip)]
    cmd: Arc<Command>,
}

impl TimedCommand {
    pub fn command(&self) -> &Command {
        &self.cmd
    }

    fn is_wait(&self) -> bool {
        matches!(*self.cmd, Command::Wait(_))
    }
}

/// A session part-way along the run: the first `next` entries are done
/// (entry `next`, if it is a `wait`, may be partly done).
#[derive(Debug, Clone)]
struct Checkpoint {
    at_ms: u64,
    next: usize,
    session: Rc<Session>,
    /// Bytes it holds beyond the checkpoint before it (which it mostly
    /// shares), and that checkpoint's session (null: none), or `None`
    /// until measured.
    bytes: u64,
    base: Option<*const Session>,
    /// For the newest checkpoint: the blocks its measuring walk met (its
    /// own and those of the checkpoints walked before it, all still held),
    /// so the next checkpoint's walk starts from them.
    seen: Option<Seen>,
}

impl Checkpoint {
    fn new(at_ms: u64, next: usize, session: Rc<Session>) -> Checkpoint {
        Checkpoint {
            at_ms,
            next,
            session,
            bytes: 0,
            base: None,
            seen: None,
        }
    }
}

/// Measures what each checkpoint adds to the one before it, where that is
/// not known yet (a new checkpoint, or one whose predecessor was thinned
/// out). Cheap: each such walk counts only the blocks the checkpoint before
/// does not hold, starting from the blocks that checkpoint's own walk met
/// (kept on the newest), or else by walking it. The others are not walked:
/// after a thinning, two walks re-measure the one whose predecessor went,
/// not a walk of every checkpoint after it.
fn measure(cps: &mut [Checkpoint]) {
    // The walk that measured the checkpoint before, to go on from.
    let mut carry: Option<Meter> = None;
    for i in 0..cps.len() {
        let prev = i.checked_sub(1).map(|j| cps[j].session.clone());
        let base = prev.as_ref().map_or(std::ptr::null(), Rc::as_ptr);
        if cps[i].base == Some(base) {
            carry = None;
            continue;
        }
        let kept = i.checked_sub(1).and_then(|j| cps[j].seen.take());
        let mut m = match (carry.take(), kept, &prev) {
            (Some(m), _, _) => m,
            (None, Some(seen), _) => Meter::deduplicating_from(seen),
            (None, None, Some(p)) => {
                let mut m = Meter::deduplicating();
                p.heap_size(&mut m);
                m
            }
            (None, None, None) => Meter::deduplicating(),
        };
        let before = m.bytes();
        m.add(std::mem::size_of::<Session>());
        cps[i].session.heap_size(&mut m);
        cps[i].bytes = m.bytes() - before;
        cps[i].base = Some(base);
        carry = Some(m);
    }
    if let (Some(m), Some(last)) = (carry, cps.last_mut()) {
        last.seen = Some(m.into_seen());
    }
}

/// One line of development of the run.
#[derive(Debug, Clone)]
struct Branch {
    id: u32,
    parent: Option<u32>,
    /// The moment it parted from its parent (0 for the first branch).
    fork_ms: u64,
    /// The entries it shares with its parent.
    fork_next: usize,
    run: Vec<TimedCommand>,
    /// The furthest moment reached on this branch.
    end_ms: u64,
    /// Events due at `end_ms` were all run (time was let pass up to it, or
    /// a step finished there), even if the last command ended at `end_ms`.
    tail_idle: bool,
    /// Moments something was narrated (events between commands, and the
    /// end of each command): where `step_back` stops.
    marks: VecSet<u64>,
    checkpoints: Vec<Checkpoint>,
    /// Where the user was when they left it (for a saved branch).
    left_at_ms: u64,
    /// For the page's scrubber: the moments a new leader was first seen
    /// (leader id, term), noted at narrated moments of the live edge.
    leaders: VecMap<u64, (NodeId, u64)>,
}

/// A branch as the page lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BranchInfo {
    pub id: u32,
    /// The branch it parted from.
    pub parent: Option<u32>,
    /// The moment it parted.
    pub fork_ms: u64,
    pub end_ms: u64,
    /// Where the user left it (the current branch: where they are now).
    pub left_at_ms: u64,
    /// Commands on it (idle time not counted), from time 0.
    pub commands: usize,
    /// The first command after the fork: what makes it different.
    pub first: Option<String>,
    pub current: bool,
}

/// A run one can travel in. See the module documentation.
#[derive(Debug, Clone)]
pub struct Timeline {
    config: TimelineConfig,
    spec: ClusterSpec,
    branch: Branch,
    saved: Vec<Branch>,
    next_branch_id: u32,
    /// The session at the current moment.
    session: Session,
    /// Entries of `branch.run` done in `session`.
    next: usize,
    /// Narration not yet taken.
    narration: Vec<Line>,
    /// The commands queued and the one in progress (see
    /// [`Timeline::run_slice`]); a clone starts without them.
    run: Runner,
    /// The memory budget of the live session, whichever session that is
    /// (a seek brings back a checkpoint's).
    budget: Option<u64>,
    /// What was counted at the last checkpoint, if it was over the budget.
    over: Option<u64>,
}

/// Work between two rollback clones of a run in slices: a cancel replays
/// at most about this much.
pub const ROLLBACK_EVERY: u64 = 1 << 15;

/// A command waiting in a timeline's queue: a session's queued command
/// (one type for both queues: one copy of the queue's code in the module),
/// its `line` unused (the line is the branch's when it begins).
type Next = Queued;

/// What a cut-short command changed in the branch, to be put back.
#[derive(Debug, Clone)]
struct Undo {
    /// Entries before the command.
    cut: usize,
    /// When it started.
    at_ms: u64,
    /// Whether a mark, and which election, were noted at that moment
    /// before it started.
    mark: bool,
    leader: Option<(NodeId, u64)>,
}

/// How the command in progress runs.
#[derive(Debug, Clone, Copy)]
enum Doing {
    /// A `wait`: the live edge runs to `end`, event by event, noting
    /// marks and taking checkpoints; `stop` is the moment the stepping in
    /// progress runs to (the end or the next checkpoint).
    Wait { end: u64, stop: Option<u64> },
    /// Any other command: queued in the session, which runs it in slices.
    Session,
}

#[derive(Debug)]
struct InProgress {
    next: Next,
    line: usize,
    undo: Undo,
    doing: Doing,
}

/// A session at a command boundary of the run, and the entries done in it.
#[derive(Debug)]
struct Rollback {
    session: Session,
    next: usize,
    work: u64,
}

/// The run in slices: not part of the timeline's state.
#[derive(Debug, Default)]
struct Runner {
    queue: VecDeque<Next>,
    /// The queue's `wait`s, added up (for the progress).
    queued_wait_ms: u64,
    current: Option<Box<InProgress>>,
    rollback: Option<Box<Rollback>>,
    start_ms: u64,
    commands_total: usize,
    commands_done: usize,
    /// The result of the last command that finished.
    last: Option<CommandResult>,
    /// Why the last run stopped before its end, if it did.
    stopped: Option<Stop>,
    /// A seek going on in slices (see [`Timeline::begin_seek`]).
    seek: Option<Box<Seeking>>,
}

/// A seek going on in slices: the replay and the session it runs in, shown
/// once it reaches its moment.
#[derive(Debug)]
struct Seeking {
    session: Session,
    replay: Replay,
    /// The moment the replay started from (for the progress).
    from_ms: u64,
}

impl Clone for Runner {
    fn clone(&self) -> Runner {
        Runner::default()
    }
}

impl Runner {
    fn running(&self) -> bool {
        self.current.is_some() || !self.queue.is_empty() || self.seek.is_some()
    }
}

/// How driving the command in progress ended.
enum Driven {
    Done,
    Paused,
    Stopped(StopReason),
}

impl Timeline {
    /// A fresh cluster as the `cluster` line describes it, at time 0.
    pub fn new(spec: &ClusterSpec) -> Timeline {
        Timeline::with_config(spec, TimelineConfig::default())
    }

    pub fn with_config(spec: &ClusterSpec, config: TimelineConfig) -> Timeline {
        let config = TimelineConfig {
            checkpoint_every_ms: config.checkpoint_every_ms.max(1),
            max_checkpoints: config.max_checkpoints.max(4),
            saved_branch_checkpoints: config.saved_branch_checkpoints,
        };
        let mut session = Session::new(spec);
        // The timeline undoes a command cut short itself (see `stop`).
        session.rollback_clones = false;
        let narration = session.take_narration();
        let mut marks = VecSet::new();
        if !narration.is_empty() {
            marks.insert(0);
        }
        let mut first = [Checkpoint::new(0, 0, Rc::new(session.clone()))];
        measure(&mut first);
        let [first] = first;
        Timeline {
            config,
            spec: spec.clone(),
            branch: Branch {
                id: 1,
                parent: None,
                fork_ms: 0,
                fork_next: 0,
                run: Vec::new(),
                end_ms: 0,
                tail_idle: false,
                marks,
                checkpoints: vec![first],
                left_at_ms: 0,
                leaders: VecMap::new(),
            },
            saved: Vec::new(),
            next_branch_id: 2,
            session,
            next: 0,
            narration,
            run: Runner::default(),
            budget: Some(crate::session::stop::DEFAULT_MEMORY_BUDGET),
            over: None,
        }
    }

    /// Parses a script and runs all of it; the timeline stands at its end.
    /// A script that does not parse runs nothing.
    pub fn from_script(src: &str) -> Result<Timeline, ParseError> {
        Ok(Timeline::run_script(&parse_script(src)?))
    }

    /// Runs every command of a parsed script, as if typed one after the
    /// other at the live edge.
    pub fn run_script(script: &Script) -> Timeline {
        Timeline::run_script_with(script, TimelineConfig::default())
    }

    /// [`Timeline::run_script`] with checkpoints kept as `config` says.
    pub fn run_script_with(script: &Script, config: TimelineConfig) -> Timeline {
        let mut t = Timeline::queued_with(script, config);
        t.finish();
        t
    }

    /// A timeline at time 0 with the script's commands queued, none run
    /// yet: run them with [`Timeline::run_slice`].
    pub fn queued(script: &Script) -> Timeline {
        Timeline::queued_with(script, TimelineConfig::default())
    }

    /// [`Timeline::queued`] with checkpoints kept as `config` says.
    pub fn queued_with(script: &Script, config: TimelineConfig) -> Timeline {
        let mut t = Timeline::with_config(&script.cluster, config);
        for cmd in &script.commands {
            t.queue(Arc::clone(&cmd.node));
        }
        t
    }

    // ---- running in slices -------------------------------------------------------

    /// Queues a command to run at the live edge after those queued. With
    /// nothing running and the timeline in the past, it first starts a
    /// branch at the current moment (see the module documentation).
    pub fn queue(&mut self, cmd: Arc<Command>) {
        // A command acts at the moment sought: the seek ends first.
        self.finish_seek();
        if !self.run.running() {
            if !self.is_live() {
                self.fork();
            }
            let now = self.now();
            let r = &mut self.run;
            r.start_ms = now;
            r.commands_total = 0;
            r.commands_done = 0;
            r.stopped = None;
            r.rollback = None;
        }
        if let Command::Wait(ms) = *cmd {
            self.run.queued_wait_ms = self.run.queued_wait_ms.saturating_add(ms);
        }
        self.run.commands_total += 1;
        let text = cmd.to_string();
        self.run.queue.push_back(Queued { line: 0, text, cmd });
    }

    /// Parses a console command and queues it; a line that does not parse
    /// queues nothing.
    pub fn queue_command(&mut self, line: &str) -> Result<(), ParseError> {
        let cmd = parse_command(line)?;
        self.queue(Arc::new(cmd));
        Ok(())
    }

    /// Commands are queued or one is in progress. Meanwhile the run owns
    /// the timeline: time travel and `advance` do nothing.
    pub fn is_running(&self) -> bool {
        self.run.running()
    }

    /// Runs queued commands for at most `work` units of work (the
    /// session's: engine steps and commands; at least one), then returns
    /// how far the run is. A command cut by the end of the slice goes on
    /// in the next one, exactly where it was: the entries, checkpoints,
    /// marks and narration are those of the run in one go.
    pub fn run_slice(&mut self, work: u64) -> Progress {
        if self.run.seek.is_some() {
            return self.seek_slice(work);
        }
        let stop_at = self.session.work.saturating_add(work.max(1));
        loop {
            if self.run.current.is_some() {
                match self.drive(stop_at) {
                    Driven::Done => self.end_current(),
                    Driven::Paused => break,
                    Driven::Stopped(reason) => {
                        self.stop(reason);
                        break;
                    }
                }
            } else if self.session.work >= stop_at {
                break;
            } else if let Some(next) = self.run.queue.pop_front() {
                if let Command::Wait(ms) = *next.cmd {
                    self.run.queued_wait_ms = self.run.queued_wait_ms.saturating_sub(ms);
                }
                self.begin(next);
            } else {
                break;
            }
        }
        if !self.run.running() {
            self.run.rollback = None;
        }
        self.progress()
    }

    /// Runs everything queued to its end, in one go.
    pub fn finish(&mut self) {
        while self.run.running() {
            self.run_slice(u64::MAX);
        }
    }

    /// How far the run of queued commands is: simulated time since it
    /// began, and that plus the `wait`s left (`wait-until` and requests
    /// add what they take when they take it).
    pub fn progress(&self) -> Progress {
        let r = &self.run;
        if let Some(s) = &r.seek {
            return s.replay.progress(&s.session, s.from_ms, &self.branch);
        }
        let now = self.now();
        let mut left = r.queued_wait_ms;
        if let Some(InProgress {
            doing: Doing::Wait { end, .. },
            ..
        }) = r.current.as_deref()
        {
            left = left.saturating_add(end.saturating_sub(now));
        }
        Progress::at(
            r.running(),
            now,
            r.start_ms,
            left,
            r.commands_done,
            r.commands_total,
        )
    }

    /// The result of the last command that finished.
    pub fn last_result(&self) -> Option<&CommandResult> {
        self.run.last.as_ref()
    }

    /// Why the last run stopped before its end, if it did.
    pub fn stopped(&self) -> Option<&Stop> {
        self.run.stopped.as_ref()
    }

    /// Stops the run at the last finished command (the page's Cancel): the
    /// command in progress is undone, the queued ones dropped; the run is
    /// as if its script had ended there, and the narration says so.
    /// `None` if nothing was running.
    pub fn cancel(&mut self) -> Option<Stop> {
        self.stop(StopReason::Cancelled)
    }

    /// Stops the run (see [`Timeline::cancel`]) for `reason`.
    pub fn stop(&mut self, reason: StopReason) -> Option<Stop> {
        // A seek is dropped: the moment shown stays.
        self.run.seek = None;
        if !self.run.running() {
            return None;
        }
        self.pull_narration();
        // A stop the session made itself (its memory budget) is said
        // once, by the timeline.
        while matches!(
            self.narration.last().map(|l| &l.said),
            Some(Said::Stopped(_))
        ) {
            self.narration.pop();
        }
        let reached_ms = self.now();
        let cur = self.run.current.take();
        let next_line = self.line();
        let (line, command) = match (&cur, self.run.queue.front()) {
            (Some(c), _) => (Some(c.line), Some(c.next.text.clone())),
            (None, Some(q)) => (Some(next_line), Some(q.text.clone())),
            (None, None) => (None, None),
        };
        let commands_left = self.run.queue.len() + usize::from(cur.is_some());
        if let Some(c) = cur {
            self.undo(&c.undo);
        }
        self.run.queue.clear();
        self.run.queued_wait_ms = 0;
        self.run.rollback = None;
        let time_ms = self.now();
        let stop = Stop::new(reason, line, command, reached_ms, time_ms, commands_left);
        self.narration.push(Line::stopped(time_ms, stop.clone()));
        self.session.stopped = Some(stop.clone());
        self.run.stopped = Some(stop.clone());
        Some(stop)
    }

    /// Bytes the run may hold, the timeline's checkpoints counted, before
    /// it is stopped (`None`: no limit; the default is
    /// `slice::DEFAULT_MEMORY_BUDGET`).
    pub fn set_memory_budget(&mut self, budget: Option<u64>) {
        self.budget = budget;
        self.session.set_memory_budget(budget);
    }

    pub fn memory_budget(&self) -> Option<u64> {
        self.budget
    }

    /// Makes `session` the live one, with the timeline's budget.
    fn adopt(&mut self, mut session: Session) {
        session.stopped = None;
        if session.memory_budget() != self.budget {
            session.set_memory_budget(self.budget);
        }
        let held = self.held_bytes();
        session.set_external_bytes(held);
        self.session = session;
    }

    /// Begins a queued command at the live edge (what `act` did at once).
    fn begin(&mut self, next: Next) {
        let now = self.now();
        let last = self.last_end();
        if now > last || self.branch.tail_idle {
            // The idle time since the last command becomes a `wait`.
            let gap = now - last;
            let entry = TimedCommand {
                at_ms: last,
                end_ms: now,
                text: Command::Wait(gap).to_string(),
                idle: true,
                cmd: Arc::new(Command::Wait(gap)),
            };
            self.pull_narration();
            let line = self.line();
            finish_wait(&mut self.session, &entry, line, &mut self.narration);
            self.branch.run.push(entry);
            self.next += 1;
        }
        self.branch.tail_idle = false;
        let line = self.line();
        if let Some(counted) = self.over.take().or_else(|| self.session.over_budget()) {
            self.run.queue.push_front(next);
            let budget = self.session.memory_budget.unwrap_or(0);
            self.stop(StopReason::Memory { budget, counted });
            return;
        }
        let undo = Undo {
            cut: self.branch.run.len(),
            at_ms: now,
            mark: self.branch.marks.contains(&now),
            leader: self.branch.leaders.get(&now).copied(),
        };
        if passes_time(&next.cmd) {
            self.rollback_if_due();
        }
        let doing = if let Command::Wait(ms) = *next.cmd {
            Doing::Wait {
                end: now.saturating_add(ms),
                stop: None,
            }
        } else {
            self.session.stopped = None;
            self.session.queue(line, &next.text, Arc::clone(&next.cmd));
            Doing::Session
        };
        self.run.current = Some(Box::new(InProgress {
            next,
            line,
            undo,
            doing,
        }));
    }

    /// Runs the command in progress until it ends, the work reaches
    /// `stop_at`, or it must stop.
    fn drive(&mut self, stop_at: u64) -> Driven {
        let Some(cur) = self.run.current.as_deref() else {
            return Driven::Done;
        };
        match cur.doing {
            Doing::Session => {
                let left = stop_at.saturating_sub(self.session.work);
                self.session.run_slice(left);
                if let Some(stop) = &self.session.stopped {
                    let (budget, counted) = (
                        stop.budget_bytes.unwrap_or(0),
                        stop.counted_bytes.unwrap_or(0),
                    );
                    return Driven::Stopped(StopReason::Memory { budget, counted });
                }
                if self.session.is_running() {
                    Driven::Paused
                } else {
                    Driven::Done
                }
            }
            Doing::Wait { end, mut stop } => {
                // `live_run(end)`, resumable: the stepping in progress goes
                // on to the moment it was running to.
                let driven = loop {
                    let target = match stop {
                        Some(t) => t,
                        None => {
                            self.checkpoint_if_due();
                            if let Some(counted) = self.over.take() {
                                let budget = self.budget.unwrap_or(0);
                                break Driven::Stopped(StopReason::Memory { budget, counted });
                            }
                            if self.session.now() >= end {
                                break Driven::Done;
                            }
                            let t = end.min(self.checkpoint_due());
                            stop = Some(t);
                            t
                        }
                    };
                    match self.session.step_event_bounded(target, stop_at) {
                        Stepped::Narrated => {
                            self.branch.marks.insert(self.session.now());
                            self.note_leader();
                        }
                        Stepped::Reached => {
                            self.pull_narration();
                            self.branch.tail_idle = true;
                            self.branch.end_ms = self.session.now();
                            stop = None;
                        }
                        Stepped::Paused => break Driven::Paused,
                        Stepped::OverBudget(counted) => {
                            let budget = self.session.memory_budget.unwrap_or(0);
                            break Driven::Stopped(StopReason::Memory { budget, counted });
                        }
                    }
                };
                if let Some(cur) = self.run.current.as_deref_mut() {
                    cur.doing = Doing::Wait { end, stop };
                }
                driven
            }
        }
    }

    /// Records the command in progress, which ended.
    fn end_current(&mut self) {
        let Some(cur) = self.run.current.take() else {
            return;
        };
        let InProgress {
            next,
            line,
            undo,
            doing,
        } = *cur;
        let result = match doing {
            Doing::Wait { end, .. } => {
                let entry = TimedCommand {
                    at_ms: undo.at_ms,
                    end_ms: end,
                    text: next.text,
                    idle: false,
                    cmd: next.cmd,
                };
                let r = finish_wait(&mut self.session, &entry, line, &mut self.narration);
                self.branch.run.push(entry);
                r
            }
            Doing::Session => {
                let r = self
                    .session
                    .results()
                    .last()
                    .cloned()
                    .unwrap_or_else(|| CommandResult::new(line, next.text.clone()));
                self.branch.run.push(TimedCommand {
                    at_ms: undo.at_ms,
                    end_ms: self.session.now(),
                    text: next.text,
                    idle: false,
                    cmd: next.cmd,
                });
                r
            }
        };
        self.next += 1;
        self.branch.tail_idle = false;
        self.pull_narration();
        let end = self.session.now();
        let cmd = &self.branch.run[self.branch.run.len() - 1].cmd;
        if !matches!(**cmd, Command::Say { .. } | Command::Pause) {
            self.branch.marks.insert(end);
            self.note_leader();
        }
        self.branch.end_ms = end;
        self.checkpoint_if_due();
        self.run.last = Some(result);
        self.run.commands_done += 1;
    }

    /// Keeps a clone of the session at this command boundary, if the last
    /// one is missing or `ROLLBACK_EVERY` work old.
    fn rollback_if_due(&mut self) {
        let work = self.session.work;
        if let Some(r) = &self.run.rollback {
            if work < r.work.saturating_add(ROLLBACK_EVERY) {
                return;
            }
        }
        self.pull_narration();
        self.run.rollback = Some(Box::new(Rollback {
            session: self.session.clone(),
            next: self.next,
            work,
        }));
    }

    /// Puts the branch and the session back as they were when the command
    /// `undo` describes started.
    fn undo(&mut self, undo: &Undo) {
        self.pull_narration();
        let at = undo.at_ms;
        let b = &mut self.branch;
        b.run.truncate(undo.cut);
        b.end_ms = at;
        b.tail_idle = false;
        let _ = b.marks.split_off(&at);
        if undo.mark {
            b.marks.insert(at);
        }
        let _ = b.leaders.split_off(&at);
        if let Some(l) = undo.leader {
            b.leaders.insert(at, l);
        }
        b.checkpoints
            .retain(|c| c.at_ms <= at && c.next <= undo.cut);
        measure(&mut b.checkpoints);
        let (mut session, mut next) = match self.run.rollback.take() {
            Some(r) if r.next <= undo.cut => (r.session, r.next),
            _ => {
                let cp = self.checkpoint_at(at);
                ((*cp.session).clone(), cp.next)
            }
        };
        let mut dropped = Vec::new();
        replay(&mut session, &mut next, &self.branch, at, &mut dropped);
        self.adopt(session);
        self.next = next;
    }

    // ---- reading ---------------------------------------------------------------

    /// A counted estimate of the bytes the timeline holds: the session at
    /// the current moment, the checkpoints of every branch (each for what
    /// it adds to the one before it: they share most of their logs), the
    /// runs and the narration. Cheap: the checkpoints were measured when
    /// they were taken.
    pub fn memory_bytes(&self) -> u64 {
        self.session
            .memory_bytes()
            .saturating_add(self.held_bytes())
    }

    /// The session at the current moment (read it; act through the timeline).
    /// Its own `history()` is not the run's: use [`Timeline::history`].
    pub fn session(&self) -> &Session {
        &self.session
    }

    pub fn cluster(&self) -> &Cluster {
        self.session.cluster()
    }

    pub fn spec(&self) -> &ClusterSpec {
        &self.spec
    }

    pub fn config(&self) -> TimelineConfig {
        self.config
    }

    /// The current moment.
    pub fn now(&self) -> u64 {
        self.session.now()
    }

    /// The furthest moment of the current branch (the live edge).
    pub fn end(&self) -> u64 {
        self.branch.end_ms
    }

    /// The run's length in simulated time (runs start at 0).
    pub fn duration(&self) -> u64 {
        self.branch.end_ms
    }

    /// At the live edge: time moves forward by running the cluster, and a
    /// command extends the run instead of starting a branch.
    pub fn is_live(&self) -> bool {
        self.next == self.branch.run.len() && self.session.now() >= self.branch.end_ms
    }

    /// The current branch's commands with their times (idle time included,
    /// as `wait` entries marked `idle`).
    pub fn entries(&self) -> &[TimedCommand] {
        &self.branch.run
    }

    /// The moments `step_back` may stop at, in order.
    pub fn marks(&self) -> Vec<u64> {
        self.branch.marks.iter().copied().collect()
    }

    /// The times of the current branch's checkpoints, in order.
    pub fn checkpoint_times(&self) -> Vec<u64> {
        self.branch.checkpoints.iter().map(|c| c.at_ms).collect()
    }

    /// The current branch as a script: the `cluster` line, every command,
    /// and a `wait` for the idle time after the last one. Replaying it (with
    /// `Session::from_script` or `Timeline::from_script`) reaches the end of
    /// the branch in the same state.
    pub fn history(&self) -> Vec<String> {
        let mut h = Vec::with_capacity(self.branch.run.len() + 2);
        h.push(self.spec.to_string());
        h.extend(self.branch.run.iter().map(|e| e.text.clone()));
        let last = self.last_end();
        if self.branch.end_ms > last || self.branch.tail_idle {
            h.push(Command::Wait(self.branch.end_ms - last).to_string());
        }
        h
    }

    /// [`Timeline::history`] as one text, one line each, ending in a newline.
    pub fn script(&self) -> String {
        let mut s = self.history().join("\n");
        s.push('\n');
        s
    }

    /// The lines narrated since the last call. Replays for `seek` and
    /// `step_back` narrate nothing; playing forward through the past with
    /// `advance` or `step_event` narrates as the live run did.
    pub fn take_narration(&mut self) -> Vec<Line> {
        self.pull_narration();
        std::mem::take(&mut self.narration)
    }

    pub fn status_json(&self) -> serde_json::Value {
        self.session.status_json()
    }

    pub fn report_json(&self) -> serde_json::Value {
        self.session.report_json()
    }

    /// The current branch id.
    pub fn branch_id(&self) -> u32 {
        self.branch.id
    }

    /// Every branch, the current one included, by id.
    pub fn branches(&self) -> Vec<BranchInfo> {
        let mut all: Vec<BranchInfo> = self
            .saved
            .iter()
            .map(|b| branch_info(b, false))
            .chain(std::iter::once({
                let mut i = branch_info(&self.branch, true);
                i.left_at_ms = self.now();
                i
            }))
            .collect();
        crate::collections::vecmap::sort_by_u32_key(&mut all, |b| b.id);
        all
    }

    // ---- acting ----------------------------------------------------------------

    /// Parses and runs one console command. A line that does not parse
    /// changes nothing. In the past, it first starts a branch (see the
    /// module documentation).
    pub fn command(&mut self, line: &str) -> Result<CommandResult, ParseError> {
        let cmd = parse_command(line)?;
        Ok(self.execute(cmd))
    }

    /// Runs one parsed command at the current moment (after anything
    /// queued, all of it in one go). A command the memory budget stops is
    /// undone and its result has the error `stopped`.
    pub fn execute(&mut self, cmd: Command) -> CommandResult {
        let line = self.line();
        let cmd = Arc::new(cmd);
        self.queue(Arc::clone(&cmd));
        self.finish();
        if self.run.stopped.is_none() {
            if let Some(r) = &self.run.last {
                return r.clone();
            }
        }
        let mut result = CommandResult::new(line, cmd.to_string());
        result.ok = false;
        result.error = Some(STOPPED);
        result.detail = self.run.stopped.as_ref().map(|s| s.message.clone());
        result
    }

    /// Moves time forward by `ms`. At the live edge this runs the cluster
    /// (the browser's animation); in the past it plays the run forward (and
    /// past the edge, runs live). Returns the new moment.
    pub fn advance(&mut self, ms: u64) -> u64 {
        if ms == 0 || self.run.running() {
            return self.now();
        }
        let target = self.now().saturating_add(ms);
        if !self.is_live() {
            let t = target.min(self.branch.end_ms);
            self.play_to(t);
        }
        if self.is_live() && target > self.now() {
            self.live_run(target, false);
        }
        self.now()
    }

    /// Runs to the next narrated event, at most `limit_ms` ahead. In the
    /// past: to the next narrated moment of the run. Returns false if
    /// nothing was narrated within the limit (time still moved to it).
    pub fn step_event(&mut self, limit_ms: u64) -> bool {
        if self.run.running() {
            return false;
        }
        let limit = self.now().saturating_add(limit_ms);
        if !self.is_live() {
            let now = self.now();
            let next = self
                .branch
                .marks
                .range(now + 1..)
                .next()
                .copied()
                .filter(|&m| m <= limit && m <= self.branch.end_ms);
            if let Some(m) = next {
                self.play_to(m);
                return true;
            }
            self.play_to(limit.min(self.branch.end_ms));
            if !self.is_live() || limit <= self.now() {
                return false;
            }
        }
        self.live_run(limit, true)
    }

    /// Goes to moment `t_ms` (clamped to the run's end) and returns where it
    /// landed: `t_ms` itself, unless a command that lets time pass spans it,
    /// in which case the command's end. Nothing is narrated.
    pub fn seek(&mut self, t_ms: u64) -> u64 {
        self.run.seek = None;
        if self.run.running() {
            return self.now();
        }
        let t = t_ms.min(self.branch.end_ms);
        let (mut session, mut next) = self.start_for(t);
        let mut dropped = Vec::new();
        replay(&mut session, &mut next, &self.branch, t, &mut dropped);
        self.pull_narration();
        self.adopt(session);
        self.next = next;
        self.now()
    }

    /// Starts going to moment `t_ms` (as [`Timeline::seek`]) in slices:
    /// [`Timeline::run_slice`] replays on and shows the moment once it is
    /// reached; until then the moment shown stays, [`Timeline::progress`]
    /// says how far the replay is and [`Timeline::cancel`] drops it. A new
    /// target while a seek goes on replaces it, going on from where the
    /// replay is when that is on the way. Returns where it will land; while
    /// commands run, nothing changes (the current moment).
    pub fn begin_seek(&mut self, t_ms: u64) -> u64 {
        let t = t_ms.min(self.branch.end_ms);
        if let Some(s) = self.run.seek.as_deref_mut() {
            let at = s.session.now();
            let cps = &self.branch.checkpoints;
            let nearest = checkpoint_index(cps, t);
            if at <= t && (nearest <= s.replay.checkpoint || cps[nearest].at_ms <= at) {
                s.replay.retarget(&mut s.session, t);
                return landing(&self.branch.run, t);
            }
            self.run.seek = None;
        }
        if self.run.running() {
            return self.now();
        }
        let (mut session, next) = self.start_for(t);
        let from_ms = session.now();
        let mut replay = Replay::new(&mut session, next, t);
        replay.checkpoint = checkpoint_index(&self.branch.checkpoints, from_ms);
        self.run.seek = Some(Box::new(Seeking {
            session,
            replay,
            from_ms,
        }));
        landing(&self.branch.run, t)
    }

    /// A seek goes on in slices.
    pub fn is_seeking(&self) -> bool {
        self.run.seek.is_some()
    }

    /// Commands are queued or one is in progress (a seek aside).
    pub fn is_running_commands(&self) -> bool {
        self.run.current.is_some() || !self.run.queue.is_empty()
    }

    /// Replays the seek going on for at most `work` units of work; shows
    /// its moment when it is reached.
    fn seek_slice(&mut self, work: u64) -> Progress {
        let Some(mut s) = self.run.seek.take() else {
            return self.progress();
        };
        if s.replay.run(&mut s.session, &self.branch, work) {
            let Seeking {
                session, replay, ..
            } = *s;
            self.pull_narration();
            self.adopt(session);
            self.next = replay.next;
        } else {
            self.run.seek = Some(s);
        }
        self.progress()
    }

    /// Ends a seek going on, in one go.
    fn finish_seek(&mut self) {
        while self.run.seek.is_some() {
            self.seek_slice(u64::MAX);
        }
    }

    /// Steps back to the latest narrated moment strictly before now that can
    /// be shown on its own (a moment inside a command that lets time pass
    /// lands at the command's end, so it is skipped), or to time 0 if there
    /// is none. Returns the new moment, or `None` at the very beginning.
    pub fn step_back(&mut self) -> Option<u64> {
        // From the moment shown: a seek going on gives way.
        self.run.seek = None;
        if self.run.running() {
            return None;
        }
        let now = self.now();
        let candidates = self
            .branch
            .marks
            .range(..now)
            .rev()
            .copied()
            .chain(std::iter::once(0));
        for c in candidates {
            if landing(&self.branch.run, c) < now {
                return Some(self.seek(c));
            }
        }
        None
    }

    /// Goes back to the live edge of the current branch (`seek(end)`).
    pub fn go_live(&mut self) -> u64 {
        self.seek(self.branch.end_ms)
    }

    /// Makes branch `id` current, at the moment it was left; the branch
    /// being left is kept. Returns the moment, or the refusal naming the id
    /// (rendered in the reader's language by the page). While a run goes
    /// on, nothing changes.
    pub fn switch_branch(&mut self, id: u32) -> Result<u64, Refusal> {
        if id == self.branch.id || self.is_running_commands() {
            return Ok(self.now());
        }
        self.run.seek = None;
        let Some(i) = self.saved.iter().position(|b| b.id == id) else {
            return Err(Refusal::NoBranch(id));
        };
        let target = self.saved.remove(i);
        let mut left = std::mem::replace(&mut self.branch, target);
        left.left_at_ms = self.now();
        thin_saved(&mut left, self.config.saved_branch_checkpoints);
        self.saved.push(left);
        self.pull_narration();
        // The session belongs to the branch left: start again from time 0.
        self.session = (*self.branch.checkpoints[0].session).clone();
        self.next = 0;
        let at = self.branch.left_at_ms;
        Ok(self.seek(at))
    }

    // ---- elections, for the page's scrubber ------------------------------------

    /// The current branch's elections: each moment a new leader was first
    /// seen at the live edge, as (time, leader, term), in order. Noted at
    /// narrated moments, so an election inside a command that lets time pass
    /// (`wait-until leader`) shows at the command's end.
    pub fn leader_changes(&self) -> Vec<LeaderChange> {
        self.branch
            .leaders
            .iter()
            .map(|(&at_ms, &(id, term))| LeaderChange { at_ms, id, term })
            .collect()
    }

    /// Notes the leader at the live edge if it is new (another node, or
    /// the same node in a later term).
    fn note_leader(&mut self) {
        let cluster = self.session.cluster();
        let Some(id) = cluster.leader() else {
            return;
        };
        let term = cluster.world().raft(id).map_or(0, |r| r.term());
        let last = self.branch.leaders.values().next_back().copied();
        if last != Some((id, term)) {
            self.branch.leaders.insert(self.session.now(), (id, term));
        }
    }

    // ---- inside ----------------------------------------------------------------

    fn last_end(&self) -> u64 {
        self.branch.run.last().map_or(0, |e| e.end_ms)
    }

    fn pull_narration(&mut self) {
        self.narration.extend(self.session.take_narration());
    }

    fn line(&self) -> usize {
        self.next + 2
    }

    /// The latest checkpoint at or before `t` (the first is at time 0).
    fn checkpoint_at(&self, t: u64) -> &Checkpoint {
        let cps = &self.branch.checkpoints;
        &cps[checkpoint_index(cps, t)]
    }

    /// Where to replay from to reach `t`: the current session when it is at
    /// or before `t` and no checkpoint is closer, else the nearest checkpoint.
    fn start_for(&self, t: u64) -> (Session, usize) {
        let cp = self.checkpoint_at(t);
        let now = self.session.now();
        if now <= t && now >= cp.at_ms && self.next >= cp.next {
            (self.session.clone(), self.next)
        } else {
            ((*cp.session).clone(), cp.next)
        }
    }

    /// Plays forward from the current session to `t` (not past the end),
    /// keeping the narration.
    fn play_to(&mut self, t: u64) {
        self.pull_narration();
        let mut next = self.next;
        let mut out = Vec::new();
        replay(&mut self.session, &mut next, &self.branch, t, &mut out);
        self.next = next;
        self.narration.extend(out);
    }

    /// Cuts the run at the current moment, saving the future as a branch
    /// when it holds anything but idle time.
    fn fork(&mut self) {
        let now = self.now();
        let cut = self.next;
        let future_matters = self.branch.run[cut..].iter().any(|e| !e.idle);
        if future_matters {
            let mut saved = self.branch.clone();
            saved.left_at_ms = now;
            thin_saved(&mut saved, self.config.saved_branch_checkpoints);
            self.saved.push(saved);
            self.branch.parent = Some(self.branch.id);
            self.branch.id = self.next_branch_id;
            self.next_branch_id += 1;
            self.branch.fork_ms = now;
            self.branch.fork_next = cut;
        }
        self.branch.run.truncate(cut);
        self.branch.end_ms = now;
        self.branch.tail_idle = false;
        let _ = self.branch.marks.split_off(&(now + 1));
        let _ = self.branch.leaders.split_off(&(now + 1));
        self.branch
            .checkpoints
            .retain(|c| c.at_ms <= now && c.next <= cut);
    }

    /// At the live edge: runs to `t`, event by event (noting the moments
    /// something is narrated) and taking checkpoints on the way. With
    /// `stop_at_narration`, stops at the first narrated moment, after every
    /// event due at that moment ran. Returns whether it stopped there.
    fn live_run(&mut self, t: u64, stop_at_narration: bool) -> bool {
        let mut stopped = false;
        loop {
            self.checkpoint_if_due();
            let now = self.session.now();
            if now >= t {
                break;
            }
            let stop = t.min(self.checkpoint_due());
            while self.session.step_event(stop - self.session.now()) {
                self.branch.marks.insert(self.session.now());
                self.note_leader();
                if stop_at_narration {
                    // Finish the moment: a later replay runs it whole.
                    self.session.advance(0);
                    stopped = true;
                    break;
                }
            }
            self.pull_narration();
            self.branch.tail_idle = true;
            self.branch.end_ms = self.session.now();
            if stopped {
                break;
            }
        }
        self.checkpoint_if_due();
        stopped
    }

    /// The gap grows with the run: once it is longer than `max_checkpoints`
    /// gaps, a checkpoint comes each `1 / max_checkpoints` of its length,
    /// about the spacing thinning leaves among the older ones. A long run
    /// then takes checkpoints in proportion to the logarithm of its length
    /// rather than to its length (a 10-minute run: 138 rather than 304),
    /// each a clone and a measuring walk that thinning would mostly throw
    /// away; a seek replays at most that gap.
    fn checkpoint_due(&self) -> u64 {
        let last = self.branch.checkpoints.last().map_or(0, |c| c.at_ms);
        let every = self.config.checkpoint_every_ms;
        let max = self.config.max_checkpoints as u64;
        last.saturating_add(every.max(last / max))
    }

    /// Takes a checkpoint at the live edge if one is due.
    fn checkpoint_if_due(&mut self) {
        if self.session.now() < self.checkpoint_due() {
            return;
        }
        self.pull_narration();
        self.branch.checkpoints.push(Checkpoint::new(
            self.session.now(),
            self.next,
            Rc::new(self.session.clone()),
        ));
        // Thinned an eighth at a time, not one per new checkpoint: a
        // thinning makes the next measuring walk start from scratch.
        let max = self.config.max_checkpoints;
        if self.branch.checkpoints.len() > max + max / 8 {
            thin(
                &mut self.branch.checkpoints,
                self.config.max_checkpoints,
                self.config.max_checkpoints / 8,
            );
        }
        measure(&mut self.branch.checkpoints);
        // The session's memory budget counts the checkpoints too.
        let held = self.held_bytes();
        self.session.set_external_bytes(held);
        // And memory is counted at each checkpoint (a fixed point of the
        // run, however it is sliced), so a run that grows fast is stopped
        // within a checkpoint's gap of its budget. The live session is the
        // newest checkpoint's clone and shares all it holds with it: what
        // the checkpoints hold is what is counted.
        if self.budget.is_some_and(|budget| held > budget) {
            self.over = Some(held);
        }
    }

    /// What was counted when the memory budget was last found exceeded
    /// (at a checkpoint), if it was; taking it clears it. The page stops
    /// its clock then.
    pub fn take_over_budget(&mut self) -> Option<u64> {
        self.over.take()
    }

    /// What the timeline holds besides its live session: each checkpoint
    /// for what it adds to the one before it (a checkpoint shared by
    /// branches once), the runs and the narration.
    fn held_bytes(&self) -> u64 {
        let mut m = Meter::new();
        m.add(std::mem::size_of::<Timeline>());
        let mut counted = VecSet::new();
        for b in std::iter::once(&self.branch).chain(&self.saved) {
            m.vec(&b.run);
            for e in &b.run {
                // The text, and about as much again in the parsed command.
                m.string(&e.text);
                m.add(e.text.len());
            }
            b.marks.heap_size(&mut m);
            b.leaders.heap_size(&mut m);
            m.vec(&b.checkpoints);
            for c in &b.checkpoints {
                if counted.insert(Rc::as_ptr(&c.session)) {
                    m.add(usize::try_from(c.bytes).unwrap_or(usize::MAX));
                }
            }
        }
        crate::session::slice::narration_heap_size(&self.narration, &mut m);
        m.bytes()
    }
}

fn branch_info(b: &Branch, current: bool) -> BranchInfo {
    BranchInfo {
        id: b.id,
        parent: b.parent,
        fork_ms: b.fork_ms,
        end_ms: b.end_ms,
        left_at_ms: b.left_at_ms,
        commands: b.run.iter().filter(|e| !e.idle).count(),
        first: b
            .run
            .iter()
            .skip(b.fork_next)
            .find(|e| !e.idle)
            .map(|e| e.text.clone()),
        current,
    }
}

/// Completes a `wait` entry: runs to its end, then records the `wait`
/// command itself (which takes no more time), as a script's `wait` would.
/// An idle entry's own narration is dropped.
fn finish_wait(
    session: &mut Session,
    e: &TimedCommand,
    line: usize,
    narration: &mut Vec<Line>,
) -> CommandResult {
    session.advance(e.end_ms.saturating_sub(session.now()));
    close_wait(session, e, line, narration)
}

/// Ends wait entry `e` once the session's time has reached its end: the
/// `wait` runs as a command (what `expect` looks at), narrated unless it is
/// idle time.
fn close_wait(
    session: &mut Session,
    e: &TimedCommand,
    line: usize,
    narration: &mut Vec<Line>,
) -> CommandResult {
    narration.extend(session.take_narration());
    let r = session.execute(line, &e.text, Arc::new(Command::Wait(0)));
    let said = session.take_narration();
    if !e.idle {
        narration.extend(said);
    }
    r
}

/// Replays `branch` from a session part-way along it (`next` entries done)
/// to moment `t` in one go: every command that starts at or before `t`,
/// then the time up to `t`. Collects the narration in `out`.
fn replay(session: &mut Session, next: &mut usize, branch: &Branch, t: u64, out: &mut Vec<Line>) {
    let mut r = Replay::new(session, *next, t);
    r.run(session, branch, u64::MAX);
    *next = r.next;
    out.append(&mut r.out);
}

/// A replay of a branch to a moment, resumable: [`Replay::run`] does at
/// most a given amount of work (engine steps and commands, as a run in
/// slices counts it), so a far seek can run a slice per frame. Slices of
/// any size give the replay in one go: the commands run as the live run
/// ran them (queued in the session), and time passes event by event.
#[derive(Debug)]
struct Replay {
    /// Entries of the branch done in `session`.
    next: usize,
    /// The moment it replays to.
    target: u64,
    phase: Phase,
    /// The session's memory budget, put back when the replay ends: the run
    /// went this way once within its budget, and a replay is not stopped
    /// again (it would not be the same run).
    budget: Option<u64>,
    /// The narration of the replay.
    out: Vec<Line>,
    /// The index of the latest checkpoint at or before where it started:
    /// a later target with no later checkpoint goes on from here.
    checkpoint: usize,
    /// The last slice ended inside [`Replay::time_to`]: the next one goes
    /// on with it even when the clock already shows its moment, since
    /// events due at that very moment may be left to run.
    cut: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Between two entries (or inside a `wait`'s time).
    Between,
    /// The entry's command is queued in the session and runs in slices.
    Command,
    /// No entry is left before the target: time runs up to it.
    Tail,
    Done,
}

impl Replay {
    /// Starts replaying in `session`, `next` entries done, to `target`.
    fn new(session: &mut Session, next: usize, target: u64) -> Replay {
        let budget = session.memory_budget();
        session.set_memory_budget(None);
        Replay {
            next,
            target,
            phase: Phase::Between,
            budget,
            out: Vec::new(),
            checkpoint: 0,
            cut: false,
        }
    }

    /// Replays to `target` instead, which is at or after where the replay
    /// is now.
    fn retarget(&mut self, session: &mut Session, target: u64) {
        if self.phase == Phase::Done {
            session.set_memory_budget(None);
        }
        if self.phase != Phase::Command {
            self.phase = Phase::Between;
        }
        self.target = target;
    }

    /// Replays on for at most `work` units of work (at least one); true
    /// once the target is reached.
    fn run(&mut self, session: &mut Session, branch: &Branch, work: u64) -> bool {
        let stop_at = session.work.saturating_add(work.max(1));
        loop {
            match self.phase {
                Phase::Between => {
                    let Some(e) = branch.run.get(self.next) else {
                        self.phase = Phase::Tail;
                        continue;
                    };
                    if e.is_wait() {
                        if self.target < e.end_ms {
                            self.phase = Phase::Tail;
                            continue;
                        }
                        if !self.time_to(session, e.end_ms, stop_at) {
                            return false;
                        }
                        close_wait(session, e, self.next + 2, &mut self.out);
                        self.next += 1;
                    } else {
                        if e.at_ms > self.target {
                            self.phase = Phase::Tail;
                            continue;
                        }
                        if (session.now() < e.at_ms || self.cut)
                            && !self.time_to(session, e.at_ms, stop_at)
                        {
                            return false;
                        }
                        session.queue(self.next + 2, &e.text, Arc::clone(&e.cmd));
                        self.phase = Phase::Command;
                    }
                }
                Phase::Command => {
                    let left = stop_at.saturating_sub(session.work);
                    session.run_slice(left);
                    if session.is_running() {
                        return false;
                    }
                    debug_assert_eq!(
                        Some(session.now()),
                        branch.run.get(self.next).map(|e| e.end_ms),
                        "replay diverged"
                    );
                    self.next += 1;
                    self.phase = Phase::Between;
                }
                Phase::Tail => {
                    let now = session.now();
                    let at_tail = self.next == branch.run.len()
                        && self.target == branch.end_ms
                        && branch.tail_idle;
                    if (now < self.target || self.cut || (at_tail && now == self.target))
                        && !self.time_to(session, self.target, stop_at)
                    {
                        return false;
                    }
                    self.out.extend(session.take_narration());
                    session.set_memory_budget(self.budget);
                    self.phase = Phase::Done;
                }
                Phase::Done => return true,
            }
        }
    }

    /// Lets time pass up to `t`, event by event; false when the work ran
    /// out first (and the next slice goes on with it: `cut`).
    fn time_to(&mut self, session: &mut Session, t: u64, stop_at: u64) -> bool {
        loop {
            match session.step_event_bounded(t, stop_at) {
                Stepped::Reached => {
                    self.cut = false;
                    return true;
                }
                Stepped::Paused => {
                    self.cut = true;
                    return false;
                }
                // No budget during a replay: nothing is over it.
                Stepped::Narrated | Stepped::OverBudget(_) => {}
            }
        }
    }

    /// How far it is, for the page's progress bar: simulated time from
    /// `from_ms` to the target, entries done of those before the target.
    fn progress(&self, session: &Session, from_ms: u64, branch: &Branch) -> Progress {
        let total = branch.run.partition_point(|e| e.at_ms <= self.target);
        let mut p = Progress::at(
            self.phase != Phase::Done,
            session.now(),
            from_ms,
            self.target.saturating_sub(session.now()),
            self.next.min(total),
            total,
        );
        p.seeking = true;
        p
    }
}

/// The index of the latest checkpoint at or before `t`.
fn checkpoint_index(cps: &[Checkpoint], t: u64) -> usize {
    cps.partition_point(|c| c.at_ms <= t).saturating_sub(1)
}

/// Where `seek(t)` lands, without running anything.
fn landing(run: &[TimedCommand], t: u64) -> u64 {
    let mut now = 0;
    for e in run {
        if e.is_wait() {
            if t < e.end_ms {
                break;
            }
        } else if e.at_ms > t {
            break;
        }
        now = now.max(e.end_ms);
    }
    now.max(t)
}

/// Thins checkpoints down to `target`, keeping the first one (time 0) and
/// the newest `recent`; among the others, repeatedly removes the one whose
/// neighbours are closest together, so the gaps left stay even.
fn thin(cps: &mut Vec<Checkpoint>, target: usize, recent: usize) {
    while cps.len() > target.max(recent + 2) {
        let last_removable = cps.len() - recent - 1;
        let mut best: Option<(u64, usize)> = None;
        for i in 1..=last_removable {
            let span = cps[i + 1].at_ms - cps[i - 1].at_ms;
            if best.is_none_or(|(s, _)| span < s) {
                best = Some((span, i));
            }
        }
        match best {
            Some((_, i)) => {
                cps.remove(i);
                // The removed one's blocks may be freed now: a kept walk
                // that met them would mistake new blocks for them.
                for c in cps.iter_mut() {
                    c.seen = None;
                }
            }
            None => break,
        }
    }
}

/// A branch being left keeps its checkpoints up to its fork (shared with
/// its parent, so free) and at most `keep` of its own after.
fn thin_saved(b: &mut Branch, keep: usize) {
    let start = b.checkpoints.partition_point(|c| c.at_ms <= b.fork_ms);
    let own = b.checkpoints.split_off(start);
    let n = own.len();
    if n <= keep {
        b.checkpoints.extend(own);
        return;
    }
    // Evenly spaced, the newest included.
    let picks: VecSet<usize> = (1..=keep).map(|j| j * n / keep - 1).collect();
    b.checkpoints.extend(
        own.into_iter()
            .enumerate()
            .filter(|(i, _)| picks.contains(i))
            .map(|(_, c)| c),
    );
    measure(&mut b.checkpoints);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tl(src: &str) -> Timeline {
        Timeline::from_script(src).unwrap()
    }

    #[test]
    fn a_script_runs_to_its_end_and_its_history_replays_it() {
        let t =
            tl("cluster voters=1,2,3\nwait-until leader\nput a b\nwait 2s\ncrash 2\nwait 1500ms\n");
        assert!(t.is_live());
        let s = Session::from_script(&t.script()).unwrap();
        assert_eq!(s.now(), t.now());
        assert_eq!(s.status_json(), t.status_json());
        assert_eq!(t.history()[0], "cluster voters=1,2,3");
    }

    #[test]
    fn seek_lands_inside_waits_and_after_spanning_commands() {
        let mut t = tl("cluster voters=1,2,3\nwait-until leader\nwait 3s\nput a b\nwait 3s\n");
        let put = t
            .entries()
            .iter()
            .find(|e| e.text == "put a b")
            .unwrap()
            .clone();
        assert!(put.end_ms > put.at_ms);
        assert_eq!(t.seek(put.at_ms - 10), put.at_ms - 10);
        assert_eq!(t.seek(put.at_ms), put.end_ms);
        assert_eq!(t.seek(put.end_ms - 1), put.end_ms);
        assert_eq!(t.seek(put.end_ms + 1), put.end_ms + 1);
        assert_eq!(t.seek(u64::MAX), t.end());
        assert!(t.is_live());
    }

    #[test]
    fn landing_matches_seek() {
        let mut t = tl("cluster voters=1,2,3\nwait-until leader\nput a b\nput c d\nwait 1s\ncrash 1\nwait-until leader\nwait 1s\n");
        let end = t.end();
        for x in (0..=end).step_by(37) {
            let l = landing(&t.branch.run, x);
            assert_eq!(t.seek(x), l, "seek({x})");
        }
    }

    #[test]
    fn idle_time_becomes_a_wait_that_keeps_the_previous_result() {
        let mut t = tl("cluster voters=1,2,3\nwait-until leader\n");
        let promote = t.command("member promote 3").unwrap();
        let code = promote.error.expect("3 is a voter: promoting it fails");
        t.advance(700);
        // The idle time is recorded as a wait, which never fails and so
        // does not hide the result the check is about.
        let r = t.command(&format!("expect error={code}")).unwrap();
        assert!(r.ok, "{r:?}");
        let s = Session::from_script(&t.script()).unwrap();
        assert!(
            s.results().last().unwrap().ok,
            "the history replays it the same"
        );
        assert!(t.entries().iter().any(|e| e.idle && e.text == "wait 700ms"));
    }

    #[test]
    fn thinning_keeps_the_first_and_the_recent_and_evens_the_rest() {
        let mut t = Timeline::with_config(
            &parse_script("cluster voters=1").unwrap().cluster,
            TimelineConfig {
                checkpoint_every_ms: 100,
                max_checkpoints: 16,
                saved_branch_checkpoints: 4,
            },
        );
        t.advance(10_000);
        let times = t.checkpoint_times();
        // Thinned back to 16 once there are an eighth more.
        assert!(times.len() <= 16 + 2, "{times:?}");
        assert_eq!(times[0], 0);
        // The gap grows with the run: a sixteenth of its length at the end.
        assert!(*times.last().unwrap() > 10_000 - 10_000 / 16, "{times:?}");
        let gaps: Vec<u64> = times.windows(2).map(|w| w[1] - w[0]).collect();
        let max = *gaps.iter().max().unwrap();
        assert!(max <= 2 * 10_000 / 12, "{gaps:?}");
        // Not every 100 ms near the end: those would be thinned away.
        assert!(*gaps.last().unwrap() >= 9_000 / 16, "{gaps:?}");
    }

    #[test]
    fn measuring_as_checkpoints_come_and_go_counts_about_what_measuring_afresh_does() {
        let mut t = Timeline::with_config(
            &parse_script("cluster voters=1,2,3").unwrap().cluster,
            TimelineConfig {
                checkpoint_every_ms: 100,
                max_checkpoints: 8,
                saved_branch_checkpoints: 4,
            },
        );
        t.command("load rate=100/s size=64B").unwrap();
        for _ in 0..6 {
            t.advance(3_000);
            let kept = t.held_bytes();
            for c in t.branch.checkpoints.iter_mut() {
                c.base = None;
                c.seen = None;
            }
            measure(&mut t.branch.checkpoints);
            // Afresh, one walk dedups across all of them; as they come, each
            // is counted against those measured since the last thinning, so
            // a block an older one shares may count twice: a little more.
            let afresh = t.held_bytes();
            assert!(
                kept >= afresh && kept - afresh <= afresh / 200,
                "{kept} vs {afresh}"
            );
        }
    }

    #[test]
    fn elections_are_noted_for_the_scrubber_and_cut_by_a_fork() {
        let mut t = tl("cluster voters=1,2,3\nwait-until leader\nwait 2s\n");
        let first = t.leader_changes();
        assert_eq!(first.len(), 1, "{first:?}");
        let (at, leader) = (first[0].at_ms, first[0].id);
        t.command(&format!("crash {leader}")).unwrap();
        t.advance(5_000);
        let both = t.leader_changes();
        assert_eq!(both.len(), 2, "{both:?}");
        assert_ne!(both[1].id, leader);
        // Acting before the second election forgets it on the new branch.
        t.seek(at + 500);
        t.command("put a b").unwrap();
        assert_eq!(t.leader_changes(), first);
    }

    #[test]
    fn step_back_walks_marks_and_stops_at_zero() {
        let mut t = tl("cluster voters=1,2,3\nwait 3s\ncrash 1\nwait 3s\n");
        let mut seen = vec![t.now()];
        while let Some(m) = t.step_back() {
            assert!(m < *seen.last().unwrap());
            seen.push(m);
        }
        assert_eq!(*seen.last().unwrap(), 0);
        assert!(seen.len() > 3, "{seen:?}");
    }
}
