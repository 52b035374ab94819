//! The SPIRAL benchmark problem: the analytic angular velocity against Euler's equations and the
//! paper's own formulas, the computed reference orientation against independent integrations,
//! the error metrics, the step-size grid, the run protocol, the Lie-group view and bad input.

use lieode::Error;
use lieode::adaptive::{ControllerParameters, Dop853, Tolerances, VectorStepper};
use lieode::body::RigidBodyQuatState;
use lieode::body::quaternion::times_pure;
use lieode::engine::Fixed;
use lieode::engine::{LieOde, MuntheKaas};
use lieode::integrate::{Options, Record, integrate};
use lieode::lie::product::Product;
use lieode::lie::rn::Rn;
use lieode::lie::unit_quaternion::UnitQuat;
use lieode::lie::{LieGroup, Side};
use lieode::problems::cylinder::{
    BENCHMARK_STEP_COUNT, CylinderParameters, REFERENCE_TOLERANCE, SpiralCylinder, averaged_error,
    benchmark_errors, benchmark_step_sizes, dcm_relative_error, matrix_one_norm, relative_l1_error,
};
use lieode::problems::reference::reference_solution;
use lieode::rotation::{
    ConstantBodyTorque, DirectEuler, Renormalisation, RigidBody, RotationalMethod, RotationalState,
};
use lieode::stepper::{NoDenseOutput, Span, Stats, StepReport, Stepper, StepperInfo};
use lieode::tableau::registry::RK4;
use nalgebra::{Matrix3, Quaternion, SVector, Vector3};
use num_dual::Dual64;

fn paper() -> SpiralCylinder {
    SpiralCylinder::paper().unwrap()
}

fn with(parameters: CylinderParameters) -> SpiralCylinder {
    SpiralCylinder::new(parameters).unwrap()
}

fn sample_times() -> impl Iterator<Item = f64> {
    (0..=40).map(|k| k as f64 * 0.025)
}

/// `|a − b|` relative to `1 + |b|` (componentwise maximum).
fn close(a: &Vector3<f64>, b: &Vector3<f64>) -> f64 {
    (a - b).amax() / (1.0 + b.amax())
}

#[test]
fn the_body_has_the_exact_moments_of_a_solid_cylinder() {
    let c = paper();
    let m = 7750.0 * std::f64::consts::PI * 0.05 * 0.05 * 0.15;
    assert!((c.mass() - m).abs() < 1e-14 * m);
    let i = c.body().inertia();
    assert!((i.x - m * 0.05 * 0.05 / 2.0).abs() < 1e-16);
    let transverse = m * 0.15 * 0.15 / 12.0 + m * 0.05 * 0.05 / 4.0;
    assert!((i.y - transverse).abs() < 1e-16 && i.y == i.z);
    // Not the rounded values the paper prints, but close to them.
    assert!(i.x != 0.0114 && (i.x - 0.0114).abs() < 2e-5);
    assert!(i.y != 0.0228 && (i.y - 0.0228).abs() < 3e-5);
    // H² = 9R², so I_⊥ = 2 I_x and κ = −½ up to rounding.
    assert!((c.kappa() + 0.5).abs() < 1e-15);
    assert_eq!(c.torque(), ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0)));
    let start = c.initial_state();
    assert_eq!(start.t, 0.0);
    assert_eq!(start.q, Quaternion::identity());
    assert_eq!(start.omega, Vector3::new(0.3, -0.9, 0.6));
    assert_eq!(c.t_max(), 1.0);
    assert_eq!(c.angular_velocity(0.0), Vector3::new(0.3, -0.9, 0.6));
}

/// Euler's equations hold along the analytic ω(t): its exact derivative (dual numbers) equals
/// `ω̇(ω(t))` of [`RigidBody`] with the torque `(M_x, 0, 0)`, and the closed-form ω̇ too.
fn check_euler_equations(c: &SpiralCylinder, span: f64) {
    let body: &RigidBody = c.body();
    let tau = c.torque().0;
    for k in 0..=40 {
        let t = span * k as f64 / 40.0;
        let w = c.angular_velocity(Dual64::new(t, 1.0));
        let value = w.map(|x| x.re);
        let derivative = w.map(|x| x.eps);
        let euler = body.angular_acceleration(&value, &tau);
        assert!(
            close(&derivative, &euler) < 1e-13,
            "t = {t}: {derivative:?} vs {euler:?}"
        );
        assert!(close(&c.angular_acceleration(t), &euler) < 1e-13);
        assert!(close(&c.euler_rhs(&value), &euler) < 1e-15);
        assert!((value - c.angular_velocity(t)).amax() == 0.0);
    }
}

