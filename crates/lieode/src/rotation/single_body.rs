//! [`SingleBody`]: a [`RigidBodyMethod`] on one body under a torque field, as a [`Stepper`].

use nalgebra::{Quaternion, Vector3};

use super::method::{Carried, RigidBodyMethod, TorquePoint, finite_rotation};
use super::omega_integrator::{OmegaIntegrated, OmegaIntegrator};
use super::stepper::{
    Renormalisation, Renormaliser, RotationalMethod, RotationalState, check_start_state,
    checked_torque,
};
use crate::body::{RigidBody, Torque};
use crate::clock::FixedClock;
use crate::error::{Error, Result};
use crate::lie::Real;
use crate::stepper::{NoDenseOutput, Span, Stats, StepReport, Stepper, StepperInfo, not_started};

/// The method `K` on one body: the single-body stepper every catalogue method derives from its
/// one definition ([`RigidBodyMethod`]).
///
/// A step is the method's `prepare`, one evaluation of the torque field at the point it names
/// (checked to be finite), and its `finish`; the time is the span's clock
/// ([`FixedClock`]: `t_n = t_0 + n·dt`), the end-of-step normalisation the policy of
/// [`SingleBody::with_renormalisation`] (default: the method's, as in the published benchmark),
/// and every torque evaluation is counted in [`Stats::rhs_evaluations`]. The many-body
/// [`crate::system::CatalogueSystem`] runs the same two calls per body around one evaluation of
/// a system force model: with one body under a body-frame torque the two are bit-identical
/// (`tests/system.rs`).
///
/// A step that fails (a non-finite torque or state) is reported with its time; the carried state
/// is then not to be trusted, and the stepper must be started again.
///
/// # Examples
/// ```
/// use lieode::rotation::{ConstantBodyTorque, Fincham, RigidBody, RotationalState};
/// use lieode::stepper::{Span, Stepper, StepperInfo};
/// use nalgebra::{Quaternion, Vector3};
///
/// let mut fincham = Fincham::new(RigidBody::new([1.0, 2.0, 2.5])?);
/// let mut torque = ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0));
/// let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
/// fincham.start(&mut torque, &Span::stride(0.0, 1e-3, 10)?, &start)?;
/// while !fincham.step(&mut torque)?.finished {}
/// assert_eq!(fincham.stats().rhs_evaluations, 11); // the start's half step and ten steps
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SingleBody<K: RigidBodyMethod<S>, S: Real = f64> {
    method: K,
    body: RigidBody<S>,
    /// The policy (its count restarts with every run).
    renormaliser: Renormaliser,
    run: Option<Run<K, S>>,
    stats: Stats,
}

/// A started run: the method's constants and carried state, the clock and the normalisation
/// count.
#[derive(Debug, Clone)]
#[repr(C)]
struct Run<K: RigidBodyMethod<S>, S: Real> {
    carried: Carried<K::Extra, S>,
    constants: K::Constants,
    clock: FixedClock,
    renormaliser: Renormaliser,
}

impl<K: RigidBodyMethod<S> + Default, S: Real> SingleBody<K, S> {
    /// The method for `body`, with its default parameters and normalisation policy (over dual
    /// numbers for sensitivities: a body with dual moments, [`crate::sensitivity`]).
    pub fn new(body: RigidBody<S>) -> Self {
        Self::with_method(K::default(), body)
    }
}

impl<K: RigidBodyMethod<S>, S: Real> SingleBody<K, S> {
    /// The method `method` for `body`, with the method's default normalisation policy.
    pub fn with_method(method: K, body: RigidBody<S>) -> Self {
        let policy = method.info().default_renormalisation;
        Self {
            renormaliser: Renormaliser::new(policy).unwrap_or(Renormaliser::NEVER),
            method,
            body,
            run: None,
            stats: Stats::default(),
        }
    }

    /// The same stepper with the end-of-step renormalisation `policy` instead of the method's
    /// default (the method's documentation says which normalisation the policy switches).
    /// Steps are counted from [`Stepper::start`].
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `renormalisation` for `Every(0)` or for a method
    /// whose normalisation is part of the method ([`super::MethodInfo::renormalisable`]).
    pub fn with_renormalisation(self, policy: Renormalisation) -> Result<Self> {
        let info = self.method.info();
        if !info.renormalisable {
            return Err(Error::InvalidParameter {
                name: "renormalisation",
                value: format!("{policy:?} for {}", info.name),
                expected: "a quaternion stepper of the catalogue (not mercurydpm or the \
                           generic engines)"
                    .into(),
            });
        }
        Ok(Self {
            renormaliser: Renormaliser::new(policy)?,
            ..self
        })
    }

    /// The same stepper with the method's definition (its parameters) replaced by `method`; a
    /// running stepper goes on with the new definition's constants.
    pub(crate) fn with_method_parameters(mut self, method: K) -> Self {
        if let Some(run) = &mut self.run {
            run.constants = method.constants(&self.body, S::from_subset(&run.clock.dt()));
        }
        Self { method, ..self }
    }

