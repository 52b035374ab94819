//! The SPIRAL paper's Fig. 7 written out: `energy.csv`, `cost.csv`, `level.csv`,
//! `free_rotation.csv`, Fig. 7 and a Fig. 6 analogue (snapshots of the box) under
//! `spiral_energy/`, from the study of [`mod@super::spiral_energy`].

use std::path::Path;

use super::Report;
use super::spiral_energy::{
    EnergyPoint, EnergySettings, PAPER_LEVEL, chess_box, cost_of, cost_study, energy_study,
    free_rotation_drift, halvings, rayleigh_step, run_method, step_for_level,
};
use crate::Result;
use crate::dem::{ChessPiece, chess_set, random_state};
use crate::output::output_dir;
use lieode_study::csv::{Cell, Table};
use lieode_study::plot::{Curve, CurveStyle, Figure, Scale};

/// The study with [`EnergySettings::quick`].
///
/// # Errors
/// As [`spiral_energy_with`].
pub fn spiral_energy() -> Result<Report> {
    spiral_energy_with(&EnergySettings::quick())
}

/// The free-rotation cases: `(axial, transverse)` body-frame angular speeds of a king, rad/s.
/// The first is the chess box's: collisions spin the pieces up about transverse axes (about
/// 30 rad/s), and the axial spin stays at most the initial π rad/s; the second spins fast about
/// both.
pub const FREE_ROTATION_CASES: [(f64, f64); 2] = [(std::f64::consts::PI, 30.0), (30.0, 30.0)];

/// Writes under `spiral_energy/`:
/// - `energy.csv` (`method,dt,runs,mean_rel_energy_change,max_rel_energy_change,
///   median_rel_energy_change`) and Fig. 7 (`fig7_energy`);
/// - `cost.csv` (`method,dt,seconds,body_steps_per_second`, seed 1 timed alone);
/// - `level.csv` (`method,dt_for_level,duration,seconds`): the step at which each scheme's
///   mean change reaches the paper's 6.8e-5, and the wall-clock time of a run at that step;
/// - `free_rotation.csv` (`method,axial,transverse,dt,rel_energy_change`) and its figure: a
///   king spinning freely for 1.5 s;
/// - `fig6_start`, `fig6_end`: the pieces' spheres seen from +z at t = 0 and at the end
///   (seed 1, SPIRAL leapfrog at 5e-6 s);
///
/// with a summary.
///
/// # Errors
/// Those of the runs, the figures and the files.
pub fn spiral_energy_with(settings: &EnergySettings) -> Result<Report> {
    let dir = output_dir("spiral_energy")?;
    let mut report = Report::new("spiral_energy");
    let points = energy_study(settings)?;
    let mut energy = Table::new(&[
        "method",
        "dt",
        "runs",
        "mean_rel_energy_change",
        "max_rel_energy_change",
        "median_rel_energy_change",
    ])?;
    for p in &points {
        energy.push(vec![
            Cell::text(p.method.clone()),
            Cell::Real(p.dt),
            Cell::count(p.runs),
            Cell::Real(p.mean_rel_energy_change),
            Cell::Real(p.max_rel_energy_change),
            Cell::Real(p.median_rel_energy_change),
        ])?;
    }
    let path = dir.join("energy.csv");
    energy.write(&path)?;
    report.add(
        &path,
        &format!(
            "Fig. 7 data: relative energy change after {} s, mean, max and median over {} seeds \
             (initial spin {} rad/s)",
            settings.duration, settings.runs, settings.spin
        ),
    );
    let mut cost = Table::new(&["method", "dt", "seconds", "body_steps_per_second"])?;
    for c in cost_study(settings)? {
        cost.push(vec![
            Cell::text(c.method),
            Cell::Real(c.dt),
            Cell::Real(c.seconds),
            Cell::Real(c.body_steps_per_second),
        ])?;
    }
    let path = dir.join("cost.csv");
    cost.write(&path)?;
    report.add(&path, "wall-clock seconds of one run (seed 1, one thread)");
    write_figure(&dir, &mut report, &points, settings)?;
    let mut summary = format!(
        "32 pieces, {} s, {} seeds, spin {:.3} rad/s; Rayleigh step {:.3e} s.\n\
         Step for 6.8e-5 and the wall-clock time of one {} s run at it (one thread):\n",
        settings.duration,
        settings.runs,
        settings.spin,
        rayleigh_step()?,
        settings.duration
    );
    let mut level = Table::new(&["method", "dt_for_level", "duration", "seconds"])?;
    for method in &settings.methods {
        match step_for_level(&points, method, PAPER_LEVEL) {
            Some(dt) => {
                let timed = cost_of(method, dt, settings.duration, settings.spin)?;
                summary.push_str(&format!(
                    "  {method:>16} Δt = {dt:.2e} s, {:.2} s\n",
                    timed.seconds
                ));
                level.push(vec![
                    Cell::text(method.clone()),
                    Cell::Real(dt),
                    Cell::Real(settings.duration),
                    Cell::Real(timed.seconds),
                ])?;
            }
            None => summary.push_str(&format!(
                "  {method:>16} 6.8e-5 not bracketed by the steps run\n"
            )),
        }
    }
    let path = dir.join("level.csv");
    level.write(&path)?;
    report.add(
        &path,
        "the step each scheme needs for the paper's 6.8e-5 and the time of a run at it",
    );
    summary.push_str(&free_rotation(&dir, &mut report, settings)?);
    snapshots(&dir, &mut report, settings.duration)?;
    report.summary = summary;
    Ok(report)
}

