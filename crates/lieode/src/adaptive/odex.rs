//! # ODEX: Gragg–Bulirsch–Stoer extrapolation with Hairer's order and step-size control
//!
//! The algorithm of E. Hairer and G. Wanner's Fortran code ODEX (dense output by E. Hairer and
//! A. Ostermann), described in Hairer, Nørsett & Wanner, *Solving Ordinary Differential
//! Equations I*, 2nd ed. (1993), §II.9, reproduced step for step and evaluation for evaluation.
//! The code is written anew (nothing is copied) from the book and from a reading of the public
//! Fortran source; `tests/hairer_odex.rs` checks counts, end values and dense output against
//! the compiled Fortran code — they agree bit for bit.
//!
//! ## One line of the extrapolation table (Gragg's smoothed midpoint rule)
//!
//! For the step `[x, x + H]` and a step number `n_j` (even), `h_j = H/n_j`:
//!
//! ```text
//! u₀ = y₀,   u₁ = u₀ + h_j f(x, u₀),
//! u_{m+1} = u_{m−1} + 2 h_j f(x + m h_j, u_m),          m = 1, …, n_j − 1,
//! T_{j,1} = ½ (u_{n_j−1} + u_{n_j} + h_j f(x + H, u_{n_j}))   (Gragg's smoothing step),
//! ```
//!
//! which costs `n_j` evaluations (`f(x, y₀)` is shared by all lines). `T_{j,1}` has an
//! asymptotic expansion in even powers of `h_j` (Gragg 1965; HNW I, §II.9), so the
//! Aitken–Neville scheme
//!
//! ```text
//! T_{j,k+1} = T_{j,k} + (T_{j,k} − T_{j−1,k}) / ((n_j/n_{j−k})² − 1)
//! ```
//!
//! raises the order by two per column: `T_{k,k}` is of order `2k` (local error `O(H^{2k+1})`).
//! Column `k` is accepted as the solution, `y₁ = T_{k,k}`.
//!
//! ## Error estimate and step sizes (HNW I, §II.9)
//!
//! ```text
//! sk_i = atol_i + rtol_i · max(|y₀,i|, |T_{k,k,i}|),
//! err_k = sqrt( (1/N) Σ_i ((T_{k,k,i} − T_{k,k−1,i}) / sk_i)² ),
//! H_k = H / fac,   fac = min(fac2/facmin, max(facmin, (err_k/safe1)^{1/(2k−1)} / safe2)),
//! facmin = fac1^{1/(2k−1)},   H_k ≤ hmax,
//! ```
//!
//! with Hairer's `safe1 = 0.65`, `safe2 = 0.94`, `fac1 = 0.02`, `fac2 = 4`. The work per unit
//! step of column `k` is `W_k = A_k / H_k` with `A_1 = n_1 + 1`, `A_k = A_{k−1} + n_k`.
//!
//! ## Order selection and the convergence monitor (HNW I, §II.9)
//!
//! With `k` the current optimal column, a step computes lines `1, …, k − 1`; if `err ≤ 1`
//! there it is accepted; if `err > ((n_{k+1} n_k)/4)²` convergence in line `k + 1` is hopeless
//! and the step is rejected; otherwise line `k` is computed (accept if `err ≤ 1`), then line
//! `k + 1` if `err ≤ (n_{k+1}/2)²` (accept if `err ≤ 1`), else the step is rejected. The first
//! step and the last one (the step that reaches `x_end`) instead compute lines `1, 2, …` until
//! `err ≤ 1`. After an accepted step in column `κ` the new optimal column is
//!
//! - `κ = 2`: `min(3, km − 1)` (2 after a rejection);
//! - `κ ≤ k`: `κ − 1` if `W_{κ−1} < fac3 · W_κ`; `min(κ + 1, km − 1)` if `W_κ < fac4 · W_{κ−1}`;
//! - `κ = k + 1`: `κ − 2` if `κ > 3` and `W_{κ−2} < fac3 · W_{κ−1}`, else `κ − 1`; then
//!   `min(κ, km − 1)` if `W_κ < fac4 · W_{k_opt}`;
//!
//! (`fac3 = 0.8`, `fac4 = 0.9`) and the new step size is `H_{k_opt}` if `k_opt ≤ κ`, otherwise
//! `H_κ · A_{k_opt}/A_κ` (`H_κ · A_{k_opt+1}/A_κ` when `κ < k` and `W_κ < fac4 W_{κ−1}`). After
//! a rejection the new column is `min(k, κ, km − 1)`, lowered by one if `k > 2` and
//! `W_{k−1} < fac3 · W_k`, and the step is retried with `H_k`. The step after a rejection may
//! not grow.
//!
//! A stability check in the midpoint steps `m ≤ mstab` of the lines `j ≤ jstab`
//! (`‖f(u_m) − f(y₀)‖² > 4 max(‖f(y₀)‖², uround)` in the `sk` norm, defaults `mstab = 1`,
//! `jstab = 2`) and a divergence test (`err_j ≥ max(4 err_{j−1}, 1)` from line 3 on, or
//! `err · uround ≥ 1`) restart the step with `H · safe3` (`safe3 = 0.5`).
//!
//! ## Dense output (Hairer & Ostermann 1990; HNW I, §II.9)
//!
//! With dense output the step numbers must satisfy `n_j ≡ 2 (mod 4)` or `n_j ≡ 0 (mod 4)` —
//! Hairer's sequences `2, 6, 10, 14, …` (default) or `4, 8, 12, …` — so that the midpoint
//! `x + H/2` is a grid point of every line. At an accepted step in column `κ` the code
//! extrapolates the midpoint values `u_{n_j/2}` and the central differences of `f(u_m)` around
//! the midpoint (scaled by `(n_j/2)^{l−1}`, then extrapolated over the lines that hold enough
//! points) to approximations `d_l ≈ H^l y^{(l)}(x + H/2)`, `l = 0, …, μ`,
//! `μ = 2κ − mudif + 1` (`mudif = 4`), and builds
//!
//! ```text
//! P(θ) = y₀ + θ (y₁ − y₀ + (1 − θ)(a θ + b (1 − θ)))          (cubic Hermite),
//! a = y₁ − y₀ − H f(x + H, y₁),   b = H f(x, y₀) − (y₁ − y₀),
//! u(θ) = P(θ) + θ² (1 − θ)² Σ_{l=0}^{μ} c_l (θ − ½)^l / l!,
//! ```
//!
//! whose derivatives at `θ = ½` match the `d_l` (this costs the one evaluation `f(x + H, y₁)`,
//! which becomes the next step's `f(x, y₀)`). The last coefficient estimates the interpolation
//! error, `errint = ‖c_μ / sk‖_rms · ε_μ` with `ε_μ = (μ + 4)^{−2} Π_{j=1}^{μ} (√(μ/(μ+4))/2)/j`;
//! the next step is limited to `H / max(errint^{1/(μ+4)}, 0.01)`, and a step with
//! `errint > 10` is rejected. Only the components chosen for dense output
//! ([`OdexParameters::dense_components`], Hairer's `ICOMP`) enter `errint`; this
//! implementation interpolates *all* components.
//!
//! Without dense output, [`AdaptiveMethod::dense`] returns the cubic Hermite interpolant `P(θ)`
//! (order 3), which needs the derivative at the step's end that is computed anyway.
//!
//! ## Evaluation counts
//!
//! [`OdexCounts`] reproduces Hairer's `NFCN`, `NSTEP`, `NACCPT`, `NREJCT` exactly, and
//! [`Stats::steps`], [`Stats::accepted`], [`Stats::rejected`] receive the same increments.
//! `Stats::rhs_evaluations` counts the calls of [`System::eval`] actually made, which differs
//! from `NFCN` by a known amount: [`AdaptiveMethod::start`] evaluates `f(t₀, y₀)` and every
//! accepted step evaluates `f` at its end, so that [`AdaptiveMethod::current_derivative`] is
//! always valid (Hairer's code skips the last of these without dense output and does not count
//! it with dense output), and a restart after the stability check or the divergence test does
//! not re-evaluate `f(x, y₀)` (Hairer's code counts one evaluation there). With the default
//! `mstab = 1`, `rhs_evaluations = NFCN + 1 − restarts`.
//!
//! ## Additions to Hairer's code
//!
//! - [`Error::StepSizeTooSmall`] when `0.1 |H| ≤ |x| · uround` before an attempt (ODEX has no
//!   such test; it would loop until `NMAX`). For the step that ends at `x_end` (`H = x_end − x`)
//!   the test is made with the step size before the shortening to `x_end − x`, as DOPRI5 and
//!   DOP853 make it ([`super::Controller::before_attempt`]): a remainder of a few units in the
//!   last place, left by a step that was not the last, is integrated as a short last step
//!   instead of being reported.
//! - The run ends exactly at `x_end`: the step that ends there sets `x = x_end` (`x + H` may
//!   miss it by rounding), and the run is finished only then. Hairer's code instead stops
//!   (`IDID = 1`) as soon as `0.1 |x_end − x| ≤ |x| · uround`, which can leave the run some
//!   units in the last place short of (or past) `x_end` — or, over a span that `x` cannot
//!   resolve (`[10¹⁵, 10¹⁵ + 1]`), stop at `t₀` without a step. Such a span is reported as
//!   [`Error::StepSizeTooSmall`] here. Neither change touches a run that Hairer's code ends
//!   exactly on `x_end`.
//! - [`Error::NonFiniteState`] when the error estimate is NaN (a right-hand side that returned
//!   NaN without reporting it); infinite estimates restart the step as in Hairer's code.
//!
//! # References
//! - E. Hairer, S. P. Nørsett, G. Wanner, *Solving Ordinary Differential Equations I. Nonstiff
//!   Problems*, 2nd ed., Springer (1993), §II.9 (extrapolation methods, Gragg's asymptotic
//!   expansion, order and step-size control, dense output).
//! - E. Hairer, A. Ostermann, *Dense output for extrapolation methods*, Numer. Math. 58 (1990),
//!   419–439.
//! - W. B. Gragg, *On extrapolation algorithms for ordinary initial value problems*, SIAM J.
//!   Numer. Anal. 2 (1965), 384–403.
//! - R. Bulirsch, J. Stoer, *Numerical treatment of ordinary differential equations by
//!   extrapolation methods*, Numer. Math. 8 (1966), 1–13.
//! - P. Deuflhard, *Order and stepsize control in extrapolation methods*, Numer. Math. 41
//!   (1983), 399–422 (the step-number sequences).

