//! # The fixed-step driver
//!
//! `integrate_fixed` takes a fixed number of equal steps with any [`Step`] engine and returns
//! a [`Solution`]: times, states and the work done.

use crate::engine::{Stats, Step};
use crate::error::{Error, Result};
use crate::lie::{real, to_f64};

/// The result of an integration.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution<S, T> {
    /// The times at which states were stored (always the first and the last).
    pub times: Vec<T>,
    /// The stored states.
    pub states: Vec<S>,
    /// Evaluations, steps and solver work.
    pub stats: Stats,
}

impl<S, T: Copy> Solution<S, T> {
    /// The final time and state.
    pub fn last(&self) -> Option<(T, &S)> {
        Some((*self.times.last()?, self.states.last()?))
    }
}

/// Which states a fixed-step run keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Record {
    /// Every step.
    All,
    /// Every `k`-th step (and the last).
    Every(usize),
    /// Only the initial and final states.
    Ends,
}

/// Integrates from `t0` to `t_end` with `steps` equal steps `h = (t_end − t0)/steps`; step `i`
/// starts at `t0 + i h` (times are computed, not accumulated).
///
/// # Errors
/// [`Error::InvalidParameter`] for `steps = 0`, a zero `Record::Every`, non-finite or equal
/// times; any error of the engine, with its time.
///
/// # Examples
/// ```
/// use lieode::engine::{ExplicitRk, Step};
/// use lieode::integrate::{integrate_fixed, Record};
/// use lieode::tableau::registry::RK4;
/// use nalgebra::Vector1;
/// let mut rk4 = ExplicitRk::<f64, 1>::new(&RK4).unwrap();
/// let mut decay = |_t: f64, x: &Vector1<f64>| -x;
/// let sol = integrate_fixed(&mut rk4, &mut decay, Vector1::new(1.0), 0.0, 1.0, 10, Record::Ends).unwrap();
/// assert!((sol.states[1][0] - (-1.0f64).exp()).abs() < 1e-5);
/// assert_eq!(sol.stats.rhs_evaluations, 40);
/// ```
pub fn integrate_fixed<P, M>(
    method: &mut M,
    problem: &mut P,
    y0: M::State,
    t0: f64,
    t_end: f64,
    steps: usize,
    record: Record,
) -> Result<Solution<M::State, M::Scalar>>
where
    P: ?Sized,
    M: Step<P>,
{
    if steps == 0 {
        return Err(Error::InvalidParameter {
            name: "steps",
            value: "0".into(),
            expected: "at least one step".into(),
        });
    }
    if record == Record::Every(0) {
        return Err(Error::InvalidParameter {
            name: "record",
            value: "Every(0)".into(),
            expected: "Every(k) with k ≥ 1".into(),
        });
    }
    for (name, v) in [("t0", t0), ("t_end", t_end)] {
        if !v.is_finite() {
            return Err(Error::InvalidParameter {
                name,
                value: format!("{v:e}"),
                expected: "a finite time".into(),
            });
        }
    }
    if t0 == t_end {
        return Err(Error::InvalidParameter {
            name: "t_end",
            value: format!("{t_end:e}"),
            expected: "a time different from t0".into(),
        });
    }
    let h = (t_end - t0) / steps as f64;
    let capacity = match record {
        Record::All => steps + 1,
        Record::Every(k) => steps / k + 2,
        Record::Ends => 2,
    };
    let mut times = Vec::with_capacity(capacity);
    let mut states = Vec::with_capacity(capacity);
    times.push(real(t0));
    states.push(y0.clone());
    let mut stats = Stats::default();
    let mut y = y0;
    for i in 0..steps {
        let t = t0 + i as f64 * h;
        let out = method.step(problem, real(t), &y, real(h), &mut stats)?;
        stats.steps += 1;
        stats.accepted += 1;
        y = out.state;
        let n = i + 1;
        let keep = match record {
            Record::All => true,
            Record::Every(k) => n % k == 0 || n == steps,
            Record::Ends => n == steps,
        };
        if keep {
            let tn = if n == steps { t_end } else { t0 + n as f64 * h };
            times.push(real(tn));
            states.push(y.clone());
        }
    }
    debug_assert!(to_f64(times[times.len() - 1]) == t_end);
    Ok(Solution {
        times,
        states,
        stats,
    })
}
