//! The SPIRAL paper's DEM model (§5), its foundations: the Hertz law against a direct
//! simulation of a collision, the clump geometry against closed forms of sphere unions, the
//! chess pieces and the Rayleigh step.

use lieode::Error;
use lieode_reproduce::dem::{
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
    let expected = law.contact_duration(mass, speed).unwrap();
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

mod box_model {
    use lieode::adaptive::{ControllerParameters, Dop853, Tolerances, VectorStepper};
    use lieode::body::quaternion::times_pure;
    use lieode::integrate::{Options, integrate};
    use lieode::problems::SpringPair;
    use lieode::stepper::{Span, Stepper};
    use lieode::system::{Loads, SpiralLeapfrogSystem, SystemForces, SystemState, SystemView};
    use lieode_reproduce::dem::{
        AxialSphere, CellList, ChessPiece, Clump, DENSITY, Hertz, POISSON, PieceBox, YOUNG,
    };
    use nalgebra::{Quaternion, SVector, Vector3};

    /// A 10 mm sphere hits the wall x = L head-on at 1 m/s: under SPIRAL leapfrog with
    /// Δt = 1e-9 s it stays in contact for the Hertz duration (to 1e-4) and rebounds at 1 m/s.
    #[test]
    fn a_sphere_bounces_off_a_wall_for_the_hertz_duration() -> lieode::Result<()> {
        let modulus = Hertz::same_material_modulus(YOUNG, POISSON)?;
        let r = 0.01;
        let ball = Clump::new(&[AxialSphere { z: 0.0, radius: r }], DENSITY)?;
        let mass = ball.body().mass();
        let half = 0.1;
        let mut model = PieceBox::new(vec![ball.clone()], half, modulus)?;
        let mut y0 = SystemState::at_rest(0.0, 1);
        let gap = 1e-6;
        y0.positions[0].x = half - r - gap;
        y0.velocities[0].x = 1.0;
        let dt = 1e-9;
        let mut spiral =
            SpiralLeapfrogSystem::new(model.bodies(), lieode::rotation::SpiralLeapfrog::new);
        spiral.start(&mut model, &Span::open(0.0, dt)?, &y0)?;
        let (mut entered, mut left) = (None, None);
        let mut previous = y0.positions[0].x;
        for n in 1..200_000 {
            spiral.step(&mut model)?;
            let x = spiral.state(&mut model)?.positions[0].x;
            let surface = half - r;
            let t = n as f64 * dt;
            // Linear interpolation of the crossing inside the step.
            let crossing = |a: f64, b: f64| t - dt + dt * (surface - a) / (b - a);
            if entered.is_none() && x > surface {
                entered = Some(crossing(previous, x));
            } else if entered.is_some() && x < surface {
                left = Some(crossing(previous, x));
                break;
            }
            previous = x;
        }
        let (entered, left) = (entered.expect("contact"), left.expect("separation"));
        let expected = Hertz::new(modulus, r)?.contact_duration(mass, 1.0)?;
        assert!(
            ((left - entered) - expected).abs() < 1e-4 * expected,
            "{} vs {expected}",
            left - entered
        );
        let end = spiral.state(&mut model)?;
        assert!(
            (end.velocities[0].x + 1.0).abs() < 1e-4,
            "{:?}",
            end.velocities[0]
        );
        Ok(())
    }

    /// The cell list finds every touching pair a test of all pairs finds.
    #[test]
    fn the_cell_list_finds_every_close_pair() -> lieode::Result<()> {
        let half = Vector3::repeat(0.2);
        let mut cells = CellList::new(half, 0.04)?;
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut uniform = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 0.4 - 0.2
        };
        let centres: Vec<Vector3<f64>> = (0..400)
            .map(|_| Vector3::new(uniform(), uniform(), uniform()))
            .collect();
        cells.bin(&centres)?;
        let mut found = Vec::new();
        cells.for_each_near_pair(|a, b| {
            if (centres[a] - centres[b]).norm() < 0.04 {
                found.push((a, b));
            }
        });
        found.sort_unstable();
        let mut all = Vec::new();
        for a in 0..centres.len() {
            for b in a + 1..centres.len() {
                if (centres[a] - centres[b]).norm() < 0.04 {
                    all.push((a, b));
                }
            }
        }
        assert!(!all.is_empty());
        assert_eq!(found, all);
        Ok(())
    }

    /// The continuous model conserves energy: DOP853 at 1e-12 on the ambient ODE of a king and
    /// a pawn colliding (tilted, spinning) keeps the total energy to 1e-9 through the contact —
    /// the loads derive from the Hertz energies, torques included.
    #[test]
    fn the_continuous_model_conserves_energy_through_a_collision() -> lieode::Result<()> {
        let modulus = Hertz::same_material_modulus(YOUNG, POISSON)?;
        let mut model =
            PieceBox::chess(&[ChessPiece::King, ChessPiece::Pawn], 0.2, DENSITY, modulus)?;
        let mut y0 = SystemState::at_rest(0.0, 2);
        y0.positions[0] = Vector3::new(-0.03, 0.0, 0.0);
        y0.positions[1] = Vector3::new(0.025, 0.004, 0.01);
        y0.velocities[0] = Vector3::new(1.0, 0.1, 0.0);
        y0.velocities[1] = Vector3::new(-1.0, 0.0, 0.2);
        y0.rotors[0] = Quaternion::new(0.9, 0.3, -0.2, 0.1).normalize();
        y0.rotors[1] = Quaternion::new(0.8, -0.1, 0.4, 0.3).normalize();
        y0.omegas[0] = Vector3::new(1.0, -2.0, 3.0);
        y0.omegas[1] = Vector3::new(-3.0, 1.0, 2.0);
        let e0 = model.energy(&y0);
        let bodies = model.bodies();
        let mut loads = Loads::zeros(2);
        let mut rate = |t: f64, y: &SVector<f64, 26>| {
            let s = SpringPair::from_vector(t, y);
            loads.forces.iter_mut().for_each(|f| *f = Vector3::zeros());
            loads.torques.iter_mut().for_each(|f| *f = Vector3::zeros());
            let view = SystemView {
                t,
                positions: &s.positions,
                velocities: &s.velocities,
                rotors: &s.rotors,
                omegas: &s.omegas,
            };
            model.loads(&view, &mut loads);
            let mut d = SVector::<f64, 26>::zeros();
            for (i, body) in bodies.iter().enumerate() {
                let o = 13 * i;
                let rigid = body.rigid();
                let q = s.rotors[i];
                let tau = lieode::body::quaternion::rotate_inverse(&q, &loads.torques[i]);
                d.fixed_rows_mut::<3>(o).copy_from(&s.velocities[i]);
                d.fixed_rows_mut::<3>(o + 3)
                    .copy_from(&(loads.forces[i] / body.mass()));
                d.fixed_rows_mut::<4>(o + 6)
                    .copy_from(&(times_pure(&q, &s.omegas[i]) * 0.5).coords);
                d.fixed_rows_mut::<3>(o + 10)
                    .copy_from(&rigid.angular_acceleration(&s.omegas[i], &tau));
            }
            d
        };
        let y = SpringPair::to_vector(&y0);
        let method = Dop853::new(
            Tolerances::scalar(1e-12, 1e-12)?,
            ControllerParameters::dop853(),
        )?;
        let solution = integrate(
            &mut VectorStepper::new(method),
            &mut rate,
            &y,
            &Span::new(0.0, 0.02)?,
            Options::default(),
        )?;
        let (t, end) = solution.last().expect("the end");
        // The ambient layout of two bodies is the spring pair's.
        let s = SpringPair::from_vector(t, end);
        // The pieces met: the light pawn bounced back.
        assert!(s.velocities[1].x > 0.0, "{:?}", s.velocities[1]);
        let e1 = model.energy(&s);
        assert!((e1 - e0).abs() < 1e-9 * e0, "{e0} → {e1}");
        Ok(())
    }
}

