//! Seelen, Padding and Kuipers' improved predictor–corrector direct multiplication (PCDM)
//! scheme on N bodies in six degrees of freedom.

use crate::body::Frame;
use nalgebra::{Quaternion, Vector3};

use super::arrays::BodyArrays;
use super::body::Body;
use super::forces::{Loads, SystemForces};
use super::plan::{self, checked, for_each_body, impl_body_count, impl_system_info};
use super::state::SystemState;
use crate::body::quaternion::{exp_pure, rotate, rotate_inverse};
use crate::clock::FixedClock;
use crate::error::{Error, Result};
use crate::lie::{Real, real};
use crate::stepper::{NoDenseOutput, Span, Stats, StepReport, Stepper, not_started};

/// The improved PCDM scheme (L. J. H. Seelen, J. T. Padding, J. A. M. Kuipers, *Improved
/// quaternion-based integration scheme for rigid body motion*, Acta Mech. 227 (2016) 3381, §2.2):
/// velocities, angular velocities and rotors at half steps, positions at whole steps, and the
/// loads evaluated once per step with position, velocity, orientation and angular velocity of
/// the **same** time `t_{n+1}` (predicted):
///
/// ```text
/// 1. x_{n+1} = x_n + δt v_{n+½}
/// 2. v'_{n+1} = v_{n+½} + δt/2 F_n/m
///    ω^b_{n+¾} = ω^b_{n+½} + δt/4 ω̇^b_n,   q'_{n+1} = exp(δt/4 · q_{n+½} ω^b_{n+¾} q̄_{n+½}) q_{n+½}
///    ω'^b_{n+1} = ω^b_{n+½} + δt/2 ω̇^b_n
/// 3. loads F_{n+1}, τ_{n+1} at (t_{n+1}, x_{n+1}, v'_{n+1}, q'_{n+1}, ω'^b_{n+1})   (one evaluation)
///    ω̇^b_{n+1} = J⁻¹(τ^b_{n+1} − ω'^b_{n+1} × Jω'^b_{n+1}),  τ^b = q̄'_{n+1} τ q'_{n+1}
/// 4. ω^b_{n+3/2} = ω^b_{n+½} + δt ω̇^b_{n+1}
///    q_{n+3/2} = exp(δt/2 · q'_{n+1} ω'^b_{n+1} q̄'_{n+1}) q_{n+½}
///    v_{n+3/2} = v_{n+½} + δt F_{n+1}/m
/// ```
///
/// with `exp(u) = (cos|u|, sin|u| u/|u|)` (the paper's Eq. 2: a rotor update by direct
/// multiplication, which keeps `|q| = 1` up to round-off with no renormalisation; the
/// round-off accumulates, without bound: `|q| − 1 = −5.7e-12` after 10⁷ steps of a tumbling
/// asymmetric body, 6e-19 per step on average, `crates/lieode/tests/rotation_renormalisation.rs`;
/// a fuzz saw up to 1.6e-17 per step). The paper's
/// step 2 uses `ω^b_{n+¾}` in the lab frame of `q_{n+½}` and `ω'^b_{n+1}` in that of `q'_{n+1}`,
/// as written here.
///
/// **Start** (not specified by the paper; ours): the loads at the synchronised initial state,
/// `ω̇^b_0` from them, and the same predictors from `t₀` by half a step:
/// `v_{½} = v_0 + δt/2 F_0/m`, `ω^b_{½} = ω^b_0 + δt/2 ω̇^b_0`,
/// `q_{½} = exp(δt/4 · q_0 ω^b_{¼} q̄_0) q_0` with `ω^b_{¼} = ω^b_0 + δt/4 ω̇^b_0`.
///
/// **Synchronised state** ([`Stepper::state`]): the whole-step values the scheme computes for
/// its loads — `x_n`, `v'_n`, `q'_n`, `ω'^b_n` — at no extra evaluation (the initial state
/// itself before the first step).
///
/// **Velocity-dependent loads** see the predicted `v'_{n+1}` and `ω'^b_{n+1}` of the same time
/// as the positions and rotors.
///
/// With the `parallel` feature the bodies are processed on rayon's pool; results are identical
/// for any number of threads.
#[derive(Debug, Clone)]
pub struct ImprovedPcdmSystem<T: Real = f64> {
    bodies: Vec<Body<T>>,
    clock: Option<FixedClock>,
    /// `v_{n+½}`, `q_{n+½}`, `ω^b_{n+½}`.
    velocities_half: Vec<Vector3<T>>,
    rotors_half: Vec<Quaternion<T>>,
    omegas_half: Vec<Vector3<T>>,
    /// `ω̇^b_n`.
    accelerations: Vec<Vector3<T>>,
    /// `x_n` and the predicted whole-step values `v'_n`, `q'_n`, `ω'^b_n` the loads were
    /// evaluated at.
    now: BodyArrays<T>,
    /// `F_n`, `τ_n` and the frame of the torques.
    loads: Loads<T>,
    frame: Frame,
    stats: Stats,
}

