//! The rigid body: principal moments of inertia, Euler's equations, energy and momentum.

use nalgebra::{Matrix3, Quaternion, SymmetricEigen, Vector3};

use super::quaternion::{rotate, rotate_inverse};
use crate::error::{Error, Result};
use crate::lie::{Lift, Real, cast_scalar, real, to_f64};

/// A rigid body described in its principal-axis (body) frame by the principal moments of
/// inertia `J = diag(I_x, I_y, I_z)`, over the scalar `T` (`f64` by default; dual numbers for
/// the Jacobians of the implicit methods, through [`RigidBody::cast`]).
///
/// Euler's equations for the body angular velocity `ω` under the body-frame torque `τ`
/// (SPIRAL Eq. 8; Hairer, Lubich & Wanner, *Geometric Numerical Integration*, §VII.5):
///
/// ```text
/// ω̇_x = (τ_x + ω_y ω_z (I_y − I_z)) / I_x
/// ω̇_y = (τ_y + ω_z ω_x (I_z − I_x)) / I_y
/// ω̇_z = (τ_z + ω_x ω_y (I_x − I_y)) / I_z
/// ```
///
/// or, for the body momentum `Π = J ω`, `Π̇ = τ − ω × Π`. They are written here once, in the
/// forms the crate's integrators use:
///
/// | form | method | evaluated as |
/// |---|---|---|
/// | `ω` (body frame) | [`RigidBody::angular_acceleration`] | `J⁻¹ τ + κ ⊙ (ω_y ω_z, ω_z ω_x, ω_x ω_y)` |
/// | `ω`, the cross product | [`RigidBody::angular_acceleration_by_cross_product`] | `(τ − ω × Jω) ⊘ J` |
/// | `ω`, by components | [`RigidBody::angular_acceleration_by_components`] | `(τ + (ω_y ω_z (I_y − I_z), …)) ⊘ J` |
/// | `Π` (body frame) | [`RigidBody::momentum_rate`] | `τ − (J⁻¹Π) × Π` |
/// | `π = RΠ` (lab frame) | `π̇ = t` and [`RigidBody::angular_velocity_from_spatial`] | `ω = J⁻¹ (Rᵀ π)` |
///
/// with the gyroscopic coefficients `κ = ((I_y − I_z)/I_x, (I_z − I_x)/I_y, (I_x − I_y)/I_z)`
/// computed once ([`RigidBody::gyroscopic_coefficients`]). The three `ω` forms are the same
/// equations evaluated in three orders of floating-point operations; they agree to a few units
/// of rounding, not bit for bit, and each is kept for the published results computed with it
/// (see each method).
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
pub struct RigidBody<T = f64> {
    inertia: Vector3<T>,
    inverse: Vector3<T>,
    gyroscopic: Vector3<T>,
}

/// Construction and validation, in `f64` (a body over another scalar is made with
/// [`RigidBody::cast`]), and the conversions through a raw rotor `q`.
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
        // Euler's equations divide by the moments and `new`'s slack sums them.
        if !(inertia.iter().all(|i| (1.0 / i).is_finite()) && (a + b + c).is_finite()) {
            return Err(bad(
                "moments whose reciprocals and sum are finite (between about 5.6e-309 and 6e307)",
            ));
        }
        Ok(Self::from_checked_moments(inertia))
    }

    /// The body of moments that passed the checks of [`RigidBody::with_moments`] (or are
    /// constants known to pass them): stores `J`, `J⁻¹` and `κ`.
    pub(crate) fn from_checked_moments(inertia: [f64; 3]) -> Self {
        let [a, b, c] = inertia;
        let inertia = Vector3::from(inertia);
        Self {
            inertia,
            inverse: inertia.map(|i| 1.0 / i),
            gyroscopic: Vector3::new((b - c) / a, (c - a) / b, (a - b) / c),
        }
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
}

impl<T: Real> RigidBody<T> {
    /// The body with principal moments `inertia` over the scalar `T` — dual numbers whose
    /// derivative parts make the moments parameters of a sensitivity run
    /// ([`crate::sensitivity`]). The real parts are checked as [`RigidBody::new`] checks its
    /// moments; `J⁻¹` and `κ` are computed over `T` in the operations of `RigidBody::new`. (Their
    /// real parts are those of the `f64` body to rounding, not always bit for bit: `num-dual`
    /// divides by a dual number by multiplying with its reciprocal.)
    ///
    /// # Errors
    /// Those of [`RigidBody::new`] for the real parts.
    ///
    /// # Examples
    /// ```
    /// use lieode::rotation::RigidBody;
    /// use lieode::sensitivity::{Dual, Seeds};
    /// use nalgebra::Vector3;
    ///
    /// let mut seeds = Seeds::<3>::new();
    /// let moments = seeds.vector("inertia", &Vector3::new(1.0, 2.0, 2.5))?;
    /// let body = RigidBody::from_scalar_moments(moments)?;
    /// // κ_x = (I_y − I_z)/I_x: ∂κ_x/∂I_y = 1/I_x.
    /// let kappa = body.gyroscopic_coefficients().x;
    /// assert_eq!(kappa.re, RigidBody::new([1.0, 2.0, 2.5])?.gyroscopic_coefficients().x);
    /// assert_eq!(lieode::sensitivity::vector_jacobian(&Vector3::new(kappa, kappa, kappa))[(0, 1)], 1.0);
    /// # Ok::<(), lieode::Error>(())
    /// ```
    pub fn from_scalar_moments(inertia: Vector3<T>) -> Result<Self> {
        RigidBody::new(inertia.map(to_f64).into())?;
        let (a, b, c) = (inertia.x, inertia.y, inertia.z);
        Ok(Self {
            inertia,
            inverse: inertia.map(|i| T::one() / i),
            gyroscopic: Vector3::new((b - c) / a, (c - a) / b, (a - b) / c),
        })
    }

