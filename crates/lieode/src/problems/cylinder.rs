//! # The SPIRAL benchmark: a steel cylinder spun up by a constant axial torque
//!
//! The test problem of del Valle et al. (SPIRAL, §3): a solid steel cylinder whose symmetry
//! axis is the body `x` axis, driven by a constant body-frame torque `τ = (M_x, 0, 0)`.
//!
//! ## The body
//!
//! Density `ρ = 7750 kg/m³`, radius `R = 0.05 m`, height `H = 0.15 m`, mass `M = ρπR²H`, and the
//! principal moments of a solid cylinder, used **unrounded**:
//!
//! ```text
//! I_x = M R²/2,        I_y = I_z = M H²/12 + M R²/4.
//! ```
//!
//! (The paper prints the rounded values 0.0114 and 0.0228 kg m²; its published data were made
//! with the unrounded ones. For these dimensions `H² = 9R²`, so `I_y = M R² = 2 I_x` up to
//! rounding.)
//!
//! ## The analytic angular velocity
//!
//! With `I_y = I_z = I_⊥` and `τ = (M_x, 0, 0)`, Euler's equations (SPIRAL Eq. 8) read
//!
//! ```text
//! I_x ω̇_x = M_x,
//! ω̇_y = −κ ω_x ω_z,    ω̇_z = κ ω_x ω_y,        κ = (I_x − I_⊥)/I_⊥.
//! ```
//!
//! The first gives `ω_x(t) = ω_x⁰ + (M_x/I_x) t`. For the transverse part `w = ω_y + i ω_z` the
//! other two combine into `ẇ = i κ ω_x(t) w`, so `w(t) = w(0) e^{iφ(t)}`: the transverse
//! components rotate rigidly by the phase
//!
//! ```text
//! φ(t) = κ ∫₀ᵗ ω_x = κ (ω_x⁰ t + M_x t²/(2 I_x)),
//! ω_y(t) = ω_y⁰ cos φ − ω_z⁰ sin φ,     ω_z(t) = ω_y⁰ sin φ + ω_z⁰ cos φ,
//! ω̇(t)  = (M_x/I_x, −φ̇ ω_z, φ̇ ω_y),   φ̇ = κ ω_x(t).
//! ```
//!
//! This is SPIRAL Eqs. (11)–(12) (App. C.1) written without the auxiliary time `τ = ω_x²`: for
//! the cylinder (κ < 0) and `M_x > 0` the paper's constants give `ηΩ = 1`, so its solution
//! reads `ω_y + i ω_z = (k₁ + i k₂) e^{−iΩω_x²}`, and
//! `−Ω(ω_x² − (ω_x⁰)²) = κ I_x (ω_x² − (ω_x⁰)²)/(2 M_x) = φ(t)`. Unlike the paper's form, this
//! one has no division by `M_x` or `ω_x` and covers the undriven case `M_x = 0` (App. C.2: `ω_x`
//! constant, transverse rotation at the rate `Γ = |κ ω_x⁰|`) and a sign change of `ω_x` without
//! a special case.
//!
//! ## The reference orientation
//!
//! No closed form is used for `q(t)`. As in the paper, the kinematics `q̇ = ½ q ⊗ (0, ω(t))` are
//! integrated with the analytic `ω(t)` to near machine precision — here by the crate's DOP853
//! ([`integrate`] with DOP853 on ℝ⁴, `rtol = atol = `[`REFERENCE_TOLERANCE`] `= 2e-15`, dense output
//! kept), once at construction (141 steps for the paper's parameters).
//! [`SpiralCylinder::reference_q`] evaluates it anywhere in
//! `[0, (1 + `[`REFERENCE_MARGIN`]`) t_max]` (the margin covers benchmark end times that
//! overshoot `t_max` by the rounding of `T += dt`).
//!
//! It is a *computed* reference. Measured for the paper's parameters on `[0, 1]` (the first and
//! the last check are in `tests/cylinder.rs`, the middle one was made once):
//! `| |q′| − 1 | ≤ 1e-14`; the dense output agrees to `1.1e-14` with separate runs ending
//! exactly at the query time (at `2e-15`, directly and in the frame co-rotating with the
//! transverse `ω`: two formulations that agree with each other to `8e-15`); it agrees to `2e-13`
//! with the ambient ℝ⁷ integration of [`crate::problems::reference::reference_solution`] (at
//! `1e-13`). At `rtol = atol = 1e-14` the dense output's error would be about `5e-14`. Either is
//! far below the smallest error of the benchmark (≈ `5e-9`).
//!
//! ## The benchmark
//!
//! [`benchmark_step_sizes`] is the paper's step-size grid, [`benchmark_errors`] runs a
//! catalogue stepper the way the benchmark does and returns the errors of SPIRAL Eq. (13)
//! ([`relative_l1_error`]); [`dcm_relative_error`] is the matrix variant for steppers that carry
//! a rotation matrix, and [`averaged_error`] the mean used by SPIRAL Table 2.
//!
//! # References
//! - C. A. del Valle, V. Angelidakis, S. Roy, J. D. Muñoz, T. Pöschel, *SPIRAL: An efficient
//!   algorithm for the integration of the equation of rotational motion*, Comput. Phys. Commun.
//!   297 (2024) 109077: §3 (test problem, Eqs. 11–13), App. C (the analytic solution), §4
//!   (the benchmark).

