//! The SPIRAL paper's benchmark (del Valle et al., CPC 297 (2024) 109077): the torque-driven
//! cylinder integrated by every method of the rotational catalogue, measured as the published
//! benchmark measured it. Writes `dt_error.csv`, `table2.csv`, `error_time.csv`,
//! `step_cost.csv`, `speedup.csv` and the figures under `target/lieode/spiral_paper/` (or
//! `$LIEODE_OUT/spiral_paper/`) and prints Table 2 beside the paper's.
//!
//! ```text
//! cargo run --release --example spiral_paper
//! ```

fn main() -> lieode::Result<()> {
    let start = std::time::Instant::now();
    let report = lieode::reproduce::spiral_paper()?;
    print!("{}", report.summary);
    for artifact in &report.artifacts {
        println!("wrote {}", artifact.path.display());
    }
    println!("({:.1} s)", start.elapsed().as_secs_f64());
    Ok(())
}
