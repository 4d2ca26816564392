//! What a run went through: how often each interesting path happened, read
//! from the session's narrated event stream and its command results (no
//! hook in the engine). Summed over a campaign, a path with a count of 0 is
//! one the campaign never reached.
//!
//! Events count once per member they happen on (a change applied on three
//! members counts three), in every cluster of the run (the mirror's copy
//! too); results count once per command, the final phase's included.

use std::collections::BTreeMap;
use std::fmt;

use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::lang::ast::Command;
use crate::lang::parse::parse_command;
use crate::raft::RaftEvent;
use crate::server::error::ErrorCode;
use crate::session::narrate::{Line, Said};
use crate::session::report::CommandResult;
use crate::sim::{EventKind, MirrorEvent, ModeDecision};

/// The paths counted, by the event or result that shows each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Path {
    /// etcd-raft `becomeLeader`.
    ElectionsWon,
    /// `becomeCandidate`.
    ElectionsStarted,
    /// `becomePreCandidate`.
    PreVotesStarted,
    /// `stepLeader` on `MsgCheckQuorum`, no quorum active.
    CheckQuorumStepDowns,
    /// `maybeSendSnapshot`.
    SnapshotsSent,
    /// `restore` on a follower.
    SnapshotsRestored,
    /// `stepLeader` on `MsgTransferLeader`: started, ignored, aborted.
    TransfersStarted,
    TransfersIgnored,
    TransfersAborted,
    /// `ErrProposalDropped`.
    ProposalsDropped,
    /// A single-member change applied on a member, or refused there by
    /// `ValidateConfigurationChange`.
    ConfChangesApplied,
    ConfChangesRefused,
    /// A joint change (`member change`, ConfChangeV2) applied or refused.
    JointChangesApplied,
    JointChangesRefused,
    /// `member promote`: answered ok, or with an error.
    PromotionsAccepted,
    PromotionsRefused,
    /// The strict reconfiguration check refused a member change
    /// (`unhealthy`, `not-enough-started-members`).
    StrictCheckRefusals,
    /// The modes: an automatic promotion proposed, a standby promoted.
    AutoPromotions,
    Failovers,
    /// A watch cancelled by a compaction (`WatchResponse.CompactRevision`).
    WatchesCancelled,
    /// A mirror process ended with an error.
    MirrorFailures,
    Crashes,
    /// A removed member stopped itself (`stopWithDelay`, or refused by a peer).
    RemovedMembersStopped,
}

impl Path {
    pub const ALL: [Path; 23] = [
        Path::ElectionsWon,
        Path::ElectionsStarted,
        Path::PreVotesStarted,
        Path::CheckQuorumStepDowns,
        Path::SnapshotsSent,
        Path::SnapshotsRestored,
        Path::TransfersStarted,
        Path::TransfersIgnored,
        Path::TransfersAborted,
        Path::ProposalsDropped,
        Path::ConfChangesApplied,
        Path::ConfChangesRefused,
        Path::JointChangesApplied,
        Path::JointChangesRefused,
        Path::PromotionsAccepted,
        Path::PromotionsRefused,
        Path::StrictCheckRefusals,
        Path::AutoPromotions,
        Path::Failovers,
        Path::WatchesCancelled,
        Path::MirrorFailures,
        Path::Crashes,
        Path::RemovedMembersStopped,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Path::ElectionsWon => "elections-won",
            Path::ElectionsStarted => "elections-started",
            Path::PreVotesStarted => "pre-votes-started",
            Path::CheckQuorumStepDowns => "check-quorum-step-downs",
            Path::SnapshotsSent => "snapshots-sent",
            Path::SnapshotsRestored => "snapshots-restored",
            Path::TransfersStarted => "leader-transfers-started",
            Path::TransfersIgnored => "leader-transfers-ignored",
            Path::TransfersAborted => "leader-transfers-aborted",
            Path::ProposalsDropped => "proposals-dropped",
            Path::ConfChangesApplied => "conf-changes-applied",
            Path::ConfChangesRefused => "conf-changes-refused-at-apply",
            Path::JointChangesApplied => "joint-changes-applied",
            Path::JointChangesRefused => "joint-changes-refused-at-apply",
            Path::PromotionsAccepted => "promotions-accepted",
            Path::PromotionsRefused => "promotions-refused",
            Path::StrictCheckRefusals => "strict-check-refusals",
            Path::AutoPromotions => "automatic-promotions-proposed",
            Path::Failovers => "failovers-to-a-standby",
            Path::WatchesCancelled => "watches-cancelled",
            Path::MirrorFailures => "mirror-failures",
            Path::Crashes => "crashes",
            Path::RemovedMembersStopped => "removed-members-stopped",
        }
    }
}

