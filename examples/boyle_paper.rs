//! Boyle's paper (*The integration of angular velocity*, Adv. Appl. Clifford Algebras 27
//! (2017)), §VI and Appendix: the precessing binary integrated in every rotation formulation
//! with DOP853 and ODEX (Figs. 2–4), the Zupan–Saje rotations (Fig. 5) and numpy-quaternion's
//! binary. Writes `max_error.csv`, `final_states.csv`, `numpy_quaternion.csv`, `efficiency.csv`
//! and the figures under `target/lieode/boyle_paper/` (or `$LIEODE_OUT/boyle_paper/`) and prints
//! the paper's statements, each as measured.
//!
//! ```text
//! cargo run --release --example boyle_paper
//! ```

fn main() -> lieode::Result<()> {
    let start = std::time::Instant::now();
    let report = lieode::reproduce::boyle::boyle_paper()?;
    print!("{}", report.summary);
    for artifact in &report.artifacts {
        println!("wrote {}", artifact.path.display());
    }
    println!("({:.1} s)", start.elapsed().as_secs_f64());
    Ok(())
}
