//! # Coordinate maps 𝔤 → G
//!
//! A coordinate map `φ: 𝔤 → G` with `φ(0) = e` and `dφ₀ = id` lets an integrator work in a
//! vector space: `y = φ(θ) · y₀`. The exponential is one choice; the Cayley map
//! `cay(A) = (I − A/2)⁻¹ (I + A/2)` is a cheaper, rational one for quadratic groups such as
//! SO(n), and is the map of the Austin–Krishnaprasad–Wang rigid-body scheme.
//!
//! Each map comes with its left-trivialised differential `dφ_ξ(v)`, defined by
//! `d/ds φ(ξ + s v)|₀ = dφ_ξ(v) · φ(ξ)`, and that differential's inverse:
//! - exponential: [`LieGroup::dexp`] and [`LieGroup::dexp_inv`];
//! - Cayley: `dcay_A(V) = (I − A/2)⁻¹ V (I + A/2)⁻¹` and `dcay⁻¹_A(W) = (I − A/2) W (I + A/2)`;
//!   on so(3) in vector form `cay(a) = I + 4/(4 + |a|²) (â + â²/2)`,
//!   `dcay_a(v) = (v + ½ a×v)/(1 + |a|²/4)`, `dcay⁻¹_a(w) = w − ½ a×w + ¼ (a·w) a`, and
//!   `cay⁻¹(R) = 4 vee(R)/(1 + tr R)`, where `vee(R)` is the axial vector of the skew part
//!   (undefined for rotations by π).
//!
//! # References
//! - E. Hairer, C. Lubich, G. Wanner, *Geometric Numerical Integration*, §IV.8.3 (Cayley
//!   transform and its derivative).
//! - D. Austin, P. Krishnaprasad, L.-S. Wang, *Almost Poisson integration of rigid body
//!   systems*, J. Comput. Phys. 107 (1993); Krysl (2007) §3.8.

use nalgebra::{Matrix3, Quaternion};

use super::matrix_functions::{cayley, cayley_inverse, dcay, dcay_inv, nan_matrix};
use super::matrix_group::{MatrixKind, Orthogonal, SoN, SoNAlgebra};
use super::product::{Product, ProductAlgebra};
use super::so3::{So3, So3Algebra, hat, vee};
use super::unit_quaternion::{Su2Algebra, UnitQuat};
use super::{LieAlgebra, LieGroup, Real, Side, Truncation, real};
use crate::error::{Error, Result};

/// A coordinate map `φ: 𝔤 → G` with its inverse and left-trivialised differentials.
pub trait CoordinateMap<G: LieGroup> {
    /// The name of the map, for messages.
    const NAME: &'static str;
    /// `φ(ξ)`.
    fn map(xi: &G::Algebra) -> G;
    /// `φ⁻¹(g)`.
    ///
    /// # Errors
    /// [`Error::CoordinateMapUndefined`] where the inverse does not exist, or the group's own
    /// logarithm error.
    fn inverse(g: &G) -> Result<G::Algebra>;
    /// `dφ_ξ(v)`, with `d/ds φ(ξ + s v)|₀ = dφ_ξ(v) · φ(ξ)`.
    fn differential(xi: &G::Algebra, v: &G::Algebra) -> G::Algebra;
    /// `dφ_ξ⁻¹(w)`.
    fn differential_inverse(xi: &G::Algebra, w: &G::Algebra) -> G::Algebra;
}

/// The exponential map, for any group.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExponentialMap;

impl<G: LieGroup> CoordinateMap<G> for ExponentialMap {
    const NAME: &'static str = "exponential";
    fn map(xi: &G::Algebra) -> G {
        G::exp(xi)
    }
    fn inverse(g: &G) -> Result<G::Algebra> {
        g.log()
    }
    fn differential(xi: &G::Algebra, v: &G::Algebra) -> G::Algebra {
        G::dexp(xi, v)
    }
    fn differential_inverse(xi: &G::Algebra, w: &G::Algebra) -> G::Algebra {
        G::dexp_inv(xi, w)
    }
}

/// The Cayley map `cay(A) = (I − A/2)⁻¹ (I + A/2)`.
///
/// # Examples
/// ```
/// use lieode::lie::coordinates::{CayleyMap, CoordinateMap};
/// use lieode::lie::so3::{So3, So3Algebra};
/// use nalgebra::Vector3;
/// let a = So3Algebra::new(Vector3::new(0.2, -0.4, 1.0));
/// let r: So3 = CayleyMap::map(&a);
/// let back = <CayleyMap as CoordinateMap<So3>>::inverse(&r).unwrap();
/// assert!((back.0 - a.0).norm() < 1e-15);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CayleyMap;

