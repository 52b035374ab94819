//! Forward sensitivities (`lieode::sensitivity`) against closed forms, central finite
//! differences of the same computed solution, and the variational equations integrated by
//! DOP853 at 1e-13, for the fixed-step engine families and the adaptive DOP853 replayed on its
//! frozen step sequence.

use lieode::adaptive::{
    ControllerParameters, Dop853, LieStepper, Odex, OdexParameters, Tolerances, VectorStepper,
};
use lieode::body::RigidBodyState;
use lieode::engine::{
    CommutatorFree, ExplicitRk, Extrapolation, FixedPoint, ImplicitMuntheKaas, ImplicitRk,
    MuntheKaas, Newton, Step, SymmetricComposition, VectorOde,
};
use lieode::integrate::{Options, Record, integrate};
use lieode::lie::product::{Product, ProductAlgebra};
use lieode::lie::rn::Rn;
use lieode::lie::series::Truncation;
use lieode::lie::so3::{So3, So3Algebra};
use lieode::lie::{LieAlgebra, LieGroup, Lift, Real, Side};
use lieode::ode::LieOde;
use lieode::problems::{FreeRigidBody, LotkaVolterra};
use lieode::sensitivity::{
    Dual, Seeds, group_jacobian, real_part, replay, replay_extrapolation,
    replay_lifted_extrapolation, vector_jacobian,
};
use lieode::stepper::{Span, Stepper};
use lieode::tableau::registry::{CF4, CG4A, DOP853, GAUSS4, RK4};
use nalgebra::{Matrix2, SMatrix, SVector, Vector2, Vector3};

// ---------------------------------------------------------------------------------------------
// A linear ODE with a closed form: x' = A x, A = −k I + w J, J = [[0, 1], [−1, 0]]:
// x(t) = e^{−kt} R(wt) x₀ with R(θ) = [[cos θ, sin θ], [−sin θ, cos θ]], so
// ∂x/∂x₀ = e^{−kt} R(wt), ∂x/∂k = −t x(t), ∂x/∂w = t J x(t).

struct Damped<T> {
    k: T,
    w: T,
}

// Over every scalar its parameters lift to (`Lift`): dual parameters over their own dual type
// and over `Dual64`, which the Newton solves of the implicit engines differentiate with.
impl<S: Lift<T>, T: Real> VectorOde<T, 2> for Damped<S> {
    fn rhs(&mut self, _t: T, x: &Vector2<T>) -> Vector2<T> {
        let (k, w): (T, T) = (self.k.lift(), self.w.lift());
        Vector2::new(-k * x[0] + w * x[1], -w * x[0] - k * x[1])
    }
}

const K: f64 = 0.4;
const W: f64 = 1.3;
const X0: [f64; 2] = [1.0, 0.5];
const T_END: f64 = 2.0;

/// The exact Jacobian `∂x(T_END)/∂(x₀, k, w)`.
fn damped_exact() -> SMatrix<f64, 2, 4> {
    let (s, c) = (W * T_END).sin_cos();
    let decay = (-K * T_END).exp();
    let flow = Matrix2::new(c, s, -s, c) * decay;
    let x = flow * Vector2::from(X0);
    let j = Matrix2::new(0.0, 1.0, -1.0, 0.0);
    let mut out = SMatrix::<f64, 2, 4>::zeros();
    out.fixed_view_mut::<2, 2>(0, 0).copy_from(&flow);
    out.set_column(2, &(-T_END * x));
    out.set_column(3, &(T_END * (j * x)));
    out
}

/// `x(T_END)` by `engine` in `steps` steps from `x0` with parameters `(k, w)`.
fn damped_run<T: Real, E>(mut engine: E, steps: usize, x0: Vector2<T>, k: T, w: T) -> Vector2<T>
where
    E: Step<Damped<T>, State = Vector2<T>, Scalar = T>,
{
    let times: Vec<f64> = (0..=steps)
        .map(|i| T_END * i as f64 / steps as f64)
        .collect();
    let (states, _) = replay(&mut engine, &mut Damped { k, w }, &x0, &times).unwrap();
    states[steps]
}

/// The dual run's Jacobian, and central differences of the `f64` run with relative step `eps`.
fn damped_jacobians<ED, EF>(
    dual: impl Fn() -> ED,
    plain: impl Fn() -> EF,
    steps: usize,
    eps: f64,
) -> (SMatrix<f64, 2, 4>, SMatrix<f64, 2, 4>)
where
    ED: Step<Damped<Dual<4>>, State = Vector2<Dual<4>>, Scalar = Dual<4>>,
    EF: Step<Damped<f64>, State = Vector2<f64>, Scalar = f64>,
{
    let mut seeds = Seeds::<4>::new();
    let x0 = seeds.vector("x0", &Vector2::from(X0)).unwrap();
    let k = seeds.parameter("k", K).unwrap();
    let w = seeds.parameter("w", W).unwrap();
    let jacobian = vector_jacobian(&damped_run(dual(), steps, x0, k, w));
    let inputs = [X0[0], X0[1], K, W];
    let mut fd = SMatrix::<f64, 2, 4>::zeros();
    for j in 0..4 {
        let h = eps * inputs[j].abs().max(1.0);
        let at = |sign: f64| {
            let mut v = inputs;
            v[j] += sign * h;
            damped_run(plain(), steps, Vector2::new(v[0], v[1]), v[2], v[3])
        };
        fd.set_column(j, &((at(1.0) - at(-1.0)) / (2.0 * h)));
    }
    (jacobian, fd)
}

