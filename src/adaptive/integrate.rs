//! The adaptive driver: integrate over an interval, store the solution with its dense output,
//! locate events.

use nalgebra::{Const, DefaultAllocator, SVector, allocator::Allocator};

use super::dense::DenseSegment;
use super::events::{Event, EventHit, crosses, locate};
use super::lie::{LieSegment, LieStepper};
use super::vector::VectorStepper;
use super::{AdaptiveMethod, StepReport};
use crate::engine::Stats;
use crate::error::{Error, Result};
use crate::lie::{AlgebraDim, LieGroup};
use crate::ode::{LieOde, VectorOde};

/// What the driver keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct IntegrateOptions {
    /// Store the dense output of every step so that [`AdaptiveSolution::at`] works (costs the
    /// method's dense-output evaluations, counted, and memory).
    pub dense: bool,
}

/// Why an integration stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// The end of the interval was reached.
    Finished,
    /// A terminal event fired (its index into the event list).
    TerminalEvent(usize),
}

/// A piece of stored dense output.
pub trait Piece {
    /// The state type.
    type State;
    /// Start and end of the step.
    fn span(&self) -> (f64, f64);
    /// The state at `t`.
    fn eval(&self, t: f64) -> Self::State;
}

impl<const N: usize> Piece for DenseSegment<Const<N>> {
    type State = SVector<f64, N>;
    fn span(&self) -> (f64, f64) {
        (self.t0, self.t1)
    }
    fn eval(&self, t: f64) -> SVector<f64, N> {
        DenseSegment::eval(self, t)
    }
}

impl<G: LieGroup<Scalar = f64>> Piece for LieSegment<G>
where
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    type State = G;
    fn span(&self) -> (f64, f64) {
        (self.coordinates.t0, self.coordinates.t1)
    }
    fn eval(&self, t: f64) -> G {
        LieSegment::eval(self, t)
    }
}

/// The result of an adaptive integration.
#[derive(Debug, Clone)]
pub struct AdaptiveSolution<S, Seg> {
    /// Times of the accepted steps (the initial time first; the last is where it stopped).
    pub times: Vec<f64>,
    /// States at those times.
    pub states: Vec<S>,
    /// Evaluations, steps, accepted and rejected steps.
    pub stats: Stats,
    /// Why it stopped.
    pub stop: StopReason,
    /// The events located, in time order.
    pub events: Vec<EventHit<S>>,
    segments: Vec<Seg>,
}

impl<S: Clone, Seg: Piece<State = S>> AdaptiveSolution<S, Seg> {
    /// The dense output at `t` (inside the integrated interval).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `t` outside the interval, or when the integration
    /// was run without [`IntegrateOptions::dense`].
    pub fn at(&self, t: f64) -> Result<S> {
        let outside = || Error::InvalidParameter {
            name: "t",
            value: format!("{t:e}"),
            expected: format!(
                "a time in the integrated interval [{:e}, {:e}] of a run with dense output",
                self.times.first().copied().unwrap_or(f64::NAN),
                self.times.last().copied().unwrap_or(f64::NAN)
            ),
        };
        if self.segments.is_empty() || !t.is_finite() {
            return Err(outside());
        }
        let forward = self.segments[0].span().1 >= self.segments[0].span().0;
        // Segments are ordered in the direction of integration.
        let index = self.segments.partition_point(|s| {
            let (_, t1) = s.span();
            if forward { t1 < t } else { t1 > t }
        });
        let segment = self.segments.get(index).ok_or_else(outside)?;
        let (t0, t1) = segment.span();
        let (lo, hi) = if t0 <= t1 { (t0, t1) } else { (t1, t0) };
        if t < lo || t > hi {
            return Err(outside());
        }
        Ok(segment.eval(t))
    }

    /// The final time and state.
    pub fn last(&self) -> Option<(f64, &S)> {
        Some((*self.times.last()?, self.states.last()?))
    }
}

/// The common face of [`VectorStepper`] and [`LieStepper`] used by the driver.
trait Driver {
    type State: Clone;
    type Segment: Piece<State = Self::State>;
    fn step(&mut self) -> Result<StepReport>;
    fn prepare_dense(&mut self) -> Result<()>;
    fn dense(&self, t: f64) -> Self::State;
    fn current(&self) -> (f64, Self::State);
    fn segment(&self, t0: f64, t1: f64) -> Self::Segment;
    fn stats(&self) -> Stats;
}

impl<M: AdaptiveMethod<Const<N>>, P: VectorOde<f64, N>, const N: usize> Driver
    for VectorStepper<M, P, N>
{
    type State = SVector<f64, N>;
    type Segment = DenseSegment<Const<N>>;
    fn step(&mut self) -> Result<StepReport> {
        VectorStepper::step(self)
    }
    fn prepare_dense(&mut self) -> Result<()> {
        VectorStepper::prepare_dense(self)
    }
    fn dense(&self, t: f64) -> Self::State {
        VectorStepper::dense(self, t)
    }
    fn current(&self) -> (f64, Self::State) {
        VectorStepper::current(self)
    }
    fn segment(&self, t0: f64, t1: f64) -> Self::Segment {
        VectorStepper::segment(self, t0, t1)
    }
    fn stats(&self) -> Stats {
        *VectorStepper::stats(self)
    }
}

