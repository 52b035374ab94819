//! Two rigid bodies joined by a spring between body-fixed points: the six-degree-of-freedom
//! reference problem of the many-body layer ([`crate::system`]).

use crate::body::Frame;
use nalgebra::{Quaternion, SVector, Vector3};

use crate::adaptive::{ControllerParameters, Dop853, Summation, Tolerances, VectorStepper};
use crate::body::quaternion::{rotate, rotate_inverse, times_pure};
use crate::error::{Error, Result};
use crate::integrate::{Options, Record, integrate};
use crate::stepper::{Span, Stepper};
use crate::system::{Body, Loads, SystemForces, SystemState, SystemView};

/// The ambient state of the pair: `(x, v, q, ω)` of body 0, then of body 1 (26 numbers).
pub type PairVector = SVector<f64, 26>;

/// Two bodies joined by a linear spring between the body-fixed points `a₀` (on body 0) and `a₁`
/// (on body 1), with an optional linear drag and a rest length that may oscillate in time:
///
/// ```text
/// p_i = x_i + R(q_i) a_i,   d = p₁ − p₀,   L(t) = L₀ (1 + ε sin Ω t)
/// F₀ = k (|d| − L(t)) d/|d| − γ v₀,   F₁ = −k (|d| − L(t)) d/|d| − γ v₁     (lab)
/// τ_i = R(q_i) a_i × F_i^spring                                             (lab)
/// ```
///
/// Every load depends on both positions and both orientations, the drag on the velocities and
/// `L` on the time: a fully coupled, state-, velocity- and time-dependent system. With `γ = 0`
/// and `ε = 0` it is conservative: the energy
/// `E = Σ ½ m_i |v_i|² + ½ ω_iᵀ J_i ω_i + ½ k (|d| − L₀)²`, the linear momentum `Σ m_i v_i`
/// and the angular momentum `Σ m_i x_i × v_i + R(q_i) J_i ω_i` are constants of the motion.
///
/// The reference solution is DOP853 on the ambient ODE of the 26 numbers
/// (`ẋ = v`, `v̇ = F/m`, `q̇ = ½ q ⊗ (0, ω)`, `ω̇ = J⁻¹(R(q)ᵀτ − ω × Jω)`), [`SpringPair::reference`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpringPair {
    /// The two bodies.
    pub bodies: [Body; 2],
    /// The body-fixed attachment points `a₀`, `a₁` (each in its body's principal frame).
    pub anchors: [Vector3<f64>; 2],
    /// The spring constant `k`.
    pub stiffness: f64,
    /// The rest length `L₀`.
    pub rest_length: f64,
    /// The linear drag coefficient `γ` (0: no drag).
    pub drag: f64,
    /// The relative amplitude `ε` and the angular frequency `Ω` of the rest length's oscillation.
    pub modulation: (f64, f64),
}

impl SpringPair {
    /// The conservative pair of the tests: an asymmetric body (m = 1, J = (0.6, 0.8, 1.1)) and a
    /// flatter one (m = 1.5, J = (0.5, 1.0, 1.2)), anchors (0.3, 0.2, −0.1) and (−0.25, 0.1,
    /// 0.2), k = 40, L₀ = 0.8, no drag, no modulation (periods: spring ≈ 0.8, rotation ≈ 1–4).
    ///
    /// # Errors
    /// None for these values (the bodies are checked).
    pub fn conservative() -> Result<Self> {
        Ok(Self {
            bodies: [
                Body::new(1.0, [0.6, 0.8, 1.1])?,
                Body::new(1.5, [0.5, 1.0, 1.2])?,
            ],
            anchors: [Vector3::new(0.3, 0.2, -0.1), Vector3::new(-0.25, 0.1, 0.2)],
            stiffness: 40.0,
            rest_length: 0.8,
            drag: 0.0,
            modulation: (0.0, 0.0),
        })
    }

