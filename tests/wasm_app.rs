//! Browser tests of the exported app, run in headless Chromium by
//! wasm-bindgen-test-runner through chromedriver.
#![cfg(target_arch = "wasm32")]

use raftlab::app::safety::SafetyStatus;
use raftlab::session::view::ViolationView;
use raftlab::wasm::App;
use raftlab::words::text_en::English;
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const THREE: &str = "cluster voters=1,2,3 seed=1\nwait-until leader\n";

fn json(v: JsValue) -> Value {
    serde_wasm_bindgen::from_value(v).expect("a JSON-like value")
}

fn canvas(
    width: u32,
    height: u32,
) -> (
    web_sys::HtmlCanvasElement,
    web_sys::CanvasRenderingContext2d,
) {
    let document = web_sys::window().unwrap().document().unwrap();
    let canvas: web_sys::HtmlCanvasElement = document
        .create_element("canvas")
        .unwrap()
        .dyn_into()
        .unwrap();
    canvas.set_width(width);
    canvas.set_height(height);
    let ctx = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    (canvas, ctx)
}

fn pixel(ctx: &web_sys::CanvasRenderingContext2d, x: f64, y: f64) -> Vec<u8> {
    ctx.get_image_data(x, y, 1.0, 1.0).unwrap().data().0
}

#[wasm_bindgen_test]
fn a_script_runs_and_the_status_is_the_runners_report() {
    let app = App::new(THREE).unwrap();
    let status = json(app.status());
    assert!(
        status["leader"].is_u64(),
        "a leader after wait-until: {status}"
    );
    assert_eq!(status["voters"], serde_json::json!([1, 2, 3]));
    assert_eq!(status["quorum"], 2);
    assert_eq!(status["nodes"].as_array().unwrap().len(), 3);
    assert!(status["time_ms"].as_u64().unwrap() > 0);
    assert!(status.get("results").is_none());
}

#[wasm_bindgen_test]
fn a_script_that_does_not_parse_is_refused() {
    assert!(App::new("cluster voters=1,2,3\nmembr add 4\n").is_err());
    assert!(App::new("crash 1\n").is_err());
    // An empty script opens the default cluster.
    assert_eq!(App::new("").unwrap().node_count(), 3);
}

#[wasm_bindgen_test]
fn a_learner_is_added_started_caught_up_and_promoted() {
    let mut app = App::new(THREE).unwrap();
    // etcd refuses member changes until the peers have been connected 5s.
    assert_eq!(json(app.command("wait 6s"))["ok"], true);
    let added = json(app.command("member add 4 --learner"));
    assert_eq!(added["ok"], true, "{added}");
    assert_eq!(json(app.status())["learners"], serde_json::json!([4]));
    assert_eq!(json(app.command("start 4"))["ok"], true);
    let caught = json(app.command("wait-until caught-up=4 within=10s"));
    assert_eq!(caught["ok"], true, "{caught}");
    let promoted = json(app.command("member promote 4"));
    assert_eq!(promoted["ok"], true, "{promoted}");
    let status = json(app.status());
    assert_eq!(status["voters"], serde_json::json!([1, 2, 3, 4]));
    assert_eq!(status["learners"], serde_json::json!([]));
    let history = app.history();
    assert!(history.starts_with("cluster voters=1,2,3"), "{history}");
    assert!(
        history.contains("member add 4 --learner\nstart 4\n"),
        "{history}"
    );
    assert!(history.contains("member promote 4"), "{history}");
}

