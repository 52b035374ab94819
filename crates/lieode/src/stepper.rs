//! # The stepper protocol
//!
//! Every integrator of the library — the fixed-step engines (through [`crate::engine::Fixed`]),
//! the adaptive steppers on vectors and on Lie groups, the rotational catalogue and Krysl's
//! momentum family — is a [`Stepper`]: a stateful object that is started at a state, advanced
//! one accepted step at a time, and asked for its synchronised state, its work counters and,
//! where the method has one, its dense output. [`crate::integrate::integrate`] drives any of
//! them; users who drive the loop themselves call the same four methods.
//!
//! The problem (a vector field, a generator, a torque field) is passed to every call rather
//! than owned by the stepper, so one problem object can be changed between steps or shared by
//! several steppers.
//!
//! ```text
//! start(problem, span, y0)  →  step(problem) … step(problem)  →  state(problem)
//!                                 ↳ prepare_dense(problem), dense(t), segment()
//! ```

use crate::error::{Error, Result};

/// Counters of the work an integration did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Right-hand-side evaluations: vector field, generator or torque (force) evaluations.
    pub rhs_evaluations: usize,
    /// Jacobian evaluations (implicit engines).
    pub jacobian_evaluations: usize,
    /// Linear solves / LU factorisations (implicit engines).
    pub lu_decompositions: usize,
    /// Nonlinear-solver iterations (implicit engines).
    pub nonlinear_iterations: usize,
    /// Steps attempted.
    pub steps: usize,
    /// Steps accepted.
    pub accepted: usize,
    /// Steps rejected.
    pub rejected: usize,
}

impl Stats {
    /// Adds the counts of `other`.
    pub fn add(&mut self, other: &Stats) {
        self.rhs_evaluations += other.rhs_evaluations;
        self.jacobian_evaluations += other.jacobian_evaluations;
        self.lu_decompositions += other.lu_decompositions;
        self.nonlinear_iterations += other.nonlinear_iterations;
        self.steps += other.steps;
        self.accepted += other.accepted;
        self.rejected += other.rejected;
    }
}

/// What one accepted step did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepReport {
    /// Start of the step.
    pub t_start: f64,
    /// End of the step (the stepper's new time).
    pub t_end: f64,
    /// Whether this step completed the [`Span`] (the end of the interval, or the last of a
    /// fixed number of steps).
    pub finished: bool,
}

/// How the steps of an integration are laid out: where it starts, where it ends and, for
/// fixed-step methods, the step size.
///
/// | constructor | for | times of the steps |
/// |---|---|---|
/// | [`Span::new`]`(t0, t_end)` | adaptive steppers (they choose their steps) | the method's |
/// | [`Span::steps`]`(t0, t_end, n)` | fixed-step methods | `h = (t_end − t0)/n` |
/// | [`Span::stride`]`(t0, dt, n)` | fixed-step methods | `n` steps of size `dt` |
/// | [`Span::open`]`(t0, dt)` | fixed-step methods driven by hand | steps of size `dt`, no end |
///
/// Fixed-step methods compute their times from the step count, `t0 + i h`, rather than
/// accumulating `t += h` ([`crate::clock::FixedClock`], the one fixed-step clock;
/// [`crate::engine::Fixed`] takes [`crate::clock::FixedClock::landing`], which also ends exactly
/// on `t_end`).
///
/// # Examples
/// ```
/// use lieode::stepper::Span;
/// let span = Span::steps(0.0, 2.0, 8)?;
/// assert_eq!(span.fixed_step()?, (0.25, 8));
/// assert!(Span::new(0.0, 2.0)?.fixed_step().is_err()); // an adaptive span has no step size
/// assert!(Span::stride(0.0, f64::NAN, 10).is_err());
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    t0: f64,
    t_end: f64,
    grid: Grid,
}

/// The step layout of a [`Span`].
#[derive(Debug, Clone, Copy, PartialEq)]
enum Grid {
    /// The method chooses its steps.
    Free,
    /// `steps` steps of size `dt`.
    Fixed { dt: f64, steps: usize },
}

