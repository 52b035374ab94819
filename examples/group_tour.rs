//! The group tour: SO(3) as rotation matrices, as unit quaternions and as the generic matrix
//! group SO(3), compared map by map over rotation angles from 1e-8 to π.
//!
//! Prints a table and writes `group_tour.csv` under `target/lieode/group_tour/` (or
//! `$LIEODE_OUT/group_tour/`). Runs in well under a second.
//!
//! ```text
//! cargo run --release --example group_tour
//! ```

use lieode::output::{output_dir, write_file};
use lieode::tour::{group_tour, tour_csv, tour_table};

fn main() -> lieode::Result<()> {
    let rows = group_tour()?;
    println!("Max-norm deviations from the closed-form So3 maps:");
    print!("{}", tour_table(&rows));
    let path = output_dir("group_tour")?.join("group_tour.csv");
    write_file(&path, &tour_csv(&rows))?;
    println!("wrote {}", path.display());
    Ok(())
}
