//! # lieode — ordinary differential equations on Lie groups
//!
//! Integrators for ODEs whose state lives on a Lie group — rotations, rigid motions, unit
//! quaternions, matrix groups and their products — built on an exact, scalar-generic Lie-group
//! layer ([`lie`]). The conventions every module follows (quaternion order, the rotor's
//! direction, the two trivialisations, the order of products of exponentials) are fixed in
//! [`docs/notation.md`](https://github.com/lieode/lieode/blob/main/docs/notation.md); the
//! measured results behind every claim are in the repository's
//! [`docs/`](https://github.com/lieode/lieode/tree/main/docs).
//!
//! Its default build depends on `nalgebra`, `num-dual`, `thiserror`, `approx` and (the
//! `parallel` feature, for many bodies at once) `rayon`. Studies and figures of methods are
//! in the companion crate [`lieode-study`](https://docs.rs/lieode-study).
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    warn(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod adaptive;
pub mod body;
pub mod clock;
pub mod engine;
pub mod error;
pub mod homogeneous;
pub mod integrate;
pub mod kinematics;
pub mod lie;
pub mod momentum;
pub mod ode;
pub mod order;
pub mod prelude;
pub mod problems;
pub mod rotation;
pub mod sensitivity;
pub mod stepper;
pub mod system;
pub mod tableau;

pub use error::{Error, Result};

/// The README's quick start, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
