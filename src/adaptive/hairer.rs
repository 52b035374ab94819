//! # Hairer's step-size control, initial step and stiffness test
//!
//! The parts of Hairer's `dopri5.f` (subroutine `DOPCOR`) and `dop853.f` (subroutine
//! `DP86CO`) that the two codes share, written once and used by [`super::Dopri5`] and
//! [`super::Dop853`]:
//!
//! - [`initial_step`]: the function `HINIT` (HNW I, §II.4, "Starting step size");
//! - [`StepSizeControl`]: the step-size update with Lund stabilisation (HNW I, §II.4 and
//!   §IV.2, eq. (2.43c)), the last-step logic, the maximal step size, the bookkeeping of
//!   rejected steps, and the step-count and step-size-underflow tests;
//! - [`StiffnessDetector`]: the stiffness test of HNW I, §II.10 (estimate of `h·ρ` of the
//!   Jacobian from two stages evaluated at the same time).
//!
//! Every formula is evaluated in the order of operations of the Fortran source, so that an
//! integration with these parts reproduces Hairer's codes bit for bit (see
//! `tests/hairer_dopri.rs`).
//!
//! # References
//! E. Hairer, S. P. Nørsett, G. Wanner, *Solving Ordinary Differential Equations I*, 2nd ed.,
//! Springer 1993 (HNW I), §II.4, §II.5, §II.10; E. Hairer, G. Wanner, `dopri5.f` (version of
//! April 25, 1996, corrected August 8, 2005) and `dop853.f` (version of April 25, 1996,
//! corrected March 4, 2002).

use nalgebra::{DefaultAllocator, DimName, OVector, allocator::Allocator};

use super::System;
use super::controller::ControllerParameters;
use super::tolerance::Tolerances;
use crate::engine::Stats;
use crate::error::{Error, Result};

/// `(e/sk)²`, one term of Hairer's error norms, with `0/0` read as `0`.
///
/// With `atol_i = 0` a component that is exactly zero at both ends of a step has `sk_i = 0`;
/// Hairer's code then divides `0/0`. The term is `0` here (the component has no error), which
/// changes nothing whenever the Fortran result is defined.
#[inline]
pub fn scaled_square(e: f64, sk: f64) -> f64 {
    if sk == 0.0 && e == 0.0 {
        0.0
    } else {
        let q = e / sk;
        q * q
    }
}

/// `Σ_i (a_i − b_i)²`, summed in index order (the `STNUM`/`STDEN` sums of the stiffness test).
#[inline]
pub fn squared_distance<D>(a: &OVector<f64, D>, b: &OVector<f64, D>) -> f64
where
    D: DimName,
    DefaultAllocator: Allocator<D>,
{
    a.iter().zip(b.iter()).fold(0.0, |s, (x, y)| {
        let d = x - y;
        s + d * d
    })
}

