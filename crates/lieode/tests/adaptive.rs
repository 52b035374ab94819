//! The adaptive driver: the generic embedded pair against Hairer's published DOPRI5 run, the
//! Lie-group lifting (Euclidean reduction, staying on the group, dense output, events).

// Reference constants are written with the digits Hairer publishes.
#![allow(clippy::excessive_precision)]

use lieode::adaptive::{ControllerParameters, EmbeddedRk, LieStepper, Tolerances, VectorStepper};
use lieode::integrate::{Direction, Event, Options, StopReason, integrate};
use lieode::lie::rn::Rn;
use lieode::lie::so3::So3;
use lieode::lie::{LieGroup, Side};
use lieode::ode::LieOde;
use lieode::problems::{SphereProblem, TorquedRigidBody};
use lieode::stepper::Span;
use lieode::tableau::registry::{BS32, DOPRI5, TSIT5};
use nalgebra::{Vector2, Vector4};

const MU: f64 = 0.012277471;
const ARENSTORF_Y0: [f64; 4] = [0.994, 0.0, 0.0, -2.00158510637908252240537862224];
const ARENSTORF_END: f64 = 17.0652165601579625588917206249;

fn arenstorf(_t: f64, y: &Vector4<f64>) -> Vector4<f64> {
    let mu1 = 1.0 - MU;
    let d1 = ((y[0] + MU).powi(2) + y[1].powi(2)).powf(1.5);
    let d2 = ((y[0] - mu1).powi(2) + y[1].powi(2)).powf(1.5);
    Vector4::new(
        y[2],
        y[3],
        y[0] + 2.0 * y[3] - mu1 * (y[0] + MU) / d1 - MU * (y[0] - mu1) / d2,
        y[1] - 2.0 * y[2] - mu1 * y[1] / d1 - MU * y[1] / d2,
    )
}

fn dopri5(tol: f64) -> EmbeddedRk<nalgebra::Const<4>> {
    EmbeddedRk::new(
        &DOPRI5,
        Tolerances::scalar(tol, tol).unwrap(),
        ControllerParameters::dopri5(),
    )
    .unwrap()
}

#[test]
fn embedded_dopri5_reproduces_hairers_published_arenstorf_run() {
    // Hairer–Nørsett–Wanner I (dr_dopri5 with rtol = atol = 1e-7):
    // fcn=1442 step=240 accpt=216 rejct=22, y = (0.9940021016, 0.8911185472e-5).
    let sol = integrate(
        &mut VectorStepper::new(dopri5(1e-7)),
        &mut arenstorf,
        &Vector4::from(ARENSTORF_Y0),
        &Span::new(0.0, ARENSTORF_END).unwrap(),
        Options::default().dense(),
    )
    .unwrap();
    let s = sol.stats;
    assert_eq!(
        (s.rhs_evaluations, s.steps, s.accepted, s.rejected),
        (1442, 240, 216, 22)
    );
    let (t, y) = sol.last().unwrap();
    assert_eq!(t, ARENSTORF_END);
    // Printed to 10 digits; y₂ ≈ 9e-6 is a small component of an O(1) state, and this generic
    // pair sums its stages in another order than Hairer's code, so it agrees to 4e-14 absolute
    // (the dedicated `Dopri5` follows his operation order).
    assert!((y[0] - 0.9940021016).abs() < 5e-11, "{}", y[0]);
    assert!(
        (y[1] - 0.8911185472e-5).abs() < 1e-13,
        "{:e}",
        y[1] - 0.8911185472e-5
    );
    // Dense output is continuous and hits the step values.
    for w in sol.times.windows(2).take(20) {
        let mid = sol.at(0.5 * (w[0] + w[1])).unwrap();
        assert!(mid.iter().all(|v| v.is_finite()));
        let at_end = sol.at(w[1]).unwrap();
        let step = sol.states[sol.times.iter().position(|t| *t == w[1]).unwrap()];
        assert!((at_end - step).norm() < 1e-14, "dense output at a step end");
    }
}

