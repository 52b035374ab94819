//! Rotation-specific checks: SO(3) and unit quaternions against each other, Boyle's generator
//! equation and exact summation, the Cayley map, the action on S², and bad input.

mod common;

use common::{directions, rotation_vectors};
use lieode::Error;
use lieode::lie::action::{GroupAction, UnitSphere};
use lieode::lie::coordinates::{CayleyMap, CoordinateMap, ExponentialMap};
use lieode::lie::series::{
    BERNOULLI_OVER_FACTORIAL, dexp_inv_coefficient, reduced_series_coefficients,
};
use lieode::lie::so3::{So3, So3Algebra, hat, vee};
use lieode::lie::unit_quaternion::{Su2Algebra, UnitQuat};
use lieode::lie::{LieAlgebra, LieGroup};
use nalgebra::{Matrix3, Quaternion, Vector3};
use num_dual::Dual64;
use std::f64::consts::PI;

#[test]
fn quaternion_and_matrix_rotations_agree() {
    for omega in rotation_vectors() {
        let r = So3::exp(&So3Algebra::new(omega));
        let q = UnitQuat::exp(&Su2Algebra::from_rotation_vector(&omega));
        assert!((q.to_rotation_matrix() - r.matrix()).norm() < 1e-15 * 8.0);
        // Shepperd's conversion recovers ±q.
        let back = UnitQuat::from_rotation(&r);
        let d = (back.quaternion().coords - q.quaternion().coords)
            .norm()
            .min((back.quaternion().coords + q.quaternion().coords).norm());
        assert!(d < 1e-15 * 8.0, "from_rotation at {omega:?}: {d:e}");
        // Angles and distances agree; −q is the same rotation.
        assert!((q.angle() - r.angle()).abs() < 1e-14);
        assert!((q.antipode().angle() - r.angle()).abs() < 1e-14);
        let id_q = UnitQuat::identity();
        assert!((id_q.distance(&q).unwrap() - So3::identity().distance(&r).unwrap()).abs() < 1e-14);
        assert!(q.distance(&q.antipode()).unwrap() < 1e-15);
        // Actions agree.
        for v in directions() {
            assert!((q.rotate(&v) - r.rotate(&v)).norm() < 1e-14 * (1.0 + v.norm()));
        }
    }
}

#[test]
fn su2_maps_are_so3_maps_at_twice_the_argument() {
    // With ω = 2v: dexp^{su(2)}_v(u) = ½ dexp^{so(3)}_{2v}(2u), and the same for dexp⁻¹.
    for omega in rotation_vectors() {
        if omega.norm() > 6.0 {
            continue;
        }
        let v = Su2Algebra::from_rotation_vector(&omega);
        let w = So3Algebra::new(omega);
        for u in directions() {
            let su2 = UnitQuat::dexp(&v, &Su2Algebra::new(u)).0;
            let so3 = So3::dexp(&w, &So3Algebra::new(u * 2.0)).0 * 0.5;
            assert!((su2 - so3).norm() < 1e-14);
            let su2 = UnitQuat::dexp_inv(&v, &Su2Algebra::new(u)).0;
            let so3 = So3::dexp_inv(&w, &So3Algebra::new(u * 2.0)).0 * 0.5;
            assert!((su2 - so3).norm() < 1e-13 * (1.0 + so3.norm()));
        }
    }
}

/// Boyle (2017) Eq. (18), written out independently: the generator equation
/// `ṙ = (Ω/2 − r̂(r̂·Ω/2)) |r| cot|r| + r̂(r̂·Ω/2) + (Ω/2) × r`.
fn boyle_generator_rate(r: &Vector3<f64>, omega: &Vector3<f64>) -> Vector3<f64> {
    let half = omega * 0.5;
    let n = r.norm();
    let rhat = r / n;
    let parallel = rhat * rhat.dot(&half);
    (half - parallel) * (n / n.tan()) + parallel + half.cross(r)
}

#[test]
fn quaternion_dexp_inv_is_boyles_generator_equation() {
    for r in rotation_vectors() {
        let r = r * 0.5; // generators with |r| ≤ π/2 (Boyle resets beyond)
        if r.norm() < 1e-3 {
            continue; // the test's closed form divides by |r|
        }
        for omega in directions() {
            let ours = UnitQuat::dexp_inv(&Su2Algebra::new(r), &Su2Algebra::new(omega * 0.5)).0;
            let boyle = boyle_generator_rate(&r, &omega);
            assert!(
                (ours - boyle).norm() < 1e-14 * (1.0 + boyle.norm()),
                "r = {r:?}"
            );
        }
    }
}

