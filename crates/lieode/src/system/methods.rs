//! The table of the six-degree-of-freedom methods: every one-evaluation method of the
//! rotational catalogue, visited with its concrete type.

use super::catalogue::SystemMethod;
use crate::body::RigidBody;
use crate::error::Result;
use crate::rotation::{
    Buss, DirectEuler, Fincham, Johnson, MercuryDpm, Omelyan, Spiral, SpiralLeapfrog,
    SpiralOmelyan, VelocityVerlet,
};

/// A computation run on every one-evaluation method of the catalogue, each with its concrete
/// type `K` (so that [`super::CatalogueSystem<K>`] is monomorphised, not dispatched), given as
/// its constructor `make(body)`.
pub trait MethodVisitor {
    /// Runs on the method `make`.
    ///
    /// # Errors
    /// The computation's.
    fn visit<K: SystemMethod>(&mut self, make: fn(RigidBody) -> K) -> Result<()>;
}

/// The names of the methods [`every_method`] visits, in its order (the rows of
/// `docs/system.md`'s table).
pub const METHOD_NAMES: [&str; 11] = [
    "spiral_leapfrog",
    "spiral",
    "spiral_omelyan",
    "omelyan",
    "fincham",
    "velocity_verlet",
    "direct_euler",
    "buss",
    "buss16",
    "johnson",
    "mercurydpm",
];

/// Runs `visitor` on every one-evaluation method of the catalogue, in the order of
/// [`METHOD_NAMES`]: SPIRAL leapfrog and non-leapfrog, SPIRAL+Omelyan, Omelyan, Fincham,
/// Velocity Verlet, Direct Euler, Buss (c = 1/12 and the benchmark's 1/16), Johnson,
/// MercuryDPM/PFC4.
///
/// # Errors
/// The first error of the visitor.
pub fn every_method(visitor: &mut impl MethodVisitor) -> Result<()> {
    visitor.visit(SpiralLeapfrog::new)?;
    visitor.visit(Spiral::new)?;
    visitor.visit(SpiralOmelyan::new)?;
    visitor.visit(Omelyan::new)?;
    visitor.visit(Fincham::new)?;
    visitor.visit(VelocityVerlet::new)?;
    visitor.visit(DirectEuler::new)?;
    visitor.visit(Buss::buss2000)?;
    visitor.visit(Buss::benchmark)?;
    visitor.visit(Johnson::new)?;
    visitor.visit(MercuryDpm::new)
}
