//! Omelyan's advanced leapfrog (Omelyan 1998; SPIRAL App. B.5), its fixed-point iteration for
//! the half-step angular velocity, and the definition [`OmelyanMethod`] that it shares with
//! [`SpiralOmelyan`](super::SpiralOmelyan): the two methods differ only in the start and the rotor update
//! ([`OmelyanVariant`]).

use core::marker::PhantomData;

use nalgebra::{Quaternion, Vector3};

use super::method::{
    Carried, CarriedMut, MethodInfo, RigidBodyMethod, TorquePoint, finite_rotation,
};
use super::single_body::SingleBody;
use super::spiral_leapfrog::half_kick;
use super::stepper::Renormalisation;
#[cfg(doc)]
use super::stepper::RotationalMethod;
use crate::body::RigidBody;
use crate::body::quaternion::{normalize, times_pure};
use crate::error::{Error, Result};
use crate::lie::{Real, real};
#[cfg(doc)]
use crate::stepper::Stepper;

/// The number of fixed-point iterations the SPIRAL benchmark uses (App. B.5: "we always used
/// three iterations").
pub const DEFAULT_ITERATIONS: usize = 3;

/// Checks an iteration count.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `iterations` unless it is at least 1.
pub(crate) fn check_iterations(iterations: usize) -> Result<()> {
    if iterations >= 1 {
        Ok(())
    } else {
        Err(Error::InvalidParameter {
            name: "iterations",
            value: iterations.to_string(),
            expected: "at least one fixed-point iteration".into(),
        })
    }
}

/// Omelyan's half-step angular velocity (Omelyan 1998; SPIRAL Eqs. B.10–B.12): `ω_{n+½}` from
/// `ω_{n−½}` and the torque `τ` at `t_n`, by `iterations` fixed-point (Jacobi) sweeps from
/// `w = ω_{n−½}` of
///
/// ```text
/// w_α ← ω_{n−½,α} + dt (τ_α + ½ (ω_{n−½,β} ω_{n−½,γ} + w_β w_γ)(I_β − I_γ)) / I_α
/// ```
///
/// for the cyclic permutations `(α, β, γ)` of `(x, y, z)`: the leapfrog
/// `ω_{n+½} = ω_{n−½} + dt ω̇(ω_n, τ)` (Eq. B.10) with the products of the unknown `ω_n`
/// replaced by the mean of those at the half steps (Eq. B.11). With `iterations = 0` it would
/// return `ω_{n−½}`; the steppers require at least one.
///
/// # Examples
/// ```
/// use lieode::rotation::{RigidBody, omelyan_half_step};
/// use nalgebra::Vector3;
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let (w, tau, dt) = (Vector3::new(0.3, -0.9, 0.6), Vector3::new(0.5, 0.0, 0.0), 1e-3);
/// // Enough iterations reach the fixed point (a contraction for small dt).
/// let w1 = omelyan_half_step(&body, &w, &tau, dt, 30);
/// let i = body.inertia();
/// let mean_x = 0.5 * (w.y * w.z + w1.y * w1.z);
/// assert!((w1.x - (w.x + dt * (tau.x + mean_x * (i.y - i.z)) / i.x)).abs() < 1e-15);
/// # Ok::<(), lieode::Error>(())
/// ```
#[inline]
pub fn omelyan_half_step<T: Real>(
    body: &RigidBody<T>,
    omega_half: &Vector3<T>,
    torque: &Vector3<T>,
    dt: T,
    iterations: usize,
) -> Vector3<T> {
    let i = body.inertia();
    let inv = body.inverse_inertia();
    let p = omega_half;
    // The products at the old half step do not change during the iteration.
    let (pyz, pzx, pxy) = (p.y * p.z, p.z * p.x, p.x * p.y);
    let mut w = *p;
    for _ in 0..iterations {
        w = Vector3::new(
            p.x + dt * (torque.x + real::<T>(0.5) * (pyz + w.y * w.z) * (i.y - i.z)) * inv.x,
            p.y + dt * (torque.y + real::<T>(0.5) * (pzx + w.z * w.x) * (i.z - i.x)) * inv.y,
            p.z + dt * (torque.z + real::<T>(0.5) * (pxy + w.x * w.y) * (i.x - i.y)) * inv.z,
        );
    }
    w
}

