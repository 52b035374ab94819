//! The rotor formulation (Boyle §III): the four components of `R` with `Ṙ = ½ ω R`, no
//! normalisation.

use crate::body::Frame;
use nalgebra::allocator::Allocator;
use nalgebra::{Const, DefaultAllocator, DimNameAdd, DimNameSum, Matrix3, Quaternion, SVector};

use super::formulation::stacked_formulation_items;
use super::formulation::{Formulation, Named, VectorForm, VectorFormulation, split, stack};
use super::problem::{Attitude, RotationProblem};
use crate::body::quaternion::{pure, rotation_matrix};
use crate::lie::unit_quaternion::UnitQuat;

/// The rotor formulation: the four components of a rotor `R` (scalar first) evolved by
///
/// `Ṙ = ½ ω R` (inertial `ω`, Boyle Eq. 10) or `Ṙ = ½ R ω_b` (body-frame `ω_b`),
///
/// with *no* normalisation inside the integration. Vectors are rotated by `R v R⁻¹` with the
/// true inverse, so the norm of `R` drops out of every result (Boyle §III): the frame is
/// `rotation_matrix(R)/|R|²`. `|R|` is conserved by the exact flow (`d|R|²/dt = 0` for a pure
/// `ω`), and an integrator changes it only by its truncation error.
///
/// # References
/// M. Boyle, *The integration of angular velocity*, Adv. Appl. Clifford Algebras 27 (2017)
/// 2345–2374, §III, Eqs. (4), (9), (10) and footnote 4.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rotor;

fn quaternion(c: &[f64; 4]) -> Quaternion<f64> {
    Quaternion::new(c[0], c[1], c[2], c[3])
}

/// Scalar-first coordinates of a quaternion (nalgebra stores `(i, j, k, w)`).
#[inline]
pub(crate) fn scalar_first(q: &Quaternion<f64>) -> [f64; 4] {
    [q.w, q.i, q.j, q.k]
}

/// `(Ṙ, x')` of the problem at `(t, R, x)`.
#[inline]
fn rotor_rates<P: RotationProblem<M>, const M: usize>(
    problem: &mut P,
    t: f64,
    c: &[f64; 4],
    x: &SVector<f64, M>,
) -> ([f64; 4], SVector<f64, M>) {
    let q = quaternion(c);
    let attitude = Attitude::Rotor(&q);
    let w = problem.omega(t, &attitude, x);
    let dq = match problem.frame() {
        Frame::Lab => pure(&w) * q,
        Frame::Body => q * pure(&w),
    } * 0.5;
    (scalar_first(&dq), problem.extra(t, &attitude, x))
}

fn rotor_frame(c: &[f64; 4]) -> Matrix3<f64> {
    let q = quaternion(c);
    rotation_matrix(&q) / q.norm_squared()
}

impl Named for Rotor {
    fn name(&self) -> &'static str {
        "rotor"
    }
}

impl<const M: usize> Formulation<M> for Rotor
where
    Const<4>: DimNameAdd<Const<M>>,
    DefaultAllocator: Allocator<DimNameSum<Const<4>, Const<M>>>,
{
    stacked_formulation_items!(4);

    fn encode(&self, rotor: &UnitQuat<f64>, x: &SVector<f64, M>) -> Self::State {
        stack(&scalar_first(rotor.quaternion()), x)
    }

    fn frame(&self, y: &Self::State) -> Matrix3<f64> {
        rotor_frame(&split::<4, M>(y).0)
    }

    fn rotor(&self, y: &Self::State) -> UnitQuat<f64> {
        Attitude::Rotor(&quaternion(&split::<4, M>(y).0)).rotor()
    }
}

impl<const M: usize> VectorFormulation<M> for Rotor
where
    Const<4>: DimNameAdd<Const<M>>,
    DefaultAllocator: Allocator<DimNameSum<Const<4>, Const<M>>>,
{
    #[inline]
    fn rhs<P: RotationProblem<M>>(&self, problem: &mut P, t: f64, y: &Self::State) -> Self::State {
        let (c, x) = split::<4, M>(y);
        let (dc, dx) = rotor_rates(problem, t, &c, &x);
        stack(&dc, &dx)
    }
}
