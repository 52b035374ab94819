//! Where the loads of an evaluation come from: [`Source`], the one force model
//! (`lieode::system::SystemForces`) the binding steps the core with.
//!
//! The core hands the model the point of each evaluation and the buffers to write; the source
//! copies the user's arrays into them, leaves them as the user filled them in place, calls a
//! Python function, or records the point (on a copy of the method, to show a user where the
//! next evaluation is before it happens).

use lieode::body::Frame;
use lieode::system::{Loads, SystemForces, SystemView};
use nalgebra::{Quaternion, Vector3};
use numpy::PyUntypedArrayMethods;
use pyo3::prelude::*;

use super::arrays::{self, LoadArray};

/// A copy of the point of an evaluation, owned by the bodies' object: shown to Python as views
/// (its arrays are allocated once, with one entry per body, and written in place).
#[derive(Debug, Clone)]
pub struct Point {
    /// The time of the evaluation.
    pub t: f64,
    /// Positions.
    pub positions: Vec<Vector3<f64>>,
    /// Velocities.
    pub velocities: Vec<Vector3<f64>>,
    /// Rotors (nalgebra's storage order: vector part, then scalar).
    pub rotors: Vec<Quaternion<f64>>,
    /// Body angular velocities.
    pub omegas: Vec<Vector3<f64>>,
}

impl Point {
    /// A point of `n` bodies (at rest, at `t = NaN` until written).
    pub fn new(n: usize) -> Self {
        Self {
            t: f64::NAN,
            positions: vec![Vector3::zeros(); n],
            velocities: vec![Vector3::zeros(); n],
            rotors: vec![Quaternion::identity(); n],
            omegas: vec![Vector3::zeros(); n],
        }
    }

    /// Copies `view` in (same number of bodies: no allocation).
    pub fn record(&mut self, view: &SystemView<'_>) {
        self.t = view.t;
        self.positions.copy_from_slice(view.positions);
        self.velocities.copy_from_slice(view.velocities);
        self.rotors.copy_from_slice(view.rotors);
        self.omegas.copy_from_slice(view.omegas);
    }

    /// The point as a view.
    pub fn view(&self) -> SystemView<'_> {
        SystemView {
            t: self.t,
            positions: &self.positions,
            velocities: &self.velocities,
            rotors: &self.rotors,
            omegas: &self.omegas,
        }
    }
}

/// The loads of the evaluations of one call into the core, in the frame `frame` (torques; the
/// forces are in the lab frame).
pub struct Source<'a> {
    /// The frame of the torques.
    pub frame: Frame,
    /// Where they come from.
    pub kind: Kind<'a>,
}

/// Where the loads come from.
pub enum Kind<'a> {
    /// The buffers hold them already (filled in place by the user, or by an earlier copy of
    /// constant loads): nothing is written.
    InPlace,
    /// Copied from these arrays at every evaluation.
    Arrays(LoadArray<'a>, LoadArray<'a>),
    /// The start's evaluations in order from `given`; an evaluation beyond them is recorded
    /// into `capture` (with zero loads: the run is a copy, to be thrown away).
    Sequence {
        /// The loads given so far.
        given: &'a [Loads],
        /// The next evaluation's index.
        next: usize,
        /// Where to record the first evaluation beyond `given`.
        capture: Option<&'a mut Point>,
    },
    /// Records the point (zero loads: the run is a copy, to be thrown away).
    Capture(&'a mut Point),
    /// A Python function `loads(t, positions, velocities, rotors, omegas) -> (forces, torques)`.
    Python(PythonLoads<'a>),
}

impl<'a> Source<'a> {
    /// Loads from `kind` with torques in `frame`.
    pub fn new(frame: Frame, kind: Kind<'a>) -> Self {
        Self { frame, kind }
    }

    /// The first exception of a Python load function (or of the checks of what it
    /// returned), if any.
    pub fn into_failure(self) -> Option<PyErr> {
        match self.kind {
            Kind::Python(python) => python.failure,
            _ => None,
        }
    }

    /// The `KeyboardInterrupt` (Ctrl-C) a Python load function raised during an evaluation
    /// whose loads a second call then gave: the step is whole, and the interrupt is due at
    /// its end.
    pub fn take_interrupt(&mut self) -> Option<PyErr> {
        match &mut self.kind {
            Kind::Python(python) => python.interrupted.take(),
            _ => None,
        }
    }
}

impl SystemForces for Source<'_> {
    fn torque_frame(&self) -> Frame {
        self.frame
    }

    /// Every kind writes every load, or leaves the buffers as they were filled on purpose.
    fn assigns_every_load(&self) -> bool {
        true
    }

    fn loads(&mut self, view: &SystemView<'_>, loads: &mut Loads) {
        match &mut self.kind {
            Kind::InPlace => {}
            Kind::Arrays(forces, torques) => {
                forces.copy_into(&mut loads.forces);
                torques.copy_into(&mut loads.torques);
            }
            Kind::Sequence {
                given,
                next,
                capture,
            } => {
                match given.get(*next) {
                    Some(l) => {
                        loads.forces.copy_from_slice(&l.forces);
                        loads.torques.copy_from_slice(&l.torques);
                    }
                    None => {
                        if let Some(point) = capture.take() {
                            point.record(view);
                        }
                        zero(loads);
                    }
                }
                *next += 1;
            }
            Kind::Capture(point) => {
                point.record(view);
                zero(loads);
            }
            Kind::Python(python) => python.evaluate(view, loads),
        }
    }
}

