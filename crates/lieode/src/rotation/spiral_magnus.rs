//! SPIRAL–Magnus: a synchronous SPIRAL-like step, third order in q and ω with one torque
//! evaluation per step (new in this library, not from the literature).

use nalgebra::{Quaternion, Vector3};

use super::method::{
    Carried, CarriedMut, MethodInfo, RigidBodyMethod, TorquePoint, finite_rotation,
};
use super::omega_integrator::EulerSsprk3;
use super::single_body::SingleBody;
use super::stepper::Renormalisation;
#[cfg(doc)]
use super::stepper::RotationalMethod;
use crate::body::RigidBody;
use crate::body::quaternion::{exp_pure, normalize};
use crate::lie::{Real, real};

/// The time derivative of Euler's equations (SPIRAL Eq. 8) along a motion:
/// `ω̈ = ∂ω̇/∂ω · ω̇ + J⁻¹ τ̇`, componentwise
/// `ω̈_x = (τ̇_x + (ω̇_y ω_z + ω_y ω̇_z)(I_y − I_z)) / I_x` and cyclically.
#[inline]
fn angular_jerk<T: Real>(
    body: &RigidBody<T>,
    omega: &Vector3<T>,
    acceleration: &Vector3<T>,
    torque_rate: &Vector3<T>,
) -> Vector3<T> {
    let (w, a) = (omega, acceleration);
    body.angular_acceleration(&Vector3::zeros(), torque_rate)
        + Vector3::new(
            (a.y * w.z + w.y * a.z) * (body.inertia().y - body.inertia().z),
            (a.z * w.x + w.z * a.x) * (body.inertia().z - body.inertia().x),
            (a.x * w.y + w.x * a.y) * (body.inertia().x - body.inertia().y),
        )
        .component_mul(&body.inverse_inertia())
}

/// The torque model of a step, `τ(t_n + s) ≈ τ + s τ' + (s²/2) τ''`.
#[derive(Debug, Clone, Copy)]
struct TorqueModel<T> {
    torque: Vector3<T>,
    rate: Vector3<T>,
    curvature: Vector3<T>,
}

impl<T: Real> TorqueModel<T> {
    #[inline]
    fn at(&self, s: T) -> Vector3<T> {
        self.torque + self.rate * s + self.curvature * (real::<T>(0.5) * s * s)
    }
}

/// One step of size `h` (possibly negative) from `(q, ω)` with a torque model: the Magnus
/// exponent to `O(h³)` for q, SSPRK3 with the modelled stage torques for ω.
#[inline]
fn magnus_step<T: Real>(
    body: &RigidBody<T>,
    map: &EulerSsprk3,
    q: &Quaternion<T>,
    omega: &Vector3<T>,
    model: &TorqueModel<T>,
    h: T,
) -> (Quaternion<T>, Vector3<T>) {
    let acceleration = body.angular_acceleration(omega, &model.torque);
    let jerk = angular_jerk(body, omega, &acceleration, &model.rate);
    let h2 = h * h;
    let h3 = h2 * h;
    let exponent = omega * (real::<T>(0.5) * h)
        + acceleration * (real::<T>(0.25) * h2)
        + jerk * (h3 / real::<T>(12.0))
        + omega.cross(&acceleration) * (h3 / real::<T>(24.0));
    let q_next = q * exp_pure(&exponent);
    let omega_next = map.advance_with(body, omega, h, |s| model.at(s));
    (q_next, omega_next)
}

