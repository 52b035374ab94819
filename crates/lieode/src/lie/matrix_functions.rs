//! # Matrix functions: exponential, logarithm, Cayley map
//!
//! Free functions on static square matrices `SMatrix<T, N, N>`, generic over the scalar
//! `T: Real` (so `num_dual::Dual64` flows through and gives exact derivatives). Nothing
//! allocates; every algorithmic choice below is a named constant or an option.
//!
//! - [`expm`]: `exp A` by scaling and squaring, `exp A = (T_m(A/2^s))^{2^s}` with the Taylor
//!   polynomial `T_m` of degree [`EXPM_TAYLOR_DEGREE`] and `s` the least integer with
//!   `‖A/2^s‖₁ ≤` [`EXPM_SCALING_NORM`] (Higham 2008, Ch. 10).
//! - [`expm_frechet`]: `exp A` together with the Fréchet derivative
//!   `L(A, E) = d/ds exp(A + sE)|_{s=0} = ∫₀¹ e^{(1−t)A} E e^{tA} dt`, by differentiating the
//!   same algorithm: the derivative of `T_m` on the scaled matrix, then the squaring recurrence
//!   `L ← L·F + F·L`, `F ← F²` (Higham 2008, §10.6).
//! - [`logm`]: the principal real logarithm by inverse scaling and squaring: Denman–Beavers
//!   square roots (product form with determinant scaling, Higham 2008, §6.3 and the scaling
//!   of Ch. 6) until `‖Y − I‖₁ ≤ θ`, then `log Y = 2 atanh Z = 2 Σ_{j≥0} Z^{2j+1}/(2j+1)` with
//!   `Z = (Y − I)(Y + I)⁻¹`, and `log A = 2^k log Y` (Higham 2008, Ch. 11). Rotations
//!   (the `SO(n)` group logarithm) take their square roots as orthogonal polar factors
//!   instead (Higham 2008, Ch. 8), which is more accurate near a rotation by π.
//! - [`cayley`], [`cayley_inverse`], [`dcay`], [`dcay_inv`]: the Cayley map
//!   `cay(A) = (I − A/2)⁻¹(I + A/2)`, its inverse and its left-trivialised differential
//!   (Iserles et al. 2000; Hairer, Lubich, Wanner, §IV.8).
//!
//! # References
//! - N. J. Higham, *Functions of Matrices: Theory and Computation*, SIAM 2008: §6.3
//!   (Denman–Beavers iteration), Ch. 8 (Newton iteration for the polar decomposition),
//!   Ch. 10 (scaling and squaring, §10.6 the Fréchet derivative), Ch. 11 (inverse scaling
//!   and squaring for the logarithm).
//! - A. Iserles, H. Z. Munthe-Kaas, S. P. Nørsett, A. Zanna, *Lie-group methods*,
//!   Acta Numerica 9 (2000), §2 (dexp), and the Cayley map for quadratic groups.
//! - E. Hairer, C. Lubich, G. Wanner, *Geometric Numerical Integration*, 2nd ed., §IV.8
//!   (the Cayley transform, `dcay` and its inverse).

use nalgebra::SMatrix;

use super::{Real, real, to_f64};
use crate::error::{Error, Result};

/// [`expm`] scales `A` by `2^{−s}` until `‖A/2^s‖₁ ≤ EXPM_SCALING_NORM`.
///
/// With the 1-norm at most 1 the Taylor terms decrease from the first, so the series has no
/// cancellation beyond a factor `e² ≈ 7` even for a negative definite `A`.
pub const EXPM_SCALING_NORM: f64 = 1.0;

/// Degree `m` of the Taylor polynomial `T_m(X) = Σ_{k≤m} X^k/k!` used by [`expm`] and
/// [`expm_frechet`] on the scaled matrix `‖X‖₁ ≤ 1`.
///
/// The remainders are bounded by `Σ_{k>m} 1/k! ≈ 1/21! ≈ 2·10⁻²⁰` for `exp` and by
/// `Σ_{k>m} k/k! ≈ 1/20! ≈ 4·10⁻¹⁹` (relative to `‖E‖`) for its Fréchet derivative, both well
/// below the unit round-off.
pub const EXPM_TAYLOR_DEGREE: usize = 20;

/// [`logm`] stops the Denman–Beavers scaling and switches to the quadratically convergent
/// unscaled iteration once `‖M_k − I‖₁` is below this value (Higham 2008, Ch. 6, scaling of
/// the Newton iteration).
pub const SQRT_SCALING_STOP: f64 = 1e-2;

/// The Denman–Beavers iteration inside [`logm`] is considered converged once
/// `‖M_k − I‖₁ ≤ SQRT_CONVERGED`; [`SQRT_FINAL_STEPS`] more steps then bring both the value
/// and (for dual numbers) its derivative to round-off, since the iteration converges
/// quadratically.
pub const SQRT_CONVERGED: f64 = 1e-8;

/// Number of Denman–Beavers steps taken after [`SQRT_CONVERGED`] is reached.
pub const SQRT_FINAL_STEPS: usize = 2;

/// [`logm`] trusts the sign of the determinant computed by LU (whose relative error is about
/// `n u cond₁(A)`) when `1/cond₁(A)` exceeds this value, and then reports `det A ≤ 0` at once;
/// for worse conditioned matrices a wrong sign makes the square-root iteration fail instead.
pub const DETERMINANT_SIGN_RCOND: f64 = 1e-8;

