//! # ODE problems
//!
//! The two kinds of problem every engine solves: a vector ODE `x' = F(t, x)` on `ℝᴺ` and an ODE
//! on a Lie group given by its generator, `y' = ξ(t, y)·y` or `y' = y·ξ(t, y)`.

use nalgebra::SVector;

use crate::lie::{LieGroup, Real, Side};

/// A vector ODE `x' = F(t, x)` on `ℝᴺ`.
///
/// Closures `FnMut(T, &SVector<T, N>) -> SVector<T, N>` implement it. To let implicit engines
/// and sensitivity analyses differentiate through it with dual numbers, implement it for every
/// scalar: `impl<T: Real> VectorOde<T, 3> for MyProblem { … }`.
pub trait VectorOde<T: Real, const N: usize> {
    /// `F(t, x)`.
    fn rhs(&mut self, t: T, x: &SVector<T, N>) -> SVector<T, N>;
}

impl<T: Real, const N: usize, F> VectorOde<T, N> for F
where
    F: FnMut(T, &SVector<T, N>) -> SVector<T, N>,
{
    #[inline(always)]
    fn rhs(&mut self, t: T, x: &SVector<T, N>) -> SVector<T, N> {
        self(t, x)
    }
}

/// An ODE on a Lie group, `y' = ξ(t, y) · y` ([`Side::Left`]) or `y' = y · ξ(t, y)`
/// ([`Side::Right`]), given by its generator `ξ: ℝ × G → 𝔤`.
///
/// Implement it for every scalar (`impl<T: Real> LieOde<So3<T>> for MyProblem`) to let
/// implicit engines differentiate through it with dual numbers.
pub trait LieOde<G: LieGroup> {
    /// On which side the generator multiplies the state.
    fn side(&self) -> Side;
    /// The generator `ξ(t, y)`.
    fn generator(&mut self, t: G::Scalar, y: &G) -> G::Algebra;
}

/// A Lie-group ODE from a closure and a side.
///
/// # Examples
/// ```
/// use lieode::ode::{LieOde, LieOdeFn};
/// use lieode::lie::{Side, so3::{So3, So3Algebra}};
/// use nalgebra::Vector3;
/// // Body-frame kinematics Ṙ = R ω̂ with a constant ω.
/// let mut ode = LieOdeFn::right(|_t: f64, _r: &So3| So3Algebra::new(Vector3::new(0.0, 0.0, 1.0)));
/// assert_eq!(ode.side(), Side::Right);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct LieOdeFn<F> {
    side: Side,
    f: F,
}

impl<F> LieOdeFn<F> {
    /// `y' = ξ(t, y) · y`.
    pub fn left(f: F) -> Self {
        Self {
            side: Side::Left,
            f,
        }
    }
    /// `y' = y · ξ(t, y)`.
    pub fn right(f: F) -> Self {
        Self {
            side: Side::Right,
            f,
        }
    }
}

impl<G: LieGroup, F> LieOde<G> for LieOdeFn<F>
where
    F: FnMut(G::Scalar, &G) -> G::Algebra,
{
    fn side(&self) -> Side {
        self.side
    }
    fn generator(&mut self, t: G::Scalar, y: &G) -> G::Algebra {
        (self.f)(t, y)
    }
}
