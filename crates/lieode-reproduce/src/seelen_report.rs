//! Seelen, Padding and Kuipers (2016), §3, written out: the figures, Table 1 and the
//! convergence study of [`super::seelen`] under `seelen_paper/`, one function per figure or
//! table.

use std::path::Path;

use nalgebra::Vector3;

use super::Report;
use super::seelen::{
    CYLINDERS_STEP, ConvergencePoint, PAPER_SCHEMES, SchemeRun, cylinder_convergence,
    cylinder_sample_times, cylinder1_relative_error, cylinders_runs, sphere_runs, table1, top_runs,
};
use crate::Result;
use crate::output::output_dir;
use crate::seelen_problems::{
    GrowingTorqueCylinder, SymmetricTop, TorquedSphere, TouchingCylinders,
};
use lieode_study::csv::{Cell, Table};
use lieode_study::plot::{Curve, Scale, convergence_figure, time_figure};

/// How much of the paper the reproduction runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeelenSettings {
    /// The symmetric top's duration (the paper: 10 000 s).
    pub top_duration: f64,
    /// The smallest step of the convergence study (the paper: 10⁻⁸ s).
    pub finest_step: f64,
}

impl SeelenSettings {
    /// The paper's: 10 000 s of the top (10⁶ steps) and steps down to 10⁻⁸ s.
    pub fn full() -> Self {
        Self {
            top_duration: 10_000.0,
            finest_step: 1e-8,
        }
    }

    /// The default of `reproduce`: the top's full 10⁶ steps, steps down to 10⁻⁷ s (10⁻⁸ costs
    /// 10⁷ steps per scheme; `examples/seelen_paper.rs --full` runs it).
    pub fn quick() -> Self {
        Self {
            finest_step: 1e-7,
            ..Self::full()
        }
    }
}

/// The reproduction with [`SeelenSettings::quick`].
///
/// # Errors
/// As [`seelen_paper_with`].
pub fn seelen_paper() -> Result<Report> {
    seelen_paper_with(SeelenSettings::quick())
}

/// Writes the figures, `top.csv`, `table1.csv`, `convergence.csv`, `orders.csv` and
/// `cylinders.csv` under `seelen_paper/`.
///
/// # Errors
/// Those of the runs, of the figures and of writing the files.
pub fn seelen_paper_with(settings: SeelenSettings) -> Result<Report> {
    let dir = output_dir("seelen_paper")?;
    let mut report = Report::new("seelen_paper");
    let mut summary = write_top(&dir, &mut report, settings.top_duration)?;
    summary.push_str(&write_sphere(&dir, &mut report)?);
    summary.push_str(&write_convergence(&dir, &mut report, settings.finest_step)?);
    summary.push_str(&write_cylinders(&dir, &mut report)?);
    report.summary = summary;
    Ok(report)
}

/// A curve of `f(state)` against time over a run's samples.
fn along(run: &SchemeRun, label: &str, f: impl Fn(&lieode::system::SystemState) -> f64) -> Curve {
    let (x, y) = run.states.iter().map(|s| (s.t, f(s))).unzip();
    Curve::new(label, x, y)
}

