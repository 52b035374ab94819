//! Every one-evaluation method of the rotational catalogue on N bodies in six degrees of
//! freedom, with the Störmer–Verlet translation.

use crate::body::Frame;
use nalgebra::{Quaternion, Vector3};

use super::body::Body;
use super::forces::{Loads, SystemForces, SystemView};
use super::plan::{Plan, checked, for_each_body, impl_system_info};
use super::state::SystemState;
use crate::body::RigidBody;
use crate::body::quaternion::rotate_inverse;
use crate::error::{Error, Result};
use crate::rotation::{ConstantBodyTorque, RotationalState, SplitStep};
use crate::stepper::{NoDenseOutput, Span, Stats, StepReport, Stepper, not_started};

/// A one-evaluation method `K` of the rotational catalogue ([`SplitStep`]: SPIRAL leapfrog and
/// non-leapfrog, SPIRAL+Omelyan, Omelyan, Fincham, Velocity Verlet, Direct Euler, Buss,
/// Johnson, MercuryDPM/PFC4) on N bodies, with the Störmer–Verlet translation and **one load
/// evaluation per step**, at the time the method takes its torque:
///
/// - **torque at `t_n`** (every method but Velocity Verlet and Johnson) — the leapfrog form, the
///   translational velocity carried at half steps:
///   ```text
///   prepare every body: its torque point (t_n, q_n, ω*)
///   loads F_n, τ_n at (t_n, x_n, v_{n−½}, q_n, ω*)                     (one evaluation)
///   finish every body with τ_n;  v_{n+½} = v_{n−½} + Δt F_n/m,  x_{n+1} = x_n + Δt v_{n+½}
///   ```
///   The start sets `v_{−½} = v_0 − Δt/2 F_0/m`; [`Stepper::state`] synchronises
///   `v_n = v_{n−½} + Δt/2 F_n/m` (one evaluation, counted; the leapfrog rotations use the same
///   loads for their `ω_n`).
/// - **torque at `t_{n+1}`** (Velocity Verlet, Johnson: the rotor is updated before the torque)
///   — the velocity Verlet form, the velocity synchronised:
///   ```text
///   v_{n+½} = v_n + Δt/2 F_n/m,  x_{n+1} = x_n + Δt v_{n+½};  prepare every body: q_{n+1}, ω*
///   loads F_{n+1}, τ_{n+1} at (t_{n+1}, x_{n+1}, v_{n+½}, q_{n+1}, ω*)   (one evaluation)
///   finish every body with τ_{n+1};  v_{n+1} = v_{n+½} + Δt/2 F_{n+1}/m
///   ```
///
/// `ω*` is the angular velocity the method hands its torque field ([`SplitStep::prepare`]):
/// `ω_{n−½}` for the leapfrog rotations, `ω_n` for SPIRAL, Direct Euler and Buss, `ω_{n+½}` for
/// Velocity Verlet, `J⁻¹R(q_{n+1})ᵀL_n` for Johnson. **Velocity-dependent forces** therefore see
/// a velocity half a step behind the positions in both forms, and are first-order accurate
/// (measured, `tests/system_catalogue.rs`). Lab-frame torques are rotated into the body frame
/// with the rotor of the torque point.
///
/// Each body's rotation is its own instance of the single-body method (the per-body state the
/// method carries, e.g. Fincham's `L_{n−½}`, lives there); the positions, velocities and the
/// torque points the force model sees are arrays. With one body under a body-frame torque the
/// rotation is the single-body method bit for bit, and `CatalogueSystem<SpiralLeapfrog>` is
/// [`super::SpiralLeapfrogSystem`] bit for bit (tested); the latter is the allocation-lean fast
/// path for SPIRAL.
///
/// With the `parallel` feature the bodies are processed on rayon's pool; each body's update is
/// independent, so results are identical for any number of threads.
#[derive(Debug, Clone)]
pub struct CatalogueSystem<K: SplitStep> {
    bodies: Vec<Body>,
    methods: Vec<K>,
    plan: Option<Plan>,
    positions: Vec<Vector3<f64>>,
    /// `v_{n−½}` (torque at `t_n`) or `v_n` (torque at `t_{n+1}`).
    velocities: Vec<Vector3<f64>>,
    /// What each body's `prepare` handed to its `finish`.
    pending: Vec<K::Pending>,
    /// The rotors and angular velocities of the torque points.
    at_rotors: Vec<Quaternion<f64>>,
    at_omegas: Vec<Vector3<f64>>,
    /// The last loads and the frame of their torques (the velocity Verlet form kicks with them).
    loads: Loads,
    frame: Frame,
    stats: Stats,
}

/// The bound a catalogue method needs to run on a system: split at its torque evaluation, and
/// started and synchronised through the [`Stepper`] protocol under a frozen torque.
pub trait SystemMethod:
    SplitStep + Stepper<ConstantBodyTorque, State = RotationalState> + Clone + Send + Sync
{
}

