//! [`Solution`]: what [`super::integrate`] returns.

use super::events::EventHit;
use crate::error::{Error, Result};
use crate::stepper::{NoDenseOutput, Piece, Stats};

/// Why an integration stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// The span was completed.
    Finished,
    /// A terminal event fired (its index into the event list).
    TerminalEvent(usize),
    /// [`super::Options::max_steps`] steps were taken before the end.
    MaxSteps,
}

/// The result of an integration: the stored states, the work done, why it stopped, the
/// events located and, when asked for, the dense output.
#[derive(Debug, Clone)]
pub struct Solution<S, Seg = NoDenseOutput<S>> {
    /// The times of the stored states (the initial time first; the last is where it stopped).
    pub times: Vec<f64>,
    /// The stored states, synchronised (as [`crate::stepper::Stepper::state`] gives them).
    pub states: Vec<S>,
    /// Evaluations, steps, accepted and rejected steps, solver work.
    pub stats: Stats,
    /// Why it stopped.
    pub stop: StopReason,
    /// The events located, in time order.
    pub events: Vec<EventHit<S>>,
    pub(crate) segments: Vec<Seg>,
}

impl<S, Seg> Solution<S, Seg> {
    /// The final time and state.
    pub fn last(&self) -> Option<(f64, &S)> {
        Some((*self.times.last()?, self.states.last()?))
    }

    /// The solution if it completed its span or stopped at a terminal event.
    ///
    /// # Errors
    /// [`Error::MaxStepsExceeded`] if it stopped at [`super::Options::max_steps`].
    pub fn ensure_finished(self) -> Result<Self> {
        match self.stop {
            StopReason::MaxSteps => Err(Error::MaxStepsExceeded {
                t: self.times.last().copied().unwrap_or(f64::NAN),
                steps: self.stats.accepted,
            }),
            _ => Ok(self),
        }
    }
}

impl<S, Seg: Piece<State = S>> Solution<S, Seg> {
    /// The dense output at `t` (inside the integrated interval of a run with
    /// [`super::Options::dense`]).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `t` outside the interval, or when the integration
    /// stored no dense output.
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
        let Some(first) = self.segments.first() else {
            return Err(outside());
        };
        if !t.is_finite() {
            return Err(outside());
        }
        let forward = first.span().1 >= first.span().0;
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

    /// The stored dense output, one piece per step.
    pub fn segments(&self) -> &[Seg] {
        &self.segments
    }
}
