//! Closed-form rotations of Boyle's paper (M. Boyle, *The integration of angular velocity*,
//! Adv. Appl. Clifford Algebras 27 (2017) 2345–2374, arXiv:1604.08139) with their angular
//! velocities, and the frame error norm δ of its Eq. (25).
//!
//! | problem | rotor | span |
//! |---|---|---|
//! | [`PrecessingBinary::paper`] | `R0 · R1 R4 R1⁻¹ · R3 R2 R3⁻¹ · R1` (Eqs. 26–27) | `[0, 10⁶]` |
//! | [`NumpyQuaternionBinary`] | numpy-quaternion's test binary | `[0, 10⁴]` |
//! | [`ZupanSaje`] (four) | `exp(r(t))`, Appendix / Fig. 5 | `[0, 100]` or `[0, 10]` |
//!
//! Rotors are quaternions, scalar first; `exp(θ v/2)` of a unit axis `v` is
//! `(cos(θ/2), sin(θ/2) v)`, the rotation by `θ` about `v`. The rotors and their derivatives are
//! scalar-generic ([`Real`]), so a dual-number time gives an independent derivative.

use nalgebra::{Matrix3, Quaternion, Vector3};

use crate::body::quaternion::rotation_matrix;
use crate::error::{Error, Result};
use crate::lie::{Real, real, to_f64};

/// A rotation known in closed form: the rotor `R(t)`, its derivative and the angular velocity
/// `ω = 2 Ṙ R⁻¹` (Boyle Eq. 9).
pub trait ExactRotation {
    /// The unit rotor `R(t)`.
    fn rotor(&self, t: f64) -> Quaternion<f64>;

    /// `Ṙ(t)` in closed form.
    fn rotor_derivative(&self, t: f64) -> Quaternion<f64>;

    /// The time interval the paper integrates over.
    fn span(&self) -> (f64, f64);

    /// The inertial-frame angular velocity `ω = 2 Ṙ R⁻¹` (the vector part; the scalar part is
    /// zero for a unit rotor).
    fn omega(&self, t: f64) -> Vector3<f64> {
        let r = self.rotor(t);
        (self.rotor_derivative(t) * r.conjugate() * 2.0).imag()
    }

    /// The body-frame angular velocity `ω_b = R⁻¹ ω R = 2 R⁻¹ Ṙ`.
    fn omega_body(&self, t: f64) -> Vector3<f64> {
        let r = self.rotor(t);
        (r.conjugate() * self.rotor_derivative(t) * 2.0).imag()
    }

    /// The exact rotated frame `e_i = R f_i R⁻¹` as the columns of a matrix.
    fn frame(&self, t: f64) -> Matrix3<f64> {
        rotation_matrix(&self.rotor(t))
    }
}

/// `exp(θ v/2) = (cos(θ/2), sin(θ/2) v)` for a unit axis `v`.
#[inline]
fn axis_rotor<T: Real>(theta: T, axis: &Vector3<f64>) -> Quaternion<T> {
    let half = theta * real::<T>(0.5);
    let (s, c) = half.sin_cos();
    Quaternion::new(
        c,
        s * real::<T>(axis.x),
        s * real::<T>(axis.y),
        s * real::<T>(axis.z),
    )
}

/// One factor `exp(θ(t) v/2)` of a product rotor: the angle, its rate and the axis.
type Factor<T> = (T, T, Vector3<f64>);

