//! The typed syntax tree of a scenario script.
//!
//! Every type here renders back to its canonical text through `Display`, and
//! `parse_command(&cmd.to_string()) == Ok(cmd)` holds for every command the
//! parser can produce: the browser records each click as the command it stands
//! for, and share links store scripts as text.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

pub use crate::raft::types::NodeId;
use crate::raft::MessageType;
pub use crate::server::{Failover, MirrorState, NewMembers, ReadMode, Release};
pub use crate::sim::Transport;

/// The command words, in the order error messages list them.
pub const COMMAND_NAMES: [&str; 28] = [
    "wait",
    "wait-until",
    "expect",
    "status",
    "say",
    "pause",
    "put",
    "get",
    "delete",
    "compaction",
    "watch",
    "load",
    "member",
    "start",
    "crash",
    "campaign",
    "transfer-leader",
    "compact",
    "cut",
    "heal",
    "partition",
    "isolate",
    "net",
    "hold",
    "release",
    "drop",
    "deliver-next",
    "mirror",
];

/// The lowest and highest node id a script may name.
pub const MIN_NODE_ID: NodeId = 1;
pub const MAX_NODE_ID: NodeId = 15;

/// `cluster` defaults. They follow etcd where etcd has one.
pub const DEFAULT_SEED: u64 = 1;
/// `failover-after` (the standby mode; raftlab's own, etcd has none).
pub const DEFAULT_FAILOVER_AFTER_MS: u64 = crate::server::mode_settings::DEFAULT_FAILOVER_AFTER_MS;
/// etcd `--heartbeat-interval`.
pub const DEFAULT_HEARTBEAT_MS: u64 = 100;
/// etcd `--election-timeout`.
pub const DEFAULT_ELECTION_TIMEOUT_MS: u64 = 1000;
/// etcd `--max-learners` (v3.6; hard-coded 1 before).
pub const DEFAULT_MAX_LEARNERS: u64 = 1;
/// etcd's `--snapshot-count` default of the default release (v3.6: 10000;
/// v3.4 and v3.5: 100000, see `Release::default_snapshot_count`).
pub const DEFAULT_SNAPSHOT_COUNT: u64 = 10_000;
/// etcdctl's `--command-timeout`: how long a client request waits.
pub const DEFAULT_CLIENT_TIMEOUT_MS: u64 = 5_000;
/// etcd's `SnapshotCatchUpEntries`: entries kept behind a snapshot so that a
/// slightly slow follower catches up from the log instead of a snapshot.
pub const DEFAULT_CATCHUP_ENTRIES: u64 = 5_000;
pub const DEFAULT_LATENCY_MIN_MS: u64 = 10;
pub const DEFAULT_LATENCY_MAX_MS: u64 = 30;
/// The bound of `wait-until` when `within=` is not given.
pub const DEFAULT_WAIT_UNTIL_MS: u64 = 30_000;
/// etcd refuses an election timeout shorter than 5 heartbeats.
pub const MIN_ELECTION_HEARTBEATS: u64 = 5;
/// etcd refuses an election timeout longer than 50s.
pub const MAX_ELECTION_TIMEOUT_MS: u64 = 50_000;
/// The largest size a script may write: 1GB.
pub const MAX_SIZE_BYTES: u64 = 1 << 30;
/// The fastest background load a script may start.
pub const MAX_LOAD_RATE_PER_S: u64 = 10_000;
/// The longest a single command may let simulated time pass (`wait`,
/// `wait-until ... within=`, `put ... timeout=`): one hour, so that no one
/// command can keep the runner or the browser busy without end.
pub const MAX_WAIT_MS: u64 = 3_600_000;
/// `net loss=` is written in percent with up to four decimals: parts per million.
pub const LOSS_PPM_PER_PERCENT: u32 = 10_000;

/// A whole script: the `cluster` line, then the commands in order. Each
/// command is shared (an `Arc`) with the session's queue, the timeline's
/// entries and the lesson player that run it, never copied: `Command`'s
/// derived `Clone` stays out of the page's module (docs/crates.md, the
/// eighth round).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    pub cluster: ClusterSpec,
    pub commands: Vec<Spanned<Arc<Command>>>,
}

/// A parsed item with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spanned<T> {
    /// 1-based line in the script.
    pub line: usize,
    /// The source line, trimmed, without its comment (the report's `"command"`).
    pub text: String,
    pub node: T,
}

/// The `cluster` line, with every option's default filled in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterSpec {
    /// The bootstrap voters, in the order written. Non-empty, unique, 1..=15.
    pub voters: Vec<NodeId>,
    pub seed: u64,
    /// The Raft tick.
    pub heartbeat_ms: u64,
    pub election_timeout_ms: u64,
    pub prevote: bool,
    pub check_quorum: bool,
    pub strict_reconfig: bool,
    pub max_learners: u64,
    pub snapshot_count: u64,
    pub catchup_entries: u64,
    /// One-way message delay, drawn uniformly in `[min, max]`.
    pub latency_min_ms: u64,
    pub latency_max_ms: u64,
    /// Outbound bytes per second per node; `None` is unlimited.
    pub bandwidth: Option<u64>,
    /// How nodes send to each other (`transport=shared|streams`).
    pub transport: Transport,
    /// The etcd release whose rules apply (`etcd=3.4|3.5|3.6`).
    pub etcd: Release,
    /// What `member add N` adds without `--learner` or `--voter`
    /// (`new-members=learner|voter`; the document's learner by default).
    pub new_members: NewMembers,
    /// `auto-promote=PERCENT`: the leader promotes caught-up learners;
    /// `None` is `off`.
    pub auto_promote: Option<u8>,
    /// `failover-after=DURATION`: how long a voter is silent before a
    /// standby takes over.
    pub failover_after_ms: u64,
    /// `failover=replace|grow`.
    pub failover: Failover,
    /// `name=NAME`: a second cluster's name (`None` on the first line, which
    /// is `main`).
    pub name: Option<String>,
}

