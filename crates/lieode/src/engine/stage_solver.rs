//! The nonlinear solve of implicit Runge–Kutta stages, shared by [`super::ImplicitRk`] and
//! [`super::ImplicitMuntheKaas`].
//!
//! Unknowns are the stage increments `Z_i ∈ ℝᵈ` (vector engines: `x_i − x_n`; Munthe-Kaas:
//! the local coordinates `θ_i`), solving `Z_i = h Σ_j a_ij K_j(Z_j)`. All buffers are allocated
//! once, when the engine is built.

use crate::error::{Error, Result};
use crate::lie::{Real, real, to_f64};

use super::Stats;

/// Settings of the stage solve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NonlinearOptions {
    /// Converged when the last correction satisfies `‖ΔZ‖∞ ≤ tolerance · max(1, ‖Z‖∞, scale)`,
    /// where `scale` is the size of the state (default `1e-14`).
    pub tolerance: f64,
    /// Iteration limit (default 100).
    pub max_iterations: usize,
}

impl Default for NonlinearOptions {
    fn default() -> Self {
        Self {
            tolerance: 1e-14,
            max_iterations: 100,
        }
    }
}

impl NonlinearOptions {
    /// Checks the settings.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `tolerance` (must be finite and > 0) or
    /// `max_iterations` (must be ≥ 1).
    pub fn validate(&self) -> Result<()> {
        crate::error::check_finite("tolerance", self.tolerance)?;
        if !(self.tolerance > 0.0 && self.tolerance.is_finite()) {
            return Err(Error::InvalidParameter {
                name: "tolerance",
                value: format!("{:e}", self.tolerance),
                expected: "a finite value > 0".into(),
            });
        }
        if self.max_iterations == 0 {
            return Err(Error::InvalidParameter {
                name: "max_iterations",
                value: "0".into(),
                expected: "at least 1".into(),
            });
        }
        Ok(())
    }
}

/// The contraction rate of a simplified-Newton solve below which the next solve with the same
/// step size keeps its Jacobian and LU factors ([`StageSystem::solve_newton_reusing`]): one
/// more cheap iteration costs less than a new dual-number Jacobian.
pub(crate) const REUSE_RATE: f64 = 0.1;

/// Fixed-point iteration `Z ← h (A ⊗ I) K(Z)`: no Jacobian; converges when `h L ‖A‖ < 1`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FixedPoint;

/// Simplified Newton iteration with the Jacobian `∂K/∂Z` at the step's start, computed with
/// dual numbers (`num-dual`), and one LU factorisation of `I − h A ⊗ J` per step (the Lie-group
/// engine and the special rigid-body steps keep both for the next step of the same size while
/// the solves contract fast, rate ≤ 0.1).
///
/// When it fails (large steps, where the Jacobian at the start is far from the one at the
/// solution), the Lie-group engine and the special rigid-body steps retry with fixed-point
/// iteration and then with full Newton — Jacobians at the iterates and a backtracking line
/// search on the residual — before reporting [`crate::Error::NonConvergence`]. This is what
/// lets Krysl's §5.4 run at his Δt = 0.5 (`docs/krysl.md`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Newton;

/// Buffers and coefficients of the stage system.
#[derive(Debug, Clone)]
pub(crate) struct StageSystem<T> {
    pub s: usize,
    pub d: usize,
    /// Row-major `A`.
    pub a: Vec<T>,
    /// Stage increments, stage-major (`z[i*d..(i+1)*d]`).
    pub z: Vec<T>,
    /// Stage derivatives `K_i(Z_i)`.
    pub k: Vec<T>,
    delta: Vec<T>,
    /// `(sd) × (sd)` iteration matrix, row-major, overwritten by its LU factors.
    matrix: Vec<T>,
    pivots: Vec<usize>,
    /// `d × d` Jacobian, row-major.
    pub jacobian: Vec<T>,
    /// Per-stage Jacobians `∂K_i/∂Z_i` at the current iterate (full Newton), `s` blocks of
    /// `d × d`, row-major.
    stage_jacobians: Vec<T>,
    /// The accepted iterate and its residual during a line search (full Newton).
    base_z: Vec<T>,
    base_residual: Vec<T>,
    direction: Vec<T>,
    /// The step size whose simplified-Newton matrix `matrix` holds (LU-factored), if any.
    factored_h: Option<T>,
    /// The contraction rate `‖ΔZ_k‖/‖ΔZ_{k−1}‖` at the last converged simplified-Newton solve.
    last_rate: T,
    pub options: NonlinearOptions,
}

