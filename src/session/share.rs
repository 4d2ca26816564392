//! A run as a share link and as a `.scenario` file.
//!
//! Both hold the run's history script (the `cluster` line, with the seed and
//! every setting, then each command, idle time as `wait` lines) and the moment
//! the user was looking at. Opening either replays the script into a new
//! [`Timeline`] and seeks to the moment; since the engine is deterministic,
//! the reader sees exactly what the sender saw.
//!
//! # The file
//!
//! ```text
//! # raftlab run, exported at t=12.34s
//! # at: 12340ms
//! cluster voters=1,2,3 seed=7
//! wait-until leader
//! ...
//! ```
//!
//! It is an ordinary script (the runner and the parser ignore the comments),
//! readable and editable by hand. The `# at:` line restores the moment; a
//! file without one opens at its end, and a moment past the end opens at the
//! end.
//!
//! # The link fragment: `#v1.<payload>`
//!
//! `payload` is base64url (RFC 4648 §5, no padding, canonical: unused low
//! bits must be zero) of
//!
//! ```text
//! packed text | CRC-32 (IEEE) of "raftlab/v1" + packed text, 4 bytes big-endian
//! ```
//!
//! where the text is the file without its first comment (`# at: ...`, then
//! the script), and *packing* replaces the language's most frequent words
//! with one byte each: the 30 control bytes other than `\0` and `\n` stand
//! for a fixed table of words ([`WORDS`]; most start with the newline before a
//! command), and `\0` escapes the next byte so any text, control characters
//! included, round-trips. Scripts are short, repetitive ASCII made of a small
//! vocabulary, so a fixed dictionary packs them to about half. Deflate on top
//! would shorten a ten-minute run's link by half again, but its code would
//! add 16.5 KB gzipped to the page, more than the page's size budget has left
//! (`docs/crates.md` has the measurements); links already stay a few
//! kilobytes long, which browsers and chat tools carry without trouble. The
//! checksum detects damaged or edited links; the version names the format,
//! so a later format can be told apart and refused with a clear message.
//! base64url and CRC-32 are written here (tests hold them to the `base64ct`
//! and `crc` crates', which the module used before, on random bytes and
//! texts); the format is the same byte for byte as when both were first
//! hand-written (`tests/share_links.rs` keeps links made then).
//!
//! Decoding never panics and never half-applies: it returns a new timeline
//! or an error saying what is wrong.

use crate::text::fixed::Fixed;
use std::fmt;

use crate::lang::ast::{format_duration, Command, Script};
use crate::lang::parse::{duration_of, parse_script, ParseError, ParseErrorKind};
use crate::session::timeline::Timeline;

/// The link format this module writes and reads.
pub const LINK_VERSION: u32 = 1;
/// A link longer than this is refused before anything else.
pub const MAX_LINK_CHARS: usize = 256 * 1024;
/// A run whose commands could let more simulated time pass than this (the
/// sum of its waits, wait-until bounds and put timeouts) is refused: opening
/// it would keep the page busy for too long.
pub const MAX_RUN_MS: u64 = 4 * 3_600_000;

/// The words packing replaces, by code: code `c` (1..=31, skipping 10, the
/// newline) stands for `WORDS[i]` where `i` counts the codes before it.
pub const WORDS: [&str; 30] = [
    "\nwait-until ",
    "\nwait ",
    "ms",
    "\nmember add ",
    "\nmember promote ",
    "\nmember remove ",
    " --learner",
    "\nexpect ",
    "\nput ",
    "\nget ",
    "cluster voters=",
    " seed=",
    "\ncrash ",
    "\nstart ",
    "leader",
    " within=",
    "caught-up=",
    "\nload rate=",
    "\nload stop",
    "\nheal",
    "\ncut ",
    "\npartition ",
    "\nisolate ",
    "\ntransfer-leader ",
    "\ncampaign ",
    "\nstatus",
    "\nsay \"",
    "# at: ",
    "error=",
    "\nnet ",
];

const CHECKSUM_DOMAIN: &[u8] = b"raftlab/v1";
const ESCAPE: u8 = 0;

/// What is wrong with a link or a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShareErrorKind {
    /// Not a raftlab link at all.
    NotALink,
    /// A raftlab link of a format this version cannot read.
    Version,
    /// Too long to open.
    TooLong,
    /// The payload is not base64url.
    Encoding,
    /// The payload is too short to hold a checksum.
    Truncated,
    /// The checksum does not match: the link was damaged or edited.
    Checksum,
    /// The payload unpacks to something that is not text.
    Packing,
    /// The script does not parse.
    Script,
    /// The `# at:` line is malformed.
    Moment,
}

