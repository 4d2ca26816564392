//! What `raftlab diff` can drive on a real etcd, decided before anything
//! starts: each command's kind (how it is compared) and, for what cannot be
//! driven, why. A script with a line it cannot drive is refused whole
//! (exit status 2, every such line named); with `--skip-undrivable` a
//! condition it cannot observe is shown as skipped instead, never an action.

use std::collections::BTreeSet;

use crate::lang::ast::Script;
use crate::lang::ast::{ClusterSpec, Command, Condition, Failover, NewMembers};
use crate::raft::NodeId;

/// How a line is run and compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// Does nothing to the cluster (`say`, `pause`, `status`): not run on
    /// etcd, not compared.
    Narration,
    /// `expect COND`: must hold on every side.
    Expect,
    /// `wait-until COND`: compared by whether it held in time, not when.
    WaitUntil,
    /// `wait D`: time passes.
    Wait,
    /// A client request (etcdctl): its answer, and its time by the
    /// tolerance of its kind (`compare::tolerance`).
    Request,
    /// `start`, `crash`, `campaign`, a network fault: compared by whether
    /// it was done.
    Action,
    /// A condition the driver cannot observe on etcd (with
    /// `--skip-undrivable`): shown, not judged.
    Skipped(String),
}

/// A line the driver cannot do on a real cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub line: usize,
    pub text: String,
    pub why: String,
}

/// The script, read for the driver.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Each command's kind, in order.
    pub kinds: Vec<Kind>,
    pub refused: Vec<Refusal>,
    /// A network fault or a bandwidth needs namespaces (root).
    pub needs_network: bool,
    /// The first line that needs them, for the message without root.
    pub network_line: usize,
    pub network_text: String,
}

impl Plan {
    pub fn of(script: &Script, skip_undrivable: bool) -> Plan {
        let mut plan = Plan::default();
        if let Err(why) = cluster_drivable(&script.cluster) {
            plan.refused.push(Refusal {
                line: 1,
                text: script.cluster.to_string(),
                why,
            });
        }
        if script.cluster.bandwidth.is_some() {
            plan.needs_network = true;
            plan.network_line = 1;
            plan.network_text = script.cluster.to_string();
        }
        let mut learners: BTreeSet<NodeId> = BTreeSet::new();
        let mut acted = false;
        for c in &script.commands {
            let kind = match kind_of(&c.node, &learners, acted) {
                Ok(k) => k,
                Err(Why::Condition(why)) if skip_undrivable => Kind::Skipped(why),
                Err(Why::Condition(why)) | Err(Why::Action(why)) => {
                    plan.refused.push(Refusal {
                        line: c.line,
                        text: c.text.clone(),
                        why,
                    });
                    Kind::Narration
                }
            };
            if needs_network(&c.node) && !plan.needs_network {
                plan.needs_network = true;
                plan.network_line = c.line;
                plan.network_text = c.text.clone();
            }
            match &*c.node {
                Command::MemberAdd { id, learner, .. } if *learner => {
                    learners.insert(*id);
                }
                Command::MemberPromote { id, .. } | Command::MemberRemove { id, .. } => {
                    learners.remove(id);
                }
                _ => {}
            }
            if !matches!(kind, Kind::Narration | Kind::Skipped(_) | Kind::Expect) {
                acted = true;
            }
            plan.kinds.push(kind);
        }
        plan
    }
}

/// The first command's `campaign N`, if the script opens with one: the
/// driver lets that member's election clock run ahead at boot (etcd's
/// `--initial-election-tick-advance`), so it campaigns first.
pub fn first_campaign(script: &Script) -> Option<NodeId> {
    script
        .commands
        .iter()
        .find(|c| !matches!(&*c.node, Command::Say { .. } | Command::Pause))
        .and_then(|c| match &*c.node {
            Command::Campaign(id) if script.cluster.voters.contains(id) => Some(*id),
            _ => None,
        })
}

enum Why {
    /// A condition the driver cannot observe.
    Condition(String),
    /// An action it cannot do.
    Action(String),
}

fn needs_network(cmd: &Command) -> bool {
    match cmd {
        Command::Cut { .. }
        | Command::Heal { .. }
        | Command::Partition(_)
        | Command::Isolate(_) => true,
        Command::Net { bandwidth, .. } => bandwidth.is_some(),
        _ => false,
    }
}

/// Whether etcd can be started as the `cluster` line says.
fn cluster_drivable(spec: &ClusterSpec) -> Result<(), String> {
    let d = ClusterSpec::new(Vec::new());
    if !spec.check_quorum {
        return Err("etcd always runs with check-quorum on".to_string());
    }
    if spec.new_members != NewMembers::Voter
        || spec.auto_promote.is_some()
        || spec.failover_after_ms != d.failover_after_ms
        || spec.failover != Failover::Replace
    {
        return Err(
            "new-members, auto-promote and failover are the design document's proposals, not in etcd"
                .to_string(),
        );
    }
    if spec.catchup_entries != d.catchup_entries {
        return Err("etcd 3.4 and 3.5 have no flag for catchup-entries".to_string());
    }
    Ok(())
}

