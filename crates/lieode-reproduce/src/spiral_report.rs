//! The SPIRAL paper's reproduction (del Valle et al., CPC 297 (2024) 109077): the benchmark
//! of [`super::spiral`] written out as its tables and figures, one function per figure or table.

use std::path::Path;

use super::Report;
use super::spiral::{
    COST_STEPS, ErrorAtTime, FIGURE2_METHODS, LONG_RUN_DT, LONG_RUN_EVERY, TABLE2_TARGETS,
    dt_error, error_along_time, lifted_dop853, long_cylinder, nanoseconds_per_step,
    nanoseconds_per_step_with, paper_table2, seconds_to_simulate, table2,
};
use crate::Result;
use crate::output::output_dir;
use lieode::problems::cylinder::{BenchmarkErrors, SpiralCylinder, averaged_error};
use lieode::rotation::Renormalisation;
use lieode::rotation::{ConstantBodyTorque, catalogue};
use lieode_study::csv::{Cell, Table};
use lieode_study::experiment::TimingOptions;
use lieode_study::plot::{
    BarGroup, Curve, CurveStyle, Figure, Scale, WorkAxis, bar_figure, time_figure,
    work_precision_figure,
};

/// The SPIRAL paper's benchmark: writes `dt_error.csv`, `table2.csv`, `error_time.csv`,
/// `step_cost.csv`, `speedup.csv`, `dop853_lifted.csv` and the figures under `spiral_paper/` of
/// the output root, one function per figure or table.
///
/// # Errors
/// Those of the runs, of the figures and of writing the files.
pub fn spiral_paper() -> Result<Report> {
    let dir = output_dir("spiral_paper")?;
    let mut report = Report::new("spiral_paper");
    let problem = SpiralCylinder::paper()?;
    let rows = dt_error(&problem, &catalogue::NAMES)?;
    write_errors_against_dt(&dir, &mut report, &rows)?;
    let ours = table2(&rows, &catalogue::NAMES);
    let mut summary = write_table2(&dir, &mut report, &ours)?;
    write_errors_along_time(&dir, &mut report)?;
    write_step_cost(&dir, &mut report, &problem, &mut summary)?;
    write_speedup(&dir, &mut report, &problem, &ours, &mut summary)?;
    write_lifted_dop853(&dir, &mut report, &problem, &rows)?;
    report.summary = summary;
    Ok(report)
}

/// The timing of the speed-up runs (Fig. 5) and of the lifted DOP853 runs.
fn speed_timing() -> TimingOptions {
    TimingOptions {
        min_repeats: 3,
        max_repeats: 10,
        max_seconds: 1.0,
        tolerance: 0.05,
    }
}

