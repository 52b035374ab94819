//! Bad input to the many-body methods, every method at once (the one-evaluation catalogue on
//! `CatalogueSystem`, the SPIRAL fast path, RK4, the PCDM schemes): a start that fails leaves the
//! stepper unstarted, a force model built for a fixed number of bodies refuses other states, a
//! rotor of any finite size is normalised (not zeroed), and a method's own overflow is named as
//! the method's state, not as the model's torque.

use lieode::Error;
use lieode::body::Frame;
use lieode::integrate::{Options, integrate};
use lieode::problems::SpringPair;
use lieode::rotation::RigidBody;
use lieode::rotation::RigidBodyMethod;
use lieode::rotation::SingleBody;
use lieode::rotation::SpiralLeapfrog;
use lieode::stepper::{NoDenseOutput, Span, Stepper, StepperInfo};
use lieode::system::{
    Body, BodyView, CatalogueSystem, ImprovedPcdmSystem, MethodVisitor, PcdmSystem, PerBody,
    Rk4System, SpiralLeapfrogSystem, SystemForces, SystemState, every_method,
};
use nalgebra::{Quaternion, Vector3};

/// A check run on every many-body method: `make` builds a fresh, unstarted instance.
trait Check {
    fn run<S: AnyStepper>(&mut self, name: &str, make: &dyn Fn() -> S);
}

/// Runs `check` on every many-body method for `bodies`.
fn for_every_method(bodies: &[Body], check: &mut impl Check) -> lieode::Result<()> {
    struct Catalogue<'a, C> {
        bodies: &'a [Body],
        check: &'a mut C,
    }
    impl<C: Check> MethodVisitor for Catalogue<'_, C> {
        fn visit<K: RigidBodyMethod>(
            &mut self,
            make: fn(RigidBody) -> SingleBody<K>,
        ) -> lieode::Result<()> {
            let bodies = self.bodies.to_vec();
            let name = CatalogueSystem::new(bodies.clone(), make).name().to_owned();
            self.check
                .run(&name, &|| CatalogueSystem::new(bodies.clone(), make));
            Ok(())
        }
    }
    let b = bodies.to_vec();
    check.run("spiral_leapfrog_fused", &|| {
        SpiralLeapfrogSystem::new(b.clone(), SpiralLeapfrog::new)
    });
    check.run("rk4", &|| Rk4System::new(b.clone()));
    check.run("pcdm", &|| PcdmSystem::new(b.clone()));
    check.run("improved_pcdm", &|| ImprovedPcdmSystem::new(b.clone()));
    every_method(&mut Catalogue { bodies, check })
}

/// The steppers of this test, on the two force models it uses.
trait AnyStepper:
    Stepper<SpringPair, State = SystemState, Segment = NoDenseOutput<SystemState>>
    + Stepper<Drag, State = SystemState, Segment = NoDenseOutput<SystemState>>
    + Stepper<LateHuge, State = SystemState, Segment = NoDenseOutput<SystemState>>
{
}
impl<S> AnyStepper for S where
    S: Stepper<SpringPair, State = SystemState, Segment = NoDenseOutput<SystemState>>
        + Stepper<Drag, State = SystemState, Segment = NoDenseOutput<SystemState>>
        + Stepper<LateHuge, State = SystemState, Segment = NoDenseOutput<SystemState>>
{
}

/// A unit body-frame torque on every body against a drag `−ω`: the torque depends on the
/// method's angular velocity, so a method's overflow reaches the model.
#[derive(Debug, Clone, Copy)]
struct Drag;

impl SystemForces for Drag {
    fn torque_frame(&self) -> Frame {
        Frame::Body
    }
    fn loads(&mut self, view: &lieode::system::SystemView<'_>, loads: &mut lieode::system::Loads) {
        let mut per_body = PerBody {
            frame: Frame::Body,
            model: |b: &BodyView<'_>| (Vector3::zeros(), Vector3::new(1.0, 0.5, -0.2) - *b.omega),
        };
        per_body.loads(view, loads);
    }
}

