//! SPIRAL, leapfrog variant (del Valle et al. 2024, §2): the angular velocity at half steps by
//! SSPRK3 on Euler's equations with the torque frozen, the rotor by one quaternion exponential.
//!
//! The SSPRK3 map on Euler's equations that every SPIRAL variant of the catalogue shares,
//! [`EulerSsprk3`](super::EulerSsprk3), lives with the other ω integrators (see [`OmegaIntegrator`](super::OmegaIntegrator)).

use nalgebra::{Quaternion, Vector3};

use super::method::{
    Carried, CarriedMut, MethodInfo, RigidBodyMethod, TorquePoint, finite_rotation,
};
use super::omega_integrator::{FixedStepOmega, OmegaIntegrated, OmegaIntegrator};
use super::single_body::SingleBody;
use super::stepper::{ROTOR_NORM_SQUARED_MIN, Renormalisation, RotationalMethod, check_step_size};
use crate::body::RigidBody;
use crate::body::quaternion::{exp_pure, normalize, rotate, rotate_inverse};
use crate::error::{Error, Result};
use crate::lie::{Real, real};

/// SPIRAL, leapfrog variant (del Valle, Angelidakis, Roy, Muñoz, Pöschel 2024, §2, Eqs. 7–10).
///
/// The angular velocity lives at half steps. With the torque evaluated **once** per step, at
/// `τ_n = τ(t_n, q_n, ω_{n−½})`, and frozen during the step:
///
/// ```text
/// K1 = dt ω̇(ω_{n−½}, τ_n)
/// K2 = dt ω̇(ω_{n−½} + K1, τ_n)
/// K3 = dt ω̇(ω_{n−½} + (K1 + K2)/4, τ_n)
/// ω_{n+½} = ω_{n−½} + (K1 + K2 + 4 K3)/6                (Eqs. 9–10: SSPRK3, see EulerSsprk3)
/// q_{n+1} = q_n ⊗ exp((dt/2) ω_{n+½})                     (Eq. 7)
/// ```
///
/// with `exp(v) = (cos|v|, sin|v| v/|v|)` ([`exp_pure`], exact at `v = 0`).
///
/// **Start** ([`Stepper::start`](crate::stepper::Stepper::start)): the half step back is the same map with the step
/// `−dt/2` from `ω_0` and the torque `τ(t_0, q_0, ω_0)` (the paper's remark after Eq. 10), one
/// torque evaluation.
///
/// **Properties.** One torque evaluation per step; leapfrog
/// ([`RotationalMethod::angular_velocity`] returns `(t_n − dt/2, ω_{n−½})`); by default the
/// rotor is **never** renormalised ([`Renormalisation::Never`]; see **Renormalisation**): the
/// exponential update keeps `|q| = 1` up to round-off. [`Stepper::state`](crate::stepper::Stepper::state) synchronises as the trait prescribes, by half
/// an explicit step `ω_n ≈ ω_{n−½} + (dt/2) ω̇(ω_{n−½}, τ(t_n, q_n, ω_{n−½}))` (one more torque
/// evaluation, second order).
///
/// **Measured orders** (`tests/rotation_spiral.rs`, dt = 2e-3 … 2.5e-4, t = 1, ω compared at
/// its half-step time): for a torque constant in the body frame **ω is third order, q second
/// order** (slopes 3.00 and 2.03 on the paper's cylinder; 3.02 and 2.00 on an asymmetric body).
/// The paper's "third order" is the local (per-step) order. The rotor update Eq. (7) drops the
/// `O(dt³)` terms of the Magnus expansion, so q is globally second order whatever ω's accuracy.
/// For a torque that varies in time or with the attitude, the torque frozen at the midpoint
/// `t_n` of `[t_{n−½}, t_{n+½}]` limits ω to second order as well (slopes 2.00 and 2.00 in q and
/// ω on an asymmetric body under a lab-frame gravity-like torque). These orders are for torques
/// independent of ω: the torque is evaluated with `ω_{n−½}`, half a step old.
///
/// **Renormalisation.** Default [`Renormalisation::Never`], as in the paper and its benchmark
/// (SPIRAL needs no normalisation; the paper's Fig. 4 compares the cost of the methods with and
/// without it). [`SingleBody::with_renormalisation`] adds a normalisation of `q_{n+1}` at
/// the end of the step: YADE, whose default integrator this is, normalises every 5000 steps
/// (`Every(5000)`); `EveryStep` pins `|q|` to 1 within one ulp. The step has no other
/// normalisation. Without it `|q| − 1` drifts by round-off, without bound: measured up to 1e-14
/// after 10⁴ steps and 1e-12 after 10⁵ steps (SPIRAL cylinder, dt = 1e-4 and 1e-5), and
/// −6.0e-12 after 10⁷ steps of a tumbling asymmetric body (6e-19 per step on average; a fuzz
/// of random bodies and torques saw 1.6e-10 after 10⁷ steps, 1.6e-17 per step)
/// (`crates/lieode/tests/rotation_renormalisation.rs`). "No normalisation needed" therefore
/// holds for runs of up to about 10⁸ steps at a 1e-9 budget on `|q|`; longer runs renormalise.
///
/// # Examples
/// ```
/// use lieode::stepper::{Span, Stepper, StepperInfo};
/// use lieode::rotation::{
///     ConstantBodyTorque, RigidBody, RotationalMethod, RotationalState, SpiralLeapfrog,
/// };
/// use nalgebra::{Quaternion, Vector3};
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let mut torque = ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0));
/// let mut spiral = SpiralLeapfrog::new(body);
/// let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
/// spiral.start(&mut torque, &Span::open(start.t, 1e-3).unwrap(), &start)?;
/// for _ in 0..1000 {
///     spiral.step(&mut torque)?;
/// }
/// let (t_half, _omega_half) = spiral.angular_velocity();
/// assert!((t_half - (spiral.time() - 0.5e-3)).abs() < 1e-15);
/// assert!((spiral.orientation().norm() - 1.0).abs() < 1e-14);
/// # Ok::<(), lieode::Error>(())
/// ```
pub type SpiralLeapfrog = SingleBody<SpiralLeapfrogMethod>;

