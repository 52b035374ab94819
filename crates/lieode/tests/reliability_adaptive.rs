//! Reliability of the adaptive codes at the edges of `f64`: where a run ends.
//!
//! - Every run of DOPRI5, DOP853 and ODEX — on vectors and lifted to a group — either ends
//!   exactly on `t_end` with [`StopReason::Finished`] or returns a named error: a span that `t`
//!   cannot resolve at its magnitude is [`Error::StepSizeTooSmall`] (Hairer's ODEX used to stop
//!   there, or a few units in the last place short of `t_end`, and call it finished).
//!
//! The expected values are computed here from closed forms (`e^{−Δt}` for `x' = −x`, the
//! resolution test `0.1 |h| ≤ |t| · uround` evaluated on the span), not by the codes under test.

use lieode::Error;
use lieode::adaptive::odex::OdexParameters;
use lieode::adaptive::{
    AdaptiveMethod, ControllerParameters, Dop853, Dopri5, LieStepper, Odex, Tolerances,
    VectorStepper,
};
use lieode::integrate::{Options, Solution, StopReason, integrate};
use lieode::lie::LieGroup;
use lieode::lie::rn::Rn;
use lieode::lie::so3::{So3, So3Algebra};
use lieode::ode::LieOdeFn;
use lieode::stepper::Span;
use nalgebra::{U1, Vector1, Vector2, Vector3};

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