/// `R = Π_k exp(θ_k v_k/2)` and `Ṙ = Σ_k (Π_{j<k} F_j) (θ̇_k v_k/2) F_k (Π_{j>k} F_j)` (the
/// product rule of Boyle Eqs. 22–23: each factor rotates about a fixed axis).
fn product_with_derivative<T: Real>(factors: &[Factor<T>]) -> (Quaternion<T>, Quaternion<T>) {
    let rotors: Vec<Quaternion<T>> = factors.iter().map(|(a, _, v)| axis_rotor(*a, v)).collect();
    let mut value = Quaternion::new(T::one(), T::zero(), T::zero(), T::zero());
    let mut derivative = Quaternion::new(T::zero(), T::zero(), T::zero(), T::zero());
    for (q, (_, rate, v)) in rotors.iter().zip(factors) {
        // d/dt of the product so far, then the new factor.
        let generator = Quaternion::new(
            T::zero(),
            *rate * real::<T>(0.5 * v.x),
            *rate * real::<T>(0.5 * v.y),
            *rate * real::<T>(0.5 * v.z),
        );
        derivative = derivative * *q + value * (generator * *q);
        value *= *q;
    }
    (value, derivative)
}

/// Boyle's precessing and nutating binary (§VI B, Eqs. 26–28):
///
/// `R = R0 · R1 R4 R1⁻¹ · R3 R2 R3⁻¹ · R1`, `R1 = exp(Ω_orb t z/2)`, `R2 = exp((α + α̇ t) x/2)`,
/// `R3 = exp(Ω_prec t z/2)`, `R4 = exp(ν x/2)`, `R0 = exp(−3α x/10)`
///
/// — a fast orbit, a precession around a widening cone and a nutation at the orbital frequency.
/// `R0` is given as an angle about `x`: `R0 = exp(angle_0 x/2)` with `angle_0 = −3α/5`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrecessingBinary {
    /// `Ω_orb`.
    pub omega_orb: f64,
    /// `Ω_prec`.
    pub omega_prec: f64,
    /// `α`.
    pub alpha: f64,
    /// `α̇`.
    pub alpha_dot: f64,
    /// `ν`.
    pub nu: f64,
    /// The angle of `R0` about `x` (`R0 = exp(angle_0 x/2)`).
    pub angle_0: f64,
    /// The end of the span.
    pub t_end: f64,
}

impl PrecessingBinary {
    /// The paper's constants (Eq. 27): `Ω_orb = 2π/1000`, `Ω_prec = 2π/10000`, `α = π/8`,
    /// `α̇ = 2α/100000`, `ν = π/80`, `R0 = exp(−3αx/10)`, `t ∈ [0, 10⁶]`.
    pub fn paper() -> Self {
        let alpha = std::f64::consts::PI / 8.0;
        Self {
            omega_orb: std::f64::consts::TAU / 1000.0,
            omega_prec: std::f64::consts::TAU / 10_000.0,
            alpha,
            alpha_dot: 2.0 * alpha / 100_000.0,
            nu: std::f64::consts::PI / 80.0,
            angle_0: -3.0 * alpha / 5.0,
            t_end: 1e6,
        }
    }

    /// `(R, Ṙ)` at a scalar time (dual numbers give the derivative independently).
    pub fn rotor_and_derivative<T: Real>(&self, t: T) -> (Quaternion<T>, Quaternion<T>) {
        let (x, z) = (Vector3::x(), Vector3::z());
        let c = |v: f64| real::<T>(v);
        let orbit = t * c(self.omega_orb);
        let precession = t * c(self.omega_prec);
        product_with_derivative(&[
            (c(self.angle_0), T::zero(), x),
            (orbit, c(self.omega_orb), z),
            (c(self.nu), T::zero(), x),
            (-orbit, -c(self.omega_orb), z),
            (precession, c(self.omega_prec), z),
            (c(self.alpha) + t * c(self.alpha_dot), c(self.alpha_dot), x),
            (-precession, -c(self.omega_prec), z),
            (orbit, c(self.omega_orb), z),
        ])
    }
}

impl ExactRotation for PrecessingBinary {
    fn rotor(&self, t: f64) -> Quaternion<f64> {
        self.rotor_and_derivative(t).0
    }
    fn rotor_derivative(&self, t: f64) -> Quaternion<f64> {
        self.rotor_and_derivative(t).1
    }
    fn span(&self) -> (f64, f64) {
        (0.0, self.t_end)
    }
}

