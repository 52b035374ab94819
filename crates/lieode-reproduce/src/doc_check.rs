//! # The documentation checked against a run
//!
//! Every measured table in `docs/` that a reproduction regenerates is marked with the CSV it
//! comes from (the marker grammar and the reading of documents are in [`lieode_doc_figures`]).
//! [`check_docs`] reads every marked table, finds the CSV value behind each number printed in
//! it and rounds that value to the digits the document prints; a figure whose rounded value
//! differs is a [`Drift`]. `examples/reproduce.rs` runs the check at the end of every run and
//! fails listing them.

use std::fmt;
use std::path::Path;

use lieode_doc_figures::{Filter, MalformedMarker, MarkedTable, Marker, figures, parse_document};
use lieode_study::csv::{Cell, Table};

use crate::{Error, Result};

/// Every CSV table the reproductions of `examples/reproduce.rs` write, by reproduction (the
/// [`super::Report::name`], its folder under the output root). A marker may name only these;
/// `examples/reproduce.rs` checks that each reproduction reported each of its files. The CSVs of
/// the figures' points are not listed.
pub const REPRODUCTION_TABLES: &[(&str, &[&str])] = &[
    ("group_tour", &["group_tour.csv"]),
    ("hairer_reference", &["counts.csv"]),
    ("convergence_demo", &["errors.csv", "orders.csv"]),
    ("work_precision_demo", &["fixed_step.csv", "adaptive.csv"]),
    (
        "spiral_paper",
        &[
            "dt_error.csv",
            "table2.csv",
            "error_time.csv",
            "step_cost.csv",
            "speedup.csv",
            "dop853_lifted.csv",
        ],
    ),
    (
        "krysl_paper",
        &[
            "convergence.csv",
            "orders.csv",
            "final_states.csv",
            "hamiltonian.csv",
            "hamiltonian_summary.csv",
            "work_precision.csv",
        ],
    ),
    (
        "boyle_paper",
        &[
            "max_error.csv",
            "efficiency.csv",
            "numpy_quaternion.csv",
            "final_states.csv",
        ],
    ),
    (
        "many_bodies",
        &[
            "throughput.csv",
            "pair_errors.csv",
            "orders.csv",
            "method_cost.csv",
        ],
    ),
    (
        "seelen_paper",
        &[
            "top.csv",
            "table1.csv",
            "convergence.csv",
            "orders.csv",
            "cylinders.csv",
        ],
    ),
    (
        "spiral_energy",
        &["energy.csv", "cost.csv", "level.csv", "free_rotation.csv"],
    ),
];

/// Whether `file` is one of the CSV tables [`REPRODUCTION_TABLES`] lists for `reproduction`.
pub fn is_listed(reproduction: &str, file: &str) -> bool {
    REPRODUCTION_TABLES
        .iter()
        .any(|(r, files)| *r == reproduction && files.contains(&file))
}

/// A documented figure that the run does not reproduce to its printed digits, or whose value
/// the run did not write.
#[derive(Debug, Clone, PartialEq)]
pub struct Drift {
    /// The document's name.
    pub doc: String,
    /// The line of the table row.
    pub line: usize,
    /// The table: its heading and the line of its header row.
    pub table: String,
    /// The row's key cells.
    pub row: String,
    /// The column's header.
    pub column: String,
    /// The figure as printed.
    pub documented: String,
    /// The measured value, if the CSV has it.
    pub measured: Option<f64>,
    /// The measured value rounded to the printed digits, or what is missing.
    pub note: String,
}

impl fmt::Display for Drift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{} ({}), row `{}`, column `{}`: documented {}, ",
            self.doc, self.line, self.table, self.row, self.column, self.documented
        )?;
        match self.measured {
            Some(x) => write!(f, "measured {x:e} ({})", self.note),
            None => write!(f, "{}", self.note),
        }
    }
}

/// Whether the CSV `cell` holds the filter's value: as numbers when the cell is a number, as
/// text when it is text.
fn accepts(filter: &Filter, cell: &Cell) -> bool {
    match cell {
        Cell::Text(s) => filter.accepts_text(s),
        number => number.as_f64().is_some_and(|x| filter.accepts_number(x)),
    }
}

