//! The algorithm of Johnson, Williams and Cook (2008): RK4 on the quaternion kinematics with
//! the lab angular momentum frozen over the step, as the SPIRAL benchmark codes it.

use nalgebra::{Quaternion, Vector3};

use super::method::{
    Carried, CarriedMut, MethodInfo, RigidBodyMethod, TorquePoint, finite_rotation,
};
use super::single_body::SingleBody;
use super::stepper::Renormalisation;
use crate::body::RigidBody;
use crate::body::quaternion::{normalize, pure, rotate, rotation_matrix};
use crate::lie::{Real, real};

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
/// [`SingleBody::with_renormalisation`] chooses another policy (`Never`, `Every(n)`) for that
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
/// use lieode::stepper::{Span, Stepper, StepperInfo};
/// use lieode::rotation::{
///     ConstantBodyTorque, Johnson, RigidBody, RotationalMethod, RotationalState,
/// };
/// use nalgebra::{Quaternion, Vector3};
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let mut torque = ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0));
/// let mut johnson = Johnson::new(body);
/// let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
/// johnson.start(&mut torque, &Span::open(start.t, 1e-3).unwrap(), &start)?;
/// for _ in 0..1000 {
///     johnson.step(&mut torque)?;
/// }
/// assert!((johnson.orientation().norm() - 1.0).abs() < 1e-15);
/// # Ok::<(), lieode::Error>(())
/// ```
pub type Johnson = SingleBody<JohnsonMethod>;

impl SingleBody<JohnsonMethod> {
    /// The lab-frame angular momentum `L_n` (zero before the start).
    pub fn momentum(&self) -> Vector3<f64> {
        self.carried().map_or(Vector3::zeros(), |c| c.extra)
    }
}

/// The definition of [`Johnson`] (no parameters).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct JohnsonMethod;

/// `f(q) = ½ (0, D(q)ᵀ J⁻¹ D(q) L) ⊗ q` with the unnormalised `D(q) = R(q)ᵀ`.
#[inline]
fn rate<T: Real>(body: &RigidBody<T>, momentum: &Vector3<T>, q: &Quaternion<T>) -> Quaternion<T> {
    let r = rotation_matrix(q);
    let omega_lab = r * body.body_angular_velocity(&(r.transpose() * momentum));
    pure(&omega_lab) * q * real::<T>(0.5)
}

impl<T: Real> RigidBodyMethod<T> for JohnsonMethod {
    /// `(q_n, ω_b,n = J⁻¹ R(q_n)ᵀ L_n, L_n)`, `L_n` in the lab frame.
    type Extra = Vector3<T>;
    /// The new rotor.
    type Pending = Quaternion<T>;
    type Constants = RigidBody<T>;
    const TORQUE_AT_END: bool = true;
    const START_EVALUATIONS: usize = 0;
    const SYNC_EVALUATES: bool = false;

    fn info(&self) -> MethodInfo {
        MethodInfo {
            name: "johnson",
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

    /// Normalises the rotor and sets `L_0 = R(q_0) J ω_0`.
    fn begin(
        &self,
        body: &RigidBody<T>,
        q: &Quaternion<T>,
        omega: &Vector3<T>,
    ) -> Carried<Self::Extra, T> {
        let q = normalize(q);
        Carried::new(q, *omega, rotate(&q, &body.body_momentum(omega)))
    }

    /// The rotor update, then the torque at `(t_{n+1}, q_{n+1}, J⁻¹ R(q_{n+1})ᵀ L_n)`.
    #[inline(always)]
    fn prepare(
        &self,
        body: &RigidBody<T>,
        c: &Carried<Self::Extra, T>,
        renormalise: bool,
        dt: T,
    ) -> (Quaternion<T>, TorquePoint<T>) {
        let Carried {
            q: q0,
            extra: momentum,
            ..
        } = c;
        let k1 = rate(body, momentum, q0);
        let k2 = rate(body, momentum, &(q0 + k1 * (real::<T>(0.5) * dt)));
        let k3 = rate(body, momentum, &(q0 + k2 * (real::<T>(0.5) * dt)));
        let k4 = rate(body, momentum, &(q0 + k3 * dt));
        let q = q0 + (k1 + k2 * real::<T>(2.0) + k3 * real::<T>(2.0) + k4) * (dt / real::<T>(6.0));
        let q = if renormalise { normalize(&q) } else { q };
        let r = rotation_matrix(&q);
        let omega_old = body.body_angular_velocity(&(r.transpose() * momentum));
        (
            q,
            TorquePoint {
                q,
                omega: omega_old,
            },
        )
    }

    /// `q_{n+1}`, the point's rotor.
    #[inline(always)]
    fn pending_from_point(&self, point: &TorquePoint<T>) -> Option<Self::Pending> {
        Some(point.q)
    }

    #[inline(always)]
    fn finish(
        &self,
        body: &RigidBody<T>,
        mut c: CarriedMut<'_, Self::Extra, T>,
        q: Quaternion<T>,
        tau: &Vector3<T>,
        _: bool,
        dt: T,
    ) -> bool {
        let r = rotation_matrix(&q);
        let momentum = *c.extra + (r * tau) * dt;
        let omega = body.body_angular_velocity(&(r.transpose() * momentum));
        c.set(q, omega, momentum);
        finite_rotation(&q, &omega) && momentum.iter().all(|x| x.is_finite())
    }
}
