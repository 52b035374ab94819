//! SPIRAL (leapfrog and synchronous), Omelyan, SPIRAL + Omelyan and SPIRAL–Magnus: measured
//! orders in q and ω against DOP853 references, norm preservation without renormalisation,
//! SPIRAL's ω map against the SSPRK3 engine, leapfrog bookkeeping and bad input.

use lieode::Error;
use lieode::body::quaternion::rotate;
use lieode::body::{Frame, Orientation, Torque};
use lieode::engine::{ExplicitRk, Stats, Step};
use lieode::order::observed_order;
use lieode::problems::reference::reference_solution;
use lieode::rotation::{
    BodyTorque, CatalogueStepper, ConstantBodyTorque, EulerSsprk3, LabTorque, NoTorque,
    OmegaIntegrator, Omelyan, Renormalisation, RigidBody, RotationalMethod, RotationalState,
    Spiral, SpiralLeapfrog, SpiralMagnus, SpiralOmelyan,
};
use lieode::stepper::{Span, Stepper, StepperInfo};
use lieode::tableau::registry::SSPRK3;
use nalgebra::{Quaternion, Vector3};
use std::cell::Cell;
use std::f64::consts::PI;

mod common;
use common::counting::Counting;

/// The step sizes of the order measurements (algorithms.md §1.3: the asymptotic regime above
/// round-off for t = 1).
const STEPS: [f64; 4] = [2e-3, 1e-3, 5e-4, 2.5e-4];

/// Larger steps for the asymmetric body under a constant body torque, where the third-order
/// errors are small: ≈ 3e-11 at dt = 1e-3, a few hundred times the round-off accumulated over
/// its 1000 steps, but ≈ 5e-13 at dt = 2.5e-4, about n·ε for n = 4000 steps, where the slope
/// depends on how the rounding falls.
const COARSE_STEPS: [f64; 4] = [8e-3, 4e-3, 2e-3, 1e-3];

/// A torque law `f(t, q, ω)`.
type TorqueFn = fn(f64, &Quaternion<f64>, &Vector3<f64>) -> Vector3<f64>;

/// A gravity-like torque given in the lab frame: a time-dependent force `F(t)` acting at the
/// body point `r` (body frame), `τ_lab = (q r q̄) × F(t)` — depends on the attitude and the time,
/// not on ω (the leapfrog methods evaluate the torque with the half-step ω).
fn pendulum() -> LabTorque<TorqueFn> {
    LabTorque(|t, q, _w| {
        let arm = rotate(q, &Vector3::new(0.15, -0.25, 0.3));
        let force = Vector3::new(0.6 * (3.0 * t).sin(), 0.4, -1.5 - 0.5 * (2.0 * t).cos());
        arm.cross(&force)
    })
}

/// The asymmetric test body and its start.
fn asymmetric() -> (RigidBody, RotationalState) {
    let body = RigidBody::new([1.0, 2.0, 2.5]).unwrap();
    let q0 = Quaternion::new(0.9, 0.1, -0.3, 0.2).normalize();
    let start = RotationalState::new(0.0, q0, Vector3::new(0.7, -0.9, 1.1));
    (body, start)
}

/// The SPIRAL paper's steel cylinder (§3), exact inertia, ω0 = (0.3, −0.9, 0.6), q0 = 1.
fn cylinder() -> (RigidBody, RotationalState) {
    let (rho, r, h) = (7750.0, 0.05, 0.15);
    let m = rho * PI * r * r * h;
    let ix = m * r * r / 2.0;
    let iy = m * h * h / 12.0 + m * r * r / 4.0;
    let body = RigidBody::new([ix, iy, iy]).unwrap();
    let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
    (body, start)
}

fn cylinder_torque() -> ConstantBodyTorque {
    ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0))
}

/// The errors in q (at t_n) and in ω (at the time it belongs to: t_n, or t_n − dt/2 for the
/// leapfrog methods) after `round(t_end/dt)` steps, against DOP853 at 1e-13.
fn errors<T, S>(
    mut stepper: S,
    torque: &T,
    start: &RotationalState,
    dt: f64,
    t_end: f64,
) -> (f64, f64)
where
    T: Torque + Clone,
    S: CatalogueStepper<T>,
{
    let mut field = torque.clone();
    let steps = (t_end / dt).round() as usize;
    stepper
        .start(&mut field, &Span::open(start.t, dt).unwrap(), start)
        .unwrap();
    for _ in 0..steps {
        stepper.step(&mut field).unwrap();
    }
    let body = *stepper.body();
    let at_q = reference_solution(&body, &torque.clone(), start, stepper.time()).unwrap();
    let (t_omega, omega) = stepper.angular_velocity();
    let at_omega = reference_solution(&body, &torque.clone(), start, t_omega).unwrap();
    (
        (stepper.orientation() - at_q.q).norm(),
        (omega - at_omega.omega).norm(),
    )
}

