//! # Rigid-body rotation: the model and the catalogue of rotational steppers
//!
//! The rigid body ([`RigidBody`]: principal moments, Euler's equations, energy and momentum),
//! torque fields in the body or lab frame ([`TorqueField`]), and the one-step methods of the
//! rigid-body literature as [`Stepper`](crate::stepper::Stepper)s on [`RotationalState`], each documented with its
//! update equations and the paper's equation numbers, built from the library's primitives where
//! it can be (registry tableaux, the quaternion exponential, the Cayley map).
//!
//! Conventions (`docs/notation.md`): Hamilton quaternions, scalar first; the rotor `q` maps body
//! to lab, `v_lab = q v_body q̄`; body-frame kinematics `q̇ = ½ q ⊗ (0, ω_b)`;
//! `exp(v) = (cos|v|, sin|v| v/|v|)`, so `q ⊗ exp(dt ω/2)` turns by the angle `dt |ω|`.
//!
//! Every stepper is in the [`catalogue`] under its name (`catalogue::stepper(name, body)`); this
//! table is tested against it.
//!
//! | stepper | name | q / ω order (measured) | torque evaluations | normalises (default) |
//! |---|---|---|---|---|
//! | [`SpiralLeapfrog`] | `spiral_leapfrog` | 2 / 3 (constant body torque), 2 / 2 otherwise | 1 | never |
//! | [`Spiral`] | `spiral` | 2 / 3 (constant body torque), 1 / 1 otherwise | 1 | never |
//! | [`SpiralOmelyan`] | `spiral_omelyan` | 2 / 2 | 1 | never |
//! | [`SpiralMagnus`] | `spiral_magnus` | 3 / 3 (two-step torque history) | 1 | never |
//! | [`Omelyan`] | `omelyan` | 2 / 2 | 1 | never |
//! | [`Rk4`] | `rk4` | 4 / 4 | 4 | every step |
//! | [`DirectEuler`] | `direct_euler` | 1 / 1 | 1 | every step |
//! | [`VelocityVerlet`] | `velocity_verlet` | 1 / 1 | 1 | every step |
//! | [`Fincham`] | `fincham` | 1 / 1 | 1 | every step |
//! | [`Buss`] | `buss`, `buss16` | 1 / 1 | 1 | never |
//! | [`Johnson`] | `johnson` | 1 / 1 | 1 | every step |
//! | [`MercuryDpm`] | `mercurydpm` | 1 / 1 | 1 | every step (Gram–Schmidt) |
//! | [`LieEngine`] | e.g. `rkmk4`, `cg4a` | the engine's | its stages | never |
//!
//! **The SPIRAL family.** [`SpiralLeapfrog`] and [`Spiral`] advance ω by SSPRK3 (the paper's
//! choice) or by any explicit tableau given as an [`OmegaIntegrator`] (unrolled up to four stages)
//! (`with_omega_integrator`): for a torque constant in the body frame ω then has the tableau's
//! order, q stays second order, and a varying torque caps both at the orders above
//! (`docs/spiral_family.md`). [`SpiralLeapfrog::lab_frame_step`] is the Wikipedia draft's
//! sample step, lab-frame angular velocity and torque in and out.
//!
//! Every quaternion stepper takes another normalisation policy ([`Renormalisation`]: never,
//! every step, every `n` steps) through its `with_renormalisation` builder; the default is the
//! published benchmark's, and each stepper's docs say which normalisation the policy switches
//! (the one after the rotor update; normalisations inside a step that belong to the method, such
//! as Fincham's half-step rotor, stay). The shared logic is [`Renormaliser`]. MercuryDPM's
//! Gram–Schmidt is part of its matrix update and not an option; the Lie engines stay on the
//! group by construction.
//!
//! Every method with one torque evaluation per step is split at it ([`SplitStep`]: prepare the
//! torque point, finish with the torque), so that [`crate::system::CatalogueSystem`] runs the
//! same arithmetic on N bodies whose loads come from one evaluation of a system force model.
//!
//! Orders are the slopes measured in `tests/rotation_spiral.rs` and `tests/rotation_classic.rs`
//! on the SPIRAL cylinder and on an asymmetric body under an attitude- and time-dependent torque
//! (each stepper's docs give the numbers).
//!
//! # References
//! - C. A. del Valle, V. Angelidakis, S. Roy, J. D. Muñoz, T. Pöschel, *SPIRAL: An efficient
//!   algorithm for the integration of the equation of rotational motion*, Comput. Phys. Commun.
//!   297 (2024) 109077 (the catalogue of its App. B, the benchmark of its §4).

pub mod buss;
pub mod catalogue;
pub mod direct_euler;
pub mod fincham;
pub mod johnson;
pub mod lie_engine;
pub mod mercurydpm;
pub mod omega_integrator;
pub mod omelyan;
pub mod rk4;
pub mod spiral;
pub mod spiral_leapfrog;
pub mod spiral_magnus;
pub mod spiral_omelyan;
pub mod split;
pub mod stepper;
pub mod torque;
pub mod velocity_verlet;

pub use crate::body::{RigidBody, quaternion};
pub use buss::Buss;
pub use direct_euler::DirectEuler;
pub use fincham::Fincham;
pub use johnson::Johnson;
pub use lie_engine::LieEngine;
pub use mercurydpm::MercuryDpm;
pub use omega_integrator::{
    EulerSsprk3, FixedStepOmega, FixedStepSsprk3, FixedStepStages, FixedStepTableau,
    OmegaIntegrator,
};
pub use omelyan::Omelyan;
pub use rk4::Rk4;
pub use spiral::Spiral;
pub use spiral_leapfrog::SpiralLeapfrog;
pub use spiral_magnus::SpiralMagnus;
pub use spiral_omelyan::SpiralOmelyan;
pub use split::{RotorFirst, SplitStep, TorquePoint};
pub use stepper::{
    CatalogueStepper, CountedTorque, Renormalisation, Renormaliser, RotationalMethod,
    RotationalState, RunCount, check_step_size, checked_torque, not_started,
};
pub use torque::{BodyTorque, ConstantBodyTorque, LabTorque, NoTorque, TorqueField};
pub use velocity_verlet::VelocityVerlet;
