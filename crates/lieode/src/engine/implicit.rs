//! Implicit Runge–Kutta methods: on `ℝᴺ` ([`ImplicitRk`]) and Munthe-Kaas on Lie groups
//! ([`ImplicitMuntheKaas`]).

use std::marker::PhantomData;

use nalgebra::{DefaultAllocator, DimName, OVector, SVector, allocator::Allocator};
use num_dual::Dual64;

use super::munthe_kaas::state_checked;
use super::stage_solver::{FixedPoint, Newton, NonlinearOptions, StageSystem, output_weights};
use super::{LieOde, Method, Stats, Step, Stepped, VectorOde, check_step_input};
use crate::error::{Error, Result};
use crate::lie::coordinates::{Chart, ExponentialMap};
use crate::lie::{AlgebraDim, LieAlgebra, LieGroup, Real, Side, Truncation, real, to_f64};
use crate::tableau::ButcherTableau;

/// What both implicit engines keep of a tableau.
#[derive(Debug, Clone)]
struct ImplicitCoefficients<T> {
    name: String,
    order: usize,
    c: Vec<T>,
    b: Vec<T>,
    /// `bᵀA⁻¹`, when `A` is invertible.
    output: Option<Vec<T>>,
}

impl<T: Real> ImplicitCoefficients<T> {
    fn new(tableau: &ButcherTableau) -> Result<Self> {
        tableau.validate()?;
        let conv = |v: &[f64]| v.iter().map(|&x| real::<T>(x)).collect::<Vec<T>>();
        Ok(Self {
            name: tableau.name.to_string(),
            order: tableau.order,
            c: conv(&tableau.c),
            b: conv(&tableau.b),
            output: output_weights(&tableau.a, &tableau.b, tableau.stages).map(|d| conv(&d)),
        })
    }
}

/// An implicit Runge–Kutta method for `x' = F(t, x)`, solved by simplified Newton iteration
/// (`S = Newton`, Jacobian by dual numbers, the problem must implement [`VectorOde`] for
/// `f64` and `Dual64`) or by fixed-point iteration (`S = FixedPoint`, any problem).
///
/// Stage equations `Z_i = h Σ_j a_ij F(t + c_j h, x + Z_j)`; the new state is
/// `x₁ = x + Σ d_i Z_i` with `dᵀ = bᵀA⁻¹` when `A` is invertible (no extra evaluation), else
/// `x₁ = x + h Σ b_i F(t + c_i h, x + Z_i)`.
///
/// # References
/// E. Hairer, G. Wanner, *Solving Ordinary Differential Equations II*, 2nd ed., §IV.8
/// (simplified Newton iterations, Eq. (8.2)–(8.4)).
///
/// # Examples
/// ```
/// use lieode::engine::{FixedPoint, ImplicitRk, Stats, Step};
/// use lieode::tableau::registry::GAUSS4;
/// use nalgebra::Vector1;
/// let mut gauss = ImplicitRk::<f64, 1, FixedPoint>::new(&GAUSS4).unwrap();
/// let mut decay = |_t: f64, x: &Vector1<f64>| -x;
/// let h = 0.1;
/// let out = gauss.step(&mut decay, 0.0, &Vector1::new(1.0), h, &mut Stats::default()).unwrap();
/// // On x' = −x, two-stage Gauss–Legendre is the (2,2) Padé approximant of e^{−h}.
/// let pade = (1.0 - h / 2.0 + h * h / 12.0) / (1.0 + h / 2.0 + h * h / 12.0);
/// assert!((out.state[0] - pade).abs() < 1e-15);
/// ```
#[derive(Debug, Clone)]
pub struct ImplicitRk<T: Real, const N: usize, S = Newton> {
    coefficients: ImplicitCoefficients<T>,
    system: StageSystem<T>,
    solver: PhantomData<S>,
}

