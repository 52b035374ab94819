//! The SPIRAL paper's DEM model (§5), its foundations: the Hertz law against a direct
//! simulation of a collision, the clump geometry against closed forms of sphere unions, the
//! chess pieces and the Rayleigh step.

use lieode::Error;
use lieode::problems::dem::{
    AxialSphere, ChessPiece, Clump, DENSITY, Hertz, POISSON, YOUNG, rayleigh_time_step,
};
use std::f64::consts::PI;

/// The force is the derivative of the energy, and a head-on collision simulated here by small
/// velocity Verlet steps of `m δ̈ = −F(δ)` lasts the closed-form duration (to 1e-6).
#[test]
fn the_hertz_law_and_the_duration_of_a_collision() -> lieode::Result<()> {
    let modulus = Hertz::same_material_modulus(YOUNG, POISSON)?;
    assert!((modulus - 60e9 / (2.0 * (1.0 - 0.0625))).abs() < 1.0);
    let law = Hertz::new(modulus, 0.01)?;
    for delta in [1e-7, 3e-6, 2e-5] {
        let h = delta * 1e-4;
        let derivative = (law.energy(delta + h) - law.energy(delta - h)) / (2.0 * h);
        assert!((derivative - law.force(delta)).abs() < 1e-7 * law.force(delta));
    }
    assert_eq!(law.force(-1e-6), 0.0);
    assert_eq!(law.energy(0.0), 0.0);
    // A 10 mm sphere of the pieces' material hits a wall at 1 m/s.
    let mass = 4.0 / 3.0 * PI * 1e-6 * DENSITY;
    let (speed, dt) = (1.0, 1e-10);
    let (mut delta, mut v) = (0.0f64, speed);
    let mut t = 0.0;
    let mut a = 0.0;
    loop {
        v += 0.5 * dt * a;
        delta += dt * v;
        a = -law.force(delta) / mass;
        v += 0.5 * dt * a;
        t += dt;
        if delta <= 0.0 {
            break;
        }
    }
    let expected = law.contact_duration(mass, speed);
    assert!(
        (t - expected).abs() < 1e-6 * expected + 2.0 * dt,
        "{t} vs {expected}"
    );
    assert!((v + speed).abs() < 1e-6, "the rebound speed {v}");
    assert!(matches!(
        Hertz::new(-1.0, 0.01),
        Err(Error::InvalidParameter {
            name: "effective_modulus",
            ..
        })
    ));
    assert!(matches!(
        Hertz::same_material_modulus(1e9, 0.5),
        Err(Error::InvalidParameter {
            name: "poisson",
            ..
        })
    ));
    Ok(())
}

/// One sphere; two equal overlapping spheres (the union is twice the ball minus the lens
/// `π(4r + d)(2r − d)²/12`); two apart (the parallel-axis theorem).
#[test]
fn clump_geometry_against_closed_forms() -> lieode::Result<()> {
    let rho = 1000.0;
    let r = 0.02;
    let ball = Clump::new(&[AxialSphere { z: 0.3, radius: r }], rho)?;
    let m = rho * 4.0 / 3.0 * PI * r.powi(3);
    let j = ball.body().rigid().inertia();
    assert!((ball.body().mass() - m).abs() < 1e-14 * m);
    for k in 0..3 {
        assert!((j[k] - 0.4 * m * r * r).abs() < 1e-14 * j[k]);
    }
    assert!(ball.spheres()[0].z.abs() < 1e-15);
    let d = 0.025;
    let pair = Clump::new(
        &[
            AxialSphere { z: 0.0, radius: r },
            AxialSphere { z: d, radius: r },
        ],
        rho,
    )?;
    let lens = PI * (4.0 * r + d) * (2.0 * r - d).powi(2) / 12.0;
    let volume = 2.0 * 4.0 / 3.0 * PI * r.powi(3) - lens;
    assert!((pair.body().mass() - rho * volume).abs() < 1e-13 * rho * volume);
    assert!((pair.spheres()[0].z + d / 2.0).abs() < 1e-15);
    assert!((pair.height() - (d + 2.0 * r)).abs() < 1e-15);
    let d = 0.05;
    let apart = Clump::new(
        &[
            AxialSphere { z: 0.0, radius: r },
            AxialSphere { z: d, radius: r },
        ],
        rho,
    )?;
    let j = apart.body().rigid().inertia();
    let transverse = 2.0 * (0.4 * m * r * r + m * (d / 2.0).powi(2));
    assert!((j.x - transverse).abs() < 1e-13 * transverse, "{j:?}");
    assert!((j.z - 2.0 * 0.4 * m * r * r).abs() < 1e-13 * j.z);
    assert!(matches!(
        Clump::new(&[], rho),
        Err(Error::InvalidParameter {
            name: "spheres",
            ..
        })
    ));
    assert!(matches!(
        Clump::new(&[AxialSphere { z: 0.0, radius: r }], 0.0),
        Err(Error::InvalidParameter {
            name: "density",
            ..
        })
    ));
    Ok(())
}

/// Every piece has its height, overlapping spheres, and a slender inertia (axial below
/// transverse); the Rayleigh step of the smallest sphere.
#[test]
fn the_chess_pieces() -> lieode::Result<()> {
    for piece in ChessPiece::ALL {
        let clump = piece.clump(DENSITY)?;
        assert!((clump.height() - piece.height()).abs() < 1e-15, "{piece:?}");
        for w in clump.spheres().windows(2) {
            assert!(w[1].z - w[0].z < w[0].radius + w[1].radius, "{piece:?}");
        }
        let j = clump.body().rigid().inertia();
        assert!(j.z < j.x, "{piece:?}: {j:?}");
    }
    let step = rayleigh_time_step(0.010, DENSITY, YOUNG, POISSON);
    assert!((step - 1.25e-5).abs() < 0.01e-5, "{step}");
    Ok(())
}
