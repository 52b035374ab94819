//! Commutator-free and Crouch–Grossman methods: products of exponentials, no `dexp⁻¹`.

use super::munthe_kaas::{generator_checked, state_checked};
use super::{LieOde, Method, Stats, Step, Stepped, check_step_input};
use crate::error::{Error, Result};
use crate::lie::{LieAlgebra, LieGroup, Real, Side, real};
use crate::tableau::{ButcherTableau, ExponentialProduct, Family};

/// A product of exponentials in the scalar type: per factor, the nonzero weights `(j, w_j)`.
#[derive(Debug, Clone)]
struct Product<T> {
    factors: Vec<Vec<(usize, T)>>,
}

impl<T: Real> Product<T> {
    fn from_weights(p: &ExponentialProduct) -> Self {
        Self {
            factors: p
                .factors
                .iter()
                .map(|w| {
                    w.iter()
                        .enumerate()
                        .filter(|(_, x)| **x != 0.0)
                        .map(|(j, &x)| (j, real::<T>(x)))
                        .collect()
                })
                .filter(|f: &Vec<(usize, T)>| !f.is_empty())
                .collect(),
        }
    }

    /// Applies the factors in order: `exp(h Σ w F) · y` (left) or `y · exp(h Σ w F)` (right).
    fn apply<G: LieGroup<Scalar = T>>(&self, y: &G, side: Side, h: T, f: &[G::Algebra]) -> G {
        let mut out = *y;
        for factor in &self.factors {
            let mut xi = G::Algebra::zero();
            for &(j, w) in factor {
                xi = xi.axpy(h * w, &f[j]);
            }
            out = out.exp_update(side, &xi);
        }
        out
    }
}

/// A commutator-free Lie-group method (Crouch–Grossman methods are the special case with one
/// stage derivative per exponential).
///
/// With `F_i = ξ(t + c_i h, Y_i)`, each stage and the output are products of exponentials of
/// linear combinations of earlier `F_j`, applied to `y_n` first factor first
/// (`docs/notation.md`):
/// `Y_i = exp(h Σ_j α^{(i,m)}_j F_j) ⋯ exp(h Σ_j α^{(i,1)}_j F_j) · y_n` in the left form.
/// A Crouch–Grossman tableau gives `Y_i = exp(h a_{i,i−1} F_{i−1}) ⋯ exp(h a_{i1} F_1) · y_n` and
/// `y_{n+1} = exp(h b_s F_s) ⋯ exp(h b_1 F_1) · y_n`. No `dexp⁻¹` is needed.
///
/// With embedded weights the error estimate is `log(ŷ_{n+1}⁻¹ y_{n+1})` ([`Side::Right`]) or
/// `log(y_{n+1} ŷ_{n+1}⁻¹)` ([`Side::Left`]).
///
/// # References
/// - P. E. Crouch, R. Grossman, *Numerical integration of ordinary differential equations on
///   manifolds*, J. Nonlinear Sci. 3 (1993) 1–33.
/// - E. Celledoni, A. Marthinsen, B. Owren, *Commutator-free Lie group methods*, FGCS 19
///   (2003) 341–352.
#[derive(Debug, Clone)]
pub struct CommutatorFree<G: LieGroup> {
    name: String,
    order: usize,
    c: Vec<G::Scalar>,
    stage_products: Vec<Product<G::Scalar>>,
    output: Product<G::Scalar>,
    embedded: Option<Product<G::Scalar>>,
    f: Vec<G::Algebra>,
}

/// The Crouch–Grossman product of a row of weights: one factor per nonzero weight, in stage
/// order.
fn crouch_grossman_product(weights: &[f64]) -> ExponentialProduct {
    let s = weights.len();
    ExponentialProduct {
        factors: weights
            .iter()
            .enumerate()
            .filter(|(_, w)| **w != 0.0)
            .map(|(j, &w)| {
                let mut e = vec![0.0; s];
                e[j] = w;
                std::borrow::Cow::Owned(e)
            })
            .collect::<Vec<_>>()
            .into(),
    }
}

