//! # DOPRI5: Hairer's Dormand–Prince 5(4) code
//!
//! [`Dopri5`] reproduces Hairer & Wanner's Fortran `dopri5.f` step for step and evaluation for
//! evaluation: the same stages in the same order of operations (coefficients from
//! [`crate::tableau::registry::DOPRI5`]), the same error norm, step-size control
//! ([`super::Controller`]), initial step ([`super::hairer::initial_step`]),
//! stiffness test and dense output (`CONTD5`). `tests/hairer_dopri.rs` checks the counts and
//! final values against the Fortran code for the Arenstorf orbit and Van der Pol's equation.
//!
//! # References
//! J. R. Dormand, P. J. Prince, *A family of embedded Runge–Kutta formulae*, J. Comput. Appl.
//! Math. 6 (1980) 19–26; L. F. Shampine, *Some practical Runge–Kutta formulas*, Math. Comp.
//! 46 (1986) 135–150 (dense output); E. Hairer, S. P. Nørsett, G. Wanner, *Solving Ordinary
//! Differential Equations I*, 2nd ed., Springer 1993, §II.4–II.6 and §II.10 (the code is listed
//! in the appendix; the Arenstorf results on p. 178); E. Hairer, G. Wanner, `dopri5.f`,
//! version of April 25, 1996 (latest correction August 8, 2005).

use nalgebra::{DefaultAllocator, DimName, OVector, allocator::Allocator};

use super::controller::ControllerParameters;
use super::hairer::underflow_cause;
use super::hairer::{check_finite, scaled_square, squared_distance};
use super::run_state::RunState;
use super::summation::Summation;
use super::tolerance::Tolerances;
use super::{AdaptiveMethod, StepReport, System};
use crate::engine::Stats;
use crate::error::Result;
use crate::tableau::registry::DOPRI5;

/// Hairer's error coefficients `e_i = b_i − b̂_i` of DOPRI5 (`E1 … E7` of his `CDOPRI`), as
/// exact fractions: `(71/57600, 0, −71/16695, 71/1920, −17253/339200, 22/525, −1/40)`.
///
/// They equal `b − b̂` of [`crate::tableau::registry::DOPRI5`] in exact arithmetic (checked in
/// the tests); they are written here because the `f64` difference `b − b̂` loses bits to
/// cancellation (`35/384 − 5179/57600` is 7 units in the last place away from `71/57600`,
/// `e₃`, `e₄`, `e₆` are off by 4, 1 and 2 units), while Hairer's code uses the correctly
/// rounded fractions — bitwise reproduction of his error estimates needs the same numbers.
///
/// # References
/// Dormand & Prince (1980), Table 2; Hairer's `dopri5.f`, subroutine `CDOPRI`.
pub const DOPRI5_E: [f64; 7] = [
    71.0 / 57600.0,
    0.0,
    -71.0 / 16695.0,
    71.0 / 1920.0,
    -17253.0 / 339200.0,
    22.0 / 525.0,
    -1.0 / 40.0,
];

/// The stability border of DOPRI5 on the negative real axis used by Hairer's stiffness test
/// (`HLAMB > 3.25`; HNW I, §II.10).
pub const DOPRI5_STIFFNESS_BORDER: f64 = 3.25;

/// The coefficients the stepper uses, read once from the registry (and [`DOPRI5_E`]).
#[derive(Debug, Clone, PartialEq)]
struct Coefficients {
    /// `a_ij`, `A` of [`DOPRI5`] (row 7 is `b`).
    a: [[f64; 7]; 7],
    /// `c_i`.
    c: [f64; 7],
    /// Shampine's dense-output coefficients `d_i` (the `θ⁴` column of [`DOPRI5`]'s dense output).
    d: [f64; 7],
}

impl Coefficients {
    fn load() -> Self {
        let t = DOPRI5;
        let entry = |v: &[f64], k: usize| v.get(k).copied().unwrap_or(0.0);
        let dense = t.dense.as_ref();
        Self {
            a: std::array::from_fn(|i| std::array::from_fn(|j| entry(&t.a, i * t.stages + j))),
            c: std::array::from_fn(|i| entry(&t.c, i)),
            d: std::array::from_fn(|i| {
                dense
                    .and_then(|dense| dense.coefficients.get(i))
                    .map_or(0.0, |row| entry(row, 3))
            }),
        }
    }
}

