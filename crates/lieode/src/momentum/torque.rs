//! The spatial (lab-frame) torques `t(R)` of Krysl's examples, as [`Torque`]s.
//!
//! Krysl's examples give the torque in the spatial frame as a function of the attitude matrix
//! `R` (body → lab); the body-frame torque is `T = Rᵀ t`. The fields are [`Torque`]s in every
//! scalar (`impl<T: Real> Torque<T>`), so that the implicit methods can differentiate them with
//! dual numbers (`num-dual`), and they give their potentials for the Hamiltonian. Free motion
//! (§5.1) is [`crate::body::NoTorque`].

use nalgebra::{Matrix3, Vector3};

use crate::body::{Frame, Orientation, Torque};
use crate::lie::{Real, real};

/// `Rᵀ t(R)` with `R` the attitude's matrix, computed once (for a rotor, `R(q)/|q|²`): the body
/// torque of a spatial field as Krysl's body-momentum forms and AKW take it. The fields of this
/// module and [`crate::problems::krysl::KryslTorque`] override [`Torque::body_torque`] with it,
/// so a field gives the same body torque at a rotor `q` as at the matrix `R(q)/|q|²` (the
/// default, the rotor's `q̄ t q / |q|²`, differs from `Rᵀ t` by rounding).
#[inline(always)]
pub(crate) fn body_torque_of_spatial<T: Real, A: Orientation<T>>(
    attitude: &A,
    spatial: impl FnOnce(&Matrix3<T>) -> Vector3<T>,
) -> Vector3<T> {
    let r = attitude.matrix();
    r.tr_mul(&spatial(&r))
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

    /// `t = −w R(:,3) × e₃`.
    fn spatial<T: Real>(&self, r: &Matrix3<T>) -> Vector3<T> {
        let axis: Vector3<T> = r.column(2).into_owned();
        -axis.cross(&Vector3::z()) * real::<T>(self.weight)
    }
}

