//! Every information row of the catalogue against measurement: for each method of the table
//! ([`catalogue::NAMES`], iterated, with its row from [`catalogue::info`]) the global orders in
//! `q` and `ω` are measured on an asymmetric body under a torque that depends on the attitude
//! and on time, against a reference computed independently of the method (Hairer's DOP853 on
//! Euler's equations and the quaternion kinematics at `rtol = atol = 1e-13`,
//! [`reference_solution`]), and asserted equal to the row's `order` within ±0.2 (the measured
//! order is the least-squares slope of `log(error)` over `log(dt)`, conventions §7).

use lieode::body::{Frame, Orientation, Torque};
use lieode::order::observed_order;
use lieode::problems::reference::reference_solution;
use lieode::rotation::{MethodInfo, RigidBody, RotationalState, catalogue};
use lieode::stepper::Span;
use nalgebra::{Quaternion, Vector3};

/// A gravity-like torque with a time-dependent part, in the lab frame: a force `F(t)` at the
/// body point `r` (`τ = (R r) × F(t)`, attitude- and time-dependent) plus a lab torque `c(t)`.
/// It does not depend on `ω`: the leapfrog methods evaluate the torque with a half-step-old
/// `ω`, which would lower their order under a rate-dependent torque.
#[derive(Debug, Clone, Copy)]
struct Gravity;

impl Torque for Gravity {
    fn frame(&self) -> Frame {
        Frame::Lab
    }

    fn torque<A: Orientation<f64>>(
        &self,
        t: f64,
        attitude: &A,
        _omega: &Vector3<f64>,
    ) -> Vector3<f64> {
        let arm = attitude.to_lab(&Vector3::new(0.2, -0.3, 0.25));
        let force = Vector3::new(0.5 * (3.0 * t).sin(), 0.4, -1.5 - 0.5 * (2.0 * t).cos());
        arm.cross(&force) + Vector3::new(0.1 * t.cos(), 0.2 * (2.0 * t).sin(), -0.15)
    }
}

/// The asymmetric body and a general start (neither the identity nor a principal axis).
fn asymmetric() -> (RigidBody, RotationalState) {
    let body = RigidBody::new([1.0, 2.0, 2.5]).expect("a valid body");
    let q0 = Quaternion::new(0.9, 0.2, -0.3, 0.25).normalize();
    let start = RotationalState::new(0.0, q0, Vector3::new(0.6, -0.8, 1.0));
    (body, start)
}

/// The step counts over `t ∈ [0, 1]` for a method of stated order `p`: inside the asymptotic
/// regime and above the reference's tolerance (errors between about 1e-3 and 1e-11, the
/// reference's 1e-13 a hundredth of the smallest).
fn step_counts(p: u8) -> [usize; 4] {
    match p {
        1 => [1000, 2000, 4000, 8000],
        2 => [250, 500, 1000, 2000],
        3 => [100, 200, 400, 800],
        _ => [20, 40, 80, 160],
    }
}

/// The errors `|q − q_ref|` at `t_n` and `|ω − ω_ref|` at the time the method's `ω` belongs to
/// (`t_n − dt/2` for the leapfrog methods, as the stepper reports it) after `steps` steps of
/// `1/steps`.
fn errors(row: &MethodInfo, body: RigidBody, start: &RotationalState, steps: usize) -> [f64; 2] {
    let mut torque = Gravity;
    let mut stepper = catalogue::stepper::<Gravity>(row.name, body).expect("a catalogue method");
    let dt = 1.0 / steps as f64;
    let span = Span::stride(start.t, dt, steps).expect("a valid span");
    stepper
        .start(&mut torque, &span, start)
        .expect("a valid start");
    for _ in 0..steps {
        stepper.step(&mut torque).expect("a finite step");
    }
    let at_q = reference_solution(&body, &Gravity, start, stepper.time()).expect("a reference");
    let (t_omega, omega) = stepper.angular_velocity();
    if row.leapfrog {
        // The half-step ω is compared at its own time, not at t_n.
        assert!(
            (t_omega - (stepper.time() - 0.5 * dt)).abs() < 1e-12,
            "{}: ω at t = {t_omega}",
            row.name
        );
    } else {
        assert_eq!(t_omega, stepper.time(), "{}", row.name);
    }
    let at_omega = reference_solution(&body, &Gravity, start, t_omega).expect("a reference");
    [
        (stepper.orientation() - at_q.q).norm(),
        (omega - at_omega.omega).norm(),
    ]
}

#[test]
fn every_row_states_the_orders_it_reaches() {
    let (body, start) = asymmetric();
    // The generic Lie-group engines (rkmk4, cg4a) carry no row: their order is their
    // tableau's, measured with the engines in tests/orders.rs.
    let rows: Vec<MethodInfo> = catalogue::NAMES
        .iter()
        .filter_map(|name| catalogue::info(name))
        .collect();
    assert!(!rows.is_empty(), "the catalogue has rows");
    let mut wrong = Vec::new();
    for row in &rows {
        let counts = step_counts(row.order[0].max(row.order[1]));
        let dts: Vec<f64> = counts.iter().map(|&n| 1.0 / n as f64).collect();
        let runs: Vec<[f64; 2]> = counts
            .iter()
            .map(|&n| errors(row, body, &start, n))
            .collect();
        let mut measured = [0.0; 2];
        for (component, slope) in measured.iter_mut().enumerate() {
            let e: Vec<f64> = runs.iter().map(|r| r[component]).collect();
            *slope = observed_order(&dts, &e).expect("positive finite errors");
        }
        let shown: Vec<String> = runs
            .iter()
            .map(|[q, w]| format!("({q:.3e}, {w:.3e})"))
            .collect();
        eprintln!(
            "{:16} stated {:?}  measured q {:.3}  ω {:.3}  errors {}",
            row.name,
            row.order,
            measured[0],
            measured[1],
            shown.join(" ")
        );
        for (slope, stated) in measured.iter().zip(row.order) {
            if (slope - f64::from(stated)).abs() > 0.2 {
                wrong.push(format!(
                    "{}: stated {:?}, measured [{:.3}, {:.3}]",
                    row.name, row.order, measured[0], measured[1]
                ));
                break;
            }
        }
    }
    assert!(wrong.is_empty(), "rows that disagree: {wrong:#?}");
}
