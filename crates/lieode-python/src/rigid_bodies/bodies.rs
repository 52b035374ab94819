//! The Python class `_RigidBodies` (wrapped by `lieode.RigidBodies`): N rigid bodies stepped by
//! one many-body method of the catalogue, with the loads given as arrays at the point the method
//! asks for ([`RigidBodies::load_point`], [`RigidBodies::start`], [`RigidBodies::step`]) or by a
//! Python function ([`RigidBodies::run`]).
//!
//! An object starts one run: its arrays are allocated at that start and written in place by
//! every step, so the views it hands out stay valid (`lieode.RigidBodies` makes a new object to
//! restart). A step that fails (non-finite loads, an exception of the load function) leaves the
//! bodies part-way through it; the object then refuses to go on.

use std::time::Instant;

use lieode::body::Frame;
use lieode::stepper::Span;
use lieode::system::{Body, Loads, SystemState, SystemView};
use nalgebra::{Quaternion, Vector3};
use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::prelude::*;

use super::arrays::{self, LoadArray, invalid, load_array, load_pair, non_finite};
use super::loads::{Kind, Point, PythonLoads, Source};
use super::runner::{Runner, Traits, build};
use crate::errors::IntegrationError;
use crate::errors::{to_py, with_context};

/// The arrays of a state or a load point handed to Python: `(t, positions, velocities, rotors,
/// omegas)`.
type Arrays<'py> = (
    f64,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray2<f64>>,
);

/// The rows of the `(n, C)` array `a` (the parameter `name`), checked for shape and
/// finiteness (naming the first non-finite body, at `t0`).
fn rows<const C: usize>(
    name: &str,
    a: &PyReadonlyArray2<'_, f64>,
    n: usize,
    t0: f64,
) -> PyResult<Vec<[f64; C]>> {
    let shape = a.shape();
    if shape != [n, C] {
        return Err(invalid(
            name,
            None,
            None,
            format!(
                "invalid parameter `{name}`: expected shape ({n}, {C}) (one row per body, as \
                 positions), got {shape:?}"
            ),
        ));
    }
    let rows: Vec<[f64; C]> = (a.as_array().rows().into_iter())
        .map(|r| std::array::from_fn(|k| r[k]))
        .collect();
    if let Some(body) = rows.iter().position(|r| !r.iter().all(|x| x.is_finite())) {
        return Err(non_finite(
            name,
            Some(t0),
            body,
            format!("non-finite `{name}` of body {body} at t = {t0:e}"),
        ));
    }
    Ok(rows)
}

/// Two arrays (the load buffers, forces and torques).
type Pair<'py> = (Bound<'py, PyArray2<f64>>, Bound<'py, PyArray2<f64>>);

/// N rigid bodies and one many-body method of the catalogue (see the module documentation).
#[pyclass(module = "lieode._lieode", name = "_RigidBodies")]
pub struct RigidBodies {
    method: String,
    traits: Traits,
    runner: Box<dyn Runner>,
    frame: Frame,
    /// The initial synchronised state.
    y0: SystemState,
    /// The run's step (set by the first `start` or `run`).
    dt: Option<f64>,
    started: bool,
    /// The loads of the start's evaluations given so far (a start with arrays).
    start_loads: Vec<Loads>,
    /// A copy of the next evaluation's point, where it is not the carried arrays.
    point: Point,
    /// Whether `point` holds the next evaluation's point.
    point_valid: bool,
    /// Scalar-first rotors (rotors shown scalar first are a copy in this order).
    rotors_buffer: Vec<f64>,
    scalar_first: bool,
    /// Why the run cannot go on (a step failed part-way).
    failed: Option<String>,
}