/// Below this value of `1 + tr R` (rotation angle within ≈ 1e-4 of π) the inverse Cayley map
/// of a rotation is reported undefined: its value `2 tan(θ/2)` would exceed ≈ 4·10⁴.
pub const CAYLEY_INVERSE_MIN_DENOMINATOR: f64 = 1e-8;

impl<T: Real> CoordinateMap<So3<T>> for CayleyMap {
    const NAME: &'static str = "Cayley";
    /// `cay(a) = I + 4/(4 + |a|²) (â + â²/2)`.
    fn map(xi: &So3Algebra<T>) -> So3<T> {
        let a = hat(&xi.0);
        let f = real::<T>(4.0) / (real::<T>(4.0) + xi.0.norm_squared());
        So3::from_matrix_unchecked(Matrix3::identity() + (a + a * a * real::<T>(0.5)) * f)
    }
    /// `cay⁻¹(R) = 4 vee(R)/(1 + tr R)`.
    fn inverse(g: &So3<T>) -> Result<So3Algebra<T>> {
        let m = g.matrix();
        let denominator = T::one() + m.trace();
        if denominator < real(CAYLEY_INVERSE_MIN_DENOMINATOR) {
            return Err(Error::CoordinateMapUndefined {
                map: "inverse Cayley",
                reason: format!(
                    "1 + tr R = {:e}: the rotation angle is (within 1e-4 of) π",
                    super::to_f64(denominator)
                ),
            });
        }
        Ok(So3Algebra(vee(m) * (real::<T>(4.0) / denominator)))
    }
    /// `dcay_a(v) = (v + ½ a×v)/(1 + |a|²/4)`.
    fn differential(xi: &So3Algebra<T>, v: &So3Algebra<T>) -> So3Algebra<T> {
        let a = &xi.0;
        let scale = T::one() / (T::one() + a.norm_squared() * real(0.25));
        So3Algebra((v.0 + a.cross(&v.0) * real::<T>(0.5)) * scale)
    }
    /// `dcay⁻¹_a(w) = w − ½ a×w + ¼ (a·w) a`.
    fn differential_inverse(xi: &So3Algebra<T>, w: &So3Algebra<T>) -> So3Algebra<T> {
        let a = &xi.0;
        So3Algebra(w.0 - a.cross(&w.0) * real::<T>(0.5) + a * (a.dot(&w.0) * real(0.25)))
    }
}

/// The Cayley map of SU(2) as a matrix group, in quaternion form: for the pure quaternion
/// `v ∈ su(2)` (half the rotation vector, as [`UnitQuat::exp`]), with `a = |v|²/4`,
///
/// ```text
/// cay(v) = (1 − v/2)⁻¹ (1 + v/2) = (1 − a, v) / (1 + a)
/// ```
///
/// — a unit quaternion from one division, no trigonometry and no square root; the rotation
/// angle is `4 atan(|v|/2)` (the exponential's `2|v|` to first order). The differentials are the
/// matrix-group ones with quaternion products, `dcay⁻¹_v(w) = (1 − v/2) w (1 + v/2)`, which for
/// pure `v`, `w` is `w − v×w − a w + ½ (v·w) v`, and `dcay_v(x) = (1 + v/2) x (1 − v/2)/(1 + a)²
/// = ((1 − a) x + v×x + ½ (v·x) v)/(1 + a)²`. The inverse `cay⁻¹(w, u) = 2u/(1 + w)` is
/// undefined at `q = −1`.
impl<T: Real> CoordinateMap<UnitQuat<T>> for CayleyMap {
    const NAME: &'static str = "Cayley";
    fn map(xi: &Su2Algebra<T>) -> UnitQuat<T> {
        let v = xi.0;
        let a = v.norm_squared() * real(0.25);
        let scale = T::one() / (T::one() + a);
        let u = v * scale;
        UnitQuat::from_quaternion_unchecked(Quaternion::new((T::one() - a) * scale, u.x, u.y, u.z))
    }
    fn inverse(g: &UnitQuat<T>) -> Result<Su2Algebra<T>> {
        let q = g.quaternion();
        let denominator = T::one() + q.w;
        if denominator < real(CAYLEY_INVERSE_MIN_DENOMINATOR) {
            return Err(Error::CoordinateMapUndefined {
                map: "inverse Cayley",
                reason: format!(
                    "1 + w = {:e}: the unit quaternion is (within 1e-4 rad of) −1",
                    super::to_f64(denominator)
                ),
            });
        }
        Ok(Su2Algebra(q.imag() * (real::<T>(2.0) / denominator)))
    }
    fn differential(xi: &Su2Algebra<T>, x: &Su2Algebra<T>) -> Su2Algebra<T> {
        let (v, x) = (&xi.0, &x.0);
        let a = v.norm_squared() * real(0.25);
        let scale = T::one() / ((T::one() + a) * (T::one() + a));
        Su2Algebra((x * (T::one() - a) + v.cross(x) + v * (v.dot(x) * real(0.5))) * scale)
    }
    fn differential_inverse(xi: &Su2Algebra<T>, w: &Su2Algebra<T>) -> Su2Algebra<T> {
        let (v, w) = (&xi.0, &w.0);
        let a = v.norm_squared() * real(0.25);
        Su2Algebra(w * (T::one() - a) - v.cross(w) + v * (v.dot(w) * real(0.5)))
    }
}

