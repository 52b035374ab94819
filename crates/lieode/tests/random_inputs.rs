//! Seeded random input over the public constructors, maps and drivers: every call either
//! returns `Ok` with finite output or a named error, and none panics.
//!
//! The values are drawn from a pool that mixes ordinary numbers with the edges of `f64`
//! (zeros of both signs, subnormals, the largest values, infinities, NaN) and counts with the
//! edges of `usize`. Each case runs under `catch_unwind`, so a panic reports the case's seed.
//! The whole test takes a few seconds in release mode.

use lieode::body::Frame;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};

use lieode::Error;
use lieode::adaptive::dense::DenseSegment;
use lieode::adaptive::odex::{OdexParameters, StepSequence};
use lieode::adaptive::{
    ControllerParameters, Dop853, Dopri5, LieStepper, Odex, Tolerances, VectorStepper,
};
use lieode::body::NoTorque;
use lieode::engine::{ExplicitRk, Fixed};
use lieode::integrate::StopReason;
use lieode::integrate::{Direction, Event, Options, Record, integrate};
use lieode::kinematics::{
    Attitude, Formulated, Formulation, FrameVectors, Generator, Kinematics, Rotor, TwoFrameVectors,
};
use lieode::lie::LieGroup;
use lieode::lie::matrix_functions::{cayley, expm, logm};
use lieode::lie::so3::{So3, So3Algebra};
use lieode::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use lieode::momentum::{KryslMethod, MomentumIntegrator, Solver};
use lieode::problems::SphereProblem;
use lieode::rotation::RigidBodyMethod;
use lieode::rotation::SingleBody;
use lieode::rotation::SpiralLeapfrog;
use lieode::rotation::{ConstantBodyTorque, RigidBody, RotationalState, catalogue};
use lieode::stepper::{Span, Stepper};
use lieode::system::{
    Body, BodyView, CatalogueSystem, ImprovedPcdmSystem, METHOD_NAMES, MethodVisitor, PcdmSystem,
    PerBody, Rk4System, SpiralLeapfrogSystem, SystemForces, SystemState, every_method,
};
use lieode::tableau::ButcherTableau;
use lieode::tableau::registry::RK4;
use nalgebra::{Const, Matrix3, Quaternion, SVector, Vector2, Vector3};

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
                    &mut NoTorque,
                    &y0,
                    &span,
                    Options::record(Record::Ends),
                ),
                |sol| sol.states.iter().all(|y| y.is_finite()),
            );
        }
    }
}

/// A force model of random constants: on every body a force `f − c_v v` and a torque `τ − c_ω ω`
/// in a random frame (the constants moderate if `gentle`, else drawn from the awkward pool, so
/// some loads are not finite).
fn random_model(
    d: &mut Draw,
    gentle: bool,
) -> PerBody<impl Fn(&BodyView<'_>) -> (Vector3<f64>, Vector3<f64>) + Copy + Send + Sync + use<>> {
    let (f, cv, tau, cw) = if gentle {
        let unit = Vector3::new(d.unit(), d.unit(), d.unit());
        (unit, d.unit(), unit * 0.5, d.unit())
    } else {
        (d.vector3(), d.real(), d.vector3(), d.real())
    };
    let frame = if d.below(2) == 0 {
        Frame::Body
    } else {
        Frame::Lab
    };
    PerBody {
        frame,
        model: move |b: &BodyView<'_>| (f - *b.velocity * cv, tau - *b.omega * cw),
    }
}

