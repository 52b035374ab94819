//! # DOP853: Hairer's Dormand–Prince 8(5,3) code
//!
//! [`Dop853`] reproduces Hairer & Wanner's Fortran `dop853.f` step for step and evaluation for
//! evaluation: the twelve stages of [`crate::tableau::registry::DOP853`] in the order of
//! operations of the Fortran, the FSAL evaluation, the two error estimators of order 5 and 3,
//! the step-size control ([`super::Controller`]), the initial step
//! ([`super::hairer::initial_step`], order 8), the stiffness test, and the dense output of
//! order 7 with three extra stages (`CONTD8`). `tests/hairer_dopri.rs` checks the counts and
//! final values against the Fortran code.
//!
//! # References
//! P. J. Prince, J. R. Dormand, *High order embedded Runge–Kutta formulae*, J. Comput. Appl.
//! Math. 7 (1981) 67–75; E. Hairer, S. P. Nørsett, G. Wanner, *Solving Ordinary Differential
//! Equations I*, 2nd ed., Springer 1993, §II.5 (DOP853, Table 5.3), §II.6 (dense output),
//! §II.10 (error estimator and stiffness test); E. Hairer, G. Wanner, `dop853.f`, version of
//! April 25, 1996 (small corrections March 4, 2002), subroutine `DP86CO`.

use nalgebra::{DefaultAllocator, DimName, OVector, allocator::Allocator};

use super::controller::ControllerParameters;
use super::dopri5::{stage_combination, weighted_sum};
use super::hairer::underflow_cause;
use super::hairer::{check_finite, scaled_square, squared_distance};
use super::run_state::RunState;
use super::summation::Summation;
use super::tolerance::Tolerances;
use super::{AdaptiveMethod, StepReport, System};
use crate::engine::Stats;
use crate::error::Result;
use crate::tableau::registry::{DOP853, DOP853_BHH, DOP853_ER};

/// The nodes `c₁₄, c₁₅, c₁₆` of the three extra stages of DOP853's dense output
/// (Hairer's `c14`, `c15`, `c16`).
///
/// # References
/// Hairer's `dop853.f`, subroutine `DP86CO` (30 significant digits, rounded to `f64`).
#[allow(clippy::excessive_precision)] // the published 30 digits, kept verbatim
pub const DOP853_DENSE_C: [f64; 3] = [0.1e+00, 0.2e+00, 0.777777777777777777777777777778e+00];

/// The rows `a_{14,j}`, `a_{15,j}`, `a_{16,j}` (`j = 1 … 16`) of the extra stages of DOP853's
/// dense output. Stage 13 is the FSAL evaluation `F(t₀ + h, y₁)` (weights `b`); stages 14–16
/// are `k_i = F(t₀ + c_i h, y₀ + h Σ_{j<i} a_ij k_j)`.
///
/// # References
/// Hairer's `dop853.f`, parameters `a141 … a1615` (30 significant digits, rounded to `f64`).
#[rustfmt::skip]
#[allow(clippy::excessive_precision)] // the published 30 digits, kept verbatim
pub const DOP853_DENSE_A: [[f64; 16]; 3] = [
    [
        5.61675022830479523392909219681e-2, 0.0, 0.0, 0.0, 0.0, 0.0,
        2.53500210216624811088794765333e-1, -2.46239037470802489917441475441e-1,
        -1.24191423263816360469010140626e-1, 1.5329179827876569731206322685e-1,
        8.20105229563468988491666602057e-3, 7.56789766054569976138603589584e-3,
        -8.298e-3, 0.0, 0.0, 0.0,
    ],
    [
        3.18346481635021405060768473261e-2, 0.0, 0.0, 0.0, 0.0,
        2.83009096723667755288322961402e-2, 5.35419883074385676223797384372e-2,
        -5.49237485713909884646569340306e-2, 0.0, 0.0,
        -1.08347328697249322858509316994e-4, 3.82571090835658412954920192323e-4,
        -3.40465008687404560802977114492e-4, 1.41312443674632500278074618366e-1, 0.0, 0.0,
    ],
    [
        -4.28896301583791923408573538692e-1, 0.0, 0.0, 0.0, 0.0,
        -4.69762141536116384314449447206e0, 7.68342119606259904184240953878e0,
        4.06898981839711007970213554331e0, 3.56727187455281109270669543021e-1, 0.0, 0.0, 0.0,
        -1.39902416515901462129418009734e-3, 2.9475147891527723389556272149e0,
        -9.15095847217987001081870187138e0, 0.0,
    ],
];

