//! # Order conditions
//!
//! A Runge–Kutta method `(A, b, c)` has order `p` when, for every rooted tree `t` with
//! `|t| ≤ p` nodes,
//!
//! ```text
//! Σ_i b_i Φ_i(t) = 1 / γ(t),
//! Φ_i(τ) = 1,   Φ_i([t₁ … t_m]) = Π_k ( Σ_j a_ij Φ_j(t_k) ),
//! γ(τ) = 1,     γ([t₁ … t_m]) = |t| · Π_k γ(t_k),
//! ```
//!
//! (Butcher 1963; Hairer, Nørsett, Wanner, *Solving Ordinary Differential Equations I*, 2nd ed.,
//! 1993, §II.2, Theorem 2.13; J. C. Butcher, *Numerical Methods for Ordinary Differential
//! Equations*, 3rd ed., 2016, ch. 3). The trees are **generated** here, not typed in: all rooted trees up to
//! [`MAX_ORDER`] = 8 nodes (1, 1, 2, 4, 9, 20, 48, 115 of each order), each with its order,
//! symmetry `σ`, density `γ` and bracket notation (`τ` a single node, `[t₁ t₂ …]` a root with
//! subtrees `t₁, t₂, …`; e.g. `[[τ]τ]`). The elementary weights use the full matrix `A`, so
//! implicit methods are checked as well.
//!
//! Methods built from products of exponentials (Crouch–Grossman, commutator-free) must satisfy
//! more conditions, indexed by *ordered* forests: [`crouch_grossman_residuals`] and
//! [`commutator_free_residuals`]. Continuous extensions (dense output) are checked by
//! [`dense_output_residuals`].
//!
//! ## Products of exponentials: Crouch–Grossman and commutator-free conditions
//!
//! Write the ODE on a homogeneous space as `y' = F(y) = Σ_k f_k(y) E_k(y)` with a frame of
//! vector fields `E_k` (the infinitesimal action of a basis of the Lie algebra), and call
//! `F_p = Σ_k f_k(p) E_k` the field *frozen* at `p`. A stage (or the output) of a
//! product-of-exponentials method is `Y = exp(X_M) ∘ ⋯ ∘ exp(X_1)(y₀)` with frozen fields
//! `X_m = h Σ_j w^{(m)}_j F_{Y_j}`; for functions `φ`, Gröbner's Lie series gives
//!
//! ```text
//! φ(Y) = (e^{X_1} e^{X_2} ⋯ e^{X_M} φ)(y₀),       φ(y(h)) = Σ_n hⁿ/n! (Fⁿ φ)(y₀).
//! ```
//!
//! Expanding both in the frame derivatives gives sums over **ordered forests** `ω = τ₁ ⋯ τ_m`
//! (sequences of ordered trees; `τ_p` is attached to the `p`-th frame derivative from the left,
//! and a tree `[ω']` is a coefficient function `f_k` differentiated along the forest `ω'`).
//! With the frame derivatives free (no relations among the `E_k`, the generic case of Owren &
//! Marthinsen), the method has order `p` iff for every ordered forest with `|ω| = n ≤ p` nodes
//!
//! ```text
//! Ψ(ω) = λ(ω) / n!,
//! Ψ(τ₁ ⋯ τ_m) = Σ_{m₁ ≤ m₂ ≤ ⋯ ≤ m_m} Π_p ( Σ_j w^{(m_p)}_j Φ_j(τ_p) ) / Π_runs (run length)!,
//! Φ_j([ω']) = Ψ_j(ω')   (the same sum with the factors of stage j),
//! ```
//!
//! where the sum runs over non-decreasing assignments of the trees to the factors (a factor
//! applied earlier stands further left), each maximal run of equal factors divided by its
//! length factorial (from `e^X = Σ Xⁿ/n!`), and `λ(ω)` counts the labellings of the nodes by
//! `1 … n` that increase from parent to child and *decrease* from left to right among siblings
//! (the order in which the exact expansion `Fⁿφ` creates them). A Crouch–Grossman method is the
//! case of one factor per stage, `w^{(j)} = a_ij e_j` (stage `i`) or `b_j e_j` (output);
//! a commutator-free method takes its factors from [`CommutatorFreeWeights`](super::CommutatorFreeWeights).
//!
//! Single trees with symmetric subtrees reproduce the classical conditions (e.g. the forest
//! `[ττ]` gives `Σ b_i c_i²/2 = 1/6`); summing the orderings of a classical tree gives its
//! classical condition, so the classical conditions are implied. The first genuinely new
//! condition is the order-3 forest `[τ]τ`:
//!
//! ```text
//! Σ_{i<j} b_i c_i b_j + ½ Σ_i b_i² c_i = 1/6,   i.e.   Σ_i b_i² c_i + 2 Σ_{i<j} b_i c_i b_j = 1/3,
//! ```
//!
//! the third-order Crouch–Grossman condition (Crouch & Grossman, *J. Nonlinear Sci.* 3 (1993)
//! 1–33; Owren & Marthinsen, *BIT* 39 (1999) 116–142). The sets generated here contain
//! redundant conditions (the forest `τ[τ]` at order 3 follows from `[τ]τ` and `Σ b_i c_i = ½`),
//! which does no harm to a residual check. Verified: CG3 and CG4a (Jackiewicz, Marthinsen,
//! Owren, *Adv. Comput. Math.* 13 (2000) 405–415) satisfy every condition of their order and
//! fail one of the next; CF4 satisfies the commutator-free conditions to order 4; classical
//! third-order coefficients used as Crouch–Grossman coefficients fail `[τ]τ` (and measure
//! second order).

