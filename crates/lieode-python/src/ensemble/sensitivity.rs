//! The sensitivities of one rigid body's computed motion under a method of the rotational
//! catalogue: the method's one definition ([`RigidBodyMethod`]) stepped on dual numbers
//! ([`lieode::sensitivity`]) by [`SingleBody`] and [`integrate`], under a [`FieldTorque`] whose
//! parameters may be directions too.
//!
//! The directions are groups of the inputs, seeded in the order asked for: `R0` (three, the
//! body-frame rotation vector `θ` of a small turn, `q = q₀ ⊗ exp(θ/2)`), `omega0`, `inertia`,
//! `offset`, `lab_force`, `body_torque` (three each) and `damping` (one). The dual size `P` is
//! a compile-time constant, taken from [`SIZES`]: the smallest that holds the directions, the
//! unused ones left zero.

use lieode::integrate::{Options, Record, integrate};
use lieode::lie::Side;
use lieode::rotation::{
    BussMethod, DirectEulerMethod, FinchamMethod, JohnsonMethod, MercuryDpmMethod, OmelyanCayley,
    OmelyanMethod, RigidBody, RigidBodyMethod, Rk4Method, RotationalState, SingleBody,
    SpiralExponential, SpiralLeapfrogMethod, SpiralMagnusMethod, SpiralMethod,
    VelocityVerletMethod,
};
use lieode::sensitivity::{Dual, Seeds, rotational_jacobian};
use lieode::stepper::{Span, StepperInfo};
use nalgebra::{Quaternion, Vector3};
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::prelude::*;

use super::field_torque;
use super::torque::FieldTorque;
use crate::errors::{InvalidParameterError, to_py, with_context};

/// The methods of the rotational catalogue defined once ([`RigidBodyMethod`]), which run on
/// dual numbers: every name of `lieode::rotation::catalogue` but its Lie-group engines (each
/// name's method is the catalogue's own, checked against the ensemble's `f64` runs by the
/// tests).
pub const METHODS: [&str; 13] = [
    "rk4",
    "direct_euler",
    "velocity_verlet",
    "buss",
    "buss16",
    "johnson",
    "fincham",
    "omelyan",
    "mercurydpm",
    "spiral_leapfrog",
    "spiral",
    "spiral_omelyan",
    "spiral_magnus",
];

/// The package's `InvalidParameterError` naming the parameter `name` (through the library's
/// error, as every refusal of the package reads).
fn refused(py: Python<'_>, name: &'static str, value: String, expected: &str) -> PyErr {
    to_py(
        py,
        lieode::Error::InvalidParameter {
            name,
            value,
            expected: expected.into(),
        },
    )
}

/// The groups of directions, with their sizes.
pub const INPUTS: [(&str, usize); 7] = [
    ("R0", 3),
    ("omega0", 3),
    ("inertia", 3),
    ("offset", 3),
    ("lab_force", 3),
    ("damping", 1),
    ("body_torque", 3),
];

/// The dual sizes compiled: `P = 9` (the default three groups), `P = 19` (all).
pub const SIZES: [usize; 2] = [9, 19];

/// The recorded times, rotors `(T, 4)`, angular velocities `(T, 3)`, Jacobians `(T, 6, m)`,
/// the directions' names and the torque evaluations.
type Output<'py> = (
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray3<f64>>,
    Vec<String>,
    u64,
);

/// The checked inputs of a run.
struct Problem {
    inertia: Vector3<f64>,
    q: Quaternion<f64>,
    omega: Vector3<f64>,
    torque: FieldTorque,
    dt: f64,
    steps: usize,
    every: usize,
    directions: Vec<&'static str>,
}

/// A run's recorded states: times, rotors and angular velocities, and the Jacobians (row-major
/// `6 × m` per time).
struct Recorded {
    times: Vec<f64>,
    rotors: Vec<f64>,
    omegas: Vec<f64>,
    jacobians: Vec<f64>,
    names: Vec<String>,
    evaluations: usize,
}

