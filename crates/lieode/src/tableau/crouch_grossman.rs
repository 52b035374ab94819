//! Order conditions of methods built from products of exponentials (Crouch–Grossman and
//! commutator-free); re-exported by [`super::order_conditions`].
//!
//! The conditions and their derivation are documented in [`super::order_conditions`].

use crate::error::Result;

use super::butcher::ButcherTableau;
use super::order_conditions::{
    ConditionResidual, Weights, check_max_order, check_tolerance, highest_passed,
};

/// The largest order for which Crouch–Grossman and commutator-free conditions are checked
/// (the order of the methods in the literature the conditions were verified against).
pub const CG_MAX_ORDER: usize = 4;

/// Ordered trees and forests up to a size, trees identified by index.
struct OrderedForests {
    /// Tree index → its root's subtrees, left to right.
    children: Vec<Vec<usize>>,
    /// Forests by number of nodes: `by_size[n]` lists the forests with `n` nodes.
    by_size: Vec<Vec<Vec<usize>>>,
}

impl OrderedForests {
    /// Every ordered forest with at most `max` nodes (Catalan many: 1, 2, 5, 14, … of each
    /// size), every tree's subtrees indexed before the tree.
    fn new(max: usize) -> Self {
        let mut children: Vec<Vec<usize>> = Vec::new();
        let mut trees_by_size: Vec<Vec<usize>> = vec![Vec::new()];
        let mut by_size: Vec<Vec<Vec<usize>>> = vec![vec![Vec::new()]];
        for n in 1..=max {
            let mut trees = Vec::new();
            for forest in &by_size[n - 1] {
                trees.push(children.len());
                children.push(forest.clone());
            }
            trees_by_size.push(trees);
            let mut forests = Vec::new();
            for k in 1..=n {
                for &t in &trees_by_size[k] {
                    for rest in &by_size[n - k] {
                        let mut forest = Vec::with_capacity(rest.len() + 1);
                        forest.push(t);
                        forest.extend_from_slice(rest);
                        forests.push(forest);
                    }
                }
            }
            by_size.push(forests);
        }
        Self { children, by_size }
    }

    fn write_forest(&self, forest: &[usize], out: &mut String) {
        for &t in forest {
            if self.children[t].is_empty() {
                out.push('τ');
            } else {
                out.push('[');
                self.write_forest(&self.children[t], out);
                out.push(']');
            }
        }
    }

    /// Bracket notation of a forest: its trees left to right, e.g. `[τ]τ`.
    fn notation(&self, forest: &[usize]) -> String {
        let mut out = String::new();
        self.write_forest(forest, &mut out);
        out
    }

    /// Appends the forest's nodes to `predecessors` (bit masks of the nodes that must carry
    /// smaller labels: the parent and the right neighbour among siblings).
    fn flatten(&self, forest: &[usize], parent: Option<usize>, predecessors: &mut Vec<u32>) {
        let mut level = Vec::with_capacity(forest.len());
        for &t in forest {
            let node = predecessors.len();
            predecessors.push(parent.map_or(0, |p| 1 << p));
            level.push((node, t));
            self.flatten(&self.children[t], Some(node), predecessors);
        }
        for pair in level.windows(2) {
            // Left sibling's label exceeds the right sibling's.
            predecessors[pair[0].0] |= 1 << pair[1].0;
        }
    }

    /// The exact solution's coefficient `λ(ω)/n!`, with `λ` counted by dynamic programming over
    /// the sets of already-labelled nodes.
    fn exact(&self, forest: &[usize]) -> f64 {
        let mut predecessors = Vec::new();
        self.flatten(forest, None, &mut predecessors);
        let n = predecessors.len();
        let full = (1usize << n) - 1;
        let mut count = vec![0u64; full + 1];
        count[0] = 1;
        for mask in 0..full {
            if count[mask] == 0 {
                continue;
            }
            for (v, &pred) in predecessors.iter().enumerate() {
                let bit = 1usize << v;
                if mask & bit == 0 && (pred as usize) & !mask == 0 {
                    count[mask | bit] += count[mask];
                }
            }
        }
        let factorial: f64 = (1..=n).map(|k| k as f64).product();
        count[full] as f64 / factorial
    }
}

/// `Ψ(ω)` for the product with factor weight vectors `product` (factor applied first first),
/// given the stage weights `phi[tree][j] = Φ_j(tree)`.
fn psi(forest: &[usize], product: &[Vec<f64>], phi: &[Vec<f64>]) -> f64 {
    if forest.is_empty() {
        return 1.0;
    }
    // g[m][p] = Σ_j w^{(m)}_j Φ_j(τ_p).
    let g: Vec<Vec<f64>> = product
        .iter()
        .map(|w| {
            forest
                .iter()
                .map(|&t| w.iter().zip(&phi[t]).map(|(x, y)| x * y).sum())
                .collect()
        })
        .collect();
    let mut assignment = vec![0usize; forest.len()];
    let mut total = 0.0;
    sum_assignments(&g, 0, 0, &mut assignment, &mut total);
    total
}

