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
use crate::lie::{LieGroup, Lift, Real, real};

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
pub(crate) fn akw_step<S, F>(
    body: &RigidBody<S>,
    torque: &F,
    solver: Solver,
    increments: &mut IncrementSolver<S>,
    t: f64,
    y: &RigidBodyState<S>,
    h: f64,
    stats: &mut Stats,
) -> Result<RigidBodyState<S>>
where
    S: Real + Lift<S> + Lift<Dual64>,
    F: Torque<S> + Torque<Dual64>,
{
    let r = y.0;
    let map = AkwMap {
        body,
        torque,
        t,
        h,
        r,
        momentum: y.1.0,
        torque_start: torque.body_torque(
            real::<S>(t),
            r.matrix(),
            &body.body_angular_velocity(&y.1.0),
        ),
    };
    let scale = y.1.0.amax();
    let z = increments.solve(&map, solver, t, h, scale, stats)?;
    let (r_next, _) = map.advance(&z);
    Ok(Product(r_next, Rn(y.1.0 + z)))
}

struct AkwMap<'a, F, S: Real> {
    body: &'a RigidBody<S>,
    torque: &'a F,
    t: f64,
    h: f64,
    r: So3<S>,
    momentum: Vector3<S>,
    torque_start: Vector3<S>,
}

impl<F, S: Real> AkwMap<'_, F, S> {
    /// `(R_{n+1}, Π̄)` for the increment `Z`, over any scalar.
    fn advance<T: Real>(&self, z: &Vector3<T>) -> (So3<T>, Vector3<T>)
    where
        S: Lift<T>,
    {
        let mean = self.momentum.map(Lift::lift) + z * real::<T>(0.5);
        let omega = self.body.lifted::<T>().body_angular_velocity(&mean);
        let step: So3<T> = CayleyMap::map(&So3Algebra(omega * real::<T>(self.h)));
        (lift_so3(&self.r).compose(&step), mean)
    }
}

impl<T: Real, S: Real + Lift<T>, F: Torque<T>> IncrementMap<T> for AkwMap<'_, F, S> {
    fn k(&self, z: &Vector3<T>) -> Vector3<T> {
        let (r_next, mean) = self.advance(z);
        let h = real::<T>(self.h);
        let body = self.body.lifted::<T>();
        let omega_next = body.body_angular_velocity(&(self.momentum.map(Lift::lift) + z));
        let t_next = self
            .torque
            .body_torque(real::<T>(self.t) + h, r_next.matrix(), &omega_next);
        // Euler's equations in momentum form at Π̄ under the trapezoidal torque.
        let torque = (self.torque_start.map(Lift::lift) + t_next) * real::<T>(0.5);
        body.momentum_rate(&mean, &torque)
    }
}

/// `R` over the scalar a map is evaluated over ([`Lift`]: an `f64` rotation as it is; a
/// sensitivity run's dual one with its derivative parts, or by its real parts over `Dual64`).
pub(crate) fn lift_so3<S: Real + Lift<T>, T: Real>(r: &So3<S>) -> So3<T> {
    So3::from_matrix_unchecked(r.matrix().map(Lift::lift))
}
