//! Paints the history view (`app::history`): one lane per key and client,
//! each operation a bar from its invocation to its response, the anomaly's
//! operations in red and the rest faded. Called only while the view is open.

use crate::app::history::{HistoryLayout, HistoryScene};
use crate::app::palette as pal;
use crate::sim::linearizability::OpName;
use crate::words::renderer::Renderer;

use super::draw::{Ctx, Dashes};

/// Paints `scene` on a canvas of `width` x `height` CSS pixels.
pub fn paint(
    ctx: &Ctx,
    dashes: &Dashes,
    scene: &HistoryScene,
    words: &dyn Renderer,
    width: f64,
    height: f64,
) {
    ctx.set_fill_style_str(pal::PANEL);
    ctx.fill_rect(0.0, 0.0, width, height);
    let l = HistoryLayout::new(scene, width, height);
    ctx.set_font("11px system-ui, sans-serif");
    ctx.set_text_baseline("middle");
    // The time axis and its round moments.
    ctx.set_fill_style_str(pal::GRID);
    ctx.fill_rect(l.x0, l.axis_y, l.x1 - l.x0, 1.0);
    ctx.set_text_align("center");
    for (x, ms) in l.ticks(52.0) {
        ctx.set_fill_style_str(pal::GRID);
        ctx.fill_rect(x - 0.5, l.axis_y, 1.0, height - l.axis_y);
        ctx.set_fill_style_str(pal::TEXT_FAINT);
        let _ = ctx.fill_text(&words.history_tick(ms), x, l.axis_y - 8.0);
    }
    let dim = scene.anomaly_key.is_some();
    for (i, lane) in scene.lanes.iter().enumerate() {
        let y = l.lane_y(i);
        let mid = y + l.lane_h / 2.0;
        ctx.set_text_align("right");
        ctx.set_fill_style_str(if lane.flagged {
            pal::BAD
        } else {
            pal::TEXT_DIM
        });
        let _ = ctx.fill_text(&words.history_lane(&lane.key, lane.client), l.x0 - 6.0, mid);
        let (top, h) = (y + 2.5, (l.lane_h - 5.0).max(4.0));
        for bar in &lane.bars {
            let (a, b) = l.bar(bar);
            let colour = if bar.flagged {
                pal::BAD
            } else {
                match bar.kind {
                    OpName::Write => pal::FOLLOWER,
                    OpName::Read => pal::GOOD,
                    OpName::Delete => pal::TEXT_DIM,
                }
            };
            let open = bar.response_ms.is_none();
            ctx.set_global_alpha(if dim && !bar.flagged {
                0.3
            } else if open {
                0.45
            } else {
                0.9
            });
            ctx.set_fill_style_str(colour);
            ctx.fill_rect(a, top, b - a, h);
            ctx.set_global_alpha(1.0);
            if open {
                // Never answered: its outcome is unknown.
                ctx.set_stroke_style_str(colour);
                ctx.set_line_width(1.0);
                let _ = ctx.set_line_dash(&dashes.dashed);
                ctx.stroke_rect(a + 0.5, top + 0.5, b - a - 1.0, h - 1.0);
                let _ = ctx.set_line_dash(&dashes.solid);
            }
            if bar.flagged {
                ctx.set_stroke_style_str(pal::HOVER);
                ctx.set_line_width(1.5);
                ctx.stroke_rect(a, top, b - a, h);
            }
            // The operation in words: inside its bar when it fits; beside
            // it for the anomaly's, which must be read.
            let text = words.history_op(bar.kind, bar.value.as_deref());
            let w = ctx.measure_text(&text).map_or(0.0, |m| m.width());
            if w + 6.0 <= b - a {
                ctx.set_text_align("center");
                ctx.set_fill_style_str(pal::NODE_TEXT_DARK);
                let _ = ctx.fill_text(&text, (a + b) / 2.0, mid);
            } else if bar.flagged {
                let right = b + 4.0 + w <= l.x1 + 6.0;
                ctx.set_text_align(if right { "left" } else { "right" });
                ctx.set_fill_style_str(pal::BAD);
                let _ = ctx.fill_text(&text, if right { b + 4.0 } else { a - 4.0 }, mid);
            }
        }
    }
}
