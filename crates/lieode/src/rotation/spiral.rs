//! SPIRAL, non-leapfrog variant (del Valle et al. 2024, App. A).

use super::split::{split_at_carried_state, split_step};

use super::omega_integrator::{FixedStepOmega, OmegaIntegrator};
#[cfg(doc)]
use super::stepper::RotationalMethod;
use super::stepper::{
    Renormalisation, Renormaliser, RotationalCore, RotationalState, RunCount, StepperCore,
    impl_rotational_method,
};
use super::torque::TorqueField;
use crate::body::RigidBody;
use crate::body::quaternion::exp_pure;
#[cfg(doc)]
use crate::error::Error;
use crate::error::Result;

/// SPIRAL, non-leapfrog (synchronous) variant (del Valle, Angelidakis, Roy, Muñoz, Pöschel 2024,
/// App. A, Eqs. A.1–A.3, with the angular velocity by Eqs. 9–10).
///
/// With the torque evaluated **once** per step, `τ_n = τ(t_n, q_n, ω_n)`, and frozen during the
/// step, `ω̇_n = ω̇(ω_n, τ_n)` (Euler's equations, Eq. 8):
///
/// ```text
/// q_{n+1} = q_n ⊗ exp((dt/2) ω_n) ⊗ exp((dt²/4) ω̇_n)      (Eqs. A.2–A.3)
/// K1 = dt ω̇(ω_n, τ_n), K2 = dt ω̇(ω_n + K1, τ_n), K3 = dt ω̇(ω_n + (K1 + K2)/4, τ_n)
/// ω_{n+1} = ω_n + (K1 + K2 + 4 K3)/6                        (Eqs. 9–10 with step dt)
/// ```
///
/// The rotor is updated first (it needs `ω_n`); `exp(v) = (cos|v|, sin|v| v/|v|)`
/// ([`exp_pure`], exact at `v = 0`, which is the paper's zero-norm guard). The angular-velocity
/// map is [`EulerSsprk3`](super::omega_integrator::EulerSsprk3) (the registry's SSPRK3 tableau) unless
/// [`Spiral::with_omega_integrator`] chooses another explicit tableau.
///
/// **Properties.** One torque evaluation per step, none at the start; not leapfrog
/// ([`RotationalMethod::angular_velocity`] and [`Stepper::state`](crate::stepper::Stepper::state) return the
/// synchronised `(t_n, ω_n)`, without evaluating the torque); by default the rotor is **never**
/// renormalised ([`Renormalisation::Never`]; see **Renormalisation**): a product of unit
/// exponentials keeps `|q| = 1` up to round-off.
///
/// **Measured orders** (`tests/rotation_spiral.rs`, dt = 2e-3 … 2.5e-4, t = 1): for a torque
/// constant in the body frame **ω is third order, q second order** (slopes 3.00 and 1.99 on
/// the paper's cylinder; 3.03 and 2.00 on an asymmetric body). The paper's "third order" is the
/// local (per-step) order. The product of the two exponentials differs from the exponent of
/// Eq. (A.1) by `(dt³/8) ω × ω̇` and misses the `O(dt³)` Magnus terms, so q is globally second
/// order. For a torque that varies in time or with the attitude, freezing it at the start of
/// the step costs `O(dt²)` per step: ω and q are then only **first order** (slopes 1.00 and
/// 1.01 on an asymmetric body under a lab-frame gravity-like torque); see
/// [`super::spiral_magnus::SpiralMagnus`] for a third-order alternative at the same cost.
///
/// **Renormalisation.** Default [`Renormalisation::Never`], as in the paper and its benchmark.
/// [`Spiral::with_renormalisation`] adds a normalisation of `q_{n+1}` at the end of the step
/// (`EveryStep`, or `Every(n)` as YADE does for the leapfrog variant with n = 5000); the step has
/// no other normalisation. Without it `|q| − 1` random-walks by round-off: measured up to 1.4e-14
/// after 10⁴ steps and 9e-13 after 10⁵ steps (SPIRAL cylinder, dt = 1e-4 and 1e-5).
///
/// # Examples
/// ```
/// use lieode::stepper::{Span, Stepper, StepperInfo};
/// use lieode::rotation::spiral::Spiral;
/// use lieode::rotation::{
///     ConstantBodyTorque, RigidBody, RotationalMethod, RotationalState, };
/// use nalgebra::{Quaternion, Vector3};
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let mut torque = ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0));
/// let mut spiral = Spiral::new(body);
/// let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
/// spiral.start(&mut torque, &Span::open(start.t, 1e-3).unwrap(), &start)?;
/// for _ in 0..1000 {
///     spiral.step(&mut torque)?;
/// }
/// assert_eq!(spiral.angular_velocity().0, spiral.time());
/// assert!((spiral.orientation().norm() - 1.0).abs() < 1e-14);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Spiral {
    /// The shared state (`ω_n`) and the end-of-step renormalisation.
    core: StepperCore,
    /// The angular-velocity update (SSPRK3 unless chosen otherwise).
    integrator: OmegaIntegrator,
    /// `integrator` for the body and `dt`, set by `start`.
    step_map: FixedStepOmega,
}

