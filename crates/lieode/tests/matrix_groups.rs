//! Matrix functions (expm, its Fréchet derivative, logm, Cayley) and the matrix groups
//! GL(n), SL(n), SO(n): closed forms, inverse pairs, derivatives against `num-dual` and finite
//! differences, agreement with the closed-form SO(3), and error variants for bad input.

use lieode::Error;
use lieode::lie::matrix_functions::{
    cayley, cayley_inverse, dcay, dcay_inv, expm, expm_frechet, logm,
};
use lieode::lie::matrix_group::{
    General, Gl, GlAlgebra, MatrixAlgebra, MatrixGroup, MatrixKind, Orthogonal, Sl, SlAlgebra, SoN,
    SoNAlgebra, Special,
};
use lieode::lie::series::dexp_series;
use lieode::lie::so3::{So3, So3Algebra, hat};
use lieode::lie::{LieAlgebra, LieGroup};
use nalgebra::{
    DefaultAllocator, Matrix2, Matrix3, Matrix4, SMatrix, SVector, Vector3, allocator::Allocator,
};
use num_dual::Dual64;

/// SplitMix64: a small deterministic generator, uniform in `[-1, 1)`.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
    fn matrix<const N: usize>(&mut self) -> SMatrix<f64, N, N> {
        SMatrix::from_fn(|_, _| self.uniform())
    }
}

fn dual_matrix<const N: usize>(
    a: &SMatrix<f64, N, N>,
    e: &SMatrix<f64, N, N>,
) -> SMatrix<Dual64, N, N> {
    SMatrix::from_fn(|i, j| Dual64::new(a[(i, j)], e[(i, j)]))
}

fn re<const N: usize>(a: &SMatrix<Dual64, N, N>) -> SMatrix<f64, N, N> {
    a.map(|x| x.re)
}

fn eps<const N: usize>(a: &SMatrix<Dual64, N, N>) -> SMatrix<f64, N, N> {
    a.map(|x| x.eps)
}

/// `‖a − b‖_F / max(1, ‖b‖_F)`.
fn rel<const N: usize>(a: &SMatrix<f64, N, N>, b: &SMatrix<f64, N, N>) -> f64 {
    (a - b).norm() / b.norm().max(1.0)
}

/// A random `X` with `‖X_sym‖_F = sym` and `‖X_skew‖_F = skew`: by Bendixson's theorem its
/// eigenvalues have `|Im λ| ≤ skew`, so `logm(expm(X)) = X` for `skew < π`.
fn random_log<const N: usize>(rng: &mut Rng, sym: f64, skew: f64) -> SMatrix<f64, N, N> {
    let r = rng.matrix::<N>();
    let s = (r + r.transpose()) * 0.5;
    let r = rng.matrix::<N>();
    let k = (r - r.transpose()) * 0.5;
    s * (sym / s.norm()) + k * (skew / k.norm().max(1e-300))
}

// ---------------------------------------------------------------------------------------------
// expm
// ---------------------------------------------------------------------------------------------

#[test]
fn expm_of_the_rotation_generator_is_a_rotation() {
    for theta in [0.0, 1e-9, 0.5, std::f64::consts::PI, 10.0, 50.0] {
        let r = expm(&Matrix2::new(0.0, -theta, theta, 0.0));
        let (s, c) = f64::sin_cos(theta);
        let err = (r - Matrix2::new(c, -s, s, c)).norm();
        // The conditioning of sin/cos at θ is about θ ulp.
        assert!(err <= 4e-16 * theta.max(1.0), "θ = {theta}: {err:e}");
    }
}

#[test]
fn expm_of_nilpotent_and_jordan_matrices() {
    let n = Matrix4::new(
        0.0, 1.5, -2.0, 0.25, 0.0, 0.0, 3.0, -1.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.0,
    );
    let exact = Matrix4::identity() + n + n * n / 2.0 + n * n * n / 6.0;
    assert!(rel(&expm(&n), &exact) < 1e-15);
    // [[λ, 1], [0, λ]] ↦ e^λ [[1, 1], [0, 1]].
    for lambda in [-20.0, -1.0, 0.3, 7.0, 30.0] {
        let got = expm(&Matrix2::new(lambda, 1.0, 0.0, lambda));
        let want = Matrix2::new(1.0, 1.0, 0.0, 1.0) * f64::exp(lambda);
        let err = (got - want).norm() / want.norm();
        assert!(err < 5e-15, "λ = {lambda}: {err:e}");
    }
}

