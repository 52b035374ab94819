//! The rotational catalogue on the one stepper protocol: every method started on a span, driven
//! by `integrate` or by hand with the same numbers, its torque evaluations counted exactly.

use lieode::Error;
use lieode::integrate::{Options, Record, StopReason, integrate};
use lieode::problems::cylinder::SpiralCylinder;
use lieode::rotation::{ConstantBodyTorque, RotationalState, SpiralLeapfrog, catalogue};
use lieode::stepper::{Span, Stepper, StepperInfo};

mod common;
use common::counting::Counting;

fn cylinder() -> SpiralCylinder {
    SpiralCylinder::paper().expect("the paper's cylinder")
}

fn tally(problem: &SpiralCylinder) -> Counting<ConstantBodyTorque> {
    Counting::new(problem.torque())
}

#[test]
fn every_method_counts_each_torque_evaluation() -> lieode::Result<()> {
    let problem = cylinder();
    let start = problem.initial_state();
    let (dt, n) = (1e-3, 37);
    for name in catalogue::NAMES {
        let mut m = catalogue::stepper::<Counting<ConstantBodyTorque>>(name, *problem.body())?;
        let mut torque = tally(&problem);
        let span = Span::stride(start.t, dt, n)?;
        let sol = integrate(
            &mut *m,
            &mut torque,
            &start,
            &span,
            Options::record(Record::Ends),
        )?;
        assert_eq!(sol.stop, StopReason::Finished, "{name}");
        assert_eq!(sol.stats.rhs_evaluations, torque.count.get(), "{name}");
        assert_eq!((sol.stats.steps, sol.stats.accepted), (n, n), "{name}");
        // The steps cost what the method documents; the start and the one synchronisation at
        // the end cost at most one evaluation each.
        let per_step = m.torque_evaluations_per_step() * n;
        let extra = torque.count.get() - per_step;
        assert!(
            extra <= 2,
            "{name}: {} evaluations for {n} steps",
            torque.count.get()
        );
        assert_eq!(m.stats(), sol.stats, "{name}");
    }
    Ok(())
}

#[test]
fn integrate_gives_the_numbers_of_a_hand_driven_loop() -> lieode::Result<()> {
    let problem = cylinder();
    let start = problem.initial_state();
    let (dt, n) = (2e-3, 250);
    for name in catalogue::NAMES {
        let mut driven = catalogue::stepper(name, *problem.body())?;
        let mut torque = problem.torque();
        let span = Span::stride(start.t, dt, n)?;
        let sol = integrate(
            &mut *driven,
            &mut torque,
            &start,
            &span,
            Options::record(Record::Every(50)),
        )?;
        let mut by_hand = catalogue::stepper(name, *problem.body())?;
        let mut torque = problem.torque();
        by_hand.start(&mut torque, &Span::open(start.t, dt)?, &start)?;
        let mut stored = vec![start];
        for k in 1..=n {
            let report = by_hand.step(&mut torque)?;
            assert!(!report.finished, "an open span never finishes");
            if k % 50 == 0 {
                stored.push(by_hand.state(&mut torque)?);
            }
        }
        assert_eq!(sol.states, stored, "{name}");
        let times: Vec<f64> = stored.iter().map(|s| s.t).collect();
        assert_eq!(sol.times, times, "{name}");
    }
    Ok(())
}

#[test]
fn the_span_must_fit_the_state_and_the_method() -> lieode::Result<()> {
    let problem = cylinder();
    let start = problem.initial_state();
    let mut spiral = SpiralLeapfrog::new(*problem.body());
    let mut torque = problem.torque();
    let elsewhere = RotationalState { t: 1.0, ..start };
    let err = spiral
        .start(&mut torque, &Span::stride(0.0, 1e-3, 10)?, &elsewhere)
        .expect_err("the state's time is not the span's start");
    assert!(matches!(err, Error::InvalidParameter { name: "y0", .. }));
    let err = spiral
        .start(&mut torque, &Span::new(0.0, 1.0)?, &start)
        .expect_err("a fixed-step method needs a step size");
    assert!(matches!(err, Error::InvalidParameter { name: "span", .. }));
    // A finished span: the report says so at the last planned step.
    spiral.start(&mut torque, &Span::stride(0.0, 1e-3, 3)?, &start)?;
    let reports: Vec<bool> = (0..4)
        .map(|_| spiral.step(&mut torque).map(|r| r.finished))
        .collect::<lieode::Result<_>>()?;
    assert_eq!(reports, [false, false, true, true]);
    assert!((spiral.time() - 4e-3).abs() < 1e-18);
    Ok(())
}
