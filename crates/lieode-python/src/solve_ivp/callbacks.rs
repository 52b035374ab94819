//! The Python callables of a run — `fun` and the event functions, with `args` — as the library
//! calls them: each call converts the state to its Python form ([`PyState::to_python`]) and
//! reads the result back. The first exception a callable raises (or a result of the wrong
//! shape) is kept and the library is handed NaN, which stops the run; the caller then raises
//! the kept exception unchanged, with its traceback.

use std::cell::RefCell;

use lieode::integrate::Observer;
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use super::state::PyState;
use crate::errors::InvalidParameterError;

/// An exception of the package's class `E` with its `parameter` and `t` attributes.
pub fn error<E: pyo3::PyTypeInfo>(
    py: Python<'_>,
    message: String,
    parameter: Option<&str>,
    t: Option<f64>,
) -> PyErr {
    let err = PyErr::from_type(py.get_type::<E>(), message);
    let value = err.value(py);
    // Setting attributes on a fresh exception instance cannot fail in practice; if it did, the
    // exception would still carry its message.
    let _ = value.setattr("parameter", parameter);
    let _ = value.setattr("t", t);
    err
}

/// An `InvalidParameterError` naming `parameter` (and the time `t`, if any).
pub fn invalid(py: Python<'_>, parameter: &str, t: Option<f64>, message: String) -> PyErr {
    error::<InvalidParameterError>(py, message, Some(parameter), t)
}

/// `fun`, the event functions and `args` of one run, with the first failure of any of them.
pub struct Callbacks<'py> {
    py: Python<'py>,
    fun: Bound<'py, PyAny>,
    events: Vec<Bound<'py, PyAny>>,
    args: Vec<Bound<'py, PyAny>>,
    /// The first exception raised by a callable (or made for its result); the run sees NaN.
    failure: RefCell<Option<PyErr>>,
}

impl<'py> Callbacks<'py> {
    /// The callables of a run.
    pub fn new(
        py: Python<'py>,
        fun: Bound<'py, PyAny>,
        events: Vec<Bound<'py, PyAny>>,
        args: Vec<Bound<'py, PyAny>>,
    ) -> Self {
        Self {
            py,
            fun,
            events,
            args,
            failure: RefCell::new(None),
        }
    }

    /// The number of event functions.
    pub fn event_count(&self) -> usize {
        self.events.len()
    }

    /// The kept exception, if a callable failed.
    pub fn take_failure(&self) -> Option<PyErr> {
        self.failure.borrow_mut().take()
    }

    /// Keeps the first failure.
    fn fail(&self, error: PyErr) {
        let mut failure = self.failure.borrow_mut();
        if failure.is_none() {
            *failure = Some(error);
        }
    }

    fn failed(&self) -> bool {
        self.failure.borrow().is_some()
    }

    /// The interpreter the callables run in.
    pub fn py(&self) -> Python<'py> {
        self.py
    }

    /// `f(t, y, *args)` for any callable `f` of the run (`fun`, an event, a Jacobian).
    pub fn call<S: PyState>(
        &self,
        f: &Bound<'py, PyAny>,
        t: f64,
        y: &S,
    ) -> PyResult<Bound<'py, PyAny>> {
        let y = y.to_python(self.py)?;
        if self.args.is_empty() {
            return f.call1((t, y));
        }
        let t = t.into_pyobject(self.py)?.into_any();
        let items: Vec<_> = [t, y]
            .into_iter()
            .chain(self.args.iter().cloned())
            .collect();
        f.call1(PyTuple::new(self.py, items)?)
    }

    /// `fun(t, y)` written into `out` (its `S::DERIVATIVE` components); NaN after a failure.
    pub fn derivative<S: PyState>(&self, t: f64, y: &S, out: &mut [f64]) {
        if self.failed() {
            out.fill(f64::NAN);
            return;
        }
        let result = self
            .call(&self.fun, t, y)
            .and_then(|value| read_floats(self.py, &value, out, t));
        if let Err(error) = result {
            self.fail(error);
            out.fill(f64::NAN);
        }
    }

    /// The event function `index` at `(t, y)`; NaN after a failure.
    pub fn event<S: PyState>(&self, index: usize, t: f64, y: &S) -> f64 {
        if self.failed() {
            return f64::NAN;
        }
        let result = self.call(&self.events[index], t, y).and_then(|value| {
            value.extract::<f64>().map_err(|_| {
                invalid(
                    self.py,
                    "events",
                    Some(t),
                    format!(
                        "invalid parameter `events`: event function {index} returned {} at t = \
                         {t:e}; expected one float",
                        describe(&value)
                    ),
                )
            })
        });
        result.unwrap_or_else(|error| {
            self.fail(error);
            f64::NAN
        })
    }

    /// Checks for signals (Ctrl-C): a signal's exception is kept like a callable's.
    fn check_signals(&self) -> bool {
        match self.py.check_signals() {
            Ok(()) => true,
            Err(error) => {
                self.fail(error);
                false
            }
        }
    }
}