/// Fig. 7: the mean relative energy change against Δt, the Rayleigh step and the paper's
/// 6.8e-5 level as reference lines.
fn write_figure(
    dir: &Path,
    report: &mut Report,
    points: &[EnergyPoint],
    settings: &EnergySettings,
) -> Result<()> {
    let mut fig = Figure::new(format!(
        "32 chess pieces, Hertz contacts: energy change after {} s",
        settings.duration
    ))
    .with_x_label("Δt [s]")
    .with_y_label("|E − E₀| / E₀ (mean over seeds)")
    .with_x_scale(Scale::Log)
    .with_y_scale(Scale::Log)
    .with_style(CurveStyle::LineAndMarkers);
    let (mut low, mut high) = (f64::MAX, f64::MIN);
    for method in &settings.methods {
        let (x, y): (Vec<f64>, Vec<f64>) = points
            .iter()
            .filter(|p| {
                &p.method == method
                    && p.mean_rel_energy_change > 0.0
                    && p.mean_rel_energy_change.is_finite()
            })
            .map(|p| (p.dt, p.mean_rel_energy_change))
            .unzip();
        for v in &y {
            low = low.min(*v);
            high = high.max(*v);
        }
        if !x.is_empty() {
            fig = fig.with_curve(Curve::new(method.clone(), x, y));
        }
    }
    let steps = &settings.steps;
    let (dt_min, dt_max) = (
        steps.iter().copied().fold(f64::MAX, f64::min),
        steps.iter().copied().fold(f64::MIN, f64::max),
    );
    let rayleigh = rayleigh_step()?;
    fig = fig
        .with_reference_line(Curve::new(
            "Rayleigh step",
            vec![rayleigh, rayleigh],
            vec![low.min(PAPER_LEVEL), high.max(PAPER_LEVEL)],
        ))
        .with_reference_line(Curve::new(
            "0.0068 %",
            vec![dt_min, dt_max.max(rayleigh)],
            vec![PAPER_LEVEL, PAPER_LEVEL],
        ));
    let files = fig.save(dir, "fig7_energy")?;
    report.add_figure(
        &files,
        "Fig. 7: relative energy change against Δt, the Rayleigh step and 0.0068 % dashed",
        "its points",
    );
    Ok(())
}