/// The Cayley map on SO(n) as a matrix group (any supported `n`). On skew-symmetric `A` the
/// factor `I − A/2` is always invertible, so `map` only fails (returning a non-finite element)
/// for non-finite input; the inverse fails for rotations with an eigenvalue −1.
impl<T: Real, const N: usize> CoordinateMap<SoN<T, N>> for CayleyMap
where
    Orthogonal: MatrixKind<N>,
{
    const NAME: &'static str = "Cayley";
    fn map(xi: &SoNAlgebra<T, N>) -> SoN<T, N> {
        let m = cayley(xi.matrix()).unwrap_or_else(|_| nan_matrix());
        SoN::from_matrix_unchecked(m)
    }
    fn inverse(g: &SoN<T, N>) -> Result<SoNAlgebra<T, N>> {
        Ok(SoNAlgebra::project(&cayley_inverse(g.matrix())?))
    }
    fn differential(xi: &SoNAlgebra<T, N>, v: &SoNAlgebra<T, N>) -> SoNAlgebra<T, N> {
        let m = dcay(xi.matrix(), v.matrix()).unwrap_or_else(|_| nan_matrix());
        SoNAlgebra::project(&m)
    }
    fn differential_inverse(xi: &SoNAlgebra<T, N>, w: &SoNAlgebra<T, N>) -> SoNAlgebra<T, N> {
        SoNAlgebra::project(&dcay_inv(xi.matrix(), w.matrix()))
    }
}

/// The Cayley map on the translation group `ℝⁿ` is the translation itself: in the affine
/// matrix form `A = [[0, v], [0, 0]]` has `A² = 0`, so `cay(A) = (I − A/2)⁻¹(I + A/2) = I + A`.
/// Its differentials are the identity. (This lets the Cayley chart act factor by factor on
/// products such as `SO(3) × ℝ³`.)
impl<T: Real, const N: usize> CoordinateMap<super::rn::Rn<N, T>> for CayleyMap {
    const NAME: &'static str = "Cayley";
    fn map(xi: &super::rn::Rn<N, T>) -> super::rn::Rn<N, T> {
        *xi
    }
    fn inverse(g: &super::rn::Rn<N, T>) -> Result<super::rn::Rn<N, T>> {
        Ok(*g)
    }
    fn differential(_xi: &super::rn::Rn<N, T>, v: &super::rn::Rn<N, T>) -> super::rn::Rn<N, T> {
        *v
    }
    fn differential_inverse(
        _xi: &super::rn::Rn<N, T>,
        w: &super::rn::Rn<N, T>,
    ) -> super::rn::Rn<N, T> {
        *w
    }
}

/// The Cayley map of a direct product, factor by factor.
impl<G1, G2> CoordinateMap<Product<G1, G2>> for CayleyMap
where
    Product<G1, G2>: LieGroup<Algebra = ProductAlgebra<G1::Algebra, G2::Algebra>>,
    G1: LieGroup,
    G2: LieGroup,
    CayleyMap: CoordinateMap<G1> + CoordinateMap<G2>,
{
    const NAME: &'static str = "Cayley";
    fn map(xi: &ProductAlgebra<G1::Algebra, G2::Algebra>) -> Product<G1, G2> {
        Product(
            <CayleyMap as CoordinateMap<G1>>::map(&xi.0),
            <CayleyMap as CoordinateMap<G2>>::map(&xi.1),
        )
    }
    fn inverse(g: &Product<G1, G2>) -> Result<ProductAlgebra<G1::Algebra, G2::Algebra>> {
        Ok(ProductAlgebra(
            <CayleyMap as CoordinateMap<G1>>::inverse(&g.0)?,
            <CayleyMap as CoordinateMap<G2>>::inverse(&g.1)?,
        ))
    }
    fn differential(
        xi: &ProductAlgebra<G1::Algebra, G2::Algebra>,
        v: &ProductAlgebra<G1::Algebra, G2::Algebra>,
    ) -> ProductAlgebra<G1::Algebra, G2::Algebra> {
        ProductAlgebra(
            <CayleyMap as CoordinateMap<G1>>::differential(&xi.0, &v.0),
            <CayleyMap as CoordinateMap<G2>>::differential(&xi.1, &v.1),
        )
    }
    fn differential_inverse(
        xi: &ProductAlgebra<G1::Algebra, G2::Algebra>,
        w: &ProductAlgebra<G1::Algebra, G2::Algebra>,
    ) -> ProductAlgebra<G1::Algebra, G2::Algebra> {
        ProductAlgebra(
            <CayleyMap as CoordinateMap<G1>>::differential_inverse(&xi.0, &w.0),
            <CayleyMap as CoordinateMap<G2>>::differential_inverse(&xi.1, &w.1),
        )
    }
}

