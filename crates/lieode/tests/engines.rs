//! Engine behaviour that needs no reference solution: the Euclidean reduction, compositions and
//! adjoints, time symmetry, statistics and bad input.

use lieode::Error;
use lieode::engine::Fixed;
use lieode::engine::{
    Adjoint, CommutatorFree, Composition, ExplicitRk, FixedPoint, ImplicitMuntheKaas, ImplicitRk,
    LieOde, LieOdeFn, Method, MuntheKaas, Newton, Stats, Step, SymmetricComposition,
};
use lieode::integrate::{Options, Record, integrate};
use lieode::lie::product::{Product, ProductAlgebra};
use lieode::lie::rn::Rn;
use lieode::lie::so3::{So3, So3Algebra};
use lieode::lie::{LieGroup, Real, Side};
use lieode::stepper::Span;
use lieode::tableau::ButcherTableau;
use lieode::tableau::registry::{
    BACKWARD_EULER, CF4, CG3, CG4A, DOPRI5, EULER, GAUSS4, IMPLICIT_MIDPOINT, RK4, TRAPEZOID,
};
use nalgebra::{Matrix3, Vector3};
use num_dual::Dual64;

/// A fully coupled, time-dependent vector field on ℝ³ (generic so dual numbers flow through).
fn coupled<T: Real>(t: T, x: &Vector3<T>) -> Vector3<T> {
    Vector3::new(
        x.y.sin() + t * x.z,
        (x.x * x.z).cos() - x.y,
        x.x * x.y + t.cos(),
    )
}

#[derive(Clone, Copy)]
struct Coupled;
impl<T: Real> lieode::engine::VectorOde<T, 3> for Coupled {
    fn rhs(&mut self, t: T, x: &Vector3<T>) -> Vector3<T> {
        coupled(t, x)
    }
}

/// The same field as a Lie-group ODE on the abelian group ℝ³.
struct CoupledOnR3(Side);
impl<T: Real> LieOde<Rn<3, T>> for CoupledOnR3 {
    fn side(&self) -> Side {
        self.0
    }
    fn generator(&mut self, t: T, y: &Rn<3, T>) -> Rn<3, T> {
        Rn(coupled(t, &y.0))
    }
}

fn run_vector<M: Step<Coupled, State = Vector3<f64>, Scalar = f64>>(
    m: &mut M,
    steps: usize,
) -> Vector3<f64> {
    integrate(
        &mut Fixed::new(m),
        &mut Coupled,
        &Vector3::new(0.3, -0.2, 0.8),
        &Span::steps(0.0, 1.0, steps).unwrap(),
        Options::record(Record::Ends),
    )
    .unwrap()
    .states[1]
}

fn run_group<M: Step<CoupledOnR3, State = Rn<3>, Scalar = f64>>(
    m: &mut M,
    side: Side,
    steps: usize,
) -> Vector3<f64> {
    integrate(
        &mut Fixed::new(m),
        &mut CoupledOnR3(side),
        &Rn(Vector3::new(0.3, -0.2, 0.8)),
        &Span::steps(0.0, 1.0, steps).unwrap(),
        Options::record(Record::Ends),
    )
    .unwrap()
    .states[1]
        .0
}

