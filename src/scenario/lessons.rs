//! Guided lessons: the learner design document's story, figure by figure.
//!
//! Each lesson is a scenario script in the top-level `lessons/` folder,
//! embedded here at build time (the page's module is built without them and
//! gets them from the page, see [`load`]). A lesson starts with header
//! comments,
//!
//! ```text
//! # title: A new member overloads the leader
//! # title-ja: 新しいメンバーがリーダーに過負荷をかける
//! # figure: 1
//! # summary: One sentence.
//! # summary-ja: 一文。
//! cluster voters=1,2,3 seed=1
//! ```
//!
//! A lesson about one of the design document's proposals for future
//! releases (its second half, which etcd has not shipped) names the proposal
//! instead of, or besides, figures: `# proposal: learner-by-default` (see
//! [`PROPOSALS`]). A lesson about one of the document's comparisons names it
//! the same way: `# comparison: mirror-maker` (see [`COMPARISONS`]).
//!
//! and its body tells the story with `say` (narration, each followed by a
//! `say-ja` line with the same words in Japanese), `pause` (the reader's
//! stopping points) and `expect` (the proof of every claim). The page shows
//! the title, summary and narration in its language (see
//! [`LessonHeader::title_in`]); the run is the same in both.
//!
//! A [`LessonPlayer`] walks a lesson for the browser: [`LessonPlayer::next`]
//! runs up to and including the next `pause`, [`LessonPlayer::back`] and
//! [`LessonPlayer::restart`] rebuild the run from the `cluster` line (the
//! engine is deterministic, so replaying the script up to a pause gives
//! exactly the state the reader saw there).
//!
//! Console commands between pauses ([`LessonPlayer::command`],
//! [`LessonPlayer::advance`]) act on the same cluster: the lesson then goes
//! on from where its script is, on whatever cluster the reader left, and its
//! `expect` lines may fail (each [`Step`] lists them). [`LessonPlayer::rejoin`]
//! returns to the lesson's path: it rebuilds the run to the current pause and
//! forgets the detour.

use crate::raft::joined::Joined;
use crate::raft::substr;
use std::fmt;
use std::sync::Arc;

use serde::Serialize;

use super::ast::{Command, Script};
use super::exec::{Running, Session};
use super::lang::Language;
use super::narrate::{Line, Said};
use super::parse::parse_script;
use super::report::{CommandResult, Status};
use super::say::Spoken;
use super::slice::{Progress, Stop};
use super::view::QuorumView;
use crate::server::ErrorCode;

/// One lesson file, as embedded in the binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LessonSource {
    /// The file name in `lessons/`, e.g. `01-new-member-overloads-leader.scenario`.
    pub file: &'static str,
    /// The whole script.
    pub text: &'static str,
}

#[cfg(any(not(target_arch = "wasm32"), feature = "embedded-lessons"))]
macro_rules! lesson {
    ($file:literal) => {
        LessonSource {
            file: $file,
            text: include_str!(concat!("../../lessons/", $file)),
        }
    };
}

/// Every lesson, in reading order (the file names' order). Empty in the
/// page's module, which is built without them and gets them through
/// [`load`].
#[cfg(any(not(target_arch = "wasm32"), feature = "embedded-lessons"))]
pub static LESSONS: &[LessonSource] = &[
    lesson!("01-new-member-overloads-leader.scenario"),
    lesson!("01b-the-same-join-on-etcds-streams.scenario"),
    lesson!("01c-the-same-join-as-a-learner.scenario"),
    lesson!("02-partition-leader-keeps-quorum.scenario"),
    lesson!("03-isolated-leader-steps-down.scenario"),
    lesson!("04-four-voters-split-3-1.scenario"),
    lesson!("05-four-voters-split-2-2.scenario"),
    lesson!("06-add-voter-during-partition-refused.scenario"),
    lesson!("06b-add-voter-during-partition-unsafe.scenario"),
    lesson!("07-one-node-cluster-adds-a-voter.scenario"),
    lesson!("07b-one-node-cluster-misconfigured-member.scenario"),
    lesson!("08-misconfigured-and-failed-member.scenario"),
    lesson!("09-adding-a-learner.scenario"),
    lesson!("09b-adding-a-learner-during-a-partition.scenario"),
    lesson!("10-promoting-a-learner.scenario"),
    lesson!("10b-the-ninety-percent-line.scenario"),
    lesson!("11-what-a-learner-refuses.scenario"),
    lesson!("12-learner-mistakes-are-reversible.scenario"),
    lesson!("13-learner-by-default.scenario"),
    lesson!("14-automatic-promotion.scenario"),
    lesson!("15-standby-failover.scenario"),
    lesson!("16-read-only-learners.scenario"),
    lesson!("17-learner-or-mirror-maker.scenario"),
];
#[cfg(all(target_arch = "wasm32", not(feature = "embedded-lessons")))]
pub static LESSONS: &[LessonSource] = &[];

