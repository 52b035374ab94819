//! # Matrix Lie groups GL(n), SL(n), SO(n)
//!
//! Groups of `N × N` real matrices for any `N` in `2..=8`, generic over the scalar `T: Real`,
//! with the algebra dimension a static `nalgebra` type (`n²`, `n² − 1`, `n(n − 1)/2`), so
//! everything lives on the stack.
//!
//! | kind | group | algebra | algebra dimension |
//! |---|---|---|---|
//! | [`General`] | `GL(n)`: invertible matrices | `gl(n)`: all matrices | `n²` |
//! | [`Special`] | `SL(n)`: `det g = 1` | `sl(n)`: `tr ξ = 0` | `n² − 1` |
//! | [`Orthogonal`] | `SO(n)`: `gᵀg = I`, `det g = +1` | `so(n)`: `ξᵀ = −ξ` | `n(n − 1)/2` |
//!
//! The maps are the general matrix functions of [`crate::lie::matrix_functions`]:
//! - `exp ξ` = [`expm`] (scaling and squaring), `log g` = the principal logarithm [`logm`]
//!   (inverse scaling and squaring), projected onto the algebra to remove round-off; in
//!   `SO(n)` the square roots are orthogonal polar factors of `I + R` (accurate to about
//!   `u/ε` for a rotation by `π − ε`, where Denman–Beavers loses `u/ε²`), and a rotation by π
//!   is reported as an error;
//! - `Ad_g ξ = g ξ g⁻¹`, `[ξ, η] = ξη − ηξ`;
//! - `dexp_ξ(v) = L(ξ, v) · exp(−ξ)` with the Fréchet derivative `L` of the exponential
//!   ([`expm_frechet`]); this is the left-trivialised derivative
//!   `d/ds exp(ξ + s v)|₀ = dexp_ξ(v) · exp(ξ)` of the crate's convention, exact to round-off;
//! - `dexp⁻¹_ξ(v)` by solving `dexp_ξ(x) = v` in coordinates: the `d × d` matrix of `dexp_ξ`
//!   is assembled column by column from the basis and factorised by LU.
//!
//! `GL(n)` has two connected components; `exp` only reaches matrices that have a real
//! logarithm (a subset of the identity component `det > 0`). Elements with `det < 0` are valid
//! group elements (the integrators' update `exp(θ)·y₀` works from any `y₀`), but their
//! logarithm, and hence [`LieGroup::distance`] between the components, is an error.
//!
//! # Algebra dimension
//! The kind markers implement [`MatrixKind<N>`] for `N = 2..=8` through a macro, with
//! `Dim = Const<{N·N}>`, `Const<{N·N − 1}>` and `Const<{N(N − 1)/2}>`. This keeps every
//! signature free of type-level arithmetic bounds; a larger `N` is one more entry in the
//! macro call.
//!
//! # References
//! - A. Iserles, H. Z. Munthe-Kaas, S. P. Nørsett, A. Zanna, *Lie-group methods*,
//!   Acta Numerica 9 (2000), §2 (matrix Lie groups, dexp and its inverse).
//! - N. J. Higham, *Functions of Matrices*, SIAM 2008, Ch. 8 (polar decomposition), Ch. 10,
//!   §10.6 (Fréchet derivative of the exponential), Ch. 11 (logarithm).

use core::fmt::Debug;
use core::hash::Hash;
use core::marker::PhantomData;

use nalgebra::{Const, DefaultAllocator, DimName, OVector, SMatrix, SVector, allocator::Allocator};

#[cfg(doc)]
use super::matrix_functions::logm;
use super::matrix_functions::{
    LogmOptions, Lu, all_finite, checked_inverse, expm, expm_frechet, logm_in, logm_orthogonal,
    nan_matrix,
};
use super::{LieAlgebra, LieGroup, Real, Side, real, to_f64};
use crate::error::{Error, Result};

/// Default tolerance of [`MatrixGroup::from_matrix`] for `GL(n)`: the matrix is rejected as
/// singular when its reciprocal 1-norm condition number `1/(‖m‖₁‖m⁻¹‖₁)` is at most this.
pub const GL_RCOND_TOLERANCE: f64 = 1e-14;

/// Default tolerance of [`MatrixGroup::from_matrix`] for `SL(n)`: `|det m − 1|`.
pub const SL_DETERMINANT_TOLERANCE: f64 = 1e-10;

