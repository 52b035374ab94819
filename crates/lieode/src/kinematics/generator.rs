//! The generator formulation (Boyle §IV): `r` with `R = exp(r)`, evolved by Eq. (18), plain or
//! reset to `|r| < π/2` after every accepted step (Eq. 20).

use nalgebra::allocator::Allocator;
use nalgebra::{Const, DefaultAllocator, DimNameAdd, DimNameSum, Matrix3, SVector, Vector3};

use super::formulation::stacked_formulation_items;
use super::formulation::{Formulation, Named, VectorForm, VectorFormulation, split, stack};
use super::problem::{Attitude, RotationProblem, inertial_omega};
use crate::body::quaternion::rotation_matrix;
use crate::lie::LieGroup;
use crate::lie::series::{SERIES_ANGLE_SQ, dexp_inv_coefficient};
use crate::lie::unit_quaternion::UnitQuat;

/// Below this `|r|²` the coefficient `(1 − |r| cot|r|)/|r|²` is summed from its series (the
/// so(3) dexp⁻¹ coefficient's, [`dexp_inv_coefficient`], at `θ = 2|r|`); above it the closed
/// form has lost less than 2·10⁻¹⁵ relative to cancellation.
pub const GENERATOR_SERIES_SQ: f64 = SERIES_ANGLE_SQ / 4.0;

/// The generator `r` of the rotor `R = exp(r)` (a pure quaternion: `|r|` is half the rotation
/// angle), evolved by Boyle's Eq. (18):
///
/// `ṙ = ½ [ω × r + |r| cot|r| ω + (1 − |r| cot|r|) (r·ω) r/|r|²]`
///
/// for an inertial `ω` (a body-frame `ω_b` is first rotated, `ω = R ω_b R⁻¹`). The coefficient
/// `d = (1 − |r| cot|r|)/|r|²` is evaluated from its series `1/3 + |r|²/45 + 2|r|⁴/945 + …` below
/// [`GENERATOR_SERIES_SQ`] (so the right-hand side is exact and finite at `r = 0`), and
/// `|r| cot|r| = 1 − |r|² d`. The equation is singular at `|r| = π`, where the generator of a
/// rotation near the identity changes sharply.
///
/// The **reset** generator ([`Generator::reset`], Boyle Eq. 20) replaces `r` by the equivalent
/// `r − π r/|r|` (the same rotation, the rotor's sign flipped) after every accepted step with
/// `|r| ≥ π/2`, so `|r|` stays below `π/2` at the start of every step and the integrator never
/// resolves the sharp features.
///
/// # References
/// M. Boyle, *The integration of angular velocity*, Adv. Appl. Clifford Algebras 27 (2017)
/// 2345–2374, §IV, Eqs. (17)–(20).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Generator {
    resets: bool,
}

impl Generator {
    /// The plain generator (Eq. 18 alone).
    pub fn plain() -> Self {
        Self { resets: false }
    }

    /// The reset generator (Eq. 18, and Eq. 20 after every accepted step).
    pub fn reset() -> Self {
        Self { resets: true }
    }

    /// Whether the generator is reset after accepted steps.
    pub fn resets(&self) -> bool {
        self.resets
    }
}

/// `(|r| cot|r|, d)` with `d = (1 − |r| cot|r|)/|r|² = 1/3 + |r|²/45 + 2|r|⁴/945 + …` of
/// `x = |r|²`, exact and finite at `x = 0`: `d = 4 C(2|r|)` with `C` the so(3) dexp⁻¹
/// coefficient ([`dexp_inv_coefficient`]), summed from its series below
/// [`GENERATOR_SERIES_SQ`], and `|r| cot|r| = 1 − x d`.
#[inline]
pub fn generator_coefficients(x: f64) -> (f64, f64) {
    let d = 4.0 * dexp_inv_coefficient(4.0 * x);
    (1.0 - x * d, d)
}