/// `out_i = y_i + h·Σ_m w_m·k_m,i`: with [`Summation::Hairer`] the sum taken left to right
/// (Hairer's `Y(I)+H*(A1*K1(I)+A2*K2(I)+…)`), with [`Summation::LatencyOrdered`] the last term
/// (the newest stage) added last, `(y_i + h·Σ_{m<M} w_m·k_m,i) + (h·w_M)·k_M,i`.
#[inline(always)]
pub(crate) fn stage_combination<D, const M: usize>(
    out: &mut OVector<f64, D>,
    y: &OVector<f64, D>,
    h: f64,
    terms: [(f64, &OVector<f64, D>); M],
    summation: Summation,
) where
    D: DimName,
    DefaultAllocator: Allocator<D>,
{
    // Slices, not indices: no bounds checks in the hot loop.
    let slices: [(f64, &[f64]); M] = std::array::from_fn(|m| (terms[m].0, terms[m].1.as_slice()));
    let out = out.as_mut_slice();
    let y = y.as_slice();
    match summation {
        Summation::Hairer => {
            for (i, (o, yi)) in out.iter_mut().zip(y).enumerate() {
                let mut s = slices[0].0 * slices[0].1[i];
                for (w, k) in &slices[1..] {
                    s += w * k[i];
                }
                *o = yi + h * s;
            }
        }
        Summation::LatencyOrdered => {
            let (newest, older) = (slices[M - 1], &slices[..M - 1]);
            let h_newest = h * newest.0;
            for (i, (o, yi)) in out.iter_mut().zip(y).enumerate() {
                let partial = match older.split_first() {
                    Some(((w0, k0), rest)) => {
                        let mut s = w0 * k0[i];
                        for (w, k) in rest {
                            s += w * k[i];
                        }
                        yi + h * s
                    }
                    None => *yi,
                };
                *o = partial + h_newest * newest.1[i];
            }
        }
    }
}

/// `Σ_m w_m·k_m,i` for component `i`, left to right.
#[inline(always)]
pub(crate) fn weighted_sum<D, const M: usize>(i: usize, terms: [(f64, &OVector<f64, D>); M]) -> f64
where
    D: DimName,
    DefaultAllocator: Allocator<D>,
{
    let mut s = terms[0].0 * terms[0].1[i];
    for (w, k) in &terms[1..] {
        s += w * k[i];
    }
    s
}

/// Hairer's DOPRI5 on `ℝᴰ`: the Dormand–Prince 5(4) pair ([`DOPRI5`]) with local
/// extrapolation, FSAL, his step-size control, stiffness test and Shampine's dense output of
/// order 4.
///
/// One step from `(t₀, y₀)` with `k₁ = F(t₀, y₀)` (FSAL) computes
///
/// ```text
/// k_i = F(t₀ + c_i h, y₀ + h Σ_{j<i} a_ij k_j),  i = 2 … 6   (stage 6 at t₀ + h)
/// y₁  = y₀ + h Σ b_i k_i,   k₇ = F(t₀ + h, y₁)               (the next step's k₁)
/// err = sqrt( (1/N) Σ_i ( h Σ_j e_j k_j,i / sk_i )² ),   sk_i = atol_i + rtol_i max(|y₀_i|, |y₁_i|)
/// ```
///
/// with `e = b − b̂` ([`DOPRI5_E`]), and accepts it if `err ≤ 1`; the step size follows
/// [`Controller`](super::Controller) with `expo1 = 0.2 − 0.75β`. Every `every`-th accepted step the
/// stiffness test estimates `hλ = h ‖k₇ − k₆‖/‖y₁ − y₆‖` (stage 6 and the FSAL stage are both at
/// `t₀ + h`) with border [`DOPRI5_STIFFNESS_BORDER`].
///
/// The last step is shortened to `h = t_end − t` and ends at `t + h`, which is `t_end` up to
/// rounding (as in Hairer's code); stepping after the end does nothing.
///
/// # Counting (as Hairer's `NFCN`, `NSTEP`, `NACCPT`, `NREJCT`)
/// - `rhs_evaluations`: 1 for `F(t₀, y₀)` and 1 for the initial-step guess (HINIT) in
///   [`AdaptiveMethod::start`], then 6 per attempted step. Dense output costs nothing. Hairer
///   adds 2 at the start even when the initial step is given (and HINIT is not called); the
///   evaluations counted here are the ones made, so with
///   [`ControllerParameters::initial_step`] set the count is his `NFCN − 1`.
/// - `steps`: attempts; `accepted`; `rejected`: rejections after the first accepted step
///   (rejections of the very first step are not counted, as in his code).
///
/// # Examples
/// ```
/// use lieode::adaptive::{AdaptiveMethod, Dopri5, System, Tolerances};
/// use lieode::engine::Stats;
/// use nalgebra::{Vector2, U2};
///
/// struct Oscillator;
/// impl System<U2> for Oscillator {
///     fn eval(&mut self, _t: f64, x: &Vector2<f64>, stats: &mut Stats) -> lieode::Result<Vector2<f64>> {
///         stats.rhs_evaluations += 1;
///         Ok(Vector2::new(x[1], -x[0]))
///     }
/// }
///
/// let parameters = Dopri5::<U2>::default_parameters(); // = ControllerParameters::dopri5()
/// let mut method: Dopri5<U2> = Dopri5::new(Tolerances::scalar(1e-10, 1e-10)?, parameters)?;
/// let mut stats = Stats::default();
/// method.start(&mut Oscillator, 0.0, &Vector2::new(1.0, 0.0), 1.0, &mut stats)?;
/// while !method.step(&mut Oscillator, &mut stats)?.finished {}
/// let (t, x) = method.current();
/// assert!((x[0] - t.cos()).abs() < 1e-9);
/// assert_eq!(stats.rhs_evaluations, 2 + 6 * stats.steps);
/// # Ok::<(), lieode::Error>(())
/// ```
///
/// # References
/// Dormand & Prince (1980); Shampine (1986); HNW I, §II.4–II.6, §II.10; Hairer's `dopri5.f`.
#[derive(Debug, Clone)]
pub struct Dopri5<D>
where
    D: DimName,
    DefaultAllocator: Allocator<D>,
{
    /// Hairer's control, the current and last step, FSAL and dense output.
    run: RunState<D, 5>,
    coefficients: Coefficients,
    k: [OVector<f64, D>; 7],
    /// Stage arguments: the current one, and stage 6's (for the stiffness test).
    y_stage: OVector<f64, D>,
    y_stiff: OVector<f64, D>,
    summation: Summation,
}

