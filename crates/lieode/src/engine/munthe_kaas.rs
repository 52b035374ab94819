//! Explicit Munthe-Kaas (RKMK) methods on any Lie group.

use super::coefficients::Coefficients;
use super::{LieOde, Method, Stats, Step, Stepped, check_step_input};
use crate::error::{Error, Result};
use std::marker::PhantomData;

use crate::lie::coordinates::{Chart, ExponentialMap};
use crate::lie::{LieAlgebra, LieGroup, Side, Truncation, real, to_f64};
use crate::tableau::ButcherTableau;

/// The Runge–Kutta–Munthe-Kaas method of an explicit tableau, in the coordinates of the chart
/// `C` (the exponential by default; [`MuntheKaas::with_coordinates`] chooses another, such as
/// the Cayley map).
///
/// Each step works in local coordinates at its start, `y = exp(θ)·y_n` ([`Side::Left`]) or
/// `y = y_n·exp(θ)` ([`Side::Right`]), where the ODE becomes the vector ODE
/// `θ' = dexp⁻¹_{±θ}(ξ(t, y))`, `θ(0) = 0`, and applies the classical method to it:
///
/// `θ_i = h Σ_j a_ij k_j`, `k_i = dexp⁻¹_{±θ_i}(ξ(t + c_i h, exp(θ_i)·y_n))`,
/// `y_{n+1} = exp(h Σ b_i k_i)·y_n` (or the right-side analogues).
///
/// `dexp⁻¹` is truncated after `ad^{p−2}` for a tableau of order `p` ([`Truncation::for_order`]),
/// the least that keeps order `p`; [`MuntheKaas::with_truncation`] chooses another truncation
/// (e.g. [`Truncation::Exact`], or a deliberately short one to observe the order loss).
/// The error estimate of an embedded pair is `h Σ (b_i − b̂_i) k_i` in the algebra.
///
/// # References
/// - H. Munthe-Kaas, *High order Runge–Kutta methods on manifolds*, Appl. Numer. Math. 29
///   (1999) 115–127.
/// - A. Iserles et al., *Lie-group methods*, Acta Numerica 9 (2000), §5.2, Thm. 5.3
///   (truncation of the dexp⁻¹ series).
///
/// # Examples
/// ```
/// use lieode::engine::{LieOdeFn, MuntheKaas, Stats, Step};
/// use lieode::lie::{LieGroup, so3::{So3, So3Algebra}};
/// use lieode::tableau::registry::RK4;
/// use nalgebra::Vector3;
/// // Constant body rate: the exact solution is R(t) = exp(t ω).
/// let omega = Vector3::new(0.1, 0.2, 0.3);
/// let mut ode = LieOdeFn::right(move |_t: f64, _r: &So3| So3Algebra::new(omega));
/// let mut mk = MuntheKaas::<So3>::new(&RK4).unwrap();
/// let out = mk.step(&mut ode, 0.0, &So3::identity(), 0.5, &mut Stats::default()).unwrap();
/// let exact = So3::exp(&So3Algebra::new(omega * 0.5));
/// assert!(out.state.distance(&exact).unwrap() < 1e-15);
/// ```
#[derive(Debug, Clone)]
pub struct MuntheKaas<G: LieGroup, C = ExponentialMap> {
    coefficients: Coefficients<G::Scalar>,
    truncation: Truncation,
    k: Vec<G::Algebra>,
    chart: PhantomData<C>,
}

impl<G: LieGroup> MuntheKaas<G> {
    /// The RKMK method of an explicit tableau, with `dexp⁻¹` truncated for its order.
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] if the tableau is invalid or not explicit.
    pub fn new(tableau: &ButcherTableau) -> Result<Self> {
        tableau.validate()?;
        tableau.validate_explicit()?;
        let coefficients = Coefficients::new(tableau);
        let truncation = Truncation::for_order(coefficients.order);
        let k = vec![G::Algebra::zero(); coefficients.stages];
        Ok(Self {
            coefficients,
            truncation,
            k,
            chart: PhantomData,
        })
    }
}

