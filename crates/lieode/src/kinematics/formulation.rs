//! What every rotation formulation provides: the state it evolves, the ODE a stepper sees, and
//! the maps between that state and an orientation.

use nalgebra::allocator::Allocator;
use nalgebra::{Const, DefaultAllocator, DimNameAdd, DimNameSum, Matrix3, OVector, SVector};

use super::problem::RotationProblem;
use crate::lie::unit_quaternion::UnitQuat;
use crate::ode::VectorOde;

/// A rotation formulation: a way of turning "find `R(t)` from `ω(t, R)`" (plus an extra state
/// `x ∈ ℝᴹ`) into an ODE that a stepper solves.
///
/// Implemented by [`super::FrameVectors`], [`super::Rotor`], [`super::Generator`] (plain or
/// reset) — vector ODEs for every vector stepper — and [`super::Lifted`], the Lie-group ODE on
/// `UnitQuat × ℝᴹ` for the lifted steppers.
pub trait Formulation<const M: usize>: Named {
    /// The evolved state.
    type State: Clone;
    /// The ODE the stepper integrates, owning the problem `P`.
    type Ode<P: RotationProblem<M>>;

    /// The ODE of `problem` in this formulation.
    fn ode<P: RotationProblem<M>>(&self, problem: P) -> Self::Ode<P>;

    /// The problem inside an ODE built by [`Formulation::ode`].
    fn problem<P: RotationProblem<M>>(ode: &mut Self::Ode<P>) -> &mut P;

    /// The state of the orientation `rotor` and the extra state `x`.
    fn encode(&self, rotor: &UnitQuat<f64>, x: &SVector<f64, M>) -> Self::State;

    /// The rotated frame `a_i` (as columns) the state represents — for frame vectors the
    /// evolved vectors themselves, not orthonormalised: what Boyle's error norm δ compares.
    fn frame(&self, y: &Self::State) -> Matrix3<f64>;

    /// The orientation as a unit rotor (`R/|R|` for a rotor, `exp(r)` for a generator, the
    /// nearest rotor for frame vectors).
    fn rotor(&self, y: &Self::State) -> UnitQuat<f64>;

    /// The extra state.
    fn extra(&self, y: &Self::State) -> SVector<f64, M>;

    /// The components of the rotation part of the state (for plots of the evolved quantities).
    fn components(&self, y: &Self::State) -> Vec<f64>;

    /// An equivalent state to continue from after an accepted step, if the formulation resets
    /// (Boyle's Eq. 20 for the reset generator); `None` to continue as is. Applied by
    /// [`super::Formulated`].
    fn reset(&self, _y: &Self::State) -> Option<Self::State> {
        None
    }
}

/// A formulation's name (whatever the extra-state dimension).
pub trait Named {
    /// The name used in tables and plots.
    fn name(&self) -> &'static str;
}

/// The state of a vector formulation with `K` rotation components and `M` extra components:
/// `(rotation, x)` stacked in one vector of dimension `K + M`.
pub type Stacked<const K: usize, const M: usize> = OVector<f64, DimNameSum<Const<K>, Const<M>>>;

/// A formulation whose state is a vector: its right-hand side.
pub trait VectorFormulation<const M: usize>: Formulation<M> {
    /// `y' = F(t, y)`.
    fn rhs<P: RotationProblem<M>>(&self, problem: &mut P, t: f64, y: &Self::State) -> Self::State;
}

/// The vector ODE of a [`VectorFormulation`] with `M` extra components for a problem: what the
/// vector steppers integrate.
#[derive(Debug, Clone)]
pub struct VectorForm<F, P, const M: usize> {
    /// The formulation.
    pub formulation: F,
    /// The problem.
    pub problem: P,
}

impl<F, P, const M: usize, const N: usize> VectorOde<f64, N> for VectorForm<F, P, M>
where
    F: VectorFormulation<M, State = SVector<f64, N>>,
    P: RotationProblem<M>,
{
    #[inline]
    fn rhs(&mut self, t: f64, y: &SVector<f64, N>) -> SVector<f64, N> {
        self.formulation.rhs(&mut self.problem, t, y)
    }
}

/// The `K` rotation components and the `M` extra components of a stacked state. (The nalgebra
/// work on them happens in functions without the allocator bounds, which would otherwise hide
/// the blanket implementations for the fixed sizes.)
#[inline]
pub(crate) fn split<const K: usize, const M: usize>(
    y: &Stacked<K, M>,
) -> ([f64; K], SVector<f64, M>)
where
    Const<K>: DimNameAdd<Const<M>>,
    DefaultAllocator: Allocator<DimNameSum<Const<K>, Const<M>>>,
{
    let rotation: [f64; K] = std::array::from_fn(|i| y[i]);
    let extra: [f64; M] = std::array::from_fn(|i| y[K + i]);
    (rotation, SVector::from(extra))
}

/// `(rotation, x)` stacked.
#[inline]
pub(crate) fn stack<const K: usize, const M: usize>(
    rotation: &[f64; K],
    x: &SVector<f64, M>,
) -> Stacked<K, M>
where
    Const<K>: DimNameAdd<Const<M>>,
    DefaultAllocator: Allocator<DimNameSum<Const<K>, Const<M>>>,
{
    Stacked::<K, M>::from_fn(|i, _| if i < K { rotation[i] } else { x[i - K] })
}

/// The items every vector formulation with `K` rotation components shares: its state, its ODE
/// and the extra-state and component views (used inside `impl Formulation<M> for …`).
macro_rules! stacked_formulation_items {
    ($k:literal) => {
        type State = $crate::kinematics::Stacked<$k, M>;
        type Ode<P: RotationProblem<M>> = VectorForm<Self, P, M>;

        fn ode<P: RotationProblem<M>>(&self, problem: P) -> VectorForm<Self, P, M> {
            VectorForm {
                formulation: *self,
                problem,
            }
        }

        fn problem<P: RotationProblem<M>>(ode: &mut VectorForm<Self, P, M>) -> &mut P {
            &mut ode.problem
        }

        fn extra(&self, y: &Self::State) -> SVector<f64, M> {
            split::<$k, M>(y).1
        }

        fn components(&self, y: &Self::State) -> Vec<f64> {
            split::<$k, M>(y).0.to_vec()
        }
    };
}
pub(crate) use stacked_formulation_items;
