//! The angular-velocity update of the SPIRAL family: any explicit Runge–Kutta tableau on
//! Euler's equations with the torque frozen over the step.
//!
//! SPIRAL (del Valle et al. 2024, Eqs. 9–10) advances the body-frame angular velocity by SSPRK3
//! with the torque evaluated once per step; the paper and the Wikipedia draft both say other
//! integrators can be used instead. [`OmegaIntegrator`] is that choice: built from a tableau of
//! the registry or the user's, it runs the unrolled [`FixedStepStages`] for tableaux of up to
//! four stages (SSPRK3's path, [`FixedStepSsprk3`], among them) and the run-time stage loop
//! [`FixedStepTableau`] for longer ones.

use std::borrow::Cow;

use nalgebra::Vector3;

use crate::body::RigidBody;
use crate::error::{Error, Result};
use crate::lie::{Real, real};
use crate::tableau::ButcherTableau;
use crate::tableau::registry::SSPRK3;

/// The most stages an [`OmegaIntegrator`] tableau may have (the stage values of a step live in
/// a fixed array on the stack; the registry's largest explicit tableau, DOP853, has 12).
pub const MAX_OMEGA_STAGES: usize = 16;

/// The explicit Runge–Kutta method that advances the body-frame angular velocity over one step
/// of a SPIRAL-family stepper, with the torque frozen at its value for the step:
///
/// ```text
/// k_i = ω̇(ω + h Σ_{j<i} a_ij k_j, τ),   ω(t + h) ≈ ω + h Σ_i b_i k_i,
/// ω̇(ω, τ) = J⁻¹τ + κ ⊙ (ω_y ω_z, ω_z ω_x, ω_x ω_y)          (Euler's equations, SPIRAL Eq. 8)
/// ```
///
/// The nodes `c_i` play no part: the frozen torque makes the stages autonomous.
///
/// [`OmegaIntegrator::new`] takes any explicit tableau. With up to four stages (Euler,
/// midpoint, Heun, Ralston, Kutta3, the paper's SSPRK3, RK4, the 3/8 rule, BS32) it runs
/// [`FixedStepStages`], the stage count a compile-time constant and the loops unrolled: the
/// hand-optimised SSPRK3 path the SPIRAL steppers always had ([`FixedStepSsprk3`] is its
/// three-stage instance), now shared by every short tableau. Longer tableaux run
/// [`FixedStepTableau`], whose stage count is known at run time only. Both sum the stage values
/// in the same order (zero coefficients change nothing), so the two paths give the same bits
/// (tested for Heun, Kutta3, SSPRK3 and RK4); the unrolled one is faster. The SPIRAL steppers
/// inline the three-stage maps into their step (SSPRK3's cost per step is what it was) and
/// call the others (`docs/spiral_family.md` gives the costs).
///
/// **What the tableau buys** (measured in `tests/rotation_spiral.rs`; see
/// `docs/spiral_family.md`): for a torque constant in the body frame Euler's equations are an
/// autonomous ODE in ω alone and ω has the tableau's order; the rotor update of SPIRAL is
/// second order whatever ω's accuracy, and a torque that varies along the step is frozen at one
/// point, which limits both ω and q to first order (non-leapfrog) or second order (leapfrog).
///
/// # Examples
/// ```
/// use lieode::rotation::{OmegaIntegrator, RigidBody};
/// use lieode::tableau::registry::{RK4, SSPRK3};
/// use nalgebra::Vector3;
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let rk4 = OmegaIntegrator::new(&RK4)?;
/// assert!(rk4.is_unrolled());
/// assert!(OmegaIntegrator::new(&SSPRK3)?.is_unrolled());
/// assert!(!OmegaIntegrator::general(&SSPRK3)?.is_unrolled());
///
/// // One RK4 step written out, the torque frozen.
/// let (w, tau, h) = (Vector3::new(0.3, -0.9, 0.6), Vector3::new(0.5, 0.0, 0.0), 1e-2);
/// let f = |w: &Vector3<f64>| body.angular_acceleration(w, &tau);
/// let k1 = f(&w);
/// let k2 = f(&(w + k1 * (h / 2.0)));
/// let k3 = f(&(w + k2 * (h / 2.0)));
/// let k4 = f(&(w + k3 * h));
/// let expected = w + (k1 + k2 * 2.0 + k3 * 2.0 + k4) * (h / 6.0);
/// assert!((rk4.advance(&body, &w, &tau, h) - expected).norm() < 1e-15);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct OmegaIntegrator {
    kind: Kind,
    /// The tableau's `a`, row by row (`stages²` entries), and `b`.
    a: Vec<f64>,
    b: Vec<f64>,
    name: Cow<'static, str>,
    order: usize,
}

