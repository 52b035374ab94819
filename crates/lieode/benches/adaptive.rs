//! Adaptive steppers against the peer crate `ode_solvers` in the same run:
//! DOP853 and DOPRI5 on the Arenstorf orbit (tol 1e-6, 1e-9, 1e-12; the distance cubes by
//! `powf(1.5)` and by `r²·√r²`; lieode with Hairer's and with the latency-ordered
//! [`Summation`]) and on the free rigid body (quaternion rotor + Euler's
//! equations, t ∈ [0, 100], tol 1e-10), plus DOP853 lifted to UnitQuat × ℝ³ on the same body in
//! the exponential and the Cayley chart. The group "critical path (stage chain)" runs the
//! dependency chain DOP853's steps really have — stage state, evaluation, next stage state —
//! for as many evaluations as the integration makes, and nothing else: the floor no solver
//! with Hairer's evaluation counts can go below.
//!
//! ```text
//! cargo bench --bench adaptive
//! ```
#![allow(clippy::excessive_precision)]

use criterion::{Criterion, criterion_group, criterion_main};
use lieode::adaptive::{
    ControllerParameters, Dop853, Dopri5, LieStepper, Summation, Tolerances, VectorStepper,
};
use lieode::integrate::{Options, integrate};
use lieode::lie::coordinates::CayleyMap;
use lieode::stepper::Span;
use lieode::tableau::registry::DOP853 as DOP853_TABLEAU;
use nalgebra::SVector;
use std::hint::black_box;

#[path = "common/contest.rs"]
mod contest;
use contest::*;

/// The critical path of `steps` DOP853 steps of size `h` and nothing else: each stage's state
/// `y + h Σ_j a_ij k_j` from the stages before it, its evaluation, and the new `y` from the
/// weights — no error estimate, no step-size control, no finiteness checks, no bookkeeping.
/// A solver making the same evaluations cannot run faster than this chain, since every
/// evaluation waits for the stage state, which waits for the evaluations before it.
fn stage_chain<const N: usize>(
    f: fn(&[f64; N]) -> [f64; N],
    y0: [f64; N],
    steps: usize,
    h: f64,
) -> [f64; N] {
    let t = &DOP853_TABLEAU;
    let s = t.stages;
    let mut y = y0;
    let mut k = [[0.0; N]; 16];
    for _ in 0..steps {
        for i in 0..s {
            let mut stage = y;
            for (j, kj) in k.iter().enumerate().take(i) {
                let a = h * t.a[i * s + j];
                if a != 0.0 {
                    for (x, d) in stage.iter_mut().zip(kj) {
                        *x += a * d;
                    }
                }
            }
            k[i] = f(black_box(&stage));
        }
        for (i, ki) in k.iter().enumerate().take(s) {
            let b = h * t.b[i];
            for (x, d) in y.iter_mut().zip(ki) {
                *x += b * d;
            }
        }
    }
    y
}

