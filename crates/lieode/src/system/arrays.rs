//! The four arrays of N bodies' state, as the many-body methods carry them.

use nalgebra::{Quaternion, Vector3};

use super::forces::SystemView;
use super::state::SystemState;

/// Positions `x`, velocities `v`, rotors `q` and body angular velocities `w` of N bodies, each a
/// contiguous array: the layout the methods update in place and hand to the force model.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct BodyArrays {
    pub(crate) x: Vec<Vector3<f64>>,
    pub(crate) v: Vec<Vector3<f64>>,
    pub(crate) q: Vec<Quaternion<f64>>,
    pub(crate) w: Vec<Vector3<f64>>,
}

impl BodyArrays {
    /// Copies `state`'s arrays in, reusing the allocations.
    pub(crate) fn assign(&mut self, state: &SystemState) {
        self.x.clone_from(&state.positions);
        self.v.clone_from(&state.velocities);
        self.q.clone_from(&state.rotors);
        self.w.clone_from(&state.omegas);
    }

    /// The arrays as the force model's view at `t`.
    pub(crate) fn view(&self, t: f64) -> SystemView<'_> {
        SystemView {
            t,
            positions: &self.x,
            velocities: &self.v,
            rotors: &self.q,
            omegas: &self.w,
        }
    }

    /// A copy as the state at `t`.
    pub(crate) fn state(&self, t: f64) -> SystemState {
        SystemState {
            t,
            positions: self.x.clone(),
            velocities: self.v.clone(),
            rotors: self.q.clone(),
            omegas: self.w.clone(),
        }
    }
}
