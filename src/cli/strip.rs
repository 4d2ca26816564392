//! The page's script and style as `raftlab serve` sends them: without their
//! comments. The sources in `www/` explain themselves at length (a third of
//! `app.js`'s gzipped size is comments); a browser needs none of it.
//!
//! Only comments go: every other byte (strings, template literals, regular
//! expressions, indentation) is kept as written, and every line break, so
//! the code the browser runs is the code in `www/` line for line (a line
//! an error names in the console is the source's). A comment alone on its
//! lines leaves them empty; one after code goes with the blanks before it;
//! one between two tokens leaves a blank where they would run together. A
//! file the scanner cannot follow (an unterminated string or comment) is an
//! error, and the server then sends the file as it is.

use std::fmt;

/// Why a file was not stripped: the scanner lost track of it at `offset`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unfollowed {
    pub what: &'static str,
    pub offset: usize,
}

impl fmt::Display for Unfollowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.what, self.offset)
    }
}

/// What `/` can start where it stands: a regular expression after an
/// operator, an opening bracket, a keyword or nothing; a division after a
/// name, a number or a closing bracket.
#[derive(Clone, Copy, PartialEq, Eq)]
enum After {
    Operand,
    Operator,
}

/// Keywords after which `/` starts a regular expression.
const REGEX_KEYWORDS: [&str; 14] = [
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
    "yield",
    "await",
];

/// A comment found in the source: its byte range.
type Span = (usize, usize);

/// The comments of an ES module's source, in order. Template literals nest
/// (`${...}` inside one is code, which may hold another).
fn js_comments(src: &str) -> Result<Vec<Span>, Unfollowed> {
    let b = src.as_bytes();
    let mut comments = Vec::new();
    // One entry per open `{` or `${`: true for a template's `${`.
    let mut braces: Vec<bool> = Vec::new();
    let mut after = After::Operator;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = src[i..].find('\n').map_or(b.len(), |n| i + n);
                comments.push((i, end));
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = block_comment_end(src, i)?;
                comments.push((i, end));
                i = end;
            }
            b'/' if after == After::Operator => {
                i = regex_end(b, i)?;
                after = After::Operand;
            }
            b'\'' | b'"' => {
                i = string_end(b, i)?;
                after = After::Operand;
            }
            b'`' => {
                i = template_end(b, i + 1, &mut braces)?;
                after = After::Operand;
            }
            b'{' => {
                braces.push(false);
                after = After::Operator;
                i += 1;
            }
            b'}' => (i, after) = close_brace(b, i, &mut braces)?,
            b')' | b']' => {
                after = After::Operand;
                i += 1;
            }
            c if c.is_ascii_whitespace() => i += 1,
            c if is_word_byte(c) => {
                let start = i;
                while i < b.len() && is_word_byte(b[i]) {
                    i += 1;
                }
                let word = &src[start..i];
                after = if REGEX_KEYWORDS.contains(&word) {
                    After::Operator
                } else {
                    After::Operand
                };
            }
            _ => {
                after = After::Operator;
                i += 1;
            }
        }
    }
    if !braces.is_empty() {
        return Err(Unfollowed {
            what: "a { never closed",
            offset: b.len(),
        });
    }
    Ok(comments)
}

/// The `}` at `i`: the end of a block, after which what follows starts
/// anew, or of a template's `${...}`, after which the template goes on.
/// Where the scan goes on, and what `/` there can start.
fn close_brace(b: &[u8], i: usize, braces: &mut Vec<bool>) -> Result<(usize, After), Unfollowed> {
    let in_template = braces.pop().ok_or(Unfollowed {
        what: "a } that closes nothing",
        offset: i,
    })?;
    if in_template {
        // The template goes on after its `${...}`.
        Ok((template_end(b, i + 1, braces)?, After::Operand))
    } else {
        // The end of a block: what follows starts anew.
        Ok((i + 1, After::Operator))
    }
}

/// Whether a byte may be part of a name or a keyword (any byte of a
/// character beyond ASCII counts).
fn is_word_byte(c: u8) -> bool {
    c == b'_' || c == b'$' || c.is_ascii_alphanumeric() || c >= 0x80
}

/// The end of the `/* ... */` comment starting at `start`.
fn block_comment_end(src: &str, start: usize) -> Result<usize, Unfollowed> {
    match src[start + 2..].find("*/") {
        Some(n) => Ok(start + 2 + n + 2),
        None => Err(Unfollowed {
            what: "an unterminated comment",
            offset: start,
        }),
    }
}