/// The file the real-etcd suite writes (`tests/real_etcd.rs`): each lesson
/// whose every check ran and held on real etcd, with the releases, one
/// lesson a line (`09-adding-a-learner 3.4.23 3.5.1`). Embedded as the
/// lessons are; in the page's bundle under this name.
pub const CHECKED_FILE: &str = "checked-against-etcd.txt";

#[cfg(any(not(target_arch = "wasm32"), feature = "embedded-lessons"))]
static CHECKED: &str = include_str!("../../lessons/checked-against-etcd.txt");
#[cfg(all(target_arch = "wasm32", not(feature = "embedded-lessons")))]
static CHECKED: &str = "";

/// The etcd releases lesson `id`'s checks all held on, by the suite's file
/// (`text`): empty when it was not checked.
pub fn checked_in(text: &str, id: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| {
            let mut words = l.split_whitespace();
            (words.next() == Some(id)).then(|| words.map(str::to_string).collect())
        })
        .unwrap_or_default()
}

/// The first line of each lesson in a bundle of them (`pkg/lessons.txt`,
/// written by `tools/build-pkg.sh`): this, the file name, a newline, then the
/// file as it is.
pub const BUNDLE_MARK: &str = "@@ lesson ";

/// The lessons a bundle holds, in its order: each file's text after its
/// [`BUNDLE_MARK`] line, up to the next one.
pub fn parse_bundle(bundle: &str) -> Result<Vec<(String, String)>, String> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut rest = bundle;
    if !rest.starts_with(BUNDLE_MARK) {
        return Err(format!("a lesson bundle starts with \"{BUNDLE_MARK}\""));
    }
    while let Some(after) = rest.strip_prefix(BUNDLE_MARK) {
        let (file, body) = after
            .split_once('\n')
            .ok_or("a lesson bundle's last file name has no line of its own")?;
        let end = substr::find(body, &format!("\n{BUNDLE_MARK}")).map_or(body.len(), |i| i + 1);
        out.push((file.to_string(), body[..end].to_string()));
        rest = &body[end..];
    }
    Ok(out)
}

thread_local! {
    /// The lessons [`load`] was given (the page's module only).
    static LOADED: std::cell::OnceCell<&'static [LessonSource]> =
        const { std::cell::OnceCell::new() };
    /// The real-etcd suite's file [`load`] was given with them.
    static LOADED_CHECKED: std::cell::OnceCell<&'static str> =
        const { std::cell::OnceCell::new() };
}

/// Gives a module built without the lessons their bundle (the page does
/// once, before its first lesson); returns how many lessons it holds. Once
/// loaded, or in a build that embeds them, the lessons stay as they are.
pub fn load(bundle: &str) -> Result<usize, String> {
    if !LESSONS.is_empty() {
        return Ok(LESSONS.len());
    }
    if let Some(n) = LOADED.with(|l| l.get().map(|l| l.len())) {
        return Ok(n);
    }
    let mut files = parse_bundle(bundle)?;
    if let Some(i) = files.iter().position(|(file, _)| file == CHECKED_FILE) {
        let (_, text) = files.remove(i);
        LOADED_CHECKED.with(|c| {
            c.get_or_init(|| String::leak(text));
        });
    }
    let sources: Vec<LessonSource> = files
        .into_iter()
        .map(|(file, text)| LessonSource {
            file: String::leak(file),
            text: String::leak(text),
        })
        .collect();
    let n = sources.len();
    LOADED.with(|l| {
        l.get_or_init(|| Vec::leak(sources));
    });
    Ok(n)
}

/// The real-etcd suite's file: embedded, or as loaded.
fn checked_text() -> &'static str {
    if CHECKED.is_empty() {
        LOADED_CHECKED.with(|c| c.get().copied().unwrap_or(""))
    } else {
        CHECKED
    }
}

/// The lessons: embedded, or as loaded.
fn sources() -> &'static [LessonSource] {
    if LESSONS.is_empty() {
        LOADED.with(|l| l.get().copied().unwrap_or(&[]))
    } else {
        LESSONS
    }
}

/// The design document's comparisons: the name a `# comparison:` header
/// uses, and the section's title in English.
pub const COMPARISONS: [(&str, &str); 1] = [(
    "mirror-maker",
    "Learner members compared with the mirror maker",
)];

/// The design document's proposals for future releases ("今後のリリースに向けた
/// 機能案"), in its order: the name a `# proposal:` header uses, and the
/// section's title in English.
pub const PROPOSALS: [(&str, &str); 4] = [
    (
        "learner-by-default",
        "Make the learner the uniform, default state of new members",
    ),
    (
        "auto-promotion",
        "Fully automate the promotion to a voting member",
    ),
    ("failover", "Make the learner a standby failover node"),
    ("read-only", "Make the learner read-only"),
];

