//! Ensembles: many rigid bodies of one problem — the same torque field, each body with its own
//! inertia, rotor and angular velocity — integrated in parallel in one call, for uncertainty
//! propagation and Monte Carlo studies of attitude motion.
//!
//! Members run on rayon's pool with the GIL released ([`parallel::run_polled`]); each member's
//! numbers depend on its own start only, so any split of an ensemble (over threads, processes
//! or the machines of a Dask cluster) gives the serial run's numbers bit for bit.

mod member;
mod parallel;
mod sensitivity;
mod torque;

use lieode::adaptive::Tolerances;
use lieode::rotation::{RigidBody, catalogue};
use nalgebra::{Quaternion, Vector3};
use numpy::{PyArray1, PyArray3, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

use crate::errors::{InvalidParameterError, to_py, to_py_for_body};
use member::{ADAPTIVE, Method, Rows, Start};
use parallel::{Stopped, run_polled};
use torque::FieldTorque;

pub use member::ADAPTIVE as ADAPTIVE_METHODS;
pub use sensitivity::{
    INPUTS as SENSITIVITY_INPUTS, METHODS as SENSITIVITY_METHODS, rigid_body_sensitivities,
};

/// The rotors `(M, T, 4)`, angular velocities `(M, T, 3)` and torque-evaluation counts `(M,)`
/// of an ensemble.
type EnsembleArrays<'py> = (
    Bound<'py, PyArray3<f64>>,
    Bound<'py, PyArray3<f64>>,
    Bound<'py, PyArray1<u64>>,
);

/// Integrates `M` rigid bodies under the torque `τ = χ × (Rᵀ f) − c ω + τ₀` (`offset` `χ`,
/// `lab_force` `f`, `damping` `c`, `body_torque` `τ₀`), member `i` from the principal moments
/// `inertia[i]` (or `inertia[0]` for all if it has one row), the rotor `rotors[i]` (scalar
/// first, normalised; finite and non-zero) and the body angular velocity `omegas[i]`, through
/// the increasing output times `times` (`times[0]` the start).
///
/// `method` is `"dop853"`, `"dopri5"` or `"odex"` (adaptive at `rtol`, `atol`, lifted to
/// `SU(2) × ℝ³`; `max_steps` per member, `None` unlimited) or a name of the rotational
/// catalogue at the fixed step `dt` (the output times on its grid). `threads` sizes a pool
/// for this call (`None`: rayon's global pool); `progress(done, total)` is called every 50 ms
/// and at the end. A member's failure raises the package's exception naming the member as
/// `body`; Ctrl-C raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (
    inertia, rotors, omegas, times, offset, lab_force, damping, body_torque, method, rtol, atol,
    dt=None, max_steps=None, threads=None, progress=None
))]
#[allow(clippy::too_many_arguments)]
pub fn rigid_body_ensemble<'py>(
    py: Python<'py>,
    inertia: PyReadonlyArray2<'py, f64>,
    rotors: PyReadonlyArray2<'py, f64>,
    omegas: PyReadonlyArray2<'py, f64>,
    times: PyReadonlyArray1<'py, f64>,
    offset: [f64; 3],
    lab_force: [f64; 3],
    damping: f64,
    body_torque: [f64; 3],
    method: &str,
    rtol: f64,
    atol: f64,
    dt: Option<f64>,
    max_steps: Option<usize>,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
) -> PyResult<EnsembleArrays<'py>> {
    let times = times.as_slice()?.to_vec();
    check_times(&times)?;
    let torque = field_torque(offset, lab_force, damping, body_torque)?;
    let starts = starts(py, &inertia, &rotors, &omegas, times[0])?;
    let method = parse_method(py, method, &times, (rtol, atol), dt, max_steps)?;
    let pool = match threads {
        None => None,
        Some(0) => {
            return Err(InvalidParameterError::new_err(
                "invalid parameter `threads` = 0: expected at least one thread (or None)",
            ));
        }
        Some(k) => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(k)
                .build()
                .map_err(|e| InvalidParameterError::new_err(format!("`threads`: {e}")))?,
        ),
    };

    let (m, t) = (starts.len(), times.len());
    let mut rotor_rows = vec![0.0; m * t * 4];
    let mut omega_rows = vec![0.0; m * t * 3];
    let items: Vec<(Start, Rows<'_>)> = (starts.into_iter())
        .zip(
            rotor_rows
                .chunks_mut(t * 4)
                .zip(omega_rows.chunks_mut(t * 3)),
        )
        .map(|(start, (rotors, omegas))| (start, Rows { rotors, omegas }))
        .collect();
    let work = |_i: usize, (start, mut rows): (Start, Rows<'_>), cancel: &_| {
        member::run(&method, &torque, &start, &times, &mut rows, cancel)
    };
    let mut report = |py: Python<'_>, done: usize, total: usize| match &progress {
        Some(callback) => callback.call1(py, (done, total)).map(|_| ()),
        None => Ok(()),
    };
    let counts = match run_polled(py, pool.as_ref(), items, work, &mut report) {
        Ok(counts) => counts,
        Err(Stopped::Python(error)) => return Err(error),
        Err(Stopped::Failed(failure)) => {
            return Err(to_py_for_body(py, failure.error, failure.index));
        }
    };
    let counts: Vec<u64> = counts.into_iter().map(|c| c as u64).collect();
    Ok((
        PyArray1::from_vec(py, rotor_rows).reshape([m, t, 4])?,
        PyArray1::from_vec(py, omega_rows).reshape([m, t, 3])?,
        PyArray1::from_vec(py, counts),
    ))
}

