//! Adaptive steppers against the peer crate `ode_solvers` in the same run:
//! DOP853 and DOPRI5 on the Arenstorf orbit (tol 1e-6, 1e-9, 1e-12) and on the free rigid body
//! (quaternion rotor + Euler's equations, t ∈ [0, 100], tol 1e-10), plus DOP853 lifted to
//! UnitQuat × ℝ³ on the same body. The group "right-hand side alone" evaluates each problem's
//! right-hand side as many times as the integrations do (at states that change between calls):
//! the floor no solver with Hairer's evaluation counts can go below.
//!
//! ```text
//! cargo bench --bench adaptive
//! ```
#![allow(clippy::excessive_precision)]

use criterion::{Criterion, criterion_group, criterion_main};
use lieode::adaptive::{
    ControllerParameters, Dop853, Dopri5, LieStepper, Tolerances, VectorStepper,
};
use lieode::integrate::{Options, integrate};
use lieode::lie::product::{Product, ProductAlgebra};
use lieode::lie::rn::Rn;
use lieode::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use lieode::lie::{LieGroup, Side};
use lieode::ode::LieOde;
use lieode::stepper::Span;
use nalgebra::{Const, SVector, Vector3, Vector4};
use std::hint::black_box;

const MU: f64 = 0.012277471;
const Y0: [f64; 4] = [0.994, 0.0, 0.0, -2.00158510637908252240537862224];
const X_END: f64 = 17.0652165601579625588917206249;
const INERTIA: [f64; 3] = [0.9144, 1.098, 1.66];
const OMEGA0: [f64; 3] = [0.45549, 0.82623, 0.03476];
const BODY_END: f64 = 100.0;

#[inline(always)]
fn arenstorf(y: &[f64; 4]) -> [f64; 4] {
    let mu1 = 1.0 - MU;
    let d1 = ((y[0] + MU).powi(2) + y[1].powi(2)).powf(1.5);
    let d2 = ((y[0] - mu1).powi(2) + y[1].powi(2)).powf(1.5);
    [
        y[2],
        y[3],
        y[0] + 2.0 * y[3] - mu1 * (y[0] + MU) / d1 - MU * (y[0] - mu1) / d2,
        y[1] - 2.0 * y[2] - mu1 * y[1] / d1 - MU * y[1] / d2,
    ]
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

struct PeerArenstorf;
impl ode_solvers::System<f64, ode_solvers::Vector4<f64>> for PeerArenstorf {
    fn system(&self, _x: f64, y: &ode_solvers::Vector4<f64>, dy: &mut ode_solvers::Vector4<f64>) {
        let f = arenstorf(&[y[0], y[1], y[2], y[3]]);
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

fn peer_dop853_arenstorf(tol: f64) -> u32 {
    let y0 = ode_solvers::Vector4::new(Y0[0], Y0[1], Y0[2], Y0[3]);
    let mut s = ode_solvers::Dop853::from_param(
        PeerArenstorf,
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

fn peer_dopri5_arenstorf(tol: f64) -> u32 {
    let y0 = ode_solvers::Vector4::new(Y0[0], Y0[1], Y0[2], Y0[3]);
    let mut s = ode_solvers::Dopri5::from_param(
        PeerArenstorf,
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

fn ours_arenstorf<M: lieode::adaptive::AdaptiveMethod<Const<4>>>(method: M) -> usize {
    let mut f = |_t: f64, y: &Vector4<f64>| Vector4::from(arenstorf(&[y[0], y[1], y[2], y[3]]));
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

/// Evaluates `f` `count` times at states that move between calls (so that nothing is hoisted).
fn rhs_alone<const N: usize>(f: fn(&[f64; N]) -> [f64; N], y0: [f64; N], count: usize) -> f64 {
    let mut y = y0;
    let mut sum = 0.0;
    for i in 0..count {
        y[1] = black_box(1e-3 * (i % 7) as f64);
        // Every component is used, so none of the right-hand side is optimised away.
        sum += f(black_box(&y)).iter().sum::<f64>();
    }
    sum
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("right-hand side alone");
    for tol in [1e-6, 1e-9, 1e-12] {
        let count = ours_arenstorf(
            Dop853::new(
                Tolerances::scalar(tol, tol).unwrap(),
                ControllerParameters::dop853(),
            )
            .unwrap(),
        );
        g.bench_function(format!("arenstorf x{count} (DOP853 {tol:e})"), |b| {
            b.iter(|| rhs_alone(arenstorf, Y0, count))
        });
    }
    let body: [f64; 7] = body_y0().into();
    g.bench_function("free rigid body x1670 (DOP853 ambient)", |b| {
        b.iter(|| rhs_alone(free_body, body, 1670))
    });
    g.finish();

    let mut g = c.benchmark_group("arenstorf");
    for tol in [1e-6, 1e-9, 1e-12] {
        let t = Tolerances::scalar(tol, tol).unwrap();
        g.bench_function(format!("lieode Dop853 {tol:e}"), |b| {
            b.iter(|| {
                ours_arenstorf(Dop853::new(t.clone(), ControllerParameters::dop853()).unwrap())
            })
        });
        g.bench_function(format!("ode_solvers Dop853 {tol:e}"), |b| {
            b.iter(|| peer_dop853_arenstorf(black_box(tol)))
        });
        g.bench_function(format!("lieode Dopri5 {tol:e}"), |b| {
            b.iter(|| {
                ours_arenstorf(Dopri5::new(t.clone(), ControllerParameters::dopri5()).unwrap())
            })
        });
        g.bench_function(format!("ode_solvers Dopri5 {tol:e}"), |b| {
            b.iter(|| peer_dopri5_arenstorf(black_box(tol)))
        });
    }
    g.finish();

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
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