impl ClusterSpec {
    /// A cluster of these voters with every other option at its default.
    pub fn new(voters: Vec<NodeId>) -> Self {
        ClusterSpec {
            voters,
            seed: DEFAULT_SEED,
            heartbeat_ms: DEFAULT_HEARTBEAT_MS,
            election_timeout_ms: DEFAULT_ELECTION_TIMEOUT_MS,
            prevote: true,
            check_quorum: true,
            strict_reconfig: true,
            max_learners: DEFAULT_MAX_LEARNERS,
            snapshot_count: DEFAULT_SNAPSHOT_COUNT,
            catchup_entries: DEFAULT_CATCHUP_ENTRIES,
            latency_min_ms: DEFAULT_LATENCY_MIN_MS,
            latency_max_ms: DEFAULT_LATENCY_MAX_MS,
            bandwidth: None,
            transport: Transport::Shared,
            etcd: Release::V3_6,
            new_members: NewMembers::Voter,
            auto_promote: None,
            failover_after_ms: DEFAULT_FAILOVER_AFTER_MS,
            failover: Failover::Replace,
            name: None,
        }
    }

    /// The election timeout in ticks (etcd's `ElectionTick`), at least 5.
    pub fn election_tick(&self) -> u64 {
        self.election_timeout_ms / self.heartbeat_ms.max(1)
    }
}

