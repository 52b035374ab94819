//! The cost of one step of every rotational stepper of the catalogue on the SPIRAL paper's
//! cylinder (the quantity of its Fig. 4), in one run: 10 000 steps of 1e-5 s per iteration, so
//! the reported time divided by 10 000 is the time per step. Every method runs behind the same
//! `Box<dyn CatalogueStepper>` the reproduction uses (one indirect call per step for all).
//!
//! A second group times the SPIRAL family with other angular-velocity tableaux
//! ([`OmegaIntegrator`]): SSPRK3, Heun, Kutta3 and RK4 unrolled, SSPRK3 and RK4 also on the
//! run-time stage loop, next to Direct Euler, all as concrete types (no indirect call).
//!
//! ```text
//! cargo bench --bench rotation
//! ```

use criterion::{Criterion, criterion_group, criterion_main};
use lieode::problems::cylinder::SpiralCylinder;
use lieode::rotation::catalogue;
use lieode::rotation::{DirectEuler, OmegaIntegrator, RotationalMethod, SpiralLeapfrog};
use lieode::stepper::{Span, Stepper};
use lieode::tableau::registry::{HEUN, KUTTA3, RK4, SSPRK3};
use std::hint::black_box;

const STEPS: usize = 10_000;
const DT: f64 = 1e-5;

fn bench(c: &mut Criterion) {
    let problem = SpiralCylinder::paper().expect("the paper's cylinder");
    let mut g = c.benchmark_group("rotation step cost (10k steps)");
    for name in catalogue::NAMES {
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut torque = problem.torque();
                let mut stepper =
                    catalogue::stepper(name, *problem.body()).expect("a catalogue name");
                stepper
                    .start(
                        &mut torque,
                        &Span::open(problem.initial_state().t, DT).unwrap(),
                        &problem.initial_state(),
                    )
                    .expect("a valid start");
                for _ in 0..STEPS {
                    stepper.step(&mut torque).expect("a finite step");
                }
                black_box(stepper.orientation())
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("SPIRAL family step cost (10k steps)");
    let start = problem.initial_state();
    let span = Span::open(start.t, DT).unwrap();
    let run = |stepper: &mut dyn FnMut() -> lieode::Result<()>| {
        for _ in 0..STEPS {
            stepper().expect("a finite step");
        }
    };
    g.bench_function("direct_euler", |b| {
        b.iter(|| {
            let mut torque = problem.torque();
            let mut stepper = DirectEuler::new(*problem.body());
            stepper.start(&mut torque, &span, &start).unwrap();
            run(&mut || stepper.step(&mut torque).map(|_| ()));
            black_box(stepper.orientation())
        })
    });
    let family = [
        (
            "spiral_leapfrog ssprk3 (unrolled, default)",
            OmegaIntegrator::ssprk3(),
        ),
        (
            "spiral_leapfrog ssprk3 (general)",
            OmegaIntegrator::general(&SSPRK3).unwrap(),
        ),
        ("spiral_leapfrog heun", OmegaIntegrator::new(&HEUN).unwrap()),
        (
            "spiral_leapfrog kutta3",
            OmegaIntegrator::new(&KUTTA3).unwrap(),
        ),
        ("spiral_leapfrog rk4", OmegaIntegrator::new(&RK4).unwrap()),
        (
            "spiral_leapfrog rk4 (general)",
            OmegaIntegrator::general(&RK4).unwrap(),
        ),
    ];
    for (name, integrator) in family {
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut torque = problem.torque();
                let mut stepper =
                    SpiralLeapfrog::new(*problem.body()).with_omega_integrator(integrator.clone());
                stepper.start(&mut torque, &span, &start).unwrap();
                run(&mut || stepper.step(&mut torque).map(|_| ()));
                black_box(stepper.orientation())
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
