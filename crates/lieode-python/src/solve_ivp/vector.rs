//! Vector ODEs `y' = fun(t, y)`: the library's steppers are sized at compile time, so the
//! run's dimension is matched against the sizes compiled in ([`SIZES`]).

use lieode::adaptive::{AdaptiveMethod, VectorStepper};
use lieode::engine::{ExplicitRk, Fixed};
use lieode::ode::VectorOde;
use nalgebra::{Const, SVector};
use pyo3::prelude::*;

use super::callbacks::{Callbacks, invalid};
use super::config::{AdaptiveVisitor, Config, MethodSpec};
use super::run::{Outcome, run};
use super::sensitivity::{Jacobians, Request, Scheme, Tangent};
use crate::errors::to_py;

/// Calls `$then!(sizes…)` with the sizes of `y0` compiled in (one list, used by the dispatch
/// and by [`SIZES`]).
macro_rules! with_sizes {
    ($then:ident) => {
        $then!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 20 24 32)
    };
}

macro_rules! size_list {
    ($($n:literal)*) => { &[$($n),*] };
}

/// The sizes of `y0` a vector ODE may have.
pub const SIZES: &[usize] = with_sizes!(size_list);

/// Solves the vector ODE `fun` from `y0`, with the sensitivities `request` asks for.
///
/// # Errors
/// `InvalidParameterError` naming `y0` for a size not in [`SIZES`]; those of [`run`] and of
/// the sensitivities ([`Jacobians`]).
pub fn solve(
    py: Python<'_>,
    callbacks: &Callbacks<'_>,
    y0: &[f64],
    config: &Config,
    request: Option<&Request<'_>>,
) -> PyResult<(Outcome, Option<Tangent>)> {
    macro_rules! dispatch {
        ($($n:literal)*) => {
            match y0.len() {
                $($n => sized::<$n>(py, callbacks, y0, config, request),)*
                n => Err(invalid(
                    py,
                    "y0",
                    None,
                    format!(
                        "invalid parameter `y0` of size {n}: vector ODEs of these sizes are \
                         compiled in: {SIZES:?}"
                    ),
                )),
            }
        };
    }
    with_sizes!(dispatch)
}

/// [`solve`] for the size `N`: the primal run, then (if asked) its replay on the frozen
/// accepted times for the sensitivities at the output times.
fn sized<const N: usize>(
    py: Python<'_>,
    callbacks: &Callbacks<'_>,
    y0: &[f64],
    config: &Config,
    request: Option<&Request<'_>>,
) -> PyResult<(Outcome, Option<Tangent>)> {
    let y0 = SVector::<f64, N>::from_iterator(y0.iter().copied());
    // The Jacobians are checked at (t0, y0) before the primal run, so that a wrong shape is
    // reported before any integration.
    let prepared = match request {
        None => None,
        Some(request) => {
            let scheme = Scheme::of(&config.method).ok_or_else(|| {
                invalid(
                    py,
                    "method",
                    None,
                    "invalid parameter `method` = 'ODEX' with `sensitivities`: an \
                     extrapolation method has no fixed tableau to replay; use \"DOP853\", \
                     \"DOPRI5\" or a lieode.ButcherTableau"
                        .to_string(),
                )
            })?;
            let jacobians = Jacobians::<N>::probe(callbacks, request, config.t0, &y0)?;
            Some((scheme, jacobians))
        }
    };
    let mut problem = |t: f64, x: &SVector<f64, N>| {
        let mut out = SVector::<f64, N>::zeros();
        callbacks.derivative(t, x, out.as_mut_slice());
        out
    };
    let mut outcome = integrate(py, &mut problem, &y0, config, Some(callbacks))?;
    let Some((scheme, jacobians)) = prepared else {
        return Ok((outcome, None));
    };
    let tangent = match &outcome.steps {
        Some((grid_t, grid_y)) => jacobians.replay(&scheme, grid_t, grid_y, &outcome.t)?,
        None => jacobians.replay(&scheme, &outcome.t, &outcome.y, &outcome.t)?,
    };
    outcome.nfev += tangent.nfev;
    Ok((outcome, Some(tangent)))
}

/// Integrates the vector ODE `problem` (a Python callable's closure, or a Rust problem) with
/// the run's method.
///
/// # Errors
/// Those of [`run`]; invalid tableaux or tolerances.
pub fn integrate<P: VectorOde<f64, N>, const N: usize>(
    py: Python<'_>,
    problem: &mut P,
    y0: &SVector<f64, N>,
    config: &Config,
    callbacks: Option<&Callbacks<'_>>,
) -> PyResult<Outcome> {
    if let MethodSpec::Fixed(tableau) = &config.method {
        let engine = ExplicitRk::<f64, N>::new(tableau).map_err(|e| to_py(py, e))?;
        return run(py, &mut Fixed::new(engine), problem, y0, config, callbacks);
    }
    let visitor = Adaptive {
        py,
        problem,
        y0,
        config,
        callbacks,
    };
    config.adaptive(visitor).map_err(|e| to_py(py, e))?
}

/// The run of an adaptive method on a vector ODE.
struct Adaptive<'a, 'c, 'py, P, const N: usize> {
    py: Python<'py>,
    problem: &'a mut P,
    y0: &'a SVector<f64, N>,
    config: &'a Config,
    callbacks: Option<&'c Callbacks<'py>>,
}

impl<P: VectorOde<f64, N>, const N: usize> AdaptiveVisitor<Const<N>>
    for Adaptive<'_, '_, '_, P, N>
{
    type Output = PyResult<Outcome>;

    fn visit<M: AdaptiveMethod<Const<N>>>(self, method: M) -> PyResult<Outcome> {
        let mut stepper = VectorStepper::new(method);
        run(
            self.py,
            &mut stepper,
            self.problem,
            self.y0,
            self.config,
            self.callbacks,
        )
    }
}
