//! Time travel, share links and exported files: replaying reproduces the
//! same states, branches are kept, and broken links and files are refused
//! with a message, never a panic.

use raftlab::session::exec::Session;
use raftlab::session::share::{
    base64url_encode, decode_link, encode_link, export_scenario, import_scenario, link_text, pack,
    ShareErrorKind,
};
use raftlab::session::timeline::Timeline;
use serde_json::Value;

/// A run built the way the browser builds one: commands typed at the live
/// edge with time let pass between them, plus steps to the next event.
fn browser_run() -> Timeline {
    let mut t = Timeline::from_script("cluster voters=1,2,3 seed=11").unwrap();
    let ops: &[&str] = &[
        "+1200",
        "wait-until leader",
        "put greeting hello",
        "+2345",
        "member add 4 --learner",
        "+800",
        "start 4",
        "step",
        "+3100",
        "wait-until caught-up=4 within=10s",
        "member promote 4",
        "+1500",
        "load rate=20/s",
        "+2750",
        "crash 1",
        "step",
        "+4321",
        "get greeting",
        "cut 2 3",
        "+1999",
        "heal",
        "put k v nowait",
        "+650",
        "load stop",
        "expect ok",
        "+2000",
        "start 1",
        "wait 1500ms",
        "transfer-leader 1",
        "+3333",
        "member list",
        "status",
        "compact 2",
        "+1000",
    ];
    for op in ops {
        if let Some(ms) = op.strip_prefix('+') {
            t.advance(ms.parse().unwrap());
        } else if *op == "step" {
            t.step_event(60_000);
        } else {
            t.command(op).unwrap();
        }
    }
    t
}

fn status(t: &Timeline) -> Value {
    t.status_json()
}

#[test]
fn the_history_replays_to_the_same_state() {
    let t = browser_run();
    let s = Session::from_script(&t.script()).unwrap();
    assert_eq!(s.now(), t.now());
    assert_eq!(s.status_json(), status(&t));
    let again = Timeline::from_script(&t.script()).unwrap();
    assert_eq!(again.history(), t.history());
    assert_eq!(status(&again), status(&t));
}

#[test]
fn scrubbing_back_and_forth_reproduces_the_states_seen_live() {
    // Record the state after each stretch of idle time, then travel.
    let mut t = Timeline::from_script("cluster voters=1,2,3 seed=3\nwait-until leader\n").unwrap();
    let mut seen = Vec::new();
    let steps: &[(u64, &str)] = &[
        (700, "put a 1"),
        (1900, "crash 2"),
        (2500, "load rate=30/s"),
        (3100, "isolate 1"),
        (4200, "heal"),
        (1234, "start 2"),
        (2600, "load stop"),
        (900, "member add 4 --learner"),
        (1800, "start 4"),
        (5000, "get a"),
    ];
    for (ms, cmd) in steps {
        t.advance(*ms);
        seen.push((t.now(), status(&t)));
        // A moment where a command starts shows the command done: act a
        // little later.
        t.advance(50);
        t.command(cmd).unwrap();
    }
    t.advance(3000);
    seen.push((t.now(), status(&t)));
    let end = t.end();
    // Backwards, forwards, then in a scrambled order.
    let mut order: Vec<usize> = (0..seen.len()).rev().collect();
    order.extend(0..seen.len());
    order.extend([3, 9, 0, 7, 2, 10, 5, 1, 8, 4, 6]);
    for i in order {
        let (at, want) = &seen[i];
        assert_eq!(t.seek(*at), *at);
        assert_eq!(&status(&t), want, "state at {at} ms");
    }
    assert_eq!(t.seek(end), end);
    assert!(t.is_live());
}

#[test]
fn seek_backwards_then_forwards_is_identical_at_many_points() {
    let mut t = browser_run();
    let end = t.end();
    let points: Vec<u64> = (0..40).map(|i| end * i / 39).collect();
    let forward: Vec<(u64, Value)> = points
        .iter()
        .map(|&p| {
            let at = t.seek(p);
            (at, status(&t))
        })
        .collect();
    for (k, &p) in points.iter().enumerate().rev() {
        let at = t.seek(p);
        assert_eq!((at, status(&t)), forward[k], "seek({p}) backwards");
    }
    // A fresh copy, which has never travelled, agrees too.
    let mut fresh = Timeline::from_script(&t.script()).unwrap();
    for (k, &p) in points.iter().enumerate() {
        let at = fresh.seek(p);
        assert_eq!(
            (at, status(&fresh)),
            forward[k],
            "seek({p}) on a fresh timeline"
        );
    }
}

