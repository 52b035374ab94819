//! A user-defined tableau, written here as data, checked by the order-condition tool and run
//! through the Munthe-Kaas and Crouch–Grossman engines on SO(3).
//!
//! The coefficients are Crouch and Grossman's third-order method (CG3); the "broken" copy swaps
//! `a₃₁` and `a₃₂` (row sums unchanged — the mistake found in a widely used package). The example
//! prints:
//!
//! 1. the published CG3 accepted at its declared order 3, with the classical and the
//!    Crouch–Grossman orders the order-condition tool finds in its coefficients;
//! 2. the broken copy, declared order 3, **refused** at construction: the error
//!    (`Error::InvalidTableau`) names the first violated condition and its residual;
//! 3. the orders the broken coefficients really reach (asked of the tool on a tableau that
//!    declares only order 1, which every consistent tableau has), the broken copy rebuilt
//!    declaring them, and a table of the predicted orders next to the measured ones (least-squares
//!    slope of the final error over `h = 2/40 … 2/320`) for both coefficient sets in both engines,
//!    on a nonlinear, time-dependent ODE on the sphere solved through SO(3)
//!    (`lieode::problems::SphereProblem`, exact solution known). (A linear problem `y' = A(t) y`
//!    would not tell the engines apart: its generator ignores the stage values, so a
//!    Crouch–Grossman method's `a_ij` never enter.)
//!
//! ```text
//! cargo run --release --example custom_tableau
//! ```

use lieode::Error;
use lieode::engine::{CommutatorFree, Fixed, MuntheKaas, Step};
use lieode::integrate::{Options, Record, integrate};
use lieode::lie::LieGroup;
use lieode::lie::so3::So3;
use lieode::order::convergence_study;
use lieode::problems::SphereProblem;
use lieode::stepper::Span;
use lieode::tableau::order_conditions::{
    ORDER_CONDITION_TOLERANCE, Weights, achieved_crouch_grossman_order, achieved_order,
};
use lieode::tableau::{ButcherTableau, Family};

const PUBLISHED: &str = "CG3 (as published)";
const BROKEN: &str = "CG3 with a31, a32 swapped";
/// The published `a₃₁`, `a₃₂` of CG3.
const A31: f64 = 119.0 / 216.0;
const A32: f64 = 17.0 / 108.0;

/// CG3's coefficients with the given third row, declared of classical order `order`.
fn cg3_coefficients(
    name: &'static str,
    a31: f64,
    a32: f64,
    order: usize,
) -> lieode::Result<ButcherTableau> {
    ButcherTableau::new(
        name,
        vec![
            vec![0.0, 0.0, 0.0],
            vec![3.0 / 4.0, 0.0, 0.0],
            vec![a31, a32, 0.0],
        ],
        vec![13.0 / 51.0, -2.0 / 3.0, 24.0 / 17.0],
        vec![0.0, 3.0 / 4.0, 17.0 / 24.0],
        order,
    )
}

/// The same, declared a Crouch–Grossman method of order `order` (which checks the
/// Crouch–Grossman conditions as well).
fn cg3(name: &'static str, a31: f64, a32: f64, order: usize) -> lieode::Result<ButcherTableau> {
    cg3_coefficients(name, a31, a32, order)?.with_family(Family::CrouchGrossman)
}

/// The classical and the Crouch–Grossman order of a tableau's main weights.
fn orders(tableau: &ButcherTableau) -> lieode::Result<(usize, usize)> {
    Ok((
        achieved_order(tableau, Weights::Main, ORDER_CONDITION_TOLERANCE)?,
        achieved_crouch_grossman_order(tableau, Weights::Main, ORDER_CONDITION_TOLERANCE)?,
    ))
}

/// The observed order of a method on `SphereProblem` over t ∈ [0, 2] and its finest error.
fn measured<M: Step<SphereProblem, State = So3, Scalar = f64>>(
    mut make: impl FnMut() -> lieode::Result<M>,
) -> lieode::Result<(f64, f64)> {
    let problem = SphereProblem::default();
    let exact = problem.exact_point(2.0);
    let study = convergence_study(2.0, &[40, 80, 160, 320], |n| {
        let mut method = Fixed::new(make()?);
        let sol = integrate(
            &mut method,
            &mut problem.clone(),
            &So3::identity(),
            &Span::steps(0.0, 2.0, n)?,
            Options::record(Record::Ends),
        )?;
        let (_, end) = sol.last().ok_or(Error::InvalidParameter {
            name: "solution",
            value: "no final state".into(),
            expected: "a recorded final state".into(),
        })?;
        Ok((
            (problem.point_of(end) - exact).norm(),
            sol.stats.rhs_evaluations,
        ))
    })?;
    let finest = study.errors.last().copied().unwrap_or(f64::NAN);
    Ok((study.order, finest))
}

fn main() -> lieode::Result<()> {
    // 1. The published coefficients, declared third order: accepted.
    let published = cg3(PUBLISHED, A31, A32, 3)?;
    let (rk, cg) = orders(&published)?;
    println!("1. `{PUBLISHED}`, declared order 3: accepted");
    println!("   order conditions met: classical order {rk}, Crouch–Grossman order {cg}");

    // 2. The swapped copy, declared third order: refused before anything runs.
    println!("\n2. `{BROKEN}`, declared order 3:");
    match cg3(BROKEN, A32, A31, 3) {
        Ok(_) => println!("   accepted: the order check did not catch the swap"),
        Err(Error::InvalidTableau { name, reason }) => {
            println!("   refused at construction: Error::InvalidTableau for `{name}`:");
            println!("   {reason}");
        }
        Err(other) => return Err(other),
    }

    // 3. What the swapped coefficients do satisfy: declare order 1 (consistency only), ask the
    //    order-condition tool, and rebuild declaring exactly what it found.
    let probe = cg3_coefficients(BROKEN, A32, A31, 1)?;
    let (broken_rk, broken_cg) = orders(&probe)?;
    println!(
        "\n3. the swapped coefficients meet the conditions of classical order {broken_rk} and \
         Crouch–Grossman order {broken_cg}"
    );
    let broken_classical = cg3_coefficients(BROKEN, A32, A31, broken_rk)?;
    let broken_crouch_grossman = cg3(BROKEN, A32, A31, broken_cg)?;
    println!(
        "   rebuilt declaring classical order {broken_rk} (for Munthe-Kaas) and Crouch–Grossman \
         order {broken_cg}: accepted"
    );

    println!(
        "\n{:<27} {:<16} {:>9} {:>9} {:>14}",
        "coefficients", "engine", "predicted", "measured", "error h=2/320"
    );
    let rows = [
        (PUBLISHED, &published, &published, rk, cg),
        (
            BROKEN,
            &broken_classical,
            &broken_crouch_grossman,
            broken_rk,
            broken_cg,
        ),
    ];
    for (name, classical, crouch_grossman, rk, cg) in rows {
        let (mk_order, mk_error) = measured(|| MuntheKaas::<So3>::new(classical))?;
        println!(
            "{name:<27} {:<16} {rk:>9} {mk_order:>9.2} {mk_error:>14.2e}",
            "Munthe-Kaas"
        );
        let (cg_order, cg_error) =
            measured(|| CommutatorFree::<So3>::crouch_grossman(crouch_grossman))?;
        println!(
            "{name:<27} {:<16} {cg:>9} {cg_order:>9.2} {cg_error:>14.2e}",
            "Crouch–Grossman"
        );
    }
    println!(
        "(predicted = order from the order conditions; measured = least-squares slope of the \
         error at t = 2 over h = 2/40, 2/80, 2/160, 2/320)"
    );
    Ok(())
}