/// SPIRAL–Magnus: a synchronous SPIRAL-like step that is third order in q **and** ω with one
/// torque evaluation per step (new here; it extends SPIRAL App. A, it is not from the
/// literature).
///
/// **Rotor.** The body-frame kinematics `q̇ = ½ q ⊗ ω(t)` is solved by `q_{n+1} = q_n ⊗ exp(Ω)`
/// with the Magnus expansion of the right-trivialised equation,
/// `Ω = ½∫ω + ¼∫∫_{s₂<s₁} ω(s₂) × ω(s₁) + O(dt⁵)`, which for
/// `ω(t_n + s) = ω_n + s ω̇_n + (s²/2) ω̈_n + O(s³)` is
///
/// ```text
/// Ω = (dt/2) ω_n + (dt²/4) ω̇_n + (dt³/12) ω̈_n + (dt³/24) ω_n × ω̇_n        (+ O(dt⁴))
/// q_{n+1} = q_n ⊗ exp(Ω)
/// ```
///
/// SPIRAL's Eq. (A.1) keeps the first two terms; its Eq. (A.2), the product of two exponentials,
/// adds `(dt³/8) ω × ω̇` instead of the last two, which is why SPIRAL's rotor is second order.
/// Here `ω̇_n = ω̇(ω_n, τ_n)` (Eq. 8) and `ω̈_n = ∂ω̇/∂ω · ω̇_n + J⁻¹ τ̇_n` (Eq. 8 differentiated).
///
/// **Angular velocity.** SSPRK3 on Euler's equations (SPIRAL Eqs. 9–10,
/// [`EulerSsprk3::advance_with`]) with the stage torques taken from the quadratic model
/// `τ(t_n + s) ≈ τ_n + s τ̇_n + (s²/2) τ̈_n`. The torque rates come from the torques of the
/// previous steps (backward differences, as in an Adams–Bashforth method):
///
/// ```text
/// τ_n = τ(t_n, q_n, ω_n)                                   (the one evaluation of the step)
/// τ̇_n = (3τ_n − 4τ_{n−1} + τ_{n−2}) / (2 dt),  τ̈_n = (τ_n − 2τ_{n−1} + τ_{n−2}) / dt²
/// ```
///
/// so one evaluation per step suffices. (Freezing the torque at the start of the step, as
/// SPIRAL App. A does, costs `O(dt²)` per step for a torque that varies along the motion, which
/// makes [`Spiral`](super::Spiral) first order for such torques; one evaluation per step cannot
/// give the torque's rate without a history, and the history is what buys the third order
/// here: the method is a multistep method in the torque.) On the second step, with one
/// previous torque, `τ̇_n = (τ_n − τ_{n−1})/dt`, `τ̈_n = 0`.
///
/// **Start** ([`Stepper::start`](crate::stepper::Stepper::start), two torque evaluations, both at `t ≥ t_0`):
/// `τ_0 = τ(t_0, q_0, ω_0)`; a predictor step with the torque frozen at `τ_0` gives
/// `(q̃_1, ω̃_1)`; the first step then uses `τ̇_0 = (τ(t_0 + dt, q̃_1, ω̃_1) − τ_0)/dt`, `τ̈_0 = 0`.
/// (The first two steps are locally `O(dt³)`, which leaves the global order at 3.)
///
/// **Properties.** One torque evaluation per step (two at the start); not leapfrog
/// ([`RotationalMethod::angular_velocity`] and [`Stepper::state`](crate::stepper::Stepper::state) return the
/// synchronised `(t_n, ω_n)` without evaluating the torque); by default the rotor is **never**
/// renormalised ([`Renormalisation::Never`]; see **Renormalisation**): `exp(Ω)` is a unit
/// quaternion. The torque history
/// assumes a constant step: [`Stepper::start`](crate::stepper::Stepper::start) resets it.
///
/// **Measured orders** (`tests/rotation_spiral.rs`, dt = 2e-3 … 2.5e-4, t = 1): **third order
/// in q and in ω** — slopes 3.00 and 3.00 on an asymmetric body under an attitude- and
/// time-dependent lab-frame torque, 3.00 and 3.00 on the paper's cylinder, 2.95 and 3.03 on an
/// asymmetric body under a constant body torque (where the errors at the smallest step,
/// ~5e-13, approach the reference's accuracy).
///
/// **Renormalisation.** Default [`Renormalisation::Never`]. [`SingleBody::with_renormalisation`]
/// adds a normalisation of `q_{n+1}` at the end of the step (`EveryStep` or `Every(n)`); the
/// start's predictor step (used only for the torque rate) is not normalised, and the step has no
/// other normalisation. Without it `|q| − 1` random-walks by round-off (measured up to 1e-12
/// after 10⁵ steps on the SPIRAL cylinder, dt = 1e-5).
///
/// # Examples
/// ```
/// use lieode::stepper::{Span, Stepper, StepperInfo};
/// use lieode::rotation::{
///     ConstantBodyTorque, RigidBody, RotationalMethod, RotationalState, SpiralMagnus,
/// };
/// use nalgebra::{Quaternion, Vector3};
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let mut torque = ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0));
/// let mut magnus = SpiralMagnus::new(body);
/// let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
/// magnus.start(&mut torque, &Span::open(start.t, 1e-3).unwrap(), &start)?;
/// for _ in 0..1000 {
///     magnus.step(&mut torque)?;
/// }
/// assert!((magnus.orientation().norm() - 1.0).abs() < 1e-14);
/// # Ok::<(), lieode::Error>(())
/// ```
pub type SpiralMagnus = SingleBody<SpiralMagnusMethod>;

/// The definition of [`SpiralMagnus`]: SSPRK3 on Euler's equations with modelled stage torques.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SpiralMagnusMethod {
    map: EulerSsprk3,
}

/// What [`SpiralMagnusMethod`] carries for a body beside `q_n` and `ω_n`: its torque history.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpiralMagnusHistory<T: Real = f64> {
    /// `τ_{n−1}`, `τ_{n−2}` (the first `known` of them are valid).
    previous: [Vector3<T>; 2],
    known: u8,
    /// The torque rate of the first step, from the start's predictor.
    start_rate: Vector3<T>,
}

