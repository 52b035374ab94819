//! Classical RK4 on N bodies in six degrees of freedom: the same stages for translation and
//! rotation.

use crate::body::Frame;
use nalgebra::{Quaternion, Vector3};

use super::arrays::BodyArrays;
use super::body::Body;
use super::forces::{Loads, SystemForces};
use super::plan::{self, checked, impl_body_count, impl_system_info, non_finite_body};
use super::state::SystemState;
use crate::body::quaternion::{normalize, pure, rotate_inverse};
use crate::clock::FixedClock;
use crate::error::Result;
use crate::lie::{Real, real};
use crate::stepper::{NoDenseOutput, Span, Stats, StepReport, Stepper, not_started};
use crate::tableau::registry::RK4;

/// Classical RK4 (Kutta 1901; the tableau [`RK4`]) on every body's 13-component ambient state
/// `(x, v, q, ω_b)`,
///
/// ```text
/// ẋ = v,   v̇ = F/m,   q̇ = ½ q ⊗ (0, ω_b),   ω̇_b = J⁻¹(τ_b − ω_b × J ω_b)
/// ```
///
/// with the loads of the whole system evaluated at each of the four stage states (four
/// evaluations per step, at the stage times, stage rotors and stage velocities — velocity-
/// dependent loads included, so the method keeps its order 4 with them). Each rotor is
/// normalised after the step, as the rotational catalogue's RK4 does by default; with one body
/// and a body-frame torque it is that method ([`crate::rotation::Rk4`]) bit for bit (tested).
/// Lab-frame torques are rotated into the body frame with each stage rotor.
///
/// With the `parallel` feature each stage's update runs over the bodies on rayon's pool;
/// results are identical for any number of threads.
#[derive(Debug, Clone)]
pub struct Rk4System<T: Real = f64> {
    bodies: Vec<Body<T>>,
    /// The running step layout (`None` before the start).
    clock: Option<FixedClock>,
    /// `y_n`.
    state: BodyArrays<T>,
    /// The stage state `y_n + h a_{i,i−1} k_{i−1}`.
    stage: BodyArrays<T>,
    /// `y_{n+1}` as it accumulates `h b_i k_i`.
    next: BodyArrays<T>,
    loads: Loads<T>,
    stats: Stats,
}

impl<T: Real> Rk4System<T> {
    /// The method for `bodies` (one entry per body).
    pub fn new(bodies: Vec<Body<T>>) -> Self {
        let n = bodies.len();
        Self {
            bodies,
            clock: None,
            state: BodyArrays::default(),
            stage: BodyArrays::default(),
            next: BodyArrays::default(),
            loads: Loads::zeros(n),
            stats: Stats::default(),
        }
    }
}

impl_body_count!(Rk4System);

impl_system_info!(Rk4System<T> where T: crate::lie::Real, |_s| "rk4");

/// One body's stage: the derivative `k` at the stage state, added to `next` with `h b`, and
/// the next stage state `y_n + h a k` (when `a` is given).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn stage_body<T: Real>(
    body: &Body<T>,
    frame: Frame,
    hb: f64,
    ha: Option<f64>,
    y: (&Vector3<T>, &Vector3<T>, &Quaternion<T>, &Vector3<T>),
    s: (
        &mut Vector3<T>,
        &mut Vector3<T>,
        &mut Quaternion<T>,
        &mut Vector3<T>,
    ),
    n: (
        &mut Vector3<T>,
        &mut Vector3<T>,
        &mut Quaternion<T>,
        &mut Vector3<T>,
    ),
    force: &Vector3<T>,
    torque: &Vector3<T>,
) {
    let (hb, ha) = (real::<T>(hb), ha.map(real::<T>));
    let tau = match frame {
        Frame::Body => *torque,
        Frame::Lab => rotate_inverse(s.2, torque),
    };
    // k = (v, F/m, ½ q ⊗ ω, ω̇) at the stage state.
    let kx = *s.1;
    let kv = force * body.inverse_mass();
    let kq = (*s.2 * pure(s.3)) * real::<T>(0.5);
    let kw = body.rigid().angular_acceleration(s.3, &tau);
    *n.0 += kx * hb;
    *n.1 += kv * hb;
    *n.2 += kq * hb;
    *n.3 += kw * hb;
    if let Some(ha) = ha {
        *s.0 = y.0 + kx * ha;
        *s.1 = y.1 + kv * ha;
        *s.2 = y.2 + kq * ha;
        *s.3 = y.3 + kw * ha;
    }
}

impl<T: Real, P: SystemForces<T> + ?Sized> Stepper<P> for Rk4System<T> {
    type State = SystemState<T>;
    type Segment = NoDenseOutput<SystemState<T>>;

