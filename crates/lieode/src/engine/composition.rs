//! Compositions of one-step methods and the adjoint method.

use nalgebra::SVector;

use super::{Method, Stats, Step, Stepped};
use crate::error::{Error, Result};
use crate::lie::{LieAlgebra, LieGroup, Real, real, to_f64};

/// What the generic drivers need of a state: a finiteness check ([`super::Fixed`] refuses a
/// non-finite start), and for the adjoint method a correction step and a distance.
pub trait StepState: Clone {
    /// Whether every entry is finite.
    fn all_finite(&self) -> bool;
    /// The scalar type.
    type Scalar: Real;
    /// `z` moved by the discrepancy between `target` and `image`: `z + (target − image)` on a
    /// vector space, `exp(log(target · image⁻¹)) · z` on a group (through `log` and `exp`, so
    /// that the correction is an exact group element and rounding does not accumulate off
    /// the group).
    ///
    /// # Errors
    /// As [`LieGroup::log`].
    fn correct(&self, target: &Self, image: &Self) -> Result<Self>;
    /// The distance between two states (Euclidean, or the group's [`LieGroup::distance`]).
    ///
    /// # Errors
    /// As [`LieGroup::distance`].
    fn gap(&self, other: &Self) -> Result<Self::Scalar>;
}

impl<T: Real, const N: usize> StepState for SVector<T, N> {
    type Scalar = T;
    fn all_finite(&self) -> bool {
        self.iter().all(|x| x.is_finite())
    }
    fn correct(&self, target: &Self, image: &Self) -> Result<Self> {
        Ok(self + (target - image))
    }
    fn gap(&self, other: &Self) -> Result<T> {
        Ok((self - other).norm())
    }
}

impl<G: LieGroup> StepState for G {
    type Scalar = G::Scalar;
    fn all_finite(&self) -> bool {
        self.is_finite()
    }
    fn correct(&self, target: &Self, image: &Self) -> Result<Self> {
        let delta = target.compose(&image.inverse()).log()?;
        Ok(G::exp(&delta).compose(self))
    }
    fn gap(&self, other: &Self) -> Result<G::Scalar> {
        self.distance(other)
    }
}

/// `Φ_b(βh) ∘ Φ_a(αh)`: a step of `first` with `αh`, then a step of `second` with `βh`
/// (starting at `t + αh`).
///
/// The stated order is the smaller of the two unless set with [`Composition::with_order`]
/// (compositions can have a higher order than their parts; [`Composition::strang`] and
/// [`SymmetricComposition::triple_jump`] set theirs).
///
/// # References
/// E. Hairer, C. Lubich, G. Wanner, *Geometric Numerical Integration*, §II.4 (composition
/// methods), §II.3 (adjoint methods), §V.3 (symmetric compositions).
#[derive(Debug, Clone)]
pub struct Composition<A, B, T> {
    first: A,
    alpha: T,
    second: B,
    beta: T,
    order: usize,
    name: String,
}

impl<A, B, T: Real> Composition<A, B, T> {
    /// `Φ_b(βh) ∘ Φ_a(αh)`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for non-finite fractions.
    pub fn new(first: A, alpha: f64, second: B, beta: f64) -> Result<Self>
    where
        A: Method,
        B: Method,
    {
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            crate::error::check_finite(name, v)?;
        }
        let order = first.order().min(second.order());
        let name = format!("{}({alpha}h) then {}({beta}h)", first.name(), second.name());
        Ok(Self {
            first,
            alpha: real(alpha),
            second,
            beta: real(beta),
            order,
            name,
        })
    }

    /// Sets the order to report (when the composition is known to raise it).
    pub fn with_order(mut self, order: usize) -> Self {
        self.order = order;
        self
    }

    /// Sets the name to report.
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }
}

impl<S: Clone, T: Real> Composition<Adjoint<S>, S, T> {
    /// The Strang-type symmetric composition `Φ_{h/2} ∘ Φ*_{h/2}` of a method with its adjoint:
    /// symmetric, of order `p + 1` for a method of odd order `p` (order `p` otherwise). For
    /// explicit Euler on a vector space this is the implicit midpoint rule; the other order,
    /// `Φ*_{h/2} ∘ Φ_{h/2}`, is the trapezoidal rule.
    ///
    /// # Errors
    /// As [`Adjoint::new`].
    pub fn strang(method: S) -> Result<Self>
    where
        S: Method,
    {
        let p = method.order();
        let name = format!("Strang({})", method.name());
        let adjoint = Adjoint::new(method.clone())?;
        Ok(Self::new(adjoint, 0.5, method, 0.5)?
            .with_order(if p % 2 == 1 { p + 1 } else { p })
            .with_name(name))
    }
}