/// One command of the language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `wait DURATION`
    Wait(u64),
    /// `wait-until COND [within=DURATION]`
    WaitUntil {
        cond: Arc<Condition>,
        within_ms: u64,
    },
    /// `expect COND`
    Expect(Arc<Condition>),
    /// `status` (the cluster) or `status via=N` (member N's own status,
    /// etcd's maintenance Status)
    Status { via: Option<NodeId> },
    /// `say "TEXT"`, and the same words in Japanese when a `say-ja "TEXT"`
    /// line follows it (a lesson's narration, in both of the page's
    /// languages; which one is shown never changes the run).
    Say { text: String, ja: Option<String> },
    /// `pause`
    Pause,
    /// `put KEY VALUE [via=N] [size=SIZE] [nowait] [timeout=DURATION] [require-leader]`
    Put {
        key: String,
        value: String,
        via: Option<NodeId>,
        size: Option<u64>,
        nowait: bool,
        timeout_ms: Option<u64>,
        require_leader: bool,
    },
    /// `get KEY [rev=R] [via=N] [serializable] [timeout=DURATION] [require-leader]`
    Get {
        key: String,
        /// The store revision to read at (etcdctl `get --rev`; 0 or none:
        /// the latest).
        rev: Option<u64>,
        via: Option<NodeId>,
        serializable: bool,
        timeout_ms: Option<u64>,
        require_leader: bool,
    },
    /// `delete KEY [via=N] [timeout=DURATION] [require-leader]` (etcdctl `del`)
    Delete {
        key: String,
        via: Option<NodeId>,
        timeout_ms: Option<u64>,
        require_leader: bool,
    },
    /// `compaction REV [via=N] [timeout=DURATION] [require-leader]`: etcd's
    /// MVCC compaction of the key history (etcdctl `compaction`), not
    /// `compact N` (a member's Raft log)
    /// `watch KEY [prefix] [from-rev=R] [via=N]`: a watcher on member N's
    /// store (etcdctl `watch [--prefix] [--rev]`)
    Watch {
        key: String,
        prefix: bool,
        /// The revision to start from (0 or none: the next write).
        from_rev: Option<u64>,
        via: Option<NodeId>,
    },
    Compaction {
        rev: u64,
        via: Option<NodeId>,
        timeout_ms: Option<u64>,
        require_leader: bool,
    },
    /// `load rate=N/s [size=SIZE] [via=N]`
    LoadStart {
        rate_per_s: u64,
        size: Option<u64>,
        via: Option<NodeId>,
    },
    /// `load stop`
    LoadStop,
    /// `member add N [--learner|--voter] [--standby] [--read-only=weak|strong]
    /// [--peer-url=URL] [timeout=DURATION] [require-leader]`
    MemberAdd {
        id: NodeId,
        /// `--learner` (also when `--standby` or `--read-only` is given: both
        /// are kinds of learner).
        learner: bool,
        /// `--voter`: a voter even with `new-members=learner`.
        voter: bool,
        /// `--standby`: a learner kept for failover (the document's §3).
        standby: bool,
        /// `--read-only=MODE`: a learner never promoted, serving reads (§4).
        read_only: Option<ReadMode>,
        /// As written; its syntax is checked when the command runs (`bad-url`).
        peer_url: Option<String>,
        /// `via=N`: sent to N's cluster (the first cluster without it).
        via: Option<NodeId>,
        timeout_ms: Option<u64>,
        require_leader: bool,
    },
    /// `member promote N [timeout=DURATION] [require-leader]`
    MemberPromote {
        id: NodeId,
        timeout_ms: Option<u64>,
        require_leader: bool,
    },
    /// `member remove N [timeout=DURATION] [require-leader]`
    MemberRemove {
        id: NodeId,
        timeout_ms: Option<u64>,
        require_leader: bool,
    },
    /// `member list [serializable] [timeout=DURATION] [require-leader]`
    MemberList {
        serializable: bool,
        /// `via=N`: N's cluster's list (the first cluster's without it).
        via: Option<NodeId>,
        timeout_ms: Option<u64>,
        require_leader: bool,
    },
    /// `member change [add=IDS] [add-learner=IDS] [promote=IDS] [demote=IDS]
    /// [remove=IDS] [leave=explicit]`: several changes at once, through a
    /// joint configuration (etcd-raft's ConfChangeV2; etcd's server never
    /// does this).
    MemberChange {
        change: JointChange,
        /// `via=N`: sent to N's cluster (the first cluster without it).
        via: Option<NodeId>,
        timeout_ms: Option<u64>,
        require_leader: bool,
    },
    /// `member leave-joint [timeout=DURATION] [require-leader]`: leave a
    /// joint configuration entered with `leave=explicit`.
    MemberLeaveJoint {
        /// `via=N`: sent to N's cluster (the first cluster without it).
        via: Option<NodeId>,
        timeout_ms: Option<u64>,
        require_leader: bool,
    },
    /// `start N`
    Start(NodeId),
    /// `crash N`
    Crash(NodeId),
    /// `campaign N`
    Campaign(NodeId),
    /// `transfer-leader N`
    TransferLeader(NodeId),
    /// `compact N`
    Compact(NodeId),
    /// `cut A B` (both ways) or `cut A->B` (`one_way`: from A to B only)
    Cut { a: NodeId, b: NodeId, one_way: bool },
    /// `heal` (every link), `heal A B` or `heal A->B`: `link` is `(a, b, one_way)`
    Heal {
        link: Option<(NodeId, NodeId, bool)>,
    },
    /// `partition 1,2 | 3,4 [| ...]`: at least two groups, no node twice
    Partition(Vec<Vec<NodeId>>),
    /// `isolate N`
    Isolate(NodeId),
    /// `net [loss=PERCENT] [latency=MIN..MAX] [bandwidth=SIZE/s|unlimited]`:
    /// changes the network's fault knobs from now on; an option not named
    /// keeps its value. At least one option.
    Net {
        /// Messages lost at random, in parts per million (0 ..= 1_000_000).
        loss_ppm: Option<u32>,
        /// One-way delay bounds `(min, max)`.
        latency: Option<(u64, u64)>,
        /// `Some(None)` is `bandwidth=unlimited`.
        bandwidth: Option<Option<u64>>,
    },
    /// A `cluster ... name=NAME` line after the first: adds an independent
    /// cluster (its `name` is set).
    AddCluster(Box<ClusterSpec>),
    /// `mirror start M from=N to=D [prefix=P]` (etcdctl `make-mirror`)
    MirrorStart {
        id: NodeId,
        from: NodeId,
        to: NodeId,
        prefix: Option<String>,
    },
    /// `mirror stop M`
    MirrorStop(NodeId),
    /// `hold A->B` (`one_way`) or `hold A B` (both directions): every
    /// message on the direction not yet delivered, and every one sent later,
    /// waits at the receiver's side until released.
    Hold { a: NodeId, b: NodeId, one_way: bool },
    /// `release [A->B | A B] [count=N]`: delivers now, in send order, the
    /// held messages of a direction, of both, or of every held direction
    /// (`link: None`), all or the first N; a direction with none left is
    /// held no more.
    Release {
        link: Option<(NodeId, NodeId, bool)>,
        count: Option<u64>,
    },
    /// `drop A->B [kind=KIND] [id=N] [count=N]`: drops the direction's
    /// messages in flight or held (all, those of one kind, the one of that
    /// id; the first N of them), each told to its sender as a lost one is.
    Drop {
        from: NodeId,
        to: NodeId,
        kind: Option<MessageType>,
        id: Option<u64>,
        count: Option<u64>,
    },
    /// `deliver-next [A->B]`: delivers the earliest message to arrive, of
    /// any direction or of that one, at its arrival, and nothing else.
    DeliverNext { link: Option<(NodeId, NodeId)> },
}

impl fmt::Display for JointChange {
    /// The options after `member change`, each with a leading space.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, ids) in self.lists() {
            if !ids.is_empty() {
                write!(f, " {name}={}", format_list(ids))?;
            }
        }
        if self.explicit_leave {
            f.write_str(" leave=explicit")?;
        }
        Ok(())
    }
}

