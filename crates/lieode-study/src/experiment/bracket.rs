//! The step size that reaches a target error, by bracketing on a measured error curve.
//!
//! del Valle et al. (2024, §4 and Table 2) compare integrators at equal accuracy: from the
//! errors measured on a grid of time steps (their Fig. 2) they find, for each target error, the
//! time step at which the error curve crosses the target, with a bracketing root finder on the
//! curve interpolated linearly in `(log10 Δt, log10 error)`. Here the root is found directly:
//! on the grid sorted by step size, with `x_i = log10 h_i`, `y_i = log10 e_i` and
//! `Y = log10 target`, a segment `[x_i, x_{i+1}]` brackets the target when `y_i` and `y_{i+1}`
//! lie on either side of `Y` (or on it), and the linear interpolant crosses it at
//!
//! ```text
//! s = (Y − y_i) / (y_{i+1} − y_i) ∈ [0, 1],   log10 h* = x_i + s (x_{i+1} − x_i),
//! i.e. h* = h_i (h_{i+1} / h_i)^s.
//! ```
//!
//! On a power law `e = C h^p` the interpolant is the curve itself, so `h*` is exact up to
//! rounding, and a target equal to a measured error returns that grid step exactly.
//!
//! **Non-monotone curves.** Below some step size, errors often stop falling and rise again
//! (round-off accumulated over many steps), and an error curve may have bumps; the interpolant
//! can then cross the target several times. [`step_for_error`] returns the *largest* step that
//! reaches the target: the crossing `h*` such that every grid step larger than `h*` has an
//! error above the target — the cheapest step size that is known to be accurate enough. A
//! bisection on the whole grid interval, as in the paper (Roots.jl with the bracket
//! `log10 Δt ∈ (−7, −1)`), gives the same answer when the crossing is unique and an unspecified
//! one of the crossings otherwise. [`error_crossings`] lists every crossing.
//!
//! The functions work on any positive abscissa: with tolerances in place of step sizes they give
//! the tolerance that reaches a target error.
//!
//! # References
//! - M. del Valle, V. Angelidakis, S. Roy, J. D. Muñoz, T. Pöschel, *SPIRAL: An efficient
//!   algorithm for the integration of the equation of rotational motion*, Comput. Phys. Commun.
//!   297 (2024) 109077, §4, Table 2 and Fig. 5.

use crate::error::{Error, Result};

/// A grid point: `(h, e, log10 e)`.
type LogPoint = (f64, f64, f64);

/// Checks the input and returns the points sorted by increasing step, with `log10 target`.
fn prepare(steps: &[f64], errors: &[f64], target: f64) -> Result<(Vec<LogPoint>, f64)> {
    if steps.len() != errors.len() {
        return Err(Error::InvalidParameter {
            name: "errors",
            value: format!("{} errors for {} steps", errors.len(), steps.len()),
            expected: "one error per step".into(),
        });
    }
    if steps.len() < 2 {
        return Err(Error::InvalidParameter {
            name: "steps",
            value: format!("{steps:?}"),
            expected: "at least two grid points".into(),
        });
    }
    for (name, values) in [("steps", steps), ("errors", errors)] {
        if let Some(bad) = values.iter().find(|v| !(v.is_finite() && **v > 0.0)) {
            return Err(Error::InvalidParameter {
                name,
                value: format!("{bad:e}"),
                expected: "finite, positive values (a logarithm is taken)".into(),
            });
        }
    }
    crate::error::check_finite("target", target)?;
    if !(target.is_finite() && target > 0.0) {
        return Err(Error::InvalidParameter {
            name: "target",
            value: format!("{target:e}"),
            expected: "a finite, positive target error".into(),
        });
    }
    let mut points: Vec<LogPoint> = steps
        .iter()
        .zip(errors)
        .map(|(&h, &e)| (h, e, e.log10()))
        .collect();
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    if let Some(w) = points.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(Error::InvalidParameter {
            name: "steps",
            value: format!("{:e} twice", w[0].0),
            expected: "distinct step sizes".into(),
        });
    }
    Ok((points, target.log10()))
}

/// The crossing of the target on the segment from `a` to `b` (`y_a ≠ y_b`):
/// `h_a (h_b / h_a)^s`, `s = (Y − y_a)/(y_b − y_a)`.
fn interpolate(a: LogPoint, b: LogPoint, y: f64) -> f64 {
    let s = (y - a.2) / (b.2 - a.2);
    let ratio = b.0 / a.0;
    if ratio.is_finite() {
        a.0 * ratio.powf(s)
    } else {
        // A subnormal h_a overflows the ratio: interpolate the logarithms themselves.
        let (la, lb) = (a.0.log10(), b.0.log10());
        10f64.powf(la + s * (lb - la))
    }
}

