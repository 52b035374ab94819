//! # Many rigid bodies in six degrees of freedom
//!
//! N bodies that translate and rotate, with forces and torques from one model of the whole
//! system — contacts, fields, drag, springs — evaluated once per force evaluation of a method:
//!
//! - [`Body`]: mass and principal inertia (or a diagonalised tensor);
//! - [`SystemState`]: positions, velocities, rotors and body-frame angular velocities as a
//!   structure of arrays;
//! - [`SystemForces`]: the force model `F(t, all bodies) → (forces, torques)`, torques in the
//!   lab or the body frame ([`TorqueFrame`]); [`PerBody`] for independent bodies (evaluated in
//!   parallel), [`EveryBody`] for a single-body [`crate::rotation::TorqueField`];
//! - the methods, each a [`crate::stepper::Stepper`] on [`SystemState`], driven by
//!   [`crate::integrate::integrate`]:
//!
//! | method | rotation | translation | loads per step | velocities the loads see |
//! |---|---|---|---|---|
//! | [`SpiralLeapfrogSystem`] | SPIRAL leapfrog (SSPRK3 ω, exponential q) | leapfrog | 1 | `v_{n−½}`, `ω_{n−½}` |
//! | [`Rk4System`] | classical RK4 on `(q, ω)`, rotor normalised after the step | the same RK4 stages | 4 | the stage velocities |
//! | [`VelocityVerletSystem`] | the benchmark's Velocity Verlet (first order) | velocity Verlet | 1 | `v_{n+½}`, `ω_{n+½}` at the new positions |
//!
//! **Status:** the first three methods of the six-degree-of-freedom layer (issue 13, in
//! progress); the other catalogue methods, their order table and the N = 1 wrappers of the
//! rotational catalogue follow.
//!
//! With the `parallel` feature (on by default) the methods process the bodies on rayon's pool in
//! chunks of at least [`PARALLEL_CHUNK`]; each body's update is independent, so results are
//! bit-identical for any number of threads.

mod body;
mod catalogue;
mod forces;
mod methods;
pub(crate) mod plan;
mod rk4;
mod spiral;
mod state;

pub use body::Body;
pub use catalogue::{CatalogueSystem, SystemMethod};
pub use forces::{
    BodyModel, BodyModelVisitor, EveryBody, Loads, PerBody, SystemForces, SystemView, TorqueFrame,
};
pub use methods::{METHOD_NAMES, MethodVisitor, every_method};
pub use rk4::Rk4System;
pub use spiral::SpiralLeapfrogSystem;
pub use state::SystemState;

/// The fewest bodies a parallel task processes (below it the split costs more than it saves).
pub const PARALLEL_CHUNK: usize = 1024;