/// Run A of the spring pair to its end, then a start of run B that fails (a state of three
/// bodies): every method must answer "not started" to the next step, not advance B on A's
/// clock.
#[test]
fn a_failed_start_leaves_the_stepper_unstarted() -> lieode::Result<()> {
    let pair = SpringPair::modulated()?;
    let a = pair.initial_state();
    let mut b = SystemState::at_rest(5.0, 3);
    b.positions[2] = Vector3::new(1.0, 0.0, 0.0);
    struct FailedStart(SpringPair, SystemState, SystemState);
    impl Check for FailedStart {
        fn run<S: AnyStepper>(&mut self, name: &str, make: &dyn Fn() -> S) {
            let (pair, a, b) = (&self.0, &self.1, &self.2);
            let mut stepper = make();
            let mut model = *pair;
            let span = Span::stride(0.0, 0.1, 10).unwrap();
            Stepper::<SpringPair>::start(&mut stepper, &mut model, &span, a).unwrap();
            for _ in 0..10 {
                Stepper::<SpringPair>::step(&mut stepper, &mut model).unwrap();
            }
            let refused = Stepper::<SpringPair>::start(&mut stepper, &mut model, &span, b);
            assert!(refused.is_err(), "{name}");
            let next = Stepper::<SpringPair>::step(&mut stepper, &mut model);
            assert!(
                matches!(next, Err(Error::InvalidParameter { name: "start", .. })),
                "{name}: {next:?}"
            );
        }
    }
    for_every_method(&pair.bodies, &mut FailedStart(pair, a, b))
}

/// The spring pair is a model of two bodies: a state of three is refused at the start, naming
/// `y0` and the model, by every method (the third body would have felt nothing).
#[test]
fn a_model_of_two_bodies_refuses_a_state_of_three() -> lieode::Result<()> {
    let pair = SpringPair::modulated()?;
    let mut three = pair.bodies.to_vec();
    three.push(Body::solid_sphere(1.0, 0.1)?);
    let mut state = SystemState::at_rest(0.0, 3);
    state.positions[0] = pair.initial_state().positions[0];
    state.positions[1] = pair.initial_state().positions[1];
    state.positions[2] = Vector3::new(10.0, 0.0, 0.0);
    struct ThreeBodies(SpringPair, SystemState);
    impl Check for ThreeBodies {
        fn run<S: AnyStepper>(&mut self, name: &str, make: &dyn Fn() -> S) {
            let span = Span::stride(0.0, 1e-3, 10).unwrap();
            let error = integrate(
                &mut make(),
                &mut self.0.clone(),
                &self.1,
                &span,
                Options::default(),
            )
            .map(|_| ())
            .unwrap_err();
            match &error {
                Error::InvalidParameter {
                    name: "y0",
                    expected,
                    ..
                } => assert!(
                    expected.contains("2 bodies, as the force model"),
                    "{name}: {error}"
                ),
                other => panic!("{name}: {other:?}"),
            }
        }
    }
    for_every_method(&three, &mut ThreeBodies(pair, state))
}

/// A rotor whose `|q|²` overflows, `(1e300, 3.1e61, −1.34, 2.9e147)`, was normalised to zero
/// by the renormalising methods (RK4, Direct Euler, Fincham, Johnson) and ran on unnormalised
/// elsewhere. Every method now refuses it at the start, naming `rotors` and the body, as the
/// single-body methods refuse it (their start); the same rotor normalised first
/// (`UnitQuat::from_quaternion_normalized`, which divides by the largest entry) runs.
#[test]
fn a_rotor_whose_norm_overflows_is_refused_by_name() -> lieode::Result<()> {
    let ball = Body::solid_sphere(1.0, 0.1)?;
    let mut y0 = SystemState::at_rest(0.0, 2);
    y0.positions[1] = Vector3::new(1.0, 0.0, 0.0);
    y0.rotors[1] = Quaternion::new(1e300, 3.1e61, -1.34, 2.9e147);
    struct Huge(SystemState);
    impl Check for Huge {
        fn run<S: AnyStepper>(&mut self, name: &str, make: &dyn Fn() -> S) {
            let span = Span::stride(0.0, 1e-3, 1).unwrap();
            match integrate(&mut make(), &mut Drag, &self.0, &span, Options::default()) {
                Err(Error::InvalidParameter {
                    name: "rotors",
                    value,
                    ..
                }) => {
                    assert!(value.starts_with("body 1:"), "{name}: {value}")
                }
                other => panic!("{name}: {other:?}"),
            }
            // Normalised first, it is the identity to 3e-153, and every method runs.
            let mut normalised = self.0.clone();
            let q = lieode::lie::unit_quaternion::UnitQuat::from_quaternion_normalized(
                self.0.rotors[1],
            )
            .unwrap();
            normalised.rotors[1] = *q.quaternion();
            assert!((normalised.rotors[1] - Quaternion::identity()).norm() < 1e-150);
            let run = integrate(
                &mut make(),
                &mut Drag,
                &normalised,
                &span,
                Options::default(),
            );
            assert!(run.is_ok(), "{name}: {run:?}");
        }
    }
    for_every_method(&[ball, ball], &mut Huge(y0))
}

