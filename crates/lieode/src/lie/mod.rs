//! # Lie groups and Lie algebras
//!
//! The abstract layer every integrator stands on. A [`LieGroup`] knows its identity, product,
//! inverse, exponential and logarithm, its adjoint representation and the derivative of the
//! exponential (`dexp`) with its inverse (`dexp_inv`); its [`LieAlgebra`] is a vector space with
//! a bracket and coordinates in a static `nalgebra` vector.
//!
//! Conventions (fixed once in `docs/notation.md`):
//! - **dexp is left-trivialised**: `d/ds exp(θ + s v)|_{s=0} = dexp_θ(v) · exp(θ)`, so
//!   `dexp_θ = Σ_{k≥0} ad_θ^k / (k+1)!` and `dexp⁻¹_θ = Σ_{k≥0} B_k/k! ad_θ^k`
//!   `= id − ½ ad_θ + 1/12 ad_θ² − …` (Bernoulli numbers with `B₁ = −½`).
//! - The right-trivialised derivative is `exp(θ)⁻¹ · d/ds exp(θ + s v) = dexp_{−θ}(v)`;
//!   [`Side`] selects between the two where an integrator needs it.
//!
//! Everything is generic over the scalar `T: nalgebra::RealField + Copy` ([`Real`]), so
//! forward-mode dual numbers from `num-dual` flow through every map.
//!
//! # References
//! - A. Iserles, H. Munthe-Kaas, S. Nørsett, A. Zanna, *Lie-group methods*, Acta Numerica 9
//!   (2000), §2 (dexp and its inverse, Bernoulli series).
//! - E. Hairer, C. Lubich, G. Wanner, *Geometric Numerical Integration*, 2nd ed., §III.4, §IV.8.

pub mod action;
pub mod coordinates;
mod lift;
pub mod matrix_functions;
pub mod matrix_group;
pub mod product;
pub mod rn;
pub mod se3;
pub mod series;
pub mod so3;
pub mod unit_quaternion;

use core::fmt::Debug;
use nalgebra::{DefaultAllocator, DimName, OVector, RealField, allocator::Allocator};

use crate::error::Result;
pub use lift::Lift;
pub use series::Truncation;

/// The scalar type of every map: a real field that is `Copy` (`f64`, `f32`, `num_dual::Dual64`, …).
pub trait Real: RealField + Copy {}
impl<T: RealField + Copy> Real for T {}

/// Converts a constant written as `f64` into the scalar type.
#[inline(always)]
pub(crate) fn real<T: Real>(x: f64) -> T {
    nalgebra::convert(x)
}

/// Converts a scalar to another scalar type through its real part (`f64`): used by the
/// `cast` methods, whose purpose is lifting `f64` data into dual numbers and back.
#[inline(always)]
pub(crate) fn cast_scalar<T: Real, S: Real>(x: T) -> S {
    real(to_f64(x))
}

/// The real part of a scalar as `f64` (for error messages and tolerances).
#[inline(always)]
pub(crate) fn to_f64<T: Real>(x: T) -> f64 {
    x.to_subset_unchecked()
}

/// Checks a user-supplied tolerance: [`crate::Error::NonFinite`] unless finite,
/// [`crate::Error::InvalidParameter`] unless `≥ 0`.
pub(crate) fn check_tolerance(name: &'static str, tolerance: f64) -> Result<()> {
    if !tolerance.is_finite() {
        Err(crate::Error::NonFinite { name })
    } else if tolerance >= 0.0 {
        Ok(())
    } else {
        Err(crate::Error::InvalidParameter {
            name,
            value: format!("{tolerance:e}"),
            expected: "a value ≥ 0".into(),
        })
    }
}

/// On which side the algebra element multiplies the state in `y' = …`.
///
/// - [`Side::Left`]: `y' = ξ · y` (spatial / lab-frame velocity; Boyle's rotor `Ṙ = ½ Ω R`).
///   Local coordinates `y = exp(θ) · y₀`, `θ' = dexp⁻¹_θ(ξ)`.
/// - [`Side::Right`]: `y' = y · ξ` (body-frame velocity; SPIRAL, Krysl).
///   Local coordinates `y = y₀ · exp(θ)`, `θ' = dexp⁻¹_{−θ}(ξ)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// `y' = ξ · y`, update `exp(θ) · y₀`.
    Left,
    /// `y' = y · ξ`, update `y₀ · exp(θ)`.
    Right,
}

