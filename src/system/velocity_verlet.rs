//! Velocity Verlet on N bodies in six degrees of freedom: the SPIRAL benchmark's rotational
//! Velocity Verlet with the velocity Verlet translation.

use nalgebra::{Quaternion, Vector3};

use super::body::Body;
use super::forces::{Loads, SystemForces, SystemView, TorqueFrame};
use super::plan::{Plan, impl_system_info, non_finite_body};
use super::state::SystemState;
use crate::body::quaternion::{normalize, rotate_inverse, times_pure};
use crate::error::Result;
use crate::stepper::{NoDenseOutput, Span, Stats, StepReport, Stepper, not_started};

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
/// with `q_{n+1}`. The state is synchronised after every step. With the `parallel` feature the
/// kicks and the drift run over the bodies on rayon's pool; results are identical for any
/// number of threads.
#[derive(Debug, Clone)]
pub struct VelocityVerletSystem {
    bodies: Vec<Body>,
    /// The running step layout (`None` before the start).
    plan: Option<Plan>,
    /// Its step, for the kicks and the drift.
    dt: f64,
    positions: Vec<Vector3<f64>>,
    velocities: Vec<Vector3<f64>>,
    rotors: Vec<Quaternion<f64>>,
    omegas: Vec<Vector3<f64>>,
    /// The loads of the current state, and their torques in the body frame.
    loads: Loads,
    frame: TorqueFrame,
    stats: Stats,
}

impl VelocityVerletSystem {
    /// The method for `bodies` (one entry per body).
    pub fn new(bodies: Vec<Body>) -> Self {
        let n = bodies.len();
        Self {
            bodies,
            plan: None,
            dt: 0.0,
            positions: Vec::new(),
            velocities: Vec::new(),
            rotors: Vec::new(),
            omegas: Vec::new(),
            loads: Loads::zeros(n),
            frame: TorqueFrame::Body,
            stats: Stats::default(),
        }
    }

    /// `n` copies of one body.
    pub fn uniform(body: Body, n: usize) -> Self {
        Self::new(vec![body; n])
    }

    /// The loads at `t` for the carried state, checked.
    fn evaluate<P: SystemForces + ?Sized>(&mut self, problem: &mut P, t: f64) -> Result<()> {
        self.loads.zero();
        let view = SystemView {
            t,
            positions: &self.positions,
            velocities: &self.velocities,
            rotors: &self.rotors,
            omegas: &self.omegas,
        };
        let n = self.bodies.len();
        self.frame = self.loads.evaluate(problem, &view, n, &mut self.stats)?;
        Ok(())
    }

    /// The half kick `v += Δt/2 F/m`, `ω += Δt/2 ω̇(ω, τ)` with the cached loads (in parallel
    /// with the `parallel` feature).
    fn half_kick(&mut self) {
        let (half, frame) = (0.5 * self.dt, self.frame);
        let kick = |(((((body, q), v), w), f), tau): KickItem<'_>| {
            let tau = match frame {
                TorqueFrame::Body => *tau,
                TorqueFrame::Lab => rotate_inverse(q, tau),
            };
            *v += *f * (half * body.inverse_mass());
            let rate = half * body.rigid().angular_acceleration(w, &tau);
            *w += rate;
        };
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            self.bodies
                .par_iter()
                .zip(self.rotors.par_iter())
                .zip(self.velocities.par_iter_mut())
                .zip(self.omegas.par_iter_mut())
                .zip(self.loads.forces.par_iter())
                .zip(self.loads.torques.par_iter())
                .with_min_len(super::PARALLEL_CHUNK)
                .for_each(kick);
        }
        #[cfg(not(feature = "parallel"))]
        self.bodies
            .iter()
            .zip(self.rotors.iter())
            .zip(self.velocities.iter_mut())
            .zip(self.omegas.iter_mut())
            .zip(self.loads.forces.iter())
            .zip(self.loads.torques.iter())
            .for_each(kick);
    }

    /// The drift `x += Δt v_{n+½}`, `q ← normalise(q + Δt · ½ q ⊗ ω_{n+½})`.
    fn drift(&mut self) {
        let dt = self.dt;
        let drift = |(((x, q), v), w): DriftItem<'_>| {
            *x += *v * dt;
            *q = normalize(&(*q + times_pure(q, w) * (0.5 * dt)));
        };
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            self.positions
                .par_iter_mut()
                .zip(self.rotors.par_iter_mut())
                .zip(self.velocities.par_iter())
                .zip(self.omegas.par_iter())
                .with_min_len(super::PARALLEL_CHUNK)
                .for_each(drift);
        }
        #[cfg(not(feature = "parallel"))]
        self.positions
            .iter_mut()
            .zip(self.rotors.iter_mut())
            .zip(self.velocities.iter())
            .zip(self.omegas.iter())
            .for_each(drift);
    }
}

