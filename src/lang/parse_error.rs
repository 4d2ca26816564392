//! What is wrong with a line that does not parse, as data: each renderer
//! (`text_en`, `text_ja`) says it in its language from these fields. The
//! English words are also [`super::ParseError`]'s `message` (the report's
//! and the command line's).
//!
//! Words quoted from the input (`found`, `word`, `name`) are kept as the
//! parser quoted them (`"leeder"`), in every language: they are what the
//! user typed. Command names, option hints (`timeout=DURATION`) and the
//! lists of what is expected are the language's own words, never
//! translated.

use crate::raft::NodeId;

use crate::lang::ast::COMMAND_NAMES;
use crate::lang::ast::{MAX_NODE_ID, MIN_NODE_ID};
use std::fmt;
use std::rc::Rc;

/// A line that does not parse: its facts behind one shared pointer, so that
/// a `Result` carrying it stays small (each `?` of the parser moves a word,
/// not the whole error) and a copy of it (a refusal in the narration, a
/// share link's error) counts a reference instead of copying each kind of
/// error; the module is smaller by both. The facts never change once made.
#[derive(Clone, PartialEq, Eq)]
pub struct ParseError(Rc<ParseErrorFacts>);

/// What a [`ParseError`] says; its fields are read through the error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseErrorFacts {
    /// 1-based line (1 for [`parse_command`]).
    pub line: usize,
    /// 1-based column, in characters, of the offending word.
    pub column: usize,
    /// The English words (the report's and the command line's).
    pub message: String,
    /// What is wrong, as data, for every language's words.
    pub kind: Box<ParseErrorKind>,
}

impl ParseError {
    pub fn new(line: usize, column: usize, kind: impl Into<ParseErrorKind>) -> ParseError {
        let kind = kind.into();
        ParseError(Rc::new(ParseErrorFacts {
            line,
            column,
            message: kind.english(),
            kind: Box::new(kind),
        }))
    }
}

impl std::ops::Deref for ParseError {
    type Target = ParseErrorFacts;
    fn deref(&self) -> &ParseErrorFacts {
        &self.0
    }
}