/// The output times: at least one, finite, non-decreasing, the last after the first.
fn check_times(times: &[f64]) -> PyResult<()> {
    let invalid =
        |why: &str| InvalidParameterError::new_err(format!("invalid parameter `t_eval`: {why}"));
    if times.is_empty() {
        return Err(invalid("expected at least one time (the start)"));
    }
    if let Some(k) = times.iter().position(|t| !t.is_finite()) {
        return Err(invalid(&format!(
            "t_eval[{k}] = {} is not finite",
            times[k]
        )));
    }
    if let Some(k) = times.windows(2).position(|w| w[1] < w[0]) {
        return Err(invalid(&format!(
            "t_eval[{}] = {} < t_eval[{k}] = {}: expected non-decreasing times",
            k + 1,
            times[k + 1],
            times[k]
        )));
    }
    Ok(())
}

/// The torque field, its parameters checked finite and the damping non-negative.
fn field_torque(
    offset: [f64; 3],
    lab_force: [f64; 3],
    damping: f64,
    body_torque: [f64; 3],
) -> PyResult<FieldTorque> {
    for (name, values) in [
        ("offset", &offset),
        ("lab_force", &lab_force),
        ("body_torque", &body_torque),
    ] {
        if values.iter().any(|v| !v.is_finite()) {
            return Err(InvalidParameterError::new_err(format!(
                "invalid parameter `{name}` = {values:?}: expected finite components"
            )));
        }
    }
    if !(damping.is_finite() && damping >= 0.0) {
        return Err(InvalidParameterError::new_err(format!(
            "invalid parameter `damping` = {damping}: expected a finite non-negative coefficient"
        )));
    }
    Ok(FieldTorque {
        offset: Vector3::from(offset),
        lab_force: Vector3::from(lab_force),
        damping,
        body_torque: Vector3::from(body_torque),
    })
}

