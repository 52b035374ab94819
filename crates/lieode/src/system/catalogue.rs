//! Every one-stage method of the rotational catalogue on N bodies in six degrees of freedom,
//! with the Störmer–Verlet translation: the many-body adapter of [`RigidBodyMethod`].

use nalgebra::{Quaternion, Vector3};

use super::body::Body;
use super::forces::{
    BodyModel, BodyModelVisitor, BodyView, Loads, METHOD_STATE, SystemForces, SystemView,
};
use super::plan::{self, checked, for_each_body, impl_system_info};
use super::state::SystemState;
use crate::body::quaternion::rotate_inverse;
use crate::body::{Frame, RigidBody};
use crate::clock::FixedClock;
use crate::error::{Error, Result};
use crate::lie::{Real, real, to_f64};
use crate::rotation::{
    Carried, CarriedMut, Renormaliser, RigidBodyMethod, SingleBody, TorquePoint,
};
use crate::sensitivity::Dual;
use crate::stepper::{NoDenseOutput, Span, Stats, StepReport, Stepper, not_started};

/// A one-stage method `K` of the rotational catalogue ([`RigidBodyMethod`]: SPIRAL leapfrog and
/// non-leapfrog, SPIRAL+Omelyan, SPIRAL–Magnus, Omelyan, Fincham, Velocity Verlet, Direct Euler, Buss,
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
/// `ω*` is the angular velocity the method hands its torque ([`RigidBodyMethod::prepare`]):
/// `ω_{n−½}` for the leapfrog rotations, `ω_n` for SPIRAL, Direct Euler and Buss, `ω_{n+½}` for
/// Velocity Verlet, `J⁻¹R(q_{n+1})ᵀL_n` for Johnson. **Velocity-dependent forces** therefore see
/// a velocity half a step behind the positions in both forms, and are first-order accurate
/// (measured, `tests/system_catalogue.rs`). Lab-frame torques are rotated into the body frame
/// with the rotor of the torque point.
///
/// **The start** evaluates the loads at `(t_0, x_0, v_0, start_rotor(q_0), ω_0)` for every
/// method; a method with more start evaluations (SPIRAL–Magnus's predictor at `t_0 + Δt`)
/// evaluates the loads again at its start points, with the positions and velocities of `t_0`.
///
/// Each body's rotation is the method's one definition applied to that body's carried state
/// (e.g. Fincham's `L_{n−½}`); the positions, velocities and carried states are arrays, and
/// equal bodies share one set of the method's constants. With one body under a body-frame
/// torque the rotation is the single-body stepper ([`SingleBody`]) bit for bit (tested).
///
/// **One pass per step.** For a force model whose loads on a body depend on that body alone
/// ([`crate::system::PerBody`]), each body's loads are evaluated inside its update
/// ([`SystemForces::with_body_model`]): one pass over memory, the same arithmetic as the
/// two-pass step every other model takes (prepare every body, evaluate the model once, finish
/// every body).
///
/// With the `parallel` feature the bodies are processed on rayon's pool; each body's update is
/// independent, so results are identical for any number of threads.
#[derive(Debug, Clone)]
pub struct CatalogueSystem<K: RigidBodyMethod<T>, T: Real = f64> {
    method: K,
    /// The end-of-step normalisation policy (its count restarts with every run).
    renormaliser: Renormaliser,
    bodies: Vec<Body<T>>,
    /// The distinct bodies with the method's constants for the run's step (set by `start`).
    kinds: Vec<(Body<T>, K::Constants)>,
    /// Each body's entry in `kinds` (a uniform system reads one cached entry).
    kind_of: Vec<u32>,
    /// The run's clock (`None` before the start).
    clock: Option<FixedClock>,
    /// The normalisation count of the run.
    counting: Renormaliser,
    positions: Vec<Vector3<T>>,
    /// `v_{n−½}` (torque at `t_n`) or `v_n` (torque at `t_{n+1}`).
    velocities: Vec<Vector3<T>>,
    /// The carried states ([`Carried`]) as three arrays: the rotors, the angular velocities and
    /// the methods' further state. A force model reads the first two in place where the method's
    /// torque point is its carried state ([`RigidBodyMethod::POINT_IS_CARRIED`]).
    rotors: Vec<Quaternion<T>>,
    omegas: Vec<Vector3<T>>,
    extras: Vec<K::Extra>,
    /// What each body's `prepare` handed to its `finish` (the two-pass step).
    pending: Vec<K::Pending>,
    /// The rotors and angular velocities of the torque points where they are not the carried
    /// state (the start's points, and the two-pass step's view for the other methods).
    at_rotors: Vec<Quaternion<T>>,
    at_omegas: Vec<Vector3<T>>,
    /// The last loads and the frame of their torques (the velocity Verlet form kicks with them).
    loads: Loads<T>,
    frame: Frame,
    stats: Stats,
}