mod chess_set {
    use lieode::stepper::{Span, Stepper};
    use lieode::system::{SpiralLeapfrogSystem, SystemState};
    use lieode_reproduce::dem::{
        DENSITY, Hertz, POISSON, PieceBox, YOUNG, chess_set, random_state,
    };

    fn run(
        model: &mut PieceBox,
        y0: &SystemState,
        dt: f64,
        duration: f64,
    ) -> lieode::Result<SystemState> {
        let mut spiral =
            SpiralLeapfrogSystem::new(model.bodies(), lieode::rotation::SpiralLeapfrog::new);
        spiral.start(model, &Span::open(0.0, dt)?, y0)?;
        for _ in 0..(duration / dt).round() as usize {
            spiral.step(model)?;
        }
        spiral.state(model)
    }

    /// The 32 pieces start apart (no elastic energy: the energy is the kinetic energy of 1 m/s
    /// and π rad/s), the same seed gives the same bits on 1 and 2 threads, and SPIRAL leapfrog
    /// keeps the energy to 1e-4 over 0.1 s at Δt = 5e-6 s (measured 2.1e-5).

    #[test]
    fn the_chess_set_starts_apart_and_runs_reproducibly() -> lieode::Result<()> {
        let modulus = Hertz::same_material_modulus(YOUNG, POISSON)?;
        let mut model = PieceBox::chess(&chess_set(), 0.2, DENSITY, modulus)?;
        let y0 = random_state(&model, 7, 1.0, std::f64::consts::PI)?;
        assert_eq!(y0, random_state(&model, 7, 1.0, std::f64::consts::PI)?);
        let bodies = model.bodies();
        let kinetic: f64 = (0..y0.len())
            .map(|i| {
                0.5 * bodies[i].mass() * y0.velocities[i].norm_squared()
                    + bodies[i].rigid().kinetic_energy(&y0.omegas[i])
            })
            .sum();
        let e0 = model.energy(&y0);
        assert_eq!(e0, kinetic);
        for i in 0..y0.len() {
            assert!((y0.velocities[i].norm() - 1.0).abs() < 1e-12);
            let lab = lieode::body::quaternion::rotate(&y0.rotors[i], &y0.omegas[i]);
            assert!((lab.norm() - std::f64::consts::PI).abs() < 1e-12);
        }
        let on = |threads: usize| -> lieode::Result<SystemState> {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| lieode::Error::InvalidParameter {
                    name: "threads",
                    value: e.to_string(),
                    expected: "a pool".into(),
                })?;
            let mut model = model.clone();
            pool.install(|| run(&mut model, &y0, 5e-6, 0.02))
        };
        assert_eq!(on(1)?, on(2)?);
        let end = run(&mut model, &y0, 5e-6, 0.1)?;
        let change = (model.energy(&end) - e0).abs() / e0;
        assert!(change < 1e-4, "{change}");
        Ok(())
    }
}

