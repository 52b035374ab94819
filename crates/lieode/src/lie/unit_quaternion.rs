//! # Unit quaternions (SU(2)) as rotors
//!
//! Hamilton quaternions `q = w + x i + y j + z k`, written scalar first `(w, x, y, z)` and stored
//! in nalgebra's `[x, y, z, w]` order. A unit quaternion is a *rotor* mapping body to lab
//! coordinates: `v_lab = q v_body q⁻¹`.
//!
//! The algebra su(2) is the space of pure quaternions `(0, v)`, coordinatised by `v ∈ ℝ³`, with
//! the bracket `[u, v] = uv − vu = 2 u × v` and the exponential (the **half-angle** convention)
//! `exp(v) = (cos|v|, sin|v| v/|v|)`: rotating by the angle `φ` about the unit axis `n` is
//! `exp(φ n / 2)`. In so(3) terms, `v ∈ su(2)` corresponds to `ω = 2v`, so the closed forms are
//! those of SO(3) at `θ = 2v`:
//! - `dexp_v u = u + S₂(2|v|) (2v)×u + S₃(2|v|) (2v)×((2v)×u)`,
//! - `dexp⁻¹_v u = u − v×u + 4 C(2|v|) v×(v×u)`, which is Boyle's generator equation (18) with
//!   `u = Ω/2` — the exact summation of the Bernoulli series (Boyle 2017, Eq. (16)).
//! - `Ad_q v = q v q⁻¹`.
//!
//! # References
//! - M. Boyle, *The integration of angular velocity*, Adv. Appl. Clifford Algebras 27 (2017),
//!   Eqs. (6)–(8), (16)–(18).
//! - J. Solà, *Quaternion kinematics for the error-state Kalman filter*, arXiv:1711.02508, §4.

use nalgebra::{Const, Matrix3, Quaternion, SVector, Vector3};

use super::series::{
    ASIN_SERIES_SQ, NORM_WITHOUT_SCALING, asin_over_x, cos_sinc, reduce_rotation_vector,
};
use super::so3::{So3, dexp_inv_vector, dexp_vector};
use super::{LieAlgebra, LieGroup, Real, Side, real, to_f64};
use crate::error::{Error, Result};

/// Default tolerance of the unit-norm check of [`UnitQuat::from_quaternion`]: `| |q| − 1 |`.
pub const UNIT_NORM_TOLERANCE: f64 = 1e-10;

/// An element of su(2): the pure quaternion `(0, v)`, stored as `v` (half the rotation vector).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Su2Algebra<T = f64>(pub Vector3<T>);

impl<T: Real> Su2Algebra<T> {
    /// The pure quaternion `(0, v)`.
    pub fn new(v: Vector3<T>) -> Self {
        Self(v)
    }
    /// The element whose exponential rotates by the rotation vector `ω` (angle `|ω|`):
    /// `v = ω/2`.
    pub fn from_rotation_vector(omega: &Vector3<T>) -> Self {
        Self(omega * real::<T>(0.5))
    }
    /// The vector part `v`.
    pub fn vector(&self) -> &Vector3<T> {
        &self.0
    }
    /// The rotation vector `2v` of `exp(v)`.
    pub fn rotation_vector(&self) -> Vector3<T> {
        self.0 * real::<T>(2.0)
    }
}

impl<T: Real> LieAlgebra for Su2Algebra<T> {
    type Scalar = T;
    type Dim = Const<3>;
    type WithScalar<S: Real> = Su2Algebra<S>;

    fn cast<S: Real>(&self) -> Su2Algebra<S> {
        Su2Algebra(self.0.map(super::cast_scalar))
    }

    fn zero() -> Self {
        Self(Vector3::zeros())
    }
    fn add(&self, other: &Self) -> Self {
        Self(self.0 + other.0)
    }
    fn scale(&self, s: T) -> Self {
        Self(self.0 * s)
    }
    /// `[u, v] = uv − vu = 2 u × v`.
    fn bracket(&self, other: &Self) -> Self {
        Self(self.0.cross(&other.0) * real::<T>(2.0))
    }
    fn norm(&self) -> T {
        self.0.norm()
    }
    fn is_finite(&self) -> bool {
        self.0.iter().all(|x| x.is_finite())
    }
    fn to_coords(&self) -> SVector<T, 3> {
        self.0
    }
    fn from_coords(coords: &SVector<T, 3>) -> Self {
        Self(*coords)
    }
}