#[test]
fn expm_of_diagonal_matrices_is_entrywise_accurate() {
    let mut worst: f64 = 0.0;
    for d in [
        [1e-12, -1e-12, 0.0, 1.0, -1.0],
        [50.0, -50.0, 0.5, 20.0, -3.0],
        [-49.0, -50.0, -48.0, -25.0, -47.5],
        [35.0, 49.9, 42.0, 0.0, 12.5],
    ] {
        let e = expm(&SMatrix::<f64, 5, 5>::from_diagonal(&SVector::from(d)));
        for i in 0..5 {
            let want = d[i].exp();
            worst = worst.max(((e[(i, i)] - want) / want).abs());
            for j in 0..5 {
                if i != j {
                    assert_eq!(e[(i, j)], 0.0);
                }
            }
        }
    }
    eprintln!("expm diagonal (|d| ≤ 50): worst relative entry error {worst:e}");
    assert!(worst < 2e-14, "{worst:e}");
}

#[test]
fn expm_of_non_finite_input_is_non_finite() {
    let mut a = Matrix3::<f64>::identity();
    a[(1, 2)] = f64::NAN;
    assert!(expm(&a).iter().all(|x| x.is_nan()));
    a[(1, 2)] = f64::INFINITY;
    assert!(!expm(&a).iter().all(|x| x.is_finite()));
}

// ---------------------------------------------------------------------------------------------
// logm
// ---------------------------------------------------------------------------------------------

fn check_exp_log_round_trips<const N: usize>(rng: &mut Rng) -> (f64, f64) {
    let mut worst_exp_log: f64 = 0.0;
    let mut worst_log_exp: f64 = 0.0;
    for trial in 0..20 {
        // A well-conditioned matrix with spectrum in the disc |λ − s| ≤ 1.2, s ≥ 1.5.
        let r = rng.matrix::<N>();
        let a =
            SMatrix::<f64, N, N>::identity() * (1.5 + 0.1 * trial as f64) + r * (1.2 / r.norm());
        let x = logm(&a).unwrap();
        worst_exp_log = worst_exp_log.max(rel(&expm(&x), &a));
        // X with |Im λ| ≤ 3 < π and a real spread of up to 4.
        let x = random_log::<N>(rng, 0.2 * trial as f64, 3.0 * (trial + 1) as f64 / 20.0);
        let back = logm(&expm(&x)).unwrap();
        worst_log_exp = worst_log_exp.max(rel(&back, &x));
    }
    (worst_exp_log, worst_log_exp)
}

#[test]
fn expm_and_logm_are_inverse_for_sizes_2_to_6() {
    let mut rng = Rng(17);
    let results = [
        check_exp_log_round_trips::<2>(&mut rng),
        check_exp_log_round_trips::<3>(&mut rng),
        check_exp_log_round_trips::<4>(&mut rng),
        check_exp_log_round_trips::<5>(&mut rng),
        check_exp_log_round_trips::<6>(&mut rng),
    ];
    for (n, (exp_log, log_exp)) in (2..).zip(results) {
        eprintln!("n = {n}: ‖expm(logm A) − A‖ {exp_log:.1e}, ‖logm(expm X) − X‖ {log_exp:.1e}");
        assert!(exp_log < 1e-14, "n = {n}: expm(logm(A)) {exp_log:e}");
        assert!(log_exp < 1e-13, "n = {n}: logm(expm(X)) {log_exp:e}");
    }
}

#[test]
fn logm_of_matrices_with_wide_spectra() {
    // Condition number e⁶⁰: diagonal and triangular, where the spectrum is exact.
    let a = Matrix3::from_diagonal(&Vector3::new(
        30.0_f64.exp(),
        (-30.0_f64).exp(),
        1.0_f64.exp(),
    ));
    let x = logm(&a).unwrap();
    let err = rel(&x, &Matrix3::from_diagonal(&Vector3::new(30.0, -30.0, 1.0)));
    assert!(err < 1e-15, "{err:e}");
    // log [[a, c], [0, b]] = [[log a, c (log a − log b)/(a − b)], [0, log b]].
    let (p, q, c) = (30.0_f64, -30.0_f64, 2.0);
    let a = Matrix2::new(p.exp(), c, 0.0, q.exp());
    let want = Matrix2::new(p, c * (p - q) / (p.exp() - q.exp()), 0.0, q);
    let x = logm(&a).unwrap();
    // Normwise accuracy (the off-diagonal entry, 10⁻¹¹ of the norm, is not resolved entrywise).
    let err = rel(&x, &want);
    eprintln!("logm of triangular [[e^30, 2], [0, e^-30]]: normwise relative error {err:e}");
    assert!(err < 1e-15, "{err:e}");
    assert!(((x[(1, 1)] - q) / q).abs() < 1e-14 && ((x[(0, 0)] - p) / p).abs() < 1e-14);
}

