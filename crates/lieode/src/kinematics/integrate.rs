//! [`integrate_rotation`]: one call for every formulation and every stepper.

use nalgebra::{Matrix3, SVector};

use super::formulation::Formulation;
use super::problem::RotationProblem;
use crate::error::{Error, Result};
use crate::integrate::{Record, StopReason};
use crate::lie::LieGroup;
use crate::lie::unit_quaternion::UnitQuat;
use crate::stepper::{Piece, Span, Stats, Stepper};

/// What [`integrate_rotation`] stores.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RotationOptions {
    /// Which steps' states are stored (the start and the end always are).
    pub record: Record,
    /// Whether to keep the dense output of every step (for [`RotationSolution::at`]).
    pub dense: bool,
    /// Stop after this many steps (reported as [`StopReason::MaxSteps`]).
    pub max_steps: Option<usize>,
}

impl Default for RotationOptions {
    /// Every step stored, no dense output, no step limit.
    fn default() -> Self {
        Self {
            record: Record::All,
            dense: false,
            max_steps: None,
        }
    }
}

impl RotationOptions {
    /// Options storing `record`.
    pub fn record(record: Record) -> Self {
        Self {
            record,
            ..Self::default()
        }
    }

    /// The same options keeping the dense output.
    pub fn dense(self) -> Self {
        Self {
            dense: true,
            ..self
        }
    }

    /// The same options with a step limit.
    pub fn max_steps(self, steps: usize) -> Self {
        Self {
            max_steps: Some(steps),
            ..self
        }
    }
}

/// The result of [`integrate_rotation`]: the recorded times with the orientation (a unit rotor),
/// the frame the formulation represents (what Boyle's δ compares), the extra state and the
/// evolved state itself; statistics; the number of resets; and, if asked for, the dense output
/// of every step.
#[derive(Debug, Clone)]
pub struct RotationSolution<F, S, Seg, const M: usize> {
    /// The formulation.
    pub formulation: F,
    /// The recorded times.
    pub times: Vec<f64>,
    /// The evolved states at those times (after a reset, the reset state).
    pub states: Vec<S>,
    /// The orientations.
    pub rotors: Vec<UnitQuat<f64>>,
    /// The frames `a_i` (columns) the states represent.
    pub frames: Vec<Matrix3<f64>>,
    /// The extra states.
    pub extra: Vec<SVector<f64, M>>,
    /// The work done.
    pub stats: Stats,
    /// How many accepted steps were followed by a reset (reset generator).
    pub resets: usize,
    /// Why the run stopped.
    pub stop: StopReason,
    /// The dense output of every step, if asked for.
    pub segments: Vec<Seg>,
}

impl<F, S, Seg, const M: usize> RotationSolution<F, S, Seg, M>
where
    F: Formulation<M, State = S>,
    Seg: Piece<State = S>,
{
    /// The orientation and extra state at `t` from the dense output (each step's own
    /// interpolant, never across a reset).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `t` outside the stored steps (or without dense
    /// output).
    pub fn at(&self, t: f64) -> Result<(UnitQuat<f64>, SVector<f64, M>)> {
        let y = self.state_at(t)?;
        Ok((self.formulation.rotor(&y), self.formulation.extra(&y)))
    }

    /// The frame `a_i` at `t` from the dense output.
    ///
    /// # Errors
    /// As [`RotationSolution::at`].
    pub fn frame_at(&self, t: f64) -> Result<Matrix3<f64>> {
        Ok(self.formulation.frame(&self.state_at(t)?))
    }

    fn state_at(&self, t: f64) -> Result<S> {
        let inside = |seg: &&Seg| {
            let (a, b) = seg.span();
            (t - a) * (t - b) <= 0.0
        };
        self.segments
            .iter()
            .find(inside)
            .map(|seg| seg.eval(t))
            .ok_or_else(|| Error::InvalidParameter {
                name: "t",
                value: format!("{t:e}"),
                expected: "a time inside the stored dense output (RotationOptions::dense)".into(),
            })
    }
}

