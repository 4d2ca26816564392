//! The parser: script text to [`Script`], one console line to [`Command`].
//!
//! It never panics: every number goes through checked arithmetic, and every
//! error names its line, its column (in characters, 1-based, at the offending
//! word) and what was expected and found.

use std::sync::Arc;

use crate::lang::ast::*;
use crate::lang::etcdctl::node_of_name;
use crate::lang::lexer::{lex, OptPart, Token};
use crate::lang::parse_error::{Form, Least, Named};
pub use crate::lang::parse_error::{ParseError, ParseErrorFacts, ParseErrorKind};

mod by_hand;

/// The options every client request takes: the client's timeout and
/// etcd's `WithRequireLeader`.
const CLIENT_OPTIONS: [(&str, Kind); 2] = [
    ("timeout", Kind::Value("timeout=DURATION")),
    ("require-leader", Kind::Flag),
];

/// `timeout=` (at most an hour) and `require-leader` among found options.
fn client_options(p: &Words<'_>, found: &[Found<'_>]) -> Result<(Option<u64>, bool), ParseError> {
    let timeout = get(found, "timeout")
        .map(|f| p.convert(f, parse_wait))
        .transpose()?;
    Ok((timeout, get(found, "require-leader").is_some()))
}

/// Parses a whole script. The first line that is neither blank nor a comment
/// must be the `cluster` line; no other line may be one.
pub fn parse_script(src: &str) -> Result<Script, ParseError> {
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    let mut cluster = None;
    let mut commands = Vec::new();
    for (i, raw) in src.lines().enumerate() {
        let line_no = i + 1;
        let lexed = lex(raw, line_no)?;
        let Some(first) = lexed.tokens.first() else {
            continue;
        };
        let is_cluster = is_bare(first, "cluster");
        match (&cluster, is_cluster) {
            (None, true) => cluster = Some(parse_first_cluster(&lexed.tokens, line_no)?),
            (None, false) => {
                return Err(ParseError::new(
                    line_no,
                    first.col,
                    ParseErrorKind::ClusterFirst {
                        found: quote_for_message(&first.text),
                    },
                ))
            }
            (Some(_), true) => {
                let node = parse_added_cluster(&lexed.tokens, line_no)?;
                commands.push(Spanned {
                    line: line_no,
                    text: raw[..lexed.code_len].trim().to_string(),
                    node: Arc::new(node),
                });
            }
            (Some(_), false) if is_bare(first, "say-ja") => {
                add_say_ja(&mut commands, &lexed.tokens, line_no)?;
            }
            (Some(_), false) => {
                let node = parse_tokens(&lexed.tokens, line_no)?;
                commands.push(Spanned {
                    line: line_no,
                    text: raw[..lexed.code_len].trim().to_string(),
                    node: Arc::new(node),
                });
            }
        }
    }
    match cluster {
        Some(cluster) => Ok(Script { cluster, commands }),
        None => Err(ParseError::new(1, 1, ParseErrorKind::EmptyScript)),
    }
}

/// A script's first `cluster` line: the first cluster, `main`.
fn parse_first_cluster(tokens: &[Token], line_no: usize) -> Result<ClusterSpec, ParseError> {
    let mut p = Words::new(tokens, line_no);
    let first = p.next().map_or(1, |t| t.col);
    let mut spec = parse_cluster(&mut p)?;
    // The first cluster is `main`; `name=main` says so.
    match spec.name.as_deref() {
        None => {}
        Some(crate::server::fleet::MAIN) => spec.name = None,
        Some(other) => {
            return Err(ParseError::new(
                line_no,
                first,
                ParseErrorKind::BadClusterName {
                    found: quote_for_message(other),
                },
            ))
        }
    }
    Ok(spec)
}

/// A `say-ja` line: the Japanese words of the `say` line just before, part
/// of that command, never a command of its own.
fn add_say_ja(
    commands: &mut [Spanned<Arc<Command>>],
    tokens: &[Token],
    line_no: usize,
) -> Result<(), ParseError> {
    let mut p = Words::new(tokens, line_no);
    let first = p.next().map_or(1, |t| t.col);
    let text = say_text(&mut p, "say-ja")?;
    match commands
        .last_mut()
        .and_then(|c: &mut Spanned<Arc<Command>>| Arc::get_mut(&mut c.node))
    {
        Some(Command::Say { ja: ja @ None, .. }) => *ja = Some(text),
        Some(Command::Say { .. }) => {
            return Err(ParseError::new(line_no, first, ParseErrorKind::SecondSayJa))
        }
        _ => return Err(ParseError::new(line_no, first, ParseErrorKind::SayJaAlone)),
    }
    Ok(())
}

/// Parses one command line, as typed in the browser console. Same grammar as
/// a script line; `cluster` is not a command here.
pub fn parse_command(line: &str) -> Result<Command, ParseError> {
    let lexed = lex(line, 1)?;
    match lexed.tokens.first() {
        None => Err(ParseError::new(1, 1, ParseErrorKind::NoCommand)),
        Some(first) if is_bare(first, "cluster") => {
            let has_name = lexed
                .tokens
                .iter()
                .any(|t| t.opt.as_ref().is_some_and(|o| o.name == "name"));
            if has_name {
                parse_added_cluster(&lexed.tokens, 1)
            } else {
                Err(ParseError::new(
                    1,
                    first.col,
                    ParseErrorKind::ClusterNotCommand,
                ))
            }
        }
        Some(_) => parse_tokens(&lexed.tokens, 1),
    }
}

/// A `cluster` line after the first: another cluster, which needs a name.
fn parse_added_cluster(tokens: &[Token], line_no: usize) -> Result<Command, ParseError> {
    let mut p = Words::new(tokens, line_no);
    let first = p.next().map_or(1, |t| t.col);
    let spec = parse_cluster(&mut p)?;
    match spec.name.as_deref() {
        None => Err(ParseError::new(
            line_no,
            first,
            ParseErrorKind::SecondCluster,
        )),
        Some(_) => Ok(Command::AddCluster(Box::new(spec))),
    }
}

/// A duration with its unit (`250ms`, `2s`, `1.5s`) in whole milliseconds.
pub fn parse_duration(s: &str) -> Result<u64, String> {
    duration_of(s).map_err(|k| k.english())
}

pub(crate) fn duration_of(s: &str) -> Result<u64, ParseErrorKind> {
    let found = quote_for_message(s);
    // Not a duration in ms or s: one in another unit says what to write.
    let generic = || match other_unit(s) {
        Some(ms) => ParseErrorKind::DurationOtherUnit {
            found: found.clone(),
            write: format_duration(ms),
        },
        None => ParseErrorKind::BadDuration {
            found: found.clone(),
        },
    };
    if s.starts_with('-') {
        return Err(ParseErrorKind::NegativeDuration { found });
    }
    let (number, per_unit) = if let Some(n) = s.strip_suffix("ms") {
        (n, 1u128)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1000u128)
    } else if is_digits(s) {
        return Err(ParseErrorKind::DurationUnit { found });
    } else {
        return Err(generic());
    };
    let ms = scaled(number, per_unit).ok_or_else(generic)?;
    match ms {
        Scaled::Whole(ms) => {
            u64::try_from(ms).map_err(|_| ParseErrorKind::DurationTooLong { found })
        }
        Scaled::Fraction => Err(ParseErrorKind::DurationFraction { found }),
        Scaled::TooLarge => Err(ParseErrorKind::DurationTooLong { found }),
    }
}

/// Units a duration is written in elsewhere, longest first where one ends
/// another, and the milliseconds of each: the language has only ms and s.
const OTHER_UNITS: [(&str, u128); 17] = [
    ("milliseconds", 1),
    ("millisecond", 1),
    ("millis", 1),
    ("msec", 1),
    ("seconds", 1000),
    ("second", 1000),
    ("secs", 1000),
    ("sec", 1000),
    ("minutes", 60_000),
    ("minute", 60_000),
    ("mins", 60_000),
    ("min", 60_000),
    ("m", 60_000),
    ("hours", 3_600_000),
    ("hour", 3_600_000),
    ("hr", 3_600_000),
    ("h", 3_600_000),
];

/// `2m`, `1.5min`, `1h` or `3sec` in milliseconds, when whole: a refusal
/// says what to write instead.
fn other_unit(s: &str) -> Option<u64> {
    let (number, per_unit) = OTHER_UNITS
        .iter()
        .find_map(|&(unit, per)| Some((s.strip_suffix(unit)?, per)))?;
    match scaled(number, per_unit)? {
        Scaled::Whole(ms) => u64::try_from(ms).ok(),
        _ => None,
    }
}

/// Whether `s` is one or more decimal digits and nothing else.
fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// A duration one command may let pass: at most [`MAX_WAIT_MS`] (an hour).
fn parse_wait(s: &str) -> Result<u64, ParseErrorKind> {
    let ms = match duration_of(s) {
        Ok(ms) => ms,
        // Hours past the limit are said to be past it, not to be written in
        // seconds that would be refused next.
        Err(e) => match other_unit(s) {
            Some(ms) if ms > MAX_WAIT_MS => ms,
            _ => return Err(e),
        },
    };
    if ms > MAX_WAIT_MS {
        return Err(ParseErrorKind::WaitTooLong {
            found: quote_for_message(s),
            limit: format_duration(MAX_WAIT_MS),
        });
    }
    Ok(ms)
}

