//! The one driver, `integrate`: what it stores, when it stops, whom it calls, what it refuses —
//! on a fixed-step engine, an adaptive vector stepper and a lifted adaptive stepper.

use lieode::Error;
use lieode::adaptive::{ControllerParameters, Dop853, LieStepper, Tolerances, VectorStepper};
use lieode::engine::{ExplicitRk, Fixed, Stats, Step};
use lieode::integrate::{
    Direction, Event, Observer, Options, Record, Series, StopReason, integrate,
};
use lieode::lie::LieGroup;
use lieode::problems::TorquedRigidBody;
use lieode::stepper::{NoDenseOutput, Span, StepReport, Stepper, StepperInfo};
use lieode::tableau::registry::RK4;
use nalgebra::{Vector1, Vector2};

type Rk4 = ExplicitRk<f64, 2>;

fn oscillator(_t: f64, x: &Vector2<f64>) -> Vector2<f64> {
    Vector2::new(x[1], -x[0])
}

fn dop853(tol: f64) -> VectorStepper<Dop853<nalgebra::Const<2>>, 2> {
    let tolerances = Tolerances::scalar(tol, tol).expect("valid tolerances");
    VectorStepper::new(Dop853::new(tolerances, ControllerParameters::dop853()).expect("valid"))
}

#[test]
fn a_fixed_step_run_is_the_engine_stepped_by_hand() -> lieode::Result<()> {
    let x0 = Vector2::new(1.0, 0.0);
    let (t0, t_end, n) = (0.3, 2.0, 7);
    let mut stepper = Fixed::new(Rk4::new(&RK4)?);
    let sol = integrate(
        &mut stepper,
        &mut oscillator,
        &x0,
        &Span::steps(t0, t_end, n)?,
        Options::record(Record::All),
    )?;
    // By hand: step i from t0 + i h, the last time exactly t_end.
    let mut engine = Rk4::new(&RK4)?;
    let h = (t_end - t0) / n as f64;
    let mut stats = Stats::default();
    let mut x = x0;
    let mut expected_times = vec![t0];
    let mut expected_states = vec![x0];
    for i in 0..n {
        x = engine
            .step(&mut oscillator, t0 + i as f64 * h, &x, h, &mut stats)?
            .state;
        expected_times.push(if i + 1 == n {
            t_end
        } else {
            t0 + (i + 1) as f64 * h
        });
        expected_states.push(x);
    }
    assert_eq!(sol.times, expected_times);
    assert_eq!(sol.states, expected_states);
    assert_eq!(sol.stop, StopReason::Finished);
    assert_eq!(sol.stats.rhs_evaluations, 4 * n);
    assert_eq!((sol.stats.steps, sol.stats.accepted), (n, n));
    assert_eq!(stepper.stats(), sol.stats);
    Ok(())
}

#[test]
fn records_every_kth_step_and_the_ends() -> lieode::Result<()> {
    let mut stepper = Fixed::new(Rk4::new(&RK4)?);
    let span = Span::steps(0.0, 1.0, 10)?;
    let x0 = Vector2::new(1.0, 0.0);
    let every3 = integrate(
        &mut stepper,
        &mut oscillator,
        &x0,
        &span,
        Options::record(Record::Every(3)),
    )?;
    let h = 0.1;
    let expected: Vec<f64> = [0.0, 3.0 * h, 6.0 * h, 9.0 * h, 1.0].to_vec();
    assert_eq!(every3.times, expected);
    let ends = integrate(
        &mut stepper,
        &mut oscillator,
        &x0,
        &span,
        Options::record(Record::Ends),
    )?;
    assert_eq!(ends.times, vec![0.0, 1.0]);
    assert_eq!(ends.states[1], every3.states[4]);
    // A second run starts afresh: the same counters.
    assert_eq!(ends.stats, every3.stats);
    let err = integrate(
        &mut stepper,
        &mut oscillator,
        &x0,
        &span,
        Options::record(Record::Every(0)),
    )
    .expect_err("Every(0) is refused");
    assert!(matches!(
        err,
        Error::InvalidParameter { name: "record", .. }
    ));
    Ok(())
}

