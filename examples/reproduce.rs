//! The main job: regenerate every table and figure the library reproduces, on built-in
//! defaults, and list them in `target/lieode/index.md`.
//!
//! ```text
//! cargo run --release --example reproduce
//! ```
//!
//! Runs the group tour and Hairer's reference runs; each paper reproduction adds itself here.

use lieode::hairer_reference::{hairer_reference_csv, hairer_reference_rows};
use lieode::output::{output_dir, output_root, write_file};
use lieode::tour::{group_tour, tour_csv, tour_table};

fn main() -> lieode::Result<()> {
    let mut index = String::from("# lieode outputs\n\n");

    let rows = group_tour()?;
    print!("{}", tour_table(&rows));
    let path = output_dir("group_tour")?.join("group_tour.csv");
    write_file(&path, &tour_csv(&rows))?;
    index.push_str(
        "- `group_tour/group_tour.csv`: SO(3) as matrices, unit quaternions and the generic matrix \
         group, compared map by map (compose, log, dexp⁻¹) over angles 1e-8 … π, with the error of \
         the order-4 truncated dexp⁻¹ series.\n",
    );

    let rows = hairer_reference_rows()?;
    let counts = output_dir("hairer_reference")?.join("counts.csv");
    write_file(&counts, &hairer_reference_csv(&rows))?;
    println!(
        "Hairer reference runs: {} rows written to {}",
        rows.len(),
        counts.display()
    );
    index.push_str(
        "- `hairer_reference/counts.csv`: DOPRI5, DOP853 and ODEX on the Arenstorf orbit and Van der \
         Pol's equation (ε = 1e-3, 0.1) at tol 1e-4 … 1e-10, dense output off/on: Hairer's \
         statistics (identical to his Fortran codes) and final values.\n",
    );

    let index_path = output_root().join("index.md");
    write_file(&index_path, &index)?;
    println!("wrote {} and {}", path.display(), index_path.display());
    Ok(())
}
