//! # Errors
//!
//! One error type for the crate. A study runs the library's integrators, so an error of theirs
//! (a non-finite state, a step-size underflow, an invalid tolerance) passes through unchanged as
//! [`Error::Lieode`]; the other variants are the study's own:
//!
//! | fault | variant |
//! |---|---|
//! | an error of a run or of a library call | [`Error::Lieode`] |
//! | a finite study parameter outside its valid range (an empty grid, a zero repeat count) | [`Error::InvalidParameter`] |
//! | NaN or an infinity in a study parameter or a measured value | [`Error::NonFinite`] |
//! | reading or writing a file | [`Error::Io`] |
//! | a figure that cannot be drawn | [`Error::Plot`] |

use thiserror::Error;

/// Everything that can go wrong in a study, a table or a figure.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum Error {
    /// An error of the library: a run that failed (a non-finite right-hand side, a step-size
    /// underflow, …) or a parameter the library itself validates. Its message is the library's.
    #[error(transparent)]
    Lieode(#[from] lieode::Error),
    /// A (finite) parameter is outside its valid range.
    #[error("invalid parameter `{name}` = {value}: expected {expected}")]
    InvalidParameter {
        /// Name of the parameter as it appears in the API.
        name: &'static str,
        /// The value that was passed, formatted.
        value: String,
        /// What a valid value looks like.
        expected: String,
    },
    /// An input or a measured value contains NaN or an infinity.
    #[error("`{name}` has a non-finite entry")]
    NonFinite {
        /// Name of the input.
        name: &'static str,
    },
    /// Reading or writing a file failed.
    #[error("cannot {operation} `{path}`: {message}")]
    Io {
        /// What was attempted: `"read"`, `"write"` or `"create the folder"`.
        operation: &'static str,
        /// The file or folder.
        path: String,
        /// The operating system's message.
        message: String,
    },
    /// A figure cannot be drawn: no curves, a curve without points, x and y of different
    /// lengths, a non-finite value, a non-positive value on a logarithmic axis, or a failure of
    /// the drawing backend.
    #[error("cannot draw figure `{figure}`: {reason}")]
    Plot {
        /// The figure's title.
        figure: String,
        /// What is wrong, naming the curve and the index of the offending point where there is
        /// one.
        reason: String,
    },
}

impl Error {
    /// The error with the value of an `InvalidParameter` (the study's or the library's)
    /// rewritten by `context`, to say which method or run it belongs to; other errors unchanged.
    pub fn with_value_context(self, context: impl FnOnce(String) -> String) -> Self {
        match self {
            Error::InvalidParameter {
                name,
                value,
                expected,
            } => Error::InvalidParameter {
                name,
                value: context(value),
                expected,
            },
            Error::Lieode(e) => Error::Lieode(e.with_value_context(context)),
            other => other,
        }
    }
}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;

/// [`Error::NonFinite`] naming `name` unless `value` is finite: the first check of every
/// real-valued input, before its range is checked.
pub(crate) fn check_finite(name: &'static str, value: f64) -> Result<()> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(Error::NonFinite { name })
    }
}
