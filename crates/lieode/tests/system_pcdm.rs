//! The PCDM schemes of the six-degree-of-freedom layer refuse bad input with named errors: a
//! non-finite load names its body and time, a state of the wrong size names `y0`, a zero rotor
//! names `rotors`, and a step before the start is refused. (Their orders are measured on the
//! spring pair in `tests/system_catalogue.rs`; the paper's four tests are reproduced by
//! `lieode-reproduce`.)

mod common;

use common::bodies::Faulty;
use lieode::Error;
use lieode::integrate::{Options, integrate};
use lieode::stepper::{Span, Stepper};
use lieode::system::{Body, ImprovedPcdmSystem, PcdmSystem, SystemState};

/// A NaN torque on body 1 from t = 0.05.
fn torque_on_1() -> Faulty {
    Faulty {
        body: 1,
        torque: true,
    }
}

/// The error of a run that must fail.
fn failure<T>(result: lieode::Result<T>) -> Error {
    match result {
        Ok(_) => panic!("the run should have failed"),
        Err(error) => error,
    }
}

fn refusals<S: Stepper<Faulty, State = SystemState>>(make: impl Fn(usize) -> S) {
    let y0 = SystemState::at_rest(0.0, 3);
    let span = Span::stride(0.0, 0.01, 20).expect("a span");
    let error = failure(integrate(
        &mut make(3),
        &mut torque_on_1(),
        &y0,
        &span,
        Options::default(),
    ));
    match error {
        Error::NonFiniteBody {
            what: "torque",
            body: 1,
            t,
        } => assert!((t - 0.05).abs() < 1e-12, "{t}"),
        other => panic!("{other:?}"),
    }
    let error = failure(integrate(
        &mut make(2),
        &mut torque_on_1(),
        &y0,
        &span,
        Options::default(),
    ));
    assert!(
        matches!(error, Error::InvalidParameter { name: "y0", .. }),
        "{error:?}"
    );
    let mut zero = y0.clone();
    zero.rotors[2] = nalgebra::Quaternion::new(0.0, 0.0, 0.0, 0.0);
    let error = failure(integrate(
        &mut make(3),
        &mut torque_on_1(),
        &zero,
        &span,
        Options::default(),
    ));
    assert!(
        matches!(error, Error::InvalidParameter { name: "rotors", .. }),
        "{error:?}"
    );
    assert!(Stepper::<Faulty>::step(&mut make(3), &mut torque_on_1()).is_err());
}

#[test]
fn bad_input_gives_named_errors() -> lieode::Result<()> {
    let ball = Body::solid_sphere(1.0, 0.1)?;
    refusals(|n| ImprovedPcdmSystem::uniform(ball, n));
    refusals(|n| PcdmSystem::uniform(ball, n));
    Ok(())
}
