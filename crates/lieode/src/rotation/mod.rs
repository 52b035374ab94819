//! # Rigid-body rotation: the model and the catalogue of rotational steppers
//!
//! The rigid body ([`RigidBody`]: principal moments, Euler's equations, energy and momentum),
//! torques in the body or lab frame ([`Torque`]), and the one-step methods of the
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
//! **One definition per method.** Each method is a [`RigidBodyMethod`]: the mathematics of a
//! step split at its torque evaluation (`prepare` the torque point, `finish` with the torque),
//! its start and its synchronisation, given the body, the torque, the carried state and the step
//! size as values, with one information row ([`MethodInfo`]). The single-body stepper is
//! [`SingleBody`]`<K>` (each method's stepper type is an alias, e.g. [`DirectEuler`]); the
//! many-body [`crate::system::CatalogueSystem`]`<K>` runs the same two calls on N bodies around
//! one evaluation of a system force model. The Lie-group engines ([`LieEngine`]) evaluate the
//! torque inside their stages and are steppers of their own.
//!
//! Orders are the slopes measured in `tests/rotation_spiral.rs` and `tests/rotation_classic.rs`
//! on the SPIRAL cylinder and on an asymmetric body under an attitude- and time-dependent torque
//! (each stepper's docs give the numbers).
//!
//! # References
//! - C. A. del Valle, V. Angelidakis, S. Roy, J. D. Muñoz, T. Pöschel, *SPIRAL: An efficient
//!   algorithm for the integration of the equation of rotational motion*, Comput. Phys. Commun.
//!   297 (2024) 109077 (the catalogue of its App. B, the benchmark of its §4).

mod buss;
pub mod catalogue;
mod direct_euler;
mod fincham;
mod johnson;
mod lie_engine;
mod mercurydpm;
mod method;
mod omega_integrator;
mod omelyan;
mod rk4;
mod single_body;
mod spiral;
mod spiral_leapfrog;
mod spiral_magnus;
mod spiral_omelyan;
mod stepper;
mod velocity_verlet;

pub use crate::body::{
    BodyTorque, ConstantBodyTorque, LabTorque, NoTorque, RigidBody, Torque, quaternion,
};
pub use buss::{Buss, BussMethod};
pub use direct_euler::{DirectEuler, DirectEulerMethod};
pub use fincham::{Fincham, FinchamMethod};
pub use johnson::{Johnson, JohnsonMethod};
pub use lie_engine::{BodyLieOde, LieEngine, identity_state};
pub use mercurydpm::{
    DEFAULT_ITERATIONS as MERCURYDPM_DEFAULT_ITERATIONS, MercuryDpm, MercuryDpmFrame,
    MercuryDpmMethod, lab_to_body,
};
pub use method::{Carried, CarriedMut, MethodInfo, PackedState, RigidBodyMethod, TorquePoint};
pub use omega_integrator::{
    EulerSsprk3, FixedStepOmega, FixedStepSsprk3, FixedStepStages, FixedStepTableau,
    MAX_OMEGA_STAGES, MAX_UNROLLED_STAGES, OmegaIntegrated, OmegaIntegrator,
};
pub use omelyan::{
    DEFAULT_ITERATIONS as OMELYAN_DEFAULT_ITERATIONS, Omelyan, OmelyanCayley, OmelyanMethod,
    OmelyanVariant, omelyan_half_step,
};
pub use rk4::{Rk4, Rk4Method, Rk4Stages};
pub use single_body::SingleBody;
pub use spiral::{Spiral, SpiralMethod};
pub use spiral_leapfrog::{SpiralLeapfrog, SpiralLeapfrogMethod};
pub use spiral_magnus::{SpiralMagnus, SpiralMagnusHistory, SpiralMagnusMethod};
pub use spiral_omelyan::{SpiralExponential, SpiralOmelyan};
pub use stepper::{
    CatalogueStepper, ROTOR_NORM_SQUARED_MIN, Renormalisation, Renormaliser, RotationalMethod,
    RotationalState,
};
pub use velocity_verlet::{VelocityVerlet, VelocityVerletMethod};
