//! The experiment layer: bracketing the step that reaches a target error, step-size and
//! tolerance studies with the crate's integrators, tables, timing options and input checks.
//! No assertion on speed: timings are only checked to be positive.

use lieode::adaptive::{ControllerParameters, Dop853, Dopri5, Tolerances};
use lieode::engine::{ExplicitRk, MuntheKaas};
use lieode::lie::LieGroup;
use lieode::lie::so3::So3;
use lieode::problems::{SphereProblem, TorquedRigidBody, VectorTestProblem};
use lieode::tableau::registry::{KUTTA3, RK4};
use lieode_study::Error;
use lieode_study::csv::Table;
use lieode_study::experiment::{
    Abscissa, Adaptive, Experiment, FixedStep, GridKind, RunOutcome, Runner, StepCount,
    TimingOptions, error_crossings, median_seconds, run_study, step_for_error, time_runs,
};

/// The name of the parameter an `InvalidParameter` error (a finite value out of range) or a
/// `NonFinite` error (NaN or an infinity) names (panics on another variant).
fn named(err: Error) -> &'static str {
    match err {
        Error::InvalidParameter { name, .. } | Error::NonFinite { name } => name,
        other => panic!("expected InvalidParameter or NonFinite, got {other}"),
    }
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs()
}

// ---------------------------------------------------------------- bracketing

#[test]
fn bracketing_recovers_the_step_of_a_power_law_exactly() {
    // e = C h^p is a straight line in (log10 h, log10 e): the interpolation is exact, so the
    // step reaching a target is (target/C)^(1/p) up to rounding.
    let (c, p) = (2.5, 3.0);
    let hs: Vec<f64> = (0..9).map(|k| 0.2 / 2f64.powi(k)).collect();
    let errors: Vec<f64> = hs.iter().map(|h| c * h.powf(p)).collect();
    for target in [1e-2, 3e-4, 1e-5, 7.7e-7, 1e-8] {
        let expected = (target / c).powf(1.0 / p);
        assert!(expected > hs[8] && expected < hs[0], "target {target:e}");
        let h = step_for_error(&hs, &errors, target).unwrap();
        assert!(
            close(h, expected, 1e-12),
            "target {target:e}: {h:e} vs {expected:e}"
        );
    }
    // A target equal to a measured error returns that grid step (the first, an interior and
    // the last point).
    for i in [0, 4, 8] {
        let h = step_for_error(&hs, &errors, errors[i]).unwrap();
        assert!(
            close(h, hs[i], 1e-12),
            "grid point {i}: {h:e} vs {:e}",
            hs[i]
        );
    }
    // The order of the grid does not matter.
    let mut shuffled: Vec<(f64, f64)> = hs.iter().copied().zip(errors.iter().copied()).collect();
    shuffled.swap(0, 5);
    shuffled.swap(2, 8);
    shuffled.reverse();
    let (sh, se): (Vec<f64>, Vec<f64>) = shuffled.into_iter().unzip();
    let h = step_for_error(&sh, &se, 1e-5).unwrap();
    assert!(close(h, (1e-5f64 / c).powf(1.0 / p), 1e-12));
    // The crossings of a monotone curve: exactly one.
    assert_eq!(error_crossings(&hs, &errors, 1e-5).unwrap().len(), 1);
}

#[test]
fn bracketing_a_non_monotone_curve_takes_the_largest_step() {
    // Errors fall with h down to 1e-3, then rise again (round-off): the target 1e-9 is crossed
    // on both branches; the largest step that reaches it is on the truncation branch.
    let hs = [1e-4, 1e-3, 1e-2, 1e-1];
    let errors = [1e-8, 1e-10, 1e-7, 1e-3];
    let h = step_for_error(&hs, &errors, 1e-9).unwrap();
    let rising = 1e-3 * 10f64.powf(1.0 / 3.0);
    assert!(close(h, rising, 1e-12), "{h:e}");
    let all = error_crossings(&hs, &errors, 1e-9).unwrap();
    assert_eq!(all.len(), 2);
    assert!(close(all[0], 1e-4 * 10f64.sqrt(), 1e-12));
    assert!(close(all[1], rising, 1e-12));
    // A bump: the error rises at 1e-2 above the target 1e-5, dips below it at 3e-2 and rises
    // again: three crossings, and the answer is the one above which every grid step misses
    // the target.
    let hs = [1e-3, 1e-2, 3e-2, 1e-1];
    let bumpy = [1e-8, 1e-3, 1e-6, 1e-2];
    let h = step_for_error(&hs, &bumpy, 1e-5).unwrap();
    assert!(h > 3e-2 && h < 1e-1, "{h:e}");
    assert_eq!(error_crossings(&hs, &bumpy, 1e-5).unwrap().len(), 3);
    // A target touched exactly at the bottom of the dip: that grid step.
    assert_eq!(step_for_error(&hs, &bumpy, 1e-6).unwrap(), 3e-2);
    assert!(error_crossings(&hs, &bumpy, 1e-6).unwrap().contains(&3e-2));
}

