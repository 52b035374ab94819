//! # A linear, time-dependent, non-commuting ODE on SO(3)
//!
//! `Ẏ = Â(t) Y` (left trivialisation, `ξ = A(t)` in the lab frame) with the exact solution
//!
//! ```text
//! Y(t) = R_z(α(t)) R_x(β(t)) R_y(γ(t)),
//! A(t) = vee(Ẏ Y⁻¹) = α̇ e_z + β̇ R_z(α) e_x + γ̇ R_z(α) R_x(β) e_y
//!      = ( β̇ cos α − γ̇ sin α cos β,
//!          β̇ sin α + γ̇ cos α cos β,
//!          α̇ + γ̇ sin β ).
//! ```
//!
//! `A(t)` changes direction, so `A(t₁)` and `A(t₂)` do not commute and the solution is not
//! `exp(∫A)`: a method's commutator (Magnus) terms are exercised. The generator does not
//! depend on the state, so this is the *linear* test of a Lie-group method; its error constants
//! come from the time dependence alone.
//!
//! # References
//! - A. Iserles, H. Munthe-Kaas, S. Nørsett, A. Zanna, *Lie-group methods*, Acta Numerica 9
//!   (2000), the Magnus expansion for `Y' = A(t) Y`.
//! - P. J. Roache, *Code verification by the method of manufactured solutions*, J. Fluids Eng.
//!   124 (2002), 4–10.

use nalgebra::Vector3;

use super::{ScalarCurve, rotation_x, rotation_y, rotation_z, rotor_x, rotor_y, rotor_z};
use crate::error::Result;
use crate::lie::so3::{So3, So3Algebra};
use crate::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use crate::lie::{Real, Side, real};
use crate::ode::LieOde;

/// `Ẏ = Â(t) Y` on SO(3) (and `q̇ = ½ (0, A(t)) ⊗ q` on unit quaternions) with the exact
/// solution `Y(t) = R_z(α(t)) R_x(β(t)) R_y(γ(t))`; see the [module docs](self).
///
/// Default curves ([`LinearSo3::DEFAULT_ALPHA`], …):
/// `α(t) = 0.5 t + 0.3 t² + 0.2 sin 2t`, `β(t) = 0.3 + 0.9 sin 1.3t`,
/// `γ(t) = −0.4 t + 0.25 t² + 0.5 sin(0.9 t + 0.4)`.
///
/// # Examples
/// ```
/// use lieode::problems::LinearSo3;
/// use lieode::ode::LieOde;
/// use lieode::lie::{LieGroup, so3::So3};
/// let mut p = LinearSo3::default();
/// let y = p.exact(0.5);
/// let xi = LieOde::<So3>::generator(&mut p, 0.5, &y);
/// assert_eq!(xi.0, p.angular_velocity(0.5));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearSo3 {
    alpha: ScalarCurve,
    beta: ScalarCurve,
    gamma: ScalarCurve,
}

impl Default for LinearSo3 {
    /// The curves [`LinearSo3::DEFAULT_ALPHA`], [`LinearSo3::DEFAULT_BETA`],
    /// [`LinearSo3::DEFAULT_GAMMA`].
    fn default() -> Self {
        Self {
            alpha: Self::DEFAULT_ALPHA,
            beta: Self::DEFAULT_BETA,
            gamma: Self::DEFAULT_GAMMA,
        }
    }
}

impl LinearSo3 {
    /// The time span `[0, 2]`: `|A(t)|` stays between ≈ 1.15 and ≈ 1.96 and its direction
    /// turns by more than 1 rad, so the solution rotates by `∫|A| dt ≈ 2.8` rad through
    /// non-commuting directions; the problem is linear and non-stiff, so errors grow mildly
    /// and `h = 2/N` with `N = 8 … 1024` is in the asymptotic regime above round-off
    /// (classical RK4 in the embedding: error 1.1e-5 at `N = 20`, slope 4.01).
    pub const TIME_SPAN: (f64, f64) = (0.0, 2.0);

    /// Default `α(t) = 0.5 t + 0.3 t² + 0.2 sin 2t` (angle about z, applied last).
    pub const DEFAULT_ALPHA: ScalarCurve = ScalarCurve::new(0.0, 0.5, 0.3, 0.2, 2.0, 0.0);
    /// Default `β(t) = 0.3 + 0.9 sin 1.3t` (angle about x).
    pub const DEFAULT_BETA: ScalarCurve = ScalarCurve::new(0.3, 0.0, 0.0, 0.9, 1.3, 0.0);
    /// Default `γ(t) = −0.4 t + 0.25 t² + 0.5 sin(0.9 t + 0.4)` (angle about y, applied first).
    pub const DEFAULT_GAMMA: ScalarCurve = ScalarCurve::new(0.0, -0.4, 0.25, 0.5, 0.9, 0.4);