impl<G: LieGroup> CommutatorFree<G> {
    /// The method of a commutator-free tableau ([`Family::CommutatorFree`], weights present).
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] if the tableau is invalid, not explicit or has no
    /// commutator-free weights.
    pub fn new(tableau: &ButcherTableau) -> Result<Self> {
        tableau.validate()?;
        tableau.validate_explicit()?;
        let Some(cf) = tableau.commutator_free.as_ref() else {
            return Err(Error::InvalidTableau {
                name: tableau.name.to_string(),
                reason: "a commutator-free engine needs the tableau's exponential weights".into(),
            });
        };
        let mut stage_products: Vec<Product<G::Scalar>> =
            cf.stages.iter().map(Product::from_weights).collect();
        stage_products.resize(tableau.stages, Product { factors: vec![] });
        Ok(Self::assemble(
            tableau,
            stage_products,
            Product::from_weights(&cf.output),
            None,
        ))
    }

    /// The Crouch–Grossman method of a tableau whose coefficients satisfy the Crouch–Grossman
    /// order conditions ([`ButcherTableau::validate_crouch_grossman`]).
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] if the tableau is invalid, implicit, or not of Crouch–Grossman
    /// type.
    pub fn crouch_grossman(tableau: &ButcherTableau) -> Result<Self> {
        tableau.validate()?;
        if tableau.family != Family::CrouchGrossman {
            return Err(Error::InvalidTableau {
                name: tableau.name.to_string(),
                reason: format!(
                    "the Crouch–Grossman engine accepts only Crouch–Grossman coefficients (family is {:?})",
                    tableau.family
                ),
            });
        }
        tableau.validate_crouch_grossman()?;
        Ok(Self::crouch_grossman_unchecked(tableau))
    }

    /// A product-of-exponentials method built from any explicit tableau in the Crouch–Grossman
    /// way, without checking the Crouch–Grossman order conditions: for studying the order loss
    /// of classical coefficients used this way.
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] if the tableau is invalid or implicit.
    pub fn crouch_grossman_unverified(tableau: &ButcherTableau) -> Result<Self> {
        tableau.validate()?;
        tableau.validate_explicit()?;
        Ok(Self::crouch_grossman_unchecked(tableau))
    }

    fn crouch_grossman_unchecked(tableau: &ButcherTableau) -> Self {
        let s = tableau.stages;
        let stage_products = (0..s)
            .map(|i| {
                let row: Vec<f64> = (0..s).map(|j| tableau.a_ij(i, j)).collect();
                Product::from_weights(&crouch_grossman_product(&row))
            })
            .collect();
        let output = Product::from_weights(&crouch_grossman_product(&tableau.b));
        let embedded = tableau
            .b_hat
            .as_ref()
            .map(|bh| Product::from_weights(&crouch_grossman_product(bh)));
        Self::assemble(tableau, stage_products, output, embedded)
    }

    fn assemble(
        tableau: &ButcherTableau,
        stage_products: Vec<Product<G::Scalar>>,
        output: Product<G::Scalar>,
        embedded: Option<Product<G::Scalar>>,
    ) -> Self {
        Self {
            name: tableau.name.to_string(),
            order: tableau.order,
            c: tableau.c.iter().map(|&x| real(x)).collect(),
            stage_products,
            output,
            embedded,
            f: vec![G::Algebra::zero(); tableau.stages],
        }
    }
}

impl<G: LieGroup, P: LieOde<G> + ?Sized> Step<P> for CommutatorFree<G> {
    type State = G;
    type Scalar = G::Scalar;
    type ErrorEstimate = G::Algebra;

    fn step(
        &mut self,
        problem: &mut P,
        t: G::Scalar,
        y: &G,
        h: G::Scalar,
        stats: &mut Stats,
    ) -> Result<Stepped<G, G::Algebra>> {
        check_step_input(t, h)?;
        let side = problem.side();
        for i in 0..self.f.len() {
            let yi = self.stage_products[i].apply(y, side, h, &self.f);
            self.f[i] = generator_checked(problem, t + self.c[i] * h, &yi, stats)?;
        }
        let y1 = state_checked(self.output.apply(y, side, h, &self.f), t + h)?;
        let error = match &self.embedded {
            Some(e) => {
                let y_hat = e.apply(y, side, h, &self.f);
                let gap = match side {
                    Side::Right => y_hat.inverse().compose(&y1),
                    Side::Left => y1.compose(&y_hat.inverse()),
                };
                Some(gap.log()?)
            }
            None => None,
        };
        Ok(Stepped { state: y1, error })
    }
}

impl<G: LieGroup> Method for CommutatorFree<G> {
    fn order(&self) -> usize {
        self.order
    }
    fn name(&self) -> &str {
        &self.name
    }
}
