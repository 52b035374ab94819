//! Boyle's closed-form rotations (M. Boyle, *The integration of angular velocity*, 2017,
//! arXiv:1604.08139): each closed-form Ṙ against a dual-number derivative of the rotor written
//! out again here (independently of the library's formulas), each ω against 2ṘR⁻¹, the
//! Zupan–Saje ω of Eq. 17 against the derivative of exp(r(t)), and the frame error norm of
//! Eq. 25 with the frame of a non-unit rotor.
//!
//! Run with `--nocapture` to see the largest deviations measured.

use std::f64::consts::{PI, TAU};

use lieode::Error;
use lieode::problems::boyle::{
    ExactRotation, NumpyQuaternionBinary, PrecessingBinary, ZupanSaje, frame_error,
    omega_from_generator, rotor_frame,
};
use nalgebra::{Matrix3, Quaternion, Vector3};
use num_dual::{Dual64, DualNum};

type DualQuat = Quaternion<Dual64>;

fn d(x: f64) -> Dual64 {
    Dual64::from(x)
}

/// `exp(θ v/2) = (cos(θ/2), sin(θ/2) v)` with a dual angle.
fn axis(theta: Dual64, v: [f64; 3]) -> DualQuat {
    let half = theta * 0.5;
    let (s, c) = (half.sin(), half.cos());
    Quaternion::new(c, s * v[0], s * v[1], s * v[2])
}

const X: [f64; 3] = [1.0, 0.0, 0.0];
const Y: [f64; 3] = [0.0, 1.0, 0.0];
const Z: [f64; 3] = [0.0, 0.0, 1.0];

/// Boyle Eq. 26 with the paper's constants (Eq. 27), written from the paper.
fn binary_by_hand(t: Dual64) -> DualQuat {
    let alpha = PI / 8.0;
    let (w_orb, w_prec, alpha_dot, nu) =
        (TAU / 1000.0, TAU / 10_000.0, 2.0 * alpha / 1e5, PI / 80.0);
    let r0 = axis(d(-3.0 * alpha / 5.0), X); // exp(−3α x/10)
    let r1 = axis(t * w_orb, Z);
    let r1_inv = axis(-(t * w_orb), Z);
    let r2 = axis(t * alpha_dot + alpha, X);
    let r3 = axis(t * w_prec, Z);
    let r3_inv = axis(-(t * w_prec), Z);
    let r4 = axis(d(nu), X);
    r0 * r1 * r4 * r1_inv * r3 * r2 * r3_inv * r1
}

/// numpy-quaternion's test binary, written from its definition.
fn numpy_binary_by_hand(t: Dual64) -> DualQuat {
    let big_t = 1e4;
    let (w_orb, w_prec) = (TAU * 100.0 / big_t, TAU * 10.0 / big_t);
    let alpha = PI / 8.0;
    let alpha_dot = 2.0 * alpha / big_t;
    let nu = 0.2 * alpha;
    let w_nu = w_prec;
    axis(d(-1.1 * alpha), X)
        * axis(t * w_prec, Z)
        * axis(t * alpha_dot + alpha, X)
        * axis(-(t * w_prec), Z)
        * axis(t * w_orb, Z)
        * axis((t * w_nu).cos() * nu, Y)
}

/// Zupan–Saje generator `r(t)` of example `k` (Boyle Appendix), written from the figure titles.
fn generator_by_hand(k: usize, t: Dual64) -> Vector3<Dual64> {
    let s2 = (t * 2.0).sin().powi(2);
    let v = match k {
        1 => Vector3::new(s2, d(0.0), (t * 2.0).cos()),
        2 => Vector3::new(
            s2,
            t.cos() + (t * 100.0).sin() * 0.08,
            t.sin() + (t * 100.0).cos() * 0.08,
        ),
        3 => Vector3::new(s2 + 2.0, t, t.powi(3) * 5.0 - t * 4.0),
        4 => Vector3::new(s2, d(0.0), t.sin() + (t * 100.0).cos() * 0.08),
        _ => unreachable!(),
    };
    v.map(|c| c * 0.5)
}

/// `exp(r) = (cos|r|, sin|r| r/|r|)` with dual entries (`|r| > 0` at the sampled times).
fn exp_by_hand(r: &Vector3<Dual64>) -> DualQuat {
    let n = (r.x * r.x + r.y * r.y + r.z * r.z).sqrt();
    let k = n.sin() / n;
    Quaternion::new(n.cos(), r.x * k, r.y * k, r.z * k)
}

fn re(q: &DualQuat) -> Quaternion<f64> {
    Quaternion::new(q.w.re, q.i.re, q.j.re, q.k.re)
}