/// A link or file that cannot be opened, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShareError {
    pub kind: ShareErrorKind,
    /// The English words (made from `problem`).
    pub message: String,
    /// For a script that does not parse: the parser's error (line, column).
    pub parse: Option<ParseError>,
    /// What is wrong, as facts, for each language's words.
    pub problem: Box<ShareProblem>,
}

/// What was being opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    File,
    Link,
}

impl Source {
    fn english(self) -> &'static str {
        match self {
            Source::File => "the file",
            Source::Link => "the link",
        }
    }
}

/// What is wrong with a link or a file, with its facts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareProblem {
    /// The script does not parse.
    Script { source: Source, error: ParseError },
    /// Its commands may let `bound` pass, more than `limit`.
    TooLongRun {
        source: Source,
        bound: String,
        limit: String,
    },
    /// The `# at:` line on `line` holds no duration.
    Moment { line: usize, why: ParseErrorKind },
    /// A link of `chars` characters, more than `max`.
    LinkTooLong { chars: usize, max: usize },
    /// Not a raftlab link (`found`: its start).
    NotALink { found: String },
    /// A link of another format version.
    Version { version: String },
    /// A payload of `bytes` bytes, too few for its checksum.
    TruncatedBytes { bytes: usize },
    /// The checksum does not match.
    Checksum { expected: u32, actual: u32 },
    /// The script ends inside an escape.
    EscapeAtEnd,
    /// The script is not UTF-8 from byte `at`.
    NotUtf8 { at: usize },
    /// `c` at character `at` is not base64url.
    NotBase64 { c: char, at: usize },
    /// A payload of `chars` characters, a length base64url never has.
    TruncatedChars { chars: usize },
    /// The last character carries stray bits.
    NotCanonical,
}

impl ShareProblem {
    pub fn kind(&self) -> ShareErrorKind {
        use ShareProblem::*;
        match self {
            Script { .. } => ShareErrorKind::Script,
            TooLongRun { .. } | LinkTooLong { .. } => ShareErrorKind::TooLong,
            Moment { .. } => ShareErrorKind::Moment,
            NotALink { .. } => ShareErrorKind::NotALink,
            Version { .. } => ShareErrorKind::Version,
            TruncatedBytes { .. } | TruncatedChars { .. } => ShareErrorKind::Truncated,
            Checksum { .. } => ShareErrorKind::Checksum,
            EscapeAtEnd | NotUtf8 { .. } => ShareErrorKind::Packing,
            NotBase64 { .. } | NotCanonical => ShareErrorKind::Encoding,
        }
    }

    /// The English words: the error's `message`.
    pub fn english(&self) -> String {
        use ShareProblem::*;
        match self {
            Script { source, error } => format!(
                "{} holds a script that does not parse: {error}",
                source.english()
            ),
            TooLongRun {
                source,
                bound,
                limit,
            } => format!(
                "{} holds a run too long to open: its commands may let {bound} of simulated \
                 time pass, more than the limit of {limit}",
                source.english()
            ),
            Moment { line, why } => format!(
                "line {line}: the moment line should read like \"# at: 12340ms\": {}",
                why.english()
            ),
            LinkTooLong { chars, max } => {
                format!("the link is {chars} characters long, more than the {max} a raftlab link may have")
            }
            NotALink { found } => format!(
                "not a raftlab link: a link's fragment starts with \"#v{LINK_VERSION}.\", \
                 found {found}"
            ),
            Version { version } => format!(
                "this link is in format v{version}, which this raftlab cannot read: it reads \
                 v{LINK_VERSION} links"
            ),
            TruncatedBytes { bytes } => format!(
                "the link is truncated: its payload holds {bytes} bytes, too few for a script and \
                 its checksum"
            ),
            Checksum { expected, actual } => format!(
                "the link is damaged or was edited: its checksum is {expected:08x} but its \
                 content sums to {actual:08x} (a link cut short when pasted does this too)"
            ),
            EscapeAtEnd => "the link's script ends in the middle of an escape".to_string(),
            NotUtf8 { at } => {
                format!("the link's script is not text: invalid UTF-8 at byte {at}")
            }
            NotBase64 { c, at } => format!(
                "the link's payload is not base64url: {c:?} at character {at} (a link holds \
                 only letters, digits, '-' and '_' after \"#v{LINK_VERSION}.\")"
            ),
            TruncatedChars { chars } => format!(
                "the link is truncated: its payload has {chars} characters, a length base64url \
                 never has"
            ),
            NotCanonical => "the link's payload is not canonical base64url: its last character \
                             carries bits that belong to no byte (the link was edited)"
                .to_string(),
        }
    }

