//! Reading etcd's data-driven test files (the format of
//! cockroachdb/datadriven, which etcd-io/raft's tests use): a directive line
//! `cmd key=val key=(a, b) word`, optional input lines, `----`, then the
//! expected output up to a blank line (or, after `----` twice, up to
//! `----` twice). `#` starts a comment line; `\` continues a directive.

/// One argument of a directive: `key`, `key=val` or `key=(v1, v2)`.
#[derive(Debug, Clone)]
pub struct Arg {
    pub key: String,
    pub vals: Vec<String>,
}

/// One directive with what it expects.
#[derive(Debug, Clone)]
pub struct Directive {
    /// 1-based line of the directive in its file.
    pub line: usize,
    pub cmd: String,
    pub args: Vec<Arg>,
    pub input: String,
    pub expected: String,
}

impl Directive {
    /// The values of argument `key`, if present.
    pub fn vals(&self, key: &str) -> Option<&[String]> {
        self.args
            .iter()
            .find(|a| a.key == key)
            .map(|a| a.vals.as_slice())
    }

    /// The single value of argument `key`, if present.
    pub fn val(&self, key: &str) -> Option<&str> {
        self.vals(key).and_then(|v| v.first()).map(String::as_str)
    }

    /// The bare words (arguments without values), in order.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.args
            .iter()
            .filter(|a| a.vals.is_empty())
            .map(|a| a.key.as_str())
    }

    /// The bare words as numbers (node ids, indexes).
    pub fn numbers(&self) -> Result<Vec<u64>, String> {
        self.words()
            .map(|w| w.parse().map_err(|_| format!("not a number: {w}")))
            .collect()
    }
}

/// Parses a whole file into its directives.
pub fn parse(text: &str) -> Result<Vec<Directive>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let start = i;
        let mut line = lines[i].trim().to_string();
        i += 1;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        while line.ends_with('\\') && i < lines.len() {
            line.pop();
            line = format!("{} {}", line.trim_end(), lines[i].trim());
            i += 1;
        }
        let (cmd, args) = parse_line(&line).map_err(|e| format!("line {}: {e}", start + 1))?;
        let mut input = Vec::new();
        let mut separator = false;
        while i < lines.len() {
            let l = lines[i];
            i += 1;
            if l == "----" {
                separator = true;
                break;
            }
            input.push(l);
        }
        let expected = if separator {
            read_expected(&lines, &mut i)
        } else {
            String::new()
        };
        out.push(Directive {
            line: start + 1,
            cmd,
            args,
            input: input.join("\n").trim().to_string(),
            expected,
        });
    }
    Ok(out)
}

fn read_expected(lines: &[&str], i: &mut usize) -> String {
    let mut out = String::new();
    if lines.get(*i) == Some(&"----") {
        // Output with blank lines: it ends at `----` twice.
        *i += 1;
        while *i < lines.len() {
            if lines[*i] == "----" && lines.get(*i + 1) == Some(&"----") {
                *i += 2;
                break;
            }
            out.push_str(lines[*i]);
            out.push('\n');
            *i += 1;
        }
        return out;
    }
    while *i < lines.len() && !lines[*i].trim().is_empty() {
        out.push_str(lines[*i]);
        out.push('\n');
        *i += 1;
    }
    out
}

/// `cmd key=val key=(a, b(c)) word`: datadriven's ParseLine.
fn parse_line(line: &str) -> Result<(String, Vec<Arg>), String> {
    let mut rest = line.trim();
    let cut = rest.find(' ').unwrap_or(rest.len());
    let cmd = rest[..cut].to_string();
    rest = rest[cut..].trim_start();
    let mut args = Vec::new();
    while !rest.is_empty() {
        let cut = rest.find([' ', '=']).unwrap_or(rest.len());
        let key = rest[..cut].to_string();
        if key.is_empty() {
            return Err(format!("cannot parse directive: {line}"));
        }
        rest = &rest[cut..];
        let mut vals = Vec::new();
        if let Some(after) = rest.strip_prefix('=') {
            rest = after;
            if let Some(list) = rest.strip_prefix('(') {
                let (inner, after) = split_parens(list).ok_or(format!("unclosed '(': {line}"))?;
                vals = split_top_level(inner);
                rest = after;
            } else {
                let cut = rest.find(' ').unwrap_or(rest.len());
                vals.push(rest[..cut].to_string());
                rest = &rest[cut..];
            }
        }
        args.push(Arg { key, vals });
        rest = rest.trim_start();
    }
    Ok((cmd, args))
}

/// Splits `a, b(c))rest` at the parenthesis closing the list.
fn split_parens(s: &str) -> Option<(&str, &str)> {
    let mut depth = 1;
    for (pos, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some((&s[..pos], &s[pos + 1..]));
                }
            }
            _ => {}
        }
    }
    None
}

fn split_top_level(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (pos, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..pos].trim_start().to_string());
                start = pos + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].trim_start().to_string());
    out
}

/// Whether an expected line is one of etcd's log lines, which raftlab does
/// not print (its logs are events): `INFO ...`, `DEBUG ...`, `WARN ...`,
/// `ERROR ...`, possibly indented.
pub fn is_log_line(line: &str) -> bool {
    let t = line.trim_start();
    ["INFO ", "DEBUG ", "WARN ", "ERROR "]
        .iter()
        .any(|p| t.starts_with(p))
}

/// The expected output without etcd's log lines; a command whose output was
/// only log lines says "ok", as it does when logs are off.
pub fn expected_without_logs(expected: &str) -> String {
    let kept: String = expected
        .lines()
        .filter(|l| !is_log_line(l))
        .map(|l| format!("{l}\n"))
        .collect();
    if kept.is_empty() {
        "ok\n".to_string()
    } else {
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_directives_args_input_and_output() {
        let text = "# comment\nadd-nodes 3 voters=(1, 2,3) index=10\n----\nINFO x\n\npropose-conf-change 1 transition=explicit\nv2 v3\n----\nok\n";
        let d = parse(text).unwrap();
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].cmd, "add-nodes");
        assert_eq!(d[0].numbers().unwrap(), vec![3]);
        assert_eq!(d[0].vals("voters").unwrap(), ["1", "2", "3"]);
        assert_eq!(d[0].val("index"), Some("10"));
        assert_eq!(d[0].expected, "INFO x\n");
        assert_eq!(d[0].line, 2);
        assert_eq!(d[1].input, "v2 v3");
        assert_eq!(d[1].val("transition"), Some("explicit"));
        assert_eq!(expected_without_logs(&d[0].expected), "ok\n");
        assert_eq!(expected_without_logs("a\n  DEBUG b\nc\n"), "a\nc\n");
    }
}