use std::fmt;

use crate::error::{Error, Result};

use super::butcher::ButcherTableau;

pub use super::crouch_grossman::{
    CG_MAX_ORDER, achieved_commutator_free_order, achieved_crouch_grossman_order,
    commutator_free_residuals, crouch_grossman_residuals,
};

/// The largest order for which rooted trees are generated.
pub const MAX_ORDER: usize = 8;

/// The absolute tolerance [`ButcherTableau::validate_crouch_grossman`] allows on each order
/// condition. Published coefficients satisfy their conditions to about `1e-16` (printed to 16
/// or more digits); a wrong coefficient typically leaves a residual of `1e-3` or more.
pub const ORDER_CONDITION_TOLERANCE: f64 = 1e-12;

pub use super::butcher::Weights;

/// An (unordered) rooted tree, stored in a canonical form: its subtrees sorted in decreasing
/// order (larger trees first), so equal trees compare equal.
///
/// # Examples
/// ```
/// use lieode::tableau::order_conditions::RootedTree;
/// let tau = RootedTree::leaf();
/// let t = RootedTree::from_children(vec![tau.clone(), RootedTree::from_children(vec![tau.clone()])]);
/// assert_eq!(t.to_string(), "[[τ]τ]");
/// assert_eq!((t.order(), t.density(), t.symmetry()), (4, 8, 1));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RootedTree {
    // Field order matters for the derived `Ord`: first the order, then the subtrees.
    order: usize,
    children: Vec<RootedTree>,
}

impl RootedTree {
    /// The single node `τ`.
    pub fn leaf() -> Self {
        Self {
            order: 1,
            children: Vec::new(),
        }
    }

    /// `[t₁ … t_m]`: a new root whose subtrees are `children` (in any order).
    pub fn from_children(mut children: Vec<RootedTree>) -> Self {
        children.sort_by(|x, y| y.cmp(x));
        let order = 1 + children.iter().map(|t| t.order).sum::<usize>();
        Self { order, children }
    }

    /// The number of nodes `|t|`, the order of the condition.
    pub fn order(&self) -> usize {
        self.order
    }

    /// The subtrees of the root, larger first.
    pub fn children(&self) -> &[RootedTree] {
        &self.children
    }

    /// The density `γ(t) = |t| Π_k γ(t_k)` (HNW I, §II.2): the exact solution's
    /// coefficient is `1/γ(t)`.
    pub fn density(&self) -> u64 {
        self.children
            .iter()
            .fold(self.order as u64, |acc, t| acc * t.density())
    }

    /// The symmetry `σ(t) = Π_u σ(u)^{m_u} m_u!` over the distinct subtrees `u` of the root,
    /// `m_u` times each (Butcher 2016, ch. 3): the order of the tree's automorphism group.
    pub fn symmetry(&self) -> u64 {
        let mut sigma = 1u64;
        let mut k = 0;
        while k < self.children.len() {
            let first = &self.children[k];
            let run = self.children[k..]
                .iter()
                .take_while(|t| *t == first)
                .count();
            let s = first.symmetry();
            for m in 1..=run as u64 {
                sigma *= s * m;
            }
            k += run;
        }
        sigma
    }

