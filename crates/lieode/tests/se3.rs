//! SE(3): group laws, exp/log round trips, adjoint, bracket, the closed forms of `dexp`,
//! `dexp⁻¹` and Barfoot's `Q(ρ, φ)` against series, matrix exponentials and dual numbers, and
//! the errors of the constructors.
//!
//! Tolerances are written as `K · ε · scale`, where `ε = 2.2e-16`, `scale` is the size the
//! compared quantity is built from (`1 + |ρ|` for translations, which enter every map linearly,
//! `|v|(1 + |ρ|)` for the Jacobians, …) and `K` is a small constant covering the few dozen
//! flops of each closed form and the conditioning of the map at the sample (stated where it
//! matters: `log` near `|φ| = π`, the squarings of the reference matrix exponential). Every test
//! prints its largest observed error relative to that scale (`cargo test -- --nocapture`).

use lieode::Error;
use lieode::lie::se3::{Se3, Se3Algebra, left_jacobian, left_jacobian_inverse, q_block};
use lieode::lie::series::{
    SERIES_ANGLE_SQ, SMALL_ANGLE_SQ, dexp_inv_series, dexp_series, exp_ad_series, higher_remainders,
};
use lieode::lie::so3::{So3, hat};
use lieode::lie::{LieAlgebra, LieGroup, Side};
use nalgebra::{Matrix3, Matrix4, Matrix6, Vector3};
use num_dual::Dual64;
use std::f64::consts::PI;

const EPS: f64 = f64::EPSILON;

/// The rotation angles of the samples: 0, tiny, both sides of both series thresholds,
/// moderate, large, just below π and π.
fn angles() -> Vec<f64> {
    let small = SMALL_ANGLE_SQ.sqrt();
    let series = SERIES_ANGLE_SQ.sqrt();
    vec![
        0.0,
        1e-9,
        1e-4,
        small * (1.0 - 1e-9),
        small * (1.0 + 1e-9),
        0.5,
        1.0,
        series * (1.0 - 1e-9),
        series * (1.0 + 1e-9),
        3.0,
        PI - 1e-6,
        PI,
    ]
}

/// Unit rotation axes: a coordinate axis, an exactly-unit rational one and a generic one.
fn axes() -> Vec<Vector3<f64>> {
    vec![
        Vector3::new(0.0, 0.0, 1.0),
        Vector3::new(0.36, -0.48, 0.8),
        Vector3::new(-1.0, 2.0, 0.3).normalize(),
    ]
}

/// Translational parts from zero to large.
fn rhos() -> Vec<Vector3<f64>> {
    vec![
        Vector3::zeros(),
        Vector3::new(1e-3, -2e-3, 5e-4),
        Vector3::new(0.7, -1.2, 2.0),
        Vector3::new(-10.0, 4.0, 7.0),
    ]
}

/// Every (ρ, φ) sample.
fn samples() -> Vec<Se3Algebra> {
    let mut out = Vec::new();
    for angle in angles() {
        for axis in axes() {
            for rho in rhos() {
                out.push(Se3Algebra::new(rho, axis * angle));
            }
        }
    }
    out
}

/// Directions for derivatives and brackets.
fn directions() -> Vec<Se3Algebra> {
    vec![
        Se3Algebra::new(Vector3::new(1.0, 0.0, 0.0), Vector3::zeros()),
        Se3Algebra::new(Vector3::zeros(), Vector3::new(0.0, 1.0, 0.0)),
        Se3Algebra::new(Vector3::new(0.3, -0.8, 0.5), Vector3::new(-0.6, 0.2, 0.9)),
    ]
}

fn dist(a: &Se3Algebra, b: &Se3Algebra) -> f64 {
    (a.to_coords() - b.to_coords()).norm()
}

fn group_dist(a: &Se3, b: &Se3) -> f64 {
    (a.to_matrix() - b.to_matrix()).norm()
}

/// Tracks and prints the largest `error / scale` of a test.
struct Worst {
    name: &'static str,
    value: f64,
}

impl Worst {
    fn new(name: &'static str) -> Self {
        Self { name, value: 0.0 }
    }
    /// Asserts `error ≤ k ε scale` and records `error/(ε scale)`.
    fn check(&mut self, error: f64, k: f64, scale: f64, what: &dyn Fn() -> String) {
        let rel = error / (EPS * scale);
        assert!(
            error <= k * EPS * scale,
            "{}: error {error:e} > {k} ε · {scale:e} at {}",
            self.name,
            what()
        );
        self.value = self.value.max(rel);
    }
}

