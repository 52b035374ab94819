//! # Rigid-body rotation in momentum form: Krysl's implicit family and the rigid-body
//! Munthe-Kaas scheme
//!
//! The state is the attitude `R ∈ SO(3)` (body → lab) and the body angular momentum `Π = Jω`;
//! the torque is any [`Torque`] over `f64` and dual numbers (`F: Torque<f64> + Torque<Dual64>`,
//! for the Newton Jacobians of the implicit methods), evaluated at the attitude matrix `R`:
//! Krysl's examples give it in the lab frame, `t(t, R)` ([`HeavyTopTorque`],
//! [`CoulombWallTorque`]). Two incremental forms of
//! the equations of motion turn the literature's rigid-body integrators into engines of this
//! crate driven by tableaux ([`forms`]):
//!
//! | method | as |
//! |---|---|
//! | forward / backward Euler, incremental (Krysl Eqs. 11, 12) | Munthe-Kaas, tableaux `[0 | 1]` and `[1 | 1]`, body-momentum form |
//! | the same in momentum-conserving form (Eqs. 18, 19) | the same tableaux, spatial-momentum form |
//! | TRAP, IMID | compositions fE∘bE and bE∘fE at `h/2`, body form |
//! | TRAPM, IMIDM | the same compositions, spatial form |
//! | IMIDM (again) | implicit Munthe-Kaas, midpoint tableau (same numbers as the composition) |
//! | MKRK (Krysl §3.7), any tableau | [`MomentumIntegrator::munthe_kaas`], spatial form |
//! | BBTRAPWD, BBTRAP | implicit Munthe-Kaas, trapezoid tableau, `dexp⁻¹` exact / identity |
//! | SWC1, AKW | special steps ([`MomentumIntegrator::krysl`]): not single Munthe-Kaas tableaux |
//!
//! Energy and the Hamiltonian: [`kinetic_energy`] `½ Π·J⁻¹Π`, [`hamiltonian`] adds the torque's
//! potential where it has one.
//!
//! # References
//! - P. Krysl, *Dynamically equivalent implicit algorithms for the integration of rigid body
//!   rotations*, Commun. Numer. Meth. Engng (2007).
//! - J. C. Simo, K. K. Wong, *Unconditionally stable algorithms for rigid body dynamics that
//!   exactly preserve energy and momentum*, Int. J. Numer. Meth. Engng 31 (1991).
//! - D. Austin, P. Krishnaprasad, L.-S. Wang, *Almost Poisson integration of rigid body
//!   systems*, J. Comput. Phys. 107 (1993).
//! - C. L. Bottasso, M. Borri, *Integrating finite rotations*, Comput. Methods Appl. Mech.
//!   Engrg. 164 (1998).

mod akw;
pub mod forms;
mod increment_solve;
pub mod integrator;
mod simo_wong;
pub mod torque;

pub use forms::{
    BodyMomentum, BodyMomentumForm, MomentumAlgebra, MomentumOde, SpatialMomentum,
    SpatialMomentumForm, to_body, to_spatial,
};
pub use increment_solve::Solver;
pub use integrator::{KryslMethod, MomentumIntegrator};
pub use torque::{CoulombWallTorque, HeavyTopTorque};

use crate::body::RigidBodyState;
use nalgebra::Vector3;

use crate::body::{RigidBody, Torque};
use crate::lie::Real;

/// The kinetic energy `½ Π · J⁻¹Π` of the body momentum `Π`:
/// [`RigidBody::kinetic_energy_of_momentum`].
pub fn kinetic_energy(body: &RigidBody, momentum: &Vector3<f64>) -> f64 {
    body.kinetic_energy_of_momentum(momentum)
}

/// The Hamiltonian `½ Π · J⁻¹Π + V(R)` of a state `(R, Π)` under a torque with a potential
/// ([`Torque::potential`] at `R`); `None` if the torque has none.
pub fn hamiltonian<F: Torque>(body: &RigidBody, torque: &F, y: &RigidBodyState) -> Option<f64> {
    torque
        .potential(y.0.matrix())
        .map(|v: f64| v + body.kinetic_energy_of_momentum(&y.1.0))
}

/// The spatial angular momentum `π = RΠ` of a state `(R, Π)` in the body-momentum form (the
/// same `L` as [`RigidBody::spatial_momentum`] of a rotor and `ω`).
pub fn spatial_momentum<T: Real>(y: &RigidBodyState<T>) -> Vector3<T> {
    y.0.matrix() * y.1.0
}
