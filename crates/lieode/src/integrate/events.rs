//! Events: zeros of user functions `g(t, y)` located on the dense output.

use crate::error::{Error, Result};

/// Which sign changes of `g` count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// From negative to positive.
    Rising,
    /// From positive to negative.
    Falling,
    /// Either.
    Either,
}

/// A boxed event function `g(t, y)`.
pub type EventFn<'a, S> = Box<dyn FnMut(f64, &S) -> f64 + 'a>;

/// The default number of subintervals of each step on which an event function is sampled.
pub const DEFAULT_EVENT_SAMPLES: usize = 8;

/// An event function `g(t, y)` whose zeros are located during an integration.
///
/// Over each step `g` is evaluated on the dense output at the ends of [`Event::samples`] equal
/// subintervals (more where [`Event::max_interval`] asks for it), and every subinterval whose
/// end values change sign (in the [`Direction`] asked for) holds one located zero. So several
/// zeros inside one long step are all found as long as no subinterval holds two; an even
/// number of zeros inside one subinterval cannot be seen from its ends. A sign change across
/// which `|g|` grows above both end values (a pole, as `1/(t − t*)`) is not a zero and is
/// skipped; a jump from one finite value to another (a switch) counts.
pub struct Event<'a, S> {
    /// The function.
    pub g: EventFn<'a, S>,
    /// Which crossings count.
    pub direction: Direction,
    /// Whether the integration stops at the first crossing.
    pub terminal: bool,
    /// The number of equal subintervals of each step on which `g` is sampled (at least 1;
    /// default [`DEFAULT_EVENT_SAMPLES`]).
    pub samples: usize,
    /// If set, subintervals are also at most this long in time: for a `g` that oscillates on a
    /// known time scale, set it below half the shortest time between two zeros.
    pub max_interval: Option<f64>,
}

impl<'a, S> Event<'a, S> {
    /// An event with the given function, direction and terminal flag, sampled on
    /// [`DEFAULT_EVENT_SAMPLES`] subintervals per step.
    pub fn new(g: impl FnMut(f64, &S) -> f64 + 'a, direction: Direction, terminal: bool) -> Self {
        Self {
            g: Box::new(g),
            direction,
            terminal,
            samples: DEFAULT_EVENT_SAMPLES,
            max_interval: None,
        }
    }

    /// The same event sampled on `samples` subintervals per step (validated by the driver).
    pub fn samples(self, samples: usize) -> Self {
        Self { samples, ..self }
    }

    /// The same event with subintervals at most `max_interval` long (validated by the driver).
    pub fn max_interval(self, max_interval: f64) -> Self {
        Self {
            max_interval: Some(max_interval),
            ..self
        }
    }

    /// Checks `samples` and `max_interval`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `samples` for 0; [`Error::NonFinite`] or
    /// [`Error::InvalidParameter`] naming `max_interval` unless it is finite and positive.
    pub fn validate(&self) -> Result<()> {
        if self.samples == 0 {
            return Err(Error::InvalidParameter {
                name: "samples",
                value: "0".into(),
                expected: "at least one subinterval per step".into(),
            });
        }
        if let Some(dt) = self.max_interval {
            crate::error::check_finite("max_interval", dt)?;
            if dt <= 0.0 {
                return Err(Error::InvalidParameter {
                    name: "max_interval",
                    value: format!("{dt:e}"),
                    expected: "a positive time".into(),
                });
            }
        }
        Ok(())
    }

    /// The number of subintervals for a step from `ta` to `tb`: [`Event::samples`], raised so
    /// that none is longer than [`Event::max_interval`] (capped at [`MAX_EVENT_SAMPLES`]).
    pub(crate) fn subintervals(&self, ta: f64, tb: f64) -> usize {
        let by_length = self
            .max_interval
            .map_or(1.0, |dt| ((tb - ta).abs() / dt).ceil());
        let by_length = if by_length.is_finite() {
            by_length.min(MAX_EVENT_SAMPLES as f64) as usize
        } else {
            MAX_EVENT_SAMPLES
        };
        self.samples.max(by_length).min(MAX_EVENT_SAMPLES)
    }
}

/// The most subintervals per step an event is sampled on, whatever `max_interval` asks.
pub const MAX_EVENT_SAMPLES: usize = 1 << 16;

impl<S> std::fmt::Debug for Event<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Event")
            .field("direction", &self.direction)
            .field("terminal", &self.terminal)
            .field("samples", &self.samples)
            .field("max_interval", &self.max_interval)
            .finish_non_exhaustive()
    }
}

/// A located event.
#[derive(Debug, Clone, PartialEq)]
pub struct EventHit<S> {
    /// Which event (index into the list given to the driver).
    pub index: usize,
    /// The time of the zero.
    pub t: f64,
    /// The (dense-output) state there.
    pub state: S,
}

/// Whether a sign change from `ga` to `gb` counts for `direction`.
pub(crate) fn crosses(direction: Direction, ga: f64, gb: f64) -> bool {
    let rising = ga < 0.0 && gb >= 0.0;
    let falling = ga > 0.0 && gb <= 0.0;
    match direction {
        Direction::Rising => rising,
        Direction::Falling => falling,
        Direction::Either => rising || falling,
    }
}

/// Maximal iterations of the event-location iteration (Illinois regula falsi).
pub const LOCATE_MAX_ITERATIONS: usize = 200;

