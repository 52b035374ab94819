//! The one torque interface of the rigid-body layers: a torque `τ(t, R, ω)` on one body, in the
//! body or the lab frame, generic in the scalar.
//!
//! A torque is evaluated at an [`Orientation`] — a rotor `q` (body → lab, possibly not
//! normalised: read as `q/|q|`), a rotation matrix `R`, an [`So3`] or a [`UnitQuat`] — so each
//! layer hands over the attitude it carries and nothing is converted unless the torque asks:
//! the rotational catalogue ([`crate::rotation`]) and the many-body layer
//! ([`crate::system::EveryBody`]) pass raw `f64` rotors, Krysl's momentum family
//! ([`crate::momentum`]) passes rotation matrices over `f64` and over dual numbers
//! (`num_dual::Dual64`, for the Newton Jacobians of its implicit methods).
//!
//! | type | frame | torque | potential |
//! |---|---|---|---|
//! | [`NoTorque`] | body | `0` | `0` |
//! | [`ConstantBodyTorque`] | body | `τ₀` | — |
//! | [`BodyTorque`]`(f)` | body | `f(t, q, ω)` (a closure, `f64`) | — |
//! | [`LabTorque`]`(f)` | lab | `f(t, q, ω)` (a closure, `f64`) | — |
//! | [`crate::momentum::HeavyTopTorque`] | lab | `−w R e₃ × e₃` | `w R₃₃` |
//! | [`crate::momentum::CoulombWallTorque`] | lab | Krysl §5.4 | Krysl §5.4 |
//! | [`crate::problems::TorquedRigidBody`] | body | `χ × Rᵀf − cω + τ_m(t)` | — |
//!
//! Conventions (`docs/notation.md`): Hamilton quaternions, scalar first; the rotor `q` maps body
//! to lab, `v_lab = q v_body q̄`, `R` is its rotation matrix, `v_lab = R v_body`.

use nalgebra::{Matrix3, Quaternion, Vector3};

use super::Frame;
use super::quaternion::{rotate, rotate_inverse, rotation_matrix};
use crate::lie::so3::So3;
use crate::lie::unit_quaternion::UnitQuat;
use crate::lie::{Real, real};

/// An attitude a torque can be evaluated at (body → lab): a rotor (possibly unnormalised, read
/// as `q/|q|`) or a rotation matrix, over any scalar.
///
/// Named `Orientation` rather than `Attitude`: [`crate::kinematics::Attitude`] (in the prelude
/// too) is the borrowed orientation a kinematics problem sees, an enum over the formulations'
/// representations; this trait is the static one the torques are generic over, so that each
/// evaluation is monomorphised for the representation the caller carries.
///
/// The conversions of a rotor are the catalogue's quaternion arithmetic
/// ([`super::quaternion`]), bit for bit: `R = R(q)/|q|²`, `q̄ v q / |q|²`, `q v q̄ / |q|²`.
pub trait Orientation<T: Real> {
    /// The rotation matrix `R` (body → lab); for a rotor, `R(q)/|q|²` with `R(q)` the
    /// homogeneous quadratic formula ([`rotation_matrix`]), the rotation of `q/|q|`.
    fn matrix(&self) -> Matrix3<T>;

    /// A rotor of the attitude: a rotor as it is (possibly unnormalised); for a matrix, the
    /// unit quaternion with `w ≥ 0` by Shepperd's method ([`UnitQuat::from_rotation`]: the
    /// largest of `4w², 4x², 4y², 4z²` from the diagonal, the rest from off-diagonal sums;
    /// S. W. Shepperd, *Quaternion from rotation matrix*, J. Guidance Control 1 (1978) 223),
    /// normalised.
    fn rotor(&self) -> Quaternion<T>;

    /// `Rᵀ v`: the body-frame image of the lab-frame vector `v` (for a rotor,
    /// `q̄ v q / |q|²`, [`rotate_inverse`]).
    fn to_body(&self, v: &Vector3<T>) -> Vector3<T>;

    /// `R v`: the lab-frame image of the body-frame vector `v` (for a rotor, `q v q̄ / |q|²`,
    /// [`rotate`]).
    fn to_lab(&self, v: &Vector3<T>) -> Vector3<T>;
}

