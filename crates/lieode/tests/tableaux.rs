//! Tableaux as data: every registered tableau against the order conditions computed from its
//! stored coefficients, the generated trees, validation of bad input, and the dense output.

use std::borrow::Cow;

use lieode::Error;
use lieode::tableau::order_conditions::{
    CG_MAX_ORDER, ConditionResidual, MAX_ORDER, RootedTree, Weights,
    achieved_commutator_free_order, achieved_crouch_grossman_order, achieved_order,
    commutator_free_residuals, crouch_grossman_residuals, dense_output_residuals,
    elementary_weight, order_condition_residuals, trees, trees_up_to,
};
use lieode::tableau::registry::{
    self, CF4, CG3, CG4A, CG23, DOP853, DOP853_BHH, DOPRI5, GAUSS4, KUTTA3, RK4, TSIT5,
};
use lieode::tableau::{ButcherTableau, DenseOutput, ExponentialProduct, Family};
use nalgebra::{Matrix3, Vector3};

/// Residual bound for the order conditions of the stored data.
///
/// The data are exact fractions (rounded once to `f64`), formulas in correctly rounded square
/// roots, or decimals printed to 16–30 digits, so each residual is the rounding of the data
/// plus the rounding of its evaluation in `f64`. Observed maxima (`report_residuals`):
/// ≤ 4.4e-16 for all methods with exact or 16-digit data, 8.9e-16 for Tsit5 (its 16-digit data
/// satisfy `Σ b_i = 1` only to 1.7e-16), and 2.2e-15 (main) / 5.0e-15 (embedded) for DOP853,
/// whose entries reach |a_98| ≈ 43 and whose eighth-order elementary weights are long sums with
/// heavy cancellation. DOP853's 30-digit coefficients satisfy the same conditions to 3e-29 in
/// 50-digit arithmetic (checked independently when the data were entered), so its residuals
/// here are evaluation error alone; one bound, 1e-14, covers every tableau with a margin of 2
/// for DOP853 and 10 or more for the others.
const TOLERANCE: f64 = 1e-14;

fn max_abs(residuals: &[ConditionResidual], order: usize) -> f64 {
    residuals
        .iter()
        .filter(|r| r.order == order)
        .map(|r| r.residual.abs())
        .fold(0.0, f64::max)
}

fn max_abs_up_to(residuals: &[ConditionResidual], order: usize) -> f64 {
    (1..=order)
        .map(|p| max_abs(residuals, p))
        .fold(0.0, f64::max)
}

// ---------------------------------------------------------------------------------------------
// Trees
// ---------------------------------------------------------------------------------------------

#[test]
fn tree_counts_per_order() {
    let counts: Vec<usize> = (1..=MAX_ORDER).map(|n| trees(n).unwrap().len()).collect();
    assert_eq!(counts, [1, 1, 2, 4, 9, 20, 48, 115]);
    assert_eq!(trees_up_to(8).unwrap().len(), 200);
}

#[test]
fn trees_are_distinct_and_of_their_order() {
    for n in 1..=MAX_ORDER {
        let list = trees(n).unwrap();
        for (k, t) in list.iter().enumerate() {
            assert_eq!(t.order(), n);
            assert!(list[k + 1..].iter().all(|u| u != t), "duplicate tree {t}");
            assert!(
                list[k + 1..].iter().all(|u| u.notation() != t.notation()),
                "duplicate notation {t}"
            );
        }
    }
}

#[test]
fn known_densities_symmetries_and_notation() {
    let expect = |notation: &str, gamma: u64, sigma: u64| {
        let n = notation.chars().filter(|&c| c == 'τ').count() + notation.matches('[').count();
        let tree = trees(n)
            .unwrap()
            .into_iter()
            .find(|t| t.notation() == notation)
            .unwrap_or_else(|| panic!("no tree {notation}"));
        assert_eq!(tree.density(), gamma, "γ({notation})");
        assert_eq!(tree.symmetry(), sigma, "σ({notation})");
    };
    expect("τ", 1, 1);
    expect("[τ]", 2, 1);
    expect("[ττ]", 3, 2);
    expect("[[τ]]", 6, 1);
    // Bushy and tall trees of order 4.
    expect("[τττ]", 4, 6);
    expect("[[[τ]]]", 24, 1);
    expect("[[τ]τ]", 8, 1);
    expect("[[ττ]]", 12, 2);
    expect("[[τ][τ]]", 20, 2);
    expect("[ττττ]", 5, 24);
    expect("[[[[[[[τ]]]]]]]", 40320, 1);
}

/// Two classical identities tie σ and γ together: `Σ_{|t|=n} n!/(σ(t)γ(t)) = (n−1)!` (the number
/// of increasing labellings, i.e. of recursive trees) and `Σ_{|t|=n} n!/σ(t) = n^{n−1}` (labelled
/// rooted trees, Cayley).
#[test]
fn symmetry_and_density_satisfy_the_counting_identities() {
    for n in 1..=MAX_ORDER as u64 {
        let factorial: u64 = (1..=n).product();
        let list = trees(n as usize).unwrap();
        let increasing: u64 = list
            .iter()
            .map(|t| {
                assert_eq!(factorial % (t.symmetry() * t.density()), 0);
                factorial / (t.symmetry() * t.density())
            })
            .sum();
        assert_eq!(increasing, factorial / n, "order {n}");
        let labelled: u64 = list.iter().map(|t| factorial / t.symmetry()).sum();
        assert_eq!(labelled, n.pow(n as u32 - 1), "order {n}");
    }
}

#[test]
fn elementary_weight_of_rk4_matches_hand_computation() {
    // [[τ]τ]: Σ b_i c_i a_ij c_j = 1/8 for RK4.
    let t = trees(4)
        .unwrap()
        .into_iter()
        .find(|t| t.notation() == "[[τ]τ]")
        .unwrap();
    let phi = elementary_weight(&RK4, Weights::Main, &t).unwrap();
    assert!((phi - 1.0 / 8.0).abs() < 1e-16);
}

