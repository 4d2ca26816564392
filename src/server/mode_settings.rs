//! The design document's modes as settings (`ModesConfig` and the choices
//! it holds), and what kind of member each was added as (`MemberKind`).
//! What the leader remembers between its looks is `mode_state.rs`; the
//! decisions themselves are `modes.rs`.

use std::fmt;
use std::str::FromStr;

/// The readiness a standby needs for failover: what auto-promotion asks,
/// at etcd's own 90% (`isLearnerReady`).
pub const STANDBY_READY_PERCENT: u8 = 90;

/// `failover-after` when a script does not say.
pub const DEFAULT_FAILOVER_AFTER_MS: u64 = 10_000;

/// What `member add N` adds when it names neither `--learner` nor `--voter`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum NewMembers {
    /// etcd's behaviour: a voter.
    #[default]
    Voter,
    /// The document's §1: a learner.
    Learner,
}

impl NewMembers {
    pub fn as_str(self) -> &'static str {
        match self {
            NewMembers::Voter => "voter",
            NewMembers::Learner => "learner",
        }
    }
}

impl fmt::Display for NewMembers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for NewMembers {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "voter" => Ok(NewMembers::Voter),
            "learner" => Ok(NewMembers::Learner),
            _ => Err(format!(
                "unknown new-members {s:?}; expected learner or voter"
            )),
        }
    }
}

/// What failover does with a ready standby.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Failover {
    /// Remove the unreachable voter, then promote the standby: the cluster
    /// keeps its size and its fault tolerance.
    #[default]
    Replace,
    /// Only promote the standby: one more voter, a larger quorum.
    Grow,
}

impl Failover {
    pub fn as_str(self) -> &'static str {
        match self {
            Failover::Replace => "replace",
            Failover::Grow => "grow",
        }
    }
}

impl fmt::Display for Failover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Failover {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "replace" => Ok(Failover::Replace),
            "grow" => Ok(Failover::Grow),
            _ => Err(format!("unknown failover {s:?}; expected replace or grow")),
        }
    }
}

/// How a read-only learner answers reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ReadMode {
    /// From its applied state at once, with no message to the leader:
    /// possibly stale.
    Weak,
    /// Through a ReadIndex confirmed by the leader and a quorum of voters,
    /// once it has applied that far: never stale.
    Strong,
}

impl ReadMode {
    pub fn as_str(self) -> &'static str {
        match self {
            ReadMode::Weak => "weak",
            ReadMode::Strong => "strong",
        }
    }
}

impl fmt::Display for ReadMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ReadMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "weak" => Ok(ReadMode::Weak),
            "strong" => Ok(ReadMode::Strong),
            _ => Err(format!("unknown read mode {s:?}; expected weak or strong")),
        }
    }
}

/// The cluster's mode settings (all off by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModesConfig {
    pub new_members: NewMembers,
    /// `auto-promote=PERCENT`, 1 to 100; `None` is off.
    pub auto_promote: Option<u8>,
    pub failover_after_ms: u64,
    pub failover: Failover,
}

impl Default for ModesConfig {
    fn default() -> Self {
        ModesConfig {
            new_members: NewMembers::Voter,
            auto_promote: None,
            failover_after_ms: DEFAULT_FAILOVER_AFTER_MS,
            failover: Failover::Replace,
        }
    }
}

/// What kind of learner a member was added as (a plain learner or voter
/// has the default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct MemberKind {
    pub standby: bool,
    pub read_only: Option<ReadMode>,
}

impl MemberKind {
    pub fn is_plain(self) -> bool {
        self == MemberKind::default()
    }
}

/// A voter the leader has not heard from for longer than an election
/// timeout while a standby could replace it: failover's countdown, as the
/// leader's next look would see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FailoverWatch {
    /// How long the leader has not heard from it.
    pub silent_ms: u64,
    /// `failover-after`.
    pub after_ms: u64,
}

impl FailoverWatch {
    /// Time left before the leader fails over (0: it is due, or waits for
    /// a ready standby).
    pub fn left_ms(&self) -> u64 {
        self.after_ms.saturating_sub(self.silent_ms)
    }
}