/// The sensitivities of one body from the principal moments `inertia`, the rotor `rotor`
/// (scalar first; finite, non-zero, normalised) and the body angular velocity `omega` at
/// `t = 0`, `n_steps` steps of `dt` of the catalogue method `method`, under the torque
/// `τ = χ × (Rᵀ f) − c ω + τ₀`, recording every `every`-th step (and the last), with respect
/// to the groups `with_respect_to` (of [`INPUTS`], in that order of columns).
#[pyfunction]
#[pyo3(signature = (
    inertia, rotor, omega, dt, n_steps, offset, lab_force, damping, body_torque, method,
    with_respect_to, every
))]
#[allow(clippy::too_many_arguments)]
pub fn rigid_body_sensitivities<'py>(
    py: Python<'py>,
    inertia: [f64; 3],
    rotor: [f64; 4],
    omega: [f64; 3],
    dt: f64,
    n_steps: usize,
    offset: [f64; 3],
    lab_force: [f64; 3],
    damping: f64,
    body_torque: [f64; 3],
    method: &str,
    with_respect_to: Vec<String>,
    every: usize,
) -> PyResult<Output<'py>> {
    let invalid = |value: &[String], expected: String| {
        with_context(
            InvalidParameterError::new_err(format!(
                "invalid parameter `with_respect_to` = {value:?}: expected {expected}"
            )),
            "with_respect_to",
            None,
            None,
        )
    };
    let torque = field_torque(offset, lab_force, damping, body_torque)?;
    RigidBody::new(inertia).map_err(|e| to_py(py, e))?;
    let q = Quaternion::new(rotor[0], rotor[1], rotor[2], rotor[3]);
    let norm = q.norm();
    if !(norm.is_finite() && norm > 0.0) {
        return Err(refused(
            py,
            "R0",
            format!("{rotor:?}"),
            "a finite non-zero rotor",
        ));
    }
    if omega.iter().any(|w| !w.is_finite()) {
        return Err(to_py(
            py,
            lieode::Error::NonFiniteState {
                what: "omega0",
                t: 0.0,
            },
        ));
    }
    if !(dt.is_finite() && dt > 0.0) {
        return Err(refused(py, "dt", format!("{dt}"), "a finite positive step"));
    }
    if n_steps == 0 {
        return Err(refused(py, "n_steps", "0".into(), "at least one step"));
    }
    if every == 0 {
        return Err(refused(py, "every", "0".into(), "a positive step count"));
    }
    if !METHODS.contains(&method) {
        let expected = format!(
            "one of {METHODS:?} (the catalogue's methods defined once; the Lie-group engines do \
             not run on dual numbers here)"
        );
        return Err(refused(py, "method", format!("{method:?}"), &expected));
    }
    let mut directions = Vec::with_capacity(with_respect_to.len());
    for name in &with_respect_to {
        let Some(&(known, _)) = INPUTS.iter().find(|(n, _)| n == name) else {
            let names: Vec<&str> = INPUTS.iter().map(|(n, _)| *n).collect();
            return Err(invalid(
                &with_respect_to,
                format!("names among {names:?}, not {name:?}"),
            ));
        };
        if directions.contains(&known) {
            return Err(invalid(
                &with_respect_to,
                format!("each name once ({name:?} is repeated)"),
            ));
        }
        directions.push(known);
    }
    let problem = Problem {
        inertia: Vector3::from(inertia),
        q: q / norm,
        omega: Vector3::from(omega),
        torque,
        dt,
        steps: n_steps,
        every,
        directions,
    };
    let method = method.to_string();
    let recorded = py
        .detach(|| by_name(&method, &problem))
        .map_err(|e| to_py(py, e))?;
    let (t, m) = (recorded.times.len(), recorded.names.len());
    Ok((
        PyArray1::from_vec(py, recorded.times),
        PyArray1::from_vec(py, recorded.rotors).reshape([t, 4])?,
        PyArray1::from_vec(py, recorded.omegas).reshape([t, 3])?,
        PyArray1::from_vec(py, recorded.jacobians).reshape([t, 6, m])?,
        recorded.names,
        recorded.evaluations as u64,
    ))
}

/// The run of the method called `name` (one of [`METHODS`]), as the catalogue defines it.
fn by_name(name: &str, problem: &Problem) -> lieode::Result<Recorded> {
    match name {
        "rk4" => sized(Rk4Method::default(), problem),
        "direct_euler" => sized(DirectEulerMethod, problem),
        "velocity_verlet" => sized(VelocityVerletMethod, problem),
        "buss" => sized(BussMethod::BUSS_2000, problem),
        "buss16" => sized(BussMethod::BENCHMARK, problem),
        "johnson" => sized(JohnsonMethod, problem),
        "fincham" => sized(FinchamMethod, problem),
        "omelyan" => sized(OmelyanMethod::<OmelyanCayley>::default(), problem),
        "mercurydpm" => sized(MercuryDpmMethod::default(), problem),
        "spiral_leapfrog" => sized(SpiralLeapfrogMethod::default(), problem),
        "spiral" => sized(SpiralMethod::default(), problem),
        "spiral_omelyan" => sized(OmelyanMethod::<SpiralExponential>::default(), problem),
        "spiral_magnus" => sized(SpiralMagnusMethod::default(), problem),
        _ => Err(lieode::Error::InvalidParameter {
            name: "method",
            value: format!("{name:?}"),
            expected: format!("one of {METHODS:?}"),
        }),
    }
}

