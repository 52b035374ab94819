//! The library's own Arenstorf problem ([`lieode::problems::Arenstorf`], a Rust right-hand
//! side written in the operation order of Hairer's driver) run through the same code path as
//! `solve_ivp`: the tests compare it with a Python right-hand side, bit for bit.

use lieode::problems::hairer::Arenstorf;
use lieode::problems::hairer::{ARENSTORF_END, ARENSTORF_Y0};
use nalgebra::Vector4;
use numpy::PyReadonlyArray1;
use pyo3::prelude::*;

use super::config::{ChartKind, Config};
use super::{RawResult, method, to_python, vector};
use lieode::lie::Side;

/// The Arenstorf orbit over one period, `y0` and the period from Hairer's driver, with the
/// Rust right-hand side: `solve_ivp`'s result for `method` at `rtol`, `atol` (private: for the
/// tests).
#[pyfunction]
#[pyo3(name = "_arenstorf_reference", signature = (method_, rtol, atol, t_eval=None, dense_output=false))]
pub fn arenstorf_reference<'py>(
    py: Python<'py>,
    method_: Bound<'py, PyAny>,
    rtol: f64,
    atol: f64,
    t_eval: Option<PyReadonlyArray1<'py, f64>>,
    dense_output: bool,
) -> PyResult<RawResult<'py>> {
    let config = Config {
        t0: 0.0,
        t1: ARENSTORF_END,
        method: method(py, &method_)?,
        rtol,
        atol: vec![atol],
        t_eval: t_eval.map(|t| t.as_array().to_vec()),
        dense: dense_output,
        events: Vec::new(),
        first_step: None,
        max_step: None,
        max_steps: None,
        step: None,
        chart: ChartKind::Exponential,
        side: Side::Left,
        keep_steps: false,
    };
    let y0 = Vector4::from(ARENSTORF_Y0);
    let outcome = vector::integrate(py, &mut Arenstorf, &y0, &config, None)?;
    to_python(py, outcome, 4, 0)
}
