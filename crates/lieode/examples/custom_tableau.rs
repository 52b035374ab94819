//! A user-defined tableau, written here as data, checked by the order-condition tool and run
//! through the Munthe-Kaas and Crouch–Grossman engines on SO(3).
//!
//! The coefficients are Crouch and Grossman's third-order method; the "broken" set swaps
//! `a₃₁` and `a₃₂` (row sums unchanged — the mistake found in a widely used package). The
//! order conditions computed from the stored coefficients tell them apart before anything
//! runs, and the measured orders on a nonlinear, time-dependent ODE on the sphere solved through
//! SO(3) (`lieode::problems::SphereProblem`, exact solution known) confirm it. (A linear
//! problem `y' = A(t) y` would not: its generator ignores the stage values, so a
//! Crouch–Grossman method's `a_ij` never enter.)
//!
//! ```text
//! cargo run --release --example custom_tableau
//! ```

use lieode::engine::Fixed;
use lieode::engine::{CommutatorFree, MuntheKaas, Step};
use lieode::integrate::{Options, Record, integrate};
use lieode::lie::LieGroup;
use lieode::lie::so3::So3;
use lieode::order::convergence_study;
use lieode::problems::SphereProblem;
use lieode::stepper::Span;
use lieode::tableau::order_conditions::{Weights, achieved_crouch_grossman_order, achieved_order};
use lieode::tableau::{ButcherTableau, Family};

fn crouch_grossman_3(name: &'static str, a31: f64, a32: f64) -> lieode::Result<ButcherTableau> {
    ButcherTableau::new(
        name,
        vec![
            vec![0.0, 0.0, 0.0],
            vec![3.0 / 4.0, 0.0, 0.0],
            vec![a31, a32, 0.0],
        ],
        vec![13.0 / 51.0, -2.0 / 3.0, 24.0 / 17.0],
        vec![0.0, 3.0 / 4.0, 17.0 / 24.0],
        3,
    )?
    .with_family(Family::CrouchGrossman)
}

/// The observed order of a method on `SphereProblem` over t ∈ [0, 2], with its finest error.
fn measured<M: Step<SphereProblem, State = So3, Scalar = f64>>(
    mut make: impl FnMut() -> M,
) -> lieode::Result<(f64, f64)> {
    let problem = SphereProblem::default();
    let exact = problem.exact_point(2.0);
    let study = convergence_study(2.0, &[40, 80, 160, 320], |n| {
        let mut method = make();
        let mut p = problem;
        let sol = integrate(
            &mut Fixed::new(&mut method),
            &mut p,
            &So3::identity(),
            &Span::steps(0.0, 2.0, n).unwrap(),
            Options::record(Record::Ends),
        )?;
        Ok((
            (problem.point_of(&sol.states[1]) - exact).norm(),
            sol.stats.rhs_evaluations,
        ))
    })?;
    Ok((study.order, study.errors[study.errors.len() - 1]))
}

fn main() -> lieode::Result<()> {
    let correct = crouch_grossman_3("CG3 (as published)", 119.0 / 216.0, 17.0 / 108.0)?;
    let broken = crouch_grossman_3("CG3 with a31, a32 swapped", 17.0 / 108.0, 119.0 / 216.0)?;

    println!(
        "{:<28} {:>9} {:>9} | {:>14} {:>14}",
        "tableau", "RK order", "CG order", "MK measured", "CG measured"
    );
    for tableau in [&correct, &broken] {
        let classical = achieved_order(tableau, Weights::Main, 1e-12)?;
        let cg = achieved_crouch_grossman_order(tableau, Weights::Main, 1e-12)?;
        let (mk_order, mk_error) = measured(|| MuntheKaas::<So3>::new(tableau).expect("explicit"))?;
        // The engine refuses coefficients that fail the Crouch–Grossman conditions, so the
        // broken set is run through the unverified constructor to show what it would do.
        let (cg_order, cg_error) = match tableau.validate_crouch_grossman() {
            Ok(()) => measured(|| CommutatorFree::<So3>::crouch_grossman(tableau).expect("valid"))?,
            Err(e) => {
                println!("  refused by the Crouch–Grossman engine: {e}");
                measured(|| {
                    CommutatorFree::<So3>::crouch_grossman_unverified(tableau).expect("explicit")
                })?
            }
        };
        println!(
            "{:<28} {:>9} {:>9} | {:>5.2} ({:.1e}) {:>5.2} ({:.1e})",
            tableau.name, classical, cg, mk_order, mk_error, cg_order, cg_error
        );
    }
    println!(
        "(measured = least-squares slope of the final error over h = 2/40 … 2/320; error at h = 2/320)"
    );
    Ok(())
}
