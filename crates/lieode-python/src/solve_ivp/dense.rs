//! `sol`, the dense output of a run: the library's stored segments (one polynomial per step,
//! on a group in the step's local coordinates, `φ(θ(t))·y_n`), evaluated at any time of the
//! integrated interval.

use lieode::integrate::Solution;
use lieode::stepper::Piece;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;

use super::state::PyState;
use crate::errors::to_py;

/// A run's dense output, whatever its state and segment types.
pub trait Interpolant: Send + Sync {
    /// The number of floats of a state's flat layout.
    fn floats(&self) -> usize;
    /// Appends the state at `t` (in the integrated interval) to `out`, flat.
    ///
    /// # Errors
    /// [`lieode::Error::InvalidParameter`] naming `t` outside the interval.
    fn eval_into(&self, t: f64, out: &mut Vec<f64>) -> lieode::Result<()>;
    /// The times where the steps meet, from the first to the last.
    fn breakpoints(&self) -> Vec<f64>;
}

impl<S: PyState, Seg> Interpolant for Solution<S, Seg>
where
    Seg: Piece<State = S> + Send + Sync,
{
    fn floats(&self) -> usize {
        S::FLOATS
    }

    fn eval_into(&self, t: f64, out: &mut Vec<f64>) -> lieode::Result<()> {
        self.at(t)?.write_flat(out);
        Ok(())
    }

    fn breakpoints(&self) -> Vec<f64> {
        let segments = self.segments();
        let mut times: Vec<f64> = segments.iter().map(|s| s.span().0).collect();
        if let Some(last) = segments.last() {
            times.push(last.span().1);
        }
        times
    }
}

/// The dense output of a run (`OdeResult.sol` wraps it): the state at any time of the
/// integrated interval, flat (one row per time).
#[pyclass(module = "lieode._lieode", name = "DenseOutput", frozen)]
pub struct DenseOutput {
    inner: Box<dyn Interpolant>,
}

impl DenseOutput {
    /// The dense output of a run.
    pub fn new(inner: Box<dyn Interpolant>) -> Self {
        Self { inner }
    }
}

#[pymethods]
impl DenseOutput {
    /// The states at the times `t` (inside the integrated interval), one flat row per time.
    fn __call__<'py>(
        &self,
        py: Python<'py>,
        t: PyReadonlyArray1<'py, f64>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let t = t.as_array();
        let mut flat = Vec::with_capacity(t.len() * self.inner.floats());
        for &ti in t.iter() {
            self.inner
                .eval_into(ti, &mut flat)
                .map_err(|e| to_py(py, e))?;
        }
        PyArray1::from_vec(py, flat).reshape([t.len(), self.inner.floats()])
    }

    /// The times where the steps meet (SciPy's `OdeSolution.ts`).
    #[getter]
    fn ts<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_vec(py, self.inner.breakpoints())
    }
}