impl<K> SystemMethod for K where
    K: SplitStep + Stepper<ConstantBodyTorque, State = RotationalState> + Clone + Send + Sync
{
}

impl<K: SystemMethod> CatalogueSystem<K> {
    /// The method `method(body)` (e.g. `Fincham::new`, or a closure setting a renormalisation
    /// policy) on `bodies`.
    pub fn new(bodies: Vec<Body>, method: impl Fn(RigidBody) -> K) -> Self {
        let methods = bodies.iter().map(|b| method(*b.rigid())).collect();
        Self {
            loads: Loads::zeros(bodies.len()),
            bodies,
            methods,
            plan: None,
            positions: Vec::new(),
            velocities: Vec::new(),
            pending: Vec::new(),
            at_rotors: Vec::new(),
            at_omegas: Vec::new(),
            frame: Frame::Body,
            stats: Stats::default(),
        }
    }

    /// `n` copies of `body`.
    pub fn uniform(body: Body, n: usize, method: impl Fn(RigidBody) -> K) -> Self {
        Self::new(vec![body; n], method)
    }

    /// The number of bodies.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// Whether there are no bodies.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    /// The single-body method of body `i` (its rotational state as the method carries it).
    pub fn method(&self, i: usize) -> Option<&K> {
        self.methods.get(i)
    }

    /// Every body's torque point of the coming step into `at_rotors`, `at_omegas` and
    /// `pending`.
    fn prepare(&mut self) -> Result<()> {
        let Self {
            methods,
            pending,
            at_rotors,
            at_omegas,
            ..
        } = self;
        for_each_body!(write methods, write pending, write at_rotors, write at_omegas;
        |i, (method, pending, q, w)| {
            let (p, at) = method.prepare().map_err(|e| for_body(e, i))?;
            (*pending, *q, *w) = (p, at.q, at.omega);
            Ok(())
        })
    }

    /// The loads at `t` for the positions, the carried velocities and the torque points.
    fn evaluate<P: SystemForces + ?Sized>(&mut self, problem: &mut P, t: f64) -> Result<()> {
        let view = SystemView {
            t,
            positions: &self.positions,
            velocities: &self.velocities,
            rotors: &self.at_rotors,
            omegas: &self.at_omegas,
        };
        let n = self.bodies.len();
        self.frame = self
            .loads
            .evaluate(problem, &view, n, &mut self.stats, true)?;
        Ok(())
    }

    /// Every body's rotation finished with its torque from the loads, and the translational kick
    /// `v += kick·Δt F/m` (then, if `drift`, `x += Δt v`); the new states checked at `t`.
    fn finish(&mut self, dt: f64, kick: f64, drift: bool, t: f64) -> Result<()> {
        let Self {
            bodies,
            methods,
            positions,
            velocities,
            pending,
            at_rotors,
            loads,
            frame,
            ..
        } = self;
        let (forces, torques, frame) = (&loads.forces, &loads.torques, *frame);
        for_each_body!(read bodies, write methods, write positions, write velocities,
        read pending, read at_rotors, read forces, read torques;
        |i, (body, method, x, v, pending, q, force, torque)| {
            let tau = body_torque(frame, q, torque);
            method.finish(*pending, &tau).map_err(|e| for_body(e, i))?;
            *v += force * (kick * dt * body.inverse_mass());
            if drift {
                *x += *v * dt;
            }
            finite(x, v, i, t)
        })
    }
}

/// The body-frame torque at rotor `q` of a model's torque.
#[inline(always)]
fn body_torque(frame: Frame, q: &Quaternion<f64>, tau: &Vector3<f64>) -> Vector3<f64> {
    match frame {
        Frame::Body => *tau,
        Frame::Lab => rotate_inverse(q, tau),
    }
}

/// A single-body method's error, with the body's index.
fn for_body(error: Error, body: usize) -> Error {
    match error {
        Error::NonFiniteState { what, t } => Error::NonFiniteBody { what, body, t },
        other => other.with_value_context(|value| format!("body {body}: {value}")),
    }
}

/// Checks a body's position and velocity at `t`.
#[inline(always)]
fn finite(x: &Vector3<f64>, v: &Vector3<f64>, body: usize, t: f64) -> Result<()> {
    if x.iter().chain(v.iter()).all(|c| c.is_finite()) {
        Ok(())
    } else {
        Err(Error::NonFiniteBody {
            what: "state",
            body,
            t,
        })
    }
}

impl_system_info!(CatalogueSystem<K> where K: SystemMethod, |s| {
    s.methods.first().map_or("catalogue", |m| m.name())
});

impl<P: SystemForces + ?Sized, K: SystemMethod> Stepper<P> for CatalogueSystem<K> {
    type State = SystemState;
    type Segment = NoDenseOutput<SystemState>;

