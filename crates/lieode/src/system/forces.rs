//! The force model of a many-body system: forces and torques on every body at once.

use crate::body::{Frame, Torque};
use nalgebra::{Quaternion, Vector3};

use crate::error::{Error, Result};
use crate::lie::Real;

/// The state a force model sees: positions, velocities, rotors and body-frame angular
/// velocities of every body at `t`, as the method provides them (a leapfrog method's velocities
/// are half a step behind its positions; each method documents what it passes).
#[derive(Debug, Clone, Copy)]
pub struct SystemView<'a, T: Real = f64> {
    /// The time of the positions and rotors.
    pub t: f64,
    /// Positions (lab).
    pub positions: &'a [Vector3<T>],
    /// Linear velocities (lab).
    pub velocities: &'a [Vector3<T>],
    /// Rotors, body → lab.
    pub rotors: &'a [Quaternion<T>],
    /// Angular velocities (body frame).
    pub omegas: &'a [Vector3<T>],
}

/// Forces (lab frame) and torques (in the model's [`Frame`]) on every body.
#[derive(Debug, Clone, PartialEq)]
pub struct Loads<T: Real = f64> {
    /// Forces, lab frame.
    pub forces: Vec<Vector3<T>>,
    /// Torques, in the model's frame.
    pub torques: Vec<Vector3<T>>,
}

impl<T: Real> Loads<T> {
    /// Zero loads on `n` bodies.
    pub fn zeros(n: usize) -> Self {
        Self {
            forces: vec![Vector3::zeros(); n],
            torques: vec![Vector3::zeros(); n],
        }
    }

    /// Sets every force and torque to zero (before a model writes them).
    pub(crate) fn zero(&mut self) {
        self.forces.iter_mut().for_each(|f| *f = Vector3::zeros());
        self.torques.iter_mut().for_each(|f| *f = Vector3::zeros());
    }

    /// Lets `problem` write the loads for `view` (counted as one evaluation in `stats`),
    /// zeroing them first unless the model assigns every one
    /// ([`SystemForces::assigns_every_load`]), and checks their number (`n` bodies) and, if
    /// `finite`, their finiteness; returns the frame of the torques.
    ///
    /// # Errors
    /// As [`Loads::check`].
    pub(crate) fn evaluate<P: SystemForces<T> + ?Sized>(
        &mut self,
        problem: &mut P,
        view: &SystemView<'_, T>,
        n: usize,
        stats: &mut crate::stepper::Stats,
        finite: bool,
    ) -> Result<Frame> {
        if !problem.assigns_every_load() {
            self.zero();
        }
        problem.loads(view, self);
        stats.rhs_evaluations += 1;
        if finite || self.forces.len() != n || self.torques.len() != n {
            self.check(n, view.t)
                .map_err(|e| blame_the_state(e, view))?;
        }
        Ok(problem.torque_frame())
    }

    /// Checks that a model left one force and one torque per body (`n`) and that every one is
    /// finite.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `loads` if the model resized them;
    /// [`Error::NonFiniteBody`] naming `force` or `torque`, the body and the time `t`.
    pub(crate) fn check(&self, n: usize, t: f64) -> Result<()> {
        if self.forces.len() != n || self.torques.len() != n {
            return Err(Error::InvalidParameter {
                name: "loads",
                value: format!(
                    "{} forces and {} torques",
                    self.forces.len(),
                    self.torques.len()
                ),
                expected: format!("one of each per body: {n}"),
            });
        }
        self.check_finite(t)
    }

    /// Checks that every force and torque is finite.
    ///
    /// # Errors
    /// [`Error::NonFiniteBody`] naming `force` or `torque`, the body and the time `t`.
    pub(crate) fn check_finite(&self, t: f64) -> Result<()> {
        for (i, (f, tau)) in self.forces.iter().zip(&self.torques).enumerate() {
            for (what, v) in [("force", f), ("torque", tau)] {
                if !v.iter().all(|x| x.is_finite()) {
                    return Err(Error::NonFiniteBody { what, body: i, t });
                }
            }
        }
        Ok(())
    }
}

