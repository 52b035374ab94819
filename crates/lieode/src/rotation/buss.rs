//! Buss's augmented second-order method in its lab-frame quaternion form (PFC7, SPIRAL App.
//! B.4), with the coefficient of the `ω̇ × ω` correction as data.

use nalgebra::{Matrix3, Quaternion, Vector3};

use super::method::{
    Carried, CarriedMut, MethodInfo, RigidBodyMethod, TorquePoint, finite_rotation,
};
use super::single_body::SingleBody;
use super::stepper::Renormalisation;
#[cfg(doc)]
use super::stepper::RotationalMethod;
use crate::body::RigidBody;
use crate::body::quaternion::{exp_pure, normalize, rotate, rotation_matrix};
use crate::lie::{Real, real};

/// Buss's method (S. R. Buss, *Accurate and efficient simulation of rigid-body rotations*,
/// J. Comput. Phys. 164 (2000) 377–406, the "augmented second-order" update; SPIRAL App. B.4,
/// Eqs. B.7–B.9, ref. 8 of the paper, in the quaternion form of the PFC7 documentation).
///
/// Lab frame; the state is the rotor `q_n` (body → lab) and the lab angular momentum `L_n`.
/// With `R = R(q_n)` and `J = diag(I_x, I_y, I_z)`, one step is
///
/// ```text
/// I⁻¹_lab = R J⁻¹ Rᵀ,   ω = I⁻¹_lab L_n,   M = R τ(t_n, q_n, ω_b,n)          (Eq. B.7)
/// ω̇ = I⁻¹_lab (M − ω × L_n)
/// ω̄ = ω + (dt/2) ω̇ + c dt² (ω̇ × ω),   θ = |ω̄| dt                           (Eq. B.8)
/// q_{n+1} = (cos θ/2, sin θ/2 · ω̄/|ω̄|) ⊗ q_n = exp((dt/2) ω̄) ⊗ q_n            (Eq. B.9)
/// L_{n+1} = L_n + dt M                                                    (Eq. B.9)
/// ω_b,n+1 = J⁻¹ R(q_{n+1})ᵀ L_{n+1}
/// ```
///
/// **The coefficient `c`.** Buss (2000) and the paper's App. B (Eq. B.8) give `c = 1/12`
/// ([`Buss::buss2000`], name `buss`); the benchmark that produced the paper's published data
/// used `c = 1/16` ([`Buss::benchmark`], name `buss16`), which is what reproduces Fig. 2 and
/// Table 2. The term is `O(dt²)` inside the rotation vector, so the choice changes the error
/// constant, not the order.
///
/// The rotor update is a product with a unit quaternion, so `|q|` is preserved up to round-off
/// and by default the method **never normalises** (as in the benchmark; see
/// **Renormalisation**). `R(q)` is evaluated as
/// `R(q)/|q|²` from the homogeneous formula, so a slightly non-unit rotor (or a non-unit initial
/// one) is still treated as a rotation. The torque is evaluated once per step, at the start of
/// the step, with the body angular velocity `ω_b,n = J⁻¹ Rᵀ L_n`; [`Stepper::start`](crate::stepper::Stepper::start)
/// sets `L_0 = R(q_0) J ω_0` and evaluates nothing. Not leapfrog.
///
/// **Order.** Measured global order **1** in both `q` and `ω`, whatever `c`
/// (`tests/rotation_classic.rs`, slopes over step doublings: 1.00 / 1.00 on an asymmetric body
/// with an attitude- and time-dependent torque, 0.99–1.00 on the SPIRAL cylinder; the paper
/// calls the method second order, its Table 2 shows first order): the momentum update
/// `L_{n+1} = L_n + dt M(t_n)` is explicit Euler, and a body-fixed torque turns with the body,
/// so `M` varies along the step. For a torque that is constant in the lab frame (including
/// none) the momentum is exact and the method is measured **second** order (slopes 1.98–2.00).
/// With `c = 1/16` the paper's Table 2 is reproduced (10⁻³ column within 1 %, 10⁻² column
/// within 8 %, where `c = 1/12` is 54 % off).
///
/// **Renormalisation.** Default [`Renormalisation::Never`], as in the benchmark (the SPIRAL
/// paper notes that Buss's method, alone among the DEM codes' methods of its Table 1, needs no
/// normalisation). [`SingleBody::with_renormalisation`] adds a normalisation of `q_{n+1}` at the end
/// of the step (`EveryStep`, or `Every(n)` to reset the round-off periodically); the step has no
/// other normalisation. Without it `|q| − 1` random-walks by round-off: measured up to 9.6e-13
/// after 10⁵ steps (SPIRAL cylinder, dt = 1e-5).
///
/// # Examples
/// ```
/// use lieode::stepper::{Span, Stepper, StepperInfo};
/// use lieode::rotation::{Buss, ConstantBodyTorque, RigidBody, RotationalMethod, RotationalState};
/// use nalgebra::{Quaternion, Vector3};
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let mut torque = ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0));
/// let mut buss = Buss::benchmark(body);
/// assert_eq!((buss.name(), buss.coefficient()), ("buss16", 1.0 / 16.0));
/// let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
/// buss.start(&mut torque, &Span::open(start.t, 1e-3).unwrap(), &start)?;
/// for _ in 0..1000 {
///     buss.step(&mut torque)?;
/// }
/// // Never normalised, yet unit to round-off.
/// assert!((buss.orientation().norm() - 1.0).abs() < 1e-13);
/// # Ok::<(), lieode::Error>(())
/// ```
pub type Buss = SingleBody<BussMethod>;