    /// A sample of every kind, for the tests that every renderer says each.
    pub fn samples() -> Vec<ShareProblem> {
        use ShareProblem::*;
        vec![
            Script {
                source: Source::File,
                error: ParseError::new(2, 1, ParseErrorKind::Unterminated),
            },
            TooLongRun {
                source: Source::Link,
                bound: "2h".into(),
                limit: "1h".into(),
            },
            Moment {
                line: 1,
                why: ParseErrorKind::BadDuration {
                    found: "\"x\"".into(),
                },
            },
            LinkTooLong {
                chars: 70000,
                max: 65536,
            },
            NotALink {
                found: "abc".into(),
            },
            Version {
                version: "2".into(),
            },
            TruncatedBytes { bytes: 2 },
            Checksum {
                expected: 1,
                actual: 2,
            },
            EscapeAtEnd,
            NotUtf8 { at: 3 },
            NotBase64 { c: '$', at: 6 },
            TruncatedChars { chars: 5 },
            NotCanonical,
        ]
    }
}

impl ShareError {
    fn of(problem: ShareProblem) -> ShareError {
        let parse = match &problem {
            ShareProblem::Script { error, .. } => Some(error.clone()),
            _ => None,
        };
        ShareError {
            kind: problem.kind(),
            message: problem.english(),
            parse,
            problem: Box::new(problem),
        }
    }
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ShareError {}

// ---- the run as text -------------------------------------------------------------

/// The run's script with its moment line: `# at: 12340ms`, then the history.
fn run_text(t: &Timeline) -> String {
    let mut s = format!("# at: {}ms\n", t.now());
    s.push_str(&t.script());
    s
}

/// The current branch as a `.scenario` file, positioned at the current
/// moment.
pub fn export_scenario(t: &Timeline) -> String {
    format!(
        "# raftlab run, exported at t={}s\n{}",
        Fixed(t.now() as f64 / 1000.0, 2),
        run_text(t)
    )
}

/// Opens a `.scenario` file (or any script): runs it and goes to its
/// `# at:` moment (its end without one). Parse errors carry line and column.
pub fn import_scenario(text: &str) -> Result<Timeline, ShareError> {
    let (script, at) = read_run(text, Source::File)?;
    Ok(open(&script, at))
}

/// Parses a run's text without running it: the script and its moment.
pub fn read_run(text: &str, source: Source) -> Result<(Script, Option<u64>), ShareError> {
    let at = moment(text)?;
    let script = parse_script(text)
        .map_err(|error| ShareError::of(ShareProblem::Script { source, error }))?;
    let bound = time_bound(&script);
    if bound > MAX_RUN_MS {
        return Err(ShareError::of(ShareProblem::TooLongRun {
            source,
            bound: format_duration(bound),
            limit: format_duration(MAX_RUN_MS),
        }));
    }
    Ok((script, at))
}

fn open(script: &Script, at: Option<u64>) -> Timeline {
    let mut t = Timeline::run_script(script);
    if let Some(at) = at {
        t.seek(at);
    }
    t.take_narration();
    t
}

/// The `# at: 12340ms` line, if any (the first one counts).
fn moment(text: &str) -> Result<Option<u64>, ShareError> {
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let Some(value) = rest.trim_start().strip_prefix("at:") else {
            continue;
        };
        let value = value.trim();
        return duration_of(value)
            .map(Some)
            .map_err(|why| ShareError::of(ShareProblem::Moment { line: i + 1, why }));
    }
    Ok(None)
}

/// The most simulated time the script's commands can let pass.
fn time_bound(script: &Script) -> u64 {
    script
        .commands
        .iter()
        .map(|c| match &*c.node {
            Command::Wait(ms) => *ms,
            Command::WaitUntil { within_ms, .. } => *within_ms,
            Command::Put { timeout_ms, .. }
            | Command::Get { timeout_ms, .. }
            | Command::Delete { timeout_ms, .. }
            | Command::Compaction { timeout_ms, .. }
            | Command::MemberAdd { timeout_ms, .. }
            | Command::MemberPromote { timeout_ms, .. }
            | Command::MemberRemove { timeout_ms, .. }
            | Command::MemberList { timeout_ms, .. } => timeout_ms.unwrap_or(5_000),
            // Leader moves wait at most a request timeout; count a generous one.
            _ => 10_000,
        })
        .fold(0u64, u64::saturating_add)
}

