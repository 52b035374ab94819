//! # Direct products of groups
//!
//! `G₁ × G₂` with the componentwise product; its algebra is `𝔤₁ ⊕ 𝔤₂` with the componentwise
//! bracket, and `exp`, `log`, `Ad`, `dexp`, `dexp⁻¹` all act factor by factor. Coordinates are
//! the first factor's followed by the second's. Nest products for more factors, e.g.
//! `Product<Product<So3, Rn<3>>, Rn<3>>` for attitude, angular and linear momentum.
//!
//! # References
//! - A. Iserles et al., *Lie-group methods*, Acta Numerica 9 (2000), §2.

use nalgebra::{
    ComplexField, DefaultAllocator, DimNameAdd, DimNameSum, OVector, allocator::Allocator,
};

use super::{AlgebraDim, LieAlgebra, LieGroup, Real, Side};
use crate::error::Result;

/// An element `(x₁, x₂)` of the direct sum `𝔤₁ ⊕ 𝔤₂`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProductAlgebra<A, B>(pub A, pub B);

impl<A, B> LieAlgebra for ProductAlgebra<A, B>
where
    A: LieAlgebra,
    B: LieAlgebra<Scalar = A::Scalar>,
    A::Dim: DimNameAdd<B::Dim>,
    DefaultAllocator: Allocator<A::Dim> + Allocator<B::Dim>,
{
    type Scalar = A::Scalar;
    type Dim = DimNameSum<A::Dim, B::Dim>;
    type WithScalar<S: Real> = ProductAlgebra<A::WithScalar<S>, B::WithScalar<S>>;

    fn cast<S: Real>(&self) -> Self::WithScalar<S> {
        ProductAlgebra(self.0.cast(), self.1.cast())
    }

    fn zero() -> Self {
        Self(A::zero(), B::zero())
    }
    fn add(&self, other: &Self) -> Self {
        Self(self.0.add(&other.0), self.1.add(&other.1))
    }
    fn scale(&self, s: A::Scalar) -> Self {
        Self(self.0.scale(s), self.1.scale(s))
    }
    /// `[(x₁, x₂), (y₁, y₂)] = ([x₁, y₁], [x₂, y₂])`.
    fn bracket(&self, other: &Self) -> Self {
        Self(self.0.bracket(&other.0), self.1.bracket(&other.1))
    }
    /// `√(|x₁|² + |x₂|²)`.
    fn norm(&self) -> A::Scalar {
        let a = self.0.norm();
        let b = self.1.norm();
        (a * a + b * b).sqrt()
    }
    fn is_finite(&self) -> bool {
        self.0.is_finite() && self.1.is_finite()
    }
    fn to_coords(&self) -> OVector<A::Scalar, Self::Dim>
    where
        DefaultAllocator: Allocator<Self::Dim>,
    {
        let a = self.0.to_coords();
        let b = self.1.to_coords();
        let na = a.len();
        OVector::<A::Scalar, Self::Dim>::from_fn(|i, _| if i < na { a[i] } else { b[i - na] })
    }
    fn from_coords(coords: &OVector<A::Scalar, Self::Dim>) -> Self
    where
        DefaultAllocator: Allocator<Self::Dim>,
    {
        let na = A::dim();
        let a = OVector::<A::Scalar, A::Dim>::from_fn(|i, _| coords[i]);
        let b = OVector::<A::Scalar, B::Dim>::from_fn(|i, _| coords[na + i]);
        Self(A::from_coords(&a), B::from_coords(&b))
    }
}

/// An element `(g₁, g₂)` of the direct product `G₁ × G₂`.
///
/// # Examples
/// ```
/// use lieode::lie::{LieGroup, product::{Product, ProductAlgebra}, so3::{So3, So3Algebra}, rn::Rn};
/// use nalgebra::Vector3;
/// // Attitude and angular momentum of a rigid body.
/// type State = Product<So3, Rn<3>>;
/// let xi = ProductAlgebra(So3Algebra::new(Vector3::new(0.1, 0.2, 0.3)), Rn(Vector3::new(1.0, 0.0, 0.0)));
/// let y = State::exp(&xi);
/// assert_eq!(y.1, Rn(Vector3::new(1.0, 0.0, 0.0)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Product<G1, G2>(pub G1, pub G2);

impl<G1, G2> LieGroup for Product<G1, G2>
where
    G1: LieGroup,
    G2: LieGroup<Scalar = G1::Scalar>,
    AlgebraDim<G1>: DimNameAdd<AlgebraDim<G2>>,
    DefaultAllocator: Allocator<AlgebraDim<G1>> + Allocator<AlgebraDim<G2>>,
{
    type Scalar = G1::Scalar;
    type Algebra = ProductAlgebra<G1::Algebra, G2::Algebra>;
    type WithScalar<S: Real> = Product<G1::WithScalar<S>, G2::WithScalar<S>>;
    const NAME: &'static str = "product group";

    fn cast<S: Real>(&self) -> Self::WithScalar<S> {
        Product(self.0.cast(), self.1.cast())
    }

    fn identity() -> Self {
        Self(G1::identity(), G2::identity())
    }
    fn compose(&self, other: &Self) -> Self {
        Self(self.0.compose(&other.0), self.1.compose(&other.1))
    }
    fn inverse(&self) -> Self {
        Self(self.0.inverse(), self.1.inverse())
    }
    fn exp(xi: &Self::Algebra) -> Self {
        Self(G1::exp(&xi.0), G2::exp(&xi.1))
    }
    fn log(&self) -> Result<Self::Algebra> {
        Ok(ProductAlgebra(self.0.log()?, self.1.log()?))
    }
    fn adjoint(&self, xi: &Self::Algebra) -> Self::Algebra {
        ProductAlgebra(self.0.adjoint(&xi.0), self.1.adjoint(&xi.1))
    }
    fn dexp(xi: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra {
        ProductAlgebra(G1::dexp(&xi.0, &v.0), G2::dexp(&xi.1, &v.1))
    }
    fn dexp_inv(xi: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra {
        ProductAlgebra(G1::dexp_inv(&xi.0, &v.0), G2::dexp_inv(&xi.1, &v.1))
    }
    fn is_finite(&self) -> bool {
        self.0.is_finite() && self.1.is_finite()
    }
    /// The first factor's coordinates, then the second's.
    fn coordinate_magnitude(&self, i: usize) -> Self::Scalar {
        let first = <G1::Algebra as LieAlgebra>::dim();
        if i < first {
            self.0.coordinate_magnitude(i)
        } else {
            self.1.coordinate_magnitude(i - first)
        }
    }
    /// Factor by factor, so a rotation factor needs no exponential.
    fn coordinate_magnitude_at(&self, side: Side, theta: &Self::Algebra, i: usize) -> Self::Scalar {
        let first = <G1::Algebra as LieAlgebra>::dim();
        if i < first {
            self.0.coordinate_magnitude_at(side, &theta.0, i)
        } else {
            self.1.coordinate_magnitude_at(side, &theta.1, i - first)
        }
    }
    /// `√(d₁² + d₂²)` from the factors' own distances (so a [`crate::lie::unit_quaternion::UnitQuat`]
    /// factor stays double-cover aware).
    fn distance(&self, other: &Self) -> Result<Self::Scalar> {
        let a = self.0.distance(&other.0)?;
        let b = self.1.distance(&other.1)?;
        Ok((a * a + b * b).sqrt())
    }
}
