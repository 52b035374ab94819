//! `lieode.solve_ivp`: SciPy's `solve_ivp` for vector ODEs and for ODEs on Lie groups, run by
//! the library's steppers and driver. The Python wrapper (`python/lieode/_solve_ivp.py`)
//! checks and normalises the arguments and shapes the result; this module runs it.
//!
//! | file | concept |
//! |---|---|
//! | `config.rs` | the run's options and method |
//! | `state.rs` | states in Python: flat layouts, `fun`'s argument and result |
//! | `callbacks.rs` | calling `fun` and the events, keeping their exceptions; Ctrl-C |
//! | `run.rs` | one run through the library's driver, and its result |
//! | `dense.rs` | `sol`, the dense output |
//! | `vector.rs` | vector ODEs, dispatched on the compiled sizes |
//! | `group.rs` | ODEs on SO(3), SU(2), SE(3) and their products with ℝⁿ |
//! | `sensitivity.rs` | forward sensitivities of vector ODEs, on the frozen step sequence |
//! | `tableau.rs` | `lieode.ButcherTableau` |
//! | `reference.rs` | the library's own Arenstorf problem, for the bit-for-bit test |

mod callbacks;
mod config;
mod dense;
mod group;
mod reference;
mod run;
mod sensitivity;
mod state;
mod tableau;
mod vector;

use lieode::integrate::Direction;
use lieode::lie::Side;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;

use callbacks::{Callbacks, invalid};
use config::{ChartKind, Config, EventSpec, MethodSpec};
use dense::DenseOutput;
use run::Outcome;
use sensitivity::{Request, Tangent};
use tableau::PyButcherTableau;

/// The method names `solve_ivp` takes (`"RK45"` is SciPy's name of DOPRI5).
pub const METHODS: [&str; 4] = ["DOPRI5", "RK45", "DOP853", "ODEX"];

/// The sensitivities as [`solve_ivp`] returns them: the values (per output time, the
/// `n × m` matrix row by row, flat), the number of directions `m`, the evaluations of `jac`,
/// and the replay's deviation from the primal states ([`Tangent`]).
type RawSensitivities<'py> = (Bound<'py, PyArray1<f64>>, usize, usize, f64);

/// What [`solve_ivp`] returns: `t`, `y` (one flat state per row), `t_events`, `y_events`,
/// `nfev`, `status`, `message`, `sol`, the sensitivities.
type RawResult<'py> = (
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray2<f64>>,
    Vec<Bound<'py, PyArray1<f64>>>,
    Vec<Bound<'py, PyArray2<f64>>>,
    usize,
    i32,
    String,
    Option<DenseOutput>,
    Option<RawSensitivities<'py>>,
);

/// The method named or given.
fn method(py: Python<'_>, method: &Bound<'_, PyAny>) -> PyResult<MethodSpec> {
    if let Ok(tableau) = method.cast::<PyButcherTableau>() {
        let tableau = tableau.get().inner.clone();
        return Ok(if tableau.b_hat.is_some() {
            MethodSpec::Embedded(tableau)
        } else {
            MethodSpec::Fixed(tableau)
        });
    }
    let name: String = method.extract().unwrap_or_default();
    match name.as_str() {
        "DOPRI5" | "RK45" => Ok(MethodSpec::Dopri5),
        "DOP853" => Ok(MethodSpec::Dop853),
        "ODEX" => Ok(MethodSpec::Odex),
        _ => Err(invalid(
            py,
            "method",
            None,
            format!(
                "invalid parameter `method` = {}: expected one of {METHODS:?} or a \
                 lieode.ButcherTableau",
                method.repr().map_or_else(|_| "?".into(), |r| r.to_string())
            ),
        )),
    }
}