#[test]
fn logm_derivative_through_dual_numbers() {
    // d/ds expm(logm(A + sE)) = E.
    let mut rng = Rng(5);
    let a = Matrix4::identity() * 2.0 + rng.matrix::<4>();
    let e = rng.matrix::<4>();
    let x = logm(&dual_matrix(&a, &e)).unwrap();
    let round = expm(&x);
    assert!(rel(&re(&round), &a) < 1e-14);
    let err = rel(&eps(&round), &e);
    assert!(err < 1e-13, "{err:e}");
    // and against central differences of logm itself.
    let h = 1e-6;
    let fd = (logm(&(a + e * h)).unwrap() - logm(&(a - e * h)).unwrap()) / (2.0 * h);
    assert!(rel(&eps(&x), &fd) < 1e-8);
}

#[test]
fn logm_errors() {
    // det < 0: no real logarithm, and the message says why.
    let reflection = Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, -2.0));
    match logm(&reflection) {
        Err(Error::NoRealLogarithm { group, reason }) => {
            assert_eq!(group, "GL(n)");
            assert!(reason.contains("determinant"), "{reason}");
        }
        other => panic!("expected NoRealLogarithm, got {other:?}"),
    }
    // Eigenvalues exactly on the negative real axis with det > 0.
    for a in [
        Matrix3::from_diagonal(&Vector3::new(1.0, -1.0, -1.0)),
        Matrix3::from_diagonal(&Vector3::new(2.0, -3.0, -0.5)),
        Matrix3::from_diagonal(&Vector3::new(-2.0, -2.0, 1.0)),
    ] {
        assert!(
            matches!(logm(&a), Err(Error::NoRealLogarithm { .. })),
            "{a}"
        );
    }
    // det < 0 but too badly conditioned for the LU determinant's sign to be trusted: the
    // square-root iteration fails instead.
    let bad = Matrix3::from_diagonal(&Vector3::new(1e10, -1e-10, 1.0));
    assert!(matches!(logm(&bad), Err(Error::NoRealLogarithm { .. })));
    let mut a = Matrix3::<f64>::identity();
    a[(0, 1)] = f64::NAN;
    assert!(matches!(logm(&a), Err(Error::NonFinite { name: "a" })));
}

// ---------------------------------------------------------------------------------------------
// Fréchet derivative
// ---------------------------------------------------------------------------------------------

fn check_frechet<const N: usize>(rng: &mut Rng, norm: f64) -> (f64, f64) {
    let a = rng.matrix::<N>();
    let a = a * (norm / a.norm());
    let e = rng.matrix::<N>();
    let (f, l) = expm_frechet(&a, &e);
    assert_eq!(f, expm(&a));
    let dual = expm(&dual_matrix(&a, &e));
    assert!(rel(&re(&dual), &f) < 1e-15);
    let scale = l.norm().max(f.norm());
    let dual_err = (eps(&dual) - l).norm() / scale;
    let h = 1e-5 * norm.max(1.0).recip();
    let fd = (expm(&(a + e * h)) - expm(&(a - e * h))) / (2.0 * h);
    let fd_err = (fd - l).norm() / scale;
    (dual_err, fd_err)
}

#[test]
fn expm_frechet_matches_dual_numbers_and_finite_differences() {
    let mut rng = Rng(3);
    for norm in [1e-3, 0.5, 2.0, 8.0, 20.0] {
        let results = [
            check_frechet::<2>(&mut rng, norm),
            check_frechet::<3>(&mut rng, norm),
            check_frechet::<4>(&mut rng, norm),
            check_frechet::<6>(&mut rng, norm),
        ];
        for (dual_err, fd_err) in results {
            eprintln!("‖A‖ = {norm}: L vs dual {dual_err:.1e}, vs central FD {fd_err:.1e}");
            assert!(dual_err < 1e-14, "‖A‖ = {norm}: {dual_err:e}");
            assert!(fd_err < 1e-7, "‖A‖ = {norm}: {fd_err:e}");
        }
    }
}

#[test]
fn expm_frechet_commuting_directions() {
    // L(A, A) = A e^A.
    let mut rng = Rng(11);
    let a = rng.matrix::<5>() * 2.0;
    let (f, l) = expm_frechet(&a, &a);
    assert!(rel(&l, &(a * f)) < 1e-14);
}

// ---------------------------------------------------------------------------------------------
// Matrix groups: dexp and dexp⁻¹
// ---------------------------------------------------------------------------------------------

fn random_element<const N: usize, K: MatrixKind<N>>(
    rng: &mut Rng,
    norm: f64,
) -> MatrixAlgebra<f64, N, K> {
    let m = MatrixAlgebra::<f64, N, K>::project(&rng.matrix::<N>());
    MatrixAlgebra::project(&(m.matrix() * (norm / m.matrix().norm())))
}

