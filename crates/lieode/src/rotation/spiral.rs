//! SPIRAL, non-leapfrog variant (del Valle et al. 2024, App. A).

use nalgebra::{Quaternion, Vector3};

use super::method::{
    Carried, CarriedMut, MethodInfo, RigidBodyMethod, TorquePoint, finite_rotation,
};
use super::omega_integrator::{FixedStepOmega, OmegaIntegrated, OmegaIntegrator};
use super::single_body::SingleBody;
use super::stepper::Renormalisation;
#[cfg(doc)]
use super::stepper::RotationalMethod;
use crate::body::RigidBody;
use crate::body::quaternion::{exp_pure, normalize};
use crate::lie::{Real, real};

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
/// map is [`EulerSsprk3`](super::EulerSsprk3) (the registry's SSPRK3 tableau) unless
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
/// [`SpiralMagnus`](super::SpiralMagnus) for a third-order alternative at the same cost.
///
/// **Renormalisation.** Default [`Renormalisation::Never`], as in the paper and its benchmark.
/// [`SingleBody::with_renormalisation`] adds a normalisation of `q_{n+1}` at the end of the step
/// (`EveryStep`, or `Every(n)` as YADE does for the leapfrog variant with n = 5000); the step has
/// no other normalisation. Without it `|q| − 1` random-walks by round-off: measured up to 1.4e-14
/// after 10⁴ steps and 9e-13 after 10⁵ steps (SPIRAL cylinder, dt = 1e-4 and 1e-5).
///
/// # Examples
/// ```
/// use lieode::stepper::{Span, Stepper, StepperInfo};
/// use lieode::rotation::{
///     ConstantBodyTorque, RigidBody, RotationalMethod, RotationalState, Spiral,
/// };
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
pub type Spiral = SingleBody<SpiralMethod>;

/// The definition of [`Spiral`]: its angular-velocity update.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SpiralMethod {
    /// The angular-velocity update (SSPRK3 unless chosen otherwise).
    pub integrator: OmegaIntegrator,
}

impl OmegaIntegrated for SpiralMethod {
    fn from_integrator(integrator: OmegaIntegrator) -> Self {
        Self { integrator }
    }

    fn integrator(&self) -> &OmegaIntegrator {
        &self.integrator
    }
}

impl<T: Real> RigidBodyMethod<T> for SpiralMethod {
    /// `(q_n, ω_n)`.
    type Extra = ();
    type Pending = ();
    /// The body and the ω map for its step.
    type Constants = (RigidBody<T>, FixedStepOmega<T>);
    const TORQUE_AT_END: bool = false;
    const START_EVALUATIONS: usize = 0;
    const POINT_IS_CARRIED: bool = true;
    const SYNC_EVALUATES: bool = false;

    fn info(&self) -> MethodInfo {
        MethodInfo {
            name: "spiral",
            evaluations: 1,
            leapfrog: false,
            renormalisable: true,
            default_renormalisation: Renormalisation::Never,
            order: [1, 1],
        }
    }

    fn constants(&self, body: &RigidBody<T>, dt: T) -> Self::Constants {
        (*body, self.integrator.with_step(body, dt))
    }

    fn begin(
        &self,
        _: &Self::Constants,
        q: &Quaternion<T>,
        w: &Vector3<T>,
    ) -> Carried<Self::Extra, T> {
        Carried::new(*q, *w, ())
    }

    /// The torque at `(t_n, q_n, ω_n)`.
    #[inline(always)]
    fn prepare(
        &self,
        _: &Self::Constants,
        c: &Carried<Self::Extra, T>,
        _: bool,
        _: T,
    ) -> ((), TorquePoint<T>) {
        (
            (),
            TorquePoint {
                q: c.q,
                omega: c.omega,
            },
        )
    }

    #[inline(always)]
    fn finish(
        &self,
        k: &Self::Constants,
        c: CarriedMut<'_, Self::Extra, T>,
        _: (),
        tau: &Vector3<T>,
        renormalise: bool,
        dt: T,
    ) -> bool {
        let CarriedMut { q, omega, .. } = c;
        let acceleration = k.0.angular_acceleration(omega, tau);
        let q_next = *q
            * exp_pure(&(*omega * (real::<T>(0.5) * dt)))
            * exp_pure(&(acceleration * (real::<T>(0.25) * dt * dt)));
        *q = if renormalise {
            normalize(&q_next)
        } else {
            q_next
        };
        *omega = match &k.1 {
            FixedStepOmega::Three(map) => map.advance(omega, tau),
            other => advance_out_of_line(other, *omega, *tau),
        };
        finite_rotation(q, omega)
    }
}

/// The ω update with a map of other than three stages, as a call: the three-stage path
/// (SSPRK3, the default) stays inlined in the step as it was before the choice existed. Its
/// arguments are values, so that the hot path need not keep them in memory.
#[cold]
#[inline(never)]
fn advance_out_of_line<T: Real>(
    map: &FixedStepOmega<T>,
    omega: Vector3<T>,
    torque: Vector3<T>,
) -> Vector3<T> {
    map.advance(&omega, &torque)
}
