//! # Hairer's step-size control, initial step and stiffness test
//!
//! The parts of Hairer's `dopri5.f` (subroutine `DOPCOR`) and `dop853.f` (subroutine
//! `DP86CO`) that the two codes share, written once and used by [`super::Dopri5`] and
//! [`super::Dop853`]:
//!
//! - [`initial_step`]: the function `HINIT` (HNW I, §II.4, "Starting step size");
//! - the step-size update with Lund stabilisation lives in [`super::Controller`] (HNW I, §II.4 and
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
use super::controller::{Controller, ControllerParameters};
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
/// As [`System::eval`]; [`Error::NonFiniteState`] (`what = "initial step estimate"`) when the
/// scaled derivative overflows (`|f₀_i/sk_i|` above about 10¹⁵⁴, e.g. a derivative of 10³⁰⁸),
/// so that no positive step results: give an initial step instead
/// ([`ControllerParameters::initial_step`]).
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
    if !(h > 0.0 && h.is_finite()) {
        return Err(Error::NonFiniteState {
            what: "initial step estimate",
            t: x,
        });
    }
    Ok(h.copysign(posneg))
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
                    return Err(Error::ProblemIsStiff {
                        t: x,
                        h_lambda: self.hlamb,
                        border: self.border,
                    });
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
pub(crate) fn check_start<D>(t0: f64, x0: &OVector<f64, D>, t_end: f64) -> Result<()>
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
pub(crate) fn check_finite<D>(v: &OVector<f64, D>, what: &'static str, t: f64) -> Result<()>
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

/// Whether every entry is finite, without a branch per entry and without a dependency chain
/// of floating-point operations: each entry's test is independent and they are combined by
/// one-cycle `&`. Called once per evaluation of the right-hand side; a sum `Σ 0·x_i` (the
/// earlier form) put `N` dependent additions after every evaluation, which the profile of the
/// free rigid body showed as a quarter of the step's samples.
#[inline(always)]
pub(crate) fn all_finite(values: &[f64]) -> bool {
    values.iter().fold(true, |ok, x| ok & x.is_finite())
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
/// As [`check_start`], [`Tolerances::check_resolvable`] (at the sizes [`System::magnitude`]
/// gives), [`System::eval`], [`Tolerances::check_derivative_scale`] and [`initial_step`]; a
/// non-finite `F(t₀, x₀)`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn begin_integration<D, S>(
    system: &mut S,
    tolerances: &Tolerances,
    parameters: &ControllerParameters,
    control: &mut Controller,
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
    let sizes = magnitudes(system, x0);
    tolerances.check_resolvable(&sizes)?;
    control.begin(t0, t_end);
    stiffness.reset();
    let f0 = system.eval(t0, x0, stats)?;
    check_finite(&f0, "right-hand side", t0)?;
    tolerances.check_derivative_scale(&sizes, f0.as_slice(), t0)?;
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

/// The sizes `m_i` of the components of `x` as the error test sees them
/// ([`System::magnitude`]: `|x_i|` for a vector ODE, the group state's coordinate sizes for
/// the local coordinates of a Lie-group step, whose own values are 0 at the start). The
/// tolerance checks at the start read these, so that a lifted run is checked as its vector
/// counterpart is.
pub(crate) fn magnitudes<D, S>(system: &S, x: &OVector<f64, D>) -> Vec<f64>
where
    D: DimName,
    DefaultAllocator: Allocator<D>,
    S: System<D> + ?Sized,
{
    (0..D::dim()).map(|i| system.magnitude(x, i)).collect()
}

/// The error that ends an attempt loop: a step-size underflow reached by shrinking after
/// non-finite trial values is reported as that non-finite value (its cause), not as a bare
/// underflow.
pub(crate) fn underflow_cause(error: Error, non_finite: Option<Error>) -> Error {
    match (error, non_finite) {
        (Error::StepSizeTooSmall { .. }, Some(cause)) => cause,
        (error, _) => error,
    }
}