use crate::body::RigidBodyQuatState;
use nalgebra::{Const, Matrix3, Quaternion, SVector, Vector3};

use crate::adaptive::{
    ControllerParameters, DenseSegment, Dop853, Summation, Tolerances, VectorStepper,
};
use crate::body::quaternion::{rotation_matrix, times_pure};
use crate::error::{Error, Result};
use crate::integrate::{Options, Solution, integrate};
use crate::lie::product::{Product, ProductAlgebra};
use crate::lie::rn::Rn;
use crate::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use crate::lie::{LieGroup, Real, Side, real};
use crate::ode::LieOde;
use crate::rotation::{CatalogueStepper, ConstantBodyTorque, RigidBody, RotationalState};
use crate::stepper::Span;

/// `rtol = atol` of the stored reference orientation (DOP853 on ℝ⁴): about ten units of
/// rounding, the tightest setting at which the step-size control still converges without
/// underflow and the error keeps falling (at `1e-15` rounding dominates and nothing is gained).
pub const REFERENCE_TOLERANCE: f64 = 2e-15;

/// The tolerance used instead of [`REFERENCE_TOLERANCE`] if the integration at that one stops
/// with a step-size underflow (not seen for the paper's parameters, even on `[0, 15]`).
pub const FALLBACK_REFERENCE_TOLERANCE: f64 = 1e-14;

/// The stored reference extends past `t_max` by this fraction of `t_max`.
pub const REFERENCE_MARGIN: f64 = 1e-3;

/// The number of step sizes in the benchmark grid.
pub const BENCHMARK_STEP_COUNT: usize = 20;

/// The exponents bounding the grid: `dt = 10^x`, `x ∈ [−7, −1]`.
pub const BENCHMARK_EXPONENTS: (f64, f64) = (-7.0, -1.0);

/// The stored reference: DOP853's solution of `q̇ = ½ q ⊗ (0, ω(t))` on ℝ⁴ with dense output.
pub type QuaternionReference = Solution<SVector<f64, 4>, DenseSegment<Const<4>>>;

/// The configuration of the cylinder problem (SI units). [`Default`] gives the paper's values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CylinderParameters {
    /// Density `ρ` in kg/m³ (default 7750, steel).
    pub density: f64,
    /// Radius `R` in m (default 0.05).
    pub radius: f64,
    /// Height `H` in m, along the body `x` axis (default 0.15).
    pub height: f64,
    /// The axial body torque `M_x` in N m (default 0.5; 0 gives free rotation, SPIRAL App. C.2).
    pub torque_x: f64,
    /// The initial body angular velocity `ω(0)` in rad/s (default `(0.3, −0.9, 0.6)`).
    pub omega0: Vector3<f64>,
    /// The end of the benchmark interval `t_max` in s (default 1).
    pub t_max: f64,
}