/// Every member's start, checked: a valid body, a finite non-zero rotor (normalised), a finite
/// angular velocity; errors name the member as `body`.
fn starts(
    py: Python<'_>,
    inertia: &PyReadonlyArray2<'_, f64>,
    rotors: &PyReadonlyArray2<'_, f64>,
    omegas: &PyReadonlyArray2<'_, f64>,
    t0: f64,
) -> PyResult<Vec<Start>> {
    let (inertia, rotors, omegas) = (inertia.as_array(), rotors.as_array(), omegas.as_array());
    let m = rotors.nrows();
    let shared = inertia.nrows() == 1;
    let shapes_agree = rotors.ncols() == 4
        && omegas.ncols() == 3
        && omegas.nrows() == m
        && inertia.ncols() == 3
        && (shared || inertia.nrows() == m);
    if !shapes_agree {
        return Err(InvalidParameterError::new_err(format!(
            "invalid shapes: rotors {:?}, omegas {:?}, inertia {:?}: expected (M, 4), (M, 3) \
             and (M, 3) or (1, 3)",
            rotors.shape(),
            omegas.shape(),
            inertia.shape()
        )));
    }
    (0..m)
        .map(|i| {
            let j = if shared { 0 } else { i };
            let moments = [inertia[[j, 0]], inertia[[j, 1]], inertia[[j, 2]]];
            let body = RigidBody::new(moments).map_err(|e| to_py_for_body(py, e, i))?;
            let q = Quaternion::new(
                rotors[[i, 0]],
                rotors[[i, 1]],
                rotors[[i, 2]],
                rotors[[i, 3]],
            );
            let norm = q.norm();
            if !(norm.is_finite() && norm > 0.0) {
                return Err(to_py_for_body(
                    py,
                    lieode::Error::InvalidParameter {
                        name: "rotors",
                        value: format!("{:?}", [q.w, q.i, q.j, q.k]),
                        expected: "a finite non-zero rotor".into(),
                    },
                    i,
                ));
            }
            let omega = Vector3::new(omegas[[i, 0]], omegas[[i, 1]], omegas[[i, 2]]);
            if omega.iter().any(|w| !w.is_finite()) {
                return Err(to_py_for_body(
                    py,
                    lieode::Error::NonFiniteBody {
                        what: "omegas",
                        body: i,
                        t: t0,
                    },
                    i,
                ));
            }
            Ok(Start {
                body,
                q: q / norm,
                omega,
            })
        })
        .collect()
}

/// The method: an adaptive one by name with its tolerances, or a catalogue method at `dt` with
/// every output time on its grid.
fn parse_method(
    py: Python<'_>,
    name: &str,
    times: &[f64],
    (rtol, atol): (f64, f64),
    dt: Option<f64>,
    max_steps: Option<usize>,
) -> PyResult<Method> {
    if ADAPTIVE.contains(&name) {
        if dt.is_some() {
            return Err(InvalidParameterError::new_err(format!(
                "invalid parameter `dt`: the adaptive method {name:?} chooses its own steps \
                 (give `rtol` and `atol`, or a fixed-step catalogue method)"
            )));
        }
        return Ok(Method::Adaptive {
            name: name.to_string(),
            tolerances: Tolerances::scalar(rtol, atol).map_err(|e| to_py(py, e))?,
            max_steps: max_steps.unwrap_or(usize::MAX),
        });
    }
    if !catalogue::NAMES.contains(&name) {
        return Err(InvalidParameterError::new_err(format!(
            "invalid parameter `method` = {name:?}: expected one of {ADAPTIVE:?} (adaptive) or \
             of the rotational catalogue {:?} (fixed step `dt`)",
            catalogue::NAMES
        )));
    }
    let Some(dt) = dt.filter(|dt| dt.is_finite() && *dt > 0.0) else {
        return Err(InvalidParameterError::new_err(format!(
            "invalid parameter `dt` = {dt:?}: the fixed-step method {name:?} needs a finite \
             positive step"
        )));
    };
    let t0 = times[0];
    let output_steps = (times.iter().enumerate())
        .map(|(k, &t)| {
            let n = ((t - t0) / dt).round();
            // The grid time the clock reaches after n steps is t0 + n dt up to rounding.
            let off_grid = (t - (t0 + n * dt)).abs() > 1e-6 * dt;
            if off_grid || n > u32::MAX as f64 {
                return Err(InvalidParameterError::new_err(format!(
                    "invalid parameter `t_eval`: t_eval[{k}] = {t} is not on the grid \
                     t_eval[0] + n·dt of the fixed step dt = {dt}"
                )));
            }
            Ok(n as usize)
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(Method::Fixed {
        name: name.to_string(),
        dt,
        output_steps,
    })
}