#[test]
fn linear_flow_sensitivities_converge_to_the_closed_form_at_the_engines_order() {
    let exact = damped_exact();
    // (name, order, dual Jacobian error and FD mismatch at 40 and 80 steps)
    let mut rows = Vec::new();
    macro_rules! family {
        ($name:expr, $order:expr, $make:expr) => {{
            let mut errors = Vec::new();
            for steps in [40, 80] {
                let (jac, fd) = damped_jacobians(|| $make, || $make, steps, 1e-6);
                errors.push(((jac - exact).amax(), (jac - fd).amax()));
            }
            rows.push(($name, $order as f64, errors));
        }};
    }
    family!("explicit RK4", 4, ExplicitRk::new(&RK4).unwrap());
    family!(
        "implicit Gauss4 (fixed point)",
        4,
        ImplicitRk::<_, 2, FixedPoint>::new(&GAUSS4).unwrap()
    );
    family!(
        "implicit Gauss4 (Newton)",
        4,
        ImplicitRk::<_, 2, Newton>::new(&GAUSS4).unwrap()
    );
    family!(
        "triple jump of Gauss4",
        6,
        SymmetricComposition::triple_jump(ImplicitRk::<_, 2, FixedPoint>::new(&GAUSS4).unwrap())
            .unwrap()
    );
    for (name, order, errors) in rows {
        let observed = (errors[0].0 / errors[1].0).log2();
        assert!(
            observed > order - 0.3,
            "{name}: Jacobian errors {:.2e}, {:.2e}: order {observed:.2}, expected {order}",
            errors[0].0,
            errors[1].0
        );
        // The derivative of the computed solution, which central differences of the same
        // computation approach to O(h²) + rounding/h: measured 1.2e-10 ... 6.2e-10 at the
        // relative step 1e-6 (RK4 at 40 steps: Jacobian error 7.0e-7, order 4.05; Gauss4
        // 1.1e-7, 4.00; its triple jump 1.0e-10, 5.99).
        println!(
            "{name:>30}: closed form {:.2e} → {:.2e} (order {observed:.2}), central differences {:.1e}, {:.1e}",
            errors[0].0, errors[1].0, errors[0].1, errors[1].1
        );
        for (jac_err, fd_mismatch) in errors {
            assert!(fd_mismatch < 1e-8, "{name}: FD mismatch {fd_mismatch:.2e}");
            assert!(jac_err < 1e-6, "{name}: error {jac_err:.2e}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A free rigid body on SO(3) × ℝ³ with its principal moments as parameters
// (lieode::problems::FreeRigidBody).

const INERTIA: [f64; 3] = [1.0, 2.0, 2.5];
const ATTITUDE: [f64; 3] = [0.3, -0.7, 0.4];
const T_BODY: f64 = 3.0;

fn body_state(omega: Vector3<f64>) -> RigidBodyState {
    Product(So3::exp(&So3Algebra(Vector3::from(ATTITUDE))), Rn(omega))
}

/// The state at `T_BODY` after `steps` steps of `engine`.
fn body_run<T: Real, E>(
    mut engine: E,
    steps: usize,
    y0: &RigidBodyState<T>,
    inertia: Vector3<T>,
) -> RigidBodyState<T>
where
    E: Step<FreeRigidBody<T>, State = RigidBodyState<T>, Scalar = T>,
{
    let times: Vec<f64> = (0..=steps)
        .map(|i| T_BODY * i as f64 / steps as f64)
        .collect();
    let (states, _) = replay(&mut engine, &mut FreeRigidBody { inertia }, y0, &times).unwrap();
    states[steps]
}

/// The Jacobian of `run` at `T_BODY` on dual numbers (6 state directions in right-trivialised
/// coordinates from the start at angular velocity `omega`, then the three moments).
fn body_jacobian(
    run: impl FnOnce(&RigidBodyState<Dual<9>>, Vector3<Dual<9>>) -> RigidBodyState<Dual<9>>,
    omega: Vector3<f64>,
) -> SMatrix<f64, 6, 9> {
    let mut seeds = Seeds::<9>::new();
    let y0 = seeds.group("y0", &body_state(omega), Side::Right).unwrap();
    let inertia = Vector3::new(
        seeds.parameter("J1", INERTIA[0]).unwrap(),
        seeds.parameter("J2", INERTIA[1]).unwrap(),
        seeds.parameter("J3", INERTIA[2]).unwrap(),
    );
    let (_, j) = group_jacobian(&run(&y0, inertia), Side::Right).unwrap();
    j
}

/// Central differences of the `f64` run `run` in the same coordinates (step `eps`).
fn body_fd(
    run: impl Fn(&RigidBodyState, Vector3<f64>) -> RigidBodyState,
    omega: Vector3<f64>,
    eps: f64,
) -> SMatrix<f64, 6, 9> {
    let base = body_state(omega);
    let inertia = Vector3::from(INERTIA);
    let centre = run(&base, inertia);
    let mut fd = SMatrix::<f64, 6, 9>::zeros();
    for j in 0..9 {
        let at = |sign: f64| {
            let (mut y0, mut jj) = (base, inertia);
            if j < 6 {
                let mut e = SVector::<f64, 6>::zeros();
                e[j] = sign * eps;
                let xi =
                    <ProductAlgebra<So3Algebra<f64>, Rn<3, f64>> as LieAlgebra>::from_coords(&e);
                y0 = base.compose(&RigidBodyState::exp(&xi));
            } else {
                jj[j - 6] += sign * eps;
            }
            let d = centre
                .inverse()
                .compose(&run(&y0, jj))
                .log()
                .unwrap()
                .to_coords();
            SVector::<f64, 6>::from_iterator(d.iter().copied())
        };
        fd.set_column(j, &((at(1.0) - at(-1.0)) / (2.0 * eps)));
    }
    fd
}

#[test]
fn rigid_body_sensitivities_on_so3_match_the_closed_form_and_finite_differences() {
    macro_rules! check {
        ($name:expr, $make:expr) => {{
            // Steady rotation about the third principal axis: R(t) = R₀ exp(t w ê₃) exactly
            // (ω is constant, every engine's exponential is exact), so the rotation columns are
            // R_z(wt)ᵀ (the initial perturbation carried to the tangent space at R(t)), the
            // ω_z column is (t e₃, e₃) and the moments change nothing.
            let w = 0.8;
            let j = body_jacobian(
                |y0, j| body_run($make, 60, y0, j),
                Vector3::new(0.0, 0.0, w),
            );
            let rz = *So3::exp(&So3Algebra(Vector3::new(0.0, 0.0, w * T_BODY))).matrix();
            let mut exact = SMatrix::<f64, 6, 9>::zeros();
            exact
                .fixed_view_mut::<3, 3>(0, 0)
                .copy_from(&rz.transpose());
            exact[(2, 5)] = T_BODY;
            exact[(5, 5)] = 1.0;
            // ω_x, ω_y: the linearised Euler equations about the axis (not a closed form here)
            for c in [3, 4] {
                for r in 0..6 {
                    exact[(r, c)] = j[(r, c)];
                }
            }
            let err = (j - exact).amax();
            // measured 7e-15 ... 1.5e-14
            assert!(
                err < 1e-12,
                "{}: steady rotation, error {err:.2e}\n{j}",
                $name
            );
            // A tumbling body: the dual Jacobian against central differences of the f64 run.
            let omega = Vector3::new(0.6, -0.4, 0.9);
            let j = body_jacobian(|y0, j| body_run($make, 60, y0, j), omega);
            let fd = body_fd(|y0, j| body_run($make, 60, y0, j), omega, 1e-5);
            let mismatch = (j - fd).amax();
            // measured 8e-11 ... 2e-10 with |J| ≤ 2.3 (the differences' O(ε²) at ε = 1e-5)
            assert!(mismatch < 2e-9, "{}: FD mismatch {mismatch:.2e}", $name);
        }};
    }
    check!("Munthe-Kaas RK4", MuntheKaas::new(&RK4).unwrap());
    check!("commutator-free CF4", CommutatorFree::new(&CF4).unwrap());
    check!(
        "Crouch-Grossman CG4a",
        CommutatorFree::crouch_grossman(&CG4A).unwrap()
    );
    check!(
        "implicit Munthe-Kaas Gauss4 (fixed point)",
        ImplicitMuntheKaas::<_, FixedPoint>::new(&GAUSS4).unwrap()
    );
}

// ---------------------------------------------------------------------------------------------
// Lotka–Volterra, x' = a x − b x y, y' = c x y − d y: adaptive DOP853, its accepted steps
// replayed on dual numbers, against the variational equations integrated by DOP853 at 1e-13.

const LV: [f64; 4] = [1.2, 0.6, 0.8, 1.1];
const LV0: [f64; 2] = [1.5, 0.7];
const T_LV: f64 = 8.0;

fn lv_rhs(p: [f64; 4], x: &Vector2<f64>) -> Vector2<f64> {
    let [a, b, c, d] = p;
    Vector2::new(a * x[0] - b * x[0] * x[1], c * x[0] * x[1] - d * x[1])
}

/// Hairer's DOP853 at rtol = atol = `tol`, for states of dimension `D`.
fn dop853<D: nalgebra::DimName>(tol: f64) -> Dop853<D>
where
    nalgebra::DefaultAllocator: nalgebra::allocator::Allocator<D>,
{
    Dop853::new(
        Tolerances::scalar(tol, tol).unwrap(),
        ControllerParameters::dop853(),
    )
    .unwrap()
}

/// The adaptive run's accepted times and final state.
fn lv_adaptive(x0: [f64; 2], p: [f64; 4], tol: f64) -> (Vec<f64>, Vector2<f64>) {
    let mut rhs = |_t: f64, x: &Vector2<f64>| lv_rhs(p, x);
    let sol = integrate(
        &mut VectorStepper::new(dop853(tol)),
        &mut rhs,
        &Vector2::from(x0),
        &Span::new(0.0, T_LV).unwrap(),
        Options::record(Record::All),
    )
    .unwrap();
    let last = *sol.states.last().unwrap();
    (sol.times, last)
}

/// `∂x(T_LV)/∂(x₀, p)` from the variational equations `S' = f_x S + [0 | f_p]`,
/// `S(0) = [I | 0]`, integrated with the state by DOP853 at rtol = atol = `tol`.
fn lv_variational(tol: f64) -> SMatrix<f64, 2, 6> {
    let p = LV;
    let mut rhs = |_t: f64, z: &SVector<f64, 14>| {
        let x = Vector2::new(z[0], z[1]);
        let s = SMatrix::<f64, 2, 6>::from_iterator(z.iter().skip(2).copied());
        let [a, b, c, d] = p;
        let fx = Matrix2::new(a - b * x[1], -b * x[0], c * x[1], c * x[0] - d);
        let mut fp = SMatrix::<f64, 2, 6>::zeros();
        fp[(0, 2)] = x[0];
        fp[(0, 3)] = -x[0] * x[1];
        fp[(1, 4)] = x[0] * x[1];
        fp[(1, 5)] = -x[1];
        let ds = fx * s + fp;
        let dx = lv_rhs(p, &x);
        SVector::<f64, 14>::from_iterator(dx.iter().chain(ds.iter()).copied())
    };
    let mut z0 = SVector::<f64, 14>::zeros();
    z0[0] = LV0[0];
    z0[1] = LV0[1];
    z0[2] = 1.0; // S = [I | 0], column-major
    z0[5] = 1.0;
    let sol = integrate(
        &mut VectorStepper::new(dop853(tol)),
        &mut rhs,
        &z0,
        &Span::new(0.0, T_LV).unwrap(),
        Options::record(Record::Ends),
    )
    .unwrap();
    SMatrix::<f64, 2, 6>::from_iterator(sol.states[1].iter().skip(2).copied())
}

#[test]
fn adaptive_dop853_replayed_on_its_frozen_steps_gives_the_computed_solutions_derivative() {
    let reference = lv_variational(1e-13);
    let inputs = [LV0[0], LV0[1], LV[0], LV[1], LV[2], LV[3]];
    // central differences over all six inputs of `run`, relative step 1e-5 (the bottom of the
    // V: 6.7e-7 at 1e-4, 7.2e-9 at 1e-5, 9.0e-9 at 1e-6, 7.4e-8 at 1e-7 for tol = 1e-10)
    let fd = |run: &dyn Fn([f64; 6]) -> Vector2<f64>| {
        let mut out = SMatrix::<f64, 2, 6>::zeros();
        for j in 0..6 {
            let h = 1e-5 * inputs[j].abs();
            let (mut up, mut down) = (inputs, inputs);
            up[j] += h;
            down[j] -= h;
            out.set_column(j, &((run(up) - run(down)) / (2.0 * h)));
        }
        out
    };
    for tol in [1e-10, 1e-6] {
        let (times, primal) = lv_adaptive(LV0, LV, tol);
        let mut seeds = Seeds::<6>::new();
        let x0 = seeds.vector("x0", &Vector2::from(LV0)).unwrap();
        let p = [
            seeds.parameter("a", LV[0]).unwrap(),
            seeds.parameter("b", LV[1]).unwrap(),
            seeds.parameter("c", LV[2]).unwrap(),
            seeds.parameter("d", LV[3]).unwrap(),
        ];
        let mut engine = ExplicitRk::<Dual<6>, 2>::new(&DOP853).unwrap();
        let (states, _) =
            replay(&mut engine, &mut LotkaVolterra { rates: p }, &x0, &times).unwrap();
        let last = states.last().unwrap();
        // the replay is the adaptive run's computation: its real parts are the run's states
        let real = real_part(last);
        assert!(
            (real - primal).amax() <= 1e-13 * primal.amax(),
            "tol {tol:e}: replayed {real} against {primal}"
        );
        let jacobian = vector_jacobian(last);
        let scale = jacobian.amax();

        // The exact derivative (the variational equations at 1e-13): the computed solution's
        // derivative is as close to it as the run's tolerance allows (measured 1.8e-9 at
        // 1e-10, 1.2e-5 at 1e-6, with |J| = 10.4).
        let exact_err = (jacobian - reference).amax();
        assert!(
            exact_err < 20.0 * tol * scale,
            "tol {tol:e}: against the variational equations {exact_err:.2e}"
        );

        // Central differences of the frozen-step run converge to the dual derivative (to the
        // differences' own accuracy, measured 7e-10 relative); those of the adaptive run also
        // see the controller move the steps, a different derivative by O(tol): at 1e-6 it is
        // 2.7e-5 away, 4000 times further (at 1e-10 the two are alike).
        let frozen = |v: [f64; 6]| {
            let mut engine = ExplicitRk::<f64, 2>::new(&DOP853).unwrap();
            let mut problem = LotkaVolterra {
                rates: [v[2], v[3], v[4], v[5]],
            };
            let (s, _) =
                replay(&mut engine, &mut problem, &Vector2::new(v[0], v[1]), &times).unwrap();
            *s.last().unwrap()
        };
        let frozen_mismatch = (jacobian - fd(&frozen)).amax();
        assert!(
            frozen_mismatch < 5e-9 * scale,
            "tol {tol:e}: frozen-step FD {frozen_mismatch:.2e}"
        );
        if tol == 1e-6 {
            let adaptive = |v: [f64; 6]| lv_adaptive([v[0], v[1]], [v[2], v[3], v[4], v[5]], tol).1;
            let adaptive_mismatch = (jacobian - fd(&adaptive)).amax();
            assert!(
                adaptive_mismatch > 100.0 * frozen_mismatch,
                "tol {tol:e}: adaptive-run FD {adaptive_mismatch:.2e}, frozen {frozen_mismatch:.2e}"
            );
        }
    }
}

/// ODEX's run: its accepted times, the column each step was accepted in, and its final state.
fn lv_odex(x0: [f64; 2], p: [f64; 4], tol: f64) -> (Vec<f64>, Vec<usize>, Vector2<f64>) {
    let method = Odex::new(
        Tolerances::scalar(tol, tol).unwrap(),
        OdexParameters::default(),
    )
    .unwrap();
    let mut stepper = VectorStepper::new(method);
    let mut rhs = |_t: f64, x: &Vector2<f64>| lv_rhs(p, x);
    stepper
        .start(&mut rhs, &Span::new(0.0, T_LV).unwrap(), &Vector2::from(x0))
        .unwrap();
    let (times, columns) =
        steps_and_columns(&mut stepper, &mut rhs, |s| s.method().accepted_column());
    let last = stepper.state(&mut rhs).unwrap();
    (times, columns, last)
}

/// A started ODEX stepper run to its end: the accepted times (from the start) and the column
/// each step was accepted in (`column` reads it from the stepper).
fn steps_and_columns<P: ?Sized, S: Stepper<P>>(
    stepper: &mut S,
    problem: &mut P,
    column: impl Fn(&S) -> usize,
) -> (Vec<f64>, Vec<usize>) {
    let (mut times, mut columns) = (vec![stepper.time()], Vec::new());
    loop {
        let report = stepper.step(problem).unwrap();
        times.push(stepper.time());
        columns.push(column(stepper));
        if report.finished {
            return (times, columns);
        }
    }
}

#[test]
fn adaptive_odex_replayed_in_its_steps_and_columns_gives_the_computed_solutions_derivative() {
    let reference = lv_variational(1e-13);
    let inputs = [LV0[0], LV0[1], LV[0], LV[1], LV[2], LV[3]];
    for tol in [1e-10, 1e-6] {
        let (times, columns, primal) = lv_odex(LV0, LV, tol);
        let mut seeds = Seeds::<6>::new();
        let x0 = seeds.vector("x0", &Vector2::from(LV0)).unwrap();
        let p = [
            seeds.parameter("a", LV[0]).unwrap(),
            seeds.parameter("b", LV[1]).unwrap(),
            seeds.parameter("c", LV[2]).unwrap(),
            seeds.parameter("d", LV[3]).unwrap(),
        ];
        let sequence = OdexParameters::default().sequence_in_use();
        let mut gbs = Extrapolation::<Dual<6>, 2>::new(sequence, 1).unwrap();
        let (states, _) = replay_extrapolation(
            &mut gbs,
            &mut LotkaVolterra { rates: p },
            &x0,
            &times,
            &columns,
        )
        .unwrap();
        let last = states.last().unwrap();
        let real = real_part(last);
        let apart = (real - primal).amax() / primal.amax();
        let jacobian = vector_jacobian(last);
        let scale = jacobian.amax();
        let exact_err = (jacobian - reference).amax() / scale;
        // The run's own error, against DOP853 at 1e-13.
        let (_, truth) = lv_adaptive(LV0, LV, 1e-13);
        let run_err = (primal - truth).amax() / truth.amax();
        // Central differences of the frozen replay (steps and columns), relative step 1e-5.
        let frozen = |v: [f64; 6]| {
            let mut gbs = Extrapolation::<f64, 2>::new(sequence, 1).unwrap();
            let mut problem = LotkaVolterra {
                rates: [v[2], v[3], v[4], v[5]],
            };
            let x0 = Vector2::new(v[0], v[1]);
            let (s, _) =
                replay_extrapolation(&mut gbs, &mut problem, &x0, &times, &columns).unwrap();
            *s.last().unwrap()
        };
        let mut fd = SMatrix::<f64, 2, 6>::zeros();
        for j in 0..6 {
            let h = 1e-5 * inputs[j].abs();
            let (mut up, mut down) = (inputs, inputs);
            up[j] += h;
            down[j] -= h;
            fd.set_column(j, &((frozen(up) - frozen(down)) / (2.0 * h)));
        }
        let frozen_err = (jacobian - fd).amax() / scale;
        println!(
            "ODEX at {tol:e}: {} steps, columns {:?}; replay − run {apart:.1e}; run error {run_err:.2e}; \
             against the variational equations {exact_err:.2e}, central differences of the frozen \
             replay {frozen_err:.2e}",
            columns.len(),
            columns
        );
        // The replay is ODEX's computation, to rounding (measured below).
        assert!(apart < 1e-13, "tol {tol:e}: replay {apart:e} from the run");
        // Not error-controlled, the sensitivities are as accurate as the run allows: measured
        // 2.1e-9 against a run error of 8.4e-11 at 1e-10 (25×), 8.2e-6 against 1.1e-6 at 1e-6.
        assert!(
            exact_err < 50.0 * run_err,
            "tol {tol:e}: {exact_err:e} against a run error {run_err:e}"
        );
        assert!(frozen_err < 5e-9, "tol {tol:e}: {frozen_err:e}");
    }
}

#[test]
fn seeds_name_their_directions_and_refuse_what_does_not_fit() {
    let mut seeds = Seeds::<8>::new();
    let y0 = seeds
        .group("y0", &body_state(Vector3::new(0.1, 0.2, 0.3)), Side::Left)
        .unwrap();
    let k = seeds.parameter("k", 2.0).unwrap();
    assert_eq!(
        seeds.names(),
        ["y0[0]", "y0[1]", "y0[2]", "y0[3]", "y0[4]", "y0[5]", "k"]
    );
    // the seeded state's Jacobian in its own coordinates is [I | 0]
    let (real, j) = group_jacobian(&y0, Side::Left).unwrap();
    assert_eq!(real, body_state(Vector3::new(0.1, 0.2, 0.3)));
    let mut expected = SMatrix::<f64, 6, 8>::zeros();
    expected.fixed_view_mut::<6, 6>(0, 0).fill_with_identity();
    assert!((j - expected).amax() < 1e-15, "{j}");
    assert_eq!(k.re, 2.0);
    // a second direction for the name `k`, a vector past P, non-finite values
    let err = seeds.parameter("k", 1.0).unwrap_err().to_string();
    assert!(err.contains("name") && err.contains("\"k\""), "{err}");
    let err = seeds
        .vector("x", &Vector2::new(1.0, 2.0))
        .unwrap_err()
        .to_string();
    assert!(err.contains("seeds") && err.contains("P = 8"), "{err}");
    let err = seeds.parameter("c", f64::NAN).unwrap_err().to_string();
    assert!(err.contains("value"), "{err}");
    assert_eq!(seeds.len(), 7);
    // a replay grid that is not strictly monotonic
    let mut rk4 = ExplicitRk::<f64, 2>::new(&RK4).unwrap();
    let mut damped = Damped { k: K, w: W };
    for times in [
        &[0.0][..],
        &[0.0, 1.0, 1.0],
        &[0.0, 1.0, 0.5],
        &[0.0, f64::NAN],
    ] {
        let err = replay(&mut rk4, &mut damped, &Vector2::from(X0), times)
            .unwrap_err()
            .to_string();
        assert!(err.contains("times"), "{times:?}: {err}");
    }
}

// ---------------------------------------------------------------------------------------------
// The gradient of a final-attitude cost with respect to a torque-profile amplitude:
// J ω̇ = a τ̂(t) − ω × Jω with τ̂(t) = (sin 2t, cos t, 0.5) in the body frame,
// C(a) = |log(R_target⁻¹ R(T))|², by one dual run against central differences.

struct Driven<T> {
    amplitude: T,
}

impl<T: Real> LieOde<RigidBodyState<T>> for Driven<T> {
    fn side(&self) -> Side {
        Side::Right
    }
    fn generator(
        &mut self,
        t: T,
        y: &RigidBodyState<T>,
    ) -> ProductAlgebra<So3Algebra<T>, Rn<3, T>> {
        let inertia = Vector3::from(INERTIA).map(nalgebra::convert::<f64, T>);
        let omega = y.1.0;
        let two: T = nalgebra::convert(2.0);
        let half: T = nalgebra::convert(0.5);
        let torque = Vector3::new((two * t).sin(), t.cos(), half) * self.amplitude;
        let accel = (torque - omega.cross(&omega.component_mul(&inertia))).component_div(&inertia);
        ProductAlgebra(So3Algebra(omega), Rn(accel))
    }
}

#[test]
fn final_attitude_cost_gradient_matches_central_differences() {
    let target = So3::exp(&So3Algebra(Vector3::new(1.0, 0.2, -0.5)));
    let cost = |a: Dual<1>| -> Dual<1> {
        let mut mk = MuntheKaas::<RigidBodyState<Dual<1>>>::new(&RK4).unwrap();
        let y0 = body_state(Vector3::new(0.2, 0.1, -0.3)).cast::<Dual<1>>();
        let times: Vec<f64> = (0..=400).map(|i| 4.0 * i as f64 / 400.0).collect();
        let (states, _) = replay(&mut mk, &mut Driven { amplitude: a }, &y0, &times).unwrap();
        let miss = target
            .cast::<Dual<1>>()
            .inverse()
            .compose(&states[400].0)
            .log()
            .unwrap()
            .to_coords();
        miss.dot(&miss)
    };
    let a = 0.7;
    let mut seeds = Seeds::<1>::new();
    let c = cost(seeds.parameter("a", a).unwrap());
    let gradient = c.eps.unwrap_generic(nalgebra::Const::<1>, nalgebra::U1)[0];
    let h = 1e-6;
    let at = |x: f64| cost(Dual::<1>::from_re(x)).re;
    let fd = (at(a + h) - at(a - h)) / (2.0 * h);
    // measured: dC/da = 4.16896486577, central differences 2.2e-9 away (their O(h²) and
    // rounding)
    assert!(gradient.abs() > 0.1, "gradient {gradient}");
    assert!(
        (gradient - fd).abs() < 2e-8 * gradient.abs(),
        "dual {gradient}, FD {fd}"
    );
}

#[test]
fn lifted_adaptive_dop853_replayed_by_munthe_kaas_with_the_exact_dexp_inverse() {
    // The lifted stepper integrates θ' = dexp⁻¹_θ(ξ(exp(θ)·y_n)) with the exact dexp⁻¹: the
    // Munthe-Kaas engine with DOP853's tableau and `Truncation::Exact` is the same computation
    // (measured 5.9e-15 and 1.1e-15 apart at tol 1e-6 and 1e-10; with the default truncation
    // 1.1e-7 and 6.4e-11).
    let omega = Vector3::new(0.6, -0.4, 0.9);
    let y0 = body_state(omega);
    let inertia = Vector3::from(INERTIA);
    for tol in [1e-6, 1e-10] {
        let mut lifted = LieStepper::new(dop853(tol));
        let sol = integrate(
            &mut lifted,
            &mut FreeRigidBody::new(inertia),
            &y0,
            &Span::new(0.0, T_BODY).unwrap(),
            Options::record(Record::All),
        )
        .unwrap();
        let times = sol.times.clone();
        let exact_mk = || {
            MuntheKaas::new(&DOP853)
                .unwrap()
                .with_truncation(Truncation::Exact)
        };
        let run = |y0: &RigidBodyState, inertia: Vector3<f64>| {
            let (s, _) = replay(
                &mut exact_mk(),
                &mut FreeRigidBody::new(inertia),
                y0,
                &times,
            )
            .unwrap();
            *s.last().unwrap()
        };
        let primal = sol.states.last().unwrap();
        let gap = primal
            .inverse()
            .compose(&run(&y0, inertia))
            .log()
            .unwrap()
            .to_coords()
            .amax();
        assert!(
            gap < 1e-13,
            "tol {tol:e}: the replay is {gap:.2e} from the lifted run"
        );

        let j = body_jacobian(
            |yd, jd| {
                let mut dual_mk = MuntheKaas::new(&DOP853)
                    .unwrap()
                    .with_truncation(Truncation::Exact);
                let mut body = FreeRigidBody::new(jd);
                let (s, _) = replay(&mut dual_mk, &mut body, yd, &times).unwrap();
                *s.last().unwrap()
            },
            omega,
        );
        let fd = body_fd(run, omega, 1e-5);
        let mismatch = (j - fd).amax();
        // measured 3.2e-10 (5 steps, tol 1e-6) and 1.8e-10 (9 steps, tol 1e-10)
        assert!(mismatch < 2e-9, "tol {tol:e}: FD mismatch {mismatch:.2e}");
    }
}

#[test]
fn lifted_odex_replayed_in_its_steps_and_columns() {
    // The lifted stepper integrates θ' = dexp⁻¹_θ(ξ(exp(θ)·y_n)) with ODEX: the extrapolated
    // midpoint rule in the accepted columns on the same local ODE is the same computation.
    let omega = Vector3::new(0.6, -0.4, 0.9);
    let y0 = body_state(omega);
    let inertia = Vector3::from(INERTIA);
    for tol in [1e-6, 1e-10] {
        let method = Odex::new(
            Tolerances::scalar(tol, tol).unwrap(),
            OdexParameters::default(),
        )
        .unwrap();
        let sequence = method.sequence();
        let mut lifted = LieStepper::new(method);
        let mut body = FreeRigidBody::new(inertia);
        lifted
            .start(&mut body, &Span::new(0.0, T_BODY).unwrap(), &y0)
            .unwrap();
        let (times, columns) =
            steps_and_columns(&mut lifted, &mut body, |s| s.method().accepted_column());
        let primal = lifted.state(&mut body).unwrap();
        let run = |y0: &RigidBodyState, inertia: Vector3<f64>| {
            let mut gbs = Extrapolation::<f64, 6>::new(sequence, 1).unwrap();
            let (s, _) = replay_lifted_extrapolation(
                &mut gbs,
                &mut FreeRigidBody::new(inertia),
                y0,
                &times,
                &columns,
            )
            .unwrap();
            *s.last().unwrap()
        };
        let gap = primal
            .inverse()
            .compose(&run(&y0, inertia))
            .log()
            .unwrap()
            .to_coords()
            .amax();
        let j = body_jacobian(
            |yd, jd| {
                let mut gbs = Extrapolation::<Dual<9>, 6>::new(sequence, 1).unwrap();
                let (s, _) = replay_lifted_extrapolation(
                    &mut gbs,
                    &mut FreeRigidBody::new(jd),
                    yd,
                    &times,
                    &columns,
                )
                .unwrap();
                *s.last().unwrap()
            },
            omega,
        );
        let mismatch = (j - body_fd(run, omega, 1e-5)).amax();
        println!(
            "lifted ODEX at {tol:e}: {} steps, columns {columns:?}; replay − run {gap:.1e}; \
             central differences of the frozen replay {mismatch:.2e}",
            columns.len()
        );
        assert!(
            gap < 1e-13,
            "tol {tol:e}: the replay is {gap:.2e} from the lifted run"
        );
        assert!(mismatch < 2e-9, "tol {tol:e}: FD mismatch {mismatch:.2e}");
    }
}

#[test]
fn the_sensitivity_inputs_and_replays_refuse_what_does_not_fit() {
    use lieode::adaptive::odex::StepSequence;
    use lieode::body::Body;
    use lieode::rotation::RigidBody;
    use nalgebra::Quaternion;
    let named = |err: lieode::Error, name: &str| {
        let text = err.to_string();
        assert!(text.contains(name), "{name}: {text}");
    };
    // a rotor seed: non-finite, and past P
    let mut seeds = Seeds::<4>::new();
    named(
        seeds
            .rotor("q", &Quaternion::new(f64::NAN, 0.0, 0.0, 0.0), Side::Right)
            .unwrap_err(),
        "q",
    );
    seeds
        .rotor("q", &Quaternion::identity(), Side::Right)
        .unwrap();
    named(
        seeds
            .rotor("p", &Quaternion::identity(), Side::Left)
            .unwrap_err(),
        "seeds",
    );
    // dual moments and masses are checked by their real parts
    let d = |x: f64| Dual::<4>::from_re(x);
    named(
        RigidBody::from_scalar_moments(Vector3::new(d(1.0), d(-2.0), d(2.5))).unwrap_err(),
        "inertia",
    );
    named(
        RigidBody::from_scalar_moments(Vector3::new(d(1.0), d(1.0), d(5.0))).unwrap_err(),
        "inertia",
    );
    let rigid = RigidBody::from_scalar_moments(Vector3::new(d(1.0), d(2.0), d(2.5))).unwrap();
    named(Body::from_scalars(d(0.0), rigid).unwrap_err(), "mass");
    named(
        Body::from_scalars(d(f64::INFINITY), rigid).unwrap_err(),
        "mass",
    );
    // the extrapolation replays: a column out of range, a column per step, the algebra's size
    named(
        Extrapolation::<f64, 2>::new(StepSequence::TwoJ, 0).unwrap_err(),
        "columns",
    );
    named(
        Extrapolation::<f64, 2>::new(StepSequence::TwoJ, 16).unwrap_err(),
        "columns",
    );
    let mut gbs = Extrapolation::<f64, 2>::new(StepSequence::TwoJ, 3).unwrap();
    let mut damped = Damped { k: K, w: W };
    named(
        replay_extrapolation(
            &mut gbs,
            &mut damped,
            &Vector2::from(X0),
            &[0.0, 0.5, 1.0],
            &[3],
        )
        .unwrap_err(),
        "columns",
    );
    named(
        replay_extrapolation(&mut gbs, &mut damped, &Vector2::from(X0), &[0.0, 1.0], &[0])
            .unwrap_err(),
        "columns",
    );
    let mut wrong_size = Extrapolation::<f64, 5>::new(StepSequence::TwoJ, 3).unwrap();
    named(
        replay_lifted_extrapolation(
            &mut wrong_size,
            &mut FreeRigidBody::new(Vector3::from(INERTIA)),
            &body_state(Vector3::new(0.1, 0.2, 0.3)),
            &[0.0, 1.0],
            &[3],
        )
        .unwrap_err(),
        "N",
    );
}
