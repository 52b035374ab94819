//! [`replay`]: an engine stepped along a given time grid (an adaptive run's accepted steps).

use nalgebra::{DefaultAllocator, OVector, SVector, allocator::Allocator};

use crate::engine::{Extrapolation, LieOde, Stats, Step, VectorOde};
use crate::error::{Error, Result};
use crate::lie::Real;
use crate::lie::coordinates::{Chart, ExponentialMap};
use crate::lie::{AlgebraDim, LieAlgebra, LieGroup, Side, Truncation, real};

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
    replay_with(engine, problem, y0, times, |_, _| Ok(()))
}

/// An ODEX run's accepted steps replayed: step `i` from `times[i]` to `times[i+1]` by the
/// extrapolated midpoint rule in the column `columns[i]` in which ODEX accepted it
/// ([`crate::adaptive::Odex::accepted_column`] after each step), with ODEX's step-number
/// sequence. The real parts are the ODEX run's states to rounding, and over dual numbers the
/// derivative parts are the derivative of that computed solution with the step sizes **and
/// the columns** frozen (the column choice, like the step size, is the error control's).
///
/// # Errors
/// As [`replay`]; [`Error::InvalidParameter`] naming `columns` unless there is one column per
/// step, each from 1 to [`MAX_COLUMNS`](crate::adaptive::odex::MAX_COLUMNS).
///
/// # Examples
/// ```
/// use lieode::adaptive::odex::StepSequence;
/// use lieode::engine::Extrapolation;
/// use lieode::sensitivity::{Dual, Seeds, replay_extrapolation, vector_jacobian};
/// use nalgebra::Vector1;
///
/// // y' = −k y on a grid of two steps, accepted in columns 5 and 6.
/// let mut seeds = Seeds::<1>::new();
/// let k = seeds.parameter("k", 0.7)?;
/// let mut decay = |_t: Dual<1>, y: &Vector1<Dual<1>>| -y * k;
/// let mut gbs = Extrapolation::<Dual<1>, 1>::new(StepSequence::TwoJ, 1)?;
/// let (states, _) =
///     replay_extrapolation(&mut gbs, &mut decay, &Vector1::new(Dual::from_re(2.0)), &[0.0, 0.4, 1.0], &[5, 6])?;
/// // x(1) = 2 e^{−k}, ∂x/∂k = −2 e^{−k}.
/// assert!((vector_jacobian(&states[2])[(0, 0)] + 2.0 * (-0.7f64).exp()).abs() < 1e-9);
/// # Ok::<(), lieode::Error>(())
/// ```
pub fn replay_extrapolation<T, const N: usize, P>(
    engine: &mut Extrapolation<T, N>,
    problem: &mut P,
    y0: &SVector<T, N>,
    times: &[f64],
    columns: &[usize],
) -> Result<(Vec<SVector<T, N>>, Stats)>
where
    T: Real,
    P: VectorOde<T, N> + ?Sized,
{
    if columns.len() + 1 != times.len() {
        return Err(Error::InvalidParameter {
            name: "columns",
            value: format!("{} column(s) for {} time(s)", columns.len(), times.len()),
            expected: "one column per step: one fewer than the times".to_string(),
        });
    }
    replay_with(engine, problem, y0, times, |engine, i| {
        engine.set_columns(columns[i])
    })
}

