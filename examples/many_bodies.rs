//! Throughput of the many-body layer: SPIRAL leapfrog with leapfrog translation on 10³ … 10⁶
//! free bodies under gravity and drag, on 1 and 2 threads, beside the copy bandwidth and the
//! single-body SPIRAL step. Writes `throughput.csv` and its figure under
//! `target/lieode/many_bodies/` (or `$LIEODE_OUT/many_bodies/`).
//!
//! ```text
//! cargo run --release --example many_bodies
//! ```

fn main() -> lieode::Result<()> {
    let start = std::time::Instant::now();
    let report = lieode::reproduce::many_bodies()?;
    print!("{}", report.summary);
    for artifact in &report.artifacts {
        println!("wrote {}", artifact.path.display());
    }
    println!("({:.1} s)", start.elapsed().as_secs_f64());
    Ok(())
}