    /// The bracket notation, e.g. `[[τ]τ]` (also the [`fmt::Display`] output).
    pub fn notation(&self) -> String {
        self.to_string()
    }

    /// The stage elementary weights `Φ_i(t)`, `i = 1 … s`, of `A` (row-major, `s × s`).
    fn stage_weights_unchecked(&self, a: &[f64], s: usize) -> Vec<f64> {
        let mut phi = vec![1.0; s];
        for child in &self.children {
            let inner = child.stage_weights_unchecked(a, s);
            for (i, p) in phi.iter_mut().enumerate() {
                let row = &a[i * s..(i + 1) * s];
                *p *= row.iter().zip(&inner).map(|(x, y)| x * y).sum::<f64>();
            }
        }
        phi
    }
}

impl fmt::Display for RootedTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.children.is_empty() {
            return f.write_str("τ");
        }
        f.write_str("[")?;
        for child in &self.children {
            write!(f, "{child}")?;
        }
        f.write_str("]")
    }
}

pub(super) fn check_max_order(max_order: usize, limit: usize) -> Result<()> {
    if max_order == 0 || max_order > limit {
        return Err(Error::InvalidParameter {
            name: "max_order",
            value: max_order.to_string(),
            expected: format!("1 ≤ max_order ≤ {limit}"),
        });
    }
    Ok(())
}

pub(super) fn check_tolerance(tolerance: f64) -> Result<()> {
    if !tolerance.is_finite() {
        return Err(Error::NonFinite { name: "tolerance" });
    }
    if tolerance <= 0.0 {
        return Err(Error::InvalidParameter {
            name: "tolerance",
            value: tolerance.to_string(),
            expected: "a positive number".to_string(),
        });
    }
    Ok(())
}

/// All rooted trees of order `1 … max_order`, grouped by order: `result[k − 1]` holds the trees
/// with `k` nodes. Generated by grafting every multiset of smaller trees onto a new root.
fn generate(max_order: usize) -> Vec<Vec<RootedTree>> {
    let mut by_order: Vec<Vec<RootedTree>> = vec![vec![RootedTree::leaf()]];
    for n in 2..=max_order {
        // Candidate subtrees: all trees of order < n, indexed.
        let pool: Vec<&RootedTree> = by_order.iter().flatten().collect();
        let mut result = Vec::new();
        let mut chosen: Vec<usize> = Vec::new();
        multisets(&pool, n - 1, 0, &mut chosen, &mut result);
        result.sort();
        by_order.push(result);
    }
    by_order
}

/// Every multiset (non-decreasing index sequence from `start`) of trees in `pool` whose orders
/// add up to `remaining`, grafted onto a root.
fn multisets(
    pool: &[&RootedTree],
    remaining: usize,
    start: usize,
    chosen: &mut Vec<usize>,
    out: &mut Vec<RootedTree>,
) {
    if remaining == 0 {
        let children = chosen.iter().map(|&k| pool[k].clone()).collect();
        out.push(RootedTree::from_children(children));
        return;
    }
    for k in start..pool.len() {
        let order = pool[k].order;
        if order <= remaining {
            chosen.push(k);
            multisets(pool, remaining - order, k, chosen, out);
            chosen.pop();
        }
    }
}

/// All rooted trees with exactly `order` nodes.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `order` unless `1 ≤ order ≤ 8`.
///
/// # Examples
/// ```
/// use lieode::tableau::order_conditions::trees;
/// let counts: Vec<usize> = (1..=8).map(|n| trees(n).map(|t| t.len())).collect::<Result<_, _>>()?;
/// assert_eq!(counts, [1, 1, 2, 4, 9, 20, 48, 115]);
/// # Ok::<(), lieode::Error>(())
/// ```
pub fn trees(order: usize) -> Result<Vec<RootedTree>> {
    if order == 0 || order > MAX_ORDER {
        return Err(Error::InvalidParameter {
            name: "order",
            value: order.to_string(),
            expected: format!("1 ≤ order ≤ {MAX_ORDER}"),
        });
    }
    Ok(generate(order).pop().unwrap_or_default())
}

