//! The work–precision demo: fixed-step and adaptive Lie-group methods on the same problem, the
//! torque-driven rigid body on SO(3) × ℝ³, compared by error against right-hand-side
//! evaluations and against wall time.

use crate::Result;
use crate::output::output_dir;
use lieode::adaptive::{
    AdaptiveMethod, ControllerParameters, Dop853, Dopri5, LieStepper, Odex, OdexParameters,
    Tolerances,
};
use lieode::body::RigidBodyState;
use lieode::engine::{CommutatorFree, MuntheKaas};
use lieode::integrate::{Options, integrate};
use lieode::lie::LieGroup;
use lieode::problems::TorquedRigidBody;
use lieode::stepper::Span;
use lieode::tableau::registry::{CF4, DOPRI5, RK4};
use lieode_study::experiment::{
    Abscissa, Adaptive, Experiment, FixedStep, GridKind, Runner, TimingOptions, run_study,
};
use lieode_study::plot::{Curve, Scale, WorkAxis, time_figure, work_precision_figure};

use super::Report;

/// The step counts of the fixed-step methods over `[0, 2]`: `N = 8·2^{k/2}`, `k = 0 … 10`.
pub const WORK_PRECISION_STEPS: [usize; 11] = [8, 11, 16, 23, 32, 45, 64, 91, 128, 181, 256];

/// The tolerances of the adaptive methods (`rtol = atol = tol`): `10⁻³ … 10⁻¹²`.
pub const WORK_PRECISION_TOLERANCES: [f64; 10] = [
    1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12,
];

/// The timing of every point: the median of at least 5 and at most 200 runs, stable to 5 %,
/// at most 0.2 s per point.
pub fn work_precision_timing() -> TimingOptions {
    TimingOptions {
        min_repeats: 5,
        max_repeats: 200,
        max_seconds: 0.2,
        tolerance: 0.05,
    }
}

/// The fixed-step part: RKMK4, RKMK with DOPRI5's 5th-order weights and the commutator-free
/// CF4 of Celledoni–Marthinsen–Owren, over [`WORK_PRECISION_STEPS`].
///
/// # Errors
/// Those of the runs and of [`run_study`].
pub fn fixed_step_experiment(timing: &TimingOptions) -> Result<Experiment> {
    let body = TorquedRigidBody::default();
    let (t0, t_end) = TorquedRigidBody::TIME_SPAN;
    let y0 = body.exact(t0);
    let error = move |t: f64, y: &RigidBodyState| y.distance(&body.exact(t));
    let mut runners: Vec<Runner<'_>> = vec![
        FixedStep::new(
            MuntheKaas::<RigidBodyState>::new(&RK4)?,
            body,
            y0,
            t0,
            t_end,
        )
        .name("RKMK4 (fixed)")
        .error(error),
        FixedStep::new(
            MuntheKaas::<RigidBodyState>::new(&DOPRI5)?,
            body,
            y0,
            t0,
            t_end,
        )
        .name("RKMK5 (fixed)")
        .error(error),
        FixedStep::new(
            CommutatorFree::<RigidBodyState>::new(&CF4)?,
            body,
            y0,
            t0,
            t_end,
        )
        .name("CF4 (fixed)")
        .error(error),
    ];
    let grid: Vec<f64> = WORK_PRECISION_STEPS
        .iter()
        .map(|&n| (t_end - t0) / n as f64)
        .collect();
    run_study(
        "torqued rigid body on SO(3)×R3",
        GridKind::StepSize,
        &grid,
        &mut runners,
        timing,
    )
}

