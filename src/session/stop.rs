//! A run stopped before its end (a cancel, `raftlab run --max-wall`, the
//! memory budget), as the report's `stopped` says it, and how far a run of
//! queued commands is ([`Progress`]).

use serde::Serialize;

use crate::lang::ast::format_duration;
use crate::text::fixed::Fixed;

/// The default memory budget of a session: 512 MiB counted. What the
/// process really holds is more (the allocator's overhead and free space:
/// docs/performance.md gives the measured figure), and the page also holds its
/// timeline's checkpoints (counted with the session, see
/// `Timeline::memory_bytes`): this keeps a page far inside the 4 GiB a
/// wasm32 module can address at most, and inside the 1 to 2 GiB some
/// browsers give one.
pub const DEFAULT_MEMORY_BUDGET: u64 = 512 << 20;

/// The error of a command the memory budget stopped (`Session::execute`).
pub const STOPPED: &str = "stopped";

/// How far a run of queued commands is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Commands are left to run.
    pub running: bool,
    /// Simulated time since the run began.
    pub done_ms: u64,
    /// `done_ms` plus the `wait`s left (the one in progress included):
    /// `wait-until` and requests add what they take when they take it.
    pub total_ms: u64,
    pub commands_done: usize,
    pub commands_total: usize,
    /// It is a seek replaying the run to a moment (the commands are those
    /// it replays), not a run of new commands.
    pub seeking: bool,
}

impl Progress {
    /// A run that began at `start_ms`, now at `now` with `left_ms` of
    /// known waiting still ahead.
    pub(crate) fn at(
        running: bool,
        now: u64,
        start_ms: u64,
        left_ms: u64,
        commands_done: usize,
        commands_total: usize,
    ) -> Progress {
        let done_ms = now.saturating_sub(start_ms);
        Progress {
            running,
            done_ms,
            total_ms: done_ms.saturating_add(left_ms),
            commands_done,
            commands_total,
            seeking: false,
        }
    }
}

/// Why a run is stopped before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// The user asked (the page's Cancel).
    Cancelled,
    /// The run took longer than its wall-clock limit (`raftlab run
    /// --max-wall`).
    MaxWall { limit_ms: u64 },
    /// The run would hold more than its memory budget.
    Memory { budget: u64, counted: u64 },
}

impl StopReason {
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Cancelled => "cancelled",
            StopReason::MaxWall { .. } => "max-wall",
            StopReason::Memory { .. } => "memory",
        }
    }
}

/// A stopped run, as the report's `stopped` says it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stop {
    /// `cancelled`, `max-wall` or `memory`.
    pub reason: &'static str,
    /// The command cut short (or, stopped between two commands, the next
    /// one); absent when none was left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Simulated time the run had reached when it stopped.
    pub reached_ms: u64,
    /// Simulated time the session is back at: the end of the last command
    /// that finished (the report's `time_ms`).
    pub time_ms: u64,
    /// Commands of the run that did not finish (the one cut short included).
    pub commands_left: usize,
    /// For `memory`: the budget and what was counted, in bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counted_bytes: Option<u64>,
    /// For `max-wall`: the limit, in milliseconds of wall-clock time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_wall_ms: Option<u64>,
    /// One sentence saying what stopped, where and why.
    pub message: String,
}

pub(crate) fn mib(bytes: u64) -> String {
    format!("{} MB", Fixed(bytes as f64 / (1u64 << 20) as f64, 1))
}

impl Stop {
    /// A stop and its sentence: the command cut short (or the next one) at
    /// `line`, the time the run reached and the time it is back at.
    pub(crate) fn new(
        reason: StopReason,
        line: Option<usize>,
        command: Option<String>,
        reached_ms: u64,
        time_ms: u64,
        commands_left: usize,
    ) -> Stop {
        let secs = |ms: u64| format!("t={}s", Fixed(ms as f64 / 1000.0, 2));
        let place = match (line, &command) {
            (Some(l), Some(c)) => format!(" at line {l} (`{c}`)"),
            _ => String::new(),
        };
        let why = match reason {
            StopReason::Cancelled => String::new(),
            StopReason::MaxWall { limit_ms } => format!(
                ": the run took longer than its wall-clock limit of {}",
                format_duration(limit_ms)
            ),
            StopReason::Memory { budget, counted } => format!(
                ": the run would hold more than its memory budget of {} (it counted {})",
                mib(budget),
                mib(counted)
            ),
        };
        let verb = match reason {
            StopReason::Cancelled => "cancelled",
            _ => "stopped",
        };
        let message = format!(
            "{verb}{place}, {}{why}; the run ends with the last command that finished, at {}",
            secs(reached_ms),
            secs(time_ms)
        );
        let (budget_bytes, counted_bytes) = match reason {
            StopReason::Memory { budget, counted } => (Some(budget), Some(counted)),
            _ => (None, None),
        };
        Stop {
            reason: reason.name(),
            line,
            command,
            reached_ms,
            time_ms,
            commands_left,
            budget_bytes,
            counted_bytes,
            max_wall_ms: match reason {
                StopReason::MaxWall { limit_ms } => Some(limit_ms),
                _ => None,
            },
            message,
        }
    }
}
