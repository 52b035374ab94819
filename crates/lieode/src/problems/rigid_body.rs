//! # A rigid body under attitude- and rate-dependent torque
//!
//! State `(R, ω) ∈ SO(3) × ℝ³` with the body angular velocity `ω`:
//!
//! ```text
//! Ṙ = R ω̂                                  (Side::Right, ξ_R = ω),
//! J ω̇ = τ(t, R, ω) − ω × Jω                 (Euler's equations, ξ_ω = ω̇),
//! τ(t, R, ω) = χ × (Rᵀ f) − c ω + τ_m(t),
//! ```
//!
//! with principal inertia `J = diag(J₁, J₂, J₃)`, a heavy-top gravity torque (the centre of
//! mass at the body offset `χ`, the lab force `f = (0, 0, −m g)`), linear damping `c`, and the
//! manufactured torque
//!
//! ```text
//! τ_m(t) = J ω̇*(t) + ω* × Jω* − χ × (R*ᵀ f) + c ω*
//! ```
//!
//! that makes `(R*(t), ω*(t))` the exact solution, where (yaw `a`, pitch `b`, roll `d`)
//!
//! ```text
//! R*(t) = R_z(a(t)) R_y(b(t)) R_x(d(t)),
//! ω*    = vee(R*ᵀ Ṙ*) = ḋ e_x + ḃ R_x(d)ᵀ e_y + ȧ R_x(d)ᵀ R_y(b)ᵀ e_z
//!       = ( ḋ − ȧ sin b,  ḃ cos d + ȧ cos b sin d,  ȧ cos b cos d − ḃ sin d ),
//! ω̇*    = ( d̈ − ä sin b − ȧ ḃ cos b,
//!           b̈ cos d − ḃ ḋ sin d + ä cos b sin d − ȧ ḃ sin b sin d + ȧ ḋ cos b cos d,
//!           ä cos b cos d − ȧ ḃ sin b cos d − ȧ ḋ cos b sin d − b̈ sin d − ḃ ḋ cos d ).
//! ```
//!
//! Coupling: `ω̇` depends on the attitude through the gravity torque (`∂ω̇/∂R ≠ 0`), on every
//! rate component through the gyroscopic term `ω × Jω` with three distinct moments and the
//! damping; `Ṙ` depends on `ω`. (`∂ξ_R/∂R = 0` is the structure of rigid-body kinematics.)
//!
//! On unit quaternions the state is `(q, ω)` with `q̇ = q ⊗ (0, ω/2)`: generator `(ω/2, ω̇)`,
//! exact rotor `q*(t) = exp(a e_z/2) ⊗ exp(b e_y/2) ⊗ exp(d e_x/2)` (continuous in `t`).
//!
//! # References
//! - P. Krysl, *Dynamically equivalent implicit algorithms for the integration of rigid body
//!   rotations*, Commun. Numer. Meth. Engng (2007), Eq. (10) (`Ṙ = R ω̂`) and Euler's
//!   equations.
//! - E. Hairer, C. Lubich, G. Wanner, *Geometric Numerical Integration*, 2nd ed., §VII.5
//!   (rigid body dynamics).
//! - P. J. Roache, *Code verification by the method of manufactured solutions*, J. Fluids Eng.
//!   124 (2002), 4–10.

use crate::body::{RigidBodyQuatState, RigidBodyState};
use nalgebra::{Matrix3, Vector3};

use super::{ScalarCurve, rotation_x, rotation_y, rotation_z, rotor_x, rotor_y, rotor_z};
use crate::body::{Frame, Orientation, RigidBody, Torque};
use crate::error::{Error, Result};
use crate::lie::product::{Product, ProductAlgebra};
use crate::lie::rn::Rn;
use crate::lie::so3::{So3, So3Algebra};
use crate::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use crate::lie::{Real, Side, real};
use crate::ode::LieOde;