impl Default for CylinderParameters {
    fn default() -> Self {
        Self {
            density: SpiralCylinder::DENSITY,
            radius: SpiralCylinder::RADIUS,
            height: SpiralCylinder::HEIGHT,
            torque_x: SpiralCylinder::TORQUE_X,
            omega0: Vector3::new(
                SpiralCylinder::OMEGA0[0],
                SpiralCylinder::OMEGA0[1],
                SpiralCylinder::OMEGA0[2],
            ),
            t_max: SpiralCylinder::T_MAX,
        }
    }
}

/// The analytic angular velocity (copied into the reference integration's right-hand side).
#[derive(Debug, Clone, Copy, PartialEq)]
struct AxialSpin {
    /// `M_x / I_x`.
    axial_rate: f64,
    /// `κ = (I_x − I_⊥)/I_⊥`.
    kappa: f64,
    omega0: Vector3<f64>,
}

impl AxialSpin {
    fn phase<T: Real>(&self, t: T) -> T {
        let a = real::<T>(self.axial_rate);
        real::<T>(self.kappa) * t * (real::<T>(self.omega0.x) + a * t * real::<T>(0.5))
    }

    fn omega<T: Real>(&self, t: T) -> Vector3<T> {
        let (s, c) = self.phase(t).sin_cos();
        let (wy, wz) = (real::<T>(self.omega0.y), real::<T>(self.omega0.z));
        Vector3::new(
            real::<T>(self.omega0.x) + real::<T>(self.axial_rate) * t,
            wy * c - wz * s,
            wy * s + wz * c,
        )
    }

    fn omega_dot<T: Real>(&self, t: T) -> Vector3<T> {
        let w = self.omega(t);
        let rate = real::<T>(self.kappa) * w.x;
        Vector3::new(real::<T>(self.axial_rate), -rate * w.z, rate * w.y)
    }
}

/// The SPIRAL benchmark problem (see the [module docs](self)): a cylinder with its symmetry axis
/// along body `x`, the constant body torque `(M_x, 0, 0)`, the analytic body angular velocity
/// and a stored high-accuracy reference orientation.
///
/// # Examples
/// ```
/// use lieode::problems::cylinder::SpiralCylinder;
/// let cylinder = SpiralCylinder::paper()?;
/// let i = cylinder.body().inertia();
/// assert!((i.x - 0.0114).abs() < 1e-4 && (i.y - 0.0228).abs() < 1e-4);
/// // ω_x grows linearly: ω_x(1) = 0.3 + 0.5/I_x.
/// assert!((cylinder.angular_velocity(1.0).x - (0.3 + 0.5 / i.x)).abs() < 1e-12);
/// // The reference rotor stays on the unit sphere.
/// assert!((cylinder.reference_q(1.0)?.norm() - 1.0).abs() < 1e-13);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SpiralCylinder {
    parameters: CylinderParameters,
    mass: f64,
    body: RigidBody,
    spin: AxialSpin,
    reference: QuaternionReference,
    reference_tolerance: f64,
}

impl SpiralCylinder {
    /// The paper's density, 7750 kg/m³.
    pub const DENSITY: f64 = 7750.0;
    /// The paper's radius, 0.05 m.
    pub const RADIUS: f64 = 0.05;
    /// The paper's height, 0.15 m.
    pub const HEIGHT: f64 = 0.15;
    /// The paper's axial torque, 0.5 N m.
    pub const TORQUE_X: f64 = 0.5;
    /// The paper's initial body angular velocity, `(0.3, −0.9, 0.6)` rad/s.
    pub const OMEGA0: [f64; 3] = [0.3, -0.9, 0.6];
    /// The paper's end time, 1 s.
    pub const T_MAX: f64 = 1.0;

    /// The problem with the paper's parameters ([`CylinderParameters::default`]).
    ///
    /// # Errors
    /// Those of [`SpiralCylinder::new`] (none are expected for these values).
    pub fn paper() -> Result<Self> {
        Self::new(CylinderParameters::default())
    }

