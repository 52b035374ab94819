//! Fincham's rotational leapfrog (lab-frame angular momentum at half steps, a quaternion
//! predictor–corrector), as the SPIRAL benchmark codes it.

use nalgebra::{Quaternion, Vector3};

use super::method::{
    Carried, CarriedMut, MethodInfo, RigidBodyMethod, TorquePoint, finite_rotation,
};
use super::single_body::SingleBody;
use super::stepper::Renormalisation;
use crate::body::RigidBody;
use crate::body::quaternion::{normalize, rotate, rotate_inverse, times_pure};
use crate::lie::{Real, real};
use crate::stepper::StepperInfo;

/// Fincham's leapfrog (D. Fincham, *Leapfrog rotational algorithms*, Mol. Simul. 8 (1992)
/// 165–178; SPIRAL App. B.3, Eqs. B.4–B.6, ref. 11 of the paper), with the details of the
/// benchmark that produced the paper's data.
///
/// The state is the rotor `q_n` at `t_n` and the **lab-frame** angular momentum `L_{n−½}` at
/// `t_n − dt/2`. One step, with `R(q)` the body → lab rotation and `J` the principal moments:
///
/// ```text
/// M       = R(q_n) τ(t_n, q_n, J⁻¹ R(q_n)ᵀ L_{n−½})      (lab torque, Eq. B.4)
/// L_n     = L_{n−½} + (dt/2) M
/// L_{n+½} = L_{n−½} + dt M                                 (Eq. B.4)
/// ω_n     = J⁻¹ (q_n⁻¹ L_n q_n)                            (Eq. B.6, body frame)
/// ω_{n+½} = J⁻¹ (q_n⁻¹ L_{n+½} q_n)                        (Eq. B.6, also with q_n)
/// q_a     = normalise(q_n + (dt/2) · ½ q_n ⊗ ω_n)          (predictor, Eq. B.5)
/// q_{n+1} = normalise(q_n + dt · ½ q_a ⊗ ω_{n+½})          (corrector)
/// ```
///
/// Both body angular velocities are taken with `q_n`, the half-step rotor `q_a` and the new
/// rotor are both normalised, as in the benchmark. (Eq. B.5 of the paper prints `ω(t)` in the
/// corrector; the data were made with `ω(t + dt/2)`, as here.) A velocity-dependent torque sees
/// the half-step momentum in the current body frame, `J⁻¹ R(q_n)ᵀ L_{n−½}`, the best value
/// available before the torque is known.
///
/// **Start** ([`Stepper::start`](crate::stepper::Stepper::start)): the rotor is normalised and
/// `L_{−½} = R(q_0) (J ω_0 − (dt/2) τ(t_0, q_0, ω_0))` (for `q_0 = 1`, the benchmark's
/// `J ω_0 − (dt/2) τ`); one torque evaluation.
///
/// **Leapfrog.** [`RotationalMethod::angular_velocity`](super::RotationalMethod::angular_velocity) returns `(t_n − dt/2, ω_{n−½})` with
/// `ω_{n−½} = J⁻¹ (q_{n−1}⁻¹ L_{n−½} q_{n−1})`, the body angular velocity the last step computed
/// (after `start`, `J⁻¹ R(q_0)ᵀ L_{−½} = ω_0 − (dt/2) J⁻¹ τ_0`) — the value the benchmark
/// compares with the exact `ω(t_n − dt/2)`. Because it is expressed in the body frame of
/// `q_{n−1}` rather than of `t_n − dt/2`, it carries an `O(dt)` frame error.
/// [`Stepper::state`](crate::stepper::Stepper::state) returns `(t_n, q_n, ω_n)` with the method's own synchronised
/// `ω_n = J⁻¹ R(q_n)ᵀ (L_{n−½} + (dt/2) M)` of Eq. (B.6) — half an explicit step of the
/// momentum in the lab frame; it evaluates the torque once (at the same arguments as the next
/// step will).
///
/// **Cost and order.** One torque evaluation per step. Normalised every step by default (both
/// `q_a` and `q_{n+1}`, see **Renormalisation**). Measured global order **1** in both `q` and `ω_{n−½}`
/// (`tests/rotation_classic.rs`, slopes over step doublings: 1.00 / 1.00 on an asymmetric body
/// with an attitude- and time-dependent torque, 1.00 / 0.99–1.00 on the SPIRAL cylinder; also
/// 1.00 for the synchronised `ω_n` of `state()`, and 1.0 without torque), as the paper's
/// Table 2 also shows although App. B calls the method second order (its 10⁻³ column is
/// reproduced within 1 %): the corrector advances `q` with the half-step angular velocity
/// expressed in the frame of `q_n`, an `O(dt)` error in the angular velocity that drives `q`.
///
/// **Renormalisation.** By default the new rotor `q_{n+1}` is normalised after every step
/// ([`Renormalisation::EveryStep`], as in the benchmark); [`SingleBody::with_renormalisation`]
/// chooses another policy (`Never`, `Every(n)`) for that end-of-step normalisation **only**: the
/// normalisation of the predictor `q_a` is part of the method as the benchmark codes it and is
/// always applied, as is the normalisation of the initial rotor in
/// [`Stepper::start`](crate::stepper::Stepper::start). Without the end-of-step normalisation `|q|` drifts slowly:
/// the corrector's increment is nearly orthogonal to `q_n` because `q_a` is unit and close to
/// `q_n`, so the drift is of second order in dt (`|q| − 1` = 6.1e-5, 6.1e-7, 6.1e-9 on the
/// SPIRAL cylinder at dt = 1e-3, 1e-4, 1e-5, t = 1; `tests/rotation_renormalisation.rs`). The
/// frame changes divide by `|q|²`, so a non-unit rotor is still used as a rotation.
///
/// # Examples
/// ```
/// use lieode::stepper::{Span, Stepper, StepperInfo};
/// use lieode::rotation::{
///     ConstantBodyTorque, Fincham, RigidBody, RotationalMethod, RotationalState,
/// };
/// use nalgebra::{Quaternion, Vector3};
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let mut torque = ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0));
/// let mut fincham = Fincham::new(body);
/// let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
/// fincham.start(&mut torque, &Span::open(start.t, 1e-3).unwrap(), &start)?;
/// // The half-step angular velocity of the start: ω_0 − (dt/2) J⁻¹ τ.
/// let (t_half, w_half) = fincham.angular_velocity();
/// assert_eq!(t_half, -0.5e-3);
/// assert!((w_half.x - (0.3 - 0.5e-3 * 0.5)).abs() < 1e-15);
/// for _ in 0..1000 {
///     fincham.step(&mut torque)?;
/// }
/// let synced = fincham.state(&mut torque)?;
/// assert!((synced.t - 1.0).abs() < 1e-12);
/// # Ok::<(), lieode::Error>(())
/// ```
pub type Fincham = SingleBody<FinchamMethod>;

