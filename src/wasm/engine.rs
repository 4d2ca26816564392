//! The page's handle on a running scenario: every user action arrives here as
//! one command of the scenario language, and time moves only through here.
//!
//! Until the scenario executor lands this is a small stand-in built on the
//! server layer, covering the commands the page issues; it keeps the same
//! shape (results, narration, history, status) so the swap is local.

use serde_json::{json, Value};

use crate::raft::{NodeId, StateRole};
use crate::scenario::ast::format_duration;
use crate::scenario::{parse_command, parse_script, ClusterSpec, Command, Condition, RoleName};
use crate::server::{Cluster, ErrorCode, ServerConfig, ServerError};
use crate::sim::WorldConfig;

pub struct Engine {
    cluster: Cluster,
    /// The script of everything done so far.
    history: Vec<String>,
    /// Simulated time when the history last caught up with the clock.
    recorded_ms: u64,
    narration: Vec<String>,
    /// Line number of the next command (the cluster line is line 1).
    line: usize,
    last_error: Option<Option<ErrorCode>>,
}

fn world_config(spec: &ClusterSpec) -> WorldConfig {
    WorldConfig {
        seed: spec.seed,
        heartbeat_ms: spec.heartbeat_ms,
        election_timeout_ms: spec.election_timeout_ms,
        pre_vote: spec.prevote,
        check_quorum: spec.check_quorum,
        max_learners: spec.max_learners as usize,
        snapshot_count: spec.snapshot_count,
        catchup_entries: spec.catchup_entries,
        latency_ms: (spec.latency_min_ms, spec.latency_max_ms),
        bandwidth: spec.bandwidth,
        ..WorldConfig::default()
    }
}

impl Engine {
    pub fn new(spec: &ClusterSpec) -> Engine {
        let server = ServerConfig {
            strict_reconfig: spec.strict_reconfig,
            ..ServerConfig::default()
        };
        let mut engine = Engine {
            cluster: Cluster::new(world_config(spec), server, &spec.voters),
            history: vec![spec.to_string()],
            recorded_ms: 0,
            narration: Vec::new(),
            line: 2,
            last_error: None,
        };
        engine.collect();
        engine
    }

