//! The reference problems of `lieode::problems`: the exact solutions satisfy their ODEs to
//! round-off (derivatives by dual numbers and, independently, by Richardson-extrapolated
//! central differences), quaternion solutions map to the rotation ones and are continuous in
//! sign, the vector fields are fully coupled and time-dependent, dual numbers flow through every
//! generator, and a classical RK4 run in the embedding space converges to the exact solutions
//! with order 4.
//!
//! Run with `--nocapture` to see the measured residuals.

use lieode::Error;
use lieode::body::{RigidBodyQuatState, RigidBodyState};
use lieode::lie::product::Product;
use lieode::lie::rn::Rn;
use lieode::lie::so3::{So3, So3Algebra, hat, vee};
use lieode::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use lieode::lie::{LieAlgebra, LieGroup, Side};
use lieode::ode::{LieOde, VectorOde};

use lieode::problems::{
    LinearSo3, ScalarCurve, SphereProblem, TorquedRigidBody, VectorTestProblem,
};
use nalgebra::{Matrix3, Quaternion, SMatrix, SVector, Vector3, Vector4};
use num_dual::Dual64;

/// Sample times in (and at the ends of) the time span [0, 2].
const TIMES: [f64; 7] = [0.0, 0.3, 0.77, 1.0, 1.25, 1.68, 2.0];

fn dual_t(t: f64) -> Dual64 {
    Dual64::new(t, 1.0)
}

fn eps3(v: &Vector3<Dual64>) -> Vector3<f64> {
    v.map(|x| x.eps)
}

fn re_m(m: &Matrix3<Dual64>) -> Matrix3<f64> {
    m.map(|x| x.re)
}

fn eps_m(m: &Matrix3<Dual64>) -> Matrix3<f64> {
    m.map(|x| x.eps)
}

fn quat_coords(q: &UnitQuat<f64>) -> Vector4<f64> {
    q.quaternion().coords
}

fn flatten(m: &Matrix3<f64>) -> SVector<f64, 9> {
    SVector::<f64, 9>::from_column_slice(m.as_slice())
}

fn unflatten(v: &SVector<f64, 9>) -> Matrix3<f64> {
    Matrix3::from_column_slice(v.as_slice())
}

/// `f'(t)` by central differences with one Richardson extrapolation:
/// `(4 D(h/2) − D(h))/3`, `D(h) = (f(t+h) − f(t−h))/(2h)`, error `O(h⁴) + O(ε/h)`.
fn richardson<const N: usize>(f: impl Fn(f64) -> SVector<f64, N>, t: f64) -> SVector<f64, N> {
    let h = 1e-3;
    let d = |h: f64| (f(t + h) - f(t - h)) / (2.0 * h);
    (d(0.5 * h) * 4.0 - d(h)) / 3.0
}

/// `(0, v) ⊗ q` (Left) or `q ⊗ (0, v)` (Right).
fn su2_velocity(side: Side, v: &Vector3<f64>, q: &Quaternion<f64>) -> Vector4<f64> {
    let p = Quaternion::new(0.0, v.x, v.y, v.z);
    match side {
        Side::Left => (p * q).coords,
        Side::Right => (q * p).coords,
    }
}

/// Lifts an `f64` rotation to dual numbers and perturbs it by `exp(ε v)` on `side`.
fn perturb_so3(y: &So3<f64>, v: &Vector3<f64>, side: Side) -> So3<Dual64> {
    let e = So3::exp(&So3Algebra::new(v.map(|x| Dual64::new(0.0, x))));
    let y = y.cast::<Dual64>();
    match side {
        Side::Left => e.compose(&y),
        Side::Right => y.compose(&e),
    }
}

fn perturb_quat(q: &UnitQuat<f64>, v: &Vector3<f64>, side: Side) -> UnitQuat<Dual64> {
    let e = UnitQuat::exp(&Su2Algebra::new(v.map(|x| Dual64::new(0.0, x))));
    let q = q.cast::<Dual64>();
    match side {
        Side::Left => e.compose(&q),
        Side::Right => q.compose(&e),
    }
}

fn basis(i: usize) -> Vector3<f64> {
    Vector3::from_fn(|k, _| if k == i { 1.0 } else { 0.0 })
}

fn min_abs<const R: usize, const C: usize>(m: &SMatrix<f64, R, C>) -> f64 {
    m.iter().fold(f64::INFINITY, |a, &x| a.min(x.abs()))
}

// ---------------------------------------------------------------------------------------------
// 1. Exact solutions satisfy the ODEs
// ---------------------------------------------------------------------------------------------

