//! Direct Euler, as the SPIRAL benchmark codes it (semi-implicit: the rotor uses the new ω).

use nalgebra::{Quaternion, Vector3};

use super::body::RigidBody;
use super::quaternion::times_pure;
use super::stepper::{
    Renormalisation, Renormaliser, RotationalMethod, RotationalState, RotationalStepper,
    check_step_size, checked_torque, not_started,
};
use super::torque::TorqueField;
use crate::error::{Error, Result};

/// Direct Euler (SPIRAL App. B.1, Eq. (B.1), after the paper's
/// ref. 7, Boyce & DiPrima): with `τ_n = τ(t_n, q_n, ω_n)`,
///
/// ```text
/// ω_{n+1} = ω_n + dt ω̇(ω_n, τ_n)
/// q_{n+1} = normalise(q_n + dt · ½ q_n ⊗ ω_{n+1})
/// ```
///
/// First order in q and ω; one torque evaluation per step. The rotor update uses the *new*
/// angular velocity, as the benchmark's code does.
///
/// **Renormalisation.** By default the rotor is normalised after every step
/// ([`Renormalisation::EveryStep`], the `normalise` above, as in the published benchmark);
/// [`DirectEuler::with_renormalisation`] chooses another policy (`Never`, `Every(n)`). The step
/// contains no other normalisation. Without it the rotor grows, since the increment is
/// orthogonal to `q_n`: `|q_{n+1}|² = |q_n|² (1 + dt² |ω_{n+1}|²/4)`, a drift of first order in
/// dt (measured on the SPIRAL cylinder at t = 1: `|q| − 1` = 8.5e-2, 8.2e-3, 8.2e-4 for
/// dt = 1e-3, 1e-4, 1e-5; `tests/rotation_renormalisation.rs`). The step is homogeneous of degree
/// one in `q`, so for a torque that does not depend on the attitude the policy changes the
/// rotor's length only, not its direction. (The SPIRAL paper's Fig. 4 times the methods with and
/// without normalisation.)
///
/// # Examples
/// ```
/// use lieode::rotation::{
///     ConstantBodyTorque, DirectEuler, RigidBody, RotationalMethod, RotationalState, RotationalStepper,
/// };
/// use nalgebra::{Quaternion, Vector3};
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let mut torque = ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0));
/// let mut euler = DirectEuler::new(body);
/// let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
/// euler.start(&mut torque, &start, 1e-3)?;
/// for _ in 0..1000 {
///     euler.step(&mut torque)?;
/// }
/// assert!((euler.time() - 1.0).abs() < 1e-12);
/// assert!((euler.orientation().norm() - 1.0).abs() < 1e-15);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct DirectEuler {
    body: RigidBody,
    /// The end-of-step renormalisation (policy and step count).
    renormaliser: Renormaliser,
    dt: f64,
    t: f64,
    q: Quaternion<f64>,
    omega: Vector3<f64>,
    started: bool,
}

impl DirectEuler {
    /// The method for `body`.
    pub fn new(body: RigidBody) -> Self {
        Self {
            body,
            renormaliser: Renormaliser::EVERY_STEP,
            dt: 0.0,
            t: 0.0,
            q: Quaternion::identity(),
            omega: Vector3::zeros(),
            started: false,
        }
    }

    /// The method with the end-of-step renormalisation `policy` instead of the default
    /// [`Renormalisation::EveryStep`] (see **Renormalisation** in the type's documentation). Steps
    /// are counted from [`RotationalStepper::start`].
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `renormalisation` for `Every(0)`.
    pub fn with_renormalisation(self, policy: Renormalisation) -> Result<Self> {
        Ok(Self {
            renormaliser: Renormaliser::new(policy)?,
            ..self
        })
    }
}

impl RotationalMethod for DirectEuler {
    fn name(&self) -> &str {
        "direct_euler"
    }

    fn torque_evaluations_per_step(&self) -> usize {
        1
    }

    fn is_leapfrog(&self) -> bool {
        false
    }

    fn renormalisation(&self) -> Renormalisation {
        self.renormaliser.policy()
    }

    fn time(&self) -> f64 {
        self.t
    }

    fn orientation(&self) -> Quaternion<f64> {
        self.q
    }

    fn angular_velocity(&self) -> (f64, Vector3<f64>) {
        (self.t, self.omega)
    }

    fn body(&self) -> &RigidBody {
        &self.body
    }
}

impl<T: TorqueField> RotationalStepper<T> for DirectEuler {
    fn start(&mut self, _torque: &mut T, state: &RotationalState, dt: f64) -> Result<()> {
        check_step_size(dt)?;
        state
            .check_finite("state")
            .map_err(|_| Error::NonFinite { name: "state" })?;
        self.dt = dt;
        self.t = state.t;
        self.q = state.q;
        self.omega = state.omega;
        self.renormaliser.reset();
        self.started = true;
        Ok(())
    }

    fn step(&mut self, torque: &mut T) -> Result<()> {
        if !self.started {
            return Err(not_started());
        }
        let dt = self.dt;
        let tau = checked_torque(torque, self.t, &self.q, &self.omega)?;
        self.omega += dt * self.body.angular_acceleration(&self.omega, &tau);
        self.q = self
            .renormaliser
            .apply(self.q + times_pure(&self.q, &self.omega) * (0.5 * dt));
        self.t += dt;
        RotationalState::new(self.t, self.q, self.omega).check_finite("state")
    }

    fn state(&mut self, _torque: &mut T) -> Result<RotationalState> {
        Ok(RotationalState::new(self.t, self.q, self.omega))
    }
}
