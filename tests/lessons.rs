//! The guided lessons in lessons/: every one runs headless on twenty seeds
//! with every `expect` holding, carries its header, and the lesson player's
//! next/back/restart land exactly where running the script to that pause does.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::path::PathBuf;

use raftlab::lang::ast::Command;
use raftlab::lang::say::Spoken;
use raftlab::lessons::{self, Lesson, LessonPlayer, StepLine, LESSONS};
use raftlab::session::exec::Session;
use raftlab::session::view::{self, QuorumView};
use raftlab::words::language::Language;
use raftlab::words::renderer::Renderer;
use raftlab::words::text_en::English;

const SEEDS: std::ops::RangeInclusive<u64> = 1..=20;

fn all() -> Vec<Lesson> {
    lessons::lessons().unwrap_or_else(|e| panic!("{e}"))
}

/// Failed expectations, commands that failed without `expect error=` right
/// after them, and safety violations.
fn problems(name: &str, session: &Session) -> Vec<String> {
    let mut out: Vec<String> = lessons::surprises(&session.results().to_vec())
        .into_iter()
        .map(|r| {
            format!(
                "{name}:{}: {}: {} {}",
                r.line,
                r.command,
                r.error.unwrap_or_default(),
                r.detail.unwrap_or_default()
            )
        })
        .collect();
    if session.results().iter().any(|r| r.pending) {
        out.push(format!("{name}: a write is still pending at the end"));
    }
    for c in session.fleet().clusters() {
        for v in c.world().violations() {
            out.push(format!("{name}: violation {}: {}", v.property, v.text));
        }
    }
    out
}

/// Whether `shown` is `template` with each `{placeholder}` replaced by some
/// text without a brace (and `{{`, `}}` by a brace).
fn fills(template: &str, shown: &str) -> bool {
    // The literal pieces between placeholders must appear in order.
    let mut pieces = vec![String::new()];
    let mut rest = template;
    while let Some(c) = rest.chars().next() {
        if let Some(r) = rest.strip_prefix("{{") {
            pieces.last_mut().unwrap().push('{');
            rest = r;
        } else if let Some(r) = rest.strip_prefix("}}") {
            pieces.last_mut().unwrap().push('}');
            rest = r;
        } else if c == '{' {
            let end = rest.find('}').expect("a closed placeholder");
            rest = &rest[end + 1..];
            pieces.push(String::new());
        } else {
            pieces.last_mut().unwrap().push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    let (first, last) = (&pieces[0], &pieces[pieces.len() - 1]);
    if !shown.starts_with(first.as_str()) || !shown.ends_with(last.as_str()) {
        return false;
    }
    if pieces.len() == 1 {
        return shown == first;
    }
    let mut at = first.len();
    for piece in &pieces[1..] {
        match shown[at..].find(piece.as_str()) {
            Some(i) => at += i + piece.len(),
            None => return false,
        }
    }
    true
}

#[test]
fn fills_matches_a_say_with_its_placeholders_filled_in() {
    assert!(fills("node {leader} leads", "node 3 leads"));
    assert!(fills("term {term}.", "term 12."));
    assert!(fills("{leader} and {{x}}", "none and {x}"));
    assert!(!fills("node {leader} leads", "node 3 led"));
    assert!(!fills("plain", "plain text"));
}

#[test]
fn every_lesson_file_is_embedded_in_order() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".scenario"))
        .collect();
    files.sort();
    let embedded: Vec<String> = LESSONS.iter().map(|l| l.file.to_string()).collect();
    assert_eq!(embedded, files);
    for l in LESSONS {
        let on_disk = std::fs::read_to_string(dir.join(l.file)).unwrap();
        assert_eq!(on_disk, l.text, "{} is stale", l.file);
    }
}

