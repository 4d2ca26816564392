//! Running scenario commands against a cluster. A `Session` is one run: the
//! runner feeds it a whole script, the browser one console command at a
//! time. Every command either takes effect whole or is refused whole.

use crate::collections::chunked::Chunked;
use crate::collections::heap::Meter;
use crate::collections::vecmap::VecMap;
use std::sync::Arc;

use crate::server::request::Finished;
use crate::server::{
    Cluster, ErrorCode, ErrorDetail, Fleet, ModesConfig, Outcome, RequestId, ServerConfig,
    ServerError,
};
use crate::sim::WorldConfig;

use crate::lang::ast::{ClusterSpec, Command, Condition, Script};
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
    pub(super) spec: ClusterSpec,
    /// The clusters (the first one's `cluster` line is `spec`) and the
    /// mirror processes.
    pub(super) fleet: Fleet,
    /// In shared chunks, as the log is: a time-travel checkpoint clones a
    /// session, and a long run's results (and history) would otherwise be
    /// copied whole at every checkpoint.
    pub(super) results: Chunked<CommandResult>,
    pub(super) previous: Previous,
    /// The messages each node sent and received while the previous command
    /// (the one `previous` describes) ran, for `msgs-out`/`msgs-in`.
    pub(super) previous_msgs: Option<cond::Counts>,
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
    pub(super) history: Chunked<String>,
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
        conn_read_timeout_ms: spec.etcd.silent_cut_noticed_after_ms(),
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
            results: Chunked::default(),
            previous: Previous::None,
            previous_msgs: None,
            msgs_at_start: cond::Counts::default(),
            last_value: None,
            nowait: VecMap::new(),
            watch_results: VecMap::new(),
            history: std::iter::once(spec.to_string()).collect(),
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

    pub fn results(&self) -> &Chunked<CommandResult> {
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
        let mut h = self.history.to_vec();
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
            self.results.to_vec(),
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
            self.history.push_weighed(
                Command::Wait(started_at - self.history_ms).to_string(),
                weigh_line,
            );
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
        self.history.push_weighed(cmd.to_string(), weigh_line);
        self.after_time();
        self.history_ms = self.now();
        match cmd {
            Command::Pause => {}
            Command::Say { ja, .. } => {
                // The report keeps the English words; the Japanese line is
                // kept as written with the same facts, and the Japanese
                // renderer fills it in its words, for the page only (a
                // line with no Japanese keeps no facts).
                let en = result.detail.clone().unwrap_or_default();
                let facts = match ja {
                    Some(_) => self.say_facts(),
                    None => say::Facts::default(),
                };
                let ja = ja.clone();
                self.narration
                    .push(Line::say(self.now(), Spoken { en, ja, facts }));
            }
            _ => self
                .narration
                .push(Line::result(self.now(), result.clone())),
        }
        self.results.push_weighed(result, weigh_result);
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
            Op::Wait { until: deadline } => self.drive_wait(*deadline, stop_at, until),
            Op::WaitUntil {
                cond,
                deadline,
                within_ms,
                check,
            } => {
                let limit = (*deadline).min(until);
                if let Some(d) = self.step_until_holds(cond, check, limit, stop_at) {
                    return d;
                }
                // Nothing more is due by `limit`: the clock moves there.
                self.fleet.run_until(limit);
                if limit < *deadline {
                    return Drive::Paused;
                }
                if let Err(why) = self.check_condition(cond) {
                    result.fail(Failure::WaitUntil {
                        cond: cond.clone(),
                        within_ms: *within_ms,
                        unmet: why,
                    });
                }
                Drive::Done
            }
            Op::Request {
                cluster,
                request,
                answer,
            } => self.drive_request(*cluster, *request, *answer, result, stop_at),
        }
    }

    /// `wait`: steps until `deadline`, or `until` if that comes first.
    fn drive_wait(&mut self, deadline: u64, stop_at: u64, until: u64) -> Drive {
        let t = deadline.min(until);
        while self.fleet.step(t) {
            if let Some(d) = self.after_step(stop_at) {
                return d;
            }
        }
        self.fleet.settle(t);
        if t < deadline {
            return Drive::Paused;
        }
        Drive::Done
    }

    /// `wait-until`: steps until `cond` holds (`Done`), the step or the
    /// work stops it (what `after_step` says), or nothing more is due by
    /// `limit` (`None`).
    fn step_until_holds(
        &mut self,
        cond: &Condition,
        check: &mut bool,
        limit: u64,
        stop_at: u64,
    ) -> Option<Drive> {
        // The condition is looked at when the command starts and
        // after every step, never at a slice's end (where nothing
        // happened): slices see what the whole command sees.
        loop {
            if *check {
                if self.check_condition(cond).is_ok() {
                    return Some(Drive::Done);
                }
                *check = false;
            }
            if !self.fleet.step(limit) {
                return None;
            }
            *check = true;
            if let Some(d) = self.after_step(stop_at) {
                return Some(d);
            }
        }
    }

    /// A request waited for: steps until it is answered, then fills in
    /// `result` with its answer.
    fn drive_request(
        &mut self,
        k: usize,
        request: RequestId,
        answer: Answer,
        result: &mut CommandResult,
        stop_at: u64,
    ) -> Drive {
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
        Drive::Done
    }

    /// Whether `cond` holds now, as `expect` and `wait-until` see it: in
    /// the fleet, after the previous command.
    pub(super) fn check_condition(&self, cond: &Condition) -> Result<(), cond::Unmet> {
        cond::check_in(
            cond,
            &self.fleet,
            &self.previous,
            self.previous_msgs.as_ref(),
        )
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

    /// What `say` placeholders stand for now.
    pub(super) fn say_facts(&self) -> say::Facts {
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
            // Nearly always none: a timeline's `wait` comes here after
            // every step.
            if !self.fleet.cluster(k).has_finished() {
                continue;
            }
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
        // A timeline's `wait` narrates after every step, and most steps
        // leave nothing to take.
        if !self.fleet.has_events() {
            return;
        }
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
pub(super) fn sync_watch(c: &Cluster, id: u64, result: &mut CommandResult) {
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
pub(super) fn read_into(result: &mut CommandResult, read: crate::sim::kv::KeyRead) {
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
        | Command::TransferLeader(_)
        | Command::Status { via: Some(_) } => true,
        Command::Put { nowait, .. } => !nowait,
        _ => false,
    }
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

/// What a result owns, for its chunk's weight (`Chunked::push_weighed`).
pub(super) fn weigh_result(r: &CommandResult, m: &mut Meter) {
    r.heap_size(m);
}

/// What a line of the history owns.
pub(super) fn weigh_line(s: &String, m: &mut Meter) {
    m.string(s);
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
