//! The six-degree-of-freedom methods measured side by side: their orders in position,
//! velocity, orientation and angular velocity on the spring pair (against DOP853 at 1e-13),
//! and their cost per body-step on N free bodies.

use lieode::body::Frame;
use std::path::Path;
use std::time::Instant;

use nalgebra::Vector3;

use crate::Result;
use lieode::body::RigidBody;
use lieode::problems::SpringPair;
use lieode::rotation::{RigidBodyMethod, SingleBody};
use lieode::stepper::{Span, Stepper, StepperInfo};
use lieode::system::{
    Body, BodyModel, BodyView, CatalogueSystem, ImprovedPcdmSystem, MethodVisitor, PcdmSystem,
    PerBody, Rk4System, SpiralLeapfrogSystem, SystemState, every_method,
};
use lieode_study::csv::{Cell, Table};
use lieode_study::plot::{Curve, CurveStyle, Figure, Scale};

use super::Report;
use lieode::rotation::SpiralLeapfrog;

/// The step counts on `[0, 1]` of the order measurement of the one-evaluation methods
/// (`Δt = 1/800 … 1/3200`).
pub const ORDER_STEPS: [usize; 3] = [800, 1600, 3200];

/// The step counts of RK4's order measurement (`Δt = 1/50 … 1/200`: at the finer steps of the
/// others its errors reach the reference's 1e-13).
pub const RK4_ORDER_STEPS: [usize; 3] = [50, 100, 200];

/// The DOP853 tolerance of the spring pair's reference solution.
pub const REFERENCE_TOLERANCE: f64 = 1e-13;

/// One method's errors on one variant of the spring pair at `t = 1`.
#[derive(Debug, Clone, PartialEq)]
pub struct PairErrors {
    /// The method's name.
    pub method: String,
    /// The pair: `modulated` (loads depend on positions, orientations and time) or `driven`
    /// (with linear drag: also on velocities).
    pub problem: &'static str,
    /// The step count.
    pub steps: usize,
    /// The largest error over the two bodies in `x`, `v`, `q` (sign-blind) and `ω`.
    pub errors: [f64; 4],
}

/// Collects [`PairErrors`] for every method on one pair.
struct PairRuns<'a> {
    pair: SpringPair,
    problem: &'static str,
    reference: SystemState,
    rows: &'a mut Vec<PairErrors>,
}

impl MethodVisitor for PairRuns<'_> {
    fn visit<K: RigidBodyMethod>(
        &mut self,
        make: fn(RigidBody) -> SingleBody<K>,
    ) -> lieode::Result<()> {
        for steps in ORDER_STEPS {
            let mut system = CatalogueSystem::new(self.pair.bodies.to_vec(), make);
            let errors = self
                .pair
                .errors_after(&mut system, &self.reference, steps)?;
            self.rows.push(PairErrors {
                method: system.name().to_owned(),
                problem: self.problem,
                steps,
                errors,
            });
        }
        Ok(())
    }
}

/// Every one-evaluation method (at [`ORDER_STEPS`]) and RK4 (at [`RK4_ORDER_STEPS`]) on the
/// modulated and the driven spring pair ([`SpringPair::modulated`], [`SpringPair::driven`]).
///
/// # Errors
/// Those of the reference and of the runs.
pub fn spring_pair_errors() -> Result<Vec<PairErrors>> {
    let mut rows = Vec::new();
    for (problem, pair) in [
        ("modulated", SpringPair::modulated()?),
        ("driven", SpringPair::driven()?),
    ] {
        let reference = pair.reference(&pair.initial_state(), 1.0, REFERENCE_TOLERANCE)?;
        for steps in RK4_ORDER_STEPS {
            let mut rk4 = Rk4System::new(pair.bodies.to_vec());
            let errors = pair.errors_after(&mut rk4, &reference, steps)?;
            rows.push(PairErrors {
                method: "rk4".into(),
                problem,
                steps,
                errors,
            });
        }
        for steps in ORDER_STEPS {
            let bodies = pair.bodies.to_vec();
            for (method, errors) in [
                (
                    "improved_pcdm",
                    pair.errors_after(
                        &mut ImprovedPcdmSystem::new(bodies.clone()),
                        &reference,
                        steps,
                    )?,
                ),
                (
                    "pcdm",
                    pair.errors_after(&mut PcdmSystem::new(bodies), &reference, steps)?,
                ),
            ] {
                rows.push(PairErrors {
                    method: method.into(),
                    problem,
                    steps,
                    errors,
                });
            }
        }
        every_method(&mut PairRuns {
            pair,
            problem,
            reference,
            rows: &mut rows,
        })?;
    }
    Ok(rows)
}

/// The observed orders `log₂(e(N)/e(2N))` of a method's errors on one pair, one per pair of
/// consecutive step counts, for `x`, `v`, `q`, `ω`.
pub fn observed_orders(rows: &[PairErrors], method: &str, problem: &str) -> Vec<[f64; 4]> {
    let runs: Vec<&PairErrors> = rows
        .iter()
        .filter(|r| r.method == method && r.problem == problem)
        .collect();
    runs.windows(2)
        .map(|w| std::array::from_fn(|k| (w[0].errors[k] / w[1].errors[k]).log2()))
        .collect()
}

