//! The host's particle arrays handed to a call.

/// The host's particle arrays for one call (see the crate documentation for each array's
/// frame, layout and time level). Every array holds `n` contiguous rows; none may overlap
/// another. `state` may be null when `state_len` is 0.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct LieodeParticles {
    /// The number of particles (at least 1).
    pub n: usize,
    /// Masses, `n`.
    pub mass: *const f64,
    /// Principal moments of inertia, `n × 3`.
    pub inertia: *const f64,
    /// Positions (lab), `n × 3`, updated in place.
    pub positions: *mut f64,
    /// Velocities (lab), `n × 3`, updated in place.
    pub velocities: *mut f64,
    /// Rotors (body → lab, scalar first), `n × 4`, updated in place.
    pub rotors: *mut f64,
    /// Angular velocities (body frame), `n × 3`, updated in place.
    pub omegas: *mut f64,
    /// The method's per-particle state, `n × state_len`, updated in place.
    pub state: *mut f64,
}
