//! Axis ranges and ticks. Positions along an axis are "coordinates": the value itself on a
//! linear axis, `log₁₀` of it on a logarithmic one, so that the drawing maps both linearly.

use super::curve::Scale;
use super::style::AXIS_PADDING;

/// A labelled tick at a coordinate.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Tick {
    pub(crate) at: f64,
    pub(crate) label: String,
}

/// The ticks of an axis: labelled ones (with a grid line and a long tick mark) and unlabelled
/// ones (faint grid line, short tick mark).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Ticks {
    pub(crate) major: Vec<Tick>,
    pub(crate) minor: Vec<f64>,
}

/// The visible coordinate range of an axis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Axis {
    pub(crate) scale: Scale,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
}

/// At most this many labelled decades before a logarithmic axis labels every k-th one.
const MAX_DECADE_LABELS: i64 = 8;

impl Axis {
    /// The range showing data from `min` to `max` (positive on a logarithmic axis) with some
    /// room on both sides, so that markers at the extremes are not cut. A logarithmic range
    /// spans at least one decade, which guarantees two labelled ticks of the 1-2-5 sequence.
    pub(crate) fn fit(scale: Scale, min: f64, max: f64) -> Result<Self, String> {
        let (a, b) = match scale {
            Scale::Linear => (min, max),
            Scale::Log => (min.log10(), max.log10()),
        };
        let span = b - a;
        if !span.is_finite() {
            return Err(format!(
                "the values from {min:e} to {max:e} span more than the floating-point range"
            ));
        }
        // A constant curve (to rounding) is shown in the middle of a range of ±10 % of its
        // value (±1 at zero); a logarithmic range spans at least a decade.
        let (a, b) = match scale {
            Scale::Log if span < 1.0 => {
                let centre = 0.5 * (a + b);
                (centre - 0.5, centre + 0.5)
            }
            Scale::Linear if span <= 4.0 * f64::EPSILON * a.abs().max(b.abs()) => {
                let centre = 0.5 * (a + b);
                let half = if centre == 0.0 {
                    1.0
                } else {
                    0.1 * centre.abs()
                };
                (centre - half, centre + half)
            }
            _ => (a, b),
        };
        let pad = AXIS_PADDING * (b - a);
        let (lo, hi) = (a - pad, b + pad);
        if !(lo.is_finite() && hi.is_finite() && hi > lo) {
            return Err(format!(
                "cannot fit an axis to the values from {min:e} to {max:e}"
            ));
        }
        Ok(Self { scale, lo, hi })
    }

    /// The coordinate of a value.
    pub(crate) fn coord(&self, value: f64) -> f64 {
        match self.scale {
            Scale::Linear => value,
            Scale::Log => value.log10(),
        }
    }

    /// Where a coordinate sits along the axis: 0 at the low end, 1 at the high end.
    pub(crate) fn fraction(&self, coord: f64) -> f64 {
        (coord - self.lo) / (self.hi - self.lo)
    }

    /// The ticks at coarseness `level` (0 is the finest readable choice, each level up drops
    /// labels), or `None` when no coarser set has at least two labels.
    pub(crate) fn ticks(&self, level: usize) -> Option<Ticks> {
        match self.scale {
            Scale::Linear => linear_ticks(self.lo, self.hi, level),
            Scale::Log => log_ticks(self.lo, self.hi, level),
        }
    }
}

