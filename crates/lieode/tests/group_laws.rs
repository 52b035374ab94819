//! The shared property-test suite, switched on per group with `group_suite!`.
//!
//! Each instance checks, on the group's own sample set (angles 0, 1e-9, both sides of every
//! small-angle threshold, π − 1e-6, π, …):
//! exp∘log and log∘exp round trips, identity/inverse laws, associativity, `Ad(exp ξ) = exp(ad ξ)`,
//! `g exp(ξ) g⁻¹ = exp(Ad_g ξ)`, bracket antisymmetry and the Jacobi identity,
//! `dexp ∘ dexp⁻¹ = id`, closed forms against the `ad` series, the truncation variants, and the
//! derivative identities `d/ds exp(u + s v)|₀ = dexp_u(v)·exp(u)` (left) and
//! `exp(u)⁻¹·d/ds exp(u + s v)|₀ = dexp_{−u}(v)` (right) against `num-dual`.

mod common;

use common::{SplitMix, rotation_vectors};
use lieode::lie::matrix_group::{Gl, Sl, SoN};
use lieode::lie::product::{Product, ProductAlgebra};
use lieode::lie::rn::Rn;
use lieode::lie::se3::Se3;
use lieode::lie::series::{dexp_inv_series, dexp_series, exp_ad_series};
use lieode::lie::so3::{So3, So3Algebra};
use lieode::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use lieode::lie::{LieAlgebra, LieGroup, Side, Truncation};
use nalgebra::{DVector, Vector2, Vector3};
use num_dual::Dual64;

