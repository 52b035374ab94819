//! The grid study: every method at every grid value, timed, with observed and local orders.
//!
//! [`run_study`] runs each [`Runner`] at each value of a step-size or tolerance grid, times
//! every run with [`time_runs`] and collects a [`Measurement`] per point. A run that fails (the
//! integrator returns an error, the outcome is invalid) does not stop the study: it is recorded
//! as a [`Failure`] of that method at that value, so that one unstable step size or one
//! unattainable tolerance does not discard a whole figure's data. Failures are kept apart from
//! the measurements, listed by [`Experiment::failures`] and written by
//! [`Experiment::failures_table`]; [`Experiment::is_complete`] says whether there were none.
//!
//! From the measurements of one method, in grid order, with `v` the grid values actually used:
//!
//! - the **observed order** (step-size grids): the least-squares slope of `ln e` against
//!   `ln h` over all measurements ([`lieode::order::observed_order`]);
//! - the **local orders** between consecutive measurements,
//!   `p_i = ln(e_{i+1}/e_i) / ln(v_{i+1}/v_i)`. On a tolerance grid this is the exponent of
//!   tolerance proportionality (`e ∝ tol^{p_i}`, ideally about 1).
//!
//! # References
//! - E. Hairer, S. P. Nørsett, G. Wanner, *Solving Ordinary Differential Equations I*, 2nd ed.,
//!   Springer (1993), §II.1 (convergence order), §II.4 (tolerance proportionality), §II.10
//!   (numerical comparisons over tolerance grids).
//! - P. J. Roache, *Code verification by the method of manufactured solutions*, J. Fluids Eng.
//!   124 (2002), 4–10 (observed order from a grid of step sizes).

use super::timing::{TimingOptions, time_runs};
use super::{GridKind, RunOutcome, Runner};
use crate::error::{Error, Result};
use lieode::order::observed_order;

/// One method at one grid value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measurement {
    /// The grid value actually used: the step size `h` or the tolerance (see
    /// [`RunOutcome::used`]).
    pub value: f64,
    /// The grid value requested.
    pub requested: f64,
    /// The error against the reference (finite, ≥ 0).
    pub error: f64,
    /// Right-hand-side evaluations of one run.
    pub evaluations: usize,
    /// Steps of one run.
    pub steps: usize,
    /// The median wall time of one run, in seconds.
    pub seconds: f64,
    /// How many runs were timed.
    pub repeats: usize,
}

/// A run that failed: the method's error, at the grid value requested.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// The grid value requested.
    pub value: f64,
    /// What went wrong.
    pub error: Error,
}

/// The results of one method over the grid.
#[derive(Debug, Clone, PartialEq)]
pub struct MethodResult {
    /// The method's name.
    pub method: String,
    /// The successful runs, in grid order.
    pub measurements: Vec<Measurement>,
    /// The failed runs, in grid order.
    pub failures: Vec<Failure>,
    /// Step-size grids: the least-squares slope of `ln e` against `ln h` over all measurements
    /// ([`observed_order`]). `None` on tolerance grids, with fewer than two measurements, or
    /// when an error is zero (the logarithm is undefined).
    pub observed_order: Option<f64>,
    /// `ln(e_{i+1}/e_i) / ln(v_{i+1}/v_i)` between consecutive measurements (one fewer than
    /// the measurements; NaN where one of the two errors is zero).
    pub local_orders: Vec<f64>,
}

/// The results of a study: one problem, one grid, several methods.
#[derive(Debug, Clone, PartialEq)]
pub struct Experiment {
    /// The problem's name, as it appears in tables.
    pub problem: String,
    /// What the grid values are.
    pub kind: GridKind,
    /// One entry per method, in the order of the runners.
    pub results: Vec<MethodResult>,
}

impl Experiment {
    /// The results of the method called `name`.
    pub fn method(&self, name: &str) -> Option<&MethodResult> {
        self.results.iter().find(|r| r.method == name)
    }

    /// Every failed run, with its method's name, in study order.
    pub fn failures(&self) -> impl Iterator<Item = (&str, &Failure)> {
        self.results
            .iter()
            .flat_map(|r| r.failures.iter().map(move |f| (r.method.as_str(), f)))
    }

    /// Whether every run succeeded.
    pub fn is_complete(&self) -> bool {
        self.results.iter().all(|r| r.failures.is_empty())
    }
}