#[test]
fn lie_engines_reduce_to_the_classical_method_on_rn() {
    for tableau in [&EULER, &RK4, &DOPRI5, &CG3, &CG4A] {
        let classical = run_vector(&mut ExplicitRk::<f64, 3>::new(tableau).unwrap(), 20);
        for side in [Side::Left, Side::Right] {
            let mk = run_group(&mut MuntheKaas::<Rn<3>>::new(tableau).unwrap(), side, 20);
            assert!(
                (mk - classical).norm() < 1e-14,
                "MK {} on ℝ³: {:e}",
                tableau.name,
                (mk - classical).norm()
            );
            let cg = run_group(
                &mut CommutatorFree::<Rn<3>>::crouch_grossman_unverified(tableau).unwrap(),
                side,
                20,
            );
            assert!((cg - classical).norm() < 1e-14, "CG {} on ℝ³", tableau.name);
        }
    }
    let classical = run_vector(&mut ExplicitRk::<f64, 3>::new(&CF4).unwrap(), 20);
    let cf = run_group(
        &mut CommutatorFree::<Rn<3>>::new(&CF4).unwrap(),
        Side::Left,
        20,
    );
    assert!((cf - classical).norm() < 1e-14, "CF4 on ℝ³");
    for tableau in [&BACKWARD_EULER, &IMPLICIT_MIDPOINT, &TRAPEZOID, &GAUSS4] {
        let classical = run_vector(&mut ImplicitRk::<f64, 3, Newton>::new(tableau).unwrap(), 20);
        let fixed = run_vector(
            &mut ImplicitRk::<f64, 3, FixedPoint>::new(tableau).unwrap(),
            20,
        );
        assert!(
            (fixed - classical).norm() < 1e-13,
            "{} Newton vs fixed point",
            tableau.name
        );
        for side in [Side::Left, Side::Right] {
            let mk = run_group(
                &mut ImplicitMuntheKaas::<Rn<3>, Newton>::new(tableau).unwrap(),
                side,
                20,
            );
            assert!(
                (mk - classical).norm() < 1e-13,
                "implicit MK {} on ℝ³",
                tableau.name
            );
        }
    }
}

/// One step of `method` on [`Coupled`] from `x0` at `t = 0.1`.
fn one_step<M: Step<Coupled, State = Vector3<f64>, Scalar = f64>>(
    method: &mut M,
    x0: &Vector3<f64>,
    h: f64,
) -> Vector3<f64> {
    method
        .step(&mut Coupled, 0.1, x0, h, &mut Stats::default())
        .unwrap()
        .state
}

#[test]
fn adjoint_of_explicit_euler_is_implicit_euler_and_strang_is_the_midpoint_rule() {
    let x0 = Vector3::new(0.3, -0.2, 0.8);
    let h = 0.05;
    let mut adjoint = Adjoint::new(ExplicitRk::<f64, 3>::new(&EULER).unwrap()).unwrap();
    let a = one_step(&mut adjoint, &x0, h);
    let mut be = ImplicitRk::<f64, 3, Newton>::new(&BACKWARD_EULER).unwrap();
    let b = one_step(&mut be, &x0, h);
    assert!(
        (a - b).norm() < 1e-14,
        "adjoint(fE) = bE: {:e}",
        (a - b).norm()
    );
    // Φ_{h/2} ∘ Φ*_{h/2} with Φ = explicit Euler is the implicit midpoint rule.
    let mut strang = Composition::strang(ExplicitRk::<f64, 3>::new(&EULER).unwrap()).unwrap();
    assert_eq!(strang.order(), 2);
    let s = one_step(&mut strang, &x0, h);
    let mut mid = ImplicitRk::<f64, 3, Newton>::new(&IMPLICIT_MIDPOINT).unwrap();
    let m = one_step(&mut mid, &x0, h);
    assert!(
        (s - m).norm() < 1e-14,
        "Strang(fE) = implicit midpoint: {:e}",
        (s - m).norm()
    );
    // The other order, Φ*_{h/2} ∘ Φ_{h/2}, is the trapezoidal rule.
    let mut other = Composition::new(
        ExplicitRk::<f64, 3>::new(&EULER).unwrap(),
        0.5,
        Adjoint::new(ExplicitRk::<f64, 3>::new(&EULER).unwrap()).unwrap(),
        0.5,
    )
    .unwrap();
    let o = one_step(&mut other, &x0, h);
    let mut trap = ImplicitRk::<f64, 3, Newton>::new(&TRAPEZOID).unwrap();
    let tr = one_step(&mut trap, &x0, h);
    assert!(
        (o - tr).norm() < 1e-14,
        "fE then bE = trapezoid: {:e}",
        (o - tr).norm()
    );
}

