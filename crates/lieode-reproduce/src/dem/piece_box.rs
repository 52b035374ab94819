//! Chess pieces bouncing in a closed box under conservative Hertz contacts: the force model of
//! the SPIRAL paper's many-particle energy test (§5).

use lieode::body::Frame;
use nalgebra::{Quaternion, Vector3};

use super::cells::CellList;
use super::clump::Clump;
use super::pieces::ChessPiece;
use lieode::body::quaternion::rotate;
use lieode::system::{Body, Loads, SystemForces, SystemState, SystemView};
use lieode::{Error, Result};

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
///
/// **Coincident centres.** Two spheres of different pieces at one centre (`|c_b − c_a| = 0`)
/// have no line of centres; they still overlap by `r_a + r_b`, push apart and count in the
/// energy. Their normal is the line between the two pieces' centres of mass,
/// `n = (x_b − x_a)/|x_b − x_a|`, or the lab x axis when those coincide too.
///
/// **Range.** [`PieceBox::new`] refuses a modulus and spheres whose contacts could overflow:
/// every contact force, the sum of them on a piece, their torques and the elastic energy stay
/// finite for every overlap up to twice the largest radius — every overlap of spheres whose
/// centres lie in the box, or less than the largest radius outside it. A piece further outside
/// the box may meet a larger wall overlap, whose force can overflow: the methods then stop
/// with [`Error::NonFiniteBody`].
///
/// **Bodies.** The model is built for one body per clump: [`SystemForces::body_count`] says so, and
/// the many-body methods refuse a state of another size (naming `y0`); [`PieceBox::try_energy`]
/// refuses one too (naming `state`). Called directly, [`SystemForces::loads`] only loads the
/// bodies a view, the loads and the model all have.
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
    /// `half`, with the contact modulus `E*` = `modulus` (e.g.
    /// [`Hertz::same_material_modulus`](super::Hertz::same_material_modulus)).
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
    /// [`Error::InvalidParameter`] naming `modulus` unless it is finite and positive, naming
    /// `half` unless it is; naming `clumps` for `u32::MAX − 1` spheres or more, or a sphere
    /// diameter that overflows; naming `modulus` (with the largest and smallest radii) when a
    /// contact could overflow ([`PieceBox`]'s range) or a contact's stiffness underflows.
    pub fn new(clumps: Vec<Clump>, half: f64, modulus: f64) -> Result<Self> {
        if !(modulus.is_finite() && modulus > 0.0) {
            return Err(Error::InvalidParameter {
                name: "modulus",
                value: format!("{modulus:e}"),
                expected: "a finite positive contact modulus E*".into(),
            });
        }
        if !(half.is_finite() && half > 0.0) {
            return Err(Error::InvalidParameter {
                name: "half",
                value: format!("{half:e}"),
                expected: "a finite positive half side".into(),
            });
        }
        let spheres: usize = clumps.iter().map(|c| c.spheres().len()).sum();
        if spheres >= u32::MAX as usize {
            return Err(Error::InvalidParameter {
                name: "clumps",
                value: format!("{spheres} spheres"),
                expected: format!("fewer than {} spheres", u32::MAX),
            });
        }
        let largest = clumps
            .iter()
            .flat_map(|c| c.spheres().iter().map(|s| s.radius))
            .fold(0.0, f64::max);
        if !(2.0 * largest).is_finite() {
            return Err(Error::InvalidParameter {
                name: "clumps",
                value: format!("a sphere of radius {largest:e}"),
                expected: "sphere diameters below the largest f64".into(),
            });
        }
        check_contact_range(&clumps, spheres, modulus)?;
        // Without spheres any cell does.
        let cell = if largest > 0.0 { 2.0 * largest } else { half };
        Ok(Self {
            clumps,
            half,
            modulus,
            cells: CellList::new(Vector3::repeat(half), cell)?,
            centres: Vec::new(),
            radii: Vec::new(),
            owners: Vec::new(),
            pairs: Vec::new(),
        })
    }

    /// The bodies (mass and principal inertia of each piece); their number, as the force model
    /// states it to the methods, is [`SystemForces::body_count`].
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

    /// The spheres of a state in the lab frame, body by body: `(centre, radius, body)` — of the
    /// bodies both the state and the model have (all of them for a state of the model's size).
    pub fn world_spheres(&mut self, state: &SystemState) -> Vec<(Vector3<f64>, f64, usize)> {
        self.place(&state.positions, &state.rotors);
        self.centres
            .iter()
            .zip(&self.radii)
            .zip(&self.owners)
            .map(|((&c, &r), &i)| (c, r, i))
            .collect()
    }

    /// The spheres' world centres, radii and owners for positions `x` and rotors `q` (of the
    /// bodies `x`, `q` and the model all have).
    fn place(&mut self, x: &[Vector3<f64>], q: &[Quaternion<f64>]) {
        self.centres.clear();
        self.radii.clear();
        self.owners.clear();
        for (i, ((clump, x), q)) in self.clumps.iter().zip(x).zip(q).enumerate() {
            for (offset, r) in clump.body_centres() {
                self.centres.push(x + rotate(q, &offset));
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
        for ((&c, &r), &owner) in self.centres.iter().zip(&self.radii).zip(&self.owners) {
            for k in 0..3 {
                for sign in [-1.0, 1.0] {
                    let delta = r + sign * c[k] - self.half;
                    if delta > 0.0 {
                        let (f, e) = self.hertz(delta, r, f64::INFINITY);
                        let mut normal = Vector3::zeros();
                        normal[k] = sign;
                        let point = c + normal * (r - 0.5 * delta);
                        visit(owner, None, point, -normal * f, e);
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
        pairs.clear();
        // Refused only beyond u32::MAX − 1 spheres, which `new` refuses.
        if cells.bin(centres).is_err() {
            return;
        }
        cells.for_each_near_pair(|a, b| {
            let (Some(&ca), Some(&cb), Some(&ra), Some(&rb), Some(&oa), Some(&ob)) = (
                centres.get(a),
                centres.get(b),
                radii.get(a),
                radii.get(b),
                owners.get(a),
                owners.get(b),
            ) else {
                return;
            };
            if oa != ob {
                let gap = cb - ca;
                let distance = gap.norm();
                let delta = ra + rb - distance;
                if delta > 0.0 {
                    if distance > 0.0 {
                        pairs.push((a, b, delta, gap / distance));
                    } else {
                        pairs.push((a, b, delta, coincident_normal(x, oa, ob)));
                    }
                }
            }
        });
        for &(a, b, delta, normal) in &self.pairs {
            let (Some(&ca), Some(&ra), Some(&rb), Some(&oa), Some(&ob)) = (
                self.centres.get(a),
                self.radii.get(a),
                self.radii.get(b),
                self.owners.get(a),
                self.owners.get(b),
            ) else {
                continue;
            };
            let (f, e) = self.hertz(delta, ra, rb);
            let point = ca + normal * (ra - 0.5 * delta);
            visit(oa, Some(ob), point, -normal * f, e);
        }
    }

    /// The total energy of a state: translational and rotational kinetic energy and the
    /// elastic energy of every contact.
    ///
    /// # Errors
    /// Those of [`SystemState::validate`]; [`Error::InvalidParameter`] naming `state` when it
    /// has another number of bodies than the model; [`Error::NonFiniteBody`] naming the first
    /// body whose kinetic energy (`what` = `"kinetic energy"`) or one of whose contacts'
    /// elastic energy (`"contact energy"`) overflows, with the state's time;
    /// [`Error::NonFiniteState`] (`what` = `"energy"`) when the total overflows.
    pub fn try_energy(&mut self, state: &SystemState) -> Result<f64> {
        state.validate()?;
        if state.len() != self.clumps.len() {
            return Err(Error::InvalidParameter {
                name: "state",
                value: format!("{} bodies", state.len()),
                expected: format!("{} bodies, one per clump of the model", self.clumps.len()),
            });
        }
        let t = state.t;
        let terms: Vec<f64> = self
            .clumps
            .iter()
            .zip(state.velocities.iter().zip(&state.omegas))
            .map(|(clump, (v, w))| {
                let body = clump.body();
                0.5 * body.mass() * v.norm_squared() + body.rigid().kinetic_energy(w)
            })
            .collect();
        if let Some(body) = terms.iter().position(|e| !e.is_finite()) {
            return Err(Error::NonFiniteBody {
                what: "kinetic energy",
                body,
                t,
            });
        }
        let kinetic: f64 = terms.iter().sum();
        let mut elastic = 0.0;
        let mut overflow = None;
        self.contacts(&state.positions, &state.rotors, |a, _, _, _, e| {
            if !e.is_finite() && overflow.is_none() {
                overflow = Some(a);
            }
            elastic += e
        });
        if let Some(body) = overflow {
            return Err(Error::NonFiniteBody {
                what: "contact energy",
                body,
                t,
            });
        }
        let total = kinetic + elastic;
        if !total.is_finite() {
            return Err(Error::NonFiniteState { what: "energy", t });
        }
        Ok(total)
    }

    /// The total energy of a state as [`PieceBox::try_energy`], or `+∞` where that fails (a
    /// state of another size, a non-finite state, an energy beyond the largest `f64`): the
    /// energy study's value of a run that blew up. Prefer [`PieceBox::try_energy`], which says
    /// why.
    pub fn energy(&mut self, state: &SystemState) -> f64 {
        self.try_energy(state).unwrap_or(f64::INFINITY)
    }
}

/// The normal of two spheres of bodies `a` and `b` at one centre: the line from `a`'s centre
/// of mass to `b`'s, or the lab x axis when those coincide too (or are not both given).
fn coincident_normal(x: &[Vector3<f64>], a: usize, b: usize) -> Vector3<f64> {
    match (x.get(a), x.get(b)) {
        (Some(xa), Some(xb)) => {
            let line = xb - xa;
            let length = line.norm();
            if length > 0.0 && length.is_finite() {
                line / length
            } else {
                Vector3::x()
            }
        }
        _ => Vector3::x(),
    }
}

/// [`PieceBox::new`]'s range check: with `k` the largest contact stiffness (`R* ≤` the largest
/// radius `r`, a wall's), every overlap up to `δ = 2r` gives a finite force and energy, and so
/// do the sums of `spheres·(spheres + 6)` of them (every pair and every wall) and their
/// torques (arms below the largest `|z| + r`); and the smallest stiffness (two of the smallest
/// spheres) is a normal number.
fn check_contact_range(clumps: &[Clump], spheres: usize, modulus: f64) -> Result<()> {
    let all = || clumps.iter().flat_map(|c| c.spheres().iter());
    let largest = all().map(|s| s.radius).fold(0.0, f64::max);
    if largest <= 0.0 {
        return Ok(());
    }
    let smallest = all().map(|s| s.radius).fold(f64::MAX, f64::min);
    let reach = all().map(|s| s.z.abs()).fold(0.0, f64::max) + largest;
    let count = spheres as f64 * (spheres as f64 + 6.0);
    // As `PieceBox::hertz` computes them.
    let stiffness = 4.0 / 3.0 * modulus * largest.sqrt();
    let delta = 2.0 * largest;
    let root = delta.sqrt();
    let force = stiffness * delta * root;
    let energy = 0.4 * stiffness * delta * delta * root;
    let weakest = 4.0 / 3.0 * modulus * (smallest * smallest / (smallest + smallest)).sqrt();
    let fits = [
        stiffness,
        force * count,
        force * count * reach.max(1.0),
        energy * count,
    ]
    .iter()
    .all(|v| v.is_finite());
    if !fits || !weakest.is_normal() {
        return Err(Error::InvalidParameter {
            name: "modulus",
            value: format!(
                "{modulus:e} with sphere radii from {smallest:e} to {largest:e} ({spheres} spheres)"
            ),
            expected: "a modulus and radii whose contact forces, torques and energies stay \
                       finite up to overlaps of twice the largest radius, and whose weakest \
                       contact has a normal stiffness"
                .into(),
        });
    }
    Ok(())
}

impl SystemForces for PieceBox {
    fn torque_frame(&self) -> Frame {
        Frame::Lab
    }

    /// One per clump: the methods refuse a state of another size.
    fn body_count(&self) -> Option<usize> {
        Some(self.clumps.len())
    }

    /// The contact forces and torques (lab frame) of the bodies the view, the loads and the
    /// model all have (every body, for the methods).
    fn loads(&mut self, view: &SystemView<'_>, loads: &mut Loads) {
        let x = view.positions;
        let Loads { forces, torques } = loads;
        self.contacts(x, view.rotors, |a, b, point, force, _| {
            if let (Some(fa), Some(ta), Some(xa)) =
                (forces.get_mut(a), torques.get_mut(a), x.get(a))
            {
                *fa += force;
                *ta += (point - xa).cross(&force);
            }
            if let Some((Some(fb), Some(tb), Some(xb))) =
                b.map(|b| (forces.get_mut(b), torques.get_mut(b), x.get(b)))
            {
                *fb -= force;
                *tb -= (point - xb).cross(&force);
            }
        });
    }
}
