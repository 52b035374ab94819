//! The one clock of the fixed-step methods: the times `t_n = t_0 + n·dt` of a fixed-step
//! [`Span`] and its planned number of steps, checked once when a run starts (the last step
//! optionally landing exactly on the span's end, [`FixedClock::landing`]).

use crate::error::{Error, Result};
use crate::stepper::{Span, Stats, StepReport};

/// A running fixed-step integration: the step `dt`, the steps taken and planned, and the time
/// `t_n = t_0 + n·dt`.
///
/// The time is computed from the step count rather than accumulated: `t += dt` loses up to half
/// an ulp of `t` per step (at `t_0 = 10⁹`, `dt = 10⁻⁶` that is 6 % of `dt` each step), while
/// `t_0 + n·dt` is within one rounding of the exact grid time at every step.
///
/// Every fixed-step method starts one with [`FixedClock::forward`] (the span's step checked
/// there, once per run; [`FixedClock::either_direction`] for the methods that also step
/// backward; [`FixedClock::landing`] for the engines' adapter [`crate::engine::Fixed`], whose
/// last step ends exactly on the span's end) and counts its steps with
/// [`FixedClock::advance`].
///
/// # Examples
/// ```
/// use lieode::clock::FixedClock;
/// use lieode::stepper::{Span, Stats};
///
/// let span = Span::stride(1e9, 1e-6, 3)?;
/// let mut clock = FixedClock::forward(&span, 1e9)?;
/// let mut stats = Stats::default();
/// assert_eq!(clock.next_time(), 1e9 + 1e-6);
/// clock.advance(&mut stats);
/// clock.advance(&mut stats);
/// let last = clock.advance(&mut stats);
/// assert!(last.finished);
/// assert_eq!(clock.time(), 1e9 + 3.0 * 1e-6);
/// assert_eq!(stats.steps, 3);
/// assert!(FixedClock::forward(&Span::stride(0.0, -1e-3, 3)?, 0.0).is_err());
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FixedClock {
    t0: f64,
    dt: f64,
    t: f64,
    taken: u64,
    /// `None` for an open span ([`Span::open`]).
    planned: Option<u64>,
    /// The step count `N` whose end is the span's end `t_end` exactly, and `t_end`
    /// ([`FixedClock::landing`]); `None`: every time on the grid `t_0 + n·dt`.
    landing: Option<(u64, f64)>,
}

impl FixedClock {
    /// The clock of a forward fixed-step `span` for a state at `t0` (which must be the span's
    /// start).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `span` for an adaptive span, naming `dt` for a step
    /// that is not positive (the span has refused zero and non-finite steps), naming `y0` when
    /// `t0` is not the span's start.
    pub fn forward(span: &Span, t0: f64) -> Result<Self> {
        let (dt, _) = span.fixed_step()?;
        if dt <= 0.0 {
            return Err(Error::InvalidParameter {
                name: "dt",
                value: format!("{dt:e}"),
                expected: "a finite positive step size (the method steps forward)".into(),
            });
        }
        Self::either_direction(span, t0)
    }