use nalgebra::{DefaultAllocator, DimName, OVector, allocator::Allocator};

use super::hairer::{magnitudes, underflow_cause};
use super::{AdaptiveMethod, StepReport, System, Tolerances};
use crate::engine::Stats;
use crate::error::{Error, Result};

/// The largest number of columns: the dense-output coefficients `c_0, …, c_μ`,
/// `μ ≤ 2 km`, fit into 31 entries as in Hairer's `INTERP` (`A(0:30)`).
pub const MAX_COLUMNS: usize = 15;

/// Hairer's lower bound on the initial step size: `|H₀| ← max(|H₀|, 10⁻⁴)`.
pub const MIN_INITIAL_STEP: f64 = 1e-4;

/// The step-number sequences `n_1, n_2, …` of ODEX (Hairer's `IWORK(3)` = NSEQU).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepSequence {
    /// NSEQU = 1: `n_j = 2j`: 2, 4, 6, 8, 10, 12, … (the default without dense output).
    TwoJ,
    /// NSEQU = 2: `n_1 = 2`, `n_j = 4j − 4`: 2, 4, 8, 12, 16, 20, …
    FourJMinusFour,
    /// NSEQU = 3: 2, 4, 6, then `n_j = 2 n_{j−2}`: 2, 4, 6, 8, 12, 16, 24, 32, … (Bulirsch's
    /// sequence, as Deuflhard (1983) names it).
    Bulirsch,
    /// NSEQU = 4: `n_j = 4j − 2`: 2, 6, 10, 14, 18, … (the default with dense output).
    FourJMinusTwo,
    /// NSEQU = 5: `n_j = 4j`: 4, 8, 12, 16, 20, …
    FourJ,
}

impl StepSequence {
    /// The sequence with Hairer's number `nsequ` (1 to 5).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `sequence` for any other number.
    ///
    /// # Examples
    /// ```
    /// use lieode::adaptive::odex::StepSequence;
    /// assert_eq!(StepSequence::from_nsequ(4).unwrap(), StepSequence::FourJMinusTwo);
    /// assert!(StepSequence::from_nsequ(6).is_err());
    /// ```
    pub fn from_nsequ(nsequ: usize) -> Result<Self> {
        match nsequ {
            1 => Ok(Self::TwoJ),
            2 => Ok(Self::FourJMinusFour),
            3 => Ok(Self::Bulirsch),
            4 => Ok(Self::FourJMinusTwo),
            5 => Ok(Self::FourJ),
            _ => Err(Error::InvalidParameter {
                name: "sequence",
                value: nsequ.to_string(),
                expected: "Hairer's NSEQU, 1 to 5".into(),
            }),
        }
    }

    /// Hairer's number of the sequence (NSEQU).
    pub fn nsequ(self) -> usize {
        match self {
            Self::TwoJ => 1,
            Self::FourJMinusFour => 2,
            Self::Bulirsch => 3,
            Self::FourJMinusTwo => 4,
            Self::FourJ => 5,
        }
    }

    /// Whether the sequence allows dense output (every `n_j` divisible by 4 or every
    /// `n_j ≡ 2 mod 4`, so that the midpoint lies on every line's grid with enough neighbours).
    pub fn supports_dense_output(self) -> bool {
        matches!(self, Self::FourJMinusTwo | Self::FourJ)
    }

    /// The first `km` step numbers `n_1, …, n_km`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `km` above [`MAX_COLUMNS`] (the extrapolation table
    /// never has more columns; beyond it the Bulirsch numbers soon overflow).
    ///
    /// # Examples
    /// ```
    /// use lieode::adaptive::odex::StepSequence;
    /// assert_eq!(StepSequence::Bulirsch.step_numbers(8)?, vec![2, 4, 6, 8, 12, 16, 24, 32]);
    /// assert_eq!(StepSequence::FourJMinusTwo.step_numbers(4)?, vec![2, 6, 10, 14]);
    /// assert!(StepSequence::TwoJ.step_numbers(usize::MAX).is_err());
    /// # Ok::<(), lieode::Error>(())
    /// ```
    pub fn step_numbers(self, km: usize) -> Result<Vec<usize>> {
        if km > MAX_COLUMNS {
            return Err(Error::InvalidParameter {
                name: "km",
                value: km.to_string(),
                expected: format!("at most {MAX_COLUMNS} columns"),
            });
        }
        let mut n = Vec::with_capacity(km);
        for j in 1..=km {
            let nj = match self {
                Self::TwoJ => 2 * j,
                Self::FourJMinusFour => {
                    if j == 1 {
                        2
                    } else {
                        4 * j - 4
                    }
                }
                Self::Bulirsch => {
                    if j <= 3 {
                        2 * j
                    } else {
                        2 * n[j - 3]
                    }
                }
                Self::FourJMinusTwo => 4 * j - 2,
                Self::FourJ => 4 * j,
            };
            n.push(nj);
        }
        Ok(n)
    }
}