#[test]
fn playing_forward_from_the_past_matches_the_live_run() {
    let mut t = browser_run();
    let end = t.end();
    let want = status(&t);
    t.seek(end / 3);
    while !t.is_live() {
        t.advance(97.min(end - t.now()));
    }
    assert_eq!(t.now(), end);
    assert_eq!(status(&t), want);
    // Stepping forward event by event gets there too.
    t.seek(end / 2);
    let ahead: Vec<u64> = t.marks().into_iter().filter(|&m| m > t.now()).collect();
    assert!(!ahead.is_empty());
    for m in ahead {
        if t.now() < m {
            assert!(t.step_event(60_000));
            assert!(t.now() >= m, "stepped to {} instead of {m}", t.now());
        }
    }
    t.advance(end - t.now());
    assert_eq!(status(&t), want);
}

#[test]
fn step_back_goes_to_earlier_narrated_moments() {
    let mut t = browser_run();
    let marks = t.marks();
    let mut now = t.now();
    let mut steps = 0;
    while let Some(m) = t.step_back() {
        assert!(m < now, "{m} is not before {now}");
        now = m;
        steps += 1;
    }
    assert_eq!(t.now(), 0);
    assert!(
        steps >= marks.len() / 2,
        "{steps} steps for {} marks",
        marks.len()
    );
    assert!(t.step_back().is_none());
}

#[test]
fn export_and_import_give_the_same_state_at_the_same_moment() {
    let mut t = browser_run();
    let at = t.seek(t.end() * 3 / 5);
    let file = export_scenario(&t);
    assert!(file.starts_with(&format!(
        "# raftlab run, exported at t={:.2}s\n# at: {at}ms\ncluster ",
        at as f64 / 1000.0
    )));
    let back = import_scenario(&file).unwrap();
    assert_eq!(back.now(), at);
    assert_eq!(back.end(), t.end());
    assert_eq!(status(&back), status(&t));
    assert_eq!(back.history(), t.history());
    // The file is an ordinary script: the runner reaches the same end.
    let mut t_end = t.clone();
    t_end.go_live();
    assert_eq!(
        Session::from_script(&file).unwrap().status_json(),
        status(&t_end)
    );
}

#[test]
fn a_file_without_a_moment_opens_at_its_end_and_past_the_end_clamps() {
    let t = import_scenario("cluster voters=1,2,3\nwait 2s\n").unwrap();
    assert_eq!((t.now(), t.end()), (2000, 2000));
    let t = import_scenario("# at: 3600s\ncluster voters=1,2,3\nwait 2s\n").unwrap();
    assert_eq!(t.now(), 2000);
}