/// All rooted trees with at most `max_order` nodes, by increasing order.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `max_order` unless `1 ≤ max_order ≤ 8`.
pub fn trees_up_to(max_order: usize) -> Result<Vec<RootedTree>> {
    check_max_order(max_order, MAX_ORDER)?;
    Ok(generate(max_order).into_iter().flatten().collect())
}

/// The stage elementary weights `Φ_i(t)`, `i = 1 … s`: `Φ_i(τ) = 1`,
/// `Φ_i([t₁ … t_m]) = Π_k Σ_j a_ij Φ_j(t_k)` (HNW I, §II.2).
///
/// # Errors
/// [`Error::InvalidTableau`] when the tableau's arrays have the wrong shapes.
pub fn stage_weights(tableau: &ButcherTableau, tree: &RootedTree) -> Result<Vec<f64>> {
    tableau.check_shape()?;
    Ok(tree.stage_weights_unchecked(&tableau.a, tableau.stages))
}

/// The elementary weight `Σ_i b_i Φ_i(t)` of the main or embedded weights; the method
/// satisfies the condition of `t` when it equals `1/γ(t)`.
///
/// # Errors
/// [`Error::InvalidTableau`] when the shapes are wrong or `Embedded` is asked of a tableau
/// without `b̂`.
///
/// # Examples
/// ```
/// use lieode::tableau::order_conditions::{elementary_weight, trees, Weights};
/// use lieode::tableau::registry::RK4;
/// for t in trees(4)? {
///     let phi = elementary_weight(&RK4, Weights::Main, &t)?;
///     assert!((phi - 1.0 / t.density() as f64).abs() < 1e-15);
/// }
/// # Ok::<(), lieode::Error>(())
/// ```
pub fn elementary_weight(
    tableau: &ButcherTableau,
    weights: Weights,
    tree: &RootedTree,
) -> Result<f64> {
    let phi = stage_weights(tableau, tree)?;
    let b = tableau.weights(weights)?;
    Ok(b.iter().zip(&phi).map(|(x, y)| x * y).sum())
}

/// The residual of one order condition.
#[derive(Debug, Clone, PartialEq)]
pub struct ConditionResidual {
    /// The tree (or, for Crouch–Grossman and commutator-free conditions, the ordered forest) in
    /// bracket notation.
    pub tree: String,
    /// The order of the condition (number of nodes).
    pub order: usize,
    /// Elementary weight minus its exact value, e.g. `Σ_i b_i Φ_i(t) − 1/γ(t)`.
    pub residual: f64,
}

impl fmt::Display for ConditionResidual {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "order {} {}: residual {:e}",
            self.order, self.tree, self.residual
        )
    }
}

/// The residuals `Σ_i b_i Φ_i(t) − 1/γ(t)` of every tree `t` with `|t| ≤ max_order`, for the
/// main or embedded weights, by increasing order.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `max_order` unless `1 ≤ max_order ≤ 8`;
/// [`Error::InvalidTableau`] when the shapes are wrong or `Embedded` is asked of a tableau
/// without `b̂`.
///
/// # Examples
/// ```
/// use lieode::tableau::order_conditions::{order_condition_residuals, Weights};
/// use lieode::tableau::registry::RK4;
/// let residuals = order_condition_residuals(&RK4, Weights::Main, 5)?;
/// assert_eq!(residuals.len(), 1 + 1 + 2 + 4 + 9);
/// assert!(residuals.iter().filter(|r| r.order <= 4).all(|r| r.residual.abs() < 1e-15));
/// assert!(residuals.iter().filter(|r| r.order == 5).any(|r| r.residual.abs() > 1e-3));
/// # Ok::<(), lieode::Error>(())
/// ```
pub fn order_condition_residuals(
    t: &ButcherTableau,
    w: Weights,
    max_order: usize,
) -> Result<Vec<ConditionResidual>> {
    check_max_order(max_order, MAX_ORDER)?;
    t.check_shape()?;
    let b = t.weights(w)?;
    Ok(generate(max_order)
        .into_iter()
        .flatten()
        .map(|tree| {
            let phi = tree.stage_weights_unchecked(&t.a, t.stages);
            let value: f64 = b.iter().zip(&phi).map(|(x, y)| x * y).sum();
            ConditionResidual {
                tree: tree.notation(),
                order: tree.order(),
                residual: value - 1.0 / tree.density() as f64,
            }
        })
        .collect())
}