impl<K: RigidBodyMethod<T>, T: Real> CatalogueSystem<K, T> {
    /// The method of the single-body stepper `make(body)` (e.g. `Fincham::new`, or a closure
    /// setting a normalisation policy: its definition and policy are shared by every body) on
    /// `bodies`.
    pub fn new(bodies: Vec<Body<T>>, make: impl Fn(RigidBody<T>) -> SingleBody<K, T>) -> Self {
        let single = make(
            bodies
                .first()
                .map_or_else(|| unit_sphere().cast(), |b| *b.rigid()),
        );
        let (renormaliser, method) = single.parts();
        Self {
            method: method.clone(),
            renormaliser,
            loads: Loads::zeros(bodies.len()),
            bodies,
            kinds: Vec::new(),
            kind_of: Vec::new(),
            clock: None,
            counting: renormaliser,
            positions: Vec::new(),
            velocities: Vec::new(),
            rotors: Vec::new(),
            omegas: Vec::new(),
            extras: Vec::new(),
            pending: Vec::new(),
            at_rotors: Vec::new(),
            at_omegas: Vec::new(),
            frame: Frame::Body,
            stats: Stats::default(),
        }
    }

    /// `n` copies of `body`.
    pub fn uniform(
        body: Body<T>,
        n: usize,
        make: impl Fn(RigidBody<T>) -> SingleBody<K, T>,
    ) -> Self {
        Self::new(vec![body; n], make)
    }

    /// The number of bodies.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// Whether there are no bodies.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    /// The method's definition.
    pub fn method(&self) -> &K {
        &self.method
    }

