//! The page's handle on a running scenario: every user action arrives here as
//! one command of the scenario language (so the history replays it), and
//! simulated time moves only through here. Nothing the user types can throw:
//! every outcome, parse errors included, is a result object.
//!
//! Two modes:
//! - the **sandbox**: a [`Timeline`], so the page can travel in time, act
//!   in the past (which starts a branch) and share the run as a link;
//! - a **lesson**: a [`LessonPlayer`] walking one lesson pause by pause.
//!   The sandbox is kept aside meanwhile; leaving the lesson returns to it
//!   as it was.

use serde_json::{json, Value};

use crate::scenario::lessons::{LessonPlayer, Step};
use crate::scenario::share::{self, ShareError};
use crate::scenario::timeline::Timeline;
use crate::server::Cluster;

/// How far "step" looks for the next event before giving up.
const STEP_LIMIT_MS: u64 = 60_000;

pub struct Engine {
    sandbox: Timeline,
    lesson: Option<Box<LessonPlayer>>,
    /// What the page says beyond the run's narration (parse errors).
    notes: Vec<String>,
}

impl Engine {
    /// Parses and runs a whole script; the engine holds its end state.
    pub fn from_script(src: &str) -> Result<Engine, String> {
        Timeline::from_script(src)
            .map(Engine::sandbox)
            .map_err(|e| e.to_string())
    }

    /// A sandbox over an opened run (a link or a file).
    pub fn sandbox(mut timeline: Timeline) -> Engine {
        // Opening replays the run: its narration is old news.
        timeline.take_narration();
        Engine {
            sandbox: timeline,
            lesson: None,
            notes: Vec::new(),
        }
    }

    /// Opens a share link (`#v1.…`, or a whole URL ending in one).
    pub fn from_link(link: &str) -> Result<Engine, ShareError> {
        share::decode_link(link).map(Engine::sandbox)
    }

    /// Opens a `.scenario` file.
    pub fn from_file(text: &str) -> Result<Engine, ShareError> {
        share::import_scenario(text).map(Engine::sandbox)
    }

    pub fn cluster(&self) -> &Cluster {
        match &self.lesson {
            Some(p) => p.session().cluster(),
            None => self.sandbox.cluster(),
        }
    }

    pub fn now(&self) -> u64 {
        self.cluster().now()
    }

