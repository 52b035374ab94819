//! Helpers of the many-body tests: a fixed-step run to the end, the damped sphere with its
//! closed form, order assertions.

use lieode::body::Frame;
use lieode::body::Torque;
use lieode::integrate::{Options, Record, integrate};
use lieode::momentum::HeavyTopTorque;
use lieode::problems::TorquedRigidBody;
use lieode::problems::cylinder::SpiralCylinder;
use lieode::rotation::{ConstantBodyTorque, RigidBody, RotationalState, catalogue};
use lieode::stepper::{Span, Stepper};
use lieode::system::{Body, BodyFn, BodyView, EveryBody, PerBody, SystemForces, SystemState};
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

pub fn damped_sphere(b: &BodyView<'_>) -> (Vector3<f64>, Vector3<f64>) {
    let (_, gamma, c) = DAMPED;
    let (v, q, w) = (b.velocity, b.rotor, b.omega);
    let lab = q * Quaternion::from_imag(-c * 0.2 * w) * q.conjugate();
    (-gamma * v, lab.imag() / q.norm_squared())
}

/// The errors at t = 2 in v, x and ω of the damped sphere for each step count, against the
/// closed forms `v₀ e^{−γt/m}`, `v₀ m/γ (1 − e^{−γt/m})` and `ω₀ e^{−ct}`.
pub fn damped_sphere_errors<S: Stepper<PerBody<BodyFn>, State = SystemState>>(
    make: impl Fn(Body) -> S,
    omega0: Vector3<f64>,
    steps: [usize; 3],
) -> lieode::Result<[(&'static str, Vec<f64>); 3]> {
    let (m, gamma, c) = DAMPED;
    let ball = Body::solid_sphere(m, 0.5)?;
    let mut damped = PerBody {
        frame: Frame::Lab,
        model: damped_sphere as BodyFn,
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

/// One body under `torque` from `start` (1000 steps of 1e-3): the system `system(body)` ends
/// where the catalogue's single-body method `name` does — rotor, angular velocity and time bit
/// for bit — and keeps its velocity.
pub fn same_as_single_body<S, T>(
    name: &str,
    system: impl FnOnce(Body) -> S,
    rigid: RigidBody,
    torque: T,
    start: RotationalState,
) -> lieode::Result<()>
where
    S: Stepper<EveryBody<T>, State = SystemState>,
    T: Torque + Clone + 'static,
{
    let span = Span::stride(start.t, 1e-3, 1000)?;
    let mut single = catalogue::stepper::<T>(name, rigid)?;
    let reference = integrate(
        &mut *single,
        &mut torque.clone(),
        &start,
        &span,
        Options::record(Record::Ends),
    )?;
    let reference = reference.states.last().expect("the final state");
    let mut y0 = SystemState::at_rest(start.t, 1);
    y0.rotors[0] = start.q;
    y0.omegas[0] = start.omega;
    y0.velocities[0] = Vector3::new(0.1, 0.2, 0.3);
    let body = Body::new(2.0, rigid.inertia().into())?;
    let end = run(&mut system(body), &mut EveryBody(torque), &y0, 1e-3, 1000)?;
    assert_eq!(end.rotors[0], reference.q, "{name}");
    assert_eq!(end.omegas[0], reference.omega, "{name}");
    assert_eq!(end.t, reference.t, "{name}");
    assert_eq!(end.velocities[0], y0.velocities[0], "{name}");
    Ok(())
}

/// [`same_as_single_body`] under three torques: the SPIRAL cylinder's constant body torque, the
/// engines' manufactured torque (time-, attitude- and ω-dependent, so the points the torque is
/// taken at must agree exactly) and Krysl's heavy top (a spatial torque).
pub fn same_under_three_torques<S>(name: &str, system: impl Fn(Body) -> S) -> lieode::Result<()>
where
    S: Stepper<EveryBody<ConstantBodyTorque>, State = SystemState>
        + Stepper<EveryBody<TorquedRigidBody>, State = SystemState>
        + Stepper<EveryBody<HeavyTopTorque>, State = SystemState>,
{
    let cylinder = SpiralCylinder::paper()?;
    let constant: ConstantBodyTorque = cylinder.torque();
    same_as_single_body(
        name,
        &system,
        *cylinder.body(),
        constant,
        cylinder.initial_state(),
    )?;
    let manufactured = TorquedRigidBody::default();
    let exact = manufactured.exact_quaternion(0.0);
    let start = RotationalState::new(0.0, *exact.0.quaternion(), exact.1.0);
    let rigid = RigidBody::new(manufactured.inertia().into())?;
    same_as_single_body(name, &system, rigid, manufactured, start)?;
    let top = RotationalState::new(
        0.0,
        Quaternion::new(0.9, 0.3, 0.1, 0.0).normalize(),
        Vector3::new(0.5, -1.0, 3.0),
    );
    let rigid = RigidBody::new([5.0, 5.0, 1.0])?;
    same_as_single_body(name, &system, rigid, HeavyTopTorque::krysl(), top)
}

/// A model whose load on body `body` turns non-finite at `t ≥ 0.05`: the torque (lab frame) if
/// `torque`, else the force.
#[derive(Debug, Clone, Copy)]
pub struct Faulty {
    pub body: usize,
    pub torque: bool,
}

impl SystemForces for Faulty {
    fn torque_frame(&self) -> Frame {
        Frame::Lab
    }

    fn loads(&mut self, view: &lieode::system::SystemView<'_>, loads: &mut lieode::system::Loads) {
        if view.t >= 0.05 {
            let bad = Vector3::new(f64::NAN, 0.0, 0.0);
            if self.torque {
                loads.torques[self.body] = bad;
            } else {
                loads.forces[self.body] = bad;
            }
        }
    }
}

/// A NaN force on body 2 from t = 0.05.
pub fn force_on_2() -> Faulty {
    Faulty {
        body: 2,
        torque: false,
    }
}
