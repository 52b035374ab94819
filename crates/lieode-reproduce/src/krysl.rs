//! Krysl's paper (P. Krysl, *Dynamically equivalent implicit algorithms for the integration of
//! rigid body rotations*, Commun. Numer. Meth. Engng 24 (2008) 141–156, online 2007), §5:
//! the convergence studies of its Figs. 1–3, the long-run Hamiltonian of its Figs. 4–5, and a
//! work–precision comparison of its momentum-conserving midpoint rule IMIDM with the explicit
//! rigid-body Munthe-Kaas RK4, SPIRAL and Hairer's DOP853 (not in the paper).
//!
//! Every method works on the state `(R, Π)` (attitude body → lab, body angular momentum) of
//! [`lieode::momentum`]; the problems and their DOP853 references are
//! [`lieode::problems::krysl`]. The errors are the paper's: `‖Π − Π_ref‖₂` (Euclidean) and
//! `‖R − R_ref‖₂` (spectral norm), [`krysl_errors`].
//!
//! The long run of Figs. 4–5 is made at the paper's step, Δt = 0.5 ([`HAMILTONIAN_STEP`]),
//! 40 000 steps.

use lieode::body::Frame;
use lieode::body::RigidBodyState;
use std::path::Path;
use std::time::Instant;

use nalgebra::{Quaternion, Vector3};

use crate::{Error, Result};
use lieode::body::quaternion::{normalize, rotation_matrix};
use lieode::engine::NonlinearOptions;
use lieode::integrate::{Options, Record, integrate};
use lieode::lie::product::Product;
use lieode::lie::rn::Rn;
use lieode::lie::so3::So3;
use lieode::momentum::{KryslMethod, MomentumIntegrator, Solver, hamiltonian};
use lieode::order::observed_order;
use lieode::problems::krysl::{KryslProblem, krysl_errors};
use lieode::problems::reference::ambient_dop853;
use lieode::rotation::{RigidBody, SpiralLeapfrog};
use lieode::stepper::{Span, Stats, Stepper, StepperInfo};
use lieode::tableau::registry::{GAUSS4, RK4};
use lieode_study::csv::{Cell, Table};
use lieode_study::experiment::{TimingOptions, time_runs};

/// The methods of the convergence studies, by the names used in every CSV: the nine of
/// [`KryslMethod::ALL`] (the paper's seven of Figs. 1–3, BBTRAPWD of its §4 and IMIDM built as
/// the implicit-midpoint Munthe-Kaas method, `imidm_mk`), then two fourth-order rigid-body
/// Munthe-Kaas methods in the spatial-momentum form (Krysl's MKRK, §3.7): explicit RK4
/// (`rkmk4`) and the two-stage Gauss method (`mk_gauss4`).
pub const CONVERGENCE_METHODS: [&str; 11] = [
    "akw",
    "bbtrap",
    "bbtrapwd",
    "swc1",
    "trap",
    "imid",
    "trapm",
    "imidm",
    "imidm_mk",
    "rkmk4",
    "mk_gauss4",
];

/// Step sizes per convergence study: five halvings from [`largest_step`].
pub const CONVERGENCE_STEPS: usize = 5;

/// The reference algorithms of Fig. 4: AKW, BBTRAP, SWC1.
pub const FIGURE4_METHODS: [KryslMethod; 3] =
    [KryslMethod::Akw, KryslMethod::BbTrap, KryslMethod::Swc1];

/// The present algorithms of Fig. 5: TRAP, IMID, TRAPM, IMIDM.
pub const FIGURE5_METHODS: [KryslMethod; 4] = [
    KryslMethod::Trap,
    KryslMethod::Imid,
    KryslMethod::TrapM,
    KryslMethod::ImidM,
];

/// The time span of the long run of Figs. 4–5 (§5.4): 40 000 steps of 0.5.
pub const HAMILTONIAN_T_END: f64 = 20_000.0;

/// The step of the long run of Figs. 4–5 (the paper's).
pub const HAMILTONIAN_STEP: f64 = 0.5;

/// The sampling interval of `hamiltonian.csv` in time units: every 10th step at Δt = 0.5.
pub const HAMILTONIAN_SAMPLE_TIME: f64 = 5.0;

/// The methods of the work–precision comparison, by their CSV names: IMIDM (composition form)
/// with simplified Newton and with fixed-point iteration, the explicit rigid-body Munthe-Kaas
/// RK4 in the spatial form, SPIRAL's leapfrog form (del Valle et al. 2024) and Hairer's DOP853
/// on the ambient quaternion/angular-velocity ODE.
pub const WORK_PRECISION_METHODS: [&str; 5] = [
    "imidm_newton",
    "imidm_fixed_point",
    "rkmk4",
    "spiral_leapfrog",
    "dop853",
];

/// The problem of the work–precision comparison: the free body up to `t = 100`. On the slow
/// top (t = 20) perturbations grow about a thousandfold, so the round-off of runs of 10⁵ steps
/// floors the fixed-step methods' errors near 1e-6 (see `docs/krysl.md`).
pub const WORK_PROBLEM: &str = "free_body";

/// The error targets at which the summary reports each method's CPU time.
pub const WORK_TARGETS: [f64; 2] = [1e-4, 1e-6];

/// The tolerances (`rtol = atol`) of the DOP853 runs of the work–precision comparison.
pub const WORK_DOP853_TOLERANCES: [f64; 9] =
    [1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12];

