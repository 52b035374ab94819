//! The SPIRAL paper's many-particle energy test (§5, Fig. 7): 32 chess pieces of overlapping
//! spheres bouncing in a box with Hertz contacts. Writes `energy.csv`, `cost.csv` and the
//! figure under `target/lieode/spiral_energy/` (or `$LIEODE_OUT`).
//!
//! ```text
//! cargo run --release --example spiral_energy            # 0.05 s, 2 seeds (as in reproduce)
//! cargo run --release --example spiral_energy -- --full  # the paper's 1.5 s, 50 seeds (hours)
//! ```

use lieode::reproduce::spiral_energy::EnergySettings;
use lieode::reproduce::spiral_energy_report::spiral_energy_with;

fn main() -> lieode::Result<()> {
    let settings = if std::env::args().any(|a| a == "--full") {
        EnergySettings::full()
    } else {
        EnergySettings::quick()
    };
    let report = spiral_energy_with(&settings)?;
    print!("{}", report.summary);
    for artifact in &report.artifacts {
        println!("wrote {}", artifact.path.display());
    }
    Ok(())
}
