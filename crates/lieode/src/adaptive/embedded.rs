//! Any explicit embedded pair with Hairer's step-size control.

use nalgebra::{DefaultAllocator, DimName, OVector, allocator::Allocator};

use super::controller::Controller;
use super::controller::ControllerParameters;
use super::hairer::underflow_cause;
use super::hairer::{initial_step, magnitudes};
use super::tolerance::Tolerances;
use super::{AdaptiveMethod, StepReport, System};
use crate::engine::Stats;
use crate::error::{Error, Result};
use crate::tableau::ButcherTableau;

/// An explicit Runge–Kutta pair `(b, b̂)` of orders `p(p̂)` with the step-size control of
/// Hairer's DOPRI5, for any tableau with embedded weights (Bogacki–Shampine 3(2),
/// Dormand–Prince 5(4), Tsitouras 5(4), …):
///
/// - error `err = √(Σ_i (h Σ_j (b_j − b̂_j) k_j,i / sk_i)² / N)`, `sk_i = atol_i + rtol_i max(|y₀,i|, |y₁,i|)`;
/// - `fac = max(1/fac2, min(1/fac1, err^{1/(q+1) − 0.75β} / (facold^β · safe)))`, `q = min(p, p̂)`,
///   `h_new = h/fac`; accepted when `err ≤ 1`, then `facold = max(err, 1e-4)`;
///   after a rejection the next step may not grow;
/// - the first step by Hairer's HINIT of order `q + 1`; FSAL when the tableau says so; the
///   control is [`super::Controller`], shared with DOPRI5 and DOP853;
/// - dense output from the tableau's continuous weights, or the cubic Hermite interpolant of
///   `(y₀, f₀, y₁, f₁)` (one extra evaluation when the pair is not FSAL).
///
/// # References
/// E. Hairer, S. P. Nørsett, G. Wanner, *Solving Ordinary Differential Equations I*, 2nd ed.,
/// §II.4 (automatic step size control, Eqs. (4.10)–(4.13)), §II.6 (dense output).
#[derive(Debug, Clone)]
pub struct EmbeddedRk<D: DimName>
where
    DefaultAllocator: Allocator<D>,
{
    name: String,
    order: usize,
    error_order: usize,
    s: usize,
    a: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f64>,
    e: Vec<f64>,
    fsal: bool,
    dense_weights: Option<Vec<Vec<f64>>>,
    tolerances: Tolerances,
    parameters: ControllerParameters,
    k: Vec<OVector<f64, D>>,
    x: f64,
    y: OVector<f64, D>,
    f: OVector<f64, D>,
    y_old: OVector<f64, D>,
    f_old: OVector<f64, D>,
    x_old: f64,
    h: f64,
    control: Controller,
    hermite_end: Option<OVector<f64, D>>,
}

