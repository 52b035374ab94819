//! One definition per rigid-body method: [`RigidBodyMethod`], the mathematics of a step given
//! the body, the torque, the carried state and the step size as values, with its information
//! row [`MethodInfo`]. The single-body stepper ([`super::SingleBody`]) and the many-body one
//! ([`crate::system::CatalogueSystem`]) are derived from it; neither the method nor its state
//! knows about torque fields, force models, spans, clocks or counters.

use core::fmt::Debug;

use nalgebra::{Quaternion, Vector3};

use super::stepper::Renormalisation;
use crate::body::RigidBody;
use crate::lie::Real;

/// The state a rigid-body method carries for one body between steps: the rotor `q_n` (body →
/// lab), the angular velocity the method carries (`ω_n`, or `ω_{n−½}` for the leapfrog methods
/// ([`MethodInfo::leapfrog`]), in the body frame the method documents) and whatever else it
/// needs, over the scalar `T` (`f64`; dual numbers for sensitivities, [`crate::sensitivity`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Carried<E, T: Real = f64> {
    /// The rotor `q_n`.
    pub q: Quaternion<T>,
    /// The angular velocity the method carries.
    pub omega: Vector3<T>,
    /// The method's further state ([`RigidBodyMethod::Extra`]).
    pub extra: E,
}

impl<E, T: Real> Carried<E, T> {
    /// The state `(q, ω, extra)`.
    #[inline(always)]
    pub fn new(q: Quaternion<T>, omega: Vector3<T>, extra: E) -> Self {
        Self { q, omega, extra }
    }

    /// The state to be updated in place.
    #[inline(always)]
    pub fn as_mut(&mut self) -> CarriedMut<'_, E, T> {
        CarriedMut {
            q: &mut self.q,
            omega: &mut self.omega,
            extra: &mut self.extra,
        }
    }
}

/// A [`Carried`] state updated in place by [`RigidBodyMethod::finish`]: its three parts where
/// they are stored (one value for one body, three arrays' entries for the many-body step). The
/// step writes through the references: gathering the parts into a value and scattering it back
/// kept the value in memory beside the arrays, and its loads straddled its stores (a
/// store-forwarding stall per body).
#[derive(Debug)]
pub struct CarriedMut<'a, E, T: Real = f64> {
    /// The rotor `q_n`.
    pub q: &'a mut Quaternion<T>,
    /// The angular velocity the method carries.
    pub omega: &'a mut Vector3<T>,
    /// The method's further state.
    pub extra: &'a mut E,
}

impl<E, T: Real> CarriedMut<'_, E, T> {
    /// Sets the whole state.
    #[inline(always)]
    pub fn set(&mut self, q: Quaternion<T>, omega: Vector3<T>, extra: E) {
        (*self.q, *self.omega, *self.extra) = (q, omega, extra);
    }
}

/// What a rigid-body method says about itself: one row of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MethodInfo {
    /// The name, as in the catalogue and the reproductions' CSV files.
    pub name: &'static str,
    /// Torque evaluations per step (after the start).
    pub evaluations: usize,
    /// Whether the carried angular velocity lives at half steps (`ω_{n−½}`).
    pub leapfrog: bool,
    /// Whether the end-of-step normalisation of the rotor is a policy the user may choose
    /// ([`super::SingleBody::with_renormalisation`]); `false` where normalisation is part of
    /// the method (MercuryDPM's Gram–Schmidt).
    pub renormalisable: bool,
    /// The policy the published benchmark uses (SPIRAL §4 and App. B).
    pub default_renormalisation: Renormalisation,
    /// The global orders in `q` and in `ω` measured under an attitude- and time-dependent
    /// torque (every row by `tests/catalogue_orders.rs`; `tests/rotation_spiral.rs` and
    /// `tests/rotation_classic.rs` per method; each method's documentation gives the slopes and
    /// the special cases, such as SPIRAL's third order in `ω` under a constant body torque).
    pub order: [u8; 2],
}