    /// Starts at `y0` on a fixed-step span.
    ///
    /// # Errors
    /// Those of [`SystemState::validate`]; [`crate::Error::InvalidParameter`] naming `y0` for another
    /// number of bodies, naming `span` for an adaptive span or a non-positive step.
    fn start(&mut self, problem: &mut P, span: &Span, y0: &SystemState<T>) -> Result<()> {
        // A failed start must leave the stepper unstarted, not on the previous run.
        self.clock = None;
        let clock = plan::start(self.bodies.len(), span, y0, problem.body_count())?;
        self.state.assign(y0);
        self.stage = self.state.clone();
        self.next = self.state.clone();
        self.loads = Loads::zeros(y0.len());
        self.stats = Stats::default();
        self.clock = Some(clock);
        Ok(())
    }

    /// One step of every body: four load evaluations.
    ///
    /// # Errors
    /// [`crate::Error::NonFiniteBody`] naming the first body with non-finite loads or new state, and
    /// the time; [`not_started`] before the start.
    fn step(&mut self, problem: &mut P) -> Result<StepReport> {
        let mut clock = self.clock.ok_or_else(not_started)?;
        let (t, h) = (clock.time(), clock.dt());
        let frame = problem.torque_frame();
        self.stage.clone_from(&self.state);
        self.next.clone_from(&self.state);
        for i in 0..4 {
            let t_stage = t + RK4.c[i] * h;
            let view = self.stage.view(t_stage);
            self.loads
                .evaluate(problem, &view, self.bodies.len(), &mut self.stats, true)?;
            let hb = h * RK4.b[i];
            let ha = (i < 3).then(|| h * RK4.a[(i + 1) * 4 + i]);
            stage_all(self, frame, hb, ha);
        }
        for q in &mut self.next.q {
            *q = normalize(q);
        }
        let n = &self.next;
        if let Some(error) = non_finite_body(clock.next_time(), &n.x, &n.v, &n.q, &n.w) {
            return Err(error);
        }
        std::mem::swap(&mut self.state, &mut self.next);
        let report = clock.advance(&mut self.stats);
        self.clock = Some(clock);
        Ok(report)
    }

    fn state(&mut self, _problem: &mut P) -> Result<SystemState<T>> {
        let clock = self.clock.ok_or_else(not_started)?;
        checked(self.state.state(clock.time()))
    }
}

/// A body's read-only state `(x, v, q, ω)`.
type Body4<'a, T> = (
    &'a Vector3<T>,
    &'a Vector3<T>,
    &'a Quaternion<T>,
    &'a Vector3<T>,
);

/// A body's writable state `(x, v, q, ω)`.
type Body4Mut<'a, T> = (
    &'a mut Vector3<T>,
    &'a mut Vector3<T>,
    &'a mut Quaternion<T>,
    &'a mut Vector3<T>,
);

/// What one stage of one body works on: the body, `y_n`, the stage state, `y_{n+1}` and the
/// loads.
type StageItem<'a, T> = (
    (
        (
            ((&'a Body<T>, Body4<'a, T>), Body4Mut<'a, T>),
            Body4Mut<'a, T>,
        ),
        &'a Vector3<T>,
    ),
    &'a Vector3<T>,
);

/// One stage over every body (in parallel with the `parallel` feature).
fn stage_all<T: Real>(s: &mut Rk4System<T>, frame: Frame, hb: f64, ha: Option<f64>) {
    let Rk4System {
        bodies,
        state,
        stage,
        next,
        loads,
        ..
    } = s;
    let one = |(((((b, y), st), nx), f), tau): StageItem<'_, T>| {
        stage_body(b, frame, hb, ha, y, st, nx, f, tau)
    };
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        let y = (
            state.x.par_iter(),
            state.v.par_iter(),
            state.q.par_iter(),
            state.w.par_iter(),
        )
            .into_par_iter();
        let st = (
            stage.x.par_iter_mut(),
            stage.v.par_iter_mut(),
            stage.q.par_iter_mut(),
            stage.w.par_iter_mut(),
        )
            .into_par_iter();
        let nx = (
            next.x.par_iter_mut(),
            next.v.par_iter_mut(),
            next.q.par_iter_mut(),
            next.w.par_iter_mut(),
        )
            .into_par_iter();
        bodies
            .par_iter()
            .zip(y)
            .zip(st)
            .zip(nx)
            .zip(loads.forces.par_iter())
            .zip(loads.torques.par_iter())
            .with_min_len(super::PARALLEL_CHUNK)
            .for_each(one);
    }
    #[cfg(not(feature = "parallel"))]
    {
        let y = state
            .x
            .iter()
            .zip(&state.v)
            .zip(&state.q)
            .zip(&state.w)
            .map(|(((x, v), q), w)| (x, v, q, w));
        let st = stage
            .x
            .iter_mut()
            .zip(stage.v.iter_mut())
            .zip(stage.q.iter_mut())
            .zip(stage.w.iter_mut())
            .map(|(((x, v), q), w)| (x, v, q, w));
        let nx = next
            .x
            .iter_mut()
            .zip(next.v.iter_mut())
            .zip(next.q.iter_mut())
            .zip(next.w.iter_mut())
            .map(|(((x, v), q), w)| (x, v, q, w));
        bodies
            .iter()
            .zip(y)
            .zip(st)
            .zip(nx)
            .zip(&loads.forces)
            .zip(&loads.torques)
            .for_each(one);
    }
}
