//! What runs a session, not its state: the queue of commands, the command
//! in progress ([`Current`], with what it still waits for, [`Op`]) and the
//! rollback clone taken at a command boundary. A clone of the session (a
//! checkpoint, the rollback clone itself) starts without them.

use std::mem::size_of;
use std::sync::Arc;

use crate::collections::heap::{HeapSize, Meter};
use crate::lang::ast::{Command, Condition};
use crate::server::RequestId;
use crate::session::report::CommandResult;
use std::collections::VecDeque;

/// Work between two narrations inside a long command: the events a long
/// `wait` produces are turned into sentences (and dropped when they say
/// nothing) as it goes, not all held until it ends.
pub(super) const NARRATE_EVERY: u64 = 1 << 10;

/// A command waiting in the queue, or finished since the rollback clone.
#[derive(Debug, Clone)]
pub(crate) struct Queued {
    pub line: usize,
    pub text: String,
    /// Shared with the script, the timeline's entry and `Running`.
    pub cmd: Arc<Command>,
}

impl Queued {
    pub fn new(line: usize, text: &str, cmd: Arc<Command>) -> Queued {
        Queued {
            line,
            text: text.to_string(),
            cmd,
        }
    }

    pub(super) fn heap_size(&self, m: &mut Meter) {
        m.string(&self.text);
        // The command's own texts (keys, values, narration) are about the
        // length of its line.
        m.add(self.text.len());
    }
}

/// What a command that lets time pass still waits for.
#[derive(Debug, Clone)]
pub(crate) enum Op {
    /// `wait`: time passes until `until`.
    Wait { until: u64 },
    /// `wait-until`: the condition is checked after each step.
    WaitUntil {
        cond: Arc<Condition>,
        deadline: u64,
        within_ms: u64,
        /// The condition is to be looked at before the next step (when the
        /// command starts, and after every step).
        check: bool,
    },
    /// A request waited for: a `put`, a linearizable `get`, `member list`,
    /// a membership change or `transfer-leader`.
    Request {
        /// The cluster it went to (0: the first).
        cluster: usize,
        request: RequestId,
        answer: Answer,
    },
}

/// What a request's answer fills in.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Answer {
    Put,
    Read,
    Deleted,
    Members,
    Done,
}

/// The command in progress.
#[derive(Debug)]
pub(crate) struct Current {
    pub q: Queued,
    pub result: CommandResult,
    pub op: Op,
}

/// The queue, the command in progress and the rollback clone: what runs
/// the session, not its state. A clone of the session (a checkpoint, the
/// rollback clone itself) starts without them.
/// Generic over the session it keeps a clone of, so that this file does
/// not name the `Session` that holds it.
#[derive(Debug)]
pub(crate) struct Driver<S> {
    pub(super) queue: VecDeque<Queued>,
    /// The `wait`s of the queue, added up (for the progress).
    pub(super) queued_wait_ms: u64,
    pub(super) current: Option<Box<Current>>,
    /// The session at a command boundary, and the commands finished since.
    pub(super) snapshot: Option<Box<S>>,
    pub(super) snapshot_work: u64,
    pub(super) since: Vec<Queued>,
    /// The run the progress describes: when it began, its commands.
    pub(super) start_ms: u64,
    pub(super) commands_total: usize,
    pub(super) commands_done: usize,
}

impl<S> Default for Driver<S> {
    fn default() -> Driver<S> {
        Driver {
            queue: VecDeque::new(),
            queued_wait_ms: 0,
            current: None,
            snapshot: None,
            snapshot_work: 0,
            since: Vec::new(),
            start_ms: 0,
            commands_total: 0,
            commands_done: 0,
        }
    }
}

impl<S> Clone for Driver<S> {
    fn clone(&self) -> Driver<S> {
        Driver::default()
    }
}

impl<S: HeapSize> Driver<S> {
    pub fn in_command(&self) -> bool {
        self.current.is_some()
    }

    pub(super) fn running(&self) -> bool {
        self.current.is_some() || !self.queue.is_empty()
    }

    /// Time passed outside any command: the clone no longer leads here by
    /// replaying commands. The next command takes a new one.
    pub fn forget_snapshot(&mut self) {
        self.snapshot = None;
        self.since.clear();
    }

    pub fn set_current(&mut self, q: Queued, result: CommandResult, op: Op) {
        self.current = Some(Box::new(Current { q, result, op }));
    }

    pub fn finished(&mut self, q: Queued) {
        self.commands_done += 1;
        if self.snapshot.is_some() {
            self.since.push(q);
        }
    }

    /// Counts one more command in the run, starting a new run if none is
    /// going on.
    pub fn count_in(&mut self, now: u64) {
        if !self.running() {
            self.start_ms = now;
            self.commands_total = 0;
            self.commands_done = 0;
        }
        self.commands_total += 1;
    }

    pub(super) fn push(&mut self, q: Queued) {
        if let Command::Wait(ms) = *q.cmd {
            self.queued_wait_ms = self.queued_wait_ms.saturating_add(ms);
        }
        self.queue.push_back(q);
    }

    pub(super) fn pop(&mut self) -> Option<Queued> {
        let q = self.queue.pop_front()?;
        if let Command::Wait(ms) = *q.cmd {
            self.queued_wait_ms = self.queued_wait_ms.saturating_sub(ms);
        }
        Some(q)
    }

    pub(super) fn heap_size(&self, m: &mut Meter) {
        m.add(self.queue.capacity() * size_of::<Queued>());
        for q in self.queue.iter() {
            q.heap_size(m);
        }
        if let Some(c) = &self.current {
            m.add(size_of::<Current>());
            c.q.heap_size(m);
            c.result.heap_size(m);
        }
        if let Some(s) = &self.snapshot {
            m.add(size_of::<S>());
            s.heap_size(m);
        }
        m.vec(&self.since);
        for q in &self.since {
            q.heap_size(m);
        }
    }
}

/// What a started command still needs.
pub(super) enum Drive {
    /// It ended.
    Done,
    /// The slice's work is spent; it goes on in the next.
    Paused,
    /// The run holds more than its memory budget (this many bytes).
    OverBudget(u64),
}

/// How a bounded step (`Session::step_event_bounded`) ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stepped {
    /// Something was narrated.
    Narrated,
    /// Simulated time reached the limit.
    Reached,
    /// The work reached its bound.
    Paused,
    /// Memory is over the budget (this many bytes counted).
    OverBudget(u64),
}
