//! # Tight reference solutions of rotational motion
//!
//! Hairer's DOP853 at `rtol = atol = 1e-13` on the ambient quaternion/angular-velocity ODE in
//! ℝ⁷, independent of the rotational steppers under test; for order and error measurements
//! where no exact solution is known (the SPIRAL cylinder's rotor, Krysl's tops).

use nalgebra::{Quaternion, SVector, Vector3};

use crate::adaptive::{ControllerParameters, Dop853, Summation, Tolerances, VectorStepper};
use crate::body::quaternion::times_pure;
use crate::body::{RigidBody, Torque};
use crate::error::{Error, Result};
use crate::integrate::{Options, Record, integrate};
use crate::rotation::RotationalState;
use crate::stepper::Span;

/// The tolerance of [`reference_solution`] (`rtol = atol`).
pub const REFERENCE_TOLERANCE: f64 = 1e-13;

/// The rigid body's motion as one vector ODE on ℝ⁷, `x = (q, ω)`:
/// `q̇ = ½ q ⊗ (0, ω)`, `ω̇ = ω̇(ω, τ(t, q, ω))` (Euler's equations, body torque).
pub fn ambient_rhs<T: Torque>(
    body: &RigidBody,
    torque: &T,
    t: f64,
    x: &SVector<f64, 7>,
) -> SVector<f64, 7> {
    let q = Quaternion::new(x[0], x[1], x[2], x[3]);
    let omega = Vector3::new(x[4], x[5], x[6]);
    let tau = torque.body_torque(t, &q, &omega);
    let dq = times_pure(&q, &omega) * 0.5;
    let dw = body.angular_acceleration(&omega, &tau);
    SVector::<f64, 7>::from([dq.w, dq.i, dq.j, dq.k, dw.x, dw.y, dw.z])
}

/// The state at `t_end` from `start`, by Hairer's DOP853 on the ambient ODE [`ambient_rhs`]
/// with `rtol = atol = `[`REFERENCE_TOLERANCE`] — a method unrelated to the rotational
/// steppers, for order and error measurements where no exact solution is known. The rotor is
/// returned as integrated (its norm stays 1 to about the tolerance; it is not normalised).
///
/// # Errors
/// Those of the integration (a non-finite torque, step-size underflow), and
/// [`Error::InvalidParameter`] naming `t_end` if it is not finite.
pub fn reference_solution<T: Torque>(
    body: &RigidBody,
    torque: &T,
    start: &RotationalState,
    t_end: f64,
) -> Result<RotationalState> {
    crate::error::check_finite("t_end", t_end)?;
    if !t_end.is_finite() {
        return Err(Error::InvalidParameter {
            name: "t_end",
            value: format!("{t_end:e}"),
            expected: "a finite time".into(),
        });
    }
    if t_end == start.t {
        return Ok(*start);
    }
    Ok(ambient_dop853(body, torque, start, t_end, REFERENCE_TOLERANCE)?.0)
}

/// Hairer's DOP853 at `rtol = atol = tolerance` on the ambient ODE [`ambient_rhs`] from `start`
/// to `t_end`: the state at `t_end` (the rotor as integrated, not normalised) and the number of
/// right-hand-side evaluations. [`reference_solution`] is this at [`REFERENCE_TOLERANCE`].
///
/// # Errors
/// Those of the tolerances and of the integration.
pub fn ambient_dop853<T: Torque>(
    body: &RigidBody,
    torque: &T,
    start: &RotationalState,
    t_end: f64,
    tolerance: f64,
) -> Result<(RotationalState, usize)> {
    let x0 = SVector::<f64, 7>::from([
        start.q.w,
        start.q.i,
        start.q.j,
        start.q.k,
        start.omega.x,
        start.omega.y,
        start.omega.z,
    ]);
    // Hairer's summation: the reference is the Fortran code's arithmetic, whatever the
    // library's default.
    let method = Dop853::new(
        Tolerances::scalar(tolerance, tolerance)?,
        ControllerParameters::dop853(),
    )?
    .with_summation(Summation::Hairer);
    let mut rhs = |t: f64, x: &SVector<f64, 7>| ambient_rhs(body, torque, t, x);
    let sol = integrate(
        &mut VectorStepper::new(method),
        &mut rhs,
        &x0,
        &Span::new(start.t, t_end)?,
        Options::record(Record::Ends),
    )?;
    let (t, x) = sol.last().ok_or(Error::NonFiniteState {
        what: "DOP853 solution",
        t: t_end,
    })?;
    let state = RotationalState::new(
        t,
        Quaternion::new(x[0], x[1], x[2], x[3]),
        Vector3::new(x[4], x[5], x[6]),
    );
    Ok((state, sol.stats.rhs_evaluations))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::NoTorque;

    #[test]
    fn free_rotation_about_a_principal_axis_is_exact() {
        // ω = (0, 0, w) about a principal axis stays constant; q = exp(t w/2 e_z).
        let body = RigidBody::new([1.0, 2.0, 2.5]).unwrap();
        let w = 0.7;
        let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.0, 0.0, w));
        let end = reference_solution(&body, &NoTorque, &start, 3.0).unwrap();
        let half = 0.5 * w * 3.0;
        let exact = Quaternion::new(half.cos(), 0.0, 0.0, half.sin());
        assert!((end.q - exact).norm() < 1e-12);
        assert!((end.omega - start.omega).norm() < 1e-14);
    }
}
