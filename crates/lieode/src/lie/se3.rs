//! # SE(3): rigid motions
//!
//! Elements are pairs `g = (R, t)` of a rotation `R ∈ SO(3)` and a translation `t ∈ ℝ³`, acting
//! on points by `p ↦ R p + t`; as matrices `g = [[R, t], [0, 1]]`, so
//! `(R₁, t₁)(R₂, t₂) = (R₁R₂, R₁t₂ + t₁)` and `(R, t)⁻¹ = (Rᵀ, −Rᵀt)`.
//!
//! The algebra se(3) has coordinates `ξ = (ρ, φ) ∈ ℝ⁶`, **translation first** (as Barfoot,
//! manif and Sophus), with hat `ξ̂ = [[φ̂, ρ], [0, 0]]`. Its bracket is the matrix commutator,
//! `[(ρ₁, φ₁), (ρ₂, φ₂)] = (φ₁×ρ₂ − φ₂×ρ₁, φ₁×φ₂)`, i.e. `ad_ξ = [[φ̂, ρ̂], [0, φ̂]]`.
//!
//! Closed forms (with `θ = |φ|`, the remainders `S_j(θ)` of [`crate::lie::series`] and the SO(3)
//! left Jacobian `J(φ) = I + S₂ φ̂ + S₃ φ̂²`, which is [`So3::dexp`]):
//! - `exp(ρ, φ) = (exp φ, J(φ) ρ)`,
//! - `log(R, t) = (J(φ)⁻¹ t, φ)` with `φ = log R`, valid up to and at `|φ| = π`,
//! - `Ad_{(R,t)}(ρ, φ) = (Rρ + t×(Rφ), Rφ)`,
//! - `dexp_ξ = [[J, Q], [0, J]]` (the left Jacobian of SE(3)) with Barfoot's block
//!   `Q(ρ, φ) = ½ρ̂ + S₃ (φ̂ρ̂ + ρ̂φ̂ + φ̂ρ̂φ̂) + S₄ (φ̂²ρ̂ + ρ̂φ̂² − 3φ̂ρ̂φ̂)`
//!   `+ ½(S₄ − 3S₅) (φ̂ρ̂φ̂² + φ̂²ρ̂φ̂)`,
//!   where `S₃ = (θ − sin θ)/θ³`, `S₄ = (cos θ − 1 + θ²/2)/θ⁴` and
//!   `½(S₄ − 3S₅) = (2θ − 3 sin θ + θ cos θ)/(2θ⁵)`; every coefficient is a Taylor series at small
//!   angles, so there is no cancellation and dual numbers see no `√0`,
//! - `dexp⁻¹_ξ = [[J⁻¹, −J⁻¹QJ⁻¹], [0, J⁻¹]]`, singular at `|φ| = 2π` as on SO(3).
//!
//! # References
//! - T. D. Barfoot, *State Estimation for Robotics*, 2nd ed., Cambridge University Press (2024),
//!   §7.1.5–7.1.6 (SE(3) exponential, logarithm, adjoint, left Jacobian and its block
//!   `Q(ρ, φ)`).
//! - J. Solà, J. Deray, D. Atchuthan, *A micro Lie theory for state estimation in robotics*,
//!   arXiv:1812.01537, App. D (SE(3): Exp, Log, adjoint, Jacobians).
//! - A. Iserles, H. Munthe-Kaas, S. Nørsett, A. Zanna, *Lie-group methods*, Acta Numerica 9
//!   (2000), §2 (`dexp` and `dexp⁻¹` as series in `ad`).

use nalgebra::{Const, Matrix3, Matrix4, Matrix6, SVector, Vector3};

use super::series::{cos_sinc_versinc, dexp_inv_coefficient, higher_remainders};
use super::so3::{self, ORTHOGONALITY_TOLERANCE, So3, So3Algebra};
use super::{LieAlgebra, LieGroup, Real, Side, real, to_f64};
use crate::error::{Error, Result};