/// Ticks at multiples of a step `s·10ᵉ` with `s` in 1, 2, 5: at level 0 the smallest step of
/// at least an eighth of the range (three to nine ticks), each level taking the next step of
/// the sequence. Labels are plain decimals down to 10⁻⁴ and below 10⁵, else scientific.
fn linear_ticks(lo: f64, hi: f64, level: usize) -> Option<Ticks> {
    let raw = (hi - lo) / 8.0;
    let mut e = raw.log10().floor() as i32;
    let mut s_index = [1.0, 2.0, 5.0]
        .iter()
        .position(|s| s * 10f64.powi(e) >= raw * (1.0 - 1e-12))
        .unwrap_or(3);
    s_index += level;
    e += (s_index / 3) as i32;
    let s = [1_i64, 2, 5][s_index % 3];
    let step = s as f64 * 10f64.powi(e);
    if !(step.is_finite() && step > 0.0) {
        return None;
    }
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    if last.saturating_sub(first) < 1 {
        return None;
    }
    let multiples: Vec<i64> = (first..=last)
        .take(64)
        .map(|k| k.saturating_mul(s))
        .collect();
    let plain = e >= -4
        && multiples
            .iter()
            .all(|q| (*q as f64 * 10f64.powi(e)).abs() < 1e5);
    let major = multiples
        .iter()
        .map(|&q| Tick {
            at: q as f64 * 10f64.powi(e),
            label: if plain {
                plain_decimal(q, e)
            } else {
                scientific(q, e)
            },
        })
        .collect();
    Some(Ticks {
        major,
        minor: Vec::new(),
    })
}

/// Ticks of a logarithmic axis (coordinates are exponents). Over three or more decades, labels
/// at every k-th power of ten (k from 1, 2, 3, 5, 10, … chosen for at most eight labels, one
/// step up per level) and faint ticks at up to four decades in between (and at 2…9 × 10ⁿ when
/// k = 1 over at most six decades); over fewer, labels at 1, 2, 5 × 10ⁿ (level 0) or at powers
/// of ten only (level 1).
fn log_ticks(lo: f64, hi: f64, level: usize) -> Option<Ticks> {
    let first = lo.ceil() as i64;
    let last = hi.floor() as i64;
    let decades = last - first + 1;
    let mut major = Vec::new();
    let mut minor = Vec::new();
    if decades >= 3 {
        let k_start = DECADE_STEPS
            .iter()
            .position(|&k| multiples_in(first, last, k) <= MAX_DECADE_LABELS)
            .unwrap_or(DECADE_STEPS.len() - 1);
        let &k = DECADE_STEPS.get(k_start + level)?;
        // Unlabelled decades in between, at most four between labels.
        let sub = DECADE_STEPS
            .iter()
            .copied()
            .find(|&d| k % d == 0 && k / d <= 5)
            .unwrap_or(k);
        for n in first..=last {
            if n.rem_euclid(k) == 0 {
                major.push((1, n));
            } else if n.rem_euclid(sub) == 0 {
                minor.push(n as f64);
            }
        }
        if k == 1 && decades <= 6 {
            for n in first - 1..=last {
                for m in 2..=9 {
                    let c = n as f64 + (m as f64).log10();
                    if (lo..=hi).contains(&c) {
                        minor.push(c);
                    }
                }
            }
        }
    } else {
        let labelled: &[i64] = match level {
            0 => &[1, 2, 5],
            1 => &[1],
            _ => return None,
        };
        for n in lo.floor() as i64..=hi.ceil() as i64 {
            for m in 1..=9 {
                let c = n as f64 + (m as f64).log10();
                if (lo..=hi).contains(&c) {
                    if labelled.contains(&m) {
                        major.push((m, n));
                    } else {
                        minor.push(c);
                    }
                }
            }
        }
    }
    if major.len() < 2 {
        return None;
    }
    let plain = major.iter().all(|&(_, n)| (-3..=4).contains(&n));
    let major = major
        .into_iter()
        .map(|(m, n)| Tick {
            at: n as f64 + (m as f64).log10(),
            label: if plain {
                plain_decimal(m, n as i32)
            } else {
                format!("{m}e{n}")
            },
        })
        .collect();
    Some(Ticks { major, minor })
}

/// Steps between labelled decades.
const DECADE_STEPS: [i64; 12] = [1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 500];

/// How many multiples of `k` lie in `first..=last`.
fn multiples_in(first: i64, last: i64, k: i64) -> i64 {
    last.div_euclid(k) - (first - 1).div_euclid(k)
}

/// `q·10ᵉ` written out in decimal (`-0.25`, `1500`), exactly: digits are placed, not computed
/// in floating point.
fn plain_decimal(q: i64, e: i32) -> String {
    let sign = if q < 0 { "-" } else { "" };
    let digits = q.unsigned_abs().to_string();
    if e >= 0 {
        let zeros = if q == 0 { 0 } else { e as usize };
        return format!("{sign}{digits}{}", "0".repeat(zeros));
    }
    let decimals = e.unsigned_abs() as usize;
    let padded = if digits.len() <= decimals {
        format!("{}{digits}", "0".repeat(decimals + 1 - digits.len()))
    } else {
        digits
    };
    let (int, frac) = padded.split_at(padded.len() - decimals);
    format!("{sign}{int}.{frac}")
}