impl<D> Dopri5<D>
where
    D: DimName,
    DefaultAllocator: Allocator<D>,
{
    /// The method with the given tolerances and controller parameters.
    ///
    /// # Errors
    /// [`crate::Error::InvalidParameter`] naming the field of `parameters` that
    /// [`ControllerParameters::validate`] rejects, or `rtol`/`atol` when per-component
    /// tolerances do not have `D` entries.
    pub fn new(tolerances: Tolerances, parameters: ControllerParameters) -> Result<Self> {
        let expo1 = 0.2 - parameters.beta * 0.75;
        let zero = OVector::<f64, D>::zeros();
        Ok(Self {
            run: RunState::new(tolerances, parameters, expo1, DOPRI5_STIFFNESS_BORDER)?,
            coefficients: Coefficients::load(),
            k: std::array::from_fn(|_| zero.clone()),
            y_stage: zero.clone(),
            y_stiff: zero.clone(),
            summation: Summation::default(),
        })
    }

    /// The method with the stage arguments rounded as `summation` says (default
    /// [`Summation::LatencyOrdered`]; [`Summation::Hairer`] is bit-identical to `DOPRI5.f`).
    pub fn with_summation(mut self, summation: Summation) -> Self {
        self.summation = summation;
        self
    }

    /// How the stage arguments are summed.
    pub fn summation(&self) -> Summation {
        self.summation
    }

    /// Hairer's defaults for DOPRI5, [`ControllerParameters::dopri5`]: `safe = 0.9`,
    /// `fac1 = 0.2`, `fac2 = 10`, `β = 0.04`, 100000 steps, stiffness test every 1000 steps.
    pub fn default_parameters() -> ControllerParameters {
        ControllerParameters::dopri5()
    }

    /// The tolerances.
    pub fn tolerances(&self) -> &Tolerances {
        &self.run.tolerances
    }

    /// The controller parameters.
    pub fn parameters(&self) -> &ControllerParameters {
        &self.run.parameters
    }

    /// The step size the next attempt will use (after the last step: the proposed one, as
    /// Hairer returns it in `WORK(7)`).
    pub fn step_size(&self) -> f64 {
        self.run.h
    }

    /// How many times the stiffness test detected stiffness (when it does not stop the
    /// integration).
    pub fn stiffness_detections(&self) -> usize {
        self.run.stiffness.detections()
    }

    /// The dense-output coefficients `CONT(1 … 5)` of the last step (Hairer's loops 40 and
    /// 43): `y₀`, `Δ = y₁ − y₀`, `B = h k₁ − Δ`, `C = Δ − h k₇ − B`, `D = h Σ d_i k_i`.
    fn dense_coefficients(&self) -> [OVector<f64, D>; 5] {
        let d = &self.coefficients.d;
        let h = self.run.h_old;
        let k = &self.k;
        let mut cont: [OVector<f64, D>; 5] = std::array::from_fn(|_| OVector::<f64, D>::zeros());
        for i in 0..D::dim() {
            let y0 = self.run.y_old[i];
            let ydiff = self.run.y_new[i] - y0;
            let bspl = h * k[0][i] - ydiff;
            cont[0][i] = y0;
            cont[1][i] = ydiff;
            cont[2][i] = bspl;
            cont[3][i] = -h * k[6][i] + ydiff - bspl;
            cont[4][i] = h * weighted_sum(
                i,
                [
                    (d[0], &k[0]),
                    (d[2], &k[2]),
                    (d[3], &k[3]),
                    (d[4], &k[4]),
                    (d[5], &k[5]),
                    (d[6], &k[6]),
                ],
            );
        }
        cont
    }
}

