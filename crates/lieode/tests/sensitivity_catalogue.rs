//! Forward sensitivities of the rotational catalogue (`lieode::sensitivity` through
//! `SingleBody<K, Dual<P>>` driven by `integrate`), every method:
//! - the real parts of a dual run are the `f64` run's states to rounding (bit for bit but where
//!   the method divides by a dual number: `num-dual` multiplies by the reciprocal instead);
//! - the Jacobian of the final state with respect to the initial rotor, the initial angular
//!   velocity and the three principal moments, under an attitude-, rate- and time-dependent
//!   torque, against central differences of the same `f64` method;
//! - on the SPIRAL cylinder (constant body torque), the derivatives of `ω(T)` with respect to
//!   `ω₀`, the torque and the moments against the derivatives of the analytic `ω(t)` (SPIRAL
//!   Eqs. 11–12), converging at the rate the method's own `ω` converges.

use lieode::body::{Frame, Orientation, Torque};
use lieode::integrate::{Options, Record, integrate};
use lieode::lie::{Real, Side};
use lieode::problems::TorquedRigidBody;
use lieode::problems::cylinder::SpiralCylinder;
use lieode::rotation::{
    BussMethod, DirectEulerMethod, FinchamMethod, JohnsonMethod, MercuryDpmMethod, OmelyanCayley,
    OmelyanMethod, RigidBody, RigidBodyMethod, Rk4Method, RotationalState, SingleBody,
    SpiralExponential, SpiralLeapfrogMethod, SpiralMagnusMethod, SpiralMethod,
    VelocityVerletMethod,
};
use lieode::sensitivity::{Dual, Seeds, rotational_jacobian, vector_jacobian};
use lieode::stepper::Span;
use nalgebra::{Quaternion, SMatrix, Vector3};

/// Runs `$check(method, name)` for every method of the catalogue defined once
/// (`RigidBodyMethod`); the Lie-group engines of the catalogue are the engines of
/// `tests/sensitivity.rs`.
macro_rules! every_method {
    ($check:ident) => {
        $check(SpiralMethod::default(), "spiral");
        $check(SpiralLeapfrogMethod::default(), "spiral_leapfrog");
        $check(SpiralMagnusMethod::default(), "spiral_magnus");
        $check(
            OmelyanMethod::<SpiralExponential>::default(),
            "spiral_omelyan",
        );
        $check(OmelyanMethod::<OmelyanCayley>::default(), "omelyan");
        $check(FinchamMethod::default(), "fincham");
        $check(BussMethod::BENCHMARK, "buss");
        $check(JohnsonMethod::default(), "johnson");
        $check(VelocityVerletMethod::default(), "velocity_verlet");
        $check(DirectEulerMethod::default(), "direct_euler");
        $check(MercuryDpmMethod::default(), "mercurydpm");
        $check(Rk4Method::default(), "rk4");
    };
}

/// A method that runs on `f64` and on the dual numbers of both tests.
trait Differentiable: RigidBodyMethod + RigidBodyMethod<Dual<9>> + RigidBodyMethod<Dual<6>> {}
impl<K> Differentiable for K where
    K: RigidBodyMethod + RigidBodyMethod<Dual<9>> + RigidBodyMethod<Dual<6>>
{
}

/// The final state of `K` on `body` from `y0` under `torque`, `steps` steps of `dt`.
fn final_state<K, S, F>(
    method: &K,
    body: RigidBody<S>,
    torque: &mut F,
    y0: &RotationalState<S>,
    dt: f64,
    steps: usize,
) -> RotationalState<S>
where
    K: RigidBodyMethod<S>,
    S: Real,
    F: Torque<S>,
{
    let mut stepper = SingleBody::<K, S>::with_method(method.clone(), body);
    let span = Span::stride(y0.t, dt, steps).unwrap();
    let solution = integrate(
        &mut stepper,
        torque,
        y0,
        &span,
        Options::record(Record::Ends),
    )
    .unwrap();
    *solution.last().unwrap().1
}

// ---------------------------------------------------------------------------------------------
// Central differences under the manufactured torque of `TorquedRigidBody` (gravity about an
// offset centre, damping and a time-dependent motor torque).

const DT: f64 = 2e-3;
const STEPS: usize = 250;
const Q0: [f64; 4] = [0.9, 0.1, -0.3, 0.2];
const W0: [f64; 3] = [0.7, -1.1, 0.4];
/// The central-difference step: the truncation error `h²/6 ‖∂³y‖` and the rounding error
/// `ε‖y‖/h` balance near `h ≈ 1e-5` (measured below: 1e-4 and 1e-6 agree less well).
const H: f64 = 1e-5;

fn initial_rotor() -> Quaternion<f64> {
    let q = Quaternion::new(Q0[0], Q0[1], Q0[2], Q0[3]);
    q / q.norm()
}

