//! Crouch–Grossman and commutator-free tableaux (re-exported by [`super::registry`]).
//!
//! Their coefficients satisfy conditions beyond the classical ones; the tests check them with
//! [`super::order_conditions::crouch_grossman_residuals`] and
//! [`super::order_conditions::commutator_free_residuals`].

use std::borrow::Cow;

use super::{ButcherTableau, CommutatorFreeWeights, ExponentialProduct, Family};

/// CG3's `A`: `a_21 = 3/4`, `a_31 = 119/216`, `a_32 = 17/108`.
#[rustfmt::skip]
const CG3_A: [f64; 9] = [
    0.0,           0.0,          0.0,
    3.0 / 4.0,     0.0,          0.0,
    119.0 / 216.0, 17.0 / 108.0, 0.0,
];
const CG3_B: [f64; 3] = [13.0 / 51.0, -2.0 / 3.0, 24.0 / 17.0];
const CG3_C: [f64; 3] = [0.0, 3.0 / 4.0, 17.0 / 24.0];

/// The third-order Crouch–Grossman method CG3.
///
/// ```text
/// 0     |
/// 3/4   | 3/4
/// 17/24 | 119/216  17/108
/// ------+--------------------
///       | 13/51    −2/3    24/17
/// ```
///
/// Stages `Y_i = exp(h a_{i,i−1} F_{i−1}) ⋯ exp(h a_{i1} F_1) · y₀`, output
/// `y₁ = exp(h b_3 F_3) exp(h b_2 F_2) exp(h b_1 F_1) · y₀`. Beside the classical third-order
/// conditions it satisfies `Σ_i b_i² c_i + 2 Σ_{i<j} b_i c_i b_j = 1/3`. A widely copied
/// version swaps `a_31` and `a_32` (the "reversed row"); that version is only second order.
///
/// # References
/// P. E. Crouch, R. Grossman, *J. Nonlinear Sci.* 3 (1993) 1–33; B. Owren, A. Marthinsen,
/// *BIT* 39 (1999) 116–142.
pub const CG3: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("CG3"),
    stages: 3,
    a: Cow::Borrowed(&CG3_A),
    b: Cow::Borrowed(&CG3_B),
    c: Cow::Borrowed(&CG3_C),
    b_hat: None,
    dense: None,
    order: 3,
    embedded_order: None,
    fsal: false,
    family: Family::CrouchGrossman,
    commutator_free: None,
    reference: Cow::Borrowed(
        "Crouch & Grossman, J. Nonlinear Sci. 3 (1993) 1-33; Owren & Marthinsen, BIT 39 (1999) \
         116-142",
    ),
};

/// CG3 with embedded second-order weights `b̂ = (17/54, 19/54, 1/3)` on the same stages: the
/// Crouch–Grossman pair CG2(3), order 3 with an order-2 error estimate.
///
/// ```text
/// 0     |
/// 3/4   | 3/4
/// 17/24 | 119/216  17/108
/// ------+--------------------
/// b     | 13/51    −2/3    24/17
/// b̂     | 17/54    19/54   1/3
/// ```
///
/// # References
/// Coefficients of CG3 as in [`CG3`]; the embedded weights as recorded in the design notes
/// (`algorithms.md` §5), verified here by the Crouch–Grossman order conditions (order 2 exactly).
pub const CG23: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("CG2(3)"),
    stages: 3,
    a: Cow::Borrowed(&CG3_A),
    b: Cow::Borrowed(&CG3_B),
    c: Cow::Borrowed(&CG3_C),
    b_hat: Some(Cow::Borrowed(&[17.0 / 54.0, 19.0 / 54.0, 1.0 / 3.0])),
    dense: None,
    order: 3,
    embedded_order: Some(2),
    fsal: false,
    family: Family::CrouchGrossman,
    commutator_free: None,
    reference: Cow::Borrowed(
        "CG3 of Crouch & Grossman, J. Nonlinear Sci. 3 (1993) 1-33, with embedded order-2 weights",
    ),
};

