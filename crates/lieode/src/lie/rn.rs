//! # ℝⁿ as an additive Lie group
//!
//! The abelian group `(ℝⁿ, +)` is its own Lie algebra: `exp` and `log` are the identity,
//! the bracket vanishes, `Ad`, `dexp` and `dexp⁻¹` are the identity. On `Rn` every Lie-group
//! integrator reduces to the classical method with the same coefficients, which is how the
//! engines are tested (the *Euclidean reduction*).

use nalgebra::{Const, OVector, SVector};

use super::{LieAlgebra, LieGroup, Real, Side};
use crate::error::Result;

/// A point of ℝⁿ, which is both a group element and an algebra element.
///
/// # Examples
/// ```
/// use lieode::lie::{LieGroup, LieAlgebra, rn::Rn};
/// use nalgebra::Vector2;
/// let a = Rn(Vector2::new(1.0, 2.0));
/// let b = Rn(Vector2::new(0.5, -1.0));
/// assert_eq!(a.compose(&b), Rn(Vector2::new(1.5, 1.0)));
/// assert_eq!(Rn::exp(&a), a);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rn<const N: usize, T = f64>(pub SVector<T, N>);

impl<const N: usize, T: Real> Rn<N, T> {
    /// Wraps a vector.
    pub fn new(v: SVector<T, N>) -> Self {
        Self(v)
    }
    /// The vector.
    pub fn vector(&self) -> &SVector<T, N> {
        &self.0
    }
}

impl<const N: usize, T: Real> LieAlgebra for Rn<N, T> {
    type Scalar = T;
    type Dim = Const<N>;
    type WithScalar<S: Real> = Rn<N, S>;

    fn cast<S: Real>(&self) -> Rn<N, S> {
        Rn(self.0.map(super::cast_scalar))
    }

    fn zero() -> Self {
        Self(SVector::zeros())
    }
    fn add(&self, other: &Self) -> Self {
        Self(self.0 + other.0)
    }
    fn scale(&self, s: T) -> Self {
        Self(self.0 * s)
    }
    /// Always zero: ℝⁿ is abelian.
    fn bracket(&self, _other: &Self) -> Self {
        Self::zero()
    }
    fn norm(&self) -> T {
        self.0.norm()
    }
    fn is_finite(&self) -> bool {
        self.0.iter().all(|x| x.is_finite())
    }
    fn to_coords(&self) -> OVector<T, Const<N>> {
        self.0
    }
    fn from_coords(coords: &OVector<T, Const<N>>) -> Self {
        Self(*coords)
    }
}

impl<const N: usize, T: Real> LieGroup for Rn<N, T> {
    type Scalar = T;
    type Algebra = Self;
    type WithScalar<S: Real> = Rn<N, S>;
    const NAME: &'static str = "R^n";

    fn cast<S: Real>(&self) -> Rn<N, S> {
        <Self as LieAlgebra>::cast(self)
    }

    fn identity() -> Self {
        Self::zero()
    }
    /// `x + y`.
    fn compose(&self, other: &Self) -> Self {
        Self(self.0 + other.0)
    }
    /// `−x`.
    fn inverse(&self) -> Self {
        Self(-self.0)
    }
    fn exp(xi: &Self) -> Self {
        *xi
    }
    fn log(&self) -> Result<Self> {
        Ok(*self)
    }
    fn adjoint(&self, xi: &Self) -> Self {
        *xi
    }
    fn dexp(_xi: &Self, v: &Self) -> Self {
        *v
    }
    fn dexp_inv(_xi: &Self, v: &Self) -> Self {
        *v
    }
    fn is_finite(&self) -> bool {
        self.0.iter().all(|x| x.is_finite())
    }
    /// `|v_i|`.
    fn coordinate_magnitude(&self, i: usize) -> T {
        self.0.get(i).map_or(T::zero(), |v| v.abs())
    }
    /// `|v_i + θ_i|` (either side: the group is abelian).
    fn coordinate_magnitude_at(&self, _side: Side, theta: &Self, i: usize) -> T {
        match (self.0.get(i), theta.0.get(i)) {
            (Some(v), Some(t)) => (*v + *t).abs(),
            _ => T::zero(),
        }
    }
}