/// Omelyan's Cayley-type rotor update (SPIRAL Eq. B.10): with `a = dt² |ω|² / 16`,
/// `q_{n+1} = ((1 − a) q_n + dt · ½ q_n ⊗ ω) / (1 + a)`, i.e. `q_n ⊗ cay(dt ω / 4)` for the
/// Cayley map `cay(v) = (1 + v)/(1 − v)` of the pure quaternion `v`; it preserves `|q|` exactly
/// in exact arithmetic (`|(1 − a, dt ω/2)|² = (1 + a)²`).
#[inline]
pub(crate) fn cayley_update<T: Real>(
    q: &Quaternion<T>,
    omega: &Vector3<T>,
    dt: T,
) -> Quaternion<T> {
    let a = dt * dt * omega.norm_squared() / real::<T>(16.0);
    (q * (T::one() - a) + times_pure(q, omega) * (real::<T>(0.5) * dt)) / (T::one() + a)
}

/// Omelyan's half-step start: `ω_{−½} = ω_0 − (dt/2) ω̇(ω_0, τ_0)`.
#[inline]
pub(crate) fn omelyan_half_step_back<T: Real>(
    body: &RigidBody<T>,
    omega: &Vector3<T>,
    tau: &Vector3<T>,
    dt: T,
) -> Vector3<T> {
    omega - body.angular_acceleration(omega, tau) * (real::<T>(0.5) * dt)
}

/// What sets the two methods of [`OmelyanMethod`] apart: the name, the start (`ω_{−½}` from
/// the initial state) and the rotor update (`q_{n+1}` from `q_n` and `ω_{n+½}`).
///
/// Sealed: implemented by [`OmelyanCayley`] ([`Omelyan`]) and
/// [`SpiralExponential`](super::SpiralExponential)
/// ([`SpiralOmelyan`](super::SpiralOmelyan)) only.
pub trait OmelyanVariant: sealed::Variant {}

pub(crate) mod sealed {
    //! The sealed part of [`super::OmelyanVariant`].

    use nalgebra::{Quaternion, Vector3};

    use crate::body::RigidBody;
    use crate::lie::Real;

    /// The variant's name, start and rotor update.
    pub trait Variant: Copy + Default + core::fmt::Debug + Send + Sync + 'static {
        /// The method's name ([`crate::stepper::StepperInfo::name`]).
        const NAME: &'static str;

        /// `ω_{−½}` from `ω_0` and the torque `τ_0 = τ(t_0, q_0, ω_0)` for the step `dt`.
        fn half_step_back<T: Real>(
            body: &RigidBody<T>,
            omega: &Vector3<T>,
            tau: &Vector3<T>,
            dt: T,
        ) -> Vector3<T>;

        /// `q_{n+1}` from `q_n` and `ω_{n+½}` (before any renormalisation).
        fn rotor_update<T: Real>(
            q: &Quaternion<T>,
            omega_half: &Vector3<T>,
            dt: T,
        ) -> Quaternion<T>;
    }
}

/// Omelyan's own variant of [`OmelyanMethod`], the method [`Omelyan`]: Omelyan's start
/// `ω_{−½} = ω_0 − (dt/2) ω̇(ω_0, τ_0)` and the Cayley-type rotor update (SPIRAL
/// Eq. B.10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OmelyanCayley;

impl sealed::Variant for OmelyanCayley {
    const NAME: &'static str = "omelyan";

    #[inline]
    fn half_step_back<T: Real>(
        body: &RigidBody<T>,
        omega: &Vector3<T>,
        tau: &Vector3<T>,
        dt: T,
    ) -> Vector3<T> {
        omelyan_half_step_back(body, omega, tau, dt)
    }

    #[inline]
    fn rotor_update<T: Real>(q: &Quaternion<T>, omega_half: &Vector3<T>, dt: T) -> Quaternion<T> {
        cayley_update(q, omega_half, dt)
    }
}

impl OmelyanVariant for OmelyanCayley {}

/// The definition behind [`Omelyan`] and [`SpiralOmelyan`](super::SpiralOmelyan):
/// the angular velocity at half steps by Omelyan's fixed point ([`omelyan_half_step`], one
/// torque evaluation per step, `iterations` sweeps), the start and the rotor update by the
/// variant `V` ([`OmelyanVariant`]). Use it through the two aliases, whose documentation gives
/// the equations, the measured orders and the renormalisation notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OmelyanMethod<V> {
    iterations: usize,
    variant: PhantomData<V>,
}

