//! The classical fourth-order Runge–Kutta method on the rigid body's ambient ODE in ℝ⁷, with
//! the rotor normalised after every step (the SPIRAL benchmark's RK4).

use nalgebra::{Quaternion, SVector, Vector3};

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
use crate::tableau::registry::RK4;

/// Stages of the classical method.
const STAGES: usize = 4;

/// Classical RK4 (SPIRAL §3 and Fig. 2, its ref. 25; Kutta 1901) on the 7-vector
/// `x = (q, ω_b)` of the ambient ODE
///
/// ```text
/// q̇ = ½ q ⊗ (0, ω_b),    ω̇_b = ω̇(ω_b, τ(t, q, ω_b))   (Euler's equations, SPIRAL Eq. 8)
/// ```
///
/// (the right-hand side of [`crate::problems::reference::ambient_rhs`]), one step
///
/// ```text
/// k_i = F(t_n + c_i dt, x_n + dt Σ_{j<i} a_ij k_j),   x_{n+1} = x_n + dt Σ_i b_i k_i,
/// q_{n+1} ← normalise(q_{n+1})
/// ```
///
/// with the coefficients `c = (0, ½, ½, 1)`, `a_21 = a_32 = ½`, `a_43 = 1`,
/// `b = (1/6, 1/3, 1/3, 1/6)` read from the registry's tableau
/// [`crate::tableau::registry::RK4`]. The arithmetic is that of
/// [`crate::engine::ExplicitRk`] with that tableau on the same ODE, so a step equals an
/// `ExplicitRk` step followed by normalisation of the rotor, bit for bit
/// (`tests/rotation_classic.rs`); it is written out here only to evaluate the torque through
/// the checked interface (a non-finite torque is reported as `torque`, not as the right-hand
/// side).
///
/// **Four torque evaluations per step**, one per stage, at the stage time, stage rotor (not
/// normalised within the step) and stage angular velocity. Not leapfrog. The initial rotor is
/// used as given.
///
/// **Order.** Measured global order **4** in both `q` and `ω` (`tests/rotation_classic.rs`,
/// slopes over step doublings: 3.93–3.98 / 3.98–3.99 on an asymmetric body with an attitude-
/// and time-dependent torque, N = 10…80; 4.00 / 4.00 on the SPIRAL cylinder, N = 250…2000).
///
/// **Renormalisation.** By default the rotor is normalised after every step
/// ([`Renormalisation::EveryStep`], the `normalise` above, as in the benchmark);
/// [`Rk4::with_renormalisation`] chooses another policy (`Never`, `Every(n)`). The stage rotors
/// are never normalised (the method is classical RK4 on ℝ⁷), so the policy governs the only
/// normalisation of the step. Without it `|q|` drifts by the rotor's fourth-order error
/// (`|q| − 1` = −1.2e-10 on the SPIRAL cylinder at dt = 1e-3, t = 1, and at round-off level,
/// ~1e-14, for dt ≤ 1e-4; `tests/rotation_renormalisation.rs`).
///
/// # Examples
/// ```
/// use lieode::stepper::{Span, Stepper, StepperInfo};
/// use lieode::rotation::rk4::Rk4;
/// use lieode::rotation::{
///     ConstantBodyTorque, RigidBody, RotationalMethod, RotationalState, };
/// use nalgebra::{Quaternion, Vector3};
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let mut torque = ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0));
/// let mut rk4 = Rk4::new(body);
/// let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
/// rk4.start(&mut torque, &Span::open(start.t, 1e-2).unwrap(), &start)?;
/// for _ in 0..100 {
///     rk4.step(&mut torque)?;
/// }
/// assert_eq!(rk4.torque_evaluations_per_step(), 4);
/// assert!((rk4.orientation().norm() - 1.0).abs() < 1e-15);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Rk4 {
    /// The shared state (`ω_n`) and the end-of-step renormalisation.
    core: StepperCore,
    /// Row-major `A` of the tableau.
    a: [f64; STAGES * STAGES],
    b: [f64; STAGES],
    c: [f64; STAGES],
    /// Stage derivatives, kept between steps (no allocation per step).
    k: [SVector<f64, 7>; STAGES],
}

impl Rk4 {
    /// The method for `body`, with the coefficients of the registry's
    /// [`RK4`] tableau.
    pub fn new(body: RigidBody) -> Self {
        let mut a = [0.0; STAGES * STAGES];
        let mut b = [0.0; STAGES];
        let mut c = [0.0; STAGES];
        for (dst, src) in a.iter_mut().zip(RK4.a.iter()) {
            *dst = *src;
        }
        for (dst, src) in b.iter_mut().zip(RK4.b.iter()) {
            *dst = *src;
        }
        for (dst, src) in c.iter_mut().zip(RK4.c.iter()) {
            *dst = *src;
        }
        Self {
            core: StepperCore::new(body, Renormaliser::EVERY_STEP),
            a,
            b,
            c,
            k: [SVector::zeros(); STAGES],
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

    /// The ambient right-hand side at `(t, x)`, with a checked torque.
    #[inline]
    fn rhs<T: TorqueField>(
        &self,
        torque: &mut T,
        t: f64,
        x: &SVector<f64, 7>,
    ) -> Result<SVector<f64, 7>> {
        let q = Quaternion::new(x[0], x[1], x[2], x[3]);
        let omega = Vector3::new(x[4], x[5], x[6]);
        let tau = checked_torque(torque, t, &q, &omega)?;
        let dq = times_pure(&q, &omega) * 0.5;
        let dw = self.core.body.angular_acceleration(&omega, &tau);
        Ok(SVector::<f64, 7>::from([
            dq.w, dq.i, dq.j, dq.k, dw.x, dw.y, dw.z,
        ]))
    }
}

impl_rotational_method!(Rk4, "rk4", STAGES, false);

impl<T: TorqueField> RotationalCore<T> for Rk4 {
    fn run_mut(&mut self) -> &mut RunCount {
        &mut self.core.run
    }

    fn start(&mut self, _torque: &mut T, state: &RotationalState, dt: f64) -> Result<()> {
        self.core.start(state, dt)
    }

    fn step(&mut self, torque: &mut T) -> Result<()> {
        self.core.ensure_started()?;
        let h = self.core.dt;
        let (q0, omega0) = (self.core.q, self.core.omega);
        let y = SVector::<f64, 7>::from([q0.w, q0.i, q0.j, q0.k, omega0.x, omega0.y, omega0.z]);
        for i in 0..STAGES {
            let mut x = y;
            for j in 0..i {
                let aij = self.a[i * STAGES + j];
                if aij != 0.0 {
                    x.axpy(h * aij, &self.k[j], 1.0);
                }
            }
            self.k[i] = self.rhs(torque, self.core.t + self.c[i] * h, &x)?;
        }
        let mut y1 = y;
        for (bi, ki) in self.b.iter().zip(&self.k) {
            if *bi != 0.0 {
                y1.axpy(h * *bi, ki, 1.0);
            }
        }
        let c = &mut self.core;
        let mut renormaliser = c.renormaliser;
        let q = renormaliser.apply(Quaternion::new(y1[0], y1[1], y1[2], y1[3]));
        let omega = Vector3::new(y1[4], y1[5], y1[6]);
        let t = c.next_time();
        RotationalState::new(t, q, omega).check_finite("state")?;
        c.tick();
        c.q = q;
        c.omega = omega;
        c.renormaliser = renormaliser;
        Ok(())
    }

    fn state(&mut self, _torque: &mut T) -> Result<RotationalState> {
        Ok(self.core.state())
    }
}
