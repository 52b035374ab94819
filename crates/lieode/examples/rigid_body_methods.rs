//! Every method of the rotational catalogue, by name, on one torqued rigid body.
//!
//! The body (`lieode::problems::TorquedRigidBody`) is a damped heavy top, `J = diag(1, 2, 2.5)`,
//! whose body torque depends on the attitude (gravity), the angular velocity (damping) and time
//! (a manufactured torque that makes a known rotation the exact solution). Each method of
//! `lieode::rotation::catalogue::NAMES` is built by `catalogue::stepper(name, body)` and driven by
//! the one `lieode::integrate::integrate` over t ∈ [0, 2] at h = 0.02 and h = 0.01. The table
//! prints, for each method, the attitude error (the rotation angle between the computed and the
//! exact rotor) and the angular-velocity error `|ω − ω*|` at t = 2 for both step sizes, the
//! observed order `log₂(e_h / e_{h/2})` of each, and the torque evaluations of the finer run.
//!
//! ```text
//! cargo run --release --example rigid_body_methods
//! ```

use lieode::integrate::{Options, Record, integrate};
use lieode::lie::LieGroup;
use lieode::lie::unit_quaternion::UnitQuat;
use lieode::problems::TorquedRigidBody;
use lieode::rotation::{RigidBody, RotationalState, catalogue};
use lieode::stepper::Span;

const T_END: f64 = 2.0;
const STEPS: [usize; 2] = [100, 200];

/// Attitude error, angular-velocity error and torque evaluations of `name` with `n` steps.
fn run(name: &str, problem: &TorquedRigidBody, n: usize) -> lieode::Result<(f64, f64, usize)> {
    let body = RigidBody::new(TorquedRigidBody::DEFAULT_INERTIA)?;
    let exact = problem.exact_quaternion(0.0);
    let start = RotationalState::new(0.0, *exact.0.quaternion(), exact.1.0);
    let mut method = catalogue::stepper(name, body)?;
    let span = Span::stride(0.0, T_END / n as f64, n)?;
    let mut torque = *problem;
    let sol = integrate(
        &mut *method,
        &mut torque,
        &start,
        &span,
        Options::record(Record::Ends),
    )?;
    let (t, end) = sol.last().ok_or(lieode::Error::InvalidParameter {
        name: "solution",
        value: "no final state".into(),
        expected: "a recorded final state".into(),
    })?;
    let exact = problem.exact_quaternion(t);
    let q = UnitQuat::from_quaternion_normalized(end.q)?;
    let attitude_error = q.distance(&exact.0)?;
    let omega_error = (end.omega - exact.1.0).norm();
    Ok((attitude_error, omega_error, sol.stats.rhs_evaluations))
}

fn main() -> lieode::Result<()> {
    let problem = TorquedRigidBody::default();
    let [coarse, fine] = STEPS.map(|n| T_END / n as f64);
    println!(
        "{:<16} {:>10} {:>10} {:>6} | {:>10} {:>10} {:>6} | {:>7}",
        "method",
        format!("q h={coarse}"),
        format!("q h={fine}"),
        "order",
        format!("ω h={coarse}"),
        format!("ω h={fine}"),
        "order",
        "torques"
    );
    for name in catalogue::NAMES {
        let (q1, w1, _) = run(name, &problem, STEPS[0])?;
        let (q2, w2, evaluations) = run(name, &problem, STEPS[1])?;
        println!(
            "{name:<16} {q1:>10.2e} {q2:>10.2e} {:>6.2} | {w1:>10.2e} {w2:>10.2e} {:>6.2} | {evaluations:>7}",
            (q1 / q2).log2(),
            (w1 / w2).log2(),
        );
    }
    println!(
        "(errors at t = {T_END}: q = rotation angle to the exact attitude, ω = |ω − ω*|; order = \
         log₂ of the error ratio; torques = evaluations of the h = {fine} run, start and \
         synchronisation included)"
    );
    Ok(())
}
