//! Browser tests of the exported app, run in headless Chromium by
//! wasm-bindgen-test-runner through chromedriver.
#![cfg(target_arch = "wasm32")]

use raftlab::wasm::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn canvas(width: u32, height: u32) -> web_sys::HtmlCanvasElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let canvas: web_sys::HtmlCanvasElement = document
        .create_element("canvas")
        .unwrap()
        .dyn_into()
        .unwrap();
    canvas.set_width(width);
    canvas.set_height(height);
    canvas
}

#[wasm_bindgen_test]
fn app_refuses_an_impossible_cluster() {
    assert!(App::new(0).is_err());
    assert!(App::new(16).is_err());
    assert_eq!(App::new(5).unwrap().node_count(), 5);
}

#[wasm_bindgen_test]
fn hit_test_finds_node_one_at_the_top() {
    let app = App::new(3).unwrap();
    // Node 1 sits straight above the centre, 35% of the short side away.
    assert_eq!(app.hit_test(800.0, 600.0, 400.0, 300.0 - 210.0), Some(1));
    assert_eq!(app.hit_test(800.0, 600.0, 400.0, 300.0), None);
}

#[wasm_bindgen_test]
fn draw_paints_a_node_where_hit_test_finds_it() {
    let app = App::new(3).unwrap();
    let canvas = canvas(800, 600);
    let ctx: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    app.draw(&ctx, 800.0, 600.0);
    let pixel = |x: f64, y: f64| ctx.get_image_data(x, y, 1.0, 1.0).unwrap().data().0;
    let background = pixel(5.0, 5.0);
    let node = pixel(400.0 - 30.0, 90.0);
    assert_ne!(
        node, background,
        "node 1 should be painted over the background"
    );
}
