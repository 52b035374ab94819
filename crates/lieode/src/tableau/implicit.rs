//! Implicit Runge–Kutta tableaux (re-exported by [`super::registry`]).
//!
//! Irrational coefficients are written as formulas in `√3`, `√6`, `√15`, each square root a
//! correctly rounded constant; the tests check every tableau against its order conditions.

use std::borrow::Cow;

use super::explicit::with_last_row;
use super::{ButcherTableau, Family};

/// `√3`, correctly rounded.
const SQRT_3: f64 = 1.732_050_807_568_877_2;
/// `√6`, correctly rounded.
const SQRT_6: f64 = 2.449_489_742_783_178;
/// `√15`, correctly rounded.
const SQRT_15: f64 = 3.872_983_346_207_417;

/// The backward (implicit) Euler method, order 1 (Radau IIA with one stage).
///
/// ```text
/// 1 | 1
/// --+--
///   | 1
/// ```
///
/// # References
/// Hairer, Wanner, *Solving ODEs II* (2nd ed., 1996), §IV.3 and §IV.5.
#[rustfmt::skip]
pub const BACKWARD_EULER: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("Backward Euler"),
    stages: 1,
    a: Cow::Borrowed(&[1.0]),
    b: Cow::Borrowed(&[1.0]),
    c: Cow::Borrowed(&[1.0]),
    b_hat: None,
    dense: None,
    order: 1,
    embedded_order: None,
    fsal: false,
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed("Hairer & Wanner, Solving ODEs II, §IV.3, §IV.5"),
};

/// The implicit midpoint rule (Gauss–Legendre with one stage), order 2.
///
/// ```text
/// 1/2 | 1/2
/// ----+----
///     | 1
/// ```
///
/// # References
/// Hairer, Lubich, Wanner, *Geometric Numerical Integration* (2nd ed., 2006), §II.1;
/// HW II, §IV.5.
#[rustfmt::skip]
pub const IMPLICIT_MIDPOINT: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("Implicit midpoint"),
    stages: 1,
    a: Cow::Borrowed(&[1.0 / 2.0]),
    b: Cow::Borrowed(&[1.0]),
    c: Cow::Borrowed(&[1.0 / 2.0]),
    b_hat: None,
    dense: None,
    order: 2,
    embedded_order: None,
    fsal: false,
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed("Hairer, Lubich & Wanner, Geometric Numerical Integration, §II.1"),
};

/// The trapezoidal rule as the two-stage Lobatto IIIA method, order 2.
///
/// ```text
/// 0 | 0    0
/// 1 | 1/2  1/2
/// --+---------
///   | 1/2  1/2
/// ```
///
/// The first stage is explicit and the last row equals `b` (so the last stage could be
/// reused), but the tableau is not marked FSAL: implicit engines solve for all stages.
///
/// # References
/// HW II, §IV.5 (Lobatto IIIA, s = 2); Hairer, Lubich, Wanner, *Geometric
/// Numerical Integration*, §II.1.
#[rustfmt::skip]
pub const TRAPEZOID: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("Trapezoid (Lobatto IIIA)"),
    stages: 2,
    a: Cow::Borrowed(&[
        0.0,       0.0,
        1.0 / 2.0, 1.0 / 2.0,
    ]),
    b: Cow::Borrowed(&[1.0 / 2.0, 1.0 / 2.0]),
    c: Cow::Borrowed(&[0.0, 1.0]),
    b_hat: None,
    dense: None,
    order: 2,
    embedded_order: None,
    fsal: false,
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed("Hairer & Wanner, Solving ODEs II, §IV.5 (Lobatto IIIA, s = 2)"),
};

/// The two-stage Gauss–Legendre method, order 4.
///
/// ```text
/// 1/2 − √3/6 | 1/4         1/4 − √3/6
/// 1/2 + √3/6 | 1/4 + √3/6  1/4
/// -----------+-----------------------
///            | 1/2         1/2
/// ```
///
/// # References
/// J. C. Butcher, *Math. Comp.* 18 (1964) 50–64; HW II, §IV.5 (Gauss methods).
#[rustfmt::skip]
pub const GAUSS4: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("Gauss-Legendre 4"),
    stages: 2,
    a: Cow::Borrowed(&[
        1.0 / 4.0,              1.0 / 4.0 - SQRT_3 / 6.0,
        1.0 / 4.0 + SQRT_3 / 6.0, 1.0 / 4.0,
    ]),
    b: Cow::Borrowed(&[1.0 / 2.0, 1.0 / 2.0]),
    c: Cow::Borrowed(&[1.0 / 2.0 - SQRT_3 / 6.0, 1.0 / 2.0 + SQRT_3 / 6.0]),
    b_hat: None,
    dense: None,
    order: 4,
    embedded_order: None,
    fsal: false,
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed("Butcher, Math. Comp. 18 (1964) 50-64; Hairer & Wanner, Solving ODEs II, §IV.5"),
};