fn check_dexp_inverse<const N: usize, K: MatrixKind<N>>(rng: &mut Rng) -> f64 {
    let mut worst: f64 = 0.0;
    for norm in [0.0_f64, 1e-6, 0.3, 1.0, 2.5] {
        let xi = random_element::<N, K>(rng, norm.max(1e-300));
        let v = random_element::<N, K>(rng, 1.0);
        let w = MatrixGroup::<f64, N, K>::dexp(&xi, &v);
        let back = MatrixGroup::<f64, N, K>::dexp_inv(&xi, &w);
        worst = worst.max(rel(back.matrix(), v.matrix()));
        let u = MatrixGroup::<f64, N, K>::dexp_inv(&xi, &v);
        let forth = MatrixGroup::<f64, N, K>::dexp(&xi, &u);
        worst = worst.max(rel(forth.matrix(), v.matrix()));
    }
    worst
}

#[test]
fn dexp_inv_inverts_dexp_for_gl_sl_so() {
    let mut rng = Rng(23);
    let results = [
        ("GL(2)", check_dexp_inverse::<2, General>(&mut rng)),
        ("GL(3)", check_dexp_inverse::<3, General>(&mut rng)),
        ("GL(5)", check_dexp_inverse::<5, General>(&mut rng)),
        ("SL(2)", check_dexp_inverse::<2, Special>(&mut rng)),
        ("SL(4)", check_dexp_inverse::<4, Special>(&mut rng)),
        ("SL(6)", check_dexp_inverse::<6, Special>(&mut rng)),
        ("SO(2)", check_dexp_inverse::<2, Orthogonal>(&mut rng)),
        ("SO(3)", check_dexp_inverse::<3, Orthogonal>(&mut rng)),
        ("SO(4)", check_dexp_inverse::<4, Orthogonal>(&mut rng)),
        ("SO(7)", check_dexp_inverse::<7, Orthogonal>(&mut rng)),
        ("GL(8)", check_dexp_inverse::<8, General>(&mut rng)),
    ];
    for (name, err) in results {
        eprintln!("{name}: dexp ∘ dexp⁻¹ − id: {err:.1e}");
        assert!(err < 1e-14, "{name}: {err:e}");
    }
}

fn check_dexp_series<const N: usize, K: MatrixKind<N>>(rng: &mut Rng) -> f64 {
    let xi = random_element::<N, K>(rng, 0.3);
    let v = random_element::<N, K>(rng, 1.0);
    let exact = MatrixGroup::<f64, N, K>::dexp(&xi, &v);
    let series = dexp_series(&xi, &v, 40);
    let inv_series = lieode::lie::series::dexp_inv_series(&xi, &v, 40);
    let inv = MatrixGroup::<f64, N, K>::dexp_inv(&xi, &v);
    rel(exact.matrix(), series.matrix()).max(rel(inv.matrix(), inv_series.matrix()))
}

#[test]
fn dexp_and_dexp_inv_equal_their_series_for_small_arguments() {
    let mut rng = Rng(29);
    for err in [
        check_dexp_series::<3, General>(&mut rng),
        check_dexp_series::<4, Special>(&mut rng),
        check_dexp_series::<5, Orthogonal>(&mut rng),
    ] {
        assert!(err < 1e-15, "{err:e}");
    }
}

fn check_dexp_derivative<const N: usize, K: MatrixKind<N>>(rng: &mut Rng) -> f64 {
    // d/ds exp(u + s v)|₀ · exp(u)⁻¹ = dexp_u(v), with s a dual number.
    let u = random_element::<N, K>(rng, 1.5);
    let v = random_element::<N, K>(rng, 1.0);
    let ud =
        MatrixAlgebra::<Dual64, N, K>::from_matrix_unchecked(dual_matrix(u.matrix(), v.matrix()));
    let g = MatrixGroup::<Dual64, N, K>::exp(&ud);
    let derivative = eps(g.matrix()) * expm(&(-u.matrix()));
    let dexp = MatrixGroup::<f64, N, K>::dexp(&u, &v);
    // Right-trivialised: exp(u)⁻¹ · d/ds exp(u + s v) = dexp_{−u}(v).
    let right = expm(&(-u.matrix())) * eps(g.matrix());
    let dexp_right = MatrixGroup::<f64, N, K>::dexp(&u.neg(), &v);
    rel(&derivative, dexp.matrix()).max(rel(&right, dexp_right.matrix()))
}