/// A condition of `expect` and `wait-until`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// `held A->B=N` (or `>=`, `<=`): messages held on the direction.
    Held {
        from: NodeId,
        to: NodeId,
        bound: Bound,
        count: u64,
    },
    /// `in-flight A->B=N` (or `>=`, `<=`): messages on their way on the
    /// direction and not held (in the sender's queue or on the wire).
    InFlight {
        from: NodeId,
        to: NodeId,
        bound: Bound,
        count: u64,
    },
    /// `leader`
    Leader,
    /// `leader=N`
    LeaderIs(NodeId),
    /// `no-leader`
    NoLeader,
    /// `caught-up=N`
    CaughtUp(NodeId),
    /// `all-applied`
    AllApplied,
    /// `quorum=Q`
    Quorum(u64),
    /// `voters=LIST` (order as written; compared as a set)
    Voters(Vec<NodeId>),
    /// `learners=LIST`, possibly empty (`learners=`)
    Learners(Vec<NodeId>),
    /// `voters-outgoing=LIST`: the outgoing voters of a joint
    /// configuration; empty (`voters-outgoing=`) when not joint
    VotersOutgoing(Vec<NodeId>),
    /// `term=T`
    Term(u64),
    /// `term>=T`: an election beyond term T-1 has begun (terms only grow)
    TermAtLeast(u64),
    /// `commit>=I`
    CommitAtLeast(u64),
    /// `role N=ROLE`
    Role { id: NodeId, role: RoleName },
    /// `sees-itself N=learner` or `sees-itself N=voter`: what node N's own
    /// configuration makes it (a learner promoted behind its back still
    /// sees itself as a learner)
    SeesItself { id: NodeId, learner: bool },
    /// `progress N=STATE`: the leader's progress for N is in STATE
    Progress { id: NodeId, state: ProgressName },
    /// `match N>=P%`, `match N<=P%`: the leader's match index for N is at
    /// least (at most) P% of the leader's last index, the share etcd's
    /// `isLearnerReady` compares with 90% before a promotion
    MatchShare {
        id: NodeId,
        bound: Bound,
        percent: u64,
    },
    /// `ok`: the previous command succeeded
    Ok,
    /// `error=CODE`: the previous command failed with CODE
    Error(ErrorCode),
    /// `value=TEXT`: the previous command was a `get` that read TEXT
    Value(String),
    /// `absent`: the previous command was a `get` that found no such key
    Absent,
    /// `linearizable`: the history of client operations so far is
    /// linearizable per key
    Linearizable,
    /// `not-linearizable`: it is not
    NotLinearizable,
    /// `queued>=SIZE`, `queued<=SIZE`, `queued N>=SIZE`, `queued N<=SIZE`:
    /// the bytes waiting in the send queue of node N (without N, the
    /// leader's), as the report's `queued_bytes` counts them
    Queued {
        id: Option<NodeId>,
        bound: Bound,
        bytes: u64,
    },
    /// `msgs-out N=K`, `msgs-out N>=K`, `msgs-out N<=K` (and `msgs-in`):
    /// the Raft messages node N sent (received) while the previous command
    /// ran, from its start to its end, as the report's `msgs_out`
    /// (`msgs_in`) count them. "The previous command" is the one `ok` and
    /// `error=` look at.
    Messages {
        id: NodeId,
        dir: MsgDir,
        bound: Bound,
        count: u64,
    },
    /// `watch-events W=N`, `watch-events W>=N`, `watch-events W<=N`: how
    /// many events watch W has received (`bound` `None`: exactly N)
    WatchEvents {
        watch: u64,
        bound: Option<Bound>,
        count: u64,
    },
    /// `watch-canceled W`: watch W was cancelled (its history was compacted)
    WatchCanceled(u64),
    /// `mirror M=STATE`: mirror process M is `syncing`, `watching`,
    /// `stopped` or `failed`
    Mirror { id: NodeId, state: MirrorState },
    /// `mirror-error M=CODE`: mirror process M failed with CODE
    MirrorError { id: NodeId, code: ErrorCode },
}

/// Which of a node's message counts a `msgs-out`/`msgs-in` condition reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MsgDir {
    /// Messages the node sent (`msgs-out`, the report's `msgs_out`).
    Out,
    /// Messages delivered to the node (`msgs-in`, the report's `msgs_in`).
    In,
}

impl MsgDir {
    pub fn as_str(self) -> &'static str {
        match self {
            MsgDir::Out => "msgs-out",
            MsgDir::In => "msgs-in",
        }
    }
}

/// A comparison of a condition: `>=`, `<=` or (`msgs-out`, `msgs-in`) `=`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    AtLeast,
    AtMost,
    Exactly,
}

impl Bound {
    pub fn as_str(self) -> &'static str {
        match self {
            Bound::AtLeast => ">=",
            Bound::AtMost => "<=",
            Bound::Exactly => "=",
        }
    }

    /// Whether `actual` is within the bound `limit`.
    pub fn holds(self, actual: u64, limit: u64) -> bool {
        match self {
            Bound::AtLeast => actual >= limit,
            Bound::AtMost => actual <= limit,
            Bound::Exactly => actual == limit,
        }
    }
}

/// The roles `role N=ROLE` can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RoleName {
    Leader,
    Follower,
    Candidate,
    PreCandidate,
    /// The node's process is not running.
    Down,
}

