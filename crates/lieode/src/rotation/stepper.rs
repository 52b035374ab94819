//! What the rotational steppers of the catalogue share: their state, their renormalisation,
//! the descriptive [`RotationalMethod`], the checks of a start, and the one object type of the
//! catalogue ([`CatalogueStepper`]).

use nalgebra::{Quaternion, Vector3};

use crate::body::quaternion::normalize;
use crate::body::{RigidBody, Torque};
use crate::error::{Error, Result};
use crate::lie::{Real, real, to_f64};
use crate::stepper::{NoDenseOutput, Stepper, StepperInfo};

/// The state of a rotating body at one time: the rotor `q` (body → lab, scalar first) and the
/// body angular velocity `ω`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RotationalState<S: Real = f64> {
    /// The time.
    pub t: f64,
    /// The rotor (unit up to the method's normalisation policy).
    pub q: Quaternion<S>,
    /// The body angular velocity.
    pub omega: Vector3<S>,
}

impl RotationalState {
    /// The state `(t, q, ω)`.
    pub fn new(t: f64, q: Quaternion<f64>, omega: Vector3<f64>) -> Self {
        Self { t, q, omega }
    }
}

impl<S: Real> RotationalState<S> {
    /// Checks that every entry is finite (over dual numbers: the real parts).
    ///
    /// # Errors
    /// [`Error::NonFiniteState`] with `what` naming the state and its time.
    #[inline]
    pub(crate) fn check_finite(&self, what: &'static str) -> Result<()> {
        // One branch instead of eight: 0·x is ±0 for finite x and NaN otherwise.
        let zero = S::zero();
        let probe = real::<S>(self.t * 0.0)
            + self.q.coords.iter().fold(zero, |s, x| s + *x * zero)
            + self.omega.iter().fold(zero, |s, x| s + *x * zero);
        if probe == zero {
            Ok(())
        } else {
            Err(Error::NonFiniteState { what, t: self.t })
        }
    }
}

/// When a stepper rescales its quaternion (or orthonormalises its rotation matrix) to unit
/// length.
///
/// Every quaternion stepper of the catalogue takes a policy through its `with_renormalisation`
/// builder (default: what the published benchmark does, SPIRAL §4 and App. B) and applies it
/// to the rotor at the end of each step with a [`Renormaliser`]. Steps are counted from
/// [`Stepper::start`]: the first step after the start is step 1. Under a policy other
/// than `EveryStep` the rotor a method carries, reports and passes to the torque field need not
/// be unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Renormalisation {
    /// Never: the method keeps `|q| = 1` by construction (exponential or Cayley updates) or
    /// lets it drift.
    Never,
    /// After every step (as the published benchmark does for RK4, Direct Euler, …).
    EveryStep,
    /// After every `n`-th step, i.e. after steps `n, 2n, 3n, …` counted from the start (YADE
    /// normalises SPIRAL's quaternion every 5000 steps). `Every(1)` acts as
    /// [`Renormalisation::EveryStep`]; `Every(0)` is rejected by [`Renormaliser::new`].
    Every(usize),
}

/// The end-of-step renormalisation of a quaternion stepper: a [`Renormalisation`] policy and
/// the count of steps since the last normalisation (so `Every(n)` normalises after steps
/// `n, 2n, …` counted from [`Renormaliser::reset`], which the steppers call in
/// [`Stepper::start`]).
///
/// [`Renormaliser::apply`] is the one call a stepper makes on its new rotor; with
/// [`Renormalisation::EveryStep`] it returns exactly `q/|q|` as
/// [`super::quaternion::normalize`] computes it, and with [`Renormalisation::Never`] it returns
/// `q` untouched, so the two policies reproduce the benchmark's arithmetic bit for bit.
///
/// # Examples
/// ```
/// use lieode::rotation::{Renormalisation, Renormaliser};
/// use nalgebra::Quaternion;
///
/// let mut every_third = Renormaliser::new(Renormalisation::Every(3))?;
/// let q = Quaternion::new(1.0, 0.0, 0.0, 1e-3); // |q| > 1
/// assert_eq!(every_third.apply(q), q); // step 1
/// assert_eq!(every_third.apply(q), q); // step 2
/// assert!((every_third.apply(q).norm() - 1.0).abs() < 1e-15); // step 3: normalised
/// assert_eq!(every_third.apply(q), q); // step 4
/// assert!(Renormaliser::new(Renormalisation::Every(0)).is_err());
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Renormaliser {
    policy: Renormalisation,
    /// Steps since the last normalisation (or since the reset), below `n` for `Every(n)`.
    since: usize,
}