/// Default tolerance of [`MatrixGroup::from_matrix`] for `SO(n)`: `‖mᵀm − I‖_F`.
pub const SO_ORTHOGONALITY_TOLERANCE: f64 = 1e-10;

/// Tolerance of [`MatrixAlgebra::from_matrix`]: the relative distance from the algebra,
/// `|tr m| / max(1, ‖m‖_F)` for `sl(n)` and `‖m + mᵀ‖_F / (2 max(1, ‖m‖_F))` for `so(n)`.
pub const ALGEBRA_TOLERANCE: f64 = 1e-10;

/// The `SO(n)` logarithm reports a rotation by π (an eigenvalue −1, where the logarithm is
/// not unique and no principal logarithm exists) when `1/cond₁(I + R)` is at most this value.
/// A rotation by `π − ε` has `1/cond₁(I + R) ≈ ε/4`, so angles up to about `π − 10⁻¹²` are
/// still logged.
pub const SO_LOG_PI_RCOND: f64 = 1e-13;

/// Marker of the general linear group `GL(n)` and its algebra `gl(n)` of all matrices.
///
/// Coordinates of `gl(n)`: the `n²` entries in column-major order (`nalgebra`'s storage
/// order), coordinate `i + n j` being the entry `(i, j)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct General;

/// Marker of the special linear group `SL(n)` (`det g = 1`) and its algebra `sl(n)` of
/// traceless matrices.
///
/// Coordinates of `sl(n)`: the first `n² − 1` entries in column-major order, i.e. every
/// entry except the last diagonal one, which is minus the sum of the other diagonal entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Special;

/// Marker of the rotation group `SO(n)` (`gᵀg = I`, `det g = +1`) and its algebra `so(n)` of
/// skew-symmetric matrices.
///
/// Coordinates of `so(n)`: one per pair `i < j`, in lexicographic order
/// `(0,1), (0,2), …, (0,n−1), (1,2), …`; the coordinate of `(i, j)` is the entry `ξ_{ji}`
/// (below the diagonal), so `ξ = Σ c_{ij} (e_j e_iᵀ − e_i e_jᵀ)` and a positive coordinate
/// rotates `e_i` towards `e_j`. For `n = 2` this is `ξ = [[0, −c], [c, 0]]`.
///
/// For `n = 3` the order and signs instead follow the axial vector of
/// [`crate::lie::so3::hat`]: `(x, y, z) = (ξ₂₁, ξ₀₂, ξ₁₀)`, so that
/// `ξ = [[0, −z, y], [z, 0, −x], [−y, x, 0]]` and the coordinates agree with
/// [`crate::lie::so3::So3Algebra`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Orthogonal;

/// The `N`-independent behaviour of each kind; sealed (implemented only by the three
/// markers of this module).
mod sealed {
    use super::*;