impl<D> AdaptiveMethod<D> for Dopri5<D>
where
    D: DimName,
    DefaultAllocator: Allocator<D>,
{
    /// Evaluates `F(t₀, x₀)` and, unless an initial step is given, Hairer's HINIT (order 5):
    /// two evaluations. A given initial step is used with the sign of `t_end − t₀`.
    fn start<S: System<D> + ?Sized>(
        &mut self,
        system: &mut S,
        t0: f64,
        x0: &OVector<f64, D>,
        t_end: f64,
        stats: &mut Stats,
    ) -> Result<()> {
        self.run.begin(system, t0, x0, t_end, 5, stats)
    }

    fn step<S: System<D> + ?Sized>(
        &mut self,
        system: &mut S,
        stats: &mut Stats,
    ) -> Result<StepReport> {
        if !self.run.stepping() {
            return self.run.idle_step();
        }
        let n = D::dim();
        let Coefficients { a, c, .. } = &self.coefficients;
        let e = &DOPRI5_E;
        let summation = self.summation;
        self.k[0].copy_from(&self.run.f);
        let mut non_finite = None;
        loop {
            let mut h = self.run.h;
            self.run
                .control
                .before_attempt(self.run.x, &mut h, stats)
                .map_err(|e| underflow_cause(e, non_finite.take()))?;
            self.run.h = h;
            let x = self.run.x;
            let y = &self.run.y;
            let k = &mut self.k;
            // Stage 2: Y(I) + H*A21*K1(I) = (h·a21)·k1.
            let ha21 = h * a[1][0];
            for i in 0..n {
                self.y_stage[i] = y[i] + ha21 * k[0][i];
            }
            trial!(
                system.eval_into(x + c[1] * h, &self.y_stage, &mut k[1], stats),
                non_finite,
                self.run.h = self.run.control.reject_non_finite(h, stats)
            );
            stage_combination(
                &mut self.y_stage,
                y,
                h,
                [(a[2][0], &k[0]), (a[2][1], &k[1])],
                summation,
            );
            trial!(
                system.eval_into(x + c[2] * h, &self.y_stage, &mut k[2], stats),
                non_finite,
                self.run.h = self.run.control.reject_non_finite(h, stats)
            );
            stage_combination(
                &mut self.y_stage,
                y,
                h,
                [(a[3][0], &k[0]), (a[3][1], &k[1]), (a[3][2], &k[2])],
                summation,
            );
            trial!(
                system.eval_into(x + c[3] * h, &self.y_stage, &mut k[3], stats),
                non_finite,
                self.run.h = self.run.control.reject_non_finite(h, stats)
            );
            stage_combination(
                &mut self.y_stage,
                y,
                h,
                [
                    (a[4][0], &k[0]),
                    (a[4][1], &k[1]),
                    (a[4][2], &k[2]),
                    (a[4][3], &k[3]),
                ],
                summation,
            );
            trial!(
                system.eval_into(x + c[4] * h, &self.y_stage, &mut k[4], stats),
                non_finite,
                self.run.h = self.run.control.reject_non_finite(h, stats)
            );
            stage_combination(
                &mut self.y_stiff,
                y,
                h,
                [
                    (a[5][0], &k[0]),
                    (a[5][1], &k[1]),
                    (a[5][2], &k[2]),
                    (a[5][3], &k[3]),
                    (a[5][4], &k[4]),
                ],
                summation,
            );
            let xph = x + h;
            trial!(
                system.eval_into(xph, &self.y_stiff, &mut k[5], stats),
                non_finite,
                self.run.h = self.run.control.reject_non_finite(h, stats)
            );
            stage_combination(
                &mut self.run.y_new,
                y,
                h,
                [
                    (a[6][0], &k[0]),
                    (a[6][2], &k[2]),
                    (a[6][3], &k[3]),
                    (a[6][4], &k[4]),
                    (a[6][5], &k[5]),
                ],
                summation,
            );
            trial!(
                system.eval_into(xph, &self.run.y_new, &mut k[6], stats),
                non_finite,
                self.run.h = self.run.control.reject_non_finite(h, stats)
            );
            // Error estimate: sqrt(Σ (h Σ e_j k_j / sk)² / N).
            let mut err = 0.0;
            for i in 0..n {
                let ei = weighted_sum(
                    i,
                    [
                        (e[0], &k[0]),
                        (e[2], &k[2]),
                        (e[3], &k[3]),
                        (e[4], &k[4]),
                        (e[5], &k[5]),
                        (e[6], &k[6]),
                    ],
                ) * h;
                let sk = self.run.scale(
                    i,
                    system.magnitude(y, i),
                    system.magnitude(&self.run.y_new, i),
                );
                err += scaled_square(ei, sk);
            }
            let err = (err / n as f64).sqrt();
            if err.is_nan() {
                non_finite = Some(crate::Error::NonFiniteState {
                    what: "error estimate",
                    t: x,
                });
                self.run.h = self.run.control.reject_non_finite(h, stats);
                continue;
            }
            let (fac11, h_new) = self.run.control.propose(err, h);
            if err <= 1.0 {
                let accepted = self.run.control.accept(err, stats);
                if self.run.stiffness.due(accepted) {
                    let stnum = squared_distance(&k[6], &k[5]);
                    let stden = squared_distance(&self.run.y_new, &self.y_stiff);
                    self.run.stiffness.test(h, stnum, stden, x)?;
                }
                check_finite(&self.run.y_new, "state", xph)?;
                return Ok(self.run.accept(x, h, h_new, &k[6]));
            }
            self.run.h = self.run.control.reject(fac11, h, stats);
        }
    }

    fn current(&self) -> (f64, &OVector<f64, D>) {
        (self.run.x, &self.run.y)
    }

    fn current_derivative(&self) -> &OVector<f64, D> {
        &self.run.f
    }

    fn rebase(&mut self, x: OVector<f64, D>, derivative: OVector<f64, D>) {
        self.run.y = x;
        self.run.f = derivative;
    }

    /// Shampine's dense output needs no evaluation: this only arranges the coefficients.
    fn prepare_dense<S: System<D> + ?Sized>(
        &mut self,
        _system: &mut S,
        _stats: &mut Stats,
    ) -> Result<()> {
        if !self.run.dense_ready {
            self.run.cont = self.dense_coefficients();
            self.run.dense_ready = true;
        }
        Ok(())
    }

    /// Hairer's `CONTD5`: with `θ = (t − t₀)/h`, `θ₁ = 1 − θ`,
    /// `y(t) = y₀ + θ(Δ + θ₁(B + θ(C + θ₁ D)))` (order 4; exact at `θ = 0` and `θ = 1` up to
    /// rounding). Before [`AdaptiveMethod::prepare_dense`] of the last step it computes the
    /// coefficients on the fly (no evaluation is needed); before the first step it returns
    /// the initial state.
    fn dense(&self, t: f64) -> OVector<f64, D> {
        if self.run.dense_ready {
            contd5(&self.run.cont, self.run.x_old, self.run.h_old, t)
        } else {
            contd5(
                &self.dense_coefficients(),
                self.run.x_old,
                self.run.h_old,
                t,
            )
        }
    }

    /// `CONTD5` is a polynomial of degree 4 in θ.
    fn dense_degree(&self) -> usize {
        4
    }

    fn order(&self) -> usize {
        5
    }

    fn name(&self) -> &str {
        "DOPRI5"
    }
}

/// `CONTD5` for every component.
fn contd5<D>(cont: &[OVector<f64, D>; 5], x_old: f64, h: f64, t: f64) -> OVector<f64, D>
where
    D: DimName,
    DefaultAllocator: Allocator<D>,
{
    let theta = (t - x_old) / h;
    let theta1 = 1.0 - theta;
    let mut out = cont[0].clone();
    for i in 0..D::dim() {
        out[i] = cont[0][i]
            + theta
                * (cont[1][i] + theta1 * (cont[2][i] + theta * (cont[3][i] + theta1 * cont[4][i])));
    }
    out
}