/// The type and shape of a returned value, for messages.
fn describe(value: &Bound<'_, PyAny>) -> String {
    let type_name = value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.to_string());
    match value.getattr("shape") {
        Ok(shape) => format!("{type_name} of shape {shape}"),
        Err(_) => match value.len() {
            Ok(n) => format!("{type_name} of length {n}"),
            Err(_) => type_name,
        },
    }
}

/// Reads `fun`'s result into `out`: a float64 array of the right length (fast path), a list or
/// tuple of numbers, or anything numpy reads as a one-dimensional float array of that length.
fn read_floats(py: Python<'_>, value: &Bound<'_, PyAny>, out: &mut [f64], t: f64) -> PyResult<()> {
    let len = out.len();
    let wrong = |value: &Bound<'_, PyAny>| {
        invalid(
            py,
            "fun",
            Some(t),
            format!(
                "invalid parameter `fun`: it returned {} at t = {t:e}; expected {} floats",
                describe(value),
                len
            ),
        )
    };
    if let Ok(array) = value.cast::<PyArray1<f64>>() {
        if array.len() != out.len() {
            return Err(wrong(value));
        }
        let array = array.try_readonly().map_err(|_| wrong(value))?;
        match array.as_slice() {
            Ok(slice) => out.copy_from_slice(slice),
            Err(_) => {
                for (o, v) in out.iter_mut().zip(array.as_array().iter()) {
                    *o = *v;
                }
            }
        }
        return Ok(());
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        if value.len()? != out.len() {
            return Err(wrong(value));
        }
        for (o, item) in out.iter_mut().zip(value.try_iter()?) {
            *o = item?.extract::<f64>().map_err(|_| wrong(value))?;
        }
        return Ok(());
    }
    // Anything else numpy can read as floats (an integer array, a float32 array, …).
    let numpy = py.import("numpy")?;
    let converted = numpy
        .getattr("asarray")?
        .call1((value, numpy.getattr("float64")?))
        .map_err(|_| wrong(value))?;
    let array = converted
        .cast::<PyArrayDyn<f64>>()
        .map_err(|_| wrong(value))?;
    if array.shape() != [out.len()] {
        return Err(wrong(value));
    }
    for (o, v) in out.iter_mut().zip(array.readonly().as_array().iter()) {
        *o = *v;
    }
    Ok(())
}

/// Records every state of a run in its flat layout (the run's output when it fails, and the
/// accepted steps otherwise), and checks for signals every [`Recorder::SIGNAL_EVERY`] steps.
pub struct Recorder<'c, 'py> {
    callbacks: Option<&'c Callbacks<'py>>,
    /// The times recorded.
    pub times: Vec<f64>,
    /// The states recorded, flat, one after another.
    pub states: Vec<f64>,
}

impl<'c, 'py> Recorder<'c, 'py> {
    /// Steps between two checks for signals (a check costs well under a microsecond).
    const SIGNAL_EVERY: usize = 64;

    /// A recorder checking signals through `callbacks` (or not at all).
    pub fn new(callbacks: Option<&'c Callbacks<'py>>) -> Self {
        Self {
            callbacks,
            times: Vec::new(),
            states: Vec::new(),
        }
    }
}

impl<S: PyState> Observer<S> for Recorder<'_, '_> {
    fn observe(&mut self, step: usize, t: f64, state: &S) -> lieode::Result<()> {
        self.times.push(t);
        state.write_flat(&mut self.states);
        if step.is_multiple_of(Self::SIGNAL_EVERY)
            && let Some(callbacks) = self.callbacks
            && !callbacks.check_signals()
        {
            // Stops the run; the caller raises the signal's exception instead.
            return Err(lieode::Error::NonFiniteState {
                what: "interrupted run",
                t,
            });
        }
        Ok(())
    }
}
