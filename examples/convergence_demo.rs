//! Orders of Munthe-Kaas methods built from five explicit tableaux (Euler, Heun, Kutta3, RK4,
//! DOPRI5's 5th-order weights) on the torque-driven rigid body on SO(3) × ℝ³, measured against
//! its exact solution.
//!
//! Writes `convergence.png`/`.svg`/`.csv`, `errors.csv` and `orders.csv` under
//! `target/lieode/convergence_demo/` (or `$LIEODE_OUT/convergence_demo/`) and prints the
//! observed orders. Runs in about a second.
//!
//! ```text
//! cargo run --release --example convergence_demo
//! ```

fn main() -> lieode::Result<()> {
    let report = lieode::reproduce::convergence_demo()?;
    print!("{}", report.summary);
    for artifact in &report.artifacts {
        println!("wrote {}", artifact.path.display());
    }
    Ok(())
}