/// Hairer's initial step size `HINIT` for a method of order `order`.
///
/// With `sk_i = atol_i + rtol_i·|y₀_i|` (the magnitude as [`System::magnitude`] sees it):
///
/// ```text
/// dnf = Σ (f₀_i/sk_i)²,   dny = Σ (y₀_i/sk_i)²          (plain sums, no division by N)
/// h   = 0.01·sqrt(dny/dnf)   (h = 1e-6 if dnf ≤ 1e-10 or dny ≤ 1e-10),   h = min(h, hmax)
/// y₁  = y₀ + h·f₀ (h with the sign of the direction),   f₁ = F(t₀ + h, y₁)
/// der2 = sqrt(Σ ((f₁_i − f₀_i)/sk_i)²) / h,   der12 = max(|der2|, sqrt(dnf))
/// h₁  = (0.01/der12)^(1/order)   (h₁ = max(1e-6, 1e-3·|h|) if der12 ≤ 1e-15)
/// h   = min(100·|h|, h₁, hmax)
/// ```
///
/// One evaluation of `F` (counted by the system). `dny` uses the magnitudes of `y₀`, which
/// for a vector ODE are `|y₀_i|` and give Hairer's sum exactly (`(|y|/sk)² = (y/sk)²`).
///
/// # Errors
/// As [`System::eval`].
///
/// # References
/// HNW I, §II.4, p. 169 ("Starting step size"); function `HINIT` of `dopri5.f`/`dop853.f`.
#[allow(clippy::too_many_arguments)]
pub fn initial_step<D, S>(
    system: &mut S,
    tolerances: &Tolerances,
    x: f64,
    y: &OVector<f64, D>,
    f0: &OVector<f64, D>,
    posneg: f64,
    hmax: f64,
    order: usize,
    stats: &mut Stats,
) -> Result<f64>
where
    D: DimName,
    DefaultAllocator: Allocator<D>,
    S: System<D> + ?Sized,
{
    let n = D::dim();
    let mut dnf = 0.0;
    let mut dny = 0.0;
    for i in 0..n {
        let m = system.magnitude(y, i);
        let sk = tolerances.atol(i) + tolerances.rtol(i) * m;
        dnf += scaled_square(f0[i], sk);
        dny += scaled_square(m, sk);
    }
    let mut h = if dnf <= 1e-10 || dny <= 1e-10 {
        1.0e-6
    } else {
        (dny / dnf).sqrt() * 0.01
    };
    h = h.min(hmax);
    h = h.copysign(posneg);
    // Explicit Euler step.
    let mut y1 = y.clone();
    for i in 0..n {
        y1[i] = y[i] + h * f0[i];
    }
    let f1 = system.eval(x + h, &y1, stats)?;
    let mut der2 = 0.0;
    for i in 0..n {
        let sk = tolerances.atol(i) + tolerances.rtol(i) * system.magnitude(y, i);
        der2 += scaled_square(f1[i] - f0[i], sk);
    }
    let der2 = der2.sqrt() / h;
    let der12 = der2.abs().max(dnf.sqrt());
    let h1 = if der12 <= 1e-15 {
        1.0e-6_f64.max(h.abs() * 1.0e-3)
    } else {
        (0.01 / der12).powf(1.0 / order as f64)
    };
    let h = (100.0 * h.abs()).min(h1).min(hmax);
    Ok(h.copysign(posneg))
}

/// Hairer's step-size control for one integration: the state his core integrators keep in
/// `FACOLD`, `REJECT`, `LAST`, `NSTEP`, `NACCPT` and the constants derived from the
/// [`ControllerParameters`].
///
/// With `err` the scaled error of the step (accepted if `err ≤ 1`) and the method's exponent
/// `expo1` (DOPRI5: `1/5 − 0.75β`, DOP853: `1/8 − 0.2β`, Hairer's `EXPO1`):
///
/// ```text
/// fac11 = err^expo1,   fac = fac11 / facold^β          (Lund stabilisation)
/// fac   = max(1/fac2, min(1/fac1, fac/safe)),   h_new = h/fac
/// accepted: facold = max(err, 1e-4); unless it was the last step,
///           |h_new| ≤ hmax, and |h_new| ≤ |h| right after a rejection
/// rejected: h_new = h / min(1/fac1, fac11/safe); counted only once a step was accepted
/// ```
///
/// Before each attempt: stop if more than `max_steps` attempts were made (Hairer's
/// `NSTEP > NMAX`, so `max_steps + 1` attempts are allowed) or if `0.1·|h| ≤ |x|·uround`; if
/// `(x + 1.01·h − x_end)·posneg > 0` the step is shortened to `h = x_end − x` and marked last.
///
/// # References
/// HNW I, §II.4 (eq. (4.13) with safety factor and bounds), §IV.2 (stabilised control,
/// `β`); `DOPCOR`/`DP86CO` of Hairer's codes.
#[derive(Debug, Clone, PartialEq)]
pub struct StepSizeControl {
    uround: f64,
    safe: f64,
    beta: f64,
    expo1: f64,
    facc1: f64,
    facc2: f64,
    max_steps: usize,
    hmax_parameter: Option<f64>,
    facold: f64,
    posneg: f64,
    hmax: f64,
    x_end: f64,
    reject: bool,
    last: bool,
    nstep: usize,
    naccpt: usize,
}