/// [`logm`] accepts its result `X` only if `‖exp X − A‖₁ ≤ LOGM_CHECK_TOLERANCE · ‖A‖₁`: a
/// real logarithm reproduces `A` to about `cond(A) · u`; a spurious end of the square-root
/// iteration (negative real eigenvalues) misses by order one.
pub const LOGM_CHECK_TOLERANCE: f64 = 1e-6;

/// The Newton iteration for the orthogonal polar factor inside the `SO(n)` logarithm stops
/// scaling once the relative change `‖X_{k+1} − X_k‖₁/‖X_{k+1}‖₁` is below this value, and is
/// considered converged (followed by [`SQRT_FINAL_STEPS`] more steps) once it is below
/// [`SQRT_CONVERGED`].
pub const POLAR_SCALING_STOP: f64 = 1e-2;

/// The Cayley maps report a singular matrix `I ∓ A/2` (or `I + G`) when its reciprocal
/// 1-norm condition number `1/(‖M‖₁ ‖M⁻¹‖₁)` is at most this value.
pub const CAYLEY_RCOND_TOLERANCE: f64 = 1e-14;

/// The 1-norm (largest absolute column sum) of the real parts, as `f64`.
pub(crate) fn norm1<T: Real, const N: usize>(a: &SMatrix<T, N, N>) -> f64 {
    a.column_iter()
        .map(|c| c.iter().map(|x| to_f64(*x).abs()).sum::<f64>())
        .fold(0.0, f64::max)
}

/// Whether every entry is finite.
pub(crate) fn all_finite<T: Real, const R: usize, const C: usize>(a: &SMatrix<T, R, C>) -> bool {
    a.iter().all(|x| x.is_finite())
}

/// The matrix with every entry NaN: the result of maps that are undefined at their argument
/// but cannot return an error.
pub(crate) fn nan_matrix<T: Real, const N: usize>() -> SMatrix<T, N, N> {
    SMatrix::from_element(real(f64::NAN))
}

/// An LU factorisation with partial pivoting `P A = L U` (pivots chosen on the real parts).
///
/// Written here rather than taken from `nalgebra` because its `LU` needs the bound
/// `Const<N>: DimMin<Const<N>>`, which generic code over `const N` cannot state without
/// spreading type-level arithmetic through every signature.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lu<T, const N: usize> {
    /// `L` (unit diagonal, not stored) below the diagonal, `U` on and above it.
    factors: SMatrix<T, N, N>,
    /// Row `i` of `P A` is row `perm[i]` of `A`.
    perm: [usize; N],
    /// Whether `P` is an odd permutation.
    odd: bool,
}

impl<T: Real, const N: usize> Lu<T, N> {
    /// Factorises `a`; `None` if a pivot is exactly zero or not finite.
    pub(crate) fn new(a: &SMatrix<T, N, N>) -> Option<Self> {
        let mut f = *a;
        let mut perm = [0usize; N];
        for (i, p) in perm.iter_mut().enumerate() {
            *p = i;
        }
        let mut odd = false;
        for k in 0..N {
            let mut p = k;
            let mut best = to_f64(f[(k, k)]).abs();
            for i in k + 1..N {
                let v = to_f64(f[(i, k)]).abs();
                if v > best {
                    best = v;
                    p = i;
                }
            }
            if !(best > 0.0 && best.is_finite()) {
                return None;
            }
            if p != k {
                f.swap_rows(k, p);
                perm.swap(k, p);
                odd = !odd;
            }
            let pivot = f[(k, k)];
            for i in k + 1..N {
                let l = f[(i, k)] / pivot;
                f[(i, k)] = l;
                for j in k + 1..N {
                    let u = f[(k, j)];
                    f[(i, j)] -= l * u;
                }
            }
        }
        Some(Self {
            factors: f,
            perm,
            odd,
        })
    }

    /// Solves `A X = B`.
    pub(crate) fn solve<const K: usize>(&self, b: &SMatrix<T, N, K>) -> SMatrix<T, N, K> {
        let f = &self.factors;
        let mut x = SMatrix::<T, N, K>::zeros();
        for (i, &p) in self.perm.iter().enumerate() {
            x.set_row(i, &b.row(p));
        }
        for c in 0..K {
            for i in 0..N {
                let mut s = x[(i, c)];
                for j in 0..i {
                    s -= f[(i, j)] * x[(j, c)];
                }
                x[(i, c)] = s;
            }
            for i in (0..N).rev() {
                let mut s = x[(i, c)];
                for j in i + 1..N {
                    s -= f[(i, j)] * x[(j, c)];
                }
                x[(i, c)] = s / f[(i, i)];
            }
        }
        x
    }

    /// `A⁻¹`.
    pub(crate) fn inverse(&self) -> SMatrix<T, N, N> {
        self.solve(&SMatrix::identity())
    }

    /// `det A`.
    pub(crate) fn determinant(&self) -> T {
        let d = (0..N).fold(T::one(), |acc, i| acc * self.factors[(i, i)]);
        if self.odd { -d } else { d }
    }

    /// The sign of `det A` (±1: the factorisation exists only with non-zero pivots), without
    /// forming the product, which under- or overflows for matrices such as `10⁻³⁰⁰ I`.
    pub(crate) fn determinant_sign(&self) -> f64 {
        let negative = (0..N)
            .filter(|&i| to_f64(self.factors[(i, i)]) < 0.0)
            .count();
        if (negative % 2 == 1) != self.odd {
            -1.0
        } else {
            1.0
        }
    }

