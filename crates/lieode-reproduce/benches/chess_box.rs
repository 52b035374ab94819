//! The SPIRAL paper's many-particle energy test, one step at a time: the 32 chess pieces in
//! their box (Hertz contacts, cell-list contact search) advanced by SPIRAL leapfrog (the fused
//! many-body path), Omelyan and Fincham at the study's Δt = 5e-6 s, and one evaluation of the
//! contact loads alone, the part that dominates the cost (`docs/spiral_energy.md`). The pieces
//! start from the paper's seeded initial conditions (seed 1) and keep moving in the closed box
//! while the step is timed.
//!
//! ```text
//! cargo bench --bench chess_box
//! ```

use criterion::{Criterion, criterion_group, criterion_main};
use lieode::rotation::SpiralLeapfrog;
use lieode::rotation::{Fincham, Omelyan};
use lieode::stepper::{Span, Stepper};
use lieode::system::{
    CatalogueSystem, Loads, SpiralLeapfrogSystem, SystemForces, SystemState, SystemView,
};
use lieode_reproduce::dem::{PieceBox, random_state};
use lieode_reproduce::spiral_energy::chess_box;

/// The study's step (s).
const DT: f64 = 5e-6;

/// The box and the paper's initial state of seed 1 at π rad/s.
fn scene() -> (PieceBox, SystemState) {
    let model = chess_box().expect("the paper's box");
    let y0 = random_state(&model, 1, 1.0, std::f64::consts::PI).expect("seed 1");
    (model, y0)
}

/// Times one step of `system`, started on the scene.
fn step<S: Stepper<PieceBox, State = SystemState>>(c: &mut Criterion, name: &str, mut system: S) {
    let (mut model, y0) = scene();
    system
        .start(&mut model, &Span::open(0.0, DT).expect("a span"), &y0)
        .expect("a start");
    c.bench_function(name, |b| {
        b.iter(|| system.step(&mut model).expect("a step"))
    });
}

fn bench(c: &mut Criterion) {
    let (model, _) = scene();
    let bodies = model.bodies();
    step(
        c,
        "chess box: one step / spiral_leapfrog (fused)",
        SpiralLeapfrogSystem::new(bodies.clone(), SpiralLeapfrog::new),
    );
    step(
        c,
        "chess box: one step / omelyan",
        CatalogueSystem::new(bodies.clone(), Omelyan::new),
    );
    step(
        c,
        "chess box: one step / fincham",
        CatalogueSystem::new(bodies, Fincham::new),
    );

    let (mut model, y0) = scene();
    let mut loads = Loads::zeros(y0.len());
    c.bench_function("chess box: contact loads", |b| {
        b.iter(|| {
            let view = SystemView {
                t: y0.t,
                positions: &y0.positions,
                velocities: &y0.velocities,
                rotors: &y0.rotors,
                omegas: &y0.omegas,
            };
            model.loads(&view, &mut loads);
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
