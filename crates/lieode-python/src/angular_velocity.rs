//! `integrate_angular_velocity`: the orientation `R(t)` of a frame turning with a prescribed
//! angular velocity, `Ṙ = ½ Ω(t, R) R` with `Ω` in the inertial frame (Boyle's convention and
//! numpy-quaternion's), integrated in Rust with DOP853 (Hairer's `atol`, no `rtol`, as
//! numpy-quaternion sets SciPy's DOP853) and a Python callable for `Ω`.

use std::cell::RefCell;

use lieode::adaptive::{ControllerParameters, Dop853, LieStepper, Tolerances, VectorStepper};
use lieode::integrate::{Options, integrate};
use lieode::kinematics::{
    Attitude, Formulated, Formulation, Kinematics, Lifted, RotationProblem, Rotor,
};
use lieode::lie::unit_quaternion::UnitQuat;
use lieode::stepper::{Span, Stepper};
use nalgebra::{Const, Quaternion, SVector, Vector3};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;

use crate::errors::{InvalidParameterError, to_py};

/// The formulations `integrate_angular_velocity` offers: `"lifted"` integrates on the unit
/// quaternions themselves (Munthe-Kaas lift of DOP853, so every stored rotor is unit to
/// round-off), `"rotor"` integrates the four components of `R` as a vector (what
/// numpy-quaternion and quaternionic do; the stored rotors are normalised on output).
pub const FORMULATIONS: [&str; 2] = ["lifted", "rotor"];

/// The times `t` (N) and the rotors `R` (N × 4, scalar first) returned to Python.
type TimesAndRotors<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray2<f64>>);

/// The times of the accepted steps from `t0` to `t1` and the unit rotors there, scalar first,
/// for the angular velocity `omega(t, R)` (a Python callable taking the time and the rotor as
/// a float array `[w, x, y, z]`, returning three numbers), from the rotor `r0` (normalised;
/// it must be finite and non-zero), with DOP853 at absolute `tolerance` in `formulation`.
///
/// An exception raised by `omega` comes out unchanged; a library failure is one of the
/// package's exceptions (`lieode.LieodeError` and its subclasses) naming the parameter and
/// the time.
#[pyfunction]
#[pyo3(signature = (omega, t0, t1, r0, tolerance, formulation))]
pub fn integrate_angular_velocity<'py>(
    py: Python<'py>,
    omega: Bound<'py, PyAny>,
    t0: f64,
    t1: f64,
    r0: [f64; 4],
    tolerance: f64,
    formulation: &str,
) -> PyResult<TimesAndRotors<'py>> {
    let q0 = start_rotor(r0)?;
    let tolerances = Tolerances::scalar(0.0, tolerance).map_err(|e| to_py(py, e))?;
    // The first exception `omega` raises; the integration then sees NaN and stops.
    let failure: RefCell<Option<PyErr>> = RefCell::new(None);
    let problem = Kinematics::inertial(|t: f64, attitude: &Attitude<'_>| {
        if failure.borrow().is_some() {
            return Vector3::repeat(f64::NAN);
        }
        match call_omega(py, &omega, t, attitude) {
            Ok(w) => w,
            Err(error) => {
                *failure.borrow_mut() = Some(error);
                Vector3::repeat(f64::NAN)
            }
        }
    });
    let parameters = ControllerParameters::dop853();
    let result = match formulation {
        "lifted" => {
            let dop853 = Dop853::new(tolerances, parameters).map_err(|e| to_py(py, e))?;
            run(Lifted, LieStepper::new(dop853), problem, &q0, t0, t1)
        }
        "rotor" => {
            let dop853 =
                Dop853::<Const<4>>::new(tolerances, parameters).map_err(|e| to_py(py, e))?;
            run(Rotor, VectorStepper::new(dop853), problem, &q0, t0, t1)
        }
        other => {
            return Err(InvalidParameterError::new_err(format!(
                "invalid parameter `formulation` = {other:?}: expected one of {FORMULATIONS:?}"
            )));
        }
    };
    if let Some(error) = failure.into_inner() {
        return Err(error);
    }
    let (times, rotors) = result.map_err(|e| to_py(py, e))?;
    let n = times.len();
    let flat: Vec<f64> = rotors.iter().flat_map(|q| [q.w, q.i, q.j, q.k]).collect();
    let rotors = PyArray1::from_vec(py, flat).reshape([n, 4])?;
    Ok((PyArray1::from_vec(py, times), rotors))
}

/// `r0` as a unit rotor.
fn start_rotor(r0: [f64; 4]) -> PyResult<UnitQuat<f64>> {
    let q = Quaternion::new(r0[0], r0[1], r0[2], r0[3]);
    let norm = q.norm();
    if !(norm.is_finite() && norm > 0.0) {
        return Err(InvalidParameterError::new_err(format!(
            "invalid parameter `R0` = {r0:?}: expected a finite non-zero rotor"
        )));
    }
    UnitQuat::from_quaternion(q / norm).map_err(|_| {
        InvalidParameterError::new_err(format!(
            "invalid parameter `R0` = {r0:?}: expected a finite non-zero rotor"
        ))
    })
}

/// `omega(t, R)` for the orientation `attitude`, as a vector of three finite-or-not numbers.
fn call_omega(
    py: Python<'_>,
    omega: &Bound<'_, PyAny>,
    t: f64,
    attitude: &Attitude<'_>,
) -> PyResult<Vector3<f64>> {
    let rotor = attitude.rotor();
    let q = rotor.quaternion();
    let r = PyArray1::from_slice(py, &[q.w, q.i, q.j, q.k]);
    let value = omega.call1((t, r))?;
    let [x, y, z]: [f64; 3] = value.extract()?;
    Ok(Vector3::new(x, y, z))
}

/// Integrates `problem` in `formulation` with `stepper` from `q0` at `t0` to `t1`: the times
/// and unit rotors of the accepted steps.
fn run<F, S, P>(
    formulation: F,
    stepper: S,
    problem: P,
    q0: &UnitQuat<f64>,
    t0: f64,
    t1: f64,
) -> lieode::Result<(Vec<f64>, Vec<Quaternion<f64>>)>
where
    F: Formulation<0>,
    P: RotationProblem<0>,
    S: Stepper<F::Ode<P>, State = F::State>,
{
    let mut formulated = Formulated::new(formulation, stepper);
    let mut ode = formulated.ode(problem);
    let y0 = formulated.initial_state(q0, &SVector::zeros())?;
    let span = Span::new(t0, t1)?;
    let solution = integrate(&mut formulated, &mut ode, &y0, &span, Options::default())?;
    let rotors = (formulated.rotors(&solution).iter())
        .map(|q| *q.quaternion())
        .collect();
    Ok((solution.times, rotors))
}
