//! Velocity Verlet for the rotational motion, as the SPIRAL benchmark codes it (body frame,
//! Euler-like rotor update with the half-step angular velocity, normalised every step).

use nalgebra::Vector3;

use super::split::{RotorFirst, SplitStep, TorquePoint, split_step};
use super::stepper::{
    Renormalisation, Renormaliser, RotationalCore, RotationalState, RunCount, StepperCore,
    checked_torque, impl_rotational_method,
};
use super::torque::TorqueField;
use crate::body::RigidBody;
use crate::body::quaternion::times_pure;
#[cfg(doc)]
use crate::error::Error;
use crate::error::Result;

/// Velocity Verlet (SPIRAL App. B.2, Eqs. B.2–B.3; Verlet 1967 52 of the paper), every
/// quantity in the body frame. With `τ_n` the torque cached from the previous step (or from
/// [`Stepper::start`](crate::stepper::Stepper::start)):
///
/// ```text
/// ω_{n+½} = ω_n + (dt/2) ω̇(ω_n, τ_n)
/// q_{n+1} = normalise(q_n + dt · ½ q_n ⊗ ω_{n+½})
/// τ_{n+1} = τ(t_{n+1}, q_{n+1}, ω_{n+½})
/// ω_{n+1} = ω_{n+½} + (dt/2) ω̇(ω_{n+½}, τ_{n+1})
/// ```
///
/// **Where the torque is evaluated.** As in Eq. (B.3) ("compute the torques `M(t + Δt)`, then
/// …") and in the DEM codes that use the method, the torque is evaluated once per step, after
/// the rotor update, at the new time and orientation `(t_{n+1}, q_{n+1})`; the angular velocity
/// at that moment is not known yet, so a velocity-dependent torque sees the half-step value
/// `ω_{n+½}`. That torque closes the step and is cached to open the next one, so a step costs
/// **one torque evaluation**; [`Stepper::start`](crate::stepper::Stepper::start) evaluates `τ_0 = τ(t_0, q_0, ω_0)`.
/// For the SPIRAL benchmark's constant body torque the evaluation point does not matter.
///
/// **Order.** Not leapfrog: `ω` is carried at whole steps. Measured global order **1** in both
/// `q` and `ω` (`tests/rotation_classic.rs`, slopes over step doublings: 1.00 / 1.00 on an
/// asymmetric body with an attitude- and time-dependent torque, N = 1000…8000; on the SPIRAL
/// cylinder 0.97–0.99 / 1.00 for N = 8000…64000 — there the rotor error has a second-order
/// part that dominates for N ≲ 4000, slopes 1.6 and 1.4 from N = 500). The Verlet splitting
/// would be second order for a velocity-independent acceleration, but Euler's equations are
/// not: the gyroscopic term of the second half-kick is evaluated at `ω_{n+½}` instead of
/// `ω_{n+1}`, which leaves a local error `(dt²/4) (∂ω̇/∂ω) ω̇` (for a constant body torque the
/// angular-velocity update is exactly two explicit Euler steps of size `dt/2`). This agrees
/// with the paper's own data although App. B calls the method second order: the step sizes of
/// its Table 2 scale linearly with the target error, and they reach their targets here (the
/// 10⁻³ column within 1 %).
///
/// **Renormalisation.** By default the rotor is normalised after every step
/// ([`Renormalisation::EveryStep`], the `normalise` above, as in the benchmark);
/// [`VelocityVerlet::with_renormalisation`] chooses another policy (`Never`, `Every(n)`). The
/// step contains no other normalisation; the torque is evaluated at the rotor the policy leaves.
/// Without normalisation the rotor grows like Direct Euler's (the same Euler-like update, a
/// drift of first order in dt: `|q| − 1` = 8.5e-2 on the SPIRAL cylinder at dt = 1e-3, t = 1;
/// `tests/rotation_renormalisation.rs`). The initial rotor is used as given (the step is
/// homogeneous of degree one in `q`).
///
/// # Examples
/// ```
/// use lieode::stepper::{Span, Stepper, StepperInfo};
/// use lieode::rotation::velocity_verlet::VelocityVerlet;
/// use lieode::rotation::{
///     ConstantBodyTorque, RigidBody, RotationalMethod, RotationalState, };
/// use nalgebra::{Quaternion, Vector3};
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let mut torque = ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0));
/// let mut verlet = VelocityVerlet::new(body);
/// let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
/// verlet.start(&mut torque, &Span::open(start.t, 1e-3).unwrap(), &start)?;
/// for _ in 0..1000 {
///     verlet.step(&mut torque)?;
/// }
/// assert!((verlet.time() - 1.0).abs() < 1e-12);
/// assert!((verlet.orientation().norm() - 1.0).abs() < 1e-15);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct VelocityVerlet {
    /// The shared state (`ω_n`) and the end-of-step renormalisation.
    core: StepperCore,
    /// The body torque at `(t_n, q_n)`, evaluated at the end of the previous step.
    torque: Vector3<f64>,
}

impl VelocityVerlet {
    /// The method for `body`.
    pub fn new(body: RigidBody) -> Self {
        Self {
            core: StepperCore::new(body, Renormaliser::EVERY_STEP),
            torque: Vector3::zeros(),
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
            ..self
        })
    }
}

impl_rotational_method!(VelocityVerlet, "velocity_verlet", 1, false);

impl SplitStep for VelocityVerlet {
    type Pending = RotorFirst;
    const TORQUE_AT_END: bool = true;

    /// The half kick and the rotor update, then the torque at `(t_{n+1}, q_{n+1}, ω_{n+½})`.
    #[inline(always)]
    fn prepare(&self) -> Result<(RotorFirst, TorquePoint)> {
        self.core.ensure_started()?;
        let c = &self.core;
        let dt = c.dt;
        let half = 0.5 * dt;
        let omega_half = c.omega + half * c.body.angular_acceleration(&c.omega, &self.torque);
        let mut renormaliser = c.renormaliser;
        let q = renormaliser.apply(c.q + times_pure(&c.q, &omega_half) * (0.5 * dt));
        let pending = RotorFirst {
            q,
            omega: omega_half,
            renormaliser,
        };
        let at = TorquePoint {
            t: c.next_time(),
            q,
            omega: omega_half,
        };
        Ok((pending, at))
    }

    #[inline(always)]
    fn finish(&mut self, pending: RotorFirst, tau: &Vector3<f64>) -> Result<()> {
        let RotorFirst {
            q,
            omega: omega_half,
            renormaliser,
        } = pending;
        let c = &mut self.core;
        let half = 0.5 * c.dt;
        let t = c.next_time();
        let omega = omega_half + half * c.body.angular_acceleration(&omega_half, tau);
        RotationalState::new(t, q, omega).check_finite("state")?;
        c.tick();
        c.q = q;
        c.omega = omega;
        self.torque = *tau;
        c.renormaliser = renormaliser;
        Ok(())
    }
}

impl<T: TorqueField> RotationalCore<T> for VelocityVerlet {
    fn run_mut(&mut self) -> &mut RunCount {
        &mut self.core.run
    }

    fn start(&mut self, torque: &mut T, state: &RotationalState, dt: f64) -> Result<()> {
        self.core.begin(state, dt)?;
        self.torque = checked_torque(torque, state.t, &state.q, &state.omega)?;
        self.core.commit(dt, state.t, state.q, state.omega);
        Ok(())
    }

    #[inline(always)]
    fn step(&mut self, torque: &mut T) -> Result<()> {
        split_step(self, torque)
    }

    fn state(&mut self, _torque: &mut T) -> Result<RotationalState> {
        Ok(self.core.state())
    }
}
