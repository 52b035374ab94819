//! The orientation `R(t)` of a frame turning with a prescribed angular velocity,
//! `Ṙ = ½ Ω(t, R) R` with `Ω` in the inertial frame (Boyle's convention, numpy-quaternion's and
//! quaternionic's), integrated in Rust with DOP853. `Ω` is a Python callable, or a table
//! interpolated in Rust by a cubic spline ([`Spline`]), in which case the integration runs
//! without the GIL and makes no Python call.

use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::Mutex;

use lieode::adaptive::{
    ControllerParameters, Dop853, Dopri5, LieStepper, Odex, OdexParameters, Tolerances,
    VectorStepper,
};
use lieode::body::Frame;
use lieode::kinematics::{
    Attitude, Formulated, Formulation, FrameVectors, Generator, Kinematics, Lifted,
    RotationProblem, Rotor, TwoFrameVectors,
};
use lieode::lie::unit_quaternion::UnitQuat;
use lieode::stepper::{Span, Stepper};
use nalgebra::{Const, Quaternion, SVector, Vector3};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

use crate::errors::{InvalidParameterError, to_py};
use crate::spline::Spline;

/// The formulations offered (Boyle 2017 and the Lie-group lift):
///
/// | name | integrates | components |
/// |---|---|---|
/// | `"lifted"` | the unit quaternion itself (the method lifted to the group: every rotor unit up to accumulated round-off) | 3 (algebra) |
/// | `"rotor"` | the rotor's four components (what numpy-quaternion and quaternionic do; normalised on output) | 4 |
/// | `"generator"` | the generator `r` of `R = exp(r)` | 3 |
/// | `"reset_generator"` | the generator, reset to `|r| < π/2` after every step | 3 |
/// | `"frame_vectors"` | the three frame vectors | 9 |
/// | `"two_frame_vectors"` | two frame vectors (the third their cross product) | 6 |
pub const FORMULATIONS: [&str; 6] = [
    "lifted",
    "rotor",
    "generator",
    "reset_generator",
    "frame_vectors",
    "two_frame_vectors",
];

/// The adaptive methods offered: Dormand–Prince 5(4) and 8(5,3), and Hairer's extrapolation
/// method ODEX (each as in Hairer's codes; `ControllerParameters::dopri5`/`dop853`,
/// `OdexParameters::default`).
pub const METHODS: [&str; 3] = ["dop853", "dopri5", "odex"];

/// The times `t` (N) and the rotors `R` (N × 4, scalar first) returned to Python.
type TimesAndRotors<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray2<f64>>);

/// What the integration needs besides `Ω`: the span, the start rotor, DOP853's tolerances, the
/// formulation and the output times (`None`: the accepted steps).
struct Run<'a> {
    t0: f64,
    t1: f64,
    q0: UnitQuat<f64>,
    tolerances: Tolerances,
    formulation: &'a str,
    method: &'a str,
    t_eval: Option<Vec<f64>>,
    /// The method's step limit (Hairer's `NMAX`); `None`: no limit, as the peers have none.
    max_steps: Option<usize>,
    /// A signal's exception (Ctrl-C: `KeyboardInterrupt`) that stopped the run (a mutex: the
    /// table's run is on no Python thread state, and the check takes the GIL from inside it).
    interrupted: Mutex<Option<PyErr>>,
}

/// Checks for signals (Ctrl-C) between steps, every [`SignalCheck::EVERY`] steps, taking the
/// GIL for the check only: a Python exception from a signal handler stops the run.
struct SignalCheck<'r> {
    interrupted: &'r Mutex<Option<PyErr>>,
}

impl SignalCheck<'_> {
    /// Steps between two checks (a check takes the GIL: about a microsecond).
    const EVERY: usize = 64;

    /// Checks for signals after `step` steps if a check is due; a signal's exception stops the
    /// run (kept for the caller to raise; the run's error says where it stopped).
    fn after(&self, step: usize, t: f64) -> lieode::Result<()> {
        if !step.is_multiple_of(Self::EVERY) {
            return Ok(());
        }
        match Python::attach(|py| py.check_signals()) {
            Ok(()) => Ok(()),
            Err(error) => {
                *self.interrupted.lock().unwrap_or_else(|p| p.into_inner()) = Some(error);
                Err(lieode::Error::NonFiniteState {
                    what: "interrupted run",
                    t,
                })
            }
        }
    }
}

