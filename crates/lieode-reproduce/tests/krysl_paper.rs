//! Cheap parts of Krysl's reproduction (`lieode_reproduce::krysl`): a short convergence study
//! of the free body written as `convergence.csv` / `final_states.csv` rows, the orders it
//! measures, and the helpers of the long run and of the work–precision comparison.

use lieode::momentum::{KryslMethod, Solver};
use lieode::problems::krysl::KryslProblem;
use lieode_reproduce::krysl::{
    CONVERGENCE_METHODS, WorkPoint, convergence_study, convergence_table, cpu_for_error,
    final_states_table, halvings, hamiltonian_run, momentum_method, step_count,
};
use lieode_study::csv::Table;

#[test]
fn a_short_free_body_study_writes_the_paper_names_and_measures_order_two() {
    let problem = KryslProblem::free_body().unwrap();
    let methods = ["akw", "imid", "imidm"];
    let steps = halvings(0.1, 3);
    let study = convergence_study(&problem, &methods, &steps).unwrap();

    let studies = std::slice::from_ref(&study);
    let text = convergence_table(studies).unwrap().to_csv();
    let table = Table::parse(&text).unwrap();
    let columns: Vec<&str> = table.columns().iter().map(String::as_str).collect();
    assert_eq!(columns, ["problem", "method", "dt", "pi_error", "r_error"]);
    assert_eq!(table.rows().len(), methods.len() * steps.len());
    for (line, (method, dt)) in text.lines().skip(1).zip(
        methods
            .iter()
            .flat_map(|m| steps.iter().map(move |dt| (m, dt))),
    ) {
        assert!(
            line.starts_with(&format!("free_body,{method},{dt:e},")),
            "{line}"
        );
    }

    for method in methods {
        let (p_pi, p_r) = study.orders(method).unwrap();
        assert!((p_pi - 2.0).abs() < 0.1, "{method}: p_Π = {p_pi}");
        assert!((p_r - 2.0).abs() < 0.1, "{method}: p_R = {p_r}");
    }
    // Krysl §5.1: AKW matches IMID in the body momentum but not in the attitude.
    let last = |m: &str| study.runs_of(m).last().copied().unwrap();
    let (akw, imid) = (last("akw"), last("imid"));
    assert!((akw.pi_error / imid.pi_error - 1.0).abs() < 1e-6);
    assert!(akw.r_error > 10.0 * imid.r_error);

    let states = final_states_table(&[study]).unwrap();
    assert_eq!(states.columns().len(), 16);
    let columns: Vec<&str> = states.columns().iter().map(String::as_str).collect();
    assert_eq!(columns[..4], ["problem", "method", "dt", "t"]);
    assert_eq!(columns[4..7], ["R11", "R12", "R13"]);
    assert_eq!(columns[13..], ["Pi1", "Pi2", "Pi3"]);
    assert_eq!(states.rows().len(), methods.len() * steps.len() + 1);
    let csv = states.to_csv();
    let reference = csv.lines().last().unwrap();
    assert!(
        reference.starts_with("free_body,reference,NaN,1e2,"),
        "{reference}"
    );
}

#[test]
fn every_convergence_name_builds_an_integrator_and_unknown_names_fail() {
    let problem = KryslProblem::slow_top().unwrap();
    for name in CONVERGENCE_METHODS {
        assert!(
            momentum_method(name, &problem, Solver::Newton).is_ok(),
            "{name}"
        );
    }
    for method in KryslMethod::ALL {
        assert!(CONVERGENCE_METHODS.contains(&method.name()));
    }
    assert!(momentum_method("nonsense", &problem, Solver::Newton).is_err());
    assert_eq!(step_count(20.0, 0.0025).unwrap(), 8000);
    assert!(step_count(20.0, 0.003).is_err());
}

#[test]
fn the_long_run_samples_the_relative_hamiltonian_error() {
    let problem = KryslProblem::coulomb().unwrap();
    let run = hamiltonian_run(&problem, KryslMethod::ImidM, 0.05, 200, 10).unwrap();
    assert!(run.failure.is_none());
    assert_eq!(run.samples.len(), 21);
    assert_eq!(run.samples[0], (0.0, 0.0));
    assert!((run.samples[20].0 - 10.0).abs() < 1e-12);
    let largest = run.samples.iter().map(|s| s.1.abs()).fold(0.0, f64::max);
    assert!(run.max_abs >= largest && run.max_abs < 0.5);
    assert!(hamiltonian_run(&problem, KryslMethod::Imid, 0.05, 10, 0).is_err());
}

#[test]
fn the_cost_at_an_error_is_interpolated_log_log() {
    let point = |parameter: f64, error: f64, cpu_seconds: f64| WorkPoint {
        method: "m",
        parameter,
        error,
        cpu_seconds,
        evaluations: 0,
    };
    // error = 1e-2 · (cpu / 1e-3)^-2: the target 1e-4 lies at cpu = 1e-2.
    let points = [
        point(0.1, 1e-2, 1e-3),
        point(0.05, 1e-3, 1e-3 * 10f64.sqrt()),
        point(0.025, 1e-5, 1e-3 * 10f64.powf(1.5)),
    ];
    let cpu = cpu_for_error(&points, "m", 1e-4).unwrap();
    assert!((cpu / 1e-2 - 1.0).abs() < 1e-12);
    assert!(cpu_for_error(&points, "m", 1e-7).is_none());
    assert!(cpu_for_error(&points, "other", 1e-4).is_none());
}