/// The integrator named `name` (one of [`CONVERGENCE_METHODS`]) for `problem`, implicit solves
/// by `solver` with the default [`NonlinearOptions`].
///
/// # Errors
/// [`Error::InvalidParameter`] naming `method` for an unknown name; those of the constructors.
pub fn momentum_method(
    name: &str,
    problem: &KryslProblem,
    solver: Solver,
) -> Result<MomentumIntegrator> {
    let body = *problem.body();
    let munthe_kaas = |tableau| {
        MomentumIntegrator::munthe_kaas(
            tableau,
            Frame::Lab,
            body,
            solver,
            NonlinearOptions::default(),
        )
    };
    match name {
        "rkmk4" => Ok(munthe_kaas(&RK4)?),
        "mk_gauss4" => Ok(munthe_kaas(&GAUSS4)?),
        _ => {
            let method = KryslMethod::from_name(name).map_err(|_| Error::InvalidParameter {
                name: "method",
                value: name.to_string(),
                expected: format!("one of {CONVERGENCE_METHODS:?}"),
            })?;
            Ok(MomentumIntegrator::krysl(method, body, solver)?)
        }
    }
}

/// The largest step of the convergence study of `problem` (the grid halves it
/// [`CONVERGENCE_STEPS`]` − 1` times): 0.4 for the free body (t = 100), 0.04 for the slow top
/// (t = 20), 0.01 for the fast top (t = 5, spin 50 rad/s: 0.5 rad per step at the largest).
///
/// # Errors
/// [`Error::InvalidParameter`] naming `problem` for the Coulomb problem (it has no
/// convergence study).
pub fn largest_step(problem: &KryslProblem) -> Result<f64> {
    match problem.name() {
        "free_body" => Ok(0.4),
        "slow_top" => Ok(0.04),
        "fast_top" => Ok(0.01),
        other => Err(Error::InvalidParameter {
            name: "problem",
            value: other.to_string(),
            expected: "free_body, slow_top or fast_top".into(),
        }),
    }
}

/// `count` step sizes `largest · 2⁻ᵏ`, `k = 0 … count − 1`.
pub fn halvings(largest: f64, count: usize) -> Vec<f64> {
    (0..count)
        .map(|k| largest * 0.5f64.powi(k as i32))
        .collect()
}

/// The number of steps `n = t_end / dt`, which must be a whole number (to 1e-9 relative).
///
/// # Errors
/// [`Error::InvalidParameter`] naming `dt` for a step that is not positive or does not divide
/// `t_end`.
pub fn step_count(t_end: f64, dt: f64) -> Result<usize> {
    let n = t_end / dt;
    if !(dt > 0.0 && n.is_finite() && (n - n.round()).abs() <= 1e-9 * n.max(1.0)) {
        return Err(Error::InvalidParameter {
            name: "dt",
            value: format!("{dt:e}"),
            expected: format!("a positive step dividing t_end = {t_end:e}"),
        });
    }
    Ok(n.round() as usize)
}

/// One run of a convergence study: a method at one step up to the problem's `t_end`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConvergenceRun {
    /// The method's CSV name.
    pub method: &'static str,
    /// The step size.
    pub dt: f64,
    /// The final state `(R, Π)` at `t_end`.
    pub state: RigidBodyState,
    /// `‖Π − Π_ref‖₂` at `t_end`.
    pub pi_error: f64,
    /// `‖R − R_ref‖₂` (spectral norm) at `t_end`.
    pub r_error: f64,
    /// Torque (right-hand-side) evaluations of the run.
    pub evaluations: usize,
}

/// A convergence study of one problem: its reference at `t_end` and every run.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvergenceStudy {
    /// The problem.
    pub problem: KryslProblem,
    /// The DOP853 reference state at `t_end` ([`KryslProblem::reference`]).
    pub reference: RigidBodyState,
    /// The runs, in method order, then in step order.
    pub runs: Vec<ConvergenceRun>,
}

impl ConvergenceStudy {
    /// The runs of `method`, in step order.
    pub fn runs_of<'a>(&'a self, method: &'a str) -> impl Iterator<Item = &'a ConvergenceRun> {
        self.runs.iter().filter(move |r| r.method == method)
    }

    /// The observed orders `(p_Π, p_R)` of `method`: least-squares slopes of `log error`
    /// against `log dt` ([`observed_order`]).
    ///
    /// # Errors
    /// Those of [`observed_order`] (fewer than two runs, a zero error).
    pub fn orders(&self, method: &str) -> Result<(f64, f64)> {
        self.orders_over(method, 0)
    }

    /// The observed orders `(p_Π, p_R)` of `method` from its two finest steps only,
    /// `log(e₁/e₂)/log(Δt₁/Δt₂)`: the local slope at the fine end of the grid.
    ///
    /// # Errors
    /// As [`ConvergenceStudy::orders`].
    pub fn finest_orders(&self, method: &str) -> Result<(f64, f64)> {
        let n = self.runs_of(method).count();
        self.orders_over(method, n.saturating_sub(2))
    }

    /// [`observed_order`] of the runs of `method` from the `skip`-th on.
    fn orders_over(&self, method: &str, skip: usize) -> Result<(f64, f64)> {
        let runs: Vec<&ConvergenceRun> = self.runs_of(method).skip(skip).collect();
        let dts: Vec<f64> = runs.iter().map(|r| r.dt).collect();
        let pi: Vec<f64> = runs.iter().map(|r| r.pi_error).collect();
        let r: Vec<f64> = runs.iter().map(|r| r.r_error).collect();
        Ok((observed_order(&dts, &pi)?, observed_order(&dts, &r)?))
    }
}