/// The rotor `R(t)` for the angular velocity `omega(t, R)` (a Python callable taking the time
/// and the unit rotor as a float array `[w, x, y, z]`, returning three numbers; or a table
/// `(times, values)`, see [`integrate_table`]) from `t0` to
/// `t1`, from the rotor `r0` (normalised; finite and non-zero), with DOP853 at tolerances
/// `atol`, `rtol` in `formulation`: at the accepted steps, or at the increasing times `t_eval`
/// (from the dense output; they must lie in `[t0, t1]`).
///
/// An exception raised by `omega` comes out unchanged; a library failure is one of the
/// package's exceptions (`lieode.LieodeError` and its subclasses) naming the parameter and
/// the time.
#[pyfunction]
#[pyo3(signature = (omega, t0, t1, r0, atol, rtol, formulation, method, frame, t_eval=None, max_steps=None))]
#[allow(clippy::too_many_arguments)]
pub fn integrate_angular_velocity<'py>(
    py: Python<'py>,
    omega: Bound<'py, PyAny>,
    t0: f64,
    t1: f64,
    r0: [f64; 4],
    atol: f64,
    rtol: f64,
    formulation: &str,
    method: &str,
    frame: &str,
    t_eval: Option<PyReadonlyArray1<'py, f64>>,
    max_steps: Option<usize>,
) -> PyResult<TimesAndRotors<'py>> {
    let frame = parse_frame(frame)?;
    let t_eval = t_eval.map(|t| t.as_array().to_vec());
    let mut run = Run::new(
        py,
        (t0, t1),
        r0,
        (atol, rtol),
        (formulation, method),
        t_eval,
    )?;
    run.max_steps = max_steps;
    if !omega.is_callable() {
        let (times, values): (PyReadonlyArray1<'py, f64>, PyReadonlyArray2<'py, f64>) =
            omega.extract().map_err(|_| {
                InvalidParameterError::new_err(
                    "invalid parameter `Omega`: expected a callable or a table (times, values)",
                )
            })?;
        return integrate_table(py, &run, frame, &times, &values);
    }
    // The first exception `omega` raises; the integration then sees NaN and stops.
    let failure: RefCell<Option<PyErr>> = RefCell::new(None);
    let problem = kinematics(frame, |t: f64, attitude: &Attitude<'_>| {
        if failure.borrow().is_some() {
            return Vector3::repeat(f64::NAN);
        }
        match call_omega(py, &omega, t, attitude) {
            Ok(w) => w,
            Err(error) => {
                *failure.borrow_mut() = Some(error);
                Vector3::repeat(f64::NAN)
            }
        }
    });
    let result = run.formulated(problem);
    if let Some(error) = failure.into_inner() {
        return Err(error);
    }
    to_numpy(py, run.outcome(result)?)
}

/// The run for an angular velocity given as the table `(times, values)` (`N` increasing
/// times, an `N × 3` array), interpolated by the not-a-knot cubic spline (SciPy's
/// `CubicSpline` default). The integration releases the GIL and calls no Python; it takes the
/// GIL every 64 steps to check for signals, so that Ctrl-C stops it with `KeyboardInterrupt`.
fn integrate_table<'py>(
    py: Python<'py>,
    run: &Run<'_>,
    frame: Frame,
    times: &PyReadonlyArray1<'py, f64>,
    values: &PyReadonlyArray2<'py, f64>,
) -> PyResult<TimesAndRotors<'py>> {
    let spline = table_spline(times, values)?;
    let result = py.detach(|| {
        let mut piece = 0;
        let problem = kinematics(frame, move |t: f64, _: &Attitude<'_>| {
            Vector3::from(spline.at_near(t, &mut piece))
        });
        run.formulated(problem)
    });
    to_numpy(py, run.outcome(result)?)
}

