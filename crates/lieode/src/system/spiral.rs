//! SPIRAL (leapfrog) on N bodies in six degrees of freedom, with leapfrog translation: the
//! many-body adapter's SSPRK3 specialisation.

use super::catalogue::CatalogueSystem;
use crate::rotation::SpiralLeapfrogMethod;
#[cfg(doc)]
use crate::stepper::Stepper;

/// SPIRAL's leapfrog rotation (del Valle et al. 2024, Eqs. 9–12) with the leapfrog (Störmer–
/// Verlet) translation it is paired with in DEM codes, on N bodies at once:
///
/// ```text
/// loads F_n, τ_n at (t_n, x_n, v_{n−½}, q_n, ω_{n−½})          (one evaluation per step)
/// v_{n+½} = v_{n−½} + Δt F_n/m,          x_{n+1} = x_n + Δt v_{n+½}
/// ω_{n+½} = SSPRK3 step of ω̇ = J⁻¹(τ_n − ω × Jω) from ω_{n−½}, τ frozen
/// q_{n+1} = q_n ⊗ exp(ω_{n+½} Δt/2)
/// ```
///
/// The start takes half a step back from the synchronised initial state with the loads at
/// `t₀`; [`Stepper::state`] synchronises (`v_n = v_{n−½} + Δt/2 F_n/m`,
/// `ω_n = ω_{n−½} + Δt/2 ω̇(ω_{n−½}, τ_n)`, one more evaluation, counted). Lab-frame torques
/// are rotated into the body frame with `q_n`.
///
/// **Velocity-dependent forces** see the velocities of the leapfrog, `v_{n−½}` and `ω_{n−½}`,
/// half a step behind the positions: a force depending on them is then first-order accurate
/// (measured on the damped sphere, `tests/system.rs`).
///
/// It is [`CatalogueSystem`] with SPIRAL leapfrog's one definition
/// ([`SpiralLeapfrogMethod`], SSPRK3 by default): with one body and no force, the rotation is
/// the single-body [`crate::rotation::SpiralLeapfrog`] bit for bit (tested). Build it with the
/// single-body constructor, `SpiralLeapfrogSystem::new(bodies, SpiralLeapfrog::new)`.
///
/// With the `parallel` feature the bodies are updated on rayon's pool; every body's update is
/// independent, so results are identical for any number of threads.
pub type SpiralLeapfrogSystem = CatalogueSystem<SpiralLeapfrogMethod>;