/// The adaptive part: DOPRI5, DOP853 and ODEX lifted to SO(3) × ℝ³ through rebased local
/// coordinates, over [`WORK_PRECISION_TOLERANCES`].
///
/// # Errors
/// Those of the runs and of [`run_study`].
pub fn adaptive_experiment(timing: &TimingOptions) -> Result<Experiment> {
    let body = TorquedRigidBody::default();
    let (t0, t_end) = TorquedRigidBody::TIME_SPAN;
    let y0 = body.exact(t0);
    let error = move |t: f64, y: &RigidBodyState| y.distance(&body.exact(t));
    let tolerances = |tol: f64| Tolerances::scalar(tol, tol);
    let mut runners: Vec<Runner<'_>> = vec![
        Adaptive::new(
            "DOPRI5 (adaptive)",
            move |tol| Dopri5::new(tolerances(tol)?, ControllerParameters::dopri5()),
            body,
            t0,
            y0,
            t_end,
        )
        .lie(error),
        Adaptive::new(
            "DOP853 (adaptive)",
            move |tol| Dop853::new(tolerances(tol)?, ControllerParameters::dop853()),
            body,
            t0,
            y0,
            t_end,
        )
        .lie(error),
        Adaptive::new(
            "ODEX (adaptive)",
            move |tol| Odex::new(tolerances(tol)?, OdexParameters::default()),
            body,
            t0,
            y0,
            t_end,
        )
        .lie(error),
    ];
    run_study(
        "torqued rigid body on SO(3)×R3",
        GridKind::Tolerance,
        &WORK_PRECISION_TOLERANCES,
        &mut runners,
        timing,
    )
}

/// The tolerance of the trajectories shown against time.
pub const TRAJECTORY_TOLERANCE: f64 = 1e-8;

/// One adaptive run seen along time: the accepted steps and the error at each step's end.
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory {
    /// The method.
    pub method: String,
    /// End times of the accepted steps.
    pub times: Vec<f64>,
    /// Their sizes.
    pub step_sizes: Vec<f64>,
    /// The error against the exact solution at those times.
    pub errors: Vec<f64>,
}

fn trajectory<M: AdaptiveMethod<lieode::lie::AlgebraDim<RigidBodyState>>>(
    method: M,
    name: &str,
) -> Result<Trajectory> {
    let mut body = TorquedRigidBody::default();
    let (t0, t_end) = TorquedRigidBody::TIME_SPAN;
    let y0 = body.exact(t0);
    let sol = integrate(
        &mut LieStepper::new(method),
        &mut body,
        &y0,
        &Span::new(t0, t_end)?,
        Options::default(),
    )?;
    let mut out = Trajectory {
        method: name.to_string(),
        times: Vec::new(),
        step_sizes: Vec::new(),
        errors: Vec::new(),
    };
    for (window, y) in sol.times.windows(2).zip(&sol.states[1..]) {
        out.times.push(window[1]);
        out.step_sizes.push(window[1] - window[0]);
        out.errors.push(y.distance(&body.exact(window[1]))?);
    }
    Ok(out)
}

/// DOPRI5, DOP853 and ODEX at [`TRAJECTORY_TOLERANCE`] on the body, step by step.
///
/// # Errors
/// Those of the integrations.
pub fn adaptive_trajectories() -> Result<Vec<Trajectory>> {
    let tol = Tolerances::scalar(TRAJECTORY_TOLERANCE, TRAJECTORY_TOLERANCE)?;
    Ok(vec![
        trajectory(
            Dopri5::new(tol.clone(), ControllerParameters::dopri5())?,
            "DOPRI5",
        )?,
        trajectory(
            Dop853::new(tol.clone(), ControllerParameters::dop853())?,
            "DOP853",
        )?,
        trajectory(Odex::new(tol, OdexParameters::default())?, "ODEX")?,
    ])
}

fn curves(experiments: &[&Experiment], abscissa: Abscissa) -> Vec<Curve> {
    experiments
        .iter()
        .flat_map(|e| e.series(abscissa))
        .map(Curve::from)
        .collect()
}

