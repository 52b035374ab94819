//! The rigid-body model: validation of the inertia, diagonalisation of a general tensor, Euler's
//! equations, energy and momentum, and the body/lab conversions.

use lieode::body::quaternion::{exp_pure, rotation_matrix};
use lieode::body::{body_frame_angular_velocity, lab_angular_velocity};
use lieode::problems::reference::reference_solution;
use lieode::rotation::{NoTorque, RigidBody, RotationalState};
use nalgebra::{Matrix3, Quaternion, Vector3};

#[test]
fn bad_inertia_is_an_error_naming_it() {
    for bad in [
        [0.0, 1.0, 1.0],
        [-1.0, 2.0, 2.0],
        [f64::NAN, 1.0, 1.0],
        [1.0, f64::INFINITY, 1.0],
        [1.0, 1.0, 3.0], // violates I_z ≤ I_x + I_y
    ] {
        let err = RigidBody::new(bad).unwrap_err();
        assert!(
            matches!(
                err,
                lieode::Error::InvalidParameter {
                    name: "inertia",
                    ..
                }
            ),
            "{bad:?}: {err}"
        );
    }
    // A flat plate sits on the boundary and is accepted.
    assert!(RigidBody::new([1.0, 2.0, 3.0]).is_ok());
    let asymmetric = Matrix3::new(1.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0);
    assert!(matches!(
        RigidBody::from_tensor(&asymmetric).unwrap_err(),
        lieode::Error::InvalidParameter { name: "tensor", .. }
    ));
}

#[test]
fn a_general_tensor_is_diagonalised_into_principal_axes() {
    let principal = [1.0, 2.0, 2.5];
    let p = exp_pure(&Vector3::new(0.2, -0.4, 0.3));
    let r = rotation_matrix(&p);
    let tensor = r * Matrix3::from_diagonal(&Vector3::from(principal)) * r.transpose();
    let (body, axes) = RigidBody::from_tensor(&tensor).unwrap();
    assert!((body.inertia() - Vector3::from(principal)).norm() < 1e-13);
    // The returned rotation takes the principal frame to the given one.
    let back = rotation_matrix(&axes);
    let rebuilt = back * Matrix3::from_diagonal(&body.inertia()) * back.transpose();
    assert!((rebuilt - tensor).norm() < 1e-13);
    assert!((back.determinant() - 1.0).abs() < 1e-13);
}

#[test]
fn free_motion_conserves_energy_and_spatial_momentum() {
    let body = RigidBody::new([1.0, 2.0, 2.5]).unwrap();
    let start = RotationalState::new(
        0.0,
        exp_pure(&Vector3::new(0.1, 0.2, -0.3)),
        Vector3::new(0.3, -0.9, 0.6),
    );
    let end = reference_solution(&body, &NoTorque, &start, 5.0).unwrap();
    let e0 = body.kinetic_energy(&start.omega);
    let l0 = body.spatial_momentum(&start.q, &start.omega);
    assert!((body.kinetic_energy(&end.omega) - e0).abs() < 1e-12 * e0);
    assert!((body.spatial_momentum(&end.q, &end.omega) - l0).norm() < 1e-11 * l0.norm());
    // Back from the spatial momentum to the body angular velocity.
    let w = body.angular_velocity_from_spatial_momentum(&end.q, &l0);
    assert!((w - end.omega).norm() < 1e-11);
}

#[test]
fn body_and_lab_angular_velocities_convert_both_ways() {
    let q = exp_pure(&Vector3::new(0.3, -0.1, 0.7));
    let w_body = Vector3::new(0.4, -0.2, 1.1);
    let w_lab = lab_angular_velocity(&q, &w_body);
    assert!((w_lab - rotation_matrix(&q) * w_body).norm() < 1e-15);
    assert!((body_frame_angular_velocity(&q, &w_lab) - w_body).norm() < 1e-15);
    // A non-unit rotor gives the same directions (it is used as q v q̄ / |q|²).
    let scaled = q * 2.0;
    assert!((lab_angular_velocity(&scaled, &w_body) - w_lab).norm() < 1e-15);
    let identity = Quaternion::identity();
    assert_eq!(lab_angular_velocity(&identity, &w_body), w_body);
}