/// The body-frame rotation vector taking `base` to `q` (`q = base ⊗ exp(θ/2)` up to scale).
fn rotation_between(base: &Quaternion<f64>, q: &Quaternion<f64>) -> Vector3<f64> {
    let relative = base.conjugate() * q;
    let v = relative.imag();
    let angle = 2.0 * v.norm().atan2(relative.w);
    if v.norm() == 0.0 {
        v
    } else {
        v * (angle / v.norm())
    }
}

/// `exp(v)` as a unit quaternion, written out here (not the library's).
fn turn(v: &Vector3<f64>) -> Quaternion<f64> {
    let angle = v.norm();
    if angle == 0.0 {
        return Quaternion::identity();
    }
    let axis = v / angle;
    let (s, c) = angle.sin_cos();
    Quaternion::new(c, s * axis.x, s * axis.y, s * axis.z)
}

/// The final state's Jacobian by central differences with step `h`, columns as the seeds:
/// rotor (body-frame rotation vector), ω₀, moments.
fn central_differences<K: Differentiable>(
    method: &K,
    h: f64,
) -> (RotationalState, SMatrix<f64, 6, 9>) {
    let torque = TorquedRigidBody::default();
    let inertia = torque.rigid().inertia();
    let q0 = initial_rotor();
    let run = |q: Quaternion<f64>, w: Vector3<f64>, moments: Vector3<f64>| {
        let body = RigidBody::new(moments.into()).unwrap();
        let y0 = RotationalState::new(0.0, q, w);
        final_state::<K, f64, _>(method, body, &mut torque.clone(), &y0, DT, STEPS)
    };
    let centre = run(q0, Vector3::from(W0), inertia);
    let mut j = SMatrix::<f64, 6, 9>::zeros();
    for column in 0..9 {
        let perturbed = |sign: f64| {
            let e = Vector3::ith(column % 3, sign * h);
            match column / 3 {
                0 => run(q0 * turn(&(e * 0.5)), Vector3::from(W0), inertia),
                1 => run(q0, Vector3::from(W0) + e, inertia),
                _ => run(q0, Vector3::from(W0), inertia + e),
            }
        };
        let (plus, minus) = (perturbed(1.0), perturbed(-1.0));
        let rotation = (rotation_between(&centre.q, &plus.q)
            - rotation_between(&centre.q, &minus.q))
            / (2.0 * h);
        let omega = (plus.omega - minus.omega) / (2.0 * h);
        j.fixed_view_mut::<3, 1>(0, column).copy_from(&rotation);
        j.fixed_view_mut::<3, 1>(3, column).copy_from(&omega);
    }
    (centre, j)
}

/// The dual run: its real part and Jacobian.
fn dual_jacobian<K: Differentiable>(method: &K) -> (RotationalState, SMatrix<f64, 6, 9>) {
    let torque = TorquedRigidBody::default();
    let mut seeds = Seeds::<9>::new();
    let q = seeds.rotor("q0", &initial_rotor(), Side::Right).unwrap();
    let omega = seeds.vector("omega0", &Vector3::from(W0)).unwrap();
    let moments = seeds.vector("inertia", &torque.rigid().inertia()).unwrap();
    let body = RigidBody::from_scalar_moments(moments).unwrap();
    let y0 = RotationalState { t: 0.0, q, omega };
    let end = final_state::<K, Dual<9>, _>(method, body, &mut torque.clone(), &y0, DT, STEPS);
    rotational_jacobian(&end, Side::Right)
}

fn dual_run_matches_central_differences<K: Differentiable>(method: K, name: &str) {
    let (real, dual) = dual_jacobian(&method);
    let (centre, fd) = central_differences(&method, H);
    // The real parts are the f64 run, to rounding.
    let apart = (real.q.coords - centre.q.coords)
        .amax()
        .max((real.omega - centre.omega).amax() / centre.omega.amax());
    let bitwise = real.q == centre.q && real.omega == centre.omega;
    println!("{name:>16}: real parts − f64 run {apart:.1e} (bit for bit: {bitwise})");
    assert!(
        apart < 1e-14,
        "{name}: real parts {apart:e} from the f64 run"
    );
    let scale = dual.amax();
    let gap = (dual - fd).amax() / scale;
    println!("{name:>16}: max |J| {scale:.3e}, dual − central differences {gap:.2e} (relative)");
    assert!(gap < 1e-9, "{name}: {gap:e}");
    // The step choice: a coarser and a finer h agree less well (truncation, rounding).
    if name == "spiral" {
        for h in [1e-3, 1e-8] {
            let (_, other) = central_differences(&method, h);
            let worse = (dual - other).amax() / scale;
            println!("{name:>16}: h = {h:e}: {worse:.2e}");
            assert!(worse > gap, "{name}: h = {h:e} agrees better ({worse:e})");
        }
    }
}

