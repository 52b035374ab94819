//! The status every call returns.

/// The result of every call.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LieodeStatus {
    /// Success.
    Ok = 0,
    /// A required pointer was null.
    NullPointer = 1,
    /// No many-body method of the catalogue has that name.
    UnknownMethod = 2,
    /// An argument is out of range: zero particles, a step size or time that is not finite
    /// (or a step size that is not positive), a stage out of range, an unknown frame, a
    /// misaligned array, a mass or inertia that is not a body, a state row not written by the
    /// method.
    InvalidArgument = 3,
    /// A load, or the state computed from it, is not finite (the message names the particle
    /// and the time).
    NonFinite = 4,
    /// A bug inside the library (a caught panic or a broken internal invariant).
    Internal = 5,
}