/// A rigid body with attitude-dependent torque on SO(3) × ℝ³, body angular velocity, generic
/// over the scalar for Newton's dual Jacobian.
struct HeavyBody;
impl<T: Real> LieOde<Product<So3<T>, Rn<3, T>>> for HeavyBody {
    fn side(&self) -> Side {
        Side::Right
    }
    fn generator(
        &mut self,
        t: T,
        y: &Product<So3<T>, Rn<3, T>>,
    ) -> ProductAlgebra<So3Algebra<T>, Rn<3, T>> {
        let c = |x: f64| nalgebra::convert::<f64, T>(x);
        let j = Vector3::new(c(1.0), c(2.0), c(2.5));
        let w = y.1.0;
        let chi = Vector3::new(c(0.1), c(-0.2), c(0.3));
        let gravity = y.0.matrix().transpose() * Vector3::new(T::zero(), T::zero(), c(-9.81));
        let torque = chi.cross(&gravity) + Vector3::new(t.sin(), T::zero(), T::zero());
        let jw = w.component_mul(&j);
        let wdot = (torque - w.cross(&jw)).component_div(&j);
        ProductAlgebra(So3Algebra::new(w), Rn(wdot))
    }
}

#[test]
fn implicit_midpoint_munthe_kaas_is_time_symmetric() {
    let y0 = Product(
        So3::exp(&So3Algebra::new(Vector3::new(0.4, -0.3, 1.1))),
        Rn(Vector3::new(1.0, -2.0, 0.5)),
    );
    let h = 0.05;
    let mut stats = Stats::default();
    let mut newton =
        ImplicitMuntheKaas::<Product<So3, Rn<3>>, Newton>::new(&IMPLICIT_MIDPOINT).unwrap();
    let y1 = newton
        .step(&mut HeavyBody, 0.2, &y0, h, &mut stats)
        .unwrap()
        .state;
    let back = newton
        .step(&mut HeavyBody, 0.2 + h, &y1, -h, &mut stats)
        .unwrap()
        .state;
    let gap = back.distance(&y0).unwrap();
    assert!(gap < 1e-13, "forward then backward: {gap:e}");
    assert!(y1.distance(&y0).unwrap() > 1e-2, "the step moved");
    let mut fixed =
        ImplicitMuntheKaas::<Product<So3, Rn<3>>, FixedPoint>::new(&IMPLICIT_MIDPOINT).unwrap();
    let y1f = fixed
        .step(&mut HeavyBody, 0.2, &y0, h, &mut stats)
        .unwrap()
        .state;
    assert!(
        y1f.distance(&y1).unwrap() < 1e-13,
        "fixed point agrees with Newton"
    );
    assert!(stats.jacobian_evaluations == 2 && stats.lu_decompositions == 2);
}

#[test]
fn the_driver_counts_evaluations() {
    let mut rk4 = ExplicitRk::<f64, 3>::new(&RK4).unwrap();
    let sol = integrate(
        &mut Fixed::new(&mut rk4),
        &mut Coupled,
        &Vector3::zeros(),
        &Span::steps(0.0, 1.0, 25).unwrap(),
        Options::record(Record::Every(5)),
    )
    .unwrap();
    assert_eq!(sol.stats.rhs_evaluations, 100);
    assert_eq!(sol.stats.steps, 25);
    assert_eq!(sol.times.len(), 6);
    assert_eq!(*sol.times.last().unwrap(), 1.0);
    // FSAL: DOPRI5 evaluates 6 new stages per step after the first.
    let mut dp = ExplicitRk::<f64, 3>::new(&DOPRI5).unwrap();
    let sol = integrate(
        &mut Fixed::new(&mut dp),
        &mut Coupled,
        &Vector3::zeros(),
        &Span::steps(0.0, 1.0, 10).unwrap(),
        Options::record(Record::Ends),
    )
    .unwrap();
    assert_eq!(sol.stats.rhs_evaluations, 7 + 9 * 6);
}

