//! Hairer's step-size control parameters.

use crate::error::{Error, Result};
use crate::stepper::Stats;

/// Stiffness detection of Hairer's DOPRI5/DOP853: every `every` accepted steps the method
/// estimates `h·ρ` of the Jacobian from its last stages; after 15 positive tests in a row it
/// stops with [`crate::Error::ProblemIsStiff`] if `fail_on_stiffness` (the default, as Hairer's
/// codes return `IDID = −4` when they do not print), and otherwise counts the detection and
/// goes on (as his codes do when they print the message).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StiffnessCheck {
    /// Test every this many accepted steps (Hairer's NSTIFF, default 1000).
    pub every: usize,
    /// Stop with an error when stiffness is detected (default `true`); `false` counts the
    /// detection and continues.
    pub fail_on_stiffness: bool,
}

/// The parameters of Hairer's step-size control (his WORK/IWORK settings), validated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ControllerParameters {
    /// Rounding unit (WORK(1), default 2.3e-16).
    pub uround: f64,
    /// Safety factor (WORK(2), default 0.9).
    pub safe: f64,
    /// Lower bound of `h_new/h` is `fac1` (WORK(3)): DOPRI5 0.2, DOP853 0.333.
    pub fac1: f64,
    /// Upper bound of `h_new/h` is `fac2` (WORK(4)): DOPRI5 10, DOP853 6.
    pub fac2: f64,
    /// Lund stabilisation β (WORK(5)): DOPRI5 0.04, DOP853 0.
    pub beta: f64,
    /// Maximal step size (WORK(6), default `t_end − t0`).
    pub hmax: Option<f64>,
    /// Initial step size (WORK(7); `None`: Hairer's HINIT).
    pub initial_step: Option<f64>,
    /// Maximal number of steps (IWORK(1), default 100000).
    pub max_steps: usize,
    /// Stiffness detection (IWORK(4)); `None` switches it off.
    pub stiffness: Option<StiffnessCheck>,
}

impl ControllerParameters {
    /// Hairer's DOPRI5 defaults.
    pub fn dopri5() -> Self {
        Self {
            uround: 2.3e-16,
            safe: 0.9,
            fac1: 0.2,
            fac2: 10.0,
            beta: 0.04,
            hmax: None,
            initial_step: None,
            max_steps: 100_000,
            stiffness: Some(StiffnessCheck {
                every: 1000,
                fail_on_stiffness: true,
            }),
        }
    }

    /// These parameters with stiffness detections counted instead of stopping the run (as
    /// Hairer's codes behave when they print: the message, then on), testing every 1000
    /// accepted steps unless another interval is set.
    pub fn counting_stiffness(self) -> Self {
        Self {
            stiffness: Some(StiffnessCheck {
                every: self.stiffness.map_or(1000, |s| s.every),
                fail_on_stiffness: false,
            }),
            ..self
        }
    }

    /// Hairer's DOP853 defaults.
    pub fn dop853() -> Self {
        Self {
            fac1: 0.333,
            fac2: 6.0,
            beta: 0.0,
            ..Self::dopri5()
        }
    }

    /// Checks the ranges Hairer's codes check (uround in (1e-35, 1), safe in (1e-4, 1),
    /// beta ≤ 0.2, positive hmax and initial step, at least one step).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the field.
    pub fn validate(&self) -> Result<()> {
        let bad = |name: &'static str, value: f64, expected: &str| {
            Err(Error::InvalidParameter {
                name,
                value: format!("{value:e}"),
                expected: expected.into(),
            })
        };
        if !(self.uround > 1e-35 && self.uround < 1.0) {
            return bad("uround", self.uround, "1e-35 < uround < 1");
        }
        if !(self.safe > 1e-4 && self.safe < 1.0) {
            return bad("safe", self.safe, "1e-4 < safe < 1");
        }
        if !(self.fac1 > 0.0 && self.fac1 <= 1.0 && self.fac1.is_finite()) {
            return bad("fac1", self.fac1, "0 < fac1 ≤ 1");
        }
        if !(self.fac2 >= 1.0 && self.fac2.is_finite()) {
            return bad("fac2", self.fac2, "fac2 ≥ 1");
        }
        if !(self.beta >= 0.0 && self.beta <= 0.2) {
            return bad("beta", self.beta, "0 ≤ beta ≤ 0.2");
        }
        if let Some(h) = self.hmax
            && !(h > 0.0 && h.is_finite())
        {
            return bad("hmax", h, "a finite hmax > 0");
        }
        if let Some(h) = self.initial_step
            && !(h > 0.0 && h.is_finite())
        {
            return bad("initial_step", h, "a finite initial step > 0");
        }
        if self.max_steps == 0 {
            return bad("max_steps", 0.0, "at least one step");
        }
        if let Some(s) = self.stiffness
            && s.every == 0
        {
            return bad("stiffness.every", 0.0, "at least 1");
        }
        Ok(())
    }
}

/// Step-size control apart from the steppers: Hairer's controller for one integration, used by
/// DOPRI5, DOP853, every embedded pair ([`super::EmbeddedRk`]) and every fixed-step engine with
/// an error estimate ([`super::Controlled`]). It is the state his core integrators keep in
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
/// ODEX does not use it: its step-size rule (`fac = err^{1/(2k+1)}/safe3` per extrapolation
/// column `k`, bounded by `fac3`/`fac4`, no Lund stabilisation) is tied to its choice of order
/// by work per unit step ([`super::OdexParameters`]), so it stays with that method; the checks
/// before an attempt (step limit, step-size underflow, last step) follow the same rules.
///
/// # References
/// HNW I, §II.4 (eq. (4.13) with safety factor and bounds), §IV.2 (stabilised control,
/// `β`); `DOPCOR`/`DP86CO` of Hairer's codes.
#[derive(Debug, Clone, PartialEq)]
pub struct Controller {
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

impl Controller {
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

    /// The end of the integration (the last step ends exactly here).
    #[inline]
    pub fn x_end(&self) -> f64 {
        self.x_end
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

    /// Rejects an attempt whose stages or error estimate were not finite (a trial point
    /// outside the problem's domain, such as `√y` at `y < 0`, or an overflow) and returns the
    /// step size of the next attempt, shrunk by the largest factor the control allows
    /// (`fac1`, Hairer's default 0.2). The run fails only when the step size underflows.
    pub fn reject_non_finite(&mut self, h: f64, stats: &mut Stats) -> f64 {
        self.reject = true;
        if self.naccpt >= 1 {
            stats.rejected += 1;
        }
        self.last = false;
        h / self.facc1
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
