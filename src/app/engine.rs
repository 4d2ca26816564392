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

use serde::Serialize;

use crate::scenario::lessons::{LessonPlayer, Step};
use crate::scenario::narrate::Renderer;
use crate::scenario::report::CommandResult;
use crate::scenario::share::{self, ShareError};
use crate::scenario::text_en::English;
use crate::scenario::timeline::Timeline;
use crate::scenario::view::{LessonView, LoadView, PageStatus, QuorumView, TimelineView};
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
    pub fn command(&mut self, line: &str) -> Reply {
        let text = line.trim();
        let outcome = match &mut self.lesson {
            Some(p) => p.command(text),
            None => self.sandbox.command(text),
        };
        match outcome {
            Ok(result) => Reply::Ran(result),
            Err(e) => {
                let detail = e.to_string();
                self.notes
                    .push(format!("error: \"{text}\" does not parse: {detail}"));
                Reply::Unparsed(Unparsed {
                    line: None,
                    command: text.to_string(),
                    ok: false,
                    error: "parse",
                    detail,
                })
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

    /// The runner's status of the run now, and the load running.
    pub fn status(&self) -> PageStatus {
        let status = match &self.lesson {
            Some(p) => p.session().status(),
            None => self.sandbox.session().status(),
        };
        PageStatus {
            status,
            load: LoadView::of(self.cluster()),
        }
    }

    /// The quorum panel.
    pub fn quorum(&self) -> QuorumPanel {
        let quorum = QuorumView::of(self.cluster());
        QuorumPanel {
            summary: English.quorum_verdict(&quorum),
            quorum,
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

    /// The scrubber's view, or `None` in a lesson.
    pub fn timeline(&self) -> Option<TimelineView> {
        (!self.in_lesson()).then(|| TimelineView::of(&self.sandbox))
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

    /// The lesson panel, or `None` in the sandbox.
    pub fn lesson(&self) -> Option<LessonPanel> {
        let lesson = LessonView::of(self.lesson.as_deref()?);
        Some(LessonPanel {
            sentence: English.quorum_sentence(&lesson.quorum),
            lesson,
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

/// What a console command comes back as.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Reply {
    /// It ran: its result, as the runner's report has it.
    Ran(CommandResult),
    /// It did not parse; nothing changed.
    Unparsed(Unparsed),
}

/// A console line that does not parse.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unparsed {
    /// Always `None`: it never became a line of the run.
    pub line: Option<usize>,
    pub command: String,
    pub ok: bool,
    /// Always "parse".
    pub error: &'static str,
    /// The parser's message, with the column.
    pub detail: String,
}

/// The quorum panel: the arithmetic and its verdict in words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QuorumPanel {
    #[serde(flatten)]
    pub quorum: QuorumView,
    /// The verdict, rendered.
    pub summary: String,
}

/// The lesson panel: the lesson and its quorum sentence in words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LessonPanel {
    #[serde(flatten)]
    pub lesson: LessonView,
    pub sentence: String,
}