fn sum_assignments(
    g: &[Vec<f64>],
    position: usize,
    first_factor: usize,
    assignment: &mut [usize],
    total: &mut f64,
) {
    if position == assignment.len() {
        let mut term = 1.0;
        let mut run = 0usize;
        for p in 0..assignment.len() {
            term *= g[assignment[p]][p];
            run = if p > 0 && assignment[p] == assignment[p - 1] {
                run + 1
            } else {
                1
            };
            term /= run as f64;
        }
        *total += term;
        return;
    }
    for m in first_factor..g.len() {
        assignment[position] = m;
        sum_assignments(g, position + 1, m, assignment, total);
    }
}

/// The residuals `Ψ(ω) − λ(ω)/n!` of every ordered forest with `1 ≤ n ≤ max_order` nodes.
fn residuals(
    stage_products: &[Vec<Vec<f64>>],
    output: &[Vec<f64>],
    max_order: usize,
) -> Vec<ConditionResidual> {
    let forests = OrderedForests::new(max_order);
    let phi: Vec<Vec<f64>> = {
        let mut phi: Vec<Vec<f64>> = Vec::with_capacity(forests.children.len());
        for subtrees in &forests.children {
            let row = stage_products
                .iter()
                .map(|product| psi(subtrees, product, &phi))
                .collect();
            phi.push(row);
        }
        phi
    };
    let mut out = Vec::new();
    for (n, list) in forests.by_size.iter().enumerate().skip(1) {
        for forest in list {
            out.push(ConditionResidual {
                tree: forests.notation(forest),
                order: n,
                residual: psi(forest, output, &phi) - forests.exact(forest),
            });
        }
    }
    out
}

/// One factor `β e_j` per stage: the Crouch–Grossman product `exp(h β_s F_s) ⋯ exp(h β_1 F_1)`.
fn single_exponentials(weights: &[f64], s: usize) -> Vec<Vec<f64>> {
    weights
        .iter()
        .enumerate()
        .map(|(j, &w)| {
            let mut factor = vec![0.0; s];
            factor[j] = w;
            factor
        })
        .collect()
}

/// The residuals of the Crouch–Grossman order conditions, `Ψ(ω) − λ(ω)/|ω|!` for every ordered
/// forest `ω` with at most `max_order ≤ 4` nodes (1, 2, 5 and 14 of orders 1–4), for the
/// method `Y_i = exp(h a_{i,i−1} F_{i−1}) ⋯ exp(h a_{i1} F_1) · y₀`,
/// `y₁ = exp(h b_s F_s) ⋯ exp(h b_1 F_1) · y₀` (or `b̂`). See the module documentation of
/// [`super::order_conditions`] for the derivation: the conditions include the classical ones and, from order 3, the extra Crouch–Grossman
/// conditions of Owren & Marthinsen, *BIT* 39 (1999) 116–142, e.g. (forest `[τ]τ`)
/// `Σ_{i<j} b_i c_i b_j + ½ Σ_i b_i² c_i − 1/6`.
///
/// # Errors
/// [`crate::Error::InvalidParameter`] naming `max_order` unless `1 ≤ max_order ≤ 4`;
/// [`crate::Error::InvalidTableau`] when the shapes are wrong, `A` is not strictly lower triangular,
/// or `Embedded` is asked of a tableau without `b̂`.
///
/// # Examples
/// ```
/// use lieode::tableau::order_conditions::{crouch_grossman_residuals, Weights};
/// use lieode::tableau::registry::{CG3, KUTTA3};
/// let cg3 = crouch_grossman_residuals(&CG3, Weights::Main, 3)?;
/// assert_eq!(cg3.len(), 1 + 2 + 5);
/// assert!(cg3.iter().all(|r| r.residual.abs() < 1e-15));
/// let kutta = crouch_grossman_residuals(&KUTTA3, Weights::Main, 3)?;
/// let extra = kutta.iter().find(|r| r.tree == "[τ]τ").unwrap();
/// assert!((extra.residual - 1.0 / 72.0).abs() < 1e-15);
/// # Ok::<(), lieode::Error>(())
/// ```
pub fn crouch_grossman_residuals(
    t: &ButcherTableau,
    w: Weights,
    max_order: usize,
) -> Result<Vec<ConditionResidual>> {
    check_max_order(max_order, CG_MAX_ORDER)?;
    t.check_shape()?;
    let s = t.stages;
    if let Some((i, j)) = (0..s)
        .flat_map(|i| (i..s).map(move |j| (i, j)))
        .find(|&(i, j)| t.a_ij(i, j) != 0.0)
    {
        return Err(t.invalid(format!(
            "Crouch–Grossman methods are explicit, but a_{{{},{}}} = {:e} is on or above the \
             diagonal",
            i + 1,
            j + 1,
            t.a_ij(i, j)
        )));
    }
    let weights = t.weights(w)?;
    let stage_products: Vec<Vec<Vec<f64>>> = (0..s)
        .map(|i| single_exponentials(&t.a[i * s..i * s + i], s))
        .collect();
    let output = single_exponentials(weights, s);
    Ok(residuals(&stage_products, &output, max_order))
}

