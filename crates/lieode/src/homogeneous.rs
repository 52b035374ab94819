//! # ODEs on homogeneous spaces, solved on the group
//!
//! An ODE on a manifold `M` on which a Lie group acts transitively can be written
//! `x' = ξ(t, x) · x` with the infinitesimal action of `ξ ∈ 𝔤`, and solved on the group: with
//! `x = y · x₀`, the group ODE `y' = ξ(t, y · x₀) · y` ([`Side::Left`]) carries `x` along.
//! Every Lie-group engine then solves the ODE on `M`, and `x` stays on `M` exactly (up to
//! rounding of the action).
//!
//! [`SphereOde`] does this for the unit sphere S² with rotations: `x' = ω(t, x) × x`.
//!
//! # References
//! A. Iserles, H. Munthe-Kaas, S. Nørsett, A. Zanna, *Lie-group methods*, Acta Numerica 9
//! (2000), §3.1–3.2.

use nalgebra::Vector3;

use crate::lie::action::{GroupAction, UnitSphere};
use crate::lie::so3::{So3, So3Algebra};
use crate::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use crate::lie::{Real, Side, real};
use crate::ode::LieOde;

/// The ODE `x' = ω(t, x) × x` on the unit sphere, as a Lie-group ODE on [`So3`] or
/// [`UnitQuat`] through `x = y · x₀` (generator `ω(t, y x₀)`, or `ω/2` in su(2) coordinates).
///
/// The angular-velocity field is a closure `FnMut(T, &Vector3<T>) -> Vector3<T>`; write it
/// generically (a function generic over `T: Real`) to let implicit engines differentiate it.
///
/// # Examples
/// ```
/// use lieode::engine::{MuntheKaas, Stats, Step};
/// use lieode::homogeneous::SphereOde;
/// use lieode::lie::{LieGroup, action::UnitSphere, so3::So3};
/// use lieode::tableau::registry::RK4;
/// use nalgebra::Vector3;
/// // Rotation about the z axis at unit rate: x(t) = R_z(t) x₀.
/// let x0 = UnitSphere::new(Vector3::new(1.0, 0.0, 0.0)).unwrap();
/// let mut ode = SphereOde::new(x0, |_t: f64, _x: &Vector3<f64>| Vector3::new(0.0, 0.0, 1.0));
/// let mut rk4 = MuntheKaas::<So3>::new(&RK4).unwrap();
/// let y = rk4.step(&mut ode, 0.0, &So3::identity(), 0.5, &mut Stats::default()).unwrap().state;
/// let x = ode.point(&y);
/// assert!((x.point() - Vector3::new(0.5f64.cos(), 0.5f64.sin(), 0.0)).norm() < 1e-15);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SphereOde<F> {
    x0: UnitSphere<f64>,
    omega: F,
}

impl<F> SphereOde<F> {
    /// The ODE with base point `x₀` (the group state starts at the identity).
    pub fn new(x0: UnitSphere<f64>, omega: F) -> Self {
        Self { x0, omega }
    }

    /// The base point `x₀`.
    pub fn base_point(&self) -> &UnitSphere<f64> {
        &self.x0
    }

    /// The point `y · x₀` of a group state (rotation matrix or rotor).
    pub fn point<G>(&self, y: &G) -> UnitSphere<f64>
    where
        UnitSphere<f64>: GroupAction<G>,
        G: crate::lie::LieGroup,
    {
        self.x0.act(y)
    }

    fn base<T: Real>(&self) -> Vector3<T> {
        self.x0.point().map(real::<T>)
    }
}

impl<T: Real, F> LieOde<So3<T>> for SphereOde<F>
where
    F: FnMut(T, &Vector3<T>) -> Vector3<T>,
{
    fn side(&self) -> Side {
        Side::Left
    }
    /// `ω(t, y x₀)`.
    fn generator(&mut self, t: T, y: &So3<T>) -> So3Algebra<T> {
        let x = y.rotate(&self.base());
        So3Algebra((self.omega)(t, &x))
    }
}

impl<T: Real, F> LieOde<UnitQuat<T>> for SphereOde<F>
where
    F: FnMut(T, &Vector3<T>) -> Vector3<T>,
{
    fn side(&self) -> Side {
        Side::Left
    }
    /// `ω(t, q x₀ q⁻¹)/2` (su(2) coordinates, `docs/notation.md`).
    fn generator(&mut self, t: T, q: &UnitQuat<T>) -> Su2Algebra<T> {
        let x = q.rotate(&self.base());
        Su2Algebra::from_rotation_vector(&(self.omega)(t, &x))
    }
}
