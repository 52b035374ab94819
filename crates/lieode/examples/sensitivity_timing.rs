//! The cost of forward sensitivities: a run on dual numbers carrying `p` directions against
//! the plain `f64` run and against central finite differences (`2p + 1` plain runs), timed
//! interleaved on one thread, with the finite differences' error against the dual derivative.
//!
//! ```text
//! cargo run --release --example sensitivity_timing [-- ROUNDS]
//! ```
//!
//! Workloads: Lotka–Volterra (`ℝ²`, RK4, 20 000 steps, p = 6: the initial state and the four
//! rates), a tumbling free rigid body (`SO(3) × ℝ³`, Munthe-Kaas RK4, 4 000 steps, p = 9:
//! the initial attitude and angular velocity in right-trivialised coordinates and the three
//! moments) and the catalogue's SPIRAL leapfrog on a body under the attitude-, rate- and
//! time-dependent torque of `TorquedRigidBody` (4 000 steps, p = 9: the initial rotor as a
//! body-frame rotation vector, the initial angular velocity and the three moments). The table gives the median of the rounds (default 7) in milliseconds, the ratio of
//! the dual run to the plain one against the target `1.3 (1 + p)`, and the largest difference
//! between the central differences (relative step 1e-6, the floor of their V) and the dual
//! Jacobian relative to its largest entry. A last line times SPIRAL leapfrog's step alone (its
//! `finish` under a fixed torque, no driver and no torque model) on `f64` and on `Dual<9>`:
//! what `num-dual`'s arithmetic costs on that kernel.

use std::hint::black_box;
use std::time::Instant;

use lieode::body::RigidBodyState;
use lieode::engine::{ExplicitRk, MuntheKaas};
use lieode::integrate::{Options, Record, integrate};
use lieode::lie::product::{Product, ProductAlgebra};
use lieode::lie::rn::Rn;
use lieode::lie::so3::{So3, So3Algebra};
use lieode::lie::{LieAlgebra, LieGroup, Side};
use lieode::problems::TorquedRigidBody;
use lieode::problems::{FreeRigidBody, LotkaVolterra};
use lieode::rotation::{
    Carried, RigidBody, RigidBodyMethod, RotationalState, SingleBody, SpiralLeapfrogMethod,
};
use lieode::sensitivity::{
    Dual, Seeds, group_jacobian, replay, rotational_jacobian, vector_jacobian,
};
use lieode::stepper::Span;
use lieode::tableau::registry::RK4;
use nalgebra::{DMatrix, Quaternion, SVector, Vector2, Vector3};

/// One workload: its name, p, and the three computations (each returning the Jacobian it
/// found, or the plain state's norm for the plain run).
struct Workload {
    name: &'static str,
    p: usize,
    plain: Box<dyn Fn() -> f64>,
    dual: Box<dyn Fn() -> DMatrix<f64>>,
    differences: Box<dyn Fn() -> DMatrix<f64>>,
}

fn grid(t_end: f64, steps: usize) -> Vec<f64> {
    (0..=steps)
        .map(|i| t_end * i as f64 / steps as f64)
        .collect()
}

const LV_RATES: [f64; 4] = [1.2, 0.6, 0.8, 1.1];
const LV_X0: [f64; 2] = [1.5, 0.7];

fn lv_plain(v: [f64; 6], times: &[f64]) -> Vector2<f64> {
    let mut rk4 = ExplicitRk::<f64, 2>::new(&RK4).unwrap();
    let mut lv = LotkaVolterra::new([v[2], v[3], v[4], v[5]]);
    let (states, _) = replay(&mut rk4, &mut lv, &Vector2::new(v[0], v[1]), times).unwrap();
    *states.last().unwrap()
}

