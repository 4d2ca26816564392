//! The commands of etcd's `rafttest/interaction_env_handler*.go`.

use std::rc::Rc;

use raftlab::raft::{
    ConfChange, ConfChangeTransition, ConfChangeV2, ConfState, Config, EntryData, HardState,
    Message, MessageType, NodeId, Opaque, Raft, ReadOnlyOption, Snapshot, SnapshotMetadata,
    StateRole, Storage,
};

use super::describe;
use super::storage::MemStorage;
use super::{Env, Node};
use crate::conformance::confchange::parse_changes;
use crate::conformance::datadriven::Directive;

/// etcd's log levels; NONE silences everything but errors.
const LEVELS: [&str; 6] = ["DEBUG", "INFO", "WARN", "ERROR", "FATAL", "NONE"];

impl Env {
    /// Runs `d`. `Ok(Some(text))` is an error a node or the harness's
    /// storage reported, which etcd prints as the output.
    pub(super) fn command(&mut self, d: &Directive) -> Result<Option<String>, String> {
        let first = || -> Result<NodeId, String> {
            d.words()
                .next()
                .ok_or("missing node id")?
                .parse()
                .map_err(|_| "bad node id".to_string())
        };
        match d.cmd.as_str() {
            "_breakpoint" => {}
            "add-nodes" => return self.add_nodes(d),
            "campaign" => self.node(first()?)?.raft.campaign(),
            "compact" => return self.compact(first()?, d),
            "deliver-msgs" => self.deliver_msgs(d)?,
            "process-ready" => {
                let ids = d.numbers()?;
                for &id in &ids {
                    if ids.len() > 1 {
                        self.write(&format!("> {id} handling Ready\n"));
                        self.indented(|env| env.process_ready(id))?;
                    } else {
                        self.process_ready(id)?;
                    }
                }
            }
            "process-append-thread" | "process-apply-thread" => {
                return Err("asynchronous storage writes are not modelled".into())
            }
            "log-level" => return Ok(self.log_level(d.words().next().unwrap_or(""))),
            "raft-log" => self.raft_log(first()?)?,
            "raft-state" => self.raft_state(),
            "set-randomized-election-timeout" => {
                let ticks = d.val("timeout").ok_or("missing timeout")?;
                let ticks = ticks.parse().map_err(|_| "bad timeout")?;
                self.node(first()?)?
                    .raft
                    .set_randomized_election_timeout(ticks);
            }
            "stabilize" => return self.stabilize_cmd(d),
            "status" => {
                let r = &self.node(first()?)?.raft;
                // etcd's Status has the progress on the leader only.
                if r.role() == StateRole::Leader {
                    let text = r.tracker().describe();
                    self.write(&text);
                }
            }
            "tick-election" => {
                let node = self.node(first()?)?;
                for _ in 0..node.election_tick {
                    node.raft.tick();
                }
            }
            "tick-heartbeat" => {
                let node = self.node(first()?)?;
                for _ in 0..node.heartbeat_tick {
                    node.raft.tick();
                }
            }
            "transfer-leadership" => {
                let id = |k| -> Result<NodeId, String> {
                    d.val(k)
                        .and_then(|v| v.parse().ok())
                        .ok_or(format!("expected valid {k:?} argument"))
                };
                let (from, to) = (id("from")?, id("to")?);
                self.node(from)?.raft.transfer_leader(to);
            }
            "forget-leader" => self.node(first()?)?.raft.forget_leader(),
            "send-snapshot" => self.send_snapshot(&d.numbers()?)?,
            "propose" => {
                let data = d.words().nth(1).ok_or("propose needs data")?.to_string();
                // etcd's entry data: bytes, here the proposed text.
                let size = data.len() as u64;
                let r = self
                    .node(first()?)?
                    .raft
                    .propose(EntryData::Normal(Opaque::new(data, size)));
                return Ok(r.err().map(|_| "raft proposal dropped".to_string()));
            }
            "propose-conf-change" => return self.propose_conf_change(first()?, d),
            "report-unreachable" => {
                let ids = d.numbers()?;
                let [node, peer] = ids[..] else {
                    return Ok(Some(
                        "must specify exactly two node indexes: node on which to report, and reported node"
                            .into(),
                    ));
                };
                self.node(node)?.raft.report_unreachable(peer);
            }
            _ => return Ok(Some("unknown command".into())),
        }
        Ok(None)
    }