    /// `ln |det A|`, without overflow.
    pub(crate) fn ln_abs_determinant(&self) -> T {
        (0..N).fold(T::zero(), |acc, i| acc + self.factors[(i, i)].abs().ln())
    }
}

/// The inverse of `a` if it is numerically invertible: the LU factorisation succeeds, the
/// inverse is finite and `1/(‖a‖₁‖a⁻¹‖₁) > rcond_tolerance`. Also returns that reciprocal
/// condition number (0 when the factorisation fails).
pub(crate) fn checked_inverse<T: Real, const N: usize>(
    a: &SMatrix<T, N, N>,
    rcond_tolerance: f64,
) -> (Option<SMatrix<T, N, N>>, f64) {
    let Some(lu) = Lu::new(a) else {
        return (None, 0.0);
    };
    let inv = lu.inverse();
    if !all_finite(&inv) {
        return (None, 0.0);
    }
    let rcond = 1.0 / (norm1(a) * norm1(&inv));
    if rcond > rcond_tolerance {
        (Some(inv), rcond)
    } else {
        (None, rcond)
    }
}

/// The number of squarings `s` (least with `‖A‖₁/2^s ≤ θ`) and the factor `2^{−s}`;
/// `None` for a non-finite norm.
fn scaling<T: Real, const N: usize>(a: &SMatrix<T, N, N>) -> Option<(usize, T)> {
    let norm = norm1(a);
    if !norm.is_finite() {
        return None;
    }
    let mut s = 0usize;
    let mut scaled = norm;
    while scaled > EXPM_SCALING_NORM {
        scaled *= 0.5;
        s += 1;
    }
    // 2^{−s} exactly, in two factors so that it does not underflow before being applied.
    let half_s = s / 2;
    let factor =
        real::<T>(0.5f64.powi(half_s as i32)) * real::<T>(0.5f64.powi((s - half_s) as i32));
    Some((s, factor))
}

/// The Taylor polynomial `T_m(X)` in nested (Horner) form
/// `T_m(X) = I + X(I + X/2(I + X/3(⋯(I + X/m))))`.
fn taylor<T: Real, const N: usize>(x: &SMatrix<T, N, N>) -> SMatrix<T, N, N> {
    let id = SMatrix::<T, N, N>::identity();
    let mut p = id;
    for j in (1..=EXPM_TAYLOR_DEGREE).rev() {
        p = id + (x * p) * real::<T>(1.0 / j as f64);
    }
    p
}

/// `T_m(X)` and its exact directional derivative `Σ_{k≤m} (1/k!) Σ_{i<k} X^i E X^{k−1−i}`,
/// by differentiating the nested form: with `P_j = I + X P_{j+1}/j`,
/// `dP_j = (E P_{j+1} + X dP_{j+1})/j`.
fn taylor_frechet<T: Real, const N: usize>(
    x: &SMatrix<T, N, N>,
    e: &SMatrix<T, N, N>,
) -> (SMatrix<T, N, N>, SMatrix<T, N, N>) {
    let id = SMatrix::<T, N, N>::identity();
    let mut p = id;
    let mut dp = SMatrix::<T, N, N>::zeros();
    for j in (1..=EXPM_TAYLOR_DEGREE).rev() {
        let c = real::<T>(1.0 / j as f64);
        dp = (e * p + x * dp) * c;
        p = id + (x * p) * c;
    }
    (p, dp)
}

/// The matrix exponential `exp A = Σ_{k≥0} A^k/k!` by scaling and squaring:
/// `exp A = T_m(A/2^s)^{2^s}` with the Taylor polynomial `T_m` of degree
/// [`EXPM_TAYLOR_DEGREE`] and `s ≥ 0` the least integer with `‖A/2^s‖₁ ≤ 1`.
///
/// Accuracy: relative error `‖Ê − exp A‖_F/‖exp A‖_F` at most about `2u·max(1, ‖A‖_F)`
/// (`u = 1.1·10⁻¹⁶`; measured against 60-digit references on dense 4×4 general, symmetric
/// and skew matrices: `1.5·10⁻¹⁶` at `‖A‖_F = 1`, `5·10⁻¹⁵` at `‖A‖_F = 50`), which is the
/// conditioning of the exponential itself (`κ_exp(A) ≥ ‖A‖` for normal `A`). A non-finite
/// input gives a non-finite result (never a panic).
///
/// # Examples
/// ```
/// use lieode::lie::matrix_functions::expm;
/// use nalgebra::Matrix2;
/// let t = 0.7_f64;
/// let r = expm(&Matrix2::new(0.0, -t, t, 0.0));
/// assert!((r - Matrix2::new(t.cos(), -t.sin(), t.sin(), t.cos())).norm() < 1e-15);
/// ```
///
/// # References
/// N. J. Higham, *Functions of Matrices*, SIAM 2008, Ch. 10 (scaling and squaring).
pub fn expm<T: Real, const N: usize>(a: &SMatrix<T, N, N>) -> SMatrix<T, N, N> {
    let Some((s, factor)) = scaling(a) else {
        return nan_matrix();
    };
    let mut f = taylor(&(a * factor));
    for _ in 0..s {
        f = f * f;
    }
    f
}