/// A malformed marker as the crate's error, naming `figures marker` and the place.
fn marker_error(e: MalformedMarker) -> Error {
    Error::InvalidParameter {
        name: "figures marker",
        value: e.place,
        expected: e.expected,
    }
}

/// The text of a CSV cell.
fn cell_text(cell: &Cell) -> String {
    match cell {
        Cell::Text(s) => s.clone(),
        Cell::Real(x) => format!("{x:e}"),
        Cell::Integer(n) => n.to_string(),
    }
}

/// Compares the figures of a checked table with `csv`, the CSV its marker names; returns the
/// figures that drifted (empty if all match) and the number compared.
///
/// # Errors
/// Those of [`figures`].
pub fn compare(marked: &MarkedTable, csv: &Table) -> Result<(Vec<Drift>, usize)> {
    let figures = figures(marked).map_err(marker_error)?;
    let Marker::Checked(source) = &marked.marker else {
        return Ok((Vec::new(), 0));
    };
    let table = format!(
        "table at line {}{}",
        marked.table.line,
        if marked.table.heading.is_empty() {
            String::new()
        } else {
            format!(" under \"{}\"", marked.table.heading)
        }
    );
    let csv_name = format!("{}/{}", source.reproduction, source.file);
    let mut drifts = Vec::new();
    for figure in &figures {
        let drift = |measured: Option<f64>, note: String| Drift {
            doc: figure.doc.clone(),
            line: figure.line,
            table: table.clone(),
            row: figure.row.clone(),
            column: figure.column.clone(),
            documented: figure.documented.text.clone(),
            measured,
            note,
        };
        let filters: Vec<String> = figure.filters.iter().map(Filter::to_string).collect();
        let missing_column = figure
            .filters
            .iter()
            .map(|f| &f.column)
            .chain(std::iter::once(&figure.csv_column))
            .find(|c| csv.column_index(c).is_none());
        if let Some(column) = missing_column {
            drifts.push(drift(None, format!("{csv_name} has no column `{column}`")));
            continue;
        }
        let records: Vec<&Vec<Cell>> = csv
            .rows()
            .iter()
            .filter(|record| {
                figure.filters.iter().all(|f| {
                    csv.column_index(&f.column)
                        .and_then(|i| record.get(i))
                        .is_some_and(|cell| accepts(f, cell))
                })
            })
            .collect();
        let [record] = records.as_slice() else {
            drifts.push(drift(
                None,
                format!(
                    "{} records of {csv_name} match {}, not one",
                    records.len(),
                    filters.join(" ")
                ),
            ));
            continue;
        };
        let cell = csv
            .column_index(&figure.csv_column)
            .and_then(|i| record.get(i));
        match cell.and_then(Cell::as_f64) {
            Some(x) if figure.documented.matches(x) => {}
            Some(x) => drifts.push(drift(
                Some(x),
                format!(
                    "{} to the printed digits; {} `{}` where {}",
                    figure.documented.round(x),
                    csv_name,
                    figure.csv_column,
                    filters.join(" ")
                ),
            )),
            None => drifts.push(drift(
                None,
                format!(
                    "{csv_name} `{}` is `{}` where {}, not a number",
                    figure.csv_column,
                    cell.map(cell_text).unwrap_or_default(),
                    filters.join(" ")
                ),
            )),
        }
    }
    Ok((drifts, figures.len()))
}

/// The outcome of [`check_docs`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DocCheck {
    /// Checked tables compared.
    pub tables: usize,
    /// Figures compared.
    pub figures: usize,
    /// Tables marked `timing` or `unchecked`: document, line of the table and the marker's
    /// text (`timing: …` or `unchecked: …`).
    pub excluded: Vec<(String, usize, String)>,
    /// Tables that look measured but have no marker: document and line.
    pub unmarked: Vec<(String, usize)>,
    /// Figures that drifted or could not be found.
    pub drifts: Vec<Drift>,
}

impl DocCheck {
    /// Whether every compared figure matched.
    pub fn passed(&self) -> bool {
        self.drifts.is_empty()
    }
}