mod energy_study {
    use lieode_reproduce::dem::ChessPiece;
    use lieode_reproduce::dem::random_state;
    use lieode_reproduce::spiral_energy::{
        EnergyPoint, EnergySettings, chess_box, energy_study, free_rotation_drift, run_method,
        step_for_level,
    };
    use std::f64::consts::PI;

    fn point(dt: f64, change: f64) -> EnergyPoint {
        EnergyPoint {
            method: "m".into(),
            dt,
            runs: 1,
            mean_rel_energy_change: change,
            max_rel_energy_change: change,
            median_rel_energy_change: change,
        }
    }

    /// The level crossing is interpolated in log–log: exact for a power law.
    #[test]
    fn the_step_for_a_level_of_a_power_law() {
        let law = |dt: f64| 5e10 * dt.powi(3);
        let points: Vec<EnergyPoint> = [2e-5, 1e-5, 5e-6]
            .iter()
            .map(|&dt| point(dt, law(dt)))
            .collect();
        let dt = step_for_level(&points, "m", 6.8e-5).expect("bracketed");
        assert!((law(dt) - 6.8e-5).abs() < 1e-12 * 6.8e-5, "{dt}");
        assert!(step_for_level(&points, "m", 1.0).is_none());
        assert!(step_for_level(&points, "other", 6.8e-5).is_none());
    }