/// The definition of [`Buss`]: the coefficient `c` of the `c dt² (ω̇ × ω)` term, and the
/// method's name for it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BussMethod {
    coefficient: f64,
    name: &'static str,
}

impl BussMethod {
    /// Buss's coefficient `c = 1/12` (Buss 2000; SPIRAL Eq. B.8), name `buss`.
    pub const BUSS_2000: Self = Self {
        coefficient: 1.0 / 12.0,
        name: "buss",
    };

    /// The coefficient `c = 1/16` the SPIRAL benchmark's published data were made with, name
    /// `buss16`.
    pub const BENCHMARK: Self = Self {
        coefficient: 1.0 / 16.0,
        name: "buss16",
    };

    /// The coefficient `c`.
    pub fn coefficient(&self) -> f64 {
        self.coefficient
    }
}

impl SingleBody<BussMethod> {
    /// Buss's coefficient `c = 1/12` (Buss 2000; SPIRAL Eq. B.8), name `buss`.
    pub fn buss2000(body: RigidBody) -> Self {
        Self::with_method(BussMethod::BUSS_2000, body)
    }

    /// The coefficient `c = 1/16` the SPIRAL benchmark's published data were made with, name
    /// `buss16`.
    pub fn benchmark(body: RigidBody) -> Self {
        Self::with_method(BussMethod::BENCHMARK, body)
    }

    /// The coefficient `c` of the `c dt² (ω̇ × ω)` term.
    pub fn coefficient(&self) -> f64 {
        self.method().coefficient
    }

    /// The lab-frame angular momentum `L_n` (zero before the start).
    pub fn momentum(&self) -> Vector3<f64> {
        self.carried().map_or(Vector3::zeros(), |c| c.extra)
    }
}

/// `R(q)/|q|²`: the rotation of a possibly slightly non-unit rotor.
#[inline]
fn rotation<T: Real>(q: &Quaternion<T>) -> Matrix3<T> {
    rotation_matrix(q) / q.norm_squared()
}

/// `R J⁻¹ Rᵀ v`.
#[inline]
fn apply_inverse_inertia<T: Real>(
    body: &RigidBody<T>,
    r: &Matrix3<T>,
    v: &Vector3<T>,
) -> Vector3<T> {
    r * body.body_angular_velocity(&(r.transpose() * v))
}

impl<T: Real> RigidBodyMethod<T> for BussMethod {
    /// `(q_n, ω_b,n = J⁻¹ R(q_n)ᵀ L_n, L_n)`, `L_n` in the lab frame.
    type Extra = Vector3<T>;
    type Pending = ();
    type Constants = RigidBody<T>;
    const TORQUE_AT_END: bool = false;
    const START_EVALUATIONS: usize = 0;
    const POINT_IS_CARRIED: bool = true;
    const SYNC_EVALUATES: bool = false;

    fn info(&self) -> MethodInfo {
        MethodInfo {
            name: self.name,
            evaluations: 1,
            leapfrog: false,
            renormalisable: true,
            default_renormalisation: Renormalisation::Never,
            order: [1, 1],
        }
    }

    fn constants(&self, body: &RigidBody<T>, _: T) -> RigidBody<T> {
        *body
    }

    /// Stores the rotor as given and sets `L_0 = R(q_0) J ω_0`.
    fn begin(
        &self,
        body: &RigidBody<T>,
        q: &Quaternion<T>,
        omega: &Vector3<T>,
    ) -> Carried<Self::Extra, T> {
        Carried::new(*q, *omega, rotate(q, &body.body_momentum(omega)))
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
        mut c: CarriedMut<'_, Self::Extra, T>,
        _: (),
        tau: &Vector3<T>,
        renormalise: bool,
        dt: T,
    ) -> bool {
        let (q0, momentum0) = (*c.q, *c.extra);
        let r = rotation(&q0);
        let m = r * tau;
        let omega_lab = apply_inverse_inertia(body, &r, &momentum0);
        let domega = apply_inverse_inertia(body, &r, &(m - omega_lab.cross(&momentum0)));
        let omega_bar = omega_lab
            + domega * (real::<T>(0.5) * dt)
            + domega.cross(&omega_lab) * (real::<T>(self.coefficient) * dt * dt);
        let q = exp_pure(&(omega_bar * (real::<T>(0.5) * dt))) * q0;
        let q = if renormalise { normalize(&q) } else { q };
        let momentum = momentum0 + m * dt;
        let r_next = rotation(&q);
        let omega = body.body_angular_velocity(&(r_next.transpose() * momentum));
        c.set(q, omega, momentum);
        finite_rotation(&q, &omega) && momentum.iter().all(|x| x.is_finite())
    }
}