/// The three-stage Gauss–Legendre method, order 6.
///
/// ```text
/// 1/2 − √15/10 | 5/36           2/9 − √15/15  5/36 − √15/30
/// 1/2          | 5/36 + √15/24  2/9           5/36 − √15/24
/// 1/2 + √15/10 | 5/36 + √15/30  2/9 + √15/15  5/36
/// -------------+--------------------------------------------
///              | 5/18           4/9           5/18
/// ```
///
/// # References
/// J. C. Butcher, *Math. Comp.* 18 (1964) 50–64; HW II, §IV.5 (Gauss methods).
#[rustfmt::skip]
pub const GAUSS6: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("Gauss-Legendre 6"),
    stages: 3,
    a: Cow::Borrowed(&[
        5.0 / 36.0,                 2.0 / 9.0 - SQRT_15 / 15.0, 5.0 / 36.0 - SQRT_15 / 30.0,
        5.0 / 36.0 + SQRT_15 / 24.0, 2.0 / 9.0,                 5.0 / 36.0 - SQRT_15 / 24.0,
        5.0 / 36.0 + SQRT_15 / 30.0, 2.0 / 9.0 + SQRT_15 / 15.0, 5.0 / 36.0,
    ]),
    b: Cow::Borrowed(&[5.0 / 18.0, 4.0 / 9.0, 5.0 / 18.0]),
    c: Cow::Borrowed(&[1.0 / 2.0 - SQRT_15 / 10.0, 1.0 / 2.0, 1.0 / 2.0 + SQRT_15 / 10.0]),
    b_hat: None,
    dense: None,
    order: 6,
    embedded_order: None,
    fsal: false,
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed("Butcher, Math. Comp. 18 (1964) 50-64; Hairer & Wanner, Solving ODEs II, §IV.5"),
};

/// Radau IIA (2 stages): the weights `b`, also the last row of `A` (stiffly accurate).
const RADAU_IIA3_B: [f64; 2] = [3.0 / 4.0, 1.0 / 4.0];

const RADAU_IIA3_A: [f64; 4] = with_last_row([5.0 / 12.0, -1.0 / 12.0], RADAU_IIA3_B);

/// The two-stage Radau IIA method, order 3.
///
/// ```text
/// 1/3 | 5/12  −1/12
/// 1   | 3/4   1/4
/// ----+-----------
///     | 3/4   1/4
/// ```
///
/// # References
/// B. L. Ehle, Univ. Waterloo Res. Rep. CSRR 2010 (1969); HW II, §IV.5 (Radau IIA methods).
pub const RADAU_IIA3: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("Radau IIA 3"),
    stages: 2,
    a: Cow::Borrowed(&RADAU_IIA3_A),
    b: Cow::Borrowed(&RADAU_IIA3_B),
    c: Cow::Borrowed(&[1.0 / 3.0, 1.0]),
    b_hat: None,
    dense: None,
    order: 3,
    embedded_order: None,
    fsal: false,
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed("Ehle (1969); Hairer & Wanner, Solving ODEs II, §IV.5"),
};

/// Radau IIA (3 stages): the weights `b`, also the last row of `A` (stiffly accurate).
const RADAU_IIA5_B: [f64; 3] = [(16.0 - SQRT_6) / 36.0, (16.0 + SQRT_6) / 36.0, 1.0 / 9.0];

/// Radau IIA (3 stages): the first two rows of `A`.
#[rustfmt::skip]
const RADAU_IIA5_A_ROWS: [f64; 6] = [
    (88.0 - 7.0 * SQRT_6) / 360.0,     (296.0 - 169.0 * SQRT_6) / 1800.0, (-2.0 + 3.0 * SQRT_6) / 225.0,
    (296.0 + 169.0 * SQRT_6) / 1800.0, (88.0 + 7.0 * SQRT_6) / 360.0,     (-2.0 - 3.0 * SQRT_6) / 225.0,
];

const RADAU_IIA5_A: [f64; 9] = with_last_row(RADAU_IIA5_A_ROWS, RADAU_IIA5_B);

/// The three-stage Radau IIA method (the method of Hairer's `radau5.f`), order 5.
///
/// ```text
/// (4 − √6)/10 | (88 − 7√6)/360      (296 − 169√6)/1800  (−2 + 3√6)/225
/// (4 + √6)/10 | (296 + 169√6)/1800  (88 + 7√6)/360      (−2 − 3√6)/225
/// 1           | (16 − √6)/36        (16 + √6)/36        1/9
/// ------------+------------------------------------------------------
///             | (16 − √6)/36        (16 + √6)/36        1/9
/// ```
///
/// # References
/// B. L. Ehle (1969); HW II, §IV.5 (Radau IIA methods).
pub const RADAU_IIA5: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("Radau IIA 5"),
    stages: 3,
    a: Cow::Borrowed(&RADAU_IIA5_A),
    b: Cow::Borrowed(&RADAU_IIA5_B),
    c: Cow::Borrowed(&[(4.0 - SQRT_6) / 10.0, (4.0 + SQRT_6) / 10.0, 1.0]),
    b_hat: None,
    dense: None,
    order: 5,
    embedded_order: None,
    fsal: false,
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed("Ehle (1969); Hairer & Wanner, Solving ODEs II, §IV.5"),
};