    /// `add-nodes N [voters=(..)] [learners=(..)] [index=I] [content=C]
    /// [prevote=..] [checkquorum=..] [inflight=..] ...`: N new nodes, ids
    /// following the last, started from that snapshot (or empty).
    fn add_nodes(&mut self, d: &Directive) -> Result<Option<String>, String> {
        let n: usize = d
            .words()
            .next()
            .and_then(|w| w.parse().ok())
            .ok_or("bad count")?;
        let flag = |k| d.val(k) == Some("true");
        let number = |k| -> Result<Option<u64>, String> {
            d.val(k)
                .map(|v| v.parse().map_err(|_| format!("bad {k}")))
                .transpose()
        };
        let ids = |k| -> Result<Vec<NodeId>, String> {
            d.vals(k)
                .unwrap_or(&[])
                .iter()
                .map(|v| v.parse().map_err(|_| format!("bad {k}")))
                .collect()
        };
        if flag("async-storage-writes") {
            return Err("asynchronous storage writes are not modelled".into());
        }
        let read_only = match d.val("read-only") {
            None | Some("safe") => ReadOnlyOption::Safe,
            Some("lease-based") => ReadOnlyOption::LeaseBased,
            Some(other) => return Ok(Some(format!("invalid read-only option {other:?}"))),
        };
        let conf_state = ConfState {
            voters: ids("voters")?.into_iter().collect(),
            learners: ids("learners")?.into_iter().collect(),
            ..Default::default()
        };
        let index = number("index")?;
        let bootstrap =
            conf_state != ConfState::default() || index.is_some() || d.val("content").is_some();
        let index = index.unwrap_or(0);
        if bootstrap && index <= 1 {
            return Ok(Some(
                "index must be specified as > 1 due to bootstrap".into(),
            ));
        }
        let snapshot = Snapshot {
            metadata: SnapshotMetadata {
                index,
                term: u64::from(bootstrap),
                conf_state,
            },
            data: Opaque::default(),
        };
        // etcd's raftConfigStub: no size or window limits.
        let template = Config {
            election_tick: 3,
            heartbeat_tick: 1,
            pre_vote: flag("prevote"),
            check_quorum: flag("checkquorum"),
            max_inflight_msgs: number("inflight")?.map_or(i32::MAX as usize, |v| v as usize),
            max_size_per_msg: u64::MAX,
            max_committed_size_per_ready: number("max-committed-size-per-ready")?
                .filter(|&v| v > 0)
                .unwrap_or(u64::MAX),
            step_down_on_removal: flag("step-down-on-removal"),
            disable_conf_change_validation: flag("disable-conf-change-validation"),
            read_only,
            ..Config::new(0)
        };
        for _ in 0..n {
            let id = self.nodes.len() as NodeId + 1;
            let mut storage = MemStorage::default();
            if bootstrap {
                storage.apply_snapshot(&snapshot);
            }
            let durable = Storage {
                hard_state: HardState::default(),
                snapshot: snapshot.clone(),
                entries: Vec::new(),
            };
            let raft = Raft::new(
                &Config {
                    id,
                    ..template.clone()
                },
                durable,
                id,
            );
            self.nodes.push(Node {
                prev_soft: (raft.leader_id(), raft.role()),
                prev_hard: raft.hard_state(),
                raft,
                storage,
                election_tick: template.election_tick,
                heartbeat_tick: template.heartbeat_tick,
            });
        }
        Ok(None)
    }

    /// `compact N I`: node N's storage drops entries up to I, and so does
    /// its log; prints the log.
    fn compact(&mut self, id: NodeId, d: &Directive) -> Result<Option<String>, String> {
        let index: u64 = d
            .words()
            .nth(1)
            .and_then(|w| w.parse().ok())
            .ok_or("bad index")?;
        let node = self.node(id)?;
        if let Err(e) = node.storage.compact(index) {
            return Ok(Some(e));
        }
        node.raft.compact_log(index);
        self.raft_log(id)?;
        Ok(None)
    }

    /// `deliver-msgs [N...] [drop=(N..)] [type=MsgX]`.
    fn deliver_msgs(&mut self, d: &Directive) -> Result<(), String> {
        let mut recipients = Vec::new();
        let mut kind = None;
        for arg in &d.args {
            if arg.vals.is_empty() {
                recipients.push((arg.key.parse().map_err(|_| "bad recipient")?, false));
            }
            for v in &arg.vals {
                match arg.key.as_str() {
                    "drop" => recipients.push((v.parse().map_err(|_| "bad drop")?, true)),
                    "type" => {
                        kind = Some(message_type(v).ok_or(format!("unknown message type {v}"))?)
                    }
                    _ => {}
                }
            }
        }
        if self.deliver(kind, &recipients) == 0 {
            self.write("no messages\n");
        }
        Ok(())
    }