    /// [`SpringPair::conservative`] with the rest length modulated by `ε = 0.1`, `Ω = 5`: loads
    /// that depend on the positions, the orientations and the time, not on the velocities.
    ///
    /// # Errors
    /// None for these values.
    pub fn modulated() -> Result<Self> {
        Ok(Self {
            modulation: (0.1, 5.0),
            ..Self::conservative()?
        })
    }

    /// [`SpringPair::modulated`] with the drag `γ = 0.3`: the velocity-dependent variant.
    ///
    /// # Errors
    /// None for these values.
    pub fn driven() -> Result<Self> {
        Ok(Self {
            drag: 0.3,
            ..Self::modulated()?
        })
    }

    /// The initial state of the tests: the bodies 1 apart along x, turned, moving and spinning
    /// (zero total linear momentum).
    pub fn initial_state(&self) -> SystemState {
        let mut s = SystemState::at_rest(0.0, 2);
        s.positions[1] = Vector3::new(1.0, 0.1, -0.05);
        s.velocities[0] = Vector3::new(0.15, -0.3, 0.2);
        let m = [self.bodies[0].mass(), self.bodies[1].mass()];
        s.velocities[1] = -s.velocities[0] * (m[0] / m[1]);
        s.rotors[0] = Quaternion::new(0.9, 0.3, -0.2, 0.1).normalize();
        s.rotors[1] = Quaternion::new(0.7, -0.1, 0.5, 0.4).normalize();
        s.omegas[0] = Vector3::new(1.2, -0.7, 2.0);
        s.omegas[1] = Vector3::new(-0.5, 1.5, 0.8);
        s
    }

    /// The spring's extension vector `d = p₁ − p₀` and its length.
    fn spring(&self, x: [&Vector3<f64>; 2], q: [&Quaternion<f64>; 2]) -> (Vector3<f64>, f64) {
        let p0 = x[0] + rotate(q[0], &self.anchors[0]);
        let p1 = x[1] + rotate(q[1], &self.anchors[1]);
        let d = p1 - p0;
        (d, d.norm())
    }

    /// The rest length `L(t)`.
    fn rest(&self, t: f64) -> f64 {
        let (epsilon, frequency) = self.modulation;
        self.rest_length * (1.0 + epsilon * (frequency * t).sin())
    }

    /// The lab-frame forces and torques on the two bodies at `t` for positions `x`, velocities
    /// `v` and rotors `q`.
    fn pair_loads(
        &self,
        t: f64,
        x: [&Vector3<f64>; 2],
        v: [&Vector3<f64>; 2],
        q: [&Quaternion<f64>; 2],
    ) -> [(Vector3<f64>, Vector3<f64>); 2] {
        let (d, length) = self.spring(x, q);
        let pull = d * (self.stiffness * (length - self.rest(t)) / length);
        let arm0 = rotate(q[0], &self.anchors[0]);
        let arm1 = rotate(q[1], &self.anchors[1]);
        [
            (pull - v[0] * self.drag, arm0.cross(&pull)),
            (-pull - v[1] * self.drag, arm1.cross(&(-pull))),
        ]
    }

    /// The total energy `E` (kinetic, rotational, spring at the rest length `L₀`).
    pub fn energy(&self, s: &SystemState) -> f64 {
        let (_, length) = self.spring(
            [&s.positions[0], &s.positions[1]],
            [&s.rotors[0], &s.rotors[1]],
        );
        let stretch = length - self.rest_length;
        let kinetic: f64 = (0..2)
            .map(|i| {
                let b = &self.bodies[i];
                0.5 * b.mass() * s.velocities[i].norm_squared()
                    + b.rigid().kinetic_energy(&s.omegas[i])
            })
            .sum();
        kinetic + 0.5 * self.stiffness * stretch * stretch
    }

    /// The total linear momentum `Σ m_i v_i`.
    pub fn momentum(&self, s: &SystemState) -> Vector3<f64> {
        (0..2)
            .map(|i| s.velocities[i] * self.bodies[i].mass())
            .sum()
    }