    /// The arrays the method carries between steps, read in place (for a binding's array views
    /// without a copy per step): at `t_n`, the positions `x_n`, the velocities of the
    /// translation's form (`v_{n−½}` in the leapfrog form, `v_n` in the velocity Verlet form,
    /// [`RigidBodyMethod::TORQUE_AT_END`]), the rotors `q_n` and the angular velocities the
    /// method carries ([`Carried::omega`]: `ω_{n−½}` for the leapfrog rotations). Where the
    /// method's torque point is its carried state ([`RigidBodyMethod::POINT_IS_CARRIED`]) and
    /// the torque is taken at `t_n`, this is also the view the next step hands the force model.
    /// `None` before the start.
    ///
    /// The steps update these arrays in place: their addresses change only when a run starts.
    ///
    /// # Examples
    /// ```
    /// use lieode::rotation::{NoTorque, SpiralLeapfrog};
    /// use lieode::stepper::{Span, Stepper};
    /// use lieode::system::{Body, EveryBody, SpiralLeapfrogSystem, SystemState};
    ///
    /// let body = Body::new(1.0, [1.0; 3])?;
    /// let mut system = SpiralLeapfrogSystem::uniform(body, 2, SpiralLeapfrog::new);
    /// assert!(system.arrays().is_none());
    /// let mut free = EveryBody(NoTorque);
    /// system.start(&mut free, &Span::open(0.0, 1e-2)?, &SystemState::at_rest(0.0, 2))?;
    /// system.step(&mut free)?;
    /// let view = system.arrays().expect("started");
    /// assert_eq!((view.t, view.positions.len()), (1e-2, 2));
    /// # Ok::<(), lieode::Error>(())
    /// ```
    pub fn arrays(&self) -> Option<SystemView<'_, T>> {
        let clock = self.clock?;
        Some(SystemView {
            t: clock.time(),
            positions: &self.positions,
            velocities: &self.velocities,
            rotors: &self.rotors,
            omegas: &self.omegas,
        })
    }

    /// The buffers the next load evaluation hands the force model — the forces and the torques
    /// (in the model's frame), one per body — holding the last evaluation's loads; `None` before
    /// the start. A caller may fill them in place and step with a model that
    /// [assigns every load](SystemForces::assigns_every_load) and writes nothing (a binding's
    /// writable array views, without a copy per step): the step then uses them as they are.
    /// As for a model, buffers resized by the caller are refused at the next evaluation, naming
    /// `loads`.
    ///
    /// In the velocity Verlet form ([`RigidBodyMethod::TORQUE_AT_END`]: Velocity Verlet,
    /// Johnson) the forces held here are `F_n`, which the next step's first half kick uses
    /// before its evaluation: filling them in place before that step replaces `F_n` too, so
    /// such a method takes its loads from a model that writes them. The buffers' addresses
    /// change only when a run starts.
    pub fn load_buffers(&mut self) -> Option<&mut Loads<T>> {
        self.clock?;
        Some(&mut self.loads)
    }

    /// The state the method carries for body `i` (`None` before the start or out of range).
    pub fn carried(&self, i: usize) -> Option<Carried<K::Extra, T>> {
        self.clock?;
        Some(Carried::new(
            *self.rotors.get(i)?,
            *self.omegas.get(i)?,
            *self.extras.get(i)?,
        ))
    }

    /// The rotors of the coming step's torque points.
    fn point_rotors(&self) -> &[Quaternion<T>] {
        if K::POINT_IS_CARRIED {
            &self.rotors
        } else {
            &self.at_rotors
        }
    }

    /// Every body's `prepare` for the coming step: what it hands to `finish` into `pending`,
    /// and its torque point into `at_rotors` and `at_omegas` where the point is not the carried
    /// state. Nothing to do for a method whose point is its carried state and which hands
    /// nothing on.
    fn prepare(&mut self, renormalise: bool, dt: f64) {
        if K::POINT_IS_CARRIED && core::mem::size_of::<K::Pending>() == 0 {
            return;
        }
        let Self {
            method,
            kinds,
            kind_of,
            rotors,
            omegas,
            extras,
            pending,
            at_rotors,
            at_omegas,
            ..
        } = self;
        let kinds = &*kinds;
        let method = &*method;
        let dt = real::<T>(dt);
        let result: Result<()> = if K::POINT_IS_CARRIED {
            for_each_body!(read kind_of, read rotors, read omegas, read extras, write pending;
            |_i, (k, q, w, e, pending)| {
                let c = Carried::new(*q, *w, *e);
                *pending = method.prepare(&kinds[*k as usize].1, &c, renormalise, dt).0;
                Ok(())
            })
        } else {
            for_each_body!(read kind_of, read rotors, read omegas, read extras, write pending,
                write at_rotors, write at_omegas;
            |_i, (k, q, w, e, pending, at_q, at_w)| {
                let c = Carried::new(*q, *w, *e);
                let (p, at) = method.prepare(&kinds[*k as usize].1, &c, renormalise, dt);
                (*pending, *at_q, *at_w) = (p, at.q, at.omega);
                Ok(())
            })
        };
        debug_assert!(result.is_ok());
    }

    /// The loads at `t` for the positions, the carried velocities and the torque points (the
    /// start's points in `at_rotors` and `at_omegas` if `start`, else those of the coming step),
    /// checked to be finite (at the start and the synchronisation; a step checks them in its
    /// second pass, [`CatalogueSystem::evaluate_unchecked`]).
    fn evaluate<P: SystemForces<T> + ?Sized>(
        &mut self,
        problem: &mut P,
        t: f64,
        start: bool,
    ) -> Result<()> {
        self.evaluate_loads(problem, t, true, start)
    }

    /// [`CatalogueSystem::evaluate`] at the coming step's points without the finiteness scan
    /// (the number of loads is still checked): one pass over the loads fewer per step.
    fn evaluate_unchecked<P: SystemForces<T> + ?Sized>(
        &mut self,
        problem: &mut P,
        t: f64,
    ) -> Result<()> {
        self.evaluate_loads(problem, t, false, false)
    }

    fn evaluate_loads<P: SystemForces<T> + ?Sized>(
        &mut self,
        problem: &mut P,
        t: f64,
        finite: bool,
        start: bool,
    ) -> Result<()> {
        let (rotors, omegas) = if K::POINT_IS_CARRIED && !start {
            (&self.rotors, &self.omegas)
        } else {
            (&self.at_rotors, &self.at_omegas)
        };
        let view = SystemView {
            t,
            positions: &self.positions,
            velocities: &self.velocities,
            rotors,
            omegas,
        };
        let n = self.bodies.len();
        self.frame = self
            .loads
            .evaluate(problem, &view, n, &mut self.stats, finite)?;
        Ok(())
    }

    /// The two-pass step's second pass: every body's rotation finished with its torque from the
    /// loads, and the translational kick `v += kick·Δt F/m` (then, if `drift`, `x += Δt v`).
    fn finish(&mut self, tick: Tick, kick: f64, drift: bool) -> Result<()> {
        let Self {
            method,
            kinds,
            kind_of,
            positions,
            velocities,
            rotors,
            omegas,
            extras,
            pending,
            at_rotors,
            at_omegas,
            loads,
            frame,
            ..
        } = self;
        let (kinds, method, frame) = (&*kinds, &*method, *frame);
        let (forces, torques) = (&loads.forces, &loads.torques);
        // The frame and the normalisation are matched once per pass, as in the fused step.
        macro_rules! pass {
            ($lab:literal, $renormalise:literal) => {
                if K::POINT_IS_CARRIED {
                    // The torque point is the carried state: no arrays of points.
                    for_each_body!(read kind_of, write positions, write velocities,
                        write rotors, write omegas, write extras, read pending, read forces,
                        read torques;
                    |i, (k, x, v, q, w, e, pending, force, torque)| {
                        let at = TorquePoint { q: *q, omega: *w };
                        let c = CarriedMut { q, omega: w, extra: e };
                        finish_body::<K, T, $lab, $renormalise>(
                            method, &kinds[*k as usize], tick, kick, drift, i, x, v, c,
                            *pending, at, force, torque,
                        )
                    })
                } else {
                    for_each_body!(read kind_of, write positions, write velocities,
                        write rotors, write omegas, write extras, read pending, read at_rotors,
                        read at_omegas, read forces, read torques;
                    |i, (k, x, v, q, w, e, pending, at_q, at_w, force, torque)| {
                        let at = TorquePoint { q: *at_q, omega: *at_w };
                        let c = CarriedMut { q, omega: w, extra: e };
                        finish_body::<K, T, $lab, $renormalise>(
                            method, &kinds[*k as usize], tick, kick, drift, i, x, v, c,
                            *pending, at, force, torque,
                        )
                    })
                }
            };
        }
        match (frame, tick.renormalise) {
            (Frame::Body, false) => pass!(false, false),
            (Frame::Body, true) => pass!(false, true),
            (Frame::Lab, false) => pass!(true, false),
            (Frame::Lab, true) => pass!(true, true),
        }
    }
}

