//! Forward sensitivities of Krysl's family (`MomentumIntegrator<Dual<P>>` driven by
//! `integrate`), every named method with both nonlinear solvers: the real parts against the
//! `f64` run, and the Jacobian of the final `(R, Π)` with respect to the initial attitude, the
//! initial body momentum and the three moments against central differences of the `f64` run,
//! under the attitude-, rate- and time-dependent torque of `TorquedRigidBody`.

use lieode::body::RigidBodyState;
use lieode::integrate::{Options, Record, integrate};
use lieode::lie::product::{Product, ProductAlgebra};
use lieode::lie::rn::Rn;
use lieode::lie::so3::{So3, So3Algebra};
use lieode::lie::{LieAlgebra, LieGroup, Side};
use lieode::momentum::{KryslMethod, MomentumIntegrator, Solver};
use lieode::problems::TorquedRigidBody;
use lieode::rotation::RigidBody;
use lieode::sensitivity::{Dual, Seeds, group_jacobian};
use lieode::stepper::Span;
use nalgebra::{SMatrix, SVector, Vector3};

const H_STEP: f64 = 1e-2;
const STEPS: usize = 200;
/// The central-difference step (relative for the moments).
const H: f64 = 1e-5;

fn start() -> RigidBodyState {
    Product(
        So3::exp(&So3Algebra(Vector3::new(0.3, -0.7, 0.4))),
        Rn(Vector3::new(0.6, -0.8, 1.1)),
    )
}

fn moments() -> Vector3<f64> {
    TorquedRigidBody::default().rigid().inertia()
}

fn run_f64(
    method: KryslMethod,
    solver: Solver,
    y0: &RigidBodyState,
    m: Vector3<f64>,
) -> RigidBodyState {
    let body = RigidBody::with_moments(m.into()).unwrap();
    let mut stepper = MomentumIntegrator::krysl(method, body, solver).unwrap();
    let span = Span::stride(0.0, H_STEP, STEPS).unwrap();
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

fn dual_jacobian(method: KryslMethod, solver: Solver) -> (RigidBodyState, SMatrix<f64, 6, 9>) {
    let mut seeds = Seeds::<9>::new();
    let y0 = seeds.group("y0", &start(), Side::Right).unwrap();
    let m = seeds.vector("inertia", &moments()).unwrap();
    let body = RigidBody::from_scalar_moments(m).unwrap();
    let mut stepper = MomentumIntegrator::<Dual<9>>::krysl(method, body, solver).unwrap();
    let span = Span::stride(0.0, H_STEP, STEPS).unwrap();
    let mut torque = TorquedRigidBody::default();
    let solution = integrate(
        &mut stepper,
        &mut torque,
        &y0,
        &span,
        Options::record(Record::Ends),
    )
    .unwrap();
    let (real, j) = group_jacobian(solution.last().unwrap().1, Side::Right).unwrap();
    let mut out = SMatrix::<f64, 6, 9>::zeros();
    out.copy_from(&j);
    (real, out)
}

fn central_differences(method: KryslMethod, solver: Solver, h: f64) -> SMatrix<f64, 6, 9> {
    let (y0, m) = (start(), moments());
    let centre = run_f64(method, solver, &y0, m);
    let mut out = SMatrix::<f64, 6, 9>::zeros();
    for j in 0..9 {
        let step = if j < 6 { h } else { h * m[j - 6] };
        let at = |sign: f64| {
            let (mut y, mut mm) = (y0, m);
            if j < 6 {
                let mut e = SVector::<f64, 6>::zeros();
                e[j] = sign * step;
                let xi =
                    <ProductAlgebra<So3Algebra<f64>, Rn<3, f64>> as LieAlgebra>::from_coords(&e);
                y = y0.compose(&RigidBodyState::exp(&xi));
            } else {
                mm[j - 6] += sign * step;
            }
            centre
                .inverse()
                .compose(&run_f64(method, solver, &y, mm))
                .log()
                .unwrap()
                .to_coords()
        };
        out.set_column(j, &((at(1.0) - at(-1.0)) / (2.0 * step)));
    }
    out
}

#[test]
fn every_krysl_method_differentiates_its_computed_solution() {
    for solver in [Solver::Newton, Solver::FixedPoint] {
        for method in KryslMethod::ALL {
            let (real, dual) = dual_jacobian(method, solver);
            let plain = run_f64(method, solver, &start(), moments());
            let apart = real
                .inverse()
                .compose(&plain)
                .log()
                .unwrap()
                .to_coords()
                .amax();
            let fd = central_differences(method, solver, H);
            let gap = (dual - fd).amax() / dual.amax();
            println!(
                "{:>9} {solver:?}: real parts − f64 run {apart:.1e}, max |J| {:.3e}, dual − central differences {gap:.2e}",
                method.name(),
                dual.amax()
            );
            assert!(apart < 1e-13, "{}: {apart:e}", method.name());
            assert!(gap < 2e-9, "{} {solver:?}: {gap:e}", method.name());
            if method == KryslMethod::Trap && solver == Solver::Newton {
                // The difference is the central differences' own: other steps do worse.
                for h in [1e-3, 1e-7] {
                    let worse =
                        (dual - central_differences(method, solver, h)).amax() / dual.amax();
                    println!(
                        "{:>9} {solver:?}: central differences with h = {h:e}: {worse:.2e}",
                        method.name()
                    );
                    assert!(worse > gap, "h = {h:e}: {worse:e}");
                }
            }
        }
    }
}
