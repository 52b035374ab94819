//! # lieode-reproduce: every table and figure the library regenerates
//!
//! The paper reproductions of the `lieode` workspace, kept out of every published crate: the
//! reproductions themselves, the papers' own scenarios (the SPIRAL paper's chess pieces in a
//! box, [`dem`]; Seelen et al.'s four tests, [`seelen_problems`]), Hairer's reference runs, the
//! group tour, and the check of `docs/` against the CSV tables a run writes ([`doc_check`]).
//! `cargo run --release --example reproduce` runs them all (the README's main job).
//!
//!
//! Each reproduction is a library call that writes its CSV tables and figures into its own
//! folder under the output root ([`crate::output`]) and returns a [`Report`]: a short text
//! summary and the list of files with a line on what each one shows. `examples/reproduce.rs`
//! (the README's main job) runs them all and writes `index.md` from the reports; each example
//! of the same name runs one of them alone.
//!
//! | reproduction | folder | what it shows |
//! |---|---|---|
//! | [`group_tour`] | `group_tour/` | SO(3) three ways, map by map |
//! | [`hairer_reference()`] | `hairer_reference/` | DOPRI5, DOP853, ODEX statistics as Hairer's codes |
//! | [`convergence_demo`] | `convergence_demo/` | orders of Munthe-Kaas methods on SO(3) × ℝ³ |
//! | [`work_precision_demo`] | `work_precision_demo/` | fixed-step and adaptive methods: error vs work |
//! | [`spiral_paper`] | `spiral_paper/` | the SPIRAL paper's benchmark: Figs. 2–5, A.8, A.9 and Table 2 |
//! | [`krysl_paper`] | `krysl_paper/` | Krysl's implicit rigid-body family: Figs. 1–5 and a work–precision comparison |
//! | [`many_bodies()`] | `many_bodies/` | SPIRAL leapfrog on 10³ … 10⁶ bodies: throughput on 1 and 2 threads; every six-degree-of-freedom method: orders on the spring pair and cost per body-step |
//! | [`seelen_paper()`] | `seelen_paper/` | Seelen et al. (2016) §3: improved PCDM, PCDM and the six-degree-of-freedom catalogue on the four tests; Table 1; the convergence study |
//! | [`spiral_energy()`] | `spiral_energy/` | SPIRAL paper §5 (Figs. 6–7): energy change of 32 chess pieces with Hertz contacts against Δt, reduced (0.05 s, 2 seeds), the cost and the step for 0.0068 % per scheme, a free piece's energy drift, snapshots of the box |
//! | [`boyle_paper`] | `boyle_paper/` | Boyle's rotation formulations: Figs. 2–5, the paper's statements, numpy-quaternion's binary |

pub mod boyle;
pub mod convergence;
pub mod dem;
pub mod doc_check;
pub mod hairer_reference;
pub mod krysl;
pub mod many_bodies;
pub mod output;
pub mod progress;
pub mod seelen;
pub mod seelen_problems;
pub mod seelen_report;
pub mod six_dof;
pub mod spiral;
pub mod spiral_energy;
pub mod spiral_energy_report;
pub mod spiral_report;
pub mod tour;
pub mod work_precision;

pub use boyle::boyle_paper;
pub use convergence::convergence_demo;
pub use krysl::krysl_paper;
pub use many_bodies::many_bodies;
pub use seelen_report::seelen_paper;
pub use spiral_energy_report::spiral_energy;
pub use spiral_report::spiral_paper;
pub use work_precision::work_precision_demo;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub use lieode_study::{Error, Result};

use crate::hairer_reference::{
    hairer_reference_csv, hairer_reference_rows, hairer_reference_table,
};
use crate::output::{output_dir, output_root, write_file};
use crate::tour::{tour_csv, tour_table};

/// A reproduction: its name (its folder under the output root, and its argument to
/// `examples/reproduce.rs`), its title, the call that runs it, and its nominal cost in tenths
/// of a second (measured on two cores; it weighs the reproduction in the progress of a run).
#[derive(Debug, Clone, Copy)]
pub struct Reproduction {
    /// The name.
    pub name: &'static str,
    /// The title printed before its summary.
    pub title: &'static str,
    /// The call.
    pub run: fn() -> Result<Report>,
    /// Its nominal cost, in tenths of a second (at least 1).
    pub nominal_cost: u64,
}

