//! The page's module speaks Japanese only once it is given the Japanese
//! narration's sentences (`loadNarration`, as the page does before its
//! first Japanese word): before, and after a catalog that is not this
//! build's, `setLanguage("ja")` is refused and nothing changes.
#![cfg(target_arch = "wasm32")]

use raftlab::wasm::{load_narration, App};
use raftlab::words::renderer::Renderer;
use raftlab::words::text_ja::Japanese;
use serde_json::Value;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const CATALOG: &str = include_str!("../src/words/narration-ja.txt");

fn json(v: JsValue) -> Value {
    serde_wasm_bindgen::from_value(v).expect("a JSON-like value")
}

fn error_text(e: wasm_bindgen::JsError) -> String {
    let v: JsValue = e.into();
    js_sys::Reflect::get(&v, &"message".into())
        .unwrap()
        .as_string()
        .unwrap()
}

/// One test, in order: the module's catalog is loaded once per page.
#[wasm_bindgen_test]
fn japanese_is_refused_until_its_catalog_is_loaded_and_a_bad_catalog_changes_nothing() {
    let mut app = App::new("cluster voters=1,2,3 seed=1\nwait-until leader\n").unwrap();
    app.command("crash 3");
    let english = json(app.narration());
    assert!(english.to_string().contains("node 3"), "{english}");
    // Before the catalog: refused, and the page's words stay English.
    assert!(!app.set_language("ja"));
    app.command("start 3");
    let still = json(app.narration());
    assert!(!still.to_string().contains("ノード"), "{still}");
    // A sentence reached without it says so, and does not panic.
    assert!(Japanese.nothing_happens().contains("not loaded"));
    // A catalog cut short, or with a sentence out of shape: refused with
    // the reason, and still no Japanese.
    let lines: Vec<&str> = CATALOG.lines().collect();
    let short = lines[..lines.len() / 2].join("\n");
    let e = error_text(load_narration("ja", &short).unwrap_err());
    assert!(e.contains("this build speaks"), "{e}");
    let broken = CATALOG.replacen("{via}", "{via", 1);
    let e = error_text(load_narration("ja", &broken).unwrap_err());
    assert!(e.starts_with("narration-ja.txt: line "), "{e}");
    let e = error_text(load_narration("fr", CATALOG).unwrap_err());
    assert!(e.contains("\"ja\" only"), "{e}");
    assert!(!app.set_language("ja"));
    assert!(Japanese.nothing_happens().contains("not loaded"));
    // The catalog: Japanese from now on, and back to English.
    let n = load_narration("ja", CATALOG).unwrap();
    assert!(n > 400, "{n}");
    assert_eq!(load_narration("ja", CATALOG).unwrap(), n);
    assert!(app.set_language("ja"));
    app.command("crash 2");
    let ja = json(app.narration());
    assert!(ja.to_string().contains("ノード2"), "{ja}");
    assert_eq!(
        Japanese.nothing_happens(),
        "1分以内には、もう何も起きません"
    );
    assert!(app.set_language("en"));
    app.command("start 2");
    let en = json(app.narration());
    assert!(!en.to_string().contains("ノード"), "{en}");
    // A bad catalog after a good one changes nothing either.
    assert!(load_narration("ja", &short).is_err());
    assert!(app.set_language("ja"));
    assert_eq!(
        Japanese.nothing_happens(),
        "1分以内には、もう何も起きません"
    );
}