/// A many-body run of `stepper`, checked: finite states with non-zero rotors, or a named error.
fn system_run<S, F>(mut stepper: S, model: &mut PerBody<F>, y0: &SystemState, span: &Span)
where
    S: Stepper<PerBody<F>, State = SystemState>,
    F: Fn(&BodyView<'_>) -> (Vector3<f64>, Vector3<f64>) + Copy + Send + Sync,
    PerBody<F>: SystemForces,
{
    check_run(
        integrate(&mut stepper, model, y0, span, Options::record(Record::Ends)),
        |sol| {
            sol.states.iter().all(|s| {
                finite(
                    s.positions
                        .iter()
                        .chain(&s.velocities)
                        .chain(&s.omegas)
                        .flat_map(|v| v.iter().copied()),
                ) && s
                    .rotors
                    .iter()
                    .all(|q| finite(q.coords.iter().copied()) && q.coords.amax() > 0.0)
            })
        },
    );
}

/// One case of the many-body entry points: random bodies, state, loads, step and method (every
/// method of the catalogue on `CatalogueSystem`, the SPIRAL fast path, RK4, both PCDM schemes).
fn system_case(seed: u64) {
    let mut d = Draw(seed | 1);
    // Half the cases are ordinary (valid bodies, unit rotors, moderate values), so that the
    // methods' steps run; the other half draw every value from the awkward pool.
    let gentle = d.below(2) == 0;
    let n = 1 + d.below(3);
    let mut bodies = Vec::with_capacity(n);
    for _ in 0..n {
        let body = if gentle {
            Body::new(0.5 + d.unit(), [1.0 + d.unit(), 1.5 + d.unit(), 2.0])
        } else {
            Body::new(d.real(), [d.real(), d.real(), d.real()])
        };
        check(body.clone(), |_| true);
        bodies.push(body.unwrap_or_else(|_| Body::solid_sphere(1.0, 0.1).unwrap()));
    }
    let rotor = |d: &mut Draw| {
        let q = Quaternion::new(d.real(), d.real(), d.real(), d.real());
        if gentle {
            UnitQuat::from_quaternion_normalized(q)
                .map_or(Quaternion::identity(), |u| *u.quaternion())
        } else {
            q
        }
    };
    let rotors: Vec<Quaternion<f64>> = (0..n).map(|_| rotor(&mut d)).collect();
    let vector = |d: &mut Draw| {
        if gentle {
            Vector3::new(d.unit(), d.unit(), d.unit())
        } else {
            d.vector3()
        }
    };
    let positions = (0..n)
        .map(|i| vector(&mut d) + Vector3::new(3.0 * i as f64, 0.0, 0.0))
        .collect();
    let velocities = (0..n).map(|_| vector(&mut d)).collect();
    let omegas = (0..n).map(|_| vector(&mut d)).collect();
    let t0 = if gentle { d.unit() } else { d.real() };
    let state = SystemState::new(t0, positions, velocities, rotors, omegas);
    check(state.clone(), |_| true);
    let Ok(y0) = state else { return };
    let mut model = random_model(&mut d, gentle);
    let dt = if gentle {
        1e-3 * (1.0 + d.unit())
    } else {
        d.real()
    };
    let Ok(span) = Span::stride(y0.t, dt, 1 + d.below(20)) else {
        return;
    };
    struct Chosen<'a, F: Fn(&BodyView<'_>) -> (Vector3<f64>, Vector3<f64>) + Copy + Send + Sync> {
        target: usize,
        seen: usize,
        bodies: &'a [Body],
        model: &'a mut PerBody<F>,
        y0: &'a SystemState,
        span: &'a Span,
    }
    impl<F: Fn(&BodyView<'_>) -> (Vector3<f64>, Vector3<f64>) + Copy + Send + Sync> MethodVisitor
        for Chosen<'_, F>
    {
        fn visit<K: RigidBodyMethod>(
            &mut self,
            make: fn(RigidBody) -> SingleBody<K>,
        ) -> lieode::Result<()> {
            if self.seen == self.target {
                let system = CatalogueSystem::new(self.bodies.to_vec(), make);
                system_run(system, self.model, self.y0, self.span);
            }
            self.seen += 1;
            Ok(())
        }
    }
    let b = bodies.clone();
    match d.below(METHOD_NAMES.len() + 4) {
        0 => system_run(
            SpiralLeapfrogSystem::new(b, SpiralLeapfrog::new),
            &mut model,
            &y0,
            &span,
        ),
        1 => system_run(Rk4System::new(b), &mut model, &y0, &span),
        2 => system_run(PcdmSystem::new(b), &mut model, &y0, &span),
        3 => system_run(ImprovedPcdmSystem::new(b), &mut model, &y0, &span),
        k => {
            let mut chosen = Chosen {
                target: k - 4,
                seen: 0,
                bodies: &bodies,
                model: &mut model,
                y0: &y0,
                span: &span,
            };
            every_method(&mut chosen).unwrap();
        }
    }
}

/// A rotation run of `formulation` with DOP853: finite, non-zero rotors and, if the run says it
/// finished, its last time is the span's end; or a named error.
fn rotation_run<F, W, const N: usize>(
    formulation: F,
    problem: Kinematics<W>,
    tol: f64,
    q0: &UnitQuat<f64>,
    span: &Span,
) where
    F: Formulation<0, State = SVector<f64, N>>,
    W: FnMut(f64, &Attitude<'_>) -> Vector3<f64>,
    Kinematics<W>: lieode::kinematics::RotationProblem<0>,
    VectorStepper<Dop853<Const<N>>, N>: Stepper<F::Ode<Kinematics<W>>, State = F::State>,
{
    let Ok(tolerances) = Tolerances::scalar(tol, tol) else {
        return;
    };
    let Ok(method) = Dop853::new(tolerances, ControllerParameters::dop853()) else {
        return;
    };
    let stepper = VectorStepper::<Dop853<Const<N>>, N>::new(method);
    let mut formulated = Formulated::new(formulation, stepper);
    let mut ode = formulated.ode(problem);
    let run = formulated
        .initial_state(q0, &SVector::zeros())
        .and_then(|y0| {
            let options = Options::record(Record::Ends).max_steps(2000);
            integrate(&mut formulated, &mut ode, &y0, span, options)
        })
        .map(|sol| (formulated.rotors(&sol), sol));
    let end = span.adaptive_end().ok();
    if run.is_ok() {
        COMPLETED_RUNS.fetch_add(1, Ordering::Relaxed);
    }
    match run {
        Ok((rotors, sol)) => {
            assert!(
                rotors
                    .iter()
                    .all(|q| finite(q.quaternion().coords.iter().copied())
                        && q.quaternion().coords.amax() > 0.0),
                "a non-finite or zero rotor"
            );
            if sol.stop == StopReason::Finished {
                assert_eq!(sol.times.last().copied(), end, "finished away from t_end");
            }
        }
        Err(error) => check_error(&error),
    }
}

/// One case of the rotation-kinematics entry points: a random angular velocity, start rotor,
/// tolerance and span for a random formulation.
fn kinematics_case(seed: u64) {
    let mut d = Draw(seed | 1);
    // Half the cases ordinary (a moderate ω, a unit rotor, a tolerance of 1e-3 … 1e-12 over a
    // span of about one), half drawn from the awkward pool.
    let gentle = d.below(2) == 0;
    let (a, b, c) = if gentle {
        let unit = |d: &mut Draw| Vector3::new(d.unit(), d.unit(), d.unit()) * 2.0;
        (unit(&mut d), unit(&mut d), 3.0 * d.unit())
    } else {
        (d.vector3(), d.vector3(), d.real())
    };
    let omega = move |t: f64, _r: &Attitude<'_>| a + b * (c * t).sin();
    let problem = if d.below(2) == 0 {
        Kinematics::inertial(omega)
    } else {
        Kinematics::body(omega)
    };
    let q = Quaternion::new(d.real(), d.real(), d.real(), d.real());
    let q0 = if gentle {
        UnitQuat::from_quaternion_normalized(q).unwrap_or_else(|_| UnitQuat::identity())
    } else {
        UnitQuat::from_quaternion_unchecked(q)
    };
    let (tol, t0, t1) = if gentle {
        (10f64.powf(-3.0 - 9.0 * d.unit()), d.unit(), 1.0 + d.unit())
    } else {
        (d.real(), d.real(), d.real())
    };
    let Ok(span) = Span::new(t0, t1) else { return };
    match d.below(5) {
        0 => rotation_run(Rotor, problem, tol, &q0, &span),
        1 => rotation_run(Generator::reset(), problem, tol, &q0, &span),
        2 => rotation_run(Generator::plain(), problem, tol, &q0, &span),
        3 => rotation_run(FrameVectors, problem, tol, &q0, &span),
        _ => rotation_run(TwoFrameVectors::new(), problem, tol, &q0, &span),
    }
}

/// A family of cases: its name, the case of a seed, and how many seeds are run.
type Family = (&'static str, fn(u64), u64);

/// The case families: each runs its cases in-process under `catch_unwind`, and in a child
/// process ([`no_case_family_aborts_the_process`]).
const FAMILIES: [Family; 3] = [
    ("core", case, 20_000),
    ("system", system_case, 10_000),
    ("kinematics", kinematics_case, 3_000),
];

/// The seeds of a family's cases.
fn seeds(count: u64) -> impl Iterator<Item = u64> {
    (0..count).map(|seed| seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xd1b5_4a32_d192_ed03)
}

#[test]
fn random_input_never_panics_and_never_returns_non_finite_output() {
    if let Ok(seed) = std::env::var("LIEODE_SEED") {
        // Replays one case of a family (LIEODE_FAMILY, "core" by default) with its panic
        // message and backtrace.
        let family = std::env::var("LIEODE_FAMILY").unwrap_or_else(|_| "core".into());
        let (_, run, _) = FAMILIES
            .iter()
            .find(|(name, ..)| *name == family)
            .expect("a family");
        run(u64::from_str_radix(&seed, 16).expect("a hexadecimal seed"));
        return;
    }
    let mut failures = Vec::new();
    for (family, run, count) in FAMILIES {
        let before = COMPLETED_RUNS.load(Ordering::Relaxed);
        for seed in seeds(count) {
            if catch_unwind(AssertUnwindSafe(|| run(seed))).is_err() {
                failures.push(format!("{family} {seed:x}"));
            }
        }
        // Many cases complete an integration (the drivers are exercised, not only their input
        // checks).
        let completed = COMPLETED_RUNS.load(Ordering::Relaxed) - before;
        eprintln!("{family}: {count} cases, {completed} integrations completed");
        assert!(
            completed as u64 > count / 8,
            "{family}: only {completed} integrations completed"
        );
    }
    assert!(failures.is_empty(), "panicking seeds: {failures:?}");
}

/// The child-process half of [`no_case_family_aborts_the_process`]: with `LIEODE_CHILD_FAMILY`
/// set, runs that family's cases without `catch_unwind` (an abort or a panic ends the process
/// with a failure); otherwise does nothing.
#[test]
fn child_runs_one_case_family() {
    let Ok(family) = std::env::var("LIEODE_CHILD_FAMILY") else {
        return;
    };
    let (_, run, count) = FAMILIES
        .iter()
        .find(|(name, ..)| *name == family)
        .expect("a family");
    for seed in seeds(*count) {
        run(seed);
    }
}

/// `catch_unwind` cannot see an abort (a failed allocation, a stack overflow): every family of
/// cases runs again in a child process of this test binary, which must exit normally.
#[test]
fn no_case_family_aborts_the_process() {
    if std::env::var("LIEODE_CHILD_FAMILY").is_ok() {
        return;
    }
    let exe = std::env::current_exe().expect("the test binary");
    for (family, ..) in FAMILIES {
        let status = std::process::Command::new(&exe)
            .args([
                "--exact",
                "child_runs_one_case_family",
                "--test-threads",
                "1",
            ])
            .env("LIEODE_CHILD_FAMILY", family)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .expect("the child process");
        assert!(
            status.success(),
            "family {family}: the child ended with {status}"
        );
    }
}