impl Drop for Worst {
    fn drop(&mut self) {
        eprintln!("{}: largest error = {:.2} ε · scale", self.name, self.value);
    }
}

#[test]
fn exp_log_round_trips() {
    let mut exp_log = Worst::new("exp(log g) = g");
    let mut log_exp = Worst::new("log(exp ξ) = ξ (|φ| < π)");
    for xi in samples() {
        let g = Se3::exp(&xi);
        let back = g.log().unwrap();
        let scale = 1.0 + xi.rho.norm();
        exp_log.check(group_dist(&Se3::exp(&back), &g), 16.0, scale, &|| {
            format!("{xi:?}")
        });
        if xi.phi.norm() < PI {
            // Near |φ| = π the rotation log is still well conditioned in angle and axis (the
            // axis comes from the symmetric part of R); J⁻¹(φ) has norm ≤ 1 + π/2 + 1 there.
            log_exp.check(dist(&back, &xi), 16.0, scale, &|| format!("{xi:?}"));
        } else {
            // At π the axis sign is a free choice, but the rotation angle is π.
            assert!((back.phi.norm() - PI).abs() < 4.0 * EPS);
        }
    }
}

#[test]
fn group_axioms() {
    let mut w = Worst::new("group axioms");
    let all = samples();
    let e = Se3::identity();
    for (i, xi) in all.iter().enumerate() {
        let a = Se3::exp(xi);
        let b = Se3::exp(&all[(7 * i + 3) % all.len()]);
        let c = Se3::exp(&all[(11 * i + 5) % all.len()]);
        let scale = 1.0 + a.translation().norm() + b.translation().norm() + c.translation().norm();
        let what = || format!("{xi:?}");
        w.check(group_dist(&a.compose(&a.inverse()), &e), 8.0, scale, &what);
        w.check(group_dist(&a.inverse().compose(&a), &e), 8.0, scale, &what);
        assert_eq!(e.compose(&a), a);
        assert_eq!(a.compose(&e), a);
        let left = a.compose(&b).compose(&c);
        let right = a.compose(&b.compose(&c));
        w.check(group_dist(&left, &right), 8.0, scale, &what);
        // The product is the product of the homogeneous matrices.
        w.check(
            (a.compose(&b).to_matrix() - a.to_matrix() * b.to_matrix()).norm(),
            4.0,
            scale,
            &what,
        );
        // The action on points is the matrix action on homogeneous points.
        let p = Vector3::new(0.4, -2.0, 1.5);
        let hp = a.to_matrix() * p.push(1.0);
        w.check(
            (a.transform_point(&p) - hp.xyz()).norm(),
            4.0,
            scale + p.norm(),
            &what,
        );
        w.check(
            (a.compose(&b).transform_point(&p) - a.transform_point(&b.transform_point(&p))).norm(),
            8.0,
            scale + p.norm(),
            &what,
        );
        // The matrix representation round-trips.
        assert_eq!(Se3::from_matrix(a.to_matrix()).unwrap(), a);
        assert_eq!(Se3::new(*a.rotation(), *a.translation()).unwrap(), a);
    }
    assert_eq!(<Se3 as LieGroup>::NAME, "SE(3)");
    assert_eq!(Se3Algebra::<f64>::dim(), 6);
}

/// The 4×4 hats' commutator is the bracket, which satisfies antisymmetry and Jacobi.
#[test]
fn bracket_is_the_matrix_commutator() {
    let mut w = Worst::new("bracket");
    let all = samples();
    for (i, x) in all.iter().enumerate() {
        let y = all[(5 * i + 1) % all.len()];
        let z = all[(13 * i + 7) % all.len()];
        let (hx, hy) = (x.to_matrix(), y.to_matrix());
        let comm = hx * hy - hy * hx;
        let b = x.bracket(&y);
        let scale = x.norm() * y.norm();
        let what = || format!("{x:?}, {y:?}");
        w.check((b.to_matrix() - comm).norm(), 4.0, scale, &what);
        // The ad matrix represents the bracket.
        w.check(
            (x.ad_matrix() * y.to_coords() - b.to_coords()).norm(),
            4.0,
            scale,
            &what,
        );
        assert_eq!(b.add(&y.bracket(x)), Se3Algebra::zero());
        let jacobi = x
            .bracket(&y.bracket(&z))
            .add(&y.bracket(&z.bracket(x)))
            .add(&z.bracket(&x.bracket(&y)));
        w.check(jacobi.norm(), 16.0, x.norm() * y.norm() * z.norm(), &what);
    }
}

