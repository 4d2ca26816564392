//! Running scenario commands against a cluster. A `Session` is one run: the
//! runner feeds it a whole script, the browser one console command at a
//! time. Every command either takes effect whole or is refused whole.

use crate::raft::vecmap::VecMap;

use crate::raft::NodeId;
use crate::server::client::DEFAULT_PUT_SIZE;
use crate::server::cluster::Finished;
use crate::server::{
    Call, Cluster, ErrorCode, ErrorDetail, MemberKind, ModesConfig, NewMembers, Outcome, RequestId,
    ServerConfig, ServerError,
};
use crate::sim::WorldConfig;

use super::ast::{ClusterSpec, Command, Script, DEFAULT_CLIENT_TIMEOUT_MS};
use super::cond::{self, Previous};
use super::narrate::{self, Line};
use super::parse::{parse_command, parse_script, ParseError};
use super::report::{self, CommandResult, Failure, MemberJson, Report, Status};
use super::say::{self, Spoken};
use super::slice::{Answer, Current, Driver, Op, Queued, Stop, DEFAULT_MEMORY_BUDGET};

/// One run of the scenario language.
#[derive(Debug, Clone)]
pub struct Session {
    spec: ClusterSpec,
    cluster: Cluster,
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
    /// `put ... nowait` requests, by request id, to the index of their result.
    pub(super) nowait: VecMap<RequestId, usize>,
    /// `watch` commands, by watch number, to the index of their result.
    pub(super) watch_results: VecMap<u64, usize>,
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
    pub(super) driver: Driver,
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
            cluster: Cluster::new(world, server, &spec.voters),
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

    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }

    pub(super) fn cluster_mut(&mut self) -> &mut Cluster {
        &mut self.cluster
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
    /// While a command runs in slices the run owns the clock: nothing
    /// happens.
    pub fn advance(&mut self, ms: u64) {
        if self.driver.in_command() {
            return;
        }
        self.driver.forget_snapshot();
        let t = self.now().saturating_add(ms);
        self.cluster.run_until(t);
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
        let mut report = Report::new(
            self.status(),
            self.results.clone(),
            self.cluster.linearizability(),
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
        self.cluster.world().violations().is_empty()
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
    pub fn execute(&mut self, line: usize, text: &str, cmd: &Command) -> CommandResult {
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
    pub fn begin(&mut self, line: usize, text: &str, cmd: &Command) -> Running {
        self.finish_current();
        let mut running = Running {
            cmd: cmd.clone(),
            line,
            text: text.to_string(),
            first: self.results.len(),
            result: None,
        };
        self.driver.count_in(self.now());
        self.start_queued(Queued::new(line, text, cmd.clone()));
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
                result.error = Some(super::slice::STOPPED);
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
        self.msgs_at_start = cond::Counts::now(&self.cluster);
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
        let cmd = &q.cmd;
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
            self.previous_msgs = Some(cond::Counts::now(&self.cluster).since(&self.msgs_at_start));
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
                while self.cluster.step(t) {
                    if let Some(d) = self.after_step(stop_at) {
                        return d;
                    }
                }
                self.cluster.settle(t);
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
                        if cond::check(
                            cond,
                            &self.cluster,
                            &self.previous,
                            self.previous_msgs.as_ref(),
                        )
                        .is_ok()
                        {
                            return Drive::Done;
                        }
                        *check = false;
                    }
                    if !self.cluster.step(limit) {
                        break;
                    }
                    *check = true;
                    if let Some(d) = self.after_step(stop_at) {
                        return d;
                    }
                }
                // Nothing more is due by `limit`: the clock moves there.
                self.cluster.run_until(limit);
                if limit < *deadline {
                    return Drive::Paused;
                }
                if let Err(why) = cond::check(
                    cond,
                    &self.cluster,
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
            Op::Request { request, answer } => {
                let request = *request;
                while self.cluster.is_pending(request) {
                    if !self.cluster.step(u64::MAX) {
                        break;
                    }
                    if let Some(d) = self.after_step(stop_at) {
                        return d;
                    }
                }
                let outcome = self.cluster.take_outcome(request);
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
        if self.work % super::slice::NARRATE_EVERY == 0 {
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
        let c = &mut self.cluster;
        match cmd {
            Command::Wait(ms) => {
                return Ok(Some(Op::Wait {
                    until: c.now().saturating_add(*ms),
                }));
            }
            Command::WaitUntil { cond, within_ms } => {
                return Ok(Some(Op::WaitUntil {
                    cond: cond.clone(),
                    deadline: c.now().saturating_add(*within_ms),
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
                let request = c.start_put(key, value, *via, *size, timeout, rl)?;
                if *nowait {
                    result.pending = true;
                    self.nowait.insert(request, self.results.len());
                    return Ok(None);
                }
                return Ok(Some(Op::Request {
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
                let call = c.begin_get(key, rev, *via, *serializable, timeout, *require_leader)?;
                return Ok(match call {
                    Call::Done(read) => {
                        read_into(result, read);
                        None
                    }
                    Call::Waiting(request) => Some(Op::Request {
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
                let call = c.begin_delete(key, *via, timeout, *require_leader)?;
                return Ok(match call {
                    Call::Done((deleted, revision)) => {
                        result.deleted = Some(deleted);
                        result.revision = Some(revision);
                        None
                    }
                    Call::Waiting(request) => Some(Op::Request {
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
                let id = c.watch(key, *prefix, from_rev.unwrap_or(0), *via)?;
                result.watch = Some(Box::new(report::WatchResult {
                    watch: id,
                    events: Vec::new(),
                    compact_revision: None,
                }));
                self.watch_results.insert(id, self.results.len());
                sync_watch(&self.cluster, id, result);
                return Ok(None);
            }
            Command::Compaction {
                rev,
                via,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                return Ok(done_or_wait(c.begin_compaction(
                    *rev,
                    *via,
                    timeout,
                    *require_leader,
                )?));
            }
            Command::MemberList {
                serializable,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                let call = c.begin_member_list(*serializable, timeout, *require_leader)?;
                return Ok(match call {
                    Call::Done(list) => {
                        result.members = Some(list.into_iter().map(MemberJson::from).collect());
                        None
                    }
                    Call::Waiting(request) => Some(Op::Request {
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
                let call = c.begin_member_add_as(
                    *id,
                    learner,
                    kind,
                    peer_url.as_deref(),
                    timeout,
                    *require_leader,
                )?;
                return Ok(done_or_wait(call));
            }
            Command::MemberPromote {
                id,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                return Ok(done_or_wait(c.begin_member_promote(
                    *id,
                    timeout,
                    *require_leader,
                )?));
            }
            Command::MemberRemove {
                id,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                return Ok(done_or_wait(c.begin_member_remove(
                    *id,
                    timeout,
                    *require_leader,
                )?));
            }
            Command::MemberChange {
                change,
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                return Ok(done_or_wait(c.begin_member_change(
                    change,
                    timeout,
                    *require_leader,
                )?));
            }
            Command::MemberLeaveJoint {
                timeout_ms,
                require_leader,
            } => {
                let timeout = timeout_ms.unwrap_or(DEFAULT_CLIENT_TIMEOUT_MS);
                return Ok(done_or_wait(
                    c.begin_member_leave_joint(timeout, *require_leader)?,
                ));
            }
            Command::TransferLeader(id) => return Ok(done_or_wait(c.begin_move_leader(*id)?)),
            _ => {}
        }
        self.apply(cmd, result)?;
        Ok(None)
    }

    /// Does a command that takes no time.
    fn apply(&mut self, cmd: &Command, result: &mut CommandResult) -> Result<(), Failure> {
        let c = &mut self.cluster;
        match cmd {
            Command::Expect(cond) => {
                if let Err(why) = cond::check(cond, c, &self.previous, self.previous_msgs.as_ref())
                {
                    return Err(Failure::Expect {
                        cond: cond.clone(),
                        unmet: why,
                    });
                }
            }
            Command::Status { via: None } => result.status = Some(Box::new(report::status(c))),
            Command::Status { via: Some(id) } => {
                result.member_status = Some(c.member_status(*id)?);
            }
            Command::Say { text, .. } => result.detail = Some(say::fill(text, &self.say_facts())),
            Command::Pause => {}
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
            Command::Start(id) => c.start_process(*id)?,
            Command::Crash(id) => {
                c.check_running(*id)?;
                c.world_mut().crash(*id);
            }
            Command::Campaign(id) => {
                c.check_running(*id)?;
                c.world_mut().campaign(*id);
            }
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
    pub(super) fn after_time(&mut self) {
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
                Outcome::Failed(e) => r.fail(e),
                Outcome::Read(_)
                | Outcome::Deleted { .. }
                | Outcome::Members(_)
                | Outcome::Done => {}
            }
        }
        for (&id, &i) in self.watch_results.iter() {
            if let Some(r) = self.results.get_mut(i) {
                sync_watch(&self.cluster, id, r);
            }
        }
        self.narrate_events();
    }

    pub(super) fn narrate_events(&mut self) {
        for e in self.cluster.take_events() {
            if narrate::is_narrated(&e) {
                self.narration.push(Line::event(e));
            }
        }
    }
}

/// A command being run a slice of simulated time at a time (see
/// [`Session::begin`]): a handle on the session's command in progress.
#[derive(Debug, Clone)]
pub struct Running {
    cmd: Command,
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
    let Some(r) = result.watch.as_mut() else {
        return;
    };
    let known = r.events.len();
    r.events.extend(
        w.events
            .iter()
            .skip(known)
            .map(report::WatchEventJson::from),
    );
    if let (Some(rev), None) = (w.canceled, r.compact_revision) {
        r.compact_revision = Some(rev);
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

/// What a started command still needs.
pub(super) enum Drive {
    /// It ended.
    Done,
    /// The slice's work is spent; it goes on in the next.
    Paused,
    /// The run holds more than its memory budget (this many bytes).
    OverBudget(u64),
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

fn done_or_wait(call: Call<()>) -> Option<Op> {
    match call {
        Call::Done(()) => None,
        Call::Waiting(request) => Some(Op::Request {
            request,
            answer: Answer::Done,
        }),
    }
}

/// The command names only nodes the cluster knows.
fn known(c: &Cluster, ids: &[NodeId]) -> Result<(), ServerError> {
    let known = c.known_ids();
    match ids.iter().find(|id| !known.contains(id)) {
        Some(id) => Err(ServerError::new(
            ErrorCode::MemberNotFound,
            ErrorDetail::NoSuchNode { id: *id },
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