/// A loss rate in percent (`1%`, `0.5%`, at most four decimals, at most
/// `100%`) in parts per million.
fn parse_percent(s: &str) -> Result<u32, ParseErrorKind> {
    let found = quote_for_message(s);
    let generic = || ParseErrorKind::BadPercent {
        found: found.clone(),
    };
    let Some(number) = s.strip_suffix('%') else {
        return Err(generic());
    };
    match scaled(number, u128::from(LOSS_PPM_PER_PERCENT)).ok_or_else(generic)? {
        Scaled::Whole(ppm) if ppm <= 100 * u128::from(LOSS_PPM_PER_PERCENT) => Ok(ppm as u32),
        Scaled::Whole(_) | Scaled::TooLarge => Err(ParseErrorKind::LossAbove100 { found }),
        Scaled::Fraction => Err(ParseErrorKind::LossDecimals { found }),
    }
}

/// A size with its unit (`512B`, `4KB`, `1MB`, `1GB`, powers of 1024) in
/// bytes, at most 1GB.
pub fn parse_size(s: &str) -> Result<u64, String> {
    size_of(s).map_err(|k| k.english())
}

fn size_of(s: &str) -> Result<u64, ParseErrorKind> {
    let found = quote_for_message(s);
    let generic = || ParseErrorKind::BadSize {
        found: found.clone(),
    };
    if s.starts_with('-') {
        return Err(ParseErrorKind::NegativeSize { found });
    }
    let units: [(&str, u128); 4] = [("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("B", 1)];
    let Some((number, mult)) = units
        .iter()
        .find_map(|(u, m)| s.strip_suffix(u).map(|n| (n, *m)))
    else {
        if is_digits(s) {
            return Err(ParseErrorKind::SizeUnit { found });
        }
        return Err(generic());
    };
    let too_large = || ParseErrorKind::SizeTooLarge {
        found: found.clone(),
        limit: format_size(MAX_SIZE_BYTES),
    };
    match scaled(number, mult).ok_or_else(generic)? {
        Scaled::Whole(b) if b <= u128::from(MAX_SIZE_BYTES) => Ok(b as u64),
        Scaled::Whole(_) | Scaled::TooLarge => Err(too_large()),
        Scaled::Fraction => Err(ParseErrorKind::SizeFraction { found }),
    }
}

enum Scaled {
    Whole(u128),
    Fraction,
    TooLarge,
}

/// `number * mult` for a decimal `number` ("12", "1.5"); `None` when
/// `number` is not a decimal.
fn scaled(number: &str, mult: u128) -> Option<Scaled> {
    let (int, frac) = match number.split_once('.') {
        Some((i, f)) => (i, f),
        None => (number, ""),
    };
    if !is_digits(int) || (number.as_bytes().contains(&b'.') && !is_digits(frac)) {
        return None;
    }
    let frac = frac.trim_end_matches('0');
    let Some(int) = parse_digits_u128(int) else {
        return Some(Scaled::TooLarge);
    };
    let Some(whole) = int.checked_mul(mult) else {
        return Some(Scaled::TooLarge);
    };
    if frac.is_empty() {
        return Some(Scaled::Whole(whole));
    }
    // More than 20 significant decimals is never a whole millisecond or byte
    // for multipliers up to 2^30.
    if frac.len() > 20 {
        return Some(Scaled::Fraction);
    }
    let num = parse_digits_u128(frac)?.checked_mul(mult)?;
    let den = 10u128.checked_pow(frac.len() as u32)?;
    if num % den != 0 {
        return Some(Scaled::Fraction);
    }
    match whole.checked_add(num / den) {
        Some(v) => Some(Scaled::Whole(v)),
        None => Some(Scaled::TooLarge),
    }
}

fn parse_digits_u128(s: &str) -> Option<u128> {
    s.bytes().try_fold(0u128, |acc, b| {
        acc.checked_mul(10)?.checked_add(u128::from(b - b'0'))
    })
}

/// A node id, 1..=15.
pub fn parse_node_id(s: &str) -> Result<NodeId, String> {
    node_id_of(s).map_err(|k| k.english())
}

fn node_id_of(s: &str) -> Result<NodeId, ParseErrorKind> {
    if !is_digits(s) {
        // A member's name (`n1`, etcd's name for node 1, or `node1`): its
        // number is what the language writes.
        let number =
            node_of_name(s).or_else(|| node_of_name(&format!("n{}", s.strip_prefix("node")?)));
        return Err(match number {
            Some(n) => ParseErrorKind::NodeIdNamed {
                found: quote_for_message(s),
                id: n,
            },
            None => ParseErrorKind::BadNodeId {
                found: quote_for_message(s),
            },
        });
    }
    match s.parse::<u64>() {
        Ok(n) if (MIN_NODE_ID..=MAX_NODE_ID).contains(&n) => Ok(n),
        _ => Err(ParseErrorKind::NodeIdRange { found: shorten(s) }),
    }
}

/// A whole number without unit.
fn parse_number(s: &str) -> Result<u64, ParseErrorKind> {
    if !is_digits(s) {
        return Err(ParseErrorKind::BadNumber {
            found: quote_for_message(s),
        });
    }
    s.parse::<u64>()
        .map_err(|_| ParseErrorKind::NumberTooLarge { found: shorten(s) })
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 40 {
        let mut t: String = s.chars().take(40).collect();
        t.push_str("...");
        t
    } else {
        s.to_string()
    }
}

fn is_bare(t: &Token, word: &str) -> bool {
    !t.quoted && t.text == word
}

/// A cursor over the words of one line.
struct Words<'t> {
    toks: &'t [Token],
    pos: usize,
    line: usize,
    /// Column just past the last word consumed.
    prev_end: usize,
}

/// How an option is written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `name=VALUE`; the hint names the value (`via=N`).
    Value(&'static str),
    /// `name` alone.
    Flag,
}

/// One option found on a line.
struct Found<'t> {
    name: &'static str,
    tok: &'t Token,
}

impl<'t> Found<'t> {
    fn value(&self) -> &'t str {
        self.tok.opt.as_ref().map_or("", |o| o.value.as_str())
    }
    fn value_col(&self) -> usize {
        self.tok.opt.as_ref().map_or(self.tok.col, |o| o.value_col)
    }
}

impl<'t> Words<'t> {
    fn new(toks: &'t [Token], line: usize) -> Self {
        Words {
            toks,
            pos: 0,
            line,
            prev_end: 1,
        }
    }

    fn err(&self, column: usize, kind: impl Into<ParseErrorKind>) -> ParseError {
        ParseError::new(self.line, column, kind)
    }

    fn next(&mut self) -> Option<&'t Token> {
        let t = self.toks.get(self.pos)?;
        self.pos += 1;
        self.prev_end = t.end;
        Some(t)
    }

    fn peek(&self) -> Option<&'t Token> {
        self.toks.get(self.pos)
    }

    /// The column where a missing word would start.
    fn missing_col(&self) -> usize {
        self.prev_end + 1
    }

    /// The next word, or "missing WHAT after "AFTER"".
    /// The next word, which must be `NAME=VALUE` (not quoted as a whole):
    /// the word and its parts, or the error that it is missing (`what`
    /// after `after`) or not of the `form`.
    fn option_word(
        &mut self,
        what: &str,
        after: &str,
        form: Form,
    ) -> Result<(&'t Token, &'t OptPart), ParseError> {
        let t = self.word(what, after)?;
        match t.opt.as_ref().filter(|_| !t.quoted) {
            Some(opt) => Ok((t, opt)),
            None => Err(self.err(
                t.col,
                ParseErrorKind::FormExpected {
                    form,
                    found: quote_for_message(&t.text),
                },
            )),
        }
    }

    fn word(&mut self, what: &str, after: &str) -> Result<&'t Token, ParseError> {
        match self.next() {
            Some(t) => Ok(t),
            None => Err(self.err(
                self.missing_col(),
                ParseErrorKind::Missing {
                    what: what.to_string(),
                    after: quote_for_message(after),
                },
            )),
        }
    }

    fn node_id(&mut self, after: &str) -> Result<NodeId, ParseError> {
        let t = self.word("node id", after)?;
        node_id_of(&t.text).map_err(|m| self.err(t.col, m))
    }

    /// A positional text (a key or value): quoted, or a bare word without `=`.
    fn text(&mut self, what: &str, after: &str) -> Result<String, ParseError> {
        let t = self.word(what, after)?;
        if t.opt.is_some() && !t.quoted {
            return Err(self.err(
                t.col,
                ParseErrorKind::TextIsOption {
                    what: what.to_string(),
                    after: quote_for_message(after),
                    found: quote_for_message(&t.text),
                },
            ));
        }
        Ok(t.text.clone())
    }

    /// No more words may follow.
    fn finish(&self, cmd: &str) -> Result<(), ParseError> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(self.err(
                t.col,
                ParseErrorKind::ExtraWord {
                    word: quote_for_message(&t.text),
                    after: cmd.to_string(),
                },
            )),
        }
    }

    /// The rest of the line as options from `allowed`, each at most once.
    fn options(
        &mut self,
        cmd: &str,
        allowed: &[(&'static str, Kind)],
    ) -> Result<Vec<Found<'t>>, ParseError> {
        let expected = || {
            allowed
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut found: Vec<Found<'t>> = Vec::new();
        while let Some(t) = self.next() {
            if t.quoted {
                return Err(self.err(
                    t.col,
                    ParseErrorKind::QuotedOption {
                        found: quote_for_message(&t.text),
                        cmd: cmd.to_string(),
                        expected: expected(),
                    },
                ));
            }
            let name = t.opt.as_ref().map_or(t.text.as_str(), |o| o.name.as_str());
            let Some((name, kind)) = allowed.iter().find(|(n, _)| *n == name) else {
                let names: Vec<&str> = allowed.iter().map(|(n, _)| *n).collect();
                let near = match t.opt {
                    // Only the options not given yet can be the one meant.
                    None => {
                        let open: Vec<&str> = names
                            .iter()
                            .copied()
                            .filter(|n| found.iter().all(|f| f.name != *n))
                            .collect();
                        bare_value(name, &open)
                    }
                    Some(_) => crate::lang::suggest::nearest(name, &names).map(str::to_string),
                };
                let kind = match near {
                    Some(near) => ParseErrorKind::UnknownOptionNear {
                        name: quote_for_message(name),
                        cmd: cmd.to_string(),
                        near: quote_for_message(&near),
                    },
                    None => ParseErrorKind::UnknownOption {
                        name: quote_for_message(name),
                        cmd: cmd.to_string(),
                        expected: expected(),
                    },
                };
                return Err(self.err(t.col, kind));
            };
            if found.iter().any(|f| f.name == *name) {
                return Err(self.err(
                    t.col,
                    ParseErrorKind::DuplicateOption {
                        name: name.to_string(),
                    },
                ));
            }
            match (kind, &t.opt) {
                (Kind::Flag, Some(_)) => {
                    return Err(self.err(
                        t.col,
                        ParseErrorKind::OptionTakesNoValue {
                            name: name.to_string(),
                        },
                    ))
                }
                (Kind::Value(hint), None) => {
                    return Err(self.err(
                        t.col,
                        ParseErrorKind::MissingOptionValue {
                            name: name.to_string(),
                            hint: hint.to_string(),
                        },
                    ))
                }
                (Kind::Value(hint), Some(o)) if o.value.is_empty() && !o.value_quoted => {
                    return Err(self.err(
                        t.col,
                        ParseErrorKind::MissingOptionValue {
                            name: name.to_string(),
                            hint: hint.to_string(),
                        },
                    ))
                }
                _ => {}
            }
            found.push(Found { name, tok: t });
        }
        Ok(found)
    }

    /// Converts an option's value, pointing errors at the value.
    fn convert<T, E: Into<ParseErrorKind>>(
        &self,
        f: &Found<'_>,
        conv: impl FnOnce(&str) -> Result<T, E>,
    ) -> Result<T, ParseError> {
        conv(f.value()).map_err(|m| self.err(f.value_col(), m))
    }
}

fn get<'a, 't>(found: &'a [Found<'t>], name: &str) -> Option<&'a Found<'t>> {
    found.iter().find(|f| f.name == name)
}