#[test]
fn every_method_differentiates_its_computed_solution() {
    every_method!(dual_run_matches_central_differences);
}

// ---------------------------------------------------------------------------------------------
// The SPIRAL cylinder: I_y = I_z = I_⊥, τ = (M_x, 0, 0) in the body frame, and
// ω_x(t) = ω_x⁰ + (M_x/I_x) t, φ(t) = κ (ω_x⁰ t + M_x t²/(2 I_x)), κ = (I_x − I_⊥)/I_⊥,
// ω_y = ω_y⁰ cos φ − ω_z⁰ sin φ, ω_z = ω_y⁰ sin φ + ω_z⁰ cos φ (SPIRAL Eqs. 11–12), written
// here over dual numbers, whose derivative parts are then the exact sensitivities.

/// A constant body-frame torque `(M_x, 0, 0)` whose `M_x` may be a dual number.
#[derive(Clone, Copy)]
struct Spin<T>(T);

impl<T: Real> Torque<T> for Spin<T> {
    fn frame(&self) -> Frame {
        Frame::Body
    }
    fn torque<A: Orientation<T>>(&self, _t: T, _attitude: &A, _omega: &Vector3<T>) -> Vector3<T> {
        Vector3::new(self.0, T::zero(), T::zero())
    }
}

fn analytic_omega<T: Real>(w0: &Vector3<T>, m: T, ix: T, ip: T, t: T) -> Vector3<T> {
    let kappa = (ix - ip) / ip;
    let two = T::one() + T::one();
    let phase = kappa * (w0.x * t + m * t * t / (two * ix));
    let (s, c) = phase.sin_cos();
    Vector3::new(w0.x + m / ix * t, w0.y * c - w0.z * s, w0.y * s + w0.z * c)
}

struct CylinderErrors {
    omega: f64,
    sensitivity: f64,
}

fn cylinder_errors<K: Differentiable>(method: &K, dt: f64) -> CylinderErrors {
    let cylinder = SpiralCylinder::paper().unwrap();
    let inertia = cylinder.body().inertia();
    assert_eq!(inertia.y, inertia.z);
    let mut seeds = Seeds::<6>::new();
    let w0 = seeds
        .vector("omega0", &Vector3::from(SpiralCylinder::OMEGA0))
        .unwrap();
    let m = seeds
        .parameter("torque_x", SpiralCylinder::TORQUE_X)
        .unwrap();
    let ix = seeds.parameter("inertia_x", inertia.x).unwrap();
    let ip = seeds.parameter("inertia_perp", inertia.y).unwrap();
    let body = RigidBody::from_scalar_moments(Vector3::new(ix, ip, ip)).unwrap();
    let q0 = Quaternion::from(Quaternion::<f64>::identity().coords.map(Dual::from_re));
    let y0 = RotationalState {
        t: 0.0,
        q: q0,
        omega: w0,
    };
    let t_end = SpiralCylinder::T_MAX;
    let steps = (t_end / dt).round() as usize;
    let end = final_state::<K, Dual<6>, _>(method, body, &mut Spin(m), &y0, dt, steps);
    let exact = analytic_omega(&w0, m, ix, ip, Dual::from_re(t_end));
    let omega = (end.omega.map(|v| v.re) - exact.map(|v| v.re)).amax();
    let sensitivity = (vector_jacobian(&end.omega) - vector_jacobian(&exact)).amax()
        / vector_jacobian(&exact).amax();
    CylinderErrors {
        omega: omega / exact.map(|v| v.re).amax(),
        sensitivity,
    }
}

fn sensitivities_converge_with_the_angular_velocity<K: Differentiable>(method: K, name: &str) {
    let coarse = cylinder_errors(&method, 1e-3);
    let fine = cylinder_errors(&method, 2.5e-4);
    let slope = |a: f64, b: f64| (a / b).log2() / 2.0;
    let omega_slope = slope(coarse.omega, fine.omega);
    let sensitivity_slope = slope(coarse.sensitivity, fine.sensitivity);
    println!(
        "{name:>16}: ω error {:.2e} → {:.2e} (slope {omega_slope:.2}), ∂ω error {:.2e} → {:.2e} \
         (slope {sensitivity_slope:.2})",
        coarse.omega, fine.omega, coarse.sensitivity, fine.sensitivity
    );
    assert!(sensitivity_slope > 0.9, "{name}: {sensitivity_slope}");
    assert!(
        (sensitivity_slope - omega_slope).abs() < 0.3,
        "{name}: ω slope {omega_slope}, ∂ω slope {sensitivity_slope}"
    );
}

#[test]
fn cylinder_sensitivities_converge_to_the_analytic_ones() {
    every_method!(sensitivities_converge_with_the_angular_velocity);
}
