//! # Experiments: methods over a grid of step sizes or tolerances
//!
//! An *experiment* runs a set of methods on one problem over a grid of step sizes `h` (fixed-step
//! methods) or of tolerances `tol` (adaptive methods), and collects for every method and grid
//! value the error against a reference (exact or computed), the work (right-hand-side
//! evaluations, steps) and the median wall time of one run. From these it derives observed
//! orders and, by bracketing, the step size (or tolerance) that reaches a target error. It
//! produces data and [`crate::csv::Table`]s; the figures are drawn elsewhere.
//!
//! | piece | what it does | module |
//! |---|---|---|
//! | [`RunOutcome`], [`Runner`], [`GridKind`] | one run of one method at one grid value; a named method | here |
//! | [`run_study`], [`Experiment`], [`MethodResult`], [`Measurement`], [`Failure`] | the grid study and its results, observed and local orders | [`study`] |
//! | [`Experiment::to_table`], [`Series`], [`Abscissa`] | tables and `(x, error)` series for figures | [`report`] |
//! | [`TimingOptions`], [`median_seconds`], [`time_runs`] | median wall time, repeated until stable | [`timing`] |
//! | [`step_for_error`], [`error_crossings`] | the step that reaches a target error (SPIRAL paper, Table 2) | [`bracket`] |
//! | [`FixedStep`], [`Adaptive`], [`StepCount`] | runners for the crate's fixed-step engines and adaptive drivers | [`runners`] |
//!
//! Any integrator takes part: wrap it in a closure `FnMut(f64) -> Result<RunOutcome>` that maps
//! a grid value to one run and name it with [`Runner::new`].
//!
//! # Examples
//! A step-size study of RK4 on an exact-solution problem, and the step that reaches an error of
//! `1e-8`:
//! ```
//! use lieode::engine::ExplicitRk;
//! use lieode_study::experiment::{run_study, FixedStep, GridKind, TimingOptions};
//! use lieode::problems::VectorTestProblem;
//! use lieode::tableau::registry::RK4;
//!
//! let p = VectorTestProblem::default();
//! let rk4 = FixedStep::new(ExplicitRk::<f64, 3>::new(&RK4)?, p, p.exact(0.0), 0.0, 2.0)
//!     .error(move |t, x| Ok((x - p.exact(t)).norm()));
//! let grid = [0.1, 0.05, 0.025, 0.0125];
//! let study = run_study("vector", GridKind::StepSize, &grid, &mut [rk4], &TimingOptions::once())?;
//! let rk4 = &study.results[0];
//! assert!((rk4.observed_order.unwrap() - 4.0).abs() < 0.1);
//! let h = rk4.value_for_error(1e-8)?;
//! assert!(0.0125 < h && h < 0.1);
//! let csv = study.to_table()?.to_csv();
//! assert!(csv.starts_with("problem,method,h,error,evaluations,steps,seconds,repeats\n"));
//! # Ok::<(), lieode_study::Error>(())
//! ```
//!
//! # References
//! - M. del Valle, V. Angelidakis, S. Roy, J. D. Muñoz, T. Pöschel, *SPIRAL: An efficient
//!   algorithm for the integration of the equation of rotational motion*, Comput. Phys. Commun.
//!   297 (2024) 109077, §3–4 (error against the time step, Fig. 2; the time step reaching a
//!   target error by bracketing, Table 2; speed-up at equal error, Fig. 5).
//! - E. Hairer, S. P. Nørsett, G. Wanner, *Solving Ordinary Differential Equations I*, 2nd ed.,
//!   Springer (1993), §II.1 (observed order) and §II.10 (work–precision diagrams).
//! - J. Chen, J. Revels, *Robust benchmarking in noisy environments*, arXiv:1608.04295 (2016)
//!   (repeated runs and robust location estimates for timings).

pub mod bracket;
pub mod report;
pub mod runners;
pub mod study;
pub mod timing;

