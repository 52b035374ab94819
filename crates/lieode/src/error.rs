//! # Errors
//!
//! One error type for the whole crate. Every variant carries the context a user needs to find
//! the offending input: the parameter's name, the value seen and what was expected.
//!
//! One variant per kind of fault:
//!
//! | fault | variant |
//! |---|---|
//! | a finite input outside its valid range (a zero step count, a negative tolerance, a span of the wrong kind) | [`Error::InvalidParameter`] |
//! | NaN or an infinity in an input (a time, a step size, a state, a tolerance, a coefficient given by the user) | [`Error::NonFinite`] |
//! | NaN or an infinity *computed* during a run (a right-hand side, a torque, a new state) | [`Error::NonFiniteState`], or [`Error::NonFiniteBody`] naming the body of a many-body system |
//! | an element off its group | [`Error::NotOnGroup`] |
//! | an iteration that did not converge (implicit solve, event location, adjoint) | [`Error::NonConvergence`] |
//! | step-size underflow, a method's step limit, stiffness | [`Error::StepSizeTooSmall`], [`Error::MaxStepsExceeded`], [`Error::ProblemIsStiff`] |
//! | inconsistent method coefficients | [`Error::InvalidTableau`] |
//! | a missing logarithm or coordinate map | [`Error::NoRealLogarithm`], [`Error::CoordinateMapUndefined`] |

use thiserror::Error;

/// Everything that can go wrong in `lieode`.
///
/// Bad input never panics: constructors, builders and fallible maps return this type.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum Error {
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
    /// An input — a parameter, time, step size, state or tolerance given by the caller —
    /// contains NaN or an infinity.
    #[error("`{name}` has a non-finite entry")]
    NonFinite {
        /// Name of the input.
        name: &'static str,
    },
    /// Data that should represent a group element does not satisfy the group's constraint
    /// (a non-unit quaternion, a non-orthogonal matrix, a matrix with non-positive determinant).
    #[error(
        "`{name}` is not an element of {group}: {constraint} violated by {deviation:e} (tolerance {tolerance:e})"
    )]
    NotOnGroup {
        /// The group the element was meant for.
        group: &'static str,
        /// Name of the input.
        name: &'static str,
        /// The constraint that failed, e.g. `|q| = 1`.
        constraint: &'static str,
        /// How far the data is from satisfying it.
        deviation: f64,
        /// The tolerance that was allowed.
        tolerance: f64,
    },
    /// The (principal) matrix logarithm does not exist as a real matrix, or could not be computed.
    #[error("no real principal logarithm in {group}: {reason}")]
    NoRealLogarithm {
        /// The group whose logarithm was requested.
        group: &'static str,
        /// Why: non-positive determinant, eigenvalues on the closed negative real axis, …
        reason: String,
    },
    /// A coordinate map (e.g. the inverse Cayley map) is not defined at the given element.
    #[error("the {map} map is not defined here: {reason}")]
    CoordinateMapUndefined {
        /// The coordinate map, e.g. `inverse Cayley`.
        map: &'static str,
        /// Why it is not defined.
        reason: String,
    },
    /// An iteration or series did not converge within its limit.
    #[error("{context} did not converge within {iterations} iterations")]
    NonConvergence {
        /// What was being iterated.
        context: String,
        /// How many iterations were made.
        iterations: usize,
    },
    /// A right-hand side returned a non-finite value, or a step produced a non-finite state.
    #[error("non-finite {what} at t = {t:e}")]
    NonFiniteState {
        /// What was non-finite: `"right-hand side"`, `"state"`, …
        what: &'static str,
        /// The time at which it happened.
        t: f64,
    },
    /// The coefficients of a method are inconsistent: wrong shape, non-finite, violating a
    /// consistency condition (`Σ_j a_ij = c_i`, `Σ b_i = 1`), or failing the order conditions of
    /// the order they claim.
    #[error("invalid tableau `{name}`: {reason}")]
    InvalidTableau {
        /// The tableau's name.
        name: String,
        /// What is wrong: the field, the entry (1-based, `a_{i,j}`) or the condition, and the
        /// residual found.
        reason: String,
    },
    /// The step size fell below what the arithmetic resolves (`0.1|h| ≤ |t|·uround`).
    #[error("step size too small at t = {t:e}: h = {h:e}")]
    StepSizeTooSmall {
        /// The time reached.
        t: f64,
        /// The step size.
        h: f64,
    },
    /// More steps were needed than allowed.
    #[error("more than {steps} steps needed; stopped at t = {t:e}")]
    MaxStepsExceeded {
        /// The time reached.
        t: f64,
        /// The step limit.
        steps: usize,
    },
    /// The stiffness test of DOPRI5/DOP853 found the problem stiff: 15 tests in a row put the
    /// step's `h·λ` beyond the method's stability border (Hairer's `IDID = −4`).
    #[error(
        "the problem seems stiff at t = {t:e}: h·λ ≈ {h_lambda:.3e} exceeded the stability \
         border {border} in 15 tests in a row; use an implicit method, or switch the test off \
         with `ControllerParameters::stiffness = None`"
    )]
    ProblemIsStiff {
        /// The time reached (the start of the step of the detection).
        t: f64,
        /// The last estimate of `h·λ` (`λ` the Jacobian's dominant eigenvalue's modulus).
        h_lambda: f64,
        /// The method's stability border on the negative real axis (DOPRI5 3.25, DOP853 6.1).
        border: f64,
    },
    /// A non-finite value computed for one body of a many-body system (a force, a torque, a
    /// new state), with the body's index and the time.
    #[error("non-finite {what} of body {body} at t = {t:e}")]
    NonFiniteBody {
        /// What was non-finite.
        what: &'static str,
        /// The body's index.
        body: usize,
        /// The time.
        t: f64,
    },
}

impl Error {
    /// The error with the value of an [`Error::InvalidParameter`] rewritten by `context` (to
    /// say which body, method or run it belongs to); other errors unchanged.
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