/// The parameters of ODEX, with Hairer's defaults (his `WORK`/`IWORK` settings and the
/// initial step of his driver). Checked by [`OdexParameters::validate`] and [`Odex::new`].
///
/// # Examples
/// ```
/// use lieode::adaptive::OdexParameters;
/// let p = OdexParameters { dense_output: true, ..OdexParameters::default() };
/// assert!(p.validate().is_ok());
/// assert_eq!(p.columns, 9);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct OdexParameters {
    /// Rounding unit (`WORK(1)`, default 2.3e-16); `1e-35 < uround < 1`.
    pub uround: f64,
    /// Maximal step size (`WORK(2)`; `None`: `|t_end − t₀|`).
    pub hmax: Option<f64>,
    /// Step-size reduction after a failed stability check or divergence, `safe3`
    /// (`WORK(3)`, default 0.5); `uround < safe3 < 1`.
    pub step_reduction: f64,
    /// `fac1` of the step-size bounds `facmin/fac2 ≤ H_new/H ≤ 1/facmin`,
    /// `facmin = fac1^{1/(2k−1)}` (`WORK(4)`, default 0.02); `0 < fac1 ≤ 1`.
    pub fac1: f64,
    /// `fac2` of the step-size bounds (`WORK(5)`, default 4.0); `fac2 > 0`.
    pub fac2: f64,
    /// Order decrease if `W_{k−1} < fac3 · W_k` (`WORK(6)`, default 0.8); `fac3 > 0`.
    pub fac3: f64,
    /// Order increase if `W_k < fac4 · W_{k−1}` (`WORK(7)`, default 0.9); `fac4 > 0`.
    pub fac4: f64,
    /// Safety factor `safe1` in `(err/safe1)^{1/(2k−1)}` (`WORK(8)`, default 0.65);
    /// `0 < safe1 ≤ 1`.
    pub safe1: f64,
    /// Safety factor `safe2`, `H_new = H · safe2 · (safe1/err)^{1/(2k−1)}` (`WORK(9)`, default
    /// 0.94); `0 < safe2 ≤ 1`.
    pub safe2: f64,
    /// Initial step size. ODEX has no automatic initial step: the default 0.01 is the value of
    /// Hairer's drivers; the code uses `max(|h₀|, 10⁻⁴)`, at most `hmax` and `|t_end − t₀|/2`.
    /// Finite and `≥ 0`.
    pub initial_step: f64,
    /// Maximal number of steps (`IWORK(1)`, default 10000): the error is raised when the step
    /// counter (attempts, as `NSTEP`) reaches it in a basic step; at least 1.
    pub max_steps: usize,
    /// Maximal number of columns of the extrapolation table, `km` (`IWORK(2)`, default 9);
    /// `3 ≤ km ≤` [`MAX_COLUMNS`].
    pub columns: usize,
    /// The step-number sequence (`IWORK(3)`; `None`: [`StepSequence::TwoJ`] without dense
    /// output, [`StepSequence::FourJMinusTwo`] with it).
    pub sequence: Option<StepSequence>,
    /// The stability check is made in the first `mstab` midpoint steps of a line (`IWORK(4)`,
    /// default 1; 0 switches it off).
    pub stability_steps: usize,
    /// … of the lines `1, …, jstab` (`IWORK(5)`, default 2).
    pub stability_lines: usize,
    /// Dense output (Hairer's `IOUT = 2`): changes the default sequence, stores the
    /// derivatives around the midpoint of every line, builds the interpolant of degree `μ + 4`
    /// at each accepted step and adds the interpolation error control. (The evaluation at the
    /// step's end, which the interpolant needs, is made in both modes.)
    pub dense_output: bool,
    /// Control of the interpolation error (`IWORK(6) = 0`, default `true`); only with dense
    /// output.
    pub dense_error_control: bool,
    /// `mudif` in the degree `μ = 2κ − mudif + 1` of the dense output (`IWORK(7)`, default 4);
    /// `1 ≤ mudif ≤ 6`.
    pub mudif: usize,
    /// The components (0-based) whose interpolation error is controlled (Hairer's `ICOMP`,
    /// `IWORK(21…)`); `None`: all. Every component is interpolated either way.
    pub dense_components: Option<Vec<usize>>,
}

impl Default for OdexParameters {
    /// Hairer's defaults, without dense output, initial step 0.01.
    fn default() -> Self {
        Self {
            uround: 2.3e-16,
            hmax: None,
            step_reduction: 0.5,
            fac1: 0.02,
            fac2: 4.0,
            fac3: 0.8,
            fac4: 0.9,
            safe1: 0.65,
            safe2: 0.94,
            initial_step: 0.01,
            max_steps: 10_000,
            columns: 9,
            sequence: None,
            stability_steps: 1,
            stability_lines: 2,
            dense_output: false,
            dense_error_control: true,
            mudif: 4,
            dense_components: None,
        }
    }
}

impl OdexParameters {
    /// The step-number sequence in use: [`OdexParameters::sequence`] or the default for
    /// [`OdexParameters::dense_output`].
    pub fn sequence_in_use(&self) -> StepSequence {
        match self.sequence {
            Some(s) => s,
            None if self.dense_output => StepSequence::FourJMinusTwo,
            None => StepSequence::TwoJ,
        }
    }

    /// Checks every field (Hairer's checks, plus finiteness and positivity of the factors).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the field.
    pub fn validate(&self) -> Result<()> {
        let bad = |name: &'static str, value: String, expected: &str| {
            Err(Error::InvalidParameter {
                name,
                value,
                expected: expected.into(),
            })
        };
        let positive = |x: f64| x > 0.0 && x.is_finite();
        if !(self.uround > 1e-35 && self.uround < 1.0) {
            return bad("uround", format!("{:e}", self.uround), "1e-35 < uround < 1");
        }
        if let Some(h) = self.hmax
            && !positive(h)
        {
            return bad("hmax", format!("{h:e}"), "a finite hmax > 0");
        }
        if !(self.step_reduction > self.uround && self.step_reduction < 1.0) {
            return bad(
                "step_reduction",
                format!("{:e}", self.step_reduction),
                "uround < step_reduction < 1",
            );
        }
        if !(positive(self.fac1) && self.fac1 <= 1.0) {
            return bad("fac1", format!("{:e}", self.fac1), "0 < fac1 ≤ 1");
        }
        for (name, v) in [
            ("fac2", self.fac2),
            ("fac3", self.fac3),
            ("fac4", self.fac4),
        ] {
            if !positive(v) {
                return bad(name, format!("{v:e}"), "a finite value > 0");
            }
        }
        for (name, v) in [("safe1", self.safe1), ("safe2", self.safe2)] {
            if !(positive(v) && v <= 1.0) {
                return bad(name, format!("{v:e}"), "0 < value ≤ 1");
            }
        }
        if !(self.initial_step >= 0.0 && self.initial_step.is_finite()) {
            return bad(
                "initial_step",
                format!("{:e}", self.initial_step),
                "a finite initial step ≥ 0",
            );
        }
        if self.max_steps == 0 {
            return bad("max_steps", "0".into(), "at least one step");
        }
        if !(3..=MAX_COLUMNS).contains(&self.columns) {
            return bad(
                "columns",
                self.columns.to_string(),
                &format!("3 ≤ columns ≤ {MAX_COLUMNS}"),
            );
        }
        if self.dense_output && !self.sequence_in_use().supports_dense_output() {
            return bad(
                "sequence",
                format!("{:?}", self.sequence_in_use()),
                "FourJMinusTwo or FourJ with dense output (Hairer's NSEQU 4 or 5)",
            );
        }
        if !(1..=6).contains(&self.mudif) {
            return bad("mudif", self.mudif.to_string(), "1 ≤ mudif ≤ 6");
        }
        if let Some(c) = &self.dense_components {
            if c.is_empty() {
                return bad(
                    "dense_components",
                    "[]".into(),
                    "at least one component (or None for all)",
                );
            }
            for (i, a) in c.iter().enumerate() {
                if c[..i].contains(a) {
                    return bad(
                        "dense_components",
                        format!("{c:?}"),
                        "distinct component indices",
                    );
                }
            }
        }
        Ok(())
    }
}

