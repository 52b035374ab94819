//! AKW: the Cayley-map implicit midpoint rule of Austin, Krishnaprasad and Wang (Krysl §4).

use crate::body::RigidBodyState;
use nalgebra::Vector3;
use num_dual::Dual64;

use super::increment_solve::{IncrementMap, IncrementSolver, Solver};
use crate::body::{RigidBody, Torque};
use crate::engine::Stats;
use crate::error::Result;
use crate::lie::coordinates::{CayleyMap, CoordinateMap};
use crate::lie::product::Product;
use crate::lie::rn::Rn;
use crate::lie::so3::{So3, So3Algebra};
use crate::lie::{LieGroup, Real, real};

/// One AKW step (Austin, Krishnaprasad & Wang 1993; Krysl §4) from `(R_n, Π_n)`:
///
/// ```text
/// Π̄ = (Π_n + Π_{n+1})/2,   Π_{n+1} = Π_n − h (J⁻¹Π̄) × Π̄ + (h/2)(T_n + T_{n+1}),
/// R_{n+1} = R_n cay(h J⁻¹Π̄),   cay(A) = (I − A/2)⁻¹ (I + A/2)
/// ```
///
/// with the body torques `T_n = R_nᵀ t(t, R_n)`, `T_{n+1} = R_{n+1}ᵀ t(t + h, R_{n+1})`
/// ([`Torque::body_torque`] at `ω_n = J⁻¹Π_n` and `ω_{n+1} = J⁻¹Π_{n+1}`). Solved
/// for `Z = Π_{n+1} − Π_n` as `Z = h K(Z)`. The Cayley map is [`CayleyMap`] (a rational map,
/// not the exponential). Not a Munthe-Kaas method in exponential coordinates: the attitude
/// moves by a Cayley step, the momentum by the body-frame midpoint rule with a trapezoidal
/// torque.
///
/// # Errors
/// [`crate::Error::NonConvergence`] (with the time, step and iteration count in its message),
/// [`crate::Error::NonFiniteState`].
// The step's data and the solver's state, passed as the engines' steps take them.
#[allow(clippy::too_many_arguments)]
pub(crate) fn akw_step<F: Torque<f64> + Torque<Dual64>>(
    body: &RigidBody,
    torque: &F,
    solver: Solver,
    increments: &mut IncrementSolver,
    t: f64,
    y: &RigidBodyState,
    h: f64,
    stats: &mut Stats,
) -> Result<RigidBodyState> {
    let r = y.0;
    let map = AkwMap {
        body,
        torque,
        t,
        h,
        r,
        momentum: y.1.0,
        torque_start: torque.body_torque(t, r.matrix(), &body.body_angular_velocity(&y.1.0)),
    };
    let scale = y.1.0.amax();
    let z = increments.solve(&map, solver, t, h, scale, stats)?;
    let (r_next, _) = map.advance(&z);
    Ok(Product(r_next, Rn(y.1.0 + z)))
}

struct AkwMap<'a, F> {
    body: &'a RigidBody,
    torque: &'a F,
    t: f64,
    h: f64,
    r: So3,
    momentum: Vector3<f64>,
    torque_start: Vector3<f64>,
}

impl<F> AkwMap<'_, F> {
    /// `(R_{n+1}, Π̄)` for the increment `Z`, over any scalar.
    fn advance<T: Real>(&self, z: &Vector3<T>) -> (So3<T>, Vector3<T>) {
        let mean = self.momentum.map(real::<T>) + z * real::<T>(0.5);
        let omega = self.body.cast::<T>().body_angular_velocity(&mean);
        let step: So3<T> = CayleyMap::map(&So3Algebra(omega * real::<T>(self.h)));
        (self.r.cast::<T>().compose(&step), mean)
    }
}

impl<T: Real, F: Torque<T>> IncrementMap<T> for AkwMap<'_, F> {
    fn k(&self, z: &Vector3<T>) -> Vector3<T> {
        let (r_next, mean) = self.advance(z);
        let h = real::<T>(self.h);
        let body = self.body.cast::<T>();
        let omega_next = body.body_angular_velocity(&(self.momentum.map(real::<T>) + z));
        let t_next = self
            .torque
            .body_torque(real::<T>(self.t) + h, r_next.matrix(), &omega_next);
        // Euler's equations in momentum form at Π̄ under the trapezoidal torque.
        let torque = (self.torque_start.map(real::<T>) + t_next) * real::<T>(0.5);
        body.momentum_rate(&mean, &torque)
    }
}
