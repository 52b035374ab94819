//! The four tests of Seelen, Padding and Kuipers (2016, §3) as six-degree-of-freedom problems:
//! a torque-free symmetric top, a sphere turned by a growing 1D torque, a small cylinder under a
//! fast-growing 3D torque, and two cylinders coupled by a friction force at their contact.

use lieode::body::Frame;
use std::f64::consts::PI;

use nalgebra::{Quaternion, SVector, Vector3};

use lieode::adaptive::{ControllerParameters, Dop853, Summation, Tolerances, VectorStepper};
use lieode::body::RigidBody;
use lieode::body::quaternion::{rotate, times_pure};
use lieode::integrate::{Options, integrate};
use lieode::stepper::Span;
use lieode::system::{Body, Loads, SystemForces, SystemState, SystemView};
use lieode::{Error, Result};

/// The density of every body of the paper's tests, kg/m³.
pub const DENSITY: f64 = 1100.0;

/// §3.1: a symmetric top, `J = (1100, 1100, 2600)` kg m², no torque, from
/// `ω₀ = (1.20, 0.45, −0.6)` s⁻¹ (the paper integrates 10 000 s with `δt = 10⁻²` s).
///
/// Exact: `ω_z` is constant and `(ω_x, ω_y)` turns at the rate `Ω = (J_z − J_x) ω_z / J_x`:
/// `ω_x + iω_y = (ω_x0 + iω_y0) e^{iΩt}`; the rotational kinetic energy is constant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SymmetricTop;

impl SymmetricTop {
    /// The principal moments.
    pub const INERTIA: [f64; 3] = [1100.0, 1100.0, 2600.0];
    /// The initial body angular velocity.
    pub const OMEGA0: [f64; 3] = [1.20, 0.45, -0.6];

    /// The body (its mass does not enter: no force acts). Its moments break the triangle
    /// inequality (`2600 > 1100 + 1100`: no rigid body has them), so it is built with
    /// [`RigidBody::with_moments`]; Euler's equations are integrated as the paper does.
    ///
    /// # Errors
    /// None for these values.
    pub fn body() -> Result<Body> {
        Body::with_rigid(1.0, RigidBody::with_moments(Self::INERTIA)?)
    }

    /// The initial state: at rest at the origin, identity rotor, `ω₀`.
    pub fn initial_state() -> SystemState {
        let mut s = SystemState::at_rest(0.0, 1);
        s.omegas[0] = Vector3::from(Self::OMEGA0);
        s
    }

    /// The exact body angular velocity at `t`.
    pub fn omega(t: f64) -> Vector3<f64> {
        let [jx, _, jz] = Self::INERTIA;
        let [wx, wy, wz] = Self::OMEGA0;
        let rate = (jz - jx) * wz / jx;
        let (s, c) = (rate * t).sin_cos();
        Vector3::new(wx * c - wy * s, wx * s + wy * c, wz)
    }

    /// The rotational kinetic energy `½ ωᵀJω` (constant).
    pub fn energy(omega: &Vector3<f64>) -> f64 {
        0.5 * omega.dot(&omega.component_mul(&Vector3::from(Self::INERTIA)))
    }
}

impl SystemForces for SymmetricTop {
    fn torque_frame(&self) -> Frame {
        Frame::Body
    }

    fn loads(&mut self, _view: &SystemView<'_>, _loads: &mut Loads) {}
}

/// §3.2: a sphere of diameter 2 m and density 1100 kg/m³ turned from rest by the lab torque
/// `τ_y = A eᵗ`, `A = 10⁵` N m (Zhao and van Wachem's third test).
///
/// Exact: the sphere turns about the fixed y axis with `ω_y = A(eᵗ − 1)/J` and the angle
/// `θ = A(eᵗ − 1 − t)/J`, `J = 2/5 m r²`; an arrow along x at `t = 0` points along
/// `(cos θ, 0, −sin θ)` (a positive turn about y takes x towards −z).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TorquedSphere;

impl TorquedSphere {
    /// The torque amplitude `A`, N m.
    pub const AMPLITUDE: f64 = 1e5;
    /// The radius, m.
    pub const RADIUS: f64 = 1.0;

    /// The sphere: `m = 4/3 π r³ ρ`, `J = 2/5 m r²`.
    ///
    /// # Errors
    /// None for these values.
    pub fn body() -> Result<Body> {
        let mass = 4.0 / 3.0 * PI * Self::RADIUS.powi(3) * DENSITY;
        Body::solid_sphere(mass, Self::RADIUS)
    }

