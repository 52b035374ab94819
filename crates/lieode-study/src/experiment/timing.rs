//! Median wall time of a run, repeated until the median is stable or a budget is spent.
//!
//! One timing is noisy (other processes, frequency scaling, cache state), and the noise is
//! one-sided: interruptions only ever add time. The median of repeated runs is a robust location
//! estimate that ignores the occasional slow outlier (Chen & Revels 2016, who use the minimum
//! and the median for the same reason). The procedure of [`time_runs`]:
//!
//! 1. run `f` `min_repeats` times;
//! 2. then keep running it, in batches of `min_repeats` runs, and after every complete batch
//!    compare the median `m` of all `n` durations with the median `m'` of the first
//!    `n − min_repeats` (all but the last batch): stop when `|m − m'| ≤ tolerance · m`
//!    (*stable*);
//! 3. stop in any case after `max_repeats` runs, or once the wall time since the first run has
//!    reached `max_seconds` (checked after each run, from the `min_repeats`-th on: at least
//!    `min_repeats` runs are always made, however long they take).
//!
//! The median of an even number of durations is the mean of the middle two.
//!
//! # References
//! - J. Chen, J. Revels, *Robust benchmarking in noisy environments*, arXiv:1608.04295 (2016).

use std::hint::black_box;
use std::time::Instant;

use crate::error::{Error, Result};

/// How often and how long a run is repeated to time it; see the [module docs](self) for the
/// procedure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimingOptions {
    /// Runs always made, and the batch size of the stability test (≥ 1).
    pub min_repeats: usize,
    /// Runs never exceeded (≥ `min_repeats`).
    pub max_repeats: usize,
    /// Wall-time budget in seconds for one grid value, checked after each run once
    /// `min_repeats` runs are done (> 0; `f64::INFINITY` for no budget).
    pub max_seconds: f64,
    /// Relative change of the median below which it counts as stable (finite, ≥ 0).
    pub tolerance: f64,
}

impl Default for TimingOptions {
    /// At least 3 and at most 50 runs, one second per grid value, medians stable to 5 %.
    fn default() -> Self {
        Self {
            min_repeats: 3,
            max_repeats: 50,
            max_seconds: 1.0,
            tolerance: 0.05,
        }
    }
}

impl TimingOptions {
    /// Exactly one run, not repeated (for tests, and for runs too long to repeat): the time is
    /// that of the single run.
    pub fn once() -> Self {
        Self {
            min_repeats: 1,
            max_repeats: 1,
            ..Self::default()
        }
    }

    /// Checks the options.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `min_repeats` (zero), `max_repeats` (below
    /// `min_repeats`), `max_seconds` (not positive, or NaN) or `tolerance` (negative or not
    /// finite).
    pub fn validate(&self) -> Result<()> {
        if self.min_repeats == 0 {
            return Err(Error::InvalidParameter {
                name: "min_repeats",
                value: "0".into(),
                expected: "at least one run".into(),
            });
        }
        if self.max_repeats < self.min_repeats {
            return Err(Error::InvalidParameter {
                name: "max_repeats",
                value: self.max_repeats.to_string(),
                expected: format!("at least min_repeats = {}", self.min_repeats),
            });
        }
        if self.max_seconds.is_nan() || self.max_seconds <= 0.0 {
            return Err(Error::InvalidParameter {
                name: "max_seconds",
                value: format!("{:e}", self.max_seconds),
                expected: "a positive budget in seconds (inf for none)".into(),
            });
        }
        crate::error::check_finite("tolerance", self.tolerance)?;
        if !(self.tolerance.is_finite() && self.tolerance >= 0.0) {
            return Err(Error::InvalidParameter {
                name: "tolerance",
                value: format!("{:e}", self.tolerance),
                expected: "a finite, non-negative relative tolerance".into(),
            });
        }
        Ok(())
    }
}

/// The timing of a repeated run.
#[derive(Debug, Clone, PartialEq)]
pub struct Timed<T> {
    /// The median wall time of one run, in seconds.
    pub seconds: f64,
    /// How many runs were made.
    pub repeats: usize,
    /// Whether the stopping test `|m − m'| ≤ tolerance · m` was met (rather than a limit).
    pub stable: bool,
    /// The value returned by the first run (later runs are expected to return the same).
    pub value: T,
}

/// Times `f` by repeated runs (the procedure of the [module docs](self)) and returns the median
/// wall time of one run, the number of runs, whether the median stabilised, and the first run's
/// value.
///
/// # Errors
/// Those of [`TimingOptions::validate`]; the first error `f` returns (no further runs are made).
///
/// # Examples
/// ```
/// use lieode_study::experiment::{time_runs, TimingOptions};
/// let options = TimingOptions { min_repeats: 2, max_repeats: 6, ..TimingOptions::default() };
/// let mut calls = 0;
/// let timed = time_runs(&options, || {
///     calls += 1;
///     Ok((0..1000).map(|i| (i as f64).sqrt()).sum::<f64>())
/// })?;
/// assert!(timed.repeats >= 2 && timed.repeats <= 6);
/// assert_eq!(calls, timed.repeats);
/// assert!(timed.seconds >= 0.0);
/// # Ok::<(), lieode_study::Error>(())
/// ```
pub fn time_runs<T>(options: &TimingOptions, mut f: impl FnMut() -> Result<T>) -> Result<Timed<T>> {
    options.validate()?;
    let batch = options.min_repeats;
    let start = Instant::now();
    let mut durations: Vec<f64> = Vec::with_capacity(options.max_repeats.min(1024));
    let mut first: Option<T> = None;
    let mut stable = false;
    loop {
        let t = Instant::now();
        let value = f()?;
        let seconds = t.elapsed().as_secs_f64();
        black_box(&value);
        durations.push(seconds);
        if first.is_none() {
            first = Some(value);
        }
        let n = durations.len();
        if n >= options.max_repeats {
            break;
        }
        if n < options.min_repeats {
            continue;
        }
        if n >= 2 * batch && n.is_multiple_of(batch) {
            let all = median(&durations);
            let before = median(&durations[..n - batch]);
            if (all - before).abs() <= options.tolerance * all {
                stable = true;
                break;
            }
        }
        if start.elapsed().as_secs_f64() >= options.max_seconds {
            break;
        }
    }
    let value = first.ok_or_else(|| Error::InvalidParameter {
        name: "max_repeats",
        value: options.max_repeats.to_string(),
        expected: "at least one run".into(),
    })?;
    Ok(Timed {
        seconds: median(&durations),
        repeats: durations.len(),
        stable,
        value,
    })
}

/// The median wall time in seconds of one run of `f`, and the first run's value: [`time_runs`]
/// without the bookkeeping.
///
/// # Errors
/// As [`time_runs`].
///
/// # Examples
/// ```
/// use lieode_study::experiment::{median_seconds, TimingOptions};
/// let (seconds, value) = median_seconds(&TimingOptions::once(), || Ok(6 * 7))?;
/// assert_eq!(value, 42);
/// assert!(seconds >= 0.0);
/// # Ok::<(), lieode_study::Error>(())
/// ```
pub fn median_seconds<T>(
    options: &TimingOptions,
    f: impl FnMut() -> Result<T>,
) -> Result<(f64, T)> {
    let timed = time_runs(options, f)?;
    Ok((timed.seconds, timed.value))
}

/// The median of a non-empty slice (mean of the middle two for an even length; NaN for an
/// empty slice).
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => sorted[n / 2],
        _ => 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]),
    }
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&[7.0]), 7.0);
        assert!(median(&[]).is_nan());
    }
}
