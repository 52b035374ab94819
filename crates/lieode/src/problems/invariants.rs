//! # The invariants of torque-free rotation, as observers
//!
//! Observers of a rotating body for [`crate::integrate::integrate`]: its kinetic energy and its
//! angular momentum in the lab frame, recorded along a run as [`Series`] — the conserved
//! quantities of torque-free motion (exact reference values: their initial ones), whose drift
//! measures a method.
//!
//! # Examples
//! ```
//! use lieode::integrate::{Options, Record, integrate};
//! use lieode::problems::invariants;
//! use lieode::rotation::{NoTorque, RigidBody, RotationalState, catalogue};
//! use lieode::stepper::Span;
//! use nalgebra::{Quaternion, Vector3};
//!
//! let body = RigidBody::new([1.0, 2.0, 2.5])?;
//! let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
//! // The largest relative drift of the energy and of |L| over 10 s of torque-free motion.
//! let drifts = |name: &str, dt: f64| -> lieode::Result<(f64, f64)> {
//!     let mut energy = invariants::kinetic_energy(body).every(10)?;
//!     let mut momentum = invariants::angular_momentum_norm(body).every(10)?;
//!     let mut method = catalogue::stepper(name, body)?;
//!     let span = Span::stride(0.0, dt, (10.0 / dt).round() as usize)?;
//!     let options = Options::record(Record::Ends).observer(&mut energy).observer(&mut momentum);
//!     integrate(&mut *method, &mut NoTorque, &start, &span, options)?;
//!     Ok((energy.max_relative_drift(), momentum.max_relative_drift()))
//! };
//! // Fincham carries L in the lab frame: |L| stays at round-off, the energy does not.
//! let (e, l) = drifts("fincham", 1e-2)?;
//! assert!(l < 1e-14 && e > 1e-3);
//! // SPIRAL's energy and |L| errors are second order: halving dt divides them by about 4.
//! let (e1, l1) = drifts("spiral_leapfrog", 1e-2)?;
//! let (e2, l2) = drifts("spiral_leapfrog", 5e-3)?;
//! assert!((3.5..4.5).contains(&(e1 / e2)) && (3.5..4.5).contains(&(l1 / l2)));
//! # Ok::<(), lieode::Error>(())
//! ```

use crate::body::RigidBody;
use crate::integrate::Series;
use crate::rotation::RotationalState;

/// The kinetic energy `½ ω·Jω` of the synchronised state, named `kinetic_energy`.
pub fn kinetic_energy(body: RigidBody) -> Series<impl FnMut(f64, &RotationalState) -> f64> {
    Series::new("kinetic_energy", move |_t, y: &RotationalState| {
        body.kinetic_energy(&y.omega)
    })
}

/// The norm of the lab-frame angular momentum `|L| = |q (Jω) q̄| / |q|²`, named
/// `angular_momentum`: conserved by torque-free motion whatever the frame (its direction is
/// conserved too, but the norm needs no reference).
pub fn angular_momentum_norm(body: RigidBody) -> Series<impl FnMut(f64, &RotationalState) -> f64> {
    Series::new("angular_momentum", move |_t, y: &RotationalState| {
        body.spatial_momentum(&y.q, &y.omega).norm()
    })
}

/// One lab-frame component `L_i` of the angular momentum (`i = 0, 1, 2`, clamped to 2), named
/// `L_x`, `L_y` or `L_z`.
pub fn angular_momentum_component(
    body: RigidBody,
    i: usize,
) -> Series<impl FnMut(f64, &RotationalState) -> f64> {
    let i = i.min(2);
    let name = ["L_x", "L_y", "L_z"][i];
    Series::new(name, move |_t, y: &RotationalState| {
        body.spatial_momentum(&y.q, &y.omega)[i]
    })
}
