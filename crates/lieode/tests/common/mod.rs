//! Shared sample sets and helpers for the integration tests.
#![allow(dead_code)]

pub mod bodies;
pub mod counting;

use lieode::lie::series::{ASIN_SERIES_SQ, SERIES_ANGLE_SQ, SMALL_ANGLE_SQ};
use lieode::lie::so3::LOG_SYMMETRIC_BRANCH_COS;
use nalgebra::Vector3;
use std::f64::consts::PI;

/// A small deterministic generator (SplitMix64: Steele, Lea, Flood 2014) so tests need no extra
/// crates.
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [-1, 1).
    pub fn symmetric(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
    pub fn unit_vector(&mut self) -> Vector3<f64> {
        loop {
            let v = Vector3::new(self.symmetric(), self.symmetric(), self.symmetric());
            let n = v.norm();
            if n > 0.1 && n < 1.0 {
                return v / n;
            }
        }
    }
}

/// Rotation angles that exercise every branch of the so(3) / su(2) maps: zero, tiny, both sides
/// of every threshold (in the angle θ and in the half angle θ/2 the quaternion maps see), one,
/// large, π − 1e-6 and π.
pub fn rotation_angles() -> Vec<f64> {
    let mut thresholds = vec![
        SMALL_ANGLE_SQ.sqrt(),
        SERIES_ANGLE_SQ.sqrt(),
        ASIN_SERIES_SQ.sqrt().asin(),
        LOG_SYMMETRIC_BRANCH_COS.acos(),
    ];
    // The quaternion maps see half angles and twice-half angles.
    let doubled: Vec<f64> = thresholds.iter().map(|t| 2.0 * t).collect();
    let halved: Vec<f64> = thresholds.iter().map(|t| 0.5 * t).collect();
    thresholds.extend(doubled);
    thresholds.extend(halved);
    let mut out = vec![0.0, 1e-9, 1e-6, 1e-3, 1.0, 2.5, 3.0, PI - 1e-6, PI];
    for t in thresholds {
        if t < PI {
            out.push(t * (1.0 - 1e-9));
            out.push(t * (1.0 + 1e-9));
        }
    }
    out
}

/// Axis directions: coordinate axes, a diagonal and seeded random ones.
pub fn axes() -> Vec<Vector3<f64>> {
    let mut rng = SplitMix(7);
    let mut v = vec![
        Vector3::x(),
        Vector3::y(),
        Vector3::z(),
        Vector3::new(1.0, 1.0, 1.0).normalize(),
        Vector3::new(-0.3, 0.9, -0.2).normalize(),
    ];
    for _ in 0..2 {
        v.push(rng.unit_vector());
    }
    v
}

/// Rotation vectors θ n for every angle and (a rotating selection of) axes.
pub fn rotation_vectors() -> Vec<Vector3<f64>> {
    let axes = axes();
    rotation_angles()
        .iter()
        .enumerate()
        .flat_map(|(i, &a)| [axes[i % axes.len()] * a, axes[(i + 3) % axes.len()] * a])
        .collect()
}

/// Generic tangent directions for derivative checks.
pub fn directions() -> Vec<Vector3<f64>> {
    vec![
        Vector3::new(0.3, -0.7, 0.2),
        Vector3::new(-1.1, 0.4, 0.9),
        Vector3::x(),
    ]
}