impl StepSizeControl {
    /// The control for the (validated) parameters and the method's exponent `expo1`.
    pub fn new(parameters: &ControllerParameters, expo1: f64) -> Self {
        Self {
            uround: parameters.uround,
            safe: parameters.safe,
            beta: parameters.beta,
            expo1,
            facc1: 1.0 / parameters.fac1,
            facc2: 1.0 / parameters.fac2,
            max_steps: parameters.max_steps,
            hmax_parameter: parameters.hmax,
            facold: 1.0e-4,
            posneg: 1.0,
            hmax: 0.0,
            x_end: 0.0,
            reject: false,
            last: false,
            nstep: 0,
            naccpt: 0,
        }
    }

    /// Resets the control for an integration from `x0` to `x_end`: `posneg = sign(x_end − x0)`,
    /// `hmax = |hmax|` or `|x_end − x0|` by default, `facold = 1e-4`, no step taken.
    pub fn begin(&mut self, x0: f64, x_end: f64) {
        self.posneg = 1.0_f64.copysign(x_end - x0);
        self.hmax = self.hmax_parameter.unwrap_or(x_end - x0).abs();
        self.x_end = x_end;
        self.facold = 1.0e-4;
        self.reject = false;
        self.last = false;
        self.nstep = 0;
        self.naccpt = 0;
    }

    /// The direction of integration, `±1`.
    #[inline]
    pub fn posneg(&self) -> f64 {
        self.posneg
    }

    /// The maximal step size `|hmax|`.
    #[inline]
    pub fn hmax(&self) -> f64 {
        self.hmax
    }

    /// The number of step attempts so far (Hairer's `NSTEP`).
    #[inline]
    pub fn attempts(&self) -> usize {
        self.nstep
    }

    /// The number of accepted steps so far (Hairer's `NACCPT`).
    #[inline]
    pub fn accepted(&self) -> usize {
        self.naccpt
    }

    /// Whether the current attempt is the last step (it ends at `x_end`).
    #[inline]
    pub fn is_last(&self) -> bool {
        self.last
    }

    /// The tests before an attempt at `x` with step `h` (shortened to `x_end − x` if the step
    /// would reach or nearly reach `x_end`); counts the attempt in `stats.steps`.
    ///
    /// # Errors
    /// [`Error::MaxStepsExceeded`] after `max_steps + 1` attempts,
    /// [`Error::StepSizeTooSmall`] if `0.1·|h| ≤ |x|·uround`.
    pub fn before_attempt(&mut self, x: f64, h: &mut f64, stats: &mut Stats) -> Result<()> {
        if self.nstep > self.max_steps {
            return Err(Error::MaxStepsExceeded {
                t: x,
                steps: self.max_steps,
            });
        }
        if 0.1 * h.abs() <= x.abs() * self.uround {
            return Err(Error::StepSizeTooSmall { t: x, h: *h });
        }
        if (x + 1.01 * *h - self.x_end) * self.posneg > 0.0 {
            *h = self.x_end - x;
            self.last = true;
        }
        self.nstep += 1;
        stats.steps += 1;
        Ok(())
    }

    /// `(fac11, h_new)` for the scaled error `err` of a step of size `h`:
    /// `fac11 = err^expo1`, `h_new = h / max(1/fac2, min(1/fac1, fac11/facold^β/safe))`.
    #[inline]
    pub fn propose(&self, err: f64, h: f64) -> (f64, f64) {
        let fac11 = err.powf(self.expo1);
        let fac = fac11 / self.facold.powf(self.beta);
        let fac = self.facc2.max(self.facc1.min(fac / self.safe));
        (fac11, h / fac)
    }

    /// Records an accepted step with error `err` (`facold = max(err, 1e-4)`), counts it in
    /// `stats.accepted` and returns the number of accepted steps.
    #[inline]
    pub fn accept(&mut self, err: f64, stats: &mut Stats) -> usize {
        self.facold = err.max(1.0e-4);
        self.naccpt += 1;
        stats.accepted += 1;
        self.naccpt
    }

