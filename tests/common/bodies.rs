//! Helpers of the many-body tests: a fixed-step run to the end, the damped sphere with its
//! closed form, order assertions.

use lieode::integrate::{Options, Record, integrate};
use lieode::stepper::{Span, Stepper};
use lieode::system::{Body, PerBody, SystemForces, SystemState, TorqueFrame};
use nalgebra::{Quaternion, Vector3};

/// The final state of `steps` steps of `dt` from `y0`.
pub fn run<P: SystemForces, S: Stepper<P, State = SystemState>>(
    stepper: &mut S,
    forces: &mut P,
    y0: &SystemState,
    dt: f64,
    steps: usize,
) -> lieode::Result<SystemState> {
    let span = Span::stride(y0.t, dt, steps)?;
    let sol = integrate(stepper, forces, y0, &span, Options::record(Record::Ends))?;
    Ok(sol.states.last().expect("the final state").clone())
}

/// The drag `F = −γ v` and the damping torque `τ = −cJ ω_b` (written in the lab frame,
/// `R(−cJω_b)`) on a sphere of mass 2 and radius 0.5 (`J = 0.2`).
pub const DAMPED: (f64, f64, f64) = (2.0, 0.8, 0.5);

/// A per-body model as a function pointer.
pub type BodyFnPtr = fn(
    usize,
    f64,
    &Vector3<f64>,
    &Vector3<f64>,
    &Quaternion<f64>,
    &Vector3<f64>,
) -> (Vector3<f64>, Vector3<f64>);

pub fn damped_sphere(
    _i: usize,
    _t: f64,
    _x: &Vector3<f64>,
    v: &Vector3<f64>,
    q: &Quaternion<f64>,
    w: &Vector3<f64>,
) -> (Vector3<f64>, Vector3<f64>) {
    let (_, gamma, c) = DAMPED;
    let lab = q * Quaternion::from_imag(-c * 0.2 * w) * q.conjugate();
    (-gamma * v, lab.imag() / q.norm_squared())
}

/// The errors at t = 2 in v, x and ω of the damped sphere for each step count, against the
/// closed forms `v₀ e^{−γt/m}`, `v₀ m/γ (1 − e^{−γt/m})` and `ω₀ e^{−ct}`.
pub fn damped_sphere_errors<S: Stepper<PerBody<BodyFnPtr>, State = SystemState>>(
    make: impl Fn(Body) -> S,
    omega0: Vector3<f64>,
    steps: [usize; 3],
) -> lieode::Result<[(&'static str, Vec<f64>); 3]> {
    let (m, gamma, c) = DAMPED;
    let ball = Body::solid_sphere(m, 0.5)?;
    let mut damped = PerBody {
        frame: TorqueFrame::Lab,
        model: damped_sphere as BodyFnPtr,
    };
    let mut y0 = SystemState::at_rest(0.0, 1);
    y0.velocities[0] = Vector3::new(1.0, -0.5, 0.25);
    y0.omegas[0] = omega0;
    let t_end = 2.0;
    let decay = (-gamma * t_end / m).exp();
    let (mut v_errors, mut x_errors, mut w_errors) = (Vec::new(), Vec::new(), Vec::new());
    for n in steps {
        let end = run(&mut make(ball), &mut damped, &y0, t_end / n as f64, n)?;
        v_errors.push((end.velocities[0] - y0.velocities[0] * decay).norm());
        x_errors.push((end.positions[0] - y0.velocities[0] * (m / gamma) * (1.0 - decay)).norm());
        w_errors.push((end.omegas[0] - omega0 * (-c * t_end).exp()).norm());
    }
    Ok([("v", v_errors), ("x", x_errors), ("ω", w_errors)])
}

/// Asserts every observed order of `errors` within `band` of `order`.
pub fn assert_orders(errors: &[(&str, Vec<f64>)], order: f64, band: f64) {
    for (name, e) in errors {
        for w in e.windows(2) {
            let observed = (w[0] / w[1]).log2();
            assert!(
                (observed - order).abs() < band,
                "{name} order {observed}: {e:?}"
            );
        }
    }
}