/// Which code runs the steps.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// [`FixedStepStages`] (at most [`MAX_UNROLLED_STAGES`] stages).
    Unrolled,
    /// [`FixedStepTableau`].
    General,
}

/// The most stages that run on the unrolled [`FixedStepStages`].
pub const MAX_UNROLLED_STAGES: usize = 4;

impl Default for OmegaIntegrator {
    fn default() -> Self {
        Self::ssprk3()
    }
}

impl OmegaIntegrator {
    /// SSPRK3, SPIRAL's own choice (Eqs. 9–10), on the unrolled path.
    pub fn ssprk3() -> Self {
        // The registry's tableaux are validated by the test suite (`tests/tableaux.rs`).
        Self {
            kind: Kind::Unrolled,
            a: SSPRK3.a.to_vec(),
            b: SSPRK3.b.to_vec(),
            name: SSPRK3.name.clone(),
            order: SSPRK3.order,
        }
    }

    /// The integrator of an explicit `tableau`: unrolled for up to [`MAX_UNROLLED_STAGES`]
    /// stages, the run-time stage loop beyond.
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] for a tableau that is not valid or not explicit
    /// ([`ButcherTableau::validate_explicit`]); [`Error::InvalidParameter`] naming `tableau`
    /// for more than [`MAX_OMEGA_STAGES`] stages.
    pub fn new(tableau: &ButcherTableau) -> Result<Self> {
        let mut integrator = Self::general(tableau)?;
        if tableau.stages <= MAX_UNROLLED_STAGES {
            integrator.kind = Kind::Unrolled;
        }
        Ok(integrator)
    }

    /// The integrator of an explicit `tableau` on the run-time stage loop whatever its length:
    /// for measuring what unrolling saves, and for checking that both paths give the same
    /// numbers.
    ///
    /// # Errors
    /// As [`OmegaIntegrator::new`].
    pub fn general(tableau: &ButcherTableau) -> Result<Self> {
        tableau.validate_explicit()?;
        if tableau.stages > MAX_OMEGA_STAGES {
            return Err(Error::InvalidParameter {
                name: "tableau",
                value: format!("{} with {} stages", tableau.name, tableau.stages),
                expected: format!("at most {MAX_OMEGA_STAGES} stages"),
            });
        }
        Ok(Self {
            kind: Kind::General,
            a: tableau.a.to_vec(),
            b: tableau.b.to_vec(),
            name: tableau.name.clone(),
            order: tableau.order,
        })
    }

    /// Whether the steps run on the unrolled [`FixedStepStages`] (SSPRK3's path).
    pub fn is_unrolled(&self) -> bool {
        self.kind == Kind::Unrolled
    }

    /// The tableau's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tableau's (classical) order: the order of ω for a torque constant in the body frame.
    pub fn order(&self) -> usize {
        self.order
    }

    /// One step of size `h` (which may be negative: the leapfrog start's half step back) from
    /// `omega` with the torque frozen at `torque`.
    pub fn advance<T: Real>(
        &self,
        body: &RigidBody<T>,
        omega: &Vector3<T>,
        torque: &Vector3<T>,
        h: T,
    ) -> Vector3<T> {
        self.with_step(body, h).advance(omega, torque)
    }

    /// The map for one body and one step size `h`, its coefficients multiplied out once: what
    /// a fixed-step stepper holds (over the body's scalar: `f64`, or dual numbers for
    /// sensitivities).
    pub fn with_step<T: Real>(&self, body: &RigidBody<T>, h: T) -> FixedStepOmega<T> {
        let (a, b) = (&self.a, &self.b);
        match (&self.kind, b.len()) {
            (Kind::Unrolled, 1) => FixedStepOmega::One(FixedStepStages::from_rows(a, b, body, h)),
            (Kind::Unrolled, 2) => FixedStepOmega::Two(FixedStepStages::from_rows(a, b, body, h)),
            (Kind::Unrolled, 3) => FixedStepOmega::Three(FixedStepStages::from_rows(a, b, body, h)),
            (Kind::Unrolled, 4) => FixedStepOmega::Four(FixedStepStages::from_rows(a, b, body, h)),
            _ => FixedStepOmega::General(FixedStepTableau::new(a, b, body, h)),
        }
    }
}

