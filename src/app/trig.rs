//! Sine and cosine for placing nodes and drawing shapes, in a few hundred
//! bytes of wasm. `f64::sin` and `f64::cos` bring the general libm
//! routines, whose reduction of huge arguments alone is 4 KB of the module;
//! the page only asks for angles of a few turns at most, to a pixel.

use std::f64::consts::{FRAC_PI_2, TAU};

/// `(sin x, cos x)` within 1e-13 for |x| up to a few thousand turns.
pub fn sin_cos(x: f64) -> (f64, f64) {
    // To [-π, π], then to the nearest quarter turn: x = k·π/2 + r with
    // |r| <= π/4, where both series converge fast.
    let x = x - TAU * (x / TAU).round();
    let k = (x / FRAC_PI_2).round();
    let r = x - k * FRAC_PI_2;
    let r2 = r * r;
    // Taylor series to the 15th and 14th power: the first term left out,
    // r^17/17! or r^16/16!, is below 2e-15 for |r| <= π/4.
    let mut s = 0.0;
    let mut c = 0.0;
    for n in (1..=8).rev() {
        let n = n as f64;
        // sin r = r(1 - r²/(2·3)(1 - r²/(4·5)(...))), cos alike.
        s = 1.0 - r2 / ((2.0 * n) * (2.0 * n + 1.0)) * s;
        c = 1.0 - r2 / ((2.0 * n - 1.0) * (2.0 * n)) * c;
    }
    let (s, c) = (r * s, c);
    match (k as i64).rem_euclid(4) {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// `x` within `lo..=hi` (`lo` when `x` is NaN). Not `f64::clamp`: at
/// opt-level "z" that is an outlined function whose check of its bounds
/// prints them with `{:?}`, which alone brings the standard library's float
/// printing (about 7 KB gzipped) into the page's module.
#[allow(clippy::manual_clamp)]
pub fn clamp(x: f64, lo: f64, hi: f64) -> f64 {
    x.max(lo).min(hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_standard_library() {
        for i in -20_000..=20_000 {
            let x = i as f64 * 0.00731;
            let (s, c) = sin_cos(x);
            assert!((s - x.sin()).abs() < 1e-13, "sin {x}: {s} {}", x.sin());
            assert!((c - x.cos()).abs() < 1e-13, "cos {x}: {c} {}", x.cos());
        }
        for n in 1..=64 {
            for k in 0..n {
                let a = -FRAC_PI_2 + TAU * k as f64 / n as f64;
                let (s, c) = sin_cos(a);
                assert!((s - a.sin()).abs() < 1e-13 && (c - a.cos()).abs() < 1e-13);
            }
        }
    }

    #[test]
    fn clamps_as_f64_clamp_does_and_nan_to_the_low_bound() {
        for x in [-3.0, 0.0, 0.25, 1.0, 7.5, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(clamp(x, 0.0, 1.0), x.clamp(0.0, 1.0));
        }
        assert_eq!(clamp(f64::NAN, 12.0, 30.0), 12.0);
    }
}