/// One body's update in the two-pass step's second pass: the rotation finished with the
/// body-frame torque at the point `at` (a lab-frame torque rotated with its rotor if `LAB`), the
/// translational kick `v += kick·Δt F/m` (then, if `drift`, `x += Δt v`); a non-finite result
/// is named by [`fused_error`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn finish_body<K: RigidBodyMethod<T>, T: Real, const LAB: bool, const RENORMALISE: bool>(
    method: &K,
    kind: &(Body<T>, K::Constants),
    tick: Tick,
    kick: f64,
    drift: bool,
    i: usize,
    x: &mut Vector3<T>,
    v: &mut Vector3<T>,
    carried: CarriedMut<'_, K::Extra, T>,
    pending: K::Pending,
    at: TorquePoint<T>,
    force: &Vector3<T>,
    torque: &Vector3<T>,
) -> Result<()> {
    let (body, constants) = kind;
    let tau = if LAB {
        rotate_inverse(&at.q, torque)
    } else {
        *torque
    };
    let dt = real::<T>(tick.dt);
    let rotation_finite = method.finish(constants, carried, pending, &tau, RENORMALISE, dt);
    *v += force * (real::<T>(kick * tick.dt) * body.inverse_mass());
    if drift {
        *x += *v * dt;
    }
    // One branch per body; the loads were not scanned (a non-finite load makes the new state
    // non-finite, and is named here).
    if rotation_finite & (zero(x) + zero(v) == T::zero()) {
        Ok(())
    } else {
        Err(fused_error(tick, i, at, force, torque))
    }
}

/// What a step hands every body: the time of the loads, `t_{n+1}`, the step and whether the
/// rotor is normalised.
#[derive(Debug, Clone, Copy)]
struct Tick {
    t: f64,
    t_next: f64,
    dt: f64,
    renormalise: bool,
}

/// The body-frame torque at rotor `q` of a model's torque.
#[inline(always)]
fn body_torque<T: Real>(frame: Frame, q: &Quaternion<T>, tau: &Vector3<T>) -> Vector3<T> {
    match frame {
        Frame::Body => *tau,
        Frame::Lab => rotate_inverse(q, tau),
    }
}

/// Checks a body's position and velocity at `t` (the velocity Verlet form's first pass).
#[inline(always)]
fn finite<T: Real>(x: &Vector3<T>, v: &Vector3<T>, body: usize, t: f64) -> Result<()> {
    if zero(x) + zero(v) == T::zero() {
        Ok(())
    } else {
        Err(Error::NonFiniteBody {
            what: "state",
            body,
            t,
        })
    }
}

/// `0·a` summed over the entries: ±0 for a finite vector, NaN otherwise (one branch for a body).
#[inline(always)]
fn zero<T: Real>(a: &Vector3<T>) -> T {
    (a.x * T::zero() + a.y * T::zero()) + a.z * T::zero()
}

/// Whether every entry of the vectors is finite.
fn all_finite<T: Real>(vectors: &[&Vector3<T>]) -> bool {
    vectors.iter().all(|v| v.iter().all(|x| x.is_finite()))
}

/// The error of a fused body update that produced something non-finite: the method's own
/// torque point if it was not finite (the model cannot be blamed), else a non-finite force or
/// torque at the time of the loads, else the new state at `t_{n+1}`.
#[cold]
#[inline(never)]
fn fused_error<T: Real>(
    tick: Tick,
    i: usize,
    at: TorquePoint<T>,
    force: &Vector3<T>,
    torque: &Vector3<T>,
) -> Error {
    let at_finite =
        at.q.coords
            .iter()
            .chain(at.omega.iter())
            .all(|x| x.is_finite());
    let (what, t) = if !at_finite {
        (METHOD_STATE, tick.t)
    } else if !all_finite(&[force]) {
        ("force", tick.t)
    } else if !all_finite(&[torque]) {
        ("torque", tick.t)
    } else {
        ("state", tick.t_next)
    };
    Error::NonFiniteBody { what, body: i, t }
}