    /// Parses and runs a whole script; the engine holds its end state.
    pub fn from_script(src: &str) -> Result<Engine, String> {
        let script = parse_script(src).map_err(|e| e.to_string())?;
        let mut engine = Engine::new(&script.cluster);
        for c in &script.commands {
            engine.run(&c.text, c.node.clone());
        }
        Ok(engine)
    }

    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }

    pub fn now(&self) -> u64 {
        self.cluster.now()
    }

    /// One console command; its result object (never a panic, never a throw).
    pub fn command(&mut self, line: &str) -> Value {
        let text = line.trim();
        match parse_command(text) {
            Ok(cmd) => self.run(text, cmd),
            Err(e) => {
                let msg = format!("{text}: {}", e.message);
                self.narration.push(format!("error: {msg}"));
                json!({"line": Value::Null, "command": text, "ok": false,
                       "error": "parse", "detail": e.message})
            }
        }
    }

    pub fn advance(&mut self, ms: u64) {
        let t = self.cluster.now() + ms;
        self.cluster.run_until(t);
        self.collect();
    }

    /// Runs to the next narrated event (at most a minute of simulated time).
    pub fn step_event(&mut self) -> bool {
        let limit = self.cluster.now() + 60_000;
        while self.cluster.step(limit) {
            if self.collect() > 0 {
                return true;
            }
        }
        false
    }

    pub fn take_narration(&mut self) -> Vec<String> {
        std::mem::take(&mut self.narration)
    }

    pub fn history(&self) -> Vec<String> {
        let mut h = self.history.clone();
        let now = self.cluster.now();
        if now > self.recorded_ms {
            h.push(format!("wait {}", format_duration(now - self.recorded_ms)));
        }
        h
    }

    /// Moves new world events into the narration; returns how many.
    fn collect(&mut self) -> usize {
        let before = self.narration.len();
        for e in self.cluster.take_events() {
            if let Some(s) = e.sentence() {
                self.narration.push(s);
            }
        }
        self.cluster.take_finished();
        self.narration.len() - before
    }

    fn run(&mut self, text: &str, cmd: Command) -> Value {
        let now = self.cluster.now();
        if now > self.recorded_ms {
            self.history
                .push(format!("wait {}", format_duration(now - self.recorded_ms)));
        }
        let canonical = cmd.to_string();
        self.history.push(canonical);
        let line = self.line;
        self.line += 1;
        let mut extra = serde_json::Map::new();
        let outcome = self.execute(&cmd, &mut extra);
        self.collect();
        self.recorded_ms = self.cluster.now();
        let mut result = json!({"line": line, "command": text, "ok": outcome.is_ok()});
        match &outcome {
            Ok(()) => self.last_error = Some(None),
            Err(e) => {
                self.last_error = Some(Some(e.code));
                result["error"] = json!(e.code.as_str());
                result["detail"] = json!(e.detail);
                self.narration.push(format!(
                    "t={:.2}s {text} failed: {} ({})",
                    self.cluster.now() as f64 / 1000.0,
                    e.code.as_str(),
                    e.detail
                ));
            }
        }
        if let Value::Object(map) = &mut result {
            map.extend(extra);
        }
        result
    }

    fn execute(
        &mut self,
        cmd: &Command,
        extra: &mut serde_json::Map<String, Value>,
    ) -> Result<(), ServerError> {
        let c = &mut self.cluster;
        match cmd {
            Command::Wait(ms) => c.run_until(c.now() + ms),
            Command::WaitUntil { cond, within_ms } => {
                let limit = c.now() + within_ms;
                loop {
                    if holds(c, cond, self.last_error) {
                        break;
                    }
                    if !c.step(limit) {
                        c.run_until(limit);
                        if !holds(c, cond, self.last_error) {
                            return Err(ServerError::new(
                                ErrorCode::Timeout,
                                format!(
                                    "{cond} did not hold within {}",
                                    format_duration(*within_ms)
                                ),
                            ));
                        }
                        break;
                    }
                }
            }
            Command::Expect(cond) => {
                if !holds(c, cond, self.last_error) {
                    return Err(ServerError::new(
                        ErrorCode::ExpectFailed,
                        format!("{cond} is false"),
                    ));
                }
            }
            Command::Status => {
                extra.insert("status".into(), status_of(c));
            }
            Command::Say(text) => self.narration.push(text.clone()),
            Command::Pause => {}
            Command::Put {
                key,
                value,
                via,
                size,
                nowait,
                timeout_ms,
            } => {
                let timeout = timeout_ms.unwrap_or(5_000);
                if *nowait {
                    c.start_put(key, value, *via, *size, timeout)?;
                } else {
                    let index = c.put(key, value, *via, *size, timeout)?;
                    extra.insert("index".into(), json!(index));
                }
            }
            Command::Get {
                key,
                via,
                serializable,
            } => {
                let value = c.get(key, *via, *serializable, 5_000)?;
                extra.insert("value".into(), json!(value));
            }
            Command::LoadStart {
                rate_per_s,
                size,
                via,
            } => c.start_load(*rate_per_s, size.unwrap_or(256), *via),
            Command::LoadStop => {
                c.stop_load();
            }
            Command::MemberAdd {
                id,
                learner,
                peer_url,
            } => c.member_add(*id, *learner, peer_url.as_deref())?,
            Command::MemberPromote(id) => c.member_promote(*id)?,
            Command::MemberRemove(id) => c.member_remove(*id)?,
            Command::MemberList => {
                let members: Vec<Value> = c
                    .member_list()?
                    .into_iter()
                    .map(|m| {
                        json!({"id": m.id, "peer_url": m.peer_url, "learner": m.learner,
                               "started": m.started})
                    })
                    .collect();
                extra.insert("members".into(), json!(members));
            }
            Command::Start(id) => {
                if c.world_mut().start(*id).is_err() {
                    return Err(ServerError::new(
                        ErrorCode::NotStarted,
                        format!("member {id} cannot be started"),
                    ));
                }
            }
            Command::Crash(id) => {
                c.world_mut().crash(*id);
            }
            Command::Campaign(id) => {
                c.world_mut().campaign(*id);
            }
            Command::TransferLeader(id) => c.move_leader(*id)?,
            Command::Compact(id) => {
                c.world_mut().compact(*id);
            }
            Command::Cut { a, b, one_way } => {
                c.world_mut().cut(*a, *b);
                if !one_way {
                    c.world_mut().cut(*b, *a);
                }
            }
            Command::Heal { link } => match link {
                None => c.world_mut().heal_all(),
                Some((a, b, one_way)) => {
                    c.world_mut().heal(*a, *b);
                    if !one_way {
                        c.world_mut().heal(*b, *a);
                    }
                }
            },
            Command::Partition(groups) => {
                for (i, g) in groups.iter().enumerate() {
                    for h in &groups[i + 1..] {
                        for &a in g {
                            for &b in h {
                                c.world_mut().cut(a, b);
                                c.world_mut().cut(b, a);
                            }
                        }
                    }
                }
            }
            Command::Isolate(id) => {
                let ids: Vec<NodeId> = c.known_ids().into_iter().collect();
                for other in ids.into_iter().filter(|o| o != id) {
                    c.world_mut().cut(*id, other);
                    c.world_mut().cut(other, *id);
                }
            }
        }
        Ok(())
    }

    pub fn status(&self) -> Value {
        status_of(&self.cluster)
    }
}