#[test]
fn bracketing_rejects_targets_out_of_range_and_bad_input() {
    let hs = [0.1, 0.05, 0.025];
    let errors = [1e-4, 6.25e-6, 3.9e-7];
    // Below every error: extend the grid to smaller steps.
    assert_eq!(
        named(step_for_error(&hs, &errors, 1e-8).unwrap_err()),
        "target"
    );
    // Above the error at the largest step: extend the grid to larger steps.
    assert_eq!(
        named(step_for_error(&hs, &errors, 1e-2).unwrap_err()),
        "target"
    );
    assert!(error_crossings(&hs, &errors, 1e-2).unwrap().is_empty());
    for target in [0.0, -1e-6, f64::NAN, f64::INFINITY] {
        assert_eq!(
            named(step_for_error(&hs, &errors, target).unwrap_err()),
            "target"
        );
    }
    assert_eq!(
        named(step_for_error(&hs, &errors[..2], 1e-5).unwrap_err()),
        "errors"
    );
    assert_eq!(
        named(step_for_error(&hs[..1], &errors[..1], 1e-4).unwrap_err()),
        "steps"
    );
    assert_eq!(named(step_for_error(&[], &[], 1e-4).unwrap_err()), "steps");
    for bad in [0.0, -1e-5, f64::NAN, f64::INFINITY] {
        let e = [1e-4, bad, 3.9e-7];
        assert_eq!(named(step_for_error(&hs, &e, 1e-5).unwrap_err()), "errors");
        let h = [0.1, bad, 0.025];
        assert_eq!(
            named(step_for_error(&h, &errors, 1e-5).unwrap_err()),
            "steps"
        );
    }
    let repeated = [0.1, 0.05, 0.1];
    assert_eq!(
        named(step_for_error(&repeated, &errors, 1e-5).unwrap_err()),
        "steps"
    );
    assert_eq!(
        named(error_crossings(&repeated, &errors, 1e-5).unwrap_err()),
        "steps"
    );
}

// ---------------------------------------------------------------- studies

/// RK4 and Kutta3 through the fixed-step runner on the vector problem with its exact solution,
/// on `h = 2/N` for 8 step counts.
fn fixed_step_study() -> Experiment {
    let p = VectorTestProblem::default();
    let (t0, t_end) = VectorTestProblem::TIME_SPAN;
    let error = move |t: f64, x: &nalgebra::Vector3<f64>| Ok((x - p.exact(t)).norm());
    let rk4 = FixedStep::new(
        ExplicitRk::<f64, 3>::new(&RK4).unwrap(),
        p,
        p.exact(t0),
        t0,
        t_end,
    )
    .error(error);
    let kutta = FixedStep::new(
        ExplicitRk::<f64, 3>::new(&KUTTA3).unwrap(),
        p,
        p.exact(t0),
        t0,
        t_end,
    )
    .name("Kutta (3)")
    .error(error);
    let grid: Vec<f64> = [10, 14, 20, 28, 40, 56, 80, 112]
        .iter()
        .map(|&n| 2.0 / n as f64)
        .collect();
    run_study(
        "vector test problem",
        GridKind::StepSize,
        &grid,
        &mut [rk4, kutta],
        &TimingOptions::once(),
    )
    .unwrap()
}