/// The fourth-order, five-stage Crouch–Grossman method CG4a.
///
/// ```text
/// c_i                | a_i1                a_i2                a_i3                a_i4
/// 0                  |
/// 0.8177227988124852 | 0.8177227988124852
/// 0.3859740639032449 | 0.3199876375476427  0.0659864263556022
/// 0.3242290522866937 | 0.9214417194464946  0.4997857776773573  −1.0969984448371582
/// 0.8768903263420429 | 0.3552358559023322  0.2390958372307326  1.3918565724203246  −1.1092979392113465
/// -------------------+-------------------------------------------------------------------------------
/// b                  | 0.1370831520630755  −0.0183698531564020  0.7397813985370780  −0.1907142565505889  0.3322195591068374
/// ```
///
/// Copies that print `a_54 = −1.1092979392113565` break the row sum in the 14th digit;
/// copies that reverse the stage rows are only second order.
///
/// # References
/// Z. Jackiewicz, A. Marthinsen, B. Owren, *Adv. Comput. Math.* 13 (2000) 405–415
/// (method "CG4a").
#[rustfmt::skip]
#[allow(clippy::excessive_precision)] // the published digits (with trailing zeros), verbatim
pub const CG4A: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("CG4a"),
    stages: 5,
    a: Cow::Borrowed(&[
        0.0,                0.0,                0.0,                 0.0,                 0.0,
        0.8177227988124852, 0.0,                0.0,                 0.0,                 0.0,
        0.3199876375476427, 0.0659864263556022, 0.0,                 0.0,                 0.0,
        0.9214417194464946, 0.4997857776773573, -1.0969984448371582, 0.0,                 0.0,
        0.3552358559023322, 0.2390958372307326, 1.3918565724203246,  -1.1092979392113465, 0.0,
    ]),
    b: Cow::Borrowed(&[
        0.1370831520630755, -0.0183698531564020, 0.7397813985370780, -0.1907142565505889,
        0.3322195591068374,
    ]),
    c: Cow::Borrowed(&[
        0.0, 0.8177227988124852, 0.3859740639032449, 0.3242290522866937, 0.8768903263420429,
    ]),
    b_hat: None,
    dense: None,
    order: 4,
    embedded_order: None,
    fsal: false,
    family: Family::CrouchGrossman,
    commutator_free: None,
    reference: Cow::Borrowed(
        "Jackiewicz, Marthinsen & Owren, Adv. Comput. Math. 13 (2000) 405-415 (CG4a)",
    ),
};

/// The fourth-order commutator-free method CF4 on the nodes and weights of RK4.
///
/// With `F_i = f(t₀ + c_i h, Y_i)` and `c = (0, ½, ½, 1)`:
///
/// ```text
/// Y₁ = y₀
/// Y₂ = exp(h F₁/2) · y₀
/// Y₃ = exp(h F₂/2) · y₀
/// Y₄ = exp(h (F₃ − F₁/2)) · exp(h F₁/2) · y₀
/// y₁ = exp(h (−F₁ + 2F₂ + 2F₃ + 3F₄)/12) · exp(h (3F₁ + 2F₂ + 2F₃ − F₄)/12) · y₀
/// ```
///
/// The underlying tableau (the sums of each product's weights) is RK4's:
/// `a_21 = 1/2`, `a_32 = 1/2`, `a_43 = 1`, `b = (1/6, 1/3, 1/3, 1/6)`.
///
/// # References
/// E. Celledoni, A. Marthinsen, B. Owren, *Future Gener. Comput. Syst.* 19 (2003) 341–352
/// (their fourth-order method with two exponentials in the output).
#[rustfmt::skip]
pub const CF4: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("CF4"),
    stages: 4,
    a: Cow::Borrowed(&[
        0.0,       0.0,       0.0, 0.0,
        1.0 / 2.0, 0.0,       0.0, 0.0,
        0.0,       1.0 / 2.0, 0.0, 0.0,
        0.0,       0.0,       1.0, 0.0,
    ]),
    b: Cow::Borrowed(&[1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0]),
    c: Cow::Borrowed(&[0.0, 1.0 / 2.0, 1.0 / 2.0, 1.0]),
    b_hat: None,
    dense: None,
    order: 4,
    embedded_order: None,
    fsal: false,
    family: Family::CommutatorFree,
    commutator_free: Some(CommutatorFreeWeights {
        stages: Cow::Borrowed(&[
            ExponentialProduct { factors: Cow::Borrowed(&[]) },
            ExponentialProduct { factors: Cow::Borrowed(&[Cow::Borrowed(&[1.0 / 2.0, 0.0, 0.0, 0.0])]) },
            ExponentialProduct { factors: Cow::Borrowed(&[Cow::Borrowed(&[0.0, 1.0 / 2.0, 0.0, 0.0])]) },
            ExponentialProduct {
                factors: Cow::Borrowed(&[
                    Cow::Borrowed(&[1.0 / 2.0, 0.0, 0.0, 0.0]),
                    Cow::Borrowed(&[-1.0 / 2.0, 0.0, 1.0, 0.0]),
                ]),
            },
        ]),
        output: ExponentialProduct {
            factors: Cow::Borrowed(&[
                Cow::Borrowed(&[3.0 / 12.0, 2.0 / 12.0, 2.0 / 12.0, -1.0 / 12.0]),
                Cow::Borrowed(&[-1.0 / 12.0, 2.0 / 12.0, 2.0 / 12.0, 3.0 / 12.0]),
            ]),
        },
    }),
    reference: Cow::Borrowed(
        "Celledoni, Marthinsen & Owren, Future Gener. Comput. Syst. 19 (2003) 341-352",
    ),
};