/// The not-a-knot spline through a table, at the times `t_eval` (for the tests, against
/// SciPy's `CubicSpline`).
#[pyfunction]
pub fn cubic_spline<'py>(
    py: Python<'py>,
    times: PyReadonlyArray1<'py, f64>,
    values: PyReadonlyArray2<'py, f64>,
    t_eval: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let spline = table_spline(&times, &values)?;
    let t_eval = t_eval.as_array();
    let flat: Vec<f64> = t_eval.iter().flat_map(|&t| spline.at(t)).collect();
    PyArray1::from_vec(py, flat).reshape([t_eval.len(), 3])
}

/// The spline of a table `(times, values)` (read in place when both are contiguous), or an
/// `InvalidParameterError` naming `Omega`.
fn table_spline<'a>(
    times: &'a PyReadonlyArray1<'_, f64>,
    values: &'a PyReadonlyArray2<'_, f64>,
) -> PyResult<Spline<'a>> {
    let shape = values.as_array().shape().to_vec();
    if shape[1] != 3 {
        return Err(InvalidParameterError::new_err(format!(
            "invalid parameter `Omega`: a table of angular velocities must have 3 columns, \
             it has shape {shape:?}"
        )));
    }
    let times = match times.as_slice() {
        Ok(slice) => Cow::Borrowed(slice),
        Err(_) => Cow::Owned(times.as_array().to_vec()),
    };
    let rows = match values.as_slice() {
        Ok(slice) => Cow::Borrowed(slice.as_chunks::<3>().0),
        Err(_) => Cow::Owned(
            (values.as_array().rows().into_iter())
                .map(|r| [r[0], r[1], r[2]])
                .collect(),
        ),
    };
    Spline::new(times, rows).map_err(|reason| {
        InvalidParameterError::new_err(format!("invalid parameter `Omega` (table): {reason}"))
    })
}

impl<'a> Run<'a> {
    /// The run over `span` from the rotor `r0` with DOP853's `(atol, rtol)`.
    fn new(
        py: Python<'_>,
        span: (f64, f64),
        r0: [f64; 4],
        (atol, rtol): (f64, f64),
        (formulation, method): (&'a str, &'a str),
        t_eval: Option<Vec<f64>>,
    ) -> PyResult<Self> {
        Ok(Self {
            t0: span.0,
            t1: span.1,
            q0: start_rotor(r0)?,
            tolerances: Tolerances::scalar(rtol, atol).map_err(|e| to_py(py, e))?,
            formulation,
            method,
            t_eval,
            max_steps: None,
            interrupted: Mutex::new(None),
        })
    }

    /// The run's result, or the exception of a signal that stopped it.
    fn outcome<T>(&self, result: lieode::Result<T>) -> Result<lieode::Result<T>, PyErr> {
        match self
            .interrupted
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        {
            Some(error) => Err(error),
            None => Ok(result),
        }
    }

    /// Integrates `problem` in the run's formulation with the run's method.
    fn formulated<P: RotationProblem<0>>(
        &self,
        problem: P,
    ) -> lieode::Result<(Vec<f64>, Vec<[f64; 4]>)> {
        // The method `$m` on `$dim` components, then `$body` with it.
        macro_rules! with_method {
            ($dim:literal, |$m:ident| $body:expr) => {{
                let tolerances = self.tolerances.clone();
                let max_steps = self.max_steps.unwrap_or(usize::MAX);
                let controller = |parameters: ControllerParameters| ControllerParameters {
                    max_steps,
                    ..parameters
                };
                match self.method {
                    "dop853" => {
                        let parameters = controller(ControllerParameters::dop853());
                        let $m = Dop853::<Const<$dim>>::new(tolerances, parameters)?;
                        $body
                    }
                    "dopri5" => {
                        let parameters = controller(ControllerParameters::dopri5());
                        let $m = Dopri5::<Const<$dim>>::new(tolerances, parameters)?;
                        $body
                    }
                    "odex" => {
                        // Output at `t_eval` needs ODEX's own dense output (without it ODEX
                        // offers only a cubic Hermite interpolant, far less accurate).
                        let parameters = OdexParameters {
                            max_steps,
                            dense_output: self.t_eval.is_some(),
                            ..OdexParameters::default()
                        };
                        let $m = Odex::<Const<$dim>>::new(tolerances, parameters)?;
                        $body
                    }
                    other => Err(lieode::Error::InvalidParameter {
                        name: "method",
                        value: format!("{other:?}"),
                        expected: format!("one of {METHODS:?}"),
                    }),
                }
            }};
        }
        match self.formulation {
            "lifted" => with_method!(3, |m| self.with(Lifted, LieStepper::new(m), problem)),
            "rotor" => with_method!(4, |m| self.with(Rotor, VectorStepper::new(m), problem)),
            "generator" => with_method!(3, |m| {
                self.with(Generator::plain(), VectorStepper::new(m), problem)
            }),
            "reset_generator" => with_method!(3, |m| {
                self.with(Generator::reset(), VectorStepper::new(m), problem)
            }),
            "frame_vectors" => {
                with_method!(9, |m| self.with(
                    FrameVectors,
                    VectorStepper::new(m),
                    problem
                ))
            }
            "two_frame_vectors" => with_method!(6, |m| {
                self.with(TwoFrameVectors::new(), VectorStepper::new(m), problem)
            }),
            other => Err(lieode::Error::InvalidParameter {
                name: "formulation",
                value: format!("{other:?}"),
                expected: format!("one of {FORMULATIONS:?}"),
            }),
        }
    }

