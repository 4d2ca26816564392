//! `{:.N}` of an `f64`, byte for byte, in integer arithmetic.
//!
//! The standard library's float printing (its exact and shortest
//! algorithms and their tables) is about 7 KB of the page's module gzipped,
//! and the narration only ever prints times, sizes and ratios with a fixed
//! number of decimals. [`Fixed`] prints the exact binary value of the float
//! rounded to `decimals` places, ties to even, as `format!("{:.N}")` does, so
//! reports and golden files are unchanged; the tests compare the two on
//! millions of values.

use std::fmt;

/// `value` with `decimals` places (at most 3), as `{:.decimals}` prints it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fixed(pub f64, pub u32);

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Fixed(v, decimals) = *self;
        if v.is_nan() {
            return f.pad("NaN");
        }
        let sign = if v.is_sign_negative() { "-" } else { "" };
        if v.is_infinite() {
            return f.pad(if sign.is_empty() { "inf" } else { "-inf" });
        }
        let decimals = decimals.min(3);
        let scale = 10u128.pow(decimals);
        let scaled = scaled_round(v.abs(), scale);
        let (int, frac) = (scaled / scale, scaled % scale);
        let mut buf = String::with_capacity(24);
        buf.push_str(sign);
        buf.push_str(&(int as u64).to_string());
        if decimals > 0 {
            let digits = (frac as u64).to_string();
            buf.push('.');
            for _ in digits.len()..decimals as usize {
                buf.push('0');
            }
            buf.push_str(&digits);
        }
        f.pad(&buf)
    }
}

/// `v * scale` rounded to the nearest integer, ties to even, computed on the
/// exact binary value of `v` (finite, not negative). Saturates far beyond
/// anything the page prints (2^74).
fn scaled_round(v: f64, scale: u128) -> u128 {
    let bits = v.to_bits();
    let exp_bits = ((bits >> 52) & 0x7ff) as i32;
    let frac_bits = u128::from(bits & ((1 << 52) - 1));
    // v = mant * 2^exp exactly.
    let (mant, exp) = if exp_bits == 0 {
        (frac_bits, -1074)
    } else {
        (frac_bits | 1 << 52, exp_bits - 1075)
    };
    let num = mant * scale;
    if exp >= 0 {
        return if exp > 64 { u128::MAX } else { num << exp };
    }
    let shift = (-exp) as u32;
    if shift >= 127 {
        // Below 2^-74 even after scaling: rounds to zero.
        return 0;
    }
    let q = num >> shift;
    let r = num & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    if r > half || (r == half && q % 2 == 1) {
        q + 1
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(v: f64, d: u32) {
        let want = match d {
            0 => format!("{v:.0}"),
            1 => format!("{v:.1}"),
            2 => format!("{v:.2}"),
            _ => format!("{v:.3}"),
        };
        assert_eq!(Fixed(v, d).to_string(), want, "{v:?} to {d} places");
    }

    #[test]
    fn prints_milliseconds_as_seconds_like_the_standard_library() {
        for ms in 0..2_000_000u64 {
            same(ms as f64 / 1000.0, 2);
        }
        for ms in (0..200_000_000u64).step_by(997) {
            same(ms as f64 / 1000.0, 2);
            same(ms as f64 / 1000.0, 1);
        }
    }

    #[test]
    fn prints_sizes_and_ratios_like_the_standard_library() {
        for b in (0..50_000_000u64).step_by(101) {
            same(b as f64 / (1u64 << 20) as f64, 1);
            same(b as f64 / 1024.0, 0);
            same(b as f64 / 1024.0, 1);
        }
        for x in [
            0.5, 1.5, 2.5, 0.125, 0.375, 0.25, 0.05, 0.15, 1e-9, 1e15, 123456.789,
        ] {
            for d in 0..=3 {
                same(x, d);
                same(-x, d);
            }
        }
        same(-0.0, 2);
        assert_eq!(Fixed(f64::NAN, 2).to_string(), format!("{:.2}", f64::NAN));
        assert_eq!(
            Fixed(f64::INFINITY, 1).to_string(),
            format!("{:.1}", f64::INFINITY)
        );
        assert_eq!(
            Fixed(f64::NEG_INFINITY, 1).to_string(),
            format!("{:.1}", f64::NEG_INFINITY)
        );
        assert_eq!(format!("{:>7}", Fixed(1.25, 1)), format!("{:>7.1}", 1.25));
    }
}