// ---------------------------------------------------------------------------------------------
// Every registered tableau
// ---------------------------------------------------------------------------------------------

#[test]
fn every_registered_tableau_validates() {
    for t in registry::all() {
        t.validate()
            .unwrap_or_else(|e| panic!("{} does not validate: {e}", t.name));
        assert!(!t.reference.is_empty(), "{} has no reference", t.name);
        assert_eq!(t.is_explicit(), t.validate_explicit().is_ok(), "{}", t.name);
    }
}

fn check_claimed(t: &ButcherTableau, w: Weights) -> (usize, f64, f64) {
    let p = t.claimed_order(w).unwrap();
    let up_to = (p + 1).min(MAX_ORDER);
    let r = order_condition_residuals(t, w, up_to).unwrap();
    let max = max_abs_up_to(&r, p);
    let limit = TOLERANCE;
    assert!(
        max <= limit,
        "{} ({w:?}): conditions up to order {p} leave {max:e} > {limit:e}",
        t.name
    );
    let next = if p < MAX_ORDER {
        let next = max_abs(&r, p + 1);
        assert!(
            next > 1e-8,
            "{} ({w:?}): the conditions of order {} all hold ({next:e}): the stated order {p} \
             is not exact",
            t.name,
            p + 1
        );
        next
    } else {
        f64::NAN
    };
    assert_eq!(
        achieved_order(t, w, TOLERANCE).unwrap(),
        p,
        "{} ({w:?})",
        t.name
    );
    (p, max, next)
}

#[test]
fn every_registered_tableau_has_exactly_its_stated_order() {
    for t in registry::all() {
        check_claimed(&t, Weights::Main);
        if t.b_hat.is_some() {
            check_claimed(&t, Weights::Embedded);
        }
    }
}

/// Prints the verified orders and residuals (run with `--nocapture`).
#[test]
fn report_residuals() {
    for t in registry::all() {
        let (p, max, next) = check_claimed(&t, Weights::Main);
        let embedded = if t.b_hat.is_some() {
            let (q, m, n) = check_claimed(&t, Weights::Embedded);
            format!(
                "embedded order {q}: max residual {m:.1e} (order {}: {n:.1e})",
                q + 1
            )
        } else {
            String::new()
        };
        println!(
            "{:<26} order {p}: max residual {max:.1e} (order {}: {next:.1e})  {embedded}",
            t.name,
            p + 1
        );
    }
}

/// Order 9 is beyond the generated trees, so DOP853's exactness is shown on a few order-9
/// trees built by hand.
#[test]
fn dop853_fails_order_nine() {
    let leaf = RootedTree::leaf();
    let graft = |children: Vec<RootedTree>| RootedTree::from_children(children);
    let mut tall = leaf.clone();
    for _ in 0..8 {
        tall = graft(vec![tall]);
    }
    let bushy = graft(vec![leaf.clone(); 8]);
    let mixed = graft(vec![
        graft(vec![leaf.clone(); 3]),
        graft(vec![leaf.clone()]),
        leaf.clone(),
        leaf,
    ]);
    let mut worst: f64 = 0.0;
    for t in [tall, bushy, mixed] {
        assert_eq!(t.order(), 9);
        let phi = elementary_weight(&DOP853, Weights::Main, &t).unwrap();
        worst = worst.max((phi - 1.0 / t.density() as f64).abs());
    }
    assert!(worst > 1e-8, "{worst:e}");
}

#[test]
fn dop853_third_order_weights() {
    let mut t = DOP853.clone();
    t.b_hat = Some(Cow::Borrowed(&DOP853_BHH));
    t.embedded_order = Some(3);
    t.validate().unwrap();
    assert_eq!(achieved_order(&t, Weights::Embedded, 1e-14).unwrap(), 3);
    // And b̂ = b − er is the fifth-order estimator.
    let er: Vec<f64> = DOP853
        .b
        .iter()
        .zip(DOP853.b_hat.as_ref().unwrap().iter())
        .map(|(b, bh)| b - bh)
        .collect();
    for (x, y) in er.iter().zip(registry::DOP853_ER.iter()) {
        assert!((x - y).abs() < 1e-15);
    }
}

#[test]
fn families_and_fsal_flags() {
    // The Lie families are named by prefix: Crouch–Grossman CG…, commutator-free CF….
    for (key, t) in registry::names().into_iter().zip(registry::all()) {
        let family = if key.starts_with("CG") {
            Family::CrouchGrossman
        } else if key.starts_with("CF") {
            Family::CommutatorFree
        } else {
            Family::Classical
        };
        assert_eq!(t.family, family, "{key}");
    }
    for name in ["BS32", "DOPRI5", "TSIT5"] {
        assert!(registry::by_name(name).unwrap().fsal, "{name}");
    }
}

// ---------------------------------------------------------------------------------------------
// Crouch–Grossman and commutator-free conditions
// ---------------------------------------------------------------------------------------------

#[test]
fn crouch_grossman_methods_pass_their_conditions() {
    let methods: Vec<_> = registry::all()
        .into_iter()
        .filter(|t| t.family == Family::CrouchGrossman)
        .collect();
    for t in methods {
        t.validate_crouch_grossman()
            .unwrap_or_else(|e| panic!("{}: {e}", t.name));
        for w in [Weights::Main, Weights::Embedded] {
            let Ok(p) = t.claimed_order(w) else { continue };
            let r = crouch_grossman_residuals(&t, w, CG_MAX_ORDER).unwrap();
            let max = max_abs_up_to(&r, p);
            println!(
                "{} {w:?}: Crouch–Grossman order {p}, max residual {max:.1e}",
                t.name
            );
            assert!(max <= TOLERANCE, "{} {w:?}: {max:e}", t.name);
            assert_eq!(
                achieved_crouch_grossman_order(&t, w, TOLERANCE).unwrap(),
                p,
                "{} {w:?}",
                t.name
            );
        }
    }
    // CG4a fails order 5 (already classically).
    assert_eq!(achieved_order(&CG4A, Weights::Main, 1e-12).unwrap(), 4);
}