/// Runs every runner at every grid value, timing each run (see the [module docs](self)).
///
/// For each runner in turn and each grid value `v` in the order given, the run `runner.run(v)`
/// is timed by [`time_runs`] with `timing`, and its outcome is checked: the error must be finite
/// and non-negative, the value actually used ([`RunOutcome::used`], default `v`) finite,
/// positive and different from the values of the method's earlier measurements. A valid
/// outcome becomes a [`Measurement`]; an error of the run or an invalid outcome becomes a
/// [`Failure`] (an [`Error::InvalidParameter`] naming `error`, `used`, or `grid` for a repeated
/// used value). Then the orders of each method are computed.
///
/// # Errors
/// [`Error::InvalidParameter`] naming
/// - `grid` if it is empty, or a value is not finite and positive, or two values are equal;
/// - `runners` if there are none, or two have the same name;
/// - the field of `timing` that [`TimingOptions::validate`] rejects.
///
/// # Examples
/// ```
/// use lieode_study::experiment::{run_study, GridKind, Runner, RunOutcome, TimingOptions};
/// let mut runners = [
///     Runner::new("second order", |h: f64| Ok(RunOutcome::new(3.0 * h * h, 0, 0))),
///     Runner::new("fourth order", |h: f64| Ok(RunOutcome::new(h.powi(4), 0, 0))),
/// ];
/// let grid = [0.1, 0.05, 0.025];
/// let study = run_study("synthetic", GridKind::StepSize, &grid, &mut runners, &TimingOptions::once())?;
/// let p = study.results[1].observed_order.unwrap();
/// assert!((p - 4.0).abs() < 1e-12);
/// assert_eq!(study.results[0].local_orders.len(), 2);
/// # Ok::<(), lieode_study::Error>(())
/// ```
pub fn run_study(
    problem: &str,
    kind: GridKind,
    grid: &[f64],
    runners: &mut [Runner<'_>],
    timing: &TimingOptions,
) -> Result<Experiment> {
    check_grid(grid)?;
    timing.validate()?;
    if runners.is_empty() {
        return Err(Error::InvalidParameter {
            name: "runners",
            value: "none".into(),
            expected: "at least one runner".into(),
        });
    }
    for (i, r) in runners.iter().enumerate() {
        if runners[..i].iter().any(|o| o.name == r.name) {
            return Err(Error::InvalidParameter {
                name: "runners",
                value: format!("`{}` twice", r.name),
                expected: "distinct method names".into(),
            });
        }
    }
    let results = runners
        .iter_mut()
        .map(|runner| run_method(kind, grid, runner, timing))
        .collect();
    Ok(Experiment {
        problem: problem.to_string(),
        kind,
        results,
    })
}

/// Checks that the grid is non-empty, finite, positive and free of repeated values.
fn check_grid(grid: &[f64]) -> Result<()> {
    let bad = |value: String, expected: &str| Error::InvalidParameter {
        name: "grid",
        value,
        expected: expected.into(),
    };
    if grid.is_empty() {
        return Err(bad("[]".into(), "at least one grid value"));
    }
    if let Some(v) = grid.iter().find(|v| !(v.is_finite() && **v > 0.0)) {
        return Err(bad(format!("{v:e}"), "finite, positive grid values"));
    }
    for (i, v) in grid.iter().enumerate() {
        if grid[..i].contains(v) {
            return Err(bad(format!("{v:e} twice"), "distinct grid values"));
        }
    }
    Ok(())
}

/// One runner over the whole grid.
fn run_method(
    kind: GridKind,
    grid: &[f64],
    runner: &mut Runner<'_>,
    timing: &TimingOptions,
) -> MethodResult {
    let mut measurements: Vec<Measurement> = Vec::with_capacity(grid.len());
    let mut failures = Vec::new();
    for &requested in grid {
        let attempt = time_runs(timing, || runner.run(requested)).and_then(|timed| {
            let outcome = timed.value;
            let value = checked_outcome(kind, requested, &outcome, &measurements)?;
            Ok(Measurement {
                value,
                requested,
                error: outcome.error,
                evaluations: outcome.evaluations,
                steps: outcome.steps,
                seconds: timed.seconds,
                repeats: timed.repeats,
            })
        });
        match attempt {
            Ok(m) => measurements.push(m),
            Err(error) => failures.push(Failure {
                value: requested,
                error,
            }),
        }
    }
    let values: Vec<f64> = measurements.iter().map(|m| m.value).collect();
    let errors: Vec<f64> = measurements.iter().map(|m| m.error).collect();
    let observed = match kind {
        GridKind::StepSize if values.len() >= 2 && errors.iter().all(|e| *e > 0.0) => {
            observed_order(&values, &errors).ok()
        }
        _ => None,
    };
    let local_orders = measurements
        .windows(2)
        .map(|w| local_order(&w[0], &w[1]))
        .collect();
    MethodResult {
        method: runner.name.clone(),
        measurements,
        failures,
        observed_order: observed,
        local_orders,
    }
}

/// The grid value a valid outcome was run at; an error for an invalid one.
fn checked_outcome(
    kind: GridKind,
    requested: f64,
    outcome: &RunOutcome,
    earlier: &[Measurement],
) -> Result<f64> {
    if !(outcome.error.is_finite() && outcome.error >= 0.0) {
        return Err(Error::InvalidParameter {
            name: "error",
            value: format!("{:e}", outcome.error),
            expected: "a finite, non-negative error from the run".into(),
        });
    }
    let value = outcome.used.unwrap_or(requested);
    if !(value.is_finite() && value > 0.0) {
        return Err(Error::InvalidParameter {
            name: "used",
            value: format!("{value:e}"),
            expected: "a finite, positive grid value".into(),
        });
    }
    if earlier.iter().any(|m| m.value == value) {
        return Err(Error::InvalidParameter {
            name: "grid",
            value: format!("{} = {requested:e}, run as {value:e}", kind.column()),
            expected: "grid values giving distinct runs (this one was already measured)".into(),
        });
    }
    Ok(value)
}

/// `ln(e_b/e_a) / ln(v_b/v_a)`; NaN if an error is zero.
fn local_order(a: &Measurement, b: &Measurement) -> f64 {
    if a.error > 0.0 && b.error > 0.0 {
        (b.error / a.error).ln() / (b.value / a.value).ln()
    } else {
        f64::NAN
    }
}
