//! The interface every rotational stepper of the catalogue implements, and the loop that drives
//! one the way the SPIRAL benchmark does.

use nalgebra::{Quaternion, Vector3};

use super::body::RigidBody;
use super::torque::TorqueField;
use crate::error::{Error, Result};

/// The state of a rotating body at one time: the rotor `q` (body → lab, scalar first) and the
/// body angular velocity `ω`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RotationalState {
    /// The time.
    pub t: f64,
    /// The rotor (unit up to the method's normalisation policy).
    pub q: Quaternion<f64>,
    /// The body angular velocity.
    pub omega: Vector3<f64>,
}

impl RotationalState {
    /// The state `(t, q, ω)`.
    pub fn new(t: f64, q: Quaternion<f64>, omega: Vector3<f64>) -> Self {
        Self { t, q, omega }
    }

    /// Checks that every entry is finite.
    ///
    /// # Errors
    /// [`Error::NonFiniteState`] with `what` naming the state and its time.
    #[inline]
    pub fn check_finite(&self, what: &'static str) -> Result<()> {
        // One branch instead of eight: 0·x is ±0 for finite x and NaN otherwise.
        let probe = self.t * 0.0
            + self.q.coords.iter().fold(0.0, |s, x| s + x * 0.0)
            + self.omega.iter().fold(0.0, |s, x| s + x * 0.0);
        if probe == 0.0 {
            Ok(())
        } else {
            Err(Error::NonFiniteState { what, t: self.t })
        }
    }
}

/// When a stepper rescales its quaternion (or orthonormalises its rotation matrix) to unit
/// length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Renormalisation {
    /// Never: the method keeps `|q| = 1` by construction (exponential or Cayley updates) or
    /// lets it drift.
    Never,
    /// After every step (as the published benchmark does for RK4, Direct Euler, …).
    EveryStep,
    /// Every `n` steps (YADE normalises SPIRAL's quaternion every 5000 steps).
    Every(usize),
}

/// What every rotational stepper tells about itself and its current state (the part of the
/// interface that does not depend on the torque type).
pub trait RotationalMethod {
    /// The name used in tables and files (e.g. `spiral_leapfrog`, `buss16`).
    fn name(&self) -> &str;

    /// Torque evaluations per step (after the start).
    fn torque_evaluations_per_step(&self) -> usize;

    /// Whether the angular velocity lives at half steps.
    fn is_leapfrog(&self) -> bool;

    /// The normalisation policy.
    fn renormalisation(&self) -> Renormalisation;

    /// The current time `t_n`.
    fn time(&self) -> f64;

    /// The rotor at `t_n`.
    fn orientation(&self) -> Quaternion<f64>;

    /// The angular velocity the method carries and the time it belongs to: `(t_n, ω_n)`, or
    /// `(t_n − dt/2, ω_{n−½})` for leapfrog methods.
    fn angular_velocity(&self) -> (f64, Vector3<f64>);

    /// The body.
    fn body(&self) -> &RigidBody;
}

/// A one-step method for the rotational motion of a rigid body under a torque field `T`.
///
/// A stepper is built for a body, started at a physical state with a step size, then advanced
/// step by step (`t_{n+1} = t_n + dt`, time accumulated by addition as in the published
/// benchmark). Leapfrog methods carry the angular velocity at half steps: their
/// [`RotationalStepper::start`] performs the half-step initialisation the method prescribes
/// and [`RotationalMethod::angular_velocity`] reports the time the value belongs to
/// (`t_n − dt/2`); [`RotationalStepper::state`] is the synchronised state at the whole step.
pub trait RotationalStepper<T: TorqueField>: RotationalMethod {
    /// Starts at the physical state `state` with step size `dt` (leapfrog methods compute their
    /// half-step angular velocity here, which may evaluate the torque).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `dt` unless it is finite and positive;
    /// [`Error::NonFinite`] naming `state` for a non-finite state; a non-finite torque.
    fn start(&mut self, torque: &mut T, state: &RotationalState, dt: f64) -> Result<()>;

    /// One step of size `dt`.
    ///
    /// # Errors
    /// [`Error::NonFiniteState`] for a non-finite torque or state (naming which), a stepper
    /// that was not started.
    fn step(&mut self, torque: &mut T) -> Result<()>;

    /// The synchronised state at `t_n`. For leapfrog methods the angular velocity at the whole
    /// step is estimated from the half-step value by half an explicit step
    /// `ω_n ≈ ω_{n−½} + (dt/2) ω̇(ω_{n−½}, τ(t_n, q_n, ω_{n−½}))` (second order, like the methods);
    /// this evaluates the torque once.
    ///
    /// # Errors
    /// A non-finite torque.
    fn state(&mut self, torque: &mut T) -> Result<RotationalState>;
}

/// Checks a step size.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `dt` unless it is finite and positive.
pub fn check_step_size(dt: f64) -> Result<()> {
    if dt.is_finite() && dt > 0.0 {
        Ok(())
    } else {
        Err(Error::InvalidParameter {
            name: "dt",
            value: format!("{dt:e}"),
            expected: "a finite positive step size".into(),
        })
    }
}

/// Evaluates a torque and checks it is finite.
///
/// # Errors
/// [`Error::NonFiniteState`] with `what = "torque"` at time `t`.
#[inline]
pub fn checked_torque<T: TorqueField>(
    torque: &mut T,
    t: f64,
    q: &Quaternion<f64>,
    omega: &Vector3<f64>,
) -> Result<Vector3<f64>> {
    let tau = torque.body_torque(t, q, omega);
    if tau.x.is_finite() && tau.y.is_finite() && tau.z.is_finite() {
        Ok(tau)
    } else {
        Err(Error::NonFiniteState { what: "torque", t })
    }
}

/// The error of a stepper used before [`RotationalStepper::start`].
pub fn not_started() -> Error {
    Error::InvalidParameter {
        name: "start",
        value: "step called before start".into(),
        expected: "start(torque, state, dt) first".into(),
    }
}

/// Runs `steps` steps from `state` with step size `dt` and returns the stepper (positioned at
/// `t = t₀ + steps·dt`, the time accumulated by repeated addition).
///
/// # Errors
/// Those of [`RotationalStepper::start`] and [`RotationalStepper::step`].
pub fn run_steps<T: TorqueField, S: RotationalStepper<T>>(
    mut stepper: S,
    torque: &mut T,
    state: &RotationalState,
    dt: f64,
    steps: usize,
) -> Result<S> {
    stepper.start(torque, state, dt)?;
    for _ in 0..steps {
        stepper.step(torque)?;
    }
    Ok(stepper)
}