impl RoleName {
    pub const ALL: [RoleName; 5] = [
        RoleName::Leader,
        RoleName::Follower,
        RoleName::Candidate,
        RoleName::PreCandidate,
        RoleName::Down,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            RoleName::Leader => "leader",
            RoleName::Follower => "follower",
            RoleName::Candidate => "candidate",
            RoleName::PreCandidate => "pre-candidate",
            RoleName::Down => "down",
        }
    }
}

impl fmt::Display for RoleName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for RoleName {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        RoleName::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "unknown role {}; expected one of: {}",
                    quote_for_message(s),
                    join_names(RoleName::ALL.iter().map(|r| r.as_str()))
                )
            })
    }
}

/// The states of the leader's progress for a peer (`progress N=STATE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProgressName {
    Probe,
    Replicate,
    Snapshot,
}

impl ProgressName {
    pub const ALL: [ProgressName; 3] = [
        ProgressName::Probe,
        ProgressName::Replicate,
        ProgressName::Snapshot,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ProgressName::Probe => "probe",
            ProgressName::Replicate => "replicate",
            ProgressName::Snapshot => "snapshot",
        }
    }
}

impl fmt::Display for ProgressName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ProgressName {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        ProgressName::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "unknown progress state {}; expected one of: {}",
                    quote_for_message(s),
                    join_names(ProgressName::ALL.iter().map(|r| r.as_str()))
                )
            })
    }
}

/// The stable error codes live with etcd's errors in the server layer.
pub use crate::server::joint::JointChange;
pub use crate::server::ErrorCode;

pub(crate) fn join_names<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names.collect::<Vec<_>>().join(", ")
}

/// Quote a piece of user input for an error message, escaped and shortened
/// so that a huge or odd input still gives a readable one-line message.
pub(crate) fn quote_for_message(s: &str) -> String {
    const MAX_CHARS: usize = 40;
    let mut out = String::from("\"");
    for (i, c) in s.chars().enumerate() {
        if i == MAX_CHARS {
            out.push_str("...");
            break;
        }
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => push_shown(&mut out, c),
        }
    }
    out.push('"');
    out
}

/// `s` with each control character escaped as [`quote_for_message`]
/// escapes it (`\u{0}`, `\t`), the rest as it is: a line the reader typed,
/// shown in the log, holds no raw control character (a NUL would show as
/// nothing, or cut the text short).
pub(crate) fn escape_controls(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        push_shown(&mut out, c);
    }
    std::borrow::Cow::Owned(out)
}

/// `c` as a message shows it: a control character escaped.
fn push_shown(out: &mut String, c: char) {
    if c.is_control() {
        out.extend(c.escape_default());
    } else {
        out.push(c);
    }
}

/// The canonical text of a duration: whole seconds as `2s`, else `250ms`.
pub fn format_duration(ms: u64) -> String {
    if ms != 0 && ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

/// The canonical text of a loss rate in parts per million, in percent:
/// `1%`, `0.5%`, `0.0001%`.
pub fn format_percent(ppm: u32) -> String {
    let whole = ppm / LOSS_PPM_PER_PERCENT;
    let frac = ppm % LOSS_PPM_PER_PERCENT;
    if frac == 0 {
        format!("{whole}%")
    } else {
        let digits = format!("{frac:04}");
        format!("{whole}.{}%", digits.trim_end_matches('0'))
    }
}

/// The canonical text of a size: the largest unit that divides it exactly.
pub fn format_size(bytes: u64) -> String {
    for (unit, mult) in [("GB", 1u64 << 30), ("MB", 1 << 20), ("KB", 1 << 10)] {
        if bytes != 0 && bytes % mult == 0 {
            return format!("{}{unit}", bytes / mult);
        }
    }
    format!("{bytes}B")
}

/// A key, value or URL as the lexer reads it back: bare when that is
/// unambiguous, else double-quoted with `\"` and `\\` escaped.
pub fn format_text(s: &str) -> String {
    let bare = !s.is_empty()
        && !s
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '"' | '\\' | '#' | '='));
    if bare {
        s.to_string()
    } else {
        format_quoted(s)
    }
}

/// Always double-quoted, with `\"` and `\\` escaped.
pub fn format_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