    /// One console command; its result object. A line that does not parse
    /// changes nothing and comes back as `ok: false, error: "parse"`. In the
    /// sandbox's past it starts a branch; in a lesson it is a detour.
    pub fn command(&mut self, line: &str) -> Value {
        let text = line.trim();
        let outcome = match &mut self.lesson {
            Some(p) => p.command(text),
            None => self.sandbox.command(text),
        };
        match outcome {
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
        match &mut self.lesson {
            Some(p) => p.advance(ms),
            None => {
                self.sandbox.advance(ms);
            }
        }
    }

    /// Runs to the next narrated event; false if nothing happens within a
    /// minute of simulated time.
    pub fn step_event(&mut self) -> bool {
        match &mut self.lesson {
            Some(p) => p.step_event(STEP_LIMIT_MS),
            None => self.sandbox.step_event(STEP_LIMIT_MS),
        }
    }

    pub fn take_narration(&mut self) -> Vec<String> {
        let mut out = std::mem::take(&mut self.notes);
        match &mut self.lesson {
            Some(p) => out.extend(p.session_mut().take_narration()),
            None => out.extend(self.sandbox.take_narration()),
        }
        out
    }

    /// The script of the run: replaying it gives the state at its end.
    pub fn history(&self) -> Vec<String> {
        match &self.lesson {
            Some(p) => p.session().history(),
            None => self.sandbox.history(),
        }
    }

    pub fn status(&self) -> Value {
        match &self.lesson {
            Some(p) => p.session().status_json(),
            None => self.sandbox.status_json(),
        }
    }

    // ---- time travel (the sandbox) ----------------------------------------------------

    pub fn in_lesson(&self) -> bool {
        self.lesson.is_some()
    }

    /// Goes to moment `t` of the sandbox; where it landed. A lesson has no
    /// timeline: `None`.
    pub fn seek(&mut self, t: u64) -> Option<u64> {
        if self.in_lesson() {
            return None;
        }
        Some(self.sandbox.seek(t))
    }

    pub fn step_back(&mut self) -> Option<u64> {
        if self.in_lesson() {
            return None;
        }
        self.sandbox.step_back()
    }

    pub fn go_live(&mut self) -> Option<u64> {
        if self.in_lesson() {
            return None;
        }
        Some(self.sandbox.go_live())
    }

    pub fn switch_branch(&mut self, id: u32) -> Result<u64, String> {
        if self.in_lesson() {
            return Err("a lesson has no branches: leave it first".to_string());
        }
        self.sandbox.switch_branch(id)
    }

    /// The scrubber's object, or null in a lesson: `Timeline::timeline_json`
    /// without `marks` (every narrated moment: thousands in a long run, and
    /// the page asks several times a second).
    pub fn timeline_json(&self) -> Value {
        if self.in_lesson() {
            return Value::Null;
        }
        let t = &self.sandbox;
        let entries: Vec<Value> = t
            .entries()
            .iter()
            .filter(|e| !e.idle)
            .map(|e| json!({"at_ms": e.at_ms, "end_ms": e.end_ms, "text": e.text}))
            .collect();
        let leaders: Vec<Value> = t
            .leader_changes()
            .into_iter()
            .map(|(at_ms, id, term)| json!({"at_ms": at_ms, "id": id, "term": term}))
            .collect();
        json!({
            "now_ms": t.now(),
            "end_ms": t.end(),
            "live": t.is_live(),
            "branch": t.branch_id(),
            "entries": entries,
            "leaders": leaders,
            "branches": t.branches(),
        })
    }

    // ---- sharing ------------------------------------------------------------------------

    /// The run as a timeline: the sandbox itself, or a lesson's run replayed
    /// into one (a lesson is shared as a sandbox run at the same moment).
    fn shared(&self) -> std::borrow::Cow<'_, Timeline> {
        match &self.lesson {
            None => std::borrow::Cow::Borrowed(&self.sandbox),
            Some(p) => {
                let mut script = p.session().history().join("\n");
                script.push('\n');
                let t = Timeline::from_script(&script)
                    .unwrap_or_else(|_| Timeline::new(&p.lesson().script.cluster));
                std::borrow::Cow::Owned(t)
            }
        }
    }

    /// The link fragment `#v1.…` of the run at the current moment.
    pub fn share_link(&self) -> String {
        share::encode_link(&self.shared())
    }

    /// The run as a `.scenario` file at the current moment.
    pub fn export_scenario(&self) -> String {
        share::export_scenario(&self.shared())
    }

    // ---- lessons ------------------------------------------------------------------------

    /// Opens the lesson with this id; the sandbox waits aside. An unknown
    /// id changes nothing.
    pub fn open_lesson(&mut self, id: &str) -> Result<(), String> {
        let player = LessonPlayer::open(id).ok_or_else(|| format!("there is no lesson {id:?}"))?;
        self.lesson = Some(Box::new(player));
        self.notes.clear();
        Ok(())
    }

    /// Back to the sandbox as it was before the lesson.
    pub fn leave_lesson(&mut self) -> bool {
        let was = self.lesson.take().is_some();
        self.sandbox.take_narration();
        was
    }

    /// The lesson's next, back, restart or rejoin; `None` outside a lesson.
    pub fn lesson_step(&mut self, what: LessonMove) -> Option<Step> {
        let p = self.lesson.as_mut()?;
        Some(match what {
            LessonMove::Next => p.next(),
            LessonMove::Back => p.back(),
            LessonMove::Restart => p.restart(),
            LessonMove::Rejoin => p.rejoin(),
            LessonMove::Goto(k) => p.goto(k),
        })
    }

    /// The lesson panel's object, or null in the sandbox.
    pub fn lesson_json(&self) -> Value {
        let Some(p) = &self.lesson else {
            return Value::Null;
        };
        let l = p.lesson();
        let q = p.quorum();
        json!({
            "id": l.id,
            "title": l.header.title,
            "figures": l.header.figures,
            "summary": l.header.summary,
            "position": p.position(),
            "steps": p.steps(),
            "finished": p.finished(),
            "on_path": p.on_path(),
            "says": p.says(),
            "quorum": q,
            "sentence": q.sentence(),
        })
    }
}

/// A move through a lesson.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LessonMove {
    Next,
    Back,
    Restart,
    Rejoin,
    Goto(usize),
}

/// A step as the page shows it.
pub fn step_json(step: &Step) -> Value {
    serde_json::to_value(step).unwrap_or(Value::Null)
}
