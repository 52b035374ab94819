//! # One-step engines
//!
//! Every engine advances a state by one step of size `h` behind the [`Step`] trait:
//!
//! | engine | state | problem | file |
//! |---|---|---|---|
//! | [`ExplicitRk`] | `SVector<T, N>` | [`VectorOde`] | `explicit_rk.rs` |
//! | [`ImplicitRk`] | `SVector<T, N>` | [`VectorOde`] | `implicit.rs` |
//! | [`Extrapolation`] (ODEX's step in a given column) | `SVector<T, N>` | [`VectorOde`] | `extrapolation.rs` |
//! | [`MuntheKaas`] | any [`LieGroup`](crate::lie::LieGroup) | [`LieOde`] | `munthe_kaas.rs` |
//! | [`ImplicitMuntheKaas`] | any [`LieGroup`](crate::lie::LieGroup) | [`LieOde`] | `implicit.rs` |
//! | [`CommutatorFree`] (and Crouch–Grossman) | any [`LieGroup`](crate::lie::LieGroup) | [`LieOde`] | `commutator_free.rs` |
//! | [`Composition`], [`SymmetricComposition`], [`Adjoint`] | as the composed engines | as theirs | `composition.rs` |
//!
//! Engines take their coefficients from a [`crate::tableau::ButcherTableau`], convert them to
//! the scalar type once, keep their stage storage between steps (no allocation per step), count
//! every right-hand-side evaluation in [`Stats`] and check every evaluation for non-finite values.

mod coefficients;
mod commutator_free;
mod composition;
mod explicit_rk;
mod extrapolation;
mod fixed;
mod implicit;
mod munthe_kaas;
pub(crate) mod stage_solver;

pub use crate::ode::{LieOde, LieOdeFn, VectorOde};
pub use commutator_free::CommutatorFree;

/// Crouch–Grossman methods are the commutator-free engine with one stage derivative per
/// exponential: build one with [`CommutatorFree::crouch_grossman`] (checked against the
/// Crouch–Grossman order conditions) or [`CommutatorFree::crouch_grossman_unverified`].
pub type CrouchGrossman<G> = CommutatorFree<G>;
pub use composition::{
    ADJOINT_MAX_ITERATIONS, ADJOINT_TOLERANCE, Adjoint, Composition, ROUND_OFF_FLOOR_FACTOR,
    StepState, SymmetricComposition,
};
pub use explicit_rk::ExplicitRk;
pub use extrapolation::Extrapolation;
pub use fixed::Fixed;
pub(crate) use fixed::replace_state;
pub use implicit::{ImplicitMuntheKaas, ImplicitRk};
pub use munthe_kaas::MuntheKaas;
pub use stage_solver::{FixedPoint, Newton, NonlinearOptions};

pub use crate::stepper::Stats;

use crate::error::Result;
use crate::lie::Real;

/// The result of one step: the new state and, for methods with embedded weights, a local error
/// estimate in the tangent space (a vector for vector engines, an algebra element for Lie-group
/// engines).
#[derive(Debug, Clone, PartialEq)]
pub struct Stepped<S, E> {
    /// The state at `t + h`.
    pub state: S,
    /// `h Σ (b_i − b̂_i) k_i` (or the group analogue), if the method has embedded weights.
    pub error: Option<E>,
}

/// What every method reports about itself, independent of the problem.
pub trait Method {
    /// The classical order of the method (as documented by its tableau or construction).
    fn order(&self) -> usize;
    /// A name for tables and plots.
    fn name(&self) -> &str;

    /// Drops what the engine carries from earlier steps to save work (a FSAL derivative, a
    /// Newton Jacobian and its LU factors), so that the next step depends on its arguments
    /// only. Call it after changing the problem between two steps of the same engine; every
    /// stepper calls it when it starts, so no run depends on an earlier one.
    fn forget(&mut self) {}
}

/// One step of a one-step method for the problem `P`.
pub trait Step<P: ?Sized>: Method {
    /// The state: a vector or a group element.
    type State: Clone;
    /// The scalar type.
    type Scalar: Real;
    /// The type of the local error estimate.
    type ErrorEstimate;

    /// Advances `y` at time `t` by a step of size `h` (which may be negative).
    ///
    /// # Errors
    /// [`crate::Error::NonFiniteState`] if the problem returns a non-finite value or the new
    /// state is not finite; [`crate::Error::NonConvergence`] for implicit engines whose
    /// nonlinear solve fails; [`crate::Error::InvalidParameter`] for a non-finite `h` or `t`.
    fn step(
        &mut self,
        problem: &mut P,
        t: Self::Scalar,
        y: &Self::State,
        h: Self::Scalar,
        stats: &mut Stats,
    ) -> Result<Stepped<Self::State, Self::ErrorEstimate>>;
}

impl<M: Method + ?Sized> Method for &mut M {
    fn order(&self) -> usize {
        (**self).order()
    }
    fn name(&self) -> &str {
        (**self).name()
    }
    fn forget(&mut self) {
        (**self).forget();
    }
}

/// A borrowed engine steps like the engine itself, so `Fixed::new(&mut engine)` drives an
/// engine the caller keeps.
impl<P: ?Sized, E: Step<P> + ?Sized> Step<P> for &mut E {
    type State = E::State;
    type Scalar = E::Scalar;
    type ErrorEstimate = E::ErrorEstimate;

    fn step(
        &mut self,
        problem: &mut P,
        t: Self::Scalar,
        y: &Self::State,
        h: Self::Scalar,
        stats: &mut Stats,
    ) -> Result<Stepped<Self::State, Self::ErrorEstimate>> {
        (**self).step(problem, t, y, h, stats)
    }
}

/// Checks that the step size and the time are finite.
pub(crate) fn check_step_input<T: Real>(t: T, h: T) -> Result<()> {
    use crate::lie::to_f64;
    crate::error::check_finite("t", to_f64(t))?;
    crate::error::check_finite("h", to_f64(h))
}