#[test]
fn rk4_study_measures_order_four_on_eight_points() {
    let study = fixed_step_study();
    assert!(study.is_complete());
    assert_eq!(study.results.len(), 2);
    let rk4 = study.method("RK4").expect("named after the tableau");
    assert_eq!(rk4.measurements.len(), 8);
    let p = rk4.observed_order.unwrap();
    assert!((p - 4.0).abs() < 0.1, "RK4 observed order {p}");
    assert_eq!(rk4.local_orders.len(), 7);
    for (m, n) in rk4
        .measurements
        .iter()
        .zip([10, 14, 20, 28, 40, 56, 80, 112])
    {
        assert_eq!(m.steps, n);
        assert_eq!(m.evaluations, 4 * n);
        assert_eq!(m.value, 2.0 / n as f64);
        assert_eq!(m.repeats, 1);
        assert!(m.seconds > 0.0);
    }
    let kutta = study.method("Kutta (3)").unwrap();
    let q = kutta.observed_order.unwrap();
    assert!((q - 3.0).abs() < 0.1, "Kutta observed order {q}");
    // Series for the figures: error against h, evaluations, steps and time.
    let by_work = rk4.series(Abscissa::Evaluations);
    assert_eq!(by_work.label, "RK4");
    assert_eq!(by_work.x[0], 40.0);
    assert_eq!(by_work.error, rk4.errors());
    assert_eq!(study.series(Abscissa::Value)[1].x, kutta.values());
    assert!(
        study.series(Abscissa::Seconds)[0]
            .x
            .iter()
            .all(|s| *s > 0.0)
    );
    assert_eq!(study.series(Abscissa::Steps)[0].x[7], 112.0);
    // Table 2 of the SPIRAL paper, for these two methods: the step reaching each target lies
    // inside the grid, and the fourth-order method allows the larger step.
    let targets = [1e-5, 3e-6, 1e-6];
    let table = study.bracket_table(&targets).unwrap();
    assert_eq!(table.columns(), ["problem", "method", "target", "h"]);
    assert_eq!(table.rows().len(), 6);
    for &target in &targets {
        let (h4, h3) = (
            rk4.value_for_error(target).unwrap(),
            kutta.value_for_error(target).unwrap(),
        );
        assert!(h4 > h3, "target {target:e}: RK4 {h4:e}, Kutta3 {h3:e}");
        assert!((2.0 / 112.0..=0.2).contains(&h4));
    }
    // A target RK4 does not reach on this grid is an error naming the target and the method.
    match study.bracket_table(&[1e-14]).unwrap_err() {
        Error::InvalidParameter { name, value, .. } => {
            assert_eq!(name, "target");
            assert!(value.contains("RK4"), "{value}");
        }
        other => panic!("{other}"),
    }
    assert_eq!(named(study.bracket_table(&[]).unwrap_err()), "targets");
}

#[test]
fn tables_round_trip_through_csv() {
    let study = fixed_step_study();
    let table = study.to_table().unwrap();
    assert_eq!(
        table.columns(),
        [
            "problem",
            "method",
            "h",
            "error",
            "evaluations",
            "steps",
            "seconds",
            "repeats"
        ]
    );
    assert_eq!(table.rows().len(), 16);
    let back = Table::parse(&table.to_csv()).unwrap();
    assert_eq!(back, table);
    assert_eq!(
        back.numbers("h").unwrap()[..8],
        study.results[0].values()[..]
    );
    let orders = study.orders_table().unwrap();
    assert_eq!(
        orders.columns(),
        [
            "problem",
            "method",
            "points",
            "observed_order",
            "first_local_order",
            "last_local_order"
        ]
    );
    let back = Table::parse(&orders.to_csv()).unwrap();
    assert_eq!(back, orders);
    let fitted = back.numbers("observed_order").unwrap();
    assert!((fitted[0] - 4.0).abs() < 0.1 && (fitted[1] - 3.0).abs() < 0.1);
    assert!(study.failures_table().unwrap().rows().is_empty());
}