/// The bodies `mass[i]`, `inertia[i]` (principal moments) and their synchronised state
/// `(t0, positions, velocities, rotors, omegas)` (rotors scalar first unless `scalar_first` is
/// false), checked: the shapes (one row per body, as `positions`), finite entries, each mass and
/// inertia a body; the errors name the parameter and the body.
#[allow(clippy::too_many_arguments)]
pub(super) fn initial(
    py: Python<'_>,
    mass: &PyReadonlyArray1<'_, f64>,
    inertia: &PyReadonlyArray2<'_, f64>,
    positions: &PyReadonlyArray2<'_, f64>,
    velocities: &PyReadonlyArray2<'_, f64>,
    rotors: &PyReadonlyArray2<'_, f64>,
    omegas: &PyReadonlyArray2<'_, f64>,
    t0: f64,
    scalar_first: bool,
) -> PyResult<(Vec<Body>, SystemState)> {
    if !t0.is_finite() {
        return Err(with_context(
            crate::errors::NonFiniteError::new_err(format!("non-finite parameter `t0` = {t0}")),
            "t0",
            None,
            None,
        ));
    }
    let n = positions.shape()[0];
    let x = rows::<3>("positions", positions, n, t0)?;
    let v = rows::<3>("velocities", velocities, n, t0)?;
    let q = rows::<4>("rotors", rotors, n, t0)?;
    let w = rows::<3>("omegas", omegas, n, t0)?;
    let moments = rows::<3>("inertia", inertia, n, t0)?;
    let masses = mass.as_array();
    if masses.shape() != [n] {
        return Err(invalid(
            "mass",
            None,
            None,
            format!(
                "invalid parameter `mass`: expected shape ({n},), got {:?}",
                masses.shape()
            ),
        ));
    }
    let bodies = (masses.iter().zip(&moments).enumerate())
        .map(|(i, (&m, &j))| {
            Body::new(m, j).map_err(|e| {
                let parameter = match &e {
                    lieode::Error::InvalidParameter { name, .. }
                    | lieode::Error::NonFinite { name }
                        if *name == "mass" =>
                    {
                        "mass"
                    }
                    _ => "inertia",
                };
                invalid(parameter, None, Some(i), format!("body {i}: {e}"))
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let vector = |&[a, b, c]: &[f64; 3]| Vector3::new(a, b, c);
    let rotor = |&[a, b, c, d]: &[f64; 4]| {
        if scalar_first {
            Quaternion::new(a, b, c, d)
        } else {
            Quaternion::new(d, a, b, c)
        }
    };
    let y0 = SystemState::new(
        t0,
        x.iter().map(vector).collect(),
        v.iter().map(vector).collect(),
        q.iter().map(rotor).collect(),
        w.iter().map(vector).collect(),
    )
    .map_err(|e| to_py(py, e))?;
    Ok((bodies, y0))
}

#[pymethods]
impl RigidBodies {
    /// The bodies `mass[i]`, `inertia[i]` (principal moments) at the synchronised state
    /// `(t0, positions, velocities, rotors, omegas)` (rotors scalar first unless
    /// `scalar_first` is false), stepped by the many-body method `method`, with torques in
    /// `torque_frame` (`"body"` or `"lab"`).
    #[new]
    #[pyo3(signature = (method, mass, inertia, positions, velocities, rotors, omegas, t0, torque_frame, scalar_first))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        method: &str,
        mass: PyReadonlyArray1<'_, f64>,
        inertia: PyReadonlyArray2<'_, f64>,
        positions: PyReadonlyArray2<'_, f64>,
        velocities: PyReadonlyArray2<'_, f64>,
        rotors: PyReadonlyArray2<'_, f64>,
        omegas: PyReadonlyArray2<'_, f64>,
        t0: f64,
        torque_frame: &str,
        scalar_first: bool,
    ) -> PyResult<Self> {
        let frame = match torque_frame {
            "body" => Frame::Body,
            "lab" => Frame::Lab,
            other => {
                return Err(invalid(
                    "torque_frame",
                    None,
                    None,
                    format!(
                        "invalid parameter `torque_frame` = {other:?}: expected \"body\" or \"lab\""
                    ),
                ));
            }
        };
        let (bodies, y0) = initial(
            py,
            &mass,
            &inertia,
            &positions,
            &velocities,
            &rotors,
            &omegas,
            t0,
            scalar_first,
        )?;
        let n = y0.len();
        let runner = build(method, bodies).map_err(|e| to_py(py, e))?;
        Ok(Self {
            method: method.to_owned(),
            traits: runner.traits(),
            runner,
            frame,
            y0,
            dt: None,
            started: false,
            start_loads: Vec::new(),
            point: Point::new(n),
            point_valid: false,
            rotors_buffer: Vec::new(),
            scalar_first,
            failed: None,
        })
    }

    /// The method's name.
    #[getter]
    fn method(&self) -> &str {
        &self.method
    }

    /// The number of bodies.
    fn __len__(&self) -> usize {
        self.y0.len()
    }

    /// The time of the carried state (`t0` before the start).
    #[getter]
    fn t(&self) -> f64 {
        self.runner.arrays().map_or(self.y0.t, |v| v.t)
    }

    /// The run's step (`None` before the start).
    #[getter]
    fn dt(&self) -> Option<f64> {
        self.dt
    }

    /// Whether the run has started.
    #[getter]
    fn started(&self) -> bool {
        self.started
    }

    /// Load evaluations and steps so far.
    #[getter]
    fn counts(&self) -> (usize, usize) {
        let stats = self.runner.stats();
        (stats.rhs_evaluations, stats.steps)
    }

    /// The load evaluations the start takes.
    #[getter]
    fn start_evaluations(&self) -> usize {
        self.traits.start_evaluations
    }

    /// The carried arrays `(t, positions, velocities, rotors, omegas)` as read-only views, the
    /// rotors in storage order `(x, y, z, w)`. The arrays exist from the start on: before it,
    /// a view would be of the initial state, which the start copies (a view held across the
    /// start would go stale), so this refuses.
    fn arrays<'py>(slf: &Bound<'py, Self>) -> PyResult<Arrays<'py>> {
        let owner = slf.as_any();
        let mut this = busy(slf)?;
        let this = &mut *this;
        let view = this.runner.arrays().ok_or_else(no_views)?;
        Ok(show(owner, &view))
    }

    /// The load buffers `(forces, torques)`: writable views where the method's step reads them
    /// only at its evaluation, read-only views for the velocity Verlet form (whose next step
    /// kicks with the forces held there first). They exist from the start on.
    fn load_buffers<'py>(slf: &Bound<'py, Self>) -> PyResult<Pair<'py>> {
        let owner = slf.as_any();
        let mut this = busy(slf)?;
        let read_only = this.traits.torque_at_end;
        let (forces, torques) = this.runner.load_buffers().ok_or_else(no_views)?;
        Ok(if read_only {
            (
                arrays::vectors(owner, forces),
                arrays::vectors(owner, torques),
            )
        } else {
            (
                arrays::vectors_mut(owner, forces),
                arrays::vectors_mut(owner, torques),
            )
        })
    }

    /// The point `(t, positions, velocities, rotors, omegas)` where the next load evaluation
    /// is taken — the start's (as many as the method's start evaluations) before the run has
    /// started, the next step's after — as read-only views, the rotors in storage order
    /// `(x, y, z, w)`.
    fn load_point<'py>(slf: &Bound<'py, Self>) -> PyResult<Arrays<'py>> {
        let py = slf.py();
        let owner = slf.as_any();
        let mut this = busy(slf)?;
        let this = &mut *this;
        this.usable()?;
        if this.started && this.traits.point_is_arrays() {
            let view = this.runner.arrays().ok_or_else(not_started)?;
            return Ok(show(owner, &view));
        }
        if !this.point_valid {
            let mut ghost = this.runner.ghost();
            let result = if this.started {
                let mut source = Source::new(this.frame, Kind::Capture(&mut this.point));
                py.detach(|| ghost.step(&mut source))
            } else {
                // The start's first point does not depend on the step (any step the clock
                // resolves at t0 will do); a later one (after loads given to `start`) is at the
                // step given there.
                let dt = this.dt.unwrap_or(this.y0.t.abs().max(1.0));
                let span = Span::open(this.y0.t, dt).map_err(|e| to_py(py, e))?;
                let mut source = Source::new(
                    this.frame,
                    Kind::Sequence {
                        given: &this.start_loads,
                        next: 0,
                        capture: Some(&mut this.point),
                    },
                );
                let y0 = &this.y0;
                py.detach(|| ghost.start(&mut source, &span, y0))
            };
            result.map_err(|e| to_py(py, e))?;
            this.point_valid = true;
        }
        let view = this.point.view();
        Ok(show(owner, &view))
    }

    /// Takes the loads `(forces, torques)` at the start's next point (`load_point`) with the
    /// run's step `dt`; returns whether the run has started (false while the method needs
    /// another start evaluation).
    fn start(
        slf: &Bound<'_, Self>,
        dt: f64,
        forces: &Bound<'_, PyAny>,
        torques: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let py = slf.py();
        let mut this = busy(slf)?;
        let this = &mut *this;
        this.usable()?;
        if this.started {
            return Err(invalid(
                "start",
                Some(this.t()),
                None,
                "the run has started: step it, or restart it from a state (set_state)".into(),
            ));
        }
        check_dt(dt)?;
        if let Some(pending) = this.dt.filter(|&d| d != dt) {
            return Err(wrong_dt(dt, pending, this.y0.t));
        }
        let n = this.y0.len();
        let t = Some(this.y0.t);
        let forces = load_array(forces, "forces", n, t)?;
        let torques = load_array(torques, "torques", n, t)?;
        let mut loads = Loads::zeros(n);
        LoadArray::from_readonly(&forces).copy_into(&mut loads.forces);
        LoadArray::from_readonly(&torques).copy_into(&mut loads.torques);
        this.start_loads.push(loads);
        this.dt = Some(dt);
        this.point_valid = false;
        if this.start_loads.len() < this.traits.start_evaluations {
            return Ok(false);
        }
        let span = Span::open(this.y0.t, dt).map_err(|e| to_py(py, e))?;
        let given = std::mem::take(&mut this.start_loads);
        let mut source = Source::new(
            this.frame,
            Kind::Sequence {
                given: &given,
                next: 0,
                capture: None,
            },
        );
        let (runner, y0) = (&mut this.runner, &this.y0);
        let result = py.detach(|| runner.start(&mut source, &span, y0));
        if let Err(error) = result {
            // The start begins again from its first evaluation.
            this.dt = None;
            return Err(to_py(py, error));
        }
        this.started = true;
        Ok(true)
    }

    /// One step of `dt` (the run's) with the loads `(forces, torques)` at `load_point`; the
    /// load buffers themselves are used in place.
    fn step(
        slf: &Bound<'_, Self>,
        dt: f64,
        forces: &Bound<'_, PyAny>,
        torques: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let py = slf.py();
        let mut this = busy(slf)?;
        let this = &mut *this;
        this.usable()?;
        this.check_run_dt(dt)?;
        let (n, t) = (this.y0.len(), this.t());
        let forces = load_array(forces, "forces", n, Some(t))?;
        let torques = load_array(torques, "torques", n, Some(t))?;
        let (forces, torques) = (
            LoadArray::from_readonly(&forces),
            LoadArray::from_readonly(&torques),
        );
        let (in_place_f, in_place_t) = match this.runner.load_buffers() {
            Some((f, t)) => (f.as_ptr(), t.as_ptr()),
            None => return Err(not_started()),
        };
        // The buffers given crosswise (forces as torques) would be overwritten before they are
        // read: copied first.
        let crosswise: Option<[Vec<Vector3<f64>>; 2]> =
            (forces.is_at(in_place_t) || torques.is_at(in_place_f)).then(|| {
                let mut copies = [vec![Vector3::zeros(); n], vec![Vector3::zeros(); n]];
                forces.copy_into(&mut copies[0]);
                torques.copy_into(&mut copies[1]);
                copies
            });
        let kind = match &crosswise {
            Some([f, t]) => Kind::Arrays(LoadArray::Contiguous(f), LoadArray::Contiguous(t)),
            None if forces.is_at(in_place_f) && torques.is_at(in_place_t) => Kind::InPlace,
            None => Kind::Arrays(forces, torques),
        };
        let mut source = Source::new(this.frame, kind);
        let runner = &mut this.runner;
        let result = py.detach(|| runner.step(&mut source));
        this.point_valid = false;
        result.map_err(|e| this.fail(py, e))
    }

    /// `n_steps` steps of `dt` with the loads of `loads`: a function
    /// `loads(t, positions, velocities, rotors, omegas) -> (forces, torques)`, a pair of
    /// constant arrays, or `None` (no loads). Starts the run first if it has not started.
    #[pyo3(signature = (dt, n_steps, loads=None))]
    fn run(
        slf: &Bound<'_, Self>,
        dt: f64,
        n_steps: usize,
        loads: Option<Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let py = slf.py();
        let owner: Py<PyAny> = slf.as_any().clone().unbind();
        let mut this = busy(slf)?;
        let this = &mut *this;
        this.usable()?;
        check_dt(dt)?;
        let n = this.y0.len();
        let given = Given::of(loads, n, this.t())?;
        if this.started {
            this.check_run_dt(dt)?;
        } else {
            if !this.start_loads.is_empty() {
                return Err(invalid(
                    "loads",
                    Some(this.y0.t),
                    None,
                    "a start with arrays is under way: finish it with start()".into(),
                ));
            }
            this.start_with(py, &owner, dt, &given)?;
        }
        this.point_valid = false;
        if n_steps == 0 {
            return Ok(());
        }
        let every = signal_interval(&given, n);
        let outcome = match &given {
            Given::Function(function) => {
                let (runner, _, mut source) = this.with_function(function, &owner, false);
                let result = py.detach(|| {
                    for k in 0..n_steps {
                        runner.step(&mut source).map_err(Stop::Library)?;
                        if let Some(interrupt) = source.take_interrupt() {
                            return Err(Stop::Signal(interrupt));
                        }
                        if (k + 1) % every == 0 {
                            Python::attach(|py| py.check_signals()).map_err(Stop::Signal)?;
                        }
                    }
                    Ok(())
                });
                match (source.into_failure(), result) {
                    (Some(error), _) => Err(Stop::Python(error)),
                    (None, r) => r,
                }
            }
            constant => {
                let (f, t) = constant.arrays();
                let (runner, frame) = (&mut this.runner, this.frame);
                py.detach(|| {
                    for k in 0..n_steps {
                        // The first step copies the loads in at its evaluation; the buffers
                        // then hold them for the others.
                        let kind = if k == 0 {
                            Kind::Arrays(f.clone(), t.clone())
                        } else {
                            Kind::InPlace
                        };
                        runner
                            .step(&mut Source::new(frame, kind))
                            .map_err(Stop::Library)?;
                        if (k + 1) % every == 0 {
                            Python::attach(|py| py.check_signals()).map_err(Stop::Signal)?;
                        }
                    }
                    Ok(())
                })
            }
        };
        match outcome {
            Ok(()) => Ok(()),
            Err(Stop::Signal(error)) => Err(error),
            Err(Stop::Python(error)) => {
                this.failed = Some(format!(
                    "the load function raised during the step from t = {:e}",
                    this.t()
                ));
                Err(error)
            }
            Err(Stop::Library(error)) => Err(this.fail(py, error)),
        }
    }

    /// The synchronised state `(t, positions, velocities, rotors, omegas)` as new arrays. The
    /// leapfrog form evaluates the loads once at `load_point` (counted): `loads` is a pair of
    /// arrays (the loads there) or a function; the velocity Verlet form needs none.
    #[pyo3(signature = (loads=None))]
    fn state<'py>(
        slf: &Bound<'py, Self>,
        loads: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Arrays<'py>> {
        let py = slf.py();
        let owner: Py<PyAny> = slf.as_any().clone().unbind();
        let mut this = busy(slf)?;
        let this = &mut *this;
        this.usable()?;
        if !this.started {
            let view = view_of_state(&this.y0);
            return Ok(copies(py, &view, this.scalar_first));
        }
        let (n, t) = (this.y0.len(), this.t());
        let needs_loads = !this.traits.torque_at_end;
        if needs_loads && loads.is_none() {
            return Err(invalid(
                "loads",
                Some(t),
                None,
                format!(
                    "the synchronised state of {} (leapfrog form) needs the loads at \
                     load_point(): pass them as (forces, torques) or a function",
                    this.method
                ),
            ));
        }
        let given = Given::of(loads, n, t)?;
        let result = match &given {
            Given::Function(function) => {
                let (runner, _, mut source) = this.with_function(function, &owner, false);
                let state = py.detach(|| runner.state(&mut source));
                let interrupt = source.take_interrupt();
                if let Some(error) = source.into_failure().or(interrupt) {
                    return Err(error);
                }
                state
            }
            constant => {
                let (f, t) = constant.arrays();
                let mut source = Source::new(this.frame, Kind::Arrays(f, t));
                let runner = &mut this.runner;
                py.detach(|| runner.state(&mut source))
            }
        };
        let state = result.map_err(|e| to_py(py, e))?;
        Ok(copies(py, &view_of_state(&state), this.scalar_first))
    }

    /// `n_steps` steps in Rust with the loads in the buffers as they are (`"in_place"`: the
    /// array path without Python between the steps), or with constant loads `force`, `torque`
    /// on every body through the core's per-body model (`"fused"`: one pass per step); returns
    /// the seconds they took. For the benchmark.
    #[pyo3(signature = (n_steps, mode, force=[0.0; 3], torque=[0.0; 3]))]
    fn _rust_steps(
        slf: &Bound<'_, Self>,
        n_steps: usize,
        mode: &str,
        force: [f64; 3],
        torque: [f64; 3],
    ) -> PyResult<f64> {
        let py = slf.py();
        let mut this = busy(slf)?;
        let this = &mut *this;
        this.usable()?;
        if !this.started {
            return Err(not_started());
        }
        let frame = this.frame;
        let runner = &mut this.runner;
        let (force, torque) = (Vector3::from(force), Vector3::from(torque));
        let result = match mode {
            "in_place" => py.detach(|| {
                let clock = Instant::now();
                for _ in 0..n_steps {
                    runner.step(&mut Source::new(frame, Kind::InPlace))?;
                }
                Ok(clock.elapsed().as_secs_f64())
            }),
            "fused" => py.detach(|| {
                let clock = Instant::now();
                runner.fused_steps(n_steps, force, torque, frame)?;
                Ok(clock.elapsed().as_secs_f64())
            }),
            other => {
                return Err(invalid(
                    "mode",
                    None,
                    None,
                    format!(
                        "invalid parameter `mode` = {other:?}: expected \"in_place\" or \"fused\""
                    ),
                ));
            }
        };
        this.point_valid = false;
        result.map_err(|e| this.fail(py, e))
    }
}