#[test]
fn analytic_angular_velocity_satisfies_eulers_equations() {
    let c = paper();
    check_euler_equations(&c, 1.0);
    // For the paper's problem, a second, cruder check without dual numbers: central differences.
    let h = 1e-6;
    for t in [0.1, 0.5, 0.9] {
        let fd = (c.angular_velocity(t + h) - c.angular_velocity(t - h)) / (2.0 * h);
        assert!(close(&fd, &c.angular_acceleration(t)) < 1e-7);
    }
    // A negative torque (ω_x changes sign), a small one, a flat disc (κ ≈ +1) and a long rod
    // (κ ≈ −1, ω_x grows to ≈ 8000 rad/s).
    for (torque_x, omega0, radius, height) in [
        (-0.5, Vector3::new(0.3, -0.9, 0.6), 0.05, 0.15),
        (0.02, Vector3::new(-1.0, 0.4, 0.2), 0.05, 0.15),
        (0.5, Vector3::new(0.3, -0.9, 0.6), 0.1, 0.01),
        (0.5, Vector3::new(2.0, 1.0, -3.0), 0.01, 0.5),
    ] {
        let c = with(CylinderParameters {
            torque_x,
            omega0,
            radius,
            height,
            ..CylinderParameters::default()
        });
        check_euler_equations(&c, 1.0);
    }
}

/// ω(t) by DOP853 on Euler's equations (ℝ³), independent of the closed form.
fn integrate_euler(c: &SpiralCylinder, t_end: f64) -> Vector3<f64> {
    let body = *c.body();
    let tau = c.torque().0;
    let mut rhs = move |_t: f64, w: &SVector<f64, 3>| body.angular_acceleration(w, &tau);
    let method = Dop853::new(
        Tolerances::scalar(1e-14, 1e-14).unwrap(),
        ControllerParameters::dop853(),
    )
    .unwrap();
    let sol = integrate(
        &mut VectorStepper::new(method),
        &mut rhs,
        &c.parameters().omega0,
        &Span::new(0.0, t_end).unwrap(),
        Options::default(),
    )
    .unwrap();
    *sol.last().unwrap().1
}

#[test]
fn analytic_angular_velocity_agrees_with_a_numerical_solution_of_eulers_equations() {
    for c in [
        paper(),
        with(CylinderParameters {
            torque_x: 0.0,
            ..CylinderParameters::default()
        }),
    ] {
        for t in [0.3, 1.0] {
            let numeric = integrate_euler(&c, t);
            let analytic = c.angular_velocity(t);
            assert!(
                close(&numeric, &analytic) < 1e-12,
                "t = {t}: {numeric:?} vs {analytic:?}"
            );
        }
    }
}

/// SPIRAL Eqs. (11)–(12) exactly as printed (Ω > 0, the auxiliary time τ = ω_x²).
fn paper_formula(c: &SpiralCylinder, t: f64) -> Vector3<f64> {
    let i = c.body().inertia();
    let (ix, iy, iz) = (i.x, i.y, i.z);
    let mx = c.parameters().torque_x;
    let w0 = c.parameters().omega0;
    let omega2 = -(ix / (2.0 * mx)).powi(2) * (ix - iy) * (iz - ix) / (iz * iy);
    let big_omega = omega2.sqrt();
    let eta = iy / (iz - ix) * 2.0 * mx / ix;
    let a0 = big_omega * w0.x * w0.x;
    let k1 = w0.y * a0.cos() - w0.z / (big_omega * eta) * a0.sin();
    let k2 = w0.y * a0.sin() + w0.z / (big_omega * eta) * a0.cos();
    let wx = w0.x + mx / ix * t;
    let tau = wx * wx;
    let (s, co) = (big_omega * tau).sin_cos();
    Vector3::new(wx, k1 * co + k2 * s, eta * big_omega * (k2 * co - k1 * s))
}

