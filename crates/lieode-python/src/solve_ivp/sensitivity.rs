//! Forward sensitivities of a vector ODE's **computed** solution, from the user's Jacobians.
//!
//! Dual numbers cannot pass through a Python callable, so the derivative is carried as the
//! tangent-linear system instead: the primal run's accepted times are kept (the step sequence
//! **frozen**) and every step is taken again with the same explicit tableau on the augmented
//! system
//!
//! ```text
//! y' = f(t, y),   S' = J(t, y) S + [0 | F_p(t, y)],   S(t₀) = [I | 0]
//! ```
//!
//! with `J = ∂f/∂y` (`jac`) and `F_p = ∂f/∂p` (`jac_p`) evaluated at the stage points. An
//! explicit Runge–Kutta step is linear in its stage derivatives, so differentiating
//! `y₁ = y₀ + h Σ b_i f(t₀ + c_i h, Y_i)`, `Y_i = y₀ + h Σ_j a_ij f(…, Y_j)` gives
//! `S₁ = S₀ + h Σ b_i (J(Y_i) S_i + F_p(Y_i))`, `S_i = S₀ + h Σ_j a_ij (J(Y_j) S_j + F_p(Y_j))`:
//! the same tableau applied to the augmented system (RK commutes with linearisation; HNW I,
//! §II.6, internal differentiation). `S` is therefore the exact derivative of the computed
//! solution with the step sizes held fixed, up to rounding — what the core's
//! `lieode::sensitivity::replay` computes on dual numbers.
//!
//! Every step starts again from the primal run's state `y_k` (not from the replay's own `y`),
//! so the states returned are the primal run's bit for bit and `S` is linearised at exactly
//! those states; the replay's own end state `y₁` is compared with `y_{k+1}`
//! ([`Tangent::deviation`], rounding only: `~1e-15` relative).
//!
//! Between the steps `S(t)` is the derivative of the method's dense output, which is again
//! linear in the stages: Shampine's continuous weights (DOPRI5, tableaux with `dense`), Hairer's
//! `CONTD8` with its three extra stages (DOP853), or the cubic Hermite interpolant of the
//! embedded tableaux without continuous weights, each applied to `(S, J S + F_p)`.

use lieode::adaptive::dop853::{DOP853_DENSE_A, DOP853_DENSE_C, DOP853_DENSE_D};
use lieode::tableau::ButcherTableau;
use lieode::tableau::registry::{DOP853, DOPRI5};
use nalgebra::{Const, Dyn, OMatrix, SMatrix, SVector};
use numpy::{PyArray2, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

use super::callbacks::{Callbacks, error, invalid};
use super::config::MethodSpec;
use crate::errors::NonFiniteError;

/// A block of sensitivities: `N` rows (the state), one column per direction.
type Block<const N: usize> = OMatrix<f64, Const<N>, Dyn>;

/// What the caller asked for: the Jacobian callables and whether the initial state is a
/// direction (its `N` directions come first, then `jac_p`'s columns).
pub struct Request<'py> {
    /// `jac(t, y, *args)` → `(n, n)`, `∂f/∂y`.
    pub jac: Bound<'py, PyAny>,
    /// `jac_p(t, y, *args)` → `(n, n_p)`, `∂f/∂p` (`None`: no parameter directions).
    pub jac_p: Option<Bound<'py, PyAny>>,
    /// Whether the derivatives with respect to `y0` are asked for.
    pub y0: bool,
}

/// The sensitivities of a run at its output times.
pub struct Tangent {
    /// Per output time, the `n × m` matrix `∂y_i/∂(direction j)`, row-major.
    pub values: Vec<f64>,
    /// The number of directions `m`.
    pub directions: usize,
    /// Evaluations of `jac` (and as many of `jac_p`, when given).
    pub njev: usize,
    /// Evaluations of `fun` in the replay.
    pub nfev: usize,
    /// `max_k ‖y₁ − y_{k+1}‖_∞ / ‖y_{k+1}‖_∞` over the steps: how far the replay's own end
    /// states are from the primal run's (rounding only; 0 for a run without steps).
    pub deviation: f64,
}

/// How the derivative between two accepted times is formed (as the primal dense output).
#[derive(Debug, Clone)]
enum Dense {
    /// No dense output (a fixed-step tableau: `t_eval` is refused there).
    None,
    /// `S(t₀ + θh) = S₀ + h Σ_i b_i(θ) K_i`, `b_i(θ) = Σ_m w_im θ^{m+1}` over the tableau's
    /// stages.
    Weights(Vec<Vec<f64>>),
    /// Hairer's `CONTD8` with the FSAL stage and three extra stages.
    Dop853,
    /// The cubic Hermite interpolant of `(S₀, K₀)` and `(S₁, K_end)`.
    Hermite,
}