/// The exponential together with its Fréchet derivative,
/// `(exp A, L(A, E))` with `L(A, E) = d/ds exp(A + sE)|_{s=0} = ∫₀¹ e^{(1−t)A} E e^{tA} dt`.
///
/// The derivative of the algorithm of [`expm`], exact up to round-off: on the scaled pair
/// `X = A/2^s`, `E_s = E/2^s` the Taylor polynomial and its derivative are summed together,
/// then `s` times `L ← L F + F L`, `F ← F²` (from `exp(2X) = exp(X)²`).
///
/// # Examples
/// ```
/// use lieode::lie::matrix_functions::{expm, expm_frechet};
/// use nalgebra::Matrix2;
/// // For commuting A and E, L(A, E) = E exp(A).
/// let a = Matrix2::new(0.5, 0.0, 0.0, -1.0);
/// let e = Matrix2::new(1.0, 0.0, 0.0, 2.0);
/// let (f, l) = expm_frechet(&a, &e);
/// assert!((f - expm(&a)).norm() < 1e-16);
/// assert!((l - e * expm(&a)).norm() < 1e-15);
/// ```
///
/// # References
/// N. J. Higham, *Functions of Matrices*, SIAM 2008, §10.6 (Fréchet derivative of the
/// exponential, differentiated scaling and squaring).
pub fn expm_frechet<T: Real, const N: usize>(
    a: &SMatrix<T, N, N>,
    e: &SMatrix<T, N, N>,
) -> (SMatrix<T, N, N>, SMatrix<T, N, N>) {
    let Some((s, factor)) = scaling(a) else {
        return (nan_matrix(), nan_matrix());
    };
    let (mut f, mut l) = taylor_frechet(&(a * factor), &(e * factor));
    for _ in 0..s {
        l = l * f + f * l;
        f = f * f;
    }
    (f, l)
}

/// Options of the inverse scaling and squaring behind [`logm_with`].
///
/// The defaults ([`LogmOptions::default`]) are those of [`logm`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogmOptions {
    /// Square roots are taken until `‖Y − I‖₁ ≤ root_threshold`; then the `atanh` series is
    /// summed. Default `0.5` (then `‖Z‖₁ ≤ 1/3` and the relative error of the result is a few
    /// units of round-off, about `2u/θ` from forming `Y − I`). Valid: `0 < θ ≤ 0.9`.
    pub root_threshold: f64,
    /// The most square roots taken. Default 64 (enough for `‖log A‖ ≈ 10¹⁸`).
    pub max_square_roots: usize,
    /// The most Denman–Beavers steps per square root. Default 100 (with determinant scaling
    /// a square root of a well-behaved matrix takes 5–15).
    pub max_sqrt_iterations: usize,
}

impl Default for LogmOptions {
    fn default() -> Self {
        Self {
            root_threshold: 0.5,
            max_square_roots: 64,
            max_sqrt_iterations: 100,
        }
    }
}

impl LogmOptions {
    /// Checks the options.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a `root_threshold` outside `(0, 0.9]` or a zero
    /// `max_sqrt_iterations`.
    pub fn validate(&self) -> Result<()> {
        let t = self.root_threshold;
        if !(t > 0.0 && t <= 0.9) {
            return Err(Error::InvalidParameter {
                name: "root_threshold",
                value: format!("{t:e}"),
                expected: "a value in (0, 0.9]".into(),
            });
        }
        if self.max_sqrt_iterations == 0 {
            return Err(Error::InvalidParameter {
                name: "max_sqrt_iterations",
                value: "0".into(),
                expected: "at least 1".into(),
            });
        }
        Ok(())
    }
}

/// Why a Denman–Beavers square root failed.
enum SqrtFailure {
    /// `M_k` was singular (or its inverse not finite) at step `k`.
    Singular(usize),
    /// No convergence within the step limit.
    NoConvergence(usize),
}

/// The principal square root `A^{1/2}` by the product form of the Denman–Beavers iteration
/// with determinant scaling (Higham 2008, §6.3 and Ch. 6 on scaling):
/// `M₀ = Y₀ = A`, `μ_k = |det M_k|^{−1/(2n)}`,
/// `Y_{k+1} = ½ μ_k Y_k (I + μ_k^{−2} M_k⁻¹)`, `M_{k+1} = ½ I + ¼ (μ_k² M_k + μ_k^{−2} M_k⁻¹)`;
/// `M_k → I`, `Y_k → A^{1/2}`. Scaling stops once `‖M_k − I‖₁ < SQRT_SCALING_STOP`.
fn sqrtm_db<T: Real, const N: usize>(
    a: &SMatrix<T, N, N>,
    max_iterations: usize,
) -> core::result::Result<SMatrix<T, N, N>, SqrtFailure> {
    let id = SMatrix::<T, N, N>::identity();
    let mut m = *a;
    let mut y = *a;
    let mut final_steps: Option<usize> = None;
    let exponent = real::<T>(-1.0 / (2.0 * N as f64));
    for k in 0..max_iterations {
        let Some(lu) = Lu::new(&m) else {
            return Err(SqrtFailure::Singular(k));
        };
        let m_inv = lu.inverse();
        if !all_finite(&m_inv) {
            return Err(SqrtFailure::Singular(k));
        }
        let mu = if norm1(&(m - id)) > SQRT_SCALING_STOP {
            (lu.ln_abs_determinant() * exponent).exp()
        } else {
            T::one()
        };
        let mu2 = mu * mu;
        let mu2_inv = T::one() / mu2;
        y = (y * (id + m_inv * mu2_inv)) * (mu * real::<T>(0.5));
        m = id * real::<T>(0.5) + (m * mu2 + m_inv * mu2_inv) * real::<T>(0.25);
        if !all_finite(&m) || !all_finite(&y) {
            return Err(SqrtFailure::Singular(k + 1));
        }
        match final_steps {
            Some(0) => return Ok(y),
            Some(j) => final_steps = Some(j - 1),
            None => {
                if norm1(&(m - id)) <= SQRT_CONVERGED {
                    if SQRT_FINAL_STEPS == 0 {
                        return Ok(y);
                    }
                    final_steps = Some(SQRT_FINAL_STEPS - 1);
                }
            }
        }
    }
    Err(SqrtFailure::NoConvergence(max_iterations))
}