/// A rotor `q` (body → lab), not necessarily of unit norm: the rotation of `q/|q|`.
impl<T: Real> Orientation<T> for Quaternion<T> {
    #[inline(always)]
    fn matrix(&self) -> Matrix3<T> {
        rotation_matrix(self) / self.norm_squared()
    }
    #[inline(always)]
    fn rotor(&self) -> Quaternion<T> {
        *self
    }
    #[inline(always)]
    fn to_body(&self, v: &Vector3<T>) -> Vector3<T> {
        rotate_inverse(self, v)
    }
    #[inline(always)]
    fn to_lab(&self, v: &Vector3<T>) -> Vector3<T> {
        rotate(self, v)
    }
}

/// A unit rotor: as its quaternion.
impl<T: Real> Orientation<T> for UnitQuat<T> {
    #[inline(always)]
    fn matrix(&self) -> Matrix3<T> {
        self.quaternion().matrix()
    }
    #[inline(always)]
    fn rotor(&self) -> Quaternion<T> {
        *self.quaternion()
    }
    #[inline(always)]
    fn to_body(&self, v: &Vector3<T>) -> Vector3<T> {
        self.quaternion().to_body(v)
    }
    #[inline(always)]
    fn to_lab(&self, v: &Vector3<T>) -> Vector3<T> {
        self.quaternion().to_lab(v)
    }
}

/// A rotation matrix `R` (body → lab), taken as it is (not re-orthogonalised).
impl<T: Real> Orientation<T> for Matrix3<T> {
    #[inline(always)]
    fn matrix(&self) -> Matrix3<T> {
        *self
    }
    #[inline]
    fn rotor(&self) -> Quaternion<T> {
        let q = *UnitQuat::from_rotation(&So3::from_matrix_unchecked(*self)).quaternion();
        q / q.norm()
    }
    #[inline(always)]
    fn to_body(&self, v: &Vector3<T>) -> Vector3<T> {
        self.tr_mul(v)
    }
    #[inline(always)]
    fn to_lab(&self, v: &Vector3<T>) -> Vector3<T> {
        self * v
    }
}

/// An element of `SO(3)`: as its matrix.
impl<T: Real> Orientation<T> for So3<T> {
    #[inline(always)]
    fn matrix(&self) -> Matrix3<T> {
        *So3::matrix(self)
    }
    #[inline]
    fn rotor(&self) -> Quaternion<T> {
        So3::matrix(self).rotor()
    }
    #[inline(always)]
    fn to_body(&self, v: &Vector3<T>) -> Vector3<T> {
        So3::matrix(self).tr_mul(v)
    }
    #[inline(always)]
    fn to_lab(&self, v: &Vector3<T>) -> Vector3<T> {
        So3::matrix(self) * v
    }
}

/// A torque `τ(t, R, ω)` on one rigid body over the scalar `T`: the one torque interface of the
/// rotational catalogue, Krysl's momentum family, the many-body layer and the reference
/// problems.
///
/// A torque says which frame it is given in ([`Torque::frame`]) and evaluates at the time `t`,
/// an [`Orientation`] (body → lab) and the **body** angular velocity `ω`; the provided
/// [`Torque::body_torque`] and [`Torque::lab_torque`] turn it into either frame
/// (`τ_body = Rᵀ τ_lab`). A conservative torque gives its potential `V(R)`
/// ([`Torque::potential`]) for Hamiltonians, with `τ_lab = −Σ_k e_k ∂V(exp(ε ê_k) R)/∂ε`.
///
/// The scalar is a parameter of the trait, not of the method, so that closures (`f64` only)
/// are torques through [`BodyTorque`] and [`LabTorque`], while a field written once for every
/// scalar (`impl<T: Real> Torque<T>`) is differentiated with dual numbers by the implicit
/// methods (`F: Torque<f64> + Torque<Dual64>`). A torque is a function of `(t, R, ω)`:
/// evaluations take `&self` (count them through a `Cell` if you must).
///
/// # Examples
/// ```
/// use lieode::body::{Frame, LabTorque, Orientation, Torque};
/// use nalgebra::{Matrix3, Quaternion, Vector3};
///
/// // A constant lab torque along e₃, on a body turned by a quarter turn about e₁.
/// let push = LabTorque(|_t: f64, _q: &Quaternion<f64>, _w: &Vector3<f64>| Vector3::z());
/// let (s, c) = std::f64::consts::FRAC_PI_4.sin_cos();
/// let q = Quaternion::new(c, s, 0.0, 0.0);
/// assert_eq!(push.frame(), Frame::Lab);
/// let body = push.body_torque(0.0, &q, &Vector3::zeros());
/// assert!((body - Vector3::new(0.0, 1.0, 0.0)).norm() < 1e-15); // Rᵀ e₃ = e₂
/// let r: Matrix3<f64> = q.matrix();
/// assert!((push.body_torque(0.0, &r, &Vector3::zeros()) - body).norm() < 1e-15);
/// ```
pub trait Torque<T: Real = f64> {
    /// The frame of what [`Torque::torque`] returns.
    fn frame(&self) -> Frame;

