//! Chess pieces bouncing in a closed box under conservative Hertz contacts: the force model of
//! the SPIRAL paper's many-particle energy test (§5).

use nalgebra::{Quaternion, Vector3};

use super::cells::CellList;
use super::clump::Clump;
use super::hertz::Hertz;
use super::pieces::ChessPiece;
use lieode::Result;
use lieode::body::quaternion::rotate;
use lieode::system::{Body, Loads, SystemForces, SystemState, SystemView, TorqueFrame};

/// Rigid chess pieces (multi-sphere [`Clump`]s) in the closed box `[−L, L]³` with Hertz normal
/// contacts sphere–sphere (between different pieces) and sphere–wall (walls of the pieces'
/// material), no damping, no friction and **no gravity**: the continuous system conserves its
/// energy exactly, and without gravity the pieces keep bouncing through the whole run instead
/// of settling (the paper does not say whether it used gravity).
///
/// Forces act at the contact points: on sphere `a` of a pair, `F = −F_H(δ) n` with
/// `n = (c_b − c_a)/|c_b − c_a|`, `δ = r_a + r_b − |c_b − c_a|`, at `c_a + (r_a − δ/2) n`; the
/// torque on the piece is `(p − x) × F` (lab frame). Pairs are found with a cell list over the
/// spheres (cells of the largest sphere diameter), so a step costs O(spheres), not O(pairs).
#[derive(Debug, Clone)]
pub struct PieceBox {
    /// Each body's clump.
    clumps: Vec<Clump>,
    half: f64,
    modulus: f64,
    cells: CellList,
    /// The spheres' world centres, radii and bodies for the current evaluation.
    centres: Vec<Vector3<f64>>,
    radii: Vec<f64>,
    owners: Vec<usize>,
    /// The touching pairs of the current evaluation: spheres, overlap, unit normal.
    pairs: Vec<(usize, usize, f64, Vector3<f64>)>,
}

impl PieceBox {
    /// The chess pieces `pieces` (one per body) of density `density` in the box of half side
    /// `half`, with the contact modulus `E*` = `modulus` (e.g. [`Hertz::same_material_modulus`]).
    ///
    /// # Errors
    /// As [`PieceBox::new`] and [`ChessPiece::clump`].
    pub fn chess(pieces: &[ChessPiece], half: f64, density: f64, modulus: f64) -> Result<Self> {
        let clumps = pieces
            .iter()
            .map(|p| p.clump(density))
            .collect::<Result<Vec<_>>>()?;
        Self::new(clumps, half, modulus)
    }

    /// The clumps `clumps` (one per body) in the box of half side `half`, with the contact
    /// modulus `E*` = `modulus`.
    ///
    /// # Errors
    /// [`lieode::Error::InvalidParameter`] naming `half` unless it is finite and positive, naming
    /// `effective_modulus` unless `modulus` is.
    pub fn new(clumps: Vec<Clump>, half: f64, modulus: f64) -> Result<Self> {
        Hertz::new(modulus, 1.0)?;
        if !(half.is_finite() && half > 0.0) {
            return Err(lieode::Error::InvalidParameter {
                name: "half",
                value: format!("{half:e}"),
                expected: "a finite positive half side".into(),
            });
        }
        let largest = clumps
            .iter()
            .flat_map(|c| c.spheres().iter().map(|s| s.radius))
            .fold(0.0, f64::max);
        Ok(Self {
            clumps,
            half,
            modulus,
            cells: CellList::new(Vector3::repeat(half), 2.0 * largest),
            centres: Vec::new(),
            radii: Vec::new(),
            owners: Vec::new(),
            pairs: Vec::new(),
        })
    }

    /// The bodies (mass and principal inertia of each piece).
    pub fn bodies(&self) -> Vec<Body> {
        self.clumps.iter().map(|c| *c.body()).collect()
    }

    /// The clump of body `i`.
    pub fn clump(&self, i: usize) -> Option<&Clump> {
        self.clumps.get(i)
    }

    /// The box's half side.
    pub fn half(&self) -> f64 {
        self.half
    }