/// `log Y = 2 atanh Z = 2 Σ_{j≥0} Z^{2j+1}/(2j+1)`, `Z = (Y − I)(Y + I)⁻¹`, for `‖Y − I‖₁ < 1`;
/// summed (Horner in `Z²`) until `‖Z‖₁^{2j+1} < 10⁻²⁰`.
fn log_near_identity<T: Real, const N: usize>(y: &SMatrix<T, N, N>) -> Option<SMatrix<T, N, N>> {
    let id = SMatrix::<T, N, N>::identity();
    let lu = Lu::new(&(y + id))?;
    // (Y − I) and (Y + I)⁻¹ commute.
    let z = lu.solve(&(y - id));
    let rho = norm1(&z);
    if rho.is_nan() || rho >= 1.0 {
        return None;
    }
    // Smallest J with ρ^{2J+1} < 1e-20, plus one term of margin for dual parts.
    let mut terms = 1usize;
    let mut power = rho;
    while power >= 1e-20 && terms < 200 {
        power *= rho * rho;
        terms += 1;
    }
    terms += 1;
    let z2 = z * z;
    let mut s = SMatrix::<T, N, N>::zeros();
    for j in (0..terms).rev() {
        s = z2 * s + id * real::<T>(1.0 / (2 * j + 1) as f64);
    }
    Some(z * s * real::<T>(2.0))
}

/// The principal real logarithm `log A` (the unique real `X` with `exp X = A` and
/// spectrum in `|Im λ| < π`), by inverse scaling and squaring with the default
/// [`LogmOptions`]: `log A = 2^k log(A^{1/2^k})`, with `k` Denman–Beavers square roots until
/// `‖A^{1/2^k} − I‖₁ ≤ ½`, and `log Y = 2 atanh((Y − I)(Y + I)⁻¹)` summed to round-off.
///
/// # Errors
/// - [`Error::NonFinite`] (`name = "a"`) for a non-finite entry.
/// - [`Error::NoRealLogarithm`] (`group = "GL(n)"`) when `det A ≤ 0` (no real logarithm at
///   all), when `A` or a Denman–Beavers iterate is singular, or when the square-root
///   iteration does not converge: `A` has an eigenvalue on the closed negative real axis (for
///   example a rotation by exactly π), where no principal logarithm exists. An eigenvalue
///   within round-off of that axis gives either this error or the logarithm of a nearby
///   matrix; the group logarithm of `SO(n)` detects rotations by π explicitly.
///
/// # Examples
/// ```
/// use lieode::lie::matrix_functions::{expm, logm};
/// use nalgebra::Matrix3;
/// let x = Matrix3::new(0.1, -0.9, 0.3, 0.8, -0.2, 0.0, -0.4, 0.5, 0.3);
/// let back = logm(&expm(&x)).unwrap();
/// assert!((back - x).norm() < 1e-14);
/// assert!(logm(&Matrix3::from_diagonal_element(-1.0)).is_err());
/// ```
///
/// # References
/// N. J. Higham, *Functions of Matrices*, SIAM 2008, §6.3 (Denman–Beavers), Ch. 11
/// (inverse scaling and squaring).
pub fn logm<T: Real, const N: usize>(a: &SMatrix<T, N, N>) -> Result<SMatrix<T, N, N>> {
    logm_in(a, &LogmOptions::default(), "GL(n)")
}

/// [`logm`] with chosen [`LogmOptions`].
///
/// # Errors
/// As [`logm`], and [`Error::InvalidParameter`] for invalid options.
pub fn logm_with<T: Real, const N: usize>(
    a: &SMatrix<T, N, N>,
    options: &LogmOptions,
) -> Result<SMatrix<T, N, N>> {
    logm_in(a, options, "GL(n)")
}

