//! What the rotational steppers of the catalogue share: their state, their renormalisation,
//! the descriptive [`RotationalMethod`], and the bridge from each method to the one
//! [`Stepper`] protocol (start on a [`Span`], counted torque evaluations, synchronised state).

use nalgebra::{Quaternion, Vector3};

use super::torque::TorqueField;
use crate::body::RigidBody;
use crate::body::quaternion::normalize;
use crate::error::{Error, Result};
use crate::stepper::{NoDenseOutput, Span, Stats, StepReport, Stepper, StepperInfo};

/// Where a step evaluates its torque: the time, the rotor and the body angular velocity it
/// hands to the torque field (or, for a many-body system, writes into the state the force model
/// sees).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TorquePoint {
    /// The time, `t_n` or `t_{n+1}` ([`SplitStep::TORQUE_AT_END`](crate::rotation::SplitStep::TORQUE_AT_END)).
    pub t: f64,
    /// The rotor.
    pub q: Quaternion<f64>,
    /// The body angular velocity (the method's estimate at `t`, e.g. `ω_{n−½}` for leapfrog
    /// methods).
    pub omega: Vector3<f64>,
}

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

    /// Counts one step and returns its rotor `q`, normalised to `q/|q|` if the policy asks for
    /// it after this step, unchanged otherwise.
    #[inline]
    pub fn apply(&mut self, q: Quaternion<f64>) -> Quaternion<f64> {
        match self.policy {
            Renormalisation::Never => q,
            Renormalisation::EveryStep => normalize(&q),
            Renormalisation::Every(n) => {
                self.since += 1;
                if self.since >= n {
                    self.since = 0;
                    normalize(&q)
                } else {
                    q
                }
            }
        }
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

/// The method of a catalogue stepper under a torque field `T`, behind its [`Stepper`]
/// implementation: start at a state with a step size, step, synchronise. Crate-private: users
/// drive the catalogue through [`Stepper`], which counts the evaluations and the steps
/// ([`start_on_span`], [`step_counted`], [`state_counted`]).
pub(crate) trait RotationalCore<T: TorqueField>: RotationalMethod {
    /// Starts at `state` with step size `dt` (leapfrog methods compute their half-step angular
    /// velocity here, which may evaluate the torque).
    fn start(&mut self, torque: &mut T, state: &RotationalState, dt: f64) -> Result<()>;

    /// One step of size `dt`.
    fn step(&mut self, torque: &mut T) -> Result<()>;

    /// The synchronised state at `t_n` (leapfrog methods estimate `ω_n` by half an explicit
    /// step from `ω_{n−½}`, evaluating the torque once).
    fn state(&mut self, torque: &mut T) -> Result<RotationalState>;

    /// The run's counters.
    fn run_mut(&mut self) -> &mut RunCount;
}

/// The counters a catalogue stepper keeps for the [`Stepper`] protocol: its [`Stats`], the
/// steps its span plans and the steps taken since the start.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunCount {
    pub(crate) stats: Stats,
    planned: usize,
    taken: usize,
}

impl RunCount {
    /// The work done since the start.
    pub fn stats(&self) -> Stats {
        self.stats
    }
}

/// A torque field that counts its evaluations: how the catalogue's [`Stepper`] implementations
/// count every torque evaluation at its source (start, steps, synchronisation), whatever the
/// method.
///
/// # Examples
/// ```
/// use lieode::rotation::{CountedTorque, NoTorque, TorqueField};
/// use nalgebra::{Quaternion, Vector3};
///
/// let mut free = NoTorque;
/// let mut counted = CountedTorque::new(&mut free);
/// counted.body_torque(0.0, &Quaternion::identity(), &Vector3::zeros());
/// assert_eq!(counted.evaluations(), 1);
/// ```
#[derive(Debug)]
pub struct CountedTorque<'a, T> {
    torque: &'a mut T,
    evaluations: usize,
}

impl<'a, T> CountedTorque<'a, T> {
    /// Counts the evaluations of `torque`, from zero.
    pub fn new(torque: &'a mut T) -> Self {
        Self {
            torque,
            evaluations: 0,
        }
    }

    /// The evaluations so far.
    pub fn evaluations(&self) -> usize {
        self.evaluations
    }
}