#[test]
fn lie_group_fixed_step_runner_reports_the_step_used() {
    // RKMK4 on S² through SO(3): step sizes that do not divide the span are rounded to the
    // nearest step count, and the measurement stores the step actually used.
    let p = SphereProblem::default();
    let runner = || {
        FixedStep::new(
            MuntheKaas::<So3>::new(&RK4).unwrap(),
            p,
            So3::identity(),
            0.0,
            2.0,
        )
        .name("RKMK4")
        .error(move |t, y| Ok((p.point_of(y) - p.exact_point(t)).norm()))
    };
    let grid = [0.3, 0.11, 0.05];
    let study = run_study(
        "sphere",
        GridKind::StepSize,
        &grid,
        &mut [runner()],
        &TimingOptions::once(),
    )
    .unwrap();
    let used: Vec<f64> = study.results[0].values();
    assert_eq!(used, [2.0 / 7.0, 2.0 / 18.0, 2.0 / 40.0]);
    let requested: Vec<f64> = study.results[0]
        .measurements
        .iter()
        .map(|m| m.requested)
        .collect();
    assert_eq!(requested, grid);

    // Truncation (the SPIRAL paper's rule): h kept, the run ends at n h ≤ t_end, and the error
    // closure sees that time.
    let mut ends = vec![];
    let mut truncated = FixedStep::new(
        MuntheKaas::<So3>::new(&RK4).unwrap(),
        p,
        So3::identity(),
        0.0,
        2.0,
    )
    .step_count(StepCount::Truncate)
    .error(|t, y| {
        ends.push(t);
        Ok((p.point_of(y) - p.exact_point(t)).norm())
    });
    let run = truncated.run(0.3).unwrap();
    assert_eq!(run.steps, 6);
    assert!(close(run.used.unwrap(), 0.3, 1e-15));
    assert!(run.error < 1e-2);
    drop(truncated);
    assert!(close(ends[0], 1.8, 1e-15), "{ends:?}");

    // Exact division: 0.3 does not divide 2, 0.25 does.
    let mut exact = FixedStep::new(
        MuntheKaas::<So3>::new(&RK4).unwrap(),
        p,
        So3::identity(),
        0.0,
        2.0,
    )
    .step_count(StepCount::Exact)
    .error(move |t, y| Ok((p.point_of(y) - p.exact_point(t)).norm()));
    assert_eq!(named(exact.run(0.3).unwrap_err()), "h");
    assert_eq!(exact.run(0.25).unwrap().steps, 8);
    // A step larger than twice the span gives no step at all.
    assert_eq!(named(runner().run(4.5).unwrap_err()), "h");
}

#[test]
fn adaptive_tolerance_studies_lower_the_error_with_more_work() {
    let tols = [1e-4, 1e-6, 1e-8, 1e-10];
    // DOPRI5 and DOP853 on ℝ³ with an exact solution.
    let p = VectorTestProblem::default();
    let error = move |t: f64, x: &nalgebra::Vector3<f64>| Ok((x - p.exact(t)).norm());
    let dopri5 = Adaptive::new(
        "DOPRI5",
        |tol: f64| {
            Dopri5::new(
                Tolerances::scalar(tol, tol)?,
                ControllerParameters::dopri5(),
            )
        },
        p,
        0.0,
        p.exact(0.0),
        2.0,
    )
    .vector(error);
    let dop853 = Adaptive::new(
        "DOP853",
        |tol: f64| {
            Dop853::new(
                Tolerances::scalar(tol, tol)?,
                ControllerParameters::dop853(),
            )
        },
        p,
        0.0,
        p.exact(0.0),
        2.0,
    )
    .vector(error);
    let study = run_study(
        "vector test problem",
        GridKind::Tolerance,
        &tols,
        &mut [dopri5, dop853],
        &TimingOptions::once(),
    )
    .unwrap();
    assert!(study.is_complete());
    for r in &study.results {
        assert_eq!(r.measurements.len(), 4);
        assert_eq!(r.observed_order, None, "no order is fitted to tolerances");
        assert_eq!(r.values(), tols);
        for w in r.measurements.windows(2) {
            assert!(
                w[1].error < w[0].error,
                "{}: {:?}",
                r.method,
                r.measurements
            );
            assert!(w[1].evaluations > w[0].evaluations);
            assert!(w[1].steps > w[0].steps);
        }
        // Tolerance proportionality: the error falls by roughly the tolerance's factor.
        assert!(
            r.local_orders.iter().all(|s| (0.5..1.5).contains(s)),
            "{:?}",
            r.local_orders
        );
    }
    let table = study.to_table().unwrap();
    assert_eq!(table.columns()[2], "tol");
    assert_eq!(Table::parse(&table.to_csv()).unwrap(), table);

    // DOP853 on SO(3) × ℝ³ (the torqued rigid body, exact solution).
    let body = TorquedRigidBody::default();
    let lifted = Adaptive::new(
        "DOP853 on SO(3)×R3",
        |tol: f64| {
            Dop853::new(
                Tolerances::scalar(tol, tol)?,
                ControllerParameters::dop853(),
            )
        },
        body,
        0.0,
        body.exact(0.0),
        2.0,
    )
    .lie(move |t, y| y.distance(&body.exact(t)));
    let study = run_study(
        "torqued rigid body",
        GridKind::Tolerance,
        &tols,
        &mut [lifted],
        &TimingOptions::once(),
    )
    .unwrap();
    let m = &study.results[0].measurements;
    assert_eq!(m.len(), 4);
    for w in m.windows(2) {
        assert!(w[1].error < w[0].error && w[1].evaluations > w[0].evaluations);
    }
    // An invalid tolerance built inside the closure is recorded as that point's failure.
    let bad = Adaptive::new(
        "DOPRI5",
        |tol: f64| {
            Dopri5::new(
                Tolerances::scalar(tol - 1e-3, 0.0)?,
                ControllerParameters::dopri5(),
            )
        },
        p,
        0.0,
        p.exact(0.0),
        2.0,
    )
    .vector(error);
    let study = run_study(
        "vector",
        GridKind::Tolerance,
        &[1e-2, 1e-4],
        &mut [bad],
        &TimingOptions::once(),
    )
    .unwrap();
    assert_eq!(study.results[0].measurements.len(), 1);
    assert_eq!(study.results[0].failures.len(), 1);
    assert_eq!(study.results[0].failures[0].value, 1e-4);
}

