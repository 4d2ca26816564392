//! The real side of `raftlab diff`: one local etcd cluster driven through
//! a script, command by command, in wall-clock time.
//!
//! Each member is one etcd process with its own data directory, started
//! and stopped by the driver: on 127.0.0.1 with ports of its own (member N
//! listens for clients at `base + N` and for peers at `base + 20 + N`), or,
//! when the script cuts links, in a network namespace of its own
//! (`netns.rs`). Requests go through etcdctl (`etcdctl.rs`); conditions are
//! read from each member's raft status and member list (`observe.rs`).
//! `docs/real-etcd.md` says how each command is driven.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

use crate::lang::ast::Script;
use crate::lang::ast::{ClusterSpec, Command, Condition, RoleName};
use crate::raft::NodeId;
use crate::server::facts::SelfView;
use crate::server::ErrorCode;
use crate::session::cond::{Previous, SetName, Unmet};

use super::gateway::{self, decode_base64};
use super::observe::{self, RaftStatus};
use super::plan::{self, Kind};
use super::row::{Answer, Binaries};
use super::{errors, etcdctl, load, netns};

/// How long a started process may take to show that it runs (its client
/// port answers) or that it cannot (it exits).
const START_WAIT: Duration = Duration::from_millis(1500);
/// How long a removed member started again may take to hear from its
/// peers that it was removed.
const REMOVED_WAIT: Duration = Duration::from_millis(1000);
/// How often `wait-until` looks.
const POLL: Duration = Duration::from_millis(50);
/// The slot of the first port block (`--ports`' default): the namespaces'
/// subnet is numbered from it.
const FIRST_PORT: u16 = 21000;

/// One member of the real cluster.
#[derive(Debug, Default)]
struct Member {
    /// The peer URL etcd is given (raftlab's `http://nN:2380` translated
    /// to the member's real address).
    peer_url: String,
    learner: bool,
    /// A member of the cluster now (a founding one, or added and not
    /// removed).
    member: bool,
    removed: bool,
    child: Option<Child>,
    /// etcd's id for it, once known.
    hex: Option<u64>,
    /// Where its current process's lines begin in its log (which every
    /// process of the member appends to).
    log_from: u64,
    /// Its process serves clients: etcd answers on the client port only
    /// once the member is ready (`embed/serve.go` `serve` waits for
    /// `ReadyNotify`, then logs "serving client traffic"); a request before
    /// that waits. Read from its log.
    serving: bool,
}

/// What a member logs once it answers on its client port, in 3.4 and 3.5.
const SERVING: &str = "serving client traffic";

/// A running cluster and what the driver knows of it.
pub struct Real<'a> {
    bins: &'a Binaries,
    spec: ClusterSpec,
    dir: PathBuf,
    base: u16,
    token: String,
    members: BTreeMap<NodeId, Member>,
    /// The result `ok`, `error=`, `value=` and `absent` look at.
    previous: Previous,
    /// The background load, while one runs.
    load: Option<load::Load>,
    /// Declared last: dropped after the processes (a namespace with a
    /// process in it outlives its name).
    net: Option<netns::Network>,
}

/// Runs `script` (parsed under the release's profile) on a real cluster of `bins`'
/// release: one answer per command. An error is a cluster that could not be
/// set up.
pub fn run(script: &Script, bins: &Binaries, dir: &Path, base: u16) -> Result<Vec<Answer>, String> {
    let plan = plan::Plan::of(script, true);
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let net = if plan.needs_network {
        let slot = base.saturating_sub(FIRST_PORT) / super::PORTS_PER_CLUSTER;
        Some(netns::Network::new(slot, script.cluster.bandwidth)?)
    } else {
        None
    };
    let mut real = Real {
        bins,
        spec: script.cluster.clone(),
        dir: dir.to_path_buf(),
        base,
        token: format!("raftlab-{}-{base}", std::process::id()),
        members: BTreeMap::new(),
        previous: Previous::None,
        load: None,
        net,
    };
    let first = plan::first_campaign(script);
    real.boot(first)?;
    if let Some(n) = first {
        real.steer_first_election(n)?;
    }
    let mut answers = Vec::with_capacity(script.commands.len());
    for (c, kind) in script.commands.iter().zip(&plan.kinds) {
        let answer = real.execute(&c.node, kind);
        answers.push(answer);
    }
    Ok(answers)
}

impl Drop for Real<'_> {
    fn drop(&mut self) {
        // No write goes to a member being killed.
        self.load = None;
        self.kill_all();
    }
}

/// What a file holds past byte `from`.
fn text_since(path: &Path, from: u64) -> String {
    let mut text = Vec::new();
    if let Ok(mut f) = std::fs::File::open(path) {
        if f.seek(SeekFrom::Start(from)).is_ok() {
            let _ = f.read_to_end(&mut text);
        }
    }
    String::from_utf8_lossy(&text).into_owned()
}

fn ms_since(t: Instant) -> u64 {
    u64::try_from(t.elapsed().as_millis()).unwrap_or(u64::MAX)
}