/// Lab frame, independent of `t` and `ω`; the body torque is `Rᵀ t`
/// ([`Torque::body_torque`] computes `R` once, also at a rotor).
///
/// # Examples
/// ```
/// use lieode::body::Torque;
/// use lieode::momentum::HeavyTopTorque;
/// use nalgebra::{Matrix3, Vector3};
/// // Upright top: the axis along e3 feels no gravity torque.
/// let t = HeavyTopTorque::krysl().torque(0.0, &Matrix3::identity(), &Vector3::zeros());
/// assert_eq!(t, Vector3::zeros());
/// ```
impl<T: Real> Torque<T> for HeavyTopTorque {
    #[inline(always)]
    fn frame(&self) -> Frame {
        Frame::Lab
    }
    fn torque<A: Orientation<T>>(&self, _t: T, attitude: &A, _omega: &Vector3<T>) -> Vector3<T> {
        self.spatial(&attitude.matrix())
    }
    /// `V = w R₃₃`.
    fn potential<A: Orientation<T>>(&self, attitude: &A) -> Option<T> {
        Some(attitude.matrix()[(2, 2)] * real::<T>(self.weight))
    }
    #[inline]
    fn body_torque<A: Orientation<T>>(
        &self,
        _t: T,
        attitude: &A,
        _omega: &Vector3<T>,
    ) -> Vector3<T> {
        body_torque_of_spatial(attitude, |r| self.spatial(r))
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

    /// `t = V'(R₃₃) (−R₂₃, R₁₃, 0)`.
    fn spatial<T: Real>(r: &Matrix3<T>) -> Vector3<T> {
        Vector3::new(-r[(1, 2)], r[(0, 2)], T::zero()) * Self::slope(r[(2, 2)])
    }
}

/// Lab frame, independent of `t` and `ω`; the body torque is `Rᵀ t`
/// ([`Torque::body_torque`] computes `R` once, also at a rotor).
impl<T: Real> Torque<T> for CoulombWallTorque {
    #[inline(always)]
    fn frame(&self) -> Frame {
        Frame::Lab
    }
    fn torque<A: Orientation<T>>(&self, _t: T, attitude: &A, _omega: &Vector3<T>) -> Vector3<T> {
        Self::spatial(&attitude.matrix())
    }
    /// `V = 1/(1.1 + u) − 0.001 (1.1 + u)⁻¹⁰` at `u = R₃₃`.
    fn potential<A: Orientation<T>>(&self, attitude: &A) -> Option<T> {
        let x = attitude.matrix()[(2, 2)] + real::<T>(1.1);
        let x5 = x * x * x * x * x;
        Some(T::one() / x - real::<T>(0.001) / (x5 * x5))
    }
    #[inline]
    fn body_torque<A: Orientation<T>>(
        &self,
        _t: T,
        attitude: &A,
        _omega: &Vector3<T>,
    ) -> Vector3<T> {
        body_torque_of_spatial(attitude, Self::spatial)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::NoTorque;
    use crate::body::quaternion::{exp_pure, rotation_matrix};
    use crate::lie::LieGroup;
    use crate::lie::so3::{So3, So3Algebra};
    use nalgebra::Quaternion;
    use num_dual::Dual64;

    /// The torque of a potential is `t = −Σ_k e_k ∂V(exp(ε ê_k) R)/∂ε`: checked with dual
    /// numbers at a generic attitude.
    fn assert_torque_of_potential<F: Torque<f64> + Torque<Dual64>>(field: &F) {
        let r = So3::exp(&So3Algebra::new(Vector3::new(0.4, -1.1, 0.7)));
        let t = field.lab_torque(0.0, r.matrix(), &Vector3::zeros());
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
        assert_torque_of_potential(&NoTorque);
        assert_torque_of_potential(&HeavyTopTorque::krysl());
        assert_torque_of_potential(&CoulombWallTorque);
    }

    /// Over dual numbers a field is its `f64` value (bit for bit) with the derivative along
    /// the attitude's curve `exp(s ê) R` as its dual part (against a central difference).
    fn assert_differentiates<F: Torque<f64> + Torque<Dual64>>(field: &F) {
        let r = So3::exp(&So3Algebra::new(Vector3::new(0.4, -1.1, 0.7)));
        let direction = Vector3::new(0.3, 0.5, -0.8);
        let seed = direction.map(|d| Dual64::new(0.0, d));
        let curve = So3::exp(&So3Algebra::new(seed)).matrix() * r.matrix().map(Dual64::from);
        let w = Vector3::<Dual64>::zeros();
        let dual = field.body_torque(Dual64::from(0.0), &curve, &w);
        let plain = field.body_torque(0.0, r.matrix(), &Vector3::zeros());
        assert_eq!(dual.map(|d| d.re), plain);
        let at = |s: f64| {
            let m = So3::exp(&So3Algebra::new(direction * s)).matrix() * r.matrix();
            field.body_torque(0.0, &m, &Vector3::zeros())
        };
        let h = 1e-6;
        let difference = (at(h) - at(-h)) / (2.0 * h);
        let derivative = dual.map(|d| d.eps);
        assert!(
            (derivative - difference).norm() < 1e-7 * (1.0 + difference.norm()),
            "{derivative} vs {difference}"
        );
    }

    #[test]
    fn the_torques_differentiate_over_dual_numbers() {
        assert_differentiates(&HeavyTopTorque::krysl());
        assert_differentiates(&CoulombWallTorque);
    }

    /// At a rotor (not normalised) a field is `R(q)ᵀ t(R(q))` with `R(q) = rotation_matrix(q) /
    /// |q|²`, bit for bit, in the body frame, and `t(R(q))` in the lab frame.
    fn assert_rotor_is_matrix<F: Torque>(field: &F) {
        let q: Quaternion<f64> = exp_pure(&Vector3::new(0.9, -0.4, 0.3)) * 0.97;
        let w = Vector3::new(0.1, -0.2, 0.3);
        let r = rotation_matrix(&q) / q.norm_squared();
        assert_eq!(
            field.body_torque(1.5, &q, &w),
            r.tr_mul(&field.torque(1.5, &r, &w))
        );
        assert_eq!(field.lab_torque(1.5, &q, &w), field.torque(1.5, &r, &w));
        assert_eq!(field.potential(&q), field.potential(&r));
    }

    #[test]
    fn a_field_at_a_rotor_is_its_value_at_the_rotors_matrix() {
        assert_rotor_is_matrix(&HeavyTopTorque::krysl());
        assert_rotor_is_matrix(&CoulombWallTorque);
        assert_eq!(Torque::<f64>::frame(&CoulombWallTorque), Frame::Lab);
    }

    #[test]
    fn the_heavy_top_torque_is_krysls_formula() {
        let r = So3::exp(&So3Algebra::new(Vector3::new(0.3, 0.0, 0.0)));
        let t: Vector3<f64> = HeavyTopTorque::krysl().torque(0.0, r.matrix(), &Vector3::zeros());
        let expected = -20.0 * r.matrix().column(2).cross(&Vector3::z());
        assert!((t - expected).norm() < 1e-15);
    }

    #[test]
    fn the_coulomb_torque_is_krysls_printed_formula() {
        let r = So3::exp(&So3Algebra::new(Vector3::new(0.9, -0.4, 0.3)));
        let m = r.matrix();
        let x: f64 = 1.1 + m[(2, 2)];
        let printed = (-x.powi(-2) + 0.01 * x.powi(-11)) * Vector3::new(-m[(1, 2)], m[(0, 2)], 0.0);
        let t: Vector3<f64> = CoulombWallTorque.torque(0.0, m, &Vector3::zeros());
        assert!((t - printed).norm() < 1e-14 * printed.norm());
        // The slope vanishes where (1.1 + u)⁹ = 0.01.
        let u = 0.01_f64.powf(1.0 / 9.0) - 1.1;
        assert!(CoulombWallTorque::slope(u).abs() < 1e-12);
    }
}