    /// Membership tests, projections and coordinates of one kind of matrix group, for any `N`.
    pub trait KindOps:
        Copy + Debug + PartialEq + Eq + Hash + Default + Send + Sync + 'static
    {
        /// The default tolerance of the group membership test.
        const DEFAULT_TOLERANCE: f64;
        /// The orthogonal (Frobenius) projection onto the algebra.
        fn project<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> SMatrix<T, N, N>;
        /// The relative distance of `m` from the algebra and the constraint's name.
        fn algebra_deviation<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> (f64, &'static str);
        /// Writes the coordinates of the algebra element `m` into `out`.
        fn write_coords<T: Real, const N: usize>(m: &SMatrix<T, N, N>, out: &mut [T]);
        /// The sum of the squared coordinates of the algebra element `m`.
        fn coords_norm_squared<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> T;
        /// The algebra element with coordinates `c`.
        fn read_coords<T: Real, const N: usize>(c: &[T]) -> SMatrix<T, N, N>;
        /// Checks the group constraint on a finite matrix `m`.
        fn check_element<T: Real, const N: usize>(
            m: &SMatrix<T, N, N>,
            tolerance: f64,
            group: &'static str,
        ) -> Result<()>;
        /// The group inverse (NaN where it does not exist).
        fn invert<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> SMatrix<T, N, N>;
        /// The principal logarithm of the group element `m` (before projection).
        fn log<T: Real, const N: usize>(
            m: &SMatrix<T, N, N>,
            group: &'static str,
        ) -> Result<SMatrix<T, N, N>> {
            logm_in(m, &LogmOptions::default(), group)
        }
    }
}
use sealed::KindOps;

/// `‖m‖_F` of the real parts.
fn frobenius<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> f64 {
    m.iter().map(|x| to_f64(*x).powi(2)).sum::<f64>().sqrt()
}

/// The general inverse by LU, NaN when singular.
fn lu_inverse<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> SMatrix<T, N, N> {
    Lu::new(m).map_or_else(nan_matrix, |lu| lu.inverse())
}

/// `det m` by LU (zero when a pivot vanishes).
fn determinant<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> T {
    Lu::new(m).map_or_else(T::zero, |lu| lu.determinant())
}

impl KindOps for General {
    const DEFAULT_TOLERANCE: f64 = GL_RCOND_TOLERANCE;
    fn project<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> SMatrix<T, N, N> {
        *m
    }
    fn algebra_deviation<T: Real, const N: usize>(_m: &SMatrix<T, N, N>) -> (f64, &'static str) {
        (0.0, "none")
    }
    fn write_coords<T: Real, const N: usize>(m: &SMatrix<T, N, N>, out: &mut [T]) {
        for (o, x) in out.iter_mut().zip(m.iter()) {
            *o = *x;
        }
    }
    fn coords_norm_squared<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> T {
        m.iter().fold(T::zero(), |acc, x| acc + *x * *x)
    }
    fn read_coords<T: Real, const N: usize>(c: &[T]) -> SMatrix<T, N, N> {
        let mut m = SMatrix::<T, N, N>::zeros();
        for (x, ci) in m.iter_mut().zip(c) {
            *x = *ci;
        }
        m
    }
    fn check_element<T: Real, const N: usize>(
        m: &SMatrix<T, N, N>,
        tolerance: f64,
        group: &'static str,
    ) -> Result<()> {
        let (inverse, rcond) = checked_inverse(m, tolerance);
        if inverse.is_none() {
            return Err(Error::NotOnGroup {
                group,
                name: "m",
                constraint: "m invertible (1/cond₁(m) above the tolerance)",
                deviation: rcond,
                tolerance,
            });
        }
        Ok(())
    }
    fn invert<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> SMatrix<T, N, N> {
        lu_inverse(m)
    }
}

impl KindOps for Special {
    const DEFAULT_TOLERANCE: f64 = SL_DETERMINANT_TOLERANCE;
    /// `m − (tr m / n) I`.
    fn project<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> SMatrix<T, N, N> {
        let mean = m.trace() * real::<T>(1.0 / N as f64);
        m - SMatrix::<T, N, N>::identity() * mean
    }
    fn algebra_deviation<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> (f64, &'static str) {
        (to_f64(m.trace()).abs() / frobenius(m).max(1.0), "tr m = 0")
    }
    fn write_coords<T: Real, const N: usize>(m: &SMatrix<T, N, N>, out: &mut [T]) {
        // `out` has n² − 1 entries: the zip stops before the last diagonal entry.
        for (o, x) in out.iter_mut().zip(m.iter()) {
            *o = *x;
        }
    }
    fn coords_norm_squared<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> T {
        m.iter()
            .take((N * N).saturating_sub(1))
            .fold(T::zero(), |acc, x| acc + *x * *x)
    }
    fn read_coords<T: Real, const N: usize>(c: &[T]) -> SMatrix<T, N, N> {
        let mut m = SMatrix::<T, N, N>::zeros();
        for (x, ci) in m.iter_mut().zip(c) {
            *x = *ci;
        }
        if let Some(last) = N.checked_sub(1) {
            let others = (0..last).fold(T::zero(), |acc, i| acc + m[(i, i)]);
            m[(last, last)] = -others;
        }
        m
    }
    fn check_element<T: Real, const N: usize>(
        m: &SMatrix<T, N, N>,
        tolerance: f64,
        group: &'static str,
    ) -> Result<()> {
        let deviation = (to_f64(determinant(m)) - 1.0).abs();
        if deviation.is_nan() || deviation > tolerance {
            return Err(Error::NotOnGroup {
                group,
                name: "m",
                constraint: "det m = 1",
                deviation,
                tolerance,
            });
        }
        Ok(())
    }
    fn invert<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> SMatrix<T, N, N> {
        lu_inverse(m)
    }
}

/// The entries `(row, col)` holding the `so(n)` coordinates, in coordinate order.
fn so_entries(n: usize) -> impl Iterator<Item = (usize, usize)> {
    const SO3: [(usize, usize); 3] = [(2, 1), (0, 2), (1, 0)];
    (0..n)
        .flat_map(move |i| (i + 1..n).map(move |j| (j, i)))
        .enumerate()
        .map(move |(k, lower)| {
            if n == 3 {
                SO3.get(k).copied().unwrap_or(lower)
            } else {
                lower
            }
        })
}

impl KindOps for Orthogonal {
    const DEFAULT_TOLERANCE: f64 = SO_ORTHOGONALITY_TOLERANCE;
    /// `(m − mᵀ)/2`.
    fn project<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> SMatrix<T, N, N> {
        (m - m.transpose()) * real::<T>(0.5)
    }
    fn algebra_deviation<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> (f64, &'static str) {
        (
            0.5 * frobenius(&(m + m.transpose())) / frobenius(m).max(1.0),
            "m + mᵀ = 0",
        )
    }
    fn write_coords<T: Real, const N: usize>(m: &SMatrix<T, N, N>, out: &mut [T]) {
        let half = real::<T>(0.5);
        for (o, (r, c)) in out.iter_mut().zip(so_entries(N)) {
            *o = (m[(r, c)] - m[(c, r)]) * half;
        }
    }
    fn coords_norm_squared<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> T {
        let half = real::<T>(0.5);
        so_entries(N).fold(T::zero(), |acc, (r, c)| {
            let x = (m[(r, c)] - m[(c, r)]) * half;
            acc + x * x
        })
    }
    fn read_coords<T: Real, const N: usize>(c: &[T]) -> SMatrix<T, N, N> {
        let mut m = SMatrix::<T, N, N>::zeros();
        for (ci, (r, col)) in c.iter().zip(so_entries(N)) {
            m[(r, col)] = *ci;
            m[(col, r)] = -*ci;
        }
        m
    }
    fn check_element<T: Real, const N: usize>(
        m: &SMatrix<T, N, N>,
        tolerance: f64,
        group: &'static str,
    ) -> Result<()> {
        let deviation = frobenius(&(m.transpose() * m - SMatrix::<T, N, N>::identity()));
        if deviation.is_nan() || deviation > tolerance {
            return Err(Error::NotOnGroup {
                group,
                name: "m",
                constraint: "mᵀm = I",
                deviation,
                tolerance,
            });
        }
        let det = to_f64(determinant(m));
        if det <= 0.0 {
            return Err(Error::NotOnGroup {
                group,
                name: "m",
                constraint: "det m = +1",
                deviation: (det - 1.0).abs(),
                tolerance,
            });
        }
        Ok(())
    }
    /// `R⁻¹ = Rᵀ`.
    fn invert<T: Real, const N: usize>(m: &SMatrix<T, N, N>) -> SMatrix<T, N, N> {
        m.transpose()
    }
    /// Rejects rotations by π (`1/cond₁(I + R) ≤` [`SO_LOG_PI_RCOND`]), then takes square
    /// roots as orthogonal polar factors of `I + R`.
    fn log<T: Real, const N: usize>(
        m: &SMatrix<T, N, N>,
        group: &'static str,
    ) -> Result<SMatrix<T, N, N>> {
        if !all_finite(m) {
            return Err(Error::NonFinite { name: "a" });
        }
        let (inverse, rcond) =
            checked_inverse(&(m + SMatrix::<T, N, N>::identity()), SO_LOG_PI_RCOND);
        if inverse.is_none() {
            return Err(Error::NoRealLogarithm {
                group,
                reason: format!(
                    "a rotation by π (eigenvalue −1, 1/cond₁(I + R) = {rcond:e}): the \
                     logarithm is not unique and there is no principal one"
                ),
            });
        }
        logm_orthogonal(m, &LogmOptions::default(), group)
    }
}

/// A kind of matrix group ([`General`], [`Special`], [`Orthogonal`]) at matrix size `N`:
/// names, the static algebra dimension, and the coordinate solve behind `dexp⁻¹`.
///
/// Implemented for `N = 2..=8`; sealed.
///
/// # Examples
/// ```
/// use lieode::lie::matrix_group::{General, MatrixKind, Orthogonal, Special};
/// use nalgebra::DimName;
/// assert_eq!(<General as MatrixKind<4>>::Dim::DIM, 16);
/// assert_eq!(<Special as MatrixKind<4>>::Dim::DIM, 15);
/// assert_eq!(<Orthogonal as MatrixKind<4>>::Dim::DIM, 6);
/// assert_eq!(<Orthogonal as MatrixKind<4>>::GROUP_NAME, "SO(4)");
/// ```
pub trait MatrixKind<const N: usize>: KindOps {
    /// The dimension of the algebra: `N²`, `N² − 1` or `N(N − 1)/2`.
    type Dim: DimName;
    /// The group's name, e.g. `"SO(3)"`.
    const GROUP_NAME: &'static str;
    /// The algebra's name, e.g. `"so(3)"`.
    const ALGEBRA_NAME: &'static str;