fn eps(q: &DualQuat) -> Quaternion<f64> {
    Quaternion::new(q.w.eps, q.i.eps, q.j.eps, q.k.eps)
}

/// `R u R⁻¹` by quaternion products.
fn sandwich(r: &Quaternion<f64>, u: &Vector3<f64>) -> Vector3<f64> {
    (r * Quaternion::from_imag(*u) * r.try_inverse().unwrap()).imag()
}

/// The largest deviations seen over a problem's samples.
#[derive(Debug, Default)]
struct Deviations {
    unit: f64,
    rotor: f64,
    rotor_rate: f64,
    omega: f64,
    omega_scalar: f64,
    omega_body: f64,
    frame: f64,
}

/// Checks `problem` at 21 times spread over its span against the dual-number rotor `by_hand`.
fn check_problem(
    name: &str,
    problem: &impl ExactRotation,
    by_hand: impl Fn(Dual64) -> DualQuat,
) -> Deviations {
    let (t0, t1) = problem.span();
    let mut dev = Deviations::default();
    for k in 0..=20 {
        // Irregular times inside the span, the ends included.
        let t = t0 + (t1 - t0) * ((k as f64 + 0.37 * (k % 3) as f64) / 20.0).min(1.0);
        let r = problem.rotor(t);
        let unit = (r.norm() - 1.0).abs();
        assert!(unit < 1e-14, "{name} at {t}: |R| − 1 = {unit:e}");
        dev.unit = dev.unit.max(unit);

        let hand = by_hand(Dual64::new(t, 1.0));
        let rotor = (re(&hand) - r).norm();
        assert!(
            rotor < 1e-13,
            "{name} at {t}: R differs from the paper's by {rotor:e}"
        );
        dev.rotor = dev.rotor.max(rotor);

        // Ṙ in closed form against the forward-mode derivative.
        let dr = problem.rotor_derivative(t);
        let dr_dual = eps(&hand);
        let rate = (dr - dr_dual).norm() / dr_dual.norm().max(1.0);
        assert!(rate < 1e-12, "{name} at {t}: Ṙ {dr:?} vs dual {dr_dual:?}");
        dev.rotor_rate = dev.rotor_rate.max(rate);

        // ω = 2 Ṙ R⁻¹ (Eq. 9) from the dual-number Ṙ; its scalar part vanishes.
        let w2 = dr_dual * r.try_inverse().unwrap() * 2.0;
        let scale = w2.imag().norm().max(1.0);
        let scalar = w2.w.abs() / scale;
        assert!(
            scalar < 1e-12,
            "{name} at {t}: scalar part of 2ṘR⁻¹ {:e}",
            w2.w
        );
        dev.omega_scalar = dev.omega_scalar.max(scalar);
        let w = problem.omega(t);
        let omega = (w - w2.imag()).norm() / scale;
        assert!(omega < 1e-11, "{name} at {t}: ω {w:?} vs {:?}", w2.imag());
        dev.omega = dev.omega.max(omega);

        // ω_b = R⁻¹ ω R.
        let r_inv = r.try_inverse().unwrap();
        let wb = sandwich(&r_inv, &w);
        let omega_body = (problem.omega_body(t) - wb).norm() / scale;
        assert!(omega_body < 1e-12, "{name} at {t}: ω_b");
        dev.omega_body = dev.omega_body.max(omega_body);

        // The frame: its columns are R f_i R⁻¹, orthonormal and right-handed.
        let frame = problem.frame(t);
        let mut f = (frame.transpose() * frame - Matrix3::identity()).norm();
        f = f.max((frame.determinant() - 1.0).abs());
        for i in 0..3 {
            f = f.max((frame.column(i) - sandwich(&r, &Vector3::ith(i, 1.0))).norm());
        }
        assert!(f < 1e-14, "{name} at {t}: frame off by {f:e}");
        dev.frame = dev.frame.max(f);
    }
    eprintln!("{name}: {dev:?}");
    dev
}