/// [`logm_with`] reporting failures as belonging to `group`.
pub(crate) fn logm_in<T: Real, const N: usize>(
    a: &SMatrix<T, N, N>,
    options: &LogmOptions,
    group: &'static str,
) -> Result<SMatrix<T, N, N>> {
    options.validate()?;
    if !all_finite(a) {
        return Err(Error::NonFinite { name: "a" });
    }
    let no_log = |reason: String| Error::NoRealLogarithm { group, reason };
    let Some(lu) = Lu::new(a) else {
        return Err(no_log(
            "the determinant is 0 (A is singular), so no logarithm exists".to_string(),
        ));
    };
    if lu.determinant_sign() < 0.0 {
        // The sign of an LU determinant is only trustworthy for a reasonably conditioned A;
        // otherwise the square-root iteration below decides.
        let rcond = 1.0 / (norm1(a) * norm1(&lu.inverse()));
        if rcond > DETERMINANT_SIGN_RCOND {
            let ln_det = to_f64(lu.ln_abs_determinant());
            return Err(no_log(format!(
                "the determinant is negative (ln|det A| = {ln_det:e}), so no real logarithm \
                 exists"
            )));
        }
    }
    let id = SMatrix::<T, N, N>::identity();
    let mut y = *a;
    let mut roots = 0usize;
    while norm1(&(y - id)) > options.root_threshold {
        if roots == options.max_square_roots {
            return Err(no_log(format!(
                "‖A^(1/2^k) − I‖₁ still above {} after {roots} square roots",
                options.root_threshold
            )));
        }
        y = match sqrtm_db(&y, options.max_sqrt_iterations) {
            Ok(root) => root,
            Err(SqrtFailure::Singular(k)) => {
                return Err(no_log(format!(
                    "a Denman–Beavers iterate became singular (square root {}, step {k}): \
                     an eigenvalue lies on the closed negative real axis",
                    roots + 1
                )));
            }
            Err(SqrtFailure::NoConvergence(k)) => {
                return Err(no_log(format!(
                    "the Denman–Beavers square-root iteration did not converge in {k} steps \
                     (square root {}): an eigenvalue lies on or within round-off of the \
                     closed negative real axis",
                    roots + 1
                )));
            }
        };
        roots += 1;
    }
    let log_y = log_near_identity(&y)
        .ok_or_else(|| no_log("I + A^(1/2^k) is singular in the final atanh series".to_string()))?;
    // 2^roots exactly (roots ≤ max_square_roots, checked above).
    let scale = (0..roots).fold(T::one(), |acc, _| acc * real::<T>(2.0));
    let x = log_y * scale;
    if !all_finite(&x) {
        return Err(Error::NonFinite { name: "log a" });
    }
    // In real arithmetic the Denman–Beavers iteration cannot reach the (complex) principal
    // root of a matrix with negative real eigenvalues, yet it can wander into the stopping test
    // (random 2 × 2 matrices with two negative eigenvalues do so 1 time in 100): check exp X = A.
    let misfit = norm1(&(expm(&x) - a)) / norm1(a);
    if misfit.is_nan() || misfit > LOGM_CHECK_TOLERANCE {
        return Err(no_log(format!(
            "the iteration ended at X with ‖exp X − A‖₁/‖A‖₁ = {misfit:e} (above \
             {LOGM_CHECK_TOLERANCE:e}): A has eigenvalues on the negative real axis"
        )));
    }
    Ok(x)
}

/// The orthogonal polar factor `U` of a nonsingular `X = U H` (`UᵀU = I`, `H` symmetric
/// positive definite) by the scaled Newton iteration `X_{k+1} = ½(γ_k X_k + γ_k⁻¹ X_k^{−T})`,
/// `γ_k = (‖X_k⁻¹‖_F/‖X_k‖_F)^{1/2}` (Frobenius-norm scaling; Higham 2008, Ch. 8);
/// `None` when an iterate is singular or there is no convergence in `max_iterations` steps.
fn orthogonal_polar_factor<T: Real, const N: usize>(
    x: &SMatrix<T, N, N>,
    max_iterations: usize,
) -> Option<SMatrix<T, N, N>> {
    let mut x = *x;
    let mut scaling = true;
    let mut final_steps: Option<usize> = None;
    for _ in 0..max_iterations {
        let inv = Lu::new(&x)?.inverse();
        if !all_finite(&inv) {
            return None;
        }
        let gamma = if scaling {
            (inv.norm() / x.norm()).sqrt()
        } else {
            T::one()
        };
        let next = (x * gamma + inv.transpose() / gamma) * real::<T>(0.5);
        let change = norm1(&(next - x)) / norm1(&next);
        x = next;
        if !(change.is_finite() && all_finite(&x)) {
            return None;
        }
        scaling = scaling && change > POLAR_SCALING_STOP;
        match final_steps {
            Some(0) => return Some(x),
            Some(j) => final_steps = Some(j - 1),
            None => {
                if change <= SQRT_CONVERGED {
                    if SQRT_FINAL_STEPS == 0 {
                        return Some(x);
                    }
                    final_steps = Some(SQRT_FINAL_STEPS - 1);
                }
            }
        }
    }
    None
}

/// The principal logarithm of a rotation `R ∈ SO(n)` (a skew-symmetric matrix up to
/// round-off), by inverse scaling and squaring with square roots taken as orthogonal polar
/// factors: for `R` orthogonal with no eigenvalue −1, `√R` is the orthogonal polar factor of
/// `I + R` (on each invariant plane `I + R = 2 cos(φ/2) e^{iφ/2}`). Unlike the
/// Denman–Beavers iteration this loses only `u/ε` (the conditioning of the logarithm), not
/// `u/ε²`, for a rotation by `π − ε`.
pub(crate) fn logm_orthogonal<T: Real, const N: usize>(
    r: &SMatrix<T, N, N>,
    options: &LogmOptions,
    group: &'static str,
) -> Result<SMatrix<T, N, N>> {
    options.validate()?;
    if !all_finite(r) {
        return Err(Error::NonFinite { name: "a" });
    }
    let no_log = |reason: String| Error::NoRealLogarithm { group, reason };
    let id = SMatrix::<T, N, N>::identity();
    let mut y = *r;
    let mut roots = 0usize;
    while norm1(&(y - id)) > options.root_threshold {
        if roots == options.max_square_roots {
            return Err(no_log(format!(
                "‖R^(1/2^k) − I‖₁ still above {} after {roots} square roots",
                options.root_threshold
            )));
        }
        y = orthogonal_polar_factor(&(y + id), options.max_sqrt_iterations).ok_or_else(|| {
            no_log(format!(
                "the polar-factor square root {} failed: I + R is singular (a rotation by π)",
                roots + 1
            ))
        })?;
        roots += 1;
    }
    let log_y = log_near_identity(&y)
        .ok_or_else(|| no_log("I + R^(1/2^k) is singular in the final atanh series".to_string()))?;
    let scale = (0..roots).fold(T::one(), |acc, _| acc * real::<T>(2.0));
    let x = log_y * scale;
    if !all_finite(&x) {
        return Err(Error::NonFinite { name: "log a" });
    }
    Ok(x)
}