fn format_list(ids: &[NodeId]) -> String {
    ids.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn format_link(f: &mut fmt::Formatter<'_>, a: NodeId, b: NodeId, one_way: bool) -> fmt::Result {
    if one_way {
        write!(f, "{a}->{b}")
    } else {
        write!(f, "{a} {b}")
    }
}

/// A client request's ` timeout=DURATION` and ` require-leader`, in that order.
fn format_via(f: &mut fmt::Formatter<'_>, via: Option<NodeId>) -> fmt::Result {
    match via {
        Some(n) => write!(f, " via={n}"),
        None => Ok(()),
    }
}

fn format_client(
    f: &mut fmt::Formatter<'_>,
    timeout_ms: Option<u64>,
    require_leader: bool,
) -> fmt::Result {
    if let Some(t) = timeout_ms {
        write!(f, " timeout={}", format_duration(t))?;
    }
    if require_leader {
        f.write_str(" require-leader")?;
    }
    Ok(())
}

fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Condition::Leader => f.write_str("leader"),
            Condition::LeaderIs(n) => write!(f, "leader={n}"),
            Condition::NoLeader => f.write_str("no-leader"),
            Condition::CaughtUp(n) => write!(f, "caught-up={n}"),
            Condition::AllApplied => f.write_str("all-applied"),
            Condition::Quorum(q) => write!(f, "quorum={q}"),
            Condition::Voters(v) => write!(f, "voters={}", format_list(v)),
            Condition::Learners(v) => write!(f, "learners={}", format_list(v)),
            Condition::VotersOutgoing(v) => write!(f, "voters-outgoing={}", format_list(v)),
            Condition::Term(t) => write!(f, "term={t}"),
            Condition::TermAtLeast(t) => write!(f, "term>={t}"),
            Condition::CommitAtLeast(i) => write!(f, "commit>={i}"),
            Condition::Role { id, role } => write!(f, "role {id}={role}"),
            Condition::SeesItself { id, learner } => {
                let kind = if *learner { "learner" } else { "voter" };
                write!(f, "sees-itself {id}={kind}")
            }
            Condition::Progress { id, state } => write!(f, "progress {id}={state}"),
            Condition::MatchShare { id, bound, percent } => {
                write!(f, "match {id}{}{percent}%", bound.as_str())
            }
            Condition::Ok => f.write_str("ok"),
            Condition::Error(code) => write!(f, "error={code}"),
            Condition::Value(v) => write!(f, "value={}", format_text(v)),
            Condition::Absent => f.write_str("absent"),
            Condition::Linearizable => f.write_str("linearizable"),
            Condition::NotLinearizable => f.write_str("not-linearizable"),
            Condition::Queued { id, bound, bytes } => {
                f.write_str("queued")?;
                if let Some(id) = id {
                    write!(f, " {id}")?;
                }
                write!(f, "{}{}", bound.as_str(), format_size(*bytes))
            }
            Condition::Messages {
                id,
                dir,
                bound,
                count,
            } => write!(f, "{} {id}{}{count}", dir.as_str(), bound.as_str()),
            Condition::WatchEvents {
                watch,
                bound,
                count,
            } => {
                let op = bound.map_or("=", Bound::as_str);
                write!(f, "watch-events {watch}{op}{count}")
            }
            Condition::WatchCanceled(w) => write!(f, "watch-canceled {w}"),
            Condition::Mirror { id, state } => write!(f, "mirror {id}={}", state.as_str()),
            Condition::MirrorError { id, code } => write!(f, "mirror-error {id}={code}"),
            Condition::Held {
                from,
                to,
                bound,
                count,
            } => write!(f, "held {from}->{to}{}{count}", bound.as_str()),
            Condition::InFlight {
                from,
                to,
                bound,
                count,
            } => write!(f, "in-flight {from}->{to}{}{count}", bound.as_str()),
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Wait(_)
            | Command::WaitUntil { .. }
            | Command::Expect(_)
            | Command::Status { .. }
            | Command::Say { .. }
            | Command::Pause => self.fmt_flow(f),
            Command::Put { .. }
            | Command::Delete { .. }
            | Command::Compaction { .. }
            | Command::LoadStart { .. }
            | Command::LoadStop => self.fmt_write(f),
            Command::Get { .. } | Command::Watch { .. } | Command::MemberList { .. } => {
                self.fmt_read(f)
            }
            Command::MemberAdd { .. }
            | Command::MemberPromote { .. }
            | Command::MemberRemove { .. }
            | Command::MemberChange { .. }
            | Command::MemberLeaveJoint { .. }
            | Command::TransferLeader(_) => self.fmt_membership(f),
            Command::Start(_)
            | Command::Crash(_)
            | Command::Campaign(_)
            | Command::Compact(_)
            | Command::Cut { .. }
            | Command::Heal { .. }
            | Command::Partition(_)
            | Command::Isolate(_)
            | Command::Net { .. } => self.fmt_faults(f),
            Command::AddCluster(_) | Command::MirrorStart { .. } | Command::MirrorStop(_) => {
                self.fmt_fleet(f)
            }
            Command::Hold { .. }
            | Command::Release { .. }
            | Command::Drop { .. }
            | Command::DeliverNext { .. } => self.fmt_by_hand(f),
        }
    }
}