// ---- links -----------------------------------------------------------------------

/// The current branch and moment as a link fragment, `#v1.<payload>`.
pub fn encode_link(t: &Timeline) -> String {
    let packed = pack(&run_text(t));
    let mut bytes = packed.clone();
    bytes.extend_from_slice(&checksum(&packed).to_be_bytes());
    format!("#v{LINK_VERSION}.{}", base64url_encode(&bytes))
}

/// Opens a link: a fragment `#v1.<payload>` (with or without the `#`) or a
/// whole URL ending in one.
pub fn decode_link(link: &str) -> Result<Timeline, ShareError> {
    let text = link_text(link)?;
    let (script, at) = read_run(&text, Source::Link)?;
    Ok(open(&script, at))
}

/// A link's text (the moment line and the script) without running it.
pub fn link_text(link: &str) -> Result<String, ShareError> {
    if link.len() > MAX_LINK_CHARS {
        return Err(ShareError::of(ShareProblem::LinkTooLong {
            chars: link.len(),
            max: MAX_LINK_CHARS,
        }));
    }
    let link = link.trim();
    let fragment = match link.find('#') {
        Some(i) => &link[i + 1..],
        None => link,
    };
    let not_a_link = || {
        ShareError::of(ShareProblem::NotALink {
            found: preview(fragment),
        })
    };
    let Some(rest) = fragment.strip_prefix('v') else {
        return Err(not_a_link());
    };
    let Some((version, payload)) = rest.split_once('.') else {
        return Err(not_a_link());
    };
    if version.is_empty() || !version.bytes().all(|b| b.is_ascii_digit()) {
        return Err(not_a_link());
    }
    if version != LINK_VERSION.to_string() {
        return Err(ShareError::of(ShareProblem::Version {
            version: version.to_string(),
        }));
    }
    let bytes = base64url_decode(payload)?;
    if bytes.len() < 4 {
        return Err(ShareError::of(ShareProblem::TruncatedBytes {
            bytes: bytes.len(),
        }));
    }
    let (packed, sum) = bytes.split_at(bytes.len() - 4);
    let expected = u32::from_be_bytes([sum[0], sum[1], sum[2], sum[3]]);
    let actual = checksum(packed);
    if expected != actual {
        return Err(ShareError::of(ShareProblem::Checksum { expected, actual }));
    }
    unpack(packed)
}

fn preview(s: &str) -> String {
    let mut p: String = s.chars().take(12).collect();
    if p.len() < s.len() {
        p.push_str("...");
    }
    format!("{p:?}")
}

// ---- packing ---------------------------------------------------------------------

fn code(i: usize) -> u8 {
    // Codes 1..=31 without 10 (the newline).
    let c = i as u8 + 1;
    if c >= b'\n' {
        c + 1
    } else {
        c
    }
}

fn word(code: u8) -> Option<&'static str> {
    let i = match code {
        1..=9 => code - 1,
        11..=31 => code - 2,
        _ => return None,
    };
    WORDS.get(i as usize).copied()
}

/// Replaces the words of [`WORDS`] with their codes (longest first) and
/// escapes the control bytes that are codes themselves.
pub fn pack(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut by_length: Vec<(usize, &str)> = WORDS.iter().copied().enumerate().collect();
    crate::collections::vecmap::sort_by_u32_key(&mut by_length, |(_, w)| u32::MAX - w.len() as u32);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    'outer: while i < bytes.len() {
        for &(k, w) in &by_length {
            if bytes[i..].starts_with(w.as_bytes()) {
                out.push(code(k));
                i += w.len();
                continue 'outer;
            }
        }
        let b = bytes[i];
        if b < 32 && b != b'\n' {
            out.push(ESCAPE);
        }
        out.push(b);
        i += 1;
    }
    out
}