/// An element `ξ = (ρ, φ)` of se(3): translational part `ρ` and rotational part `φ` (an so(3)
/// axial vector), with coordinates ordered `(ρ, φ)` and hat `ξ̂ = [[φ̂, ρ], [0, 0]]`.
///
/// # Examples
/// ```
/// use lieode::lie::{LieAlgebra, se3::Se3Algebra};
/// use nalgebra::Vector3;
/// let x = Se3Algebra::new(Vector3::new(1.0, 0.0, 0.0), Vector3::zeros());
/// let y = Se3Algebra::new(Vector3::zeros(), Vector3::new(0.0, 0.0, 1.0));
/// // [(ρ₁, φ₁), (ρ₂, φ₂)] = (φ₁×ρ₂ − φ₂×ρ₁, φ₁×φ₂)
/// let b = x.bracket(&y);
/// assert_eq!(b.rho, Vector3::new(0.0, -1.0, 0.0));
/// assert_eq!(b.phi, Vector3::zeros());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Se3Algebra<T = f64> {
    /// The translational part `ρ` (coordinates 0–2).
    pub rho: Vector3<T>,
    /// The rotational part `φ`, an so(3) axial vector (coordinates 3–5).
    pub phi: Vector3<T>,
}

impl<T: Real> Se3Algebra<T> {
    /// The element with translational part `rho` and rotational part `phi`.
    pub fn new(rho: Vector3<T>, phi: Vector3<T>) -> Self {
        Self { rho, phi }
    }

    /// The rotational part as an element of so(3).
    pub fn rotation_part(&self) -> So3Algebra<T> {
        So3Algebra(self.phi)
    }

    /// The 4×4 matrix `ξ̂ = [[φ̂, ρ], [0, 0]]`.
    pub fn to_matrix(&self) -> Matrix4<T> {
        let mut m = Matrix4::zeros();
        m.fixed_view_mut::<3, 3>(0, 0)
            .copy_from(&so3::hat(&self.phi));
        m.fixed_view_mut::<3, 1>(0, 3).copy_from(&self.rho);
        m
    }

    /// The 6×6 matrix of `ad_ξ` in the coordinates `(ρ, φ)`: `ad_ξ = [[φ̂, ρ̂], [0, φ̂]]`
    /// (Barfoot's `ξ^⋏`, §7.1.5), so that `ad_ξ · η = [ξ, η]`.
    pub fn ad_matrix(&self) -> Matrix6<T> {
        let p = so3::hat(&self.phi);
        let mut m = Matrix6::zeros();
        m.fixed_view_mut::<3, 3>(0, 0).copy_from(&p);
        m.fixed_view_mut::<3, 3>(0, 3)
            .copy_from(&so3::hat(&self.rho));
        m.fixed_view_mut::<3, 3>(3, 3).copy_from(&p);
        m
    }
}

impl<T: Real> LieAlgebra for Se3Algebra<T> {
    type Scalar = T;
    type Dim = Const<6>;
    type WithScalar<S: Real> = Se3Algebra<S>;

    fn cast<S: Real>(&self) -> Se3Algebra<S> {
        Se3Algebra::new(
            self.rho.map(super::cast_scalar),
            self.phi.map(super::cast_scalar),
        )
    }