/// A torque-driven rigid body with exact solution; see the [module docs](self) for the
/// equations.
///
/// Defaults: `J = diag(1, 2, 2.5)`, `χ = (0.2, −0.15, 0.4)`, `f = (0, 0, −9.81)` (unit mass),
/// `c = 0.3`, yaw `a(t) = 0.3 + 0.8 t + 0.15 t² + 0.4 sin 1.7t`, pitch
/// `b(t) = 0.2 + 0.1 t + 0.5 sin(1.1 t + 0.3)`, roll `d(t) = −0.4 + 1.2 t − 0.1 t² + 0.3 sin 2.3t`.
///
/// # Examples
/// ```
/// use lieode::problems::TorquedRigidBody;
/// use lieode::ode::LieOde;
/// use lieode::body::RigidBodyState;
/// let mut p = TorquedRigidBody::default();
/// let y = p.exact(1.0);
/// let xi = LieOde::<RigidBodyState>::generator(&mut p, 1.0, &y);
/// // On the exact solution the generator is (ω*, ω̇*).
/// assert!((xi.1.0 - p.exact_angular_acceleration(1.0)).norm() < 1e-12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TorquedRigidBody {
    yaw: ScalarCurve,
    pitch: ScalarCurve,
    roll: ScalarCurve,
    rigid: RigidBody,
    offset: Vector3<f64>,
    lab_force: Vector3<f64>,
    damping: f64,
}

impl Default for TorquedRigidBody {
    /// The parameters [`TorquedRigidBody::DEFAULT_INERTIA`], [`TorquedRigidBody::DEFAULT_OFFSET`],
    /// [`TorquedRigidBody::DEFAULT_LAB_FORCE`], [`TorquedRigidBody::DEFAULT_DAMPING`] and the
    /// default yaw, pitch and roll curves.
    fn default() -> Self {
        Self {
            yaw: Self::DEFAULT_YAW,
            pitch: Self::DEFAULT_PITCH,
            roll: Self::DEFAULT_ROLL,
            rigid: RigidBody::from_checked_moments(Self::DEFAULT_INERTIA),
            offset: Vector3::new(
                Self::DEFAULT_OFFSET[0],
                Self::DEFAULT_OFFSET[1],
                Self::DEFAULT_OFFSET[2],
            ),
            lab_force: Vector3::new(
                Self::DEFAULT_LAB_FORCE[0],
                Self::DEFAULT_LAB_FORCE[1],
                Self::DEFAULT_LAB_FORCE[2],
            ),
            damping: Self::DEFAULT_DAMPING,
        }
    }
}

impl TorquedRigidBody {
    /// The time span `[0, 2]`: the body turns by `∫|ω*| dt ≈ 2` rad (yaw and roll change by
    /// ≈ 2.1 and 1.7 rad) with `|ω*| ≤ 2.1`; the linearised dynamics about the solution have
    /// `‖∂ω̇/∂ω‖_F ≤ 1.9` and `‖∂ω̇/∂R‖_F` of 3–5 (gravity), so the error growth stays
    /// moderate and `h = 2/N` with `N = 8 … 1024` is in the asymptotic regime above round-off.
    pub const TIME_SPAN: (f64, f64) = (0.0, 2.0);