    /// The moment of inertia `J = 2/5 m r²` (= 8π/15 ρ r⁵).
    pub fn inertia() -> f64 {
        8.0 * PI / 15.0 * DENSITY * Self::RADIUS.powi(5)
    }

    /// The exact angle turned about y at `t`.
    pub fn angle(t: f64) -> f64 {
        Self::AMPLITUDE * (t.exp_m1() - t) / Self::inertia()
    }

    /// The exact `ω_y` at `t`.
    pub fn omega_y(t: f64) -> f64 {
        Self::AMPLITUDE * t.exp_m1() / Self::inertia()
    }

    /// The exact direction at `t` of the arrow that points along x at `t = 0`.
    pub fn arrow(t: f64) -> Vector3<f64> {
        let (s, c) = Self::angle(t).sin_cos();
        Vector3::new(c, 0.0, -s)
    }

    /// The arrow of a rotor: `R(q) e_x`.
    pub fn arrow_of(q: &Quaternion<f64>) -> Vector3<f64> {
        rotate(q, &Vector3::x())
    }
}

impl SystemForces for TorquedSphere {
    fn torque_frame(&self) -> Frame {
        Frame::Lab
    }

    fn loads(&mut self, view: &SystemView<'_>, loads: &mut Loads) {
        let torque = Vector3::new(0.0, Self::AMPLITUDE * view.t.exp(), 0.0);
        loads.torques.iter_mut().for_each(|tau| *tau = torque);
    }
}

/// Table 1 of the paper: the arrow of §3.2 at `t = 1` s as printed, `(label, x, y, z)`.
pub const TABLE1_PRINTED: [(&str, [f64; 3]); 4] = [
    ("theory", [2.93425e-1, 0.0, -9.55982e-1]),
    ("scalar_factor", [2.87115e-1, 0.0, -9.57896e-1]),
    ("pcdm", [2.91578e-1, 0.0, -9.56547e-1]),
    ("improved_pcdm", [2.93444e-1, 0.0, -9.55976e-1]),
];

/// §3.3: a cylinder of radius 5 mm, height 30 mm and density 1100 kg/m³ (axis along body x,
/// the paper's `B₀ = (1, 0, 0)`) under the body torque
/// `τ = (5·10⁻⁴ sin 200πt, 10⁻⁵ e^{3+24t}, 10⁻⁵ · 5^{52t})` N m, from rest.
///
/// No closed form: [`GrowingTorqueCylinder::reference`] integrates the ambient ODE
/// (`q̇ = ½ q ⊗ ω`, Euler's equations) with DOP853. The paper does not state its final time; we
/// use [`GrowingTorqueCylinder::T_FINAL`] = 0.1 s, over which `ω` grows to about 10⁴ s⁻¹ (`τ_z`
/// grows like `e^{83.7t}`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GrowingTorqueCylinder;

impl GrowingTorqueCylinder {
    /// The radius, m.
    pub const RADIUS: f64 = 5e-3;
    /// The height, m.
    pub const HEIGHT: f64 = 0.03;
    /// The final time of our runs, s.
    pub const T_FINAL: f64 = 0.1;

    /// The cylinder: `m = ρπr²h`, `J_x = ½ m r²`, `J_y = J_z = m(3r² + h²)/12`.
    ///
    /// # Errors
    /// None for these values.
    pub fn body() -> Result<Body> {
        let (r, h) = (Self::RADIUS, Self::HEIGHT);
        let m = DENSITY * PI * r * r * h;
        let axial = 0.5 * m * r * r;
        let transverse = m * (3.0 * r * r + h * h) / 12.0;
        Body::new(m, [axial, transverse, transverse])
    }

    /// The body torque at `t`.
    pub fn torque(t: f64) -> Vector3<f64> {
        Vector3::new(
            5e-4 * (200.0 * PI * t).sin(),
            1e-5 * (3.0 + 24.0 * t).exp(),
            1e-5 * (52.0 * t * 5f64.ln()).exp(),
        )
    }

    /// The initial state: at rest, identity rotor.
    pub fn initial_state() -> SystemState {
        SystemState::at_rest(0.0, 1)
    }