/// As the struct it was printed before its facts went behind a pointer.
impl fmt::Debug for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ParseError")
            .field("line", &self.line)
            .field("column", &self.column)
            .field("message", &self.message)
            .field("kind", &self.kind)
            .finish()
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// One kind of parse error with what it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// A `"` inside a bare word (`ab"c`).
    QuoteInsideWord {
        word: String,
    },
    /// `\x` in quoted text other than `\"` and `\\`.
    UnknownEscape {
        escape: String,
    },
    /// Quoted text without its closing quote.
    Unterminated,
    /// Text right after a closing quote (`"a"b`).
    SpaceAfterQuote {
        found: String,
    },
    /// A script whose first line is not the `cluster` line.
    ClusterFirst {
        found: String,
    },
    /// A second `cluster` line.
    SecondCluster,
    /// A second `say-ja` for one `say`.
    SecondSayJa,
    /// A `say-ja` not right after a `say`.
    SayJaAlone,
    /// A script with no `cluster` line.
    EmptyScript,
    /// A console line with no command.
    NoCommand,
    /// `cluster` typed as a console command without `name=`.
    ClusterNotCommand,
    /// A cluster name that is not one: letters, digits and `-`, 1 to 20 of
    /// them; the first cluster's is `main`.
    BadClusterName {
        found: String,
    },
    /// A line starting with quoted text.
    QuotedCommand {
        found: String,
    },
    /// A first word that is no command.
    UnknownCommand {
        found: String,
    },
    /// A first word that is no command but one edit or two from one (or
    /// the start of one): `near`, quoted.
    UnknownCommandNear {
        found: String,
        near: String,
    },
    /// `etcdctl` as a script's command: its lines are the console's.
    EtcdctlLine,
    /// etcdctl's command `found` (unquoted): its line `etcdctl` is the
    /// scenario's `scenario`; `console`: the page's console takes etcdctl's.
    EtcdctlCommand {
        found: String,
        etcdctl: String,
        scenario: String,
        console: bool,
    },
    /// etcdctl's command `found` (unquoted), which raftlab does not model.
    EtcdctlUnmodelled {
        found: String,
    },
    /// A word missing at the end of the line: `what` is one of
    /// [`MissingWhat::ALL`]'s words or a form such as `N=K`.
    Missing {
        what: String,
        after: String,
    },
    /// A positional text written as an option (`put a=b c`).
    TextIsOption {
        what: String,
        after: String,
        found: String,
    },
    /// A word after the end of a command.
    ExtraWord {
        word: String,
        after: String,
    },
    /// A word after the quoted text of `say`.
    ExtraSayWord {
        word: String,
        after: String,
    },
    /// Quoted text where options are expected.
    QuotedOption {
        found: String,
        cmd: String,
        expected: String,
    },
    /// An option the command does not take.
    UnknownOption {
        name: String,
        cmd: String,
        expected: String,
    },
    /// An option `cmd` does not have, near one it has: `near`, quoted.
    UnknownOptionNear {
        name: String,
        cmd: String,
        near: String,
    },
    DuplicateOption {
        name: String,
    },
    OptionTakesNoValue {
        name: String,
    },
    /// `name` or `name=` without its value; `hint` is its form.
    MissingOptionValue {
        name: String,
        hint: String,
    },
    /// A word that is no condition.
    UnknownCondition {
        found: String,
    },
    /// A word that names no condition but is near one, or names one in a
    /// form it does not have: that condition's `forms`.
    UnknownConditionNear {
        found: String,
        forms: Vec<String>,
    },
    /// Not a duration like `250ms`.
    BadDuration {
        found: String,
    },
    NegativeDuration {
        found: String,
    },
    /// A duration without its unit.
    DurationUnit {
        found: String,
    },
    /// A duration in minutes or hours: `write` is the same in seconds.
    DurationOtherUnit {
        found: String,
        write: String,
    },
    /// A duration's number and unit apart (`wait 2 s`): `write` is the
    /// same written as one word, in ms or s.
    DurationSpace {
        found: String,
        write: String,
    },
    DurationTooLong {
        found: String,
    },
    /// A duration finer than a millisecond.
    DurationFraction {
        found: String,
    },
    /// A duration above what one command may let pass.
    WaitTooLong {
        found: String,
        limit: String,
    },
    /// Not a percentage like `1%`.
    BadPercent {
        found: String,
    },
    LossAbove100 {
        found: String,
    },
    LossDecimals {
        found: String,
    },
    /// Not a size like `4KB`.
    BadSize {
        found: String,
    },
    NegativeSize {
        found: String,
    },
    SizeUnit {
        found: String,
    },
    SizeTooLarge {
        found: String,
        limit: String,
    },
    SizeFraction {
        found: String,
    },
    /// Not a node id.
    BadNodeId {
        found: String,
    },
    /// A member's name (`n1`, `node1`) where a node id goes: `id`.
    NodeIdNamed {
        found: String,
        id: NodeId,
    },
    /// A node id outside 1..=15 (`found` unquoted).
    NodeIdRange {
        found: String,
    },
    BadNumber {
        found: String,
    },
    /// A number above 2^64 - 1 (`found` unquoted).
    NumberTooLarge {
        found: String,
    },
    /// A `say` text whose braces do not read.
    Say(SayProblem),
    /// A line of tokens with no command in them.
    CommandExpected,
    /// `say-ja` typed at the console.
    SayJaInConsole,
    /// `load` with neither `rate=` nor `stop`.
    LoadMissing,
    /// `load` options without `rate`.
    LoadNoRate,
    /// `net` without options.
    NetMissing,
    /// `member add --learner --voter`.
    LearnerAndVoter,
    /// A learner's kind (`kind`: `--standby`, `--read-only=...`) with `--voter`.
    LearnerKindWithVoter {
        kind: String,
    },
    /// `--standby` with `--read-only`.
    StandbyAndReadOnly,
    /// A word that is none of the names of its kind (`expected`: them, as
    /// typed).
    UnknownName {
        what: Named,
        found: String,
        expected: String,
    },
    /// A word that is none of the names of its kind but near one: `near`,
    /// quoted.
    UnknownNameNear {
        what: Named,
        found: String,
        near: String,
    },
    /// `unknown etcd release` (`found` as Rust quotes it).
    UnknownRelease {
        found: String,
    },
    /// A node in two changes of one `member change`.
    TwiceInChange {
        id: NodeId,
    },
    /// `member change` without changes.
    ChangeMissing,
    /// `cut 1->` without its second node (`from`: the first, as typed).
    MissingLinkEnd {
        from: String,
    },
    /// A link from a node to itself.
    SameNodeLink {
        a: NodeId,
        b: NodeId,
    },
    /// `drop A B` or `deliver-next A B`: the command acts on one
    /// direction, `A->B`.
    OneDirection {
        cmd: String,
        a: NodeId,
        b: NodeId,
    },
    /// Quoted text where a partition's groups go.
    QuotedGroups {
        found: String,
    },
    /// `partition` without groups.
    PartitionMissing,
    /// Two node ids with no `,` or `|` between them (`id`: the second).
    GroupSeparator {
        id: NodeId,
    },
    TwiceInGroup {
        id: NodeId,
    },
    InTwoGroups {
        id: NodeId,
    },
    /// A `,` where a node id goes.
    CommaBeforeId,
    /// A `|` with no node ids before it.
    EmptyGroupBeforeBar,
    /// A `|` with no node ids after it.
    EmptyGroupAfterBar,
    /// A `,` with no node id after it.
    IdAfterComma,
    /// A partition of one group.
    OneGroup,
    /// An empty list of node ids.
    EmptyList,
    TwiceInList {
        id: NodeId,
    },
    /// `value=` with nothing after it.
    EmptyValue,
    /// Not of the form `form`.
    FormExpected {
        form: Form,
        found: String,
    },
    /// `watch-events W=` without a count.
    MissingEventCount,
    /// `role N=` without a role.
    MissingRole {
        id: NodeId,
    },
    /// A `cluster` line without `voters`.
    MissingVoters,
    /// `max-learners` with a release before 3.6 (`etcd`: the release).
    MaxLearnersRelease {
        etcd: String,
    },
    /// A value below its least.
    TooSmall(Least),
    /// A `load` rate above the limit (`rate`: the number, as typed).
    RateTooHigh {
        rate: String,
        limit: u64,
    },
    /// `auto-promote` outside 1% to 100%.
    AutoPromoteRange {
        found: String,
    },
    /// A latency range whose minimum is above its maximum.
    LatencyOrder {
        min: String,
        max: String,
    },
    /// `election-timeout` below `times` heartbeats (etcd's rule).
    ElectionTooShort {
        election: String,
        times: u64,
        heartbeat: String,
    },
    /// `election-timeout` above etcd's limit.
    ElectionTooLong {
        election: String,
        max: String,
    },
    /// `failover-after` below the election timeout.
    FailoverTooShort {
        failover: String,
        election: String,
    },
}