/// The measured orders (q, ω) of a method over the step sizes `steps`.
fn orders<T, S>(
    make: impl Fn(RigidBody) -> S,
    body: RigidBody,
    torque: &T,
    start: &RotationalState,
    steps: &[f64; 4],
) -> (f64, f64)
where
    T: Torque + Clone,
    S: CatalogueStepper<T>,
{
    let (mut eq, mut ew) = (Vec::new(), Vec::new());
    for &dt in steps {
        let (q, w) = errors(make(body), torque, start, dt, 1.0);
        eq.push(q);
        ew.push(w);
    }
    let pq = observed_order(steps, &eq).unwrap();
    let pw = observed_order(steps, &ew).unwrap();
    let name = make(body).name().to_owned();
    let fmt = |v: &[f64]| {
        v.iter()
            .map(|e| format!("{e:.3e}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    eprintln!(
        "{name}: q [{}] -> {pq:.3}; ω [{}] -> {pw:.3}",
        fmt(&eq),
        fmt(&ew)
    );
    (pq, pw)
}

fn assert_in(what: &str, value: f64, low: f64, high: f64) {
    assert!(
        (low..=high).contains(&value),
        "{what}: measured {value:.3}, expected in [{low}, {high}]"
    );
}

fn all_methods(body: RigidBody) -> Vec<Box<dyn CatalogueStepper<Counting<ConstantBodyTorque>>>> {
    vec![
        Box::new(SpiralLeapfrog::new(body)),
        Box::new(Spiral::new(body)),
        Box::new(Omelyan::new(body)),
        Box::new(SpiralOmelyan::new(body)),
        Box::new(SpiralMagnus::new(body)),
    ]
}

// ---------------------------------------------------------------------------------------------
// Measured orders.

/// Asserts the measured orders `(q, ω)` of the SPIRAL family on one problem over `steps`, each
/// within ±0.1 of the expected value (`None`: the method is not checked on this problem).
fn expect_orders<T: Torque + Clone>(
    body: RigidBody,
    torque: &T,
    start: &RotationalState,
    steps: &[f64; 4],
    expected: [Option<(f64, f64)>; 5],
) {
    let measured = [
        (
            "spiral_leapfrog",
            expected[0].map(|_| orders(SpiralLeapfrog::new, body, torque, start, steps)),
        ),
        (
            "spiral",
            expected[1].map(|_| orders(Spiral::new, body, torque, start, steps)),
        ),
        (
            "omelyan",
            expected[2].map(|_| orders(Omelyan::new, body, torque, start, steps)),
        ),
        (
            "spiral_omelyan",
            expected[3].map(|_| orders(SpiralOmelyan::new, body, torque, start, steps)),
        ),
        (
            "spiral_magnus",
            expected[4].map(|_| orders(SpiralMagnus::new, body, torque, start, steps)),
        ),
    ];
    for ((name, got), want) in measured.into_iter().zip(expected) {
        if let (Some((q, w)), Some((pq, pw))) = (got, want) {
            assert_in(&format!("{name} q"), q, pq - 0.1, pq + 0.1);
            assert_in(&format!("{name} ω"), w, pw - 0.1, pw + 0.1);
        }
    }
}

#[test]
fn orders_on_an_asymmetric_body_under_an_attitude_and_time_dependent_torque() {
    let (body, start) = asymmetric();
    // The frozen torque is what limits SPIRAL here: at the midpoint (leapfrog) it is a
    // midpoint rule, second order; at the start of the step (synchronous) first order.
    let expected = [
        Some((2.0, 2.0)),
        Some((1.0, 1.0)),
        Some((2.0, 2.0)),
        Some((2.0, 2.0)),
        Some((3.0, 3.0)),
    ];
    expect_orders(body, &pendulum(), &start, &STEPS, expected);
}

#[test]
fn orders_on_the_spiral_cylinder() {
    let (body, start) = cylinder();
    // The paper's benchmark: SPIRAL's ω is third order, its q second order.
    let expected = [
        Some((2.0, 3.0)),
        Some((2.0, 3.0)),
        Some((2.0, 2.0)),
        Some((2.0, 2.0)),
        Some((3.0, 3.0)),
    ];
    expect_orders(body, &cylinder_torque(), &start, &STEPS, expected);
}

#[test]
fn orders_on_an_asymmetric_body_under_a_constant_body_torque() {
    // SPIRAL's ω is third order for any body when the torque is constant in the body frame.
    let (body, start) = asymmetric();
    let expected = [
        Some((2.0, 3.0)),
        Some((2.0, 3.0)),
        None,
        None,
        Some((3.0, 3.0)),
    ];
    expect_orders(body, &cylinder_torque(), &start, &COARSE_STEPS, expected);
}

// ---------------------------------------------------------------------------------------------
// Norm preservation, SSPRK3, bookkeeping.

#[test]
fn the_rotor_stays_unit_without_renormalisation() {
    // Free rotation of the asymmetric body, steps of dt = 1e-2.
    let (body, start) = asymmetric();
    // 10⁶ steps in an optimised build (~0.1 s); 10⁵ in a debug build.
    let steps = if cfg!(debug_assertions) {
        100_000
    } else {
        1_000_000
    };
    let check = |name: &str, q: Quaternion<f64>| {
        let drift = (q.norm() - 1.0).abs();
        eprintln!("{name}: ||q| − 1| = {drift:.2e} after {steps} steps");
        // Round-off only: a random walk of a few ulps per step, ~ √N ε ≈ 2e-13.
        assert!(drift < 5e-13, "{name}: ||q| − 1| = {drift:e}");
    };
    macro_rules! run {
        ($method:expr) => {{
            let mut m = $method;
            assert_eq!(m.renormalisation(), Renormalisation::Never);
            m.start(&mut NoTorque, &Span::open(start.t, 1e-2).unwrap(), &start)
                .unwrap();
            for _ in 0..steps {
                m.step(&mut NoTorque).unwrap();
            }
            check(m.name(), m.orientation());
        }};
    }
    run!(SpiralLeapfrog::new(body));
    run!(Spiral::new(body));
    run!(Omelyan::new(body));
    run!(SpiralOmelyan::new(body));
    run!(SpiralMagnus::new(body));
}

#[test]
fn spirals_omega_update_is_the_ssprk3_engine_with_frozen_torque() {
    let (body, start) = asymmetric();
    let tau = Vector3::new(0.2, -0.4, 0.35);
    let mut engine = ExplicitRk::<f64, 3>::new(&SSPRK3).unwrap();
    let mut stats = Stats::default();
    let mut euler = |_t: f64, w: &Vector3<f64>| body.angular_acceleration(w, &tau);
    let mut engine_step = |w: &Vector3<f64>, h: f64| {
        engine
            .step(&mut euler, 0.0, w, h, &mut stats)
            .unwrap()
            .state
    };
    let map = EulerSsprk3::new();
    let close = |a: Vector3<f64>, b: Vector3<f64>| (a - b).norm() <= 4.0 * f64::EPSILON * b.norm();
    for h in [0.1, 1e-3, -5e-4, -0.3] {
        let w = start.omega;
        assert!(
            close(map.advance(&body, &w, &tau, h), engine_step(&w, h)),
            "h = {h}"
        );
        // The general form (stage torques from a model) and the stepper's fixed-step form.
        assert!(
            close(map.advance_with(&body, &w, h, |_| tau), engine_step(&w, h)),
            "h = {h}"
        );
        assert!(
            close(
                map.with_step(&body, h).advance(&w, &tau),
                engine_step(&w, h)
            ),
            "h = {h}"
        );
    }

    // Inside the steppers: one SPIRAL step advances ω by the engine's step with the torque
    // frozen at t_n; the leapfrog start is the engine's step of −dt/2.
    let dt = 1e-2;
    let mut torque = ConstantBodyTorque(tau);
    let mut leapfrog = SpiralLeapfrog::new(body);
    leapfrog
        .start(&mut torque, &Span::open(start.t, dt).unwrap(), &start)
        .unwrap();
    assert!(close(
        leapfrog.angular_velocity().1,
        engine_step(&start.omega, -0.5 * dt)
    ));
    for _ in 0..5 {
        let before = leapfrog.angular_velocity().1;
        leapfrog.step(&mut torque).unwrap();
        assert!(close(
            leapfrog.angular_velocity().1,
            engine_step(&before, dt)
        ));
    }
    let mut synchronous = Spiral::new(body);
    synchronous
        .start(&mut torque, &Span::open(start.t, dt).unwrap(), &start)
        .unwrap();
    for _ in 0..5 {
        let before = synchronous.angular_velocity().1;
        synchronous.step(&mut torque).unwrap();
        assert!(close(
            synchronous.angular_velocity().1,
            engine_step(&before, dt)
        ));
    }
    // The SPIRAL Eqs. (9)–(10) written out agree too.
    let (w, h) = (start.omega, 0.05);
    let k1 = h * body.angular_acceleration(&w, &tau);
    let k2 = h * body.angular_acceleration(&(w + k1), &tau);
    let k3 = h * body.angular_acceleration(&(w + (k1 + k2) / 4.0), &tau);
    assert!(close(w + (k1 + k2 + 4.0 * k3) / 6.0, engine_step(&w, h)));
}

#[test]
fn one_torque_evaluation_per_step_and_the_metadata() {
    let (body, start) = asymmetric();
    let expected = [
        ("spiral_leapfrog", true, 1),
        ("spiral", false, 0),
        ("omelyan", true, 1),
        ("spiral_omelyan", true, 1),
        ("spiral_magnus", false, 2),
    ];
    for (mut m, (name, leapfrog, at_start)) in all_methods(body).into_iter().zip(expected) {
        assert_eq!(m.name(), name);
        assert_eq!(m.is_leapfrog(), leapfrog, "{name}");
        assert_eq!(m.renormalisation(), Renormalisation::Never, "{name}");
        assert_eq!(m.torque_evaluations_per_step(), 1, "{name}");
        let mut torque = Counting {
            inner: cylinder_torque(),
            count: Cell::new(0),
        };
        m.start(&mut torque, &Span::open(start.t, 1e-3).unwrap(), &start)
            .unwrap();
        assert_eq!(
            torque.count.get(),
            at_start,
            "{name}: evaluations at the start"
        );
        for _ in 0..10 {
            m.step(&mut torque).unwrap();
        }
        assert_eq!(
            torque.count.get(),
            at_start + 10,
            "{name}: evaluations per step"
        );
        // The synchronised state evaluates the torque once for the leapfrog methods only.
        let state = m.state(&mut torque).unwrap();
        assert_eq!(
            torque.count.get(),
            at_start + 10 + usize::from(leapfrog),
            "{name}"
        );
        assert_eq!(state.t, m.time(), "{name}");
        assert_eq!(state.q, m.orientation(), "{name}");
        assert!((m.time() - 1e-2).abs() < 1e-15, "{name}");
        let (t_omega, _) = m.angular_velocity();
        let offset = if leapfrog { 0.5e-3 } else { 0.0 };
        assert!((t_omega - (m.time() - offset)).abs() < 1e-15, "{name}");
    }
}

#[test]
fn leapfrog_starts_and_synchronised_states_are_consistent() {
    let (body, start) = asymmetric();
    let torque = pendulum();
    let mut field = torque;
    let tau0 = field.body_torque(start.t, &start.q, &start.omega);
    let dt = 1e-2;

    // The half step back of each method, and angular_velocity() at t_0 − dt/2.
    let mut spiral = SpiralLeapfrog::new(body);
    spiral
        .start(&mut field, &Span::open(start.t, dt).unwrap(), &start)
        .unwrap();
    let (t_half, w_half) = spiral.angular_velocity();
    assert_eq!(t_half, start.t - 0.5 * dt);
    assert_eq!(
        w_half,
        EulerSsprk3::new().advance(&body, &start.omega, &tau0, -0.5 * dt)
    );
    let euler_back = start.omega - body.angular_acceleration(&start.omega, &tau0) * (0.5 * dt);
    let mut omelyan = Omelyan::new(body);
    omelyan
        .start(&mut field, &Span::open(start.t, dt).unwrap(), &start)
        .unwrap();
    assert_eq!(omelyan.angular_velocity(), (t_half, euler_back));
    // SPIRAL + Omelyan starts like SPIRAL (the benchmark's choice; see its docs).
    let mut hybrid = SpiralOmelyan::new(body);
    hybrid
        .start(&mut field, &Span::open(start.t, dt).unwrap(), &start)
        .unwrap();
    assert_eq!(hybrid.angular_velocity(), spiral.angular_velocity());

    // The half-step values against the reference at t_0 − dt/2: with the torque frozen at t_0
    // both starts are locally O(dt²) when the torque varies along the motion; for a torque
    // constant in the body frame SPIRAL's SSPRK3 start is O(dt⁴), the explicit one O(dt²).
    fn start_error<T: Torque + Clone>(
        mut m: impl CatalogueStepper<T>,
        torque: &T,
        start: &RotationalState,
        dt: f64,
    ) -> f64 {
        m.start(
            &mut torque.clone(),
            &Span::open(start.t, dt).unwrap(),
            start,
        )
        .unwrap();
        let (t, w) = m.angular_velocity();
        let back = reference_solution(m.body(), &torque.clone(), start, t).unwrap();
        (w - back.omega).norm()
    }
    let ratio = |f: &dyn Fn(f64) -> f64| {
        let r = f(1e-2) / f(5e-3);
        eprintln!(
            "start error ratio {r:.3} (error {:.3e} at dt = 1e-2)",
            f(1e-2)
        );
        r.log2()
    };
    let constant = cylinder_torque();
    let p = ratio(&|dt| start_error(SpiralLeapfrog::new(body), &torque, &start, dt));
    assert_in("SSPRK3 start, varying torque", p, 1.9, 2.1);
    let p = ratio(&|dt| start_error(SpiralLeapfrog::new(body), &constant, &start, dt));
    assert_in("SSPRK3 start, constant torque", p, 3.9, 4.1);
    let p = ratio(&|dt| start_error(Omelyan::new(body), &torque, &start, dt));
    assert_in("explicit start, varying torque", p, 1.9, 2.1);
    let p = ratio(&|dt| start_error(Omelyan::new(body), &constant, &start, dt));
    assert_in("explicit start, constant torque", p, 1.9, 2.1);
    // SPIRAL + Omelyan starts with SPIRAL's SSPRK3 map.
    let p = ratio(&|dt| start_error(SpiralOmelyan::new(body), &constant, &start, dt));
    assert_in("SPIRAL + Omelyan start, constant torque", p, 3.9, 4.1);

    // The synchronised state at the start returns the start up to O(dt²) (half an explicit step
    // forward undoes the half step back to that order), and q and t exactly.
    for m in [
        &mut spiral as &mut dyn CatalogueStepper<_>,
        &mut omelyan,
        &mut hybrid,
    ] {
        let s = m.state(&mut field).unwrap();
        assert_eq!((s.t, s.q), (start.t, start.q));
        assert!(
            (s.omega - start.omega).norm() < 0.5 * dt.powi(2),
            "{}",
            m.name()
        );
    }

    // Started from the same physical state, every method's synchronised state converges to the
    // reference trajectory as dt → 0 (second order through the explicit half step).
    let t_end = 1.0;
    let exact = reference_solution(&body, &field, &start, t_end).unwrap();
    let sync_errors = |make: &dyn Fn() -> Box<dyn CatalogueStepper<_>>| {
        STEPS
            .iter()
            .map(|&dt| {
                let mut m = make();
                let mut f = torque;
                m.start(&mut f, &Span::open(start.t, dt).unwrap(), &start)
                    .unwrap();
                for _ in 0..(t_end / dt).round() as usize {
                    m.step(&mut f).unwrap();
                }
                let s = m.state(&mut f).unwrap();
                assert!((s.t - t_end).abs() < 1e-12);
                (s.omega - exact.omega).norm() + (s.q - exact.q).norm()
            })
            .collect::<Vec<f64>>()
    };
    type Make<'a, T> = &'a dyn Fn() -> Box<dyn CatalogueStepper<T>>;
    let makers: [(&str, Make<_>, f64); 5] = [
        (
            "spiral_leapfrog",
            &|| Box::new(SpiralLeapfrog::new(body)),
            2.0,
        ),
        ("spiral", &|| Box::new(Spiral::new(body)), 1.0),
        ("omelyan", &|| Box::new(Omelyan::new(body)), 2.0),
        (
            "spiral_omelyan",
            &|| Box::new(SpiralOmelyan::new(body)),
            2.0,
        ),
        ("spiral_magnus", &|| Box::new(SpiralMagnus::new(body)), 3.0),
    ];
    for (name, make, order) in makers {
        let e = sync_errors(make);
        let p = observed_order(&STEPS, &e).unwrap();
        eprintln!("{name}: synchronised state errors {e:?}, order {p:.3}");
        assert!(e[3] < 5e-5, "{name}: {e:?}");
        assert_in(name, p, order - 0.1, order + 0.1);
    }
}

#[test]
fn exponential_methods_are_exact_for_rotation_about_a_principal_axis() {
    // ω = (0, 0, w) about a principal axis of a free body is constant: q(t) = exp(t w/2 e_z).
    let body = RigidBody::new([1.0, 2.0, 2.5]).unwrap();
    let w = 0.8;
    let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.0, 0.0, w));
    let dt = 0.05;
    let half = 0.5 * w * 100.0 * dt;
    let exact = Quaternion::new(half.cos(), 0.0, 0.0, half.sin());
    macro_rules! check {
        ($method:expr) => {{
            let mut m = $method;
            m.start(&mut NoTorque, &Span::open(start.t, dt).unwrap(), &start)
                .unwrap();
            for _ in 0..100 {
                m.step(&mut NoTorque).unwrap();
            }
            assert!((m.orientation() - exact).norm() < 1e-14, "{}", m.name());
            assert_eq!(m.angular_velocity().1, start.omega, "{}", m.name());
        }};
    }
    check!(SpiralLeapfrog::new(body));
    check!(Spiral::new(body));
    check!(SpiralOmelyan::new(body));
    check!(SpiralMagnus::new(body));
}

