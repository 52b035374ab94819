//! # Butcher tableaux as data
//!
//! A method of Runge–Kutta type is its coefficients: `A = (a_ij)`, weights `b`, nodes `c`,
//! optional embedded weights `b̂`, optional dense-output polynomials, and — for
//! commutator-free methods — the exponential weights of each stage and of the output. One
//! [`ButcherTableau`] value drives every engine: the classical Runge–Kutta engine on vector
//! spaces, Munthe-Kaas on Lie groups, Crouch–Grossman and commutator-free products of
//! exponentials.
//!
//! Built-in tableaux are `const` data written once (see [`registry`]); users build their own
//! at run time with [`ButcherTableau::new`] and the `with_*` builders, which validate.

pub mod order_conditions;
pub mod registry;

mod butcher;
mod crouch_grossman;
mod explicit;
mod implicit;
mod lie;
mod validate;

pub use butcher::{ButcherTableau, CommutatorFreeWeights, DenseOutput, ExponentialProduct, Family};
pub use validate::CONSISTENCY_TOLERANCE;
