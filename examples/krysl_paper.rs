//! Krysl's paper (*Dynamically equivalent implicit algorithms for the integration of rigid body
//! rotations*, Commun. Numer. Meth. Engng 24 (2008), online 2007), §5: the convergence studies
//! of Figs. 1–3 (free body, slow and fast Lagrangian top), the long-run Hamiltonian of Figs. 4–5
//! (Coulombic well with a soft wall) and a work–precision comparison of IMIDM with RKMK4,
//! SPIRAL and DOP853. Writes `convergence.csv`, `final_states.csv`, `hamiltonian.csv`,
//! `work_precision.csv`, `orders.csv`, `hamiltonian_summary.csv` and the figures under
//! `target/lieode/krysl_paper/` (or `$LIEODE_OUT/krysl_paper/`) and prints the measured orders, Hamiltonian maxima and costs.
//!
//! ```text
//! cargo run --release --example krysl_paper
//! ```

fn main() -> lieode::Result<()> {
    let start = std::time::Instant::now();
    let report = lieode::reproduce::krysl::krysl_paper()?;
    print!("{}", report.summary);
    for artifact in &report.artifacts {
        println!("wrote {}", artifact.path.display());
    }
    println!("({:.1} s)", start.elapsed().as_secs_f64());
    Ok(())
}
