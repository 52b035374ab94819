//! Explicit Runge–Kutta tableaux (re-exported by [`super::registry`]).
//!
//! Every coefficient is written once, as an exact fraction where one exists; the tests check
//! each tableau against the order conditions computed from this data.

use std::borrow::Cow;

use super::{ButcherTableau, DenseOutput, Family};

/// Explicit Euler, order 1.
///
/// ```text
/// 0 |
/// --+--
///   | 1
/// ```
///
/// # References
/// L. Euler, *Institutionum calculi integralis* I (1768), §650; Hairer, Nørsett, Wanner,
/// *Solving ODEs I* (2nd ed., 1993), §I.7.
#[rustfmt::skip]
pub const EULER: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("Explicit Euler"),
    stages: 1,
    a: Cow::Borrowed(&[0.0]),
    b: Cow::Borrowed(&[1.0]),
    c: Cow::Borrowed(&[0.0]),
    b_hat: None,
    dense: None,
    order: 1,
    embedded_order: None,
    fsal: false,
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed("Euler, Institutionum calculi integralis I (1768); HNW I, §I.7"),
};

/// The explicit midpoint rule (Runge's second-order method), order 2.
///
/// ```text
/// 0   |
/// 1/2 | 1/2
/// ----+---------
///     | 0    1
/// ```
///
/// # References
/// C. Runge, *Math. Ann.* 46 (1895) 167–178; HNW I, §II.1.
#[rustfmt::skip]
pub const MIDPOINT: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("Explicit midpoint"),
    stages: 2,
    a: Cow::Borrowed(&[
        0.0,       0.0,
        1.0 / 2.0, 0.0,
    ]),
    b: Cow::Borrowed(&[0.0, 1.0]),
    c: Cow::Borrowed(&[0.0, 1.0 / 2.0]),
    b_hat: None,
    dense: None,
    order: 2,
    embedded_order: None,
    fsal: false,
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed("Runge, Math. Ann. 46 (1895) 167-178; HNW I, §II.1"),
};

/// Heun's second-order method (the explicit trapezoidal rule), order 2.
///
/// ```text
/// 0 |
/// 1 | 1
/// --+---------
///   | 1/2  1/2
/// ```
///
/// # References
/// K. Heun, *Z. Math. Phys.* 45 (1900) 23–38; HNW I, §II.1.
#[rustfmt::skip]
pub const HEUN: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("Heun"),
    stages: 2,
    a: Cow::Borrowed(&[
        0.0, 0.0,
        1.0, 0.0,
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
    reference: Cow::Borrowed("Heun, Z. Math. Phys. 45 (1900) 23-38; HNW I, §II.1"),
};

/// Ralston's second-order method (minimum error bound among two-stage methods), order 2.
///
/// ```text
/// 0   |
/// 2/3 | 2/3
/// ----+---------
///     | 1/4  3/4
/// ```
///
/// # References
/// A. Ralston, *Math. Comp.* 16 (1962) 431–437.
#[rustfmt::skip]
pub const RALSTON: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("Ralston"),
    stages: 2,
    a: Cow::Borrowed(&[
        0.0,       0.0,
        2.0 / 3.0, 0.0,
    ]),
    b: Cow::Borrowed(&[1.0 / 4.0, 3.0 / 4.0]),
    c: Cow::Borrowed(&[0.0, 2.0 / 3.0]),
    b_hat: None,
    dense: None,
    order: 2,
    embedded_order: None,
    fsal: false,
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed("Ralston, Math. Comp. 16 (1962) 431-437"),
};