/// The largest step size at which the error curve, interpolated linearly in
/// `(log10 h, log10 error)`, reaches `target` (the procedure of the [module docs](self)).
///
/// The grid may be given in any order. If the error at the largest step equals the target,
/// that step is returned; otherwise, walking down from the largest step, the first segment
/// whose lower end has an error at or below the target contains the answer (exactly the grid
/// step if its error equals the target).
///
/// # Errors
/// [`Error::InvalidParameter`] naming
/// - `errors` if the slices differ in length, or an error is zero, negative or not finite;
/// - `steps` for fewer than two points, a step that is not finite and positive, or a repeated
///   step;
/// - `target` if it is not finite and positive, if the error at the largest step is already
///   below it (the step that reaches it lies above the grid: extend the grid to larger steps),
///   or if every error is above it (extend the grid to smaller steps).
///
/// # Examples
/// ```
/// use lieode_study::experiment::step_for_error;
/// // e = 2 h³ on a grid of halvings: log–log linear, so the interpolation is exact.
/// let hs = [0.1, 0.05, 0.025, 0.0125];
/// let errors: Vec<f64> = hs.iter().map(|h: &f64| 2.0 * h.powi(3)).collect();
/// let h = step_for_error(&hs, &errors, 1e-5)?;
/// assert!((h - (1e-5f64 / 2.0).cbrt()).abs() < 1e-15);
/// # Ok::<(), lieode_study::Error>(())
/// ```
pub fn step_for_error(steps: &[f64], errors: &[f64], target: f64) -> Result<f64> {
    let (points, y) = prepare(steps, errors, target)?;
    let out_of_range = |expected: String| Error::InvalidParameter {
        name: "target",
        value: format!("{target:e}"),
        expected,
    };
    let n = points.len();
    let top = points[n - 1];
    if top.2 == y {
        return Ok(top.0);
    }
    if top.2 < y {
        return Err(out_of_range(format!(
            "a target below the error {:e} at the largest step h = {:e} (the step reaching it \
             lies above the grid: extend the grid to larger steps)",
            top.1, top.0
        )));
    }
    for i in (0..n - 1).rev() {
        let (a, b) = (points[i], points[i + 1]);
        if a.2 == y {
            return Ok(a.0);
        }
        if a.2 < y {
            return Ok(interpolate(a, b, y));
        }
    }
    let smallest = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    Err(out_of_range(format!(
        "a target at or above the smallest error {:e} on the grid (extend the grid to smaller \
         steps)",
        smallest
    )))
}

/// Every step size at which the error curve, interpolated linearly in
/// `(log10 h, log10 error)`, equals `target`, in increasing order: the grid steps whose error
/// equals the target, and one point inside every segment whose end errors lie strictly on
/// either side of it. Empty if the curve never reaches the target.
///
/// # Errors
/// As [`step_for_error`], except that a target outside the range of the errors is not an error
/// (the list is empty).
///
/// # Examples
/// ```
/// use lieode_study::experiment::error_crossings;
/// // Errors fall, then rise again below h = 1e-3 (round-off): the target 1e-9 is met twice.
/// let hs = [1e-4, 1e-3, 1e-2, 1e-1];
/// let errors = [1e-8, 1e-10, 1e-7, 1e-3];
/// let crossings = error_crossings(&hs, &errors, 1e-9)?;
/// assert_eq!(crossings.len(), 2);
/// // Falling branch: s = 1/2 of the way from 1e-4 to 1e-3; rising branch: s = 1/3 from 1e-3.
/// assert!((crossings[0] / (1e-4 * 10f64.sqrt()) - 1.0).abs() < 1e-14);
/// assert!((crossings[1] / (1e-3 * 10f64.cbrt()) - 1.0).abs() < 1e-14);
/// # Ok::<(), lieode_study::Error>(())
/// ```
pub fn error_crossings(steps: &[f64], errors: &[f64], target: f64) -> Result<Vec<f64>> {
    let (points, y) = prepare(steps, errors, target)?;
    let mut crossings = Vec::new();
    for (i, &a) in points.iter().enumerate() {
        if a.2 == y {
            crossings.push(a.0);
        }
        if let Some(&b) = points.get(i + 1)
            && (a.2 - y) * (b.2 - y) < 0.0
        {
            crossings.push(interpolate(a, b, y));
        }
    }
    Ok(crossings)
}
