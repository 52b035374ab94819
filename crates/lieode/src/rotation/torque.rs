//! Torques acting on a rigid body, given in the body or in the lab frame.

use nalgebra::{Quaternion, Vector3};

use crate::body::quaternion::rotate_inverse;

/// A torque field `τ(t, q, ω)`: what the rotational steppers evaluate (and count).
///
/// The steppers ask for the torque in the **body** frame at the time `t`, the rotor `q`
/// (body → lab, possibly not normalised inside a step) and the body angular velocity `ω`.
pub trait TorqueField {
    /// The body-frame torque.
    fn body_torque(&mut self, t: f64, q: &Quaternion<f64>, omega: &Vector3<f64>) -> Vector3<f64>;
}

/// A torque given in the body frame by a closure `f(t, q, ω_body) -> τ_body`.
///
/// # Examples
/// ```
/// use lieode::rotation::{BodyTorque, TorqueField};
/// use nalgebra::{Quaternion, Vector3};
///
/// let mut damping = BodyTorque(|_t: f64, _q: &Quaternion<f64>, w: &Vector3<f64>| -0.1 * w);
/// let q = Quaternion::new(1.0, 0.0, 0.0, 0.0);
/// assert_eq!(damping.body_torque(0.0, &q, &Vector3::new(1.0, 0.0, 0.0)).x, -0.1);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct BodyTorque<F>(pub F);

impl<F> TorqueField for BodyTorque<F>
where
    F: FnMut(f64, &Quaternion<f64>, &Vector3<f64>) -> Vector3<f64>,
{
    #[inline]
    fn body_torque(&mut self, t: f64, q: &Quaternion<f64>, omega: &Vector3<f64>) -> Vector3<f64> {
        (self.0)(t, q, omega)
    }
}

/// A torque given in the lab frame by a closure `f(t, q, ω_body) -> τ_lab`, seen in the body
/// frame as `τ_body = q̄ τ_lab q / |q|²`.
#[derive(Debug, Clone, Copy)]
pub struct LabTorque<F>(pub F);

impl<F> TorqueField for LabTorque<F>
where
    F: FnMut(f64, &Quaternion<f64>, &Vector3<f64>) -> Vector3<f64>,
{
    #[inline]
    fn body_torque(&mut self, t: f64, q: &Quaternion<f64>, omega: &Vector3<f64>) -> Vector3<f64> {
        rotate_inverse(q, &(self.0)(t, q, omega))
    }
}

/// A constant body-frame torque (the SPIRAL paper's cylinder: `τ = (0.5, 0, 0)` N m).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConstantBodyTorque(pub Vector3<f64>);

impl TorqueField for ConstantBodyTorque {
    #[inline(always)]
    fn body_torque(
        &mut self,
        _t: f64,
        _q: &Quaternion<f64>,
        _omega: &Vector3<f64>,
    ) -> Vector3<f64> {
        self.0
    }
}

/// No torque: free rotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NoTorque;

impl TorqueField for NoTorque {
    #[inline(always)]
    fn body_torque(
        &mut self,
        _t: f64,
        _q: &Quaternion<f64>,
        _omega: &Vector3<f64>,
    ) -> Vector3<f64> {
        Vector3::zeros()
    }
}
