//! The derivative parts of dual-valued results as Jacobians.

use nalgebra::{Const, DefaultAllocator, OMatrix, SMatrix, SVector, U1, allocator::Allocator};

use super::Dual;
use crate::error::Result;
use crate::lie::{LieAlgebra, LieGroup, Side};

/// The real parts of a dual vector.
pub fn real_part<const N: usize, const P: usize>(x: &SVector<Dual<P>, N>) -> SVector<f64, N> {
    x.map(|v| v.re)
}

/// The Jacobian `∂x_i/∂(direction j)` of a dual vector: row `i` is entry `i`'s derivative part.
pub fn vector_jacobian<const N: usize, const P: usize>(
    x: &SVector<Dual<P>, N>,
) -> SMatrix<f64, N, P> {
    let mut j = SMatrix::<f64, N, P>::zeros();
    for (i, v) in x.iter().enumerate() {
        j.set_row(i, &derivative(v).transpose());
    }
    j
}

/// The real part `ȳ` of a dual group element and the Jacobian of `y` in the local coordinates
/// of the tangent space at `ȳ`: column `j` is `d/dε_j log(ȳ⁻¹ · y)` for [`Side::Right`] and
/// `d/dε_j log(y · ȳ⁻¹)` for [`Side::Left`] (coordinates in the algebra's basis).
///
/// # Errors
/// Those of the group's `log` (it is taken near the identity, where it always exists).
#[allow(clippy::type_complexity)]
pub fn group_jacobian<G, const P: usize>(
    y: &G,
    side: Side,
) -> Result<(
    G::WithScalar<f64>,
    OMatrix<f64, <G::Algebra as LieAlgebra>::Dim, Const<P>>,
)>
where
    G: LieGroup<Scalar = Dual<P>, WithScalar<Dual<P>> = G>,
    DefaultAllocator: Allocator<<G::Algebra as LieAlgebra>::Dim>
        + Allocator<<G::Algebra as LieAlgebra>::Dim, Const<P>>,
{
    // the real part, still as a dual element (casting keeps only real parts)
    let base: G = y.cast::<Dual<P>>();
    let near_identity = match side {
        Side::Right => base.inverse().compose(y),
        Side::Left => y.compose(&base.inverse()),
    };
    let coords = near_identity.log()?.to_coords();
    let mut j = OMatrix::<f64, <G::Algebra as LieAlgebra>::Dim, Const<P>>::zeros();
    for (i, v) in coords.iter().enumerate() {
        j.set_row(i, &derivative(v).transpose());
    }
    Ok((y.cast::<f64>(), j))
}

/// The derivative part of one dual number (zeros when it carries none).
fn derivative<const P: usize>(v: &Dual<P>) -> SVector<f64, P> {
    v.eps.unwrap_generic(Const::<P>, U1)
}