/// Figs. 2 and A.8: `dt_error.csv` and the errors of q and ω against Δt.
fn write_errors_against_dt(
    dir: &Path,
    report: &mut Report,
    rows: &[(String, BenchmarkErrors)],
) -> Result<()> {
    let mut table = Table::new(&["method", "dt", "steps", "t_final", "q_error", "omega_error"])?;
    for (name, p) in rows {
        table.push(vec![
            Cell::text(name.clone()),
            Cell::Real(p.dt),
            Cell::count(p.steps),
            Cell::Real(p.t_final),
            Cell::Real(p.q_error),
            Cell::Real(p.omega_error),
        ])?;
    }
    let path = dir.join("dt_error.csv");
    table.write(&path)?;
    report.add(
        &path,
        "every method on the paper's 20-point dt grid (Figs. 2, A.8): steps = trunc(1/dt), \
         final time, relative L1 errors of q and ω (Eq. 13; DCM metric for mercurydpm)",
    );
    let curves = |methods: &[&str], pick: fn(&BenchmarkErrors) -> f64| -> Vec<Curve> {
        methods
            .iter()
            .map(|name| {
                let (x, y) = rows
                    .iter()
                    .filter(|(m, p)| m == name && pick(p) > 0.0)
                    .map(|(_, p)| (p.dt, pick(p)))
                    .unzip();
                Curve::new(*name, x, y)
            })
            .collect()
    };
    let panels: [(&str, &[&str], &str); 2] = [
        ("fig2", &FIGURE2_METHODS, "the paper's catalogue"),
        (
            "figA8",
            &[
                "spiral_leapfrog",
                "spiral",
                "spiral_omelyan",
                "spiral_magnus",
                "buss",
                "rkmk4",
                "cg4a",
            ],
            "SPIRAL variants, Buss (1/12) and the generic engines",
        ),
    ];
    for (stem, methods, what) in panels {
        for (suffix, pick, label) in [
            (
                "q",
                (|p: &BenchmarkErrors| p.q_error) as fn(&BenchmarkErrors) -> f64,
                "relative L1 error of q at T",
            ),
            (
                "omega",
                |p: &BenchmarkErrors| p.omega_error,
                "relative L1 error of ω at T",
            ),
        ] {
            let figure = curves(methods, pick).into_iter().fold(
                Figure::new(format!("Cylinder, t ≤ 1 s: {label}"))
                    .with_x_label("time step Δt [s]")
                    .with_y_label(label)
                    .with_x_scale(Scale::Log)
                    .with_y_scale(Scale::Log)
                    .with_style(CurveStyle::LineAndMarkers),
                Figure::with_curve,
            );
            let files = figure.save(dir, &format!("{stem}_{suffix}"))?;
            report.add_figure(
                &files,
                &format!("{label} against Δt, {what} (PNG)"),
                "its points (series, dt, error)",
            );
        }
    }

    Ok(())
}

/// Table 2: `table2.csv`, our step for each target beside the paper's; returns the start of the
/// printed summary.
fn write_table2(
    dir: &Path,
    report: &mut Report,
    ours: &[(String, f64, Option<f64>)],
) -> Result<String> {
    let mut table = Table::new(&["method", "target", "dt", "paper_dt", "relative_difference"])?;
    let mut summary = String::from(
        "SPIRAL paper, Table 2 (dt reaching ½(err_q + err_ω) = target): ours | paper\n",
    );
    summary.push_str(&format!("  {:<16}", "method"));
    for t in TABLE2_TARGETS {
        summary.push_str(&format!(" {:>21}", format!("{t:e}")));
    }
    summary.push('\n');
    for name in catalogue::NAMES {
        let mut line = format!("  {name:<16}");
        for target in TABLE2_TARGETS {
            let dt = ours
                .iter()
                .find(|(m, t, _)| m == name && *t == target)
                .and_then(|(_, _, dt)| *dt);
            let paper = paper_table2(name, target);
            let diff = match (dt, paper) {
                (Some(a), Some(b)) => (a - b) / b,
                _ => f64::NAN,
            };
            table.push(vec![
                Cell::text(name),
                Cell::Real(target),
                Cell::Real(dt.unwrap_or(f64::NAN)),
                Cell::Real(paper.unwrap_or(f64::NAN)),
                Cell::Real(diff),
            ])?;
            let ours_text = dt.map_or("—".to_string(), |v| format!("{v:.3e}"));
            let paper_text = paper.map_or("".to_string(), |v| format!("{v:.3e}"));
            line.push_str(&format!(" {ours_text:>10}|{paper_text:<10}"));
        }
        summary.push_str(&line);
        summary.push('\n');
    }
    let path = dir.join("table2.csv");
    table.write(&path)?;
    report.add(
        &path,
        "Table 2: the dt reaching each target of ½(err_q + err_ω) (interpolated on the log grid), \
         beside the paper's value and the relative difference",
    );

    Ok(summary)
}