impl Real<'_> {
    // ---- addresses ---------------------------------------------------------

    fn ip(&self, id: NodeId) -> String {
        match &self.net {
            Some(n) => n.ip(id),
            None => "127.0.0.1".to_string(),
        }
    }

    fn client_addr(&self, id: NodeId) -> String {
        match &self.net {
            Some(_) => format!("{}:2379", self.ip(id)),
            None => format!("127.0.0.1:{}", self.base + id as u16),
        }
    }

    fn peer_addr(&self, id: NodeId) -> String {
        match &self.net {
            Some(_) => format!("{}:2380", self.ip(id)),
            None => format!("127.0.0.1:{}", self.base + 20 + id as u16),
        }
    }

    /// raftlab's peer URL for `id` as etcd is given it: a URL naming a
    /// member's host (`nK`, on 2380) names that member's real address; any
    /// other is passed as written (a member given another host's URL
    /// cannot listen there: its process exits when it starts).
    fn translate_url(&self, url: &str) -> String {
        let Some((scheme, rest)) = url.split_once("://") else {
            return url.to_string();
        };
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let (host_port, tail) = rest.split_at(end);
        let named = host_port
            .strip_suffix(":2380")
            .and_then(|h| h.strip_prefix('n'))
            .and_then(|n| n.parse::<NodeId>().ok())
            .filter(|n| (1..=15).contains(n));
        match named {
            Some(k) => format!("{scheme}://{}{tail}", self.peer_addr(k)),
            None => url.to_string(),
        }
    }

    fn running(&mut self, id: NodeId) -> bool {
        let Some(m) = self.members.get_mut(&id) else {
            return false;
        };
        match m.child.as_mut().map(|c| c.try_wait()) {
            Some(Ok(None)) => true,
            Some(_) => {
                m.child = None;
                false
            }
            None => false,
        }
    }

    fn running_ids(&mut self) -> Vec<NodeId> {
        let ids: Vec<NodeId> = self.members.keys().copied().collect();
        ids.into_iter().filter(|&id| self.running(id)).collect()
    }

    // ---- processes ---------------------------------------------------------

    /// Starts the founding members. The one a script's first `campaign N`
    /// names runs its election clock ahead (etcd's
    /// `--initial-election-tick-advance`), the others start with their
    /// clocks at zero, as raftlab's members do, so N campaigns first.
    fn boot(&mut self, first: Option<NodeId>) -> Result<(), String> {
        for &id in &self.spec.voters.clone() {
            let peer_url = format!("http://{}", self.peer_addr(id));
            self.members.insert(
                id,
                Member {
                    peer_url,
                    member: true,
                    ..Member::default()
                },
            );
        }
        let voters = self.spec.voters.clone();
        for &id in &voters {
            if let Some(net) = self.net.as_mut() {
                net.add_member(id)?;
            }
            let child = self.spawn(id, true, first == Some(id))?;
            if let Some(m) = self.members.get_mut(&id) {
                m.child = Some(child);
            }
        }
        // Every founding member listens before the first command.
        let deadline = Instant::now() + Duration::from_secs(10);
        for &id in &voters {
            while !observe::listening(&self.client_addr(id)) {
                if !self.running(id) {
                    return Err(format!("member {id} did not start: {}", self.log_tail(id)));
                }
                if Instant::now() > deadline {
                    return Err(format!("member {id} does not answer on its client port"));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        Ok(())
    }

    /// A script that opens with `campaign N` has N win the first election
    /// at term 2, as raftlab's N does: N's clock runs ahead at boot, and
    /// in the rare boot where another member still campaigned first (or
    /// the votes split), the driver boots the cluster again, before any
    /// command has run.
    fn steer_first_election(&mut self, n: NodeId) -> Result<(), String> {
        const ATTEMPTS: usize = 5;
        let wait = Duration::from_millis(3 * self.spec.election_timeout_ms + 3000);
        for _ in 0..ATTEMPTS {
            let t = Instant::now();
            while t.elapsed() < wait {
                let seen = self.look();
                if let Some(l) = Self::leader_in(&seen) {
                    let term = seen.get(&l).map_or(0, |s| s.term);
                    if l == n && term == 2 {
                        return Ok(());
                    }
                    break;
                }
                std::thread::sleep(POLL);
            }
            self.kill_all();
            for id in self.spec.voters.clone() {
                let _ = std::fs::remove_dir_all(self.dir.join(format!("n{id}")));
            }
            self.members.clear();
            self.boot(Some(n))?;
        }
        Err(format!(
            "member {n} did not win the first election at term 2 in {ATTEMPTS} boots"
        ))
    }

    fn kill_all(&mut self) {
        for m in self.members.values_mut() {
            if let Some(mut child) = m.child.take() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }

    fn initial_cluster(&self) -> String {
        self.members
            .iter()
            .filter(|(_, m)| m.member)
            .map(|(id, m)| format!("n{id}={}", m.peer_url))
            .collect::<Vec<_>>()
            .join(",")
    }

    fn log_path(&self, id: NodeId) -> PathBuf {
        self.dir.join(format!("n{id}.log"))
    }

    /// The last line of member `id`'s log that says why it stopped.
    fn log_tail(&self, id: NodeId) -> String {
        let text = std::fs::read_to_string(self.log_path(id)).unwrap_or_default();
        let pick = |l: &&str| {
            l.contains("\"level\":\"fatal\"")
                || l.contains("\"level\":\"error\"")
                || l.contains("permanently removed")
                || l.contains("listener failed")
        };
        let line = text
            .lines()
            .rev()
            .find(pick)
            .or_else(|| text.lines().last())
            .unwrap_or("no log");
        // The message and its error, out of zap's JSON.
        match serde_json::from_str::<serde_json::Value>(line) {
            Ok(v) => {
                let msg = v["msg"].as_str().unwrap_or("");
                let err = v["error"].as_str().unwrap_or("");
                if err.is_empty() {
                    msg.to_string()
                } else {
                    format!("{msg}: {err}")
                }
            }
            Err(_) => line.to_string(),
        }
    }

    fn spawn(&mut self, id: NodeId, founding: bool, advance: bool) -> Result<Child, String> {
        let m = self.members.get(&id).ok_or("no such member")?;
        let client = format!("http://{}", self.client_addr(id));
        let data = self.dir.join(format!("n{id}"));
        let mut args: Vec<String> = vec![
            format!("--name=n{id}"),
            format!("--data-dir={}", data.display()),
            format!("--listen-client-urls={client}"),
            format!("--advertise-client-urls={client}"),
            format!("--listen-peer-urls={}", m.peer_url),
            format!("--initial-advertise-peer-urls={}", m.peer_url),
            format!("--initial-cluster={}", self.initial_cluster()),
            format!(
                "--initial-cluster-state={}",
                if founding { "new" } else { "existing" }
            ),
            format!("--initial-cluster-token={}", self.token),
            format!("--heartbeat-interval={}", self.spec.heartbeat_ms),
            format!("--election-timeout={}", self.spec.election_timeout_ms),
            format!("--strict-reconfig-check={}", self.spec.strict_reconfig),
            format!("--pre-vote={}", self.spec.prevote),
            format!("--initial-election-tick-advance={advance}"),
            format!("--snapshot-count={}", self.spec.snapshot_count),
            "--logger=zap".to_string(),
        ];
        if self.spec.etcd.max_learners_settable() {
            args.push(format!("--max-learners={}", self.spec.max_learners));
        }
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.log_path(id))
            .map_err(|e| format!("cannot open the log of member {id}: {e}"))?;
        let log2 = log.try_clone().map_err(|e| e.to_string())?;
        // The new process's lines begin here; it serves clients once they
        // say so.
        let log_from = log.metadata().map_or(0, |m| m.len());
        if let Some(m) = self.members.get_mut(&id) {
            m.log_from = log_from;
            m.serving = false;
        }
        let mut cmd = match &self.net {
            Some(net) => {
                let mut c = Process::new("ip");
                c.args(["netns", "exec", &net.namespace(id)])
                    .arg(&self.bins.etcd);
                c
            }
            None => Process::new(&self.bins.etcd),
        };
        cmd.args(&args)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(log2);
        cmd.spawn()
            .map_err(|e| format!("cannot start {}: {e}", self.bins.etcd.display()))
    }

    /// `start N`: the same data directory, a new process.
    fn start(&mut self, id: NodeId) -> Answer {
        let t = Instant::now();
        if !self.members.contains_key(&id) {
            return Answer::failed(
                ErrorCode::MemberNotFound.as_str(),
                format!("member {id} was never added"),
                0,
            );
        }
        let founding = self.spec.voters.contains(&id);
        if self.running(id) {
            return Answer::failed(ErrorCode::IdExists.as_str(), "it runs already", 0);
        }
        if let Some(net) = self.net.as_mut() {
            if let Err(e) = net.add_member(id) {
                return Answer::failed("driver", e, 0);
            }
        }
        let child = match self.spawn(id, founding, false) {
            Ok(c) => c,
            Err(e) => return Answer::failed("driver", e, 0),
        };
        if let Some(m) = self.members.get_mut(&id) {
            m.child = Some(child);
        }
        // It runs once its peer port answers: etcd listens there before a
        // new member talks to its peers and starts raft (which takes seconds
        // from 3.5 on when they have no leader), and serves its client port
        // only after. It cannot when it exits (a peer URL it cannot listen
        // on). A removed member's peers tell it it was removed a moment
        // after it starts, and it stops.
        let removed = self.members.get(&id).is_some_and(|m| m.removed);
        let log_from = self.members.get(&id).map_or(0, |m| m.log_from);
        let addr = self.peer_addr(id);
        let mut listening_since: Option<Instant> = None;
        while t.elapsed() < START_WAIT {
            let log = self.log_since(id, log_from);
            let told = log.contains("permanently removed from the cluster");
            if !self.running(id) || told {
                let why = if told {
                    "the member has been permanently removed from the cluster".to_string()
                } else {
                    self.log_tail(id)
                };
                let code = errors::code_of(&why)
                    .map_or_else(|| "exited".to_string(), |c| c.as_str().to_string());
                return Answer::failed(code, format!("exited: {why}"), ms_since(t));
            }
            if listening_since.is_none() && observe::listening(&addr) {
                listening_since = Some(Instant::now());
            }
            if listening_since.is_some_and(|l| !removed || l.elapsed() > REMOVED_WAIT) {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Answer::ok("ok", 0)
    }

    /// What member `id` logged past byte `from`.
    fn log_since(&self, id: NodeId, from: u64) -> String {
        text_since(&self.log_path(id), from)
    }

    /// `crash N`: kill -9, its connections close at once.
    fn crash(&mut self, id: NodeId) -> Answer {
        let removed = self.members.get(&id).is_some_and(|m| m.removed);
        if !self.running(id) {
            let code = if removed {
                ErrorCode::IdRemoved
            } else if self.members.contains_key(&id) {
                ErrorCode::NotStarted
            } else {
                ErrorCode::MemberNotFound
            };
            return Answer::failed(code.as_str(), "no process runs", 0);
        }
        if let Some(mut child) = self.members.get_mut(&id).and_then(|m| m.child.take()) {
            let _ = child.kill();
            let _ = child.wait();
        }
        Answer::ok("ok", 0)
    }

    // ---- looking ------------------------------------------------------------

    /// Whether member `id`'s process serves clients yet (its lines in the
    /// log, read until they say so).
    fn serving(&mut self, id: NodeId) -> bool {
        let Some(m) = self.members.get(&id) else {
            return false;
        };
        if m.serving {
            return true;
        }
        let serving = self.log_since(id, m.log_from).contains(SERVING);
        if let Some(m) = self.members.get_mut(&id) {
            m.serving = serving;
        }
        serving
    }

    /// Every running member's raft status; each teaches the driver its id.
    /// A member not yet serving clients is not asked: it would answer
    /// nothing until the look's timeout, and a look taking that long would
    /// give the cluster time the script does not (lesson 10's learner caught
    /// up during the looks between its start and its promotion).
    fn look(&mut self) -> BTreeMap<NodeId, RaftStatus> {
        let mut seen = BTreeMap::new();
        for id in self.running_ids() {
            if !self.serving(id) {
                continue;
            }
            if let Ok(s) = observe::raft_status(&self.client_addr(id)) {
                if let Some(m) = self.members.get_mut(&id) {
                    m.hex = Some(s.id);
                }
                seen.insert(id, s);
            }
        }
        seen
    }

    /// The leader: a running member that says it leads, the highest term
    /// first (a deposed leader may not know it yet), as raftlab's "the
    /// leader" is.
    fn leader_in(seen: &BTreeMap<NodeId, RaftStatus>) -> Option<NodeId> {
        seen.iter()
            .filter(|(_, s)| s.role == "leader")
            .max_by_key(|(id, s)| (s.term, std::cmp::Reverse(**id)))
            .map(|(id, _)| *id)
    }

    /// The member whose view stands for the cluster's, as raftlab's facts
    /// take it: the leader, else the running member of the highest term.
    fn authority_in(seen: &BTreeMap<NodeId, RaftStatus>) -> Option<NodeId> {
        Self::leader_in(seen).or_else(|| {
            seen.iter()
                .max_by_key(|(id, s)| (s.term, std::cmp::Reverse(**id)))
                .map(|(id, _)| *id)
        })
    }

    fn id_of_hex(&self, hex: u64) -> Option<NodeId> {
        self.members
            .iter()
            .find(|(_, m)| m.hex == Some(hex))
            .map(|(id, _)| *id)
    }

    /// The member list as the leader (else the lowest running member)
    /// answers it: (id, learner, started) by raftlab's ids.
    fn members_seen(
        &mut self,
        leader: Option<NodeId>,
    ) -> Result<Vec<(NodeId, bool, bool)>, String> {
        let asked = leader
            .or_else(|| self.running_ids().first().copied())
            .ok_or("no member runs")?;
        let list = observe::member_list(&self.client_addr(asked))?;
        Ok(self.name_members(&list))
    }

    /// Names the members of an etcd member list by raftlab's ids (by
    /// etcd's id, else by peer URL); learns the ids it did not know.
    fn name_members(&mut self, list: &[observe::Listed]) -> Vec<(NodeId, bool, bool)> {
        let mut out = Vec::new();
        for l in list {
            let id = self.id_of_hex(l.id).or_else(|| {
                self.members
                    .iter()
                    .find(|(_, m)| m.member && l.peer_urls.contains(&m.peer_url))
                    .map(|(id, _)| *id)
            });
            if let Some(id) = id {
                if let Some(m) = self.members.get_mut(&id) {
                    m.hex = Some(l.id);
                }
            }
            out.push((id.unwrap_or(0), l.learner, l.started));
        }
        out.sort_unstable();
        out
    }

    /// Whether `cond` holds now; on false, what is true instead.
    /// Checks a condition on what the real cluster shows now.
    fn check(&mut self, cond: &Condition) -> Result<(), String> {
        let seen = self.look();
        match cond {
            Condition::Leader
            | Condition::LeaderIs(_)
            | Condition::NoLeader
            | Condition::Term(_)
            | Condition::TermAtLeast(_) => Self::check_leader(cond, &seen),
            Condition::CaughtUp(_)
            | Condition::MatchShare { .. }
            | Condition::AllApplied
            | Condition::Role { .. }
            | Condition::Progress { .. } => self.check_replication(cond, &seen),
            Condition::Quorum(_) | Condition::Voters(_) | Condition::Learners(_) => {
                self.check_membership(cond, &seen)
            }
            Condition::Ok | Condition::Error(_) | Condition::Value(_) | Condition::Absent => {
                self.check_previous(cond)
            }
            Condition::SeesItself { id, learner } => self.check_sees_itself(*id, *learner),
            other => Err(format!("{other:?} cannot be observed on etcd")),
        }
    }

    /// `sees-itself N=...`: the member's own view of itself, as `etcdctl
    /// endpoint status` shows it (isLearner); false while it is down, as
    /// raftlab's.
    fn check_sees_itself(&mut self, id: NodeId, learner: bool) -> Result<(), String> {
        let actual = if self.running(id) && self.serving(id) {
            observe::is_learner(&self.client_addr(id)).ok().map(|l| {
                if l {
                    SelfView::Learner
                } else {
                    SelfView::Voter
                }
            })
        } else {
            None
        };
        crate::session::cond::self_view_is(id, actual, learner).or_else(unmet)
    }

    /// The leader and the term, as the members answer them.
    fn check_leader(cond: &Condition, seen: &BTreeMap<NodeId, RaftStatus>) -> Result<(), String> {
        let leader = Self::leader_in(seen);
        let leader_text = |l: Option<NodeId>| l.map_or(Unmet::NoLeader, Unmet::LeaderIs);
        let term = seen.values().map(|s| s.term).max().unwrap_or(0);
        match cond {
            Condition::Leader => match leader {
                Some(_) => Ok(()),
                None => unmet(Unmet::NoLeader),
            },
            Condition::LeaderIs(n) => {
                if leader == Some(*n) {
                    Ok(())
                } else {
                    unmet(leader_text(leader))
                }
            }
            Condition::NoLeader => match leader {
                None => Ok(()),
                l => unmet(leader_text(l)),
            },
            Condition::Term(t) => {
                if term == *t {
                    Ok(())
                } else {
                    unmet(Unmet::Term(term))
                }
            }
            Condition::TermAtLeast(t) => {
                if term >= *t {
                    Ok(())
                } else {
                    unmet(Unmet::Term(term))
                }
            }
            other => Err(format!("{other:?} cannot be observed on etcd")),
        }
    }

    /// The leader's view of each member's log: matched, applied, its role
    /// and its progress state.
    fn check_replication(
        &mut self,
        cond: &Condition,
        seen: &BTreeMap<NodeId, RaftStatus>,
    ) -> Result<(), String> {
        let leader = Self::leader_in(seen);
        match cond {
            Condition::CaughtUp(n) => self.leader_match(seen, leader, *n, &|m, last| m == last),
            Condition::MatchShare { id, bound, percent } => {
                let (bound, percent) = (*bound, *percent);
                self.leader_match(seen, leader, *id, &move |m, last| {
                    bound.holds(m.saturating_mul(100), percent.saturating_mul(last))
                })
            }
            Condition::AllApplied => {
                let Some(l) = leader else {
                    return unmet(Unmet::NoLeader);
                };
                let commit = seen.get(&l).map_or(0, |s| s.commit);
                let behind: Vec<(NodeId, u64)> = seen
                    .iter()
                    .filter(|(id, _)| **id == l || !self.is_cut(l, **id))
                    .filter(|(_, s)| s.applied < commit)
                    .map(|(id, s)| (*id, s.applied))
                    .collect();
                if behind.is_empty() {
                    Ok(())
                } else {
                    unmet(Unmet::NotApplied { commit, behind })
                }
            }
            Condition::Role { id, role } => {
                let actual = match seen.get(id) {
                    Some(s) => s.role,
                    None if self.running(*id) => "not answering",
                    None => RoleName::Down.as_str(),
                };
                if actual == role.as_str() {
                    Ok(())
                } else {
                    unmet(Unmet::Role { id: *id, actual })
                }
            }
            Condition::Progress { id, state } => {
                let Some(l) = leader else {
                    return unmet(Unmet::NoLeader);
                };
                let hex = self.members.get(id).and_then(|m| m.hex);
                match hex.and_then(|h| seen.get(&l)?.progress.get(&h)) {
                    Some(&(_, actual)) if actual == state.as_str() => Ok(()),
                    Some(&(_, actual)) => unmet(Unmet::Progress { id: *id, actual }),
                    None => unmet(Unmet::NotTracked(*id)),
                }
            }
            other => Err(format!("{other:?} cannot be observed on etcd")),
        }
    }

    /// The membership as the cluster lists it.
    fn check_membership(
        &mut self,
        cond: &Condition,
        seen: &BTreeMap<NodeId, RaftStatus>,
    ) -> Result<(), String> {
        match cond {
            Condition::Quorum(q) => {
                let members = self.members_seen(Self::authority_in(seen))?;
                let voters = members.iter().filter(|m| !m.1).count();
                let quorum = voters / 2 + 1;
                if quorum as u64 == *q {
                    Ok(())
                } else {
                    unmet(Unmet::Quorum(quorum))
                }
            }
            Condition::Voters(list) | Condition::Learners(list) => {
                let learners = matches!(cond, Condition::Learners(_));
                let members = self.members_seen(Self::authority_in(seen))?;
                let actual: Vec<NodeId> = members
                    .iter()
                    .filter(|m| m.1 == learners)
                    .map(|m| m.0)
                    .collect();
                let a: BTreeSet<NodeId> = list.iter().copied().collect();
                let b: BTreeSet<NodeId> = actual.iter().copied().collect();
                if a == b {
                    Ok(())
                } else {
                    let set = if learners {
                        SetName::Learners
                    } else {
                        SetName::Voters
                    };
                    unmet(Unmet::Set { set, actual })
                }
            }
            other => Err(format!("{other:?} cannot be observed on etcd")),
        }
    }

    /// What the previous request answered.
    fn check_previous(&self, cond: &Condition) -> Result<(), String> {
        match cond {
            Condition::Ok => match &self.previous {
                Previous::Ok | Previous::Read(_) => Ok(()),
                Previous::Error(code) => unmet(Unmet::PreviousFailed(code)),
                Previous::None => unmet(Unmet::NoPrevious),
            },
            Condition::Error(code) => match &self.previous {
                Previous::Error(c) if *c == code.as_str() => Ok(()),
                Previous::Error(c) => unmet(Unmet::PreviousFailed(c)),
                Previous::Ok | Previous::Read(_) => unmet(Unmet::PreviousSucceeded),
                Previous::None => unmet(Unmet::NoPrevious),
            },
            Condition::Value(text) => match &self.previous {
                Previous::Read(Some(v)) if v == text => Ok(()),
                other => unmet(no_read(other)),
            },
            Condition::Absent => match &self.previous {
                Previous::Read(None) => Ok(()),
                other => unmet(no_read(other)),
            },
            other => Err(format!("{other:?} cannot be observed on etcd")),
        }
    }

    fn leader_match(
        &self,
        seen: &BTreeMap<NodeId, RaftStatus>,
        leader: Option<NodeId>,
        id: NodeId,
        ok: &dyn Fn(u64, u64) -> bool,
    ) -> Result<(), String> {
        let Some(l) = leader else {
            return Err(crate::session::detail::unmet(&Unmet::NoLeader));
        };
        let Some(status) = seen.get(&l) else {
            return Err(crate::session::detail::unmet(&Unmet::NoLeader));
        };
        // The leader's own match is its last index.
        let last = status.progress.get(&status.id).map_or(0, |p| p.0);
        let hex = self.members.get(&id).and_then(|m| m.hex);
        match hex.and_then(|h| status.progress.get(&h)) {
            Some(&(matched, _)) if ok(matched, last) => Ok(()),
            Some(&(matched, _)) => Err(crate::session::detail::unmet(&Unmet::Match {
                id,
                matched,
                last,
            })),
            None => Err(crate::session::detail::unmet(&Unmet::NotTracked(id))),
        }
    }

    fn is_cut(&self, a: NodeId, b: NodeId) -> bool {
        self.net.as_ref().is_some_and(|n| n.is_cut(a, b))
    }

    // ---- requests -------------------------------------------------------------

    /// Where a request goes: `via=N`, else the leader, else the lowest
    /// running voter (as raftlab sends it), else the lowest voter.
    fn target(&mut self, via: Option<NodeId>) -> NodeId {
        if let Some(v) = via {
            return v;
        }
        let seen = self.look();
        if let Some(l) = Self::leader_in(&seen) {
            return l;
        }
        let voters: Vec<NodeId> = self
            .members
            .iter()
            .filter(|(_, m)| m.member && !m.learner)
            .map(|(id, _)| *id)
            .collect();
        voters
            .iter()
            .copied()
            .find(|&id| self.running(id))
            .or_else(|| voters.first().copied())
            .unwrap_or(1)
    }

    fn ctl(&self, to: &[NodeId], timeout_ms: u64, args: &[String]) -> etcdctl::Reply {
        let endpoints: Vec<String> = to.iter().map(|&id| self.client_addr(id)).collect();
        etcdctl::run(&self.bins.etcdctl, &endpoints, timeout_ms, args)
    }

    fn timeout(t: Option<u64>) -> u64 {
        t.unwrap_or(crate::lang::ast::DEFAULT_CLIENT_TIMEOUT_MS)
    }

    /// An etcdctl reply as an answer: on failure, etcd's text and the code
    /// it stands for.
    fn reply_answer(reply: &etcdctl::Reply, ok_text: &str) -> Answer {
        if reply.ok {
            Answer::ok(ok_text, reply.ms)
        } else {
            let code = errors::code_of(&reply.error)
                .map_or_else(|| reply.error.clone(), |c| c.as_str().to_string());
            Answer::failed(code, reply.error.clone(), reply.ms)
        }
    }

    fn hex_or_unknown(&self, id: NodeId) -> String {
        // An id etcd does not know: no member has it, so etcd answers as
        // for any unknown id.
        format!(
            "{:x}",
            self.members.get(&id).and_then(|m| m.hex).unwrap_or(1)
        )
    }

    /// Learns the ids of the members the cluster lists (after a change).
    fn learn_ids(&mut self) {
        let seen = self.look();
        let _ = self.members_seen(Self::authority_in(&seen));
    }

    /// A request as etcdctl makes it, and its answer.
    fn request(&mut self, cmd: &Command) -> Answer {
        match cmd {
            Command::Put {
                key,
                value,
                via,
                timeout_ms,
                require_leader: true,
                ..
            } => self.through_gateway(*via, *timeout_ms, |addr, t| {
                gateway::put(addr, key, value, t)
            }),
            Command::Put {
                key,
                value,
                via,
                timeout_ms,
                ..
            } => self.simple(*via, *timeout_ms, &["put", "--", key, value]),
            Command::Get {
                key,
                rev,
                via,
                serializable,
                timeout_ms,
                require_leader,
            } => self.get(key, *rev, *via, *serializable, *timeout_ms, *require_leader),
            Command::Delete {
                key,
                via,
                timeout_ms,
                require_leader: true,
            } => self.through_gateway(*via, *timeout_ms, |addr, t| gateway::delete(addr, key, t)),
            Command::Delete {
                key,
                via,
                timeout_ms,
                ..
            } => self.simple(*via, *timeout_ms, &["del", "--", key]),
            Command::Compaction {
                rev,
                via,
                timeout_ms,
                require_leader: true,
            } => self.through_gateway(*via, *timeout_ms, |addr, t| {
                gateway::compaction(addr, *rev, t)
            }),
            Command::Compaction {
                rev,
                via,
                timeout_ms,
                ..
            } => self.simple(*via, *timeout_ms, &["compaction", &rev.to_string()]),
            Command::MemberAdd {
                id,
                learner,
                peer_url,
                timeout_ms,
                ..
            } => self.member_add(*id, *learner, peer_url.as_deref(), *timeout_ms),
            Command::MemberPromote { id, timeout_ms, .. } => self.member_promote(*id, *timeout_ms),
            Command::MemberRemove { id, timeout_ms, .. } => self.member_remove(*id, *timeout_ms),
            Command::MemberList { timeout_ms, .. } => self.member_list(*timeout_ms),
            Command::Status { via: Some(n) } => self.status(*n),
            Command::TransferLeader(id) => self.move_leader(*id),
            other => Answer::failed("driver", format!("{other} is not a request"), 0),
        }
    }

    /// A request with require-leader, which etcdctl has no flag for: through
    /// the member's JSON gateway (`gateway.rs`); its answer is only whether
    /// it succeeded.
    fn through_gateway(
        &mut self,
        via: Option<NodeId>,
        timeout_ms: Option<u64>,
        send: impl FnOnce(&str, u64) -> etcdctl::Reply,
    ) -> Answer {
        let to = self.target(via);
        let r = send(&self.client_addr(to), Self::timeout(timeout_ms));
        Self::reply_answer(&r, "ok")
    }

    /// A request whose answer is only whether it succeeded.
    fn simple(&mut self, via: Option<NodeId>, timeout_ms: Option<u64>, args: &[&str]) -> Answer {
        let to = self.target(via);
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let r = self.ctl(&[to], Self::timeout(timeout_ms), &args);
        Self::reply_answer(&r, "ok")
    }

    fn get(
        &mut self,
        key: &str,
        rev: Option<u64>,
        via: Option<NodeId>,
        serializable: bool,
        timeout_ms: Option<u64>,
        require_leader: bool,
    ) -> Answer {
        let to = self.target(via);
        let timeout = Self::timeout(timeout_ms);
        let r = if require_leader {
            gateway::get(&self.client_addr(to), key, rev, serializable, timeout)
        } else {
            let mut args = vec!["get".to_string(), "-w".into(), "json".into()];
            if let Some(r) = rev {
                args.push(format!("--rev={r}"));
            }
            if serializable {
                args.push("--consistency=s".into());
            }
            args.push("--".into());
            args.push(key.to_string());
            self.ctl(&[to], timeout, &args)
        };
        let mut a = Self::reply_answer(&r, "ok");
        if r.ok {
            let value = read_value(&r.stdout);
            a.text = match &value {
                Some(v) => format!("ok: {v}"),
                None => "ok: no such key".to_string(),
            };
            a.value = Some(value);
        }
        a
    }

    fn member_add(
        &mut self,
        id: NodeId,
        learner: bool,
        peer_url: Option<&str>,
        timeout_ms: Option<u64>,
    ) -> Answer {
        let written = peer_url.map_or_else(|| format!("http://n{id}:2380"), str::to_string);
        let url = self.translate_url(&written);
        let to = self.target(None);
        let mut args = vec![
            "member".to_string(),
            "add".into(),
            format!("n{id}"),
            format!("--peer-urls={url}"),
            "-w".into(),
            "json".into(),
        ];
        if learner {
            args.push("--learner".into());
        }
        let r = self.ctl(&[to], Self::timeout(timeout_ms), &args);
        if r.ok {
            let hex = serde_json::from_str::<serde_json::Value>(&r.stdout)
                .ok()
                .and_then(|v| v["member"]["ID"].as_u64());
            // A removed id comes back: etcd gives the member a new id. The
            // process running under the id, if any, stays as it is.
            let m = self.members.entry(id).or_default();
            m.peer_url = url;
            m.learner = learner;
            m.member = true;
            m.removed = false;
            m.hex = hex;
        }
        Self::reply_answer(&r, "ok")
    }

    fn member_promote(&mut self, id: NodeId, timeout_ms: Option<u64>) -> Answer {
        let to = self.target(None);
        let hex = self.hex_or_unknown(id);
        let r = self.ctl(
            &[to],
            Self::timeout(timeout_ms),
            &["member".into(), "promote".into(), hex],
        );
        if r.ok {
            if let Some(m) = self.members.get_mut(&id) {
                m.learner = false;
            }
        }
        Self::reply_answer(&r, "ok")
    }

    fn member_remove(&mut self, id: NodeId, timeout_ms: Option<u64>) -> Answer {
        let to = self.target(None);
        let hex = self.hex_or_unknown(id);
        let r = self.ctl(
            &[to],
            Self::timeout(timeout_ms),
            &["member".into(), "remove".into(), hex],
        );
        if r.ok {
            if let Some(m) = self.members.get_mut(&id) {
                m.member = false;
                m.removed = true;
                m.learner = false;
            }
        }
        Self::reply_answer(&r, "ok")
    }

    fn member_list(&mut self, timeout_ms: Option<u64>) -> Answer {
        let to = self.target(None);
        let args = ["member".into(), "list".into(), "-w".into(), "json".into()];
        let r = self.ctl(&[to], Self::timeout(timeout_ms), &args);
        let mut a = Self::reply_answer(&r, "ok");
        if r.ok {
            let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap_or_default();
            let list = observe::parse_members(&v);
            let named = self.name_members(&list);
            a.text = format!(
                "ok: {}",
                super::compare::members_text(named.iter().copied())
            );
            a.members = Some(named);
        }
        a
    }

    /// `endpoint status` of one member: the leader it knows, and whether it
    /// is a learner.
    fn status(&mut self, n: NodeId) -> Answer {
        let args = [
            "endpoint".into(),
            "status".into(),
            "-w".into(),
            "json".into(),
        ];
        let r = self.ctl(&[n], crate::lang::ast::DEFAULT_CLIENT_TIMEOUT_MS, &args);
        let mut a = Self::reply_answer(&r, "ok");
        if r.ok {
            let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap_or_default();
            let s = &v[0]["Status"];
            let lead = s["leader"].as_u64().unwrap_or(0);
            let leader = if lead == 0 {
                None
            } else {
                self.id_of_hex(lead)
            };
            let learner = s["isLearner"].as_bool().unwrap_or(false);
            a.text = super::compare::status_text(leader, learner);
            a.status = Some((leader, learner));
        }
        a
    }

    fn move_leader(&mut self, id: NodeId) -> Answer {
        self.learn_ids();
        let hex = self.hex_or_unknown(id);
        // etcdctl move-leader finds the leader among its endpoints.
        let to = self.running_ids();
        let args = ["move-leader".into(), hex];
        let r = self.ctl(&to, crate::lang::ast::DEFAULT_CLIENT_TIMEOUT_MS, &args);
        Self::reply_answer(&r, "ok")
    }

    // ---- the network ----------------------------------------------------------

    fn fault(&mut self, cmd: &Command) -> Result<(), String> {
        let Some(net) = self.net.as_mut() else {
            return Err("no network namespaces".to_string());
        };
        match cmd {
            Command::Cut { a, b, .. } => net.cut(*a, *b),
            Command::Heal {
                link: Some((a, b, _)),
            } => net.heal(*a, *b),
            Command::Heal { link: None } => net.heal_all(),
            Command::Isolate(n) => {
                for other in 1..=15 {
                    if other != *n {
                        net.cut(*n, other)?;
                    }
                }
                Ok(())
            }
            Command::Partition(groups) => {
                for (i, g) in groups.iter().enumerate() {
                    for h in &groups[i + 1..] {
                        for &a in g {
                            for &b in h {
                                net.cut(a, b)?;
                            }
                        }
                    }
                }
                Ok(())
            }
            Command::Net {
                bandwidth: Some(b), ..
            } => net.set_bandwidth(*b),
            _ => Ok(()),
        }
    }

    // ---- one command ------------------------------------------------------------

    fn execute(&mut self, cmd: &Command, kind: &Kind) -> Answer {
        let t = Instant::now();
        let answer = match (kind, cmd) {
            (Kind::Narration, _) => return Answer::ok("", 0),
            (Kind::Skipped(why), _) => return Answer::ok(format!("skipped: {why}"), 0),
            (_, Command::Wait(ms)) => {
                std::thread::sleep(Duration::from_millis(*ms));
                return Answer::ok("ok", ms_since(t));
            }
            (_, Command::Expect(cond)) => {
                return match self.check(cond) {
                    Ok(()) => Answer::ok("holds", 0),
                    Err(why) => Answer::failed(ErrorCode::ExpectFailed.as_str(), why, 0),
                }
            }
            (_, Command::WaitUntil { cond, within_ms }) => {
                let limit = Duration::from_millis(*within_ms);
                loop {
                    match self.check(cond) {
                        Ok(()) => break Answer::ok("holds", ms_since(t)),
                        Err(why) if t.elapsed() >= limit => {
                            break Answer::failed(ErrorCode::Timeout.as_str(), why, ms_since(t))
                        }
                        Err(_) => std::thread::sleep(POLL),
                    }
                }
            }
            (
                _,
                Command::LoadStart {
                    rate_per_s,
                    size,
                    via,
                },
            ) => {
                // A new load replaces the one running, as in raftlab.
                self.load = None;
                let to = self.target(*via);
                self.load = Some(load::Load::start(self.client_addr(to), *rate_per_s, *size));
                Answer::ok("ok", ms_since(t))
            }
            (_, Command::LoadStop) => {
                let said = self.load.take().map(load::Load::stop);
                Answer::ok(said.unwrap_or_default(), ms_since(t))
            }
            (_, Command::Start(id)) => self.start(*id),
            (_, Command::Crash(id)) => self.crash(*id),
            (_, Command::Campaign(id)) => {
                // The first election was given to it at boot, or it is a
                // learner, which never campaigns (raft `promotable`).
                if self.running(*id) {
                    Answer::ok("ok", 0)
                } else {
                    let removed = self.members.get(id).is_some_and(|m| m.removed);
                    let code = if removed {
                        ErrorCode::IdRemoved
                    } else {
                        ErrorCode::NotStarted
                    };
                    Answer::failed(code.as_str(), "no process runs", 0)
                }
            }
            (Kind::Action, _) => match self.fault(cmd) {
                Ok(()) => Answer::ok("ok", ms_since(t)),
                Err(e) => Answer::failed("driver", e, ms_since(t)),
            },
            (_, _) => self.request(cmd),
        };
        self.previous = match (&answer.code, &answer.value) {
            (None, Some(v)) => Previous::Read(v.clone()),
            (None, None) => Previous::Ok,
            (Some(code), _) => Previous::Error(static_code(code)),
        };
        answer
    }
}

/// A code as `Previous` holds it: raftlab's own, else `other`.
fn static_code(code: &str) -> &'static str {
    ErrorCode::ALL
        .into_iter()
        .find(|c| c.as_str() == code)
        .map_or("other", ErrorCode::as_str)
}

/// A condition not met, in the session's words.
fn unmet(u: Unmet) -> Result<(), String> {
    Err(crate::session::detail::unmet(&u))
}

fn no_read(previous: &Previous) -> Unmet {
    match previous {
        Previous::None => Unmet::NoPrevious,
        Previous::Ok => Unmet::PreviousNotGet,
        Previous::Error(code) => Unmet::PreviousFailed(code),
        Previous::Read(v) => Unmet::PreviousRead(v.clone()),
    }
}

/// The value of `etcdctl get -w json`'s first key (base64 in the JSON),
/// `None` when there is none.
fn read_value(stdout: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(stdout).ok()?;
    let b64 = v["kvs"][0]["value"].as_str()?;
    let bytes = decode_base64(b64)?;
    Some(String::from_utf8_lossy(&bytes).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_process_reads_its_own_lines_of_the_log() {
        let dir = std::env::temp_dir().join(format!("raftlab-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("n1.log");
        let mut log = std::fs::File::create(&path).unwrap();
        // An earlier process's line, before this one started.
        writeln!(log, r#"{{"msg":"serving client traffic insecurely"}}"#).unwrap();
        let from = std::fs::metadata(&path).unwrap().len();
        assert_eq!(text_since(&path, from), "");
        writeln!(log, r#"{{"msg":"now serving peer/client/metrics"}}"#).unwrap();
        assert!(!text_since(&path, from).contains(SERVING));
        writeln!(log, r#"{{"msg":"serving client traffic insecurely"}}"#).unwrap();
        assert!(text_since(&path, from).contains(SERVING));
        // Past the end: nothing.
        assert_eq!(text_since(&path, u64::MAX), "");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn values_come_out_of_etcdctls_json() {
        let json = r#"{"header":{"revision":2},"kvs":[{"key":"aw==","value":"aGVsbG8=","mod_revision":2}],"count":1}"#;
        assert_eq!(read_value(json), Some("hello".to_string()));
        assert_eq!(read_value(r#"{"header":{"revision":2}}"#), None);
    }

    #[test]
    fn codes_the_previous_command_failed_with_are_raftlabs() {
        assert_eq!(static_code("unhealthy"), "unhealthy");
        assert_eq!(static_code("etcdserver: leader changed"), "other");
    }
}
