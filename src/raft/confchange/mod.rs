//! Configuration changes (etcd's `confchange/confchange.go`): a simple change
//! of at most one voter, or entering and leaving a joint configuration
//! C_old,new (the Raft dissertation's §4.3). Each returns the new
//! configuration and progress map, or an error and changes nothing.
//!
//! etcd's server only ever makes simple changes, one member at a time (a
//! ConfChange "v1"); joint consensus is what etcd's raft library offers for
//! changing several members at once (a ConfChangeV2).

mod restore;

use std::fmt;

use crate::raft::progress::Progress;
use crate::raft::tracker::{ProgressMap, ProgressTracker, TrackerConfig};
use crate::raft::types::{ConfChangeSingle, ConfChangeType, NodeId};

pub use restore::restore;

/// A configuration and its progress map, as a change produces them.
pub type Changed = (TrackerConfig, ProgressMap);

/// Why a change was refused (etcd's error texts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfChangeError {
    AlreadyJoint,
    ZeroVoterJoint,
    NotJoint,
    SimpleInJoint,
    MoreThanOneVoter,
    RemovedAllVoters,
    /// The configuration broke one of `TrackerConfig`'s invariants.
    Invariant(String),
}

impl ConfChangeError {
    /// etcd's error text (without details for a broken invariant).
    pub fn reason(&self) -> &'static str {
        match self {
            ConfChangeError::AlreadyJoint => "config is already joint",
            ConfChangeError::ZeroVoterJoint => "can't make a zero-voter config joint",
            ConfChangeError::NotJoint => "can't leave a non-joint config",
            ConfChangeError::SimpleInJoint => "can't apply simple config change in joint config",
            ConfChangeError::MoreThanOneVoter => {
                "more than one voter changed without entering joint config"
            }
            ConfChangeError::RemovedAllVoters => "removed all voters",
            ConfChangeError::Invariant(_) => "configuration invariant broken",
        }
    }
}

impl fmt::Display for ConfChangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfChangeError::Invariant(detail) => write!(f, "{detail}"),
            other => write!(f, "{}", other.reason()),
        }
    }
}

/// Computes changes to `tracker`'s configuration (etcd's `Changer`). New
/// peers start probing at `last_index`, this node's last log index.
pub struct Changer<'a> {
    pub tracker: &'a ProgressTracker,
    pub last_index: u64,
}

