//! The frame-vector formulations (Boyle §II): the rotated basis vectors evolved by
//! `ḟ_i = ω × f_i`, all three (9 variables) or two with the third as their cross product (6),
//! optionally with the constraint damping of Eqs. (2)–(3).

use nalgebra::allocator::Allocator;
use nalgebra::{Const, DefaultAllocator, DimNameAdd, DimNameSum, Matrix3, SVector, Vector3};

use super::formulation::stacked_formulation_items;
use super::formulation::{Formulation, Named, VectorForm, VectorFormulation, split, stack};
use super::problem::{Attitude, RotationProblem, inertial_omega};
use crate::error::{Error, Result, check_finite};
use crate::lie::unit_quaternion::UnitQuat;

/// The three frame vectors `f_0, f_1, f_2` (the columns of the rotation matrix, 9 variables)
/// evolved by `ḟ_i = ω × f_i` (Boyle Eq. 1); with a body-frame `ω_b`, `ω = Σ_j ω_b,j f_j`.
/// This is integrating the rotation matrix; nothing keeps the vectors orthonormal.
///
/// # References
/// M. Boyle, *The integration of angular velocity*, Adv. Appl. Clifford Algebras 27 (2017)
/// 2345–2374, §II, Eq. (1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FrameVectors;

/// Two frame vectors `f_0, f_1` (6 variables), the third taken as `f_2 = f_0 × f_1`
/// (Boyle §II), optionally with constraint damping: `f_0` by Eq. (2),
/// `ḟ_0 = ω × f_0 + λ (1 − f_0·f_0) f_0`, and `f_1` by Eq. (3),
/// `ḟ_1 = ω × f_1 + μ (u − f_1)`, `u = f_0 × (f_1 × f_0)/|f_0 × (f_1 × f_0)|`. The damping terms
/// vanish on the constraint surface; they make the system stiff (Boyle §VI: orders of
/// magnitude slower for any λ, μ large enough to matter).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TwoFrameVectors {
    lambda: f64,
    mu: f64,
}

impl TwoFrameVectors {
    /// Two frame vectors without damping.
    pub fn new() -> Self {
        Self::default()
    }

    /// Two frame vectors with the damping rates `lambda` (Eq. 2) and `mu` (Eq. 3).
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::InvalidParameter`] naming `lambda` or `mu` unless it is
    /// finite and `≥ 0`.
    pub fn damped(lambda: f64, mu: f64) -> Result<Self> {
        for (name, value) in [("lambda", lambda), ("mu", mu)] {
            check_finite(name, value)?;
            if value < 0.0 {
                return Err(Error::InvalidParameter {
                    name,
                    value: format!("{value:e}"),
                    expected: "a damping rate ≥ 0".into(),
                });
            }
        }
        Ok(Self { lambda, mu })
    }

    /// The damping rates `(λ, μ)`.
    pub fn damping(&self) -> (f64, f64) {
        (self.lambda, self.mu)
    }
}

/// The frame (columns) of the first `3·count` components; for two vectors the third is their
/// cross product.
fn frame_of(c: &[f64]) -> Matrix3<f64> {
    let f0 = Vector3::new(c[0], c[1], c[2]);
    let f1 = Vector3::new(c[3], c[4], c[5]);
    let f2 = if c.len() >= 9 {
        Vector3::new(c[6], c[7], c[8])
    } else {
        f0.cross(&f1)
    };
    Matrix3::from_columns(&[f0, f1, f2])
}

fn frame_components(m: &Matrix3<f64>) -> [f64; 9] {
    std::array::from_fn(|i| m[(i % 3, i / 3)])
}

/// `ḟ_j = ω × f_j` for the evolved vectors, the damping terms of Eqs. (2)–(3), and `x'`.
fn frame_rates<P: RotationProblem<M>, const M: usize, const K: usize>(
    problem: &mut P,
    t: f64,
    c: &[f64; K],
    x: &SVector<f64, M>,
    damping: (f64, f64),
) -> ([f64; K], SVector<f64, M>) {
    let frame = frame_of(c);
    let attitude = Attitude::Frame(&frame);
    let w = inertial_omega(problem, t, &attitude, x);
    let mut d = [0.0; K];
    for j in 0..K / 3 {
        let f = frame.column(j).into_owned();
        let mut dj = w.cross(&f);
        if j == 0 && damping.0 != 0.0 {
            dj += f * (damping.0 * (1.0 - f.norm_squared()));
        }
        if j == 1 && damping.1 != 0.0 {
            let f0 = frame.column(0).into_owned();
            let u = f0.cross(&f.cross(&f0));
            dj += (u / u.norm() - f) * damping.1;
        }
        d[3 * j..3 * j + 3].copy_from_slice(dj.as_slice());
    }
    (d, problem.extra(t, &attitude, x))
}

impl Named for FrameVectors {
    fn name(&self) -> &'static str {
        "frame vectors"
    }
}