    /// The same body over the scalar `S`: every stored coefficient (`J`, `J⁻¹`, `κ`) converted
    /// as it is, not recomputed (for `f64 → S` the values are exact; a dual number keeps only
    /// its real part), so that Euler's equations over `S` round their real parts as in `f64`.
    ///
    /// # Examples
    /// ```
    /// use lieode::rotation::RigidBody;
    /// use nalgebra::Vector3;
    /// use num_dual::Dual64;
    ///
    /// let body = RigidBody::new([1.0, 2.0, 2.5])?;
    /// let dual = body.cast::<Dual64>();
    /// // d ω̇_x / d ω_y = κ_x ω_z.
    /// let w = Vector3::new(Dual64::from(0.3), Dual64::new(-0.9, 1.0), Dual64::from(0.6));
    /// let dw = dual.angular_acceleration(&w, &Vector3::zeros());
    /// assert!((dw.x.eps - body.gyroscopic_coefficients().x * 0.6).abs() < 1e-15);
    /// # Ok::<(), lieode::Error>(())
    /// ```
    #[inline]
    pub fn cast<S: Real>(&self) -> RigidBody<S> {
        RigidBody {
            inertia: self.inertia.map(cast_scalar),
            inverse: self.inverse.map(cast_scalar),
            gyroscopic: self.gyroscopic.map(cast_scalar),
        }
    }

    /// The same body over the scalar `U` a problem is evaluated over ([`Lift`]): from `f64` the
    /// values of [`RigidBody::cast`]; a dual body keeps its derivative parts over its own dual
    /// type and gives its real parts over `Dual64` (a Newton iteration matrix).
    #[inline]
    pub fn lifted<U: Real>(&self) -> RigidBody<U>
    where
        T: Lift<U>,
    {
        RigidBody {
            inertia: self.inertia.map(Lift::lift),
            inverse: self.inverse.map(Lift::lift),
            gyroscopic: self.gyroscopic.map(Lift::lift),
        }
    }

    /// The principal moments `(I_x, I_y, I_z)`.
    #[inline]
    pub fn inertia(&self) -> Vector3<T> {
        self.inertia
    }

    /// Their reciprocals `(1/I_x, 1/I_y, 1/I_z)`.
    #[inline]
    pub fn inverse_inertia(&self) -> Vector3<T> {
        self.inverse
    }

    /// The gyroscopic coefficients `κ = ((I_y − I_z)/I_x, (I_z − I_x)/I_y, (I_x − I_y)/I_z)`
    /// of Euler's equations `ω̇ = J⁻¹ τ + κ ⊙ (ω_y ω_z, ω_z ω_x, ω_x ω_y)`.
    #[inline]
    pub fn gyroscopic_coefficients(&self) -> Vector3<T> {
        self.gyroscopic
    }

    /// `ω̇(ω, τ)` by Euler's equations (both in the body frame; SPIRAL Eq. 8), as
    /// `J⁻¹ τ + κ ⊙ (ω_y ω_z, ω_z ω_x, ω_x ω_y)`: two multiplications and one addition per
    /// component, with `J⁻¹` and `κ` stored. The form of the rotational catalogue, the
    /// many-body methods and the Lie-group engines as rotational steppers.
    #[inline]
    pub fn angular_acceleration(&self, omega: &Vector3<T>, torque: &Vector3<T>) -> Vector3<T> {
        let d = self.inverse.component_mul(torque);
        let g = &self.gyroscopic;
        Vector3::new(
            d.x + g.x * (omega.y * omega.z),
            d.y + g.y * (omega.z * omega.x),
            d.z + g.z * (omega.x * omega.y),
        )
    }

    /// `ω̇(ω, τ)` by Euler's equations written with the cross product,
    /// `ω̇ = (τ − ω × Jω) ⊘ J`: the momentum form [`RigidBody::momentum_rate`] at `Π = Jω`,
    /// divided by the moments (Krysl 2007, Eq. 10; Hairer, Lubich & Wanner §VII.5).
    ///
    /// The same equations as [`RigidBody::angular_acceleration`] in another order of
    /// operations (they agree to a few units of rounding). Kept for
    /// [`crate::problems::TorquedRigidBody`], whose published convergence and work-precision
    /// data (`convergence_demo`, `work_precision_demo`) were computed in this order: the
    /// `J⁻¹τ + κ ⊙ …` order changes them in the last digits.
    #[inline]
    pub fn angular_acceleration_by_cross_product(
        &self,
        omega: &Vector3<T>,
        torque: &Vector3<T>,
    ) -> Vector3<T> {
        gyroscopic_balance(omega, &self.body_momentum(omega), torque).component_div(&self.inertia)
    }