impl<T: Real, const N: usize, S> ImplicitRk<T, N, S> {
    /// The method of any (explicit or implicit) tableau, with default solver settings.
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] for an invalid tableau.
    pub fn new(tableau: &ButcherTableau) -> Result<Self> {
        Ok(Self {
            coefficients: ImplicitCoefficients::new(tableau)?,
            system: StageSystem::new(&tableau.a, tableau.stages, N, NonlinearOptions::default()),
            solver: PhantomData,
        })
    }

    /// Sets the solver settings.
    ///
    /// # Errors
    /// As [`NonlinearOptions::validate`].
    pub fn with_options(mut self, options: NonlinearOptions) -> Result<Self> {
        options.validate()?;
        self.system.options = options;
        Ok(self)
    }
}

/// `x + Σ d_i Z_i` or `x + h Σ b_i K_i`.
fn combine<T: Real>(co: &ImplicitCoefficients<T>, system: &StageSystem<T>, h: T, start: &mut [T]) {
    let d = system.d;
    for i in 0..system.s {
        let (w, src) = match &co.output {
            Some(dw) => (dw[i], &system.z[i * d..(i + 1) * d]),
            None => (h * co.b[i], &system.k[i * d..(i + 1) * d]),
        };
        if w != T::zero() {
            for (x, v) in start.iter_mut().zip(src) {
                *x += w * *v;
            }
        }
    }
}

fn vector_stage<T: Real, const N: usize, P: VectorOde<T, N> + ?Sized>(
    problem: &mut P,
    t: T,
    y: &SVector<T, N>,
    zi: &[T],
    ki: &mut [T],
) -> Result<()> {
    let x = y + SVector::<T, N>::from_column_slice(zi);
    let f = problem.rhs(t, &x);
    if !f.iter().all(|v| v.is_finite()) {
        return Err(Error::NonFiniteState {
            what: "right-hand side",
            t: to_f64(t),
        });
    }
    ki.copy_from_slice(f.as_slice());
    Ok(())
}

fn finish_vector<T: Real, const N: usize, S>(
    engine: &ImplicitRk<T, N, S>,
    y: &SVector<T, N>,
    t: T,
    h: T,
) -> Result<Stepped<SVector<T, N>, ()>> {
    let mut y1 = *y;
    combine(&engine.coefficients, &engine.system, h, y1.as_mut_slice());
    if !y1.iter().all(|v| v.is_finite()) {
        return Err(Error::NonFiniteState {
            what: "state",
            t: to_f64(t + h),
        });
    }
    Ok(Stepped {
        state: y1,
        error: None,
    })
}

impl<T: Real, const N: usize, P: VectorOde<T, N> + ?Sized> Step<P>
    for ImplicitRk<T, N, FixedPoint>
{
    type State = SVector<T, N>;
    type Scalar = T;
    type ErrorEstimate = ();

    fn step(
        &mut self,
        problem: &mut P,
        t: T,
        y: &SVector<T, N>,
        h: T,
        stats: &mut Stats,
    ) -> Result<Stepped<SVector<T, N>, ()>> {
        check_step_input(t, h)?;
        let c = &self.coefficients.c;
        let scale = y.amax();
        self.system.solve_fixed_point(
            t,
            h,
            scale,
            |i, zi, ki| vector_stage(problem, t + c[i] * h, y, zi, ki),
            stats,
        )?;
        finish_vector(self, y, t, h)
    }
}

impl<T: Real, const N: usize, S> Method for ImplicitRk<T, N, S> {
    fn order(&self) -> usize {
        self.coefficients.order
    }
    fn name(&self) -> &str {
        &self.coefficients.name
    }
}

/// Over `f64`, and over a sensitivity run's dual numbers: the Jacobian is then taken at the
/// real parts (with `Dual64`: the problem evaluates over it too), the iteration matrix of the
/// simplified Newton solve, which the stages' derivative parts converge with.
impl<T: Real, const N: usize, P> Step<P> for ImplicitRk<T, N, Newton>
where
    P: VectorOde<T, N> + VectorOde<Dual64, N> + ?Sized,
{
    type State = SVector<T, N>;
    type Scalar = T;
    type ErrorEstimate = ();

    fn step(
        &mut self,
        problem: &mut P,
        t: T,
        y: &SVector<T, N>,
        h: T,
        stats: &mut Stats,
    ) -> Result<Stepped<SVector<T, N>, ()>> {
        check_step_input(t, h)?;
        // J = ∂F/∂x at (t, x), one dual evaluation per column.
        stats.jacobian_evaluations += 1;
        for col in 0..N {
            let x = SVector::<Dual64, N>::from_fn(|r, _| {
                Dual64::new(to_f64(y[r]), if r == col { 1.0 } else { 0.0 })
            });
            let f = <P as VectorOde<Dual64, N>>::rhs(problem, Dual64::from(to_f64(t)), &x);
            for r in 0..N {
                self.system.jacobian[r * N + col] = real(f[r].eps);
            }
        }
        let c = &self.coefficients.c;
        let scale = y.amax();
        self.system.solve_newton(
            t,
            h,
            scale,
            |i, zi, ki| vector_stage::<T, N, P>(problem, t + c[i] * h, y, zi, ki),
            stats,
        )?;
        finish_vector(self, y, t, h)
    }
}

