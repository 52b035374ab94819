//! Reliability of the adaptive codes at the edges of `f64`: where a run ends, and which
//! parameter an impossible tolerance is blamed on.
//!
//! - Every run of DOPRI5, DOP853 and ODEX — on vectors and lifted to a group — either ends
//!   exactly on `t_end` with [`StopReason::Finished`] or returns a named error: a span that `t`
//!   cannot resolve at its magnitude is [`Error::StepSizeTooSmall`] (Hairer's ODEX used to stop
//!   there, or a few units in the last place short of `t_end`, and call it finished).
//! - An absolute tolerance too small for a zero starting state (the generator `r = 0`, the
//!   lifted coordinates `θ = 0`) is refused naming `atol`, as the vector formulations refuse
//!   one below the round-off of their non-zero state, not as a non-finite initial step.
//!
//! The expected values are computed here from closed forms (`e^{−Δt}` for `x' = −x`, `ω/2` for
//! the derivative of the generator and of the lifted coordinates at the identity, the
//! resolution test `0.1 |h| ≤ |t| · uround` evaluated on the span), not by the codes under test.

use lieode::Error;
use lieode::adaptive::odex::OdexParameters;
use lieode::adaptive::{
    AdaptiveMethod, ControllerParameters, Dop853, Dopri5, LieStepper, Odex, Tolerances,
    VectorStepper,
};
use lieode::body::Frame;
use lieode::integrate::{Options, Solution, StopReason, integrate};
use lieode::kinematics::{
    Attitude, Formulated, Formulation, FrameVectors, Generator, Kinematics, Lifted, Named,
    RotationProblem, Rotor, TwoFrameVectors,
};
use lieode::lie::LieGroup;
use lieode::lie::rn::Rn;
use lieode::lie::so3::{So3, So3Algebra};
use lieode::lie::unit_quaternion::UnitQuat;
use lieode::ode::LieOdeFn;
use lieode::stepper::{Span, Stepper};
use nalgebra::{Const, SVector, U1, Vector1, Vector2, Vector3};

/// Hairer's rounding unit, the default `uround` of every code here.
const UROUND: f64 = 2.3e-16;

fn decay(_t: f64, x: &Vector1<f64>) -> Vector1<f64> {
    -x
}

/// The harmonic oscillator, bounded in either direction of time.
fn oscillator(_t: f64, x: &Vector2<f64>) -> Vector2<f64> {
    Vector2::new(x[1], -x[0])
}

fn tolerances() -> Tolerances {
    Tolerances::scalar(1e-8, 1e-8).unwrap()
}

fn odex_parameters(hmax: Option<f64>) -> OdexParameters {
    OdexParameters {
        hmax,
        ..OdexParameters::default()
    }
}

fn dopri5_parameters(hmax: Option<f64>) -> ControllerParameters {
    ControllerParameters {
        hmax,
        ..ControllerParameters::dopri5()
    }
}

fn dop853_parameters(hmax: Option<f64>) -> ControllerParameters {
    ControllerParameters {
        hmax,
        ..ControllerParameters::dop853()
    }
}

/// `x' = −x`, `x(t0) = 1` over `span` with `method` on vectors.
fn vector_run<M: AdaptiveMethod<U1>>(
    method: M,
    span: &Span,
) -> lieode::Result<Solution<Vector1<f64>, lieode::adaptive::DenseSegment<U1>>> {
    integrate(
        &mut VectorStepper::new(method),
        &mut decay,
        &Vector1::new(1.0),
        span,
        Options::default(),
    )
}

/// The same equation on the group ℝ¹ (`y' = ξ·y` with `ξ = −y` in the additive group),
/// through the lifted stepper.
fn lifted_run<M: AdaptiveMethod<U1>>(
    method: M,
    span: &Span,
) -> lieode::Result<(StopReason, f64, f64)> {
    let mut ode = LieOdeFn::left(|_t: f64, y: &Rn<1>| Rn(-y.0));
    let sol = integrate(
        &mut LieStepper::new(method),
        &mut ode,
        &Rn(Vector1::new(1.0)),
        span,
        Options::default(),
    )?;
    let (t, y) = sol.last().expect("a stored end");
    Ok((sol.stop, t, y.0[0]))
}

