//! Boyle's closed-form rotations: each rotor derivative against a dual-number derivative of the
//! same rotor, each ω against 2ṘR⁻¹, the Zupan–Saje ω of Eq. 17 against the derivative of
//! exp(r(t)), and the frame error norm.

use lieode::Error;
use lieode::problems::boyle::{
    ExactRotation, NumpyQuaternionBinary, PrecessingBinary, ZupanSaje, frame_error,
    omega_from_generator, rotor_frame,
};
use nalgebra::{Matrix3, Quaternion, Vector3};
use num_dual::Dual64;

/// The derivative parts of a dual-number quaternion.
fn eps(q: &Quaternion<Dual64>) -> Quaternion<f64> {
    Quaternion::new(q.w.eps, q.i.eps, q.j.eps, q.k.eps)
}

fn re(q: &Quaternion<Dual64>) -> Quaternion<f64> {
    Quaternion::new(q.w.re, q.i.re, q.j.re, q.k.re)
}

/// ω = 2 Ṙ R⁻¹ from a derivative `dr` (vector part) and its scalar part.
fn omega_of(r: &Quaternion<f64>, dr: &Quaternion<f64>) -> (Vector3<f64>, f64) {
    let w = dr * r.conjugate() * 2.0;
    (w.imag(), w.w)
}

fn check_problem(
    name: &str,
    problem: &impl ExactRotation,
    dual: impl Fn(Dual64) -> Quaternion<Dual64>,
) {
    let (t0, t1) = problem.span();
    for k in 0..=20 {
        let t = t0 + (t1 - t0) * (k as f64 + 0.37) / 21.0;
        let r = problem.rotor(t);
        assert!(
            (r.norm() - 1.0).abs() < 1e-14,
            "{name} at {t}: |R| = {}",
            r.norm()
        );
        let d = dual(Dual64::new(t, 1.0));
        assert!(
            (re(&d) - r).norm() < 1e-14,
            "{name}: generic rotor differs at {t}"
        );
        let dr = problem.rotor_derivative(t);
        let scale = 1.0 + dr.norm();
        assert!(
            (eps(&d) - dr).norm() < 1e-13 * scale,
            "{name} at {t}: Ṙ {dr:?} vs dual {:?}",
            eps(&d)
        );
        let (w_dual, scalar) = omega_of(&r, &eps(&d));
        assert!(
            scalar.abs() < 1e-12 * scale,
            "{name}: scalar part of 2ṘR⁻¹ = {scalar:e}"
        );
        let w = problem.omega(t);
        assert!(
            (w - w_dual).norm() < 1e-12 * scale,
            "{name} at {t}: ω {w:?} vs {w_dual:?}"
        );
        // ω_b = R⁻¹ ω R.
        let wb = (r.conjugate() * Quaternion::from_imag(w) * r).imag();
        assert!(
            (problem.omega_body(t) - wb).norm() < 1e-12 * scale,
            "{name}: ω_b"
        );
        let frame = problem.frame(t);
        assert!(
            (frame.transpose() * frame - Matrix3::identity()).norm() < 1e-14,
            "{name}: frame"
        );
    }
}

#[test]
fn the_precessing_binary_rotor_derivative_and_omega_are_exact() {
    let binary = PrecessingBinary::paper();
    check_problem("binary", &binary, |t| binary.rotor_and_derivative(t).0);
    // At t = 0: R1 = R3 = 1, so R = R0 R4 R2(0) with every factor about x: exp((−3α/5 + ν + α) x/2).
    let alpha = std::f64::consts::PI / 8.0;
    let angle = -3.0 * alpha / 5.0 + std::f64::consts::PI / 80.0 + alpha;
    let expected = Quaternion::new((angle / 2.0).cos(), (angle / 2.0).sin(), 0.0, 0.0);
    assert!((binary.rotor(0.0) - expected).norm() < 1e-15);
    assert_eq!(binary.span(), (0.0, 1e6));
    assert!((binary.omega_orb - std::f64::consts::TAU / 1000.0).abs() < 1e-18);
}

#[test]
fn numpy_quaternions_binary_rotor_derivative_and_omega_are_exact() {
    let binary = NumpyQuaternionBinary::default();
    check_problem("numpy binary", &binary, |t| {
        binary.rotor_and_derivative(t).0
    });
    assert_eq!(binary.span(), (0.0, 1e4));
}

#[test]
fn zupan_saje_omega_of_eq_17_is_twice_the_rotor_rate() {
    for example in ZupanSaje::ALL {
        check_problem(&example.name(), &example, |t| example.rotor_at(t));
        // ṙ in closed form against the dual-number derivative of r(t).
        let (t0, t1) = example.span();
        for k in 0..10 {
            let t = t0 + (t1 - t0) * (k as f64 + 0.5) / 10.0;
            let r = example.generator_at(Dual64::new(t, 1.0));
            let rdot = Vector3::new(r.x.eps, r.y.eps, r.z.eps);
            assert!((example.generator_derivative(t) - rdot).norm() < 1e-12 * (1.0 + rdot.norm()));
        }
    }
    assert!(ZupanSaje::new(5).is_err());
    // Eq. 17 at r = 0 is ω = 2ṙ, and its small-|r| branch joins the closed form.
    let rdot = Vector3::new(0.3, -0.2, 0.7);
    assert_eq!(omega_from_generator(&Vector3::zeros(), &rdot), rdot * 2.0);
    let unit = Vector3::new(0.6, 0.5, -0.4).normalize();
    let below = omega_from_generator(&(unit * (1e-4 * (1.0 - 1e-12))), &rdot);
    let above = omega_from_generator(&(unit * (1e-4 * (1.0 + 1e-12))), &rdot);
    assert!((below - above).norm() < 1e-14, "{below:?} {above:?}");
}

#[test]
fn the_frame_error_and_the_rotor_frame() {
    let a = Matrix3::identity();
    assert_eq!(frame_error(&a, &a), 0.0);
    let mut b = a;
    b[(0, 1)] += 1e-3;
    assert!((frame_error(&a, &b) - 1e-3).abs() < 1e-18);
    let q = Quaternion::new(0.3, -0.5, 0.7, 0.1);
    let f = rotor_frame(&q).unwrap();
    for c in [1e-3, 1e3, 1e-200, 1e200] {
        assert!((rotor_frame(&(q * c)).unwrap() - f).norm() < 1e-15, "{c}");
    }
    assert!((f.transpose() * f - Matrix3::identity()).norm() < 1e-15);
    assert!(matches!(
        rotor_frame(&Quaternion::new(0.0, 0.0, 0.0, 0.0)),
        Err(Error::InvalidParameter { name: "q", .. })
    ));
    assert!(matches!(
        rotor_frame(&Quaternion::new(f64::NAN, 0.0, 0.0, 0.0)),
        Err(Error::NonFinite { name: "q" })
    ));
}
