//! Placeholders in `say` text, filled in when the line runs, so narration
//! names what happened in this run (scenario language v2, section 5):
//! `{leader}`, `{term}`, `{quorum}`, `{voters}`, `{learners}`, `{commit}`,
//! `{value}`, `{error}` and `{time}`; `{{` and `}}` are literal braces.
//!
//! The script keeps the text as written (its canonical form); the parser
//! checks it with [`pieces`], and the session fills it with [`fill`]. A
//! `say-ja` line is kept as written beside the run's [`Facts`] ([`Spoken`]):
//! the Japanese renderer fills it with its own words for a number, a list
//! and "none" ([`fill_with`]) when it speaks.

use crate::lang::braces::{braces, Brace, BraceError};
use crate::text::fixed::Fixed;
use std::fmt::Write;

use crate::lang::parse_error::SayProblem;
use crate::raft::NodeId;

/// What a placeholder stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placeholder {
    /// The leader's id, or `none`.
    Leader,
    /// The highest term of any running member.
    Term,
    /// The quorum of the current configuration.
    Quorum,
    /// The voters, `1, 2, 3` (`none` without any).
    Voters,
    /// The learners, `4` (`none` without any).
    Learners,
    /// The leader's commit index (without a leader, the highest-term member's).
    Commit,
    /// The value the last `get` read; `none` if it found no such key, failed,
    /// or no `get` ran yet.
    Value,
    /// The previous command's error code, or `none`.
    Error,
    /// Simulated time in seconds, two decimals: `12.34`.
    Time,
}

/// Every placeholder, by name.
pub const PLACEHOLDERS: [(&str, Placeholder); 9] = [
    ("leader", Placeholder::Leader),
    ("term", Placeholder::Term),
    ("quorum", Placeholder::Quorum),
    ("voters", Placeholder::Voters),
    ("learners", Placeholder::Learners),
    ("commit", Placeholder::Commit),
    ("value", Placeholder::Value),
    ("error", Placeholder::Error),
    ("time", Placeholder::Time),
];

/// A `say` line's words: the English filled in (the report's), and, when
/// the script gives a `say-ja` line, that line as written with the facts
/// the English was filled from, for the Japanese renderer to fill in its
/// own words (the session knows no Japanese).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Spoken {
    pub en: String,
    /// The `say-ja` line as written, its placeholders not filled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ja: Option<String>,
    /// The run at the moment the `say` ran: what both languages fill from.
    #[serde(skip)]
    pub facts: Facts,
}

impl Spoken {
    /// English words only.
    pub fn en(text: impl Into<String>) -> Spoken {
        Spoken {
            en: text.into(),
            ..Spoken::default()
        }
    }
}

/// A piece of `say` text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Words as they are (a `{{` already turned into `{`).
    Text(String),
    Slot(Placeholder),
}

/// A `say` text that does not read: where (the character's position in
/// the text, from 0) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceError {
    pub at: usize,
    pub problem: SayProblem,
}