/// Parses the words of a non-empty command line (not `cluster`).
/// The quoted text of a `say` (or `say-ja`) line, its placeholders checked.
fn say_text(p: &mut Words<'_>, name: &str) -> Result<String, ParseError> {
    let t = p.word("quoted text", name)?;
    if let Some(extra) = p.peek() {
        return Err(p.err(
            extra.col,
            ParseErrorKind::ExtraSayWord {
                word: quote_for_message(&extra.text),
                after: name.to_string(),
            },
        ));
    }
    if let Err(e) = crate::lang::say::pieces(&t.text) {
        return Err(p.err(text_column(t, e.at), ParseErrorKind::Say(e.problem)));
    }
    Ok(t.text.clone())
}

fn parse_tokens(toks: &[Token], line: usize) -> Result<Command, ParseError> {
    let mut p = Words::new(toks, line);
    let Some(first) = p.next() else {
        return Err(p.err(1, ParseErrorKind::CommandExpected));
    };
    if first.quoted {
        return Err(p.err(
            first.col,
            ParseErrorKind::QuotedCommand {
                found: quote_for_message(&first.text),
            },
        ));
    }
    let p = &mut p;
    match first.text.as_str() {
        // The script's own flow: time, checks, narration.
        "wait" => {
            let t = p.word("duration", "wait")?;
            let ms = parse_wait(&t.text).map_err(|m| match m {
                ParseErrorKind::DurationUnit { .. } => {
                    p.err(t.col, unit_apart(&t.text, p.peek()).unwrap_or(m))
                }
                m => p.err(t.col, m),
            })?;
            p.finish("wait")?;
            Ok(Command::Wait(ms))
        }
        "wait-until" => parse_wait_until(p),
        "expect" => {
            let cond = parse_condition(p, "expect")?;
            p.finish("the condition")?;
            Ok(Command::Expect(Arc::new(cond)))
        }
        "status" => {
            let found = p.options("status", &[("via", Kind::Value("via=N"))])?;
            Ok(Command::Status {
                via: via_of(p, &found)?,
            })
        }
        "pause" => {
            p.finish("pause")?;
            Ok(Command::Pause)
        }
        "say" => Ok(Command::Say {
            text: say_text(p, "say")?,
            ja: None,
        }),
        "say-ja" => Err(p.err(first.col, ParseErrorKind::SayJaInConsole)),
        // The client's requests.
        "put" => parse_put(p),
        "get" => parse_get(p),
        "delete" => parse_delete(p),
        "compaction" => parse_compaction(p),
        "watch" => parse_watch(p),
        "load" => parse_load(p),
        // Membership, faults and the network, mirrors.
        "member" => parse_member(p),
        "start" | "crash" | "campaign" | "transfer-leader" | "compact" | "isolate" => {
            parse_node_command(p, &first.text)
        }
        "cut" => {
            let (a, b, one_way) = parse_link(p, "cut")?;
            Ok(Command::Cut { a, b, one_way })
        }
        "heal" => {
            if p.peek().is_none() {
                Ok(Command::Heal { link: None })
            } else {
                Ok(Command::Heal {
                    link: Some(parse_link(p, "heal")?),
                })
            }
        }
        "partition" => parse_partition(p),
        "net" => parse_net(p),
        "mirror" => parse_mirror(p),
        "hold" | "release" | "drop" | "deliver-next" => by_hand::parse(p, &first.text),
        other => Err(p.err(first.col, unknown_command(other))),
    }
}

/// A first word that is no command: etcdctl's, said as such (`lease` is
/// not `release`), else the command it is near, else all of them.
fn unknown_command(word: &str) -> ParseErrorKind {
    use crate::lang::etcdctl::{etcdctl_word, EtcdctlWord};
    if word == "etcdctl" {
        return ParseErrorKind::EtcdctlLine;
    }
    match etcdctl_word(word) {
        Some(EtcdctlWord::Written {
            etcdctl,
            scenario,
            console,
        }) => ParseErrorKind::EtcdctlCommand {
            found: word.to_string(),
            etcdctl: etcdctl.to_string(),
            scenario: scenario.to_string(),
            console,
        },
        Some(EtcdctlWord::Unmodelled) => ParseErrorKind::EtcdctlUnmodelled {
            found: word.to_string(),
        },
        // A member subcommand without `member` before it.
        None if MEMBER_SUBCOMMANDS.contains(&word) => ParseErrorKind::UnknownCommandNear {
            found: quote_for_message(word),
            near: quote_for_message(&format!("member {word}")),
        },
        None => match crate::lang::suggest::nearest(word, &COMMAND_NAMES) {
            Some(near) => ParseErrorKind::UnknownCommandNear {
                found: quote_for_message(word),
                near: quote_for_message(near),
            },
            None => ParseErrorKind::UnknownCommand {
                found: quote_for_message(word),
            },
        },
    }
}

/// A number followed by its unit as a word of its own (`wait 2 s`, `wait 2
/// min`): the duration as one word, in ms or s, when the two make one.
fn unit_apart(number: &str, next: Option<&Token>) -> Option<ParseErrorKind> {
    let unit = next.filter(|t| !t.quoted && t.opt.is_none())?;
    let joined = format!("{number}{}", unit.text);
    let write = match parse_wait(&joined) {
        Ok(ms) => format_duration(ms),
        Err(ParseErrorKind::DurationOtherUnit { write, .. }) => write,
        // Past the hour one command may let pass: said so, of the word meant.
        Err(e @ ParseErrorKind::WaitTooLong { .. }) => return Some(e),
        Err(_) => return None,
    };
    Some(ParseErrorKind::DurationSpace {
        found: quote_for_message(&format!("{number} {}", unit.text)),
        write,
    })
}

/// `word` is none of `names`, the names of kind `what`: the one it is
/// near (`leadr`: `"leader"`), else all of them.
pub(super) fn unknown_name(what: Named, word: &str, names: &[&str]) -> ParseErrorKind {
    refused_name(
        what,
        word,
        crate::lang::suggest::nearest(word, names),
        names,
    )
}

/// `word` is none of `names`: `near`, the one it is taken to mean, else
/// all of them.
pub(super) fn refused_name(
    what: Named,
    word: &str,
    near: Option<&str>,
    names: &[&str],
) -> ParseErrorKind {
    let found = quote_for_message(word);
    match near {
        Some(near) => ParseErrorKind::UnknownNameNear {
            what,
            found,
            near: quote_for_message(near),
        },
        None => ParseErrorKind::UnknownName {
            what,
            found,
            expected: names.join(", "),
        },
    }
}

/// A word with no `=` where options go: an option's value written without
/// its name (`status 2`: `via=2`; `load 100/s`: `rate=100/s`), else the
/// option it is near.
fn bare_value(word: &str, names: &[&str]) -> Option<String> {
    let takes = |name: &str| names.contains(&name);
    // A number is a rate before it is a node (`load 10`: 10 writes a second).
    if takes("rate") && is_digits(word) {
        return Some(format!("rate={word}/s"));
    }
    if takes("rate") && word.ends_with("/s") {
        return Some(format!("rate={word}"));
    }
    if takes("via") && node_id_of(word).is_ok() {
        return Some(format!("via={word}"));
    }
    crate::lang::suggest::nearest(word, names).map(str::to_string)
}