/// The point a torque is evaluated at: the rotor (body → lab, unit up to the method's
/// normalisation policy) and the body angular velocity (the method's estimate there, e.g.
/// `ω_{n−½}` for the leapfrog methods). The time is the step's start `t_n`, or its end
/// `t_{n+1}` for the methods that update the rotor first ([`RigidBodyMethod::TORQUE_AT_END`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TorquePoint<T: Real = f64> {
    /// The rotor.
    pub q: Quaternion<T>,
    /// The body angular velocity.
    pub omega: Vector3<T>,
}

/// A one-step method for the rotation of a rigid body, defined once: what the step does with a
/// body-frame torque given as a value, split at its one torque evaluation.
///
/// A step is [`RigidBodyMethod::prepare`] (the point where the torque is taken, and whatever the
/// rest of the step needs), one evaluation of the torque there, [`RigidBodyMethod::finish`].
/// The start is [`RigidBodyMethod::begin`] followed by [`RigidBodyMethod::START_EVALUATIONS`]
/// pairs of [`RigidBodyMethod::start_point`] and [`RigidBodyMethod::absorb_start`] (evaluation
/// `s` at `t_0 + s·dt`); the synchronised angular velocity at `t_n` is
/// [`RigidBodyMethod::sync`], with the torque at the point of `prepare` if
/// [`RigidBodyMethod::SYNC_EVALUATES`].
///
/// Everything the method carries for a body between steps is a [`Carried`] state: the rotor, an
/// angular velocity and the method's [`RigidBodyMethod::Extra`]. The many-body adapter keeps
/// the three in separate arrays, so that a force model reads the rotors and angular velocities
/// where they are stored. What
/// depends on the body and the step size only (inverse inertia, a precomputed ω map) is
/// [`RigidBodyMethod::Constants`], computed once per run and shared by equal bodies. The time,
/// the step count, the renormalisation count, the torque or force model and the counters belong
/// to the adapters: [`super::SingleBody`] for one body under a [`crate::body::Torque`],
/// [`crate::system::CatalogueSystem`] for N bodies under a
/// [`crate::system::SystemForces`] (the same arithmetic, so one body under a body-frame torque is
/// bit-identical in both).
pub trait RigidBodyMethod<T: Real = f64>: Clone + Debug + Send + Sync + 'static {
    /// What the method carries for one body beside its rotor and angular velocity
    /// ([`Carried::extra`]: Fincham's `L_{n−½}`, SPIRAL–Magnus's torque history, …; `()` for
    /// most).
    /// It packs into a fixed number of scalars ([`PackedState`]), so that a host code that
    /// migrates bodies between processes can keep it beside its own per-body arrays.
    type Extra: PackedState<T> + Copy + Debug + Send + Sync;
    /// What [`RigidBodyMethod::prepare`] hands to [`RigidBodyMethod::finish`] (e.g. Johnson's new
    /// rotor).
    type Pending: Copy + Debug + Send + Sync;
    /// What depends only on the body and the step size.
    type Constants: Clone + Debug + Send + Sync;

    /// Whether the torque is taken at the end of the step (`t_{n+1}`, after the rotor update:
    /// Velocity Verlet, Johnson) rather than at its start (`t_n`).
    const TORQUE_AT_END: bool;
    /// The torque evaluations of the start (0, 1 for the half step back of the leapfrog
    /// methods, 2 for SPIRAL–Magnus's predictor).
    const START_EVALUATIONS: usize;
    /// The torque evaluations of a step: 1 for the methods split at their one evaluation,
    /// more for the multi-stage ones (classical RK4), whose stage `s ≥ 1` point comes from
    /// [`RigidBodyMethod::stage`].
    const STAGES: usize = 1;
    /// Whether the synchronised state needs the torque (the leapfrog methods' `ω_n` from
    /// `ω_{n−½}`).
    const SYNC_EVALUATES: bool;

    /// The method's information row.
    fn info(&self) -> MethodInfo;

    /// The constants of `body` for the step `dt`.
    fn constants(&self, body: &RigidBody<T>, dt: T) -> Self::Constants;

    /// The carried state at the start from the rotor `q` and the body angular velocity `ω`,
    /// before any start evaluation (Fincham and MercuryDPM normalise the rotor here).
    fn begin(
        &self,
        k: &Self::Constants,
        q: &Quaternion<T>,
        omega: &Vector3<T>,
    ) -> Carried<Self::Extra, T>;

    /// The rotor of the first start evaluation, from the initial rotor `q` (Fincham and
    /// MercuryDPM normalise it). Start evaluation 0 is taken at `(t_0, start_rotor(q_0), ω_0)`;
    /// the many-body system evaluates its first loads there for every method, also those
    /// without start evaluations (the translation needs them).
    fn start_rotor(&self, q: &Quaternion<T>) -> Quaternion<T> {
        *q
    }

    /// The point of start evaluation `stage ≥ 1` (at time `t_0 + stage·dt`), from the carried
    /// state after the earlier ones (SPIRAL–Magnus's predictor). The default is the carried
    /// state.
    fn start_point(
        &self,
        k: &Self::Constants,
        carried: &Carried<Self::Extra, T>,
        stage: usize,
        dt: T,
    ) -> TorquePoint<T> {
        let _ = (k, stage, dt);
        TorquePoint::<T> {
            q: carried.q,
            omega: carried.omega,
        }
    }

    /// Takes the torque `tau` of start evaluation `stage` into the carried state; `false` if
    /// the result is not finite.
    fn absorb_start(
        &self,
        k: &Self::Constants,
        carried: &mut Carried<Self::Extra, T>,
        stage: usize,
        tau: &Vector3<T>,
        dt: T,
    ) -> bool {
        let _ = (k, carried, stage, tau, dt);
        true
    }

    /// The first part of a step of size `dt`: the torque point and what `finish` needs.
    /// `renormalise` says whether the policy normalises this step's new rotor (Velocity Verlet
    /// and Johnson update the rotor here).
    fn prepare(
        &self,
        k: &Self::Constants,
        carried: &Carried<Self::Extra, T>,
        renormalise: bool,
        dt: T,
    ) -> (Self::Pending, TorquePoint<T>);

    /// What [`RigidBodyMethod::prepare`] returned for `finish`, recovered from the torque point
    /// it returned, for the one-stage methods whose pending part is that point (Velocity Verlet:
    /// `(q_{n+1}, ω_{n+½})`; Johnson: `q_{n+1}`; Fincham: nothing): a caller that kept only
    /// the point between the two halves of a step (the C interface keeps it in the host's
    /// arrays) then finishes without computing the point again. `None` (the default) when the
    /// point does not determine it; the result must be bit for bit what `prepare` returned.
    #[inline(always)]
    fn pending_from_point(&self, point: &TorquePoint<T>) -> Option<Self::Pending> {
        let _ = point;
        None
    }

    /// The time of stage `stage` of a multi-stage method as the fraction `c_s` of the step (the
    /// torque is evaluated at `t_n + c_s·dt`). Unused for one stage, whose time is `t_n` or
    /// `t_{n+1}` ([`RigidBodyMethod::TORQUE_AT_END`]).
    fn stage_fraction(&self, stage: usize) -> f64 {
        let _ = stage;
        0.0
    }

    /// For a multi-stage method: takes the torque `tau` of stage `stage − 1` into `pending`
    /// and returns the point of stage `stage` (`1 ≤ stage < STAGES`). Unused for one stage.
    fn stage(
        &self,
        k: &Self::Constants,
        carried: &Carried<Self::Extra, T>,
        pending: &mut Self::Pending,
        stage: usize,
        tau: &Vector3<T>,
        dt: T,
    ) -> TorquePoint<T> {
        let _ = (k, pending, stage, tau, dt);
        TorquePoint::<T> {
            q: carried.q,
            omega: carried.omega,
        }
    }

    /// The rest of the step with the body-frame torque `tau` at the point of `prepare` (of
    /// the last stage for a multi-stage method);
    /// `false` if the new carried state is not finite (the adapters then keep the old one and
    /// report the error).
    fn finish(
        &self,
        k: &Self::Constants,
        carried: CarriedMut<'_, Self::Extra, T>,
        pending: Self::Pending,
        tau: &Vector3<T>,
        renormalise: bool,
        dt: T,
    ) -> bool;

    /// Whether the torque point is the carried rotor and angular velocity (`prepare` computes
    /// nothing for it): the adapters then hand the torque the body's own state instead of a
    /// fresh copy, which the torque's loads would read across the copy's stores (a
    /// store-forwarding stall per body), and the many-body step's force model reads the
    /// carried arrays in place.
    const POINT_IS_CARRIED: bool = false;

    /// The synchronised body angular velocity `ω_n`, with `tau` the torque at the point of
    /// `prepare` if [`RigidBodyMethod::SYNC_EVALUATES`] (zero otherwise, and unused). The
    /// default, for the methods that carry `ω_n`, is the carried angular velocity.
    fn sync(
        &self,
        k: &Self::Constants,
        carried: &Carried<Self::Extra, T>,
        tau: &Vector3<T>,
        dt: T,
    ) -> Vector3<T> {
        let _ = (k, tau, dt);
        carried.omega
    }
}