    /// The clock of a fixed-step `span` in either direction (`dt < 0` steps backward), for a
    /// state at `t0` (which must be the span's start): for the methods that step backward as
    /// they step forward (Krysl's momentum integrators, [`crate::momentum::MomentumIntegrator`]).
    /// The times are `t_0 + n·dt` as for [`FixedClock::forward`].
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `span` for an adaptive span (the span has refused zero
    /// and non-finite steps), naming `y0` when `t0` is not the span's start.
    ///
    /// # Examples
    /// ```
    /// use lieode::clock::FixedClock;
    /// use lieode::stepper::{Span, Stats};
    ///
    /// let mut clock = FixedClock::either_direction(&Span::stride(1.0, -0.25, 2)?, 1.0)?;
    /// clock.advance(&mut Stats::default());
    /// assert_eq!(clock.time(), 0.75);
    /// assert!(clock.advance(&mut Stats::default()).finished);
    /// # Ok::<(), lieode::Error>(())
    /// ```
    pub fn either_direction(span: &Span, t0: f64) -> Result<Self> {
        let (dt, steps) = span.fixed_step()?;
        if t0 != span.t0() {
            return Err(Error::InvalidParameter {
                name: "y0",
                value: format!("a state at t = {t0:e}"),
                expected: format!("the state at the span's start t0 = {:e}", span.t0()),
            });
        }
        Ok(Self {
            t0,
            dt,
            t: t0,
            taken: 0,
            planned: (steps != usize::MAX).then_some(steps as u64),
            landing: None,
        })
    }

    /// The clock of a fixed-step `span` in either direction, starting at the span's start,
    /// whose last planned step ends exactly on the span's end: `t_n = t_0 + n·dt` for `n < N`
    /// and `t_N = t_end` for a span of `N` steps (steps past `N` are back on the grid).
    ///
    /// For [`Span::steps`]`(t0, t_end, N)` the grid time `t_0 + N·dt` with
    /// `dt = (t_end − t_0)/N` may differ from `t_end` by a rounding; this clock reports
    /// `t_end`, [`FixedClock::forward`] and [`FixedClock::either_direction`] the grid time. For
    /// [`Span::stride`] both are `t_0 + N·dt`, and an open span ([`Span::open`]) has no end to
    /// land on. The clock of [`crate::engine::Fixed`], whose state carries no time (hence no
    /// check of the state's start time).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `span` for an adaptive span (the span has refused
    /// zero and non-finite steps).
    ///
    /// # Examples
    /// ```
    /// use lieode::clock::FixedClock;
    /// use lieode::stepper::{Span, Stats};
    ///
    /// let span = Span::steps(0.0, 1.0, 49)?;
    /// let mut landing = FixedClock::landing(&span)?;
    /// let mut grid = FixedClock::either_direction(&span, 0.0)?;
    /// let mut stats = Stats::default();
    /// for _ in 0..48 {
    ///     landing.advance(&mut stats);
    ///     grid.advance(&mut stats);
    /// }
    /// assert_eq!(landing.time(), grid.time());
    /// assert_eq!(landing.next_time(), 1.0);
    /// assert!(landing.advance(&mut stats).finished);
    /// assert_eq!(landing.time(), 1.0);
    /// grid.advance(&mut stats);
    /// assert_eq!(grid.time(), 49.0 * (1.0 / 49.0)); // 0.9999999999999999
    /// assert!(FixedClock::landing(&Span::new(0.0, 1.0)?).is_err());
    /// # Ok::<(), lieode::Error>(())
    /// ```
    pub fn landing(span: &Span) -> Result<Self> {
        let clock = Self::either_direction(span, span.t0())?;
        Ok(Self {
            landing: clock.planned.map(|n| (n, span.t_end())),
            ..clock
        })
    }

    /// The step size.
    #[inline(always)]
    pub fn dt(&self) -> f64 {
        self.dt
    }

    /// The current time `t_n`.
    #[inline(always)]
    pub fn time(&self) -> f64 {
        self.t
    }

    /// The time `k` steps after the current one, `t_0 + (n + k)·dt` (`t_0` itself for
    /// `n + k = 0`, the span's end for `n + k = N` on a [`FixedClock::landing`] clock).
    #[inline(always)]
    pub fn after(&self, k: u64) -> f64 {
        let n = self.taken + k;
        if n == 0 {
            self.t0
        } else if let Some((last, t_end)) = self.landing
            && n == last
        {
            t_end
        } else {
            self.t0 + n as f64 * self.dt
        }
    }

    /// `t_{n+1}`, the end of the step being taken.
    #[inline(always)]
    pub fn next_time(&self) -> f64 {
        self.after(1)
    }

    /// The number of steps taken.
    pub fn steps(&self) -> u64 {
        self.taken
    }

    /// Counts a completed step (in the clock and as an accepted step in `stats`) and reports
    /// it; [`StepReport::finished`] once the span's planned steps are taken.
    #[inline(always)]
    pub fn advance(&mut self, stats: &mut Stats) -> StepReport {
        let t_start = self.t;
        self.taken += 1;
        self.t = self.after(0);
        stats.steps += 1;
        stats.accepted += 1;
        StepReport {
            t_start,
            t_end: self.t,
            finished: self.planned.is_some_and(|n| self.taken >= n),
        }
    }
}