#[wasm_bindgen_test]
fn an_error_comes_back_as_a_result_and_the_app_goes_on() {
    let mut app = App::new(THREE).unwrap();
    let typo = json(app.command("membr add 4"));
    assert_eq!(typo["ok"], false);
    assert_eq!(typo["error"], "parse");
    assert!(typo["detail"].as_str().unwrap().contains("unknown command"));
    let missing = json(app.command("transfer-leader 9"));
    assert_eq!(missing["ok"], false);
    assert_eq!(missing["error"], "bad-leader-transferee", "{missing}");
    let lines = json(app.narration());
    let text = |kind: &str| -> Vec<String> {
        lines
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["kind"] == kind)
            .map(|l| l["text"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(text("command"), ["› membr add 4", "› transfer-leader 9"]);
    let errors = text("error").join("\n");
    assert!(errors.contains("does not parse"), "{errors}");
    let results = text("result").join("\n");
    assert!(
        results.contains("✗ error bad-leader-transferee"),
        "{results}"
    );
    assert!(lines
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["kind"] != "command")
        .all(|l| l["tone"] == "err"));
    // Still alive and still answering.
    assert_eq!(json(app.command("put k v"))["ok"], true);
    assert_eq!(json(app.command("get k"))["value"], "v");
}

#[wasm_bindgen_test]
fn advance_moves_simulated_time_by_real_time_times_speed() {
    let mut app = App::new("cluster voters=1,2,3").unwrap();
    assert_eq!(app.time_ms(), 0.0);
    app.advance(100.0, 1.0);
    assert_eq!(app.time_ms(), 100.0);
    // Fractions carry over: ten frames of 16ms at 0.25x is 40ms.
    for _ in 0..10 {
        app.advance(16.0, 0.25);
    }
    assert_eq!(app.time_ms(), 140.0);
    // Nonsense input does nothing.
    app.advance(f64::NAN, 1.0);
    app.advance(100.0, -1.0);
    assert_eq!(app.time_ms(), 140.0);
    assert!(app.step_event());
    assert!(app.time_ms() > 140.0);
}

#[wasm_bindgen_test]
fn draw_paints_a_node_where_hit_test_finds_it() {
    let mut app = App::new(THREE).unwrap();
    let (_canvas, ctx) = canvas(800, 600);
    app.draw(&ctx, 800.0, 600.0, 1.0);
    let background = pixel(&ctx, 2.0, 2.0);
    assert_eq!(&background[..3], &[0x0b, 0x11, 0x20], "the dark background");
    let p = app.node_position(1).expect("node 1 is drawn");
    let (x, y, r) = (p[0], p[1], p[2]);
    // A little off the centre, away from the id's text: the node's body.
    let body = pixel(&ctx, x - r * 0.6, y);
    assert_ne!(body, background, "node 1 is painted over the background");
    assert_eq!(
        json(app.hit_test(x, y)),
        serde_json::json!({"kind": "node", "id": 1})
    );
    assert_eq!(json(app.hit_test(1.0, 1.0)), Value::Null);
}

#[wasm_bindgen_test]
fn a_zoomed_view_draws_a_part_of_the_cluster_larger() {
    let mut app = App::new(THREE).unwrap();
    let (_canvas, ctx) = canvas(800, 600);
    app.draw(&ctx, 800.0, 600.0, 1.0);
    let p = app.node_position(1).expect("node 1 is drawn");
    let (x, y, r) = (p[0], p[1], p[2]);
    let body = pixel(&ctx, x - r * 0.6, y);
    // Twice as large, node 1 at the canvas's top left corner plus (100, 80):
    // the layout is the same (the page's hit tests convert), and what was at
    // (x, y) is drawn at 2 * ((x, y) - view).
    let (vx, vy) = (x - 50.0, y - 40.0);
    app.set_view(vx, vy);
    app.draw(&ctx, 800.0, 600.0, 2.0);
    assert_eq!(app.node_position(1), Some(p));
    // The canvas's backing store is 800x600 device pixels: at a pixel
    // ratio of 2, the layout's point (x, y) is device pixel (100, 80).
    assert_eq!(
        pixel(&ctx, 100.0 - r * 1.2, 80.0),
        body,
        "node 1's body, zoomed"
    );
    // The whole view again: nothing moved.
    app.set_view(0.0, 0.0);
    app.draw(&ctx, 800.0, 600.0, 1.0);
    assert_eq!(pixel(&ctx, x - r * 0.6, y), body);
    // A view that is no number draws the whole cluster.
    app.set_view(f64::NAN, f64::INFINITY);
    app.draw(&ctx, 800.0, 600.0, 1.0);
    assert_eq!(pixel(&ctx, x - r * 0.6, y), body);
}

#[wasm_bindgen_test]
fn hit_test_finds_a_link_and_its_nearer_end() {
    let mut app = App::new(THREE).unwrap();
    let (_canvas, ctx) = canvas(900, 600);
    app.draw(&ctx, 900.0, 600.0, 1.0);
    let a = app.node_position(1).unwrap();
    let b = app.node_position(2).unwrap();
    let at = |t: f64| (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t);
    let (x, y) = at(0.4);
    assert_eq!(
        json(app.hit_test(x, y)),
        serde_json::json!({"kind": "link", "a": 1, "b": 2, "near": 1})
    );
    let (x, y) = at(0.7);
    assert_eq!(json(app.hit_test(x, y))["near"], 2);
}

#[wasm_bindgen_test]
fn a_cut_link_is_drawn_and_reported() {
    let mut app = App::new(THREE).unwrap();
    assert_eq!(json(app.command("cut 1->2"))["ok"], true);
    assert!(app.is_cut(1, 2));
    assert!(!app.is_cut(2, 1));
    // A high-density screen: the backing store is twice the CSS size.
    let (_canvas, ctx) = canvas(1600, 1200);
    app.draw(&ctx, 800.0, 600.0, 2.0);
    // At twice the pixel density, the mid-point of the link carries the red
    // mark of the cut.
    let a = app.node_position(1).unwrap();
    let b = app.node_position(2).unwrap();
    let (mx, my) = ((a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0);
    let mut reddish = false;
    for dx in -8..=8 {
        for dy in -8..=8 {
            let p = pixel(&ctx, 2.0 * mx + f64::from(dx), 2.0 * my + f64::from(dy));
            reddish |= p[0] > 180 && p[1] < 110 && p[2] < 110;
        }
    }
    assert!(reddish, "a red cut mark at the middle of link 1-2");
}

const FLEET: &str = "cluster voters=1,2,3 seed=1\ncluster voters=11,12,13 name=copy\ncampaign 1\ncampaign 11\nwait-until leader=1 within=2s\nwait-until leader=11 within=2s\nmirror start 9 from=1 to=11\nwait-until mirror 9=watching within=10s\n";

#[wasm_bindgen_test]
fn two_clusters_and_a_mirror_are_drawn_and_its_links_cut_and_reported() {
    let mut app = App::new(FLEET).unwrap();
    let (_canvas, ctx) = canvas(1000, 700);
    app.draw(&ctx, 1000.0, 700.0, 1.0);
    let one = app.node_position(1).expect("node 1 is drawn");
    let eleven = app.node_position(11).expect("node 11 is drawn");
    let m = app.node_position(9).expect("mirror 9 is drawn");
    assert!(one[0] < 500.0 && eleven[0] > 500.0, "side by side");
    assert!(m[0] > one[0] && m[0] < eleven[0], "the mirror between them");
    assert_eq!(
        json(app.hit_test(m[0], m[1])),
        serde_json::json!({"kind": "mirror", "id": 9})
    );
    let (x, y) = ((m[0] + one[0]) / 2.0, (m[1] + one[1]) / 2.0);
    assert_eq!(json(app.hit_test(x, y))["kind"], "link");
    assert_eq!(json(app.hit_test(x, y))["a"], 9);
    assert_eq!(json(app.hit_test(x, y))["b"], 1);
    assert!(!app.is_cut(9, 1));
    assert_eq!(json(app.command("cut 9 1"))["ok"], true);
    assert!(app.is_cut(9, 1) && app.is_cut(1, 9) && !app.is_cut(9, 11));
    assert!(!app.is_cut(11, 12), "a copy's link");
    assert_eq!(json(app.command("cut 11 12"))["ok"], true);
    assert!(app.is_cut(11, 12) && !app.is_cut(1, 2));
    app.draw(&ctx, 1000.0, 700.0, 1.0);
    let mut reddish = false;
    for dx in -8..=8 {
        for dy in -8..=8 {
            let p = pixel(&ctx, x + f64::from(dx), y + f64::from(dy));
            reddish |= p[0] > 180 && p[1] < 110 && p[2] < 110;
        }
    }
    assert!(reddish, "a red cut mark on the mirror's link to 1");
    // Odd sizes do not panic.
    app.draw(&ctx, 120.0, 90.0, 1.0);
    app.draw(&ctx, 1.0, 1.0, 1.0);
}

#[wasm_bindgen_test]
fn panels_describe_the_quorum_and_the_nodes() {
    let mut app = App::new(THREE).unwrap();
    app.command("put greeting hello");
    let q = json(app.quorum());
    assert_eq!(q["quorum"], 2);
    assert_eq!(q["can_reach_quorum"], true);
    assert_eq!(q["max_learners"], 1);
    assert!(q["acked"].as_array().unwrap().len() >= 2, "{q}");
    let nodes = json(app.nodes());
    let leader = q["leader"].as_u64().unwrap();
    let node = nodes
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == leader)
        .unwrap();
    assert_eq!(node["kv"], serde_json::json!([["greeting", "hello"]]));
    assert_eq!(app.next_id(), Some(4));
    app.command(&format!("isolate {leader}"));
    assert_eq!(json(app.quorum())["can_reach_quorum"], false);
}

#[wasm_bindgen_test]
fn drawing_survives_odd_sizes_and_many_nodes() {
    let mut app = App::new(
        "cluster voters=1,2,3,4,5,6,7,8,9 seed=3 bandwidth=256KB/s\nwait-until leader\nload rate=50/s size=1KB\nwait 500ms\n",
    )
    .unwrap();
    let (_canvas, ctx) = canvas(300, 200);
    for (w, h) in [
        (300.0, 200.0),
        (40.0, 30.0),
        (0.0, 0.0),
        (f64::NAN, 10.0),
        (1.0, 1.0),
    ] {
        app.draw(&ctx, w, h, 1.0);
        app.advance(16.0, 1.0);
    }
    assert!(app.in_flight() > 0);
    assert_eq!(app.node_count(), 9);
}

#[wasm_bindgen_test]
fn the_history_view_draws_a_stale_read_at_any_size_without_panicking() {
    let mut app = App::new(
        "cluster voters=1,2,3 seed=2\ncampaign 1\nwait-until leader=1\nwait 6s\nmember add 4 --learner --read-only=weak\nstart 4\nput k v1\nwait-until all-applied\ncut 1->4\nput k v2\n",
    )
    .unwrap();
    let (_canvas, ctx) = canvas(300, 200);
    let v = json(app.draw_history(&ctx, 300.0, 200.0, 1.0));
    assert_eq!(v["ok"], true, "{v}");
    let r = json(app.command("get k via=4"));
    assert_eq!(r["value"], "v1", "{r}");
    for (w, h) in [
        (300.0, 200.0),
        (10.0, 5.0),
        (0.0, 0.0),
        (f64::NAN, 10.0),
        (2000.0, 40.0),
    ] {
        let v = json(app.draw_history(&ctx, w, h, 2.0));
        assert_eq!(v["ok"], false, "{v}");
        assert!(
            v["verdict"].as_str().unwrap().contains("a stale read"),
            "{v}"
        );
    }
}

#[wasm_bindgen_test]
fn a_modes_form_the_cluster_line_cannot_take_is_refused_in_words() {
    let ok = json(raftlab::wasm::fresh_script(
        3.0,
        "learner",
        Some(90.0),
        10_000.0,
        "replace",
        2.0,
        None,
    ));
    assert_eq!(
        ok["script"],
        "cluster voters=1,2,3 seed=3 max-learners=2 bandwidth=1MB/s new-members=learner auto-promote=90%\n"
    );
    for (members, auto, after, failover, max) in [
        ("learner", Some(f64::NAN), 10_000.0, "replace", 1.0),
        ("learner", None, f64::INFINITY, "replace", 1.0),
        ("nobody", None, 10_000.0, "replace", 1.0),
        ("voter", None, 10_000.0, "", 1.0),
        ("voter", None, 10_000.0, "grow", -1.0),
    ] {
        let r = json(raftlab::wasm::fresh_script(
            f64::NAN,
            members,
            auto,
            after,
            failover,
            max,
            None,
        ));
        assert_eq!(r["ok"], false, "{r}");
        assert!(r["error"].as_str().unwrap().starts_with("error: "), "{r}");
    }
}

// ---- time travel, sharing, lessons, safety ------------------------------------------------

const RUN: &str = "cluster voters=1,2,3 seed=2\nwait-until leader\nput a 1\nwait 2s\ncrash 2\nwait 1500ms\nput b 2\nwait 1s\n";

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

#[wasm_bindgen_test]
fn seeking_back_then_forward_reproduces_the_same_status() {
    let mut app = App::new(RUN).unwrap();
    let end = app.time_ms();
    let at_end = json(app.status());
    let mid = end - 1200.0;
    assert_eq!(app.seek(mid), mid);
    let at_mid = json(app.status());
    assert_eq!(at_mid["time_ms"], mid as u64);
    let tl = json(app.timeline());
    assert_eq!(tl["live"], false);
    assert_eq!(tl["end_ms"], end as u64);
    assert!(tl["entries"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["text"] == "crash 2"));
    assert!(!tl["leaders"].as_array().unwrap().is_empty());
    // To the start, and forward again: the same moments, the same states.
    // (The run starts with `wait-until leader`: a moment inside a command
    // that lets time pass lands at its end.)
    let start = app.seek(0.0);
    assert!(start > 0.0 && start < mid, "{start}");
    assert_eq!(json(app.status())["time_ms"], start as u64);
    assert_eq!(app.seek(mid), mid);
    assert_eq!(json(app.status()), at_mid);
    assert_eq!(app.go_live(), Some(end));
    assert_eq!(json(app.status()), at_end);
    // Step back lands strictly earlier; nonsense seeks change nothing.
    let back = app.step_back().expect("an earlier event");
    assert!(back < end);
    assert!(app.seek(f64::NAN).is_nan());
    assert_eq!(app.time_ms(), back);
}

#[wasm_bindgen_test]
fn acting_in_the_past_starts_a_branch_and_the_old_one_can_be_resumed() {
    let mut app = App::new(RUN).unwrap();
    let end = app.time_ms();
    // Half a second into the `wait 2s`.
    let tl = json(app.timeline());
    let wait = tl["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["text"] == "wait 2s")
        .unwrap()["at_ms"]
        .as_u64()
        .unwrap();
    let at = (wait + 500) as f64;
    assert_eq!(app.seek(at), at);
    assert_eq!(json(app.command("put c 3"))["ok"], true);
    let tl = json(app.timeline());
    assert_eq!(tl["branch"], 2);
    assert_eq!(tl["branches"].as_array().unwrap().len(), 2);
    assert!(!app.history().contains("crash 2"), "{}", app.history());
    let back = json(app.switch_branch(1));
    assert_eq!(back["ok"], true, "{back}");
    assert_eq!(back["at_ms"], at as u64);
    assert!(app.history().contains("crash 2"));
    assert_eq!(app.go_live(), Some(end));
    assert_eq!(json(app.switch_branch(9))["ok"], false);
}

#[wasm_bindgen_test]
fn a_share_link_opens_the_same_run_at_the_same_moment() {
    let mut app = App::new(RUN).unwrap();
    let mid = app.time_ms() - 800.0;
    app.seek(mid);
    let link = app.share_link();
    assert!(link.starts_with("#v1."), "{link}");
    // A whole URL works too.
    let other = App::from_link(&format!("http://127.0.0.1:8000/{link}")).unwrap();
    assert_eq!(json(other.status()), json(app.status()));
    assert_eq!(other.time_ms(), mid);
    // In place: a fresh app opens it, queued (the page runs it in slices,
    // drawing between them): at its start, then at the moment after the
    // slices.
    let mut fresh = App::new("").unwrap();
    assert_eq!(
        json(fresh.open_link(&link)),
        serde_json::json!({"ok": true})
    );
    assert_eq!(fresh.time_ms(), 0.0);
    run_to_end(&mut fresh);
    assert_eq!(json(fresh.status()), json(app.status()));
    // And a .scenario file round-trips the same way.
    let file = app.export_scenario();
    assert!(file.starts_with("# raftlab run, exported at t="), "{file}");
    let mut reader = App::new("").unwrap();
    assert_eq!(json(reader.import_scenario(&file))["ok"], true);
    run_to_end(&mut reader);
    assert_eq!(json(reader.status()), json(app.status()));
}

/// Runs an app's queued run in slices until it ends (a bound on the
/// slices, so a run that never ends fails the test instead of hanging).
fn run_to_end(app: &mut App) {
    for _ in 0..10_000 {
        if json(app.run_slice(500.0))["running"] == false {
            return;
        }
    }
    panic!("the queued run did not end in 10,000 slices");
}

#[wasm_bindgen_test]
fn a_malformed_or_tampered_link_is_refused_and_the_app_is_unchanged() {
    let mut app = App::new(RUN).unwrap();
    let link = app.share_link();
    app.command("member add 4 --learner");
    let before = json(app.status());
    let history = app.history();
    let mut bytes = link.into_bytes();
    let i = bytes.len() - 6;
    bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(bytes).unwrap();
    for (bad, why) in [
        (tampered.as_str(), "damaged or was edited"),
        ("#v1.", "truncated"),
        ("#v7.AAAA", "format v7"),
        ("#script=put", "not a raftlab link"),
        ("#v1.a$b", "not base64url"),
    ] {
        let r = json(app.open_link(bad));
        assert_eq!(r["ok"], false, "{bad}");
        let error = r["error"].as_str().unwrap();
        assert!(error.contains(why), "{bad}: {error}");
        assert!(App::from_link(bad).is_err());
    }
    let r = json(app.import_scenario("cluster voters=1,2,3\nmembr add 4\n"));
    assert!(
        r["error"].as_str().unwrap().contains("does not parse"),
        "{r}"
    );
    assert_eq!(json(app.status()), before);
    assert_eq!(app.history(), history);
}

#[wasm_bindgen_test]
fn the_lesson_player_through_the_boundary() {
    let list = json(raftlab::wasm::lessons(None));
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"10-promoting-a-learner"), "{ids:?}");
    assert_eq!(list[0]["title"], "A new member overloads the leader");
    // In the page's language: titles and summaries in Japanese.
    let ja = json(raftlab::wasm::lessons(Some("ja".to_string())));
    assert_eq!(ja[0]["title"], "新しいメンバーがリーダーに過負荷をかける");
    assert_eq!(ja[0]["id"], list[0]["id"]);
    let mut app = App::new(THREE).unwrap();
    let sandbox = json(app.status());
    assert_eq!(app.lesson(), JsValue::NULL);
    assert_eq!(json(app.open_lesson("nope"))["ok"], false);
    assert_eq!(
        json(app.open_lesson("03-isolated-leader-steps-down"))["ok"],
        true
    );
    assert_eq!(app.timeline(), JsValue::NULL, "a lesson has no timeline");
    assert!(app.seek(10.0).is_nan());
    let l = json(app.lesson());
    assert_eq!(l["position"], 0);
    assert_eq!(l["on_path"], true);
    assert_eq!(app.time_ms(), 0.0);
    let steps = l["steps"].as_u64().unwrap();

    let first = json(app.lesson_next());
    assert_eq!(first["position"], 1);
    assert!(!first["says"].as_array().unwrap().is_empty(), "{first}");
    assert!(first["lines"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["kind"] == "say"));
    assert_eq!(first["surprises"], serde_json::json!([]));
    let after_one = json(app.status());
    // The panel speaks the page's language; the run does not change. The
    // page gives the module the Japanese sentences first, as here.
    raftlab::wasm::load_narration("ja", include_str!("../src/words/narration-ja.txt")).unwrap();
    assert!(app.set_language("ja"));
    let ja = json(app.lesson());
    assert_ne!(ja["says"], first["says"]);
    assert!(ja["says"][0].as_str().unwrap().contains("ノード"), "{ja}");
    assert_eq!(json(app.status()), after_one);
    assert!(app.set_language("en"));
    assert_eq!(json(app.lesson())["says"], first["says"]);
    // A lesson's run is shared as a sandbox run at the same moment.
    let shared = App::from_link(&app.share_link()).unwrap();
    assert_eq!(json(shared.status()), after_one);
    let second = json(app.lesson_next());
    assert_eq!(second["position"], 2);
    // Back: the run rebuilt to the first pause, as it was.
    let back = json(app.lesson_back());
    assert_eq!(back["position"], 1);
    assert_eq!(back["says"], first["says"]);
    assert_eq!(json(app.status()), after_one);
    // A detour, then back on the path.
    app.command("crash 1");
    assert_eq!(json(app.lesson())["on_path"], false);
    app.lesson_rejoin();
    assert_eq!(json(app.lesson())["on_path"], true);
    assert_eq!(json(app.status()), after_one);
    // The clock running is a detour too.
    app.advance(100.0, 1.0);
    assert_eq!(json(app.lesson())["on_path"], false);
    // To the end, then restart.
    let mut last = Value::Null;
    for _ in 0..steps {
        last = json(app.lesson_goto(steps as u32));
    }
    assert_eq!(last["finished"], true);
    let q = json(app.lesson())["quorum"].clone();
    assert!(q["reachable"].is_array() && q["quorum"].is_u64(), "{q}");
    let restarted = json(app.lesson_restart());
    assert_eq!(restarted["position"], 0);
    assert_eq!(app.time_ms(), 0.0);
    // Leaving returns to the sandbox as it was.
    assert!(app.leave_lesson());
    assert!(!app.leave_lesson());
    assert_eq!(json(app.status()), sandbox);
    assert_eq!(app.lesson_next(), JsValue::NULL);
}

