//! # Group actions on homogeneous spaces
//!
//! A Lie group `G` acting on a manifold `M` lets the Lie-group integrators solve ODEs on `M`:
//! an ODE `x' = ξ(t, x) · x` on `M` is the image of `y' = ξ(t, y·x₀) · y` on `G` (Iserles et al.
//! 2000, §3). Here: rotations ([`So3`], [`UnitQuat`]) acting on ℝ³ and on the unit sphere S².
//!
//! The infinitesimal action `ξ · x = d/dt exp(tξ) · x |₀` is `ω × x` for `ω ∈ so(3)` and
//! `2v × x` for `v ∈ su(2)` (the half-angle convention of `docs/notation.md`).
//!
//! # References
//! - A. Iserles et al., *Lie-group methods*, Acta Numerica 9 (2000), §2.1, §3.1.

use nalgebra::Vector3;

use super::so3::{So3, So3Algebra};
use super::unit_quaternion::{Su2Algebra, UnitQuat};
use super::{LieGroup, Real, real, to_f64};
use crate::error::{Error, Result};

/// A left action `G × M → M`, `(g, x) ↦ g · x`, with `e · x = x` and `g · (h · x) = (gh) · x`.
pub trait GroupAction<G: LieGroup>: Sized {
    /// The tangent vectors of the space, in ambient coordinates.
    type Tangent;
    /// `g · x`.
    fn act(&self, g: &G) -> Self;
    /// The infinitesimal action `d/dt exp(tξ) · x |₀`.
    fn infinitesimal(&self, xi: &G::Algebra) -> Self::Tangent;
}

/// Default tolerance of the unit-norm check of [`UnitSphere::new`].
pub const SPHERE_TOLERANCE: f64 = 1e-10;

/// A point of the unit sphere S² ⊂ ℝ³.
///
/// # Examples
/// ```
/// use lieode::lie::{LieGroup, action::{GroupAction, UnitSphere}, so3::{So3, So3Algebra}};
/// use nalgebra::Vector3;
/// let x = UnitSphere::new(Vector3::new(1.0, 0.0, 0.0)).unwrap();
/// let g = So3::exp(&So3Algebra::new(Vector3::new(0.0, 0.0, std::f64::consts::PI)));
/// assert!((x.act(&g).point() - Vector3::new(-1.0, 0.0, 0.0)).norm() < 1e-15);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnitSphere<T = f64>(Vector3<T>);

impl<T: Real> UnitSphere<T> {
    /// The point `x`, after checking `| |x| − 1 | ≤ 1e-10`.
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::NotOnGroup`] (the sphere's constraint `|x| = 1`)
    /// naming the parameter `x`.
    pub fn new(x: Vector3<T>) -> Result<Self> {
        if !x.iter().all(|c| c.is_finite()) {
            return Err(Error::NonFinite { name: "x" });
        }
        let deviation = (to_f64(x.norm()) - 1.0).abs();
        if deviation > SPHERE_TOLERANCE {
            return Err(Error::NotOnGroup {
                group: "S²",
                name: "x",
                constraint: "|x| = 1",
                deviation,
                tolerance: SPHERE_TOLERANCE,
            });
        }
        Ok(Self(x))
    }
    /// `x/|x|` for any finite non-zero `x` (divided by its largest entry first when `|x|²`
    /// would over- or underflow).
    ///
    /// # Errors
    /// [`Error::NonFinite`] for non-finite input, [`Error::InvalidParameter`] for `x = 0`.
    pub fn new_normalized(x: Vector3<T>) -> Result<Self> {
        if !x.iter().all(|c| c.is_finite()) {
            return Err(Error::NonFinite { name: "x" });
        }
        let largest = x.amax();
        if largest == T::zero() {
            return Err(Error::InvalidParameter {
                name: "x",
                value: "0".into(),
                expected: "a non-zero vector".into(),
            });
        }
        let n = x.norm();
        if n.is_finite() && n >= crate::lie::real(super::series::NORM_WITHOUT_SCALING) {
            return Ok(Self(x / n));
        }
        let scaled = x / largest;
        Ok(Self(scaled / scaled.norm()))
    }
    /// The point as a vector of ℝ³.
    pub fn point(&self) -> &Vector3<T> {
        &self.0
    }
    /// The great-circle distance `atan2(|x × y|, x·y)` to `other`.
    pub fn distance(&self, other: &Self) -> T {
        self.0.cross(&other.0).norm().atan2(self.0.dot(&other.0))
    }
}

impl<T: Real> GroupAction<So3<T>> for Vector3<T> {
    type Tangent = Vector3<T>;
    /// `R x`.
    fn act(&self, g: &So3<T>) -> Self {
        g.rotate(self)
    }
    /// `ω × x`.
    fn infinitesimal(&self, xi: &So3Algebra<T>) -> Vector3<T> {
        xi.0.cross(self)
    }
}

impl<T: Real> GroupAction<UnitQuat<T>> for Vector3<T> {
    type Tangent = Vector3<T>;
    /// `q x q⁻¹`.
    fn act(&self, g: &UnitQuat<T>) -> Self {
        g.rotate(self)
    }
    /// `2v × x`.
    fn infinitesimal(&self, xi: &Su2Algebra<T>) -> Vector3<T> {
        xi.0.cross(self) * real::<T>(2.0)
    }
}

impl<T: Real> GroupAction<So3<T>> for UnitSphere<T> {
    type Tangent = Vector3<T>;
    fn act(&self, g: &So3<T>) -> Self {
        Self(g.rotate(&self.0))
    }
    fn infinitesimal(&self, xi: &So3Algebra<T>) -> Vector3<T> {
        <Vector3<T> as GroupAction<So3<T>>>::infinitesimal(&self.0, xi)
    }
}

impl<T: Real> GroupAction<UnitQuat<T>> for UnitSphere<T> {
    type Tangent = Vector3<T>;
    fn act(&self, g: &UnitQuat<T>) -> Self {
        Self(g.rotate(&self.0))
    }
    fn infinitesimal(&self, xi: &Su2Algebra<T>) -> Vector3<T> {
        <Vector3<T> as GroupAction<UnitQuat<T>>>::infinitesimal(&self.0, xi)
    }
}
