//! Seeded random input over the public constructors, maps and drivers: every call either
//! returns `Ok` with finite output or a named error, and none panics.
//!
//! The values are drawn from a pool that mixes ordinary numbers with the edges of `f64`
//! (zeros of both signs, subnormals, the largest values, infinities, NaN) and counts with the
//! edges of `usize`. Each case runs under `catch_unwind`, so a panic reports the case's seed.
//! The whole test takes a few seconds in release mode.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};

use lieode::Error;
use lieode::adaptive::dense::DenseSegment;
use lieode::adaptive::odex::{OdexParameters, StepSequence};
use lieode::adaptive::{
    ControllerParameters, Dop853, Dopri5, LieStepper, Odex, Tolerances, VectorStepper,
};
use lieode::engine::{ExplicitRk, Fixed};
use lieode::integrate::{Direction, Event, Options, Record, integrate};
use lieode::lie::LieGroup;
use lieode::lie::matrix_functions::{cayley, expm, logm};
use lieode::lie::so3::{So3, So3Algebra};
use lieode::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use lieode::momentum::{KryslMethod, MomentumIntegrator, Solver, TorqueFree};
use lieode::problems::SphereProblem;
use lieode::rotation::{ConstantBodyTorque, RigidBody, RotationalState, catalogue};
use lieode::stepper::{Span, Stepper};
use lieode::tableau::ButcherTableau;
use lieode::tableau::registry::RK4;
use nalgebra::{Const, Matrix3, Quaternion, Vector2, Vector3};

/// A seeded xorshift generator with a pool of awkward values.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// An ordinary number (half the time) or an edge of `f64`.
    fn real(&mut self) -> f64 {
        const EDGES: [f64; 14] = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            5e-324,
            -1e-310,
            1e-300,
            1e300,
            -1e308,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        match self.below(4) {
            0 | 1 => 4.0 * self.unit() - 2.0,
            2 => {
                let sign = if self.below(2) == 0 { 1.0 } else { -1.0 };
                sign * 10f64.powf(self.unit() * 640.0 - 320.0)
            }
            _ => EDGES[self.below(EDGES.len())],
        }
    }

    /// A small count (most of the time) or an edge of `usize`.
    fn count(&mut self) -> usize {
        const EDGES: [usize; 6] = [0, 1, 2, 1 << 36, usize::MAX / 2, usize::MAX];
        if self.below(4) == 0 {
            EDGES[self.below(EDGES.len())]
        } else {
            self.below(40)
        }
    }

    fn vector3(&mut self) -> Vector3<f64> {
        Vector3::new(self.real(), self.real(), self.real())
    }
}

/// An error is acceptable when it says what went wrong: a parameter's name, or a context.
#[track_caller]
fn check_error(error: &Error) {
    match error {
        Error::InvalidParameter { name, .. } | Error::NonFinite { name } => {
            assert!(!name.is_empty(), "{error:?}")
        }
        _ => assert!(!error.to_string().is_empty()),
    }
}

fn finite(values: impl IntoIterator<Item = f64>) -> bool {
    values.into_iter().all(f64::is_finite)
}

/// Integrations that returned `Ok` (the test must exercise the drivers, not only their
/// input checks).
static COMPLETED_RUNS: AtomicUsize = AtomicUsize::new(0);

/// `Ok` with finite output, or a named error.
#[track_caller]
fn check<T>(result: lieode::Result<T>, is_finite: impl Fn(&T) -> bool) {
    match result {
        Ok(value) => assert!(is_finite(&value), "Ok with a non-finite value"),
        Err(error) => check_error(&error),
    }
}

/// [`check`] for an integration, counting completed runs.
#[track_caller]
fn check_run<T>(result: lieode::Result<T>, is_finite: impl Fn(&T) -> bool) {
    if result.is_ok() {
        COMPLETED_RUNS.fetch_add(1, Ordering::Relaxed);
    }
    check(result, is_finite);
}

/// The harmonic oscillator `x'' = −x` as a first-order system.
fn oscillator_rhs(_t: f64, x: &Vector2<f64>) -> Vector2<f64> {
    Vector2::new(x[1], -x[0])
}

type Oscillator = fn(f64, &Vector2<f64>) -> Vector2<f64>;

/// An adaptive run on the oscillator, checked: finite states and event times, or an error.
fn oscillator_run(
    stepper: &mut dyn Stepper<Oscillator, State = Vector2<f64>, Segment = DenseSegment<Const<2>>>,
    y0: &Vector2<f64>,
    span: &Span,
    options: Options<'_, Vector2<f64>>,
) {
    let mut oscillator: Oscillator = oscillator_rhs;
    check_run(
        integrate(stepper, &mut oscillator, y0, span, options),
        |sol| {
            sol.states.iter().all(|x| finite(x.iter().copied()))
                && sol.events.iter().all(|e| e.t.is_finite())
        },
    );
}

