//! [`SplitMix64`]: a small seeded generator for reproducible synthetic data and initial
//! conditions (random directions, rotors, normally distributed noise).

use std::f64::consts::PI;

use nalgebra::{Quaternion, Vector3};

/// SplitMix64 (G. L. Steele, D. Lea, C. H. Flood, *Fast splittable pseudorandom number
/// generators*, OOPSLA 2014): a small, fast, seeded generator, so that a run is reproduced from
/// its seed on any machine.
///
/// # Examples
/// ```
/// use lieode_study::random::SplitMix64;
/// let mut rng = SplitMix64(2026);
/// let u = rng.uniform();
/// assert!((0.0..1.0).contains(&u));
/// assert_eq!(SplitMix64(2026).uniform(), u); // the seed fixes the sequence
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`: the top 53 bits over `2⁵³`.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A standard normal sample by the Box–Muller transform,
    /// `√(−2 ln(1 − u₁)) cos(2π u₂)` (`1 − u₁ ∈ (0, 1]`, so the logarithm is finite).
    pub fn normal(&mut self) -> f64 {
        let (u1, u2) = (self.uniform(), self.uniform());
        (-2.0 * (1.0 - u1).ln()).sqrt() * (2.0 * PI * u2).cos()
    }

    /// A uniformly distributed unit vector (Marsaglia's rejection from the cube).
    pub fn direction(&mut self) -> Vector3<f64> {
        loop {
            let v = Vector3::new(self.uniform(), self.uniform(), self.uniform()) * 2.0
                - Vector3::repeat(1.0);
            let n = v.norm();
            if n > 1e-3 && n <= 1.0 {
                return v / n;
            }
        }
    }

    /// A uniformly distributed unit quaternion (K. Shoemake, *Uniform random rotations*,
    /// Graphics Gems III, 1992).
    pub fn rotor(&mut self) -> Quaternion<f64> {
        let (u1, u2, u3) = (self.uniform(), self.uniform(), self.uniform());
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        let (s2, c2) = (2.0 * PI * u2).sin_cos();
        let (s3, c3) = (2.0 * PI * u3).sin_cos();
        Quaternion::new(a * s2, a * c2, b * s3, b * c3)
    }
}