impl Command {
    /// The script's own flow: time, checks, narration.
    fn fmt_flow(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Wait(ms) => write!(f, "wait {}", format_duration(*ms)),
            Command::WaitUntil { cond, within_ms } => {
                write!(f, "wait-until {cond}")?;
                if *within_ms != DEFAULT_WAIT_UNTIL_MS {
                    write!(f, " within={}", format_duration(*within_ms))?;
                }
                Ok(())
            }
            Command::Expect(cond) => write!(f, "expect {cond}"),
            Command::Status { via: None } => f.write_str("status"),
            Command::Status { via: Some(n) } => write!(f, "status via={n}"),
            Command::Say { text, ja } => {
                write!(f, "say {}", format_quoted(text))?;
                if let Some(ja) = ja {
                    write!(f, "\nsay-ja {}", format_quoted(ja))?;
                }
                Ok(())
            }
            Command::Pause => f.write_str("pause"),
            // `fmt` sends only the commands above here.
            _ => Ok(()),
        }
    }

    /// The client's writes: `put`, `delete`, `compaction`, `load`.
    fn fmt_write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Put {
                key,
                value,
                via,
                size,
                nowait,
                timeout_ms,
                require_leader,
            } => {
                write!(f, "put {} {}", format_text(key), format_text(value))?;
                format_via(f, *via)?;
                if let Some(s) = size {
                    write!(f, " size={}", format_size(*s))?;
                }
                if *nowait {
                    f.write_str(" nowait")?;
                }
                format_client(f, *timeout_ms, *require_leader)
            }
            Command::Delete {
                key,
                via,
                timeout_ms,
                require_leader,
            } => {
                write!(f, "delete {}", format_text(key))?;
                format_via(f, *via)?;
                format_client(f, *timeout_ms, *require_leader)
            }
            Command::Compaction {
                rev,
                via,
                timeout_ms,
                require_leader,
            } => {
                write!(f, "compaction {rev}")?;
                format_via(f, *via)?;
                format_client(f, *timeout_ms, *require_leader)
            }
            Command::LoadStart {
                rate_per_s,
                size,
                via,
            } => {
                write!(f, "load rate={rate_per_s}/s")?;
                if let Some(s) = size {
                    write!(f, " size={}", format_size(*s))?;
                }
                format_via(f, *via)?;
                Ok(())
            }
            Command::LoadStop => f.write_str("load stop"),
            // `fmt` sends only the commands above here.
            _ => Ok(()),
        }
    }

    /// The client's reads: `get`, `watch`, `member list`.
    fn fmt_read(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Get {
                key,
                rev,
                via,
                serializable,
                timeout_ms,
                require_leader,
            } => {
                write!(f, "get {}", format_text(key))?;
                if let Some(r) = rev {
                    write!(f, " rev={r}")?;
                }
                format_via(f, *via)?;
                if *serializable {
                    f.write_str(" serializable")?;
                }
                format_client(f, *timeout_ms, *require_leader)
            }
            Command::Watch {
                key,
                prefix,
                from_rev,
                via,
            } => {
                write!(f, "watch {}", format_text(key))?;
                if *prefix {
                    f.write_str(" prefix")?;
                }
                if let Some(r) = from_rev {
                    write!(f, " from-rev={r}")?;
                }
                format_via(f, *via)?;
                Ok(())
            }
            Command::MemberList {
                serializable,
                via,
                timeout_ms,
                require_leader,
            } => {
                f.write_str("member list")?;
                if *serializable {
                    f.write_str(" serializable")?;
                }
                format_via(f, *via)?;
                format_client(f, *timeout_ms, *require_leader)
            }
            // `fmt` sends only the commands above here.
            _ => Ok(()),
        }
    }

    /// Membership changes and `transfer-leader`.
    fn fmt_membership(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
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
                write!(f, "member add {id}")?;
                if *learner {
                    f.write_str(" --learner")?;
                }
                if *voter {
                    f.write_str(" --voter")?;
                }
                if *standby {
                    f.write_str(" --standby")?;
                }
                if let Some(mode) = read_only {
                    write!(f, " --read-only={mode}")?;
                }
                if let Some(url) = peer_url {
                    write!(f, " --peer-url={}", format_text(url))?;
                }
                format_via(f, *via)?;
                format_client(f, *timeout_ms, *require_leader)
            }
            Command::MemberPromote {
                id,
                timeout_ms,
                require_leader,
            } => {
                write!(f, "member promote {id}")?;
                format_client(f, *timeout_ms, *require_leader)
            }
            Command::MemberRemove {
                id,
                timeout_ms,
                require_leader,
            } => {
                write!(f, "member remove {id}")?;
                format_client(f, *timeout_ms, *require_leader)
            }
            Command::MemberChange {
                change,
                via,
                timeout_ms,
                require_leader,
            } => {
                write!(f, "member change{change}")?;
                format_via(f, *via)?;
                format_client(f, *timeout_ms, *require_leader)
            }
            Command::MemberLeaveJoint {
                via,
                timeout_ms,
                require_leader,
            } => {
                f.write_str("member leave-joint")?;
                format_via(f, *via)?;
                format_client(f, *timeout_ms, *require_leader)
            }
            Command::TransferLeader(n) => write!(f, "transfer-leader {n}"),
            // `fmt` sends only the commands above here.
            _ => Ok(()),
        }
    }

    /// Faults and the network.
    fn fmt_faults(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Start(n) => write!(f, "start {n}"),
            Command::Crash(n) => write!(f, "crash {n}"),
            Command::Campaign(n) => write!(f, "campaign {n}"),
            Command::Compact(n) => write!(f, "compact {n}"),
            Command::Cut { a, b, one_way } => {
                f.write_str("cut ")?;
                format_link(f, *a, *b, *one_way)
            }
            Command::Heal { link: None } => f.write_str("heal"),
            Command::Heal {
                link: Some((a, b, one_way)),
            } => {
                f.write_str("heal ")?;
                format_link(f, *a, *b, *one_way)
            }
            Command::Partition(groups) => {
                f.write_str("partition ")?;
                let groups: Vec<String> = groups.iter().map(|g| format_list(g)).collect();
                f.write_str(&groups.join(" | "))
            }
            Command::Isolate(n) => write!(f, "isolate {n}"),
            Command::Net {
                loss_ppm,
                latency,
                bandwidth,
            } => {
                f.write_str("net")?;
                if let Some(ppm) = loss_ppm {
                    write!(f, " loss={}", format_percent(*ppm))?;
                }
                if let Some((lo, hi)) = latency {
                    write!(
                        f,
                        " latency={}..{}",
                        format_duration(*lo),
                        format_duration(*hi)
                    )?;
                }
                match bandwidth {
                    Some(Some(b)) => write!(f, " bandwidth={}/s", format_size(*b))?,
                    Some(None) => f.write_str(" bandwidth=unlimited")?,
                    None => {}
                }
                Ok(())
            }
            // `fmt` sends only the commands above here.
            _ => Ok(()),
        }
    }

    /// Other clusters and mirror processes.
    fn fmt_fleet(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::AddCluster(spec) => write!(f, "{spec}"),
            Command::MirrorStart {
                id,
                from,
                to,
                prefix,
            } => {
                write!(f, "mirror start {id} from={from} to={to}")?;
                if let Some(p) = prefix {
                    write!(f, " prefix={}", format_text(p))?;
                }
                Ok(())
            }
            Command::MirrorStop(id) => write!(f, "mirror stop {id}"),
            // `fmt` sends only the commands above here.
            _ => Ok(()),
        }
    }

    /// A hand on single messages.
    fn fmt_by_hand(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Hold { a, b, one_way } => {
                f.write_str("hold ")?;
                format_link(f, *a, *b, *one_way)
            }
            Command::Release { link, count } => {
                f.write_str("release")?;
                if let Some((a, b, one_way)) = link {
                    f.write_str(" ")?;
                    format_link(f, *a, *b, *one_way)?;
                }
                if let Some(n) = count {
                    write!(f, " count={n}")?;
                }
                Ok(())
            }
            Command::Drop {
                from,
                to,
                kind,
                id,
                count,
            } => {
                write!(f, "drop {from}->{to}")?;
                if let Some(k) = kind {
                    write!(f, " kind={}", crate::lang::messages::kind_name(*k))?;
                }
                if let Some(i) = id {
                    write!(f, " id={i}")?;
                }
                if let Some(n) = count {
                    write!(f, " count={n}")?;
                }
                Ok(())
            }
            Command::DeliverNext { link: None } => f.write_str("deliver-next"),
            Command::DeliverNext { link: Some((a, b)) } => write!(f, "deliver-next {a}->{b}"),
            // `fmt` sends only the commands above here.
            _ => Ok(()),
        }
    }
}

