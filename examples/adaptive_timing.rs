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
//! Contestants: lieode with Hairer's summation (bit-identical to the Fortran codes), lieode with
//! the latency-ordered summation ([`Summation::LatencyOrdered`]), and `ode_solvers` 0.6.2 with
//! Hairer's parameters; tolerances 1e-6, 1e-9 and 1e-12; the distance cubes `r²·√r²`. Then the
//! free rigid body (t ∈ [0, 100], tol 1e-10): DOP853 on the ambient rotor ℝ⁷ (lieode both
//! summations, ode_solvers) and lifted to UnitQuat × ℝ³ in the exponential and the Cayley chart.
#![allow(clippy::excessive_precision)]

use std::hint::black_box;
use std::time::Instant;

use lieode::adaptive::{
    AdaptiveMethod, ControllerParameters, Dop853, Dopri5, LieStepper, Summation, Tolerances,
    VectorStepper,
};
use lieode::integrate::{Options, integrate};
use lieode::lie::coordinates::CayleyMap;
use lieode::lie::product::{Product, ProductAlgebra};
use lieode::lie::rn::Rn;
use lieode::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use lieode::lie::{LieGroup, Side};
use lieode::ode::LieOde;
use lieode::stepper::Span;
use nalgebra::{Const, SVector, Vector3, Vector4};

const MU: f64 = 0.012277471;
const Y0: [f64; 4] = [0.994, 0.0, 0.0, -2.00158510637908252240537862224];
const X_END: f64 = 17.0652165601579625588917206249;
const INERTIA: [f64; 3] = [0.9144, 1.098, 1.66];
const OMEGA0: [f64; 3] = [0.45549, 0.82623, 0.03476];
const BODY_END: f64 = 100.0;
/// Whole integrations per timed sample.
const BATCH: usize = 20;

/// Arenstorf's orbit, the distance cubes as `r²·√r²`.
#[inline(always)]
fn arenstorf(y: &[f64; 4]) -> [f64; 4] {
    let mu1 = 1.0 - MU;
    let r1 = (y[0] + MU).powi(2) + y[1].powi(2);
    let r2 = (y[0] - mu1).powi(2) + y[1].powi(2);
    let d1 = r1 * r1.sqrt();
    let d2 = r2 * r2.sqrt();
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

type Peer7 = ode_solvers::SVector<f64, 7>;
struct PeerBody;
impl ode_solvers::System<f64, Peer7> for PeerBody {
    fn system(&self, _x: f64, y: &Peer7, dy: &mut Peer7) {
        let f = free_body(&std::array::from_fn(|i| y[i]));
        for (d, v) in dy.iter_mut().zip(f) {
            *d = v;
        }
    }
}

/// One whole free-body integration by contestant `which`; returns the evaluations made.
fn run_body(which: usize, t: &Tolerances, tol: f64) -> lieode::Result<usize> {
    let span = Span::new(0.0, BODY_END)?;
    let mut f = |_t: f64, y: &SVector<f64, 7>| {
        SVector::<f64, 7>::from(free_body(&std::array::from_fn(|i| y[i])))
    };
    let y0 = SVector::<f64, 7>::from_column_slice(&[
        1.0, 0.0, 0.0, 0.0, OMEGA0[0], OMEGA0[1], OMEGA0[2],
    ]);
    let lie_y0 = Product(UnitQuat::identity(), Rn(Vector3::from(OMEGA0)));
    Ok(match which {
        0 => {
            integrate(
                &mut VectorStepper::new(Dop853::new(t.clone(), ControllerParameters::dop853())?),
                &mut f,
                &y0,
                &span,
                Options::default(),
            )?
            .stats
            .rhs_evaluations
        }
        1 => {
            let m = Dop853::new(t.clone(), ControllerParameters::dop853())?
                .with_summation(Summation::LatencyOrdered);
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
        2 => {
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
            s.integrate().map_or(0, |st| st.num_eval as usize)
        }
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

struct Peer;
impl ode_solvers::System<f64, ode_solvers::Vector4<f64>> for Peer {
    fn system(&self, _x: f64, y: &ode_solvers::Vector4<f64>, dy: &mut ode_solvers::Vector4<f64>) {
        let f = arenstorf(&[y[0], y[1], y[2], y[3]]);
        for (d, v) in dy.iter_mut().zip(f) {
            *d = v;
        }
    }
}

fn lieode_run<M: AdaptiveMethod<Const<4>>>(method: M) -> usize {
    let mut f = |_t: f64, y: &Vector4<f64>| Vector4::from(arenstorf(&[y[0], y[1], y[2], y[3]]));
    match Span::new(0.0, X_END) {
        Ok(span) => integrate(
            &mut VectorStepper::new(method),
            &mut f,
            &Vector4::from(Y0),
            &span,
            Options::default(),
        )
        .map_or(0, |s| s.stats.rhs_evaluations),
        Err(_) => 0,
    }
}

fn peer_y0() -> ode_solvers::Vector4<f64> {
    ode_solvers::Vector4::new(Y0[0], Y0[1], Y0[2], Y0[3])
}

/// One whole integration by contestant `which`; returns the evaluations made.
fn run(which: usize, t: &Tolerances, tol: f64) -> lieode::Result<usize> {
    let ordered = Summation::LatencyOrdered;
    Ok(match which {
        0 => lieode_run(Dop853::new(t.clone(), ControllerParameters::dop853())?),
        1 => lieode_run(
            Dop853::new(t.clone(), ControllerParameters::dop853())?.with_summation(ordered),
        ),
        2 => {
            let mut s = ode_solvers::Dop853::from_param(
                Peer,
                0.0,
                X_END,
                0.0,
                peer_y0(),
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
            s.integrate().map_or(0, |st| st.num_eval as usize)
        }
        3 => lieode_run(Dopri5::new(t.clone(), ControllerParameters::dopri5())?),
        4 => lieode_run(
            Dopri5::new(t.clone(), ControllerParameters::dopri5())?.with_summation(ordered),
        ),
        _ => {
            let mut s = ode_solvers::Dopri5::from_param(
                Peer,
                0.0,
                X_END,
                0.0,
                peer_y0(),
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
            s.integrate().map_or(0, |st| st.num_eval as usize)
        }
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
        "lieode Dop853",
        "lieode Dop853 latency-ordered",
        "ode_solvers Dop853",
        "lieode Dopri5",
        "lieode Dopri5 latency-ordered",
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
                "tol {tol:e}  {name:30} {:8.2} µs  {:.3} × ode_solvers",
                median[which],
                median[which] / median[peer]
            );
        }
    }
    let names = [
        "lieode Dop853 ambient",
        "lieode Dop853 ambient latency-ordered",
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
            "{name:40} {:8.2} µs  {:.3} × ode_solvers  {:.3} × lieode ambient",
            median[which],
            median[which] / median[2],
            median[which] / median[0]
        );
    }
    Ok(())
}
