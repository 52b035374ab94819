//! The generic Lie-group engines (RKMK, Crouch–Grossman, commutator-free, …) as rotational
//! steppers on `SU(2) × ℝ³`, so they run on the same problems and tables as the catalogue.

use crate::body::RigidBodyQuatState;
use nalgebra::{Quaternion, Vector3};

use super::stepper::{Renormalisation, RotationalMethod, RotationalState, check_start_state};
use crate::body::{RigidBody, Torque};
use crate::clock::FixedClock;
use crate::engine::{Method, Stats, Step};
use crate::error::Result;
use crate::lie::product::{Product, ProductAlgebra};
use crate::lie::rn::Rn;
use crate::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use crate::lie::{LieGroup, Side};
use crate::ode::LieOde;
use crate::stepper::{NoDenseOutput, Span, StepReport, Stepper, StepperInfo, not_started};

/// The rigid body's motion as a Lie-group ODE on `SU(2) × ℝ³` in body-frame (right)
/// trivialisation: `q̇ = q ⊗ (ω/2)`, `ω̇ = ω̇(ω, τ(t, q, ω))` — generator
/// `(ω/2 ∈ su(2), ω̇ ∈ ℝ³)`, with the torque borrowed for the step.
#[derive(Debug)]
pub struct BodyLieOde<'a, T> {
    /// The body.
    pub body: RigidBody,
    /// The torque.
    pub torque: &'a T,
}

impl<T: Torque> LieOde<RigidBodyQuatState> for BodyLieOde<'_, T> {
    fn side(&self) -> Side {
        Side::Right
    }

    fn generator(
        &mut self,
        t: f64,
        y: &RigidBodyQuatState,
    ) -> ProductAlgebra<Su2Algebra<f64>, Rn<3, f64>> {
        let q = y.0.quaternion();
        let omega = y.1.0;
        let tau = self.torque.body_torque(t, q, &omega);
        ProductAlgebra(
            Su2Algebra::from_rotation_vector(&omega),
            Rn(self.body.angular_acceleration(&omega, &tau)),
        )
    }
}

/// A fixed-step engine of the library (any [`Step`] on [`BodyLieOde`]) as a rotational
/// stepper: each step is one engine step of size `dt` on `SU(2) × ℝ³`; the rotor stays on
/// the group by construction (no renormalisation).
///
/// # Examples
/// ```
/// use lieode::stepper::{Span, Stepper, StepperInfo};
/// use lieode::engine::MuntheKaas;
/// use lieode::body::RigidBodyQuatState;
/// use lieode::rotation::{ConstantBodyTorque, LieEngine, RigidBody, RotationalState};
/// use lieode::tableau::registry::RK4;
/// use nalgebra::{Quaternion, Vector3};
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let mut rkmk4 = LieEngine::new("rkmk4", MuntheKaas::<RigidBodyQuatState>::new(&RK4)?, body, 4);
/// let mut torque = ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0));
/// let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
/// rkmk4.start(&mut torque, &Span::open(start.t, 0.01).unwrap(), &start)?;
/// rkmk4.step(&mut torque)?;
/// # Ok::<(), lieode::Error>(())
/// ```
///
/// It is its own [`Stepper`] rather than a [`super::RigidBodyMethod`]: the engine evaluates the
/// torque inside its stages, so its step cannot be split at an evaluation, and it does not run on
/// many bodies.
#[derive(Debug, Clone)]
pub struct LieEngine<M> {
    name: String,
    engine: M,
    body: RigidBody,
    evaluations: usize,
    /// The clock and the state (`None` before the start).
    run: Option<(FixedClock, RigidBodyQuatState)>,
    /// The engine's own counters (its solver work).
    engine_stats: Stats,
    /// The torque evaluations and steps.
    stats: Stats,
}

impl<M: Method> LieEngine<M> {
    /// The engine `engine` under the name `name`, for `body`; `evaluations` is the number of
    /// generator (torque) evaluations per step (the tableau's stages for explicit engines).
    pub fn new(name: impl Into<String>, engine: M, body: RigidBody, evaluations: usize) -> Self {
        Self {
            name: name.into(),
            engine,
            body,
            evaluations,
            run: None,
            engine_stats: Stats::default(),
            stats: Stats::default(),
        }
    }
}

