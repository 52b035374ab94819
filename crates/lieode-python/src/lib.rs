//! The Rust side of the Python package `lieode` (the extension module `lieode._lieode`, wrapped
//! by the pure-Python package in `python/lieode`, which is what users import).
//!
//! Built into a wheel by maturin (`pip install ./crates/lieode-python`); its tests are Python
//! (`crates/lieode-python/tests`), run by the repository's test command.

use pyo3::prelude::*;

mod angular_velocity;
mod ensemble;
mod errors;
mod rigid_bodies;
mod solve_ivp;
mod spline;

/// The extension module.
#[pymodule]
fn _lieode(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // rust-numpy loads numpy's C API on first use, running Python code; loaded here, at import,
    // so that no later call (say one a Ctrl-C lands in) can fail to load it.
    numpy::PyArray1::<f64>::zeros(m.py(), 0, false);
    errors::register(m)?;
    m.add_function(wrap_pyfunction!(
        angular_velocity::integrate_angular_velocity,
        m
    )?)?;
    m.add_function(wrap_pyfunction!(angular_velocity::cubic_spline, m)?)?;
    m.add("FORMULATIONS", angular_velocity::FORMULATIONS.to_vec())?;
    m.add("METHODS", angular_velocity::METHODS.to_vec())?;
    m.add_function(wrap_pyfunction!(ensemble::rigid_body_ensemble, m)?)?;
    m.add(
        "ENSEMBLE_ADAPTIVE_METHODS",
        ensemble::ADAPTIVE_METHODS.to_vec(),
    )?;
    m.add(
        "ENSEMBLE_FIXED_STEP_METHODS",
        lieode::rotation::catalogue::NAMES.to_vec(),
    )?;
    m.add_function(wrap_pyfunction!(ensemble::rigid_body_sensitivities, m)?)?;
    m.add(
        "SENSITIVITY_METHODS",
        ensemble::SENSITIVITY_METHODS.to_vec(),
    )?;
    m.add(
        "SENSITIVITY_INPUTS",
        (ensemble::SENSITIVITY_INPUTS.iter())
            .map(|(name, _)| *name)
            .collect::<Vec<_>>(),
    )?;
    rigid_bodies::register(m)?;
    solve_ivp::register(m)?;
    Ok(())
}
