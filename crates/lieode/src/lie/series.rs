//! # Series behind the exponential and its derivatives
//!
//! - Reciprocal factorials and the Bernoulli coefficients `b_k = B_k / k!`, generated at
//!   compile time (not typed in).
//! - The remainder functions `S_j(θ) = Σ_{k≥0} (−1)^k θ^{2k} / (2k+j)!` that every closed form on
//!   so(3), su(2) and se(3) is built from: `S₀ = cos θ`, `S₁ = sin θ/θ`, `S₂ = (1 − cos θ)/θ²`,
//!   `S₃ = (θ − sin θ)/θ³`, `S₄ = (cos θ − 1 + θ²/2)/θ⁴`, `S₅ = (sin θ − θ + θ³/6)/θ⁵`,
//!   and the dexp⁻¹ coefficient `C(θ) = (1 − (θ/2) cot(θ/2))/θ²`. Each is evaluated by its Taylor
//!   series below a named threshold and by the closed form above it, so both accuracy (no
//!   cancellation) and dual-number derivatives (no `√0`) hold at every angle.
//! - The truncated series `dexp_θ = Σ ad_θ^k/(k+1)!`, `dexp⁻¹_θ = Σ b_k ad_θ^k` and
//!   `Ad_{exp θ} = Σ ad_θ^k/k!`, generic over any [`LieAlgebra`].
//! - Boyle's exact summation: when `ad_θ^K` is a linear combination of lower powers, an infinite
//!   series in `ad_θ` collapses to `K` terms ([`reduced_series_coefficients`]).
//!
//! # References
//! - M. Boyle, *The integration of angular velocity*, Adv. Appl. Clifford Algebras 27 (2017),
//!   Eqs. (15)–(18) and §V (exact summation of the `ad` series).
//! - A. Iserles et al., *Lie-group methods*, Acta Numerica 9 (2000), Lemma 2.45 (dexp⁻¹ series).

use super::{LieAlgebra, Real, real, to_f64};
use crate::error::{Error, Result};

/// Number of reciprocal factorials and Bernoulli coefficients generated.
pub const SERIES_LEN: usize = 96;

/// A rotation vector `v` of the same rotation with its length reduced modulo 2π, for `v`
/// whose `|v|²` overflows (`|v|` above about 1.3·10¹⁵⁴): `exp` of SO(3) and of SU(2) (in
/// `q = (cos|v|, sin|v| v/|v|)`) is 2π-periodic along every axis, and `θ mod 2π` is exact in
/// floating point. The length is found with the vector scaled by its largest entry. Where even
/// `|v|` overflows, the angle's spacing in floating point exceeds 2π, so every angle about the
/// axis is as accurate as any other; the scaled length is reduced instead.
pub(crate) fn reduce_rotation_vector<T: Real>(v: &nalgebra::Vector3<T>) -> nalgebra::Vector3<T> {
    // The remainder is taken on the real part (dual numbers have no `%`); the derivative parts
    // are unchanged by subtracting a constant multiple of 2π.
    let tau = std::f64::consts::TAU;
    let largest = v.amax();
    let axis = v / largest;
    let scaled_length = axis.norm();
    let axis = axis / scaled_length;
    let theta = largest * scaled_length;
    let theta_re = to_f64(theta);
    let reduced = if theta_re.is_finite() {
        real::<T>(theta_re % tau) + (theta - real::<T>(theta_re))
    } else {
        real::<T>(((to_f64(largest) % tau) * to_f64(scaled_length)) % tau)
    };
    axis * reduced
}

/// Below this value of `θ²` the remainder functions `S₀ … S₂` use their Taylor series.
///
/// They have no cancellation; the series avoids `0/0` and `√0` (which would break dual
/// numbers) near `θ = 0`, and below `θ = 1/2` its nine terms (first omitted term below
/// `10⁻²¹`) cost less than a square root, a `sin_cos` and a division — the range the steps of
/// the lifted integrators live in.
pub const SMALL_ANGLE_SQ: f64 = 0.25;

/// Below this norm `|v|² = Σ v_i²` of a rotation vector, an axis or a quaternion has lost
/// digits to underflow (its terms may be subnormal), so normalising divides by the largest
/// entry first (SO(3)'s axis–angle constructor, the unit quaternions, the actions on S²).
pub(crate) const NORM_WITHOUT_SCALING: f64 = 1e-146;