fn lotka_volterra() -> Workload {
    let times = grid(8.0, 20_000);
    let inputs = [
        LV_X0[0],
        LV_X0[1],
        LV_RATES[0],
        LV_RATES[1],
        LV_RATES[2],
        LV_RATES[3],
    ];
    let (t1, t2, t3) = (times.clone(), times.clone(), times);
    Workload {
        name: "Lotka–Volterra, RK4, 20 000 steps",
        p: 6,
        plain: Box::new(move || lv_plain(inputs, &t1).norm()),
        dual: Box::new(move || {
            let mut seeds = Seeds::<6>::new();
            let x0 = seeds.vector("x0", &Vector2::from(LV_X0)).unwrap();
            let rates = LV_RATES.map(|r| seeds.parameter(&format!("rate {r}"), r).unwrap());
            let mut rk4 = ExplicitRk::<Dual<6>, 2>::new(&RK4).unwrap();
            let (states, _) = replay(&mut rk4, &mut LotkaVolterra::new(rates), &x0, &t2).unwrap();
            DMatrix::from_column_slice(2, 6, vector_jacobian(states.last().unwrap()).as_slice())
        }),
        differences: Box::new(move || {
            let mut out = DMatrix::zeros(2, 6);
            for j in 0..6 {
                let h = 1e-6 * inputs[j].abs();
                let (mut up, mut down) = (inputs, inputs);
                up[j] += h;
                down[j] -= h;
                let column = (lv_plain(up, &t3) - lv_plain(down, &t3)) / (2.0 * h);
                out.set_column(j, &column);
            }
            out
        }),
    }
}

const MOMENTS: [f64; 3] = [1.0, 2.0, 2.5];

fn body_start() -> RigidBodyState {
    Product(
        So3::exp(&So3Algebra(Vector3::new(0.3, -0.7, 0.4))),
        Rn(Vector3::new(0.6, -0.4, 0.9)),
    )
}

fn body_plain(y0: &RigidBodyState, moments: Vector3<f64>, times: &[f64]) -> RigidBodyState {
    let mut rkmk4 = MuntheKaas::<RigidBodyState>::new(&RK4).unwrap();
    let (states, _) = replay(&mut rkmk4, &mut FreeRigidBody::new(moments), y0, times).unwrap();
    *states.last().unwrap()
}

fn free_body() -> Workload {
    let times = grid(3.0, 4_000);
    let (t1, t2, t3) = (times.clone(), times.clone(), times);
    Workload {
        name: "free rigid body, RKMK4 on SO(3) × ℝ³, 4 000 steps",
        p: 9,
        plain: Box::new(move || {
            body_plain(&body_start(), Vector3::from(MOMENTS), &t1)
                .1
                .0
                .norm()
        }),
        dual: Box::new(move || {
            let mut seeds = Seeds::<9>::new();
            let y0 = seeds.group("y0", &body_start(), Side::Right).unwrap();
            let moments = Vector3::new(
                seeds.parameter("J1", MOMENTS[0]).unwrap(),
                seeds.parameter("J2", MOMENTS[1]).unwrap(),
                seeds.parameter("J3", MOMENTS[2]).unwrap(),
            );
            let mut rkmk4 = MuntheKaas::<RigidBodyState<Dual<9>>>::new(&RK4).unwrap();
            let (states, _) =
                replay(&mut rkmk4, &mut FreeRigidBody::new(moments), &y0, &t2).unwrap();
            let (_, j) = group_jacobian(states.last().unwrap(), Side::Right).unwrap();
            DMatrix::from_column_slice(6, 9, j.as_slice())
        }),
        differences: Box::new(move || {
            let base = body_start();
            let moments = Vector3::from(MOMENTS);
            let centre = body_plain(&base, moments, &t3);
            let mut out = DMatrix::zeros(6, 9);
            for j in 0..9 {
                let h = 1e-6;
                let at = |sign: f64| {
                    let (mut y0, mut m) = (base, moments);
                    if j < 6 {
                        let mut e = SVector::<f64, 6>::zeros();
                        e[j] = sign * h;
                        let xi =
                            <ProductAlgebra<So3Algebra<f64>, Rn<3, f64>> as LieAlgebra>::from_coords(&e);
                        y0 = base.compose(&RigidBodyState::exp(&xi));
                    } else {
                        m[j - 6] += sign * h * m[j - 6];
                    }
                    let d = centre
                        .inverse()
                        .compose(&body_plain(&y0, m, &t3))
                        .log()
                        .unwrap();
                    (d.to_coords(), if j < 6 { h } else { h * moments[j - 6] })
                };
                let ((up, hu), (down, _)) = (at(1.0), at(-1.0));
                for r in 0..6 {
                    out[(r, j)] = (up[r] - down[r]) / (2.0 * hu);
                }
            }
            out
        }),
    }
}

