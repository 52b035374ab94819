//! SWC1: the energy- and momentum-conserving algorithm ALGO_C1 of Simo and Wong (Krysl §4).

use crate::body::RigidBodyState;
use nalgebra::Vector3;
use num_dual::Dual64;

use super::akw::lift_so3;
use super::increment_solve::{IncrementMap, IncrementSolver, Solver};
use crate::body::{RigidBody, Torque};
use crate::engine::Stats;
use crate::error::Result;
use crate::lie::product::Product;
use crate::lie::rn::Rn;
use crate::lie::so3::{So3, So3Algebra};
use crate::lie::{LieGroup, Lift, Real, real};

/// One SWC1 step (Simo & Wong 1991, ALGO_C1; Krysl §4) on the spatial-momentum state
/// `(R_n, π_n)`, `π_n = R_nΠ_n`:
///
/// ```text
/// Ψ = (h/2)(J⁻¹Π_n + J⁻¹Π_{n+1}),   R_{n+1} = R_n exp(Ψ),
/// Π_{n+1} = exp(−Ψ) Π_n + h exp(−Ψ/2) T_a,   T_a = body torque at (t + h/2, R_n exp(Ψ/2)).
/// ```
///
/// The torque is evaluated in the lab frame ([`Torque::lab_torque`]) at the mean angular
/// velocity of the step, `Ψ/h` (`ω_n` for `h = 0`).
///
/// Solved for `Ψ` as `Ψ = h K(Ψ)`, `K(Ψ) = ½(ω_n + J⁻¹R_{n+1}ᵀ(π_n + h t_a))` with the spatial
/// torque `t_a`; the new spatial momentum is `π_{n+1} = π_n + h t_a` (so
/// `Π_{n+1} = R_{n+1}ᵀπ_{n+1}` is the formula above).
/// It is BBTRAP's attitude update (trapezoidal `Ψ`, no `dexp⁻¹`) with a midpoint torque impulse;
/// for torque-free motion it is BBTRAP. Not a Munthe-Kaas tableau: the attitude and the momentum
/// use different quadratures.
///
/// # Errors
/// [`crate::Error::NonConvergence`] (with the time, step and iteration count in its message),
/// [`crate::Error::NonFiniteState`].
// The step's data and the solver's state, passed as the engines' steps take them.
#[allow(clippy::too_many_arguments)]
pub(crate) fn swc1_step<S, F>(
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
    let map = Swc1Map {
        body,
        torque,
        t,
        h,
        r: y.0,
        spatial: y.1.0,
        omega: y
            .0
            .matrix()
            .tr_mul(&y.1.0)
            .component_mul(&body.inverse_inertia()),
    };
    let psi = increments.solve(&map, solver, t, h, S::one(), stats)?;
    let (r_next, pi_next) = map.advance(&psi);
    Ok(Product(r_next, Rn(pi_next)))
}

struct Swc1Map<'a, F, S: Real> {
    body: &'a RigidBody<S>,
    torque: &'a F,
    t: f64,
    h: f64,
    r: So3<S>,
    spatial: Vector3<S>,
    omega: Vector3<S>,
}

impl<F, S: Real> Swc1Map<'_, F, S> {
    /// `(R_{n+1}, π_{n+1})` for the increment `Ψ`, over the scalar `T`.
    fn advance<T: Real>(&self, psi: &Vector3<T>) -> (So3<T>, Vector3<T>)
    where
        F: Torque<T>,
        S: Lift<T>,
    {
        let r = lift_so3(&self.r);
        let h = real::<T>(self.h);
        let half = r.compose(&So3::exp(&So3Algebra(psi * real::<T>(0.5))));
        let mean_omega = if self.h == 0.0 {
            self.omega.map(Lift::lift)
        } else {
            psi / h
        };
        let t_a = self.torque.lab_torque(
            real::<T>(self.t) + h * real::<T>(0.5),
            half.matrix(),
            &mean_omega,
        );
        let next = r.compose(&So3::exp(&So3Algebra(*psi)));
        (next, self.spatial.map(Lift::lift) + t_a * h)
    }
}

impl<T: Real, S: Real + Lift<T>, F: Torque<T>> IncrementMap<T> for Swc1Map<'_, F, S> {
    fn k(&self, psi: &Vector3<T>) -> Vector3<T> {
        let (r_next, pi_next) = self.advance(psi);
        let omega_next = r_next
            .matrix()
            .tr_mul(&pi_next)
            .component_mul(&self.body.inverse_inertia().map(Lift::lift));
        (self.omega.map(Lift::lift) + omega_next) * real::<T>(0.5)
    }
}