/// `wait-until COND [within=DURATION]`.
fn parse_wait_until(p: &mut Words<'_>) -> Result<Command, ParseError> {
    let cond = parse_condition(p, "wait-until")?;
    let found = p.options("wait-until", &[("within", Kind::Value("within=DURATION"))])?;
    let within_ms = match get(&found, "within") {
        Some(f) => p.convert(f, parse_wait)?,
        None => DEFAULT_WAIT_UNTIL_MS,
    };
    Ok(Command::WaitUntil {
        cond: Arc::new(cond),
        within_ms,
    })
}

/// `start N`, `crash N`, `campaign N`, `transfer-leader N`, `compact N`,
/// `isolate N`: a command and one node.
fn parse_node_command(p: &mut Words<'_>, name: &str) -> Result<Command, ParseError> {
    let id = p.node_id(name)?;
    p.finish(&format!("{name} {id}"))?;
    Ok(match name {
        "start" => Command::Start(id),
        "crash" => Command::Crash(id),
        "campaign" => Command::Campaign(id),
        "transfer-leader" => Command::TransferLeader(id),
        "compact" => Command::Compact(id),
        _ => Command::Isolate(id),
    })
}

/// `put KEY VALUE [via=N] [size=SIZE] [nowait]` and the client's options.
fn parse_put(p: &mut Words<'_>) -> Result<Command, ParseError> {
    let key = p.text("a key", "put")?;
    let value = p.text("a value", &format!("put {}", format_text(&key)))?;
    let found = p.options(
        "put",
        &[
            ("via", Kind::Value("via=N")),
            ("size", Kind::Value("size=SIZE")),
            ("nowait", Kind::Flag),
            CLIENT_OPTIONS[0],
            CLIENT_OPTIONS[1],
        ],
    )?;
    let (timeout_ms, require_leader) = client_options(p, &found)?;
    Ok(Command::Put {
        key,
        value,
        via: via_of(p, &found)?,
        size: get(&found, "size")
            .map(|f| p.convert(f, size_of))
            .transpose()?,
        nowait: get(&found, "nowait").is_some(),
        timeout_ms,
        require_leader,
    })
}

/// `get KEY [rev=R] [via=N] [serializable]` and the client's options.
fn parse_get(p: &mut Words<'_>) -> Result<Command, ParseError> {
    let key = p.text("a key", "get")?;
    let found = p.options(
        "get",
        &[
            ("rev", Kind::Value("rev=R")),
            ("via", Kind::Value("via=N")),
            ("serializable", Kind::Flag),
            CLIENT_OPTIONS[0],
            CLIENT_OPTIONS[1],
        ],
    )?;
    let (timeout_ms, require_leader) = client_options(p, &found)?;
    Ok(Command::Get {
        key,
        rev: get(&found, "rev")
            .map(|f| p.convert(f, parse_number))
            .transpose()?,
        via: via_of(p, &found)?,
        serializable: get(&found, "serializable").is_some(),
        timeout_ms,
        require_leader,
    })
}

/// `delete KEY [via=N]` and the client's options.
fn parse_delete(p: &mut Words<'_>) -> Result<Command, ParseError> {
    let key = p.text("a key", "delete")?;
    let found = p.options(
        "delete",
        &[
            ("via", Kind::Value("via=N")),
            CLIENT_OPTIONS[0],
            CLIENT_OPTIONS[1],
        ],
    )?;
    let (timeout_ms, require_leader) = client_options(p, &found)?;
    Ok(Command::Delete {
        key,
        via: via_of(p, &found)?,
        timeout_ms,
        require_leader,
    })
}

/// `compaction REV [via=N]` and the client's options.
fn parse_compaction(p: &mut Words<'_>) -> Result<Command, ParseError> {
    let t = p.word("a revision", "compaction")?;
    let rev = parse_number(&t.text).map_err(|m| p.err(t.col, m))?;
    let found = p.options(
        "compaction",
        &[
            ("via", Kind::Value("via=N")),
            CLIENT_OPTIONS[0],
            CLIENT_OPTIONS[1],
        ],
    )?;
    let (timeout_ms, require_leader) = client_options(p, &found)?;
    Ok(Command::Compaction {
        rev,
        via: via_of(p, &found)?,
        timeout_ms,
        require_leader,
    })
}

/// `watch KEY [prefix] [from-rev=R] [via=N]`.
fn parse_watch(p: &mut Words<'_>) -> Result<Command, ParseError> {
    let key = p.text("a key", "watch")?;
    let found = p.options(
        "watch",
        &[
            ("prefix", Kind::Flag),
            ("from-rev", Kind::Value("from-rev=R")),
            ("via", Kind::Value("via=N")),
        ],
    )?;
    Ok(Command::Watch {
        key,
        prefix: get(&found, "prefix").is_some(),
        from_rev: get(&found, "from-rev")
            .map(|f| p.convert(f, parse_number))
            .transpose()?,
        via: via_of(p, &found)?,
    })
}

fn parse_load(p: &mut Words<'_>) -> Result<Command, ParseError> {
    match p.peek() {
        None => return Err(p.err(p.missing_col(), ParseErrorKind::LoadMissing)),
        Some(t) if is_bare(t, "stop") => {
            p.next();
            p.finish("load stop")?;
            return Ok(Command::LoadStop);
        }
        Some(_) => {}
    }
    let found = p.options(
        "load",
        &[
            ("rate", Kind::Value("rate=N/s")),
            ("size", Kind::Value("size=SIZE")),
            ("via", Kind::Value("via=N")),
        ],
    )?;
    let Some(rate) = get(&found, "rate") else {
        return Err(p.err(
            found.first().map_or(p.missing_col(), |f| f.tok.col),
            ParseErrorKind::LoadNoRate,
        ));
    };
    Ok(Command::LoadStart {
        rate_per_s: p.convert(rate, parse_rate)?,
        size: get(&found, "size")
            .map(|f| p.convert(f, size_of))
            .transpose()?,
        via: get(&found, "via")
            .map(|f| p.convert(f, node_id_of))
            .transpose()?,
    })
}

fn parse_rate(s: &str) -> Result<u64, ParseErrorKind> {
    let generic = || ParseErrorKind::FormExpected {
        form: Form::Rate,
        found: quote_for_message(s),
    };
    let n = s.strip_suffix("/s").ok_or_else(generic)?;
    if !is_digits(n) {
        return Err(generic());
    }
    match n.parse::<u64>() {
        Ok(0) => Err(ParseErrorKind::TooSmall(Least::Rate)),
        Ok(r) if r <= MAX_LOAD_RATE_PER_S => Ok(r),
        _ => Err(ParseErrorKind::RateTooHigh {
            rate: shorten(n),
            limit: MAX_LOAD_RATE_PER_S,
        }),
    }
}

fn parse_net(p: &mut Words<'_>) -> Result<Command, ParseError> {
    let found = p.options(
        "net",
        &[
            ("loss", Kind::Value("loss=PERCENT")),
            ("latency", Kind::Value("latency=MIN..MAX")),
            ("bandwidth", Kind::Value("bandwidth=SIZE/s|unlimited")),
        ],
    )?;
    if found.is_empty() {
        return Err(p.err(p.missing_col(), ParseErrorKind::NetMissing));
    }
    Ok(Command::Net {
        loss_ppm: get(&found, "loss")
            .map(|f| p.convert(f, parse_percent))
            .transpose()?,
        latency: get(&found, "latency")
            .map(|f| p.convert(f, parse_latency))
            .transpose()?,
        bandwidth: get(&found, "bandwidth")
            .map(|f| p.convert(f, parse_bandwidth))
            .transpose()?,
    })
}

/// `mirror start M from=N to=D [prefix=P]` and `mirror stop M`.
fn parse_mirror(p: &mut Words<'_>) -> Result<Command, ParseError> {
    let sub = p.word("start|stop", "mirror")?;
    match (sub.quoted, sub.text.as_str()) {
        (false, "start") => {
            let id = p.node_id("mirror start")?;
            let found = p.options(
                "mirror start",
                &[
                    ("from", Kind::Value("from=N")),
                    ("to", Kind::Value("to=N")),
                    ("prefix", Kind::Value("prefix=P")),
                ],
            )?;
            let node = |name: &str, form: &str| match get(&found, name) {
                Some(f) => p.convert(f, node_id_of),
                None => Err(p.err(
                    p.missing_col(),
                    ParseErrorKind::Missing {
                        what: form.to_string(),
                        after: quote_for_message("mirror start"),
                    },
                )),
            };
            let from = node("from", "from=N")?;
            let to = node("to", "to=N")?;
            Ok(Command::MirrorStart {
                id,
                from,
                to,
                prefix: get(&found, "prefix").map(|f| f.value().to_string()),
            })
        }
        (false, "stop") => {
            let id = p.node_id("mirror stop")?;
            p.finish(&format!("mirror stop {id}"))?;
            Ok(Command::MirrorStop(id))
        }
        (_, other) => Err(p.err(
            sub.col,
            unknown_name(Named::MirrorSubcommand, other, &["start", "stop"]),
        )),
    }
}

/// The words after `member`.
const MEMBER_SUBCOMMANDS: [&str; 6] = ["add", "promote", "remove", "list", "change", "leave-joint"];

