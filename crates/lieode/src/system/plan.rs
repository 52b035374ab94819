//! The step layout every many-body method shares: the checks at the start, the clock, the
//! step report and the finiteness scan.

use nalgebra::{Quaternion, Vector3};

use super::state::SystemState;
use crate::clock::FixedClock;
use crate::error::{Error, Result};
use crate::stepper::Span;

/// Checks the start of a method for `bodies` bodies at `y0` on `span` and starts its clock.
///
/// # Errors
/// Those of [`SystemState::validate`] and [`FixedClock::forward`]; [`Error::InvalidParameter`]
/// naming `y0` for another number of bodies than the method's or the force model's.
pub(crate) fn start(
    bodies: usize,
    span: &Span,
    y0: &SystemState,
    model_bodies: Option<usize>,
) -> Result<FixedClock> {
    y0.validate()?;
    if y0.len() != bodies {
        return Err(Error::InvalidParameter {
            name: "y0",
            value: format!("{} bodies", y0.len()),
            expected: format!("{bodies} bodies, as the method"),
        });
    }
    if let Some(model) = model_bodies.filter(|&m| m != bodies) {
        return Err(Error::InvalidParameter {
            name: "y0",
            value: format!("{} bodies", y0.len()),
            expected: format!("{model} bodies, as the force model"),
        });
    }
    FixedClock::forward(span, y0.t)
}

/// The error for the first body whose state `(x, v, q, ω)` has a non-finite entry at `t`
/// (`None` if all are finite).
pub(crate) fn non_finite_body(
    t: f64,
    x: &[Vector3<f64>],
    v: &[Vector3<f64>],
    q: &[Quaternion<f64>],
    w: &[Vector3<f64>],
) -> Option<Error> {
    (0..x.len())
        .find(|&i| {
            !(x[i].iter().chain(v[i].iter()).chain(w[i].iter()))
                .chain(q[i].coords.iter())
                .all(|c| c.is_finite())
        })
        .map(|body| Error::NonFiniteBody {
            what: "state",
            body,
            t,
        })
}

/// `state` if every body's state is finite, else the error naming the first body that is not
/// (a synchronised state computed from the loads may overflow where the carried one did not).
pub(crate) fn checked(state: SystemState) -> Result<SystemState> {
    match non_finite_body(
        state.t,
        &state.positions,
        &state.velocities,
        &state.rotors,
        &state.omegas,
    ) {
        Some(error) => Err(error),
        None => Ok(state),
    }
}

/// The [`crate::stepper::StepperInfo`] of a many-body method with `clock: Option<FixedClock>`
/// and `stats: Stats` fields: its name (`|s| name`, computed from the stepper `s`), the time of
/// its clock (NaN before the start), its counters. A generic type names its parameter:
/// `impl_system_info!(Type<K> where K: Bound, |s| …)`.
macro_rules! impl_system_info {
    ($ty:ty $(where $k:ident : $bound:path)?, |$s:ident| $name:expr) => {
        impl$(<$k: $bound>)? $crate::stepper::StepperInfo for $ty {
            fn name(&self) -> &str {
                let $s = self;
                $name
            }

            fn time(&self) -> f64 {
                self.clock.map_or(f64::NAN, |c| c.time())
            }

            fn stats(&self) -> $crate::stepper::Stats {
                self.stats
            }
        }
    };
}
pub(crate) use impl_system_info;

/// Runs `|i, (a, b, …)| -> Result<()>` on every body's entries of the listed slices (`read s`
/// for `&s[i]`, `write s` for `&mut s[i]`), in parallel with the `parallel` feature (in chunks
/// of at least [`super::PARALLEL_CHUNK`] bodies), and returns the error of the lowest body
/// index if any fails — the same error for any number of threads.
macro_rules! for_each_body {
    ($($kind:ident $slice:ident),+ ; |$i:ident, ($($x:pat),+)| $body:block) => {{
        #[cfg(feature = "parallel")]
        let result: $crate::Result<()> = {
            use rayon::prelude::*;
            // Failures are rare: each is offered to one shared slot that keeps the lowest
            // index, so the per-body path carries no error value (a `reduce` over the results
            // would move one per body, `find_first` would poll an atomic per body).
            let first = ::std::sync::Mutex::new(None::<(usize, $crate::Error)>);
            ($( $crate::system::plan::for_each_body!(@par $kind $slice) ),+)
                .into_par_iter()
                .enumerate()
                .with_min_len($crate::system::PARALLEL_CHUNK)
                .for_each(|($i, ($($x),+))| {
                    let mut run = move || -> $crate::Result<()> { $body };
                    if let Err(error) = run() {
                        let mut slot = first.lock().unwrap_or_else(|p| p.into_inner());
                        if slot.as_ref().is_none_or(|(j, _)| $i < *j) {
                            *slot = Some(($i, error));
                        }
                    }
                });
            match first.into_inner().unwrap_or_else(|p| p.into_inner()) {
                Some((_, error)) => Err(error),
                None => Ok(()),
            }
        };
        #[cfg(not(feature = "parallel"))]
        let result: $crate::Result<()> = {
            let n = [$( $slice.len() ),+][0];
            (0..n).try_for_each(|$i| -> $crate::Result<()> {
                let ($($x),+) = ($( $crate::system::plan::for_each_body!(@seq $kind $slice $i) ),+);
                $body
            })
        };
        result
    }};
    (@par read $s:ident) => { $s.par_iter() };
    (@par write $s:ident) => { $s.par_iter_mut() };
    (@seq read $s:ident $i:ident) => { &$s[$i] };
    (@seq write $s:ident $i:ident) => { &mut $s[$i] };
}
pub(crate) use for_each_body;

/// `uniform(body, n)`, `len()` and `is_empty()` for a many-body method with a
/// `bodies: Vec<Body>` field and a `new(bodies)` constructor.
macro_rules! impl_body_count {
    ($ty:ty) => {
        impl $ty {
            /// `n` copies of one body.
            pub fn uniform(body: $crate::system::Body, n: usize) -> Self {
                Self::new(vec![body; n])
            }

            /// The number of bodies.
            pub fn len(&self) -> usize {
                self.bodies.len()
            }

            /// Whether there are no bodies.
            pub fn is_empty(&self) -> bool {
                self.bodies.is_empty()
            }
        }
    };
}
pub(crate) use impl_body_count;