#[test]
fn crouch_grossman_condition_counts_and_the_third_order_condition() {
    let r = crouch_grossman_residuals(&CG3, Weights::Main, 4).unwrap();
    let counts: Vec<usize> = (1..=4)
        .map(|p| r.iter().filter(|x| x.order == p).count())
        .collect();
    assert_eq!(counts, [1, 2, 5, 14]);
    // The extra third-order condition Σ b_i² c_i + 2 Σ_{i<j} b_i c_i b_j = 1/3, by hand.
    for t in [CG3, KUTTA3, RK4] {
        let s = t.stages;
        let (b, c) = (&t.b, &t.c);
        let mut lhs = 0.0;
        for i in 0..s {
            lhs += b[i] * b[i] * c[i];
            for j in i + 1..s {
                lhs += 2.0 * b[i] * c[i] * b[j];
            }
        }
        let forest = crouch_grossman_residuals(&t, Weights::Main, 3)
            .unwrap()
            .into_iter()
            .find(|x| x.tree == "[τ]τ")
            .unwrap();
        assert!(
            (forest.residual - (lhs - 1.0 / 3.0) / 2.0).abs() < 1e-15,
            "{}",
            t.name
        );
    }
}

#[test]
fn classical_tableaux_are_not_crouch_grossman() {
    for t in registry::all() {
        if t.family != Family::Classical || !t.is_explicit() {
            continue;
        }
        let result = t.validate_crouch_grossman();
        if t.order <= 2 {
            // Up to order 2 the conditions coincide.
            result.unwrap_or_else(|e| panic!("{}: {e}", t.name));
        } else {
            let e = result.expect_err(&t.name);
            assert!(matches!(e, Error::InvalidTableau { .. }), "{}", t.name);
        }
    }
    assert_eq!(
        achieved_crouch_grossman_order(&KUTTA3, Weights::Main, 1e-12).unwrap(),
        2
    );
    assert_eq!(
        achieved_crouch_grossman_order(&RK4, Weights::Main, 1e-12).unwrap(),
        2
    );
    let message = KUTTA3.validate_crouch_grossman().unwrap_err().to_string();
    assert!(message.contains("order 2, not the claimed 3"), "{message}");
    assert!(
        message.contains("[τ]τ") || message.contains("τ[τ]"),
        "{message}"
    );
}

/// Reverses the nonzero part of every row of `A` (`a_{i1} … a_{i,i−1}` read backwards), as in a
/// widely used bad copy of CG3 and CG4a.
fn reverse_rows(t: &ButcherTableau) -> ButcherTableau {
    let s = t.stages;
    let mut a = t.a.to_vec();
    for i in 0..s {
        a[i * s..i * s + i].reverse();
    }
    let mut out = t.clone();
    out.a = a.into();
    out.name = format!("{} (rows reversed)", t.name).into();
    out
}

#[test]
fn corrupted_cg3_is_caught() {
    // a31 and a32 swapped.
    let mut swapped = CG3.clone();
    let mut a = CG3.a.to_vec();
    a.swap(6, 7);
    swapped.a = a.into();
    // The row sums survive, so only the order conditions can tell: `validate` checks the
    // declared order, naming the first violated condition.
    let e = swapped.validate().unwrap_err().to_string();
    assert!(e.contains("the declared `order` = 3 is not reached"), "{e}");
    let e = swapped.validate_crouch_grossman().unwrap_err();
    assert!(e.to_string().contains("is not reached"), "{e}");
    assert!(achieved_crouch_grossman_order(&swapped, Weights::Main, 1e-12).unwrap() <= 2);
    assert!(achieved_order(&swapped, Weights::Main, 1e-12).unwrap() <= 2);

    let reversed = reverse_rows(&CG3);
    assert_eq!(reversed.a, swapped.a);
    assert!(reversed.validate().is_err());
    assert!(reversed.validate_crouch_grossman().is_err());
    assert!(achieved_crouch_grossman_order(&reversed, Weights::Main, 1e-12).unwrap() <= 2);
}

#[test]
fn corrupted_cg4a_is_caught() {
    let reversed = reverse_rows(&CG4A);
    let e = reversed.validate().unwrap_err().to_string();
    assert!(e.contains("is not reached"), "{e}");
    assert!(reversed.validate_crouch_grossman().is_err());
    assert!(achieved_crouch_grossman_order(&reversed, Weights::Main, 1e-12).unwrap() <= 2);
    // The misprinted a54 breaks the row sum in the 14th digit.
    let mut misprint = CG4A.clone();
    let mut a = CG4A.a.to_vec();
    a[4 * 5 + 3] = -1.1092979392113565;
    misprint.a = a.into();
    let e = misprint.validate().unwrap_err().to_string();
    assert!(e.contains("row 5 of `a` sums to"), "{e}");
}

#[test]
fn cf4_passes_the_commutator_free_conditions() {
    let r = commutator_free_residuals(&CF4, 4).unwrap();
    assert_eq!(r.len(), 1 + 2 + 5 + 14);
    let max = max_abs_up_to(&r, 4);
    println!("CF4: commutator-free order 4, max residual {max:.1e}");
    assert!(max < TOLERANCE);
    assert_eq!(achieved_commutator_free_order(&CF4, TOLERANCE).unwrap(), 4);
    // Its underlying tableau is RK4's.
    assert_eq!(CF4.a, RK4.a);
    assert_eq!(CF4.b, RK4.b);
    // The two output exponentials in the wrong order: the sums still match `b`, the order drops.
    let mut swapped = CF4.clone();
    if let Some(cf) = swapped.commutator_free.as_mut() {
        cf.output.factors.to_mut().reverse();
    }
    let e = swapped.validate().unwrap_err().to_string();
    assert!(
        e.contains("as a commutator-free method the declared `order` = 4 is not reached"),
        "{e}"
    );
    assert!(achieved_commutator_free_order(&swapped, TOLERANCE).unwrap() < 4);
    // RK4 as a single-exponential-per-stage method is not CF4 (a Crouch–Grossman RK4 is order 2).
    assert_eq!(
        achieved_crouch_grossman_order(&RK4, Weights::Main, 1e-12).unwrap(),
        2
    );
}