    /// `ω̇(ω, τ)` by Euler's equations component by component as SPIRAL Eq. 8 prints them,
    /// `ω̇_x = (τ_x + ω_y ω_z (I_y − I_z)) / I_x` and cyclically.
    ///
    /// The same equations as [`RigidBody::angular_acceleration`] in another order of
    /// operations (they agree to a few units of rounding). Kept for
    /// [`crate::problems::SpiralCylinder`]'s generator on `SU(2) × ℝ³`, whose published lifted
    /// DOP853 results (`spiral_paper/dop853_lifted.csv`) were computed in this order: the
    /// `J⁻¹τ + κ ⊙ …` order changes them in the last digits.
    #[inline]
    pub fn angular_acceleration_by_components(
        &self,
        omega: &Vector3<T>,
        torque: &Vector3<T>,
    ) -> Vector3<T> {
        let i = &self.inertia;
        Vector3::new(
            (torque.x + omega.y * omega.z * (i.y - i.z)) / i.x,
            (torque.y + omega.z * omega.x * (i.z - i.x)) / i.y,
            (torque.z + omega.x * omega.y * (i.x - i.y)) / i.z,
        )
    }

    /// Euler's equations in momentum form (body frame): the rate `Π̇ = τ − ω × Π` of the body
    /// momentum `Π = Jω` under the body torque `τ`, with `ω = J⁻¹Π`
    /// ([`RigidBody::body_angular_velocity`]; Krysl 2007, Eq. 10 and §3). For a lab torque `t`
    /// and the attitude `R` (body → lab), `τ = Rᵀ t`.
    #[inline]
    pub fn momentum_rate(&self, momentum: &Vector3<T>, torque: &Vector3<T>) -> Vector3<T> {
        gyroscopic_balance(&self.body_angular_velocity(momentum), momentum, torque)
    }

    /// The body angular momentum `Π = J ω`.
    #[inline]
    pub fn body_momentum(&self, omega: &Vector3<T>) -> Vector3<T> {
        self.inertia.component_mul(omega)
    }

    /// The body angular velocity `ω = J⁻¹ Π` of a body momentum.
    #[inline]
    pub fn body_angular_velocity(&self, momentum: &Vector3<T>) -> Vector3<T> {
        momentum.component_mul(&self.inverse)
    }

    /// Euler's equations in the lab frame: the spatial momentum `π = RΠ` of the attitude `R`
    /// (body → lab) moves with the lab torque alone, `π̇ = t`, and the body turns with
    /// `ω = J⁻¹ (Rᵀ π)` (Krysl 2007, §3, the integral form). This is that `ω`.
    #[inline]
    pub fn angular_velocity_from_spatial(
        &self,
        attitude: &Matrix3<T>,
        momentum: &Vector3<T>,
    ) -> Vector3<T> {
        self.body_angular_velocity(&attitude.tr_mul(momentum))
    }

    /// The kinetic energy `½ ωᵀ J ω` of the body angular velocity `ω`.
    #[inline]
    pub fn kinetic_energy(&self, omega: &Vector3<T>) -> T {
        real::<T>(0.5) * omega.dot(&self.body_momentum(omega))
    }

    /// The kinetic energy `½ Πᵀ J⁻¹ Π` of the body momentum `Π` (the same energy as
    /// [`RigidBody::kinetic_energy`] of `ω = J⁻¹Π`, evaluated from `Π`).
    #[inline]
    pub fn kinetic_energy_of_momentum(&self, momentum: &Vector3<T>) -> T {
        real::<T>(0.5) * momentum.dot(&self.body_angular_velocity(momentum))
    }
}

/// The lab-frame angular velocity `ω_lab = q ω_body q̄ / |q|²` of the rotor `q` (body → lab).
pub fn lab_angular_velocity(q: &Quaternion<f64>, omega_body: &Vector3<f64>) -> Vector3<f64> {
    rotate(q, omega_body)
}

/// The body-frame angular velocity `ω_body = q̄ ω_lab q / |q|²` of the rotor `q` (body → lab);
/// the inverse of [`lab_angular_velocity`]. (Not [`RigidBody::body_angular_velocity`], the
/// body angular velocity `J⁻¹Π` of a body momentum.)
pub fn body_frame_angular_velocity(q: &Quaternion<f64>, omega_lab: &Vector3<f64>) -> Vector3<f64> {
    rotate_inverse(q, omega_lab)
}

/// `τ − ω × Π`: the right-hand side `Π̇ = J ω̇` of Euler's equations, given `ω` and `Π = Jω`.
#[inline]
fn gyroscopic_balance<T: Real>(
    omega: &Vector3<T>,
    momentum: &Vector3<T>,
    torque: &Vector3<T>,
) -> Vector3<T> {
    torque - omega.cross(momentum)
}