/// ℝ² as a Lie group with the Van der Pol field as generator: the lifted method is the vector
/// method up to the rounding of `y + θ` (the vector method adds the stages to `y` one by one),
/// which can tip a borderline accept/reject decision.
struct VanDerPolOnR2;
impl LieOde<Rn<2>> for VanDerPolOnR2 {
    fn side(&self) -> Side {
        Side::Left
    }
    fn generator(&mut self, _t: f64, y: &Rn<2>) -> Rn<2> {
        Rn(Vector2::new(
            y.0[1],
            ((1.0 - y.0[0] * y.0[0]) * y.0[1] - y.0[0]) / 0.1,
        ))
    }
}

#[test]
fn lifted_method_on_rn_is_the_vector_method() {
    for tableau in [&DOPRI5, &BS32, &TSIT5] {
        let tol = Tolerances::scalar(1e-7, 1e-7).unwrap();
        let mut vdp = |_t: f64, y: &Vector2<f64>| {
            Vector2::new(y[1], ((1.0 - y[0] * y[0]) * y[1] - y[0]) / 0.1)
        };
        let vector = integrate(
            &mut VectorStepper::new(
                EmbeddedRk::new(tableau, tol.clone(), ControllerParameters::dopri5()).unwrap(),
            ),
            &mut vdp,
            &Vector2::new(2.0, 0.0),
            &Span::new(0.0, 2.0).unwrap(),
            Options::default(),
        )
        .unwrap();
        let lifted = integrate(
            &mut LieStepper::new(
                EmbeddedRk::new(tableau, tol, ControllerParameters::dopri5()).unwrap(),
            ),
            &mut VanDerPolOnR2,
            &Rn(Vector2::new(2.0, 0.0)),
            &Span::new(0.0, 2.0).unwrap(),
            Options::default(),
        )
        .unwrap();
        let (sv, sl) = (vector.stats, lifted.stats);
        let close = |a: usize, b: usize| (a as f64 - b as f64).abs() <= 0.03 * a as f64 + 2.0;
        assert!(
            close(sv.rhs_evaluations, sl.rhs_evaluations) && close(sv.accepted, sl.accepted),
            "{}: {sv:?} vs {sl:?}",
            tableau.name
        );
        let (_, yv) = vector.last().unwrap();
        let (_, yl) = lifted.last().unwrap();
        assert!(
            (yv - yl.0).norm() < 1e-6 * (1.0 + yv.norm()),
            "{}: {:e}",
            tableau.name,
            (yv - yl.0).norm()
        );
    }
}

#[test]
fn lifted_dopri5_on_rotations_stays_on_the_group_and_converges() {
    // Tolerance proportionality on the torqued rigid body (SO(3) × ℝ³ and SU(2) × ℝ³).
    let body = TorquedRigidBody::default();
    let mut previous = f64::INFINITY;
    for tol in [1e-5, 1e-7, 1e-9, 1e-11] {
        let t = Tolerances::scalar(tol, tol).unwrap();
        let sol = integrate(
            &mut LieStepper::new(
                EmbeddedRk::new(&DOPRI5, t, ControllerParameters::dopri5()).unwrap(),
            ),
            &mut body.clone(),
            &body.exact(0.0),
            &Span::new(0.0, 2.0).unwrap(),
            Options::default(),
        )
        .unwrap();
        let (_, y) = sol.last().unwrap();
        let err = y.distance(&body.exact(2.0)).unwrap();
        let r = y.0.matrix();
        let orthogonality = (r.transpose() * r - nalgebra::Matrix3::identity()).norm();
        assert!(orthogonality < 1e-14, "RᵀR − I = {orthogonality:e}");
        assert!(err < 200.0 * tol, "tol {tol:e}: error {err:e}");
        assert!(
            err < previous / 20.0,
            "error must fall with the tolerance: {err:e} after {previous:e}"
        );
        previous = err;
    }
    let q_body = integrate(
        &mut LieStepper::new(
            EmbeddedRk::new(
                &DOPRI5,
                Tolerances::scalar(1e-10, 1e-10).unwrap(),
                ControllerParameters::dopri5(),
            )
            .unwrap(),
        ),
        &mut body.clone(),
        &body.exact_quaternion(0.0),
        &Span::new(0.0, 2.0).unwrap(),
        Options::default(),
    )
    .unwrap();
    let (_, yq) = q_body.last().unwrap();
    assert!(
        (yq.0.quaternion().norm() - 1.0).abs() < 1e-15 * 4.0,
        "|q| − 1"
    );
    assert!(yq.distance(&body.exact_quaternion(2.0)).unwrap() < 1e-8);
}