/// Kutta's third-order method, order 3.
///
/// ```text
/// 0   |
/// 1/2 | 1/2
/// 1   | −1   2
/// ----+--------------
///     | 1/6  2/3  1/6
/// ```
///
/// # References
/// W. Kutta, *Z. Math. Phys.* 46 (1901) 435–453; HNW I, §II.1.
#[rustfmt::skip]
pub const KUTTA3: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("Kutta3"),
    stages: 3,
    a: Cow::Borrowed(&[
        0.0,       0.0, 0.0,
        1.0 / 2.0, 0.0, 0.0,
        -1.0,      2.0, 0.0,
    ]),
    b: Cow::Borrowed(&[1.0 / 6.0, 2.0 / 3.0, 1.0 / 6.0]),
    c: Cow::Borrowed(&[0.0, 1.0 / 2.0, 1.0]),
    b_hat: None,
    dense: None,
    order: 3,
    embedded_order: None,
    fsal: false,
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed("Kutta, Z. Math. Phys. 46 (1901) 435-453; HNW I, §II.1"),
};

/// The three-stage strong-stability-preserving method of Shu and Osher, order 3.
///
/// ```text
/// 0   |
/// 1   | 1
/// 1/2 | 1/4  1/4
/// ----+--------------
///     | 1/6  1/6  2/3
/// ```
///
/// (In Shu–Osher form: `u⁽¹⁾ = uⁿ + hF(uⁿ)`, `u⁽²⁾ = ¾uⁿ + ¼(u⁽¹⁾ + hF(u⁽¹⁾))`,
/// `uⁿ⁺¹ = ⅓uⁿ + ⅔(u⁽²⁾ + hF(u⁽²⁾))`.)
///
/// # References
/// C.-W. Shu, S. Osher, *J. Comput. Phys.* 77 (1988) 439–471; S. Gottlieb, C.-W. Shu,
/// *Math. Comp.* 67 (1998) 73–85.
#[rustfmt::skip]
pub const SSPRK3: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("SSPRK3"),
    stages: 3,
    a: Cow::Borrowed(&[
        0.0,       0.0,       0.0,
        1.0,       0.0,       0.0,
        1.0 / 4.0, 1.0 / 4.0, 0.0,
    ]),
    b: Cow::Borrowed(&[1.0 / 6.0, 1.0 / 6.0, 2.0 / 3.0]),
    c: Cow::Borrowed(&[0.0, 1.0, 1.0 / 2.0]),
    b_hat: None,
    dense: None,
    order: 3,
    embedded_order: None,
    fsal: false,
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed("Shu & Osher, J. Comput. Phys. 77 (1988) 439-471"),
};

/// The classical fourth-order Runge–Kutta method, order 4.
///
/// ```text
/// 0   |
/// 1/2 | 1/2
/// 1/2 | 0    1/2
/// 1   | 0    0    1
/// ----+-------------------
///     | 1/6  1/3  1/3  1/6
/// ```
///
/// # References
/// W. Kutta, *Z. Math. Phys.* 46 (1901) 435–453; HNW I, §II.1 (Kutta's methods).
#[rustfmt::skip]
pub const RK4: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("RK4"),
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
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed("Kutta, Z. Math. Phys. 46 (1901) 435-453; HNW I, §II.1"),
};

/// Kutta's 3/8 rule, order 4.
///
/// ```text
/// 0   |
/// 1/3 | 1/3
/// 2/3 | −1/3  1
/// 1   | 1     −1   1
/// ----+--------------------
///     | 1/8   3/8  3/8  1/8
/// ```
///
/// # References
/// W. Kutta, *Z. Math. Phys.* 46 (1901) 435–453; HNW I, §II.1 (Kutta's methods).
#[rustfmt::skip]
pub const RK38: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("3/8 rule"),
    stages: 4,
    a: Cow::Borrowed(&[
        0.0,        0.0,  0.0, 0.0,
        1.0 / 3.0,  0.0,  0.0, 0.0,
        -1.0 / 3.0, 1.0,  0.0, 0.0,
        1.0,        -1.0, 1.0, 0.0,
    ]),
    b: Cow::Borrowed(&[1.0 / 8.0, 3.0 / 8.0, 3.0 / 8.0, 1.0 / 8.0]),
    c: Cow::Borrowed(&[0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0]),
    b_hat: None,
    dense: None,
    order: 4,
    embedded_order: None,
    fsal: false,
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed("Kutta, Z. Math. Phys. 46 (1901) 435-453; HNW I, §II.1"),
};

