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

use super::ast::{MAX_NODE_ID, MIN_NODE_ID};
use super::parse::COMMAND_NAMES;

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
    /// `cluster` typed as a console command.
    ClusterNotCommand,
    /// A line starting with quoted text.
    QuotedCommand {
        found: String,
    },
    /// A first word that is no command.
    UnknownCommand {
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
    /// One of the checks particular to a command, in English only.
    Other(String),
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
     progress N=STATE, ok, error=CODE, value=TEXT, absent, linearizable, not-linearizable, \
     queued>=SIZE, queued N>=SIZE (or <=), msgs-out N=K, msgs-in N=K (or >=, <=), \
     watch-events W=N (or >=, <=), watch-canceled W";

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
            QuotedCommand { found: s("\"x\"") },
            UnknownCommand { found: s("\"pt\"") },
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
            DuplicateOption { name: s("via") },
            OptionTakesNoValue { name: s("nowait") },
            MissingOptionValue {
                name: s("via"),
                hint: s("via=N"),
            },
            UnknownCondition {
                found: s("\"leeder\""),
            },
            BadDuration { found: s("\"x\"") },
            NegativeDuration {
                found: s("\"-1s\""),
            },
            DurationUnit { found: s("\"5\"") },
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
            NodeIdRange { found: s("16") },
            BadNumber { found: s("\"x\"") },
            NumberTooLarge {
                found: s("99999999999999999999"),
            },
        ];
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
            SecondCluster => {
                "a script has only one \"cluster\" line, and this is a second one".to_string()
            }
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
            ClusterNotCommand => "\"cluster\" can only be the first line of a script".to_string(),
            QuotedCommand { found } => format!("expected a command, found quoted text {found}"),
            UnknownCommand { found } => format!(
                "unknown command {found}; expected one of: {}",
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
            DuplicateOption { name } => format!("duplicate option \"{name}\""),
            OptionTakesNoValue { name } => format!("option \"{name}\" takes no value"),
            MissingOptionValue { name, hint } => {
                format!("missing value for option \"{name}\"; expected {hint}")
            }
            UnknownCondition { found } => {
                format!("unknown condition {found}; expected one of: {CONDITION_FORMS}")
            }
            BadDuration { found } => {
                format!("expected a duration like 250ms or 2s, found {found}")
            }
            NegativeDuration { found } => format!("a duration cannot be negative, found {found}"),
            DurationUnit { found } => format!("a duration needs a unit (ms or s), found {found}"),
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
                format!("expected a node id ({MIN_NODE_ID}..={MAX_NODE_ID}), found {found}")
            }
            NodeIdRange { found } => {
                format!("node id {found} is out of range {MIN_NODE_ID}..={MAX_NODE_ID}")
            }
            BadNumber { found } => format!("expected a whole number, found {found}"),
            NumberTooLarge { found } => format!("the number {found} is too large"),
            Other(message) => message.clone(),
        }
    }
}

impl From<String> for ParseErrorKind {
    fn from(message: String) -> ParseErrorKind {
        ParseErrorKind::Other(message)
    }
}

impl From<&str> for ParseErrorKind {
    fn from(message: &str) -> ParseErrorKind {
        ParseErrorKind::Other(message.to_string())
    }
}