/// The Rust side of `lieode.solve_ivp`, called by the Python wrapper with checked arguments:
/// `y0` flat, `group` the group's name (`None` for a vector ODE) and `n` the size of its `ℝⁿ`
/// factor, `events` as `(function, direction, terminal)`; with `jac` the sensitivities of a
/// vector ODE with respect to `y0` (`sensitivity_y0`) and to `jac_p`'s parameters.
#[pyfunction]
#[pyo3(signature = (fun, t0, t1, y0, group, n, method_, rtol, atol, t_eval, dense_output, events, chart, side, first_step, max_step, max_steps, step, args, jac=None, jac_p=None, sensitivity_y0=false))]
#[allow(clippy::too_many_arguments)]
pub fn solve_ivp<'py>(
    py: Python<'py>,
    fun: Bound<'py, PyAny>,
    t0: f64,
    t1: f64,
    y0: PyReadonlyArray1<'py, f64>,
    group: Option<&str>,
    n: usize,
    method_: Bound<'py, PyAny>,
    rtol: f64,
    atol: Vec<f64>,
    t_eval: Option<PyReadonlyArray1<'py, f64>>,
    dense_output: bool,
    events: Vec<(Bound<'py, PyAny>, f64, bool)>,
    chart: &str,
    side: &str,
    first_step: Option<f64>,
    max_step: Option<f64>,
    max_steps: Option<usize>,
    step: Option<f64>,
    args: Vec<Bound<'py, PyAny>>,
    jac: Option<Bound<'py, PyAny>>,
    jac_p: Option<Bound<'py, PyAny>>,
    sensitivity_y0: bool,
) -> PyResult<RawResult<'py>> {
    let chart = match chart {
        "exp" => ChartKind::Exponential,
        "cayley" => ChartKind::Cayley,
        other => {
            return Err(invalid(
                py,
                "chart",
                None,
                format!("invalid parameter `chart` = {other:?}: expected \"exp\" or \"cayley\""),
            ));
        }
    };
    let side = match side {
        "left" => Side::Left,
        "right" => Side::Right,
        other => {
            return Err(invalid(
                py,
                "side",
                None,
                format!("invalid parameter `side` = {other:?}: expected \"left\" or \"right\""),
            ));
        }
    };
    let direction = |d: f64| {
        if d > 0.0 {
            Direction::Rising
        } else if d < 0.0 {
            Direction::Falling
        } else {
            Direction::Either
        }
    };
    let config = Config {
        t0,
        t1,
        method: method(py, &method_)?,
        rtol,
        atol,
        t_eval: t_eval.map(|t| t.as_array().to_vec()),
        dense: dense_output,
        events: (events.iter())
            .map(|(_, d, terminal)| EventSpec {
                direction: direction(*d),
                terminal: *terminal,
            })
            .collect(),
        first_step,
        max_step,
        max_steps,
        step,
        chart,
        side,
        keep_steps: jac.is_some(),
    };
    let request = jac.map(|jac| Request {
        jac,
        jac_p,
        y0: sensitivity_y0,
    });
    let functions = events.into_iter().map(|(f, _, _)| f).collect();
    let callbacks = Callbacks::new(py, fun, functions, args);
    let y0 = y0.as_array().to_vec();
    let (outcome, tangent) = match (group, &request) {
        (None, _) => vector::solve(py, &callbacks, &y0, &config, request.as_ref())?,
        (Some(name), None) => (group::solve(py, &callbacks, name, n, &y0, &config)?, None),
        (Some(_), Some(_)) => {
            return Err(invalid(
                py,
                "sensitivities",
                None,
                "invalid parameter `sensitivities`: sensitivities are computed for vector ODEs \
                 only (no `group`)"
                    .to_string(),
            ));
        }
    };
    let mut raw = to_python(py, outcome, y0.len(), callbacks.event_count())?;
    raw.8 = tangent.map(|t: Tangent| {
        (
            PyArray1::from_vec(py, t.values),
            t.directions,
            t.njev,
            t.deviation,
        )
    });
    Ok(raw)
}

/// The outcome as numpy arrays, `floats` per state.
fn to_python<'py>(
    py: Python<'py>,
    outcome: Outcome,
    floats: usize,
    events: usize,
) -> PyResult<RawResult<'py>> {
    let rows = |flat: Vec<f64>| -> PyResult<Bound<'py, PyArray2<f64>>> {
        let k = flat.len() / floats.max(1);
        PyArray1::from_vec(py, flat).reshape([k, floats])
    };
    let t_events = (outcome.t_events.into_iter())
        .map(|t| PyArray1::from_vec(py, t))
        .collect();
    let mut y_events = Vec::with_capacity(events);
    for y in outcome.y_events {
        y_events.push(rows(y)?);
    }
    Ok((
        PyArray1::from_vec(py, outcome.t),
        rows(outcome.y)?,
        t_events,
        y_events,
        outcome.nfev,
        outcome.status,
        outcome.message,
        outcome.sol,
        None,
    ))
}

/// Adds `solve_ivp` and its classes to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve_ivp, m)?)?;
    m.add_function(wrap_pyfunction!(reference::arenstorf_reference, m)?)?;
    m.add_class::<PyButcherTableau>()?;
    m.add_class::<DenseOutput>()?;
    m.add("SOLVE_IVP_METHODS", METHODS.to_vec())?;
    m.add("SOLVE_IVP_GROUPS", group::GROUPS.to_vec())?;
    m.add("SOLVE_IVP_SIZES", vector::SIZES.to_vec())?;
    m.add("SOLVE_IVP_FACTOR_SIZES", group::FACTOR_SIZES.to_vec())?;
    Ok(())
}
