//! The `etcdctl` family: etcdctl v3 lines in the console, each shown with
//! the scenario command it is recorded as and what etcdctl prints for its
//! result, or why raftlab does not take it.
//!
//! - `etcdctl`: the input is console lines; a `cluster` line first starts a
//!   new run. A line starting with `etcdctl` is shown (`$ ...`), then the
//!   command it was recorded as (`> ...`) and etcdctl's output, or `! ` and
//!   the refusal (each of its lines); any other line is a scenario command
//!   run quietly.

use raftlab::lang::etcdctl::{self, is_etcdctl};
use raftlab::lang::parse::parse_command;
use raftlab::lang::parse::parse_script;
use raftlab::session::exec::Session;
use raftlab::words::renderer::Renderer;
use raftlab::words::text_en::English;
use std::sync::Arc;

use super::runner::Case;

pub fn run(session: &mut Option<Session>, c: &Case) -> String {
    assert_eq!(c.cmd, "etcdctl", "{}: unknown directive {}", c.line, c.cmd);
    let mut lines = c.input_lines().peekable();
    if lines
        .peek()
        .is_some_and(|l| l.trim_start().starts_with("cluster"))
    {
        let first = lines.next().unwrap_or_default();
        match parse_script(first) {
            Ok(script) => *session = Some(Session::new(&script.cluster)),
            Err(e) => return format!("error: {e}\n"),
        }
    }
    let Some(s) = session.as_mut() else {
        return format!("line {}: no run yet: start with a cluster line\n", c.line);
    };
    let mut out = String::new();
    for line in lines {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if !is_etcdctl(line) {
            let cmd = parse_command(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            s.execute(0, &cmd.to_string(), Arc::new(cmd));
            continue;
        }
        out += &format!("$ {line}\n");
        match etcdctl::translate(line, s.spec().etcd) {
            Err(e) => {
                // etcdctl's error may be several lines (cobra's "Did you
                // mean this?" block, its usage hint): each is marked.
                for l in English.etcdctl_refusal(&e).lines() {
                    out += if l.is_empty() { "!" } else { "! " };
                    out += l;
                    out.push('\n');
                }
            }
            Ok(t) => {
                let canonical = t.command.to_string();
                // What the history records reads back as the same command.
                assert_eq!(parse_command(&canonical).as_ref(), Ok(&*t.command));
                out += &format!("> {canonical}\n");
                let before = s.cluster().leader();
                let r = s.execute(0, &canonical, Arc::clone(&t.command));
                for p in raftlab::words::etcdctl::output(&t, &r, before, s) {
                    out += &p;
                    out.push('\n');
                }
            }
        }
    }
    s.take_narration();
    out
}
