//! Fincham's rotational leapfrog (lab-frame angular momentum at half steps, a quaternion
//! predictor–corrector), as the SPIRAL benchmark codes it.

use nalgebra::{Quaternion, Vector3};

use super::body::RigidBody;
use super::quaternion::{normalize, rotate, rotate_inverse, times_pure};
use super::stepper::{
    Renormalisation, Renormaliser, RotationalMethod, RotationalState, RotationalStepper,
    check_step_size, checked_torque, not_started,
};
use super::torque::TorqueField;
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
/// **Start** ([`RotationalStepper::start`]): the rotor is normalised and
/// `L_{−½} = R(q_0) (J ω_0 − (dt/2) τ(t_0, q_0, ω_0))` (for `q_0 = 1`, the benchmark's
/// `J ω_0 − (dt/2) τ`); one torque evaluation.
///
/// **Leapfrog.** [`RotationalMethod::angular_velocity`] returns `(t_n − dt/2, ω_{n−½})` with
/// `ω_{n−½} = J⁻¹ (q_{n−1}⁻¹ L_{n−½} q_{n−1})`, the body angular velocity the last step computed
/// (after `start`, `J⁻¹ R(q_0)ᵀ L_{−½} = ω_0 − (dt/2) J⁻¹ τ_0`) — the value the benchmark
/// compares with the exact `ω(t_n − dt/2)`. Because it is expressed in the body frame of
/// `q_{n−1}` rather than of `t_n − dt/2`, it carries an `O(dt)` frame error.
/// [`RotationalStepper::state`] returns `(t_n, q_n, ω_n)` with the method's own synchronised
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
/// [`RotationalStepper::start`]. Without the end-of-step normalisation `|q|` drifts slowly:
/// the corrector's increment is nearly orthogonal to `q_n` because `q_a` is unit and close to
/// `q_n`, so the drift is of second order in dt (`|q| − 1` = 6.1e-5, 6.1e-7, 6.1e-9 on the
/// SPIRAL cylinder at dt = 1e-3, 1e-4, 1e-5, t = 1; `tests/rotation_renormalisation.rs`). The
/// frame changes divide by `|q|²`, so a non-unit rotor is still used as a rotation.
///
/// # Examples
/// ```
/// use lieode::rotation::fincham::Fincham;
/// use lieode::rotation::{
///     ConstantBodyTorque, RigidBody, RotationalMethod, RotationalState, RotationalStepper,
/// };
/// use nalgebra::{Quaternion, Vector3};
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let mut torque = ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0));
/// let mut fincham = Fincham::new(body);
/// let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
/// fincham.start(&mut torque, &start, 1e-3)?;
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
    body: RigidBody,
    /// The end-of-step renormalisation (policy and step count).
    renormaliser: Renormaliser,
    dt: f64,
    t: f64,
    q: Quaternion<f64>,
    /// `L_{n−½}`, lab frame.
    momentum_half: Vector3<f64>,
    /// `ω_{n−½}` in the body frame of `q_{n−1}` (of `q_0` after the start).
    omega_half: Vector3<f64>,
    started: bool,
}

