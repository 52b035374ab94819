//! The state of N rigid bodies as a structure of arrays.

use nalgebra::{Quaternion, Vector3};

use crate::error::{Error, Result};
use crate::lie::{Real, to_f64};
use crate::rotation::ROTOR_NORM_SQUARED_MIN;

/// The synchronised state of N rigid bodies at time `t`, stored as a structure of arrays:
/// positions `x_i` and linear velocities `v_i` (lab frame), rotors `q_i` (body → lab, scalar
/// first, `v_lab = q v_body q⁻¹`) and angular velocities `ω_i` (body frame), each a contiguous
/// array indexed by body.
#[derive(Debug, Clone, PartialEq)]
pub struct SystemState<T: Real = f64> {
    /// The time.
    pub t: f64,
    /// Centre-of-mass positions (lab frame).
    pub positions: Vec<Vector3<T>>,
    /// Linear velocities (lab frame).
    pub velocities: Vec<Vector3<T>>,
    /// Rotors, body → lab.
    pub rotors: Vec<Quaternion<T>>,
    /// Angular velocities (body frame).
    pub omegas: Vec<Vector3<T>>,
}

impl<T: Real> SystemState<T> {
    /// A state from its arrays.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the array whose length differs from `positions`',
    /// or naming `rotors` for a rotor whose `|q|²` is zero, below [`ROTOR_NORM_SQUARED_MIN`] or
    /// overflowing (with the body's index); [`Error::NonFinite`] naming
    /// `t`; [`Error::NonFiniteBody`] for a non-finite entry, with the body's index.
    pub fn new(
        t: f64,
        positions: Vec<Vector3<T>>,
        velocities: Vec<Vector3<T>>,
        rotors: Vec<Quaternion<T>>,
        omegas: Vec<Vector3<T>>,
    ) -> Result<Self> {
        let state = Self {
            t,
            positions,
            velocities,
            rotors,
            omegas,
        };
        state.validate()?;
        Ok(state)
    }

    /// N bodies at rest at the origin with the identity orientation.
    pub fn at_rest(t: f64, n: usize) -> Self {
        Self {
            t,
            positions: vec![Vector3::zeros(); n],
            velocities: vec![Vector3::zeros(); n],
            rotors: vec![Quaternion::identity(); n],
            omegas: vec![Vector3::zeros(); n],
        }
    }

    /// The number of bodies.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether there are no bodies.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Checks lengths, finiteness and rotors (see [`SystemState::new`]).
    ///
    /// # Errors
    /// As [`SystemState::new`].
    pub fn validate(&self) -> Result<()> {
        crate::error::check_finite("t", self.t)?;
        let n = self.positions.len();
        for (name, len) in [
            ("velocities", self.velocities.len()),
            ("rotors", self.rotors.len()),
            ("omegas", self.omegas.len()),
        ] {
            if len != n {
                return Err(Error::InvalidParameter {
                    name,
                    value: format!("{len} entries"),
                    expected: format!("one per body: {n}, as positions"),
                });
            }
        }
        for i in 0..n {
            let finite = self.positions[i].iter().all(|x| x.is_finite())
                && self.velocities[i].iter().all(|x| x.is_finite())
                && self.rotors[i].coords.iter().all(|x| x.is_finite())
                && self.omegas[i].iter().all(|x| x.is_finite());
            if !finite {
                return Err(Error::NonFiniteBody {
                    what: "state",
                    body: i,
                    t: self.t,
                });
            }
            // As the single-body methods' start (`SingleBody`'s start): a rotor whose |q|²
            // is zero, underflows or overflows would be normalised to zero (or overflow) by
            // the methods' arithmetic.
            let norm_squared = to_f64(self.rotors[i].norm_squared());
            if !(norm_squared.is_finite() && norm_squared >= ROTOR_NORM_SQUARED_MIN) {
                return Err(Error::InvalidParameter {
                    name: "rotors",
                    value: format!("body {i}: {:?} (|q|² = {norm_squared:e})", self.rotors[i]),
                    expected: format!(
                        "rotors with finite |q|² ≥ {ROTOR_NORM_SQUARED_MIN:e} (normalise them \
                         first, e.g. with UnitQuat::from_quaternion_normalized)"
                    ),
                });
            }
        }
        Ok(())
    }
}