    /// Integrates `problem` in `formulation` with `stepper`: the times and unit rotors of the
    /// accepted steps, or at `t_eval`, written as the steps are taken (each output time from
    /// the dense output of the step holding it, the end from the end state): nothing of the
    /// run is stored but the output, so a table of 10⁵ times costs one interpolant evaluation
    /// each.
    fn with<F, S, P>(
        &self,
        formulation: F,
        stepper: S,
        problem: P,
    ) -> lieode::Result<(Vec<f64>, Vec<[f64; 4]>)>
    where
        F: Formulation<0>,
        P: RotationProblem<0>,
        S: Stepper<F::Ode<P>, State = F::State>,
    {
        let mut formulated = Formulated::new(formulation, stepper);
        let mut ode = formulated.ode(problem);
        let y0 = formulated.initial_state(&self.q0, &SVector::zeros())?;
        let span = Span::new(self.t0, self.t1)?;
        if let Some(times) = &self.t_eval {
            check_output_times(times, self.t0, self.t1)?;
        }
        let signals = SignalCheck {
            interrupted: &self.interrupted,
        };
        let rotor = |f: &Formulated<F, S, 0>, y: &F::State| {
            let q = *f.formulation().rotor(y).quaternion();
            [q.w, q.i, q.j, q.k]
        };
        formulated.start(&mut ode, &span, &y0)?;
        let q0 = rotor(&formulated, &y0);
        // Whether the output time `t` is at or before `t_end` in the direction of the run.
        let forward = self.t1 >= self.t0;
        let reached = |t: f64, t_end: f64| if forward { t <= t_end } else { t >= t_end };
        let mut steps = 0usize;
        match &self.t_eval {
            None => {
                let (mut times, mut rotors) = (vec![self.t0], vec![q0]);
                loop {
                    let report = formulated.step(&mut ode)?;
                    steps += 1;
                    let y = formulated.state(&mut ode)?;
                    times.push(report.t_end);
                    rotors.push(rotor(&formulated, &y));
                    if report.finished {
                        return Ok((times, rotors));
                    }
                    signals.after(steps, report.t_end)?;
                }
            }
            Some(times) => {
                let mut rotors = Vec::with_capacity(times.len());
                while rotors.len() < times.len() && times[rotors.len()] == self.t0 {
                    rotors.push(q0);
                }
                loop {
                    let report = formulated.step(&mut ode)?;
                    steps += 1;
                    let k = rotors.len();
                    // The times inside the step (the span's end, reached by the last step,
                    // is its end state, not an interpolant's value).
                    let interior = |t: f64| reached(t, report.t_end) && t != self.t1;
                    if k < times.len() && interior(times[k]) {
                        formulated.prepare_dense(&mut ode)?;
                        while rotors.len() < times.len() && interior(times[rotors.len()]) {
                            let t = times[rotors.len()];
                            let y = formulated.dense(t).ok_or_else(|| {
                                lieode::Error::InvalidParameter {
                                    name: "t_eval",
                                    value: format!("{t:e}"),
                                    expected: "a time inside the integrated interval".into(),
                                }
                            })?;
                            rotors.push(rotor(&formulated, &y));
                        }
                    }
                    if report.finished {
                        let y = formulated.state(&mut ode)?;
                        let end = rotor(&formulated, &y);
                        rotors.resize(times.len(), end);
                        return Ok((times.clone(), rotors));
                    }
                    signals.after(steps, report.t_end)?;
                }
            }
        }
    }
}