fn role_of(c: &Cluster, id: NodeId) -> RoleName {
    match c.world().raft(id).map(|r| r.role()) {
        None => RoleName::Down,
        Some(StateRole::Leader) => RoleName::Leader,
        Some(StateRole::Follower) => RoleName::Follower,
        Some(StateRole::Candidate) => RoleName::Candidate,
        Some(StateRole::PreCandidate) => RoleName::PreCandidate,
    }
}

fn holds(c: &Cluster, cond: &Condition, last: Option<Option<ErrorCode>>) -> bool {
    let w = c.world();
    let leader = c.leader();
    let lr = leader.and_then(|l| w.raft(l));
    let conf = c
        .authority()
        .and_then(|a| w.raft(a))
        .map(|r| r.conf_state());
    match cond {
        Condition::Leader => leader.is_some(),
        Condition::LeaderIs(n) => leader == Some(*n),
        Condition::NoLeader => leader.is_none(),
        Condition::CaughtUp(n) => lr.is_some_and(|r| {
            r.tracker()
                .progress
                .get(n)
                .is_some_and(|p| p.matched == r.last_index())
        }),
        Condition::AllApplied => lr.is_some_and(|r| {
            w.nodes()
                .filter_map(|n| n.raft.as_ref())
                .all(|n| n.applied() >= r.commit() || w.connected_since(r.id(), n.id()).is_none())
        }),
        Condition::Quorum(q) => conf.is_some_and(|cs| (cs.voters.len() / 2 + 1) as u64 == *q),
        Condition::Voters(v) => conf.is_some_and(|cs| {
            cs.voters.len() == v.len() && v.iter().all(|id| cs.voters.contains(id))
        }),
        Condition::Learners(v) => conf.is_some_and(|cs| {
            cs.learners.len() == v.len() && v.iter().all(|id| cs.learners.contains(id))
        }),
        Condition::Term(t) => {
            w.nodes()
                .filter_map(|n| n.raft.as_ref())
                .map(|r| r.term())
                .max()
                == Some(*t)
        }
        Condition::CommitAtLeast(i) => lr.is_some_and(|r| r.commit() >= *i),
        Condition::Role { id, role } => role_of(c, *id) == *role,
        Condition::Ok => last == Some(None),
        Condition::Error(code) => last == Some(Some(*code)),
    }
}

/// The runner's report object without `results`.
pub fn status_of(c: &Cluster) -> Value {
    let w = c.world();
    let leader = c.leader();
    let conf = c
        .authority()
        .and_then(|a| w.raft(a))
        .map(|r| r.conf_state())
        .unwrap_or_default();
    let term = w
        .nodes()
        .filter_map(|n| n.raft.as_ref())
        .map(|r| r.term())
        .max()
        .unwrap_or(0);
    let nodes: Vec<Value> = c
        .known_ids()
        .into_iter()
        .map(|id| {
            let node = w.node(id);
            let raft = node.and_then(|n| n.raft.as_ref());
            let durable = node.map(|n| &n.durable);
            json!({
                "id": id,
                "role": role_of(c, id).as_str(),
                "learner": conf.learners.contains(&id),
                "running": raft.is_some(),
                "term": raft.map_or_else(|| durable.map_or(0, |d| d.hard_state.term), |r| r.term()),
                "vote": raft.map_or_else(|| durable.map_or(0, |d| d.hard_state.vote), |r| r.vote()),
                "commit": raft.map_or_else(|| durable.map_or(0, |d| d.hard_state.commit), |r| r.commit()),
                "applied": raft.map_or(0, |r| r.applied()),
                "last_index": raft.map_or(0, |r| r.last_index()),
                "snapshot_index": raft.map_or(0, |r| r.snapshot_index()),
            })
        })
        .collect();
    let progress: Vec<Value> = leader
        .and_then(|l| w.raft(l))
        .map(|r| {
            r.tracker()
                .progress
                .iter()
                .filter(|(id, _)| **id != r.id())
                .map(|(id, p)| {
                    json!({"id": id, "match": p.matched, "next": p.next_idx,
                           "state": p.state.name()})
                })
                .collect()
        })
        .unwrap_or_default();
    let violations: Vec<Value> = w
        .violations()
        .iter()
        .map(|v| json!(format!("{v:?}")))
        .collect();
    json!({
        "time_ms": w.now(),
        "leader": leader,
        "term": term,
        "quorum": conf.voters.len() / 2 + 1,
        "voters": conf.voters,
        "learners": conf.learners,
        "nodes": nodes,
        "progress": progress,
        "violations": violations,
    })
}
