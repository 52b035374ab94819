//! [`Formulated`]: any stepper in a rotation formulation, for the one driver
//! [`crate::integrate::integrate`] — the formulation's reset after each accepted step, and the
//! orientation, frame and extra state of the [`Solution`] as views.

use nalgebra::{Matrix3, SVector};

use super::formulation::Formulation;
use super::problem::RotationProblem;
use crate::error::{Error, Result};
use crate::integrate::Solution;
use crate::lie::LieGroup;
use crate::lie::unit_quaternion::UnitQuat;
use crate::stepper::{Piece, Span, Stats, StepReport, Stepper, StepperInfo};

/// A stepper `S` integrating a rotation problem in the formulation `F` (with `M` extra
/// components): what [`crate::integrate::integrate`] drives for orientation from angular
/// velocity.
///
/// The adapter gives the driver its three inputs — the problem ([`Formulated::ode`], the
/// formulation's ODE of a [`RotationProblem`]), the checked start state
/// ([`Formulated::initial_state`]) and itself as the stepper — and reads the ordinary
/// [`Solution`] back in the formulation's terms: [`Formulated::rotors`],
/// [`Formulated::frames`], [`Formulated::extra`] and, from the dense output,
/// [`Formulated::at`] and [`Formulated::frame_at`].
///
/// # Resets
/// A resetting formulation ([`super::Generator::reset`], Boyle's Eq. 20) replaces the state by
/// an equivalent one after an accepted step ([`Formulation::reset`]). The adapter decides the
/// reset inside its own [`Stepper::step`] and reports the replaced state from then on
/// ([`Stepper::state`], so the driver stores it, and events and observers see it), but restarts
/// the inner stepper from it ([`Stepper::reset_state`]: the FSAL derivative re-evaluated, one
/// counted evaluation; the step size kept) only at the start of the next step. Until then the
/// inner stepper still holds the step as it was taken, so [`Stepper::prepare_dense`],
/// [`Stepper::dense`] and [`Stepper::segment`] — which the driver calls after `step` — give
/// that step's own interpolant, ending at the state before the reset: no interpolant spans a
/// reset, whatever the inner method keeps for its dense output. [`Formulated::resets`] counts
/// the resets since the last start; the work counters are the inner stepper's.
///
/// The inner stepper's state is read after every step to test for a reset (a copy for the
/// vector, fixed-step and Lie steppers; no evaluation). Events and observers see the evolved
/// state, which a reset changes discontinuously: with a resetting formulation, make event
/// functions functions of the rotation (`formulation.rotor(y)`, `frame(y)`), which a reset
/// keeps.
///
/// # Examples
/// ```
/// use lieode::adaptive::{ControllerParameters, Dop853, Tolerances, VectorStepper};
/// use lieode::integrate::{Options, integrate};
/// use lieode::kinematics::{Attitude, Formulated, Generator, Kinematics};
/// use lieode::lie::unit_quaternion::UnitQuat;
/// use lieode::lie::LieGroup;
/// use lieode::stepper::Span;
/// use nalgebra::{SVector, Vector3};
///
/// // A constant rotation about z at 1 rad/s: after t = 20 the rotor is ±exp(10 z).
/// let mut spin = Kinematics::inertial(|_t: f64, _r: &Attitude| Vector3::new(0.0, 0.0, 1.0));
/// let tol = Tolerances::scalar(0.0, 1e-12)?; // absolute only, as Boyle integrates
/// let dop853 = VectorStepper::new(Dop853::new(tol, ControllerParameters::dop853())?);
/// let mut reset = Formulated::new(Generator::reset(), dop853);
/// let mut ode = reset.ode(&mut spin);
/// let y0 = reset.initial_state(&UnitQuat::identity(), &SVector::zeros())?;
/// let sol = integrate(&mut reset, &mut ode, &y0, &Span::new(0.0, 20.0)?, Options::default())?;
/// let exact = UnitQuat::exp(&lieode::lie::unit_quaternion::Su2Algebra(Vector3::new(0.0, 0.0, 10.0)));
/// assert!(reset.rotors(&sol).last().unwrap().distance(&exact)? < 1e-10);
/// // |r| reaches π/2 at t = π, 3π and 5π (after each reset it falls to zero, then grows again).
/// assert_eq!(reset.resets(), 3);
/// # Ok::<(), lieode::Error>(())
/// ```
pub struct Formulated<F, S, const M: usize = 0>
where
    F: Formulation<M>,
{
    formulation: F,
    stepper: S,
    /// The reset state of the last step, not yet handed to the inner stepper.
    pending: Option<F::State>,
    resets: usize,
}