    /// Solves `map(x) = rhs` for `x` in the algebra, where `map` is linear on the algebra:
    /// assembles the `d × d` matrix of `map` in coordinates from the images of the basis and
    /// solves by LU with partial pivoting. `None` when that matrix is singular.
    fn solve_in_algebra<T: Real>(
        map: impl Fn(&SMatrix<T, N, N>) -> SMatrix<T, N, N>,
        rhs: &SMatrix<T, N, N>,
    ) -> Option<SMatrix<T, N, N>>;
}

/// [`MatrixKind::solve_in_algebra`] with the algebra dimension `M` as a const parameter.
fn solve_in_coordinates<T: Real, K: KindOps, const N: usize, const M: usize>(
    map: impl Fn(&SMatrix<T, N, N>) -> SMatrix<T, N, N>,
    rhs: &SMatrix<T, N, N>,
) -> Option<SMatrix<T, N, N>> {
    let mut jacobian = SMatrix::<T, M, M>::zeros();
    let mut unit = [T::zero(); M];
    let mut image = [T::zero(); M];
    for (k, mut column) in jacobian.column_iter_mut().enumerate() {
        if let Some(u) = unit.get_mut(k) {
            *u = T::one();
        }
        K::write_coords(&map(&K::read_coords::<T, N>(&unit)), &mut image);
        if let Some(u) = unit.get_mut(k) {
            *u = T::zero();
        }
        column.copy_from_slice(&image);
    }
    let mut b = [T::zero(); M];
    K::write_coords(rhs, &mut b);
    let x = Lu::new(&jacobian)?.solve(&SVector::<T, M>::from_column_slice(&b));
    Some(K::read_coords(x.as_slice()))
}

macro_rules! impl_matrix_kinds {
    ($($n:literal),* $(,)?) => {$(
        impl MatrixKind<$n> for General {
            type Dim = Const<{ $n * $n }>;
            const GROUP_NAME: &'static str = concat!("GL(", stringify!($n), ")");
            const ALGEBRA_NAME: &'static str = concat!("gl(", stringify!($n), ")");
            fn solve_in_algebra<T: Real>(
                map: impl Fn(&SMatrix<T, $n, $n>) -> SMatrix<T, $n, $n>,
                rhs: &SMatrix<T, $n, $n>,
            ) -> Option<SMatrix<T, $n, $n>> {
                solve_in_coordinates::<T, Self, $n, { $n * $n }>(map, rhs)
            }
        }
        impl MatrixKind<$n> for Special {
            type Dim = Const<{ $n * $n - 1 }>;
            const GROUP_NAME: &'static str = concat!("SL(", stringify!($n), ")");
            const ALGEBRA_NAME: &'static str = concat!("sl(", stringify!($n), ")");
            fn solve_in_algebra<T: Real>(
                map: impl Fn(&SMatrix<T, $n, $n>) -> SMatrix<T, $n, $n>,
                rhs: &SMatrix<T, $n, $n>,
            ) -> Option<SMatrix<T, $n, $n>> {
                solve_in_coordinates::<T, Self, $n, { $n * $n - 1 }>(map, rhs)
            }
        }
        impl MatrixKind<$n> for Orthogonal {
            type Dim = Const<{ $n * ($n - 1) / 2 }>;
            const GROUP_NAME: &'static str = concat!("SO(", stringify!($n), ")");
            const ALGEBRA_NAME: &'static str = concat!("so(", stringify!($n), ")");
            fn solve_in_algebra<T: Real>(
                map: impl Fn(&SMatrix<T, $n, $n>) -> SMatrix<T, $n, $n>,
                rhs: &SMatrix<T, $n, $n>,
            ) -> Option<SMatrix<T, $n, $n>> {
                solve_in_coordinates::<T, Self, $n, { $n * ($n - 1) / 2 }>(map, rhs)
            }
        }
    )*};
}

impl_matrix_kinds!(2, 3, 4, 5, 6, 7, 8);

/// An element of the Lie algebra `gl(n)`, `sl(n)` or `so(n)` (selected by the kind `K`),
/// stored as its `N × N` matrix.
///
/// Bracket `[ξ, η] = ξη − ηξ`; coordinates as documented on [`General`], [`Special`] and
/// [`Orthogonal`]; norm the Euclidean norm of the coordinates.
///
/// # Examples
/// ```
/// use lieode::lie::LieAlgebra;
/// use lieode::lie::matrix_group::SoNAlgebra;
/// use nalgebra::Vector3;
/// // so(3) coordinates are the axial vector: [e_x, e_y] = e_z.
/// let x = SoNAlgebra::<f64, 3>::from_coords(&Vector3::new(1.0, 0.0, 0.0));
/// let y = SoNAlgebra::<f64, 3>::from_coords(&Vector3::new(0.0, 1.0, 0.0));
/// assert_eq!(x.bracket(&y).to_coords(), Vector3::new(0.0, 0.0, 1.0));
/// assert!(SoNAlgebra::<f64, 3>::from_matrix(nalgebra::Matrix3::identity()).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatrixAlgebra<T, const N: usize, K> {
    matrix: SMatrix<T, N, N>,
    kind: PhantomData<K>,
}

