//! The cost of one step of Krysl's implicit family and of the rigid-body Munthe-Kaas scheme on
//! Krysl's free body (§5.1): 1000 steps of 0.05 per iteration, so the reported time divided by
//! 1000 is the time per step. IMIDM is timed with both solvers (simplified Newton with a
//! dual-number Jacobian, and fixed-point iteration), next to the explicit RKMK4 and Gauss4 MK.
//!
//! ```text
//! cargo bench --bench krysl
//! ```

use criterion::{Criterion, criterion_group, criterion_main};
use lieode::engine::NonlinearOptions;
use lieode::momentum::{KryslMethod, MomentumForm, MomentumIntegrator, Solver};
use lieode::problems::krysl::{KryslProblem, KryslTorque};
use lieode::tableau::registry::{GAUSS4, RK4};
use std::hint::black_box;

const STEPS: usize = 1000;
const DT: f64 = 0.05;

fn bench(c: &mut Criterion) {
    let problem = KryslProblem::free_body().expect("Krysl's free body");
    let y0 = problem.initial_state();
    let mut g = c.benchmark_group("krysl step cost (free body, 1000 steps)");
    let mut run = |label: &str, mut integrator: MomentumIntegrator<KryslTorque>| {
        g.bench_function(label, |b| {
            b.iter(|| {
                black_box(
                    integrator
                        .integrate(0.0, &y0, DT, STEPS)
                        .expect("a converging run"),
                )
            })
        });
    };
    let body = *problem.body();
    let torque = problem.torque();
    for method in KryslMethod::ALL {
        let m = MomentumIntegrator::krysl(method, body, torque, Solver::Newton)
            .expect("a registry method");
        run(&format!("{} (newton)", method.name()), m);
    }
    for method in [KryslMethod::ImidM, KryslMethod::ImidMMk, KryslMethod::Akw] {
        let m = MomentumIntegrator::krysl(method, body, torque, Solver::FixedPoint)
            .expect("a registry method");
        run(&format!("{} (fixed point)", method.name()), m);
    }
    let options = NonlinearOptions::default();
    let rkmk4 = MomentumIntegrator::munthe_kaas(
        &RK4,
        MomentumForm::Spatial,
        body,
        torque,
        Solver::Newton,
        options,
    )
    .expect("RK4");
    run("rkmk4 (explicit)", rkmk4);
    let gauss4 = MomentumIntegrator::munthe_kaas(
        &GAUSS4,
        MomentumForm::Spatial,
        body,
        torque,
        Solver::Newton,
        options,
    )
    .expect("Gauss4");
    run("mk_gauss4 (newton)", gauss4);
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