#[test]
fn analytic_angular_velocity_is_the_papers_equations_11_and_12() {
    for torque_x in [0.5, -0.5, 0.05] {
        let c = with(CylinderParameters {
            torque_x,
            ..CylinderParameters::default()
        });
        for t in sample_times() {
            let ours = c.angular_velocity(t);
            let theirs = paper_formula(&c, t);
            // The paper's phase Ω ω_x² is large (≈ 11 at t = 1): rounding of a few 1e-15 in it.
            assert!(close(&ours, &theirs) < 1e-13, "M_x = {torque_x}, t = {t}");
        }
    }
    // ω(1) of the paper's problem, written out (κ = −½, M_x/I_x = 0.5/I_x).
    let c = paper();
    let ix = c.body().inertia().x;
    let phi = -0.5 * (0.3 + 0.5 * 0.5 / ix);
    assert!((c.phase(1.0) - phi).abs() < 1e-13);
    let expected = Vector3::new(
        0.3 + 0.5 / ix,
        -0.9 * phi.cos() - 0.6 * phi.sin(),
        -0.9 * phi.sin() + 0.6 * phi.cos(),
    );
    assert!(close(&c.angular_velocity(1.0), &expected) < 1e-14);
}

#[test]
fn undriven_cylinder_is_the_papers_case_c2() {
    let c = with(CylinderParameters {
        torque_x: 0.0,
        ..CylinderParameters::default()
    });
    let i = c.body().inertia();
    let w0 = c.parameters().omega0;
    // Γ² = −(ω_x⁰)² (I_z − I_x)(I_x − I_y)/(I_y I_z) > 0, ζ = I_y/((I_z − I_x) ω_x⁰).
    let gamma = (-(w0.x * w0.x) * (i.z - i.x) * (i.x - i.y) / (i.y * i.z)).sqrt();
    let zeta = i.y / ((i.z - i.x) * w0.x);
    for t in sample_times() {
        let w = c.angular_velocity(t);
        assert_eq!(w.x, w0.x);
        assert_eq!(c.angular_acceleration(t).x, 0.0);
        // ω_y(t) = A cos Γt + B sin Γt with A = ω_y⁰ and B from ω_z⁰ = ζ ω̇_y(0) = ζ Γ B.
        let b = w0.z / (zeta * gamma);
        let wy = w0.y * (gamma * t).cos() + b * (gamma * t).sin();
        let wy_dot = gamma * (b * (gamma * t).cos() - w0.y * (gamma * t).sin());
        assert!((w.y - wy).abs() < 1e-15, "t = {t}");
        assert!((w.z - zeta * wy_dot).abs() < 1e-15, "t = {t}");
    }
    check_euler_equations(&c, 20.0);
    // The kinetic energy is conserved without torque.
    let e0 = c.body().kinetic_energy(&w0);
    assert!((c.body().kinetic_energy(&c.angular_velocity(7.0)) - e0).abs() < 1e-15 * e0 * 4.0);
}

