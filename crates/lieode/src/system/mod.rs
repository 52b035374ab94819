//! # Many rigid bodies in six degrees of freedom
//!
//! N bodies that translate and rotate, with forces and torques from one model of the whole
//! system — contacts, fields, drag, springs — evaluated once per force evaluation of a method:
//!
//! - [`Body`]: mass and principal inertia (or a diagonalised tensor), around the
//!   [`crate::body::RigidBody`] the rotational catalogue and the momentum methods share;
//! - [`SystemState`]: positions, velocities, rotors and body-frame angular velocities as a
//!   structure of arrays, the synchronised view every method hands out;
//! - [`SystemForces`]: the one force interface `F(t, all bodies) → (forces, torques)`, torques
//!   in the lab or the body frame ([`Frame`](crate::body::Frame)). [`PerBody`] for independent bodies
//!   (evaluated in parallel, and inside SPIRAL's update pass), [`EveryBody`] for any single-body
//!   [`Torque`](crate::body::Torque) — the catalogue's torques, Krysl's spatial torques and the
//!   engines' manufactured problem are all `Torque`s;
//! - the methods, each a [`crate::stepper::Stepper`] on [`SystemState`], driven by
//!   [`crate::integrate::integrate`]:
//!
//! | method | rotation | translation | loads per step | velocities the loads see |
//! |---|---|---|---|---|
//! | [`SpiralLeapfrogSystem`] | SPIRAL leapfrog (fast path) | leapfrog | 1 | `v_{n−½}`, `ω_{n−½}` |
//! | [`CatalogueSystem`]`<K>`, torque at `t_n` | SPIRAL leapfrog and non-leapfrog, SPIRAL+Omelyan, SPIRAL–Magnus, Omelyan, Fincham, Direct Euler, Buss, MercuryDPM/PFC4 | leapfrog | 1 (SPIRAL–Magnus: 2 at the start) | `v_{n−½}`, the method's `ω` at `q_n` |
//! | [`CatalogueSystem`]`<K>`, torque at `t_{n+1}` | Velocity Verlet, Johnson | velocity Verlet | 1 | `v_{n+½}`, the method's `ω` at `q_{n+1}` |
//! | [`Rk4System`] | classical RK4 on `(q, ω)`, rotor normalised after the step | the same RK4 stages | 4 | the stage velocities |
//!
//! Measured orders (position, velocity, orientation, angular velocity) on the spring pair
//! ([`crate::problems::SpringPair`]) are in `docs/system.md` and asserted in
//! `tests/system_catalogue.rs`: SPIRAL leapfrog, SPIRAL+Omelyan and Omelyan 2 in all four, the
//! other one-evaluation methods 1, RK4 4; with velocity-dependent loads every one-evaluation
//! method is first order.
//!
//! With the `parallel` feature (on by default) the methods process the bodies on rayon's pool in
//! chunks of at least [`PARALLEL_CHUNK`]; each body's update is independent, so results are
//! bit-identical for any number of threads.

mod arrays;
// `Body` lives in `crate::body`; this import keeps `super::body::Body` and `pub use body::Body`
// (`system::Body`) working.
use crate::body;
mod catalogue;
mod forces;
mod improved_pcdm;
mod methods;
mod pcdm;
pub(crate) mod plan;
mod rk4;
mod spiral;
mod state;

pub use body::Body;
pub use catalogue::CatalogueSystem;
pub use forces::{
    BodyFn, BodyModel, BodyModelVisitor, BodyView, EveryBody, Loads, PerBody, SystemForces,
    SystemView,
};
pub use improved_pcdm::ImprovedPcdmSystem;
pub use methods::{METHOD_NAMES, MethodVisitor, every_method};
pub use pcdm::PcdmSystem;
pub use rk4::Rk4System;
pub use spiral::SpiralLeapfrogSystem;
pub use state::SystemState;

/// The fewest bodies a parallel task processes (below it the split costs more than it saves).
pub const PARALLEL_CHUNK: usize = 1024;
