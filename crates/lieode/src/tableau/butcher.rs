//! The tableau type: its coefficients and metadata, read-only access to them, and the shape
//! check every reader of the arrays relies on. Building a tableau and checking it against its
//! claims (consistency, family rules, declared orders) is in `validate.rs`, above the order
//! conditions it uses.

use std::borrow::Cow;

use crate::error::{Error, Result};

/// Which kind of method the coefficients describe; engines accept only their own family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// A classical Runge–Kutta method (also the Munthe-Kaas engine's input).
    Classical,
    /// A Crouch–Grossman method: stages and output are products of single exponentials,
    /// `Y_i = exp(h a_{i,i−1} F_{i−1}) ⋯ exp(h a_{i1} F_1) · y₀`. Its coefficients must also
    /// satisfy the Crouch–Grossman order conditions.
    CrouchGrossman,
    /// A commutator-free method: stages and output are products of exponentials of linear
    /// combinations of the stage derivatives ([`CommutatorFreeWeights`]).
    CommutatorFree,
}

/// Which weights of a tableau: the main `b` or the embedded `b̂`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Weights {
    /// The main weights `b`.
    Main,
    /// The embedded weights `b̂`.
    Embedded,
}

/// A product of exponentials `exp(h Σ_j w^{(m)}_j F_j) ⋯ exp(h Σ_j w^{(1)}_j F_j)`: `factors[0]`
/// holds the weights `w^{(1)}` of the factor applied **first** (rightmost in the left-action
/// form, `docs/notation.md`).
#[derive(Debug, Clone, PartialEq)]
pub struct ExponentialProduct {
    /// One weight vector (over the stage derivatives `F_1 … F_s`) per exponential factor, in
    /// the order of application.
    pub factors: Cow<'static, [Cow<'static, [f64]>]>,
}

/// The exponential weights of a commutator-free method: one product per stage (stage 1's is
/// empty) and one for the output.
#[derive(Debug, Clone, PartialEq)]
pub struct CommutatorFreeWeights {
    /// `stages[i]` builds `Y_{i+1}` from `y₀`.
    pub stages: Cow<'static, [ExponentialProduct]>,
    /// Builds `y₁` from `y₀`.
    pub output: ExponentialProduct,
}

/// Dense output (continuous extension): `y(t₀ + θh) = y₀ + h Σ_i b_i(θ) k_i`, with
/// `b_i(θ) = Σ_m coefficients[i][m] θ^{m+1}` (no constant term), of the given order.
#[derive(Debug, Clone, PartialEq)]
pub struct DenseOutput {
    /// Per stage, the coefficients of `θ, θ², …`.
    pub coefficients: Cow<'static, [Cow<'static, [f64]>]>,
    /// The order of the interpolant.
    pub order: usize,
}

/// A Butcher tableau with its metadata.
///
/// `a` is stored row-major (`a[i * s + j] = a_ij`).
#[derive(Debug, Clone, PartialEq)]
pub struct ButcherTableau {
    /// The literature name, e.g. `"RK4"`.
    pub name: Cow<'static, str>,
    /// Number of stages `s`.
    pub stages: usize,
    /// `A`, row-major, `s × s`.
    pub a: Cow<'static, [f64]>,
    /// Weights `b`.
    pub b: Cow<'static, [f64]>,
    /// Nodes `c`.
    pub c: Cow<'static, [f64]>,
    /// Embedded weights `b̂`, if any.
    pub b_hat: Option<Cow<'static, [f64]>>,
    /// Dense-output coefficients, if any.
    pub dense: Option<DenseOutput>,
    /// Classical order of the main weights.
    pub order: usize,
    /// Order of the embedded weights.
    pub embedded_order: Option<usize>,
    /// First same as last: the last stage is evaluated at `(t₀ + h, y₁)`.
    pub fsal: bool,
    /// Which engines may run it.
    pub family: Family,
    /// The exponential weights of a commutator-free method.
    pub commutator_free: Option<CommutatorFreeWeights>,
    /// Where the coefficients come from.
    pub reference: Cow<'static, str>,
}

impl ButcherTableau {
    /// `a_ij` (0-based stage indices).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `i` or `j` when it is not below [`Self::stages`], or
    /// naming `a` when the stored matrix is shorter than `stages²` (a tableau built by hand
    /// rather than by [`ButcherTableau::new`]).
    pub fn a(&self, i: usize, j: usize) -> Result<f64> {
        for (name, index) in [("i", i), ("j", j)] {
            if index >= self.stages {
                return Err(Error::InvalidParameter {
                    name,
                    value: index.to_string(),
                    expected: format!("a stage index below {}", self.stages),
                });
            }
        }
        self.a
            .get(i * self.stages + j)
            .copied()
            .ok_or_else(|| Error::InvalidParameter {
                name: "a",
                value: format!("{} entries", self.a.len()),
                expected: format!("stages² = {} entries", self.stages * self.stages),
            })
    }

    /// `a_ij` for indices the caller knows to be in range (the engines' stage loops).
    #[inline]
    pub(crate) fn a_ij(&self, i: usize, j: usize) -> f64 {
        self.a[i * self.stages + j]
    }
    /// Whether `A` is strictly lower triangular.
    pub fn is_explicit(&self) -> bool {
        (0..self.stages).all(|i| (i..self.stages).all(|j| self.a_ij(i, j) == 0.0))
    }
}

