//! The lesson panel, as the page and the presenter's view show it.

use serde::Serialize;

use crate::lessons::player::LessonPlayer;
use crate::session::view::QuorumView;
use crate::words::language::Language;

/// The lesson panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LessonView {
    pub id: String,
    /// Its number in the list ("6b").
    pub number: String,
    pub title: String,
    /// The design document's figures it stands for (empty for a lesson
    /// about a proposal only).
    pub figures: Vec<u32>,
    /// The design document's proposal it stands for, or `None`.
    pub proposal: Option<String>,
    /// The design document's comparison it sets side by side, or `None`.
    pub comparison: Option<String>,
    /// Raft's own story it tells (`lesson::RAFT_TOPICS`), or `None`.
    pub raft: Option<String>,
    pub summary: String,
    /// Steps done (0 at the start) of `steps`.
    pub position: usize,
    pub steps: usize,
    pub finished: bool,
    /// The cluster is exactly as the lesson left it at this pause.
    pub on_path: bool,
    /// The current step's narration (while a step plays: its `say`s so far).
    pub says: Vec<String>,
    /// The next step's narration, for a presenter's hint (empty at the
    /// lesson's end).
    pub next_says: Vec<String>,
    pub quorum: QuorumView,
    /// A step is playing (the page's Next shows it happen).
    pub playing: bool,
    /// The lesson's own `expect` lines that failed in this run so far.
    pub failed_checks: usize,
    /// "checked against etcd 3.4.23 and 3.5.1" in the panel's language, when
    /// every check of the lesson held on those real etcd releases (the
    /// real-etcd suite's file, `lessons/checked-against-etcd.txt`).
    pub checked: Option<String>,
}

impl LessonView {
    pub fn of(p: &LessonPlayer) -> LessonView {
        LessonView::of_in(p, Language::English)
    }

    /// The panel in `lang`: its title, summary and the step's narration.
    pub fn of_in(p: &LessonPlayer, lang: Language) -> LessonView {
        let l = p.lesson();
        LessonView {
            id: l.id.clone(),
            number: l.number(),
            title: l.header.title_in(lang).to_string(),
            figures: l.header.figures.clone(),
            proposal: l.header.proposal.clone(),
            comparison: l.header.comparison.clone(),
            raft: l.header.raft.clone(),
            summary: l.header.summary_in(lang).to_string(),
            checked: l.checked_against(lang),
            position: p.position(),
            steps: p.steps(),
            finished: p.finished(),
            on_path: p.on_path(),
            says: p.says().iter().map(|s| lang.said(s).into_owned()).collect(),
            next_says: l
                .step_says(p.position() + 1, lang)
                .iter()
                .map(|say| unfilled(say))
                .collect(),
            quorum: p.quorum(),
            playing: p.playing(),
            failed_checks: p.failed_checks(),
        }
    }
}

/// A `say` template with each `{placeholder}` shown as "…" (its value is
/// known only once the step has run) and `{{`, `}}` as braces.
fn unfilled(template: &str) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(c) = rest.chars().next() {
        if let Some(r) = rest.strip_prefix("{{") {
            out.push('{');
            rest = r;
        } else if let Some(r) = rest.strip_prefix("}}") {
            out.push('}');
            rest = r;
        } else if let (Some(r), Some(end)) = (rest.strip_prefix('{'), rest.find('}')) {
            out.push('…');
            rest = &r[end..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::session::view::{NodeView, QuorumView};

    #[test]
    fn a_hint_shows_placeholders_as_an_ellipsis_and_doubled_braces_as_braces() {
        assert_eq!(
            super::unfilled("n{leader} leads, {{x}} {n}"),
            "n… leads, {x} …"
        );
        assert_eq!(super::unfilled("plain"), "plain");
    }

    #[test]
    fn a_promoted_learner_is_a_voter_before_it_applies_its_promotion() {
        // Lesson 10, third pause: the leader applied "add voter 4"; node 4
        // itself has not yet. The cluster counts it: every view agrees.
        let lesson = crate::lessons::lesson::find("10-promoting-a-learner").unwrap();
        let s = lesson.session_at(3);
        let q = QuorumView::of(s.cluster());
        assert_eq!(q.voters, vec![1, 2, 3, 4]);
        assert!(q.learners.is_empty());
        let four = NodeView::of(s.cluster(), 4);
        assert!(!four.learner && four.catch_up.is_none(), "{four:?}");
        let status = s.status();
        assert!(
            !status.nodes.iter().any(|n| n.learner),
            "{:?}",
            status.nodes
        );
    }
}
