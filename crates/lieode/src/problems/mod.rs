//! # Reference problems with exact solutions
//!
//! Problems for measuring the convergence order of fixed-step integrators. Each one is
//!
//! - **fully coupled**: every component of the state drives every component of the vector
//!   field (no block of the Jacobian between rotation and rate factors is structurally zero),
//! - **state- and time-dependent**, and
//! - **exactly solvable**, by the *method of manufactured solutions*: pick an explicit curve
//!   `y*(t)`, pick a nonlinear, coupled vector field `F`, and add the source term
//!   `s(t) = y*'(t) − F(t, y*(t))` that makes `y*` a solution. Every exact solution is written
//!   with explicit `cos`/`sin` formulas (elementary rotations and rotors below), independent of
//!   the crate's `exp`/`log` code, and its derivative is written in closed form.
//!
//! | problem | group | side | exact solution |
//! |---|---|---|---|
//! | [`LinearSo3`] | [`So3`](crate::lie::so3::So3), [`UnitQuat`](crate::lie::unit_quaternion::UnitQuat) | left | `R_z(α) R_x(β) R_y(γ)` |
//! | [`SphereProblem`] | `So3`, `UnitQuat` acting on S² | left | the point `x*(t)` on S² |
//! | [`TorquedRigidBody`] | `So3 × ℝ³`, `UnitQuat × ℝ³` | right | `(R_z(a) R_y(b) R_x(d), ω*)` |
//! | [`VectorTestProblem`] | `ℝ³` ([`VectorOde`](crate::ode::VectorOde)) | — | `x*(t)` |
//! | [`SpiralCylinder`] | rotational steppers, `UnitQuat × ℝ³` | right | analytic `ω(t)` (SPIRAL Eqs. 11–12), DOP853 reference `q(t)` |
//!
//! Every problem is implemented for every scalar `T: Real`, so dual numbers (`num_dual::Dual64`)
//! flow through the vector fields and the exact solutions; parameters are stored as `f64` and
//! converted with `nalgebra::convert`. The formulas contain no branches and no square roots,
//! so dual numbers differentiate them everywhere.
//!
//! Each problem has a `TIME_SPAN` constant: `[0, 2]` for all of them, long enough for the
//! solutions to turn by 2–3 radians through non-commuting directions (so commutator
//! errors show) and short enough that the error growth `e^{LT}` stays moderate, so step sizes
//! `h = 2/N`, `N = 8 … 1024`, lie in the asymptotic regime above round-off for orders 1 to 8.
//!
//! # References
//! - P. J. Roache, *Code verification by the method of manufactured solutions*, J. Fluids Eng.
//!   124 (2002), 4–10.
//! - A. Iserles, H. Munthe-Kaas, S. Nørsett, A. Zanna, *Lie-group methods*, Acta Numerica 9
//!   (2000), §2 (ODEs on matrix groups), §3 (homogeneous spaces).

pub mod boyle;
pub mod cylinder;
pub mod hairer;
pub mod invariants;
pub mod krysl;
pub mod linear_so3;
pub mod parametrised;
pub mod reference;
pub mod rigid_body;
pub mod sphere;
pub mod spring_pair;
pub mod vector;

pub use boyle::{
    ExactKinematics, ExactRotation, NumpyQuaternionBinary, PrecessingBinary, ZupanSaje,
    frame_error, omega_from_generator, rotor_frame,
};
pub use cylinder::{CylinderParameters, SpiralCylinder, benchmark_errors};
pub use linear_so3::LinearSo3;
pub use parametrised::{FreeRigidBody, LotkaVolterra};
pub use rigid_body::TorquedRigidBody;
pub use sphere::SphereProblem;
pub use spring_pair::SpringPair;
pub use vector::VectorTestProblem;

use nalgebra::{Matrix3, Quaternion};

use crate::error::{Error, Result};
use crate::lie::{Real, real};

/// A smooth scalar function of time, used for angles and coordinates of exact solutions:
///
/// `φ(t) = c₀ + c₁ t + c₂ t² + a sin(ν t + δ)`,
/// `φ'(t) = c₁ + 2 c₂ t + a ν cos(ν t + δ)`,
/// `φ''(t) = 2 c₂ − a ν² sin(ν t + δ)`.
///
/// # Examples
/// ```
/// use lieode::problems::ScalarCurve;
/// let phi = ScalarCurve::new(1.0, 0.5, 0.25, 2.0, 3.0, 0.0);
/// assert_eq!(phi.value(0.0), 1.0);
/// assert_eq!(phi.derivative(0.0), 0.5 + 2.0 * 3.0);
/// assert_eq!(phi.second_derivative(0.0), 0.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScalarCurve {
    /// `c₀`.
    pub constant: f64,
    /// `c₁`.
    pub linear: f64,
    /// `c₂`.
    pub quadratic: f64,
    /// `a`.
    pub amplitude: f64,
    /// `ν`.
    pub frequency: f64,
    /// `δ`.
    pub phase: f64,
}

impl ScalarCurve {
    /// `φ(t) = constant + linear·t + quadratic·t² + amplitude·sin(frequency·t + phase)`.
    pub const fn new(
        constant: f64,
        linear: f64,
        quadratic: f64,
        amplitude: f64,
        frequency: f64,
        phase: f64,
    ) -> Self {
        Self {
            constant,
            linear,
            quadratic,
            amplitude,
            frequency,
            phase,
        }
    }