#[test]
fn reference_orientation_is_a_unit_rotor_and_matches_independent_integrations() {
    let c = paper();
    assert_eq!(c.reference_tolerance(), REFERENCE_TOLERANCE);
    assert_eq!(c.reference_q(0.0).unwrap(), Quaternion::identity());
    for t in sample_times() {
        let q = c.reference_q(t).unwrap();
        assert!(
            (q.norm() - 1.0).abs() < 2e-14,
            "t = {t}: |q| − 1 = {:e}",
            q.norm() - 1.0
        );
    }
    // The ambient ℝ⁷ reference of the rotation module (its own DOP853 run on (q, ω) with
    // Euler's equations at 1e-13): rotor and angular velocity.
    let torque = c.torque();
    for t in [0.25, 0.5, 0.77, 1.0] {
        let ambient = reference_solution(c.body(), &torque, &c.initial_state(), t).unwrap();
        let q = c.reference_q(t).unwrap();
        assert!(
            (ambient.q - q).norm() < 1e-12,
            "t = {t}: {:e}",
            (ambient.q - q).norm()
        );
        assert!(close(&ambient.omega, &c.angular_velocity(t)) < 1e-12);
    }
    // A separate run at 1e-13 ending exactly at t (no dense output).
    for t in [0.33, 1.0] {
        let coarse = c.integrate_reference(t, 1e-13).unwrap();
        let x = coarse.last().unwrap().1;
        let q = Quaternion::new(x[0], x[1], x[2], x[3]);
        let d = (q - c.reference_q(t).unwrap()).norm();
        assert!(d < 1e-12, "t = {t}: {d:e}");
    }
    // The reference satisfies the kinematics: q̇ = ½ q ⊗ ω, checked by central differences of
    // the dense output (truncation ~ h² |q⃛| ≈ 1e-8, rounding ~ 1e-15/h).
    let h = 1e-5;
    for t in [0.2, 0.6, 0.95] {
        let fd = (c.reference_q(t + h).unwrap() - c.reference_q(t - h).unwrap()) / (2.0 * h);
        let exact = times_pure(&c.reference_q(t).unwrap(), &c.angular_velocity(t)) * 0.5;
        assert!((fd - exact).norm() < 1e-6, "t = {t}");
    }
    // Slightly past t_max (the benchmark's T may overshoot by rounding), not beyond the margin.
    assert!(c.reference_end() > 1.0);
    assert!(c.reference_q(1.0 + 1e-9).is_ok());
    assert!(matches!(
        c.reference_q(1.01),
        Err(Error::InvalidParameter { name: "t", .. })
    ));
    assert!(c.reference_q(-1e-3).is_err());
    assert!(c.reference_q(f64::NAN).is_err());
    // The stored run is cheap.
    assert!(c.reference_solution().times.len() < 400);
}

#[test]
fn reference_state_views_agree() {
    let c = paper();
    let t = 0.6;
    let s = c.reference_state(t).unwrap();
    assert_eq!(s.q, c.reference_q(t).unwrap());
    assert_eq!(s.omega, c.angular_velocity(t));
    let g = c.reference_group_state(t).unwrap();
    assert!((g.0.quaternion() - s.q).norm() < 1e-14);
    assert_eq!(g.1.0, s.omega);
    let r = c.reference_rotation_matrix(t).unwrap();
    assert!((r - g.0.to_rotation_matrix()).norm() < 1e-13);
    // The DCM error of the exact lab → body matrix is zero, and a body → lab one is not.
    assert!(c.dcm_error(t, &r.transpose()).unwrap() < 1e-15);
    assert!(c.dcm_error(t, &r).unwrap() > 1e-3);
}

#[test]
fn relative_l1_error_is_equation_13() {
    // Σ|v − v′| = 0.5 + 0 + 1 + 0.5 = 2, Σ|v′| = 1 + 2 + 3 + 2 = 8.
    let e = relative_l1_error(&[1.5, -2.0, 2.0, 2.5], &[1.0, -2.0, 3.0, 2.0]).unwrap();
    assert_eq!(e, 0.25);
    assert_eq!(
        relative_l1_error(&[1.0, 2.0, 3.0], &[1.0, 2.0, 3.0]).unwrap(),
        0.0
    );
    // −q is a different vector for the metric (no sign adjustment): error 2.
    assert_eq!(relative_l1_error(&[-0.5, 0.5], &[0.5, -0.5]).unwrap(), 2.0);
    assert!(matches!(
        relative_l1_error(&[1.0, 2.0], &[1.0, 2.0, 3.0]),
        Err(Error::InvalidParameter {
            name: "computed",
            ..
        })
    ));
    assert!(relative_l1_error(&[], &[]).is_err());
    assert!(matches!(
        relative_l1_error(&[1.0], &[0.0]),
        Err(Error::InvalidParameter {
            name: "reference",
            ..
        })
    ));
    assert_eq!(
        relative_l1_error(&[f64::NAN], &[1.0]),
        Err(Error::NonFinite { name: "computed" })
    );
    assert_eq!(
        relative_l1_error(&[1.0], &[f64::INFINITY]),
        Err(Error::NonFinite { name: "reference" })
    );
    assert_eq!(averaged_error(0.25, 0.75), 0.5);
}

