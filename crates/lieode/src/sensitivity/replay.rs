//! [`replay`]: an engine stepped along a given time grid (an adaptive run's accepted steps).

use crate::engine::{Stats, Step};
use crate::error::{Error, Result};
use crate::lie::Real;

/// The states of `engine` stepped from `y0` along the time grid `times` (`times[0]` is the
/// initial time; step `i` goes from `times[i]` to `times[i+1]`), with the problem `problem`:
/// an adaptive run's accepted step sequence **frozen** and taken again, on dual numbers for its
/// sensitivities. The engine must make the adaptive method's step (e.g. [`crate::engine::ExplicitRk`]
/// with the [`DOP853`](crate::tableau::registry::DOP853) tableau for
/// [`crate::adaptive::Dop853`]); the real parts then equal the adaptive run's states up to
/// rounding, and the derivative parts are the exact derivatives of that computed solution for
/// the frozen sequence. Returns the state after every step (`times.len()` states, `y0` first)
/// and the engine's counts.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `times` for fewer than two times or a non-finite,
/// repeated or non-monotonic grid; those of the engine's step.
pub fn replay<P, E>(
    engine: &mut E,
    problem: &mut P,
    y0: &E::State,
    times: &[f64],
) -> Result<(Vec<E::State>, Stats)>
where
    P: ?Sized,
    E: Step<P>,
    E::Scalar: Real,
{
    let forward = times.len() >= 2 && times[1] > times[0];
    let monotonic = times
        .windows(2)
        .all(|w| w[0].is_finite() && w[1].is_finite() && (w[1] > w[0]) == forward && w[1] != w[0]);
    if times.len() < 2 || !monotonic {
        return Err(Error::InvalidParameter {
            name: "times",
            value: format!("{} time(s)", times.len()),
            expected: "at least two finite times, strictly monotonic".to_string(),
        });
    }
    let mut stats = Stats::default();
    let mut states = Vec::with_capacity(times.len());
    states.push(y0.clone());
    let mut y = y0.clone();
    for w in times.windows(2) {
        let t: E::Scalar = nalgebra::convert(w[0]);
        let h: E::Scalar = nalgebra::convert(w[1] - w[0]);
        y = engine.step(problem, t, &y, h, &mut stats)?.state;
        states.push(y.clone());
    }
    Ok((states, stats))
}
