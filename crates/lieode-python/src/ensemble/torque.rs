//! The torque an ensemble's bodies feel: a uniform field acting at an offset centre of mass
//! (the heavy top, a satellite's solar pressure or drag at its centre of pressure), linear
//! damping and a constant body torque, each optional.
//!
//! Generic in the scalar of its parameters: `f64` for ensembles, dual numbers when the
//! parameters are directions of a sensitivity run ([`super::sensitivity`]).

use lieode::body::{Frame, Orientation, Torque};
use lieode::lie::Real;
use nalgebra::Vector3;

/// `τ_body(t, R, ω) = χ × (Rᵀ f) − c ω + τ₀`: the lab-frame force `f` applied at the body
/// offset `χ` from the pivot (Hairer, Lubich & Wanner, *Geometric Numerical Integration*,
/// §VII.5, the heavy top with `f = (0, 0, −m g)`), linear damping `c ≥ 0` and a constant
/// body-frame torque `τ₀`. All zero: the free body. Over `f64` (the default) its arithmetic is
/// the same operations in the same order whatever the scalar, so an ensemble's numbers do not
/// depend on the genericity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FieldTorque<T = f64> {
    /// `χ`, the body-frame offset where the force acts.
    pub offset: Vector3<T>,
    /// `f`, the lab-frame force.
    pub lab_force: Vector3<T>,
    /// `c`, the damping coefficient.
    pub damping: T,
    /// `τ₀`, the constant body-frame torque.
    pub body_torque: Vector3<T>,
}

impl<T: Real> Torque<T> for FieldTorque<T> {
    #[inline]
    fn frame(&self) -> Frame {
        Frame::Body
    }

    #[inline]
    fn torque<A: Orientation<T>>(&self, _t: T, attitude: &A, omega: &Vector3<T>) -> Vector3<T> {
        self.offset.cross(&attitude.to_body(&self.lab_force)) - omega * self.damping
            + self.body_torque
    }

    /// `V(R) = −χ · (Rᵀ f)` when the torque is the field's alone (no damping, no constant
    /// torque): the heavy top's potential.
    fn potential<A: Orientation<T>>(&self, attitude: &A) -> Option<T> {
        (self.damping == T::zero() && self.body_torque == Vector3::zeros())
            .then(|| -self.offset.dot(&attitude.to_body(&self.lab_force)))
    }
}
