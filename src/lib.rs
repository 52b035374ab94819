//! # lieode — ordinary differential equations on Lie groups
//!
//! Integrators for ODEs whose state lives on a Lie group — rotations, rigid motions, unit
//! quaternions, matrix groups and their products — built on an exact, scalar-generic Lie-group
//! layer ([`lie`]). See `docs/notation.md` for the conventions every module follows.
#![deny(missing_docs)]
#![warn(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod error;
pub mod lie;

pub use error::{Error, Result};
