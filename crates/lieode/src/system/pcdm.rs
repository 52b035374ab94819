//! Zhao and van Wachem's predictor–corrector direct multiplication (PCDM) scheme on N bodies in
//! six degrees of freedom, with torques at whole steps.

use crate::body::Frame;
use nalgebra::Vector3;

use super::arrays::BodyArrays;
use super::body::Body;
use super::forces::{Loads, SystemForces};
use super::improved_pcdm::{finite, turn};
use super::plan::{self, checked, for_each_body, impl_body_count, impl_system_info};
use super::state::SystemState;
use crate::body::quaternion::rotate_inverse;
use crate::clock::FixedClock;
use crate::error::{Error, Result};
use crate::lie::{Real, real};
use crate::stepper::{NoDenseOutput, Span, Stats, StepReport, Stepper, not_started};

/// The original PCDM scheme (F. Zhao, B. G. M. van Wachem, *A novel quaternion integration
/// approach for describing the behaviour of non-spherical particles*, Acta Mech. 224 (2013)
/// 3091) as Seelen et al. (2016, §2.2 and §3) describe its use in a particle code: synchronised
/// velocities, the loads evaluated once per step at whole steps, so the half-step angular
/// acceleration uses the torque of the old step:
///
/// ```text
/// τ^b_n = q̄_n τ_n q_n,   ω̇^b_n = J⁻¹(τ^b_n − ω^b_n × Jω^b_n)
/// ω^b_{n+¼} = ω^b_n + δt/4 ω̇^b_n,  ω^b_{n+½} = ω^b_n + δt/2 ω̇^b_n
/// q'_{n+½} = exp(δt/4 · q_n ω^b_{n+¼} q̄_n) q_n                         (predictor)
/// ω̇^b_{n+½} = J⁻¹(τ^b_n − ω^b_{n+½} × Jω^b_{n+½})                      (torque of step n)
/// q_{n+1} = exp(δt/2 · q'_{n+½} ω^b_{n+½} q̄'_{n+½}) q_n                 (corrector)
/// ω^b_{n+1} = ω^b_n + δt ω̇^b_{n+½}
/// ```
///
/// with the velocity Verlet translation: `v_{n+½} = v_n + δt/2 F_n/m`,
/// `x_{n+1} = x_n + δt v_{n+½}`, loads `F_{n+1}`, `τ_{n+1}` at
/// `(t_{n+1}, x_{n+1}, v_{n+½} + δt/2 F_n/m, q_{n+1}, ω^b_{n+1})` (one evaluation),
/// `v_{n+1} = v_{n+½} + δt/2 F_{n+1}/m`. The state is synchronised after every step.
///
/// Zhao and van Wachem evaluate the torque again at the predicted half-step rotor (two
/// evaluations per step); in a particle code with one force evaluation per step that
/// evaluation is the old step's, which is the scheme Seelen et al. compare with and which is
/// implemented here — "the torque of the old time step has to be used" (§3.4). The paper
/// measures it between first and second order; `docs/seelen.md` gives ours.
#[derive(Debug, Clone)]
pub struct PcdmSystem<T: Real = f64> {
    bodies: Vec<Body<T>>,
    clock: Option<FixedClock>,
    /// `x_n`, `v_n`, `q_n`, `ω^b_n` (the velocities predicted to `t_{n+1}` while the loads are
    /// evaluated).
    now: BodyArrays<T>,
    /// The velocity Verlet half-step velocities, between the kick and the loads.
    velocities_half: Vec<Vector3<T>>,
    /// `F_n`, `τ_n` and the frame of the torques.
    loads: Loads<T>,
    frame: Frame,
    stats: Stats,
}

impl<T: Real> PcdmSystem<T> {
    /// The scheme for `bodies` (one entry per body).
    pub fn new(bodies: Vec<Body<T>>) -> Self {
        Self {
            loads: Loads::zeros(bodies.len()),
            bodies,
            clock: None,
            now: BodyArrays::default(),
            velocities_half: Vec::new(),
            frame: Frame::Body,
            stats: Stats::default(),
        }
    }

    /// The loads at `t` for the carried arrays.
    fn evaluate<P: SystemForces<T> + ?Sized>(&mut self, problem: &mut P, t: f64) -> Result<()> {
        let n = self.bodies.len();
        self.frame = self
            .loads
            .evaluate(problem, &self.now.view(t), n, &mut self.stats, true)?;
        Ok(())
    }
}