/// The dense-output weights `d_{m,j}` (`m = 4 … 7`, `j = 1 … 16`) of DOP853: the coefficients
/// `CONT(4 … 7) = h Σ_j d_{m,j} k_j` of the interpolant (see [`Dop853`]).
///
/// # References
/// Hairer's `dop853.f`, parameters `d41 … d716` (29–30 significant digits, rounded to `f64`).
#[rustfmt::skip]
#[allow(clippy::excessive_precision)] // the published 30 digits, kept verbatim
pub const DOP853_DENSE_D: [[f64; 16]; 4] = [
    [
        -0.84289382761090128651353491142e+01, 0.0, 0.0, 0.0, 0.0,
        0.56671495351937776962531783590e+00, -0.30689499459498916912797304727e+01,
        0.23846676565120698287728149680e+01, 0.21170345824450282767155149946e+01,
        -0.87139158377797299206789907490e+00, 0.22404374302607882758541771650e+01,
        0.63157877876946881815570249290e+00, -0.88990336451333310820698117400e-01,
        0.18148505520854727256656404962e+02, -0.91946323924783554000451984436e+01,
        -0.44360363875948939664310572000e+01,
    ],
    [
        0.10427508642579134603413151009e+02, 0.0, 0.0, 0.0, 0.0,
        0.24228349177525818288430175319e+03, 0.16520045171727028198505394887e+03,
        -0.37454675472269020279518312152e+03, -0.22113666853125306036270938578e+02,
        0.77334326684722638389603898808e+01, -0.30674084731089398182061213626e+02,
        -0.93321305264302278729567221706e+01, 0.15697238121770843886131091075e+02,
        -0.31139403219565177677282850411e+02, -0.93529243588444783865713862664e+01,
        0.35816841486394083752465898540e+02,
    ],
    [
        0.19985053242002433820987653617e+02, 0.0, 0.0, 0.0, 0.0,
        -0.38703730874935176555105901742e+03, -0.18917813819516756882830838328e+03,
        0.52780815920542364900561016686e+03, -0.11573902539959630126141871134e+02,
        0.68812326946963000169666922661e+01, -0.10006050966910838403183860980e+01,
        0.77771377980534432092869265740e+00, -0.27782057523535084065932004339e+01,
        -0.60196695231264120758267380846e+02, 0.84320405506677161018159903784e+02,
        0.11992291136182789328035130030e+02,
    ],
    [
        -0.25693933462703749003312586129e+02, 0.0, 0.0, 0.0, 0.0,
        -0.15418974869023643374053993627e+03, -0.23152937917604549567536039109e+03,
        0.35763911791061412378285349910e+03, 0.93405324183624310003907691704e+02,
        -0.37458323136451633156875139351e+02, 0.10409964950896230045147246184e+03,
        0.29840293426660503123344363579e+02, -0.43533456590011143754432175058e+02,
        0.96324553959188282948394950600e+02, -0.39177261675615439165231486172e+02,
        -0.14972683625798562581422125276e+03,
    ],
];

/// The stability border of DOP853 on the negative real axis used by Hairer's stiffness test
/// (`HLAMB > 6.1`; HNW I, §II.10).
pub const DOP853_STIFFNESS_BORDER: f64 = 6.1;

/// The coefficients the stepper uses, read once from the registry.
#[derive(Debug, Clone, PartialEq)]
struct Coefficients {
    a: [[f64; 12]; 12],
    b: [f64; 12],
    c: [f64; 12],
}