impl ExponentialProduct {
    /// A product from its factors' weight vectors, the factor applied first in `factors[0]`.
    ///
    /// # Examples
    /// ```
    /// use lieode::tableau::ExponentialProduct;
    /// // exp(h (F₃ − F₁/2)) · exp(h F₁/2): CF4's fourth stage.
    /// let p = ExponentialProduct::new(vec![vec![0.5, 0.0, 0.0, 0.0], vec![-0.5, 0.0, 1.0, 0.0]]);
    /// assert_eq!(p.summed_weights(4), vec![0.0, 0.0, 1.0, 0.0]);
    /// ```
    pub fn new(factors: Vec<Vec<f64>>) -> Self {
        Self {
            factors: Cow::Owned(factors.into_iter().map(Cow::Owned).collect()),
        }
    }

    /// The sum of the factors' weight vectors, `Σ_m w^{(m)}`, padded or cut to `s` stages.
    /// For a consistent method this is the row of `A` (a stage) or `b` (the output): the
    /// product of exponentials agrees with `exp(h Σ_m Σ_j w^{(m)}_j F_j)` to first order.
    pub fn summed_weights(&self, s: usize) -> Vec<f64> {
        let mut sum = vec![0.0; s];
        for factor in self.factors.iter() {
            for (acc, &w) in sum.iter_mut().zip(factor.iter()) {
                *acc += w;
            }
        }
        sum
    }
}

impl CommutatorFreeWeights {
    /// The weights of a commutator-free method: one product per stage (`stages[0]`, the first
    /// stage's, is empty for an explicit method) and one for the output.
    pub fn new(stages: Vec<ExponentialProduct>, output: ExponentialProduct) -> Self {
        Self {
            stages: Cow::Owned(stages),
            output,
        }
    }
}

impl DenseOutput {
    /// A continuous extension from its per-stage coefficients of `θ, θ², …` and its order.
    pub fn new(coefficients: Vec<Vec<f64>>, order: usize) -> Self {
        Self {
            coefficients: Cow::Owned(coefficients.into_iter().map(Cow::Owned).collect()),
            order,
        }
    }

    /// The interpolation weights `b_i(θ) = Σ_m coefficients[i][m] θ^{m+1}` at `θ`, so that
    /// `y(t₀ + θh) ≈ y₀ + h Σ_i b_i(θ) k_i` (Horner's scheme).
    ///
    /// # Examples
    /// ```
    /// use lieode::tableau::registry::DOPRI5;
    /// let dense = DOPRI5.dense.as_ref().unwrap();
    /// let at_one = dense.weights_at(1.0);
    /// // The continuous extension passes through y₁: b_i(1) = b_i.
    /// for (x, b) in at_one.iter().zip(DOPRI5.b.iter()) {
    ///     assert!((x - b).abs() < 1e-14);
    /// }
    /// ```
    pub fn weights_at(&self, theta: f64) -> Vec<f64> {
        self.coefficients
            .iter()
            .map(|row| row.iter().rev().fold(0.0, |acc, &q| (acc + q) * theta))
            .collect()
    }
}

impl ButcherTableau {
    /// The main (`b`) or embedded (`b̂`) weights.
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] when the embedded weights are asked for and there are none.
    pub fn weights(&self, which: Weights) -> Result<&[f64]> {
        match which {
            Weights::Main => Ok(&self.b),
            Weights::Embedded => self
                .b_hat
                .as_deref()
                .ok_or_else(|| self.invalid("it has no embedded weights `b_hat`".to_string())),
        }
    }

    /// The order claimed for the main or embedded weights.
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] when the embedded order is asked for and there is none.
    pub fn claimed_order(&self, which: Weights) -> Result<usize> {
        match which {
            Weights::Main => Ok(self.order),
            Weights::Embedded => self
                .embedded_order
                .ok_or_else(|| self.invalid("it has no embedded order".to_string())),
        }
    }

    pub(crate) fn invalid(&self, reason: String) -> Error {
        Error::InvalidTableau {
            name: self.name.to_string(),
            reason,
        }
    }

    /// Shapes only: what the order-condition code needs to index safely.
    pub(crate) fn check_shape(&self) -> Result<()> {
        let s = self.stages;
        if s == 0 {
            return Err(self.invalid("it has no stages (s = 0)".to_string()));
        }
        let expected = s.saturating_mul(s);
        if self.a.len() != expected {
            return Err(self.invalid(format!(
                "`a` has {} entries, expected s² = {expected} for s = {s} stages",
                self.a.len()
            )));
        }
        for (field, len) in [("b", self.b.len()), ("c", self.c.len())] {
            if len != s {
                return Err(self.invalid(format!("`{field}` has {len} entries, expected s = {s}")));
            }
        }
        if let Some(b_hat) = &self.b_hat
            && b_hat.len() != s
        {
            return Err(self.invalid(format!(
                "`b_hat` has {} entries, expected s = {s}",
                b_hat.len()
            )));
        }
        Ok(())
    }
}
