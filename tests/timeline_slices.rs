//! The page's runs in slices: a timeline run a slice of work at a time is the
//! same run as in one go (entries, checkpoints, marks, narration, state), a
//! long `wait` takes many slices, and a cancel or the memory budget leaves a
//! usable run that ends with the last command that finished.
#![cfg(not(target_arch = "wasm32"))]

use raftlab::lang::parse::parse_script;
use raftlab::session::narrate::Line;
use raftlab::session::stop::Progress;
use raftlab::session::timeline::{Timeline, TimelineConfig};

const SCRIPTS: [&str; 4] = [
    "cluster voters=1,2,3 seed=2\nwait-until leader\nput a 1\nwait 2s\ncrash 2\nwait 1500ms\nstart 2\nwait-until caught-up=2\nget a\nexpect value=1\n",
    "cluster voters=1,2,3 seed=5\nwait-until leader\nload rate=200/s size=1KB\nwait 7s\nmember add 4 --learner\nwait 3s\nmember promote 4\nisolate 1\nwait 4s\nheal\nload stop\nsay \"done at {leader}\"\nwait 1s\n",
    "cluster voters=1,2,3,4,5 seed=9 latency=5ms..50ms\nwait 3s\npartition 1,2|3,4,5\nwait-until leader within=10s\nput k v timeout=2s\nwait 2s\nheal\nwait-until caught-up=1\nstatus\n",
    "cluster voters=1\nwait 10ms\nwait 0ms\nput x y\nwait 5s\n",
];

/// Everything a run leaves that the page shows or shares.
fn fingerprint(t: &Timeline) -> String {
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{}\n{}\n{}",
        t.entries(),
        t.marks(),
        t.checkpoint_times(),
        t.leader_changes(),
        t.script(),
        t.status_json(),
        t.report_json()
    )
}

/// Runs `src` queued, in slices of `work`; the timeline, its narration, and
/// the progress after each slice.
fn sliced(src: &str, work: u64) -> (Timeline, Vec<Line>, Vec<Progress>) {
    let config = TimelineConfig {
        checkpoint_every_ms: 700,
        max_checkpoints: 8,
        saved_branch_checkpoints: 4,
    };
    let mut t = Timeline::queued_with(&parse_script(src).unwrap(), config);
    let mut narration = t.take_narration();
    let mut progress = Vec::new();
    while t.is_running() {
        progress.push(t.run_slice(work));
        narration.extend(t.take_narration());
    }
    (t, narration, progress)
}

#[test]
fn a_timeline_run_in_slices_is_the_run_in_one_go() {
    for src in SCRIPTS {
        let (whole, said, _) = sliced(src, u64::MAX);
        assert!(whole.stopped().is_none(), "{src}");
        for work in [1, 3, 50, 997] {
            let (t, s, progress) = sliced(src, work);
            assert_eq!(fingerprint(&t), fingerprint(&whole), "work {work}: {src}");
            assert_eq!(s, said, "narration, work {work}: {src}");
            if work < 50 {
                assert!(
                    progress.len() > 20,
                    "work {work}: {} slices",
                    progress.len()
                );
            }
        }
        // The one-go helper is the same run too.
        let plain = Timeline::run_script_with(
            &parse_script(src).unwrap(),
            TimelineConfig {
                checkpoint_every_ms: 700,
                max_checkpoints: 8,
                saved_branch_checkpoints: 4,
            },
        );
        assert_eq!(fingerprint(&plain), fingerprint(&whole), "{src}");
    }
}

#[test]
fn a_long_wait_is_split_by_work_and_its_progress_moves() {
    let src = "cluster voters=1,2,3\nwait-until leader\nwait 120s\nput a b\n";
    let (t, _, progress) = sliced(src, 200);
    assert!(progress.len() > 30, "only {} slices", progress.len());
    let during: Vec<&Progress> = progress
        .iter()
        .filter(|p| p.running && p.done_ms > 0)
        .collect();
    assert!(during.len() > 20, "{} slices inside the wait", during.len());
    for w in progress.windows(2) {
        assert!(w[1].done_ms >= w[0].done_ms, "{:?}", w);
        assert!(w[1].commands_done >= w[0].commands_done);
    }
    // Inside the wait the total counts what is left of it.
    assert!(during.iter().any(|p| p.total_ms >= 120_000), "{during:?}");
    let last = progress.last().unwrap();
    assert!(!last.running);
    assert_eq!((last.commands_done, last.commands_total), (3, 3));
    assert!(t.now() > 120_000);
}