/// BS3(2)'s weights `b`, also the last row of `A`.
const BS32_B: [f64; 4] = [2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0, 0.0];

/// BS3(2)'s first three rows of `A`.
#[rustfmt::skip]
const BS32_A_ROWS: [f64; 12] = [
    0.0,       0.0,       0.0, 0.0,
    1.0 / 2.0, 0.0,       0.0, 0.0,
    0.0,       3.0 / 4.0, 0.0, 0.0,
];

const BS32_A: [f64; 16] = with_last_row(BS32_A_ROWS, BS32_B);

/// The Bogacki–Shampine 3(2) pair, FSAL: order 3 with an embedded order-2 estimate.
///
/// ```text
/// 0   |
/// 1/2 | 1/2
/// 3/4 | 0     3/4
/// 1   | 2/9   1/3  4/9
/// ----+--------------------
/// b   | 2/9   1/3  4/9  0
/// b̂   | 7/24  1/4  1/3  1/8
/// ```
///
/// # References
/// P. Bogacki, L. F. Shampine, *Appl. Math. Lett.* 2 (1989) 321–325.
pub const BS32: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("BS3(2)"),
    stages: 4,
    a: Cow::Borrowed(&BS32_A),
    b: Cow::Borrowed(&BS32_B),
    c: Cow::Borrowed(&[0.0, 1.0 / 2.0, 3.0 / 4.0, 1.0]),
    b_hat: Some(Cow::Borrowed(&[
        7.0 / 24.0,
        1.0 / 4.0,
        1.0 / 3.0,
        1.0 / 8.0,
    ])),
    dense: None,
    order: 3,
    embedded_order: Some(2),
    fsal: true,
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed("Bogacki & Shampine, Appl. Math. Lett. 2 (1989) 321-325"),
};

/// DOPRI5's weights `b`, also the last row of `A`.
#[rustfmt::skip]
const DOPRI5_B: [f64; 7] = [
    35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0, 0.0,
];

/// DOPRI5's first six rows of `A`.
#[rustfmt::skip]
const DOPRI5_A_ROWS: [f64; 42] = [
    0.0,              0.0,               0.0,              0.0,            0.0,               0.0, 0.0,
    1.0 / 5.0,        0.0,               0.0,              0.0,            0.0,               0.0, 0.0,
    3.0 / 40.0,       9.0 / 40.0,        0.0,              0.0,            0.0,               0.0, 0.0,
    44.0 / 45.0,      -56.0 / 15.0,      32.0 / 9.0,       0.0,            0.0,               0.0, 0.0,
    19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0, 0.0,               0.0, 0.0,
    9017.0 / 3168.0,  -355.0 / 33.0,     46732.0 / 5247.0, 49.0 / 176.0,   -5103.0 / 18656.0, 0.0, 0.0,
];

const DOPRI5_A: [f64; 49] = with_last_row(DOPRI5_A_ROWS, DOPRI5_B);

