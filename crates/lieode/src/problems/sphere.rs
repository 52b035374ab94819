//! # A nonlinear, fully coupled ODE on the sphere S², solved through the rotation group
//!
//! ```text
//! x' = ω(t, x) × x,   ω(t, x) = G(x) + x*(t) × x*'(t) − G(x*(t)) + λ(t, x) x,
//! λ(t, x) = 0.8 + 0.5 sin(1.3 t) + 0.4 x₁,
//! G(x) = M x + N(x),   M = [[1, −0.8, 0.9], [0.7, 1.2, −1], [−0.9, 0.5, 1.1]],
//! N(x) = ( 0.3 sin(x₂ + 2x₃) + 0.2 x₁²,
//!          0.3 cos(x₁ − 2x₃) + 0.2 x₂x₃,
//!          0.25 x₁x₂ + 0.3 sin(x₁ + x₃) ),
//! x*(t) = ( sin b cos a,  sin b sin a,  cos b ),   a = a(t), b = b(t),
//! x*'(t) = ḃ (cos b cos a, cos b sin a, −sin b) + ȧ sin b (−sin a, cos a, 0).
//! ```
//!
//! `x*` is the exact solution: at `x = x*` the `G` terms cancel and, because `|x*| = 1` and
//! `x*·x*' = 0`, `(x* × x*') × x* = x*'`. Every component of `x` enters every component of
//! `G`: the dense matrix `M` dominates the Jacobian `∂G/∂x = M + ∂N/∂x`, so no entry of it
//! vanishes for `|x| = 1`, while `N` makes `G` nonlinear (and `x' = G(x) × x` is quadratic in
//! `x` already through `M`). `ω` depends on `t` through the manufactured terms.
//!
//! The term `λ(t, x) x` spins about the point itself: it leaves `x' = ω × x` unchanged but
//! not the motion on the group. Without it the generator along the solution would be exactly
//! `x* × x*'`, for which the commutator `ω × ω̇ ∥ x*` fixes the point, so the leading
//! commutator error of a Lie-group method (a wrongly truncated `dexp⁻¹`, for instance) would
//! be invisible in `x`; with it such errors show at their true order.
//!
//! The ODE is solved on SO(3) through the action `y ↦ y x₀` (Iserles et al. 2000, §3): the
//! state is `y ∈ SO(3)` with `y(0) = I`, `x = y x₀`, `x₀ = x*(0)`, and the generator is
//! `ξ(t, y) = ω(t, y x₀)` with [`Side::Left`]: `ẏ = ξ̂ y` implies `ẋ = ξ × x`. On unit
//! quaternions `x = q x₀ q⁻¹` and `ξ = ω/2` in su(2) coordinates. Only the point `x = y x₀`
//! has an exact value; compare it with [`SphereProblem::exact_point`].
//!
//! # References
//! - A. Iserles, H. Munthe-Kaas, S. Nørsett, A. Zanna, *Lie-group methods*, Acta Numerica 9
//!   (2000), §3 (ODEs on homogeneous spaces through a group action).
//! - P. J. Roache, *Code verification by the method of manufactured solutions*, J. Fluids Eng.
//!   124 (2002), 4–10.

use nalgebra::Vector3;

use super::ScalarCurve;
use crate::error::Result;
use crate::lie::so3::{So3, So3Algebra};
use crate::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use crate::lie::{Real, Side, real};
use crate::ode::LieOde;