impl<const M: usize> Formulation<M> for FrameVectors
where
    Const<9>: DimNameAdd<Const<M>>,
    DefaultAllocator: Allocator<DimNameSum<Const<9>, Const<M>>>,
{
    stacked_formulation_items!(9);

    fn encode(&self, rotor: &UnitQuat<f64>, x: &SVector<f64, M>) -> Self::State {
        stack(&frame_components(&Attitude::Unit(rotor).matrix()), x)
    }

    fn frame(&self, y: &Self::State) -> Matrix3<f64> {
        frame_of(&split::<9, M>(y).0)
    }

    fn rotor(&self, y: &Self::State) -> UnitQuat<f64> {
        Attitude::Frame(&frame_of(&split::<9, M>(y).0)).rotor()
    }
}

impl<const M: usize> VectorFormulation<M> for FrameVectors
where
    Const<9>: DimNameAdd<Const<M>>,
    DefaultAllocator: Allocator<DimNameSum<Const<9>, Const<M>>>,
{
    #[inline]
    fn rhs<P: RotationProblem<M>>(&self, problem: &mut P, t: f64, y: &Self::State) -> Self::State {
        let (c, x) = split::<9, M>(y);
        let (dc, dx) = frame_rates(problem, t, &c, &x, (0.0, 0.0));
        stack(&dc, &dx)
    }
}

impl Named for TwoFrameVectors {
    fn name(&self) -> &'static str {
        if self.lambda == 0.0 && self.mu == 0.0 {
            "two frame vectors"
        } else {
            "two frame vectors, damped"
        }
    }
}

impl<const M: usize> Formulation<M> for TwoFrameVectors
where
    Const<6>: DimNameAdd<Const<M>>,
    DefaultAllocator: Allocator<DimNameSum<Const<6>, Const<M>>>,
{
    stacked_formulation_items!(6);

    fn encode(&self, rotor: &UnitQuat<f64>, x: &SVector<f64, M>) -> Self::State {
        let all = frame_components(&Attitude::Unit(rotor).matrix());
        stack(&std::array::from_fn::<f64, 6, _>(|i| all[i]), x)
    }

    fn frame(&self, y: &Self::State) -> Matrix3<f64> {
        frame_of(&split::<6, M>(y).0)
    }

    fn rotor(&self, y: &Self::State) -> UnitQuat<f64> {
        Attitude::Frame(&frame_of(&split::<6, M>(y).0)).rotor()
    }
}

impl<const M: usize> VectorFormulation<M> for TwoFrameVectors
where
    Const<6>: DimNameAdd<Const<M>>,
    DefaultAllocator: Allocator<DimNameSum<Const<6>, Const<M>>>,
{
    #[inline]
    fn rhs<P: RotationProblem<M>>(&self, problem: &mut P, t: f64, y: &Self::State) -> Self::State {
        let (c, x) = split::<6, M>(y);
        let (dc, dx) = frame_rates(problem, t, &c, &x, (self.lambda, self.mu));
        stack(&dc, &dx)
    }
}