macro_rules! group_suite {
    (
        $name:ident,
        group = $G:ty,
        dual_group = $GD:ty,
        samples = $samples:expr,
        log_principal = $principal:expr,
        $(log_accurate = $accurate:expr,)?
        series_radius = $series_radius:expr,
        dexp_radius = $dexp_radius:expr,
        tol = $tol:expr $(,)?
    ) => {
        mod $name {
            use super::*;
            type G = $G;
            type GD = $GD;
            type A = <G as LieGroup>::Algebra;
            type AD = <GD as LieGroup>::Algebra;
            const TOL: f64 = $tol;

            fn samples() -> Vec<Vec<f64>> {
                $samples
            }
            fn alg(c: &[f64]) -> A {
                A::from_coords(&nalgebra::OVector::<f64, <A as LieAlgebra>::Dim>::from_iterator(
                    c.iter().copied(),
                ))
            }
            fn alg_dual(re: &[f64], eps: &[f64]) -> AD {
                AD::from_coords(&nalgebra::OVector::<Dual64, <AD as LieAlgebra>::Dim>::from_fn(
                    |i, _| Dual64::new(re[i], eps[i]),
                ))
            }
            fn coords(a: &A) -> DVector<f64> {
                DVector::from_iterator(A::dim(), a.to_coords().iter().copied())
            }
            /// Other algebra elements to pair with the samples: fixed, moderately sized.
            fn partners() -> Vec<Vec<f64>> {
                let mut rng = SplitMix(11);
                (0..3)
                    .map(|_| (0..A::dim()).map(|_| 0.8 * rng.symmetric()).collect())
                    .collect()
            }
            fn assert_alg_close(a: &A, b: &A, tol: f64, what: &str) {
                let scale = 1.0f64.max(a.norm()).max(b.norm());
                let err = (coords(a) - coords(b)).norm();
                assert!(
                    err <= tol * scale,
                    "{what}: |Δ| = {err:e} > {:e}\n  {a:?}\n  {b:?}",
                    tol * scale
                );
            }
            /// |log(a⁻¹ b)|: strict (tells q from −q on SU(2)).
            fn gap(a: &G, b: &G) -> f64 {
                a.inverse().compose(b).log().expect("log near the identity").norm()
            }

            #[test]
            fn log_inverts_exp_on_the_principal_domain() {
                let principal = $principal;
                #[allow(unused_variables)]
                let accurate = |c: &[f64]| true;
                $(let accurate = $accurate;)?
                for c in samples() {
                    if !accurate(&c) {
                        continue;
                    }
                    let xi = alg(&c);
                    let g = G::exp(&xi);
                    let back = g.log().unwrap();
                    if principal(&c) {
                        assert_alg_close(&back, &xi, TOL, "log(exp ξ)");
                    }
                    // exp∘log is the identity everywhere.
                    let g2 = G::exp(&back);
                    assert!(gap(&g, &g2) <= TOL, "exp(log g) for ξ = {c:?}: {:e}", gap(&g, &g2));
                }
            }

            #[test]
            fn coordinate_magnitudes_after_an_update_match_the_updated_state() {
                let p = partners();
                for c in samples().into_iter().take(8) {
                    let g = G::exp(&alg(&c));
                    for side in [Side::Left, Side::Right] {
                        let theta = alg(&p[0]);
                        let moved = g.exp_update(side, &theta);
                        for i in 0..A::dim() {
                            let direct = moved.coordinate_magnitude(i);
                            let fast = g.coordinate_magnitude_at(side, &theta, i);
                            assert!((direct - fast).abs() <= 1e-14 * (1.0 + direct), "coordinate {i}");
                        }
                    }
                }
            }

            #[test]
            fn cast_to_dual_numbers_and_back_is_exact() {
                for c in samples() {
                    let xi = alg(&c);
                    let g = G::exp(&xi);
                    let gd: GD = <G as LieGroup>::cast::<Dual64>(&g);
                    assert_eq!(<GD as LieGroup>::cast::<f64>(&gd), g);
                    let xd: AD = <A as LieAlgebra>::cast::<Dual64>(&xi);
                    assert_eq!(<AD as LieAlgebra>::cast::<f64>(&xd), xi);
                    assert!(xd.to_coords().iter().all(|d| d.eps == 0.0));
                }
            }

            #[test]
            fn identity_inverse_and_associativity() {
                let s = samples();
                let e = G::identity();
                for c in &s {
                    let g = G::exp(&alg(c));
                    assert!(gap(&g.compose(&e), &g) <= TOL);
                    assert!(gap(&e.compose(&g), &g) <= TOL);
                    assert!(gap(&g.compose(&g.inverse()), &e) <= TOL);
                    assert!(gap(&g.inverse().compose(&g), &e) <= TOL);
                    assert!(g.distance(&g).unwrap() <= TOL);
                    assert!(G::exp(&A::zero()) == e || gap(&G::exp(&A::zero()), &e) == 0.0);
                }
                let p = partners();
                for c in &s {
                    let a = G::exp(&alg(c));
                    let b = G::exp(&alg(&p[0]));
                    let d = G::exp(&alg(&p[1]));
                    let left = a.compose(&b).compose(&d);
                    let right = a.compose(&b.compose(&d));
                    assert!(gap(&left, &right) <= TOL, "associativity at {c:?}");
                    let dab = a.distance(&b).unwrap();
                    let dba = b.distance(&a).unwrap();
                    assert!((dab - dba).abs() <= TOL * (1.0 + dab), "distance symmetry");
                }
            }

            #[test]
            fn adjoint_of_exp_is_exp_of_ad() {
                for c in samples() {
                    let xi = alg(&c);
                    if xi.norm() > $series_radius {
                        continue;
                    }
                    for p in partners() {
                        let v = alg(&p);
                        let lhs = G::exp(&xi).adjoint(&v);
                        let rhs = exp_ad_series(&xi, &v, 45);
                        assert_alg_close(&lhs, &rhs, TOL, "Ad(exp ξ) v = exp(ad ξ) v");
                    }
                }
            }

            #[test]
            fn conjugation_is_exp_of_adjoint() {
                let p = partners();
                for c in samples() {
                    let g = G::exp(&alg(&c));
                    for q in &p {
                        let xi = alg(q);
                        let lhs = g.compose(&G::exp(&xi)).compose(&g.inverse());
                        let rhs = G::exp(&g.adjoint(&xi));
                        assert!(gap(&lhs, &rhs) <= TOL, "g exp(ξ) g⁻¹ at {c:?}");
                    }
                }
            }

            #[test]
            fn bracket_is_antisymmetric_and_satisfies_jacobi() {
                let mut all: Vec<Vec<f64>> = partners();
                all.extend(samples().into_iter().take(6));
                for x in &all {
                    for y in &all {
                        let (x, y) = (alg(x), alg(y));
                        assert_alg_close(&x.bracket(&y), &y.bracket(&x).neg(), TOL, "antisymmetry");
                    }
                }
                let p = partners();
                let (x, y, z) = (alg(&p[0]), alg(&p[1]), alg(&p[2]));
                let jacobi = x
                    .bracket(&y.bracket(&z))
                    .add(&y.bracket(&z.bracket(&x)))
                    .add(&z.bracket(&x.bracket(&y)));
                assert_alg_close(&jacobi, &A::zero(), TOL, "Jacobi");
            }

            #[test]
            fn dexp_and_dexp_inv_are_inverse() {
                for c in samples() {
                    let xi = alg(&c);
                    if xi.norm() > $dexp_radius {
                        continue;
                    }
                    for p in partners() {
                        let v = alg(&p);
                        let there = G::dexp_inv(&xi, &G::dexp(&xi, &v));
                        assert_alg_close(&there, &v, TOL, "dexp⁻¹(dexp v)");
                        let back = G::dexp(&xi, &G::dexp_inv(&xi, &v));
                        assert_alg_close(&back, &v, TOL, "dexp(dexp⁻¹ v)");
                        for side in [Side::Left, Side::Right] {
                            let w = G::dexp_inv_on(side, &xi, &G::dexp_on(side, &xi, &v), Truncation::Exact);
                            assert_alg_close(&w, &v, TOL, "side round trip");
                        }
                    }
                }
            }

            #[test]
            fn closed_forms_match_the_ad_series() {
                for c in samples() {
                    let xi = alg(&c);
                    if xi.norm() > $series_radius {
                        continue;
                    }
                    for p in partners() {
                        let v = alg(&p);
                        assert_alg_close(&G::dexp(&xi, &v), &dexp_series(&xi, &v, 45), TOL, "dexp vs series");
                        assert_alg_close(
                            &G::dexp_inv(&xi, &v),
                            &dexp_inv_series(&xi, &v, 47),
                            TOL,
                            "dexp⁻¹ vs series",
                        );
                    }
                }
            }

            #[test]
            fn truncations_keep_the_requested_terms() {
                let p = partners();
                let (xi, v) = (alg(&p[0]), alg(&p[1]));
                assert_eq!(G::dexp_inv_truncated(&xi, &v, Truncation::Identity), v);
                assert_alg_close(
                    &G::dexp_inv_truncated(&xi, &v, Truncation::for_order(2)),
                    &v,
                    0.0,
                    "order 2 keeps only v",
                );
                let third = v.axpy(-0.5, &xi.bracket(&v));
                assert_alg_close(
                    &G::dexp_inv_truncated(&xi, &v, Truncation::for_order(3)),
                    &third,
                    1e-15,
                    "order 3 adds −½[θ, v]",
                );
                let fourth = third.axpy(1.0 / 12.0, &xi.bracket(&xi.bracket(&v)));
                assert_alg_close(
                    &G::dexp_inv_truncated(&xi, &v, Truncation::for_order(4)),
                    &fourth,
                    1e-15,
                    "order 4 adds [θ,[θ,v]]/12",
                );
            }

            #[test]
            fn dexp_is_the_derivative_of_exp_by_dual_numbers() {
                for c in samples() {
                    let u = alg(&c);
                    if u.norm() > $dexp_radius {
                        continue;
                    }
                    for p in partners() {
                        let zero = vec![0.0; c.len()];
                        let moving = GD::exp(&alg_dual(&c, &p));
                        let fixed = GD::exp(&alg_dual(&c, &zero));
                        let v = alg(&p);
                        for side in [Side::Left, Side::Right] {
                            let near_identity = match side {
                                Side::Left => moving.compose(&fixed.inverse()),
                                Side::Right => fixed.inverse().compose(&moving),
                            };
                            let log = near_identity.log().unwrap().to_coords();
                            let derivative = DVector::from_iterator(A::dim(), log.iter().map(|d| d.eps));
                            let expected = coords(&G::dexp_on(side, &u, &v));
                            let err = (derivative - &expected).norm();
                            assert!(
                                err <= TOL * 10.0 * (1.0 + expected.norm()),
                                "{side:?} derivative at u = {c:?}: |Δ| = {err:e}"
                            );
                        }
                    }
                }
            }
        }
    };
}