fn bench(c: &mut Criterion) {
    let cases: [(&str, Arenstorf); 2] = [("powf", arenstorf_powf), ("t·√t", arenstorf_sqrt)];
    // DOP853 makes 12 evaluations per step (the 13th is the next step's first, FSAL).
    let mut g = c.benchmark_group("critical path (stage chain)");
    for (form, rhs) in cases {
        for tol in [1e-6, 1e-9, 1e-12] {
            let count = ours_arenstorf(
                rhs,
                Dop853::new(
                    Tolerances::scalar(tol, tol).unwrap(),
                    ControllerParameters::dop853(),
                )
                .unwrap(),
            );
            g.bench_function(format!("arenstorf {form} x{count} (DOP853 {tol:e})"), |b| {
                b.iter(|| stage_chain(rhs, Y0, count / 12, 1e-4))
            });
        }
    }
    let body: [f64; 7] = body_y0().into();
    g.bench_function("free rigid body x1670 (DOP853 ambient)", |b| {
        b.iter(|| stage_chain(free_body, body, 1670 / 12, 1e-2))
    });
    g.finish();

    for (form, rhs) in cases {
        let mut g = c.benchmark_group(format!("arenstorf {form}"));
        for tol in [1e-6, 1e-9, 1e-12] {
            let t = Tolerances::scalar(tol, tol).unwrap();
            let summations = [
                (" Hairer", Summation::Hairer),
                (" latency-ordered (default)", Summation::LatencyOrdered),
            ];
            for (label, summation) in summations {
                g.bench_function(format!("lieode Dop853{label} {tol:e}"), |b| {
                    b.iter(|| {
                        let m = Dop853::new(t.clone(), ControllerParameters::dop853()).unwrap();
                        ours_arenstorf(rhs, m.with_summation(summation))
                    })
                });
            }
            g.bench_function(format!("ode_solvers Dop853 {tol:e}"), |b| {
                b.iter(|| peer_dop853_arenstorf(rhs, black_box(tol)))
            });
            for (label, summation) in summations {
                g.bench_function(format!("lieode Dopri5{label} {tol:e}"), |b| {
                    b.iter(|| {
                        let m = Dopri5::new(t.clone(), ControllerParameters::dopri5()).unwrap();
                        ours_arenstorf(rhs, m.with_summation(summation))
                    })
                });
            }
            g.bench_function(format!("ode_solvers Dopri5 {tol:e}"), |b| {
                b.iter(|| peer_dopri5_arenstorf(rhs, black_box(tol)))
            });
        }
        g.finish();
    }

    let mut g = c.benchmark_group("free rigid body");
    let tol = 1e-10;
    let t = Tolerances::scalar(tol, tol).unwrap();
    g.bench_function("lieode Dop853 ambient rotor", |b| {
        b.iter(|| {
            let mut f = |_t: f64, y: &SVector<f64, 7>| {
                SVector::<f64, 7>::from(free_body(&std::array::from_fn(|i| y[i])))
            };
            integrate(
                &mut VectorStepper::new(
                    Dop853::new(t.clone(), ControllerParameters::dop853()).unwrap(),
                ),
                &mut f,
                &body_y0(),
                &Span::new(0.0, BODY_END).unwrap(),
                Options::default(),
            )
            .map(|s| s.stats.rhs_evaluations)
            .unwrap_or(0)
        })
    });
    g.bench_function("lieode Dop853 ambient rotor, latency-ordered", |b| {
        b.iter(|| {
            let mut f = |_t: f64, y: &SVector<f64, 7>| {
                SVector::<f64, 7>::from(free_body(&std::array::from_fn(|i| y[i])))
            };
            integrate(
                &mut VectorStepper::new(
                    Dop853::new(t.clone(), ControllerParameters::dop853())
                        .unwrap()
                        .with_summation(Summation::LatencyOrdered),
                ),
                &mut f,
                &body_y0(),
                &Span::new(0.0, BODY_END).unwrap(),
                Options::default(),
            )
            .map(|s| s.stats.rhs_evaluations)
            .unwrap_or(0)
        })
    });
    g.bench_function("ode_solvers Dop853 ambient rotor", |b| {
        b.iter(|| peer_dop853_body(black_box(tol)))
    });
    g.bench_function("lieode Dop853 lifted to UnitQuat×R3", |b| {
        b.iter(|| {
            let y0 = lie_body_y0();
            integrate(
                &mut LieStepper::new(
                    Dop853::new(t.clone(), ControllerParameters::dop853()).unwrap(),
                ),
                &mut LieBody,
                &y0,
                &Span::new(0.0, BODY_END).unwrap(),
                Options::default(),
            )
            .map(|s| s.stats.rhs_evaluations)
            .unwrap_or(0)
        })
    });
    g.bench_function("lieode Dop853 lifted to UnitQuat×R3, Cayley chart", |b| {
        b.iter(|| {
            let y0 = lie_body_y0();
            integrate(
                &mut LieStepper::new(
                    Dop853::new(t.clone(), ControllerParameters::dop853()).unwrap(),
                )
                .with_chart::<CayleyMap>(),
                &mut LieBody,
                &y0,
                &Span::new(0.0, BODY_END).unwrap(),
                Options::default(),
            )
            .map(|s| s.stats.rhs_evaluations)
            .unwrap_or(0)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
