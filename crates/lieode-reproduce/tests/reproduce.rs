//! The reproductions behind `examples/reproduce.rs`: the convergence demo measures the orders
//! its tableaux claim against the exact solution, the work–precision demo's adaptive runs
//! gain accuracy with tolerance, and the index lists every file written.

use lieode_reproduce::convergence::convergence_experiment;
use lieode_reproduce::work_precision::{adaptive_experiment, fixed_step_experiment};
use lieode_reproduce::{Report, index_markdown};
use lieode_study::experiment::TimingOptions;

#[test]
fn convergence_demo_measures_the_orders_of_its_tableaux() {
    let experiment = convergence_experiment().unwrap();
    assert!(experiment.is_complete());
    // Least-squares slopes over h = 2/16 … 2/512; DOPRI5's error-optimised weights leave its
    // 6th-order terms dominant over most of the grid (asymptotically 5: docs/orders.md).
    let expected = [
        ("RKMK Explicit Euler", 0.9, 1.1),
        ("RKMK Heun", 1.9, 2.1),
        ("RKMK Kutta3", 2.9, 3.1),
        ("RKMK RK4", 3.9, 4.2),
        ("RKMK DOPRI5", 5.0, 6.0),
    ];
    for (name, low, high) in expected {
        let result = experiment.method(name).unwrap();
        let order = result.observed_order.unwrap();
        assert!((low..=high).contains(&order), "{name}: {order}");
        assert_eq!(result.measurements.len(), 11);
    }
}

#[test]
fn work_precision_runs_gain_accuracy_with_work() {
    let fixed = fixed_step_experiment(&TimingOptions::once()).unwrap();
    let adaptive = adaptive_experiment(&TimingOptions::once()).unwrap();
    for experiment in [&fixed, &adaptive] {
        assert!(experiment.is_complete());
        for result in &experiment.results {
            let m = &result.measurements;
            let (first, last) = (m.first().unwrap(), m.last().unwrap());
            assert!(
                last.error < 1e-6 * first.error,
                "{}: {first:?} → {last:?}",
                result.method
            );
            assert!(last.evaluations > first.evaluations, "{}", result.method);
        }
    }
    // Same problem, same error metric: DOP853 reaches 1e-8 with fewer evaluations than the
    // fixed-step RKMK4 (a property of the methods, measured).
    let fewest = |e: &lieode_study::experiment::Experiment, name: &str| {
        e.method(name)
            .unwrap()
            .measurements
            .iter()
            .filter(|m| m.error <= 1e-8)
            .map(|m| m.evaluations)
            .min()
            .unwrap()
    };
    assert!(fewest(&adaptive, "DOP853 (adaptive)") < fewest(&fixed, "RKMK4 (fixed)"));
}

#[test]
fn the_index_lists_every_file_with_its_description() {
    let mut report = Report::new("demo");
    report.add(std::path::Path::new("demo/a.csv"), "the first table");
    report.add(std::path::Path::new("demo/b.png"), "a figure");
    let text = index_markdown(&[report]);
    assert!(text.starts_with("# lieode outputs"));
    assert!(text.contains("## demo"));
    assert!(text.contains("- `demo/a.csv`: the first table"));
    assert!(text.contains("- `demo/b.png`: a figure"));
}