#[test]
fn every_lesson_holds_on_several_seeds() {
    // Every (lesson, seed) run is independent: share them out over the
    // machine's threads, so twenty seeds stay quick in a debug build.
    let runs: Vec<(Lesson, u64)> = all()
        .into_iter()
        .flat_map(|l| SEEDS.map(move |seed| (l.clone(), seed)))
        .collect();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut found = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((lesson, seed)) = runs.get(i) else {
                            break found;
                        };
                        let session = lesson.with_seed(*seed).run();
                        found.extend(problems(&format!("{} seed={seed}", lesson.id), &session));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    failures.sort();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_seed_on_the_cluster_line_is_what_with_seed_rewrites() {
    // Rewriting the text of the cluster line and with_seed give the same run.
    let lesson = all().remove(1);
    let text = lesson.source.replacen("seed=1", "seed=4", 1);
    let by_text = Session::from_script(&text).unwrap();
    let by_api = lesson.with_seed(4).run();
    assert_eq!(by_text.report(), by_api.report());
}

#[test]
fn every_lesson_has_a_header_narration_a_pause_and_a_check() {
    let mut ids = BTreeSet::new();
    for lesson in all() {
        let h = &lesson.header;
        let id = &lesson.id;
        assert!(ids.insert(id.clone()), "{id} twice");
        assert!(h.title.len() > 5, "{id}: title {:?}", h.title);
        assert!(h.summary.len() > 20, "{id}: summary {:?}", h.summary);
        assert!(
            !h.figures.is_empty()
                || h.proposal.is_some()
                || h.comparison.is_some()
                || h.raft.is_some(),
            "{id}: no figure, no proposal, no comparison and no Raft topic"
        );
        assert!(lesson.says().count() >= 1, "{id}: no say");
        assert!(lesson.pauses() >= 1, "{id}: no pause");
        assert!(
            lesson
                .source
                .lines()
                .any(|l| l.trim_start().starts_with("expect ")),
            "{id}: no expect"
        );
        // The narration names the figure it stands for.
        let says: String = lesson.says().collect::<Vec<_>>().join(" ");
        assert!(
            h.figures.is_empty()
                || h.figures
                    .iter()
                    .any(|f| says.contains(&format!("Figure {f}"))
                        || says.contains(&format!("Figures {f}"))
                        || says.contains(&format!("figure {f}"))),
            "{id}: the narration does not name figure {:?}",
            h.figures
        );
        // A lesson of Raft's own story names the Raft paper, or etcd-raft.
        if let Some(topic) = &h.raft {
            assert!(
                says.contains("Raft paper") || says.contains("etcd-raft"),
                "{id}: the narration names neither the Raft paper nor etcd-raft"
            );
            if topic == "figure-8" {
                assert!(says.contains("Figure 8"), "{id}: figure 8 unnamed");
            }
        }
        // A comparison's lesson says it is the document's comparison.
        if h.comparison.is_some() {
            assert!(
                says.contains("design document's comparison"),
                "{id}: the narration does not name the comparison"
            );
        }
        // A proposal's lesson says which of the document's proposals it is,
        // by its place in the document, and that etcd has not shipped it.
        if let Some(p) = &h.proposal {
            let k = lessons::PROPOSALS
                .iter()
                .position(|(name, _)| name == p)
                .unwrap();
            let nth = ["first", "second", "third", "fourth"][k];
            assert!(
                says.contains(&format!("design document's {nth} proposal")),
                "{id}: the narration does not name the {nth} proposal"
            );
            assert!(says.contains("etcd has not shipped it"), "{id}");
        }
        // The file name starts with its reading order number.
        assert!(id.chars().take(2).all(|c| c.is_ascii_digit()), "{id}");
    }
}

#[test]
fn every_step_says_one_short_thing() {
    // Issue 13: one idea a step, in short sentences. Every step (up to and
    // including its pause) has narration, at most 40 words as written (a
    // placeholder counts as one word).
    for lesson in all() {
        let mut step: Vec<&str> = Vec::new();
        let mut k = 1;
        let check = |step: &mut Vec<&str>, k: usize| {
            let words = step
                .iter()
                .map(|s| s.split_whitespace().count())
                .sum::<usize>();
            assert!(!step.is_empty(), "{} step {k}: no say", lesson.id);
            assert!(words <= 40, "{} step {k}: {words} words", lesson.id);
            step.clear();
        };
        for c in &lesson.script.commands {
            match &*c.node {
                Command::Say { text, .. } => step.push(text),
                Command::Pause => {
                    check(&mut step, k);
                    k += 1;
                }
                _ => {}
            }
        }
        if k <= lesson.steps() {
            check(&mut step, k);
        }
    }
}

#[test]
fn a_fault_undone_before_the_pause_is_told_of() {
    // What a step says is what the student sees at its pause: a step that
    // cuts, partitions or isolates and heals again before its pause leaves
    // no cut on the canvas, so its sentence must tell of the heal (lesson
    // 16 once narrated a cut link the canvas no longer showed).
    for lesson in all() {
        let mut k = 1;
        let mut faulted = false;
        let mut undone = false;
        let mut text = String::new();
        for c in &lesson.script.commands {
            match &*c.node {
                Command::Cut { .. } | Command::Partition(_) | Command::Isolate(_) => {
                    faulted = true;
                    undone = false;
                }
                Command::Heal { .. } if faulted => undone = true,
                Command::Say { text: t, .. } => text.push_str(t),
                Command::Pause => {
                    assert!(
                        !undone || text.contains("heal"),
                        "{} step {k} heals what it cut before its pause, and its sentence does not say so: {text}",
                        lesson.id
                    );
                    (k, faulted, undone) = (k + 1, false, false);
                    text.clear();
                }
                _ => {}
            }
        }
    }
}

#[test]
fn a_node_that_sees_itself_otherwise_at_a_pause_is_told_of() {
    // Under a node whose own configuration is not the cluster's (a learner
    // promoted that has not applied it yet) the canvas says "sees itself as
    // a learner": a step that pauses on one says so, and checks it (lessons
    // 10 and 15 once spoke only of the cluster's view there).
    let (mut told, mut untold) = (0, Vec::new());
    for lesson in all() {
        for k in 1..=lesson.pauses() {
            let at = lesson.session_at(k);
            let odd: Vec<u64> = at
                .fleet()
                .clusters()
                .iter()
                .flat_map(view::nodes)
                .filter(|n| n.sees_itself_learner.is_some())
                .map(|n| n.id)
                .collect();
            if odd.is_empty() {
                continue;
            }
            let says = lesson.step_says(k, Language::English).join(" ");
            if says.contains("sees itself") {
                told += 1;
            } else {
                untold.push(format!("{} step {k}: nodes {odd:?}: {says}", lesson.id));
            }
        }
    }
    assert!(
        untold.is_empty(),
        "steps that pause on a node seeing itself otherwise than the cluster does, and do not say so:\n{}",
        untold.join("\n")
    );
    assert!(
        told >= 3,
        "lessons 10, 15 and 20 pause on such a node: {told}"
    );
}

#[test]
fn the_lessons_cover_figures_1_to_13() {
    let covered: BTreeSet<u32> = all()
        .iter()
        .flat_map(|l| l.header.figures.clone())
        .collect();
    let missing: Vec<u32> = (1..=13).filter(|f| !covered.contains(f)).collect();
    assert!(missing.is_empty(), "no lesson for figures {missing:?}");
    assert!(covered.iter().all(|f| (1..=13).contains(f)), "{covered:?}");
}

#[test]
fn the_lessons_cover_every_proposal_once() {
    let named: Vec<String> = all()
        .iter()
        .filter_map(|l| l.header.proposal.clone())
        .collect();
    let expected: Vec<String> = lessons::PROPOSALS
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    assert_eq!(
        named, expected,
        "one lesson per proposal, in the document's order"
    );
}

#[test]
fn the_header_parser_refuses_incomplete_headers() {
    assert!(lessons::parse_header("# title: t\n# figure: 1\ncluster voters=1\n").is_err());
    assert!(lessons::parse_header("# title: t\n# summary: s\ncluster voters=1\n").is_err());
    assert!(lessons::parse_header("# title: t\n# figure: x\n# summary: s\n").is_err());
    assert!(lessons::parse_header("# title: a\n# title: b\n# figure: 1\n# summary: s\n").is_err());
    let h = lessons::parse_header(
        "# A comment.\n# title: T\n# figure: 8, 9\n# summary: S\ncluster voters=1\n# title: late\n",
    )
    .unwrap();
    assert_eq!(h.title, "T");
    assert_eq!(h.figures, vec![8, 9]);
    assert_eq!(h.summary, "S");
    assert_eq!(h.proposal, None);
    // A proposal instead of figures; an unknown proposal, or a second one,
    // is refused.
    let h = lessons::parse_header("# title: T\n# proposal: failover\n# summary: S\n").unwrap();
    assert_eq!(
        (h.figures.len(), h.proposal.as_deref()),
        (0, Some("failover"))
    );
    let h = lessons::parse_header("# title: T\n# figure: 9\n# proposal: read-only\n# summary: S\n")
        .unwrap();
    assert_eq!(
        (h.figures, h.proposal.as_deref()),
        (vec![9], Some("read-only"))
    );
    let e = lessons::parse_header("# title: T\n# proposal: teleport\n# summary: S\n").unwrap_err();
    assert!(
        e.contains("learner-by-default, auto-promotion, failover, read-only"),
        "{e}"
    );
    assert!(lessons::parse_header(
        "# title: T\n# proposal: failover\n# proposal: failover\n# summary: S\n"
    )
    .is_err());
    let e = lessons::parse_header("# title: T\n# summary: S\ncluster voters=1\n").unwrap_err();
    assert!(e.contains("figure") && e.contains("proposal"), "{e}");
}

#[test]
fn next_stops_at_each_pause_with_the_state_of_the_script_run_to_there() {
    for lesson in all() {
        let mut player = LessonPlayer::new(lesson.clone());
        assert_eq!(player.position(), 0);
        assert_eq!(player.status(), lesson.session_at(0).status());
        assert!(player.steps() >= lesson.pauses());
        let mut said = Vec::new();
        while !player.finished() {
            let step = player.next();
            let k = player.position();
            assert_eq!(step.position, k);
            assert!(
                step.surprises.is_empty(),
                "{}: {:?}",
                lesson.id,
                step.surprises
            );
            let at = lesson.session_at(k);
            assert_eq!(player.status(), at.status(), "{} step {k}", lesson.id);
            assert_eq!(player.session().results(), at.results());
            assert_eq!(player.says(), step.says.as_slice());
            // The presenter's hint of a step holds the step's says as written.
            for lang in [Language::English, Language::Japanese] {
                let hint = lesson.step_says(k, lang);
                assert_eq!(hint.len(), step.says.len(), "{} step {k}", lesson.id);
                for (shown, template) in step.says.iter().zip(&hint) {
                    let shown = lang.said(shown);
                    assert!(
                        fills(template, &shown),
                        "{}: {shown:?} is not {template:?}",
                        lesson.id
                    );
                }
            }
            said.extend(step.says.clone());
            let says_in_lines: Vec<&Spoken> = step
                .lines
                .iter()
                .filter_map(|l| match l {
                    StepLine::Say(s) => Some(s),
                    StepLine::Trace(_) => None,
                })
                .collect();
            assert_eq!(says_in_lines.len(), step.says.len());
            assert_eq!(step.finished, k == player.steps());
        }
        assert_eq!(player.position(), player.steps());
        assert!(lesson
            .step_says(player.steps() + 1, Language::English)
            .is_empty());
        assert!(lesson.step_says(0, Language::English).is_empty());
        // Every say was shown once, in order, its placeholders filled in.
        let written: Vec<(&str, Option<&str>)> = lesson.says_ja().collect();
        assert_eq!(said.len(), written.len(), "{}", lesson.id);
        for (shown, (template, template_ja)) in said.iter().zip(&written) {
            assert!(
                fills(template, &shown.en),
                "{}: {shown:?} is not {template:?}",
                lesson.id
            );
            // The Japanese line is kept as written, and filled with the
            // same run's facts in Japanese words when it is said.
            match (template_ja, &shown.ja) {
                (Some(t), Some(written)) => {
                    assert_eq!(t, written, "{}", lesson.id);
                    let ja = Language::Japanese.said(shown);
                    assert!(fills(t, &ja), "{}: {ja:?} is not {t:?}", lesson.id)
                }
                (None, None) => {}
                other => panic!("{}: say-ja and its words differ: {other:?}", lesson.id),
            }
        }
        // The whole lesson equals the script run in one go.
        assert_eq!(player.session().report(), lesson.run().report());
        // Past the end, next does nothing.
        let before = player.status();
        let step = player.next();
        assert!(step.finished && step.results.is_empty());
        assert_eq!(player.status(), before);
    }
}

#[test]
fn each_pause_matches_the_script_text_cut_after_that_pause() {
    // Independent of the player's own replay: the source text up to the
    // k-th `pause` line, run by the runner's entry point.
    for lesson in all() {
        let pause_lines: Vec<usize> = lesson
            .source
            .lines()
            .enumerate()
            .filter(|(_, l)| l.trim() == "pause")
            .map(|(i, _)| i + 1)
            .collect();
        assert_eq!(pause_lines.len(), lesson.pauses(), "{}", lesson.id);
        let mut player = LessonPlayer::new(lesson.clone());
        for (k, &line) in pause_lines.iter().enumerate() {
            player.next();
            assert_eq!(player.position(), k + 1);
            let text: String = lesson
                .source
                .lines()
                .take(line)
                .map(|l| format!("{l}\n"))
                .collect();
            let cut = Session::from_script(&text).unwrap();
            assert_eq!(
                player.status(),
                cut.status(),
                "{} at the pause on line {line}",
                lesson.id
            );
            assert_eq!(player.session().results(), cut.results());
        }
    }
}

#[test]
fn back_and_restart_rebuild_the_same_state() {
    for lesson in all() {
        let mut player = LessonPlayer::new(lesson.clone());
        let mut steps = Vec::new();
        let mut statuses = vec![player.status()];
        while !player.finished() {
            steps.push(player.next());
            statuses.push(player.status());
        }
        // Walk back to the start, one step at a time.
        for k in (0..player.steps()).rev() {
            let step = player.back();
            assert_eq!(player.position(), k);
            assert_eq!(player.status(), statuses[k], "{} back to {k}", lesson.id);
            if k > 0 {
                assert_eq!(step, steps[k - 1], "{} back to {k}", lesson.id);
                assert_eq!(player.says(), steps[k - 1].says.as_slice());
            } else {
                assert!(player.says().is_empty());
            }
        }
        // Forward again, then restart.
        let step = player.next();
        assert_eq!(step, steps[0]);
        player.next();
        player.restart();
        assert_eq!(player.position(), 0);
        assert_eq!(player.status(), statuses[0]);
        let again = player.next();
        assert_eq!(again, steps[0], "{}", lesson.id);
    }
}

#[test]
fn a_console_detour_goes_on_from_the_script_and_rejoin_returns_to_the_path() {
    let lesson = lessons::find("09-adding-a-learner").unwrap();
    let mut player = LessonPlayer::new(lesson.clone());
    player.next();
    player.next();
    let k = player.position();
    let on_path = player.status();
    let line = player.next_line();
    // The reader crashes two voters from the console.
    player.command("crash 2").unwrap();
    player.command("crash 3").unwrap();
    assert!(player.command("crash 99").is_err());
    player.advance(3000);
    assert!(!player.on_path());
    assert_eq!(player.position(), k);
    assert_eq!(player.next_line(), line, "the script's place is kept");
    assert_ne!(player.status(), on_path);
    // Going on from there runs the script's next commands on the reader's
    // cluster; its expectations may not hold any more, and the step says so.
    let step = player.next();
    assert_eq!(player.position(), k + 1);
    assert!(!step.surprises.is_empty(), "{step:?}");
    // rejoin rebuilds the lesson's own state at this pause.
    player.rejoin();
    assert!(player.on_path());
    assert_eq!(player.position(), k + 1);
    assert_eq!(player.status(), lesson.session_at(k + 1).status());
}

#[test]
fn the_quorum_view_tells_the_arithmetic() {
    // Lesson 06b: after the unsafe add, 4 voters, quorum 3, 2 reachable.
    let lesson = lessons::find("06b-add-voter-during-partition-unsafe").unwrap();
    let mut player = LessonPlayer::new(lesson);
    player.next();
    let q = player.quorum();
    assert_eq!((q.voters.len(), q.quorum), (3, 2));
    assert_eq!(q.reachable, vec![1, 2]);
    assert!(q.has_quorum);
    assert_eq!(q.leader, Some(1));
    player.next();
    let q: QuorumView = player.quorum();
    assert_eq!((q.voters.len(), q.quorum), (4, 3));
    assert_eq!(q.reachable, vec![1, 2]);
    assert!(!q.has_quorum);
    let s = English.quorum_sentence(&q);
    assert!(s.contains("Quorum: 3") && s.contains("1 short"), "{s}");
    assert_eq!(player.status().reachable, vec![1, 2]);
    player.next();
    let q = player.quorum();
    assert_eq!(q.leader, None);
    assert!(q.from.is_some());
    let s = English.quorum_sentence(&q);
    assert!(s.contains("No leader"), "{s}");
}

#[test]
fn the_browser_list_has_every_lesson() {
    let infos = lessons::infos();
    assert_eq!(infos.len(), LESSONS.len());
    assert!(infos.iter().all(|i| i.steps >= 2));
    let json = serde_json::to_value(&infos).unwrap();
    assert!(json[0]["title"].is_string() && json[0]["figures"].is_array());
    // The page reads `figures` for every lesson; a proposal's lesson has an
    // empty list and names its proposal, the others have `proposal: null`.
    assert!(json[0]["proposal"].is_null());
    let by_default = infos
        .iter()
        .position(|i| i.proposal.as_deref() == Some("learner-by-default"))
        .unwrap();
    assert_eq!(json[by_default]["proposal"], "learner-by-default");
    assert!(json[by_default]["figures"].as_array().unwrap().is_empty());
    assert!(LessonPlayer::open("01-new-member-overloads-leader.scenario").is_some());
    assert!(LessonPlayer::open("no-such-lesson").is_none());
    let step = LessonPlayer::open("03-isolated-leader-steps-down")
        .unwrap()
        .next();
    let json = serde_json::to_value(&step).unwrap();
    assert_eq!(json["lines"][0]["kind"], "trace");
    assert!(json["lines"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["kind"] == "say"));
}

#[test]
fn a_lessons_say_names_this_runs_leader_term_and_value() {
    const TEXT: &str = "# title: Placeholders\n# figure: 1\n# summary: S\n\
        cluster voters=1,2,3 seed=2\n\
        wait-until leader\n\
        put k v1\n\
        get k\n\
        say \"node {leader} leads term {term}; it read {value} at {time}s; {{{{braces}}}}\"\n\
        pause\n\
        get nothing\n\
        say \"now {value}, error {error}\"\n";
    let lesson = Lesson::parse("xx-placeholders.scenario", TEXT).unwrap();
    let mut player = LessonPlayer::new(lesson);
    let step = player.next();
    let status = player.status();
    let leader = status.leader.unwrap();
    let time = format!("{:.2}", status.time_ms as f64 / 1000.0);
    let said = format!(
        "node {leader} leads term {}; it read v1 at {time}s; {{{{braces}}}}",
        status.term
    );
    let said = Spoken::en(said);
    assert_eq!(step.says, std::slice::from_ref(&said));
    assert!(
        step.lines.contains(&StepLine::Say(said)),
        "{:?}",
        step.lines
    );
    // The read's value is in its trace line, as the page's log shows it.
    let traced: Vec<String> = step
        .lines
        .iter()
        .filter_map(|l| match l {
            StepLine::Trace(line) => Some(English.trace(line)),
            StepLine::Say(_) => None,
        })
        .collect();
    assert!(
        traced
            .iter()
            .any(|t| t.ends_with("> get k : ok: value \"v1\"")),
        "{traced:?}"
    );
    let step = player.next();
    assert_eq!(step.says, [Spoken::en("now none, error none")]);
}

/// Whether `s` has Japanese in it: a kana or a kanji.
fn is_japanese(s: &str) -> bool {
    s.chars().any(|c| {
        matches!(c,
            '\u{3040}'..='\u{309f}' // hiragana
            | '\u{30a0}'..='\u{30ff}' // katakana
            | '\u{4e00}'..='\u{9fff}') // kanji
    })
}

/// The placeholders a say text names, in order.
fn placeholders(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text.replace("{{", "").replace("}}", "");
    while let Some(start) = rest.find('{') {
        let end = start + rest[start..].find('}').expect("closed");
        let name = rest[start + 1..end].to_string();
        out.push(name);
        rest = rest[end + 1..].to_string();
    }
    let mut names: Vec<&str> = raftlab::lang::say::PLACEHOLDERS
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| out.iter().any(|o| o == n))
        .collect();
    names.sort();
    names
}