/// What a method reports when the loads it was handed are not finite: if the state it handed
/// the model was not finite itself (a method's own overflow: a stage, a predictor, a half step
/// back), the first such body's state is to blame, not the model; else the loads' error as it
/// is.
pub(crate) fn blame_the_state<T: Real>(error: Error, view: &SystemView<'_, T>) -> Error {
    let Error::NonFiniteBody { t, .. } = error else {
        return error;
    };
    match first_non_finite_body(view) {
        Some(body) => Error::NonFiniteBody {
            what: METHOD_STATE,
            body,
            t,
        },
        None => error,
    }
}

/// How a non-finite state that a method handed the force model is named.
pub(crate) const METHOD_STATE: &str = "method state (where the loads are evaluated)";

/// How a leapfrog method's non-finite half-step-back velocities at the start are named.
pub(crate) const METHOD_STATE_HALF_STEP: &str = "method state (the start's half step back)";

/// The first body whose position, velocity, rotor or angular velocity in `view` is not finite.
fn first_non_finite_body<T: Real>(view: &SystemView<'_, T>) -> Option<usize> {
    let finite = |v: &[T]| v.iter().all(|x| x.is_finite());
    (0..view.positions.len()).find(|&i| {
        let vector = |a: &[Vector3<T>]| a.get(i).is_none_or(|x| finite(x.as_slice()));
        let rotor = view
            .rotors
            .get(i)
            .is_none_or(|q| finite(q.coords.as_slice()));
        !(vector(view.positions) && vector(view.velocities) && vector(view.omegas) && rotor)
    })
}

/// A force model `F(t, state of all bodies) → (forces, torques)`, evaluated once per force
/// evaluation of a method for the whole system (contacts, fields, drag, springs between bodies).
pub trait SystemForces<T: Real = f64> {
    /// The frame of the torques it writes.
    fn torque_frame(&self) -> Frame;

    /// The number of bodies the model is built for, if it is built for a fixed number (a
    /// contact model of given particles, a spring between two bodies); `None` (the default)
    /// for a model of any number of bodies (fields, drag, per-body models). Every many-body
    /// method refuses to start a state of another size, naming `y0`, so that a model never
    /// sees bodies it does not know (or misses some).
    fn body_count(&self) -> Option<usize> {
        None
    }

    /// Whether [`SystemForces::loads`] assigns every force and torque, so that the methods
    /// need not zero the buffers before each evaluation (a memory pass saved per step).
    /// Default `false`: the buffers are zeroed, and a model may add contributions into them
    /// (pair forces of contacts and springs).
    fn assigns_every_load(&self) -> bool {
        false
    }

    /// Writes the forces and torques on every body for the state `view` into `loads` (sized to
    /// the number of bodies, and zeroed by the caller unless
    /// [`SystemForces::assigns_every_load`]; a model that resizes them is refused by the
    /// methods, naming `loads`).
    fn loads(&mut self, view: &SystemView<'_, T>, loads: &mut Loads<T>);

    /// For a model whose loads on each body depend on that body's state alone ([`PerBody`]):
    /// `visitor` run on the per-body model with its concrete type, so that a method can
    /// evaluate each body's loads inside its update pass — one pass over memory instead of
    /// two, with the same arithmetic. `None` (the default) for every other model.
    fn with_body_model<V: BodyModelVisitor>(&self, visitor: V) -> Option<V::Output>
    where
        Self: Sized,
    {
        let _ = visitor;
        None
    }
}

/// A computation on a per-body model, run with the model's concrete type so that the model is
/// inlined into the computation's loop ([`SystemForces::with_body_model`]).
pub trait BodyModelVisitor {
    /// The computation's result.
    type Output;

