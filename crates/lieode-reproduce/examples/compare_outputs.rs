//! Compares two output folders of `reproduce` CSV by CSV, bit for bit, apart from timings:
//! the check that a restructuring kept every published number.
//!
//! ```text
//! LIEODE_OUT=/tmp/before cargo run --release --example reproduce    # on the old code
//! LIEODE_OUT=/tmp/after  cargo run --release --example reproduce    # on the new code
//! cargo run --release --example compare_outputs -- /tmp/before /tmp/after
//! ```
//!
//! Every CSV under the first folder must exist under the second with the same header and the
//! same number of records. Cells are compared as text (the CSVs are written in shortest
//! round-trip form, so equal text is equal bits), except in timing columns — wall-clock
//! seconds, nanoseconds per step, speed-ups, throughputs, repeat counts — and in the
//! `x`/`y`/`value` columns of the figures whose points are timings (listed below). The
//! run prints one line per file (`same`, `same but timings`, or the first differing cells) and
//! exits 1 if any non-timing cell differs or a file is missing.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use lieode_study::csv::{Cell, Table};

/// Columns that hold timings (measured wall-clock quantities, different on every run).
const TIMING_COLUMNS: [&str; 9] = [
    "seconds",
    "cpu_seconds",
    "ns_per_step",
    "speedup_vs_direct_euler",
    "relative_to_direct_euler",
    "throughput",
    "repeats",
    "body_steps_per_second",
    "steps_per_second",
];

/// The figures whose points are timings (an axis in seconds, a cost or a speed-up).
const TIMING_FIGURES: [&str; 6] = [
    "boyle_paper/fig3_error_vs_seconds.csv",
    "krysl_paper/fig_work_precision.csv",
    "many_bodies/throughput_figure.csv",
    "spiral_paper/fig4_step_cost.csv",
    "spiral_paper/fig5_speedup.csv",
    "work_precision_demo/error_vs_wall_time.csv",
];

/// Every `.csv` below `dir`, relative to it, sorted.
fn csv_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d)? {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|x| x == "csv") {
                out.push(path.strip_prefix(dir).unwrap_or(&path).to_path_buf());
            }
        }
    }
    out.sort();
    Ok(out)
}

fn text(cell: &Cell) -> String {
    match cell {
        Cell::Text(s) => s.clone(),
        Cell::Real(x) => format!("{x:e}"),
        Cell::Integer(n) => n.to_string(),
    }
}

/// `None` if equal apart from timings, else what differs; the flag says whether timings
/// differed.
fn compare(name: &Path, a: &Table, b: &Table) -> (Option<String>, bool) {
    if a.columns() != b.columns() {
        return (
            Some(format!("headers {:?} vs {:?}", a.columns(), b.columns())),
            false,
        );
    }
    if a.rows().len() != b.rows().len() {
        let counts = format!("{} vs {} records", a.rows().len(), b.rows().len());
        return (Some(counts), false);
    }
    let file = name.to_string_lossy().replace('\\', "/");
    let timing_figure = TIMING_FIGURES.contains(&file.as_str());
    let skipped = |header: &str| {
        TIMING_COLUMNS.contains(&header) || (timing_figure && ["x", "y", "value"].contains(&header))
    };
    let mut timings = false;
    let mut diffs = Vec::new();
    for (r, (ra, rb)) in a.rows().iter().zip(b.rows()).enumerate() {
        for (c, (ca, cb)) in ra.iter().zip(rb).enumerate() {
            if text(ca) == text(cb) {
                continue;
            }
            let header = &a.columns()[c];
            if skipped(header) {
                timings = true;
            } else if diffs.len() < 3 {
                diffs.push(format!(
                    "record {}, `{header}`: {} vs {}",
                    r + 1,
                    text(ca),
                    text(cb)
                ));
            } else {
                diffs.push(String::new());
            }
        }
    }
    if diffs.is_empty() {
        (None, timings)
    } else {
        let shown: Vec<&String> = diffs.iter().filter(|d| !d.is_empty()).collect();
        (
            Some(format!("{} cells differ, e.g. {shown:?}", diffs.len())),
            timings,
        )
    }
}

fn main() -> lieode_reproduce::Result<ExitCode> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [before, after] = args.as_slice() else {
        eprintln!("usage: compare_outputs BEFORE_DIR AFTER_DIR");
        return Ok(ExitCode::FAILURE);
    };
    let (before, after) = (Path::new(before), Path::new(after));
    let files = csv_files(before).map_err(|e| lieode_study::files::io_error("read", before, &e))?;
    let (mut same, mut timing_only, mut failed) = (0, 0, 0);
    for name in &files {
        let a = Table::read(&before.join(name))?;
        let b = match Table::read(&after.join(name)) {
            Ok(b) => b,
            Err(e) => {
                println!("MISSING {}: {e}", name.display());
                failed += 1;
                continue;
            }
        };
        match compare(name, &a, &b) {
            (None, false) => same += 1,
            (None, true) => {
                timing_only += 1;
                println!("same but timings  {}", name.display());
            }
            (Some(what), _) => {
                failed += 1;
                println!("DIFFERS           {}: {what}", name.display());
            }
        }
    }
    println!(
        "{} CSV files: {same} identical, {timing_only} identical but for timings, {failed} \
         differing or missing",
        files.len()
    );
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