impl<T: TorqueField> TorqueField for CountedTorque<'_, T> {
    #[inline(always)]
    fn body_torque(&mut self, t: f64, q: &Quaternion<f64>, omega: &Vector3<f64>) -> Vector3<f64> {
        self.evaluations += 1;
        self.torque.body_torque(t, q, omega)
    }
}

/// [`Stepper::start`] of a catalogue stepper: the step size from the fixed-step `span`, the
/// state's time checked against the span's start, the method's own start, the counters reset.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `span` for an adaptive span and naming `y0` when
/// `y0.t ≠ span.t0()`; the method's start checks ([`check_start`]).
pub(crate) fn start_on_span<T, S>(
    stepper: &mut S,
    torque: &mut T,
    span: &Span,
    y0: &RotationalState,
) -> Result<()>
where
    T: TorqueField,
    S: for<'a> RotationalCore<CountedTorque<'a, T>> + ?Sized,
{
    let (dt, planned) = span.fixed_step()?;
    if y0.t != span.t0() {
        return Err(Error::InvalidParameter {
            name: "y0",
            value: format!("a state at t = {:e}", y0.t),
            expected: format!("the state at the span's start t0 = {:e}", span.t0()),
        });
    }
    let mut counted = CountedTorque::new(torque);
    RotationalCore::start(stepper, &mut counted, y0, dt)?;
    let evaluations = counted.evaluations;
    *stepper.run_mut() = RunCount {
        stats: Stats {
            rhs_evaluations: evaluations,
            ..Stats::default()
        },
        planned,
        taken: 0,
    };
    Ok(())
}

/// [`Stepper::step`] of a catalogue stepper: one step, its torque evaluations counted.
///
/// A step of every catalogue method evaluates the torque a fixed number of times,
/// [`RotationalMethod::torque_evaluations_per_step`] (the torque is frozen over the step, or the
/// stages are fixed), so the hot loop adds that number instead of counting through a wrapper
/// (which cost SPIRAL's 23 ns step 3 ns); `tests/rotation_protocol.rs` checks the sum against
/// an independent count of the torque calls for every method.
///
/// # Errors
/// Those of the method's step.
#[inline(always)]
pub(crate) fn step_counted<T, S>(stepper: &mut S, torque: &mut T) -> Result<StepReport>
where
    T: TorqueField,
    S: RotationalCore<T> + ?Sized,
{
    let t_start = stepper.time();
    RotationalCore::step(stepper, torque)?;
    let evaluations = stepper.torque_evaluations_per_step();
    let run = stepper.run_mut();
    run.stats.rhs_evaluations += evaluations;
    run.stats.steps += 1;
    run.stats.accepted += 1;
    run.taken += 1;
    let finished = run.taken >= run.planned;
    Ok(StepReport {
        t_start,
        t_end: stepper.time(),
        finished,
    })
}

/// [`Stepper::state`] of a catalogue stepper: the synchronised state, its torque evaluations
/// counted.
///
/// # Errors
/// Those of the method's synchronisation.
pub(crate) fn state_counted<T, S>(stepper: &mut S, torque: &mut T) -> Result<RotationalState>
where
    T: TorqueField,
    S: for<'a> RotationalCore<CountedTorque<'a, T>> + ?Sized,
{
    let mut counted = CountedTorque::new(torque);
    let state = RotationalCore::state(stepper, &mut counted)?;
    let evaluations = counted.evaluations;
    stepper.run_mut().stats.rhs_evaluations += evaluations;
    // A synchronised ω may overflow where the carried half-step values did not (Fincham,
    // Omelyan: ω_n from L_{n−½} + (dt/2)M).
    state.check_finite("state")?;
    Ok(state)
}

/// Every catalogue stepper as one object type: a [`Stepper`] on rotational states with the
/// descriptive [`RotationalMethod`] (what `Box<dyn CatalogueStepper<T>>` holds).
pub trait CatalogueStepper<T: TorqueField>:
    Stepper<T, State = RotationalState, Segment = NoDenseOutput<RotationalState>> + RotationalMethod
{
}

impl<T: TorqueField, S> CatalogueStepper<T> for S where
    S: Stepper<T, State = RotationalState, Segment = NoDenseOutput<RotationalState>>
        + RotationalMethod
        + ?Sized
{
}