#[test]
fn max_steps_stops_with_its_reason_and_keeps_the_last_state() -> lieode::Result<()> {
    let mut stepper = Fixed::new(Rk4::new(&RK4)?);
    let span = Span::steps(0.0, 1.0, 10)?;
    let x0 = Vector2::new(1.0, 0.0);
    let sol = integrate(
        &mut stepper,
        &mut oscillator,
        &x0,
        &span,
        Options::record(Record::Ends).max_steps(4),
    )?;
    assert_eq!(sol.stop, StopReason::MaxSteps);
    assert_eq!(sol.stats.accepted, 4);
    assert_eq!(sol.times, vec![0.0, 0.4]);
    let full = integrate(
        &mut stepper,
        &mut oscillator,
        &x0,
        &span,
        Options::record(Record::All),
    )?;
    assert_eq!(sol.states[1], full.states[4]);
    let err = sol.ensure_finished().expect_err("stopped early");
    assert!(matches!(err, Error::MaxStepsExceeded { steps: 4, .. }));
    assert!(full.ensure_finished().is_ok());
    Ok(())
}

#[test]
fn observers_see_the_start_and_the_steps_they_want() -> lieode::Result<()> {
    let mut stepper = Fixed::new(Rk4::new(&RK4)?);
    let span = Span::steps(0.0, 2.0, 20)?;
    let x0 = Vector2::new(1.0, 0.0);
    let mut seen = Vec::new();
    let mut every_step = |n: usize, t: f64, _x: &Vector2<f64>| seen.push((n, t));
    let mut energy =
        Series::new("energy", |_t, x: &Vector2<f64>| 0.5 * x.norm_squared()).every(5)?;
    let options = Options::record(Record::Ends)
        .observer(&mut every_step)
        .observer(&mut energy);
    let sol = integrate(&mut stepper, &mut oscillator, &x0, &span, options)?;
    assert_eq!(seen.len(), 21);
    assert_eq!(seen[0], (0, 0.0));
    assert_eq!(seen[20], (20, 2.0));
    assert_eq!(energy.steps(), &[0, 5, 10, 15, 20]);
    assert_eq!(energy.values()[4], 0.5 * sol.states[1].norm_squared());
    // RK4 does not conserve the oscillator's energy exactly: the drift is small but not zero.
    let drift = energy.max_relative_drift();
    assert!(drift > 0.0 && drift < 1e-4, "drift {drift:e}");
    Ok(())
}

/// An observer that fails at step 3.
struct FailsAtThree;

impl Observer<Vector2<f64>> for FailsAtThree {
    fn observe(&mut self, step: usize, t: f64, _state: &Vector2<f64>) -> lieode::Result<()> {
        if step == 3 {
            Err(Error::NonFiniteState {
                what: "test observer",
                t,
            })
        } else {
            Ok(())
        }
    }
}

#[test]
fn an_observer_error_stops_the_run() -> lieode::Result<()> {
    let mut stepper = Fixed::new(Rk4::new(&RK4)?);
    let mut failing = FailsAtThree;
    let err = integrate(
        &mut stepper,
        &mut oscillator,
        &Vector2::new(1.0, 0.0),
        &Span::steps(0.0, 1.0, 10)?,
        Options::record(Record::Ends).observer(&mut failing),
    )
    .expect_err("the observer fails");
    assert!(
        matches!(err, Error::NonFiniteState { what: "test observer", t } if (t - 0.3).abs() < 1e-15)
    );
    assert_eq!(stepper.stats().accepted, 3);
    Ok(())
}

/// A stepper that counts how often it is asked to synchronise (as a leapfrog method would,
/// at the cost of an evaluation): x' = 1 with steps of 1.
#[derive(Default)]
struct Counting {
    t: f64,
    n: usize,
    steps: usize,
    synchronisations: usize,
}

impl StepperInfo for Counting {
    fn name(&self) -> &str {
        "counting"
    }
    fn time(&self) -> f64 {
        self.t
    }
    fn stats(&self) -> Stats {
        Stats {
            steps: self.steps,
            accepted: self.steps,
            ..Stats::default()
        }
    }
}

