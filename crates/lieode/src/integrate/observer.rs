//! Observers: code called with the synchronised state during an integration — energy and
//! momentum monitors, recorders, custom checks.

use crate::error::{Error, Result};

/// Something [`super::integrate`] calls with the initial state (step 0) and after the steps it
/// [`wants`](Observer::wants).
///
/// Closures `FnMut(usize, f64, &S)` (step, time, state) are observers. An observer that
/// returns an error stops the integration with it.
pub trait Observer<S> {
    /// Whether to be called after step `n` (default: every step). The driver synchronises the
    /// state only when someone wants it, which for leapfrog methods saves an evaluation.
    fn wants(&self, _step: usize) -> bool {
        true
    }

    /// Observes the state `state` at time `t` after step `step`.
    ///
    /// # Errors
    /// Whatever the observer finds wrong; the integration stops with it.
    fn observe(&mut self, step: usize, t: f64, state: &S) -> Result<()>;
}

impl<S, F: FnMut(usize, f64, &S)> Observer<S> for F {
    fn observe(&mut self, step: usize, t: f64, state: &S) -> Result<()> {
        self(step, t, state);
        Ok(())
    }
}

/// An observer that records a scalar quantity `f(t, y)` — an energy, a momentum component, a
/// constraint residual — every `every` steps, as a time series.
///
/// # Examples
/// ```
/// use lieode::engine::{ExplicitRk, Fixed};
/// use lieode::integrate::{Options, Record, Series, integrate};
/// use lieode::stepper::Span;
/// use lieode::tableau::registry::RK4;
/// use nalgebra::Vector2;
///
/// // The harmonic oscillator's energy, every 10th step.
/// let mut oscillator = |_t: f64, x: &Vector2<f64>| Vector2::new(x[1], -x[0]);
/// let mut energy = Series::new("energy", |_t, x: &Vector2<f64>| 0.5 * x.norm_squared()).every(10)?;
/// let mut rk4 = Fixed::new(ExplicitRk::<f64, 2>::new(&RK4)?);
/// let span = Span::steps(0.0, 10.0, 100)?;
/// let options = Options::record(Record::Ends).observer(&mut energy);
/// integrate(&mut rk4, &mut oscillator, &Vector2::new(1.0, 0.0), &span, options)?;
/// assert_eq!(energy.steps().len(), 11); // steps 0, 10, …, 100
/// assert!(energy.max_relative_drift() < 1e-4);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Series<F> {
    name: String,
    f: F,
    every: usize,
    steps: Vec<usize>,
    times: Vec<f64>,
    values: Vec<f64>,
}

impl<F> Series<F> {
    /// A series named `name` of `f(t, y)` at every step.
    pub fn new(name: impl Into<String>, f: F) -> Self {
        Self {
            name: name.into(),
            f,
            every: 1,
            steps: Vec::new(),
            times: Vec::new(),
            values: Vec::new(),
        }
    }

    /// The same series, recorded at steps `0, k, 2k, …` (and not at the others).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `every` for `k = 0`.
    pub fn every(self, k: usize) -> Result<Self> {
        if k == 0 {
            return Err(Error::InvalidParameter {
                name: "every",
                value: "0".into(),
                expected: "a stride of at least one step".into(),
            });
        }
        Ok(Self { every: k, ..self })
    }

    /// The series' name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The step numbers recorded.
    pub fn steps(&self) -> &[usize] {
        &self.steps
    }

    /// The times recorded.
    pub fn times(&self) -> &[f64] {
        &self.times
    }

    /// The values recorded.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// `max_n |v_n − v_0| / |v_0|` (the drift of a conserved quantity relative to its first
    /// value; `NaN` for an empty series, infinite when `v_0 = 0` and a later value is not).
    pub fn max_relative_drift(&self) -> f64 {
        let Some(&first) = self.values.first() else {
            return f64::NAN;
        };
        self.values
            .iter()
            .map(|v| (v - first).abs() / first.abs())
            .fold(0.0, f64::max)
    }
}

impl<S, F: FnMut(f64, &S) -> f64> Observer<S> for Series<F> {
    fn wants(&self, step: usize) -> bool {
        step.is_multiple_of(self.every)
    }

    fn observe(&mut self, step: usize, t: f64, state: &S) -> Result<()> {
        let v = (self.f)(t, state);
        if !v.is_finite() {
            return Err(Error::NonFiniteState {
                what: "observed quantity",
                t,
            });
        }
        self.steps.push(step);
        self.times.push(t);
        self.values.push(v);
        Ok(())
    }
}