/// The free-rotation drift of a king over 1.5 s for the study's schemes, both cases of
/// [`FREE_ROTATION_CASES`], Δt = 2e-5 … 5e-6 s; returns the summary lines.
fn free_rotation(dir: &Path, report: &mut Report, settings: &EnergySettings) -> Result<String> {
    let mut table = Table::new(&["method", "axial", "transverse", "dt", "rel_energy_change"])?;
    let mut fig = Figure::new("A free king, 1.5 s: kinetic-energy drift")
        .with_x_label("Δt [s]")
        .with_y_label("|E − E₀| / E₀")
        .with_x_scale(Scale::Log)
        .with_y_scale(Scale::Log)
        .with_style(CurveStyle::LineAndMarkers);
    let mut summary = String::from(
        "A free king for 1.5 s (axial, transverse spin in rad/s), energy drift at Δt = 5e-6 s:\n",
    );
    let steps = halvings(3);
    for &(axial, transverse) in &FREE_ROTATION_CASES {
        summary.push_str(&format!("  ({axial:.2}, {transverse:.0}):"));
        for method in &settings.methods {
            let mut drift = Vec::new();
            for &dt in &steps {
                let change =
                    free_rotation_drift(method, ChessPiece::King, axial, transverse, dt, 1.5)?;
                table.push(vec![
                    Cell::text(method.clone()),
                    Cell::Real(axial),
                    Cell::Real(transverse),
                    Cell::Real(dt),
                    Cell::Real(change),
                ])?;
                drift.push(change);
            }
            summary.push_str(&format!(" {method} {:.1e}", drift[drift.len() - 1]));
            let positive: Vec<(f64, f64)> = steps
                .iter()
                .copied()
                .zip(drift)
                .filter(|&(_, d)| d > 0.0 && d.is_finite())
                .collect();
            if axial < transverse && !positive.is_empty() {
                let (x, y) = positive.into_iter().unzip();
                fig = fig.with_curve(Curve::new(method.clone(), x, y));
            }
        }
        summary.push('\n');
    }
    let path = dir.join("free_rotation.csv");
    table.write(&path)?;
    report.add(
        &path,
        "a free king's kinetic-energy drift over 1.5 s per scheme and step",
    );
    let files = fig.save(dir, "free_rotation_drift")?;
    report.add_figure(
        &files,
        "a free king spinning at π rad/s about its axis and 30 rad/s across: energy drift",
        "its points",
    );
    Ok(summary)
}

/// Fig. 6 analogue: the spheres of seed 1 seen from +z, at the start and after `duration`
/// (SPIRAL leapfrog at 5e-6 s), each sphere's outline drawn as points, one colour per kind
/// of piece, the box's walls as a reference line.
fn snapshots(dir: &Path, report: &mut Report, duration: f64) -> Result<()> {
    let mut model = chess_box()?;
    let start = random_state(&model, 1, 1.0, std::f64::consts::PI)?;
    let (end, _) = run_method("spiral_leapfrog", &mut model, &start, 5e-6, duration)?;
    let kinds = chess_set();
    let half = model.half();
    for (state, stem, when) in [(&start, "fig6_start", 0.0), (&end, "fig6_end", duration)] {
        let spheres = model.world_spheres(state);
        let mut fig = Figure::new(format!("32 chess pieces seen from +z, t = {when} s"))
            .with_x_label("x [m]")
            .with_y_label("y [m]")
            .with_size(800, 800)
            .with_style(CurveStyle::Markers);
        for kind in ChessPiece::ALL {
            let (mut x, mut y) = (Vec::new(), Vec::new());
            for (c, r, body) in &spheres {
                if kinds.get(*body) == Some(&kind) {
                    for k in 0..20 {
                        let a = f64::from(k) * std::f64::consts::TAU / 20.0;
                        x.push(c.x + r * a.cos());
                        y.push(c.y + r * a.sin());
                    }
                }
            }
            fig = fig.with_curve(Curve::new(format!("{kind:?}").to_lowercase(), x, y));
        }
        fig = fig.with_reference_line(Curve::new(
            "box walls",
            vec![-half, half, half, -half, -half],
            vec![-half, -half, half, half, -half],
        ));
        let files = fig.save(dir, stem)?;
        report.add_figure(
            &files,
            &format!("Fig. 6 analogue: the pieces' spheres seen from +z at t = {when} s"),
            "the outline points",
        );
    }
    Ok(())
}
