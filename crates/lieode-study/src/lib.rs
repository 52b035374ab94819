//! # lieode-study — convergence, work–precision and timing studies, with figures
//!
//! The study-and-figure companion of [`lieode`], in the role DiffEqDevTools plays beside
//! OrdinaryDiffEq.jl: run a set of integrators over a grid of step sizes or tolerances, get
//! their errors, work, wall times and observed orders as data and CSV tables, find the step
//! that reaches a target error, and draw convergence, work–precision and time figures in one
//! house style (SVG, PNG and the CSV of every plotted point).
//!
//! | module | what it gives |
//! |---|---|
//! | [`experiment`] | [`Runner`](experiment::Runner)s for any integrator, [`run_study`](experiment::run_study) over a grid, observed orders, [`step_for_error`](experiment::step_for_error), median wall times |
//! | [`plot`] (feature `plot`, on by default) | [`convergence_figure`](plot::convergence_figure), [`work_precision_figure`](plot::work_precision_figure), [`time_figure`](plot::time_figure), [`bar_figure`](plot::bar_figure), [`Figure`](plot::Figure) |
//! | [`csv`] | [`Table`](csv::Table): CSV written in shortest round-trip form and read back to the same bits |
//! | [`files`] | writing files with errors that name the path |
//! | [`random`] | [`SplitMix64`](random::SplitMix64): seeded uniform and normal samples, directions, rotors |
//! | [`error`] | [`Error`]: the library's errors passed through, and the study's own |
//!
//! Without the `plot` feature the crate has no dependency beyond `lieode` and `thiserror`.
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    warn(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod csv;
pub mod error;
pub mod experiment;
pub mod files;
#[cfg(feature = "plot")]
pub mod plot;
pub mod random;

pub use error::{Error, Result};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
