//! The four arrays of N bodies' state, as the many-body methods carry them.

use nalgebra::{Quaternion, Vector3};

use super::forces::SystemView;
use super::state::SystemState;
use crate::lie::Real;

/// Positions `x`, velocities `v`, rotors `q` and body angular velocities `w` of N bodies, each a
/// contiguous array: the layout the methods update in place and hand to the force model.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BodyArrays<T: Real = f64> {
    pub(crate) x: Vec<Vector3<T>>,
    pub(crate) v: Vec<Vector3<T>>,
    pub(crate) q: Vec<Quaternion<T>>,
    pub(crate) w: Vec<Vector3<T>>,
}

impl<T: Real> Default for BodyArrays<T> {
    fn default() -> Self {
        Self {
            x: Vec::new(),
            v: Vec::new(),
            q: Vec::new(),
            w: Vec::new(),
        }
    }
}

impl<T: Real> BodyArrays<T> {
    /// Copies `state`'s arrays in, reusing the allocations.
    pub(crate) fn assign(&mut self, state: &SystemState<T>) {
        self.x.clone_from(&state.positions);
        self.v.clone_from(&state.velocities);
        self.q.clone_from(&state.rotors);
        self.w.clone_from(&state.omegas);
    }

    /// The arrays as the force model's view at `t`.
    pub(crate) fn view(&self, t: f64) -> SystemView<'_, T> {
        SystemView {
            t,
            positions: &self.x,
            velocities: &self.v,
            rotors: &self.q,
            omegas: &self.w,
        }
    }

    /// A copy as the state at `t`.
    pub(crate) fn state(&self, t: f64) -> SystemState<T> {
        SystemState {
            t,
            positions: self.x.clone(),
            velocities: self.v.clone(),
            rotors: self.q.clone(),
            omegas: self.w.clone(),
        }
    }
}