#[test]
fn every_lesson_speaks_japanese_too() {
    for lesson in lessons::lessons().unwrap() {
        let id = &lesson.id;
        let h = &lesson.header;
        for (what, ja) in [("title-ja", &h.title_ja), ("summary-ja", &h.summary_ja)] {
            let ja = ja
                .as_deref()
                .unwrap_or_else(|| panic!("{id}: no '# {what}:' header"));
            assert!(is_japanese(ja), "{id}: {what} is not Japanese: {ja:?}");
        }
        let mut step = 0;
        let mut chars = 0;
        for c in &lesson.script.commands {
            match &*c.node {
                Command::Say { text, ja } => {
                    let ja = ja.as_deref().unwrap_or_else(|| {
                        panic!("{id} line {}: say {text:?} has no say-ja line", c.line)
                    });
                    assert!(
                        is_japanese(ja),
                        "{id} line {}: not Japanese: {ja:?}",
                        c.line
                    );
                    // The same facts in both languages.
                    assert_eq!(
                        placeholders(text),
                        placeholders(ja),
                        "{id} line {}: the placeholders differ",
                        c.line
                    );
                    chars += ja.chars().count();
                }
                Command::Pause => {
                    // About as long as 40 English words.
                    assert!(chars <= 160, "{id} step {}: {chars} characters", step + 1);
                    step += 1;
                    chars = 0;
                }
                _ => {}
            }
        }
        assert!(chars <= 160, "{id} last step: {chars} characters");
    }
}

