//! Direct Euler, as the SPIRAL benchmark codes it (semi-implicit: the rotor uses the new ω).

use super::split::{split_at_carried_state, split_step};
use super::stepper::{
    Renormalisation, Renormaliser, RotationalCore, RotationalState, RunCount, StepperCore,
    impl_rotational_method,
};
use super::torque::TorqueField;
use crate::body::RigidBody;

use crate::body::quaternion::times_pure;
#[cfg(doc)]
use crate::error::Error;
use crate::error::Result;

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
/// use lieode::stepper::{Span, Stepper, StepperInfo};
/// use lieode::rotation::{
///     ConstantBodyTorque, DirectEuler, RigidBody, RotationalMethod, RotationalState, };
/// use nalgebra::{Quaternion, Vector3};
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let mut torque = ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0));
/// let mut euler = DirectEuler::new(body);
/// let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
/// euler.start(&mut torque, &Span::open(start.t, 1e-3).unwrap(), &start)?;
/// for _ in 0..1000 {
///     euler.step(&mut torque)?;
/// }
/// assert!((euler.time() - 1.0).abs() < 1e-12);
/// assert!((euler.orientation().norm() - 1.0).abs() < 1e-15);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct DirectEuler {
    /// The shared state (`ω_n`) and the end-of-step renormalisation.
    core: StepperCore,
}

impl DirectEuler {
    /// The method for `body`.
    pub fn new(body: RigidBody) -> Self {
        Self {
            core: StepperCore::new(body, Renormaliser::EVERY_STEP),
        }
    }

    /// The method with the end-of-step renormalisation `policy` instead of the default
    /// [`Renormalisation::EveryStep`] (see **Renormalisation** in the type's documentation). Steps
    /// are counted from [`Stepper::start`](crate::stepper::Stepper::start).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `renormalisation` for `Every(0)`.
    pub fn with_renormalisation(self, policy: Renormalisation) -> Result<Self> {
        Ok(Self {
            core: self.core.with_renormalisation(policy)?,
        })
    }
}

impl_rotational_method!(DirectEuler, "direct_euler", 1, false);

split_at_carried_state!(impl[] DirectEuler,
    carried: |euler| euler.core.carried(),
    finish: |euler, tau| {
        let c = &mut euler.core;
        let dt = c.dt;
        c.omega += dt * c.body.angular_acceleration(&c.omega, tau);
        c.q = c
            .renormaliser
            .apply(c.q + times_pure(&c.q, &c.omega) * (0.5 * dt));
        c.tick();
        c.state().check_finite("state")
    }
);

impl<T: TorqueField> RotationalCore<T> for DirectEuler {
    fn run_mut(&mut self) -> &mut RunCount {
        &mut self.core.run
    }

    fn start(&mut self, _torque: &mut T, state: &RotationalState, dt: f64) -> Result<()> {
        self.core.start(state, dt)
    }

    #[inline(always)]
    fn step(&mut self, torque: &mut T) -> Result<()> {
        split_step(self, torque)
    }

    fn state(&mut self, _torque: &mut T) -> Result<RotationalState> {
        Ok(self.core.state())
    }
}
