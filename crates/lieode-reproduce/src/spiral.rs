//! The SPIRAL paper's benchmark (del Valle et al., CPC 297 (2024) 109077, §4 and App. A):
//! the torque-driven cylinder integrated by every method of the rotational catalogue, measured
//! as the published benchmark measured it (`algorithms.md` §1), with its Table 2 and the data
//! of its Figs. 2–5.

use std::time::Instant;

use nalgebra::Vector3;

use crate::{Error, Result};
use lieode::problems::cylinder::{
    BenchmarkErrors, CylinderParameters, SpiralCylinder, benchmark_errors, benchmark_step_sizes,
};
use lieode::rotation::{
    CatalogueStepper, ConstantBodyTorque, MercuryDpm, Renormalisation, catalogue,
};
use lieode::stepper::Span;
use lieode_study::experiment::{TimingOptions, step_for_error, time_runs};

/// A stepper of the catalogue on the cylinder's torque.
pub type CylinderStepper = catalogue::BoxedStepper<ConstantBodyTorque>;

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
    let mut stepper = catalogue::stepper::<ConstantBodyTorque>(name, *problem.body())?;
    Ok(benchmark_errors(problem, &mut *stepper, dt)?)
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
    let mut stepper = catalogue::stepper::<ConstantBodyTorque>(name, *problem.body())?;
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
/// Those of [`catalogue::stepper_renormalised`], of the runs and of the timing.
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
        Some(policy) => catalogue::stepper_renormalised(name, *problem.body(), policy)?,
        None => catalogue::stepper::<ConstantBodyTorque>(name, *problem.body())?,
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
    Ok(SpiralCylinder::new(CylinderParameters {
        t_max: 20.0,
        ..CylinderParameters::default()
    })?)
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
    use lieode::adaptive::{ControllerParameters, Dop853, LieStepper, Tolerances};
    use lieode::integrate::{Options, integrate};
    use lieode::stepper::Span;
    let t_end = problem.t_max();
    let mut out = Vec::with_capacity(DOP853_TOLERANCES.len());
    for tol in DOP853_TOLERANCES {
        let run = || {
            let method = Dop853::new(
                Tolerances::scalar(tol, tol)?,
                ControllerParameters::dop853(),
            )?;
            Ok(integrate(
                &mut LieStepper::new(method),
                &mut problem.clone(),
                &problem.initial_group_state(),
                &Span::new(0.0, t_end)?,
                Options::default(),
            )?)
        };
        let timed = time_runs(timing, run)?;
        let sol = timed.value;
        let (t, y) = sol.last().ok_or(lieode::Error::NonFiniteState {
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

/// Steps per timing run of [`nanoseconds_per_step`] in [`super::spiral_paper`].
pub const COST_STEPS: usize = 100_000;
