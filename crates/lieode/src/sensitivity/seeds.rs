//! [`Seeds`]: the inputs of a sensitivity run as dual numbers, one derivative direction each.

use nalgebra::{DefaultAllocator, OVector, Quaternion, SVector, Vector3, allocator::Allocator};

use super::Dual;
use crate::error::{Error, Result};
use crate::lie::{LieAlgebra, LieGroup, Side};

/// Hands out the `P` derivative directions of a sensitivity run, in order, each with a name:
/// a scalar parameter takes one ([`Seeds::parameter`]), a vector initial state one per entry
/// ([`Seeds::vector`]), a group-valued initial state one per algebra coordinate
/// ([`Seeds::group`]). Column `j` of a Jacobian extracted later is the derivative with respect
/// to direction `j` ([`Seeds::names`]).
///
/// # Examples
/// ```
/// use lieode::sensitivity::{Seeds, vector_jacobian};
/// use nalgebra::Vector2;
///
/// let mut seeds = Seeds::<3>::new();
/// let x0 = seeds.vector("x0", &Vector2::new(1.0, 2.0))?;
/// let k = seeds.parameter("k", 0.5)?;
/// let y = x0 * k; // any computation on the dual numbers
/// let j = vector_jacobian(&y);
/// assert_eq!(j.row(0).transpose(), nalgebra::Vector3::new(0.5, 0.0, 1.0));
/// assert_eq!(seeds.names(), ["x0[0]", "x0[1]", "k"]);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Seeds<const P: usize> {
    names: Vec<String>,
}

impl<const P: usize> Seeds<P> {
    /// No direction handed out yet.
    pub fn new() -> Self {
        Self { names: Vec::new() }
    }

    /// The names of the directions handed out, in order (`name` for a parameter, `name[i]` for
    /// entry or coordinate `i` of a state).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The number of directions handed out.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether no direction was handed out.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The parameter `name` with value `value` and the next direction.
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `value`; [`Error::InvalidParameter`] naming `seeds` when all
    /// `P` directions are taken.
    pub fn parameter(&mut self, name: &str, value: f64) -> Result<Dual<P>> {
        if !value.is_finite() {
            return Err(Error::NonFinite { name: "value" });
        }
        let index = self.take(name, 1, false)?;
        Ok(Dual::from_re(value).derivative(index))
    }

    /// The vector `x` with one direction per entry (`name[0]`, `name[1]`, …).
    ///
    /// # Errors
    /// As [`Seeds::parameter`] (naming `x`).
    pub fn vector<const N: usize>(
        &mut self,
        name: &str,
        x: &SVector<f64, N>,
    ) -> Result<SVector<Dual<P>, N>> {
        if !x.iter().all(|v| v.is_finite()) {
            return Err(Error::NonFinite { name: "x" });
        }
        let first = self.take(name, N, true)?;
        Ok(SVector::from_fn(|i, _| {
            Dual::from_re(x[i]).derivative(first + i)
        }))
    }

    /// The group element `y` moved by `exp` of one direction per algebra coordinate
    /// (`name[i]` for basis element `E_i`): `y · exp(Σ ε_i E_i)` for [`Side::Right`],
    /// `exp(Σ ε_i E_i) · y` for [`Side::Left`] (the real part is `y`).
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `y`; [`Error::InvalidParameter`] naming `seeds` when fewer
    /// than the algebra's dimension of directions are left.
    pub fn group<G>(&mut self, name: &str, y: &G, side: Side) -> Result<G::WithScalar<Dual<P>>>
    where
        G: LieGroup<Scalar = f64>,
        DefaultAllocator: Allocator<<G::Algebra as LieAlgebra>::Dim>,
    {
        if !y.is_finite() {
            return Err(Error::NonFinite { name: "y" });
        }
        let dim = <G::Algebra as LieAlgebra>::dim();
        let first = self.take(name, dim, true)?;
        let coords = OVector::<Dual<P>, <G::Algebra as LieAlgebra>::Dim>::from_fn(|i, _| {
            Dual::from_re(0.0).derivative(first + i)
        });
        let xi =
            <<G::WithScalar<Dual<P>> as LieGroup>::Algebra as LieAlgebra>::from_coords(&coords);
        let moved = <G::WithScalar<Dual<P>> as LieGroup>::exp(&xi);
        let y = y.cast::<Dual<P>>();
        Ok(match side {
            Side::Right => y.compose(&moved),
            Side::Left => moved.compose(&y),
        })
    }

    /// Reserves `count` directions named `name` (a scalar) or `name[i]` (`indexed`); the first
    /// index.
    /// A rotor `q` (body → lab, the raw quaternion the rotational catalogue carries,
    /// [`crate::rotation`]) with three directions `name[0]`, `name[1]`, `name[2]`: the rotation
    /// vector `θ` of a small turn, in the body frame for [`Side::Right`]
    /// (`q ⊗ exp(θ/2)`) or in the lab frame for [`Side::Left`] (`exp(θ/2) ⊗ q`), to first order
    /// — `q + ε_j q ⊗ (0, e_j)/2` — which is all a dual number carries. These are the
    /// coordinates of [`super::rotor_jacobian`], so the block of the Jacobian for the initial
    /// rotor is the identity at `t₀`.
    ///
    /// # Errors
    /// [`Error::NonFinite`] naming `q` for a non-finite rotor; as [`Seeds::vector`] for the name
    /// and the count.
    pub fn rotor(
        &mut self,
        name: &str,
        q: &Quaternion<f64>,
        side: Side,
    ) -> Result<Quaternion<Dual<P>>> {
        if !q.coords.iter().all(|v| v.is_finite()) {
            return Err(Error::NonFinite { name: "q" });
        }
        let first = self.take(name, 3, true)?;
        let mut seeded = Quaternion::from(q.coords.map(Dual::from_re));
        for axis in 0..3 {
            let half_turn = crate::body::quaternion::pure(&Vector3::ith(axis, 0.5));
            let direction = match side {
                Side::Right => q * half_turn,
                Side::Left => half_turn * q,
            };
            let unit = Dual::from_re(0.0).derivative(first + axis);
            seeded += Quaternion::from(direction.coords.map(|d| unit * d));
        }
        Ok(seeded)
    }

    fn take(&mut self, name: &str, count: usize, indexed: bool) -> Result<usize> {
        let first = self.names.len();
        if first + count > P {
            return Err(Error::InvalidParameter {
                name: "seeds",
                value: format!("{count} more direction(s) for `{name}` after {first}"),
                expected: format!("at most P = {P} directions in all"),
            });
        }
        let taken =
            |n: &String| n == name || n.strip_prefix(name).is_some_and(|r| r.starts_with('['));
        if name.is_empty() || self.names.iter().any(taken) {
            return Err(Error::InvalidParameter {
                name: "name",
                value: format!("{name:?}"),
                expected: "a non-empty name not given before".to_string(),
            });
        }
        if indexed {
            self.names
                .extend((0..count).map(|i| format!("{name}[{i}]")));
        } else {
            self.names.push(name.to_string());
        }
        Ok(first)
    }
}
