//! The figure of the LAMMPS energy study (`lammps-plugin/study/`): the largest relative energy
//! change over the run, `max |E(t) − E(0)| / |E(0)|`, against the step `Δt`, one curve per
//! integrator (LAMMPS's `fix nve/asphere` and the plugin's `fix lieode method M`), on log–log
//! axes, with the measured slope of each curve in its legend.
//!
//! It reads the CSV table `lammps-plugin/study/energy.py` writes (columns
//! `integrator,dt,steps,e0,rel_change_end,rel_change_max`, one row per integrator and step) and
//! saves `energy_figure.svg`, `.png` and `.csv` (the plotted data) into the output folder.
//!
//! ```text
//! cargo run --release -p lieode-study --example lammps_energy_figure -- \
//!     lammps-plugin/study/results/energy.csv lammps-plugin/study/results
//! ```
//!
//! Without arguments it reads `lammps-plugin/study/results/energy.csv` and writes beside it.

use std::path::PathBuf;

use lieode::order::observed_order;
use lieode_study::csv::{Cell, Table};
use lieode_study::plot::{Curve, convergence_figure};
use lieode_study::{Error, Result};

/// The legend name of an integrator as the CSV names it.
fn legend(integrator: &str) -> String {
    if integrator == "nve_asphere" {
        "fix nve/asphere".to_string()
    } else {
        format!("lieode {integrator}")
    }
}

/// The curves of the table: for each integrator (in the order of first appearance), the points
/// `(dt, rel_change_max)` sorted by `dt`.
fn curves(table: &Table) -> Result<Vec<Curve>> {
    let column = |name: &'static str| {
        table
            .column_index(name)
            .ok_or_else(|| Error::InvalidParameter {
                name: "csv",
                value: format!("columns {:?}", table.columns()),
                expected: format!("a column `{name}`"),
            })
    };
    let (who, dt, change) = (
        column("integrator")?,
        column("dt")?,
        column("rel_change_max")?,
    );
    let mut out: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for (line, row) in table.rows().iter().enumerate() {
        let name = match &row[who] {
            Cell::Text(s) => s.clone(),
            other => format!("{other:?}"),
        };
        let point = match (row[dt].as_f64(), row[change].as_f64()) {
            (Some(x), Some(y)) => (x, y),
            _ => {
                return Err(Error::InvalidParameter {
                    name: "csv",
                    value: format!("row {} ({name})", line + 2),
                    expected: "numbers in `dt` and `rel_change_max`".into(),
                });
            }
        };
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some((_, points)) => points.push(point),
            None => out.push((name, vec![point])),
        }
    }
    Ok(out
        .into_iter()
        .map(|(name, mut points)| {
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (x, y) = points.into_iter().unzip();
            Curve::new(legend(&name), x, y)
        })
        .collect())
}

fn main() -> Result<()> {
    let mut args = std::env::args_os().skip(1);
    let csv = args.next().map_or_else(
        || PathBuf::from("lammps-plugin/study/results/energy.csv"),
        PathBuf::from,
    );
    let dir = args.next().map_or_else(
        || csv.parent().map(PathBuf::from).unwrap_or_default(),
        PathBuf::from,
    );
    let table = Table::read(&csv)?;
    let curves = curves(&table)?;
    // A reference slope 2 always; slope 1 too when a curve is nearer first order.
    let mut slopes = vec![2];
    if curves
        .iter()
        .any(|c| observed_order(&c.x, &c.y).is_ok_and(|p| p < 1.5))
    {
        slopes.insert(0, 1);
    }
    let files = convergence_figure(
        "LAMMPS, 512 YLZ ellipsoids: energy change against the step",
        &curves,
        &slopes,
    )?
    .with_x_label("step Δt")
    .with_y_label("max |E(t) − E(0)| / |E(0)| over t ∈ [0, 5]")
    .save(&dir, "energy_figure")?;
    for path in [files.svg, files.png, files.csv] {
        println!("wrote {}", path.display());
    }
    Ok(())
}