#[test]
fn a_lesson_runs_the_same_in_both_languages() {
    use raftlab::app::engine::{Engine, LessonMove};
    use raftlab::words::language::Language;
    for lesson in lessons::lessons().unwrap() {
        let mut runs = Vec::new();
        for lang in Language::ALL {
            let mut e = Engine::from_script("cluster voters=1\n").unwrap();
            e.set_language(lang);
            e.open_lesson(&lesson.id).unwrap();
            let mut says = Vec::new();
            for _ in 0..lesson.steps() {
                says.extend(e.lesson_step(LessonMove::Next).unwrap().says);
            }
            let l = e.lesson().unwrap();
            assert_eq!(
                l.lesson.title,
                lesson.header.title_in(lang),
                "{}",
                lesson.id
            );
            let status = serde_json::to_string(&e.status()).unwrap();
            runs.push((status, e.history(), says));
        }
        let (en, ja) = (&runs[0], &runs[1]);
        assert_eq!(en.0, ja.0, "{}: the report differs by language", lesson.id);
        assert_eq!(en.1, ja.1, "{}: the history differs by language", lesson.id);
        let written: Vec<_> = lesson.says_ja().collect();
        assert_eq!(en.2.len(), written.len(), "{}", lesson.id);
        for ((en, ja), (_, template_ja)) in en.2.iter().zip(&ja.2).zip(&written) {
            if template_ja.is_some() {
                assert!(
                    is_japanese(ja) && !is_japanese(en),
                    "{}: {en:?} / {ja:?}",
                    lesson.id
                );
            }
        }
    }
}