    /// Default principal moments of inertia `J = diag(1, 2, 2.5)`.
    pub const DEFAULT_INERTIA: [f64; 3] = [1.0, 2.0, 2.5];
    /// Default body-frame offset of the centre of mass `χ = (0.2, −0.15, 0.4)`.
    pub const DEFAULT_OFFSET: [f64; 3] = [0.2, -0.15, 0.4];
    /// Default lab-frame force `f = (0, 0, −m g)` with `m = 1`, `g = 9.81`.
    pub const DEFAULT_LAB_FORCE: [f64; 3] = [0.0, 0.0, -9.81];
    /// Default damping coefficient `c = 0.3`.
    pub const DEFAULT_DAMPING: f64 = 0.3;
    /// Default yaw `a(t) = 0.3 + 0.8 t + 0.15 t² + 0.4 sin 1.7t` (about z, applied last).
    pub const DEFAULT_YAW: ScalarCurve = ScalarCurve::new(0.3, 0.8, 0.15, 0.4, 1.7, 0.0);
    /// Default pitch `b(t) = 0.2 + 0.1 t + 0.5 sin(1.1 t + 0.3)` (about y).
    pub const DEFAULT_PITCH: ScalarCurve = ScalarCurve::new(0.2, 0.1, 0.0, 0.5, 1.1, 0.3);
    /// Default roll `d(t) = −0.4 + 1.2 t − 0.1 t² + 0.3 sin 2.3t` (about x, applied first).
    pub const DEFAULT_ROLL: ScalarCurve = ScalarCurve::new(-0.4, 1.2, -0.1, 0.3, 2.3, 0.0);

    /// The body with the given physical parameters and the default attitude curves.
    ///
    /// # Errors
    /// [`Error::NonFinite`] for a non-finite parameter; [`Error::InvalidParameter`] naming
    /// `inertia` if a principal moment is not positive or has no finite reciprocal (as
    /// [`RigidBody::with_moments`]; the triangle inequalities are not required), or `damping`
    /// if it is negative.
    pub fn new(
        inertia: Vector3<f64>,
        offset: Vector3<f64>,
        lab_force: Vector3<f64>,
        damping: f64,
    ) -> Result<Self> {
        let finite = |v: &Vector3<f64>| v.iter().all(|x| x.is_finite());
        if !finite(&inertia) {
            return Err(Error::NonFinite { name: "inertia" });
        }
        if !finite(&offset) {
            return Err(Error::NonFinite { name: "offset" });
        }
        if !finite(&lab_force) {
            return Err(Error::NonFinite { name: "lab_force" });
        }
        if !damping.is_finite() {
            return Err(Error::NonFinite { name: "damping" });
        }
        if inertia.iter().any(|&j| j <= 0.0) {
            return Err(Error::InvalidParameter {
                name: "inertia",
                value: format!("({}, {}, {})", inertia.x, inertia.y, inertia.z),
                expected: "three positive principal moments".into(),
            });
        }
        if damping < 0.0 {
            return Err(Error::InvalidParameter {
                name: "damping",
                value: format!("{damping}"),
                expected: "a value ≥ 0".into(),
            });
        }
        let rigid = RigidBody::with_moments([inertia.x, inertia.y, inertia.z])?;
        Ok(Self {
            rigid,
            offset,
            lab_force,
            damping,
            ..Self::default()
        })
    }

    /// The same body with the exact attitude `R_z(yaw(t)) R_y(pitch(t)) R_x(roll(t))`.
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `yaw`, `pitch` or `roll` if a coefficient is not finite.
    pub fn with_attitude(
        self,
        yaw: ScalarCurve,
        pitch: ScalarCurve,
        roll: ScalarCurve,
    ) -> Result<Self> {
        yaw.check("yaw")?;
        pitch.check("pitch")?;
        roll.check("roll")?;
        Ok(Self {
            yaw,
            pitch,
            roll,
            ..self
        })
    }

    /// The principal moments `(J₁, J₂, J₃)`.
    pub fn inertia(&self) -> Vector3<f64> {
        self.rigid.inertia()
    }
    /// The rotational inertia as a [`RigidBody`], whose Euler's equations the problem uses.
    pub fn rigid(&self) -> &RigidBody {
        &self.rigid
    }
    /// The body-frame offset `χ` of the centre of mass.
    pub fn offset(&self) -> Vector3<f64> {
        self.offset
    }
    /// The lab-frame force `f`.
    pub fn lab_force(&self) -> Vector3<f64> {
        self.lab_force
    }
    /// The damping coefficient `c`.
    pub fn damping(&self) -> f64 {
        self.damping
    }
    /// The attitude curves `(yaw a, pitch b, roll d)`.
    pub fn curves(&self) -> (ScalarCurve, ScalarCurve, ScalarCurve) {
        (self.yaw, self.pitch, self.roll)
    }