impl Spiral {
    /// The method for `body`.
    pub fn new(body: RigidBody) -> Self {
        let integrator = OmegaIntegrator::ssprk3();
        Self {
            core: StepperCore::new(body, Renormaliser::NEVER),
            step_map: integrator.with_step(&body, 0.0),
            integrator,
        }
    }

    /// The method with the angular velocity advanced by `integrator` instead of SSPRK3
    /// (Eqs. 9–10 with another explicit tableau, the torque still frozen over the step; see
    /// [`OmegaIntegrator`] for what it changes).
    pub fn with_omega_integrator(self, integrator: OmegaIntegrator) -> Self {
        Self {
            step_map: integrator.with_step(&self.core.body, self.core.dt),
            integrator,
            ..self
        }
    }

    /// The angular-velocity update in use.
    pub fn omega_integrator(&self) -> &OmegaIntegrator {
        &self.integrator
    }

    /// The method with the end-of-step renormalisation `policy` instead of the default
    /// [`Renormalisation::Never`] (see **Renormalisation** in the type's documentation). Steps
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

impl_rotational_method!(Spiral, "spiral", 1, false);

split_at_carried_state!(impl[] Spiral,
    carried: |spiral| spiral.core.carried(),
    finish: |spiral, tau| {
        let c = &mut spiral.core;
        let dt = c.dt;
        let acceleration = c.body.angular_acceleration(&c.omega, tau);
        c.q = c.renormaliser.apply(
            c.q * exp_pure(&(c.omega * (0.5 * dt))) * exp_pure(&(acceleration * (0.25 * dt * dt))),
        );
        c.omega = match &spiral.step_map {
            FixedStepOmega::Three(map) => map.advance(&c.omega, tau),
            other => advance_out_of_line(other, &c.omega, tau),
        };
        c.tick();
        c.state().check_finite("state")
    }
);

/// The ω update with a map of other than three stages, as a call: the three-stage path
/// (SSPRK3, the default) stays inlined in the step as it was before the choice existed.
#[cold]
#[inline(never)]
fn advance_out_of_line(
    map: &FixedStepOmega,
    omega: &nalgebra::Vector3<f64>,
    torque: &nalgebra::Vector3<f64>,
) -> nalgebra::Vector3<f64> {
    map.advance(omega, torque)
}

impl<T: TorqueField> RotationalCore<T> for Spiral {
    fn run_mut(&mut self) -> &mut RunCount {
        &mut self.core.run
    }

    fn start(&mut self, _torque: &mut T, state: &RotationalState, dt: f64) -> Result<()> {
        self.core.start(state, dt)?;
        self.step_map = self.integrator.with_step(&self.core.body, dt);
        Ok(())
    }

    #[inline(always)]
    fn step(&mut self, torque: &mut T) -> Result<()> {
        split_step(self, torque)
    }

    fn state(&mut self, _torque: &mut T) -> Result<RotationalState> {
        self.core.ensure_started()?;
        Ok(self.core.state())
    }
}