impl Renormaliser {
    /// The policy [`Renormalisation::Never`].
    pub const NEVER: Self = Self {
        policy: Renormalisation::Never,
        since: 0,
    };

    /// The policy [`Renormalisation::EveryStep`].
    pub const EVERY_STEP: Self = Self {
        policy: Renormalisation::EveryStep,
        since: 0,
    };

    /// A renormaliser with the policy `policy`, its step count at zero.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `renormalisation` for `Every(0)`.
    pub fn new(policy: Renormalisation) -> Result<Self> {
        if policy == Renormalisation::Every(0) {
            return Err(Error::InvalidParameter {
                name: "renormalisation",
                value: format!("{policy:?}"),
                expected: "Never, EveryStep or Every(n) with n ≥ 1 steps".into(),
            });
        }
        Ok(Self { policy, since: 0 })
    }

    /// The policy.
    pub fn policy(&self) -> Renormalisation {
        self.policy
    }

    /// Sets the step count back to zero (the steppers call it when they start).
    pub fn reset(&mut self) {
        self.since = 0;
    }

    /// Counts one step and says whether the policy normalises its rotor.
    #[inline(always)]
    pub fn due(&mut self) -> bool {
        match self.policy {
            Renormalisation::Never => false,
            Renormalisation::EveryStep => true,
            Renormalisation::Every(n) => {
                self.since += 1;
                if self.since >= n {
                    self.since = 0;
                    true
                } else {
                    false
                }
            }
        }
    }

    /// Counts one step and returns its rotor `q`, normalised to `q/|q|` if the policy asks for
    /// it after this step, unchanged otherwise.
    #[inline]
    pub fn apply(&mut self, q: Quaternion<f64>) -> Quaternion<f64> {
        if self.due() { normalize(&q) } else { q }
    }
}

/// What every rotational stepper tells about itself and its current state beyond
/// [`StepperInfo`] (its name, time `t_n` and work): the part of the interface that does not
/// depend on the torque type.
pub trait RotationalMethod: StepperInfo {
    /// Torque evaluations per step (after the start).
    fn torque_evaluations_per_step(&self) -> usize;

    /// Whether the angular velocity lives at half steps.
    fn is_leapfrog(&self) -> bool;

    /// The normalisation policy applied to the rotor at the end of each step (the quaternion
    /// steppers' `with_renormalisation` builders set it; each stepper's documentation gives its
    /// default).
    fn renormalisation(&self) -> Renormalisation;

    /// The rotor at `t_n`.
    fn orientation(&self) -> Quaternion<f64>;

    /// The angular velocity the method carries and the time it belongs to: `(t_n, ω_n)`, or
    /// `(t_n − dt/2, ω_{n−½})` for leapfrog methods.
    fn angular_velocity(&self) -> (f64, Vector3<f64>);

    /// The body.
    fn body(&self) -> &RigidBody;
}

/// Every catalogue stepper as one object type: a [`Stepper`] on rotational states with the
/// descriptive [`RotationalMethod`] (what `Box<dyn CatalogueStepper<T>>` holds).
pub trait CatalogueStepper<T: Torque>:
    Stepper<T, State = RotationalState, Segment = NoDenseOutput<RotationalState>> + RotationalMethod
{
}

