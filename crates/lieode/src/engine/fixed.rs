//! [`Fixed`]: any memoryless one-step engine ([`Step`]) as a [`Stepper`] with a fixed step.

use super::{Method, Stats, Step, StepState};
use crate::clock::FixedClock;
use crate::error::{Error, Result};
use crate::lie::real;
use crate::stepper::{NoDenseOutput, Span, StepReport, Stepper, StepperInfo, not_started};

/// A [`Step`] engine driven with a fixed step size: the blanket adapter that lets every
/// engine ([`super::ExplicitRk`], [`super::MuntheKaas`], [`super::CommutatorFree`],
/// [`super::ImplicitMuntheKaas`], compositions, …) run under
/// [`crate::integrate::integrate`] and the rest of the [`Stepper`] protocol.
///
/// It needs a fixed-step [`Span`], in either direction. Step `i` starts at `t0 + i·h` (times
/// are computed, not accumulated) and the last step of a [`Span::steps`] span ends exactly on
/// `t_end`: the clock is [`FixedClock::landing`]. The engine counts its evaluations; the
/// adapter counts steps (every step is accepted).
///
/// # Examples
/// ```
/// use lieode::engine::{ExplicitRk, Fixed};
/// use lieode::integrate::{Options, Record, integrate};
/// use lieode::stepper::Span;
/// use lieode::tableau::registry::RK4;
/// use nalgebra::Vector1;
///
/// let mut rk4 = Fixed::new(ExplicitRk::<f64, 1>::new(&RK4)?);
/// let mut decay = |_t: f64, x: &Vector1<f64>| -x;
/// let span = Span::steps(0.0, 1.0, 10)?;
/// let sol = integrate(&mut rk4, &mut decay, &Vector1::new(1.0), &span, Options::record(Record::Ends))?;
/// assert!((sol.states[1][0] - (-1.0f64).exp()).abs() < 1e-5);
/// assert_eq!(sol.stats.rhs_evaluations, 40);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Fixed<E, S> {
    engine: E,
    /// The clock of the running span.
    clock: Option<FixedClock>,
    y: Option<S>,
    stats: Stats,
}

impl<E, S> Fixed<E, S> {
    /// The engine `engine`, not started.
    pub fn new(engine: E) -> Self {
        Self {
            engine,
            clock: None,
            y: None,
            stats: Stats::default(),
        }
    }

    /// The engine.
    pub fn engine(&self) -> &E {
        &self.engine
    }

    /// The engine, for changes between runs.
    pub fn engine_mut(&mut self) -> &mut E {
        &mut self.engine
    }
}

impl<E: Method, S> StepperInfo for Fixed<E, S> {
    fn name(&self) -> &str {
        self.engine.name()
    }

    /// The current time; NaN before the start.
    fn time(&self) -> f64 {
        self.clock.as_ref().map_or(f64::NAN, FixedClock::time)
    }

    fn stats(&self) -> Stats {
        self.stats
    }
}

impl<P, E, S> Stepper<P> for Fixed<E, S>
where
    P: ?Sized,
    S: StepState,
    E: Step<P, State = S>,
{
    type State = S;
    type Segment = NoDenseOutput<S>;

    /// Starts at `y0` on a fixed-step span and makes the engine [forget](Method::forget) what
    /// it kept from an earlier run.
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `y0`; those of [`FixedClock::landing`] (an adaptive span).
    fn start(&mut self, _problem: &mut P, span: &Span, y0: &S) -> Result<()> {
        if !y0.all_finite() {
            return Err(Error::NonFinite { name: "y0" });
        }
        let clock = FixedClock::landing(span)?;
        self.engine.forget();
        self.clock = Some(clock);
        self.y = Some(y0.clone());
        self.stats = Stats::default();
        Ok(())
    }

    fn step(&mut self, problem: &mut P) -> Result<StepReport> {
        let (Some(clock), Some(y)) = (self.clock.as_mut(), self.y.as_ref()) else {
            return Err(not_started());
        };
        let out = self.engine.step(
            problem,
            real(clock.time()),
            y,
            real(clock.dt()),
            &mut self.stats,
        )?;
        self.y = Some(out.state);
        Ok(clock.advance(&mut self.stats))
    }

    fn state(&mut self, _problem: &mut P) -> Result<S> {
        self.y.clone().ok_or_else(not_started)
    }

    fn problem_changed(&mut self, _problem: &mut P) -> Result<()> {
        self.engine.forget();
        Ok(())
    }

    /// Continues from `y` at the current time (the engine forgets its FSAL value).
    fn reset_state(&mut self, _problem: &mut P, y: &S) -> Result<()> {
        replace_state(&mut self.engine, &mut self.y, y)
    }
}

/// Replaces the carried state of a fixed-step or controlled engine by `y` (after checking it)
/// and makes the engine forget its FSAL value: [`Stepper::reset_state`] for both adapters.
///
/// # Errors
/// [`Error::NonFinite`] naming `y`; [`not_started`] before the start.
pub(crate) fn replace_state<E: Method, S: StepState>(
    engine: &mut E,
    slot: &mut Option<S>,
    y: &S,
) -> Result<()> {
    if !y.all_finite() {
        return Err(Error::NonFinite { name: "y" });
    }
    if slot.is_none() {
        return Err(not_started());
    }
    engine.forget();
    *slot = Some(y.clone());
    Ok(())
}