impl Span {
    /// From `t0` to `t_end`, steps chosen by the method (adaptive steppers).
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `t0` or `t_end`; [`Error::InvalidParameter`] naming `t_end`
    /// if it equals `t0` or if the length `t_end − t0` overflows (e.g. `[−10³⁰⁸, 10³⁰⁸]`).
    pub fn new(t0: f64, t_end: f64) -> Result<Self> {
        check_time("t0", t0)?;
        check_time("t_end", t_end)?;
        if t_end == t0 {
            return Err(Error::InvalidParameter {
                name: "t_end",
                value: format!("{t_end:e}"),
                expected: "a time different from t0".into(),
            });
        }
        if !(t_end - t0).is_finite() {
            return Err(Error::InvalidParameter {
                name: "t_end",
                value: format!("{t_end:e}"),
                expected: format!("a span whose length t_end − t0 is finite (t0 = {t0:e})"),
            });
        }
        Ok(Self {
            t0,
            t_end,
            grid: Grid::Free,
        })
    }

    /// `steps` equal steps from `t0` to `t_end`, `h = (t_end − t0)/steps` (which may be
    /// negative: integration backwards in time).
    ///
    /// # Errors
    /// As [`Span::new`]; [`Error::InvalidParameter`] naming `steps` for zero steps or a step
    /// too small to change the time (`t + h = t` in floating point somewhere on the span).
    pub fn steps(t0: f64, t_end: f64, steps: usize) -> Result<Self> {
        let free = Self::new(t0, t_end)?;
        if steps == 0 {
            return Err(Error::InvalidParameter {
                name: "steps",
                value: "0".into(),
                expected: "at least one step".into(),
            });
        }
        let dt = (t_end - t0) / steps as f64;
        if !resolves(t0, t_end, dt) {
            return Err(Error::InvalidParameter {
                name: "steps",
                value: steps.to_string(),
                expected: format!(
                    "a count whose step (t_end − t0)/steps = {dt:e} changes the time on [{t0:e}, {t_end:e}]"
                ),
            });
        }
        Ok(Self {
            grid: Grid::Fixed { dt, steps },
            ..free
        })
    }

    /// `steps` steps of size `dt` from `t0` (`dt` may be negative); the nominal end is
    /// `t0 + steps·dt`.
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `t0` or `dt`; [`Error::InvalidParameter`] naming `dt` for
    /// `dt = 0` or a step too small to change the time (`t + dt = t` in floating point, e.g.
    /// `dt = 1e-8` at `t0 = 1e9`), naming `steps` for zero steps or an end time that overflows.
    pub fn stride(t0: f64, dt: f64, steps: usize) -> Result<Self> {
        check_time("t0", t0)?;
        check_time("dt", dt)?;
        if dt == 0.0 {
            return Err(Error::InvalidParameter {
                name: "dt",
                value: "0".into(),
                expected: "a non-zero step size".into(),
            });
        }
        if steps == 0 {
            return Err(Error::InvalidParameter {
                name: "steps",
                value: "0".into(),
                expected: "at least one step".into(),
            });
        }
        let t_end = t0 + steps as f64 * dt;
        if !t_end.is_finite() {
            return Err(Error::InvalidParameter {
                name: "steps",
                value: steps.to_string(),
                expected: format!("a count with t0 + steps·dt finite (dt = {dt:e})"),
            });
        }
        if !resolves(t0, t_end, dt) {
            return Err(Error::InvalidParameter {
                name: "dt",
                value: format!("{dt:e}"),
                expected: format!("a step that changes the time on [{t0:e}, {t_end:e}]"),
            });
        }
        Ok(Self {
            t0,
            t_end,
            grid: Grid::Fixed { dt, steps },
        })
    }

    /// Steps of size `dt` from `t0` with no planned end: for loops driven by hand (a stepper on
    /// such a span never reports [`StepReport::finished`]; its nominal end is `±∞`).
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `t0` or `dt`; [`Error::InvalidParameter`] naming `dt` for
    /// `dt = 0` or a step too small to change `t0`.
    pub fn open(t0: f64, dt: f64) -> Result<Self> {
        check_time("t0", t0)?;
        check_time("dt", dt)?;
        if !resolves(t0, t0, dt) {
            return Err(Error::InvalidParameter {
                name: "dt",
                value: format!("{dt:e}"),
                expected: format!("a non-zero step that changes the time at t0 = {t0:e}"),
            });
        }
        Ok(Self {
            t0,
            t_end: f64::INFINITY.copysign(dt),
            grid: Grid::Fixed {
                dt,
                steps: usize::MAX,
            },
        })
    }