impl<V> Default for OmelyanMethod<V> {
    /// [`DEFAULT_ITERATIONS`] fixed-point iterations.
    fn default() -> Self {
        Self {
            iterations: DEFAULT_ITERATIONS,
            variant: PhantomData,
        }
    }
}

impl<V: OmelyanVariant> OmelyanMethod<V> {
    /// The method with `iterations` fixed-point iterations per step.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `iterations` if it is 0.
    pub fn with_iterations(iterations: usize) -> Result<Self> {
        check_iterations(iterations)?;
        Ok(Self {
            iterations,
            variant: PhantomData,
        })
    }

    /// The number of fixed-point iterations per step.
    pub fn iterations(&self) -> usize {
        self.iterations
    }
}

impl<V: OmelyanVariant> SingleBody<OmelyanMethod<V>> {
    /// The method for `body` with `iterations` fixed-point iterations per step.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `iterations` if it is 0.
    pub fn with_iterations(body: RigidBody, iterations: usize) -> Result<Self> {
        Ok(Self::with_method(
            OmelyanMethod::with_iterations(iterations)?,
            body,
        ))
    }

    /// The number of fixed-point iterations per step.
    pub fn iterations(&self) -> usize {
        self.method().iterations
    }
}

impl<T: Real, V: OmelyanVariant> RigidBodyMethod<T> for OmelyanMethod<V> {
    /// `(q_n, ω_{n−½})`.
    type Extra = ();
    type Pending = ();
    type Constants = RigidBody<T>;
    const TORQUE_AT_END: bool = false;
    const START_EVALUATIONS: usize = 1;
    const POINT_IS_CARRIED: bool = true;
    const SYNC_EVALUATES: bool = true;

    fn info(&self) -> MethodInfo {
        MethodInfo {
            name: V::NAME,
            evaluations: 1,
            leapfrog: true,
            renormalisable: true,
            default_renormalisation: Renormalisation::Never,
            order: [2, 2],
        }
    }

    fn constants(&self, body: &RigidBody<T>, _: T) -> RigidBody<T> {
        *body
    }

    fn begin(
        &self,
        _: &RigidBody<T>,
        q: &Quaternion<T>,
        omega: &Vector3<T>,
    ) -> Carried<Self::Extra, T> {
        Carried::new(*q, *omega, ())
    }

    /// `ω_{−½}` by the variant's start.
    fn absorb_start(
        &self,
        body: &RigidBody<T>,
        c: &mut Carried<Self::Extra, T>,
        _: usize,
        tau: &Vector3<T>,
        dt: T,
    ) -> bool {
        c.omega = V::half_step_back(body, &c.omega, tau, dt);
        finite_rotation(&c.q, &c.omega)
    }

    /// The torque at `(t_n, q_n, ω_{n−½})`.
    #[inline(always)]
    fn prepare(
        &self,
        _: &RigidBody<T>,
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
        body: &RigidBody<T>,
        c: CarriedMut<'_, Self::Extra, T>,
        _: (),
        tau: &Vector3<T>,
        renormalise: bool,
        dt: T,
    ) -> bool {
        let CarriedMut {
            q,
            omega: omega_half,
            ..
        } = c;
        *omega_half = omelyan_half_step(body, omega_half, tau, dt, self.iterations);
        let q_next = V::rotor_update(q, omega_half, dt);
        *q = if renormalise {
            normalize(&q_next)
        } else {
            q_next
        };
        finite_rotation(q, omega_half)
    }

    /// `ω_n ≈ ω_{n−½} + (dt/2) ω̇(ω_{n−½}, τ(t_n, q_n, ω_{n−½}))`.
    fn sync(
        &self,
        body: &RigidBody<T>,
        c: &Carried<Self::Extra, T>,
        tau: &Vector3<T>,
        dt: T,
    ) -> Vector3<T> {
        half_kick(body, &c.omega, tau, dt)
    }
}