/// Integrates the rotation problem `problem` in the `formulation` with `stepper` from the
/// orientation `q0` and the extra state `x0` over `span`.
///
/// The formulation is one argument: [`super::FrameVectors`], [`super::TwoFrameVectors`],
/// [`super::Rotor`], [`super::Generator::plain`] or [`super::Generator::reset`] with any vector
/// stepper (DOPRI5, DOP853, ODEX, any explicit tableau with a fixed step), or
/// [`super::Lifted`] with a lifted stepper. After every accepted step a resetting formulation
/// may replace the state by an equivalent one ([`Formulation::reset`]); the stepper then
/// restarts from it ([`Stepper::reset_state`]: the FSAL value recomputed, the dense output of
/// the step already stored).
///
/// # Errors
/// Those of the stepper; [`Error::InvalidParameter`] naming `reset` for a resetting
/// formulation on a stepper that cannot replace its state, naming `dense` for dense output
/// from a stepper without it, naming `record` for `Record::Every(0)`; [`Error::NonFinite`]
/// naming `x0` for a non-finite extra state or `q0` for a non-finite rotor;
/// [`Error::NotOnGroup`] naming `q0` for a rotor off the unit sphere by more than
/// [`crate::lie::unit_quaternion::UNIT_NORM_TOLERANCE`] (one built with `UnitQuat::from_quaternion_unchecked`).
///
/// # Examples
/// ```
/// use lieode::adaptive::{ControllerParameters, Dop853, Tolerances, VectorStepper};
/// use lieode::kinematics::{Attitude, Kinematics, Rotor, RotationOptions, integrate_rotation};
/// use lieode::lie::unit_quaternion::UnitQuat;
/// use lieode::lie::LieGroup;
/// use lieode::stepper::Span;
/// use nalgebra::{SVector, Vector3};
///
/// // A constant rotation about z at 1 rad/s: after t = 1 the rotor is exp(z/2).
/// let mut spin = Kinematics::inertial(|_t: f64, _r: &Attitude| Vector3::new(0.0, 0.0, 1.0));
/// let tol = Tolerances::scalar(0.0, 1e-12)?; // absolute only, as Boyle integrates
/// let mut dop853 = VectorStepper::new(Dop853::new(tol, ControllerParameters::dop853())?);
/// let sol = integrate_rotation(
///     &mut spin, Rotor, &mut dop853,
///     &UnitQuat::identity(), &SVector::zeros(), &Span::new(0.0, 1.0)?, RotationOptions::default(),
/// )?;
/// let end = sol.rotors.last().unwrap().quaternion();
/// assert!((end.w - 0.5f64.cos()).abs() < 1e-12 && (end.k - 0.5f64.sin()).abs() < 1e-12);
/// # Ok::<(), lieode::Error>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn integrate_rotation<F, P, S, const M: usize>(
    problem: P,
    formulation: F,
    stepper: &mut S,
    q0: &UnitQuat<f64>,
    x0: &SVector<f64, M>,
    span: &Span,
    options: RotationOptions,
) -> Result<RotationSolution<F, F::State, S::Segment, M>>
where
    F: Formulation<M> + Clone,
    P: RotationProblem<M>,
    S: Stepper<F::Ode<P>, State = F::State> + ?Sized,
{
    if options.record == Record::Every(0) {
        return Err(Error::InvalidParameter {
            name: "record",
            value: "Every(0)".into(),
            expected: "Every(k) with k ≥ 1".into(),
        });
    }
    if !x0.iter().all(|v| v.is_finite()) {
        return Err(Error::NonFinite { name: "x0" });
    }
    if !q0.is_finite() {
        return Err(Error::NonFinite { name: "q0" });
    }
    // A rotor built unchecked (`UnitQuat::from_quaternion_unchecked`) may be off the group:
    // a zero rotor would come back from an Ok run, frame vectors would invent a frame, and a
    // scaled one would integrate another rotation. Checked by `UnitQuat::from_quaternion`,
    // with the error naming this parameter.
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
    let mut ode = formulation.ode(problem);
    let y0 = formulation.encode(q0, x0);
    stepper.start(&mut ode, span, &y0)?;
    let mut solution = RotationSolution {
        formulation: formulation.clone(),
        times: Vec::new(),
        states: Vec::new(),
        rotors: Vec::new(),
        frames: Vec::new(),
        extra: Vec::new(),
        stats: Stats::default(),
        resets: 0,
        stop: StopReason::Finished,
        segments: Vec::new(),
    };
    let store =
        |solution: &mut RotationSolution<F, F::State, S::Segment, M>, t: f64, y: F::State| {
            solution.times.push(t);
            solution.rotors.push(formulation.rotor(&y));
            solution.frames.push(formulation.frame(&y));
            solution.extra.push(formulation.extra(&y));
            solution.states.push(y);
        };
    store(&mut solution, stepper.time(), y0);
    let mut n = 0usize;
    loop {
        if options.max_steps.is_some_and(|m| n >= m) {
            solution.stop = StopReason::MaxSteps;
            let y = stepper.state(&mut ode)?;
            if solution.times.last() != Some(&stepper.time()) {
                store(&mut solution, stepper.time(), y);
            }
            break;
        }
        let report = stepper.step(&mut ode)?;
        n += 1;
        if options.dense {
            if !stepper.prepare_dense(&mut ode)? {
                return Err(Error::InvalidParameter {
                    name: "dense",
                    value: stepper.name().to_string(),
                    expected: "a stepper with dense output".into(),
                });
            }
            if let Some(segment) = stepper.segment(report.t_start, report.t_end) {
                solution.segments.push(segment);
            }
        }
        let mut y = stepper.state(&mut ode)?;
        if let Some(reset) = formulation.reset(&y) {
            stepper.reset_state(&mut ode, &reset)?;
            solution.resets += 1;
            y = reset;
        }
        if options.record.keeps(n, report.finished) {
            store(&mut solution, report.t_end, y);
        }
        if report.finished {
            break;
        }
    }
    solution.stats = stepper.stats();
    Ok(solution)
}