fn condition_drivable(cond: &Condition) -> Result<(), String> {
    match cond {
        Condition::CommitAtLeast(_) => Err(
            "etcd's log holds entries raftlab's does not (each member's publish, the cluster version), so its indexes differ"
                .to_string(),
        ),
        Condition::Linearizable | Condition::NotLinearizable => {
            Err("the driver keeps no history of client operations".to_string())
        }
        Condition::Queued { .. } => Err("etcd does not show its send queues".to_string()),
        Condition::Messages { .. } => Err("etcd does not count raft messages per member".to_string()),
        Condition::Held { .. } | Condition::InFlight { .. } => {
            Err("etcd does not show the raft messages on a link".to_string())
        }
        Condition::VotersOutgoing(_) => {
            Err("etcd's server never makes a joint configuration".to_string())
        }
        Condition::WatchEvents { .. }
        | Condition::WatchCanceled(_)
        | Condition::Mirror { .. }
        | Condition::MirrorError { .. } => {
            Err("watches and the mirror maker are not driven".to_string())
        }
        _ => Ok(()),
    }
}

fn kind_of(cmd: &Command, learners: &BTreeSet<NodeId>, acted: bool) -> Result<Kind, Why> {
    let action = |s: &str| Err(Why::Action(s.to_string()));
    match cmd {
        Command::Say { .. } | Command::Pause | Command::Status { via: None } => Ok(Kind::Narration),
        Command::Expect(c) => condition_drivable(c)
            .map(|()| Kind::Expect)
            .map_err(Why::Condition),
        Command::WaitUntil { cond, .. } => condition_drivable(cond)
            .map(|()| Kind::WaitUntil)
            .map_err(Why::Condition),
        Command::Wait(_) => Ok(Kind::Wait),
        Command::Put {
            size,
            nowait,
            ..
        } => {
            if size.is_some() {
                action("size= weighs a write without writing its bytes; etcd writes what it is given")
            } else if *nowait {
                action("nowait is not driven")
            } else {
                // With require-leader, through the member's JSON gateway
                // (`gateway.rs`): etcdctl has no flag for it.
                Ok(Kind::Request)
            }
        }
        // With require-leader, through the member's JSON gateway too.
        Command::Get { .. } | Command::Delete { .. } | Command::Compaction { .. } => {
            Ok(Kind::Request)
        }
        Command::MemberPromote { require_leader, .. }
        | Command::MemberRemove { require_leader, .. }
        | Command::MemberList { require_leader, .. } => {
            if *require_leader {
                action("etcdctl has no flag for require-leader, and the driver sends it only with put, get, delete and compaction")
            } else {
                Ok(Kind::Request)
            }
        }
        Command::MemberAdd {
            standby,
            read_only,
            require_leader,
            voter,
            learner,
            peer_url,
            ..
        } => {
            if *standby || read_only.is_some() {
                action("standby and read-only learners are the design document's proposals, not in etcd")
            } else if *require_leader {
                action("etcdctl has no flag for require-leader, and the driver sends it only with put, get, delete and compaction")
            } else if *voter && *learner {
                action("--voter and --learner together")
            } else if let Some(why) = peer_url.as_deref().and_then(url_undrivable) {
                action(&why)
            } else {
                Ok(Kind::Request)
            }
        }
        Command::Status { via: Some(_) } | Command::TransferLeader(_) => Ok(Kind::Request),
        Command::Start(_) | Command::Crash(_) => Ok(Kind::Action),
        Command::Campaign(id) => {
            if learners.contains(id) || !acted {
                Ok(Kind::Action)
            } else {
                action("etcd has no request that makes a voter campaign (only its election clock does); a script may open with one, which the driver gives the first election")
            }
        }
        Command::Cut { one_way: true, .. } | Command::Heal { link: Some((_, _, true)) } => {
            action("a one-way cut is not driven: TCP needs both directions to carry either")
        }
        Command::Cut { .. } | Command::Heal { .. } | Command::Partition(_) | Command::Isolate(_) => {
            Ok(Kind::Action)
        }
        Command::Net {
            loss_ppm, latency, ..
        } => {
            if loss_ppm.is_some() || latency.is_some() {
                action("message loss and latency are not reproduced (TCP retransmits what a link loses)")
            } else {
                Ok(Kind::Action)
            }
        }
        Command::Compact(_) => action(
            "etcd has no request that compacts one member's raft log now (it snapshots by --snapshot-count)",
        ),
        Command::Watch { .. } => action("watches are not driven"),
        // Sent at its rate through the gateway (`load.rs`).
        Command::LoadStart { .. } | Command::LoadStop => Ok(Kind::Action),
        Command::MemberChange { .. } | Command::MemberLeaveJoint { .. } => {
            action("etcd's server never changes several members at once")
        }
        Command::AddCluster(_) | Command::MirrorStart { .. } | Command::MirrorStop(_) => {
            action("one cluster per release is driven: a second cluster and the mirror maker are not")
        }
        Command::Hold { .. }
        | Command::Release { .. }
        | Command::Drop { .. }
        | Command::DeliverNext { .. } => action(
            "a hand on single raft messages is not driven: etcd's peer connections carry them as TCP streams no tool outside can hold or pick",
        ),
    }
}