/// The definition of [`SpiralLeapfrog`]: its angular-velocity update.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SpiralLeapfrogMethod {
    /// The angular-velocity update (SSPRK3 unless chosen otherwise).
    pub integrator: OmegaIntegrator,
}

impl OmegaIntegrated for SpiralLeapfrogMethod {
    fn from_integrator(integrator: OmegaIntegrator) -> Self {
        Self { integrator }
    }

    fn integrator(&self) -> &OmegaIntegrator {
        &self.integrator
    }
}

impl SingleBody<SpiralLeapfrogMethod> {
    /// One leapfrog step with the angular velocity and the torque **in the lab frame**, as
    /// the sample step of the Wikipedia draft *SPIRAL algorithm* writes it: both are turned
    /// into the body frame with the current rotor, ω is advanced by the stepper's
    /// [`OmegaIntegrator`] (SSPRK3 by default) with the torque frozen, the rotor by Eq. (7),
    /// and ω is turned back into the lab frame with the **new** rotor:
    ///
    /// ```text
    /// ω_b = q̄_n ω_lab q_n,   τ_b = q̄_n τ_lab q_n                 (q̄ v q / |q|²)
    /// ω_b⁺ = Φ_dt(ω_b; τ_b)                                       (Eqs. 9–10)
    /// q_{n+1} = q_n ⊗ exp((dt/2) ω_b⁺)                            (Eq. 7)
    /// ω_lab⁺ = q_{n+1} ω_b⁺ q̄_{n+1}
    /// ```
    ///
    /// `omega_lab` is `ω_{n−½}` and the result's `ω_{n+½}` (leapfrog; the half step back at
    /// the start is the caller's, as in the draft). A sequence of these steps equals the
    /// stepper's own steps on a lab-frame torque to round-off: the body-frame ω is recovered
    /// from the lab-frame one by the rotor that made it (tested). The body and the ω
    /// integrator come from `self`; its state, step size and renormalisation are neither used
    /// nor changed. The rotor is not normalised (the update multiplies unit exponentials; a
    /// non-unit `q` keeps its norm and is read as the rotation `q/|q|`).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `dt` unless it is finite and positive;
    /// [`Error::NonFinite`] naming `q`, `omega_lab` or `torque_lab` for a non-finite entry;
    /// [`Error::InvalidParameter`] naming `q` for `|q|²` below [`ROTOR_NORM_SQUARED_MIN`] or
    /// overflowing; [`Error::NonFiniteState`] (`what = "lab-frame step"`, `t` = `dt`: the step
    /// knows no absolute time) when the result overflows.
    ///
    /// # Examples
    /// ```
    /// use lieode::rotation::{RigidBody, SpiralLeapfrog};
    /// use nalgebra::{Quaternion, Vector3};
    ///
    /// let spiral = SpiralLeapfrog::new(RigidBody::new([1.0, 2.0, 2.5])?);
    /// let q = Quaternion::new(0.9, 0.1, -0.3, 0.2).normalize();
    /// let (omega, torque) = (Vector3::new(0.7, -0.9, 1.1), Vector3::new(0.0, 0.0, -1.5));
    /// let (q1, omega1) = spiral.lab_frame_step(&q, &omega, &torque, 1e-3)?;
    /// assert!((q1.norm() - 1.0).abs() < 1e-15);
    /// assert!((omega1 - omega).norm() < 1e-2);
    /// # Ok::<(), lieode::Error>(())
    /// ```
    pub fn lab_frame_step(
        &self,
        q: &Quaternion<f64>,
        omega_lab: &Vector3<f64>,
        torque_lab: &Vector3<f64>,
        dt: f64,
    ) -> Result<(Quaternion<f64>, Vector3<f64>)> {
        check_step_size(dt)?;
        let finite = |v: &[f64]| v.iter().all(|x| x.is_finite());
        for (name, values) in [
            ("q", q.coords.as_slice()),
            ("omega_lab", omega_lab.as_slice()),
            ("torque_lab", torque_lab.as_slice()),
        ] {
            if !finite(values) {
                return Err(Error::NonFinite { name });
            }
        }
        let norm_squared = q.norm_squared();
        if !(norm_squared.is_finite() && norm_squared >= ROTOR_NORM_SQUARED_MIN) {
            return Err(Error::InvalidParameter {
                name: "q",
                value: format!("{q:?} (|q|² = {norm_squared:e})"),
                expected: format!("a rotor with finite |q|² ≥ {ROTOR_NORM_SQUARED_MIN:e}"),
            });
        }
        let omega_body = rotate_inverse(q, omega_lab);
        let torque_body = rotate_inverse(q, torque_lab);
        let omega_next = self.omega_integrator().advance(
            RotationalMethod::body(self),
            &omega_body,
            &torque_body,
            dt,
        );
        let q_next = q * exp_pure(&(omega_next * (0.5 * dt)));
        let omega_next_lab = rotate(&q_next, &omega_next);
        if finite(q_next.coords.as_slice()) && finite(omega_next_lab.as_slice()) {
            Ok((q_next, omega_next_lab))
        } else {
            Err(Error::NonFiniteState {
                what: "lab-frame step",
                t: dt,
            })
        }
    }
}

