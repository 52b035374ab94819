//! SPIRAL (leapfrog) on N bodies in six degrees of freedom, with leapfrog translation.

use crate::body::Frame;
use nalgebra::{Quaternion, Vector3};

use super::body::Body;
use super::forces::{BodyModel, BodyModelVisitor, BodyView, Loads, SystemForces, SystemView};
use super::plan::{Plan, checked, for_each_body, impl_system_info};
use super::state::SystemState;
use crate::body::quaternion::{exp_pure, rotate_inverse};
use crate::error::Result;
use crate::rotation::omega_integrator::{EulerSsprk3, FixedStepSsprk3};
use crate::stepper::{NoDenseOutput, Span, Stats, StepReport, Stepper, not_started};

/// SPIRAL's leapfrog rotation (del Valle et al. 2024, Eqs. 9–12) with the leapfrog (Störmer–
/// Verlet) translation it is paired with in DEM codes, on N bodies at once:
///
/// ```text
/// loads F_n, τ_n at (t_n, x_n, v_{n−½}, q_n, ω_{n−½})          (one evaluation per step)
/// v_{n+½} = v_{n−½} + Δt F_n/m,          x_{n+1} = x_n + Δt v_{n+½}
/// ω_{n+½} = SSPRK3 step of ω̇ = J⁻¹(τ_n − ω × Jω) from ω_{n−½}, τ frozen
/// q_{n+1} = q_n ⊗ exp(ω_{n+½} Δt/2)
/// ```
///
/// The start takes half a step back from the synchronised initial state with the loads at
/// `t₀`; [`Stepper::state`] synchronises (`v_n = v_{n−½} + Δt/2 F_n/m`,
/// `ω_n = ω_{n−½} + Δt/2 ω̇(ω_{n−½}, τ_n)`, one more evaluation, counted). Lab-frame torques
/// are rotated into the body frame with `q_n`.
///
/// **Velocity-dependent forces** see the velocities of the leapfrog, `v_{n−½}` and `ω_{n−½}`,
/// half a step behind the positions: a force depending on them is then first-order accurate
/// (measured on the damped sphere, `tests/system.rs`).
///
/// With one body and no force, the rotation is SPIRAL leapfrog of the rotational catalogue
/// ([`crate::rotation::SpiralLeapfrog`]) bit for bit (tested).
///
/// With the `parallel` feature the bodies are updated on rayon's pool; every body's update is
/// independent, so results are identical for any number of threads.
#[derive(Debug, Clone)]
pub struct SpiralLeapfrogSystem {
    /// The distinct bodies and their SSPRK3 maps for the step (set by `start`).
    kinds: Vec<(Body, FixedStepSsprk3)>,
    /// Each body's entry in `kinds` (bodies that are equal share one: a uniform system reads
    /// one cached entry instead of 440 bytes per body and step).
    kind_of: Vec<u32>,
    /// The running step layout (`None` before the start).
    plan: Option<Plan>,
    positions: Vec<Vector3<f64>>,
    velocities_half: Vec<Vector3<f64>>,
    rotors: Vec<Quaternion<f64>>,
    omegas_half: Vec<Vector3<f64>>,
    loads: Loads,
    stats: Stats,
}

impl SpiralLeapfrogSystem {
    /// The method for `bodies` (one entry per body).
    pub fn new(bodies: Vec<Body>) -> Self {
        let n = bodies.len();
        let (kinds, kind_of) = distinct(&bodies);
        Self {
            kinds: kinds
                .into_iter()
                .map(|b| (b, EulerSsprk3::new().with_step(b.rigid(), 0.0)))
                .collect(),
            kind_of,
            plan: None,
            positions: Vec::new(),
            velocities_half: Vec::new(),
            rotors: Vec::new(),
            omegas_half: Vec::new(),
            loads: Loads::zeros(n),
            stats: Stats::default(),
        }
    }

    /// `n` copies of one body.
    pub fn uniform(body: Body, n: usize) -> Self {
        Self::new(vec![body; n])
    }

    /// The number of bodies.
    pub fn len(&self) -> usize {
        self.kind_of.len()
    }

    /// Whether there are no bodies.
    pub fn is_empty(&self) -> bool {
        self.kind_of.is_empty()
    }

    /// The loads at `t` for the carried state, checked (the finiteness only if `finite`: the
    /// step checks it in its update pass).
    fn evaluate<P: SystemForces + ?Sized>(
        &mut self,
        problem: &mut P,
        t: f64,
        finite: bool,
    ) -> Result<Frame> {
        let view = SystemView {
            t,
            positions: &self.positions,
            velocities: &self.velocities_half,
            rotors: &self.rotors,
            omegas: &self.omegas_half,
        };
        let n = self.kind_of.len();
        self.loads
            .evaluate(problem, &view, n, &mut self.stats, finite)
    }
}

