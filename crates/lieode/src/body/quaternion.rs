//! Quaternion helpers shared by the rotational steppers (Hamilton product, scalar first, rotor
//! body → lab; `docs/notation.md`).
//!
//! The steppers of the rigid-body literature work on plain (not necessarily unit) quaternions:
//! several of them take an Euler-like step `q + dt·½ q ⊗ ω` and normalise afterwards, and the
//! published benchmark measures errors on the raw components. So they use
//! `nalgebra::Quaternion<f64>` and these helpers rather than the Lie-group type.
//!
//! Every helper is generic in the scalar (the torques of [`super::Torque`] and the catalogue's
//! methods evaluate them on dual numbers, for Jacobians and sensitivities); on `f64` they are
//! the same operations in the same order as the `f64` functions they replace.

use nalgebra::{Matrix3, Quaternion, Vector3};

use crate::lie::{Real, real};

/// The pure quaternion `(0, v)`.
#[inline(always)]
pub fn pure<T: Real>(v: &Vector3<T>) -> Quaternion<T> {
    Quaternion::new(T::zero(), v.x, v.y, v.z)
}

/// `q ⊗ (0, v)`: the body-frame kinematics `q̇ = ½ q ⊗ (0, ω_b)` without the ½.
#[inline(always)]
pub fn times_pure<T: Real>(q: &Quaternion<T>, v: &Vector3<T>) -> Quaternion<T> {
    q * pure(v)
}

/// `q / |q|`; a zero quaternion stays zero, and so does a non-finite one (the caller checks
/// finiteness). A finite quaternion whose squared norm would overflow or lose digits to
/// underflow (a norm outside `1e-150 … 1e150`) is scaled by its largest component first, so it
/// too comes out of unit norm.
#[inline(always)]
pub fn normalize<T: Real>(q: &Quaternion<T>) -> Quaternion<T> {
    let n = q.norm();
    if real::<T>(1e-150) <= n && n < real::<T>(1e150) {
        q / n
    } else {
        normalize_scaled(q)
    }
}

/// [`normalize`] for a quaternion whose norm is outside `1e-150 … 1e150`: `q / max|q_i|`, then
/// normalised (zero and non-finite quaternions are returned as they are).
#[cold]
fn normalize_scaled<T: Real>(q: &Quaternion<T>) -> Quaternion<T> {
    let largest = q.coords.amax();
    if largest > T::zero() && largest.is_finite() {
        let scaled = q / largest;
        scaled / scaled.norm()
    } else {
        *q
    }
}

/// The unit quaternion `exp(v) = (cos|v|, sin|v| v/|v|)` of a 3-vector (rotation by the angle
/// `2|v|` about `v`), with the series `sin|v|/|v| = 1 − |v|²/6 + |v|⁴/120` near zero.
#[inline]
pub fn exp_pure<T: Real>(v: &Vector3<T>) -> Quaternion<T> {
    let x = v.norm_squared();
    let (c, s) = crate::lie::series::cos_sinc(x);
    Quaternion::new(c, s * v.x, s * v.y, s * v.z)
}

/// `q v q̄ / |q|²`: the lab-frame image of the body-frame vector `v` under the rotor `q`.
#[inline]
pub fn rotate<T: Real>(q: &Quaternion<T>, v: &Vector3<T>) -> Vector3<T> {
    let r = q * pure(v) * q.conjugate();
    r.imag() / q.norm_squared()
}

/// `q̄ v q / |q|²`: the body-frame image of the lab-frame vector `v`.
#[inline]
pub fn rotate_inverse<T: Real>(q: &Quaternion<T>, v: &Vector3<T>) -> Vector3<T> {
    let r = q.conjugate() * pure(v) * q;
    r.imag() / q.norm_squared()
}

/// The rotation matrix `R(q)` (body → lab) of a unit quaternion by the homogeneous quadratic
/// formula (diagonal `w² + x² − y² − z²`, …); for a non-unit `q` it is `|q|²` times a rotation.
#[inline]
pub fn rotation_matrix<T: Real>(q: &Quaternion<T>) -> Matrix3<T> {
    let (w, x, y, z) = (q.w, q.i, q.j, q.k);
    let two = real::<T>(2.0);
    Matrix3::new(
        w * w + x * x - y * y - z * z,
        two * (x * y - w * z),
        two * (x * z + w * y),
        two * (x * y + w * z),
        w * w - x * x + y * y - z * z,
        two * (y * z - w * x),
        two * (x * z - w * y),
        two * (y * z + w * x),
        w * w - x * x - y * y + z * z,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_matrix_rotate_and_exp_agree() {
        let v = Vector3::new(0.3f64, -0.2, 0.5);
        let q = exp_pure(&v);
        assert!((q.norm() - 1.0).abs() < 1e-15);
        let u = Vector3::new(1.0, 2.0, -0.5);
        assert!((rotation_matrix(&q) * u - rotate(&q, &u)).norm() < 1e-15);
        assert!((rotate_inverse(&q, &rotate(&q, &u)) - u).norm() < 1e-15);
        // exp(v) turns by 2|v| about v: the axis is fixed.
        assert!((rotate(&q, &v) - v).norm() < 1e-15);
        let angle = 2.0 * v.norm();
        let perp = Vector3::new(0.5, 0.0, -0.3); // ⟂ v
        let turned = rotate(&q, &perp);
        assert!((turned.dot(&perp) / perp.norm_squared() - angle.cos()).abs() < 1e-15);
    }
}
