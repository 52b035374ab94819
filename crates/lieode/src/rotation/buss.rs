//! Buss's augmented second-order method in its lab-frame quaternion form (PFC7, SPIRAL App.
//! B.4), with the coefficient of the `ω̇ × ω` correction as data.

use nalgebra::{Matrix3, Quaternion, Vector3};

use super::split::{split_at_carried_state, split_step};
#[cfg(doc)]
use super::stepper::RotationalMethod;
use super::stepper::{
    Renormalisation, Renormaliser, RotationalCore, RotationalState, RunCount, StepperCore,
    impl_rotational_method,
};
use super::torque::TorqueField;
use crate::body::RigidBody;
use crate::body::quaternion::{exp_pure, rotate, rotation_matrix};
use crate::error::{Error, Result};

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
/// normalisation). [`Buss::with_renormalisation`] adds a normalisation of `q_{n+1}` at the end
/// of the step (`EveryStep`, or `Every(n)` to reset the round-off periodically); the step has no
/// other normalisation. Without it `|q| − 1` random-walks by round-off: measured up to 9.6e-13
/// after 10⁵ steps (SPIRAL cylinder, dt = 1e-5).
///
/// # Examples
/// ```
/// use lieode::stepper::{Span, Stepper, StepperInfo};
/// use lieode::rotation::buss::Buss;
/// use lieode::rotation::{
///     ConstantBodyTorque, RigidBody, RotationalMethod, RotationalState, };
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
#[derive(Debug, Clone)]
pub struct Buss {
    /// The shared state (`ω_b,n = J⁻¹ R(q_n)ᵀ L_n`) and the end-of-step renormalisation.
    core: StepperCore,
    coefficient: f64,
    name: &'static str,
    /// `L_n`, lab frame.
    momentum: Vector3<f64>,
}

impl Buss {
    /// Buss's coefficient `c = 1/12` (Buss 2000; SPIRAL Eq. B.8), name `buss`.
    pub fn buss2000(body: RigidBody) -> Self {
        Self::with(body, 1.0 / 12.0, "buss")
    }

    /// The coefficient `c = 1/16` the SPIRAL benchmark's published data were made with, name
    /// `buss16`.
    pub fn benchmark(body: RigidBody) -> Self {
        Self::with(body, 1.0 / 16.0, "buss16")
    }

    fn with(body: RigidBody, coefficient: f64, name: &'static str) -> Self {
        Self {
            core: StepperCore::new(body, Renormaliser::NEVER),
            coefficient,
            name,
            momentum: Vector3::zeros(),
        }
    }

    /// The method with the end-of-step renormalisation `policy` instead of the default
    /// [`Renormalisation::Never`] (see **Renormalisation** in the type's documentation). Steps
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

    /// The coefficient `c` of the `c dt² (ω̇ × ω)` term.
    pub fn coefficient(&self) -> f64 {
        self.coefficient
    }

    /// The lab-frame angular momentum `L_n`.
    pub fn momentum(&self) -> Vector3<f64> {
        self.momentum
    }

    /// `R(q)/|q|²`: the rotation of a possibly slightly non-unit rotor.
    #[inline]
    fn rotation(q: &Quaternion<f64>) -> Matrix3<f64> {
        rotation_matrix(q) / q.norm_squared()
    }

    /// `R J⁻¹ Rᵀ v`.
    #[inline]
    fn apply_inverse_inertia(&self, r: &Matrix3<f64>, v: &Vector3<f64>) -> Vector3<f64> {
        r * self.core.body.body_angular_velocity(&(r.transpose() * v))
    }
}

impl_rotational_method!(Buss, field name, 1, false);

impl<T: TorqueField> RotationalCore<T> for Buss {
    fn run_mut(&mut self) -> &mut RunCount {
        &mut self.core.run
    }

    /// Stores the rotor as given and sets `L_0 = R(q_0) J ω_0`.
    fn start(&mut self, _torque: &mut T, state: &RotationalState, dt: f64) -> Result<()> {
        self.core.begin(state, dt)?;
        self.momentum = rotate(&state.q, &self.core.body.body_momentum(&state.omega));
        self.core.commit(dt, state.t, state.q, state.omega);
        Ok(())
    }

    #[inline(always)]
    fn step(&mut self, torque: &mut T) -> Result<()> {
        split_step(self, torque)
    }

    fn state(&mut self, _torque: &mut T) -> Result<RotationalState> {
        Ok(self.core.state())
    }
}

split_at_carried_state!(impl[] Buss,
    carried: |buss| buss.core.carried(),
    finish: |buss, tau| {
        let c = &buss.core;
        let dt = c.dt;
        let r = Buss::rotation(&c.q);
        let m = r * tau;
        let omega_lab = buss.apply_inverse_inertia(&r, &buss.momentum);
        let domega = buss.apply_inverse_inertia(&r, &(m - omega_lab.cross(&buss.momentum)));
        let omega_bar = omega_lab
            + (0.5 * dt) * domega
            + (buss.coefficient * dt * dt) * domega.cross(&omega_lab);
        let mut renormaliser = c.renormaliser;
        let q = renormaliser.apply(exp_pure(&((0.5 * dt) * omega_bar)) * c.q);
        let momentum = buss.momentum + dt * m;
        let r_next = Buss::rotation(&q);
        let omega = c
            .body
            .body_angular_velocity(&(r_next.transpose() * momentum));
        let t = c.next_time();
        RotationalState::new(t, q, omega).check_finite("state")?;
        if !momentum.iter().all(|x| x.is_finite()) {
            return Err(Error::NonFiniteState { what: "state", t });
        }
        let c = &mut buss.core;
        c.tick();
        c.q = q;
        c.omega = omega;
        c.renormaliser = renormaliser;
        buss.momentum = momentum;
        Ok(())
    }
);