/// Below this value of `θ²` the cancellation-prone functions `S₃ … S₅` and `C(θ)` use their
/// Taylor series (twenty terms, exact to round-off for `θ < 2`); above it the closed forms lose
/// at most one digit.
pub const SERIES_ANGLE_SQ: f64 = 4.0;

const SMALL_TERMS: usize = 9;
const SERIES_TERMS: usize = 20;

const fn inverse_factorials() -> [f64; SERIES_LEN] {
    let mut out = [0.0; SERIES_LEN];
    out[0] = 1.0;
    let mut k = 1;
    while k < SERIES_LEN {
        out[k] = out[k - 1] / k as f64;
        k += 1;
    }
    out
}

/// `1/k!` for `k < SERIES_LEN`.
pub const INV_FACTORIAL: [f64; SERIES_LEN] = inverse_factorials();

/// `ζ(s)` for even `s ≥ 2`: exact for `s = 2, 4, 6`; otherwise `Σ_{k<K} k^{−s}` plus the
/// Euler–Maclaurin tail `K^{1−s}/(s−1) + K^{−s}/2 + s K^{−s−1}/12` with `K = 50`
/// (neglected terms below `10⁻¹⁸`).
const fn zeta_even(s: usize) -> f64 {
    let pi2 = core::f64::consts::PI * core::f64::consts::PI;
    match s {
        2 => pi2 / 6.0,
        4 => pi2 * pi2 / 90.0,
        6 => pi2 * pi2 * pi2 / 945.0,
        _ => {
            const K: usize = 50;
            let mut sum = 0.0;
            let mut k = 1;
            while k <= K {
                let inv = 1.0 / k as f64;
                let mut p = 1.0;
                let mut i = 0;
                while i < s {
                    p *= inv;
                    i += 1;
                }
                // k = K enters only through the tail formula.
                if k < K {
                    sum += p;
                } else {
                    let sf = s as f64;
                    sum += p * K as f64 / (sf - 1.0) + p / 2.0 + sf * p * inv / 12.0;
                }
                k += 1;
            }
            sum
        }
    }
}

/// `b_m = B_m/m!`, the Taylor coefficients of `x/(eˣ − 1)`: `b₀ = 1`, `b₁ = −½`, odd terms
/// beyond `b₁` zero, and `b_{2n} = (−1)^{n+1} 2 ζ(2n)/(2π)^{2n}` (Euler's formula, which unlike
/// the defining recurrence loses no accuracy as `n` grows).
const fn bernoulli_over_factorial() -> [f64; SERIES_LEN] {
    let mut b = [0.0; SERIES_LEN];
    b[0] = 1.0;
    b[1] = -0.5;
    let two_pi_sq = 4.0 * core::f64::consts::PI * core::f64::consts::PI;
    let mut n = 1;
    let mut power = 1.0;
    while 2 * n < SERIES_LEN {
        power *= two_pi_sq;
        let sign = if n % 2 == 1 { 1.0 } else { -1.0 };
        b[2 * n] = sign * 2.0 * zeta_even(2 * n) / power;
        n += 1;
    }
    b
}

/// `B_k/k!` (Bernoulli numbers with `B₁ = −½`): the coefficients of `dexp⁻¹ = Σ b_k ad^k`.
pub const BERNOULLI_OVER_FACTORIAL: [f64; SERIES_LEN] = bernoulli_over_factorial();

/// `(−1)^k/(2k+j)!` for `j ≤ 5`, `k < SERIES_TERMS`: the Taylor coefficients of `S_j`.
const fn remainder_coefficients() -> [[f64; SERIES_TERMS]; 6] {
    let mut out = [[0.0; SERIES_TERMS]; 6];
    let mut j = 0;
    while j < 6 {
        let mut k = 0;
        while k < SERIES_TERMS {
            let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
            out[j][k] = sign * INV_FACTORIAL[2 * k + j];
            k += 1;
        }
        j += 1;
    }
    out
}

const REMAINDER_COEFFICIENTS: [[f64; SERIES_TERMS]; 6] = remainder_coefficients();

/// `|b_{2k+2}|`, the Taylor coefficients of `C(θ)` in `θ²`.
const fn dexp_inv_coefficients() -> [f64; SERIES_TERMS] {
    let mut out = [0.0; SERIES_TERMS];
    let mut k = 0;
    while k < SERIES_TERMS {
        let b = BERNOULLI_OVER_FACTORIAL[2 * k + 2];
        out[k] = if b < 0.0 { -b } else { b };
        k += 1;
    }
    out
}