#[test]
fn boyles_closed_powers_of_ad_on_su2() {
    // Eq. (16): ad_p^k q = (−1)^{(k−1)/2} [p,q] (2|p|)^{k−1} (k odd), (−1)^{(k−2)/2} [p,[p,q]] (2|p|)^{k−2} (k even).
    let p = Su2Algebra::new(Vector3::<f64>::new(0.3, -0.2, 0.5));
    let q = Su2Algebra::new(Vector3::new(-0.7, 0.1, 0.4));
    let two_p = 2.0 * p.norm();
    let pq = p.bracket(&q);
    let ppq = p.bracket(&pq);
    let mut power = q;
    for k in 1..12_i32 {
        power = p.bracket(&power);
        let closed = if k % 2 == 1 {
            pq.scale((-1f64).powi((k - 1) / 2) * two_p.powi(k - 1))
        } else {
            ppq.scale((-1f64).powi((k - 2) / 2) * two_p.powi(k - 2))
        };
        assert!(
            (power.0 - closed.0).norm() < 1e-15 * (1.0 + closed.norm()),
            "k = {k}"
        );
    }
}

#[test]
fn exact_summation_reproduces_the_closed_forms() {
    for theta in [1e-6, 0.3, 1.0, 2.0, 2.9, PI] {
        // so(3): ad³ = −θ² ad.
        let beta = reduced_series_coefficients(
            |j| BERNOULLI_OVER_FACTORIAL[j],
            [0.0, -theta * theta, 0.0],
            1e-16,
        )
        .unwrap();
        assert!((beta[0] - 1.0).abs() < 1e-15);
        assert!((beta[1] + 0.5).abs() < 1e-15);
        let c = dexp_inv_coefficient(theta * theta);
        assert!(
            (beta[2] - c).abs() < 1e-13 * c,
            "θ = {theta}: {} vs {c}",
            beta[2]
        );
        // su(2) at half angle p: ad³ = −(2|p|)² ad, and Σ β_k ad^k v equals the closed dexp⁻¹.
        let p = Su2Algebra::new(Vector3::new(0.6, -0.8, 0.0) * (theta / 2.0));
        let v = Su2Algebra::new(Vector3::new(0.1, 0.2, 0.3));
        let beta = reduced_series_coefficients(
            |j| BERNOULLI_OVER_FACTORIAL[j],
            [0.0, -theta * theta, 0.0],
            1e-16,
        )
        .unwrap();
        let summed = v
            .scale(beta[0])
            .add(&p.bracket(&v).scale(beta[1]))
            .add(&p.bracket(&p.bracket(&v)).scale(beta[2]));
        let closed = UnitQuat::dexp_inv(&p, &v);
        assert!((summed.0 - closed.0).norm() < 1e-14, "θ = {theta}");
    }
}

#[test]
fn so3_log_at_pi_returns_a_valid_axis() {
    for axis in [
        Vector3::x(),
        Vector3::new(1.0, -2.0, 0.5).normalize(),
        Vector3::new(0.0, 0.6, 0.8),
    ] {
        let r = So3::exp(&So3Algebra::new(axis * PI));
        let log = r.log().unwrap();
        assert!((log.norm() - PI).abs() < 1e-15 * 8.0);
        let aligned = (log.0 - axis * PI).norm().min((log.0 + axis * PI).norm());
        assert!(aligned < 1e-7, "axis at π: {aligned:e}"); // exp at π is only accurate to √ε in the axis
        assert!((So3::exp(&log).matrix() - r.matrix()).norm() < 1e-14);
    }
    let q = UnitQuat::new(-1.0, 0.0, 0.0, 0.0).unwrap();
    let log = q.log().unwrap();
    assert!((log.norm() - PI).abs() < 1e-15);
    assert!((UnitQuat::exp(&log).quaternion().coords - q.quaternion().coords).norm() < 1e-15);
}