/// One case of each entry point with the draws of `seed`.
fn case(seed: u64) {
    let mut d = Draw(seed | 1);
    // Spans.
    check(Span::new(d.real(), d.real()), |_| true);
    check(Span::steps(d.real(), d.real(), d.count()), |_| true);
    check(Span::stride(d.real(), d.real(), d.count()), |_| true);
    check(Span::open(d.real(), d.real()), |_| true);
    // Tolerances and methods.
    let tolerances = Tolerances::per_component(
        (0..d.below(4)).map(|_| d.real()).collect(),
        (0..d.below(4)).map(|_| d.real()).collect(),
    );
    check(tolerances.clone(), |_| true);
    let mut parameters = ControllerParameters::dopri5();
    match d.below(5) {
        0 => parameters.safe = d.real(),
        1 => parameters.beta = d.real(),
        2 => parameters.hmax = Some(d.real()),
        3 => parameters.initial_step = Some(d.real()),
        _ => parameters.uround = d.real(),
    }
    check(
        Dopri5::<nalgebra::Const<2>>::new(Tolerances::scalar(1e-6, 1e-6).unwrap(), parameters),
        |_| true,
    );
    check(StepSequence::Bulirsch.step_numbers(d.count()), |v| {
        v.iter().all(|&n| n > 0)
    });
    // Drivers on the harmonic oscillator, with random start, span, record and event.
    let mut oscillator: Oscillator = oscillator_rhs;
    let y0 = Vector2::new(d.real(), d.real());
    let record = match d.below(3) {
        0 => Record::All,
        1 => Record::Every(d.count()),
        _ => Record::Ends,
    };
    let (t0, t1) = (d.real(), d.real());
    let span = Span::steps(t0, t1, d.count().min(2000));
    if let Ok(span) = span {
        let mut rk4 = Fixed::new(ExplicitRk::<f64, 2>::new(&RK4).unwrap());
        let options = Options::record(record).max_steps(2000);
        check_run(
            integrate(&mut rk4, &mut oscillator, &y0, &span, options),
            |sol| sol.states.iter().all(|x| finite(x.iter().copied())) && finite(sol.times.clone()),
        );
    }
    if let (Ok(tolerances), Ok(span)) = (tolerances, Span::new(t0, t1)) {
        let options = |d: &mut Draw| {
            let event = Event::new(
                |t: f64, x: &Vector2<f64>| (3.0 * t).sin() + x[0],
                Direction::Either,
                false,
            )
            .samples(d.below(20));
            Options::record(record).max_steps(500).event(event)
        };
        // DOPRI5 and DOP853 with an event, each on its own draw of sampling.
        if let Ok(method) = Dopri5::new(tolerances.clone(), ControllerParameters::dopri5()) {
            oscillator_run(&mut VectorStepper::new(method), &y0, &span, options(&mut d));
        }
        if let Ok(method) = Dop853::new(tolerances.clone(), ControllerParameters::dop853()) {
            oscillator_run(&mut VectorStepper::new(method), &y0, &span, options(&mut d));
        }
        let odex_parameters = OdexParameters {
            columns: d.count(),
            ..OdexParameters::default()
        };
        if let Ok(method) = Odex::new(tolerances.clone(), odex_parameters) {
            let opts = Options::record(record).max_steps(500);
            oscillator_run(&mut VectorStepper::new(method), &y0, &span, opts);
        }
        if tolerances.rtol_values().len() == 1
            && tolerances.atol_values().len() == 1
            && let Ok(method) = Dopri5::new(tolerances, ControllerParameters::dopri5())
        {
            let mut sphere = SphereProblem::default();
            let opts = Options::record(record).max_steps(500);
            check_run(
                integrate(
                    &mut LieStepper::new(method),
                    &mut sphere,
                    &So3::identity(),
                    &span,
                    opts,
                ),
                |sol| sol.states.iter().all(|r| r.is_finite()),
            );
        }
    }
    // Groups and maps.
    let q = Quaternion::new(d.real(), d.real(), d.real(), d.real());
    check(UnitQuat::from_quaternion(q), |u| {
        finite(u.quaternion().coords.iter().copied())
    });
    check(UnitQuat::from_quaternion_normalized(q), |u| {
        (u.quaternion().norm() - 1.0).abs() < 1e-14
    });
    let (axis, angle) = (d.vector3(), d.real());
    check(So3::from_axis_angle(&axis, angle), |r| {
        finite(r.matrix().iter().copied())
    });
    let v = d.vector3();
    if finite(v.iter().copied()) {
        let r = So3::exp(&So3Algebra::new(v));
        assert!(finite(r.matrix().iter().copied()), "exp {v:?}");
        check(r.log(), |w| finite(w.0.iter().copied()));
        let u = UnitQuat::exp(&Su2Algebra(v));
        assert!(
            finite(u.quaternion().coords.iter().copied()),
            "su2 exp {v:?}"
        );
    }
    let m = Matrix3::from_fn(|_, _| d.real());
    if finite(m.iter().copied()) {
        check(logm(&m), |x| finite(x.iter().copied()));
        check(cayley(&m), |x| finite(x.iter().copied()));
        // Where exp cannot overflow, expm (infallible by design) is finite.
        if m.norm() < 100.0 {
            let e = expm(&m);
            assert!(finite(e.iter().copied()), "expm {m:?}");
        }
    }
    // Bodies and tableaux.
    check(RigidBody::new([d.real(), d.real(), d.real()]), |b| {
        finite(b.inverse_inertia().iter().copied())
    });
    check(RigidBody::from_tensor(&m), |(b, q)| {
        finite(b.inverse_inertia().iter().copied()) && finite(q.coords.iter().copied())
    });
    let s = 1 + d.below(3);
    let tableau = ButcherTableau::new(
        "random",
        (0..s).map(|_| (0..s).map(|_| d.real()).collect()).collect(),
        (0..s).map(|_| d.real()).collect(),
        (0..s).map(|_| d.real()).collect(),
        d.count(),
    );
    check(tableau, |_| true);
    check(RK4.a(d.count(), d.count()), |x| x.is_finite());
    // The rigid-body catalogue and Krysl's family, a few steps each.
    if let Ok(body) = RigidBody::new([1.0 + d.unit(), 1.5 + d.unit(), 2.0]) {
        let state = RotationalState::new(d.real(), q, d.vector3());
        let name = catalogue::NAMES[d.below(catalogue::NAMES.len())];
        let dt = d.real();
        let mut torque = ConstantBodyTorque(d.vector3());
        if let (Ok(mut stepper), Ok(span)) = (
            catalogue::stepper::<ConstantBodyTorque>(name, body),
            Span::stride(state.t, dt, 1 + d.below(20)),
        ) {
            check_run(
                integrate(
                    &mut *stepper,
                    &mut torque,
                    &state,
                    &span,
                    Options::record(Record::Ends),
                ),
                |sol| {
                    sol.states.iter().all(|s| {
                        finite(s.q.coords.iter().copied()) && finite(s.omega.iter().copied())
                    })
                },
            );
        }
        let method = KryslMethod::ALL[d.below(KryslMethod::ALL.len())];
        if let (Ok(mut krysl), Ok(span), Ok(attitude)) = (
            MomentumIntegrator::krysl(method, body, Solver::Newton),
            Span::stride(d.real(), d.real(), 1 + d.below(10)),
            So3::from_axis_angle(&d.vector3(), d.real()),
        ) {
            let y0 = lieode::lie::product::Product(attitude, lieode::lie::rn::Rn(d.vector3()));
            check_run(
                integrate(
                    &mut krysl,
                    &mut TorqueFree,
                    &y0,
                    &span,
                    Options::record(Record::Ends),
                ),
                |sol| sol.states.iter().all(|y| y.is_finite()),
            );
        }
    }
}

#[test]
fn random_input_never_panics_and_never_returns_non_finite_output() {
    const CASES: u64 = 20_000;
    if let Ok(seed) = std::env::var("LIEODE_SEED") {
        // Replays one case (with its panic message and backtrace).
        case(u64::from_str_radix(&seed, 16).expect("a hexadecimal seed"));
        return;
    }
    let mut failures = Vec::new();
    for seed in 0..CASES {
        let seed = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xd1b5_4a32_d192_ed03;
        if catch_unwind(AssertUnwindSafe(|| case(seed))).is_err() {
            failures.push(seed);
        }
    }
    assert!(failures.is_empty(), "panicking seeds: {failures:x?}");
    // About one case in three completes at least one integration.
    let completed = COMPLETED_RUNS.load(Ordering::Relaxed);
    eprintln!("{CASES} cases, {completed} integrations completed");
    assert!(completed > 5_000, "only {completed} integrations completed");
}
