//! # Observed orders and convergence studies
//!
//! The order a method reaches on a problem is measured, not assumed: run it over a grid of
//! step sizes, measure the error against an exact or reference solution, and fit the slope of
//! `log(error)` against `log(h)` by least squares.

use crate::error::{Error, Result};

/// The least-squares slope of `log(error)` against `log(h)`: the observed order.
///
/// # Errors
/// [`Error::InvalidParameter`] if the slices differ in length, have fewer than two points, or
/// contain non-positive or non-finite values.
///
/// # Examples
/// ```
/// let hs = [0.1, 0.05, 0.025];
/// let errors: Vec<f64> = hs.iter().map(|h: &f64| 3.0 * h.powi(4)).collect();
/// let p = lieode::order::observed_order(&hs, &errors).unwrap();
/// assert!((p - 4.0).abs() < 1e-12);
/// ```
pub fn observed_order(hs: &[f64], errors: &[f64]) -> Result<f64> {
    if hs.len() != errors.len() || hs.len() < 2 {
        return Err(Error::InvalidParameter {
            name: "hs",
            value: format!("{} step sizes and {} errors", hs.len(), errors.len()),
            expected: "equally many, at least two".into(),
        });
    }
    for (name, values) in [("hs", hs), ("errors", errors)] {
        if let Some(bad) = values.iter().find(|v| !(v.is_finite() && **v > 0.0)) {
            return Err(Error::InvalidParameter {
                name,
                value: format!("{bad:e}"),
                expected: "finite positive values".into(),
            });
        }
    }
    let n = hs.len() as f64;
    let xs: Vec<f64> = hs.iter().map(|h| h.ln()).collect();
    let ys: Vec<f64> = errors.iter().map(|e| e.ln()).collect();
    let mx = xs.iter().sum::<f64>() / n;
    let my = ys.iter().sum::<f64>() / n;
    let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = xs.iter().map(|x| (x - mx) * (x - mx)).sum();
    if sxx == 0.0 {
        return Err(Error::InvalidParameter {
            name: "hs",
            value: format!("{hs:?}"),
            expected: "at least two different step sizes".into(),
        });
    }
    Ok(sxy / sxx)
}

/// Errors of one method over a grid of step counts, with the fitted order.
#[derive(Debug, Clone, PartialEq)]
pub struct Convergence {
    /// The step sizes.
    pub hs: Vec<f64>,
    /// The errors at the final time.
    pub errors: Vec<f64>,
    /// Right-hand-side evaluations of each run.
    pub evaluations: Vec<usize>,
    /// [`observed_order`] of `errors` against `hs`.
    pub order: f64,
}

/// Runs `run(steps)` for every entry of `steps` (each run integrates the span `length` with
/// that many equal steps and returns its error and its number of evaluations) and fits the
/// order.
///
/// # Errors
/// [`Error::InvalidParameter`] for an empty grid, a zero step count or a non-finite length;
/// any error of `run`; the errors of [`observed_order`] (e.g. a zero error: pick a coarser
/// grid).
pub fn convergence_study(
    length: f64,
    steps: &[usize],
    mut run: impl FnMut(usize) -> Result<(f64, usize)>,
) -> Result<Convergence> {
    if steps.is_empty() || steps.contains(&0) || !length.is_finite() || length == 0.0 {
        return Err(Error::InvalidParameter {
            name: "steps",
            value: format!("{steps:?} over a span of {length:e}"),
            expected: "a non-empty list of positive step counts over a finite, non-empty span"
                .into(),
        });
    }
    let mut hs = Vec::with_capacity(steps.len());
    let mut errors = Vec::with_capacity(steps.len());
    let mut evaluations = Vec::with_capacity(steps.len());
    for &n in steps {
        let (e, evals) = run(n)?;
        hs.push((length / n as f64).abs());
        errors.push(e);
        evaluations.push(evals);
    }
    let order = observed_order(&hs, &errors)?;
    Ok(Convergence {
        hs,
        errors,
        evaluations,
        order,
    })
}
