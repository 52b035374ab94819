//! # The driver
//!
//! [`integrate`] runs any [`Stepper`] — a fixed-step engine through
//! [`crate::engine::Fixed`], an adaptive stepper on vectors or on a Lie group, a rotational
//! stepper of the rigid-body catalogue, one of Krysl's momentum methods, any stepper in one of
//! Boyle's rotation formulations ([`crate::kinematics::Formulated`]) — over a [`Span`] and
//! returns one [`Solution`]: the stored states, the work done ([`Stats`]), why it stopped
//! ([`StopReason`]), the events located and, where the method has it, the dense output.
//! [`Options`] say what to store ([`Record`]), which events to locate ([`Event`]), which
//! observers to call ([`Observer`], e.g. an energy [`Series`]) and how many steps to allow.
//!
//! Users who drive the loop themselves call the stepper's own `start`, `step` and `state`.

mod events;
mod observer;
mod options;
mod solution;

pub use events::{
    DEFAULT_EVENT_SAMPLES, Direction, Event, EventFn, EventHit, LOCATE_MAX_ITERATIONS,
    MAX_EVENT_SAMPLES,
};
pub use observer::{Observer, Series};
pub use options::{Options, Record};
pub use solution::{Solution, StopReason};

use crate::error::{Error, Result};
pub use crate::stepper::{Span, Stats, StepReport, Stepper, StepperInfo};

use events::{checked_g, step_events};

/// Integrates `problem` from `y0` over `span` with `stepper`.
///
/// The stepper is started at `y0` (every earlier run is forgotten, its counters reset), then
/// advanced one step at a time until it completes the span, a terminal event fires or
/// [`Options::max_steps`] is reached. After each step the driver asks for the synchronised state
/// only when something needs it (a stored state, an observer, an event), so a run that
/// stores only its ends costs a leapfrog method no extra evaluation.
///
/// # Errors
/// Those of the stepper (invalid span or state, non-finite values, failed solves, step-size
/// underflow, a method's own step limit) and of the observers and event functions;
/// [`Error::InvalidParameter`] naming `record` for `Record::Every(0)`, naming `events` or
/// `dense` for a stepper without dense output.
///
/// # Examples
/// ```
/// use lieode::adaptive::{Dop853, Tolerances, VectorStepper, ControllerParameters};
/// use lieode::integrate::{Options, integrate};
/// use lieode::stepper::Span;
/// use nalgebra::Vector2;
///
/// let mut oscillator = |_t: f64, x: &Vector2<f64>| Vector2::new(x[1], -x[0]);
/// let method = Dop853::new(Tolerances::scalar(1e-10, 1e-10)?, ControllerParameters::dop853())?;
/// let mut dop853 = VectorStepper::new(method);
/// let span = Span::new(0.0, 3.0)?;
/// let sol = integrate(&mut dop853, &mut oscillator, &Vector2::new(1.0, 0.0), &span, Options::default().dense())?;
/// assert!((sol.at(1.5)?[0] - 1.5f64.cos()).abs() < 1e-9);
/// # Ok::<(), lieode::Error>(())
/// ```
pub fn integrate<P, M>(
    stepper: &mut M,
    problem: &mut P,
    y0: &M::State,
    span: &Span,
    mut options: Options<'_, M::State>,
) -> Result<Solution<M::State, M::Segment>>
where
    P: ?Sized,
    M: Stepper<P> + ?Sized,
{
    if options.record == Record::Every(0) {
        return Err(Error::InvalidParameter {
            name: "record",
            value: "Every(0)".into(),
            expected: "Every(k) with k ≥ 1".into(),
        });
    }
    for e in &options.events {
        e.validate()?;
    }
    check_planned_storage::<M::State>(span, &options)?;
    stepper.start(problem, span, y0)?;
    let t0 = stepper.time();
    let mut times = vec![t0];
    let mut states = vec![y0.clone()];
    let mut segments = Vec::new();
    let mut hits = Vec::new();
    let mut g_prev: Vec<f64> = Vec::with_capacity(options.events.len());
    for e in options.events.iter_mut() {
        g_prev.push(checked_g(&mut e.g, t0, y0)?);
    }
    for observer in options.observers.iter_mut() {
        observer.observe(0, t0, y0)?;
    }
    let need_dense = options.dense || !options.events.is_empty();
    let mut n = 0usize;
    let solution = |times, states, stats, stop, events, segments| Solution {
        times,
        states,
        stats,
        stop,
        events,
        segments,
    };
    loop {
        if options.max_steps.is_some_and(|m| n >= m) {
            // The state after step n was stored when it was taken.
            return Ok(solution(
                times,
                states,
                stepper.stats(),
                StopReason::MaxSteps,
                hits,
                segments,
            ));
        }
        let report = stepper.step(problem)?;
        n += 1;
        let t1 = report.t_end;
        if need_dense && !stepper.prepare_dense(problem)? {
            let name = if options.events.is_empty() {
                "dense"
            } else {
                "events"
            };
            return Err(Error::InvalidParameter {
                name,
                value: stepper.name().to_string(),
                expected: "a stepper with dense output".into(),
            });
        }
        let wanted = report.finished
            || options.record.keeps(n, false)
            || !options.events.is_empty()
            || options.observers.iter().any(|o| o.wants(n))
            || options.max_steps.is_some_and(|m| n >= m);
        let y1 = if wanted {
            Some(stepper.state(problem)?)
        } else {
            None
        };
        // Events: sign changes of g over the step, located on the dense output.
        if let Some(y1) = y1.as_ref().filter(|_| !options.events.is_empty()) {
            let dense = |t: f64| {
                stepper.dense(t).ok_or(Error::NonFiniteState {
                    what: "dense output",
                    t,
                })
            };
            let (step_hits, terminal) = step_events(
                &mut options.events,
                &mut g_prev,
                report.t_start,
                t1,
                y1,
                dense,
            )?;
            let direction = t1 - report.t_start;
            if let Some((index, t_stop)) = terminal {
                let cut = |h: &EventHit<M::State>| (h.t - t_stop) * direction <= 0.0;
                hits.extend(step_hits.into_iter().filter(cut));
                if options.dense
                    && let Some(s) = stepper.segment(report.t_start, t_stop)
                {
                    segments.push(s);
                }
                let stop_state = stepper.dense(t_stop).ok_or(Error::NonFiniteState {
                    what: "dense output",
                    t: t_stop,
                })?;
                for observer in options.observers.iter_mut() {
                    observer.observe(n, t_stop, &stop_state)?;
                }
                store(&mut times, &mut states, t_stop, stop_state)?;
                return Ok(solution(
                    times,
                    states,
                    stepper.stats(),
                    StopReason::TerminalEvent(index),
                    hits,
                    segments,
                ));
            }
            hits.extend(step_hits);
        }
        if options.dense
            && let Some(s) = stepper.segment(report.t_start, t1)
        {
            segments.push(s);
        }
        if let Some(y1) = y1 {
            for observer in options.observers.iter_mut() {
                if observer.wants(n) {
                    observer.observe(n, t1, &y1)?;
                }
            }
            if options.record.keeps(n, report.finished) || options.max_steps.is_some_and(|m| n >= m)
            {
                store(&mut times, &mut states, t1, y1)?;
            }
        }
        if report.finished {
            return Ok(solution(
                times,
                states,
                stepper.stats(),
                StopReason::Finished,
                hits,
                segments,
            ));
        }
    }
}