/// The precessing binary as numpy-quaternion's test suite defines it (T = 10⁴,
/// `Ω_orb = 2π·100/T`, `Ω_prec = 2π·10/T`, `α = π/8`, `α̇ = 2α/T`, `ν = 0.2α`, `Ω_ν = Ω_prec`,
/// `R0 = exp(−1.1α x/2)`):
///
/// `R = R0 exp(Ω_prec t z/2) exp((α + α̇t) x/2) exp(−Ω_prec t z/2) exp(Ω_orb t z/2) exp(ν cos(Ω_ν t) y/2)`.
///
/// Its test requires `max 2|log(R_exact R⁻¹)| < 1e-10` for a rotor + DOP853 run at tolerance
/// `1e-12`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NumpyQuaternionBinary {
    /// `T`, the end of the span.
    pub t_end: f64,
}

impl Default for NumpyQuaternionBinary {
    /// `T = 10⁴`.
    fn default() -> Self {
        Self { t_end: 1e4 }
    }
}

impl NumpyQuaternionBinary {
    /// `(R, Ṙ)` at a scalar time.
    pub fn rotor_and_derivative<T: Real>(&self, t: T) -> (Quaternion<T>, Quaternion<T>) {
        let big_t = self.t_end;
        let omega_orb = std::f64::consts::TAU * 100.0 / big_t;
        let omega_prec = std::f64::consts::TAU * 10.0 / big_t;
        let alpha = std::f64::consts::PI / 8.0;
        let alpha_dot = 2.0 * alpha / big_t;
        let nu = 0.2 * alpha;
        let omega_nu = omega_prec;
        let c = |v: f64| real::<T>(v);
        let (x, y, z) = (Vector3::x(), Vector3::y(), Vector3::z());
        let nutation = (t * c(omega_nu)).cos() * c(nu);
        let nutation_rate = -(t * c(omega_nu)).sin() * c(nu * omega_nu);
        product_with_derivative(&[
            (c(-1.1 * alpha), T::zero(), x),
            (t * c(omega_prec), c(omega_prec), z),
            (c(alpha) + t * c(alpha_dot), c(alpha_dot), x),
            (-(t * c(omega_prec)), c(-omega_prec), z),
            (t * c(omega_orb), c(omega_orb), z),
            (nutation, nutation_rate, y),
        ])
    }
}

impl ExactRotation for NumpyQuaternionBinary {
    fn rotor(&self, t: f64) -> Quaternion<f64> {
        self.rotor_and_derivative(t).0
    }
    fn rotor_derivative(&self, t: f64) -> Quaternion<f64> {
        self.rotor_and_derivative(t).1
    }
    fn span(&self) -> (f64, f64) {
        (0.0, self.t_end)
    }
}

/// The four Zupan–Saje rotations of Boyle's Appendix (Fig. 5): `R = exp(r(t))` with the
/// generator (`r = ϑ/2`, half Zupan and Saje's rotation vector)
///
/// | example | `2 r(t)` | span |
/// |---|---|---|
/// | 1 | `(sin²2t, 0, cos 2t)` | `[0, 100]` |
/// | 2 | `(sin²2t, cos t + 0.08 sin 100t, sin t + 0.08 cos 100t)` | `[0, 10]` |
/// | 3 | `(2 + sin²2t, t, 5t³ − 4t)` | `[0, 10]` |
/// | 4 | `(sin²2t, 0, sin t + 0.08 cos 100t)` | `[0, 100]` |
///
/// and the angular velocity of Boyle's Eq. (17),
/// `ω = 2ṙ + (sin²|r|/|r|²)[r, ṙ] + ((|r| − sin|r| cos|r|)/(2|r|³))[r, [r, ṙ]]` with
/// `[a, b] = 2 a × b`.
///
/// The spans are our reading of Fig. 5, whose extracted text is garbled: the paper says the
/// lower-right panel holds the unboundedly growing generator (example 3) and the upper-right and
/// lower-left the "vibrational" ones (2 and 4); the panels' spans then read `[0, 100]` for
/// examples 1 and 4 and `[0, 10]` for 2 and 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZupanSaje {
    example: u8,
}

