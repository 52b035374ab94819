//! The kinematics problem: an angular velocity `ω(t, R, x)` in the inertial or the body frame,
//! optionally coupled to an extra vector state `x' = g(t, R, x)`.

use crate::body::Frame;
use nalgebra::{Matrix3, Quaternion, SVector, Vector3};

use crate::body::quaternion::{exp_pure, rotation_matrix};
use crate::lie::so3::So3;
use crate::lie::unit_quaternion::UnitQuat;

/// The orientation as the formulation being integrated holds it, handed to the angular velocity
/// and the coupled right-hand side. Nothing is converted unless asked for, so an `ω(t)` that
/// ignores the orientation costs no conversion.
#[derive(Debug, Clone, Copy)]
pub enum Attitude<'a> {
    /// A rotor `R ≠ 0`, not necessarily of unit norm (vectors rotate by `R v R⁻¹`).
    Rotor(&'a Quaternion<f64>),
    /// The frame vectors `f_i` as the columns of a matrix (not necessarily orthonormal).
    Frame(&'a Matrix3<f64>),
    /// A generator `r` with `R = exp(r)` (`|r|` is half the rotation angle).
    Generator(&'a Vector3<f64>),
    /// A unit rotor (the Lie-group formulation).
    Unit(&'a UnitQuat<f64>),
}

impl Attitude<'_> {
    /// The orientation as a unit rotor (for frame vectors, from the matrix by Shepperd's
    /// method, then normalised: the nearest rotor of a slightly non-orthogonal frame).
    pub fn rotor(&self) -> UnitQuat<f64> {
        let q = match self {
            Attitude::Rotor(q) => **q,
            Attitude::Frame(m) => {
                *UnitQuat::from_rotation(&So3::from_matrix_unchecked(**m)).quaternion()
            }
            Attitude::Generator(r) => exp_pure(r),
            Attitude::Unit(u) => return **u,
        };
        UnitQuat::from_quaternion_normalized(q)
            .unwrap_or_else(|_| UnitQuat::from_quaternion_unchecked(q))
    }

    /// The rotated frame `R f_i R⁻¹` as the columns of a matrix (for a rotor, with the true
    /// inverse, so its norm drops out; for frame vectors, the vectors themselves).
    pub fn matrix(&self) -> Matrix3<f64> {
        match self {
            Attitude::Rotor(q) => rotation_matrix(q) / q.norm_squared(),
            Attitude::Frame(m) => **m,
            Attitude::Generator(r) => rotation_matrix(&exp_pure(r)),
            Attitude::Unit(u) => rotation_matrix(u.quaternion()),
        }
    }

    /// `R v R⁻¹`: a body-frame vector in the inertial frame.
    pub fn rotate(&self, v: &Vector3<f64>) -> Vector3<f64> {
        match self {
            Attitude::Rotor(q) => rotate_by_rotor(q, v),
            Attitude::Frame(m) => *m * v,
            Attitude::Generator(r) => rotate_by_rotor(&exp_pure(r), v),
            Attitude::Unit(u) => rotate_by_rotor(u.quaternion(), v),
        }
    }
}

/// `R v R⁻¹` for any non-zero rotor by Boyle's footnote 4,
/// `v' = v + 2 r × (s v + r × v)/m` with `s`, `r` the scalar and vector parts and `m = |R|²`:
/// the true inverse, so the norm of `R` drops out.
#[inline]
pub fn rotate_by_rotor(q: &Quaternion<f64>, v: &Vector3<f64>) -> Vector3<f64> {
    let r = q.imag();
    let m = q.norm_squared();
    v + (r.cross(&(v * q.w + r.cross(v))) * (2.0 / m))
}

/// What a rotation formulation integrates: an angular velocity `ω(t, R, x)` and, when `M > 0`,
/// an extra state `x ∈ ℝᴹ` with `x' = g(t, R, x)` evolved together with the orientation.
///
/// Closures work through [`Kinematics`]; implement the trait for a problem type of your own.
pub trait RotationProblem<const M: usize> {
    /// The frame `ω` is given in:
    ///
    /// | frame | rotor equation | frame vectors |
    /// |---|---|---|
    /// | [`Frame::Lab`] (inertial; Boyle's convention) | `Ṙ = ½ ω R` | `ḟ_i = ω × f_i` |
    /// | [`Frame::Body`] | `Ṙ = ½ R ω_b` | `ḟ_i = (Σ_j ω_b,j f_j) × f_i` |
    ///
    /// The two are related by `ω = R ω_b R⁻¹`.
    fn frame(&self) -> Frame;
    /// The angular velocity at `t` for the orientation `attitude` and the extra state `x`.
    fn omega(&mut self, t: f64, attitude: &Attitude<'_>, x: &SVector<f64, M>) -> Vector3<f64>;
    /// `x' = g(t, R, x)` (nothing for `M = 0`).
    fn extra(&mut self, t: f64, attitude: &Attitude<'_>, x: &SVector<f64, M>) -> SVector<f64, M>;
}

impl<P: RotationProblem<M> + ?Sized, const M: usize> RotationProblem<M> for &mut P {
    fn frame(&self) -> Frame {
        (**self).frame()
    }
    fn omega(&mut self, t: f64, attitude: &Attitude<'_>, x: &SVector<f64, M>) -> Vector3<f64> {
        (**self).omega(t, attitude, x)
    }
    fn extra(&mut self, t: f64, attitude: &Attitude<'_>, x: &SVector<f64, M>) -> SVector<f64, M> {
        (**self).extra(t, attitude, x)
    }
}

/// No extra state.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoExtra;

/// An extra state evolved by the closure `g(t, R, x)`.
#[derive(Debug, Clone, Copy)]
pub struct Coupled<G>(pub G);

/// A [`RotationProblem`] from closures.
///
/// # Examples
/// ```
/// use lieode::body::Frame;
/// use lieode::kinematics::{Attitude, Kinematics, RotationProblem};
/// use nalgebra::{SVector, Vector1, Vector3};
///
/// // Rotation about z at a rate that grows in time, in the inertial frame.
/// let mut spin = Kinematics::inertial(|t: f64, _r: &Attitude| Vector3::new(0.0, 0.0, 1.0 + t));
/// assert_eq!(spin.frame(), Frame::Lab);
/// // The same rotation coupled to an angle x' = ω_z that integrates the rate.
/// let mut coupled = Kinematics::coupled(
///     Frame::Lab,
///     |t: f64, _r: &Attitude, _x: &Vector1<f64>| Vector3::new(0.0, 0.0, 1.0 + t),
///     |t: f64, _r: &Attitude, _x: &Vector1<f64>| Vector1::new(1.0 + t),
/// );
/// let q = nalgebra::Quaternion::identity();
/// assert_eq!(coupled.extra(1.0, &Attitude::Rotor(&q), &Vector1::new(0.0))[0], 2.0);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Kinematics<W, G = NoExtra> {
    frame: Frame,
    omega: W,
    extra: G,
}

impl<W> Kinematics<W, NoExtra>
where
    W: FnMut(f64, &Attitude<'_>) -> Vector3<f64>,
{
    /// `ω(t, R)` in the inertial frame: `Ṙ = ½ ω R`.
    pub fn inertial(omega: W) -> Self {
        Self {
            frame: Frame::Lab,
            omega,
            extra: NoExtra,
        }
    }

    /// `ω_b(t, R)` in the body frame: `Ṙ = ½ R ω_b`.
    pub fn body(omega: W) -> Self {
        Self {
            frame: Frame::Body,
            omega,
            extra: NoExtra,
        }
    }
}

impl<W, G> Kinematics<W, Coupled<G>> {
    /// `ω(t, R, x)` in `frame`, with the extra state `x' = g(t, R, x)`.
    pub fn coupled(frame: Frame, omega: W, extra: G) -> Self {
        Self {
            frame,
            omega,
            extra: Coupled(extra),
        }
    }
}

impl<W> RotationProblem<0> for Kinematics<W, NoExtra>
where
    W: FnMut(f64, &Attitude<'_>) -> Vector3<f64>,
{
    fn frame(&self) -> Frame {
        self.frame
    }
    fn omega(&mut self, t: f64, attitude: &Attitude<'_>, _x: &SVector<f64, 0>) -> Vector3<f64> {
        (self.omega)(t, attitude)
    }
    fn extra(&mut self, _t: f64, _a: &Attitude<'_>, _x: &SVector<f64, 0>) -> SVector<f64, 0> {
        SVector::zeros()
    }
}

impl<W, G, const M: usize> RotationProblem<M> for Kinematics<W, Coupled<G>>
where
    W: FnMut(f64, &Attitude<'_>, &SVector<f64, M>) -> Vector3<f64>,
    G: FnMut(f64, &Attitude<'_>, &SVector<f64, M>) -> SVector<f64, M>,
{
    fn frame(&self) -> Frame {
        self.frame
    }
    fn omega(&mut self, t: f64, attitude: &Attitude<'_>, x: &SVector<f64, M>) -> Vector3<f64> {
        (self.omega)(t, attitude, x)
    }
    fn extra(&mut self, t: f64, attitude: &Attitude<'_>, x: &SVector<f64, M>) -> SVector<f64, M> {
        (self.extra.0)(t, attitude, x)
    }
}

/// The inertial-frame angular velocity of `problem` at `(t, attitude, x)`: `ω` as given, or
/// `R ω_b R⁻¹` for a body-frame problem.
#[inline]
pub(crate) fn inertial_omega<P: RotationProblem<M>, const M: usize>(
    problem: &mut P,
    t: f64,
    attitude: &Attitude<'_>,
    x: &SVector<f64, M>,
) -> Vector3<f64> {
    let w = problem.omega(t, attitude, x);
    match problem.frame() {
        Frame::Lab => w,
        Frame::Body => attitude.rotate(&w),
    }
}