    /// The start time.
    pub fn t0(&self) -> f64 {
        self.t0
    }

    /// The end time (for [`Span::stride`], the nominal `t0 + steps·dt`; `±∞` for
    /// [`Span::open`]).
    pub fn t_end(&self) -> f64 {
        self.t_end
    }

    /// The step size and number of steps of a fixed-step span (`usize::MAX` for
    /// [`Span::open`]).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `span` for a span made by [`Span::new`].
    pub fn fixed_step(&self) -> Result<(f64, usize)> {
        match self.grid {
            Grid::Fixed { dt, steps } => Ok((dt, steps)),
            Grid::Free => Err(Error::InvalidParameter {
                name: "span",
                value: format!("[{:e}, {:e}] without a step size", self.t0, self.t_end),
                expected: "a fixed-step span: Span::steps or Span::stride".into(),
            }),
        }
    }

    /// The step size and number of steps of a fixed-step span, `None` for an adaptive one
    /// (as [`Span::fixed_step`], without building an error).
    pub fn fixed_grid(&self) -> Option<(f64, usize)> {
        match self.grid {
            Grid::Fixed { dt, steps } => Some((dt, steps)),
            Grid::Free => None,
        }
    }

    /// The end of an adaptive span.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `span` for a fixed-step span (adaptive steppers
    /// choose their own steps).
    pub fn adaptive_end(&self) -> Result<f64> {
        match self.grid {
            Grid::Free => Ok(self.t_end),
            Grid::Fixed { .. } => Err(Error::InvalidParameter {
                name: "span",
                value: format!("[{:e}, {:e}] with a fixed step", self.t0, self.t_end),
                expected: "an adaptive span: Span::new(t0, t_end)".into(),
            }),
        }
    }
}

/// Whether a step `dt` changes the time everywhere on `[t0, t_end]`: `t + dt ≠ t` at the end of
/// larger magnitude (where the spacing of floating-point numbers is widest).
fn resolves(t0: f64, t_end: f64, dt: f64) -> bool {
    let t = if t0.abs() >= t_end.abs() { t0 } else { t_end };
    dt.is_finite() && t + dt != t
}

/// [`Error::NonFinite`] naming `name` unless `t` is finite.
fn check_time(name: &'static str, t: f64) -> Result<()> {
    if t.is_finite() {
        Ok(())
    } else {
        Err(Error::NonFinite { name })
    }
}

/// One step's stored dense output: the state at any time inside the step.
pub trait Piece {
    /// The state type.
    type State;
    /// Start and end of the step.
    fn span(&self) -> (f64, f64);
    /// The state at `t`.
    fn eval(&self, t: f64) -> Self::State;
}

/// The [`Stepper::Segment`] of a method without dense output (no value of it exists).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoDenseOutput<S> {
    /// Never constructed; carries the state type.
    #[doc(hidden)]
    Never(std::convert::Infallible, std::marker::PhantomData<S>),
}

impl<S> Piece for NoDenseOutput<S> {
    type State = S;
    fn span(&self) -> (f64, f64) {
        match *self {
            Self::Never(never, _) => match never {},
        }
    }
    fn eval(&self, _t: f64) -> S {
        match *self {
            Self::Never(never, _) => match never {},
        }
    }
}

/// What a stepper tells about its run, whatever the problem: its name, its time and its work.
///
/// The supertrait of [`Stepper`], apart so that `stepper.time()` needs no problem type.
pub trait StepperInfo {
    /// The method's name, for tables and plots.
    fn name(&self) -> &str;

    /// The current time.
    fn time(&self) -> f64;

    /// The work done since the last start.
    fn stats(&self) -> Stats;
}

/// A stateful one-step integrator for problems of type `P`.
///
/// The life of a stepper: [`Stepper::start`] at a state and a [`Span`], then
/// [`Stepper::step`] until a step reports [`StepReport::finished`]; in between,
/// [`Stepper::state`] gives the synchronised state at [`StepperInfo::time`] (for leapfrog methods
/// this synchronises the half-step velocities and may evaluate the problem, counted) and
/// [`StepperInfo::stats`] the work done since the start. A stepper can be started again; each start
/// resets its counters.
///
/// Methods with dense output answer [`Stepper::prepare_dense`] with `true`; then
/// [`Stepper::dense`] gives the state at any time inside the last step and
/// [`Stepper::segment`] a stored copy of it.
pub trait Stepper<P: ?Sized>: StepperInfo {
    /// The state: a vector, a group element, a rigid body's rotor and angular velocity, …
    type State: Clone;
    /// One step's stored dense output ([`NoDenseOutput`] for methods without).
    type Segment: Piece<State = Self::State>;