impl RigidBodies {
    /// Refuses to go on after a failed step.
    fn usable(&self) -> PyResult<()> {
        match &self.failed {
            None => Ok(()),
            Some(reason) => Err(with_context(
                IntegrationError::new_err(format!(
                    "{reason}; the bodies are part-way through that step: restart from a state \
                     (set_state)"
                )),
                "state",
                Some(self.t()),
                None,
            )),
        }
    }

    /// Marks the run as failed and returns the error.
    fn fail(&mut self, py: Python<'_>, error: lieode::Error) -> PyErr {
        self.failed = Some(format!("a step failed ({error})"));
        to_py(py, error)
    }

    /// Checks that `dt` is the run's step.
    fn check_run_dt(&self, dt: f64) -> PyResult<()> {
        check_dt(dt)?;
        match self.dt {
            _ if !self.started => Err(not_started()),
            Some(run) if run != dt => Err(wrong_dt(dt, run, self.t())),
            _ => Ok(()),
        }
    }

    /// The runner, the initial state and a source of loads from the Python `function`, which
    /// sees the point through the run's buffers (`copy_point`: a copy of it, for the start):
    /// borrowed apart, so that the source holds the buffers while the runner steps.
    fn with_function<'a>(
        &'a mut self,
        function: &'a Py<PyAny>,
        owner: &'a Py<PyAny>,
        copy_point: bool,
    ) -> (&'a mut Box<dyn Runner>, &'a SystemState, Source<'a>) {
        let Self {
            runner,
            frame,
            y0,
            point,
            rotors_buffer,
            scalar_first,
            ..
        } = self;
        let loads = PythonLoads {
            function,
            owner,
            copy_point,
            point,
            scalar_first: scalar_first.then_some(rotors_buffer),
            failure: None,
            interrupted: None,
        };
        (runner, y0, Source::new(*frame, Kind::Python(loads)))
    }

    /// Starts the run with `dt` and the loads `given` (every start evaluation).
    fn start_with(
        &mut self,
        py: Python<'_>,
        owner: &Py<PyAny>,
        dt: f64,
        given: &Given<'_>,
    ) -> PyResult<()> {
        let span = Span::open(self.y0.t, dt).map_err(|e| to_py(py, e))?;
        let result = match given {
            Given::Function(function) => {
                // The core frees the start's points at its end: the function sees a copy.
                let (runner, y0, mut source) = self.with_function(function, owner, true);
                let started = py.detach(|| runner.start(&mut source, &span, y0));
                let interrupt = source.take_interrupt();
                if let Some(error) = source.into_failure() {
                    return Err(error);
                }
                if let Some(interrupt) = interrupt {
                    // The start is whole: the run has started, then stops.
                    started.map_err(|e| to_py(py, e))?;
                    self.dt = Some(dt);
                    self.started = true;
                    return Err(interrupt);
                }
                started
            }
            constant => {
                let (f, t) = constant.arrays();
                let mut source = Source::new(self.frame, Kind::Arrays(f, t));
                let (runner, y0) = (&mut self.runner, &self.y0);
                py.detach(|| runner.start(&mut source, &span, y0))
            }
        };
        result.map_err(|e| to_py(py, e))?;
        self.dt = Some(dt);
        self.started = true;
        Ok(())
    }
}