/// The end of a vector run: why it stopped, where, and `x` there.
fn vector_end<M: AdaptiveMethod<U1>>(
    method: M,
    span: &Span,
) -> lieode::Result<(StopReason, f64, f64)> {
    let sol = vector_run(method, span)?;
    let (t, y) = sol.last().expect("a stored end");
    Ok((sol.stop, t, y[0]))
}

/// `[10¹⁵, 10¹⁵ + 1]`: the span is one unit long, but at `t = 10¹⁵` a step is resolved only if
/// `0.1 |h| > 10¹⁵ · uround = 0.23`, and no step of this span (`|h| ≤ 1`) is. Every code stops
/// at once with `StepSizeTooSmall` at `t0`, as Hairer's DOPRI5 and DOP853 do; ODEX on vectors
/// and lifted used to return `Finished` after no step, at `t = 10¹⁵` with `x = 1`.
#[test]
fn a_span_that_t_cannot_resolve_is_step_size_too_small() -> lieode::Result<()> {
    let t0 = 1e15;
    let span = Span::new(t0, t0 + 1.0)?;
    // The span is representable (10¹⁵ + 1 is exact) but not resolvable at 10¹⁵.
    assert_eq!(span.t_end() - span.t0(), 1.0);
    assert!(0.1 * (span.t_end() - span.t0()) <= t0 * UROUND);
    let runs = [
        (
            "ODEX",
            vector_end(Odex::new(tolerances(), odex_parameters(None))?, &span),
        ),
        (
            "ODEX dense",
            vector_end(
                Odex::new(
                    tolerances(),
                    OdexParameters {
                        dense_output: true,
                        ..OdexParameters::default()
                    },
                )?,
                &span,
            ),
        ),
        (
            "lifted ODEX",
            lifted_run(Odex::new(tolerances(), odex_parameters(None))?, &span),
        ),
        (
            "DOPRI5",
            vector_end(Dopri5::new(tolerances(), dopri5_parameters(None))?, &span),
        ),
        (
            "DOP853",
            vector_end(Dop853::new(tolerances(), dop853_parameters(None))?, &span),
        ),
        (
            "lifted DOPRI5",
            lifted_run(Dopri5::new(tolerances(), dopri5_parameters(None))?, &span),
        ),
        (
            "lifted DOP853",
            lifted_run(Dop853::new(tolerances(), dop853_parameters(None))?, &span),
        ),
    ];
    for (name, run) in runs {
        match run {
            Err(Error::StepSizeTooSmall { t, h }) => {
                assert_eq!(t, t0, "{name}");
                assert!(h > 0.0 && 0.1 * h <= t0 * UROUND, "{name}: h = {h:e}");
            }
            other => panic!("{name}: expected StepSizeTooSmall at t0, got {other:?}"),
        }
    }
    Ok(())
}