// ---------------------------------------------------------------- failures and checks

#[test]
fn failed_runs_are_recorded_per_point() {
    let mut runners = [
        Runner::new("fails at 0.05", |h: f64| {
            if h == 0.05 {
                Err(lieode::Error::NonFiniteState {
                    what: "state",
                    t: 1.0,
                }
                .into())
            } else {
                Ok(RunOutcome::new(h * h, 10, 5))
            }
        }),
        Runner::new("NaN error", |h: f64| {
            Ok(RunOutcome::new(if h < 0.06 { f64::NAN } else { h }, 1, 1))
        }),
        Runner::new("rounds to one run", |_h: f64| {
            Ok(RunOutcome::new(1e-3, 1, 1).with_used(0.5))
        }),
        Runner::new("exact", |_h: f64| Ok(RunOutcome::new(0.0, 1, 1))),
    ];
    let study = run_study(
        "synthetic",
        GridKind::StepSize,
        &[0.1, 0.05, 0.025],
        &mut runners,
        &TimingOptions::once(),
    )
    .unwrap();
    assert!(!study.is_complete());
    let r = &study.results;
    assert_eq!(r[0].measurements.len(), 2);
    assert_eq!(r[0].failures[0].value, 0.05);
    assert!(matches!(
        r[0].failures[0].error,
        Error::Lieode(lieode::Error::NonFiniteState { .. })
    ));
    assert!((r[0].observed_order.unwrap() - 2.0).abs() < 1e-12);
    assert_eq!(r[1].measurements.len(), 1);
    assert_eq!(named(r[1].failures[0].error.clone()), "error");
    assert_eq!(r[1].observed_order, None);
    assert_eq!(r[2].measurements.len(), 1);
    assert_eq!(r[2].measurements[0].value, 0.5);
    assert_eq!(named(r[2].failures[0].error.clone()), "grid");
    // Zero errors: measured, but no order (the logarithm is undefined).
    assert_eq!(r[3].measurements.len(), 3);
    assert_eq!(r[3].observed_order, None);
    assert!(r[3].local_orders.iter().all(|p| p.is_nan()));
    let failures = study.failures_table().unwrap();
    assert_eq!(failures.columns(), ["problem", "method", "h", "message"]);
    assert_eq!(failures.rows().len(), study.failures().count());
    assert_eq!(study.failures().count(), 1 + 2 + 2);
    assert_eq!(Table::parse(&failures.to_csv()).unwrap(), failures);
}

