//! Runners for the crate's own integrators, so that a study takes a few lines.
//!
//! - [`FixedStep`]: a fixed-step engine ([`Step`]) driven by [`integrate`] through [`Fixed`]; the grid
//!   value is the step size `h`, turned into a number of steps by a [`StepCount`] rule, and the
//!   step size actually used is reported.
//! - [`Adaptive`]: an adaptive method built from the grid value (the tolerance) by a closure,
//!   driven by [`integrate`] through [`VectorStepper`] on `ℝᴺ` or [`LieStepper`] on a Lie
//!   group.
//!
//! Both measure the error with a closure, either of the final time and state or of the whole
//! solution (the error closures and the method factories return the library's `lieode::Result`,
//! since they call the library), and report the right-hand-side evaluations and the steps from the solution's
//! [`Stats`](lieode::engine::Stats). The timed run includes the error closure (keep it cheap, or
//! subtract it) and, for [`Adaptive`], building the method.

use nalgebra::{Const, DefaultAllocator, SVector, allocator::Allocator};

use super::{RunOutcome, Runner};
use crate::error::{Error, Result};
use lieode::adaptive::{AdaptiveMethod, DenseSegment, LieSegment, LieStepper, VectorStepper};
use lieode::engine::Fixed;
use lieode::engine::{Step, StepState};
use lieode::integrate::{Options, Record, Solution, integrate};
use lieode::lie::{AlgebraDim, LieGroup};
use lieode::ode::{LieOde, VectorOde};
use lieode::stepper::{Span, Stepper};

/// How a fixed-step runner turns a step size `h` into a number of steps `n` over the span
/// `L = |t_end − t0|`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StepCount {
    /// `n = round(L/h)` (at least 1, so `h ≤ 2L`), integrating exactly to `t_end` with the
    /// step `L/n`, which is the value reported as used (it differs from `h` unless `h` divides
    /// the span).
    #[default]
    Round,
    /// `n = trunc(L/h)` (so `h ≤ L`) steps of size `h`, ending at `t0 ± n h`, which may fall
    /// short of `t_end`: the procedure of del Valle et al. (2024, §3), whose errors are measured
    /// at the final time `n·Δt`. The error closure receives that final time. As with the
    /// paper's `trunc(tmax/dt)`, a step that divides the span only up to rounding
    /// (`L/h = 6.999…`) loses its last step.
    Truncate,
    /// `n = round(L/h)`, but only if `|n h − L| ≤ 10⁻⁹ L` (the step divides the span); any
    /// other `h` is an [`Error::InvalidParameter`] naming `h`.
    Exact,
}

/// The relative mismatch [`StepCount::Exact`] tolerates between `n h` and the span.
const EXACT_DIVISION: f64 = 1e-9;

/// The number of steps and the end time for a step `h` over `[t0, t_end]`.
fn step_plan(count: StepCount, t0: f64, t_end: f64, h: f64) -> Result<(usize, f64)> {
    let span = t_end - t0;
    if !(span.is_finite() && span != 0.0) {
        return Err(Error::InvalidParameter {
            name: "t_end",
            value: format!("{t_end:e} (t0 = {t0:e})"),
            expected: "finite times t0 ≠ t_end".into(),
        });
    }
    crate::error::check_finite("h", h)?;
    if !(h.is_finite() && h > 0.0) {
        return Err(Error::InvalidParameter {
            name: "h",
            value: format!("{h:e}"),
            expected: "a finite, positive step size".into(),
        });
    }
    let length = span.abs();
    let ratio = length / h;
    let n = match count {
        StepCount::Round | StepCount::Exact => ratio.round(),
        StepCount::Truncate => ratio.trunc(),
    };
    // 2⁵³: every step index is exact in f64, and far more steps than any run can take.
    if !(1.0..=9_007_199_254_740_992.0).contains(&n) {
        return Err(Error::InvalidParameter {
            name: "h",
            value: format!("{h:e}"),
            expected: format!(
                "a step size giving between 1 and 2⁵³ steps over the span {length:e} \
                 ({count:?} of span/h = {ratio:e})"
            ),
        });
    }
    if count == StepCount::Exact && (n * h - length).abs() > EXACT_DIVISION * length {
        return Err(Error::InvalidParameter {
            name: "h",
            value: format!("{h:e}"),
            expected: format!(
                "a step size dividing the span {length:e} (to {EXACT_DIVISION:e} relative); \
                 span/h = {ratio}"
            ),
        });
    }
    let end = match count {
        StepCount::Truncate => t0 + span.signum() * n * h,
        StepCount::Round | StepCount::Exact => t_end,
    };
    Ok((n as usize, end))
}