    /// The problem with exact solution `R_z(α(t)) R_x(β(t)) R_y(γ(t))` for the given curves.
    ///
    /// # Errors
    /// [`crate::Error::NonFinite`] naming `alpha`, `beta` or `gamma` if a coefficient is not
    /// finite.
    pub fn new(alpha: ScalarCurve, beta: ScalarCurve, gamma: ScalarCurve) -> Result<Self> {
        alpha.check("alpha")?;
        beta.check("beta")?;
        gamma.check("gamma")?;
        Ok(Self { alpha, beta, gamma })
    }

    /// The curves `(α, β, γ)`.
    pub fn curves(&self) -> (ScalarCurve, ScalarCurve, ScalarCurve) {
        (self.alpha, self.beta, self.gamma)
    }

    /// The lab-frame angular velocity `A(t) = vee(Ẏ Y⁻¹)`:
    /// `(β̇ cos α − γ̇ sin α cos β, β̇ sin α + γ̇ cos α cos β, α̇ + γ̇ sin β)`.
    pub fn angular_velocity<T: Real>(&self, t: T) -> Vector3<T> {
        let (a, da, _) = self.alpha.jet(t);
        let (b, db, _) = self.beta.jet(t);
        let dg = self.gamma.derivative(t);
        let (sa, ca) = a.sin_cos();
        let (sb, cb) = b.sin_cos();
        Vector3::new(db * ca - dg * sa * cb, db * sa + dg * ca * cb, da + dg * sb)
    }

    /// The exact solution `Y(t) = R_z(α(t)) R_x(β(t)) R_y(γ(t))` in any scalar type (e.g. a
    /// dual number in `t` gives `Ẏ`).
    pub fn exact_generic<T: Real>(&self, t: T) -> So3<T> {
        So3::from_matrix_unchecked(
            rotation_z(self.alpha.value(t))
                * rotation_x(self.beta.value(t))
                * rotation_y(self.gamma.value(t)),
        )
    }

    /// The exact solution `Y(t) = R_z(α(t)) R_x(β(t)) R_y(γ(t))`.
    pub fn exact(&self, t: f64) -> So3<f64> {
        self.exact_generic(t)
    }

    /// The exact rotor `q(t) = exp(α e_z/2) ⊗ exp(β e_x/2) ⊗ exp(γ e_y/2)` in any scalar type;
    /// continuous in `t` (no sign flips) and `R(q(t)) = Y(t)`.
    pub fn exact_quaternion_generic<T: Real>(&self, t: T) -> UnitQuat<T> {
        UnitQuat::from_quaternion_unchecked(
            rotor_z(self.alpha.value(t))
                * rotor_x(self.beta.value(t))
                * rotor_y(self.gamma.value(t)),
        )
    }

    /// The exact rotor `q(t) = exp(α e_z/2) ⊗ exp(β e_x/2) ⊗ exp(γ e_y/2)`.
    pub fn exact_quaternion(&self, t: f64) -> UnitQuat<f64> {
        self.exact_quaternion_generic(t)
    }
}

/// `Ẏ = Â(t) Y`: [`Side::Left`], `ξ(t, Y) = A(t)` ([`LinearSo3::angular_velocity`]).
impl<T: Real> LieOde<So3<T>> for LinearSo3 {
    fn side(&self) -> Side {
        Side::Left
    }
    fn generator(&mut self, t: T, _y: &So3<T>) -> So3Algebra<T> {
        So3Algebra(self.angular_velocity(t))
    }
}

/// `q̇ = (0, A(t)/2) ⊗ q`: [`Side::Left`], `ξ(t, q) = A(t)/2` in su(2) coordinates.
impl<T: Real> LieOde<UnitQuat<T>> for LinearSo3 {
    fn side(&self) -> Side {
        Side::Left
    }
    fn generator(&mut self, t: T, _y: &UnitQuat<T>) -> Su2Algebra<T> {
        Su2Algebra(self.angular_velocity(t) * real::<T>(0.5))
    }
}
