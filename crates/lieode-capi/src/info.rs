//! What a method says about itself to the host.

// For the documentation's link only: the function that fills the struct.
#[cfg(doc)]
use crate::lieode_method_info;

/// What a method needs from the host and says about itself ([`lieode_method_info`]); the
/// default is all zero, for a caller's buffer before the call fills it.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LieodeMethodInfo {
    /// Doubles of per-particle state the host keeps (and migrates) for the method; 0 for
    /// SPIRAL, SPIRAL leapfrog, SPIRAL+Omelyan, Omelyan and Direct Euler.
    pub state_len: usize,
    /// Load evaluations of the start, at least 1 (the translation needs the loads at `t_0`;
    /// 2 for SPIRAL–Magnus's predictor).
    pub start_evaluations: usize,
    /// Load evaluations per step.
    pub evaluations: usize,
    /// Whether the carried angular velocity lives at half steps (`ω_{n−½}`).
    pub leapfrog_rotation: bool,
    /// Whether the translation takes the velocity Verlet form (torque at `t_{n+1}`: Velocity
    /// Verlet, Johnson) rather than the leapfrog form (torque at `t_n`).
    pub velocity_verlet_form: bool,
    /// Whether the rotor is normalised, `q ← q/|q|`, every step: the policy chosen at creation
    /// (the method's default, as in the SPIRAL paper's benchmark, unless
    /// `lieode_method_new_with_renormalisation` chose another).
    pub renormalises: bool,
    /// The global order in the rotor (measured, `crates/lieode/tests/catalogue_orders.rs`).
    pub order_rotor: u8,
    /// The global order in the angular velocity.
    pub order_omega: u8,
}
