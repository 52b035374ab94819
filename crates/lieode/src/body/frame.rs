//! The two frames a rigid body's vectors are given in.

/// The frame of a vector of a rotating body: a torque, an angular velocity, a momentum.
///
/// The rotor `q` maps body to lab (`docs/notation.md`): `v_lab = q v_body q̄`. One enum for
/// every rigid-body layer — the torques of a force model ([`crate::system`]), the angular
/// velocity of a rotation problem ([`crate::kinematics`]), the momentum a Krysl method carries
/// ([`crate::momentum`]) — so the frame the literature calls inertial, lab or spatial has one
/// name here: [`Frame::Lab`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Frame {
    /// The body frame, turning with the body (the principal axes of [`super::RigidBody`]):
    /// `ω_b`, body torques, the body momentum `Π = J ω_b`.
    Body,
    /// The lab frame, fixed in space (inertial, spatial): `ω = q ω_b q̄`, lab torques from
    /// contacts and fields, the spatial momentum `π = R Π`.
    Lab,
}