#[wasm_bindgen_test]
fn the_safety_indicator_is_green_then_renders_a_synthetic_violation() {
    let app = App::new(THREE).unwrap();
    let el = document().create_element("div").unwrap();
    app.render_safety(&el).unwrap();
    assert!(el.class_list().contains("ok"));
    let text = el.text_content().unwrap();
    assert!(text.contains("Raft safety: all invariants hold"), "{text}");

    // Violations cannot be produced through the UI: feed the panel one.
    let violation = |time_ms, property: &str, text: &str, nodes: Vec<u64>| ViolationView {
        time_ms,
        property: property.to_string(),
        nodes,
        text: text.to_string(),
    };
    let status = SafetyStatus {
        violations: vec![
            violation(
                12345,
                "election safety",
                "two leaders in term 3: nodes 1 and 2",
                vec![1, 2],
            ),
            violation(13000, "log matching", "index 7 differs", vec![2, 3]),
        ],
    };
    raftlab::wasm::safety::render(&el, &status, &English).unwrap();
    assert!(el.class_list().contains("broken"));
    assert!(!el.class_list().contains("ok"));
    let button = el.query_selector(".safety-button").unwrap().unwrap();
    let headline = button.text_content().unwrap();
    assert!(
        headline
            .contains("Raft safety broken: election safety at t=12.35s, nodes 1 and 2 (+1 more)"),
        "{headline}"
    );
    let ol = el.query_selector(".safety-list ol").unwrap().unwrap();
    assert_eq!(ol.child_element_count(), 2);
    let first = ol.first_element_child().unwrap().text_content().unwrap();
    assert!(
        first.contains("t=12.35s, nodes 1 and 2 · election safety: two leaders in term 3"),
        "{first}"
    );
    // Hidden until the button is pressed (the page toggles it).
    let list = el.query_selector(".safety-list").unwrap().unwrap();
    assert!(list.has_attribute("hidden"));
    assert_eq!(button.get_attribute("aria-controls").unwrap(), list.id());
    // Back to green when the status has none.
    app.render_safety(&el).unwrap();
    assert!(el.class_list().contains("ok"));
}

