//! The SPIRAL paper's Fig. 7 written out: `energy.csv`, `cost.csv` and the figure under
//! `spiral_energy/`, from the study of [`mod@super::spiral_energy`].

use super::Report;
use super::spiral_energy::{
    ENERGY_METHODS, EnergyPoint, EnergySettings, PAPER_LEVEL, energy_study, rayleigh_step,
    step_for_level,
};
use crate::csv::{Cell, Table};
use crate::error::Result;
use crate::output::output_dir;
use crate::plot::{Curve, CurveStyle, Figure, Scale};

/// The study with [`EnergySettings::quick`].
///
/// # Errors
/// As [`spiral_energy_with`].
pub fn spiral_energy() -> Result<Report> {
    spiral_energy_with(&EnergySettings::quick())
}

/// Writes `energy.csv` (`method,dt,runs,mean_rel_energy_change,max_rel_energy_change`),
/// `cost.csv` (`method,dt,seconds,body_steps_per_second`) and Fig. 7 under `spiral_energy/`,
/// with a summary: for each method the step that reaches the paper's 6.8e-5 and the CPU time a
/// 1.5 s run takes at it (extrapolated from the measured time per step).
///
/// # Errors
/// Those of the runs, the figure and the files.
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
    ])?;
    let mut cost = Table::new(&["method", "dt", "seconds", "body_steps_per_second"])?;
    for p in &points {
        energy.push(vec![
            Cell::text(p.method.clone()),
            Cell::Real(p.dt),
            Cell::count(p.runs),
            Cell::Real(p.mean_rel_energy_change),
            Cell::Real(p.max_rel_energy_change),
        ])?;
        cost.push(vec![
            Cell::text(p.method.clone()),
            Cell::Real(p.dt),
            Cell::Real(p.seconds),
            Cell::Real(p.body_steps_per_second),
        ])?;
    }
    let path = dir.join("energy.csv");
    energy.write(&path)?;
    report.add(
        &path,
        &format!(
            "Fig. 7 data: relative energy change after {} s, mean and max over {} seeds",
            settings.duration, settings.runs
        ),
    );
    let path = dir.join("cost.csv");
    cost.write(&path)?;
    report.add(
        &path,
        "wall-clock seconds of one run and body-steps per second",
    );
    write_figure(&dir, &mut report, &points, settings)?;
    let mut summary = format!(
        "32 pieces, {} s, {} seeds; Rayleigh step {:.3e} s; step for 6.8e-5 and the CPU time \
         of 1.5 s at it (one thread of the default pool):\n",
        settings.duration,
        settings.runs,
        rayleigh_step()?
    );
    for method in ENERGY_METHODS {
        let own: Vec<&EnergyPoint> = points.iter().filter(|p| p.method == method).collect();
        let timed: Vec<f64> = own
            .iter()
            .filter(|p| p.seconds.is_finite())
            .map(|p| p.seconds / (settings.duration / p.dt))
            .collect();
        let seconds_per_step = timed.iter().sum::<f64>() / timed.len().max(1) as f64;
        match step_for_level(&points, method, PAPER_LEVEL) {
            Some(dt) => summary.push_str(&format!(
                "  {method:>16} Δt = {dt:.2e} s, {:.1} s for 1.5 s\n",
                1.5 / dt * seconds_per_step
            )),
            None => summary.push_str(&format!(
                "  {method:>16} 6.8e-5 not bracketed by the steps run\n"
            )),
        }
    }
    report.summary = summary;
    Ok(report)
}

/// Fig. 7: the mean relative energy change against Δt, the Rayleigh step dashed, the paper's
/// 6.8e-5 level dashed.
fn write_figure(
    dir: &std::path::Path,
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
    for method in ENERGY_METHODS {
        let (x, y): (Vec<f64>, Vec<f64>) = points
            .iter()
            .filter(|p| {
                p.method == method
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
            fig = fig.with_curve(Curve::new(method, x, y));
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