    /// The rotor and body angular velocity at each of `times` (from the initial time 0, in
    /// non-decreasing order) by DOP853 on the ambient ODE with `rtol = atol = tolerance`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `times` (with the index) for a time that is not
    /// finite and non-negative, or that comes before the one before it; those of the body and
    /// of the integration.
    pub fn reference(
        times: &[f64],
        tolerance: f64,
    ) -> Result<Vec<(Quaternion<f64>, Vector3<f64>)>> {
        let mut previous = 0.0;
        for (k, &t) in times.iter().enumerate() {
            if !(t.is_finite() && t >= 0.0) {
                return Err(Error::InvalidParameter {
                    name: "times",
                    value: format!("times[{k}] = {t:e}"),
                    expected: "finite times from the initial time 0 on".into(),
                });
            }
            if t < previous {
                return Err(Error::InvalidParameter {
                    name: "times",
                    value: format!("times[{k}] = {t:e} after {previous:e}"),
                    expected: "times in non-decreasing order".into(),
                });
            }
            previous = t;
        }
        let body = Self::body()?;
        let rigid = *body.rigid();
        let mut rate = move |t: f64, y: &SVector<f64, 7>| {
            let q = Quaternion::new(y[0], y[1], y[2], y[3]);
            let w = Vector3::new(y[4], y[5], y[6]);
            let dq = times_pure(&q, &w) * 0.5;
            let dw = rigid.angular_acceleration(&w, &Self::torque(t));
            SVector::<f64, 7>::from_column_slice(&[dq.w, dq.i, dq.j, dq.k, dw.x, dw.y, dw.z])
        };
        let mut y = SVector::<f64, 7>::from_column_slice(&[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        let mut t = 0.0;
        let mut out = Vec::with_capacity(times.len());
        for &target in times {
            if target > t {
                // Hairer's summation: a reference in the Fortran code's arithmetic.
                let method = Dop853::new(
                    Tolerances::scalar(tolerance, tolerance)?,
                    ControllerParameters::dop853(),
                )?
                .with_summation(Summation::Hairer);
                let solution = integrate(
                    &mut VectorStepper::new(method),
                    &mut rate,
                    &y,
                    &Span::new(t, target)?,
                    Options::default(),
                )?;
                if let Some((_, last)) = solution.last() {
                    y = *last;
                }
                t = target;
            }
            out.push((
                Quaternion::new(y[0], y[1], y[2], y[3]),
                Vector3::new(y[4], y[5], y[6]),
            ));
        }
        Ok(out)
    }

    /// The paper's orientation error of one time (Eq. 6):
    /// `|acos(b·B₀) − acos(B·B₀)|` with `b`, `B` the computed and reference cylinder axes.
    pub fn axis_error(q: &Quaternion<f64>, reference: &Quaternion<f64>) -> f64 {
        let cos = |q: &Quaternion<f64>| rotate(q, &Vector3::x()).x.clamp(-1.0, 1.0);
        (cos(q).acos() - cos(reference).acos()).abs()
    }
}

impl SystemForces for GrowingTorqueCylinder {
    fn torque_frame(&self) -> Frame {
        Frame::Body
    }

    fn loads(&mut self, view: &SystemView<'_>, loads: &mut Loads) {
        let torque = Self::torque(view.t);
        loads.torques.iter_mut().for_each(|tau| *tau = torque);
    }
}

/// §3.4: two cylinders on fixed parallel axes (z) in touching contact, radii `R₁ = 1` m and
/// `R₂ = 2.4` m, initial `ω = 2` and `0.4` s⁻¹, coupled by the tangential friction force
/// `F_t = −η v_rel` at the contact point (`η = 5.4` kg/s, `v_rel` the relative surface velocity
/// there): a velocity-dependent pair interaction.
///
/// The paper gives neither the cylinders' masses nor their lengths. Equal densities and lengths
/// (`J ∝ R⁴`) would make cylinder 1 reverse, against the paper's Fig. 5a (cylinder 1 slows,
/// cylinder 2 reverses); equal masses reproduce it. We take [`TouchingCylinders::MASS`] = 100 kg
/// each (`J₁ = 50`, `J₂ = 288` kg m²), which makes the coupling time `1/λ` = 4.6 s.
///
/// Exact: the slip `s = ω₁R₁ + ω₂R₂` decays as `s₀ e^{−λt}` with
/// `λ = η(R₁²/J₁ + R₂²/J₂)`, and `ω_i = ω_i0 − (ηR_i/J_i) s₀ (1 − e^{−λt})/λ`: cylinder 1
/// slows to 0.52 s⁻¹, cylinder 2 reverses to −0.22 s⁻¹.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TouchingCylinders;

impl TouchingCylinders {
    /// The radii `R₁`, `R₂`, m.
    pub const RADII: [f64; 2] = [1.0, 2.4];
    /// The initial angular velocities about z, s⁻¹.
    pub const OMEGA0: [f64; 2] = [2.0, 0.4];
    /// The friction constant `η`, kg/s.
    pub const FRICTION: f64 = 5.4;
    /// Each cylinder's mass (our choice; the paper gives none), kg.
    pub const MASS: f64 = 100.0;
    /// The cylinders' length (our choice; it enters only the transverse moments), m.
    pub const LENGTH: f64 = 0.1;

    /// The two cylinders (axis along body z): `J_z = ½ mR²`, `J_x = J_y = m(3R² + L²)/12`.
    ///
    /// # Errors
    /// None for these values.
    pub fn bodies() -> Result<[Body; 2]> {
        let one = |r: f64| {
            let m = Self::MASS;
            let transverse = m * (3.0 * r * r + Self::LENGTH * Self::LENGTH) / 12.0;
            Body::new(m, [transverse, transverse, 0.5 * m * r * r])
        };
        Ok([one(Self::RADII[0])?, one(Self::RADII[1])?])
    }

    /// The initial state: centres at the origin and at `(R₁ + R₂, 0, 0)`, identity rotors.
    pub fn initial_state() -> SystemState {
        let mut s = SystemState::at_rest(0.0, 2);
        s.positions[1] = Vector3::new(Self::RADII[0] + Self::RADII[1], 0.0, 0.0);
        s.omegas[0] = Vector3::new(0.0, 0.0, Self::OMEGA0[0]);
        s.omegas[1] = Vector3::new(0.0, 0.0, Self::OMEGA0[1]);
        s
    }

    /// The exact angular velocities about z at `t`.
    ///
    /// # Errors
    /// None for these values (the bodies are checked).
    pub fn omegas(t: f64) -> Result<[f64; 2]> {
        let bodies = Self::bodies()?;
        let j = bodies.map(|b| b.rigid().inertia().z);
        let [r1, r2] = Self::RADII;
        let eta = Self::FRICTION;
        let rate = eta * (r1 * r1 / j[0] + r2 * r2 / j[1]);
        let slip0 = Self::OMEGA0[0] * r1 + Self::OMEGA0[1] * r2;
        let decayed = -(-rate * t).exp_m1() / rate;
        Ok([0, 1].map(|i| Self::OMEGA0[i] - eta * Self::RADII[i] / j[i] * slip0 * decayed))
    }
}

impl SystemForces for TouchingCylinders {
    fn torque_frame(&self) -> Frame {
        Frame::Lab
    }

    /// Two: the methods refuse a state of another size.
    fn body_count(&self) -> Option<usize> {
        Some(2)
    }

    /// The friction at the contact point on the line of centres; the axles hold the centres,
    /// so no net force acts. Called directly with a view or loads of fewer than two bodies it
    /// writes nothing (the methods hand it two, [`SystemForces::body_count`]); coincident centres
    /// have no line of centres and give NaN torques, which the methods report.
    fn loads(&mut self, view: &SystemView<'_>, loads: &mut Loads) {
        let ([x0, x1, ..], [q0, q1, ..], [w0, w1, ..], [t0, t1, ..]) = (
            view.positions,
            view.rotors,
            view.omegas,
            loads.torques.as_mut_slice(),
        ) else {
            return;
        };
        let axis = (x1 - x0).normalize();
        let contact = x0 + axis * Self::RADII[0];
        let arm = [contact - x0, contact - x1];
        let surface = [rotate(q0, w0).cross(&arm[0]), rotate(q1, w1).cross(&arm[1])];
        let friction = (surface[0] - surface[1]) * -Self::FRICTION;
        *t0 = arm[0].cross(&friction);
        *t1 = arm[1].cross(&(-friction));
    }
}

/// The angular velocity of body `i` of a state in the lab frame (for the figures).
///
/// # Errors
/// [`Error::InvalidParameter`] naming `i` unless the state's rotors and angular velocities
/// both have body `i`.
pub fn lab_omega(state: &SystemState, i: usize) -> Result<Vector3<f64>> {
    match (state.rotors.get(i), state.omegas.get(i)) {
        (Some(q), Some(w)) => Ok(rotate(q, w)),
        _ => Err(Error::InvalidParameter {
            name: "i",
            value: i.to_string(),
            expected: format!(
                "a body of the state ({} rotors, {} angular velocities)",
                state.rotors.len(),
                state.omegas.len()
            ),
        }),
    }
}
