//! The algorithm of Johnson, Williams and Cook (2008): RK4 on the quaternion kinematics with
//! the lab angular momentum frozen over the step, as the SPIRAL benchmark codes it.

use nalgebra::{Quaternion, Vector3};

use super::body::RigidBody;
use super::quaternion::{normalize, pure, rotate, rotation_matrix};
use super::stepper::{
    Renormalisation, Renormaliser, RotationalMethod, RotationalState, RotationalStepper,
    check_step_size, checked_torque, not_started,
};
use super::torque::TorqueField;
use crate::error::{Error, Result};

/// Johnson et al. (S. M. Johnson, J. R. Williams, B. K. Cook, *Quaternion-based rigid body
/// rotation integration algorithms for use in particle methods*, Int. J. Numer. Meth. Eng. 74
/// (2008) 1303–1313; SPIRAL App. B.6, Eqs. B.13–B.15, ref. 21 of the paper), with the details
/// of the benchmark that produced the paper's data.
///
/// The state is the rotor `q_n` (body → lab) and the lab angular momentum `L_n`, which is
/// **frozen** during the rotor update. With `J = diag(I_x, I_y, I_z)`,
///
/// ```text
/// f(q)    = ½ (0, ω_lab(q)) ⊗ q,   ω_lab(q) = D(q)ᵀ J⁻¹ D(q) L_n                 (lab kinematics)
/// k_1 = f(q_n),  k_2 = f(q_n + (dt/2) k_1),  k_3 = f(q_n + (dt/2) k_2),  k_4 = f(q_n + dt k_3)
/// q_{n+1} = normalise(q_n + (dt/6)(k_1 + 2k_2 + 2k_3 + k_4))                        (Eqs. B.13–B.14)
/// τ       = τ(t_{n+1}, q_{n+1}, J⁻¹ R(q_{n+1})ᵀ L_n)
/// L_{n+1} = L_n + dt R(q_{n+1}) τ                                                   (Eq. B.15)
/// ω_b,n+1 = J⁻¹ R(q_{n+1})ᵀ L_{n+1}
/// ```
///
/// where `D(q) = R(q)ᵀ` is the lab → body matrix built from the **stage** quaternion by the
/// homogeneous quadratic formula ([`rotation_matrix`]: diagonal `q₀² + q₁² − q₂² − q₃²`, …)
/// **without normalising it** — the stages are not unit quaternions, so `ω_lab` of a stage
/// carries the factor `|q|⁴`, exactly as in the benchmark's code.
///
/// **Where the torque is evaluated.** The benchmark turns the body torque into the lab frame
/// with the *new* rotor `q_{n+1}` (Eq. B.15 writes `M(t)`); here the whole torque is evaluated
/// at the new configuration `(t_{n+1}, q_{n+1})` so that the body torque and the rotation that
/// carries it to the lab belong to the same instant (a velocity-dependent torque sees the old
/// momentum in the new frame). For the benchmark's constant body torque this is exactly the
/// published update. The momentum update is then a semi-implicit (drift-then-kick) Euler step;
/// Johnson et al. also describe a predictor–corrector for `L` (two torque evaluations), which
/// is not what the benchmark used and is not implemented.
///
/// **Cost and order.** One torque evaluation per step (none at the start: `L_0 = R(q_0) J ω_0`
/// from the normalised initial rotor). Not leapfrog. The rotor is normalised every step by
/// default (see **Renormalisation**).
/// Measured global order **1** in both `q` and `ω` (`tests/rotation_classic.rs`, slopes over
/// step doublings: 1.00 / 1.00 on an asymmetric body with an attitude- and time-dependent
/// torque, on the SPIRAL cylinder and under a constant lab torque; the paper's Table 2 also
/// shows first order, and its 10⁻³ column is reproduced within 1 %): freezing `L` over the
/// step is an `O(dt²)` local error as soon as the lab torque is non-zero. Without torque the
/// step is RK4 on the rotor kinematics and measures fourth order (slopes 3.99–4.00): on the unit
/// sphere the `|q|⁴` factor of the unnormalised stage matrices is 1, so the ODE whose stages
/// they evaluate has the exact solution.
///
/// **Renormalisation.** By default the new rotor is normalised after every step
/// ([`Renormalisation::EveryStep`], the `normalise` above, as in the benchmark);
/// [`Johnson::with_renormalisation`] chooses another policy (`Never`, `Every(n)`) for that
/// end-of-step normalisation. The stage quaternions are never normalised (see above) and the
/// start normalises the initial rotor whatever the policy. Without the end-of-step
/// normalisation `|q|` drifts by the rotor's RK4 error (`|q| − 1` = 5.7e-10 on the SPIRAL
/// cylinder at dt = 1e-3, t = 1, round-off level for dt ≤ 1e-4;
/// `tests/rotation_renormalisation.rs`), and the homogeneous matrices of a non-unit rotor carry
/// their factor `|q|²` into the momentum and angular-velocity updates (`|q|⁴` into the stage
/// rates), as the benchmark's code would without its normalisation.
///
/// # Examples
/// ```
/// use lieode::rotation::johnson::Johnson;
/// use lieode::rotation::{
///     ConstantBodyTorque, RigidBody, RotationalMethod, RotationalState, RotationalStepper,
/// };
/// use nalgebra::{Quaternion, Vector3};
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let mut torque = ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0));
/// let mut johnson = Johnson::new(body);
/// let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
/// johnson.start(&mut torque, &start, 1e-3)?;
/// for _ in 0..1000 {
///     johnson.step(&mut torque)?;
/// }
/// assert!((johnson.orientation().norm() - 1.0).abs() < 1e-15);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Johnson {
    body: RigidBody,
    /// The end-of-step renormalisation (policy and step count).
    renormaliser: Renormaliser,
    dt: f64,
    t: f64,
    q: Quaternion<f64>,
    /// `L_n`, lab frame.
    momentum: Vector3<f64>,
    /// `ω_b,n = J⁻¹ R(q_n)ᵀ L_n`.
    omega: Vector3<f64>,
    started: bool,
}

