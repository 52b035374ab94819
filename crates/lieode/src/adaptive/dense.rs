//! Stored dense output: one polynomial piece per step.
//!
//! Each method's continuous extension is a polynomial of known degree `d` in the step variable.
//! The driver stores it method-independently as its values at the `d + 1` Chebyshev points of
//! the second kind on the step and evaluates it by the barycentric formula, which reproduces
//! the polynomial to rounding (Berrut & Trefethen, *Barycentric Lagrange interpolation*, SIAM
//! Review 46 (2004), §5).

use nalgebra::{DefaultAllocator, DimName, OVector, allocator::Allocator};

use crate::stepper::Piece;

/// A polynomial on `[t0, t1]` given by its values at Chebyshev points of the second kind,
/// `t_j = (t0 + t1)/2 + (t1 − t0)/2 · cos(jπ/d)`, `j = 0 … d` (so `t_0 = t1`, `t_d = t0`).
#[derive(Debug, Clone, PartialEq)]
pub struct DenseSegment<D: DimName>
where
    DefaultAllocator: Allocator<D>,
{
    /// Start of the step.
    pub t0: f64,
    /// End of the step.
    pub t1: f64,
    values: Vec<OVector<f64, D>>,
}

/// The sample times of a segment of degree `degree` on `[t0, t1]`.
pub fn chebyshev_times(t0: f64, t1: f64, degree: usize) -> impl Iterator<Item = f64> {
    let d = degree.max(1);
    (0..=d).map(move |j| {
        if j == 0 {
            t1
        } else if j == d {
            t0
        } else {
            let x = (std::f64::consts::PI * j as f64 / d as f64).cos();
            0.5 * (t0 + t1) + 0.5 * (t1 - t0) * x
        }
    })
}

impl<D: DimName> DenseSegment<D>
where
    DefaultAllocator: Allocator<D>,
{
    /// Samples `f` at the Chebyshev times of degree `degree` on `[t0, t1]`.
    pub fn sample(
        t0: f64,
        t1: f64,
        degree: usize,
        mut f: impl FnMut(f64) -> OVector<f64, D>,
    ) -> Self {
        Self {
            t0,
            t1,
            values: chebyshev_times(t0, t1, degree).map(&mut f).collect(),
        }
    }

    /// The polynomial at `t` (extrapolates outside `[t0, t1]`).
    pub fn eval(&self, t: f64) -> OVector<f64, D> {
        let d = self.values.len() - 1;
        let x = if self.t1 == self.t0 {
            0.0
        } else {
            (2.0 * t - self.t0 - self.t1) / (self.t1 - self.t0)
        };
        let mut num = OVector::<f64, D>::zeros();
        let mut den = 0.0;
        for (j, v) in self.values.iter().enumerate() {
            let xj = if j == 0 {
                1.0
            } else if j == d {
                -1.0
            } else {
                (std::f64::consts::PI * j as f64 / d as f64).cos()
            };
            let diff = x - xj;
            if diff == 0.0 {
                return v.clone();
            }
            let mut w = if j % 2 == 0 { 1.0 } else { -1.0 };
            if j == 0 || j == d {
                w *= 0.5;
            }
            let c = w / diff;
            num.axpy(c, v, 1.0);
            den += c;
        }
        num / den
    }

    /// Whether `t` lies in the segment (either orientation).
    pub fn contains(&self, t: f64) -> bool {
        let (lo, hi) = if self.t0 <= self.t1 {
            (self.t0, self.t1)
        } else {
            (self.t1, self.t0)
        };
        (lo..=hi).contains(&t)
    }
}

impl<D: DimName> Piece for DenseSegment<D>
where
    DefaultAllocator: Allocator<D>,
{
    type State = OVector<f64, D>;
    fn span(&self) -> (f64, f64) {
        (self.t0, self.t1)
    }
    fn eval(&self, t: f64) -> OVector<f64, D> {
        DenseSegment::eval(self, t)
    }
}
