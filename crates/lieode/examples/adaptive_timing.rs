//! DOP853 and DOPRI5 against the peer crate `ode_solvers`, timed interleaved.
//!
//! On a shared machine two criterion runs of the same code minutes apart can differ by ±20 %.
//! This example runs the contestants in turn, round after round (each sample 20 whole
//! integrations of the Arenstorf orbit), so that a slow phase of the machine hits them all, and
//! reports the median sample of each and its ratio to `ode_solvers`:
//!
//! ```text
//! cargo run --release --example adaptive_timing [-- ROUNDS]
//! ```
//!
//! Contestants: lieode with Hairer's summation ([`Summation::Hairer`], bit-identical to the
//! Fortran codes), lieode with its default, the latency-ordered summation, and `ode_solvers`
//! 0.6.2 with Hairer's parameters; tolerances 1e-6, 1e-9 and 1e-12; the distance cubes
//! `r²·√r²`. Then the free rigid body (t ∈ [0, 100], tol 1e-10): DOP853 on the ambient rotor ℝ⁷
//! (lieode both summations, ode_solvers) and lifted to UnitQuat × ℝ³ (the default summation) in
//! the exponential and the Cayley chart.
#![allow(clippy::excessive_precision)]

use std::hint::black_box;
use std::time::Instant;

use lieode::adaptive::{
    ControllerParameters, Dop853, Dopri5, LieStepper, Summation, Tolerances, VectorStepper,
};
use lieode::integrate::{Options, integrate};
use lieode::lie::coordinates::CayleyMap;
use lieode::stepper::Span;
use nalgebra::SVector;

#[path = "../benches/common/contest.rs"]
mod contest;
use contest::*;

/// Whole integrations per timed sample.
const BATCH: usize = 20;

/// One whole free-body integration by contestant `which`; returns the evaluations made.
fn run_body(which: usize, t: &Tolerances, tol: f64) -> lieode::Result<usize> {
    let span = Span::new(0.0, BODY_END)?;
    let mut f = |_t: f64, y: &SVector<f64, 7>| {
        SVector::<f64, 7>::from(free_body(&std::array::from_fn(|i| y[i])))
    };
    let y0 = body_y0();
    let lie_y0 = lie_body_y0();
    Ok(match which {
        0 => {
            let m = Dop853::new(t.clone(), ControllerParameters::dop853())?
                .with_summation(Summation::Hairer);
            integrate(
                &mut VectorStepper::new(m),
                &mut f,
                &y0,
                &span,
                Options::default(),
            )?
            .stats
            .rhs_evaluations
        }
        1 => {
            let m = Dop853::new(t.clone(), ControllerParameters::dop853())?;
            integrate(
                &mut VectorStepper::new(m),
                &mut f,
                &y0,
                &span,
                Options::default(),
            )?
            .stats
            .rhs_evaluations
        }
        2 => peer_dop853_body(tol) as usize,
        3 => {
            integrate(
                &mut LieStepper::new(Dop853::new(t.clone(), ControllerParameters::dop853())?),
                &mut LieBody,
                &lie_y0,
                &span,
                Options::default(),
            )?
            .stats
            .rhs_evaluations
        }
        _ => {
            integrate(
                &mut LieStepper::new(Dop853::new(t.clone(), ControllerParameters::dop853())?)
                    .with_chart::<CayleyMap>(),
                &mut LieBody,
                &lie_y0,
                &span,
                Options::default(),
            )?
            .stats
            .rhs_evaluations
        }
    })
}

/// One whole Arenstorf integration by contestant `which`; returns the evaluations made.
fn run(which: usize, t: &Tolerances, tol: f64) -> lieode::Result<usize> {
    let hairer = Summation::Hairer;
    let rhs = arenstorf_sqrt;
    Ok(match which {
        0 => ours_arenstorf(
            rhs,
            Dop853::new(t.clone(), ControllerParameters::dop853())?.with_summation(hairer),
        ),
        1 => ours_arenstorf(rhs, Dop853::new(t.clone(), ControllerParameters::dop853())?),
        2 => peer_dop853_arenstorf(rhs, tol) as usize,
        3 => ours_arenstorf(
            rhs,
            Dopri5::new(t.clone(), ControllerParameters::dopri5())?.with_summation(hairer),
        ),
        4 => ours_arenstorf(rhs, Dopri5::new(t.clone(), ControllerParameters::dopri5())?),
        _ => peer_dopri5_arenstorf(rhs, tol) as usize,
    })
}

/// The median time (µs per integration) of each of `count` contestants over `rounds` rounds in
/// which they run in turn, each `BATCH` times; `run(which)` is one integration by contestant
/// `which`.
fn interleaved_medians(
    count: usize,
    rounds: usize,
    mut run: impl FnMut(usize) -> lieode::Result<usize>,
) -> lieode::Result<Vec<f64>> {
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); count];
    for _ in 0..rounds {
        for (which, s) in samples.iter_mut().enumerate() {
            let start = Instant::now();
            for _ in 0..BATCH {
                black_box(run(which)?);
            }
            s.push(start.elapsed().as_secs_f64() / BATCH as f64 * 1e6);
        }
    }
    Ok(samples
        .iter_mut()
        .map(|s| {
            s.sort_by(f64::total_cmp);
            s[s.len() / 2]
        })
        .collect())
}

fn main() -> lieode::Result<()> {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(150)
        .max(1);
    let names = [
        "lieode Dop853 Hairer's summation",
        "lieode Dop853 (default: latency-ordered)",
        "ode_solvers Dop853",
        "lieode Dopri5 Hairer's summation",
        "lieode Dopri5 (default: latency-ordered)",
        "ode_solvers Dopri5",
    ];
    println!("median of {rounds} interleaved samples of {BATCH} integrations (Arenstorf, r²·√r²)");
    for tol in [1e-6, 1e-9, 1e-12] {
        let t = Tolerances::scalar(tol, tol)?;
        let median =
            interleaved_medians(names.len(), rounds, |which| run(which, &t, black_box(tol)))?;
        for (which, name) in names.iter().enumerate() {
            let peer = if which < 3 { 2 } else { 5 };
            println!(
                "tol {tol:e}  {name:42} {:8.2} µs  {:.3} × ode_solvers",
                median[which],
                median[which] / median[peer]
            );
        }
    }
    let names = [
        "lieode Dop853 ambient, Hairer's summation",
        "lieode Dop853 ambient (default)",
        "ode_solvers Dop853 ambient",
        "lieode Dop853 lifted, exponential chart",
        "lieode Dop853 lifted, Cayley chart",
    ];
    let tol = 1e-10;
    let t = Tolerances::scalar(tol, tol)?;
    let median = interleaved_medians(names.len(), rounds, |which| {
        run_body(which, &t, black_box(tol))
    })?;
    println!("free rigid body, t = 100, tol 1e-10");
    for (which, name) in names.iter().enumerate() {
        println!(
            "{name:42} {:8.2} µs  {:.3} × ode_solvers  {:.3} × lieode ambient (default)",
            median[which],
            median[which] / median[2],
            median[which] / median[1]
        );
    }
    Ok(())
}