/// A fixed-step engine on a problem, to be turned into a [`Runner`] over step sizes.
///
/// At a step size `h` the runner computes the number of steps `n` and the end time by the
/// [`StepCount`] rule (default [`StepCount::Round`]), runs
/// `integrate(Fixed(method), problem, y0, Span::steps(t0, end, n), record)` (default
/// [`Record::Ends`]),
/// measures the error with the closure given to [`FixedStep::error`] or
/// [`FixedStep::error_with`], and reports `h_used = |end − t0|/n` as the value used, the
/// right-hand-side evaluations (`stats.rhs_evaluations`; Jacobian evaluations of implicit
/// engines are not included) and the steps `n`. The same method and problem values serve every
/// run: the crate's engines keep nothing from one step to the next but scratch storage. An
/// engine or problem that does carry state (a warm start, a counter that changes the result)
/// should be built afresh inside a [`Runner`] of its own.
///
/// # Examples
/// ```
/// use lieode::engine::MuntheKaas;
/// use lieode_study::experiment::{FixedStep, StepCount};
/// use lieode::lie::{LieGroup, so3::So3};
/// use lieode::problems::SphereProblem;
/// use lieode::tableau::registry::RK4;
///
/// let p = SphereProblem::default();
/// let mut runner = FixedStep::new(MuntheKaas::<So3>::new(&RK4)?, p, So3::identity(), 0.0, 2.0)
///     .step_count(StepCount::Round)
///     .name("RKMK4")
///     .error(move |t, y| Ok((p.point_of(y) - p.exact_point(t)).norm()));
/// let run = runner.run(0.3)?; // 2/0.3 = 6.67 → 7 steps of 2/7
/// assert_eq!(run.steps, 7);
/// assert_eq!(run.used, Some(2.0 / 7.0));
/// assert_eq!(run.evaluations, 28);
/// # Ok::<(), lieode_study::Error>(())
/// ```
pub struct FixedStep<P, M: Step<P>> {
    method: M,
    problem: P,
    y0: M::State,
    t0: f64,
    t_end: f64,
    count: StepCount,
    record: Record,
    name: String,
}

impl<P, M: Step<P, Scalar = f64>> FixedStep<P, M>
where
    M::State: StepState,
{
    /// `method` on `problem` from `(t0, y0)` to `t_end`, named after the method
    /// ([`lieode::engine::Method::name`]), with [`StepCount::Round`] and [`Record::Ends`].
    pub fn new(method: M, problem: P, y0: M::State, t0: f64, t_end: f64) -> Self {
        let name = method.name().to_string();
        Self {
            method,
            problem,
            y0,
            t0,
            t_end,
            count: StepCount::default(),
            record: Record::Ends,
            name,
        }
    }

    /// The rule turning a step size into a number of steps.
    pub fn step_count(self, count: StepCount) -> Self {
        Self { count, ..self }
    }

    /// Which states the solution keeps (for [`FixedStep::error_with`]).
    pub fn record(self, record: Record) -> Self {
        Self { record, ..self }
    }

    /// The name in tables and legends.
    pub fn name(self, name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            ..self
        }
    }

    /// The runner, with the error `error(t, y)` of the final time and state.
    pub fn error<'a>(
        self,
        mut error: impl FnMut(f64, &M::State) -> lieode::Result<f64> + 'a,
    ) -> Runner<'a>
    where
        Self: 'a,
    {
        self.error_with(move |sol: &Solution<M::State>| match sol.last() {
            Some((t, y)) => error(t, y),
            None => Err(empty_solution()),
        })
    }

    /// The runner, with the error `error(solution)` of the whole recorded solution.
    pub fn error_with<'a>(
        self,
        mut error: impl FnMut(&Solution<M::State>) -> lieode::Result<f64> + 'a,
    ) -> Runner<'a>
    where
        Self: 'a,
    {
        let Self {
            method,
            mut problem,
            y0,
            t0,
            t_end,
            count,
            record,
            name,
        } = self;
        let mut stepper = Fixed::new(method);
        Runner::new(name, move |h| {
            let (n, end) = step_plan(count, t0, t_end, h)?;
            let span = Span::steps(t0, end, n)?;
            let sol = integrate(
                &mut stepper,
                &mut problem,
                &y0,
                &span,
                Options::record(record),
            )?;
            let e = error(&sol)?;
            let used = (end - t0).abs() / n as f64;
            Ok(RunOutcome::new(e, sol.stats.rhs_evaluations, sol.stats.steps).with_used(used))
        })
    }
}