/// The explicit tableau a run is replayed with, and its dense output.
#[derive(Debug, Clone)]
pub struct Scheme {
    stages: usize,
    /// `A`, row-major.
    a: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f64>,
    /// The stages a step needs for `y₁` (those after the last non-zero weight are skipped).
    needed: usize,
    dense: Dense,
}

impl Scheme {
    /// The replay of `method`: DOPRI5 and DOP853 by their registered tableaux, a user's tableau
    /// by itself. `None` for ODEX (extrapolation has no fixed tableau to replay).
    pub fn of(method: &MethodSpec) -> Option<Self> {
        Some(match method {
            MethodSpec::Dopri5 => Self::new(&DOPRI5, Self::weights(&DOPRI5)),
            MethodSpec::Dop853 => Self::new(&DOP853, Dense::Dop853),
            MethodSpec::Embedded(t) => Self::new(t, Self::weights(t)),
            MethodSpec::Fixed(t) => Self::new(t, Dense::None),
            MethodSpec::Odex => return None,
        })
    }

    /// The tableau's continuous weights, or the Hermite interpolant without them (as
    /// `lieode::adaptive::EmbeddedRk`).
    fn weights(t: &ButcherTableau) -> Dense {
        match &t.dense {
            Some(d) => Dense::Weights(d.coefficients.iter().map(|r| r.to_vec()).collect()),
            None => Dense::Hermite,
        }
    }

    fn new(t: &ButcherTableau, dense: Dense) -> Self {
        let needed = t.b.iter().rposition(|&b| b != 0.0).map_or(0, |i| i + 1);
        Self {
            stages: t.stages,
            a: t.a.to_vec(),
            b: t.b.to_vec(),
            c: t.c.to_vec(),
            needed,
            dense,
        }
    }

    fn a(&self, i: usize, j: usize) -> f64 {
        self.a.get(i * self.stages + j).copied().unwrap_or(0.0)
    }
}

/// One stage of a step: its derivative `f` and the derivative of its sensitivities
/// `K = J S + [0 | F_p]`.
struct Slope<const N: usize> {
    f: SVector<f64, N>,
    k: Block<N>,
}

/// The callables of the tangent-linear system and their counts.
pub struct Jacobians<'a, 'py, const N: usize> {
    callbacks: &'a Callbacks<'py>,
    request: &'a Request<'py>,
    /// The number of parameter directions (`jac_p`'s columns).
    params: usize,
    njev: usize,
    nfev: usize,
    /// The last evaluation of the Jacobians, reused at the same `(t, y)` (the probe at `t₀`
    /// is the first stage of the first step).
    last: Option<(f64, SVector<f64, N>, SMatrix<f64, N, N>, Block<N>)>,
}

impl<'a, 'py, const N: usize> Jacobians<'a, 'py, N> {
    /// The Jacobians of a run, evaluated once at `(t0, y0)` before the primal run: a wrong
    /// shape or a non-finite entry is reported before any integration, and `jac_p`'s columns
    /// give the number of parameters.
    ///
    /// # Errors
    /// `InvalidParameterError` naming `jac` or `jac_p` for a result of the wrong shape,
    /// `NonFiniteError` naming it for a non-finite entry (both with `t`); what they raise.
    pub fn probe(
        callbacks: &'a Callbacks<'py>,
        request: &'a Request<'py>,
        t0: f64,
        y0: &SVector<f64, N>,
    ) -> PyResult<Self> {
        let mut jacobians = Self {
            callbacks,
            request,
            params: 0,
            njev: 0,
            nfev: 0,
            last: None,
        };
        // jac_p's columns give the number of parameters; the probe is also the first stage.
        let p = jacobians.parameter_jacobian(t0, y0, None)?;
        jacobians.params = p.ncols();
        let j = jacobians.jacobian(t0, y0)?;
        jacobians.last = Some((t0, *y0, j, p));
        Ok(jacobians)
    }

    /// The number of directions: `N` for `y0` (if asked), then one per parameter.
    pub fn directions(&self) -> usize {
        if self.request.y0 {
            N + self.params
        } else {
            self.params
        }
    }

    /// `S(t₀)`: the identity for `y0`'s directions, zero for the parameters'.
    fn seed(&self) -> Block<N> {
        let mut s = Block::<N>::zeros_generic(Const::<N>, Dyn(self.directions()));
        if self.request.y0 {
            for i in 0..N {
                s[(i, i)] = 1.0;
            }
        }
        s
    }