    fn zero() -> Self {
        Self::new(Vector3::zeros(), Vector3::zeros())
    }
    fn add(&self, other: &Self) -> Self {
        Self::new(self.rho + other.rho, self.phi + other.phi)
    }
    fn scale(&self, s: T) -> Self {
        Self::new(self.rho * s, self.phi * s)
    }
    /// `[(ρ₁, φ₁), (ρ₂, φ₂)] = (φ₁×ρ₂ − φ₂×ρ₁, φ₁×φ₂)`, the commutator of the 4×4 hats.
    fn bracket(&self, other: &Self) -> Self {
        Self::new(
            self.phi.cross(&other.rho) - other.phi.cross(&self.rho),
            self.phi.cross(&other.phi),
        )
    }
    /// `√(|ρ|² + |φ|²)`.
    fn norm(&self) -> T {
        (self.rho.norm_squared() + self.phi.norm_squared()).sqrt()
    }
    fn is_finite(&self) -> bool {
        self.rho
            .iter()
            .chain(self.phi.iter())
            .all(|x| x.is_finite())
    }
    /// `(ρ₁, ρ₂, ρ₃, φ₁, φ₂, φ₃)`.
    fn to_coords(&self) -> SVector<T, 6> {
        SVector::<T, 6>::new(
            self.rho.x, self.rho.y, self.rho.z, self.phi.x, self.phi.y, self.phi.z,
        )
    }
    fn from_coords(coords: &SVector<T, 6>) -> Self {
        Self::new(
            Vector3::new(coords[0], coords[1], coords[2]),
            Vector3::new(coords[3], coords[4], coords[5]),
        )
    }
}

/// A rigid motion `g = (R, t) ∈ SE(3)`, acting on points by `p ↦ R p + t`; as a matrix
/// `[[R, t], [0, 1]]`.
///
/// # Examples
/// ```
/// use lieode::lie::{LieAlgebra, LieGroup, se3::{Se3, Se3Algebra}};
/// use nalgebra::Vector3;
/// use std::f64::consts::FRAC_PI_2;
/// // A quarter turn about z with unit speed along z: one quarter of a screw motion.
/// let xi = Se3Algebra::new(Vector3::new(0.0, 0.0, 1.0), Vector3::new(0.0, 0.0, FRAC_PI_2));
/// let g = Se3::exp(&xi);
/// let p = g.transform_point(&Vector3::new(1.0, 0.0, 0.0));
/// assert!((p - Vector3::new(0.0, 1.0, 1.0)).norm() < 1e-15);
/// // The logarithm recovers the algebra element, and g·g⁻¹ = e.
/// assert!((g.log().unwrap().to_coords() - xi.to_coords()).norm() < 1e-15);
/// let e = g.compose(&g.inverse());
/// assert!((e.to_matrix() - nalgebra::Matrix4::identity()).norm() < 1e-15);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Se3<T = f64> {
    rotation: So3<T>,
    translation: Vector3<T>,
}

impl<T: Real> Se3<T> {
    /// The rigid motion `p ↦ R p + t` with `R = rotation` and `t = translation`.
    ///
    /// The rotation has been validated by [`So3`]'s constructors; here both parts are checked
    /// to be finite.
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `rotation` or `translation`.
    pub fn new(rotation: So3<T>, translation: Vector3<T>) -> Result<Self> {
        if !rotation.is_finite() {
            return Err(Error::NonFinite { name: "rotation" });
        }
        if !translation.iter().all(|x| x.is_finite()) {
            return Err(Error::NonFinite {
                name: "translation",
            });
        }
        Ok(Self {
            rotation,
            translation,
        })
    }

    /// Reads a homogeneous 4×4 matrix `m = [[R, t], [0, 1]]`.
    ///
    /// Checks that `m` is finite, that its bottom row is `[0 0 0 1]` to within
    /// [`ORTHOGONALITY_TOLERANCE`] (largest absolute deviation), and that its rotation block is
    /// in SO(3) as [`So3::from_matrix`] checks it (`‖RᵀR − I‖_F ≤ 1e-10`, `det R > 0`). The
    /// bottom row is not stored: [`Se3::to_matrix`] returns it as exactly `[0 0 0 1]`.
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `m`; [`Error::NotOnGroup`] for SE(3) naming `m`, whose
    /// `constraint` says whether the bottom row, the orthogonality or the determinant of the
    /// rotation block failed.
    pub fn from_matrix(m: Matrix4<T>) -> Result<Self> {
        if !m.iter().all(|x| x.is_finite()) {
            return Err(Error::NonFinite { name: "m" });
        }
        let bottom = [T::zero(), T::zero(), T::zero(), T::one()];
        let deviation = (0..4).fold(0.0_f64, |acc, j| {
            acc.max(to_f64((m[(3, j)] - bottom[j]).abs()))
        });
        if deviation > ORTHOGONALITY_TOLERANCE {
            return Err(Error::NotOnGroup {
                group: "SE(3)",
                name: "m",
                constraint: "bottom row = [0 0 0 1]",
                deviation,
                tolerance: ORTHOGONALITY_TOLERANCE,
            });
        }
        let block: Matrix3<T> = m.fixed_view::<3, 3>(0, 0).into_owned();
        let rotation = So3::from_matrix(block).map_err(|e| match e {
            Error::NotOnGroup {
                constraint,
                deviation,
                tolerance,
                ..
            } => Error::NotOnGroup {
                group: "SE(3)",
                name: "m",
                constraint: if constraint.starts_with("det") {
                    "det R = +1 for the rotation block R = m[0..3, 0..3]"
                } else {
                    "RᵀR = I for the rotation block R = m[0..3, 0..3]"
                },
                deviation,
                tolerance,
            },
            other => other,
        })?;
        Ok(Self {
            rotation,
            translation: m.fixed_view::<3, 1>(0, 3).into_owned(),
        })
    }