/// The error for a solution without a final state (the drivers always store one).
fn empty_solution() -> lieode::Error {
    lieode::Error::InvalidParameter {
        name: "solution",
        value: "no stored state".into(),
        expected: "a solution with a final state".into(),
    }
}

/// An adaptive method, built from the tolerance by `make`, on a problem, to be turned into a
/// [`Runner`] over tolerances.
///
/// At a tolerance `tol` the runner builds the method with `make(tol)` (for instance
/// `Dop853::new(Tolerances::scalar(tol, tol)?, ControllerParameters::dop853())`), integrates a
/// clone of the problem from `(t0, y0)` to `t_end` with [`integrate`] through a [`VectorStepper`]
/// ([`Adaptive::vector`], [`Adaptive::vector_with`]) or a [`LieStepper`] ([`Adaptive::lie`],
/// [`Adaptive::lie_with`]), without events, and reports the error, the right-hand-side
/// evaluations (dense-output evaluations included when [`Adaptive::dense`] is on) and the steps
/// attempted (accepted and rejected, as Hairer's codes count them). The tolerance is reported
/// as used unchanged.
///
/// # Examples
/// ```
/// use lieode::adaptive::{ControllerParameters, Dopri5, Tolerances};
/// use lieode_study::experiment::Adaptive;
/// use lieode::problems::VectorTestProblem;
///
/// let p = VectorTestProblem::default();
/// let make = |tol: f64| Dopri5::new(Tolerances::scalar(tol, tol)?, ControllerParameters::dopri5());
/// let mut runner = Adaptive::new("DOPRI5", make, p, 0.0, p.exact(0.0), 2.0)
///     .vector(move |t, x| Ok((x - p.exact(t)).norm()));
/// let coarse = runner.run(1e-5)?;
/// let fine = runner.run(1e-9)?;
/// assert!(fine.error < coarse.error && fine.evaluations > coarse.evaluations);
/// # Ok::<(), lieode_study::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Adaptive<F, P, S> {
    name: String,
    make: F,
    problem: P,
    t0: f64,
    y0: S,
    t_end: f64,
    dense: bool,
}

impl<F, P, S> Adaptive<F, P, S> {
    /// The method `make(tol)` on `problem` from `(t0, y0)` to `t_end`, called `name`, without
    /// dense output.
    pub fn new(name: impl Into<String>, make: F, problem: P, t0: f64, y0: S, t_end: f64) -> Self {
        Self {
            name: name.into(),
            make,
            problem,
            t0,
            y0,
            t_end,
            dense: false,
        }
    }

    /// Whether to store dense output (needed by error closures that call
    /// [`Solution::at`]; its evaluations are counted).
    pub fn dense(self, dense: bool) -> Self {
        Self { dense, ..self }
    }
}

