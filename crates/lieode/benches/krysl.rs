//! The cost of one step of Krysl's implicit family and of the rigid-body Munthe-Kaas scheme on
//! Krysl's free body (§5.1): 1000 steps of 0.05 per iteration, so the reported time divided by
//! 1000 is the time per step. IMIDM is timed with both solvers (simplified Newton with a
//! dual-number Jacobian, and fixed-point iteration), next to the explicit RKMK4 and Gauss4 MK.
//!
//! ```text
//! cargo bench --bench krysl
//! ```

use criterion::{Criterion, criterion_group, criterion_main};
use lieode::body::Frame;
use lieode::engine::NonlinearOptions;
use lieode::integrate::{Options, Record, integrate};
use lieode::momentum::{KryslMethod, MomentumIntegrator, Solver};
use lieode::problems::krysl::KryslProblem;
use lieode::stepper::Span;
use lieode::tableau::registry::{GAUSS4, RK4};
use std::hint::black_box;

const STEPS: usize = 1000;
const DT: f64 = 0.05;

fn bench(c: &mut Criterion) {
    let problem = KryslProblem::free_body().expect("Krysl's free body");
    let y0 = problem.initial_state();
    let mut g = c.benchmark_group("krysl step cost (free body, 1000 steps)");
    let span = Span::stride(0.0, DT, STEPS).expect("a valid span");
    let mut torque = problem.torque();
    let mut run = |label: &str, mut integrator: MomentumIntegrator| {
        g.bench_function(label, |b| {
            b.iter(|| {
                let options = Options::record(Record::Ends);
                black_box(
                    integrate(&mut integrator, &mut torque, &y0, &span, options)
                        .expect("a converging run"),
                )
            })
        });
    };
    let body = *problem.body();
    for method in KryslMethod::ALL {
        let m = MomentumIntegrator::krysl(method, body, Solver::Newton).expect("a registry method");
        run(&format!("{} (newton)", method.name()), m);
    }
    for method in [KryslMethod::ImidM, KryslMethod::ImidMMk, KryslMethod::Akw] {
        let m =
            MomentumIntegrator::krysl(method, body, Solver::FixedPoint).expect("a registry method");
        run(&format!("{} (fixed point)", method.name()), m);
    }
    let options = NonlinearOptions::default();
    let rkmk4 = MomentumIntegrator::munthe_kaas(&RK4, Frame::Lab, body, Solver::Newton, options)
        .expect("RK4");
    run("rkmk4 (explicit)", rkmk4);
    let gauss4 =
        MomentumIntegrator::munthe_kaas(&GAUSS4, Frame::Lab, body, Solver::Newton, options)
            .expect("Gauss4");
    run("mk_gauss4 (newton)", gauss4);
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