fn so3_samples() -> Vec<Vec<f64>> {
    rotation_vectors()
        .iter()
        .map(|v| v.iter().copied().collect())
        .collect()
}

/// su(2) samples: half the rotation vectors (rotations up to π), plus elements of length up to
/// π − 1e-6 and π (rotations up to 2π, the far side of SU(2)).
fn su2_samples() -> Vec<Vec<f64>> {
    let mut out: Vec<Vec<f64>> = rotation_vectors()
        .iter()
        .map(|v| (v * 0.5).iter().copied().collect())
        .collect();
    out.extend(
        rotation_vectors()
            .iter()
            .map(|v| v.iter().copied().collect::<Vec<_>>()),
    );
    out
}

fn with_vector<const N: usize>(base: Vec<Vec<f64>>, seed: u64) -> Vec<Vec<f64>> {
    let mut rng = SplitMix(seed);
    base.into_iter()
        .map(|mut c| {
            c.extend((0..N).map(|_| 3.0 * rng.symmetric()));
            c
        })
        .collect()
}

fn norm(c: &[f64]) -> f64 {
    c.iter().map(|x| x * x).sum::<f64>().sqrt()
}

group_suite!(
    so3,
    group = So3,
    dual_group = So3<Dual64>,
    samples = so3_samples(),
    log_principal = |c: &[f64]| norm(c) < std::f64::consts::PI - 1e-7,
    series_radius = 2.5,
    dexp_radius = 4.0,
    tol = 1e-13,
);