#[test]
fn dense_output_on_the_group_and_events() {
    let mut sphere = SphereProblem::default();
    let tol = Tolerances::scalar(1e-10, 1e-10).unwrap();
    // Event: the point crosses the plane z = 0.6 (rising), non-terminal, and the x = 0 plane
    // (terminal, falling x).
    let s2 = sphere;
    let s3 = sphere;
    let events = vec![
        Event::new(
            move |_t, y: &So3| s2.point_of(y)[2] - 0.6,
            Direction::Either,
            false,
        ),
        Event::new(
            move |_t, y: &So3| s3.point_of(y)[0],
            Direction::Falling,
            true,
        ),
    ];
    let sol = integrate(
        &mut LieStepper::new(
            EmbeddedRk::new(&DOPRI5, tol, ControllerParameters::dopri5()).unwrap(),
        ),
        &mut sphere,
        &So3::identity(),
        &Span::new(0.0, 2.0).unwrap(),
        Options {
            events,
            ..Options::default().dense()
        },
    )
    .unwrap();
    // Dense output between steps matches the exact solution to the tolerance's order.
    let (t_last, _) = sol.last().unwrap();
    for k in 1..40 {
        let t = t_last * k as f64 / 40.0;
        let x = sphere.point_of(&sol.at(t).unwrap());
        assert!((x - sphere.exact_point(t)).norm() < 1e-7, "t = {t}");
    }
    // Every event located where the exact solution crosses.
    for hit in &sol.events {
        let exact = sphere.exact_point(hit.t);
        let g = if hit.index == 0 {
            exact[2] - 0.6
        } else {
            exact[0]
        };
        assert!(
            g.abs() < 1e-7,
            "event {} at {}: g(exact) = {g:e}",
            hit.index,
            hit.t
        );
    }
    if let StopReason::TerminalEvent(i) = sol.stop {
        assert_eq!(i, 1);
        assert_eq!(sol.events.last().map(|h| h.index), Some(1));
    }
    assert!(
        !sol.events.is_empty(),
        "the point crosses z = 0.6 on [0, 2]"
    );
    // Out-of-range dense output is an error, not a panic.
    assert!(sol.at(-1.0).is_err());
}

/// A spinning body translating fast: SO(3) × ℝ³ with |v| ~ 1e6. The rotation coordinates are
/// tested absolutely (their `coordinate_magnitude` is zero), so the large translational state
/// does not loosen the control of the attitude.
struct FastTranslatingBody;
impl LieOde<lieode::lie::product::Product<So3, Rn<3>>> for FastTranslatingBody {
    fn side(&self) -> Side {
        Side::Right
    }
    fn generator(
        &mut self,
        t: f64,
        y: &lieode::lie::product::Product<So3, Rn<3>>,
    ) -> lieode::lie::product::ProductAlgebra<lieode::lie::so3::So3Algebra, Rn<3>> {
        let v = y.1.0;
        // Body rate depends on the attitude and weakly on the velocity; the velocity is driven
        // by an attitude-dependent thrust.
        let r = y.0.matrix();
        let w = nalgebra::Vector3::new(1.0 + 0.3 * r[(2, 0)], 0.5 * t.cos(), 0.2 + 1e-7 * v[0]);
        let thrust = r * nalgebra::Vector3::new(1e6, 0.0, 0.0);
        lieode::lie::product::ProductAlgebra(lieode::lie::so3::So3Algebra::new(w), Rn(thrust))
    }
}

