//! Spatial (lab-frame) torque fields `t(t, R)` for the momentum-form rigid-body integrators.
//!
//! Krysl's examples give the torque in the spatial frame as a function of the attitude matrix
//! `R` (body → lab); the body-frame torque is `T = Rᵀ t`. The fields are generic over the
//! scalar so that the implicit methods can differentiate them with dual numbers (`num-dual`).

use nalgebra::{Matrix3, Quaternion, Vector3};

use crate::body::quaternion::rotation_matrix;
use crate::lie::{Real, real};
use crate::rotation::TorqueField;

/// A spatial torque `t(t, R)` acting on a rigid body, in the lab frame.
///
/// Implementations must be generic over the scalar (`f64` for stepping, dual numbers for the
/// Newton Jacobians of the implicit methods).
///
/// # Examples
/// ```
/// use lieode::momentum::{HeavyTopTorque, SpatialTorque};
/// use nalgebra::{Matrix3, Vector3};
/// // Upright top: the axis along e3 feels no gravity torque.
/// let t = HeavyTopTorque::krysl().spatial_torque(0.0, &Matrix3::identity());
/// assert_eq!(t, Vector3::zeros());
/// ```
pub trait SpatialTorque {
    /// The lab-frame torque at time `t` and attitude `r`.
    fn spatial_torque<T: Real>(&self, t: T, r: &Matrix3<T>) -> Vector3<T>;

    /// The potential energy `V(R)` whose torque this is, when there is one (for Hamiltonians);
    /// `None` for non-conservative or time-dependent fields.
    fn potential<T: Real>(&self, _r: &Matrix3<T>) -> Option<T> {
        None
    }
}

/// A borrowed torque field is the field itself (the integrators borrow the problem's torque for
/// each step).
impl<F: SpatialTorque + ?Sized> SpatialTorque for &F {
    fn spatial_torque<T: Real>(&self, t: T, r: &Matrix3<T>) -> Vector3<T> {
        (**self).spatial_torque(t, r)
    }

    fn potential<T: Real>(&self, r: &Matrix3<T>) -> Option<T> {
        (**self).potential(r)
    }
}

/// Every spatial torque is a [`TorqueField`] of the rotational catalogue (and, through
/// [`crate::system::EveryBody`], a force model of the many-body layer): the body-frame torque
/// `τ = R(q)ᵀ t(t, R(q))` with `R(q)` the rotation of the (possibly unnormalised) rotor `q`.
/// The field does not depend on `ω`.
impl<S: SpatialTorque> TorqueField for S {
    #[inline]
    fn body_torque(&mut self, t: f64, q: &Quaternion<f64>, _omega: &Vector3<f64>) -> Vector3<f64> {
        let r = rotation_matrix(q) / q.norm_squared();
        r.tr_mul(&self.spatial_torque(t, &r))
    }
}

/// No torque: free rigid-body motion (Krysl §5.1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TorqueFree;

impl SpatialTorque for TorqueFree {
    fn spatial_torque<T: Real>(&self, _t: T, _r: &Matrix3<T>) -> Vector3<T> {
        Vector3::zeros()
    }
    fn potential<T: Real>(&self, _r: &Matrix3<T>) -> Option<T> {
        Some(T::zero())
    }
}

/// A uniform-gravity torque on a body whose centre of mass lies on its third body axis:
/// `t = −w R(:,3) × e₃`, the torque of the potential `V = w R₃₃` (`w = m g ℓ`) — Krysl §5.2–5.3
/// (Lagrangian top, `w = 20`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeavyTopTorque {
    /// The weight moment `w = m g ℓ`.
    pub weight: f64,
}

impl HeavyTopTorque {
    /// Krysl's Lagrangian top: `w = 20`.
    pub fn krysl() -> Self {
        Self { weight: 20.0 }
    }
}

impl SpatialTorque for HeavyTopTorque {
    fn spatial_torque<T: Real>(&self, _t: T, r: &Matrix3<T>) -> Vector3<T> {
        let axis: Vector3<T> = r.column(2).into_owned();
        -axis.cross(&Vector3::z()) * real::<T>(self.weight)
    }
    fn potential<T: Real>(&self, r: &Matrix3<T>) -> Option<T> {
        Some(r[(2, 2)] * real::<T>(self.weight))
    }
}

