//! The page's buttons: each stands for one command of the scenario language,
//! chosen from the cluster as it is now (the next free id, the leader, who
//! is a member), so the history records what the button did.

use serde::Deserialize;

use crate::lang::ast::MAX_NODE_ID;
use crate::lang::parse::parse_script;
use crate::raft::NodeId;
use crate::server::{Cluster, NewMembers};
use crate::session::refusal::Refusal;
use crate::session::view;

/// The cluster a page opens with when it is given no script, on `seed`.
pub fn default_script(seed: u64) -> String {
    format!("cluster voters=1,2,3 seed={seed} bandwidth=1MB/s\n")
}

/// The page's modes control: the cluster options of the document's
/// proposals for a fresh run, as the page's form gives them (the shape of
/// [`view::ModesView`], so the current run's modes can be handed back).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ModesForm {
    /// "learner" or "voter".
    pub new_members: String,
    /// Percent; `None` is off.
    pub auto_promote: Option<f64>,
    pub failover_after_ms: f64,
    /// "replace" or "grow".
    pub failover: String,
    /// etcd's `max-learners`.
    pub max_learners: f64,
}

/// The longest `failover-after` the control offers.
pub const MAX_FAILOVER_AFTER_MS: u64 = 600_000;

/// The default cluster on `seed` with these modes: its canonical script
/// (one `cluster` line carrying the options), or why the form is wrong.
pub fn fresh_script(seed: u64, form: &ModesForm) -> Result<String, Refusal> {
    let mut spec = parse_script(&default_script(seed))
        .map_err(Refusal::Modes)?
        .cluster;
    spec.new_members = form.new_members.parse().map_err(|_| Refusal::ModeChoice {
        option: "new-members",
        found: form.new_members.clone(),
        choices: &["learner", "voter"],
    })?;
    spec.failover = form.failover.parse().map_err(|_| Refusal::ModeChoice {
        option: "failover",
        found: form.failover.clone(),
        choices: &["replace", "grow"],
    })?;
    spec.auto_promote = match form.auto_promote {
        None => None,
        Some(p) if p.fract() == 0.0 && (1.0..=100.0).contains(&p) => Some(p as u8),
        Some(_) => return Err(Refusal::AutoPromoteRange),
    };
    let min = spec.election_timeout_ms;
    let ms = form.failover_after_ms;
    if !(ms.is_finite() && ms >= min as f64 && ms <= MAX_FAILOVER_AFTER_MS as f64) {
        return Err(Refusal::FailoverAfterRange {
            min_ms: min,
            max_ms: MAX_FAILOVER_AFTER_MS,
        });
    }
    spec.failover_after_ms = ms.round() as u64;
    let n = form.max_learners;
    if !(n.fract() == 0.0 && (0.0..=MAX_NODE_ID as f64).contains(&n)) {
        return Err(Refusal::MaxLearnersRange { max: MAX_NODE_ID });
    }
    spec.max_learners = n as u64;
    let script = format!("{spec}\n");
    // The canonical line parses back to the same options (the checks of the
    // `cluster` line apply).
    parse_script(&script).map_err(Refusal::Modes)?;
    Ok(script)
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
    /// Add a standby learner, kept for failover, or a read-only learner
    /// answering weak or strong reads.
    AddStandby,
    AddReadWeak,
    AddReadStrong,
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
            "add-standby" => Preset::AddStandby,
            "add-read-weak" => Preset::AddReadWeak,
            "add-read-strong" => Preset::AddReadStrong,
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
        // With learners by default, a voter has to be asked for.
        Preset::AddVoter => Ok(match c.config().modes.new_members {
            NewMembers::Voter => format!("member add {}", next_id()?),
            NewMembers::Learner => format!("member add {} --voter", next_id()?),
        }),
        Preset::AddStandby => Ok(format!("member add {} --learner --standby", next_id()?)),
        Preset::AddReadWeak => Ok(format!(
            "member add {} --learner --read-only=weak",
            next_id()?
        )),
        Preset::AddReadStrong => Ok(format!(
            "member add {} --learner --read-only=strong",
            next_id()?
        )),
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
    use crate::lang::parse::parse_command;
    use crate::session::exec::Session;

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
            "add-standby",
            "add-read-weak",
            "add-read-strong",
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

    use crate::lang::parse::parse_script;

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

    fn form(new_members: &str, auto: Option<f64>, after_ms: f64, failover: &str) -> ModesForm {
        ModesForm {
            new_members: new_members.to_string(),
            auto_promote: auto,
            failover_after_ms: after_ms,
            failover: failover.to_string(),
            max_learners: 1.0,
        }
    }

    #[test]
    fn the_modes_control_starts_a_run_whose_cluster_line_carries_them() {
        let mut f = form("learner", Some(80.0), 5000.0, "grow");
        f.max_learners = 3.0;
        let script = fresh_script(7, &f).unwrap();
        assert_eq!(
            script,
            "cluster voters=1,2,3 seed=7 max-learners=3 bandwidth=1MB/s new-members=learner auto-promote=80% failover-after=5s failover=grow\n"
        );
        // The defaults say nothing: the line is the plain default cluster.
        let plain = fresh_script(7, &form("voter", None, 10_000.0, "replace")).unwrap();
        assert_eq!(plain, default_script(7));
        // The current run's modes, handed back, give the same line.
        let s = session(&script);
        let back = serde_json::to_value(view::ModesView::of(s.cluster())).unwrap();
        let back: ModesForm = serde_json::from_value(back).unwrap();
        assert_eq!(fresh_script(7, &back).unwrap(), script);
        assert_eq!(s.history()[0], script.trim_end());
    }

    #[test]
    fn the_modes_control_refuses_what_the_cluster_line_cannot_say() {
        let bad = |f: ModesForm| fresh_script(1, &f).unwrap_err();
        assert_eq!(
            bad(form("learner", Some(0.0), 10_000.0, "replace")),
            Refusal::AutoPromoteRange
        );
        assert_eq!(
            bad(form("learner", Some(90.5), 10_000.0, "replace")),
            Refusal::AutoPromoteRange
        );
        let after = Refusal::FailoverAfterRange {
            min_ms: 1000,
            max_ms: MAX_FAILOVER_AFTER_MS,
        };
        assert_eq!(bad(form("voter", None, 500.0, "replace")), after);
        assert_eq!(bad(form("voter", None, f64::NAN, "replace")), after);
        assert!(matches!(
            bad(form("everyone", None, 10_000.0, "replace")),
            Refusal::ModeChoice {
                option: "new-members",
                ..
            }
        ));
        let mut f = form("voter", None, 10_000.0, "replace");
        f.max_learners = 2.5;
        assert_eq!(bad(f), Refusal::MaxLearnersRange { max: MAX_NODE_ID });
        assert!(matches!(
            bad(form("voter", None, 10_000.0, "shrink")),
            Refusal::ModeChoice {
                option: "failover",
                ..
            }
        ));
        use crate::words::renderer::Renderer;
        let said = crate::words::text_en::English.refusal(&after);
        assert_eq!(
            said,
            "error: failover-after must be from 1s (the election timeout) to 600s"
        );
    }

    #[test]
    fn the_add_buttons_name_the_learners_kind_and_a_voter_when_learners_are_the_default() {
        let s = session("cluster voters=1,2,3 seed=1 new-members=learner\nwait-until leader\n");
        assert_eq!(cmd(&s, Preset::AddVoter).unwrap(), "member add 4 --voter");
        assert_eq!(
            cmd(&s, Preset::AddStandby).unwrap(),
            "member add 4 --learner --standby"
        );
        assert_eq!(
            cmd(&s, Preset::AddReadWeak).unwrap(),
            "member add 4 --learner --read-only=weak"
        );
        assert_eq!(
            cmd(&s, Preset::AddReadStrong).unwrap(),
            "member add 4 --learner --read-only=strong"
        );
        // Each is the canonical text the history records.
        let mut s = s;
        s.command("wait 6s").unwrap();
        let add = cmd(&s, Preset::AddReadStrong).unwrap();
        let r = s.command(&add).unwrap();
        assert!(r.ok, "{r:?}");
        assert_eq!(s.history().last().unwrap(), &add);
        let four = view::NodeView::of(s.cluster(), 4);
        assert_eq!(
            four.learner_kind(),
            Some(view::LearnerKind::ReadOnly(crate::server::ReadMode::Strong))
        );
    }
}
