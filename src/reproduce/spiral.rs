//! The SPIRAL paper's benchmark (del Valle et al., CPC 297 (2024) 109077, §4 and App. A):
//! the torque-driven cylinder integrated by every method of the rotational catalogue, measured
//! as the published benchmark measured it (`algorithms.md` §1), with its Table 2 and the data
//! of its Figs. 2–5.

use std::time::Instant;

use nalgebra::Vector3;

use crate::error::{Error, Result};
use crate::experiment::{TimingOptions, step_for_error, time_runs};
use crate::problems::cylinder::{
    BenchmarkErrors, CylinderParameters, SpiralCylinder, averaged_error, benchmark_errors,
    benchmark_step_sizes,
};
use crate::rotation::{
    CatalogueStepper, ConstantBodyTorque, MercuryDpm, Renormalisation, RigidBody, catalogue,
};
use crate::stepper::Span;

/// A stepper of the catalogue on the cylinder's torque.
pub type CylinderStepper = catalogue::BoxedStepper<ConstantBodyTorque>;

/// The methods of the benchmark, by the names used in every CSV: the paper's catalogue (App. B
/// and App. A), then `spiral_magnus` (ours) and the generic engines RKMK4 and CG4a on
/// `SU(2) × ℝ³`.
pub const SPIRAL_METHODS: [&str; 15] = [
    "rk4",
    "direct_euler",
    "velocity_verlet",
    "buss",
    "buss16",
    "johnson",
    "fincham",
    "omelyan",
    "mercurydpm",
    "spiral_leapfrog",
    "spiral",
    "spiral_omelyan",
    "spiral_magnus",
    "rkmk4",
    "cg4a",
];

/// The methods of the paper's Fig. 2 (its main comparison).
pub const FIGURE2_METHODS: [&str; 9] = [
    "rk4",
    "direct_euler",
    "velocity_verlet",
    "buss16",
    "johnson",
    "fincham",
    "omelyan",
    "mercurydpm",
    "spiral_leapfrog",
];

/// The targets of Table 2, `½(err_q + err_ω)`.
pub const TABLE2_TARGETS: [f64; 4] = [1e-5, 1e-4, 1e-3, 1e-2];

/// The paper's Table 2: the time step reaching each target of [`TABLE2_TARGETS`], by the
/// method's name in our catalogue (the paper's SPIRAL row is the leapfrog form of its §2, the
/// "Buss" row the benchmark's coefficient 1/16, the "PFC4" row MercuryDPM's DCM scheme).
pub const PAPER_TABLE2: [(&str, [f64; 4]); 8] = [
    ("spiral_leapfrog", [3.044e-3, 8.372e-3, 2.329e-2, 6.167e-2]),
    ("omelyan", [2.943e-4, 9.319e-4, 2.952e-3, 9.400e-3]),
    ("buss16", [2.650e-5, 2.663e-4, 2.890e-3, 5.529e-2]),
    ("velocity_verlet", [6.789e-6, 6.852e-5, 6.779e-4, 3.527e-3]),
    ("fincham", [3.069e-6, 3.071e-5, 3.091e-4, 3.295e-3]),
    ("direct_euler", [1.324e-6, 1.325e-5, 1.333e-4, 1.421e-3]),
    ("johnson", [1.801e-6, 1.801e-5, 1.804e-4, 1.824e-3]),
    ("mercurydpm", [1.662e-7, 1.662e-6, 1.663e-5, 1.671e-4]),
];

/// The stepper named `name` for `body`, from the [`catalogue`].
///
/// # Errors
/// Those of [`catalogue::stepper`].
pub fn spiral_stepper(name: &str, body: RigidBody) -> Result<CylinderStepper> {
    catalogue::stepper(name, body)
}

/// The stepper named `name` with the renormalisation policy `policy` instead of its default
/// (SPIRAL Fig. 4 compares the methods with and without normalisation), from the
/// [`catalogue`].
///
/// # Errors
/// Those of [`catalogue::stepper_renormalised`].
pub fn spiral_stepper_renormalised(
    name: &str,
    body: RigidBody,
    policy: Renormalisation,
) -> Result<CylinderStepper> {
    catalogue::stepper_renormalised(name, body, policy)
}