/// What is wrong with the braces of a `say` text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SayProblem {
    /// A `{` never closed.
    Unclosed,
    /// `{name}` that is no placeholder (`known`: the placeholders).
    UnknownPlaceholder { name: String, known: String },
    /// A `}` that closes nothing.
    StrayClose,
}

/// The kinds of names a word can fail to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    MemberSubcommand,
    MirrorSubcommand,
    MirrorState,
    Role,
    ProgressState,
    ErrorCode,
    /// A message's kind (`drop 1->2 kind=KIND`).
    MessageKind,
}

impl Named {
    /// The kind's name in an English message.
    fn name(self) -> &'static str {
        match self {
            Named::MemberSubcommand => "member subcommand",
            Named::MirrorSubcommand => "mirror subcommand",
            Named::MirrorState => "mirror state",
            Named::Role => "role",
            Named::ProgressState => "progress state",
            Named::ErrorCode => "error code",
            Named::MessageKind => "message kind",
        }
    }
}

/// The forms a word can fail to have; each says its own example.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Form {
    /// `msgs-out N=K` and `msgs-in N=K` (the condition's name).
    Messages(String),
    Queued,
    WatchEvents,
    Role,
    Progress,
    MatchShare,
    Mirror,
    Rate,
    WatchNumber,
    AutoPromote,
    Latency,
    Bandwidth,
    /// `held A->B=N` and `in-flight A->B=N` (the condition's name).
    LinkCount(String),
    /// One of two words (`leave=auto` or `leave=explicit`, `on` or `off`...).
    Choice(&'static str, &'static str),
}

/// The least values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Least {
    Heartbeat,
    SnapshotCount,
    Rate,
    Bandwidth,
    WatchNumber,
    /// `count=` of `release` and `drop`.
    Count,
}