// Implements `StepperInfo` and `Stepper<T>` (for every `T: TorqueField`) for a catalogue
// stepper type that implements `RotationalCore`: `impl_catalogue_stepper!(Type)`.
macro_rules! impl_catalogue_stepper {
    ($ty:ty) => {
        impl<T: $crate::rotation::TorqueField> $crate::stepper::Stepper<T> for $ty {
            type State = $crate::rotation::RotationalState;
            type Segment = $crate::stepper::NoDenseOutput<$crate::rotation::RotationalState>;

            fn start(
                &mut self,
                torque: &mut T,
                span: &$crate::stepper::Span,
                y0: &$crate::rotation::RotationalState,
            ) -> $crate::Result<()> {
                $crate::rotation::stepper::start_on_span(self, torque, span, y0)
            }

            #[inline]
            fn step(&mut self, torque: &mut T) -> $crate::Result<$crate::stepper::StepReport> {
                $crate::rotation::stepper::step_counted(self, torque)
            }

            fn state(
                &mut self,
                torque: &mut T,
            ) -> $crate::Result<$crate::rotation::RotationalState> {
                $crate::rotation::stepper::state_counted(self, torque)
            }
        }
    };
}
pub(crate) use impl_catalogue_stepper;

/// The smallest `|q|²` a catalogue stepper starts from: below it the squares of the entries
/// lose digits to underflow and the normalising methods' `q/|q|` is inaccurate.
pub const ROTOR_NORM_SQUARED_MIN: f64 = 1e-292;