#[test]
fn dcm_error_uses_the_matrix_one_norm_of_the_computed_matrix() {
    let a = Matrix3::new(1.0, -2.0, 0.0, 3.0, 0.5, 1.0, -1.0, 0.25, -4.0);
    // Column sums 5, 2.75, 5 → 5.
    assert_eq!(matrix_one_norm(&a), 5.0);
    // Not the row sums (3, 4.5, 5.25), which are the transpose's column sums.
    assert_eq!(matrix_one_norm(&a.transpose()), 5.25);
    let b = Matrix3::new(1.0, -2.0, 0.0, 3.0, 0.5, 1.0, -1.0, 0.25, -3.0);
    // b − a has the single entry 1; ‖b‖₁ = max(5, 2.75, 4) = 5.
    assert_eq!(dcm_relative_error(&b, &a), 0.2);
    // The denominator is the computed matrix: swapping the arguments changes the result.
    let c = Matrix3::new(2.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0);
    assert_eq!(dcm_relative_error(&c, &Matrix3::identity()), 0.5);
    assert_eq!(dcm_relative_error(&Matrix3::identity(), &c), 1.0);
}

#[test]
fn step_size_grid_is_twenty_log_uniform_values_from_1e_7_to_0_1() {
    let dt = benchmark_step_sizes();
    assert_eq!(dt.len(), 20);
    assert_eq!(BENCHMARK_STEP_COUNT, 20);
    assert!((dt[0] / 1e-7 - 1.0).abs() < 2.3e-16);
    assert_eq!(dt[19], 0.1);
    for k in 0..19 {
        let ratio = (dt[k + 1] / dt[k]).log10();
        assert!((ratio - 6.0 / 19.0).abs() < 1e-14, "k = {k}: {ratio}");
    }
    assert!((dt[10] - 10f64.powf(-7.0 + 60.0 / 19.0)).abs() < 1e-15 * dt[10]);
}

/// A stepper that reports the exact solution (the reference rotor and the analytic ω), at the
/// whole step or, as a leapfrog method, at the half step before it: the protocol must measure
/// zero error for both.
struct Oracle {
    problem: SpiralCylinder,
    body: RigidBody,
    leapfrog: bool,
    dt: f64,
    t: f64,
}

impl StepperInfo for Oracle {
    fn name(&self) -> &str {
        "oracle"
    }
    fn time(&self) -> f64 {
        self.t
    }
    fn stats(&self) -> Stats {
        Stats::default()
    }
}

impl RotationalMethod for Oracle {
    fn torque_evaluations_per_step(&self) -> usize {
        0
    }
    fn is_leapfrog(&self) -> bool {
        self.leapfrog
    }
    fn renormalisation(&self) -> Renormalisation {
        Renormalisation::Never
    }
    fn orientation(&self) -> Quaternion<f64> {
        self.problem.reference_q(self.t).unwrap()
    }
    fn angular_velocity(&self) -> (f64, Vector3<f64>) {
        let t = if self.leapfrog {
            self.t - 0.5 * self.dt
        } else {
            self.t
        };
        (t, self.problem.angular_velocity(t))
    }
    fn body(&self) -> &RigidBody {
        &self.body
    }
}

impl Stepper<ConstantBodyTorque> for Oracle {
    type State = RotationalState;
    type Segment = NoDenseOutput<RotationalState>;
    fn start(
        &mut self,
        _torque: &mut ConstantBodyTorque,
        span: &Span,
        state: &RotationalState,
    ) -> lieode::Result<()> {
        self.t = state.t;
        self.dt = span.fixed_step()?.0;
        Ok(())
    }
    fn step(&mut self, _torque: &mut ConstantBodyTorque) -> lieode::Result<StepReport> {
        self.t += self.dt;
        Ok(StepReport {
            t_start: self.t - self.dt,
            t_end: self.t,
            finished: false,
        })
    }
    fn state(&mut self, _torque: &mut ConstantBodyTorque) -> lieode::Result<RotationalState> {
        Ok(RotationalState::new(
            self.t,
            self.orientation(),
            self.problem.angular_velocity(self.t),
        ))
    }
}