/// Why a lesson file is not a lesson.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonError {
    pub file: String,
    pub message: String,
}

impl fmt::Display for LessonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

impl std::error::Error for LessonError {}

/// The header comments of a lesson.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LessonHeader {
    pub title: String,
    /// The design document's figures the lesson stands for (may be empty
    /// for a lesson about a proposal).
    pub figures: Vec<u32>,
    /// The design document's proposal the lesson stands for, by its name in
    /// [`PROPOSALS`].
    pub proposal: Option<String>,
    /// The design document's comparison the lesson stands for, by its name
    /// in [`COMPARISONS`].
    pub comparison: Option<String>,
    pub summary: String,
    /// `# title-ja:`, the title in Japanese.
    pub title_ja: Option<String>,
    /// `# summary-ja:`, the summary in Japanese.
    pub summary_ja: Option<String>,
}

impl LessonHeader {
    /// The title in `lang` (English when no translation was written).
    pub fn title_in(&self, lang: Language) -> &str {
        match (lang, &self.title_ja) {
            (Language::Japanese, Some(t)) => t,
            _ => &self.title,
        }
    }

    /// The summary in `lang` (English when no translation was written).
    pub fn summary_in(&self, lang: Language) -> &str {
        match (lang, &self.summary_ja) {
            (Language::Japanese, Some(s)) => s,
            _ => &self.summary,
        }
    }
}

/// Reads the `# title:`, `# title-ja:`, `# figure:`, `# proposal:`,
/// `# summary:` and `# summary-ja:` comments that come before the `cluster` line. Other comments are allowed.
/// Title and summary must appear once, and a figure list or a proposal (or
/// both), each at most once, all with non-empty values.
pub fn parse_header(src: &str) -> Result<LessonHeader, String> {
    let (mut title, mut figures, mut summary, mut proposal) = (None, None, None, None);
    let mut comparison = None;
    let (mut title_ja, mut summary_ja) = (None, None);
    for (n, raw) in src.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let Some(comment) = line.strip_prefix('#') else {
            break; // the cluster line: the header is over
        };
        let Some((key, value)) = comment.split_once(':') else {
            continue;
        };
        let value = value.trim();
        let slot = match key.trim() {
            "title" => &mut title,
            "figure" | "figures" => &mut figures,
            "summary" => &mut summary,
            "title-ja" => &mut title_ja,
            "summary-ja" => &mut summary_ja,
            "proposal" => &mut proposal,
            "comparison" => &mut comparison,
            _ => continue,
        };
        if value.is_empty() {
            return Err(format!("line {}: empty {}", n + 1, key.trim()));
        }
        if slot.replace(value.to_string()).is_some() {
            return Err(format!("line {}: a second {}", n + 1, key.trim()));
        }
    }
    let title = title.ok_or("no '# title:' header")?;
    let summary = summary.ok_or("no '# summary:' header")?;
    if figures.is_none() && proposal.is_none() && comparison.is_none() {
        return Err("no '# figure:', '# proposal:' or '# comparison:' header".into());
    }
    if let Some(c) = &comparison {
        if !COMPARISONS.iter().any(|(name, _)| name == c) {
            let names: Vec<&str> = COMPARISONS.iter().map(|(n, _)| *n).collect();
            return Err(format!(
                "comparison {c:?} is not one of the design document's: {}",
                names.joined(", ")
            ));
        }
    }
    let figures = match figures {
        None => Vec::new(),
        Some(list) => list
            .split(',')
            .map(|f| {
                f.trim()
                    .parse::<u32>()
                    .map_err(|_| format!("figure {:?} is not a number", f.trim()))
            })
            .collect::<Result<Vec<u32>, String>>()?,
    };
    if let Some(p) = &proposal {
        if !PROPOSALS.iter().any(|(name, _)| name == p) {
            let names: Vec<&str> = PROPOSALS.iter().map(|(n, _)| *n).collect();
            return Err(format!(
                "proposal {p:?} is not one of the design document's: {}",
                names.joined(", ")
            ));
        }
    }
    Ok(LessonHeader {
        title,
        figures,
        proposal,
        comparison,
        summary,
        title_ja,
        summary_ja,
    })
}

/// A parsed lesson: its header, its script and where its steps end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lesson {
    /// The file name without `.scenario`, e.g. `01-new-member-overloads-leader`.
    pub id: String,
    pub header: LessonHeader,
    /// The script as written.
    pub source: &'static str,
    pub script: Script,
    /// For each step, the index in `script.commands` just past its end: past
    /// each `pause`, and the end of the script if commands follow the last
    /// pause.
    stops: Vec<usize>,
}