impl<T: Real> StageSystem<T> {
    pub fn new(a: &[f64], s: usize, d: usize, options: NonlinearOptions) -> Self {
        let n = s * d;
        Self {
            s,
            d,
            a: a.iter().map(|&x| real(x)).collect(),
            z: vec![T::zero(); n],
            k: vec![T::zero(); n],
            delta: vec![T::zero(); n],
            matrix: vec![T::zero(); n * n],
            pivots: vec![0; n],
            jacobian: vec![T::zero(); d * d],
            stage_jacobians: vec![T::zero(); s * d * d],
            base_z: vec![T::zero(); n],
            base_residual: vec![T::zero(); n],
            direction: vec![T::zero(); n],
            factored_h: None,
            last_rate: T::one(),
            options,
        }
    }

    fn evaluate_all(
        &mut self,
        eval: &mut impl FnMut(usize, &[T], &mut [T]) -> Result<()>,
        stats: &mut Stats,
    ) -> Result<()> {
        let d = self.d;
        for i in 0..self.s {
            stats.rhs_evaluations += 1;
            let (zi, ki) = (&self.z[i * d..(i + 1) * d], &mut self.k[i * d..(i + 1) * d]);
            eval(i, zi, ki)?;
        }
        Ok(())
    }

    /// `r_i = h Σ_j a_ij K_j − Z_i`, written into `delta`.
    fn residual(&mut self, h: T) {
        let d = self.d;
        for i in 0..self.s {
            for c in 0..d {
                let mut acc = T::zero();
                for j in 0..self.s {
                    acc += self.a[i * self.s + j] * self.k[j * d + c];
                }
                self.delta[i * d + c] = h * acc - self.z[i * d + c];
            }
        }
    }

    fn converged(&self, scale: T) -> bool {
        let dz = max_abs(&self.delta);
        let zs = max_abs(&self.z);
        let reference = T::one().max(zs).max(scale);
        dz <= real::<T>(self.options.tolerance) * reference
    }

    fn fail(&self, context: &str, t: T, h: T) -> Error {
        Error::NonConvergence {
            context: format!(
                "{context}: stage equations at t = {:e}, h = {:e}",
                to_f64(t),
                to_f64(h)
            ),
            iterations: self.options.max_iterations,
        }
    }

    /// Solves by fixed-point iteration from `Z = 0`. On success `z` holds the solution and `k`
    /// the stage derivatives at it.
    pub fn solve_fixed_point(
        &mut self,
        t: T,
        h: T,
        scale: T,
        mut eval: impl FnMut(usize, &[T], &mut [T]) -> Result<()>,
        stats: &mut Stats,
    ) -> Result<()> {
        self.z.iter_mut().for_each(|z| *z = T::zero());
        for _ in 0..self.options.max_iterations {
            stats.nonlinear_iterations += 1;
            self.evaluate_all(&mut eval, stats)?;
            self.residual(h);
            let done = self.converged(scale);
            for (z, dz) in self.z.iter_mut().zip(&self.delta) {
                *z += *dz;
            }
            if done {
                // k must belong to the final z: one more evaluation.
                self.evaluate_all(&mut eval, stats)?;
                return Ok(());
            }
        }
        Err(self.fail("fixed-point iteration", t, h))
    }

    /// Solves by simplified Newton iteration with `self.jacobian` (set by the caller). On success
    /// `z` holds the solution and `k` the stage derivatives at it.
    pub fn solve_newton(
        &mut self,
        t: T,
        h: T,
        scale: T,
        eval: impl FnMut(usize, &[T], &mut [T]) -> Result<()>,
        stats: &mut Stats,
    ) -> Result<()> {
        self.factor(t, h, stats)?;
        self.iterate(t, h, scale, eval, stats)
    }

    /// Simplified Newton that keeps the factored iteration matrix of the previous solve when the
    /// step size is the same and that solve contracted fast (rate ≤ [`REUSE_RATE`]), as
    /// Hairer's RADAU5 keeps its Jacobian: the Jacobian (`jacobian` writes `∂K/∂Z` at the
    /// step's start) and the LU are then skipped. If the iteration with the kept matrix fails,
    /// the Jacobian is refreshed and the solve repeated. The solution satisfies the same
    /// convergence test either way.
    pub fn solve_newton_reusing(
        &mut self,
        t: T,
        h: T,
        scale: T,
        mut eval: impl FnMut(usize, &[T], &mut [T]) -> Result<()>,
        mut jacobian: impl FnMut(&mut [T]),
        stats: &mut Stats,
    ) -> Result<()> {
        if self.factored_h == Some(h) && self.last_rate <= real(REUSE_RATE) {
            match self.iterate(t, h, scale, &mut eval, stats) {
                Err(Error::NonConvergence { .. } | Error::NonFiniteState { .. }) => {}
                done => return done,
            }
        }
        stats.jacobian_evaluations += 1;
        jacobian(&mut self.jacobian);
        self.factor(t, h, stats)?;
        self.iterate(t, h, scale, eval, stats)
    }