/// The body-frame torque of body `q` from a model's torque.
#[inline(always)]
fn body_torque(frame: Frame, q: &Quaternion<f64>, tau: &Vector3<f64>) -> Vector3<f64> {
    match frame {
        Frame::Body => *tau,
        Frame::Lab => rotate_inverse(q, tau),
    }
}

/// What a step hands every body: the frame of the torques, `t_n`, `t_{n+1}` and the step.
#[derive(Debug, Clone, Copy)]
struct Tick {
    frame: Frame,
    t: f64,
    t_next: f64,
    dt: f64,
}

/// One body's SPIRAL leapfrog step (see [`SpiralLeapfrogSystem`]) for body `i` of kind `kind`
/// under its loads; a failure is named: a non-finite force or torque at `t_n`, else a
/// non-finite new state at `t_{n+1}`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn advance_body(
    kind: &(Body, FixedStepSsprk3),
    tick: Tick,
    i: usize,
    x: &mut Vector3<f64>,
    v: &mut Vector3<f64>,
    q: &mut Quaternion<f64>,
    w: &mut Vector3<f64>,
    force: &Vector3<f64>,
    torque: &Vector3<f64>,
) -> Result<()> {
    let (body, map) = kind;
    let dt = tick.dt;
    *v += force * (dt * body.inverse_mass());
    *x += *v * dt;
    let tau = body_torque(tick.frame, q, torque);
    *w = map.advance(w, &tau);
    *q *= exp_pure(&(*w * (0.5 * dt)));
    // One branch instead of thirteen: 0·x is ±0 for finite x and NaN otherwise; summed as a
    // tree, not as one chain of thirteen dependent additions (a quarter of the step's time).
    let zero = |a: &Vector3<f64>| (a.x * 0.0 + a.y * 0.0) + a.z * 0.0;
    let q0 = (q.w * 0.0 + q.i * 0.0) + (q.j * 0.0 + q.k * 0.0);
    if (zero(x) + zero(v)) + (zero(w) + q0) == 0.0 {
        return Ok(());
    }
    let finite = |a: &Vector3<f64>| a.iter().all(|c| c.is_finite());
    let (what, t) = if !finite(force) {
        ("force", tick.t)
    } else if !finite(torque) {
        ("torque", tick.t)
    } else {
        ("state", tick.t_next)
    };
    Err(crate::Error::NonFiniteBody { what, body: i, t })
}

impl_system_info!(SpiralLeapfrogSystem, |_s| "spiral_leapfrog");

impl<P: SystemForces> Stepper<P> for SpiralLeapfrogSystem {
    type State = SystemState;
    type Segment = NoDenseOutput<SystemState>;

    /// Starts from the synchronised state `y0` on a fixed-step span: one load evaluation at
    /// `t₀` and half a step back for both velocities.
    ///
    /// # Errors
    /// Those of [`SystemState::validate`]; [`crate::Error::InvalidParameter`] naming `y0` when it has
    /// another number of bodies than the method, naming `span` for an adaptive span or a
    /// negative step; [`crate::Error::NonFiniteBody`] for non-finite loads.
    fn start(&mut self, problem: &mut P, span: &Span, y0: &SystemState) -> Result<()> {
        // A failed start must leave the stepper unstarted, not on the previous run's plan.
        self.plan = None;
        let plan = Plan::start(self.len(), span, y0, problem.body_count())?;
        let dt = plan.dt();
        self.stats = Stats::default();
        self.positions.clone_from(&y0.positions);
        self.velocities_half.clone_from(&y0.velocities);
        self.rotors.clone_from(&y0.rotors);
        self.omegas_half.clone_from(&y0.omegas);
        self.loads = Loads::zeros(y0.len());
        let frame = self.evaluate(problem, y0.t, true)?;
        let back = EulerSsprk3::new();
        for (i, &k) in self.kind_of.iter().enumerate() {
            let body = &self.kinds[k as usize].0;
            self.velocities_half[i] -= self.loads.forces[i] * (0.5 * dt * body.inverse_mass());
            let tau = body_torque(frame, &self.rotors[i], &self.loads.torques[i]);
            self.omegas_half[i] = back.advance(body.rigid(), &self.omegas_half[i], &tau, -0.5 * dt);
            // The half step back is the method's own state: an overflow there is named as
            // such, before any model sees it.
            let finite = |v: &Vector3<f64>| v.iter().all(|x| x.is_finite());
            if !(finite(&self.omegas_half[i]) && finite(&self.velocities_half[i])) {
                return Err(crate::Error::NonFiniteBody {
                    what: crate::system::forces::METHOD_STATE_HALF_STEP,
                    body: i,
                    t: y0.t - 0.5 * dt,
                });
            }
        }
        for (body, map) in &mut self.kinds {
            *map = EulerSsprk3::new().with_step(body.rigid(), dt);
        }
        self.plan = Some(plan);
        Ok(())
    }