#[test]
fn the_precessing_binary_rotor_derivative_and_omega_are_exact() {
    let binary = PrecessingBinary::paper();
    check_problem("precessing binary", &binary, binary_by_hand);

    // The constants of Eq. 27.
    let alpha = PI / 8.0;
    assert_eq!(binary.span(), (0.0, 1e6));
    assert!((binary.omega_orb - 2.0 * PI / 1000.0).abs() < 1e-18);
    assert!((binary.omega_prec - 2.0 * PI / 10_000.0).abs() < 1e-18);
    assert!((binary.alpha - alpha).abs() < 1e-16);
    assert!((binary.alpha_dot - 2.0 * alpha / 100_000.0).abs() < 1e-21);
    assert!((binary.nu - PI / 80.0).abs() < 1e-17);
    let r0 = Quaternion::new((0.3 * alpha).cos(), -(0.3 * alpha).sin(), 0.0, 0.0);
    assert!((binary.r0 - r0).norm() < 1e-16);

    // At t = 0: R1 = R3 = 1, so R = R0 · R4 · R2(0), by hand.
    let r4 = Quaternion::new((PI / 160.0).cos(), (PI / 160.0).sin(), 0.0, 0.0);
    let r2 = Quaternion::new((alpha / 2.0).cos(), (alpha / 2.0).sin(), 0.0, 0.0);
    let expected = r0 * r4 * r2;
    assert!((binary.rotor(0.0) - expected).norm() < 1e-15);
    // All three about x: one rotation by −3α/5 + ν + α.
    let angle = -0.6 * alpha + PI / 80.0 + alpha;
    let single = Quaternion::new((angle / 2.0).cos(), (angle / 2.0).sin(), 0.0, 0.0);
    assert!((expected - single).norm() < 1e-15);
    // ω(0) = 2ṘR⁻¹ with Ṙ(0) by the product rule (Eq. 28) written out:
    // R = R0 R1 R4 R1⁻¹ R3 R2 R3⁻¹ R1 at t = 0 with Ṙ1 = R1 Ω_orb z/2, etc.
    let (z, x) = (
        Quaternion::new(0.0, 0.0, 0.0, 1.0),
        Quaternion::new(0.0, 1.0, 0.0, 0.0),
    );
    let (wo, wp, ad) = (binary.omega_orb, binary.omega_prec, binary.alpha_dot);
    let rdot0 = r0
        * (z * r4 * r2 * (wo / 2.0) - r4 * z * r2 * (wo / 2.0)
            + r4 * z * r2 * (wp / 2.0)
            + r4 * r2 * x * (ad / 2.0)
            - r4 * r2 * z * (wp / 2.0)
            + r4 * r2 * z * (wo / 2.0));
    assert!((binary.rotor_derivative(0.0) - rdot0).norm() < 1e-17);

    // The checked constructor.
    let same = PrecessingBinary::new(
        binary.omega_orb,
        binary.omega_prec,
        binary.alpha,
        binary.alpha_dot,
        binary.nu,
        binary.r0,
        1e6,
    )
    .unwrap();
    assert_eq!(same, binary);
    let bad_r0 = PrecessingBinary::new(1.0, 1.0, 1.0, 0.0, 0.1, r0 * 1.1, 1.0);
    assert!(matches!(
        bad_r0,
        Err(Error::InvalidParameter { name: "r0", .. })
    ));
    let nan = PrecessingBinary::new(1.0, f64::NAN, 1.0, 0.0, 0.1, r0, 1.0);
    assert!(matches!(nan, Err(Error::NonFinite { name: "omega_prec" })));
    let empty = PrecessingBinary::new(1.0, 1.0, 1.0, 0.0, 0.1, r0, 0.0);
    assert!(matches!(
        empty,
        Err(Error::InvalidParameter { name: "t_end", .. })
    ));
}

#[test]
fn numpy_quaternions_binary_rotor_derivative_and_omega_are_exact() {
    let binary = NumpyQuaternionBinary::default();
    check_problem("numpy-quaternion binary", &binary, numpy_binary_by_hand);
    assert_eq!(binary.span(), (0.0, 1e4));
    // At t = 0: exp(−1.1α x/2) exp(α x/2) exp(ν y/2) = exp(−0.1α x/2) exp(0.2α y/2).
    let alpha = PI / 8.0;
    let expected = Quaternion::new((0.05 * alpha).cos(), -(0.05 * alpha).sin(), 0.0, 0.0)
        * Quaternion::new((0.1 * alpha).cos(), 0.0, (0.1 * alpha).sin(), 0.0);
    assert!((binary.rotor(0.0) - expected).norm() < 1e-15);
}

