//! Every rigid-body method that runs on many bodies: the cost of its step on one body against
//! the cost per body of its step on N bodies, timed interleaved on one thread.
//!
//! ```text
//! cargo run --release --example body_step_timing [-- ROUNDS [N]]
//! ```
//!
//! Workload: free spheres under gravity, linear drag and a drag torque `−0.01 ω`
//! (`benches/common/free_spheres.rs`). The single-body step is the method's [`SingleBody`]
//! stepper under a constant body-frame torque (rotation only); the N-body step
//! is [`CatalogueSystem`] on N bodies (default 10⁴) with the model as a [`PerBody`] (each body's
//! loads evaluated in its update pass) and the same model hidden behind [`SystemForces`] (the
//! two-pass step every other model takes), both with the translation. Every round times each
//! method's three variants in turn, so a slow phase of the machine hits them all; the table
//! gives the median of the rounds (default 7) in nanoseconds per body-step, body-steps per
//! second, and the ratio of the fused N-body cost to the single-body cost.

use std::hint::black_box;
use std::time::Instant;

use lieode::body::Frame;
use lieode::rotation::{
    ConstantBodyTorque, RigidBody, RigidBodyMethod, RotationalState, SingleBody,
};
use lieode::stepper::{Span, Stepper, StepperInfo};
use lieode::system::{
    Body, CatalogueSystem, Loads, MethodVisitor, PerBody, SystemForces, SystemView, every_method,
};
use nalgebra::{Quaternion, Vector3};

#[path = "../benches/common/free_spheres.rs"]
mod free_spheres;
use free_spheres::{free_spheres, gravity_and_drag};

/// Single-body steps per sample.
const SINGLE_STEPS: usize = 200_000;
/// Body-steps per N-body sample (steps × N).
const BODY_STEPS: usize = 400_000;

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

/// One method's samples (ns per body-step): single body, N bodies fused, N bodies two-pass.
#[derive(Default)]
struct Samples {
    name: String,
    single: Vec<f64>,
    fused: Vec<f64>,
    two_pass: Vec<f64>,
}

/// Times one round of every method.
struct Round<'a> {
    n: usize,
    ball: Body,
    y0: &'a lieode::system::SystemState,
    samples: &'a mut Vec<Samples>,
    index: usize,
}

impl MethodVisitor for Round<'_> {
    fn visit<K: RigidBodyMethod>(
        &mut self,
        make: fn(RigidBody) -> SingleBody<K>,
    ) -> lieode::Result<()> {
        if self.samples.len() <= self.index {
            self.samples.push(Samples::default());
        }
        let samples = &mut self.samples[self.index];
        self.index += 1;
        // One body: rotation only, under a constant torque.
        let mut single = make(*self.ball.rigid());
        let mut drag = ConstantBodyTorque(Vector3::new(-0.01, 0.0, 0.0));
        let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(1.0, 0.5, 0.3));
        single.start(&mut drag, &Span::open(0.0, 1e-4)?, &start)?;
        let clock = Instant::now();
        for _ in 0..SINGLE_STEPS {
            black_box(single.step(&mut drag)?);
        }
        samples
            .single
            .push(clock.elapsed().as_nanos() as f64 / SINGLE_STEPS as f64);
        samples.name = single.name().to_owned();
        // N bodies, fused and two-pass.
        let steps = BODY_STEPS / self.n;
        let span = Span::open(0.0, 1e-4)?;
        let mut forces = PerBody {
            frame: Frame::Body,
            model: gravity_and_drag,
        };
        let mut system = CatalogueSystem::uniform(self.ball, self.n, make);
        system.start(&mut forces, &span, self.y0)?;
        let clock = Instant::now();
        for _ in 0..steps {
            black_box(system.step(&mut forces)?);
        }
        samples
            .fused
            .push(clock.elapsed().as_nanos() as f64 / (steps * self.n) as f64);
        let mut two_pass = TwoPass(forces);
        system.start(&mut two_pass, &span, self.y0)?;
        let clock = Instant::now();
        for _ in 0..steps {
            black_box(system.step(&mut two_pass)?);
        }
        samples
            .two_pass
            .push(clock.elapsed().as_nanos() as f64 / (steps * self.n) as f64);
        Ok(())
    }
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> lieode::Result<()> {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let rounds = args.first().copied().unwrap_or(7).max(1);
    let n = args.get(1).copied().unwrap_or(10_000).clamp(1, BODY_STEPS);
    let ball = Body::solid_sphere(1.0, 0.05)?;
    let y0 = free_spheres(n);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| lieode::Error::InvalidParameter {
            name: "threads",
            value: e.to_string(),
            expected: "a pool of one thread".into(),
        })?;
    let mut samples = Vec::new();
    pool.install(|| -> lieode::Result<()> {
        for _ in 0..rounds {
            let mut round = Round {
                n,
                ball,
                y0: &y0,
                samples: &mut samples,
                index: 0,
            };
            every_method(&mut round)?;
        }
        Ok(())
    })?;
    println!("one thread, N = {n}, median of {rounds} interleaved rounds (ns per body-step)");
    println!(
        "| method | 1 body | N bodies, fused | N bodies, two passes | fused body-steps/s | fused / 1 body |"
    );
    println!("|---|---|---|---|---|---|");
    for s in &samples {
        let (single, fused, two) = (median(&s.single), median(&s.fused), median(&s.two_pass));
        println!(
            "| {} | {single:.1} | {fused:.1} | {two:.1} | {:.2e} | {:.2} |",
            s.name,
            1e9 / fused,
            fused / single
        );
    }
    Ok(())
}
