//! Inputs a new user can get wrong, refused with a typed error that names them: a stiff
//! problem under the explicit adaptive codes, tolerances below round-off, and a Butcher tableau
//! whose declared orders its coefficients do not reach.

use lieode::Error;
use lieode::adaptive::odex::{Odex, OdexParameters};
use lieode::adaptive::{
    AdaptiveMethod, ControllerParameters, Dop853, Dopri5, EmbeddedRk, Tolerances, VectorStepper,
};
use lieode::integrate::{Options, integrate};
use lieode::stepper::Span;
use lieode::tableau::registry::DOPRI5;
use nalgebra::{Const, Vector1};

/// `y' = −10⁶ (y − cos t)`, `y(0) = 1`: the solution hugs `cos t`, and an explicit method's
/// step is held near its stability border `|hλ|` ≈ 3.3 (DOPRI5) or 6.1 (DOP853) with λ = −10⁶.
fn stiff(_t: f64, y: &Vector1<f64>) -> Vector1<f64> {
    Vector1::new(-1e6 * (y[0] - _t.cos()))
}

fn run<M: AdaptiveMethod<Const<1>>>(method: M) -> lieode::Result<()> {
    let span = Span::new(0.0, 10.0)?;
    integrate(
        &mut VectorStepper::new(method),
        &mut stiff,
        &Vector1::new(1.0),
        &span,
        Options::default(),
    )
    .map(|_| ())
}