/// The Munthe-Kaas method of an implicit tableau on any Lie group: the implicit Runge–Kutta
/// method applied, in local coordinates at the step's start, to
/// `θ' = dexp⁻¹_{±θ}(ξ(t, exp(θ)·y_n))` (see [`super::MuntheKaas`]):
///
/// `θ_i = h Σ_j a_ij dexp⁻¹_{±θ_j}(ξ(t + c_j h, exp(θ_j)·y_n))`, `y_{n+1} = exp(Σ d_i θ_i)·y_n`
/// (`dᵀ = bᵀA⁻¹`), or the right-side analogues. `dexp⁻¹` is truncated for the tableau's order
/// by default; for the one-stage implicit midpoint rule that is the identity, which makes the
/// method symmetric (Krysl's IMIDM on `SO(3) × ℝ³`).
///
/// `S = Newton` computes the Jacobian of the local vector field at `θ = 0` with dual numbers
/// (the problem must implement [`LieOde`] for the group over `f64` and over `Dual64`) and
/// iterates with it (simplified Newton); if that fails it retries with fixed-point iteration,
/// then with full Newton (dual-number Jacobians at the iterates, backtracking line search).
/// `S = FixedPoint` needs no Jacobian.
///
/// # References
/// - H. Munthe-Kaas, *High order Runge–Kutta methods on manifolds*, Appl. Numer. Math. 29
///   (1999); A. Iserles et al., Acta Numerica 9 (2000), §5.
/// - P. Krysl, *Dynamically equivalent implicit algorithms for the integration of rigid body
///   rotations* (2007), §3.6–3.7 (IMIDM as an implicit Munthe-Kaas step).
#[derive(Debug, Clone)]
pub struct ImplicitMuntheKaas<G: LieGroup, S = Newton, C = ExponentialMap> {
    coefficients: ImplicitCoefficients<G::Scalar>,
    truncation: Truncation,
    system: StageSystem<G::Scalar>,
    /// `θ = 0` in coordinates, where the simplified-Newton Jacobian is taken.
    origin: Vec<G::Scalar>,
    /// The address of the problem whose Jacobian the stage system keeps (another problem
    /// object never reuses it).
    jacobian_problem: usize,
    solver: PhantomData<S>,
    chart: PhantomData<C>,
}

impl<G: LieGroup, S> ImplicitMuntheKaas<G, S> {
    /// The method of a tableau, with `dexp⁻¹` truncated for its order and default solver
    /// settings.
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] for an invalid tableau.
    pub fn new(tableau: &ButcherTableau) -> Result<Self> {
        let coefficients = ImplicitCoefficients::new(tableau)?;
        let d = <AlgebraDim<G> as DimName>::DIM;
        Ok(Self {
            truncation: Truncation::for_order(coefficients.order),
            coefficients,
            system: StageSystem::new(&tableau.a, tableau.stages, d, NonlinearOptions::default()),
            origin: vec![real(0.0); d],
            jacobian_problem: 0,
            solver: PhantomData,
            chart: PhantomData,
        })
    }
}