/// Fig. 1: the top's ω components (improved PCDM) and every paper scheme's relative error of
/// the rotational kinetic energy, and `|q| − 1` after the run.
fn write_top(dir: &Path, report: &mut Report, duration: f64) -> Result<String> {
    let runs = top_runs(duration, 1000)?;
    let e0 = SymmetricTop::energy(&Vector3::from(SymmetricTop::OMEGA0));
    if let Some(improved) = runs.first() {
        let curves: Vec<Curve> = ["ω_x", "ω_y", "ω_z"]
            .iter()
            .enumerate()
            .map(|(k, label)| along(improved, label, |s| s.omegas[0][k]))
            .collect();
        let files = time_figure(
            "symmetric top: angular velocity (improved PCDM)",
            "ω (body) [1/s]",
            &curves,
            Scale::Linear,
        )?
        .save(dir, "fig1a_top_omega")?;
        report.add_figure(
            &files,
            "Fig. 1a: the top's body angular velocity",
            "its points",
        );
    }
    let curves: Vec<Curve> = runs
        .iter()
        .map(|r| {
            let mut c = along(r, &r.method, |s| {
                (SymmetricTop::energy(&s.omegas[0]) - e0).abs() / e0
            });
            // The first sample is the start, where the error is exactly zero.
            c.x.remove(0);
            c.y.remove(0);
            c
        })
        .collect();
    let files = time_figure(
        "symmetric top: relative error of the rotational kinetic energy",
        "|E − E₀| / E₀",
        &curves,
        Scale::Log,
    )?
    .save(dir, "fig1b_top_energy")?;
    report.add_figure(
        &files,
        "Fig. 1b: relative kinetic-energy error against time",
        "its points",
    );
    let mut summary =
        format!("§3.1 top, {duration} s at δt = 1e-2 (|E−E₀|/E₀ at the end, |q|−1):\n");
    let mut table = Table::new(&["method", "relative_energy_error", "norm_minus_one"])?;
    for r in &runs {
        if let Some(last) = r.states.last() {
            let energy_error = (SymmetricTop::energy(&last.omegas[0]) - e0).abs() / e0;
            let norm_minus_one = last.rotors[0].norm() - 1.0;
            table.push(vec![
                Cell::text(r.method.clone()),
                Cell::Real(energy_error),
                Cell::Real(norm_minus_one),
            ])?;
            summary.push_str(&format!(
                "  {:>16} {:.3e} {:+.1e}\n",
                r.method, energy_error, norm_minus_one
            ));
        }
    }
    let path = dir.join("top.csv");
    table.write(&path)?;
    report.add(
        &path,
        "§3.1: the relative kinetic-energy error and |q| − 1 after the run, per paper scheme",
    );
    Ok(summary)
}

/// Fig. 2 and Table 1: the sphere's orientation, the relative error of ω_y, the error of the
/// cosine of the axis angle, and the arrow at t = 1 s of every scheme.
fn write_sphere(dir: &Path, report: &mut Report) -> Result<String> {
    let runs = sphere_runs(100)?;
    let paper: Vec<&SchemeRun> = runs
        .iter()
        .filter(|r| PAPER_SCHEMES.contains(&r.method.as_str()))
        .collect();
    if let Some(improved) = paper.first() {
        let times: Vec<f64> = improved.states.iter().map(|s| s.t).collect();
        let exact =
            |k: usize| -> Vec<f64> { times.iter().map(|&t| TorquedSphere::arrow(t)[k]).collect() };
        let curves = vec![
            Curve::new("x exact", times.clone(), exact(0)),
            Curve::new("z exact", times.clone(), exact(2)),
            along(improved, "x improved PCDM", |s| {
                TorquedSphere::arrow_of(&s.rotors[0]).x
            }),
            along(improved, "z improved PCDM", |s| {
                TorquedSphere::arrow_of(&s.rotors[0]).z
            }),
        ];
        let files = time_figure(
            "sphere under τ_y = A eᵗ: the arrow",
            "arrow component",
            &curves,
            Scale::Linear,
        )?
        .save(dir, "fig2a_sphere_orientation")?;
        report.add_figure(
            &files,
            "Fig. 2a: the arrow's x and z against time",
            "its points",
        );
    }
    let skip_start = |mut c: Curve| {
        c.x.remove(0);
        c.y.remove(0);
        c
    };
    let omega_curves: Vec<Curve> = paper
        .iter()
        .map(|r| {
            skip_start(along(r, &r.method, |s| {
                let exact = TorquedSphere::omega_y(s.t);
                ((s.omegas[0].y - exact) / exact).abs().max(1e-300)
            }))
        })
        .collect();
    let files = time_figure(
        "sphere: relative error of ω_y",
        "|ω_y − exact| / exact",
        &omega_curves,
        Scale::Log,
    )?
    .save(dir, "fig2b_sphere_omega_error")?;
    report.add_figure(
        &files,
        "Fig. 2b: relative error of ω_y against time",
        "its points",
    );
    let cosine_curves: Vec<Curve> = paper
        .iter()
        .map(|r| {
            skip_start(along(r, &r.method, |s| {
                let computed = TorquedSphere::arrow_of(&s.rotors[0]).x;
                (computed - TorquedSphere::arrow(s.t).x).abs().max(1e-300)
            }))
        })
        .collect();
    let files = time_figure(
        "sphere: error of the cosine of the axis angle",
        "|cos α − cos α_exact|",
        &cosine_curves,
        Scale::Log,
    )?
    .save(dir, "fig2c_sphere_cosine_error")?;
    report.add_figure(
        &files,
        "Fig. 2c: absolute error of the cosine of the axis angle",
        "its points",
    );
    let rows = table1(&runs);
    let mut table = Table::new(&["method", "x", "y", "z", "error_vs_exact"])?;
    let mut summary = String::from("§3.2 Table 1, arrow at t = 1 s (error vs the closed form):\n");
    for r in &rows {
        table.push(vec![
            Cell::text(r.method.clone()),
            Cell::Real(r.arrow.x),
            Cell::Real(r.arrow.y),
            Cell::Real(r.arrow.z),
            Cell::Real(r.error_vs_exact),
        ])?;
        summary.push_str(&format!(
            "  {:>22} ({:.6}, {:.6}, {:.6}) {:.2e}\n",
            r.method, r.arrow.x, r.arrow.y, r.arrow.z, r.error_vs_exact
        ));
    }
    let path = dir.join("table1.csv");
    table.write(&path)?;
    report.add(
        &path,
        "Table 1: the arrow at t = 1 s for every scheme, the exact value and the paper's printed rows",
    );
    Ok(summary)
}