/// What the browser lists for a lesson.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LessonInfo {
    pub id: String,
    /// Its number in the list, as the page shows it ("6b" for `06b-…`).
    pub number: String,
    pub title: String,
    /// Empty for a lesson about a proposal only.
    pub figures: Vec<u32>,
    /// The design document's proposal it stands for (a name in
    /// [`PROPOSALS`]), or `None`.
    pub proposal: Option<String>,
    /// The design document's comparison it stands for (a name in
    /// [`COMPARISONS`]), or `None`.
    pub comparison: Option<String>,
    pub summary: String,
    /// How many times `next` runs before the lesson is finished.
    pub steps: usize,
    /// "checked against etcd 3.4.23 and 3.5.1", in the reader's language,
    /// when every check of the lesson ran and held on those real etcd
    /// releases (the real-etcd suite's file, [`CHECKED_FILE`]); `None`
    /// otherwise.
    pub checked: Option<String>,
}

impl Lesson {
    /// Parses a lesson file: its header, then its script.
    pub fn parse(file: &str, text: &'static str) -> Result<Lesson, LessonError> {
        let error = |message: String| LessonError {
            file: file.to_string(),
            message,
        };
        let header = parse_header(text).map_err(error)?;
        let script = parse_script(text).map_err(|e| error(e.to_string()))?;
        let mut stops: Vec<usize> = script
            .commands
            .iter()
            .enumerate()
            .filter(|(_, c)| matches!(*c.node, Command::Pause))
            .map(|(i, _)| i + 1)
            .collect();
        if stops.last() != Some(&script.commands.len()) {
            stops.push(script.commands.len());
        }
        Ok(Lesson {
            id: without_extension(file).to_string(),
            header,
            source: text,
            script,
            stops,
        })
    }

    pub fn info(&self) -> LessonInfo {
        self.info_in(Language::English)
    }

    /// What the browser lists for it, in `lang`.
    pub fn info_in(&self, lang: Language) -> LessonInfo {
        LessonInfo {
            id: self.id.clone(),
            number: self.number(),
            title: self.header.title_in(lang).to_string(),
            figures: self.header.figures.clone(),
            proposal: self.header.proposal.clone(),
            comparison: self.header.comparison.clone(),
            summary: self.header.summary_in(lang).to_string(),
            steps: self.steps(),
            checked: self.checked_against(lang),
        }
    }

    /// "checked against etcd …" in `lang`, when the real-etcd suite found
    /// every check of it holding on real etcd.
    pub fn checked_against(&self, lang: Language) -> Option<String> {
        let releases = checked_in(checked_text(), &self.id);
        if releases.is_empty() {
            return None;
        }
        Some(match lang {
            Language::English => super::text_en::lesson_checked(&releases),
            Language::Japanese => super::text_ja::lesson_checked(&releases),
        })
    }

    /// Its number in the list: the id's prefix without leading zeros
    /// ("6b" for `06b-add-voter-during-partition-unsafe`).
    pub fn number(&self) -> String {
        let prefix = self.id.split('-').next().unwrap_or("");
        let trimmed = prefix.trim_start_matches('0');
        if trimmed.is_empty() { prefix } else { trimmed }.to_string()
    }

    /// The same lesson on another seed (as if the `cluster` line said so).
    pub fn with_seed(&self, seed: u64) -> Lesson {
        let mut lesson = self.clone();
        lesson.script.cluster.seed = seed;
        lesson
    }

    /// How many `next` calls finish the lesson.
    pub fn steps(&self) -> usize {
        self.stops.len()
    }

    /// How many `pause` lines the script has.
    pub fn pauses(&self) -> usize {
        self.script
            .commands
            .iter()
            .filter(|c| matches!(*c.node, Command::Pause))
            .count()
    }

    /// The `say` texts in script order.
    pub fn says(&self) -> impl Iterator<Item = &str> {
        self.says_ja().map(|(en, _)| en)
    }

    /// The `say` texts in script order, each with its `say-ja` text.
    pub fn says_ja(&self) -> impl Iterator<Item = (&str, Option<&str>)> {
        self.script.commands.iter().filter_map(|c| match &*c.node {
            Command::Say { text, ja } => Some((text.as_str(), ja.as_deref())),
            _ => None,
        })
    }

    /// The `say` texts of step `k` as written, placeholders unfilled (1 is
    /// the first step; empty past the last): a presenter's hint of what
    /// comes next, before the step is played.
    pub fn step_says(&self, k: usize, lang: super::lang::Language) -> Vec<String> {
        if k == 0 || k > self.steps() {
            return Vec::new();
        }
        self.script.commands[self.stop(k - 1)..self.stop(k)]
            .iter()
            .filter_map(|c| match &*c.node {
                Command::Say { text, ja } => {
                    Some(super::say::in_language(lang, text, ja.as_deref()).to_string())
                }
                _ => None,
            })
            .collect()
    }

