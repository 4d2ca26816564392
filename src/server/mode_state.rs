//! What the modes' leader remembers between its looks (`modes.rs` decides):
//! each member's kind, the adds proposed, the change in flight, the
//! failover countdowns announced and the last "not yet" said per learner.

use crate::collections::vecmap::{VecMap, VecSet};
use crate::raft::NodeId;
use crate::sim::NotYet;

use super::mode_settings::MemberKind;
use super::request::RequestId;

/// Why a learner's "not yet" is what it is, for saying it only when it
/// changes: the reason's kind, and for a learner behind, its tens of percent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SaidKey {
    Behind(u64),
    NotHeard,
    Snapshot,
    Strict,
    NotTracked,
    NoStandby,
}

pub(super) fn said_key(reason: &NotYet) -> SaidKey {
    match reason {
        NotYet::Behind { percent_now, .. } => SaidKey::Behind(percent_now / 10),
        NotYet::NotHeard { .. } => SaidKey::NotHeard,
        NotYet::Snapshot => SaidKey::Snapshot,
        NotYet::Strict { .. } => SaidKey::Strict,
        NotYet::NotTracked => SaidKey::NotTracked,
        NotYet::NoStandby => SaidKey::NoStandby,
    }
}

/// The modes' memory, kept by the server beside the cluster.
#[derive(Debug, Clone, Default)]
pub(crate) struct ModeState {
    /// Each member's kind, once its add has been applied.
    pub(super) kinds: VecMap<NodeId, MemberKind>,
    /// Kinds of adds proposed and not yet applied, by request.
    pub(super) proposed: VecMap<RequestId, (NodeId, MemberKind)>,
    /// When the leader next looks at its learners and voters.
    pub(super) next_check: u64,
    /// The leader being watched, its term, and since when it led.
    pub(super) tenure: Option<(NodeId, u64, u64)>,
    /// The change the modes proposed last, while it is pending.
    pub(super) in_flight: Option<RequestId>,
    /// Replace, second step: after voter `.0` is removed, promote standby `.1`.
    pub(super) owed: Option<(NodeId, NodeId)>,
    /// Voters already failed over for with `grow` (they stay voters).
    pub(super) grown_for: VecSet<NodeId>,
    /// Voters whose countdown was announced.
    pub(super) counting: VecSet<NodeId>,
    /// The last "not yet" said for each learner (or voter, for failover).
    pub(super) said: VecMap<NodeId, SaidKey>,
}

impl ModeState {
    pub(crate) fn kind(&self, id: NodeId) -> MemberKind {
        self.kinds.get(&id).copied().unwrap_or_default()
    }
}
