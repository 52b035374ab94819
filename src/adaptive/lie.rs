//! Adaptive integration on Lie groups through local coordinates rebased at every step.
//!
//! With `y' = ξ(t, y)·y` (or `y·ξ`), each step writes `y = exp(θ)·y_n` (or `y_n·exp(θ)`) and
//! integrates the vector ODE `θ' = dexp⁻¹_{±θ}(ξ(t, exp(θ)·y_n))`, `θ(t_n) = 0`, with any
//! [`AdaptiveMethod`] on the algebra coordinates; then `y_{n+1} = exp(θ(t_{n+1}))·y_n` and the
//! method is rebased to `θ = 0`. Error estimates, step control and dense output all live in the
//! θ-coordinates, a vector space; dense output on the group is `exp(θ(t))·y_n`.
//!
//! FSAL survives the rebasing: the generator value `ξ(t_{n+1}, y_{n+1})` evaluated for the last
//! stage of a step is, since `dexp⁻¹₀ = id`, exactly the first stage of the next one; the
//! driver keeps the last generator value and reuses it without a new evaluation.
//!
//! Relative tolerances see the size of each coordinate through
//! [`LieGroup::coordinate_magnitude`] of the group state: an ℝⁿ factor is tested like a vector
//! ODE, a rotation absolutely (in radians).
//!
//! # References
//! - H. Munthe-Kaas, *High order Runge–Kutta methods on manifolds*, Appl. Numer. Math. 29 (1999).
//! - M. Boyle, *The integration of angular velocity* (2017), §IV (DOP853 and Bulirsch–Stoer on
//!   rotor and generator formulations).

use nalgebra::{DefaultAllocator, OVector, allocator::Allocator};

use super::dense::DenseSegment;
use super::{AdaptiveMethod, StepReport, System};
use crate::engine::Stats;
use crate::error::{Error, Result};
use crate::lie::{AlgebraDim, LieAlgebra, LieGroup, Side, Truncation};
use crate::ode::LieOde;

type Coords<G> = OVector<f64, AlgebraDim<G>>;

/// The local-coordinate vector field `θ' = dexp⁻¹_{±θ}(ξ(t, exp(θ)·y_n))` of one step, seen as a
/// [`System`].
#[derive(Debug, Clone)]
pub struct LieSystem<G: LieGroup<Scalar = f64>, P>
where
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    problem: P,
    side: Side,
    truncation: Truncation,
    base: G,
    /// The last `(t, θ, ξ)` evaluated: the FSAL stage of a step is its last evaluation.
    cache: Option<(f64, Coords<G>, G::Algebra)>,
}

impl<G: LieGroup<Scalar = f64>, P: LieOde<G>> LieSystem<G, P>
where
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    fn new(problem: P, base: G, truncation: Truncation) -> Self {
        let side = problem.side();
        Self {
            problem,
            side,
            truncation,
            base,
            cache: None,
        }
    }

    /// The group state at local coordinates `θ`.
    fn point(&self, theta: &Coords<G>) -> G {
        self.base
            .exp_update(self.side, &G::Algebra::from_coords(theta))
    }

    /// `ξ(t, exp(θ)·y_n)` from the cache or by a (counted) evaluation.
    fn generator(&mut self, t: f64, theta: &Coords<G>, stats: &mut Stats) -> Result<G::Algebra> {
        if let Some((_, _, xi)) = self
            .cache
            .iter()
            .rev()
            .find(|(tc, th, _)| *tc == t && th == theta)
        {
            return Ok(*xi);
        }
        stats.rhs_evaluations += 1;
        let y = self.point(theta);
        let xi = self.problem.generator(t, &y);
        if !xi.is_finite() {
            return Err(Error::NonFiniteState {
                what: "generator",
                t,
            });
        }
        self.cache = Some((t, theta.clone(), xi));
        Ok(xi)
    }
}

impl<G: LieGroup<Scalar = f64>, P: LieOde<G>> System<AlgebraDim<G>> for LieSystem<G, P>
where
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    fn eval(&mut self, t: f64, theta: &Coords<G>, stats: &mut Stats) -> Result<Coords<G>> {
        // A cached value costs nothing; count only real evaluations (inside `generator`).
        let xi = self.generator(t, theta, stats)?;
        let k = G::dexp_inv_on(
            self.side,
            &G::Algebra::from_coords(theta),
            &xi,
            self.truncation,
        );
        Ok(k.to_coords())
    }

    /// The size of coordinate `i` of the group state `exp(θ)·y_n`
    /// ([`LieGroup::coordinate_magnitude_at`]: no exponential on rotation groups).
    fn magnitude(&self, theta: &Coords<G>, i: usize) -> f64 {
        self.base
            .coordinate_magnitude_at(self.side, &G::Algebra::from_coords(theta), i)
    }
}

/// Step-by-step adaptive integration on a Lie group with any [`AdaptiveMethod`] lifted through
/// local coordinates.
#[derive(Debug, Clone)]
pub struct LieStepper<M, P, G: LieGroup<Scalar = f64>>
where
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    method: M,
    system: LieSystem<G, P>,
    stats: Stats,
    /// The base `y_n` of the last step (its dense output is relative to it).
    last_base: G,
    /// The current state `y_{n+1}`.
    current: G,
    time: f64,
    rebase_pending: bool,
    dense_ready: bool,
}

