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
use lieode::lie::product::{Product, ProductAlgebra};
use lieode::lie::rn::Rn;
use lieode::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use lieode::lie::{LieGroup, Side};
use lieode::ode::LieOde;
use lieode::stepper::Span;
use lieode::tableau::registry::DOP853 as DOP853_TABLEAU;
use nalgebra::{Const, SVector, Vector3, Vector4};
use std::hint::black_box;

const MU: f64 = 0.012277471;
const Y0: [f64; 4] = [0.994, 0.0, 0.0, -2.00158510637908252240537862224];
const X_END: f64 = 17.0652165601579625588917206249;
const INERTIA: [f64; 3] = [0.9144, 1.098, 1.66];
const OMEGA0: [f64; 3] = [0.45549, 0.82623, 0.03476];
const BODY_END: f64 = 100.0;

/// An Arenstorf right-hand side.
type Arenstorf = fn(&[f64; 4]) -> [f64; 4];

/// Arenstorf's orbit with the distance cubes `r³` from `r²` by `cube`: `powf(1.5)` or
/// `r²·√(r²)` (the issue measures both: `powf` is a libm call, `√` one instruction).
#[inline(always)]
fn arenstorf_by(y: &[f64; 4], cube: impl Fn(f64) -> f64) -> [f64; 4] {
    let mu1 = 1.0 - MU;
    let d1 = cube((y[0] + MU).powi(2) + y[1].powi(2));
    let d2 = cube((y[0] - mu1).powi(2) + y[1].powi(2));
    [
        y[2],
        y[3],
        y[0] + 2.0 * y[3] - mu1 * (y[0] + MU) / d1 - MU * (y[0] - mu1) / d2,
        y[1] - 2.0 * y[2] - mu1 * y[1] / d1 - MU * y[1] / d2,
    ]
}

#[inline(always)]
fn arenstorf_powf(y: &[f64; 4]) -> [f64; 4] {
    arenstorf_by(y, |r2| r2.powf(1.5))
}

#[inline(always)]
fn arenstorf_sqrt(y: &[f64; 4]) -> [f64; 4] {
    arenstorf_by(y, |r2| r2 * r2.sqrt())
}

/// Free rigid body, ambient form: q̇ = ½ q ⊗ (0, ω) (q scalar first), J ω̇ = −ω × J ω.
#[inline(always)]
fn free_body(y: &[f64; 7]) -> [f64; 7] {
    let (w, x, yq, z) = (y[0], y[1], y[2], y[3]);
    let (p, q, r) = (y[4], y[5], y[6]);
    let [i1, i2, i3] = INERTIA;
    [
        0.5 * (-x * p - yq * q - z * r),
        0.5 * (w * p + yq * r - z * q),
        0.5 * (w * q + z * p - x * r),
        0.5 * (w * r + x * q - yq * p),
        (i2 - i3) / i1 * q * r,
        (i3 - i1) / i2 * r * p,
        (i1 - i2) / i3 * p * q,
    ]
}

struct PeerArenstorf(Arenstorf);
impl ode_solvers::System<f64, ode_solvers::Vector4<f64>> for PeerArenstorf {
    fn system(&self, _x: f64, y: &ode_solvers::Vector4<f64>, dy: &mut ode_solvers::Vector4<f64>) {
        let f = (self.0)(&[y[0], y[1], y[2], y[3]]);
        for i in 0..4 {
            dy[i] = f[i];
        }
    }
}

type Peer7 = ode_solvers::SVector<f64, 7>;
struct PeerBody;
impl ode_solvers::System<f64, Peer7> for PeerBody {
    fn system(&self, _x: f64, y: &Peer7, dy: &mut Peer7) {
        let f = free_body(&std::array::from_fn(|i| y[i]));
        for i in 0..7 {
            dy[i] = f[i];
        }
    }
}

/// The same body on UnitQuat × ℝ³: right side, generator (ω/2, ω̇).
struct LieBody;
impl LieOde<Product<UnitQuat, Rn<3>>> for LieBody {
    fn side(&self) -> Side {
        Side::Right
    }
    fn generator(
        &mut self,
        _t: f64,
        y: &Product<UnitQuat, Rn<3>>,
    ) -> ProductAlgebra<Su2Algebra, Rn<3>> {
        let w = y.1.0;
        let [i1, i2, i3] = INERTIA;
        let dw = Vector3::new(
            (i2 - i3) / i1 * w[1] * w[2],
            (i3 - i1) / i2 * w[2] * w[0],
            (i1 - i2) / i3 * w[0] * w[1],
        );
        ProductAlgebra(Su2Algebra::from_rotation_vector(&w), Rn(dw))
    }
}