    /// The step size after an accepted step that was not the last one:
    /// `|h_new| ≤ hmax`, and `|h_new| ≤ |h|` if the previous attempt was rejected.
    #[inline]
    pub fn after_accept(&mut self, h_new: f64, h: f64) -> f64 {
        let mut h_new = h_new;
        if h_new.abs() > self.hmax {
            h_new = self.posneg * self.hmax;
        }
        if self.reject {
            h_new = self.posneg * h_new.abs().min(h.abs());
        }
        self.reject = false;
        h_new
    }

    /// The step size after a rejected step: `h / min(1/fac1, fac11/safe)`; counts the
    /// rejection in `stats.rejected` unless no step has been accepted yet (as Hairer does),
    /// and clears the last-step mark.
    #[inline]
    pub fn reject(&mut self, fac11: f64, h: f64, stats: &mut Stats) -> f64 {
        self.reject = true;
        if self.naccpt >= 1 {
            stats.rejected += 1;
        }
        self.last = false;
        h / self.facc1.min(fac11 / self.safe)
    }
}

/// Hairer's stiffness test: after every `every`-th accepted step (and after every accepted
/// step while a test is positive), estimate `hλ = |h|·‖F(t, y₁) − F(t, ŷ)‖ / ‖y₁ − ŷ‖` from two
/// points evaluated at the same time `t = t₀ + h` (HNW I, §II.10, eq. (10.12)); the problem is
/// called stiff when 15 tests in a row exceed the border of the stability domain (DOPRI5
/// 3.25, DOP853 6.1), and the count restarts after 6 negative tests.
///
/// Hairer's code prints a message and continues unless it was asked not to print; here a
/// detection either stops the integration ([`Error::ProblemIsStiff`], when
/// `fail_on_stiffness`) or is counted ([`StiffnessDetector::detections`]).
///
/// # References
/// HNW I, §II.10 ("Stiffness detection"); `DOPCOR` (`HLAMB > 3.25`) and `DP86CO`
/// (`HLAMB > 6.1`).
#[derive(Debug, Clone, PartialEq)]
pub struct StiffnessDetector {
    every: Option<usize>,
    fail: bool,
    border: f64,
    hlamb: f64,
    iasti: usize,
    nonsti: usize,
    detections: usize,
}

impl StiffnessDetector {
    /// The detector for the parameters' [`crate::adaptive::StiffnessCheck`] and the method's
    /// stability border (`hλ` beyond which a step counts as stiff).
    pub fn new(parameters: &ControllerParameters, border: f64) -> Self {
        Self {
            every: parameters.stiffness.map(|s| s.every),
            fail: parameters.stiffness.is_some_and(|s| s.fail_on_stiffness),
            border,
            hlamb: 0.0,
            iasti: 0,
            nonsti: 0,
            detections: 0,
        }
    }

    /// Forgets earlier tests (a new integration).
    pub fn reset(&mut self) {
        self.hlamb = 0.0;
        self.iasti = 0;
        self.nonsti = 0;
        self.detections = 0;
    }

    /// Whether the test is due after the `accepted`-th accepted step.
    #[inline]
    pub fn due(&self, accepted: usize) -> bool {
        self.every.is_some_and(|n| accepted.is_multiple_of(n)) || self.iasti > 0
    }

    /// How many times stiffness was detected (15 positive tests in a row) in this integration.
    #[inline]
    pub fn detections(&self) -> usize {
        self.detections
    }

    /// One test with `stnum = Σ (F(t, y₁) − F(t, ŷ))²`, `stden = Σ (y₁ − ŷ)²` and the step
    /// factor `h` (DOP853 passes `|h|`; DOPRI5 passes the signed `h`, as its Fortran does:
    /// `HLAMB = H·SQRT(STNUM/STDEN)`). `hλ` keeps its previous value when `stden = 0`.
    ///
    /// # Errors
    /// [`Error::ProblemIsStiff`] at `x` (the start of the step) on a detection when asked to
    /// fail.
    pub fn test(&mut self, h: f64, stnum: f64, stden: f64, x: f64) -> Result<()> {
        if stden > 0.0 {
            self.hlamb = h * (stnum / stden).sqrt();
        }
        if self.hlamb > self.border {
            self.nonsti = 0;
            self.iasti += 1;
            if self.iasti == 15 {
                if self.fail {
                    return Err(Error::ProblemIsStiff { t: x });
                }
                self.detections += 1;
            }
        } else {
            self.nonsti += 1;
            if self.nonsti == 6 {
                self.iasti = 0;
            }
        }
        Ok(())
    }
}

