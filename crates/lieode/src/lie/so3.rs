//! # SO(3): rotation matrices
//!
//! Elements are 3×3 orthogonal matrices with determinant +1; the algebra so(3) is identified
//! with ℝ³ through the hat map `θ̂ v = θ × v`, so `[x, y] = x × y`.
//!
//! Closed forms (with `θ = |θ|` and the remainders `S_j` of [`crate::lie::series`]):
//! - `exp θ = I + S₁ θ̂ + S₂ θ̂²` (Rodrigues),
//! - `dexp_θ v = v + S₂ θ×v + S₃ θ×(θ×v)`,
//! - `dexp⁻¹_θ v = v − ½ θ×v + C(θ) θ×(θ×v)`, `C(θ) = (1 − (θ/2)cot(θ/2))/θ²`
//!   (Krysl 2007, Eq. (9); the form the SPIRAL/`sdof` ports get wrong),
//! - `Ad_R θ = R θ`,
//! - `log R`: `θ = atan2(|w|, (tr R − 1)/2)` with `w = vee(R − Rᵀ)/2 = sin θ · n`; near the identity
//!   `θ n = w · asin|w|/|w|` by its series, near `θ = π` the axis comes from the symmetric part
//!   `(R + Rᵀ)/2 − cos θ I = (1 − cos θ) n nᵀ`. The result has `|θ| ≤ π`.
//!
//! # References
//! - P. Krysl, *Dynamically equivalent implicit algorithms for the integration of rigid body
//!   rotations*, Commun. Numer. Meth. Engng (2007), Eqs. (5)–(10).
//! - E. Hairer, C. Lubich, G. Wanner, *Geometric Numerical Integration*, §IV.8.

use nalgebra::{Const, Matrix3, SVector, Vector3};

use super::series::{
    NORM_WITHOUT_SCALING, asin_over_x, cos_sinc_versinc, dexp_inv_coefficient, higher_remainders,
    reduce_rotation_vector,
};
use super::{LieAlgebra, LieGroup, Real, Side, real, to_f64};
use crate::error::{Error, Result};

/// Default tolerance of the membership checks of [`So3::from_matrix`] (Frobenius norm of
/// `RᵀR − I`).
pub const ORTHOGONALITY_TOLERANCE: f64 = 1e-10;

/// Above this value of `cos θ` (angle below ≈ 154°) [`So3::log`] takes the axis from the skew
/// part of `R`; below it, from the symmetric part, which stays accurate up to and at `θ = π`.
pub const LOG_SYMMETRIC_BRANCH_COS: f64 = -0.9;

/// The hat map `v ↦ v̂`, the skew-symmetric matrix with `v̂ x = v × x`.
///
/// # Examples
/// ```
/// use nalgebra::Vector3;
/// let m = lieode::lie::so3::hat(&Vector3::new(1.0, 2.0, 3.0));
/// assert_eq!(m * Vector3::new(0.0, 0.0, 1.0), Vector3::new(2.0, -1.0, 0.0));
/// ```
#[inline]
pub fn hat<T: Real>(v: &Vector3<T>) -> Matrix3<T> {
    let z = T::zero();
    Matrix3::new(z, -v.z, v.y, v.z, z, -v.x, -v.y, v.x, z)
}

/// The inverse of [`hat`] applied to the skew part: `vee(M) = ((M₃₂ − M₂₃)/2, (M₁₃ − M₃₁)/2,
/// (M₂₁ − M₁₂)/2)`.
#[inline]
pub fn vee<T: Real>(m: &Matrix3<T>) -> Vector3<T> {
    let half = real::<T>(0.5);
    Vector3::new(
        (m[(2, 1)] - m[(1, 2)]) * half,
        (m[(0, 2)] - m[(2, 0)]) * half,
        (m[(1, 0)] - m[(0, 1)]) * half,
    )
}

/// `a × b` written out by components (nalgebra's generic cross product is several times slower
/// in the hot loops of the integrators).
#[inline(always)]
pub(crate) fn cross<T: Real>(a: &Vector3<T>, b: &Vector3<T>) -> Vector3<T> {
    Vector3::new(
        a.y * b.z - a.z * b.y,
        a.z * b.x - a.x * b.z,
        a.x * b.y - a.y * b.x,
    )
}

/// `v + α (θ×v) + β θ×(θ×v)`, by components.
#[inline(always)]
fn rodrigues_combination<T: Real>(
    theta: &Vector3<T>,
    v: &Vector3<T>,
    alpha: T,
    beta: T,
) -> Vector3<T> {
    let tv = cross(theta, v);
    let ttv = cross(theta, &tv);
    Vector3::new(
        v.x + alpha * tv.x + beta * ttv.x,
        v.y + alpha * tv.y + beta * ttv.y,
        v.z + alpha * tv.z + beta * ttv.z,
    )
}

