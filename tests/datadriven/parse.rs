//! The `parse` family: the scenario language's parser, directive by
//! directive.
//!
//! - `parse`: the input is one console command: its canonical text (what
//!   the history records) and its syntax tree, or the error with its column;
//! - `script`: the input is a whole script: its canonical text and each
//!   command's line, or the error with its line and column;
//! - `cluster`: the input is a `cluster` line: its canonical text, every
//!   setting (so a changed default shows) and etcd's election tick;
//! - `duration`, `size`: each input line (shown quoted) and the value the
//!   language's units give it.

use raftlab::lang::ast::{format_duration, format_size};
use raftlab::lang::parse::parse_command;
use raftlab::lang::parse::parse_duration;
use raftlab::lang::parse::parse_script;
use raftlab::lang::parse::parse_size;

use super::runner::Case;

pub fn run(_: &mut (), c: &Case) -> String {
    match c.cmd.as_str() {
        "parse" => match parse_command(&c.input) {
            Ok(cmd) => format!("{cmd}\n{cmd:?}\n"),
            Err(e) => {
                assert_eq!(e.line, 1, "{}: a console command is line 1", c.line);
                format!("error at column {}: {}\n", e.column, e.message)
            }
        },
        "script" => match parse_script(&c.input) {
            Ok(s) => {
                let mut text = s.to_string();
                for cmd in &s.commands {
                    text.push_str(&format!("line {}: {}\n", cmd.line, cmd.text));
                }
                text
            }
            Err(e) => format!(
                "error at line {}, column {}: {}\n",
                e.line, e.column, e.message
            ),
        },
        "cluster" => match parse_script(&c.input) {
            Ok(s) => format!(
                "{}\n{:?}\nelection tick {}\n",
                s.cluster,
                s.cluster,
                s.cluster.election_tick()
            ),
            Err(e) => format!("error at column {}: {}\n", e.column, e.message),
        },
        "duration" | "size" => c
            .input_lines()
            .map(|line| {
                let said = if c.cmd == "duration" {
                    parse_duration(line)
                        .map(|ms| format!("{ms}ms, written {}", format_duration(ms)))
                } else {
                    parse_size(line).map(|b| format!("{b} bytes, written {}", format_size(b)))
                };
                match said {
                    Ok(v) => format!("{line:?}: {v}\n"),
                    Err(e) => format!("{line:?}: error: {e}\n"),
                }
            })
            .collect(),
        other => panic!("{}: unknown directive {other}", c.line),
    }
}
