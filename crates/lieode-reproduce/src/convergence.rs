//! The convergence demo: the orders of Munthe-Kaas methods built from five explicit tableaux,
//! measured on the torque-driven rigid body on SO(3) × ℝ³ with its exact solution.

use crate::Result;
use crate::output::output_dir;
use lieode::body::RigidBodyState;
use lieode::engine::MuntheKaas;
use lieode::lie::LieGroup;
use lieode::problems::TorquedRigidBody;
use lieode::tableau::ButcherTableau;
use lieode::tableau::registry::{DOPRI5, EULER, HEUN, KUTTA3, RK4};
use lieode_study::experiment::FixedStep;
use lieode_study::experiment::{Abscissa, Experiment, GridKind, Runner, TimingOptions, run_study};
use lieode_study::plot::{Curve, convergence_figure};

use super::Report;

/// The step counts `N` over the span `[0, 2]`: `h = 2/N` for `N ≈ 16·2^{k/2}`, `k = 0 … 10`
/// (step sizes halve every two points; the finest errors of the 5th-order method stay above
/// 10⁻¹², clear of round-off).
pub const CONVERGENCE_STEPS: [usize; 11] = [16, 23, 32, 45, 64, 91, 128, 181, 256, 362, 512];

/// The tableaux of the demo, orders 1 to 5.
pub fn convergence_tableaux() -> [&'static ButcherTableau; 5] {
    [&EULER, &HEUN, &KUTTA3, &RK4, &DOPRI5]
}

/// Runs [`MuntheKaas`] with each of [`convergence_tableaux`] on [`TorquedRigidBody`]
/// (attitude in SO(3), angular velocity in ℝ³, body-frame form `Ṙ = R ω̂`, torque depending on
/// attitude, rate and time) over `t ∈ [0, 2]` with `N` equal steps for every `N` of
/// [`CONVERGENCE_STEPS`], and measures the error at `t = 2` against the exact solution as the
/// left-invariant distance on SO(3) × ℝ³ (`|log(R*ᵀR)|` and `|ω − ω*|` combined).
///
/// One run per point (the demo measures errors, not times).
///
/// # Errors
/// Those of the runs and of [`run_study`].
pub fn convergence_experiment() -> Result<Experiment> {
    let body = TorquedRigidBody::default();
    let (t0, t_end) = TorquedRigidBody::TIME_SPAN;
    let y0 = body.exact(t0);
    let mut runners = Vec::new();
    for tableau in convergence_tableaux() {
        let exact = body;
        let runner: Runner<'_> = FixedStep::new(
            MuntheKaas::<RigidBodyState>::new(tableau)?,
            body,
            y0,
            t0,
            t_end,
        )
        .name(format!("RKMK {}", tableau.name))
        .error(move |t, y: &RigidBodyState| y.distance(&exact.exact(t)));
        runners.push(runner);
    }
    let length = t_end - t0;
    let grid: Vec<f64> = CONVERGENCE_STEPS
        .iter()
        .map(|&n| length / n as f64)
        .collect();
    run_study(
        "torqued rigid body on SO(3)×R3",
        GridKind::StepSize,
        &grid,
        &mut runners,
        &TimingOptions::once(),
    )
}

/// The convergence demo: [`convergence_experiment`], its figure (error against step size,
/// measured orders in the legend, reference slopes 1 … 5) and its tables, written to
/// `convergence_demo/` under the output root.
///
/// Files: `convergence.svg`/`.png`/`.csv` (the figure and its points), `errors.csv` (every
/// run: method, h, error, evaluations, steps), `orders.csv` (least-squares and local orders).
///
/// # Errors
/// Those of the experiment, of the figure and of writing the files.
pub fn convergence_demo() -> Result<Report> {
    let experiment = convergence_experiment()?;
    let dir = output_dir("convergence_demo")?;
    let mut report = Report::new("convergence_demo");

    let curves: Vec<Curve> = experiment
        .series(Abscissa::Value)
        .into_iter()
        .map(Curve::from)
        .collect();
    let figure = convergence_figure(
        "Munthe-Kaas methods on the torqued rigid body, SO(3) × ℝ³, t ∈ [0, 2]",
        &curves,
        &[1, 2, 3, 4, 5],
    )?;
    let files = figure.save(&dir, "convergence")?;
    report.add_figure(
        &files,
        "error at t = 2 against the step size for RKMK with Euler, Heun, Kutta3, RK4 and DOPRI5's \
         5th-order weights; legend: least-squares orders over the whole grid (DOPRI5's \
         error-optimised weights leave 6th-order terms dominant until h ≈ 0.02, so its slope \
         reads above 5); dashed: slopes 1–5 (PNG)",
        "the figure's points (series, h, error)",
    );

    let errors = dir.join("errors.csv");
    experiment.to_table()?.write(&errors)?;
    report.add(&errors, "every run: method, h, error, evaluations, steps");
    let orders = dir.join("orders.csv");
    experiment.orders_table()?.write(&orders)?;
    report.add(
        &orders,
        "observed orders: least-squares slope and first/last local orders",
    );

    let mut summary = String::from("convergence demo (RKMK on SO(3)×R³): observed orders\n");
    for result in &experiment.results {
        let order = result.observed_order.unwrap_or(f64::NAN);
        summary.push_str(&format!("  {:<16} {order:5.2}\n", result.method));
    }
    report.summary = summary;
    Ok(report)
}
