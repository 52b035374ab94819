//! # Adaptive steppers
//!
//! Embedded Runge–Kutta pairs with Hairer's step-size control (DOPRI5, DOP853 and any tableau
//! with embedded weights) and Gragg–Bulirsch–Stoer extrapolation with Hairer's order and step
//! control (ODEX), on `ℝᴺ` — and, through local coordinates rebased at every step, on any Lie
//! group.
//!
//! Every method implements [`AdaptiveMethod`] over a [`System`]: it advances by one *accepted*
//! step at a time (rejections are handled inside, as in Hairer's codes), keeps the FSAL
//! derivative, and can evaluate its dense output inside the last step. The driver loops over steps, stores the solution, evaluates dense
//! output and locates events.
//!
//! The methods work in `f64`: their reference behaviour is Hairer's Fortran codes, step for
//! step, evaluation for evaluation.

/// The evaluation of a trial stage inside an adaptive step. A non-finite value
/// ([`crate::Error::NonFiniteState`]: a trial point outside the problem's domain, an overflow)
/// rejects the attempt — `$reject` sets the smaller step, the error is kept in `$failure` and
/// the attempt loop continues — instead of failing the run; other errors propagate.
macro_rules! trial {
    ($eval:expr, $failure:ident, $reject:expr) => {
        match $eval {
            Ok(value) => value,
            Err(error @ $crate::error::Error::NonFiniteState { .. }) => {
                $failure = Some(error);
                $reject;
                continue;
            }
            Err(error) => return Err(error),
        }
    };
}

pub mod controlled;
pub mod controller;
pub mod dense;
pub mod dop853;
pub mod dopri5;
pub mod embedded;
pub mod hairer;
pub mod lie;
pub mod odex;
mod run_state;
pub mod summation;
pub mod tolerance;
pub mod vector;

pub use controlled::{Controlled, ControlledState};
pub use controller::{Controller, ControllerParameters, StiffnessCheck};
pub use dense::DenseSegment;
pub use dop853::Dop853;
pub use dopri5::Dopri5;
pub use embedded::EmbeddedRk;
pub use lie::{LieSegment, LieStepper, LieSystem};
pub use odex::{Odex, OdexParameters};
pub use summation::Summation;
pub use tolerance::{MIN_RELATIVE_TOLERANCE, Tolerances};
pub use vector::{VectorStepper, VectorSystem};

use nalgebra::{DefaultAllocator, DimName, OVector, allocator::Allocator};

use crate::error::Result;
use crate::stepper::Stats;

/// The right-hand side an adaptive method integrates, `x' = F(t, x)` on `ℝᴰ`, together with the
/// size of each component used in relative error tests.
///
/// For a vector ODE the size is `|x_i|`; for the local coordinates of a Lie-group step the
/// driver supplies the sizes of the group state (e.g. `|v_i|` for an `ℝⁿ` factor, nothing for
/// a rotation, whose error is measured absolutely).
pub trait System<D: DimName>
where
    DefaultAllocator: Allocator<D>,
{
    /// `F(t, x)`; implementations count the evaluation in `stats.rhs_evaluations` and return
    /// [`crate::Error::NonFiniteState`] for a non-finite value.
    fn eval(&mut self, t: f64, x: &OVector<f64, D>, stats: &mut Stats) -> Result<OVector<f64, D>>;

    /// `out = F(t, x)`, as [`System::eval`] but written in place: a stage's derivative goes
    /// straight into the stepper's stage storage instead of through a returned `Result`.
    ///
    /// # Errors
    /// As [`System::eval`] (`out` is then unspecified).
    #[inline(always)]
    fn eval_into(
        &mut self,
        t: f64,
        x: &OVector<f64, D>,
        out: &mut OVector<f64, D>,
        stats: &mut Stats,
    ) -> Result<()> {
        *out = self.eval(t, x, stats)?;
        Ok(())
    }

    /// `|x_i|` as the relative error test should see it (default: the component's magnitude).
    fn magnitude(&self, x: &OVector<f64, D>, i: usize) -> f64 {
        x[i].abs()
    }
}

pub use crate::stepper::StepReport;

/// An adaptive one-step method advancing one accepted step at a time.
pub trait AdaptiveMethod<D: DimName>
where
    DefaultAllocator: Allocator<D>,
{
    /// Starts an integration at `(t0, x0)` towards `t_end` (direction from the sign of
    /// `t_end − t0`); evaluates `F(t0, x0)` and, if no initial step was given, chooses one
    /// (Hairer's HINIT).
    ///
    /// # Errors
    /// Invalid tolerances or parameters for dimension `D`, non-finite input, `t_end = t0`;
    /// tolerances below what `f64` resolves at the start, naming `atol` (at the sizes
    /// [`System::magnitude`] gives: a component with `rtol = 0` and `atol < ε |x0_i|`, or an
    /// `atol` too small to scale `F(t0, x0)` without overflow).
    fn start<S: System<D> + ?Sized>(
        &mut self,
        system: &mut S,
        t0: f64,
        x0: &OVector<f64, D>,
        t_end: f64,
        stats: &mut Stats,
    ) -> Result<()>;

    /// Takes one accepted step (rejected attempts are retried inside and counted in `stats`).
    ///
    /// # Errors
    /// [`crate::Error::StepSizeTooSmall`], [`crate::Error::MaxStepsExceeded`],
    /// [`crate::Error::NonFiniteState`], and for stiff problems nothing unless the caller
    /// asked for it.
    fn step<S: System<D> + ?Sized>(
        &mut self,
        system: &mut S,
        stats: &mut Stats,
    ) -> Result<StepReport>;

    /// The current time and state.
    fn current(&self) -> (f64, &OVector<f64, D>);

    /// `F` at the current time and state (the FSAL derivative).
    fn current_derivative(&self) -> &OVector<f64, D>;

    /// Replaces the current state and its derivative without changing the step-size history:
    /// how a Lie-group driver restarts the local coordinates at `θ = 0` after each step.
    fn rebase(&mut self, x: OVector<f64, D>, derivative: OVector<f64, D>);

    /// Prepares dense output for the last accepted step (may cost extra evaluations, counted).
    ///
    /// # Errors
    /// As [`System::eval`].
    fn prepare_dense<S: System<D> + ?Sized>(
        &mut self,
        system: &mut S,
        stats: &mut Stats,
    ) -> Result<()>;

    /// The dense output at `t` inside the last accepted step (after [`AdaptiveMethod::prepare_dense`]).
    fn dense(&self, t: f64) -> OVector<f64, D>;

    /// The order of the method (of the error-controlled solution).
    fn order(&self) -> usize;

    /// The method's name.
    fn name(&self) -> &str;

    /// The polynomial degree of the dense output in the step variable (the driver stores that
    /// many plus one samples per step to reproduce it exactly); 8 unless a method says otherwise.
    fn dense_degree(&self) -> usize {
        8
    }
}
