//! Hairer's step-size control parameters.

use crate::error::{Error, Result};

/// Stiffness detection of Hairer's DOPRI5/DOP853: every `every` accepted steps the method
/// estimates `h·ρ` of the Jacobian from its last stages; after `limit` positive tests it
/// reports stiffness ([`crate::Error::ProblemIsStiff`]) if `fail_on_stiffness`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StiffnessCheck {
    /// Test every this many accepted steps (Hairer's NSTIFF, default 1000).
    pub every: usize,
    /// Stop with an error when stiffness is detected (Hairer prints a message and stops).
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
                fail_on_stiffness: false,
            }),
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