/// One run of the benchmark protocol ([`benchmark_errors`]) for the method `name` at `dt`;
/// MercuryDPM's rotor error is the benchmark's DCM metric (relative matrix 1-norm).
///
/// # Errors
/// Those of the stepper and of the problem.
pub fn benchmark_point(problem: &SpiralCylinder, name: &str, dt: f64) -> Result<BenchmarkErrors> {
    if name == "mercurydpm" {
        let mut stepper = MercuryDpm::new(*problem.body());
        let mut point = benchmark_errors(problem, &mut stepper, dt)?;
        point.q_error = problem.dcm_error(point.t_final, &stepper.dcm())?;
        return Ok(point);
    }
    let mut stepper = spiral_stepper(name, *problem.body())?;
    benchmark_errors(problem, &mut *stepper, dt)
}

/// The `dt_error` table: every method of `methods` on the paper's 20-point grid
/// ([`benchmark_step_sizes`]), run on two threads. Rows in method order, then in dt order.
///
/// # Errors
/// The first failing run (with its method and dt in the message).
pub fn dt_error(
    problem: &SpiralCylinder,
    methods: &[&str],
) -> Result<Vec<(String, BenchmarkErrors)>> {
    let grid = benchmark_step_sizes();
    let jobs: Vec<(usize, &str, f64)> = methods
        .iter()
        .enumerate()
        .flat_map(|(m, name)| grid.iter().map(move |&dt| (m, *name, dt)))
        .collect();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 4);
    let mut results: Vec<Option<Result<BenchmarkErrors>>> = (0..jobs.len()).map(|_| None).collect();
    std::thread::scope(|scope| {
        let chunks: Vec<Vec<usize>> = (0..threads)
            .map(|k| (k..jobs.len()).step_by(threads).collect())
            .collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|indices| {
                let jobs = &jobs;
                scope.spawn(move || {
                    indices
                        .into_iter()
                        .map(|i| {
                            let (_, name, dt) = jobs[i];
                            (i, benchmark_point(problem, name, dt))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for handle in handles {
            if let Ok(done) = handle.join() {
                for (i, r) in done {
                    results[i] = Some(r);
                }
            }
        }
    });
    let mut out = Vec::with_capacity(jobs.len());
    for ((_, name, dt), result) in jobs.iter().zip(results) {
        let point = result
            .ok_or(Error::InvalidParameter {
                name: "method",
                value: format!("{name} at dt = {dt:e}"),
                expected: "a benchmark worker that completes (it panicked)".into(),
            })?
            .map_err(|e| Error::InvalidParameter {
                name: "method",
                value: format!("{name} at dt = {dt:e}"),
                expected: format!("a successful run ({e})"),
            })?;
        out.push((name.to_string(), point));
    }
    Ok(out)
}

/// Table 2 from a `dt_error` table: for each method and target, the step size at which the
/// averaged error `½(err_q + err_ω)` reaches the target, by [`step_for_error`] (linear
/// interpolation of log10 error on the log10 dt grid). `None` where the grid does not bracket
/// the target.
pub fn table2(
    rows: &[(String, BenchmarkErrors)],
    methods: &[&str],
) -> Vec<(String, f64, Option<f64>)> {
    let mut out = Vec::new();
    for name in methods {
        let points: Vec<&BenchmarkErrors> = rows
            .iter()
            .filter(|(m, _)| m == name)
            .map(|(_, p)| p)
            .collect();
        let dts: Vec<f64> = points.iter().map(|p| p.dt).collect();
        let errors: Vec<f64> = points.iter().map(|p| p.averaged()).collect();
        for target in TABLE2_TARGETS {
            let dt = step_for_error(&dts, &errors, target).ok();
            out.push((name.to_string(), target, dt));
        }
    }
    out
}

/// The paper's Table 2 entry for `name` and `target`, if it has one.
pub fn paper_table2(name: &str, target: f64) -> Option<f64> {
    let column = TABLE2_TARGETS.iter().position(|t| *t == target)?;
    PAPER_TABLE2
        .iter()
        .find(|(m, _)| *m == name)
        .map(|(_, v)| v[column])
}

/// One sample of the error along time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ErrorAtTime {
    /// The time `t_n` (accumulated).
    pub t: f64,
    /// The rotor error of Eq. (13) against `q′(t_n)` (DCM metric for MercuryDPM).
    pub q_error: f64,
    /// The angular-velocity error against `ω(t_n)` (`ω(t_n − dt/2)` for leapfrog methods).
    pub omega_error: f64,
}

/// The errors of `name` along `[0, problem.t_max()]` with step `dt`, sampled every `every`
/// steps (Figs. 3 and A.9).
///
/// # Errors
/// [`Error::InvalidParameter`] naming `every` if it is zero; those of the runs.
pub fn error_along_time(
    problem: &SpiralCylinder,
    name: &str,
    dt: f64,
    every: usize,
) -> Result<Vec<ErrorAtTime>> {
    if every == 0 {
        return Err(Error::InvalidParameter {
            name: "every",
            value: "0".into(),
            expected: "a positive sampling interval".into(),
        });
    }
    if name == "mercurydpm" {
        let mut stepper = MercuryDpm::new(*problem.body());
        return sample_errors(problem, &mut stepper, dt, every, |m| Some(m.dcm()));
    }
    let mut stepper = spiral_stepper(name, *problem.body())?;
    sample_errors(problem, &mut *stepper, dt, every, |_| None)
}

/// Runs `stepper` over `[0, t_max]` and measures the errors every `every` steps; `dcm` gives
/// the lab → body matrix of a DCM stepper, whose rotor error is then the DCM metric.
fn sample_errors<S: CatalogueStepper<ConstantBodyTorque> + ?Sized>(
    problem: &SpiralCylinder,
    stepper: &mut S,
    dt: f64,
    every: usize,
    dcm: impl Fn(&S) -> Option<nalgebra::Matrix3<f64>>,
) -> Result<Vec<ErrorAtTime>> {
    let steps = (problem.t_max() / dt).trunc() as usize;
    let mut torque = problem.torque();
    let start = problem.initial_state();
    stepper.start(&mut torque, &Span::stride(start.t, dt, steps)?, &start)?;
    let leapfrog = stepper.is_leapfrog();
    let mut t = 0.0;
    let mut out = Vec::with_capacity(steps / every + 1);
    for n in 1..=steps {
        stepper.step(&mut torque)?;
        t += dt;
        if n % every == 0 {
            let omega_time = if leapfrog { t - 0.5 * dt } else { t };
            let (_, omega) = stepper.angular_velocity();
            let (mut q_error, omega_error) =
                problem.errors_at(t, &stepper.orientation(), omega_time, &omega)?;
            if let Some(d) = dcm(stepper) {
                q_error = problem.dcm_error(t, &d)?;
            }
            out.push(ErrorAtTime {
                t,
                q_error,
                omega_error,
            });
        }
    }
    Ok(out)
}

/// The median wall time of one step of `name` (ns), from runs of `steps` steps at `dt`
/// on the cylinder (Fig. 4's quantity).
///
/// # Errors
/// Those of the runs and of the timing.
pub fn nanoseconds_per_step(
    problem: &SpiralCylinder,
    name: &str,
    dt: f64,
    steps: usize,
    timing: &TimingOptions,
) -> Result<f64> {
    nanoseconds_per_step_with(problem, name, None, dt, steps, timing)
}

/// [`nanoseconds_per_step`] with the renormalisation policy `policy` instead of the method's
/// default (`None`: the default).
///
/// # Errors
/// Those of [`spiral_stepper_renormalised`], of the runs and of the timing.
pub fn nanoseconds_per_step_with(
    problem: &SpiralCylinder,
    name: &str,
    policy: Option<Renormalisation>,
    dt: f64,
    steps: usize,
    timing: &TimingOptions,
) -> Result<f64> {
    let timed = time_runs(timing, || run_for_time(problem, name, policy, dt, steps))?;
    Ok(timed.seconds / steps.max(1) as f64 * 1e9)
}

/// Integrates `steps` steps of `name` (for timing; returns the final ω so the work is kept).
fn run_for_time(
    problem: &SpiralCylinder,
    name: &str,
    policy: Option<Renormalisation>,
    dt: f64,
    steps: usize,
) -> Result<Vector3<f64>> {
    let mut torque = problem.torque();
    let mut stepper = match policy {
        Some(policy) => spiral_stepper_renormalised(name, *problem.body(), policy)?,
        None => spiral_stepper(name, *problem.body())?,
    };
    // Driven by hand: the timing measures the steps themselves.
    let start = problem.initial_state();
    stepper.start(&mut torque, &Span::open(start.t, dt)?, &start)?;
    for _ in 0..steps {
        stepper.step(&mut torque)?;
    }
    Ok(stepper.angular_velocity().1)
}

/// The CPU time to simulate `[0, t_max]` with `name` at `dt` (median of repeated samples).
///
/// A run of a few dozen steps takes about a microsecond, close to the cost of reading the
/// clock, so each timed sample repeats the whole run (construction, start and steps) until it
/// holds at least [`MIN_STEPS_PER_SAMPLE`] steps and reports the time of one run — as
/// BenchmarkTools.jl, with which the paper timed its runs, evaluates short benchmarks several
/// times per sample.
///
/// # Errors
/// Those of the runs and of the timing.
pub fn seconds_to_simulate(
    problem: &SpiralCylinder,
    name: &str,
    dt: f64,
    timing: &TimingOptions,
) -> Result<f64> {
    let steps = (problem.t_max() / dt).trunc() as usize;
    let runs = MIN_STEPS_PER_SAMPLE.div_ceil(steps.max(1));
    let timed = time_runs(timing, || {
        let mut last = Vector3::zeros();
        for _ in 0..runs {
            last = run_for_time(problem, name, None, dt, steps)?;
        }
        Ok(last)
    })?;
    Ok(timed.seconds / runs as f64)
}

/// The fewest steps a timed sample of [`seconds_to_simulate`] holds.
pub const MIN_STEPS_PER_SAMPLE: usize = 20_000;

/// The problem of the long run of Fig. 3: the paper's cylinder up to `t = 20` s.
///
/// # Errors
/// Those of [`SpiralCylinder::new`].
pub fn long_cylinder() -> Result<SpiralCylinder> {
    SpiralCylinder::new(CylinderParameters {
        t_max: 20.0,
        ..CylinderParameters::default()
    })
}

/// Wall-clock seconds since `start`, for the summary.
pub fn elapsed(start: Instant) -> f64 {
    start.elapsed().as_secs_f64()
}

/// The tolerances of the Lie-lifted DOP853 runs on the cylinder (`rtol = atol = tol`).
pub const DOP853_TOLERANCES: [f64; 11] = [
    1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13,
];

/// One run of Hairer's DOP853 lifted to `SU(2) × ℝ³` on the cylinder.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LiftedRun {
    /// The tolerance.
    pub tol: f64,
    /// The errors of Eq. (13) at `t_max` (ω against the analytic value at `t_max`).
    pub q_error: f64,
    /// See `q_error`.
    pub omega_error: f64,
    /// Generator (torque) evaluations.
    pub evaluations: usize,
    /// Median wall time of one run, in seconds.
    pub seconds: f64,
}

/// DOP853 lifted to `SU(2) × ℝ³` through rebased local coordinates (`LieStepper`) on the
/// cylinder, from `t = 0` to `t_max`, for each of [`DOP853_TOLERANCES`]: the adaptive generic
/// engine on the benchmark's problem.
///
/// # Errors
/// Those of the integrations and of the timing.
pub fn lifted_dop853(problem: &SpiralCylinder, timing: &TimingOptions) -> Result<Vec<LiftedRun>> {
    use crate::adaptive::{ControllerParameters, Dop853, LieStepper, Tolerances};
    use crate::integrate::{Options, integrate};
    use crate::stepper::Span;
    let t_end = problem.t_max();
    let mut out = Vec::with_capacity(DOP853_TOLERANCES.len());
    for tol in DOP853_TOLERANCES {
        let run = || {
            let method = Dop853::new(
                Tolerances::scalar(tol, tol)?,
                ControllerParameters::dop853(),
            )?;
            integrate(
                &mut LieStepper::new(method),
                &mut problem.clone(),
                &problem.initial_group_state(),
                &Span::new(0.0, t_end)?,
                Options::default(),
            )
        };
        let timed = time_runs(timing, run)?;
        let sol = timed.value;
        let (t, y) = sol.last().ok_or(Error::NonFiniteState {
            what: "lifted DOP853 solution",
            t: t_end,
        })?;
        let (q_error, omega_error) = problem.errors_at(t, y.0.quaternion(), t, &y.1.0)?;
        out.push(LiftedRun {
            tol,
            q_error,
            omega_error,
            evaluations: sol.stats.rhs_evaluations,
            seconds: timed.seconds,
        });
    }
    Ok(out)
}

/// The step size of the long run of Fig. 3 (and of the per-step cost of Fig. 4).
pub const LONG_RUN_DT: f64 = 1e-5;

/// Samples of the long run: every 0.05 s.
pub const LONG_RUN_EVERY: usize = 5000;

/// The SPIRAL paper's benchmark: writes `dt_error.csv`, `table2.csv`, `error_time.csv`,
/// `step_cost.csv`, `speedup.csv` and the figures under `spiral_paper/` of the output root.
///
/// # Errors
/// Those of the runs, of the figures and of writing the files.
pub fn spiral_paper() -> Result<super::Report> {
    use crate::csv::{Cell, Table};
    use crate::output::output_dir;
    use crate::plot::{
        BarGroup, Curve, CurveStyle, Figure, Scale, WorkAxis, bar_figure, time_figure,
        work_precision_figure,
    };

    let dir = output_dir("spiral_paper")?;
    let mut report = super::Report::new("spiral_paper");
    let problem = SpiralCylinder::paper()?;

    // Fig. 2 / A.8: errors against dt.
    let rows = dt_error(&problem, &SPIRAL_METHODS)?;
    let mut table = Table::new(&["method", "dt", "steps", "t_final", "q_error", "omega_error"])?;
    for (name, p) in &rows {
        table.push(vec![
            Cell::text(name.clone()),
            Cell::Real(p.dt),
            Cell::count(p.steps),
            Cell::Real(p.t_final),
            Cell::Real(p.q_error),
            Cell::Real(p.omega_error),
        ])?;
    }
    let path = dir.join("dt_error.csv");
    table.write(&path)?;
    report.add(
        &path,
        "every method on the paper's 20-point dt grid (Figs. 2, A.8): steps = trunc(1/dt), \
         final time, relative L1 errors of q and ω (Eq. 13; DCM metric for mercurydpm)",
    );
    let curves = |methods: &[&str], pick: fn(&BenchmarkErrors) -> f64| -> Vec<Curve> {
        methods
            .iter()
            .map(|name| {
                let (x, y) = rows
                    .iter()
                    .filter(|(m, p)| m == name && pick(p) > 0.0)
                    .map(|(_, p)| (p.dt, pick(p)))
                    .unzip();
                Curve::new(*name, x, y)
            })
            .collect()
    };
    let panels: [(&str, &[&str], &str); 2] = [
        ("fig2", &FIGURE2_METHODS, "the paper's catalogue"),
        (
            "figA8",
            &[
                "spiral_leapfrog",
                "spiral",
                "spiral_omelyan",
                "spiral_magnus",
                "buss",
                "rkmk4",
                "cg4a",
            ],
            "SPIRAL variants, Buss (1/12) and the generic engines",
        ),
    ];
    for (stem, methods, what) in panels {
        for (suffix, pick, label) in [
            (
                "q",
                (|p: &BenchmarkErrors| p.q_error) as fn(&BenchmarkErrors) -> f64,
                "relative L1 error of q at T",
            ),
            (
                "omega",
                |p: &BenchmarkErrors| p.omega_error,
                "relative L1 error of ω at T",
            ),
        ] {
            let figure = curves(methods, pick).into_iter().fold(
                Figure::new(format!("Cylinder, t ≤ 1 s: {label}"))
                    .with_x_label("time step Δt [s]")
                    .with_y_label(label)
                    .with_x_scale(Scale::Log)
                    .with_y_scale(Scale::Log)
                    .with_style(CurveStyle::LineAndMarkers),
                Figure::with_curve,
            );
            let files = figure.save(&dir, &format!("{stem}_{suffix}"))?;
            report.add(&files.png, &format!("{label} against Δt, {what} (PNG)"));
            report.add(&files.svg, "the same figure as SVG");
            report.add(&files.csv, "its points (series, dt, error)");
        }
    }

    // Table 2.
    let ours = table2(&rows, &SPIRAL_METHODS);
    let mut table = Table::new(&["method", "target", "dt", "paper_dt", "relative_difference"])?;
    let mut summary = String::from(
        "SPIRAL paper, Table 2 (dt reaching ½(err_q + err_ω) = target): ours | paper\n",
    );
    summary.push_str(&format!("  {:<16}", "method"));
    for t in TABLE2_TARGETS {
        summary.push_str(&format!(" {:>21}", format!("{t:e}")));
    }
    summary.push('\n');
    for name in SPIRAL_METHODS {
        let mut line = format!("  {name:<16}");
        for target in TABLE2_TARGETS {
            let dt = ours
                .iter()
                .find(|(m, t, _)| m == name && *t == target)
                .and_then(|(_, _, dt)| *dt);
            let paper = paper_table2(name, target);
            let diff = match (dt, paper) {
                (Some(a), Some(b)) => (a - b) / b,
                _ => f64::NAN,
            };
            table.push(vec![
                Cell::text(name),
                Cell::Real(target),
                Cell::Real(dt.unwrap_or(f64::NAN)),
                Cell::Real(paper.unwrap_or(f64::NAN)),
                Cell::Real(diff),
            ])?;
            let ours_text = dt.map_or("—".to_string(), |v| format!("{v:.3e}"));
            let paper_text = paper.map_or("".to_string(), |v| format!("{v:.3e}"));
            line.push_str(&format!(" {ours_text:>10}|{paper_text:<10}"));
        }
        summary.push_str(&line);
        summary.push('\n');
    }
    let path = dir.join("table2.csv");
    table.write(&path)?;
    report.add(
        &path,
        "Table 2: the dt reaching each target of ½(err_q + err_ω) (interpolated on the log grid), \
         beside the paper's value and the relative difference",
    );

    // Fig. 3 / A.9: errors along 20 s with dt = 1e-5.
    let long = long_cylinder()?;
    let mut table = Table::new(&["method", "t", "q_error", "omega_error"])?;
    let mut q_curves = Vec::new();
    let mut w_curves = Vec::new();
    for name in FIGURE2_METHODS.iter().chain(&["spiral", "spiral_magnus"]) {
        let samples = error_along_time(&long, name, LONG_RUN_DT, LONG_RUN_EVERY)?;
        for s in &samples {
            table.push(vec![
                Cell::text(*name),
                Cell::Real(s.t),
                Cell::Real(s.q_error),
                Cell::Real(s.omega_error),
            ])?;
        }
        let positive = |f: fn(&ErrorAtTime) -> f64| -> (Vec<f64>, Vec<f64>) {
            samples
                .iter()
                .filter(|s| f(s) > 0.0)
                .map(|s| (s.t, f(s)))
                .unzip()
        };
        let (x, y) = positive(|s| s.q_error);
        q_curves.push(Curve::new(*name, x, y));
        let (x, y) = positive(|s| s.omega_error);
        w_curves.push(Curve::new(*name, x, y));
    }
    let path = dir.join("error_time.csv");
    table.write(&path)?;
    report.add(
        &path,
        "errors along 20 s with dt = 1e-5 (Figs. 3, A.9), every 0.05 s",
    );
    for (stem, curves, label) in [
        ("fig3_q", &q_curves, "relative L1 error of q"),
        ("fig3_omega", &w_curves, "relative L1 error of ω"),
    ] {
        let figure = time_figure(
            &format!("Cylinder, Δt = 1e-5 s: {label} along time"),
            label,
            curves,
            Scale::Log,
        )?;
        let files = figure.save(&dir, stem)?;
        report.add(
            &files.png,
            &format!("{label} against time, Δt = 1e-5 (PNG)"),
        );
        report.add(&files.svg, "the same figure as SVG");
        report.add(&files.csv, "its points (series, t, error)");
    }

    // Fig. 4: cost per step relative to Direct Euler with normalisation, each quaternion method
    // with and without normalisation (its default first).
    let timing = TimingOptions {
        min_repeats: 5,
        max_repeats: 50,
        max_seconds: 0.5,
        tolerance: 0.03,
    };
    let mut costs: Vec<(String, bool, f64)> = Vec::new();
    for name in SPIRAL_METHODS {
        let default = spiral_stepper(name, *problem.body())?.renormalisation();
        let normalises = default != Renormalisation::Never;
        let ns = nanoseconds_per_step(&problem, name, LONG_RUN_DT, COST_STEPS, &timing)?;
        costs.push((name.to_string(), normalises, ns));
        let other = if normalises {
            Renormalisation::Never
        } else {
            Renormalisation::EveryStep
        };
        if spiral_stepper_renormalised(name, *problem.body(), other).is_ok() {
            let ns = nanoseconds_per_step_with(
                &problem,
                name,
                Some(other),
                LONG_RUN_DT,
                COST_STEPS,
                &timing,
            )?;
            costs.push((name.to_string(), !normalises, ns));
        }
    }
    let euler_cost = costs
        .iter()
        .find(|(m, normalised, _)| m == "direct_euler" && *normalised)
        .map_or(f64::NAN, |(_, _, ns)| *ns);
    let mut table = Table::new(&[
        "method",
        "normalized",
        "ns_per_step",
        "relative_to_direct_euler",
    ])?;
    summary.push_str(
        "\nCost per step (ns, relative to Direct Euler with normalisation; default policy first):\n",
    );
    for (name, normalised, ns) in &costs {
        table.push(vec![
            Cell::text(name.clone()),
            Cell::text(if *normalised { "yes" } else { "no" }),
            Cell::Real(*ns),
            Cell::Real(ns / euler_cost),
        ])?;
        let flag = if *normalised {
            "normalised"
        } else {
            "not normalised"
        };
        summary.push_str(&format!(
            "  {name:<16} {flag:<15} {ns:7.1} {:6.2}\n",
            ns / euler_cost
        ));
    }
    let path = dir.join("step_cost.csv");
    table.write(&path)?;
    report.add(
        &path,
        "median wall time per step (ns; runs of 1e5 steps of 1e-5 s) with and without \
         normalisation, relative to Direct Euler with normalisation (Fig. 4)",
    );
    let switchable: Vec<&str> = SPIRAL_METHODS
        .iter()
        .copied()
        .filter(|m| costs.iter().filter(|(n, _, _)| n == m).count() == 2)
        .collect();
    let group = |normalised: bool| -> Vec<f64> {
        switchable
            .iter()
            .map(|m| {
                costs
                    .iter()
                    .find(|(n, f, _)| n == m && *f == normalised)
                    .map_or(f64::NAN, |(_, _, ns)| ns / euler_cost)
            })
            .collect()
    };
    let categories: Vec<String> = switchable.iter().map(|m| m.to_string()).collect();
    let figure = bar_figure(
        "Cost per time step relative to Direct Euler with normalisation",
        "time per step / Direct Euler's",
        &categories,
        &[
            BarGroup::new("with normalisation", group(true)),
            BarGroup::new("without normalisation", group(false)),
        ],
        Scale::Linear,
    )?
    .with_reference_line(1.0, "Direct Euler");
    let files = figure.save(&dir, "fig4_step_cost")?;
    report.add(
        &files.png,
        "cost per step relative to Direct Euler, with and without normalisation (PNG)",
    );
    report.add(&files.svg, "the same figure as SVG");
    report.add(&files.csv, "its bars (series, method, relative cost)");

    // Fig. 5: CPU time to simulate 1 s at the step of Table 2, relative to Direct Euler.
    let speed_timing = TimingOptions {
        min_repeats: 3,
        max_repeats: 10,
        max_seconds: 1.0,
        tolerance: 0.05,
    };
    let mut table = Table::new(&["method", "target", "cpu_seconds", "speedup_vs_direct_euler"])?;
    let mut seconds: Vec<(String, f64, f64)> = Vec::new();
    for (name, target, dt) in &ours {
        if let Some(dt) = dt {
            seconds.push((
                name.clone(),
                *target,
                seconds_to_simulate(&problem, name, *dt, &speed_timing)?,
            ));
        }
    }
    let euler_seconds = |target: f64| {
        seconds
            .iter()
            .find(|(m, t, _)| m == "direct_euler" && *t == target)
            .map_or(f64::NAN, |(_, _, s)| *s)
    };
    for (name, target, s) in &seconds {
        table.push(vec![
            Cell::text(name.clone()),
            Cell::Real(*target),
            Cell::Real(*s),
            Cell::Real(euler_seconds(*target) / s),
        ])?;
    }
    let path = dir.join("speedup.csv");
    table.write(&path)?;
    report.add(
        &path,
        "CPU time to simulate 1 s at each method's Table-2 step and the speed-up over Direct Euler \
         (Fig. 5)",
    );
    let with_all: Vec<&str> = SPIRAL_METHODS
        .iter()
        .copied()
        .filter(|m| seconds.iter().filter(|(n, _, _)| n == m).count() == TABLE2_TARGETS.len())
        .collect();
    let groups: Vec<BarGroup> = TABLE2_TARGETS
        .iter()
        .map(|target| {
            let values = with_all
                .iter()
                .map(|m| {
                    seconds
                        .iter()
                        .find(|(n, t, _)| n == m && t == target)
                        .map_or(f64::NAN, |(_, _, s)| euler_seconds(*target) / s)
                })
                .collect();
            BarGroup::new(format!("target {target:e}"), values)
        })
        .collect();
    let categories: Vec<String> = with_all.iter().map(|m| m.to_string()).collect();
    let figure = bar_figure(
        "Speed-up over Direct Euler at equal error after 1 s",
        "CPU time of Direct Euler / CPU time",
        &categories,
        &groups,
        Scale::Log,
    )?
    .with_reference_line(1.0, "Direct Euler");
    let files = figure.save(&dir, "fig5_speedup")?;
    report.add(
        &files.png,
        "speed-up over Direct Euler for the four targets (PNG)",
    );
    report.add(&files.svg, "the same figure as SVG");
    report.add(&files.csv, "its bars (series = target, method, speed-up)");
    summary.push_str("\nSpeed-up over Direct Euler at target 1e-3 / 1e-5:\n");
    for name in &with_all {
        let at = |target: f64| {
            seconds
                .iter()
                .find(|(n, t, _)| n == name && *t == target)
                .map_or(f64::NAN, |(_, _, s)| euler_seconds(target) / s)
        };
        summary.push_str(&format!("  {name:<16} {:9.1} {:9.1}\n", at(1e-3), at(1e-5)));
    }

    // The generic adaptive engine on the same problem: DOP853 lifted to SU(2) × ℝ³, against
    // the catalogue in error per torque evaluation.
    let lifted = lifted_dop853(&problem, &speed_timing)?;
    let mut table = Table::new(&[
        "tol",
        "q_error",
        "omega_error",
        "averaged_error",
        "evaluations",
        "cpu_seconds",
    ])?;
    for r in &lifted {
        table.push(vec![
            Cell::Real(r.tol),
            Cell::Real(r.q_error),
            Cell::Real(r.omega_error),
            Cell::Real(averaged_error(r.q_error, r.omega_error)),
            Cell::count(r.evaluations),
            Cell::Real(r.seconds),
        ])?;
    }
    let path = dir.join("dop853_lifted.csv");
    table.write(&path)?;
    report.add(
        &path,
        "DOP853 lifted to SU(2) × ℝ³ on the cylinder, tol 1e-3 … 1e-13: errors at t = 1, \
         evaluations, CPU time",
    );
    let mut work_curves: Vec<Curve> = [
        "rk4",
        "omelyan",
        "spiral_leapfrog",
        "spiral_magnus",
        "rkmk4",
        "velocity_verlet",
        "direct_euler",
    ]
    .iter()
    .map(|name| {
        let evaluations_per_step =
            spiral_stepper(name, *problem.body()).map_or(1, |s| s.torque_evaluations_per_step());
        let (x, y) = rows
            .iter()
            .filter(|(m, p)| m == name && p.averaged() > 0.0 && p.dt >= 1e-6)
            .map(|(_, p)| ((p.steps * evaluations_per_step) as f64, p.averaged()))
            .unzip();
        Curve::new(*name, x, y)
    })
    .collect();
    let (x, y) = lifted
        .iter()
        .map(|r| {
            (
                r.evaluations as f64,
                averaged_error(r.q_error, r.omega_error),
            )
        })
        .unzip();
    work_curves.push(Curve::new("DOP853 lifted (adaptive)", x, y));
    let figure = work_precision_figure(
        "Cylinder, t ≤ 1 s: ½(err_q + err_ω) against torque evaluations",
        WorkAxis::Evaluations,
        &work_curves,
    )?;
    let files = figure.save(&dir, "work_precision")?;
    report.add(
        &files.png,
        "averaged error against torque evaluations: fixed-step methods of the catalogue (dt ≥ 1e-6) \
         and the Lie-lifted DOP853 (PNG)",
    );
    report.add(&files.svg, "the same figure as SVG");
    report.add(&files.csv, "its points (series, evaluations, error)");

    report.summary = summary;
    Ok(report)
}

/// Steps per timing run of [`nanoseconds_per_step`] in [`spiral_paper`].
pub const COST_STEPS: usize = 100_000;
