//! # Building a tableau, and checking it against what it claims
//!
//! [`ButcherTableau::new`] and the `with_*` builders validate what they build
//! ([`ButcherTableau::validate`]): the arrays have the right shapes, every entry is finite, and
//! the tableau satisfies the consistency conditions every Runge–Kutta method of order ≥ 1
//! needs,
//!
//! ```text
//! Σ_j a_ij = c_i  (i = 1 … s),      Σ_i b_i = 1,      Σ_i b̂_i = 1,
//! ```
//!
//! each to within [`CONSISTENCY_TOLERANCE`] relative to the size of the terms summed
//! (Hairer, Nørsett, Wanner, *Solving Ordinary Differential Equations I*, 2nd ed., 1993,
//! §II.1–II.2), the rules of its family, and the order conditions of the orders it declares
//! ([`super::order_conditions`], computed from the stored coefficients).

use std::borrow::Cow;

use crate::error::{Error, Result};

use super::butcher::{ButcherTableau, CommutatorFreeWeights, DenseOutput, Family, Weights};
use super::order_conditions::{
    CG_MAX_ORDER, ConditionResidual, MAX_ORDER, ORDER_CONDITION_TOLERANCE,
    achieved_crouch_grossman_order, commutator_free_residuals, order_condition_residuals,
};

/// The relative tolerance of the consistency checks in [`ButcherTableau::validate`]:
/// `4 ε ≈ 8.9e-16` (`ε` = [`f64::EPSILON`]).
///
/// A sum `Σ_k x_k` that should equal `y` passes when
/// `|Σ_k x_k − y| ≤ CONSISTENCY_TOLERANCE · max(1, Σ_k |x_k|, |y|)`, the sum being evaluated
/// with compensation. Coefficients that are correctly rounded (exact fractions, decimals
/// printed to 17 or more digits) or computed by a short formula (`1/4 − √3/6`) are off by at
/// most a couple of units in the last place, so the exact data's sums pass with room to spare;
/// a digit wrong anywhere down to about the 15th significant place is caught — e.g. the
/// misprint `a_54 = −1.1092979392113565` of CG4a (true value `…3465`, a row-sum error of
/// `1e-14`).
pub const CONSISTENCY_TOLERANCE: f64 = 4.0 * f64::EPSILON;

/// Neumaier's compensated sum: the validation thresholds should measure the data, not the
/// rounding of the check.
pub(crate) fn accurate_sum(values: impl IntoIterator<Item = f64>) -> f64 {
    let mut sum = 0.0_f64;
    let mut compensation = 0.0_f64;
    for x in values {
        let t = sum + x;
        if sum.abs() >= x.abs() {
            compensation += (sum - t) + x;
        } else {
            compensation += (x - t) + sum;
        }
        sum = t;
    }
    sum + compensation
}

fn first_non_finite(values: &[f64]) -> Option<(usize, f64)> {
    values
        .iter()
        .copied()
        .enumerate()
        .find(|(_, x)| !x.is_finite())
}