pub use bracket::{error_crossings, step_for_error};
pub use report::{Abscissa, Series};
pub use runners::{Adaptive, FixedStep, StepCount};
pub use study::{Experiment, Failure, Measurement, MethodResult, run_study};
pub use timing::{Timed, TimingOptions, median_seconds, time_runs};

use crate::error::Result;

/// What one run of a method at one grid value returns.
///
/// `error` is measured against the problem's reference (exact or computed) in whatever norm the
/// experiment uses; it must be finite and non-negative. `evaluations` counts right-hand-side
/// (vector-field or generator) evaluations, `steps` the steps taken (attempted steps for adaptive
/// methods, rejected ones included). `used` is the grid value the run actually used when the
/// runner had to adjust it — for instance `h = (t_end − t0)/round((t_end − t0)/h)` when a step
/// size does not divide the span — and `None` when it used the requested value; the
/// [`Measurement`] stores the value actually used.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunOutcome {
    /// The error of the run against the reference.
    pub error: f64,
    /// Right-hand-side evaluations.
    pub evaluations: usize,
    /// Steps taken.
    pub steps: usize,
    /// The grid value actually used, if it differs from the requested one.
    pub used: Option<f64>,
}

impl RunOutcome {
    /// An outcome at the requested grid value (`used = None`).
    pub fn new(error: f64, evaluations: usize, steps: usize) -> Self {
        Self {
            error,
            evaluations,
            steps,
            used: None,
        }
    }

    /// The same outcome, recorded as run at the grid value `used`.
    pub fn with_used(self, used: f64) -> Self {
        Self {
            used: Some(used),
            ..self
        }
    }
}

/// The boxed run of a [`Runner`]: grid value in, outcome out.
type RunFn<'a> = Box<dyn FnMut(f64) -> Result<RunOutcome> + 'a>;

/// A named method: a closure mapping a grid value (a step size `h` or a tolerance) to one run.
///
/// The closure is called once per timing repeat, so it should do the whole run — build the
/// method and problem if needed, integrate, measure the error — and give the same outcome every
/// time it is called with the same value.
///
/// # Examples
/// ```
/// use lieode_study::experiment::{Runner, RunOutcome};
/// // A synthetic second-order method: error 3 h², 2 evaluations per step over [0, 1].
/// let mut r = Runner::new("synthetic", |h: f64| {
///     let steps = (1.0 / h).round() as usize;
///     Ok(RunOutcome::new(3.0 * h * h, 2 * steps, steps))
/// });
/// assert_eq!(r.name, "synthetic");
/// assert_eq!(r.run(0.5)?.evaluations, 4);
/// # Ok::<(), lieode_study::Error>(())
/// ```
pub struct Runner<'a> {
    /// The method's name, as it appears in tables and legends (unique within a study).
    pub name: String,
    body: RunFn<'a>,
}

impl<'a> Runner<'a> {
    /// A runner called `name` that runs `run(value)` at each grid value.
    pub fn new(name: impl Into<String>, run: impl FnMut(f64) -> Result<RunOutcome> + 'a) -> Self {
        Self {
            name: name.into(),
            body: Box::new(run),
        }
    }

    /// The same runner under another name.
    pub fn named(self, name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            ..self
        }
    }

    /// One run at the grid value `value`.
    ///
    /// # Errors
    /// Whatever the closure returns.
    pub fn run(&mut self, value: f64) -> Result<RunOutcome> {
        (self.body)(value)
    }
}

impl std::fmt::Debug for Runner<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// What the grid values of a study are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GridKind {
    /// Step sizes `h` of fixed-step methods: the observed order is fitted.
    StepSize,
    /// Tolerances of adaptive methods (passed as is to the runners).
    Tolerance,
}

impl GridKind {
    /// The column name of the grid value in tables: `h` or `tol`.
    pub fn column(self) -> &'static str {
        match self {
            GridKind::StepSize => "h",
            GridKind::Tolerance => "tol",
        }
    }
}