#[test]
fn a_link_round_trips_with_its_moment() {
    let mut t = browser_run();
    let at = t.seek(t.end() / 2);
    let link = encode_link(&t);
    assert!(link.starts_with("#v1."));
    assert!(link[4..]
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
    let back = decode_link(&link).unwrap();
    assert_eq!(back.now(), at);
    assert_eq!(status(&back), status(&t));
    assert_eq!(back.history(), t.history());
    // A whole URL works as well as the fragment, with or without the '#'.
    let url = format!("https://example.org/raftlab/{link}");
    assert_eq!(status(&decode_link(&url).unwrap()), status(&t));
    assert_eq!(status(&decode_link(&link[1..]).unwrap()), status(&t));
}

#[test]
fn a_typical_run_makes_a_short_link() {
    let t = browser_run();
    let commands = t.entries().iter().filter(|e| !e.idle).count();
    let link = encode_link(&t);
    let script = t.script();
    println!(
        "{commands} commands, {} lines, script {} chars, link {} chars: {link}",
        t.history().len(),
        script.len(),
        link.len()
    );
    assert!(commands >= 20);
    assert!(link.len() < 800, "link of {} characters", link.len());
}

#[test]
fn acting_in_the_past_keeps_the_old_future_as_a_branch() {
    let mut t = browser_run();
    let old_history = t.history();
    let old_end = t.end();
    let old_status = status(&t);
    let fork = t.seek(old_end / 2);
    t.command("crash 3").unwrap();
    assert!(t.is_live());
    assert_eq!(t.branches().len(), 2);
    let [a, b] = &t.branches()[..] else { panic!() };
    assert_eq!((a.id, a.current, a.end_ms), (1, false, old_end));
    assert_eq!(a.left_at_ms, fork);
    assert_eq!(
        (b.id, b.parent, b.fork_ms, b.current),
        (2, Some(1), fork, true)
    );
    assert_eq!(b.first.as_deref(), Some("crash 3"));
    t.advance(5000);
    let new_history = t.history();
    assert!(new_history.len() < old_history.len() + 3);
    let new_status = status(&t);
    // The new branch starts with the old one's commands up to the fork.
    let shared = t.entries().iter().take_while(|e| e.at_ms < fork).count();
    assert_eq!(new_history[..shared], old_history[..shared]);

    // Back to the old branch: where it was left, and its future intact.
    assert_eq!(t.switch_branch(1).unwrap(), fork);
    assert_eq!(t.history(), old_history);
    assert_eq!(t.go_live(), old_end);
    assert_eq!(status(&t), old_status);
    // And to the new one again.
    assert_eq!(t.switch_branch(2).unwrap(), t.end());
    assert_eq!(status(&t), new_status);
    assert_eq!(
        t.switch_branch(9),
        Err(raftlab::session::refusal::Refusal::NoBranch(9))
    );

    // Acting where only idle time follows starts no branch.
    let before = t.branches().len();
    let now = t.now();
    t.seek(now - 1000);
    t.command("crash 2").unwrap();
    assert_eq!(t.branches().len(), before);
}

#[test]
fn a_branch_replays_like_its_script() {
    let mut t = browser_run();
    t.seek(t.end() / 3);
    t.advance(250);
    t.command("campaign 2").unwrap();
    t.advance(4000);
    let s = Session::from_script(&t.script()).unwrap();
    assert_eq!(s.status_json(), status(&t));
    let end = t.end();
    t.seek(0);
    assert_eq!(t.seek(end), end);
    assert_eq!(s.status_json(), status(&t));
}

#[test]
fn broken_links_say_what_is_wrong() {
    let t = browser_run();
    let link = encode_link(&t);
    let kind = |s: &str| decode_link(s).err().map(|e| (e.kind, e.message));
    let (k, m) = kind("").unwrap();
    assert_eq!(k, ShareErrorKind::NotALink, "{m}");
    let (k, m) = kind("#hello").unwrap();
    assert_eq!(k, ShareErrorKind::NotALink, "{m}");
    let (k, m) = kind(&link.replacen("#v1.", "#v2.", 1)).unwrap();
    assert_eq!(k, ShareErrorKind::Version);
    assert!(m.contains("v2") && m.contains("v1"), "{m}");
    let (k, _) = kind(&link.replacen("#v1.", "#v01.", 1)).unwrap();
    assert_eq!(k, ShareErrorKind::Version);
    let (k, m) = kind(&format!("{link}!")).unwrap();
    assert_eq!(k, ShareErrorKind::Encoding, "{m}");
    let (k, m) = kind(&link[..link.len() - 7]).unwrap();
    assert!(
        matches!(k, ShareErrorKind::Checksum | ShareErrorKind::Truncated),
        "{m}"
    );
    let (k, _) = kind("#v1.AAAA").unwrap();
    assert_eq!(k, ShareErrorKind::Truncated);

    // Valid base64url with a valid checksum, but not a script.
    let (k, m) = kind(&forge("hello world")).unwrap();
    assert_eq!(k, ShareErrorKind::Script);
    assert!(m.contains("line 1, column 1"), "{m}");
    let (k, _) = kind(&forge("# at: soon\ncluster voters=1\n")).unwrap();
    assert_eq!(k, ShareErrorKind::Moment);
    let (k, m) = kind(&forge(
        "cluster voters=1\nwait 3600s\nwait 3600s\nwait 3600s\nwait 3600s\nwait 1s\n",
    ))
    .unwrap();
    assert_eq!(k, ShareErrorKind::TooLong, "{m}");
    assert!(forge("cluster voters=1\nwait 1s\n").len() < 40);
    assert_eq!(
        decode_link(&forge("cluster voters=1\nwait 1s\n"))
            .unwrap()
            .now(),
        1000
    );
}

/// A well-formed link around any text, checksum included.
fn forge(text: &str) -> String {
    forge_bytes(&pack(text))
}

fn forge_bytes(packed: &[u8]) -> String {
    // The checksum, computed here on its own (CRC-32 over "raftlab/v1" and
    // the packed bytes), so the test below checks the encoder against it.
    let mut crc = !0u32;
    for &b in b"raftlab/v1".iter().chain(packed) {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    let mut bytes = packed.to_vec();
    bytes.extend_from_slice(&(!crc).to_be_bytes());
    format!("#v1.{}", base64url_encode(&bytes))
}

#[test]
fn forged_links_use_the_same_checksum_as_real_ones() {
    let t = import_scenario("cluster voters=1,2,3\nwait 2s\n").unwrap();
    let link = encode_link(&t);
    assert_eq!(forge(&link_text(&link).unwrap()), link);
}

#[test]
fn broken_files_say_where() {
    let e = import_scenario("cluster voters=1,2,3\nwait 2s\nmembr add 4\n").unwrap_err();
    assert_eq!(e.kind, ShareErrorKind::Script);
    let p = e.parse.unwrap();
    assert_eq!((p.line, p.column), (3, 1));
    assert!(e.message.contains("line 3, column 1"), "{}", e.message);
    let e = import_scenario("# raftlab run\n# at: 12.5.3s\ncluster voters=1\n").unwrap_err();
    assert_eq!(e.kind, ShareErrorKind::Moment);
    assert!(e.message.starts_with("line 2:"), "{}", e.message);
    assert!(import_scenario("").is_err());
    assert!(import_scenario("wait 2s\n").is_err());
}

#[cfg(not(target_arch = "wasm32"))]
mod properties {
    use super::*;
    use proptest::prelude::*;
    use raftlab::session::share::base64url_decode;
    use std::sync::OnceLock;

    fn good_link() -> &'static str {
        static LINK: OnceLock<String> = OnceLock::new();
        LINK.get_or_init(|| {
            let mut t = Timeline::from_script(
                "cluster voters=1,2,3 seed=4\nwait-until leader\nput a b\nwait 1s\ncrash 1\nwait 2s\n",
            )
            .unwrap();
            t.seek(1500);
            encode_link(&t)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn arbitrary_text_is_refused_with_a_message(s in ".*") {
            match decode_link(&s) {
                Err(e) => prop_assert!(!e.message.is_empty()),
                Ok(_) => prop_assert!(false, "{s:?} opened"),
            }
        }

        #[test]
        fn arbitrary_payloads_are_refused_with_a_message(s in "[A-Za-z0-9_-]{0,200}") {
            let link = format!("#v1.{s}");
            let e = decode_link(&link).err();
            prop_assert!(e.is_some_and(|e| !e.message.is_empty()));
        }

        #[test]
        fn truncated_links_are_refused(cut in 0usize..1000) {
            let link = good_link();
            let cut = cut % link.len();
            let e = decode_link(&link[..cut]).err();
            prop_assert!(e.is_some_and(|e| !e.message.is_empty()));
        }

        #[test]
        fn bit_flipped_links_are_refused(pos in 4usize..1000, bit in 0u8..7) {
            let link = good_link();
            let pos = 4 + pos % (link.len() - 4);
            let mut bytes = link.as_bytes().to_vec();
            bytes[pos] ^= 1 << bit;
            let Ok(flipped) = String::from_utf8(bytes) else { return Ok(()) };
            let e = decode_link(&flipped).err();
            prop_assert!(e.is_some_and(|e| !e.message.is_empty()), "{flipped} opened");
        }

        #[test]
        fn bit_flipped_payload_bytes_are_refused(pos in 0usize..1000, bit in 0u8..8) {
            let link = good_link();
            let mut bytes = base64url_decode(&link[4..]).unwrap();
            let pos = pos % bytes.len();
            bytes[pos] ^= 1 << bit;
            let tampered = format!("#v1.{}", base64url_encode(&bytes));
            let e = decode_link(&tampered).err();
            prop_assert_eq!(e.map(|e| e.kind), Some(ShareErrorKind::Checksum));
        }

        #[test]
        fn other_versions_are_refused(v in 0u32..100_000) {
            prop_assume!(v != 1);
            let link = good_link().replacen("#v1.", &format!("#v{v}."), 1);
            let e = decode_link(&link).err();
            prop_assert_eq!(e.map(|e| e.kind), Some(ShareErrorKind::Version));
        }

        #[test]
        fn checksummed_garbage_is_refused(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let link = forge_bytes(&bytes);
            match decode_link(&link) {
                Err(e) => prop_assert!(!e.message.is_empty()),
                // Garbage that happens to be a script runs; it never panics.
                Ok(t) => prop_assert!(t.now() <= t.end()),
            }
        }

        #[test]
        fn checksummed_text_that_is_not_a_script_is_refused(s in "[^\n]{0,80}") {
            prop_assume!(!s.trim_start().starts_with("cluster"));
            let link = forge(&format!("{s}\nwait 1s\n"));
            let e = decode_link(&link).err();
            prop_assert!(e.is_some_and(|e| !e.message.is_empty()));
        }

        #[test]
        fn packing_round_trips_any_text(s in "\\PC*|[\\x00-\\x1f a-z=\n]*") {
            let packed = pack(&s);
            let link = forge_bytes(&packed);
            prop_assert_eq!(link_text(&link).unwrap(), s);
        }

        #[test]
        fn arbitrary_files_are_refused_or_open(s in ".{0,200}") {
            // Anything that parses is a valid run; the rest is an error with a message.
            match import_scenario(&s) {
                Err(e) => prop_assert!(!e.message.is_empty()),
                Ok(t) => prop_assert!(t.now() <= t.end()),
            }
        }

        #[test]
        fn damaged_files_are_refused_with_a_line(line in 0usize..8, junk in "[a-z]{1,8}") {
            let mut t = Timeline::from_script("cluster voters=1,2,3\nwait-until leader\nput a b\nwait 1s\n").unwrap();
            t.seek(800);
            let file = export_scenario(&t);
            let mut lines: Vec<String> = file.lines().map(String::from).collect();
            let line = 2 + line % (lines.len() - 2);
            // Words that make a valid line of "WORD ?" (`say` takes any text).
            prop_assume!(!["wait", "put", "get", "start", "crash", "status", "pause", "heal", "say"]
                .iter().any(|w| junk.starts_with(w)));
            lines.insert(line, format!("{junk} ?"));
            let e = import_scenario(&lines.join("\n")).err();
            prop_assert!(e.is_some());
            let e = e.unwrap();
            prop_assert_eq!(e.parse.map(|p| p.line), Some(line + 1));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

        /// Any run built live agrees with its own replays: seeking to the
        /// moments seen live (backwards, then forwards) gives back the
        /// states seen live.
        #[test]
        fn random_runs_replay_the_states_seen_live(
            seed in 1u64..1000,
            ops in proptest::collection::vec((0u64..3000, 0usize..COMMANDS.len()), 1..14),
        ) {
            let mut t = Timeline::from_script(&format!("cluster voters=1,2,3 seed={seed}")).unwrap();
            let mut seen = Vec::new();
            for (ms, c) in ops {
                t.advance(ms);
                seen.push((t.now(), t.status_json()));
                if COMMANDS[c] == "step" {
                    t.step_event(5000);
                } else {
                    t.command(COMMANDS[c]).unwrap();
                }
            }
            t.advance(1000);
            seen.push((t.now(), t.status_json()));
            // A moment where a command starts shows that command done.
            let starts: Vec<u64> = t.entries().iter()
                .filter(|e| !matches!(e.command(), raftlab::lang::ast::Command::Wait(_)))
                .map(|e| e.at_ms).collect();
            seen.retain(|(at, _)| !starts.contains(at));
            for (at, want) in seen.iter().rev().chain(seen.iter()) {
                prop_assert_eq!(t.seek(*at), *at);
                prop_assert_eq!(&t.status_json(), want);
            }
            let s = Session::from_script(&t.script()).unwrap();
            t.go_live();
            prop_assert_eq!(s.status_json(), t.status_json());
        }
    }

    const COMMANDS: &[&str] = &[
        "put k v",
        "put k2 v2 nowait",
        "get k",
        "crash 1",
        "crash 2",
        "start 1",
        "start 2",
        "wait-until leader within=3s",
        "member add 4 --learner",
        "start 4",
        "member promote 4",
        "cut 1 2",
        "heal",
        "isolate 3",
        "load rate=40/s",
        "load stop",
        "transfer-leader 2",
        "campaign 3",
        "compact 1",
        "wait 700ms",
        "expect ok",
        "step",
    ];
}