#[test]
fn benchmark_protocol_counts_steps_accumulates_time_and_shifts_leapfrog_rates() {
    let c = paper();
    let grid = benchmark_step_sizes();
    for leapfrog in [false, true] {
        let mut oracle = Oracle {
            problem: c.clone(),
            body: *c.body(),
            leapfrog,
            dt: 0.0,
            t: 0.0,
        };
        for &dt in &grid[12..] {
            let r = benchmark_errors(&c, &mut oracle, dt).unwrap();
            let n = (1.0 / dt).trunc() as usize;
            assert_eq!(r.steps, n);
            let mut t = 0.0;
            for _ in 0..n {
                t += dt;
            }
            assert_eq!(r.t_final, t);
            assert!(r.t_final <= 1.0 + 1e-12 && r.t_final > 1.0 - dt);
            let expected_time = if leapfrog { t - 0.5 * dt } else { t };
            assert_eq!(r.omega_time, expected_time);
            assert!(r.q_error < 1e-15 && r.omega_error == 0.0, "{r:?}");
        }
    }
    // dt = 0.1: ten steps, T = 0.9999999999999999 < 1.
    let mut euler = DirectEuler::new(*c.body());
    let r = benchmark_errors(&c, &mut euler, 0.1).unwrap();
    assert_eq!(r.steps, 10);
    assert!(r.t_final < 1.0 && r.t_final > 1.0 - 1e-15);
}

#[test]
fn benchmark_measures_direct_euler_at_first_order() {
    let c = paper();
    let mut euler = DirectEuler::new(*c.body());
    let coarse = benchmark_errors(&c, &mut euler, 1e-4).unwrap();
    let fine = benchmark_errors(&c, &mut euler, 5e-5).unwrap();
    // The recorded errors are Eq. (13) of the stepper's final state.
    let (q_error, omega_error) = c
        .errors_at(
            fine.t_final,
            &euler.orientation(),
            fine.t_final,
            &euler.angular_velocity().1,
        )
        .unwrap();
    assert_eq!((fine.q_error, fine.omega_error), (q_error, omega_error));
    assert_eq!(fine.averaged(), 0.5 * (q_error + omega_error));
    for (a, b) in [
        (coarse.q_error, fine.q_error),
        (coarse.omega_error, fine.omega_error),
    ] {
        let order = (a / b).log2();
        assert!((order - 1.0).abs() < 0.1, "order {order}: {a:e} → {b:e}");
    }
    assert!(matches!(
        benchmark_errors(&c, &mut euler, 2.0),
        Err(Error::InvalidParameter { name: "dt", .. })
    ));
    assert!(benchmark_errors(&c, &mut euler, 0.0).is_err());
    assert!(benchmark_errors(&c, &mut euler, f64::NAN).is_err());
}

#[test]
fn lie_ode_generator_is_the_body_frame_kinematics_and_eulers_equations() {
    let mut c = paper();
    assert_eq!(LieOde::<RigidBodyQuatState>::side(&c), Side::Right);
    let q = UnitQuat::from_quaternion_normalized(Quaternion::new(0.3, -0.2, 0.8, 0.4)).unwrap();
    let w = Vector3::new(1.7, -0.4, 2.2);
    let y: RigidBodyQuatState = Product(q, Rn(w));
    let xi = LieOde::<RigidBodyQuatState>::generator(&mut c, 0.3, &y);
    // q ⊗ (0, v) with the su(2) generator v is ½ q ⊗ (0, ω).
    let dq = q.quaternion() * Quaternion::new(0.0, xi.0.0.x, xi.0.0.y, xi.0.0.z);
    let expected = times_pure(q.quaternion(), &w) * 0.5;
    assert!((dq - expected).norm() < 1e-15);
    let tau = Vector3::new(0.5, 0.0, 0.0);
    assert!(close(&xi.1.0, &c.body().angular_acceleration(&w, &tau)) < 1e-15);
    // In dual numbers too (the implicit engines differentiate through it).
    let yd: RigidBodyQuatState<Dual64> = Product(
        UnitQuat::from_quaternion_unchecked(Quaternion::from(
            q.quaternion().coords.map(Dual64::from),
        )),
        Rn(w.map(|x| Dual64::from(x).derivative())),
    );
    let xid = LieOde::<RigidBodyQuatState<Dual64>>::generator(&mut c, Dual64::from(0.3), &yd);
    assert!((xid.1.0.map(|x| x.re) - xi.1.0).amax() < 1e-15);
}