/// The work–precision demo: [`fixed_step_experiment`] and [`adaptive_experiment`] with
/// [`work_precision_timing`], two figures (error against evaluations and against median wall
/// time) and their tables, written to `work_precision_demo/` under the output root.
///
/// # Errors
/// Those of the experiments, of the figures and of writing the files.
pub fn work_precision_demo() -> Result<Report> {
    let timing = work_precision_timing();
    let fixed = fixed_step_experiment(&timing)?;
    let adaptive = adaptive_experiment(&timing)?;
    let dir = output_dir("work_precision_demo")?;
    let mut report = Report::new("work_precision_demo");
    let both = [&fixed, &adaptive];

    let title = "Torqued rigid body on SO(3) × ℝ³, t ∈ [0, 2]";
    let by_evaluations = work_precision_figure(
        title,
        WorkAxis::Evaluations,
        &curves(&both, Abscissa::Evaluations),
    )?;
    let files = by_evaluations.save(&dir, "error_vs_evaluations")?;
    report.add_figure(
        &files,
        "error at t = 2 against right-hand-side evaluations: RKMK4, RKMK5 and CF4 with fixed \
         steps, DOPRI5, DOP853 and ODEX lifted to the group with step-size control (PNG)",
        "its points (series, evaluations, error)",
    );

    let by_time =
        work_precision_figure(title, WorkAxis::WallTime, &curves(&both, Abscissa::Seconds))?;
    let files = by_time.save(&dir, "error_vs_wall_time")?;
    report.add_figure(
        &files,
        "the same runs against the median wall time of one run (this machine, release build)",
        "its points (series, seconds, error)",
    );

    let trajectories = adaptive_trajectories()?;
    let title =
        format!("Adaptive runs on the torqued rigid body, rtol = atol = {TRAJECTORY_TOLERANCE:e}");
    let steps: Vec<Curve> = trajectories
        .iter()
        .map(|t| Curve::new(t.method.clone(), t.times.clone(), t.step_sizes.clone()))
        .collect();
    let figure = time_figure(&title, "accepted step size h", &steps, Scale::Log)?;
    let files = figure.save(&dir, "step_size_vs_t")?;
    report.add_figure(
        &files,
        "the accepted step sizes of DOPRI5, DOP853 and ODEX against time at tol 1e-8 (PNG)",
        "its points (series, t, h)",
    );
    // An error of exactly zero has no place on a log axis (it can happen on the first step).
    let errors: Vec<Curve> = trajectories
        .iter()
        .map(|t| {
            let (x, y) = t
                .times
                .iter()
                .zip(&t.errors)
                .filter(|(_, e)| **e > 0.0)
                .map(|(t, e)| (*t, *e))
                .unzip();
            Curve::new(t.method.clone(), x, y)
        })
        .collect();
    let figure = time_figure(
        &title,
        "error against the exact solution",
        &errors,
        Scale::Log,
    )?;
    let files = figure.save(&dir, "error_vs_t")?;
    report.add_figure(
        &files,
        "the global error of the same runs at every accepted step (PNG)",
        "its points (series, t, error)",
    );

    let path = dir.join("fixed_step.csv");
    fixed.to_table()?.write(&path)?;
    report.add(
        &path,
        "fixed-step runs: method, h, error, evaluations, steps, seconds, repeats",
    );
    let path = dir.join("adaptive.csv");
    adaptive.to_table()?.write(&path)?;
    report.add(
        &path,
        "adaptive runs: method, tol, error, evaluations, steps, seconds, repeats",
    );

    let mut summary = String::from(
        "work–precision demo (SO(3)×R³): fewest evaluations of a run with error ≤ 1e-8\n",
    );
    for result in fixed.results.iter().chain(&adaptive.results) {
        let target = 1e-8;
        let evaluations = result.series(Abscissa::Evaluations);
        let reached = evaluations
            .x
            .iter()
            .zip(&evaluations.error)
            .filter(|(_, e)| **e <= target)
            .map(|(n, _)| *n)
            .fold(f64::INFINITY, f64::min);
        summary.push_str(&format!("  {:<20} {reached:>8.0}\n", result.method));
    }
    report.summary = summary;
    Ok(report)
}
