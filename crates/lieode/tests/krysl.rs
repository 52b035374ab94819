//! Krysl's implicit rigid-body family (`lieode::momentum`) and his examples
//! (`lieode::problems::krysl`): measured orders against DOP853 references (the nine named
//! methods, and the rigid-body Munthe-Kaas scheme of Gauss and RK4 tableaux on a torque that
//! depends on time and attitude), conservation of energy and spatial momentum in torque-free
//! motion, time symmetry, the two constructions of IMIDM, the incremental Euler forms written
//! out by hand (Krysl Eqs. 11, 12, 18, 19), AKW's Cayley update, the long run of §5.4 at the
//! paper's step, the solver's fallback chain (checked against the methods' equations written
//! out by hand), the two solvers and typed errors.
//!
//! Every expected value is computed here from the paper's formulas (rotations by nalgebra's
//! `Rotation3`, the Cayley map by nalgebra's matrix inverse) or by DOP853 at 1e-13 on the
//! ambient quaternion ODE, never by the code under test. Each test prints what it measures.

use lieode::Error;
use lieode::body::RigidBodyState;
use lieode::body::quaternion::{normalize, rotation_matrix};
use lieode::body::{Frame, Orientation, Torque};
use lieode::engine::NonlinearOptions;
use lieode::lie::product::Product;
use lieode::lie::rn::Rn;
use lieode::lie::so3::So3;
use lieode::lie::{LieGroup, Real};
use lieode::momentum::{
    KryslMethod, MomentumIntegrator, Solver, hamiltonian, kinetic_energy, spatial_momentum,
};
use lieode::order::observed_order;
use lieode::problems::krysl::{KryslProblem, krysl_errors};
use lieode::problems::reference::reference_solution;
use lieode::rotation::{LabTorque, RigidBody, RotationalState};
use lieode::tableau::ButcherTableau;
use lieode::tableau::registry::{BACKWARD_EULER, EULER, GAUSS4, GAUSS6, RK4};
use nalgebra::{Matrix3, Quaternion, Rotation3, UnitQuaternion, Vector3};
use num_dual::Dual64;

use lieode::engine::Stats;
use lieode::integrate::{Options, Record, integrate};
use lieode::stepper::{Span, StepperInfo};

/// What the momentum integrators run under: a torque over `f64` and over dual numbers (for the
/// Newton Jacobians).
trait Field: Torque<f64> + Torque<Dual64> {}

impl<F: Torque<f64> + Torque<Dual64>> Field for F {}

/// The lab-frame torque `t(t, R)` of a torque at the attitude matrix `R` (the torques here do
/// not depend on ω).
fn lab_torque_of<F: Torque>(torque: &F, t: f64, r: &Matrix3<f64>) -> Vector3<f64> {
    torque.lab_torque(t, r, &Vector3::zeros())
}

/// The tests' shorthand: a momentum integrator with the torque it runs under. Its runs go
/// through the library's one driver (`integrate`, observers), its single steps through
/// `MomentumIntegrator::advance`.
#[derive(Debug, Clone)]
struct Bound<F> {
    integrator: MomentumIntegrator,
    torque: F,
}

impl<F: Field> Bound<F> {
    fn krysl(
        method: KryslMethod,
        body: RigidBody,
        torque: F,
        solver: Solver,
    ) -> lieode::Result<Self> {
        Ok(Self {
            integrator: MomentumIntegrator::krysl(method, body, solver)?,
            torque,
        })
    }

    fn krysl_with_options(
        method: KryslMethod,
        body: RigidBody,
        torque: F,
        solver: Solver,
        options: NonlinearOptions,
    ) -> lieode::Result<Self> {
        Ok(Self {
            integrator: MomentumIntegrator::krysl_with_options(method, body, solver, options)?,
            torque,
        })
    }

    fn munthe_kaas(
        tableau: &ButcherTableau,
        form: Frame,
        body: RigidBody,
        torque: F,
        solver: Solver,
        options: NonlinearOptions,
    ) -> lieode::Result<Self> {
        Ok(Self {
            integrator: MomentumIntegrator::munthe_kaas(tableau, form, body, solver, options)?,
            torque,
        })
    }

    fn step(&mut self, t: f64, y: &RigidBodyState, h: f64) -> lieode::Result<RigidBodyState> {
        self.integrator.advance(&self.torque, t, y, h)
    }

    fn integrate(
        &mut self,
        t0: f64,
        y: &RigidBodyState,
        h: f64,
        steps: usize,
    ) -> lieode::Result<RigidBodyState> {
        self.integrate_observed(t0, y, h, steps, |_, _, _| {})
    }

    /// `observe(n, t_n, y_n)` after steps `n = 1 … steps`.
    fn integrate_observed(
        &mut self,
        t0: f64,
        y: &RigidBodyState,
        h: f64,
        steps: usize,
        mut observe: impl FnMut(usize, f64, &RigidBodyState),
    ) -> lieode::Result<RigidBodyState> {
        let mut after_start = |n: usize, t: f64, y: &RigidBodyState| {
            if n > 0 {
                observe(n, t, y)
            }
        };
        let sol = integrate(
            &mut self.integrator,
            &mut self.torque,
            y,
            &Span::stride(t0, h, steps)?,
            Options::record(Record::Ends).observer(&mut after_start),
        )?;
        Ok(*sol.last().expect("a final state").1)
    }

    fn stats(&self) -> Stats {
        self.integrator.stats()
    }

    fn name(&self) -> &str {
        self.integrator.name()
    }

    fn order(&self) -> usize {
        self.integrator.order()
    }

