//! The generic Lie-group engines (RKMK, Crouch–Grossman, commutator-free, …) as rotational
//! steppers on `SU(2) × ℝ³`, so they run on the same problems and tables as the catalogue.

use crate::body::RigidBodyQuatState;
use nalgebra::{Quaternion, Vector3};

use super::stepper::StepClock;
use super::stepper::{CountedTorque, start_on_span, state_counted, step_counted};
use super::stepper::{
    Renormalisation, RotationalCore, RotationalMethod, RotationalState, RunCount, check_start,
    not_started,
};
use super::torque::TorqueField;
use crate::body::RigidBody;
use crate::engine::{Method, Stats, Step};
use crate::error::Result;
use crate::lie::product::{Product, ProductAlgebra};
use crate::lie::rn::Rn;
use crate::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use crate::lie::{LieGroup, Side};
use crate::ode::LieOde;
use crate::stepper::{NoDenseOutput, Span, StepReport, Stepper, StepperInfo};

/// The rigid body's motion as a Lie-group ODE on `SU(2) × ℝ³` in body-frame (right)
/// trivialisation: `q̇ = q ⊗ (ω/2)`, `ω̇ = ω̇(ω, τ(t, q, ω))` — generator
/// `(ω/2 ∈ su(2), ω̇ ∈ ℝ³)`, with the torque field borrowed for the step.
#[derive(Debug)]
pub struct BodyLieOde<'a, T> {
    /// The body.
    pub body: RigidBody,
    /// The torque field.
    pub torque: &'a mut T,
}

impl<T: TorqueField> LieOde<RigidBodyQuatState> for BodyLieOde<'_, T> {
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
/// use lieode::rotation::lie_engine::LieEngine;
/// use lieode::rotation::{ConstantBodyTorque, RigidBody, RotationalState};
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
#[derive(Debug, Clone)]
pub struct LieEngine<M> {
    name: String,
    engine: M,
    body: RigidBody,
    evaluations: usize,
    dt: f64,
    t: f64,
    clock: StepClock,
    y: Option<RigidBodyQuatState>,
    /// The engine's own counters (its solver work).
    stats: Stats,
    run: RunCount,
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
            dt: 0.0,
            t: 0.0,
            clock: StepClock::default(),
            y: None,
            stats: Stats::default(),
            run: RunCount::default(),
        }
    }
}

impl<M> StepperInfo for LieEngine<M> {
    fn name(&self) -> &str {
        &self.name
    }

    fn time(&self) -> f64 {
        self.t
    }

    /// The torque evaluations counted at the source, and the engine's solver work (Jacobians,
    /// LU decompositions, nonlinear iterations) for implicit engines.
    fn stats(&self) -> Stats {
        Stats {
            jacobian_evaluations: self.stats.jacobian_evaluations,
            lu_decompositions: self.stats.lu_decompositions,
            nonlinear_iterations: self.stats.nonlinear_iterations,
            ..self.run.stats()
        }
    }
}

impl<T, M> Stepper<T> for LieEngine<M>
where
    T: TorqueField,
    M: for<'a, 'b> Step<
            BodyLieOde<'a, CountedTorque<'b, T>>,
            State = RigidBodyQuatState,
            Scalar = f64,
        > + for<'a> Step<BodyLieOde<'a, T>, State = RigidBodyQuatState, Scalar = f64>,
{
    type State = RotationalState;
    type Segment = NoDenseOutput<RotationalState>;

    fn start(&mut self, torque: &mut T, span: &Span, y0: &RotationalState) -> Result<()> {
        self.stats = Stats::default();
        start_on_span(self, torque, span, y0)
    }

    fn step(&mut self, torque: &mut T) -> Result<StepReport> {
        step_counted(self, torque)
    }

    fn state(&mut self, torque: &mut T) -> Result<RotationalState> {
        state_counted(self, torque)
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
        self.y
            .as_ref()
            .map_or_else(Quaternion::identity, |y| *y.0.quaternion())
    }

    fn angular_velocity(&self) -> (f64, Vector3<f64>) {
        (
            self.t,
            self.y.as_ref().map_or_else(Vector3::zeros, |y| y.1.0),
        )
    }

    fn body(&self) -> &RigidBody {
        &self.body
    }
}

impl<T, M> RotationalCore<T> for LieEngine<M>
where
    T: TorqueField,
    M: for<'a> Step<BodyLieOde<'a, T>, State = RigidBodyQuatState, Scalar = f64>,
{
    fn run_mut(&mut self) -> &mut RunCount {
        &mut self.run
    }

    fn start(&mut self, _torque: &mut T, state: &RotationalState, dt: f64) -> Result<()> {
        check_start(state, dt)?;
        let q = UnitQuat::from_quaternion_normalized(state.q)?;
        self.y = Some(Product(q, Rn(state.omega)));
        self.dt = dt;
        self.t = state.t;
        self.clock = StepClock::start(state.t, dt);
        Ok(())
    }

    fn step(&mut self, torque: &mut T) -> Result<()> {
        let y = self.y.as_ref().ok_or_else(not_started)?;
        let mut problem = BodyLieOde {
            body: self.body,
            torque,
        };
        let stepped = self
            .engine
            .step(&mut problem, self.t, y, self.dt, &mut self.stats)?;
        self.y = Some(stepped.state);
        self.t = self.clock.tick();
        Ok(())
    }

    fn state(&mut self, _torque: &mut T) -> Result<RotationalState> {
        let y = self.y.as_ref().ok_or_else(not_started)?;
        Ok(RotationalState::new(self.t, *y.0.quaternion(), y.1.0))
    }
}

/// The identity of the group, for callers building states.
pub fn identity_state(omega: Vector3<f64>) -> RigidBodyQuatState {
    Product(UnitQuat::identity(), Rn(omega))
}