    /// The total angular momentum about the origin, `Σ m_i x_i × v_i + R(q_i) J_i ω_i`.
    pub fn angular_momentum(&self, s: &SystemState) -> Vector3<f64> {
        (0..2)
            .map(|i| {
                let b = &self.bodies[i];
                s.positions[i].cross(&(s.velocities[i] * b.mass()))
                    + rotate(&s.rotors[i], &b.rigid().body_momentum(&s.omegas[i]))
            })
            .sum()
    }

    /// The ambient vector of a state of two bodies.
    pub fn to_vector(s: &SystemState) -> PairVector {
        let mut y = PairVector::zeros();
        for i in 0..2 {
            let o = 13 * i;
            y.fixed_rows_mut::<3>(o).copy_from(&s.positions[i]);
            y.fixed_rows_mut::<3>(o + 3).copy_from(&s.velocities[i]);
            y.fixed_rows_mut::<4>(o + 6).copy_from(&s.rotors[i].coords);
            y.fixed_rows_mut::<3>(o + 10).copy_from(&s.omegas[i]);
        }
        y
    }

    /// The state of two bodies at `t` of an ambient vector.
    pub fn from_vector(t: f64, y: &PairVector) -> SystemState {
        let mut s = SystemState::at_rest(t, 2);
        for i in 0..2 {
            let o = 13 * i;
            s.positions[i] = y.fixed_rows::<3>(o).into_owned();
            s.velocities[i] = y.fixed_rows::<3>(o + 3).into_owned();
            s.rotors[i] = Quaternion::from(y.fixed_rows::<4>(o + 6).into_owned());
            s.omegas[i] = y.fixed_rows::<3>(o + 10).into_owned();
        }
        s
    }

    /// The ambient vector field: `ẋ = v`, `v̇ = F/m`, `q̇ = ½ q ⊗ (0, ω)`,
    /// `ω̇ = J⁻¹(R(q)ᵀτ − ω × Jω)`.
    pub fn ambient_rate(&self, t: f64, y: &PairVector) -> PairVector {
        let s = Self::from_vector(t, y);
        let x = [&s.positions[0], &s.positions[1]];
        let v = [&s.velocities[0], &s.velocities[1]];
        let q = [&s.rotors[0], &s.rotors[1]];
        let loads = self.pair_loads(t, x, v, q);
        let mut rate = PairVector::zeros();
        for i in 0..2 {
            let (o, b) = (13 * i, &self.bodies[i]);
            let (force, torque) = loads[i];
            rate.fixed_rows_mut::<3>(o).copy_from(v[i]);
            rate.fixed_rows_mut::<3>(o + 3)
                .copy_from(&(force * b.inverse_mass()));
            rate.fixed_rows_mut::<4>(o + 6)
                .copy_from(&(times_pure(q[i], &s.omegas[i]) * 0.5).coords);
            let tau = rotate_inverse(q[i], &torque);
            rate.fixed_rows_mut::<3>(o + 10)
                .copy_from(&b.rigid().angular_acceleration(&s.omegas[i], &tau));
        }
        rate
    }

    /// The state at `t_end` from `start` by DOP853 on the ambient ODE with `rtol = atol =
    /// tolerance` (the tests use 1e-13).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `start` unless it has two bodies; those of the
    /// integration.
    pub fn reference(
        &self,
        start: &SystemState,
        t_end: f64,
        tolerance: f64,
    ) -> Result<SystemState> {
        if start.len() != 2 {
            return Err(Error::InvalidParameter {
                name: "start",
                value: format!("{} bodies", start.len()),
                expected: "two bodies".into(),
            });
        }
        // Hairer's summation: the reference is the Fortran code's arithmetic, whatever the
        // library's default.
        let method = Dop853::new(
            Tolerances::scalar(tolerance, tolerance)?,
            ControllerParameters::dop853(),
        )?
        .with_summation(Summation::Hairer);
        let mut rate = |t: f64, y: &PairVector| self.ambient_rate(t, y);
        let solution = integrate(
            &mut VectorStepper::new(method),
            &mut rate,
            &Self::to_vector(start),
            &Span::new(start.t, t_end)?,
            Options::default(),
        )?;
        let (t, y) = solution.last().ok_or(Error::InvalidParameter {
            name: "t_end",
            value: format!("{t_end:e}"),
            expected: "a time after the start".into(),
        })?;
        Ok(Self::from_vector(t, y))
    }
}