    /// The energy error's order over 0.05 s of the 32 pieces (seed 1, several collisions;
    /// Δt = 1e-5 … 2.5e-6 s):
    /// about 3 for the leapfrog rotations, Velocity Verlet and the improved PCDM (the Hertz
    /// contacts dominate); 1 for SPIRAL non-leapfrog and the PCDM, whose rotations are first
    /// order under the contacts' attitude-dependent torques.
    #[test]
    fn the_energy_error_orders_of_every_method() -> lieode_reproduce::Result<()> {
        let settings = EnergySettings {
            duration: 0.05,
            runs: 1,
            steps: vec![1e-5, 5e-6, 2.5e-6],
            ..EnergySettings::quick()
        };
        let points = energy_study(&settings)?;
        for (method, low, high) in [
            ("spiral_leapfrog", 2.3, 3.5),
            ("omelyan", 2.3, 3.5),
            ("fincham", 2.3, 3.5),
            ("velocity_verlet", 2.3, 3.5),
            ("improved_pcdm", 2.3, 3.5),
            ("spiral", 0.8, 1.2),
            ("pcdm", 0.8, 1.2),
        ] {
            let e: Vec<f64> = points
                .iter()
                .filter(|p| p.method == method)
                .map(|p| p.mean_rel_energy_change)
                .collect();
            assert_eq!(e.len(), 3, "{method}");
            for w in e.windows(2) {
                let order = (w[0] / w[1]).log2();
                eprintln!("{method}: {order:.2}");
                assert!(order > low && order < high, "{method}: {e:?}");
            }
        }
        Ok(())
    }

    /// An unknown scheme is an error naming `method`, not a panic or a silent skip.
    #[test]
    fn an_unknown_scheme_is_named() {
        let settings = EnergySettings {
            methods: vec!["fincham".into(), "leapfrog".into()],
            ..EnergySettings::quick()
        };
        match energy_study(&settings) {
            Err(lieode_reproduce::Error::InvalidParameter { name, value, .. }) => {
                assert_eq!((name, value.as_str()), ("method", "leapfrog"));
            }
            other => panic!("{other:?}"),
        }
    }

    /// A free symmetric piece keeps its kinetic energy exactly; what a scheme changes is its
    /// own drift. Spinning at both π rad/s about its axis and 30 rad/s across it, a king drifts
    /// at first order under Fincham and Velocity Verlet (their attitude update tilts the
    /// axis against the angular momentum), and at second order, 10⁶ times less, under
    /// SPIRAL leapfrog and Omelyan (Δt = 1e-5 and 5e-6 s over 1.5 s). Without axial spin
    /// the motion is a plain rotation about a fixed axis and none of them drifts.
    #[test]
    fn the_free_rotation_drift_of_each_scheme() -> lieode_reproduce::Result<()> {
        let king = ChessPiece::King;
        for (method, low, high) in [
            ("fincham", 0.9, 1.1),
            ("velocity_verlet", 0.9, 1.1),
            ("spiral_leapfrog", 1.8, 2.2),
            ("omelyan", 1.8, 2.2),
        ] {
            let coarse = free_rotation_drift(method, king, PI, 30.0, 1e-5, 1.5)?;
            let fine = free_rotation_drift(method, king, PI, 30.0, 5e-6, 1.5)?;
            let order = (coarse / fine).log2();
            eprintln!("{method}: {coarse:.2e} {fine:.2e} order {order:.2}");
            assert!(order > low && order < high, "{method}: {coarse:e} {fine:e}");
            let flat = free_rotation_drift(method, king, 0.0, 30.0, 1e-5, 1.5)?;
            assert!(flat < 1e-13, "{method}: {flat:e}");
        }
        let fincham = free_rotation_drift("fincham", king, PI, 30.0, 5e-6, 1.5)?;
        let spiral = free_rotation_drift("spiral_leapfrog", king, PI, 30.0, 5e-6, 1.5)?;
        assert!(fincham > 1e5 * spiral, "{fincham:e} {spiral:e}");
        Ok(())
    }

