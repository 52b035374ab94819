//! The Lie-group formulation: the rotation problem as an ODE on `UnitQuat × ℝᴹ`, for the lifted
//! steppers.

use crate::body::Frame;
use nalgebra::{Matrix3, SVector};

use super::formulation::{Formulation, Named};
use super::problem::{Attitude, RotationProblem};
use crate::lie::product::{Product, ProductAlgebra};
use crate::lie::rn::Rn;
use crate::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use crate::lie::{LieGroup, Side};
use crate::ode::LieOde;

/// The rotation problem on the group `UnitQuat × ℝᴹ` itself: `Ṙ = (ω/2) R` (inertial,
/// [`Side::Left`]) or `Ṙ = R (ω_b/2)` (body frame, [`Side::Right`]) with the generator
/// `ξ = (ω/2, g(t, R, x))`, integrated by any lifted stepper
/// ([`crate::adaptive::LieStepper`], the Munthe-Kaas engines): the rotor stays on the unit
/// sphere to round-off without normalisation, and no formulation-specific code is needed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Lifted;

/// The Lie-group ODE of a [`RotationProblem`] (see [`Lifted`]).
#[derive(Debug, Clone)]
pub struct LiftedOde<P> {
    /// The problem.
    pub problem: P,
}

impl<P, const M: usize> LieOde<Product<UnitQuat<f64>, Rn<M>>> for LiftedOde<P>
where
    P: RotationProblem<M>,
    Product<UnitQuat<f64>, Rn<M>>:
        LieGroup<Scalar = f64, Algebra = ProductAlgebra<Su2Algebra<f64>, Rn<M>>>,
{
    fn side(&self) -> Side {
        match self.problem.frame() {
            Frame::Lab => Side::Left,
            Frame::Body => Side::Right,
        }
    }

    fn generator(
        &mut self,
        t: f64,
        y: &Product<UnitQuat<f64>, Rn<M>>,
    ) -> ProductAlgebra<Su2Algebra<f64>, Rn<M>> {
        let attitude = Attitude::Unit(&y.0);
        let w = self.problem.omega(t, &attitude, &y.1.0);
        let dx = self.problem.extra(t, &attitude, &y.1.0);
        ProductAlgebra(Su2Algebra(w * 0.5), Rn(dx))
    }
}

impl Named for Lifted {
    fn name(&self) -> &'static str {
        "Lie-lifted"
    }
}

impl<const M: usize> Formulation<M> for Lifted
where
    Product<UnitQuat<f64>, Rn<M>>: LieGroup<Scalar = f64>,
{
    type State = Product<UnitQuat<f64>, Rn<M>>;
    type Ode<P: RotationProblem<M>> = LiftedOde<P>;

    fn ode<P: RotationProblem<M>>(&self, problem: P) -> LiftedOde<P> {
        LiftedOde { problem }
    }

    fn problem<P: RotationProblem<M>>(ode: &mut LiftedOde<P>) -> &mut P {
        &mut ode.problem
    }

    fn encode(&self, rotor: &UnitQuat<f64>, x: &SVector<f64, M>) -> Self::State {
        Product(*rotor, Rn(*x))
    }

    fn frame(&self, y: &Self::State) -> Matrix3<f64> {
        Attitude::Unit(&y.0).matrix()
    }

    fn rotor(&self, y: &Self::State) -> UnitQuat<f64> {
        y.0
    }

    fn extra(&self, y: &Self::State) -> SVector<f64, M> {
        y.1.0
    }

    fn components(&self, y: &Self::State) -> Vec<f64> {
        let q = y.0.quaternion();
        vec![q.w, q.i, q.j, q.k]
    }
}