/// A method whose angular velocity is advanced by an [`OmegaIntegrator`] (the SPIRAL variants):
/// what gives their single-body steppers `with_omega_integrator` and `omega_integrator` once.
pub trait OmegaIntegrated {
    /// The method with the ω update `integrator`.
    fn from_integrator(integrator: OmegaIntegrator) -> Self;

    /// The ω update in use.
    fn integrator(&self) -> &OmegaIntegrator;
}

/// An [`OmegaIntegrator`] for one body and one step size, built by
/// [`OmegaIntegrator::with_step`].
// The unrolled variants are the hot ones and stay inline: boxing them would put a pointer
// chase into every step of the default stepper, to save a few hundred bytes per stepper.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum FixedStepOmega<T = f64> {
    /// One stage, unrolled.
    One(FixedStepStages<1, T>),
    /// Two stages, unrolled.
    Two(FixedStepStages<2, T>),
    /// Three stages, unrolled (SSPRK3, the default).
    Three(FixedStepStages<3, T>),
    /// Four stages, unrolled.
    Four(FixedStepStages<4, T>),
    /// Any explicit tableau, the stage count known at run time.
    General(FixedStepTableau<T>),
}

impl<T: Real> FixedStepOmega<T> {
    /// One step from `omega` with the torque frozen at `torque`.
    #[inline]
    pub fn advance(&self, omega: &Vector3<T>, torque: &Vector3<T>) -> Vector3<T> {
        match self {
            Self::One(map) => map.advance(omega, torque),
            Self::Two(map) => map.advance(omega, torque),
            Self::Three(map) => map.advance(omega, torque),
            Self::Four(map) => map.advance(omega, torque),
            Self::General(map) => map.advance(omega, torque),
        }
    }
}

/// An explicit tableau of `S` stages on Euler's equations with a frozen torque, for one body and
/// one step size `h`, its coefficients multiplied by `h κ` and `h J⁻¹` once:
///
/// ```text
/// W_1 = ω,   W_i = ω + (Σ_j a_ij) h J⁻¹ τ + Σ_{j<i} (a_ij h κ) ⊙ γ(W_j),
/// ω(t + h) ≈ ω + (Σ_i b_i) h J⁻¹ τ + Σ_i (b_i h κ) ⊙ γ(W_i)
/// ```
///
/// (`ω̇ = J⁻¹τ + κ ⊙ γ(ω)`, `γ(ω) = (ω_y ω_z, ω_z ω_x, ω_x ω_y)`; the first stage of an explicit
/// tableau is the step's start). The stage count is a compile-time constant, so the loops
/// unroll, and each sum takes the newest stage last: a stage value waits on the one before it
/// for one product and one addition. SPIRAL's SSPRK3 path is `FixedStepStages<3>`
/// ([`FixedStepSsprk3`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FixedStepStages<const S: usize, T = f64> {
    /// `a_ij h κ`.
    stage_gyroscopic: [[Vector3<T>; S]; S],
    /// `(Σ_j a_ij) h J⁻¹`.
    stage_torque: [Vector3<T>; S],
    /// `b_i h κ`.
    weight_gyroscopic: [Vector3<T>; S],
    /// `(Σ_i b_i) h J⁻¹`.
    weight_torque: Vector3<T>,
}

impl<const S: usize, T: Real> FixedStepStages<S, T> {
    /// The map of the tableau `a` (strictly lower triangular), `b` for `body` and step `h`.
    pub(crate) fn new(a: &[[f64; S]; S], b: &[f64; S], body: &RigidBody<T>, h: T) -> Self {
        let g = body.gyroscopic_coefficients() * h;
        let inverse = body.inverse_inertia() * h;
        Self {
            stage_gyroscopic: a.map(|row| row.map(|a| g * real::<T>(a))),
            stage_torque: a.map(|row| inverse * real::<T>(row.iter().sum::<f64>())),
            weight_gyroscopic: b.map(|b| g * real::<T>(b)),
            weight_torque: inverse * real::<T>(b.iter().sum::<f64>()),
        }
    }

