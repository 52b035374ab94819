//! Adaptive integration of vector ODEs `x' = F(t, x)` on `ℝᴺ`.

use nalgebra::{Const, SVector};

use super::dense::DenseSegment;
use super::hairer::all_finite;
use super::{AdaptiveMethod, StepReport, System};
use crate::error::{Error, Result};
use crate::ode::VectorOde;
use crate::stepper::{Span, Stats, Stepper, StepperInfo};

/// A borrowed [`VectorOde`] seen as a [`System`]: counts evaluations and rejects non-finite
/// values.
#[derive(Debug)]
pub struct VectorSystem<'a, P: ?Sized>(pub &'a mut P);

impl<P: VectorOde<f64, N> + ?Sized, const N: usize> System<Const<N>> for VectorSystem<'_, P> {
    #[inline(always)]
    fn eval(&mut self, t: f64, x: &SVector<f64, N>, stats: &mut Stats) -> Result<SVector<f64, N>> {
        stats.rhs_evaluations += 1;
        let f = self.0.rhs(t, x);
        if all_finite(f.as_slice()) {
            Ok(f)
        } else {
            Err(non_finite_rhs(t))
        }
    }

    #[inline(always)]
    fn eval_into(
        &mut self,
        t: f64,
        x: &SVector<f64, N>,
        out: &mut SVector<f64, N>,
        stats: &mut Stats,
    ) -> Result<()> {
        stats.rhs_evaluations += 1;
        *out = self.0.rhs(t, x);
        if all_finite(out.as_slice()) {
            Ok(())
        } else {
            Err(non_finite_rhs(t))
        }
    }
}

/// The error of a non-finite right-hand side at `t`.
#[cold]
fn non_finite_rhs(t: f64) -> Error {
    Error::NonFiniteState {
        what: "right-hand side",
        t,
    }
}

/// An [`AdaptiveMethod`] on vector ODEs as a [`Stepper`]: give it to
/// [`crate::integrate::integrate`], or drive it yourself with `start`, `step`, `state`.
///
/// The problem is passed to each call, so it may be changed between steps: after changing it
/// in place call [`Stepper::problem_changed`]; a different problem object is noticed by its
/// address. Either way the FSAL derivative is recomputed with the new problem (one evaluation,
/// counted), so no step mixes the old field with the new.
///
/// It needs an adaptive [`Span`] ([`Span::new`]).
///
/// # Examples
/// ```
/// use lieode::adaptive::{ControllerParameters, Dopri5, Tolerances, VectorStepper};
/// use lieode::stepper::{Span, Stepper};
/// use nalgebra::Vector1;
///
/// let mut decay = |_t: f64, x: &Vector1<f64>| -x;
/// let method = Dopri5::new(Tolerances::scalar(1e-8, 1e-8)?, ControllerParameters::dopri5())?;
/// let mut stepper = VectorStepper::new(method);
/// stepper.start(&mut decay, &Span::new(0.0, 1.0)?, &Vector1::new(1.0))?;
/// while !stepper.step(&mut decay)?.finished {}
/// assert!((stepper.state(&mut decay)?[0] - (-1.0f64).exp()).abs() < 1e-7);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct VectorStepper<M, const N: usize> {
    method: M,
    stats: Stats,
    dense_ready: bool,
    /// The address of the problem the FSAL derivative was computed with.
    problem_id: usize,
}

impl<M: AdaptiveMethod<Const<N>>, const N: usize> VectorStepper<M, N> {
    /// The method `method`, not started.
    pub fn new(method: M) -> Self {
        Self {
            method,
            stats: Stats::default(),
            dense_ready: false,
            problem_id: 0,
        }
    }

    /// The method.
    pub fn method(&self) -> &M {
        &self.method
    }
}

impl<M: AdaptiveMethod<Const<N>>, const N: usize> StepperInfo for VectorStepper<M, N> {
    fn name(&self) -> &str {
        self.method.name()
    }

    fn time(&self) -> f64 {
        self.method.current().0
    }

    fn stats(&self) -> Stats {
        self.stats
    }
}

impl<M, P, const N: usize> Stepper<P> for VectorStepper<M, N>
where
    M: AdaptiveMethod<Const<N>>,
    P: VectorOde<f64, N> + ?Sized,
{
    type State = SVector<f64, N>;
    type Segment = DenseSegment<Const<N>>;

    /// Starts at `(span.t0(), x0)` towards `span.t_end()`: evaluates `F(t0, x0)` and chooses
    /// the initial step unless the method was given one.
    ///
    /// # Errors
    /// As [`AdaptiveMethod::start`]; [`Error::NonFinite`] naming `y0` for a non-finite `x0`;
    /// [`Error::InvalidParameter`] naming `span` for a fixed-step span.
    fn start(&mut self, problem: &mut P, span: &Span, x0: &SVector<f64, N>) -> Result<()> {
        if !all_finite(x0.as_slice()) {
            return Err(Error::NonFinite { name: "y0" });
        }
        let t_end = span.adaptive_end()?;
        self.stats = Stats::default();
        self.dense_ready = false;
        self.problem_id = address_of(problem);
        self.method.start(
            &mut VectorSystem(problem),
            span.t0(),
            x0,
            t_end,
            &mut self.stats,
        )
    }

    fn step(&mut self, problem: &mut P) -> Result<StepReport> {
        if address_of(problem) != self.problem_id {
            Stepper::<P>::problem_changed(self, problem)?;
        }
        self.dense_ready = false;
        self.method
            .step(&mut VectorSystem(problem), &mut self.stats)
    }

    fn state(&mut self, _problem: &mut P) -> Result<SVector<f64, N>> {
        Ok(*self.method.current().1)
    }

    /// Recomputes the FSAL derivative `F(t, x)` at the current point with the (changed)
    /// problem: one evaluation, counted.
    fn problem_changed(&mut self, problem: &mut P) -> Result<()> {
        let (t, x) = self.method.current();
        let x = *x;
        let f = VectorSystem(problem).eval(t, &x, &mut self.stats)?;
        self.method.rebase(x, f);
        self.problem_id = address_of(problem);
        Ok(())
    }

    /// Restarts from `y` at the current time: `F(t, y)` is evaluated (counted) and becomes the
    /// FSAL derivative; the step size is kept.
    fn reset_state(&mut self, problem: &mut P, y: &SVector<f64, N>) -> Result<()> {
        if !all_finite(y.as_slice()) {
            return Err(Error::NonFinite { name: "y" });
        }
        let t = self.method.current().0;
        let f = VectorSystem(problem).eval(t, y, &mut self.stats)?;
        self.method.rebase(*y, f);
        self.problem_id = address_of(problem);
        Ok(())
    }

    fn prepare_dense(&mut self, problem: &mut P) -> Result<bool> {
        if !self.dense_ready {
            self.method
                .prepare_dense(&mut VectorSystem(problem), &mut self.stats)?;
            self.dense_ready = true;
        }
        Ok(true)
    }

    fn dense(&self, t: f64) -> Option<SVector<f64, N>> {
        Some(self.method.dense(t))
    }

    fn segment(&self, t0: f64, t1: f64) -> Option<DenseSegment<Const<N>>> {
        Some(DenseSegment::sample(
            t0,
            t1,
            self.method.dense_degree(),
            |t| self.method.dense(t),
        ))
    }
}

/// The address of a problem object: how a stepper notices that it is handed another problem.
pub(crate) fn address_of<P: ?Sized>(problem: &P) -> usize {
    problem as *const P as *const () as usize
}