impl_body_count!(PcdmSystem);

impl_system_info!(PcdmSystem<T> where T: crate::lie::Real, |_s| "pcdm");

impl<T: Real, P: SystemForces<T> + ?Sized> Stepper<P> for PcdmSystem<T> {
    type State = SystemState<T>;
    type Segment = NoDenseOutput<SystemState<T>>;

    /// Starts at `y0` on a fixed-step span: the loads at `t₀` (one evaluation).
    ///
    /// # Errors
    /// Those of [`SystemState::validate`]; [`Error::InvalidParameter`] naming `y0` for another
    /// number of bodies, naming `span` for an adaptive span or a negative step;
    /// [`Error::NonFiniteBody`] for non-finite loads.
    fn start(&mut self, problem: &mut P, span: &Span, y0: &SystemState<T>) -> Result<()> {
        // A failed start must leave the stepper unstarted, not on the previous run.
        self.clock = None;
        let clock = plan::start(self.len(), span, y0, problem.body_count())?;
        self.stats = Stats::default();
        self.now.assign(y0);
        self.velocities_half.clone_from(&y0.velocities);
        self.loads = Loads::zeros(y0.len());
        self.evaluate(problem, y0.t)?;
        self.clock = Some(clock);
        Ok(())
    }

    /// One step of every body (one load evaluation).
    ///
    /// # Errors
    /// [`Error::NonFiniteBody`] naming the first body with non-finite loads or new state, and
    /// the time; [`not_started`] before the start.
    fn step(&mut self, problem: &mut P) -> Result<StepReport> {
        let mut clock = self.clock.ok_or_else(not_started)?;
        let (dt, t1) = (clock.dt(), clock.next_time());
        {
            let Self {
                bodies,
                now,
                velocities_half,
                loads,
                frame,
                ..
            } = self;
            let BodyArrays {
                x: positions,
                v: velocities,
                q: rotors,
                w: omegas,
            } = now;
            let (forces, torques, frame) = (&loads.forces, &loads.torques, *frame);
            for_each_body!(read bodies, write positions, write velocities, write rotors,
            write omegas, write velocities_half, read forces, read torques;
            |i, (body, x, v, q, w, v_half, force, torque)| {
                let kick = force * (real::<T>(0.5 * dt) * body.inverse_mass());
                *v_half = *v + kick;
                *x += *v_half * real::<T>(dt);
                // The velocity the loads see: the half step predicted on to t_{n+1}.
                *v = *v_half + kick;
                let rigid = body.rigid();
                let tau = match frame {
                    Frame::Body => *torque,
                    Frame::Lab => rotate_inverse(q, torque),
                };
                let a = rigid.angular_acceleration(w, &tau);
                let quarter = *w + a * real::<T>(0.25 * dt);
                let half = *w + a * real::<T>(0.5 * dt);
                let predicted = turn(q, &quarter, 0.25 * dt, q);
                let a_half = rigid.angular_acceleration(&half, &tau);
                *q = turn(&predicted, &half, 0.5 * dt, q);
                *w += a_half * real::<T>(dt);
                finite([x, v, w], q, i, t1)
            })?;
        }
        self.evaluate(problem, t1)?;
        let Self {
            bodies,
            now,
            velocities_half,
            loads,
            ..
        } = self;
        let velocities = &mut now.v;
        let forces = &loads.forces;
        for_each_body!(read bodies, write velocities, read velocities_half, read forces;
        |i, (body, v, v_half, force)| {
            *v = v_half + force * (real::<T>(0.5 * dt) * body.inverse_mass());
            if v.iter().all(|c| c.is_finite()) {
                Ok(())
            } else {
                Err(Error::NonFiniteBody { what: "state", body: i, t: t1 })
            }
        })?;
        let report = clock.advance(&mut self.stats);
        self.clock = Some(clock);
        Ok(report)
    }

    /// The synchronised state at `t_n` (no evaluation).
    ///
    /// # Errors
    /// [`not_started`] before the start.
    fn state(&mut self, _problem: &mut P) -> Result<SystemState<T>> {
        let clock = self.clock.ok_or_else(not_started)?;
        checked(self.now.state(clock.time()))
    }
}