impl_system_info!(CatalogueSystem<K, T> where K: RigidBodyMethod<T>, T: Real, |s| s.method.info().name);

/// The run shared by the steppers over `f64` and over dual numbers.
impl<K: RigidBodyMethod<T>, T: Real> CatalogueSystem<K, T> {
    /// Starts from the synchronised state `y0` on a fixed-step span: the loads at `t₀` (one
    /// evaluation, at each method's start rotor), each body's method started with its torque
    /// there (and at its further start points, one evaluation each), and for the leapfrog form
    /// half a step back for the velocity.
    ///
    /// # Errors
    /// Those of [`SystemState::validate`] and [`FixedClock::forward`];
    /// [`Error::InvalidParameter`] naming `y0` for another number of bodies;
    /// [`Error::NonFiniteBody`] for non-finite loads or a non-finite start of a body.
    fn begin_run<P: SystemForces<T> + ?Sized>(
        &mut self,
        problem: &mut P,
        span: &Span,
        y0: &SystemState<T>,
    ) -> Result<()> {
        const {
            assert!(
                K::STAGES == 1,
                "the many-body adapter runs one-stage methods"
            )
        };
        // A failed start must leave the stepper unstarted, not on the previous run.
        self.clock = None;
        let clock = plan::start(self.len(), span, y0, problem.body_count())?;
        let (t0, dt) = (y0.t, clock.dt());
        let (kinds, kind_of) = distinct(&self.bodies);
        self.kinds = (kinds.into_iter())
            .map(|b| {
                let constants = self.method.constants(b.rigid(), real::<T>(dt));
                (b, constants)
            })
            .collect();
        self.kind_of = kind_of;
        self.stats = Stats::default();
        self.positions.clone_from(&y0.positions);
        self.velocities.clone_from(&y0.velocities);
        let mut carried: Vec<Carried<K::Extra, T>> = (0..self.len())
            .map(|i| {
                let k = &self.kinds[self.kind_of[i] as usize].1;
                self.method.begin(k, &y0.rotors[i], &y0.omegas[i])
            })
            .collect();
        self.at_rotors = y0
            .rotors
            .iter()
            .map(|q| self.method.start_rotor(q))
            .collect();
        self.at_omegas.clone_from(&y0.omegas);
        self.loads = Loads::zeros(y0.len());
        self.evaluate(problem, t0, true)?;
        let first_forces = (K::START_EVALUATIONS > 1).then(|| self.loads.forces.clone());
        for stage in 0..K::START_EVALUATIONS {
            if stage > 0 {
                let t = clock.after(stage as u64);
                for (i, c) in carried.iter().enumerate() {
                    let k = &self.kinds[self.kind_of[i] as usize].1;
                    let at = self.method.start_point(k, c, stage, real::<T>(dt));
                    if !all_finite(&[&at.omega]) || !at.q.coords.iter().all(|x| x.is_finite()) {
                        return Err(Error::NonFiniteBody {
                            what: METHOD_STATE,
                            body: i,
                            t,
                        });
                    }
                    (self.at_rotors[i], self.at_omegas[i]) = (at.q, at.omega);
                }
                self.evaluate(problem, t, true)?;
            }
            for (i, c) in carried.iter_mut().enumerate() {
                let k = &self.kinds[self.kind_of[i] as usize].1;
                let tau = body_torque(self.frame, &self.at_rotors[i], &self.loads.torques[i]);
                // Only the leapfrog methods' half step back can overflow here: the method's own
                // state, named before any model sees it.
                if !(self.method).absorb_start(k, c, stage, &tau, real::<T>(dt)) {
                    return Err(Error::NonFiniteBody {
                        what: super::forces::METHOD_STATE_HALF_STEP,
                        body: i,
                        t: t0 - 0.5 * dt,
                    });
                }
            }
        }
        if let Some(forces) = first_forces {
            self.loads.forces = forces;
        }
        if !K::TORQUE_AT_END {
            for (i, &k) in self.kind_of.iter().enumerate() {
                let body = &self.kinds[k as usize].0;
                self.velocities[i] -=
                    self.loads.forces[i] * (real::<T>(0.5 * dt) * body.inverse_mass());
                if !all_finite(&[&self.velocities[i]]) {
                    return Err(Error::NonFiniteBody {
                        what: super::forces::METHOD_STATE_HALF_STEP,
                        body: i,
                        t: t0 - 0.5 * dt,
                    });
                }
            }
        }
        // Every array the passes zip over has one entry per body.
        self.pending = (carried.iter().enumerate())
            .map(|(i, c)| {
                let k = &self.kinds[self.kind_of[i] as usize].1;
                self.method.prepare(k, c, false, real::<T>(dt)).0
            })
            .collect();
        if K::POINT_IS_CARRIED {
            // The steps' points are the carried state; the start's are no longer needed.
            self.at_rotors = Vec::new();
            self.at_omegas = Vec::new();
        }
        self.rotors = carried.iter().map(|c| c.q).collect();
        self.omegas = carried.iter().map(|c| c.omega).collect();
        self.extras = carried.iter().map(|c| c.extra).collect();
        self.counting = self.renormaliser;
        self.counting.reset();
        self.clock = Some(clock);
        Ok(())
    }