#[test]
fn generic_lie_group_engine_converges_to_the_reference() {
    // RKMK4 on SU(2) × ℝ³ through the LieOde implementation: fourth order against the stored
    // reference rotor and the analytic ω.
    let mut c = paper();
    let reference = c.reference_group_state(1.0).unwrap();
    let mut errors = Vec::new();
    for steps in [400, 800] {
        let mut mk = MuntheKaas::<RigidBodyQuatState>::new(&RK4).unwrap();
        let y0 = c.initial_group_state();
        let sol = integrate(
            &mut Fixed::new(&mut mk),
            &mut c,
            &y0,
            &Span::steps(0.0, 1.0, steps).unwrap(),
            Options::record(Record::Ends),
        )
        .unwrap();
        let (_, y) = sol.last().unwrap();
        let dq = (y.0.quaternion() - reference.0.quaternion()).norm();
        let dw = (y.1.0 - reference.1.0).norm() / reference.1.0.norm();
        errors.push(dq.max(dw));
        assert!((y.0.quaternion().norm() - 1.0).abs() < 1e-14);
    }
    let order = (errors[0] / errors[1]).log2();
    assert!(
        (order - 4.0).abs() < 0.3,
        "order {order}, errors {errors:?}"
    );
    assert!(errors[1] < 1e-5);
    // The identity start is the group identity.
    assert_eq!(c.initial_group_state().0, UnitQuat::identity());
}

#[test]
fn bad_configuration_is_rejected_naming_the_parameter() {
    let base = CylinderParameters::default();
    let cases: [(CylinderParameters, &str, bool); 14] = [
        (
            CylinderParameters {
                density: f64::NAN,
                ..base
            },
            "density",
            true,
        ),
        (
            CylinderParameters {
                density: -7750.0,
                ..base
            },
            "density",
            false,
        ),
        (
            CylinderParameters {
                density: 0.0,
                ..base
            },
            "density",
            false,
        ),
        (
            CylinderParameters {
                radius: f64::INFINITY,
                ..base
            },
            "radius",
            true,
        ),
        (
            CylinderParameters {
                radius: -0.05,
                ..base
            },
            "radius",
            false,
        ),
        (
            CylinderParameters {
                radius: 0.0,
                ..base
            },
            "radius",
            false,
        ),
        (
            CylinderParameters {
                height: f64::NAN,
                ..base
            },
            "height",
            true,
        ),
        (
            CylinderParameters {
                height: -0.15,
                ..base
            },
            "height",
            false,
        ),
        (
            CylinderParameters {
                height: 0.0,
                ..base
            },
            "height",
            false,
        ),
        (
            CylinderParameters {
                torque_x: f64::NEG_INFINITY,
                ..base
            },
            "torque_x",
            true,
        ),
        (
            CylinderParameters {
                omega0: Vector3::new(0.0, f64::NAN, 0.0),
                ..base
            },
            "omega0",
            true,
        ),
        (
            CylinderParameters {
                t_max: f64::NAN,
                ..base
            },
            "t_max",
            true,
        ),
        (CylinderParameters { t_max: 0.0, ..base }, "t_max", false),
        (
            CylinderParameters {
                t_max: -1.0,
                ..base
            },
            "t_max",
            false,
        ),
    ];
    for (parameters, expected, non_finite) in cases {
        match SpiralCylinder::new(parameters) {
            Err(Error::NonFinite { name }) if non_finite => assert_eq!(name, expected),
            Err(Error::InvalidParameter { name, .. }) if !non_finite => {
                assert_eq!(name, expected)
            }
            other => panic!("{expected}: {other:?}"),
        }
    }
    // Zero torque and negative torque are valid configurations.
    assert!(
        SpiralCylinder::new(CylinderParameters {
            torque_x: 0.0,
            ..base
        })
        .is_ok()
    );
    assert!(
        SpiralCylinder::new(CylinderParameters {
            torque_x: -1.0,
            ..base
        })
        .is_ok()
    );
    assert!(paper().integrate_reference(-1.0, 1e-13).is_err());
    assert!(paper().integrate_reference(1.0, -1e-13).is_err());
}