    /// Starts at `y0` at time `span.t0()` with the span's step layout (and resets the counters).
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `y0` for a non-finite state; [`Error::InvalidParameter`]
    /// naming `span` when the span's kind does not fit the method (fixed step vs adaptive);
    /// the method's own checks; a failed first evaluation.
    fn start(&mut self, problem: &mut P, span: &Span, y0: &Self::State) -> Result<()>;

    /// One accepted step (an adaptive method retries rejected attempts inside, counted in
    /// [`Stats::rejected`]).
    ///
    /// # Errors
    /// [`Error::NonFiniteState`] for a non-finite evaluation or state, with its time;
    /// [`Error::NonConvergence`] for a failed implicit solve; [`Error::StepSizeTooSmall`] and
    /// [`Error::MaxStepsExceeded`] for adaptive methods; [`Error::InvalidParameter`] naming
    /// `start` for a stepper that was not started.
    fn step(&mut self, problem: &mut P) -> Result<StepReport>;

    /// The synchronised state at [`StepperInfo::time`].
    ///
    /// # Errors
    /// A failed evaluation (leapfrog methods evaluate the problem to synchronise); a stepper
    /// that was not started.
    fn state(&mut self, problem: &mut P) -> Result<Self::State>;

    /// Tells the stepper that the problem was changed in place since the last step (a new
    /// parameter, a switched force): what it carries from the old problem to save work (a FSAL
    /// derivative, a kept Jacobian) is recomputed or dropped, so the next step uses only the
    /// new one. The state, the time and the step-size history are kept. Passing a *different*
    /// problem object needs no call: steppers that cache notice the change of address.
    ///
    /// # Errors
    /// A failed evaluation of the new problem; a stepper that was not started.
    fn problem_changed(&mut self, _problem: &mut P) -> Result<()> {
        Ok(())
    }

    /// Replaces the state at the current time by `y`, an equivalent representation the caller
    /// chose (a reparametrisation such as the reset generator of
    /// [`crate::kinematics::Generator::reset`]). The stepper restarts cleanly from it: a FSAL
    /// derivative is recomputed (one evaluation, counted), the step-size history is kept, and
    /// the dense output of the last step, prepared before the call, stays that of the old
    /// representation (no step interpolates across the replacement).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `reset` for a stepper that cannot replace its state
    /// (the default); [`Error::NonFinite`] naming `y` for a non-finite state; a failed
    /// evaluation.
    fn reset_state(&mut self, _problem: &mut P, _y: &Self::State) -> Result<()> {
        Err(Error::InvalidParameter {
            name: "reset",
            value: self.name().to_string(),
            expected: "a stepper that can restart from a replaced state (VectorStepper, \
                       LieStepper, engine::Fixed, Controlled)"
                .into(),
        })
    }

    /// Prepares the dense output of the last step (may cost evaluations, counted); `false` if
    /// the method has none.
    ///
    /// # Errors
    /// A failed evaluation.
    fn prepare_dense(&mut self, _problem: &mut P) -> Result<bool> {
        Ok(false)
    }

    /// The state at `t` inside the last step, after [`Stepper::prepare_dense`] returned `true`;
    /// `None` for a method without dense output.
    fn dense(&self, _t: f64) -> Option<Self::State> {
        None
    }

    /// The last step's dense output as a stored piece, after [`Stepper::prepare_dense`]
    /// returned `true` (restricted to `[t_start, t_end]`, which may end inside the step where an
    /// event stopped the integration); `None` for a method without dense output.
    fn segment(&self, _t_start: f64, _t_end: f64) -> Option<Self::Segment> {
        None
    }
}

/// The error of a stepper used before [`Stepper::start`].
pub fn not_started() -> Error {
    Error::InvalidParameter {
        name: "start",
        value: "step called before start".into(),
        expected: "Stepper::start(problem, span, y0) first".into(),
    }
}