impl ZupanSaje {
    /// The four examples.
    pub const ALL: [ZupanSaje; 4] = [
        ZupanSaje { example: 1 },
        ZupanSaje { example: 2 },
        ZupanSaje { example: 3 },
        ZupanSaje { example: 4 },
    ];

    /// Example `1 … 4`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `example` outside `1 … 4`.
    pub fn new(example: usize) -> Result<Self> {
        if !(1..=4).contains(&example) {
            return Err(Error::InvalidParameter {
                name: "example",
                value: example.to_string(),
                expected: "1, 2, 3 or 4".into(),
            });
        }
        Ok(Self {
            example: example as u8,
        })
    }

    /// `zupan_saje_<k>`, for file names.
    pub fn name(&self) -> String {
        format!("zupan_saje_{}", self.example)
    }

    /// The generator as the figure's title gives it.
    pub fn description(&self) -> &'static str {
        match self.example {
            1 => "r = (sin²2t, 0, cos 2t)/2",
            2 => "r = (sin²2t, cos t + 0.08 sin 100t, sin t + 0.08 cos 100t)/2",
            3 => "r = (2 + sin²2t, t, 5t³ − 4t)/2",
            _ => "r = (sin²2t, 0, sin t + 0.08 cos 100t)/2",
        }
    }

    /// `r(t)` at a scalar time.
    pub fn generator_at<T: Real>(&self, t: T) -> Vector3<T> {
        let c = |v: f64| real::<T>(v);
        let s2 = (t * c(2.0)).sin();
        let sin2 = s2 * s2;
        let v = match self.example {
            1 => Vector3::new(sin2, T::zero(), (t * c(2.0)).cos()),
            2 => Vector3::new(
                sin2,
                t.cos() + (t * c(100.0)).sin() * c(0.08),
                t.sin() + (t * c(100.0)).cos() * c(0.08),
            ),
            3 => Vector3::new(c(2.0) + sin2, t, t * t * t * c(5.0) - t * c(4.0)),
            _ => Vector3::new(sin2, T::zero(), t.sin() + (t * c(100.0)).cos() * c(0.08)),
        };
        v * c(0.5)
    }

    /// `ṙ(t)` in closed form.
    pub fn generator_derivative(&self, t: f64) -> Vector3<f64> {
        let sin4 = (4.0 * t).sin();
        let v = match self.example {
            1 => Vector3::new(2.0 * sin4, 0.0, -2.0 * (2.0 * t).sin()),
            2 => Vector3::new(
                2.0 * sin4,
                -t.sin() + 8.0 * (100.0 * t).cos(),
                t.cos() - 8.0 * (100.0 * t).sin(),
            ),
            3 => Vector3::new(2.0 * sin4, 1.0, 15.0 * t * t - 4.0),
            _ => Vector3::new(2.0 * sin4, 0.0, t.cos() - 8.0 * (100.0 * t).sin()),
        };
        v * 0.5
    }
}

/// `exp(r) = (cos|r|, sin|r| r/|r|)` of a pure quaternion, at any scalar.
fn exp_generator<T: Real>(r: &Vector3<T>) -> Quaternion<T> {
    let n = r.norm();
    let sinc = if to_f64(n) < 1e-8 {
        T::one() - n * n / real::<T>(6.0)
    } else {
        n.sin() / n
    };
    Quaternion::new(n.cos(), r.x * sinc, r.y * sinc, r.z * sinc)
}

/// `x − sin x`, without cancellation for small `x` (its series below 1).
fn x_minus_sin(x: f64) -> f64 {
    if x.abs() >= 1.0 {
        return x - x.sin();
    }
    // x³/3! − x⁵/5! + x⁷/7! − …
    let (mut term, mut sum, mut k): (f64, f64, f64) = (x * x * x / 6.0, 0.0, 3.0);
    while term.abs() > 1e-18 * sum.abs().max(f64::MIN_POSITIVE) {
        sum += term;
        term *= -x * x / ((k + 1.0) * (k + 2.0));
        k += 2.0;
    }
    sum
}

