//! Velocity Verlet on N bodies in six degrees of freedom: the SPIRAL benchmark's rotational
//! Velocity Verlet with the velocity Verlet translation.

use nalgebra::{Quaternion, Vector3};

use super::body::Body;
use super::forces::{Loads, SystemForces, SystemView, TorqueFrame};
use super::state::SystemState;
use crate::body::quaternion::{normalize, rotate_inverse, times_pure};
use crate::error::{Error, Result};
use crate::rotation::stepper::StepClock;
use crate::stepper::{NoDenseOutput, Span, Stats, StepReport, Stepper, StepperInfo, not_started};

/// Velocity Verlet (Verlet 1967; SPIRAL App. B.2, Eqs. B.2–B.3) for both motions, with the loads
/// `F_n`, `τ_n` cached from the previous step (or the start):
///
/// ```text
/// v_{n+½} = v_n + Δt/2 F_n/m,          x_{n+1} = x_n + Δt v_{n+½}
/// ω_{n+½} = ω_n + Δt/2 ω̇(ω_n, τ_n),    q_{n+1} = normalise(q_n + Δt · ½ q_n ⊗ ω_{n+½})
/// loads F_{n+1}, τ_{n+1} at (t_{n+1}, x_{n+1}, v_{n+½}, q_{n+1}, ω_{n+½})   (one per step)
/// v_{n+1} = v_{n+½} + Δt/2 F_{n+1}/m,  ω_{n+1} = ω_{n+½} + Δt/2 ω̇(ω_{n+½}, τ_{n+1})
/// ```
///
/// The translation is the second-order velocity Verlet (exact for a constant force); the
/// rotation is the benchmark's Velocity Verlet, first order (see
/// [`crate::rotation::VelocityVerlet`] — with one body and a body-frame torque this is that
/// method bit for bit, tested). **Velocity-dependent loads** see the half-step velocities
/// `v_{n+½}`, `ω_{n+½}` at the new positions. Lab-frame torques are rotated into the body frame
/// with `q_{n+1}`. The state is synchronised after every step.
#[derive(Debug, Clone)]
pub struct VelocityVerletSystem {
    bodies: Vec<Body>,
    clock: StepClock,
    t: f64,
    dt: f64,
    steps: Option<usize>,
    positions: Vec<Vector3<f64>>,
    velocities: Vec<Vector3<f64>>,
    rotors: Vec<Quaternion<f64>>,
    omegas: Vec<Vector3<f64>>,
    /// The loads of the current state, and their torques in the body frame.
    loads: Loads,
    frame: TorqueFrame,
    stats: Stats,
    started: bool,
}

impl VelocityVerletSystem {
    /// The method for `bodies` (one entry per body).
    pub fn new(bodies: Vec<Body>) -> Self {
        let n = bodies.len();
        Self {
            bodies,
            clock: StepClock::default(),
            t: f64::NAN,
            dt: 0.0,
            steps: None,
            positions: Vec::new(),
            velocities: Vec::new(),
            rotors: Vec::new(),
            omegas: Vec::new(),
            loads: Loads::zeros(n),
            frame: TorqueFrame::Body,
            stats: Stats::default(),
            started: false,
        }
    }

    /// `n` copies of one body.
    pub fn uniform(body: Body, n: usize) -> Self {
        Self::new(vec![body; n])
    }

    /// The loads at `t` for the carried state, checked.
    fn evaluate<P: SystemForces + ?Sized>(&mut self, problem: &mut P, t: f64) -> Result<()> {
        self.loads
            .forces
            .iter_mut()
            .for_each(|f| *f = Vector3::zeros());
        self.loads
            .torques
            .iter_mut()
            .for_each(|f| *f = Vector3::zeros());
        let view = SystemView {
            t,
            positions: &self.positions,
            velocities: &self.velocities,
            rotors: &self.rotors,
            omegas: &self.omegas,
        };
        problem.loads(&view, &mut self.loads);
        self.stats.rhs_evaluations += 1;
        self.loads.check(self.bodies.len(), t)?;
        self.frame = problem.torque_frame();
        Ok(())
    }

    /// The body-frame torque of body `i` from the cached loads.
    fn body_torque(&self, i: usize) -> Vector3<f64> {
        match self.frame {
            TorqueFrame::Body => self.loads.torques[i],
            TorqueFrame::Lab => rotate_inverse(&self.rotors[i], &self.loads.torques[i]),
        }
    }

