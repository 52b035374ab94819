//! The six-degree-of-freedom many-body layer: SPIRAL leapfrog with leapfrog translation against
//! closed-form motions, the rotational catalogue's SPIRAL (N = 1, bit for bit), measured orders
//! with velocity-dependent forces, thread-count independence and bad input.

mod common;

use common::bodies::{
    Faulty, assert_orders, damped_sphere_errors, force_on_2, run, same_under_three_torques,
};
use lieode::Error;
use lieode::body::Frame;
use lieode::problems::cylinder::SpiralCylinder;
use lieode::rotation::SpiralLeapfrog;
use lieode::rotation::{RigidBodyMethod, SingleBody};
use lieode::stepper::Stepper;
use lieode::system::{
    Body, BodyView, Loads, PerBody, SpiralLeapfrogSystem, SystemForces, SystemState, SystemView,
};
use nalgebra::{Quaternion, Vector3};

/// The SPIRAL fast path and RK4 with one body are their single-body methods bit for bit, under
/// three torques (`tests/common/bodies.rs`).
#[test]
fn each_method_with_one_body_is_its_catalogue_method_bit_for_bit() -> lieode::Result<()> {
    same_under_three_torques("spiral_leapfrog", |b| {
        SpiralLeapfrogSystem::uniform(b, 1, SpiralLeapfrog::new)
    })?;
    same_under_three_torques("rk4", |b| Rk4System::uniform(b, 1))
}

/// A spinning sphere that translates freely: `x = x₀ + v₀ t`, `q = q₀ exp(ω t/2)` (constant
/// body-frame ω, which a sphere keeps) — exact for the leapfrog up to rounding.
#[test]
fn a_free_spinning_sphere_translates_and_turns_exactly() -> lieode::Result<()> {
    let ball = Body::solid_sphere(2.0, 0.3)?;
    let n = 3;
    let mut y0 = SystemState::at_rest(0.0, n);
    for i in 0..n {
        y0.positions[i] = Vector3::new(i as f64, 0.5, -1.0);
        y0.velocities[i] = Vector3::new(0.3, -0.2 * i as f64, 1.1);
        y0.omegas[i] = Vector3::new(0.7, 0.1 * i as f64, -2.0);
    }
    let mut free = PerBody {
        frame: Frame::Lab,
        model: |_: &BodyView<'_>| (Vector3::zeros(), Vector3::zeros()),
    };
    let (dt, steps) = (1e-2, 1000);
    let end = run(
        &mut SpiralLeapfrogSystem::uniform(ball, n, SpiralLeapfrog::new),
        &mut free,
        &y0,
        dt,
        steps,
    )?;
    let t = end.t;
    assert_eq!(t, 10.0);
    for i in 0..n {
        assert!((end.positions[i] - (y0.positions[i] + y0.velocities[i] * t)).norm() < 1e-12);
        assert_eq!(end.velocities[i], y0.velocities[i]);
        let w = y0.omegas[i];
        let half = w.norm() * t / 2.0;
        let exact = Quaternion::from_parts(half.cos(), w.normalize() * half.sin());
        assert!(
            (end.rotors[i] - exact).norm() < 1e-12,
            "{i}: {:?}",
            end.rotors[i]
        );
        assert!((end.omegas[i] - w).norm() < 1e-13);
    }
    Ok(())
}