impl SingleBody<FinchamMethod> {
    /// The lab-frame angular momentum `L_{n−½}` at `t_n − dt/2` the method carries (zeros at
    /// time zero before the start).
    pub fn half_step_momentum(&self) -> (f64, Vector3<f64>) {
        let t = StepperInfo::time(self) - 0.5 * self.dt();
        (t, self.carried().map_or(Vector3::zeros(), |c| c.extra))
    }
}

/// The definition of [`Fincham`] (no parameters).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FinchamMethod;

/// `J⁻¹ R(q)ᵀ L`: the body angular velocity of the lab momentum `L` at the rotor `q`.
#[inline]
fn omega_of<T: Real>(body: &RigidBody<T>, q: &Quaternion<T>, momentum: &Vector3<T>) -> Vector3<T> {
    body.body_angular_velocity(&rotate_inverse(q, momentum))
}

impl<T: Real> RigidBodyMethod<T> for FinchamMethod {
    /// `(q_n, ω, L_{n−½})`: `ω` is `ω_{n−½}` in the body frame of `q_{n−1}` (of `q_0` after the
    /// start), `L_{n−½}` in the lab frame.
    type Extra = Vector3<T>;
    type Pending = ();
    type Constants = RigidBody<T>;
    const TORQUE_AT_END: bool = false;
    const START_EVALUATIONS: usize = 1;
    const SYNC_EVALUATES: bool = true;

