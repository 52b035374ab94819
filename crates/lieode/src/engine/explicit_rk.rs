//! Explicit Runge–Kutta methods on `ℝᴺ`.

use nalgebra::SVector;

use super::coefficients::Coefficients;
use super::{Method, Stats, Step, Stepped, VectorOde, check_step_input};
use crate::error::{Error, Result};
use crate::lie::{Real, real, to_f64};
use crate::tableau::ButcherTableau;

/// An explicit Runge–Kutta method for `x' = F(t, x)`:
///
/// `k_i = F(t + c_i h, x + h Σ_{j<i} a_ij k_j)`, `x₁ = x + h Σ b_i k_i`, and, with embedded
/// weights, the error estimate `h Σ (b_i − b̂_i) k_i`.
///
/// For a FSAL tableau the last stage of a step is reused as the first stage of the next one
/// when that step starts from the same `(t, x)` with the same problem object; after changing
/// a problem in place between steps, call [`Method::forget`].
///
/// # References
/// E. Hairer, S. P. Nørsett, G. Wanner, *Solving Ordinary Differential Equations I*, 2nd ed.,
/// §II.1, Eq. (1.8).
///
/// # Examples
/// ```
/// use lieode::engine::{ExplicitRk, Stats, Step};
/// use lieode::tableau::registry::RK4;
/// use nalgebra::Vector1;
/// let mut rk4 = ExplicitRk::<f64, 1>::new(&RK4).unwrap();
/// let mut decay = |_t: f64, x: &Vector1<f64>| -x;
/// let mut stats = Stats::default();
/// let out = rk4.step(&mut decay, 0.0, &Vector1::new(1.0), 0.1, &mut stats).unwrap();
/// assert!((out.state[0] - (-0.1f64).exp()).abs() < 1e-7);
/// assert_eq!(stats.rhs_evaluations, 4);
/// ```
#[derive(Debug, Clone)]
pub struct ExplicitRk<T: Real, const N: usize> {
    coefficients: Coefficients<T>,
    k: Vec<SVector<T, N>>,
    /// `(t, x, F(t, x))` at the end of the previous step, for FSAL reuse.
    last: Option<(T, SVector<T, N>, SVector<T, N>)>,
    /// The address of the problem that computed `last` (another problem object never reuses it).
    last_problem: usize,
}

impl<T: Real, const N: usize> ExplicitRk<T, N> {
    /// The method of an explicit tableau (any family: the classical coefficients are used).
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] if the tableau is invalid or not explicit.
    pub fn new(tableau: &ButcherTableau) -> Result<Self> {
        tableau.validate()?;
        tableau.validate_explicit()?;
        let coefficients = Coefficients::new(tableau);
        let k = vec![SVector::zeros(); coefficients.stages];
        Ok(Self {
            coefficients,
            k,
            last: None,
            last_problem: 0,
        })
    }
}

/// Evaluates `F` and checks the result.
pub(crate) fn eval_checked<T: Real, const N: usize, P: VectorOde<T, N> + ?Sized>(
    problem: &mut P,
    t: T,
    x: &SVector<T, N>,
    stats: &mut Stats,
) -> Result<SVector<T, N>> {
    stats.rhs_evaluations += 1;
    let f = problem.rhs(t, x);
    if f.iter().all(|v| v.is_finite()) {
        Ok(f)
    } else {
        Err(Error::NonFiniteState {
            what: "right-hand side",
            t: to_f64(t),
        })
    }
}

impl<T: Real, const N: usize, P: VectorOde<T, N> + ?Sized> Step<P> for ExplicitRk<T, N> {
    type State = SVector<T, N>;
    type Scalar = T;
    type ErrorEstimate = SVector<T, N>;

    fn step(
        &mut self,
        problem: &mut P,
        t: T,
        y: &SVector<T, N>,
        h: T,
        stats: &mut Stats,
    ) -> Result<Stepped<SVector<T, N>, SVector<T, N>>> {
        check_step_input(t, h)?;
        let problem_id = problem as *const P as *const () as usize;
        if problem_id != self.last_problem {
            self.last = None;
        }
        let co = &self.coefficients;
        let s = co.stages;
        for i in 0..s {
            let ki = if i == 0 {
                match &self.last {
                    // Same state, same time up to the rounding of t + h.
                    Some((tl, yl, fl))
                        if co.fsal
                            && yl == y
                            && (*tl - t).abs()
                                <= real::<T>(8.0 * f64::EPSILON) * (T::one() + t.abs()) =>
                    {
                        *fl
                    }
                    _ => eval_checked(problem, t, y, stats)?,
                }
            } else {
                let mut x = *y;
                for j in 0..i {
                    let aij = co.a(i, j);
                    if aij != T::zero() {
                        x.axpy(h * aij, &self.k[j], T::one());
                    }
                }
                eval_checked(problem, t + co.c[i] * h, &x, stats)?
            };
            self.k[i] = ki;
        }
        let mut y1 = *y;
        for i in 0..s {
            if co.b[i] != T::zero() {
                y1.axpy(h * co.b[i], &self.k[i], T::one());
            }
        }
        if !y1.iter().all(|v| v.is_finite()) {
            return Err(Error::NonFiniteState {
                what: "state",
                t: to_f64(t + h),
            });
        }
        let error = co.b_error.as_ref().map(|e| {
            let mut acc = SVector::<T, N>::zeros();
            for (ei, ki) in e.iter().zip(&self.k) {
                if *ei != T::zero() {
                    acc.axpy(h * *ei, ki, T::one());
                }
            }
            acc
        });
        // FSAL: the last stage was F(t + h, y₁).
        self.last = if co.fsal {
            Some((t + h, y1, self.k[s - 1]))
        } else {
            None
        };
        self.last_problem = problem_id;
        Ok(Stepped { state: y1, error })
    }
}

impl<T: Real, const N: usize> Method for ExplicitRk<T, N> {
    fn order(&self) -> usize {
        self.coefficients.order
    }
    fn name(&self) -> &str {
        &self.coefficients.name
    }
    fn forget(&mut self) {
        self.last = None;
    }
}