const DEXP_INV_COEFFICIENTS: [f64; SERIES_TERMS] = dexp_inv_coefficients();

/// `Σ_{k<N} c_k x^k` as four interleaved Horner chains in `x⁴`
/// (`p = P₀(x⁴) + x P₁(x⁴) + x²(P₂(x⁴) + x P₃(x⁴))`, `P_r` collecting `c_{4m+r}`).
///
/// The four chains are independent, so the dependency chain is a quarter of plain Horner's,
/// and with `N` fixed the loops unroll to straight-line code with no branch or bounds check:
/// the series of the hot paths of the lifted integrators (one `dexp⁻¹` and one exponential per
/// evaluation) cost a few nanoseconds.
#[inline(always)]
fn polynomial<T: Real, const N: usize>(x: T, coefficients: &[f64; N]) -> T {
    let coefficient = |i: usize| real::<T>(if i < N { coefficients[i] } else { 0.0 });
    let x2 = x * x;
    let x4 = x2 * x2;
    // Each chain starts at its leading coefficient (not at 0·x⁴ + c, which is not foldable).
    let top = N.saturating_sub(1) / 4;
    let mut chains: [T; 4] = std::array::from_fn(|r| coefficient(4 * top + r));
    for m in (0..top).rev() {
        for (r, chain) in chains.iter_mut().enumerate() {
            *chain = *chain * x4 + coefficient(4 * m + r);
        }
    }
    let [p0, p1, p2, p3] = chains;
    (p0 + x * p1) + x2 * (p2 + x * p3)
}

/// The first `N` entries of a coefficient table, at compile time.
const fn leading<const N: usize>(table: &[f64; SERIES_TERMS]) -> [f64; N] {
    let mut out = [0.0; N];
    let mut k = 0;
    while k < N {
        out[k] = table[k];
        k += 1;
    }
    out
}

/// Taylor terms of `S₀ … S₅` below [`SMALL_ANGLE_SQ`]: the first omitted term is below
/// `x⁹/18! < 10⁻²¹`.
const SMALL_SERIES: [[f64; SMALL_TERMS]; 6] = [
    leading(&REMAINDER_COEFFICIENTS[0]),
    leading(&REMAINDER_COEFFICIENTS[1]),
    leading(&REMAINDER_COEFFICIENTS[2]),
    leading(&REMAINDER_COEFFICIENTS[3]),
    leading(&REMAINDER_COEFFICIENTS[4]),
    leading(&REMAINDER_COEFFICIENTS[5]),
];

/// Below this value of `θ²` the cosine and `sin θ/θ` of [`cos_sinc`] need only their first
/// four Taylor terms (the first omitted term is below `x⁴/8! < 3·10⁻²¹`, far below half an ulp
/// of the leading 1).
pub const TINY_ANGLE_SQ: f64 = 1e-4;

/// The first four Taylor terms of `S₀` and `S₁` (see [`TINY_ANGLE_SQ`]).
const TINY_SERIES: [[f64; 4]; 2] = [
    leading(&REMAINDER_COEFFICIENTS[0]),
    leading(&REMAINDER_COEFFICIENTS[1]),
];

/// Taylor terms of `C(θ)` on the tiers of [`dexp_inv_coefficient`]: the terms fall like
/// `(x/4π²)^k`, so 8 terms reach `10⁻¹⁸` for `x < 1/4` and 12 terms for `x < 1`.
const DEXP_INV_SMALL: [f64; 8] = leading(&DEXP_INV_COEFFICIENTS);
const DEXP_INV_MEDIUM: [f64; 12] = leading(&DEXP_INV_COEFFICIENTS);

/// Horner evaluation of `Σ_{k<n} c(k) x^k` with coefficients given as `f64`.
#[inline(always)]
fn horner<T: Real>(x: T, n: usize, c: impl Fn(usize) -> f64) -> T {
    let mut acc = T::zero();
    for k in (0..n).rev() {
        acc = acc * x + real::<T>(c(k));
    }
    acc
}