/// `x' = ω(t, x) × x` on S², solved on SO(3) or unit quaternions through the action
/// `x = y x₀`; see the [module docs](self) for the formulas.
///
/// Default curves: azimuth `a(t) = 0.2 + 1.1 t + 0.3 sin 1.7t`, polar angle
/// `b(t) = 1.1 + 0.2 t + 0.4 sin(1.3 t + 0.5)` (which stays in `[0.7, 1.9]` on `[0, 2]`, away
/// from the poles).
///
/// # Examples
/// ```
/// use lieode::problems::SphereProblem;
/// use lieode::ode::LieOde;
/// use lieode::lie::{LieGroup, so3::So3};
/// let mut p = SphereProblem::default();
/// let y = So3::identity();
/// let xi = LieOde::<So3>::generator(&mut p, 0.0, &y);
/// // At t = 0 and y = I the point is x*(0), where ω × x = x*'(0).
/// let x0 = p.initial_point();
/// assert!((xi.0.cross(&x0) - p.exact_velocity_generic(0.0)).norm() < 1e-14);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SphereProblem {
    azimuth: ScalarCurve,
    polar: ScalarCurve,
    x0: Vector3<f64>,
}

impl Default for SphereProblem {
    /// The curves [`SphereProblem::DEFAULT_AZIMUTH`] and [`SphereProblem::DEFAULT_POLAR`].
    fn default() -> Self {
        Self::from_curves(Self::DEFAULT_AZIMUTH, Self::DEFAULT_POLAR)
    }
}

impl SphereProblem {
    /// The time span `[0, 2]`: the point travels ≈ 2.2 rad along a curve whose direction
    /// keeps turning, `|ω| ≤ 1.7` along the solution and the Jacobian of `x ↦ ω(t, x) × x`
    /// has Frobenius norm ≤ 3.5 there (non-stiff), so `h = 2/N` with `N = 8 … 1024` is in the
    /// asymptotic regime above round-off.
    pub const TIME_SPAN: (f64, f64) = (0.0, 2.0);

    /// Default azimuth `a(t) = 0.2 + 1.1 t + 0.3 sin 1.7t`.
    pub const DEFAULT_AZIMUTH: ScalarCurve = ScalarCurve::new(0.2, 1.1, 0.0, 0.3, 1.7, 0.0);
    /// Default polar angle `b(t) = 1.1 + 0.2 t + 0.4 sin(1.3 t + 0.5)`.
    pub const DEFAULT_POLAR: ScalarCurve = ScalarCurve::new(1.1, 0.2, 0.0, 0.4, 1.3, 0.5);

    fn from_curves(azimuth: ScalarCurve, polar: ScalarCurve) -> Self {
        let mut p = Self {
            azimuth,
            polar,
            x0: Vector3::zeros(),
        };
        p.x0 = p.exact_point(0.0);
        p
    }

    /// The problem whose exact solution has the spherical angles `a(t)` (azimuth) and `b(t)`
    /// (polar angle): `x*(t) = (sin b cos a, sin b sin a, cos b)`.
    ///
    /// # Errors
    /// [`crate::Error::NonFinite`] naming `azimuth` or `polar` if a coefficient is not finite.
    pub fn new(azimuth: ScalarCurve, polar: ScalarCurve) -> Result<Self> {
        azimuth.check("azimuth")?;
        polar.check("polar")?;
        Ok(Self::from_curves(azimuth, polar))
    }

    /// The curves `(a, b)`.
    pub fn curves(&self) -> (ScalarCurve, ScalarCurve) {
        (self.azimuth, self.polar)
    }

    /// The coupling map `G(x) = M x + N(x)`:
    ///
    /// ```text
    /// G₁ =   x₁ − 0.8 x₂ + 0.9 x₃ + 0.3 sin(x₂ + 2x₃) + 0.2 x₁²,
    /// G₂ = 0.7 x₁ + 1.2 x₂ −   x₃ + 0.3 cos(x₁ − 2x₃) + 0.2 x₂x₃,
    /// G₃ = −0.9 x₁ + 0.5 x₂ + 1.1 x₃ + 0.25 x₁x₂ + 0.3 sin(x₁ + x₃).
    /// ```
    pub fn coupling<T: Real>(x: &Vector3<T>) -> Vector3<T> {
        let c = real::<T>;
        let two = c(2.0);
        Vector3::new(
            x.x - c(0.8) * x.y
                + c(0.9) * x.z
                + c(0.3) * (x.y + two * x.z).sin()
                + c(0.2) * x.x * x.x,
            c(0.7) * x.x + c(1.2) * x.y - x.z
                + c(0.3) * (x.x - two * x.z).cos()
                + c(0.2) * x.y * x.z,
            c(-0.9) * x.x
                + c(0.5) * x.y
                + c(1.1) * x.z
                + c(0.25) * x.x * x.y
                + c(0.3) * (x.x + x.z).sin(),
        )
    }