    /// The problem with the given parameters; integrates the reference orientation on
    /// `[0, (1 + REFERENCE_MARGIN) t_max]` (a few hundred DOP853 steps for the paper's values).
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `density`, `radius`, `height`, `torque_x`, `omega0` or `t_max`
    /// for a non-finite value; [`Error::InvalidParameter`] naming `density`, `radius`, `height`
    /// or `t_max` unless it is positive; those of the reference integration.
    pub fn new(parameters: CylinderParameters) -> Result<Self> {
        let p = parameters;
        for (name, value) in [
            ("density", p.density),
            ("radius", p.radius),
            ("height", p.height),
            ("torque_x", p.torque_x),
            ("t_max", p.t_max),
        ] {
            if !value.is_finite() {
                return Err(Error::NonFinite { name });
            }
        }
        if !p.omega0.iter().all(|w| w.is_finite()) {
            return Err(Error::NonFinite { name: "omega0" });
        }
        for (name, value, unit) in [
            ("density", p.density, "kg/m³"),
            ("radius", p.radius, "m"),
            ("height", p.height, "m"),
            ("t_max", p.t_max, "s"),
        ] {
            if value <= 0.0 {
                return Err(Error::InvalidParameter {
                    name,
                    value: format!("{value:e}"),
                    expected: format!("a positive value (in {unit})"),
                });
            }
        }
        let (r, h) = (p.radius, p.height);
        let mass = p.density * std::f64::consts::PI * r * r * h;
        let axial = mass * r * r / 2.0;
        let transverse = mass * h * h / 12.0 + mass * r * r / 4.0;
        let body = RigidBody::new([axial, transverse, transverse])?;
        let spin = AxialSpin {
            axial_rate: p.torque_x / axial,
            kappa: (axial - transverse) / transverse,
            omega0: p.omega0,
        };
        if !(spin.axial_rate.is_finite() && spin.kappa.is_finite()) {
            return Err(Error::InvalidParameter {
                name: "density",
                value: format!("{:e} (with R = {r:e}, H = {h:e})", p.density),
                expected: "parameters whose moments of inertia are representable".into(),
            });
        }
        let t_end = p.t_max * (1.0 + REFERENCE_MARGIN);
        let (reference, reference_tolerance) =
            match integrate_reference(&spin, t_end, REFERENCE_TOLERANCE) {
                Ok(solution) => (solution, REFERENCE_TOLERANCE),
                Err(Error::StepSizeTooSmall { .. }) => (
                    integrate_reference(&spin, t_end, FALLBACK_REFERENCE_TOLERANCE)?,
                    FALLBACK_REFERENCE_TOLERANCE,
                ),
                Err(e) => return Err(e),
            };
        Ok(Self {
            parameters,
            mass,
            body,
            spin,
            reference,
            reference_tolerance,
        })
    }

    /// The parameters.
    pub fn parameters(&self) -> &CylinderParameters {
        &self.parameters
    }

    /// The mass `M = ρπR²H`.
    pub fn mass(&self) -> f64 {
        self.mass
    }

    /// The body with the exact moments `(M R²/2, M H²/12 + M R²/4, M H²/12 + M R²/4)`.
    pub fn body(&self) -> &RigidBody {
        &self.body
    }

    /// The body-frame torque `(M_x, 0, 0)` as a torque field for the steppers.
    pub fn torque(&self) -> ConstantBodyTorque {
        ConstantBodyTorque(Vector3::new(self.parameters.torque_x, 0.0, 0.0))
    }

    /// `t_max`.
    pub fn t_max(&self) -> f64 {
        self.parameters.t_max
    }

    /// The end of the interval on which [`SpiralCylinder::reference_q`] is available,
    /// `(1 + REFERENCE_MARGIN) t_max` as integrated.
    pub fn reference_end(&self) -> f64 {
        self.reference
            .last()
            .map_or(self.parameters.t_max, |(t, _)| t)
    }

    /// The initial state `(t = 0, q = (1, 0, 0, 0), ω(0))`.
    pub fn initial_state(&self) -> RotationalState {
        RotationalState::new(0.0, Quaternion::identity(), self.parameters.omega0)
    }