/// An element of the matrix Lie group `GL(n)`, `SL(n)` or `SO(n)` (selected by the kind
/// `K`), stored as its `N × N` matrix.
///
/// # Examples
/// ```
/// use lieode::lie::{LieAlgebra, LieGroup};
/// use lieode::lie::matrix_group::{Sl, SlAlgebra};
/// use nalgebra::SVector;
/// let xi = SlAlgebra::<f64, 3>::from_coords(&SVector::<f64, 8>::from_fn(|i, _| 0.1 * i as f64 - 0.3));
/// let g = Sl::exp(&xi);
/// assert!((g.matrix().determinant() - 1.0).abs() < 1e-14);
/// let back = g.log().unwrap();
/// assert!((back.to_coords() - xi.to_coords()).norm() < 1e-14);
/// // dexp⁻¹ inverts dexp.
/// let v = SlAlgebra::<f64, 3>::from_coords(&SVector::<f64, 8>::from_element(0.5));
/// let w = Sl::dexp_inv(&xi, &Sl::dexp(&xi, &v));
/// assert!((w.to_coords() - v.to_coords()).norm() < 1e-14);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatrixGroup<T, const N: usize, K> {
    matrix: SMatrix<T, N, N>,
    kind: PhantomData<K>,
}

/// The general linear group `GL(n)` of invertible `N × N` matrices.
pub type Gl<T, const N: usize> = MatrixGroup<T, N, General>;
/// The special linear group `SL(n)`: `det g = 1`.
pub type Sl<T, const N: usize> = MatrixGroup<T, N, Special>;
/// The rotation group `SO(n)`: `gᵀg = I`, `det g = +1`.
pub type SoN<T, const N: usize> = MatrixGroup<T, N, Orthogonal>;
/// The algebra `gl(n)` of all `N × N` matrices.
pub type GlAlgebra<T, const N: usize> = MatrixAlgebra<T, N, General>;
/// The algebra `sl(n)` of traceless `N × N` matrices.
pub type SlAlgebra<T, const N: usize> = MatrixAlgebra<T, N, Special>;
/// The algebra `so(n)` of skew-symmetric `N × N` matrices.
pub type SoNAlgebra<T, const N: usize> = MatrixAlgebra<T, N, Orthogonal>;