/// The convergence study of `problem`: the reference at `t_end` is computed once, then every
/// method of `methods` (names of [`CONVERGENCE_METHODS`]) runs with simplified Newton at every
/// step of `steps`, the runs spread over up to two threads.
///
/// # Errors
/// Those of the reference, of [`step_count`] and of the runs (naming method and step).
pub fn convergence_study(
    problem: &KryslProblem,
    methods: &[&'static str],
    steps: &[f64],
) -> Result<ConvergenceStudy> {
    let reference = problem.reference(problem.t_end())?;
    let jobs: Vec<(&'static str, f64)> = methods
        .iter()
        .flat_map(|&m| steps.iter().map(move |&dt| (m, dt)))
        .collect();
    let runs = parallel_map(&jobs, |&(method, dt)| {
        convergence_run(problem, &reference, method, dt)
    })?;
    Ok(ConvergenceStudy {
        problem: *problem,
        reference,
        runs,
    })
}

/// One run of `method` at `dt` from the problem's initial state to `t_end`, measured against
/// `reference`.
///
/// # Errors
/// Those of [`momentum_method`], [`step_count`] and the integration, with the method and step
/// added to a solver failure's context.
pub fn convergence_run(
    problem: &KryslProblem,
    reference: &RigidBodyState,
    method: &'static str,
    dt: f64,
) -> Result<ConvergenceRun> {
    let steps = step_count(problem.t_end(), dt)?;
    let mut integrator = momentum_method(method, problem, Solver::Newton)?;
    let (state, stats) = run_to_end(&mut integrator, problem, dt, steps)
        .map_err(|e| in_context(e, problem.name(), method, dt))?;
    let (pi_error, r_error) = krysl_errors(&state, reference);
    Ok(ConvergenceRun {
        method,
        dt,
        state,
        pi_error,
        r_error,
        evaluations: stats.rhs_evaluations,
    })
}

/// `convergence.csv`: `problem,method,dt,pi_error,r_error`, one row per run.
///
/// # Errors
/// None in practice (the rows match the header).
pub fn convergence_table(studies: &[ConvergenceStudy]) -> Result<Table> {
    let mut table = Table::new(&["problem", "method", "dt", "pi_error", "r_error"])?;
    for study in studies {
        for run in &study.runs {
            table.push(vec![
                Cell::text(study.problem.name()),
                Cell::text(run.method),
                Cell::Real(run.dt),
                Cell::Real(run.pi_error),
                Cell::Real(run.r_error),
            ])?;
        }
    }
    Ok(table)
}

/// `orders.csv`: `problem,method,pi_order,r_order,pi_order_finest,r_order_finest`, one row per
/// problem and method of [`CONVERGENCE_METHODS`]: [`ConvergenceStudy::orders`] and
/// [`ConvergenceStudy::finest_orders`].
///
/// # Errors
/// Those of [`ConvergenceStudy::orders`].
pub fn orders_table(studies: &[ConvergenceStudy]) -> Result<Table> {
    let mut table = Table::new(&[
        "problem",
        "method",
        "pi_order",
        "r_order",
        "pi_order_finest",
        "r_order_finest",
    ])?;
    for study in studies {
        for method in CONVERGENCE_METHODS {
            let (p, r) = study.orders(method)?;
            let (pf, rf) = study.finest_orders(method)?;
            table.push(vec![
                Cell::text(study.problem.name()),
                Cell::text(method),
                Cell::Real(p),
                Cell::Real(r),
                Cell::Real(pf),
                Cell::Real(rf),
            ])?;
        }
    }
    Ok(table)
}

/// `final_states.csv`: `problem,method,dt,t,R11 … R33,Pi1,Pi2,Pi3`, one row per run, then one
/// row per problem for the reference (method `reference`, `dt = NaN`).
///
/// # Errors
/// None in practice (the rows match the header).
pub fn final_states_table(studies: &[ConvergenceStudy]) -> Result<Table> {
    let mut table = Table::new(&[
        "problem", "method", "dt", "t", "R11", "R12", "R13", "R21", "R22", "R23", "R31", "R32",
        "R33", "Pi1", "Pi2", "Pi3",
    ])?;
    let row = |problem: &str, method: &str, dt: f64, t: f64, y: &RigidBodyState| {
        let r = y.0.matrix();
        let mut cells = vec![
            Cell::text(problem),
            Cell::text(method),
            Cell::Real(dt),
            Cell::Real(t),
        ];
        cells.extend((0..3).flat_map(|i| (0..3).map(move |j| Cell::Real(r[(i, j)]))));
        cells.extend(y.1.0.iter().map(|&p| Cell::Real(p)));
        cells
    };
    for study in studies {
        let (name, t) = (study.problem.name(), study.problem.t_end());
        for run in &study.runs {
            table.push(row(name, run.method, run.dt, t, &run.state))?;
        }
        table.push(row(name, "reference", f64::NAN, t, &study.reference))?;
    }
    Ok(table)
}

/// The long run of §5.4 for one method: the relative Hamiltonian error
/// `h_rel = (H − H₀)/|H₀|` sampled every `every` steps (from `t = 0`), its maximum
/// `max |h_rel|` over **every** step, and where the run stopped if an implicit solve failed.
#[derive(Debug, Clone, PartialEq)]
pub struct HamiltonianRun {
    /// The method.
    pub method: KryslMethod,
    /// The step size.
    pub dt: f64,
    /// `(t, h_rel)` every `every` steps, up to the end or the failure.
    pub samples: Vec<(f64, f64)>,
    /// `max |h_rel|` over all steps made.
    pub max_abs: f64,
    /// `(t, message)` of the step that failed, if one did (the run stops there).
    pub failure: Option<(f64, String)>,
}

impl HamiltonianRun {
    /// The median of `|h_rel|` over the samples after `t = 0`: the typical size of the error
    /// between the spikes of the wall contacts (0 without samples).
    pub fn median_abs(&self) -> f64 {
        let mut values: Vec<f64> = self.samples.iter().skip(1).map(|(_, h)| h.abs()).collect();
        values.sort_by(f64::total_cmp);
        match values.len() {
            0 => 0.0,
            n if n % 2 == 1 => values[n / 2],
            n => 0.5 * (values[n / 2 - 1] + values[n / 2]),
        }
    }
}

/// Integrates `problem` with `method` (simplified Newton) for `steps` steps of `dt` and
/// records the relative Hamiltonian error `(H − H₀)/|H₀|`, `H = ½ Π·J⁻¹Π + V(R)` (Figs. 4–5).
/// A failed step (an implicit solve that does not converge) ends the run and is recorded in
/// [`HamiltonianRun::failure`], not returned as an error.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `problem` if its torque has no potential or `H₀ = 0`,
/// or `every` if it is zero; those of the integrator's construction.
pub fn hamiltonian_run(
    problem: &KryslProblem,
    method: KryslMethod,
    dt: f64,
    steps: usize,
    every: usize,
) -> Result<HamiltonianRun> {
    if every == 0 {
        return Err(Error::InvalidParameter {
            name: "every",
            value: "0".into(),
            expected: "a sampling interval of at least one step".into(),
        });
    }
    let (body, torque) = (*problem.body(), problem.torque());
    let energy = |y: &RigidBodyState| {
        hamiltonian(&body, &torque, y).ok_or_else(|| Error::InvalidParameter {
            name: "problem",
            value: problem.name().to_string(),
            expected: "a torque with a potential".into(),
        })
    };
    let y = problem.initial_state();
    let h0 = energy(&y)?;
    if h0 == 0.0 {
        return Err(Error::InvalidParameter {
            name: "problem",
            value: problem.name().to_string(),
            expected: "a non-zero initial Hamiltonian".into(),
        });
    }
    let mut integrator = MomentumIntegrator::krysl(method, body, Solver::Newton)?;
    let mut samples = Vec::new();
    let mut max_abs: f64 = 0.0;
    let h_rel = |y: &RigidBodyState| energy(y).map(|h| (h - h0) / h0.abs());
    let mut bad_problem = None;
    // Step 0 records (0, 0): the initial state's own relative error.
    let mut observer = |n: usize, t: f64, state: &RigidBodyState| match h_rel(state) {
        Ok(e) => {
            max_abs = max_abs.max(e.abs());
            if n.is_multiple_of(every) {
                samples.push((t, e));
            }
        }
        Err(e) => bad_problem = Some(e),
    };
    let mut torque = torque;
    let options = Options::record(Record::Ends).observer(&mut observer);
    let outcome = integrate(
        &mut integrator,
        &mut torque,
        &y,
        &Span::stride(0.0, dt, steps)?,
        options,
    );
    if let Some(e) = bad_problem {
        return Err(e);
    }
    let failure = outcome.err().map(|e| {
        let t = samples.last().map_or(0.0, |s| s.0);
        (t, e.to_string())
    });
    Ok(HamiltonianRun {
        method,
        dt,
        samples,
        max_abs,
        failure,
    })
}

/// The long runs of Figs. 4–5: the seven methods of [`FIGURE4_METHODS`] and
/// [`FIGURE5_METHODS`] on `problem` over `[0, t_end]` with steps `dt` (sampled every
/// `sample_time`), on up to two threads.
///
/// # Errors
/// [`lieode::Error::NonConvergence`] naming the methods whose implicit solves failed, and when; those
/// of [`hamiltonian_run`] and [`step_count`].
pub fn hamiltonian_runs(
    problem: &KryslProblem,
    t_end: f64,
    dt: f64,
    sample_time: f64,
) -> Result<Vec<HamiltonianRun>> {
    let methods: Vec<KryslMethod> = FIGURE4_METHODS.into_iter().chain(FIGURE5_METHODS).collect();
    let steps = step_count(t_end, dt)?;
    let every = step_count(sample_time, dt)?;
    let runs = parallel_map(&methods, |&m| hamiltonian_run(problem, m, dt, steps, every))?;
    let failures: Vec<String> = runs
        .iter()
        .filter_map(|r| {
            r.failure
                .as_ref()
                .map(|(t, e)| format!("{} after t = {t:.2}: {e}", r.method.name()))
        })
        .collect();
    if failures.is_empty() {
        Ok(runs)
    } else {
        Err(lieode::Error::NonConvergence {
            context: format!("{} at Δt = {dt}: {}", problem.name(), failures.join("; ")),
            iterations: 0,
        }
        .into())
    }
}

/// `hamiltonian_summary.csv`: `method,max_abs_h_rel,median_abs_h_rel`, one row per run:
/// [`HamiltonianRun::max_abs`] and [`HamiltonianRun::median_abs`].
///
/// # Errors
/// None in practice (the rows match the header).
pub fn hamiltonian_summary_table(runs: &[HamiltonianRun]) -> Result<Table> {
    let mut table = Table::new(&["method", "max_abs_h_rel", "median_abs_h_rel"])?;
    for run in runs {
        table.push(vec![
            Cell::text(run.method.name()),
            Cell::Real(run.max_abs),
            Cell::Real(run.median_abs()),
        ])?;
    }
    Ok(table)
}

/// `hamiltonian.csv`: `method,t,h_rel`, the samples of every run.
///
/// # Errors
/// None in practice (the rows match the header).
pub fn hamiltonian_table(runs: &[HamiltonianRun]) -> Result<Table> {
    let mut table = Table::new(&["method", "t", "h_rel"])?;
    for run in runs {
        for &(t, h) in &run.samples {
            table.push(vec![
                Cell::text(run.method.name()),
                Cell::Real(t),
                Cell::Real(h),
            ])?;
        }
    }
    Ok(table)
}

/// One run of the work–precision comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkPoint {
    /// The method's CSV name (one of [`WORK_PRECISION_METHODS`]).
    pub method: &'static str,
    /// The step size, or DOP853's tolerance.
    pub parameter: f64,
    /// [`work_error`] at `t_end`.
    pub error: f64,
    /// Median CPU (wall) time of one run, construction included, in seconds.
    pub cpu_seconds: f64,
    /// Torque (right-hand-side) evaluations of one run.
    pub evaluations: usize,
}

/// The error of the work–precision comparison: `max(‖Π − Π_ref‖₂, ‖R − R_ref‖₂)`, the larger
/// of the paper's two norms ([`krysl_errors`]).
pub fn work_error(state: &RigidBodyState, reference: &RigidBodyState) -> f64 {
    let (pi, r) = krysl_errors(state, reference);
    pi.max(r)
}

/// The step sizes (or, for `dop853`, the tolerances) of the work–precision runs of `method`
/// on the free body up to `t = 100` ([`WORK_PROBLEM`]): each grid spans errors from about 1e-2
/// to below 1e-6.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `method` for a name not in [`WORK_PRECISION_METHODS`].
pub fn work_grid(method: &str) -> Result<Vec<f64>> {
    Ok(match method {
        "imidm_newton" | "imidm_fixed_point" => halvings(0.2, 9),
        "rkmk4" => halvings(0.4, 6),
        "spiral_leapfrog" => halvings(0.2, 10),
        "dop853" => WORK_DOP853_TOLERANCES.to_vec(),
        _ => {
            return Err(Error::InvalidParameter {
                name: "method",
                value: method.to_string(),
                expected: format!("one of {WORK_PRECISION_METHODS:?}"),
            });
        }
    })
}

/// `steps` steps of `dt` of `integrator` on `problem` from its initial state at `t = 0`: the final
/// `(R, Π)` and the work counted.
///
/// # Errors
/// Those of the integration.
fn run_to_end(
    integrator: &mut MomentumIntegrator,
    problem: &KryslProblem,
    dt: f64,
    steps: usize,
) -> Result<(RigidBodyState, Stats)> {
    let sol = integrate(
        integrator,
        &mut problem.torque(),
        &problem.initial_state(),
        &Span::stride(0.0, dt, steps)?,
        Options::record(Record::Ends),
    )?;
    let state = *sol
        .last()
        .ok_or(lieode::Error::NonFiniteState {
            what: "momentum run without a final state",
            t: 0.0,
        })?
        .1;
    Ok((state, sol.stats))
}

/// The final state at `t_end` and the torque evaluations of one run of the work–precision
/// method `method` (one of [`WORK_PRECISION_METHODS`]) at `parameter` (step or tolerance).
///
/// # Errors
/// [`Error::InvalidParameter`] naming `method` for an unknown name; those of the run.
pub fn work_run(
    problem: &KryslProblem,
    method: &str,
    parameter: f64,
) -> Result<(RigidBodyState, usize)> {
    let momentum = |name: &str, solver| -> Result<(RigidBodyState, usize)> {
        let steps = step_count(problem.t_end(), parameter)?;
        let mut integrator = momentum_method(name, problem, solver)?;
        let (y, stats) = run_to_end(&mut integrator, problem, parameter, steps)?;
        Ok((y, stats.rhs_evaluations))
    };
    match method {
        "imidm_newton" => momentum("imidm", Solver::Newton),
        "imidm_fixed_point" => momentum("imidm", Solver::FixedPoint),
        "rkmk4" => momentum("rkmk4", Solver::Newton),
        "spiral_leapfrog" => spiral_run(problem, parameter),
        "dop853" => dop853_run(problem, parameter),
        _ => Err(Error::InvalidParameter {
            name: "method",
            value: method.to_string(),
            expected: format!("one of {WORK_PRECISION_METHODS:?}"),
        }),
    }
}

/// The state `(R(q/|q|), Jω)` of a rotor and body angular velocity.
pub fn momentum_state(
    body: &RigidBody,
    q: &Quaternion<f64>,
    omega: &Vector3<f64>,
) -> RigidBodyState {
    Product(
        So3::from_matrix_unchecked(rotation_matrix(&normalize(q))),
        Rn(body.body_momentum(omega)),
    )
}

/// SPIRAL (leapfrog form, [`SpiralLeapfrog`]) at step `dt` up to `t_end`: the body torque
/// from [`KryslProblem::lab_torque`], the final `ω` synchronised to `t_end` by the stepper's
/// [`Stepper::state`] (its `ω` otherwise lives at half steps). Returns `(R, Π = Jω)` and the
/// torque evaluations the stepper counted (one per step, one for the start, one for the
/// synchronisation).
///
/// # Errors
/// Those of [`step_count`] and of the stepper.
pub fn spiral_run(problem: &KryslProblem, dt: f64) -> Result<(RigidBodyState, usize)> {
    let steps = step_count(problem.t_end(), dt)?;
    let mut torque = problem.lab_torque();
    let mut stepper = SpiralLeapfrog::new(*problem.body());
    let start = problem.rotor_initial_state();
    stepper.start(&mut torque, &Span::stride(start.t, dt, steps)?, &start)?;
    for _ in 0..steps {
        stepper.step(&mut torque)?;
    }
    let end = stepper.state(&mut torque)?;
    Ok((
        momentum_state(problem.body(), &end.q, &end.omega),
        stepper.stats().rhs_evaluations,
    ))
}

/// Hairer's DOP853 at `rtol = atol = tol` on the ambient rotor/angular-velocity ODE
/// ([`lieode::problems::reference::ambient_rhs`], the ODE of the reference solutions) from `t = 0` to `t_end`. Returns
/// `(R(q/|q|), Jω)` and the right-hand-side evaluations.
///
/// # Errors
/// Those of the tolerances and of the integration.
pub fn dop853_run(problem: &KryslProblem, tol: f64) -> Result<(RigidBodyState, usize)> {
    let start = problem.rotor_initial_state();
    let body = *problem.body();
    let (end, evaluations) =
        ambient_dop853(&body, &problem.lab_torque(), &start, problem.t_end(), tol)?;
    Ok((momentum_state(&body, &end.q, &end.omega), evaluations))
}

/// The work–precision comparison on `problem`: every method of [`WORK_PRECISION_METHODS`] over
/// its [`work_grid`], each run timed by [`time_work_run`] and measured against `reference` by
/// [`work_error`].
///
/// # Errors
/// Those of the runs and of the timing.
pub fn work_precision(
    problem: &KryslProblem,
    reference: &RigidBodyState,
    timing: &TimingOptions,
) -> Result<Vec<WorkPoint>> {
    let mut points = Vec::new();
    for method in WORK_PRECISION_METHODS {
        for parameter in work_grid(method)? {
            let (cpu_seconds, (state, evaluations)) =
                time_work_run(problem, method, parameter, timing)?;
            points.push(WorkPoint {
                method,
                parameter,
                error: work_error(&state, reference),
                cpu_seconds,
                evaluations,
            });
        }
    }
    Ok(points)
}

/// The shortest a timed sample of [`time_work_run`] lasts, in seconds.
pub const MIN_SAMPLE_SECONDS: f64 = 2e-3;

/// The CPU time of one run of [`work_run`] and its result: the median over samples
/// ([`time_runs`] with `timing`) of a sample of `k` whole runs divided by `k`, where `k` is
/// chosen from the duration of one warm-up run so that a sample lasts at least
/// [`MIN_SAMPLE_SECONDS`] — runs of tens of microseconds (DOP853, SPIRAL at large steps) are
/// thus not at the mercy of one interruption or of the clock's resolution.
///
/// # Errors
/// Those of the run and of the timing.
pub fn time_work_run(
    problem: &KryslProblem,
    method: &str,
    parameter: f64,
    timing: &TimingOptions,
) -> Result<(f64, (RigidBodyState, usize))> {
    let start = Instant::now();
    work_run(problem, method, parameter)?;
    let once = start.elapsed().as_secs_f64();
    let k = (MIN_SAMPLE_SECONDS / once.max(1e-9))
        .ceil()
        .clamp(1.0, 10_000.0) as usize;
    let timed = time_runs(timing, || {
        let mut last = work_run(problem, method, parameter)?;
        for _ in 1..k {
            last = work_run(problem, method, parameter)?;
        }
        Ok(last)
    })?;
    Ok((timed.seconds / k as f64, timed.value))
}

/// `work_precision.csv`: `method,parameter,error,cpu_seconds,evaluations`.
///
/// # Errors
/// None in practice (the rows match the header).
pub fn work_precision_table(points: &[WorkPoint]) -> Result<Table> {
    let mut table = Table::new(&["method", "parameter", "error", "cpu_seconds", "evaluations"])?;
    for p in points {
        table.push(vec![
            Cell::text(p.method),
            Cell::Real(p.parameter),
            Cell::Real(p.error),
            Cell::Real(p.cpu_seconds),
            Cell::count(p.evaluations),
        ])?;
    }
    Ok(table)
}

/// The CPU time `method` needs for the error `target`: walking its runs in grid order (falling
/// error), the first pair of consecutive runs whose errors bracket the target, interpolated
/// linearly in `(log error, log cpu)`; `None` if no pair brackets it.
pub fn cpu_for_error(points: &[WorkPoint], method: &str, target: f64) -> Option<f64> {
    let runs: Vec<&WorkPoint> = points.iter().filter(|p| p.method == method).collect();
    runs.windows(2).find_map(|pair| {
        let (a, b) = (pair[0], pair[1]);
        let (ea, eb) = (a.error.ln(), b.error.ln());
        let y = target.ln();
        if (ea - y) * (eb - y) > 0.0 || ea == eb {
            return None;
        }
        let s = (y - ea) / (eb - ea);
        Some((a.cpu_seconds.ln() + s * (b.cpu_seconds.ln() - a.cpu_seconds.ln())).exp())
    })
}

/// Runs `f` on every item, spread over up to two threads; results in item order.
///
/// # Errors
/// The first error in item order; [`Error::InvalidParameter`] naming `thread` if a worker
/// panicked.
fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn(&T) -> Result<R> + Sync,
) -> Result<Vec<R>> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 2);
    let mut slots: Vec<Option<Result<R>>> = (0..items.len()).map(|_| None).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                let f = &f;
                scope.spawn(move || {
                    (k..items.len())
                        .step_by(threads)
                        .map(|i| (i, f(&items[i])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for handle in handles {
            if let Ok(done) = handle.join() {
                for (i, r) in done {
                    slots[i] = Some(r);
                }
            }
        }
    });
    slots
        .into_iter()
        .map(|slot| {
            slot.unwrap_or_else(|| {
                Err(Error::InvalidParameter {
                    name: "thread",
                    value: "a worker panicked".into(),
                    expected: "every run to return".into(),
                })
            })
        })
        .collect()
}

/// Adds the problem, method and step to a solver failure's context.
fn in_context(error: Error, problem: &str, method: &str, dt: f64) -> Error {
    match error {
        Error::Lieode(lieode::Error::NonConvergence {
            context,
            iterations,
        }) => Error::Lieode(lieode::Error::NonConvergence {
            context: format!("{problem}, {method}, dt = {dt:e}: {context}"),
            iterations,
        }),
        other => other,
    }
}

/// Krysl's paper: writes `convergence.csv`, `orders.csv`, `final_states.csv`,
/// `hamiltonian.csv`, `hamiltonian_summary.csv`, `work_precision.csv` and the figures `fig1_free_body_{pi,r}`, `fig2_slow_top_{pi,r}`,
/// `fig3_fast_top_{pi,r}`, `fig4_hamiltonian_reference`, `fig5_hamiltonian_present` and
/// `fig_work_precision` (PNG, SVG and the CSV of its points each) under `krysl_paper/` of the
/// output root, and returns the measured orders, the Hamiltonian maxima and the costs at the
/// targets [`WORK_TARGETS`] as the summary.
///
/// # Errors
/// Those of the runs, of the figures and of writing the files.
pub fn krysl_paper() -> Result<super::Report> {
    let dir = crate::output::output_dir("krysl_paper")?;
    let mut report = super::Report::new("krysl_paper");
    let mut summary = String::new();

    let studies = KryslProblem::convergence_problems()?
        .iter()
        .map(|p| {
            let steps = halvings(largest_step(p)?, CONVERGENCE_STEPS);
            convergence_study(p, &CONVERGENCE_METHODS, &steps)
        })
        .collect::<Result<Vec<_>>>()?;
    write_convergence(&dir, &studies, &mut report, &mut summary)?;

    let runs = hamiltonian_runs(
        &KryslProblem::coulomb()?,
        HAMILTONIAN_T_END,
        HAMILTONIAN_STEP,
        HAMILTONIAN_SAMPLE_TIME,
    )?;
    write_hamiltonian(&dir, &runs, &mut report, &mut summary)?;

    let work = studies
        .iter()
        .find(|s| s.problem.name() == WORK_PROBLEM)
        .ok_or_else(|| Error::InvalidParameter {
            name: "problem",
            value: WORK_PROBLEM.into(),
            expected: "among the convergence problems".into(),
        })?;
    let timing = TimingOptions {
        min_repeats: 5,
        max_repeats: 25,
        max_seconds: 0.3,
        tolerance: 0.03,
    };
    let points = work_precision(&work.problem, &work.reference, &timing)?;
    write_work_precision(&dir, &points, &mut report, &mut summary)?;

    report.summary = summary;
    Ok(report)
}

/// Writes `convergence.csv`, `orders.csv`, `final_states.csv` and Figs. 1–3, and adds the measured orders to
/// `summary`.
fn write_convergence(
    dir: &Path,
    studies: &[ConvergenceStudy],
    report: &mut super::Report,
    summary: &mut String,
) -> Result<()> {
    use lieode_study::plot::{Curve, convergence_figure};

    let path = dir.join("convergence.csv");
    convergence_table(studies)?.write(&path)?;
    report.add(
        &path,
        "errors ‖Π − Π_ref‖₂ and ‖R − R_ref‖₂ (spectral) at t_end against the DOP853 reference, \
         every method on five halvings of dt: free body (t = 100), slow top (t = 20), fast top \
         (t = 5) — Figs. 1–3",
    );
    let path = dir.join("orders.csv");
    orders_table(studies)?.write(&path)?;
    report.add(
        &path,
        "observed orders p_Π, p_R of every method per problem: least squares over the five \
         steps and the slope of the two finest (the orders table of docs/krysl.md)",
    );
    let path = dir.join("final_states.csv");
    final_states_table(studies)?.write(&path)?;
    report.add(
        &path,
        "final R (row-major) and Π of every run, and the DOP853 reference per problem (method \
         `reference`, dt = NaN)",
    );

    summary.push_str(
        "Krysl (2007), Figs. 1–3: measured orders p_Π/p_R, least squares over the grid \
         (two finest steps)\n",
    );
    summary.push_str(&format!("  {:<10}", "method"));
    for study in studies {
        summary.push_str(&format!(" {:>21}", study.problem.name()));
    }
    summary.push('\n');
    for method in CONVERGENCE_METHODS {
        summary.push_str(&format!("  {method:<10}"));
        for study in studies {
            let (p, r) = study.orders(method)?;
            let (pf, rf) = study.finest_orders(method)?;
            summary.push_str(&format!(
                " {:>21}",
                format!("{p:.2}/{r:.2} ({pf:.2}/{rf:.2})")
            ));
        }
        summary.push('\n');
    }

    for (figure, study) in studies.iter().enumerate() {
        let name = study.problem.name();
        let title = name.replace('_', " ");
        for (suffix, label, pick) in [
            (
                "pi",
                "‖Π − Π_ref‖₂",
                (|r: &ConvergenceRun| r.pi_error) as fn(&ConvergenceRun) -> f64,
            ),
            ("r", "‖R − R_ref‖₂", |r: &ConvergenceRun| r.r_error),
        ] {
            let curves: Vec<Curve> = CONVERGENCE_METHODS
                .iter()
                .map(|m| {
                    let (x, y) = study.runs_of(m).map(|r| (r.dt, pick(r))).unzip();
                    Curve::new(*m, x, y)
                })
                .collect();
            let fig = convergence_figure(
                &format!(
                    "Fig. {}: {title}, t = {}: {label}",
                    figure + 1,
                    study.problem.t_end()
                ),
                &curves,
                &[2, 4],
            )?
            .with_x_label("time step Δt")
            .with_y_label(format!("{label} at t = {}", study.problem.t_end()));
            let files = fig.save(dir, &format!("fig{}_{name}_{suffix}", figure + 1))?;
            report.add_figure(
                &files,
                &format!("{label} against Δt, {title}, measured orders in the legend (PNG)"),
                "its points (series, dt, error)",
            );
        }
    }
    Ok(())
}

/// Writes `hamiltonian.csv`, `hamiltonian_summary.csv` and Figs. 4–5, and adds `max |h_rel|` per method and the failures
/// at larger steps (`failed`) to `summary`.
fn write_hamiltonian(
    dir: &Path,
    runs: &[HamiltonianRun],
    report: &mut super::Report,
    summary: &mut String,
) -> Result<()> {
    use lieode_study::plot::{Curve, CurveStyle, Scale, time_figure};

    let dt = runs.first().map_or(f64::NAN, |r| r.dt);
    let span = format!(
        "Δt = {dt}, {} steps",
        (HAMILTONIAN_T_END / dt).round() as usize
    );
    let path = dir.join("hamiltonian.csv");
    hamiltonian_table(runs)?.write(&path)?;
    report.add(
        &path,
        &format!(
            "Coulomb potential with soft wall (§5.4), t ≤ {HAMILTONIAN_T_END}, {span}: h_rel = (H − H₀)/|H₀| every {HAMILTONIAN_SAMPLE_TIME} time \
             units for AKW, BBTRAP, SWC1, TRAP, IMID, TRAPM, IMIDM — Figs. 4–5"
        ),
    );
    let path = dir.join("hamiltonian_summary.csv");
    hamiltonian_summary_table(runs)?.write(&path)?;
    report.add(
        &path,
        "max |h_rel| over every step and median |h_rel| of the samples, per method (the \
         long-run table of docs/krysl.md)",
    );
    summary.push_str(&format!(
        "\nKrysl, Figs. 4–5 (Coulomb potential + wall, t ≤ {HAMILTONIAN_T_END}, {span}): |h_rel|, max over \
         all steps and median of the samples\n"
    ));
    summary.push_str(&format!(
        "  {:<10} {:>10} {:>10}\n",
        "method", "max", "median"
    ));
    for run in runs {
        summary.push_str(&format!(
            "  {:<10} {:>10.3e} {:>10.3e}\n",
            run.method.name(),
            run.max_abs,
            run.median_abs()
        ));
    }
    for (stem, methods, what) in [
        (
            "fig4_hamiltonian_reference",
            &FIGURE4_METHODS[..],
            "reference algorithms",
        ),
        (
            "fig5_hamiltonian_present",
            &FIGURE5_METHODS[..],
            "present algorithms",
        ),
    ] {
        let curves: Vec<Curve> = runs
            .iter()
            .filter(|r| methods.contains(&r.method))
            .map(|r| {
                let (x, y) = r.samples.iter().copied().unzip();
                Curve::new(r.method.name(), x, y).with_style(CurveStyle::Markers)
            })
            .collect();
        let fig = time_figure(
            &format!("Coulomb potential with soft wall, {span}: {what}"),
            "(H − H₀)/|H₀|",
            &curves,
            Scale::Linear,
        )?;
        let files = fig.save(dir, stem)?;
        report.add_figure(
            &files,
            &format!("normalised Hamiltonian error against t, {what}, {span} (PNG)"),
            &format!("its points (series, t, h_rel), every {HAMILTONIAN_SAMPLE_TIME} time units"),
        );
    }
    Ok(())
}

/// Writes `work_precision.csv` and its figure, and adds the CPU time at [`WORK_TARGETS`] per
/// method to `summary`.
fn write_work_precision(
    dir: &Path,
    points: &[WorkPoint],
    report: &mut super::Report,
    summary: &mut String,
) -> Result<()> {
    use lieode_study::plot::{Curve, WorkAxis, work_precision_figure};

    let path = dir.join("work_precision.csv");
    work_precision_table(points)?.write(&path)?;
    report.add(
        &path,
        "free body up to t = 100: max(‖Π − Π_ref‖₂, ‖R − R_ref‖₂), median CPU time of one run and \
         torque evaluations for IMIDM (Newton, fixed point), RKMK4, SPIRAL leapfrog (step \
         grids) and DOP853 (tolerance grid)",
    );
    let curves: Vec<Curve> = WORK_PRECISION_METHODS
        .iter()
        .map(|m| {
            let (x, y) = points
                .iter()
                .filter(|p| p.method == *m)
                .map(|p| (p.cpu_seconds, p.error))
                .unzip();
            Curve::new(*m, x, y)
        })
        .collect();
    let fig = work_precision_figure(
        "Free body, t = 100: max(‖Π − Π_ref‖₂, ‖R − R_ref‖₂) against CPU time",
        WorkAxis::WallTime,
        &curves,
    )?
    .with_x_label("CPU time per run [s]");
    let files = fig.save(dir, "fig_work_precision")?;
    report.add_figure(
        &files,
        "work–precision on the free body: error against CPU time per run (PNG)",
        "its points (series, cpu seconds, error)",
    );

    summary.push_str(
        "\nWork–precision, free body t = 100 (max of the two errors): CPU time [s] at error\n",
    );
    summary.push_str(&format!("  {:<18}", "method"));
    for t in WORK_TARGETS {
        summary.push_str(&format!(" {:>10}", format!("{t:e}")));
    }
    summary.push('\n');
    for method in WORK_PRECISION_METHODS {
        summary.push_str(&format!("  {method:<18}"));
        for target in WORK_TARGETS {
            let text =
                cpu_for_error(points, method, target).map_or("—".into(), |s| format!("{s:.2e}"));
            summary.push_str(&format!(" {text:>10}"));
        }
        summary.push('\n');
    }
    Ok(())
}