/// Why a peer URL cannot be given to a real cluster: one naming a member's
/// host (`nN`) is translated to that member's real address, so it must use
/// port 2380 (any other host is passed as written).
fn url_undrivable(url: &str) -> Option<String> {
    let (_, rest) = url.split_once("://")?;
    let host_port = rest.split(['/', '?', '#']).next().unwrap_or("");
    let (host, port) = host_port.rsplit_once(':')?;
    let names_member = host
        .strip_prefix('n')
        .and_then(|n| n.parse::<NodeId>().ok())
        .is_some_and(|n| (1..=15).contains(&n));
    (names_member && port != "2380").then(|| {
        format!("the peer URL {url} names member {host} on a port other than 2380, which the driver cannot translate")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::parse::parse_script;

    #[test]
    fn lines_etcd_cannot_do_are_refused_and_conditions_may_be_skipped() {
        let src = "cluster voters=1,2,3\ncampaign 1\nput k v\nexpect commit>=3\nhold 1->2\ncampaign 2\nsay hi\n";
        let script = parse_script(src).unwrap();
        let plan = Plan::of(&script, false);
        let lines: Vec<usize> = plan.refused.iter().map(|r| r.line).collect();
        assert_eq!(lines, [4, 5, 6]);
        let plan = Plan::of(&script, true);
        let lines: Vec<usize> = plan.refused.iter().map(|r| r.line).collect();
        assert_eq!(lines, [5, 6]);
        assert!(matches!(plan.kinds[2], Kind::Skipped(_)));
        assert_eq!(plan.kinds[0], Kind::Action);
        assert_eq!(plan.kinds[1], Kind::Request);
        assert_eq!(plan.kinds[5], Kind::Narration);
        assert_eq!(first_campaign(&script), Some(1));
        assert!(!plan.needs_network);
        // The background load is driven (`load.rs`), with or without a size
        // and a member to send through.
        let script =
            parse_script("cluster voters=1,2,3\nload rate=10/s size=2KB via=2\nload stop\n")
                .unwrap();
        let plan = Plan::of(&script, false);
        assert!(plan.refused.is_empty(), "{:?}", plan.refused);
        assert_eq!(plan.kinds, [Kind::Action, Kind::Action]);
    }

    #[test]
    fn a_learner_may_be_asked_to_campaign_and_faults_need_the_network() {
        let src = "cluster voters=1,2,3\nwait 6s\nmember add 4 --learner\ncampaign 4\nisolate 4\ncut 1->2\n";
        let plan = Plan::of(&parse_script(src).unwrap(), false);
        assert_eq!(plan.kinds[2], Kind::Action);
        assert!(plan.needs_network);
        assert_eq!(plan.network_line, 5);
        assert_eq!(plan.refused.len(), 1);
        assert_eq!(plan.refused[0].line, 6);
    }

    #[test]
    fn peer_urls_naming_a_member_must_use_its_port() {
        assert!(url_undrivable("http://n4:2380").is_none());
        assert!(url_undrivable("http://n4:2380/").is_none());
        assert!(url_undrivable("http://10.0.0.9:2381").is_none());
        assert!(url_undrivable("http://n4:2381").is_some());
        assert!(url_undrivable("ftp://x").is_none());
    }

    #[test]
    fn the_design_documents_proposals_are_not_etcds() {
        let s = parse_script("cluster voters=1 new-members=learner").unwrap();
        assert_eq!(Plan::of(&s, true).refused.len(), 1);
        let s = parse_script("cluster voters=1 check-quorum=off").unwrap();
        assert_eq!(Plan::of(&s, true).refused.len(), 1);
        let s = parse_script("cluster voters=1 bandwidth=1MB/s").unwrap();
        let p = Plan::of(&s, true);
        assert!(p.refused.is_empty() && p.needs_network);
    }

    #[test]
    fn a_hand_on_single_messages_is_refused_and_its_conditions_may_be_skipped() {
        let src = "cluster voters=1,2,3\nhold 1->2\nrelease count=1\ndrop 1->2 kind=app\ndeliver-next\nexpect held 1->2=0\nexpect in-flight 2->1>=1\n";
        let script = parse_script(src).unwrap();
        let lines: Vec<usize> = Plan::of(&script, false)
            .refused
            .iter()
            .map(|r| r.line)
            .collect();
        assert_eq!(lines, [2, 3, 4, 5, 6, 7]);
        let plan = Plan::of(&script, true);
        let lines: Vec<usize> = plan.refused.iter().map(|r| r.line).collect();
        assert_eq!(lines, [2, 3, 4, 5]);
        assert!(matches!(plan.kinds[4], Kind::Skipped(_)));
        assert!(matches!(plan.kinds[5], Kind::Skipped(_)));
    }
}