/// A span that ends between the steps the codes can resolve: with `hmax = 2⁻⁴³` (512 units
/// in the last place of 1) from `t0 = 1`, three full steps reach `1 + 3·2⁻⁴³`, and `t_end` lies
/// 8 units in the last place (`8·2⁻⁵²`) beyond. That remainder is below Hairer's resolution at
/// `t ≈ 1` (`0.1 · 8·2⁻⁵² ≤ uround`), and beyond the last-step test's reach (`0.01 hmax` is
/// less than it), so the third step is not marked last. ODEX used to stop there, 8 units short
/// of `t_end`, and call the run finished; every code now takes the remaining step and ends
/// on `t_end` exactly, with `x = e^{−Δt}`, `Δt = 3·2⁻⁴³ + 8·2⁻⁵²`.
#[test]
fn a_span_that_ends_between_resolvable_steps_ends_on_t_end() -> lieode::Result<()> {
    let hmax = 2f64.powi(-43);
    let t0 = 1.0;
    let three_steps = t0 + 3.0 * hmax;
    let remainder = 8.0 * f64::EPSILON;
    let t_end = three_steps + remainder;
    // Exact in f64: 1 + (3·512 + 8)·2⁻⁵².
    assert_eq!(t_end - t0, 1544.0 * f64::EPSILON);
    assert!(
        0.1 * remainder <= three_steps * UROUND,
        "unresolvable remainder"
    );
    assert!(0.01 * hmax < remainder, "the third step is not the last");
    let span = Span::new(t0, t_end)?;
    let exact = (-(t_end - t0)).exp();
    let check = |name: &str, stop: StopReason, t: f64, x: f64| {
        assert_eq!(stop, StopReason::Finished, "{name}");
        assert_eq!(t, t_end, "{name}: ended at {t:e}, {:e} short", t_end - t);
        assert!(
            (x - exact).abs() < 4.0 * f64::EPSILON,
            "{name}: {x:e} vs {exact:e}"
        );
    };
    for dense_output in [false, true] {
        let parameters = OdexParameters {
            dense_output,
            ..odex_parameters(Some(hmax))
        };
        let sol = vector_run(Odex::new(tolerances(), parameters.clone())?, &span)?;
        // The steps: three of hmax, then the remainder.
        let expected: Vec<f64> = (0..4)
            .map(|k| t0 + k as f64 * hmax)
            .chain([t_end])
            .collect();
        assert_eq!(sol.times, expected, "ODEX (dense output {dense_output})");
        let (t, x) = sol.last().expect("an end");
        check("ODEX", sol.stop, t, x[0]);
        let (stop, t, x) = lifted_run(Odex::new(tolerances(), parameters)?, &span)?;
        check("lifted ODEX", stop, t, x);
    }
    let (stop, t, x) = vector_end(
        Dopri5::new(tolerances(), dopri5_parameters(Some(hmax)))?,
        &span,
    )?;
    check("DOPRI5", stop, t, x);
    let (stop, t, x) = vector_end(
        Dop853::new(tolerances(), dop853_parameters(Some(hmax)))?,
        &span,
    )?;
    check("DOP853", stop, t, x);
    let (stop, t, x) = lifted_run(
        Dopri5::new(tolerances(), dopri5_parameters(Some(hmax)))?,
        &span,
    )?;
    check("lifted DOPRI5", stop, t, x);
    let (stop, t, x) = lifted_run(
        Dop853::new(tolerances(), dop853_parameters(Some(hmax)))?,
        &span,
    )?;
    check("lifted DOP853", stop, t, x);
    // The same backwards: from t_end to 1.
    let back = Span::new(t_end, t0)?;
    let (stop, t, x) = vector_end(Odex::new(tolerances(), odex_parameters(Some(hmax)))?, &back)?;
    assert_eq!((stop, t), (StopReason::Finished, t0));
    assert!((x - 1.0 / exact).abs() < 4.0 * f64::EPSILON, "{x:e}");
    Ok(())
}