impl fmt::Display for DocCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "documented figures: {} in {} tables compared, {} drifted; {} tables excluded \
             (timings, runs outside reproduce)",
            self.figures,
            self.tables,
            self.drifts.len(),
            self.excluded.len()
        )?;
        for (doc, line, text) in &self.excluded {
            writeln!(f, "  not compared: {doc}:{line} ({text})")?;
        }
        for (doc, line) in &self.unmarked {
            writeln!(f, "  no marker: {doc}:{line} (a table that looks measured)")?;
        }
        for drift in &self.drifts {
            writeln!(f, "  DRIFT {drift}")?;
        }
        Ok(())
    }
}

/// Checks every marked table of the Markdown files in `docs` whose reproduction is one of `ran`
/// against the CSVs under `outputs` (the output root of a `reproduce` run; the tables of the
/// other reproductions are listed as not compared): a figure not reproduced to its printed
/// digits, a marker naming a CSV that is not listed in [`REPRODUCTION_TABLES`] or was not
/// written, or a record that is missing or ambiguous, is a [`Drift`]. Documents are named
/// `docs/<file>` in the result.
///
/// # Errors
/// [`Error::Io`] if `docs` or a document cannot be read; those of [`parse_document`] and
/// [`figures`] for a malformed marker.
pub fn check_docs(docs: &Path, outputs: &Path, ran: &[&str]) -> Result<DocCheck> {
    let io = |operation: &'static str, path: &Path, e: std::io::Error| Error::Io {
        operation,
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(docs)
        .map_err(|e| io("read", docs, e))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    let mut check = DocCheck::default();
    for path in files {
        let text = std::fs::read_to_string(&path).map_err(|e| io("read", &path, e))?;
        let name = format!(
            "docs/{}",
            path.file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned())
        );
        let document = parse_document(&name, &text).map_err(marker_error)?;
        for table in document.unmarked.iter().filter(|t| t.looks_measured()) {
            check.unmarked.push((name.clone(), table.line));
        }
        for marked in &document.marked {
            let source = match &marked.marker {
                Marker::Checked(source) => source,
                Marker::Timing(text) => {
                    let text = format!("timing: {text}");
                    check.excluded.push((name.clone(), marked.table.line, text));
                    continue;
                }
                Marker::Unchecked(text) => {
                    let text = format!("unchecked: {text}");
                    check.excluded.push((name.clone(), marked.table.line, text));
                    continue;
                }
            };
            let missing = |note: String| Drift {
                doc: name.clone(),
                line: marked.marker_line,
                table: format!("table at line {}", marked.table.line),
                row: String::new(),
                column: String::new(),
                documented: "(the whole table)".into(),
                measured: None,
                note,
            };
            if !ran.contains(&source.reproduction.as_str()) {
                let text = format!("{} was not run", source.reproduction);
                check.excluded.push((name.clone(), marked.table.line, text));
                continue;
            }
            check.tables += 1;
            if !is_listed(&source.reproduction, &source.file) {
                check.drifts.push(missing(format!(
                    "{}/{} is not a table of REPRODUCTION_TABLES",
                    source.reproduction, source.file
                )));
                continue;
            }
            let csv_path = outputs.join(&source.reproduction).join(&source.file);
            let csv = match Table::read(&csv_path) {
                Ok(csv) => csv,
                Err(e) => {
                    check.drifts.push(missing(e.to_string()));
                    continue;
                }
            };
            let (drifts, count) = compare(marked, &csv)?;
            check.figures += count;
            check.drifts.extend(drifts);
        }
    }
    Ok(check)
}

/// The tables of [`REPRODUCTION_TABLES`] that `reports` do not list: `<reproduction>/<file>`
/// for each listed CSV of a reproduction that reported, but not this file (so the list cannot
/// drift from what the reproductions write).
pub fn unreported_tables(reports: &[super::Report]) -> Vec<String> {
    let mut out = Vec::new();
    let reported = |name: &str| reports.iter().any(|r| r.name == name);
    for (reproduction, files) in REPRODUCTION_TABLES
        .iter()
        .filter(|(name, _)| reported(name))
    {
        for file in *files {
            let path = Path::new(reproduction).join(file);
            let reported = reports
                .iter()
                .filter(|r| r.name == *reproduction)
                .flat_map(|r| &r.artifacts)
                .any(|a| a.path == path);
            if !reported {
                out.push(format!("{reproduction}/{file}"));
            }
        }
    }
    out
}