/// Every reproduction, in the order `reproduce` runs them.
pub const REPRODUCTIONS: [Reproduction; 10] = [
    Reproduction {
        name: "group_tour",
        title: "group tour",
        run: group_tour,
        nominal_cost: 1,
    },
    Reproduction {
        name: "hairer_reference",
        title: "Hairer's reference runs",
        run: hairer_reference,
        nominal_cost: 1,
    },
    Reproduction {
        name: "convergence_demo",
        title: "convergence demo",
        run: convergence_demo,
        nominal_cost: 1,
    },
    Reproduction {
        name: "work_precision_demo",
        title: "work–precision demo",
        run: work_precision_demo,
        nominal_cost: 2,
    },
    Reproduction {
        name: "spiral_paper",
        title: "SPIRAL paper (del Valle et al. 2024)",
        run: spiral_paper,
        nominal_cost: 266,
    },
    Reproduction {
        name: "krysl_paper",
        title: "Krysl's paper (2007)",
        run: krysl_paper,
        nominal_cost: 61,
    },
    Reproduction {
        name: "boyle_paper",
        title: "Boyle's paper (2017)",
        run: boyle_paper,
        nominal_cost: 130,
    },
    Reproduction {
        name: "many_bodies",
        title: "many bodies: SPIRAL throughput",
        run: many_bodies,
        nominal_cost: 134,
    },
    Reproduction {
        name: "seelen_paper",
        title: "Seelen et al.'s PCDM paper (2016)",
        run: seelen_paper,
        nominal_cost: 50,
    },
    Reproduction {
        name: "spiral_energy",
        title: "SPIRAL §5: chess pieces' energy (reduced)",
        run: spiral_energy,
        nominal_cost: 156,
    },
];

/// One file a reproduction wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    /// The file, relative to the output root (e.g. `convergence_demo/convergence.png`).
    pub path: PathBuf,
    /// One line on what it shows.
    pub description: String,
}

/// What a reproduction did: its summary table and the files it wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The reproduction's name (its folder under the output root).
    pub name: String,
    /// A short plain-text table of the main numbers, for the terminal.
    pub summary: String,
    /// The files written, in the order they should be listed.
    pub artifacts: Vec<Artifact>,
}

impl Report {
    /// An empty report for the reproduction `name`.
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_string(),
            summary: String::new(),
            artifacts: Vec::new(),
        }
    }

    /// Records a file written under the output root (its path is stored relative to the root
    /// when it lies below it).
    pub fn add(&mut self, path: &Path, description: &str) {
        let root = output_root();
        let relative = path.strip_prefix(&root).unwrap_or(path).to_path_buf();
        self.artifacts.push(Artifact {
            path: relative,
            description: description.to_string(),
        });
    }

    /// Lists the three files of a saved figure: the PNG (`png`, the figure's description),
    /// the SVG (the same figure) and the CSV of its points (`csv`).
    pub fn add_figure(&mut self, files: &lieode_study::plot::FigureFiles, png: &str, csv: &str) {
        self.add(&files.png, png);
        self.add(&files.svg, "the same figure as SVG");
        self.add(&files.csv, csv);
    }
}

/// The Markdown index of the reports: a section per reproduction listing its files.
pub fn index_markdown(reports: &[Report]) -> String {
    let mut out = String::from(
        "# lieode outputs\n\nRegenerated by `cargo run --release --example reproduce`.\n",
    );
    for report in reports {
        let _ = write!(out, "\n## {}\n\n", report.name);
        for a in &report.artifacts {
            let _ = writeln!(out, "- `{}`: {}", a.path.display(), a.description);
        }
    }
    out
}

/// Writes [`index_markdown`] to `index.md` under the output root and returns its path.
///
/// # Errors
/// [`crate::Error::Io`] naming the path.
pub fn write_index(reports: &[Report]) -> Result<PathBuf> {
    let root = output_root();
    lieode_study::files::create_dir(&root)?;
    let path = root.join("index.md");
    write_file(&path, &index_markdown(reports))?;
    Ok(path)
}

/// The group tour ([`crate::tour`]): writes `group_tour/group_tour.csv`.
///
/// # Errors
/// Those of [`crate::tour::group_tour`] and of writing the file.
pub fn group_tour() -> Result<Report> {
    let rows = crate::tour::group_tour()?;
    let mut report = Report::new("group_tour");
    report.summary = tour_table(&rows);
    let path = output_dir("group_tour")?.join("group_tour.csv");
    write_file(&path, &tour_csv(&rows))?;
    report.add(
        &path,
        "SO(3) as matrices, unit quaternions and the generic matrix group, compared map by map \
         (compose, log, dexp⁻¹) over angles 1e-8 … π, with the error of the order-4 truncated \
         dexp⁻¹ series.",
    );
    Ok(report)
}

/// Hairer's reference runs ([`mod@crate::hairer_reference`]): writes
/// `hairer_reference/counts.csv`.
///
/// # Errors
/// Those of the runs and of writing the file.
pub fn hairer_reference() -> Result<Report> {
    let rows = hairer_reference_rows()?;
    let mut report = Report::new("hairer_reference");
    report.summary = format!(
        "{} runs of DOPRI5, DOP853 and ODEX (3 problems × 4 tolerances × dense output off/on):\n{}",
        rows.len(),
        hairer_reference_table(&rows)
    );
    let path = output_dir("hairer_reference")?.join("counts.csv");
    write_file(&path, &hairer_reference_csv(&rows))?;
    report.add(
        &path,
        "DOPRI5, DOP853 and ODEX on the Arenstorf orbit and Van der Pol's equation (ε = 1e-3, 0.1) \
         at tol 1e-4 … 1e-10, dense output off/on: Hairer's statistics (identical to his Fortran \
         codes) and final values.",
    );
    Ok(report)
}