impl<G: LieGroup, C> MuntheKaas<G, C> {
    /// The same method in the coordinates of another chart `C2` ([`Chart`]): for instance
    /// [`CayleyMap`](crate::lie::coordinates::CayleyMap), `y = cay(θ)·y_n` with the exact
    /// `dcay⁻¹` — a rational map, cheaper than the exponential, that keeps the tableau's order.
    ///
    /// # Examples
    /// ```
    /// use lieode::engine::{LieOdeFn, MuntheKaas, Stats, Step};
    /// use lieode::lie::coordinates::CayleyMap;
    /// use lieode::lie::{LieGroup, so3::{So3, So3Algebra}};
    /// use lieode::tableau::registry::RK4;
    /// use nalgebra::Vector3;
    /// let omega = Vector3::new(0.1, 0.2, 0.3);
    /// let mut ode = LieOdeFn::right(move |_t: f64, _r: &So3| So3Algebra::new(omega));
    /// let mut cayley = MuntheKaas::<So3>::new(&RK4)?.with_coordinates::<CayleyMap>();
    /// let out = cayley.step(&mut ode, 0.0, &So3::identity(), 0.1, &mut Stats::default())?;
    /// let exact = So3::exp(&So3Algebra::new(omega * 0.1));
    /// // Fourth order: the local error is O(h⁵), not zero as with the exponential chart.
    /// let error = out.state.distance(&exact)?;
    /// assert!(error > 1e-14 && error < 1e-8);
    /// # Ok::<(), lieode::Error>(())
    /// ```
    pub fn with_coordinates<C2: Chart<G>>(self) -> MuntheKaas<G, C2> {
        MuntheKaas {
            coefficients: self.coefficients,
            truncation: self.truncation,
            k: self.k,
            chart: PhantomData,
        }
    }

    /// The same method with another evaluation of `dexp⁻¹` (the exponential chart's series;
    /// other charts evaluate their exact differential).
    pub fn with_truncation(mut self, truncation: Truncation) -> Self {
        self.truncation = truncation;
        self
    }

    /// The truncation in use.
    pub fn truncation(&self) -> Truncation {
        self.truncation
    }
}

/// Evaluates the generator and checks it.
pub(crate) fn generator_checked<G: LieGroup, P: LieOde<G> + ?Sized>(
    problem: &mut P,
    t: G::Scalar,
    y: &G,
    stats: &mut Stats,
) -> Result<G::Algebra> {
    stats.rhs_evaluations += 1;
    let xi = problem.generator(t, y);
    if xi.is_finite() {
        Ok(xi)
    } else {
        Err(Error::NonFiniteState {
            what: "generator",
            t: to_f64(t),
        })
    }
}

/// Checks a new state.
pub(crate) fn state_checked<G: LieGroup>(y: G, t: G::Scalar) -> Result<G> {
    if y.is_finite() {
        Ok(y)
    } else {
        Err(Error::NonFiniteState {
            what: "state",
            t: to_f64(t),
        })
    }
}

impl<G: LieGroup, C: Chart<G>, P: LieOde<G> + ?Sized> Step<P> for MuntheKaas<G, C> {
    type State = G;
    type Scalar = G::Scalar;
    type ErrorEstimate = G::Algebra;

    fn step(
        &mut self,
        problem: &mut P,
        t: G::Scalar,
        y: &G,
        h: G::Scalar,
        stats: &mut Stats,
    ) -> Result<Stepped<G, G::Algebra>> {
        check_step_input(t, h)?;
        let side: Side = problem.side();
        let co = &self.coefficients;
        for i in 0..co.stages {
            let ti = t + co.c[i] * h;
            self.k[i] = if co.zero_row[i] {
                // θ_i = 0: the stage is y_n itself and dexp⁻¹₀ = id.
                generator_checked(problem, ti, y, stats)?
            } else {
                let mut theta = G::Algebra::zero();
                for j in 0..i {
                    let aij = co.a(i, j);
                    if aij != real::<G::Scalar>(0.0) {
                        theta = theta.axpy(h * aij, &self.k[j]);
                    }
                }
                let yi = C::update(side, y, &theta);
                let xi = generator_checked(problem, ti, &yi, stats)?;
                C::local_field(side, &theta, &xi, self.truncation)
            };
        }
        let mut theta = G::Algebra::zero();
        for i in 0..co.stages {
            if co.b[i] != real::<G::Scalar>(0.0) {
                theta = theta.axpy(h * co.b[i], &self.k[i]);
            }
        }
        let y1 = state_checked(C::update(side, y, &theta), t + h)?;
        let error = co.b_error.as_ref().map(|e| {
            let mut acc = G::Algebra::zero();
            for (ei, ki) in e.iter().zip(&self.k) {
                if *ei != real::<G::Scalar>(0.0) {
                    acc = acc.axpy(h * *ei, ki);
                }
            }
            acc
        });
        Ok(Stepped { state: y1, error })
    }
}

impl<G: LieGroup, C> Method for MuntheKaas<G, C> {
    fn order(&self) -> usize {
        self.coefficients.order
    }
    fn name(&self) -> &str {
        &self.coefficients.name
    }
}
