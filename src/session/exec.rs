//! Running scenario commands against a cluster. A `Session` is one run: the
//! runner feeds it a whole script, the browser one console command at a
//! time. Every command either takes effect whole or is refused whole.

use crate::collections::vecmap::VecMap;
use std::sync::Arc;

use crate::raft::NodeId;
use crate::server::client::DEFAULT_PUT_SIZE;
use crate::server::request::Finished;
use crate::server::{
    Call, Cluster, ErrorCode, ErrorDetail, Fleet, MemberKind, ModesConfig, NewMembers, Outcome,
    RequestId, ServerConfig, ServerError,
};
use crate::sim::WorldConfig;

use crate::lang::ast::{ClusterSpec, Command, Script, DEFAULT_CLIENT_TIMEOUT_MS};
use crate::lang::parse::{parse_command, parse_script, ParseError};
use crate::lang::say::{self, Spoken};
use crate::session::cond::{self, Previous};
use crate::session::driver::{Answer, Current, Drive, Driver, Op, Queued};
use crate::session::failure::Failure;
use crate::session::narrate::{self, Line};
use crate::session::report::{self, CommandResult, MemberJson, Report, Status};
use crate::session::stop::{Stop, DEFAULT_MEMORY_BUDGET};

/// One run of the scenario language.
#[derive(Debug, Clone)]
pub struct Session {
    spec: ClusterSpec,
    /// The clusters (the first one's `cluster` line is `spec`) and the
    /// mirror processes.
    fleet: Fleet,
    pub(super) results: Vec<CommandResult>,
    previous: Previous,
    /// The messages each node sent and received while the previous command
    /// (the one `previous` describes) ran, for `msgs-out`/`msgs-in`.
    previous_msgs: Option<cond::Counts>,
    /// Every node's message counts when the command now running began.
    msgs_at_start: cond::Counts,
    /// The value the last `get` read, for `{value}` (`None`: it found no
    /// such key, failed, or none ran yet).
    last_value: Option<String>,
    /// `put ... nowait` requests, by cluster and request id, to the index
    /// of their result (all `u64`: a map type the module already holds).
    pub(super) nowait: VecMap<(u64, RequestId), u64>,
    /// `watch` commands, by cluster and watch number, to the index of their
    /// result (the same).
    pub(super) watch_results: VecMap<(u64, u64), u64>,
    /// The script of everything done so far.
    pub(super) history: Vec<String>,
    /// Simulated time the history accounts for.
    history_ms: u64,
    pub(super) narration: Vec<Line>,
    /// Lines run so far, numbering console commands after the script.
    pub(super) lines: usize,
    /// Work done: engine steps and commands begun. Slices are measured in
    /// it, and the memory budget is checked at points of it, so a run stops
    /// at the same point however it is sliced.
    pub(super) work: u64,
    /// The work at which memory is next counted.
    pub(super) next_check: u64,
    /// Bytes a run may hold before it is stopped (`None`: no limit).
    pub(super) memory_budget: Option<u64>,
    /// Bytes held for this session by its owner (a timeline's
    /// checkpoints), counted against the budget with its own.
    pub(super) external_bytes: u64,
    /// Why the run stopped before its end, if it did.
    pub(super) stopped: Option<Stop>,
    /// Whether the session keeps a rollback clone to undo a command cut
    /// short (a timeline keeps its own, and turns this off).
    pub(super) rollback_clones: bool,
    /// The commands queued and the one in progress; not part of the state
    /// (a clone starts without them).
    pub(super) driver: Driver<Session>,
    /// Room for the events narrated after each step, kept empty between
    /// steps so that a long `wait` does not allocate it again every step.
    pub(super) events: Vec<crate::sim::event::Event>,
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

impl Session {
    /// A fresh cluster as the `cluster` line describes it, at time 0.
    pub fn new(spec: &ClusterSpec) -> Session {
        let (world, server) = configs(spec);
        let mut session = Session {
            spec: spec.clone(),
            fleet: Fleet::new(Cluster::new(world, server, &spec.voters)),
            results: Vec::new(),
            previous: Previous::None,
            previous_msgs: None,
            msgs_at_start: cond::Counts::default(),
            last_value: None,
            nowait: VecMap::new(),
            watch_results: VecMap::new(),
            history: vec![spec.to_string()],
            history_ms: 0,
            narration: Vec::new(),
            lines: 1,
            work: 0,
            next_check: 0,
            memory_budget: Some(DEFAULT_MEMORY_BUDGET),
            external_bytes: 0,
            stopped: None,
            rollback_clones: true,
            driver: Driver::default(),
            events: Vec::new(),
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

    /// Runs every command of a parsed script (all of it in one slice:
    /// the same run as [`Session::queued`] then [`Session::run_slice`]
    /// until done). A run the memory budget stops ends there; see
    /// [`Session::stopped`].
    pub fn run(script: &Script) -> Session {
        let mut session = Session::queued(script);
        while session.is_running() {
            session.run_slice(u64::MAX);
        }
        session.lines = script.commands.last().map_or(1, |c| c.line);
        session
    }

    pub fn spec(&self) -> &ClusterSpec {
        &self.spec
    }

    /// The first cluster (`main`).
    pub fn cluster(&self) -> &Cluster {
        self.fleet.main()
    }

    /// Every cluster of the run and the mirror processes.
    pub fn fleet(&self) -> &Fleet {
        &self.fleet
    }

    pub(super) fn fleet_mut(&mut self) -> &mut Fleet {
        &mut self.fleet
    }

    pub fn results(&self) -> &[CommandResult] {
        &self.results
    }

    pub fn now(&self) -> u64 {
        self.fleet.now()
    }

    /// Parses and runs one console command. A line that does not parse
    /// changes nothing.
    pub fn command(&mut self, line: &str) -> Result<CommandResult, ParseError> {
        let cmd = parse_command(line)?;
        self.lines += 1;
        let text = cmd.to_string();
        Ok(self.execute(self.lines, &text, Arc::new(cmd)))
    }

    /// Moves simulated time forward by `ms` (the browser's animation).
    /// While a command runs in slices the run owns the clock: nothing
    /// happens.
    pub fn advance(&mut self, ms: u64) {
        if self.driver.in_command() {
            return;
        }
        self.driver.forget_snapshot();
        let t = self.now().saturating_add(ms);
        self.fleet.run_until(t);
        self.after_time();
    }

    /// Runs until the next event worth narrating (at most `limit_ms` ahead).
    /// Returns false if nothing happened within the limit (or a command
    /// runs in slices, which owns the clock).
    pub fn step_event(&mut self, limit_ms: u64) -> bool {
        if self.driver.in_command() {
            return false;
        }
        self.driver.forget_snapshot();
        let limit = self.now().saturating_add(limit_ms);
        let before = self.narration.len();
        while self.narration.len() == before {
            if !self.fleet.step(limit) {
                self.fleet.run_until(limit);
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
        report::fleet_status(&self.fleet)
    }

    pub fn report(&self) -> Report {
        let mut report = Report::new(
            self.status(),
            self.results.clone(),
            self.fleet.main().linearizability(),
        );
        report.stopped = self.stopped.clone();
        report
    }

    pub fn status_json(&self) -> serde_json::Value {
        serde_json::to_value(self.status()).unwrap_or(serde_json::Value::Null)
    }

    pub fn report_json(&self) -> serde_json::Value {
        serde_json::to_value(self.report()).unwrap_or(serde_json::Value::Null)
    }

    /// Every `expect` held and no safety property was broken.
    pub fn passed(&self) -> bool {
        self.fleet
            .clusters()
            .iter()
            .all(|c| c.world().violations().is_empty())
            && self
                .results
                .iter()
                .all(|r| r.error != Some(ErrorCode::ExpectFailed.as_str()))
    }

    // ---- running one command ---------------------------------------------------

    /// Runs one parsed command and records its result. If a run is going
    /// on in slices, the command in progress finishes first (the queued
    /// ones stay queued). If the memory budget stops the command, the
    /// session is as before it and the result says `stopped`.
    pub fn execute(&mut self, line: usize, text: &str, cmd: Arc<Command>) -> CommandResult {
        let running = self.begin(line, text, cmd);
        self.finish(running)
    }

    /// Starts running one command a slice of simulated time at a time (the
    /// page's lesson player shows a `wait` happen): [`Session::proceed`]
    /// moves it on, [`Session::finish`] returns its result. It is the same
    /// slicing as [`Session::run_slice`]'s (the command becomes the
    /// command in progress), bounded by simulated time instead of work:
    /// slices of either kind give exactly the run of the whole command.
    /// If a run is going on in slices, its command in progress finishes
    /// first (the queued ones stay queued).
    pub fn begin(&mut self, line: usize, text: &str, cmd: Arc<Command>) -> Running {
        self.finish_current();
        let mut running = Running {
            cmd: Arc::clone(&cmd),
            line,
            text: text.to_string(),
            first: self.results.len(),
            result: None,
        };
        self.driver.count_in(self.now());
        self.start_queued(Queued::new(line, text, cmd));
        self.collect(&mut running);
        running
    }

    /// Runs `running` on, to simulated time `until` at most; true once it is
    /// over. Only `wait` and `wait-until` stop at `until`: any other command
    /// runs whole in its first slice (a client request that waits for its
    /// answer included).
    pub fn proceed(&mut self, running: &mut Running, until: u64) -> bool {
        if running.result.is_some() {
            return true;
        }
        if let Some(mut cur) = self.driver.current.take() {
            match self.drive(&mut cur.op, &mut cur.result, u64::MAX, until) {
                Drive::Done => {
                    let Current { q, result, .. } = *cur;
                    self.end(q, result);
                }
                Drive::Paused => {
                    self.driver.current = Some(cur);
                    self.after_time();
                }
                Drive::OverBudget(counted) => {
                    self.driver.current = Some(cur);
                    self.stop_for_memory(counted);
                }
            }
        }
        self.collect(running);
        running.result.is_some()
    }

    /// Runs a command [`Session::begin`] started to its end (if it is not
    /// over yet) and returns its result: `stopped` if the memory budget
    /// stopped it (the session is then as before it).
    pub fn finish(&mut self, mut running: Running) -> CommandResult {
        while !self.proceed(&mut running, u64::MAX) {}
        match running.result.take() {
            Some(result) => result,
            None => self.stopped_result(&running),
        }
    }

    /// Fills in `running`'s result once the session no longer runs it.
    fn collect(&self, running: &mut Running) {
        if running.result.is_some() || self.driver.in_command() {
            return;
        }
        running.result = Some(match self.results.get(running.first) {
            Some(r) => r.clone(),
            None => self.stopped_result(running),
        });
    }

    /// The result of a command the memory budget stopped and undid.
    fn stopped_result(&self, running: &Running) -> CommandResult {
        let mut result = CommandResult::new(running.line, running.text.clone());
        match &self.stopped {
            Some(stop) => result.fail(Failure::Stopped(Box::new(stop.clone()))),
            None => {
                result.ok = false;
                result.error = Some(crate::session::stop::STOPPED);
            }
        }
        result
    }

    /// Begins a command: what takes no time is done at once; a command that
    /// lets time pass becomes the command in progress, driven by
    /// `drive`.
    pub(super) fn start_queued(&mut self, q: Queued) {
        // Only a command that lets time pass can be cut short and undone.
        if passes_time(&q.cmd) {
            self.snapshot_if_due();
        }
        self.work += 1;
        // Console commands are numbered after everything run so far.
        self.lines = self.lines.max(q.line);
        let started_at = self.now();
        self.msgs_at_start = cond::Counts::now_in(&self.fleet);
        if started_at > self.history_ms {
            self.history
                .push(Command::Wait(started_at - self.history_ms).to_string());
        }
        let mut result = CommandResult::new(q.line, q.text.clone());
        match self.start(&q.cmd, &mut result) {
            Ok(Some(op)) => self.driver.set_current(q, result, op),
            Ok(None) => self.end(q, result),
            Err(e) => {
                result.fail(e);
                self.end(q, result);
            }
        }
    }

    /// Records a finished command: its result, the history, the narration.
    pub(super) fn end(&mut self, q: Queued, result: CommandResult) {
        let cmd: &Command = &q.cmd;
        // `ok` and `error=` look at the last command that can fail: a plain
        // `wait` (also the idle time the browser records) never does.
        if !matches!(
            cmd,
            Command::Expect(_)
                | Command::Say { .. }
                | Command::Pause
                | Command::Status { via: None }
                | Command::Wait(_)
        ) {
            self.previous = match (result.error, &result.value) {
                (Some(code), _) => Previous::Error(code),
                (None, Some(value)) => Previous::Read(value.clone()),
                (None, None) => Previous::Ok,
            };
            self.previous_msgs = Some(cond::Counts::now_in(&self.fleet).since(&self.msgs_at_start));
        }
        if matches!(cmd, Command::Get { .. }) {
            self.last_value = result.value.clone().flatten();
        }
        self.history.push(cmd.to_string());
        self.after_time();
        self.history_ms = self.now();
        match cmd {
            Command::Pause => {}
            Command::Say { ja, .. } => {
                // The report keeps the English words; the Japanese ones
                // are filled with the same facts, for the page only.
                let en = result.detail.clone().unwrap_or_default();
                let ja = ja.as_ref().map(|t| say::fill(t, &self.say_facts()));
                self.narration
                    .push(Line::say(self.now(), Spoken { en, ja }));
            }
            _ => self
                .narration
                .push(Line::result(self.now(), result.clone())),
        }
        self.results.push(result);
        self.driver.finished(q);
    }

    /// Steps the command in progress until it ends, the work reaches
    /// `stop_at`, or (a `wait` or `wait-until`) simulated time reaches
    /// `until`. Each step is one the unsliced command would take, in the
    /// same order: however a run is sliced, it is the same run.
    pub(super) fn drive(
        &mut self,
        op: &mut Op,
        result: &mut CommandResult,
        stop_at: u64,
        until: u64,
    ) -> Drive {
        match op {
            Op::Wait { until: deadline } => {
                let t = (*deadline).min(until);
                while self.fleet.step(t) {
                    if let Some(d) = self.after_step(stop_at) {
                        return d;
                    }
                }
                self.fleet.settle(t);
                if t < *deadline {
                    return Drive::Paused;
                }
            }
            Op::WaitUntil {
                cond,
                deadline,
                within_ms,
                check,
            } => {
                let limit = (*deadline).min(until);
                // The condition is looked at when the command starts and
                // after every step, never at a slice's end (where nothing
                // happened): slices see what the whole command sees.
                loop {
                    if *check {
                        if cond::check_in(
                            cond,
                            &self.fleet,
                            &self.previous,
                            self.previous_msgs.as_ref(),
                        )
                        .is_ok()
                        {
                            return Drive::Done;
                        }
                        *check = false;
                    }
                    if !self.fleet.step(limit) {
                        break;
                    }
                    *check = true;
                    if let Some(d) = self.after_step(stop_at) {
                        return d;
                    }
                }
                // Nothing more is due by `limit`: the clock moves there.
                self.fleet.run_until(limit);
                if limit < *deadline {
                    return Drive::Paused;
                }
                if let Err(why) = cond::check_in(
                    cond,
                    &self.fleet,
                    &self.previous,
                    self.previous_msgs.as_ref(),
                ) {
                    result.fail(Failure::WaitUntil {
                        cond: cond.clone(),
                        within_ms: *within_ms,
                        unmet: why,
                    });
                }
            }
            Op::Request {
                cluster,
                request,
                answer,
            } => {
                let (k, request) = (*cluster, *request);
                while self.fleet.cluster(k).is_pending(request) {
                    if !self.fleet.step(u64::MAX) {
                        break;
                    }
                    if let Some(d) = self.after_step(stop_at) {
                        return d;
                    }
                }
                let outcome = self.fleet.cluster_mut(k).take_outcome(request);
                let answered = match answer {
                    Answer::Put => outcome.into_put().map(|i| result.index = Some(i)),
                    Answer::Read => outcome.into_read().map(|read| read_into(result, read)),
                    Answer::Deleted => outcome.into_deleted().map(|(deleted, revision)| {
                        result.deleted = Some(deleted);
                        result.revision = Some(revision);
                    }),
                    Answer::Members => outcome.into_members().map(|list| {
                        result.members = Some(list.into_iter().map(MemberJson::from).collect());
                    }),
                    Answer::Done => outcome.into_done(),
                };
                if let Err(e) = answered {
                    result.fail(e);
                }
            }
        }
        Drive::Done
    }

    /// After one engine step of a command: counts the work, narrates now and
    /// then (so a long wait holds few events), counts memory when due.
    fn after_step(&mut self, stop_at: u64) -> Option<Drive> {
        self.work += 1;
        if self.work % crate::session::driver::NARRATE_EVERY == 0 {
            self.narrate_events();
        }
        if let Some(counted) = self.over_budget() {
            return Some(Drive::OverBudget(counted));
        }
        (self.work >= stop_at).then_some(Drive::Paused)
    }

    /// Starts one parsed command: does what takes no time, and returns what
    /// is left to wait for, if anything.
    fn start(&mut self, cmd: &Command, result: &mut CommandResult) -> Result<Option<Op>, Failure> {
        let now = self.now();
        match cmd {
            Command::Wait(ms) => {
                return Ok(Some(Op::Wait {
                    until: now.saturating_add(*ms),
                }));
            }
            Command::WaitUntil { cond, within_ms } => {
                return Ok(Some(Op::WaitUntil {
                    cond: cond.clone(),
                    deadline: now.saturating_add(*within_ms),
                    within_ms: *within_ms,
                    check: true,
                }));
            }
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
                let k = self.via_cluster(*via);
                let c = self.fleet.cluster_mut(k);
                let request = c.start_put(key, value, *via, *size, timeout, rl)?;
                if *nowait {
                    result.pending = true;
                    self.nowait
                        .insert((k as u64, request), self.results.len() as u64);
                    return Ok(None);
                }
                return Ok(Some(Op::Request {
                    cluster: k,
                    request,
                    answer: Answer::Put,
                }));
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
                let k = self.via_cluster(*via);
                let c = self.fleet.cluster_mut(k);
                let call = c.begin_get(key, rev, *via, *serializable, timeout, *require_leader)?;
                return Ok(match call {
                    Call::Done(read) => {
                        read_into(result, read);
                        None
                    }
                    Call::Waiting(request) => Some(Op::Request {
                        cluster: k,
                        request,
                        answer: Answer::Read,
                    }),
                });
            }
            Command::Delete {
                key,
                via,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let k = self.via_cluster(*via);
                let c = self.fleet.cluster_mut(k);
                let call = c.begin_delete(key, *via, timeout, *require_leader)?;
                return Ok(match call {
                    Call::Done((deleted, revision)) => {
                        result.deleted = Some(deleted);
                        result.revision = Some(revision);
                        None
                    }
                    Call::Waiting(request) => Some(Op::Request {
                        cluster: k,
                        request,
                        answer: Answer::Deleted,
                    }),
                });
            }
            Command::Watch {
                key,
                prefix,
                from_rev,
                via,
            } => {
                let k = self.via_cluster(*via);
                let c = self.fleet.cluster_mut(k);
                let id = c.watch(key, *prefix, from_rev.unwrap_or(0), *via)?;
                result.watch = Some(id);
                result.events = Some(Vec::new());
                self.watch_results
                    .insert((k as u64, id), self.results.len() as u64);
                sync_watch(self.fleet.cluster(k), id, result);
                return Ok(None);
            }
            Command::Compaction {
                rev,
                via,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let k = self.via_cluster(*via);
                let c = self.fleet.cluster_mut(k);
                let call = c.begin_compaction(*rev, *via, timeout, *require_leader)?;
                return Ok(done_or_wait(k, call));
            }
            Command::MemberList {
                serializable,
                via,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let k = self.via_cluster(*via);
                let c = self.fleet.cluster_mut(k);
                let call = c.begin_member_list(*serializable, timeout, *require_leader)?;
                return Ok(match call {
                    Call::Done(list) => {
                        result.members = Some(list.into_iter().map(MemberJson::from).collect());
                        None
                    }
                    Call::Waiting(request) => Some(Op::Request {
                        cluster: k,
                        request,
                        answer: Answer::Members,
                    }),
                });
            }
            Command::MemberAdd {
                id,
                learner,
                voter,
                standby,
                read_only,
                peer_url,
                via,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let k = self.via_cluster(*via);
                // Clusters and mirror processes keep their ids apart.
                if self.fleet.cluster_of(*id).is_some_and(|o| o != k) || self.fleet.is_mirror(*id) {
                    self.fleet.check_free(*id)?;
                }
                let c = self.fleet.cluster_mut(k);
                // The learner-by-default mode decides what a bare add adds.
                let by_default = c.config().modes.new_members == NewMembers::Learner;
                let learner = *learner || (by_default && !*voter);
                let kind = MemberKind {
                    standby: *standby,
                    read_only: *read_only,
                };
                let call = c.begin_member_add_as(
                    *id,
                    learner,
                    kind,
                    peer_url.as_deref(),
                    timeout,
                    *require_leader,
                )?;
                return Ok(done_or_wait(k, call));
            }
            Command::MemberPromote {
                id,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let k = self.node_cluster(*id);
                let c = self.fleet.cluster_mut(k);
                return Ok(done_or_wait(
                    k,
                    c.begin_member_promote(*id, timeout, *require_leader)?,
                ));
            }
            Command::MemberRemove {
                id,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let k = self.node_cluster(*id);
                let c = self.fleet.cluster_mut(k);
                return Ok(done_or_wait(
                    k,
                    c.begin_member_remove(*id, timeout, *require_leader)?,
                ));
            }
            Command::MemberChange {
                change,
                via,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let k = self.via_cluster(*via);
                for id in change.add.iter().chain(&change.add_learner) {
                    if self.fleet.cluster_of(*id).is_some_and(|o| o != k)
                        || self.fleet.is_mirror(*id)
                    {
                        self.fleet.check_free(*id)?;
                    }
                }
                let c = self.fleet.cluster_mut(k);
                return Ok(done_or_wait(
                    k,
                    c.begin_member_change(change, timeout, *require_leader)?,
                ));
            }
            Command::MemberLeaveJoint {
                via,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let k = self.via_cluster(*via);
                let c = self.fleet.cluster_mut(k);
                return Ok(done_or_wait(
                    k,
                    c.begin_member_leave_joint(timeout, *require_leader)?,
                ));
            }
            Command::TransferLeader(id) => {
                let k = self.node_cluster(*id);
                let c = self.fleet.cluster_mut(k);
                return Ok(done_or_wait(k, c.begin_move_leader(*id)?));
            }
            _ => {}
        }
        self.apply(cmd, result)?;
        Ok(None)
    }

    /// The cluster a request with `via` goes to: `via`'s, else the first.
    fn via_cluster(&self, via: Option<NodeId>) -> usize {
        via.and_then(|id| self.fleet.cluster_of(id)).unwrap_or(0)
    }

    /// The cluster of node `id` (the first if no cluster knows it: its own
    /// checks then refuse the command as before).
    fn node_cluster(&self, id: NodeId) -> usize {
        self.fleet.cluster_of(id).unwrap_or(0)
    }

    /// Cuts (or heals) the link `a`–`b` in direction a to b, and back unless
    /// `one_way`: within one cluster, or between a mirror and one of its two
    /// members. Two nodes of different clusters have no link.
    fn set_link(&mut self, a: NodeId, b: NodeId, one_way: bool, cut: bool) -> Result<(), Failure> {
        let ends = [(a, b), (b, a)];
        let ends = if one_way { &ends[..1] } else { &ends[..] };
        if self.fleet.is_mirror_link(a, b) {
            for &(x, y) in ends {
                self.fleet.set_mirror_link(x, y, cut);
            }
            return Ok(());
        }
        for id in [a, b] {
            if self.fleet.cluster_of(id).is_none() && !self.fleet.is_mirror(id) {
                return Err(no_such_node(id).into());
            }
        }
        let (ka, kb) = (self.fleet.cluster_of(a), self.fleet.cluster_of(b));
        match (ka, kb) {
            (Some(x), Some(y)) if x == y => {
                let w = self.fleet.cluster_mut(x).world_mut();
                for &(p, q) in ends {
                    if cut {
                        w.cut(p, q);
                    } else {
                        w.heal(p, q);
                    }
                }
                Ok(())
            }
            _ => Err(ServerError::new(
                ErrorCode::MemberNotFound,
                ErrorDetail::NoLinkAcross { a, b },
            )
            .into()),
        }
    }

    /// Does a command that takes no time.
    fn apply(&mut self, cmd: &Command, result: &mut CommandResult) -> Result<(), Failure> {
        match cmd {
            Command::Expect(cond) => {
                let (fleet, previous) = (&self.fleet, &self.previous);
                if let Err(why) = cond::check_in(cond, fleet, previous, self.previous_msgs.as_ref())
                {
                    return Err(Failure::Expect {
                        cond: cond.clone(),
                        unmet: why,
                    });
                }
            }
            Command::Status { via: None } => result.status = Some(std::rc::Rc::new(self.status())),
            Command::Status { via: Some(id) } => {
                let k = self.node_cluster(*id);
                result.member_status =
                    Some(std::rc::Rc::new(self.fleet.cluster(k).member_status(*id)?));
            }
            Command::Say { text, .. } => result.detail = Some(say::fill(text, &self.say_facts())),
            Command::Pause => {}
            Command::LoadStart {
                rate_per_s,
                size,
                via,
            } => {
                let k = self.via_cluster(*via);
                let c = self.fleet.cluster_mut(k);
                if let Some(v) = via {
                    c.target(Some(*v))?;
                }
                c.start_load(*rate_per_s, size.unwrap_or(DEFAULT_PUT_SIZE), *via);
            }
            Command::LoadStop => {
                // Every cluster's load stops; the first's counts are told.
                let mut told = None;
                for k in 0..self.fleet.len() {
                    if let Some(load) = self.fleet.cluster_mut(k).stop_load() {
                        told.get_or_insert(load);
                    }
                }
                if let Some(load) = told {
                    result.detail = Some(format!(
                        "{} writes sent, {} refused at once",
                        load.sent, load.refused
                    ));
                }
            }
            Command::Start(id) => {
                let k = self.node_cluster(*id);
                self.fleet.cluster_mut(k).start_process(*id)?;
            }
            Command::Crash(id) => {
                let c = self.fleet.cluster_mut(self.node_cluster(*id));
                c.check_running(*id)?;
                c.world_mut().crash(*id);
            }
            Command::Campaign(id) => {
                let c = self.fleet.cluster_mut(self.node_cluster(*id));
                c.check_running(*id)?;
                c.world_mut().campaign(*id);
            }
            Command::Compact(id) => {
                let c = self.fleet.cluster_mut(self.node_cluster(*id));
                c.check_running(*id)?;
                c.world_mut().compact(*id);
            }
            Command::Cut { a, b, one_way } => self.set_link(*a, *b, *one_way, true)?,
            Command::Heal { link } => match link {
                None => {
                    for k in 0..self.fleet.len() {
                        self.fleet.cluster_mut(k).world_mut().heal_all();
                    }
                    self.fleet.heal_mirror_links();
                }
                Some((a, b, one_way)) => self.set_link(*a, *b, *one_way, false)?,
            },
            Command::Partition(groups) => {
                let all: Vec<NodeId> = groups.iter().flatten().copied().collect();
                for id in &all {
                    if self.fleet.cluster_of(*id).is_none() && !self.fleet.is_mirror(*id) {
                        return Err(no_such_node(*id).into());
                    }
                }
                // Every link between two groups is cut; two nodes of
                // different clusters have none.
                for (i, g) in groups.iter().enumerate() {
                    for h in &groups[i + 1..] {
                        for &a in g {
                            for &b in h {
                                let linked = self.fleet.is_mirror_link(a, b)
                                    || self.fleet.cluster_of(a) == self.fleet.cluster_of(b);
                                if linked {
                                    self.set_link(a, b, false, true)?;
                                }
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
                let c = self.fleet.main_mut();
                let cfg = c.world().config();
                let latency = latency.unwrap_or(cfg.latency_ms);
                let bandwidth = bandwidth.unwrap_or(cfg.bandwidth);
                let loss = loss_ppm.unwrap_or(cfg.loss_ppm);
                c.world_mut().set_network(latency, bandwidth, loss);
            }
            Command::Isolate(id) => {
                // Every link of the node: in its cluster, and a mirror's.
                let mirror_peers: Vec<(NodeId, NodeId)> = self
                    .fleet
                    .mirrors()
                    .iter()
                    .flat_map(|m| [(m.id, m.from), (m.id, m.to)])
                    .filter(|(m, p)| m == id || p == id)
                    .collect();
                if self.fleet.is_mirror(*id) {
                    for (m, p) in mirror_peers {
                        self.set_link(m, p, false, true)?;
                    }
                    return Ok(());
                }
                let k = self
                    .fleet
                    .cluster_of(*id)
                    .ok_or_else(|| no_such_node(*id))?;
                let c = self.fleet.cluster_mut(k);
                let others: Vec<NodeId> = c.known_ids().into_iter().filter(|o| o != id).collect();
                for o in others {
                    c.world_mut().cut(*id, o);
                    c.world_mut().cut(o, *id);
                }
                for (m, p) in mirror_peers {
                    self.set_link(m, p, false, true)?;
                }
            }
            Command::AddCluster(spec) => {
                let index = self.fleet.len() as u64;
                let (mut world, server) = configs(spec);
                world.seed = cluster_seed(self.spec.seed, spec.seed, index);
                world.start_ms = self.now();
                let name = spec.name.clone().unwrap_or_default();
                for id in &spec.voters {
                    self.fleet.check_free(*id)?;
                }
                let cluster = Cluster::new(world, server, &spec.voters);
                self.fleet.add_cluster(&name, cluster)?;
            }
            Command::MirrorStart {
                id,
                from,
                to,
                prefix,
            } => self.fleet.mirror_start(*id, *from, *to, prefix.clone())?,
            Command::MirrorStop(id) => self.fleet.mirror_stop(*id)?,
            Command::Hold { .. }
            | Command::Release { .. }
            | Command::Drop { .. }
            | Command::DeliverNext { .. } => self.by_hand(cmd, result)?,
            // Started by `start`, which waits for them.
            Command::Wait(_)
            | Command::WaitUntil { .. }
            | Command::Put { .. }
            | Command::Get { .. }
            | Command::Delete { .. }
            | Command::Compaction { .. }
            | Command::Watch { .. }
            | Command::MemberAdd { .. }
            | Command::MemberPromote { .. }
            | Command::MemberRemove { .. }
            | Command::MemberList { .. }
            | Command::MemberChange { .. }
            | Command::MemberLeaveJoint { .. }
            | Command::TransferLeader(_) => {}
        }
        Ok(())
    }

    /// What `say` placeholders stand for now.
    fn say_facts(&self) -> say::Facts {
        let c = self.fleet.main();
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
    pub(super) fn after_time(&mut self) {
        // Mirror processes take their answers first.
        self.fleet.pump();
        let mut finished = Vec::new();
        for k in 0..self.fleet.len() {
            for f in self.fleet.cluster_mut(k).take_finished() {
                finished.push((k, f));
            }
        }
        for (k, Finished { request, outcome }) in finished {
            let Some(i) = self.nowait.remove(&(k as u64, request)) else {
                continue;
            };
            let Some(r) = self.results.get_mut(i as usize) else {
                continue;
            };
            r.pending = false;
            match outcome {
                Outcome::Put { index } => r.index = Some(index),
                Outcome::Failed(e) => r.fail(e),
                Outcome::Read(_)
                | Outcome::Deleted { .. }
                | Outcome::Members(_)
                | Outcome::Done => {}
            }
        }
        for (&(k, id), &i) in self.watch_results.iter() {
            if let Some(r) = self.results.get_mut(i as usize) {
                sync_watch(self.fleet.cluster(k as usize), id, r);
            }
        }
        self.narrate_events();
    }

    pub(super) fn narrate_events(&mut self) {
        let mut events = std::mem::take(&mut self.events);
        self.fleet.take_events_into(&mut events);
        for e in events.drain(..) {
            if narrate::is_narrated(&e) {
                self.narration.push(Line::event(e));
            }
        }
        self.events = events;
    }
}

/// A command being run a slice of simulated time at a time (see
/// [`Session::begin`]): a handle on the session's command in progress.
#[derive(Debug, Clone)]
pub struct Running {
    cmd: Arc<Command>,
    line: usize,
    text: String,
    /// The session's result count when it began: its result goes there.
    first: usize,
    /// Its result, once it is over.
    result: Option<CommandResult>,
}

impl Running {
    pub fn command(&self) -> &Command {
        &self.cmd
    }

    /// Whether it is over (its result is ready for [`Session::finish`]).
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }
}

/// Brings a `watch` command's result up to date with its watch: the
/// events received since, and a cancellation (the watch then failed with
/// `compacted`, as etcdctl `watch` ends with etcd's error).
fn sync_watch(c: &Cluster, id: u64, result: &mut CommandResult) {
    let Some(w) = c.world().watch_of(id) else {
        return;
    };
    let Some(events) = result.events.as_mut() else {
        return;
    };
    let known = events.len();
    events.extend(
        w.events
            .iter()
            .skip(known)
            .map(report::WatchEventJson::from),
    );
    if let (Some(rev), None) = (w.canceled, result.compact_revision) {
        result.compact_revision = Some(rev);
        result.fail(ServerError::new(
            ErrorCode::Compacted,
            ErrorDetail::WatchCanceled {
                watch: id,
                compact_revision: rev,
            },
        ));
    }
}

/// A read's answer into the command's result.
fn read_into(result: &mut CommandResult, read: crate::sim::kv::KeyRead) {
    result.value = Some(read.value);
    result.revision = Some(read.revision);
    result.mod_revision = Some(read.mod_revision);
}

/// Whether the command may let simulated time pass (and so be stopped in
/// the middle, or cut by the end of a slice).
pub(super) fn passes_time(cmd: &Command) -> bool {
    match cmd {
        Command::Wait(_)
        | Command::WaitUntil { .. }
        | Command::Get { .. }
        | Command::Delete { .. }
        | Command::Compaction { .. }
        | Command::MemberAdd { .. }
        | Command::MemberPromote { .. }
        | Command::MemberRemove { .. }
        | Command::MemberList { .. }
        | Command::MemberChange { .. }
        | Command::MemberLeaveJoint { .. }
        | Command::TransferLeader(_) => true,
        Command::Put { nowait, .. } => !nowait,
        _ => false,
    }
}

fn done_or_wait(cluster: usize, call: Call<()>) -> Option<Op> {
    match call {
        Call::Done(()) => None,
        Call::Waiting(request) => Some(Op::Request {
            cluster,
            request,
            answer: Answer::Done,
        }),
    }
}

/// A command naming a node no cluster knows.
fn no_such_node(id: NodeId) -> ServerError {
    ServerError::new(ErrorCode::MemberNotFound, ErrorDetail::NoSuchNode { id })
}

/// The seed of the world of the cluster at `index` (1 for the second): from
/// the first `cluster` line's seed, its own line's and its index, so that
/// each cluster draws its own numbers and a run stays a function of its
/// script.
pub fn cluster_seed(first: u64, own: u64, index: u64) -> u64 {
    let mut z = first ^ own.rotate_left(29) ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    // splitmix64's finaliser.
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
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