/// A unit quaternion (rotor) `q = (w, x, y, z)`, `|q| = 1`.
///
/// `q` and `−q` are distinct group elements of SU(2) that represent the same rotation;
/// [`LieGroup::distance`] is the rotation angle and so does not tell them apart.
///
/// # Examples
/// ```
/// use lieode::lie::{LieGroup, unit_quaternion::{UnitQuat, Su2Algebra}};
/// use nalgebra::Vector3;
/// // A quarter turn about z: exp(φ n / 2) with φ = π/2.
/// let q = UnitQuat::exp(&Su2Algebra::from_rotation_vector(&Vector3::new(0.0, 0.0, std::f64::consts::FRAC_PI_2)));
/// let v = q.rotate(&Vector3::new(1.0, 0.0, 0.0));
/// assert!((v - Vector3::new(0.0, 1.0, 0.0)).norm() < 1e-15);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct UnitQuat<T = f64> {
    q: Quaternion<T>,
}

/// Equality of the stored quaternions (so `q ≠ −q`; compare rotations with
/// [`LieGroup::distance`]).
impl<T: Real> PartialEq for UnitQuat<T> {
    fn eq(&self, other: &Self) -> bool {
        self.q.coords == other.q.coords
    }
}

impl<T: Real> UnitQuat<T> {
    /// The rotor `(w, x, y, z)` after checking `| |q| − 1 | ≤ 1e-10`.
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::NotOnGroup`] naming the parameter `q`.
    pub fn new(w: T, x: T, y: T, z: T) -> Result<Self> {
        Self::from_quaternion(Quaternion::new(w, x, y, z))
    }

    /// Wraps `q` after checking `| |q| − 1 | ≤ 1e-10`.
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::NotOnGroup`] naming the parameter `q`.
    pub fn from_quaternion(q: Quaternion<T>) -> Result<Self> {
        Self::from_quaternion_with_tolerance(q, UNIT_NORM_TOLERANCE)
    }

    /// As [`UnitQuat::from_quaternion`] with a chosen tolerance on `| |q| − 1 |`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a negative or non-finite tolerance; otherwise as
    /// [`UnitQuat::from_quaternion`].
    pub fn from_quaternion_with_tolerance(q: Quaternion<T>, tolerance: f64) -> Result<Self> {
        super::check_tolerance("tolerance", tolerance)?;
        if !q.coords.iter().all(|x| x.is_finite()) {
            return Err(Error::NonFinite { name: "q" });
        }
        let deviation = (to_f64(q.norm()) - 1.0).abs();
        if deviation > tolerance {
            return Err(Error::NotOnGroup {
                group: "SU(2)",
                name: "q",
                constraint: "|q| = 1",
                deviation,
                tolerance,
            });
        }
        Ok(Self { q })
    }

    /// `q/|q|`, for any finite non-zero `q`: when `|q|²` would overflow or lose digits to
    /// underflow (`|q|` outside `[10⁻¹⁴⁶, 10¹⁵⁴]`), `q` is first divided by its largest entry.
    ///
    /// # Errors
    /// [`Error::NonFinite`] for non-finite entries, [`Error::InvalidParameter`] for `q = 0`
    /// (exactly: subnormal quaternions are normalised).
    pub fn from_quaternion_normalized(q: Quaternion<T>) -> Result<Self> {
        if !q.coords.iter().all(|x| x.is_finite()) {
            return Err(Error::NonFinite { name: "q" });
        }
        let largest = q.coords.amax();
        if largest == T::zero() {
            return Err(Error::InvalidParameter {
                name: "q",
                value: "0".into(),
                expected: "a non-zero quaternion".into(),
            });
        }
        let n = q.norm();
        if n.is_finite() && n >= real(NORM_WITHOUT_SCALING) {
            return Ok(Self { q: q / n });
        }
        let scaled = q / largest;
        Ok(Self {
            q: scaled / scaled.norm(),
        })
    }

    /// Wraps `q` without a check. The caller guarantees `|q| = 1`.
    pub fn from_quaternion_unchecked(q: Quaternion<T>) -> Self {
        Self { q }
    }

    /// The rotor of a rotation matrix (Shepperd's method: the largest of `w², x², y², z²` is
    /// taken from the diagonal, the rest from off-diagonal sums; the result has `w ≥ 0`).
    pub fn from_rotation(r: &So3<T>) -> Self {
        let m = r.matrix();
        let quarter = real::<T>(0.25);
        let one = T::one();
        let tr = m.trace();
        let (w, x, y, z);
        if tr >= m[(0, 0)] && tr >= m[(1, 1)] && tr >= m[(2, 2)] {
            let s = (one + tr).sqrt() * real(2.0); // 4w
            w = quarter * s;
            x = (m[(2, 1)] - m[(1, 2)]) / s;
            y = (m[(0, 2)] - m[(2, 0)]) / s;
            z = (m[(1, 0)] - m[(0, 1)]) / s;
        } else if m[(0, 0)] >= m[(1, 1)] && m[(0, 0)] >= m[(2, 2)] {
            let s = (one + m[(0, 0)] - m[(1, 1)] - m[(2, 2)]).sqrt() * real(2.0); // 4x
            w = (m[(2, 1)] - m[(1, 2)]) / s;
            x = quarter * s;
            y = (m[(0, 1)] + m[(1, 0)]) / s;
            z = (m[(0, 2)] + m[(2, 0)]) / s;
        } else if m[(1, 1)] >= m[(2, 2)] {
            let s = (one + m[(1, 1)] - m[(0, 0)] - m[(2, 2)]).sqrt() * real(2.0); // 4y
            w = (m[(0, 2)] - m[(2, 0)]) / s;
            x = (m[(0, 1)] + m[(1, 0)]) / s;
            y = quarter * s;
            z = (m[(1, 2)] + m[(2, 1)]) / s;
        } else {
            let s = (one + m[(2, 2)] - m[(0, 0)] - m[(1, 1)]).sqrt() * real(2.0); // 4z
            w = (m[(1, 0)] - m[(0, 1)]) / s;
            x = (m[(0, 2)] + m[(2, 0)]) / s;
            y = (m[(1, 2)] + m[(2, 1)]) / s;
            z = quarter * s;
        }
        let q = Quaternion::new(w, x, y, z);
        let q = if w < T::zero() { -q } else { q };
        Self { q }
    }

    /// The quaternion.
    pub fn quaternion(&self) -> &Quaternion<T> {
        &self.q
    }
    /// The scalar part `w`.
    pub fn w(&self) -> T {
        self.q.w
    }
    /// The vector part `(x, y, z)`.
    pub fn vector(&self) -> Vector3<T> {
        self.q.imag()
    }
    /// `−q`: the other rotor of the same rotation.
    pub fn antipode(&self) -> Self {
        Self { q: -self.q }
    }

    /// The rotation matrix `R(q)` with `R(q) v = q v q⁻¹`:
    /// `R = (w² − |u|²) I + 2 u uᵀ + 2 w û` for `q = (w, u)`.
    pub fn to_rotation_matrix(&self) -> Matrix3<T> {
        let w = self.q.w;
        let u = self.q.imag();
        let two = real::<T>(2.0);
        Matrix3::identity() * (w * w - u.norm_squared())
            + u * u.transpose() * two
            + super::so3::hat(&u) * (two * w)
    }

    /// The rotation `R(q)` as an [`So3`] element.
    pub fn to_rotation(&self) -> So3<T> {
        So3::from_matrix_unchecked(self.to_rotation_matrix())
    }

    /// `q v q⁻¹ = v + 2w (u × v) + 2 u × (u × v)`.
    pub fn rotate(&self, v: &Vector3<T>) -> Vector3<T> {
        let u = self.q.imag();
        let t = u.cross(v) * real::<T>(2.0);
        v + t * self.q.w + u.cross(&t)
    }

    /// The rotation angle in `[0, π]` (the same for `q` and `−q`).
    pub fn angle(&self) -> T {
        self.q.imag().norm().atan2(self.q.w.abs()) * real(2.0)
    }
}