#[test]
fn eulers_equations_match_the_textbook_form() {
    // ω̇ = J⁻¹(τ − ω × Jω), written out independently of the κ form the body evaluates.
    let body = RigidBody::new([0.7, 1.9, 2.3]).unwrap();
    let inertia = Vector3::new(0.7, 1.9, 2.3);
    let kappa = body.gyroscopic_coefficients();
    assert!((kappa - Vector3::new(-0.4 / 0.7, 1.6 / 1.9, -1.2 / 2.3)).norm() < 1e-15);
    for (w, tau) in [
        (Vector3::new(0.3, -0.9, 0.6), Vector3::new(0.5, 0.0, 0.0)),
        (
            Vector3::new(-12.0, 7.5, 3.25),
            Vector3::new(-1.0, 2.0, 0.25),
        ),
        (Vector3::new(1e-8, 0.0, -2e-8), Vector3::zeros()),
    ] {
        let textbook = (tau - w.cross(&inertia.component_mul(&w))).component_div(&inertia);
        let ours = body.angular_acceleration(&w, &tau);
        assert!(
            (ours - textbook).norm() <= 8.0 * f64::EPSILON * (textbook.norm() + w.norm_squared()),
            "{ours} vs {textbook}"
        );
    }
}

/// The states and torques the form checks below run on: generic, large, tiny, with zeros.
fn euler_inputs() -> [(Vector3<f64>, Vector3<f64>); 4] {
    [
        (Vector3::new(0.3, -0.9, 0.6), Vector3::new(0.5, 0.0, 0.0)),
        (
            Vector3::new(-12.0, 7.5, 3.25),
            Vector3::new(-1.0, 2.0, 0.25),
        ),
        (Vector3::new(1e-8, 0.0, -2e-8), Vector3::zeros()),
        (Vector3::new(0.7, 1.3, -0.2), Vector3::new(0.1, -0.3, 0.2)),
    ]
}