    fn log_level(&mut self, name: &str) -> Option<String> {
        match LEVELS.iter().position(|l| l.eq_ignore_ascii_case(name)) {
            Some(i) => {
                self.quiet = i == LEVELS.len() - 1;
                None
            }
            None => Some(format!(
                "log levels must be either of [{}]",
                LEVELS.join(" ")
            )),
        }
    }

    /// `stabilize [N...] [log-level=L]`, the level holding for this command.
    fn stabilize_cmd(&mut self, d: &Directive) -> Result<Option<String>, String> {
        let quiet = self.quiet;
        if let Some(level) = d.val("log-level") {
            if let Some(err) = self.log_level(level) {
                return Ok(Some(err));
            }
        }
        let r = self.stabilize(&d.numbers().unwrap_or_default());
        self.quiet = quiet;
        r.map(|_| None)
    }

    /// The persisted log (etcd's RaftLog over MemoryStorage).
    fn raft_log(&mut self, id: NodeId) -> Result<(), String> {
        let s = &self.node(id)?.storage;
        let (first, last) = (s.first_index(), s.last_index());
        let text = if last < first {
            format!("log is empty: first index={first}, last index={last}")
        } else {
            describe::entries(s.entries())
        };
        self.write(&text);
        Ok(())
    }

    /// Every node's role, voter status, term and leader, in its own view.
    fn raft_state(&mut self) {
        let lines: String = self
            .nodes
            .iter()
            .map(|n| {
                let r = &n.raft;
                let voter = if r.tracker().is_voter(r.id()) {
                    "(Voter)"
                } else {
                    "(Non-Voter)"
                };
                format!(
                    "{}: {} {voter} Term:{} Lead:{}\n",
                    r.id(),
                    describe::role(r.role()),
                    r.term(),
                    r.leader_id()
                )
            })
            .collect();
        self.write(&lines);
    }

    /// `send-snapshot A B`: A's latest snapshot, sent to B at A's term.
    fn send_snapshot(&mut self, ids: &[NodeId]) -> Result<(), String> {
        let [from, to] = ids[..] else {
            return Err("send-snapshot needs two node ids".into());
        };
        let r = &self.node(from)?.raft;
        let mut m = Message::new(MessageType::Snap, from, to, r.term());
        m.snapshot = Some(Box::new(r.snapshot().clone()));
        let text = describe::message(&m);
        self.messages.push(m);
        self.write(&text);
        Ok(())
    }

    /// `propose-conf-change N [v1=true] [transition=auto|implicit|explicit]`
    /// with the changes as input (`v2 l3 r4`).
    fn propose_conf_change(&mut self, id: NodeId, d: &Directive) -> Result<Option<String>, String> {
        let mut v1 = false;
        let mut transition = ConfChangeTransition::Auto;
        for arg in d.args.iter().skip(1) {
            for v in &arg.vals {
                match (arg.key.as_str(), v.as_str()) {
                    ("v1", v) => v1 = v == "true",
                    ("transition", "auto") => transition = ConfChangeTransition::Auto,
                    ("transition", "implicit") => transition = ConfChangeTransition::JointImplicit,
                    ("transition", "explicit") => transition = ConfChangeTransition::JointExplicit,
                    ("transition", other) => {
                        return Ok(Some(format!("unknown transition {other}")))
                    }
                    (other, _) => return Ok(Some(format!("unknown command {other}"))),
                }
            }
        }
        let changes = match parse_changes(&d.input) {
            Ok(c) => c,
            Err(e) => return Ok(Some(e)),
        };
        let data = if v1 {
            let [single] = changes[..] else {
                return Ok(Some(
                    "v1 conf change can only have one operation and no transition".into(),
                ));
            };
            if transition != ConfChangeTransition::Auto {
                return Ok(Some(
                    "v1 conf change can only have one operation and no transition".into(),
                ));
            }
            EntryData::ConfChange(Rc::new(ConfChange {
                change_type: single.change_type,
                node_id: single.node_id,
                request: 0,
                context: Opaque::default(),
                promote: false,
            }))
        } else {
            EntryData::ConfChangeV2(Rc::new(ConfChangeV2 {
                transition,
                changes,
                ..Default::default()
            }))
        };
        let r = self.node(id)?.raft.propose(data);
        Ok(r.err().map(|_| "raft proposal dropped".to_string()))
    }
}

/// A message type by etcd's name (`MsgApp`...).
fn message_type(name: &str) -> Option<MessageType> {
    use MessageType::*;
    [
        Hup,
        Beat,
        Prop,
        App,
        AppResp,
        Vote,
        VoteResp,
        PreVote,
        PreVoteResp,
        Snap,
        Heartbeat,
        HeartbeatResp,
        TransferLeader,
        TimeoutNow,
        ReadIndex,
        ReadIndexResp,
    ]
    .into_iter()
    .find(|t| t.name() == name)
}