/// A method's further per-body state ([`RigidBodyMethod::Extra`]) as [`PackedState::LEN`]
/// scalars (doubles, or the dual numbers of a sensitivity run), for a host that keeps the state in its own arrays (the C interface,
/// `crates/lieode-capi`: a discrete-element code migrates each particle's doubles with it
/// between processes, and nothing of a particle stays inside the library between calls).
///
/// `unpack(pack(e))` is `e` bit for bit (every field is an `f64` or a small count stored
/// exactly as one).
///
/// # Examples
/// ```
/// use lieode::rotation::PackedState;
/// use nalgebra::Vector3;
///
/// let momentum = Vector3::new(0.1, -2.0, 3.5);
/// let mut doubles = [0.0; <Vector3<f64> as PackedState>::LEN];
/// momentum.pack(&mut doubles);
/// assert_eq!(Vector3::<f64>::unpack(&doubles), Some(momentum));
/// assert_eq!(<() as PackedState>::LEN, 0);
/// ```
pub trait PackedState<T = f64>: Sized {
    /// The number of scalars.
    const LEN: usize;

    /// Writes the state into the first [`PackedState::LEN`] entries of `out` (fewer if `out` is
    /// shorter).
    fn pack(&self, out: &mut [T]);

    /// The state from the first [`PackedState::LEN`] entries of `data`; `None` if `data` is
    /// shorter or a count is not one `pack` writes.
    fn unpack(data: &[T]) -> Option<Self>;
}

