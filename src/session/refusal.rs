//! Why a page action did nothing, as facts: each renderer says it with
//! what the reader can do instead.

use crate::lang::parse::ParseError;
use crate::raft::NodeId;

/// Why a page action did nothing: each says what the reader can do instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Every id of the language's range is taken.
    NoFreeId { max: NodeId },
    /// "Isolate leader" without a leader.
    NoLeaderToIsolate,
    /// A partition preset with fewer than two members.
    TooFewToPartition,
    /// A branch that does not exist.
    NoBranch(u32),
    /// Branches asked for in a lesson, which has none.
    LessonHasNoBranches,
    /// Anything but Cancel while a run goes on in slices (an opened link,
    /// a long console command).
    RunInProgress,
    /// The page's clock stopped: the run holds more than its memory budget.
    ClockOverBudget { budget: u64, counted: u64 },
    /// The modes control: `auto-promote` is not a whole percentage from 1
    /// to 100.
    AutoPromoteRange,
    /// The modes control: `failover-after` out of its range.
    FailoverAfterRange { min_ms: u64, max_ms: u64 },
    /// The modes control: `max-learners` is not a whole number from 0 to
    /// `max`.
    MaxLearnersRange { max: NodeId },
    /// The modes control: a choice that is none of `choices` (which are
    /// the language's words, as typed).
    ModeChoice {
        option: &'static str,
        found: String,
        choices: &'static [&'static str],
    },
    /// The modes control: a value the `cluster` line does not take.
    Modes(ParseError),
}
