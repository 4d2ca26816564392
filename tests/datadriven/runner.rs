//! The data-driven test runner, in the shape of etcd-io/raft's tests
//! (cockroachdb/datadriven's format): a file is a story of directives,
//!
//! ```text
//! # a comment
//! command arg key=value
//! input lines (optional)
//! ----
//! the whole expected output
//! ```
//!
//! each followed by the output it must give, up to a blank line (an output
//! that holds blank lines sits between `----` twice and `----` twice).
//! Behaviour changes are reviewed as text diffs of these files.
//!
//! `RAFTLAB_BLESS=1 cargo test --test datadriven` rewrites every expected
//! output with what the code gives now (etcd's `-rewrite`); review the diff.

use std::path::{Path, PathBuf};

/// One directive of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// The directive's line in its file (1-based).
    pub line: usize,
    pub cmd: String,
    /// The words after the command: `key` or `key=value`.
    pub args: Vec<(String, Option<String>)>,
    /// The lines between the directive and `----`.
    pub input: String,
    pub expected: String,
    /// The lines of the file the expected output takes (the separator
    /// included), for rewriting.
    span: (usize, usize),
}

impl Case {
    /// The value of argument `key`, if given as `key=value`.
    pub fn arg(&self, key: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.as_deref())
    }

    /// Whether the bare word `key` was given.
    pub fn flag(&self, key: &str) -> bool {
        self.args.iter().any(|(k, v)| k == key && v.is_none())
    }

    /// The input, line by line.
    pub fn input_lines(&self) -> impl Iterator<Item = &str> {
        self.input.lines()
    }
}

/// Reads a file's directives.
pub fn parse(text: &str) -> Result<Vec<Case>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut cases = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let directive = lines[i].trim();
        let line = i + 1;
        i += 1;
        if directive.is_empty() || directive.starts_with('#') {
            continue;
        }
        let mut words = directive.split_whitespace();
        let cmd = words.next().unwrap_or_default().to_string();
        let args = words
            .map(|w| match w.split_once('=') {
                Some((k, v)) => (k.to_string(), Some(v.to_string())),
                None => (w.to_string(), None),
            })
            .collect();
        let mut input = Vec::new();
        loop {
            match lines.get(i) {
                None => return Err(format!("line {line}: `{directive}` has no `----`")),
                Some(&"----") => break,
                Some(l) => input.push(*l),
            }
            i += 1;
        }
        let start = i;
        i += 1;
        let mut expected = String::new();
        if lines.get(i) == Some(&"----") {
            // Output with blank lines: up to `----` twice.
            i += 1;
            loop {
                match (lines.get(i), lines.get(i + 1)) {
                    (Some(&"----"), Some(&"----")) => {
                        i += 2;
                        break;
                    }
                    (Some(l), _) => {
                        expected.push_str(l);
                        expected.push('\n');
                        i += 1;
                    }
                    (None, _) => {
                        return Err(format!(
                            "line {line}: the output never ends with `----` twice"
                        ))
                    }
                }
            }
        } else {
            while let Some(l) = lines.get(i).filter(|l| !l.trim().is_empty()) {
                expected.push_str(l);
                expected.push('\n');
                i += 1;
            }
        }
        cases.push(Case {
            line,
            cmd,
            args,
            input: input.join("\n"),
            expected,
            span: (start, i),
        });
    }
    Ok(cases)
}

/// An output as a file holds it after `----`.
fn block(output: &str) -> Vec<String> {
    let body: Vec<String> = output.lines().map(str::to_string).collect();
    if body.iter().any(|l| l.trim().is_empty()) {
        let mut out = vec!["----".to_string(), "----".to_string()];
        out.extend(body);
        out.extend(["----".to_string(), "----".to_string()]);
        out
    } else {
        let mut out = vec!["----".to_string()];
        out.extend(body);
        out
    }
}

/// An output as the comparison sees it: one trailing newline, if any text.
fn normal(output: &str) -> String {
    let t = output.trim_end_matches('\n');
    if t.is_empty() {
        String::new()
    } else {
        format!("{t}\n")
    }
}

