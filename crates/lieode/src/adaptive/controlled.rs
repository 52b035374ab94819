//! [`Controlled`]: the [`Controller`] driving any fixed-step engine with an error estimate —
//! for instance the Crouch–Grossman pair CG2(3) on a Lie group, whose stages are products of
//! exponentials and so cannot be lifted through local coordinates like the Runge–Kutta pairs.

use nalgebra::{DefaultAllocator, SVector, allocator::Allocator};

use super::controller::{Controller, ControllerParameters};
use super::hairer::underflow_cause;
use super::tolerance::Tolerances;
use crate::engine::{Method, Stats, Step, StepState, replace_state};
use crate::error::{Error, Result};
use crate::lie::{AlgebraDim, LieAlgebra, LieGroup};
use crate::stepper::{NoDenseOutput, Span, StepReport, Stepper, StepperInfo, not_started};

/// A state whose local error estimates can be measured against tolerances.
pub trait ControlledState: StepState {
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

/// Any fixed-step engine whose steps return an error estimate (an embedded pair) under the
/// [`Controller`], as a [`Stepper`]: Hairer's step-size control with exponent `1/(q + 1)`,
/// `q = order − 1` (the embedded order of a `p(p−1)` pair), so `fac = clamp(err^{1/(q+1) −
/// 0.75β}/(facold^β·safe), 1/fac2, 1/fac1)`, `h_new = h/fac`, accepted when `err ≤ 1`, the error
/// norm from [`ControlledState::error_norm`]. The first step is `initial_step` if given, else
/// `10⁻³·|t_end − t0|`. No dense output.
///
/// This is how a Crouch–Grossman pair such as CG2(3), whose stages are products of
/// exponentials and so cannot be lifted through local coordinates like the Runge–Kutta pairs,
/// runs adaptively on a Lie group.
///
/// # Errors
/// At the start: [`Error::InvalidParameter`] for invalid tolerances, parameters or an
/// adaptive span of the wrong kind. At a step: an engine without error estimate
/// ([`Error::InvalidParameter`] naming `engine`), [`Error::StepSizeTooSmall`],
/// [`Error::MaxStepsExceeded`], a non-finite error estimate, the engine's errors.
///
/// # References
/// Hairer–Nørsett–Wanner I, §II.4.
///
/// # Examples
/// ```
/// use lieode::adaptive::{Controlled, ControllerParameters, Tolerances};
/// use lieode::engine::CommutatorFree;
/// use lieode::integrate::{Options, integrate};
/// use lieode::lie::{LieGroup, so3::So3};
/// use lieode::problems::SphereProblem;
/// use lieode::stepper::Span;
/// use lieode::tableau::registry::CG23;
///
/// let mut problem = SphereProblem::default();
/// let engine = CommutatorFree::<So3>::crouch_grossman(&CG23)?;
/// let tolerances = Tolerances::scalar(1e-8, 1e-8)?;
/// let mut cg23 = Controlled::new(engine, tolerances, ControllerParameters::dopri5());
/// let sol = integrate(&mut cg23, &mut problem, &So3::identity(), &Span::new(0.0, 2.0)?, Options::default())?;
/// let (t, y) = sol.last().expect("a final state");
/// assert!((problem.point_of(y) - problem.exact_point(t)).norm() < 1e-6);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Controlled<E, S> {
    engine: E,
    tolerances: Tolerances,
    parameters: ControllerParameters,
    control: Option<Controller>,
    t: f64,
    h: f64,
    t_end: f64,
    y: Option<S>,
    stats: Stats,
}

impl<E: Method, S> Controlled<E, S> {
    /// The engine `engine` under the tolerances and Hairer's parameters, not started.
    pub fn new(engine: E, tolerances: Tolerances, parameters: ControllerParameters) -> Self {
        Self {
            engine,
            tolerances,
            parameters,
            control: None,
            t: f64::NAN,
            h: f64::NAN,
            t_end: f64::NAN,
            y: None,
            stats: Stats::default(),
        }
    }
}