    /// The command index just past step `position` (0 is the start).
    fn stop(&self, position: usize) -> usize {
        match position {
            0 => 0,
            p => self.stops[p.min(self.stops.len()) - 1],
        }
    }

    /// A fresh session at the lesson's `cluster` line.
    pub fn session(&self) -> Session {
        Session::new(&self.script.cluster)
    }

    /// The session after running the script up to and including its
    /// `position`-th step (0: nothing but the `cluster` line).
    pub fn session_at(&self, position: usize) -> Session {
        let mut session = self.session();
        for c in &self.script.commands[..self.stop(position)] {
            session.execute(c.line, &c.text, Arc::clone(&c.node));
        }
        session
    }

    /// The whole lesson run headless.
    pub fn run(&self) -> Session {
        Session::run(&self.script)
    }
}

/// Every embedded lesson, parsed, in reading order.
pub fn lessons() -> Result<Vec<Lesson>, LessonError> {
    sources()
        .iter()
        .map(|s| Lesson::parse(s.file, s.text))
        .collect()
}

/// The lesson with this id (file name without `.scenario`), or file name.
/// `name.trim_end_matches(".scenario")`.
fn without_extension(mut name: &str) -> &str {
    while let Some(n) = name.strip_suffix(".scenario") {
        name = n;
    }
    name
}

pub fn find(id: &str) -> Option<Lesson> {
    let id = without_extension(id);
    sources()
        .iter()
        .find(|s| without_extension(s.file) == id)
        .and_then(|s| Lesson::parse(s.file, s.text).ok())
}

/// The list the browser shows; a lesson that does not parse is left out
/// (the tests make sure none is).
pub fn infos() -> Vec<LessonInfo> {
    infos_in(Language::English)
}

/// The list the browser shows, in `lang`.
pub fn infos_in(lang: Language) -> Vec<LessonInfo> {
    sources()
        .iter()
        .filter_map(|s| Lesson::parse(s.file, s.text).ok())
        .map(|l| l.info_in(lang))
        .collect()
}

/// One line of a step's narration, in the order it happened.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", content = "line", rename_all = "lowercase")]
pub enum StepLine {
    /// The lesson's own words (`say`, with its `say-ja`).
    Say(Spoken),
    /// What the cluster did: an event, or a command's result.
    Trace(Box<Line>),
}

/// What one `next` (or `back`, `restart`) did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// Steps done so far (0 at the start).
    pub position: usize,
    /// Steps in the lesson.
    pub steps: usize,
    /// No step is left.
    pub finished: bool,
    /// The `say` texts of this step: the narration panel's text.
    pub says: Vec<Spoken>,
    /// Says and trace lines, interleaved as they happened.
    pub lines: Vec<StepLine>,
    /// The results of this step's commands (without `say` and `pause`).
    pub results: Vec<CommandResult>,
    /// Commands of this step that failed without the script expecting it,
    /// and expectations that did not hold: empty on the lesson's path.
    pub surprises: Vec<CommandResult>,
}

/// Plays a lesson one step (one `pause`) at a time.
#[derive(Debug, Clone)]
pub struct LessonPlayer {
    lesson: Lesson,
    session: Session,
    /// The next command of the script to run.
    cursor: usize,
    /// Steps done.
    position: usize,
    /// The `say` texts of the last step run.
    says: Vec<Spoken>,
    /// Console commands and idle time since the lesson's path.
    detours: usize,
    /// The step being played, while [`LessonPlayer::play`] shows it.
    playing: Option<Playing>,
    /// The lesson's own `expect` lines that failed in this run so far.
    failed_checks: usize,
}

/// A step being played a command at a time (the page's Next, shown as it
/// happens).
#[derive(Debug, Clone)]
struct Playing {
    /// The command index just past the step.
    end: usize,
    /// The session's result count when the step began.
    first: usize,
    /// Says and trace lines not taken yet.
    lines: Vec<StepLine>,
    /// The command under way, started and not over.
    running: Option<Running>,
}

/// What [`LessonPlayer::play`] got done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Played {
    /// The command under way ran to the time asked and goes on.
    Running,
    /// A command ended (the step may have more).
    Command,
    /// Every command of the step has run: [`LessonPlayer::end_step`]
    /// closes it.
    Step,
}

impl LessonPlayer {
    /// A player at the start of `lesson`: the cluster of its `cluster`
    /// line, at time 0, before the first command.
    pub fn new(lesson: Lesson) -> LessonPlayer {
        let session = lesson.session();
        LessonPlayer {
            lesson,
            session,
            cursor: 0,
            position: 0,
            says: Vec::new(),
            detours: 0,
            playing: None,
            failed_checks: 0,
        }
    }

    /// A player for the embedded lesson with this id.
    pub fn open(id: &str) -> Option<LessonPlayer> {
        find(id).map(LessonPlayer::new)
    }

