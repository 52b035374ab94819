//! # The rigid body
//!
//! The physical model every rigid-body integrator shares — [`RigidBody`]: principal moments of
//! inertia (or a full tensor, diagonalised), Euler's equations (written once, generic in the
//! scalar), energy and angular momentum, body ↔ lab conversions —, [`Body`] (a rigid body with
//! a mass, for the many-body layer), the [`Frame`] every rigid-body layer gives its vectors in,
//! the one torque interface ([`Torque`], evaluated at an [`Orientation`] — a rotor or a
//! rotation matrix —, generic in the scalar) with the simple torques ([`NoTorque`],
//! [`ConstantBodyTorque`], the closures [`BodyTorque`] and [`LabTorque`]), and the
//! Hamilton-quaternion arithmetic the rotational steppers use ([`quaternion`]). It sits below
//! the rotational catalogue ([`crate::rotation`]), Krysl's momentum family
//! ([`crate::momentum`]) and the many-body layer ([`crate::system`]), which build on it.
//!
//! Conventions (`docs/notation.md`): Hamilton quaternions, scalar first; the rotor `q` maps
//! body to lab, `v_lab = q v_body q̄`.

mod frame;
mod mass;
pub mod quaternion;
mod rigid_body;
mod states;
mod torque;

pub use frame::Frame;
pub use mass::Body;
pub use rigid_body::{RigidBody, body_frame_angular_velocity, lab_angular_velocity};
pub use states::{RigidBodyQuatState, RigidBodyState};
pub use torque::{BodyTorque, ConstantBodyTorque, LabTorque, NoTorque, Orientation, Torque};