    /// As [`FixedStepStages::new`] from `a` row by row (`S²` entries) and `b` (`S` entries).
    fn from_rows(a: &[f64], b: &[f64], body: &RigidBody<T>, h: T) -> Self {
        Self::new(
            &std::array::from_fn(|i| std::array::from_fn(|j| a[i * S + j])),
            &std::array::from_fn(|i| b[i]),
            body,
            h,
        )
    }

    /// One step from `omega` with the torque frozen at `torque` (for SSPRK3: SPIRAL
    /// Eqs. 9–10).
    #[inline(always)]
    pub fn advance(&self, omega: &Vector3<T>, torque: &Vector3<T>) -> Vector3<T> {
        let mut gamma = [Vector3::zeros(); S];
        gamma[0] = products(omega);
        for i in 1..S {
            let base = omega + self.stage_torque[i].component_mul(torque);
            gamma[i] = products(&add_scaled(base, &self.stage_gyroscopic[i], &gamma, i));
        }
        let base = omega + self.weight_torque.component_mul(torque);
        add_scaled(base, &self.weight_gyroscopic, &gamma, S)
    }
}

/// `base + Σ_{j<n} c_j ⊙ γ_j`, the newest stage last so that the sum waits on `γ_{n−1}` for one
/// product and one addition only.
#[inline(always)]
pub(super) fn add_scaled<const S: usize, T: Real>(
    base: Vector3<T>,
    coefficients: &[Vector3<T>; S],
    gamma: &[Vector3<T>; S],
    n: usize,
) -> Vector3<T> {
    let mut sum = base;
    for (c, gj) in coefficients.iter().zip(gamma).take(n) {
        sum += c.component_mul(gj);
    }
    sum
}

/// `γ(ω) = (ω_y ω_z, ω_z ω_x, ω_x ω_y)`, the quadratic part of Euler's equations.
#[inline]
pub(super) fn products<T: Real>(w: &Vector3<T>) -> Vector3<T> {
    Vector3::new(w.y * w.z, w.z * w.x, w.x * w.y)
}

/// An explicit tableau on Euler's equations with a frozen torque, for one body and one step
/// size `h`, its coefficients multiplied by `h κ` and `h J⁻¹` once (the general path of
/// [`OmegaIntegrator`]):
///
/// ```text
/// W_1 = ω,   W_i = ω + (Σ_j a_ij) h J⁻¹ τ + Σ_{j<i, a_ij ≠ 0} (a_ij h κ) ⊙ γ(W_j),
/// ω(t + h) ≈ ω + (Σ_i b_i) h J⁻¹ τ + Σ_{b_i ≠ 0} (b_i h κ) ⊙ γ(W_i),
/// ```
///
/// `γ(ω) = (ω_y ω_z, ω_z ω_x, ω_x ω_y)` — the same order of summation as [`FixedStepStages`]
/// (the newest stage last, so each stage value waits on one product and one addition), with
/// the zero coefficients skipped.
#[derive(Debug, Clone, PartialEq)]
pub struct FixedStepTableau<T = f64> {
    /// `(Σ_j a_ij) h J⁻¹` of every stage after the first.
    stage_torque: Vec<Vector3<T>>,
    /// The nonzero `a_ij h κ` of every stage after the first with `j` (in the order of `j`),
    /// then the nonzero `b_i h κ` with `i`: one list, cut by `ends`.
    gyroscopic: Vec<(usize, Vector3<T>)>,
    /// Where each stage's terms (and, last, the weights' terms) end in `gyroscopic`.
    ends: Vec<usize>,
    /// `(Σ_i b_i) h J⁻¹`.
    weight_torque: Vector3<T>,
}

impl<T: Real> FixedStepTableau<T> {
    /// The map of the tableau with `a` (row by row, `stages²` entries, strictly lower
    /// triangular) and `b` (`stages` entries) for `body` and step `h`.
    fn new(a: &[f64], b: &[f64], body: &RigidBody<T>, h: T) -> Self {
        let stages = b.len();
        let g = body.gyroscopic_coefficients() * h;
        let inverse = body.inverse_inertia() * h;
        let rows: Vec<&[f64]> = a.chunks_exact(stages).skip(1).chain([b]).collect();
        let mut gyroscopic = Vec::new();
        let mut ends = Vec::with_capacity(rows.len());
        for row in &rows {
            gyroscopic.extend(
                row.iter()
                    .enumerate()
                    .filter(|(_, w)| **w != 0.0)
                    .map(|(j, w)| (j, g * real::<T>(*w))),
            );
            ends.push(gyroscopic.len());
        }
        Self {
            stage_torque: rows[..stages - 1]
                .iter()
                .map(|row| inverse * real::<T>(row.iter().sum::<f64>()))
                .collect(),
            gyroscopic,
            ends,
            weight_torque: inverse * real::<T>(b.iter().sum::<f64>()),
        }
    }