    /// Frictionless contacts push along the line through the centres of spheres that lie on a
    /// piece's axis, so no contact twists a piece about its axis, and the Euler equation of a
    /// symmetric body leaves the axial spin constant: over 0.05 s of collisions the pieces'
    /// transverse spins change by rad/s while the axial ones keep their initial values (at
    /// most π rad/s) to round-off. This is why the chess box hardly feeds Fincham's drift.
    #[test]
    fn collisions_never_change_a_pieces_axial_spin() -> lieode_reproduce::Result<()> {
        let mut model = chess_box()?;
        let y0 = random_state(&model, 1, 1.0, PI)?;
        let (end, _) = run_method("spiral_leapfrog", &mut model, &y0, 5e-6, 0.05)?;
        let mut largest_transverse = 0.0f64;
        for i in 0..y0.len() {
            let (w0, w1) = (y0.omegas[i], end.omegas[i]);
            assert!((w1.z - w0.z).abs() < 1e-9, "{i}: {} → {}", w0.z, w1.z);
            largest_transverse = largest_transverse.max((w1.xy() - w0.xy()).norm());
        }
        assert!(largest_transverse > 1.0, "{largest_transverse}");
        Ok(())
    }
}

/// Regression tests of reported faults: each checks against a closed form or a hand-computed
/// number.
mod faults {
    use lieode::Error;
    use lieode::stepper::{Span, Stepper};
    use lieode::system::{Loads, SpiralLeapfrogSystem, SystemForces, SystemState, SystemView};
    use lieode_reproduce::dem::{
        AxialSphere, CellList, Clump, DENSE_CELL_FLOOR, DENSITY, Hertz, POISSON, PieceBox, YOUNG,
        random_state,
    };
    use nalgebra::{Quaternion, Vector3};

    fn named<T: std::fmt::Debug>(result: lieode::Result<T>, expected: &str) {
        match result {
            Err(Error::InvalidParameter { name, .. }) if name == expected => {}
            other => panic!("expected an error naming `{expected}`, got {other:?}"),
        }
    }

    fn ball(radius: f64) -> lieode::Result<Clump> {
        Clump::new(&[AxialSphere { z: 0.0, radius }], DENSITY)
    }

    /// `4/3 E* √R* δ^{3/2}` written out.
    fn hertz_force(modulus: f64, radius: f64, delta: f64) -> f64 {
        4.0 / 3.0 * modulus * radius.sqrt() * delta.powf(1.5)
    }

