//! Seeded random initial conditions of the SPIRAL paper's chess-piece test: non-overlapping
//! positions, random orientations, 1 m/s in a random direction, π rad/s about a random axis.

use nalgebra::Vector3;

use super::piece_box::PieceBox;
use lieode::body::quaternion::rotate_inverse;
use lieode::system::SystemState;
use lieode::{Error, Result};
pub use lieode_study::random::SplitMix64;

/// The paper's initial conditions for the bodies of `model`: positions uniformly random in the
/// box with no two pieces' bounding spheres (and no piece and a wall) touching, random
/// orientations, speed `speed` in a random direction and angular speed `spin` about a random
/// axis (the paper: 1 m/s and π rad/s), from `seed`.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `speed` or `spin` unless it is finite, or when the
/// pieces' translational or rotational kinetic energy at it overflows (the state would have
/// no finite energy); naming `model` when 10⁶ attempts do not place every piece (the box is
/// too small for them).
pub fn random_state(model: &PieceBox, seed: u64, speed: f64, spin: f64) -> Result<SystemState> {
    for (name, value) in [("speed", speed), ("spin", spin)] {
        if !value.is_finite() {
            return Err(Error::InvalidParameter {
                name,
                value: format!("{value:e}"),
                expected: "a finite value".into(),
            });
        }
    }
    let mut rng = SplitMix64(seed);
    let n = model.bodies().len();
    let mut state = SystemState::at_rest(0.0, n);
    let bounding: Vec<f64> = (0..n)
        .map(|i| {
            model.clump(i).map_or(0.0, |c| {
                c.spheres()
                    .iter()
                    .map(|s| s.z.abs() + s.radius)
                    .fold(0.0, f64::max)
            })
        })
        .collect();
    let half = model.half();
    let mut attempts = 0usize;
    for i in 0..n {
        let room = half - bounding[i];
        loop {
            attempts += 1;
            if attempts > 1_000_000 || room <= 0.0 {
                return Err(Error::InvalidParameter {
                    name: "model",
                    value: format!("{n} pieces in a box of half side {half}"),
                    expected: "a box large enough to place the pieces apart".into(),
                });
            }
            let u = Vector3::new(rng.uniform(), rng.uniform(), rng.uniform());
            let x = if (2.0 * room).is_finite() {
                u * (2.0 * room) - Vector3::repeat(room)
            } else {
                // A box near the largest f64: the same point without the overflowing width.
                (u * 2.0 - Vector3::repeat(1.0)) * room
            };
            let free = (0..i).all(|j| (x - state.positions[j]).norm() > bounding[i] + bounding[j]);
            if free {
                state.positions[i] = x;
                break;
            }
        }
        state.rotors[i] = rng.rotor();
        state.velocities[i] = rng.direction() * speed;
        let axis = rng.direction();
        state.omegas[i] = rotate_inverse(&state.rotors[i], &(axis * spin));
    }
    check_energy(model, &state, speed, spin)?;
    Ok(state)
}

/// [`random_state`]'s check that the pieces' kinetic energies, and their sum, are finite.
fn check_energy(model: &PieceBox, state: &SystemState, speed: f64, spin: f64) -> Result<()> {
    let (mut translation, mut rotation) = (0.0, 0.0);
    for (i, (v, w)) in state.velocities.iter().zip(&state.omegas).enumerate() {
        if let Some(clump) = model.clump(i) {
            let body = clump.body();
            translation += 0.5 * body.mass() * v.norm_squared();
            rotation += body.rigid().kinetic_energy(w);
        }
    }
    for (name, value, energy) in [
        ("speed", speed, translation),
        ("spin", spin, rotation),
        ("speed", speed, translation + rotation),
    ] {
        if !energy.is_finite() {
            return Err(Error::InvalidParameter {
                name,
                value: format!("{value:e}"),
                expected: format!(
                    "a value at which the pieces' kinetic energy is finite, not {energy:e}"
                ),
            });
        }
    }
    Ok(())
}