#[test]
fn bad_input_gives_named_errors() {
    let mut rk4 = ExplicitRk::<f64, 3>::new(&RK4).unwrap();
    let mut stats = Stats::default();
    let err = rk4
        .step(&mut Coupled, 0.0, &Vector3::zeros(), f64::NAN, &mut stats)
        .unwrap_err();
    assert!(matches!(err, Error::NonFinite { name: "h" }), "{err}");
    let mut nan_field = |_t: f64, _x: &Vector3<f64>| Vector3::new(0.0, f64::NAN, 0.0);
    let err = rk4
        .step(&mut nan_field, 0.5, &Vector3::zeros(), 0.1, &mut stats)
        .unwrap_err();
    assert_eq!(
        err,
        Error::NonFiniteState {
            what: "right-hand side",
            t: 0.5
        }
    );
    assert_eq!(err.to_string(), "non-finite right-hand side at t = 5e-1");
    let mut nan_generator =
        LieOdeFn::left(|_t: f64, _r: &So3| So3Algebra::new(Vector3::new(f64::INFINITY, 0.0, 0.0)));
    let mut mk = MuntheKaas::<So3>::new(&RK4).unwrap();
    let err = mk
        .step(&mut nan_generator, 0.0, &So3::identity(), 0.1, &mut stats)
        .unwrap_err();
    assert!(matches!(
        err,
        Error::NonFiniteState {
            what: "generator",
            ..
        }
    ));
    // Implicit tableaux are refused by explicit engines, classical ones by Crouch–Grossman.
    assert!(matches!(
        MuntheKaas::<So3>::new(&GAUSS4),
        Err(Error::InvalidTableau { .. })
    ));
    assert!(matches!(
        ExplicitRk::<f64, 3>::new(&BACKWARD_EULER),
        Err(Error::InvalidTableau { .. })
    ));
    let err = CommutatorFree::<So3>::crouch_grossman(&RK4).unwrap_err();
    assert!(
        matches!(err, Error::InvalidTableau { .. }) && err.to_string().contains("Crouch–Grossman"),
        "{err}"
    );
    // A user tableau with a bad row sum.
    let bad = ButcherTableau::new(
        "bad",
        vec![vec![0.0, 0.0], vec![0.6, 0.0]],
        vec![0.5, 0.5],
        vec![0.0, 0.5],
        2,
    );
    assert!(matches!(bad, Err(Error::InvalidTableau { .. })));
    // Driver input: the span is checked where it is made.
    let err = Span::steps(0.0, 1.0, 0).unwrap_err();
    assert!(matches!(err, Error::InvalidParameter { name: "steps", .. }));
    // Stiff fixed point does not converge: a named error, not a hang or a panic.
    let mut stiff = |_t: f64, x: &Vector3<f64>| -x * 1e4;
    let mut gauss = ImplicitRk::<f64, 3, FixedPoint>::new(&GAUSS4).unwrap();
    let err = gauss
        .step(
            &mut stiff,
            0.0,
            &Vector3::new(1.0, 1.0, 1.0),
            0.1,
            &mut stats,
        )
        .unwrap_err();
    assert!(matches!(err, Error::NonConvergence { .. }), "{err}");
    assert!(err.to_string().contains("fixed-point"), "{err}");
    // ... while Newton handles it (linear problem: converges at once).
    let mut stiff_generic = Stiff;
    let mut gauss = ImplicitRk::<f64, 3, Newton>::new(&GAUSS4).unwrap();
    let y = gauss
        .step(
            &mut stiff_generic,
            0.0,
            &Vector3::new(1.0, 1.0, 1.0),
            0.1,
            &mut stats,
        )
        .unwrap()
        .state;
    assert!(y.norm() < 2.0);
    let _ = Matrix3::<f64>::identity();
    let _ = Dual64::from(0.0);
    let _ = SymmetricComposition::<ExplicitRk<f64, 3>, f64>::new(
        ExplicitRk::new(&RK4).unwrap(),
        &[0.5, 0.4],
        4,
        "x",
    )
    .unwrap_err();
}