/// The Dormand–Prince 5(4) pair (DOPRI5), FSAL, with Shampine's fourth-order dense output as
/// used by Hairer's `dopri5.f`.
///
/// ```text
/// 0    |
/// 1/5  | 1/5
/// 3/10 | 3/40        9/40
/// 4/5  | 44/45       −56/15       32/9
/// 8/9  | 19372/6561  −25360/2187  64448/6561  −212/729
/// 1    | 9017/3168   −355/33      46732/5247  49/176    −5103/18656
/// 1    | 35/384      0            500/1113    125/192   −2187/6784    11/84
/// -----+-------------------------------------------------------------------------
/// b    | 35/384      0            500/1113    125/192   −2187/6784    11/84     0
/// b̂    | 5179/57600  0            7571/16695  393/640   −92097/339200 187/2100  1/40
/// ```
///
/// Dense output: Hairer's `CONTD5` evaluates, with `Δ = y₁ − y₀`, `B = hk₁ − Δ`,
/// `C = Δ − hk₇ − B` and `D = h Σ_i d_i k_i`,
/// `y(t₀ + θh) = y₀ + θ(Δ + (1−θ)(B + θ(C + (1−θ)D)))`
/// `= y₀ + θΔ + θ(1−θ)B + θ²(1−θ)C + θ²(1−θ)²D`, with Shampine's
/// `d = (−12715105075/11282082432, 0, 87487479700/32700410799, −10690763975/1880347072,
/// 701980252875/199316789632, −1453857185/822651844, 69997945/29380423)`. Expanded into
/// `b_i(θ) = Σ_m q_{im} θ^m` this is `q_{i1} = δ_{i1}`, `q_{i2} = 3b_i − 2δ_{i1} − δ_{i7} + d_i`,
/// `q_{i3} = −2b_i + δ_{i1} + δ_{i7} − 2d_i`, `q_{i4} = d_i`, stored below as exact fractions.
///
/// # References
/// J. R. Dormand, P. J. Prince, *J. Comput. Appl. Math.* 6 (1980) 19–26;
/// L. F. Shampine, *Math. Comp.* 46 (1986) 135–150 (dense output); HNW I, §II.5 and §II.6; Hairer's `dopri5.f`, subroutine `CDOPRI`.
#[rustfmt::skip]
pub const DOPRI5: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("DOPRI5"),
    stages: 7,
    a: Cow::Borrowed(&DOPRI5_A),
    b: Cow::Borrowed(&DOPRI5_B),
    c: Cow::Borrowed(&[0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0]),
    b_hat: Some(Cow::Borrowed(&[
        5179.0 / 57600.0, 0.0, 7571.0 / 16695.0, 393.0 / 640.0, -92097.0 / 339200.0,
        187.0 / 2100.0, 1.0 / 40.0,
    ])),
    dense: Some(DenseOutput {
        coefficients: Cow::Borrowed(&[
            Cow::Borrowed(&[1.0, -8048581381.0 / 2820520608.0, 8663915743.0 / 2820520608.0, -12715105075.0 / 11282082432.0]),
            Cow::Borrowed(&[0.0, 0.0, 0.0, 0.0]),
            Cow::Borrowed(&[0.0, 131558114200.0 / 32700410799.0, -68118460800.0 / 10900136933.0, 87487479700.0 / 32700410799.0]),
            Cow::Borrowed(&[0.0, -1754552775.0 / 470086768.0, 14199869525.0 / 1410260304.0, -10690763975.0 / 1880347072.0]),
            Cow::Borrowed(&[0.0, 127303824393.0 / 49829197408.0, -318862633887.0 / 49829197408.0, 701980252875.0 / 199316789632.0]),
            Cow::Borrowed(&[0.0, -282668133.0 / 205662961.0, 2019193451.0 / 616988883.0, -1453857185.0 / 822651844.0]),
            Cow::Borrowed(&[0.0, 40617522.0 / 29380423.0, -110615467.0 / 29380423.0, 69997945.0 / 29380423.0]),
        ]),
        order: 4,
    }),
    order: 5,
    embedded_order: Some(4),
    fsal: true,
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed(
        "Dormand & Prince, J. Comput. Appl. Math. 6 (1980) 19-26; dense output Shampine, \
         Math. Comp. 46 (1986) 135-150; HNW I, §II.5-II.6; Hairer's dopri5.f",
    ),
};

/// DOP853's nodes `c_1 … c_12` (Hairer's `dop853.f`, `c12 = 1`).
#[rustfmt::skip]
#[allow(clippy::excessive_precision)] // the published 30 digits, kept verbatim
const DOP853_C: [f64; 12] = [
    0.0,
    0.526001519587677318785587544488e-01,
    0.789002279381515978178381316732e-01,
    0.118350341907227396726757197510e+00,
    0.281649658092772603273242802490e+00,
    0.333333333333333333333333333333e+00,
    0.25e+00,
    0.307692307692307692307692307692e+00,
    0.651282051282051282051282051282e+00,
    0.6e+00,
    0.857142857142857142857142857142e+00,
    1.0,
];