    /// `J(t, y)` and `F_p(t, y)` (`N × n_p`), read and checked.
    fn jacobians(
        &mut self,
        t: f64,
        y: &SVector<f64, N>,
    ) -> PyResult<(SMatrix<f64, N, N>, Block<N>)> {
        if let Some((tl, yl, j, p)) = &self.last
            && *tl == t
            && yl == y
        {
            return Ok((*j, p.clone()));
        }
        let j = self.jacobian(t, y)?;
        let p = self.parameter_jacobian(t, y, Some(self.params))?;
        self.last = Some((t, *y, j, p.clone()));
        Ok((j, p))
    }

    /// `J(t, y)`, counted.
    fn jacobian(&mut self, t: f64, y: &SVector<f64, N>) -> PyResult<SMatrix<f64, N, N>> {
        self.njev += 1;
        let value = self.callbacks.call(&self.request.jac, t, y)?;
        let (_, flat) = read_matrix(self.callbacks.py(), &value, N, Some(N), "jac", t)?;
        Ok(SMatrix::<f64, N, N>::from_row_slice(&flat))
    }

    /// `F_p(t, y)` with `cols` columns (any number at the probe), `N × 0` without `jac_p`.
    fn parameter_jacobian(
        &self,
        t: f64,
        y: &SVector<f64, N>,
        cols: Option<usize>,
    ) -> PyResult<Block<N>> {
        let Some(jac_p) = &self.request.jac_p else {
            return Ok(Block::<N>::zeros_generic(Const::<N>, Dyn(0)));
        };
        let value = self.callbacks.call(jac_p, t, y)?;
        let (cols, flat) = read_matrix(self.callbacks.py(), &value, N, cols, "jac_p", t)?;
        Ok(Block::<N>::from_row_slice_generic(
            Const::<N>,
            Dyn(cols),
            &flat,
        ))
    }

    /// `f(t, y)` and `J S + [0 | F_p]` at a stage.
    fn slope(&mut self, t: f64, y: &SVector<f64, N>, s: &Block<N>) -> PyResult<Slope<N>> {
        let mut f = SVector::<f64, N>::zeros();
        self.nfev += 1;
        self.callbacks.derivative(t, y, f.as_mut_slice());
        if let Some(failure) = self.callbacks.take_failure() {
            return Err(failure);
        }
        if !f.iter().all(|v| v.is_finite()) {
            return Err(non_finite(self.callbacks.py(), "fun", t));
        }
        let (j, p) = self.jacobians(t, y)?;
        let mut k = j * s;
        let first = if self.request.y0 { N } else { 0 };
        let mut columns = k.columns_mut(first, self.params);
        columns += &p;
        Ok(Slope { f, k })
    }
}

/// A `NonFiniteError` naming `name` at `t`.
fn non_finite(py: Python<'_>, name: &str, t: f64) -> PyErr {
    error::<NonFiniteError>(
        py,
        format!("`{name}` returned a non-finite value at t = {t:e}"),
        Some(name),
        Some(t),
    )
}

/// Reads a Jacobian `name` returned at `t`: a two-dimensional real array with `rows` rows and
/// `cols` columns (any number ≥ 1 when `None`), or a SciPy sparse matrix (`toarray()`).
/// Returns the columns and the entries row by row.
fn read_matrix(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    rows: usize,
    cols: Option<usize>,
    name: &str,
    t: f64,
) -> PyResult<(usize, Vec<f64>)> {
    let expected = match cols {
        Some(c) => format!("({rows}, {c})"),
        None => format!("({rows}, n_p) with n_p ≥ 1"),
    };
    let wrong = |what: String| {
        invalid(
            py,
            name,
            Some(t),
            format!(
                "invalid parameter `{name}`: it returned {what} at t = {t:e}; expected a real \
                 array of shape {expected}"
            ),
        )
    };
    // Fast path: a float64 numpy array (what a Jacobian written with numpy returns).
    if let Ok(array) = value.cast::<PyArray2<f64>>() {
        let shape = array.shape().to_vec();
        if shape[0] == rows && cols.map_or(shape[1] >= 1, |c| shape[1] == c) {
            let flat: Vec<f64> = array.readonly().as_array().iter().copied().collect();
            if !flat.iter().all(|v| v.is_finite()) {
                return Err(non_finite(py, name, t));
            }
            return Ok((shape[1], flat));
        }
    }
    let dense = if value.hasattr("toarray")? {
        value.call_method0("toarray")?
    } else {
        value.clone()
    };
    let numpy = py.import("numpy")?;
    let is_complex: bool = numpy.getattr("iscomplexobj")?.call1((&dense,))?.extract()?;
    if is_complex {
        return Err(wrong("complex values".into()));
    }
    let converted = numpy
        .getattr("asarray")?
        .call1((&dense, numpy.getattr("float64")?))
        .map_err(|_| wrong(describe(value)))?;
    let array = converted
        .cast::<PyArrayDyn<f64>>()
        .map_err(|_| wrong(describe(value)))?;
    let shape = array.shape().to_vec();
    let fits =
        shape.len() == 2 && shape[0] == rows && cols.map_or(shape[1] >= 1, |c| shape[1] == c);
    if !fits {
        return Err(wrong(format!("an array of shape {}", shape_text(&shape))));
    }
    // ndarray iterates in logical (row-major) order whatever the strides.
    let flat: Vec<f64> = array.readonly().as_array().iter().copied().collect();
    if !flat.iter().all(|v| v.is_finite()) {
        return Err(non_finite(py, name, t));
    }
    Ok((shape[1], flat))
}

