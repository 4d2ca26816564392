//! Layer 5, browser: the one type the page talks to, and the canvas drawing.
//! Only this module knows about wasm-bindgen and web-sys.

use wasm_bindgen::prelude::*;
use web_sys::CanvasRenderingContext2d;

#[wasm_bindgen(start)]
pub fn start() {
    // Turn a Rust panic into a readable console error instead of "unreachable".
    console_error_panic_hook::set_once();
}

/// The app the page drives. For now: a placeholder cluster of voters laid out
/// on a circle, enough to prove the build, the page and the tests end to end.
#[wasm_bindgen]
pub struct App {
    voters: u32,
}

#[wasm_bindgen]
impl App {
    #[wasm_bindgen(constructor)]
    pub fn new(voters: u32) -> Result<App, JsError> {
        if !(1..=15).contains(&voters) {
            return Err(JsError::new(&format!(
                "a cluster has 1 to 15 voters, not {voters}"
            )));
        }
        Ok(App { voters })
    }

    #[wasm_bindgen(js_name = nodeCount)]
    pub fn node_count(&self) -> u32 {
        self.voters
    }

    /// The node under a canvas point (CSS pixels), if any.
    #[wasm_bindgen(js_name = hitTest)]
    pub fn hit_test(&self, width: f64, height: f64, x: f64, y: f64) -> Option<u32> {
        let radius = node_radius(width, height);
        (1..=self.voters).find(|&id| {
            let (cx, cy) = node_center(id, self.voters, width, height);
            (x - cx).hypot(y - cy) <= radius
        })
    }

    pub fn draw(&self, ctx: &CanvasRenderingContext2d, width: f64, height: f64) {
        ctx.set_fill_style_str("#0f172a");
        ctx.fill_rect(0.0, 0.0, width, height);
        let radius = node_radius(width, height);
        for id in 1..=self.voters {
            let (x, y) = node_center(id, self.voters, width, height);
            ctx.begin_path();
            let _ = ctx.arc(x, y, radius, 0.0, std::f64::consts::TAU);
            ctx.set_fill_style_str("#38bdf8");
            ctx.fill();
            ctx.set_fill_style_str("#0f172a");
            ctx.set_font(&format!("bold {}px sans-serif", (radius * 0.8).round()));
            ctx.set_text_align("center");
            ctx.set_text_baseline("middle");
            let _ = ctx.fill_text(&id.to_string(), x, y);
        }
    }
}

fn node_radius(width: f64, height: f64) -> f64 {
    width.min(height) * 0.07
}

/// Nodes sit on a circle, node 1 at the top, clockwise.
fn node_center(id: u32, count: u32, width: f64, height: f64) -> (f64, f64) {
    let angle =
        -std::f64::consts::FRAC_PI_2 + std::f64::consts::TAU * f64::from(id - 1) / f64::from(count);
    let ring = width.min(height) * 0.35;
    (
        width / 2.0 + ring * angle.cos(),
        height / 2.0 + ring * angle.sin(),
    )
}