/// The name an error code's count goes by.
fn error_name(code: ErrorCode) -> String {
    format!("error {}", code.as_str())
}

/// The counts of one run, or of a campaign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    paths: [u64; Path::ALL.len()],
    /// By [`ErrorCode::ALL`]'s order.
    errors: [u64; ErrorCode::ALL.len()],
}

impl Default for Coverage {
    fn default() -> Self {
        Coverage {
            paths: [0; Path::ALL.len()],
            errors: [0; ErrorCode::ALL.len()],
        }
    }
}

impl Coverage {
    pub fn count(&self, path: Path) -> u64 {
        self.paths[path as usize]
    }

    pub fn errors(&self, code: ErrorCode) -> u64 {
        ErrorCode::ALL
            .iter()
            .position(|&c| c == code)
            .map_or(0, |i| self.errors[i])
    }

    fn bump(&mut self, path: Path) {
        self.paths[path as usize] += 1;
    }

    /// Counts the events among narrated `lines`.
    pub fn observe(&mut self, lines: &[Line]) {
        for line in lines {
            if let Said::Event(e) = &line.said {
                if let Some(path) = event_path(&e.kind) {
                    self.bump(path);
                }
            }
        }
    }

    /// Counts the finished commands' answers: promotions and error codes.
    pub fn observe_results<'a>(&mut self, results: impl IntoIterator<Item = &'a CommandResult>) {
        for r in results.into_iter().filter(|r| !r.pending) {
            if let Some(i) = r
                .error
                .and_then(|e| ErrorCode::ALL.iter().position(|c| c.as_str() == e))
            {
                self.errors[i] += 1;
                if matches!(
                    ErrorCode::ALL[i],
                    ErrorCode::Unhealthy | ErrorCode::NotEnoughStartedMembers
                ) {
                    self.bump(Path::StrictCheckRefusals);
                }
            }
            if matches!(parse_command(&r.command), Ok(Command::MemberPromote { .. })) {
                self.bump(if r.ok {
                    Path::PromotionsAccepted
                } else {
                    Path::PromotionsRefused
                });
            }
        }
    }

    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &Coverage) {
        for (a, b) in self.paths.iter_mut().zip(other.paths) {
            *a += b;
        }
        for (a, b) in self.errors.iter_mut().zip(other.errors) {
            *a += b;
        }
    }

    /// Every count by its name: the paths, then the error codes.
    pub fn entries(&self) -> Vec<(String, u64)> {
        let paths = Path::ALL
            .iter()
            .map(|&p| (p.name().to_string(), self.count(p)));
        let errors = ErrorCode::ALL
            .iter()
            .zip(self.errors)
            .map(|(&c, n)| (error_name(c), n));
        paths.chain(errors).collect()
    }

    /// The counts named in `map`, which must name each exactly.
    pub fn from_entries(map: &BTreeMap<String, u64>) -> Result<Coverage, String> {
        let mut c = Coverage::default();
        for (i, p) in Path::ALL.iter().enumerate() {
            c.paths[i] = *map.get(p.name()).ok_or_else(|| missing(p.name()))?;
        }
        for (i, &code) in ErrorCode::ALL.iter().enumerate() {
            let name = error_name(code);
            c.errors[i] = *map.get(&name).ok_or_else(|| missing(&name))?;
        }
        match map
            .keys()
            .find(|k| !c.entries().iter().any(|(n, _)| n == *k))
        {
            Some(unknown) => Err(format!(
                "the coverage names {unknown:?}, no path of this raftlab"
            )),
            None => Ok(c),
        }
    }
}

fn missing(name: &str) -> String {
    format!("the coverage has no count for {name:?}")
}