impl<D: DimName> EmbeddedRk<D>
where
    DefaultAllocator: Allocator<D>,
{
    /// The pair of an explicit tableau with embedded weights.
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] for an invalid or implicit tableau or one without `b̂`;
    /// [`Error::InvalidParameter`] for invalid tolerances or parameters.
    pub fn new(
        tableau: &ButcherTableau,
        tolerances: Tolerances,
        parameters: ControllerParameters,
    ) -> Result<Self> {
        tableau.validate()?;
        tableau.validate_explicit()?;
        let (Some(b_hat), Some(q)) = (tableau.b_hat.as_ref(), tableau.embedded_order) else {
            return Err(Error::InvalidTableau {
                name: tableau.name.to_string(),
                reason: "an adaptive embedded pair needs embedded weights b̂".into(),
            });
        };
        parameters.validate()?;
        tolerances.check_dimension(D::DIM)?;
        let s = tableau.stages;
        Ok(Self {
            name: tableau.name.to_string(),
            order: tableau.order,
            error_order: q.min(tableau.order),
            s,
            a: tableau.a.to_vec(),
            b: tableau.b.to_vec(),
            c: tableau.c.to_vec(),
            e: tableau
                .b
                .iter()
                .zip(b_hat.iter())
                .map(|(b, bh)| b - bh)
                .collect(),
            fsal: tableau.fsal,
            dense_weights: tableau
                .dense
                .as_ref()
                .map(|d| d.coefficients.iter().map(|row| row.to_vec()).collect()),
            tolerances,
            parameters,
            k: vec![OVector::<f64, D>::zeros(); s],
            x: 0.0,
            y: OVector::<f64, D>::zeros(),
            f: OVector::<f64, D>::zeros(),
            y_old: OVector::<f64, D>::zeros(),
            f_old: OVector::<f64, D>::zeros(),
            x_old: 0.0,
            h: 0.0,
            control: Controller::new(
                &parameters,
                1.0 / (q.min(tableau.order) as f64 + 1.0) - 0.75 * parameters.beta,
            ),
            hermite_end: None,
        })
    }

    fn sk(
        &self,
        system: &(impl System<D> + ?Sized),
        y0: &OVector<f64, D>,
        y1: &OVector<f64, D>,
        i: usize,
    ) -> f64 {
        self.tolerances
            .scale(i, system.magnitude(y0, i), system.magnitude(y1, i))
    }
}

