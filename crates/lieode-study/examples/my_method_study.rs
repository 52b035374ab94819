//! A study of your own method: Ralston's third-order tableau, written here as data, against the
//! classical RK4, both as Munthe-Kaas methods on a rigid body with an exact solution.
//!
//! The problem is `lieode::problems::TorquedRigidBody` on `SO(3) × ℝ³`: a damped heavy top under
//! a manufactured torque that makes a known motion the exact solution, over t ∈ [0, 2]. Both
//! methods run with `h = 2/16 … 2/256` through `lieode_study::experiment::{FixedStep,
//! run_study}`, the error being the distance on the group to the exact state at t = 2. The
//! example prints each method's errors and evaluations, its observed order (least-squares
//! slope) and its local orders, then saves a convergence figure (error against h, with slopes
//! 3 and 4) and a work–precision figure (error against evaluations), each as SVG, PNG and CSV,
//! into `target/lieode-study-example/` (or `$LIEODE_OUT/my_method_study/` when `LIEODE_OUT` is
//! set), and prints the paths written.
//!
//! ```text
//! cargo run --release -p lieode-study --example my_method_study
//! ```

use std::path::PathBuf;

use lieode::body::RigidBodyState;
use lieode::engine::MuntheKaas;
use lieode::lie::LieGroup;
use lieode::problems::TorquedRigidBody;
use lieode::tableau::ButcherTableau;
use lieode::tableau::registry::RK4;
use lieode_study::experiment::{Abscissa, FixedStep, GridKind, TimingOptions, run_study};
use lieode_study::plot::{Curve, WorkAxis, convergence_figure, work_precision_figure};

/// Where the figures go: `$LIEODE_OUT/my_method_study/` if set, else
/// `target/lieode-study-example/`.
fn output_dir() -> PathBuf {
    match std::env::var_os("LIEODE_OUT") {
        Some(root) if !root.is_empty() => PathBuf::from(root).join("my_method_study"),
        _ => PathBuf::from("target").join("lieode-study-example"),
    }
}

fn main() -> lieode_study::Result<()> {
    // Ralston's third-order method (minimum error bound), as a user writes it: A, b, c, order.
    // The constructor checks the declared order against the order conditions.
    let ralston3 = ButcherTableau::new(
        "my Ralston3",
        vec![
            vec![0.0, 0.0, 0.0],
            vec![1.0 / 2.0, 0.0, 0.0],
            vec![0.0, 3.0 / 4.0, 0.0],
        ],
        vec![2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0],
        vec![0.0, 1.0 / 2.0, 3.0 / 4.0],
        3,
    )?;

    let body = TorquedRigidBody::default();
    let (t0, t_end) = TorquedRigidBody::TIME_SPAN;
    let mut runners = Vec::new();
    for tableau in [&ralston3, &RK4] {
        let method = MuntheKaas::<RigidBodyState>::new(tableau)?;
        let runner = FixedStep::new(method, body, body.exact(t0), t0, t_end)
            .name(tableau.name.to_string())
            .error(move |t, y| y.distance(&body.exact(t)));
        runners.push(runner);
    }
    let grid: Vec<f64> = [16, 32, 64, 128, 256]
        .iter()
        .map(|n| (t_end - t0) / f64::from(*n))
        .collect();
    let study = run_study(
        "torqued rigid body",
        GridKind::StepSize,
        &grid,
        &mut runners,
        &TimingOptions::once(),
    )?;

    println!(
        "{:<12} {:>10} {:>12} {:>6}",
        "method", "h", "error", "evals"
    );
    for result in &study.results {
        for m in &result.measurements {
            println!(
                "{:<12} {:>10.3e} {:>12.3e} {:>6}",
                result.method, m.value, m.error, m.evaluations
            );
        }
    }
    println!("\n{:<12} {:>8}   local orders", "method", "order");
    for result in &study.results {
        let order = result
            .observed_order
            .map_or("n/a".to_string(), |p| format!("{p:.2}"));
        let local: Vec<String> = result
            .local_orders
            .iter()
            .map(|p| format!("{p:.2}"))
            .collect();
        println!("{:<12} {order:>8}   {}", result.method, local.join(" "));
    }
    for (method, failure) in study.failures() {
        println!(
            "{method} failed at h = {}: {}",
            failure.value, failure.error
        );
    }

    let dir = output_dir();
    let convergence: Vec<Curve> = study
        .series(Abscissa::Value)
        .into_iter()
        .map(Curve::from)
        .collect();
    let work: Vec<Curve> = study
        .series(Abscissa::Evaluations)
        .into_iter()
        .map(Curve::from)
        .collect();
    let written = [
        convergence_figure(
            "Ralston3 vs RK4 (RKMK), torqued rigid body",
            &convergence,
            &[3, 4],
        )?
        .save(&dir, "convergence")?,
        work_precision_figure(
            "Ralston3 vs RK4 (RKMK): work against precision",
            WorkAxis::Evaluations,
            &work,
        )?
        .save(&dir, "work_precision")?,
    ];
    println!();
    for files in written {
        for path in [files.svg, files.png, files.csv] {
            println!("wrote {}", path.display());
        }
    }
    Ok(())
}