/// Figs. 3 and A.9: `error_time.csv` and the errors along 20 s at Δt = 1e-5.
fn write_errors_along_time(dir: &Path, report: &mut Report) -> Result<()> {
    // Fig. 3 / A.9: errors along 20 s with dt = 1e-5.
    let long = long_cylinder()?;
    let mut table = Table::new(&["method", "t", "q_error", "omega_error"])?;
    let mut q_curves = Vec::new();
    let mut w_curves = Vec::new();
    for name in FIGURE2_METHODS.iter().chain(&["spiral", "spiral_magnus"]) {
        let samples = error_along_time(&long, name, LONG_RUN_DT, LONG_RUN_EVERY)?;
        for s in &samples {
            table.push(vec![
                Cell::text(*name),
                Cell::Real(s.t),
                Cell::Real(s.q_error),
                Cell::Real(s.omega_error),
            ])?;
        }
        let positive = |f: fn(&ErrorAtTime) -> f64| -> (Vec<f64>, Vec<f64>) {
            samples
                .iter()
                .filter(|s| f(s) > 0.0)
                .map(|s| (s.t, f(s)))
                .unzip()
        };
        let (x, y) = positive(|s| s.q_error);
        q_curves.push(Curve::new(*name, x, y));
        let (x, y) = positive(|s| s.omega_error);
        w_curves.push(Curve::new(*name, x, y));
    }
    let path = dir.join("error_time.csv");
    table.write(&path)?;
    report.add(
        &path,
        "errors along 20 s with dt = 1e-5 (Figs. 3, A.9), every 0.05 s",
    );
    for (stem, curves, label) in [
        ("fig3_q", &q_curves, "relative L1 error of q"),
        ("fig3_omega", &w_curves, "relative L1 error of ω"),
    ] {
        let figure = time_figure(
            &format!("Cylinder, Δt = 1e-5 s: {label} along time"),
            label,
            curves,
            Scale::Log,
        )?;
        let files = figure.save(dir, stem)?;
        report.add_figure(
            &files,
            &format!("{label} against time, Δt = 1e-5 (PNG)"),
            "its points (series, t, error)",
        );
    }

    Ok(())
}

/// Fig. 4: `step_cost.csv` and the cost per step relative to Direct Euler.
fn write_step_cost(
    dir: &Path,
    report: &mut Report,
    problem: &SpiralCylinder,
    summary: &mut String,
) -> Result<()> {
    // Fig. 4: cost per step relative to Direct Euler with normalisation, each quaternion method
    // with and without normalisation (its default first).
    let timing = TimingOptions {
        min_repeats: 5,
        max_repeats: 50,
        max_seconds: 0.5,
        tolerance: 0.03,
    };
    let mut costs: Vec<(String, bool, f64)> = Vec::new();
    for name in catalogue::NAMES {
        let default =
            catalogue::stepper::<ConstantBodyTorque>(name, *problem.body())?.renormalisation();
        let normalises = default != Renormalisation::Never;
        let ns = nanoseconds_per_step(problem, name, LONG_RUN_DT, COST_STEPS, &timing)?;
        costs.push((name.to_string(), normalises, ns));
        let other = if normalises {
            Renormalisation::Never
        } else {
            Renormalisation::EveryStep
        };
        if catalogue::stepper_renormalised::<ConstantBodyTorque>(name, *problem.body(), other)
            .is_ok()
        {
            let ns = nanoseconds_per_step_with(
                problem,
                name,
                Some(other),
                LONG_RUN_DT,
                COST_STEPS,
                &timing,
            )?;
            costs.push((name.to_string(), !normalises, ns));
        }
    }
    let euler_cost = costs
        .iter()
        .find(|(m, normalised, _)| m == "direct_euler" && *normalised)
        .map_or(f64::NAN, |(_, _, ns)| *ns);
    let mut table = Table::new(&[
        "method",
        "normalized",
        "ns_per_step",
        "relative_to_direct_euler",
    ])?;
    summary.push_str(
        "\nCost per step (ns, relative to Direct Euler with normalisation; default policy first):\n",
    );
    for (name, normalised, ns) in &costs {
        table.push(vec![
            Cell::text(name.clone()),
            Cell::text(if *normalised { "yes" } else { "no" }),
            Cell::Real(*ns),
            Cell::Real(ns / euler_cost),
        ])?;
        let flag = if *normalised {
            "normalised"
        } else {
            "not normalised"
        };
        summary.push_str(&format!(
            "  {name:<16} {flag:<15} {ns:7.1} {:6.2}\n",
            ns / euler_cost
        ));
    }
    let path = dir.join("step_cost.csv");
    table.write(&path)?;
    report.add(
        &path,
        "median wall time per step (ns; runs of 1e5 steps of 1e-5 s) with and without \
         normalisation, relative to Direct Euler with normalisation (Fig. 4)",
    );
    let switchable: Vec<&str> = catalogue::NAMES
        .iter()
        .copied()
        .filter(|m| costs.iter().filter(|(n, _, _)| n == m).count() == 2)
        .collect();
    let group = |normalised: bool| -> Vec<f64> {
        switchable
            .iter()
            .map(|m| {
                costs
                    .iter()
                    .find(|(n, f, _)| n == m && *f == normalised)
                    .map_or(f64::NAN, |(_, _, ns)| ns / euler_cost)
            })
            .collect()
    };
    let categories: Vec<String> = switchable.iter().map(|m| m.to_string()).collect();
    let figure = bar_figure(
        "Cost per time step relative to Direct Euler with normalisation",
        "time per step / Direct Euler's",
        &categories,
        &[
            BarGroup::new("with normalisation", group(true)),
            BarGroup::new("without normalisation", group(false)),
        ],
        Scale::Linear,
    )?
    .with_reference_line(1.0, "Direct Euler");
    let files = figure.save(dir, "fig4_step_cost")?;
    report.add_figure(
        &files,
        "cost per step relative to Direct Euler, with and without normalisation (PNG)",
        "its bars (series, method, relative cost)",
    );

    Ok(())
}