/// `S₀(θ) = cos θ`, `S₁(θ) = sin θ/θ` and `S₂(θ) = (1 − cos θ)/θ²` at `x = θ²`.
///
/// # Examples
/// ```
/// let (c, s1, s2) = lieode::lie::series::cos_sinc_versinc(0.25_f64);
/// assert!((c - 0.5_f64.cos()).abs() < 1e-16 && (s1 - 0.5_f64.sin() / 0.5).abs() < 1e-16);
/// assert!((s2 - (1.0 - 0.5_f64.cos()) / 0.25).abs() < 1e-15);
/// ```
#[inline]
pub fn cos_sinc_versinc<T: Real>(x: T) -> (T, T, T) {
    if x < real(SMALL_ANGLE_SQ) {
        (
            polynomial(x, &SMALL_SERIES[0]),
            polynomial(x, &SMALL_SERIES[1]),
            polynomial(x, &SMALL_SERIES[2]),
        )
    } else {
        let theta = x.sqrt();
        let (sin, cos) = theta.sin_cos();
        // 1 − cos θ without cancellation: sin²θ/(1 + cos θ) while cos θ > 0.
        let versin = if cos > T::zero() {
            sin * sin / (T::one() + cos)
        } else {
            T::one() - cos
        };
        (cos, sin / theta, versin / x)
    }
}

/// `S₀(θ) = cos θ` and `S₁(θ) = sin θ/θ` at `x = θ²` (what the unit-quaternion exponential
/// needs), with the same branches as [`cos_sinc_versinc`].
///
/// The tiny-angle branch, where the per-step rotations of the rigid-body steppers live
/// (|θ| ≲ 1e-2), is inlined into the caller; the others are a call away, so that a stepper's
/// step is not split by a function call (which spills every live floating-point register).
#[inline(always)]
pub fn cos_sinc<T: Real>(x: T) -> (T, T) {
    if x < real(TINY_ANGLE_SQ) {
        (
            polynomial(x, &TINY_SERIES[0]),
            polynomial(x, &TINY_SERIES[1]),
        )
    } else {
        cos_sinc_beyond_tiny(x)
    }
}

/// [`cos_sinc`] for `x ≥ TINY_ANGLE_SQ`.
#[inline(never)]
fn cos_sinc_beyond_tiny<T: Real>(x: T) -> (T, T) {
    if x < real(SMALL_ANGLE_SQ) {
        (
            polynomial(x, &SMALL_SERIES[0]),
            polynomial(x, &SMALL_SERIES[1]),
        )
    } else {
        let theta = x.sqrt();
        let (sin, cos) = theta.sin_cos();
        (cos, sin / theta)
    }
}

/// `S₃(θ) = (θ − sin θ)/θ³`, `S₄(θ) = (cos θ − 1 + θ²/2)/θ⁴` and
/// `S₅(θ) = (sin θ − θ + θ³/6)/θ⁵` at `x = θ²`.
#[inline]
pub fn higher_remainders<T: Real>(x: T) -> (T, T, T) {
    if x < real(SMALL_ANGLE_SQ) {
        (
            polynomial(x, &SMALL_SERIES[3]),
            polynomial(x, &SMALL_SERIES[4]),
            polynomial(x, &SMALL_SERIES[5]),
        )
    } else if x < real(SERIES_ANGLE_SQ) {
        (
            polynomial(x, &REMAINDER_COEFFICIENTS[3]),
            polynomial(x, &REMAINDER_COEFFICIENTS[4]),
            polynomial(x, &REMAINDER_COEFFICIENTS[5]),
        )
    } else {
        // S_j = (1/(j−2)! − S_{j−2}) / θ², started from S₁ and S₂.
        let (_, s1, s2) = cos_sinc_versinc(x);
        let s3 = (T::one() - s1) / x;
        let s4 = (real::<T>(0.5) - s2) / x;
        let s5 = (real::<T>(1.0 / 6.0) - s3) / x;
        (s3, s4, s5)
    }
}