    /// The initial state on `SU(2) × ℝ³`.
    pub fn initial_group_state(&self) -> RigidBodyQuatState<f64> {
        Product(UnitQuat::identity(), Rn(self.parameters.omega0))
    }

    /// `κ = (I_x − I_⊥)/I_⊥`, the rate factor of the transverse rotation (−½ up to rounding
    /// for the paper's cylinder).
    pub fn kappa(&self) -> f64 {
        self.spin.kappa
    }

    /// The phase `φ(t) = κ (ω_x⁰ t + M_x t²/(2 I_x))` of the transverse angular velocity.
    pub fn phase<T: Real>(&self, t: T) -> T {
        self.spin.phase(t)
    }

    /// The analytic body angular velocity
    /// `ω(t) = (ω_x⁰ + (M_x/I_x) t, ω_y⁰ cos φ − ω_z⁰ sin φ, ω_y⁰ sin φ + ω_z⁰ cos φ)`
    /// (SPIRAL Eqs. 11–12 and App. C.2), defined for every `t` and every scalar (dual numbers
    /// differentiate it).
    pub fn angular_velocity<T: Real>(&self, t: T) -> Vector3<T> {
        self.spin.omega(t)
    }

    /// The analytic angular acceleration `ω̇(t) = (M_x/I_x, −κ ω_x ω_z, κ ω_x ω_y)`.
    pub fn angular_acceleration<T: Real>(&self, t: T) -> Vector3<T> {
        self.spin.omega_dot(t)
    }

    /// Euler's equations for this body and torque, `ω̇(ω)`, in any scalar type: SPIRAL Eq. 8
    /// component by component, [`RigidBody::angular_acceleration_by_components`] with
    /// `τ = (M_x, 0, 0)` (the order of operations the published lifted DOP853 results were
    /// computed in; the catalogue's steppers use [`RigidBody::angular_acceleration`]).
    pub fn euler_rhs<T: Real>(&self, omega: &Vector3<T>) -> Vector3<T> {
        let torque = Vector3::new(real::<T>(self.parameters.torque_x), T::zero(), T::zero());
        self.body
            .cast::<T>()
            .angular_acceleration_by_components(omega, &torque)
    }

    /// The reference rotor `q′(t)` (body → lab), as integrated (not renormalised; `|q′| = 1`
    /// to about `1e-15`).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `t` outside `[0, reference_end()]`.
    pub fn reference_q(&self, t: f64) -> Result<Quaternion<f64>> {
        let x = self.reference.at(t)?;
        Ok(Quaternion::new(x[0], x[1], x[2], x[3]))
    }

    /// The reference state `(t, q′(t), ω(t))`.
    ///
    /// # Errors
    /// As [`SpiralCylinder::reference_q`].
    pub fn reference_state(&self, t: f64) -> Result<RotationalState> {
        Ok(RotationalState::new(
            t,
            self.reference_q(t)?,
            self.angular_velocity(t),
        ))
    }

    /// The reference state on `SU(2) × ℝ³`, the rotor renormalised.
    ///
    /// # Errors
    /// As [`SpiralCylinder::reference_q`].
    pub fn reference_group_state(&self, t: f64) -> Result<RigidBodyQuatState<f64>> {
        let q = UnitQuat::from_quaternion_normalized(self.reference_q(t)?)?;
        Ok(Product(q, Rn(self.angular_velocity(t))))
    }

    /// The reference rotation matrix `R(q′(t))` (body → lab; its transpose is the lab → body
    /// direction-cosine matrix `D` of [`SpiralCylinder::dcm_error`]).
    ///
    /// # Errors
    /// As [`SpiralCylinder::reference_q`].
    pub fn reference_rotation_matrix(&self, t: f64) -> Result<Matrix3<f64>> {
        Ok(rotation_matrix(&self.reference_q(t)?))
    }

    /// The tolerance the stored reference was integrated with: [`REFERENCE_TOLERANCE`], or
    /// [`FALLBACK_REFERENCE_TOLERANCE`] if that one underflowed.
    pub fn reference_tolerance(&self) -> f64 {
        self.reference_tolerance
    }

