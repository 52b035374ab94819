//! # Krysl's examples (§5): free body, slow and fast Lagrangian top, body in a Coulombic
//! potential with a soft wall
//!
//! Each [`KryslProblem`] carries the body, the spatial torque, the initial state `(R₀, Π₀)`
//! (body momentum) and the final time of the paper's convergence study, and computes reference
//! states independently of the methods under test: Hairer's DOP853 at `rtol = atol = 1e-13` on
//! the ambient quaternion/angular-velocity ODE ([`crate::problems::reference`]).
//!
//! | problem | `diag J` | torque | `R₀` | `Π₀` | `t_end` |
//! |---|---|---|---|---|---|
//! | `free_body` (§5.1) | (0.9144, 1.098, 1.66) | none | `I` | `J Ω₀`, `Ω₀ = (0.45549, 0.82623, 0.03476)` | 100 |
//! | `slow_top` (§5.2) | (5, 5, 1) | `−20 R(:,3) × e₃` | `exp(0.05 ê₁)` | `J (0, 0, 5)` | 20 |
//! | `fast_top` (§5.3) | (5, 5, 1) | `−20 R(:,3) × e₃` | `exp(0.3 ê₁)` | `J (0, 0, 50)` | 5 |
//! | `coulomb` (§5.4) | (2, 3, 4.5) | [`CoulombWallTorque`] | `I` | `π₀ = (2, 2, 2)` | 20 000 |
//!
//! The paper gives no final time for the fast top; 5 s (about 40 spins) is ours. The
//! Coulomb problem is the long run of Figs. 4–5 (40 000 steps of 0.5).

use crate::body::RigidBodyState;
use nalgebra::{Quaternion, Rotation3, UnitQuaternion, Vector3};

use crate::body::quaternion::{normalize, rotation_matrix};
use crate::body::{Frame, LabTorque, NoTorque, Orientation, RigidBody, Torque};
use crate::error::Result;
use crate::lie::product::Product;
use crate::lie::rn::Rn;
use crate::lie::so3::{So3, So3Algebra};
use crate::lie::{LieGroup, Real};
use crate::momentum::torque::body_torque_of_spatial;
use crate::momentum::{CoulombWallTorque, HeavyTopTorque};
use crate::problems::reference::reference_solution;
use crate::rotation::RotationalState;

/// The torque of one of Krysl's examples.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum KryslTorque {
    /// No torque (§5.1).
    Free(NoTorque),
    /// The Lagrangian top's gravity (§5.2, §5.3).
    Top(HeavyTopTorque),
    /// The Coulombic potential with a soft wall (§5.4).
    Coulomb(CoulombWallTorque),
}

/// Lab frame (the free body's zero is zero in either frame); the body torque is `Rᵀ t` with `R`
/// the attitude's matrix, as for the fields themselves.
// Inline hints (measured with `benches/krysl.rs`): none on the fields' `torque`, one on
// `body_torque` (as on the catalogue's `body_torque` before). Hinting `torque` too makes the momentum forms' generators too large for the
// engines to inline them (RKMK4 on the free body 10 % slower); without the hint on
// `body_torque` it stays a call in the body-momentum forms (TRAP, IMID 4 % slower).
impl<T: Real> Torque<T> for KryslTorque {
    #[inline(always)]
    fn frame(&self) -> Frame {
        Frame::Lab
    }
    fn torque<A: Orientation<T>>(&self, t: T, attitude: &A, omega: &Vector3<T>) -> Vector3<T> {
        match self {
            Self::Free(f) => f.torque(t, attitude, omega),
            Self::Top(f) => f.torque(t, attitude, omega),
            Self::Coulomb(f) => f.torque(t, attitude, omega),
        }
    }
    fn potential<A: Orientation<T>>(&self, attitude: &A) -> Option<T> {
        match self {
            Self::Free(f) => Torque::<T>::potential(f, attitude),
            Self::Top(f) => f.potential(attitude),
            Self::Coulomb(f) => f.potential(attitude),
        }
    }
    #[inline]
    fn body_torque<A: Orientation<T>>(&self, t: T, attitude: &A, omega: &Vector3<T>) -> Vector3<T> {
        body_torque_of_spatial(attitude, |r| self.torque(t, r, omega))
    }
}