/// The loads given to `run` or `state`.
enum Given<'py> {
    /// A Python function.
    Function(Py<PyAny>),
    /// Constant arrays (checked).
    Constant(PyReadonlyArray2<'py, f64>, PyReadonlyArray2<'py, f64>),
    /// No loads.
    Zero(Vec<Vector3<f64>>),
}

impl<'py> Given<'py> {
    /// `loads` (a function, a pair of `(n, 3)` float64 arrays, or `None`) at the time `t`.
    fn of(loads: Option<Bound<'py, PyAny>>, n: usize, t: f64) -> PyResult<Self> {
        let Some(loads) = loads else {
            return Ok(Self::Zero(vec![Vector3::zeros(); n]));
        };
        if loads.is_callable() {
            return Ok(Self::Function(loads.unbind()));
        }
        let (forces, torques) = load_pair(&loads, n, t, || {
            "invalid parameter `loads`: expected a function \
             loads(t, positions, velocities, rotors, omegas) -> (forces, torques), a pair \
             (forces, torques) of arrays, or None"
                .into()
        })?;
        Ok(Self::Constant(forces, torques))
    }

    /// The constant loads as arrays (zero for `Zero`; not for a function).
    fn arrays(&self) -> (LoadArray<'_>, LoadArray<'_>) {
        match self {
            Self::Constant(f, t) => (LoadArray::from_readonly(f), LoadArray::from_readonly(t)),
            Self::Zero(zeros) => (LoadArray::Contiguous(zeros), LoadArray::Contiguous(zeros)),
            Self::Function(_) => (LoadArray::Contiguous(&[]), LoadArray::Contiguous(&[])),
        }
    }
}