    /// The exact attitude `R*(t) = R_z(a(t)) R_y(b(t)) R_x(d(t))` in any scalar type.
    pub fn exact_rotation_generic<T: Real>(&self, t: T) -> So3<T> {
        So3::from_matrix_unchecked(
            rotation_z(self.yaw.value(t))
                * rotation_y(self.pitch.value(t))
                * rotation_x(self.roll.value(t)),
        )
    }

    /// The exact rotor `q*(t) = exp(a e_z/2) ⊗ exp(b e_y/2) ⊗ exp(d e_x/2)` in any scalar
    /// type; continuous in `t` and `R(q*(t)) = R*(t)`.
    pub fn exact_quaternion_generic<T: Real>(&self, t: T) -> UnitQuat<T> {
        UnitQuat::from_quaternion_unchecked(
            rotor_z(self.yaw.value(t)) * rotor_y(self.pitch.value(t)) * rotor_x(self.roll.value(t)),
        )
    }

    /// The exact body angular velocity
    /// `ω*(t) = (ḋ − ȧ sin b, ḃ cos d + ȧ cos b sin d, ȧ cos b cos d − ḃ sin d)`.
    pub fn exact_angular_velocity<T: Real>(&self, t: T) -> Vector3<T> {
        let (_, da, _) = self.yaw.jet(t);
        let (b, db, _) = self.pitch.jet(t);
        let (d, dd, _) = self.roll.jet(t);
        let (sb, cb) = b.sin_cos();
        let (sd, cd) = d.sin_cos();
        Vector3::new(dd - da * sb, db * cd + da * cb * sd, da * cb * cd - db * sd)
    }

    /// The exact body angular acceleration `ω̇*(t)` (the closed form in the
    /// [module docs](self)).
    pub fn exact_angular_acceleration<T: Real>(&self, t: T) -> Vector3<T> {
        let (_, da, dda) = self.yaw.jet(t);
        let (b, db, ddb) = self.pitch.jet(t);
        let (d, dd, ddd) = self.roll.jet(t);
        let (sb, cb) = b.sin_cos();
        let (sd, cd) = d.sin_cos();
        Vector3::new(
            ddd - dda * sb - da * db * cb,
            ddb * cd - db * dd * sd + dda * cb * sd - da * db * sb * sd + da * dd * cb * cd,
            dda * cb * cd - da * db * sb * cd - da * dd * cb * sd - ddb * sd - db * dd * cd,
        )
    }

    /// The exact state `(R*(t), ω*(t))` in any scalar type.
    pub fn exact_generic<T: Real>(&self, t: T) -> RigidBodyState<T> {
        Product(
            self.exact_rotation_generic(t),
            Rn(self.exact_angular_velocity(t)),
        )
    }

    /// The exact state `(R*(t), ω*(t))`.
    pub fn exact(&self, t: f64) -> RigidBodyState<f64> {
        self.exact_generic(t)
    }

    /// The exact state `(q*(t), ω*(t))` in any scalar type.
    pub fn exact_quaternion_state_generic<T: Real>(&self, t: T) -> RigidBodyQuatState<T> {
        Product(
            self.exact_quaternion_generic(t),
            Rn(self.exact_angular_velocity(t)),
        )
    }

    /// The exact state `(q*(t), ω*(t))` with the sign of `q*` continuous in `t`.
    pub fn exact_quaternion(&self, t: f64) -> RigidBodyQuatState<f64> {
        self.exact_quaternion_state_generic(t)
    }

    /// The manufactured torque `τ_m(t) = J ω̇* + ω* × Jω* − χ × (R*ᵀ f) + c ω*`.
    pub fn manufactured_torque<T: Real>(&self, t: T) -> Vector3<T> {
        let body = self.rigid.cast::<T>();
        let w = self.exact_angular_velocity(t);
        let dw = self.exact_angular_acceleration(t);
        let r = self.exact_rotation_generic(t);
        body.body_momentum(&dw) + w.cross(&body.body_momentum(&w)) - self.gravity_torque(r.matrix())
            + w * real::<T>(self.damping)
    }