impl Stepper<()> for Counting {
    type State = Vector1<f64>;
    type Segment = NoDenseOutput<Vector1<f64>>;
    fn start(&mut self, _: &mut (), span: &Span, _y0: &Vector1<f64>) -> lieode::Result<()> {
        let (_, n) = span.fixed_step()?;
        *self = Self {
            t: span.t0(),
            n,
            ..Self::default()
        };
        Ok(())
    }
    fn step(&mut self, _: &mut ()) -> lieode::Result<StepReport> {
        self.steps += 1;
        self.t += 1.0;
        Ok(StepReport {
            t_start: self.t - 1.0,
            t_end: self.t,
            finished: self.steps >= self.n,
        })
    }
    fn state(&mut self, _: &mut ()) -> lieode::Result<Vector1<f64>> {
        self.synchronisations += 1;
        Ok(Vector1::new(self.t))
    }
}

#[test]
fn the_state_is_synchronised_only_when_needed() -> lieode::Result<()> {
    let span = Span::stride(0.0, 1.0, 100)?;
    let y0 = Vector1::new(0.0);
    let mut stepper = Counting::default();
    let sol = integrate(
        &mut stepper,
        &mut (),
        &y0,
        &span,
        Options::record(Record::Ends),
    )?;
    assert_eq!(stepper.synchronisations, 1);
    assert_eq!(sol.states[1][0], 100.0);
    let mut every10 = Series::new("t", |t, _y: &Vector1<f64>| t).every(10)?;
    integrate(
        &mut stepper,
        &mut (),
        &y0,
        &span,
        Options::record(Record::Every(25)).observer(&mut every10),
    )?;
    // Steps 10, 20, …, 100 for the observer and 25, 75 besides for the record.
    assert_eq!(stepper.synchronisations, 12);
    Ok(())
}

#[test]
fn spans_are_checked_and_must_fit_the_method() -> lieode::Result<()> {
    assert!(matches!(
        Span::new(f64::NAN, 1.0),
        Err(Error::NonFinite { name: "t0" })
    ));
    assert!(matches!(
        Span::new(0.0, f64::INFINITY),
        Err(Error::NonFinite { name: "t_end" })
    ));
    assert!(matches!(
        Span::new(1.0, 1.0),
        Err(Error::InvalidParameter { name: "t_end", .. })
    ));
    assert!(matches!(
        Span::steps(0.0, 1.0, 0),
        Err(Error::InvalidParameter { name: "steps", .. })
    ));
    assert!(matches!(
        Span::stride(0.0, f64::NAN, 3),
        Err(Error::NonFinite { name: "dt" })
    ));
    assert!(matches!(
        Span::stride(0.0, 0.0, 3),
        Err(Error::InvalidParameter { name: "dt", .. })
    ));
    assert!(matches!(
        Span::stride(0.0, 1e300, usize::MAX),
        Err(Error::InvalidParameter { name: "steps", .. })
    ));
    assert!(matches!(
        Span::steps(0.0, 1e-310, usize::MAX),
        Err(Error::InvalidParameter { name: "steps", .. })
    ));
    // A step below the time resolution would never advance the clock.
    assert!(matches!(
        Span::stride(1e9, 1e-8, 10),
        Err(Error::InvalidParameter { name: "dt", .. })
    ));
    assert!(matches!(
        Span::steps(1e9, 1e9 + 1.0, 1 << 40),
        Err(Error::InvalidParameter { name: "steps", .. })
    ));
    assert!(Span::stride(1e9, 1e-6, 10).is_ok());
    let x0 = Vector2::new(1.0, 0.0);
    let mut fixed = Fixed::new(Rk4::new(&RK4)?);
    let err = integrate(
        &mut fixed,
        &mut oscillator,
        &x0,
        &Span::new(0.0, 1.0)?,
        Options::default(),
    )
    .expect_err("a fixed-step method needs a step size");
    assert!(matches!(err, Error::InvalidParameter { name: "span", .. }));
    let err = integrate(
        &mut dop853(1e-8),
        &mut oscillator,
        &x0,
        &Span::steps(0.0, 1.0, 10)?,
        Options::default(),
    )
    .expect_err("an adaptive method chooses its steps");
    assert!(matches!(err, Error::InvalidParameter { name: "span", .. }));
    let err = integrate(
        &mut dop853(1e-8),
        &mut oscillator,
        &Vector2::new(f64::NAN, 0.0),
        &Span::new(0.0, 1.0)?,
        Options::default(),
    )
    .expect_err("a non-finite state is refused");
    assert!(matches!(err, Error::NonFinite { name: "y0" }));
    Ok(())
}