/// A finite-dimensional real Lie algebra: a vector space with a bilinear, antisymmetric bracket
/// satisfying the Jacobi identity, and coordinates in a basis fixed by each implementation.
///
/// Required: the vector-space operations, the bracket, a norm and the coordinate maps;
/// subtraction, negation, `axpy` and the dimension are provided.
///
/// # Examples
/// ```
/// use lieode::lie::{LieAlgebra, so3::So3Algebra};
/// use nalgebra::Vector3;
/// let x = So3Algebra::new(Vector3::new(1.0, 0.0, 0.0));
/// let y = So3Algebra::new(Vector3::new(0.0, 1.0, 0.0));
/// // [e_x, e_y] = e_z in so(3)
/// assert_eq!(x.bracket(&y).to_coords(), Vector3::new(0.0, 0.0, 1.0));
/// ```
pub trait LieAlgebra: Copy + Debug + PartialEq {
    /// The scalar field.
    type Scalar: Real;
    /// The dimension, as an `nalgebra` type-level number.
    type Dim: DimName;
    /// The same algebra over another scalar type (e.g. dual numbers for Jacobians).
    type WithScalar<S: Real>: LieAlgebra<Scalar = S, Dim = Self::Dim>;

    /// The element with every coordinate converted to the scalar type `S` (through `f64`: a
    /// dual number keeps only its real part).
    fn cast<S: Real>(&self) -> Self::WithScalar<S>;

    /// The zero element.
    fn zero() -> Self;
    /// `self + other`.
    fn add(&self, other: &Self) -> Self;
    /// `s · self`.
    fn scale(&self, s: Self::Scalar) -> Self;
    /// The Lie bracket `[self, other] = ad_self(other)`.
    fn bracket(&self, other: &Self) -> Self;
    /// The Euclidean norm of the coordinate vector.
    fn norm(&self) -> Self::Scalar;
    /// Whether every coordinate is finite.
    fn is_finite(&self) -> bool;
    /// Coordinates in the implementation's basis.
    fn to_coords(&self) -> OVector<Self::Scalar, Self::Dim>
    where
        DefaultAllocator: Allocator<Self::Dim>;
    /// The element with the given coordinates.
    fn from_coords(coords: &OVector<Self::Scalar, Self::Dim>) -> Self
    where
        DefaultAllocator: Allocator<Self::Dim>;

    /// `self − other`.
    fn sub(&self, other: &Self) -> Self {
        self.add(&other.scale(real::<Self::Scalar>(-1.0)))
    }
    /// `−self`.
    fn neg(&self) -> Self {
        self.scale(real::<Self::Scalar>(-1.0))
    }
    /// `self + s · x`.
    fn axpy(&self, s: Self::Scalar, x: &Self) -> Self {
        self.add(&x.scale(s))
    }
    /// The dimension of the algebra.
    fn dim() -> usize {
        Self::Dim::DIM
    }
}

/// A Lie group together with its Lie algebra.
///
/// Required: identity, product, inverse, `exp`, `log`, the adjoint action `Ad`, and the exact
/// (closed-form where one exists) `dexp` and `dexp⁻¹`. Truncated `dexp⁻¹`, the side-dependent
/// versions, the local-coordinate update and the distance are provided.
///
/// # Examples
/// ```
/// use lieode::lie::{LieGroup, LieAlgebra, so3::{So3, So3Algebra}};
/// use nalgebra::Vector3;
/// let xi = So3Algebra::new(Vector3::new(0.3, -0.2, 0.9));
/// let g = So3::exp(&xi);
/// let back = g.log().unwrap();
/// assert!((back.to_coords() - xi.to_coords()).norm() < 1e-15);
/// ```
pub trait LieGroup: Copy + Debug + PartialEq {
    /// The scalar field.
    type Scalar: Real;
    /// The Lie algebra.
    type Algebra: LieAlgebra<Scalar = Self::Scalar>;

    /// The same group over another scalar type (e.g. dual numbers for Jacobians).
    type WithScalar<S: Real>: LieGroup<Scalar = S, Algebra = <Self::Algebra as LieAlgebra>::WithScalar<S>>;

    /// A short name for messages, e.g. `"SO(3)"`.
    const NAME: &'static str;

    /// The element with its representation converted to the scalar type `S` (through `f64`: a
    /// dual number keeps only its real part).
    fn cast<S: Real>(&self) -> Self::WithScalar<S>;