    /// The torque at time `t`, attitude `attitude` and body angular velocity `omega`, in the
    /// frame [`Torque::frame`].
    fn torque<A: Orientation<T>>(&self, t: T, attitude: &A, omega: &Vector3<T>) -> Vector3<T>;

    /// The potential energy `V(R)` whose torque this is, when there is one (for
    /// Hamiltonians); `None` (the default) for non-conservative, time- or rate-dependent
    /// torques.
    fn potential<A: Orientation<T>>(&self, _attitude: &A) -> Option<T> {
        None
    }

    /// The torque in the body frame: `τ` for a body-frame torque, `Rᵀ τ` (the attitude's
    /// [`Orientation::to_body`]) for a lab-frame one.
    #[inline]
    fn body_torque<A: Orientation<T>>(&self, t: T, attitude: &A, omega: &Vector3<T>) -> Vector3<T> {
        let tau = self.torque(t, attitude, omega);
        match self.frame() {
            Frame::Body => tau,
            Frame::Lab => attitude.to_body(&tau),
        }
    }

    /// The torque in the lab frame: `τ` for a lab-frame torque, `R τ` (the attitude's
    /// [`Orientation::to_lab`]) for a body-frame one.
    #[inline]
    fn lab_torque<A: Orientation<T>>(&self, t: T, attitude: &A, omega: &Vector3<T>) -> Vector3<T> {
        let tau = self.torque(t, attitude, omega);
        match self.frame() {
            Frame::Lab => tau,
            Frame::Body => attitude.to_lab(&tau),
        }
    }
}

/// A borrowed torque is the torque itself (the momentum forms borrow the problem's torque for a
/// step); every method is forwarded, overrides included.
impl<T: Real, F: Torque<T> + ?Sized> Torque<T> for &F {
    #[inline(always)]
    fn frame(&self) -> Frame {
        (**self).frame()
    }
    #[inline(always)]
    fn torque<A: Orientation<T>>(&self, t: T, attitude: &A, omega: &Vector3<T>) -> Vector3<T> {
        (**self).torque(t, attitude, omega)
    }
    #[inline(always)]
    fn potential<A: Orientation<T>>(&self, attitude: &A) -> Option<T> {
        (**self).potential(attitude)
    }
    #[inline(always)]
    fn body_torque<A: Orientation<T>>(&self, t: T, attitude: &A, omega: &Vector3<T>) -> Vector3<T> {
        (**self).body_torque(t, attitude, omega)
    }
    #[inline(always)]
    fn lab_torque<A: Orientation<T>>(&self, t: T, attitude: &A, omega: &Vector3<T>) -> Vector3<T> {
        (**self).lab_torque(t, attitude, omega)
    }
}

/// No torque: free rotation (Krysl §5.1). Body frame, zero, with the potential `V = 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NoTorque;

impl<T: Real> Torque<T> for NoTorque {
    #[inline(always)]
    fn frame(&self) -> Frame {
        Frame::Body
    }
    #[inline(always)]
    fn torque<A: Orientation<T>>(&self, _t: T, _attitude: &A, _omega: &Vector3<T>) -> Vector3<T> {
        Vector3::zeros()
    }
    #[inline(always)]
    fn potential<A: Orientation<T>>(&self, _attitude: &A) -> Option<T> {
        Some(T::zero())
    }
    #[inline(always)]
    fn body_torque<A: Orientation<T>>(
        &self,
        _t: T,
        _attitude: &A,
        _omega: &Vector3<T>,
    ) -> Vector3<T> {
        Vector3::zeros()
    }
}

/// A constant body-frame torque `τ₀` (the SPIRAL paper's cylinder: `τ = (0.5, 0, 0)` N m).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConstantBodyTorque(pub Vector3<f64>);

impl<T: Real> Torque<T> for ConstantBodyTorque {
    #[inline(always)]
    fn frame(&self) -> Frame {
        Frame::Body
    }
    #[inline(always)]
    fn torque<A: Orientation<T>>(&self, _t: T, _attitude: &A, _omega: &Vector3<T>) -> Vector3<T> {
        self.0.map(real::<T>)
    }
    #[inline(always)]
    fn body_torque<A: Orientation<T>>(
        &self,
        _t: T,
        _attitude: &A,
        _omega: &Vector3<T>,
    ) -> Vector3<T> {
        self.0.map(real::<T>)
    }
}