    /// The exact solution `x*(t) = (sin b cos a, sin b sin a, cos b)` in any scalar type.
    pub fn exact_point_generic<T: Real>(&self, t: T) -> Vector3<T> {
        let (sa, ca) = self.azimuth.value(t).sin_cos();
        let (sb, cb) = self.polar.value(t).sin_cos();
        Vector3::new(sb * ca, sb * sa, cb)
    }

    /// `x*'(t) = ḃ (cos b cos a, cos b sin a, −sin b) + ȧ sin b (−sin a, cos a, 0)`.
    pub fn exact_velocity_generic<T: Real>(&self, t: T) -> Vector3<T> {
        let (a, da, _) = self.azimuth.jet(t);
        let (b, db, _) = self.polar.jet(t);
        let (sa, ca) = a.sin_cos();
        let (sb, cb) = b.sin_cos();
        Vector3::new(cb * ca, cb * sa, -sb) * db + Vector3::new(-sa, ca, T::zero()) * (da * sb)
    }

    /// The exact solution `x*(t)`.
    pub fn exact_point(&self, t: f64) -> Vector3<f64> {
        self.exact_point_generic(t)
    }

    /// The initial point `x₀ = x*(0)`; the group state starts at the identity.
    pub fn initial_point(&self) -> Vector3<f64> {
        self.x0
    }

    /// The angular velocity field `ω(t, x) = G(x) + x*(t) × x*'(t) − G(x*(t)) + λ(t, x) x`.
    pub fn omega<T: Real>(&self, t: T, x: &Vector3<T>) -> Vector3<T> {
        let xs = self.exact_point_generic(t);
        let vs = self.exact_velocity_generic(t);
        let lambda =
            real::<T>(0.8) + (t * real::<T>(1.3)).sin() * real::<T>(0.5) + x.x * real::<T>(0.4);
        Self::coupling(x) + xs.cross(&vs) - Self::coupling(&xs) + x * lambda
    }

    /// The point `x = y x₀` of a rotation state.
    pub fn point_of(&self, y: &So3<f64>) -> Vector3<f64> {
        y.rotate(&self.x0)
    }

    /// The point `x = q x₀ q⁻¹` of a rotor state.
    pub fn point_of_quaternion(&self, q: &UnitQuat<f64>) -> Vector3<f64> {
        q.rotate(&self.x0)
    }

    fn x0_in<T: Real>(&self) -> Vector3<T> {
        self.x0.map(real::<T>)
    }
}

/// `ẏ = ξ̂ y`: [`Side::Left`], `ξ(t, y) = ω(t, y x₀)`.
impl<T: Real> LieOde<So3<T>> for SphereProblem {
    fn side(&self) -> Side {
        Side::Left
    }
    fn generator(&mut self, t: T, y: &So3<T>) -> So3Algebra<T> {
        let x = y.rotate(&self.x0_in());
        So3Algebra(self.omega(t, &x))
    }
}

/// `q̇ = (0, ξ) ⊗ q`: [`Side::Left`], `ξ(t, q) = ω(t, q x₀ q⁻¹)/2` in su(2) coordinates.
impl<T: Real> LieOde<UnitQuat<T>> for SphereProblem {
    fn side(&self) -> Side {
        Side::Left
    }
    fn generator(&mut self, t: T, y: &UnitQuat<T>) -> Su2Algebra<T> {
        let x = y.rotate(&self.x0_in());
        Su2Algebra(self.omega(t, &x) * real::<T>(0.5))
    }
}
