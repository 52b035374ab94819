//! # Hairer's non-stiff test problems
//!
//! The two problems of Hairer's drivers for DOPRI5, DOP853 and ODEX (Hairer, Nørsett, Wanner,
//! *Solving Ordinary Differential Equations I*, §II.0 and §II.10): the Arenstorf orbit of the
//! restricted three-body problem and Van der Pol's equation, written in the operation order of
//! his drivers (`FAREN`, `FVPOL`) so that runs can be compared with his codes bit for bit.

use nalgebra::{Vector2, Vector4};

use crate::lie::{Real, real};
use crate::ode::VectorOde;

/// The mass ratio `μ = 0.012277471` of the Arenstorf orbit.
pub const ARENSTORF_MU: f64 = 0.012277471;

/// The initial value of the periodic Arenstorf orbit (the digits of Hairer's driver).
#[allow(clippy::excessive_precision)]
pub const ARENSTORF_Y0: [f64; 4] = [0.994, 0.0, 0.0, -2.00158510637908252240537862224];

/// The period of the Arenstorf orbit, the end of the integration in Hairer's driver.
#[allow(clippy::excessive_precision)]
pub const ARENSTORF_END: f64 = 17.0652165601579625588917206249;

/// The restricted three-body problem (Arenstorf orbit):
/// `y₁'' = y₁ + 2y₂' − μ'(y₁ + μ)/D₁ − μ(y₁ − μ')/D₂`,
/// `y₂'' = y₂ − 2y₁' − μ' y₂/D₁ − μ y₂/D₂`, `μ' = 1 − μ`,
/// `D₁ = ((y₁ + μ)² + y₂²)^{3/2}`, `D₂ = ((y₁ − μ')² + y₂²)^{3/2}`, as a first-order system.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Arenstorf;

impl<T: Real> VectorOde<T, 4> for Arenstorf {
    fn rhs(&mut self, _t: T, y: &Vector4<T>) -> Vector4<T> {
        let amu = real::<T>(ARENSTORF_MU);
        let amup = T::one() - amu;
        let r1 = (y[0] + amu) * (y[0] + amu) + y[1] * y[1];
        let r1 = r1 * r1.sqrt();
        let r2 = (y[0] - amup) * (y[0] - amup) + y[1] * y[1];
        let r2 = r2 * r2.sqrt();
        let two = real::<T>(2.0);
        Vector4::new(
            y[2],
            y[3],
            y[0] + two * y[3] - amup * (y[0] + amu) / r1 - amu * (y[0] - amup) / r2,
            y[1] - two * y[2] - amup * y[1] / r1 - amu * y[1] / r2,
        )
    }
}

/// Van der Pol's equation `y₁' = y₂`, `y₂' = ((1 − y₁²) y₂ − y₁)/ε`, stiff for small `ε`
/// (Hairer's drivers: `y₀ = (2, 0)`, `x ∈ [0, 2]`, `ε = 1e-3` for DOP853, `0.1` for ODEX).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VanDerPol {
    /// The parameter `ε > 0`.
    pub epsilon: f64,
}

impl<T: Real> VectorOde<T, 2> for VanDerPol {
    fn rhs(&mut self, _t: T, y: &Vector2<T>) -> Vector2<T> {
        Vector2::new(
            y[1],
            ((T::one() - y[0] * y[0]) * y[1] - y[0]) / real::<T>(self.epsilon),
        )
    }
}