    /// The homogeneous matrix `[[R, t], [0, 1]]`.
    pub fn to_matrix(&self) -> Matrix4<T> {
        let mut m = Matrix4::identity();
        m.fixed_view_mut::<3, 3>(0, 0)
            .copy_from(self.rotation.matrix());
        m.fixed_view_mut::<3, 1>(0, 3).copy_from(&self.translation);
        m
    }

    /// The rotation `R`.
    pub fn rotation(&self) -> &So3<T> {
        &self.rotation
    }

    /// The translation `t`.
    pub fn translation(&self) -> &Vector3<T> {
        &self.translation
    }

    /// The image `R p + t` of the point `p`.
    pub fn transform_point(&self, p: &Vector3<T>) -> Vector3<T> {
        self.rotation.rotate(p) + self.translation
    }

    /// The 6×6 matrix of `Ad_g` in the coordinates `(ρ, φ)`: `[[R, t̂R], [0, R]]`
    /// (Barfoot §7.1.6), so that `Ad_g · ξ = g ξ̂ g⁻¹`.
    pub fn adjoint_matrix(&self) -> Matrix6<T> {
        let r = self.rotation.matrix();
        let mut m = Matrix6::zeros();
        m.fixed_view_mut::<3, 3>(0, 0).copy_from(r);
        m.fixed_view_mut::<3, 3>(0, 3)
            .copy_from(&(so3::hat(&self.translation) * r));
        m.fixed_view_mut::<3, 3>(3, 3).copy_from(r);
        m
    }
}

/// The three angle-dependent coefficients of Barfoot's `Q(ρ, φ)` at `x = θ² = |φ|²`:
/// `S₃`, `S₄` and `½(S₄ − 3S₅) = (2θ − 3 sin θ + θ cos θ)/(2θ⁵)`.
#[inline]
fn q_coefficients<T: Real>(x: T) -> (T, T, T) {
    let (s3, s4, s5) = higher_remainders(x);
    (s3, s4, (s4 - s5 * real::<T>(3.0)) * real::<T>(0.5))
}

/// `Q(ρ, φ) v` without forming the matrix, with `a = φ×v`, `b = φ×a = φ̂²v`:
/// `½ ρ×v + S₃(φ×(ρ×v) + ρ×a + φ×(ρ×a)) + S₄(φ×(φ×(ρ×v)) + ρ×b − 3φ×(ρ×a))`
/// `+ c₅(φ×(ρ×b) + φ×(φ×(ρ×a)))`.
#[inline]
fn q_apply<T: Real>(rho: &Vector3<T>, phi: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
    let (s3, s4, c5) = q_coefficients(phi.norm_squared());
    let a = phi.cross(v);
    let b = phi.cross(&a);
    let rv = rho.cross(v);
    let ra = rho.cross(&a);
    let rb = rho.cross(&b);
    let p_rv = phi.cross(&rv);
    let p_ra = phi.cross(&ra);
    let term3 = p_rv + ra + p_ra;
    let term4 = phi.cross(&p_rv) + rb - p_ra * real::<T>(3.0);
    let term5 = phi.cross(&rb) + phi.cross(&p_ra);
    rv * real::<T>(0.5) + term3 * s3 + term4 * s4 + term5 * c5
}