    fn form(&self) -> Frame {
        self.integrator.form()
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers.

/// A fully coupled test torque: a time-dependent force `F(t)` acting at the body point
/// `c = (0.1, −0.2, 0.5)`, `t = (R c) × F(t)` — a heavy top whose gravity swings and pulses in
/// time. It depends on time and attitude, has no potential, and is written once, generically,
/// so the implicit solvers can differentiate it with dual numbers.
#[derive(Debug, Clone, Copy)]
struct SwingingTop;

impl<T: Real> Torque<T> for SwingingTop {
    fn frame(&self) -> Frame {
        Frame::Lab
    }
    fn torque<A: Orientation<T>>(&self, t: T, attitude: &A, _omega: &Vector3<T>) -> Vector3<T> {
        let r = attitude.matrix();
        let c = |x: f64| -> T { nalgebra::convert(x) };
        let arm = r * Vector3::new(c(0.1), c(-0.2), c(0.5));
        let force = Vector3::new(
            c(0.8) * (c(1.3) * t).sin(),
            c(0.5) * (c(0.9) * t).cos(),
            c(-2.0) - c(0.5) * (c(2.0) * t).sin(),
        );
        arm.cross(&force)
    }
}

/// `exp(v̂)` by nalgebra (Rodrigues), independent of `lieode::lie::so3`.
fn rot(v: &Vector3<f64>) -> Matrix3<f64> {
    *Rotation3::new(*v).matrix()
}

/// The skew matrix `v̂`, `v̂ x = v × x`.
fn skew(v: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(0.0, -v.z, v.y, v.z, 0.0, -v.x, -v.y, v.x, 0.0)
}

/// `cay(A) = (I − A/2)⁻¹ (I + A/2)` for `A = v̂`, inverted by nalgebra (independent of
/// `lieode::lie::coordinates::CayleyMap`).
fn cayley(v: &Vector3<f64>) -> Matrix3<f64> {
    let a = skew(v);
    let inverse = (Matrix3::identity() - a * 0.5)
        .try_inverse()
        .expect("I − A/2 is invertible for skew A");
    inverse * (Matrix3::identity() + a * 0.5)
}

/// `J⁻¹`, diagonal, from the principal moments.
fn inverse_inertia(body: &RigidBody) -> Vector3<f64> {
    body.inertia().map(|j| 1.0 / j)
}

/// The state `(R, Π)` with `R = exp(attitude^)`, `Π = J ω`.
fn state(body: &RigidBody, attitude: Vector3<f64>, omega: Vector3<f64>) -> RigidBodyState {
    Product(
        So3::from_matrix_unchecked(rot(&attitude)),
        Rn(omega.component_mul(&body.inertia())),
    )
}

/// The body and a generic start for [`SwingingTop`]: asymmetric `J = (1, 2, 2.5)`, tilted
/// attitude, angular velocity off every axis.
fn swinging() -> (RigidBody, RigidBodyState) {
    let body = RigidBody::new([1.0, 2.0, 2.5]).expect("a valid body");
    let y0 = state(
        &body,
        Vector3::new(0.3, -0.2, 0.5),
        Vector3::new(0.7, -0.9, 1.1),
    );
    (body, y0)
}

/// The reference state at `t` from `y0` at 0 under any spatial torque: DOP853 at
/// `rtol = atol = 1e-13` on the ambient rotor/angular-velocity ODE (as
/// `KryslProblem::reference` does for the paper's torques).
fn reference<F: Torque + Copy>(
    body: &RigidBody,
    torque: F,
    y0: &RigidBodyState,
    t: f64,
) -> RigidBodyState {
    let field = LabTorque(move |time: f64, q: &Quaternion<f64>, _w: &Vector3<f64>| {
        lab_torque_of(&torque, time, &rotation_matrix(&normalize(q)))
    });
    let r0 = Rotation3::from_matrix_unchecked(*y0.0.matrix());
    let q0 = UnitQuaternion::from_rotation_matrix(&r0).into_inner();
    let start = RotationalState::new(0.0, q0, y0.1.0.component_div(&body.inertia()));
    let end = reference_solution(body, &field, &start, t).expect("a reference run");
    Product(
        So3::from_matrix_unchecked(rotation_matrix(&normalize(&end.q))),
        Rn(end.omega.component_mul(&body.inertia())),
    )
}

/// `|ΔΠ| + ‖ΔR‖` between two states (Frobenius norm for the attitude).
fn distance(a: &RigidBodyState, b: &RigidBodyState) -> f64 {
    (a.1.0 - b.1.0).norm() + (a.0.matrix() - b.0.matrix()).norm()
}

/// One of Krysl's named methods with the default Newton solver.
fn krysl<F: Field + Clone>(method: KryslMethod, body: RigidBody, torque: F) -> Bound<F> {
    Bound::krysl(method, body, torque, Solver::Newton).expect("a registry method")
}

/// The rigid-body Munthe-Kaas scheme of `tableau` in `form`, Newton, default settings.
fn mk<F: Field + Clone>(
    tableau: &ButcherTableau,
    form: Frame,
    body: RigidBody,
    torque: F,
) -> Bound<F> {
    Bound::munthe_kaas(
        tableau,
        form,
        body,
        torque,
        Solver::Newton,
        NonlinearOptions::default(),
    )
    .expect("a registry tableau")
}

fn fmt(v: &[f64]) -> String {
    v.iter()
        .map(|e| format!("{e:.3e}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn assert_in(what: &str, value: f64, low: f64, high: f64) {
    assert!(
        (low..=high).contains(&value),
        "{what}: measured {value:.3e}, expected in [{low:e}, {high:e}]"
    );
}

// ---------------------------------------------------------------------------------------------
// 1. Every named method is second order.

/// The errors of one order measurement: step sizes, body-momentum and attitude errors.
struct Errors {
    hs: Vec<f64>,
    pi: Vec<f64>,
    r: Vec<f64>,
}

impl Errors {
    /// The fitted orders `(Π, R)`.
    fn orders(&self) -> (f64, f64) {
        (
            observed_order(&self.hs, &self.pi).expect("positive errors"),
            observed_order(&self.hs, &self.r).expect("positive errors"),
        )
    }
}

/// Runs `make()` over the step sizes `hs` to `t_end` from `y0`, measures Krysl's errors
/// against `yref` (`krysl_errors`: body momentum, attitude) and prints them with the fitted
/// orders.
fn measure<F: Field>(
    label: &str,
    mut make: impl FnMut() -> Bound<F>,
    y0: &RigidBodyState,
    yref: &RigidBodyState,
    hs: &[f64],
    t_end: f64,
) -> Errors {
    let (mut pi, mut r) = (Vec::new(), Vec::new());
    for &h in hs {
        let steps = (t_end / h).round() as usize;
        let y = make()
            .integrate(0.0, y0, h, steps)
            .expect("a converging run");
        let (a, b) = krysl_errors(&y, yref);
        pi.push(a);
        r.push(b);
    }
    let errors = Errors {
        hs: hs.to_vec(),
        pi,
        r,
    };
    let (p_pi, p_r) = errors.orders();
    eprintln!(
        "{label:>28}: dt {hs:?}  Π [{}] -> {p_pi:.3};  R [{}] -> {p_r:.3}",
        fmt(&errors.pi),
        fmt(&errors.r)
    );
    errors
}

/// The step sizes of the second-order measurements (a first exploration: all methods 2.00 ±
/// 0.03 over these, except BBTRAPWD). BBTRAPWD (the trapezoid MK with the exact `dexp⁻¹`)
/// has large higher-order terms in its global error, though its one-step errors are h³ (and
/// smaller than BBTRAP's): on the free body over 0.1/0.05/0.025 it measured 2.27/2.25, so it
/// gets steps 4× smaller there (measured 2.09/2.08); on the slow top see
/// [`assert_bbtrapwd_approaches_second_order`].
fn order_steps(problem: &str, method: KryslMethod) -> [f64; 3] {
    match (problem, method) {
        ("free_body", KryslMethod::BbTrapWd) => [0.025, 0.0125, 0.00625],
        ("free_body", _) => [0.1, 0.05, 0.025],
        ("slow_top", KryslMethod::BbTrapWd) => [0.0025, 0.00125, 0.000625],
        (_, _) => [0.02, 0.01, 0.005],
    }
}

/// BBTRAPWD's body-momentum error on the slow top is `a h² + b h³` with `b/a ≈ 900`: the
/// slopes of successive halvings measured 3.05, 2.88, 2.75, 2.60, 2.41 from dt = 0.02 down
/// to 0.000625 (ratios 8.3, 7.4, 6.75, 6.05, 5.33 — the model's `4(1 + x)/(1 + x/2)` with
/// `x = b h/a` halving each time), so ±0.1 around 2 needs dt ≲ 2e-4, runs of 100 000 to
/// 400 000 steps (its attitude error is already at 2.07). Asserted instead, over 0.0025/0.00125/0.000625:
/// the attitude order within ±0.1, the momentum order within [1.9, 2.6], and the two local
/// slopes above 2 and decreasing — the approach to order 2 that the model predicts (a method
/// of order 3 would hold its slopes near 3; one below 2 would fall under 2).
fn assert_bbtrapwd_approaches_second_order(errors: &Errors) {
    let slope = |i: usize| (errors.pi[i] / errors.pi[i + 1]).log2();
    let (first, second) = (slope(0), slope(1));
    eprintln!("slow_top bbtrapwd Π local slopes: {first:.3}, {second:.3}");
    let (p_pi, p_r) = errors.orders();
    assert_in("slow_top bbtrapwd R order", p_r, 1.9, 2.1);
    assert_in("slow_top bbtrapwd Π order", p_pi, 1.9, 2.6);
    assert!(
        second < first && second > 2.0,
        "slow_top bbtrapwd Π slopes {first:.3}, {second:.3}: expected decreasing towards 2"
    );
}

/// All nine methods converge at order 2 ± 0.1 in both of Krysl's error norms on `problem`
/// at its final time (BBTRAPWD's momentum on the slow top: see
/// [`assert_bbtrapwd_approaches_second_order`]).
fn assert_second_order(problem: KryslProblem) {
    let yref = problem.reference(problem.t_end()).expect("a reference run");
    let y0 = problem.initial_state();
    for method in KryslMethod::ALL {
        let hs = order_steps(problem.name(), method);
        let label = format!("{} {}", problem.name(), method.name());
        let errors = measure(
            &label,
            || krysl(method, *problem.body(), problem.torque()),
            &y0,
            &yref,
            &hs,
            problem.t_end(),
        );
        if (problem.name(), method) == ("slow_top", KryslMethod::BbTrapWd) {
            assert_bbtrapwd_approaches_second_order(&errors);
            continue;
        }
        let (p_pi, p_r) = errors.orders();
        assert_in(&format!("{label} Π order"), p_pi, 1.9, 2.1);
        assert_in(&format!("{label} R order"), p_r, 1.9, 2.1);
    }
}

/// Krysl Fig. 1: the free body (§5.1) at t = 100.
#[test]
fn every_krysl_method_is_second_order_on_the_free_body() {
    assert_second_order(KryslProblem::free_body().expect("the free body"));
}

/// Krysl Fig. 2: the slow Lagrangian top (§5.2) at t = 20.
#[test]
fn every_krysl_method_is_second_order_on_the_slow_top() {
    assert_second_order(KryslProblem::slow_top().expect("the slow top"));
}

// ---------------------------------------------------------------------------------------------
// 2. The rigid-body Munthe-Kaas scheme reaches its tableau's order.

/// Gauss–Legendre 4 and 6 (implicit) and RK4 (explicit) reach orders 4, 6 and 4 (± 0.2) on
/// [`SwingingTop`] at t = 2, in the spatial-momentum form (Krysl's MKRK) and the body form.
/// The horizon is short and the steps coarse enough that the smallest error (Gauss6 at
/// dt = 0.1: ≈ 4e-10) stays well above the reference's accuracy (≈ 1e-12 here; Gauss6 at
/// dt = 0.025 measured 1e-12 and no longer converged).
#[test]
fn the_munthe_kaas_scheme_reaches_its_tableaus_order_on_a_time_and_attitude_dependent_torque() {
    let (body, y0) = swinging();
    let t_end = 2.0;
    let yref = reference(&body, SwingingTop, &y0, t_end);
    let cases: [(&ButcherTableau, Frame, [f64; 3], f64); 5] = [
        (&GAUSS4, Frame::Lab, [0.1, 0.05, 0.025], 4.0),
        (&GAUSS4, Frame::Body, [0.1, 0.05, 0.025], 4.0),
        (&GAUSS6, Frame::Lab, [0.4, 0.2, 0.1], 6.0),
        (&RK4, Frame::Lab, [0.05, 0.025, 0.0125], 4.0),
        (&RK4, Frame::Body, [0.05, 0.025, 0.0125], 4.0),
    ];
    for (tableau, form, hs, order) in cases {
        let label = format!("{} {form:?}", tableau.name);
        let integrator = mk(tableau, form, body, SwingingTop);
        assert_eq!(integrator.order(), order as usize, "{label}");
        let (p_pi, p_r) = measure(
            &label,
            || mk(tableau, form, body, SwingingTop),
            &y0,
            &yref,
            &hs,
            t_end,
        )
        .orders();
        assert_in(&format!("{label} Π order"), p_pi, order - 0.2, order + 0.2);
        assert_in(&format!("{label} R order"), p_r, order - 0.2, order + 0.2);
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Conservation in torque-free motion.

/// The largest relative drifts of the kinetic energy and of the spatial momentum `RΠ` over
/// 2000 steps of 0.1 on Krysl's free body, run by `integrate` (which carries each method's
/// native state between steps) and observed after every step.
fn torque_free_drifts(method: KryslMethod) -> (f64, f64) {
    let problem = KryslProblem::free_body().expect("the free body");
    let body = *problem.body();
    let y0 = problem.initial_state();
    let j_inv = inverse_inertia(&body);
    let energy = |y: &RigidBodyState| 0.5 * y.1.0.dot(&y.1.0.component_mul(&j_inv));
    let momentum = |y: &RigidBodyState| y.0.matrix() * y.1.0;
    let (k0, m0) = (energy(&y0), momentum(&y0));
    let (mut de, mut dm) = (0.0_f64, 0.0_f64);
    let y = krysl(method, body, problem.torque())
        .integrate_observed(0.0, &y0, 0.1, 2000, |_, _, y| {
            de = de.max((energy(y) - k0).abs() / k0);
            dm = dm.max((momentum(y) - m0).norm() / m0.norm());
        })
        .expect("a converging run");
    // The crate's helpers agree with the formulas above.
    assert!((kinetic_energy(&body, &y.1.0) - energy(&y)).abs() <= 1e-15 * k0);
    assert!((spatial_momentum(&y) - momentum(&y)).norm() <= 1e-15 * m0.norm());
    eprintln!(
        "{:>9}: max relative drift over 2000 steps of 0.1: energy {de:.3e}, spatial momentum {dm:.3e}",
        method.name()
    );
    (de, dm)
}

/// The relative conservation bound over 2000 steps. `integrate` keeps the spatial-form methods
/// (TRAPM, IMIDM, IMIDM_MK, BBTRAP, BBTRAPWD, SWC1) in `(R, π)` between steps, so `π` is only
/// touched by round-off: measured momentum drifts 1.4e-14 (TRAPM), 1.5e-14 (IMIDM), 6.0e-15
/// (IMIDM_MK), 4.5e-15 (BBTRAP), 6.1e-15 (BBTRAPWD); AKW, whose invariants are algebraic
/// identities of its body-frame update, 4.2e-15 (momentum) and 4.4e-15 (energy); energies of
/// IMID and BBTRAP 6.1e-15 and 4.7e-15 (before the native-form `integrate`, stepping with
/// `step`, the spatial-form drifts reached 1.2e-11, and SWC1's, then converting `π = RΠ` inside
/// its step, 6.2e-12). With the simplified-Newton Jacobian kept across steps (its solves stop
/// at the 1e-14 tolerance along a different path) SWC1's energy drift is 6.4e-14. Bound 1e-13.
const CONSERVED_BOUND: f64 = 1e-13;

/// Which invariants each method conserves in torque-free motion (energy, spatial momentum):
/// Krysl §3.5 (IMID: energy), §3.6–3.7 (TRAPM, IMIDM: momentum), §4 (SWC1, BBTRAP, AKW: both;
/// BBTRAPWD: momentum, being MKRK in the spatial form, but not energy without the truncation).
/// `false` entries are asserted to drift by more than 1e-6 (measured 5.8e-5 … 3e-4), so the
/// conservation checks can fail.
const INVARIANTS: [(KryslMethod, bool, bool); 9] = [
    (KryslMethod::Akw, true, true),
    (KryslMethod::BbTrap, true, true),
    (KryslMethod::BbTrapWd, false, true),
    (KryslMethod::Swc1, true, true),
    (KryslMethod::Trap, false, false),
    (KryslMethod::Imid, true, false),
    (KryslMethod::TrapM, false, true),
    (KryslMethod::ImidM, false, true),
    (KryslMethod::ImidMMk, false, true),
];

#[test]
fn the_methods_conserve_what_the_paper_says_in_torque_free_motion() {
    for (method, energy, momentum) in INVARIANTS {
        let (de, dm) = torque_free_drifts(method);
        for (what, conserved, drift) in [("energy", energy, de), ("momentum", momentum, dm)] {
            let name = format!("{} {what} drift", method.name());
            if conserved {
                assert_in(&name, drift, 0.0, CONSERVED_BOUND);
            } else {
                assert_in(&name, drift, 1e-6, 1.0);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 4. Time symmetry.

/// A span may step backward (`Span::stride(t, −h, n)`): the run is the same numbers as `n`
/// single steps of `−h` at `t − k h` (bit for bit), its clock ends at `t − n h`, and IMID, a
/// symmetric method, retraces the forward run to round-off on [`SwingingTop`] (time-dependent,
/// so the times of the backward steps matter).
#[test]
fn a_backward_span_retraces_a_forward_run() {
    let (body, y0) = swinging();
    let (h, n) = (0.05, 20);
    let mut imid = krysl(KryslMethod::Imid, body, SwingingTop);
    let end = imid.integrate(0.3, &y0, h, n).expect("a forward run");
    let t_end = 0.3 + n as f64 * h;
    let mut times = Vec::new();
    let back = imid
        .integrate_observed(t_end, &end, -h, n, |_, t, _| times.push(t))
        .expect("a backward run");
    assert_eq!(times.len(), n);
    assert_eq!(times[n - 1], t_end + n as f64 * -h);
    let mut by_steps = end;
    for k in 0..n {
        by_steps = imid
            .step(t_end + k as f64 * -h, &by_steps, -h)
            .expect("a backward step");
    }
    assert_eq!(back.1.0, by_steps.1.0);
    assert_eq!(back.0.matrix(), by_steps.0.matrix());
    let defect = distance(&back, &y0);
    eprintln!("IMID forward and back over {n} steps of {h}: {defect:.2e}");
    assert_in("IMID backward-run defect", defect, 0.0, 1e-12);
}

/// `|Φ_{−h}(Φ_h(y)) − y|` with the second step started at `t + h`.
fn symmetry_defect<F: Field>(integrator: &mut Bound<F>, t: f64, y: &RigidBodyState, h: f64) -> f64 {
    let forward = integrator.step(t, y, h).expect("a forward step");
    let back = integrator
        .step(t + h, &forward, -h)
        .expect("a backward step");
    distance(&back, y)
}

/// Every method but BBTRAPWD is symmetric: one step of h then one of −h returns to the start
/// within 1e-12 (measured ≤ 3e-15) on the slow top and on [`SwingingTop`] (whose time
/// dependence checks the times at which torques are taken). BBTRAPWD — the trapezoid MK with
/// the exact `dexp⁻¹`, coordinates centred at the step's start — is not: measured 7.0e-5
/// (slow top) and 3.5e-5 (swinging) at h = 0.1 (on the slow top 16.7× less at h = 0.05:
/// ~h⁴); asserted above 1e-7. Forward
/// Euler MK (not symmetric, defect ~h²) is the contrast, asserted above 1e-4.
#[test]
fn the_methods_are_time_symmetric_except_bbtrapwd() {
    let top = KryslProblem::slow_top().expect("the slow top");
    let (body, y_swing) = swinging();
    let h = 0.1;
    for method in KryslMethod::ALL {
        let on_top = symmetry_defect(
            &mut krysl(method, *top.body(), top.torque()),
            0.3,
            &top.initial_state(),
            h,
        );
        let on_swing = symmetry_defect(&mut krysl(method, body, SwingingTop), 0.3, &y_swing, h);
        eprintln!(
            "{:>9}: |Φ_-h Φ_h y − y| slow top {on_top:.2e}, swinging top {on_swing:.2e}",
            method.name()
        );
        for (what, defect) in [("slow top", on_top), ("swinging top", on_swing)] {
            let name = format!("{} symmetry defect on the {what}", method.name());
            if method == KryslMethod::BbTrapWd {
                assert_in(&name, defect, 1e-7, 1e-3);
            } else {
                assert_in(&name, defect, 0.0, 1e-12);
            }
        }
    }
    for form in [Frame::Body, Frame::Lab] {
        let defect = symmetry_defect(
            &mut mk(&EULER, form, *top.body(), top.torque()),
            0.3,
            &top.initial_state(),
            h,
        );
        eprintln!("forward Euler MK {form:?}: |Φ_-h Φ_h y − y| = {defect:.2e}");
        assert_in(&format!("forward Euler {form:?} defect"), defect, 1e-4, 1.0);
    }
}

// ---------------------------------------------------------------------------------------------
// 5. IMIDM two ways.

/// IMIDM as the composition bE(h/2) then fE(h/2) in the spatial form and as the implicit
/// midpoint Munthe-Kaas method (Krysl §3.7) give the same numbers on [`SwingingTop`]: along
/// 200 steps of 0.05, one step of each from the same state agrees to 1e-14 (measured
/// ≤ 1.8e-15: round-off and the 1e-14 solve tolerance). Run separately by `integrate` (each
/// carrying `(R, π)`), the two trajectories drift apart only as those round-off differences
/// are carried by the flow: measured 4.2e-15 after 10 steps, 9.5e-15 after 100 and at most
/// 4.5e-13 over 200 (7.3e-14 with a fresh Jacobian every step), asserted ≤ 1e-12 (with `step`,
/// which converts to `Π` and back each call,
/// they measured 3.7e-12). A discrepancy of the methods themselves (another stage time or
/// torque argument) would show in the one-step comparison at the size of a local error, O(h³).
#[test]
fn imidm_as_a_composition_equals_imidm_as_implicit_midpoint_munthe_kaas() {
    let (body, y0) = swinging();
    let h = 0.05;
    let mut composition = krysl(KryslMethod::ImidM, body, SwingingTop);
    let mut midpoint = krysl(KryslMethod::ImidMMk, body, SwingingTop);
    // One step of each from the states of the composition's run.
    let mut one_step = 0.0_f64;
    let mut a = y0;
    for n in 0..200 {
        let t = h * n as f64;
        let next_a = composition.step(t, &a, h).expect("a step");
        let from_a = midpoint.step(t, &a, h).expect("a step");
        one_step = one_step.max(distance(&next_a, &from_a));
        a = next_a;
    }
    // Two separate runs.
    let mut run = Vec::with_capacity(200);
    let a = krysl(KryslMethod::ImidM, body, SwingingTop)
        .integrate_observed(0.0, &y0, h, 200, |_, _, y| run.push(*y))
        .expect("a run");
    let mut apart = 0.0_f64;
    krysl(KryslMethod::ImidMMk, body, SwingingTop)
        .integrate_observed(0.0, &y0, h, 200, |n, _, y| {
            apart = apart.max(distance(&run[n - 1], y));
        })
        .expect("a run");
    let moved = distance(&a, &y0);
    eprintln!(
        "imidm vs imidm_mk over 200 steps of {h}: one step from the same state {one_step:.2e}, \
         separate runs {apart:.2e} (the state moved {moved:.2})"
    );
    assert!(moved > 0.5, "the run must go somewhere: {moved}");
    assert_in("imidm − imidm_mk, one step", one_step, 0.0, 1e-14);
    assert_in("imidm − imidm_mk, separate runs", apart, 0.0, 1e-12);
}

// ---------------------------------------------------------------------------------------------
// 6. Krysl's incremental Euler forms, written out by hand.

/// The start, time and step of the hand checks: [`SwingingTop`] at t = 0.7, h = 0.1.
const T0: f64 = 0.7;
const H: f64 = 0.1;

/// The body torque `T = Rᵀ t(t, R)`.
fn body_torque(t: f64, r: &Matrix3<f64>) -> Vector3<f64> {
    r.transpose() * lab_torque_of(&SwingingTop, t, r)
}

/// Forward Euler in the body form (Eq. 11) equals `Π₁ = Π₀ − h ω₀×Π₀ + h T₀`,
/// `R₁ = R₀ exp(h J⁻¹Π₀)`; backward Euler (Eq. 12) satisfies `Π₁ = Π₀ − h ω₁×Π₁ + h T₁`,
/// `R₁ = R₀ exp(h J⁻¹Π₁)` at its result (`T₁` at `t + h`, `R₁`).
#[test]
fn body_form_euler_steps_are_krysls_equations_11_and_12() {
    let (body, y0) = swinging();
    let j_inv = inverse_inertia(&body);
    let (r0, pi0) = (*y0.0.matrix(), y0.1.0);
    let w0 = pi0.component_mul(&j_inv);

    let fe = mk(&EULER, Frame::Body, body, SwingingTop)
        .step(T0, &y0, H)
        .expect("an explicit step");
    let pi1 = pi0 - w0.cross(&pi0) * H + body_torque(T0, &r0) * H;
    let r1 = r0 * rot(&(w0 * H));
    let (e_pi, e_r) = ((fe.1.0 - pi1).norm(), (fe.0.matrix() - r1).norm());
    eprintln!("Eq. 11 (fE body): |ΔΠ| {e_pi:.2e}, |ΔR| {e_r:.2e}");
    assert_in("Eq. 11 Π", e_pi, 0.0, 1e-14);
    assert_in("Eq. 11 R", e_r, 0.0, 1e-14);

    let be = mk(&BACKWARD_EULER, Frame::Body, body, SwingingTop)
        .step(T0, &y0, H)
        .expect("an implicit step");
    let (r1, pi1) = (*be.0.matrix(), be.1.0);
    let w1 = pi1.component_mul(&j_inv);
    let res_pi = (pi1 - (pi0 - w1.cross(&pi1) * H + body_torque(T0 + H, &r1) * H)).norm();
    let res_r = (r1 - r0 * rot(&(w1 * H))).norm();
    eprintln!("Eq. 12 (bE body): residuals Π {res_pi:.2e}, R {res_r:.2e}");
    assert_in("Eq. 12 Π residual", res_pi, 0.0, 1e-13);
    assert_in("Eq. 12 R residual", res_r, 0.0, 1e-13);
    // And it moved: it is not the start or the forward step.
    assert!(distance(&be, &y0) > 1e-2 && distance(&be, &fe) > 1e-3);
}

/// Forward Euler in the spatial (momentum-conserving) form equals Eq. (18),
/// `Π₁ = exp(−Ψ)(Π₀ + h T₀)`, `Ψ = h J⁻¹Π₀`, `R₁ = R₀ exp(Ψ)`; backward Euler satisfies
/// Eq. (19), `Π₁ = exp(−Ψ)(Π₀ + h exp(Ψ) T₁)`, `Ψ = h J⁻¹Π₁`, at its result.
#[test]
fn spatial_form_euler_steps_are_krysls_equations_18_and_19() {
    let (body, y0) = swinging();
    let j_inv = inverse_inertia(&body);
    let (r0, pi0) = (*y0.0.matrix(), y0.1.0);

    let fe = mk(&EULER, Frame::Lab, body, SwingingTop)
        .step(T0, &y0, H)
        .expect("an explicit step");
    let psi = pi0.component_mul(&j_inv) * H;
    let pi1 = rot(&-psi) * (pi0 + body_torque(T0, &r0) * H);
    let r1 = r0 * rot(&psi);
    let (e_pi, e_r) = ((fe.1.0 - pi1).norm(), (fe.0.matrix() - r1).norm());
    eprintln!("Eq. 18 (fE spatial): |ΔΠ| {e_pi:.2e}, |ΔR| {e_r:.2e}");
    assert_in("Eq. 18 Π", e_pi, 0.0, 1e-14);
    assert_in("Eq. 18 R", e_r, 0.0, 1e-14);

    let be = mk(&BACKWARD_EULER, Frame::Lab, body, SwingingTop)
        .step(T0, &y0, H)
        .expect("an implicit step");
    let (r1, pi1) = (*be.0.matrix(), be.1.0);
    let psi = pi1.component_mul(&j_inv) * H;
    let t1 = body_torque(T0 + H, &r1);
    let res_pi = (pi1 - rot(&-psi) * (pi0 + rot(&psi) * t1 * H)).norm();
    let res_r = (r1 - r0 * rot(&psi)).norm();
    eprintln!("Eq. 19 (bE spatial): residuals Π {res_pi:.2e}, R {res_r:.2e}");
    assert_in("Eq. 19 Π residual", res_pi, 0.0, 1e-13);
    assert_in("Eq. 19 R residual", res_r, 0.0, 1e-13);
    assert!(distance(&be, &y0) > 1e-2 && distance(&be, &fe) > 1e-3);
}

/// Krysl §3.2: forward and backward Euler are mutual adjoints, `Φ^bE_{−h} ∘ Φ^fE_h = Id` and
/// `Φ^fE_{−h} ∘ Φ^bE_h = Id`, in both forms, on the time- and attitude-dependent torque; and
/// the named compositions are these steps composed as §3.3–3.6 say (TRAP = bE(h/2) ∘ fE(h/2),
/// IMID = fE(h/2) ∘ bE(h/2); TRAPM, IMIDM the same in the spatial form).
#[test]
fn forward_and_backward_euler_are_mutual_adjoints_and_compose_to_the_named_methods() {
    let (body, y0) = swinging();
    for form in [Frame::Body, Frame::Lab] {
        let mut fe = mk(&EULER, form, body, SwingingTop);
        let mut be = mk(&BACKWARD_EULER, form, body, SwingingTop);
        let y1 = fe.step(T0, &y0, H).expect("fE");
        let back = be.step(T0 + H, &y1, -H).expect("bE");
        let d1 = distance(&back, &y0);
        let y1 = be.step(T0, &y0, H).expect("bE");
        let back = fe.step(T0 + H, &y1, -H).expect("fE");
        let d2 = distance(&back, &y0);
        eprintln!("{form:?}: |bE_-h fE_h y − y| {d1:.2e}, |fE_-h bE_h y − y| {d2:.2e}");
        assert_in("bE_-h ∘ fE_h", d1, 0.0, 1e-13);
        assert_in("fE_-h ∘ bE_h", d2, 0.0, 1e-13);

        let half = 0.5 * H;
        let trap_by_hand = be
            .step(T0 + half, &fe.step(T0, &y0, half).expect("fE"), half)
            .expect("bE");
        let mid_by_hand = fe
            .step(T0 + half, &be.step(T0, &y0, half).expect("bE"), half)
            .expect("fE");
        let (trap, mid) = match form {
            Frame::Body => (KryslMethod::Trap, KryslMethod::Imid),
            Frame::Lab => (KryslMethod::TrapM, KryslMethod::ImidM),
        };
        let d_trap = distance(
            &krysl(trap, body, SwingingTop)
                .step(T0, &y0, H)
                .expect("a step"),
            &trap_by_hand,
        );
        let d_mid = distance(
            &krysl(mid, body, SwingingTop)
                .step(T0, &y0, H)
                .expect("a step"),
            &mid_by_hand,
        );
        eprintln!(
            "{form:?}: {} vs bE∘fE {d_trap:.2e}, {} vs fE∘bE {d_mid:.2e}",
            trap.name(),
            mid.name()
        );
        assert_in("trap composition", d_trap, 0.0, 1e-14);
        assert_in("mid composition", d_mid, 0.0, 1e-14);
        // The two orders differ: the comparison can tell them apart.
        assert!(distance(&trap_by_hand, &mid_by_hand) > 1e-6);
    }
}

// ---------------------------------------------------------------------------------------------
// 7. AKW's Cayley update.

/// AKW moves the attitude by the Cayley map: from a step's input and output,
/// `Π̄ = (Π_n + Π_{n+1})/2`, `A = h J⁻¹Π̄`, `R_{n+1} = R_n cay(A)` (to 1e-14), and not by the
/// exponential (the two differ by ≈ |A|³/12, here ≥ 1e-4 — a public port uses `exp`). The
/// momentum satisfies AKW's equation `Π_{n+1} = Π_n − h (J⁻¹Π̄) × Π̄ + (h/2)(T_n + T_{n+1})`.
/// On the slow top (fast spin, |A| ≈ 0.5) and on [`SwingingTop`].
#[test]
fn akw_moves_the_attitude_by_the_cayley_map_not_the_exponential() {
    let top = KryslProblem::slow_top().expect("the slow top");
    let (swing_body, swing_start) = swinging();
    let top_torque = top.torque();
    let top_body_torque =
        |t: f64, r: &Matrix3<f64>| r.transpose() * lab_torque_of(&top_torque, t, r);
    let top_step = krysl(KryslMethod::Akw, *top.body(), top.torque())
        .step(T0, &top.initial_state(), 0.1)
        .expect("an AKW step");
    let swing_step = krysl(KryslMethod::Akw, swing_body, SwingingTop)
        .step(T0, &swing_start, 0.25)
        .expect("an AKW step");
    type BodyTorque<'a> = &'a dyn Fn(f64, &Matrix3<f64>) -> Vector3<f64>;
    let cases: [(
        &str,
        RigidBody,
        RigidBodyState,
        RigidBodyState,
        f64,
        BodyTorque,
    ); 2] = [
        (
            "slow top",
            *top.body(),
            top.initial_state(),
            top_step,
            0.1,
            &top_body_torque,
        ),
        (
            "swinging top",
            swing_body,
            swing_start,
            swing_step,
            0.25,
            &body_torque,
        ),
    ];
    for (label, body, y0, y1, h, torque) in cases {
        let j_inv = inverse_inertia(&body);
        let (r0, r1) = (*y0.0.matrix(), *y1.0.matrix());
        let mean = (y0.1.0 + y1.1.0) * 0.5;
        let a = mean.component_mul(&j_inv) * h;
        let by_cayley = (r1 - r0 * cayley(&a)).norm();
        let by_exp = (r1 - r0 * rot(&a)).norm();
        let momentum = (y1.1.0
            - (y0.1.0 - mean.component_mul(&j_inv).cross(&mean) * h
                + (torque(T0, &r0) + torque(T0 + h, &r1)) * (0.5 * h)))
            .norm();
        eprintln!(
            "akw {label}: |A| {:.2}, |R₁ − R₀ cay(A)| {by_cayley:.2e}, |R₁ − R₀ exp(A)| {by_exp:.2e}, momentum residual {momentum:.2e}",
            a.norm()
        );
        assert_in("R₁ − R₀ cay(A)", by_cayley, 0.0, 1e-14);
        assert_in("R₁ − R₀ exp(A)", by_exp, 1e-4, 1.0);
        assert_in("AKW momentum residual", momentum, 0.0, 1e-13);
    }
}

// ---------------------------------------------------------------------------------------------
// 8. The long run of §5.4 and the solver's fallback.

/// The methods of Krysl's Figs. 4–5: the present four, then the reference three.
const LONG_RUN: [KryslMethod; 7] = [
    KryslMethod::Trap,
    KryslMethod::Imid,
    KryslMethod::TrapM,
    KryslMethod::ImidM,
    KryslMethod::Akw,
    KryslMethod::BbTrap,
    KryslMethod::Swc1,
];

/// The potential of §5.4 written out: `V(u) = 1/(1.1 + u) − 0.001 (1.1 + u)⁻¹⁰`, `u = R₃₃`.
fn coulomb_potential(r: &Matrix3<f64>) -> f64 {
    let x = 1.1 + r[(2, 2)];
    1.0 / x - 0.001 / x.powi(10)
}

/// The Coulomb torque is the paper's printed formula
/// `t = (−(1.1 + u)⁻² + 0.01 (1.1 + u)⁻¹¹)(−R₂₃, R₁₃, 0)` and the torque of
/// [`coulomb_potential`], `t_k = −∂V(exp(ε ê_k) R)/∂ε` (central differences, ε = 1e-6), at a
/// generic attitude — so the Hamiltonian below is the energy of the torque the methods see.
fn assert_coulomb_torque_is_the_printed_formula(torque: &impl Torque) {
    let r = rot(&Vector3::new(0.9, -0.4, 0.3));
    let x = 1.1 + r[(2, 2)];
    let printed = Vector3::new(-r[(1, 2)], r[(0, 2)], 0.0) * (-x.powi(-2) + 0.01 * x.powi(-11));
    let t = lab_torque_of(torque, 0.0, &r);
    let eps = 1e-6;
    let gradient = Vector3::from_fn(|k, _| {
        let e = Vector3::from_fn(|i, _| if i == k { eps } else { 0.0 });
        -(coulomb_potential(&(rot(&e) * r)) - coulomb_potential(&(rot(&-e) * r))) / (2.0 * eps)
    });
    let (by_formula, by_potential) = ((t - printed).norm(), (t - gradient).norm());
    eprintln!(
        "coulomb torque {:?}: vs printed formula {by_formula:.1e}, vs −∇V {by_potential:.1e}",
        t.as_slice()
    );
    assert_in(
        "torque − printed formula",
        by_formula,
        0.0,
        1e-14 * t.norm(),
    );
    assert_in("torque − (−∇V)", by_potential, 0.0, 1e-8 * t.norm());
}

/// The long run of Krysl's Figs. 4–5 at the paper's step: `KryslProblem::coulomb()`,
/// Δt = 0.5, 40 000 steps (t = 20 000), the seven methods of the figures with the default
/// Newton solver. Every run completes (no failure). The relative Hamiltonian error
/// `|H − H₀|/|H₀|` (the crate's `hamiltonian`, checked against [`coulomb_potential`] written
/// out here) is recorded after every step. Measured maxima:
///
/// | method | 1st 10 000 | 2nd | 3rd | last 10 000 |
/// |---|---|---|---|---|
/// | trap   | 9.06e-3 | 9.05e-3 | 9.06e-3 | 9.06e-3 |
/// | imid   | 6.84e-3 | 6.85e-3 | 6.85e-3 | 6.85e-3 |
/// | trapm  | 1.20e-2 | 1.23e-2 | 1.22e-2 | 1.22e-2 |
/// | imidm  | 5.23e-3 | 5.22e-3 | 5.23e-3 | 5.22e-3 |
/// | akw    | 3.05e-2 | 3.30e-2 | 3.42e-2 | 2.91e-2 |
/// | bbtrap | 4.32e-2 | 3.42e-2 | 3.24e-2 | 1.67e-2 |
/// | swc1   | 4.85e-2 | 5.15e-2 | 5.72e-2 | 6.34e-2 |
///
/// (Measured separately: IMIDM_MK gives IMIDM's numbers; BBTRAPWD, not in the figures,
/// 0.35–0.45.) Asserted: the present methods ≤ 1.5e-2, the reference methods ≤ 8e-2; no
/// growth, the maximum over the last 10 000 steps ≤ 1.5× that over the first 10 000 (the
/// largest ratio is SWC1's, 1.31: its error creeps up quarter by quarter, 4.8e-2 → 6.3e-2,
/// the only method whose error grows; BBTRAP's falls, 4.3e-2 → 1.7e-2); and the paper's
/// comparison: the largest maximum of the present four (TRAPM, 1.23e-2) is below half the
/// smallest of the reference three (AKW, 3.42e-2; measured ratio 2.8, and 5.6× between the
/// means of the groups' maxima, 8.4e-3 and 4.7e-2: the figures' "about 5×").
#[test]
fn coulomb_long_run_at_the_papers_step_keeps_the_hamiltonian_error_bounded() {
    let problem = KryslProblem::coulomb().expect("the Coulomb problem");
    let body = *problem.body();
    let torque = problem.torque();
    assert_coulomb_torque_is_the_printed_formula(&torque);
    let j_inv = inverse_inertia(&body);
    let by_hand = |y: &RigidBodyState| {
        0.5 * y.1.0.dot(&y.1.0.component_mul(&j_inv)) + coulomb_potential(y.0.matrix())
    };
    let energy =
        |y: &RigidBodyState| hamiltonian(&body, &torque, y).expect("a conservative torque");
    let y0 = problem.initial_state();
    let h0 = energy(&y0);
    assert!(
        (h0 - by_hand(&y0)).abs() <= 1e-15 * h0.abs(),
        "{h0} vs {}",
        by_hand(&y0)
    );
    let (dt, steps) = (0.5, 40_000);
    let mut maxima = Vec::new();
    for method in LONG_RUN {
        let mut quarters = [0.0_f64; 4];
        let end = krysl(method, body, torque)
            .integrate_observed(0.0, &y0, dt, steps, |n, _, y| {
                let e = ((energy(y) - h0) / h0).abs();
                let q = &mut quarters[(n - 1) / 10_000];
                *q = q.max(e);
            })
            .unwrap_or_else(|e| panic!("{}: the run at dt = 0.5 fails: {e}", method.name()));
        assert!(end.is_finite(), "{}", method.name());
        assert!((energy(&end) - by_hand(&end)).abs() <= 1e-14 * h0.abs());
        let worst = quarters.iter().copied().fold(0.0, f64::max);
        eprintln!(
            "{:>9}: max |H − H₀|/|H₀| per 10 000 steps of 0.5: {}  (max {worst:.3e}, last/first {:.2})",
            method.name(),
            fmt(&quarters),
            quarters[3] / quarters[0]
        );
        let present = matches!(
            method,
            KryslMethod::Trap | KryslMethod::Imid | KryslMethod::TrapM | KryslMethod::ImidM
        );
        let bound = if present { 1.5e-2 } else { 8e-2 };
        assert_in(
            &format!("{} Hamiltonian error", method.name()),
            worst,
            0.0,
            bound,
        );
        assert!(
            quarters[3] <= 1.5 * quarters[0],
            "{}: the Hamiltonian error grows: {quarters:?}",
            method.name()
        );
        maxima.push(worst);
    }
    let (present, reference) = maxima.split_at(4);
    let largest_present = present.iter().copied().fold(0.0, f64::max);
    let smallest_reference = reference.iter().copied().fold(f64::INFINITY, f64::min);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    eprintln!(
        "H₀ = {h0:.6}; present methods' largest maximum {largest_present:.3e}, reference methods' \
         smallest {smallest_reference:.3e} (ratio {:.2}); means {:.3e} vs {:.3e} (ratio {:.2})",
        smallest_reference / largest_present,
        mean(present),
        mean(reference),
        mean(reference) / mean(present)
    );
    assert!(
        2.0 * largest_present <= smallest_reference,
        "present {present:?} vs reference {reference:?}"
    );
}

/// AKW's step equation for `Z = Π_{n+1} − Π_n` from `y = (R_n, Π_n)` at `t`, written out:
/// `F(Z) = Z − h[(T_n + T_{n+1})/2 − ω̄ × Π̄]`, `Π̄ = Π_n + Z/2`, `ω̄ = J⁻¹Π̄`,
/// `R_{n+1} = R_n cay(h ω̄)`, `T = Rᵀ t(·, R)` (body torques at `t` and `t + h`).
fn akw_residual<F: Field>(
    body: &RigidBody,
    torque: &F,
    t: f64,
    h: f64,
    y: &RigidBodyState,
    z: &Vector3<f64>,
) -> Vector3<f64> {
    let (r0, pi0) = (*y.0.matrix(), y.1.0);
    let mean = pi0 + z * 0.5;
    let w = mean.component_mul(&inverse_inertia(body));
    let r1 = r0 * cayley(&(w * h));
    let t0 = r0.transpose() * lab_torque_of(torque, t, &r0);
    let t1 = r1.transpose() * lab_torque_of(torque, t + h, &r1);
    z - ((t0 + t1) * 0.5 - w.cross(&mean)) * h
}

/// `∂F/∂Z` at `z` by central differences (step 1e-7).
fn jacobian_by_differences(
    f: &dyn Fn(&Vector3<f64>) -> Vector3<f64>,
    z: &Vector3<f64>,
) -> Matrix3<f64> {
    let mut jacobian = Matrix3::zeros();
    for c in 0..3 {
        let e = Vector3::from_fn(|i, _| if i == c { 1e-7 } else { 0.0 });
        jacobian.set_column(c, &((f(&(z + e)) - f(&(z - e))) / 2e-7));
    }
    jacobian
}

/// `|F(Z)|` after 100 iterations (the library's default limit) of `Z ← update(Z, F(Z))` from
/// `Z = 0`, or infinity once an iterate is non-finite or leaves `|Z| ≤ 1e6`.
fn iterate_by_hand(
    f: &dyn Fn(&Vector3<f64>) -> Vector3<f64>,
    update: impl Fn(&Vector3<f64>, &Vector3<f64>) -> Vector3<f64>,
) -> f64 {
    let mut z = Vector3::zeros();
    for _ in 0..100 {
        let next = update(&z, &f(&z));
        if !(next.iter().all(|v| v.is_finite()) && next.norm() <= 1e6) {
            return f64::INFINITY;
        }
        z = next;
    }
    f(&z).norm()
}

/// The residual left by simplified Newton written out by hand — `Z ← Z − M⁻¹F(Z)` with the
/// Jacobian `M = ∂F/∂Z` frozen at `Z = 0` — and by fixed-point iteration `Z ← Z − F(Z)`
/// (i.e. `Z ← h K(Z)`), each from `Z = 0` for 100 iterations.
fn simplified_newton_and_fixed_point_by_hand(
    f: &dyn Fn(&Vector3<f64>) -> Vector3<f64>,
) -> (f64, f64) {
    let m = jacobian_by_differences(f, &Vector3::zeros()).lu();
    let newton = iterate_by_hand(f, |z, fz| z - m.solve(fz).expect("a regular Jacobian"));
    let fixed = iterate_by_hand(f, |z, fz| z - fz);
    (newton, fixed)
}

/// Damped Newton written out by hand (difference Jacobian at each iterate, step halved until
/// `|F|` decreases, at most 200 iterations) from `Z = 0`: the final `|F|`.
fn damped_newton_by_hand(f: &dyn Fn(&Vector3<f64>) -> Vector3<f64>) -> f64 {
    let mut z = Vector3::zeros();
    for _ in 0..200 {
        let fz = f(&z);
        if fz.norm() <= 1e-13 {
            break;
        }
        let Some(dz) = jacobian_by_differences(f, &z).lu().solve(&-fz) else {
            break;
        };
        // The largest of 1, ½, …, 2⁻¹⁹ that decreases |F| (a NaN trial does not).
        let decreases = |lambda: f64| f(&(z + dz * lambda)).norm() < fz.norm();
        let Some(lambda) = (0..20).map(|k| 0.5_f64.powi(k)).find(|&l| decreases(l)) else {
            break;
        };
        z += dz * lambda;
    }
    f(&z).norm()
}

/// IMIDM's equations checked at a step `y → next` of size `h` from `t`, written out: with the
/// midpoint momentum `Π₁` and `Ψ = (h/2) J⁻¹Π₁`, bE(h/2) (Eq. 19) is
/// `Π₁ = exp(−Ψ)(Π₀ + (h/2) exp(Ψ) T₁)`, `R₁ = R₀ exp(Ψ)`, and fE(h/2) (Eq. 18, whose `Ψ` is
/// the same) gives `Π₂ = exp(−Ψ)(Π₁ + (h/2) T₁)`, `R₂ = R₁ exp(Ψ)`, with `T₁ = R₁ᵀ t(t + h/2, R₁)`
/// taken once. So `R₂ = R₀ exp(2Ψ)` determines `Π₁ = J log(R₀ᵀR₂)/h` (for `|2Ψ| < π`), and the
/// returned residuals are those of Eq. 19 (as `exp(Ψ)Π₁ − Π₀ − (h/2) exp(Ψ) T₁`), of Eq. 18 and of
/// the spatial impulse balance `R₂Π₂ = R₀Π₀ + h t(t + h/2, R₁)`; also `|2Ψ|`.
fn imidm_residuals<F: Field>(
    body: &RigidBody,
    torque: &F,
    t: f64,
    h: f64,
    y: &RigidBodyState,
    next: &RigidBodyState,
) -> ([f64; 3], f64) {
    let (r0, pi0) = (*y.0.matrix(), y.1.0);
    let (r2, pi2) = (*next.0.matrix(), next.1.0);
    let two_psi = Rotation3::from_matrix_unchecked(r0.transpose() * r2).scaled_axis();
    let psi = two_psi * 0.5;
    let pi1 = psi.component_mul(&body.inertia()) * (2.0 / h);
    let r1 = r0 * rot(&psi);
    let spatial = lab_torque_of(torque, t + 0.5 * h, &r1);
    let t1 = r1.transpose() * spatial;
    let eq19 = (rot(&psi) * pi1 - pi0 - rot(&psi) * t1 * (0.5 * h)).norm();
    let eq18 = (pi2 - rot(&-psi) * (pi1 + t1 * (0.5 * h))).norm();
    let balance = (r2 * pi2 - r0 * pi0 - spatial * h).norm();
    ([eq19, eq18, balance], two_psi.norm())
}

/// The fallback does real work, and what it returns solves the methods' equations written out
/// here (independent of the solver's internals):
///
/// 1. At the paper's Δt = 0.5, over AKW's first 120 Coulomb steps, every step satisfies AKW's
///    equation ([`akw_residual`]) to 1e-13 (measured ≤ 7.1e-15), while simplified Newton
///    written out by hand (Jacobian frozen at `Z = 0`, 100 iterations) leaves `|F| > 1e-10` on
///    three of them (steps 56, 82, 108: measured 8.1e-4, 0.60, 0.46 — it stalls, neither
///    converging nor diverging); hand fixed-point iteration solves those (`|F| ≤ 1e-12`).
/// 2. At h = 1.25, from the state after one AKW step, both hand iterations fail (simplified
///    Newton stalls at `|F|` = 3.5e-5, fixed point diverges), the library's `FixedPoint` solver
///    fails with a typed error (measured `NonFiniteState`), and the library's Newton step
///    evaluates Jacobians at the iterates (9 in the step, measured: the damped Newton
///    fallback) and returns a `Z` with `|F| ≤ 1e-12` (measured 4.7e-16; the equation has two
///    roots here, `|Z|` = 0.91 and 1.52 — the step lands on the first).
/// 3. The engine's fallback (the Munthe-Kaas stage solve): IMIDM and IMIDM_MK at h = 2 from the
///    state after one step of the method — `FixedPoint` fails (`NonConvergence`), Newton
///    evaluates 7 Jacobians in the step, and the result satisfies IMIDM's equations
///    ([`imidm_residuals`]) to 1e-12 (measured ≤ 2.3e-15; `|hω₁|` = 1.9).
#[test]
fn the_fallback_solves_steps_simplified_newton_cannot_and_the_results_solve_the_equations() {
    let problem = KryslProblem::coulomb().expect("the Coulomb problem");
    let body = *problem.body();
    let torque = problem.torque();
    let y0 = problem.initial_state();

    // 1. The paper's step.
    let h = 0.5;
    let mut akw = krysl(KryslMethod::Akw, body, torque);
    let mut y = y0;
    let (mut worst, mut stalled) = (0.0_f64, Vec::new());
    for n in 0..120 {
        let t = h * n as f64;
        let next = akw.step(t, &y, h).expect("a converging step");
        let f = |z: &Vector3<f64>| akw_residual(&body, &torque, t, h, &y, z);
        worst = worst.max(f(&(next.1.0 - y.1.0)).norm());
        let (newton, fixed) = simplified_newton_and_fixed_point_by_hand(&f);
        if newton > 1e-10 {
            eprintln!(
                "akw dt = 0.5, step {n}: hand simplified Newton |F| {newton:.2e}, hand fixed point {fixed:.2e}"
            );
            assert_in(
                "hand fixed point where simplified Newton stalls",
                fixed,
                0.0,
                1e-12,
            );
            stalled.push(n);
        }
        y = next;
    }
    eprintln!(
        "akw dt = 0.5: worst residual of 120 library steps {worst:.2e}; simplified Newton alone fails at steps {stalled:?}"
    );
    assert_in("AKW residual at dt = 0.5", worst, 0.0, 1e-13);
    assert!(
        !stalled.is_empty(),
        "measured: simplified Newton alone fails at steps 56, 82, 108"
    );

    // 2. AKW at h = 1.25: only damped Newton solves the step.
    let h = 1.25;
    let mut akw = krysl(KryslMethod::Akw, body, torque);
    let (y, t) = (akw.step(0.0, &y0, h).expect("the first step"), h);
    let f = |z: &Vector3<f64>| akw_residual(&body, &torque, t, h, &y, z);
    let (newton, fixed) = simplified_newton_and_fixed_point_by_hand(&f);
    let jacobians = akw.stats().jacobian_evaluations;
    let next = akw.step(h, &y, h).expect("the fallback solves the step");
    let jacobians = akw.stats().jacobian_evaluations - jacobians;
    let z = next.1.0 - y.1.0;
    let residual = f(&z).norm();
    let by_fixed_point = Bound::krysl(KryslMethod::Akw, body, torque, Solver::FixedPoint)
        .expect("a method")
        .step(h, &y, h);
    eprintln!(
        "akw h = 1.25, t = 1.25: hand simplified Newton |F| {newton:.2e}, hand fixed point {fixed:.2e}; \
         library FixedPoint {by_fixed_point:?}; library Newton: {jacobians} Jacobians, |F| {residual:.2e}, |Z| {:.3}",
        z.norm()
    );
    assert_in(
        "hand simplified Newton at h = 1.25",
        newton,
        1e-8,
        f64::INFINITY,
    );
    assert_in("hand fixed point at h = 1.25", fixed, 1e-8, f64::INFINITY);
    assert!(
        matches!(
            by_fixed_point,
            Err(Error::NonConvergence { .. } | Error::NonFiniteState { .. })
        ),
        "{by_fixed_point:?}"
    );
    assert!(
        jacobians >= 2,
        "the damped Newton fallback ran: {jacobians}"
    );
    assert_in("AKW residual at h = 1.25", residual, 0.0, 1e-12);

    // 3. IMIDM (composition and Munthe-Kaas) at h = 2.
    let h = 2.0;
    for method in [KryslMethod::ImidM, KryslMethod::ImidMMk] {
        let name = method.name();
        let mut integrator = krysl(method, body, torque);
        let y = integrator.step(0.0, &y0, h).expect("the first step");
        let jacobians = integrator.stats().jacobian_evaluations;
        let next = integrator
            .step(h, &y, h)
            .expect("the fallback solves the step");
        let jacobians = integrator.stats().jacobian_evaluations - jacobians;
        let by_fixed_point = Bound::krysl(method, body, torque, Solver::FixedPoint)
            .expect("a method")
            .step(h, &y, h);
        let (residuals, angle) = imidm_residuals(&body, &torque, h, h, &y, &next);
        eprintln!(
            "{name} h = 2, t = 2: library FixedPoint {by_fixed_point:?}; Newton: {jacobians} Jacobians; \
             |2Ψ| {angle:.3}, residuals Eq. 19 / Eq. 18 / impulse [{}]",
            fmt(&residuals)
        );
        assert!(by_fixed_point.is_err(), "{name}: {by_fixed_point:?}");
        assert!(
            jacobians >= 2,
            "{name}: the damped Newton fallback ran: {jacobians}"
        );
        assert!(angle < 3.0, "{name}: |2Ψ| = {angle} must stay below π");
        for (what, r) in ["Eq. 19", "Eq. 18", "impulse"].iter().zip(residuals) {
            assert_in(&format!("{name} {what} residual at h = 2"), r, 0.0, 1e-12);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 9. Solvers, statistics and errors.

/// Newton and fixed-point iteration solve the same equations: for a moderate step (h = 0.05
/// on the swinging top, h|ω| ≈ 0.08) every implicit method gives the same step to 1e-12.
#[test]
fn newton_and_fixed_point_give_the_same_step() {
    let (body, y0) = swinging();
    let options = NonlinearOptions::default();
    let pairs: Vec<(String, Bound<SwingingTop>, Bound<SwingingTop>)> = KryslMethod::ALL
        .into_iter()
        .map(|m| {
            let make = |solver| Bound::krysl(m, body, SwingingTop, solver).expect("a method");
            (
                m.name().to_string(),
                make(Solver::Newton),
                make(Solver::FixedPoint),
            )
        })
        .chain([GAUSS4, GAUSS6].iter().map(|tableau| {
            let make = |solver| {
                Bound::munthe_kaas(tableau, Frame::Lab, body, SwingingTop, solver, options)
                    .expect("a tableau")
            };
            (
                tableau.name.to_string(),
                make(Solver::Newton),
                make(Solver::FixedPoint),
            )
        }))
        .collect();
    for (name, mut newton, mut fixed) in pairs {
        let a = newton.step(T0, &y0, 0.05).expect("Newton");
        let b = fixed.step(T0, &y0, 0.05).expect("fixed point");
        let d = distance(&a, &b);
        eprintln!(
            "{name:>18}: |Newton − fixed point| {d:.2e}; iterations {} vs {}, Jacobians {} vs {}",
            newton.stats().nonlinear_iterations,
            fixed.stats().nonlinear_iterations,
            newton.stats().jacobian_evaluations,
            fixed.stats().jacobian_evaluations
        );
        assert_in(&format!("{name} Newton vs fixed point"), d, 0.0, 1e-12);
        assert!(newton.stats().jacobian_evaluations >= 1, "{name}");
        assert_eq!(fixed.stats().jacobian_evaluations, 0, "{name}");
        assert!(fixed.stats().nonlinear_iterations >= 2, "{name}");
    }
}

/// `integrate` is `steps` steps of the method, and the statistics count them (one step per
/// `step` call). The body-form methods (TRAP, IMID, SWC1, AKW) have nothing to convert, and
/// `integrate` equals 10 calls of `step` bit for bit. The spatial-form methods differ at
/// round-off: `step` converts `(R, Π) → (R, RΠ) → (R, Π)` every call, `integrate` only at the
/// ends — measured 6.0e-15 (BBTRAP) to 1.6e-14 (IMIDM) over 10 steps of 0.05 on the swinging
/// top, asserted ≤ 1e-13 (the differences then grow with the flow: ≤ 2.5e-12 after 100 steps,
/// ≤ 2.3e-9 after 1000). An explicit tableau runs the explicit engine (no nonlinear
/// iterations).
#[test]
fn integrate_repeats_step_and_the_statistics_count() {
    let (body, y0) = swinging();
    for method in KryslMethod::ALL {
        let mut a = Bound::krysl(method, body, SwingingTop, Solver::Newton).expect("a method");
        let mut b = a.clone();
        let by_integrate = a.integrate(T0, &y0, 0.05, 10).expect("a run");
        let mut by_step = y0;
        for n in 0..10 {
            by_step = b
                .step(T0 + 0.05 * n as f64, &by_step, 0.05)
                .expect("a step");
        }
        let d = distance(&by_integrate, &by_step);
        eprintln!(
            "{:>9} ({:?} form): |integrate − 10 × step| {d:.2e}",
            method.name(),
            a.form()
        );
        match a.form() {
            Frame::Body => assert_eq!(by_integrate, by_step, "{}", method.name()),
            Frame::Lab => assert_in(method.name(), d, 0.0, 1e-13),
        }
        assert_eq!((a.stats().steps, a.stats().accepted), (10, 10));
        assert_eq!((b.stats().steps, b.stats().accepted), (10, 10));
        assert!(a.stats().nonlinear_iterations >= 10, "{}", method.name());
        assert_eq!(a.name(), method.name());
        assert_eq!(a.order(), 2);
    }
    let mut rk4 = mk(&RK4, Frame::Lab, body, SwingingTop);
    rk4.integrate(T0, &y0, 0.05, 10).expect("a run");
    assert_eq!(rk4.stats().nonlinear_iterations, 0);
    assert_eq!(rk4.stats().steps, 10);
    assert!(rk4.stats().rhs_evaluations >= 40);
}

/// Names: every method round-trips through `name`/`from_name`; an unknown name is
/// `InvalidParameter` naming `method`.
#[test]
fn method_names_round_trip_and_unknown_names_are_typed_errors() {
    for method in KryslMethod::ALL {
        assert_eq!(KryslMethod::from_name(method.name()), Ok(method));
    }
    assert!(matches!(
        KryslMethod::from_name("nope"),
        Err(Error::InvalidParameter { name: "method", .. })
    ));
}

/// Invalid solver settings are `InvalidParameter` naming the setting, from both
/// constructors: tolerance 0, negative, NaN or infinite; `max_iterations` 0.
#[test]
fn invalid_solver_settings_are_typed_errors() {
    let (body, _) = swinging();
    let bad: [(NonlinearOptions, &str); 5] = [
        (
            NonlinearOptions {
                tolerance: 0.0,
                max_iterations: 10,
            },
            "tolerance",
        ),
        (
            NonlinearOptions {
                tolerance: -1e-10,
                max_iterations: 10,
            },
            "tolerance",
        ),
        (
            NonlinearOptions {
                tolerance: f64::NAN,
                max_iterations: 10,
            },
            "tolerance",
        ),
        (
            NonlinearOptions {
                tolerance: f64::INFINITY,
                max_iterations: 10,
            },
            "tolerance",
        ),
        (
            NonlinearOptions {
                tolerance: 1e-12,
                max_iterations: 0,
            },
            "max_iterations",
        ),
    ];
    for (options, expected) in bad {
        for solver in [Solver::Newton, Solver::FixedPoint] {
            let by_krysl =
                Bound::krysl_with_options(KryslMethod::ImidM, body, SwingingTop, solver, options);
            let by_mk = Bound::munthe_kaas(&GAUSS4, Frame::Lab, body, SwingingTop, solver, options);
            for result in [by_krysl.map(|_| ()), by_mk.map(|_| ())] {
                // NaN or an infinity is NonFinite; a finite value out of range InvalidParameter.
                match result {
                    Err(Error::NonFinite { name }) if !options.tolerance.is_finite() => {
                        assert_eq!(name, expected, "{options:?}")
                    }
                    Err(Error::InvalidParameter { name, .. }) if options.tolerance.is_finite() => {
                        assert_eq!(name, expected, "{options:?}")
                    }
                    other => panic!("{options:?}: expected a named error, got {other:?}"),
                }
            }
        }
    }
}

/// Bad step input is a typed error before any work, for every method: a non-finite state
/// (in `Π` or in `R`) is `NonFinite { name: "state" }`, a non-finite `h` or `t` is
/// `InvalidParameter` naming it.
#[test]
fn bad_step_input_is_a_typed_error() {
    let (body, y0) = swinging();
    let nan_momentum = Product(y0.0, Rn(Vector3::new(1.0, f64::NAN, 0.0)));
    let mut nan_matrix = *y0.0.matrix();
    nan_matrix[(1, 2)] = f64::INFINITY;
    let nan_attitude = Product(So3::from_matrix_unchecked(nan_matrix), y0.1);
    for method in KryslMethod::ALL {
        let mut integrator =
            Bound::krysl(method, body, SwingingTop, Solver::Newton).expect("a method");
        for bad in [nan_momentum, nan_attitude] {
            assert_eq!(
                integrator.step(0.0, &bad, 0.1),
                Err(Error::NonFinite { name: "state" }),
                "{}",
                method.name()
            );
        }
        for (t, h, expected) in [
            (0.0, f64::NAN, "h"),
            (0.0, f64::INFINITY, "h"),
            (f64::NAN, 0.1, "t"),
        ] {
            match integrator.step(t, &y0, h) {
                Err(Error::NonFinite { name }) => assert_eq!(name, expected, "{}", method.name()),
                other => panic!("{}: expected NonFinite, got {other:?}", method.name()),
            }
        }
        // The failures leave the integrator usable: the next step is a fresh one's.
        let fresh = Bound::krysl(method, body, SwingingTop, Solver::Newton)
            .expect("a method")
            .step(0.0, &y0, 0.1);
        assert_eq!(integrator.step(0.0, &y0, 0.1), fresh, "{}", method.name());
    }
}

/// A solve that cannot converge is `Error::NonConvergence` whose message names the time,
/// for every implicit method: Newton limited to one iteration (`max_iterations: 1` applies to
/// every stage of the fallback chain — simplified Newton, fixed point, damped Newton — so all
/// three fail; the message is the last one's, "damped Newton iteration … at t = 2.5e-1,
/// h = 1e-2" (h = 5e-3 for the compositions' half steps), and the step evaluated at least two Jacobians: the frozen one and one at an
/// iterate), and fixed-point iteration beyond its contraction limit (a tumbling fast top,
/// |ω| ≈ 62, h = 0.05: h|ω| ≈ 3). With a far larger step (h = 0.5) the diverging fixed-point
/// iterate overflows first for some methods: measured `NonFiniteState` ("implicit increment
/// map" for AKW, "generator" for TRAP and IMID), `NonConvergence` for the others — asserted:
/// a typed error naming the time, never a panic. The integrators still step afterwards.
#[test]
fn a_solve_that_cannot_converge_is_a_typed_non_convergence_naming_the_time() {
    let fast = KryslProblem::fast_top().expect("the fast top");
    let (body, torque) = (*fast.body(), fast.torque());
    let y0 = state(
        &body,
        Vector3::new(0.3, 0.1, -0.2),
        Vector3::new(20.0, -30.0, 50.0),
    );
    let one_iteration = NonlinearOptions {
        tolerance: 1e-14,
        max_iterations: 1,
    };
    let non_convergence = |label: &str, result: lieode::Result<RigidBodyState>| match result {
        Err(e @ Error::NonConvergence { .. }) => {
            eprintln!("{label}: {e}");
            assert!(e.to_string().contains("t = "), "{label}: {e}");
        }
        other => panic!("{label}: expected NonConvergence, got {other:?}"),
    };
    for method in KryslMethod::ALL {
        let name = method.name();
        let mut newton =
            Bound::krysl_with_options(method, body, torque, Solver::Newton, one_iteration)
                .expect("a method");
        non_convergence(
            &format!("{name} newton, 1 iteration"),
            newton.step(0.25, &y0, 0.01),
        );
        assert!(
            newton.stats().jacobian_evaluations >= 2,
            "{name}: the fallback chain ran: {:?}",
            newton.stats()
        );
        let mut fixed = Bound::krysl(method, body, torque, Solver::FixedPoint).expect("a method");
        non_convergence(
            &format!("{name} fixed point, h = 0.05"),
            fixed.step(0.25, &y0, 0.05),
        );
        match fixed.step(0.25, &y0, 0.5) {
            Err(e @ (Error::NonConvergence { .. } | Error::NonFiniteState { .. })) => {
                eprintln!("{name} fixed point, h = 0.5: {e}");
                assert!(e.to_string().contains("t = "), "{name}: {e}");
            }
            other => panic!("{name}: expected a typed solver failure, got {other:?}"),
        }
        assert!(fixed.step(0.25, &y0, 1e-3).is_ok(), "{name}");
        let mut default_newton =
            Bound::krysl(method, body, torque, Solver::Newton).expect("a method");
        assert!(default_newton.step(0.25, &y0, 0.01).is_ok(), "{name}");
    }
    let mut gauss = Bound::munthe_kaas(
        &GAUSS4,
        Frame::Lab,
        body,
        torque,
        Solver::Newton,
        one_iteration,
    )
    .expect("Gauss4");
    non_convergence("gauss4 newton, 1 iteration", gauss.step(0.25, &y0, 0.01));
    assert!(
        gauss.stats().jacobian_evaluations >= 2,
        "{:?}",
        gauss.stats()
    );
}

/// What the whole fallback chain cannot solve, with the default settings, stays a typed
/// error — and there is nothing to solve. AKW at h = 1.0 on the Coulomb problem (turns of up to
/// ≈ 77° per step) gathers an energy error that carries the body to the steep part of the
/// potential (`u = R₃₃ ≈ −0.5`) and stops with `NonConvergence` naming the time (measured: at
/// step 22 or 36 depending on the solver's rounding path, energy error +0.28 … +0.36, `u` −0.51 …
/// −0.52). From the state where it stopped, AKW's equation ([`akw_residual`]) is followed by
/// hand along its physical branch, the root continued from `Z = 0` as h grows in steps of 0.01
/// (Newton with a difference Jacobian from the previous root): the branch ends at a fold well
/// below h = 1 (measured between 0.11 and 0.15, `det ∂F/∂Z` falling towards 0 before it); the
/// library's step lands on the branch before the fold (to 1e-13) and is `NonConvergence` past
/// it and at 0.25, 0.5 and 1.0; hand damped Newton from `Z = 0` at h = 1 stalls too.
#[test]
fn akw_at_a_step_of_one_on_the_coulomb_problem_stops_with_a_typed_non_convergence() {
    let problem = KryslProblem::coulomb().expect("the Coulomb problem");
    let body = *problem.body();
    let torque = problem.torque();
    let h = 1.0;
    let mut akw = krysl(KryslMethod::Akw, body, torque);
    let mut y = problem.initial_state();
    let mut n = 0;
    let error = loop {
        match akw.step(h * n as f64, &y, h) {
            Ok(next) => y = next,
            Err(e) => break e,
        }
        n += 1;
        assert!(
            n < 1000,
            "measured: AKW at h = 1 stops within a few dozen steps"
        );
    };
    let t = h * n as f64;
    let energy = |y: &RigidBodyState| hamiltonian(&body, &torque, y).expect("a potential");
    let drift = energy(&y) / energy(&problem.initial_state()) - 1.0;
    let by_hand = damped_newton_by_hand(&|z| akw_residual(&body, &torque, t, h, &y, z));
    eprintln!(
        "akw h = 1: stops at step {n}: {error}; R₃₃ = {:.3}, (H − H₀)/H₀ = {drift:.3}; hand damped \
         Newton from Z = 0: |F| {by_hand:.2e}",
        y.0.matrix()[(2, 2)]
    );
    assert!(matches!(error, Error::NonConvergence { .. }), "{error:?}");
    assert!(error.to_string().contains(&format!("t = {t:e}")), "{error}");
    assert!(y.is_finite());
    assert_in("energy error when it stops", drift, 0.1, 1.0);
    assert_in(
        "hand damped Newton at the failing step",
        by_hand,
        1e-3,
        f64::INFINITY,
    );

    // The physical branch of AKW's equation at this state, continued in h up to its fold.
    let mut z = Vector3::zeros();
    let mut fold = None;
    for k in 1..=100 {
        let hk = 0.01 * k as f64;
        let f = |z: &Vector3<f64>| akw_residual(&body, &torque, t, hk, &y, z);
        let mut root = z;
        for _ in 0..50 {
            let fz = f(&root);
            if fz.norm() <= 1e-13 {
                break;
            }
            match jacobian_by_differences(&f, &root).lu().solve(&fz) {
                Some(step) => root -= step,
                None => break,
            }
        }
        let residual = f(&root).norm();
        let det = jacobian_by_differences(&f, &root).determinant();
        let library = akw.step(t, &y, hk);
        eprintln!(
            "  h = {hk:.2}: branch |F| {residual:.1e}, det ∂F/∂Z {det:.3}; library {:?}",
            library
                .as_ref()
                .map(|next| (next.1.0 - y.1.0 - root).norm())
        );
        if residual > 1e-6 {
            fold = Some(hk);
            assert!(
                matches!(library, Err(Error::NonConvergence { .. })),
                "{library:?}"
            );
            break;
        }
        let next = library.expect("the library follows the branch");
        assert_in(
            "library − branch",
            (next.1.0 - y.1.0 - root).norm(),
            0.0,
            1e-13,
        );
        z = root;
    }
    let fold = fold.expect("the branch folds before h = 1");
    assert_in("h past the fold", fold, 0.05, 0.5);
    for larger in [0.25, 0.5] {
        let outcome = akw.step(t, &y, larger);
        eprintln!("akw from the same state, h = {larger}: {outcome:?}");
        assert!(
            matches!(outcome, Err(Error::NonConvergence { .. })),
            "{outcome:?}"
        );
    }
}

/// AKW as an engine construction: the implicit-midpoint Munthe-Kaas method in Cayley
/// coordinates with `dcay⁻¹ ≈ id` reproduces AKW's step on the free body to round-off, since
/// both then move `Π` by the midpoint rule and `R` by `cay(h J⁻¹Π̄)`. Under a torque they part:
/// AKW takes the trapezoidal torque `(T_n + T_{n+1})/2`, the engine the torque at the midpoint
/// stage, so AKW stays a special step.
#[test]
fn akw_is_the_midpoint_cayley_engine_without_torque_only() {
    use lieode::engine::{ImplicitMuntheKaas, Step};
    use lieode::lie::Truncation;
    use lieode::lie::coordinates::CayleyMap;
    use lieode::momentum::BodyMomentumForm;
    use lieode::tableau::registry::IMPLICIT_MIDPOINT;
    let worst_difference = |problem: &KryslProblem| -> f64 {
        let (body, torque) = (*problem.body(), problem.torque());
        let mut akw =
            MomentumIntegrator::krysl(KryslMethod::Akw, body, Solver::Newton).expect("AKW");
        let mut engine = ImplicitMuntheKaas::<RigidBodyState>::new(&IMPLICIT_MIDPOINT)
            .expect("the midpoint tableau")
            .with_truncation(Truncation::Identity)
            .with_coordinates::<CayleyMap>();
        let mut form = BodyMomentumForm::new(body, &torque);
        let h = 0.05;
        let mut y = problem.initial_state();
        let mut worst: f64 = 0.0;
        for n in 0..200 {
            let t = n as f64 * h;
            let by_akw = akw.advance(&torque, t, &y, h).expect("an AKW step");
            let by_engine = engine
                .step(&mut form, t, &y, h, &mut Stats::default())
                .expect("an engine step")
                .state;
            worst = worst.max(distance(&by_akw, &by_engine));
            y = by_akw;
        }
        worst
    };
    let free = worst_difference(&KryslProblem::free_body().expect("the free body"));
    assert!(free < 1e-15, "free body: {free:e}");
    let top = worst_difference(&KryslProblem::slow_top().expect("the slow top"));
    assert!(top > 1e-4, "slow top: {top:e}");
}