/// A body of inertia 1e-300 under a unit torque: the method's own angular velocity overflows
/// (in a stage, a predictor, the half step back), and the model, which sees that ω, returns
/// non-finite torques. The error must name the method's state of body 0, not the model's torque.
#[test]
fn a_methods_own_overflow_is_named_as_its_state() -> lieode::Result<()> {
    let tiny = Body::new(1.0, [1e-300; 3])?;
    let mut y0 = SystemState::at_rest(0.0, 1);
    y0.omegas[0] = Vector3::new(1.0, 2.0, 3.0);
    struct Overflow(SystemState);
    impl Check for Overflow {
        fn run<S: AnyStepper>(&mut self, name: &str, make: &dyn Fn() -> S) {
            let span = Span::stride(0.0, 1e-3, 100).unwrap();
            let error = integrate(&mut make(), &mut Drag, &self.0, &span, Options::default())
                .map(|_| ())
                .unwrap_err();
            match &error {
                Error::NonFiniteBody { what, body: 0, .. } => {
                    assert!(what.contains("state"), "{name}: {error}")
                }
                other => panic!("{name}: {other:?}"),
            }
        }
    }
    for_every_method(&[tiny], &mut Overflow(y0))
}

/// Loads that are zero for the first two evaluations and then as large as f64 goes (finite):
/// the synchronised state a method computes from them overflows.
#[derive(Debug, Clone, Copy, Default)]
struct LateHuge {
    calls: usize,
}

impl SystemForces for LateHuge {
    fn torque_frame(&self) -> Frame {
        Frame::Body
    }
    fn loads(&mut self, _view: &lieode::system::SystemView<'_>, loads: &mut lieode::system::Loads) {
        self.calls += 1;
        let value = if self.calls > 2 { f64::MAX } else { 0.0 };
        loads
            .forces
            .iter_mut()
            .for_each(|f| *f = Vector3::repeat(value));
        loads
            .torques
            .iter_mut()
            .for_each(|t| *t = Vector3::repeat(value));
    }
}

/// A synchronised state that overflows is an error naming the body's state and the time, never
/// `Ok` with ∞ or NaN in it (the SPIRAL fast path returned ω = NaN for a spin of 1.6e113 in the
/// DEM fuzz of `lieode-reproduce`). Loads of f64::MAX at the synchronisation make every method
/// that computes its synchronised state from the loads (the leapfrog ones) overflow there.
#[test]
fn an_overflowing_synchronised_state_is_named() -> lieode::Result<()> {
    let ball = Body::solid_sphere(1.0, 0.1)?;
    struct Synchronise(SystemState, Vec<String>);
    impl Check for Synchronise {
        fn run<S: AnyStepper>(&mut self, name: &str, make: &dyn Fn() -> S) {
            let mut stepper = make();
            let mut model = LateHuge::default();
            let span = Span::stride(0.0, 1e-3, 1).unwrap();
            Stepper::<LateHuge>::start(&mut stepper, &mut model, &span, &self.0).unwrap();
            let stepped = Stepper::<LateHuge>::step(&mut stepper, &mut model);
            let result = stepped.and_then(|_| Stepper::<LateHuge>::state(&mut stepper, &mut model));
            match result {
                Ok(state) => {
                    let finite = state
                        .velocities
                        .iter()
                        .chain(&state.omegas)
                        .chain(&state.positions)
                        .all(|v| v.iter().all(|x| x.is_finite()));
                    assert!(finite, "{name}: Ok with a non-finite state {state:?}");
                }
                Err(Error::NonFiniteBody { body: 0, .. }) => self.1.push(name.to_owned()),
                Err(other) => panic!("{name}: {other:?}"),
            }
        }
    }
    let mut check = Synchronise(SystemState::at_rest(0.0, 1), Vec::new());
    for_every_method(&[ball], &mut check)?;
    // The leapfrog methods that synchronise ω by a half step of Euler's equations overflow
    // here (Fincham's momentum form stays finite: 250 × 9e304): each must have said so.
    for name in ["spiral_leapfrog_fused", "spiral_leapfrog", "omelyan"] {
        assert!(check.1.iter().any(|n| n == name), "{name}: {:?}", check.1);
    }
    Ok(())
}