/// The largest `p ≤ 4` such that every Crouch–Grossman condition of order `≤ p` holds to
/// within `tolerance` (absolute); 0 when `Σ b_i = 1` fails.
///
/// # Errors
/// [`crate::Error::InvalidParameter`] naming `tolerance` unless it is finite and positive; the errors
/// of [`crouch_grossman_residuals`].
///
/// # Examples
/// ```
/// use lieode::tableau::order_conditions::{achieved_crouch_grossman_order, Weights};
/// use lieode::tableau::registry::{CG4A, RK4};
/// assert_eq!(achieved_crouch_grossman_order(&CG4A, Weights::Main, 1e-14)?, 4);
/// assert_eq!(achieved_crouch_grossman_order(&RK4, Weights::Main, 1e-14)?, 2);
/// # Ok::<(), lieode::Error>(())
/// ```
pub fn achieved_crouch_grossman_order(
    t: &ButcherTableau,
    w: Weights,
    tolerance: f64,
) -> Result<usize> {
    check_tolerance(tolerance)?;
    let r = crouch_grossman_residuals(t, w, CG_MAX_ORDER)?;
    Ok(highest_passed(&r, CG_MAX_ORDER, tolerance))
}

/// The residuals of the order conditions of a commutator-free method (its
/// [`CommutatorFreeWeights`](super::CommutatorFreeWeights)): `Ψ(ω) − λ(ω)/|ω|!` for every
/// ordered forest `ω` with at most `max_order ≤ 4` nodes, the stages and output being the
/// products of exponentials the weights describe (Celledoni, Marthinsen, Owren, *Future Gener.
/// Comput. Syst.* 19 (2003) 341–352; conditions derived as in [`crouch_grossman_residuals`]).
///
/// # Errors
/// [`crate::Error::InvalidParameter`] naming `max_order` unless `1 ≤ max_order ≤ 4`;
/// [`crate::Error::InvalidTableau`] when the tableau has no commutator-free weights or their shapes
/// are wrong (one product per stage, weight vectors of length `s`).
///
/// # Examples
/// ```
/// use lieode::tableau::order_conditions::commutator_free_residuals;
/// use lieode::tableau::registry::CF4;
/// let r = commutator_free_residuals(&CF4, 4)?;
/// assert!(r.iter().all(|r| r.residual.abs() < 1e-15));
/// # Ok::<(), lieode::Error>(())
/// ```
pub fn commutator_free_residuals(
    t: &ButcherTableau,
    max_order: usize,
) -> Result<Vec<ConditionResidual>> {
    check_max_order(max_order, CG_MAX_ORDER)?;
    t.check_shape()?;
    let s = t.stages;
    let Some(cf) = &t.commutator_free else {
        return Err(t.invalid("it has no commutator-free weights".to_string()));
    };
    if cf.stages.len() != s {
        return Err(t.invalid(format!(
            "`commutator_free.stages` has {} products, expected one per stage (s = {s})",
            cf.stages.len()
        )));
    }
    let all_products = cf.stages.iter().chain(std::iter::once(&cf.output));
    for product in all_products {
        if let Some(f) = product.factors.iter().find(|f| f.len() != s) {
            return Err(t.invalid(format!(
                "a commutator-free factor has {} weights, expected s = {s}",
                f.len()
            )));
        }
    }
    let to_vectors = |p: &super::ExponentialProduct| -> Vec<Vec<f64>> {
        p.factors.iter().map(|f| f.to_vec()).collect()
    };
    let stage_products: Vec<Vec<Vec<f64>>> = cf.stages.iter().map(to_vectors).collect();
    Ok(residuals(
        &stage_products,
        &to_vectors(&cf.output),
        max_order,
    ))
}

/// The largest `p ≤ 4` such that every commutator-free condition of order `≤ p` holds to
/// within `tolerance`.
///
/// # Errors
/// [`crate::Error::InvalidParameter`] naming `tolerance` unless it is finite and positive; the errors
/// of [`commutator_free_residuals`].
pub fn achieved_commutator_free_order(t: &ButcherTableau, tolerance: f64) -> Result<usize> {
    check_tolerance(tolerance)?;
    let r = commutator_free_residuals(t, CG_MAX_ORDER)?;
    Ok(highest_passed(&r, CG_MAX_ORDER, tolerance))
}