/// The end of the quoted string starting at `start`.
fn string_end(b: &[u8], start: usize) -> Result<usize, Unfollowed> {
    let quote = b[start];
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'\n' => break,
            c if c == quote => return Ok(i + 1),
            _ => i += 1,
        }
    }
    Err(Unfollowed {
        what: "an unterminated string",
        offset: start,
    })
}

/// Scans a template literal from `i` (just inside its backquote, or just
/// after a `}` closing one of its `${`): where it ends, or where a `${`
/// opens (pushed on `braces`).
fn template_end(b: &[u8], mut i: usize, braces: &mut Vec<bool>) -> Result<usize, Unfollowed> {
    let start = i;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'`' => return Ok(i + 1),
            b'$' if b.get(i + 1) == Some(&b'{') => {
                braces.push(true);
                return Ok(i + 2);
            }
            _ => i += 1,
        }
    }
    Err(Unfollowed {
        what: "an unterminated template literal",
        offset: start,
    })
}

/// The end of the regular expression starting at `start` (its flags are
/// scanned as a name afterwards). A `/` inside `[...]` does not end it.
fn regex_end(b: &[u8], start: usize) -> Result<usize, Unfollowed> {
    let mut i = start + 1;
    let mut class = false;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'\n' => break,
            b'[' => {
                class = true;
                i += 1;
            }
            b']' => {
                class = false;
                i += 1;
            }
            b'/' if !class => return Ok(i + 1),
            _ => i += 1,
        }
    }
    Err(Unfollowed {
        what: "an unterminated regular expression",
        offset: start,
    })
}

/// The comments of a style sheet (strings may hold `/*`).
fn css_comments(src: &str) -> Result<Vec<Span>, Unfollowed> {
    let b = src.as_bytes();
    let mut comments = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = block_comment_end(src, i)?;
                comments.push((i, end));
                i = end;
            }
            b'\'' | b'"' => i = string_end(b, i)?,
            _ => i += 1,
        }
    }
    Ok(comments)
}

/// `src` without the byte ranges of `comments` (in order), each taken as
/// the module comment says. Every line break stays, so a line of the
/// script the browser runs is the same line of the source.
fn without(src: &str, comments: &[Span]) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut kept = 0; // where the text not yet copied starts
    for &(start, end) in comments {
        let breaks = src[start..end].matches('\n').count();
        let line_start = src[..start].rfind('\n').map_or(0, |n| n + 1);
        let alone_before = line_start >= kept && src[line_start..start].trim().is_empty();
        let rest_of_line = src[end..].find('\n').map_or(b.len(), |n| end + n);
        let alone_after = src[end..rest_of_line].trim().is_empty();
        if alone_before && alone_after {
            // Its lines are left empty.
            out.push_str(&src[kept..line_start]);
            kept = rest_of_line;
        } else if alone_after {
            // After code: the comment and the blanks before it.
            out.push_str(src[kept..start].trim_end_matches([' ', '\t']));
            kept = rest_of_line;
        } else {
            // Between two tokens: one blank at most where the comment was,
            // and one where two tokens would otherwise run together.
            let next = b.get(end).copied();
            let blank_next = next.is_some_and(|c| c == b' ' || c == b'\t');
            let kept_text = &src[kept..start];
            out.push_str(if blank_next {
                kept_text.trim_end_matches([' ', '\t'])
            } else {
                kept_text
            });
            let before = out.as_bytes().last().copied();
            let joins = |c: Option<u8>| {
                c.is_some_and(|c| !c.is_ascii_whitespace() && !b"()[]{},;".contains(&c))
            };
            if breaks == 0 && joins(before) && joins(next) {
                out.push(' ');
            }
            kept = end;
        }
        out.extend(std::iter::repeat_n('\n', breaks));
    }
    out.push_str(&src[kept..]);
    out
}

/// An ES module's source without its comments.
pub fn js(src: &str) -> Result<String, Unfollowed> {
    Ok(without(src, &js_comments(src)?))
}