impl<A, B, T, P> Step<P> for Composition<A, B, T>
where
    T: Real,
    P: ?Sized,
    A: Step<P, Scalar = T>,
    B: Step<P, Scalar = T, State = A::State>,
{
    type State = A::State;
    type Scalar = T;
    type ErrorEstimate = ();

    fn step(
        &mut self,
        problem: &mut P,
        t: T,
        y: &A::State,
        h: T,
        stats: &mut Stats,
    ) -> Result<Stepped<A::State, ()>> {
        let mid = self.first.step(problem, t, y, self.alpha * h, stats)?.state;
        let end = self
            .second
            .step(problem, t + self.alpha * h, &mid, self.beta * h, stats)?
            .state;
        Ok(Stepped {
            state: end,
            error: None,
        })
    }
}

impl<A: Method, B: Method, T> Method for Composition<A, B, T> {
    fn order(&self) -> usize {
        self.order
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn forget(&mut self) {
        self.first.forget();
        self.second.forget();
    }
}

/// A composition `Φ(γ_m h) ∘ ⋯ ∘ Φ(γ_1 h)` of one method with itself.
///
/// [`SymmetricComposition::triple_jump`] gives the Yoshida/Suzuki triple jump
/// `γ₁ = γ₃ = 1/(2 − 2^{1/(p+1)})`, `γ₂ = 1 − 2γ₁`, which raises a symmetric method of even
/// order `p` to order `p + 2`.
///
/// # References
/// H. Yoshida, *Construction of higher order symplectic integrators*, Phys. Lett. A 150 (1990)
/// 262–268; Hairer–Lubich–Wanner, §II.4, Eq. (4.4).
#[derive(Debug, Clone)]
pub struct SymmetricComposition<S, T> {
    method: S,
    fractions: Vec<T>,
    order: usize,
    name: String,
}

impl<S, T: Real> SymmetricComposition<S, T> {
    /// The composition with the given step fractions (applied first to last), reporting
    /// `order`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for an empty or non-finite list of fractions, or fractions
    /// whose sum is not 1.
    pub fn new(
        method: S,
        fractions: &[f64],
        order: usize,
        name: impl Into<String>,
    ) -> Result<Self> {
        let sum: f64 = fractions.iter().sum();
        if fractions.is_empty()
            || !fractions.iter().all(|f| f.is_finite())
            || (sum - 1.0).abs() > 1e-14
        {
            return Err(Error::InvalidParameter {
                name: "fractions",
                value: format!("{fractions:?}"),
                expected: "finite step fractions summing to 1".into(),
            });
        }
        Ok(Self {
            method,
            fractions: fractions.iter().map(|&f| real(f)).collect(),
            order,
            name: name.into(),
        })
    }

    /// The triple jump of a symmetric method of even order `p`: order `p + 2`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] if `p` is odd (the triple jump needs a symmetric method).
    pub fn triple_jump(method: S) -> Result<Self>
    where
        S: Method,
    {
        let p = method.order();
        if p % 2 == 1 {
            return Err(Error::InvalidParameter {
                name: "method",
                value: format!("{} of order {p}", method.name()),
                expected: "a symmetric method (of even order)".into(),
            });
        }
        let root = 2f64.powf(1.0 / (p as f64 + 1.0));
        let g1 = 1.0 / (2.0 - root);
        let g2 = 1.0 - 2.0 * g1;
        let name = format!("TripleJump({})", method.name());
        Self::new(method, &[g1, g2, g1], p + 2, name)
    }
}

impl<S, T, P> Step<P> for SymmetricComposition<S, T>
where
    T: Real,
    P: ?Sized,
    S: Step<P, Scalar = T>,
{
    type State = S::State;
    type Scalar = T;
    type ErrorEstimate = ();

    fn step(
        &mut self,
        problem: &mut P,
        t: T,
        y: &S::State,
        h: T,
        stats: &mut Stats,
    ) -> Result<Stepped<S::State, ()>> {
        let mut state = y.clone();
        let mut time = t;
        for &g in &self.fractions {
            state = self.method.step(problem, time, &state, g * h, stats)?.state;
            time += g * h;
        }
        Ok(Stepped { state, error: None })
    }
}

impl<S: Method, T> Method for SymmetricComposition<S, T> {
    fn order(&self) -> usize {
        self.order
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn forget(&mut self) {
        self.method.forget();
    }
}

/// Default tolerance of the adjoint's fixed-point iteration (distance between successive
/// images, relative to `1 + |state|`-sized quantities).
pub const ADJOINT_TOLERANCE: f64 = 1e-14;
/// The adjoint's iteration also stops when the gap stops shrinking (by half per iteration)
/// below `ADJOINT_TOLERANCE × ROUND_OFF_FLOOR_FACTOR`: the round-off floor of large states.
pub const ROUND_OFF_FLOOR_FACTOR: f64 = 1e3;
/// Default iteration limit of the adjoint's fixed-point iteration.
pub const ADJOINT_MAX_ITERATIONS: usize = 100;

/// The adjoint method `Φ*_h = (Φ_{−h})⁻¹`: `y₁ = Φ*_h(y₀)` solves `Φ_{−h}(y₁) = y₀`, found by the
/// fixed-point iteration `z ← z ⊕ (y₀ ⊖ Φ_{−h}(z))` from `z = y₀` (vector: `z + (y₀ − Φ_{−h}(z))`,
/// group: `exp(log(y₀ Φ_{−h}(z)⁻¹)) z`), which contracts for small `h`. The adjoint of explicit Euler is
/// implicit Euler; a method is symmetric when it equals its adjoint. The iteration stops when
/// the distance `|Φ_{−h}(z) ⊖ y₀|` is below the tolerance, or stalls (stops halving) below
/// [`ROUND_OFF_FLOOR_FACTOR`] times the tolerance.
///
/// # References
/// Hairer–Lubich–Wanner, *Geometric Numerical Integration*, §II.3, Definition 3.1.
#[derive(Debug, Clone)]
pub struct Adjoint<S> {
    method: S,
    tolerance: f64,
    max_iterations: usize,
    name: String,
}

impl<S> Adjoint<S> {
    /// The adjoint of `method` with the default iteration settings.
    ///
    /// # Errors
    /// Never with the defaults; kept fallible for symmetry with [`Adjoint::with_iteration`].
    pub fn new(method: S) -> Result<Self>
    where
        S: Method,
    {
        let name = format!("{}*", method.name());
        Ok(Self {
            method,
            tolerance: ADJOINT_TOLERANCE,
            max_iterations: ADJOINT_MAX_ITERATIONS,
            name,
        })
    }