impl<F, S, const M: usize> Formulated<F, S, M>
where
    F: Formulation<M>,
{
    /// `stepper` in `formulation`, not started.
    pub fn new(formulation: F, stepper: S) -> Self {
        Self {
            formulation,
            stepper,
            pending: None,
            resets: 0,
        }
    }

    /// The formulation.
    pub fn formulation(&self) -> &F {
        &self.formulation
    }

    /// The inner stepper (after a step that reset, it still holds the state before the reset
    /// until the next step).
    pub fn stepper(&self) -> &S {
        &self.stepper
    }

    /// How many accepted steps since the last start were followed by a reset.
    pub fn resets(&self) -> usize {
        self.resets
    }

    /// The problem to integrate: `problem` as the formulation's ODE ([`Formulation::ode`]).
    pub fn ode<P: RotationProblem<M>>(&self, problem: P) -> F::Ode<P> {
        self.formulation.ode(problem)
    }

    /// The start state of the orientation `q0` and the extra state `x0`
    /// ([`Formulation::encode`], after checking them).
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `x0` for a non-finite extra state or `q0` for a non-finite
    /// rotor; [`Error::NotOnGroup`] naming `q0` for a rotor off the unit sphere by more than
    /// [`crate::lie::unit_quaternion::UNIT_NORM_TOLERANCE`] (one built with
    /// `UnitQuat::from_quaternion_unchecked`).
    pub fn initial_state(&self, q0: &UnitQuat<f64>, x0: &SVector<f64, M>) -> Result<F::State> {
        if !x0.iter().all(|v| v.is_finite()) {
            return Err(Error::NonFinite { name: "x0" });
        }
        if !q0.is_finite() {
            return Err(Error::NonFinite { name: "q0" });
        }
        // A rotor off the group would integrate another rotation (a scaled one), invent a frame
        // (frame vectors) or come back as zero: checked by `UnitQuat::from_quaternion`, with the
        // error naming this parameter.
        UnitQuat::from_quaternion(*q0.quaternion()).map_err(|e| match e {
            Error::NotOnGroup {
                group,
                constraint,
                deviation,
                tolerance,
                ..
            } => Error::NotOnGroup {
                group,
                name: "q0",
                constraint,
                deviation,
                tolerance,
            },
            other => other,
        })?;
        Ok(self.formulation.encode(q0, x0))
    }

    /// The orientations (unit rotors) of the stored states.
    pub fn rotors<Seg>(&self, solution: &Solution<F::State, Seg>) -> Vec<UnitQuat<f64>> {
        let f = &self.formulation;
        solution.states.iter().map(|y| f.rotor(y)).collect()
    }

    /// The frames `a_i` (columns) the stored states represent: what Boyle's error norm δ
    /// (Eq. 25) compares.
    pub fn frames<Seg>(&self, solution: &Solution<F::State, Seg>) -> Vec<Matrix3<f64>> {
        let f = &self.formulation;
        solution.states.iter().map(|y| f.frame(y)).collect()
    }

    /// The extra states of the stored states.
    pub fn extra<Seg>(&self, solution: &Solution<F::State, Seg>) -> Vec<SVector<f64, M>> {
        let f = &self.formulation;
        solution.states.iter().map(|y| f.extra(y)).collect()
    }

    /// The orientation and the extra state at `t` from the dense output (each step's own
    /// interpolant, never across a reset).
    ///
    /// # Errors
    /// As [`Solution::at`]: [`Error::InvalidParameter`] naming `t` outside the integrated
    /// interval or for a run without [`crate::integrate::Options::dense`].
    pub fn at<Seg>(
        &self,
        solution: &Solution<F::State, Seg>,
        t: f64,
    ) -> Result<(UnitQuat<f64>, SVector<f64, M>)>
    where
        Seg: Piece<State = F::State>,
    {
        let y = solution.at(t)?;
        Ok((self.formulation.rotor(&y), self.formulation.extra(&y)))
    }

    /// The frame `a_i` at `t` from the dense output.
    ///
    /// # Errors
    /// As [`Formulated::at`].
    pub fn frame_at<Seg>(&self, solution: &Solution<F::State, Seg>, t: f64) -> Result<Matrix3<f64>>
    where
        Seg: Piece<State = F::State>,
    {
        Ok(self.formulation.frame(&solution.at(t)?))
    }
}

