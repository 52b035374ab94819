//! Rigid multi-sphere clumps with their spheres' centres on one axis: the exact mass, centre of
//! mass and principal inertia of the union of overlapping spheres.

use nalgebra::Vector3;

use lieode::system::Body;
use lieode::{Error, Result};

/// One sphere of a clump: its centre's height `z` on the clump's axis (body z) and its radius.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AxialSphere {
    /// The centre's height on the axis.
    pub z: f64,
    /// The radius.
    pub radius: f64,
}

/// A rigid clump of overlapping spheres whose centres lie on its axis (body z), of uniform
/// density: the union's mass and inertia are computed exactly, and the spheres are placed
/// relative to the centre of mass (`z` measured from it).
///
/// **Geometry.** The cross-section of the union at height `z` is the disk of radius
/// `ρ(z) = max_i √(r_i² − (z − z_i)²)`. Between consecutive breakpoints (the spheres' ends and
/// the planes where two spheres' cross-sections are equal) one sphere gives the maximum and
/// `ρ²` is a quadratic in `z`, so
///
/// ```text
/// V = π∫ρ² dz,   z̄ = π∫zρ² dz / V,   J_z = ½ ϱπ∫ρ⁴ dz,   J_x = J_y = ϱπ∫(¼ρ⁴ + ρ²(z − z̄)²) dz
/// ```
///
/// are integrated exactly piece by piece (3-point Gauss–Legendre, exact for degree 5).
#[derive(Debug, Clone, PartialEq)]
pub struct Clump {
    /// The spheres, heights from the centre of mass.
    spheres: Vec<AxialSphere>,
    /// The rigid body (mass, principal moments).
    body: Body,
}

impl Clump {
    /// The clump of `spheres` (heights in any frame along the axis) of density `density`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `spheres` for none, a non-finite height or a
    /// non-positive radius; naming `density` unless it is finite and positive; those of
    /// [`Body::new`].
    pub fn new(spheres: &[AxialSphere], density: f64) -> Result<Self> {
        let bad = |expected: &str| Error::InvalidParameter {
            name: "spheres",
            value: format!("{spheres:?}"),
            expected: expected.into(),
        };
        if spheres.is_empty() {
            return Err(bad("at least one sphere"));
        }
        if !spheres
            .iter()
            .all(|s| s.z.is_finite() && s.radius.is_finite() && s.radius > 0.0)
        {
            return Err(bad("finite heights and finite positive radii"));
        }
        if !(density.is_finite() && density > 0.0) {
            return Err(Error::InvalidParameter {
                name: "density",
                value: format!("{density:e}"),
                expected: "a finite positive density".into(),
            });
        }
        let [volume, moment, r4, _] = union_integrals(spheres, 0.0);
        let centre = moment / volume;
        // The second moment about the centre of mass, integrated about it (subtracting z̄²V
        // from the moment about the origin would cancel digits).
        let [_, _, _, r2z2] = union_integrals(spheres, centre);
        let pi = std::f64::consts::PI;
        let mass = density * pi * volume;
        let axial = 0.5 * density * pi * r4;
        let transverse = density * pi * (0.25 * r4 + r2z2);
        let spheres = spheres
            .iter()
            .map(|s| AxialSphere {
                z: s.z - centre,
                radius: s.radius,
            })
            .collect();
        Ok(Self {
            spheres,
            body: Body::new(mass, [transverse, transverse, axial])?,
        })
    }

    /// The spheres, heights measured from the centre of mass along body z.
    pub fn spheres(&self) -> &[AxialSphere] {
        &self.spheres
    }

    /// The body: mass and principal inertia (axis along body z).
    pub fn body(&self) -> &Body {
        &self.body
    }

    /// The centres of the spheres in the body frame.
    pub fn body_centres(&self) -> impl Iterator<Item = (Vector3<f64>, f64)> + '_ {
        self.spheres
            .iter()
            .map(|s| (Vector3::new(0.0, 0.0, s.z), s.radius))
    }

    /// The clump's extent along its axis, bottom to top.
    pub fn height(&self) -> f64 {
        let top = self
            .spheres
            .iter()
            .map(|s| s.z + s.radius)
            .fold(f64::MIN, f64::max);
        let bottom = self
            .spheres
            .iter()
            .map(|s| s.z - s.radius)
            .fold(f64::MAX, f64::min);
        top - bottom
    }
}

/// `[∫ρ², ∫zρ², ∫ρ⁴, ∫z²ρ²]` of the union of `spheres` (heights shifted by `−origin`), exact.
fn union_integrals(spheres: &[AxialSphere], origin: f64) -> [f64; 4] {
    let mut cuts: Vec<f64> = Vec::new();
    for (i, a) in spheres.iter().enumerate() {
        cuts.push(a.z - a.radius);
        cuts.push(a.z + a.radius);
        for b in &spheres[i + 1..] {
            // r_a² − (z − z_a)² = r_b² − (z − z_b)² is linear in z.
            if a.z != b.z {
                let z = (a.radius * a.radius - b.radius * b.radius + b.z * b.z - a.z * a.z)
                    / (2.0 * (b.z - a.z));
                cuts.push(z);
            }
        }
    }
    cuts.sort_by(f64::total_cmp);
    cuts.dedup();
    let radius2 = |z: f64| {
        spheres
            .iter()
            .map(|s| s.radius * s.radius - (z - s.z) * (z - s.z))
            .fold(0.0, f64::max)
    };
    // 3-point Gauss–Legendre on [−1, 1].
    let nodes = [-(0.6f64.sqrt()), 0.0, 0.6f64.sqrt()];
    let weights = [5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0];
    let mut sums = [0.0; 4];
    for w in cuts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (mid, half) = (0.5 * (a + b), 0.5 * (b - a));
        if half <= 0.0 || radius2(mid) <= 0.0 {
            continue;
        }
        // The sphere that gives the maximum on this piece (its ρ² is the integrand).
        let height = |s: &&AxialSphere| s.radius * s.radius - (mid - s.z) * (mid - s.z);
        let Some(s) = spheres
            .iter()
            .max_by(|p, q| height(p).total_cmp(&height(q)))
        else {
            continue;
        };
        for (x, wt) in nodes.iter().zip(weights) {
            let z = mid + half * x;
            let r2 = (s.radius * s.radius - (z - s.z) * (z - s.z)).max(0.0);
            let zr = z - origin;
            let h = half * wt;
            sums[0] += h * r2;
            sums[1] += h * zr * r2;
            sums[2] += h * r2 * r2;
            sums[3] += h * zr * zr * r2;
        }
    }
    sums
}
