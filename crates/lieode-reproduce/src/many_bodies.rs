//! Throughput of the many-body layer ([`lieode::system`]): SPIRAL leapfrog with leapfrog
//! translation on N = 10³ … 10⁶ free bodies under gravity and linear drag, on 1 and 2 threads,
//! beside the machine's copy bandwidth and the single-body SPIRAL step of the rotational
//! catalogue.

use std::path::Path;
use std::time::Instant;

use nalgebra::{Quaternion, Vector3};

use crate::Result;
use crate::output::output_dir;
use lieode::rotation::{ConstantBodyTorque, SpiralLeapfrog};
use lieode::stepper::{Span, Stepper};
use lieode::system::{Body, SpiralLeapfrogSystem};
use lieode_study::csv::{Cell, Table};
use lieode_study::plot::{Curve, CurveStyle, Figure, Scale};

use super::Report;

/// The numbers of bodies measured.
pub const BODIES: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];

/// Bytes moved per body and step by SPIRAL leapfrog with a per-body model, which evaluates
/// each body's loads inside the update pass ([`lieode::system::SystemForces::with_body_model`]):
/// the pass reads the state (13 doubles) and the body's kind (a `u32`) and writes the state.
pub const BYTES_PER_BODY_STEP: usize = 8 * (13 + 13) + 4;

/// One throughput measurement.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Throughput {
    /// Number of bodies.
    pub bodies: usize,
    /// Threads of the pool.
    pub threads: usize,
    /// Body-steps per second (the best of the repeats).
    pub body_steps_per_second: f64,
}

use super::six_dof::body_steps_per_second;
pub use super::six_dof::gravity_and_drag;

/// Body-steps per second of `steps` SPIRAL steps on `n` free spheres (best of `repeats`).
fn measure(n: usize, steps: usize, repeats: usize) -> Result<f64> {
    let ball = Body::solid_sphere(1.0, 0.05)?;
    let mut spiral = SpiralLeapfrogSystem::uniform(ball, n, SpiralLeapfrog::new);
    Ok(body_steps_per_second(
        &mut spiral,
        gravity_and_drag,
        n,
        steps,
        repeats,
    )?)
}

/// The single-body SPIRAL leapfrog of the rotational catalogue: steps per second (rotation
/// only, constant body torque), the reference for the per-body-step cost.
fn single_body_steps_per_second() -> Result<f64> {
    let body = lieode::rotation::RigidBody::new([0.4, 0.4, 0.4])?;
    let mut torque = ConstantBodyTorque(Vector3::new(0.01, 0.0, 0.0));
    let start = lieode::rotation::RotationalState::new(
        0.0,
        Quaternion::identity(),
        Vector3::new(1.0, 0.5, 0.2),
    );
    let mut spiral = SpiralLeapfrog::new(body);
    let steps = 2_000_000;
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        spiral.start(&mut torque, &Span::open(0.0, 1e-4)?, &start)?;
        let t = Instant::now();
        for _ in 0..steps {
            spiral.step(&mut torque)?;
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    Ok(steps as f64 / best)
}

/// The machine's copy bandwidth in bytes per second (read + write counted), best of five copies
/// of a 256 MiB buffer.
fn copy_bandwidth() -> f64 {
    let n = 32 << 20;
    let source = vec![1.0f64; n];
    let mut target = vec![0.0f64; n];
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let t = Instant::now();
        target.copy_from_slice(&source);
        best = best.min(t.elapsed().as_secs_f64());
        std::hint::black_box(&target);
    }
    (2 * 8 * n) as f64 / best
}

/// Runs the measurements on pools of 1 and 2 threads.
///
/// # Errors
/// Those of the runs.
pub fn throughput() -> Result<Vec<Throughput>> {
    let mut rows = Vec::new();
    for threads in [1usize, 2] {
        for &n in &BODIES {
            let steps = (20_000_000 / n).clamp(20, 2000);
            let rate = super::six_dof::on_threads(threads, || measure(n, steps, 3))?;
            rows.push(Throughput {
                bodies: n,
                threads,
                body_steps_per_second: rate,
            });
        }
    }
    Ok(rows)
}

/// Writes `many_bodies/throughput.csv` and its figure, and a summary with the bandwidth and the
/// single-body comparison.
///
/// # Errors
/// Those of the runs, the figure and the files.
pub fn many_bodies() -> Result<Report> {
    let dir = output_dir("many_bodies")?;
    let rows = throughput()?;
    let single = single_body_steps_per_second()?;
    let bandwidth = copy_bandwidth();
    let mut report = Report::new("many_bodies");
    write_table(&dir, &rows, &mut report)?;
    write_figure(&dir, &rows, &mut report)?;
    let mut summary = format!(
        "SPIRAL leapfrog + leapfrog translation, gravity and drag per body; copy bandwidth \
         {:.1} GB/s; single-body catalogue SPIRAL {:.2e} steps/s\n",
        bandwidth / 1e9,
        single
    );
    summary.push_str(&format!(
        "  {:>9} {:>7} {:>16} {:>14} {:>12}\n",
        "bodies", "threads", "body-steps/s", "vs single", "of copy bw"
    ));
    for r in &rows {
        let moved = r.body_steps_per_second * BYTES_PER_BODY_STEP as f64;
        summary.push_str(&format!(
            "  {:>9} {:>7} {:>16.3e} {:>13.2}× {:>11.0}%\n",
            r.bodies,
            r.threads,
            r.body_steps_per_second,
            single / r.body_steps_per_second,
            100.0 * moved / bandwidth
        ));
    }
    summary.push_str(&super::six_dof::write_six_dof(&dir, &mut report)?);
    report.summary = summary;
    Ok(report)
}

fn write_table(dir: &Path, rows: &[Throughput], report: &mut Report) -> Result<()> {
    let mut table = Table::new(&["method", "bodies", "threads", "body_steps_per_second"])?;
    for r in rows {
        table.push(vec![
            Cell::text("spiral_leapfrog"),
            Cell::count(r.bodies),
            Cell::count(r.threads),
            Cell::Real(r.body_steps_per_second),
        ])?;
    }
    let path = dir.join("throughput.csv");
    table.write(&path)?;
    report.add(
        &path,
        "SPIRAL leapfrog with leapfrog translation on N free bodies (gravity + drag): body-steps \
         per second on 1 and 2 threads",
    );
    Ok(())
}

fn write_figure(dir: &Path, rows: &[Throughput], report: &mut Report) -> Result<()> {
    let curves: Vec<Curve> = [1usize, 2]
        .iter()
        .map(|&threads| {
            let (x, y) = rows
                .iter()
                .filter(|r| r.threads == threads)
                .map(|r| (r.bodies as f64, r.body_steps_per_second))
                .unzip();
            Curve::new(
                format!("{threads} thread{}", if threads > 1 { "s" } else { "" }),
                x,
                y,
            )
        })
        .collect();
    let fig = curves.into_iter().fold(
        Figure::new("SPIRAL leapfrog on N bodies: throughput")
            .with_x_label("bodies N")
            .with_y_label("body-steps per second")
            .with_x_scale(Scale::Log)
            .with_y_scale(Scale::Log)
            .with_style(CurveStyle::LineAndMarkers),
        Figure::with_curve,
    );
    let files = fig.save(dir, "throughput_figure")?;
    report.add_figure(
        &files,
        "body-steps per second against N on 1 and 2 threads (PNG)",
        "its points (series, bodies, body-steps/s)",
    );
    Ok(())
}
