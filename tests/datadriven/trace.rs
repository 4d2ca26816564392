//! The `trace` family: scenario runs narrated as `raftlab run` prints them,
//! so a change in what the engine does shows as a changed line of a story.
//!
//! - `run`: the input is scenario commands; a `cluster` line first starts a
//!   new run, otherwise they go on with the file's run. The output is the
//!   narration: every event told and every command's result.
//! - `status`: the run's status in one line per node.
//! - `linearizability`: the checker's verdict on the run's client
//!   operations so far, and its anomaly one operation a line.
//! - `messages`: every message in flight or held, one a line, as the
//!   report's `messages` lists them.

use raftlab::lang::parse::parse_command;
use raftlab::lang::parse::parse_script;
use raftlab::session::exec::Session;
use raftlab::words::renderer::Renderer;
use raftlab::words::text_en::English;
use std::sync::Arc;

use super::runner::Case;

/// Runs `c`'s input on `session` (a `cluster` line starts a new one) and
/// returns the parse error, if any line does not parse.
pub fn feed(session: &mut Option<Session>, c: &Case) -> Result<(), String> {
    let mut lines = c.input_lines().peekable();
    if lines
        .peek()
        .is_some_and(|l| l.trim_start().starts_with("cluster"))
    {
        let first = lines.next().unwrap_or_default();
        let script = parse_script(first).map_err(|e| e.to_string())?;
        *session = Some(Session::new(&script.cluster));
    }
    let s = session
        .as_mut()
        .ok_or_else(|| format!("line {}: no run yet: start with a cluster line", c.line))?;
    for line in lines {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let cmd = parse_command(line).map_err(|e| format!("{line}: {e}"))?;
        s.execute(0, &cmd.to_string(), Arc::new(cmd));
    }
    Ok(())
}

pub fn run(session: &mut Option<Session>, c: &Case) -> String {
    match c.cmd.as_str() {
        "run" => {
            if let Err(e) = feed(session, c) {
                return format!("error: {e}\n");
            }
            let s = session.as_mut().expect("fed");
            s.take_narration()
                .iter()
                .map(|l| English.trace(l) + "\n")
                .collect()
        }
        "status" => {
            let Some(s) = session else {
                return "no run yet\n".into();
            };
            let st = s.status();
            let mut out = format!(
                "t={}ms leader={} term={} quorum={} voters={:?} learners={:?} reachable={:?}\n",
                st.time_ms,
                st.leader.map_or("none".to_string(), |l| l.to_string()),
                st.term,
                st.quorum,
                st.voters,
                st.learners,
                st.reachable
            );
            for n in &st.nodes {
                out.push_str(&format!(
                    "{}: {}{} term={} commit={} applied={} last={}\n",
                    n.id,
                    n.role,
                    if n.learner { " learner" } else { "" },
                    n.term,
                    n.commit,
                    n.applied,
                    n.last_index
                ));
            }
            out
        }
        "linearizability" => {
            let Some(s) = session else {
                return "no run yet\n".into();
            };
            let v = s.report().linearizability;
            let mut out = format!("ok={} operations={} keys={}\n", v.ok, v.operations, v.keys);
            if let Some(a) = v.anomaly {
                out.push_str(&format!("anomaly on key {:?}:\n", a.key));
                for op in a.operations {
                    let ms = |t: Option<u64>| t.map_or("none".to_string(), |t| format!("{t}ms"));
                    out.push_str(&format!(
                        "  #{} client {} {:?} {:?} sent {} answered {}\n",
                        op.index,
                        op.client,
                        op.kind,
                        op.value,
                        ms(Some(op.invoke_ms)),
                        ms(op.response_ms)
                    ));
                }
            }
            out
        }
        "messages" => {
            let Some(s) = session else {
                return "no run yet\n".into();
            };
            let list = s.status().messages;
            if list.is_empty() {
                return "none\n".into();
            }
            list.iter()
                .map(|m| {
                    let when = match m.arrives_ms {
                        Some(t) => format!("arrives {t}ms"),
                        None if m.held => "held".to_string(),
                        None => "queued".to_string(),
                    };
                    format!(
                        "#{} {}->{} {} term={} index={} log_term={} entries={} commit={}{} \
                         {}B sent {}ms {when}\n",
                        m.id,
                        m.from,
                        m.to,
                        m.kind,
                        m.term,
                        m.index,
                        m.log_term,
                        m.entries,
                        m.commit,
                        if m.reject { " reject" } else { "" },
                        m.bytes,
                        m.sent_ms
                    )
                })
                .collect()
        }
        other => panic!("{}: unknown directive {other}", c.line),
    }
}