    /// The method's definition (its parameters).
    pub fn method(&self) -> &K {
        &self.method
    }

    /// The method's carried state (`None` before the start).
    pub fn carried(&self) -> Option<&Carried<K::Extra, S>> {
        self.run.as_ref().map(|r| &r.carried)
    }

    /// The step size (zero before the start).
    pub fn dt(&self) -> f64 {
        self.run.as_ref().map_or(0.0, |r| r.clock.dt())
    }

    /// The normalisation policy, the method's definition and the body: what a many-body
    /// system of this method takes from it.
    pub(crate) fn parts(&self) -> (Renormaliser, &K) {
        (self.renormaliser, &self.method)
    }
}

impl<K: RigidBodyMethod<S> + OmegaIntegrated, S: Real> SingleBody<K, S> {
    /// The method with the angular velocity advanced by `integrator` instead of SSPRK3
    /// (SPIRAL Eqs. 9–10 with another explicit tableau, the torque still frozen over the step;
    /// the leapfrog variant uses the same tableau for the start's half step back; see
    /// [`OmegaIntegrator`] for what it changes).
    pub fn with_omega_integrator(self, integrator: OmegaIntegrator) -> Self {
        self.with_method_parameters(K::from_integrator(integrator))
    }

    /// The angular-velocity update in use.
    pub fn omega_integrator(&self) -> &OmegaIntegrator {
        self.method().integrator()
    }
}

impl<K: RigidBodyMethod<S>, S: Real> StepperInfo for SingleBody<K, S> {
    fn name(&self) -> &str {
        self.method.info().name
    }

    /// `t_n` (zero before the start).
    fn time(&self) -> f64 {
        self.run.as_ref().map_or(0.0, |r| r.clock.time())
    }

    fn stats(&self) -> Stats {
        self.stats
    }
}

impl<K: RigidBodyMethod> RotationalMethod for SingleBody<K> {
    fn torque_evaluations_per_step(&self) -> usize {
        self.method.info().evaluations
    }

    fn is_leapfrog(&self) -> bool {
        self.method.info().leapfrog
    }

    fn renormalisation(&self) -> Renormalisation {
        self.renormaliser.policy()
    }

    /// `q_n` (the identity before the start).
    fn orientation(&self) -> Quaternion<f64> {
        self.run
            .as_ref()
            .map_or(Quaternion::identity(), |r| r.carried.q)
    }

    fn angular_velocity(&self) -> (f64, Vector3<f64>) {
        self.run.as_ref().map_or((0.0, Vector3::zeros()), |r| {
            let t = r.clock.time();
            let omega = r.carried.omega;
            if self.method.info().leapfrog {
                (t - 0.5 * r.clock.dt(), omega)
            } else {
                (t, omega)
            }
        })
    }

    fn body(&self) -> &RigidBody {
        &self.body
    }
}

/// Over `f64`, and over dual numbers for sensitivities ([`crate::sensitivity`]: the body's
/// moments, the initial state and the torque's parameters as dual numbers, the time `f64`).
impl<K: RigidBodyMethod<S>, S: Real, T: Torque<S>> Stepper<T> for SingleBody<K, S> {
    type State = RotationalState<S>;
    type Segment = NoDenseOutput<RotationalState<S>>;

    /// Starts at `y0` on the fixed-step `span`: the method's start, with its start evaluations
    /// of the torque (evaluation `s` at `t_0 + s·dt`).
    ///
    /// # Errors
    /// Those of [`FixedClock::forward`]; [`Error::NonFinite`] naming `state` for a non-finite
    /// state; [`Error::InvalidParameter`] naming `state` for a rotor with `|q|²` zero,
    /// subnormal or overflowing; [`Error::NonFiniteState`] for a non-finite torque (`torque`)
    /// or start (`state`).
    fn start(&mut self, torque: &mut T, span: &Span, y0: &RotationalState<S>) -> Result<()> {
        // A failed start leaves the stepper unstarted, not on the previous run.
        self.run = None;
        let clock = FixedClock::forward(span, y0.t)?;
        check_start_state(y0)?;
        let dt = clock.dt();
        let constants = self.method.constants(&self.body, S::from_subset(&dt));
        let mut carried = self.method.begin(&constants, &y0.q, &y0.omega);
        for stage in 0..K::START_EVALUATIONS {
            let t = clock.after(stage as u64);
            let at = if stage == 0 {
                TorquePoint {
                    q: self.method.start_rotor(&y0.q),
                    omega: y0.omega,
                }
            } else {
                self.method
                    .start_point(&constants, &carried, stage, S::from_subset(&dt))
            };
            if !finite_rotation(&at.q, &at.omega) {
                return Err(Error::NonFiniteState { what: "state", t });
            }
            let tau = checked_torque(torque, t, &at.q, &at.omega)?;
            if !self
                .method
                .absorb_start(&constants, &mut carried, stage, &tau, S::from_subset(&dt))
            {
                return Err(Error::NonFiniteState {
                    what: "state",
                    t: y0.t,
                });
            }
        }
        let mut renormaliser = self.renormaliser;
        renormaliser.reset();
        self.stats = Stats {
            rhs_evaluations: K::START_EVALUATIONS,
            ..Stats::default()
        };
        self.run = Some(Run {
            constants,
            carried,
            clock,
            renormaliser,
        });
        Ok(())
    }