#[test]
fn generic_matrix_log_near_pi_is_less_accurate_than_the_closed_form() {
    use lieode::lie::matrix_group::{SoN, SoNAlgebra};
    let axis = Vector3::new(0.0, 0.6, -0.8);
    for (gap, generic_bound) in [(1e-2, 1e-13), (1e-4, 1e-11), (1e-6, 1e-9)] {
        let omega = axis * (PI - gap);
        let closed = So3::exp(&So3Algebra::new(omega)).log().unwrap().0;
        let generic = SoN::<f64, 3>::exp(&SoNAlgebra::from_coords(&omega))
            .log()
            .unwrap()
            .to_coords();
        assert!(
            (closed - omega).norm() < 1e-15 * 8.0,
            "So3 log at π − {gap:e}"
        );
        let err = (generic - omega).norm();
        assert!(err < generic_bound, "SO(n) log at π − {gap:e}: {err:e}");
    }
}

#[test]
fn cayley_map_on_so3() {
    for a in rotation_vectors() {
        let alg = So3Algebra::new(a);
        let r: So3 = CayleyMap::map(&alg);
        // Orthogonal, and equal to (I − A/2)⁻¹(I + A/2).
        let m = hat(&a);
        let reference = (Matrix3::identity() - m * 0.5).try_inverse().unwrap()
            * (Matrix3::identity() + m * 0.5);
        assert!((r.matrix() - reference).norm() < 1e-14);
        assert!((r.matrix().transpose() * r.matrix() - Matrix3::identity()).norm() < 1e-14);
        let back = <CayleyMap as CoordinateMap<So3>>::inverse(&r).unwrap();
        assert!((back.0 - a).norm() < 1e-14 * (1.0 + a.norm_squared()));
        for v in directions() {
            let v = So3Algebra::new(v);
            let d = <CayleyMap as CoordinateMap<So3>>::differential(&alg, &v);
            let round = <CayleyMap as CoordinateMap<So3>>::differential_inverse(&alg, &d);
            assert!((round.0 - v.0).norm() < 1e-14);
            // Against num-dual: d/ds cay(a + s v) cay(a)⁻¹ = dcay_a(v)^.
            let moving: So3<Dual64> = CayleyMap::map(&So3Algebra::new(Vector3::from_fn(|i, _| {
                Dual64::new(a[i], v.0[i])
            })));
            let derivative = moving.matrix().map(|x| x.eps) * r.matrix().transpose();
            assert!((vee(&derivative) - d.0).norm() < 1e-14 * (1.0 + d.0.norm()));
            assert!((derivative + derivative.transpose()).norm() < 1e-13);
        }
    }
    // The matrix-group Cayley map agrees with the so(3) closed forms.
    {
        use lieode::lie::matrix_group::{SoN, SoNAlgebra};
        let a = Vector3::new(0.3, -1.2, 0.8);
        let v = Vector3::new(1.0, 0.5, -0.25);
        let (an, vn) = (
            SoNAlgebra::<f64, 3>::from_coords(&a),
            SoNAlgebra::<f64, 3>::from_coords(&v),
        );
        let (a3, v3) = (So3Algebra::new(a), So3Algebra::new(v));
        let gn: SoN<f64, 3> = CayleyMap::map(&an);
        let g3: So3 = CayleyMap::map(&a3);
        assert!((gn.matrix() - g3.matrix()).norm() < 1e-15 * 8.0);
        let dn = <CayleyMap as CoordinateMap<SoN<f64, 3>>>::differential(&an, &vn).to_coords();
        let d3 = <CayleyMap as CoordinateMap<So3>>::differential(&a3, &v3).0;
        assert!((dn - d3).norm() < 1e-15 * 8.0);
        let dn =
            <CayleyMap as CoordinateMap<SoN<f64, 3>>>::differential_inverse(&an, &vn).to_coords();
        let d3 = <CayleyMap as CoordinateMap<So3>>::differential_inverse(&a3, &v3).0;
        assert!((dn - d3).norm() < 1e-15 * 8.0);
        let back = <CayleyMap as CoordinateMap<SoN<f64, 3>>>::inverse(&gn)
            .unwrap()
            .to_coords();
        assert!((back - a).norm() < 1e-14);
    }
    let half_turn = So3::exp(&So3Algebra::new(Vector3::new(0.0, PI, 0.0)));
    let err = <CayleyMap as CoordinateMap<So3>>::inverse(&half_turn).unwrap_err();
    assert!(matches!(
        err,
        Error::CoordinateMapUndefined {
            map: "inverse Cayley",
            ..
        }
    ));
    assert!(err.to_string().contains("π"), "{err}");
}