#[test]
fn cancel_in_a_wait_leaves_the_run_that_ended_before_it() {
    let src = "cluster voters=1,2,3 seed=4\nwait-until leader\nput a b\nwait 3600s\nput c d\n";
    let mut t = Timeline::queued(&parse_script(src).unwrap());
    let mut slices = 0;
    while t.progress().done_ms < 20_000 {
        assert!(t.run_slice(50).running);
        slices += 1;
    }
    assert!(slices > 5, "{slices}");
    let stop = t.cancel().expect("a run was going on");
    assert_eq!(stop.reason, "cancelled");
    assert_eq!(stop.line, Some(4));
    assert_eq!(stop.command.as_deref(), Some("wait 3600s"));
    assert_eq!(stop.commands_left, 2);
    assert!(stop.reached_ms >= 20_000);
    assert!(!t.is_running());
    assert!(t.cancel().is_none(), "nothing left to cancel");
    // The run is the script up to `put a b`, as if it ended there.
    let before =
        Timeline::from_script("cluster voters=1,2,3 seed=4\nwait-until leader\nput a b\n").unwrap();
    assert_eq!(stop.time_ms, before.now());
    assert_eq!(t.now(), before.now());
    assert_eq!(t.script(), before.script());
    assert_eq!(t.status_json(), before.status_json());
    assert_eq!(t.entries(), before.entries());
    assert!(t.is_live());
    // The log says so, in a line of its own.
    let said: Vec<String> = t
        .take_narration()
        .iter()
        .filter_map(|l| match &l.said {
            raftlab::session::narrate::Said::Stopped(s) => Some(s.message.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].starts_with("cancelled at line 4"), "{said:?}");
    // And it goes on: a console command works, the time travel too.
    let r = t.command("get a").unwrap();
    assert!(r.ok, "{r:?}");
    assert_eq!(r.value, Some(Some("b".into())));
    t.advance(5_000);
    let end = t.end();
    assert!(t.seek(end / 2) <= end);
    assert_eq!(t.go_live(), end);
}

#[test]
fn cancel_in_a_request_and_between_commands() {
    // A put that cannot commit (no quorum) waits for its timeout; cut in
    // the middle it is undone.
    let src = "cluster voters=1,2,3 seed=4\nwait-until leader\ncrash 1\ncrash 2\ncrash 3\nstart 1\nput a b timeout=60s\n";
    let mut t = Timeline::queued(&parse_script(src).unwrap());
    while t.last_result().is_none_or(|r| r.command != "start 1") {
        t.run_slice(1);
    }
    let at = t.now();
    t.run_slice(50);
    assert!(t.is_running());
    let stop = t.cancel().unwrap();
    assert_eq!(stop.command.as_deref(), Some("put a b timeout=60s"));
    assert_eq!(t.now(), at);
    assert_eq!(t.entries().last().unwrap().text, "start 1");
    // Cancelled between two commands: nothing is undone, the rest dropped.
    let mut t = Timeline::queued(&parse_script(src).unwrap());
    t.run_slice(1);
    let done = t.progress().commands_done;
    let stop = t.cancel().unwrap();
    assert_eq!(t.entries().len(), done);
    assert!(stop.commands_left > 0);
}

#[test]
fn the_memory_budget_stops_a_run_with_a_message_and_leaves_it_usable() {
    let src = "cluster voters=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\nload rate=10000/s size=1MB\nwait 3600s\nwait 3600s\nwait 3600s\n";
    let mut t = Timeline::queued(&parse_script(src).unwrap());
    t.set_memory_budget(Some(24 << 20));
    let mut slices = 0;
    while t.is_running() {
        t.run_slice(20_000);
        slices += 1;
        assert!(slices < 100_000, "the budget never stopped it");
    }
    let stop = t.stopped().expect("stopped by the budget").clone();
    assert_eq!(stop.reason, "memory", "{stop:?}");
    assert!(stop.message.contains("memory budget"), "{}", stop.message);
    assert!(stop.counted_bytes.unwrap() > 24 << 20);
    // It ends with the last command that finished (the load started).
    assert_eq!(t.now(), stop.time_ms);
    assert!(t.entries().iter().any(|e| e.text.starts_with("load rate")));
    t.set_memory_budget(None);
    let r = t.command("load stop").unwrap();
    assert!(r.ok, "{r:?}");
}

#[test]
fn a_hundred_thousand_lines_run_in_slices_and_cancel() {
    let mut src = String::from("cluster voters=1,2,3\n");
    for i in 0..100_000 {
        if i % 2 == 0 {
            src.push_str("wait 10ms\n");
        } else {
            src.push_str(&format!("put k{} v\n", i % 7));
        }
    }
    let mut t = Timeline::queued(&parse_script(&src).unwrap());
    let mut slices = 0;
    while t.progress().commands_done < 2_000 {
        t.run_slice(1_000);
        slices += 1;
    }
    assert!(slices > 2);
    let p = t.progress();
    assert_eq!(p.commands_total, 100_000);
    let stop = t.cancel().unwrap();
    assert!(stop.commands_left > 90_000, "{stop:?}");
    assert_eq!(
        t.entries().len(),
        t.progress().commands_done.max(t.entries().len())
    );
    let r = t.command("put z 1").unwrap();
    assert!(r.ok, "{r:?}");
}

/// The moment shown: what the page draws and the status it lists.
fn moment(t: &Timeline) -> String {
    format!("{}\n{}", t.now(), t.status_json())
}

/// Runs the seek going on in slices of `work` to its end; the progress
/// after each slice.
fn seek_slices(t: &mut Timeline, work: u64) -> Vec<Progress> {
    let mut progress = Vec::new();
    while t.is_seeking() {
        progress.push(t.run_slice(work));
    }
    progress
}

#[test]
fn a_seek_in_slices_lands_where_a_seek_in_one_go_does() {
    for src in SCRIPTS {
        let (mut t, _, _) = sliced(src, u64::MAX);
        let end = t.end();
        for target in [0, end / 3, end / 2, end - end / 5, end] {
            let landed = t.seek(target);
            let want = moment(&t);
            t.take_narration();
            // From the live edge, and from another moment.
            for from in [end, end / 4] {
                t.seek(from);
                let at = t.begin_seek(target);
                assert_eq!(at, landed, "lands at {target}: {src}");
                let progress = seek_slices(&mut t, 7);
                assert_eq!(moment(&t), want, "seek {target} from {from}: {src}");
                assert!(t.take_narration().is_empty(), "a seek narrates nothing");
                let last = progress.last().copied().unwrap_or_default();
                assert!(!last.running && !t.is_running());
                if progress.len() > 2 {
                    // Until it lands the progress moves.
                    assert!(progress[0].running);
                    assert!(progress.windows(2).all(|w| w[0].done_ms <= w[1].done_ms));
                }
            }
        }
    }
}

/// A slice can end with the clock at the target while events due at that
/// very moment are still to run: the next slice runs them, as a seek in one
/// go does (the page seeks in slices; a link or `raftlab run` in one go).
#[test]
fn a_seek_in_slices_runs_the_events_due_at_the_moment_it_stops_on() {
    for src in SCRIPTS {
        let (mut t, _, _) = sliced(src, u64::MAX);
        let end = t.end();
        for target in (0..end).step_by(97) {
            t.seek(target);
            let want = moment(&t);
            t.seek(end);
            t.begin_seek(target);
            seek_slices(&mut t, 7);
            assert_eq!(moment(&t), want, "seek {target}: {src}");
        }
    }
}

#[test]
fn a_far_seek_takes_many_slices_and_a_new_target_or_cancel_takes_over() {
    let src = SCRIPTS[1];
    let (mut t, _, _) = sliced(src, u64::MAX);
    let end = t.end();
    let want_end = {
        t.seek(end);
        moment(&t)
    };
    let want_mid = {
        t.seek(end / 2);
        moment(&t)
    };
    t.seek(0);
    let start = moment(&t);

    // A far seek takes many small slices, and shows nothing new meanwhile.
    t.begin_seek(end);
    let mut slices = 0;
    while t.run_slice(1).running {
        slices += 1;
        assert_eq!(moment(&t), start);
    }
    assert!(slices > 10, "{slices} slices");
    assert_eq!(moment(&t), want_end);
    t.seek(0);
    t.begin_seek(end);
    for _ in 0..3 {
        assert!(t.run_slice(1).running && t.is_seeking());
    }
    // Cancel: the moment shown stays, and the timeline is usable.
    assert!(t.cancel().is_none(), "a cancelled seek stops no command");
    assert!(!t.is_running() && !t.is_seeking());
    assert_eq!(moment(&t), start);
    assert_eq!(t.seek(end / 2), t.seek(end / 2));
    assert_eq!(moment(&t), want_mid);

    // A later target on the way goes on; an earlier one starts again.
    t.seek(0);
    t.begin_seek(end / 2);
    for _ in 0..10 {
        t.run_slice(1);
    }
    t.begin_seek(end);
    seek_slices(&mut t, 11);
    assert_eq!(moment(&t), want_end);
    t.seek(0);
    t.begin_seek(end);
    for _ in 0..30 {
        t.run_slice(1);
    }
    t.begin_seek(end / 2);
    seek_slices(&mut t, 11);
    assert_eq!(moment(&t), want_mid);

    // A command typed during a seek acts at the moment sought.
    t.seek(0);
    t.begin_seek(end / 2);
    t.run_slice(3);
    let r = t.command("status").unwrap();
    assert!(r.ok);
    assert!(!t.is_seeking());
    assert!(t.now() >= end / 2);
}
