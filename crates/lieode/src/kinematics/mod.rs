//! # Rotation formulations: orientation from angular velocity
//!
//! "I know the angular velocity `ω(t, R)`; find the orientation `R(t)`" becomes an ODE that any
//! integrator can solve in several ways — Boyle's formulations — and, beside them, the
//! Lie-group lifting. Each is the first argument of a [`Formulated`] stepper, which the one
//! driver [`crate::integrate::integrate`] runs:
//!
//! | formulation | evolved state | equation | steppers |
//! |---|---|---|---|
//! | [`FrameVectors`] | `f_0, f_1, f_2` (9) | `ḟ_i = ω × f_i` (Boyle Eq. 1) | every vector stepper |
//! | [`TwoFrameVectors`] | `f_0, f_1` (6), `f_2 = f_0 × f_1` | Eq. 1; damped: Eqs. 2–3 | every vector stepper |
//! | [`Rotor`] | `R` (4), not normalised | `Ṙ = ½ ω R` (Eq. 10) | every vector stepper |
//! | [`Generator::plain`] | `r`, `R = exp(r)` (3) | Eq. 18 | every vector stepper |
//! | [`Generator::reset`] | `r`, reset to `|r| < π/2` after each step | Eqs. 18, 20 | vector steppers that restart ([`crate::stepper::Stepper::reset_state`]) |
//! | [`Lifted`] | `R ∈ UnitQuat` | `Ṙ = (ω/2) R` on the group | lifted steppers ([`crate::adaptive::LieStepper`], Munthe-Kaas engines) |
//!
//! A run has the driver's three inputs from the adapter: `let mut rotor = Formulated::new(Rotor,
//! stepper)`, the problem `rotor.ode(problem)` and the checked start state
//! `rotor.initial_state(&q0, &x0)?`; [`crate::integrate::integrate`] returns the ordinary
//! [`crate::integrate::Solution`] of the evolved states, which the adapter reads as
//! orientations, frames and extra states ([`Formulated::rotors`], [`Formulated::frames`],
//! [`Formulated::extra`], densely [`Formulated::at`] and [`Formulated::frame_at`]);
//! [`Formulated::resets`] counts the resets.
//!
//! The problem ([`RotationProblem`], from closures by [`Kinematics`]) gives `ω` in the inertial
//! frame (`Ṙ = ½ ω R`, Boyle's convention) or in the body frame (`Ṙ = ½ R ω_b`), and may carry an
//! extra state `x ∈ ℝᴹ`, `x' = g(t, R, x)`, integrated together with the orientation (a spin, a
//! translational state). The orientation reaches `ω` and `g` as an [`Attitude`], converted only
//! if asked for.
//!
//! Rotors act on vectors by `R v R⁻¹` with the true inverse, so their norm drops out (Boyle
//! §III); the error measure of Boyle's Eq. (25) compares frames
//! ([`crate::problems::boyle::frame_error`]).
//!
//! # References
//! M. Boyle, *The integration of angular velocity*, Adv. Appl. Clifford Algebras 27 (2017)
//! 2345–2374 (arXiv:1604.08139).

mod formulated;
mod formulation;
mod frame_vectors;
mod generator;
mod lifted;
mod problem;
mod rotor;

pub use formulated::Formulated;
pub use formulation::{Formulation, Named, Stacked, VectorForm, VectorFormulation};
pub use frame_vectors::{FrameVectors, TwoFrameVectors};
pub use generator::{
    GENERATOR_SERIES_SQ, Generator, generator_coefficients, generator_rate, reset_generator,
};
pub use lifted::{Lifted, LiftedOde};
pub use problem::{Attitude, Coupled, Kinematics, NoExtra, RotationProblem, rotate_by_rotor};
pub use rotor::Rotor;
