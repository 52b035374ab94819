//! [`Extrapolation`]: a step of the extrapolated explicit midpoint rule (Gragg–Bulirsch–Stoer) in
//! a given column, over any scalar — ODEX's step replayed on dual numbers.

use nalgebra::SVector;

use super::explicit_rk::eval_checked;
use super::{Method, Stats, Step, Stepped, VectorOde, check_step_input};
use crate::adaptive::odex::{MAX_COLUMNS, StepSequence};
use crate::error::{Error, Result};
use crate::lie::{Real, real};

/// The extrapolated explicit midpoint rule of `κ` lines with the step numbers
/// `n_1, …, n_κ` of a [`StepSequence`], as ODEX (Hairer, Nørsett, Wanner I, §II.9) takes a step
/// accepted in column `κ`: for line `j`, with `h_j = H/n_j`,
///
/// ```text
/// u_0 = y,  u_1 = y + h_j f(t, y),  u_{m+1} = u_{m−1} + 2 h_j f(t + m h_j, u_m)   (m < n_j)
/// T_{j,1} = (u_{n_j−1} + u_{n_j} + h_j f(t + H, u_{n_j})) / 2                     (smoothing)
/// T_{j,l+1} = T_{j,l} + (T_{j,l} − T_{j−1,l}) / ((n_j/n_{j−l})² − 1)                (Aitken–Neville in h²)
/// ```
///
/// and the step's result is `T_{κ,κ}`, of order `2κ`. The arithmetic is ODEX's, in its order,
/// so that a replay of an ODEX run's accepted steps and columns
/// ([`crate::sensitivity::replay_extrapolation`]) gives its states to rounding; over dual
/// numbers the derivative parts are the derivative of that computed solution with the step
/// sizes and the columns held fixed.
///
/// # Examples
/// ```
/// use lieode::adaptive::odex::StepSequence;
/// use lieode::engine::{Extrapolation, Step, Stats};
/// use nalgebra::Vector1;
///
/// // y' = y: four lines of the sequence 2, 4, 6, 8 give e^h to order 8 (local error O(h⁹):
/// // 2.6e-9 at h = 0.5, 6.5e-13 at h = 0.2, a ratio of 2.5⁹).
/// let mut gbs = Extrapolation::<f64, 1>::new(StepSequence::TwoJ, 4)?;
/// let mut grow = |_t: f64, y: &Vector1<f64>| *y;
/// let mut error = |h: f64| -> lieode::Result<f64> {
///     let step = gbs.step(&mut grow, 0.0, &Vector1::new(1.0), h, &mut Stats::default())?;
///     Ok((step.state[0] - h.exp()).abs())
/// };
/// let (large, small) = (error(0.5)?, error(0.2)?);
/// assert!(large < 3e-9 && small < 1e-12);
/// assert!(((large / small).ln() / 2.5f64.ln() - 9.0).abs() < 0.2);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Extrapolation<T: Real, const N: usize> {
    sequence: StepSequence,
    numbers: Vec<usize>,
    columns: usize,
    /// The extrapolation table, one entry per line (overwritten in place by the sweeps).
    table: Vec<SVector<T, N>>,
}

impl<T: Real, const N: usize> Extrapolation<T, N> {
    /// The method of `columns` lines of `sequence`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `columns` unless `1 ≤ columns ≤` [`MAX_COLUMNS`].
    pub fn new(sequence: StepSequence, columns: usize) -> Result<Self> {
        let mut method = Self {
            sequence,
            numbers: sequence.step_numbers(MAX_COLUMNS)?,
            columns: 1,
            table: vec![SVector::zeros(); MAX_COLUMNS],
        };
        method.set_columns(columns)?;
        Ok(method)
    }

    /// Sets the number of lines of the coming steps (a replay sets each step's column).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `columns` unless `1 ≤ columns ≤` [`MAX_COLUMNS`].
    pub fn set_columns(&mut self, columns: usize) -> Result<()> {
        if !(1..=MAX_COLUMNS).contains(&columns) {
            return Err(Error::InvalidParameter {
                name: "columns",
                value: columns.to_string(),
                expected: format!("1 to {MAX_COLUMNS} lines"),
            });
        }
        self.columns = columns;
        Ok(())
    }

    /// The step-number sequence.
    pub fn sequence(&self) -> StepSequence {
        self.sequence
    }

    /// The number of lines of a step.
    pub fn columns(&self) -> usize {
        self.columns
    }
}

impl<T: Real, const N: usize> Method for Extrapolation<T, N> {
    /// `2κ`.
    fn order(&self) -> usize {
        2 * self.columns
    }
    fn name(&self) -> &str {
        "extrapolated midpoint rule"
    }
}

impl<T: Real, const N: usize, P: VectorOde<T, N> + ?Sized> Step<P> for Extrapolation<T, N> {
    type State = SVector<T, N>;
    type Scalar = T;
    type ErrorEstimate = ();

    fn step(
        &mut self,
        problem: &mut P,
        t: T,
        y: &SVector<T, N>,
        h: T,
        stats: &mut Stats,
    ) -> Result<Stepped<SVector<T, N>, ()>> {
        check_step_input(t, h)?;
        let start = eval_checked(problem, t, y, stats)?;
        for j in 0..self.columns {
            let nj = self.numbers[j];
            let hj = h / real::<T>(nj as f64);
            let (mut previous, mut current) = (*y, *y + start * hj);
            for m in 1..nj {
                let derivative =
                    eval_checked(problem, t + hj * real::<T>(m as f64), &current, stats)?;
                let older = previous;
                previous = current;
                current = older + derivative * (real::<T>(2.0) * hj);
            }
            let end = eval_checked(problem, t + h, &current, stats)?;
            self.table[j] = (previous + current + end * hj) / real::<T>(2.0);
            // Aitken–Neville: after the sweep `table[0]` extrapolates lines 1 … j + 1.
            let nj = nj as f64;
            for l in (1..=j).rev() {
                let r = nj / self.numbers[l - 1] as f64;
                let factor = real::<T>(r * r - 1.0);
                let (lower, upper) = self.table.split_at_mut(l);
                let (prev, cur) = (&mut lower[l - 1], &upper[0]);
                *prev = cur + (cur - *prev) / factor;
            }
        }
        Ok(Stepped {
            state: self.table[0],
            error: None,
        })
    }
}
