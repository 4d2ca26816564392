//! The lessons: their files, their header comments, and the list.

use std::fmt;
use std::sync::Arc;

use serde::Serialize;

use crate::lang::ast::{Command, Script};
use crate::lang::parse::parse_script;
use crate::session::exec::Session;
use crate::words::language::Language;

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
    lesson!("18-figure-8-an-old-entry-overwritten.scenario"),
    lesson!("18b-figure-8-the-leaders-own-entry-commits-it.scenario"),
    lesson!("19-the-election-restriction.scenario"),
    lesson!("20-a-learner-votes.scenario"),
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
        let end = body
            .find(&format!("\n{BUNDLE_MARK}"))
            .map_or(body.len(), |i| i + 1);
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

/// Raft's own story, which the design document takes for granted and a
/// hand on single messages shows: the name a `# raft:` header uses, and
/// what it stands for in English.
pub const RAFT_TOPICS: [(&str, &str); 3] = [
    (
        "figure-8",
        "Figure 8 of the Raft paper: an entry of an earlier term is committed only through one of the leader's own",
    ),
    (
        "election-restriction",
        "The election restriction of the Raft paper (section 5.4.1): a stale log wins no election",
    ),
    (
        "learner-votes",
        "etcd-raft's learners vote: a learner may be a voter without knowing it yet",
    ),
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
    /// Raft's own story the lesson tells, by its name in [`RAFT_TOPICS`].
    pub raft: Option<String>,
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
/// `# comparison:`, `# raft:`, `# summary:` and `# summary-ja:` comments
/// that come before the `cluster` line. Other comments are allowed.
/// Title and summary must appear once, and a figure list or a proposal (or
/// both), each at most once, all with non-empty values.
pub fn parse_header(src: &str) -> Result<LessonHeader, String> {
    let (mut title, mut figures, mut summary, mut proposal) = (None, None, None, None);
    let (mut comparison, mut raft) = (None, None);
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
            "raft" => &mut raft,
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
    if figures.is_none() && proposal.is_none() && comparison.is_none() && raft.is_none() {
        return Err("no '# figure:', '# proposal:', '# comparison:' or '# raft:' header".into());
    }
    if let Some(r) = &raft {
        if !RAFT_TOPICS.iter().any(|(name, _)| name == r) {
            let names: Vec<&str> = RAFT_TOPICS.iter().map(|(n, _)| *n).collect();
            return Err(format!(
                "raft {r:?} is not one of raftlab's Raft topics: {}",
                names.join(", ")
            ));
        }
    }
    if let Some(c) = &comparison {
        if !COMPARISONS.iter().any(|(name, _)| name == c) {
            let names: Vec<&str> = COMPARISONS.iter().map(|(n, _)| *n).collect();
            return Err(format!(
                "comparison {c:?} is not one of the design document's: {}",
                names.join(", ")
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
                names.join(", ")
            ));
        }
    }
    Ok(LessonHeader {
        title,
        figures,
        proposal,
        comparison,
        raft,
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
    /// Raft's own story it tells (a name in [`RAFT_TOPICS`]), or `None`.
    pub raft: Option<String>,
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
            raft: self.header.raft.clone(),
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
            Language::English => crate::words::text_en::lesson_checked(&releases),
            Language::Japanese => crate::words::text_ja::lesson_checked(&releases),
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
    pub fn step_says(&self, k: usize, lang: crate::words::language::Language) -> Vec<String> {
        if k == 0 || k > self.steps() {
            return Vec::new();
        }
        self.script.commands[self.stop(k - 1)..self.stop(k)]
            .iter()
            .filter_map(|c| match &*c.node {
                Command::Say { text, ja } => Some(lang.pick(text, ja.as_deref()).to_string()),
                _ => None,
            })
            .collect()
    }

    /// The command index just past step `position` (0 is the start).
    pub(crate) fn stop(&self, position: usize) -> usize {
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
            crate::words::text_en::lesson_checked(&two),
            "checked against etcd 3.4.23 and 3.5.1"
        );
        assert_eq!(
            crate::words::text_ja::lesson_checked(&two),
            "etcd 3.4.23と3.5.1で検証済み"
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