/// The Cayley map `cay(A) = (I − A/2)⁻¹(I + A/2)`.
///
/// Maps `so(n)` to `SO(n)` and, more generally, every quadratic Lie algebra
/// `{A : AᵀJ + JA = 0}` to its group. Agrees with `exp A` to second order:
/// `cay(A) = I + A + A²/2 + A³/4 + …`.
///
/// # Errors
/// [`Error::NonFinite`] (`name = "a"`) for a non-finite entry;
/// [`Error::CoordinateMapUndefined`] (`map = "Cayley"`) when `I − A/2` is singular (`A` has
/// the eigenvalue 2) to within [`CAYLEY_RCOND_TOLERANCE`].
///
/// # Examples
/// ```
/// use lieode::lie::matrix_functions::cayley;
/// use nalgebra::Matrix3;
/// let a = Matrix3::new(0.0, -0.3, 0.2, 0.3, 0.0, -0.1, -0.2, 0.1, 0.0); // skew
/// let g = cayley(&a).unwrap();
/// assert!((g.transpose() * g - Matrix3::identity()).norm() < 1e-15);
/// ```
///
/// # References
/// A. Iserles et al., *Lie-group methods*, Acta Numerica 9 (2000) (Cayley map of quadratic
/// groups); E. Hairer, C. Lubich, G. Wanner, *Geometric Numerical Integration*, §IV.8.
pub fn cayley<T: Real, const N: usize>(a: &SMatrix<T, N, N>) -> Result<SMatrix<T, N, N>> {
    if !all_finite(a) {
        return Err(Error::NonFinite { name: "a" });
    }
    let id = SMatrix::<T, N, N>::identity();
    let half = a * real::<T>(0.5);
    let (p_inv, rcond) = checked_inverse(&(id - half), CAYLEY_RCOND_TOLERANCE);
    let p_inv = p_inv.ok_or_else(|| Error::CoordinateMapUndefined {
        map: "Cayley",
        reason: format!("I − A/2 is singular (1/cond₁ = {rcond:e}): A has the eigenvalue 2"),
    })?;
    Ok(p_inv * (id + half))
}

/// The inverse Cayley map `cay⁻¹(G) = 2 (G − I)(G + I)⁻¹` (from `(I − A/2) G = I + A/2`).
///
/// # Errors
/// [`Error::NonFinite`] (`name = "g"`) for a non-finite entry;
/// [`Error::CoordinateMapUndefined`] (`map = "inverse Cayley"`) when `I + G` is singular
/// (`G` has the eigenvalue −1, e.g. a rotation by π) to within [`CAYLEY_RCOND_TOLERANCE`].
///
/// # Examples
/// ```
/// use lieode::lie::matrix_functions::{cayley, cayley_inverse};
/// use nalgebra::Matrix2;
/// let a = Matrix2::new(0.1, -0.4, 0.7, 0.2);
/// let back = cayley_inverse(&cayley(&a).unwrap()).unwrap();
/// assert!((back - a).norm() < 1e-15);
/// assert!(cayley_inverse(&Matrix2::new(-1.0, 0.0, 0.0, -1.0)).is_err());
/// ```
///
/// # References
/// A. Iserles et al., *Lie-group methods*, Acta Numerica 9 (2000) (Cayley map of quadratic
/// groups); E. Hairer, C. Lubich, G. Wanner, *Geometric Numerical Integration*, §IV.8.
pub fn cayley_inverse<T: Real, const N: usize>(g: &SMatrix<T, N, N>) -> Result<SMatrix<T, N, N>> {
    if !all_finite(g) {
        return Err(Error::NonFinite { name: "g" });
    }
    let id = SMatrix::<T, N, N>::identity();
    let (q_inv, rcond) = checked_inverse(&(g + id), CAYLEY_RCOND_TOLERANCE);
    let q_inv = q_inv.ok_or_else(|| Error::CoordinateMapUndefined {
        map: "inverse Cayley",
        reason: format!("I + G is singular (1/cond₁ = {rcond:e}): G has the eigenvalue −1"),
    })?;
    Ok((g - id) * q_inv * real::<T>(2.0))
}

