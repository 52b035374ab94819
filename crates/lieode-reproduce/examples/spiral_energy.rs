//! The SPIRAL paper's many-particle energy test (§5, Fig. 7): 32 chess pieces of overlapping
//! spheres bouncing in a box with Hertz contacts. Writes `energy.csv`, `cost.csv` and the
//! figure under `target/lieode/spiral_energy/` (or `$LIEODE_OUT`).
//!
//! ```text
//! cargo run --release --example spiral_energy                 # 0.05 s, 2 seeds (as in reproduce)
//! cargo run --release --example spiral_energy -- --full       # the paper's 1.5 s, 50 seeds (hours)
//! cargo run --release --example spiral_energy -- --duration 0.3 --runs 4
//! cargo run --release --example spiral_energy -- --duration 1.5 --runs 16 --steps 5 \
//!     --methods spiral_leapfrog,omelyan,fincham,velocity_verlet --spin 30
//! ```
//!
//! `--steps n` runs Δt = 2e-5 s and its `n − 1` halvings; `--spin` sets the initial angular
//! speed (rad/s, the paper's π by default); `--methods` a comma-separated list of the schemes.

use lieode_reproduce::spiral_energy::{EnergySettings, halvings};
use lieode_reproduce::spiral_energy_report::spiral_energy_with;

/// The value after `flag` on the command line, parsed.
fn option<T: std::str::FromStr>(args: &[String], flag: &str) -> Option<T> {
    let i = args.iter().position(|a| a == flag)?;
    args.get(i + 1)?.parse().ok()
}

fn main() -> lieode_reproduce::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let mut settings = if args.iter().any(|a| a == "--full") {
        EnergySettings::full()
    } else {
        EnergySettings::quick()
    };
    if let Some(duration) = option(&args, "--duration") {
        settings.duration = duration;
    }
    if let Some(runs) = option(&args, "--runs") {
        settings.runs = runs;
    }
    if let Some(steps) = option::<usize>(&args, "--steps") {
        settings.steps = halvings(steps);
    }
    if let Some(spin) = option(&args, "--spin") {
        settings.spin = spin;
    }
    if let Some(methods) = option::<String>(&args, "--methods") {
        settings.methods = methods.split(',').map(str::to_owned).collect();
    }
    let report = spiral_energy_with(&settings)?;
    print!("{}", report.summary);
    for artifact in &report.artifacts {
        println!("wrote {}", artifact.path.display());
    }
    Ok(())
}
