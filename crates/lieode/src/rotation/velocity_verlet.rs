//! Velocity Verlet for the rotational motion, as the SPIRAL benchmark codes it (body frame,
//! Euler-like rotor update with the half-step angular velocity, normalised every step).

use nalgebra::{Quaternion, Vector3};

use super::method::{
    Carried, CarriedMut, MethodInfo, RigidBodyMethod, TorquePoint, finite_rotation,
};
use super::single_body::SingleBody;
use super::stepper::Renormalisation;
use crate::body::RigidBody;
use crate::body::quaternion::{normalize, times_pure};
use crate::lie::{Real, real};

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
/// [`SingleBody::with_renormalisation`] chooses another policy (`Never`, `Every(n)`). The
/// step contains no other normalisation; the torque is evaluated at the rotor the policy leaves.
/// Without normalisation the rotor grows like Direct Euler's (the same Euler-like update, a
/// drift of first order in dt: `|q| − 1` = 8.5e-2 on the SPIRAL cylinder at dt = 1e-3, t = 1;
/// `tests/rotation_renormalisation.rs`). The initial rotor is used as given (the step is
/// homogeneous of degree one in `q`).
///
/// # Examples
/// ```
/// use lieode::stepper::{Span, Stepper, StepperInfo};
/// use lieode::rotation::{
///     ConstantBodyTorque, RigidBody, RotationalMethod, RotationalState, VelocityVerlet,
/// };
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
pub type VelocityVerlet = SingleBody<VelocityVerletMethod>;

/// The definition of [`VelocityVerlet`] (no parameters).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct VelocityVerletMethod;

impl<T: Real> RigidBodyMethod<T> for VelocityVerletMethod {
    /// `(q_n, ω_n, τ_n)`: the body torque at `(t_n, q_n)`, evaluated at the end of the previous
    /// step (at the start for `n = 0`).
    type Extra = Vector3<T>;
    /// The new rotor and `ω_{n+½}`.
    type Pending = (Quaternion<T>, Vector3<T>);
    type Constants = RigidBody<T>;
    const TORQUE_AT_END: bool = true;
    const START_EVALUATIONS: usize = 1;
    const SYNC_EVALUATES: bool = false;

    fn info(&self) -> MethodInfo {
        MethodInfo {
            name: "velocity_verlet",
            evaluations: 1,
            leapfrog: false,
            renormalisable: true,
            default_renormalisation: Renormalisation::EveryStep,
            order: [1, 1],
        }
    }

    fn constants(&self, body: &RigidBody<T>, _: T) -> RigidBody<T> {
        *body
    }

    fn begin(
        &self,
        _: &RigidBody<T>,
        q: &Quaternion<T>,
        omega: &Vector3<T>,
    ) -> Carried<Self::Extra, T> {
        Carried::new(*q, *omega, Vector3::zeros())
    }

    /// `τ_0 = τ(t_0, q_0, ω_0)`.
    fn absorb_start(
        &self,
        _: &RigidBody<T>,
        c: &mut Carried<Self::Extra, T>,
        _: usize,
        tau: &Vector3<T>,
        _: T,
    ) -> bool {
        c.extra = *tau;
        true
    }

    /// The half kick and the rotor update, then the torque at `(t_{n+1}, q_{n+1}, ω_{n+½})`.
    #[inline(always)]
    fn prepare(
        &self,
        body: &RigidBody<T>,
        c: &Carried<Self::Extra, T>,
        renormalise: bool,
        dt: T,
    ) -> (Self::Pending, TorquePoint<T>) {
        let Carried {
            q,
            omega,
            extra: torque,
        } = c;
        let half = real::<T>(0.5) * dt;
        let omega_half = omega + body.angular_acceleration(omega, torque) * half;
        let q_next = q + times_pure(q, &omega_half) * (real::<T>(0.5) * dt);
        let q_next = if renormalise {
            normalize(&q_next)
        } else {
            q_next
        };
        let at = TorquePoint {
            q: q_next,
            omega: omega_half,
        };
        ((q_next, omega_half), at)
    }

    /// `(q_{n+1}, ω_{n+½})`, the point itself.
    #[inline(always)]
    fn pending_from_point(&self, point: &TorquePoint<T>) -> Option<Self::Pending> {
        Some((point.q, point.omega))
    }

    #[inline(always)]
    fn finish(
        &self,
        body: &RigidBody<T>,
        mut c: CarriedMut<'_, Self::Extra, T>,
        (q, omega_half): Self::Pending,
        tau: &Vector3<T>,
        _: bool,
        dt: T,
    ) -> bool {
        let half = real::<T>(0.5) * dt;
        let omega = omega_half + body.angular_acceleration(&omega_half, tau) * half;
        c.set(q, omega, *tau);
        finite_rotation(&q, &omega)
    }
}