    /// What the coming step hands every body (the normalisation count advances).
    fn tick(&mut self, clock: &FixedClock) -> Tick {
        let dt = clock.dt();
        Tick {
            t: if K::TORQUE_AT_END {
                clock.next_time()
            } else {
                clock.time()
            },
            t_next: clock.next_time(),
            dt,
            renormalise: self.counting.due(),
        }
    }

    /// The two-pass step every model but a per-body one takes: prepare every body, evaluate the
    /// model once, finish every body.
    #[inline(always)]
    fn step_two_pass<P: SystemForces<T> + ?Sized>(
        &mut self,
        problem: &mut P,
        tick: Tick,
    ) -> Result<()> {
        let dt = tick.dt;
        if K::TORQUE_AT_END {
            let Self {
                kinds,
                kind_of,
                positions,
                velocities,
                loads,
                ..
            } = self;
            let (kinds, forces) = (&*kinds, &loads.forces);
            for_each_body!(read kind_of, write positions, write velocities, read forces;
            |i, (k, x, v, force)| {
                *v += force * (real::<T>(0.5 * dt) * kinds[*k as usize].0.inverse_mass());
                *x += *v * real::<T>(dt);
                finite(x, v, i, tick.t_next)
            })?;
            self.prepare(tick.renormalise, dt);
            self.evaluate_unchecked(problem, tick.t)?;
            self.finish(tick, 0.5, false)?;
        } else {
            self.prepare(tick.renormalise, dt);
            self.evaluate_unchecked(problem, tick.t)?;
            self.finish(tick, 1.0, true)?;
        }
        Ok(())
    }