fn parse_member(p: &mut Words<'_>) -> Result<Command, ParseError> {
    let sub = p.word(
        "a member subcommand (add, promote, remove, list, change or leave-joint)",
        "member",
    )?;
    let cmd = match (sub.quoted, sub.text.as_str()) {
        (false, "add") => parse_member_add(p)?,
        (false, "promote") => {
            let id = p.node_id("member promote")?;
            let found = p.options("member promote", &CLIENT_OPTIONS)?;
            let (timeout_ms, require_leader) = client_options(p, &found)?;
            Command::MemberPromote {
                id,
                timeout_ms,
                require_leader,
            }
        }
        (false, "remove") => {
            let id = p.node_id("member remove")?;
            let found = p.options("member remove", &CLIENT_OPTIONS)?;
            let (timeout_ms, require_leader) = client_options(p, &found)?;
            Command::MemberRemove {
                id,
                timeout_ms,
                require_leader,
            }
        }
        (false, "list") => parse_member_list(p)?,
        (false, "change") => {
            let (change, via, timeout_ms, require_leader) = parse_joint_change(p)?;
            Command::MemberChange {
                change,
                via,
                timeout_ms,
                require_leader,
            }
        }
        (false, "leave-joint") => parse_leave_joint(p)?,
        (_, other) => {
            return Err(p.err(
                sub.col,
                unknown_name(Named::MemberSubcommand, other, &MEMBER_SUBCOMMANDS),
            ))
        }
    };
    Ok(cmd)
}

/// `member add N [--learner|--voter] [--standby|--read-only=MODE]
/// [--peer-url=URL] [via=N]` and the client's options.
fn parse_member_add(p: &mut Words<'_>) -> Result<Command, ParseError> {
    let id = p.node_id("member add")?;
    let found = p.options(
        "member add",
        &[
            ("--learner", Kind::Flag),
            ("--voter", Kind::Flag),
            ("--standby", Kind::Flag),
            ("--read-only", Kind::Value("--read-only=weak|strong")),
            ("--peer-url", Kind::Value("--peer-url=URL")),
            ("via", Kind::Value("via=N")),
            CLIENT_OPTIONS[0],
            CLIENT_OPTIONS[1],
        ],
    )?;
    let (timeout_ms, require_leader) = client_options(p, &found)?;
    let learner = get(&found, "--learner");
    let voter = get(&found, "--voter");
    let standby = get(&found, "--standby");
    let read_only = get(&found, "--read-only");
    // Whichever of two clashing options comes second is the error.
    let later = |a: &Found<'_>, b: &Found<'_>| a.tok.col.max(b.tok.col);
    if let (Some(l), Some(v)) = (learner, voter) {
        return Err(p.err(later(l, v), ParseErrorKind::LearnerAndVoter));
    }
    if let (Some(v), Some(k)) = (voter, standby.or(read_only)) {
        return Err(p.err(
            later(v, k),
            ParseErrorKind::LearnerKindWithVoter {
                kind: k.name.to_string(),
            },
        ));
    }
    if let (Some(a), Some(b)) = (standby, read_only) {
        return Err(p.err(later(a, b), ParseErrorKind::StandbyAndReadOnly));
    }
    let read_only = read_only
        .map(|f| p.convert(f, parse_read_mode))
        .transpose()?;
    Ok(Command::MemberAdd {
        id,
        learner: learner.is_some() || standby.is_some() || read_only.is_some(),
        voter: voter.is_some(),
        standby: standby.is_some(),
        read_only,
        peer_url: get(&found, "--peer-url").map(|f| f.value().to_string()),
        via: via_of(p, &found)?,
        timeout_ms,
        require_leader,
    })
}

/// `member list [serializable] [via=N]` and the client's options.
fn parse_member_list(p: &mut Words<'_>) -> Result<Command, ParseError> {
    let found = p.options(
        "member list",
        &[
            ("serializable", Kind::Flag),
            ("via", Kind::Value("via=N")),
            CLIENT_OPTIONS[0],
            CLIENT_OPTIONS[1],
        ],
    )?;
    let (timeout_ms, require_leader) = client_options(p, &found)?;
    Ok(Command::MemberList {
        serializable: get(&found, "serializable").is_some(),
        via: via_of(p, &found)?,
        timeout_ms,
        require_leader,
    })
}

/// `member leave-joint [via=N]` and the client's options.
fn parse_leave_joint(p: &mut Words<'_>) -> Result<Command, ParseError> {
    let found = p.options(
        "member leave-joint",
        &[
            ("via", Kind::Value("via=N")),
            CLIENT_OPTIONS[0],
            CLIENT_OPTIONS[1],
        ],
    )?;
    let (timeout_ms, require_leader) = client_options(p, &found)?;
    Ok(Command::MemberLeaveJoint {
        via: via_of(p, &found)?,
        timeout_ms,
        require_leader,
    })
}

/// The `via=N` among found options.
fn via_of(p: &Words<'_>, found: &[Found<'_>]) -> Result<Option<NodeId>, ParseError> {
    get(found, "via")
        .map(|f| p.convert(f, node_id_of))
        .transpose()
}