#[test]
fn switching_language_mid_lesson_rerenders_the_step_and_the_log_speaks_it() {
    use raftlab::app::engine::{Engine, LessonMove};
    use raftlab::app::log::LogKind;
    use raftlab::words::language::Language;
    let mut e = Engine::from_script("cluster voters=1\n").unwrap();
    e.set_language(Language::Japanese);
    e.open_lesson("01-new-member-overloads-leader").unwrap();
    let step = e.lesson_step(LessonMove::Next).unwrap();
    assert!(step.says[0].starts_with("図1。"), "{:?}", step.says);
    let said: Vec<_> = step
        .lines
        .iter()
        .filter(|l| l.kind == LogKind::Say)
        .collect();
    assert!(said[0].text.starts_with("図1。"), "{said:?}");
    let panel = e.lesson().unwrap();
    assert_eq!(
        panel.lesson.title,
        "新しいメンバーがリーダーに過負荷をかける"
    );
    assert!(panel.lesson.summary.contains("クォーラム"));
    assert_eq!(panel.lesson.says, step.says);
    e.set_language(Language::English);
    let panel = e.lesson().unwrap();
    assert_eq!(panel.lesson.position, 1);
    assert_eq!(panel.lesson.title, "A new member overloads the leader");
    assert!(panel.lesson.says[0].starts_with("Figure 1. Three voters. Node 1 leads term 2;"));
    assert!(!is_japanese(&panel.lesson.says[0]));
    // The list follows the language asked for.
    assert_eq!(
        lessons::infos_in(Language::Japanese)[0].title,
        "新しいメンバーがリーダーに過負荷をかける"
    );
    assert_eq!(
        lessons::infos()[0].title,
        "A new member overloads the leader"
    );
}