/// The dexp⁻¹ coefficient on so(3): `C(θ) = (1 − (θ/2) cot(θ/2))/θ² = Σ_{n≥1} |b_{2n}| θ^{2n−2}`
/// at `x = θ²`, so that `dexp⁻¹_θ v = v − ½ θ×v + C(θ) θ×(θ×v)`. Singular at `θ = 2π`.
///
/// # Examples
/// ```
/// let c = lieode::lie::series::dexp_inv_coefficient(0.0_f64);
/// assert!((c - 1.0 / 12.0).abs() < 1e-16);
/// ```
#[inline]
pub fn dexp_inv_coefficient<T: Real>(x: T) -> T {
    if x < real(SERIES_ANGLE_SQ) {
        // Terms fall like (x/4π²)^k: fewer suffice for small angles.
        if x < real(SMALL_ANGLE_SQ) {
            polynomial(x, &DEXP_INV_SMALL)
        } else if x < real(1.0) {
            polynomial(x, &DEXP_INV_MEDIUM)
        } else {
            polynomial(x, &DEXP_INV_COEFFICIENTS)
        }
    } else {
        let half = x.sqrt() * real(0.5);
        let (sin, cos) = half.sin_cos();
        (T::one() - half * cos / sin) / x
    }
}

const fn asin_over_x_coefficients() -> [f64; ASIN_TERMS] {
    let mut c = [0.0; ASIN_TERMS];
    c[0] = 1.0;
    let mut k = 1;
    while k < ASIN_TERMS {
        let kf = k as f64;
        c[k] = c[k - 1] * (2.0 * kf - 1.0) * (2.0 * kf - 1.0) / (2.0 * kf * (2.0 * kf + 1.0));
        k += 1;
    }
    c
}

const ASIN_TERMS: usize = 12;
const ASIN_OVER_X: [f64; ASIN_TERMS] = asin_over_x_coefficients();

/// Below this value of `s²` [`asin_over_x`] uses its Taylor series (twelve terms: exact to
/// round-off for `s < 0.1`).
pub const ASIN_SERIES_SQ: f64 = 1e-2;

/// `asin(s)/s` at `y = s²`, for `0 ≤ s ≤ 1`: the factor `θ/sin θ` that turns `sin θ · n`
/// into `θ n` in the logarithms of SO(3) and SU(2) near the identity.
///
/// Series `Σ C(2k,k) s^{2k} / (4^k (2k+1))` below [`ASIN_SERIES_SQ`]; closed form above.
///
/// # Examples
/// ```
/// let v = lieode::lie::series::asin_over_x(0.25_f64);
/// assert!((v - 0.5_f64.asin() / 0.5).abs() < 1e-16);
/// ```
#[inline]
pub fn asin_over_x<T: Real>(y: T) -> T {
    if y < real(ASIN_SERIES_SQ) {
        horner(y, ASIN_TERMS, |k| ASIN_OVER_X[k])
    } else {
        let s = y.sqrt();
        s.asin() / s
    }
}

/// How `dexp⁻¹` is evaluated inside an integrator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Truncation {
    /// The group's exact (closed-form where one exists) `dexp⁻¹`.
    Exact,
    /// The Bernoulli series `Σ_{k=0}^{max_power} b_k ad^k` (terms up to `ad^{max_power}`).
    Series {
        /// The highest power of `ad` kept.
        max_power: usize,
    },
    /// `dexp⁻¹ ≈ id` (the zeroth term only).
    Identity,
}

impl Truncation {
    /// The cheapest truncation that keeps an order-`p` Munthe-Kaas method at order `p`:
    /// terms up to `ad^{p−2}` (Iserles et al. 2000, Thm. 2.1; `algorithms.md` §5).
    ///
    /// # Examples
    /// ```
    /// use lieode::lie::Truncation;
    /// assert_eq!(Truncation::for_order(4), Truncation::Series { max_power: 2 });
    /// assert_eq!(Truncation::for_order(2), Truncation::Series { max_power: 0 });
    /// ```
    pub fn for_order(order: usize) -> Self {
        Truncation::Series {
            max_power: order.saturating_sub(2),
        }
    }
}

/// `Σ_{k=0}^{max_power} c_k ad_θ^k v` by repeated brackets.
fn ad_series<A: LieAlgebra>(theta: &A, v: &A, max_power: usize, c: impl Fn(usize) -> f64) -> A {
    let mut term = *v;
    let mut sum = v.scale(real(c(0)));
    for k in 1..=max_power {
        term = theta.bracket(&term);
        let ck = c(k);
        if ck != 0.0 {
            sum = sum.axpy(real(ck), &term);
        }
    }
    sum
}