#[test]
fn linear_so3_exact_solution_satisfies_the_ode() {
    let mut p = LinearSo3::default();
    let (mut dual_res, mut fd_res, mut skew_res, mut quat_res, mut quat_fd_res) =
        (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for &t in &TIMES {
        let y = p.exact(t);
        assert!((y.matrix().transpose() * y.matrix() - Matrix3::identity()).norm() < 1e-15);
        let xi = LieOde::<So3>::generator(&mut p, t, &y).0;
        assert_eq!(LieOde::<So3>::side(&p), Side::Left);

        // Ẏ by dual numbers on the generic exact formula: Ẏ Y⁻¹ = ξ̂.
        let yd = p.exact_generic(dual_t(t));
        let m = eps_m(yd.matrix()) * re_m(yd.matrix()).transpose();
        skew_res = skew_res.max((m + m.transpose()).norm());
        dual_res = dual_res.max((m - hat(&xi)).norm());

        // Ẏ by Richardson-extrapolated central differences.
        let yfd = unflatten(&richardson(|s| flatten(p.exact(s).matrix()), t));
        fd_res = fd_res.max((yfd * y.matrix().transpose() - hat(&xi)).norm());

        // Quaternions: q̇ = (0, ξ) ⊗ q with ξ = A/2 in su(2) coordinates.
        let q = p.exact_quaternion(t);
        assert_eq!(LieOde::<UnitQuat>::side(&p), Side::Left);
        let v = LieOde::<UnitQuat>::generator(&mut p, t, &q).0;
        assert!((v * 2.0 - xi).norm() < 1e-15);
        let qd = p.exact_quaternion_generic(dual_t(t));
        let qdot = qd.quaternion().coords.map(|x| x.eps);
        let expected = su2_velocity(Side::Left, &v, q.quaternion());
        quat_res = quat_res.max((qdot - expected).norm());
        let qfd = richardson(|s| quat_coords(&p.exact_quaternion(s)), t);
        quat_fd_res = quat_fd_res.max((qfd - expected).norm());
    }
    eprintln!(
        "LinearSo3: |ẎY⁻¹ − ξ̂| dual {dual_res:.2e}, Richardson {fd_res:.2e}; \
         |sym(ẎY⁻¹)| {skew_res:.2e}; |q̇ − (0,ξ)q| dual {quat_res:.2e}, Richardson {quat_fd_res:.2e}"
    );
    assert!(dual_res < 1e-14, "{dual_res:e}");
    assert!(skew_res < 1e-14, "{skew_res:e}");
    assert!(fd_res < 1e-10, "{fd_res:e}");
    assert!(quat_res < 1e-14, "{quat_res:e}");
    assert!(quat_fd_res < 1e-10, "{quat_fd_res:e}");
}

#[test]
fn sphere_exact_solution_satisfies_the_ode() {
    let mut p = SphereProblem::default();
    let x0 = p.initial_point();
    assert!((x0 - p.exact_point(0.0)).norm() == 0.0);
    let (mut dual_res, mut fd_res, mut vel_res, mut group_res) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for &t in &TIMES {
        let x = p.exact_point(t);
        assert!((x.norm() - 1.0).abs() < 1e-15);
        let f = p.omega(t, &x).cross(&x);

        // x*' by dual numbers and by Richardson; the closed-form x*' agrees with both.
        let xd = eps3(&p.exact_point_generic(dual_t(t)));
        let xfd = richardson(|s| p.exact_point(s), t);
        dual_res = dual_res.max((xd - f).norm());
        fd_res = fd_res.max((xfd - f).norm());
        vel_res = vel_res.max((p.exact_velocity_generic(t) - xd).norm());

        // On the group: a rotation y with y x₀ = x*(t) gives d/dt (y x₀) = ξ × (y x₀) = x*'.
        let axis = x0.cross(&x);
        let angle = axis.norm().atan2(x0.dot(&x));
        let y = if axis.norm() > 0.0 {
            So3::from_axis_angle(&axis, angle).unwrap()
        } else {
            So3::identity()
        };
        assert!((p.point_of(&y) - x).norm() < 1e-15);
        let xi = LieOde::<So3>::generator(&mut p, t, &y).0;
        group_res = group_res.max((xi.cross(&p.point_of(&y)) - xd).norm());
        // The rotor of the same rotation: same point, generator ω/2.
        let q = UnitQuat::from_rotation(&y);
        assert!((p.point_of_quaternion(&q) - x).norm() < 1e-15);
        let v = LieOde::<UnitQuat>::generator(&mut p, t, &q).0;
        assert!((v * 2.0 - xi).norm() < 1e-14);
        assert_eq!(LieOde::<So3>::side(&p), Side::Left);
        assert_eq!(LieOde::<UnitQuat>::side(&p), Side::Left);
    }
    eprintln!(
        "SphereProblem: |x*' − ω(t,x*)×x*| dual {dual_res:.2e}, Richardson {fd_res:.2e}; \
         closed-form x*' vs dual {vel_res:.2e}; group generator {group_res:.2e}"
    );
    assert!(dual_res < 1e-14, "{dual_res:e}");
    assert!(vel_res < 1e-15, "{vel_res:e}");
    assert!(group_res < 1e-14, "{group_res:e}");
    assert!(fd_res < 1e-10, "{fd_res:e}");
}

#[test]
fn rigid_body_exact_solution_satisfies_the_ode() {
    let mut p = TorquedRigidBody::default();
    let mut res = [0.0f64; 9];
    for &t in &TIMES {
        let y: RigidBodyState = p.exact(t);
        let r = *y.0.matrix();
        assert!((r.transpose() * r - Matrix3::identity()).norm() < 1e-15);
        let xi = LieOde::<RigidBodyState>::generator(&mut p, t, &y);
        assert_eq!(LieOde::<RigidBodyState>::side(&p), Side::Right);

        // Ṙ and ω̇* by dual numbers on the generic exact formulas.
        let rd = p.exact_rotation_generic(dual_t(t));
        let m = re_m(rd.matrix()).transpose() * eps_m(rd.matrix()); // Rᵀ Ṙ
        res[0] = res[0].max((m + m.transpose()).norm());
        // the closed-form ω* is vee(RᵀṘ) and equals the kinematic generator
        res[1] = res[1].max((vee(&m) - p.exact_angular_velocity(t)).norm());
        res[2] = res[2].max((m - hat(&xi.0.0)).norm());
        // the closed-form ω̇* is dω*/dt and equals the dynamic generator
        let wd = eps3(&p.exact_angular_velocity(dual_t(t)));
        res[3] = res[3].max((wd - p.exact_angular_acceleration(t)).norm());
        res[4] = res[4].max((wd - xi.1.0).norm());

        // Richardson on the same quantities.
        let rfd = unflatten(&richardson(|s| flatten(p.exact(s).0.matrix()), t));
        res[5] = res[5].max((r.transpose() * rfd - hat(&xi.0.0)).norm());
        let wfd = richardson(|s| p.exact(s).1.0, t);
        res[6] = res[6].max((wfd - xi.1.0).norm());

        // Quaternions: q̇ = q ⊗ (0, ω/2), same ω̇.
        let yq: RigidBodyQuatState = p.exact_quaternion(t);
        let xq = LieOde::<RigidBodyQuatState>::generator(&mut p, t, &yq);
        assert_eq!(LieOde::<RigidBodyQuatState>::side(&p), Side::Right);
        assert!((xq.0.0 * 2.0 - xi.0.0).norm() < 1e-15);
        let qd = p.exact_quaternion_generic(dual_t(t));
        let qdot = qd.quaternion().coords.map(|x| x.eps);
        res[7] = res[7].max((qdot - su2_velocity(Side::Right, &xq.0.0, yq.0.quaternion())).norm());
        res[8] = res[8].max((xq.1.0 - xi.1.0).norm());
    }
    eprintln!(
        "TorquedRigidBody: |sym(RᵀṘ)| {:.2e}; |vee(RᵀṘ) − ω*(closed form)| {:.2e}; \
         |RᵀṘ − ω̂| {:.2e}; |dω*/dt − ω̇*(closed form)| {:.2e}; |dω*/dt − ξ_ω| {:.2e}; \
         Richardson: |RᵀṘ − ω̂| {:.2e}, |dω*/dt − ξ_ω| {:.2e}; quaternion |q̇ − q(0,ξ)| {:.2e}, \
         |ξ_ω(q) − ξ_ω(R)| {:.2e}",
        res[0], res[1], res[2], res[3], res[4], res[5], res[6], res[7], res[8]
    );
    for (i, r) in res.iter().enumerate() {
        let tol = if i == 5 || i == 6 { 1e-9 } else { 1e-13 };
        assert!(*r < tol, "residual {i}: {r:e}");
    }
}

#[test]
fn vector_problem_exact_solution_satisfies_the_ode() {
    let mut p = VectorTestProblem::default();
    let (mut dual_res, mut fd_res) = (0.0f64, 0.0f64);
    for &t in &TIMES {
        let f = p.rhs(t, &p.exact(t));
        let xd = eps3(&p.exact_generic(dual_t(t)));
        dual_res = dual_res.max((xd - f).norm());
        let xfd = richardson(|s| p.exact(s), t);
        fd_res = fd_res.max((xfd - f).norm());
        assert!((p.exact_derivative(t) - xd).norm() < 1e-15);
    }
    eprintln!("VectorTestProblem: |x*' − F(x*) − s| dual {dual_res:.2e}, Richardson {fd_res:.2e}");
    assert!(dual_res < 1e-14, "{dual_res:e}");
    assert!(fd_res < 1e-10, "{fd_res:e}");
}

// ---------------------------------------------------------------------------------------------
// 2. Quaternion solutions: the same rotations, continuous in sign
// ---------------------------------------------------------------------------------------------

fn check_quaternion_path(
    name: &str,
    rot: impl Fn(f64) -> Matrix3<f64>,
    quat: impl Fn(f64) -> UnitQuat<f64>,
) {
    let n = 4000;
    let (t0, t1) = (-1.0, 5.0); // beyond the time span: continuity must not depend on it
    let mut max_map = 0.0f64;
    let mut max_norm = 0.0f64;
    let mut max_jump = 0.0f64;
    let mut prev = quat_coords(&quat(t0));
    for k in 0..=n {
        let t = t0 + (t1 - t0) * k as f64 / n as f64;
        let q = quat(t);
        max_map = max_map.max((q.to_rotation_matrix() - rot(t)).norm());
        max_norm = max_norm.max((q.quaternion().norm() - 1.0).abs());
        // Shepperd's conversion gives ±q.
        let back = quat_coords(&UnitQuat::from_rotation(&So3::from_matrix_unchecked(rot(
            t,
        ))));
        let c = quat_coords(&q);
        assert!((back - c).norm().min((back + c).norm()) < 1e-14);
        max_jump = max_jump.max((c - prev).norm());
        prev = c;
    }
    let h = (t1 - t0) / n as f64;
    eprintln!(
        "{name}: |R(q) − R| {max_map:.2e}, ||q| − 1| {max_norm:.2e}, \
         max |q(t+h) − q(t)| = {max_jump:.2e} for h = {h:.1e}"
    );
    assert!(max_map < 1e-14, "{max_map:e}");
    assert!(max_norm < 1e-15, "{max_norm:e}");
    // A sign flip would be a jump of ≈ 2; a smooth path moves by |q̇| h ≲ 2h here.
    assert!(max_jump < 5.0 * h, "{max_jump:e}");
}

#[test]
fn quaternion_solutions_map_to_rotations_and_are_continuous() {
    let p = LinearSo3::default();
    check_quaternion_path(
        "LinearSo3",
        |t| *p.exact(t).matrix(),
        |t| p.exact_quaternion(t),
    );
    let b = TorquedRigidBody::default();
    check_quaternion_path(
        "TorquedRigidBody",
        |t| *b.exact(t).0.matrix(),
        |t| b.exact_quaternion(t).0,
    );
    // The rate factors of both rigid-body states agree.
    for &t in &TIMES {
        assert_eq!(b.exact(t).1, b.exact_quaternion(t).1);
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Full coupling and time dependence
// ---------------------------------------------------------------------------------------------

#[test]
fn linear_so3_generator_does_not_commute_with_itself() {
    let p = LinearSo3::default();
    let (t0, t1) = LinearSo3::TIME_SPAN;
    let mut min_norm = f64::INFINITY;
    let mut max_norm = 0.0f64;
    let a0 = p.angular_velocity(t0);
    let mut max_angle = 0.0f64;
    for k in 0..=200 {
        let t = t0 + (t1 - t0) * k as f64 / 200.0;
        let a = p.angular_velocity(t);
        min_norm = min_norm.min(a.norm());
        max_norm = max_norm.max(a.norm());
        max_angle = max_angle.max(a0.cross(&a).norm().atan2(a0.dot(&a)));
    }
    // [A(t₀), A(t)] = A(t₀) × A(t) is far from zero, and A(t) is time-dependent in every
    // component.
    let mut min_rate = f64::INFINITY;
    for &t in &TIMES {
        let da = eps3(&p.angular_velocity(dual_t(t)));
        min_rate = min_rate.min(da.amax());
    }
    eprintln!(
        "LinearSo3: |A| in [{min_norm:.3}, {max_norm:.3}], direction of A turns by up to \
         {max_angle:.3} rad, min over t of max|dA/dt| {min_rate:.3}"
    );
    assert!(max_angle > 1.0);
    assert!(min_norm > 0.1);
    assert!(min_rate > 0.1);
}

#[test]
fn sphere_field_is_fully_coupled_and_time_dependent() {
    let mut p = SphereProblem::default();
    let x0 = p.initial_point();
    let mut min_entry = f64::INFINITY;
    let mut min_group = f64::INFINITY;
    let mut min_time = f64::INFINITY;
    let mut max_omega = 0.0f64;
    for k in 0..=20 {
        let t = 2.0 * k as f64 / 20.0;
        let x = p.exact_point(t);
        max_omega = max_omega.max(p.omega(t, &x).norm());
        // ∂ω/∂x_j by dual numbers: every entry of the 3×3 Jacobian is non-zero.
        let jac = Matrix3::from_fn(|i, j| {
            let xd = Vector3::from_fn(|k, _| Dual64::new(x[k], if k == j { 1.0 } else { 0.0 }));
            p.omega(Dual64::from(t), &xd)[i].eps
        });
        min_entry = min_entry.min(min_abs(&jac));
        // ∂ω/∂t at fixed x.
        let xt = x.map(Dual64::from);
        min_time = min_time.min(eps3(&p.omega(dual_t(t), &xt)).amax());

        // Through the action: y = exp(εv)·y, so x = y x₀ moves by v × x and
        // ∂ξ/∂v = −DG(x) x̂ (rank 2: rotations about x do not move the point).
        let axis = x0.cross(&x);
        let y = if axis.norm() > 0.0 {
            So3::from_axis_angle(&axis, axis.norm().atan2(x0.dot(&x))).unwrap()
        } else {
            So3::identity()
        };
        let jy = Matrix3::from_columns(&[0, 1, 2].map(|j| {
            let yd = perturb_so3(&y, &basis(j), Side::Left);
            eps3(&LieOde::<So3<Dual64>>::generator(&mut p, Dual64::from(t), &yd).0)
        }));
        assert!((jy + jac * hat(&x)).norm() < 1e-13);
        let sv = jy.singular_values();
        let mut s = [sv[0], sv[1], sv[2]];
        s.sort_by(|a, b| b.total_cmp(a));
        min_group = min_group.min(s[1]);
        assert!(s[2] < 1e-12 * s[0]);
        // Quaternion version: y = exp(εv) q moves x by 2v × x and ξ = ω/2, so the Jacobian
        // in su(2) coordinates is the same matrix.
        let q = UnitQuat::from_rotation(&y);
        let jq = Matrix3::from_columns(&[0, 1, 2].map(|j| {
            let qd = perturb_quat(&q, &basis(j), Side::Left);
            eps3(&LieOde::<UnitQuat<Dual64>>::generator(&mut p, Dual64::from(t), &qd).0)
        }));
        assert!((jq - jy).norm() < 1e-13);
    }
    eprintln!(
        "SphereProblem: min |∂ω_i/∂x_j| {min_entry:.3e}, min second singular value of ∂ξ/∂y \
         {min_group:.3e}, min max|∂ω/∂t| {min_time:.3e}, max |ω| {max_omega:.3}"
    );
    assert!(min_entry > 1e-3, "{min_entry:e}");
    assert!(min_group > 1e-2, "{min_group:e}");
    assert!(min_time > 1e-2, "{min_time:e}");
}

/// The 6×6 Jacobian of the rigid-body generator with respect to `(v, u)`, where
/// `R ↦ R exp(εv)` and `ω ↦ ω + εu`, in the order (ξ_R, ξ_ω) × (v, u).
fn rigid_body_jacobian(p: &mut TorquedRigidBody, t: f64, y: &RigidBodyState) -> SMatrix<f64, 6, 6> {
    let mut jac = SMatrix::<f64, 6, 6>::zeros();
    for j in 0..6 {
        let (v, u) = if j < 3 {
            (basis(j), Vector3::zeros())
        } else {
            (Vector3::zeros(), basis(j - 3))
        };
        let r = perturb_so3(&y.0, &v, Side::Right);
        let w = y.1.0.zip_map(&u, Dual64::new);
        let yd: RigidBodyState<Dual64> = Product(r, Rn(w));
        let xi = LieOde::<RigidBodyState<Dual64>>::generator(p, Dual64::from(t), &yd);
        let col = xi.to_coords().map(|x| x.eps);
        jac.set_column(j, &col);
    }
    jac
}

fn rigid_body_quat_jacobian(
    p: &mut TorquedRigidBody,
    t: f64,
    y: &RigidBodyQuatState,
) -> SMatrix<f64, 6, 6> {
    let mut jac = SMatrix::<f64, 6, 6>::zeros();
    for j in 0..6 {
        let (v, u) = if j < 3 {
            (basis(j), Vector3::zeros())
        } else {
            (Vector3::zeros(), basis(j - 3))
        };
        let q = perturb_quat(&y.0, &v, Side::Right);
        let w = y.1.0.zip_map(&u, Dual64::new);
        let yd: RigidBodyQuatState<Dual64> = Product(q, Rn(w));
        let xi = LieOde::<RigidBodyQuatState<Dual64>>::generator(p, Dual64::from(t), &yd);
        jac.set_column(j, &xi.to_coords().map(|x| x.eps));
    }
    jac
}

#[test]
fn rigid_body_generator_is_fully_coupled_and_time_dependent() {
    let mut p = TorquedRigidBody::default();
    let (mut min_wr, mut min_ww, mut min_time) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
    let (mut min_wr_norm, mut min_ww_norm) = (f64::INFINITY, f64::INFINITY);
    let (mut max_wr_norm, mut max_ww_norm) = (0.0f64, 0.0f64);
    // Entrywise maxima over time: no entry of either block is identically zero.
    let (mut max_wr, mut max_ww) = (Matrix3::<f64>::zeros(), Matrix3::<f64>::zeros());
    let mut max_w = 0.0f64;
    for k in 0..=20 {
        let t = 2.0 * k as f64 / 20.0;
        let y = p.exact(t);
        max_w = max_w.max(y.1.0.norm());
        let jac = rigid_body_jacobian(&mut p, t, &y);
        let rr: Matrix3<f64> = jac.fixed_view::<3, 3>(0, 0).into_owned();
        let rw: Matrix3<f64> = jac.fixed_view::<3, 3>(0, 3).into_owned();
        let wr: Matrix3<f64> = jac.fixed_view::<3, 3>(3, 0).into_owned();
        let ww: Matrix3<f64> = jac.fixed_view::<3, 3>(3, 3).into_owned();
        // Kinematics: ξ_R = ω.
        assert_eq!(rr, Matrix3::zeros());
        assert_eq!(rw, Matrix3::identity());
        // Dynamics: ∂ω̇/∂R and ∂ω̇/∂ω are never small; single entries such as
        // (∂ω̇/∂R)_{ij} ∝ (Rᵀf)_i χ_j pass through zero at isolated times only.
        min_wr = min_wr.min(min_abs(&wr));
        min_ww = min_ww.min(min_abs(&ww));
        min_wr_norm = min_wr_norm.min(wr.norm());
        min_ww_norm = min_ww_norm.min(ww.norm());
        max_wr_norm = max_wr_norm.max(wr.norm());
        max_ww_norm = max_ww_norm.max(ww.norm());
        max_wr = max_wr.zip_map(&wr, |a, b| a.max(b.abs()));
        max_ww = max_ww.zip_map(&ww, |a, b| a.max(b.abs()));
        // Closed form of the blocks: ∂ω̇/∂v = J⁻¹ χ̂ (Rᵀf)^,
        // ∂ω̇/∂ω = J⁻¹(−c I − ω̂ J + (Jω)^).
        let jinv = Matrix3::from_diagonal(&p.inertia().map(|j| 1.0 / j));
        let g = y.0.matrix().transpose() * p.lab_force();
        let wr_closed = jinv * hat(&p.offset()) * hat(&g);
        let jm = Matrix3::from_diagonal(&p.inertia());
        let w = y.1.0;
        let ww_closed = jinv * (-Matrix3::identity() * p.damping() - hat(&w) * jm + hat(&(jm * w)));
        assert!((wr - wr_closed).norm() < 1e-13);
        assert!((ww - ww_closed).norm() < 1e-13);

        // The quaternion formulation: v ∈ su(2) rotates by 2v, and ξ_q = ω/2.
        let yq = p.exact_quaternion(t);
        let jq = rigid_body_quat_jacobian(&mut p, t, &yq);
        let mut scaled = jac;
        scaled.fixed_view_mut::<3, 3>(0, 3).scale_mut(0.5);
        scaled.fixed_view_mut::<3, 3>(3, 0).scale_mut(2.0);
        assert!((jq - scaled).norm() < 1e-12, "{:e}", (jq - scaled).norm());

        // Time dependence at a fixed state.
        let yd: RigidBodyState<Dual64> = y.cast();
        let xi = LieOde::<RigidBodyState<Dual64>>::generator(&mut p, dual_t(t), &yd);
        min_time = min_time.min(eps3(&xi.1.0).amax());
    }
    eprintln!(
        "TorquedRigidBody: ‖∂ω̇/∂R‖ in [{min_wr_norm:.3}, {max_wr_norm:.3}], \
         ‖∂ω̇/∂ω‖ in [{min_ww_norm:.3}, {max_ww_norm:.3}], \
         min_ij max_t |∂ω̇_i/∂R_j| {:.3}, min_ij max_t |∂ω̇_i/∂ω_j| {:.3}, \
         min_t,ij |∂ω̇_i/∂R_j| {min_wr:.3e}, min_t,ij |∂ω̇_i/∂ω_j| {min_ww:.3e}, \
         min_t max|∂ω̇/∂t| {min_time:.3}, max |ω*| {max_w:.3}",
        min_abs(&max_wr),
        min_abs(&max_ww)
    );
    assert!(min_wr_norm > 0.5, "{min_wr_norm:e}");
    assert!(min_ww_norm > 0.1, "{min_ww_norm:e}");
    assert!(min_abs(&max_wr) > 0.05, "{max_wr}");
    assert!(min_abs(&max_ww) > 0.05, "{max_ww}");
    assert!(min_time > 1e-2, "{min_time:e}");
}

#[test]
fn vector_field_is_fully_coupled_and_time_dependent() {
    let mut p = VectorTestProblem::default();
    let (mut min_entry, mut min_time) = (f64::INFINITY, f64::INFINITY);
    let mut max_jac = 0.0f64;
    for k in 0..=20 {
        let t = 2.0 * k as f64 / 20.0;
        let x = p.exact(t);
        let jac = Matrix3::from_columns(&[0, 1, 2].map(|j| {
            let xd = x.zip_map(&basis(j), Dual64::new);
            eps3(&VectorOde::<Dual64, 3>::rhs(&mut p, Dual64::from(t), &xd))
        }));
        min_entry = min_entry.min(min_abs(&jac));
        max_jac = max_jac.max(jac.norm());
        let xt = x.map(Dual64::from);
        min_time = min_time.min(eps3(&VectorOde::<Dual64, 3>::rhs(&mut p, dual_t(t), &xt)).amax());
    }
    eprintln!(
        "VectorTestProblem: min |∂F_i/∂x_j| {min_entry:.3e}, max ‖∂F/∂x‖_F {max_jac:.3}, \
         min max|∂f/∂t| {min_time:.3e}"
    );
    assert!(min_entry > 1e-3, "{min_entry:e}");
    assert!(min_time > 1e-2, "{min_time:e}");
}

// ---------------------------------------------------------------------------------------------
// 4. Dual numbers flow through every generator
// ---------------------------------------------------------------------------------------------

#[test]
fn dual_evaluation_of_every_generator_is_finite() {
    let mut lin = LinearSo3::default();
    let mut sph = SphereProblem::default();
    let mut body = TorquedRigidBody::default();
    let mut vec = VectorTestProblem::default();
    // States on and off the exact solutions, including the identity and ω = 0.
    let rotations = [
        So3::identity(),
        So3::exp(&So3Algebra::new(Vector3::new(0.3, -1.2, 2.0))),
        So3::exp(&So3Algebra::new(Vector3::new(
            0.0,
            0.0,
            std::f64::consts::PI,
        ))),
    ];
    let rates = [Vector3::zeros(), Vector3::new(1.5, -0.4, 2.2)];
    let dirs = [Vector3::new(0.3, -0.7, 0.2), Vector3::new(-1.1, 0.4, 0.9)];
    let finite = |v: Vector3<Dual64>| v.iter().all(|x| x.re.is_finite() && x.eps.is_finite());
    let mut count = 0;
    for &t in &TIMES {
        for r in &rotations {
            let q = UnitQuat::from_rotation(r);
            for d in &dirs {
                for side in [Side::Left, Side::Right] {
                    let td = Dual64::new(t, d.x);
                    let rd = perturb_so3(r, d, side);
                    let qd = perturb_quat(&q, d, side);
                    assert!(finite(
                        LieOde::<So3<Dual64>>::generator(&mut lin, td, &rd).0
                    ));
                    assert!(finite(
                        LieOde::<UnitQuat<Dual64>>::generator(&mut lin, td, &qd).0
                    ));
                    assert!(finite(
                        LieOde::<So3<Dual64>>::generator(&mut sph, td, &rd).0
                    ));
                    assert!(finite(
                        LieOde::<UnitQuat<Dual64>>::generator(&mut sph, td, &qd).0
                    ));
                    for w in &rates {
                        let wd = w.zip_map(d, Dual64::new);
                        let y: RigidBodyState<Dual64> = Product(rd, Rn(wd));
                        let xi = LieOde::<RigidBodyState<Dual64>>::generator(&mut body, td, &y);
                        assert!(finite(xi.0.0) && finite(xi.1.0));
                        let y: RigidBodyQuatState<Dual64> = Product(qd, Rn(wd));
                        let xi = LieOde::<RigidBodyQuatState<Dual64>>::generator(&mut body, td, &y);
                        assert!(finite(xi.0.0) && finite(xi.1.0));
                        let xd = w.zip_map(d, Dual64::new);
                        assert!(finite(VectorOde::<Dual64, 3>::rhs(&mut vec, td, &xd)));
                        count += 6;
                    }
                }
            }
        }
    }
    eprintln!("dual evaluations checked: {count}");
    // The exact solutions too.
    for &t in &TIMES {
        let td = dual_t(t);
        assert!(
            lin.exact_generic(td)
                .matrix()
                .iter()
                .all(|x| x.eps.is_finite())
        );
        assert!(finite(sph.exact_point_generic(td)));
        assert!(finite(body.exact_angular_acceleration(td)));
        assert!(finite(vec.exact_generic(td)));
    }
}

// ---------------------------------------------------------------------------------------------
// 5. End to end: classical RK4 in the embedding converges to the exact solutions at order 4
// ---------------------------------------------------------------------------------------------

fn rk4<const N: usize>(
    f: &mut impl FnMut(f64, &SVector<f64, N>) -> SVector<f64, N>,
    y0: SVector<f64, N>,
    (t0, t1): (f64, f64),
    n: usize,
) -> SVector<f64, N> {
    let h = (t1 - t0) / n as f64;
    let mut y = y0;
    for k in 0..n {
        let t = t0 + h * k as f64;
        let k1 = f(t, &y);
        let k2 = f(t + 0.5 * h, &(y + k1 * (0.5 * h)));
        let k3 = f(t + 0.5 * h, &(y + k2 * (0.5 * h)));
        let k4 = f(t + h, &(y + k3 * h));
        y += (k1 + k2 * 2.0 + k3 * 2.0 + k4) * (h / 6.0);
    }
    y
}

fn fmt_errs(errs: &[f64]) -> String {
    errs.iter()
        .map(|e| format!("{e:.2e}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Errors at `N = 20, 40, 80, 160` and `N = 2000`; returns the least-squares slope of
/// `log err` against `log h` and the fine-grid error.
fn rk4_study<const N: usize>(
    mut f: impl FnMut(f64, &SVector<f64, N>) -> SVector<f64, N>,
    y0: SVector<f64, N>,
    span: (f64, f64),
    error: impl Fn(&SVector<f64, N>) -> f64,
) -> (f64, f64, Vec<f64>) {
    let ns = [20usize, 40, 80, 160];
    let errs: Vec<f64> = ns
        .iter()
        .map(|&n| error(&rk4(&mut f, y0, span, n)))
        .collect();
    let xs: Vec<f64> = ns.iter().map(|&n| (1.0 / n as f64).ln()).collect();
    let ys: Vec<f64> = errs.iter().map(|e| e.ln()).collect();
    let (mx, my) = (xs.iter().sum::<f64>() / 4.0, ys.iter().sum::<f64>() / 4.0);
    let slope = xs
        .iter()
        .zip(&ys)
        .map(|(x, y)| (x - mx) * (y - my))
        .sum::<f64>()
        / xs.iter().map(|x| (x - mx) * (x - mx)).sum::<f64>();
    let fine = error(&rk4(&mut f, y0, span, 2000));
    (slope, fine, errs)
}

#[test]
fn rk4_in_the_embedding_converges_to_the_exact_solutions() {
    // LinearSo3: Ẏ = Â(t) Y on 3×3 matrices.
    let p = LinearSo3::default();
    let span = LinearSo3::TIME_SPAN;
    let exact = *p.exact(span.1).matrix();
    let (slope, fine, errs) = rk4_study(
        |t, y: &SVector<f64, 9>| flatten(&(hat(&p.angular_velocity(t)) * unflatten(y))),
        flatten(p.exact(span.0).matrix()),
        span,
        |y| (unflatten(y) - exact).norm(),
    );
    eprintln!(
        "RK4 LinearSo3: errors {}, slope {slope:.3}, N = 2000: {fine:.2e}",
        fmt_errs(&errs)
    );
    assert!((slope - 4.0).abs() < 0.2 && fine < 1e-11);

    // Sphere: x' = ω(t, x) × x in ℝ³.
    let s = SphereProblem::default();
    let span = SphereProblem::TIME_SPAN;
    let exact = s.exact_point(span.1);
    let (slope, fine, errs) = rk4_study(
        |t, x: &SVector<f64, 3>| s.omega(t, x).cross(x),
        s.initial_point(),
        span,
        |x| (x - exact).norm(),
    );
    eprintln!(
        "RK4 SphereProblem: errors {}, slope {slope:.3}, N = 2000: {fine:.2e}",
        fmt_errs(&errs)
    );
    assert!((slope - 4.0).abs() < 0.2 && fine < 1e-11);

    // Rigid body: Ṙ = R ω̂, ω̇ = J⁻¹(τ − ω × Jω) in ℝ⁹ × ℝ³.
    let b = TorquedRigidBody::default();
    let span = TorquedRigidBody::TIME_SPAN;
    let split = |y: &SVector<f64, 12>| {
        let r = Matrix3::from_column_slice(&y.as_slice()[..9]);
        let w = Vector3::from_column_slice(&y.as_slice()[9..]);
        (r, w)
    };
    let join = |r: &Matrix3<f64>, w: &Vector3<f64>| {
        SVector::<f64, 12>::from_iterator(r.iter().chain(w.iter()).copied())
    };
    let e = b.exact(span.1);
    let y0 = b.exact(span.0);
    let (slope, fine, errs) = rk4_study(
        |t, y: &SVector<f64, 12>| {
            let (r, w) = split(y);
            join(&(r * hat(&w)), &b.angular_acceleration(t, &r, &w))
        },
        join(y0.0.matrix(), &y0.1.0),
        span,
        |y| {
            let (r, w) = split(y);
            (r - e.0.matrix()).norm() + (w - e.1.0).norm()
        },
    );
    eprintln!(
        "RK4 TorquedRigidBody: errors {}, slope {slope:.3}, N = 2000: {fine:.2e}",
        fmt_errs(&errs)
    );
    assert!((slope - 4.0).abs() < 0.2 && fine < 1e-10);

    // Vector problem.
    let mut v = VectorTestProblem::default();
    let span = VectorTestProblem::TIME_SPAN;
    let exact = v.exact(span.1);
    let x0 = v.exact(span.0);
    let (slope, fine, errs) = rk4_study(
        |t, x: &SVector<f64, 3>| v.rhs(t, x),
        x0,
        span,
        |x| (x - exact).norm(),
    );
    eprintln!(
        "RK4 VectorTestProblem: errors {}, slope {slope:.3}, N = 2000: {fine:.2e}",
        fmt_errs(&errs)
    );
    assert!((slope - 4.0).abs() < 0.2 && fine < 1e-11);
}

// ---------------------------------------------------------------------------------------------
// 6. Constructors and bad input
// ---------------------------------------------------------------------------------------------

#[test]
fn constructors_validate_their_input() {
    let ok = ScalarCurve::new(0.1, 0.2, 0.3, 0.4, 0.5, 0.6);
    let nan = ScalarCurve::new(0.1, f64::NAN, 0.3, 0.4, 0.5, 0.6);
    assert!(LinearSo3::new(ok, ok, ok).is_ok());
    assert_eq!(
        LinearSo3::new(ok, nan, ok).unwrap_err(),
        Error::NonFinite { name: "beta" }
    );
    assert_eq!(
        SphereProblem::new(nan, ok).unwrap_err(),
        Error::NonFinite { name: "azimuth" }
    );
    assert_eq!(
        VectorTestProblem::new([ok, ok, nan]).unwrap_err(),
        Error::NonFinite { name: "components" }
    );
    let d = TorquedRigidBody::default();
    assert_eq!(
        TorquedRigidBody::new(d.inertia(), d.offset(), d.lab_force(), d.damping()).unwrap(),
        d
    );
    assert_eq!(
        TorquedRigidBody::new(Vector3::new(1.0, 0.0, 2.0), d.offset(), d.lab_force(), 0.1)
            .unwrap_err(),
        Error::InvalidParameter {
            name: "inertia",
            value: "(1, 0, 2)".into(),
            expected: "three positive principal moments".into(),
        }
    );
    assert_eq!(
        TorquedRigidBody::new(d.inertia(), d.offset(), d.lab_force(), -1.0).unwrap_err(),
        Error::InvalidParameter {
            name: "damping",
            value: "-1".into(),
            expected: "a value ≥ 0".into(),
        }
    );
    assert_eq!(
        TorquedRigidBody::new(
            d.inertia(),
            Vector3::new(f64::INFINITY, 0.0, 0.0),
            d.lab_force(),
            0.1
        )
        .unwrap_err(),
        Error::NonFinite { name: "offset" }
    );
    assert_eq!(
        d.with_attitude(ok, ok, nan).unwrap_err(),
        Error::NonFinite { name: "roll" }
    );

    // Non-default parameters keep the solution exact (manufactured for any parameters).
    let mut b = TorquedRigidBody::new(
        Vector3::new(3.0, 1.0, 0.5),
        Vector3::new(-0.1, 0.3, 0.05),
        Vector3::new(1.0, -2.0, -5.0),
        0.0,
    )
    .unwrap()
    .with_attitude(ok, ok, ScalarCurve::new(0.0, 2.0, 0.0, 0.0, 0.0, 0.0))
    .unwrap();
    for &t in &TIMES {
        let y = b.exact(t);
        let xi = LieOde::<RigidBodyState>::generator(&mut b, t, &y);
        let wd = eps3(&b.exact_angular_velocity(dual_t(t)));
        assert!((xi.1.0 - wd).norm() < 1e-13);
    }
    let mut s = SphereProblem::new(ok, ScalarCurve::new(0.5, 0.3, 0.0, 0.0, 0.0, 0.0)).unwrap();
    for &t in &TIMES {
        let x = s.exact_point(t);
        let xd = eps3(&s.exact_point_generic(dual_t(t)));
        assert!((s.omega(t, &x).cross(&x) - xd).norm() < 1e-14);
        let _ = LieOde::<So3>::generator(&mut s, t, &So3::identity());
    }
}