    pub fn lesson(&self) -> &Lesson {
        &self.lesson
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Direct access to the session. Anything done through it is a detour
    /// the player does not see; prefer [`LessonPlayer::command`].
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    pub fn status(&self) -> Status {
        self.session.status()
    }

    /// Steps done so far: 0 at the start, [`LessonPlayer::steps`] at the end.
    pub fn position(&self) -> usize {
        self.position
    }

    /// Steps in the lesson (one per `pause`, plus the tail after the last).
    pub fn steps(&self) -> usize {
        self.lesson.steps()
    }

    /// `pause` lines in the lesson.
    pub fn pauses(&self) -> usize {
        self.lesson.pauses()
    }

    pub fn finished(&self) -> bool {
        self.position >= self.steps()
    }

    /// The `say` texts of the current step, for the narration panel.
    pub fn says(&self) -> &[Spoken] {
        &self.says
    }

    /// The current step's narration as one text (paragraphs separated by a
    /// blank line), in English; empty at the start.
    pub fn say(&self) -> String {
        self.say_in(Language::English)
    }

    /// The current step's narration as one text, in `lang`.
    pub fn say_in(&self, lang: Language) -> String {
        let says: Vec<&str> = self.says.iter().map(|s| s.get(lang)).collect();
        says.joined("\n\n")
    }

    /// The script line the lesson will run next, if any.
    pub fn next_line(&self) -> Option<usize> {
        self.lesson.script.commands.get(self.cursor).map(|c| c.line)
    }

    /// Whether the cluster is exactly as the lesson left it at this pause
    /// (no console command and no idle time since).
    pub fn on_path(&self) -> bool {
        self.detours == 0
    }

    /// Runs the lesson's commands up to and including the next `pause` (or
    /// to the end). At the end it does nothing and says so. While a step
    /// plays, it runs the rest of it at once (the page's second Next).
    // Named for the browser's Next button; a player is not an iterator (a
    // finished lesson still answers).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Step {
        if !self.begin_step() {
            let mut step = self.blank_step();
            // Narration the browser did not collect (a console command's,
            // say) is still told.
            for line in self.session.take_narration() {
                step.lines.push(StepLine::Trace(Box::new(line)));
            }
            step.finished = true;
            return step;
        }
        self.end_step()
    }

    /// Whether a step is being played (begun and not ended).
    pub fn playing(&self) -> bool {
        self.playing.is_some()
    }

    /// The lesson's own `expect` lines that failed in this run so far.
    pub fn failed_checks(&self) -> usize {
        self.failed_checks
    }

    /// Begins playing the next step: nothing runs yet
    /// ([`LessonPlayer::play`] runs it). False at the end of the lesson;
    /// true (and nothing changes) while a step is playing.
    pub fn begin_step(&mut self) -> bool {
        if self.playing.is_some() {
            return true;
        }
        if self.finished() {
            return false;
        }
        self.says.clear();
        // Narration the browser did not collect (a console command's, say)
        // comes first, as it happened first.
        let lines = self
            .session
            .take_narration()
            .into_iter()
            .map(|line| StepLine::Trace(Box::new(line)))
            .collect();
        self.playing = Some(Playing {
            end: self.lesson.stop(self.position + 1),
            first: self.session.results().len(),
            lines,
            running: None,
        });
        true
    }

    /// The command the playing step runs now or next; `None` when no step
    /// plays or its commands have all run.
    pub fn current(&self) -> Option<&Command> {
        let p = self.playing.as_ref()?;
        match &p.running {
            Some(r) => Some(r.command()),
            None => (self.cursor < p.end).then(|| &*self.lesson.script.commands[self.cursor].node),
        }
    }

    /// Plays one command of the step: the one under way, or the next. A
    /// `wait` or `wait-until` runs to simulated time `until` at most; any
    /// other command runs whole. Playing a step in any slices gives exactly
    /// the run of [`LessonPlayer::next`].
    pub fn play(&mut self, until: u64) -> Played {
        let Some(p) = self.playing.as_mut() else {
            return Played::Step;
        };
        let mut running = match p.running.take() {
            Some(r) => r,
            None => {
                if self.cursor >= p.end {
                    return Played::Step;
                }
                let c = &self.lesson.script.commands[self.cursor];
                self.session.begin(c.line, &c.text, Arc::clone(&c.node))
            }
        };
        let over = self.session.proceed(&mut running, until);
        let played = if over {
            let result = self.session.finish(running);
            let c = &self.lesson.script.commands[self.cursor];
            if matches!(*c.node, Command::Expect(_))
                && result.error == Some(ErrorCode::ExpectFailed.as_str())
            {
                self.failed_checks += 1;
            }
            self.cursor += 1;
            Played::Command
        } else {
            p.running = Some(running);
            Played::Running
        };
        for line in self.session.take_narration() {
            let line = match line.said {
                // A `say`, its placeholders filled in by this run.
                Said::Say(text) => {
                    self.says.push(text.clone());
                    StepLine::Say(text)
                }
                _ => StepLine::Trace(Box::new(line)),
            };
            p.lines.push(line);
        }
        played
    }

