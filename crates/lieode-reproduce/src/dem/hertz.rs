//! The conservative Hertz normal contact between elastic spheres (and a sphere and a flat
//! wall): force, potential energy and the closed-form duration of a collision.

use lieode::{Error, Result};

/// The Hertz law of two bodies in normal contact: with the effective modulus `E*` and radius
/// `R*`, an overlap `δ ≥ 0` pushes them apart with
///
/// ```text
/// F(δ) = 4/3 E* √R* δ^{3/2},      U(δ) = 8/15 E* √R* δ^{5/2}   (F = dU/dδ)
/// ```
///
/// and nothing else: no damping, no friction, so a system of Hertz contacts conserves its
/// energy exactly. For two spheres of one material (Young's modulus `E`, Poisson ratio `ν`)
/// `E* = E / (2(1 − ν²))` and `R* = R₁R₂/(R₁ + R₂)`; for a sphere on a wall of the same
/// material `R* = R` (the wall is a sphere of infinite radius).
///
/// **Range.** The force and the energy are finite for overlaps up to
/// [`Hertz::overlap_limit`] (where the larger of them reaches the largest `f64`) and overflow
/// to `+∞` beyond it; [`Hertz::new`] refuses a contact whose stiffness `4/3 E* √R*` itself
/// overflows or underflows. A model that knows its geometry checks its largest overlaps
/// against the limit ([`crate::dem::PieceBox::new`] does).
///
/// # References
/// - H. Hertz, *Über die Berührung fester elastischer Körper*, J. reine angew. Math. 92 (1882).
/// - K. L. Johnson, *Contact Mechanics*, Cambridge University Press (1985), §4.2 and §11.4.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hertz {
    /// `4/3 E* √R*`, the force per `δ^{3/2}`.
    stiffness: f64,
}

impl Hertz {
    /// The contact of effective modulus `effective_modulus` (`E*`) and effective radius
    /// `effective_radius` (`R*`).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the parameter unless both are finite and positive;
    /// naming `effective_modulus` (with both values) when the stiffness `4/3 E* √R*` is not a
    /// finite normal number (it overflows, or underflows to a contact without force).
    pub fn new(effective_modulus: f64, effective_radius: f64) -> Result<Self> {
        for (name, value) in [
            ("effective_modulus", effective_modulus),
            ("effective_radius", effective_radius),
        ] {
            if !(value.is_finite() && value > 0.0) {
                return Err(Error::InvalidParameter {
                    name,
                    value: format!("{value:e}"),
                    expected: "a finite positive value".into(),
                });
            }
        }
        let stiffness = 4.0 / 3.0 * effective_modulus * effective_radius.sqrt();
        if !stiffness.is_normal() {
            return Err(Error::InvalidParameter {
                name: "effective_modulus",
                value: format!("{effective_modulus:e} with effective_radius {effective_radius:e}"),
                expected: format!(
                    "a stiffness 4/3 E* √R* that is a finite normal number, not {stiffness:e}"
                ),
            });
        }
        Ok(Self { stiffness })
    }

    /// The stiffness `4/3 E* √R*`, the force per `δ^{3/2}`.
    pub fn stiffness(&self) -> f64 {
        self.stiffness
    }

    /// The largest overlap at which both the force and the energy are finite:
    /// `min((M/k)^{2/3}, (M/(0.4 k))^{2/5})` with `k` the stiffness and `M` the largest `f64`,
    /// less a relative `1e-9` for the rounding of the powers (at most the largest `f64`, for a
    /// stiffness below `M^{−1/4}`). [`Hertz::force`] and
    /// [`Hertz::energy`] may overflow to `+∞` beyond it.
    pub fn overlap_limit(&self) -> f64 {
        // In logarithms: for a small stiffness `M/k` itself overflows.
        let largest = f64::MAX.ln();
        let force = (2.0 / 3.0 * (largest - self.stiffness.ln())).exp();
        let energy = (0.4 * (largest - (0.4 * self.stiffness).ln())).exp();
        (force.min(energy) * (1.0 - 1e-9)).min(f64::MAX)
    }