impl Coefficients {
    fn load() -> Self {
        let t = DOP853;
        let entry = |v: &[f64], k: usize| v.get(k).copied().unwrap_or(0.0);
        Self {
            a: std::array::from_fn(|i| std::array::from_fn(|j| entry(&t.a, i * t.stages + j))),
            b: std::array::from_fn(|i| entry(&t.b, i)),
            c: std::array::from_fn(|i| entry(&t.c, i)),
        }
    }
}

/// Hairer's DOP853 on `ℝᴰ`: the explicit Dormand–Prince method of order 8 ([`DOP853`]) with
/// error estimators of orders 5 and 3, FSAL, his step-size control, stiffness test and dense
/// output of order 7.
///
/// One step from `(t₀, y₀)` with `k₁ = F(t₀, y₀)` computes the twelve stages of [`DOP853`]
/// (stage 12 at `t₀ + h`), `Δ = Σ b_i k_i`, `y₁ = y₀ + hΔ`, and with
/// `sk_i = atol_i + rtol_i max(|y₀_i|, |y₁_i|)`
///
/// ```text
/// err5_i = Σ_j er_j k_j,i                         (DOP853_ER: the 5th-order estimate / h)
/// err3_i = Δ_i − bhh₁ k₁,i − bhh₂ k₉,i − bhh₃ k₁₂,i     (DOP853_BHH: the 3rd-order estimate / h)
/// E5 = Σ (err5_i/sk_i)²,  E3 = Σ (err3_i/sk_i)²,  deno = E5 + 0.01 E3  (1 if ≤ 0)
/// err = |h| · E5 · sqrt(1/(N·deno))
/// ```
///
/// (HNW I, §II.10, eq. (10.17)), accepts it if `err ≤ 1` and then evaluates
/// `k₁₃ = F(t₀ + h, y₁)`, the next step's `k₁`. The step size follows [`Controller`](super::Controller) with
/// `expo1 = 1/8 − 0.2β`. The stiffness test estimates `hλ = |h| ‖k₁₃ − k₁₂‖/‖y₁ − Y₁₂‖` (`Y₁₂`
/// the argument of stage 12) with border [`DOP853_STIFFNESS_BORDER`].
///
/// Dense output ([`AdaptiveMethod::prepare_dense`]) evaluates three more stages
/// `k₁₄, k₁₅, k₁₆` ([`DOP853_DENSE_C`], [`DOP853_DENSE_A`]) and forms, with `s = (t − t₀)/h`,
/// `s₁ = 1 − s`:
///
/// ```text
/// Δy = y₁ − y₀,  B = h k₁ − Δy,  C = Δy − h k₁₃ − B,  D_m = h Σ_j d_{m,j} k_j  (m = 4 … 7)
/// y(t) = y₀ + s(Δy + s₁(B + s(C + s₁(D₄ + s(D₅ + s₁(D₆ + s D₇))))))
/// ```
///
/// (`CONTD8`; [`DOP853_DENSE_D`]), a continuous extension of order 7.
///
/// The last step is shortened to `h = t_end − t` and ends at `t + h`, which is `t_end` up to
/// rounding (as in Hairer's code); stepping after the end does nothing.
///
/// # Counting (as Hairer's `NFCN`, `NSTEP`, `NACCPT`, `NREJCT`)
/// - `rhs_evaluations`: 1 for `F(t₀, y₀)` and 1 for HINIT in [`AdaptiveMethod::start`], 11
///   per attempted step, 1 per accepted step (FSAL), and 3 per accepted step whose dense
///   output is prepared — Hairer's count with dense output (`IOUT = 2`) when
///   [`AdaptiveMethod::prepare_dense`] is called after every step, without it otherwise.
///   Hairer adds 2 at the start even when the initial step is given; the evaluations
///   counted here are the ones made, so with [`ControllerParameters::initial_step`] set the
///   count is his `NFCN − 1`.
/// - `steps`: attempts; `accepted`; `rejected`: rejections after the first accepted step.
///
/// # Examples
/// ```
/// use lieode::adaptive::{AdaptiveMethod, Dop853, System, Tolerances};
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
/// let parameters = Dop853::<U2>::default_parameters(); // = ControllerParameters::dop853()
/// let mut method: Dop853<U2> = Dop853::new(Tolerances::scalar(1e-12, 1e-12)?, parameters)?;
/// let mut stats = Stats::default();
/// method.start(&mut Oscillator, 0.0, &Vector2::new(1.0, 0.0), 1.0, &mut stats)?;
/// loop {
///     let report = method.step(&mut Oscillator, &mut stats)?;
///     method.prepare_dense(&mut Oscillator, &mut stats)?;
///     let t = 0.5 * (report.t_start + report.t_end);
///     assert!((method.dense(t)[0] - t.cos()).abs() < 1e-11);
///     if report.finished {
///         break;
///     }
/// }
/// assert_eq!(stats.rhs_evaluations, 2 + 11 * stats.steps + 4 * stats.accepted);
/// # Ok::<(), lieode::Error>(())
/// ```
///
/// # References
/// Prince & Dormand (1981); HNW I, §II.5, §II.6, §II.10; Hairer's `dop853.f`.
#[derive(Debug, Clone)]
pub struct Dop853<D>
where
    D: DimName,
    DefaultAllocator: Allocator<D>,
{
    /// Hairer's control, the current and last step, FSAL and dense output.
    run: RunState<D, 8>,
    coefficients: Coefficients,
    /// `k₁ … k₁₂`, `k₁₃ = F(t₀ + h, y₁)`, and the dense-output stages `k₁₄ … k₁₆`.
    k: [OVector<f64, D>; 16],
    /// The stage argument (after stage 12: stage 12's, for the stiffness test).
    y_stage: OVector<f64, D>,
    /// `Δ = Σ b_i k_i` (Hairer's `K4` before the FSAL evaluation).
    increment: OVector<f64, D>,
    summation: Summation,
}