/// `Ad_{exp ξ} v = exp(ad_ξ) v` for moderate ξ, `g exp(ξ) g⁻¹ = exp(Ad_g ξ)` everywhere, and
/// `Ad_g` is the 6×6 matrix `[[R, t̂R], [0, R]]` and the conjugation of the 4×4 hats.
#[test]
fn adjoint() {
    let mut series = Worst::new("Ad(exp ξ) = exp(ad ξ)");
    let mut conj = Worst::new("g exp(ξ) g⁻¹ = exp(Ad_g ξ)");
    let all = samples();
    for (i, xi) in all.iter().enumerate() {
        let g = Se3::exp(xi);
        for v in directions() {
            let ad = g.adjoint(&v);
            let scale = v.norm() * (1.0 + xi.rho.norm()) * (1.0 + xi.phi.norm());
            let what = || format!("{xi:?}, {v:?}");
            // ‖ad_ξ‖ ≤ |φ| + |ρ|: with |ξ| ≤ 3 the 46 terms converge to far below round-off,
            // and the partial sums are bounded by e^{|ξ|} |v| ≈ 20 |v|.
            if xi.norm() <= 3.0 {
                let reference = exp_ad_series(xi, &v, 46);
                series.check(dist(&ad, &reference), 64.0, scale, &what);
            }
            let hv = g.to_matrix() * v.to_matrix() * g.inverse().to_matrix();
            conj.check((ad.to_matrix() - hv).norm(), 16.0, scale, &what);
            conj.check(
                (g.adjoint_matrix() * v.to_coords() - ad.to_coords()).norm(),
                8.0,
                scale,
                &what,
            );
        }
        let h = Se3::exp(&all[(3 * i + 2) % all.len()]);
        let lhs = h.compose(&g).compose(&h.inverse());
        let rhs = Se3::exp(&h.adjoint(xi));
        let scale = 1.0 + xi.rho.norm() + 3.0 * h.translation().norm() * (1.0 + xi.phi.norm());
        conj.check(group_dist(&lhs, &rhs), 32.0, scale, &|| format!("{xi:?}"));
    }
}

/// A reference matrix exponential: Taylor series with scaling and squaring.
fn expm4(a: &Matrix4<f64>) -> Matrix4<f64> {
    let mut s = 0;
    let mut scaled = *a;
    while scaled.norm() > 0.25 {
        scaled /= 2.0;
        s += 1;
    }
    // ‖A‖ ≤ 1/4: 20 terms leave a remainder below 4^{-21}/21! ≈ 1e-32.
    let mut term = Matrix4::identity();
    let mut sum = Matrix4::identity();
    for k in 1..=20 {
        term = term * scaled / k as f64;
        sum += term;
    }
    for _ in 0..s {
        sum = sum * sum;
    }
    sum
}

#[test]
fn exp_is_the_matrix_exponential_of_the_hat() {
    let mut w = Worst::new("exp = expm(ξ̂)");
    for xi in samples() {
        let reference = expm4(&xi.to_matrix());
        // Each of the s ≤ 6 squarings of the reference doubles its relative error.
        w.check(
            (Se3::exp(&xi).to_matrix() - reference).norm(),
            256.0,
            1.0 + xi.rho.norm(),
            &|| format!("{xi:?}"),
        );
    }
}

/// `Σ_{n≥0} Σ_{m=0}^{n} φ̂^m ρ̂ φ̂^{n−m} / (n+2)!` summed directly.
fn q_series(xi: &Se3Algebra) -> Matrix3<f64> {
    let p = hat(&xi.phi);
    let r = hat(&xi.rho);
    let mut pow: Vec<Matrix3<f64>> = vec![Matrix3::identity()];
    for k in 1..=45 {
        pow.push(pow[k - 1] * p);
    }
    let mut sum = Matrix3::zeros();
    let mut inv_fact = 0.5; // 1/(n+2)! at n = 0
    for n in 0..=42 {
        let mut inner = Matrix3::zeros();
        for m in 0..=n {
            inner += pow[m] * r * pow[n - m];
        }
        sum += inner * inv_fact;
        inv_fact /= (n + 3) as f64;
    }
    sum
}