/// Hairer's counters, reproduced exactly, and the number of restarts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OdexCounts {
    /// `NFCN`: function evaluations as Hairer's code counts them.
    pub nfcn: usize,
    /// `NSTEP`: computed steps (attempts, including rejected ones and restarts).
    pub nstep: usize,
    /// `NACCPT`: accepted steps.
    pub naccpt: usize,
    /// `NREJCT`: rejected steps (error test, and the interpolation error test with dense output).
    pub nrejct: usize,
    /// Restarts after a failed stability check or the divergence test (`ATOV` in Hairer's
    /// code), each counted as one evaluation in `NFCN` that this implementation does not make.
    pub restarts: usize,
}

/// Where the step goes next: the labels of Hairer's `ODXCOR`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    /// Label 10: (re)start an attempt at the current point.
    Restart,
    /// Label 30: basic step, lines `1, …, k − 1`.
    Basic,
    /// Label 50: line `k`.
    LineK,
    /// Label 55: hope for convergence in line `k + 1`.
    LineKPlusOne,
    /// Label 60: the step is accepted.
    Accept,
    /// Label 100: the step is rejected.
    Reject,
}

/// Gragg–Bulirsch–Stoer extrapolation with Hairer's order and step-size control, dense output
/// and counting: Hairer's ODEX, for `x' = F(t, x)` on `ℝᴰ`. See the [module docs](self) for
/// the formulas.
///
/// All buffers (the extrapolation table, the stored derivatives for dense output, the
/// interpolation coefficients) are allocated by [`Odex::new`]; a step allocates nothing on the
/// heap for static dimensions.
///
/// # Examples
/// ```
/// use lieode::adaptive::{AdaptiveMethod, Odex, OdexParameters, System, Tolerances};
/// use lieode::engine::Stats;
/// use nalgebra::{U2, Vector2};
///
/// // x'' = −x as a first-order system.
/// struct Oscillator;
/// impl System<U2> for Oscillator {
///     fn eval(&mut self, _t: f64, x: &Vector2<f64>, stats: &mut Stats) -> lieode::Result<Vector2<f64>> {
///         stats.rhs_evaluations += 1;
///         Ok(Vector2::new(x[1], -x[0]))
///     }
/// }
///
/// let tol = Tolerances::scalar(1e-10, 1e-10)?;
/// let mut odex = Odex::<U2>::new(tol, OdexParameters::default())?;
/// let mut stats = Stats::default();
/// odex.start(&mut Oscillator, 0.0, &Vector2::new(1.0, 0.0), 3.0, &mut stats)?;
/// while !odex.step(&mut Oscillator, &mut stats)?.finished {}
/// let (t, x) = odex.current();
/// assert_eq!(t, 3.0);
/// assert!((x[0] - 3.0f64.cos()).abs() < 1e-9);
/// assert_eq!(stats.accepted, odex.counts().naccpt);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Odex<D: DimName>
where
    DefaultAllocator: Allocator<D>,
{
    tol: Tolerances,
    par: OdexParameters,
    /// `km`.
    km: usize,
    sequence: StepSequence,
    /// `n_j`, 1-based (`nj[0]` unused).
    nj: Vec<usize>,
    /// `A_j`, 1-based.
    a: Vec<f64>,
    /// `H_j`, 1-based.
    hh: Vec<f64>,
    /// `W_j`, 1-based.
    w: Vec<f64>,
    /// `ε_μ` of the interpolation error, 1-based (`μ = 1, …, 2 km`).
    errfac: Vec<f64>,
    /// Offset of line `j`'s window of stored derivatives in `fsafe`, 1-based.
    window_offset: Vec<usize>,
    /// The components whose interpolation error is controlled.
    dense_components: Vec<usize>,

    /// The extrapolation table `T_{j,·}`, 1-based.
    t: Vec<OVector<f64, D>>,
    /// Derivatives `f(u_m)` around the midpoint, per line (dense output).
    fsafe: Vec<OVector<f64, D>>,
    /// Midpoint values `u_{n_j/2}` per line, 1-based (dense output).
    ysafe: Vec<OVector<f64, D>>,
    /// Interpolation data `[y₀, y₁ − y₀, a, b, c₀, …, c_μ]`.
    dens: Vec<OVector<f64, D>>,
    y: OVector<f64, D>,
    dz: OVector<f64, D>,
    yh1: OVector<f64, D>,
    yh2: OVector<f64, D>,
    scal: OVector<f64, D>,

    x: f64,
    x_end: f64,
    posneg: f64,
    hmax: f64,
    h: f64,
    hoptde: f64,
    k: usize,
    kc: usize,
    err: f64,
    errold: f64,
    reject: bool,
    /// The non-finite trial evaluation that caused the last restart of this step, if any: the
    /// error reported should the step size underflow.
    non_finite: Option<Error>,
    last: bool,
    /// Whether the current attempt's step ends at `x_end` (`h = x_end − x`, set at the start
    /// of an attempt): the accepted step then sets `x = x_end` exactly and ends the run.
    to_end: bool,
    /// The step size the underflow test of the current attempt uses (`|h|`, or for the step
    /// to `x_end` the larger of `|h|` and the step size it was shortened from).
    h_tested: f64,
    started: bool,
    finished: bool,
    dense_x_old: f64,
    dense_h: f64,
    /// `μ` of the current dense output (`−1`: cubic Hermite only).
    dense_mu: i64,
    counts: OdexCounts,
}