/// Omelyan's advanced leapfrog (I. P. Omelyan, *Phys. Rev. E* 58 (1998) 1169; SPIRAL App. B.5,
/// Eqs. B.10–B.12), as the SPIRAL benchmark codes it.
///
/// The angular velocity lives at half steps. With the torque evaluated once per step,
/// `τ_n = τ(t_n, q_n, ω_{n−½})`:
///
/// ```text
/// ω_{n+½}: `iterations` sweeps of w_α ← ω_{n−½,α} + dt (τ_α + ½ (ω_{n−½,β} ω_{n−½,γ} + w_β w_γ)(I_β − I_γ)) / I_α
///          from w = ω_{n−½}                                     (Eqs. B.10–B.12; omelyan_half_step)
/// a = dt² |ω_{n+½}|² / 16
/// q_{n+1} = ((1 − a) q_n + dt · ½ q_n ⊗ ω_{n+½}) / (1 + a)       (Eq. B.10, a Cayley-type update)
/// ```
///
/// **Start:** `ω_{−½} = ω_0 − (dt/2) ω̇(ω_0, τ(t_0, q_0, ω_0))`, one torque evaluation.
///
/// **Properties.** One torque evaluation per step; leapfrog
/// ([`RotationalMethod::angular_velocity`] returns `(t_n − dt/2, ω_{n−½})`;
/// [`Stepper::state`] synchronises by half an explicit step as the trait prescribes,
/// one more torque evaluation); by default the rotor is **never** renormalised
/// ([`Renormalisation::Never`], as in the benchmark; see **Renormalisation**): the update
/// preserves `|q|` in exact arithmetic, so `|q|` only drifts by round-off. The number of
/// fixed-point iterations is an
/// option ([`Omelyan::with_iterations`], default [`DEFAULT_ITERATIONS`] = 3).
///
/// The method is [`OmelyanMethod`] with the variant [`OmelyanCayley`]; it shares all but the
/// start and the rotor update with [`SpiralOmelyan`](super::SpiralOmelyan).
///
/// **Measured orders** (`tests/rotation_spiral.rs`, dt = 2e-3 … 2.5e-4, t = 1): second order
/// in q and ω (ω at the half steps) — slopes 2.00 and 2.00 on the paper's cylinder and on an
/// asymmetric body under an attitude- and time-dependent torque. (Omelyan and the SPIRAL paper call the scheme third order: that is
/// the local order.)
///
/// **Renormalisation.** Default [`Renormalisation::Never`], as in the benchmark.
/// [`SingleBody::with_renormalisation`] adds a normalisation of `q_{n+1}` at the end of the step:
/// the SPIRAL paper (§3 and App. B.5) found that the method accumulates errors over long runs
/// although it preserves the norm by construction, and suggests normalising the quaternion
/// sporadically (`Every(n)`) or every step (`EveryStep`). The step has no other normalisation.
/// Measured round-off drift without it: `|q| − 1` up to 5e-14 after 10⁵ steps and 8e-13 after
/// 10⁶ steps (SPIRAL cylinder, dt = 1e-5 and 1e-6).
///
/// # Examples
/// ```
/// use lieode::stepper::{Span, Stepper, StepperInfo};
/// use lieode::rotation::{
///     ConstantBodyTorque, Omelyan, RigidBody, RotationalMethod, RotationalState,
/// };
/// use nalgebra::{Quaternion, Vector3};
///
/// let body = RigidBody::new([1.0, 2.0, 2.5])?;
/// let mut torque = ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0));
/// let mut omelyan = Omelyan::new(body);
/// let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
/// omelyan.start(&mut torque, &Span::open(start.t, 1e-3).unwrap(), &start)?;
/// for _ in 0..1000 {
///     omelyan.step(&mut torque)?;
/// }
/// assert!((omelyan.orientation().norm() - 1.0).abs() < 1e-14);
/// assert!(Omelyan::with_iterations(body, 0).is_err());
/// # Ok::<(), lieode::Error>(())
/// ```
pub type Omelyan = SingleBody<OmelyanMethod<OmelyanCayley>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cayley_update_is_the_cayley_map_of_a_quarter_step() {
        // (1 + v)(1 − v)⁻¹ with v = dt ω/4 (pure): (1 + v)(1 + v)/(1 + |v|²).
        let q = Quaternion::new(0.5, -0.5, 0.5, 0.5);
        let (w, dt) = (Vector3::new(0.3, -0.9, 0.6), 0.7f64);
        let v = Quaternion::new(0.0, w.x, w.y, w.z) * (dt / 4.0);
        let one = Quaternion::identity();
        let cay = (one + v) * (one + v) / (1.0 + v.norm_squared());
        assert!((cayley_update(&q, &w, dt) - q * cay).norm() < 1e-15);
        assert!((cayley_update(&q, &w, dt).norm() - 1.0).abs() < 1e-15);
    }
}