impl<T: Real> LieGroup for UnitQuat<T> {
    type Scalar = T;
    type Algebra = Su2Algebra<T>;
    type WithScalar<S: Real> = UnitQuat<S>;
    const NAME: &'static str = "SU(2)";

    fn cast<S: Real>(&self) -> UnitQuat<S> {
        UnitQuat {
            q: Quaternion::from(self.q.coords.map(super::cast_scalar)),
        }
    }

    fn identity() -> Self {
        Self {
            q: Quaternion::identity(),
        }
    }
    /// The Hamilton product.
    fn compose(&self, other: &Self) -> Self {
        Self {
            q: self.q * other.q,
        }
    }
    /// The conjugate.
    fn inverse(&self) -> Self {
        Self {
            q: self.q.conjugate(),
        }
    }
    /// `exp(v) = (cos|v|, sin|v| v/|v|)`.
    fn exp(xi: &Su2Algebra<T>) -> Self {
        let mut v = xi.0;
        let mut v2 = v.norm_squared();
        if !v2.is_finite() && v.iter().all(|x| x.is_finite()) {
            // |v|² overflows: the same rotor from |v| mod 2π.
            v = reduce_rotation_vector(&v);
            v2 = v.norm_squared();
        }
        let (c, s1) = cos_sinc(v2);
        let v = v * s1;
        Self {
            q: Quaternion::new(c, v.x, v.y, v.z),
        }
    }
    /// The principal logarithm on SU(2): `v = atan2(|u|, w) u/|u|` for `q = (w, u)`, with
    /// `|v| ∈ [0, π]`. Near the identity it uses `u · asin|u|/|u|` by its series; at `q = −1`,
    /// where every axis is a logarithm, it returns `(π, 0, 0)`. Never fails.
    fn log(&self) -> Result<Su2Algebra<T>> {
        let u = self.q.imag();
        let w = self.q.w;
        let sin2 = u.norm_squared();
        if w > T::zero() && sin2 < real(ASIN_SERIES_SQ) {
            return Ok(Su2Algebra(u * asin_over_x(sin2)));
        }
        if sin2 == T::zero() {
            // w = −1: the logarithm is any vector of length π.
            return Ok(Su2Algebra(Vector3::new(T::pi(), T::zero(), T::zero())));
        }
        let sin = sin2.sqrt();
        Ok(Su2Algebra(u * (sin.atan2(w) / sin)))
    }
    /// `Ad_q v = q v q⁻¹`.
    fn adjoint(&self, xi: &Su2Algebra<T>) -> Su2Algebra<T> {
        Su2Algebra(self.rotate(&xi.0))
    }
    /// `dexp_v u = u + S₂(2|v|) (2v)×u + S₃(2|v|) (2v)×((2v)×u)`: the so(3) form at `θ = 2v`
    /// (linear in `u`, so the factor 2 of `u` cancels against the ½ mapping back).
    fn dexp(xi: &Su2Algebra<T>, v: &Su2Algebra<T>) -> Su2Algebra<T> {
        Su2Algebra(dexp_vector(&xi.rotation_vector(), &v.0))
    }
    /// `dexp⁻¹_v u = u − v×u + 4 C(2|v|) v×(v×u)` (Boyle's Eq. (18) with `u = Ω/2`).
    fn dexp_inv(xi: &Su2Algebra<T>, v: &Su2Algebra<T>) -> Su2Algebra<T> {
        Su2Algebra(dexp_inv_vector(&xi.rotation_vector(), &v.0))
    }
    fn is_finite(&self) -> bool {
        self.q.coords.iter().all(|x| x.is_finite())
    }
    /// Zero: rotation errors are tested absolutely (in radians).
    fn coordinate_magnitude_at(&self, _side: Side, _theta: &Self::Algebra, _i: usize) -> T {
        T::zero()
    }
    /// The rotation angle between the two rotations, in `[0, π]`: `q` and `−q` are at distance
    /// zero (double-cover aware), and the value equals the [`So3`] distance of the matrices.
    fn distance(&self, other: &Self) -> Result<T> {
        Ok(self.inverse().compose(other).angle())
    }
}