    /// The synchronised state at `t_n`; the leapfrog form evaluates the loads once (counted) for
    /// `v_n` and the leapfrog rotations' `ω_n`.
    ///
    /// # Errors
    /// As [`Stepper::step`].
    fn synchronised<P: SystemForces<T> + ?Sized>(
        &mut self,
        problem: &mut P,
    ) -> Result<SystemState<T>> {
        let clock = self.clock.ok_or_else(not_started)?;
        let (t, dt) = (clock.time(), clock.dt());
        let mut velocities = self.velocities.clone();
        if !K::TORQUE_AT_END {
            self.prepare(false, dt);
            self.evaluate(problem, t, false)?;
            for (i, v) in velocities.iter_mut().enumerate() {
                let body = &self.kinds[self.kind_of[i] as usize].0;
                *v += self.loads.forces[i] * (real::<T>(0.5 * dt) * body.inverse_mass());
            }
        }
        let mut rotors = Vec::with_capacity(self.len());
        let mut omegas = Vec::with_capacity(self.len());
        for i in 0..self.len() {
            let k = &self.kinds[self.kind_of[i] as usize].1;
            let c = Carried::new(self.rotors[i], self.omegas[i], self.extras[i]);
            let tau = if K::SYNC_EVALUATES {
                body_torque(self.frame, &self.point_rotors()[i], &self.loads.torques[i])
            } else {
                Vector3::zeros()
            };
            rotors.push(c.q);
            omegas.push(self.method.sync(k, &c, &tau, real::<T>(dt)));
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

impl<P: SystemForces, K: RigidBodyMethod> Stepper<P> for CatalogueSystem<K> {
    type State = SystemState;
    type Segment = NoDenseOutput<SystemState>;

    /// Starts from the synchronised state `y0` on a fixed-step span: the loads at `t₀` (one
    /// evaluation, at each method's start rotor), each body's method started with its torque
    /// there (and at its further start points, one evaluation each), and for the leapfrog form
    /// half a step back for the velocity.
    ///
    /// # Errors
    /// Those of [`SystemState::validate`] and [`FixedClock::forward`];
    /// [`Error::InvalidParameter`] naming `y0` for another number of bodies;
    /// [`Error::NonFiniteBody`] for non-finite loads or a non-finite start of a body.
    fn start(&mut self, problem: &mut P, span: &Span, y0: &SystemState) -> Result<()> {
        self.begin_run(problem, span, y0)
    }

    /// One step of every body (one load evaluation).
    ///
    /// # Errors
    /// [`Error::NonFiniteBody`] naming the first body with non-finite loads or new state, and
    /// the time; [`not_started`] before the start.
    fn step(&mut self, problem: &mut P) -> Result<StepReport> {
        let mut clock = self.clock.ok_or_else(not_started)?;
        let tick = self.tick(&clock);
        let fused = FusedStep { system: self, tick };
        if let Some(result) = problem.with_body_model(fused) {
            self.stats.rhs_evaluations += 1;
            result?;
        } else {
            self.step_two_pass(problem, tick)?;
        }
        let report = clock.advance(&mut self.stats);
        self.clock = Some(clock);
        Ok(report)
    }

    /// The synchronised state at `t_n`; the leapfrog form evaluates the loads once (counted) for
    /// `v_n` and the leapfrog rotations' `ω_n`.
    ///
    /// # Errors
    /// As [`Stepper::step`].
    fn state(&mut self, problem: &mut P) -> Result<SystemState> {
        self.synchronised(problem)
    }
}

/// Over the dual numbers of a sensitivity run ([`crate::sensitivity`]): the two-pass step
/// whatever the model (a per-body model is `f64`-only), every body its own kind (dual bodies
/// equal in their real parts may differ in their derivatives).
impl<P, K, const N: usize> Stepper<P> for CatalogueSystem<K, Dual<N>>
where
    P: SystemForces<Dual<N>> + ?Sized,
    K: RigidBodyMethod<Dual<N>>,
{
    type State = SystemState<Dual<N>>;
    type Segment = NoDenseOutput<SystemState<Dual<N>>>;

    /// Starts from the synchronised state `y0` on a fixed-step span: the loads at `t₀` (one
    /// evaluation, at each method's start rotor), each body's method started with its torque
    /// there (and at its further start points, one evaluation each), and for the leapfrog form
    /// half a step back for the velocity.
    ///
    /// # Errors
    /// Those of [`SystemState::validate`] and [`FixedClock::forward`];
    /// [`Error::InvalidParameter`] naming `y0` for another number of bodies;
    /// [`Error::NonFiniteBody`] for non-finite loads or a non-finite start of a body.
    fn start(&mut self, problem: &mut P, span: &Span, y0: &SystemState<Dual<N>>) -> Result<()> {
        self.begin_run(problem, span, y0)
    }

    /// One step of every body (one load evaluation).
    ///
    /// # Errors
    /// [`Error::NonFiniteBody`] naming the first body with non-finite loads or new state, and
    /// the time; [`not_started`] before the start.
    fn step(&mut self, problem: &mut P) -> Result<StepReport> {
        let mut clock = self.clock.ok_or_else(not_started)?;
        let tick = self.tick(&clock);
        self.step_two_pass(problem, tick)?;
        let report = clock.advance(&mut self.stats);
        self.clock = Some(clock);
        Ok(report)
    }

    /// The synchronised state at `t_n`; the leapfrog form evaluates the loads once (counted) for
    /// `v_n` and the leapfrog rotations' `ω_n`.
    ///
    /// # Errors
    /// As [`Stepper::step`].
    fn state(&mut self, problem: &mut P) -> Result<SystemState<Dual<N>>> {
        self.synchronised(problem)
    }
}

/// The step with a per-body model ([`crate::system::PerBody`]): each body's loads evaluated and
/// the body advanced in one pass (the loads buffer keeps the forces the velocity Verlet form
/// needs at the next step), bit-identical to the two-pass step. A non-finite load or new state
/// is reported for the body of lowest index.
struct FusedStep<'a, K: RigidBodyMethod> {
    system: &'a mut CatalogueSystem<K>,
    tick: Tick,
}

impl<K: RigidBodyMethod> BodyModelVisitor for FusedStep<'_, K> {
    type Output = Result<()>;

    fn visit<F: BodyModel>(self, frame: Frame, model: &F) -> Result<()> {
        let CatalogueSystem {
            method,
            kinds,
            kind_of,
            positions,
            velocities,
            rotors,
            omegas,
            extras,
            loads,
            ..
        } = self.system;
        let (kinds, method) = (&*kinds, &*method);
        let tick = self.tick;
        // The frame and the normalisation are matched once per step, not per body: a per-body
        // branch joined the two torques (or rotors) through the stack, and the next loads then
        // straddled the stores.
        macro_rules! pass {
            ($lab:literal, $renormalise:literal) => {
                if K::TORQUE_AT_END {
                    // The velocity Verlet form kicks with the forces of the previous evaluation.
                    let forces = &mut loads.forces;
                    for_each_body!(read kind_of, write positions, write velocities,
                        write rotors, write omegas, write extras, write forces;
                    |i, (k, x, v, q, w, e, force)| {
                        fused_body::<K, F, $lab, $renormalise>(
                            method, &kinds[*k as usize], model, tick, i, x, v, (q, w, e), force,
                        )
                    })
                } else {
                    // The leapfrog form keeps no forces: one stream fewer through memory.
                    for_each_body!(read kind_of, write positions, write velocities,
                        write rotors, write omegas, write extras;
                    |i, (k, x, v, q, w, e)| {
                        let mut force = Vector3::zeros();
                        fused_body::<K, F, $lab, $renormalise>(
                            method, &kinds[*k as usize], model, tick, i, x, v, (q, w, e),
                            &mut force,
                        )
                    })
                }
            };
        }
        match (frame, tick.renormalise) {
            (Frame::Body, false) => pass!(false, false),
            (Frame::Body, true) => pass!(false, true),
            (Frame::Lab, false) => pass!(true, false),
            (Frame::Lab, true) => pass!(true, true),
        }
    }
}

/// One body's fused step: (the velocity Verlet form's first half kick and drift,) the torque
/// point, the body's loads from the per-body model, the rotation's finish and the translation;
/// `carried` is the body's entries of the rotor, angular-velocity and extra arrays, updated in
/// place through a [`CarriedMut`] (the force model reads a carried point in place); `force`
/// holds the body's new force; `LAB` says whether the model's torques are in the lab frame, `RENORMALISE` whether the rotor is normalised this
/// step. A non-finite result is named by [`fused_error`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn fused_body<K: RigidBodyMethod, F: BodyModel, const LAB: bool, const RENORMALISE: bool>(
    method: &K,
    kind: &(Body, K::Constants),
    model: &F,
    tick: Tick,
    i: usize,
    x: &mut Vector3<f64>,
    v: &mut Vector3<f64>,
    carried: (&mut Quaternion<f64>, &mut Vector3<f64>, &mut K::Extra),
    force: &mut Vector3<f64>,
) -> Result<()> {
    let (q, w, e) = carried;
    let (body, constants) = kind;
    let dt = tick.dt;
    if K::TORQUE_AT_END {
        *v += *force * (0.5 * dt * body.inverse_mass());
        *x += *v * dt;
    }
    let (pending, at) = method.prepare(constants, &Carried::new(*q, *w, *e), RENORMALISE, dt);
    let (rotor, omega) = if K::POINT_IS_CARRIED {
        (&*q, &*w)
    } else {
        (&at.q, &at.omega)
    };
    let view = BodyView {
        index: i,
        t: tick.t,
        position: x,
        velocity: v,
        rotor,
        omega,
    };
    let (f, torque) = model(&view);
    let tau = if LAB {
        rotate_inverse(rotor, &torque)
    } else {
        torque
    };
    let rotation_finite = method.finish(
        constants,
        CarriedMut {
            q,
            omega: w,
            extra: e,
        },
        pending,
        &tau,
        RENORMALISE,
        dt,
    );
    if K::TORQUE_AT_END {
        *v += f * (0.5 * dt * body.inverse_mass());
    } else {
        *v += f * (dt * body.inverse_mass());
        *x += *v * dt;
    }
    *force = f;
    // One branch for the whole body (`&`, not `&&`): 0·x is ±0 for finite x, NaN otherwise.
    let zero = |a: &Vector3<f64>| (a.x * 0.0 + a.y * 0.0) + a.z * 0.0;
    if rotation_finite & (zero(x) + zero(v) == 0.0) {
        Ok(())
    } else {
        Err(fused_error(tick, i, at, &f, &torque))
    }
}

