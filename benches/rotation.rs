//! The cost of one step of every rotational stepper of the catalogue on the SPIRAL paper's
//! cylinder (the quantity of its Fig. 4), in one run: 10 000 steps of 1e-5 s per iteration, so
//! the reported time divided by 10 000 is the time per step. Every method runs behind the same
//! `Box<dyn CatalogueStepper>` the reproduction uses (one indirect call per step for all).
//!
//! ```text
//! cargo bench --bench rotation
//! ```

use criterion::{Criterion, criterion_group, criterion_main};
use lieode::problems::cylinder::SpiralCylinder;
use lieode::reproduce::spiral::{SPIRAL_METHODS, spiral_stepper};
use lieode::stepper::Span;
use std::hint::black_box;

const STEPS: usize = 10_000;
const DT: f64 = 1e-5;

fn bench(c: &mut Criterion) {
    let problem = SpiralCylinder::paper().expect("the paper's cylinder");
    let mut g = c.benchmark_group("rotation step cost (10k steps)");
    for name in SPIRAL_METHODS {
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut torque = problem.torque();
                let mut stepper = spiral_stepper(name, *problem.body()).expect("a catalogue name");
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
}

criterion_group!(benches, bench);
criterion_main!(benches);