impl<M, P, G> Driver for LieStepper<M, P, G>
where
    G: LieGroup<Scalar = f64>,
    P: LieOde<G>,
    M: AdaptiveMethod<AlgebraDim<G>>,
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    type State = G;
    type Segment = LieSegment<G>;
    fn step(&mut self) -> Result<StepReport> {
        LieStepper::step(self)
    }
    fn prepare_dense(&mut self) -> Result<()> {
        LieStepper::prepare_dense(self)
    }
    fn dense(&self, t: f64) -> G {
        LieStepper::dense(self, t)
    }
    fn current(&self) -> (f64, G) {
        LieStepper::current(self)
    }
    fn segment(&self, t0: f64, t1: f64) -> Self::Segment {
        LieStepper::segment(self, t0, t1)
    }
    fn stats(&self) -> Stats {
        *LieStepper::stats(self)
    }
}

fn run<D: Driver>(
    mut driver: D,
    options: IntegrateOptions,
    events: &mut [Event<'_, D::State>],
) -> Result<AdaptiveSolution<D::State, D::Segment>> {
    let (t0, y0) = driver.current();
    let mut times = vec![t0];
    let mut states = vec![y0.clone()];
    let mut segments = Vec::new();
    let mut hits = Vec::new();
    let mut g_prev: Vec<f64> = Vec::with_capacity(events.len());
    for e in events.iter_mut() {
        g_prev.push(checked_g(&mut e.g, t0, &y0)?);
    }
    loop {
        let report = driver.step()?;
        let (t1, y1) = driver.current();
        let need_dense = options.dense || !events.is_empty();
        if need_dense {
            driver.prepare_dense()?;
        }
        // Events: sign changes of g over the step, located on the dense output.
        let mut terminal: Option<(usize, f64)> = None;
        let mut step_hits = Vec::new();
        for (i, e) in events.iter_mut().enumerate() {
            let g1 = checked_g(&mut e.g, t1, &y1)?;
            if crosses(e.direction, g_prev[i], g1) {
                let g = &mut e.g;
                let t_hit = locate(
                    |t| g(t, &driver.dense(t)),
                    report.t_start,
                    g_prev[i],
                    t1,
                    g1,
                )?;
                step_hits.push(EventHit {
                    index: i,
                    t: t_hit,
                    state: driver.dense(t_hit),
                });
                if e.terminal {
                    let earlier =
                        terminal.is_none_or(|(_, tt)| (t_hit - tt) * (t1 - report.t_start) < 0.0);
                    if earlier {
                        terminal = Some((i, t_hit));
                    }
                }
            }
            g_prev[i] = g1;
        }
        step_hits.sort_by(|a, b| {
            let key =
                |h: &EventHit<D::State>| (h.t - report.t_start) * (t1 - report.t_start).signum();
            key(a).total_cmp(&key(b))
        });
        if let Some((index, t_stop)) = terminal {
            let cut = |h: &EventHit<D::State>| (h.t - t_stop) * (t1 - report.t_start) <= 0.0;
            hits.extend(step_hits.into_iter().filter(cut));
            if options.dense {
                segments.push(driver.segment(report.t_start, t_stop));
            }
            times.push(t_stop);
            states.push(driver.dense(t_stop));
            return Ok(AdaptiveSolution {
                times,
                states,
                stats: driver.stats(),
                stop: StopReason::TerminalEvent(index),
                events: hits,
                segments,
            });
        }
        hits.extend(step_hits);
        if options.dense {
            segments.push(driver.segment(report.t_start, t1));
        }
        times.push(t1);
        states.push(y1);
        if report.finished {
            return Ok(AdaptiveSolution {
                times,
                states,
                stats: driver.stats(),
                stop: StopReason::Finished,
                events: hits,
                segments,
            });
        }
    }
}

fn checked_g<S>(g: &mut dyn FnMut(f64, &S) -> f64, t: f64, y: &S) -> Result<f64> {
    let v = g(t, y);
    if v.is_finite() {
        Ok(v)
    } else {
        Err(Error::NonFiniteState {
            what: "event function",
            t,
        })
    }
}

/// Integrates the vector ODE `problem` from `(t0, x0)` to `t_end` with an adaptive `method`.
///
/// # Errors
/// Those of the method (invalid settings, step-size underflow, too many steps, non-finite
/// values) and of the event functions.
pub fn integrate_vector<M, P, const N: usize>(
    method: M,
    problem: P,
    t0: f64,
    x0: SVector<f64, N>,
    t_end: f64,
    options: IntegrateOptions,
    events: &mut [Event<'_, SVector<f64, N>>],
) -> Result<AdaptiveSolution<SVector<f64, N>, DenseSegment<Const<N>>>>
where
    M: AdaptiveMethod<Const<N>>,
    P: VectorOde<f64, N>,
{
    run(
        VectorStepper::new(method, problem, t0, x0, t_end)?,
        options,
        events,
    )
}

/// Integrates the Lie-group ODE `problem` from `(t0, y0)` to `t_end` with an adaptive `method`
/// lifted through local coordinates (exact `dexp⁻¹`).
///
/// # Errors
/// As [`integrate_vector`].
pub fn integrate_lie<M, P, G>(
    method: M,
    problem: P,
    t0: f64,
    y0: G,
    t_end: f64,
    options: IntegrateOptions,
    events: &mut [Event<'_, G>],
) -> Result<AdaptiveSolution<G, LieSegment<G>>>
where
    G: LieGroup<Scalar = f64>,
    P: LieOde<G>,
    M: AdaptiveMethod<AlgebraDim<G>>,
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    run(
        LieStepper::new(method, problem, t0, y0, t_end)?,
        options,
        events,
    )
}