impl<T: Real> ImprovedPcdmSystem<T> {
    /// The scheme for `bodies` (one entry per body).
    pub fn new(bodies: Vec<Body<T>>) -> Self {
        Self {
            loads: Loads::zeros(bodies.len()),
            bodies,
            clock: None,
            velocities_half: Vec::new(),
            rotors_half: Vec::new(),
            omegas_half: Vec::new(),
            accelerations: Vec::new(),
            now: BodyArrays::default(),
            frame: Frame::Body,
            stats: Stats::default(),
        }
    }

    /// The half-step rotors `q_{n+½}` the scheme carries (the paper's orientation variable).
    pub fn half_step_rotors(&self) -> &[Quaternion<T>] {
        &self.rotors_half
    }

    /// The loads at `t` for the positions and the predicted whole-step values, and from them
    /// every body's `ω̇^b`.
    fn evaluate<P: SystemForces<T> + ?Sized>(&mut self, problem: &mut P, t: f64) -> Result<()> {
        let n = self.bodies.len();
        self.frame = self
            .loads
            .evaluate(problem, &self.now.view(t), n, &mut self.stats, true)?;
        let Self {
            bodies,
            now,
            accelerations,
            loads,
            frame,
            ..
        } = self;
        let (torques, frame, rotors, omegas) = (&loads.torques, *frame, &now.q, &now.w);
        for_each_body!(read bodies, read rotors, read omegas, read torques, write accelerations;
        |_i, (body, q, w, torque, a)| {
            let tau = match frame {
                Frame::Body => *torque,
                Frame::Lab => rotate_inverse(q, torque),
            };
            *a = body.rigid().angular_acceleration(w, &tau);
            Ok(())
        })
    }
}

/// The lab-frame rotor increment `exp(h · q ω^b q̄)` of a body-frame angular velocity `ω^b`
/// seen in the frame of `q`, applied on the left of `base`.
#[inline(always)]
pub(super) fn turn<T: Real>(
    q: &Quaternion<T>,
    omega_body: &Vector3<T>,
    h: f64,
    base: &Quaternion<T>,
) -> Quaternion<T> {
    exp_pure(&(rotate(q, omega_body) * real::<T>(h))) * base
}

/// Checks a body's carried state at `t`.
#[inline(always)]
pub(super) fn finite<T: Real>(
    values: [&Vector3<T>; 3],
    q: &Quaternion<T>,
    body: usize,
    t: f64,
) -> Result<()> {
    let all = values.iter().all(|v| v.iter().all(|c| c.is_finite()))
        && q.coords.iter().all(|c| c.is_finite());
    if all {
        Ok(())
    } else {
        Err(Error::NonFiniteBody {
            what: "state",
            body,
            t,
        })
    }
}

impl_body_count!(ImprovedPcdmSystem);

impl_system_info!(ImprovedPcdmSystem<T> where T: crate::lie::Real, |_s| "improved_pcdm");

