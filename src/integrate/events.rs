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

/// An event function `g(t, y)` whose zeros are located during an integration.
pub struct Event<'a, S> {
    /// The function.
    pub g: EventFn<'a, S>,
    /// Which crossings count.
    pub direction: Direction,
    /// Whether the integration stops at the first crossing.
    pub terminal: bool,
}

impl<'a, S> Event<'a, S> {
    /// An event with the given function, direction and terminal flag.
    pub fn new(g: impl FnMut(f64, &S) -> f64 + 'a, direction: Direction, terminal: bool) -> Self {
        Self {
            g: Box::new(g),
            direction,
            terminal,
        }
    }
}

impl<S> std::fmt::Debug for Event<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Event")
            .field("direction", &self.direction)
            .field("terminal", &self.terminal)
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
/// `gb = 0`) by the Illinois variant of regula falsi, to `|Δt| ≤ 4 ε (|ta| + |tb|)`.
///
/// # Errors
/// [`Error::NonFiniteState`] if `g` returns a non-finite value; [`Error::NonConvergence`]
/// after [`LOCATE_MAX_ITERATIONS`].
pub(crate) fn locate(
    mut g: impl FnMut(f64) -> f64,
    mut ta: f64,
    mut ga: f64,
    mut tb: f64,
    mut gb: f64,
) -> Result<f64> {
    if gb == 0.0 {
        return Ok(tb);
    }
    let tolerance = 4.0 * f64::EPSILON * (ta.abs() + tb.abs());
    let mut side = 0i8;
    for _ in 0..LOCATE_MAX_ITERATIONS {
        if (tb - ta).abs() <= tolerance {
            return Ok(tb);
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
            return Ok(t);
        }
        if (gt > 0.0) == (gb > 0.0) {
            tb = t;
            gb = gt;
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