#[test]
fn invalid_grids_runners_and_options_name_the_parameter() {
    let runner = || Runner::new("m", |h: f64| Ok(RunOutcome::new(h, 1, 1)));
    let once = TimingOptions::once();
    for grid in [
        vec![],
        vec![0.1, f64::NAN],
        vec![0.1, -0.05],
        vec![0.0],
        vec![f64::INFINITY],
        vec![0.1, 0.05, 0.1],
    ] {
        let err = run_study("p", GridKind::StepSize, &grid, &mut [runner()], &once).unwrap_err();
        assert_eq!(named(err), "grid", "{grid:?}");
    }
    let err = run_study("p", GridKind::StepSize, &[0.1], &mut [], &once).unwrap_err();
    assert_eq!(named(err), "runners");
    let mut twins = [runner(), runner()];
    let err = run_study("p", GridKind::StepSize, &[0.1], &mut twins, &once).unwrap_err();
    assert_eq!(named(err), "runners");
    let renamed = runner().named("other");
    assert_eq!(renamed.name, "other");

    let good = TimingOptions::default();
    let cases = [
        (
            TimingOptions {
                min_repeats: 0,
                ..good
            },
            "min_repeats",
        ),
        (
            TimingOptions {
                min_repeats: 5,
                max_repeats: 4,
                ..good
            },
            "max_repeats",
        ),
        (
            TimingOptions {
                max_seconds: 0.0,
                ..good
            },
            "max_seconds",
        ),
        (
            TimingOptions {
                max_seconds: f64::NAN,
                ..good
            },
            "max_seconds",
        ),
        (
            TimingOptions {
                max_seconds: -1.0,
                ..good
            },
            "max_seconds",
        ),
        (
            TimingOptions {
                tolerance: -0.1,
                ..good
            },
            "tolerance",
        ),
        (
            TimingOptions {
                tolerance: f64::INFINITY,
                ..good
            },
            "tolerance",
        ),
    ];
    for (options, name) in cases {
        assert_eq!(named(options.validate().unwrap_err()), name);
        assert_eq!(
            named(median_seconds(&options, || Ok(())).unwrap_err()),
            name
        );
        let err = run_study("p", GridKind::StepSize, &[0.1], &mut [runner()], &options);
        assert_eq!(named(err.unwrap_err()), name);
    }
    assert!(
        TimingOptions {
            max_seconds: f64::INFINITY,
            ..good
        }
        .validate()
        .is_ok()
    );
    assert!(good.validate().is_ok() && once.validate().is_ok());
}

// ---------------------------------------------------------------- timing

/// Some work the optimiser cannot remove.
fn work() -> f64 {
    (0..20_000)
        .map(|i| std::hint::black_box(i as f64).sqrt())
        .sum()
}

#[test]
fn median_seconds_is_positive_and_respects_the_repeat_limits() {
    let mut calls = 0;
    let (seconds, value) = median_seconds(&TimingOptions::default(), || {
        calls += 1;
        Ok(work())
    })
    .unwrap();
    assert!(seconds > 0.0);
    assert!(value > 0.0);
    assert!((3..=50).contains(&calls), "{calls}");

    // Never more than max_repeats, whatever the tolerance.
    let options = TimingOptions {
        min_repeats: 2,
        max_repeats: 5,
        max_seconds: f64::INFINITY,
        tolerance: 0.0,
    };
    let mut calls = 0;
    let timed = time_runs(&options, || {
        calls += 1;
        Ok(work())
    })
    .unwrap();
    assert_eq!(calls, timed.repeats);
    assert!((2..=5).contains(&calls), "{calls}");
    assert!(timed.seconds > 0.0);

    // A spent budget stops right after the minimum.
    let options = TimingOptions {
        min_repeats: 3,
        max_repeats: 1000,
        max_seconds: 1e-12,
        tolerance: 0.0,
    };
    let mut calls = 0;
    let timed = time_runs(&options, || {
        calls += 1;
        Ok(work())
    })
    .unwrap();
    assert_eq!((calls, timed.repeats, timed.stable), (3, 3, false));

    // A generous tolerance is met at the first comparison (after two batches).
    let options = TimingOptions {
        min_repeats: 2,
        max_repeats: 1000,
        max_seconds: f64::INFINITY,
        tolerance: 1e9,
    };
    let timed = time_runs(&options, || Ok(work())).unwrap();
    assert_eq!((timed.repeats, timed.stable), (4, true));

    // Once: exactly one run.
    let mut calls = 0;
    median_seconds(&TimingOptions::once(), || {
        calls += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!(calls, 1);

    // The first error stops the timing.
    let mut calls = 0;
    let err = median_seconds(&TimingOptions::default(), || -> lieode_study::Result<()> {
        calls += 1;
        Err(Error::NonFinite { name: "x" })
    })
    .unwrap_err();
    assert_eq!(err, Error::NonFinite { name: "x" });
    assert_eq!(calls, 1);
}
