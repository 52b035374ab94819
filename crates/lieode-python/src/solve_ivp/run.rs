//! One run: the library's driver ([`integrate`]) with any stepper on any state, and its result
//! in the flat layouts Python reshapes.
//!
//! The driver locates the events on the dense output ([`lieode::integrate::Event`]), stores
//! the dense output for `sol` and `t_eval`, and stops at `max_steps`. A recorder observer keeps
//! every state, so that a run that fails (step size too small) still returns what it computed,
//! and checks for Ctrl-C.

use lieode::Error;
use lieode::integrate::{Event, Options, Record, StopReason, integrate};
use lieode::stepper::{Span, Stepper};
use pyo3::prelude::*;

use super::callbacks::{Callbacks, Recorder};
use super::config::Config;
use super::dense::{DenseOutput, Interpolant};
use super::state::PyState;
use crate::errors::to_py;

/// What a run returns to Python, states flat (`floats` per state).
pub struct Outcome {
    /// The output times.
    pub t: Vec<f64>,
    /// The states at `t`, flat.
    pub y: Vec<f64>,
    /// Per event function, the times of its zeros.
    pub t_events: Vec<Vec<f64>>,
    /// Per event function, the states at its zeros, flat.
    pub y_events: Vec<Vec<f64>>,
    /// Evaluations of the right-hand side.
    pub nfev: usize,
    /// SciPy's status: 0 end reached, 1 terminal event, −1 failure.
    pub status: i32,
    /// Why it stopped.
    pub message: String,
    /// The dense output, if asked for.
    pub sol: Option<DenseOutput>,
    /// The accepted times and states (flat) when `t` and `y` are `t_eval`'s and the run was
    /// asked to keep them ([`Config::keep_steps`]); `None` when `t` and `y` are the steps.
    pub steps: Option<(Vec<f64>, Vec<f64>)>,
}

/// SciPy's message for a run that reached its end.
const FINISHED: &str = "The solver successfully reached the end of the integration interval.";
/// SciPy's message for a run stopped by a terminal event.
const TERMINAL: &str = "A termination event occurred.";

/// Whether a library error is a failure of the integration itself (reported as status −1
/// with what was computed, as SciPy does) rather than of its input.
fn is_integration_failure(error: &Error) -> bool {
    matches!(
        error,
        Error::StepSizeTooSmall { .. }
            | Error::MaxStepsExceeded { .. }
            | Error::ProblemIsStiff { .. }
            | Error::NonConvergence { .. }
    )
}

/// The package's exception for a library error, naming `fun` or `events` where the library
/// names what they computed.
fn exception(py: Python<'_>, error: Error) -> PyErr {
    let renamed = match &error {
        Error::NonFiniteState { what, .. }
            if *what == "right-hand side" || *what == "generator" =>
        {
            Some("fun")
        }
        Error::NonFiniteState { what, .. } if *what == "event function" => Some("events"),
        _ => None,
    };
    let err = to_py(py, error);
    if let Some(name) = renamed {
        let _ = err.value(py).setattr("parameter", name);
    }
    err
}

/// The span of a run: adaptive, or `⌈|t1 − t0|/step⌉` equal steps ending on `t1`.
fn span(config: &Config) -> lieode::Result<Span> {
    match config.step {
        None => Span::new(config.t0, config.t1),
        Some(h) => {
            let steps = ((config.t1 - config.t0).abs() / h).ceil();
            if !(1.0..1e15).contains(&steps) {
                return Err(Error::InvalidParameter {
                    name: "step",
                    value: format!("{h:e}"),
                    expected: format!(
                        "a positive step giving between 1 and 1e15 steps over [{:e}, {:e}]",
                        config.t0, config.t1
                    ),
                });
            }
            Span::steps(config.t0, config.t1, steps as usize)
        }
    }
}