    /// The stored DOP853 solution (its steps, statistics and dense output).
    pub fn reference_solution(&self) -> &QuaternionReference {
        &self.reference
    }

    /// A fresh reference integration on `[0, t_end]` at `rtol = atol = tolerance` (for
    /// accuracy checks of the stored one).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `t_end` unless finite and positive, or `rtol`/`atol`
    /// for a bad tolerance; those of the integration (step-size underflow for tolerances the
    /// arithmetic cannot meet).
    pub fn integrate_reference(&self, t_end: f64, tolerance: f64) -> Result<QuaternionReference> {
        integrate_reference(&self.spin, t_end, tolerance)
    }

    /// The errors of SPIRAL Eq. (13) of a rotor and body angular velocity against the reference
    /// at `t` (rotor) and the analytic `ω` at `omega_time`.
    ///
    /// # Errors
    /// As [`SpiralCylinder::reference_q`].
    pub fn errors_at(
        &self,
        t: f64,
        q: &Quaternion<f64>,
        omega_time: f64,
        omega: &Vector3<f64>,
    ) -> Result<(f64, f64)> {
        let q_ref = self.reference_q(t)?;
        let q_error = relative_l1_error(q.coords.as_slice(), q_ref.coords.as_slice())?;
        let w_ref = self.angular_velocity(omega_time);
        let omega_error = relative_l1_error(omega.as_slice(), w_ref.as_slice())?;
        Ok((q_error, omega_error))
    }

    /// The DCM error of the benchmark at `t`: [`dcm_relative_error`] of the computed lab → body
    /// direction-cosine matrix `d` (rows: the body axes in lab coordinates, `ω_body = D ω_lab`,
    /// as a PFC4/MercuryDPM stepper carries it) against `D′ = R(q′(t))ᵀ`. Pass `Rᵀ` for a
    /// body → lab matrix `R`.
    ///
    /// # Errors
    /// As [`SpiralCylinder::reference_q`].
    pub fn dcm_error(&self, t: f64, d: &Matrix3<f64>) -> Result<f64> {
        let d_ref = self.reference_rotation_matrix(t)?.transpose();
        Ok(dcm_relative_error(d, &d_ref))
    }
}

/// `q̇ = ½ q ⊗ (0, ω(t))` by DOP853 from `q(0) = 1` to `t_end` with dense output.
fn integrate_reference(
    spin: &AxialSpin,
    t_end: f64,
    tolerance: f64,
) -> Result<QuaternionReference> {
    crate::error::check_finite("t_end", t_end)?;
    if !(t_end.is_finite() && t_end > 0.0) {
        return Err(Error::InvalidParameter {
            name: "t_end",
            value: format!("{t_end:e}"),
            expected: "a finite positive end time".into(),
        });
    }
    let parameters = ControllerParameters {
        max_steps: 10_000_000,
        ..ControllerParameters::dop853()
    };
    // Hairer's summation: the reference is the Fortran code's arithmetic, whatever the
    // library's default.
    let method = Dop853::new(Tolerances::scalar(tolerance, tolerance)?, parameters)?
        .with_summation(Summation::Hairer);
    let spin = *spin;
    let mut rhs = move |t: f64, x: &SVector<f64, 4>| {
        let q = Quaternion::new(x[0], x[1], x[2], x[3]);
        let dq = times_pure(&q, &spin.omega(t)) * 0.5;
        SVector::<f64, 4>::new(dq.w, dq.i, dq.j, dq.k)
    };
    let q0 = SVector::<f64, 4>::new(1.0, 0.0, 0.0, 0.0);
    integrate(
        &mut VectorStepper::new(method),
        &mut rhs,
        &q0,
        &Span::new(0.0, t_end)?,
        Options::default().dense(),
    )
}