impl ButcherTableau {
    /// A classical tableau from its coefficients: `a` holds the `s` rows of `A` (each of
    /// length `s`; explicit methods have zeros on and above the diagonal), `b` the weights, `c`
    /// the nodes, `order` the classical order of `b`. Set the rest with the `with_*` builders.
    ///
    /// ```text
    /// c₁ | a₁₁ … a₁ₛ
    ///  ⋮ |  ⋮      ⋮
    /// cₛ | aₛ₁ … aₛₛ
    /// ---+-----------
    ///    | b₁  … bₛ
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] when the shapes do not match (`a` not `s × s`, `b` or `c` not
    /// of length `s`), an entry is not finite, `order` is zero, or the result fails
    /// [`validate`](Self::validate).
    ///
    /// # Examples
    /// ```
    /// use lieode::tableau::ButcherTableau;
    /// let heun = ButcherTableau::new(
    ///     "my Heun",
    ///     vec![vec![0.0, 0.0], vec![1.0, 0.0]],
    ///     vec![0.5, 0.5],
    ///     vec![0.0, 1.0],
    ///     2,
    /// )?;
    /// assert!(heun.is_explicit());
    ///
    /// let ragged = ButcherTableau::new("bad", vec![vec![0.0, 0.0], vec![1.0]], vec![0.5, 0.5], vec![0.0, 1.0], 2);
    /// assert!(ragged.unwrap_err().to_string().contains("row 2 of `a` has 1 entries"));
    /// # Ok::<(), lieode::Error>(())
    /// ```
    pub fn new(
        name: impl Into<Cow<'static, str>>,
        a: Vec<Vec<f64>>,
        b: Vec<f64>,
        c: Vec<f64>,
        order: usize,
    ) -> Result<Self> {
        let name = name.into();
        let s = a.len();
        if let Some((i, row)) = a.iter().enumerate().find(|(_, row)| row.len() != s) {
            return Err(Error::InvalidTableau {
                name: name.into_owned(),
                reason: format!(
                    "row {} of `a` has {} entries, expected s = {s} (the number of rows)",
                    i + 1,
                    row.len()
                ),
            });
        }
        let tableau = Self {
            name,
            stages: s,
            a: Cow::Owned(a.into_iter().flatten().collect()),
            b: Cow::Owned(b),
            c: Cow::Owned(c),
            b_hat: None,
            dense: None,
            order,
            embedded_order: None,
            fsal: false,
            family: Family::Classical,
            commutator_free: None,
            reference: Cow::Borrowed(""),
        };
        tableau.validate()?;
        Ok(tableau)
    }

    /// Adds embedded weights `b̂` of classical order `order` (for error estimation; the
    /// difference `h Σ_i (b_i − b̂_i) k_i` estimates the local error of the lower-order result).
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] when `b̂` does not have `s` entries, is not finite, does not
    /// sum to 1, or `order` is zero.
    pub fn with_embedded(mut self, b_hat: Vec<f64>, order: usize) -> Result<Self> {
        self.b_hat = Some(Cow::Owned(b_hat));
        self.embedded_order = Some(order);
        self.validate()?;
        Ok(self)
    }

    /// Declares (or withdraws) the first-same-as-last property: the last stage is evaluated at
    /// `(t₀ + h, y₁)`, so it is the next step's first stage.
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] when `fsal` is true but the tableau is not FSAL: the first
    /// row of `A` must vanish, the last row must equal `b`, and `c_s = 1`.
    pub fn with_fsal(mut self, fsal: bool) -> Result<Self> {
        self.fsal = fsal;
        self.validate()?;
        Ok(self)
    }

    /// Sets the family (which engines may run it).
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] when the tableau breaks the family's rules (see
    /// [`validate`](Self::validate)): Crouch–Grossman needs an explicit `A`, commutator-free
    /// needs its exponential weights (set them with
    /// [`with_commutator_free`](Self::with_commutator_free), which sets the family too).
    pub fn with_family(mut self, family: Family) -> Result<Self> {
        self.family = family;
        self.validate()?;
        Ok(self)
    }

    /// Adds a continuous extension.
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] when it does not have one polynomial per stage, its
    /// polynomials differ in degree or have none, an entry is not finite, its order is zero,
    /// or it is inconsistent: `Σ_i b_i(θ) = θ` and `b_i(1) = b_i` must hold.
    pub fn with_dense(mut self, dense: DenseOutput) -> Result<Self> {
        self.dense = Some(dense);
        self.validate()?;
        Ok(self)
    }

    /// Records where the coefficients come from.
    pub fn with_reference(mut self, reference: impl Into<Cow<'static, str>>) -> Self {
        self.reference = reference.into();
        self
    }

    /// Makes this a commutator-free method with the given exponential weights (and sets the
    /// family to [`Family::CommutatorFree`]).
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] when the weights have the wrong shape (one product per stage,
    /// every weight vector of length `s`), are not finite, or are inconsistent with `A` and
    /// `b`: the factors of stage `i` must sum to row `i` of `A`, the output's to `b`.
    ///
    /// # Examples
    /// ```
    /// use lieode::tableau::{ButcherTableau, CommutatorFreeWeights, ExponentialProduct};
    /// let midpoint = ButcherTableau::new(
    ///     "midpoint",
    ///     vec![vec![0.0, 0.0], vec![0.5, 0.0]],
    ///     vec![0.0, 1.0],
    ///     vec![0.0, 0.5],
    ///     2,
    /// )?;
    /// let weights = CommutatorFreeWeights::new(
    ///     vec![ExponentialProduct::new(vec![]), ExponentialProduct::new(vec![vec![0.5, 0.0]])],
    ///     ExponentialProduct::new(vec![vec![0.0, 1.0]]),
    /// );
    /// let cf = midpoint.with_commutator_free(weights)?;
    /// assert_eq!(cf.family, lieode::tableau::Family::CommutatorFree);
    /// # Ok::<(), lieode::Error>(())
    /// ```
    pub fn with_commutator_free(mut self, weights: CommutatorFreeWeights) -> Result<Self> {
        self.commutator_free = Some(weights);
        self.family = Family::CommutatorFree;
        self.validate()?;
        Ok(self)
    }

    /// Checks the tableau: shapes, finiteness, metadata, consistency, the family's rules and
    /// the declared orders.
    ///
    /// In order:
    /// 1. shapes: `s ≥ 1`, `A` is `s × s`, `b`, `c` and `b̂` have `s` entries;
    /// 2. every entry of `A`, `b`, `c`, `b̂` is finite;
    /// 3. `order ≥ 1`; `b̂` and `embedded_order` are given together, `embedded_order ≥ 1`;
    /// 4. consistency (see [`CONSISTENCY_TOLERANCE`]): `Σ_j a_ij = c_i` for every row,
    ///    `Σ_i b_i = 1`, `Σ_i b̂_i = 1`;
    /// 5. FSAL, if claimed: first row of `A` zero, last row equal to `b`, `c_s = 1`;
    /// 6. dense output, if given: one polynomial per stage, all of the same degree ≥ 1, finite,
    ///    order ≥ 1, `Σ_i b_i(θ) = θ` (coefficient sums 1, 0, 0, …) and `b_i(1) = b_i`;
    /// 7. family: [`Family::CrouchGrossman`] needs a strictly lower-triangular `A`;
    ///    [`Family::CommutatorFree`] needs its [`CommutatorFreeWeights`] — one product per
    ///    stage, weight vectors of length `s`, finite, the factors of stage `i` summing to row
    ///    `i` of `A` and the output's to `b` (Celledoni, Marthinsen, Owren, *Future Gener.
    ///    Comput. Syst.* 19 (2003) 341–352, §2); other families must not carry such weights;
    /// 8. declared orders: the classical order conditions ([`super::order_conditions`]) of `b`
    ///    up to `order` and of `b̂` up to `embedded_order` hold within
    ///    [`ORDER_CONDITION_TOLERANCE`] (orders up to [`MAX_ORDER`] can be verified); a
    ///    Crouch–Grossman tableau also meets the Crouch–Grossman conditions of both orders, a
    ///    commutator-free one the commutator-free conditions of `order` (both up to
    ///    [`CG_MAX_ORDER`]). The error names the first violated condition and its residual.
    ///    (To ask whether a classical tableau is also a Crouch–Grossman method, see
    ///    [`validate_crouch_grossman`](Self::validate_crouch_grossman).)
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] naming the first failed check: the field, the entry (1-based,
    /// `a_{i,j}`), or the condition with its residual.
    ///
    /// # Examples
    /// ```
    /// use lieode::tableau::registry::RK4;
    /// RK4.validate()?;
    /// let mut broken = RK4.clone();
    /// broken.b = vec![0.2, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0].into();
    /// let message = broken.validate().unwrap_err().to_string();
    /// assert!(message.contains("`b` sums to"));
    ///
    /// // Euler's coefficients declared fourth order: refused, naming the condition.
    /// use lieode::tableau::ButcherTableau;
    /// let error = ButcherTableau::new("Euler", vec![vec![0.0]], vec![1.0], vec![0.0], 4)
    ///     .unwrap_err()
    ///     .to_string();
    /// assert!(error.contains("`order` = 4 is not reached"), "{error}");
    /// assert!(error.contains("residual -5e-1"), "{error}");
    /// # Ok::<(), lieode::Error>(())
    /// ```
    pub fn validate(&self) -> Result<()> {
        self.check_shape()?;
        let s = self.stages;
        self.check_finite()?;
        self.check_metadata()?;
        // Row sums.
        for i in 0..s {
            let row = &self.a[i * s..(i + 1) * s];
            let sum = accurate_sum(row.iter().copied());
            let scale = accurate_sum(row.iter().map(|x| x.abs()))
                .max(self.c[i].abs())
                .max(1.0);
            let residual = sum - self.c[i];
            if exceeds(residual, CONSISTENCY_TOLERANCE * scale) {
                return Err(self.invalid(format!(
                    "row {} of `a` sums to {sum:e} but c_{} = {:e}: residual {residual:e} exceeds \
                     {CONSISTENCY_TOLERANCE:e} × {scale:e}",
                    i + 1,
                    i + 1,
                    self.c[i]
                )));
            }
        }
        self.check_unit_sum("b", &self.b)?;
        if let Some(b_hat) = &self.b_hat {
            self.check_unit_sum("b_hat", b_hat)?;
        }
        if self.fsal {
            self.check_fsal()?;
        }
        if let Some(dense) = &self.dense {
            self.check_dense(dense)?;
        }
        self.check_family()?;
        self.check_declared_orders()
    }

    /// The declared orders against the order conditions computed from the coefficients: the
    /// classical conditions of `b` up to `order` and of `b̂` up to `embedded_order` (every
    /// family needs them), and for the Crouch–Grossman and commutator-free families their own
    /// conditions too. A false claim would mislead the engines (the Munthe-Kaas engine truncates
    /// `dexp⁻¹` at the order) and the step-size control (its exponents come from the orders).
    fn check_declared_orders(&self) -> Result<()> {
        let mut claims = vec![(Weights::Main, "order", self.order)];
        if let (Some(_), Some(p)) = (&self.b_hat, self.embedded_order) {
            claims.push((Weights::Embedded, "embedded_order", p));
        }
        for &(which, field, claimed) in &claims {
            if claimed > MAX_ORDER {
                return Err(self.invalid(format!(
                    "`{field}` = {claimed} cannot be verified: the order conditions are \
                     generated up to order {MAX_ORDER}"
                )));
            }
            let residuals = order_condition_residuals(self, which, claimed)?;
            self.check_claim("", field, claimed, &residuals)?;
        }
        match self.family {
            Family::Classical => Ok(()),
            Family::CrouchGrossman => self.check_crouch_grossman_claims(),
            Family::CommutatorFree => {
                if self.order > CG_MAX_ORDER {
                    return Err(self.invalid(format!(
                        "commutator-free order {} cannot be verified: conditions are \
                         implemented up to order {CG_MAX_ORDER}",
                        self.order
                    )));
                }
                let residuals = commutator_free_residuals(self, self.order)?;
                self.check_claim(
                    "as a commutator-free method ",
                    "order",
                    self.order,
                    &residuals,
                )
            }
        }
    }

    /// [`Error::InvalidTableau`] naming the first condition of `residuals` (ordered by order)
    /// beyond [`ORDER_CONDITION_TOLERANCE`], if any.
    fn check_claim(
        &self,
        kind: &str,
        field: &str,
        claimed: usize,
        residuals: &[ConditionResidual],
    ) -> Result<()> {
        let violated = residuals
            .iter()
            .find(|r| r.residual.is_nan() || r.residual.abs() > ORDER_CONDITION_TOLERANCE);
        match violated {
            None => Ok(()),
            Some(r) => Err(self.invalid(format!(
                "{kind}the declared `{field}` = {claimed} is not reached: the first violated \
                 condition, {} (order {}), has residual {:e} (tolerance \
                 {ORDER_CONDITION_TOLERANCE:e})",
                r.tree, r.order, r.residual
            ))),
        }
    }

    fn check_finite(&self) -> Result<()> {
        let s = self.stages;
        if let Some((k, x)) = first_non_finite(&self.a) {
            return Err(self.invalid(format!(
                "`a` has a non-finite entry a_{{{},{}}} = {x}",
                k / s + 1,
                k % s + 1
            )));
        }
        let mut vectors = vec![("b", &self.b[..]), ("c", &self.c[..])];
        if let Some(b_hat) = &self.b_hat {
            vectors.push(("b_hat", &b_hat[..]));
        }
        for (field, v) in vectors {
            if let Some((k, x)) = first_non_finite(v) {
                return Err(self.invalid(format!(
                    "`{field}` has a non-finite entry {field}_{} = {x}",
                    k + 1
                )));
            }
        }
        Ok(())
    }

    fn check_metadata(&self) -> Result<()> {
        if self.order == 0 {
            return Err(self.invalid("`order` is 0, expected at least 1".to_string()));
        }
        match (&self.b_hat, self.embedded_order) {
            (Some(_), None) => {
                Err(self.invalid("`b_hat` is given without `embedded_order`".to_string()))
            }
            (None, Some(p)) => {
                Err(self.invalid(format!("`embedded_order` = {p} is given without `b_hat`")))
            }
            (Some(_), Some(0)) => {
                Err(self.invalid("`embedded_order` is 0, expected at least 1".to_string()))
            }
            _ => Ok(()),
        }
    }

    fn check_unit_sum(&self, field: &str, weights: &[f64]) -> Result<()> {
        let sum = accurate_sum(weights.iter().copied());
        let scale = accurate_sum(weights.iter().map(|x| x.abs())).max(1.0);
        let residual = sum - 1.0;
        if exceeds(residual, CONSISTENCY_TOLERANCE * scale) {
            return Err(self.invalid(format!(
                "`{field}` sums to {sum:e}, expected 1: residual {residual:e} exceeds \
                 {CONSISTENCY_TOLERANCE:e} × {scale:e}"
            )));
        }
        Ok(())
    }

    fn check_fsal(&self) -> Result<()> {
        let s = self.stages;
        if let Some(j) = (0..s).find(|&j| self.a_ij(0, j) != 0.0) {
            return Err(self.invalid(format!(
                "FSAL needs an explicit first stage, but a_{{1,{}}} = {:e}",
                j + 1,
                self.a_ij(0, j)
            )));
        }
        let tolerance = CONSISTENCY_TOLERANCE;
        if exceeds(self.c[s - 1] - 1.0, tolerance) {
            return Err(self.invalid(format!(
                "FSAL needs c_s = 1, but c_{s} = {:e}",
                self.c[s - 1]
            )));
        }
        for j in 0..s {
            let difference = self.a_ij(s - 1, j) - self.b[j];
            if exceeds(difference, tolerance * self.b[j].abs().max(1.0)) {
                return Err(self.invalid(format!(
                    "FSAL needs the last row of `a` to equal `b`, but a_{{{s},{}}} − b_{} = \
                     {difference:e}",
                    j + 1,
                    j + 1
                )));
            }
        }
        Ok(())
    }

    fn check_dense(&self, dense: &DenseOutput) -> Result<()> {
        let s = self.stages;
        if dense.coefficients.len() != s {
            return Err(self.invalid(format!(
                "`dense` has {} polynomials, expected one per stage (s = {s})",
                dense.coefficients.len()
            )));
        }
        if dense.order == 0 {
            return Err(self.invalid("`dense.order` is 0, expected at least 1".to_string()));
        }
        let degree = dense.coefficients[0].len();
        if degree == 0 {
            return Err(
                self.invalid("`dense` polynomials have no coefficients (degree 0)".to_string())
            );
        }
        for (i, row) in dense.coefficients.iter().enumerate() {
            if row.len() != degree {
                return Err(self.invalid(format!(
                    "`dense` polynomial of stage {} has {} coefficients, stage 1's has {degree}",
                    i + 1,
                    row.len()
                )));
            }
            if let Some((m, x)) = first_non_finite(row) {
                return Err(self.invalid(format!(
                    "`dense` coefficient of θ^{} for stage {} is {x}",
                    m + 1,
                    i + 1
                )));
            }
        }
        for m in 0..degree {
            let column = dense.coefficients.iter().map(|row| row[m]);
            let sum = accurate_sum(column.clone());
            let scale = accurate_sum(column.map(f64::abs)).max(1.0);
            let expected = if m == 0 { 1.0 } else { 0.0 };
            let residual = sum - expected;
            if exceeds(residual, CONSISTENCY_TOLERANCE * scale) {
                return Err(self.invalid(format!(
                    "`dense` is inconsistent: the θ^{} coefficients sum to {sum:e}, expected \
                     {expected} (Σ_i b_i(θ) = θ)",
                    m + 1
                )));
            }
        }
        for (i, row) in dense.coefficients.iter().enumerate() {
            let at_one = accurate_sum(row.iter().copied());
            let scale = accurate_sum(row.iter().map(|x| x.abs())).max(1.0);
            let residual = at_one - self.b[i];
            if exceeds(residual, CONSISTENCY_TOLERANCE * scale) {
                return Err(self.invalid(format!(
                    "`dense` does not reach y₁: b_{}(1) − b_{} = {residual:e}",
                    i + 1,
                    i + 1
                )));
            }
        }
        Ok(())
    }

    fn check_family(&self) -> Result<()> {
        match self.family {
            Family::Classical | Family::CrouchGrossman => {
                if self.commutator_free.is_some() {
                    return Err(self.invalid(format!(
                        "it carries commutator-free weights but its family is {:?}",
                        self.family
                    )));
                }
                if self.family == Family::CrouchGrossman {
                    self.check_strictly_lower("Crouch–Grossman methods are explicit")?;
                }
                Ok(())
            }
            Family::CommutatorFree => {
                let Some(cf) = &self.commutator_free else {
                    return Err(self.invalid(
                        "its family is CommutatorFree but `commutator_free` weights are missing"
                            .to_string(),
                    ));
                };
                self.check_commutator_free(cf)
            }
        }
    }

    fn check_commutator_free(&self, cf: &CommutatorFreeWeights) -> Result<()> {
        let s = self.stages;
        if cf.stages.len() != s {
            return Err(self.invalid(format!(
                "`commutator_free.stages` has {} products, expected one per stage (s = {s})",
                cf.stages.len()
            )));
        }
        let products = cf
            .stages
            .iter()
            .enumerate()
            .map(|(i, p)| {
                (
                    format!("stage {}", i + 1),
                    p,
                    &self.a[i * s..(i + 1) * s],
                    "row of `a`",
                )
            })
            .chain(std::iter::once((
                "the output".to_string(),
                &cf.output,
                &self.b[..],
                "`b`",
            )));
        for (what, product, target, target_name) in products {
            for (m, factor) in product.factors.iter().enumerate() {
                if factor.len() != s {
                    return Err(self.invalid(format!(
                        "commutator-free factor {} of {what} has {} weights, expected s = {s}",
                        m + 1,
                        factor.len()
                    )));
                }
                if let Some((j, x)) = first_non_finite(factor) {
                    return Err(self.invalid(format!(
                        "commutator-free factor {} of {what} has a non-finite weight w_{} = {x}",
                        m + 1,
                        j + 1
                    )));
                }
            }
            for (j, &t) in target.iter().enumerate() {
                let terms = product.factors.iter().map(|f| f[j]);
                let sum = accurate_sum(terms.clone());
                let scale = accurate_sum(terms.map(f64::abs)).max(t.abs()).max(1.0);
                let residual = sum - t;
                if exceeds(residual, CONSISTENCY_TOLERANCE * scale) {
                    return Err(self.invalid(format!(
                        "commutator-free weights of {what} are inconsistent: the factors' weights \
                         of F_{} sum to {sum:e} but the {target_name} has {t:e} (residual \
                         {residual:e})",
                        j + 1
                    )));
                }
            }
        }
        Ok(())
    }

    fn check_strictly_lower(&self, why: &str) -> Result<()> {
        let s = self.stages;
        for i in 0..s {
            for j in i..s {
                let x = self.a_ij(i, j);
                if x != 0.0 {
                    return Err(self.invalid(format!(
                        "{why}, but a_{{{},{}}} = {x:e} is on or above the diagonal",
                        i + 1,
                        j + 1
                    )));
                }
            }
        }
        Ok(())
    }

    /// Checks that the tableau can run in an explicit engine: [`validate`](Self::validate)
    /// passes and `A` is strictly lower triangular (`a_ij = 0` for `j ≥ i`); for a
    /// commutator-free method also that no exponential factor of stage `i` uses `F_j` with
    /// `j ≥ i`.
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] naming the first entry on or above the diagonal.
    ///
    /// # Examples
    /// ```
    /// use lieode::tableau::registry::{GAUSS4, RK4};
    /// RK4.validate_explicit()?;
    /// assert!(GAUSS4.validate_explicit().unwrap_err().to_string().contains("a_{1,1}"));
    /// # Ok::<(), lieode::Error>(())
    /// ```
    pub fn validate_explicit(&self) -> Result<()> {
        self.validate()?;
        self.check_strictly_lower("an explicit method needs a strictly lower-triangular `a`")?;
        if let Some(cf) = &self.commutator_free {
            for (i, product) in cf.stages.iter().enumerate() {
                for (m, factor) in product.factors.iter().enumerate() {
                    if let Some((j, &w)) =
                        factor.iter().enumerate().skip(i).find(|(_, w)| **w != 0.0)
                    {
                        return Err(self.invalid(format!(
                            "an explicit commutator-free method builds stage {} from earlier \
                             stages only, but its factor {} weights F_{} by {w:e}",
                            i + 1,
                            m + 1,
                            j + 1
                        )));
                    }
                }
            }
        }
        Ok(())
    }

    /// Checks that the coefficients define a Crouch–Grossman method of the claimed orders:
    /// [`validate`](Self::validate), an explicit `A`, and the Crouch–Grossman order conditions
    /// (which include the classical ones) for `b` up to `order` and for `b̂` up to
    /// `embedded_order`, each residual within [`ORDER_CONDITION_TOLERANCE`]. A classical
    /// tableau whose coefficients do not satisfy the extra conditions fails.
    ///
    /// The conditions are those of Owren & Marthinsen, *BIT* 39 (1999) 116–142, generated here
    /// from ordered forests: see [`super::order_conditions::crouch_grossman_residuals`].
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] when a check fails (the message gives the condition and its
    /// residual), or when a claimed order exceeds [`CG_MAX_ORDER`] and cannot be verified.
    ///
    /// # Examples
    /// ```
    /// use lieode::tableau::registry::{CG3, KUTTA3};
    /// CG3.validate_crouch_grossman()?;
    /// // Kutta's third-order coefficients are only second order as a Crouch–Grossman method.
    /// assert!(KUTTA3.validate_crouch_grossman().is_err());
    /// # Ok::<(), lieode::Error>(())
    /// ```
    pub fn validate_crouch_grossman(&self) -> Result<()> {
        self.validate()?;
        self.check_strictly_lower("Crouch–Grossman methods are explicit")?;
        self.check_crouch_grossman_claims()
    }

    /// The declared orders of `b` (and of `b̂`) as a Crouch–Grossman method.
    fn check_crouch_grossman_claims(&self) -> Result<()> {
        let mut claims = vec![(Weights::Main, self.order)];
        if let Some(p) = self.embedded_order {
            claims.push((Weights::Embedded, p));
        }
        for (which, claimed) in claims {
            if claimed > CG_MAX_ORDER {
                return Err(self.invalid(format!(
                    "Crouch–Grossman order {claimed} claimed for {which:?} weights cannot be \
                     verified: conditions are implemented up to order {CG_MAX_ORDER}"
                )));
            }
            let achieved = achieved_crouch_grossman_order(self, which, ORDER_CONDITION_TOLERANCE)?;
            if achieved < claimed {
                let failed =
                    super::order_conditions::crouch_grossman_residuals(self, which, achieved + 1)?
                        .into_iter()
                        .filter(|r| r.order == achieved + 1)
                        .max_by(|x, y| x.residual.abs().total_cmp(&y.residual.abs()));
                let detail = failed
                    .map(|r| {
                        format!(
                            "; worst condition {} (order {}) has residual {:e}",
                            r.tree, r.order, r.residual
                        )
                    })
                    .unwrap_or_default();
                return Err(self.invalid(format!(
                    "as a Crouch–Grossman method its {which:?} weights have order {achieved}, \
                     not the claimed {claimed}{detail}"
                )));
            }
        }
        Ok(())
    }
}

/// Whether a consistency `residual` fails its `limit`. A residual or limit that overflowed
/// (inf or NaN, from rows or weights too large to sum) fails too: a plain `>` would let NaN
/// through.
fn exceeds(residual: f64, limit: f64) -> bool {
    !(residual.is_finite() && limit.is_finite()) || residual.abs() > limit
}