impl<M> StepperInfo for LieEngine<M> {
    fn name(&self) -> &str {
        &self.name
    }

    fn time(&self) -> f64 {
        self.run.as_ref().map_or(0.0, |(clock, _)| clock.time())
    }

    /// The torque evaluations and steps, and the engine's solver work (Jacobians, LU
    /// decompositions, nonlinear iterations) for implicit engines.
    fn stats(&self) -> Stats {
        Stats {
            jacobian_evaluations: self.engine_stats.jacobian_evaluations,
            lu_decompositions: self.engine_stats.lu_decompositions,
            nonlinear_iterations: self.engine_stats.nonlinear_iterations,
            ..self.stats
        }
    }
}

impl<T, M> Stepper<T> for LieEngine<M>
where
    T: Torque,
    M: for<'a> Step<BodyLieOde<'a, T>, State = RigidBodyQuatState, Scalar = f64>,
{
    type State = RotationalState;
    type Segment = NoDenseOutput<RotationalState>;

    /// Starts at `y0` (its rotor normalised onto the group) on the fixed-step `span`.
    ///
    /// # Errors
    /// Those of [`FixedClock::forward`]; [`crate::Error::NonFinite`] naming `state` for a
    /// non-finite state; [`crate::Error::InvalidParameter`] naming `state` for a rotor with
    /// `|q|²` zero, subnormal or overflowing.
    fn start(&mut self, _torque: &mut T, span: &Span, y0: &RotationalState) -> Result<()> {
        self.run = None;
        let clock = FixedClock::forward(span, y0.t)?;
        check_start_state(y0)?;
        let q = UnitQuat::from_quaternion_normalized(y0.q)?;
        self.engine_stats = Stats::default();
        self.stats = Stats::default();
        self.run = Some((clock, Product(q, Rn(y0.omega))));
        Ok(())
    }

    /// One engine step (its torque evaluations counted).
    ///
    /// # Errors
    /// [`not_started`] before the start; the engine's.
    fn step(&mut self, torque: &mut T) -> Result<StepReport> {
        let Some((clock, y)) = self.run.as_mut() else {
            return Err(not_started());
        };
        let mut problem = BodyLieOde {
            body: self.body,
            torque: &*torque,
        };
        let stepped = self.engine.step(
            &mut problem,
            clock.time(),
            y,
            clock.dt(),
            &mut self.engine_stats,
        )?;
        *y = stepped.state;
        self.stats.rhs_evaluations += self.evaluations;
        Ok(clock.advance(&mut self.stats))
    }

    /// The state at `t_n` (no evaluation).
    ///
    /// # Errors
    /// [`not_started`] before the start.
    fn state(&mut self, _torque: &mut T) -> Result<RotationalState> {
        let (clock, y) = self.run.as_ref().ok_or_else(not_started)?;
        Ok(RotationalState::new(clock.time(), *y.0.quaternion(), y.1.0))
    }
}

impl<M> RotationalMethod for LieEngine<M> {
    fn torque_evaluations_per_step(&self) -> usize {
        self.evaluations
    }

    fn is_leapfrog(&self) -> bool {
        false
    }

    fn renormalisation(&self) -> Renormalisation {
        Renormalisation::Never
    }

    fn orientation(&self) -> Quaternion<f64> {
        self.run
            .as_ref()
            .map_or_else(Quaternion::identity, |(_, y)| *y.0.quaternion())
    }

    fn angular_velocity(&self) -> (f64, Vector3<f64>) {
        (
            StepperInfo::time(self),
            self.run
                .as_ref()
                .map_or_else(Vector3::zeros, |(_, y)| y.1.0),
        )
    }

    fn body(&self) -> &RigidBody {
        &self.body
    }
}

/// The identity of the group, for callers building states.
pub fn identity_state(omega: Vector3<f64>) -> RigidBodyQuatState {
    Product(UnitQuat::identity(), Rn(omega))
}