group_suite!(
    unit_quaternion,
    group = UnitQuat,
    dual_group = UnitQuat<Dual64>,
    samples = su2_samples(),
    log_principal = |c: &[f64]| norm(c) < std::f64::consts::PI - 1e-7,
    series_radius = 1.25,
    dexp_radius = 2.0,
    tol = 1e-13,
);

group_suite!(
    r3,
    group = Rn<3>,
    dual_group = Rn<3, Dual64>,
    samples = with_vector::<3>(vec![vec![]], 3)
        .into_iter()
        .chain([vec![0.0, 0.0, 0.0], vec![1e-9, 0.0, -1e-9], vec![10.0, -2.0, 3.0]])
        .collect(),
    log_principal = |_: &[f64]| true,
    series_radius = f64::INFINITY,
    dexp_radius = f64::INFINITY,
    tol = 1e-14,
);

group_suite!(
    so3_times_r3,
    group = Product<So3, Rn<3>>,
    dual_group = Product<So3<Dual64>, Rn<3, Dual64>>,
    samples = with_vector::<3>(so3_samples(), 5),
    log_principal = |c: &[f64]| norm(&c[..3]) < std::f64::consts::PI - 1e-7,
    series_radius = 2.5,
    dexp_radius = 4.0,
    tol = 1e-13,
);

group_suite!(
    nested_quaternion_r3_r2,
    group = Product<Product<UnitQuat, Rn<3>>, Rn<2>>,
    dual_group = Product<Product<UnitQuat<Dual64>, Rn<3, Dual64>>, Rn<2, Dual64>>,
    samples = with_vector::<2>(with_vector::<3>(su2_samples(), 9), 13),
    log_principal = |c: &[f64]| norm(&c[..3]) < std::f64::consts::PI - 1e-7,
    series_radius = 1.25,
    dexp_radius = 2.0,
    tol = 1e-13,
);

