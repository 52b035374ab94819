//! Error tolerances: scalar or per component, relative and absolute.

use crate::error::{Error, Result};

/// The smallest positive relative tolerance, the machine epsilon `ε`: below it the error test
/// asks for more than the rounding of the state itself (the library's reference runs use
/// `rtol = 2e-15`, within an order of magnitude of it).
pub const MIN_RELATIVE_TOLERANCE: f64 = f64::EPSILON;

/// Relative and absolute tolerances, each either one value for every component or one value per
/// component. Absolute-only control (`rtol = 0`, as Boyle integrates rotations) is allowed.
/// For product groups, per-component tolerances on the algebra coordinates are per-factor
/// tolerances: a rotation's error need not be swamped by a large translational velocity.
///
/// The error test of Hairer's codes uses `sk_i = atol_i + rtol_i · max(|y_i|, |ŷ_i|)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Tolerances {
    rtol: Vec<f64>,
    atol: Vec<f64>,
}

impl Tolerances {
    /// The same `rtol` and `atol` for every component.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `rtol` or `atol` if negative or non-finite, or if both
    /// are zero; naming `rtol` if it is positive but below [`MIN_RELATIVE_TOLERANCE`].
    pub fn scalar(rtol: f64, atol: f64) -> Result<Self> {
        Self::per_component(vec![rtol], vec![atol])
    }

    /// One `rtol` and one `atol` per component (or a single value, used for all).
    ///
    /// # Errors
    /// As [`Tolerances::scalar`], for each entry; empty vectors are invalid, and so are two
    /// vectors of different lengths when neither is a single value (naming `atol`).
    pub fn per_component(rtol: Vec<f64>, atol: Vec<f64>) -> Result<Self> {
        for (name, v) in [("rtol", &rtol), ("atol", &atol)] {
            if v.is_empty() {
                return Err(Error::InvalidParameter {
                    name,
                    value: "[]".into(),
                    expected: "at least one tolerance".into(),
                });
            }
            if let Some(bad) = v.iter().find(|x| !(x.is_finite() && **x >= 0.0)) {
                return Err(Error::InvalidParameter {
                    name,
                    value: format!("{bad:e}"),
                    expected: "finite tolerances ≥ 0".into(),
                });
            }
        }
        if let Some(&small) = rtol
            .iter()
            .find(|&&r| r > 0.0 && r < MIN_RELATIVE_TOLERANCE)
        {
            return Err(Error::InvalidParameter {
                name: "rtol",
                value: format!("{small:e}"),
                expected: format!(
                    "0 (absolute control only) or at least {MIN_RELATIVE_TOLERANCE:e}, the machine \
                     epsilon: a smaller relative tolerance is below what round-off allows"
                ),
            });
        }
        if rtol.len() != 1 && atol.len() != 1 && rtol.len() != atol.len() {
            return Err(Error::InvalidParameter {
                name: "atol",
                value: format!("{} entries (rtol has {})", atol.len(), rtol.len()),
                expected: "as many entries as rtol, or a single value".into(),
            });
        }
        let t = Self { rtol, atol };
        for i in 0..t.rtol.len().max(t.atol.len()) {
            if t.rtol(i) == 0.0 && t.atol(i) == 0.0 {
                return Err(Error::InvalidParameter {
                    name: "atol",
                    value: format!("0 (with rtol = 0) for component {i}"),
                    expected: "rtol > 0 or atol > 0 for every component".into(),
                });
            }
        }
        Ok(t)
    }

    /// Checks that the tolerances can be met in floating point at the state `y0`: a component
    /// controlled by `atol` alone (`rtol = 0`) needs `atol_i ≥ ε |y0_i|`, or no step can
    /// pass the error test and the step size underflows at the start. (With `rtol > 0` this
    /// holds by [`MIN_RELATIVE_TOLERANCE`].)
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `atol`, with the component and the state's value.
    pub(crate) fn check_resolvable(&self, y0: &[f64]) -> Result<()> {
        for (i, &y) in y0.iter().enumerate() {
            let scale = self.atol(i) + self.rtol(i) * y.abs();
            if scale < MIN_RELATIVE_TOLERANCE * y.abs() {
                return Err(Error::InvalidParameter {
                    name: "atol",
                    value: format!(
                        "{:e} for component {i} (y0 = {y:e}, rtol = 0)",
                        self.atol(i)
                    ),
                    expected: format!(
                        "at least machine epsilon × |y0| = {:e}: a smaller tolerance is \
                         below what round-off allows",
                        MIN_RELATIVE_TOLERANCE * y.abs()
                    ),
                });
            }
        }
        Ok(())
    }

