//! A one-evaluation step split at its torque evaluation: what lets a catalogue method advance
//! one body ([`crate::stepper::Stepper`] on a [`TorqueField`]) and N bodies whose loads come
//! from one evaluation of a system force model ([`crate::system::CatalogueSystem`]) with the
//! same arithmetic.

use nalgebra::{Quaternion, Vector3};

use super::stepper::{RotationalMethod, checked_torque};
use super::torque::TorqueField;
use crate::error::Result;

pub use super::stepper::TorquePoint;

/// A catalogue method whose step evaluates the torque exactly once, split at that evaluation:
/// [`SplitStep::prepare`] computes the point the torque is taken at (and whatever the rest of
/// the step needs), [`SplitStep::finish`] completes the step with the body-frame torque there.
///
/// The single-body step is `prepare`, one evaluation of the torque field, `finish`; the
/// many-body [`crate::system::CatalogueSystem`] prepares every body, evaluates the system's
/// loads once, and finishes every body — the same arithmetic, so a system of one body under a
/// body-frame torque reproduces the single-body method bit for bit (`tests/system.rs`).
pub trait SplitStep: RotationalMethod {
    /// What `prepare` computed that `finish` needs (e.g. Johnson's new rotor).
    type Pending: Copy + Send + Sync + core::fmt::Debug;

    /// Whether the torque is taken at the end of the step (`t_{n+1}`, after the rotor update:
    /// Velocity Verlet, Johnson) rather than at its start (`t_n`).
    const TORQUE_AT_END: bool;

    /// The rotor the method's start evaluates the torque at, from the initial rotor `q`
    /// (Fincham and MercuryDPM normalise it first).
    fn start_rotor(&self, q: &Quaternion<f64>) -> Quaternion<f64> {
        *q
    }

    /// The first part of the step: the torque point and what `finish` needs.
    ///
    /// # Errors
    /// [`crate::stepper::not_started`] before the start.
    fn prepare(&self) -> Result<(Self::Pending, TorquePoint)>;

    /// The rest of the step with the body-frame torque `tau` at the point of `prepare`.
    ///
    /// # Errors
    /// [`crate::Error::NonFiniteState`] for a non-finite new state.
    fn finish(&mut self, pending: Self::Pending, tau: &Vector3<f64>) -> Result<()>;
}

/// What a step that updates the rotor before it takes the torque (Velocity Verlet, Johnson)
/// hands from [`SplitStep::prepare`] to [`SplitStep::finish`]: the new rotor (renormalised as
/// the policy asks), the angular velocity the torque is taken at, and the renormaliser's step
/// count after this step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RotorFirst {
    pub(crate) q: Quaternion<f64>,
    pub(crate) omega: Vector3<f64>,
    pub(crate) renormaliser: super::stepper::Renormaliser,
}

/// Implements [`SplitStep`] for a method that takes its torque at the state it carries
/// (`t_n`, nothing pending from `prepare` to `finish`):
///
/// ```text
/// split_at_carried_state!(impl[generics] Type,
///     carried: |m| (started, torque point),
///     finish: |m, tau| { the rest of the step },
///     start_rotor: normalize);      // optional: the rotor the start evaluates the torque at
/// ```
macro_rules! split_at_carried_state {
    (impl[$($generics:tt)*] $ty:ty,
     carried: |$c:ident| $carried:expr,
     finish: |$s:ident, $tau:ident| $finish:block
     $(, start_rotor: $rotor:path)? $(,)?) => {
        impl<$($generics)*> $crate::rotation::SplitStep for $ty {
            type Pending = ();
            const TORQUE_AT_END: bool = false;

            $(
                fn start_rotor(
                    &self,
                    q: &::nalgebra::Quaternion<f64>,
                ) -> ::nalgebra::Quaternion<f64> {
                    $rotor(q)
                }
            )?

            /// The torque at the carried state `(t_n, q_n, ω)`.
            #[inline(always)]
            fn prepare(&self) -> $crate::Result<((), $crate::rotation::TorquePoint)> {
                let $c = self;
                let (started, at): (bool, $crate::rotation::TorquePoint) = $carried;
                if started {
                    Ok(((), at))
                } else {
                    Err($crate::stepper::not_started())
                }
            }

            #[inline(always)]
            fn finish(&mut self, _: (), $tau: &::nalgebra::Vector3<f64>) -> $crate::Result<()> {
                let $s = self;
                $finish
            }
        }
    };
}
pub(crate) use split_at_carried_state;

/// One step of a split method on a single body: prepare, evaluate `torque` at the point
/// (checked), finish.
///
/// # Errors
/// Those of [`SplitStep::prepare`], [`checked_torque`] and [`SplitStep::finish`].
#[inline(always)]
pub(crate) fn split_step<S: SplitStep + ?Sized, T: TorqueField>(
    method: &mut S,
    torque: &mut T,
) -> Result<()> {
    let (pending, at) = method.prepare()?;
    let tau = checked_torque(torque, at.t, &at.q, &at.omega)?;
    method.finish(pending, &tau)
}