struct Stiff;
impl<T: Real> lieode::engine::VectorOde<T, 3> for Stiff {
    fn rhs(&mut self, _t: T, x: &Vector3<T>) -> Vector3<T> {
        -x * nalgebra::convert::<f64, T>(1e4)
    }
}

#[test]
fn sphere_ode_adapter_reproduces_the_sphere_problem() {
    use lieode::homogeneous::SphereOde;
    use lieode::lie::action::UnitSphere;
    use lieode::lie::unit_quaternion::UnitQuat;
    use lieode::problems::SphereProblem;
    let problem = SphereProblem::default();
    let x0 = UnitSphere::new(problem.initial_point()).unwrap();
    let omega = move |t: f64, x: &Vector3<f64>| problem.omega(t, x);
    let mut adapter = SphereOde::new(x0, omega);
    let mut mk = MuntheKaas::<So3>::new(&RK4).unwrap();
    let via_adapter = integrate(
        &mut Fixed::new(&mut mk),
        &mut adapter,
        &So3::identity(),
        &Span::steps(0.0, 2.0, 50).unwrap(),
        Options::record(Record::Ends),
    )
    .unwrap();
    let mut reference = problem;
    let direct = integrate(
        &mut Fixed::new(&mut mk),
        &mut reference,
        &So3::identity(),
        &Span::steps(0.0, 2.0, 50).unwrap(),
        Options::record(Record::Ends),
    )
    .unwrap();
    assert_eq!(via_adapter.states[1], direct.states[1]);
    let x = adapter.point(&via_adapter.states[1]);
    assert!((x.point() - problem.exact_point(2.0)).norm() < 1e-5);
    assert!((x.point().norm() - 1.0).abs() < 1e-15 * 4.0);
    // The same through unit quaternions.
    let mut mkq = MuntheKaas::<UnitQuat>::new(&RK4).unwrap();
    let q = integrate(
        &mut Fixed::new(&mut mkq),
        &mut adapter,
        &UnitQuat::identity(),
        &Span::steps(0.0, 2.0, 50).unwrap(),
        Options::record(Record::Ends),
    )
    .unwrap();
    let xq = adapter.point(&q.states[1]);
    assert!((xq.point() - x.point()).norm() < 1e-13);
}

#[test]
fn order_tools_fit_slopes_and_reject_bad_input() {
    use lieode::order::{convergence_study, observed_order};
    let hs = [0.1, 0.05, 0.025, 0.0125];
    let errors: Vec<f64> = hs
        .iter()
        .map(|h: &f64| 2.0 * h.powi(3) * (1.0 + 0.1 * h))
        .collect();
    let p = observed_order(&hs, &errors).unwrap();
    assert!((p - 3.0).abs() < 0.02, "{p}");
    assert!(matches!(
        observed_order(&hs, &errors[..3]),
        Err(Error::InvalidParameter { name: "hs", .. })
    ));
    assert!(matches!(
        observed_order(&[0.1, 0.05], &[1e-3, 0.0]),
        Err(Error::InvalidParameter { name: "errors", .. })
    ));
    assert!(matches!(
        observed_order(&[0.1, 0.1], &[1e-3, 1e-4]),
        Err(Error::InvalidParameter { name: "hs", .. })
    ));
    let study = convergence_study(1.0, &[10, 20, 40], |n| Ok(((n as f64).powi(-2), n))).unwrap();
    assert!((study.order - 2.0).abs() < 1e-12);
    assert_eq!(study.evaluations, vec![10, 20, 40]);
    assert!(matches!(
        convergence_study(1.0, &[], |n| Ok((1.0, n))),
        Err(Error::InvalidParameter { name: "steps", .. })
    ));
    assert!(matches!(
        convergence_study(1.0, &[0, 2], |n| Ok((1.0, n))),
        Err(Error::InvalidParameter { name: "steps", .. })
    ));
}