/// Barfoot's third coefficient equals ½(S₄ − 3S₅), and `Q` equals its defining double series.
#[test]
fn q_block_matches_its_series() {
    for theta in [0.5, 1.0, 2.5, 3.0, PI] {
        let (_, s4, s5) = higher_remainders(theta * theta);
        let closed =
            (2.0 * theta - 3.0 * theta.sin() + theta * theta.cos()) / (2.0 * theta.powi(5));
        // The closed form cancels about two digits at θ = 0.5 (2θ − 3 sin θ + θ cos θ ≈ θ⁵/60).
        assert!(
            ((s4 - 3.0 * s5) / 2.0 - closed).abs() < 1e-13 * closed.abs(),
            "θ = {theta}"
        );
    }
    let mut w = Worst::new("Q = double series");
    for xi in samples() {
        let theta = xi.phi.norm();
        // Terms of the series grow like θ^n/n! before they decay: allow for that at θ = π.
        let scale = xi.rho.norm() * (1.0 + theta).powi(2);
        w.check(
            (q_block(&xi) - q_series(&xi)).norm(),
            32.0,
            scale.max(f64::MIN_POSITIVE),
            &|| format!("{xi:?}"),
        );
    }
}

/// dexp and dexp⁻¹ equal their ad-series for |φ| ≤ 2 and are mutually inverse up to π;
/// the 6×6 Jacobians are their matrices.
#[test]
fn dexp_and_its_inverse() {
    let mut ser = Worst::new("dexp, dexp⁻¹ = series");
    let mut inv = Worst::new("dexp ∘ dexp⁻¹ = id");
    for xi in samples() {
        let theta = xi.phi.norm();
        for v in directions() {
            let d = Se3::dexp(&xi, &v);
            let di = Se3::dexp_inv(&xi, &v);
            let scale = v.norm() * (1.0 + xi.rho.norm()) * (1.0 + theta);
            let what = || format!("{xi:?}, {v:?}");
            if theta <= SERIES_ANGLE_SQ.sqrt() * (1.0 + 1e-8) && xi.rho.norm() <= 3.0 {
                // The series converge like (θ/2π)^k for dexp⁻¹ and θ^k/k! for dexp; 40 terms
                // are far beyond round-off at θ ≤ 2. (ρ is limited because ad_ξ is not normal:
                // the ρ̂ block makes the terms grow by |ρ| before they decay.)
                ser.check(dist(&d, &dexp_series(&xi, &v, 40)), 32.0, scale, &what);
                ser.check(dist(&di, &dexp_inv_series(&xi, &v, 40)), 32.0, scale, &what);
            }
            // ‖J⁻¹‖ ≤ 1 + π/2 + 1 and ‖Q‖ ≲ |ρ| for |φ| ≤ π: the composition is well
            // conditioned; the scale carries one extra factor (1 + |ρ|) for −J⁻¹QJ⁻¹.
            let s2 = scale * (1.0 + xi.rho.norm());
            inv.check(dist(&Se3::dexp(&xi, &di), &v), 32.0, s2, &what);
            inv.check(dist(&Se3::dexp_inv(&xi, &d), &v), 32.0, s2, &what);
            inv.check(
                (left_jacobian(&xi) * v.to_coords() - d.to_coords()).norm(),
                16.0,
                scale,
                &what,
            );
            inv.check(
                (left_jacobian_inverse(&xi) * v.to_coords() - di.to_coords()).norm(),
                16.0,
                s2,
                &what,
            );
        }
        let id = left_jacobian(&xi) * left_jacobian_inverse(&xi);
        let s = (1.0 + xi.rho.norm()).powi(2) * (1.0 + theta);
        inv.check((id - Matrix6::identity()).norm(), 64.0, s, &|| {
            format!("{xi:?}")
        });
    }
}

fn dual(x: &Se3Algebra, dx: &Se3Algebra) -> Se3Algebra<Dual64> {
    Se3Algebra::new(
        x.rho.zip_map(&dx.rho, Dual64::new),
        x.phi.zip_map(&dx.phi, Dual64::new),
    )
}

