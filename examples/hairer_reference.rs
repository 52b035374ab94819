//! DOPRI5, DOP853 and ODEX on Hairer's test problems, with his codes' statistics.
//!
//! Writes `target/lieode/hairer_reference/counts.csv` (or under `$LIEODE_OUT`) with the columns
//! `solver,problem,tol,dense,nfcn,nstep,naccpt,nrejct,y1,y2` and prints the table. The same
//! numbers from Hairer's Fortran codes are asserted in `tests/hairer_dopri.rs` and
//! `tests/hairer_odex.rs`: every count is identical and the final values agree bit for bit.
//!
//! ```text
//! cargo run --release --example hairer_reference
//! ```

use lieode::hairer_reference::{
    hairer_reference_csv, hairer_reference_rows, hairer_reference_table,
};
use lieode::output::{output_dir, write_file};

fn main() -> lieode::Result<()> {
    let rows = hairer_reference_rows()?;
    print!("{}", hairer_reference_table(&rows));
    let path = output_dir("hairer_reference")?.join("counts.csv");
    write_file(&path, &hairer_reference_csv(&rows))?;
    println!("wrote {}", path.display());
    Ok(())
}