/// The inverse of [`pack`].
pub fn unpack(packed: &[u8]) -> Result<String, ShareError> {
    let mut out = Vec::with_capacity(packed.len() * 2);
    let mut i = 0;
    while i < packed.len() {
        let b = packed[i];
        if b == ESCAPE {
            let Some(&next) = packed.get(i + 1) else {
                return Err(ShareError::of(ShareProblem::EscapeAtEnd));
            };
            out.push(next);
            i += 2;
            continue;
        }
        match word(b) {
            Some(w) => out.extend_from_slice(w.as_bytes()),
            None => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|e| {
        ShareError::of(ShareProblem::NotUtf8 {
            at: e.utf8_error().valid_up_to(),
        })
    })
}

// ---- checksum and base64url ------------------------------------------------------

/// CRC-32 (IEEE 802.3, the one of zip and PNG; `CRC_32_ISO_HDLC` in the
/// catalogue) of the domain and the bytes. The bitwise form: links are a few
/// kilobytes at most, and a lookup table would only grow the page.
fn checksum(bytes: &[u8]) -> u32 {
    !CHECKSUM_DOMAIN
        .iter()
        .chain(bytes)
        .fold(!0u32, |crc, &b| crc32_byte(crc, b))
}

/// The reflected CRC-32 register after one more byte.
fn crc32_byte(mut crc: u32, b: u8) -> u32 {
    crc ^= u32::from(b);
    for _ in 0..8 {
        crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
    }
    crc
}

/// The base64url alphabet (RFC 4648 §5): each character's place is its
/// six bits.
const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url (RFC 4648 §5) without padding, the form a URL fragment carries
/// untouched: each three bytes (the last one or two alone) as the four (two,
/// three) characters of their bits.
pub fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let bits = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(char::from(BASE64URL[(bits >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

/// The six bits of a base64url character.
fn sextet(c: u8) -> Option<u32> {
    let v = match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    };
    Some(u32::from(v))
}

/// Strict base64url: `None` for a character outside the alphabet (padding
/// included), a length no byte string encodes to (one past a multiple of
/// four), or bits set past the last byte.
fn base64url_bytes(text: &str) -> Option<Vec<u8>> {
    let t = text.as_bytes();
    if t.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(t.len() / 4 * 3 + 2);
    for chunk in t.chunks(4) {
        let mut bits = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            bits |= sextet(c)? << (18 - 6 * i);
        }
        let bytes = chunk.len() - 1;
        if bits & ((1 << (24 - 8 * bytes)) - 1) != 0 {
            return None;
        }
        for i in 0..bytes {
            out.push((bits >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

/// Strict base64url: the URL-safe alphabet, no padding, and no stray bits
/// (so each byte string has exactly one encoding and no edit goes unseen).
pub fn base64url_decode(text: &str) -> Result<Vec<u8>, ShareError> {
    base64url_bytes(text).ok_or_else(|| {
        // The decoder says only that the text is no encoding; a reader
        // fixing a link wants the first character outside the alphabet.
        let stray = text
            .chars()
            .enumerate()
            .find(|&(_, c)| !c.is_ascii() || sextet(c as u8).is_none());
        if let Some((pos, c)) = stray {
            return ShareError::of(ShareProblem::NotBase64 { c, at: pos + 1 });
        }
        // Every other length is some string's encoding; one past a multiple
        // of four is none's, the mark of a link cut short.
        if text.len() % 4 == 1 {
            ShareError::of(ShareProblem::TruncatedChars { chars: text.len() })
        } else {
            ShareError::of(ShareProblem::NotCanonical)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crc32(bytes: &[u8]) -> u32 {
        !bytes.iter().fold(!0u32, |crc, &b| crc32_byte(crc, b))
    }

    /// A xorshift step: the random input of the tests against the crates.
    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    /// The same sums as the `crc` crate's (the module's before it was
    /// written here), the domain and all.
    #[test]
    fn crc32_agrees_with_the_crc_crate() {
        const CRC32: crc::Crc<u32, crc::NoTable> =
            crc::Crc::<u32, crc::NoTable>::new(&crc::CRC_32_ISO_HDLC);
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for len in 0..2_000usize {
            let bytes: Vec<u8> = (0..len % 300).map(|_| xorshift(&mut state) as u8).collect();
            assert_eq!(crc32(&bytes), CRC32.checksum(&bytes));
            let mut digest = CRC32.digest();
            digest.update(CHECKSUM_DOMAIN);
            digest.update(&bytes);
            assert_eq!(checksum(&bytes), digest.finalize());
        }
    }

    #[test]
    fn base64url_round_trips_and_matches_rfc4648_vectors() {
        for (raw, enc) in [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64url_encode(raw.as_bytes()), enc);
            assert_eq!(base64url_decode(enc).unwrap(), raw.as_bytes());
        }
        assert_eq!(base64url_encode(&[0xfb, 0xff]), "-_8");
        // "Zh" decodes to "f" with a stray bit set: refused.
        assert!(base64url_decode("Zh").is_err());
        assert!(base64url_decode("Zm9v=").is_err());
        assert!(base64url_decode("Z").is_err());
    }

    /// The same encodings, and the same texts refused, as `base64ct`'s
    /// strict unpadded base64url (the module's before it was written here).
    #[test]
    fn base64url_agrees_with_base64ct() {
        use base64ct::{Base64UrlUnpadded, Encoding as _};
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || xorshift(&mut state);
        let chars = b"AZaz09-_Qgw+/=. \xc3\xa9";
        for _ in 0..20_000 {
            let len = (next() % 40) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            let enc = base64url_encode(&bytes);
            assert_eq!(enc, Base64UrlUnpadded::encode_string(&bytes));
            assert_eq!(base64url_bytes(&enc), Some(bytes));
            // A text mostly of the alphabet, now and then a stray byte or a
            // bit flipped in the last character.
            let mut text = enc.into_bytes();
            match next() % 4 {
                0 if !text.is_empty() => {
                    let at = (next() as usize) % text.len();
                    text[at] = chars[(next() as usize) % chars.len()];
                }
                1 if !text.is_empty() => {
                    let last = text.len() - 1;
                    text[last] = BASE64URL[(next() % 64) as usize];
                }
                2 => text.truncate((next() as usize) % (text.len() + 1)),
                _ => {}
            }
            let Ok(text) = String::from_utf8(text) else {
                continue;
            };
            assert_eq!(
                base64url_bytes(&text),
                Base64UrlUnpadded::decode_vec(&text).ok(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn base64url_errors_name_the_character_and_the_kind() {
        let e = |s: &str| base64url_decode(s).unwrap_err();
        // Characters are counted as a reader counts them, not in bytes.
        let bad = e("abé$");
        assert_eq!(bad.kind, ShareErrorKind::Encoding);
        assert!(
            bad.message.contains("'é' at character 3"),
            "{}",
            bad.message
        );
        let bad = e("Zm9va$bc");
        assert!(
            bad.message.contains("'$' at character 6"),
            "{}",
            bad.message
        );
        // A stray character is named even where the length is also wrong.
        let bad = e("Zm9v!");
        assert_eq!(bad.kind, ShareErrorKind::Encoding);
        assert!(
            bad.message.contains("'!' at character 5"),
            "{}",
            bad.message
        );
        let bad = e("Zm8=");
        assert_eq!(bad.kind, ShareErrorKind::Encoding);
        assert!(
            bad.message.contains("'=' at character 4"),
            "{}",
            bad.message
        );
        assert_eq!(e("Zm9vY").kind, ShareErrorKind::Truncated);
        assert!(e("Zm9vY").message.contains("5 characters"));
        assert_eq!(e("Zh").kind, ShareErrorKind::Encoding);
        assert!(e("Zh").message.contains("not canonical"));
    }

    #[test]
    fn every_code_names_a_word_and_packing_round_trips() {
        for (i, w) in WORDS.iter().enumerate() {
            assert_eq!(word(code(i)), Some(*w));
        }
        assert_eq!(word(0), None);
        assert_eq!(word(10), None);
        assert_eq!(word(32), None);
        for text in [
            "",
            "cluster voters=1,2,3 seed=7\nwait-until leader\nwait 1200ms\n",
            "say \"tab\there\u{1}\u{0}\u{1f} é ✓\"\n",
            "\nwait \nwait-until \nwai",
        ] {
            assert_eq!(unpack(&pack(text)).unwrap(), text);
        }
        assert!(unpack(&[ESCAPE]).is_err());
        assert!(unpack(&[0xff]).is_err());
    }

    #[test]
    fn moment_lines() {
        assert_eq!(moment("cluster voters=1\n").unwrap(), None);
        assert_eq!(
            moment("# at: 1500ms\ncluster voters=1\n").unwrap(),
            Some(1500)
        );
        assert_eq!(moment("  #at:2s\n").unwrap(), Some(2000));
        let e = moment("# hello\n# at: soon\n").unwrap_err();
        assert_eq!(e.kind, ShareErrorKind::Moment);
        assert!(e.message.starts_with("line 2:"), "{}", e.message);
    }
}