/// Gravity, linear drag `−0.1 v` and a drag torque `−0.01 ω` on every body: the per-body
/// model of the throughput runs and of `benches/system.rs`.
#[inline]
pub fn gravity_and_drag(body: &BodyView<'_>) -> (Vector3<f64>, Vector3<f64>) {
    (
        Vector3::new(0.0, 0.0, -9.81) - body.velocity * 0.1,
        body.omega * -0.01,
    )
}

/// Runs `job` on a pool of `threads` threads.
///
/// # Errors
/// Those of `job`; [`crate::Error::InvalidParameter`] naming `threads` if the pool cannot be
/// built.
pub fn on_threads<R>(threads: usize, job: impl FnOnce() -> Result<R> + Send) -> Result<R>
where
    R: Send,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| crate::Error::InvalidParameter {
            name: "threads",
            value: threads.to_string(),
            expected: format!("a thread pool: {e}"),
        })?;
    pool.install(job)
}

/// One method's cost on N free bodies.
#[derive(Debug, Clone, PartialEq)]
pub struct MethodCost {
    /// The method's name (`spiral_leapfrog_fused` for the SPIRAL fast path).
    pub method: String,
    /// The number of bodies.
    pub bodies: usize,
    /// Body-steps per second on one thread (best of three).
    pub body_steps_per_second: f64,
}

/// The number of bodies of the cost runs.
pub const COST_BODIES: usize = 10_000;

/// The steps of each cost run.
pub const COST_STEPS: usize = 100;

/// `n` bodies at the origin moving and spinning in varied directions: the free spheres of the
/// throughput and cost runs (and of `benches/system.rs`).
pub fn free_spheres(n: usize) -> SystemState {
    let mut y0 = SystemState::at_rest(0.0, n);
    for (i, (v, w)) in y0.velocities.iter_mut().zip(&mut y0.omegas).enumerate() {
        let s = i as f64;
        *v = Vector3::new(s.sin(), s.cos(), 1.0);
        *w = Vector3::new((2.0 * s).cos(), 0.5, (3.0 * s).sin());
    }
    y0
}

/// Body-steps per second of `steps` steps of `system` on `n` [`free_spheres`] under the
/// per-body `model` (body-frame torques), the best of `repeats` runs on the caller's pool.
///
/// # Errors
/// Those of the runs.
pub fn body_steps_per_second<S, F>(
    system: &mut S,
    model: F,
    n: usize,
    steps: usize,
    repeats: usize,
) -> lieode::Result<f64>
where
    S: Stepper<PerBody<F>, State = SystemState>,
    F: BodyModel,
{
    let y0 = free_spheres(n);
    let mut forces = PerBody {
        frame: Frame::Body,
        model,
    };
    let mut best = f64::INFINITY;
    for _ in 0..repeats {
        system.start(&mut forces, &Span::open(0.0, 1e-4)?, &y0)?;
        let start = Instant::now();
        for _ in 0..steps {
            system.step(&mut forces)?;
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    Ok((n * steps) as f64 / best)
}

/// [`body_steps_per_second`] of the cost runs: [`COST_BODIES`] bodies, [`COST_STEPS`] steps,
/// best of three.
fn cost<S, F>(system: &mut S, model: F) -> lieode::Result<f64>
where
    S: Stepper<PerBody<F>, State = SystemState>,
    F: BodyModel,
{
    body_steps_per_second(system, model, COST_BODIES, COST_STEPS, 3)
}

/// Collects [`MethodCost`] for every method.
struct CostRuns<'a>(&'a mut Vec<MethodCost>);

impl MethodVisitor for CostRuns<'_> {
    fn visit<K: RigidBodyMethod>(
        &mut self,
        make: fn(RigidBody) -> SingleBody<K>,
    ) -> lieode::Result<()> {
        let ball = Body::solid_sphere(1.0, 0.05)?;
        let mut system = CatalogueSystem::uniform(ball, COST_BODIES, make);
        let rate = cost(&mut system, gravity_and_drag)?;
        self.0.push(MethodCost {
            method: system.name().to_owned(),
            bodies: COST_BODIES,
            body_steps_per_second: rate,
        });
        Ok(())
    }
}

