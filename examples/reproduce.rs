//! The main job: regenerate every table and figure the library reproduces, on built-in
//! defaults, and list them in `target/lieode/index.md`.
//!
//! ```text
//! cargo run --release --example reproduce
//! ```
//!
//! For now it runs the group tour; each paper reproduction adds itself here.

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

    let index_path = output_root().join("index.md");
    write_file(&index_path, &index)?;
    println!("wrote {} and {}", path.display(), index_path.display());
    Ok(())
}