impl<G: LieGroup, S, C> ImplicitMuntheKaas<G, S, C> {
    /// The same method in the coordinates of another chart `C2` ([`Chart`]), e.g.
    /// [`CayleyMap`](crate::lie::coordinates::CayleyMap): the implicit-midpoint tableau in
    /// Cayley coordinates is the Cayley-map midpoint rule of Austin, Krishnaprasad and Wang.
    pub fn with_coordinates<C2>(self) -> ImplicitMuntheKaas<G, S, C2> {
        ImplicitMuntheKaas {
            coefficients: self.coefficients,
            truncation: self.truncation,
            system: self.system,
            origin: self.origin,
            jacobian_problem: 0,
            solver: PhantomData,
            chart: PhantomData,
        }
    }

    /// The same method with another evaluation of `dexp⁻¹` (the exponential chart's series).
    pub fn with_truncation(mut self, truncation: Truncation) -> Self {
        self.truncation = truncation;
        self
    }

    /// Sets the solver settings.
    ///
    /// # Errors
    /// As [`NonlinearOptions::validate`].
    pub fn with_options(mut self, options: NonlinearOptions) -> Result<Self> {
        options.validate()?;
        self.system.options = options;
        Ok(self)
    }
}

/// The local vector field `K(θ) = dexp⁻¹_{±θ}(ξ(t, exp(θ)·y))` in coordinates.
fn lie_stage<G, C, P>(
    problem: &mut P,
    side: Side,
    truncation: Truncation,
    t: G::Scalar,
    y: &G,
    zi: &[G::Scalar],
    ki: &mut [G::Scalar],
) -> Result<()>
where
    G: LieGroup,
    C: Chart<G>,
    P: LieOde<G> + ?Sized,
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    let theta =
        G::Algebra::from_coords(&OVector::<G::Scalar, AlgebraDim<G>>::from_column_slice(zi));
    let yi = C::update(side, y, &theta);
    // The stage solver counts the evaluation.
    let xi = problem.generator(t, &yi);
    if !xi.is_finite() {
        return Err(Error::NonFiniteState {
            what: "generator",
            t: to_f64(t),
        });
    }
    let k = C::local_field(side, &theta, &xi, truncation).to_coords();
    ki.copy_from_slice(k.as_slice());
    Ok(())
}

/// `∂K/∂θ` at `θ = z` (row-major `d × d` into `block`) of the local vector field
/// `K(θ) = dexp⁻¹_{±θ}(ξ(t, exp(θ)·y))`, one dual-number evaluation per direction. Over a
/// sensitivity run's dual numbers it is the Jacobian at the real parts (`y_dual` and `z` taken
/// to `Dual64` by their real parts): the iteration matrix of the simplified Newton solve, which
/// the derivative parts of the stages then converge with.
fn lie_stage_jacobian<G, C, P>(
    problem: &mut P,
    side: Side,
    truncation: Truncation,
    t: f64,
    y_dual: &G::WithScalar<Dual64>,
    z: &[G::Scalar],
    block: &mut [G::Scalar],
) where
    G: LieGroup,
    C: Chart<G::WithScalar<Dual64>>,
    P: LieOde<G::WithScalar<Dual64>> + ?Sized,
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    let d = z.len();
    for col in 0..d {
        let seed = OVector::<Dual64, AlgebraDim<G>>::from_fn(|r, _| {
            Dual64::new(to_f64(z[r]), if r == col { 1.0 } else { 0.0 })
        });
        let theta = <G::WithScalar<Dual64> as LieGroup>::Algebra::from_coords(&seed);
        let yi = C::update(side, y_dual, &theta);
        let xi = problem.generator(Dual64::from(t), &yi);
        let k = C::local_field(side, &theta, &xi, truncation).to_coords();
        for r in 0..d {
            block[r * d + col] = real(k[r].eps);
        }
    }
}

fn finish_lie<G: LieGroup, S, C: Chart<G>>(
    engine: &ImplicitMuntheKaas<G, S, C>,
    side: Side,
    y: &G,
    t: G::Scalar,
    h: G::Scalar,
) -> Result<Stepped<G, ()>>
where
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    let mut theta = OVector::<G::Scalar, AlgebraDim<G>>::zeros();
    combine(
        &engine.coefficients,
        &engine.system,
        h,
        theta.as_mut_slice(),
    );
    let y1 = state_checked(C::update(side, y, &G::Algebra::from_coords(&theta)), t + h)?;
    Ok(Stepped {
        state: y1,
        error: None,
    })
}