/// The zero of `g` between `ta` and `tb` (`g(ta) = ga`, `g(tb) = gb` of opposite signs or
/// `gb = 0`) by the Illinois variant of regula falsi, to `|Δt| ≤ 4 ε (|ta| + |tb|)`; `None`
/// when the sign change is a pole rather than a zero (`|g|` at the located point above both
/// end values).
///
/// # Errors
/// [`Error::NonFiniteState`] if `g` returns a non-finite value; [`Error::NonConvergence`]
/// after [`LOCATE_MAX_ITERATIONS`].
pub(crate) fn locate(
    g: impl FnMut(f64) -> f64,
    ta: f64,
    ga: f64,
    tb: f64,
    gb: f64,
) -> Result<Option<f64>> {
    let (t, gt) = illinois(g, ta, ga, tb, gb)?;
    Ok((gt.abs() <= ga.abs().max(gb.abs())).then_some(t))
}

/// The Illinois iteration of [`locate`]: the final point and the value of `g` there.
fn illinois(
    mut g: impl FnMut(f64) -> f64,
    mut ta: f64,
    mut ga: f64,
    mut tb: f64,
    mut gb: f64,
) -> Result<(f64, f64)> {
    if gb == 0.0 {
        return Ok((tb, 0.0));
    }
    // g at tb itself (gb is halved by the Illinois modification).
    let mut g_at_tb = gb;
    let tolerance = 4.0 * f64::EPSILON * (ta.abs() + tb.abs());
    let mut side = 0i8;
    for _ in 0..LOCATE_MAX_ITERATIONS {
        if (tb - ta).abs() <= tolerance {
            return Ok((tb, g_at_tb));
        }
        let t = (ta * gb - tb * ga) / (gb - ga);
        let t = if t.is_finite() && (t - ta) * (t - tb) < 0.0 {
            t
        } else {
            0.5 * (ta + tb)
        };
        let gt = g(t);
        if !gt.is_finite() {
            return Err(Error::NonFiniteState {
                what: "event function",
                t,
            });
        }
        if gt == 0.0 {
            return Ok((t, 0.0));
        }
        if (gt > 0.0) == (gb > 0.0) {
            tb = t;
            gb = gt;
            g_at_tb = gt;
            if side == -1 {
                ga *= 0.5;
            }
            side = -1;
        } else {
            ta = t;
            ga = gt;
            if side == 1 {
                gb *= 0.5;
            }
            side = 1;
        }
    }
    Err(Error::NonConvergence {
        context: "event location".into(),
        iterations: LOCATE_MAX_ITERATIONS,
    })
}

/// The zeros found in one step, in the order of time along it, and the first terminal one
/// (event index and time), if any.
pub(crate) type StepEvents<S> = (Vec<EventHit<S>>, Option<(usize, f64)>);

/// The events of one step from `t_start` to `t1`, whose end state is `y1`: for each event, `g`
/// on the ends of [`Event::subintervals`] equal pieces of the step (`g_prev[i]` holds its value
/// at `t_start` and is updated to the value at `t1`), and the zero of every sign change located
/// on the dense output `dense` (Illinois' method, [`locate`]). A terminal event ends the
/// event's search in this step at its first zero. Returns the zeros in the order of time along
/// the step, and the first terminal one (event index and time), if any.
///
/// # Errors
/// [`Error::NonFiniteState`] naming the event function or the dense output at the time it was
/// not finite; [`Error::NonConvergence`] if a zero cannot be located.
pub(crate) fn step_events<S>(
    events: &mut [Event<'_, S>],
    g_prev: &mut [f64],
    t_start: f64,
    t1: f64,
    y1: &S,
    dense: impl Fn(f64) -> Result<S>,
) -> Result<StepEvents<S>> {
    let mut terminal: Option<(usize, f64)> = None;
    let mut step_hits = Vec::new();
    let direction = t1 - t_start;
    for (i, e) in events.iter_mut().enumerate() {
        let g1 = checked_g(&mut e.g, t1, y1)?;
        // g on the ends of equal subintervals of the step; one zero per sign change.
        let pieces = e.subintervals(t_start, t1);
        let (mut ta, mut ga) = (t_start, g_prev[i]);
        for k in 1..=pieces {
            let (tb, gb) = if k == pieces {
                (t1, g1)
            } else {
                let tb = t_start + (t1 - t_start) * (k as f64 / pieces as f64);
                (tb, checked_g(&mut e.g, tb, &dense(tb)?)?)
            };
            if crosses(e.direction, ga, gb) {
                let g = &mut e.g;
                let mut failure = None;
                let located = locate(
                    |t| match dense(t) {
                        Ok(y) => g(t, &y),
                        Err(err) => {
                            failure = Some(err);
                            f64::NAN
                        }
                    },
                    ta,
                    ga,
                    tb,
                    gb,
                );
                if let Some(err) = failure {
                    return Err(err);
                }
                if let Some(t_hit) = located? {
                    step_hits.push(EventHit {
                        index: i,
                        t: t_hit,
                        state: dense(t_hit)?,
                    });
                    if e.terminal {
                        if terminal.is_none_or(|(_, tt)| (t_hit - tt) * direction < 0.0) {
                            terminal = Some((i, t_hit));
                        }
                        break;
                    }
                }
            }
            (ta, ga) = (tb, gb);
        }
        g_prev[i] = g1;
    }
    step_hits.sort_by(|a, b| {
        let key = |h: &EventHit<S>| (h.t - t_start) * direction.signum();
        key(a).total_cmp(&key(b))
    });
    Ok((step_hits, terminal))
}

/// `g(t, y)`, or [`Error::NonFiniteState`] naming the event function at `t`.
pub(crate) fn checked_g<S>(g: &mut dyn FnMut(f64, &S) -> f64, t: f64, y: &S) -> Result<f64> {
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
