//! Tableau coefficients converted once to the engine's scalar type.

use crate::lie::{Real, real};
use crate::tableau::ButcherTableau;

/// `A`, `b`, `c` and `b − b̂` in the scalar type `T`, with the facts engines branch on.
#[derive(Debug, Clone)]
pub(crate) struct Coefficients<T> {
    pub name: String,
    pub order: usize,
    pub stages: usize,
    /// Row-major `A`.
    pub a: Vec<T>,
    pub b: Vec<T>,
    pub c: Vec<T>,
    /// `b − b̂`, when the tableau has embedded weights.
    pub b_error: Option<Vec<T>>,
    /// Whether row `i` of `A` is entirely zero (the stage sits at the step's start).
    pub zero_row: Vec<bool>,
    pub fsal: bool,
}

impl<T: Real> Coefficients<T> {
    /// Converts a tableau (already validated by the caller).
    pub fn new(tableau: &ButcherTableau) -> Self {
        let s = tableau.stages;
        let conv = |v: &[f64]| v.iter().map(|&x| real::<T>(x)).collect::<Vec<T>>();
        Self {
            name: tableau.name.to_string(),
            order: tableau.order,
            stages: s,
            a: conv(&tableau.a),
            b: conv(&tableau.b),
            c: conv(&tableau.c),
            b_error: tableau.b_hat.as_ref().map(|bh| {
                tableau
                    .b
                    .iter()
                    .zip(bh.iter())
                    .map(|(&b, &bh)| real::<T>(b - bh))
                    .collect()
            }),
            zero_row: (0..s)
                .map(|i| (0..s).all(|j| tableau.a_ij(i, j) == 0.0))
                .collect(),
            fsal: tableau.fsal,
        }
    }

    /// `a_ij`.
    #[inline(always)]
    pub fn a(&self, i: usize, j: usize) -> T {
        self.a[i * self.stages + j]
    }
}