#[test]
fn rotation_error_is_not_swamped_by_a_large_velocity() {
    use lieode::lie::product::Product;
    let y0 = Product(So3::identity(), Rn(nalgebra::Vector3::new(1e6, -2e6, 5e5)));
    let run = |tol: f64| {
        integrate(
            &mut LieStepper::new(
                EmbeddedRk::new(
                    &DOPRI5,
                    Tolerances::scalar(tol, tol).unwrap(),
                    ControllerParameters::dopri5(),
                )
                .unwrap(),
            ),
            &mut FastTranslatingBody,
            &y0,
            &Span::new(0.0, 3.0).unwrap(),
            Options::default(),
        )
        .unwrap()
    };
    let reference = run(1e-13);
    let (_, yr) = reference.last().unwrap();
    for tol in [1e-6, 1e-8] {
        let sol = run(tol);
        let (_, y) = sol.last().unwrap();
        let rotation_error = y.0.distance(&yr.0).unwrap();
        let velocity_error = (y.1.0 - yr.1.0).norm() / yr.1.0.norm();
        assert!(
            rotation_error < 100.0 * tol,
            "tol {tol:e}: attitude error {rotation_error:e}"
        );
        assert!(
            velocity_error < 100.0 * tol,
            "tol {tol:e}: relative velocity error {velocity_error:e}"
        );
    }
    // Per-component tolerances (per factor): tight on the attitude, loose on the velocity.
    let per_factor = Tolerances::per_component(
        vec![1e-12, 1e-12, 1e-12, 1e-5, 1e-5, 1e-5],
        vec![1e-12, 1e-12, 1e-12, 1e-5, 1e-5, 1e-5],
    )
    .unwrap();
    let sol = integrate(
        &mut LieStepper::new(
            EmbeddedRk::new(&DOPRI5, per_factor, ControllerParameters::dopri5()).unwrap(),
        ),
        &mut FastTranslatingBody,
        &y0,
        &Span::new(0.0, 3.0).unwrap(),
        Options::default(),
    )
    .unwrap();
    let (_, y) = sol.last().unwrap();
    assert!(
        y.0.distance(&yr.0).unwrap() < 1e-9,
        "per-factor attitude error"
    );
    // A tolerance vector of the wrong length is a named error.
    let wrong = Tolerances::per_component(vec![1e-6; 4], vec![1e-6; 4]).unwrap();
    let err = EmbeddedRk::<nalgebra::Const<6>>::new(&DOPRI5, wrong, ControllerParameters::dopri5())
        .unwrap_err();
    assert!(
        matches!(err, lieode::Error::InvalidParameter { name: "rtol", .. }),
        "{err}"
    );
}