    /// One step of every body (one load evaluation).
    ///
    /// # Errors
    /// [`crate::Error::NonFiniteBody`] naming the first body with non-finite loads or a non-finite new
    /// state, and the time; [`not_started`] before the start.
    fn step(&mut self, problem: &mut P) -> Result<StepReport> {
        let mut plan = self.plan.ok_or_else(not_started)?;
        let t = plan.time();
        let tick = Tick {
            frame: problem.torque_frame(),
            t,
            t_next: plan.next_time(),
            dt: plan.dt(),
        };
        let fused = FusedStep { system: self, tick };
        if let Some(result) = problem.with_body_model(fused) {
            self.stats.rhs_evaluations += 1;
            result?;
        } else {
            let frame = self.evaluate(problem, t, false)?;
            update_all(self, Tick { frame, ..tick })?;
        }
        let report = plan.advance(&mut self.stats);
        self.plan = Some(plan);
        Ok(report)
    }

    /// The synchronised state at `t_n` (one load evaluation, counted).
    ///
    /// # Errors
    /// As [`Stepper::step`].
    fn state(&mut self, problem: &mut P) -> Result<SystemState> {
        let plan = self.plan.ok_or_else(not_started)?;
        let frame = self.evaluate(problem, plan.time(), true)?;
        let half = 0.5 * plan.dt();
        let mut state = SystemState {
            t: plan.time(),
            positions: self.positions.clone(),
            velocities: self.velocities_half.clone(),
            rotors: self.rotors.clone(),
            omegas: self.omegas_half.clone(),
        };
        for (i, &k) in self.kind_of.iter().enumerate() {
            let body = &self.kinds[k as usize].0;
            state.velocities[i] += self.loads.forces[i] * (half * body.inverse_mass());
            let tau = body_torque(frame, &self.rotors[i], &self.loads.torques[i]);
            state.omegas[i] += body
                .rigid()
                .angular_acceleration(&self.omegas_half[i], &tau)
                * half;
        }
        checked(state)
    }
}

/// The step with a per-body model ([`crate::system::PerBody`]): each body's loads evaluated and
/// the body advanced in one pass (the loads buffer is not touched), bit-identical to the
/// two-pass step. A non-finite load or new state is reported for the body of lowest index.
struct FusedStep<'a> {
    system: &'a mut SpiralLeapfrogSystem,
    tick: Tick,
}

impl BodyModelVisitor for FusedStep<'_> {
    type Output = Result<()>;

    fn visit<F: BodyModel>(self, frame: Frame, model: &F) -> Result<()> {
        let SpiralLeapfrogSystem {
            kinds,
            kind_of,
            positions,
            velocities_half,
            rotors,
            omegas_half,
            ..
        } = self.system;
        let kinds = &*kinds;
        let tick = Tick { frame, ..self.tick };
        for_each_body!(read kind_of, write positions, write velocities_half, write rotors,
        write omegas_half;
        |i, (k, x, v, q, w)| {
            let body = BodyView {
                index: i,
                t: tick.t,
                position: x,
                velocity: v,
                rotor: q,
                omega: w,
            };
            let (force, torque) = model(&body);
            advance_body(&kinds[*k as usize], tick, i, x, v, q, w, &force, &torque)
        })
    }
}

/// The two-pass step's update: every body advanced with its loads from the buffers.
fn update_all(s: &mut SpiralLeapfrogSystem, tick: Tick) -> Result<()> {
    let SpiralLeapfrogSystem {
        kinds,
        kind_of,
        positions,
        velocities_half,
        rotors,
        omegas_half,
        loads,
        ..
    } = s;
    let kinds = &*kinds;
    let (forces, torques) = (&loads.forces, &loads.torques);
    for_each_body!(read kind_of, write positions, write velocities_half, write rotors,
    write omegas_half, read forces, read torques;
    |i, (k, x, v, q, w, force, torque)| {
        advance_body(&kinds[*k as usize], tick, i, x, v, q, w, force, torque)
    })
}

/// The distinct bodies (equal bodies, as when every body is the same, share one entry) and
/// each body's index among them.
fn distinct(bodies: &[Body]) -> (Vec<Body>, Vec<u32>) {
    let mut kinds: Vec<Body> = Vec::new();
    let mut index = std::collections::HashMap::new();
    let kind_of = bodies
        .iter()
        .map(|b| {
            let i = b.rigid().inertia();
            let key = [b.mass(), i.x, i.y, i.z].map(f64::to_bits);
            *index.entry(key).or_insert_with(|| {
                kinds.push(*b);
                (kinds.len() - 1) as u32
            })
        })
        .collect();
    (kinds, kind_of)
}