/// A torque given in the body frame by a closure `f(t, q, ω_body) -> τ_body` (`q` the
/// attitude's [`Orientation::rotor`]: the rotor as the stepper carries it).
///
/// # Examples
/// ```
/// use lieode::body::{BodyTorque, Torque};
/// use nalgebra::{Quaternion, Vector3};
///
/// let damping = BodyTorque(|_t: f64, _q: &Quaternion<f64>, w: &Vector3<f64>| -0.1 * w);
/// let q = Quaternion::new(1.0, 0.0, 0.0, 0.0);
/// assert_eq!(damping.body_torque(0.0, &q, &Vector3::new(1.0, 0.0, 0.0)).x, -0.1);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct BodyTorque<F>(pub F);

impl<F> Torque<f64> for BodyTorque<F>
where
    F: Fn(f64, &Quaternion<f64>, &Vector3<f64>) -> Vector3<f64>,
{
    #[inline(always)]
    fn frame(&self) -> Frame {
        Frame::Body
    }
    #[inline]
    fn torque<A: Orientation<f64>>(
        &self,
        t: f64,
        attitude: &A,
        omega: &Vector3<f64>,
    ) -> Vector3<f64> {
        (self.0)(t, &attitude.rotor(), omega)
    }
}

/// A torque given in the lab frame by a closure `f(t, q, ω_body) -> τ_lab`, seen in the body
/// frame as `τ_body = q̄ τ_lab q / |q|²` at a rotor (`Rᵀ τ_lab` at a matrix).
#[derive(Debug, Clone, Copy)]
pub struct LabTorque<F>(pub F);

