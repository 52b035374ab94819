//! The rigid-body model: validation of the inertia, diagonalisation of a general tensor, Euler's
//! equations, energy and momentum, and the body/lab conversions.

use lieode::body::quaternion::{exp_pure, rotation_matrix};
use lieode::body::{body_angular_velocity, lab_angular_velocity};
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
    let end = reference_solution(&body, &mut NoTorque, &start, 5.0).unwrap();
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
    assert!((body_angular_velocity(&q, &w_lab) - w_body).norm() < 1e-15);
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
