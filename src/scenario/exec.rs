//! Running scenario commands against a cluster. A `Session` is one run: the
//! runner feeds it a whole script, the browser one console command at a
//! time. Every command either takes effect whole or is refused whole.

use crate::raft::vecmap::VecMap;

use crate::raft::NodeId;
use crate::server::client::DEFAULT_PUT_SIZE;
use crate::server::cluster::Finished;
use crate::server::{
    Cluster, ErrorCode, MemberKind, ModesConfig, NewMembers, Outcome, RequestId, ServerConfig,
    ServerError,
};
use crate::sim::WorldConfig;

use super::ast::{format_duration, ClusterSpec, Command, Script, DEFAULT_CLIENT_TIMEOUT_MS};
use super::cond::{self, Previous};
use super::narrate::{self, Line};
use super::parse::{parse_command, parse_script, ParseError};
use super::report::{self, CommandResult, MemberJson, Report, Status};
use super::say;

/// One run of the scenario language.
#[derive(Debug, Clone)]
pub struct Session {
    spec: ClusterSpec,
    cluster: Cluster,
    results: Vec<CommandResult>,
    previous: Previous,
    /// The value the last `get` read, for `{value}` (`None`: it found no
    /// such key, failed, or none ran yet).
    last_value: Option<String>,
    /// `put ... nowait` requests, by request id, to the index of their result.
    nowait: VecMap<RequestId, usize>,
    /// The script of everything done so far.
    history: Vec<String>,
    /// Simulated time the history accounts for.
    history_ms: u64,
    narration: Vec<Line>,
    /// Lines run so far, numbering console commands after the script.
    lines: usize,
}

/// A command being run (see [`Session::begin`]).
#[derive(Debug, Clone)]
pub struct Running {
    cmd: Command,
    result: CommandResult,
    /// When a `wait` ends, or a `wait-until` gives up.
    deadline: u64,
    /// `wait-until`: the condition is to be looked at before the next step.
    check: bool,
    /// Set once the command is over.
    outcome: Option<Result<(), ServerError>>,
}

impl Running {
    pub fn command(&self) -> &Command {
        &self.cmd
    }

    /// Whether it is over (its result is ready for [`Session::finish`]).
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }
}

/// The world and server settings a `cluster` line stands for.
pub fn configs(spec: &ClusterSpec) -> (WorldConfig, ServerConfig) {
    let world = WorldConfig {
        seed: spec.seed,
        heartbeat_ms: spec.heartbeat_ms,
        election_timeout_ms: spec.election_timeout_ms,
        pre_vote: spec.prevote,
        check_quorum: spec.check_quorum,
        // v3.4 and v3.5 hard-code one learner (membership `maxLearners`).
        max_learners: if spec.etcd.max_learners_settable() {
            spec.max_learners as usize
        } else {
            1
        },
        snapshot_count: spec.snapshot_count,
        memory_snapshot_count: spec.etcd.memory_snapshot_count(),
        catchup_entries: spec.catchup_entries,
        latency_ms: (spec.latency_min_ms, spec.latency_max_ms),
        bandwidth: spec.bandwidth,
        transport: spec.transport,
        ..WorldConfig::default()
    };
    let server = ServerConfig {
        strict_reconfig: spec.strict_reconfig,
        release: spec.etcd,
        modes: ModesConfig {
            new_members: spec.new_members,
            auto_promote: spec.auto_promote,
            failover_after_ms: spec.failover_after_ms,
            failover: spec.failover,
        },
        ..ServerConfig::default()
    };
    (world, server)
}

fn failed(code: ErrorCode, detail: impl Into<String>) -> ServerError {
    ServerError::new(code, detail)
}

impl Session {
    /// A fresh cluster as the `cluster` line describes it, at time 0.
    pub fn new(spec: &ClusterSpec) -> Session {
        let (world, server) = configs(spec);
        let mut session = Session {
            spec: spec.clone(),
            cluster: Cluster::new(world, server, &spec.voters),
            results: Vec::new(),
            previous: Previous::None,
            last_value: None,
            nowait: VecMap::new(),
            history: vec![spec.to_string()],
            history_ms: 0,
            narration: Vec::new(),
            lines: 1,
        };
        session.narrate_events();
        session
    }