impl<F> Torque<f64> for LabTorque<F>
where
    F: Fn(f64, &Quaternion<f64>, &Vector3<f64>) -> Vector3<f64>,
{
    #[inline(always)]
    fn frame(&self) -> Frame {
        Frame::Lab
    }
    #[inline]
    fn torque<A: Orientation<f64>>(
        &self,
        t: f64,
        attitude: &A,
        omega: &Vector3<f64>,
    ) -> Vector3<f64> {
        (self.0)(t, &attitude.rotor(), omega)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::quaternion::exp_pure;
    use crate::lie::LieGroup;
    use crate::lie::so3::So3Algebra;
    use std::cell::Cell;

    fn turned() -> Quaternion<f64> {
        // Deliberately not of unit norm.
        exp_pure(&Vector3::new(0.4, -1.1, 0.7)) * 1.3
    }

    #[test]
    fn a_rotor_orientation_is_the_catalogues_quaternion_arithmetic() {
        let q = turned();
        let v = Vector3::new(0.3, -2.0, 0.25);
        assert_eq!(q.matrix(), rotation_matrix(&q) / q.norm_squared());
        assert_eq!(q.rotor(), q);
        assert_eq!(q.to_body(&v), rotate_inverse(&q, &v));
        assert_eq!(q.to_lab(&v), rotate(&q, &v));
        let unit = UnitQuat::from_quaternion_normalized(q).unwrap();
        assert_eq!(unit.to_body(&v), rotate_inverse(unit.quaternion(), &v));
    }

    /// The rotation by `θ` about `e_k` has the matrix of the textbook and the rotor
    /// `(cos θ/2, sin θ/2 e_k)`; Shepperd's method recovers it in each of its four branches
    /// (small angles: the trace; near π: the largest diagonal entry).
    #[test]
    fn matrix_and_rotor_convert_as_the_closed_forms() {
        for theta in [0.3, 2.0, 3.1, std::f64::consts::PI] {
            let (s, c) = f64::sin_cos(theta);
            let (sh, ch) = f64::sin_cos(0.5 * theta);
            let about = [
                Matrix3::new(1.0, 0.0, 0.0, 0.0, c, -s, 0.0, s, c),
                Matrix3::new(c, 0.0, s, 0.0, 1.0, 0.0, -s, 0.0, c),
                Matrix3::new(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0),
            ];
            for (k, r) in about.iter().enumerate() {
                let mut expected = Quaternion::new(ch, 0.0, 0.0, 0.0);
                expected.coords[k] = sh; // nalgebra's storage order is (i, j, k, w)
                let rotor = r.rotor();
                assert!((rotor - expected).norm() < 1e-15, "{theta} {k}: {rotor:?}");
                assert!((rotor.norm() - 1.0).abs() < 1e-15);
                assert!((expected.matrix() - r).norm() < 1e-15);
                let v = Vector3::new(0.3, -2.0, 0.25);
                assert_eq!(r.to_lab(&v), r * v);
                assert_eq!(r.to_body(&v), r.transpose() * v);
            }
        }
        // A generic rotation: R → q → R and q → R → q (up to the sign, w ≥ 0).
        let r = So3::exp(&So3Algebra::new(Vector3::new(0.4, -1.1, 0.7)));
        assert!((r.rotor().matrix() - r.matrix()).norm() < 1e-15);
        let q = turned() / turned().norm();
        let back = q.matrix().rotor();
        assert!((back - q).norm() < 1e-15 || (back + q).norm() < 1e-15);
        assert!(back.w >= 0.0);
    }

    #[test]
    fn body_and_lab_torques_round_trip() {
        let q = turned();
        let w = Vector3::new(0.1, 0.2, -0.3);
        let field = |t: f64, q: &Quaternion<f64>, w: &Vector3<f64>| {
            Vector3::new(t + q.w, w.y * q.i, 1.0 - w.z)
        };
        let (body, lab) = (BodyTorque(field), LabTorque(field));
        assert_eq!(Torque::frame(&body), Frame::Body);
        assert_eq!(Torque::frame(&lab), Frame::Lab);
        let tau = field(0.7, &q, &w);
        // Each is the closure in its own frame, and the other frame is the rotor's rotation.
        assert_eq!(body.body_torque(0.7, &q, &w), tau);
        assert_eq!(body.lab_torque(0.7, &q, &w), rotate(&q, &tau));
        assert_eq!(lab.lab_torque(0.7, &q, &w), tau);
        assert_eq!(lab.body_torque(0.7, &q, &w), rotate_inverse(&q, &tau));
        // Round trips.
        let back = q.to_body(&body.lab_torque(0.7, &q, &w));
        assert!((back - tau).norm() < 1e-15 * tau.norm());
        let back = q.to_lab(&lab.body_torque(0.7, &q, &w));
        assert!((back - tau).norm() < 1e-15 * tau.norm());
        // At a matrix the closure sees the unit rotor of the matrix.
        let r = q.matrix();
        let unit = q / q.norm();
        let seen = body.body_torque(0.7, &r, &w);
        assert!((seen - field(0.7, &unit, &w)).norm() < 1e-15);
        assert!((lab.body_torque(0.7, &r, &w) - r.tr_mul(&field(0.7, &unit, &w))).norm() < 1e-15);
    }

    #[test]
    fn the_constant_torques_are_their_values_in_every_scalar() {
        let q = turned();
        let w = Vector3::new(0.1, 0.2, -0.3);
        let tau = Vector3::new(0.5, 0.0, -1.0);
        assert_eq!(ConstantBodyTorque(tau).body_torque(3.0, &q, &w), tau);
        assert_eq!(
            ConstantBodyTorque(tau).lab_torque(3.0, &q, &w),
            rotate(&q, &tau)
        );
        let dual: Vector3<num_dual::Dual64> = ConstantBodyTorque(tau).body_torque(
            num_dual::Dual64::from(3.0),
            &Quaternion::from(q.coords.map(num_dual::Dual64::from)),
            &w.map(num_dual::Dual64::from),
        );
        assert_eq!(dual.map(|d| d.re), tau);
        assert_eq!(NoTorque.body_torque(3.0, &q, &w), Vector3::zeros());
        assert_eq!(NoTorque.lab_torque(3.0, &q, &w), Vector3::zeros());
        assert_eq!(Torque::<f64>::potential(&NoTorque, &q), Some(0.0));
        assert_eq!(Torque::<f64>::potential(&ConstantBodyTorque(tau), &q), None);
    }

    #[test]
    fn a_borrowed_torque_forwards_every_method() {
        let calls = Cell::new(0);
        let counting = BodyTorque(|_t: f64, _q: &Quaternion<f64>, w: &Vector3<f64>| {
            calls.set(calls.get() + 1);
            *w
        });
        let borrowed = &counting;
        let q = turned();
        let w = Vector3::new(1.0, 2.0, 3.0);
        assert_eq!(borrowed.body_torque(0.0, &q, &w), w);
        assert_eq!(borrowed.lab_torque(0.0, &q, &w), rotate(&q, &w));
        assert_eq!(calls.get(), 2);
    }
}