/// The Cayley map of SU(2): the quaternion `(1 + v/2)(1 − v/2)⁻¹` computed by quaternion
/// algebra, unit norm, its inverse, its differentials against num-dual, and the rotation it
/// represents: angle `4 atan(|v|/2)` about `v`.
#[test]
fn cayley_map_on_su2() {
    type Map = CayleyMap;
    for a in rotation_vectors() {
        let v = Su2Algebra::new(a * 0.5);
        let q: UnitQuat = <Map as CoordinateMap<UnitQuat>>::map(&v);
        let pure = Quaternion::new(0.0, v.0.x, v.0.y, v.0.z);
        let one = Quaternion::identity();
        let reference = (one + pure * 0.5) * (one - pure * 0.5).try_inverse().unwrap();
        assert!((q.quaternion() - reference).norm() < 1e-15 * 4.0, "{a}");
        assert!((q.quaternion().norm() - 1.0).abs() < 1e-15);
        let angle = 4.0 * (v.0.norm() / 2.0).atan();
        assert!(
            (q.angle() - angle.min(std::f64::consts::TAU - angle)).abs() < 1e-13,
            "{a}"
        );
        let back = <Map as CoordinateMap<UnitQuat>>::inverse(&q).unwrap();
        assert!(
            (back.0 - v.0).norm() < 1e-14 * (1.0 + v.0.norm_squared()),
            "{a}"
        );
        for w in directions() {
            let w = Su2Algebra::new(w);
            let d = <Map as CoordinateMap<UnitQuat>>::differential(&v, &w);
            let round = <Map as CoordinateMap<UnitQuat>>::differential_inverse(&v, &d);
            assert!((round.0 - w.0).norm() < 1e-14 * (1.0 + w.0.norm()));
            // d/ds cay(v + s w) · cay(v)⁻¹ = (0, dcay_v(w)).
            let moving: UnitQuat<Dual64> = <Map as CoordinateMap<UnitQuat<Dual64>>>::map(
                &Su2Algebra::new(Vector3::from_fn(|i, _| Dual64::new(v.0[i], w.0[i]))),
            );
            let derivative = Quaternion::from(moving.quaternion().coords.map(|x| x.eps))
                * q.quaternion().conjugate();
            assert!(derivative.w.abs() < 1e-14, "{derivative:?}");
            assert!((derivative.imag() - d.0).norm() < 1e-14 * (1.0 + d.0.norm()));
        }
    }
    let minus_one = UnitQuat::from_quaternion(Quaternion::new(-1.0, 0.0, 0.0, 0.0)).unwrap();
    let err = <Map as CoordinateMap<UnitQuat>>::inverse(&minus_one).unwrap_err();
    assert!(matches!(err, Error::CoordinateMapUndefined { .. }), "{err}");
}

#[test]
fn exponential_coordinate_map_is_exp() {
    let xi = So3Algebra::new(Vector3::new(0.4, 0.1, -1.2));
    let v = So3Algebra::new(Vector3::new(1.0, 2.0, 3.0));
    let g: So3 = ExponentialMap::map(&xi);
    assert_eq!(g, So3::exp(&xi));
    assert_eq!(
        <ExponentialMap as CoordinateMap<So3>>::differential(&xi, &v),
        So3::dexp(&xi, &v)
    );
    assert_eq!(
        <ExponentialMap as CoordinateMap<So3>>::differential_inverse(&xi, &v),
        So3::dexp_inv(&xi, &v)
    );
    assert_eq!(
        <ExponentialMap as CoordinateMap<So3>>::inverse(&g).unwrap(),
        g.log().unwrap()
    );
}

