//! SPIRAL (leapfrog and synchronous), Omelyan, SPIRAL + Omelyan and SPIRAL–Magnus: measured
//! orders in q and ω against DOP853 references, norm preservation without renormalisation,
//! SPIRAL's ω map against the SSPRK3 engine, leapfrog bookkeeping and bad input.

use lieode::Error;
use lieode::body::quaternion::rotate;
use lieode::engine::{ExplicitRk, Stats, Step};
use lieode::order::observed_order;
use lieode::rotation::omelyan::Omelyan;
use lieode::rotation::reference::reference_solution;
use lieode::rotation::spiral::Spiral;
use lieode::rotation::spiral_leapfrog::{EulerSsprk3, SpiralLeapfrog};
use lieode::rotation::spiral_magnus::SpiralMagnus;
use lieode::rotation::spiral_omelyan::SpiralOmelyan;
use lieode::rotation::{
    BodyTorque, CatalogueStepper, ConstantBodyTorque, LabTorque, NoTorque, Renormalisation,
    RigidBody, RotationalMethod, RotationalState, TorqueField,
};
use lieode::stepper::{Span, Stepper, StepperInfo};
use lieode::tableau::registry::SSPRK3;
use nalgebra::{Quaternion, Vector3};
use std::f64::consts::PI;

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
    T: TorqueField + Clone,
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
    let at_q = reference_solution(&body, &mut torque.clone(), start, stepper.time()).unwrap();
    let (t_omega, omega) = stepper.angular_velocity();
    let at_omega = reference_solution(&body, &mut torque.clone(), start, t_omega).unwrap();
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
    T: TorqueField + Clone,
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

/// A torque field that counts its evaluations.
#[derive(Debug, Clone)]
struct Counting<T> {
    inner: T,
    count: usize,
}

impl<T: TorqueField> TorqueField for Counting<T> {
    fn body_torque(&mut self, t: f64, q: &Quaternion<f64>, omega: &Vector3<f64>) -> Vector3<f64> {
        self.count += 1;
        self.inner.body_torque(t, q, omega)
    }
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
fn expect_orders<T: TorqueField + Clone>(
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
            count: 0,
        };
        m.start(&mut torque, &Span::open(start.t, 1e-3).unwrap(), &start)
            .unwrap();
        assert_eq!(torque.count, at_start, "{name}: evaluations at the start");
        for _ in 0..10 {
            m.step(&mut torque).unwrap();
        }
        assert_eq!(torque.count, at_start + 10, "{name}: evaluations per step");
        // The synchronised state evaluates the torque once for the leapfrog methods only.
        let state = m.state(&mut torque).unwrap();
        assert_eq!(
            torque.count,
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
    fn start_error<T: TorqueField + Clone>(
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
        let back = reference_solution(m.body(), &mut torque.clone(), start, t).unwrap();
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
    let exact = reference_solution(&body, &mut field, &start, t_end).unwrap();
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
            count: 0,
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