/// Barfoot's block `Q(ρ, φ)` of the SE(3) left Jacobian, `θ = |φ|`:
///
/// `Q = ½ρ̂ + S₃ (φ̂ρ̂ + ρ̂φ̂ + φ̂ρ̂φ̂) + S₄ (φ̂²ρ̂ + ρ̂φ̂² − 3φ̂ρ̂φ̂) + ½(S₄ − 3S₅)(φ̂ρ̂φ̂² + φ̂²ρ̂φ̂)`
///
/// with `S₃ = (θ − sin θ)/θ³`, `S₄ = (cos θ − 1 + θ²/2)/θ⁴`,
/// `½(S₄ − 3S₅) = (2θ − 3 sin θ + θ cos θ)/(2θ⁵)` (each a Taylor series at small angles, see
/// [`higher_remainders`]). It equals `Σ_{n≥0} Σ_{m=0}^{n} φ̂^m ρ̂ φ̂^{n−m} / (n+2)!`, the
/// upper-right block of `Σ ad_ξ^k/(k+1)!`.
///
/// # Examples
/// ```
/// use lieode::lie::se3::{q_block, Se3Algebra};
/// use lieode::lie::so3::hat;
/// use nalgebra::Vector3;
/// // At φ = 0, Q = ½ ρ̂.
/// let rho = Vector3::new(1.0, -2.0, 0.5);
/// let q = q_block(&Se3Algebra::new(rho, Vector3::zeros()));
/// assert!((q - hat(&rho) * 0.5).norm() < 1e-16);
/// ```
///
/// # References
/// Barfoot, *State Estimation for Robotics*, 2nd ed., §7.1.5; Solà et al., arXiv:1812.01537,
/// App. D.
pub fn q_block<T: Real>(xi: &Se3Algebra<T>) -> Matrix3<T> {
    let (s3, s4, c5) = q_coefficients(xi.phi.norm_squared());
    let p = so3::hat(&xi.phi);
    let r = so3::hat(&xi.rho);
    let pr = p * r;
    let rp = r * p;
    let prp = pr * p;
    let pp = p * p;
    r * real::<T>(0.5)
        + (pr + rp + prp) * s3
        + (pp * r + rp * p - prp * real::<T>(3.0)) * s4
        + (prp * p + p * prp) * c5
}

/// The SO(3) left Jacobian `J(φ) = I + S₂ φ̂ + S₃ φ̂²` as a matrix.
fn so3_left_jacobian<T: Real>(phi: &Vector3<T>) -> Matrix3<T> {
    let x = phi.norm_squared();
    let (_, _, s2) = cos_sinc_versinc(x);
    let (s3, _, _) = higher_remainders(x);
    let p = so3::hat(phi);
    Matrix3::identity() + p * s2 + p * p * s3
}

/// The inverse SO(3) left Jacobian `J(φ)⁻¹ = I − ½ φ̂ + C(θ) φ̂²` as a matrix.
fn so3_left_jacobian_inverse<T: Real>(phi: &Vector3<T>) -> Matrix3<T> {
    let c = dexp_inv_coefficient(phi.norm_squared());
    let p = so3::hat(phi);
    Matrix3::identity() - p * real::<T>(0.5) + p * p * c
}