/// DOP853's `A`, row-major 12 × 12 (Hairer's `dop853.f`, parameters `a21 … a1211`).
#[rustfmt::skip]
#[allow(clippy::excessive_precision)] // the published 30 digits, kept verbatim
const DOP853_A: [f64; 144] = [
    // row 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    // row 2
    5.26001519587677318785587544488e-2, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    // row 3
    1.97250569845378994544595329183e-2, 5.91751709536136983633785987549e-2,
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    // row 4
    2.95875854768068491816892993775e-2, 0.0, 8.87627564304205475450678981324e-2,
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    // row 5
    2.41365134159266685502369798665e-1, 0.0, -8.84549479328286085344864962717e-1,
    9.24834003261792003115737966543e-1,
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    // row 6
    3.7037037037037037037037037037e-2, 0.0, 0.0, 1.70828608729473871279604482173e-1,
    1.25467687566822425016691814123e-1,
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    // row 7
    3.7109375e-2, 0.0, 0.0, 1.70252211019544039314978060272e-1,
    6.02165389804559606850219397283e-2, -1.7578125e-2,
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    // row 8
    3.70920001185047927108779319836e-2, 0.0, 0.0, 1.70383925712239993810214054705e-1,
    1.07262030446373284651809199168e-1, -1.53194377486244017527936158236e-2,
    8.27378916381402288758473766002e-3,
    0.0, 0.0, 0.0, 0.0, 0.0,
    // row 9
    6.24110958716075717114429577812e-1, 0.0, 0.0, -3.36089262944694129406857109825e0,
    -8.68219346841726006818189891453e-1, 2.75920996994467083049415600797e1,
    2.01540675504778934086186788979e1, -4.34898841810699588477366255144e1,
    0.0, 0.0, 0.0, 0.0,
    // row 10
    4.77662536438264365890433908527e-1, 0.0, 0.0, -2.48811461997166764192642586468e0,
    -5.90290826836842996371446475743e-1, 2.12300514481811942347288949897e1,
    1.52792336328824235832596922938e1, -3.32882109689848629194453265587e1,
    -2.03312017085086261358222928593e-2,
    0.0, 0.0, 0.0,
    // row 11
    -9.3714243008598732571704021658e-1, 0.0, 0.0, 5.18637242884406370830023853209e0,
    1.09143734899672957818500254654e0, -8.14978701074692612513997267357e0,
    -1.85200656599969598641566180701e1, 2.27394870993505042818970056734e1,
    2.49360555267965238987089396762e0, -3.0467644718982195003823669022e0,
    0.0, 0.0,
    // row 12
    2.27331014751653820792359768449e0, 0.0, 0.0, -1.05344954667372501984066689879e1,
    -2.00087205822486249909675718444e0, -1.79589318631187989172765950534e1,
    2.79488845294199600508499808837e1, -2.85899827713502369474065508674e0,
    -8.87285693353062954433549289258e0, 1.23605671757943030647266201528e1,
    6.43392746015763530355970484046e-1,
    0.0,
];

/// DOP853's eighth-order weights `b` (Hairer's `dop853.f`, parameters `b1, b6 … b12`).
#[rustfmt::skip]
#[allow(clippy::excessive_precision)] // the published 30 digits, kept verbatim
const DOP853_B: [f64; 12] = [
    5.42937341165687622380535766363e-2,
    0.0, 0.0, 0.0, 0.0,
    4.45031289275240888144113950566e0,
    1.89151789931450038304281599044e0,
    -5.8012039600105847814672114227e0,
    3.1116436695781989440891606237e-1,
    -1.52160949662516078556178806805e-1,
    2.01365400804030348374776537501e-1,
    4.47106157277725905176885569043e-2,
];