fn constant(x: &Se3Algebra) -> Se3Algebra<Dual64> {
    dual(x, &Se3Algebra::zero())
}

fn eps_part(x: &Se3Algebra<Dual64>) -> Se3Algebra {
    Se3Algebra::new(x.rho.map(|d| d.eps), x.phi.map(|d| d.eps))
}

/// `d/ds exp(u + s v)|₀ · exp(u)⁻¹ = dexp_u(v)` and `exp(u)⁻¹ · d/ds exp(u + s v)|₀ =
/// dexp_{−u}(v)`, differentiated by forward-mode dual numbers through `exp`, `compose`,
/// `inverse` and `log` (whose argument is the identity, with a first-order perturbation).
#[test]
fn dexp_is_the_derivative_of_exp() {
    let mut left = Worst::new("dual: left-trivialised dexp");
    let mut right = Worst::new("dual: right-trivialised dexp");
    let mut logd = Worst::new("dual: d/ds log(exp(u + s v)) = v (|φ| ≤ 3)");
    let mut all = samples();
    all.push(Se3Algebra::zero());
    for u in all {
        let theta = u.phi.norm();
        for v in directions() {
            let moved = Se3::exp(&dual(&u, &v));
            let base = Se3::exp(&constant(&u));
            let l = eps_part(&moved.compose(&base.inverse()).log().unwrap());
            let r = eps_part(&base.inverse().compose(&moved).log().unwrap());
            let scale = v.norm() * (1.0 + u.rho.norm()) * (1.0 + theta);
            let what = || format!("{u:?}, {v:?}");
            left.check(dist(&l, &Se3::dexp(&u, &v)), 32.0, scale, &what);
            left.check(
                dist(&l, &Se3::dexp_on(Side::Left, &u, &v)),
                32.0,
                scale,
                &what,
            );
            right.check(dist(&r, &Se3::dexp(&u.neg(), &v)), 32.0, scale, &what);
            right.check(
                dist(&r, &Se3::dexp_on(Side::Right, &u, &v)),
                32.0,
                scale,
                &what,
            );
            // The derivative of log is dexp⁻¹ of the derivative; it degenerates like 1/sin θ
            // towards π, so it is checked away from there.
            if theta <= 3.0 {
                let back = eps_part(&moved.log().unwrap());
                logd.check(dist(&back, &v), 64.0, scale * (1.0 + u.rho.norm()), &what);
            }
        }
    }
}

/// The dual numbers see no `√0`: at ξ = 0 exactly every derivative is finite and equals the
/// first-order terms `exp(s v) = e + s v̂`, `dexp_{s w}(v) = v + ½ s [w, v]`,
/// `dexp⁻¹_{s w}(v) = v − ½ s [w, v]`.
#[test]
fn dual_numbers_at_the_identity() {
    let all = directions();
    for (i, v) in all.iter().enumerate() {
        let w = all[(i + 1) % all.len()];
        let g = Se3::exp(&dual(&Se3Algebra::zero(), v));
        let m = g.to_matrix().map(|d| d.eps);
        assert!((m - v.to_matrix()).norm() < 4.0 * EPS, "{v:?}");
        let half = w.bracket(v).scale(0.5);
        let d = Se3::dexp(&dual(&Se3Algebra::zero(), &w), &constant(v));
        assert!(d.is_finite());
        assert!(dist(&eps_part(&d), &half) < 4.0 * EPS, "{v:?}");
        let di = Se3::dexp_inv(&dual(&Se3Algebra::zero(), &w), &constant(v));
        assert!(di.is_finite());
        assert!(dist(&eps_part(&di), &half.neg()) < 4.0 * EPS, "{v:?}");
        let back = g.log().unwrap();
        assert!(back.is_finite() && dist(&eps_part(&back), v) < 4.0 * EPS);
    }
}

fn expect_not_on_group(result: Result<Se3, Error>, constraint_prefix: &str) -> String {
    match result {
        Err(
            e @ Error::NotOnGroup {
                group,
                name,
                constraint,
                ..
            },
        ) => {
            assert_eq!(group, "SE(3)");
            assert_eq!(name, "m");
            assert!(constraint.starts_with(constraint_prefix), "{constraint}");
            e.to_string()
        }
        other => panic!("expected NotOnGroup, got {other:?}"),
    }
}