/// `q·10ᵉ` in scientific notation without superfluous digits (`2.5e-7`, `-1e3`, `0`).
fn scientific(q: i64, e: i32) -> String {
    if q == 0 {
        return "0".into();
    }
    let sign = if q < 0 { "-" } else { "" };
    let (mut a, mut e) = (q.unsigned_abs(), e);
    while a % 10 == 0 {
        a /= 10;
        e += 1;
    }
    let digits = a.to_string();
    let exponent = e + digits.len() as i32 - 1;
    let (lead, rest) = digits.split_at(1);
    if rest.is_empty() {
        format!("{sign}{lead}e{exponent}")
    } else {
        format!("{sign}{lead}.{rest}e{exponent}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(t: &Ticks) -> Vec<&str> {
        t.major.iter().map(|t| t.label.as_str()).collect()
    }

    #[test]
    fn numbers_are_written_exactly() {
        assert_eq!(plain_decimal(25, -2), "0.25");
        assert_eq!(plain_decimal(-3, -1), "-0.3");
        assert_eq!(plain_decimal(10, -1), "1.0");
        assert_eq!(plain_decimal(15, 2), "1500");
        assert_eq!(plain_decimal(0, -2), "0.00");
        assert_eq!(plain_decimal(0, 1), "0");
        assert_eq!(scientific(25, -8), "2.5e-7");
        assert_eq!(scientific(-10, 2), "-1e3");
        assert_eq!(scientific(0, -9), "0");
    }

    #[test]
    fn log_axes_label_powers_of_ten() {
        let axis = Axis::fit(Scale::Log, 1e-9, 1e-2).unwrap();
        let t = axis.ticks(0).unwrap();
        assert_eq!(
            labels(&t),
            [
                "1e-9", "1e-8", "1e-7", "1e-6", "1e-5", "1e-4", "1e-3", "1e-2"
            ]
        );
        let coarser = axis.ticks(1).unwrap();
        assert_eq!(labels(&coarser), ["1e-8", "1e-6", "1e-4", "1e-2"]);
        // Many decades: every k-th, the rest unlabelled.
        let wide = Axis::fit(Scale::Log, 1e-15, 1e3).unwrap().ticks(0).unwrap();
        assert!(
            wide.major.len() <= 8 && wide.major.len() >= 4,
            "{:?}",
            labels(&wide)
        );
        // Less than a decade: 1-2-5, in plain decimals near 1.
        let narrow = Axis::fit(Scale::Log, 0.15, 0.6).unwrap().ticks(0).unwrap();
        assert_eq!(labels(&narrow), ["0.1", "0.2", "0.5", "1"]);
        // A constant: a decade around it.
        let constant = Axis::fit(Scale::Log, 1e-3, 1e-3).unwrap().ticks(0).unwrap();
        assert!(constant.major.len() >= 2);
    }

    #[test]
    fn linear_axes_use_round_steps() {
        let axis = Axis::fit(Scale::Linear, 0.0, 10.0).unwrap();
        assert_eq!(
            labels(&axis.ticks(0).unwrap()),
            ["0", "2", "4", "6", "8", "10"]
        );
        assert_eq!(labels(&axis.ticks(1).unwrap()), ["0", "5", "10"]);
        let small = Axis::fit(Scale::Linear, -3e-7, 3e-7).unwrap();
        assert_eq!(
            labels(&small.ticks(0).unwrap()),
            ["-3e-7", "-2e-7", "-1e-7", "0", "1e-7", "2e-7", "3e-7"]
        );
        let constant = Axis::fit(Scale::Linear, 2.0, 2.0).unwrap();
        assert!(constant.lo < 2.0 && constant.hi > 2.0);
        assert!(Axis::fit(Scale::Linear, -f64::MAX, f64::MAX).is_err());
    }
}
