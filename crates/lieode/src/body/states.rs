//! The two group states of a rigid body, named once: its attitude (a rotation matrix or a
//! rotor) with one body vector beside it.

use crate::lie::product::Product;
use crate::lie::rn::Rn;
use crate::lie::so3::So3;
use crate::lie::unit_quaternion::UnitQuat;

/// A rigid body's state on `SO(3) × ℝ³`: the attitude `R` and a vector — the body angular
/// velocity `ω` (the reference problems, the engines) or a momentum, body `Π` or spatial
/// `π = RΠ` (Krysl's family, [`crate::momentum`]), as the method that carries it says.
pub type RigidBodyState<T = f64> = Product<So3<T>, Rn<3, T>>;

/// A rigid body's state on `SU(2) × ℝ³`: the rotor `q` (body → lab) and the body angular
/// velocity `ω` (the reference problems, the SPIRAL cylinder, the Lie-group engines as
/// rotational steppers).
///
/// The catalogue's steppers carry a raw `nalgebra::Quaternion` instead
/// ([`crate::rotation::RotationalState`], [`crate::system::SystemState`]): their updates
/// multiply and (optionally) renormalise rotors in place, and the policy of when `|q| = 1` is
/// restored is theirs ([`crate::rotation::Renormalisation`]); a `UnitQuat` would assert a norm
/// they deliberately let drift.
pub type RigidBodyQuatState<T = f64> = Product<UnitQuat<T>, Rn<3, T>>;