impl Fincham {
    /// The method for `body`.
    pub fn new(body: RigidBody) -> Self {
        Self {
            body,
            renormaliser: Renormaliser::EVERY_STEP,
            dt: 0.0,
            t: 0.0,
            q: Quaternion::identity(),
            momentum_half: Vector3::zeros(),
            omega_half: Vector3::zeros(),
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

    /// The lab-frame angular momentum `L_{n−½}` at `t_n − dt/2` the method carries.
    pub fn half_step_momentum(&self) -> (f64, Vector3<f64>) {
        (self.t - 0.5 * self.dt, self.momentum_half)
    }

    /// The lab torque `M = R(q_n) τ(t_n, q_n, J⁻¹ R(q_n)ᵀ L_{n−½})`.
    #[inline]
    fn lab_torque<T: TorqueField>(&self, torque: &mut T) -> Result<Vector3<f64>> {
        let omega_guess = self
            .body
            .body_angular_velocity(&rotate_inverse(&self.q, &self.momentum_half));
        let tau = checked_torque(torque, self.t, &self.q, &omega_guess)?;
        Ok(rotate(&self.q, &tau))
    }
}

impl RotationalMethod for Fincham {
    fn name(&self) -> &str {
        "fincham"
    }

    fn torque_evaluations_per_step(&self) -> usize {
        1
    }

    fn is_leapfrog(&self) -> bool {
        true
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

    /// `(t_n − dt/2, ω_{n−½})`, the body angular velocity of the last step (see the type's
    /// documentation for the frame it is expressed in).
    fn angular_velocity(&self) -> (f64, Vector3<f64>) {
        (self.t - 0.5 * self.dt, self.omega_half)
    }

    fn body(&self) -> &RigidBody {
        &self.body
    }
}

impl<T: TorqueField> RotationalStepper<T> for Fincham {
    /// Normalises the rotor and sets `L_{−½} = R(q_0)(J ω_0 − (dt/2) τ(t_0, q_0, ω_0))`.
    fn start(&mut self, torque: &mut T, state: &RotationalState, dt: f64) -> Result<()> {
        check_step_size(dt)?;
        state
            .check_finite("state")
            .map_err(|_| Error::NonFinite { name: "state" })?;
        self.started = false;
        let q = normalize(&state.q);
        let tau = checked_torque(torque, state.t, &q, &state.omega)?;
        let body_half = self.body.body_momentum(&state.omega) - (0.5 * dt) * tau;
        self.dt = dt;
        self.t = state.t;
        self.q = q;
        self.momentum_half = rotate(&q, &body_half);
        self.omega_half = self.body.body_angular_velocity(&body_half);
        self.renormaliser.reset();
        self.started = true;
        Ok(())
    }

    fn step(&mut self, torque: &mut T) -> Result<()> {
        if !self.started {
            return Err(not_started());
        }
        let dt = self.dt;
        let m = self.lab_torque(torque)?;
        let momentum = self.momentum_half + (0.5 * dt) * m;
        let momentum_next = self.momentum_half + dt * m;
        let omega = self
            .body
            .body_angular_velocity(&rotate_inverse(&self.q, &momentum));
        let omega_next = self
            .body
            .body_angular_velocity(&rotate_inverse(&self.q, &momentum_next));
        let q_mid = normalize(&(self.q + times_pure(&self.q, &omega) * (0.25 * dt)));
        let mut renormaliser = self.renormaliser;
        let q = renormaliser.apply(self.q + times_pure(&q_mid, &omega_next) * (0.5 * dt));
        let t = self.t + dt;
        RotationalState::new(t, q, omega_next).check_finite("state")?;
        if !momentum_next.iter().all(|x| x.is_finite()) {
            return Err(Error::NonFiniteState { what: "state", t });
        }
        self.t = t;
        self.q = q;
        self.momentum_half = momentum_next;
        self.omega_half = omega_next;
        self.renormaliser = renormaliser;
        Ok(())
    }

    /// `(t_n, q_n, ω_n)` with `ω_n = J⁻¹ R(q_n)ᵀ (L_{n−½} + (dt/2) M)` (Eq. B.6); one torque
    /// evaluation.
    ///
    /// # Errors
    /// The stepper was not started; a non-finite torque.
    fn state(&mut self, torque: &mut T) -> Result<RotationalState> {
        if !self.started {
            return Err(not_started());
        }
        let m = self.lab_torque(torque)?;
        let momentum = self.momentum_half + (0.5 * self.dt) * m;
        let omega = self
            .body
            .body_angular_velocity(&rotate_inverse(&self.q, &momentum));
        Ok(RotationalState::new(self.t, self.q, omega))
    }
}