/// Why a run stopped.
enum Stop {
    Library(lieode::Error),
    Python(PyErr),
    Signal(PyErr),
}

/// Steps between two checks for signals: every step when Python is called anyway, else about
/// every 65 536 body-steps (a check takes the GIL, about a microsecond).
fn signal_interval(given: &Given<'_>, n: usize) -> usize {
    match given {
        Given::Function(_) => 1,
        _ => (65_536 / n.max(1)).max(1),
    }
}

/// The synchronised state as a view.
fn view_of_state(state: &SystemState) -> SystemView<'_> {
    SystemView {
        t: state.t,
        positions: &state.positions,
        velocities: &state.velocities,
        rotors: &state.rotors,
        omegas: &state.omegas,
    }
}

/// `view` as read-only views owned by `owner`, the rotors in storage order `(x, y, z, w)`.
fn show<'py>(owner: &Bound<'py, PyAny>, view: &SystemView<'_>) -> Arrays<'py> {
    (
        view.t,
        arrays::vectors(owner, view.positions),
        arrays::vectors(owner, view.velocities),
        arrays::quaternions(owner, view.rotors),
        arrays::vectors(owner, view.omegas),
    )
}

/// `view` as new arrays.
fn copies<'py>(py: Python<'py>, view: &SystemView<'_>, scalar_first: bool) -> Arrays<'py> {
    let table = |rows: Vec<f64>, columns: usize| {
        let n = rows.len() / columns;
        PyArray1::from_vec(py, rows)
            .reshape([n, columns])
            .unwrap_or_else(|_| PyArray2::zeros(py, [0, columns], false))
    };
    let vectors = |v: &[Vector3<f64>]| table(v.iter().flat_map(|x| [x.x, x.y, x.z]).collect(), 3);
    let rotors: Vec<f64> = if scalar_first {
        view.rotors
            .iter()
            .flat_map(|q| [q.w, q.i, q.j, q.k])
            .collect()
    } else {
        view.rotors
            .iter()
            .flat_map(|q| [q.i, q.j, q.k, q.w])
            .collect()
    };
    (
        view.t,
        vectors(view.positions),
        vectors(view.velocities),
        table(rotors, 4),
        vectors(view.omegas),
    )
}