impl<D: DimName> Odex<D>
where
    DefaultAllocator: Allocator<D>,
{
    /// A new integrator; allocates every buffer once.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the field (see [`OdexParameters::validate`]);
    /// tolerances and dense components that do not fit dimension `D`.
    pub fn new(tolerances: Tolerances, parameters: OdexParameters) -> Result<Self> {
        parameters.validate()?;
        let n = D::DIM;
        tolerances.check_dimension(n)?;
        let dense_components = match &parameters.dense_components {
            Some(c) => {
                if let Some(bad) = c.iter().find(|&&i| i >= n) {
                    return Err(Error::InvalidParameter {
                        name: "dense_components",
                        value: bad.to_string(),
                        expected: format!("component indices below the dimension {n}"),
                    });
                }
                c.clone()
            }
            None => (0..n).collect(),
        };
        let km = parameters.columns;
        let sequence = parameters.sequence_in_use();
        let mut nj = vec![0];
        nj.extend(sequence.step_numbers(km)?);
        // A_1 = n_1 + 1, A_j = A_{j−1} + n_j.
        let mut a = vec![0.0; km + 1];
        a[1] = 1.0 + nj[1] as f64;
        for j in 2..=km {
            a[j] = a[j - 1] + nj[j] as f64;
        }
        // ε_μ = (μ + 4)^{−2} Π_{j=1}^{μ} (√(μ/(μ+4))/2) / j.
        let mut errfac = vec![0.0; 2 * km + 1];
        for (mu, e) in errfac.iter_mut().enumerate().skip(1) {
            let m = mu as f64;
            let errx = (m / (m + 4.0)).sqrt() * 0.5;
            let mut prod = 1.0 / ((m + 4.0) * (m + 4.0));
            for j in 1..=mu {
                prod = prod * errx / j as f64;
            }
            *e = prod;
        }
        // Line j stores f(u_m) for |m − n_j/2| ≤ 2j − 1: 4j − 1 values.
        let mut window_offset = vec![0; km + 2];
        for j in 1..=km {
            window_offset[j + 1] = window_offset[j] + 4 * j - 1;
        }
        let zero = OVector::<f64, D>::zeros();
        let dense_len = if parameters.dense_output {
            window_offset[km + 1]
        } else {
            0
        };
        let ysafe_len = if parameters.dense_output { km + 1 } else { 0 };
        Ok(Self {
            tol: tolerances,
            km,
            sequence,
            nj,
            a,
            hh: vec![0.0; km + 1],
            w: vec![0.0; km + 1],
            errfac,
            window_offset,
            dense_components,
            t: vec![zero.clone(); km + 1],
            fsafe: vec![zero.clone(); dense_len],
            ysafe: vec![zero.clone(); ysafe_len],
            dens: vec![zero.clone(); 2 * km + 5],
            y: zero.clone(),
            dz: zero.clone(),
            yh1: zero.clone(),
            yh2: zero.clone(),
            scal: zero,
            x: 0.0,
            x_end: 0.0,
            posneg: 1.0,
            hmax: 0.0,
            h: 0.0,
            hoptde: 0.0,
            k: 2,
            kc: 2,
            err: 0.0,
            errold: 1e10,
            reject: false,
            non_finite: None,
            last: false,
            to_end: false,
            h_tested: 0.0,
            started: false,
            finished: false,
            dense_x_old: 0.0,
            dense_h: 1.0,
            dense_mu: -1,
            counts: OdexCounts::default(),
            par: parameters,
        })
    }

    /// The parameters.
    pub fn parameters(&self) -> &OdexParameters {
        &self.par
    }

    /// The step-number sequence in use.
    pub fn sequence(&self) -> StepSequence {
        self.sequence
    }

    /// Hairer's counters `NFCN`, `NSTEP`, `NACCPT`, `NREJCT` since [`AdaptiveMethod::start`].
    pub fn counts(&self) -> OdexCounts {
        self.counts
    }

    /// The step size proposed for the next step (Hairer's `H` on return).
    pub fn step_size(&self) -> f64 {
        self.h
    }

    /// The current optimal column `k` (the next basic step computes lines up to `k`, or
    /// `k + 1`).
    pub fn column(&self) -> usize {
        self.k
    }

    /// The column `κ` in which the last step was accepted (its solution has order `2κ`).
    pub fn accepted_column(&self) -> usize {
        self.kc
    }

    /// `μ` of the dense output of the last step (degree `μ + 4`), or `−1` for the cubic
    /// Hermite interpolant used without dense output.
    pub fn dense_degree_parameter(&self) -> i64 {
        self.dense_mu
    }

    /// Stops when the step size no longer changes `x` (an addition to Hairer's code): when
    /// `0.1 |size| ≤ |x| · uround`, with `size` the step size of the attempt (for the step to
    /// `x_end`, the larger of it and the step size it was shortened from).
    fn check_step_size(&self, size: f64) -> Result<()> {
        // Written so that a NaN step size fails the test too.
        let resolved = 0.1 * size.abs() > self.x.abs() * self.par.uround;
        if !resolved {
            let underflow = Error::StepSizeTooSmall {
                t: self.x,
                h: self.h,
            };
            return Err(underflow_cause(underflow, self.non_finite.clone()));
        }
        Ok(())
    }

    /// A restart after a non-finite trial value (`evaluations` of the line made): the step is
    /// shrunk as for a diverging line instead of failing the run; the cause is kept for the
    /// error reported if the step size underflows.
    fn restart_non_finite(&mut self, cause: Error, evaluations: usize) -> bool {
        self.counts.nfcn += evaluations;
        self.non_finite = Some(cause);
        self.restart()
    }

    /// A restart (Hairer's `ATOV`): `H ← H · safe3`.
    fn restart(&mut self) -> bool {
        self.h *= self.par.step_reduction;
        self.reject = true;
        self.counts.restarts += 1;
        true
    }

    /// Line `j` of the extrapolation table (Hairer's `MIDEX`): Gragg's smoothed midpoint rule
    /// with `n_j` steps, the Aitken–Neville update of `T_{1…j}`, the error estimate and the
    /// optimal step size `H_j` with its work `W_j`. Returns `true` for a restart.
    fn line<S: System<D> + ?Sized>(
        &mut self,
        j: usize,
        system: &mut S,
        stats: &mut Stats,
    ) -> Result<bool> {
        let n = D::DIM;
        let nj = self.nj[j];
        let hj = self.h / nj as f64;
        let dense = self.par.dense_output;
        let njmid = nj / 2;
        let half_width = 2 * j - 1;
        // Window of stored derivatives: m ∈ [njmid − (2j − 1), njmid + (2j − 1)].
        let lo = njmid.saturating_sub(half_width);
        let offset = self.window_offset[j];
        if dense && njmid == half_width {
            // The window starts at m = 0, where f(x, y₀) is known.
            self.fsafe[offset].copy_from(&self.dz);
        }
        // Euler starting step.
        self.yh1.copy_from(&self.y);
        for i in 0..n {
            self.yh2[i] = self.y[i] + hj * self.dz[i];
        }
        // Explicit midpoint rule.
        for m in 1..nj {
            if dense && m == njmid {
                self.ysafe[j].copy_from(&self.yh2);
            }
            let dy = match system.eval(self.x + hj * m as f64, &self.yh2, stats) {
                Ok(dy) => dy,
                Err(e @ Error::NonFiniteState { .. }) => return Ok(self.restart_non_finite(e, m)),
                Err(e) => return Err(e),
            };
            if dense && m.abs_diff(njmid) <= half_width {
                self.fsafe[offset + m - lo].copy_from(&dy);
            }
            for i in 0..n {
                let ys = self.yh1[i];
                self.yh1[i] = self.yh2[i];
                self.yh2[i] = ys + 2.0 * hj * dy[i];
            }
            if m <= self.par.stability_steps && j <= self.par.stability_lines {
                // ‖f(u_m) − f(y₀)‖² > 4 ‖f(y₀)‖² (in the sk norm): the step is too large.
                let mut del1 = 0.0;
                let mut del2 = 0.0;
                for i in 0..n {
                    let q = self.dz[i] / self.scal[i];
                    del1 += q * q;
                }
                for i in 0..n {
                    let q = (dy[i] - self.dz[i]) / self.scal[i];
                    del2 += q * q;
                }
                let quot = del2 / self.par.uround.max(del1);
                if quot > 4.0 {
                    self.counts.nfcn += 1;
                    return Ok(self.restart());
                }
            }
        }
        // Final smoothing step.
        let dy = match system.eval(self.x + self.h, &self.yh2, stats) {
            Ok(dy) => dy,
            Err(e @ Error::NonFiniteState { .. }) => return Ok(self.restart_non_finite(e, nj)),
            Err(e) => return Err(e),
        };
        if dense && njmid <= half_width {
            self.fsafe[offset + nj - lo].copy_from(&dy);
        }
        for i in 0..n {
            self.t[j][i] = (self.yh1[i] + self.yh2[i] + hj * dy[i]) / 2.0;
        }
        self.counts.nfcn += nj;
        if j == 1 {
            return Ok(false);
        }
        // Polynomial extrapolation (Aitken–Neville in h²).
        sweep(&mut self.t, &self.nj, 1, j);
        // Scaling and error estimate.
        let mut err = 0.0;
        for i in 0..n {
            let sk = self.tol.scale(
                i,
                system.magnitude(&self.y, i),
                system.magnitude(&self.t[1], i),
            );
            self.scal[i] = sk;
            let q = (self.t[1][i] - self.t[2][i]) / sk;
            err += q * q;
        }
        let err = (err / n as f64).sqrt();
        self.err = err;
        if err.is_nan() {
            let cause = Error::NonFiniteState {
                what: "error estimate",
                t: self.x,
            };
            return Ok(self.restart_non_finite(cause, 0));
        }
        if err * self.par.uround >= 1.0 {
            return Ok(self.restart());
        }
        if j > 2 && err >= self.errold {
            return Ok(self.restart());
        }
        self.errold = (4.0 * err).max(1.0);
        // Optimal step size for column j.
        let expo = 1.0 / (2 * j - 1) as f64;
        let facmin = self.par.fac1.powf(expo);
        let fac = (self.par.fac2 / facmin)
            .min(facmin.max((err / self.par.safe1).powf(expo) / self.par.safe2));
        let fac = 1.0 / fac;
        self.hh[j] = (self.h.abs() * fac).min(self.hmax);
        self.w[j] = self.a[j] / self.hh[j];
        Ok(false)
    }

    /// Dense output of an accepted step (Hairer's code after label 60): midpoint value and
    /// derivatives from the stored data, `f(x + H, y₁)` into `yh2`, and the interpolation
    /// coefficients. `self.x` is already the new time.
    fn build_dense<S: System<D> + ?Sized>(
        &mut self,
        system: &mut S,
        stats: &mut Stats,
    ) -> Result<()> {
        let n = D::DIM;
        let kc = self.kc;
        let h = self.h;
        let mu = 2 * kc as i64 - self.par.mudif as i64 + 1;
        self.dense_mu = mu;
        self.dens[0].copy_from(&self.y);
        for i in 0..n {
            self.dens[1][i] = h * self.dz[i];
        }
        self.dens[2].copy_from(&self.t[1]);
        // Solution at the midpoint.
        for j in 2..=kc {
            sweep(&mut self.ysafe, &self.nj, 1, j);
        }
        self.dens[4].copy_from(&self.ysafe[1]);
        // Derivative at the right end.
        self.yh1.copy_from(&self.t[1]);
        self.yh2 = system.eval(self.x, &self.yh1, stats)?;
        for i in 0..n {
            self.dens[3][i] = self.yh2[i] * h;
        }
        // Derivatives of order 1, …, μ at the midpoint from central differences of f.
        let mu_max = usize::try_from(mu).unwrap_or(0);
        for kmi in 1..=mu_max {
            let kbeg = kmi.div_ceil(2);
            for kk in kbeg..=kc {
                let facnj = powi(self.nj[kk] as f64 / 2.0, kmi - 1);
                let njmid = self.nj[kk] / 2;
                let lo = njmid + 1 - 2 * kk;
                let idx = self.window_offset[kk] + njmid + kmi - 1 - lo;
                for i in 0..n {
                    self.ysafe[kk][i] = self.fsafe[idx][i] * facnj;
                }
            }
            for j in kbeg + 1..=kc {
                sweep(&mut self.ysafe, &self.nj, kbeg, j);
            }
            for i in 0..n {
                self.dens[kmi + 4][i] = self.ysafe[kbeg][i] * h;
            }
            if kmi == mu_max {
                break;
            }
            // Next differences δ^{kmi}: v_m ← v_m − v_{m−2} for the entries that stay valid.
            for kk in (kmi + 2) / 2..=kc {
                let len = 4 * kk - 1;
                let off = self.window_offset[kk];
                for p in (2 * kmi..len).rev() {
                    let (below, above) = self.fsafe.split_at_mut(off + p);
                    let prev = &below[off + p - 2];
                    let cur = &mut above[0];
                    for i in 0..n {
                        cur[i] -= prev[i];
                    }
                }
            }
        }
        interpolation_coefficients(&mut self.dens, mu, n);
        Ok(())
    }
}