/// A lifted ODEX run's accepted steps replayed ([`crate::adaptive::LieStepper`] with
/// [`crate::adaptive::Odex`], the exponential chart and the exact `dexp⁻¹`, as
/// `LieStepper::new` builds it): step `i` writes `y = exp(θ)·y_i` (or `y_i·exp(θ)`, the
/// problem's side), integrates `θ' = dexp⁻¹_{±θ}(ξ(t, y))` from `θ = 0` by the extrapolated
/// midpoint rule in the column `columns[i]` over `[times[i], times[i+1]]`, and takes
/// `y_{i+1} = exp(θ)·y_i` — the lifted step's computation, so the real parts are the run's
/// states to rounding and the derivative parts the derivative of that computed solution with the
/// steps and columns frozen. `N` is the algebra's dimension.
///
/// # Errors
/// As [`replay_extrapolation`]; [`Error::InvalidParameter`] naming `N` when it is not the
/// algebra's dimension; [`Error::NonFiniteState`] for a non-finite generator or state.
pub fn replay_lifted_extrapolation<G, P, const N: usize>(
    engine: &mut Extrapolation<G::Scalar, N>,
    problem: &mut P,
    y0: &G,
    times: &[f64],
    columns: &[usize],
) -> Result<(Vec<G>, Stats)>
where
    G: LieGroup,
    P: LieOde<G> + ?Sized,
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    if <G::Algebra as LieAlgebra>::dim() != N {
        return Err(Error::InvalidParameter {
            name: "N",
            value: N.to_string(),
            expected: format!(
                "the algebra's dimension, {}",
                <G::Algebra as LieAlgebra>::dim()
            ),
        });
    }
    if columns.len() + 1 != times.len() {
        return Err(Error::InvalidParameter {
            name: "columns",
            value: format!("{} column(s) for {} time(s)", columns.len(), times.len()),
            expected: "one column per step: one fewer than the times".to_string(),
        });
    }
    check_times(times)?;
    let side = problem.side();
    let mut stats = Stats::default();
    let mut states = Vec::with_capacity(times.len());
    states.push(*y0);
    let mut y = *y0;
    for (w, &column) in times.windows(2).zip(columns) {
        engine.set_columns(column)?;
        let t: G::Scalar = nalgebra::convert(w[0]);
        let h: G::Scalar = nalgebra::convert(w[1] - w[0]);
        let mut local = LocalField {
            problem: &mut *problem,
            side,
            base: &y,
        };
        let theta = engine
            .step(
                &mut local,
                t,
                &SVector::from([real::<G::Scalar>(0.0); N]),
                h,
                &mut stats,
            )?
            .state;
        let theta = G::Algebra::from_coords(&OVector::from_column_slice(theta.as_slice()));
        y = ExponentialMap::update(side, &y, &theta);
        if !y.is_finite() {
            return Err(Error::NonFiniteState {
                what: "state",
                t: w[1],
            });
        }
        states.push(y);
    }
    Ok((states, stats))
}

/// The lifted ODE of a step in the algebra's coordinates, `θ' = dexp⁻¹_{±θ}(ξ(t, exp(θ)·y_n))`
/// (exact `dexp⁻¹`), as a vector ODE.
struct LocalField<'a, P: ?Sized, G> {
    problem: &'a mut P,
    side: Side,
    base: &'a G,
}

impl<G, P, const N: usize> VectorOde<G::Scalar, N> for LocalField<'_, P, G>
where
    G: LieGroup,
    P: LieOde<G> + ?Sized,
    DefaultAllocator: Allocator<AlgebraDim<G>>,
{
    fn rhs(&mut self, t: G::Scalar, theta: &SVector<G::Scalar, N>) -> SVector<G::Scalar, N> {
        let theta = G::Algebra::from_coords(&OVector::from_column_slice(theta.as_slice()));
        let y = <ExponentialMap as Chart<G>>::update(self.side, self.base, &theta);
        let xi = self.problem.generator(t, &y);
        let field =
            <ExponentialMap as Chart<G>>::local_field(self.side, &theta, &xi, Truncation::Exact);
        // (From an array: the allocator bound of the algebra would hide `SVector`'s own.)
        let mut out = [real::<G::Scalar>(0.0); N];
        out.copy_from_slice(field.to_coords().as_slice());
        SVector::from(out)
    }
}

/// [`replay`] with `prepare(engine, i)` before step `i`.
fn replay_with<P, E>(
    engine: &mut E,
    problem: &mut P,
    y0: &E::State,
    times: &[f64],
    mut prepare: impl FnMut(&mut E, usize) -> Result<()>,
) -> Result<(Vec<E::State>, Stats)>
where
    P: ?Sized,
    E: Step<P>,
    E::Scalar: Real,
{
    check_times(times)?;
    let mut stats = Stats::default();
    let mut states = Vec::with_capacity(times.len());
    states.push(y0.clone());
    let mut y = y0.clone();
    for (i, w) in times.windows(2).enumerate() {
        prepare(engine, i)?;
        let t: E::Scalar = nalgebra::convert(w[0]);
        let h: E::Scalar = nalgebra::convert(w[1] - w[0]);
        y = engine.step(problem, t, &y, h, &mut stats)?.state;
        states.push(y.clone());
    }
    Ok((states, stats))
}

/// The checks of a replay's time grid.
fn check_times(times: &[f64]) -> Result<()> {
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
    Ok(())
}