/// The distinct bodies (equal bodies, as when every body is the same, share one entry) and
/// each body's index among them. Over another scalar than `f64` every body is its own entry:
/// dual numbers compare by their real parts, and bodies equal there may still differ in their
/// derivative parts (a sensitivity run's seeded mass or moments).
fn distinct<T: Real>(bodies: &[Body<T>]) -> (Vec<Body<T>>, Vec<u32>) {
    if core::any::TypeId::of::<T>() != core::any::TypeId::of::<f64>() {
        return (bodies.to_vec(), (0..bodies.len() as u32).collect());
    }
    let mut kinds: Vec<Body<T>> = Vec::new();
    let mut index = std::collections::HashMap::new();
    let kind_of = bodies
        .iter()
        .map(|b| {
            let i = b.rigid().inertia();
            let key = [b.mass(), i.x, i.y, i.z].map(|x| to_f64(x).to_bits());
            *index.entry(key).or_insert_with(|| {
                kinds.push(*b);
                (kinds.len() - 1) as u32
            })
        })
        .collect();
    (kinds, kind_of)
}

/// A unit sphere: the body a system without bodies builds its method for.
#[allow(clippy::expect_used)]
fn unit_sphere() -> RigidBody {
    // Equal positive moments always pass the checks of `RigidBody::new`.
    RigidBody::new([1.0; 3]).expect("a unit sphere is a rigid body")
}