    /// The gravity torque `χ × (Rᵀ f)` in the body frame.
    pub fn gravity_torque<T: Real>(&self, r: &Matrix3<T>) -> Vector3<T> {
        let chi = self.offset.map(real::<T>);
        let f = self.lab_force.map(real::<T>);
        chi.cross(&r.tr_mul(&f))
    }

    /// The body torque `τ(t, R, ω) = χ × (Rᵀ f) − c ω + τ_m(t)`.
    pub fn torque<T: Real>(&self, t: T, r: &Matrix3<T>, omega: &Vector3<T>) -> Vector3<T> {
        self.gravity_torque(r) - omega * real::<T>(self.damping) + self.manufactured_torque(t)
    }

    /// Euler's equations solved for the acceleration: `ω̇ = J⁻¹(τ(t, R, ω) − ω × Jω)`, as
    /// [`RigidBody::angular_acceleration_by_cross_product`] (the order of operations the
    /// published convergence data were computed in).
    pub fn angular_acceleration<T: Real>(
        &self,
        t: T,
        r: &Matrix3<T>,
        omega: &Vector3<T>,
    ) -> Vector3<T> {
        self.rigid
            .cast::<T>()
            .angular_acceleration_by_cross_product(omega, &self.torque(t, r, omega))
    }
}

/// The problem's torque as a [`Torque`] in the body frame, in every scalar (for the rotational
/// catalogue and, through [`crate::system::EveryBody`], the many-body layer): the inherent
/// [`TorquedRigidBody::torque`] `τ(t, R, ω)` at the attitude's matrix — for a rotor `q`
/// (possibly unnormalised), `R(q)/|q|²`. A body with the problem's inertia started at
/// `exact_quaternion(t₀)` follows the exact solution.
impl<T: Real> Torque<T> for TorquedRigidBody {
    #[inline(always)]
    fn frame(&self) -> Frame {
        Frame::Body
    }
    #[inline]
    fn torque<A: Orientation<T>>(&self, t: T, attitude: &A, omega: &Vector3<T>) -> Vector3<T> {
        // The inherent method (of the matrix), not this one.
        TorquedRigidBody::torque(self, t, &attitude.matrix(), omega)
    }
}

/// `Ṙ = R ω̂`, `ω̇ = J⁻¹(τ − ω × Jω)`: [`Side::Right`], `ξ = (ω, ω̇)`.
impl<T: Real> LieOde<RigidBodyState<T>> for TorquedRigidBody {
    fn side(&self) -> Side {
        Side::Right
    }
    fn generator(
        &mut self,
        t: T,
        y: &RigidBodyState<T>,
    ) -> ProductAlgebra<So3Algebra<T>, Rn<3, T>> {
        let omega = y.1.0;
        let accel = self.angular_acceleration(t, y.0.matrix(), &omega);
        ProductAlgebra(So3Algebra(omega), Rn(accel))
    }
}

/// `q̇ = q ⊗ (0, ω/2)`, `ω̇ = J⁻¹(τ − ω × Jω)`: [`Side::Right`], `ξ = (ω/2, ω̇)` (su(2) × ℝ³).
impl<T: Real> LieOde<RigidBodyQuatState<T>> for TorquedRigidBody {
    fn side(&self) -> Side {
        Side::Right
    }
    fn generator(
        &mut self,
        t: T,
        y: &RigidBodyQuatState<T>,
    ) -> ProductAlgebra<Su2Algebra<T>, Rn<3, T>> {
        let omega = y.1.0;
        let r = y.0.to_rotation_matrix();
        let accel = self.angular_acceleration(t, &r, &omega);
        ProductAlgebra(Su2Algebra(omega * real::<T>(0.5)), Rn(accel))
    }
}