#[test]
fn zupan_saje_omega_of_eq_17_is_twice_the_rotor_rate() {
    let spans = [(0.0, 100.0), (0.0, 10.0), (0.0, 10.0), (0.0, 100.0)];
    let mut worst_generator_rate: f64 = 0.0;
    for (k, span) in (1..=4).zip(spans) {
        let example = ZupanSaje::new(k).unwrap();
        assert_eq!(example.example(), k);
        assert_eq!(example.span(), span);
        check_problem(&example.name(), &example, |t| {
            exp_by_hand(&generator_by_hand(k, t))
        });
        // r and ṙ in closed form against the dual numbers.
        let (t0, t1) = span;
        for j in 0..=20 {
            let t = t0 + (t1 - t0) * (j as f64 + 0.29) / 21.0;
            let r = generator_by_hand(k, Dual64::new(t, 1.0));
            assert!(
                (example.generator(t) - r.map(|c| c.re)).norm()
                    < 1e-14 * (1.0 + r.map(|c| c.re).norm())
            );
            let rdot = r.map(|c| c.eps);
            let e = (example.generator_derivative(t) - rdot).norm() / (1.0 + rdot.norm());
            assert!(e < 1e-13, "example {k} at {t}: ṙ off by {e:e}");
            worst_generator_rate = worst_generator_rate.max(e);
            // Ṙ = ½ ω R (Eq. 10) against the dual-number Ṙ, absolutely.
            let hand = exp_by_hand(&r);
            let abs = (example.rotor_derivative(t) - eps(&hand)).norm();
            let w_abs =
                (example.omega(t) - (eps(&hand) * re(&hand).conjugate() * 2.0).imag()).norm();
            assert!(
                abs < 1e-9 && w_abs < 1e-9,
                "example {k} at {t}: {abs:e} {w_abs:e}"
            );
        }
    }
    eprintln!("Zupan–Saje ṙ: largest relative deviation {worst_generator_rate:e}");
    assert!(matches!(
        ZupanSaje::new(0),
        Err(Error::InvalidParameter {
            name: "example",
            ..
        })
    ));
    assert!(ZupanSaje::new(5).is_err());

    // Eq. 17 at r = 0 is ω = 2ṙ, and its small-|r| series joins the closed form.
    let rdot = Vector3::new(0.3, -0.2, 0.7);
    assert_eq!(omega_from_generator(&Vector3::zeros(), &rdot), rdot * 2.0);
    let unit = Vector3::new(0.6, 0.5, -0.4).normalize();
    let below = omega_from_generator(&(unit * (1e-4 * (1.0 - 1e-12))), &rdot);
    let above = omega_from_generator(&(unit * (1e-4 * (1.0 + 1e-12))), &rdot);
    assert!((below - above).norm() < 1e-14, "{below:?} {above:?}");
    // Near r = 0 it is still 2ṘR⁻¹ of R = exp(r(t)), r(t) = a + t ṙ through 0.
    let a = Vector3::new(2e-6, -1e-6, 3e-6);
    let tiny = Vector3::new(a.x.into(), a.y.into(), a.z.into()) + rdot.map(|c| Dual64::new(0.0, c));
    let q = exp_by_hand(&tiny);
    let w = (eps(&q) * re(&q).conjugate() * 2.0).imag();
    assert!((omega_from_generator(&a, &rdot) - w).norm() < 1e-15);
}

#[test]
fn the_frame_error_and_the_rotor_frame() {
    let a = Matrix3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0);
    assert_eq!(frame_error(&a, &a), 0.0);
    for column in 0..3 {
        let mut b = a;
        b[(0, column)] += 1e-3; // a_i = e_i + (1e-3, 0, 0)
        assert!((frame_error(&a, &b) - 1e-3).abs() < 1e-18);
    }
    // Errors in two columns add in quadrature.
    let mut b = a;
    b[(0, 0)] += 3e-3;
    b[(2, 1)] -= 4e-3;
    assert!((frame_error(&a, &b) - 5e-3).abs() < 1e-17);

    let q = Quaternion::new(0.3, -0.5, 0.7, 0.1);
    let f = rotor_frame(&q).unwrap();
    // Against R f_i R⁻¹ with the true inverse.
    for i in 0..3 {
        let e = sandwich(&q, &Vector3::ith(i, 1.0));
        assert!((f.column(i) - e).norm() < 1e-15);
    }
    let mut worst: f64 = 0.0;
    for c in [1e-3, 1e3, -1.0, 1e-200, 1e200] {
        let e = (rotor_frame(&(q * c)).unwrap() - f).norm();
        assert!(e < 1e-15, "scale {c}: {e:e}");
        worst = worst.max(e);
    }
    eprintln!("rotor_frame under scaling: largest change {worst:e}");
    assert!((f.transpose() * f - Matrix3::identity()).norm() < 1e-15);
    assert!(matches!(
        rotor_frame(&Quaternion::new(0.0, 0.0, 0.0, 0.0)),
        Err(Error::InvalidParameter { name: "q", .. })
    ));
    for bad in [f64::NAN, f64::INFINITY] {
        assert!(matches!(
            rotor_frame(&Quaternion::new(1.0, 0.0, bad, 0.0)),
            Err(Error::NonFinite { name: "q" })
        ));
    }
}