    /// Forgets the kept Jacobian and LU factors: the next simplified-Newton solve starts with a
    /// fresh Jacobian.
    pub fn forget(&mut self) {
        self.factored_h = None;
        self.last_rate = T::one();
    }

    /// `M = I − h A ⊗ J`, LU-factored in place.
    fn factor(&mut self, t: T, h: T, stats: &mut Stats) -> Result<()> {
        let n = self.s * self.d;
        self.assemble(h, false);
        stats.lu_decompositions += 1;
        if !lu_factor(&mut self.matrix, &mut self.pivots, n) {
            self.factored_h = None;
            return Err(Error::NonConvergence {
                context: format!(
                    "simplified Newton: singular iteration matrix I − hA⊗J at t = {:e}, h = {:e}",
                    to_f64(t),
                    to_f64(h)
                ),
                iterations: 0,
            });
        }
        self.factored_h = Some(h);
        Ok(())
    }

    /// The simplified-Newton iteration from `Z = 0` with the factored matrix.
    fn iterate(
        &mut self,
        t: T,
        h: T,
        scale: T,
        mut eval: impl FnMut(usize, &[T], &mut [T]) -> Result<()>,
        stats: &mut Stats,
    ) -> Result<()> {
        let n = self.s * self.d;
        self.z.iter_mut().for_each(|z| *z = T::zero());
        let mut previous = T::zero();
        self.last_rate = T::one();
        for iteration in 0..self.options.max_iterations {
            stats.nonlinear_iterations += 1;
            self.evaluate_all(&mut eval, stats)?;
            self.residual(h);
            lu_solve(&self.matrix, &self.pivots, n, &mut self.delta);
            for (z, dz) in self.z.iter_mut().zip(&self.delta) {
                *z += *dz;
            }
            let size = max_abs(&self.delta);
            if !size.is_finite() {
                break;
            }
            if self.converged(scale) {
                self.last_rate = if iteration > 0 && previous > T::zero() {
                    size / previous
                } else {
                    T::zero()
                };
                self.evaluate_all(&mut eval, stats)?;
                return Ok(());
            }
            // Divergence: the correction grew twice in a row after the first steps.
            if iteration > 2 && size > previous * real(2.0) {
                break;
            }
            previous = size;
        }
        Err(self.fail("simplified Newton iteration", t, h))
    }

    /// `M = I − h (a_ij J_j)`: with the one Jacobian `jacobian` (`per_stage = false`, simplified
    /// Newton) or the per-stage Jacobians `stage_jacobians` (full Newton).
    fn assemble(&mut self, h: T, per_stage: bool) {
        let (s, d) = (self.s, self.d);
        let n = s * d;
        for bi in 0..s {
            for bj in 0..s {
                let haij = h * self.a[bi * s + bj];
                let block = if per_stage {
                    &self.stage_jacobians[bj * d * d..(bj + 1) * d * d]
                } else {
                    &self.jacobian[..]
                };
                for r in 0..d {
                    for c in 0..d {
                        let id = if bi == bj && r == c {
                            T::one()
                        } else {
                            T::zero()
                        };
                        self.matrix[(bi * d + r) * n + bj * d + c] = id - haij * block[r * d + c];
                    }
                }
            }
        }
    }