/// The largest `p ≤ 8` such that every condition of order `≤ p` holds to within `tolerance`
/// (absolute); 0 when even `Σ b_i = 1` fails.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `tolerance` unless it is finite and positive; the errors
/// of [`order_condition_residuals`].
///
/// # Examples
/// ```
/// use lieode::tableau::order_conditions::{achieved_order, Weights};
/// use lieode::tableau::registry::{DOPRI5, GAUSS6};
/// assert_eq!(achieved_order(&DOPRI5, Weights::Main, 1e-14)?, 5);
/// assert_eq!(achieved_order(&DOPRI5, Weights::Embedded, 1e-14)?, 4);
/// assert_eq!(achieved_order(&GAUSS6, Weights::Main, 1e-14)?, 6);
/// # Ok::<(), lieode::Error>(())
/// ```
pub fn achieved_order(t: &ButcherTableau, w: Weights, tolerance: f64) -> Result<usize> {
    check_tolerance(tolerance)?;
    let residuals = order_condition_residuals(t, w, MAX_ORDER)?;
    Ok(highest_passed(&residuals, MAX_ORDER, tolerance))
}

/// The largest `p ≤ limit` with every residual of order `≤ p` within `tolerance`.
pub(crate) fn highest_passed(
    residuals: &[ConditionResidual],
    limit: usize,
    tolerance: f64,
) -> usize {
    let first_failure = residuals
        .iter()
        .filter(|r| r.residual.is_nan() || r.residual.abs() > tolerance)
        .map(|r| r.order)
        .min();
    match first_failure {
        Some(p) => p - 1,
        None => limit,
    }
}

/// The residuals of the continuous order conditions of the dense output at `θ`:
/// `Σ_i b_i(θ) Φ_i(t) − θ^{|t|}/γ(t)` for every tree with `|t| ≤ max_order` (HNW I, §II.6): an interpolant of order `q` satisfies them for `|t| ≤ q` and every `θ`.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `theta` if it is not finite or `max_order` unless
/// `1 ≤ max_order ≤ 8`; [`Error::InvalidTableau`] when the tableau has no dense output or the
/// shapes are wrong.
///
/// # Examples
/// ```
/// use lieode::tableau::order_conditions::dense_output_residuals;
/// use lieode::tableau::registry::DOPRI5;
/// for theta in [0.25, 0.5, 0.9] {
///     let r = dense_output_residuals(&DOPRI5, theta, 5)?;
///     assert!(r.iter().filter(|r| r.order <= 4).all(|r| r.residual.abs() < 1e-14));
///     assert!(r.iter().filter(|r| r.order == 5).any(|r| r.residual.abs() > 1e-6));
/// }
/// # Ok::<(), lieode::Error>(())
/// ```
pub fn dense_output_residuals(
    t: &ButcherTableau,
    theta: f64,
    max_order: usize,
) -> Result<Vec<ConditionResidual>> {
    if !theta.is_finite() {
        return Err(Error::NonFinite { name: "theta" });
    }
    check_max_order(max_order, MAX_ORDER)?;
    t.check_shape()?;
    let Some(dense) = &t.dense else {
        return Err(t.invalid("it has no dense output".to_string()));
    };
    if dense.coefficients.len() != t.stages {
        return Err(t.invalid(format!(
            "`dense` has {} polynomials, expected one per stage (s = {})",
            dense.coefficients.len(),
            t.stages
        )));
    }
    let b = dense.weights_at(theta);
    Ok(generate(max_order)
        .into_iter()
        .flatten()
        .map(|tree| {
            let phi = tree.stage_weights_unchecked(&t.a, t.stages);
            let value: f64 = b.iter().zip(&phi).map(|(x, y)| x * y).sum();
            let exact = theta.powi(tree.order() as i32) / tree.density() as f64;
            ConditionResidual {
                tree: tree.notation(),
                order: tree.order(),
                residual: value - exact,
            }
        })
        .collect())
}
