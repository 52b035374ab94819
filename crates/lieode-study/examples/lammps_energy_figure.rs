//! The figure of the LAMMPS energy study (`lammps-plugin/study/`): the largest relative energy
//! change over the run, `max |E(t) − E(0)| / |E(0)|`, against the step `Δt`, one curve per deck
//! and integrator (LAMMPS's own fixes and the plugin's `fix lieode method M`), on log–log axes,
//! with the measured slope of each curve in its legend; all decks in one figure, told apart by
//! the deck's name in front of each legend entry and by the line style (dipolar tops: line and
//! markers, dipolar spheres: dashed, YLZ ellipsoids: line).
//!
//! It reads the CSV table `lammps-plugin/study/energy.py` writes (columns `deck`, `fix`, `dt`
//! and `rel_change_max`, one row per deck, integrator and step; `results/energy_runs.csv`) and
//! saves `energy.svg`, `.png` and `.csv` (the plotted data) into the output folder.
//!
//! ```text
//! cargo run --release -p lieode-study --example lammps_energy_figure -- \
//!     lammps-plugin/study/results/energy_runs.csv lammps-plugin/study/results
//! ```
//!
//! Without arguments it reads `lammps-plugin/study/results/energy_runs.csv` and writes beside it.

use std::path::PathBuf;

use lieode::order::observed_order;
use lieode_study::csv::{Cell, Table};
use lieode_study::plot::{Curve, CurveStyle, convergence_figure};
use lieode_study::{Error, Result};

/// The points `(dt, rel_change_max)` of one integrator on one deck.
struct Series {
    deck: String,
    fix: String,
    points: Vec<(f64, f64)>,
}

/// The legend entry of a fix: `lieode M` for `lieode method M …`, the style alone for the
/// rigid-body fixes (`rigid/small custom v_bodyid`), else the fix as written.
fn legend(fix: &str) -> String {
    match fix.strip_prefix("lieode method ") {
        Some(rest) => format!("lieode {}", rest.split_whitespace().next().unwrap_or(rest)),
        None => fix
            .strip_suffix(" custom v_bodyid")
            .unwrap_or(fix)
            .to_string(),
    }
}

/// The short name of a deck in the legend, the style its curves are drawn in, and its place
/// in the legend (the dipolar tops, where LAMMPS and the plugin run the same physics, first).
fn deck_look(deck: &str) -> (String, CurveStyle, u8) {
    match deck {
        "aniso" => ("tops".to_string(), CurveStyle::LineAndMarkers, 0),
        "dipole" => ("spheres".to_string(), CurveStyle::Dashed, 1),
        "ylz" => ("YLZ".to_string(), CurveStyle::Line, 2),
        other => (other.to_string(), CurveStyle::LineAndMarkers, 3),
    }
}

/// The text of a cell (numbers formatted as they read).
fn text(cell: &Cell) -> String {
    match cell {
        Cell::Text(s) => s.clone(),
        Cell::Real(x) => x.to_string(),
        Cell::Integer(n) => n.to_string(),
    }
}

/// The series of the table, in the order of their first rows.
fn series(table: &Table) -> Result<Vec<Series>> {
    let column = |name: &'static str| {
        table
            .column_index(name)
            .ok_or_else(|| Error::InvalidParameter {
                name: "csv",
                value: format!("columns {:?}", table.columns()),
                expected: format!("a column `{name}`"),
            })
    };
    let (deck, fix, dt, change) = (
        column("deck")?,
        column("fix")?,
        column("dt")?,
        column("rel_change_max")?,
    );
    let mut out: Vec<Series> = Vec::new();
    for (line, row) in table.rows().iter().enumerate() {
        let (d, f) = (text(&row[deck]), text(&row[fix]));
        let point = match (row[dt].as_f64(), row[change].as_f64()) {
            (Some(x), Some(y)) => (x, y),
            _ => {
                return Err(Error::InvalidParameter {
                    name: "csv",
                    value: format!("row {} ({d}, {f})", line + 2),
                    expected: "numbers in `dt` and `rel_change_max`".into(),
                });
            }
        };
        match out.iter_mut().find(|s| s.deck == d && s.fix == f) {
            Some(s) => s.points.push(point),
            None => out.push(Series {
                deck: d,
                fix: f,
                points: vec![point],
            }),
        }
    }
    Ok(out)
}

fn main() -> Result<()> {
    let mut args = std::env::args_os().skip(1);
    let csv = args.next().map_or_else(
        || PathBuf::from("lammps-plugin/study/results/energy_runs.csv"),
        PathBuf::from,
    );
    let dir = args.next().map_or_else(
        || csv.parent().map(PathBuf::from).unwrap_or_default(),
        PathBuf::from,
    );
    let all = series(&Table::read(&csv)?)?;
    // The decks in the order of `deck_look` (then of their first rows); within a deck, the
    // series in the order of their first rows.
    let mut decks: Vec<&str> = Vec::new();
    for s in &all {
        if !decks.contains(&s.deck.as_str()) {
            decks.push(&s.deck);
        }
    }
    decks.sort_by_key(|d| deck_look(d).2);
    let mut curves = Vec::new();
    for deck in decks {
        let (name, style, _) = deck_look(deck);
        for s in all.iter().filter(|s| s.deck == deck) {
            let mut points = s.points.clone();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (x, y) = points.into_iter().unzip();
            curves.push(Curve::new(format!("{name}: {}", legend(&s.fix)), x, y).with_style(style));
        }
    }
    // A reference slope 2 always; slope 1 too when a curve is nearer first order.
    let mut slopes = vec![2];
    if curves
        .iter()
        .any(|c| observed_order(&c.x, &c.y).is_ok_and(|p| p < 1.5))
    {
        slopes.insert(0, 1);
    }
    let files = convergence_figure(
        "LAMMPS: energy change against the step (dipolar tops, dipolar spheres, YLZ ellipsoids)",
        &curves,
        &slopes,
    )?
    .with_x_label("step Δt")
    .with_y_label("max |E(t) − E(0)| / |E(0)| over t ∈ [0, 5]")
    .with_size(1400, 1100)
    .save(&dir, "energy")?;
    for path in [files.svg, files.png, files.csv] {
        println!("wrote {}", path.display());
    }
    Ok(())
}
