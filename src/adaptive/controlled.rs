//! Step-size control for any fixed-step engine with an error estimate — for instance the
//! Crouch–Grossman pair CG2(3) on a Lie group, whose stages are products of exponentials and
//! so cannot be lifted through local coordinates like the Runge–Kutta pairs.

use nalgebra::{DefaultAllocator, SVector, allocator::Allocator};

use super::controller::ControllerParameters;
use super::tolerance::Tolerances;
use crate::engine::{Stats, Step};
use crate::error::{Error, Result};
use crate::lie::{AlgebraDim, LieAlgebra, LieGroup};

/// A state whose local error estimates can be measured against tolerances.
pub trait ControlledState: Clone {
    /// The error estimate an engine returns for it.
    type Estimate;
    /// `√(Σ_i (e_i/sk_i)²/N)` with `sk_i = atol_i + rtol_i · max(|y₀|_i, |y₁|_i)`.
    fn error_norm(estimate: &Self::Estimate, y0: &Self, y1: &Self, tolerances: &Tolerances) -> f64;
    /// The number of components (for checking per-component tolerances).
    fn components() -> usize;
}

impl<const N: usize> ControlledState for SVector<f64, N> {
    type Estimate = SVector<f64, N>;
    fn error_norm(e: &Self, y0: &Self, y1: &Self, tol: &Tolerances) -> f64 {
        let sum: f64 = (0..N)
            .map(|i| (e[i] / tol.scale(i, y0[i].abs(), y1[i].abs())).powi(2))
            .sum();
        (sum / N as f64).sqrt()
    }
    fn components() -> usize {
        N
    }
}

impl<G: LieGroup<Scalar = f64>> ControlledState for G
where
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    type Estimate = G::Algebra;
    /// In algebra coordinates, with [`LieGroup::coordinate_magnitude`] as the sizes.
    fn error_norm(e: &G::Algebra, y0: &G, y1: &G, tol: &Tolerances) -> f64 {
        let c = e.to_coords();
        let n = c.len();
        let sum: f64 = (0..n)
            .map(|i| {
                let sk = tol.scale(i, y0.coordinate_magnitude(i), y1.coordinate_magnitude(i));
                (c[i] / sk).powi(2)
            })
            .sum();
        (sum / n as f64).sqrt()
    }
    fn components() -> usize {
        <G::Algebra as LieAlgebra>::dim()
    }
}

/// The accepted steps of a controlled integration.
#[derive(Debug, Clone, PartialEq)]
pub struct ControlledSolution<S> {
    /// Times of the accepted steps (initial time first).
    pub times: Vec<f64>,
    /// States there.
    pub states: Vec<S>,
    /// Evaluations, attempts, accepted and rejected steps.
    pub stats: Stats,
}

/// Integrates with any engine whose steps return an error estimate (an embedded pair), under
/// Hairer's step-size control with exponent `1/(q + 1)`, `q = order − 1` (the embedded order of
/// a `p(p−1)` pair): `fac = clamp(err^{1/(q+1) − 0.75β}/(facold^β·safe), 1/fac2, 1/fac1)`,
/// `h_new = h/fac`, accepted when `err ≤ 1`. The first step is `initial_step` if given, else
/// `10⁻³·|t_end − t0|`. No dense output.
///
/// # Errors
/// [`Error::InvalidParameter`] for invalid tolerances, parameters or times; an engine without
/// error estimate ([`Error::InvalidParameter`] naming `engine`); [`Error::StepSizeTooSmall`],
/// [`Error::MaxStepsExceeded`]; the engine's errors.
///
/// # References
/// Hairer–Nørsett–Wanner I, §II.4.
pub fn integrate_controlled<P, E, S>(
    mut engine: E,
    problem: &mut P,
    y0: S,
    t0: f64,
    t_end: f64,
    tolerances: &Tolerances,
    parameters: &ControllerParameters,
) -> Result<ControlledSolution<S>>
where
    P: ?Sized,
    S: ControlledState,
    E: Step<P, State = S, Scalar = f64, ErrorEstimate = S::Estimate>,
{
    parameters.validate()?;
    tolerances.check_dimension(S::components())?;
    if !(t0.is_finite() && t_end.is_finite() && t_end != t0) {
        return Err(Error::InvalidParameter {
            name: "t_end",
            value: format!("{t_end:e} (t0 = {t0:e})"),
            expected: "finite times with t_end ≠ t0".into(),
        });
    }
    let direction = (t_end - t0).signum();
    let hmax = parameters.hmax.unwrap_or((t_end - t0).abs());
    let q = engine.order().saturating_sub(1).max(1);
    let expo = 1.0 / (q as f64 + 1.0) - 0.75 * parameters.beta;
    let mut h = parameters
        .initial_step
        .unwrap_or(1e-3 * (t_end - t0).abs())
        .min(hmax)
        * direction;
    let mut t = t0;
    let mut y = y0;
    let mut facold: f64 = 1e-4;
    let mut rejected_last = false;
    let mut stats = Stats::default();
    let mut times = vec![t0];
    let mut states = vec![y.clone()];
    loop {
        if stats.steps >= parameters.max_steps {
            return Err(Error::MaxStepsExceeded {
                t,
                steps: parameters.max_steps,
            });
        }
        if 0.1 * h.abs() <= t.abs() * parameters.uround {
            return Err(Error::StepSizeTooSmall { t, h });
        }
        let last = (t + 1.01 * h - t_end) * direction > 0.0;
        if last {
            h = t_end - t;
        }
        stats.steps += 1;
        let out = engine.step(problem, t, &y, h, &mut stats)?;
        let Some(estimate) = out.error else {
            return Err(Error::InvalidParameter {
                name: "engine",
                value: engine.name().to_string(),
                expected: "an embedded pair (a tableau with b̂)".into(),
            });
        };
        let err = S::error_norm(&estimate, &y, &out.state, tolerances);
        if !err.is_finite() {
            return Err(Error::NonFiniteState {
                what: "error estimate",
                t,
            });
        }
        let fac11 = err.powf(expo);
        let fac = (fac11 / facold.powf(parameters.beta) / parameters.safe)
            .clamp(1.0 / parameters.fac2, 1.0 / parameters.fac1);
        if err <= 1.0 {
            facold = err.max(1e-4);
            stats.accepted += 1;
            t = if last { t_end } else { t + h };
            y = out.state;
            times.push(t);
            states.push(y.clone());
            if last {
                return Ok(ControlledSolution {
                    times,
                    states,
                    stats,
                });
            }
            let mut h_new = (h / fac).abs().min(hmax);
            if rejected_last {
                h_new = h_new.min(h.abs());
            }
            h = h_new * direction;
            rejected_last = false;
        } else {
            if stats.accepted >= 1 {
                stats.rejected += 1;
            }
            h /= (1.0 / parameters.fac1).min(fac11 / parameters.safe);
            rejected_last = true;
        }
    }
}
