//! The page's handle on a running scenario: every user action arrives here as
//! one command of the scenario language (so the history replays it), and
//! simulated time moves only through here. A thin layer over the scenario
//! `Session` that turns every outcome, parse errors included, into a result
//! object, so nothing the user types can throw.

use serde_json::{json, Value};

use crate::scenario::exec::Session;
use crate::server::Cluster;

/// How far "step" looks for the next event before giving up.
const STEP_LIMIT_MS: u64 = 60_000;

pub struct Engine {
    session: Session,
    /// What the page says beyond the session's narration (parse errors).
    notes: Vec<String>,
}

impl Engine {
    /// Parses and runs a whole script; the engine holds its end state.
    pub fn from_script(src: &str) -> Result<Engine, String> {
        Session::from_script(src)
            .map(|session| Engine {
                session,
                notes: Vec::new(),
            })
            .map_err(|e| e.to_string())
    }

    pub fn cluster(&self) -> &Cluster {
        self.session.cluster()
    }

    pub fn now(&self) -> u64 {
        self.session.now()
    }

    /// One console command; its result object. A line that does not parse
    /// changes nothing and comes back as `ok: false, error: "parse"`.
    pub fn command(&mut self, line: &str) -> Value {
        let text = line.trim();
        match self.session.command(text) {
            Ok(result) => result.to_json(),
            Err(e) => {
                let detail = e.to_string();
                self.notes
                    .push(format!("error: \"{text}\" does not parse: {detail}"));
                json!({"line": Value::Null, "command": text, "ok": false,
                       "error": "parse", "detail": detail})
            }
        }
    }

    pub fn advance(&mut self, ms: u64) {
        self.session.advance(ms);
    }

    /// Runs to the next narrated event; false if nothing happens within a
    /// minute of simulated time.
    pub fn step_event(&mut self) -> bool {
        self.session.step_event(STEP_LIMIT_MS)
    }

    pub fn take_narration(&mut self) -> Vec<String> {
        let mut out = std::mem::take(&mut self.notes);
        out.extend(self.session.take_narration());
        out
    }

    pub fn history(&self) -> Vec<String> {
        self.session.history()
    }

    pub fn status(&self) -> Value {
        self.session.status_json()
    }
}