/// Boyle's Eq. (17): the angular velocity of `R = exp(r)` from `r` and `ṙ`,
/// `ω = 2ṙ + 2 (sin²|r|/|r|²) r × ṙ + 2 ((|r| − sin|r| cos|r|)/|r|³) r × (r × ṙ)`
/// (the brackets written as `[a, b] = 2 a × b`); exact and finite at `r = 0`.
pub fn omega_from_generator(r: &Vector3<f64>, rdot: &Vector3<f64>) -> Vector3<f64> {
    let n = r.norm();
    let (a, b) = if n < 1e-4 {
        let n2 = n * n;
        (
            1.0 - n2 / 3.0 + 2.0 * n2 * n2 / 45.0,
            2.0 / 3.0 - 2.0 * n2 / 15.0 + 4.0 * n2 * n2 / 315.0,
        )
    } else {
        let sinc = n.sin() / n;
        // |r| − sin|r| cos|r| = (2|r| − sin 2|r|)/2.
        (sinc * sinc, x_minus_sin(2.0 * n) / (2.0 * n * n * n))
    };
    rdot * 2.0 + r.cross(rdot) * (2.0 * a) + r.cross(&r.cross(rdot)) * (2.0 * b)
}

impl ExactRotation for ZupanSaje {
    fn rotor(&self, t: f64) -> Quaternion<f64> {
        exp_generator(&self.generator_at(t))
    }
    fn rotor_derivative(&self, t: f64) -> Quaternion<f64> {
        let w = self.omega(t);
        Quaternion::new(0.0, 0.5 * w.x, 0.5 * w.y, 0.5 * w.z) * self.rotor(t)
    }
    /// Eq. (17) from the closed-form `r` and `ṙ`.
    fn omega(&self, t: f64) -> Vector3<f64> {
        omega_from_generator(&self.generator_at(t), &self.generator_derivative(t))
    }
    fn span(&self) -> (f64, f64) {
        match self.example {
            1 | 4 => (0.0, 100.0),
            _ => (0.0, 10.0),
        }
    }
}

impl ZupanSaje {
    /// `R(t) = exp(r(t))` at a scalar time (for dual-number derivatives).
    pub fn rotor_at<T: Real>(&self, t: T) -> Quaternion<T> {
        exp_generator(&self.generator_at(t))
    }
}

/// Boyle's error norm, Eq. (25): `δ = sqrt(Σ_i ‖e_i − a_i‖²)` over the three frame vectors
/// (the columns), i.e. the Frobenius norm of `E − A`.
pub fn frame_error(exact: &Matrix3<f64>, approximate: &Matrix3<f64>) -> f64 {
    (exact - approximate).norm()
}

/// The frame `R f_i R⁻¹` of a non-zero rotor with the true inverse (its norm drops out):
/// `rotation_matrix(R)/|R|²`.
///
/// # Errors
/// [`Error::NonFinite`] naming `q` for a non-finite entry; [`Error::InvalidParameter`] naming
/// `q` for a zero rotor (or one whose `|q|²` underflows).
pub fn rotor_frame(q: &Quaternion<f64>) -> Result<Matrix3<f64>> {
    if !q.coords.iter().all(|x| x.is_finite()) {
        return Err(Error::NonFinite { name: "q" });
    }
    let largest = q.coords.amax();
    if largest == 0.0 {
        return Err(Error::InvalidParameter {
            name: "q",
            value: "0".into(),
            expected: "a non-zero rotor".into(),
        });
    }
    // Divided by its largest entry first, so that |q|² neither over- nor underflows.
    let scaled = q / largest;
    Ok(rotation_matrix(&scaled) / scaled.norm_squared())
}