impl<T: Real, const N: usize, K: MatrixKind<N>> MatrixAlgebra<T, N, K> {
    /// Wraps `m` after checking that it lies in the algebra to within [`ALGEBRA_TOLERANCE`]
    /// (relative), then projects it onto the algebra to remove the round-off: `gl(n)` accepts
    /// every finite matrix; `sl(n)` needs `|tr m| ≤ tol · max(1, ‖m‖_F)` and subtracts
    /// `(tr m/n) I`; `so(n)` needs `‖m + mᵀ‖_F ≤ 2 tol · max(1, ‖m‖_F)` and keeps `(m − mᵀ)/2`.
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::NotOnGroup`] (naming the algebra, e.g. `"so(3)"`)
    /// for the parameter `m`.
    pub fn from_matrix(m: SMatrix<T, N, N>) -> Result<Self> {
        if !all_finite(&m) {
            return Err(Error::NonFinite { name: "m" });
        }
        let (deviation, constraint) = K::algebra_deviation(&m);
        if deviation.is_nan() || deviation > ALGEBRA_TOLERANCE {
            return Err(Error::NotOnGroup {
                group: K::ALGEBRA_NAME,
                name: "m",
                constraint,
                deviation,
                tolerance: ALGEBRA_TOLERANCE,
            });
        }
        Ok(Self::project(&m))
    }

    /// The orthogonal (Frobenius) projection of any matrix onto the algebra: `m` for `gl(n)`,
    /// `m − (tr m/n) I` for `sl(n)`, `(m − mᵀ)/2` for `so(n)`.
    pub fn project(m: &SMatrix<T, N, N>) -> Self {
        Self::from_matrix_unchecked(K::project(m))
    }

    /// Wraps `m` without any check. The caller guarantees that `m` lies in the algebra.
    pub fn from_matrix_unchecked(m: SMatrix<T, N, N>) -> Self {
        Self {
            matrix: m,
            kind: PhantomData,
        }
    }

    /// The matrix.
    pub fn matrix(&self) -> &SMatrix<T, N, N> {
        &self.matrix
    }
}

impl<T: Real, const N: usize, K: MatrixKind<N>> LieAlgebra for MatrixAlgebra<T, N, K> {
    type Scalar = T;
    type Dim = K::Dim;
    type WithScalar<S: Real> = MatrixAlgebra<S, N, K>;

    fn cast<S: Real>(&self) -> MatrixAlgebra<S, N, K> {
        MatrixAlgebra::from_matrix_unchecked(self.matrix.map(super::cast_scalar))
    }

    fn zero() -> Self {
        Self::from_matrix_unchecked(SMatrix::zeros())
    }
    fn add(&self, other: &Self) -> Self {
        Self::from_matrix_unchecked(self.matrix + other.matrix)
    }
    fn scale(&self, s: T) -> Self {
        Self::from_matrix_unchecked(self.matrix * s)
    }
    /// `[ξ, η] = ξη − ηξ` (projected onto the algebra to remove round-off).
    fn bracket(&self, other: &Self) -> Self {
        Self::project(&(self.matrix * other.matrix - other.matrix * self.matrix))
    }
    /// The Euclidean norm of the coordinates (zero, with zero derivative, at zero).
    fn norm(&self) -> T {
        let sq = K::coords_norm_squared(&self.matrix);
        if to_f64(sq) == 0.0 {
            T::zero()
        } else {
            sq.sqrt()
        }
    }
    fn is_finite(&self) -> bool {
        all_finite(&self.matrix)
    }
    fn to_coords(&self) -> OVector<T, K::Dim>
    where
        DefaultAllocator: Allocator<K::Dim>,
    {
        let mut c = OVector::<T, K::Dim>::zeros();
        K::write_coords(&self.matrix, c.as_mut_slice());
        c
    }
    fn from_coords(coords: &OVector<T, K::Dim>) -> Self
    where
        DefaultAllocator: Allocator<K::Dim>,
    {
        Self::from_matrix_unchecked(K::read_coords(coords.as_slice()))
    }
}

impl<T: Real, const N: usize, K: MatrixKind<N>> MatrixGroup<T, N, K> {
    /// Wraps `m` after checking that it is an element of the group, with the kind's default
    /// tolerance: finite, and
    /// - `GL(n)`: numerically invertible, `1/cond₁(m) >` [`GL_RCOND_TOLERANCE`];
    /// - `SL(n)`: `|det m − 1| ≤` [`SL_DETERMINANT_TOLERANCE`];
    /// - `SO(n)`: `‖mᵀm − I‖_F ≤` [`SO_ORTHOGONALITY_TOLERANCE`] and `det m > 0`.
    ///
    /// Determinants come from an LU factorisation, whose relative error is about
    /// `n u cond(m)`: a badly conditioned `SL(n)` element may need a larger tolerance.
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::NotOnGroup`] naming the parameter `m`.
    pub fn from_matrix(m: SMatrix<T, N, N>) -> Result<Self> {
        Self::from_matrix_with_tolerance(m, K::DEFAULT_TOLERANCE)
    }

    /// As [`MatrixGroup::from_matrix`] with a chosen tolerance (of `1/cond₁(m)` for `GL(n)`,
    /// `|det m − 1|` for `SL(n)`, `‖mᵀm − I‖_F` for `SO(n)`).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a negative or non-finite tolerance, otherwise as
    /// [`MatrixGroup::from_matrix`].
    pub fn from_matrix_with_tolerance(m: SMatrix<T, N, N>, tolerance: f64) -> Result<Self> {
        super::check_tolerance("tolerance", tolerance)?;
        if !all_finite(&m) {
            return Err(Error::NonFinite { name: "m" });
        }
        K::check_element(&m, tolerance, K::GROUP_NAME)?;
        Ok(Self::from_matrix_unchecked(m))
    }

    /// Wraps `m` without any check. The caller guarantees that `m` is in the group.
    pub fn from_matrix_unchecked(m: SMatrix<T, N, N>) -> Self {
        Self {
            matrix: m,
            kind: PhantomData,
        }
    }

    /// The matrix.
    pub fn matrix(&self) -> &SMatrix<T, N, N> {
        &self.matrix
    }

    /// The linear action `g v` on `ℝⁿ`.
    pub fn act(&self, v: &SVector<T, N>) -> SVector<T, N> {
        self.matrix * v
    }
}