/// Fig. 5: `speedup.csv` and the speed-up over Direct Euler at the steps of Table 2.
fn write_speedup(
    dir: &Path,
    report: &mut Report,
    problem: &SpiralCylinder,
    ours: &[(String, f64, Option<f64>)],
    summary: &mut String,
) -> Result<()> {
    // Fig. 5: CPU time to simulate 1 s at the step of Table 2, relative to Direct Euler.
    let speed_timing = speed_timing();
    let mut table = Table::new(&["method", "target", "cpu_seconds", "speedup_vs_direct_euler"])?;
    let mut seconds: Vec<(String, f64, f64)> = Vec::new();
    for (name, target, dt) in ours {
        if let Some(dt) = dt {
            seconds.push((
                name.clone(),
                *target,
                seconds_to_simulate(problem, name, *dt, &speed_timing)?,
            ));
        }
    }
    let euler_seconds = |target: f64| {
        seconds
            .iter()
            .find(|(m, t, _)| m == "direct_euler" && *t == target)
            .map_or(f64::NAN, |(_, _, s)| *s)
    };
    for (name, target, s) in &seconds {
        table.push(vec![
            Cell::text(name.clone()),
            Cell::Real(*target),
            Cell::Real(*s),
            Cell::Real(euler_seconds(*target) / s),
        ])?;
    }
    let path = dir.join("speedup.csv");
    table.write(&path)?;
    report.add(
        &path,
        "CPU time to simulate 1 s at each method's Table-2 step and the speed-up over Direct Euler \
         (Fig. 5)",
    );
    let with_all: Vec<&str> = catalogue::NAMES
        .iter()
        .copied()
        .filter(|m| seconds.iter().filter(|(n, _, _)| n == m).count() == TABLE2_TARGETS.len())
        .collect();
    let groups: Vec<BarGroup> = TABLE2_TARGETS
        .iter()
        .map(|target| {
            let values = with_all
                .iter()
                .map(|m| {
                    seconds
                        .iter()
                        .find(|(n, t, _)| n == m && t == target)
                        .map_or(f64::NAN, |(_, _, s)| euler_seconds(*target) / s)
                })
                .collect();
            BarGroup::new(format!("target {target:e}"), values)
        })
        .collect();
    let categories: Vec<String> = with_all.iter().map(|m| m.to_string()).collect();
    let figure = bar_figure(
        "Speed-up over Direct Euler at equal error after 1 s",
        "CPU time of Direct Euler / CPU time",
        &categories,
        &groups,
        Scale::Log,
    )?
    .with_reference_line(1.0, "Direct Euler");
    let files = figure.save(dir, "fig5_speedup")?;
    report.add_figure(
        &files,
        "speed-up over Direct Euler for the four targets (PNG)",
        "its bars (series = target, method, speed-up)",
    );
    summary.push_str("\nSpeed-up over Direct Euler at target 1e-3 / 1e-5:\n");
    for name in &with_all {
        let at = |target: f64| {
            seconds
                .iter()
                .find(|(n, t, _)| n == name && *t == target)
                .map_or(f64::NAN, |(_, _, s)| euler_seconds(target) / s)
        };
        summary.push_str(&format!("  {name:<16} {:9.1} {:9.1}\n", at(1e-3), at(1e-5)));
    }

    Ok(())
}

