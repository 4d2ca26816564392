//! `raftlab run FILE|- [--json]`: runs a scenario script. Exit status 0
//! when every `expect` held and no safety property broke, 1 otherwise, 2
//! when the script does not parse (then nothing runs).

use std::io::{Read, Write};

use crate::scenario::narrate::Renderer;
use crate::scenario::text_en::English;
use crate::scenario::{parse_script, Session};

/// Runs the script at `path` (`-` is standard input), writing the trace or
/// the JSON report to `out` and problems to `err`. Returns the exit status.
pub fn run(path: &str, json: bool, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let source = if path == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map(|_| s)
    } else {
        std::fs::read_to_string(path)
    };
    let source = match source {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "raftlab run: cannot read {path}: {e}");
            return 2;
        }
    };
    run_source(&source, path, json, out, err)
}

pub fn run_source(
    source: &str,
    name: &str,
    json: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let script = match parse_script(source) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "{name}: {e}");
            return 2;
        }
    };
    let mut session = Session::new(&script.cluster);
    if !json {
        for line in session.take_narration() {
            let _ = writeln!(out, "{}", English.trace(&line));
        }
    }
    for cmd in &script.commands {
        session.execute(cmd.line, &cmd.text, &cmd.node);
        if !json {
            for line in session.take_narration() {
                let _ = writeln!(out, "{}", English.trace(&line));
            }
        }
    }
    let report = session.report();
    if json {
        match serde_json::to_string_pretty(&report) {
            Ok(text) => {
                let _ = writeln!(out, "{text}");
            }
            Err(e) => {
                let _ = writeln!(err, "raftlab run: cannot write the report: {e}");
                return 1;
            }
        }
    } else {
        let failed = report
            .results
            .iter()
            .filter(|r| r.error == Some("expect-failed"))
            .count();
        let _ = writeln!(
            out,
            "{} commands, {failed} failed expectations, {} safety violations, simulated time {:.2}s",
            report.results.len(),
            report.violations.len(),
            report.time_ms as f64 / 1000.0
        );
        for v in &report.violations {
            let _ = writeln!(
                out,
                "violation at t={:.2}s: {}: {}",
                v.time_ms as f64 / 1000.0,
                v.property,
                v.text
            );
        }
    }
    if session.passed() {
        0
    } else {
        1
    }
}