/// The truncated Bernoulli series `dexp⁻¹_θ v ≈ Σ_{k=0}^{max_power} b_k ad_θ^k v`
/// `= v − ½[θ, v] + 1/12 [θ, [θ, v]] − 1/720 ad_θ⁴ v + …`.
///
/// `max_power` is capped at `SERIES_LEN − 1`.
pub fn dexp_inv_series<A: LieAlgebra>(theta: &A, v: &A, max_power: usize) -> A {
    ad_series(theta, v, max_power.min(SERIES_LEN - 1), |k| {
        BERNOULLI_OVER_FACTORIAL[k]
    })
}

/// The truncated series `dexp_θ v ≈ Σ_{k=0}^{max_power} ad_θ^k v/(k+1)!`.
///
/// `max_power` is capped at `SERIES_LEN − 2`.
pub fn dexp_series<A: LieAlgebra>(theta: &A, v: &A, max_power: usize) -> A {
    ad_series(theta, v, max_power.min(SERIES_LEN - 2), |k| {
        INV_FACTORIAL[k + 1]
    })
}

/// The truncated series `exp(ad_θ) v ≈ Σ_{k=0}^{max_power} ad_θ^k v/k!`, which equals
/// `Ad_{exp θ} v` in the limit.
///
/// `max_power` is capped at `SERIES_LEN − 1`.
pub fn exp_ad_series<A: LieAlgebra>(theta: &A, v: &A, max_power: usize) -> A {
    ad_series(theta, v, max_power.min(SERIES_LEN - 1), |k| {
        INV_FACTORIAL[k]
    })
}