#[test]
fn dexp_is_the_left_trivialised_derivative_of_exp() {
    let mut rng = Rng(31);
    for err in [
        check_dexp_derivative::<2, General>(&mut rng),
        check_dexp_derivative::<4, General>(&mut rng),
        check_dexp_derivative::<3, Special>(&mut rng),
        check_dexp_derivative::<3, Orthogonal>(&mut rng),
        check_dexp_derivative::<6, Orthogonal>(&mut rng),
    ] {
        assert!(err < 1e-14, "{err:e}");
    }
}

#[test]
fn dexp_inv_of_non_finite_input_is_not_finite() {
    let mut m = Matrix3::zeros();
    m[(0, 1)] = f64::NAN;
    let xi = GlAlgebra::<f64, 3>::from_matrix_unchecked(m);
    let v = GlAlgebra::<f64, 3>::from_matrix_unchecked(Matrix3::identity());
    assert!(!Gl::<f64, 3>::dexp_inv(&xi, &v).is_finite());
}

// ---------------------------------------------------------------------------------------------
// Group structure, coordinates and membership
// ---------------------------------------------------------------------------------------------

#[test]
fn coordinates_round_trip_and_match_the_documented_layout() {
    // gl(2): column-major.
    let m = Matrix2::new(1.0, 2.0, 3.0, 4.0);
    let x = GlAlgebra::<f64, 2>::from_matrix(m).unwrap();
    assert_eq!(x.to_coords(), SVector::<f64, 4>::new(1.0, 3.0, 2.0, 4.0));
    // sl(2): all entries but the last diagonal one.
    let x = SlAlgebra::<f64, 2>::from_coords(&Vector3::new(0.5, 3.0, 2.0));
    assert_eq!(*x.matrix(), Matrix2::new(0.5, 2.0, 3.0, -0.5));
    assert_eq!(x.to_coords(), Vector3::new(0.5, 3.0, 2.0));
    // so(2): ξ = [[0, −c], [c, 0]].
    let x = SoNAlgebra::<f64, 2>::from_coords(&SVector::<f64, 1>::new(0.7));
    assert_eq!(*x.matrix(), Matrix2::new(0.0, -0.7, 0.7, 0.0));
    // so(3): the axial vector of `so3::hat`.
    let v = Vector3::new(0.1, -0.2, 0.3);
    let x = SoNAlgebra::<f64, 3>::from_coords(&v);
    assert_eq!(*x.matrix(), hat(&v));
    assert_eq!(x.to_coords(), v);
    // so(4): pairs (0,1), (0,2), (0,3), (1,2), (1,3), (2,3), entry ξ_{ji}.
    let c = SVector::<f64, 6>::new(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
    let x = SoNAlgebra::<f64, 4>::from_coords(&c);
    let m = x.matrix();
    assert_eq!(
        (
            m[(1, 0)],
            m[(2, 0)],
            m[(3, 0)],
            m[(2, 1)],
            m[(3, 1)],
            m[(3, 2)]
        ),
        (1.0, 2.0, 3.0, 4.0, 5.0, 6.0)
    );
    assert_eq!(*m, -m.transpose());
    assert_eq!(x.to_coords(), c);
    assert!((x.norm() - c.norm()).abs() < 1e-15);
    // The norm is differentiable (zero derivative) at zero.
    let zero = SoNAlgebra::<Dual64, 4>::zero();
    assert_eq!(zero.norm().eps, 0.0);
    // Algebra membership is checked and the round-off projected away.
    let mut almost = hat(&v);
    almost[(0, 0)] = 1e-14;
    let x = SoNAlgebra::<f64, 3>::from_matrix(almost).unwrap();
    assert_eq!(*x.matrix(), hat(&v));
    assert!(matches!(
        SlAlgebra::<f64, 3>::from_matrix(Matrix3::identity()),
        Err(Error::NotOnGroup {
            group: "sl(3)",
            constraint: "tr m = 0",
            ..
        })
    ));
}

#[test]
fn names_and_dimensions() {
    assert_eq!(Gl::<f64, 4>::NAME, "GL(4)");
    assert_eq!(Sl::<f64, 2>::NAME, "SL(2)");
    assert_eq!(SoN::<f64, 8>::NAME, "SO(8)");
    assert_eq!(GlAlgebra::<f64, 8>::dim(), 64);
    assert_eq!(SlAlgebra::<f64, 5>::dim(), 24);
    assert_eq!(SoNAlgebra::<f64, 7>::dim(), 21);
}

fn check_group_laws<const N: usize, K: MatrixKind<N>>(rng: &mut Rng)
where
    DefaultAllocator: Allocator<K::Dim>,
{
    let xi = random_element::<N, K>(rng, 1.2);
    let eta = random_element::<N, K>(rng, 0.8);
    let g = MatrixGroup::<f64, N, K>::exp(&xi);
    let h = MatrixGroup::<f64, N, K>::exp(&eta);
    let id = MatrixGroup::<f64, N, K>::identity();
    assert!(rel(g.compose(&g.inverse()).matrix(), id.matrix()) < 1e-14);
    assert!(
        rel(
            g.inverse().matrix(),
            MatrixGroup::<f64, N, K>::exp(&xi.neg()).matrix()
        ) < 1e-14
    );
    // exp(Ad_h ξ) = h exp(ξ) h⁻¹.
    let lhs = MatrixGroup::<f64, N, K>::exp(&h.adjoint(&xi));
    let rhs = h.compose(&g).compose(&h.inverse());
    assert!(rel(lhs.matrix(), rhs.matrix()) < 1e-13);
    // Round trips through log and through membership validation.
    assert!(rel(g.log().unwrap().matrix(), xi.matrix()) < 1e-14);
    let checked = MatrixGroup::<f64, N, K>::from_matrix(*g.compose(&h).matrix()).unwrap();
    let d = checked.distance(&g.compose(&h)).unwrap();
    assert!(d < 1e-14, "{d:e}");
    // Coordinates round trip.
    let c = xi.to_coords();
    assert_eq!(MatrixAlgebra::<f64, N, K>::from_coords(&c).to_coords(), c);
}

#[test]
fn group_laws_hold() {
    let mut rng = Rng(37);
    check_group_laws::<2, General>(&mut rng);
    check_group_laws::<4, General>(&mut rng);
    check_group_laws::<3, Special>(&mut rng);
    check_group_laws::<5, Special>(&mut rng);
    check_group_laws::<2, Orthogonal>(&mut rng);
    check_group_laws::<3, Orthogonal>(&mut rng);
    check_group_laws::<6, Orthogonal>(&mut rng);
}

#[test]
fn logs_lie_in_the_algebra() {
    let mut rng = Rng(41);
    let xi = random_element::<4, Orthogonal>(&mut rng, 2.0);
    let x = SoN::<f64, 4>::exp(&xi).log().unwrap();
    assert_eq!(*x.matrix(), -x.matrix().transpose());
    let xi = random_element::<4, Special>(&mut rng, 2.0);
    let x = Sl::<f64, 4>::exp(&xi).log().unwrap();
    assert!(x.matrix().trace().abs() < 1e-15);
}

#[test]
fn so3_matrix_group_agrees_with_so3() {
    let mut rng = Rng(43);
    let mut worst: f64 = 0.0;
    for angle in [0.0, 1e-8, 0.1, 1.0, 2.5, 3.0, 3.1] {
        let axis = Vector3::new(rng.uniform(), rng.uniform(), rng.uniform()).normalize();
        let v = axis * angle;
        let w = Vector3::new(rng.uniform(), rng.uniform(), rng.uniform());
        let (x, y) = (So3Algebra::new(v), So3Algebra::new(w));
        let (xm, ym) = (
            SoNAlgebra::<f64, 3>::from_coords(&v),
            SoNAlgebra::<f64, 3>::from_coords(&w),
        );
        let r = So3::exp(&x);
        let rm = SoN::<f64, 3>::exp(&xm);
        worst = worst.max((rm.matrix() - r.matrix()).norm());
        let log = SoN::<f64, 3>::from_matrix(*r.matrix())
            .unwrap()
            .log()
            .unwrap();
        worst = worst.max((log.to_coords() - r.log().unwrap().to_coords()).norm() / angle.max(1.0));
        worst = worst.max(
            (SoN::<f64, 3>::dexp(&xm, &ym).to_coords() - So3::dexp(&x, &y).to_coords()).norm(),
        );
        worst = worst.max(
            (SoN::<f64, 3>::dexp_inv(&xm, &ym).to_coords() - So3::dexp_inv(&x, &y).to_coords())
                .norm(),
        );
        worst = worst.max((rm.adjoint(&ym).to_coords() - r.adjoint(&y).to_coords()).norm());
        worst = worst.max((xm.bracket(&ym).to_coords() - v.cross(&w)).norm());
    }
    eprintln!("SO(3) matrix group vs So3: {worst:e}");
    assert!(worst < 1e-13, "{worst:e}");
}

#[test]
fn rotation_by_pi_has_no_principal_logarithm() {
    let n = Vector3::new(0.0, 0.6, 0.8);
    let exact_pi = [
        Matrix3::from_diagonal(&Vector3::new(1.0, -1.0, -1.0)),
        n * n.transpose() * 2.0 - Matrix3::identity(),
        *So3::exp(&So3Algebra::new(
            Vector3::new(1.0, 2.0, 2.0) * (std::f64::consts::PI / 3.0),
        ))
        .matrix(),
    ];
    for r in exact_pi {
        let g = SoN::<f64, 3>::from_matrix(r).unwrap();
        match g.log() {
            Err(Error::NoRealLogarithm { group, reason }) => {
                assert_eq!(group, "SO(3)");
                assert!(reason.contains("π"), "{reason}");
            }
            other => panic!("expected NoRealLogarithm, got {other:?}"),
        }
    }
    // Close to π the logarithm still works (ill-conditioned: error ≈ u/ε).
    let v = Vector3::new(1.0, 2.0, 2.0) * ((std::f64::consts::PI - 1e-6) / 3.0);
    let r = So3::exp(&So3Algebra::new(v));
    let log = SoN::<f64, 3>::from_matrix(*r.matrix())
        .unwrap()
        .log()
        .unwrap();
    assert!((log.to_coords() - v).norm() < 1e-8);
    // Either side of the π detection threshold (1/cond₁(I + R) ≈ ε/4 vs 1e-13).
    let v = Vector3::new(1.0, 2.0, 2.0) * ((std::f64::consts::PI - 1e-10) / 3.0);
    let r = So3::exp(&So3Algebra::new(v));
    let log = SoN::<f64, 3>::from_matrix(*r.matrix())
        .unwrap()
        .log()
        .unwrap();
    assert!((log.to_coords() - v).norm() < 1e-4);
    let v = Vector3::new(1.0, 2.0, 2.0) * ((std::f64::consts::PI - 1e-14) / 3.0);
    let r = SoN::<f64, 3>::exp(&SoNAlgebra::from_coords(&v));
    assert!(matches!(r.log(), Err(Error::NoRealLogarithm { .. })));
    // A rotation by π in SO(2) is −I.
    let minus_id = SoN::<f64, 2>::from_matrix(-Matrix2::identity()).unwrap();
    assert!(matches!(
        minus_id.log(),
        Err(Error::NoRealLogarithm { group: "SO(2)", .. })
    ));
}

#[test]
fn group_log_is_differentiable_with_dual_numbers() {
    // d/ds log(exp(ξ + s v))|₀ = v.
    let mut rng = Rng(59);
    let xi = random_element::<4, Orthogonal>(&mut rng, 2.8);
    let v = random_element::<4, Orthogonal>(&mut rng, 1.0);
    let xd = SoNAlgebra::<Dual64, 4>::from_matrix_unchecked(dual_matrix(xi.matrix(), v.matrix()));
    let log = SoN::<Dual64, 4>::exp(&xd).log().unwrap();
    assert!(rel(&re(log.matrix()), xi.matrix()) < 1e-14);
    assert!(rel(&eps(log.matrix()), v.matrix()) < 1e-13);
    let xi = random_element::<3, Special>(&mut rng, 1.5);
    let v = random_element::<3, Special>(&mut rng, 1.0);
    let xd = SlAlgebra::<Dual64, 3>::from_matrix_unchecked(dual_matrix(xi.matrix(), v.matrix()));
    let log = Sl::<Dual64, 3>::exp(&xd).log().unwrap();
    assert!(rel(&eps(log.matrix()), v.matrix()) < 1e-13);
    // dexp⁻¹ with dual numbers: d/ds dexp⁻¹_{ξ + s v}(w) against central differences.
    let w = random_element::<3, Special>(&mut rng, 1.0);
    let wd = SlAlgebra::<Dual64, 3>::from_matrix_unchecked(w.matrix().map(Dual64::from_re));
    let d = eps(Sl::<Dual64, 3>::dexp_inv(&xd, &wd).matrix());
    let h = 1e-6;
    let plus = Sl::<f64, 3>::dexp_inv(&xi.axpy(h, &v), &w);
    let minus = Sl::<f64, 3>::dexp_inv(&xi.axpy(-h, &v), &w);
    let fd = (plus.matrix() - minus.matrix()) / (2.0 * h);
    assert!(rel(&d, &fd) < 1e-8);
}

#[test]
fn gl_logarithm_fails_across_components() {
    let g = Gl::<f64, 2>::from_matrix(Matrix2::new(0.0, 1.0, 1.0, 0.0)).unwrap();
    match g.log() {
        Err(Error::NoRealLogarithm { group, reason }) => {
            assert_eq!(group, "GL(2)");
            assert!(reason.contains("determinant"));
        }
        other => panic!("expected NoRealLogarithm, got {other:?}"),
    }
    assert!(Gl::<f64, 2>::identity().distance(&g).is_err());
    let nan = Gl::<f64, 2>::from_matrix_unchecked(Matrix2::new(f64::NAN, 0.0, 0.0, 1.0));
    assert!(matches!(nan.log(), Err(Error::NonFinite { .. })));
}

#[test]
fn constructors_validate() {
    let not_orthogonal = Matrix3::new(1.0, 0.1, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0);
    assert!(matches!(
        SoN::<f64, 3>::from_matrix(not_orthogonal),
        Err(Error::NotOnGroup {
            group: "SO(3)",
            name: "m",
            constraint: "mᵀm = I",
            ..
        })
    ));
    let reflection = Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, -1.0));
    assert!(matches!(
        SoN::<f64, 3>::from_matrix(reflection),
        Err(Error::NotOnGroup {
            constraint: "det m = +1",
            ..
        })
    ));
    let det_two = Matrix2::new(2.0, 0.0, 0.0, 1.0);
    assert!(matches!(
        Sl::<f64, 2>::from_matrix(det_two),
        Err(Error::NotOnGroup {
            group: "SL(2)",
            constraint: "det m = 1",
            ..
        })
    ));
    assert!(Sl::<f64, 2>::from_matrix(Matrix2::new(2.0, 5.0, 0.0, 0.5)).is_ok());
    let singular = Matrix2::new(1.0, 2.0, 2.0, 4.0);
    assert!(matches!(
        Gl::<f64, 2>::from_matrix(singular),
        Err(Error::NotOnGroup { group: "GL(2)", .. })
    ));
    assert!(Gl::<f64, 2>::from_matrix(Matrix2::new(0.0, 1.0, 1.0, 0.0)).is_ok());
    assert!(matches!(
        Gl::<f64, 2>::from_matrix(Matrix2::new(f64::NAN, 0.0, 0.0, 1.0)),
        Err(Error::NonFinite { name: "m" })
    ));
    assert!(matches!(
        SoN::<f64, 2>::from_matrix_with_tolerance(Matrix2::identity(), -1.0),
        Err(Error::InvalidParameter {
            name: "tolerance",
            ..
        })
    ));
    let message = SoN::<f64, 3>::from_matrix(not_orthogonal)
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("SO(3)") && message.contains("mᵀm = I"),
        "{message}"
    );
}