impl fmt::Display for ClusterSpec {
    /// The `cluster` line, naming only the options that differ from their
    /// defaults (parsing it back gives the same spec).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = ClusterSpec::new(Vec::new());
        write!(f, "cluster voters={}", format_list(&self.voters))?;
        if self.seed != d.seed {
            write!(f, " seed={}", self.seed)?;
        }
        if self.etcd != d.etcd {
            write!(f, " etcd={}", self.etcd)?;
        }
        if self.heartbeat_ms != d.heartbeat_ms {
            write!(f, " heartbeat={}", format_duration(self.heartbeat_ms))?;
        }
        if self.election_timeout_ms != d.election_timeout_ms {
            let t = format_duration(self.election_timeout_ms);
            write!(f, " election-timeout={t}")?;
        }
        if self.prevote != self.etcd.default_prevote() {
            write!(f, " prevote={}", on_off(self.prevote))?;
        }
        if self.check_quorum != d.check_quorum {
            write!(f, " check-quorum={}", on_off(self.check_quorum))?;
        }
        if self.strict_reconfig != d.strict_reconfig {
            write!(f, " strict-reconfig={}", on_off(self.strict_reconfig))?;
        }
        if self.max_learners != d.max_learners {
            write!(f, " max-learners={}", self.max_learners)?;
        }
        if self.snapshot_count != self.etcd.default_snapshot_count() {
            write!(f, " snapshot-count={}", self.snapshot_count)?;
        }
        if self.catchup_entries != d.catchup_entries {
            write!(f, " catchup-entries={}", self.catchup_entries)?;
        }
        if (self.latency_min_ms, self.latency_max_ms) != (d.latency_min_ms, d.latency_max_ms) {
            write!(
                f,
                " latency={}..{}",
                format_duration(self.latency_min_ms),
                format_duration(self.latency_max_ms)
            )?;
        }
        if let Some(b) = self.bandwidth {
            write!(f, " bandwidth={}/s", format_size(b))?;
        }
        if self.transport == Transport::Streams {
            f.write_str(" transport=streams")?;
        }
        if self.new_members != d.new_members {
            write!(f, " new-members={}", self.new_members)?;
        }
        if let Some(p) = self.auto_promote {
            write!(f, " auto-promote={p}%")?;
        }
        if self.failover_after_ms != d.failover_after_ms {
            let t = format_duration(self.failover_after_ms);
            write!(f, " failover-after={t}")?;
        }
        if self.failover != d.failover {
            write!(f, " failover={}", self.failover)?;
        }
        if let Some(name) = &self.name {
            write!(f, " name={name}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Script {
    /// The canonical script: the `cluster` line, then one command per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.cluster)?;
        for c in &self.commands {
            writeln!(f, "{}", c.node)?;
        }
        Ok(())
    }
}