impl<D: DimName> Odex<D>
where
    DefaultAllocator: Allocator<D>,
{
    /// An accepted step (Hairer's label 60 onwards): dense output and its error test, the new
    /// state, the optimal column and the next step size. Returns `false` when the
    /// interpolation error test rejects the step (the attempt restarts).
    fn accept<S: System<D> + ?Sized>(&mut self, system: &mut S, stats: &mut Stats) -> Result<bool> {
        let n = D::DIM;
        let x_old = self.x;
        // The step to x_end ends exactly there (x + h may miss it by rounding).
        self.x = if self.to_end {
            self.x_end
        } else {
            self.x + self.h
        };
        if self.par.dense_output {
            self.build_dense(system, stats)?;
            let mu = self.dense_mu;
            if self.par.dense_error_control && mu >= 1 {
                let mu_u = usize::try_from(mu).unwrap_or(0);
                let mut errint = 0.0;
                for &i in &self.dense_components {
                    let q = self.dens[mu_u + 4][i] / self.scal[i];
                    errint += q * q;
                }
                let errint =
                    (errint / self.dense_components.len() as f64).sqrt() * self.errfac[mu_u];
                self.hoptde = self.h / errint.powf(1.0 / (mu + 4) as f64).max(0.01);
                if errint > 10.0 {
                    self.h = self.hoptde;
                    self.x = x_old;
                    self.counts.nrejct += 1;
                    stats.rejected += 1;
                    self.reject = true;
                    return Ok(false);
                }
            }
            self.dz.copy_from(&self.yh2);
            self.y.copy_from(&self.t[1]);
        } else {
            // Cubic Hermite data [y₀, H f₀, y₁, H f₁] for `dense`.
            self.dense_mu = -1;
            self.dens[0].copy_from(&self.y);
            for i in 0..n {
                self.dens[1][i] = self.h * self.dz[i];
            }
            self.y.copy_from(&self.t[1]);
            self.dz = system.eval(self.x, &self.y, stats)?;
            self.dens[2].copy_from(&self.y);
            for i in 0..n {
                self.dens[3][i] = self.dz[i] * self.h;
            }
            interpolation_coefficients(&mut self.dens, -1, n);
        }
        self.dense_x_old = x_old;
        self.dense_h = self.h;
        self.counts.naccpt += 1;
        stats.accepted += 1;

        // Optimal order.
        let (kc, k, km) = (self.kc, self.k, self.km);
        let (fac3, fac4) = (self.par.fac3, self.par.fac4);
        let w = &self.w;
        let kopt = if kc == 2 {
            if self.reject { 2 } else { 3.min(km - 1) }
        } else if kc <= k {
            let mut kopt = kc;
            if w[kc - 1] < w[kc] * fac3 {
                kopt = kc - 1;
            }
            if w[kc] < w[kc - 1] * fac4 {
                kopt = (kc + 1).min(km - 1);
            }
            kopt
        } else {
            let mut kopt = kc - 1;
            if kc > 3 && w[kc - 2] < w[kc - 1] * fac3 {
                kopt = kc - 2;
            }
            if w[kc] < w[kopt] * fac4 {
                kopt = kc.min(km - 1);
            }
            kopt
        };
        if self.reject {
            // After a rejected step the step size may not grow.
            self.k = kopt.min(kc);
            self.h = self.posneg * self.h.abs().min(self.hh[self.k].abs());
            self.reject = false;
        } else {
            let h = if kopt <= kc {
                self.hh[kopt]
            } else if kc < k && w[kc] < w[kc - 1] * fac4 {
                self.hh[kc] * self.a[kopt + 1] / self.a[kc]
            } else {
                self.hh[kc] * self.a[kopt] / self.a[kc]
            };
            self.k = kopt;
            self.h = self.posneg * h.abs();
        }
        self.finished = self.x == self.x_end;
        Ok(true)
    }
}