/// The left Jacobian of SE(3), the matrix of [`Se3::dexp`] in the coordinates `(ρ, φ)`:
///
/// `𝒥(ξ) = Σ_{k≥0} ad_ξ^k/(k+1)! = [[J(φ), Q(ρ, φ)], [0, J(φ)]]`,
///
/// with `J(φ) = I + S₂ φ̂ + S₃ φ̂²` the SO(3) left Jacobian and `Q` as in [`q_block`]. It satisfies
/// `d/ds exp(ξ + s v)|₀ · exp(ξ)⁻¹ = (𝒥(ξ) v)^`.
///
/// # Examples
/// ```
/// use lieode::lie::{LieAlgebra, LieGroup, se3::{left_jacobian, Se3, Se3Algebra}};
/// use nalgebra::Vector3;
/// let xi = Se3Algebra::new(Vector3::new(0.3, -1.0, 2.0), Vector3::new(0.4, 0.1, -0.7));
/// let v = Se3Algebra::new(Vector3::new(1.0, 0.0, 0.0), Vector3::new(0.0, 1.0, 0.0));
/// let by_matrix = left_jacobian(&xi) * v.to_coords();
/// assert!((by_matrix - Se3::dexp(&xi, &v).to_coords()).norm() < 1e-15);
/// ```
///
/// # References
/// Barfoot, *State Estimation for Robotics*, 2nd ed., §7.1.5; Solà et al., arXiv:1812.01537,
/// App. D.
pub fn left_jacobian<T: Real>(xi: &Se3Algebra<T>) -> Matrix6<T> {
    let j = so3_left_jacobian(&xi.phi);
    let mut m = Matrix6::zeros();
    m.fixed_view_mut::<3, 3>(0, 0).copy_from(&j);
    m.fixed_view_mut::<3, 3>(0, 3).copy_from(&q_block(xi));
    m.fixed_view_mut::<3, 3>(3, 3).copy_from(&j);
    m
}

/// The inverse of [`left_jacobian`], the matrix of [`Se3::dexp_inv`]:
///
/// `𝒥(ξ)⁻¹ = [[J⁻¹, −J⁻¹ Q J⁻¹], [0, J⁻¹]]`, `J(φ)⁻¹ = I − ½ φ̂ + C(θ) φ̂²`,
/// `C(θ) = (1 − (θ/2) cot(θ/2))/θ²` ([`dexp_inv_coefficient`]).
///
/// Singular at `|φ| = 2π` (the entries are then not finite).
///
/// # Examples
/// ```
/// use lieode::lie::se3::{left_jacobian, left_jacobian_inverse, Se3Algebra};
/// use nalgebra::{Matrix6, Vector3};
/// let xi = Se3Algebra::new(Vector3::new(0.3, -1.0, 2.0), Vector3::new(0.4, 0.1, -0.7));
/// let id = left_jacobian(&xi) * left_jacobian_inverse(&xi);
/// assert!((id - Matrix6::identity()).norm() < 1e-14);
/// ```
///
/// # References
/// Barfoot, *State Estimation for Robotics*, 2nd ed., §7.1.5.
pub fn left_jacobian_inverse<T: Real>(xi: &Se3Algebra<T>) -> Matrix6<T> {
    let ji = so3_left_jacobian_inverse(&xi.phi);
    let mut m = Matrix6::zeros();
    m.fixed_view_mut::<3, 3>(0, 0).copy_from(&ji);
    m.fixed_view_mut::<3, 3>(0, 3)
        .copy_from(&(-(ji * q_block(xi) * ji)));
    m.fixed_view_mut::<3, 3>(3, 3).copy_from(&ji);
    m
}

impl<T: Real> LieGroup for Se3<T> {
    type Scalar = T;
    type Algebra = Se3Algebra<T>;
    const NAME: &'static str = "SE(3)";
    type WithScalar<S: Real> = Se3<S>;

    fn cast<S: Real>(&self) -> Se3<S> {
        Se3 {
            rotation: self.rotation.cast(),
            translation: self.translation.map(super::cast_scalar),
        }
    }

