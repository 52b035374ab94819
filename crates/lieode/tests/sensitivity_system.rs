//! Forward sensitivities of the many-body methods (`PcdmSystem`, `ImprovedPcdmSystem`,
//! `Rk4System` and the catalogue's `CatalogueSystem` over dual numbers, driven by
//! `integrate`): two bodies
//! joined by a spring between body-fixed points, with drag (the pair of
//! `problems::SpringPair::conservative`, its stiffness a parameter). The real parts against the
//! `f64` run, the Jacobian of the final positions, rotors and angular velocities of both bodies
//! with respect to initial positions, velocities, a rotor, an angular velocity, the stiffness
//! and a mass, against central differences of the `f64` run.

use lieode::body::quaternion::rotate;
use lieode::body::{Body, Frame};
use lieode::integrate::{Options, Record, integrate};
use lieode::lie::{Lift, Real, Side};
use lieode::problems::SpringPair;
use lieode::rotation::{
    FinchamMethod, RigidBody, SingleBody, SpiralLeapfrogMethod, SpiralMethod, VelocityVerletMethod,
};
use lieode::sensitivity::{Dual, Seeds, rotor_jacobian, vector_jacobian};
use lieode::stepper::{Span, Stepper};
use lieode::system::{
    CatalogueSystem, ImprovedPcdmSystem, Loads, PcdmSystem, Rk4System, SystemForces, SystemState,
    SystemView,
};
use nalgebra::{Quaternion, SMatrix, Vector3};

const DT: f64 = 2e-3;
const STEPS: usize = 200;
const P: usize = 14;
/// The central-difference step (relative for the stiffness and the mass): 1e-4 and 1e-6 agree
/// less well (truncation, rounding; checked on PCDM).
const H: f64 = 1e-5;

/// A spring of stiffness `k` (stored as `S`) between body-fixed anchors, with linear drag:
/// `SpringPair`'s loads, written over every scalar the stiffness lifts to.
#[derive(Clone, Copy)]
struct Spring<S> {
    stiffness: S,
    anchors: [Vector3<f64>; 2],
    rest_length: f64,
    drag: f64,
}

impl<S: Lift<T>, T: Real> SystemForces<T> for Spring<S> {
    fn torque_frame(&self) -> Frame {
        Frame::Lab
    }
    fn body_count(&self) -> Option<usize> {
        Some(2)
    }
    fn loads(&mut self, view: &SystemView<'_, T>, loads: &mut Loads<T>) {
        let (x, v, q) = (view.positions, view.velocities, view.rotors);
        let arm = |i: usize| rotate(&q[i], &self.anchors[i].map(Lift::lift));
        let (arm0, arm1) = (arm(0), arm(1));
        let d = (x[1] + arm1) - (x[0] + arm0);
        let length = d.norm();
        let k: T = self.stiffness.lift();
        let pull = d * (k * (length - self.rest_length.lift()) / length);
        let drag: T = self.drag.lift();
        loads.forces[0] = pull - v[0] * drag;
        loads.forces[1] = -pull - v[1] * drag;
        loads.torques[0] = arm0.cross(&pull);
        loads.torques[1] = arm1.cross(&(-pull));
    }
}

fn pair() -> SpringPair {
    SpringPair::conservative().unwrap()
}

fn spring<S>(stiffness: S) -> Spring<S> {
    let p = pair();
    Spring {
        stiffness,
        anchors: p.anchors,
        rest_length: p.rest_length,
        drag: 0.3,
    }
}

/// The inputs as numbers: x₀ of body 0, v₀ of body 1, the rotor of body 0 (a body-frame
/// rotation vector from the pair's), ω₀ of body 1, k, m₁.
fn inputs() -> [f64; P] {
    let (p, y) = (pair(), pair().initial_state());
    let mut v = [0.0; P];
    v[..3].copy_from_slice(y.positions[0].as_slice());
    v[3..6].copy_from_slice(y.velocities[1].as_slice());
    v[9..12].copy_from_slice(y.omegas[1].as_slice());
    v[12] = p.stiffness;
    v[13] = p.bodies[1].mass();
    v
}