/// What a half kick works on for one body: the body, its rotor, its velocities and its loads.
type KickItem<'a> = (
    (
        (
            ((&'a Body, &'a Quaternion<f64>), &'a mut Vector3<f64>),
            &'a mut Vector3<f64>,
        ),
        &'a Vector3<f64>,
    ),
    &'a Vector3<f64>,
);

/// What a drift works on for one body: position, rotor, velocity, angular velocity.
type DriftItem<'a> = (
    (
        (&'a mut Vector3<f64>, &'a mut Quaternion<f64>),
        &'a Vector3<f64>,
    ),
    &'a Vector3<f64>,
);

impl_system_info!(VelocityVerletSystem, "velocity_verlet");

impl<P: SystemForces + ?Sized> Stepper<P> for VelocityVerletSystem {
    type State = SystemState;
    type Segment = NoDenseOutput<SystemState>;

    /// Starts at `y0` on a fixed-step span: the loads at `t₀` (one evaluation).
    ///
    /// # Errors
    /// Those of [`SystemState::validate`]; [`crate::Error::InvalidParameter`] naming `y0` for another
    /// number of bodies, naming `span` for an adaptive span or a non-positive step;
    /// [`crate::Error::NonFiniteBody`] for non-finite loads.
    fn start(&mut self, problem: &mut P, span: &Span, y0: &SystemState) -> Result<()> {
        let plan = Plan::start(self.bodies.len(), span, y0)?;
        self.stats = Stats::default();
        self.positions.clone_from(&y0.positions);
        self.velocities.clone_from(&y0.velocities);
        self.rotors.clone_from(&y0.rotors);
        self.omegas.clone_from(&y0.omegas);
        self.loads = Loads::zeros(y0.len());
        self.evaluate(problem, y0.t)?;
        self.dt = plan.dt();
        self.plan = Some(plan);
        Ok(())
    }

    /// One step of every body (one load evaluation).
    ///
    /// # Errors
    /// [`crate::Error::NonFiniteBody`] naming the first body with non-finite loads or new state, and
    /// the time; [`not_started`] before the start.
    fn step(&mut self, problem: &mut P) -> Result<StepReport> {
        let mut plan = self.plan.ok_or_else(not_started)?;
        self.half_kick();
        self.drift();
        let t1 = plan.next_time();
        self.evaluate(problem, t1)?;
        self.half_kick();
        let (x, v, q, w) = (
            &self.positions,
            &self.velocities,
            &self.rotors,
            &self.omegas,
        );
        if let Some(error) = non_finite_body(t1, x, v, q, w) {
            return Err(error);
        }
        let report = plan.advance(&mut self.stats);
        self.plan = Some(plan);
        Ok(report)
    }

    fn state(&mut self, _problem: &mut P) -> Result<SystemState> {
        let plan = self.plan.ok_or_else(not_started)?;
        Ok(SystemState {
            t: plan.time(),
            positions: self.positions.clone(),
            velocities: self.velocities.clone(),
            rotors: self.rotors.clone(),
            omegas: self.omegas.clone(),
        })
    }
}