impl<D: DimName> AdaptiveMethod<D> for EmbeddedRk<D>
where
    DefaultAllocator: Allocator<D>,
{
    fn start<S: System<D> + ?Sized>(
        &mut self,
        system: &mut S,
        t0: f64,
        x0: &OVector<f64, D>,
        t_end: f64,
        stats: &mut Stats,
    ) -> Result<()> {
        if !(t0.is_finite() && t_end.is_finite() && t_end != t0) {
            return Err(Error::InvalidParameter {
                name: "t_end",
                value: format!("{t_end:e} (t0 = {t0:e})"),
                expected: "finite times with t_end ≠ t0".into(),
            });
        }
        let sizes = magnitudes(system, x0);
        self.tolerances.check_resolvable(&sizes)?;
        self.x = t0;
        self.control.begin(t0, t_end);
        self.y = x0.clone();
        self.f = system.eval(t0, x0, stats)?;
        self.tolerances
            .check_derivative_scale(&sizes, self.f.as_slice(), t0)?;
        let (posneg, hmax) = (self.control.posneg(), self.control.hmax());
        self.h = match self.parameters.initial_step {
            Some(h) => h.min(hmax) * posneg,
            None => {
                let f0 = self.f.clone();
                let order = self.error_order + 1;
                initial_step(
                    system,
                    &self.tolerances,
                    t0,
                    x0,
                    &f0,
                    posneg,
                    hmax,
                    order,
                    stats,
                )?
            }
        };
        Ok(())
    }

    fn step<S: System<D> + ?Sized>(
        &mut self,
        system: &mut S,
        stats: &mut Stats,
    ) -> Result<StepReport> {
        let n = self.y.len();
        let mut non_finite = None;
        loop {
            let mut h = self.h;
            self.control
                .before_attempt(self.x, &mut h, stats)
                .map_err(|e| underflow_cause(e, non_finite.take()))?;
            self.h = h;
            self.k[0] = self.f.clone();
            for i in 1..self.s {
                let mut yi = self.y.clone();
                for j in 0..i {
                    let aij = self.a[i * self.s + j];
                    if aij != 0.0 {
                        yi.axpy(h * aij, &self.k[j], 1.0);
                    }
                }
                self.k[i] = trial!(
                    system.eval(self.x + self.c[i] * h, &yi, stats),
                    non_finite,
                    self.h = self.control.reject_non_finite(h, stats)
                );
            }
            let mut y1 = self.y.clone();
            for (bi, ki) in self.b.iter().zip(&self.k) {
                if *bi != 0.0 {
                    y1.axpy(h * bi, ki, 1.0);
                }
            }
            let mut sum = 0.0;
            for comp in 0..n {
                let e: f64 = self
                    .e
                    .iter()
                    .zip(&self.k)
                    .map(|(ei, ki)| ei * ki[comp])
                    .sum();
                let sk = self.sk(system, &self.y, &y1, comp);
                sum += (h * e / sk).powi(2);
            }
            let err = (sum / n as f64).sqrt();
            if !err.is_finite() {
                non_finite = Some(Error::NonFiniteState {
                    what: "error estimate",
                    t: self.x,
                });
                self.h = self.control.reject_non_finite(h, stats);
                continue;
            }
            let (fac11, h_new) = self.control.propose(err, h);
            if err <= 1.0 {
                let f1 = if self.fsal {
                    self.k[self.s - 1].clone()
                } else {
                    trial!(
                        system.eval(self.x + h, &y1, stats),
                        non_finite,
                        self.h = self.control.reject_non_finite(h, stats)
                    )
                };
                self.control.accept(err, stats);
                let last = self.control.is_last();
                self.x_old = self.x;
                self.y_old = std::mem::replace(&mut self.y, y1);
                self.f_old = std::mem::replace(&mut self.f, f1);
                // The last step ends exactly on t_end (x + h may miss it by an ulp).
                self.x = if last {
                    self.control.x_end()
                } else {
                    self.x + h
                };
                self.h = self.control.after_accept(h_new, h);
                self.hermite_end = None;
                return Ok(StepReport {
                    t_start: self.x_old,
                    t_end: self.x,
                    finished: last,
                });
            }
            self.h = self.control.reject(fac11, h, stats);
        }
    }

    fn current(&self) -> (f64, &OVector<f64, D>) {
        (self.x, &self.y)
    }

    fn current_derivative(&self) -> &OVector<f64, D> {
        &self.f
    }

    fn rebase(&mut self, x: OVector<f64, D>, derivative: OVector<f64, D>) {
        self.y = x;
        self.f = derivative;
    }

    fn prepare_dense<S: System<D> + ?Sized>(
        &mut self,
        _system: &mut S,
        _stats: &mut Stats,
    ) -> Result<()> {
        // Continuous weights need the step's stages (kept in `k`); the Hermite interpolant
        // needs y₁ and f₁ of the step, saved here before a rebase can move them.
        self.hermite_end = Some(self.y.clone());
        Ok(())
    }

    fn dense(&self, t: f64) -> OVector<f64, D> {
        let h = self.x - self.x_old;
        let theta = if h == 0.0 { 1.0 } else { (t - self.x_old) / h };
        match &self.dense_weights {
            Some(weights) => {
                let mut y = self.y_old.clone();
                for (row, k) in weights.iter().zip(&self.k) {
                    let w = row.iter().rev().fold(0.0, |acc, &q| (acc + q) * theta);
                    if w != 0.0 {
                        y.axpy(h * w, k, 1.0);
                    }
                }
                y
            }
            None => {
                // Cubic Hermite on (y₀, f₀) and (y₁, f₁).
                let y1 = self.hermite_end.as_ref().unwrap_or(&self.y);
                let t2 = theta * theta;
                let t3 = t2 * theta;
                let h00 = 2.0 * t3 - 3.0 * t2 + 1.0;
                let h10 = t3 - 2.0 * t2 + theta;
                let h01 = -2.0 * t3 + 3.0 * t2;
                let h11 = t3 - t2;
                &self.y_old * h00 + &self.f_old * (h * h10) + y1 * h01 + &self.f * (h * h11)
            }
        }
    }

    fn order(&self) -> usize {
        self.order
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn dense_degree(&self) -> usize {
        self.dense_weights
            .as_ref()
            .map_or(3, |w| w.iter().map(|r| r.len()).max().unwrap_or(1))
    }
}