#[test]
fn crouch_grossman_pair_under_step_size_control_on_the_group() {
    use lieode::adaptive::Controlled;
    use lieode::engine::CommutatorFree;
    use lieode::tableau::registry::CG23;
    let sphere = SphereProblem::default();
    let params = ControllerParameters {
        beta: 0.0,
        ..ControllerParameters::dopri5()
    };
    let mut previous = f64::INFINITY;
    for tol in [1e-4, 1e-6, 1e-8] {
        let t = Tolerances::scalar(tol, tol).unwrap();
        let mut problem = sphere;
        let mut cg23 = Controlled::new(
            CommutatorFree::<So3>::crouch_grossman(&CG23).unwrap(),
            t,
            params,
        );
        let span = Span::new(0.0, 2.0).unwrap();
        let sol = integrate(
            &mut cg23,
            &mut problem,
            &So3::identity(),
            &span,
            Options::default(),
        )
        .unwrap();
        let y = sol.states.last().unwrap();
        let err = (sphere.point_of(y) - sphere.exact_point(2.0)).norm();
        assert!(err < 1e3 * tol, "tol {tol:e}: error {err:e}");
        assert!(err < previous, "error falls with the tolerance");
        assert!(sol.stats.rejected < sol.stats.accepted);
        let r = y.matrix();
        assert!((r.transpose() * r - nalgebra::Matrix3::identity()).norm() < 1e-13);
        previous = err;
    }
    // An engine without embedded weights is refused by name.
    let mut problem = sphere;
    let mut cg3 = Controlled::new(
        CommutatorFree::<So3>::crouch_grossman(&lieode::tableau::registry::CG3).unwrap(),
        Tolerances::scalar(1e-6, 1e-6).unwrap(),
        params,
    );
    let span = Span::new(0.0, 2.0).unwrap();
    let err = integrate(
        &mut cg3,
        &mut problem,
        &So3::identity(),
        &span,
        Options::default(),
    )
    .unwrap_err();
    assert!(
        matches!(err, lieode::Error::InvalidParameter { name: "engine", .. }),
        "{err}"
    );
}

#[test]
fn dense_output_on_the_group_has_the_order_of_its_interpolant() {
    // Fixed steps (hmax = initial step, loose tolerance): the dense output of the lifted
    // DOPRI5 pair — Shampine's order-4 continuous extension in θ, mapped by exp — is O(h⁵)
    // away from the exact solution in mid-step, like the step values.
    let mut sphere = SphereProblem::default();
    let mut errors = vec![];
    let hs = [0.1, 0.05, 0.025];
    for h in hs {
        let params = ControllerParameters {
            hmax: Some(h),
            initial_step: Some(h),
            ..ControllerParameters::dopri5()
        };
        let sol = integrate(
            &mut LieStepper::new(
                EmbeddedRk::new(&DOPRI5, Tolerances::scalar(1.0, 1.0).unwrap(), params).unwrap(),
            ),
            &mut sphere,
            &So3::identity(),
            &Span::new(0.0, 2.0).unwrap(),
            Options::default().dense(),
        )
        .unwrap();
        let mut worst: f64 = 0.0;
        for w in sol.times.windows(2) {
            for theta in [0.25, 0.5, 0.75] {
                let t = w[0] + theta * (w[1] - w[0]);
                let x = sphere.point_of(&sol.at(t).unwrap());
                worst = worst.max((x - sphere.exact_point(t)).norm());
            }
        }
        errors.push(worst);
    }
    let order = lieode::order::observed_order(&hs, &errors).unwrap();
    assert!(
        (order - 5.0).abs() < 0.3,
        "dense-output order {order}: {errors:?}"
    );
}

#[test]
fn dop853_and_odex_lifted_to_the_group() {
    use lieode::adaptive::{Dop853, Odex, OdexParameters};
    let body = TorquedRigidBody::default();
    for tol in [1e-6, 1e-9, 1e-12] {
        let t = Tolerances::scalar(tol, tol).unwrap();
        let dop = integrate(
            &mut LieStepper::new(Dop853::new(t.clone(), ControllerParameters::dop853()).unwrap()),
            &mut body.clone(),
            &body.exact(0.0),
            &Span::new(0.0, 2.0).unwrap(),
            Options::default().dense(),
        )
        .unwrap();
        let odex = integrate(
            &mut LieStepper::new(
                // ODEX builds its interpolant (and controls its error) only when asked to;
                // otherwise its dense output is a cubic Hermite interpolant.
                Odex::new(
                    t,
                    OdexParameters {
                        dense_output: true,
                        ..OdexParameters::default()
                    },
                )
                .unwrap(),
            ),
            &mut body.clone(),
            &body.exact(0.0),
            &Span::new(0.0, 2.0).unwrap(),
            Options::default().dense(),
        )
        .unwrap();
        for (name, sol) in [("DOP853", &dop), ("ODEX", &odex)] {
            let (_, y) = sol.last().unwrap();
            let err = y.distance(&body.exact(2.0)).unwrap();
            assert!(err < 1e3 * tol, "{name} tol {tol:e}: error {err:e}");
            let r = y.0.matrix();
            assert!(
                (r.transpose() * r - nalgebra::Matrix3::identity()).norm() < 1e-14,
                "{name} stays on SO(3)"
            );
            // Dense output in mid-step is as accurate as the steps.
            let t_mid = 0.5 * (sol.times[1] + sol.times[2]);
            let mid = sol.at(t_mid).unwrap().distance(&body.exact(t_mid)).unwrap();
            assert!(mid < 1e3 * tol, "{name} dense output at {t_mid}: {mid:e}");
        }
    }
}