impl<D: DimName> AdaptiveMethod<D> for Odex<D>
where
    DefaultAllocator: Allocator<D>,
{
    /// Starts at `(t0, x0)` towards `t_end` with the initial step
    /// `sign(t_end − t0) · min(max(|h₀|, 10⁻⁴), hmax, |t_end − t0|/2)` (ODEX has no automatic
    /// initial step) and the initial column `k = max(2, min(km − 1, ⌊−0.6 log₁₀(rtol₁ + 10⁻⁴⁰)
    /// + 1.5⌋))`; evaluates `f(t0, x0)` and resets the counters.
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `t0`, `x0` or `t_end`; [`Error::InvalidParameter`] naming
    /// `t_end` if it equals `t0`, naming `atol` for tolerances below what `f64` resolves at the
    /// start (at the sizes [`System::magnitude`] gives: a component with `rtol = 0` and
    /// `atol < ε |x0_i|`, or an `atol` too small to scale `f(t0, x0)` without overflow);
    /// errors of [`System::eval`].
    fn start<S: System<D> + ?Sized>(
        &mut self,
        system: &mut S,
        t0: f64,
        x0: &OVector<f64, D>,
        t_end: f64,
        stats: &mut Stats,
    ) -> Result<()> {
        let n = D::DIM;
        self.started = false;
        if !t0.is_finite() {
            return Err(Error::NonFinite { name: "t0" });
        }
        if !t_end.is_finite() {
            return Err(Error::NonFinite { name: "t_end" });
        }
        if x0.iter().any(|v| !v.is_finite()) {
            return Err(Error::NonFinite { name: "x0" });
        }
        let sizes = magnitudes(system, x0);
        self.tol.check_resolvable(&sizes)?;
        if t_end == t0 {
            return Err(Error::InvalidParameter {
                name: "t_end",
                value: format!("{t_end:e}"),
                expected: "t_end ≠ t0".into(),
            });
        }
        self.x = t0;
        self.x_end = t_end;
        self.y.copy_from(x0);
        self.posneg = 1.0f64.copysign(t_end - t0);
        self.hmax = self.par.hmax.unwrap_or(t_end - t0).abs();
        // Initial column from the tolerance (Hairer's 2009 version adds 1e-40 for rtol = 0).
        let guess = (-(self.tol.rtol(0) + 1e-40).log10() * 0.6 + 1.5) as i64;
        self.k = guess.min(self.km as i64 - 1).max(2) as usize;
        self.kc = self.k;
        let h = self.par.initial_step.abs().max(MIN_INITIAL_STEP);
        self.h = self.posneg * h.min(self.hmax).min((t_end - t0).abs() / 2.0);
        for i in 0..n {
            let m = system.magnitude(&self.y, i);
            self.scal[i] = self.tol.scale(i, m, m);
        }
        self.err = 0.0;
        self.errold = 1e10;
        self.hoptde = self.posneg * self.hmax;
        self.w.iter_mut().for_each(|w| *w = 0.0);
        self.hh.iter_mut().for_each(|h| *h = 0.0);
        self.reject = false;
        self.last = false;
        self.counts = OdexCounts::default();
        self.dz = system.eval(t0, &self.y, stats)?;
        self.tol
            .check_derivative_scale(&sizes, self.dz.as_slice(), t0)?;
        // Before the first step the dense output is the constant y₀.
        self.dense_mu = -1;
        self.dense_x_old = t0;
        self.dense_h = self.h;
        self.dens[0].copy_from(&self.y);
        for d in &mut self.dens[1..4] {
            d.fill(0.0);
        }
        // t_end ≠ t0: at least one step is to be taken (a span too short to resolve at t0 is
        // reported by that step's underflow test).
        self.to_end = false;
        self.finished = false;
        self.started = true;
        Ok(())
    }

    /// One accepted step, following Hairer's `ODXCOR` from its label 10 to the next one;
    /// rejections and restarts are retried inside. After the end is reached, further calls
    /// return `finished` without stepping.
    ///
    /// # Errors
    /// [`Error::MaxStepsExceeded`] when the step counter reaches
    /// [`OdexParameters::max_steps`] in a basic step (Hairer's `NSTEP ≥ NMAX`);
    /// [`Error::StepSizeTooSmall`]; [`Error::NonFiniteState`] from the right-hand side or for a
    /// NaN error estimate; [`Error::InvalidParameter`] naming `start` before
    /// [`AdaptiveMethod::start`].
    fn step<S: System<D> + ?Sized>(
        &mut self,
        system: &mut S,
        stats: &mut Stats,
    ) -> Result<StepReport> {
        if !self.started {
            return Err(Error::InvalidParameter {
                name: "start",
                value: "not called".into(),
                expected: "Odex::start before Odex::step".into(),
            });
        }
        let t_start = self.x;
        self.non_finite = None;
        if self.finished {
            return Ok(StepReport {
                t_start,
                t_end: t_start,
                finished: true,
            });
        }
        let mut next = Next::Restart;
        loop {
            next = match next {
                Next::Restart => {
                    // Label 10 (the evaluation f(x, y₀) is already done). Hairer's code
                    // first stops if 0.1 |x_end − x| ≤ |x| · uround; here the run ends only
                    // on x_end itself (set by the step that reaches it).
                    let h_free = self.h.abs().min(self.hmax).min(self.hoptde.abs());
                    self.h = self.posneg
                        * self
                            .h
                            .abs()
                            .min((self.x_end - self.x).abs())
                            .min(self.hmax)
                            .min(self.hoptde.abs());
                    if (self.x + 1.01 * self.h - self.x_end) * self.posneg > 0.0 {
                        self.h = self.x_end - self.x;
                        self.last = true;
                    }
                    // The step ends at x_end: shortened to it, or limited by it.
                    self.to_end = self.h == self.x_end - self.x;
                    self.h_tested = if self.to_end {
                        h_free.max(self.h.abs())
                    } else {
                        self.h.abs()
                    };
                    self.check_step_size(self.h_tested)?;
                    self.counts.nfcn += 1;
                    if self.counts.nstep == 0 || self.last {
                        // First and last step: lines 1, 2, … until err ≤ 1.
                        self.counts.nstep += 1;
                        stats.steps += 1;
                        let mut outcome = Next::LineKPlusOne;
                        for j in 1..=self.k {
                            self.kc = j;
                            if self.line(j, system, stats)? {
                                outcome = Next::Restart;
                                break;
                            }
                            if j > 1 && self.err <= 1.0 {
                                outcome = Next::Accept;
                                break;
                            }
                        }
                        outcome
                    } else {
                        Next::Basic
                    }
                }
                Next::Basic => {
                    // Label 30.
                    self.counts.nstep += 1;
                    stats.steps += 1;
                    if self.counts.nstep >= self.par.max_steps {
                        return Err(Error::MaxStepsExceeded {
                            t: self.x,
                            steps: self.par.max_steps,
                        });
                    }
                    self.check_step_size(self.h_tested)?;
                    self.kc = self.k - 1;
                    let mut restarted = false;
                    for j in 1..=self.kc {
                        if self.line(j, system, stats)? {
                            restarted = true;
                            break;
                        }
                    }
                    // Convergence monitor.
                    let k = self.k;
                    if restarted {
                        Next::Restart
                    } else if k == 2 || self.reject {
                        Next::LineK
                    } else if self.err <= 1.0 {
                        Next::Accept
                    } else {
                        let q = (self.nj[k + 1] * self.nj[k]) as f64 / 4.0;
                        if self.err > q * q {
                            Next::Reject
                        } else {
                            Next::LineK
                        }
                    }
                }
                Next::LineK => {
                    // Label 50.
                    if self.line(self.k, system, stats)? {
                        Next::Restart
                    } else {
                        self.kc = self.k;
                        if self.err <= 1.0 {
                            Next::Accept
                        } else {
                            Next::LineKPlusOne
                        }
                    }
                }
                Next::LineKPlusOne => {
                    // Label 55: hope for convergence in line k + 1.
                    let q = self.nj[self.k + 1] as f64 / 2.0;
                    if self.err > q * q {
                        Next::Reject
                    } else {
                        self.kc = self.k + 1;
                        if self.line(self.kc, system, stats)? {
                            Next::Restart
                        } else if self.err > 1.0 {
                            Next::Reject
                        } else {
                            Next::Accept
                        }
                    }
                }
                Next::Accept => {
                    if self.accept(system, stats)? {
                        return Ok(StepReport {
                            t_start,
                            t_end: self.x,
                            finished: self.finished,
                        });
                    }
                    Next::Restart
                }
                Next::Reject => {
                    // Label 100.
                    let mut k = self.k.min(self.kc).min(self.km - 1);
                    if k > 2 && self.w[k - 1] < self.w[k] * self.par.fac3 {
                        k -= 1;
                    }
                    self.k = k;
                    self.counts.nrejct += 1;
                    stats.rejected += 1;
                    self.h = self.posneg * self.hh[k];
                    self.reject = true;
                    // The smaller step no longer ends at x_end.
                    self.to_end = false;
                    self.h_tested = self.h.abs();
                    Next::Basic
                }
            };
        }
    }

    fn current(&self) -> (f64, &OVector<f64, D>) {
        (self.x, &self.y)
    }

    fn current_derivative(&self) -> &OVector<f64, D> {
        &self.dz
    }

    /// Replaces `y` and `f(x, y)`; the step size, column, work estimates and error scales are
    /// kept. Evaluate the dense output of the last step before rebasing: it refers to the old
    /// coordinates.
    fn rebase(&mut self, x: OVector<f64, D>, derivative: OVector<f64, D>) {
        self.y = x;
        self.dz = derivative;
    }

    /// Nothing to do: the dense output is built inside the step (with dense output its error
    /// test can reject the step), or is the cubic Hermite interpolant of the step's end values
    /// and derivatives.
    fn prepare_dense<S: System<D> + ?Sized>(
        &mut self,
        _system: &mut S,
        _stats: &mut Stats,
    ) -> Result<()> {
        Ok(())
    }

    /// Hairer's `CONTEX` for every component: with `θ = (t − x_old)/H`,
    /// `u(θ) = y₀ + θ(Δ + (1 − θ)(a θ + b (1 − θ))) + θ²(1 − θ)² Σ_{l=0}^{μ} c_l (θ − ½)^l / l!`
    /// (the last term only with dense output).
    fn dense(&self, t: f64) -> OVector<f64, D> {
        let n = D::DIM;
        let theta = (t - self.dense_x_old) / self.dense_h;
        let theta1 = 1.0 - theta;
        let mut out = OVector::<f64, D>::zeros();
        let d = &self.dens;
        for i in 0..n {
            let ph = d[0][i] + theta * (d[1][i] + theta1 * (d[2][i] * theta + d[3][i] * theta1));
            out[i] = if self.dense_mu < 0 {
                ph
            } else {
                let mu = usize::try_from(self.dense_mu).unwrap_or(0);
                let thetah = theta - 0.5;
                let mut c = d[mu + 4][i];
                for l in (1..=mu).rev() {
                    c = d[l + 3][i] + c * thetah / l as f64;
                }
                let s = theta * theta1;
                ph + s * s * c
            };
        }
        out
    }

    /// `2κ`, the order of the extrapolated value `T_{κ,κ}` of the last accepted step (before
    /// the first step: `2k` of the initial column).
    fn order(&self) -> usize {
        2 * self.kc
    }

    fn name(&self) -> &str {
        "ODEX"
    }

    /// The degree of the last step's interpolant: `μ + 4` with dense output, 3 for the cubic
    /// Hermite interpolant without (so the driver's stored segments reproduce it exactly; the
    /// default 8 resampled the degree-`μ + 4` polynomial, up to 19 with `km = 9`, lossily).
    fn dense_degree(&self) -> usize {
        usize::try_from(self.dense_mu).map_or(3, |mu| mu + 4)
    }
}

