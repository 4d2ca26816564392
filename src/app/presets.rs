//! The page's buttons: each stands for one command of the scenario language,
//! chosen from the cluster as it is now (the next free id, the leader, who
//! is a member), so the history records what the button did.

use crate::raft::NodeId;
use crate::scenario::ast::MAX_NODE_ID;
use crate::scenario::narrate::Refusal;
use crate::scenario::view;
use crate::server::Cluster;

/// The cluster a page opens with when it is given no script, on `seed`.
pub fn default_script(seed: u64) -> String {
    format!("cluster voters=1,2,3 seed={seed} bandwidth=1MB/s\n")
}

/// The peer URL of the "misconfigured" member: it names no simulated host.
pub const MISCONFIGURED_URL: &str = "http://10.0.0.9:2380";

/// What the load button starts.
pub const LOAD: &str = "load rate=20/s size=1KB";

/// A page button.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// Add a member with the next free id: a voter, a learner, or one whose
    /// peer URL reaches no host.
    AddVoter,
    AddLearner,
    AddMisconfigured,
    /// Cut the leader off from everyone.
    IsolateLeader,
    /// Partition the members, the leader's side first: all but one | one,
    /// and half | half.
    Split31,
    Split22,
    HealAll,
    /// Start a write load, or stop the one running.
    ToggleLoad,
}

impl Preset {
    /// The page's name for it (the button's id).
    pub fn named(name: &str) -> Option<Preset> {
        Some(match name {
            "add-voter" => Preset::AddVoter,
            "add-learner" => Preset::AddLearner,
            "add-bad" => Preset::AddMisconfigured,
            "isolate-leader" => Preset::IsolateLeader,
            "split-31" => Preset::Split31,
            "split-22" => Preset::Split22,
            "heal-all" => Preset::HealAll,
            "load" => Preset::ToggleLoad,
            _ => return None,
        })
    }
}

/// The members (removed ones left out), the leader first.
fn leader_first(c: &Cluster) -> Vec<NodeId> {
    let mut ids: Vec<NodeId> = view::nodes(c)
        .into_iter()
        .filter(|n| !n.removed)
        .map(|n| n.id)
        .collect();
    if let Some(leader) = c.leader() {
        ids.retain(|&id| id != leader);
        ids.insert(0, leader);
    }
    ids
}

fn joined(ids: &[NodeId]) -> String {
    ids.iter()
        .map(|id| id.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// A partition with the first `first(n)` members (at least one, at most all
/// but one) on the leader's side.
fn split(c: &Cluster, first: impl Fn(usize) -> usize) -> Result<String, Refusal> {
    let ids = leader_first(c);
    if ids.len() < 2 {
        return Err(Refusal::TooFewToPartition);
    }
    let k = first(ids.len()).max(1).min(ids.len() - 1);
    Ok(format!(
        "partition {} | {}",
        joined(&ids[..k]),
        joined(&ids[k..])
    ))
}

/// The command `p` stands for now, or why it cannot apply.
pub fn command(p: Preset, c: &Cluster) -> Result<String, Refusal> {
    let next_id = || view::next_id(c).ok_or(Refusal::NoFreeId { max: MAX_NODE_ID });
    match p {
        Preset::AddVoter => Ok(format!("member add {}", next_id()?)),
        Preset::AddLearner => Ok(format!("member add {} --learner", next_id()?)),
        Preset::AddMisconfigured => Ok(format!(
            "member add {} --peer-url={MISCONFIGURED_URL}",
            next_id()?
        )),
        Preset::IsolateLeader => c
            .leader()
            .map(|l| format!("isolate {l}"))
            .ok_or(Refusal::NoLeaderToIsolate),
        Preset::Split31 => split(c, |n| n - 1),
        Preset::Split22 => split(c, |n| n / 2),
        Preset::HealAll => Ok("heal".to_string()),
        Preset::ToggleLoad => Ok(if c.load().is_some() {
            "load stop".to_string()
        } else {
            LOAD.to_string()
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::parse_command;
    use crate::scenario::Session;

    fn session(src: &str) -> Session {
        Session::from_script(src).unwrap()
    }

    fn cmd(s: &Session, p: Preset) -> Result<String, Refusal> {
        command(p, s.cluster())
    }

    #[test]
    fn every_preset_is_a_command_that_parses() {
        let s = session("cluster voters=1,2,3 seed=1\nwait-until leader\n");
        for name in [
            "add-voter",
            "add-learner",
            "add-bad",
            "isolate-leader",
            "split-31",
            "split-22",
            "heal-all",
            "load",
        ] {
            let p = Preset::named(name).unwrap();
            let text = cmd(&s, p).unwrap();
            assert!(parse_command(&text).is_ok(), "{name}: {text}");
        }
        assert_eq!(Preset::named("nope"), None);
        assert!(parse_script(&default_script(7)).is_ok());
    }

    use crate::scenario::parse_script;

    #[test]
    fn presets_read_the_cluster_as_it_is() {
        let mut s = session("cluster voters=1,2,3,4 seed=1\nwait-until leader\n");
        let leader = s.cluster().leader().unwrap();
        assert_eq!(
            cmd(&s, Preset::IsolateLeader),
            Ok(format!("isolate {leader}"))
        );
        let split = cmd(&s, Preset::Split31).unwrap();
        assert!(
            split.starts_with(&format!("partition {leader},")),
            "{split}"
        );
        assert_eq!(
            split.matches(',').count(),
            2,
            "three on the leader's side: {split}"
        );
        let half = cmd(&s, Preset::Split22).unwrap();
        assert_eq!(
            half.split('|').next().unwrap().matches(',').count(),
            1,
            "{half}"
        );
        assert_eq!(
            cmd(&s, Preset::AddLearner).unwrap(),
            "member add 5 --learner"
        );
        assert_eq!(
            cmd(&s, Preset::AddMisconfigured).unwrap(),
            "member add 5 --peer-url=http://10.0.0.9:2380"
        );
        assert_eq!(cmd(&s, Preset::ToggleLoad).unwrap(), LOAD);
        s.command(LOAD).unwrap();
        assert_eq!(cmd(&s, Preset::ToggleLoad).unwrap(), "load stop");
    }

    #[test]
    fn presets_refuse_what_cannot_apply() {
        let s = session("cluster voters=1\ncrash 1\n");
        assert_eq!(
            cmd(&s, Preset::IsolateLeader),
            Err(Refusal::NoLeaderToIsolate)
        );
        assert_eq!(cmd(&s, Preset::Split22), Err(Refusal::TooFewToPartition));
        let all: Vec<String> = (1..=MAX_NODE_ID).map(|i| i.to_string()).collect();
        let full = session(&format!("cluster voters={}\n", all.join(",")));
        assert_eq!(
            cmd(&full, Preset::AddVoter),
            Err(Refusal::NoFreeId { max: MAX_NODE_ID })
        );
    }
}