impl<F, S, const M: usize> StepperInfo for Formulated<F, S, M>
where
    F: Formulation<M>,
    S: StepperInfo,
{
    fn name(&self) -> &str {
        self.stepper.name()
    }

    fn time(&self) -> f64 {
        self.stepper.time()
    }

    /// The inner stepper's counters (with the evaluation of every restart after a reset).
    fn stats(&self) -> Stats {
        self.stepper.stats()
    }
}

impl<F, S, Q, const M: usize> Stepper<Q> for Formulated<F, S, M>
where
    Q: ?Sized,
    F: Formulation<M>,
    S: Stepper<Q, State = F::State>,
{
    type State = F::State;
    type Segment = S::Segment;

    /// Starts the inner stepper at `y0` (taken as given: [`Formulated::initial_state`] checks
    /// and encodes an orientation) and sets the reset count to zero.
    fn start(&mut self, problem: &mut Q, span: &Span, y0: &F::State) -> Result<()> {
        self.pending = None;
        self.resets = 0;
        self.stepper.start(problem, span, y0)
    }

    /// One accepted step of the inner stepper, which first restarts from the last step's reset
    /// state, if any; then the formulation's reset of the new state is decided (applied to the
    /// inner stepper at the next step).
    ///
    /// # Errors
    /// Those of the inner stepper; [`Error::InvalidParameter`] naming `reset` for an inner
    /// stepper that cannot replace its state ([`Stepper::reset_state`]'s default).
    fn step(&mut self, problem: &mut Q) -> Result<StepReport> {
        self.restart(problem)?;
        let report = self.stepper.step(problem)?;
        let y = self.stepper.state(problem)?;
        self.pending = self.formulation.reset(&y);
        self.resets += usize::from(self.pending.is_some());
        Ok(report)
    }

    /// The state at the current time: after a reset, the reset state.
    fn state(&mut self, problem: &mut Q) -> Result<F::State> {
        match &self.pending {
            Some(y) => Ok(y.clone()),
            None => self.stepper.state(problem),
        }
    }

    /// After a reset, restarting from the reset state with the changed problem does what the
    /// inner stepper's [`Stepper::problem_changed`] would (the FSAL derivative re-evaluated,
    /// now at the reset state).
    fn problem_changed(&mut self, problem: &mut Q) -> Result<()> {
        if self.pending.is_some() {
            self.restart(problem)
        } else {
            self.stepper.problem_changed(problem)
        }
    }

    /// Replaces the state by `y` (a pending reset is dropped: `y` replaces it).
    fn reset_state(&mut self, problem: &mut Q, y: &F::State) -> Result<()> {
        self.pending = None;
        self.stepper.reset_state(problem, y)
    }

    fn prepare_dense(&mut self, problem: &mut Q) -> Result<bool> {
        self.stepper.prepare_dense(problem)
    }

    fn dense(&self, t: f64) -> Option<F::State> {
        self.stepper.dense(t)
    }

    fn segment(&self, t_start: f64, t_end: f64) -> Option<S::Segment> {
        self.stepper.segment(t_start, t_end)
    }
}

impl<F, S, const M: usize> Formulated<F, S, M>
where
    F: Formulation<M>,
{
    /// Hands the pending reset state to the inner stepper ([`Stepper::reset_state`]).
    fn restart<Q: ?Sized>(&mut self, problem: &mut Q) -> Result<()>
    where
        S: Stepper<Q, State = F::State>,
    {
        if let Some(y) = self.pending.take() {
            self.stepper.reset_state(problem, &y)?;
        }
        Ok(())
    }
}

impl<F, S, const M: usize> Clone for Formulated<F, S, M>
where
    F: Formulation<M> + Clone,
    S: Clone,
{
    fn clone(&self) -> Self {
        Self {
            formulation: self.formulation.clone(),
            stepper: self.stepper.clone(),
            pending: self.pending.clone(),
            resets: self.resets,
        }
    }
}

impl<F, S, const M: usize> std::fmt::Debug for Formulated<F, S, M>
where
    F: Formulation<M> + std::fmt::Debug,
    F::State: std::fmt::Debug,
    S: std::fmt::Debug,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Formulated")
            .field("formulation", &self.formulation)
            .field("stepper", &self.stepper)
            .field("pending", &self.pending)
            .field("resets", &self.resets)
            .finish()
    }
}