impl<T: Real> RigidBodyMethod<T> for SpiralLeapfrogMethod {
    /// `(q_n, ω_{n−½})`.
    type Extra = ();
    type Pending = ();
    /// The body and the ω map for its step.
    type Constants = (RigidBody<T>, FixedStepOmega<T>);
    const TORQUE_AT_END: bool = false;
    const START_EVALUATIONS: usize = 1;
    const POINT_IS_CARRIED: bool = true;
    const SYNC_EVALUATES: bool = true;

    fn info(&self) -> MethodInfo {
        MethodInfo {
            name: "spiral_leapfrog",
            evaluations: 1,
            leapfrog: true,
            renormalisable: true,
            default_renormalisation: Renormalisation::Never,
            order: [2, 2],
        }
    }

    fn constants(&self, body: &RigidBody<T>, dt: T) -> Self::Constants {
        (*body, self.integrator.with_step(body, dt))
    }

    fn begin(
        &self,
        _: &Self::Constants,
        q: &Quaternion<T>,
        w: &Vector3<T>,
    ) -> Carried<Self::Extra, T> {
        Carried::new(*q, *w, ())
    }

    /// The half step back: `ω_{−½}` by the ω map of step `−dt/2` with `τ(t_0, q_0, ω_0)`.
    fn absorb_start(
        &self,
        k: &Self::Constants,
        c: &mut Carried<Self::Extra, T>,
        _: usize,
        tau: &Vector3<T>,
        dt: T,
    ) -> bool {
        c.omega = self
            .integrator
            .advance(&k.0, &c.omega, tau, real::<T>(-0.5) * dt);
        finite_rotation(&c.q, &c.omega)
    }