const SPIRAL_STEPS: usize = 4_000;
const SPIRAL_DT: f64 = 1e-3;

fn spiral_start() -> (Quaternion<f64>, Vector3<f64>) {
    let q = Quaternion::new(0.9, 0.1, -0.3, 0.2);
    (q / q.norm(), Vector3::new(0.7, -1.1, 0.4))
}

/// SPIRAL leapfrog from `y0` on the body of `moments`, driven by `integrate`.
fn spiral_run<S: lieode::lie::Real>(
    y0: &RotationalState<S>,
    body: RigidBody<S>,
) -> RotationalState<S>
where
    TorquedRigidBody: lieode::body::Torque<S>,
{
    let mut stepper = SingleBody::<SpiralLeapfrogMethod, S>::new(body);
    let span = Span::stride(0.0, SPIRAL_DT, SPIRAL_STEPS).unwrap();
    let mut torque = TorquedRigidBody::default();
    let solution = integrate(
        &mut stepper,
        &mut torque,
        y0,
        &span,
        Options::record(Record::Ends),
    )
    .unwrap();
    *solution.last().unwrap().1
}

/// The body-frame rotation vector from `base` to `q`.
fn rotation_between(base: &Quaternion<f64>, q: &Quaternion<f64>) -> Vector3<f64> {
    let relative = base.conjugate() * q;
    let v = relative.imag();
    v * (2.0 * v.norm().atan2(relative.w) / v.norm())
}

fn spiral_leapfrog() -> Workload {
    let moments = TorquedRigidBody::default().rigid().inertia();
    Workload {
        name: "SPIRAL leapfrog (catalogue), torqued body, 4 000 steps",
        p: 9,
        plain: Box::new(move || {
            let (q, omega) = spiral_start();
            let body = RigidBody::new(moments.into()).unwrap();
            spiral_run(&RotationalState::new(0.0, q, omega), body)
                .omega
                .norm()
        }),
        dual: Box::new(move || {
            let (q, omega) = spiral_start();
            let mut seeds = Seeds::<9>::new();
            let y0 = RotationalState {
                t: 0.0,
                q: seeds.rotor("q0", &q, Side::Right).unwrap(),
                omega: seeds.vector("omega0", &omega).unwrap(),
            };
            let body =
                RigidBody::from_scalar_moments(seeds.vector("inertia", &moments).unwrap()).unwrap();
            let (_, j) = rotational_jacobian(&spiral_run(&y0, body), Side::Right);
            DMatrix::from_column_slice(6, 9, j.as_slice())
        }),
        differences: Box::new(move || {
            let (q, omega) = spiral_start();
            let run = |q: Quaternion<f64>, omega: Vector3<f64>, m: Vector3<f64>| {
                let body = RigidBody::new(m.into()).unwrap();
                spiral_run(&RotationalState::new(0.0, q, omega), body)
            };
            let centre = run(q, omega, moments);
            let mut out = DMatrix::zeros(6, 9);
            for j in 0..9 {
                let h = if j < 6 { 1e-6 } else { 1e-6 * moments[j - 6] };
                let at = |sign: f64| {
                    let e = Vector3::ith(j % 3, sign * h);
                    match j / 3 {
                        0 => run(
                            q * lieode::body::quaternion::exp_pure(&(e * 0.5)),
                            omega,
                            moments,
                        ),
                        1 => run(q, omega + e, moments),
                        _ => run(q, omega, moments + e),
                    }
                };
                let (up, down) = (at(1.0), at(-1.0));
                let rotation = (rotation_between(&centre.q, &up.q)
                    - rotation_between(&centre.q, &down.q))
                    / (2.0 * h);
                let rate = (up.omega - down.omega) / (2.0 * h);
                for r in 0..3 {
                    out[(r, j)] = rotation[r];
                    out[(r + 3, j)] = rate[r];
                }
            }
            out
        }),
    }
}