/// The run on the smallest dual size of [`SIZES`] holding the directions.
fn sized<K>(method: K, problem: &Problem) -> lieode::Result<Recorded>
where
    K: RigidBodyMethod<Dual<9>> + RigidBodyMethod<Dual<19>>,
{
    let count: usize = (problem.directions.iter())
        .map(|d| INPUTS.iter().find(|(n, _)| n == d).map_or(0, |(_, k)| *k))
        .sum();
    if count <= SIZES[0] {
        run::<K, 9>(method, problem)
    } else {
        run::<K, 19>(method, problem)
    }
}

/// `x` as dual numbers, seeded as `name` if it is a direction.
fn vector<const P: usize>(
    seeds: &mut Seeds<P>,
    problem: &Problem,
    name: &str,
    x: &Vector3<f64>,
) -> lieode::Result<Vector3<Dual<P>>> {
    if problem.directions.contains(&name) {
        seeds.vector(name, x)
    } else {
        Ok(x.map(Dual::from_re))
    }
}

/// The run of `method` on `Dual<P>`.
fn run<K, const P: usize>(method: K, problem: &Problem) -> lieode::Result<Recorded>
where
    K: RigidBodyMethod<Dual<P>>,
{
    // Seeded in the order asked for, so the columns come in that order.
    let mut seeds = Seeds::<P>::new();
    let q0 = Quaternion::from(problem.q.coords.map(Dual::from_re));
    let mut state = RotationalState {
        t: 0.0,
        q: q0,
        omega: problem.omega.map(Dual::from_re),
    };
    let mut inertia = problem.inertia.map(Dual::from_re);
    let f = &problem.torque;
    let mut torque = FieldTorque {
        offset: f.offset.map(Dual::from_re),
        lab_force: f.lab_force.map(Dual::from_re),
        damping: Dual::from_re(f.damping),
        body_torque: f.body_torque.map(Dual::from_re),
    };
    for &name in &problem.directions {
        match name {
            "R0" => state.q = seeds.rotor(name, &problem.q, Side::Right)?,
            "omega0" => state.omega = vector(&mut seeds, problem, name, &problem.omega)?,
            "inertia" => inertia = vector(&mut seeds, problem, name, &problem.inertia)?,
            "offset" => torque.offset = vector(&mut seeds, problem, name, &f.offset)?,
            "lab_force" => torque.lab_force = vector(&mut seeds, problem, name, &f.lab_force)?,
            "body_torque" => {
                torque.body_torque = vector(&mut seeds, problem, name, &f.body_torque)?;
            }
            _ => torque.damping = seeds.parameter(name, f.damping)?,
        }
    }
    let body = RigidBody::from_scalar_moments(inertia)?;
    let mut stepper = SingleBody::<K, Dual<P>>::with_method(method, body);
    let span = Span::stride(0.0, problem.dt, problem.steps)?;
    let record = if problem.every == 1 {
        Record::All
    } else {
        Record::Every(problem.every)
    };
    let solution = integrate(
        &mut stepper,
        &mut torque,
        &state,
        &span,
        Options::record(record),
    )?;
    let m = seeds.len();
    let count = solution.states.len();
    let mut recorded = Recorded {
        times: solution.times.clone(),
        rotors: Vec::with_capacity(4 * count),
        omegas: Vec::with_capacity(3 * count),
        jacobians: Vec::with_capacity(6 * m * count),
        names: seeds.names().to_vec(),
        evaluations: stepper.stats().rhs_evaluations,
    };
    for (&t, y) in solution.times.iter().zip(&solution.states) {
        let (real, j) = rotational_jacobian(y, Side::Right);
        if !j.iter().all(|v| v.is_finite()) {
            return Err(lieode::Error::NonFiniteState {
                what: "jacobian",
                t,
            });
        }
        recorded
            .rotors
            .extend_from_slice(&[real.q.w, real.q.i, real.q.j, real.q.k]);
        recorded.omegas.extend_from_slice(real.omega.as_slice());
        for row in 0..6 {
            recorded
                .jacobians
                .extend((0..m).map(|column| j[(row, column)]));
        }
    }
    Ok(recorded)
}