/// The SPIRAL paper's cylinder under its body torque, with a constant lab force added: the
/// leapfrog translation is exact for a constant force, the rotation converges as SPIRAL does
/// (second order in q, measured against the cylinder's closed form).
#[test]
fn a_constant_force_and_the_cylinder_torque() -> lieode::Result<()> {
    let cylinder = SpiralCylinder::paper()?;
    let start = cylinder.initial_state();
    let inertia = cylinder.body().inertia();
    let body = Body::new(3.0, [inertia.x, inertia.y, inertia.z])?;
    let tau = cylinder.torque().0;
    let force = Vector3::new(0.0, 0.0, -9.81 * 3.0);
    let mut model = PerBody {
        frame: Frame::Body,
        model: move |_: &BodyView<'_>| (force, tau),
    };
    let mut y0 = SystemState::at_rest(start.t, 1);
    y0.velocities[0] = Vector3::new(1.0, 2.0, 3.0);
    y0.rotors[0] = start.q;
    y0.omegas[0] = start.omega;
    let mut errors = Vec::new();
    for steps in [250, 500, 1000] {
        let dt = 1.0 / steps as f64;
        let end = run(
            &mut SpiralLeapfrogSystem::uniform(body, 1, SpiralLeapfrog::new),
            &mut model,
            &y0,
            dt,
            steps,
        )?;
        let t = end.t;
        let exact_x = y0.velocities[0] * t + force / 3.0 * (0.5 * t * t);
        assert!(
            (end.positions[0] - exact_x).norm() < 1e-12,
            "x at dt = {dt}"
        );
        assert!((end.velocities[0] - (y0.velocities[0] + force / 3.0 * t)).norm() < 1e-12);
        let (q_error, _) = cylinder.errors_at(t, &end.rotors[0], t, &end.omegas[0])?;
        errors.push(q_error);
    }
    for w in errors.windows(2) {
        let order = (w[0] / w[1]).log2();
        assert!(
            (order - 2.0).abs() < 0.15,
            "orientation order {order}: {errors:?}"
        );
    }
    Ok(())
}

/// Velocity-dependent loads: linear drag `F = −γ v` and a damping torque `τ = −c J ω` on a
/// sphere, `v = v₀ e^{−γt/m}`, `ω = ω₀ e^{−ct}`. The leapfrog hands the loads `v_{n−½}` and
/// `ω_{n−½}`, so the velocities converge at first order (measured), the positions too.
#[test]
fn velocity_dependent_loads_converge_at_the_measured_first_order() -> lieode::Result<()> {
    let errors = damped_sphere_errors(
        |b| SpiralLeapfrogSystem::uniform(b, 1, SpiralLeapfrog::new),
        Vector3::new(0.0, 0.0, 3.0),
        [400, 800, 1600],
    )?;
    assert_orders(&errors, 1.0, 0.1);
    Ok(())
}

/// Gravity, drag and a lab-frame torque on 5000 bodies of seven kinds: one thread and two give
/// the same bits, for every method.
#[cfg(feature = "parallel")]
#[test]
fn results_do_not_depend_on_the_number_of_threads() -> lieode::Result<()> {
    let n = 5000;
    let bodies: Vec<Body> = (0..n)
        .map(|i| Body::new(1.0 + (i % 7) as f64, [1.0, 1.5, 2.0 + (i % 3) as f64 * 0.1]))
        .collect::<lieode::Result<_>>()?;
    let mut y0 = SystemState::at_rest(0.0, n);
    for i in 0..n {
        let s = i as f64;
        y0.velocities[i] = Vector3::new(s.sin(), s.cos(), 0.1);
        y0.omegas[i] = Vector3::new((2.0 * s).sin(), 0.3, (3.0 * s).cos());
    }
    let model = |b: &BodyView<'_>| {
        (
            Vector3::new(0.0, 0.0, -9.81) - 0.1 * b.velocity - 0.5 * b.position,
            Vector3::new(0.01, 0.0, 0.0) - 0.05 * b.omega,
        )
    };
    fn on_threads<
        S: Stepper<PerBody<M>, State = SystemState>,
        M: lieode::system::BodyModel + Copy,
    >(
        make: impl Fn() -> S + Sync,
        model: M,
        y0: &SystemState,
    ) -> lieode::Result<[SystemState; 2]> {
        let end = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut forces = PerBody {
                    frame: Frame::Lab,
                    model,
                };
                run(&mut make(), &mut forces, y0, 1e-3, 200)
            })
        };
        Ok([end(1)?, end(2)?])
    }
    let [a, b] = on_threads(
        || SpiralLeapfrogSystem::new(bodies.clone(), SpiralLeapfrog::new),
        model,
        &y0,
    )?;
    assert_eq!(a, b, "SPIRAL");
    let [a, b] = on_threads(|| Rk4System::new(bodies.clone()), model, &y0)?;
    assert_eq!(a, b, "RK4");
    fn generic<'a, K: RigidBodyMethod>(
        bodies: &'a [Body],
        make: fn(RigidBody) -> SingleBody<K>,
    ) -> impl Fn() -> CatalogueSystem<K> + Sync + 'a {
        move || CatalogueSystem::new(bodies.to_vec(), make)
    }
    let [a, b] = on_threads(generic(&bodies, VelocityVerlet::new), model, &y0)?;
    assert_eq!(a, b, "Velocity Verlet");
    let [a, b] = on_threads(generic(&bodies, Fincham::new), model, &y0)?;
    assert_eq!(a, b, "Fincham");
    Ok(())
}