/// A seeded xorshift generator.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[a, b)`.
    fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.unit()
    }

    /// `10^u`, `u` uniform in `[a, b)`.
    fn decades(&mut self, a: f64, b: f64) -> f64 {
        10f64.powf(self.uniform(a, b))
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One random span: `t0` from 0 to about 10¹⁶ of either sign, a length from a few units in the
/// last place of `t0` to a hundred times its size (at most 50), either direction, and, half the time, a
/// maximal step of the length over `n + δ` (`δ` tiny) so that the last full step stops just
/// short of `t_end`. `None` if `t_end` rounds onto `t0`.
fn random_span(d: &mut Draw) -> Option<(Span, Option<f64>, f64)> {
    let t0 = match d.below(4) {
        0 => 0.0,
        _ => {
            let sign = if d.below(2) == 0 { 1.0 } else { -1.0 };
            sign * d.decades(-3.0, 16.0)
        }
    };
    let scale = t0.abs().max(1e-3);
    let length = match d.below(3) {
        // Near the resolution of t0: 10 to 10⁴ times |t0|·uround.
        0 => scale * UROUND * d.decades(1.0, 4.0),
        1 => scale * d.decades(-14.0, 0.0),
        _ => scale * d.decades(-2.0, 2.0),
    };
    // At most 50 time units: some thousand steps at the tightest tolerance.
    let length = length.min(50.0);
    let direction = if d.below(4) == 0 { -1.0 } else { 1.0 };
    let t_end = t0 + direction * length;
    let span = Span::new(t0, t_end).ok()?;
    let span_length = (span.t_end() - span.t0()).abs();
    let hmax = (d.below(2) == 0)
        .then(|| span_length / (d.below(6) as f64 + 1.0 + d.decades(-16.0, -11.0)));
    let tol = d.decades(-12.0, -3.0);
    Some((span, hmax, tol))
}

/// Checks one outcome: a finished run ended exactly on `t_end`, anything else is a step-size
/// underflow or the step limit. Returns whether the run finished after a last step shorter
/// than Hairer's resolution at its start (`0.1 |t_end − t| ≤ |t| · uround`): the runs
/// Hairer's ODEX would have stopped short of `t_end`.
fn judge(
    label: &str,
    seed: u64,
    span: &Span,
    outcome: lieode::Result<(StopReason, Vec<f64>)>,
) -> bool {
    match outcome {
        Ok((stop, times)) => {
            assert_eq!(stop, StopReason::Finished, "{label} seed {seed:x}");
            let last = *times.last().expect("a stored end");
            assert_eq!(
                last,
                span.t_end(),
                "{label} seed {seed:x}: Finished at {last:e}, t_end = {:e}",
                span.t_end()
            );
            times.len() >= 2 && {
                let before = times[times.len() - 2];
                0.1 * (span.t_end() - before).abs() <= before.abs() * UROUND
            }
        }
        Err(Error::StepSizeTooSmall { .. } | Error::MaxStepsExceeded { .. }) => false,
        Err(other) => panic!("{label} seed {seed:x}: {other:?}"),
    }
}

fn times<S, G>(sol: lieode::Result<Solution<S, G>>) -> lieode::Result<(StopReason, Vec<f64>)> {
    sol.map(|s| (s.stop, s.times))
}

/// Random spans and tolerances, the vector codes on the harmonic oscillator and the lifted ones on
/// a rotation: "finished ⇒ the last time is
/// `t_end`". The loop also counts the ODEX runs whose last step was shorter than Hairer's
/// resolution — without the fix these end short of `t_end` — and requires some.
#[test]
fn random_spans_finish_exactly_on_t_end() -> lieode::Result<()> {
    const CASES: u64 = 1500;
    let mut near_end = 0;
    let mut finished = 0;
    for case in 0..CASES {
        let seed = case.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5851_f42d_4c95_7f2d;
        let mut d = Draw(seed | 1);
        let Some((span, hmax, tol)) = random_span(&mut d) else {
            continue;
        };
        let tolerances = Tolerances::scalar(tol, tol)?;
        let initial_step = d.decades(-6.0, 0.0) * (span.t_end() - span.t0()).abs();
        let odex = OdexParameters {
            hmax,
            initial_step,
            dense_output: d.below(2) == 0,
            ..OdexParameters::default()
        };
        let omega = Vector3::new(
            d.uniform(-2.0, 2.0),
            d.uniform(-2.0, 2.0),
            d.uniform(-2.0, 2.0),
        );
        let mut spin = LieOdeFn::left(move |t: f64, _r: &So3| {
            So3Algebra::new(omega + Vector3::new(0.0, (0.01 * t).sin(), 0.0))
        });
        let r0 = So3::identity();
        let mut record = |label: &str, outcome| {
            let short = judge(label, seed, &span, outcome);
            if short && label.contains("ODEX") {
                near_end += 1;
            }
        };
        let outcome = times(integrate(
            &mut VectorStepper::new(Odex::new(tolerances.clone(), odex.clone())?),
            &mut oscillator,
            &Vector2::new(1.0, 0.0),
            &span,
            Options::default(),
        ));
        finished += usize::from(outcome.is_ok());
        record("ODEX", outcome);
        let outcome = times(integrate(
            &mut LieStepper::new(Odex::new(tolerances.clone(), odex.clone())?),
            &mut spin,
            &r0,
            &span,
            Options::default(),
        ));
        record("lifted ODEX on SO(3)", outcome);
        let outcome = times(integrate(
            &mut VectorStepper::new(Dopri5::new(tolerances.clone(), dopri5_parameters(hmax))?),
            &mut oscillator,
            &Vector2::new(1.0, 0.0),
            &span,
            Options::default(),
        ));
        record("DOPRI5", outcome);
        let outcome = times(integrate(
            &mut VectorStepper::new(Dop853::new(tolerances.clone(), dop853_parameters(hmax))?),
            &mut oscillator,
            &Vector2::new(1.0, 0.0),
            &span,
            Options::default(),
        ));
        record("DOP853", outcome);
        let outcome = times(integrate(
            &mut LieStepper::new(Dop853::new(tolerances.clone(), dop853_parameters(hmax))?),
            &mut spin,
            &r0,
            &span,
            Options::default(),
        ));
        record("lifted DOP853 on SO(3)", outcome);
    }
    assert!(
        finished > CASES as usize / 3,
        "{finished} finished ODEX runs"
    );
    assert!(
        near_end > 10,
        "{near_end} ODEX runs with a last step below the resolution"
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// An impossible atol is named in every formulation.

/// The test angular velocity (inertial, constant): at the identity the generator's and the
/// lifted coordinates' derivatives are both `ω/2`, component 0 `0.15`.
const OMEGA: [f64; 3] = [0.3, 0.2, 1.0];

fn spin() -> impl RotationProblem<0> {
    Kinematics::inertial(|_t: f64, _a: &Attitude| Vector3::from(OMEGA))
}

/// The same rotation with a decaying extra state `x' = −x`.
fn spin_with_extra() -> impl RotationProblem<1> {
    Kinematics::coupled(
        Frame::Lab,
        |_t: f64, _a: &Attitude, _x: &Vector1<f64>| Vector3::from(OMEGA),
        |_t: f64, _a: &Attitude, x: &Vector1<f64>| -x,
    )
}

/// The error of a run of `stepper` in `formulation` over `[0, 1]` from the identity and `x0`,
/// or a panic naming the run if it succeeded.
fn rotation_error<F, P, S, const M: usize>(
    label: &str,
    problem: P,
    formulation: F,
    stepper: S,
    x0: &SVector<f64, M>,
) -> (String, Error)
where
    F: Formulation<M> + Named,
    P: RotationProblem<M>,
    S: Stepper<F::Ode<P>, State = F::State>,
{
    let name = format!("{} with {label}", formulation.name());
    let mut formulated = Formulated::new(formulation, stepper);
    let mut ode = formulated.ode(problem);
    let outcome = formulated
        .initial_state(&UnitQuat::identity(), x0)
        .and_then(|y0| {
            let span = Span::new(0.0, 1.0).unwrap();
            integrate(&mut formulated, &mut ode, &y0, &span, Options::default())
        });
    match outcome {
        Ok(sol) => panic!(
            "{name}: expected an error, the run ended with {:?} at {:?}",
            sol.stop,
            sol.times.last()
        ),
        Err(error) => (name, error),
    }
}

/// The errors of one vector formulation with DOPRI5, DOP853 and ODEX.
fn vector_formulation_errors<F, P, const M: usize, const N: usize>(
    problem: impl Fn() -> P,
    formulation: F,
    tolerances: &Tolerances,
    x0: &SVector<f64, M>,
) -> lieode::Result<Vec<(String, Error)>>
where
    F: Formulation<M, State = SVector<f64, N>> + Named + Clone,
    P: RotationProblem<M>,
    VectorStepper<Dopri5<Const<N>>, N>: Stepper<F::Ode<P>, State = F::State>,
    VectorStepper<Dop853<Const<N>>, N>: Stepper<F::Ode<P>, State = F::State>,
    VectorStepper<Odex<Const<N>>, N>: Stepper<F::Ode<P>, State = F::State>,
{
    let t = || tolerances.clone();
    Ok(vec![
        rotation_error(
            "DOPRI5",
            problem(),
            formulation.clone(),
            VectorStepper::new(Dopri5::<Const<N>>::new(
                t(),
                ControllerParameters::dopri5(),
            )?),
            x0,
        ),
        rotation_error(
            "DOP853",
            problem(),
            formulation.clone(),
            VectorStepper::new(Dop853::<Const<N>>::new(
                t(),
                ControllerParameters::dop853(),
            )?),
            x0,
        ),
        rotation_error(
            "ODEX",
            problem(),
            formulation,
            VectorStepper::new(Odex::<Const<N>>::new(t(), OdexParameters::default())?),
            x0,
        ),
    ])
}

/// Every formulation with every adaptive code (the lifted one through [`LieStepper`]) for the
/// problem without extra state.
fn every_formulation(tolerances: &Tolerances) -> lieode::Result<Vec<(String, Error)>> {
    let none = SVector::<f64, 0>::zeros();
    let mut errors = Vec::new();
    errors.extend(vector_formulation_errors::<_, _, 0, 9>(
        spin,
        FrameVectors,
        tolerances,
        &none,
    )?);
    errors.extend(vector_formulation_errors::<_, _, 0, 6>(
        spin,
        TwoFrameVectors::new(),
        tolerances,
        &none,
    )?);
    errors.extend(vector_formulation_errors::<_, _, 0, 4>(
        spin, Rotor, tolerances, &none,
    )?);
    errors.extend(vector_formulation_errors::<_, _, 0, 3>(
        spin,
        Generator::plain(),
        tolerances,
        &none,
    )?);
    errors.extend(vector_formulation_errors::<_, _, 0, 3>(
        spin,
        Generator::reset(),
        tolerances,
        &none,
    )?);
    let t = || tolerances.clone();
    errors.push(rotation_error(
        "lifted DOPRI5",
        spin(),
        Lifted,
        LieStepper::new(Dopri5::new(t(), ControllerParameters::dopri5())?),
        &none,
    ));
    errors.push(rotation_error(
        "lifted DOP853",
        spin(),
        Lifted,
        LieStepper::new(Dop853::new(t(), ControllerParameters::dop853())?),
        &none,
    ));
    errors.push(rotation_error(
        "lifted ODEX",
        spin(),
        Lifted,
        LieStepper::new(Odex::new(t(), OdexParameters::default())?),
        &none,
    ));
    Ok(errors)
}

/// `atol = 10⁻³⁰⁰` from the identity, absolute control (`rtol = 0`, as Boyle integrates) and
/// mixed (`rtol = 10⁻¹⁰`): every formulation with DOPRI5, DOP853 and ODEX refuses it naming
/// `atol` at `t = 0`. The frame vectors and the rotor have components of size 1 (below whose
/// round-off `atol` lies when `rtol = 0`) and components 0 whose derivative `atol` cannot
/// scale; the generator starts at `r = 0` and the lifted coordinates at `θ = 0` with the
/// derivative `ω/2` in both (the latter two used to fail with "non-finite initial step
/// estimate", or ODEX to run on). For those the bound named is `|ω_x/2| / √(f64::MAX)`.
#[test]
fn a_tiny_atol_is_named_in_every_formulation() -> lieode::Result<()> {
    let bound = format!("{:e}", 0.5 * OMEGA[0] / f64::MAX.sqrt());
    for rtol in [0.0, 1e-10] {
        let errors = every_formulation(&Tolerances::scalar(rtol, 1e-300)?)?;
        assert_eq!(errors.len(), 18);
        for (name, error) in errors {
            let Error::InvalidParameter {
                name: parameter,
                value,
                expected,
            } = &error
            else {
                panic!("rtol = {rtol:e}, {name}: {error:?}");
            };
            assert_eq!(*parameter, "atol", "rtol = {rtol:e}, {name}: {error}");
            let zero_state = name.contains("generator") || name.contains("lifted");
            if zero_state || rtol > 0.0 {
                // Blamed on the scaled derivative, at the start time.
                assert!(value.contains("at t = 0e0"), "{name}: {error}");
            }
            if zero_state {
                assert!(
                    value.starts_with("1e-300 for component 0"),
                    "{name}: {error}"
                );
                assert!(expected.contains(&bound), "{name}: {error} (bound {bound})");
            }
        }
    }
    Ok(())
}

/// An extra state `x0 = 1` under `rtol = 0`, `atol = 10⁻²⁰ < ε`: the vector formulations refuse
/// it naming `atol` (below the round-off of their state), and the lifted formulation now does
/// too — it used to check the local coordinates `θ = 0` instead of the state's sizes
/// ([`lieode::adaptive::System::magnitude`]: `|x|` for the extra state, component 3) and ran
/// into a step-size underflow.
#[test]
fn an_atol_below_the_round_off_of_a_lifted_state_is_named() -> lieode::Result<()> {
    let x0 = Vector1::new(1.0);
    let tolerances = Tolerances::scalar(0.0, 1e-20)?;
    let mut errors = Vec::new();
    errors.extend(vector_formulation_errors::<_, _, 1, 10>(
        spin_with_extra,
        FrameVectors,
        &tolerances,
        &x0,
    )?);
    errors.extend(vector_formulation_errors::<_, _, 1, 5>(
        spin_with_extra,
        Rotor,
        &tolerances,
        &x0,
    )?);
    errors.extend(vector_formulation_errors::<_, _, 1, 4>(
        spin_with_extra,
        Generator::reset(),
        &tolerances,
        &x0,
    )?);
    let t = || tolerances.clone();
    errors.push(rotation_error(
        "lifted DOPRI5",
        spin_with_extra(),
        Lifted,
        LieStepper::new(Dopri5::new(t(), ControllerParameters::dopri5())?),
        &x0,
    ));
    errors.push(rotation_error(
        "lifted DOP853",
        spin_with_extra(),
        Lifted,
        LieStepper::new(Dop853::new(t(), ControllerParameters::dop853())?),
        &x0,
    ));
    errors.push(rotation_error(
        "lifted ODEX",
        spin_with_extra(),
        Lifted,
        LieStepper::new(Odex::new(t(), OdexParameters::default())?),
        &x0,
    ));
    assert_eq!(errors.len(), 12);
    let epsilon = format!("{:e}", f64::EPSILON);
    for (name, error) in errors {
        match &error {
            Error::InvalidParameter {
                name: "atol",
                value,
                expected,
            } => {
                assert!(expected.contains(&epsilon), "{name}: {error}");
                if name.contains("lifted") {
                    assert!(value.contains("component 3"), "{name}: {error}");
                }
            }
            other => panic!("{name}: {other:?}"),
        }
    }
    Ok(())
}

/// Pure relative control (`atol = 0`) from a zero component is a request, not a tolerance
/// below what `f64` resolves: ODEX, which Hairer wrote to run with it, is not refused. The
/// oscillator from `(0, 1)` gives `x(1) = sin 1`.
#[test]
fn pure_relative_control_from_a_zero_component_still_runs_with_odex() -> lieode::Result<()> {
    let sol = integrate(
        &mut VectorStepper::new(Odex::new(
            Tolerances::scalar(1e-10, 0.0)?,
            OdexParameters::default(),
        )?),
        &mut oscillator,
        &Vector2::new(0.0, 1.0),
        &Span::new(0.0, 1.0)?,
        Options::default(),
    )?;
    let (t, x) = sol.last().expect("an end");
    assert_eq!((sol.stop, t), (StopReason::Finished, 1.0));
    assert!((x[0] - 1f64.sin()).abs() < 1e-8, "{}", x[0]);
    Ok(())
}