/// With Hairer's defaults DOPRI5 and DOP853 stop at the first detection (15 positive tests in
/// a row after the 1000th accepted step) with `ProblemIsStiff`, early in the interval, instead
/// of running into the 100 000-step limit; with the test off they do run into it, and with
/// detections counted they run into it too, having counted them.
#[test]
fn a_stiff_problem_stops_with_a_stiffness_error() -> lieode::Result<()> {
    let tol = || Tolerances::scalar(1e-6, 1e-6);
    for (name, border, error) in [
        (
            "dopri5",
            3.25,
            run(Dopri5::new(tol()?, ControllerParameters::dopri5())?),
        ),
        (
            "dop853",
            6.1,
            run(Dop853::new(tol()?, ControllerParameters::dop853())?),
        ),
    ] {
        match error {
            Err(Error::ProblemIsStiff {
                t,
                h_lambda,
                border: b,
            }) => {
                assert!(t > 0.0 && t < 0.1, "{name}: t = {t}");
                assert!(h_lambda > border && b == border, "{name}: {h_lambda} {b}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
    let off = ControllerParameters {
        stiffness: None,
        ..ControllerParameters::dop853()
    };
    let error = run(Dop853::new(tol()?, off)?).unwrap_err();
    assert!(
        matches!(error, Error::MaxStepsExceeded { steps: 100_000, .. }),
        "{error:?}"
    );
    let mut counting = VectorStepper::new(Dopri5::new(
        tol()?,
        ControllerParameters::dopri5().counting_stiffness(),
    )?);
    let mut system = |t: f64, y: &Vector1<f64>| stiff(t, y);
    let error = integrate(
        &mut counting,
        &mut system,
        &Vector1::new(1.0),
        &Span::new(0.0, 10.0)?,
        Options::default(),
    )
    .unwrap_err();
    assert!(matches!(error, Error::MaxStepsExceeded { .. }), "{error:?}");
    assert!(counting.method().stiffness_detections() > 0);
    Ok(())
}

fn name_of(error: &Error) -> &'static str {
    match error {
        Error::InvalidParameter { name, .. } => name,
        other => panic!("expected InvalidParameter, got {other:?}"),
    }
}

/// `rtol = atol = 1e-300` is refused when the tolerances are made, naming `rtol`; an absolute
/// tolerance below the round-off of the initial state (`rtol = 0`, `atol = 1e-300`, `y0 = 1`)
/// is refused by every adaptive code at the start, naming `atol`, instead of a step size of 0.
#[test]
fn tolerances_below_round_off_are_named() -> lieode::Result<()> {
    let error = Tolerances::scalar(1e-300, 1e-300).unwrap_err();
    assert_eq!(name_of(&error), "rtol");
    assert!(error.to_string().contains("round-off"), "{error}");
    assert_eq!(
        name_of(&Tolerances::scalar(1e-16, 1e-8).unwrap_err()),
        "rtol"
    );
    assert!(Tolerances::scalar(f64::EPSILON, 0.0).is_ok());
    let tiny = || Tolerances::scalar(0.0, 1e-300);
    let y0 = Vector1::new(1.0);
    let span = Span::new(0.0, 1.0)?;
    let mut decay = |_t: f64, y: &Vector1<f64>| -y;
    let errors = [
        integrate(
            &mut VectorStepper::new(Dopri5::new(tiny()?, ControllerParameters::dopri5())?),
            &mut decay,
            &y0,
            &span,
            Options::default(),
        )
        .map(|_| ()),
        integrate(
            &mut VectorStepper::new(Dop853::new(tiny()?, ControllerParameters::dop853())?),
            &mut decay,
            &y0,
            &span,
            Options::default(),
        )
        .map(|_| ()),
        integrate(
            &mut VectorStepper::new(EmbeddedRk::<Const<1>>::new(
                &DOPRI5,
                tiny()?,
                ControllerParameters::dopri5(),
            )?),
            &mut decay,
            &y0,
            &span,
            Options::default(),
        )
        .map(|_| ()),
        integrate(
            &mut VectorStepper::new(Odex::<Const<1>>::new(tiny()?, OdexParameters::default())?),
            &mut decay,
            &y0,
            &span,
            Options::default(),
        )
        .map(|_| ()),
    ];
    for error in errors {
        let error = error.unwrap_err();
        assert_eq!(name_of(&error), "atol", "{error}");
    }
    // Just above the limit the run works: atol = 10 ε |y0| (the state decays, so it only
    // gets easier).
    integrate(
        &mut VectorStepper::new(Dopri5::new(
            Tolerances::scalar(0.0, 2.3e-15)?,
            ControllerParameters::dopri5(),
        )?),
        &mut decay,
        &y0,
        &span,
        Options::default(),
    )?;
    Ok(())
}

/// A declared order the coefficients do not reach is refused when the tableau is built,
/// naming the first violated condition and its residual: Euler's `[0|1]` declared fourth
/// order, Heun's pair with a false embedded order, Kutta's third-order tableau declared a
/// third-order Crouch–Grossman method (it is second order as one). True claims pass, and so do
/// claims below what the coefficients reach.
#[test]
fn declared_orders_are_checked_at_construction() -> lieode::Result<()> {
    use lieode::tableau::registry::KUTTA3;
    use lieode::tableau::{ButcherTableau, Family};
    let euler = |order| ButcherTableau::new("Euler", vec![vec![0.0]], vec![1.0], vec![0.0], order);
    euler(1)?;
    let reason = |e: Error| match e {
        Error::InvalidTableau { reason, .. } => reason,
        other => panic!("{other:?}"),
    };
    let r = reason(euler(4).unwrap_err());
    assert!(r.contains("`order` = 4 is not reached"), "{r}");
    assert!(
        r.contains("(order 2)") && r.contains("residual -5e-1"),
        "{r}"
    );
    let heun = || {
        ButcherTableau::new(
            "Heun–Euler",
            vec![vec![0.0, 0.0], vec![1.0, 0.0]],
            vec![0.5, 0.5],
            vec![0.0, 1.0],
            2,
        )
    };
    heun()?.with_embedded(vec![1.0, 0.0], 1)?;
    let r = reason(heun()?.with_embedded(vec![1.0, 0.0], 2).unwrap_err());
    assert!(r.contains("`embedded_order` = 2 is not reached"), "{r}");
    let r = reason(heun()?.with_embedded(vec![0.5, 0.5], 9).unwrap_err());
    assert!(r.contains("cannot be verified"), "{r}");
    let kutta = KUTTA3.clone();
    let r = reason(
        kutta
            .clone()
            .with_family(Family::CrouchGrossman)
            .unwrap_err(),
    );
    assert!(r.contains("not the claimed 3"), "{r}");
    let mut second = kutta;
    second.order = 2;
    second.with_family(Family::CrouchGrossman)?;
    Ok(())
}