    /// Solves by full Newton iteration with a backtracking line search, from `Z = 0`: the
    /// fallback when simplified Newton fails (large steps, e.g. Krysl's §5.4 at `h = 0.5`, where
    /// the Jacobian at the step's start is too far from the one at the solution).
    ///
    /// Each iteration evaluates the per-stage Jacobians `∂K_i/∂Z_i` at the current iterate
    /// (`jacobian(i, z_i, block)` writes the `d × d` block, row-major), solves
    /// `(I − h A ⊗ J) Δ = h A K(Z) − Z`, and accepts `Z + λΔ` for the largest `λ ∈ {1, ½, …, 2⁻¹⁰}`
    /// that decreases `‖h A K − Z‖∞` (a non-finite trial value counts as no decrease). Converged
    /// when `‖λΔ‖∞ ≤ tolerance · max(1, ‖Z‖∞, scale)`. On success `z` holds the solution and `k`
    /// the stage derivatives at it.
    pub fn solve_damped_newton(
        &mut self,
        t: T,
        h: T,
        scale: T,
        mut eval: impl FnMut(usize, &[T], &mut [T]) -> Result<()>,
        mut jacobian: impl FnMut(usize, &[T], &mut [T]) -> Result<()>,
        stats: &mut Stats,
    ) -> Result<()> {
        const HALVINGS: usize = 10;
        let (s, d) = (self.s, self.d);
        let n = s * d;
        self.z.iter_mut().for_each(|z| *z = T::zero());
        self.evaluate_all(&mut eval, stats)?;
        self.residual(h);
        for _ in 0..self.options.max_iterations {
            stats.nonlinear_iterations += 1;
            stats.jacobian_evaluations += 1;
            for i in 0..s {
                jacobian(
                    i,
                    &self.z[i * d..(i + 1) * d],
                    &mut self.stage_jacobians[i * d * d..(i + 1) * d * d],
                )?;
            }
            self.assemble(h, true);
            self.factored_h = None;
            stats.lu_decompositions += 1;
            if !lu_factor(&mut self.matrix, &mut self.pivots, n) {
                break;
            }
            self.base_z.copy_from_slice(&self.z);
            self.base_residual.copy_from_slice(&self.delta);
            self.direction.copy_from_slice(&self.delta);
            lu_solve(&self.matrix, &self.pivots, n, &mut self.direction);
            let base_norm = max_abs(&self.base_residual);
            let mut lambda = T::one();
            let mut accepted = false;
            for _ in 0..=HALVINGS {
                for ((z, z0), dz) in self.z.iter_mut().zip(&self.base_z).zip(&self.direction) {
                    *z = *z0 + lambda * *dz;
                }
                let evaluated = self.evaluate_all(&mut eval, stats);
                if evaluated.is_ok() {
                    self.residual(h);
                    let norm = max_abs(&self.delta);
                    if norm.is_finite() && (norm < base_norm || norm == T::zero()) {
                        accepted = true;
                        break;
                    }
                }
                lambda *= real(0.5);
            }
            let step = lambda * max_abs(&self.direction);
            let zs = max_abs(&self.z);
            let converged = step <= real::<T>(self.options.tolerance) * T::one().max(zs).max(scale);
            if accepted && converged {
                return Ok(());
            }
            if !accepted {
                // No decrease along the Newton direction: converged to round-off if the step
                // was already negligible, stuck otherwise.
                self.z.copy_from_slice(&self.base_z);
                if max_abs(&self.direction)
                    <= real::<T>(self.options.tolerance) * T::one().max(max_abs(&self.z)).max(scale)
                {
                    self.evaluate_all(&mut eval, stats)?;
                    return Ok(());
                }
                break;
            }
        }
        Err(self.fail("damped Newton iteration", t, h))
    }
}

pub(crate) fn max_abs<T: Real>(v: &[T]) -> T {
    v.iter().fold(T::zero(), |m, x| m.max(x.abs()))
}

/// In-place LU with partial pivoting (pivots on the real parts); `false` if singular.
fn lu_factor<T: Real>(m: &mut [T], piv: &mut [usize], n: usize) -> bool {
    for k in 0..n {
        let mut p = k;
        let mut best = to_f64(m[k * n + k]).abs();
        for i in k + 1..n {
            let v = to_f64(m[i * n + k]).abs();
            if v > best {
                best = v;
                p = i;
            }
        }
        if !(best > 0.0 && best.is_finite()) {
            return false;
        }
        piv[k] = p;
        if p != k {
            for c in 0..n {
                m.swap(k * n + c, p * n + c);
            }
        }
        let pivot = m[k * n + k];
        for i in k + 1..n {
            let f = m[i * n + k] / pivot;
            m[i * n + k] = f;
            if f != T::zero() {
                for c in k + 1..n {
                    let u = m[k * n + c];
                    m[i * n + c] -= f * u;
                }
            }
        }
    }
    true
}

/// Solves `LU x = P b` in place.
fn lu_solve<T: Real>(m: &[T], piv: &[usize], n: usize, b: &mut [T]) {
    for (k, &p) in piv.iter().enumerate().take(n) {
        b.swap(k, p);
    }
    for i in 0..n {
        let mut acc = b[i];
        for j in 0..i {
            acc -= m[i * n + j] * b[j];
        }
        b[i] = acc;
    }
    for i in (0..n).rev() {
        let mut acc = b[i];
        for j in i + 1..n {
            acc -= m[i * n + j] * b[j];
        }
        b[i] = acc / m[i * n + i];
    }
}

/// `d = bᵀ A⁻¹` when `A` is invertible (then `y₁ = y₀ + Σ d_i Z_i` needs no extra evaluation).
pub(crate) fn output_weights(a: &[f64], b: &[f64], s: usize) -> Option<Vec<f64>> {
    // Solve Aᵀ d = b.
    let mut m: Vec<f64> = (0..s * s).map(|idx| a[(idx % s) * s + idx / s]).collect();
    let mut piv = vec![0; s];
    if !lu_factor(&mut m, &mut piv, s) {
        return None;
    }
    // Reject nearly singular A (e.g. Lobatto IIIA's zero first row is caught above).
    let mut d = b.to_vec();
    lu_solve(&m, &piv, s, &mut d);
    d.iter()
        .all(|x| x.is_finite() && x.abs() < 1e8)
        .then_some(d)
}