    /// One step from `omega` with the torque frozen at `torque`. Not inlined: kept out of the
    /// steppers' step so that their SSPRK3 path compiles as it did before the choice existed.
    #[inline(never)]
    pub fn advance(&self, omega: &Vector3<T>, torque: &Vector3<T>) -> Vector3<T> {
        let mut gamma = [Vector3::zeros(); MAX_OMEGA_STAGES];
        gamma[0] = products(omega);
        let mut begin = 0;
        for (i, (scale, &end)) in self.stage_torque.iter().zip(&self.ends).enumerate() {
            let terms = &self.gyroscopic[begin..end];
            gamma[i + 1] = products(&add_terms(
                omega + scale.component_mul(torque),
                terms,
                &gamma,
            ));
            begin = end;
        }
        add_terms(
            omega + self.weight_torque.component_mul(torque),
            &self.gyroscopic[begin..],
            &gamma,
        )
    }
}

/// `base + Σ c_j ⊙ γ_j` over the listed terms, in their order.
#[inline(always)]
fn add_terms<T: Real>(
    base: Vector3<T>,
    terms: &[(usize, Vector3<T>)],
    gamma: &[Vector3<T>; MAX_OMEGA_STAGES],
) -> Vector3<T> {
    terms
        .iter()
        .fold(base, |sum, (j, c)| sum + c.component_mul(&gamma[*j]))
}

/// The number of stages of [`SSPRK3`].
const STAGES: usize = 3;

/// The three-stage strong-stability-preserving Runge–Kutta method of Shu and Osher (SSPRK3) on
/// Euler's equations `ω' = ω̇(ω, τ)` (SPIRAL Eq. 8), with the coefficients taken from the
/// registry's [`SSPRK3`] tableau.
///
/// With a frozen torque τ and `K_i = h k_i` this is SPIRAL Eqs. (9)–(10):
///
/// ```text
/// K1 = h ω̇(ω, τ),  K2 = h ω̇(ω + K1, τ),  K3 = h ω̇(ω + (K1 + K2)/4, τ)
/// ω(t + h) ≈ ω + (K1 + K2 + 4 K3)/6
/// ```
///
/// computed in the Butcher form `k_i = ω̇(ω + h Σ_j a_ij k_j, τ_i)`, `ω + h Σ_i b_i k_i` —
/// the same arithmetic as [`crate::engine::ExplicitRk`] with the SSPRK3 tableau. The step `h`
/// may be negative (SPIRAL's half step back at the start).
///
/// # Examples
/// ```
/// use lieode::rotation::{EulerSsprk3, RigidBody};
/// use nalgebra::Vector3;
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let map = EulerSsprk3::new();
/// let (w, tau, h) = (Vector3::new(0.3, -0.9, 0.6), Vector3::new(0.5, 0.0, 0.0), 1e-2);
/// // Eqs. (9)–(10) written out.
/// let k1 = h * body.angular_acceleration(&w, &tau);
/// let k2 = h * body.angular_acceleration(&(w + k1), &tau);
/// let k3 = h * body.angular_acceleration(&(w + (k1 + k2) / 4.0), &tau);
/// let spiral = w + (k1 + k2 + 4.0 * k3) / 6.0;
/// assert!((map.advance(&body, &w, &tau, h) - spiral).norm() < 1e-15);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EulerSsprk3 {
    a: [[f64; STAGES]; STAGES],
    b: [f64; STAGES],
    c: [f64; STAGES],
}

impl Default for EulerSsprk3 {
    fn default() -> Self {
        Self::new()
    }
}

impl EulerSsprk3 {
    /// The map, with the coefficients copied from the registry's [`SSPRK3`] tableau.
    pub fn new() -> Self {
        let tableau = &SSPRK3;
        Self {
            a: std::array::from_fn(|i| std::array::from_fn(|j| tableau.a_ij(i, j))),
            b: std::array::from_fn(|i| tableau.b[i]),
            c: std::array::from_fn(|i| tableau.c[i]),
        }
    }