    fn info(&self) -> MethodInfo {
        MethodInfo {
            name: "fincham",
            evaluations: 1,
            leapfrog: true,
            renormalisable: true,
            default_renormalisation: Renormalisation::EveryStep,
            order: [1, 1],
        }
    }

    fn constants(&self, body: &RigidBody<T>, _: T) -> RigidBody<T> {
        *body
    }

    fn start_rotor(&self, q: &Quaternion<T>) -> Quaternion<T> {
        normalize(q)
    }

    /// Normalises the rotor.
    fn begin(
        &self,
        _: &RigidBody<T>,
        q: &Quaternion<T>,
        omega: &Vector3<T>,
    ) -> Carried<Self::Extra, T> {
        Carried::new(normalize(q), *omega, Vector3::zeros())
    }

    /// `L_{−½} = R(q_0)(J ω_0 − (dt/2) τ(t_0, q_0, ω_0))`.
    fn absorb_start(
        &self,
        body: &RigidBody<T>,
        c: &mut Carried<Self::Extra, T>,
        _: usize,
        tau: &Vector3<T>,
        dt: T,
    ) -> bool {
        let body_half = body.body_momentum(&c.omega) - tau * (real::<T>(0.5) * dt);
        c.omega = body.body_angular_velocity(&body_half);
        c.extra = rotate(&c.q, &body_half);
        finite_rotation(&c.q, &c.omega) && c.extra.iter().all(|x| x.is_finite())
    }

    /// The torque at `(t_n, q_n, J⁻¹ R(q_n)ᵀ L_{n−½})`.
    #[inline(always)]
    fn prepare(
        &self,
        body: &RigidBody<T>,
        c: &Carried<Self::Extra, T>,
        _: bool,
        _: T,
    ) -> ((), TorquePoint<T>) {
        let omega = omega_of(body, &c.q, &c.extra);
        ((), TorquePoint { q: c.q, omega })
    }

    /// Nothing: `finish` needs only the carried state.
    #[inline(always)]
    fn pending_from_point(&self, _: &TorquePoint<T>) -> Option<Self::Pending> {
        Some(())
    }

    #[inline(always)]
    fn finish(
        &self,
        body: &RigidBody<T>,
        mut c: CarriedMut<'_, Self::Extra, T>,
        _: (),
        tau: &Vector3<T>,
        renormalise: bool,
        dt: T,
    ) -> bool {
        let (q0, momentum_half) = (*c.q, *c.extra);
        let m = rotate(&q0, tau);
        let momentum = momentum_half + m * (real::<T>(0.5) * dt);
        let momentum_next = momentum_half + m * dt;
        let omega = omega_of(body, &q0, &momentum);
        let omega_next = omega_of(body, &q0, &momentum_next);
        let q_mid = normalize(&(q0 + times_pure(&q0, &omega) * (real::<T>(0.25) * dt)));
        let q = q0 + times_pure(&q_mid, &omega_next) * (real::<T>(0.5) * dt);
        let q = if renormalise { normalize(&q) } else { q };
        c.set(q, omega_next, momentum_next);
        finite_rotation(&q, &omega_next) && momentum_next.iter().all(|x| x.is_finite())
    }

    /// `ω_n = J⁻¹ R(q_n)ᵀ (L_{n−½} + (dt/2) M)`, `M = R(q_n) τ_n` (Eq. B.6).
    fn sync(
        &self,
        body: &RigidBody<T>,
        c: &Carried<Self::Extra, T>,
        tau: &Vector3<T>,
        dt: T,
    ) -> Vector3<T> {
        let m = rotate(&c.q, tau);
        omega_of(body, &c.q, &(c.extra + m * (real::<T>(0.5) * dt)))
    }
}