    fn view(state: &SystemState) -> SystemView<'_> {
        SystemView {
            t: state.t,
            positions: &state.positions,
            velocities: &state.velocities,
            rotors: &state.rotors,
            omegas: &state.omegas,
        }
    }

    /// Fault 1: a zero, NaN or infinite size is refused by name, and cells of 2⁻¹³ in the box
    /// `[−1, 1]³` — 2¹⁴ per axis, 16384³ = 4 398 046 511 104 cells, which the dense grid
    /// allocated (an abort) — store one entry per sphere, and find the hand-counted pair. Two
    /// spheres of radius 1e-4 in a box of half side 1 (10¹² cells before) touch with the Hertz
    /// force of the closed form.
    #[test]
    fn a_cell_list_of_tiny_cells_stays_small_and_exact() -> lieode::Result<()> {
        named(CellList::new(Vector3::repeat(1.0), 0.0), "cell");
        named(CellList::new(Vector3::repeat(1.0), f64::NAN), "cell");
        named(CellList::new(Vector3::repeat(f64::INFINITY), 0.1), "half");
        named(CellList::new(Vector3::new(1.0, -1.0, 1.0), 0.1), "half");
        assert_eq!(CellList::dense_bound(2), 4096);
        assert_eq!(CellList::dense_bound(1000), 8000);
        let mut cells = CellList::new(Vector3::repeat(1.0), 2f64.powi(-13))?;
        assert_eq!(cells.grid_cells(), 4_398_046_511_104);
        let centres = [
            Vector3::new(0.0, 0.0, 0.0),
            Vector3::new(1e-4, 0.0, 0.0),
            Vector3::new(0.5, 0.5, 0.5),
            Vector3::new(0.5, 0.5 + 3e-4, 0.5),
        ];
        cells.bin(&centres)?;
        assert_eq!(cells.stored_cells(), 4);
        let mut pairs = Vec::new();
        cells.for_each_near_pair(|a, b| pairs.push((a, b)));
        assert_eq!(pairs, vec![(0, 1)]);

        // Many spheres in a sparse grid: the pairs of the all-pairs search.
        let mut cells = CellList::new(Vector3::repeat(1.0), 1e-3)?;
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut uniform = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 0.02 - 0.01
        };
        let centres: Vec<Vector3<f64>> = (0..3000)
            .map(|_| Vector3::new(uniform(), uniform(), uniform()))
            .collect();
        cells.bin(&centres)?;
        assert!(cells.stored_cells() <= 3000 && cells.grid_cells() > 1_000_000_000);
        let mut found = Vec::new();
        cells.for_each_near_pair(|a, b| {
            if (centres[a] - centres[b]).norm() < 1e-3 {
                found.push((a, b));
            }
        });
        found.sort_unstable();
        let mut all = Vec::new();
        for a in 0..centres.len() {
            for b in a + 1..centres.len() {
                if (centres[a] - centres[b]).norm() < 1e-3 {
                    all.push((a, b));
                }
            }
        }
        assert!(all.len() > 10, "{}", all.len());
        assert_eq!(found, all);

        let modulus = Hertz::same_material_modulus(YOUNG, POISSON)?;
        let r = 1e-4;
        let mut model = PieceBox::new(vec![ball(r)?, ball(r)?], 1.0, modulus)?;
        let mut state = SystemState::at_rest(0.0, 2);
        state.positions[1].x = 1.9e-4;
        let mut loads = Loads::zeros(2);
        model.loads(&view(&state), &mut loads);
        let delta = 2.0 * r - 1.9e-4;
        let expected = hertz_force(modulus, r / 2.0, delta);
        assert!(
            (loads.forces[0].x + expected).abs() < 1e-12 * expected,
            "{:?} vs {expected}",
            loads.forces[0]
        );
        assert_eq!(loads.forces[1], -loads.forces[0]);
        // The chess box (cells of the largest diameter, 4 cm, in [−0.2, 0.2]³: 10³ cells)
        // stays on the dense grid whatever its sphere count.
        let chess = CellList::new(Vector3::repeat(0.2), 0.04)?;
        assert_eq!(chess.grid_cells(), 1000);
        assert!(chess.grid_cells() <= DENSE_CELL_FLOOR as u64);
        Ok(())
    }

    /// Fault 2: the model states its two bodies; a run from three (the third outside the box,
    /// which would feel nothing) is refused naming `y0`, the energy of one or three naming
    /// `state`; a view of one body or loads of one are loaded without a panic, the one body
    /// against the wall with the closed-form force (δ = 1e-3 on a sphere of 1 cm).
    #[test]
    fn a_piece_box_refuses_states_of_another_size() -> lieode::Result<()> {
        let modulus = Hertz::same_material_modulus(YOUNG, POISSON)?;
        let r = 0.01;
        let mut model = PieceBox::new(vec![ball(r)?, ball(r)?], 0.1, modulus)?;
        assert_eq!(SystemForces::body_count(&model), Some(2));
        let mut three = SystemState::at_rest(0.0, 3);
        three.positions[1].x = 0.05;
        three.positions[2].x = 0.5;
        let mut bodies = model.bodies();
        bodies.push(bodies[0]);
        let mut spiral = SpiralLeapfrogSystem::new(bodies, lieode::rotation::SpiralLeapfrog::new);
        named(
            spiral.start(&mut model, &Span::open(0.0, 1e-6)?, &three),
            "y0",
        );
        named(model.try_energy(&three), "state");
        named(model.try_energy(&SystemState::at_rest(0.0, 1)), "state");
        assert_eq!(model.energy(&three), f64::INFINITY);

        let mut one = SystemState::at_rest(0.0, 1);
        one.positions[0].x = 0.1 - r + 1e-3;
        let mut loads = Loads::zeros(1);
        model.loads(&view(&one), &mut loads);
        let expected = hertz_force(modulus, r, (r + one.positions[0].x) - 0.1);
        assert!(
            (loads.forces[0].x + expected).abs() < 1e-12 * expected,
            "{:?} vs {expected}",
            loads.forces[0]
        );
        // Three bodies in the view, loads of one: no panic, body 0 still loaded.
        let mut loads = Loads::zeros(1);
        three.positions[0] = one.positions[0];
        model.loads(&view(&three), &mut loads);
        assert!((loads.forces[0].x + expected).abs() < 1e-12 * expected);
        Ok(())
    }

    /// Fault 4: `E* = E/(2(1 − ν²))` of 1e308 and ν = −0.99999999 overflows and is refused,
    /// as is the stiffness 4/3·1e300·√1e300; `4/3 · 0.75e300 = 1e300` has the overlap limit
    /// `(M/(0.4e300))^{2/5}` = 2891.09… (M the largest f64), where the energy, not the force,
    /// overflows first. A box whose modulus 1e307 would overflow the force of a 1 m sphere at
    /// δ = 2 m (16 · 4/3 · 1e307 · 2^{3/2} = 6.0e308) is refused; 1e306 is accepted and a
    /// sphere one radius beyond the wall feels the finite `4/3 · 1e306 · 2^{3/2}`.
    #[test]
    fn hertz_refuses_overflowing_contacts() -> lieode::Result<()> {
        named(Hertz::same_material_modulus(1e308, -0.99999999), "young");
        named(Hertz::new(1e300, 1e300), "effective_modulus");
        named(Hertz::new(1e-300, 1e-300), "effective_modulus");
        let law = Hertz::new(0.75e300, 1.0)?;
        assert!((law.stiffness() - 1e300).abs() < 1e-15 * 1e300);
        let limit = law.overlap_limit();
        let expected = (f64::MAX / 4e299).powf(0.4);
        assert!((limit - expected).abs() < 1e-8 * expected, "{limit}");
        assert!((limit - 2891.09).abs() < 0.01, "{limit}");
        assert!(law.force(limit).is_finite() && law.energy(limit).is_finite());
        assert_eq!(law.energy(1.001 * limit), f64::INFINITY);

        let big = Clump::new(
            &[AxialSphere {
                z: 0.0,
                radius: 1.0,
            }],
            1.0,
        )?;
        named(PieceBox::new(vec![big.clone()], 10.0, 1e307), "modulus");
        let mut model = PieceBox::new(vec![big], 10.0, 1e306)?;
        let mut state = SystemState::at_rest(0.0, 1);
        state.positions[0].x = 11.0;
        let mut loads = Loads::zeros(1);
        model.loads(&view(&state), &mut loads);
        let expected = 4.0 / 3.0 * 1e306 * 2f64.powf(1.5);
        assert!(
            (loads.forces[0].x + expected).abs() < 1e-12 * expected,
            "{:?}",
            loads.forces[0]
        );
        Ok(())
    }

    /// A head-on collision needs a finite positive reduced mass and speed: a speed of 0 gave
    /// a duration of 0/0 = NaN, and a speed whose kinetic energy overflows an infinite overlap.
    /// For m* = 1, v = 1 and stiffness 1e300 the overlap is (1.25e-300)^{0.4} by hand.
    #[test]
    fn a_collision_needs_a_finite_positive_mass_and_speed() -> lieode::Result<()> {
        let law = Hertz::new(0.75e300, 1.0)?;
        named(law.contact_duration(1.0, 0.0), "speed");
        named(law.contact_duration(1.0, f64::NAN), "speed");
        named(law.maximum_overlap(-1.0, 1.0), "reduced_mass");
        named(law.maximum_overlap(f64::MAX, f64::MAX), "speed");
        let overlap = law.maximum_overlap(1.0, 1.0)?;
        let expected = 1.25e-300f64.powf(0.4);
        assert!((overlap - expected).abs() < 1e-14 * expected, "{overlap:e}");
        Ok(())
    }

    /// Fault 5: a sphere of one piece at the centre of a sphere of another (radius 1 cm each)
    /// overlaps by δ = 2 cm: it pushes the pieces apart along the line of their centres of mass
    /// (here z) with `4/3 E* √(5 mm) δ^{3/2}` and stores `8/15 E* √(5 mm) δ^{5/2}`; two pieces
    /// at one place are pushed apart along x.
    #[test]
    fn coincident_spheres_push_apart_and_store_energy() -> lieode::Result<()> {
        let modulus = Hertz::same_material_modulus(YOUNG, POISSON)?;
        let r = 0.01;
        let pair = Clump::new(
            &[
                AxialSphere { z: 0.0, radius: r },
                AxialSphere { z: 0.05, radius: r },
            ],
            DENSITY,
        )?;
        let mut model = PieceBox::new(vec![pair.clone(), pair], 0.2, modulus)?;
        let mut state = SystemState::at_rest(0.0, 2);
        state.positions[1].z = 0.05;
        let spheres = model.world_spheres(&state);
        // Body 0's upper sphere is exactly body 1's lower sphere.
        assert_eq!(spheres[1].0, spheres[2].0);
        let mut loads = Loads::zeros(2);
        model.loads(&view(&state), &mut loads);
        let force = hertz_force(modulus, r / 2.0, 2.0 * r);
        let energy = 8.0 / 15.0 * modulus * (r / 2.0).sqrt() * (2.0 * r).powf(2.5);
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs();
        assert!(close(loads.forces[0].z, -force), "{:?}", loads.forces[0]);
        assert!(close(loads.forces[1].z, force), "{:?}", loads.forces[1]);
        assert_eq!((loads.forces[0].x, loads.forces[0].y), (0.0, 0.0));
        assert!(loads.torques[0].norm() <= 1e-12 * force * r);
        assert!(close(model.try_energy(&state)?, energy));

        let mut model = PieceBox::new(vec![ball(r)?, ball(r)?], 0.2, modulus)?;
        let mut state = SystemState::at_rest(0.0, 2);
        state.positions[0] = Vector3::new(0.01, 0.02, 0.03);
        state.positions[1] = state.positions[0];
        state.rotors[1] = Quaternion::new(0.6, 0.8, 0.0, 0.0);
        let mut loads = Loads::zeros(2);
        model.loads(&view(&state), &mut loads);
        assert!(close(loads.forces[0].x, -force), "{:?}", loads.forces[0]);
        assert!(close(loads.forces[1].x, force), "{:?}", loads.forces[1]);
        assert!(close(model.try_energy(&state)?, energy));
        Ok(())
    }

    /// Fault 7 (its causes): an initial speed or spin that is not finite, or at which the
    /// kinetic energy overflows (½·J·(1e200)² for the spin), is refused by name, and the energy
    /// of a state whose kinetic energy overflows (a 1 cm ball at 1e160 m/s:
    /// ½ · 0.0134 kg · 1e320 > 1.8e308) is an error naming the body, not `+∞`.
    #[test]
    fn a_state_of_overflowing_energy_is_refused() -> lieode::Result<()> {
        let modulus = Hertz::same_material_modulus(YOUNG, POISSON)?;
        let mut model = PieceBox::new(vec![ball(0.01)?, ball(0.01)?], 0.2, modulus)?;
        named(random_state(&model, 1, f64::INFINITY, 1.0), "speed");
        named(random_state(&model, 1, 1.0, f64::NAN), "spin");
        named(random_state(&model, 1, 1.0, 1e200), "spin");
        named(random_state(&model, 1, 1e160, 1.0), "speed");
        let y0 = random_state(&model, 1, 1.0, 1.0)?;
        let mass = 4.0 / 3.0 * std::f64::consts::PI * 1e-6 * DENSITY;
        let spin = 0.4 * mass * 1e-4;
        let e0 = model.try_energy(&y0)?;
        assert!(
            (e0 - 2.0 * (0.5 * mass + 0.5 * spin)).abs() < 1e-12 * e0,
            "{e0}"
        );
        let mut fast = y0.clone();
        fast.velocities[1].x = 1e160;
        match model.try_energy(&fast) {
            Err(Error::NonFiniteBody {
                what: "kinetic energy",
                body: 1,
                ..
            }) => {}
            other => panic!("{other:?}"),
        }
        Ok(())
    }
}