/// Checks the arguments of `start`: finite `t0`, `t_end` and `x0`, and `t_end ≠ t0`.
///
/// # Errors
/// [`Error::NonFinite`] naming `t0`, `t_end` or `x0`; [`Error::InvalidParameter`] naming
/// `t_end` if it equals `t0`.
pub fn check_start<D>(t0: f64, x0: &OVector<f64, D>, t_end: f64) -> Result<()>
where
    D: DimName,
    DefaultAllocator: Allocator<D>,
{
    if !t0.is_finite() {
        return Err(Error::NonFinite { name: "t0" });
    }
    if !t_end.is_finite() {
        return Err(Error::NonFinite { name: "t_end" });
    }
    if !x0.iter().all(|v| v.is_finite()) {
        return Err(Error::NonFinite { name: "x0" });
    }
    if t_end == t0 {
        return Err(Error::InvalidParameter {
            name: "t_end",
            value: format!("{t_end:e}"),
            expected: "t_end ≠ t0".into(),
        });
    }
    Ok(())
}

/// Checks that `v` is finite.
///
/// # Errors
/// [`Error::NonFiniteState`] with `what` at time `t`.
#[inline]
pub fn check_finite<D>(v: &OVector<f64, D>, what: &'static str, t: f64) -> Result<()>
where
    D: DimName,
    DefaultAllocator: Allocator<D>,
{
    if all_finite(v.as_slice()) {
        Ok(())
    } else {
        Err(Error::NonFiniteState { what, t })
    }
}

/// Whether every entry is finite, without a branch per entry: `0·x` is `±0` for a finite `x`
/// and NaN for an infinite or NaN one, and a NaN survives the sum. Called once per evaluation
/// of the right-hand side, where `all(is_finite)` costs a visible share of a cheap one.
#[inline(always)]
pub(crate) fn all_finite(values: &[f64]) -> bool {
    values.iter().fold(0.0, |sum, x| sum + x * 0.0) == 0.0
}

/// The error for `step` before `start`.
pub(crate) fn not_started() -> Error {
    Error::InvalidParameter {
        name: "start",
        value: "not called".into(),
        expected: "`start` before `step`".into(),
    }
}

/// The common start of DOPRI5 and DOP853: checks the input, resets the step-size control and
/// the stiffness test, evaluates `F(t₀, x₀)` and chooses the first step — the given initial
/// step with the sign of `t_end − t₀`, or HINIT of the method's `order`. Returns `(F(t₀, x₀), h)`.
///
/// # Errors
/// As [`check_start`], [`System::eval`] and [`initial_step`]; a non-finite `F(t₀, x₀)`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn begin_integration<D, S>(
    system: &mut S,
    tolerances: &Tolerances,
    parameters: &ControllerParameters,
    control: &mut StepSizeControl,
    stiffness: &mut StiffnessDetector,
    t0: f64,
    x0: &OVector<f64, D>,
    t_end: f64,
    order: usize,
    stats: &mut Stats,
) -> Result<(OVector<f64, D>, f64)>
where
    D: DimName,
    DefaultAllocator: Allocator<D>,
    S: System<D> + ?Sized,
{
    check_start(t0, x0, t_end)?;
    control.begin(t0, t_end);
    stiffness.reset();
    let f0 = system.eval(t0, x0, stats)?;
    check_finite(&f0, "right-hand side", t0)?;
    let posneg = control.posneg();
    let h = match parameters.initial_step {
        Some(h0) => h0.copysign(posneg),
        None => initial_step(
            system,
            tolerances,
            t0,
            x0,
            &f0,
            posneg,
            control.hmax(),
            order,
            stats,
        )?,
    };
    Ok((f0, h))
}
