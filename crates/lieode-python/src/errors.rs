//! The Python exceptions of the package and the translation of the library's errors into them.
//!
//! ```text
//! LieodeError(Exception)
//! ├── InvalidParameterError      a bad argument (also the library's NotOnGroup, InvalidTableau)
//! ├── NonFiniteError             a non-finite input, state or derivative, with its time
//! └── IntegrationError           step size too small, too many steps, no convergence, stiffness
//! ```
//!
//! Every exception carries `parameter` (the name of the argument or quantity, or `None`), `t`
//! (the time of the failure, or `None`) and `body` (the index of the body or ensemble member it
//! concerns, or `None`) as attributes.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    lieode,
    LieodeError,
    PyException,
    "The base of every error the library raises (attributes `parameter`, `t`)."
);
create_exception!(
    lieode,
    InvalidParameterError,
    LieodeError,
    "An argument outside its domain; `parameter` names it."
);
create_exception!(
    lieode,
    NonFiniteError,
    LieodeError,
    "A non-finite input, state or derivative; `parameter` names it, `t` is its time."
);
create_exception!(
    lieode,
    IntegrationError,
    LieodeError,
    "The integration could not go on (step size too small, too many steps, no convergence, \
     stiffness); `t` is where it stopped."
);

/// Adds the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("LieodeError", py.get_type::<LieodeError>())?;
    m.add(
        "InvalidParameterError",
        py.get_type::<InvalidParameterError>(),
    )?;
    m.add("NonFiniteError", py.get_type::<NonFiniteError>())?;
    m.add("IntegrationError", py.get_type::<IntegrationError>())?;
    Ok(())
}

/// The Python exception of a library error, with its message and its `parameter` and `t`.
pub fn to_py(py: Python<'_>, error: lieode::Error) -> PyErr {
    translate(py, error, None)
}

/// [`to_py`] for the error of one body (an ensemble's member, a system's body): the message
/// starts with `body {index}:` and the exception's `body` attribute is the index.
pub fn to_py_for_body(py: Python<'_>, error: lieode::Error, body: usize) -> PyErr {
    translate(py, error, Some(body))
}

fn translate(_py: Python<'_>, error: lieode::Error, body: Option<usize>) -> PyErr {
    use lieode::Error as E;
    // The message names a body the caller gives; the library's own errors name theirs.
    let message = match body {
        Some(index) => format!("body {index}: {error}"),
        None => error.to_string(),
    };
    let body = body.or(match &error {
        E::NonFiniteBody { body, .. } => Some(*body),
        _ => None,
    });
    let (err, parameter, t): (PyErr, Option<&str>, Option<f64>) = match &error {
        E::InvalidParameter { name, .. } => {
            (InvalidParameterError::new_err(message), Some(name), None)
        }
        E::NotOnGroup { name, .. } => (InvalidParameterError::new_err(message), Some(name), None),
        E::InvalidTableau { .. } => (
            InvalidParameterError::new_err(message),
            Some("tableau"),
            None,
        ),
        E::NonFinite { name } => (NonFiniteError::new_err(message), Some(name), None),
        E::NonFiniteState { what, t } => (NonFiniteError::new_err(message), Some(what), Some(*t)),
        E::NonFiniteBody { what, t, .. } => {
            (NonFiniteError::new_err(message), Some(what), Some(*t))
        }
        E::StepSizeTooSmall { t, .. }
        | E::MaxStepsExceeded { t, .. }
        | E::ProblemIsStiff { t, .. } => (IntegrationError::new_err(message), None, Some(*t)),
        _ => (IntegrationError::new_err(message), None, None),
    };
    with_context(err, parameter, t, body)
}

/// Sets the attributes `parameter`, `t` and `body` of a package exception.
pub fn with_context<'a>(
    err: PyErr,
    parameter: impl Into<Option<&'a str>>,
    t: Option<f64>,
    body: Option<usize>,
) -> PyErr {
    let parameter = parameter.into();
    Python::attach(|py| {
        let value = err.value(py);
        // Setting attributes on a fresh exception instance cannot fail in practice; if it did,
        // the exception would still carry its message.
        let _ = value.setattr("parameter", parameter);
        let _ = value.setattr("t", t);
        let _ = value.setattr("body", body);
    });
    err
}
