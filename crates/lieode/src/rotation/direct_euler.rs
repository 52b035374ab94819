//! Direct Euler, as the SPIRAL benchmark codes it (semi-implicit: the rotor uses the new ω).

use nalgebra::{Quaternion, Vector3};

use super::method::{
    Carried, CarriedMut, MethodInfo, RigidBodyMethod, TorquePoint, finite_rotation,
};
use super::single_body::SingleBody;
use super::stepper::Renormalisation;
#[cfg(doc)]
use super::stepper::RotationalMethod;
use crate::body::RigidBody;
use crate::body::quaternion::{normalize, times_pure};
use crate::lie::{Real, real};

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
/// [`SingleBody::with_renormalisation`] chooses another policy (`Never`, `Every(n)`). The step
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
pub type DirectEuler = SingleBody<DirectEulerMethod>;

/// The definition of [`DirectEuler`] (no parameters).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DirectEulerMethod;

impl<T: Real> RigidBodyMethod<T> for DirectEulerMethod {
    /// `(q_n, ω_n)`.
    type Extra = ();
    type Pending = ();
    type Constants = RigidBody<T>;
    const TORQUE_AT_END: bool = false;
    const START_EVALUATIONS: usize = 0;
    const POINT_IS_CARRIED: bool = true;
    const SYNC_EVALUATES: bool = false;

    fn info(&self) -> MethodInfo {
        MethodInfo {
            name: "direct_euler",
            evaluations: 1,
            leapfrog: false,
            renormalisable: true,
            default_renormalisation: Renormalisation::EveryStep,
            order: [1, 1],
        }
    }

    fn constants(&self, body: &RigidBody<T>, _dt: T) -> RigidBody<T> {
        *body
    }

    fn begin(
        &self,
        _: &RigidBody<T>,
        q: &Quaternion<T>,
        omega: &Vector3<T>,
    ) -> Carried<Self::Extra, T> {
        Carried::new(*q, *omega, ())
    }

    /// The torque at `(t_n, q_n, ω_n)`.
    #[inline(always)]
    fn prepare(
        &self,
        _: &RigidBody<T>,
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
        body: &RigidBody<T>,
        c: CarriedMut<'_, Self::Extra, T>,
        _: (),
        tau: &Vector3<T>,
        renormalise: bool,
        dt: T,
    ) -> bool {
        let CarriedMut { q, omega, .. } = c;
        *omega += body.angular_acceleration(omega, tau) * dt;
        let q_next = *q + times_pure(q, omega) * (real::<T>(0.5) * dt);
        *q = if renormalise {
            normalize(&q_next)
        } else {
            q_next
        };
        finite_rotation(q, omega)
    }
}