/// DOP853 lifted to `SU(2) × ℝ³` on the cylinder: `dop853_lifted.csv` and the work–precision
/// figure against the catalogue.
fn write_lifted_dop853(
    dir: &Path,
    report: &mut Report,
    problem: &SpiralCylinder,
    rows: &[(String, BenchmarkErrors)],
) -> Result<()> {
    // The generic adaptive engine on the same problem: DOP853 lifted to SU(2) × ℝ³, against
    // the catalogue in error per torque evaluation.
    let lifted = lifted_dop853(problem, &speed_timing())?;
    let mut table = Table::new(&[
        "tol",
        "q_error",
        "omega_error",
        "averaged_error",
        "evaluations",
        "cpu_seconds",
    ])?;
    for r in &lifted {
        table.push(vec![
            Cell::Real(r.tol),
            Cell::Real(r.q_error),
            Cell::Real(r.omega_error),
            Cell::Real(averaged_error(r.q_error, r.omega_error)),
            Cell::count(r.evaluations),
            Cell::Real(r.seconds),
        ])?;
    }
    let path = dir.join("dop853_lifted.csv");
    table.write(&path)?;
    report.add(
        &path,
        "DOP853 lifted to SU(2) × ℝ³ on the cylinder, tol 1e-3 … 1e-13: errors at t = 1, \
         evaluations, CPU time",
    );
    let mut work_curves: Vec<Curve> = [
        "rk4",
        "omelyan",
        "spiral_leapfrog",
        "spiral_magnus",
        "rkmk4",
        "velocity_verlet",
        "direct_euler",
    ]
    .iter()
    .map(|name| {
        let evaluations_per_step = catalogue::stepper::<ConstantBodyTorque>(name, *problem.body())
            .map_or(1, |s| s.torque_evaluations_per_step());
        let (x, y) = rows
            .iter()
            .filter(|(m, p)| m == name && p.averaged() > 0.0 && p.dt >= 1e-6)
            .map(|(_, p)| ((p.steps * evaluations_per_step) as f64, p.averaged()))
            .unzip();
        Curve::new(*name, x, y)
    })
    .collect();
    let (x, y) = lifted
        .iter()
        .map(|r| {
            (
                r.evaluations as f64,
                averaged_error(r.q_error, r.omega_error),
            )
        })
        .unzip();
    work_curves.push(Curve::new("DOP853 lifted (adaptive)", x, y));
    let figure = work_precision_figure(
        "Cylinder, t ≤ 1 s: ½(err_q + err_ω) against torque evaluations",
        WorkAxis::Evaluations,
        &work_curves,
    )?;
    let files = figure.save(dir, "work_precision")?;
    report.add_figure(&files, "averaged error against torque evaluations: fixed-step methods of the catalogue (dt ≥ 1e-6) \
         and the Lie-lifted DOP853 (PNG)", "its points (series, evaluations, error)");
    Ok(())
}
