//! The two incremental forms of rigid-body rotation on `SO(3) × ℝ³` (Krysl §3), as Lie-group
//! ODEs `y' = y · ξ(t, y)` for the Munthe-Kaas engines.
//!
//! Both carry the attitude `R` (body → lab; `Ṙ = R ω̂`, [`Side::Right`], so the local
//! coordinates follow `Ψ' = dexp⁻¹_{−Ψ}(ω)`, Krysl Eq. 10) and a momentum in the additive factor:
//!
//! - [`BodyMomentumForm`] (the *differential* form): the body momentum `Π = Jω` with Euler's
//!   equations `Π̇ = −ω × Π + Rᵀ t(t, R)`; one-stage tableaux give Krysl's Eqs. (11)–(12).
//! - [`SpatialMomentumForm`] (the *integral* form): the spatial momentum `π = RΠ` with
//!   `π̇ = t(t, R)`; one-stage tableaux give Eqs. (18)–(19), and any tableau gives Krysl's
//!   algorithm MKRK (§3.7). Spatial momentum is a linear invariant of every such method, so it is
//!   conserved to round-off in torque-free motion.

use crate::body::RigidBodyState;
use std::marker::PhantomData;

use crate::body::{RigidBody, Torque};
use crate::lie::product::{Product, ProductAlgebra};
use crate::lie::rn::Rn;
use crate::lie::so3::So3Algebra;
use crate::lie::{Lift, Real, Side};
use crate::ode::LieOde;

/// The algebra of [`RigidBodyState`]: `(ω, ṁ)`.
pub type MomentumAlgebra<T = f64> = ProductAlgebra<So3Algebra<T>, Rn<3, T>>;

/// A rigid body under a torque as a Lie-group ODE on [`RigidBodyState`], in the momentum
/// form `K` ([`BodyMomentum`] or [`SpatialMomentum`]); used through the aliases
/// [`BodyMomentumForm`] and [`SpatialMomentumForm`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MomentumOde<F, K, S: Real = f64> {
    body: RigidBody<S>,
    torque: F,
    form: PhantomData<K>,
}

/// Marker of the body-momentum (differential) form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyMomentum;

/// Marker of the spatial-momentum (integral) form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpatialMomentum;

impl<F, K, S: Real> MomentumOde<F, K, S> {
    /// The form for `body` under the torque `torque`.
    pub fn new(body: RigidBody<S>, torque: F) -> Self {
        Self {
            body,
            torque,
            form: PhantomData,
        }
    }
    /// The body.
    pub fn body(&self) -> &RigidBody<S> {
        &self.body
    }
    /// The torque.
    pub fn torque(&self) -> &F {
        &self.torque
    }
}

/// `Ṙ = R ω̂`, `Π̇ = −ω × Π + Rᵀ t(t, R)` with `ω = J⁻¹Π`: the body-momentum (differential) form.
///
/// Generator `ξ = (J⁻¹Π, −ω × Π + Rᵀ t)`, [`Side::Right`]: Euler's equations in momentum form,
/// [`RigidBody::body_angular_velocity`] and [`RigidBody::momentum_rate`] with the body torque
/// `τ = Rᵀ t` ([`Torque::body_torque`] at `(t, R, ω)`).
///
/// # Examples
/// ```
/// use lieode::body::RigidBodyState;
/// use lieode::body::NoTorque;
/// use lieode::momentum::BodyMomentumForm;
/// use lieode::lie::{LieGroup, rn::Rn, so3::So3, product::Product};
/// use lieode::ode::LieOde;
/// use lieode::body::RigidBody;
/// use nalgebra::Vector3;
/// let mut form = BodyMomentumForm::new(RigidBody::new([1.0, 2.0, 3.0])?, NoTorque);
/// let y: RigidBodyState = Product(So3::identity(), Rn(Vector3::new(1.0, 2.0, 3.0)));
/// let xi = form.generator(0.0, &y);
/// assert_eq!(xi.0.0, Vector3::new(1.0, 1.0, 1.0)); // ω = J⁻¹Π
/// # Ok::<(), lieode::Error>(())
/// ```
pub type BodyMomentumForm<F, S = f64> = MomentumOde<F, BodyMomentum, S>;