impl Johnson {
    /// The method for `body`.
    pub fn new(body: RigidBody) -> Self {
        Self {
            body,
            renormaliser: Renormaliser::EVERY_STEP,
            dt: 0.0,
            t: 0.0,
            q: Quaternion::identity(),
            momentum: Vector3::zeros(),
            omega: Vector3::zeros(),
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

    /// The lab-frame angular momentum `L_n`.
    pub fn momentum(&self) -> Vector3<f64> {
        self.momentum
    }

    /// `f(q) = ½ (0, D(q)ᵀ J⁻¹ D(q) L) ⊗ q` with the unnormalised `D(q) = R(q)ᵀ`.
    #[inline]
    fn rate(&self, q: &Quaternion<f64>) -> Quaternion<f64> {
        let r = rotation_matrix(q);
        let omega_lab = r * self
            .body
            .body_angular_velocity(&(r.transpose() * self.momentum));
        pure(&omega_lab) * q * 0.5
    }
}

impl RotationalMethod for Johnson {
    fn name(&self) -> &str {
        "johnson"
    }

    fn torque_evaluations_per_step(&self) -> usize {
        1
    }

    fn is_leapfrog(&self) -> bool {
        false
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

    fn angular_velocity(&self) -> (f64, Vector3<f64>) {
        (self.t, self.omega)
    }

    fn body(&self) -> &RigidBody {
        &self.body
    }
}

impl<T: TorqueField> RotationalStepper<T> for Johnson {
    /// Normalises the rotor and sets `L_0 = R(q_0) J ω_0`.
    fn start(&mut self, _torque: &mut T, state: &RotationalState, dt: f64) -> Result<()> {
        check_step_size(dt)?;
        state
            .check_finite("state")
            .map_err(|_| Error::NonFinite { name: "state" })?;
        if state.q.norm_squared() == 0.0 {
            return Err(Error::InvalidParameter {
                name: "state",
                value: format!("{:?}", state.q),
                expected: "a non-zero rotor".into(),
            });
        }
        let q = normalize(&state.q);
        self.dt = dt;
        self.t = state.t;
        self.q = q;
        self.momentum = rotate(&q, &self.body.body_momentum(&state.omega));
        self.omega = state.omega;
        self.renormaliser.reset();
        self.started = true;
        Ok(())
    }

    fn step(&mut self, torque: &mut T) -> Result<()> {
        if !self.started {
            return Err(not_started());
        }
        let dt = self.dt;
        let q0 = self.q;
        let k1 = self.rate(&q0);
        let k2 = self.rate(&(q0 + k1 * (0.5 * dt)));
        let k3 = self.rate(&(q0 + k2 * (0.5 * dt)));
        let k4 = self.rate(&(q0 + k3 * dt));
        let mut renormaliser = self.renormaliser;
        let q = renormaliser.apply(q0 + (k1 + k2 * 2.0 + k3 * 2.0 + k4) * (dt / 6.0));
        let t = self.t + dt;
        let r = rotation_matrix(&q);
        let omega_old = self
            .body
            .body_angular_velocity(&(r.transpose() * self.momentum));
        let tau = checked_torque(torque, t, &q, &omega_old)?;
        let momentum = self.momentum + dt * (r * tau);
        let omega = self.body.body_angular_velocity(&(r.transpose() * momentum));
        RotationalState::new(t, q, omega).check_finite("state")?;
        if !momentum.iter().all(|x| x.is_finite()) {
            return Err(Error::NonFiniteState { what: "state", t });
        }
        self.t = t;
        self.q = q;
        self.momentum = momentum;
        self.omega = omega;
        self.renormaliser = renormaliser;
        Ok(())
    }

    fn state(&mut self, _torque: &mut T) -> Result<RotationalState> {
        Ok(RotationalState::new(self.t, self.q, self.omega))
    }
}