impl<M, P, G> LieStepper<M, P, G>
where
    G: LieGroup<Scalar = f64>,
    P: LieOde<G>,
    M: AdaptiveMethod<AlgebraDim<G>>,
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    /// Starts at `(t0, y0)` towards `t_end`, with the exact `dexp⁻¹`.
    ///
    /// # Errors
    /// As [`AdaptiveMethod::start`]; [`Error::NonFinite`] for a non-finite `y0`.
    pub fn new(method: M, problem: P, t0: f64, y0: G, t_end: f64) -> Result<Self> {
        Self::with_truncation(method, problem, t0, y0, t_end, Truncation::Exact)
    }

    /// As [`LieStepper::new`] with another evaluation of `dexp⁻¹` (a method of order `p` needs
    /// at least [`Truncation::for_order`]`(p)`).
    ///
    /// # Errors
    /// As [`LieStepper::new`].
    pub fn with_truncation(
        mut method: M,
        problem: P,
        t0: f64,
        y0: G,
        t_end: f64,
        truncation: Truncation,
    ) -> Result<Self> {
        if !y0.is_finite() {
            return Err(Error::NonFinite { name: "y0" });
        }
        let mut system = LieSystem::new(problem, y0, truncation);
        let mut stats = Stats::default();
        let zero = Coords::<G>::zeros();
        method.start(&mut system, t0, &zero, t_end, &mut stats)?;
        Ok(Self {
            method,
            system,
            stats,
            last_base: y0,
            current: y0,
            time: t0,
            rebase_pending: false,
            dense_ready: false,
        })
    }

    /// One accepted step.
    ///
    /// # Errors
    /// As [`AdaptiveMethod::step`]; [`Error::NonFiniteState`] for a non-finite group state.
    pub fn step(&mut self) -> Result<StepReport> {
        if self.rebase_pending {
            // θ restarts at 0 on the new base; its derivative there is ξ(t, y_{n+1}) itself.
            let zero = Coords::<G>::zeros();
            let xi = self.system.generator(self.time, &zero, &mut self.stats)?;
            self.method.rebase(zero, xi.to_coords());
            self.rebase_pending = false;
        }
        self.dense_ready = false;
        let report = self.method.step(&mut self.system, &mut self.stats)?;
        let (t1, theta) = self.method.current();
        let y1 = self.system.point(theta);
        if !y1.is_finite() {
            return Err(Error::NonFiniteState {
                what: "state",
                t: t1,
            });
        }
        // Re-key the cached generator value from θ on the old base to θ = 0 on the new one.
        let theta = theta.clone();
        self.system.cache = match self.system.cache.take() {
            Some((tc, th, xi)) if tc == t1 && th == theta => Some((t1, Coords::<G>::zeros(), xi)),
            _ => None,
        };
        self.last_base = self.system.base;
        self.system.base = y1;
        self.current = y1;
        self.time = t1;
        self.rebase_pending = true;
        Ok(report)
    }

    /// Prepares dense output for the last step.
    ///
    /// # Errors
    /// As [`AdaptiveMethod::prepare_dense`].
    pub fn prepare_dense(&mut self) -> Result<()> {
        if !self.dense_ready {
            // The method's extra stages are relative to the last step's base.
            let new_base = self.system.base;
            self.system.base = self.last_base;
            let saved = self.system.cache.take();
            let out = self.method.prepare_dense(&mut self.system, &mut self.stats);
            self.system.base = new_base;
            self.system.cache = saved;
            out?;
            self.dense_ready = true;
        }
        Ok(())
    }

    /// The dense output `exp(θ(t))·y_n` in the last step (after [`LieStepper::prepare_dense`]).
    pub fn dense(&self, t: f64) -> G {
        let theta = self.method.dense(t);
        self.last_base
            .exp_update(self.system.side, &G::Algebra::from_coords(&theta))
    }

    /// The last step's dense output, stored method-independently.
    pub fn segment(&self, t0: f64, t1: f64) -> LieSegment<G> {
        LieSegment {
            coordinates: DenseSegment::sample(t0, t1, self.method.dense_degree(), |t| {
                self.method.dense(t)
            }),
            base: self.last_base,
            side: self.system.side,
        }
    }

    /// The current time and state.
    pub fn current(&self) -> (f64, G) {
        (self.time, self.current)
    }

    /// The work done so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The problem, for changes between steps.
    pub fn problem_mut(&mut self) -> &mut P {
        &mut self.system.problem
    }

    /// The method.
    pub fn method(&self) -> &M {
        &self.method
    }
}

/// One step of dense output on a group: `exp(θ(t))·y_n` with `θ(t)` a stored polynomial.
#[derive(Debug, Clone, PartialEq)]
pub struct LieSegment<G: LieGroup<Scalar = f64>>
where
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    /// The local coordinates over the step.
    pub coordinates: DenseSegment<AlgebraDim<G>>,
    /// The step's base `y_n`.
    pub base: G,
    /// The side of the local coordinates.
    pub side: Side,
}

impl<G: LieGroup<Scalar = f64>> LieSegment<G>
where
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    /// The group state at `t`.
    pub fn eval(&self, t: f64) -> G {
        let theta = self.coordinates.eval(t);
        self.base
            .exp_update(self.side, &G::Algebra::from_coords(&theta))
    }
}