    /// One step: `prepare`, the torque, `finish`.
    ///
    /// # Errors
    /// [`not_started`] before the start; [`Error::NonFiniteState`] for a non-finite torque
    /// (`torque`, at its time) or new state (`state`, at `t_{n+1}`).
    #[inline]
    fn step(&mut self, torque: &mut T) -> Result<StepReport> {
        let Some(run) = self.run.as_mut() else {
            return Err(not_started());
        };
        let renormalise = run.renormaliser.due();
        // The policy is matched once, so that the step's arithmetic sees a constant: a run-time
        // flag inside joined the two rotors through the stack.
        if renormalise {
            step_run::<K, S, T, true>(&self.method, run, torque)?;
        } else {
            step_run::<K, S, T, false>(&self.method, run, torque)?;
        }
        self.stats.rhs_evaluations += self.method.info().evaluations;
        Ok(run.clock.advance(&mut self.stats))
    }

    /// The synchronised state at `t_n`; the leapfrog methods evaluate the torque once (counted)
    /// at the point of the coming step.
    ///
    /// # Errors
    /// [`not_started`] before the start; [`Error::NonFiniteState`] for a non-finite torque or
    /// synchronised state.
    fn state(&mut self, torque: &mut T) -> Result<RotationalState<S>> {
        let Some(run) = self.run.as_ref() else {
            return Err(not_started());
        };
        let (t, dt) = (run.clock.time(), S::from_subset(&run.clock.dt()));
        let tau = if K::SYNC_EVALUATES {
            let (_, at) = self.method.prepare(&run.constants, &run.carried, false, dt);
            let tau = checked_torque(torque, t, &at.q, &at.omega)?;
            self.stats.rhs_evaluations += 1;
            tau
        } else {
            Vector3::zeros()
        };
        let omega = self.method.sync(&run.constants, &run.carried, &tau, dt);
        let state = RotationalState {
            t,
            q: run.carried.q,
            omega,
        };
        // A synchronised ω may overflow where the carried half-step values did not (Fincham,
        // Omelyan: ω_n from L_{n−½} + (dt/2)M).
        state.check_finite("state")?;
        Ok(state)
    }
}

/// One step of `method` on `run` under `torque`: `prepare`, the torque (at every stage), `finish`,
/// the carried state updated in place (a copy through the stack stalled SPIRAL's step on store
/// forwarding); the torque is evaluated at references into the carried state where the point
/// is the carried state ([`RigidBodyMethod::POINT_IS_CARRIED`]). A step that fails leaves a
/// non-finite carried state, and the stepper must be started again.
///
/// # Errors
/// [`Error::NonFiniteState`] for a non-finite torque (`torque`, at its time) or new state
/// (`state`, at `t_{n+1}`).
#[inline(always)]
fn step_run<K: RigidBodyMethod<S>, S: Real, T: Torque<S>, const RENORMALISE: bool>(
    method: &K,
    run: &mut Run<K, S>,
    torque: &mut T,
) -> Result<()> {
    let step = run.clock.dt();
    let dt = S::from_subset(&step);
    let (mut pending, mut at) = method.prepare(&run.constants, &run.carried, RENORMALISE, dt);
    let mut t_torque = if K::STAGES > 1 {
        run.clock.time() + method.stage_fraction(0) * step
    } else if K::TORQUE_AT_END {
        run.clock.next_time()
    } else {
        run.clock.time()
    };
    for stage in 1..K::STAGES {
        let tau = checked_torque(torque, t_torque, &at.q, &at.omega)?;
        at = method.stage(&run.constants, &run.carried, &mut pending, stage, &tau, dt);
        t_torque = run.clock.time() + method.stage_fraction(stage) * step;
    }
    let (q, omega) = if K::POINT_IS_CARRIED && K::STAGES == 1 {
        (&run.carried.q, &run.carried.omega)
    } else {
        (&at.q, &at.omega)
    };
    let tau = checked_torque(torque, t_torque, q, omega)?;
    if method.finish(
        &run.constants,
        run.carried.as_mut(),
        pending,
        &tau,
        RENORMALISE,
        dt,
    ) {
        Ok(())
    } else {
        Err(Error::NonFiniteState {
            what: "state",
            t: run.clock.next_time(),
        })
    }
}