    /// The spheres of a state in the lab frame, body by body: `(centre, radius, body)`.
    pub fn world_spheres(&mut self, state: &SystemState) -> Vec<(Vector3<f64>, f64, usize)> {
        self.place(&state.positions, &state.rotors);
        (0..self.centres.len())
            .map(|s| (self.centres[s], self.radii[s], self.owners[s]))
            .collect()
    }

    /// The spheres' world centres, radii and owners for positions `x` and rotors `q`.
    fn place(&mut self, x: &[Vector3<f64>], q: &[Quaternion<f64>]) {
        self.centres.clear();
        self.radii.clear();
        self.owners.clear();
        for (i, clump) in self.clumps.iter().enumerate() {
            for (offset, r) in clump.body_centres() {
                self.centres.push(x[i] + rotate(&q[i], &offset));
                self.radii.push(r);
                self.owners.push(i);
            }
        }
    }

    /// The Hertz force and energy of an overlap `delta` between spheres of radii `a` and `b`
    /// (`b = ∞` for a wall).
    fn hertz(&self, delta: f64, a: f64, b: f64) -> (f64, f64) {
        let effective = if b.is_finite() { a * b / (a + b) } else { a };
        let stiffness = 4.0 / 3.0 * self.modulus * effective.sqrt();
        let root = delta.sqrt();
        (
            stiffness * delta * root,
            0.4 * stiffness * delta * delta * root,
        )
    }

    /// Visits every contact: `(owner a, owner b or None for a wall, point, force on a, energy)`.
    fn contacts(
        &mut self,
        x: &[Vector3<f64>],
        q: &[Quaternion<f64>],
        mut visit: impl FnMut(usize, Option<usize>, Vector3<f64>, Vector3<f64>, f64),
    ) {
        self.place(x, q);
        for s in 0..self.centres.len() {
            let (c, r) = (self.centres[s], self.radii[s]);
            for k in 0..3 {
                for sign in [-1.0, 1.0] {
                    let delta = r + sign * c[k] - self.half;
                    if delta > 0.0 {
                        let (f, e) = self.hertz(delta, r, f64::INFINITY);
                        let mut normal = Vector3::zeros();
                        normal[k] = sign;
                        let point = c + normal * (r - 0.5 * delta);
                        visit(self.owners[s], None, point, -normal * f, e);
                    }
                }
            }
        }
        let Self {
            cells,
            centres,
            radii,
            owners,
            pairs,
            ..
        } = self;
        cells.bin(centres);
        pairs.clear();
        cells.for_each_near_pair(|a, b| {
            if owners[a] != owners[b] {
                let gap = centres[b] - centres[a];
                let distance = gap.norm();
                let delta = radii[a] + radii[b] - distance;
                if delta > 0.0 && distance > 0.0 {
                    pairs.push((a, b, delta, gap / distance));
                }
            }
        });
        for &(a, b, delta, normal) in &self.pairs {
            let (f, e) = self.hertz(delta, self.radii[a], self.radii[b]);
            let point = self.centres[a] + normal * (self.radii[a] - 0.5 * delta);
            visit(self.owners[a], Some(self.owners[b]), point, -normal * f, e);
        }
    }

    /// The total energy of a state: translational and rotational kinetic energy and the
    /// elastic energy of every contact.
    pub fn energy(&mut self, state: &SystemState) -> f64 {
        let bodies = self.bodies();
        let kinetic: f64 = (0..state.len())
            .map(|i| {
                0.5 * bodies[i].mass() * state.velocities[i].norm_squared()
                    + bodies[i].rigid().kinetic_energy(&state.omegas[i])
            })
            .sum();
        let mut elastic = 0.0;
        self.contacts(&state.positions, &state.rotors, |_, _, _, _, e| {
            elastic += e
        });
        kinetic + elastic
    }
}

impl SystemForces for PieceBox {
    fn torque_frame(&self) -> TorqueFrame {
        TorqueFrame::Lab
    }

    fn loads(&mut self, view: &SystemView<'_>, loads: &mut Loads) {
        let x = view.positions;
        self.contacts(x, view.rotors, |a, b, point, force, _| {
            loads.forces[a] += force;
            loads.torques[a] += (point - x[a]).cross(&force);
            if let Some(b) = b {
                loads.forces[b] -= force;
                loads.torques[b] -= (point - x[b]).cross(&force);
            }
        });
    }
}