/// DOP853's fifth-order error weights `er_i = b_i − b̂_i` (Hairer's `dop853.f`, parameters
/// `er1, er6 … er12`): `h Σ_i er_i k_i` is the error estimate `err5` of the code. The fifth-order
/// weights [`DOP853`]`.b_hat` are `b − er` (computed once, at compile time, from this array).
#[rustfmt::skip]
#[allow(clippy::excessive_precision)] // the published 30 digits, kept verbatim
pub const DOP853_ER: [f64; 12] = [
    0.1312004499419488073250102996e-01,
    0.0, 0.0, 0.0, 0.0,
    -0.1225156446376204440720569753e+01,
    -0.4957589496572501915214079952e+00,
    0.1664377182454986536961530415e+01,
    -0.3503288487499736816886487290e+00,
    0.3341791187130174790297318841e+00,
    0.8192320648511571246570742613e-01,
    -0.2235530786388629525884427845e-01,
];

/// DOP853's third-order weights `bhh` on stages 1, 9 and 12 (Hairer's `dop853.f`, parameters
/// `bhh1 … bhh3`), as a 12-stage weight vector: the code's second error estimate is
/// `err3 = h Σ_i (b_i − bhh_i) k_i`. They satisfy the order conditions up to order 3
/// (checked in the tests).
#[rustfmt::skip]
#[allow(clippy::excessive_precision)] // the published 30 digits, kept verbatim
pub const DOP853_BHH: [f64; 12] = [
    0.244094488188976377952755905512e+00,
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    0.733846688281611857341361741547e+00,
    0.0, 0.0,
    0.220588235294117647058823529412e-01,
];

/// `x − y` entrywise, at compile time.
const fn difference<const N: usize>(x: [f64; N], y: [f64; N]) -> [f64; N] {
    let mut out = [0.0; N];
    let mut i = 0;
    while i < N {
        out[i] = x[i] - y[i];
        i += 1;
    }
    out
}

/// The row-major `A` of a method whose last row is `b` (FSAL or stiffly accurate) from its
/// first `s − 1` rows (`R = s(s − 1)` entries) and `b`: `b` is written once.
pub(super) const fn with_last_row<const R: usize, const S: usize, const M: usize>(
    rows: [f64; R],
    b: [f64; S],
) -> [f64; M] {
    let mut out = [0.0; M];
    let mut k = 0;
    while k < M {
        out[k] = if k < R { rows[k] } else { b[k - R] };
        k += 1;
    }
    out
}

const DOP853_B_HAT: [f64; 12] = difference(DOP853_B, DOP853_ER);

/// Hairer's DOP853: the explicit 12-stage Dormand–Prince method of order 8, with the
/// fifth-order embedded weights `b̂ = b − er` ([`DOP853_ER`]); its third-order weights are
/// [`DOP853_BHH`]. The coefficients are those of `dop853.f` (30 significant digits, rounded to
/// `f64` here): `c_2 … c_12`, `a_ij` and `b_1, b_6 … b_12` (zeros elsewhere; `c_12 = 1`). Not
/// FSAL in the tableau sense: the code's 13th evaluation `f(t₀ + h, y₁)` is the next step's
/// first stage but not a stage of this tableau. The three extra stages of the code's
/// seventh-order dense output are not stored.
///
/// ```text
/// c_2 = 0.0526…, c_3 = 0.0789…, c_4 = 0.1183…, c_5 = 0.2816…, c_6 = 1/3, c_7 = 1/4,
/// c_8 = 4/13, c_9 = 127/195, c_10 = 3/5, c_11 = 6/7, c_12 = 1
/// ```
///
/// # References
/// P. J. Prince, J. R. Dormand, *J. Comput. Appl. Math.* 7 (1981) 67–75; HNW I, §II.5 and
/// §II.10; E. Hairer, G. Wanner, `dop853.f` (version of April 25, 1996, corrected March 4,
/// 2002), subroutine `DP86CO`.
pub const DOP853: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("DOP853"),
    stages: 12,
    a: Cow::Borrowed(&DOP853_A),
    b: Cow::Borrowed(&DOP853_B),
    c: Cow::Borrowed(&DOP853_C),
    b_hat: Some(Cow::Borrowed(&DOP853_B_HAT)),
    dense: None,
    order: 8,
    embedded_order: Some(5),
    fsal: false,
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed(
        "Prince & Dormand, J. Comput. Appl. Math. 7 (1981) 67-75; HNW I, §II.5, §II.10; \
         Hairer & Wanner, dop853.f (1996/2002)",
    ),
};

