//! What [`super::integrate`] keeps and watches: [`Options`] and [`Record`].

use super::events::Event;
use super::observer::Observer;

/// Which states an integration stores in its [`super::Solution`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Record {
    /// After every step (and the initial state).
    All,
    /// After every `k`-th step, and the initial and final states.
    Every(usize),
    /// Only the initial and final states.
    Ends,
}

impl Record {
    /// Whether the state after step `n` (`n ≥ 1`) is stored; the final step always is.
    pub fn keeps(&self, n: usize, last: bool) -> bool {
        last || match *self {
            Record::All => true,
            Record::Every(k) => k != 0 && n.is_multiple_of(k),
            Record::Ends => false,
        }
    }
}

/// The options of [`super::integrate`]: what to store, events to locate, observers to call
/// and a step limit.
///
/// `Options::default()` stores every step and nothing else. Observers are borrowed, so their
/// results stay with the caller after the run.
///
/// # Examples
/// ```
/// use lieode::integrate::{Options, Record};
/// use nalgebra::Vector2;
///
/// let mut energy = Vec::new();
/// let mut observe = |_n: usize, _t: f64, x: &Vector2<f64>| energy.push(x.norm_squared());
/// let options = Options::record(Record::Ends).observer(&mut observe).max_steps(10_000);
/// assert_eq!(options.max_steps, Some(10_000));
/// ```
pub struct Options<'a, S> {
    /// Which states to store.
    pub record: Record,
    /// Store the dense output of every step so that [`super::Solution::at`] works (needs a
    /// stepper with dense output; costs its dense-output evaluations, counted, and memory).
    pub dense: bool,
    /// Events located on the dense output (needs a stepper with dense output).
    pub events: Vec<Event<'a, S>>,
    /// Called with the initial state (step 0) and after every step they want.
    pub observers: Vec<&'a mut dyn Observer<S>>,
    /// Stop after this many steps with [`super::StopReason::MaxSteps`] (a method's own limit,
    /// such as Hairer's `NMAX`, still applies and is an error).
    pub max_steps: Option<usize>,
}

impl<S> Default for Options<'_, S> {
    fn default() -> Self {
        Self {
            record: Record::All,
            dense: false,
            events: Vec::new(),
            observers: Vec::new(),
            max_steps: None,
        }
    }
}

impl<'a, S> Options<'a, S> {
    /// Options that store `record` and nothing else.
    pub fn record(record: Record) -> Self {
        Self {
            record,
            ..Self::default()
        }
    }

    /// The same options storing the dense output.
    pub fn dense(self) -> Self {
        Self {
            dense: true,
            ..self
        }
    }

    /// The same options with one more event.
    pub fn event(mut self, event: Event<'a, S>) -> Self {
        self.events.push(event);
        self
    }

    /// The same options with one more observer.
    pub fn observer(mut self, observer: &'a mut dyn Observer<S>) -> Self {
        self.observers.push(observer);
        self
    }

    /// The same options with a step limit.
    pub fn max_steps(self, steps: usize) -> Self {
        Self {
            max_steps: Some(steps),
            ..self
        }
    }
}

impl<S> std::fmt::Debug for Options<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("record", &self.record)
            .field("dense", &self.dense)
            .field("events", &self.events)
            .field("observers", &self.observers.len())
            .field("max_steps", &self.max_steps)
            .finish()
    }
}