/// The right-hand side of Eq. (18) for the inertial `ω`.
#[inline]
pub fn generator_rate(r: &Vector3<f64>, omega: &Vector3<f64>) -> Vector3<f64> {
    let (c, d) = generator_coefficients(r.norm_squared());
    (omega.cross(r) + omega * c + r * (d * r.dot(omega))) * 0.5
}

/// The equivalent generator of smaller magnitude, `r − π r/|r|`, when `|r| ≥ π/2` (Eq. 20).
#[inline]
pub fn reset_generator(r: &Vector3<f64>) -> Option<Vector3<f64>> {
    let n = r.norm();
    (n >= std::f64::consts::FRAC_PI_2).then(|| r * (1.0 - std::f64::consts::PI / n))
}

fn vector(c: &[f64; 3]) -> Vector3<f64> {
    Vector3::new(c[0], c[1], c[2])
}

fn array(v: &Vector3<f64>) -> [f64; 3] {
    [v.x, v.y, v.z]
}

/// `(ṙ, x')` of the problem at `(t, r, x)`.
#[inline]
fn generator_rates<P: RotationProblem<M>, const M: usize>(
    problem: &mut P,
    t: f64,
    c: &[f64; 3],
    x: &SVector<f64, M>,
) -> ([f64; 3], SVector<f64, M>) {
    let r = vector(c);
    let attitude = Attitude::Generator(&r);
    let w = inertial_omega(problem, t, &attitude, x);
    (
        array(&generator_rate(&r, &w)),
        problem.extra(t, &attitude, x),
    )
}

fn generator_frame(c: &[f64; 3]) -> Matrix3<f64> {
    rotation_matrix(Attitude::Generator(&vector(c)).rotor().quaternion())
}

/// The principal logarithm of a rotor, reset to `|r| ≤ π/2` if asked.
fn logarithm(rotor: &UnitQuat<f64>, resets: bool) -> [f64; 3] {
    // The SU(2) logarithm never fails.
    let r = rotor
        .log()
        .map(|v| v.0)
        .unwrap_or_else(|_| Vector3::zeros());
    let r = if resets {
        reset_generator(&r).unwrap_or(r)
    } else {
        r
    };
    array(&r)
}

impl Named for Generator {
    fn name(&self) -> &'static str {
        if self.resets {
            "reset generator"
        } else {
            "generator"
        }
    }
}

impl<const M: usize> Formulation<M> for Generator
where
    Const<3>: DimNameAdd<Const<M>>,
    DefaultAllocator: Allocator<DimNameSum<Const<3>, Const<M>>>,
{
    stacked_formulation_items!(3);

    /// The principal logarithm `r = log R` (`|r| ≤ π/2` for a reset generator, whose start is
    /// reset too).
    fn encode(&self, rotor: &UnitQuat<f64>, x: &SVector<f64, M>) -> Self::State {
        stack(&logarithm(rotor, self.resets), x)
    }

    fn frame(&self, y: &Self::State) -> Matrix3<f64> {
        generator_frame(&split::<3, M>(y).0)
    }

    fn rotor(&self, y: &Self::State) -> UnitQuat<f64> {
        Attitude::Generator(&vector(&split::<3, M>(y).0)).rotor()
    }

    fn reset(&self, y: &Self::State) -> Option<Self::State> {
        if !self.resets {
            return None;
        }
        let (c, x) = split::<3, M>(y);
        let r = reset_generator(&vector(&c))?;
        Some(stack(&array(&r), &x))
    }
}

impl<const M: usize> VectorFormulation<M> for Generator
where
    Const<3>: DimNameAdd<Const<M>>,
    DefaultAllocator: Allocator<DimNameSum<Const<3>, Const<M>>>,
{
    #[inline]
    fn rhs<P: RotationProblem<M>>(&self, problem: &mut P, t: f64, y: &Self::State) -> Self::State {
        let (c, x) = split::<3, M>(y);
        let (dc, dx) = generator_rates(problem, t, &c, &x);
        stack(&dc, &dx)
    }
}