/// Over the scalar `T` of the state, for a body over `S` with `S: Lift<T>` (an `f64` body over
/// every scalar; a body with dual moments over its dual type and over `Dual64`).
impl<T: Real, S: Real + Lift<T>, F: Torque<T>> LieOde<RigidBodyState<T>>
    for MomentumOde<F, BodyMomentum, S>
{
    fn side(&self) -> Side {
        Side::Right
    }
    fn generator(&mut self, t: T, y: &RigidBodyState<T>) -> MomentumAlgebra<T> {
        let body = self.body.lifted::<T>();
        let r = y.0.matrix();
        let momentum = y.1.0;
        let omega = body.body_angular_velocity(&momentum);
        let body_torque = self.torque.body_torque(t, r, &omega);
        ProductAlgebra(
            So3Algebra(omega),
            Rn(body.momentum_rate(&momentum, &body_torque)),
        )
    }
}

/// `Ṙ = R ω̂`, `π̇ = t(t, R)` with `ω = J⁻¹ Rᵀ π`: the spatial-momentum (integral) form.
///
/// Generator `ξ = (J⁻¹Rᵀπ, t)`, [`Side::Right`]: Euler's equations in the lab frame,
/// [`RigidBody::angular_velocity_from_spatial`], with the lab torque `t`
/// ([`Torque::lab_torque`] at `(t, R, ω)`).
///
/// # Examples
/// ```
/// use lieode::body::RigidBodyState;
/// use lieode::body::NoTorque;
/// use lieode::momentum::SpatialMomentumForm;
/// use lieode::lie::{LieGroup, rn::Rn, so3::So3, product::Product};
/// use lieode::ode::LieOde;
/// use lieode::body::RigidBody;
/// use nalgebra::Vector3;
/// let mut form = SpatialMomentumForm::new(RigidBody::new([1.0, 2.0, 3.0])?, NoTorque);
/// let y: RigidBodyState = Product(So3::identity(), Rn(Vector3::new(1.0, 2.0, 3.0)));
/// let xi = form.generator(0.0, &y);
/// assert_eq!(xi.1.0, Vector3::zeros()); // π̇ = t = 0
/// # Ok::<(), lieode::Error>(())
/// ```
pub type SpatialMomentumForm<F, S = f64> = MomentumOde<F, SpatialMomentum, S>;

/// Over the scalar `T` of the state, for a body over `S` with `S: Lift<T>`.
impl<T: Real, S: Real + Lift<T>, F: Torque<T>> LieOde<RigidBodyState<T>>
    for MomentumOde<F, SpatialMomentum, S>
{
    fn side(&self) -> Side {
        Side::Right
    }
    fn generator(&mut self, t: T, y: &RigidBodyState<T>) -> MomentumAlgebra<T> {
        let r = y.0.matrix();
        let omega = self
            .body
            .lifted::<T>()
            .angular_velocity_from_spatial(r, &y.1.0);
        let torque = self.torque.lab_torque(t, r, &omega);
        ProductAlgebra(So3Algebra(omega), Rn(torque))
    }
}

/// `(R, Π) ↦ (R, RΠ)`: body to spatial momentum ([`super::spatial_momentum`]).
pub fn to_spatial<T: Real>(y: &RigidBodyState<T>) -> RigidBodyState<T> {
    Product(y.0, Rn(super::spatial_momentum(y)))
}

/// `(R, π) ↦ (R, Rᵀπ)`: spatial to body momentum.
pub fn to_body<T: Real>(y: &RigidBodyState<T>) -> RigidBodyState<T> {
    Product(y.0, Rn(y.0.matrix().tr_mul(&y.1.0)))
}