    /// The identity element `e`.
    fn identity() -> Self;
    /// The group product `self · other`.
    fn compose(&self, other: &Self) -> Self;
    /// The inverse `self⁻¹`.
    fn inverse(&self) -> Self;
    /// The exponential map `exp: 𝔤 → G`.
    fn exp(xi: &Self::Algebra) -> Self;
    /// The logarithm (principal branch), the inverse of [`LieGroup::exp`] near the identity.
    ///
    /// # Errors
    /// Groups whose logarithm may not exist (general matrix groups) return
    /// [`crate::Error::NoRealLogarithm`].
    fn log(&self) -> Result<Self::Algebra>;
    /// The adjoint action `Ad_g ξ = g ξ g⁻¹`.
    fn adjoint(&self, xi: &Self::Algebra) -> Self::Algebra;
    /// The left-trivialised derivative of `exp`: `dexp_ξ(v) = Σ_{k≥0} ad_ξ^k v / (k+1)!`,
    /// i.e. `d/ds exp(ξ + s v)|₀ = dexp_ξ(v) · exp(ξ)`.
    fn dexp(xi: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra;
    /// The exact inverse of [`LieGroup::dexp`]: `dexp⁻¹_ξ(v) = Σ_{k≥0} B_k/k! ad_ξ^k v`.
    ///
    /// Singular where `ad_ξ` has an eigenvalue `2πik`, `k ≠ 0` (for so(3): `|ξ| = 2π`);
    /// there the result is not finite.
    fn dexp_inv(xi: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra;
    /// Whether every entry of the representation is finite.
    fn is_finite(&self) -> bool;

    /// `dexp⁻¹_ξ(v)` evaluated exactly, by the Bernoulli series truncated after `ad_ξ^k`,
    /// or replaced by the identity, as `truncation` says.
    ///
    /// An order-`p` Munthe-Kaas method needs the terms up to `ad^{p−2}`
    /// ([`Truncation::for_order`]).
    fn dexp_inv_truncated(
        xi: &Self::Algebra,
        v: &Self::Algebra,
        truncation: Truncation,
    ) -> Self::Algebra {
        match truncation {
            Truncation::Exact => Self::dexp_inv(xi, v),
            Truncation::Series { max_power } => series::dexp_inv_series(xi, v, max_power),
            Truncation::Identity => *v,
        }
    }
    /// The derivative of `exp` trivialised on `side`: `dexp_ξ(v)` for [`Side::Left`],
    /// `dexp_{−ξ}(v)` for [`Side::Right`] (`exp(ξ)⁻¹ · d/ds exp(ξ + s v)|₀`).
    fn dexp_on(side: Side, xi: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra {
        match side {
            Side::Left => Self::dexp(xi, v),
            Side::Right => Self::dexp(&xi.neg(), v),
        }
    }
    /// The inverse of [`LieGroup::dexp_on`], truncated as `truncation` says: the local-coordinate
    /// vector field `θ' = dexp⁻¹_{±θ}(ξ)` of a Munthe-Kaas method.
    fn dexp_inv_on(
        side: Side,
        xi: &Self::Algebra,
        v: &Self::Algebra,
        truncation: Truncation,
    ) -> Self::Algebra {
        match side {
            Side::Left => Self::dexp_inv_truncated(xi, v, truncation),
            Side::Right => Self::dexp_inv_truncated(&xi.neg(), v, truncation),
        }
    }
    /// The local-coordinate update: `exp(θ) · self` ([`Side::Left`]) or `self · exp(θ)`
    /// ([`Side::Right`]).
    fn exp_update(&self, side: Side, theta: &Self::Algebra) -> Self {
        match side {
            Side::Left => Self::exp(theta).compose(self),
            Side::Right => self.compose(&Self::exp(theta)),
        }
    }
    /// The size of algebra coordinate `i` that relative error tests of adaptive methods use for
    /// this element: zero by default (errors on rotation groups are absolute, in radians);
    /// `|v_i|` on [`rn::Rn`], so an ℝⁿ factor is tested like a vector ODE.
    fn coordinate_magnitude(&self, _i: usize) -> Self::Scalar {
        real(0.0)
    }

    /// [`LieGroup::coordinate_magnitude`] of `self.exp_update(side, θ)`. Groups whose sizes are
    /// all zero (rotations, rigid motions, matrix groups) override it to skip the exponential;
    /// adaptive drivers call it once per component and error test.
    fn coordinate_magnitude_at(&self, side: Side, theta: &Self::Algebra, i: usize) -> Self::Scalar {
        self.exp_update(side, theta).coordinate_magnitude(i)
    }

    /// The left-invariant distance `|log(self⁻¹ · other)|`.
    ///
    /// # Errors
    /// As [`LieGroup::log`].
    fn distance(&self, other: &Self) -> Result<Self::Scalar> {
        Ok(self.inverse().compose(other).log()?.norm())
    }
}

/// The dimension type of a group's algebra.
pub type AlgebraDim<G> = <<G as LieGroup>::Algebra as LieAlgebra>::Dim;
