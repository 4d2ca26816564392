//! Splits one line of a script into words.
//!
//! A word is a run of characters up to whitespace, `#` (a comment to the end
//! of the line) or end of line. A word that starts with `"` is quoted text,
//! with `\"` and `\\` as its only escapes. An option may quote its value:
//! `--peer-url="http://a b"`. Columns count characters from 1.

use crate::lang::ast::quote_for_message;
use crate::lang::parse_error::{ParseError, ParseErrorKind};

/// One word of a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    /// Column of the word's first character.
    pub col: usize,
    /// Column just past the word's last character.
    pub end: usize,
    /// The word, with quotes removed and escapes resolved.
    pub text: String,
    /// The whole word was quoted text.
    pub quoted: bool,
    /// For `name=value` words (not quoted as a whole): the parts.
    pub opt: Option<OptPart>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OptPart {
    pub name: String,
    pub value: String,
    pub value_col: usize,
    /// The value was written as quoted text (so an empty value was meant).
    pub value_quoted: bool,
}

/// The words of a line and the length (in bytes) of its text before any comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lexed {
    pub tokens: Vec<Token>,
    pub code_len: usize,
}

pub(crate) fn lex(line: &str, line_no: usize) -> Result<Lexed, ParseError> {
    let err = |col: usize, kind: ParseErrorKind| ParseError::new(line_no, col, kind);
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    let mut code_len = line.len();
    while i < chars.len() {
        let (byte, c) = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == '#' {
            code_len = byte;
            break;
        }
        let start = i;
        if c == '"' {
            let (text, next) = read_quoted(&chars, i).map_err(|(col, m)| err(col, m))?;
            i = next;
            check_after_quote(&chars, i).map_err(|(col, m)| err(col, m))?;
            tokens.push(Token {
                col: start + 1,
                end: i + 1,
                text,
                quoted: true,
                opt: None,
            });
            continue;
        }
        let (token, next) = read_word(&chars, start).map_err(|(col, m)| err(col, m))?;
        tokens.push(token);
        i = next;
    }
    Ok(Lexed { tokens, code_len })
}

/// Reads a word that is not quoted text as a whole, starting at
/// `chars[start]`: a bare word, `NAME=VALUE`, or `NAME="VALUE"`. Returns
/// it and the index just past it.
fn read_word(
    chars: &[(usize, char)],
    start: usize,
) -> Result<(Token, usize), (usize, ParseErrorKind)> {
    let mut i = start;
    let mut word = String::new();
    let mut quoted_value = None;
    while i < chars.len() {
        let c = chars[i].1;
        if c.is_whitespace() || c == '#' {
            break;
        }
        if c == '"' {
            if word.find('=') == Some(word.len().wrapping_sub(1)) {
                let (text, next) = read_quoted(chars, i)?;
                quoted_value = Some((text, i + 1));
                i = next;
                check_after_quote(chars, i)?;
                break;
            }
            return Err((
                i + 1,
                ParseErrorKind::QuoteInsideWord {
                    word: quote_for_message(&word),
                },
            ));
        }
        word.push(c);
        i += 1;
    }
    let col = start + 1;
    let opt = match &quoted_value {
        Some((value, value_col)) => Some(OptPart {
            name: word[..word.len() - 1].to_string(),
            value: value.clone(),
            value_col: *value_col,
            value_quoted: true,
        }),
        None => word.find('=').map(|eq| OptPart {
            name: word[..eq].to_string(),
            value: word[eq + 1..].to_string(),
            value_col: col + word[..eq].chars().count() + 1,
            value_quoted: false,
        }),
    };
    let text = match quoted_value {
        Some((value, _)) => word + &value,
        None => word,
    };
    let token = Token {
        col,
        end: i + 1,
        text,
        quoted: false,
        opt,
    };
    Ok((token, i))
}

/// Reads quoted text starting at the opening quote `chars[open]`. Returns the
/// text and the index just past the closing quote.
fn read_quoted(
    chars: &[(usize, char)],
    open: usize,
) -> Result<(String, usize), (usize, ParseErrorKind)> {
    let mut text = String::new();
    let mut i = open + 1;
    while i < chars.len() {
        match chars[i].1 {
            '"' => return Ok((text, i + 1)),
            '\\' => match chars.get(i + 1).map(|c| c.1) {
                Some(c @ ('"' | '\\')) => {
                    text.push(c);
                    i += 2;
                }
                Some(other) => {
                    return Err((
                        i + 1,
                        ParseErrorKind::UnknownEscape {
                            escape: quote_for_message(&format!("\\{other}")),
                        },
                    ))
                }
                None => break,
            },
            c => {
                text.push(c);
                i += 1;
            }
        }
    }
    Err((open + 1, ParseErrorKind::Unterminated))
}

fn check_after_quote(chars: &[(usize, char)], i: usize) -> Result<(), (usize, ParseErrorKind)> {
    match chars.get(i) {
        Some((_, c)) if !c.is_whitespace() && *c != '#' => Err((
            i + 1,
            ParseErrorKind::SpaceAfterQuote {
                found: quote_for_message(&c.to_string()),
            },
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<(usize, String, bool)> {
        lex(line, 1)
            .unwrap()
            .tokens
            .into_iter()
            .map(|t| (t.col, t.text, t.quoted))
            .collect()
    }

    #[test]
    fn splits_words_and_stops_at_comments() {
        assert_eq!(
            words("  put k  v # note"),
            vec![
                (3, "put".into(), false),
                (7, "k".into(), false),
                (10, "v".into(), false)
            ]
        );
        assert_eq!(lex("put k v # note", 1).unwrap().code_len, 8);
        assert!(words("# only a comment").is_empty());
        assert_eq!(
            words("wait 1s#x"),
            vec![(1, "wait".into(), false), (6, "1s".into(), false)]
        );
    }

    #[test]
    fn quoted_text_keeps_hashes_and_resolves_escapes() {
        assert_eq!(
            words(r#"say "a # b \"c\" \\d""#),
            vec![
                (1, "say".into(), false),
                (5, r#"a # b "c" \d"#.into(), true)
            ]
        );
    }

    #[test]
    fn option_value_may_be_quoted() {
        let t = &lex(r#"x --peer-url="a b""#, 1).unwrap().tokens[1];
        let opt = t.opt.as_ref().unwrap();
        assert_eq!(
            (opt.name.as_str(), opt.value.as_str(), opt.value_col),
            ("--peer-url", "a b", 14)
        );
    }

    #[test]
    fn columns_count_characters() {
        assert_eq!(words("é ü x")[2].0, 5);
    }

    #[test]
    fn quote_errors() {
        let e = lex(r#"say "abc"#, 3).unwrap_err();
        assert_eq!(
            (e.line, e.column, e.message.as_str()),
            (3, 5, "unterminated quoted text")
        );
        let e = lex(r#"say "a\nb""#, 1).unwrap_err();
        assert_eq!(e.column, 7);
        assert_eq!(
            e.message,
            r#"unknown escape "\\n" in quoted text; only \" and \\ are allowed"#
        );
        let e = lex(r#"say "a"b"#, 1).unwrap_err();
        assert_eq!(
            (e.column, e.message.as_str()),
            (8, r#"expected a space after the closing quote, found "b""#)
        );
        let e = lex(r#"put ab"c" v"#, 1).unwrap_err();
        assert_eq!(e.column, 7);
        assert_eq!(
            e.message,
            r#"unexpected quote inside the word "ab"; quote the whole word"#
        );
        let e = lex(r#"say "abc\"#, 1).unwrap_err();
        assert_eq!(e.message, "unterminated quoted text");
    }
}
