//! Guided lessons: the learner design document's story, figure by figure.
//!
//! Each lesson is a scenario script in the top-level `lessons/` folder,
//! embedded here at build time (the page's module is built without them and
//! gets them from the page, see [`load`](lesson::load)). A lesson starts with header
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
//! [`PROPOSALS`](lesson::PROPOSALS)). A lesson about one of the document's comparisons names it
//! the same way: `# comparison: mirror-maker` (see [`COMPARISONS`](lesson::COMPARISONS)).
//! A lesson about Raft's own story, which the design document takes for
//! granted (figure 8 of the Raft paper, the election restriction, what a
//! learner does with a vote request), names it: `# raft: figure-8` (see
//! [`RAFT_TOPICS`](lesson::RAFT_TOPICS)).
//!
//! and its body tells the story with `say` (narration, each followed by a
//! `say-ja` line with the same words in Japanese), `pause` (the reader's
//! stopping points) and `expect` (the proof of every claim). The page shows
//! the title, summary and narration in its language (see
//! [`LessonHeader::title_in`](lesson::LessonHeader::title_in)); the run is the same in both.
//!
//! A [`LessonPlayer`](player::LessonPlayer) walks a lesson for the browser: `LessonPlayer::next`
//! runs up to and including the next `pause`, `LessonPlayer::back` and
//! `LessonPlayer::restart` rebuild the run from the `cluster` line (the
//! engine is deterministic, so replaying the script up to a pause gives
//! exactly the state the reader saw there).
//!
//! Console commands between pauses (`LessonPlayer::command`,
//! `LessonPlayer::advance`) act on the same cluster: the lesson then goes
//! on from where its script is, on whatever cluster the reader left, and its
//! `expect` lines may fail (each [`Step`](player::Step) lists them). `LessonPlayer::rejoin`
//! returns to the lesson's path: it rebuilds the run to the current pause and
//! forgets the detour.
//!
//! `lesson.rs` reads the lessons and their headers, `player.rs` walks one,
//! `view.rs` is the lesson panel.

pub mod lesson;
pub mod player;
pub mod view;

pub use lesson::{
    find, infos, infos_in, lessons, load, parse_bundle, parse_header, Lesson, LessonError,
    LessonHeader, LessonInfo, LessonSource, BUNDLE_MARK, COMPARISONS, LESSONS, PROPOSALS,
    RAFT_TOPICS,
};
pub use player::{surprises, LessonPlayer, Played, Step, StepLine};
