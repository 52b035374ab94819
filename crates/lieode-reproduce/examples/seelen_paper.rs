//! Seelen, Padding and Kuipers (2016), §3: the improved PCDM scheme, the original PCDM and the
//! six-degree-of-freedom catalogue on the paper's four tests. Writes the figures, `table1.csv`,
//! `convergence.csv`, `top.csv` and `orders.csv` under `target/lieode/seelen_paper/` (or
//! `$LIEODE_OUT`).
//!
//! ```text
//! cargo run --release --example seelen_paper            # steps down to 1e-7 s
//! cargo run --release --example seelen_paper -- --full  # down to 1e-8 s, as the paper
//! ```

use lieode_reproduce::seelen_report::{SeelenSettings, seelen_paper_with};

fn main() -> lieode_reproduce::Result<()> {
    let full = std::env::args().any(|a| a == "--full");
    let settings = if full {
        SeelenSettings::full()
    } else {
        SeelenSettings::quick()
    };
    let report = seelen_paper_with(settings)?;
    print!("{}", report.summary);
    for artifact in &report.artifacts {
        println!("wrote {}", artifact.path.display());
    }
    Ok(())
}