impl Form {
    /// The form in English, with its example.
    pub fn english(&self) -> String {
        match self {
            Form::Messages(name) => format!("N=K, N>=K or N<=K like 1=0 after {name}"),
            Form::Queued => "N>=SIZE or N<=SIZE like 1>=1MB".to_string(),
            Form::WatchEvents => "W=N, W>=N or W<=N like 1>=3".to_string(),
            Form::Role => "N=ROLE like 2=leader".to_string(),
            Form::Mirror => "M=STATE like 9=watching".to_string(),
            Form::Progress => "N=STATE like 2=replicate".to_string(),
            Form::MatchShare => "N>=P% or N<=P% like 4>=90%, a whole percentage".to_string(),
            Form::Rate => "a rate like 50/s".to_string(),
            Form::WatchNumber => "a watch number like 1".to_string(),
            Form::AutoPromote => "off or a whole percentage from 1% to 100% (like 90%)".to_string(),
            Form::Latency => "a latency range like 10ms..30ms".to_string(),
            Form::Bandwidth => "a bandwidth like 1MB/s or unlimited".to_string(),
            Form::LinkCount(name) => {
                format!("A->B=N, A->B>=N or A->B<=N like 1->2=0 after {name}")
            }
            Form::Choice(a, b) => format!("{a} or {b}"),
        }
    }
}

/// The things a missing word can be, as the parser names them; each
/// renderer has a word for each.
pub struct MissingWhat;

impl MissingWhat {
    pub const ALL: [&'static str; 12] = [
        "node id",
        "quoted text",
        "duration",
        "a key",
        "a value",
        "a condition",
        "a number",
        "a revision",
        "an error code",
        "a size",
        "state",
        "a member subcommand (add, promote, remove, list, change or leave-joint)",
    ];
}

/// The conditions as error messages list them.
pub const CONDITION_FORMS: &str =
    "leader, leader=N, no-leader, caught-up=N, all-applied, quorum=Q, \
     voters=LIST, learners=LIST, voters-outgoing=LIST, term=T, term>=T, commit>=I, role N=ROLE, \
     sees-itself N=learner (or voter), progress N=STATE, match N>=P% (or <=), ok, error=CODE, value=TEXT, absent, linearizable, not-linearizable, \
     queued>=SIZE, queued N>=SIZE (or <=), msgs-out N=K, msgs-in N=K (or >=, <=), \
     watch-events W=N (or >=, <=), watch-canceled W, mirror M=STATE, mirror-error M=CODE, \
     held A->B=N, in-flight A->B=N (or >=, <=)";

/// Each form of [`CONDITION_FORMS`] with its condition's name (`leader` for
/// `leader=N`, `match` for `match N>=P% (or <=)`), in its order: what a
/// mistyped condition is measured against, and what it is answered with.
pub fn condition_forms() -> Vec<(&'static str, &'static str)> {
    let mut forms = Vec::new();
    let (mut depth, mut start) = (0, 0);
    let text = CONDITION_FORMS;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                forms.push(&text[start..i]);
                start = i + 2;
            }
            _ => {}
        }
    }
    forms.push(&text[start..]);
    forms
        .into_iter()
        .map(|form| {
            let end = form
                .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
                .unwrap_or(form.len());
            (&form[..end], form)
        })
        .collect()
}