/// Nanoseconds per step of `steps` SPIRAL leapfrog `finish` calls over the scalar `S`, from
/// the start's rotor, angular velocity and moments (seeded over `Dual<9>`).
fn bare_step<S: lieode::lie::Real>(
    q: Quaternion<S>,
    omega: Vector3<S>,
    body: RigidBody<S>,
    steps: usize,
) -> f64 {
    let method = SpiralLeapfrogMethod::default();
    let dt = lieode::lie::Lift::lift(1e-3);
    let constants = RigidBodyMethod::<S>::constants(&method, &body, dt);
    let mut carried = Carried::new(q, omega, ());
    let torque = Vector3::new(0.5, 0.1, 0.0).map(lieode::lie::Lift::lift);
    let start = Instant::now();
    for _ in 0..steps {
        method.finish(&constants, carried.as_mut(), (), &torque, false, dt);
    }
    black_box(carried);
    start.elapsed().as_secs_f64() * 1e9 / steps as f64
}

fn bare_steps(rounds: usize) {
    let (q, omega) = spiral_start();
    let moments = TorquedRigidBody::default().rigid().inertia();
    let (mut plain, mut dual) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        plain.push(bare_step(
            q,
            omega,
            RigidBody::new(moments.into()).unwrap(),
            40_000,
        ));
        let mut seeds = Seeds::<9>::new();
        let qd = seeds.rotor("q0", &q, Side::Right).unwrap();
        let wd = seeds.vector("omega0", &omega).unwrap();
        let body =
            RigidBody::from_scalar_moments(seeds.vector("inertia", &moments).unwrap()).unwrap();
        dual.push(bare_step(qd, wd, body, 40_000));
    }
    let (plain, dual) = (median(plain), median(dual));
    println!(
        "\nSPIRAL leapfrog's step alone (finish, fixed torque, 40 000 steps): plain {plain:.1} ns, \
         Dual<9> {dual:.1} ns per step: {:.1}×",
        dual / plain
    );
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("ROUNDS must be a positive integer"))
        .unwrap_or(7)
        .max(1);
    println!(
        "| workload | p | plain (ms) | dual (ms) | dual / plain | target 1.3 (1 + p) | differences (ms) | differences / dual | max |FD − dual| / max |J| |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for w in [lotka_volterra(), free_body(), spiral_leapfrog()] {
        let (mut plain, mut dual, mut fd) = (Vec::new(), Vec::new(), Vec::new());
        let mut mismatch = 0.0;
        for _ in 0..rounds {
            let t = Instant::now();
            black_box((w.plain)());
            plain.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            let j = black_box((w.dual)());
            dual.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            let d = black_box((w.differences)());
            fd.push(t.elapsed().as_secs_f64() * 1e3);
            mismatch = (&d - &j).amax() / j.amax();
        }
        let (plain, dual, fd) = (median(plain), median(dual), median(fd));
        println!(
            "| {} | {} | {plain:.2} | {dual:.2} | {:.2} | {:.1} | {fd:.2} | {:.2} | {mismatch:.1e} |",
            w.name,
            w.p,
            dual / plain,
            1.3 * (1 + w.p) as f64,
            fd / dual,
        );
    }
    bare_steps(rounds);
}