    /// Parses a script and runs all of it. A script that does not parse runs
    /// nothing.
    pub fn from_script(src: &str) -> Result<Session, ParseError> {
        let script = parse_script(src)?;
        Ok(Session::run(&script))
    }

    /// Runs every command of a parsed script.
    pub fn run(script: &Script) -> Session {
        let mut session = Session::new(&script.cluster);
        for cmd in &script.commands {
            session.execute(cmd.line, &cmd.text, &cmd.node);
        }
        session.lines = script.commands.last().map_or(1, |c| c.line);
        session
    }

    pub fn spec(&self) -> &ClusterSpec {
        &self.spec
    }

    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }

    pub fn results(&self) -> &[CommandResult] {
        &self.results
    }

    pub fn now(&self) -> u64 {
        self.cluster.now()
    }

    /// Parses and runs one console command. A line that does not parse
    /// changes nothing.
    pub fn command(&mut self, line: &str) -> Result<CommandResult, ParseError> {
        let cmd = parse_command(line)?;
        self.lines += 1;
        let text = cmd.to_string();
        Ok(self.execute(self.lines, &text, &cmd))
    }

    /// Moves simulated time forward by `ms` (the browser's animation).
    pub fn advance(&mut self, ms: u64) {
        let t = self.now().saturating_add(ms);
        self.cluster.run_until(t);
        self.after_time();
    }

    /// Runs until the next event worth narrating (at most `limit_ms` ahead).
    /// Returns false if nothing happened within the limit.
    pub fn step_event(&mut self, limit_ms: u64) -> bool {
        let limit = self.now().saturating_add(limit_ms);
        let before = self.narration.len();
        while self.narration.len() == before {
            if !self.cluster.step(limit) {
                self.cluster.run_until(limit);
                self.after_time();
                return false;
            }
            self.after_time();
        }
        true
    }

    /// The lines narrated since the last call.
    pub fn take_narration(&mut self) -> Vec<Line> {
        std::mem::take(&mut self.narration)
    }

    /// Puts lines back in front of the narration not taken yet (a lesson
    /// step's, told with the next narration when something ends it early).
    pub fn push_narration(&mut self, mut lines: Vec<Line>) {
        lines.append(&mut self.narration);
        self.narration = lines;
    }

    /// Everything done so far as a script: the `cluster` line, then each
    /// command, with `wait`s for the time that passed between them.
    pub fn history(&self) -> Vec<String> {
        let mut h = self.history.clone();
        let idle = self.now().saturating_sub(self.history_ms);
        if idle > 0 {
            h.push(Command::Wait(idle).to_string());
        }
        h
    }

    pub fn status(&self) -> Status {
        report::status(&self.cluster)
    }

    pub fn report(&self) -> Report {
        Report::new(
            self.status(),
            self.results.clone(),
            self.cluster.linearizability(),
        )
    }

    pub fn status_json(&self) -> serde_json::Value {
        serde_json::to_value(self.status()).unwrap_or(serde_json::Value::Null)
    }

    pub fn report_json(&self) -> serde_json::Value {
        serde_json::to_value(self.report()).unwrap_or(serde_json::Value::Null)
    }

    /// Every `expect` held and no safety property was broken.
    pub fn passed(&self) -> bool {
        self.cluster.world().violations().is_empty()
            && self
                .results
                .iter()
                .all(|r| r.error != Some(ErrorCode::ExpectFailed.as_str()))
    }

    // ---- running one command ---------------------------------------------------

    /// Runs one parsed command and records its result.
    pub fn execute(&mut self, line: usize, text: &str, cmd: &Command) -> CommandResult {
        let mut running = self.begin(line, text, cmd);
        self.proceed(&mut running, u64::MAX);
        self.finish(running)
    }

    /// Starts running one command a slice of simulated time at a time (the
    /// page's lesson player shows a `wait` happen): [`Session::proceed`]
    /// moves it on, [`Session::finish`] records it. Slices give exactly the
    /// run of the whole command: [`Session::execute`] is the same code with
    /// one slice that ends wherever the command does.
    pub fn begin(&mut self, line: usize, text: &str, cmd: &Command) -> Running {
        // Console commands are numbered after everything run so far.
        self.lines = self.lines.max(line);
        let started_at = self.now();
        if started_at > self.history_ms {
            self.history
                .push(Command::Wait(started_at - self.history_ms).to_string());
        }
        let deadline = match cmd {
            Command::Wait(ms) => started_at.saturating_add(*ms),
            Command::WaitUntil { within_ms, .. } => started_at.saturating_add(*within_ms),
            _ => started_at,
        };
        Running {
            cmd: cmd.clone(),
            result: CommandResult::new(line, text.to_string()),
            deadline,
            check: true,
            outcome: None,
        }
    }

    /// Runs `running` on, to simulated time `until` at most; true once it is
    /// over. Only `wait` and `wait-until` take slices: any other command
    /// runs whole in its first one (a client request that waits for its
    /// answer included).
    pub fn proceed(&mut self, running: &mut Running, until: u64) -> bool {
        if running.outcome.is_some() {
            return true;
        }
        let c = &mut self.cluster;
        match &running.cmd {
            Command::Wait(_) => {
                let t = running.deadline.min(until);
                c.run_until(t);
                if t == running.deadline {
                    running.outcome = Some(Ok(()));
                }
            }
            Command::WaitUntil { cond, within_ms } => {
                let limit = running.deadline.min(until);
                // The condition is looked at when the command starts and
                // after every step, never at a slice's end (where nothing
                // happened): slices see what the whole command sees.
                loop {
                    if running.check {
                        if cond::check(cond, c, &self.previous).is_ok() {
                            running.outcome = Some(Ok(()));
                            break;
                        }
                        running.check = false;
                    }
                    if !c.step(limit) {
                        break;
                    }
                    running.check = true;
                }
                if running.outcome.is_none() {
                    // Nothing more is due by `limit`: the clock moves there.
                    c.run_until(limit);
                    if limit == running.deadline {
                        running.outcome = Some(match cond::check(cond, c, &self.previous) {
                            Ok(()) => Ok(()),
                            Err(why) => Err(failed(
                                ErrorCode::Timeout,
                                format!(
                                    "{cond} did not hold within {}: {why}",
                                    format_duration(*within_ms)
                                ),
                            )),
                        });
                    }
                }
            }
            cmd => {
                let cmd = cmd.clone();
                running.outcome = Some(self.apply(&cmd, &mut running.result));
            }
        }
        self.after_time();
        running.outcome.is_some()
    }

    /// Records a command [`Session::proceed`] ran to its end (one not over
    /// yet is run to its end first) and returns its result.
    pub fn finish(&mut self, mut running: Running) -> CommandResult {
        self.proceed(&mut running, u64::MAX);
        let Running {
            cmd,
            mut result,
            outcome,
            ..
        } = running;
        if let Some(Err(e)) = outcome {
            result.ok = false;
            result.error = Some(e.code.as_str());
            result.detail = Some(e.detail);
        }
        let cmd = &cmd;
        // `ok` and `error=` look at the last command that can fail: a plain
        // `wait` (also the idle time the browser records) never does.
        if !matches!(
            cmd,
            Command::Expect(_)
                | Command::Say(_)
                | Command::Pause
                | Command::Status { via: None }
                | Command::Wait(_)
        ) {
            self.previous = match (result.error, &result.value) {
                (Some(code), _) => Previous::Error(code),
                (None, Some(value)) => Previous::Read(value.clone()),
                (None, None) => Previous::Ok,
            };
        }
        if matches!(cmd, Command::Get { .. }) {
            self.last_value = result.value.clone().flatten();
        }
        self.history.push(cmd.to_string());
        self.after_time();
        self.history_ms = self.now();
        match cmd {
            Command::Pause => {}
            Command::Say(_) => {
                let text = result.detail.clone().unwrap_or_default();
                self.narration.push(Line::say(self.now(), text));
            }
            _ => self
                .narration
                .push(Line::result(self.now(), result.clone())),
        }
        self.results.push(result.clone());
        result
    }

    fn apply(&mut self, cmd: &Command, result: &mut CommandResult) -> Result<(), ServerError> {
        let c = &mut self.cluster;
        match cmd {
            // Run by `proceed`, a slice at a time.
            Command::Wait(_) | Command::WaitUntil { .. } => {}
            Command::Expect(cond) => {
                if let Err(why) = cond::check(cond, c, &self.previous) {
                    return Err(failed(
                        ErrorCode::ExpectFailed,
                        format!("expected {cond}, but {why}"),
                    ));
                }
            }
            Command::Status { via: None } => result.status = Some(Box::new(report::status(c))),
            Command::Status { via: Some(id) } => {
                result.member_status = Some(c.member_status(*id)?);
            }
            Command::Say(text) => result.detail = Some(say::fill(text, &self.say_facts())),
            Command::Pause => {}
            Command::Put {
                key,
                value,
                via,
                size,
                nowait,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let rl = *require_leader;
                if *nowait {
                    let request = c.start_put(key, value, *via, *size, timeout, rl)?;
                    result.pending = true;
                    self.nowait.insert(request, self.results.len());
                } else {
                    result.index = Some(c.put(key, value, *via, *size, timeout, rl)?);
                }
            }
            Command::Get {
                key,
                rev,
                via,
                serializable,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let rev = rev.unwrap_or(0);
                let read = c.get(key, rev, *via, *serializable, timeout, *require_leader)?;
                result.value = Some(read.value);
                result.revision = Some(read.revision);
                result.mod_revision = Some(read.mod_revision);
            }
            Command::Delete {
                key,
                via,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let (deleted, revision) = c.delete(key, *via, timeout, *require_leader)?;
                result.deleted = Some(deleted);
                result.revision = Some(revision);
            }
            Command::Compaction {
                rev,
                via,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                c.compaction(*rev, *via, timeout, *require_leader)?;
            }
            Command::LoadStart {
                rate_per_s,
                size,
                via,
            } => {
                if let Some(v) = via {
                    c.target(Some(*v))?;
                }
                c.start_load(*rate_per_s, size.unwrap_or(DEFAULT_PUT_SIZE), *via);
            }
            Command::LoadStop => {
                if let Some(load) = c.stop_load() {
                    result.detail = Some(format!(
                        "{} writes sent, {} refused at once",
                        load.sent, load.refused
                    ));
                }
            }
            Command::MemberAdd {
                id,
                learner,
                voter,
                standby,
                read_only,
                peer_url,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                // The learner-by-default mode decides what a bare add adds.
                let by_default = c.config().modes.new_members == NewMembers::Learner;
                let learner = *learner || (by_default && !*voter);
                let kind = MemberKind {
                    standby: *standby,
                    read_only: *read_only,
                };
                c.member_add_as(
                    *id,
                    learner,
                    kind,
                    peer_url.as_deref(),
                    timeout,
                    *require_leader,
                )?
            }
            Command::MemberPromote {
                id,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                c.member_promote(*id, timeout, *require_leader)?
            }
            Command::MemberRemove {
                id,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                c.member_remove(*id, timeout, *require_leader)?
            }
            Command::MemberList {
                serializable,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let list = c.member_list(*serializable, timeout, *require_leader)?;
                result.members = Some(list.into_iter().map(MemberJson::from).collect());
            }
            Command::MemberChange {
                change,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                c.member_change(change, timeout, *require_leader)?
            }
            Command::MemberLeaveJoint {
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                c.member_leave_joint(timeout, *require_leader)?
            }
            Command::Start(id) => c.start_process(*id)?,
            Command::Crash(id) => {
                c.check_running(*id)?;
                c.world_mut().crash(*id);
            }
            Command::Campaign(id) => {
                c.check_running(*id)?;
                c.world_mut().campaign(*id);
            }
            Command::TransferLeader(id) => c.move_leader(*id)?,
            Command::Compact(id) => {
                c.check_running(*id)?;
                c.world_mut().compact(*id);
            }
            Command::Cut { a, b, one_way } => {
                known(c, &[*a, *b])?;
                c.world_mut().cut(*a, *b);
                if !one_way {
                    c.world_mut().cut(*b, *a);
                }
            }
            Command::Heal { link } => match link {
                None => c.world_mut().heal_all(),
                Some((a, b, one_way)) => {
                    known(c, &[*a, *b])?;
                    c.world_mut().heal(*a, *b);
                    if !one_way {
                        c.world_mut().heal(*b, *a);
                    }
                }
            },
            Command::Partition(groups) => {
                let all: Vec<NodeId> = groups.iter().flatten().copied().collect();
                known(c, &all)?;
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
            Command::Net {
                loss_ppm,
                latency,
                bandwidth,
            } => {
                let cfg = c.world().config();
                let latency = latency.unwrap_or(cfg.latency_ms);
                let bandwidth = bandwidth.unwrap_or(cfg.bandwidth);
                let loss = loss_ppm.unwrap_or(cfg.loss_ppm);
                c.world_mut().set_network(latency, bandwidth, loss);
            }
            Command::Isolate(id) => {
                known(c, &[*id])?;
                let others: Vec<NodeId> = c.known_ids().into_iter().filter(|o| o != id).collect();
                for o in others {
                    c.world_mut().cut(*id, o);
                    c.world_mut().cut(o, *id);
                }
            }
        }
        Ok(())
    }

    /// What `say` placeholders stand for now.
    fn say_facts(&self) -> say::Facts {
        let c = &self.cluster;
        let conf = c.configuration();
        say::Facts {
            leader: c.leader(),
            term: c.highest_term(),
            quorum: c.majority(),
            voters: conf.voters.into_iter().collect(),
            learners: conf.learners.into_iter().collect(),
            commit: c.commit_index(),
            value: self.last_value.clone(),
            error: self.previous.error(),
            time_ms: c.now(),
        }
    }

    /// After time passed: fill in finished `nowait` writes and narrate.
    fn after_time(&mut self) {
        for Finished { request, outcome } in self.cluster.take_finished() {
            let Some(i) = self.nowait.remove(&request) else {
                continue;
            };
            let Some(r) = self.results.get_mut(i) else {
                continue;
            };
            r.pending = false;
            match outcome {
                Outcome::Put { index } => r.index = Some(index),
                Outcome::Failed(e) => {
                    r.ok = false;
                    r.error = Some(e.code.as_str());
                    r.detail = Some(e.detail);
                }
                Outcome::Read(_)
                | Outcome::Deleted { .. }
                | Outcome::Members(_)
                | Outcome::Done => {}
            }
        }
        self.narrate_events();
    }

    fn narrate_events(&mut self) {
        for e in self.cluster.take_events() {
            if narrate::is_narrated(&e) {
                self.narration.push(Line::event(e));
            }
        }
    }
}

/// The command names only nodes the cluster knows.
fn known(c: &Cluster, ids: &[NodeId]) -> Result<(), ServerError> {
    let known = c.known_ids();
    match ids.iter().find(|id| !known.contains(id)) {
        Some(id) => Err(failed(
            ErrorCode::MemberNotFound,
            format!("there is no node {id}"),
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_records_commands_and_elapsed_time() {
        let mut s = Session::from_script("cluster voters=1,2,3\nwait 2s\n").unwrap();
        s.command("crash 2").unwrap();
        s.advance(500);
        let h = s.history();
        assert_eq!(
            h,
            vec!["cluster voters=1,2,3", "wait 2s", "crash 2", "wait 500ms"]
        );
    }

    #[test]
    fn a_bad_console_line_changes_nothing() {
        let mut s = Session::from_script("cluster voters=1,2,3\nwait 2s\n").unwrap();
        let before = s.report_json();
        assert!(s.command("crash 99").is_err());
        assert!(s.command("membr add 4").is_err());
        assert_eq!(s.report_json(), before);
    }
}