impl ParseErrorKind {
    /// A sample of every kind, for the tests that every renderer says each.
    pub fn samples() -> Vec<ParseErrorKind> {
        use ParseErrorKind::*;
        let s = |t: &str| t.to_string();
        let mut all = vec![
            QuoteInsideWord { word: s("\"ab\"") },
            UnknownEscape {
                escape: s("\"\\\\x\""),
            },
            Unterminated,
            SpaceAfterQuote { found: s("\"b\"") },
            ClusterFirst {
                found: s("\"put\""),
            },
            SecondCluster,
            SecondSayJa,
            SayJaAlone,
            EmptyScript,
            NoCommand,
            ClusterNotCommand,
            BadClusterName {
                found: s("\"a b\""),
            },
            QuotedCommand { found: s("\"x\"") },
            UnknownCommand { found: s("\"pt\"") },
            EtcdctlLine,
            EtcdctlCommand {
                found: s("del"),
                etcdctl: s("del KEY"),
                scenario: s("delete KEY"),
                console: true,
            },
            EtcdctlCommand {
                found: s("make-mirror"),
                etcdctl: s("make-mirror DEST"),
                scenario: s("mirror start M from=N to=D"),
                console: false,
            },
            EtcdctlUnmodelled { found: s("lease") },
            UnknownCommandNear {
                found: s("\"putt\""),
                near: s("\"put\""),
            },
            TextIsOption {
                what: s("a key"),
                after: s("\"put\""),
                found: s("\"a=b\""),
            },
            ExtraWord {
                word: s("\"x\""),
                after: s("crash"),
            },
            ExtraSayWord {
                word: s("\"x\""),
                after: s("say"),
            },
            QuotedOption {
                found: s("\"x\""),
                cmd: s("get"),
                expected: s("via"),
            },
            UnknownOption {
                name: s("\"vai\""),
                cmd: s("get"),
                expected: s("via"),
            },
            UnknownOptionNear {
                name: s("\"--lerner\""),
                cmd: s("member add"),
                near: s("\"--learner\""),
            },
            DuplicateOption { name: s("via") },
            OptionTakesNoValue { name: s("nowait") },
            MissingOptionValue {
                name: s("via"),
                hint: s("via=N"),
            },
            UnknownCondition {
                found: s("\"leeder\""),
            },
            UnknownConditionNear {
                found: s("\"leder\""),
                forms: vec![s("leader"), s("leader=N")],
            },
            BadDuration { found: s("\"x\"") },
            NegativeDuration {
                found: s("\"-1s\""),
            },
            DurationUnit { found: s("\"5\"") },
            DurationOtherUnit {
                found: s("\"2m\""),
                write: s("120s"),
            },
            DurationSpace {
                found: s("\"2 min\""),
                write: s("120s"),
            },
            DurationTooLong {
                found: s("\"1e30s\""),
            },
            DurationFraction {
                found: s("\"0.1ms\""),
            },
            WaitTooLong {
                found: s("\"2h\""),
                limit: s("3600s"),
            },
            BadPercent { found: s("\"x\"") },
            LossAbove100 {
                found: s("\"101%\""),
            },
            LossDecimals {
                found: s("\"0.00001%\""),
            },
            BadSize { found: s("\"x\"") },
            NegativeSize {
                found: s("\"-1B\""),
            },
            SizeUnit { found: s("\"5\"") },
            SizeTooLarge {
                found: s("\"2GB\""),
                limit: s("1GB"),
            },
            SizeFraction {
                found: s("\"0.5B\""),
            },
            BadNodeId { found: s("\"x\"") },
            NodeIdNamed {
                found: s("\"n1\""),
                id: 1,
            },
            NodeIdRange { found: s("16") },
            BadNumber { found: s("\"x\"") },
            NumberTooLarge {
                found: s("99999999999999999999"),
            },
        ];
        let id = |id: NodeId| id;
        all.extend([
            Say(SayProblem::Unclosed),
            Say(SayProblem::UnknownPlaceholder {
                name: s("lader"),
                known: s("{leader}, {term}"),
            }),
            Say(SayProblem::StrayClose),
            CommandExpected,
            SayJaInConsole,
            LoadMissing,
            LoadNoRate,
            NetMissing,
            LearnerAndVoter,
            LearnerKindWithVoter {
                kind: s("--standby"),
            },
            StandbyAndReadOnly,
            UnknownRelease {
                found: s("\"3.3\""),
            },
            TwiceInChange { id: id(4) },
            ChangeMissing,
            MissingLinkEnd { from: s("1") },
            SameNodeLink { a: 1, b: 1 },
            OneDirection {
                cmd: s("drop"),
                a: 1,
                b: 2,
            },
            QuotedGroups { found: s("\"1\"") },
            PartitionMissing,
            GroupSeparator { id: 2 },
            TwiceInGroup { id: 2 },
            InTwoGroups { id: 2 },
            CommaBeforeId,
            EmptyGroupBeforeBar,
            EmptyGroupAfterBar,
            IdAfterComma,
            OneGroup,
            EmptyList,
            TwiceInList { id: 2 },
            EmptyValue,
            MissingEventCount,
            MissingRole { id: 2 },
            MissingVoters,
            MaxLearnersRelease { etcd: s("3.5") },
            RateTooHigh {
                rate: s("99999"),
                limit: 10000,
            },
            AutoPromoteRange { found: s("\"0%\"") },
            LatencyOrder {
                min: s("30ms"),
                max: s("10ms"),
            },
            ElectionTooShort {
                election: s("100ms"),
                times: 5,
                heartbeat: s("100ms"),
            },
            ElectionTooLong {
                election: s("60s"),
                max: s("50s"),
            },
            FailoverTooShort {
                failover: s("100ms"),
                election: s("1s"),
            },
        ]);
        for what in [
            Named::MemberSubcommand,
            Named::MirrorSubcommand,
            Named::MirrorState,
            Named::Role,
            Named::ProgressState,
            Named::ErrorCode,
            Named::MessageKind,
        ] {
            all.push(UnknownName {
                what,
                found: s("\"x\""),
                expected: s("a, b"),
            });
            all.push(UnknownNameNear {
                what,
                found: s("\"b\""),
                near: s("\"a\""),
            });
        }
        for least in [
            Least::Heartbeat,
            Least::SnapshotCount,
            Least::Rate,
            Least::Bandwidth,
            Least::WatchNumber,
            Least::Count,
        ] {
            all.push(TooSmall(least));
        }
        for form in [
            Form::Messages(s("msgs-out")),
            Form::Queued,
            Form::WatchEvents,
            Form::Role,
            Form::Progress,
            Form::MatchShare,
            Form::Rate,
            Form::WatchNumber,
            Form::AutoPromote,
            Form::Latency,
            Form::Bandwidth,
            Form::LinkCount(s("held")),
            Form::Choice("on", "off"),
        ] {
            all.push(FormExpected {
                form,
                found: s("\"x\""),
            });
        }
        for what in MissingWhat::ALL.into_iter().chain(["N=K"]) {
            all.push(Missing {
                what: s(what),
                after: s("\"x\""),
            });
        }
        all
    }