/// se(3) samples `(ρ, φ)`: translation first, the rotation samples second.
fn se3_samples() -> Vec<Vec<f64>> {
    let mut rng = SplitMix(17);
    so3_samples()
        .into_iter()
        .enumerate()
        .map(|(i, phi)| {
            let scale = [0.0, 1e-3, 0.7, 2.0][i % 4];
            let mut c: Vec<f64> = (0..3).map(|_| scale * rng.symmetric()).collect();
            c.extend(phi);
            c
        })
        .collect()
}

group_suite!(
    se3,
    group = Se3,
    dual_group = Se3<Dual64>,
    samples = se3_samples(),
    log_principal = |c: &[f64]| norm(&c[3..]) < std::f64::consts::PI - 1e-7,
    series_radius = 2.5,
    dexp_radius = 4.0,
    tol = 1e-13,
);

/// Random algebra coordinates of the given dimension at norms 0, 1e-9, 1e-4, 0.1, 1, 2.5.
fn matrix_samples(dim: usize, seed: u64) -> Vec<Vec<f64>> {
    let mut rng = SplitMix(seed);
    let mut out = vec![vec![0.0; dim]];
    for scale in [1e-9, 1e-4, 0.1, 1.0, 2.5] {
        for _ in 0..3 {
            let c: Vec<f64> = (0..dim).map(|_| rng.symmetric()).collect();
            let n = norm(&c);
            out.push(c.iter().map(|x| x * scale / n).collect());
        }
    }
    out
}

group_suite!(
    gl3,
    group = Gl<f64, 3>,
    dual_group = Gl<Dual64, 3>,
    samples = matrix_samples(9, 21),
    log_principal = |c: &[f64]| norm(c) < 3.0,
    series_radius = 1.5,
    dexp_radius = 3.0,
    tol = 1e-13,
);

group_suite!(
    sl2,
    group = Sl<f64, 2>,
    dual_group = Sl<Dual64, 2>,
    samples = matrix_samples(3, 23),
    log_principal = |c: &[f64]| norm(c) < 3.0,
    series_radius = 1.5,
    dexp_radius = 3.0,
    tol = 1e-13,
);

group_suite!(
    sl4,
    group = Sl<f64, 4>,
    dual_group = Sl<Dual64, 4>,
    samples = matrix_samples(15, 25),
    log_principal = |c: &[f64]| norm(c) < 3.0,
    series_radius = 1.5,
    dexp_radius = 3.0,
    tol = 1e-13,
);

group_suite!(
    so3_matrix_group,
    group = SoN<f64, 3>,
    dual_group = SoN<Dual64, 3>,
    samples = so3_samples(),
    // The generic matrix logarithm loses accuracy like ε/(π − θ) near π (measured in
    // tests/rotations.rs); the closed-form So3 logarithm does not.
    log_principal = |c: &[f64]| norm(c) < std::f64::consts::PI - 1e-2,
    log_accurate = |c: &[f64]| norm(c) < std::f64::consts::PI - 1e-2,
    series_radius = 2.5,
    dexp_radius = 4.0,
    tol = 1e-13,
);

group_suite!(
    so5,
    group = SoN<f64, 5>,
    dual_group = SoN<Dual64, 5>,
    samples = matrix_samples(10, 27),
    log_principal = |c: &[f64]| norm(c) < 2.2,
    series_radius = 1.0,
    dexp_radius = 3.0,
    tol = 1e-13,
);

#[test]
fn product_coordinates_concatenate_the_factors() {
    let x = ProductAlgebra(
        ProductAlgebra(
            So3Algebra::new(Vector3::new(1.0, 2.0, 3.0)),
            Rn(Vector2::new(4.0, 5.0)),
        ),
        Su2Algebra::new(Vector3::new(6.0, 7.0, 8.0)),
    );
    let c = x.to_coords();
    assert_eq!(c.len(), 8);
    assert_eq!(c.as_slice(), &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
    assert_eq!(ProductAlgebra::from_coords(&c), x);
}
