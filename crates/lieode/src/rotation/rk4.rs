//! The classical fourth-order Runge–Kutta method on the rigid body's ambient ODE in ℝ⁷, with
//! the rotor normalised after every step (the SPIRAL benchmark's RK4).

use nalgebra::{Quaternion, SVector, Vector3};

use super::method::{
    Carried, CarriedMut, MethodInfo, RigidBodyMethod, TorquePoint, finite_rotation,
};
use super::single_body::SingleBody;
use super::stepper::Renormalisation;
use crate::body::RigidBody;
use crate::body::quaternion::{normalize, times_pure};
use crate::lie::{Real, real};
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
/// [`SingleBody::with_renormalisation`] chooses another policy (`Never`, `Every(n)`). The stage rotors
/// are never normalised (the method is classical RK4 on ℝ⁷), so the policy governs the only
/// normalisation of the step. Without it `|q|` drifts by the rotor's fourth-order error
/// (`|q| − 1` = −1.2e-10 on the SPIRAL cylinder at dt = 1e-3, t = 1, and at round-off level,
/// ~1e-14, for dt ≤ 1e-4; `tests/rotation_renormalisation.rs`).
///
/// # Examples
/// ```
/// use lieode::stepper::{Span, Stepper, StepperInfo};
/// use lieode::rotation::{ConstantBodyTorque, RigidBody, Rk4, RotationalMethod, RotationalState};
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
pub type Rk4 = SingleBody<Rk4Method>;

/// The definition of [`Rk4`]: the coefficients of the registry's [`RK4`] tableau.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rk4Method {
    /// Row-major `A` of the tableau.
    a: [f64; STAGES * STAGES],
    b: [f64; STAGES],
    c: [f64; STAGES],
}

impl Default for Rk4Method {
    /// The coefficients of the registry's [`RK4`] tableau.
    fn default() -> Self {
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
        Self { a, b, c }
    }
}

/// The ambient state `(q, ω) ∈ ℝ⁷` the stages work on.
type Ambient<T> = SVector<T, 7>;

/// A step in progress: the state at `t_n`, the current stage's state and the stage
/// derivatives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rk4Stages<T: Real = f64> {
    y: Ambient<T>,
    x: Ambient<T>,
    k: [Ambient<T>; STAGES],
}

/// The torque point of an ambient state.
#[inline(always)]
fn point<T: Real>(x: &Ambient<T>) -> TorquePoint<T> {
    TorquePoint {
        q: Quaternion::new(x[0], x[1], x[2], x[3]),
        omega: Vector3::new(x[4], x[5], x[6]),
    }
}

/// The ambient right-hand side at `x` with the body torque `tau` there.
#[inline]
fn rhs<T: Real>(body: &RigidBody<T>, x: &Ambient<T>, tau: &Vector3<T>) -> Ambient<T> {
    let TorquePoint { q, omega } = point(x);
    let dq = times_pure(&q, &omega) * real::<T>(0.5);
    let dw = body.angular_acceleration(&omega, tau);
    Ambient::<T>::from([dq.w, dq.i, dq.j, dq.k, dw.x, dw.y, dw.z])
}

impl<T: Real> RigidBodyMethod<T> for Rk4Method {
    /// `(q_n, ω_n)`.
    type Extra = ();
    type Pending = Rk4Stages<T>;
    type Constants = RigidBody<T>;
    const TORQUE_AT_END: bool = false;
    const STAGES: usize = STAGES;
    const START_EVALUATIONS: usize = 0;
    const SYNC_EVALUATES: bool = false;

    fn info(&self) -> MethodInfo {
        MethodInfo {
            name: "rk4",
            evaluations: STAGES,
            leapfrog: false,
            renormalisable: true,
            default_renormalisation: Renormalisation::EveryStep,
            order: [4, 4],
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
        Carried::new(*q, *omega, ())
    }

    /// The first stage at `(t_n, q_n, ω_n)`.
    #[inline]
    fn prepare(
        &self,
        _: &RigidBody<T>,
        c: &Carried<Self::Extra, T>,
        _: bool,
        _: T,
    ) -> (Rk4Stages<T>, TorquePoint<T>) {
        let Carried {
            q: q0,
            omega: omega0,
            ..
        } = c;
        let y = Ambient::<T>::from([q0.w, q0.i, q0.j, q0.k, omega0.x, omega0.y, omega0.z]);
        let stages = Rk4Stages {
            y,
            x: y,
            k: [Ambient::<T>::zeros(); STAGES],
        };
        (stages, point(&y))
    }

    fn stage_fraction(&self, stage: usize) -> f64 {
        self.c[stage]
    }

    /// `k_{s−1} = F(x_{s−1})`, then `x_s = y + dt Σ_{j<s} a_sj k_j`.
    #[inline]
    fn stage(
        &self,
        body: &RigidBody<T>,
        _: &Carried<Self::Extra, T>,
        p: &mut Rk4Stages<T>,
        stage: usize,
        tau: &Vector3<T>,
        dt: T,
    ) -> TorquePoint<T> {
        p.k[stage - 1] = rhs(body, &p.x, tau);
        let mut x = p.y;
        for j in 0..stage {
            let aij = self.a[stage * STAGES + j];
            if aij != 0.0 {
                x.axpy(dt * real::<T>(aij), &p.k[j], T::one());
            }
        }
        p.x = x;
        point(&x)
    }

    #[inline]
    fn finish(
        &self,
        body: &RigidBody<T>,
        mut c: CarriedMut<'_, Self::Extra, T>,
        mut p: Rk4Stages<T>,
        tau: &Vector3<T>,
        renormalise: bool,
        dt: T,
    ) -> bool {
        p.k[STAGES - 1] = rhs(body, &p.x, tau);
        let mut y1 = p.y;
        for (bi, ki) in self.b.iter().zip(&p.k) {
            if *bi != 0.0 {
                y1.axpy(dt * real::<T>(*bi), ki, T::one());
            }
        }
        let TorquePoint { q, omega } = point(&y1);
        let q = if renormalise { normalize(&q) } else { q };
        c.set(q, omega, ());
        finite_rotation(&q, &omega)
    }
}