/// The path an event shows, if it is one counted.
fn event_path(kind: &EventKind) -> Option<Path> {
    use RaftEvent as R;
    Some(match kind {
        EventKind::Raft { event, .. } => match event {
            R::BecameLeader { .. } => Path::ElectionsWon,
            R::BecameCandidate { .. } => Path::ElectionsStarted,
            R::BecamePreCandidate { .. } => Path::PreVotesStarted,
            R::StepDownNoQuorum { .. } => Path::CheckQuorumStepDowns,
            R::SnapshotSent { .. } => Path::SnapshotsSent,
            R::SnapshotRestored { .. } => Path::SnapshotsRestored,
            R::TransferStarted { .. } => Path::TransfersStarted,
            R::TransferIgnored { .. } => Path::TransfersIgnored,
            R::TransferAborted { .. } => Path::TransfersAborted,
            R::ProposalDropped { .. } => Path::ProposalsDropped,
            _ => return None,
        },
        EventKind::ConfChangeApplied { refused: None, .. } => Path::ConfChangesApplied,
        EventKind::ConfChangeApplied { .. } => Path::ConfChangesRefused,
        EventKind::JointChangeApplied { refused: None, .. } => Path::JointChangesApplied,
        EventKind::JointChangeApplied { .. } => Path::JointChangesRefused,
        EventKind::Mode { decision, .. } => match decision {
            ModeDecision::Promote { .. } => Path::AutoPromotions,
            ModeDecision::FailoverPromote { .. } => Path::Failovers,
            _ => return None,
        },
        EventKind::WatchCanceled { .. } => Path::WatchesCancelled,
        EventKind::Mirror(MirrorEvent::Failed { .. }) => Path::MirrorFailures,
        EventKind::Crashed { .. } => Path::Crashes,
        EventKind::StoppedRemoved { .. } => Path::RemovedMembersStopped,
        _ => return None,
    })
}

/// As a JSON object, every count by its name, in [`Coverage::entries`]' order.
impl Serialize for Coverage {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let entries = self.entries();
        let mut map = s.serialize_map(Some(entries.len()))?;
        for (name, n) in &entries {
            map.serialize_entry(name, n)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Coverage {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<String, u64>::deserialize(d)?;
        Coverage::from_entries(&map).map_err(serde::de::Error::custom)
    }
}

/// Every count on a line of its own, then the paths never reached.
impl fmt::Display for Coverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let entries = self.entries();
        let width = entries.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
        for (name, n) in &entries {
            writeln!(f, "  {name:<width$}  {n}")?;
        }
        let never: Vec<&str> = entries
            .iter()
            .filter(|(_, n)| *n == 0)
            .map(|(name, _)| name.as_str())
            .collect();
        match never.is_empty() {
            true => write!(f, "every path counted was reached"),
            false => write!(f, "never reached: {}", never.join(", ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_path_has_its_own_place_and_name() {
        for (i, p) in Path::ALL.iter().enumerate() {
            assert_eq!(*p as usize, i, "{p:?}");
        }
        let c = Coverage::default();
        let names: std::collections::BTreeSet<String> =
            c.entries().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names.len(), Path::ALL.len() + ErrorCode::ALL.len());
    }

    #[test]
    fn the_counts_go_to_json_and_back_and_a_wrong_name_is_refused() {
        let mut c = Coverage::default();
        c.bump(Path::SnapshotsSent);
        c.errors[3] = 7;
        let json = serde_json::to_string(&c).unwrap();
        assert!(json.starts_with("{\"elections-won\":0,"), "{json}");
        assert_eq!(serde_json::from_str::<Coverage>(&json).unwrap(), c);
        let unknown = json.replace("\"crashes\"", "\"crashes-twice\"");
        let e = serde_json::from_str::<Coverage>(&unknown).unwrap_err();
        assert!(e.to_string().contains("no count for \"crashes\""), "{e}");
        let extra = json.replacen('{', "{\"elections-lost\":1,", 1);
        let e = serde_json::from_str::<Coverage>(&extra).unwrap_err();
        assert!(e.to_string().contains("\"elections-lost\", no path"), "{e}");
        let mut twice = c.clone();
        twice.add(&c);
        assert_eq!(twice.count(Path::SnapshotsSent), 2);
        assert_eq!(twice.errors(ErrorCode::ALL[3]), 14);
    }
}