    /// One step of size `h` from `omega` with the torque frozen at `torque`: SPIRAL Eqs. (9)–(10)
    /// (the arithmetic of [`FixedStepSsprk3::advance`]).
    #[inline]
    pub fn advance<T: Real>(
        &self,
        body: &RigidBody<T>,
        omega: &Vector3<T>,
        torque: &Vector3<T>,
        h: T,
    ) -> Vector3<T> {
        self.with_step(body, h).advance(omega, torque)
    }

    /// The map for one body and one step size `h`, its coefficients multiplied out once: what a
    /// fixed-step stepper holds.
    pub fn with_step<T: Real>(&self, body: &RigidBody<T>, h: T) -> FixedStepSsprk3<T> {
        FixedStepStages::new(&self.a, &self.b, body, h)
    }

    /// One step of size `h` from `omega` with the stage torques given by a model `torque(s)`
    /// of the torque at the offset `s = c_i h` from the step's start:
    /// `k_i = ω̇(ω + h Σ_j a_ij k_j, torque(c_i h))`, `ω + h Σ_i b_i k_i`.
    ///
    /// **Evaluation order.** With Euler's equations as `ω̇ = J⁻¹τ + κ ⊙ γ(ω)`,
    /// `γ(ω) = (ω_y ω_z, ω_z ω_x, ω_x ω_y)` ([`RigidBody`]), the stage values and the result are
    /// summed as
    ///
    /// ```text
    /// W_i = ω + Σ_j a_ij h J⁻¹τ_j + Σ_j (a_ij h κ) ⊙ γ(W_j),   ω + Σ_i b_i h J⁻¹τ_i + Σ_i (b_i h κ) ⊙ γ(W_i)
    /// ```
    ///
    /// — the same numbers up to rounding, but the chain of dependent operations from one stage
    /// value to the next is one product, one scaling and one sum (three operations instead of
    /// six), which is what bounds the cost of a step (SPIRAL's stages are sequential).
    #[inline]
    pub fn advance_with<T: Real, F>(
        &self,
        body: &RigidBody<T>,
        omega: &Vector3<T>,
        h: T,
        mut torque: F,
    ) -> Vector3<T>
    where
        F: FnMut(T) -> Vector3<T>,
    {
        let g = body.gyroscopic_coefficients() * h;
        let scale = body.inverse_inertia() * h;
        let d: [Vector3<T>; STAGES] =
            std::array::from_fn(|i| scale.component_mul(&torque(real::<T>(self.c[i]) * h)));
        let mut gamma = [Vector3::zeros(); STAGES];
        for (i, row) in self.a.iter().enumerate() {
            let w = add_scaled(
                add_torque(omega, row, &d, i),
                &row.map(|a| g * real::<T>(a)),
                &gamma,
                i,
            );
            gamma[i] = products(&w);
        }
        let weights = self.b.map(|b| g * real::<T>(b));
        add_scaled(
            add_torque(omega, &self.b, &d, STAGES),
            &weights,
            &gamma,
            STAGES,
        )
    }
}

/// [`EulerSsprk3`] with a frozen torque, for one body and one step size `h`, the products of
/// the tableau's coefficients with `h κ` and `h J⁻¹` computed once (the three-stage
/// [`FixedStepStages`]). Built by [`EulerSsprk3::with_step`].
pub type FixedStepSsprk3<T = f64> = FixedStepStages<STAGES, T>;

/// `ω + Σ_{j<n} c_j d_j`.
#[inline]
fn add_torque<T: Real>(
    omega: &Vector3<T>,
    coefficients: &[f64; STAGES],
    d: &[Vector3<T>; STAGES],
    n: usize,
) -> Vector3<T> {
    let mut sum = *omega;
    for (c, dj) in coefficients.iter().zip(d).take(n) {
        sum += dj * real::<T>(*c);
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_tableau_has_the_stage_count_the_map_assumes() {
        assert_eq!(SSPRK3.stages, STAGES);
        assert_eq!(SSPRK3.a.len(), STAGES * STAGES);
        assert_eq!(SSPRK3.b.len(), STAGES);
        assert_eq!(SSPRK3.c.len(), STAGES);
    }
}