/// `τ_{n−1}`, `τ_{n−2}`, the number of them known (0, 1 or 2, exactly as a double) and the
/// first step's torque rate: 10 doubles.
impl<T: Real> super::method::PackedState<T> for SpiralMagnusHistory<T> {
    const LEN: usize = 10;

    fn pack(&self, out: &mut [T]) {
        let [a, b] = &self.previous;
        let values = (a.iter().chain(b.iter()).copied())
            .chain([real::<T>(f64::from(self.known))])
            .chain(self.start_rate.iter().copied());
        out.iter_mut().zip(values).for_each(|(o, x)| *o = x);
    }

    fn unpack(data: &[T]) -> Option<Self> {
        let [a0, a1, a2, b0, b1, b2, known, r0, r1, r2, ..] = data else {
            return None;
        };
        let known = [0u8, 1, 2]
            .into_iter()
            .find(|k| real::<T>(f64::from(*k)) == *known)?;
        Some(Self {
            previous: [Vector3::new(*a0, *a1, *a2), Vector3::new(*b0, *b1, *b2)],
            known,
            start_rate: Vector3::new(*r0, *r1, *r2),
        })
    }
}

impl<T: Real> RigidBodyMethod<T> for SpiralMagnusMethod {
    type Extra = SpiralMagnusHistory<T>;
    type Pending = ();
    type Constants = RigidBody<T>;
    const TORQUE_AT_END: bool = false;
    const START_EVALUATIONS: usize = 2;
    const POINT_IS_CARRIED: bool = true;
    const SYNC_EVALUATES: bool = false;

    fn info(&self) -> MethodInfo {
        MethodInfo {
            name: "spiral_magnus",
            evaluations: 1,
            leapfrog: false,
            renormalisable: true,
            default_renormalisation: Renormalisation::Never,
            order: [3, 3],
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
    ) -> Carried<SpiralMagnusHistory<T>, T> {
        let history = SpiralMagnusHistory {
            previous: [Vector3::zeros(); 2],
            known: 0,
            start_rate: Vector3::zeros(),
        };
        Carried::new(*q, *omega, history)
    }

    /// The predictor: one step from `(q_0, ω_0)` with the torque frozen at `τ_0` (stored by the
    /// first start evaluation).
    fn start_point(
        &self,
        body: &RigidBody<T>,
        c: &Carried<SpiralMagnusHistory<T>, T>,
        _: usize,
        dt: T,
    ) -> TorquePoint<T> {
        let frozen = TorqueModel {
            torque: c.extra.previous[0],
            rate: Vector3::zeros(),
            curvature: Vector3::zeros(),
        };
        let (q, omega) = magnus_step(body, &self.map, &c.q, &c.omega, &frozen, dt);
        TorquePoint { q, omega }
    }

    /// Stage 0 keeps `τ_0`; stage 1 sets the first step's torque rate
    /// `(τ(t_0 + dt, q̃_1, ω̃_1) − τ_0)/dt`.
    fn absorb_start(
        &self,
        _: &RigidBody<T>,
        c: &mut Carried<SpiralMagnusHistory<T>, T>,
        stage: usize,
        tau: &Vector3<T>,
        dt: T,
    ) -> bool {
        if stage == 0 {
            c.extra.previous[0] = *tau;
        } else {
            c.extra.start_rate = (tau - c.extra.previous[0]) / dt;
        }
        true
    }

    /// The torque at `(t_n, q_n, ω_n)`.
    #[inline(always)]
    fn prepare(
        &self,
        _: &RigidBody<T>,
        c: &Carried<SpiralMagnusHistory<T>, T>,
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

    fn finish(
        &self,
        body: &RigidBody<T>,
        c: CarriedMut<'_, SpiralMagnusHistory<T>, T>,
        _: (),
        tau: &Vector3<T>,
        renormalise: bool,
        dt: T,
    ) -> bool {
        let [p1, p2] = c.extra.previous;
        let (rate, curvature) = match c.extra.known {
            0 => (c.extra.start_rate, Vector3::zeros()),
            1 => ((tau - p1) / dt, Vector3::zeros()),
            _ => (
                (tau * real::<T>(3.0) - p1 * real::<T>(4.0) + p2) / (real::<T>(2.0) * dt),
                (tau - p1 * real::<T>(2.0) + p2) / (dt * dt),
            ),
        };
        let model = TorqueModel {
            torque: *tau,
            rate,
            curvature,
        };
        let (q, omega) = magnus_step(body, &self.map, c.q, c.omega, &model, dt);
        *c.q = if renormalise { normalize(&q) } else { q };
        *c.omega = omega;
        c.extra.previous = [*tau, p1];
        c.extra.known = (c.extra.known + 1).min(2);
        finite_rotation(c.q, c.omega)
    }
}