#[test]
fn events_and_dense_output_need_a_method_that_has_them() -> lieode::Result<()> {
    let x0 = Vector2::new(1.0, 0.0);
    let span = Span::steps(0.0, 3.0, 30)?;
    let mut fixed = Fixed::new(Rk4::new(&RK4)?);
    let event = Event::new(|_t, x: &Vector2<f64>| x[0], Direction::Either, false);
    let err = integrate(
        &mut fixed,
        &mut oscillator,
        &x0,
        &span,
        Options::default().event(event),
    )
    .expect_err("no dense output to locate events on");
    assert!(matches!(
        err,
        Error::InvalidParameter { name: "events", .. }
    ));
    let err = integrate(
        &mut fixed,
        &mut oscillator,
        &x0,
        &span,
        Options::default().dense(),
    )
    .expect_err("no dense output to store");
    assert!(matches!(err, Error::InvalidParameter { name: "dense", .. }));
    Ok(())
}

#[test]
fn events_are_located_on_the_dense_output_and_can_stop_the_run() -> lieode::Result<()> {
    use std::f64::consts::PI;
    let x0 = Vector2::new(1.0, 0.0);
    let span = Span::new(0.0, 10.0)?;
    // x = cos t falls through zero at π/2, 5π/2, … and rises at 3π/2, 7π/2, …
    let falling = Event::new(|_t, x: &Vector2<f64>| x[0], Direction::Falling, false);
    let rising = Event::new(|_t, x: &Vector2<f64>| x[0], Direction::Rising, false);
    let options = Options::default().event(falling).event(rising);
    let sol = integrate(&mut dop853(1e-10), &mut oscillator, &x0, &span, options)?;
    let located: Vec<(usize, f64)> = sol.events.iter().map(|e| (e.index, e.t)).collect();
    let exact = [(0, 0.5 * PI), (1, 1.5 * PI), (0, 2.5 * PI)];
    assert_eq!(located.len(), exact.len(), "{located:?}");
    for ((i, t), (j, s)) in located.iter().zip(exact) {
        assert_eq!(*i, j);
        assert!((t - s).abs() < 1e-9, "event at {t} vs {s}");
    }
    assert_eq!(sol.stop, StopReason::Finished);
    // A terminal event at the first maximum of y = −sin t (t = 3π/2) stops the run there.
    let top = Event::new(|_t, x: &Vector2<f64>| x[0], Direction::Rising, true);
    let sol = integrate(
        &mut dop853(1e-10),
        &mut oscillator,
        &x0,
        &span,
        Options::default().event(top),
    )?;
    assert_eq!(sol.stop, StopReason::TerminalEvent(0));
    let (t, x) = sol.last().expect("a final state");
    assert!((t - 1.5 * PI).abs() < 1e-9);
    assert!(x[0].abs() < 1e-9 && (x[1] - 1.0).abs() < 1e-9);
    Ok(())
}

#[test]
fn dense_output_on_a_lie_group_through_the_driver() -> lieode::Result<()> {
    let mut body = TorquedRigidBody::default();
    let (t0, t_end) = TorquedRigidBody::TIME_SPAN;
    let y0 = body.exact(t0);
    let tolerances = Tolerances::scalar(1e-10, 1e-10)?;
    let mut stepper = LieStepper::new(Dop853::new(tolerances, ControllerParameters::dop853())?);
    let sol = integrate(
        &mut stepper,
        &mut body,
        &y0,
        &Span::new(t0, t_end)?,
        Options::record(Record::Ends).dense(),
    )?;
    assert_eq!(sol.times.len(), 2);
    assert_eq!(sol.segments().len(), sol.stats.accepted);
    for t in [0.1234, 1.0, 1.9] {
        let error = sol.at(t)?.distance(&body.exact(t))?;
        assert!(error < 1e-8, "dense error {error:e} at {t}");
    }
    assert!(matches!(
        sol.at(t_end + 0.5),
        Err(Error::InvalidParameter { name: "t", .. })
    ));
    Ok(())
}
