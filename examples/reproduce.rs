//! The main job: regenerate every table and figure the library reproduces, on built-in
//! defaults, and list them in `target/lieode/index.md` (or `$LIEODE_OUT/index.md`).
//!
//! ```text
//! cargo run --release --example reproduce
//! ```
//!
//! Each reproduction is a library call in [`lieode::reproduce`] (the examples of the same name
//! run one alone); every paper reproduction adds itself here.
//!
//! At the end the run checks the documentation against itself
//! ([`lieode::reproduce::doc_figures`]): every figure of a marked table in `docs/` must equal
//! the value this run wrote, rounded to the digits the document prints. The run exits with
//! status 1 listing every figure that drifted (document, table, row, column, documented and
//! measured), or every table the reproductions were expected to write and did not.

use std::path::Path;
use std::process::ExitCode;

use lieode::output::output_root;
use lieode::reproduce::doc_figures::{check_docs, unreported_tables};
use lieode::reproduce::{
    Report, boyle_paper, convergence_demo, group_tour, hairer_reference, krysl_paper, many_bodies,
    seelen_paper, spiral_energy, spiral_paper, work_precision_demo, write_index,
};

/// A reproduction: its title and the library call that runs it.
type Reproduction = (&'static str, fn() -> lieode::Result<Report>);

fn main() -> lieode::Result<ExitCode> {
    let runs: [Reproduction; 10] = [
        ("group tour", group_tour),
        ("Hairer's reference runs", hairer_reference),
        ("convergence demo", convergence_demo),
        ("work–precision demo", work_precision_demo),
        ("SPIRAL paper (del Valle et al. 2024)", spiral_paper),
        ("Krysl's paper (2007)", krysl_paper),
        ("Boyle's paper (2017)", boyle_paper),
        ("many bodies: SPIRAL throughput", many_bodies),
        ("Seelen et al.'s PCDM paper (2016)", seelen_paper),
        ("SPIRAL §5: chess pieces' energy (reduced)", spiral_energy),
    ];
    let mut reports = Vec::new();
    for (title, run) in runs {
        let start = std::time::Instant::now();
        let report = run()?;
        println!(
            "== {title} ({:.1} s, {} files)",
            start.elapsed().as_secs_f64(),
            report.artifacts.len()
        );
        print!("{}", report.summary);
        reports.push(report);
    }
    let index = write_index(&reports)?;
    println!("\nSummary:");
    println!("{:<24} {:>6}", "reproduction", "files");
    for r in &reports {
        println!("{:<24} {:>6}", r.name, r.artifacts.len());
    }
    println!("index: {}", index.display());

    let unreported = unreported_tables(&reports);
    for table in &unreported {
        println!("NOT WRITTEN {table}: listed in doc_figures::REPRODUCTION_TABLES");
    }
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let check = check_docs(&docs, &output_root())?;
    print!("\n{check}");
    if check.passed() && unreported.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        println!(
            "the documentation no longer matches this run: regenerate the figures above (or fix \
             the reproduction)"
        );
        Ok(ExitCode::FAILURE)
    }
}