/// Checks a step size.
fn check_dt(dt: f64) -> PyResult<()> {
    if dt.is_finite() && dt > 0.0 {
        Ok(())
    } else {
        Err(invalid(
            "dt",
            None,
            None,
            format!("invalid parameter `dt` = {dt}: expected a finite positive step"),
        ))
    }
}

/// The error for a step other than the run's.
fn wrong_dt(dt: f64, run: f64, t: f64) -> PyErr {
    invalid(
        "dt",
        Some(t),
        None,
        format!(
            "invalid parameter `dt` = {dt:e}: the run steps with dt = {run:e} (a leapfrog \
             method carries half-step velocities of that step); to change it, restart from the \
             synchronised state: bodies.set_state(*bodies.state(loads))"
        ),
    )
}

/// The bodies for a method that may change them, or an error if they are in use (a load
/// function cannot use the bodies it is called for: it gets the point as its arguments; and
/// another thread cannot use them while they are stepped).
fn busy<'py>(slf: &Bound<'py, RigidBodies>) -> PyResult<PyRefMut<'py, RigidBodies>> {
    slf.try_borrow_mut().map_err(|_| {
        with_context(
            IntegrationError::new_err(
                "the bodies are being stepped: a load function gets the point as its \
                 arguments and cannot use the bodies it is called for (nor can another thread \
                 while they are stepped)",
            ),
            "loads",
            None,
            None,
        )
    })
}

/// The error for a view of the run's arrays before the start.
fn no_views() -> PyErr {
    with_context(
        IntegrationError::new_err(
            "the run has not started: the views of its arrays exist from its start (start() \
             or run()) on; before it, state() gives the initial state and load_point() the \
             start's point",
        ),
        "start",
        None,
        None,
    )
}

/// The error for stepping before the start.
fn not_started() -> PyErr {
    with_context(
        IntegrationError::new_err(
            "the run has not started: call start(dt, forces, torques) with the loads at \
             load_point(), or run(dt, n_steps, loads)",
        ),
        "start",
        None,
        None,
    )
}