/// Fig. 3: the cylinder's reference angular velocity and the convergence of α for every scheme.
fn write_convergence(dir: &Path, report: &mut Report, finest: f64) -> Result<String> {
    let times = cylinder_sample_times();
    let reference = GrowingTorqueCylinder::reference(&times, 1e-13)?;
    let curves: Vec<Curve> = ["ω_x", "ω_y", "ω_z"]
        .iter()
        .enumerate()
        .map(|(k, label)| {
            Curve::new(
                *label,
                times.clone(),
                reference.iter().map(|(_, w)| w[k]).collect(),
            )
        })
        .collect();
    let files = time_figure(
        "cylinder under the 3D torque: angular velocity (DOP853, 1e-13)",
        "ω (body) [1/s]",
        &curves,
        Scale::Linear,
    )?
    .save(dir, "fig3a_cylinder_omega")?;
    report.add_figure(
        &files,
        "Fig. 3a: the cylinder's angular velocity",
        "its points",
    );
    let decades = (-finest.log10()).round() as i32;
    let steps: Vec<f64> = (3..=decades).map(|k| 10f64.powi(-k)).collect();
    let points = cylinder_convergence(&steps)?;
    let mut table = Table::new(&["method", "dt", "orientation_error"])?;
    for p in &points {
        table.push(vec![
            Cell::text(p.method.clone()),
            Cell::Real(p.dt),
            Cell::Real(p.orientation_error),
        ])?;
    }
    let path = dir.join("convergence.csv");
    table.write(&path)?;
    report.add(
        &path,
        "§3.3: the time-averaged orientation error α against Δt for every scheme",
    );
    let curves = convergence_curves(&points);
    let files = convergence_figure(
        "cylinder under the 3D torque: orientation error α",
        &curves,
        &[1, 2],
    )?
    .with_x_label("Δt [s]")
    .with_y_label("α, the time-averaged axis-angle error (Eq. 7) [rad]")
    .save(dir, "fig3b_convergence")?;
    report.add_figure(
        &files,
        "Fig. 3b: α against Δt with slope 1 and 2 guides",
        "its points",
    );
    let mut summary = String::from("§3.3 orders of α (finest decade of Δt):\n");
    let mut orders = Table::new(&["method", "dt_coarse", "dt_fine", "order"])?;
    for c in &curves {
        let n = c.x.len();
        if n >= 2 {
            let order = (c.y[n - 2] / c.y[n - 1]).log10() / (c.x[n - 2] / c.x[n - 1]).log10();
            orders.push(vec![
                Cell::text(c.label.clone()),
                Cell::Real(c.x[n - 2]),
                Cell::Real(c.x[n - 1]),
                Cell::Real(order),
            ])?;
            summary.push_str(&format!("  {:>16} {:.2}\n", c.label, order));
        }
    }
    let path = dir.join("orders.csv");
    orders.write(&path)?;
    report.add(
        &path,
        "§3.3: the order of α per scheme, the slope over the finest decade of Δt",
    );
    Ok(summary)
}

