//! A rigid body that translates and rotates: mass and principal inertia.

use nalgebra::{Matrix3, Quaternion};

use super::RigidBody;
use crate::error::{Error, Result, check_finite};
use crate::lie::{Real, to_f64};

/// A rigid body that translates and rotates, the body of the many-body layer
/// ([`crate::system`], which re-exports it as `system::Body`): its mass and its rotational
/// inertia ([`RigidBody`]: the principal moments, or a full tensor diagonalised with
/// [`Body::from_tensor`], which is [`RigidBody::from_tensor`] with a mass).
///
/// # Examples
/// ```
/// use lieode::body::Body;
/// let ball = Body::solid_sphere(2.0, 0.5)?; // m = 2, r = 0.5: I = 2/5 m r² = 0.2
/// assert!((ball.rigid().inertia().x - 0.2).abs() < 1e-15);
/// assert!(Body::new(0.0, [1.0, 1.0, 1.0]).is_err());
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Body<T: Real = f64> {
    mass: T,
    inverse_mass: T,
    rigid: RigidBody<T>,
}

impl Body {
    /// A body of mass `mass` with the principal moments `inertia` (in its principal frame).
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `mass`; [`Error::InvalidParameter`] naming `mass` unless it is
    /// positive with a finite reciprocal; those of [`RigidBody::new`] for the moments.
    pub fn new(mass: f64, inertia: [f64; 3]) -> Result<Self> {
        Self::with_rigid(mass, RigidBody::new(inertia)?)
    }

    /// A body of mass `mass` with the rotational part `rigid` (e.g. from
    /// [`RigidBody::with_moments`] for a test problem whose moments no body can have).
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `mass`; [`Error::InvalidParameter`] naming `mass` unless it is
    /// positive with a finite reciprocal.
    pub fn with_rigid(mass: f64, rigid: RigidBody) -> Result<Self> {
        check_mass(mass)?;
        Ok(Self {
            mass,
            inverse_mass: 1.0 / mass,
            rigid,
        })
    }

    /// A body of mass `mass` with a general symmetric inertia tensor, diagonalised by
    /// [`RigidBody::from_tensor`]: returns the body in its principal frame and the rotor from
    /// the principal to the given frame.
    ///
    /// # Errors
    /// Those of [`RigidBody::from_tensor`] for the tensor, then those of [`Body::with_rigid`]
    /// for the mass.
    pub fn from_tensor(mass: f64, tensor: &Matrix3<f64>) -> Result<(Self, Quaternion<f64>)> {
        let (rigid, rotor) = RigidBody::from_tensor(tensor)?;
        Ok((Self::with_rigid(mass, rigid)?, rotor))
    }

    /// A homogeneous solid sphere, `I = 2/5 m r²`.
    ///
    /// # Errors
    /// As [`Body::new`]; [`Error::InvalidParameter`] naming `radius` unless it is positive and
    /// finite.
    pub fn solid_sphere(mass: f64, radius: f64) -> Result<Self> {
        check_finite("radius", radius)?;
        if radius <= 0.0 {
            return Err(Error::InvalidParameter {
                name: "radius",
                value: format!("{radius:e}"),
                expected: "a positive radius".into(),
            });
        }
        let i = 0.4 * mass * radius * radius;
        Self::new(mass, [i, i, i])
    }
}

impl<T: Real> Body<T> {
    /// A body over the scalar `T` — dual numbers whose derivative parts make the mass and the
    /// moments parameters of a sensitivity run ([`crate::sensitivity`]; the moments through
    /// [`RigidBody::from_scalar_moments`]). The real part of the mass is checked as
    /// [`Body::with_rigid`] checks it.
    ///
    /// # Errors
    /// As [`Body::with_rigid`] for the real part of `mass`.
    pub fn from_scalars(mass: T, rigid: RigidBody<T>) -> Result<Self> {
        check_mass(to_f64(mass))?;
        Ok(Self {
            mass,
            inverse_mass: T::one() / mass,
            rigid,
        })
    }

    /// The mass.
    pub fn mass(&self) -> T {
        self.mass
    }

    /// `1/m`.
    pub fn inverse_mass(&self) -> T {
        self.inverse_mass
    }

    /// The rotational part: principal moments and Euler's equations.
    pub fn rigid(&self) -> &RigidBody<T> {
        &self.rigid
    }
}

/// The checks of a mass: finite, positive, with a finite reciprocal.
fn check_mass(mass: f64) -> Result<()> {
    check_finite("mass", mass)?;
    if mass > 0.0 && (1.0 / mass).is_finite() {
        Ok(())
    } else {
        Err(Error::InvalidParameter {
            name: "mass",
            value: format!("{mass:e}"),
            expected: "a positive mass with a finite reciprocal".into(),
        })
    }
}