// ---------------------------------------------------------------------------------------------
// A numerical check of the Crouch–Grossman conditions: local error on a fully coupled,
// state-dependent problem y' = A(y) y on ℝ³ (GL(3) acting linearly), exponentials by nalgebra.
// ---------------------------------------------------------------------------------------------

fn generator(y: &Vector3<f64>) -> Matrix3<f64> {
    let m0 = Matrix3::new(0.1, -0.7, 0.3, 0.5, -0.2, 0.6, -0.4, 0.8, 0.05);
    let m1 = Matrix3::new(0.3, 0.2, -0.5, -0.1, 0.4, 0.2, 0.6, -0.3, -0.2);
    let m2 = Matrix3::new(-0.2, 0.5, 0.1, 0.3, 0.1, -0.4, 0.2, 0.2, 0.3);
    m0 + m1 * y.x + m2 * (y.y * y.y) + Matrix3::identity() * (0.3 * y.z.sin())
}

fn crouch_grossman_step(t: &ButcherTableau, y0: &Vector3<f64>, h: f64) -> Vector3<f64> {
    let s = t.stages;
    let mut f: Vec<Matrix3<f64>> = Vec::with_capacity(s);
    for i in 0..s {
        let mut y = *y0;
        for (j, fj) in f.iter().enumerate() {
            y = (fj * (h * t.a(i, j).unwrap())).exp() * y;
        }
        f.push(generator(&y));
    }
    let mut y = *y0;
    for (fj, bj) in f.iter().zip(t.b.iter()) {
        y = (fj * (h * bj)).exp() * y;
    }
    y
}

fn reference(y0: &Vector3<f64>, h: f64) -> Vector3<f64> {
    // DOP853 from the registry with 64 substeps: error ~ (h/64)^8, far below the tested errors.
    let t = &DOP853;
    let s = t.stages;
    let n = 64;
    let k = h / n as f64;
    let mut y = *y0;
    for _ in 0..n {
        let mut stages: Vec<Vector3<f64>> = Vec::with_capacity(s);
        for i in 0..s {
            let mut yi = y;
            for (j, kj) in stages.iter().enumerate() {
                yi += kj * (k * t.a(i, j).unwrap());
            }
            stages.push(generator(&yi) * yi);
        }
        for (kj, bj) in stages.iter().zip(t.b.iter()) {
            y += kj * (k * bj);
        }
    }
    y
}

fn local_order(t: &ButcherTableau) -> f64 {
    let y0 = Vector3::new(0.3, -0.5, 0.8);
    let hs = [0.1, 0.05, 0.025];
    let errors: Vec<f64> = hs
        .iter()
        .map(|&h| (crouch_grossman_step(t, &y0, h) - reference(&y0, h)).norm())
        .collect();
    // Local error ~ h^{p+1}: the slope of the last halving, minus one.
    (errors[1] / errors[2]).log2() - 1.0
}