/// The checks every catalogue stepper's start makes: the step size, a finite state and a
/// rotor whose `|q|²` is a normal finite number (a zero rotor is no rotation: the exponential
/// updates would carry `q = 0` forever and the normalising ones divide by zero; a rotor with
/// `|q|²` overflowing or underflowing is normalised to nonsense).
///
/// # Errors
/// [`Error::InvalidParameter`] naming `dt` unless it is finite and positive;
/// [`Error::NonFinite`] naming `state` for a non-finite state; [`Error::InvalidParameter`]
/// naming `state` for a rotor with `|q|²` zero, below [`ROTOR_NORM_SQUARED_MIN`] or
/// overflowing.
pub fn check_start(state: &RotationalState, dt: f64) -> Result<()> {
    check_step_size(dt)?;
    state
        .check_finite("state")
        .map_err(|_| Error::NonFinite { name: "state" })?;
    let norm_squared = state.q.norm_squared();
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
pub fn check_step_size(dt: f64) -> Result<()> {
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

pub use crate::stepper::not_started;

/// The time of a fixed-step stepper, `t_n = t_0 + n·dt`, computed from the step count rather
/// than accumulated: `t += dt` loses up to half an ulp of `t` per step (at `t_0 = 10⁹`,
/// `dt = 10⁻⁶` that is 6 % of `dt` each step), while `t_0 + n·dt` is within one rounding of the
/// exact grid time at every step.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StepClock {
    t0: f64,
    dt: f64,
    steps: u64,
}

impl StepClock {
    /// A clock at `t0` with step `dt`, no step taken.
    pub fn start(t0: f64, dt: f64) -> Self {
        Self { t0, dt, steps: 0 }
    }

    /// The time `k` steps after the current one, `t_0 + (n + k)·dt`.
    #[inline]
    pub fn after(&self, k: u64) -> f64 {
        let n = self.steps + k;
        if n == 0 {
            self.t0
        } else {
            self.t0 + n as f64 * self.dt
        }
    }

    /// Counts one step and returns the new time `t_0 + n·dt`.
    #[inline]
    pub fn tick(&mut self) -> f64 {
        self.steps += 1;
        self.after(0)
    }

    /// The number of steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }
}

/// The state every quaternion stepper of the catalogue carries, with the bookkeeping they share:
/// the body, the step size, the time `t_n`, the rotor `q_n`, the angular velocity the method
/// carries (`ω_n`, or `ω_{n−½}` for leapfrog methods), whether the stepper was started, and the
/// end-of-step [`Renormaliser`].
///
/// A stepper built on it starts with [`StepperCore::begin`] (the checks of
/// [`Stepper::start`]) and [`StepperCore::commit`] (or both at once with
/// [`StepperCore::start`] when the start needs no torque), guards its steps with
/// [`StepperCore::ensure_started`], and updates the fields in its step.
///
/// # Examples
/// ```
/// use lieode::rotation::stepper::StepperCore;
/// use lieode::rotation::{Renormalisation, Renormaliser, RigidBody, RotationalState};
/// use nalgebra::{Quaternion, Vector3};
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let mut core = StepperCore::new(body, Renormaliser::NEVER)
///     .with_renormalisation(Renormalisation::EveryStep)?;
/// assert!(core.ensure_started().is_err());
/// let state = RotationalState::new(0.5, Quaternion::identity(), Vector3::new(0.1, 0.2, 0.3));
/// core.start(&state, 1e-3)?;
/// assert!(core.ensure_started().is_ok());
/// assert_eq!((core.time(), core.dt(), core.omega()), (0.5, 1e-3, state.omega));
/// assert_eq!(core.renormalisation(), Renormalisation::EveryStep);
/// assert!(core.start(&state, -1.0).is_err());
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct StepperCore {
    /// The body.
    pub(crate) body: RigidBody,
    /// The end-of-step renormalisation (policy and step count).
    pub(crate) renormaliser: Renormaliser,
    /// The step size.
    pub(crate) dt: f64,
    /// The time `t_n = t_0 + n·dt` (see [`StepClock`]).
    pub(crate) t: f64,
    /// The start time and the number of steps taken, from which `t_n` is computed.
    pub(crate) clock: StepClock,
    /// The rotor `q_n`.
    pub(crate) q: Quaternion<f64>,
    /// The angular velocity the method carries: `ω_n`, or `ω_{n−½}` for leapfrog methods.
    pub(crate) omega: Vector3<f64>,
    /// Whether the stepper was started.
    pub(crate) started: bool,
    /// The counters of the [`Stepper`] protocol.
    pub(crate) run: RunCount,
}

impl StepperCore {
    /// The state of a stepper for `body` that was not started (`t = 0`, `q = 1`, `ω = 0`,
    /// `dt = 0`), with the renormaliser `default_policy` (the method's default).
    pub fn new(body: RigidBody, default_policy: Renormaliser) -> Self {
        Self {
            body,
            renormaliser: default_policy,
            dt: 0.0,
            t: 0.0,
            clock: StepClock::default(),
            q: Quaternion::identity(),
            omega: Vector3::zeros(),
            started: false,
            run: RunCount::default(),
        }
    }

    /// The same state with the end-of-step renormalisation `policy`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `renormalisation` for `Every(0)`.
    pub fn with_renormalisation(self, policy: Renormalisation) -> Result<Self> {
        Ok(Self {
            renormaliser: Renormaliser::new(policy)?,
            ..self
        })
    }

    /// The checks at the start of [`Stepper::start`]: the step size, then the state.
    /// If both pass, the stepper is marked as not started (until [`StepperCore::commit`]) and the
    /// renormaliser's step count is set to zero; otherwise nothing changes.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `dt` unless it is finite and positive;
    /// [`Error::NonFinite`] naming `state` for a non-finite state;
    /// [`Error::InvalidParameter`] naming `state` for a zero rotor (no rotation, and no method
    /// can recover one from it).
    pub fn begin(&mut self, state: &RotationalState, dt: f64) -> Result<()> {
        check_start(state, dt)?;
        self.started = false;
        self.renormaliser.reset();
        Ok(())
    }

    /// Completes a start: step size `dt`, time `t`, rotor `q`, carried angular velocity
    /// `omega`, and marks the stepper as started.
    pub fn commit(&mut self, dt: f64, t: f64, q: Quaternion<f64>, omega: Vector3<f64>) {
        self.dt = dt;
        self.t = t;
        self.clock = StepClock::start(t, dt);
        self.q = q;
        self.omega = omega;
        self.started = true;
    }

    /// The time at the end of the step being taken, `t_0 + (n + 1)·dt`.
    #[inline]
    pub fn next_time(&self) -> f64 {
        self.clock.after(1)
    }

    /// Counts one step and sets the time to `t_0 + n·dt`.
    #[inline]
    pub fn tick(&mut self) {
        self.t = self.clock.tick();
    }

    /// [`StepperCore::begin`] followed by [`StepperCore::commit`] at `state`: the whole start of
    /// a method that needs no torque to start.
    ///
    /// # Errors
    /// Those of [`StepperCore::begin`].
    pub fn start(&mut self, state: &RotationalState, dt: f64) -> Result<()> {
        self.begin(state, dt)?;
        self.commit(dt, state.t, state.q, state.omega);
        Ok(())
    }

    /// Checks that the stepper was started.
    ///
    /// # Errors
    /// [`not_started`] otherwise.
    #[inline]
    pub fn ensure_started(&self) -> Result<()> {
        if self.started {
            Ok(())
        } else {
            Err(not_started())
        }
    }

    /// The body.
    pub fn body(&self) -> &RigidBody {
        &self.body
    }

    /// The step size (zero before the start).
    pub fn dt(&self) -> f64 {
        self.dt
    }

    /// The time `t_n`.
    pub fn time(&self) -> f64 {
        self.t
    }

    /// The rotor `q_n`.
    pub fn orientation(&self) -> Quaternion<f64> {
        self.q
    }

    /// The angular velocity the method carries (`ω_n`, or `ω_{n−½}` for leapfrog methods).
    pub fn omega(&self) -> Vector3<f64> {
        self.omega
    }

    /// The renormalisation policy.
    pub fn renormalisation(&self) -> Renormalisation {
        self.renormaliser.policy()
    }

    /// Whether the stepper was started.
    pub fn is_started(&self) -> bool {
        self.started
    }

    /// The carried angular velocity with its time: `(t_n, ω_n)`, or `(t_n − dt/2, ω_{n−½})` if
    /// `leapfrog`.
    #[inline]
    pub fn angular_velocity(&self, leapfrog: bool) -> (f64, Vector3<f64>) {
        if leapfrog {
            (self.t - 0.5 * self.dt, self.omega)
        } else {
            (self.t, self.omega)
        }
    }

    /// The synchronised state `(t_n, q_n, ω_n)` of a non-leapfrog method.
    pub fn state(&self) -> RotationalState {
        RotationalState::new(self.t, self.q, self.omega)
    }

    /// Whether the stepper was started, and the carried state `(t_n, q_n, ω)` as the point a
    /// step takes its torque at.
    #[inline(always)]
    pub fn carried(&self) -> (bool, TorquePoint) {
        let at = TorquePoint {
            t: self.t,
            q: self.q,
            omega: self.omega,
        };
        (self.started, at)
    }
}

// Implements `StepperInfo`, `RotationalMethod` and `Stepper<T>` for a stepper type that keeps its
// state in a field `core: StepperCore` and implements `RotationalCore`: `impl_rotational_method!(Type, "name", evaluations, leapfrog)`, where
// `evaluations` is the torque evaluations per step and `leapfrog` a `bool` expression (for a
// leapfrog method `angular_velocity` reports `(t_n − dt/2, ω_{n−½})`);
// `impl_rotational_method!(Type, field name_field, …)` takes the name from a `&'static str`
// field instead. Crate-private.
macro_rules! impl_rotational_method {
    ($ty:ty, field $field:ident, $evaluations:expr, $leapfrog:expr) => {
        $crate::rotation::stepper::impl_rotational_method!(
            @impl $ty, |s: &$ty| -> &'static str { s.$field }, $evaluations, $leapfrog
        );
    };
    ($ty:ty, $name:expr, $evaluations:expr, $leapfrog:expr) => {
        $crate::rotation::stepper::impl_rotational_method!(
            @impl $ty, |_: &$ty| -> &'static str { $name }, $evaluations, $leapfrog
        );
    };
    (@impl $ty:ty, $name_of:expr, $evaluations:expr, $leapfrog:expr) => {
        impl $crate::stepper::StepperInfo for $ty {
            fn name(&self) -> &str {
                ($name_of)(self)
            }

            fn time(&self) -> f64 {
                self.core.time()
            }

            fn stats(&self) -> $crate::stepper::Stats {
                self.core.run.stats()
            }
        }

        impl $crate::rotation::stepper::RotationalMethod for $ty {
            fn torque_evaluations_per_step(&self) -> usize {
                $evaluations
            }

            fn is_leapfrog(&self) -> bool {
                $leapfrog
            }

            fn renormalisation(&self) -> $crate::rotation::stepper::Renormalisation {
                self.core.renormalisation()
            }

            fn orientation(&self) -> ::nalgebra::Quaternion<f64> {
                self.core.orientation()
            }

            fn angular_velocity(&self) -> (f64, ::nalgebra::Vector3<f64>) {
                self.core.angular_velocity($leapfrog)
            }

            fn body(&self) -> &$crate::body::RigidBody {
                self.core.body()
            }
        }

        $crate::rotation::stepper::impl_catalogue_stepper!($ty);
    };
}
pub(crate) use impl_rotational_method;

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
