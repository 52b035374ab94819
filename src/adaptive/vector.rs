//! Adaptive integration of vector ODEs `x' = F(t, x)` on `ℝᴺ`.

use nalgebra::{Const, SVector};

use super::dense::DenseSegment;
use super::hairer::all_finite;
use super::{AdaptiveMethod, StepReport, System};
use crate::engine::Stats;
use crate::error::{Error, Result};
use crate::ode::VectorOde;

/// A [`VectorOde`] seen as a [`System`]: counts evaluations and rejects non-finite values.
#[derive(Debug, Clone)]
pub struct VectorSystem<P>(pub P);

impl<P: VectorOde<f64, N>, const N: usize> System<Const<N>> for VectorSystem<P> {
    #[inline(always)]
    fn eval(&mut self, t: f64, x: &SVector<f64, N>, stats: &mut Stats) -> Result<SVector<f64, N>> {
        stats.rhs_evaluations += 1;
        let f = self.0.rhs(t, x);
        if all_finite(f.as_slice()) {
            Ok(f)
        } else {
            Err(Error::NonFiniteState {
                what: "right-hand side",
                t,
            })
        }
    }
}

/// Step-by-step adaptive integration of a vector ODE: the user drives the loop (and may change
/// the problem between steps through [`VectorStepper::problem_mut`]).
///
/// # Examples
/// See `lieode::adaptive::integrate`.
#[derive(Debug, Clone)]
pub struct VectorStepper<M, P, const N: usize> {
    method: M,
    system: VectorSystem<P>,
    stats: Stats,
    dense_ready: bool,
}

impl<M, P, const N: usize> VectorStepper<M, P, N>
where
    M: AdaptiveMethod<Const<N>>,
    P: VectorOde<f64, N>,
{
    /// Starts at `(t0, x0)` towards `t_end`.
    ///
    /// # Errors
    /// As [`AdaptiveMethod::start`]; [`Error::NonFinite`] for a non-finite `x0`.
    pub fn new(
        mut method: M,
        problem: P,
        t0: f64,
        x0: SVector<f64, N>,
        t_end: f64,
    ) -> Result<Self> {
        if !x0.iter().all(|v| v.is_finite()) {
            return Err(Error::NonFinite { name: "x0" });
        }
        let mut system = VectorSystem(problem);
        let mut stats = Stats::default();
        method.start(&mut system, t0, &x0, t_end, &mut stats)?;
        Ok(Self {
            method,
            system,
            stats,
            dense_ready: false,
        })
    }

    /// One accepted step.
    ///
    /// # Errors
    /// As [`AdaptiveMethod::step`].
    pub fn step(&mut self) -> Result<StepReport> {
        self.dense_ready = false;
        self.method.step(&mut self.system, &mut self.stats)
    }

    /// Prepares dense output for the last step (counted evaluations, for some methods).
    ///
    /// # Errors
    /// As [`AdaptiveMethod::prepare_dense`].
    pub fn prepare_dense(&mut self) -> Result<()> {
        if !self.dense_ready {
            self.method
                .prepare_dense(&mut self.system, &mut self.stats)?;
            self.dense_ready = true;
        }
        Ok(())
    }

    /// The dense output at `t` in the last step (call [`VectorStepper::prepare_dense`] first).
    pub fn dense(&self, t: f64) -> SVector<f64, N> {
        self.method.dense(t)
    }

    /// The last step's dense output, stored method-independently.
    pub fn segment(&self, t0: f64, t1: f64) -> DenseSegment<Const<N>> {
        DenseSegment::sample(t0, t1, self.method.dense_degree(), |t| self.method.dense(t))
    }

    /// The current time and state.
    pub fn current(&self) -> (f64, SVector<f64, N>) {
        let (t, x) = self.method.current();
        (t, *x)
    }

    /// The work done so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The problem, for changes between steps.
    pub fn problem_mut(&mut self) -> &mut P {
        &mut self.system.0
    }

    /// The method.
    pub fn method(&self) -> &M {
        &self.method
    }
}