    /// The torque at `(t_n, q_n, ω_{n−½})`.
    #[inline(always)]
    fn prepare(
        &self,
        _: &Self::Constants,
        c: &Carried<Self::Extra, T>,
        _: bool,
        _: T,
    ) -> ((), TorquePoint<T>) {
        (
            (),
            TorquePoint {
                q: c.q,
                omega: c.omega,
            },
        )
    }

    #[inline(always)]
    fn finish(
        &self,
        k: &Self::Constants,
        c: CarriedMut<'_, Self::Extra, T>,
        _: (),
        tau: &Vector3<T>,
        renormalise: bool,
        dt: T,
    ) -> bool {
        match &k.1 {
            FixedStepOmega::Three(map) => {
                leapfrog_update(c, renormalise, dt, |w| map.advance(w, tau))
            }
            other => leapfrog_update_out_of_line(c, renormalise, dt, other, *tau),
        }
    }

    /// `ω_n ≈ ω_{n−½} + (dt/2) ω̇(ω_{n−½}, τ(t_n, q_n, ω_{n−½}))`.
    fn sync(
        &self,
        k: &Self::Constants,
        c: &Carried<Self::Extra, T>,
        tau: &Vector3<T>,
        dt: T,
    ) -> Vector3<T> {
        half_kick(&k.0, &c.omega, tau, dt)
    }
}

/// The synchronised angular velocity of a half-step method:
/// `ω_n ≈ ω_{n−½} + (dt/2) ω̇(ω_{n−½}, τ_n)`.
#[inline]
pub(crate) fn half_kick<T: Real>(
    body: &RigidBody<T>,
    omega_half: &Vector3<T>,
    tau: &Vector3<T>,
    dt: T,
) -> Vector3<T> {
    omega_half + body.angular_acceleration(omega_half, tau) * (real::<T>(0.5) * dt)
}

/// Eqs. 9–10 by `advance`, then Eq. 7: `ω_{n+½} = advance(ω_{n−½})`,
/// `q_{n+1} = q_n ⊗ exp((dt/2) ω_{n+½})` (renormalised as the policy says).
#[inline(always)]
fn leapfrog_update<T: Real>(
    c: CarriedMut<'_, (), T>,
    renormalise: bool,
    dt: T,
    advance: impl Fn(&Vector3<T>) -> Vector3<T>,
) -> bool {
    let CarriedMut { q, omega, .. } = c;
    *omega = advance(omega);
    let q_next = *q * exp_pure(&(*omega * (real::<T>(0.5) * dt)));
    *q = if renormalise {
        normalize(&q_next)
    } else {
        q_next
    };
    finite_rotation(q, omega)
}

/// [`leapfrog_update`] with an ω map of other than three stages, as a call (the torque by
/// value: a reference would make the hot path keep the torque in memory, and the ω update's
/// loads of it then straddled its stores — store-forwarding stalls that doubled SPIRAL's
/// many-body step). The step takes ω
/// straight into the rotor update, so the three-stage path (SSPRK3, the default) is dispatched
/// to before both: with the dispatch inside the ω update, ω went through memory on its way to
/// the exponential and the SPIRAL leapfrog step took 8–12 % longer than the SSPRK3-only
/// stepper it replaced (paired criterion runs).
#[cold]
#[inline(never)]
fn leapfrog_update_out_of_line<T: Real>(
    c: CarriedMut<'_, (), T>,
    renormalise: bool,
    dt: T,
    map: &FixedStepOmega<T>,
    torque: Vector3<T>,
) -> bool {
    leapfrog_update(c, renormalise, dt, |w| map.advance(w, &torque))
}