impl<F, P, const N: usize> Adaptive<F, P, SVector<f64, N>> {
    /// The runner on `ℝᴺ`, with the error `error(t, x)` of the final time and state.
    pub fn vector<'a, M>(
        self,
        mut error: impl FnMut(f64, &SVector<f64, N>) -> lieode::Result<f64> + 'a,
    ) -> Runner<'a>
    where
        F: FnMut(f64) -> lieode::Result<M> + 'a,
        M: AdaptiveMethod<Const<N>>,
        P: VectorOde<f64, N> + Clone + 'a,
    {
        self.vector_with(
            move |sol: &Solution<SVector<f64, N>, DenseSegment<Const<N>>>| match sol.last() {
                Some((t, x)) => error(t, x),
                None => Err(empty_solution()),
            },
        )
    }

    /// The runner on `ℝᴺ`, with the error `error(solution)` of the whole solution.
    pub fn vector_with<'a, M>(
        self,
        mut error: impl FnMut(&Solution<SVector<f64, N>, DenseSegment<Const<N>>>) -> lieode::Result<f64>
        + 'a,
    ) -> Runner<'a>
    where
        F: FnMut(f64) -> lieode::Result<M> + 'a,
        M: AdaptiveMethod<Const<N>>,
        P: VectorOde<f64, N> + Clone + 'a,
    {
        let Self {
            name,
            mut make,
            problem,
            t0,
            y0,
            t_end,
            dense,
        } = self;
        Runner::new(name, move |tol| {
            let sol = adaptive_run(
                VectorStepper::new(make(tol)?),
                &problem,
                &y0,
                t0,
                t_end,
                dense,
            )?;
            let e = error(&sol)?;
            Ok(RunOutcome::new(
                e,
                sol.stats.rhs_evaluations,
                sol.stats.steps,
            ))
        })
    }
}

impl<F, P, G> Adaptive<F, P, G>
where
    G: LieGroup<Scalar = f64>,
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    /// The runner on the Lie group `G`, with the error `error(t, y)` of the final time and
    /// state.
    pub fn lie<'a, M>(
        self,
        mut error: impl FnMut(f64, &G) -> lieode::Result<f64> + 'a,
    ) -> Runner<'a>
    where
        F: FnMut(f64) -> lieode::Result<M> + 'a,
        M: AdaptiveMethod<AlgebraDim<G>>,
        P: LieOde<G> + Clone + 'a,
        G: 'a,
    {
        self.lie_with(move |sol: &Solution<G, LieSegment<G>>| match sol.last() {
            Some((t, y)) => error(t, y),
            None => Err(empty_solution()),
        })
    }

    /// The runner on the Lie group `G`, with the error `error(solution)` of the whole
    /// solution.
    pub fn lie_with<'a, M>(
        self,
        mut error: impl FnMut(&Solution<G, LieSegment<G>>) -> lieode::Result<f64> + 'a,
    ) -> Runner<'a>
    where
        F: FnMut(f64) -> lieode::Result<M> + 'a,
        M: AdaptiveMethod<AlgebraDim<G>>,
        P: LieOde<G> + Clone + 'a,
        G: 'a,
    {
        let Self {
            name,
            mut make,
            problem,
            t0,
            y0,
            t_end,
            dense,
        } = self;
        Runner::new(name, move |tol| {
            let sol = adaptive_run(LieStepper::new(make(tol)?), &problem, &y0, t0, t_end, dense)?;
            let e = error(&sol)?;
            Ok(RunOutcome::new(
                e,
                sol.stats.rhs_evaluations,
                sol.stats.steps,
            ))
        })
    }
}

/// One adaptive run of `stepper` on a clone of `problem` from `(t0, y0)` to `t_end`, every step
/// stored, with dense output if `dense`.
fn adaptive_run<P: Clone, M: Stepper<P>>(
    mut stepper: M,
    problem: &P,
    y0: &M::State,
    t0: f64,
    t_end: f64,
    dense: bool,
) -> Result<Solution<M::State, M::Segment>> {
    let options = if dense {
        Options::default().dense()
    } else {
        Options::default()
    };
    Ok(integrate(
        &mut stepper,
        &mut problem.clone(),
        y0,
        &Span::new(t0, t_end)?,
        options,
    )?)
}