impl Changer<'_> {
    /// Enters a joint configuration: the current voters become the outgoing
    /// half, and `changes` apply to the incoming half (C_old -> C_old,new).
    pub fn enter_joint(
        &self,
        auto_leave: bool,
        changes: &[ConfChangeSingle],
    ) -> Result<Changed, ConfChangeError> {
        let (mut cfg, mut trk) = self.check_and_copy()?;
        if cfg.voters.is_joint() {
            return Err(ConfChangeError::AlreadyJoint);
        }
        if cfg.voters.incoming.is_empty() {
            // An empty configuration may grow (bootstrap) but not go joint.
            return Err(ConfChangeError::ZeroVoterJoint);
        }
        cfg.voters.outgoing = cfg.voters.incoming.clone();
        self.apply(&mut cfg, &mut trk, changes)?;
        cfg.auto_leave = auto_leave;
        check_and_return(cfg, trk)
    }

    /// Leaves a joint configuration (C_old,new -> C_new): the outgoing half
    /// is dropped, staged learners become learners, and peers in neither
    /// half nor learners are forgotten.
    pub fn leave_joint(&self) -> Result<Changed, ConfChangeError> {
        let (mut cfg, mut trk) = self.check_and_copy()?;
        if !cfg.voters.is_joint() {
            return Err(ConfChangeError::NotJoint);
        }
        for id in std::mem::take(&mut cfg.learners_next) {
            cfg.learners.insert(id);
            if let Some(pr) = trk.get_mut(&id) {
                pr.is_learner = true;
            }
        }
        for id in cfg.voters.outgoing.iter() {
            if !cfg.voters.incoming.contains(id) && !cfg.learners.contains(&id) {
                trk.remove(&id);
            }
        }
        cfg.voters.outgoing = Default::default();
        cfg.auto_leave = false;
        check_and_return(cfg, trk)
    }

    /// Applies `changes` directly, which is safe only if they change at most
    /// one voter (a majority of the old and of the new voters then overlap).
    pub fn simple(&self, changes: &[ConfChangeSingle]) -> Result<Changed, ConfChangeError> {
        let (mut cfg, mut trk) = self.check_and_copy()?;
        if cfg.voters.is_joint() {
            return Err(ConfChangeError::SimpleInJoint);
        }
        self.apply(&mut cfg, &mut trk, changes)?;
        let before = self.tracker.config.voters.incoming.ids();
        let after = cfg.voters.incoming.ids();
        if before.symmetric_difference(after).count() > 1 {
            return Err(ConfChangeError::MoreThanOneVoter);
        }
        check_and_return(cfg, trk)
    }

    /// Changes always apply to the incoming half; the outgoing half keeps
    /// the old voters while joint. Node 0 is skipped (etcd's server zeroes
    /// the id of a change it decided not to apply).
    fn apply(
        &self,
        cfg: &mut TrackerConfig,
        trk: &mut ProgressMap,
        changes: &[ConfChangeSingle],
    ) -> Result<(), ConfChangeError> {
        for cc in changes.iter().filter(|cc| cc.node_id != 0) {
            match cc.change_type {
                ConfChangeType::AddNode => self.make_voter(cfg, trk, cc.node_id),
                ConfChangeType::AddLearnerNode => self.make_learner(cfg, trk, cc.node_id),
                ConfChangeType::RemoveNode => remove(cfg, trk, cc.node_id),
                ConfChangeType::UpdateNode => {}
            }
        }
        if cfg.voters.incoming.is_empty() {
            return Err(ConfChangeError::RemovedAllVoters);
        }
        Ok(())
    }

    /// Adds a voter, or promotes a learner (keeping its progress, so a
    /// caught-up learner counts at once).
    fn make_voter(&self, cfg: &mut TrackerConfig, trk: &mut ProgressMap, id: NodeId) {
        let Some(pr) = trk.get_mut(&id) else {
            return self.init_progress(cfg, trk, id, false);
        };
        pr.is_learner = false;
        cfg.learners.remove(&id);
        cfg.learners_next.remove(&id);
        cfg.voters.incoming.insert(id);
    }

    /// Adds a learner, or demotes a voter keeping its progress. A voter of
    /// the outgoing half is only staged (`learners_next`): it must keep
    /// voting there until the joint configuration is left.
    fn make_learner(&self, cfg: &mut TrackerConfig, trk: &mut ProgressMap, id: NodeId) {
        let Some(pr) = trk.get(&id).cloned() else {
            return self.init_progress(cfg, trk, id, true);
        };
        if pr.is_learner {
            return;
        }
        remove(cfg, trk, id);
        let pr = trk.entry(id).or_insert(pr);
        if cfg.voters.outgoing.contains(id) {
            cfg.learners_next.insert(id);
        } else {
            pr.is_learner = true;
            cfg.learners.insert(id);
        }
    }

    /// A new peer probes from our last index, and counts as recently active
    /// so that CheckQuorum does not depose the leader before it answers.
    fn init_progress(
        &self,
        cfg: &mut TrackerConfig,
        trk: &mut ProgressMap,
        id: NodeId,
        is_learner: bool,
    ) {
        if is_learner {
            cfg.learners.insert(id);
        } else {
            cfg.voters.incoming.insert(id);
        }
        let mut pr = Progress::new(
            self.last_index.max(1),
            self.tracker.max_inflight,
            is_learner,
        );
        pr.recent_active = true;
        trk.insert(id, pr);
    }

    fn check_and_copy(&self) -> Result<Changed, ConfChangeError> {
        check_and_return(self.tracker.config.clone(), self.tracker.progress.clone())
    }
}

/// Removes a voter or learner from the incoming configuration; its progress
/// stays while it still votes in the outgoing half.
fn remove(cfg: &mut TrackerConfig, trk: &mut ProgressMap, id: NodeId) {
    if !trk.contains_key(&id) {
        return;
    }
    cfg.voters.incoming.remove(id);
    cfg.learners.remove(&id);
    cfg.learners_next.remove(&id);
    if !cfg.voters.outgoing.contains(id) {
        trk.remove(&id);
    }
}

fn check_and_return(cfg: TrackerConfig, trk: ProgressMap) -> Result<Changed, ConfChangeError> {
    check_invariants(&cfg, &trk).map_err(ConfChangeError::Invariant)?;
    Ok((cfg, trk))
}