#[test]
fn events_on_a_vector_problem() {
    // y'' = −y from (1, 0): y₁ = cos t crosses zero at π/2 (falling) and 3π/2 (rising).
    let mut oscillator = |_t: f64, y: &Vector2<f64>| Vector2::new(y[1], -y[0]);
    let events = vec![
        Event::new(|_t, y: &Vector2<f64>| y[0], Direction::Falling, false),
        Event::new(|_t, y: &Vector2<f64>| y[0], Direction::Rising, true),
    ];
    let sol = integrate(
        &mut VectorStepper::new(
            EmbeddedRk::new(
                &DOPRI5,
                Tolerances::scalar(1e-10, 1e-10).unwrap(),
                ControllerParameters::dopri5(),
            )
            .unwrap(),
        ),
        &mut oscillator,
        &Vector2::new(1.0, 0.0),
        &Span::new(0.0, 10.0).unwrap(),
        Options {
            events,
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(sol.stop, StopReason::TerminalEvent(1));
    assert_eq!(sol.events.len(), 2);
    assert!((sol.events[0].t - std::f64::consts::FRAC_PI_2).abs() < 1e-9);
    assert!((sol.events[1].t - 1.5 * std::f64::consts::PI).abs() < 1e-9);
    assert_eq!(sol.last().unwrap().0, sol.events[1].t);
    // A non-finite event function is a named error.
    let bad = vec![Event::new(
        |_t, _y: &Vector2<f64>| f64::NAN,
        Direction::Either,
        false,
    )];
    let err = integrate(
        &mut VectorStepper::new(
            EmbeddedRk::new(
                &DOPRI5,
                Tolerances::scalar(1e-6, 1e-6).unwrap(),
                ControllerParameters::dopri5(),
            )
            .unwrap(),
        ),
        &mut oscillator,
        &Vector2::new(1.0, 0.0),
        &Span::new(0.0, 1.0).unwrap(),
        Options {
            events: bad,
            ..Options::default()
        },
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            lieode::Error::NonFiniteState {
                what: "event function",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn fsal_survives_the_rebasing_of_local_coordinates() {
    use lieode::adaptive::Dopri5;
    // DOPRI5 costs f₀ + HINIT's evaluation, then 6 per attempt: the 7th stage of an accepted
    // step, evaluated at the new group state, is reused as the next step's first stage.
    let body = TorquedRigidBody::default();
    let sol = integrate(
        &mut LieStepper::new(
            Dopri5::new(
                Tolerances::scalar(1e-9, 1e-9).unwrap(),
                ControllerParameters::dopri5(),
            )
            .unwrap(),
        ),
        &mut body.clone(),
        &body.exact(0.0),
        &Span::new(0.0, 2.0).unwrap(),
        Options::default(),
    )
    .unwrap();
    let s = sol.stats;
    assert_eq!(s.rhs_evaluations, 2 + 6 * s.steps, "{s:?}");
    let (_, y) = sol.last().unwrap();
    assert!(y.distance(&body.exact(2.0)).unwrap() < 1e-7);
}

#[test]
fn the_user_can_drive_the_loop_and_change_the_problem_between_steps() {
    use lieode::adaptive::VectorStepper;
    // y' = −k y with k switched from 1 to 2 at the first step past t = 0.5: the state follows
    // the piecewise exact solution from the switching time on.
    struct Decay(f64);
    impl lieode::ode::VectorOde<f64, 1> for Decay {
        fn rhs(&mut self, _t: f64, y: &nalgebra::Vector1<f64>) -> nalgebra::Vector1<f64> {
            -y * self.0
        }
    }
    use lieode::stepper::{Stepper, StepperInfo};
    let tol = Tolerances::scalar(1e-11, 1e-11).unwrap();
    let mut stepper =
        VectorStepper::new(EmbeddedRk::new(&DOPRI5, tol, ControllerParameters::dopri5()).unwrap());
    let mut decay = Decay(1.0);
    let span = Span::new(0.0, 2.0).unwrap();
    stepper
        .start(&mut decay, &span, &nalgebra::Vector1::new(1.0))
        .unwrap();
    let mut switched_at = None;
    loop {
        let report = stepper.step(&mut decay).unwrap();
        let t = report.t_end;
        if switched_at.is_none() && t > 0.5 {
            decay.0 = 2.0;
            switched_at = Some(t);
        }
        if report.finished {
            break;
        }
    }
    let ts: f64 = switched_at.unwrap();
    let y = stepper.state(&mut decay).unwrap();
    assert_eq!(stepper.time(), 2.0);
    let exact = (-ts).exp() * (-2.0 * (2.0 - ts)).exp();
    assert!((y[0] - exact).abs() < 1e-9, "{} vs {exact}", y[0]);
    assert!(stepper.stats().accepted > 5);
}

#[test]
fn a_non_finite_right_hand_side_is_an_error_naming_it() {
    use lieode::adaptive::{Dop853, Dopri5, Odex, OdexParameters};
    // The derivative turns infinite (or NaN) once x₀ has fallen below 0.5: every method must
    // stop with an error that names the right-hand side, not step on with a corrupt state.
    for bad in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN] {
        let rhs = move |_t: f64, y: &Vector2<f64>| {
            if y[0] < 0.5 {
                Vector2::new(bad, 0.0)
            } else {
                Vector2::new(y[1], -y[0])
            }
        };
        let tol = Tolerances::scalar(1e-8, 1e-8).unwrap();
        fn failure<M: lieode::adaptive::AdaptiveMethod<nalgebra::U2>>(
            method: M,
            mut rhs: impl FnMut(f64, &Vector2<f64>) -> Vector2<f64>,
        ) -> lieode::Error {
            let y0 = Vector2::new(1.0, 0.0);
            integrate(
                &mut VectorStepper::new(method),
                &mut rhs,
                &y0,
                &Span::new(0.0, 3.0).unwrap(),
                Options::default(),
            )
            .unwrap_err()
        }
        let errors = [
            failure(
                Dop853::new(tol.clone(), ControllerParameters::dop853()).unwrap(),
                rhs,
            ),
            failure(
                Dopri5::new(tol.clone(), ControllerParameters::dopri5()).unwrap(),
                rhs,
            ),
            failure(
                Odex::new(tol.clone(), OdexParameters::default()).unwrap(),
                rhs,
            ),
        ];
        for err in errors {
            assert!(
                matches!(
                    err,
                    lieode::Error::NonFiniteState {
                        what: "right-hand side",
                        t
                    } if t > 0.0 && t < 3.0
                ),
                "{bad}: {err}"
            );
        }
    }
}

/// One run of `stepper` on the torqued rigid body in SU(2) × ℝ³ over `[0, 1]`: the error against
/// the manufactured solution, the rejected steps and `|q| − 1` at the end.
fn quaternion_body_run<S>(stepper: &mut S, body: &TorquedRigidBody) -> (f64, usize, f64)
where
    S: lieode::stepper::Stepper<
            TorquedRigidBody,
            State = lieode::lie::product::Product<lieode::lie::unit_quaternion::UnitQuat, Rn<3>>,
        >,
{
    let sol = integrate(
        stepper,
        &mut body.clone(),
        &body.exact_quaternion(0.0),
        &Span::new(0.0, 1.0).unwrap(),
        Options::default(),
    )
    .unwrap();
    let (_, y) = sol.last().unwrap();
    (
        y.distance(&body.exact_quaternion(1.0)).unwrap(),
        sol.stats.rejected,
        y.0.quaternion().norm() - 1.0,
    )
}

/// The lifted steppers in the Cayley chart (`LieStepper::with_chart::<CayleyMap>`) on the
/// torqued rigid body in SU(2) × ℝ³ (right-trivialised, time-, attitude- and ω-dependent,
/// exact solution manufactured), against the exponential chart:
/// - **order**: DOP853 and DOPRI5 with the step held fixed (`initial_step = hmax = h`,
///   tolerances so loose that every step is accepted) converge at orders 8 and 5 in both
///   charts;
/// - **tolerance proportionality**: under step control the error falls by at least 20× per
///   100× tighter tolerance and stays within 200 × tol;
/// - **the group**: `|q| − 1` stays at round-off without any projection.
#[test]
fn the_cayley_chart_keeps_the_order_and_the_group() {
    use lieode::adaptive::{Dop853, Dopri5};
    use lieode::lie::coordinates::CayleyMap;
    let body = TorquedRigidBody::default();
    let fixed = |method: &str, h: f64, cayley: bool| -> f64 {
        let loose = Tolerances::scalar(1.0, 1.0).unwrap();
        let p = |base: ControllerParameters| ControllerParameters {
            initial_step: Some(h),
            hmax: Some(h),
            ..base
        };
        let dop853 = || Dop853::new(loose.clone(), p(ControllerParameters::dop853())).unwrap();
        let dopri5 = || Dopri5::new(loose.clone(), p(ControllerParameters::dopri5())).unwrap();
        let (err, rejected, _) = match (method, cayley) {
            ("dop853", false) => quaternion_body_run(&mut LieStepper::new(dop853()), &body),
            ("dop853", true) => quaternion_body_run(
                &mut LieStepper::new(dop853()).with_chart::<CayleyMap>(),
                &body,
            ),
            ("dopri5", false) => quaternion_body_run(&mut LieStepper::new(dopri5()), &body),
            _ => quaternion_body_run(
                &mut LieStepper::new(dopri5()).with_chart::<CayleyMap>(),
                &body,
            ),
        };
        assert_eq!(rejected, 0, "{method} h {h}");
        err
    };
    for (method, order, steps) in [("dop853", 8.0, [0.1, 0.05]), ("dopri5", 5.0, [0.02, 0.01])] {
        for cayley in [false, true] {
            let (coarse, fine) = (
                fixed(method, steps[0], cayley),
                fixed(method, steps[1], cayley),
            );
            let measured = (coarse / fine).log2();
            eprintln!("{method} cayley {cayley}: {coarse:.2e} {fine:.2e} order {measured:.2}");
            assert!(
                (measured - order).abs() < 0.35,
                "{method} cayley {cayley}: {measured}"
            );
        }
    }
    let mut previous = f64::INFINITY;
    for tol in [1e-6, 1e-8, 1e-10, 1e-12] {
        let t = Tolerances::scalar(tol, tol).unwrap();
        let (err, _, norm) = quaternion_body_run(
            &mut LieStepper::new(Dop853::new(t, ControllerParameters::dop853()).unwrap())
                .with_chart::<CayleyMap>(),
            &body,
        );
        eprintln!("tol {tol:e}: {err:.2e}, |q| − 1 = {norm:e}");
        assert!(err < 200.0 * tol, "tol {tol:e}: error {err:e}");
        assert!(err < previous / 20.0, "{err:e} after {previous:e}");
        assert!(norm.abs() < 4.0 * f64::EPSILON, "{norm:e}");
        previous = err;
    }
}
