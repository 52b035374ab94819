//! The rigid body: principal moments of inertia, Euler's equations, energy and momentum.

use nalgebra::{Matrix3, Quaternion, SymmetricEigen, Vector3};

use super::quaternion::{rotate, rotate_inverse};
use crate::error::{Error, Result};

/// A rigid body described in its principal-axis (body) frame by the principal moments of
/// inertia `J = diag(I_x, I_y, I_z)`.
///
/// Euler's equations for the body angular velocity `ω` under the body-frame torque `τ`
/// (SPIRAL Eq. 8):
///
/// ```text
/// ω̇_x = (τ_x + ω_y ω_z (I_y − I_z)) / I_x
/// ω̇_y = (τ_y + ω_z ω_x (I_z − I_x)) / I_y
/// ω̇_z = (τ_z + ω_x ω_y (I_x − I_y)) / I_z
/// ```
///
/// evaluated as `ω̇ = J⁻¹ τ + κ ⊙ (ω_y ω_z, ω_z ω_x, ω_x ω_y)` with the gyroscopic coefficients
/// `κ = ((I_y − I_z)/I_x, (I_z − I_x)/I_y, (I_x − I_y)/I_z)` computed once
/// ([`RigidBody::gyroscopic_coefficients`]).
///
/// # Examples
/// ```
/// use lieode::rotation::RigidBody;
/// use nalgebra::Vector3;
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let w = Vector3::new(0.3, -0.9, 0.6);
/// // Torque-free motion conserves the kinetic energy: ω · J ω̇ = 0.
/// let dw = body.angular_acceleration(&w, &Vector3::zeros());
/// assert!(w.dot(&body.body_momentum(&dw)).abs() < 1e-15);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RigidBody {
    inertia: Vector3<f64>,
    inverse: Vector3<f64>,
    gyroscopic: Vector3<f64>,
}

impl RigidBody {
    /// The body with principal moments `[I_x, I_y, I_z]`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `inertia` unless every moment is finite and positive,
    /// with a finite reciprocal (not subnormal) and a finite sum, and they satisfy the triangle
    /// inequalities `I_a ≤ I_b + I_c` of a physical body.
    pub fn new(inertia: [f64; 3]) -> Result<Self> {
        let body = Self::with_moments(inertia)?;
        let [a, b, c] = inertia;
        // A relative slack of a few ulps lets bodies on the boundary (flat plates) through.
        let slack = 4.0 * f64::EPSILON * (a + b + c);
        if a > b + c + slack || b > c + a + slack || c > a + b + slack {
            return Err(Error::InvalidParameter {
                name: "inertia",
                value: format!("{inertia:?}"),
                expected: "moments satisfying the triangle inequalities I_a ≤ I_b + I_c".into(),
            });
        }
        Ok(body)
    }

    /// Euler's equations with the moments `[I_x, I_y, I_z]` whether or not a body can have
    /// them: the checks of [`RigidBody::new`] but the triangle inequalities. For test problems
    /// of the literature that break them — Seelen et al.'s (2016) symmetric top,
    /// `(1100, 1100, 2600)` kg m², has `I_z > I_x + I_y`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `inertia` unless every moment is finite and positive,
    /// with a finite reciprocal and a finite sum.
    pub fn with_moments(inertia: [f64; 3]) -> Result<Self> {
        let bad = |expected: &str| Error::InvalidParameter {
            name: "inertia",
            value: format!("{inertia:?}"),
            expected: expected.into(),
        };
        if !inertia.iter().all(|i| i.is_finite() && *i > 0.0) {
            return Err(bad("finite positive principal moments"));
        }
        let [a, b, c] = inertia;
        // Euler's equations divide by the moments and the slack below sums them.
        if !(inertia.iter().all(|i| (1.0 / i).is_finite()) && (a + b + c).is_finite()) {
            return Err(bad(
                "moments whose reciprocals and sum are finite (between about 5.6e-309 and 6e307)",
            ));
        }
        let inertia = Vector3::from(inertia);
        Ok(Self {
            inertia,
            inverse: inertia.map(|i| 1.0 / i),
            gyroscopic: Vector3::new((b - c) / a, (c - a) / b, (a - b) / c),
        })
    }