/// Tsit5's first six rows of `A` (Tsitouras 2011; first column from the row sums).
#[rustfmt::skip]
#[allow(clippy::excessive_precision)] // the published digits (with trailing zeros), verbatim
const TSIT5_A_ROWS: [f64; 42] = [
    0.0,                0.0,                0.0,               0.0,                  0.0,                  0.0, 0.0,
    0.161,              0.0,                0.0,               0.0,                  0.0,                  0.0, 0.0,
    -0.008480655492357, 0.3354806554923570, 0.0,               0.0,                  0.0,                  0.0, 0.0,
    2.897153057105494,  -6.359448489975075, 4.362295432869581, 0.0,                  0.0,                  0.0, 0.0,
    5.325864828439259,  -11.74888356406283, 7.495539342889836, -0.09249506636175525, 0.0,                  0.0, 0.0,
    5.86145544294642,   -12.92096931784711, 8.159367898576159, -0.07158497328140100, -0.02826905039406838, 0.0, 0.0,
];

/// Tsit5's fifth-order weights `b` (Tsitouras 2011), also the last row of `A`.
#[rustfmt::skip]
const TSIT5_B: [f64; 7] = [
    0.09646076681806523, 0.01, 0.4798896504144996, 1.379008574103742, -3.290069515436081,
    2.324710524099774, 0.0,
];

/// Tsit5's error coefficients `e = b − b̂` (Tsitouras 2011, with `e_7 = −1/66`).
#[rustfmt::skip]
const TSIT5_E: [f64; 7] = [
    0.001780011052226, 0.000816434459657, -0.007880878010262, 0.144711007173263,
    -0.582357165452555, 0.458082105929187, -1.0 / 66.0,
];

const TSIT5_A: [f64; 49] = with_last_row(TSIT5_A_ROWS, TSIT5_B);
const TSIT5_B_HAT: [f64; 7] = difference(TSIT5_B, TSIT5_E);

/// Tsitouras' 5(4) pair (Tsit5), FSAL: order 5 with an embedded order-4 estimate.
///
/// The coefficients are the 16-digit values of Tsitouras' coefficient table: `c = (0, 0.161, 0.327, 0.9,
/// 0.9800255409045097, 1, 1)`, `a_ij` for `j ≥ 2` and `b`; the first column follows from the
/// row sums, `a_i1 = c_i − Σ_{j≥2} a_ij`, as in the paper. The embedded weights are
/// `b̂ = b − e` with the paper's error coefficients
/// `e = (0.001780011052226, 0.000816434459657, −0.007880878010262, 0.144711007173263,
/// −0.582357165452555, 0.458082105929187, −1/66)` (the sign of `e` is immaterial to the order:
/// `Σ_i e_i Φ_i(t) = 0` for every tree with up to 4 nodes).
///
/// ```text
/// c_i   | a_i1 … (first column from the row sums)
/// 0.161 | 0.161
/// 0.327 | −0.008480655492357  0.3354806554923570
/// 0.9   | 2.897153057105494   −6.359448489975075  4.362295432869581
/// …     | …
/// 1     | b_1 … b_6 (FSAL)
/// ```
///
/// # References
/// Ch. Tsitouras, *Comput. Math. Appl.* 62 (2011) 770–775.
pub const TSIT5: ButcherTableau = ButcherTableau {
    name: Cow::Borrowed("Tsit5"),
    stages: 7,
    a: Cow::Borrowed(&TSIT5_A),
    b: Cow::Borrowed(&TSIT5_B),
    c: Cow::Borrowed(&[0.0, 0.161, 0.327, 0.9, 0.9800255409045097, 1.0, 1.0]),
    b_hat: Some(Cow::Borrowed(&TSIT5_B_HAT)),
    dense: None,
    order: 5,
    embedded_order: Some(4),
    fsal: true,
    family: Family::Classical,
    commutator_free: None,
    reference: Cow::Borrowed("Tsitouras, Comput. Math. Appl. 62 (2011) 770-775"),
};