    /// The half kick `v += Δt/2 F/m`, `ω += Δt/2 ω̇(ω, τ)` with the cached loads.
    fn half_kick(&mut self) {
        let half = 0.5 * self.dt;
        for i in 0..self.bodies.len() {
            let tau = self.body_torque(i);
            let body = &self.bodies[i];
            self.velocities[i] += self.loads.forces[i] * (half * body.inverse_mass());
            let w = self.omegas[i];
            self.omegas[i] = w + half * body.rigid().angular_acceleration(&w, &tau);
        }
    }
}

impl StepperInfo for VelocityVerletSystem {
    fn name(&self) -> &str {
        "velocity_verlet"
    }

    fn time(&self) -> f64 {
        self.t
    }

    fn stats(&self) -> Stats {
        self.stats
    }
}

impl<P: SystemForces + ?Sized> Stepper<P> for VelocityVerletSystem {
    type State = SystemState;
    type Segment = NoDenseOutput<SystemState>;

    /// Starts at `y0` on a fixed-step span: the loads at `t₀` (one evaluation).
    ///
    /// # Errors
    /// Those of [`SystemState::validate`]; [`Error::InvalidParameter`] naming `y0` for another
    /// number of bodies, naming `span` for an adaptive span or a non-positive step;
    /// [`Error::NonFiniteBody`] for non-finite loads.
    fn start(&mut self, problem: &mut P, span: &Span, y0: &SystemState) -> Result<()> {
        y0.validate()?;
        if y0.len() != self.bodies.len() {
            return Err(Error::InvalidParameter {
                name: "y0",
                value: format!("{} bodies", y0.len()),
                expected: format!("{} bodies, as the method", self.bodies.len()),
            });
        }
        let (dt, steps) = span.fixed_step()?;
        if dt <= 0.0 {
            return Err(Error::InvalidParameter {
                name: "span",
                value: format!("dt = {dt:e}"),
                expected: "a positive step".into(),
            });
        }
        self.stats = Stats::default();
        self.positions.clone_from(&y0.positions);
        self.velocities.clone_from(&y0.velocities);
        self.rotors.clone_from(&y0.rotors);
        self.omegas.clone_from(&y0.omegas);
        self.loads = Loads::zeros(y0.len());
        self.evaluate(problem, y0.t)?;
        self.clock = StepClock::start(y0.t, dt);
        self.t = y0.t;
        self.dt = dt;
        self.steps = (steps != usize::MAX).then_some(steps);
        self.started = true;
        Ok(())
    }

    /// One step of every body (one load evaluation).
    ///
    /// # Errors
    /// [`Error::NonFiniteBody`] naming the first body with non-finite loads or new state, and
    /// the time; [`not_started`] before the start.
    fn step(&mut self, problem: &mut P) -> Result<StepReport> {
        if !self.started {
            return Err(not_started());
        }
        let (t, dt) = (self.t, self.dt);
        self.half_kick();
        for i in 0..self.bodies.len() {
            self.positions[i] += self.velocities[i] * dt;
            let q = self.rotors[i];
            self.rotors[i] = normalize(&(q + times_pure(&q, &self.omegas[i]) * (0.5 * dt)));
        }
        let t1 = self.clock.after(1);
        self.evaluate(problem, t1)?;
        self.half_kick();
        for i in 0..self.bodies.len() {
            let finite = self.positions[i]
                .iter()
                .chain(self.velocities[i].iter())
                .chain(self.omegas[i].iter())
                .chain(self.rotors[i].coords.iter())
                .all(|c| c.is_finite());
            if !finite {
                return Err(Error::NonFiniteBody {
                    what: "state",
                    body: i,
                    t: t1,
                });
            }
        }
        self.t = self.clock.tick();
        self.stats.steps += 1;
        self.stats.accepted += 1;
        Ok(StepReport {
            t_start: t,
            t_end: self.t,
            finished: self.steps.is_some_and(|n| self.clock.steps() >= n as u64),
        })
    }

    fn state(&mut self, _problem: &mut P) -> Result<SystemState> {
        if !self.started {
            return Err(not_started());
        }
        Ok(SystemState {
            t: self.t,
            positions: self.positions.clone(),
            velocities: self.velocities.clone(),
            rotors: self.rotors.clone(),
            omegas: self.omegas.clone(),
        })
    }
}