#[test]
fn bad_input_is_rejected_with_named_errors() {
    let r = So3::exp(&lieode::lie::so3::So3Algebra::new(Vector3::new(
        0.1, 0.2, 0.3,
    )));
    let e = Se3::new(r, Vector3::new(1.0, f64::NAN, 0.0)).unwrap_err();
    assert_eq!(
        e,
        Error::NonFinite {
            name: "translation"
        }
    );
    assert_eq!(e.to_string(), "`translation` has a non-finite entry");
    let e = Se3::new(r, Vector3::new(f64::INFINITY, 0.0, 0.0)).unwrap_err();
    assert_eq!(
        e,
        Error::NonFinite {
            name: "translation"
        }
    );
    let bad_r = So3::from_matrix_unchecked(Matrix3::from_element(f64::NAN));
    let e = Se3::new(bad_r, Vector3::zeros()).unwrap_err();
    assert_eq!(e, Error::NonFinite { name: "rotation" });

    let good = Se3::new(r, Vector3::new(1.0, 2.0, 3.0))
        .unwrap()
        .to_matrix();
    let mut m = good;
    m[(1, 3)] = f64::NAN;
    let e = Se3::from_matrix(m).unwrap_err();
    assert_eq!(e, Error::NonFinite { name: "m" });
    assert_eq!(e.to_string(), "`m` has a non-finite entry");

    let mut m = good;
    m[(3, 2)] = 1e-3;
    let msg = expect_not_on_group(Se3::from_matrix(m), "bottom row");
    assert_eq!(
        msg,
        "`m` is not an element of SE(3): bottom row = [0 0 0 1] violated by 1e-3 \
         (tolerance 1e-10)"
    );
    let mut m = good;
    m[(3, 3)] = 2.0;
    let msg = expect_not_on_group(Se3::from_matrix(m), "bottom row");
    assert!(msg.contains("violated by 1e0"), "{msg}");
    // Within the tolerance the bottom row is accepted and then stored exactly.
    let mut m = good;
    m[(3, 0)] = 1e-12;
    assert_eq!(Se3::from_matrix(m).unwrap().to_matrix(), good);

    let mut m = good;
    m.fixed_view_mut::<3, 3>(0, 0).scale_mut(1.01);
    let msg = expect_not_on_group(Se3::from_matrix(m), "RᵀR = I");
    assert!(
        msg.starts_with(
            "`m` is not an element of SE(3): RᵀR = I for the rotation block R = m[0..3, 0..3] \
             violated by 3.48"
        ),
        "{msg}"
    );
    assert!(msg.ends_with("(tolerance 1e-10)"), "{msg}");

    let mut m = good;
    m.fixed_view_mut::<3, 3>(0, 0)
        .copy_from(&Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, -1.0)));
    let msg = expect_not_on_group(Se3::from_matrix(m), "det R = +1");
    assert!(msg.contains("det R = +1 for the rotation block"), "{msg}");
}

/// The Jacobians are continuous across the series threshold `θ = √SERIES_ANGLE_SQ = 2`:
/// evaluated one ulp below it (Taylor branch) and exactly at it (closed-form branch), where the
/// genuine change of the maps (≈ 4e-16 · |ρ|) is below round-off.
#[test]
fn jacobians_are_continuous_across_the_threshold() {
    let t = SERIES_ANGLE_SQ.sqrt();
    let below_t = f64::from_bits(t.to_bits() - 1);
    assert!(below_t * below_t < SERIES_ANGLE_SQ && t * t >= SERIES_ANGLE_SQ);
    let mut w = Worst::new("Jacobians continuous at θ = 2");
    for axis in axes() {
        for rho in rhos() {
            let below = Se3Algebra::new(rho, axis * below_t);
            let above = Se3Algebra::new(rho, axis * t);
            let scale = 1.0 + rho.norm();
            let what = || format!("{rho:?}, {axis:?}");
            let jump = (left_jacobian(&below) - left_jacobian(&above)).norm();
            w.check(jump, 32.0, scale, &what);
            let jump_inv = (left_jacobian_inverse(&below) - left_jacobian_inverse(&above)).norm();
            w.check(jump_inv, 32.0, scale * scale, &what);
        }
    }
}