    /// The playing step's lines told since the last call.
    pub fn take_lines(&mut self) -> Vec<StepLine> {
        self.playing
            .as_mut()
            .map(|p| std::mem::take(&mut p.lines))
            .unwrap_or_default()
    }

    /// Runs what is left of the playing step at once and closes it: the
    /// step, with the lines not taken yet. With no step playing, the step
    /// as `next` returns it at the end of the lesson.
    pub fn end_step(&mut self) -> Step {
        if self.playing.is_none() {
            return self.next();
        }
        while self.play(u64::MAX) != Played::Step {}
        let Some(p) = self.playing.take() else {
            return self.blank_step();
        };
        self.position += 1;
        let mut step = self.blank_step();
        step.lines = p.lines;
        let results = &self.session.results()[p.first..];
        step.results = results
            .iter()
            .filter(|r| !is_narration(&r.command))
            .cloned()
            .collect();
        step.surprises = surprises(results);
        step
    }

    /// Whether a result of the lesson's own is one the lesson did not ask
    /// for (as [`surprises`] tells, looking at the script's next command
    /// rather than at a result that may not exist yet).
    pub fn surprising(&self, r: &CommandResult) -> bool {
        if r.error == Some(ErrorCode::ExpectFailed.as_str()) {
            return true;
        }
        if r.ok || r.pending {
            return false;
        }
        let commands = &self.lesson.script.commands;
        let next = commands
            .iter()
            .position(|c| c.line == r.line)
            .and_then(|i| commands.get(i + 1));
        !next.is_some_and(|n| n.text.starts_with("expect error="))
    }

    /// Goes back one step: rebuilds the run from the start to the previous
    /// pause. The returned step is that pause's step, as `next` showed it.
    /// While a step plays, back is the pause it started from.
    pub fn back(&mut self) -> Step {
        if self.playing() {
            return self.goto(self.position);
        }
        self.goto(self.position.saturating_sub(1))
    }

    /// Back to the start: the cluster of the `cluster` line at time 0.
    pub fn restart(&mut self) -> Step {
        self.goto(0)
    }

    /// Returns to the lesson's path after console commands: rebuilds the run
    /// to the current pause, forgetting the detour.
    pub fn rejoin(&mut self) -> Step {
        self.goto(self.position)
    }

    /// Rebuilds the run from the start and plays `position` steps; returns
    /// the last of them (a blank step at position 0).
    pub fn goto(&mut self, position: usize) -> Step {
        let position = position.min(self.steps());
        self.session = self.lesson.session();
        self.cursor = 0;
        self.position = 0;
        self.says.clear();
        self.detours = 0;
        self.playing = None;
        self.failed_checks = 0;
        let mut step = self.blank_step();
        // Earlier steps replay unseen; the last one is returned, lines and
        // all, exactly as `next` returned it the first time.
        while self.position < position {
            step = self.next();
        }
        step
    }

    /// Runs one console command on the lesson's cluster. The lesson goes on
    /// from where its script is; see [`LessonPlayer::rejoin`].
    pub fn command(&mut self, line: &str) -> Result<CommandResult, super::parse::ParseError> {
        self.settle();
        let result = self.session.command(line)?;
        self.detours += 1;
        Ok(result)
    }

    /// Queues a console command on the lesson's cluster to run in slices
    /// ([`LessonPlayer::run_slice`]): a long one keeps the page drawing and
    /// can be cancelled. A detour like [`LessonPlayer::command`]; a line
    /// that does not parse changes nothing.
    pub fn queue_command(&mut self, line: &str) -> Result<(), super::parse::ParseError> {
        self.settle();
        self.session.queue_command(line)?;
        self.session.stopped = None;
        self.detours += 1;
        Ok(())
    }

    /// A console command queued with [`LessonPlayer::queue_command`] is
    /// not over yet. (A playing step's command runs in the session too,
    /// paced by the page: that is not a console command.)
    pub fn is_running(&self) -> bool {
        self.playing.is_none() && self.session.is_running()
    }

    /// Runs the queued console command for at most `work` units of work.
    pub fn run_slice(&mut self, work: u64) -> Progress {
        self.session.run_slice(work)
    }

    pub fn progress(&self) -> Progress {
        self.session.progress()
    }

    /// Stops the queued console command: the cluster is as before it, and
    /// the narration says so. False if none was running.
    pub fn cancel(&mut self) -> bool {
        self.session.cancel().is_some()
    }