/// One of Krysl's examples; see the [module docs](self).
///
/// # Examples
/// ```
/// use lieode::problems::krysl::KryslProblem;
/// let top = KryslProblem::slow_top()?;
/// assert_eq!(top.name(), "slow_top");
/// assert_eq!(top.initial_state().1.0, nalgebra::Vector3::new(0.0, 0.0, 5.0));
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KryslProblem {
    name: &'static str,
    body: RigidBody,
    torque: KryslTorque,
    initial: RigidBodyState,
    t_end: f64,
}

impl KryslProblem {
    /// §5.1: torque-free motion, `diag J = (0.9144, 1.098, 1.66)`,
    /// `Ω₀ = (0.45549, 0.82623, 0.03476)`, `R₀ = I`, up to `t = 100`.
    ///
    /// # Errors
    /// None in practice (the parameters are valid); the body's validation error otherwise.
    pub fn free_body() -> Result<Self> {
        let body = RigidBody::new([0.9144, 1.098, 1.66])?;
        let omega = Vector3::new(0.45549, 0.82623, 0.03476);
        Ok(Self {
            name: "free_body",
            body,
            torque: KryslTorque::Free(NoTorque),
            initial: Product(So3::identity(), Rn(body.body_momentum(&omega))),
            t_end: 100.0,
        })
    }

    /// §5.2: the slow Lagrangian top, `diag J = (5, 5, 1)`, `t = −20 R(:,3) × e₃`,
    /// `R₀ = exp(0.05 ê₁)`, `Ω₀ = (0, 0, 5)`, up to `t = 20`.
    ///
    /// # Errors
    /// As [`KryslProblem::free_body`].
    pub fn slow_top() -> Result<Self> {
        Self::top("slow_top", 0.05, 5.0, 20.0)
    }

    /// §5.3: the fast Lagrangian top (Simo and Wong's data): as the slow top with
    /// `R₀ = exp(0.3 ê₁)`, `Ω₀ = (0, 0, 50)`; up to `t = 5` (our choice).
    ///
    /// # Errors
    /// As [`KryslProblem::free_body`].
    pub fn fast_top() -> Result<Self> {
        Self::top("fast_top", 0.3, 50.0, 5.0)
    }

    fn top(name: &'static str, tilt: f64, spin: f64, t_end: f64) -> Result<Self> {
        let body = RigidBody::new([5.0, 5.0, 1.0])?;
        let r0 = So3::exp(&So3Algebra::new(Vector3::new(tilt, 0.0, 0.0)));
        Ok(Self {
            name,
            body,
            torque: KryslTorque::Top(HeavyTopTorque::krysl()),
            initial: Product(r0, Rn(body.body_momentum(&Vector3::new(0.0, 0.0, spin)))),
            t_end,
        })
    }

    /// §5.4: the Coulombic potential with a soft wall (the torque as printed), `diag J = (2, 3, 4.5)`, `R₀ = I`,
    /// `π₀ = (2, 2, 2)`, up to `t = 20 000` (40 000 steps of 0.5).
    ///
    /// # Errors
    /// As [`KryslProblem::free_body`].
    pub fn coulomb() -> Result<Self> {
        Ok(Self {
            name: "coulomb",
            body: RigidBody::new([2.0, 3.0, 4.5])?,
            torque: KryslTorque::Coulomb(CoulombWallTorque),
            initial: Product(So3::identity(), Rn(Vector3::new(2.0, 2.0, 2.0))),
            t_end: 20_000.0,
        })
    }

    /// The convergence problems of Figs. 1–3: free body, slow top, fast top.
    ///
    /// # Errors
    /// As [`KryslProblem::free_body`].
    pub fn convergence_problems() -> Result<[Self; 3]> {
        Ok([Self::free_body()?, Self::slow_top()?, Self::fast_top()?])
    }