    /// Whether every coefficient is finite.
    pub fn is_finite(&self) -> bool {
        [
            self.constant,
            self.linear,
            self.quadratic,
            self.amplitude,
            self.frequency,
            self.phase,
        ]
        .iter()
        .all(|c| c.is_finite())
    }

    /// `φ(t) = c₀ + c₁ t + c₂ t² + a sin(ν t + δ)`.
    pub fn value<T: Real>(&self, t: T) -> T {
        self.jet(t).0
    }

    /// `φ'(t) = c₁ + 2 c₂ t + a ν cos(ν t + δ)`.
    pub fn derivative<T: Real>(&self, t: T) -> T {
        self.jet(t).1
    }

    /// `φ''(t) = 2 c₂ − a ν² sin(ν t + δ)`.
    pub fn second_derivative<T: Real>(&self, t: T) -> T {
        self.jet(t).2
    }

    /// `(φ(t), φ'(t), φ''(t))` in one evaluation.
    pub fn jet<T: Real>(&self, t: T) -> (T, T, T) {
        let c0 = real::<T>(self.constant);
        let c1 = real::<T>(self.linear);
        let c2 = real::<T>(self.quadratic);
        let a = real::<T>(self.amplitude);
        let nu = real::<T>(self.frequency);
        let (s, c) = (nu * t + real::<T>(self.phase)).sin_cos();
        let two = real::<T>(2.0);
        (
            c0 + c1 * t + c2 * t * t + a * s,
            c1 + two * c2 * t + a * nu * c,
            two * c2 - a * nu * nu * s,
        )
    }

    /// `Ok(())` if the curve is finite, otherwise [`Error::NonFinite`] naming `name`.
    pub(crate) fn check(&self, name: &'static str) -> Result<()> {
        if self.is_finite() {
            Ok(())
        } else {
            Err(Error::NonFinite { name })
        }
    }
}

/// The rotation by `φ` about the x axis: `R_x(φ) = [[1, 0, 0], [0, cos φ, −sin φ], [0, sin φ, cos φ]]`.
///
/// # Examples
/// ```
/// use lieode::problems::rotation_x;
/// use nalgebra::Vector3;
/// let r = rotation_x(std::f64::consts::FRAC_PI_2);
/// assert!((r * Vector3::y() - Vector3::z()).norm() < 1e-15);
/// ```
pub fn rotation_x<T: Real>(phi: T) -> Matrix3<T> {
    let (s, c) = phi.sin_cos();
    let (o, l) = (T::zero(), T::one());
    Matrix3::new(l, o, o, o, c, -s, o, s, c)
}

/// The rotation by `φ` about the y axis: `R_y(φ) = [[cos φ, 0, sin φ], [0, 1, 0], [−sin φ, 0, cos φ]]`.
///
/// # Examples
/// ```
/// use lieode::problems::rotation_y;
/// use nalgebra::Vector3;
/// let r = rotation_y(std::f64::consts::FRAC_PI_2);
/// assert!((r * Vector3::z() - Vector3::x()).norm() < 1e-15);
/// ```
pub fn rotation_y<T: Real>(phi: T) -> Matrix3<T> {
    let (s, c) = phi.sin_cos();
    let (o, l) = (T::zero(), T::one());
    Matrix3::new(c, o, s, o, l, o, -s, o, c)
}

/// The rotation by `φ` about the z axis: `R_z(φ) = [[cos φ, −sin φ, 0], [sin φ, cos φ, 0], [0, 0, 1]]`.
///
/// # Examples
/// ```
/// use lieode::problems::rotation_z;
/// use nalgebra::Vector3;
/// let r = rotation_z(std::f64::consts::FRAC_PI_2);
/// assert!((r * Vector3::x() - Vector3::y()).norm() < 1e-15);
/// ```
pub fn rotation_z<T: Real>(phi: T) -> Matrix3<T> {
    let (s, c) = phi.sin_cos();
    let (o, l) = (T::zero(), T::one());
    Matrix3::new(c, -s, o, s, c, o, o, o, l)
}

/// The rotor of [`rotation_x`]: `exp(φ e_x / 2) = (cos(φ/2), sin(φ/2), 0, 0)` (scalar first,
/// half-angle convention of `docs/notation.md`). Continuous in `φ`: `φ ↦ φ + 2π` gives `−q`.
pub fn rotor_x<T: Real>(phi: T) -> Quaternion<T> {
    let (s, c) = (phi * real::<T>(0.5)).sin_cos();
    Quaternion::new(c, s, T::zero(), T::zero())
}

/// The rotor of [`rotation_y`]: `exp(φ e_y / 2) = (cos(φ/2), 0, sin(φ/2), 0)`.
pub fn rotor_y<T: Real>(phi: T) -> Quaternion<T> {
    let (s, c) = (phi * real::<T>(0.5)).sin_cos();
    Quaternion::new(c, T::zero(), s, T::zero())
}

/// The rotor of [`rotation_z`]: `exp(φ e_z / 2) = (cos(φ/2), 0, 0, sin(φ/2))`.
pub fn rotor_z<T: Real>(phi: T) -> Quaternion<T> {
    let (s, c) = (phi * real::<T>(0.5)).sin_cos();
    Quaternion::new(c, T::zero(), T::zero(), s)
}