/// Zero loads.
fn zero(loads: &mut Loads) {
    loads.forces.fill(Vector3::zeros());
    loads.torques.fill(Vector3::zeros());
}

/// A Python load function and what calling it needs: the object the arrays handed to it are
/// views of (the bodies' object, which owns their memory), a buffer for the point where the
/// core's view is not to be shown in place (the start's evaluations, whose arrays the core
/// frees at the end of the start), and a buffer for scalar-first rotors.
pub struct PythonLoads<'a> {
    /// The function.
    pub function: &'a Py<PyAny>,
    /// The owner of the memory of the arrays handed to it.
    pub owner: &'a Py<PyAny>,
    /// Copy the point into `point` before showing it (the start).
    pub copy_point: bool,
    /// The copy of the point.
    pub point: &'a mut Point,
    /// Scalar-first rotors (`None`: the rotors are shown in nalgebra's order, scalar last).
    pub scalar_first: Option<&'a mut Vec<f64>>,
    /// The first exception of the function, or of the checks of what it returned (the core
    /// then sees NaN loads and stops; the caller raises this instead of the core's error).
    pub failure: Option<PyErr>,
    /// A `KeyboardInterrupt` the function raised, to be raised at the step's end.
    pub interrupted: Option<PyErr>,
}

impl PythonLoads<'_> {
    fn evaluate(&mut self, view: &SystemView<'_>, loads: &mut Loads) {
        if self.failure.is_none() {
            let result = Python::attach(|py| {
                self.call(py, view, loads).or_else(|error| {
                    // Ctrl-C lands in the function more often than between the steps, where the
                    // run looks for it: the step would be lost. The function is called once more
                    // for the loads of this evaluation, and the interrupt raised at the step's
                    // end (a second Ctrl-C during that call stops the step).
                    let first_interrupt = self.interrupted.is_none()
                        && error.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py);
                    if !first_interrupt {
                        return Err(error);
                    }
                    self.interrupted = Some(error);
                    self.call(py, view, loads)
                })
            });
            if let Err(error) = result {
                self.failure = Some(error);
            }
        }
        if self.failure.is_some() {
            loads.forces.fill(Vector3::repeat(f64::NAN));
            loads.torques.fill(Vector3::repeat(f64::NAN));
        }
    }

    fn call(&mut self, py: Python<'_>, view: &SystemView<'_>, loads: &mut Loads) -> PyResult<()> {
        let owner = self.owner.bind(py);
        let view = if self.copy_point {
            self.point.record(view);
            self.point.view()
        } else {
            *view
        };
        let rotors = match &mut self.scalar_first {
            Some(buffer) => {
                arrays::scalar_first_into(view.rotors, buffer);
                arrays::view_of(owner, buffer.as_slice(), 4)
            }
            None => arrays::quaternions(owner, view.rotors),
        };
        let args = (
            view.t,
            arrays::vectors(owner, view.positions),
            arrays::vectors(owner, view.velocities),
            rotors,
            arrays::vectors(owner, view.omegas),
        );
        let returned = self.function.bind(py).call1(args)?;
        let n = view.positions.len();
        let t = view.t;
        let (forces, torques) = arrays::load_pair(&returned, n, t, || {
            format!(
                "`loads` must return a pair (forces, torques) of ({n}, 3) float64 arrays; it \
                 returned {}",
                type_name(&returned)
            )
        })?;
        LoadArray::from_readonly(&forces).copy_into(&mut loads.forces);
        LoadArray::from_readonly(&torques).copy_into(&mut loads.torques);
        Ok(())
    }
}

/// The type name of `value`, for messages.
fn type_name(value: &Bound<'_, PyAny>) -> String {
    if let Ok(array) = value.cast::<numpy::PyUntypedArray>() {
        return format!("an array of shape {:?}", array.shape());
    }
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".into(), |n| n.to_string())
}