/// A shape as numpy writes it: `(3, 2)`, `(9,)`.
fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => {
            let parts: Vec<String> = shape.iter().map(|n| n.to_string()).collect();
            format!("({})", parts.join(", "))
        }
    }
}

/// The type of a returned value, for messages.
fn describe(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| format!("a {n}"))
}

/// `acc += w x`.
fn add_scaled<const N: usize>(acc: &mut Block<N>, w: f64, x: &Block<N>) {
    for (a, b) in acc.as_mut_slice().iter_mut().zip(x.as_slice()) {
        *a += w * b;
    }
}

/// `y₀ + h Σ w_j f_j` and `S₀ + h Σ w_j K_j` over the slopes with non-zero weight.
fn combine<'s, const N: usize>(
    y0: &SVector<f64, N>,
    s0: &Block<N>,
    h: f64,
    terms: impl Iterator<Item = (f64, &'s Slope<N>)>,
) -> (SVector<f64, N>, Block<N>) {
    let mut y = *y0;
    let mut s = s0.clone();
    for (w, slope) in terms {
        if w != 0.0 {
            y.axpy(h * w, &slope.f, 1.0);
            add_scaled(&mut s, h * w, &slope.k);
        }
    }
    (y, s)
}

/// One step of the tangent-linear system from `(t0, y0, s0)` to `t1` (`y_end` the primal
/// run's state there): `y₁`, `S₁`, and the slopes the dense output needs (`dense`).
struct StepOut<const N: usize> {
    y1: SVector<f64, N>,
    s1: Block<N>,
    slopes: Vec<Slope<N>>,
}

impl<const N: usize> Jacobians<'_, '_, N> {
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        scheme: &Scheme,
        t0: f64,
        t1: f64,
        y0: &SVector<f64, N>,
        s0: &Block<N>,
        y_end: &SVector<f64, N>,
        dense: bool,
    ) -> PyResult<StepOut<N>> {
        let h = t1 - t0;
        let count = if dense { scheme.stages } else { scheme.needed };
        let mut slopes: Vec<Slope<N>> = Vec::with_capacity(count + 4);
        for i in 0..count {
            let (y, s) = combine(
                y0,
                s0,
                h,
                slopes.iter().enumerate().map(|(j, k)| (scheme.a(i, j), k)),
            );
            let c = scheme.c.get(i).copied().unwrap_or(0.0);
            slopes.push(self.slope(t0 + c * h, &y, &s)?);
        }
        let (y1, s1) = combine(y0, s0, h, scheme.b.iter().copied().zip(&slopes));
        if !s1.iter().all(|v| v.is_finite()) {
            return Err(non_finite(self.callbacks.py(), "sensitivities", t1));
        }
        if dense {
            match scheme.dense {
                Dense::None | Dense::Weights(_) => {}
                Dense::Hermite => slopes.push(self.slope(t1, y_end, &s1)?),
                Dense::Dop853 => {
                    // Stage 13 is the FSAL evaluation at the step's end; 14–16 Hairer's extras.
                    slopes.push(self.slope(t1, y_end, &s1)?);
                    for (row, c) in DOP853_DENSE_A.iter().zip(DOP853_DENSE_C) {
                        let (y, s) = combine(y0, s0, h, row.iter().copied().zip(&slopes));
                        slopes.push(self.slope(t0 + c * h, &y, &s)?);
                    }
                }
            }
        }
        Ok(StepOut { y1, s1, slopes })
    }
}