impl<G, C, P> Step<P> for ImplicitMuntheKaas<G, FixedPoint, C>
where
    G: LieGroup,
    C: Chart<G>,
    P: LieOde<G> + ?Sized,
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    type State = G;
    type Scalar = G::Scalar;
    type ErrorEstimate = ();

    fn step(
        &mut self,
        problem: &mut P,
        t: G::Scalar,
        y: &G,
        h: G::Scalar,
        stats: &mut Stats,
    ) -> Result<Stepped<G, ()>> {
        check_step_input(t, h)?;
        let side = problem.side();
        let truncation = self.truncation;
        let c = &self.coefficients.c;
        self.system.solve_fixed_point(
            t,
            h,
            real(1.0),
            |i, zi, ki| lie_stage::<G, C, P>(problem, side, truncation, t + c[i] * h, y, zi, ki),
            stats,
        )?;
        finish_lie(self, side, y, t, h)
    }
}

impl<G: LieGroup, S, C> Method for ImplicitMuntheKaas<G, S, C> {
    fn order(&self) -> usize {
        self.coefficients.order
    }
    fn name(&self) -> &str {
        &self.coefficients.name
    }
    fn forget(&mut self) {
        self.system.forget();
    }
}

impl<G, C, P> Step<P> for ImplicitMuntheKaas<G, Newton, C>
where
    G: LieGroup,
    C: Chart<G> + Chart<G::WithScalar<Dual64>>,
    P: LieOde<G> + LieOde<G::WithScalar<Dual64>> + ?Sized,
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    type State = G;
    type Scalar = G::Scalar;
    type ErrorEstimate = ();

    fn step(
        &mut self,
        problem: &mut P,
        t: G::Scalar,
        y: &G,
        h: G::Scalar,
        stats: &mut Stats,
    ) -> Result<Stepped<G, ()>> {
        check_step_input(t, h)?;
        let problem_id = problem as *const P as *const () as usize;
        if problem_id != self.jacobian_problem {
            self.system.forget();
            self.jacobian_problem = problem_id;
        }
        let side = <P as LieOde<G>>::side(problem);
        let truncation = self.truncation;
        let y_dual = y.cast::<Dual64>();
        let c = &self.coefficients.c;
        let problem = std::cell::RefCell::new(problem);
        let stage = |i: usize, zi: &[G::Scalar], ki: &mut [G::Scalar]| {
            let p = &mut **problem.borrow_mut();
            lie_stage::<G, C, P>(p, side, truncation, t + c[i] * h, y, zi, ki)
        };
        // J = ∂K/∂θ at θ = 0, one dual evaluation per algebra direction (kept from the previous
        // step when that one contracted fast with the same h).
        let origin = &self.origin;
        let start_jacobian = |block: &mut [G::Scalar]| {
            let p = &mut **problem.borrow_mut();
            lie_stage_jacobian::<G, C, P>(p, side, truncation, to_f64(t), &y_dual, origin, block);
        };
        let simplified = self.system.solve_newton_reusing(
            t,
            h,
            real::<G::Scalar>(1.0),
            stage,
            start_jacobian,
            stats,
        );
        let solved = match simplified {
            Err(Error::NonConvergence { .. } | Error::NonFiniteState { .. }) => {
                // Large steps: the fixed-point iteration if it contracts, else full Newton
                // with a line search and the Jacobians at the iterates.
                self.system
                    .solve_fixed_point(t, h, real::<G::Scalar>(1.0), stage, stats)
                    .or_else(|_| {
                        let jacobian = |i: usize, zi: &[G::Scalar], block: &mut [G::Scalar]| {
                            let p = &mut **problem.borrow_mut();
                            lie_stage_jacobian::<G, C, P>(
                                p,
                                side,
                                truncation,
                                to_f64(t + c[i] * h),
                                &y_dual,
                                zi,
                                block,
                            );
                            Ok(())
                        };
                        self.system.solve_damped_newton(
                            t,
                            h,
                            real::<G::Scalar>(1.0),
                            stage,
                            jacobian,
                            stats,
                        )
                    })
            }
            other => other,
        };
        solved?;
        finish_lie(self, side, y, t, h)
    }
}
