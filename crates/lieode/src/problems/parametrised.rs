//! Problems whose parameters are stored in the scalar type, so that dual numbers carry
//! derivatives with respect to them ([`crate::sensitivity`]).

use nalgebra::{Vector2, Vector3};

use crate::body::RigidBodyState;
use crate::lie::product::ProductAlgebra;
use crate::lie::rn::Rn;
use crate::lie::so3::So3Algebra;
use crate::lie::{Lift, Real, Side};
use crate::ode::{LieOde, VectorOde};

/// A torque-free rigid body on `SO(3) × ℝ³` with its principal moments as parameters:
///
/// ```text
/// Ṙ = R ω̂,    J ω̇ = (Jω) × ω,    J = diag(J₁, J₂, J₃)
/// ```
///
/// ([`Side::Right`], generator `ξ = (ω, J⁻¹((Jω) × ω))`, `ω` in the body frame). The motion
/// depends on the moments only through their ratios (`J → cJ` leaves it unchanged), and the
/// kinetic energy `½ ωᵀJω` and the lab angular momentum `R J ω` are conserved.
///
/// # Examples
/// ```
/// use lieode::problems::FreeRigidBody;
/// use lieode::ode::LieOde;
/// use lieode::body::RigidBodyState;
/// use lieode::lie::{LieGroup, product::Product, rn::Rn, so3::So3};
/// use nalgebra::Vector3;
/// let mut body = FreeRigidBody::new(Vector3::new(1.0, 2.0, 2.5));
/// let y = Product(So3::identity(), Rn(Vector3::new(0.0, 0.0, 0.8)));
/// // about a principal axis ω is constant
/// assert_eq!(LieOde::<RigidBodyState>::generator(&mut body, 0.0, &y).1.0, Vector3::zeros());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FreeRigidBody<T> {
    /// The principal moments `(J₁, J₂, J₃)`.
    pub inertia: Vector3<T>,
}

impl<T> FreeRigidBody<T> {
    /// The body with principal moments `inertia`.
    pub fn new(inertia: Vector3<T>) -> Self {
        Self { inertia }
    }
}

/// Over every scalar its moments lift to ([`Lift`]): `f64` moments over any scalar, dual moments
/// over their own dual type and over `Dual64` (which the implicit engines' Newton solves
/// differentiate with).
impl<S: Real + Lift<T>, T: Real> LieOde<RigidBodyState<T>> for FreeRigidBody<S> {
    fn side(&self) -> Side {
        Side::Right
    }

    fn generator(
        &mut self,
        _t: T,
        y: &RigidBodyState<T>,
    ) -> ProductAlgebra<So3Algebra<T>, Rn<3, T>> {
        let omega = y.1.0;
        let inertia = self.inertia.map(Lift::lift);
        let momentum = omega.component_mul(&inertia);
        let accel = momentum.cross(&omega).component_div(&inertia);
        ProductAlgebra(So3Algebra(omega), Rn(accel))
    }
}

/// The Lotka–Volterra predator–prey model with its four rates as parameters:
///
/// ```text
/// x' = a x − b x y,    y' = c x y − d y
/// ```
///
/// (Hairer, Nørsett, Wanner I, §I.16). Its first integral
/// `I = c x − d ln x + b y − a ln y` is constant along solutions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LotkaVolterra<T> {
    /// `[a, b, c, d]`.
    pub rates: [T; 4],
}

impl<T> LotkaVolterra<T> {
    /// The model with rates `[a, b, c, d]`.
    pub fn new(rates: [T; 4]) -> Self {
        Self { rates }
    }
}

/// Over every scalar its rates lift to ([`Lift`]), as [`FreeRigidBody`].
impl<S: Lift<T>, T: Real> VectorOde<T, 2> for LotkaVolterra<S> {
    fn rhs(&mut self, _t: T, x: &Vector2<T>) -> Vector2<T> {
        let [a, b, c, d] = self.rates.map(Lift::lift);
        Vector2::new(a * x[0] - b * x[0] * x[1], c * x[0] * x[1] - d * x[1])
    }
}