    /// Runs on `model`, whose torques are in `frame`.
    fn visit<F: BodyModel>(self, frame: Frame, model: &F) -> Self::Output;
}

impl<S: SystemForces> SystemForces for &mut S {
    fn torque_frame(&self) -> Frame {
        (**self).torque_frame()
    }
    fn body_count(&self) -> Option<usize> {
        (**self).body_count()
    }
    fn assigns_every_load(&self) -> bool {
        (**self).assigns_every_load()
    }
    fn loads(&mut self, view: &SystemView<'_>, loads: &mut Loads) {
        (**self).loads(view, loads)
    }
    fn with_body_model<V: BodyModelVisitor>(&self, visitor: V) -> Option<V::Output> {
        (**self).with_body_model(visitor)
    }
}

/// Independent bodies: each body's force and torque from its own state,
/// `f(body) → (force, torque)` with `body` a [`BodyView`] (gravity, drag, a body-fixed thruster). Evaluated in
/// parallel over the bodies with the `parallel` feature.
#[derive(Debug, Clone, Copy)]
pub struct PerBody<F> {
    /// The frame of the torques `f` returns.
    pub frame: Frame,
    /// The per-body model.
    pub model: F,
}

/// One body's state as a per-body model sees it (at the time level its method documents).
#[derive(Debug, Clone, Copy)]
pub struct BodyView<'a> {
    /// The body's index.
    pub index: usize,
    /// The time of the position and rotor.
    pub t: f64,
    /// The position (lab).
    pub position: &'a Vector3<f64>,
    /// The linear velocity (lab).
    pub velocity: &'a Vector3<f64>,
    /// The rotor, body → lab.
    pub rotor: &'a Quaternion<f64>,
    /// The angular velocity (body frame).
    pub omega: &'a Vector3<f64>,
}

/// A per-body model as a function pointer, `body → (force, torque)`: a nameable [`BodyModel`]
/// type (a pointer call is not inlined into a method's loop; pass the function itself where
/// speed matters).
pub type BodyFn = fn(&BodyView<'_>) -> (Vector3<f64>, Vector3<f64>);

/// The per-body model's signature: `body → (force, torque)` ([`BodyView`]: index, time,
/// position, velocity, rotor, angular velocity).
pub trait BodyModel: Fn(&BodyView<'_>) -> (Vector3<f64>, Vector3<f64>) + Sync {}

impl<F> BodyModel for F where F: Fn(&BodyView<'_>) -> (Vector3<f64>, Vector3<f64>) + Sync {}

impl<F: BodyModel> SystemForces for PerBody<F> {
    fn torque_frame(&self) -> Frame {
        self.frame
    }

    /// Every body's force and torque is the model's value.
    fn assigns_every_load(&self) -> bool {
        true
    }

    fn with_body_model<V: BodyModelVisitor>(&self, visitor: V) -> Option<V::Output> {
        Some(visitor.visit(self.frame, &self.model))
    }

    fn loads(&mut self, view: &SystemView<'_>, loads: &mut Loads) {
        let model = &self.model;
        let t = view.t;
        let one = |(i, (force, torque)): (usize, (&mut Vector3<f64>, &mut Vector3<f64>))| {
            (*force, *torque) = model(&BodyView {
                index: i,
                t,
                position: &view.positions[i],
                velocity: &view.velocities[i],
                rotor: &view.rotors[i],
                omega: &view.omegas[i],
            });
        };
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            loads
                .forces
                .par_iter_mut()
                .zip(loads.torques.par_iter_mut())
                .enumerate()
                .with_min_len(super::PARALLEL_CHUNK)
                .for_each(one);
        }
        #[cfg(not(feature = "parallel"))]
        loads
            .forces
            .iter_mut()
            .zip(loads.torques.iter_mut())
            .enumerate()
            .for_each(one);
    }
}

/// A single-body [`Torque`] applied to every body: no force, the body-frame torque
/// `τ(t, q_i, ω_i)` ([`Torque::body_torque`] at the rotor `q_i`) on each body. This is the one
/// adapter making a single-body torque — the rotational catalogue's, Krysl's fields, the
/// manufactured problem's — a [`SystemForces`].
#[derive(Debug, Clone, Copy)]
pub struct EveryBody<T>(pub T);

impl<T: Torque> SystemForces for EveryBody<T> {
    fn torque_frame(&self) -> Frame {
        Frame::Body
    }

    fn loads(&mut self, view: &SystemView<'_>, loads: &mut Loads) {
        for (i, torque) in loads.torques.iter_mut().enumerate() {
            *torque = self.0.body_torque(view.t, &view.rotors[i], &view.omegas[i]);
        }
    }
}