/// The cost per body-step of every method on [`COST_BODIES`] free spheres under gravity and
/// drag, on the caller's thread pool (`many_bodies` runs it on one thread): SPIRAL's fused
/// fast path, every one-evaluation method on [`CatalogueSystem`] (two passes: loads, then
/// update) and RK4.
///
/// # Errors
/// Those of the runs.
pub fn method_costs() -> Result<Vec<MethodCost>> {
    let ball = Body::solid_sphere(1.0, 0.05)?;
    let mut rows = vec![
        MethodCost {
            method: "spiral_leapfrog_fused".into(),
            bodies: COST_BODIES,
            body_steps_per_second: cost(
                &mut SpiralLeapfrogSystem::uniform(ball, COST_BODIES, SpiralLeapfrog::new),
                gravity_and_drag,
            )?,
        },
        MethodCost {
            method: "rk4".into(),
            bodies: COST_BODIES,
            body_steps_per_second: cost(
                &mut Rk4System::uniform(ball, COST_BODIES),
                gravity_and_drag,
            )?,
        },
    ];
    every_method(&mut CostRuns(&mut rows))?;
    Ok(rows)
}

/// Writes `orders.csv`, `pair_errors.csv`, `pair_convergence.*` and `method_cost.csv` into
/// `dir` and returns a summary.
///
/// # Errors
/// Those of the runs, the figure and the files.
pub(crate) fn write_six_dof(dir: &Path, report: &mut Report) -> Result<String> {
    let rows = spring_pair_errors()?;
    let mut table = Table::new(&[
        "method",
        "problem",
        "steps",
        "dt",
        "x_error",
        "v_error",
        "q_error",
        "omega_error",
    ])?;
    for r in &rows {
        let mut cells = vec![
            Cell::text(r.method.clone()),
            Cell::text(r.problem),
            Cell::count(r.steps),
            Cell::Real(1.0 / r.steps as f64),
        ];
        cells.extend(r.errors.iter().map(|&e| Cell::Real(e)));
        table.push(cells)?;
    }
    let path = dir.join("pair_errors.csv");
    table.write(&path)?;
    report.add(
        &path,
        "errors at t = 1 of every method on the spring pair (modulated; driven: with drag) \
         against DOP853 at 1e-13",
    );
    let mut orders = Table::new(&["method", "problem", "x", "v", "q", "omega"])?;
    let mut summary = String::from(
        "orders (x, v, q, ω; finest pair of steps) on the spring pair, modulated | driven\n",
    );
    let mut methods: Vec<&str> = Vec::new();
    for r in &rows {
        if !methods.contains(&r.method.as_str()) {
            methods.push(&r.method);
        }
    }
    for method in &methods {
        let mut line = format!("  {method:>16}");
        for problem in ["modulated", "driven"] {
            let finest = *observed_orders(&rows, method, problem)
                .last()
                .unwrap_or(&[f64::NAN; 4]);
            let mut cells = vec![Cell::text(*method), Cell::text(problem)];
            cells.extend(finest.iter().map(|&o| Cell::Real(o)));
            orders.push(cells)?;
            line.push_str(&format!(
                "  {:.2} {:.2} {:.2} {:.2} ",
                finest[0], finest[1], finest[2], finest[3]
            ));
        }
        summary.push_str(&line);
        summary.push('\n');
    }
    let path = dir.join("orders.csv");
    orders.write(&path)?;
    report.add(
        &path,
        "observed orders in x, v, q, ω of every method on the spring pair (the finest pair of \
         steps: Δt = 1/1600 → 1/3200, RK4 1/100 → 1/200)",
    );
    write_convergence(dir, &rows, &methods, report)?;
    let costs = on_threads(1, method_costs)?;
    let mut table = Table::new(&["method", "bodies", "body_steps_per_second"])?;
    summary.push_str("cost on 10⁴ free spheres, one thread (body-steps/s)\n");
    for c in &costs {
        table.push(vec![
            Cell::text(c.method.clone()),
            Cell::count(c.bodies),
            Cell::Real(c.body_steps_per_second),
        ])?;
        summary.push_str(&format!(
            "  {:>22} {:.3e}\n",
            c.method, c.body_steps_per_second
        ));
    }
    let path = dir.join("method_cost.csv");
    table.write(&path)?;
    report.add(
        &path,
        "body-steps per second of every six-degree-of-freedom method on 10⁴ free spheres",
    );
    Ok(summary)
}

/// The orientation error against the step size on the modulated pair, one curve per method.
fn write_convergence(
    dir: &Path,
    rows: &[PairErrors],
    methods: &[&str],
    report: &mut Report,
) -> Result<()> {
    let fig = methods.iter().fold(
        Figure::new("spring pair (modulated): orientation error at t = 1")
            .with_x_label("Δt")
            .with_y_label("max |q − q_ref|")
            .with_x_scale(Scale::Log)
            .with_y_scale(Scale::Log)
            .with_style(CurveStyle::LineAndMarkers),
        |fig, method| {
            let (x, y) = rows
                .iter()
                .filter(|r| r.method == *method && r.problem == "modulated")
                .map(|r| (1.0 / r.steps as f64, r.errors[2]))
                .unzip();
            fig.with_curve(Curve::new(*method, x, y))
        },
    );
    let files = fig.save(dir, "pair_convergence")?;
    report.add_figure(
        &files,
        "orientation error against Δt of every method on the modulated spring pair (PNG)",
        "its points (series, dt, error)",
    );
    Ok(())
}