/// Whether expected outputs are rewritten instead of checked.
pub fn blessing() -> bool {
    std::env::var_os("RAFTLAB_BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Runs every directive of `path` through `run` (each directive with the
/// state the ones before it left) and returns the mismatches, described;
/// with `bless`, rewrites the file's outputs instead and returns none.
pub fn run_file<S>(
    path: &Path,
    state: &mut S,
    run: impl Fn(&mut S, &Case) -> String,
    bless: bool,
) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let cases = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(!cases.is_empty(), "{}: no directive", path.display());
    let mut failures = Vec::new();
    let mut outputs = Vec::new();
    for case in &cases {
        let actual = normal(&run(state, case));
        if actual != case.expected {
            failures.push(format!(
                "{}:{}: {}\n--- expected\n{}--- actual\n{}",
                path.display(),
                case.line,
                case.cmd,
                case.expected,
                actual
            ));
        }
        outputs.push(actual);
    }
    if bless {
        let lines: Vec<&str> = text.lines().collect();
        let mut out: Vec<String> = Vec::new();
        let mut at = 0;
        for (case, actual) in cases.iter().zip(&outputs) {
            out.extend(lines[at..case.span.0].iter().map(|l| l.to_string()));
            out.extend(block(actual));
            at = case.span.1;
        }
        out.extend(lines[at..].iter().map(|l| l.to_string()));
        let mut new = out.join("\n");
        new.push('\n');
        if new != text {
            std::fs::write(path, new).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        return Vec::new();
    }
    failures
}

/// The `.txt` files of `tests/testdata/<family>/`, in name order.
pub fn files(family: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/testdata")
        .join(family);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no test files in {}", dir.display());
    files
}

/// Runs a whole family: every file, each with a fresh state; fails with
/// every mismatch.
pub fn run_family<S: Default>(family: &str, run: impl Fn(&mut S, &Case) -> String) {
    let mut failures = Vec::new();
    for path in files(family) {
        failures.extend(run_file(&path, &mut S::default(), &run, blessing()));
    }
    assert!(
        failures.is_empty(),
        "{}\n\n{} mismatch(es); if the change is intended, rewrite the files with \
         RAFTLAB_BLESS=1 cargo test --test datadriven and review the diff",
        failures.join("\n"),
        failures.len()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_reads_as_directives_with_their_outputs() {
        let text = "# comment\n\nparse via=2 fast\nput k v\nget k\n----\nok\n\nblank\n----\n----\na\n\nb\n----\n----\n\nlast\n----\n";
        let cases = parse(text).unwrap();
        assert_eq!(cases.len(), 3);
        assert_eq!((cases[0].line, cases[0].cmd.as_str()), (3, "parse"));
        assert_eq!(cases[0].arg("via"), Some("2"));
        assert!(cases[0].flag("fast") && !cases[0].flag("via"));
        assert_eq!(cases[0].input, "put k v\nget k");
        assert_eq!(cases[0].expected, "ok\n");
        assert_eq!(cases[1].expected, "a\n\nb\n");
        assert_eq!(cases[2].expected, "");
        assert!(parse("cmd\nno separator\n").is_err());
        assert_eq!(
            block("a\n\nb\n"),
            ["----", "----", "a", "", "b", "----", "----"]
        );
        assert_eq!(block("a\n"), ["----", "a"]);
        assert_eq!(normal("x\n\n"), "x\n");
        assert_eq!(normal("\n"), "");
    }

    #[test]
    fn blessing_rewrites_only_the_outputs() {
        let path = std::env::temp_dir().join(format!("raftlab-dd-{}.txt", std::process::id()));
        let text = "# keep me\necho\na\n----\nstale\n\necho two=2\nb\n\nc\n----\n";
        std::fs::write(&path, text).unwrap();
        let echo = |_: &mut (), c: &Case| c.input.clone();
        let failures = run_file(&path, &mut (), echo, false);
        assert_eq!(failures.len(), 2, "{failures:?}");
        assert!(run_file(&path, &mut (), echo, true).is_empty());
        let blessed = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            blessed,
            "# keep me\necho\na\n----\na\n\necho two=2\nb\n\nc\n----\n----\nb\n\nc\n----\n----\n"
        );
        assert!(run_file(&path, &mut (), echo, false).is_empty());
        let _ = std::fs::remove_file(&path);
    }
}
