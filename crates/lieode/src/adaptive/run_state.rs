//! The state DOPRI5 and DOP853 share: Hairer's step-size control and stiffness test, the current
//! and last accepted step, the FSAL derivative and the dense-output coefficients.

use nalgebra::{DefaultAllocator, DimName, OVector, allocator::Allocator};

use super::controller::Controller;
use super::controller::ControllerParameters;
use super::hairer::{StiffnessDetector, begin_integration, not_started};
use super::tolerance::Tolerances;
use super::{StepReport, System};
use crate::engine::Stats;
use crate::error::Result;

/// One integration of a Dormand–Prince code of Hairer's (`DOPCOR` / `DP86CO`): everything but
/// the method's stages. `CONT` is the number of dense-output coefficient vectors (5 for
/// DOPRI5, 8 for DOP853).
#[derive(Debug, Clone)]
pub(crate) struct RunState<D, const CONT: usize>
where
    D: DimName,
    DefaultAllocator: Allocator<D>,
{
    pub(crate) tolerances: Tolerances,
    /// `atol_i` and `rtol_i` for every component, expanded once from `tolerances`: the error
    /// norm then reads fixed-size vectors (unrolled, no bounds checks, no per-component test
    /// for a scalar tolerance).
    atol: OVector<f64, D>,
    rtol: OVector<f64, D>,
    pub(crate) parameters: ControllerParameters,
    pub(crate) control: Controller,
    pub(crate) stiffness: StiffnessDetector,
    pub(crate) started: bool,
    pub(crate) finished: bool,
    /// Current time, step size for the next attempt.
    pub(crate) x: f64,
    pub(crate) h: f64,
    /// Current state and its derivative (FSAL).
    pub(crate) y: OVector<f64, D>,
    pub(crate) f: OVector<f64, D>,
    /// The last accepted step: start, size, start state, end state.
    pub(crate) x_old: f64,
    pub(crate) h_old: f64,
    pub(crate) y_old: OVector<f64, D>,
    pub(crate) y_new: OVector<f64, D>,
    /// Dense output `CONT(1 … CONT)` of the last step.
    pub(crate) cont: [OVector<f64, D>; CONT],
    pub(crate) dense_ready: bool,
}

impl<D, const CONT: usize> RunState<D, CONT>
where
    D: DimName,
    DefaultAllocator: Allocator<D>,
{
    /// The state for validated `parameters`, the method's exponent `expo1` and stiffness border.
    ///
    /// # Errors
    /// Those of [`ControllerParameters::validate`] and [`Tolerances::check_dimension`].
    pub(crate) fn new(
        tolerances: Tolerances,
        parameters: ControllerParameters,
        expo1: f64,
        stiffness_border: f64,
    ) -> Result<Self> {
        parameters.validate()?;
        tolerances.check_dimension(D::dim())?;
        let zero = OVector::<f64, D>::zeros();
        Ok(Self {
            atol: OVector::<f64, D>::from_fn(|i, _| tolerances.atol(i)),
            rtol: OVector::<f64, D>::from_fn(|i, _| tolerances.rtol(i)),
            control: Controller::new(&parameters, expo1),
            stiffness: StiffnessDetector::new(&parameters, stiffness_border),
            tolerances,
            parameters,
            started: false,
            finished: false,
            x: 0.0,
            h: 0.0,
            y: zero.clone(),
            f: zero.clone(),
            x_old: 0.0,
            h_old: 1.0,
            y_old: zero.clone(),
            y_new: zero.clone(),
            cont: std::array::from_fn(|_| zero.clone()),
            dense_ready: false,
        })
    }

    /// Starts at `(t0, x0)` towards `t_end` ([`begin_integration`] with the method's `order`);
    /// until the first step the dense output is the constant initial state.
    ///
    /// # Errors
    /// Those of [`begin_integration`].
    pub(crate) fn begin<S: System<D> + ?Sized>(
        &mut self,
        system: &mut S,
        t0: f64,
        x0: &OVector<f64, D>,
        t_end: f64,
        order: usize,
        stats: &mut Stats,
    ) -> Result<()> {
        self.started = false;
        let (f0, h) = begin_integration(
            system,
            &self.tolerances,
            &self.parameters,
            &mut self.control,
            &mut self.stiffness,
            t0,
            x0,
            t_end,
            order,
            stats,
        )?;
        self.h = h;
        self.x = t0;
        self.y.copy_from(x0);
        self.f = f0;
        self.x_old = t0;
        self.h_old = 1.0;
        self.y_old.copy_from(x0);
        self.cont[0].copy_from(x0);
        for c in &mut self.cont[1..] {
            c.fill(0.0);
        }
        self.dense_ready = true;
        self.started = true;
        self.finished = false;
        Ok(())
    }

    /// Hairer's error scale of component `i`, `sk_i = atol_i + rtol_i · max(a, b)` (as
    /// [`Tolerances::scale`]).
    #[inline(always)]
    pub(crate) fn scale(&self, i: usize, a: f64, b: f64) -> f64 {
        self.atol[i] + self.rtol[i] * a.max(b)
    }

    /// Whether a step is to be taken: started and not finished. Otherwise
    /// [`RunState::idle_step`] says why not. (Two flag tests: building the idle report on
    /// every step cost a store-forwarding stall at the start of each step, measured.)
    #[inline(always)]
    pub(crate) fn stepping(&self) -> bool {
        self.started && !self.finished
    }

    /// The outcome of a step asked for when none is to be taken: an error if not started;
    /// after the end, the report of a step that does nothing.
    ///
    /// # Errors
    /// The error of a method used before `start`.
    #[cold]
    pub(crate) fn idle_step(&self) -> Result<StepReport> {
        if !self.started {
            return Err(not_started());
        }
        Ok(StepReport {
            t_start: self.x,
            t_end: self.x,
            finished: true,
        })
    }

    /// Records the accepted step `[x, x + h]` whose end state is `y_new` and whose FSAL
    /// derivative is `fsal`, and sets the next step size (`h_new`, bounded after the last step
    /// as Hairer's codes do).
    pub(crate) fn accept(
        &mut self,
        x: f64,
        h: f64,
        h_new: f64,
        fsal: &OVector<f64, D>,
    ) -> StepReport {
        // The last step ends exactly on x_end (x + h may miss it by an ulp).
        let xph = if self.control.is_last() {
            self.control.x_end()
        } else {
            x + h
        };
        self.x_old = x;
        self.h_old = h;
        std::mem::swap(&mut self.y_old, &mut self.y);
        self.y.copy_from(&self.y_new);
        self.f.copy_from(fsal);
        self.x = xph;
        self.dense_ready = false;
        if self.control.is_last() {
            self.h = h_new;
            self.finished = true;
        } else {
            self.h = self.control.after_accept(h_new, h);
        }
        StepReport {
            t_start: x,
            t_end: xph,
            finished: self.finished,
        }
    }
}