/// Integrates `problem` from `y0` with `stepper` as `config` says; `callbacks` hold the Python
/// callables (`None` for a Rust right-hand side without events).
///
/// # Errors
/// A callable's exception, unchanged; a signal's (`KeyboardInterrupt`); the package's
/// exceptions for bad input. A failure of the integration itself is status −1.
pub fn run<P, M>(
    py: Python<'_>,
    stepper: &mut M,
    problem: &mut P,
    y0: &M::State,
    config: &Config,
    callbacks: Option<&Callbacks<'_>>,
) -> PyResult<Outcome>
where
    P: ?Sized,
    M: Stepper<P>,
    M::State: PyState,
    M::Segment: Send + Sync + 'static,
{
    let span = span(config).map_err(|e| to_py(py, e))?;
    let mut recorder = Recorder::new(callbacks);
    let events = match callbacks {
        Some(callbacks) => (config.events.iter().enumerate())
            .map(|(index, spec)| {
                Event::new(
                    move |t, y: &M::State| callbacks.event(index, t, y),
                    spec.direction,
                    spec.terminal,
                )
            })
            .collect(),
        None => Vec::new(),
    };
    let options = Options {
        record: Record::Ends,
        dense: config.needs_dense(),
        events,
        observers: vec![&mut recorder],
        max_steps: config.max_steps,
    };
    let result = integrate(stepper, problem, y0, &span, options);
    if let Some(error) = callbacks.and_then(Callbacks::take_failure) {
        return Err(error);
    }
    let nfev = stepper.stats().rhs_evaluations;
    let solution = match result {
        Ok(solution) => solution,
        Err(error) if is_integration_failure(&error) => {
            let count = config.events.len();
            return Ok(Outcome {
                t: recorder.times,
                y: recorder.states,
                t_events: vec![Vec::new(); count],
                y_events: vec![Vec::new(); count],
                nfev,
                status: -1,
                message: capitalised(&error.to_string()),
                sol: None,
                steps: None,
            });
        }
        Err(error) => return Err(exception(py, error)),
    };
    let (status, message) = match solution.stop {
        StopReason::Finished => (0, FINISHED.to_string()),
        StopReason::TerminalEvent(_) => (1, TERMINAL.to_string()),
        StopReason::MaxSteps => (
            -1,
            format!(
                "max_steps = {} steps were taken before the end of the interval.",
                config.max_steps.unwrap_or(0)
            ),
        ),
    };
    let mut t_events = vec![Vec::new(); config.events.len()];
    let mut y_events = vec![Vec::new(); config.events.len()];
    for hit in &solution.events {
        t_events[hit.index].push(hit.t);
        hit.state.write_flat(&mut y_events[hit.index]);
    }
    let mut steps = None;
    let (t, y) = match &config.t_eval {
        None => (recorder.times, recorder.states),
        Some(times) => {
            let last = solution.last().map_or(config.t0, |(t, _)| t);
            let forward = config.t1 > config.t0;
            let reached = |t: f64| if forward { t <= last } else { t >= last };
            let t: Vec<f64> = times.iter().copied().take_while(|&t| reached(t)).collect();
            let mut y = Vec::with_capacity(t.len() * M::State::FLOATS);
            for &ti in &t {
                solution.eval_into(ti, &mut y).map_err(|e| to_py(py, e))?;
            }
            if config.keep_steps {
                steps = Some((recorder.times, recorder.states));
            }
            (t, y)
        }
    };
    let sol = config
        .dense
        .then(|| DenseOutput::new(Box::new(solution) as Box<dyn Interpolant>));
    Ok(Outcome {
        t,
        y,
        t_events,
        y_events,
        nfev,
        status,
        message,
        sol,
        steps,
    })
}

/// `message` with a capital first letter and a full stop, as SciPy's messages.
fn capitalised(message: &str) -> String {
    let mut chars = message.chars();
    let mut out: String = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    };
    if !out.ends_with('.') {
        out.push('.');
    }
    out
}
