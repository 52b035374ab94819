//! The workload of `benches/system.rs`: free spheres under gravity and drag, the same as the
//! throughput runs of the many-body reproduction (`lieode-reproduce`, `six_dof`), written here
//! so that the library's benches need nothing outside the library.

use lieode::system::{BodyView, SystemState};
use nalgebra::Vector3;

/// Gravity, linear drag `−0.1 v` and a drag torque `−0.01 ω` on every body.
#[inline]
pub fn gravity_and_drag(body: &BodyView<'_>) -> (Vector3<f64>, Vector3<f64>) {
    (
        Vector3::new(0.0, 0.0, -9.81) - body.velocity * 0.1,
        body.omega * -0.01,
    )
}

/// `n` bodies at the origin moving and spinning in varied directions.
pub fn free_spheres(n: usize) -> SystemState {
    let mut y0 = SystemState::at_rest(0.0, n);
    for (i, (v, w)) in y0.velocities.iter_mut().zip(&mut y0.omegas).enumerate() {
        let s = i as f64;
        *v = Vector3::new(s.sin(), s.cos(), 1.0);
        *w = Vector3::new((2.0 * s).cos(), 0.5, (3.0 * s).sin());
    }
    y0
}
