//! # A nonlinear, fully coupled vector ODE on ℝ³ with an exact solution
//!
//! For order tests of classical (vector-space) Runge–Kutta methods, and for the Euclidean
//! reduction of the Lie-group engines:
//!
//! ```text
//! x' = F(x) + s(t),   s(t) = x*'(t) − F(x*(t)),
//! F(x) = ( −x₁ + x₂x₃ + sin x₃,
//!          x₁ − ½ x₂ − x₁x₃,
//!          cos(x₁ + x₂) + x₁x₂ − 0.3 x₃ ),
//! x*(t) = ( x*₁(t), x*₂(t), x*₃(t) ),   each a ScalarCurve.
//! ```
//!
//! The Jacobian `∂F/∂x = [[−1, x₃, x₂ + cos x₃], [1 − x₃, −½, −x₁],
//! [x₂ − sin(x₁+x₂), x₁ − sin(x₁+x₂), −0.3]]` has no zero entry at generic points, and `s`
//! makes the field time-dependent.
//!
//! # References
//! - P. J. Roache, *Code verification by the method of manufactured solutions*, J. Fluids Eng.
//!   124 (2002), 4–10.

use nalgebra::{SVector, Vector3};

use super::ScalarCurve;
use crate::error::Result;
use crate::lie::{Real, real};
use crate::ode::VectorOde;

/// `x' = F(x) + s(t)` on ℝ³ with the exact solution `x*(t)`; see the [module docs](self).
///
/// Default components: `x*₁(t) = 1 + 0.5 t − 0.2 t² + 0.3 sin 1.5t`,
/// `x*₂(t) = −0.5 + 0.8 sin(1.2 t + 0.2)`, `x*₃(t) = 0.7 − 0.4 t + 0.1 t² + 0.2 sin 2.1t`.
///
/// # Examples
/// ```
/// use lieode::problems::VectorTestProblem;
/// use lieode::ode::VectorOde;
/// let mut p = VectorTestProblem::default();
/// let t = 0.7;
/// let f = p.rhs(t, &p.exact(t));
/// assert!((f - p.exact_derivative(t)).norm() < 1e-14);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VectorTestProblem {
    components: [ScalarCurve; 3],
}

impl Default for VectorTestProblem {
    /// The curves [`VectorTestProblem::DEFAULT_COMPONENTS`].
    fn default() -> Self {
        Self {
            components: Self::DEFAULT_COMPONENTS,
        }
    }
}

impl VectorTestProblem {
    /// The time span `[0, 2]`: the solution moves by O(1) in every component, the Jacobian
    /// has Frobenius norm ≤ 2.6 along it, so the error growth `e^{LT}` stays moderate and
    /// `h = 2/N` with `N = 8 … 1024` is in the asymptotic regime above round-off.
    pub const TIME_SPAN: (f64, f64) = (0.0, 2.0);

    /// Default exact solution components `x*₁(t) = 1 + 0.5 t − 0.2 t² + 0.3 sin 1.5t`,
    /// `x*₂(t) = −0.5 + 0.8 sin(1.2 t + 0.2)`, `x*₃(t) = 0.7 − 0.4 t + 0.1 t² + 0.2 sin 2.1t`.
    pub const DEFAULT_COMPONENTS: [ScalarCurve; 3] = [
        ScalarCurve::new(1.0, 0.5, -0.2, 0.3, 1.5, 0.0),
        ScalarCurve::new(-0.5, 0.0, 0.0, 0.8, 1.2, 0.2),
        ScalarCurve::new(0.7, -0.4, 0.1, 0.2, 2.1, 0.0),
    ];

    /// The problem with exact solution `x*(t) = (c₁(t), c₂(t), c₃(t))`.
    ///
    /// # Errors
    /// [`crate::Error::NonFinite`] naming `components` if a coefficient is not finite.
    pub fn new(components: [ScalarCurve; 3]) -> Result<Self> {
        for c in &components {
            c.check("components")?;
        }
        Ok(Self { components })
    }

    /// The curves of the exact solution.
    pub fn components(&self) -> [ScalarCurve; 3] {
        self.components
    }

    /// The autonomous part `F(x) = (−x₁ + x₂x₃ + sin x₃, x₁ − ½x₂ − x₁x₃,
    /// cos(x₁ + x₂) + x₁x₂ − 0.3x₃)`.
    pub fn field<T: Real>(x: &Vector3<T>) -> Vector3<T> {
        Vector3::new(
            -x.x + x.y * x.z + x.z.sin(),
            x.x - x.y * real::<T>(0.5) - x.x * x.z,
            (x.x + x.y).cos() + x.x * x.y - x.z * real::<T>(0.3),
        )
    }

    /// The exact solution `x*(t)` in any scalar type.
    pub fn exact_generic<T: Real>(&self, t: T) -> Vector3<T> {
        Vector3::new(
            self.components[0].value(t),
            self.components[1].value(t),
            self.components[2].value(t),
        )
    }

    /// `x*'(t)`, componentwise in closed form.
    pub fn exact_derivative_generic<T: Real>(&self, t: T) -> Vector3<T> {
        Vector3::new(
            self.components[0].derivative(t),
            self.components[1].derivative(t),
            self.components[2].derivative(t),
        )
    }

    /// The exact solution `x*(t)`.
    pub fn exact(&self, t: f64) -> Vector3<f64> {
        self.exact_generic(t)
    }

    /// `x*'(t)`.
    pub fn exact_derivative(&self, t: f64) -> Vector3<f64> {
        self.exact_derivative_generic(t)
    }

    /// The source `s(t) = x*'(t) − F(x*(t))`.
    pub fn source<T: Real>(&self, t: T) -> Vector3<T> {
        self.exact_derivative_generic(t) - Self::field(&self.exact_generic(t))
    }
}

/// `x' = F(x) + s(t)`.
impl<T: Real> VectorOde<T, 3> for VectorTestProblem {
    fn rhs(&mut self, t: T, x: &SVector<T, 3>) -> SVector<T, 3> {
        Self::field(x) + self.source(t)
    }
}
