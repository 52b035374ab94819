//! The SPIRAL paper's Table 2 (del Valle et al., CPC 297 (2024) 109077): the time step at which
//! each method reaches the averaged target error `½(err_q + err_ω)` after 1 s on the torque-driven
//! cylinder, measured with the published benchmark's protocol, reproduced to three significant
//! digits for every row of the paper.

use lieode::problems::cylinder::{SpiralCylinder, benchmark_step_sizes};
use lieode_reproduce::spiral::{PAPER_TABLE2, TABLE2_TARGETS, benchmark_point};
use lieode_study::experiment::step_for_error;

#[test]
fn table2_is_reproduced_to_three_significant_digits() {
    let problem = SpiralCylinder::paper().unwrap();
    let grid = benchmark_step_sizes();
    for (name, published) in PAPER_TABLE2 {
        for (target, paper_dt) in TABLE2_TARGETS.iter().zip(published) {
            // Only the two grid points around the published step enter the interpolation.
            let above = grid.iter().position(|&dt| dt > paper_dt).unwrap();
            let pair = [grid[above - 1], grid[above]];
            let errors: Vec<f64> = pair
                .iter()
                .map(|&dt| benchmark_point(&problem, name, dt).unwrap().averaged())
                .collect();
            let dt = step_for_error(&pair, &errors, *target).unwrap();
            let relative = (dt - paper_dt) / paper_dt;
            assert!(
                relative.abs() < 1e-3,
                "{name}, target {target:e}: {dt:.4e} vs the paper's {paper_dt:.3e} ({relative:.1e})"
            );
        }
    }
}