impl<T> PackedState<T> for () {
    const LEN: usize = 0;

    #[inline(always)]
    fn pack(&self, _: &mut [T]) {}

    #[inline(always)]
    fn unpack(_: &[T]) -> Option<Self> {
        Some(())
    }
}

impl<T: Real> PackedState<T> for Vector3<T> {
    const LEN: usize = 3;

    #[inline(always)]
    fn pack(&self, out: &mut [T]) {
        out.iter_mut().zip(self.iter()).for_each(|(o, x)| *o = *x);
    }

    #[inline(always)]
    fn unpack(data: &[T]) -> Option<Self> {
        match data {
            [x, y, z, ..] => Some(Vector3::new(*x, *y, *z)),
            _ => None,
        }
    }
}

/// Whether a rotor and an angular velocity are finite: `0·x` is ±0 for finite `x` and NaN
/// otherwise, summed as a tree (one branch for the state, and no chain of seven dependent
/// additions in the step). The rotor's entries are paired as its halves `(w, i)`, `(j, k)`:
/// a vectorised check then reads each half as it was stored (pairing `(i, j)` made the check
/// load across two stores, which stalled SPIRAL's many-body step on store forwarding).
#[inline(always)]
pub(crate) fn finite_rotation<T: Real>(q: &Quaternion<T>, omega: &Vector3<T>) -> bool {
    let zero = T::zero();
    let q0 = (q.w * zero + q.j * zero) + (q.i * zero + q.k * zero);
    let w0 = (omega.x * zero + omega.z * zero) + omega.y * zero;
    q0 + w0 == zero
}