/// The output times: finite, from `t0` to `t1` in the run's direction, ordered that way.
fn check_output_times(times: &[f64], t0: f64, t1: f64) -> lieode::Result<()> {
    let (low, high) = (t0.min(t1), t0.max(t1));
    let invalid = |k: usize, expected: String| lieode::Error::InvalidParameter {
        name: "t_eval",
        value: format!("t_eval[{k}] = {:e}", times[k]),
        expected,
    };
    if let Some(k) = times.iter().position(|t| !(low..=high).contains(t)) {
        return Err(invalid(k, format!("times in [{low:e}, {high:e}]")));
    }
    let forward = t1 >= t0;
    let ordered = |w: &[f64]| if forward { w[0] <= w[1] } else { w[0] >= w[1] };
    if let Some(k) = times.windows(2).position(|w| !ordered(w)) {
        return Err(invalid(k + 1, "times ordered from t0 to t1".into()));
    }
    Ok(())
}

/// The run's times and rotors as numpy arrays, or its error as the package's exception.
fn to_numpy<'py>(
    py: Python<'py>,
    result: lieode::Result<(Vec<f64>, Vec<[f64; 4]>)>,
) -> PyResult<TimesAndRotors<'py>> {
    let (times, rotors) = result.map_err(|e| to_py(py, e))?;
    let n = times.len();
    let rotors = PyArray1::from_vec(py, rotors.into_flattened()).reshape([n, 4])?;
    Ok((PyArray1::from_vec(py, times), rotors))
}

/// The frame `Ω` is given in: `"inertial"` (`Ṙ = ½ Ω R`, the peers' convention) or `"body"`
/// (`Ṙ = ½ R Ω_b`).
fn parse_frame(frame: &str) -> PyResult<Frame> {
    match frame {
        "inertial" => Ok(Frame::Lab),
        "body" => Ok(Frame::Body),
        other => Err(InvalidParameterError::new_err(format!(
            "invalid parameter `frame` = {other:?}: expected \"inertial\" or \"body\""
        ))),
    }
}

/// The kinematics of `omega` given in `frame`.
fn kinematics<W>(frame: Frame, omega: W) -> Kinematics<W>
where
    W: FnMut(f64, &Attitude<'_>) -> Vector3<f64>,
{
    match frame {
        Frame::Body => Kinematics::body(omega),
        _ => Kinematics::inertial(omega),
    }
}

/// `r0` as a unit rotor.
fn start_rotor(r0: [f64; 4]) -> PyResult<UnitQuat<f64>> {
    let invalid = || {
        InvalidParameterError::new_err(format!(
            "invalid parameter `R0` = {r0:?}: expected a finite non-zero rotor"
        ))
    };
    let q = Quaternion::new(r0[0], r0[1], r0[2], r0[3]);
    let norm = q.norm();
    if !(norm.is_finite() && norm > 0.0) {
        return Err(invalid());
    }
    UnitQuat::from_quaternion(q / norm).map_err(|_| invalid())
}

/// `omega(t, R)` for the orientation `attitude`, as a vector of three finite-or-not numbers.
fn call_omega(
    py: Python<'_>,
    omega: &Bound<'_, PyAny>,
    t: f64,
    attitude: &Attitude<'_>,
) -> PyResult<Vector3<f64>> {
    let rotor = attitude.rotor();
    let q = rotor.quaternion();
    let r = PyArray1::from_slice(py, &[q.w, q.i, q.j, q.k]);
    let value = omega.call1((t, r))?;
    let [x, y, z]: [f64; 3] = value.extract()?;
    Ok(Vector3::new(x, y, z))
}