    /// Starts from the synchronised state `y0` on a fixed-step span: the loads at `t₀` (one
    /// evaluation, at each method's start rotor), each body's method started under its frozen
    /// torque, and for the leapfrog form half a step back for the velocity.
    ///
    /// # Errors
    /// Those of [`SystemState::validate`]; [`Error::InvalidParameter`] naming `y0` for another
    /// number of bodies, naming `span` for an adaptive span or a negative step;
    /// [`Error::NonFiniteBody`] for non-finite loads; a single-body method's start checks, with
    /// the body's index.
    fn start(&mut self, problem: &mut P, span: &Span, y0: &SystemState) -> Result<()> {
        // A failed start must leave the stepper unstarted, not on the previous run's plan.
        self.plan = None;
        let plan = Plan::start(self.len(), span, y0, problem.body_count())?;
        let (dt, t0) = (plan.dt(), y0.t);
        self.stats = Stats::default();
        self.positions.clone_from(&y0.positions);
        self.velocities.clone_from(&y0.velocities);
        self.at_rotors = (self.methods.iter().zip(&y0.rotors))
            .map(|(m, q)| m.start_rotor(q))
            .collect();
        self.at_omegas.clone_from(&y0.omegas);
        self.loads = Loads::zeros(y0.len());
        self.evaluate(problem, t0)?;
        let body_span = Span::open(t0, dt)?;
        for i in 0..self.len() {
            let tau = body_torque(self.frame, &self.at_rotors[i], &self.loads.torques[i]);
            let start = RotationalState::new(t0, y0.rotors[i], y0.omegas[i]);
            self.methods[i]
                .start(&mut ConstantBodyTorque(tau), &body_span, &start)
                .map_err(|e| for_body(e, i))?;
            if !K::TORQUE_AT_END {
                self.velocities[i] -=
                    self.loads.forces[i] * (0.5 * dt * self.bodies[i].inverse_mass());
            }
        }
        self.pending = (self.methods.iter())
            .map(|m| m.prepare().map(|(p, _)| p))
            .collect::<Result<_>>()?;
        self.plan = Some(plan);
        Ok(())
    }

    /// One step of every body (one load evaluation).
    ///
    /// # Errors
    /// [`Error::NonFiniteBody`] naming the first body with non-finite loads or new state, and
    /// the time; [`not_started`] before the start.
    fn step(&mut self, problem: &mut P) -> Result<StepReport> {
        let mut plan = self.plan.ok_or_else(not_started)?;
        let (dt, t1) = (plan.dt(), plan.next_time());
        if K::TORQUE_AT_END {
            let Self {
                bodies,
                positions,
                velocities,
                loads,
                ..
            } = self;
            let forces = &loads.forces;
            for_each_body!(read bodies, write positions, write velocities, read forces;
            |i, (body, x, v, force)| {
                *v += force * (0.5 * dt * body.inverse_mass());
                *x += *v * dt;
                finite(x, v, i, t1)
            })?;
            self.prepare()?;
            self.evaluate(problem, t1)?;
            self.finish(dt, 0.5, false, t1)?;
        } else {
            self.prepare()?;
            self.evaluate(problem, plan.time())?;
            self.finish(dt, 1.0, true, t1)?;
        }
        let report = plan.advance(&mut self.stats);
        self.plan = Some(plan);
        Ok(report)
    }

    /// The synchronised state at `t_n`; the leapfrog form evaluates the loads once (counted) for
    /// `v_n` and the leapfrog rotations' `ω_n`.
    ///
    /// # Errors
    /// As [`Stepper::step`].
    fn state(&mut self, problem: &mut P) -> Result<SystemState> {
        let plan = self.plan.ok_or_else(not_started)?;
        let (t, half) = (plan.time(), 0.5 * plan.dt());
        let mut velocities = self.velocities.clone();
        if !K::TORQUE_AT_END {
            self.prepare()?;
            self.evaluate(problem, t)?;
            for (i, v) in velocities.iter_mut().enumerate() {
                *v += self.loads.forces[i] * (half * self.bodies[i].inverse_mass());
            }
        }
        let (mut rotors, mut omegas) = (Vec::with_capacity(self.len()), Vec::new());
        omegas.reserve(self.len());
        for i in 0..self.len() {
            let tau = if K::TORQUE_AT_END {
                Vector3::zeros()
            } else {
                body_torque(self.frame, &self.at_rotors[i], &self.loads.torques[i])
            };
            let s = Stepper::<ConstantBodyTorque>::state(
                &mut self.methods[i],
                &mut ConstantBodyTorque(tau),
            )
            .map_err(|e| for_body(e, i))?;
            rotors.push(s.q);
            omegas.push(s.omega);
        }
        checked(SystemState {
            t,
            positions: self.positions.clone(),
            velocities,
            rotors,
            omegas,
        })
    }
}