    /// The result of the last console command that ended, unless it was
    /// stopped (then the stop).
    pub fn last_command(&self) -> Result<Option<&CommandResult>, &Stop> {
        match self.session.stopped() {
            Some(stop) => Err(stop),
            None => Ok(self.session.results().last()),
        }
    }

    /// Lets simulated time pass outside the script (the browser's clock
    /// running while the reader looks). This is a detour like a command.
    pub fn advance(&mut self, ms: u64) {
        self.settle();
        if ms > 0 {
            self.session.advance(ms);
            self.detours += 1;
        }
    }

    /// Runs to the next narrated event outside the script (the page's Step
    /// button), at most `limit_ms` ahead: a detour like
    /// [`LessonPlayer::advance`] when time moved. Returns whether something
    /// was narrated.
    pub fn step_event(&mut self, limit_ms: u64) -> bool {
        self.settle();
        let before = self.session.now();
        let narrated = self.session.step_event(limit_ms);
        if narrated || self.session.now() > before {
            self.detours += 1;
        }
        narrated
    }

    /// Ends a playing step at once before anything else acts on the
    /// cluster; its lines are told with the session's next narration.
    fn settle(&mut self) {
        if self.playing.is_none() {
            return;
        }
        let step = self.end_step();
        let mut lines: Vec<Line> = Vec::new();
        for l in step.lines {
            match l {
                StepLine::Say(text) => lines.push(Line::say(self.session.now(), text)),
                StepLine::Trace(line) => lines.push(*line),
            }
        }
        lines.extend(self.session.take_narration());
        self.session.push_narration(lines);
    }

    /// The quorum arithmetic now.
    pub fn quorum(&self) -> QuorumView {
        QuorumView::of(self.session.cluster())
    }

    fn blank_step(&self) -> Step {
        Step {
            position: self.position,
            steps: self.steps(),
            finished: self.finished(),
            says: self.says.clone(),
            lines: Vec::new(),
            results: Vec::new(),
            surprises: Vec::new(),
        }
    }
}

fn is_narration(command: &str) -> bool {
    command == "pause" || command.starts_with("say ") || command == "say"
}

/// Results the script did not ask for: a failed `expect`, or a command that
/// failed when the next command is not `expect error=...`.
pub fn surprises(results: &[CommandResult]) -> Vec<CommandResult> {
    results
        .iter()
        .enumerate()
        .filter(|(i, r)| {
            let expected = results
                .get(i + 1)
                .is_some_and(|n| n.command.starts_with("expect error="));
            r.error == Some("expect-failed") || (!r.ok && !r.pending && !expected)
        })
        .map(|(_, r)| r.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bundle_of_the_lesson_files_gives_them_back() {
        let bundle: String = LESSONS
            .iter()
            .map(|l| format!("{BUNDLE_MARK}{}\n{}", l.file, l.text))
            .collect();
        let files = parse_bundle(&bundle).unwrap();
        assert_eq!(files.len(), LESSONS.len());
        for ((file, text), l) in files.iter().zip(LESSONS) {
            assert_eq!((file.as_str(), text.as_str()), (l.file, l.text));
        }
        assert!(parse_bundle("").is_err());
        assert!(parse_bundle("cluster voters=1\n").is_err());
        assert!(parse_bundle("@@ lesson a.scenario").is_err());
        // Embedded lessons stay as they are.
        assert_eq!(
            load("@@ lesson x.scenario\ncluster voters=1\n"),
            Ok(LESSONS.len())
        );
        assert_eq!(sources(), LESSONS);
    }

    #[test]
    fn the_lessons_checked_against_etcd_are_said_in_their_headers() {
        let text = "# comment\n09-adding-a-learner 3.4.23 3.5.1\n06-x 3.4.23\n";
        assert_eq!(checked_in(text, "09-adding-a-learner"), ["3.4.23", "3.5.1"]);
        assert_eq!(checked_in(text, "06-x"), ["3.4.23"]);
        assert!(checked_in(text, "06").is_empty());
        let two = ["3.4.23".to_string(), "3.5.1".to_string()];
        assert_eq!(
            super::super::text_en::lesson_checked(&two),
            "checked against etcd 3.4.23 and 3.5.1"
        );
        assert_eq!(
            super::super::text_ja::lesson_checked(&two),
            "etcd 3.4.23 と 3.5.1 で検証済み"
        );
        // The suite's file names lessons that exist, each with releases,
        // and their headers say so.
        let all = lessons().unwrap();
        for line in CHECKED
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let id = line.split_whitespace().next().unwrap_or("");
            let lesson = all.iter().find(|l| l.id == id);
            assert!(lesson.is_some(), "{CHECKED_FILE} names {id}, no lesson");
            let info = lesson.map(|l| l.info_in(Language::English)).unwrap();
            let said = info.checked.unwrap_or_default();
            assert!(said.starts_with("checked against etcd 3."), "{said}");
        }
    }
}