#[test]
fn rotations_act_on_the_sphere() {
    let x = UnitSphere::new_normalized(Vector3::<f64>::new(0.2, -0.5, 0.9)).unwrap();
    let a = So3::exp(&So3Algebra::new(Vector3::new(0.3, 1.2, -0.4)));
    let b = So3::exp(&So3Algebra::new(Vector3::new(-2.0, 0.1, 0.7)));
    let e = So3::identity();
    assert_eq!(x.act(&e), x);
    let lhs = x.act(&b).act(&a);
    let rhs = x.act(&a.compose(&b));
    assert!((lhs.point() - rhs.point()).norm() < 1e-15 * 8.0);
    assert!((lhs.point().norm() - 1.0).abs() < 1e-15 * 4.0);
    // Quaternions act like their rotations.
    let q = UnitQuat::from_rotation(&a);
    assert!((x.act(&q).point() - x.act(&a).point()).norm() < 1e-15 * 8.0);
    assert!((x.distance(&x.act(&a)) - x.point().angle(x.act(&a).point())).abs() < 1e-14);
    // Infinitesimal action = d/dt exp(tξ)·x at 0, by dual numbers.
    for w in directions() {
        let t = Dual64::new(0.0, 1.0);
        let xd = x.point().map(Dual64::from);
        let so3 = So3::exp(&So3Algebra::new(w.map(|c| t * c)));
        let moved = xd.act(&so3).map(|c| c.eps);
        let inf = <UnitSphere as GroupAction<So3>>::infinitesimal(&x, &So3Algebra::new(w));
        assert!((moved - inf).norm() < 1e-15 * 8.0);
        let su2 = UnitQuat::exp(&Su2Algebra::new(w.map(|c| t * c)));
        let moved = xd.act(&su2).map(|c| c.eps);
        let inf = <UnitSphere as GroupAction<UnitQuat>>::infinitesimal(&x, &Su2Algebra::new(w));
        assert!((moved - inf).norm() < 1e-15 * 8.0);
    }
}

#[test]
fn bad_input_gives_named_errors() {
    // Non-orthogonal matrix.
    let mut m = Matrix3::identity();
    m[(0, 1)] = 1e-3;
    let err = So3::from_matrix(m).unwrap_err();
    assert!(matches!(
        err,
        Error::NotOnGroup {
            group: "SO(3)",
            name: "m",
            constraint: "mᵀm = I",
            ..
        }
    ));
    assert!(
        err.to_string().contains("`m` is not an element of SO(3)"),
        "{err}"
    );
    // A reflection.
    let err = So3::from_matrix(Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, -1.0))).unwrap_err();
    assert!(
        matches!(
            err,
            Error::NotOnGroup {
                constraint: "det m = +1",
                ..
            }
        ),
        "{err}"
    );
    // Non-finite entries.
    m[(2, 2)] = f64::NAN;
    assert_eq!(
        So3::from_matrix(m).unwrap_err(),
        Error::NonFinite { name: "m" }
    );
    assert_eq!(
        So3::from_axis_angle(&Vector3::zeros(), 1.0)
            .unwrap_err()
            .to_string(),
        "invalid parameter `axis` = 0: expected a non-zero vector"
    );
    assert!(So3::from_matrix_with_tolerance(Matrix3::<f64>::identity(), -1.0).is_err());
    // Non-unit quaternion.
    let err = UnitQuat::new(1.0, 1.0, 0.0, 0.0).unwrap_err();
    assert!(matches!(
        err,
        Error::NotOnGroup {
            group: "SU(2)",
            name: "q",
            constraint: "|q| = 1",
            ..
        }
    ));
    assert!(
        err.to_string().contains("|q| = 1 violated by 4.14"),
        "{err}"
    );
    assert_eq!(
        UnitQuat::new(f64::INFINITY, 0.0, 0.0, 0.0).unwrap_err(),
        Error::NonFinite { name: "q" }
    );
    assert!(matches!(
        UnitQuat::from_quaternion_normalized(Quaternion::new(0.0, 0.0, 0.0, 0.0)),
        Err(Error::InvalidParameter { name: "q", .. })
    ));
    let q =
        UnitQuat::from_quaternion_normalized(Quaternion::<f64>::new(1.0, 2.0, 3.0, 4.0)).unwrap();
    assert!((q.quaternion().norm() - 1.0).abs() < 1e-15);
    // Off-sphere point.
    assert!(matches!(
        UnitSphere::new(Vector3::new(1.0, 1.0, 0.0)),
        Err(Error::NotOnGroup {
            group: "S²",
            name: "x",
            ..
        })
    ));
    assert!(matches!(
        UnitSphere::new(Vector3::new(f64::NAN, 0.0, 0.0)),
        Err(Error::NonFinite { name: "x" })
    ));
}
