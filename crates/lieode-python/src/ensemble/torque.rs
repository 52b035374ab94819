//! The torque an ensemble's bodies feel: a uniform field acting at an offset centre of mass
//! (the heavy top, a satellite's solar pressure or drag at its centre of pressure), linear
//! damping and a constant body torque, each optional.

use lieode::body::{Frame, Orientation, Torque};
use nalgebra::Vector3;

/// `τ_body(t, R, ω) = χ × (Rᵀ f) − c ω + τ₀`: the lab-frame force `f` applied at the body
/// offset `χ` from the pivot (Hairer, Lubich & Wanner, *Geometric Numerical Integration*,
/// §VII.5, the heavy top with `f = (0, 0, −m g)`), linear damping `c ≥ 0` and a constant
/// body-frame torque `τ₀`. All zero: the free body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FieldTorque {
    /// `χ`, the body-frame offset where the force acts.
    pub offset: Vector3<f64>,
    /// `f`, the lab-frame force.
    pub lab_force: Vector3<f64>,
    /// `c`, the damping coefficient.
    pub damping: f64,
    /// `τ₀`, the constant body-frame torque.
    pub body_torque: Vector3<f64>,
}

impl Torque for FieldTorque {
    #[inline]
    fn frame(&self) -> Frame {
        Frame::Body
    }

    #[inline]
    fn torque<A: Orientation<f64>>(
        &self,
        _t: f64,
        attitude: &A,
        omega: &Vector3<f64>,
    ) -> Vector3<f64> {
        self.offset.cross(&attitude.to_body(&self.lab_force)) - omega * self.damping
            + self.body_torque
    }

    /// `V(R) = −χ · (Rᵀ f)` when the torque is the field's alone (no damping, no constant
    /// torque): the heavy top's potential.
    fn potential<A: Orientation<f64>>(&self, attitude: &A) -> Option<f64> {
        (self.damping == 0.0 && self.body_torque == Vector3::zeros())
            .then(|| -self.offset.dot(&attitude.to_body(&self.lab_force)))
    }
}