#[wasm_bindgen_test]
fn a_seek_in_slices_lands_where_a_seek_does_and_cancel_keeps_the_moment() {
    let mut app = App::new(RUN).unwrap();
    let end = app.time_ms();
    app.seek(end / 2.0);
    let want = json(app.status());
    app.seek(0.0);
    let start = json(app.status());
    // In slices: the moment shown stays until it lands, the progress says
    // it is a seek.
    let at = app.begin_seek(end / 2.0);
    assert_eq!(at, app.seek(end / 2.0));
    app.seek(0.0);
    app.begin_seek(end / 2.0);
    // (A second of simulated time takes more than one unit of work.)
    let first = json(app.run_slice(1.0));
    assert_eq!(
        (&first["running"], &first["seeking"]),
        (&true.into(), &true.into())
    );
    assert_eq!(json(app.status()), start);
    run_to_end(&mut app);
    assert_eq!(json(app.status()), want);
    // Cancelled: where it was.
    app.seek(0.0);
    app.begin_seek(end);
    app.run_slice(1.0);
    assert!(app.is_running());
    assert!(app.cancel());
    assert!(!app.is_running());
    assert_eq!(json(app.status()), start);
    // Bad input changes nothing.
    assert!(app.begin_seek(f64::NAN).is_nan());
    assert_eq!(json(app.status()), start);
}