fn turn(v: &Vector3<f64>) -> Quaternion<f64> {
    let angle = v.norm();
    if angle == 0.0 {
        return Quaternion::identity();
    }
    let (s, c) = angle.sin_cos();
    let axis = v / angle;
    Quaternion::new(c, s * axis.x, s * axis.y, s * axis.z)
}

fn rotation_between(base: &Quaternion<f64>, q: &Quaternion<f64>) -> Vector3<f64> {
    let relative = base.conjugate() * q / base.norm_squared();
    let v = relative.imag();
    if v.norm() == 0.0 {
        v
    } else {
        v * (2.0 * v.norm().atan2(relative.w) / v.norm())
    }
}

/// The `f64` state and bodies for the inputs `v`.
fn f64_problem(v: &[f64; P]) -> (SystemState, Vec<Body>, Spring<f64>) {
    let p = pair();
    let mut y = p.initial_state();
    y.positions[0] = Vector3::new(v[0], v[1], v[2]);
    y.velocities[1] = Vector3::new(v[3], v[4], v[5]);
    y.rotors[0] *= turn(&(Vector3::new(v[6], v[7], v[8]) * 0.5));
    y.omegas[1] = Vector3::new(v[9], v[10], v[11]);
    let bodies = vec![
        p.bodies[0],
        Body::with_rigid(v[13], *p.bodies[1].rigid()).unwrap(),
    ];
    (y, bodies, spring(v[12]))
}

/// The rows read from a final state: positions (6), rotation vectors of the rotors from
/// `base` (6), angular velocities (6).
fn read(end: &SystemState, base: &SystemState) -> SMatrix<f64, 18, 1> {
    let mut r = SMatrix::<f64, 18, 1>::zeros();
    for i in 0..2 {
        r.fixed_rows_mut::<3>(3 * i).copy_from(&end.positions[i]);
        r.fixed_rows_mut::<3>(6 + 3 * i)
            .copy_from(&rotation_between(&base.rotors[i], &end.rotors[i]));
        r.fixed_rows_mut::<3>(12 + 3 * i).copy_from(&end.omegas[i]);
    }
    r
}

fn run<T: Real, M, F>(mut system: M, mut forces: F, y0: &SystemState<T>) -> SystemState<T>
where
    M: Stepper<F, State = SystemState<T>>,
{
    let span = Span::stride(0.0, DT, STEPS).unwrap();
    let solution = integrate(
        &mut system,
        &mut forces,
        y0,
        &span,
        Options::record(Record::Ends),
    )
    .unwrap();
    solution.last().unwrap().1.clone()
}

