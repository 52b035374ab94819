//! The main job: regenerate every table and figure the library reproduces, on built-in
//! defaults, and list them in `target/lieode/index.md` (or `$LIEODE_OUT/index.md`).
//!
//! ```text
//! cargo run --release --example reproduce                       # all of them (about 90 s)
//! cargo run --release --example reproduce -- spiral_paper       # one, or several, by name
//! cargo run --release --example reproduce -- --list             # the names
//! ```
//!
//! Each reproduction is a library call of [`lieode_reproduce`] listed in
//! [`lieode_reproduce::REPRODUCTIONS`]; every paper reproduction adds itself there. A progress
//! bar (on a terminal; plain lines otherwise, on standard error) shows the elapsed time and an
//! estimate of what remains.
//!
//! At the end the run checks the documentation against itself
//! ([`lieode_reproduce::doc_check`]): every figure of a marked table in `docs/` whose
//! reproduction ran must equal the value this run wrote, rounded to the digits the document
//! prints. The run exits with status 1 listing every figure that drifted (document, table, row,
//! column, documented and measured), or every table the reproductions were expected to write
//! and did not.

use std::path::Path;
use std::process::ExitCode;

use lieode_reproduce::doc_check::{check_docs, unreported_tables};
use lieode_reproduce::output::output_root;
use lieode_reproduce::progress::Progress;
use lieode_reproduce::{REPRODUCTIONS, Reproduction, write_index};

fn main() -> lieode_reproduce::Result<ExitCode> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--list") {
        for r in &REPRODUCTIONS {
            println!("{:<22} {}", r.name, r.title);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let chosen: Vec<&Reproduction> = if args.is_empty() {
        REPRODUCTIONS.iter().collect()
    } else {
        let mut chosen = Vec::new();
        for name in &args {
            match REPRODUCTIONS.iter().find(|r| r.name == name) {
                Some(r) => chosen.push(r),
                None => {
                    eprintln!("no reproduction named `{name}`; `--list` names them");
                    return Ok(ExitCode::FAILURE);
                }
            }
        }
        chosen
    };

    let total = chosen.iter().map(|r| r.nominal_cost).sum();
    let progress = Progress::new("reproduce", total);
    let mut reports = Vec::new();
    for r in &chosen {
        let start = std::time::Instant::now();
        let report = {
            let _section = progress.section(r.nominal_cost, r.name);
            (r.run)()?
        };
        progress.println(&format!(
            "== {} ({:.1} s, {} files)\n{}",
            r.title,
            start.elapsed().as_secs_f64(),
            report.artifacts.len(),
            report.summary
        ));
        reports.push(report);
    }
    progress.finish();

    let index = write_index(&reports)?;
    println!("\nSummary:");
    println!("{:<24} {:>6}", "reproduction", "files");
    for r in &reports {
        println!("{:<24} {:>6}", r.name, r.artifacts.len());
    }
    println!("index: {}", index.display());

    let unreported = unreported_tables(&reports);
    for table in &unreported {
        println!("NOT WRITTEN {table}: listed in doc_check::REPRODUCTION_TABLES");
    }
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
    let ran: Vec<&str> = chosen.iter().map(|r| r.name).collect();
    let check = check_docs(&docs, &output_root(), &ran)?;
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
