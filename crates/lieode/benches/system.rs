//! The many-body layer: one step of SPIRAL leapfrog (its fused pass with a per-body model, and
//! the two-pass step the same model takes when it hides its per-body form), of Fincham on the
//! generic `CatalogueSystem` and of RK4 (six degrees of freedom) on N = 10³, 10⁴, 10⁵ free
//! spheres under gravity and drag, on rayon's default pool. The time per iteration divided by
//! N is the cost per body-step (throughput on 1 and 2 threads, up to N = 10⁶, is in
//! `cargo run --release --example reproduce -- many_bodies`).
//!
//! ```text
//! cargo bench --bench system
//! ```

#[path = "common/free_spheres.rs"]
mod free_spheres;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use free_spheres::{free_spheres, gravity_and_drag};
use lieode::body::Frame;
use lieode::rotation::Fincham;
use lieode::rotation::SpiralLeapfrog;
use lieode::stepper::{Span, Stepper};
use lieode::system::{
    Body, CatalogueSystem, Loads, PerBody, Rk4System, SpiralLeapfrogSystem, SystemForces,
    SystemView,
};

/// A per-body model that does not offer its per-body form: the methods take two passes.
struct TwoPass<F>(PerBody<F>);

impl<F: lieode::system::BodyModel> SystemForces for TwoPass<F> {
    fn torque_frame(&self) -> Frame {
        self.0.torque_frame()
    }
    fn assigns_every_load(&self) -> bool {
        true
    }
    fn loads(&mut self, view: &SystemView<'_>, loads: &mut Loads) {
        self.0.loads(view, loads)
    }
}

fn bench(c: &mut Criterion) {
    let ball = Body::solid_sphere(1.0, 0.05).expect("a valid sphere");
    let mut g = c.benchmark_group("many bodies: one step");
    for n in [1_000usize, 10_000, 100_000] {
        g.throughput(Throughput::Elements(n as u64));
        let y0 = free_spheres(n);
        let mut forces = PerBody {
            frame: Frame::Body,
            model: gravity_and_drag,
        };
        let span = Span::open(0.0, 1e-4).expect("a valid span");
        let mut spiral = SpiralLeapfrogSystem::uniform(ball, n, SpiralLeapfrog::new);
        spiral
            .start(&mut forces, &span, &y0)
            .expect("a valid start");
        g.bench_with_input(BenchmarkId::new("spiral_leapfrog", n), &n, |b, _| {
            b.iter(|| spiral.step(&mut forces).expect("a finite step"))
        });
        let mut two_pass = TwoPass(forces);
        let mut spiral = SpiralLeapfrogSystem::uniform(ball, n, SpiralLeapfrog::new);
        spiral
            .start(&mut two_pass, &span, &y0)
            .expect("a valid start");
        g.bench_with_input(
            BenchmarkId::new("spiral_leapfrog_two_pass", n),
            &n,
            |b, _| b.iter(|| spiral.step(&mut two_pass).expect("a finite step")),
        );
        let mut fincham = CatalogueSystem::uniform(ball, n, Fincham::new);
        fincham
            .start(&mut forces, &span, &y0)
            .expect("a valid start");
        g.bench_with_input(BenchmarkId::new("fincham", n), &n, |b, _| {
            b.iter(|| fincham.step(&mut forces).expect("a finite step"))
        });
        let mut rk4 = Rk4System::uniform(ball, n);
        rk4.start(&mut forces, &span, &y0).expect("a valid start");
        g.bench_with_input(BenchmarkId::new("rk4", n), &n, |b, _| {
            b.iter(|| rk4.step(&mut forces).expect("a finite step"))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