/// `S(t₀ + θh)` inside a step (`0 < θ < 1`), the derivative of the method's dense output.
fn interpolate<const N: usize>(
    scheme: &Scheme,
    theta: f64,
    h: f64,
    s0: &Block<N>,
    out: &StepOut<N>,
) -> Block<N> {
    let ks = &out.slopes;
    match &scheme.dense {
        Dense::None => s0.clone(),
        Dense::Weights(weights) => {
            let mut s = s0.clone();
            for (row, slope) in weights.iter().zip(ks) {
                let w = row.iter().rev().fold(0.0, |acc, &q| (acc + q) * theta);
                add_scaled(&mut s, h * w, &slope.k);
            }
            s
        }
        Dense::Hermite => {
            let (t2, t3) = (theta * theta, theta * theta * theta);
            let h00 = 2.0 * t3 - 3.0 * t2 + 1.0;
            let h10 = t3 - 2.0 * t2 + theta;
            let h01 = -2.0 * t3 + 3.0 * t2;
            let h11 = t3 - t2;
            let end = &ks[ks.len() - 1].k;
            s0 * h00 + &ks[0].k * (h * h10) + &out.s1 * h01 + end * (h * h11)
        }
        Dense::Dop853 => {
            // CONTD8: y₀ + s(Δ + s₁(B + s(C + s₁(D₄ + s(D₅ + s₁(D₆ + s D₇)))))).
            let (s, s1) = (theta, 1.0 - theta);
            let delta = &out.s1 - s0;
            let b = &ks[0].k * h - &delta;
            let c = &delta - &ks[12].k * h - &b;
            let d: Vec<Block<N>> = DOP853_DENSE_D
                .iter()
                .map(|row| {
                    let mut acc = Block::<N>::zeros_generic(Const::<N>, Dyn(s0.ncols()));
                    for (w, slope) in row.iter().zip(ks) {
                        if *w != 0.0 {
                            add_scaled(&mut acc, h * w, &slope.k);
                        }
                    }
                    acc
                })
                .collect();
            let conpar = &d[0] + (&d[1] + (&d[2] + &d[3] * s) * s1) * s;
            s0 + (delta + (b + (c + conpar * s1) * s) * s1) * s
        }
    }
}

impl<const N: usize> Jacobians<'_, '_, N> {
    /// The sensitivities at `out_t` of the run whose accepted times and states are `grid_t`
    /// and `grid_y` (flat), replayed with `scheme`.
    ///
    /// # Errors
    /// What `fun`, `jac` and `jac_p` raise; their wrong shapes and non-finite values;
    /// `NonFiniteError` naming `sensitivities` if `S` overflows; `KeyboardInterrupt`.
    pub fn replay(
        mut self,
        scheme: &Scheme,
        grid_t: &[f64],
        grid_y: &[f64],
        out_t: &[f64],
    ) -> PyResult<Tangent> {
        let py = self.callbacks.py();
        let m = self.directions();
        let states: Vec<SVector<f64, N>> = grid_y
            .chunks_exact(N)
            .map(SVector::from_column_slice)
            .collect();
        let mut values = Vec::with_capacity(out_t.len() * N * m);
        let push = |values: &mut Vec<f64>, s: &Block<N>| {
            for i in 0..N {
                values.extend(s.row(i).iter());
            }
        };
        let mut s = self.seed();
        let mut next = 0; // the next output time
        // Output times at the grid's first time (t₀) need no step.
        while next < out_t.len() && grid_t.first() == Some(&out_t[next]) {
            push(&mut values, &s);
            next += 1;
        }
        let mut deviation: f64 = 0.0;
        for (k, w) in grid_t.windows(2).enumerate() {
            let (t0, t1) = (w[0], w[1]);
            let inside = |t: f64| (t - t0) * (t - t1) <= 0.0;
            let dense = out_t
                .get(next)
                .is_some_and(|&t| inside(t) && t != t1 && t != t0);
            let (y0, y_end) = (&states[k], &states[k + 1]);
            let out = self.step(scheme, t0, t1, y0, &s, y_end, dense)?;
            let scale = y_end.amax();
            let gap = (out.y1 - y_end).amax();
            deviation = deviation.max(if scale > 0.0 { gap / scale } else { gap });
            while let Some(&t) = out_t.get(next) {
                if !inside(t) {
                    break;
                }
                if t == t1 {
                    push(&mut values, &out.s1);
                } else {
                    let theta = (t - t0) / (t1 - t0);
                    push(&mut values, &interpolate(scheme, theta, t1 - t0, &s, &out));
                }
                next += 1;
            }
            s = out.s1;
            if k % 64 == 63 {
                py.check_signals()?;
            }
        }
        Ok(Tangent {
            values,
            directions: m,
            njev: self.njev,
            nfev: self.nfev,
            deviation,
        })
    }
}