/// Each form of Euler's equations is the formula its documentation states, evaluated in that
/// order, bit for bit (the published results depend on those orders), and every form agrees
/// with the others to rounding.
#[test]
fn every_form_of_eulers_equations_is_its_formula_and_they_agree() {
    let (a, b, c) = (0.7, 1.9, 2.3);
    let body = RigidBody::new([a, b, c]).unwrap();
    let j = Vector3::new(a, b, c);
    let j_inv = Vector3::new(1.0 / a, 1.0 / b, 1.0 / c);
    let kappa = Vector3::new((b - c) / a, (c - a) / b, (a - b) / c);
    assert_eq!(body.inertia(), j);
    assert_eq!(body.inverse_inertia(), j_inv);
    assert_eq!(body.gyroscopic_coefficients(), kappa);
    let r = rotation_matrix(&exp_pure(&Vector3::new(0.2, -0.4, 0.3)));
    for (w, tau) in euler_inputs() {
        // ω form, J⁻¹τ + κ ⊙ (ω_y ω_z, ω_z ω_x, ω_x ω_y): the catalogue's.
        let d = j_inv.component_mul(&tau);
        let gyroscopic = Vector3::new(
            d.x + kappa.x * (w.y * w.z),
            d.y + kappa.y * (w.z * w.x),
            d.z + kappa.z * (w.x * w.y),
        );
        assert_eq!(body.angular_acceleration(&w, &tau), gyroscopic);
        // (τ − ω × Jω) ⊘ J: the torqued body's.
        let cross = (tau - w.cross(&j.component_mul(&w))).component_div(&j);
        assert_eq!(body.angular_acceleration_by_cross_product(&w, &tau), cross);
        // (τ_x + ω_y ω_z (I_y − I_z)) / I_x, …: the SPIRAL cylinder's.
        let components = Vector3::new(
            (tau.x + w.y * w.z * (b - c)) / a,
            (tau.y + w.z * w.x * (c - a)) / b,
            (tau.z + w.x * w.y * (a - b)) / c,
        );
        assert_eq!(
            body.angular_acceleration_by_components(&w, &tau),
            components
        );
        let scale = 8.0 * f64::EPSILON * (cross.norm() + w.norm_squared());
        assert!(
            (gyroscopic - cross).norm() <= scale,
            "{gyroscopic} vs {cross}"
        );
        assert!(
            (components - cross).norm() <= scale,
            "{components} vs {cross}"
        );

        // Momentum form, Π̇ = τ − (Π ⊙ J⁻¹) × Π: Krysl's body form and AKW.
        let p = j.component_mul(&w);
        assert_eq!(body.body_momentum(&w), p);
        let omega = p.component_mul(&j_inv);
        assert_eq!(body.body_angular_velocity(&p), omega);
        let rate = tau - omega.cross(&p);
        assert_eq!(body.momentum_rate(&p, &tau), rate);
        assert!((rate - j.component_mul(&cross)).norm() <= 4.0 * scale * c);

        // Lab form: ω = J⁻¹ (Rᵀ π) for the spatial momentum π = RΠ.
        let spatial = r * p;
        assert_eq!(
            body.angular_velocity_from_spatial(&r, &spatial),
            r.tr_mul(&spatial).component_mul(&j_inv)
        );
        assert!((body.angular_velocity_from_spatial(&r, &spatial) - w).norm() < 1e-14 * w.norm());

        // The energy from ω and from Π.
        let energy = 0.5 * w.dot(&p);
        assert_eq!(body.kinetic_energy(&w), energy);
        assert_eq!(
            body.kinetic_energy_of_momentum(&p),
            0.5 * p.dot(&p.component_mul(&j_inv))
        );
        assert!(
            (body.kinetic_energy_of_momentum(&p) - energy).abs() <= 4.0 * f64::EPSILON * energy
        );
    }
}

/// `cast` converts the stored coefficients without recomputing them: over `f64` the body is
/// the same; over dual numbers the real parts are the `f64` results — bit for bit for the forms
/// without a division (`num-dual` divides by multiplying with the reciprocal, so the two
/// division forms agree to rounding) — and the derivatives are the Jacobian of Euler's
/// equations.
#[test]
fn a_cast_body_evaluates_the_same_equations_with_derivatives() {
    use num_dual::Dual64;
    let body = RigidBody::new([0.7, 1.9, 2.3]).unwrap();
    assert_eq!(body.cast::<f64>(), body);
    let dual = body.cast::<Dual64>();
    assert_eq!(dual.inertia().map(|x| x.re), body.inertia());
    assert_eq!(dual.inverse_inertia().map(|x| x.re), body.inverse_inertia());
    assert_eq!(
        dual.gyroscopic_coefficients().map(|x| x.re),
        body.gyroscopic_coefficients()
    );
    assert!(dual.inertia().iter().all(|x| x.eps == 0.0));
    let kappa = body.gyroscopic_coefficients();
    for (w, tau) in euler_inputs() {
        let tau_d = tau.map(Dual64::from);
        // Differentiate with respect to ω_y.
        let w_d = Vector3::new(Dual64::from(w.x), Dual64::new(w.y, 1.0), Dual64::from(w.z));
        let forms = [
            (
                dual.angular_acceleration(&w_d, &tau_d),
                body.angular_acceleration(&w, &tau),
                true,
            ),
            (
                dual.angular_acceleration_by_cross_product(&w_d, &tau_d),
                body.angular_acceleration_by_cross_product(&w, &tau),
                false,
            ),
            (
                dual.angular_acceleration_by_components(&w_d, &tau_d),
                body.angular_acceleration_by_components(&w, &tau),
                false,
            ),
        ];
        // ∂ω̇/∂ω_y = (κ_x ω_z, 0, κ_z ω_x).
        let column = Vector3::new(kappa.x * w.z, 0.0, kappa.z * w.x);
        for (d, f, exact) in forms {
            let re = d.map(|x| x.re);
            if exact {
                assert_eq!(re, f);
            } else {
                assert!(
                    (re - f).norm() <= 4.0 * f64::EPSILON * f.norm(),
                    "{re} vs {f}"
                );
            }
            assert!((d.map(|x| x.eps) - column).norm() <= 1e-14 * (1.0 + column.norm()));
        }
        let p = body.body_momentum(&w);
        let p_d = dual.body_momentum(&w_d);
        assert_eq!(p_d.map(|x| x.re), p);
        assert_eq!(
            dual.momentum_rate(&p_d, &tau_d).map(|x| x.re),
            body.momentum_rate(&p, &tau)
        );
        assert_eq!(dual.kinetic_energy(&w_d).re, body.kinetic_energy(&w));
        // ∂T/∂ω_y = I_y ω_y.
        assert!((dual.kinetic_energy(&w_d).eps - 1.9 * w.y).abs() <= 1e-15 * (1.0 + w.y.abs()));
    }
}