/// How a Munthe-Kaas engine moves between the group and its local coordinates at the start of a
/// step: the update `y = φ(θ)·y_n` ([`Side::Left`]) or `y = y_n·φ(θ)` ([`Side::Right`]), and the
/// local-coordinate vector field of `y' = ξ·y` (or `y·ξ`).
///
/// With the left-trivialised differential of [`CoordinateMap`], `y = φ(θ)·y_n` turns `y' = ξ y`
/// into `θ' = dφ⁻¹_θ(ξ)`; `y = y_n·φ(θ)` turns `y' = y ξ` into `dφ_θ(θ') = Ad_{φ(θ)} ξ`, which
/// for maps with `φ(−θ) = φ(θ)⁻¹` (the exponential and Cayley maps) is `θ' = dφ⁻¹_{−θ}(ξ)`.
///
/// # References
/// A. Iserles, H. Munthe-Kaas, S. Nørsett, A. Zanna, *Lie-group methods*, Acta Numerica 9
/// (2000), §5 (coordinates other than the exponential); Hairer–Lubich–Wanner §IV.8.3.
pub trait Chart<G: LieGroup> {
    /// The chart's name, for method names.
    const NAME: &'static str;
    /// `φ(θ)·y` or `y·φ(θ)`.
    fn update(side: Side, y: &G, theta: &G::Algebra) -> G;
    /// `dφ⁻¹_{±θ}(ξ)`, truncated as `truncation` says where the chart has a series (the
    /// exponential); exact otherwise.
    fn local_field(
        side: Side,
        theta: &G::Algebra,
        xi: &G::Algebra,
        truncation: Truncation,
    ) -> G::Algebra;
}

/// The exponential chart: [`LieGroup::exp_update`] and [`LieGroup::dexp_inv_on`] (the
/// Munthe-Kaas default).
impl<G: LieGroup> Chart<G> for ExponentialMap {
    const NAME: &'static str = "exponential";
    #[inline]
    fn update(side: Side, y: &G, theta: &G::Algebra) -> G {
        y.exp_update(side, theta)
    }
    #[inline]
    fn local_field(
        side: Side,
        theta: &G::Algebra,
        xi: &G::Algebra,
        truncation: Truncation,
    ) -> G::Algebra {
        G::dexp_inv_on(side, theta, xi, truncation)
    }
}

/// The Cayley chart on every group with a Cayley map (SO(3), SO(n), ℝⁿ and their products).
///
/// `dcay⁻¹_a(w)` is a polynomial of degree 2 in `a` (`w − ½ a×w + ¼ (a·w) a` on so(3),
/// `(I − A/2) W (I + A/2)` on so(n)) and is evaluated exactly; [`Truncation::Identity`]
/// (`dcay⁻¹ ≈ id`, as in the Austin–Krishnaprasad–Wang attitude update) is the one truncation
/// honoured. The exponential's rule — keep terms up to degree `p − 2` — does not carry over:
/// truncating `dcay⁻¹` to degree 1 lowered Kutta3 and Radau IIA 3 to order 2.00 on all three
/// SO(3) problems of `tests/orders.rs` (measured), because the degree-2 term `¼ (a·w) a` is
/// `O(h²)` and enters the local error at `h³`.
impl<G: LieGroup> Chart<G> for CayleyMap
where
    CayleyMap: CoordinateMap<G>,
{
    const NAME: &'static str = "Cayley";
    #[inline]
    fn update(side: Side, y: &G, theta: &G::Algebra) -> G {
        let phi = <CayleyMap as CoordinateMap<G>>::map(theta);
        match side {
            Side::Left => phi.compose(y),
            Side::Right => y.compose(&phi),
        }
    }
    #[inline]
    fn local_field(
        side: Side,
        theta: &G::Algebra,
        xi: &G::Algebra,
        truncation: Truncation,
    ) -> G::Algebra {
        if truncation == Truncation::Identity {
            return *xi;
        }
        match side {
            Side::Left => <CayleyMap as CoordinateMap<G>>::differential_inverse(theta, xi),
            Side::Right => <CayleyMap as CoordinateMap<G>>::differential_inverse(&theta.neg(), xi),
        }
    }
}