/// `x^n` by repeated squaring, in the order of libgcc's `__powidf2` (which evaluates
/// Fortran's `REAL**INTEGER`), so that the dense-output scalings round as in Hairer's code.
fn powi(x: f64, n: usize) -> f64 {
    let mut base = x;
    let mut m = n;
    let mut y = if m % 2 == 1 { base } else { 1.0 };
    m /= 2;
    while m > 0 {
        base *= base;
        if m % 2 == 1 {
            y *= base;
        }
        m /= 2;
    }
    y
}

/// One Aitken–Neville sweep in `h²` after row `to` of `table` (1-based) was computed:
/// `T_{l−1} ← T_l + (T_l − T_{l−1}) / ((n_to/n_{l−1})² − 1)` for `l = to, …, from + 1`
/// (HNW I, §II.9). After the sweeps for rows `from + 1, …, to`, `table[from]` holds the
/// extrapolated value of rows `from, …, to`.
fn sweep<D: DimName>(table: &mut [OVector<f64, D>], nj: &[usize], from: usize, to: usize)
where
    DefaultAllocator: Allocator<D>,
{
    let dblenj = nj[to] as f64;
    for l in (from + 1..=to).rev() {
        let r = dblenj / nj[l - 1] as f64;
        let fac = r * r - 1.0;
        let (lower, upper) = table.split_at_mut(l);
        let prev = &mut lower[l - 1];
        let cur = &upper[0];
        for i in 0..prev.len() {
            prev[i] = cur[i] + (cur[i] - prev[i]) / fac;
        }
    }
}

/// The interpolation coefficients from `dens = [y₀, H f₀, y₁, H f₁, d₀, …, d_μ]` (Hairer's
/// `INTERP`): the cubic Hermite data `[y₀, y₁ − y₀, a, b]` and the coefficients `c_l` of
/// `θ²(1 − θ)² Σ c_l (θ − ½)^l / l!` such that the derivatives at `θ = ½` equal `d_l`.
/// With `P` the Hermite cubic, its derivatives at `½` are
/// `P = (y₀ + y₁)/2 + (a + b)/8`, `P' = y₁ − y₀ + (a − b)/4`, `P'' = H f₁ − H f₀`,
/// `P''' = 6 (b − a)`, and the derivatives of `θ²(1−θ)² = (1/4 − s²)²`, `s = θ − ½`, give
/// `c_0 = 16 (d_0 − P)`, `c_2 = 16 (d_2 − P'' + c_0)`,
/// `c_l = 16 (d_l + l(l−1)/2 · c_{l−2} − l(l−1)(l−2)(l−3) · c_{l−4})` for even `l ≥ 4`, and
/// `c_1 = 16 (d_1 − P')`, `c_3 = 16 (d_3 − P''' + 3 c_1)`, the same recursion for odd `l ≥ 5`.
// `i` indexes the same component of several vectors of `dens`.
#[allow(clippy::needless_range_loop)]
fn interpolation_coefficients<D: DimName>(dens: &mut [OVector<f64, D>], mu: i64, n: usize)
where
    DefaultAllocator: Allocator<D>,
{
    let mu_max = usize::try_from(mu).unwrap_or(0);
    let mut c = [0.0f64; 2 * MAX_COLUMNS + 1];
    for i in 0..n {
        let y0 = dens[0][i];
        let y1 = dens[2][i];
        let yp0 = dens[1][i];
        let yp1 = dens[3][i];
        let ydiff = y1 - y0;
        let aspl = -yp1 + ydiff;
        let bspl = yp0 - ydiff;
        dens[1][i] = ydiff;
        dens[2][i] = aspl;
        dens[3][i] = bspl;
        if mu < 0 {
            continue;
        }
        // Derivatives of the Hermite cubic at the midpoint.
        let ph0 = (y0 + y1) * 0.5 + 0.125 * (aspl + bspl);
        let ph1 = ydiff + (aspl - bspl) * 0.25;
        let ph2 = -(yp0 - yp1);
        let ph3 = 6.0 * (bspl - aspl);
        // Odd coefficients.
        if mu_max >= 1 {
            c[1] = 16.0 * (dens[5][i] - ph1);
            if mu_max >= 3 {
                c[3] = 16.0 * (dens[7][i] - ph3 + 3.0 * c[1]);
                let mut l = 5;
                while l <= mu_max {
                    let fac1 = (l * (l - 1)) as f64 / 2.0;
                    let fac2 = fac1 * (l - 2) as f64 * (l - 3) as f64 * 2.0;
                    c[l] = 16.0 * (dens[l + 4][i] + fac1 * c[l - 2] - fac2 * c[l - 4]);
                    l += 2;
                }
            }
        }
        // Even coefficients.
        c[0] = (dens[4][i] - ph0) * 16.0;
        if mu_max >= 2 {
            c[2] = (dens[6][i] - ph2 + c[0]) * 16.0;
            let mut l = 4;
            while l <= mu_max {
                let fac1 = (l * (l - 1)) as f64 / 2.0;
                let fac2 = (l * (l - 1) * (l - 2) * (l - 3)) as f64;
                c[l] = (dens[l + 4][i] + c[l - 2] * fac1 - c[l - 4] * fac2) * 16.0;
                l += 2;
            }
        }
        for (l, cl) in c.iter().enumerate().take(mu_max + 1) {
            dens[l + 4][i] = *cl;
        }
    }
}