    /// The English words: the report's and the command line's `message`.
    pub fn english(&self) -> String {
        use ParseErrorKind::*;
        match self {
            QuoteInsideWord { word } => {
                format!("unexpected quote inside the word {word}; quote the whole word")
            }
            UnknownEscape { escape } => {
                format!("unknown escape {escape} in quoted text; only \\\" and \\\\ are allowed")
            }
            Unterminated => "unterminated quoted text".to_string(),
            SpaceAfterQuote { found } => {
                format!("expected a space after the closing quote, found {found}")
            }
            ClusterFirst { found } => format!(
                "expected the cluster line first, like \"cluster voters=1,2,3\", found {found}"
            ),
            SecondCluster => "a second \"cluster\" line adds another cluster and needs a name: \
                              name=NAME (the first cluster is named main)"
                .to_string(),
            SecondSayJa => "a second say-ja for the same say line".to_string(),
            SayJaAlone => "say-ja must come right after the say line it translates".to_string(),
            EmptyScript => {
                "the script is empty; it must start with a line like \"cluster voters=1,2,3\""
                    .to_string()
            }
            NoCommand => format!(
                "expected a command, found nothing; commands are: {}",
                COMMAND_NAMES.join(", ")
            ),
            ClusterNotCommand => "\"cluster\" without name= can only be the first line of a \
                                  script; \"cluster voters=... name=NAME\" adds another cluster"
                .to_string(),
            BadClusterName { found } => format!(
                "bad cluster name {found}: letters, digits and '-', 1 to 20 of them; the first \
                 cluster is named main"
            ),
            QuotedCommand { found } => format!("expected a command, found quoted text {found}"),
            UnknownCommand { found } => format!(
                "unknown command {found}; expected one of: {}",
                COMMAND_NAMES.join(", ")
            ),
            UnknownCommandNear { found, near } => {
                format!("unknown command {found}; did you mean {near}?")
            }
            EtcdctlLine => "unknown command \"etcdctl\": a script holds scenario commands; \
                            etcdctl's lines are for the page's console, which logs the scenario \
                            command each is recorded as"
                .to_string(),
            EtcdctlCommand {
                found,
                etcdctl,
                scenario,
                console,
            } => format!(
                "unknown command \"{found}\": etcdctl's \"{etcdctl}\" is \"{scenario}\" in a \
                 scenario{}",
                if *console {
                    format!(" (the page's console also takes \"etcdctl {etcdctl}\")")
                } else {
                    String::new()
                }
            ),
            EtcdctlUnmodelled { found } => format!(
                "unknown command \"{found}\": raftlab does not model etcdctl's {found}; \
                 expected one of: {}",
                COMMAND_NAMES.join(", ")
            ),
            Missing { what, after } => format!("missing {what} after {after}"),
            TextIsOption { what, after, found } => format!(
                "expected {what} after {after}, found the option {found}; \
                 quote {what} that contains \"=\""
            ),
            ExtraWord { word, after } => format!("unexpected extra word {word} after {after}"),
            ExtraSayWord { word, after } => format!(
                "unexpected extra word {word} after the text of {after}; \
                 put text with spaces in double quotes"
            ),
            QuotedOption {
                found,
                cmd,
                expected,
            } => format!("unexpected quoted text {found} for {cmd}; expected {expected}"),
            UnknownOption {
                name,
                cmd,
                expected,
            } => format!("unknown option {name} for {cmd}; expected {expected}"),
            UnknownOptionNear { name, cmd, near } => {
                format!("unknown option {name} for {cmd}; did you mean {near}?")
            }
            DuplicateOption { name } => format!("duplicate option \"{name}\""),
            OptionTakesNoValue { name } => format!("option \"{name}\" takes no value"),
            MissingOptionValue { name, hint } => {
                format!("missing value for option \"{name}\"; expected {hint}")
            }
            UnknownCondition { found } => {
                format!("unknown condition {found}; expected one of: {CONDITION_FORMS}")
            }
            UnknownConditionNear { found, forms } => {
                format!(
                    "unknown condition {found}; did you mean {}?",
                    forms.join(" or ")
                )
            }
            BadDuration { found } => {
                format!("expected a duration like 250ms or 2s, found {found}")
            }
            NegativeDuration { found } => format!("a duration cannot be negative, found {found}"),
            DurationUnit { found } => format!("a duration needs a unit (ms or s), found {found}"),
            DurationOtherUnit { found, write } => {
                format!("durations are in ms or s: for {found} write {write}")
            }
            DurationSpace { found, write } => {
                format!(
                    "a duration is one word, its unit after its number: for {found} write {write}"
                )
            }
            DurationTooLong { found } => format!("the duration {found} is too long"),
            DurationFraction { found } => {
                format!("durations are whole milliseconds; {found} is finer than 1ms")
            }
            WaitTooLong { found, limit } => format!(
                "the duration {found} is longer than the limit of {limit} (one command lets at \
                 most an hour of simulated time pass)"
            ),
            BadPercent { found } => {
                format!("expected a percentage like 1% or 0.5%, found {found}")
            }
            LossAbove100 { found } => format!("the loss {found} is above 100%"),
            LossDecimals { found } => format!("the loss {found} has more than four decimals"),
            BadSize { found } => format!("expected a size like 512B, 4KB or 1MB, found {found}"),
            NegativeSize { found } => format!("a size cannot be negative, found {found}"),
            SizeUnit { found } => format!("a size needs a unit (B, KB, MB or GB), found {found}"),
            SizeTooLarge { found, limit } => {
                format!("the size {found} is larger than the limit of {limit}")
            }
            SizeFraction { found } => format!("the size {found} is not a whole number of bytes"),
            BadNodeId { found } => {
                format!("expected a node id ({MIN_NODE_ID} to {MAX_NODE_ID}), found {found}")
            }
            NodeIdNamed { found, id } => {
                format!("expected a node id ({MIN_NODE_ID} to {MAX_NODE_ID}), found {found}: write {id}")
            }
            NodeIdRange { found } => {
                format!("node id {found} is out of range: node ids go from {MIN_NODE_ID} to {MAX_NODE_ID}")
            }
            BadNumber { found } => format!("expected a whole number, found {found}"),
            NumberTooLarge { found } => format!("the number {found} is too large"),
            Say(SayProblem::Unclosed) => {
                "a { opens a placeholder that is never closed; write {{ for a literal brace"
                    .to_string()
            }
            Say(SayProblem::UnknownPlaceholder { name, known }) => format!(
                "unknown placeholder {{{name}}}; expected one of: {known}, \
                 or {{{{ and }}}} for literal braces"
            ),
            Say(SayProblem::StrayClose) => {
                "a } closes no placeholder; write }} for a literal brace".to_string()
            }
            CommandExpected => "expected a command, found nothing".to_string(),
            SayJaInConsole => "say-ja gives the Japanese words of the say line just before it; \
                               it only follows a say line in a script"
                .to_string(),
            LoadMissing => "missing \"rate=N/s\" or \"stop\" after \"load\"".to_string(),
            LoadNoRate => "missing option \"rate\" for load; expected \"load rate=N/s\" or \
                           \"load stop\""
                .to_string(),
            NetMissing => "missing options after \"net\"; expected loss=PERCENT, \
                           latency=MIN..MAX or bandwidth=SIZE/s|unlimited"
                .to_string(),
            LearnerAndVoter => "--learner and --voter cannot both be given".to_string(),
            LearnerKindWithVoter { kind } => {
                format!("{kind} adds a learner; it cannot be given with --voter")
            }
            StandbyAndReadOnly => "--standby and --read-only cannot both be given: a read-only \
                                   learner is never promoted, so it cannot stand by for failover"
                .to_string(),
            UnknownName {
                what,
                found,
                expected,
            } => format!(
                "unknown {} {found}; expected one of: {expected}",
                what.name()
            ),
            UnknownNameNear { what, found, near } => {
                format!("unknown {} {found}; did you mean {near}?", what.name())
            }
            UnknownRelease { found } => {
                format!("unknown etcd release {found}; expected 3.4, 3.5, 3.6, 3.4.23 or 3.5.1")
            }
            TwiceInChange { id } => format!("node {id} appears in two changes of member change"),
            ChangeMissing => "missing changes after \"member change\"; expected add=, \
                              add-learner=, promote=, demote= or remove= with node ids"
                .to_string(),
            MissingLinkEnd { from } => format!("missing node id after \"{from}->\""),
            SameNodeLink { a, b } => {
                format!("a link joins two different nodes, found {a} and {b}")
            }
            OneDirection { cmd, a, b } => {
                format!("{cmd} acts on one direction: write {a}->{b} (or {b}->{a})")
            }
            QuotedGroups { found } => {
                format!("expected node ids in groups like 1,2 | 3, found quoted text {found}")
            }
            PartitionMissing => {
                "missing groups after \"partition\"; expected groups like 1,2 | 3".to_string()
            }
            GroupSeparator { id } => {
                format!("expected \",\" or \"|\" between node ids, found \"{id}\"")
            }
            TwiceInGroup { id } => format!("node {id} appears twice in the same group"),
            InTwoGroups { id } => format!("node {id} is in two groups"),
            CommaBeforeId => "expected a node id, found \",\"".to_string(),
            EmptyGroupBeforeBar => "empty group; expected node ids before \"|\"".to_string(),
            EmptyGroupAfterBar => "empty group after \"|\"".to_string(),
            IdAfterComma => "missing node id after \",\"".to_string(),
            OneGroup => {
                "a partition needs at least two groups separated by \"|\", like 1,2 | 3".to_string()
            }
            EmptyList => "expected a list of node ids like 1,2,3, found nothing".to_string(),
            TwiceInList { id } => format!("node {id} appears twice in the list"),
            EmptyValue => {
                "missing a value after \"value=\"; quote an empty value: value=\"\"".to_string()
            }
            FormExpected { form, found } => format!("expected {}, found {found}", form.english()),
            MissingEventCount => "missing a number of events".to_string(),
            MissingRole { id } => format!("missing role after \"{id}=\""),
            MissingVoters => {
                "missing option \"voters\" for cluster; expected cluster voters=1,2,3".to_string()
            }
            MaxLearnersRelease { etcd } => format!(
                "max-learners cannot be set with etcd={etcd}: etcd {etcd} fixes one learner at \
                 most (--max-learners came in 3.6)"
            ),
            TooSmall(least) => match least {
                Least::Heartbeat => "the heartbeat must be at least 1ms",
                Least::SnapshotCount => "snapshot-count must be at least 1",
                Least::Rate => "the rate must be at least 1/s",
                Least::Bandwidth => "the bandwidth must be at least 1B/s",
                Least::WatchNumber => "watches are numbered from 1",
                Least::Count => "count must be at least 1",
            }
            .to_string(),
            RateTooHigh { rate, limit } => {
                format!("the rate {rate}/s is above the limit of {limit}/s")
            }
            AutoPromoteRange { found } => {
                format!("auto-promote {found} is out of range; expected 1% to 100%")
            }
            LatencyOrder { min, max } => {
                format!("the latency minimum {min} is above its maximum {max}")
            }
            ElectionTooShort {
                election,
                times,
                heartbeat,
            } => format!(
                "election-timeout {election} must be at least {times} times the heartbeat \
                 {heartbeat} (etcd's rule)"
            ),
            ElectionTooLong { election, max } => {
                format!("election-timeout {election} is too long; etcd allows at most {max}")
            }
            FailoverTooShort { failover, election } => format!(
                "failover-after {failover} must be at least the election timeout {election}: a \
                 voter counts as silent only after an election timeout without an answer"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_condition_forms_are_the_lists_own_each_with_its_name() {
        let forms = condition_forms();
        let joined: Vec<&str> = forms.iter().map(|(_, f)| *f).collect();
        assert_eq!(joined.join(", "), CONDITION_FORMS);
        assert_eq!(forms[0], ("leader", "leader"));
        assert!(forms.contains(&("match", "match N>=P% (or <=)")));
        assert!(forms.contains(&("msgs-in", "msgs-in N=K (or >=, <=)")));
        assert!(forms.contains(&("term", "term>=T")));
        assert!(forms
            .iter()
            .all(|(name, form)| !name.is_empty() && form.starts_with(name)));
    }
}