impl SpringPair {
    /// The errors of `system` after `steps` equal steps from [`SpringPair::initial_state`] to
    /// `reference.t` against `reference` (from [`SpringPair::reference`]): the largest over the
    /// two bodies of `|x − x_ref|`, `|v − v_ref|`, `min(|q − q_ref|, |q + q_ref|)` (the rotor's
    /// sign is not physical) and `|ω − ω_ref|`, in this order.
    ///
    /// # Examples
    /// ```
    /// use lieode::problems::SpringPair;
    /// use lieode::rotation::Fincham;
    /// use lieode::system::CatalogueSystem;
    ///
    /// let pair = SpringPair::modulated()?;
    /// let reference = pair.reference(&pair.initial_state(), 1.0, 1e-13)?;
    /// let mut fincham = CatalogueSystem::new(pair.bodies.to_vec(), Fincham::new);
    /// let coarse = pair.errors_after(&mut fincham, &reference, 400)?;
    /// let fine = pair.errors_after(&mut fincham, &reference, 800)?;
    /// // Fincham is first order in every component.
    /// for k in 0..4 {
    ///     assert!((coarse[k] / fine[k] - 2.0).abs() < 0.3, "{coarse:?} {fine:?}");
    /// }
    /// # Ok::<(), lieode::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `reference` unless it has two bodies and a time after
    /// the start; those of the span and of the run.
    pub fn errors_after<S: Stepper<SpringPair, State = SystemState>>(
        &self,
        system: &mut S,
        reference: &SystemState,
        steps: usize,
    ) -> Result<[f64; 4]> {
        let start = self.initial_state();
        if reference.len() != 2 || reference.t.is_nan() || reference.t <= start.t {
            return Err(Error::InvalidParameter {
                name: "reference",
                value: format!("{} bodies at t = {:e}", reference.len(), reference.t),
                expected: "the pair's two bodies at a time after the start".into(),
            });
        }
        let span = Span::stride(start.t, (reference.t - start.t) / steps as f64, steps)?;
        let solution = integrate(
            system,
            &mut self.clone(),
            &start,
            &span,
            Options::record(Record::Ends),
        )?;
        let Some((_, end)) = solution.last() else {
            return Err(Error::InvalidParameter {
                name: "steps",
                value: steps.to_string(),
                expected: "at least one step".into(),
            });
        };
        let mut e = [0.0f64; 4];
        for i in 0..2 {
            let (q, r) = (end.rotors[i], reference.rotors[i]);
            e[0] = e[0].max((end.positions[i] - reference.positions[i]).norm());
            e[1] = e[1].max((end.velocities[i] - reference.velocities[i]).norm());
            e[2] = e[2].max((q - r).norm().min((q + r).norm()));
            e[3] = e[3].max((end.omegas[i] - reference.omegas[i]).norm());
        }
        Ok(e)
    }
}

impl SystemForces for SpringPair {
    fn torque_frame(&self) -> Frame {
        Frame::Lab
    }

    /// Two: the methods refuse a state of another size.
    fn body_count(&self) -> Option<usize> {
        Some(2)
    }

    /// The loads of the pair (the methods hand it two bodies, [`SystemForces::body_count`]).
    fn loads(&mut self, view: &SystemView<'_>, loads: &mut Loads) {
        if view.positions.len() < 2 {
            return;
        }
        let (x, v, q) = (view.positions, view.velocities, view.rotors);
        let pair = self.pair_loads(view.t, [&x[0], &x[1]], [&v[0], &v[1]], [&q[0], &q[1]]);
        for (i, (force, torque)) in pair.into_iter().enumerate() {
            loads.forces[i] = force;
            loads.torques[i] = torque;
        }
    }
}