/// The left-trivialised differential of the Cayley map,
/// `dcay_A(V) = (I − A/2)⁻¹ V (I + A/2)⁻¹`, defined by
/// `d/ds cay(A + sV)|_{s=0} = dcay_A(V) · cay(A)`.
///
/// Derivation: with `P = I − A/2`, `Q = I + A/2` (which commute),
/// `d(P⁻¹Q) = ½ P⁻¹VP⁻¹Q + ½ P⁻¹V = ½ P⁻¹ V P⁻¹ (Q + P) = P⁻¹ V P⁻¹`, and
/// `P⁻¹VP⁻¹ · (P⁻¹Q)⁻¹ = P⁻¹ V Q⁻¹`.
///
/// # Errors
/// [`Error::NonFinite`] for a non-finite entry (`name = "a"` or `"v"`);
/// [`Error::CoordinateMapUndefined`] (`map = "Cayley differential"`) when `I − A/2` or
/// `I + A/2` is singular to within [`CAYLEY_RCOND_TOLERANCE`].
///
/// # Examples
/// ```
/// use lieode::lie::matrix_functions::{dcay, dcay_inv};
/// use nalgebra::Matrix2;
/// let a = Matrix2::new(0.3, -0.5, 0.2, 0.1);
/// let v = Matrix2::new(1.0, 2.0, -0.5, 0.25);
/// let w = dcay(&a, &v).unwrap();
/// assert!((dcay_inv(&a, &w) - v).norm() < 1e-15);
/// ```
///
/// # References
/// A. Iserles et al., *Lie-group methods*, Acta Numerica 9 (2000) (Cayley map of quadratic
/// groups); E. Hairer, C. Lubich, G. Wanner, *Geometric Numerical Integration*, §IV.8.
pub fn dcay<T: Real, const N: usize>(
    a: &SMatrix<T, N, N>,
    v: &SMatrix<T, N, N>,
) -> Result<SMatrix<T, N, N>> {
    if !all_finite(a) {
        return Err(Error::NonFinite { name: "a" });
    }
    if !all_finite(v) {
        return Err(Error::NonFinite { name: "v" });
    }
    let id = SMatrix::<T, N, N>::identity();
    let half = a * real::<T>(0.5);
    let undefined = |which: &str, rcond: f64| Error::CoordinateMapUndefined {
        map: "Cayley differential",
        reason: format!("{which} is singular (1/cond₁ = {rcond:e})"),
    };
    let (p_inv, rcond) = checked_inverse(&(id - half), CAYLEY_RCOND_TOLERANCE);
    let p_inv = p_inv.ok_or_else(|| undefined("I − A/2", rcond))?;
    let (q_inv, rcond) = checked_inverse(&(id + half), CAYLEY_RCOND_TOLERANCE);
    let q_inv = q_inv.ok_or_else(|| undefined("I + A/2", rcond))?;
    Ok(p_inv * v * q_inv)
}

/// The inverse of [`dcay`]: `dcay⁻¹_A(W) = (I − A/2) W (I + A/2) = W − ½[A, W] − ¼ A W A`.
///
/// A polynomial, defined everywhere; it is the exact `dexp⁻¹` analogue of the Cayley
/// coordinate map (the local-coordinate vector field is `θ' = dcay⁻¹_θ(ξ)`).
///
/// # Examples
/// ```
/// use lieode::lie::matrix_functions::dcay_inv;
/// use nalgebra::Matrix2;
/// let a = Matrix2::new(0.0, -1.0, 1.0, 0.0);
/// let w = Matrix2::new(1.0, 0.0, 0.0, 0.0);
/// let bracket = a * w - w * a;
/// assert!((dcay_inv(&a, &w) - (w - bracket * 0.5 - a * w * a * 0.25)).norm() < 1e-16);
/// ```
///
/// # References
/// A. Iserles et al., *Lie-group methods*, Acta Numerica 9 (2000) (Cayley map of quadratic
/// groups); E. Hairer, C. Lubich, G. Wanner, *Geometric Numerical Integration*, §IV.8.
pub fn dcay_inv<T: Real, const N: usize>(
    a: &SMatrix<T, N, N>,
    w: &SMatrix<T, N, N>,
) -> SMatrix<T, N, N> {
    let id = SMatrix::<T, N, N>::identity();
    let half = a * real::<T>(0.5);
    (id - half) * w * (id + half)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Matrix3, Matrix4};

    #[test]
    fn lu_solves_and_inverts() {
        let a = Matrix4::<f64>::new(
            0.0, 2.0, 1.0, -1.0, 3.0, 0.5, 0.0, 2.0, 1.0, 1.0, 4.0, 0.0, -2.0, 0.0, 1.0, 1.0,
        );
        let lu = Lu::new(&a).unwrap();
        assert!((a * lu.inverse() - Matrix4::identity()).norm() < 1e-14);
        assert!((lu.determinant() - a.determinant()).abs() < 1e-12);
        assert!((lu.ln_abs_determinant() - a.determinant().abs().ln()).abs() < 1e-14);
        let singular = Matrix3::<f64>::new(1.0, 2.0, 3.0, 2.0, 4.0, 6.0, 0.0, 1.0, 1.0);
        assert!(Lu::new(&singular).is_none());
    }

    #[test]
    fn scaling_is_exact_power_of_two() {
        let a = Matrix3::<f64>::from_diagonal_element(40.0);
        let (s, f) = scaling(&a).unwrap();
        assert_eq!(s, 6);
        assert_eq!(f, 1.0 / 64.0);
        assert!(scaling(&Matrix3::<f64>::from_diagonal_element(f64::INFINITY)).is_none());
    }

    #[test]
    fn options_are_validated() {
        let bad = LogmOptions {
            root_threshold: 1.5,
            ..LogmOptions::default()
        };
        assert!(matches!(
            logm_with(&Matrix3::<f64>::identity(), &bad),
            Err(Error::InvalidParameter {
                name: "root_threshold",
                ..
            })
        ));
    }
}