#[test]
fn measured_local_orders_agree_with_the_crouch_grossman_conditions() {
    for (t, expected) in [
        (CG3.clone(), 3.0),
        (CG4A.clone(), 4.0),
        (KUTTA3.clone(), 2.0),
        (reverse_rows(&CG3), 2.0),
        (reverse_rows(&CG4A), 2.0),
    ] {
        let measured = local_order(&t);
        let predicted = achieved_crouch_grossman_order(&t, Weights::Main, 1e-12).unwrap() as f64;
        println!(
            "{}: measured order {measured:.2}, conditions {predicted}",
            t.name
        );
        assert_eq!(predicted, expected, "{}", t.name);
        assert!(
            (measured - expected).abs() < 0.35,
            "{}: measured {measured}",
            t.name
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Corrupted classical tableaux
// ---------------------------------------------------------------------------------------------

#[test]
fn perturbing_one_entry_by_1e_6_is_caught() {
    for t in registry::all() {
        let s = t.stages;
        // Every nonzero entry of A, one at a time: the row sum breaks.
        for k in 0..s * s {
            if t.a[k] == 0.0 {
                continue;
            }
            let mut bad = t.clone();
            let mut a = t.a.to_vec();
            a[k] += 1e-6;
            bad.a = a.into();
            let e = bad.validate().unwrap_err().to_string();
            assert!(
                e.contains(&format!("row {} of `a` sums to", k / s + 1)),
                "{}: {e}",
                t.name
            );
        }
        // Every weight: Σb breaks.
        for i in 0..s {
            let mut bad = t.clone();
            let mut b = t.b.to_vec();
            b[i] += 1e-6;
            bad.b = b.into();
            let e = bad.validate().unwrap_err().to_string();
            assert!(e.contains("`b` sums to"), "{}: {e}", t.name);
        }
    }
}

#[test]
fn consistent_perturbations_are_caught_by_the_order_conditions() {
    // Perturb a nonzero a_ij and c_i together (row sums intact): the consistency checks pass,
    // the order conditions (and so `validate`, which checks the declared orders) do not. Likewise move 1e-6 between two weights at different nodes.
    for t in registry::all() {
        let s = t.stages;
        let p = t.order;
        // (Order-1 methods have no condition involving A or c.)
        for k in (0..s * s).filter(|&k| t.a[k] != 0.0 && p >= 2) {
            let mut bad = t.clone();
            let mut a = t.a.to_vec();
            let mut c = t.c.to_vec();
            a[k] += 1e-6;
            c[k / s] += 1e-6;
            bad.a = a.into();
            bad.c = c.into();
            bad.fsal = false;
            bad.dense = None;
            bad.commutator_free = None;
            bad.family = Family::Classical;
            // The declared orders catch it.
            assert!(bad.validate().is_err(), "{}: a[{k}] perturbed", t.name);
            let r = order_condition_residuals(&bad, Weights::Main, p).unwrap();
            let worst = max_abs_up_to(&r, p);
            // A stage with b_i = 0 (the FSAL stage of a pair) shows only in the embedded
            // weights; every registered method uses each of its stages in `b` or `b̂`.
            let embedded = match (&bad.b_hat, bad.embedded_order) {
                (Some(_), Some(q)) => max_abs_up_to(
                    &order_condition_residuals(&bad, Weights::Embedded, q).unwrap(),
                    q,
                ),
                _ => 0.0,
            };
            let worst = worst.max(embedded);
            assert!(
                worst > 1e-9,
                "{}: a[{k}] perturbed, worst residual {worst:e}",
                t.name
            );
        }
        if let Some((i, j)) = (0..s)
            .flat_map(|i| (0..s).map(move |j| (i, j)))
            .find(|&(i, j)| t.c[i] != t.c[j] && t.b[i] != 0.0)
        {
            let mut bad = t.clone();
            let mut b = t.b.to_vec();
            b[i] += 1e-6;
            b[j] -= 1e-6;
            bad.b = b.into();
            bad.fsal = false;
            bad.dense = None;
            bad.commutator_free = None;
            bad.family = Family::Classical;
            assert!(bad.validate().is_err(), "{}", t.name);
            assert!(
                achieved_order(&bad, Weights::Main, 1e-12).unwrap() < p,
                "{}",
                t.name
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Builders and bad input
// ---------------------------------------------------------------------------------------------

fn reason(e: Error) -> String {
    match e {
        Error::InvalidTableau { name, reason } => format!("{name}: {reason}"),
        other => panic!("expected InvalidTableau, got {other:?}"),
    }
}

fn heun_rows() -> (Vec<Vec<f64>>, Vec<f64>, Vec<f64>) {
    (
        vec![vec![0.0, 0.0], vec![1.0, 0.0]],
        vec![0.5, 0.5],
        vec![0.0, 1.0],
    )
}

#[test]
fn builders_produce_valid_tableaux() {
    let (a, b, c) = heun_rows();
    let t = ButcherTableau::new("Heun (built)", a, b, c, 2)
        .unwrap()
        .with_embedded(vec![1.0, 0.0], 1)
        .unwrap()
        .with_reference("test");
    assert_eq!(t.stages, 2);
    assert_eq!(t.family, Family::Classical);
    assert_eq!(t.embedded_order, Some(1));
    assert_eq!(t.reference, "test");
    assert_eq!(achieved_order(&t, Weights::Main, 1e-15).unwrap(), 2);
    assert_eq!(achieved_order(&t, Weights::Embedded, 1e-15).unwrap(), 1);
    // The same data as the registered HEUN.
    assert_eq!(t.a, registry::HEUN.a);
    // As a Crouch–Grossman method (order 2 holds).
    let cg = t.clone().with_family(Family::CrouchGrossman).unwrap();
    cg.validate_crouch_grossman().unwrap();
    // FSAL Bogacki–Shampine rebuilt.
    let bs = ButcherTableau::new(
        "BS",
        vec![
            vec![0.0; 4],
            vec![0.5, 0.0, 0.0, 0.0],
            vec![0.0, 0.75, 0.0, 0.0],
            vec![2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0, 0.0],
        ],
        vec![2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0, 0.0],
        vec![0.0, 0.5, 0.75, 1.0],
        3,
    )
    .unwrap()
    .with_fsal(true)
    .unwrap();
    assert!(bs.fsal);
    assert_eq!(bs.a, registry::BS32.a);
}

#[test]
fn ragged_a_is_rejected() {
    let e = ButcherTableau::new(
        "ragged",
        vec![vec![0.0, 0.0], vec![1.0]],
        vec![0.5, 0.5],
        vec![0.0, 1.0],
        2,
    )
    .unwrap_err();
    let r = reason(e);
    assert!(
        r.starts_with("ragged: row 2 of `a` has 1 entries, expected s = 2"),
        "{r}"
    );
    // Wrong lengths of b and c.
    let (a, _, c) = heun_rows();
    let r = reason(ButcherTableau::new("short b", a, vec![1.0], c, 1).unwrap_err());
    assert!(r.contains("`b` has 1 entries, expected s = 2"), "{r}");
    let (a, b, _) = heun_rows();
    let r = reason(ButcherTableau::new("long c", a, b, vec![0.0, 1.0, 2.0], 2).unwrap_err());
    assert!(r.contains("`c` has 3 entries, expected s = 2"), "{r}");
    // Zero stages.
    let r = reason(ButcherTableau::new("empty", vec![], vec![], vec![], 1).unwrap_err());
    assert!(r.contains("no stages"), "{r}");
    // A stored `a` of the wrong size.
    let mut t = RK4.clone();
    t.a = vec![0.0; 15].into();
    let r = reason(t.validate().unwrap_err());
    assert!(r.contains("`a` has 15 entries, expected s² = 16"), "{r}");
}

#[test]
fn non_finite_entries_are_rejected() {
    let (mut a, b, c) = heun_rows();
    a[1][0] = f64::NAN;
    let r = reason(ButcherTableau::new("nan", a, b, c, 2).unwrap_err());
    assert!(
        r.contains("`a` has a non-finite entry a_{2,1} = NaN"),
        "{r}"
    );
    let (a, _, c) = heun_rows();
    let r = reason(ButcherTableau::new("inf", a, vec![0.5, f64::INFINITY], c, 2).unwrap_err());
    assert!(r.contains("`b` has a non-finite entry b_2 = inf"), "{r}");
    let (a, b, _) = heun_rows();
    let r = reason(ButcherTableau::new("nan c", a, b, vec![f64::NAN, 1.0], 2).unwrap_err());
    assert!(r.contains("`c` has a non-finite entry c_1"), "{r}");
    let (a, b, c) = heun_rows();
    let t = ButcherTableau::new("h", a, b, c, 2).unwrap();
    let r = reason(t.with_embedded(vec![f64::NAN, 1.0], 1).unwrap_err());
    assert!(r.contains("`b_hat` has a non-finite entry b_hat_1"), "{r}");
}

#[test]
fn row_sum_and_weight_sum_are_checked() {
    let (a, b, _) = heun_rows();
    let r = reason(ButcherTableau::new("row", a, b, vec![0.0, 0.9], 2).unwrap_err());
    assert!(r.contains("row 2 of `a` sums to 1e0 but c_2 = 9e-1"), "{r}");
    assert!(r.contains("residual 9.999999999999998e-2 exceeds"), "{r}");
    let (a, _, c) = heun_rows();
    let r = reason(ButcherTableau::new("weights", a, vec![0.5, 0.6], c, 2).unwrap_err());
    assert!(r.contains("`b` sums to 1.1e0, expected 1"), "{r}");
    let (a, b, c) = heun_rows();
    let t = ButcherTableau::new("h", a, b, c, 2).unwrap();
    let r = reason(t.clone().with_embedded(vec![0.5, 0.6], 1).unwrap_err());
    assert!(r.contains("`b_hat` sums to"), "{r}");
    let r = reason(t.clone().with_embedded(vec![1.0], 1).unwrap_err());
    assert!(r.contains("`b_hat` has 1 entries, expected s = 2"), "{r}");
    let r = reason(t.clone().with_embedded(vec![1.0, 0.0], 0).unwrap_err());
    assert!(r.contains("`embedded_order` is 0"), "{r}");
    let (a, b, c) = heun_rows();
    let r = reason(ButcherTableau::new("zero order", a, b, c, 0).unwrap_err());
    assert!(r.contains("`order` is 0"), "{r}");
}

#[test]
fn crouch_grossman_needs_an_explicit_a() {
    let gauss = ButcherTableau::new(
        "implicit CG",
        vec![
            vec![GAUSS4.a(0, 0).unwrap(), GAUSS4.a(0, 1).unwrap()],
            vec![GAUSS4.a(1, 0).unwrap(), GAUSS4.a(1, 1).unwrap()],
        ],
        GAUSS4.b.to_vec(),
        GAUSS4.c.to_vec(),
        4,
    )
    .unwrap();
    let r = reason(
        gauss
            .clone()
            .with_family(Family::CrouchGrossman)
            .unwrap_err(),
    );
    assert!(
        r.contains(
            "Crouch–Grossman methods are explicit, but a_{1,1} = 2.5e-1 is on or above the diagonal"
        ),
        "{r}"
    );
    let r = reason(gauss.validate_crouch_grossman().unwrap_err());
    assert!(r.contains("Crouch–Grossman methods are explicit"), "{r}");
    let r = reason(crouch_grossman_residuals(&GAUSS4, Weights::Main, 2).unwrap_err());
    assert!(r.contains("a_{1,1}"), "{r}");
    let r = reason(GAUSS4.validate_explicit().unwrap_err());
    assert!(r.contains("strictly lower-triangular"), "{r}");
}

#[test]
fn commutator_free_weights_are_checked() {
    // Inconsistent: stage 4's factors no longer sum to row 4 of A.
    let mut bad = CF4.clone();
    if let Some(cf) = bad.commutator_free.as_mut() {
        let stages = cf.stages.to_mut();
        stages[3] =
            ExponentialProduct::new(vec![vec![0.5, 0.0, 0.0, 0.0], vec![-0.25, 0.0, 1.0, 0.0]]);
    }
    let r = reason(bad.validate().unwrap_err());
    assert!(
        r.contains("commutator-free weights of stage 4 are inconsistent: the factors' weights of F_1 sum to 2.5e-1 but the row of `a` has 0e0"),
        "{r}"
    );
    // Output inconsistent with b.
    let mut bad = CF4.clone();
    if let Some(cf) = bad.commutator_free.as_mut() {
        cf.output = ExponentialProduct::new(vec![vec![0.25, 0.25, 0.25, 0.25]]);
    }
    let r = reason(bad.validate().unwrap_err());
    assert!(
        r.contains("commutator-free weights of the output are inconsistent"),
        "{r}"
    );
    // Wrong shapes.
    let mut bad = CF4.clone();
    if let Some(cf) = bad.commutator_free.as_mut() {
        cf.stages.to_mut().pop();
    }
    let r = reason(bad.validate().unwrap_err());
    assert!(
        r.contains("`commutator_free.stages` has 3 products, expected one per stage (s = 4)"),
        "{r}"
    );
    let mut bad = CF4.clone();
    if let Some(cf) = bad.commutator_free.as_mut() {
        cf.output = ExponentialProduct::new(vec![vec![1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0]]);
    }
    let r = reason(bad.validate().unwrap_err());
    assert!(
        r.contains("factor 1 of the output has 3 weights, expected s = 4"),
        "{r}"
    );
    // Family without weights, weights without family.
    let mut bad = CF4.clone();
    bad.commutator_free = None;
    let r = reason(bad.validate().unwrap_err());
    assert!(r.contains("`commutator_free` weights are missing"), "{r}");
    let r = reason(CF4.clone().with_family(Family::Classical).unwrap_err());
    assert!(
        r.contains("carries commutator-free weights but its family is Classical"),
        "{r}"
    );
    // An explicit engine needs stage i built from earlier stages only.
    let mut implicit_factor = CF4.clone();
    if let Some(cf) = implicit_factor.commutator_free.as_mut() {
        let stages = cf.stages.to_mut();
        stages[1] =
            ExponentialProduct::new(vec![vec![0.5, 0.1, 0.0, 0.0], vec![0.0, -0.1, 0.0, 0.0]]);
    }
    // (Declared first order, so that the order check passes and the explicitness check is the
    // one under test: the changed factors break the fourth-order conditions.)
    assert!(implicit_factor.validate().is_err());
    implicit_factor.order = 1;
    implicit_factor.validate().unwrap();
    let r = reason(implicit_factor.validate_explicit().unwrap_err());
    assert!(
        r.contains("builds stage 2 from earlier stages only, but its factor 1 weights F_2"),
        "{r}"
    );
    // The builder sets the family.
    let rk4 = ButcherTableau::new(
        "RK4 rebuilt",
        (0..4)
            .map(|i| (0..4).map(|j| RK4.a(i, j).unwrap()).collect())
            .collect(),
        RK4.b.to_vec(),
        RK4.c.to_vec(),
        4,
    )
    .unwrap();
    let cf = rk4
        .with_commutator_free(CF4.commutator_free.clone().unwrap())
        .unwrap();
    assert_eq!(cf.family, Family::CommutatorFree);
    assert_eq!(achieved_commutator_free_order(&cf, TOLERANCE).unwrap(), 4);
    let r = reason(commutator_free_residuals(&RK4, 2).unwrap_err());
    assert!(r.contains("no commutator-free weights"), "{r}");
}

#[test]
fn fsal_and_dense_output_are_checked() {
    let r = reason(RK4.clone().with_fsal(true).unwrap_err());
    assert!(
        r.contains("FSAL needs c_s = 1") || r.contains("FSAL needs the last row"),
        "{r}"
    );
    let mut no_last_row = DOPRI5.clone();
    let mut a = DOPRI5.a.to_vec();
    a[6 * 7] += 1e-3;
    a[6 * 7 + 1] -= 1e-3;
    no_last_row.a = a.into();
    let r = reason(no_last_row.validate().unwrap_err());
    assert!(
        r.contains(
            "FSAL needs the last row of `a` to equal `b`, but a_{7,1} − b_1 = 1.0000000000000009e-3"
        ),
        "{r}"
    );
    let r = reason(GAUSS4.clone().with_fsal(true).unwrap_err());
    assert!(r.contains("FSAL needs an explicit first stage"), "{r}");

    let dense = DOPRI5.dense.clone().unwrap();
    let plain = DOPRI5.clone();
    // Wrong number of polynomials.
    let mut short = dense.clone();
    short.coefficients.to_mut().pop();
    let r = reason(plain.clone().with_dense(short).unwrap_err());
    assert!(
        r.contains("`dense` has 6 polynomials, expected one per stage (s = 7)"),
        "{r}"
    );
    // Not passing through y₁.
    let mut coefficients: Vec<Vec<f64>> = dense.coefficients.iter().map(|c| c.to_vec()).collect();
    coefficients[2][3] += 1e-3;
    coefficients[3][3] -= 1e-3;
    let r = reason(
        plain
            .clone()
            .with_dense(DenseOutput::new(coefficients, 4))
            .unwrap_err(),
    );
    assert!(
        r.contains("`dense` does not reach y₁: b_3(1) − b_3 = 1"),
        "{r}"
    );
    // Σ b_i(θ) ≠ θ.
    let mut coefficients: Vec<Vec<f64>> = dense.coefficients.iter().map(|c| c.to_vec()).collect();
    coefficients[2][2] += 1e-3;
    coefficients[2][3] -= 1e-3;
    let r = reason(
        plain
            .clone()
            .with_dense(DenseOutput::new(coefficients, 4))
            .unwrap_err(),
    );
    assert!(r.contains("the θ^3 coefficients sum to"), "{r}");
    // Non-finite.
    let mut coefficients: Vec<Vec<f64>> = dense.coefficients.iter().map(|c| c.to_vec()).collect();
    coefficients[1][0] = f64::NAN;
    let r = reason(
        plain
            .clone()
            .with_dense(DenseOutput::new(coefficients, 4))
            .unwrap_err(),
    );
    assert!(
        r.contains("`dense` coefficient of θ^1 for stage 2 is NaN"),
        "{r}"
    );
}

#[test]
fn order_condition_arguments_are_checked() {
    for bad in [0, 9] {
        match order_condition_residuals(&RK4, Weights::Main, bad).unwrap_err() {
            Error::InvalidParameter { name, .. } => assert_eq!(name, "max_order"),
            other => panic!("{other:?}"),
        }
    }
    match crouch_grossman_residuals(&CG3, Weights::Main, 5).unwrap_err() {
        Error::InvalidParameter { name, expected, .. } => {
            assert_eq!(name, "max_order");
            assert_eq!(expected, "1 ≤ max_order ≤ 4");
        }
        other => panic!("{other:?}"),
    }
    let r = reason(order_condition_residuals(&RK4, Weights::Embedded, 4).unwrap_err());
    assert_eq!(r, "RK4: it has no embedded weights `b_hat`");
    let r = reason(crouch_grossman_residuals(&CG3, Weights::Embedded, 3).unwrap_err());
    assert!(r.contains("no embedded weights"), "{r}");
    for bad in [0.0, -1.0] {
        match achieved_order(&RK4, Weights::Main, bad).unwrap_err() {
            Error::InvalidParameter { name, .. } => assert_eq!(name, "tolerance"),
            other => panic!("{other:?}"),
        }
    }
    for bad in [f64::NAN, f64::INFINITY] {
        match achieved_order(&RK4, Weights::Main, bad).unwrap_err() {
            Error::NonFinite { name } => assert_eq!(name, "tolerance"),
            other => panic!("{other:?}"),
        }
    }
    match trees(9).unwrap_err() {
        Error::InvalidParameter { name, .. } => assert_eq!(name, "order"),
        other => panic!("{other:?}"),
    }
    match dense_output_residuals(&DOPRI5, f64::NAN, 4).unwrap_err() {
        Error::NonFinite { name } => assert_eq!(name, "theta"),
        other => panic!("{other:?}"),
    }
    let r = reason(dense_output_residuals(&RK4, 0.5, 4).unwrap_err());
    assert!(r.contains("no dense output"), "{r}");
    // A malformed tableau is reported, not indexed out of bounds.
    let mut t = RK4.clone();
    t.b = vec![1.0].into();
    let r = reason(order_condition_residuals(&t, Weights::Main, 4).unwrap_err());
    assert!(r.contains("`b` has 1 entries"), "{r}");
}

// ---------------------------------------------------------------------------------------------
// Registry
// ---------------------------------------------------------------------------------------------

fn normalised(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

#[test]
fn registry_lookup() {
    // One table gives the names and the tableaux (its length counted by the compiler).
    let names = registry::names();
    let all = registry::all();
    assert_eq!(names.len(), all.len());
    assert!(!names.is_empty());
    let mut keys: Vec<String> = names.iter().map(|k| normalised(k)).collect();
    keys.extend(all.iter().map(|t| normalised(&t.name)));
    for (name, t) in names.iter().zip(&all) {
        assert_eq!(&registry::by_name(name).unwrap(), t);
        assert_eq!(&registry::by_name(&name.to_lowercase()).unwrap(), t);
        assert_eq!(&registry::by_name(&t.name).unwrap(), t);
        assert_eq!(&registry::by_name(&t.name.to_uppercase()).unwrap(), t);
        // No two tableaux share a constant name or a literature name.
        let mine = [normalised(name), normalised(&t.name)];
        let clashes = keys.iter().filter(|k| mine.contains(k)).count();
        assert!(clashes <= 2, "{name} clashes");
    }
    assert_eq!(
        registry::by_name("Radau IIA 5").unwrap(),
        registry::RADAU_IIA5
    );
    assert_eq!(registry::by_name("3/8 rule").unwrap(), registry::RK38);
    assert_eq!(registry::by_name("CG2(3)").unwrap(), CG23);
    match registry::by_name("RK5").unwrap_err() {
        Error::InvalidParameter {
            name,
            value,
            expected,
        } => {
            assert_eq!(name, "name");
            assert_eq!(value, "RK5");
            assert!(expected.len() < 200, "{expected}");
        }
        other => panic!("{other:?}"),
    }
    assert!(registry::by_name("").is_err());
}

/// The module documentation's table (stages, order, embedded order) is tested against the data.
#[test]
fn registry_doc_table_matches_the_data() {
    let source = include_str!("../src/tableau/registry.rs");
    let mut rows = 0;
    for line in source.lines().filter(|l| l.starts_with("//! | [`")) {
        let cells: Vec<&str> = line
            .trim_start_matches("//!")
            .split('|')
            .map(str::trim)
            .collect();
        let key = cells[1].trim_start_matches("[`").trim_end_matches("`]");
        let t = registry::by_name(key).unwrap();
        assert_eq!(cells[3].parse::<usize>().unwrap(), t.stages, "{key}");
        let expected = match t.embedded_order {
            Some(q) => format!("{} ({q})", t.order),
            None => t.order.to_string(),
        };
        assert_eq!(cells[4], expected, "{key}");
        rows += 1;
    }
    assert_eq!(rows, registry::names().len());
}

// ---------------------------------------------------------------------------------------------
// Dense output of DOPRI5
// ---------------------------------------------------------------------------------------------

#[test]
fn dopri5_dense_output_satisfies_the_continuous_conditions() {
    for k in 0..=20 {
        let theta = k as f64 / 20.0;
        let r = dense_output_residuals(&DOPRI5, theta, 5).unwrap();
        let max = max_abs_up_to(&r, 4);
        assert!(max < 1e-14, "θ = {theta}: {max:e}");
        if theta > 0.0 && theta < 1.0 {
            assert!(max_abs(&r, 5) > 1e-6, "θ = {theta}: order 5 holds?");
        }
    }
}

/// One DOPRI5 step on `y' = λ y`, `y(0) = 1`, evaluated at `t = θh` by the dense output.
fn dopri5_dense_linear(lambda: f64, h: f64, theta: f64) -> f64 {
    let t = &DOPRI5;
    let s = t.stages;
    let mut k = vec![0.0; s];
    for i in 0..s {
        let yi = 1.0 + h * (0..i).map(|j| t.a(i, j).unwrap() * k[j]).sum::<f64>();
        k[i] = lambda * yi;
    }
    let w = t.dense.as_ref().unwrap().weights_at(theta);
    1.0 + h * w.iter().zip(&k).map(|(wi, ki)| wi * ki).sum::<f64>()
}

#[test]
fn dopri5_dense_output_reproduces_a_linear_solution_to_fourth_order() {
    let lambda = -1.3;
    for theta in [0.2, 0.5, 0.7] {
        let errors: Vec<f64> = [0.4, 0.2, 0.1]
            .iter()
            .map(|&h| (dopri5_dense_linear(lambda, h, theta) - (lambda * theta * h).exp()).abs())
            .collect();
        // Local interpolation error O(h^5) for an interpolant of order 4.
        let slope = (errors[1] / errors[2]).log2();
        println!("θ = {theta}: errors {errors:?}, slope {slope:.2}");
        assert!((slope - 5.0).abs() < 0.3, "θ = {theta}: slope {slope}");
    }
    // At θ = 1 it is the step itself: y₁ = R(hλ) with the order-5 stability polynomial.
    let h = 0.1;
    let y1 = dopri5_dense_linear(lambda, h, 1.0);
    let z: f64 = lambda * h;
    let taylor: f64 = (0..=5)
        .map(|n| z.powi(n) / (1..=n).map(f64::from).product::<f64>())
        .sum();
    let r6 = z.powi(6) / 600.0; // DOPRI5's stability polynomial has the extra term z⁶/600.
    assert!(
        (y1 - (taylor + r6)).abs() < 1e-15,
        "{y1} vs {}",
        taylor + r6
    );
}

#[test]
fn tsit5_and_dopri5_error_weights_have_the_right_size() {
    // b − b̂ is O(1e-2) for both 5(4) pairs (a corrupted embedded formula would show here too).
    for t in [DOPRI5, TSIT5] {
        let e: f64 =
            t.b.iter()
                .zip(t.b_hat.as_ref().unwrap().iter())
                .map(|(b, bh)| (b - bh).abs())
                .fold(0.0, f64::max);
        assert!(e > 1e-3 && e < 1.0, "{}: {e}", t.name);
    }
}