/// `q̇ = q ⊗ (0, ω/2)`, `ω̇ = J⁻¹((M_x, 0, 0) − ω × Jω)`: [`Side::Right`], `ξ = (ω/2, ω̇)` on
/// `su(2) × ℝ³`, for the generic engines (RKMK, Crouch–Grossman, lifted adaptive methods).
impl<T: Real> LieOde<RigidBodyQuatState<T>> for SpiralCylinder {
    fn side(&self) -> Side {
        Side::Right
    }
    fn generator(
        &mut self,
        _t: T,
        y: &RigidBodyQuatState<T>,
    ) -> ProductAlgebra<Su2Algebra<T>, Rn<3, T>> {
        let omega = y.1.0;
        ProductAlgebra(
            Su2Algebra::from_rotation_vector(&omega),
            Rn(self.euler_rhs(&omega)),
        )
    }
}

/// SPIRAL Eq. (13), the relative L1 error `Σ|vᵢ − v′ᵢ| / Σ|v′ᵢ|` of `computed` against
/// `reference` (for a rotor: the four raw components, no sign or norm adjustment, as the
/// benchmark measures them).
///
/// # Errors
/// [`Error::InvalidParameter`] naming `computed` when the lengths differ or are zero, or
/// `reference` when it is zero (the ratio is undefined); [`Error::NonFinite`] naming `computed`
/// or `reference`.
///
/// # Examples
/// ```
/// use lieode::problems::cylinder::relative_l1_error;
/// // (|1.5 − 1| + |−2 + 2|) / (1 + 2) = 1/6
/// let e = relative_l1_error(&[1.5, -2.0], &[1.0, -2.0])?;
/// assert!((e - 1.0 / 6.0).abs() < 1e-16);
/// # Ok::<(), lieode::Error>(())
/// ```
pub fn relative_l1_error(computed: &[f64], reference: &[f64]) -> Result<f64> {
    if computed.len() != reference.len() || computed.is_empty() {
        return Err(Error::InvalidParameter {
            name: "computed",
            value: format!("{} entries", computed.len()),
            expected: format!(
                "as many entries as the reference ({}), at least one",
                reference.len()
            ),
        });
    }
    if !computed.iter().all(|x| x.is_finite()) {
        return Err(Error::NonFinite { name: "computed" });
    }
    if !reference.iter().all(|x| x.is_finite()) {
        return Err(Error::NonFinite { name: "reference" });
    }
    let scale: f64 = reference.iter().map(|x| x.abs()).sum();
    if scale == 0.0 {
        return Err(Error::InvalidParameter {
            name: "reference",
            value: "0".into(),
            expected: "a non-zero reference vector".into(),
        });
    }
    let difference: f64 = computed
        .iter()
        .zip(reference)
        .map(|(a, b)| (a - b).abs())
        .sum();
    Ok(difference / scale)
}

/// The matrix 1-norm, the largest absolute column sum `max_j Σᵢ |a_ij|`.
pub fn matrix_one_norm(a: &Matrix3<f64>) -> f64 {
    a.column_iter()
        .map(|c| c.iter().map(|x| x.abs()).sum::<f64>())
        .fold(0.0, f64::max)
}

/// The benchmark's error of a direction-cosine matrix: `‖D − D′‖₁ / ‖D‖₁` with the matrix
/// 1-norm ([`matrix_one_norm`]) and the **computed** `D` in the denominator, as the published
/// data were made (for a rotation matrix `‖D‖₁` is between 1 and √3). NaN for non-finite input.
///
/// # Examples
/// ```
/// use lieode::problems::cylinder::dcm_relative_error;
/// use nalgebra::Matrix3;
/// let d = Matrix3::new(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0);
/// // ‖D − I‖₁ = 1, ‖D‖₁ = 2.
/// assert_eq!(dcm_relative_error(&d, &Matrix3::identity()), 0.5);
/// ```
pub fn dcm_relative_error(computed: &Matrix3<f64>, reference: &Matrix3<f64>) -> f64 {
    matrix_one_norm(&(computed - reference)) / matrix_one_norm(computed)
}

/// The averaged error `½(err_q + err_ω)` of SPIRAL Table 2.
pub fn averaged_error(q_error: f64, omega_error: f64) -> f64 {
    0.5 * (q_error + omega_error)
}