/// `member change [add=IDS] [add-learner=IDS] [promote=IDS] [demote=IDS]
/// [remove=IDS] [leave=auto|explicit]`: at least one change, no id twice.
#[allow(clippy::type_complexity)]
fn parse_joint_change(
    p: &mut Words<'_>,
) -> Result<(JointChange, Option<NodeId>, Option<u64>, bool), ParseError> {
    const LISTS: [&str; 5] = ["add", "add-learner", "promote", "demote", "remove"];
    let mut allowed: Vec<(&'static str, Kind)> =
        LISTS.iter().map(|&n| (n, Kind::Value("LIST"))).collect();
    allowed.push(("leave", Kind::Value("leave=auto|explicit")));
    allowed.push(("via", Kind::Value("via=N")));
    allowed.extend(CLIENT_OPTIONS);
    let found = p.options("member change", &allowed)?;
    let mut change = JointChange::default();
    let mut seen: Vec<NodeId> = Vec::new();
    for f in found.iter().filter(|f| LISTS.contains(&f.name)) {
        let mut ids = parse_id_list(p, f.value(), f.value_col(), false)?;
        if let Some(id) = ids.iter().find(|id| seen.contains(id)) {
            return Err(p.err(f.value_col(), ParseErrorKind::TwiceInChange { id: *id }));
        }
        seen.extend(&ids);
        crate::collections::vecmap::sort_u64s(&mut ids);
        *match f.name {
            "add" => &mut change.add,
            "add-learner" => &mut change.add_learner,
            "promote" => &mut change.promote,
            "demote" => &mut change.demote,
            _ => &mut change.remove,
        } = ids;
    }
    if let Some(f) = get(&found, "leave") {
        change.explicit_leave = p.convert(f, |v| match v {
            "auto" => Ok(false),
            "explicit" => Ok(true),
            other => Err(ParseErrorKind::FormExpected {
                form: Form::Choice("leave=auto", "leave=explicit"),
                found: quote_for_message(other),
            }),
        })?;
    }
    if seen.is_empty() {
        return Err(p.err(p.missing_col(), ParseErrorKind::ChangeMissing));
    }
    let (timeout_ms, require_leader) = client_options(p, &found)?;
    Ok((change, via_of(p, &found)?, timeout_ms, require_leader))
}

/// `A B` or `A->B`, then the end of the line.
fn parse_link(p: &mut Words<'_>, cmd: &str) -> Result<(NodeId, NodeId, bool), ParseError> {
    let (a, b, one_way, col) = link_ends(p, cmd)?;
    let arrow = if one_way { "->" } else { " " };
    p.finish(&format!("{cmd} {a}{arrow}{b}"))?;
    same_node_refused(p, (a, b, one_way), col)
}

/// A link's two ends, `A->B` (one way) or `A B`, and the column it starts
/// at; nothing more is read.
fn link_ends(p: &mut Words<'_>, cmd: &str) -> Result<(NodeId, NodeId, bool, usize), ParseError> {
    let t = p.word("node id", cmd)?;
    if let Some((a_txt, b_txt)) = t.text.split_once("->") {
        let a = node_id_of(a_txt).map_err(|m| p.err(t.col, m))?;
        let b_col = t.col + a_txt.chars().count() + 2;
        if b_txt.is_empty() {
            return Err(p.err(
                b_col,
                ParseErrorKind::MissingLinkEnd {
                    from: a_txt.to_string(),
                },
            ));
        }
        let b = node_id_of(b_txt).map_err(|m| p.err(b_col, m))?;
        Ok((a, b, true, t.col))
    } else {
        let a = node_id_of(&t.text).map_err(|m| p.err(t.col, m))?;
        let b = p.node_id(&format!("{cmd} {a}"))?;
        Ok((a, b, false, t.col))
    }
}

/// A link from a node to itself is refused, at the link's column.
fn same_node_refused(
    p: &Words<'_>,
    link: (NodeId, NodeId, bool),
    col: usize,
) -> Result<(NodeId, NodeId, bool), ParseError> {
    let (a, b, _) = link;
    if a == b {
        return Err(p.err(col, ParseErrorKind::SameNodeLink { a, b }));
    }
    Ok(link)
}

fn parse_partition(p: &mut Words<'_>) -> Result<Command, ParseError> {
    let items = partition_items(p)?;
    if items.is_empty() {
        return Err(p.err(p.missing_col(), ParseErrorKind::PartitionMissing));
    }
    let groups = partition_groups(p, &items)?;
    if groups.len() < 2 {
        let (_, first_col) = items[0];
        return Err(p.err(first_col, ParseErrorKind::OneGroup));
    }
    Ok(Command::Partition(groups))
}

/// A piece of `partition`'s groups: a node id, `,` or `|`.
#[derive(PartialEq)]
enum GroupItem<'s> {
    Id(&'s str),
    Comma,
    Bar,
}

/// The rest of the line in pieces, each with its column: words split at
/// every `,` and `|`.
fn partition_items<'t>(p: &mut Words<'t>) -> Result<Vec<(GroupItem<'t>, usize)>, ParseError> {
    let mut items: Vec<(GroupItem<'_>, usize)> = Vec::new();
    while let Some(t) = p.next() {
        if t.quoted {
            return Err(p.err(
                t.col,
                ParseErrorKind::QuotedGroups {
                    found: quote_for_message(&t.text),
                },
            ));
        }
        let mut start = 0;
        let mut start_col = t.col;
        for (col, (i, c)) in (t.col..).zip(t.text.char_indices()) {
            if c == ',' || c == '|' {
                if start < i {
                    items.push((GroupItem::Id(&t.text[start..i]), start_col));
                }
                let item = if c == ',' {
                    GroupItem::Comma
                } else {
                    GroupItem::Bar
                };
                items.push((item, col));
                start = i + 1;
                start_col = col + 1;
            }
        }
        if start < t.text.len() {
            items.push((GroupItem::Id(&t.text[start..]), start_col));
        }
    }
    Ok(items)
}

/// The groups the pieces make: ids joined by `,`, groups by `|`, each id
/// in one group once.
fn partition_groups(
    p: &Words<'_>,
    items: &[(GroupItem<'_>, usize)],
) -> Result<Vec<Vec<NodeId>>, ParseError> {
    let mut groups: Vec<Vec<NodeId>> = Vec::new();
    let mut current: Vec<NodeId> = Vec::new();
    let mut expect_id = true;
    let mut last: Option<(&GroupItem<'_>, usize)> = None;
    for (item, col) in items {
        match item {
            GroupItem::Id(s) => {
                let id = node_id_of(s).map_err(|m| p.err(*col, m))?;
                if !expect_id {
                    return Err(p.err(*col, ParseErrorKind::GroupSeparator { id }));
                }
                if current.contains(&id) {
                    return Err(p.err(*col, ParseErrorKind::TwiceInGroup { id }));
                }
                if groups.iter().any(|g| g.contains(&id)) {
                    return Err(p.err(*col, ParseErrorKind::InTwoGroups { id }));
                }
                current.push(id);
                expect_id = false;
            }
            GroupItem::Comma if expect_id => {
                return Err(p.err(*col, ParseErrorKind::CommaBeforeId));
            }
            GroupItem::Bar if expect_id => {
                return Err(p.err(*col, ParseErrorKind::EmptyGroupBeforeBar));
            }
            GroupItem::Comma => expect_id = true,
            GroupItem::Bar => {
                groups.push(std::mem::take(&mut current));
                expect_id = true;
            }
        }
        last = Some((item, *col));
    }
    if expect_id {
        let col = last.map_or(p.missing_col(), |(_, c)| c + 1);
        let msg = match last {
            Some((GroupItem::Bar, _)) => ParseErrorKind::EmptyGroupAfterBar,
            _ => ParseErrorKind::IdAfterComma,
        };
        return Err(p.err(col, msg));
    }
    groups.push(current);
    Ok(groups)
}

/// A comma-separated list of distinct node ids starting at column `col`.
fn parse_id_list(
    p: &Words<'_>,
    s: &str,
    col: usize,
    allow_empty: bool,
) -> Result<Vec<NodeId>, ParseError> {
    if s.is_empty() {
        if allow_empty {
            return Ok(Vec::new());
        }
        return Err(p.err(col, ParseErrorKind::EmptyList));
    }
    let mut ids = Vec::new();
    let mut c = col;
    for part in s.split(',') {
        let id = node_id_of(part).map_err(|m| p.err(c, m))?;
        if ids.contains(&id) {
            return Err(p.err(c, ParseErrorKind::TwiceInList { id }));
        }
        ids.push(id);
        c += part.chars().count() + 1;
    }
    Ok(ids)
}

fn parse_condition(p: &mut Words<'_>, after: &str) -> Result<Condition, ParseError> {
    let t = p.word("a condition", after)?;
    if t.quoted {
        return Err(unknown_condition(p, t));
    }
    match &t.opt {
        None => bare_condition(p, t),
        Some(opt) => valued_condition(p, t, opt),
    }
}

/// The error for a word that names no condition: the one it is near to,
/// where there is one, else the list of all.
fn unknown_condition(p: &Words<'_>, t: &Token) -> ParseError {
    let found = quote_for_message(&t.text);
    // The name before its value (`leder` of `leder=3`), or the word whole.
    let name = t.opt.as_ref().map_or(t.text.as_str(), |o| o.name.as_str());
    let forms = crate::lang::parse_error::condition_forms();
    let mut names: Vec<&str> = Vec::new();
    for (n, _) in &forms {
        if !names.contains(n) {
            names.push(n);
        }
    }
    // A name written in a form it does not have (`commit=3`) is itself the
    // one meant.
    let near = if names.contains(&name) {
        Some(name)
    } else {
        crate::lang::suggest::nearest(name, &names)
    };
    let kind = match near.filter(|_| !t.quoted) {
        Some(near) => ParseErrorKind::UnknownConditionNear {
            found,
            forms: forms
                .iter()
                .filter(|(n, _)| *n == near)
                .map(|(_, form)| form.to_string())
                .collect(),
        },
        None => ParseErrorKind::UnknownCondition { found },
    };
    p.err(t.col, kind)
}

/// A condition that starts with a bare word (`leader`, `role N=ROLE`...).
fn bare_condition(p: &mut Words<'_>, t: &Token) -> Result<Condition, ParseError> {
    match t.text.as_str() {
        "leader" => Ok(Condition::Leader),
        "no-leader" => Ok(Condition::NoLeader),
        "all-applied" => Ok(Condition::AllApplied),
        "ok" => Ok(Condition::Ok),
        "role" => parse_role(p),
        "sees-itself" => parse_sees_itself(p),
        "mirror" => parse_mirror_state(p),
        "mirror-error" => parse_mirror_error(p),
        "progress" => parse_progress(p),
        "match" => parse_match_share(p),
        "absent" => Ok(Condition::Absent),
        "linearizable" => Ok(Condition::Linearizable),
        "not-linearizable" => Ok(Condition::NotLinearizable),
        "queued" => parse_queued(p),
        "msgs-out" => parse_msgs(p, MsgDir::Out),
        "msgs-in" => parse_msgs(p, MsgDir::In),
        "watch-events" => parse_watch_events(p),
        "held" | "in-flight" => by_hand::parse_condition(p, &t.text),
        "watch-canceled" => {
            let t = p.word("a watch number", "watch-canceled")?;
            let w = parse_watch_id(&t.text).map_err(|m| p.err(t.col, m))?;
            Ok(Condition::WatchCanceled(w))
        }
        _ => Err(unknown_condition(p, t)),
    }
}

/// A condition written `NAME=VALUE` (`leader=N`, `voters=1,2,3`...).
fn valued_condition(p: &Words<'_>, t: &Token, opt: &OptPart) -> Result<Condition, ParseError> {
    let v = opt.value.as_str();
    let vcol = opt.value_col;
    let missing = |what: &str| {
        p.err(
            vcol,
            ParseErrorKind::Missing {
                what: what.to_string(),
                after: format!("\"{}=\"", opt.name),
            },
        )
    };
    let node = |v: &str| {
        if v.is_empty() {
            return Err(missing("node id"));
        }
        node_id_of(v).map_err(|m| p.err(vcol, m))
    };
    let number = |v: &str| {
        if v.is_empty() {
            return Err(missing("a number"));
        }
        parse_number(v).map_err(|m| p.err(vcol, m))
    };
    Ok(match opt.name.as_str() {
        "leader" => Condition::LeaderIs(node(v)?),
        "caught-up" => Condition::CaughtUp(node(v)?),
        "quorum" => Condition::Quorum(number(v)?),
        "voters" => Condition::Voters(parse_id_list(p, v, vcol, false)?),
        "learners" => Condition::Learners(parse_id_list(p, v, vcol, true)?),
        "voters-outgoing" => Condition::VotersOutgoing(parse_id_list(p, v, vcol, true)?),
        "term" => Condition::Term(number(v)?),
        "term>" => Condition::TermAtLeast(number(v)?),
        "commit>" => Condition::CommitAtLeast(number(v)?),
        "queued>" | "queued<" => Condition::Queued {
            id: None,
            bound: bound_of(&opt.name),
            bytes: size(p, v, vcol, &opt.name)?,
        },
        "value" => {
            if v.is_empty() && !opt.value_quoted {
                return Err(p.err(vcol, ParseErrorKind::EmptyValue));
            }
            Condition::Value(v.to_string())
        }
        "error" => {
            if v.is_empty() {
                return Err(missing("an error code"));
            }
            Condition::Error(v.parse().map_err(|_: String| {
                let names: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
                p.err(vcol, unknown_name(Named::ErrorCode, v, &names))
            })?)
        }
        _ => return Err(unknown_condition(p, t)),
    })
}

/// The column of the `at`-th character of a word's text. Quoted text
/// starts after its quote, and each `\"` or `\\` in it is two characters
/// of the line for one of the text.
fn text_column(t: &Token, at: usize) -> usize {
    if !t.quoted {
        return t.col + at;
    }
    let escapes = t
        .text
        .chars()
        .take(at)
        .filter(|c| matches!(c, '"' | '\\'))
        .count();
    t.col + 1 + at + escapes
}

/// `>=` or `<=`, from an option name ending in `>` or `<` (the lexer splits
/// `queued>=1MB` at its `=`).
fn bound_of(name: &str) -> Bound {
    if name.ends_with('<') {
        Bound::AtMost
    } else {
        Bound::AtLeast
    }
}

/// The size after `NAME=`.
fn size(p: &Words<'_>, v: &str, vcol: usize, name: &str) -> Result<u64, ParseError> {
    if v.is_empty() {
        return Err(p.err(
            vcol,
            ParseErrorKind::Missing {
                what: "a size".to_string(),
                after: format!("\"{name}=\""),
            },
        ));
    }
    size_of(v).map_err(|m| p.err(vcol, m))
}

/// `msgs-out N=K`, `msgs-out N>=K`, `msgs-out N<=K` (or `msgs-in`).
fn parse_msgs(p: &mut Words<'_>, dir: MsgDir) -> Result<Condition, ParseError> {
    let name = dir.as_str();
    let (t, opt) = p.option_word("N=K", name, Form::Messages(name.to_string()))?;
    let (id, bound) = match opt.name.strip_suffix(['>', '<']) {
        Some(id) => (id, bound_of(&opt.name)),
        None => (opt.name.as_str(), Bound::Exactly),
    };
    let id = node_id_of(id).map_err(|m| p.err(t.col, m))?;
    if opt.value.is_empty() {
        return Err(p.err(
            opt.value_col,
            ParseErrorKind::Missing {
                what: "a number".to_string(),
                after: format!("\"{}=\"", opt.name),
            },
        ));
    }
    let count = parse_number(&opt.value).map_err(|m| p.err(opt.value_col, m))?;
    Ok(Condition::Messages {
        id,
        dir,
        bound,
        count,
    })
}

/// A word `N>=...` or `N<=...` after `after` (`queued`, `match`): its
/// token, its option (whose value the caller reads) and the node and bound
/// it names; anything else, or an option `also` refuses, is `form`'s error.
fn node_bound<'t>(
    p: &mut Words<'t>,
    shape: &str,
    after: &str,
    form: Form,
    also: &dyn Fn(&OptPart) -> bool,
) -> Result<(&'t Token, &'t OptPart, NodeId, Bound), ParseError> {
    let t = p.word(shape, after)?;
    let Some(opt) = t
        .opt
        .as_ref()
        .filter(|o| !t.quoted && (o.name.ends_with('>') || o.name.ends_with('<')) && also(o))
    else {
        return Err(form_expected(p, t, form));
    };
    let id = node_id_of(&opt.name[..opt.name.len() - 1]).map_err(|m| p.err(t.col, m))?;
    Ok((t, opt, id, bound_of(&opt.name)))
}

/// `form`'s error for the word `t`.
fn form_expected(p: &Words<'_>, t: &Token, form: Form) -> ParseError {
    p.err(
        t.col,
        ParseErrorKind::FormExpected {
            form,
            found: quote_for_message(&t.text),
        },
    )
}

/// `queued N>=SIZE` or `queued N<=SIZE`.
fn parse_queued(p: &mut Words<'_>) -> Result<Condition, ParseError> {
    let (_, opt, id, bound) = node_bound(p, "N>=SIZE", "queued", Form::Queued, &|_| true)?;
    Ok(Condition::Queued {
        id: Some(id),
        bound,
        bytes: size(p, &opt.value, opt.value_col, &opt.name)?,
    })
}

/// `match N>=P%` or `match N<=P%`: a whole percentage up to 100%.
fn parse_match_share(p: &mut Words<'_>) -> Result<Condition, ParseError> {
    let unquoted = |o: &OptPart| !o.value_quoted;
    let (t, opt, id, bound) = node_bound(p, "N>=P%", "match", Form::MatchShare, &unquoted)?;
    let percent = opt
        .value
        .strip_suffix('%')
        .and_then(|n| parse_number(n).ok())
        .filter(|n| *n <= 100)
        .ok_or_else(|| form_expected(p, t, Form::MatchShare))?;
    Ok(Condition::MatchShare { id, bound, percent })
}

/// A watch's number: 1 for the run's first `watch`, then 2, ...
fn parse_watch_id(s: &str) -> Result<u64, ParseErrorKind> {
    match parse_number(s) {
        Ok(0) => Err(ParseErrorKind::TooSmall(Least::WatchNumber)),
        Ok(n) => Ok(n),
        Err(_) => Err(ParseErrorKind::FormExpected {
            form: Form::WatchNumber,
            found: quote_for_message(s),
        }),
    }
}

/// `watch-events W=N`, `watch-events W>=N` or `watch-events W<=N`.
fn parse_watch_events(p: &mut Words<'_>) -> Result<Condition, ParseError> {
    let (t, opt) = p.option_word("W>=N", "watch-events", Form::WatchEvents)?;
    let (id, bound) = match opt.name.strip_suffix('>') {
        Some(id) => (id, Some(Bound::AtLeast)),
        None => match opt.name.strip_suffix('<') {
            Some(id) => (id, Some(Bound::AtMost)),
            None => (opt.name.as_str(), None),
        },
    };
    let watch = parse_watch_id(id).map_err(|m| p.err(t.col, m))?;
    if opt.value.is_empty() {
        return Err(p.err(opt.value_col, ParseErrorKind::MissingEventCount));
    }
    let count = parse_number(&opt.value).map_err(|m| p.err(opt.value_col, m))?;
    Ok(Condition::WatchEvents {
        watch,
        bound,
        count,
    })
}

/// `mirror-error M=CODE`.
fn parse_mirror_error(p: &mut Words<'_>) -> Result<Condition, ParseError> {
    let (t, opt) = p.option_word("M=CODE", "mirror-error", Form::Mirror)?;
    let id = node_id_of(&opt.name).map_err(|m| p.err(t.col, m))?;
    let code = opt.value.parse().map_err(|_: String| {
        let names: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        p.err(
            opt.value_col,
            unknown_name(Named::ErrorCode, &opt.value, &names),
        )
    })?;
    Ok(Condition::MirrorError { id, code })
}

/// `mirror M=STATE`.
fn parse_mirror_state(p: &mut Words<'_>) -> Result<Condition, ParseError> {
    let (t, opt) = p.option_word("M=STATE", "mirror", Form::Mirror)?;
    let id = node_id_of(&opt.name).map_err(|m| p.err(t.col, m))?;
    let state = MirrorState::from_name(&opt.value).ok_or_else(|| {
        let names: Vec<&str> = MirrorState::ALL.iter().map(|m| m.as_str()).collect();
        p.err(
            opt.value_col,
            unknown_name(Named::MirrorState, &opt.value, &names),
        )
    })?;
    Ok(Condition::Mirror { id, state })
}

fn parse_role(p: &mut Words<'_>) -> Result<Condition, ParseError> {
    let (t, opt) = p.option_word("N=ROLE", "role", Form::Role)?;
    let id = node_id_of(&opt.name).map_err(|m| p.err(t.col, m))?;
    if opt.value.is_empty() {
        return Err(p.err(opt.value_col, ParseErrorKind::MissingRole { id }));
    }
    let role = opt.value.parse().map_err(|_: String| {
        let names: Vec<&str> = RoleName::ALL.iter().map(|r| r.as_str()).collect();
        p.err(opt.value_col, unknown_name(Named::Role, &opt.value, &names))
    })?;
    Ok(Condition::Role { id, role })
}

/// `sees-itself N=learner` or `sees-itself N=voter`.
fn parse_sees_itself(p: &mut Words<'_>) -> Result<Condition, ParseError> {
    let (t, opt) = p.option_word(
        "N=learner or N=voter",
        "sees-itself",
        Form::Choice("N=learner", "N=voter"),
    )?;
    let id = node_id_of(&opt.name).map_err(|m| p.err(t.col, m))?;
    let learner = match opt.value.as_str() {
        "learner" => true,
        "voter" => false,
        "" => {
            return Err(p.err(
                opt.value_col,
                ParseErrorKind::Missing {
                    what: "learner or voter".to_string(),
                    after: format!("\"{id}=\""),
                },
            ))
        }
        other => {
            return Err(p.err(
                opt.value_col,
                ParseErrorKind::FormExpected {
                    form: Form::Choice("learner", "voter"),
                    found: quote_for_message(other),
                },
            ))
        }
    };
    Ok(Condition::SeesItself { id, learner })
}

fn parse_progress(p: &mut Words<'_>) -> Result<Condition, ParseError> {
    let (t, opt) = p.option_word("N=STATE", "progress", Form::Progress)?;
    let id = node_id_of(&opt.name).map_err(|m| p.err(t.col, m))?;
    if opt.value.is_empty() {
        return Err(p.err(
            opt.value_col,
            ParseErrorKind::Missing {
                what: "state".to_string(),
                after: format!("\"{id}=\""),
            },
        ));
    }
    let state = opt.value.parse().map_err(|_: String| {
        let names: Vec<&str> = ProgressName::ALL.iter().map(|r| r.as_str()).collect();
        p.err(
            opt.value_col,
            unknown_name(Named::ProgressState, &opt.value, &names),
        )
    })?;
    Ok(Condition::Progress { id, state })
}

fn parse_transport(s: &str) -> Result<Transport, ParseErrorKind> {
    match s {
        "shared" => Ok(Transport::Shared),
        "streams" => Ok(Transport::Streams),
        _ => Err(ParseErrorKind::FormExpected {
            form: Form::Choice("shared", "streams"),
            found: quote_for_message(s),
        }),
    }
}

fn parse_read_mode(s: &str) -> Result<ReadMode, ParseErrorKind> {
    match s {
        "weak" => Ok(ReadMode::Weak),
        "strong" => Ok(ReadMode::Strong),
        _ => Err(ParseErrorKind::FormExpected {
            form: Form::Choice("weak", "strong"),
            found: quote_for_message(s),
        }),
    }
}

fn parse_new_members(s: &str) -> Result<NewMembers, ParseErrorKind> {
    match s {
        "learner" => Ok(NewMembers::Learner),
        "voter" => Ok(NewMembers::Voter),
        _ => Err(ParseErrorKind::FormExpected {
            form: Form::Choice("learner", "voter"),
            found: quote_for_message(s),
        }),
    }
}

fn parse_failover(s: &str) -> Result<Failover, ParseErrorKind> {
    match s {
        "replace" => Ok(Failover::Replace),
        "grow" => Ok(Failover::Grow),
        _ => Err(ParseErrorKind::FormExpected {
            form: Form::Choice("replace", "grow"),
            found: quote_for_message(s),
        }),
    }
}

/// `auto-promote=off|PERCENT`: a whole percentage from 1% to 100%.
fn parse_auto_promote(s: &str) -> Result<Option<u8>, ParseErrorKind> {
    if s == "off" {
        return Ok(None);
    }
    let generic = || ParseErrorKind::FormExpected {
        form: Form::AutoPromote,
        found: quote_for_message(s),
    };
    let number = s.strip_suffix('%').ok_or_else(generic)?;
    if !is_digits(number) {
        return Err(generic());
    }
    match number.parse::<u64>() {
        Ok(p @ 1..=100) => Ok(Some(p as u8)),
        _ => Err(ParseErrorKind::AutoPromoteRange {
            found: quote_for_message(s),
        }),
    }
}

fn parse_on_off(s: &str) -> Result<bool, ParseErrorKind> {
    match s {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(ParseErrorKind::FormExpected {
            form: Form::Choice("on", "off"),
            found: quote_for_message(s),
        }),
    }
}

fn parse_latency(s: &str) -> Result<(u64, u64), ParseErrorKind> {
    match s.split_once("..") {
        Some((a, b)) => {
            let (a, b) = (duration_of(a)?, duration_of(b)?);
            if a > b {
                return Err(ParseErrorKind::LatencyOrder {
                    min: format_duration(a),
                    max: format_duration(b),
                });
            }
            Ok((a, b))
        }
        None => {
            let d = duration_of(s).map_err(|_| ParseErrorKind::FormExpected {
                form: Form::Latency,
                found: quote_for_message(s),
            })?;
            Ok((d, d))
        }
    }
}

fn parse_bandwidth(s: &str) -> Result<Option<u64>, ParseErrorKind> {
    if s == "unlimited" {
        return Ok(None);
    }
    let Some(size) = s.strip_suffix("/s") else {
        return Err(ParseErrorKind::FormExpected {
            form: Form::Bandwidth,
            found: quote_for_message(s),
        });
    };
    match size_of(size)? {
        0 => Err(ParseErrorKind::TooSmall(Least::Bandwidth)),
        b => Ok(Some(b)),
    }
}

const CLUSTER_OPTIONS: [(&str, Kind); 19] = [
    ("voters", Kind::Value("voters=1,2,3")),
    ("seed", Kind::Value("seed=N")),
    ("heartbeat", Kind::Value("heartbeat=DURATION")),
    ("election-timeout", Kind::Value("election-timeout=DURATION")),
    ("prevote", Kind::Value("prevote=on|off")),
    ("check-quorum", Kind::Value("check-quorum=on|off")),
    ("strict-reconfig", Kind::Value("strict-reconfig=on|off")),
    ("max-learners", Kind::Value("max-learners=N")),
    ("snapshot-count", Kind::Value("snapshot-count=N")),
    ("catchup-entries", Kind::Value("catchup-entries=N")),
    ("latency", Kind::Value("latency=10ms..30ms")),
    ("bandwidth", Kind::Value("bandwidth=SIZE/s|unlimited")),
    ("transport", Kind::Value("transport=shared|streams")),
    ("etcd", Kind::Value("etcd=3.4|3.5|3.6|3.4.23|3.5.1")),
    ("new-members", Kind::Value("new-members=learner|voter")),
    ("auto-promote", Kind::Value("auto-promote=off|PERCENT")),
    ("failover-after", Kind::Value("failover-after=DURATION")),
    ("failover", Kind::Value("failover=replace|grow")),
    ("name", Kind::Value("name=NAME")),
];

/// A cluster's name: letters, digits and `-`, 1 to 20 of them.
fn parse_cluster_name(s: &str) -> Result<String, ParseErrorKind> {
    let ok =
        (1..=20).contains(&s.len()) && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if ok {
        Ok(s.to_string())
    } else {
        Err(ParseErrorKind::BadClusterName {
            found: quote_for_message(s),
        })
    }
}

/// The options of the `cluster` line (the word `cluster` already consumed).
fn parse_cluster(p: &mut Words<'_>) -> Result<ClusterSpec, ParseError> {
    let found = p.options("cluster", &CLUSTER_OPTIONS)?;
    let Some(voters) = get(&found, "voters") else {
        return Err(p.err(p.missing_col(), ParseErrorKind::MissingVoters));
    };
    let mut spec = ClusterSpec::new(parse_id_list(p, voters.value(), voters.value_col(), false)?);
    // The release first: it sets defaults the other options may override.
    if let Some(f) = get(&found, "etcd") {
        spec.etcd = p.convert(f, |v| {
            v.parse::<Release>()
                .map_err(|_| ParseErrorKind::UnknownRelease {
                    found: format!("{v:?}"),
                })
        })?;
        spec.snapshot_count = spec.etcd.default_snapshot_count();
        spec.prevote = spec.etcd.default_prevote();
    }
    for f in &found {
        set_cluster_option(p, &mut spec, f)?;
    }
    check_cluster_rules(p, &spec, &found)?;
    Ok(spec)
}

/// One option of the `cluster` line (but `voters` and `etcd`, read first)
/// into `spec`.
fn set_cluster_option(
    p: &Words<'_>,
    spec: &mut ClusterSpec,
    f: &Found<'_>,
) -> Result<(), ParseError> {
    match f.name {
        "seed" => spec.seed = p.convert(f, parse_number)?,
        "heartbeat" => spec.heartbeat_ms = p.convert(f, duration_of)?,
        "election-timeout" => spec.election_timeout_ms = p.convert(f, duration_of)?,
        "prevote" => spec.prevote = p.convert(f, parse_on_off)?,
        "check-quorum" => spec.check_quorum = p.convert(f, parse_on_off)?,
        "strict-reconfig" => spec.strict_reconfig = p.convert(f, parse_on_off)?,
        "max-learners" => {
            if !spec.etcd.max_learners_settable() {
                return Err(p.err(
                    f.tok.col,
                    ParseErrorKind::MaxLearnersRelease {
                        etcd: spec.etcd.to_string(),
                    },
                ));
            }
            spec.max_learners = p.convert(f, parse_number)?
        }
        "snapshot-count" => spec.snapshot_count = p.convert(f, parse_number)?,
        "catchup-entries" => spec.catchup_entries = p.convert(f, parse_number)?,
        "latency" => (spec.latency_min_ms, spec.latency_max_ms) = p.convert(f, parse_latency)?,
        "bandwidth" => spec.bandwidth = p.convert(f, parse_bandwidth)?,
        "transport" => spec.transport = p.convert(f, parse_transport)?,
        "new-members" => spec.new_members = p.convert(f, parse_new_members)?,
        "auto-promote" => spec.auto_promote = p.convert(f, parse_auto_promote)?,
        "failover-after" => spec.failover_after_ms = p.convert(f, duration_of)?,
        "failover" => spec.failover = p.convert(f, parse_failover)?,
        "name" => spec.name = Some(p.convert(f, parse_cluster_name)?),
        _ => {}
    }
    Ok(())
}

/// The rules between the `cluster` line's options: etcd's election timeout
/// against the heartbeat, the failover delay against the election timeout,
/// and a snapshot count of at least one.
fn check_cluster_rules(
    p: &Words<'_>,
    spec: &ClusterSpec,
    found: &[Found<'_>],
) -> Result<(), ParseError> {
    let heartbeat = get(found, "heartbeat");
    let election = get(found, "election-timeout");
    if spec.heartbeat_ms == 0 {
        let col = heartbeat.map_or(1, |f| f.value_col());
        return Err(p.err(col, ParseErrorKind::TooSmall(Least::Heartbeat)));
    }
    let min_election = spec.heartbeat_ms.saturating_mul(MIN_ELECTION_HEARTBEATS);
    if spec.election_timeout_ms < min_election {
        let col = election.or(heartbeat).map_or(1, |f| f.value_col());
        return Err(p.err(
            col,
            ParseErrorKind::ElectionTooShort {
                election: format_duration(spec.election_timeout_ms),
                times: MIN_ELECTION_HEARTBEATS,
                heartbeat: format_duration(spec.heartbeat_ms),
            },
        ));
    }
    if spec.election_timeout_ms > MAX_ELECTION_TIMEOUT_MS {
        let col = election.map_or(1, |f| f.value_col());
        return Err(p.err(
            col,
            ParseErrorKind::ElectionTooLong {
                election: format_duration(spec.election_timeout_ms),
                max: format_duration(MAX_ELECTION_TIMEOUT_MS),
            },
        ));
    }
    let failover_after = get(found, "failover-after");
    if let Some(f) = failover_after.filter(|_| spec.failover_after_ms < spec.election_timeout_ms) {
        return Err(p.err(
            f.value_col(),
            ParseErrorKind::FailoverTooShort {
                failover: format_duration(spec.failover_after_ms),
                election: format_duration(spec.election_timeout_ms),
            },
        ));
    }
    if spec.snapshot_count == 0 {
        let col = get(found, "snapshot-count").map_or(1, |f| f.value_col());
        return Err(p.err(col, ParseErrorKind::TooSmall(Least::SnapshotCount)));
    }
    Ok(())
}