// ---------------------------------------------------------------------------------------------
// Cayley map
// ---------------------------------------------------------------------------------------------

#[test]
fn cayley_inverse_pairs_and_orthogonality() {
    let mut rng = Rng(47);
    for _ in 0..10 {
        let a = rng.matrix::<4>();
        let back = cayley_inverse(&cayley(&a).unwrap()).unwrap();
        assert!(rel(&back, &a) < 1e-14);
        let k = (a - a.transpose()) * 1.5;
        let g = cayley(&k).unwrap();
        assert!((g.transpose() * g - Matrix4::identity()).norm() < 1e-14);
        assert!((g.determinant() - 1.0).abs() < 1e-14);
        let v = rng.matrix::<4>();
        let w = dcay(&a, &v).unwrap();
        assert!(rel(&dcay_inv(&a, &w), &v) < 1e-14);
        assert!(rel(&dcay(&a, &dcay_inv(&a, &v)).unwrap(), &v) < 1e-14);
        // The expanded form w − ½[a, w] − ¼ a w a.
        let expanded = v - (a * v - v * a) * 0.5 - a * v * a * 0.25;
        assert!(rel(&dcay_inv(&a, &v), &expanded) < 1e-15);
    }
}

#[test]
fn dcay_is_the_left_trivialised_derivative_of_cayley() {
    let mut rng = Rng(53);
    for _ in 0..10 {
        let a = rng.matrix::<3>();
        let v = rng.matrix::<3>();
        let g = cayley(&dual_matrix(&a, &v)).unwrap();
        let derivative = eps(&g) * re(&g).try_inverse().unwrap();
        assert!(rel(&derivative, &dcay(&a, &v).unwrap()) < 1e-14);
    }
}

#[test]
fn cayley_errors() {
    assert!(matches!(
        cayley_inverse(&Matrix2::new(-1.0, 0.0, 0.0, -1.0)),
        Err(Error::CoordinateMapUndefined {
            map: "inverse Cayley",
            ..
        })
    ));
    assert!(matches!(
        cayley(&Matrix2::new(2.0, 0.0, 0.0, 1.0)),
        Err(Error::CoordinateMapUndefined { map: "Cayley", .. })
    ));
    assert!(matches!(
        dcay(&Matrix2::new(-2.0, 0.0, 0.0, 1.0), &Matrix2::identity()),
        Err(Error::CoordinateMapUndefined {
            map: "Cayley differential",
            ..
        })
    ));
    assert!(matches!(
        cayley(&Matrix2::new(f64::NAN, 0.0, 0.0, 1.0)),
        Err(Error::NonFinite { name: "a" })
    ));
}
