//! The step layout every many-body method shares: the checks at the start, the clock, the
//! step report and the finiteness scan.

use nalgebra::{Quaternion, Vector3};

use super::state::SystemState;
use crate::clock::FixedClock;
use crate::error::{Error, Result};
use crate::lie::Real;
use crate::stepper::Span;

/// Checks the start of a method for `bodies` bodies at `y0` on `span` and starts its clock.
///
/// # Errors
/// Those of [`SystemState::validate`] and [`FixedClock::forward`]; [`Error::InvalidParameter`]
/// naming `y0` for another number of bodies than the method's or the force model's.
pub(crate) fn start<T: Real>(
    bodies: usize,
    span: &Span,
    y0: &SystemState<T>,
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
pub(crate) fn non_finite_body<T: Real>(
    t: f64,
    x: &[Vector3<T>],
    v: &[Vector3<T>],
    q: &[Quaternion<T>],
    w: &[Vector3<T>],
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
pub(crate) fn checked<T: Real>(state: SystemState<T>) -> Result<SystemState<T>> {
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
    ($ty:ty $(where $($k:ident : $bound:path),+)?, |$s:ident| $name:expr) => {
        impl$(<$($k: $bound),+>)? $crate::stepper::StepperInfo for $ty {
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
/// of [`super::PARALLEL_CHUNK`] bodies), and returns the error of the lowest body index if any
/// fails — the same error for any number of threads (a chunk stops at its first failure).
///
/// Each chunk is one plain loop over indices into the chunk's slices, cut to one length so that
/// the loop has no bounds checks, with the body inlined: handing rayon one tuple of references
/// per body made every body a call that read its tuple back from the caller's stores (16-byte
/// loads across 8-byte stores, a store-forwarding stall per body).
macro_rules! for_each_body {
    ($($kind:ident $slice:ident),+ ; |$i:ident, ($($x:pat),+)| $body:block) => {{
        #[cfg(feature = "parallel")]
        let result: $crate::Result<()> = {
            use rayon::prelude::*;
            const CHUNK: usize = $crate::system::PARALLEL_CHUNK;
            // Failures are rare: each chunk offers its first to one shared slot that keeps the
            // lowest index, so the per-body path carries no error value.
            let first = ::std::sync::Mutex::new(None::<(usize, $crate::Error)>);
            ($( $crate::system::plan::for_each_body!(@par $kind $slice CHUNK) ),+)
                .into_par_iter()
                .enumerate()
                .for_each(|(chunk, ($($slice),+))| {
                    let failure = $crate::system::plan::for_each_body!(@run chunk * CHUNK,
                        $($kind $slice),+ ; |$i, ($($x),+)| $body);
                    if let Err((index, error)) = failure {
                        let mut slot = first.lock().unwrap_or_else(|p| p.into_inner());
                        if slot.as_ref().is_none_or(|(j, _)| index < *j) {
                            *slot = Some((index, error));
                        }
                    }
                });
            match first.into_inner().unwrap_or_else(|p| p.into_inner()) {
                Some((_, error)) => Err(error),
                None => Ok(()),
            }
        };
        #[cfg(not(feature = "parallel"))]
        let result: $crate::Result<()> = $crate::system::plan::for_each_body!(@run 0,
            $($kind $slice),+ ; |$i, ($($x),+)| $body)
        .map_err(|(_, error)| error);
        result
    }};
    // One loop over the slices' common length; `Err((index, error))` at the first failure.
    (@run $start:expr, $($kind:ident $slice:ident),+ ; |$i:ident, ($($x:pat),+)| $body:block) => {{
        let start: usize = $start;
        let n = [$( $slice.len() ),+].into_iter().min().unwrap_or(0);
        $( let $slice = $crate::system::plan::for_each_body!(@cut $kind $slice n); )+
        let mut outcome: ::core::result::Result<(), (usize, $crate::Error)> = Ok(());
        for j in 0..n {
            let $i = start + j;
            let ($($x),+) = ($( $crate::system::plan::for_each_body!(@at $kind $slice j) ),+);
            #[allow(clippy::redundant_closure_call)]
            let step = (|| -> $crate::Result<()> { $body })();
            if let Err(error) = step {
                outcome = Err((start + j, error));
                break;
            }
        }
        outcome
    }};
    (@par read $s:ident $c:ident) => { $s.par_chunks($c) };
    (@par write $s:ident $c:ident) => { $s.par_chunks_mut($c) };
    (@cut read $s:ident $n:ident) => { &$s[..$n] };
    (@cut write $s:ident $n:ident) => { &mut $s[..$n] };
    (@at read $s:ident $j:ident) => { &$s[$j] };
    (@at write $s:ident $j:ident) => { &mut $s[$j] };
}
pub(crate) use for_each_body;

/// `uniform(body, n)`, `len()` and `is_empty()` for a many-body method with a
/// `bodies: Vec<Body>` field and a `new(bodies)` constructor.
macro_rules! impl_body_count {
    ($ty:ident) => {
        impl<T: $crate::lie::Real> $ty<T> {
            /// `n` copies of one body.
            pub fn uniform(body: $crate::system::Body<T>, n: usize) -> Self {
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