/// `dexp_θ v = v + S₂ θ×v + S₃ θ×(θ×v)` on axial vectors (the left Jacobian of SO(3)).
#[inline]
pub fn dexp_vector<T: Real>(theta: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
    let x = theta.norm_squared();
    let (_, _, s2) = cos_sinc_versinc(x);
    let (s3, _, _) = higher_remainders(x);
    rodrigues_combination(theta, v, s2, s3)
}

/// `dexp⁻¹_θ v = v − ½ θ×v + C(θ) θ×(θ×v)` on axial vectors (Krysl 2007, Eq. (9)).
#[inline]
pub fn dexp_inv_vector<T: Real>(theta: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
    let c = dexp_inv_coefficient(theta.norm_squared());
    rodrigues_combination(theta, v, real(-0.5), c)
}

/// An element of so(3), stored as its axial vector `θ` (rotation angle `|θ|` about `θ/|θ|`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct So3Algebra<T = f64>(pub Vector3<T>);

impl<T: Real> So3Algebra<T> {
    /// The element with axial vector `v`.
    pub fn new(v: Vector3<T>) -> Self {
        Self(v)
    }
    /// The axial vector.
    pub fn vector(&self) -> &Vector3<T> {
        &self.0
    }
    /// The skew-symmetric matrix `θ̂`.
    pub fn to_matrix(&self) -> Matrix3<T> {
        hat(&self.0)
    }
}

impl<T: Real> LieAlgebra for So3Algebra<T> {
    type Scalar = T;
    type Dim = Const<3>;
    type WithScalar<S: Real> = So3Algebra<S>;