/// The benchmark's step sizes `dt = 10^x` for [`BENCHMARK_STEP_COUNT`] = 20 exponents `x`
/// evenly spaced in `[−7, −1]`, ascending: `x_i = (6i − 133)/19` rounded once (so the ends are
/// exactly −7 and −1), `dt_i = 10^{x_i}` by `powf`.
///
/// # Examples
/// ```
/// use lieode::problems::cylinder::benchmark_step_sizes;
/// let dt = benchmark_step_sizes();
/// assert_eq!(dt.len(), 20);
/// assert!((dt[0] - 1e-7).abs() < 1e-21 && (dt[19] - 0.1).abs() < 1e-16);
/// ```
pub fn benchmark_step_sizes() -> [f64; BENCHMARK_STEP_COUNT] {
    let (lo, hi) = BENCHMARK_EXPONENTS;
    let intervals = (BENCHMARK_STEP_COUNT - 1) as f64;
    std::array::from_fn(|i| {
        // The numerator is an exact small integer, so x_i is the correctly rounded −7 + 6i/19.
        let x = (lo * intervals + (hi - lo) * i as f64) / intervals;
        10f64.powf(x)
    })
}

/// One point of the benchmark: a run with step size `dt` and its errors at the end.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BenchmarkErrors {
    /// The step size.
    pub dt: f64,
    /// The number of steps, `trunc(t_max/dt)`.
    pub steps: usize,
    /// The final time `T`, accumulated as `T += dt` (usually a little below `t_max`).
    pub t_final: f64,
    /// The time of the compared angular velocity: `T`, or `T − dt/2` for leapfrog methods.
    pub omega_time: f64,
    /// The rotor error of SPIRAL Eq. (13) against `q′(T)`.
    pub q_error: f64,
    /// The angular-velocity error of SPIRAL Eq. (13) against the analytic `ω(omega_time)`.
    pub omega_error: f64,
}

impl BenchmarkErrors {
    /// `½(q_error + omega_error)` (SPIRAL Table 2).
    pub fn averaged(&self) -> f64 {
        averaged_error(self.q_error, self.omega_error)
    }
}

/// Runs `stepper` the way the SPIRAL benchmark does and measures its errors: start at
/// [`SpiralCylinder::initial_state`] with step `dt`, take `n = trunc(t_max/dt)` steps while
/// accumulating `T += dt`, then compare the stepper's rotor with `q′(T)` and its angular velocity
/// ([`crate::rotation::RotationalMethod::angular_velocity`], not the synchronised state) with
/// the analytic `ω` at `T` — at `T − dt/2` for leapfrog methods, which carry `ω_{n−½}`.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `dt` unless `0 < dt ≤ t_max`; those of the stepper and of
/// the metric (a non-finite result).
pub fn benchmark_errors<S: CatalogueStepper<ConstantBodyTorque> + ?Sized>(
    problem: &SpiralCylinder,
    stepper: &mut S,
    dt: f64,
) -> Result<BenchmarkErrors> {
    let t_max = problem.t_max();
    if !(dt.is_finite() && dt > 0.0 && dt <= t_max) {
        return Err(Error::InvalidParameter {
            name: "dt",
            value: format!("{dt:e}"),
            expected: format!("a step size in (0, t_max = {t_max:e}]"),
        });
    }
    let steps = (t_max / dt).trunc() as usize;
    let mut torque = problem.torque();
    let start = problem.initial_state();
    stepper.start(&mut torque, &Span::stride(start.t, dt, steps)?, &start)?;
    let mut t = 0.0;
    for _ in 0..steps {
        stepper.step(&mut torque)?;
        t += dt;
    }
    let omega_time = if stepper.is_leapfrog() {
        t - 0.5 * dt
    } else {
        t
    };
    let (_, omega) = stepper.angular_velocity();
    let (q_error, omega_error) =
        problem.errors_at(t, &stepper.orientation(), omega_time, &omega)?;
    Ok(BenchmarkErrors {
        dt,
        steps,
        t_final: t,
        omega_time,
        q_error,
        omega_error,
    })
}