    fn identity() -> Self {
        Self {
            rotation: So3::identity(),
            translation: Vector3::zeros(),
        }
    }
    /// `(R₁, t₁)(R₂, t₂) = (R₁R₂, R₁t₂ + t₁)`.
    fn compose(&self, other: &Self) -> Self {
        Self {
            rotation: self.rotation.compose(&other.rotation),
            translation: self.rotation.rotate(&other.translation) + self.translation,
        }
    }
    /// `(R, t)⁻¹ = (Rᵀ, −Rᵀt)`.
    fn inverse(&self) -> Self {
        let rotation = self.rotation.inverse();
        Self {
            translation: -rotation.rotate(&self.translation),
            rotation,
        }
    }
    /// `exp(ρ, φ) = (exp φ, J(φ) ρ)` with `J(φ) = I + S₂ φ̂ + S₃ φ̂²` (Barfoot §7.1.5).
    fn exp(xi: &Se3Algebra<T>) -> Self {
        let phi = xi.rotation_part();
        Self {
            rotation: So3::exp(&phi),
            translation: So3::dexp(&phi, &So3Algebra(xi.rho)).0,
        }
    }
    /// `log(R, t) = (J(φ)⁻¹ t, φ)` with `φ = log R` ([`So3::log`], `|φ| ≤ π`) and
    /// `J(φ)⁻¹ = I − ½ φ̂ + C(θ) φ̂²`. Never fails; at `|φ| = π` one of the two equivalent
    /// rotation axes is chosen and `ρ` is consistent with it, so `exp(log g) = g`.
    fn log(&self) -> Result<Se3Algebra<T>> {
        let phi = self.rotation.log()?;
        let rho = So3::dexp_inv(&phi, &So3Algebra(self.translation)).0;
        Ok(Se3Algebra::new(rho, phi.0))
    }
    /// `Ad_{(R,t)}(ρ, φ) = (Rρ + t×(Rφ), Rφ)` (Barfoot §7.1.6).
    fn adjoint(&self, xi: &Se3Algebra<T>) -> Se3Algebra<T> {
        let r_phi = self.rotation.rotate(&xi.phi);
        Se3Algebra::new(
            self.rotation.rotate(&xi.rho) + self.translation.cross(&r_phi),
            r_phi,
        )
    }
    /// `dexp_ξ(v) = (J(φ) v_ρ + Q(ρ, φ) v_φ, J(φ) v_φ)`, the left Jacobian [`left_jacobian`]
    /// applied to `v = (v_ρ, v_φ)`.
    fn dexp(xi: &Se3Algebra<T>, v: &Se3Algebra<T>) -> Se3Algebra<T> {
        let phi = xi.rotation_part();
        let j_rho = So3::dexp(&phi, &So3Algebra(v.rho)).0;
        let j_phi = So3::dexp(&phi, &So3Algebra(v.phi)).0;
        Se3Algebra::new(j_rho + q_apply(&xi.rho, &xi.phi, &v.phi), j_phi)
    }
    /// `dexp⁻¹_ξ(v) = (J⁻¹(v_ρ − Q w_φ), w_φ)` with `w_φ = J⁻¹ v_φ`, i.e.
    /// `[[J⁻¹, −J⁻¹QJ⁻¹], [0, J⁻¹]]` ([`left_jacobian_inverse`]) applied to `v`.
    /// Singular at `|φ| = 2π`.
    fn dexp_inv(xi: &Se3Algebra<T>, v: &Se3Algebra<T>) -> Se3Algebra<T> {
        let phi = xi.rotation_part();
        let w_phi = So3::dexp_inv(&phi, &So3Algebra(v.phi)).0;
        let rhs = v.rho - q_apply(&xi.rho, &xi.phi, &w_phi);
        let w_rho = So3::dexp_inv(&phi, &So3Algebra(rhs)).0;
        Se3Algebra::new(w_rho, w_phi)
    }
    fn is_finite(&self) -> bool {
        self.rotation.is_finite() && self.translation.iter().all(|x| x.is_finite())
    }
    /// Zero: errors of this group's coordinates are tested absolutely.
    fn coordinate_magnitude_at(&self, _side: Side, _theta: &Self::Algebra, _i: usize) -> T {
        T::zero()
    }
}