/// `TrackerConfig`'s invariants, and every member having a progress.
fn check_invariants(cfg: &TrackerConfig, trk: &ProgressMap) -> Result<(), String> {
    let members = cfg.voters.ids().into_iter();
    let members = members.chain(cfg.learners.iter().copied());
    if let Some(id) = members
        .chain(cfg.learners_next.iter().copied())
        .find(|id| !trk.contains_key(id))
    {
        return Err(format!("no progress for {id}"));
    }
    for &id in &cfg.learners_next {
        if !cfg.voters.outgoing.contains(id) {
            return Err(format!("{id} is in LearnersNext, but not Voters[1]"));
        }
        if trk[&id].is_learner {
            return Err(format!(
                "{id} is in LearnersNext, but is already marked as learner"
            ));
        }
    }
    for &id in &cfg.learners {
        if cfg.voters.contains(id) {
            return Err(format!("{id} is in Learners and Voters"));
        }
        if !trk[&id].is_learner {
            return Err(format!("{id} is in Learners, but is not marked as learner"));
        }
    }
    if !cfg.voters.is_joint() && (!cfg.learners_next.is_empty() || cfg.auto_leave) {
        return Err("LearnersNext and AutoLeave must be empty when not joint".to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::types::ConfState;

    fn cc(change_type: ConfChangeType, node_id: NodeId) -> ConfChangeSingle {
        ConfChangeSingle {
            change_type,
            node_id,
        }
    }
    use ConfChangeType::{AddLearnerNode as L, AddNode as V, RemoveNode as R};

    /// Runs `f` on a changer over `t` and makes its result `t`'s configuration.
    fn change(
        t: &mut ProgressTracker,
        last_index: u64,
        f: impl FnOnce(Changer) -> Result<Changed, ConfChangeError>,
    ) {
        (t.config, t.progress) = f(Changer {
            tracker: t,
            last_index,
        })
        .unwrap();
    }

    #[test]
    fn add_learner_promote_and_remove() {
        let mut t = ProgressTracker::new(4);
        change(&mut t, 0, |c| c.simple(&[cc(V, 1)]));
        assert_eq!(t.progress[&1].next_idx, 1);
        change(&mut t, 7, |c| c.simple(&[cc(L, 2)]));
        assert_eq!(t.config.to_string(), "voters=(1) learners=(2)");
        let pr = &t.progress[&2];
        assert!(pr.is_learner && pr.recent_active);
        assert_eq!((pr.matched, pr.next_idx), (0, 7));

        // Promotion keeps what the leader knew of the learner's log.
        t.progress.get_mut(&2).unwrap().matched = 9;
        change(&mut t, 12, |c| c.simple(&[cc(V, 2)]));
        assert_eq!(t.config.to_string(), "voters=(1 2)");
        assert_eq!(t.progress[&2].matched, 9);
        assert!(!t.progress[&2].is_learner);

        change(&mut t, 12, |c| c.simple(&[cc(R, 1)]));
        assert_eq!(t.config.to_string(), "voters=(2)");
        assert!(!t.progress.contains_key(&1));
    }

    #[test]
    fn refusals_change_nothing_and_say_why() {
        let mut t = ProgressTracker::new(4);
        change(&mut t, 1, |c| c.simple(&[cc(V, 1), cc(L, 2)]));
        let c = Changer {
            tracker: &t,
            last_index: 1,
        };
        assert_eq!(
            c.simple(&[cc(R, 1)]),
            Err(ConfChangeError::RemovedAllVoters)
        );
        assert_eq!(
            c.simple(&[cc(V, 3), cc(V, 4)]),
            Err(ConfChangeError::MoreThanOneVoter)
        );
        assert_eq!(c.leave_joint(), Err(ConfChangeError::NotJoint));
        let empty = ProgressTracker::new(4);
        let c = Changer {
            tracker: &empty,
            last_index: 1,
        };
        assert_eq!(
            c.enter_joint(true, &[]),
            Err(ConfChangeError::ZeroVoterJoint)
        );
        assert_eq!(
            c.simple(&[cc(L, 3)]),
            Err(ConfChangeError::RemovedAllVoters)
        );
    }

    #[test]
    fn demoting_a_voter_in_a_joint_configuration_stages_it() {
        let mut t = restore(
            &ConfState {
                voters: [1, 2, 3].into(),
                ..Default::default()
            },
            4,
            5,
        )
        .unwrap();
        t.progress.get_mut(&3).unwrap().matched = 4;
        change(&mut t, 5, |c| c.enter_joint(true, &[cc(L, 3), cc(V, 4)]));
        assert_eq!(
            t.config.to_string(),
            "voters=(1 2 4)&&(1 2 3) learners_next=(3) autoleave"
        );
        assert!(
            !t.progress[&3].is_learner,
            "3 still votes in the outgoing half"
        );
        let c = Changer {
            tracker: &t,
            last_index: 5,
        };
        assert_eq!(
            c.enter_joint(false, &[]),
            Err(ConfChangeError::AlreadyJoint)
        );
        assert_eq!(c.simple(&[cc(V, 5)]), Err(ConfChangeError::SimpleInJoint));
        change(&mut t, 5, |c| c.leave_joint());
        assert_eq!(t.config.to_string(), "voters=(1 2 4) learners=(3)");
        assert!(t.progress[&3].is_learner);
        assert_eq!(
            t.progress[&3].matched, 4,
            "the demoted voter keeps its progress"
        );
    }

    #[test]
    fn leaving_forgets_removed_voters() {
        let mut t = restore(
            &ConfState {
                voters: [1, 2, 3].into(),
                ..Default::default()
            },
            4,
            5,
        )
        .unwrap();
        change(&mut t, 5, |c| c.enter_joint(false, &[cc(R, 1), cc(V, 4)]));
        assert_eq!(t.config.to_string(), "voters=(2 3 4)&&(1 2 3)");
        assert!(
            t.progress.contains_key(&1),
            "1 still votes in the outgoing half"
        );
        change(&mut t, 5, |c| c.leave_joint());
        assert_eq!(t.config.to_string(), "voters=(2 3 4)");
        assert!(!t.progress.contains_key(&1));
    }
}