impl<T: Real, P: SystemForces<T> + ?Sized> Stepper<P> for ImprovedPcdmSystem<T> {
    type State = SystemState<T>;
    type Segment = NoDenseOutput<SystemState<T>>;

    /// Starts from the synchronised state `y0` on a fixed-step span: the loads at `t₀` (one
    /// evaluation) and the half-step predictors (see the type's documentation).
    ///
    /// # Errors
    /// Those of [`SystemState::validate`]; [`Error::InvalidParameter`] naming `y0` for another
    /// number of bodies, naming `span` for an adaptive span or a negative step;
    /// [`Error::NonFiniteBody`] for non-finite loads.
    fn start(&mut self, problem: &mut P, span: &Span, y0: &SystemState<T>) -> Result<()> {
        // A failed start must leave the stepper unstarted, not on the previous run.
        self.clock = None;
        let clock = plan::start(self.len(), span, y0, problem.body_count())?;
        let dt = clock.dt();
        self.stats = Stats::default();
        self.now.assign(y0);
        self.accelerations = vec![Vector3::zeros(); y0.len()];
        self.loads = Loads::zeros(y0.len());
        self.evaluate(problem, y0.t)?;
        self.velocities_half.clone_from(&y0.velocities);
        self.rotors_half.clone_from(&y0.rotors);
        self.omegas_half.clone_from(&y0.omegas);
        for i in 0..self.len() {
            let a = self.accelerations[i];
            let q0 = y0.rotors[i];
            self.velocities_half[i] +=
                self.loads.forces[i] * (real::<T>(0.5 * dt) * self.bodies[i].inverse_mass());
            let quarter = y0.omegas[i] + a * real::<T>(0.25 * dt);
            self.rotors_half[i] = turn(&q0, &quarter, 0.25 * dt, &q0);
            self.omegas_half[i] = y0.omegas[i] + a * real::<T>(0.5 * dt);
        }
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
                rotors_half,
                omegas_half,
                accelerations,
                loads,
                ..
            } = self;
            let BodyArrays {
                x: positions,
                v: velocities,
                q: rotors,
                w: omegas,
            } = now;
            let forces = &loads.forces;
            for_each_body!(read bodies, write positions, read velocities_half, read rotors_half,
            read omegas_half, read accelerations, write velocities, write rotors,
            write omegas, read forces;
            |i, (body, x, v_half, q_half, w_half, a, v, q, w, force)| {
                *x += *v_half * real::<T>(dt);
                *v = v_half + force * (real::<T>(0.5 * dt) * body.inverse_mass());
                let three_quarter = w_half + a * real::<T>(0.25 * dt);
                *q = turn(q_half, &three_quarter, 0.25 * dt, q_half);
                *w = w_half + a * real::<T>(0.5 * dt);
                finite([x, v, w], q, i, t1)
            })?;
        }
        self.evaluate(problem, t1)?;
        let Self {
            bodies,
            velocities_half,
            rotors_half,
            omegas_half,
            accelerations,
            now,
            loads,
            ..
        } = self;
        let (forces, rotors, omegas) = (&loads.forces, &now.q, &now.w);
        for_each_body!(read bodies, write velocities_half, write rotors_half, write omegas_half,
        read accelerations, read rotors, read omegas, read forces;
        |i, (body, v_half, q_half, w_half, a, q, w, force)| {
            *w_half += a * real::<T>(dt);
            *q_half = turn(q, w, 0.5 * dt, q_half);
            *v_half += force * (real::<T>(dt) * body.inverse_mass());
            finite([v_half, w_half, w_half], q_half, i, t1)
        })?;
        let report = clock.advance(&mut self.stats);
        self.clock = Some(clock);
        Ok(report)
    }

    /// The whole-step values at `t_n` the scheme evaluated its loads at (no evaluation).
    ///
    /// # Errors
    /// [`not_started`] before the start.
    fn state(&mut self, _problem: &mut P) -> Result<SystemState<T>> {
        let clock = self.clock.ok_or_else(not_started)?;
        checked(self.now.state(clock.time()))
    }
}