#[test]
fn bad_input_gives_named_errors() -> lieode::Result<()> {
    assert!(matches!(
        Body::new(0.0, [1.0; 3]),
        Err(Error::InvalidParameter { name: "mass", .. })
    ));
    assert!(matches!(
        Body::new(-1.0, [1.0; 3]),
        Err(Error::InvalidParameter { name: "mass", .. })
    ));
    assert!(matches!(
        Body::new(f64::NAN, [1.0; 3]),
        Err(Error::NonFinite { name: "mass" })
    ));
    assert!(matches!(
        Body::new(1.0, [f64::NAN, 1.0, 1.0]),
        Err(Error::InvalidParameter {
            name: "inertia",
            ..
        })
    ));
    let zeros = vec![Vector3::zeros(); 3];
    let rotors = vec![Quaternion::identity(); 2];
    let error =
        SystemState::new(0.0, zeros.clone(), zeros.clone(), rotors, zeros.clone()).unwrap_err();
    assert!(
        matches!(error, Error::InvalidParameter { name: "rotors", .. }),
        "{error:?}"
    );
    let mut rotors = vec![Quaternion::identity(); 3];
    rotors[1] = Quaternion::new(0.0, 0.0, 0.0, 0.0);
    let error =
        SystemState::new(0.0, zeros.clone(), zeros.clone(), rotors, zeros.clone()).unwrap_err();
    assert!(
        matches!(error, Error::InvalidParameter { name: "rotors", .. }),
        "{error:?}"
    );
    let mut positions = zeros.clone();
    positions[2].y = f64::INFINITY;
    let error = SystemState::new(
        0.0,
        positions,
        zeros.clone(),
        vec![Quaternion::identity(); 3],
        zeros.clone(),
    )
    .unwrap_err();
    assert_eq!(
        error,
        Error::NonFiniteBody {
            what: "state",
            body: 2,
            t: 0.0
        }
    );
    // A force that turns NaN names the body and the time.
    let ball = Body::solid_sphere(1.0, 0.1)?;
    let y0 = SystemState::at_rest(0.0, 4);
    let error = run(
        &mut SpiralLeapfrogSystem::uniform(ball, 4, SpiralLeapfrog::new),
        &mut force_on_2(),
        &y0,
        0.01,
        20,
    )
    .unwrap_err();
    match error {
        Error::NonFiniteBody {
            what: "force",
            body: 2,
            t,
        } => assert!((t - 0.05).abs() < 1e-12, "{t}"),
        other => panic!("{other:?}"),
    }
    // A state with another number of bodies than the method.
    let error = run(
        &mut SpiralLeapfrogSystem::uniform(ball, 3, SpiralLeapfrog::new),
        &mut force_on_2(),
        &y0,
        0.01,
        20,
    )
    .unwrap_err();
    assert!(
        matches!(error, Error::InvalidParameter { name: "y0", .. }),
        "{error:?}"
    );
    let mut stepper = SpiralLeapfrogSystem::uniform(ball, 4, SpiralLeapfrog::new);
    assert!(Stepper::<Faulty>::step(&mut stepper, &mut force_on_2()).is_err());
    // A model that resizes the loads is refused, naming them.
    struct Shrinking;
    impl SystemForces for Shrinking {
        fn torque_frame(&self) -> Frame {
            Frame::Body
        }
        fn loads(&mut self, _view: &SystemView<'_>, loads: &mut Loads) {
            loads.forces.pop();
        }
    }
    let refused = |result: lieode::Result<SystemState>| {
        let error = result.unwrap_err();
        assert!(
            matches!(error, Error::InvalidParameter { name: "loads", .. }),
            "{error:?}"
        );
    };
    refused(run(
        &mut SpiralLeapfrogSystem::uniform(ball, 4, SpiralLeapfrog::new),
        &mut Shrinking,
        &y0,
        0.01,
        5,
    ));
    refused(run(
        &mut Rk4System::uniform(ball, 4),
        &mut Shrinking,
        &y0,
        0.01,
        5,
    ));
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// RK4
// ---------------------------------------------------------------------------------------------

use lieode::system::Rk4System;

/// With the loads at the stage velocities, RK4 keeps order 4 under drag and a damping torque
/// (the problem of the SPIRAL test above), in position, velocity and angular velocity.
#[test]
fn rk4_keeps_order_four_with_velocity_dependent_loads() -> lieode::Result<()> {
    let errors = damped_sphere_errors(
        |b| Rk4System::uniform(b, 1),
        Vector3::new(0.3, 0.2, 3.0),
        [20, 40, 80],
    )?;
    assert_orders(&errors, 4.0, 0.15);
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Velocity Verlet
// ---------------------------------------------------------------------------------------------

use lieode::rotation::{Fincham, RigidBody, VelocityVerlet};
use lieode::system::CatalogueSystem;

/// Velocity Verlet translation: exact for a constant force, second order under a spring
/// `F = −x` (the harmonic oscillator, against its closed form).
#[test]
fn velocity_verlet_translation_orders() -> lieode::Result<()> {
    let ball = Body::solid_sphere(1.0, 0.1)?;
    let g = Vector3::new(0.0, 0.0, -9.81);
    let mut constant = PerBody {
        frame: Frame::Body,
        model: move |_: &BodyView<'_>| (g, Vector3::zeros()),
    };
    let mut y0 = SystemState::at_rest(0.0, 1);
    y0.velocities[0] = Vector3::new(1.0, 0.0, 5.0);
    let end = run(
        &mut CatalogueSystem::uniform(ball, 1, VelocityVerlet::new),
        &mut constant,
        &y0,
        0.01,
        100,
    )?;
    let exact = y0.velocities[0] * end.t + g * (0.5 * end.t * end.t);
    assert!((end.positions[0] - exact).norm() < 1e-12);
    // The harmonic oscillator x'' = −x from x = (1, 0, 0): second order in x and v.
    let mut spring = PerBody {
        frame: Frame::Body,
        model: |b: &BodyView<'_>| (-b.position, Vector3::zeros()),
    };
    let mut y0 = SystemState::at_rest(0.0, 1);
    y0.positions[0] = Vector3::x();
    let mut errors = Vec::new();
    for steps in [100, 200, 400] {
        let end = run(
            &mut CatalogueSystem::uniform(ball, 1, VelocityVerlet::new),
            &mut spring,
            &y0,
            5.0 / steps as f64,
            steps,
        )?;
        let t = end.t;
        errors.push((end.positions[0].x - t.cos()).abs() + (end.velocities[0].x + t.sin()).abs());
    }
    for w in errors.windows(2) {
        let order = (w[0] / w[1]).log2();
        assert!((order - 2.0).abs() < 0.1, "order {order}: {errors:?}");
    }
    Ok(())
}

/// A model that adds its loads into the buffers (as a contact model summing pair forces
/// does) must see them zeroed before every evaluation: it gives the same bits as the per-body
/// model that assigns them.
#[test]
fn accumulating_models_see_zeroed_loads() -> lieode::Result<()> {
    struct Adding;
    impl SystemForces for Adding {
        fn torque_frame(&self) -> Frame {
            Frame::Lab
        }
        fn loads(&mut self, view: &SystemView<'_>, loads: &mut Loads) {
            for i in 0..view.positions.len() {
                let (f, tau) = common::bodies::damped_sphere(&BodyView {
                    index: i,
                    t: view.t,
                    position: &view.positions[i],
                    velocity: &view.velocities[i],
                    rotor: &view.rotors[i],
                    omega: &view.omegas[i],
                });
                loads.forces[i] += f;
                loads.torques[i] += tau;
            }
        }
    }
    let ball = Body::solid_sphere(2.0, 0.5)?;
    let mut y0 = SystemState::at_rest(0.0, 3);
    y0.velocities[1] = Vector3::new(1.0, -0.5, 0.25);
    y0.omegas[2] = Vector3::new(0.3, 0.2, 3.0);
    let mut assigning = PerBody {
        frame: Frame::Lab,
        model: common::bodies::damped_sphere as lieode::system::BodyFn,
    };
    let a = run(
        &mut SpiralLeapfrogSystem::uniform(ball, 3, SpiralLeapfrog::new),
        &mut Adding,
        &y0,
        0.01,
        50,
    )?;
    let b = run(
        &mut SpiralLeapfrogSystem::uniform(ball, 3, SpiralLeapfrog::new),
        &mut assigning,
        &y0,
        0.01,
        50,
    )?;
    assert_eq!(a, b, "SPIRAL");
    let a = run(&mut Rk4System::uniform(ball, 3), &mut Adding, &y0, 0.01, 50)?;
    let b = run(
        &mut Rk4System::uniform(ball, 3),
        &mut assigning,
        &y0,
        0.01,
        50,
    )?;
    assert_eq!(a, b, "RK4");
    let make = |b| CatalogueSystem::uniform(b, 3, Fincham::new);
    let a = run(&mut make(ball), &mut Adding, &y0, 0.01, 50)?;
    let b = run(&mut make(ball), &mut assigning, &y0, 0.01, 50)?;
    assert_eq!(a, b, "Fincham");
    Ok(())
}

/// SPIRAL's fused pass (a per-body model) names a non-finite force or torque with its body and
/// time, as the two-pass step does.
#[test]
fn the_fused_pass_names_non_finite_loads() -> lieode::Result<()> {
    /// A NaN force on body 2 from t = 0.05 (`TORQUE = false`), or an infinite torque on body
    /// 3 from t = 0.1.
    fn faulty<const TORQUE: bool>(b: &BodyView<'_>) -> (Vector3<f64>, Vector3<f64>) {
        let (i, t) = (b.index, b.t);
        let mut loads = (Vector3::zeros(), Vector3::zeros());
        if TORQUE && i == 3 && t >= 0.1 {
            loads.1.y = f64::INFINITY;
        } else if !TORQUE && i >= 2 && t >= 0.05 {
            loads.0.x = f64::NAN;
        }
        loads
    }
    let ball = Body::solid_sphere(1.0, 0.1)?;
    let y0 = SystemState::at_rest(0.0, 5);
    let mut model = PerBody {
        frame: Frame::Body,
        model: faulty::<false>,
    };
    match run(
        &mut SpiralLeapfrogSystem::uniform(ball, 5, SpiralLeapfrog::new),
        &mut model,
        &y0,
        0.01,
        20,
    ) {
        Err(Error::NonFiniteBody {
            what: "force",
            body: 2,
            t,
        }) => assert!((t - 0.05).abs() < 1e-12, "{t}"),
        other => panic!("{other:?}"),
    }
    let mut model = PerBody {
        frame: Frame::Lab,
        model: faulty::<true>,
    };
    let error = run(
        &mut SpiralLeapfrogSystem::uniform(ball, 5, SpiralLeapfrog::new),
        &mut model,
        &y0,
        0.01,
        20,
    );
    assert!(
        matches!(
            error,
            Err(Error::NonFiniteBody {
                what: "torque",
                body: 3,
                t
            }) if (t - 0.1).abs() < 1e-12
        ),
        "{error:?}"
    );
    Ok(())
}