    /// The body of a general symmetric inertia tensor (in some body-fixed frame), diagonalised
    /// at construction: returns the body in its principal frame and the rotation `P` (as a unit
    /// quaternion, scalar first) from principal to the given frame, `v_given = P v_principal P⁻¹`,
    /// with the principal moments in ascending order.
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `tensor` if it is not finite; [`Error::InvalidParameter`]
    /// naming `tensor` if it is not symmetric (to 1e-12 relative); those of [`RigidBody::new`]
    /// for its eigenvalues.
    pub fn from_tensor(tensor: &Matrix3<f64>) -> Result<(Self, Quaternion<f64>)> {
        if !tensor.iter().all(|x| x.is_finite()) {
            return Err(Error::NonFinite { name: "tensor" });
        }
        // Compared after division by the largest entry, so that the norms cannot overflow.
        let largest = tensor.amax();
        let unit = if largest > 0.0 {
            tensor / largest
        } else {
            *tensor
        };
        if (unit - unit.transpose()).norm() > 1e-12 * unit.norm() {
            return Err(Error::InvalidParameter {
                name: "tensor",
                value: format!("{tensor:?}"),
                expected: "a symmetric matrix".into(),
            });
        }
        let eigen = SymmetricEigen::new(0.5 * (tensor + tensor.transpose()));
        let mut order = [0usize, 1, 2];
        order.sort_by(|&i, &j| eigen.eigenvalues[i].total_cmp(&eigen.eigenvalues[j]));
        let mut axes = Matrix3::from_columns(&[
            eigen.eigenvectors.column(order[0]).into_owned(),
            eigen.eigenvectors.column(order[1]).into_owned(),
            eigen.eigenvectors.column(order[2]).into_owned(),
        ]);
        if axes.determinant() < 0.0 {
            let flipped = -axes.column(2);
            axes.set_column(2, &flipped);
        }
        let body = Self::new(order.map(|i| eigen.eigenvalues[i]))?;
        let rotation = nalgebra::Rotation3::from_matrix_unchecked(axes);
        let q = nalgebra::UnitQuaternion::from_rotation_matrix(&rotation).into_inner();
        Ok((body, q))
    }

    /// The principal moments `(I_x, I_y, I_z)`.
    pub fn inertia(&self) -> Vector3<f64> {
        self.inertia
    }

    /// Their reciprocals `(1/I_x, 1/I_y, 1/I_z)`.
    pub fn inverse_inertia(&self) -> Vector3<f64> {
        self.inverse
    }

    /// The gyroscopic coefficients `κ = ((I_y − I_z)/I_x, (I_z − I_x)/I_y, (I_x − I_y)/I_z)`
    /// of Euler's equations `ω̇ = J⁻¹ τ + κ ⊙ (ω_y ω_z, ω_z ω_x, ω_x ω_y)`.
    pub fn gyroscopic_coefficients(&self) -> Vector3<f64> {
        self.gyroscopic
    }

    /// `ω̇(ω, τ)` by Euler's equations (both in the body frame; SPIRAL Eq. 8), as
    /// `J⁻¹ τ + κ ⊙ (ω_y ω_z, ω_z ω_x, ω_x ω_y)`.
    #[inline]
    pub fn angular_acceleration(
        &self,
        omega: &Vector3<f64>,
        torque: &Vector3<f64>,
    ) -> Vector3<f64> {
        gyroscopic_update(&self.inverse.component_mul(torque), &self.gyroscopic, omega)
    }

    /// The body angular momentum `Π = J ω`.
    #[inline]
    pub fn body_momentum(&self, omega: &Vector3<f64>) -> Vector3<f64> {
        self.inertia.component_mul(omega)
    }

    /// The body angular velocity `ω = J⁻¹ Π` of a body momentum.
    #[inline]
    pub fn body_angular_velocity(&self, momentum: &Vector3<f64>) -> Vector3<f64> {
        self.inverse.component_mul(momentum)
    }

    /// The spatial (lab-frame) angular momentum `L = q (J ω) q⁻¹` of the rotor `q` (body → lab;
    /// `q` need not be normalised: it is used as `q v q̄ / |q|²`).
    pub fn spatial_momentum(&self, q: &Quaternion<f64>, omega: &Vector3<f64>) -> Vector3<f64> {
        rotate(q, &self.body_momentum(omega))
    }

    /// The body angular velocity of a spatial angular momentum `L`: `ω = J⁻¹ (q̄ L q)/|q|²`.
    pub fn angular_velocity_from_spatial_momentum(
        &self,
        q: &Quaternion<f64>,
        momentum: &Vector3<f64>,
    ) -> Vector3<f64> {
        self.body_angular_velocity(&rotate_inverse(q, momentum))
    }

    /// The kinetic energy `½ ωᵀ J ω`.
    pub fn kinetic_energy(&self, omega: &Vector3<f64>) -> f64 {
        0.5 * omega.dot(&self.body_momentum(omega))
    }
}

/// The lab-frame angular velocity `ω_lab = q ω_body q̄ / |q|²` of the rotor `q` (body → lab).
pub fn lab_angular_velocity(q: &Quaternion<f64>, omega_body: &Vector3<f64>) -> Vector3<f64> {
    rotate(q, omega_body)
}

/// The body-frame angular velocity `ω_body = q̄ ω_lab q / |q|²` of the rotor `q` (body → lab).
pub fn body_angular_velocity(q: &Quaternion<f64>, omega_lab: &Vector3<f64>) -> Vector3<f64> {
    rotate_inverse(q, omega_lab)
}

/// `d + g ⊙ (ω_y ω_z, ω_z ω_x, ω_x ω_y)`: Euler's equations with the torque term `d = J⁻¹ τ` and
/// the gyroscopic coefficients `g = κ`.
#[inline]
fn gyroscopic_update(d: &Vector3<f64>, g: &Vector3<f64>, omega: &Vector3<f64>) -> Vector3<f64> {
    Vector3::new(
        d.x + g.x * (omega.y * omega.z),
        d.y + g.y * (omega.z * omega.x),
        d.z + g.z * (omega.x * omega.y),
    )
}