    /// Checks that the tolerances can scale the derivative `f0 = F(t0, y0)` at the start of a
    /// run: the adaptive codes' norms sum `(v_i/sk_i)²` with `sk_i = atol_i + rtol_i · m_i`
    /// (`m_i` the size of component `i` of the state as the error test sees it, e.g. `|y0_i|`;
    /// zero for a zero state and for the coordinates of a rotation), and with `v_i = f0_i` that
    /// square must be finite. A component whose `sk_i` is `atol_i` alone — a zero state, a
    /// rotation — and whose `atol_i > 0` lies below `|f0_i| / √(f64::MAX)` (about
    /// `|f0_i| · 7.5·10⁻¹⁵⁵`) fails it: the scaled derivative overflows, so the initial-step
    /// estimate finds no positive step (DOPRI5, DOP853) and the stability check has no
    /// meaning (ODEX). This is the counterpart of [`Tolerances::check_resolvable`], which a
    /// zero state passes.
    ///
    /// Not checked: a component with `sk_i = 0` (`atol_i = 0` and a zero size: pure relative
    /// control, a request rather than a tolerance too small to resolve), and a derivative whose
    /// own square overflows (`|f0_i| > √(f64::MAX)`, about 1.3·10¹⁵⁴), which no `atol ≤ 1`
    /// scales: the codes report those when they use them (a non-finite initial step
    /// estimate).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `atol`, with the component, the time `t0`, the size of
    /// the state and the derivative.
    pub(crate) fn check_derivative_scale(
        &self,
        magnitudes: &[f64],
        f0: &[f64],
        t0: f64,
    ) -> Result<()> {
        let limit = f64::MAX.sqrt();
        for (i, (&m, &f)) in magnitudes.iter().zip(f0).enumerate() {
            let sk = self.atol(i) + self.rtol(i) * m;
            let q = f / sk;
            if sk > 0.0 && f.abs() <= limit && !(q * q).is_finite() {
                return Err(Error::InvalidParameter {
                    name: "atol",
                    value: format!(
                        "{:e} for component {i} at t = {t0:e} (|y0| = {m:e}, rtol = {:e}, \
                         derivative {f:e})",
                        self.atol(i),
                        self.rtol(i)
                    ),
                    expected: format!(
                        "at least |derivative| / √(f64::MAX) = {:e}: with a smaller tolerance \
                         the scaled derivative overflows the error norm, below what f64 \
                         resolves",
                        f.abs() / limit
                    ),
                });
            }
        }
        Ok(())
    }

    /// The relative tolerances as given (one value, or one per component).
    pub fn rtol_values(&self) -> &[f64] {
        &self.rtol
    }

    /// The absolute tolerances as given (one value, or one per component).
    pub fn atol_values(&self) -> &[f64] {
        &self.atol
    }

    /// Checks that per-component tolerances match the dimension `n`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `rtol` or `atol` when a vector has neither one nor `n`
    /// entries.
    pub(crate) fn check_dimension(&self, n: usize) -> Result<()> {
        for (name, v) in [("rtol", &self.rtol), ("atol", &self.atol)] {
            if v.len() != 1 && v.len() != n {
                return Err(Error::InvalidParameter {
                    name,
                    value: format!("{} entries", v.len()),
                    expected: format!("1 or {n} entries"),
                });
            }
        }
        Ok(())
    }

    /// `rtol` of component `i` (`i` below the dimension checked by
    /// [`Tolerances::check_dimension`]).
    #[inline]
    pub(crate) fn rtol(&self, i: usize) -> f64 {
        if self.rtol.len() == 1 {
            self.rtol[0]
        } else {
            self.rtol[i]
        }
    }

    /// `atol` of component `i` (as [`Tolerances::rtol`]).
    #[inline]
    pub(crate) fn atol(&self, i: usize) -> f64 {
        if self.atol.len() == 1 {
            self.atol[0]
        } else {
            self.atol[i]
        }
    }

    /// `sk_i = atol_i + rtol_i · max(a, b)`.
    #[inline]
    pub(crate) fn scale(&self, i: usize, a: f64, b: f64) -> f64 {
        self.atol(i) + self.rtol(i) * a.max(b)
    }
}