impl<E: Method, S> StepperInfo for Controlled<E, S> {
    fn name(&self) -> &str {
        self.engine.name()
    }

    fn time(&self) -> f64 {
        self.t
    }

    fn stats(&self) -> Stats {
        self.stats
    }
}

impl<P, E, S> Stepper<P> for Controlled<E, S>
where
    P: ?Sized,
    S: ControlledState,
    E: Step<P, State = S, Scalar = f64, ErrorEstimate = S::Estimate>,
{
    type State = S;
    type Segment = NoDenseOutput<S>;

    /// Starts at `y0` on an adaptive span and makes the engine [forget](Method::forget) what it
    /// kept from an earlier run.
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `y0`; invalid parameters or tolerances; a fixed-step span.
    fn start(&mut self, _problem: &mut P, span: &Span, y0: &S) -> Result<()> {
        if !y0.all_finite() {
            return Err(Error::NonFinite { name: "y0" });
        }
        self.engine.forget();
        self.parameters.validate()?;
        self.tolerances.check_dimension(S::components())?;
        let t_end = span.adaptive_end()?;
        let t0 = span.t0();
        let q = self.engine.order().saturating_sub(1).max(1);
        let expo = 1.0 / (q as f64 + 1.0) - 0.75 * self.parameters.beta;
        let mut control = Controller::new(&self.parameters, expo);
        control.begin(t0, t_end);
        let first = self
            .parameters
            .initial_step
            .unwrap_or(1e-3 * (t_end - t0).abs())
            .min(control.hmax());
        self.h = first * control.posneg();
        self.control = Some(control);
        self.t = t0;
        self.t_end = t_end;
        self.y = Some(y0.clone());
        self.stats = Stats::default();
        Ok(())
    }

    fn step(&mut self, problem: &mut P) -> Result<StepReport> {
        let (Some(control), Some(y)) = (self.control.as_mut(), self.y.as_ref()) else {
            return Err(not_started());
        };
        let t = self.t;
        let mut non_finite = None;
        loop {
            control
                .before_attempt(t, &mut self.h, &mut self.stats)
                .map_err(|e| underflow_cause(e, non_finite.take()))?;
            let h = self.h;
            let out = trial!(
                self.engine.step(problem, t, y, h, &mut self.stats),
                non_finite,
                self.h = control.reject_non_finite(h, &mut self.stats)
            );
            let Some(estimate) = out.error else {
                return Err(Error::InvalidParameter {
                    name: "engine",
                    value: self.engine.name().to_string(),
                    expected: "an embedded pair (a tableau with b̂)".into(),
                });
            };
            let err = S::error_norm(&estimate, y, &out.state, &self.tolerances);
            if !err.is_finite() {
                non_finite = Some(Error::NonFiniteState {
                    what: "error estimate",
                    t,
                });
                self.h = control.reject_non_finite(h, &mut self.stats);
                continue;
            }
            let (fac11, h_new) = control.propose(err, h);
            if err <= 1.0 {
                control.accept(err, &mut self.stats);
                let last = control.is_last();
                self.t = if last { self.t_end } else { t + h };
                if !last {
                    self.h = control.after_accept(h_new, h);
                }
                self.y = Some(out.state);
                return Ok(StepReport {
                    t_start: t,
                    t_end: self.t,
                    finished: last,
                });
            }
            self.h = control.reject(fac11, h, &mut self.stats);
        }
    }

    fn state(&mut self, _problem: &mut P) -> Result<S> {
        self.y.clone().ok_or_else(not_started)
    }

    fn problem_changed(&mut self, _problem: &mut P) -> Result<()> {
        self.engine.forget();
        Ok(())
    }

    /// Continues from `y` at the current time (the engine forgets its FSAL value).
    fn reset_state(&mut self, _problem: &mut P, y: &S) -> Result<()> {
        replace_state(&mut self.engine, &mut self.y, y)
    }
}