impl<T: Real, const N: usize, K: MatrixKind<N>> LieGroup for MatrixGroup<T, N, K> {
    type Scalar = T;
    type Algebra = MatrixAlgebra<T, N, K>;
    type WithScalar<S: Real> = MatrixGroup<S, N, K>;
    const NAME: &'static str = K::GROUP_NAME;

    fn cast<S: Real>(&self) -> MatrixGroup<S, N, K> {
        MatrixGroup::from_matrix_unchecked(self.matrix.map(super::cast_scalar))
    }

    fn identity() -> Self {
        Self::from_matrix_unchecked(SMatrix::identity())
    }
    fn compose(&self, other: &Self) -> Self {
        Self::from_matrix_unchecked(self.matrix * other.matrix)
    }
    /// `g⁻¹` by LU (`GL`, `SL`; NaN for a singular matrix) or `gᵀ` (`SO`).
    fn inverse(&self) -> Self {
        Self::from_matrix_unchecked(K::invert(&self.matrix))
    }
    /// [`expm`] (scaling and squaring).
    fn exp(xi: &Self::Algebra) -> Self {
        Self::from_matrix_unchecked(expm(&xi.matrix))
    }
    /// The principal logarithm [`logm`], projected onto the algebra.
    ///
    /// # Errors
    /// [`Error::NoRealLogarithm`] (with this group's name) as for [`logm`]: for `det g < 0`
    /// in `GL(n)`, and for eigenvalues on the closed negative real axis; in `SO(n)` a
    /// rotation by π is detected explicitly ([`SO_LOG_PI_RCOND`]).
    /// [`Error::NonFinite`] for a non-finite element.
    fn log(&self) -> Result<Self::Algebra> {
        let x = K::log(&self.matrix, K::GROUP_NAME)?;
        Ok(MatrixAlgebra::project(&x))
    }
    /// `Ad_g ξ = g ξ g⁻¹`.
    fn adjoint(&self, xi: &Self::Algebra) -> Self::Algebra {
        MatrixAlgebra::project(&(self.matrix * xi.matrix * K::invert(&self.matrix)))
    }
    /// `dexp_ξ(v) = L(ξ, v) · exp(−ξ)` with the Fréchet derivative `L` of [`expm_frechet`].
    fn dexp(xi: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra {
        let (_, l) = expm_frechet(&xi.matrix, &v.matrix);
        MatrixAlgebra::project(&(l * expm(&(-xi.matrix))))
    }
    /// Solves `dexp_ξ(x) = v` in coordinates (LU on the `d × d` matrix of `dexp_ξ`); not
    /// finite where `dexp_ξ` is singular (`ad_ξ` has an eigenvalue `2πik`, `k ≠ 0`).
    fn dexp_inv(xi: &Self::Algebra, v: &Self::Algebra) -> Self::Algebra {
        let exp_neg = expm(&(-xi.matrix));
        let dexp = |b: &SMatrix<T, N, N>| K::project(&(expm_frechet(&xi.matrix, b).1 * exp_neg));
        match K::solve_in_algebra(dexp, &v.matrix) {
            Some(x) => MatrixAlgebra::from_matrix_unchecked(x),
            None => MatrixAlgebra::from_matrix_unchecked(nan_matrix()),
        }
    }
    fn is_finite(&self) -> bool {
        all_finite(&self.matrix)
    }
    /// Zero: errors of this group's coordinates are tested absolutely.
    fn coordinate_magnitude_at(&self, _side: Side, _theta: &Self::Algebra, _i: usize) -> T {
        T::zero()
    }
}