    fn cast<S: Real>(&self) -> So3Algebra<S> {
        So3Algebra(self.0.map(super::cast_scalar))
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
    /// `[x, y] = x × y`.
    fn bracket(&self, other: &Self) -> Self {
        Self(self.0.cross(&other.0))
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

/// A rotation matrix `R ∈ SO(3)`.
///
/// # Examples
/// ```
/// use lieode::lie::{LieGroup, so3::{So3, So3Algebra}};
/// use nalgebra::Vector3;
/// let quarter = So3::exp(&So3Algebra::new(Vector3::new(0.0, 0.0, std::f64::consts::FRAC_PI_2)));
/// let v = quarter.rotate(&Vector3::new(1.0, 0.0, 0.0));
/// assert!((v - Vector3::new(0.0, 1.0, 0.0)).norm() < 1e-15);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct So3<T = f64> {
    matrix: Matrix3<T>,
}

impl<T: Real> So3<T> {
    /// Wraps `m` after checking that it is a rotation: finite, `‖mᵀm − I‖_F ≤ 1e-10`,
    /// `det m > 0`.
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::NotOnGroup`] naming the parameter `m`.
    pub fn from_matrix(m: Matrix3<T>) -> Result<Self> {
        Self::from_matrix_with_tolerance(m, ORTHOGONALITY_TOLERANCE)
    }

    /// As [`So3::from_matrix`] with a chosen tolerance on `‖mᵀm − I‖_F`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a negative or non-finite tolerance, otherwise as
    /// [`So3::from_matrix`].
    pub fn from_matrix_with_tolerance(m: Matrix3<T>, tolerance: f64) -> Result<Self> {
        super::check_tolerance("tolerance", tolerance)?;
        if !m.iter().all(|x| x.is_finite()) {
            return Err(Error::NonFinite { name: "m" });
        }
        let deviation = to_f64((m.transpose() * m - Matrix3::identity()).norm());
        if deviation > tolerance {
            return Err(Error::NotOnGroup {
                group: "SO(3)",
                name: "m",
                constraint: "mᵀm = I",
                deviation,
                tolerance,
            });
        }
        let det = to_f64(m.determinant());
        if det <= 0.0 {
            return Err(Error::NotOnGroup {
                group: "SO(3)",
                name: "m",
                constraint: "det m = +1",
                deviation: (det - 1.0).abs(),
                tolerance,
            });
        }
        Ok(Self { matrix: m })
    }

    /// Wraps `m` without any check. The caller guarantees `m ∈ SO(3)`.
    pub fn from_matrix_unchecked(m: Matrix3<T>) -> Self {
        Self { matrix: m }
    }

    /// The rotation by `angle` about the (not necessarily unit) `axis`.
    ///
    /// # Errors
    /// [`Error::NonFinite`] for non-finite input, [`Error::InvalidParameter`] for a zero axis.
    pub fn from_axis_angle(axis: &Vector3<T>, angle: T) -> Result<Self> {
        if !axis.iter().all(|x| x.is_finite()) {
            return Err(Error::NonFinite { name: "axis" });
        }
        if !angle.is_finite() {
            return Err(Error::NonFinite { name: "angle" });
        }
        let largest = axis.amax();
        if largest == T::zero() {
            return Err(Error::InvalidParameter {
                name: "axis",
                value: "0".into(),
                expected: "a non-zero vector".into(),
            });
        }
        let n = axis.norm();
        let rotation_vector = axis * (angle / n);
        if n.is_finite()
            && n >= real(NORM_WITHOUT_SCALING)
            && rotation_vector.iter().all(|x| x.is_finite())
        {
            return Ok(Self::exp(&So3Algebra(rotation_vector)));
        }
        // |axis|² over- or underflows (or angle/|axis| does): normalise the axis scaled by its
        // largest entry.
        let scaled = axis / largest;
        let unit = scaled / scaled.norm();
        Ok(Self::exp(&So3Algebra(unit * angle)))
    }

    /// The rotation matrix.
    pub fn matrix(&self) -> &Matrix3<T> {
        &self.matrix
    }

    /// `R v`.
    pub fn rotate(&self, v: &Vector3<T>) -> Vector3<T> {
        self.matrix * v
    }

    /// The angle of the rotation, in `[0, π]`.
    pub fn angle(&self) -> T {
        let w = vee(&self.matrix).norm();
        let cos = (self.matrix.trace() - T::one()) * real(0.5);
        w.atan2(cos)
    }
}

impl<T: Real> LieGroup for So3<T> {
    type Scalar = T;
    type Algebra = So3Algebra<T>;
    type WithScalar<S: Real> = So3<S>;
    const NAME: &'static str = "SO(3)";

    fn cast<S: Real>(&self) -> So3<S> {
        So3 {
            matrix: self.matrix.map(super::cast_scalar),
        }
    }

    fn identity() -> Self {
        Self {
            matrix: Matrix3::identity(),
        }
    }
    fn compose(&self, other: &Self) -> Self {
        Self {
            matrix: self.matrix * other.matrix,
        }
    }
    fn inverse(&self) -> Self {
        Self {
            matrix: self.matrix.transpose(),
        }
    }
    /// Rodrigues: `exp θ = I + S₁ θ̂ + S₂ θ̂²` (for `|θ|²` beyond the floating-point range, of
    /// `θ` reduced modulo 2π).
    fn exp(xi: &So3Algebra<T>) -> Self {
        let mut theta = xi.0;
        let mut theta2 = theta.norm_squared();
        if !theta2.is_finite() && theta.iter().all(|x| x.is_finite()) {
            theta = reduce_rotation_vector(&theta);
            theta2 = theta.norm_squared();
        }
        let (_, s1, s2) = cos_sinc_versinc(theta2);
        let k = hat(&theta);
        Self {
            matrix: Matrix3::identity() + k * s1 + k * k * s2,
        }
    }
    /// Never fails on SO(3); at `θ = π` one of the two equivalent axes is returned.
    fn log(&self) -> Result<So3Algebra<T>> {
        let r = &self.matrix;
        let w = vee(r);
        let sin2 = w.norm_squared();
        let cos = (r.trace() - T::one()) * real(0.5);
        if cos > T::zero() && sin2 < real(super::series::ASIN_SERIES_SQ) {
            return Ok(So3Algebra(w * asin_over_x(sin2)));
        }
        let sin = sin2.sqrt();
        let theta = sin.atan2(cos);
        if cos > real(LOG_SYMMETRIC_BRANCH_COS) {
            return Ok(So3Algebra(w * (theta / sin)));
        }
        // Near π: (R + Rᵀ)/2 − cos θ I = (1 − cos θ) n nᵀ; take its largest column.
        let sym = (r + r.transpose()) * real::<T>(0.5) - Matrix3::identity() * cos;
        let mut k = 0;
        for i in 1..3 {
            if sym[(i, i)] > sym[(k, k)] {
                k = i;
            }
        }
        let mut n: Vector3<T> =
            sym.column(k).into_owned() / (sym[(k, k)] * (T::one() - cos)).sqrt();
        if n.dot(&w) < T::zero() {
            n = -n;
        }
        Ok(So3Algebra(n * theta))
    }
    /// `Ad_R θ = R θ`.
    fn adjoint(&self, xi: &So3Algebra<T>) -> So3Algebra<T> {
        So3Algebra(self.matrix * xi.0)
    }
    /// `dexp_θ v = v + S₂ θ×v + S₃ θ×(θ×v)`.
    fn dexp(xi: &So3Algebra<T>, v: &So3Algebra<T>) -> So3Algebra<T> {
        So3Algebra(dexp_vector(&xi.0, &v.0))
    }
    /// `dexp⁻¹_θ v = v − ½ θ×v + C(θ) θ×(θ×v)`.
    fn dexp_inv(xi: &So3Algebra<T>, v: &So3Algebra<T>) -> So3Algebra<T> {
        So3Algebra(dexp_inv_vector(&xi.0, &v.0))
    }
    fn is_finite(&self) -> bool {
        self.matrix.iter().all(|x| x.is_finite())
    }
    /// Zero: rotation errors are tested absolutely (in radians).
    fn coordinate_magnitude_at(&self, _side: Side, _theta: &Self::Algebra, _i: usize) -> T {
        T::zero()
    }
    /// The rotation angle of `self⁻¹ · other`, in `[0, π]`.
    fn distance(&self, other: &Self) -> Result<T> {
        Ok(self.inverse().compose(other).angle())
    }
}