#[test]
fn a_restart_resets_the_torque_history_of_spiral_magnus() {
    let (body, start) = asymmetric();
    let mut torque = pendulum();
    let run = |m: &mut SpiralMagnus, torque: &mut _| {
        m.start(torque, &Span::open(start.t, 1e-2).unwrap(), &start)
            .unwrap();
        for _ in 0..20 {
            m.step(torque).unwrap();
        }
        (m.orientation(), m.angular_velocity())
    };
    let mut fresh = SpiralMagnus::new(body);
    let first = run(&mut fresh, &mut torque);
    let mut reused = SpiralMagnus::new(body);
    let other = RotationalState::new(0.3, Quaternion::new(0.0, 1.0, 0.0, 0.0), Vector3::zeros());
    reused
        .start(&mut torque, &Span::open(other.t, 2e-2).unwrap(), &other)
        .unwrap();
    for _ in 0..7 {
        reused.step(&mut torque).unwrap();
    }
    assert_eq!(run(&mut reused, &mut torque), first);
}

// ---------------------------------------------------------------------------------------------
// Bad input.

#[test]
fn bad_input_is_reported_by_name() {
    let (body, start) = asymmetric();
    for mut m in all_methods(body) {
        let name = m.name().to_owned();
        let mut torque = Counting {
            inner: cylinder_torque(),
            count: Cell::new(0),
        };
        // Before the start.
        assert!(matches!(
            m.step(&mut torque),
            Err(Error::InvalidParameter { name: "start", .. })
        ));
        assert!(m.state(&mut torque).is_err(), "{name}");
        for dt in [0.0, -1e-3, f64::NAN, f64::INFINITY] {
            // A zero or non-finite step is refused by the span, a negative one by the method.
            let started =
                Span::open(start.t, dt).and_then(|span| m.start(&mut torque, &span, &start));
            let named_dt = if dt.is_finite() {
                matches!(started, Err(Error::InvalidParameter { name: "dt", .. }))
            } else {
                matches!(started, Err(Error::NonFinite { name: "dt" }))
            };
            assert!(named_dt, "{name}: dt = {dt}: {started:?}");
        }
        let mut bad = start;
        bad.omega.y = f64::NAN;
        assert!(
            matches!(
                m.start(&mut torque, &Span::open(bad.t, 1e-3).unwrap(), &bad),
                Err(Error::NonFinite { name: "state" })
            ),
            "{name}"
        );
        assert!(
            m.step(&mut torque).is_err(),
            "{name}: a failed start leaves it unstarted"
        );
    }

    // A non-finite torque: at the start for the methods that evaluate it there, else at the step.
    let nan = |t: f64, _q: &Quaternion<f64>, _w: &Vector3<f64>| {
        if t >= 0.0045 {
            Vector3::new(f64::NAN, 0.0, 0.0)
        } else {
            Vector3::new(0.1, 0.0, 0.0)
        }
    };
    macro_rules! check_torque {
        ($method:expr) => {{
            let mut m = $method;
            let mut torque = BodyTorque(nan);
            let late = RotationalState::new(0.01, start.q, start.omega);
            let started = m.start(&mut torque, &Span::open(late.t, 1e-3).unwrap(), &late);
            let failure = match started {
                Err(e) => e,
                Ok(()) => m.step(&mut torque).unwrap_err(),
            };
            assert!(
                matches!(failure, Error::NonFiniteState { what: "torque", .. }),
                "{}: {failure:?}",
                m.name()
            );
            // From an early start the failure comes at the step that reaches t = 0.0045.
            let mut m = $method;
            m.start(&mut torque, &Span::open(start.t, 1e-3).unwrap(), &start)
                .unwrap();
            let mut steps = 0;
            let failure = loop {
                match m.step(&mut torque) {
                    Ok(_) => steps += 1,
                    Err(e) => break e,
                }
                assert!(steps < 10);
            };
            assert!(
                matches!(failure, Error::NonFiniteState { what: "torque", .. }),
                "{}: {failure:?}",
                m.name()
            );
        }};
    }
    check_torque!(SpiralLeapfrog::new(body));
    check_torque!(Spiral::new(body));
    check_torque!(Omelyan::new(body));
    check_torque!(SpiralOmelyan::new(body));
    check_torque!(SpiralMagnus::new(body));

    // Omelyan's iteration count.
    for result in [
        Omelyan::with_iterations(body, 0).map(|_| ()),
        SpiralOmelyan::with_iterations(body, 0).map(|_| ()),
    ] {
        assert!(matches!(
            result,
            Err(Error::InvalidParameter {
                name: "iterations",
                ..
            })
        ));
    }
    assert_eq!(Omelyan::with_iterations(body, 5).unwrap().iterations(), 5);
    assert_eq!(Omelyan::new(body).iterations(), 3);
    assert_eq!(SpiralOmelyan::new(body).iterations(), 3);
}