fn peer_dop853_arenstorf(rhs: Arenstorf, tol: f64) -> u32 {
    let y0 = ode_solvers::Vector4::new(Y0[0], Y0[1], Y0[2], Y0[3]);
    let mut s = ode_solvers::Dop853::from_param(
        PeerArenstorf(rhs),
        0.0,
        X_END,
        0.0,
        y0,
        tol,
        tol,
        0.9,
        0.0,
        0.333,
        6.0,
        X_END,
        0.0,
        100_000,
        1000,
        ode_solvers::OutputType::Sparse,
    );
    s.integrate().map(|st| st.num_eval).unwrap_or(0)
}

fn peer_dopri5_arenstorf(rhs: Arenstorf, tol: f64) -> u32 {
    let y0 = ode_solvers::Vector4::new(Y0[0], Y0[1], Y0[2], Y0[3]);
    let mut s = ode_solvers::Dopri5::from_param(
        PeerArenstorf(rhs),
        0.0,
        X_END,
        0.0,
        y0,
        tol,
        tol,
        0.9,
        0.04,
        0.2,
        10.0,
        X_END,
        0.0,
        100_000,
        1000,
        ode_solvers::OutputType::Sparse,
    );
    s.integrate().map(|st| st.num_eval).unwrap_or(0)
}

fn ours_arenstorf<M: lieode::adaptive::AdaptiveMethod<Const<4>>>(
    rhs: Arenstorf,
    method: M,
) -> usize {
    let mut f = |_t: f64, y: &Vector4<f64>| Vector4::from(rhs(&[y[0], y[1], y[2], y[3]]));
    integrate(
        &mut VectorStepper::new(method),
        &mut f,
        &Vector4::from(Y0),
        &Span::new(0.0, X_END).unwrap(),
        Options::default(),
    )
    .map(|s| s.stats.rhs_evaluations)
    .unwrap_or(0)
}

fn body_y0() -> SVector<f64, 7> {
    SVector::<f64, 7>::from_column_slice(&[1.0, 0.0, 0.0, 0.0, OMEGA0[0], OMEGA0[1], OMEGA0[2]])
}

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
            g.bench_function(format!("lieode Dop853 {tol:e}"), |b| {
                b.iter(|| {
                    ours_arenstorf(
                        rhs,
                        Dop853::new(t.clone(), ControllerParameters::dop853()).unwrap(),
                    )
                })
            });
            g.bench_function(format!("lieode Dop853 latency-ordered {tol:e}"), |b| {
                b.iter(|| {
                    ours_arenstorf(
                        rhs,
                        Dop853::new(t.clone(), ControllerParameters::dop853())
                            .unwrap()
                            .with_summation(Summation::LatencyOrdered),
                    )
                })
            });
            g.bench_function(format!("ode_solvers Dop853 {tol:e}"), |b| {
                b.iter(|| peer_dop853_arenstorf(rhs, black_box(tol)))
            });
            g.bench_function(format!("lieode Dopri5 {tol:e}"), |b| {
                b.iter(|| {
                    ours_arenstorf(
                        rhs,
                        Dopri5::new(t.clone(), ControllerParameters::dopri5()).unwrap(),
                    )
                })
            });
            g.bench_function(format!("lieode Dopri5 latency-ordered {tol:e}"), |b| {
                b.iter(|| {
                    ours_arenstorf(
                        rhs,
                        Dopri5::new(t.clone(), ControllerParameters::dopri5())
                            .unwrap()
                            .with_summation(Summation::LatencyOrdered),
                    )
                })
            });
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
        b.iter(|| {
            let y0 =
                Peer7::from_column_slice(&[1.0, 0.0, 0.0, 0.0, OMEGA0[0], OMEGA0[1], OMEGA0[2]]);
            let mut s = ode_solvers::Dop853::from_param(
                PeerBody,
                0.0,
                BODY_END,
                0.0,
                y0,
                tol,
                tol,
                0.9,
                0.0,
                0.333,
                6.0,
                BODY_END,
                0.0,
                100_000,
                1000,
                ode_solvers::OutputType::Sparse,
            );
            s.integrate().map(|st| st.num_eval).unwrap_or(0)
        })
    });
    g.bench_function("lieode Dop853 lifted to UnitQuat×R3", |b| {
        b.iter(|| {
            let y0 = Product(UnitQuat::identity(), Rn(Vector3::from(OMEGA0)));
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
            let y0 = Product(UnitQuat::identity(), Rn(Vector3::from(OMEGA0)));
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