/// Boyle's exact summation of a power series in `ad_θ`.
///
/// If `ad_θ^K = Σ_{k<K} r_k ad_θ^k` (`relation = [r_0, …, r_{K−1}]`), then
/// `Σ_{j≥0} c_j ad_θ^j = Σ_{k<K} β_k ad_θ^k` with `β = Σ_j c_j ρ_j`, where `ρ_j` are the
/// coordinates of `x^j mod (x^K − Σ r_k x^k)`. This returns `β`, summing until the terms fall
/// below `tolerance · |β|` (at least `K` terms and at most `SERIES_LEN`, the length of the
/// coefficient tables).
///
/// On so(3), `ad_θ³ = −|θ|² ad_θ` (`relation = [0, −|θ|², 0]`); with `c_j = b_j` this gives
/// `β = (1, −½, C(θ))`, the closed form of `dexp⁻¹` (Boyle 2017, Eq. 16 and §V).
///
/// # Errors
/// [`Error::NonConvergence`] if the terms are still above the tolerance after `SERIES_LEN`
/// of them (the series diverges where `ad_θ` has an eigenvalue of modulus ≥ 2π);
/// [`Error::InvalidParameter`] for a negative or non-finite tolerance.
///
/// # Examples
/// ```
/// use lieode::lie::series::{reduced_series_coefficients, BERNOULLI_OVER_FACTORIAL, dexp_inv_coefficient};
/// let theta2 = 0.49_f64;
/// let beta = reduced_series_coefficients(|j| BERNOULLI_OVER_FACTORIAL[j], [0.0, -theta2, 0.0], 1e-16).unwrap();
/// assert!((beta[2] - dexp_inv_coefficient(theta2)).abs() < 1e-15);
/// ```
pub fn reduced_series_coefficients<T: Real, const K: usize>(
    coefficient: impl Fn(usize) -> f64,
    relation: [T; K],
    tolerance: f64,
) -> Result<[T; K]> {
    super::check_tolerance("tolerance", tolerance)?;
    let mut beta = [T::zero(); K];
    // rho = coordinates of x^j mod the relation; starts at x^0.
    let mut rho = [T::zero(); K];
    if K == 0 {
        return Ok(beta);
    }
    rho[0] = T::one();
    let mut quiet = 0;
    for j in 0..SERIES_LEN {
        let cj = real::<T>(coefficient(j));
        let mut term_norm = T::zero();
        for k in 0..K {
            let t = cj * rho[k];
            beta[k] += t;
            term_norm += t.abs();
        }
        let beta_norm = beta.iter().fold(T::zero(), |acc, b| acc + b.abs());
        // Several consecutive small terms: coefficient sequences may have isolated zeros.
        if j >= K && term_norm <= beta_norm * real(tolerance) {
            quiet += 1;
            if quiet >= 2 {
                return Ok(beta);
            }
        } else {
            quiet = 0;
        }
        // rho ← x · rho reduced by the relation.
        let top = rho[K - 1];
        for k in (1..K).rev() {
            rho[k] = rho[k - 1] + top * relation[k];
        }
        rho[0] = top * relation[0];
    }
    Err(Error::NonConvergence {
        context: "reduced ad-series summation".into(),
        iterations: SERIES_LEN,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bernoulli_numbers_match_the_textbook_values() {
        // B_k as exact rationals (Abramowitz & Stegun, Table 23.2), divided by k!.
        let known = [
            (0, 1.0),
            (1, -0.5),
            (2, 1.0 / 6.0),
            (4, -1.0 / 30.0),
            (6, 1.0 / 42.0),
            (8, -1.0 / 30.0),
            (10, 5.0 / 66.0),
            (12, -691.0 / 2730.0),
            (14, 7.0 / 6.0),
            (16, -3617.0 / 510.0),
            (18, 43867.0 / 798.0),
            (20, -174611.0 / 330.0),
        ];
        for (k, bk) in known {
            let expected = bk * INV_FACTORIAL[k];
            let got = BERNOULLI_OVER_FACTORIAL[k];
            assert!(
                ((got - expected) / expected).abs() < 4e-16,
                "b_{k}: {got:e} vs {expected:e}"
            );
        }
        for k in (3..SERIES_LEN).step_by(2) {
            assert_eq!(BERNOULLI_OVER_FACTORIAL[k], 0.0);
        }
    }

    #[test]
    fn remainders_match_closed_forms_on_both_sides_of_the_thresholds() {
        for theta in [
            1e-9,
            1e-3,
            SMALL_ANGLE_SQ.sqrt() * (1.0 - 1e-9),
            SMALL_ANGLE_SQ.sqrt() * (1.0 + 1e-9),
            1.0,
            SERIES_ANGLE_SQ.sqrt() - 1e-9,
            SERIES_ANGLE_SQ.sqrt() + 1e-9,
            3.0,
            std::f64::consts::PI,
        ] {
            let x = theta * theta;
            let (c, s1, s2) = cos_sinc_versinc(x);
            assert!((c - theta.cos()).abs() < 1e-15);
            assert!((s1 - theta.sin() / theta).abs() < 1e-15);
            let s2_ref = 2.0 * (theta / 2.0).sin().powi(2) / x;
            assert!((s2 - s2_ref).abs() < 1e-15 * s2_ref.abs());
            // Cancellation-free references: the Taylor series summed in extended order.
            let (s3, s4, s5) = higher_remainders(x);
            let tay = |j: usize| -> f64 {
                (0..30).rev().fold(0.0, |acc, k| {
                    acc * x
                        + (-1f64).powi(k as i32) * (1..=2 * k + j).fold(1.0, |f, i| f / i as f64)
                })
            };
            for (got, j) in [(s3, 3), (s4, 4), (s5, 5)] {
                let want = tay(j);
                assert!(
                    ((got - want) / want).abs() < 2e-14,
                    "S_{j}({theta}) = {got:e} vs {want:e}"
                );
            }
            let cdi = dexp_inv_coefficient(x);
            // Closed form where it has no severe cancellation, leading Taylor terms below.
            let closed = if theta > 0.1 {
                (1.0 - (theta / 2.0) / (theta / 2.0).tan()) / x
            } else {
                1.0 / 12.0 + x / 720.0 + x * x / 30240.0 + x * x * x / 1209600.0
            };
            assert!(((cdi - closed) / closed).abs() < 1e-12, "C({theta})");
        }
    }

    #[test]
    fn reduced_summation_diverges_beyond_two_pi() {
        let theta2 = (7.0_f64).powi(2);
        let err = reduced_series_coefficients(
            |j| BERNOULLI_OVER_FACTORIAL[j],
            [0.0, -theta2, 0.0],
            1e-15,
        )
        .unwrap_err();
        assert!(matches!(err, Error::NonConvergence { .. }));
        let bad = reduced_series_coefficients(|j| INV_FACTORIAL[j], [0.0, -1.0, 0.0], f64::NAN);
        assert!(matches!(bad, Err(Error::NonFinite { name: "tolerance" })));
        let negative = reduced_series_coefficients(|j| INV_FACTORIAL[j], [0.0, -1.0, 0.0], -1.0);
        assert!(matches!(
            negative,
            Err(Error::InvalidParameter {
                name: "tolerance",
                ..
            })
        ));
    }
}