// ---------------------------------------------------------------------------------------------
// The SPIRAL family: the angular velocity advanced by any explicit tableau.

/// The ω integrators the issue names, by registry tableau.
fn omega_tableaux() -> [(&'static str, lieode::tableau::ButcherTableau); 4] {
    use lieode::tableau::registry::{HEUN, KUTTA3, RK4};
    [
        ("heun", HEUN),
        ("kutta3", KUTTA3),
        ("ssprk3", SSPRK3),
        ("rk4", RK4),
    ]
}

/// The two test torques behind one type: the cylinder's constant body torque and the
/// attitude- and time-dependent lab-frame torque.
#[derive(Clone)]
enum TorqueFnField {
    Body(ConstantBodyTorque),
    Lab(LabTorque<TorqueFn>),
}

impl Torque for TorqueFnField {
    fn frame(&self) -> Frame {
        match self {
            Self::Body(_) => Frame::Body,
            Self::Lab(_) => Frame::Lab,
        }
    }
    fn torque<A: Orientation<f64>>(
        &self,
        t: f64,
        attitude: &A,
        omega: &Vector3<f64>,
    ) -> Vector3<f64> {
        match self {
            Self::Body(f) => f.torque(t, attitude, omega),
            Self::Lab(f) => f.torque(t, attitude, omega),
        }
    }
}

/// The errors at the finest step and the slopes `(q, ω)` of one SPIRAL variant with the ω
/// integrator of `tableau` on one problem.
fn family_errors_and_orders(
    leapfrog: bool,
    tableau: &lieode::tableau::ButcherTableau,
    body: RigidBody,
    torque: &TorqueFnField,
    start: &RotationalState,
) -> ((f64, f64), (f64, f64)) {
    let integrator = OmegaIntegrator::new(tableau).unwrap();
    let finest = *STEPS.last().unwrap();
    if leapfrog {
        let make = |b| SpiralLeapfrog::new(b).with_omega_integrator(integrator.clone());
        (
            errors(make(body), torque, start, finest, 1.0),
            orders(make, body, torque, start, &STEPS),
        )
    } else {
        let make = |b| Spiral::new(b).with_omega_integrator(integrator.clone());
        (
            errors(make(body), torque, start, finest, 1.0),
            orders(make, body, torque, start, &STEPS),
        )
    }
}

/// The documented figures of `docs/spiral_family.md`'s table marked with `tag`: for each row
/// (its first cell's first word, lower case) the numbers of every other column.
fn documented(tag: &str) -> Vec<(String, Vec<Vec<lieode_doc_figures::DocNumber>>)> {
    use lieode_doc_figures::{Marker, numbers_in, parse_document};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/spiral_family.md");
    let text = std::fs::read_to_string(path).unwrap();
    let document = parse_document("spiral_family.md", &text).unwrap();
    let table = document
        .marked
        .iter()
        .find(|t| matches!(&t.marker, Marker::Unchecked(why) if why.contains(tag)))
        .unwrap_or_else(|| panic!("no table marked `{tag}` in docs/spiral_family.md"));
    table
        .table
        .rows
        .iter()
        .map(|row| {
            let name = row.cells[0]
                .split_whitespace()
                .next()
                .unwrap()
                .to_lowercase();
            (name, row.cells[1..].iter().map(|c| numbers_in(c)).collect())
        })
        .collect()
}

#[test]
fn what_the_omega_tableau_buys_measured_and_documented() {
    // Columns as in docs/spiral_family.md: cylinder leapfrog, cylinder synchronous, varying
    // torque leapfrog, varying torque synchronous.
    let (cylinder_body, cylinder_start) = cylinder();
    let (asymmetric_body, asymmetric_start) = asymmetric();
    let problems = [
        (
            cylinder_body,
            TorqueFnField::Body(cylinder_torque()),
            cylinder_start,
        ),
        (
            asymmetric_body,
            TorqueFnField::Lab(pendulum()),
            asymmetric_start,
        ),
    ];
    let doc_orders = documented("family orders");
    let doc_errors = documented("family errors");
    for (name, tableau) in omega_tableaux() {
        let p = tableau.order as f64;
        let row = |doc: &[(String, Vec<_>)]| {
            doc.iter()
                .find(|(n, _)| *n == name)
                .unwrap_or_else(|| panic!("no row `{name}` documented"))
                .1
                .clone()
        };
        let (doc_orders, doc_errors): (Vec<Vec<_>>, Vec<Vec<_>>) =
            (row(&doc_orders), row(&doc_errors));
        let mut column = 0;
        for (problem, (body, torque, start)) in problems.iter().enumerate() {
            for leapfrog in [true, false] {
                let ((eq, ew), (q, w)) =
                    family_errors_and_orders(leapfrog, &tableau, *body, torque, start);
                // Body-fixed torque: ω has the tableau's order, q stays second order. Varying
                // torque, frozen: second order at the midpoint (leapfrog), first at the start.
                let (pq, pw) = match (problem, leapfrog) {
                    (0, _) => (2.0, p),
                    (_, true) => (2.0, 2.0),
                    (_, false) => (1.0, 1.0),
                };
                let which = format!("{name}, column {column}");
                assert_in(&format!("{which} q"), q, pq - 0.1, pq + 0.1);
                assert_in(&format!("{which} ω"), w, pw - 0.1, pw + 0.1);
                // The documented figures, to the digits they print.
                for (documented, measured) in [
                    (&doc_orders[column], [q, w]),
                    (&doc_errors[column], [eq, ew]),
                ] {
                    assert_eq!(documented.len(), 2, "{which}: q / ω expected");
                    for (d, m) in documented.iter().zip(measured) {
                        assert!(
                            d.matches(m),
                            "{which}: documented {}, measured {}",
                            d.text,
                            d.round(m)
                        );
                    }
                }
                column += 1;
            }
        }
    }
}

#[test]
fn short_tableaux_run_unrolled_and_both_paths_give_the_same_bits() -> lieode::Result<()> {
    use lieode::tableau::ButcherTableau;
    use lieode::tableau::registry::{DOPRI5, SSPRK3};
    // The default steppers run SSPRK3 unrolled, as do the registry's and a user's SSPRK3.
    assert!(
        SpiralLeapfrog::new(asymmetric().0)
            .omega_integrator()
            .is_unrolled()
    );
    assert!(Spiral::new(asymmetric().0).omega_integrator().is_unrolled());
    assert_eq!(OmegaIntegrator::ssprk3(), OmegaIntegrator::new(&SSPRK3)?);
    let users = ButcherTableau::new(
        "my SSPRK3",
        vec![
            vec![0.0, 0.0, 0.0],
            vec![1.0, 0.0, 0.0],
            vec![0.25, 0.25, 0.0],
        ],
        vec![1.0 / 6.0, 1.0 / 6.0, 2.0 / 3.0],
        vec![0.0, 1.0, 0.5],
        3,
    )?;
    let mine = OmegaIntegrator::new(&users)?;
    assert!(mine.is_unrolled());
    assert_eq!(mine.name(), "my SSPRK3");
    assert!(!OmegaIntegrator::new(&DOPRI5)?.is_unrolled());
    assert!(!OmegaIntegrator::general(&SSPRK3)?.is_unrolled());

    // Every path sums in the same order (zero coefficients add nothing): the same bits, step
    // after step, and for SSPRK3 the same bits as the steppers' default.
    let (body, start) = asymmetric();
    let run = |leapfrog: bool, integrator: OmegaIntegrator| -> lieode::Result<_> {
        let mut torque = pendulum();
        let mut stepper: Box<dyn CatalogueStepper<LabTorque<TorqueFn>>> = if leapfrog {
            Box::new(SpiralLeapfrog::new(body).with_omega_integrator(integrator))
        } else {
            Box::new(Spiral::new(body).with_omega_integrator(integrator))
        };
        stepper.start(&mut torque, &Span::open(0.0, 1e-3)?, &start)?;
        for _ in 0..2000 {
            stepper.step(&mut torque)?;
        }
        Ok((stepper.orientation(), stepper.angular_velocity().1))
    };
    for leapfrog in [true, false] {
        for (name, tableau) in omega_tableaux() {
            let unrolled = run(leapfrog, OmegaIntegrator::new(&tableau)?)?;
            let general = run(leapfrog, OmegaIntegrator::general(&tableau)?)?;
            assert_eq!(unrolled, general, "{name}, leapfrog {leapfrog}");
        }
        let mut torque = pendulum();
        let mut default: Box<dyn CatalogueStepper<LabTorque<TorqueFn>>> = if leapfrog {
            Box::new(SpiralLeapfrog::new(body))
        } else {
            Box::new(Spiral::new(body))
        };
        default.start(&mut torque, &Span::open(0.0, 1e-3)?, &start)?;
        for _ in 0..2000 {
            default.step(&mut torque)?;
        }
        let ssprk3 = run(leapfrog, OmegaIntegrator::general(&SSPRK3)?)?;
        assert_eq!(
            (default.orientation(), default.angular_velocity().1),
            ssprk3
        );
    }
    Ok(())
}

#[test]
fn omega_integrators_refuse_implicit_and_oversized_tableaux() -> lieode::Result<()> {
    use lieode::rotation::MAX_OMEGA_STAGES;
    use lieode::tableau::ButcherTableau;
    use lieode::tableau::registry::{DOP853, GAUSS4};
    let implicit = OmegaIntegrator::new(&GAUSS4).unwrap_err();
    assert!(
        matches!(implicit, Error::InvalidTableau { .. }),
        "{implicit}"
    );
    // The largest registry tableau fits.
    assert_eq!(OmegaIntegrator::new(&DOP853)?.order(), 8);
    // A first-order explicit method with one stage too many.
    let s = MAX_OMEGA_STAGES + 1;
    let many = ButcherTableau::new(
        "many stages",
        vec![vec![0.0; s]; s],
        vec![1.0 / s as f64; s],
        vec![0.0; s],
        1,
    )?;
    let error = OmegaIntegrator::new(&many).unwrap_err();
    assert!(
        matches!(
            error,
            Error::InvalidParameter {
                name: "tableau",
                ..
            }
        ),
        "{error}"
    );
    Ok(())
}

/// The sample step of the Wikipedia draft *SPIRAL algorithm*, transcribed from its Julia code
/// with its own arithmetic (`inv(q)·v·q` by quaternion products, Euler's equations divided by
/// the moments, SSPRK3 written out, the exponential by `cos`, `sin` and `w/|w|`): lab-frame
/// `w` and `M` in, lab-frame `w` out.
fn draft_step(
    q: Quaternion<f64>,
    w: Vector3<f64>,
    m: Vector3<f64>,
    ii: [f64; 3],
    dt: f64,
) -> (Quaternion<f64>, Vector3<f64>) {
    let pure = |v: Vector3<f64>| Quaternion::new(0.0, v.x, v.y, v.z);
    let lab_to_body = |v: Vector3<f64>, q: Quaternion<f64>| -> Vector3<f64> {
        (q.try_inverse().unwrap() * pure(v) * q).imag()
    };
    let body_to_lab = |v: Vector3<f64>, q: Quaternion<f64>| -> Vector3<f64> {
        (q * pure(v) * q.try_inverse().unwrap()).imag()
    };
    let w_dot = |w: Vector3<f64>, m: Vector3<f64>| {
        Vector3::new(
            (m[0] + w[1] * w[2] * (ii[1] - ii[2])) / ii[0],
            (m[1] + w[2] * w[0] * (ii[2] - ii[0])) / ii[1],
            (m[2] + w[0] * w[1] * (ii[0] - ii[1])) / ii[2],
        )
    };
    let w = lab_to_body(w, q);
    let m = lab_to_body(m, q);
    let k1 = dt * w_dot(w, m);
    let k2 = dt * w_dot(w + k1, m);
    let k3 = dt * w_dot(w + 0.25 * (k1 + k2), m);
    let w = w + (k1 + k2 + 4.0 * k3) / 6.0;
    let theta = w.norm() * dt / 2.0;
    let axis = w / w.norm();
    let q = q * Quaternion::new(
        theta.cos(),
        theta.sin() * axis.x,
        theta.sin() * axis.y,
        theta.sin() * axis.z,
    );
    (q, body_to_lab(w, q))
}

#[test]
fn the_lab_frame_step_is_the_drafts_sample_step() -> lieode::Result<()> {
    let (body, start) = asymmetric();
    let spiral = SpiralLeapfrog::new(body);
    let moments = [1.0, 2.0, 2.5];
    let mut ours = (start.q, rotate(&start.q, &start.omega));
    let mut draft = ours;
    let dt = 1e-3;
    for n in 0..1000 {
        // The draft's step takes the torque as a value; here the pendulum's, at the step's
        // time and attitude.
        let t = n as f64 * dt;
        let at = |q: &Quaternion<f64>| rotate(q, &pendulum().body_torque(t, q, &Vector3::zeros()));
        let torque = at(&ours.0);
        ours = spiral.lab_frame_step(&ours.0, &ours.1, &torque, dt)?;
        draft = draft_step(draft.0, draft.1, at(&draft.0), moments, dt);
        if n == 0 {
            // One step: the two transcriptions differ by rounding only.
            assert!(
                (ours.0 - draft.0).norm() < 1e-15,
                "{:?} {:?}",
                ours.0,
                draft.0
            );
            assert!((ours.1 - draft.1).norm() < 1e-14, "{} {}", ours.1, draft.1);
        }
    }
    // A thousand steps: still rounding apart.
    assert!(
        (ours.0 - draft.0).norm() < 1e-12,
        "{:?} {:?}",
        ours.0,
        draft.0
    );
    assert!((ours.1 - draft.1).norm() < 1e-12, "{} {}", ours.1, draft.1);
    Ok(())
}

#[test]
fn the_lab_frame_step_equals_the_body_frame_stepper() -> lieode::Result<()> {
    use lieode::tableau::registry::RK4;
    let (body, start) = asymmetric();
    for integrator in [OmegaIntegrator::ssprk3(), OmegaIntegrator::new(&RK4)?] {
        let dt = 1e-3;
        let mut stepper = SpiralLeapfrog::new(body).with_omega_integrator(integrator);
        let mut torque = pendulum();
        stepper.start(&mut torque, &Span::open(0.0, dt)?, &start)?;
        // The lab-frame sequence starts from the stepper's half step back.
        let (_, omega_half) = stepper.angular_velocity();
        let mut lab = (start.q, rotate(&start.q, &omega_half));
        for n in 0..2000 {
            let t = n as f64 * dt;
            let tau = rotate(
                &lab.0,
                &pendulum().body_torque(t, &lab.0, &Vector3::zeros()),
            );
            lab = stepper.lab_frame_step(&lab.0, &lab.1, &tau, dt)?;
            stepper.step(&mut torque)?;
        }
        let omega_body = stepper.angular_velocity().1;
        let q_gap = (stepper.orientation() - lab.0).norm();
        let omega_gap = (rotate(&stepper.orientation(), &omega_body) - lab.1).norm();
        assert!(
            q_gap < 1e-12 && omega_gap < 1e-12,
            "{q_gap:e} {omega_gap:e}"
        );
    }
    Ok(())
}

#[test]
fn the_lab_frame_step_names_bad_input() -> lieode::Result<()> {
    let spiral = SpiralLeapfrog::new(asymmetric().0);
    let (q, w, m) = (
        Quaternion::identity(),
        Vector3::new(0.1, 0.2, 0.3),
        Vector3::zeros(),
    );
    let nan = Vector3::new(f64::NAN, 0.0, 0.0);
    let named = |e: Error| match e {
        Error::NonFinite { name } | Error::InvalidParameter { name, .. } => name,
        other => panic!("unexpected error {other}"),
    };
    assert_eq!(
        named(spiral.lab_frame_step(&q, &w, &m, 0.0).unwrap_err()),
        "dt"
    );
    assert_eq!(
        named(spiral.lab_frame_step(&q, &w, &m, f64::NAN).unwrap_err()),
        "dt"
    );
    assert_eq!(
        named(spiral.lab_frame_step(&q, &nan, &m, 1e-3).unwrap_err()),
        "omega_lab"
    );
    assert_eq!(
        named(spiral.lab_frame_step(&q, &w, &nan, 1e-3).unwrap_err()),
        "torque_lab"
    );
    let zero = Quaternion::new(0.0, 0.0, 0.0, 0.0);
    assert_eq!(
        named(spiral.lab_frame_step(&zero, &w, &m, 1e-3).unwrap_err()),
        "q"
    );
    let bad = Quaternion::new(f64::INFINITY, 0.0, 0.0, 0.0);
    assert_eq!(
        named(spiral.lab_frame_step(&bad, &w, &m, 1e-3).unwrap_err()),
        "q"
    );
    // An overflowing result is an error, not an infinite state.
    let huge = Vector3::new(1e200, 1e200, 1e200);
    assert!(matches!(
        spiral.lab_frame_step(&q, &huge, &m, 1e-3).unwrap_err(),
        Error::NonFiniteState {
            what: "lab-frame step",
            ..
        }
    ));
    Ok(())
}