    /// `E* = E / (2(1 − ν²))` of two bodies of one material.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `young` unless it is finite and positive, naming
    /// `poisson` unless `−1 < ν < ½`; naming `young` (with both values) when `E*` overflows
    /// (a huge `E` with `ν` near −1).
    pub fn same_material_modulus(young: f64, poisson: f64) -> Result<f64> {
        if !(young.is_finite() && young > 0.0) {
            return Err(Error::InvalidParameter {
                name: "young",
                value: format!("{young:e}"),
                expected: "a finite positive Young's modulus".into(),
            });
        }
        if !(poisson > -1.0 && poisson < 0.5) {
            return Err(Error::InvalidParameter {
                name: "poisson",
                value: format!("{poisson:e}"),
                expected: "a Poisson ratio in (−1, ½)".into(),
            });
        }
        let modulus = young / (2.0 * (1.0 - poisson * poisson));
        if !modulus.is_finite() {
            return Err(Error::InvalidParameter {
                name: "young",
                value: format!("{young:e} with poisson {poisson:e}"),
                expected: "a Young's modulus and Poisson ratio with E/(2(1 − ν²)) finite".into(),
            });
        }
        Ok(modulus)
    }

    /// The repulsive force `F(δ)` at the overlap `δ` (0 for `δ ≤ 0`; `+∞` beyond
    /// [`Hertz::overlap_limit`]).
    #[inline]
    pub fn force(&self, overlap: f64) -> f64 {
        if overlap > 0.0 {
            self.stiffness * overlap * overlap.sqrt()
        } else {
            0.0
        }
    }

    /// The elastic energy `U(δ)` stored at the overlap `δ` (0 for `δ ≤ 0`; `+∞` beyond
    /// [`Hertz::overlap_limit`]).
    #[inline]
    pub fn energy(&self, overlap: f64) -> f64 {
        if overlap > 0.0 {
            0.4 * self.stiffness * overlap * overlap * overlap.sqrt()
        } else {
            0.0
        }
    }

    /// The largest overlap of a head-on collision of reduced mass `m*` at the approach speed
    /// `v`: `δ_max = (5 m* v² / (4 · 4/3 E*√R*))^{2/5}`, where the kinetic energy `½ m* v²` is
    /// all stored (`U(δ_max) = ½ m* v²`).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `reduced_mass` or `speed` unless each is finite and
    /// positive, or naming `speed` when the overlap would not be finite.
    pub fn maximum_overlap(&self, reduced_mass: f64, speed: f64) -> Result<f64> {
        check_collision(reduced_mass, speed)?;
        let overlap = (1.25 * reduced_mass * speed * speed / self.stiffness).powf(0.4);
        if overlap.is_finite() {
            Ok(overlap)
        } else {
            Err(Error::InvalidParameter {
                name: "speed",
                value: format!("{speed:e} with reduced mass {reduced_mass:e}"),
                expected: "a collision whose kinetic energy is finite".into(),
            })
        }
    }

    /// The duration of a head-on collision: `t_c = 2 (δ_max/v) ∫₀¹ dx/√(1 − x^{5/2})`, with the
    /// integral `√π Γ(7/5)/Γ(9/10) = 1.4716…` ([`HERTZ_DURATION_INTEGRAL`]).
    ///
    /// # Errors
    /// As [`Hertz::maximum_overlap`].
    pub fn contact_duration(&self, reduced_mass: f64, speed: f64) -> Result<f64> {
        Ok(2.0 * HERTZ_DURATION_INTEGRAL * self.maximum_overlap(reduced_mass, speed)? / speed)
    }
}

/// `∫₀¹ dx/√(1 − x^{5/2}) = √π Γ(7/5)/Γ(9/10)`, the dimensionless half-duration of a Hertz
/// collision (Johnson 1985, §11.4: `t_c = 2.94 δ_max/v`).
pub const HERTZ_DURATION_INTEGRAL: f64 = 1.471_637_592_162_353;

/// A head-on collision's reduced mass and approach speed must be finite and positive.
fn check_collision(reduced_mass: f64, speed: f64) -> Result<()> {
    for (name, value) in [("reduced_mass", reduced_mass), ("speed", speed)] {
        if !(value.is_finite() && value > 0.0) {
            return Err(Error::InvalidParameter {
                name,
                value: format!("{value:e}"),
                expected: "a finite positive value".into(),
            });
        }
    }
    Ok(())
}