impl<T: Torque, S> CatalogueStepper<T> for S where
    S: Stepper<T, State = RotationalState, Segment = NoDenseOutput<RotationalState>>
        + RotationalMethod
        + ?Sized
{
}

/// The smallest `|q|²` a catalogue stepper starts from: below it the squares of the entries
/// lose digits to underflow and the normalising methods' `q/|q|` is inaccurate.
pub const ROTOR_NORM_SQUARED_MIN: f64 = 1e-292;

/// The checks of the state every catalogue stepper starts from (its step size was checked by
/// [`crate::clock::FixedClock::forward`]): a finite state and a rotor whose `|q|²` is a
/// normal finite number (a zero rotor is no rotation: the exponential updates would carry
/// `q = 0` forever and the normalising ones divide by zero; a rotor with `|q|²` overflowing or
/// underflowing is normalised to nonsense).
///
/// # Errors
/// [`Error::NonFinite`] naming `state` for a non-finite state; [`Error::InvalidParameter`]
/// naming `state` for a rotor with `|q|²` zero, below [`ROTOR_NORM_SQUARED_MIN`] or
/// overflowing.
pub(crate) fn check_start_state<S: Real>(state: &RotationalState<S>) -> Result<()> {
    state
        .check_finite("state")
        .map_err(|_| Error::NonFinite { name: "state" })?;
    let norm_squared = to_f64(state.q.norm_squared());
    if !(norm_squared.is_finite() && norm_squared >= ROTOR_NORM_SQUARED_MIN) {
        return Err(Error::InvalidParameter {
            name: "state",
            value: format!("{:?} (|q|² = {norm_squared:e})", state.q),
            expected: format!(
                "a rotor with finite |q|² ≥ {ROTOR_NORM_SQUARED_MIN:e} (normalise it first, \
                 e.g. with UnitQuat::from_quaternion_normalized)"
            ),
        });
    }
    Ok(())
}

/// Checks a step size.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `dt` unless it is finite and positive.
pub(crate) fn check_step_size(dt: f64) -> Result<()> {
    crate::error::check_finite("dt", dt)?;
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
#[inline(always)]
pub(crate) fn checked_torque<S: Real, T: Torque<S>>(
    torque: &T,
    t: f64,
    q: &Quaternion<S>,
    omega: &Vector3<S>,
) -> Result<Vector3<S>> {
    let tau = torque.body_torque(real::<S>(t), q, omega);
    if tau.x.is_finite() && tau.y.is_finite() && tau.z.is_finite() {
        Ok(tau)
    } else {
        Err(Error::NonFiniteState { what: "torque", t })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constant_renormalisers_are_the_checked_ones() {
        assert_eq!(
            Renormaliser::new(Renormalisation::Never).ok(),
            Some(Renormaliser::NEVER)
        );
        assert_eq!(
            Renormaliser::new(Renormalisation::EveryStep).ok(),
            Some(Renormaliser::EVERY_STEP)
        );
    }

    #[test]
    fn every_n_counts_from_the_reset() {
        let q = Quaternion::new(1.0, 2.0, 0.0, 0.0);
        let unit = normalize(&q);
        let mut every_two = Renormaliser::NEVER;
        if let Ok(r) = Renormaliser::new(Renormalisation::Every(2)) {
            every_two = r;
        }
        assert_eq!(every_two.policy(), Renormalisation::Every(2));
        let applied: Vec<_> = (0..5).map(|_| every_two.apply(q)).collect();
        assert_eq!(applied, [q, unit, q, unit, q]);
        every_two.reset();
        assert_eq!(every_two.apply(q), q);
        assert_eq!(every_two.apply(q), unit);
        let (mut never, mut every) = (Renormaliser::NEVER, Renormaliser::EVERY_STEP);
        assert_eq!(never.apply(q), q);
        assert_eq!(every.apply(q), unit);
    }
}
