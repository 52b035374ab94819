//! Fincham's rotational leapfrog (lab-frame angular momentum at half steps, a quaternion
//! predictor–corrector), as the SPIRAL benchmark codes it.

use nalgebra::Vector3;

use super::split::{TorquePoint, split_at_carried_state, split_step};
#[cfg(doc)]
use super::stepper::RotationalMethod;
use super::stepper::{
    Renormalisation, Renormaliser, RotationalCore, RotationalState, RunCount, StepperCore,
    checked_torque, impl_rotational_method,
};
use super::torque::TorqueField;
use crate::body::RigidBody;
use crate::body::quaternion::{normalize, rotate, rotate_inverse, times_pure};
use crate::error::{Error, Result};

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
/// **Leapfrog.** [`RotationalMethod::angular_velocity`] returns `(t_n − dt/2, ω_{n−½})` with
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
/// ([`Renormalisation::EveryStep`], as in the benchmark); [`Fincham::with_renormalisation`]
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
/// use lieode::rotation::fincham::Fincham;
/// use lieode::rotation::{
///     ConstantBodyTorque, RigidBody, RotationalMethod, RotationalState, };
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
#[derive(Debug, Clone)]
pub struct Fincham {
    /// The shared state and the end-of-step renormalisation; its `ω` is `ω_{n−½}` in the body
    /// frame of `q_{n−1}` (of `q_0` after the start).
    core: StepperCore,
    /// `L_{n−½}`, lab frame.
    momentum_half: Vector3<f64>,
}

impl Fincham {
    /// The method for `body`.
    pub fn new(body: RigidBody) -> Self {
        Self {
            core: StepperCore::new(body, Renormaliser::EVERY_STEP),
            momentum_half: Vector3::zeros(),
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

    /// The lab-frame angular momentum `L_{n−½}` at `t_n − dt/2` the method carries.
    pub fn half_step_momentum(&self) -> (f64, Vector3<f64>) {
        (self.core.t - 0.5 * self.core.dt, self.momentum_half)
    }

    /// The torque point `(t_n, q_n, J⁻¹ R(q_n)ᵀ L_{n−½})`.
    #[inline]
    fn torque_point(&self) -> TorquePoint {
        let c = &self.core;
        let omega_guess = c
            .body
            .body_angular_velocity(&rotate_inverse(&c.q, &self.momentum_half));
        TorquePoint {
            t: c.t,
            q: c.q,
            omega: omega_guess,
        }
    }

    /// The lab torque `M = R(q_n) τ(t_n, q_n, J⁻¹ R(q_n)ᵀ L_{n−½})`.
    #[inline]
    fn lab_torque<T: TorqueField>(&self, torque: &mut T) -> Result<Vector3<f64>> {
        let at = self.torque_point();
        let tau = checked_torque(torque, at.t, &at.q, &at.omega)?;
        Ok(rotate(&at.q, &tau))
    }
}

impl_rotational_method!(Fincham, "fincham", 1, true);

split_at_carried_state!(impl[] Fincham,
    carried: |fincham| (fincham.core.started, fincham.torque_point()),
    finish: |fincham, tau| {
        let m = rotate(&fincham.core.q, tau);
        let c = &fincham.core;
        let dt = c.dt;
        let momentum = fincham.momentum_half + (0.5 * dt) * m;
        let momentum_next = fincham.momentum_half + dt * m;
        let omega = c
            .body
            .body_angular_velocity(&rotate_inverse(&c.q, &momentum));
        let omega_next = c
            .body
            .body_angular_velocity(&rotate_inverse(&c.q, &momentum_next));
        let q_mid = normalize(&(c.q + times_pure(&c.q, &omega) * (0.25 * dt)));
        let mut renormaliser = c.renormaliser;
        let q = renormaliser.apply(c.q + times_pure(&q_mid, &omega_next) * (0.5 * dt));
        let t = c.next_time();
        RotationalState::new(t, q, omega_next).check_finite("state")?;
        if !momentum_next.iter().all(|x| x.is_finite()) {
            return Err(Error::NonFiniteState { what: "state", t });
        }
        let c = &mut fincham.core;
        c.tick();
        c.q = q;
        c.omega = omega_next;
        c.renormaliser = renormaliser;
        fincham.momentum_half = momentum_next;
        Ok(())
    },
    start_rotor: normalize,
);

impl<T: TorqueField> RotationalCore<T> for Fincham {
    fn run_mut(&mut self) -> &mut RunCount {
        &mut self.core.run
    }

    /// Normalises the rotor and sets `L_{−½} = R(q_0)(J ω_0 − (dt/2) τ(t_0, q_0, ω_0))`.
    fn start(&mut self, torque: &mut T, state: &RotationalState, dt: f64) -> Result<()> {
        self.core.begin(state, dt)?;
        let q = normalize(&state.q);
        let tau = checked_torque(torque, state.t, &q, &state.omega)?;
        let body = &self.core.body;
        let body_half = body.body_momentum(&state.omega) - (0.5 * dt) * tau;
        let omega_half = body.body_angular_velocity(&body_half);
        self.momentum_half = rotate(&q, &body_half);
        self.core.commit(dt, state.t, q, omega_half);
        Ok(())
    }

    #[inline(always)]
    fn step(&mut self, torque: &mut T) -> Result<()> {
        split_step(self, torque)
    }

    /// `(t_n, q_n, ω_n)` with `ω_n = J⁻¹ R(q_n)ᵀ (L_{n−½} + (dt/2) M)` (Eq. B.6); one torque
    /// evaluation.
    ///
    /// # Errors
    /// The stepper was not started; a non-finite torque.
    fn state(&mut self, torque: &mut T) -> Result<RotationalState> {
        self.core.ensure_started()?;
        let m = self.lab_torque(torque)?;
        let c = &self.core;
        let momentum = self.momentum_half + (0.5 * c.dt) * m;
        let omega = c
            .body
            .body_angular_velocity(&rotate_inverse(&c.q, &momentum));
        Ok(RotationalState::new(c.t, c.q, omega))
    }
}