/// The problems' Euler's equations are the body's, bit for bit.
#[test]
fn the_problems_use_the_bodys_eulers_equations() {
    use lieode::problems::{SpiralCylinder, TorquedRigidBody};
    let p = TorquedRigidBody::default();
    assert_eq!(
        p.inertia(),
        Vector3::from(TorquedRigidBody::DEFAULT_INERTIA)
    );
    assert_eq!(
        *p.rigid(),
        RigidBody::new(TorquedRigidBody::DEFAULT_INERTIA).unwrap()
    );
    let c = SpiralCylinder::paper().unwrap();
    let tau_c = c.torque().0;
    for (k, (w, _)) in euler_inputs().into_iter().enumerate() {
        let t = 0.3 * k as f64;
        let r = p.exact_rotation_generic(t);
        let tau = p.torque(t, r.matrix(), &w);
        assert_eq!(
            p.angular_acceleration(t, r.matrix(), &w),
            p.rigid().angular_acceleration_by_cross_product(&w, &tau)
        );
        assert_eq!(
            c.euler_rhs(&w),
            c.body().angular_acceleration_by_components(&w, &tau_c)
        );
    }
}

/// `Body` is the rigid body with a mass, in `body` and still as `system::Body`; its tensor
/// constructor is the rigid body's with the mass checked after the tensor.
#[test]
fn a_body_with_mass_builds_on_the_rigid_body() {
    use lieode::body::Body;
    let p = exp_pure(&Vector3::new(0.2, -0.4, 0.3));
    let r = rotation_matrix(&p);
    let tensor = r * Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 2.5)) * r.transpose();
    let (body, axes): (lieode::system::Body, _) = Body::from_tensor(3.0, &tensor).unwrap();
    let (rigid, rigid_axes) = RigidBody::from_tensor(&tensor).unwrap();
    assert_eq!(*body.rigid(), rigid);
    assert_eq!(axes, rigid_axes);
    assert_eq!(body, Body::with_rigid(3.0, rigid).unwrap());
    assert_eq!(body.mass(), 3.0);
    let name = |e: lieode::Error| match e {
        lieode::Error::InvalidParameter { name, .. } => name,
        lieode::Error::NonFinite { name } => name,
        other => panic!("{other}"),
    };
    let skew = Matrix3::new(1.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0);
    assert_eq!(name(Body::from_tensor(-1.0, &skew).unwrap_err()), "tensor");
    assert_eq!(name(Body::from_tensor(-1.0, &tensor).unwrap_err()), "mass");
    assert_eq!(
        name(Body::from_tensor(f64::NAN, &tensor).unwrap_err()),
        "mass"
    );
}