    /// The name used in CSV files: `free_body`, `slow_top`, `fast_top` or `coulomb`.
    pub fn name(&self) -> &'static str {
        self.name
    }
    /// The body.
    pub fn body(&self) -> &RigidBody {
        &self.body
    }
    /// The torque.
    pub fn torque(&self) -> KryslTorque {
        self.torque
    }
    /// `(R₀, Π₀)` at `t = 0`.
    pub fn initial_state(&self) -> RigidBodyState {
        self.initial
    }
    /// The final time of the paper's study of this problem.
    pub fn t_end(&self) -> f64 {
        self.t_end
    }

    /// The reference state `(R, Π)` at `t`: DOP853 at `rtol = atol = 1e-13` on the ambient
    /// rotor/angular-velocity ODE from the initial state, the rotor normalised at the end.
    ///
    /// # Errors
    /// Those of [`reference_solution`] (a non-finite `t`, a failed integration).
    pub fn reference(&self, t: f64) -> Result<RigidBodyState> {
        let end = reference_solution(
            &self.body,
            &self.lab_torque(),
            &self.rotor_initial_state(),
            t,
        )?;
        let r = So3::from_matrix_unchecked(rotation_matrix(&normalize(&end.q)));
        Ok(Product(r, Rn(self.body.body_momentum(&end.omega))))
    }

    /// The spatial torque as the rotational steppers' [`LabTorque`] of a rotor `q`: `t(t, R)` at
    /// the rotation `R` of the normalised rotor, seen in the body frame as `q̄ t q / |q|²` (the
    /// torque of the quaternion steppers and the reference solutions; [`KryslProblem::torque`]
    /// at a rotor gives `R(q)ᵀ t(R(q))`, equal up to rounding).
    pub fn lab_torque(&self) -> impl Torque + use<> {
        let spatial = self.torque;
        LabTorque(move |time: f64, q: &Quaternion<f64>, w: &Vector3<f64>| {
            spatial.torque(time, &rotation_matrix(&normalize(q)), w)
        })
    }

    /// The initial state as a rotor and a body angular velocity: `q₀` the unit quaternion of
    /// `R₀`, `ω₀ = J⁻¹Π₀`, at `t = 0`.
    pub fn rotor_initial_state(&self) -> RotationalState {
        let r0 = Rotation3::from_matrix_unchecked(*self.initial.0.matrix());
        let q0 = UnitQuaternion::from_rotation_matrix(&r0).into_inner();
        RotationalState::new(0.0, q0, self.body.body_angular_velocity(&self.initial.1.0))
    }
}

/// The errors of the paper's Figs. 1–3: `(‖Π − Π_ref‖₂, ‖R − R_ref‖₂)`, the Euclidean norm of
/// the body-momentum error and the spectral norm of the attitude-matrix error.
pub fn krysl_errors(state: &RigidBodyState, reference: &RigidBodyState) -> (f64, f64) {
    let momentum = (state.1.0 - reference.1.0).norm();
    let attitude = (state.0.matrix() - reference.0.matrix())
        .singular_values()
        .max();
    (momentum, attitude)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::quaternion::{exp_pure, rotate_inverse};

    /// Each problem's torque at a rotor `q` (not normalised) is `R(q)ᵀ t(R(q))` with
    /// `R(q) = rotation_matrix(q)/|q|²`, bit for bit, and its potential is the potential at
    /// `R(q)`; its rotor form [`KryslProblem::lab_torque`] is `q̄ t q / |q|²` at the normalised
    /// rotor.
    #[test]
    fn the_problems_torques_at_a_rotor() -> Result<()> {
        let q = exp_pure(&Vector3::new(0.9, -0.4, 0.3)) * 1.01;
        let w = Vector3::new(0.2, 0.1, -0.3);
        let r = rotation_matrix(&q) / q.norm_squared();
        for problem in [
            KryslProblem::free_body()?,
            KryslProblem::slow_top()?,
            KryslProblem::coulomb()?,
        ] {
            let torque = problem.torque();
            let spatial = torque.torque(2.0, &r, &w);
            assert_eq!(torque.body_torque(2.0, &q, &w), r.tr_mul(&spatial));
            assert_eq!(torque.lab_torque(2.0, &q, &w), spatial);
            assert_eq!(torque.potential(&q), torque.potential(&r));
            let unit = normalize(&q);
            let at_unit = torque.torque(2.0, &rotation_matrix(&unit), &w);
            assert_eq!(
                problem.lab_torque().body_torque(2.0, &q, &w),
                rotate_inverse(&q, &at_unit)
            );
        }
        Ok(())
    }
}