/// Refuses, before the run, a fixed-step span whose recorded states could never fit in memory
/// (more bytes than `isize::MAX`, e.g. `Record::All` over 2⁶⁰ steps).
fn check_planned_storage<S>(span: &Span, options: &Options<'_, S>) -> Result<()> {
    let Some((_, steps)) = span.fixed_grid() else {
        return Ok(());
    };
    let steps = options.max_steps.map_or(steps, |m| m.min(steps));
    let stored = match options.record {
        Record::All => steps,
        Record::Every(k) => steps / k.max(1),
        Record::Ends => 0,
    }
    .saturating_add(2);
    let bytes = stored.saturating_mul(std::mem::size_of::<S>().max(1));
    if bytes > isize::MAX as usize {
        return Err(too_many_states(stored));
    }
    Ok(())
}

/// Stores one recorded state, reporting a failed allocation as an error instead of aborting.
fn store<S>(times: &mut Vec<f64>, states: &mut Vec<S>, t: f64, y: S) -> Result<()> {
    if times.try_reserve(1).is_err() || states.try_reserve(1).is_err() {
        return Err(too_many_states(states.len() + 1));
    }
    times.push(t);
    states.push(y);
    Ok(())
}

fn too_many_states(count: usize) -> Error {
    Error::InvalidParameter {
        name: "record",
        value: format!("{count} stored states"),
        expected: "a record that fits in memory: Record::Every(k) with a larger k, \
                   Record::Ends, or observers"
            .into(),
    }
}