/// The convergence curves: one per scheme, the points with a finite error.
pub(crate) fn convergence_curves(points: &[ConvergencePoint]) -> Vec<Curve> {
    let mut names: Vec<&str> = Vec::new();
    for p in points {
        if !names.contains(&p.method.as_str()) {
            names.push(&p.method);
        }
    }
    names
        .iter()
        .map(|name| {
            let (x, y) = points
                .iter()
                .filter(|p| {
                    p.method == *name
                        && p.orientation_error.is_finite()
                        && p.orientation_error > 0.0
                })
                .map(|p| (p.dt, p.orientation_error))
                .unzip();
            Curve::new(*name, x, y)
        })
        .filter(|c| c.x.len() >= 2)
        .collect()
}

/// Fig. 5: the cylinders' angular velocities (improved PCDM) and the relative error of cylinder
/// 1's for every scheme.
fn write_cylinders(dir: &Path, report: &mut Report) -> Result<String> {
    let runs = cylinders_runs(10)?;
    if let Some(improved) = runs.first() {
        let times: Vec<f64> = improved.states.iter().map(|s| s.t).collect();
        let exact = |i: usize| -> Result<Vec<f64>> {
            times
                .iter()
                .map(|&t| Ok(TouchingCylinders::omegas(t)?[i]))
                .collect()
        };
        let curves = vec![
            along(improved, "cylinder 1 (improved PCDM)", |s| s.omegas[0].z),
            along(improved, "cylinder 2 (improved PCDM)", |s| s.omegas[1].z),
            Curve::new("cylinder 1 exact", times.clone(), exact(0)?),
            Curve::new("cylinder 2 exact", times.clone(), exact(1)?),
        ];
        let files = time_figure(
            "two touching cylinders: angular velocity",
            "ω_z [1/s]",
            &curves,
            Scale::Linear,
        )?
        .save(dir, "fig5a_cylinders_omega")?;
        report.add_figure(
            &files,
            "Fig. 5a: both cylinders' angular velocity",
            "its points",
        );
    }
    let mut curves = Vec::new();
    let mut table = Table::new(&["method", "max_relative_error"])?;
    let mut summary =
        format!("§3.4 cylinders, δt = {CYLINDERS_STEP}: max relative error of cylinder 1's ω:\n");
    for r in &runs {
        let mut errors = Vec::with_capacity(r.states.len());
        for s in &r.states[1..] {
            errors.push((s.t, cylinder1_relative_error(s)?.max(1e-300)));
        }
        let max = errors.iter().map(|e| e.1).fold(0.0, f64::max);
        table.push(vec![Cell::text(r.method.clone()), Cell::Real(max)])?;
        summary.push_str(&format!("  {:>16} {:.3e}\n", r.method, max));
        if PAPER_SCHEMES.contains(&r.method.as_str()) || r.method == "rk4" {
            let (x, y) = errors.into_iter().unzip();
            curves.push(Curve::new(r.method.clone(), x, y));
        }
    }
    let path = dir.join("cylinders.csv");
    table.write(&path)?;
    report.add(
        &path,
        "§3.4: the largest relative error of cylinder 1's ω over 20 s for every scheme",
    );
    let files = time_figure(
        "two touching cylinders: relative error of cylinder 1's ω",
        "|ω₁ − exact| / |exact|",
        &curves,
        Scale::Log,
    )?
    .save(dir, "fig5b_cylinders_error")?;
    report.add_figure(
        &files,
        "Fig. 5b: relative error of cylinder 1's ω against time",
        "its points",
    );
    Ok(summary)
}
