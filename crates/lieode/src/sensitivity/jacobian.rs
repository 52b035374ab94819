//! The derivative parts of dual-valued results as Jacobians.

use nalgebra::{
    Const, DefaultAllocator, OMatrix, Quaternion, SMatrix, SVector, U1, allocator::Allocator,
};

use super::Dual;
use crate::error::Result;
use crate::lie::{LieAlgebra, LieGroup, Side};
use crate::rotation::RotationalState;

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

/// The real part `q̄` of a dual rotor (body → lab, possibly not of unit norm) and the Jacobian
/// of the rotation it represents, as the rotation vector `θ` of the small turn from `q̄`: in
/// the body frame for [`Side::Right`] (`q = q̄ ⊗ exp(θ/2)` up to scale),
/// `∂θ/∂ε_j = 2 Im(q̄* ⊗ ∂q/∂ε_j) / |q̄|²`, in the lab frame for [`Side::Left`]
/// (`q = exp(θ/2) ⊗ q̄`), `2 Im(∂q/∂ε_j ⊗ q̄*) / |q̄|²`. A change of `|q|` alone is no rotation
/// and has no coordinate (the real part of the product, dropped). The coordinates of
/// [`super::Seeds::rotor`].
pub fn rotor_jacobian<const P: usize>(
    q: &Quaternion<Dual<P>>,
    side: Side,
) -> (Quaternion<f64>, SMatrix<f64, 3, P>) {
    let base = Quaternion::from(q.coords.map(|v| v.re));
    let conjugate = base.conjugate() / base.norm_squared();
    let mut j = SMatrix::<f64, 3, P>::zeros();
    for direction in 0..P {
        let dq = Quaternion::from(q.coords.map(|v| derivative(&v)[direction]));
        let product = match side {
            Side::Right => conjugate * dq,
            Side::Left => dq * conjugate,
        };
        j.set_column(direction, &(product.imag() * 2.0));
    }
    (base, j)
}

/// The real part of a rotational state over dual numbers (a catalogue method's
/// [`crate::rotation::SingleBody`] on dual numbers) and its Jacobian: rows 0–2 the rotation
/// vector of [`rotor_jacobian`] on `side`, rows 3–5 the body angular velocity.
pub fn rotational_jacobian<const P: usize>(
    state: &RotationalState<Dual<P>>,
    side: Side,
) -> (RotationalState, SMatrix<f64, 6, P>) {
    let (q, rotation) = rotor_jacobian(&state.q, side);
    let mut j = SMatrix::<f64, 6, P>::zeros();
    j.fixed_rows_mut::<3>(0).copy_from(&rotation);
    j.fixed_rows_mut::<3>(3)
        .copy_from(&vector_jacobian(&state.omega));
    (RotationalState::new(state.t, q, real_part(&state.omega)), j)
}

/// The derivative part of one dual number (zeros when it carries none).
fn derivative<const P: usize>(v: &Dual<P>) -> SVector<f64, P> {
    v.eps.unwrap_generic(Const::<P>, U1)
}
