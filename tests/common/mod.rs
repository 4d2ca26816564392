//! Helpers the scenario-level integration tests share.
#![allow(dead_code)]

use raftlab::session::exec::Session;
use serde_json::Value;

/// Runs a whole script; a script that does not parse fails the test.
pub fn run(script: &str) -> Session {
    Session::from_script(script).unwrap_or_else(|e| panic!("{e}"))
}

/// The report's result of the first command written `command`.
pub fn first_result(s: &Session, command: &str) -> Value {
    result_where(s, command, false)
}

/// The report's result of the last command written `command`.
pub fn last_result(s: &Session, command: &str) -> Value {
    result_where(s, command, true)
}

fn result_where(s: &Session, command: &str, last: bool) -> Value {
    let report = s.report_json();
    let results = report["results"].as_array().expect("results");
    let found = if last {
        results.iter().rev().find(|r| r["command"] == command)
    } else {
        results.iter().find(|r| r["command"] == command)
    };
    found
        .unwrap_or_else(|| panic!("no result for {command}"))
        .clone()
}