impl<D> Dop853<D>
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
        let expo1 = 1.0 / 8.0 - parameters.beta * 0.2;
        let zero = OVector::<f64, D>::zeros();
        Ok(Self {
            run: RunState::new(tolerances, parameters, expo1, DOP853_STIFFNESS_BORDER)?,
            coefficients: Coefficients::load(),
            k: std::array::from_fn(|_| zero.clone()),
            y_stage: zero.clone(),
            increment: zero.clone(),
            summation: Summation::default(),
        })
    }

    /// The method with the stage arguments rounded as `summation` says (default
    /// [`Summation::LatencyOrdered`]; [`Summation::Hairer`] is bit-identical to `DOP853.f`).
    pub fn with_summation(mut self, summation: Summation) -> Self {
        self.summation = summation;
        self
    }

    /// How the stage arguments are summed.
    pub fn summation(&self) -> Summation {
        self.summation
    }

    /// Hairer's defaults for DOP853, [`ControllerParameters::dop853`]: `safe = 0.9`,
    /// `fac1 = 0.333`, `fac2 = 6`, `β = 0`, 100000 steps, stiffness test every 1000 steps.
    pub fn default_parameters() -> ControllerParameters {
        ControllerParameters::dop853()
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
}

impl<D> AdaptiveMethod<D> for Dop853<D>
where
    D: DimName,
    DefaultAllocator: Allocator<D>,
{
    /// Evaluates `F(t₀, x₀)` and, unless an initial step is given, Hairer's HINIT (order 8):
    /// two evaluations. A given initial step is used with the sign of `t_end − t₀`.
    fn start<S: System<D> + ?Sized>(
        &mut self,
        system: &mut S,
        t0: f64,
        x0: &OVector<f64, D>,
        t_end: f64,
        stats: &mut Stats,
    ) -> Result<()> {
        self.run.begin(system, t0, x0, t_end, 8, stats)
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
        let Coefficients { a, b, c } = &self.coefficients;
        let er = DOP853_ER;
        let bhh = DOP853_BHH;
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
            let ys = &mut self.y_stage;
            // Stage 2: Y(I) + H*A21*K1(I) = (h·a21)·k1.
            let ha21 = h * a[1][0];
            for i in 0..n {
                ys[i] = y[i] + ha21 * k[0][i];
            }
            trial!(
                system.eval_into(x + c[1] * h, ys, &mut k[1], stats),
                non_finite,
                self.run.h = self.run.control.reject_non_finite(h, stats)
            );
            stage_combination(ys, y, h, [(a[2][0], &k[0]), (a[2][1], &k[1])], summation);
            trial!(
                system.eval_into(x + c[2] * h, ys, &mut k[2], stats),
                non_finite,
                self.run.h = self.run.control.reject_non_finite(h, stats)
            );
            stage_combination(ys, y, h, [(a[3][0], &k[0]), (a[3][2], &k[2])], summation);
            trial!(
                system.eval_into(x + c[3] * h, ys, &mut k[3], stats),
                non_finite,
                self.run.h = self.run.control.reject_non_finite(h, stats)
            );
            stage_combination(
                ys,
                y,
                h,
                [(a[4][0], &k[0]), (a[4][2], &k[2]), (a[4][3], &k[3])],
                summation,
            );
            trial!(
                system.eval_into(x + c[4] * h, ys, &mut k[4], stats),
                non_finite,
                self.run.h = self.run.control.reject_non_finite(h, stats)
            );
            stage_combination(
                ys,
                y,
                h,
                [(a[5][0], &k[0]), (a[5][3], &k[3]), (a[5][4], &k[4])],
                summation,
            );
            trial!(
                system.eval_into(x + c[5] * h, ys, &mut k[5], stats),
                non_finite,
                self.run.h = self.run.control.reject_non_finite(h, stats)
            );
            stage_combination(
                ys,
                y,
                h,
                [
                    (a[6][0], &k[0]),
                    (a[6][3], &k[3]),
                    (a[6][4], &k[4]),
                    (a[6][5], &k[5]),
                ],
                summation,
            );
            trial!(
                system.eval_into(x + c[6] * h, ys, &mut k[6], stats),
                non_finite,
                self.run.h = self.run.control.reject_non_finite(h, stats)
            );
            stage_combination(
                ys,
                y,
                h,
                [
                    (a[7][0], &k[0]),
                    (a[7][3], &k[3]),
                    (a[7][4], &k[4]),
                    (a[7][5], &k[5]),
                    (a[7][6], &k[6]),
                ],
                summation,
            );
            trial!(
                system.eval_into(x + c[7] * h, ys, &mut k[7], stats),
                non_finite,
                self.run.h = self.run.control.reject_non_finite(h, stats)
            );
            stage_combination(
                ys,
                y,
                h,
                [
                    (a[8][0], &k[0]),
                    (a[8][3], &k[3]),
                    (a[8][4], &k[4]),
                    (a[8][5], &k[5]),
                    (a[8][6], &k[6]),
                    (a[8][7], &k[7]),
                ],
                summation,
            );
            trial!(
                system.eval_into(x + c[8] * h, ys, &mut k[8], stats),
                non_finite,
                self.run.h = self.run.control.reject_non_finite(h, stats)
            );
            stage_combination(
                ys,
                y,
                h,
                [
                    (a[9][0], &k[0]),
                    (a[9][3], &k[3]),
                    (a[9][4], &k[4]),
                    (a[9][5], &k[5]),
                    (a[9][6], &k[6]),
                    (a[9][7], &k[7]),
                    (a[9][8], &k[8]),
                ],
                summation,
            );
            trial!(
                system.eval_into(x + c[9] * h, ys, &mut k[9], stats),
                non_finite,
                self.run.h = self.run.control.reject_non_finite(h, stats)
            );
            stage_combination(
                ys,
                y,
                h,
                [
                    (a[10][0], &k[0]),
                    (a[10][3], &k[3]),
                    (a[10][4], &k[4]),
                    (a[10][5], &k[5]),
                    (a[10][6], &k[6]),
                    (a[10][7], &k[7]),
                    (a[10][8], &k[8]),
                    (a[10][9], &k[9]),
                ],
                summation,
            );
            trial!(
                system.eval_into(x + c[10] * h, ys, &mut k[10], stats),
                non_finite,
                self.run.h = self.run.control.reject_non_finite(h, stats)
            );
            let xph = x + h;
            stage_combination(
                ys,
                y,
                h,
                [
                    (a[11][0], &k[0]),
                    (a[11][3], &k[3]),
                    (a[11][4], &k[4]),
                    (a[11][5], &k[5]),
                    (a[11][6], &k[6]),
                    (a[11][7], &k[7]),
                    (a[11][8], &k[8]),
                    (a[11][9], &k[9]),
                    (a[11][10], &k[10]),
                ],
                summation,
            );
            trial!(
                system.eval_into(xph, ys, &mut k[11], stats),
                non_finite,
                self.run.h = self.run.control.reject_non_finite(h, stats)
            );
            // Δ = Σ b_i k_i, y₁ = y₀ + hΔ.
            for i in 0..n {
                let d = weighted_sum(
                    i,
                    [
                        (b[0], &k[0]),
                        (b[5], &k[5]),
                        (b[6], &k[6]),
                        (b[7], &k[7]),
                        (b[8], &k[8]),
                        (b[9], &k[9]),
                        (b[10], &k[10]),
                        (b[11], &k[11]),
                    ],
                );
                self.increment[i] = d;
                self.run.y_new[i] = y[i] + h * d;
            }
            // The two error estimators.
            let mut err = 0.0;
            let mut err2 = 0.0;
            for i in 0..n {
                let sk = self.run.scale(
                    i,
                    system.magnitude(y, i),
                    system.magnitude(&self.run.y_new, i),
                );
                let e3 =
                    self.increment[i] - bhh[0] * k[0][i] - bhh[8] * k[8][i] - bhh[11] * k[11][i];
                err2 += scaled_square(e3, sk);
                let e5 = weighted_sum(
                    i,
                    [
                        (er[0], &k[0]),
                        (er[5], &k[5]),
                        (er[6], &k[6]),
                        (er[7], &k[7]),
                        (er[8], &k[8]),
                        (er[9], &k[9]),
                        (er[10], &k[10]),
                        (er[11], &k[11]),
                    ],
                );
                err += scaled_square(e5, sk);
            }
            let mut deno = err + 0.01 * err2;
            if deno <= 0.0 {
                deno = 1.0;
            }
            let err = h.abs() * err * (1.0 / (n as f64 * deno)).sqrt();
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
                // The FSAL stage before the acceptance, so that a non-finite f(y₁) rejects.
                trial!(
                    system.eval_into(xph, &self.run.y_new, &mut k[12], stats),
                    non_finite,
                    self.run.h = self.run.control.reject_non_finite(h, stats)
                );
                let accepted = self.run.control.accept(err, stats);
                if self.run.stiffness.due(accepted) {
                    let stnum = squared_distance(&k[12], &k[11]);
                    let stden = squared_distance(&self.run.y_new, ys);
                    self.run.stiffness.test(h.abs(), stnum, stden, x)?;
                }
                check_finite(&self.run.y_new, "state", xph)?;
                return Ok(self.run.accept(x, h, h_new, &k[12]));
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

    /// Evaluates the three extra stages `k₁₄, k₁₅, k₁₆` of the last step (3 evaluations, once
    /// per step; later calls for the same step do nothing) and forms `CONT(1 … 8)`
    /// (Hairer's loops 62, 51–53 and 63, in his order of operations).
    fn prepare_dense<S: System<D> + ?Sized>(
        &mut self,
        system: &mut S,
        stats: &mut Stats,
    ) -> Result<()> {
        if self.run.dense_ready {
            return Ok(());
        }
        let n = D::dim();
        let h = self.run.h_old;
        let x = self.run.x_old;
        let y = &self.run.y_old;
        let summation = self.summation;
        let k = &mut self.k;
        let ys = &mut self.y_stage;
        let [a14, a15, a16] = &DOP853_DENSE_A;
        let dc = DOP853_DENSE_C;
        stage_combination(
            ys,
            y,
            h,
            [
                (a14[0], &k[0]),
                (a14[6], &k[6]),
                (a14[7], &k[7]),
                (a14[8], &k[8]),
                (a14[9], &k[9]),
                (a14[10], &k[10]),
                (a14[11], &k[11]),
                (a14[12], &k[12]),
            ],
            summation,
        );
        k[13] = system.eval(x + dc[0] * h, ys, stats)?;
        stage_combination(
            ys,
            y,
            h,
            [
                (a15[0], &k[0]),
                (a15[5], &k[5]),
                (a15[6], &k[6]),
                (a15[7], &k[7]),
                (a15[10], &k[10]),
                (a15[11], &k[11]),
                (a15[12], &k[12]),
                (a15[13], &k[13]),
            ],
            summation,
        );
        k[14] = system.eval(x + dc[1] * h, ys, stats)?;
        stage_combination(
            ys,
            y,
            h,
            [
                (a16[0], &k[0]),
                (a16[5], &k[5]),
                (a16[6], &k[6]),
                (a16[7], &k[7]),
                (a16[8], &k[8]),
                (a16[12], &k[12]),
                (a16[13], &k[13]),
                (a16[14], &k[14]),
            ],
            summation,
        );
        k[15] = system.eval(x + dc[2] * h, ys, stats)?;
        for i in 0..n {
            let y0 = y[i];
            let ydiff = self.run.y_new[i] - y0;
            let bspl = h * k[0][i] - ydiff;
            self.run.cont[0][i] = y0;
            self.run.cont[1][i] = ydiff;
            self.run.cont[2][i] = bspl;
            self.run.cont[3][i] = ydiff - h * k[12][i] - bspl;
            for (m, d) in DOP853_DENSE_D.iter().enumerate() {
                self.run.cont[4 + m][i] = h * weighted_sum(
                    i,
                    [
                        (d[0], &k[0]),
                        (d[5], &k[5]),
                        (d[6], &k[6]),
                        (d[7], &k[7]),
                        (d[8], &k[8]),
                        (d[9], &k[9]),
                        (d[10], &k[10]),
                        (d[11], &k[11]),
                        (d[12], &k[12]),
                        (d[13], &k[13]),
                        (d[14], &k[14]),
                        (d[15], &k[15]),
                    ],
                );
            }
        }
        self.run.dense_ready = true;
        Ok(())
    }

    /// Hairer's `CONTD8`: with `s = (t − t₀)/h`, `s₁ = 1 − s`,
    /// `y(t) = y₀ + s(Δy + s₁(B + s(C + s₁(D₄ + s(D₅ + s₁(D₆ + s D₇))))))` (order 7). Before the
    /// first step it returns the initial state; after a step whose dense output was not
    /// prepared ([`AdaptiveMethod::prepare_dense`] evaluates the extra stages) every entry is
    /// NaN.
    fn dense(&self, t: f64) -> OVector<f64, D> {
        if !self.run.dense_ready {
            return OVector::<f64, D>::from_element(f64::NAN);
        }
        let s = (t - self.run.x_old) / self.run.h_old;
        let s1 = 1.0 - s;
        let c = &self.run.cont;
        let mut out = c[0].clone();
        for i in 0..D::dim() {
            let conpar = c[4][i] + s * (c[5][i] + s1 * (c[6][i] + s * c[7][i]));
            out[i] = c[0][i] + s * (c[1][i] + s1 * (c[2][i] + s * (c[3][i] + s1 * conpar)));
        }
        out
    }

    /// `CONTD8` is a polynomial of degree 7 in s.
    fn dense_degree(&self) -> usize {
        7
    }

    fn order(&self) -> usize {
        8
    }

    fn name(&self) -> &str {
        "DOP853"
    }
}
