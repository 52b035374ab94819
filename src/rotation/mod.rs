//! # Rigid-body rotation: the model and the catalogue of rotational steppers
//!
//! The rigid body ([`RigidBody`]: principal moments, Euler's equations, energy and momentum),
//! torque fields in the body or lab frame ([`TorqueField`]), and the one-step methods of the
//! rigid-body literature behind one interface ([`RotationalStepper`]), each documented with its
//! update equations and the paper's equation numbers, built from the library's primitives where
//! it can be (registry tableaux, the quaternion exponential, the Cayley map).
//!
//! Conventions (`docs/notation.md`): Hamilton quaternions, scalar first; the rotor `q` maps body
//! to lab, `v_lab = q v_body q̄`; body-frame kinematics `q̇ = ½ q ⊗ (0, ω_b)`;
//! `exp(v) = (cos|v|, sin|v| v/|v|)`, so `q ⊗ exp(dt ω/2)` turns by the angle `dt |ω|`.
//!
//! # References
//! - C. A. del Valle, V. Angelidakis, S. Roy, J. D. Muñoz, T. Pöschel, *SPIRAL: An efficient
//!   algorithm for the integration of the equation of rotational motion*, Comput. Phys. Commun.
//!   297 (2024) 109077 (the catalogue of its App. B, the benchmark of its §4).

pub mod body;
pub mod buss;
pub mod direct_euler;
pub mod fincham;
pub mod johnson;
pub mod mercurydpm;
pub mod omelyan;
pub mod quaternion;
pub mod reference;
pub mod rk4;
pub mod spiral;
pub mod spiral_leapfrog;
pub mod spiral_magnus;
pub mod spiral_omelyan;
pub mod stepper;
pub mod torque;
pub mod velocity_verlet;

pub use body::RigidBody;
pub use direct_euler::DirectEuler;
pub use stepper::{
    Renormalisation, RotationalMethod, RotationalState, RotationalStepper, check_step_size,
    checked_torque, not_started, run_steps,
};
pub use torque::{BodyTorque, ConstantBodyTorque, LabTorque, NoTorque, TorqueField};