fn names() -> String {
    PLACEHOLDERS
        .iter()
        .map(|(n, _)| format!("{{{n}}}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Splits `text` into words and placeholders (`braces` reads them).
pub fn pieces(text: &str) -> Result<Vec<Piece>, PieceError> {
    // Where a problem is: in characters, as a column is counted.
    let at = |byte: usize, problem| PieceError {
        at: text[..byte].chars().count(),
        problem,
    };
    let mut out = Vec::new();
    let mut words = String::new();
    for piece in braces(text) {
        match piece {
            Ok(Brace::Text(t)) => words.push_str(t),
            Ok(Brace::Name { name, at: byte }) => {
                let Some(&(_, slot)) = PLACEHOLDERS.iter().find(|(n, _)| *n == name) else {
                    let problem = SayProblem::UnknownPlaceholder {
                        name: name.to_string(),
                        known: names(),
                    };
                    return Err(at(byte, problem));
                };
                if !words.is_empty() {
                    out.push(Piece::Text(std::mem::take(&mut words)));
                }
                out.push(Piece::Slot(slot));
            }
            Err(BraceError::Unclosed(byte)) => return Err(at(byte, SayProblem::Unclosed)),
            Err(BraceError::StrayClose(byte)) => return Err(at(byte, SayProblem::StrayClose)),
        }
    }
    if !words.is_empty() {
        out.push(Piece::Text(words));
    }
    Ok(out)
}

/// What the placeholders are filled with: the run at the moment the `say`
/// runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts {
    pub leader: Option<NodeId>,
    pub term: u64,
    pub quorum: usize,
    pub voters: Vec<NodeId>,
    pub learners: Vec<NodeId>,
    pub commit: u64,
    /// The last `get`'s value: `None` if none answered (or it found nothing).
    pub value: Option<String>,
    /// The previous command's error code.
    pub error: Option<&'static str>,
    pub time_ms: u64,
}

fn ids(list: &[NodeId]) -> String {
    if list.is_empty() {
        return "none".to_string();
    }
    list.iter()
        .map(|id| id.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a placeholder stands for in English (the report's words): `2`,
/// `1, 2, 3`, `none`, `4.21`.
pub fn english(slot: Placeholder, facts: &Facts) -> String {
    let mut out = String::new();
    let _ = match slot {
        Placeholder::Leader => match facts.leader {
            Some(l) => write!(out, "{l}"),
            None => write!(out, "none"),
        },
        Placeholder::Term => write!(out, "{}", facts.term),
        Placeholder::Quorum => write!(out, "{}", facts.quorum),
        Placeholder::Voters => write!(out, "{}", ids(&facts.voters)),
        Placeholder::Learners => write!(out, "{}", ids(&facts.learners)),
        Placeholder::Commit => write!(out, "{}", facts.commit),
        Placeholder::Value => write!(out, "{}", facts.value.as_deref().unwrap_or("none")),
        Placeholder::Error => write!(out, "{}", facts.error.unwrap_or("none")),
        Placeholder::Time => write!(out, "{}", Fixed(facts.time_ms as f64 / 1000.0, 2)),
    };
    out
}

/// `text` with its placeholders filled in from `facts`, in English. Text
/// that does not read (the parser refuses it, so only a script built by
/// hand has it) comes back as written.
pub fn fill(text: &str, facts: &Facts) -> String {
    fill_with(text, facts, &english)
}

/// `text` with each placeholder filled by `word`: a language's words for
/// what the placeholder stands for (the Japanese renderer's: `ノード2`,
/// `2つ`, `なし`). Text that does not read comes back as written.
pub fn fill_with(
    text: &str,
    facts: &Facts,
    word: &dyn Fn(Placeholder, &Facts) -> String,
) -> String {
    let Ok(pieces) = pieces(text) else {
        return text.to_string();
    };
    let mut out = String::with_capacity(text.len());
    for p in pieces {
        match p {
            Piece::Text(t) => out.push_str(&t),
            Piece::Slot(slot) => out.push_str(&word(slot, facts)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_placeholder_is_filled_and_doubled_braces_are_literal() {
        let facts = Facts {
            leader: Some(2),
            term: 3,
            quorum: 2,
            voters: vec![1, 2, 3],
            learners: vec![],
            commit: 12,
            value: Some("v1".into()),
            error: Some("timeout"),
            time_ms: 4205,
        };
        let text = "{leader} {term} {quorum} [{voters}] [{learners}] {commit} {value} \
                    {error} {time} {{leader}} }}";
        assert_eq!(
            fill(text, &facts),
            "2 3 2 [1, 2, 3] [none] 12 v1 timeout 4.21 {leader} }"
        );
        let none = Facts::default();
        assert_eq!(fill("{leader}/{value}/{error}", &none), "none/none/none");
    }

    #[test]
    fn a_bad_placeholder_says_where() {
        let e = pieces("leader is {lader}").unwrap_err();
        assert_eq!(e.at, 10);
        assert!(
            crate::lang::parse_error::ParseErrorKind::Say(e.problem.clone())
                .english()
                .starts_with("unknown placeholder {lader}"),
            "{e:?}"
        );
        assert_eq!(pieces("ab {leader").unwrap_err().at, 3);
        assert_eq!(pieces("a } b").unwrap_err().at, 2);
        assert!(pieces("{}").is_err());
        assert_eq!(pieces("plain").unwrap(), vec![Piece::Text("plain".into())]);
    }
}
