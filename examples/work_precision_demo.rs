//! Fixed-step (RKMK4, RKMK5, CF4) and adaptive (DOPRI5, DOP853, ODEX lifted to the group)
//! methods on the torque-driven rigid body on SO(3) × ℝ³: error against right-hand-side
//! evaluations and against median wall time.
//!
//! Writes `error_vs_evaluations.*`, `error_vs_time.*`, `fixed_step.csv` and `adaptive.csv`
//! under `target/lieode/work_precision_demo/` (or `$LIEODE_OUT/work_precision_demo/`) and
//! prints the work each method needs for an error of 1e-8. Runs in a few seconds (each point is
//! timed until its median is stable).
//!
//! ```text
//! cargo run --release --example work_precision_demo
//! ```

fn main() -> lieode::Result<()> {
    let report = lieode::reproduce::work_precision_demo()?;
    print!("{}", report.summary);
    for artifact in &report.artifacts {
        println!("wrote {}", artifact.path.display());
    }
    Ok(())
}