/// A style sheet without its comments.
pub fn css(src: &str) -> Result<String, Unfollowed> {
    Ok(without(src, &css_comments(src)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_alone_on_its_line_goes_with_the_line() {
        let src = "const a = 1;\n// why a is 1\n  /** and\n   * more */\nconst b = 2;\n";
        assert_eq!(js(src).unwrap(), "const a = 1;\n\n\n\nconst b = 2;\n");
    }

    #[test]
    fn a_comment_after_code_goes_with_the_blanks_before_it() {
        let src = "f(x); // call f\ng(); /* and g */\n";
        assert_eq!(js(src).unwrap(), "f(x);\ng();\n");
    }

    #[test]
    fn a_comment_between_tokens_leaves_a_blank() {
        assert_eq!(js("a/**/b\n").unwrap(), "a b\n");
        assert_eq!(js("f(/* none */)\n").unwrap(), "f()\n");
    }

    #[test]
    fn strings_templates_and_regexes_keep_what_looks_like_a_comment() {
        let src = concat!(
            "const u = \"http://x\"; const v = 'a /* b */';\n",
            "const t = `a // ${ \"//\" + `n ${ 1 /* c */ } //` } /* d */`;\n",
            "const r = /[/]\\/\\/ /g.test(s), q = a / b / c; // cut\n",
            "if (x) return /\\/\\//.source;\n",
        );
        let out = js(src).unwrap();
        assert_eq!(
            out,
            concat!(
                "const u = \"http://x\"; const v = 'a /* b */';\n",
                "const t = `a // ${ \"//\" + `n ${ 1 } //` } /* d */`;\n",
                "const r = /[/]\\/\\/ /g.test(s), q = a / b / c;\n",
                "if (x) return /\\/\\//.source;\n",
            )
        );
    }

    #[test]
    fn what_the_scanner_cannot_follow_is_an_error() {
        assert_eq!(
            js("const s = 'open\n").unwrap_err().what,
            "an unterminated string"
        );
        assert_eq!(js("/* open\n").unwrap_err().what, "an unterminated comment");
        assert_eq!(js("`a ${ b\n").unwrap_err().what, "a { never closed");
        assert_eq!(js("}\n").unwrap_err().what, "a } that closes nothing");
        assert_eq!(
            css("a { content: \"x }\n").unwrap_err().what,
            "an unterminated string"
        );
    }

    #[test]
    fn style_sheets_lose_their_comments_not_their_strings() {
        let src = "/* the page */\na { b: c; } /* why */\nq::before { content: \"/* kept */\"; }\n";
        assert_eq!(
            css(src).unwrap(),
            "\na { b: c; }\nq::before { content: \"/* kept */\"; }\n"
        );
    }

    /// A line without its whitespace.
    fn squeeze(line: &str) -> String {
        line.split_whitespace().collect()
    }

    /// A line without what looks like comments in it, not minding strings:
    /// the test's own second opinion, for the lines that lost one.
    fn naive_strip(line: &str) -> String {
        let mut s = line.to_string();
        while let Some(a) = s.find("/*") {
            match s[a..].find("*/") {
                Some(b) => s.replace_range(a..a + b + 2, ""),
                None => s.truncate(a),
            }
        }
        match s.find("//") {
            Some(a) => s[..a].to_string(),
            None => s,
        }
    }

    /// Whether a block comment is open after `line`, not minding strings.
    fn naive_block_state(line: &str, mut open: bool) -> bool {
        let mut rest = line;
        loop {
            let mark = if open { "*/" } else { "/*" };
            match rest.find(mark) {
                Some(i) => {
                    open = !open;
                    rest = &rest[i + 2..];
                }
                None => return open,
            }
        }
    }

    /// Every script and style sheet of the page is followed to its end,
    /// loses something, and keeps its lines where they were.
    #[test]
    fn the_pages_own_files_are_followed_and_keep_their_code() {
        let www = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www");
        let mut seen = 0;
        for entry in std::fs::read_dir(&www).unwrap() {
            let path = entry.unwrap().path();
            let strip = match path.extension().and_then(|e| e.to_str()) {
                Some("js") => js,
                Some("css") => css,
                _ => continue,
            };
            let src = std::fs::read_to_string(&path).unwrap();
            let out = strip(&src).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(out.len() < src.len(), "{} lost nothing", path.display());
            // Stripping again finds nothing more.
            assert_eq!(strip(&out).unwrap(), out, "{}", path.display());
            // Line for line: each kept line is the source's, or the source's
            // without a comment, or empty where the source had only comment.
            assert_eq!(
                out.lines().count(),
                src.lines().count(),
                "{}",
                path.display()
            );
            let mut in_block = false;
            for (n, (line, kept)) in src.lines().zip(out.lines()).enumerate() {
                let was_in_block = in_block;
                in_block = naive_block_state(line, in_block);
                let code = squeeze(&naive_strip(line));
                assert!(
                    kept == line
                        || squeeze(kept) == code
                        || (kept.trim().is_empty() && (was_in_block || code.is_empty())),
                    "{} line {}: {kept:?} for {line:?}",
                    path.display(),
                    n + 1
                );
            }
            seen += 1;
        }
        assert!(seen >= 8, "only {seen} files in www/");
    }
}