/// Runs one method on `f64` and on `Dual<P>` (its constructor given twice, once per scalar) and
/// checks the real parts and the Jacobian.
fn check<MF, MD>(
    name: &str,
    make_f64: impl Fn(Vec<Body>) -> MF,
    make_dual: impl Fn(Vec<Body<Dual<P>>>) -> MD,
) where
    MF: Stepper<Spring<f64>, State = SystemState>,
    MD: Stepper<Spring<Dual<P>>, State = SystemState<Dual<P>>>,
{
    // The dual run.
    let (y, bodies, _) = f64_problem(&inputs());
    let mut seeds = Seeds::<P>::new();
    let mut yd = SystemState::<Dual<P>> {
        t: 0.0,
        positions: y.positions.iter().map(|x| x.map(Dual::from_re)).collect(),
        velocities: y.velocities.iter().map(|x| x.map(Dual::from_re)).collect(),
        rotors: y
            .rotors
            .iter()
            .map(|q| Quaternion::from(q.coords.map(Dual::from_re)))
            .collect(),
        omegas: y.omegas.iter().map(|x| x.map(Dual::from_re)).collect(),
    };
    yd.positions[0] = seeds.vector("x0[body 0]", &y.positions[0]).unwrap();
    yd.velocities[1] = seeds.vector("v0[body 1]", &y.velocities[1]).unwrap();
    yd.rotors[0] = seeds
        .rotor("q0[body 0]", &y.rotors[0], Side::Right)
        .unwrap();
    yd.omegas[1] = seeds.vector("omega0[body 1]", &y.omegas[1]).unwrap();
    let k = seeds.parameter("stiffness", pair().stiffness).unwrap();
    let m1 = seeds.parameter("mass[body 1]", bodies[1].mass()).unwrap();
    let lift = |b: &Body| {
        let moments = b.rigid().inertia().map(Dual::from_re);
        (
            Dual::from_re(b.mass()),
            RigidBody::from_scalar_moments(moments).unwrap(),
        )
    };
    let (m0, r0) = lift(&bodies[0]);
    let (_, r1) = lift(&bodies[1]);
    let dual_bodies = vec![
        Body::from_scalars(m0, r0).unwrap(),
        Body::from_scalars(m1, r1).unwrap(),
    ];
    let end = run(make_dual(dual_bodies), spring(k), &yd);
    let mut dual = SMatrix::<f64, 18, P>::zeros();
    for i in 0..2 {
        dual.fixed_rows_mut::<3>(3 * i)
            .copy_from(&vector_jacobian(&end.positions[i]));
        let (_, rotation) = rotor_jacobian(&end.rotors[i], Side::Right);
        dual.fixed_rows_mut::<3>(6 + 3 * i).copy_from(&rotation);
        dual.fixed_rows_mut::<3>(12 + 3 * i)
            .copy_from(&vector_jacobian(&end.omegas[i]));
    }
    // The f64 run and central differences.
    let v0 = inputs();
    let plain = |v: &[f64; P]| {
        let (y, bodies, forces) = f64_problem(v);
        run(make_f64(bodies), forces, &y)
    };
    let centre = plain(&v0);
    let real = SystemState {
        t: end.t,
        positions: end.positions.iter().map(|x| x.map(|c| c.re)).collect(),
        velocities: end.velocities.iter().map(|x| x.map(|c| c.re)).collect(),
        rotors: end
            .rotors
            .iter()
            .map(|q| Quaternion::from(q.coords.map(|c| c.re)))
            .collect(),
        omegas: end.omegas.iter().map(|x| x.map(|c| c.re)).collect(),
    };
    let apart = (read(&real, &centre) - read(&centre, &centre)).amax();
    let differences = |step: f64| {
        let mut fd = SMatrix::<f64, 18, P>::zeros();
        for j in 0..P {
            let h = if j >= 12 { step * v0[j] } else { step };
            let at = |sign: f64| {
                let mut v = v0;
                v[j] += sign * h;
                read(&plain(&v), &centre)
            };
            fd.set_column(j, &((at(1.0) - at(-1.0)) / (2.0 * h)));
        }
        (dual - fd).amax() / dual.amax()
    };
    let gap = differences(H);
    if name == "pcdm" {
        for step in [1e-4, 1e-6] {
            let worse = differences(step);
            println!("{name:>14}: central differences with h = {step:e}: {worse:.2e}");
            assert!(worse > gap, "h = {step:e}: {worse:e}");
        }
    }
    println!(
        "{name:>14}: real parts − f64 run {apart:.1e}, max |J| {:.3e}, dual − central differences {gap:.2e}",
        dual.amax()
    );
    assert!(apart < 1e-13, "{name}: {apart:e}");
    assert!(gap < 1e-9, "{name}: {gap:e}");
}

#[test]
fn the_many_body_methods_differentiate_their_computed_solution() {
    check("pcdm", PcdmSystem::new, PcdmSystem::new);
    check(
        "improved_pcdm",
        ImprovedPcdmSystem::new,
        ImprovedPcdmSystem::new,
    );
    check("rk4", Rk4System::new, Rk4System::new);
}

/// The catalogue's many-body adapter, in both of its forms (leapfrog: SPIRAL leapfrog,
/// Fincham; velocity Verlet: Velocity Verlet) and for a synchronous method (SPIRAL).
#[test]
fn the_catalogue_on_many_bodies_differentiates_its_computed_solution() {
    macro_rules! catalogue {
        ($name:literal, $method:ty) => {
            check(
                $name,
                |b| CatalogueSystem::new(b, SingleBody::<$method>::new),
                |b| CatalogueSystem::new(b, SingleBody::<$method, Dual<P>>::new),
            )
        };
    }
    catalogue!("spiral_leapfrog", SpiralLeapfrogMethod);
    catalogue!("spiral", SpiralMethod);
    catalogue!("fincham", FinchamMethod);
    catalogue!("velocity_verlet", VelocityVerletMethod);
}