/// Krysl §5.4 (after Holder et al.): a pinned body in a Coulombic potential with a steep
/// `(1.1 + u)⁻¹¹` term, both functions of `u = R₃₃ = e₃ · R e₃`, with the spatial torque as the
/// paper prints it:
///
/// ```text
/// t = (−(1.1 + u)⁻² + 0.01 (1.1 + u)⁻¹¹) (−R₂₃, R₁₃, 0),
/// ```
///
/// the torque (`t = −R e₃ × ∂V/∂(R e₃)`, the convention of the heavy top's `−w R(:,3) × e₃`) of
/// the potential `V(R) = 1/(1.1 + u) − 0.001 (1.1 + u)⁻¹⁰`.
///
/// From `R₀ = I`, `π₀ = (2, 2, 2)` the body stays in `u ≳ −0.40` with `|ω| ≤ 1.35` (DOP853),
/// so `Δt = 0.5` turns it by up to 39° per step (the paper: "well over 30°"). We also tried
/// the opposite sign (an attractive Coulomb term and a repulsive wall, which the paper's words
/// suggest): the body then reaches the `(1.1 + u)⁻¹¹` wall at `u ≈ −0.66`, whose stiffness
/// (`V'' ≈ 2000`) no method resolves at `Δt = 0.5` — every method's Hamiltonian error becomes
/// O(1), unlike the paper's Figs. 4–5 — whereas with the printed sign the figures' findings are
/// reproduced (`docs/krysl.md`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CoulombWallTorque;

impl CoulombWallTorque {
    /// `V'(u) = −(1.1 + u)⁻² + 0.01 (1.1 + u)⁻¹¹` at `u = R₃₃`.
    fn slope<T: Real>(u: T) -> T {
        let x = u + real::<T>(1.1);
        let x2 = x * x;
        let x11 = x2 * x2 * x2 * x2 * x2 * x;
        real::<T>(0.01) / x11 - T::one() / x2
    }
}

impl SpatialTorque for CoulombWallTorque {
    fn spatial_torque<T: Real>(&self, _t: T, r: &Matrix3<T>) -> Vector3<T> {
        Vector3::new(-r[(1, 2)], r[(0, 2)], T::zero()) * Self::slope(r[(2, 2)])
    }
    fn potential<T: Real>(&self, r: &Matrix3<T>) -> Option<T> {
        let x = r[(2, 2)] + real::<T>(1.1);
        let x5 = x * x * x * x * x;
        Some(T::one() / x - real::<T>(0.001) / (x5 * x5))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lie::LieGroup;
    use crate::lie::so3::{So3, So3Algebra};
    use num_dual::Dual64;

    /// The torque of a potential is `t = −Σ_k e_k ∂V(exp(ε ê_k) R)/∂ε`: checked with dual
    /// numbers at a generic attitude.
    fn assert_torque_of_potential<F: SpatialTorque>(field: &F) {
        let r = So3::exp(&So3Algebra::new(Vector3::new(0.4, -1.1, 0.7)));
        let t = field.spatial_torque(0.0, r.matrix());
        for k in 0..3 {
            let mut e = Vector3::<Dual64>::zeros();
            e[k] = Dual64::new(0.0, 1.0);
            let rotated = So3::exp(&So3Algebra::new(e)).matrix() * r.matrix().map(Dual64::from);
            let v = field.potential(&rotated).unwrap();
            assert!(
                (t[k] + v.eps).abs() < 1e-12 * (1.0 + t.norm()),
                "{k}: {t} vs {}",
                -v.eps
            );
            assert!(v.re.is_finite());
        }
    }

    #[test]
    fn the_torques_derive_from_their_potentials() {
        assert_torque_of_potential(&TorqueFree);
        assert_torque_of_potential(&HeavyTopTorque::krysl());
        assert_torque_of_potential(&CoulombWallTorque);
    }

    #[test]
    fn the_heavy_top_torque_is_krysls_formula() {
        let r = So3::exp(&So3Algebra::new(Vector3::new(0.3, 0.0, 0.0)));
        let t: Vector3<f64> = HeavyTopTorque::krysl().spatial_torque(0.0, r.matrix());
        let expected = -20.0 * r.matrix().column(2).cross(&Vector3::z());
        assert!((t - expected).norm() < 1e-15);
    }

    #[test]
    fn the_coulomb_torque_is_krysls_printed_formula() {
        let r = So3::exp(&So3Algebra::new(Vector3::new(0.9, -0.4, 0.3)));
        let m = r.matrix();
        let x: f64 = 1.1 + m[(2, 2)];
        let printed = (-x.powi(-2) + 0.01 * x.powi(-11)) * Vector3::new(-m[(1, 2)], m[(0, 2)], 0.0);
        let t: Vector3<f64> = CoulombWallTorque.spatial_torque(0.0, m);
        assert!((t - printed).norm() < 1e-14 * printed.norm());
        // The slope vanishes where (1.1 + u)⁹ = 0.01.
        let u = 0.01_f64.powf(1.0 / 9.0) - 1.1;
        assert!(CoulombWallTorque::slope(u).abs() < 1e-12);
    }
}