    /// Sets the fixed-point tolerance and iteration limit.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a non-positive or non-finite tolerance or a zero limit.
    pub fn with_iteration(mut self, tolerance: f64, max_iterations: usize) -> Result<Self> {
        crate::error::check_finite("tolerance", tolerance)?;
        if !(tolerance > 0.0 && tolerance.is_finite()) {
            return Err(Error::InvalidParameter {
                name: "tolerance",
                value: format!("{tolerance:e}"),
                expected: "a finite value > 0".into(),
            });
        }
        if max_iterations == 0 {
            return Err(Error::InvalidParameter {
                name: "max_iterations",
                value: "0".into(),
                expected: "at least 1".into(),
            });
        }
        self.tolerance = tolerance;
        self.max_iterations = max_iterations;
        Ok(self)
    }
}

impl<S, P> Step<P> for Adjoint<S>
where
    P: ?Sized,
    S: Step<P>,
    S::State: StepState<Scalar = S::Scalar>,
{
    type State = S::State;
    type Scalar = S::Scalar;
    type ErrorEstimate = ();

    fn step(
        &mut self,
        problem: &mut P,
        t: S::Scalar,
        y: &S::State,
        h: S::Scalar,
        stats: &mut Stats,
    ) -> Result<Stepped<S::State, ()>> {
        let mut z = y.clone();
        let tolerance = real::<S::Scalar>(self.tolerance);
        let floor = real::<S::Scalar>(self.tolerance * ROUND_OFF_FLOOR_FACTOR);
        let mut previous: Option<S::Scalar> = None;
        for _ in 0..self.max_iterations {
            stats.nonlinear_iterations += 1;
            let image = self.method.step(problem, t + h, &z, -h, stats)?.state;
            let gap = image.gap(y)?;
            // Converged, or stalled at the round-off level of the state's size.
            let stalled = previous.is_some_and(|p| gap >= p * real(0.5)) && gap <= floor;
            if gap <= tolerance || stalled {
                return Ok(Stepped {
                    state: z,
                    error: None,
                });
            }
            previous = Some(gap);
            z = z.correct(y, &image)?;
        }
        Err(Error::NonConvergence {
            context: format!(
                "adjoint of {} (fixed point) at t = {:e}, h = {:e}, last gap {:e}",
                self.method.name(),
                to_f64(t),
                to_f64(h),
                previous.map_or(f64::NAN, to_f64)
            ),
            iterations: self.max_iterations,
        })
    }
}

impl<S: Method> Method for Adjoint<S> {
    fn order(&self) -> usize {
        self.method.order()
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn forget(&mut self) {
        self.method.forget();
    }
}

#[allow(dead_code)]
fn _assert_algebra_is_used<A: LieAlgebra>() {}
