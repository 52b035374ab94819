//! The states `solve_ivp` integrates, as Python sees them: each state type has a flat layout of
//! floats (how states travel to and from Python in arrays), the argument `fun(t, y)` receives,
//! and the derivative `fun` returns (a vector, or an algebra element in the library's
//! coordinates).
//!
//! | state | flat layout | `y` given to `fun` | `fun` returns |
//! |---|---|---|---|
//! | `SVector<N>` | the `N` components | `(N,)` array | `(N,)` |
//! | `So3` | the 3×3 matrix, row by row | `(3, 3)` array | `ω ∈ so(3)`, 3 floats |
//! | `UnitQuat` | `w, x, y, z` | `(4,)` array | `v ∈ su(2)`, 3 floats (`q' = (0, v)·q`) |
//! | `Se3` | the 4×4 matrix, row by row | `(4, 4)` array | `(ρ, φ) ∈ se(3)`, 6 floats |
//! | `Product<G, Rn<N>>` | `G`'s, then the `N` components | `(g, v)` tuple | `G`'s, then `N` |

use lieode::lie::product::Product;
use lieode::lie::rn::Rn;
use lieode::lie::se3::Se3;
use lieode::lie::so3::So3;
use lieode::lie::unit_quaternion::UnitQuat;
use nalgebra::{Matrix3, Matrix4, Quaternion, SVector};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// A state of `solve_ivp` with its flat layout and its Python form.
pub trait PyState: Sized + Clone + Send + Sync + 'static {
    /// The number of floats of the flat layout.
    const FLOATS: usize;
    /// The number of derivative components `fun` returns (the algebra's dimension).
    const DERIVATIVE: usize;

    /// The state from its flat layout (checked: finite, and on the group).
    ///
    /// # Errors
    /// What is wrong with it, for a message naming `y0`.
    fn from_flat(values: &[f64]) -> Result<Self, String>;

    /// Appends the flat layout to `out`.
    fn write_flat(&self, out: &mut Vec<f64>);

    /// The argument `y` of `fun(t, y)`.
    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>>;
}

/// `values` as an `N`-vector (the caller has checked the length).
fn vector<const N: usize>(values: &[f64]) -> SVector<f64, N> {
    SVector::from_iterator(values.iter().copied())
}

/// A library error's text, for a message naming `y0`.
fn reason(error: lieode::Error) -> String {
    error.to_string()
}

impl<const N: usize> PyState for SVector<f64, N> {
    const FLOATS: usize = N;
    const DERIVATIVE: usize = N;

    fn from_flat(values: &[f64]) -> Result<Self, String> {
        Ok(vector(values))
    }

    fn write_flat(&self, out: &mut Vec<f64>) {
        out.extend_from_slice(self.as_slice());
    }

    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyArray1::from_slice(py, self.as_slice()).into_any())
    }
}

impl PyState for So3 {
    const FLOATS: usize = 9;
    const DERIVATIVE: usize = 3;

    fn from_flat(values: &[f64]) -> Result<Self, String> {
        So3::from_matrix(Matrix3::from_row_slice(values)).map_err(reason)
    }

    fn write_flat(&self, out: &mut Vec<f64>) {
        // nalgebra stores columns; the flat layout is row by row (numpy's C order).
        out.extend(self.matrix().transpose().iter());
    }

    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut flat = Vec::with_capacity(9);
        self.write_flat(&mut flat);
        Ok(PyArray1::from_vec(py, flat).reshape([3, 3])?.into_any())
    }
}

impl PyState for UnitQuat {
    const FLOATS: usize = 4;
    const DERIVATIVE: usize = 3;

    fn from_flat(values: &[f64]) -> Result<Self, String> {
        let q = Quaternion::new(values[0], values[1], values[2], values[3]);
        UnitQuat::from_quaternion(q).map_err(reason)
    }

    fn write_flat(&self, out: &mut Vec<f64>) {
        let q = self.quaternion();
        out.extend_from_slice(&[q.w, q.i, q.j, q.k]);
    }

    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let q = self.quaternion();
        Ok(PyArray1::from_slice(py, &[q.w, q.i, q.j, q.k]).into_any())
    }
}

impl PyState for Se3 {
    const FLOATS: usize = 16;
    const DERIVATIVE: usize = 6;

    fn from_flat(values: &[f64]) -> Result<Self, String> {
        Se3::from_matrix(Matrix4::from_row_slice(values)).map_err(reason)
    }

    fn write_flat(&self, out: &mut Vec<f64>) {
        out.extend(self.to_matrix().transpose().iter());
    }

    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut flat = Vec::with_capacity(16);
        self.write_flat(&mut flat);
        Ok(PyArray1::from_vec(py, flat).reshape([4, 4])?.into_any())
    }
}

impl<G: PyState, const N: usize> PyState for Product<G, Rn<N>>
where
    Product<G, Rn<N>>: Copy,
{
    const FLOATS: usize = G::FLOATS + N;
    const DERIVATIVE: usize = G::DERIVATIVE + N;

    fn from_flat(values: &[f64]) -> Result<Self, String> {
        let (g, v) = values.split_at(G::FLOATS);
        Ok(Product(G::from_flat(g)?, Rn(vector(v))))
    }

    fn write_flat(&self, out: &mut Vec<f64>) {
        self.0.write_flat(out);
        out.extend_from_slice(self.1.0.as_slice());
    }

    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let g = self.0.to_python(py)?;
        let v = PyArray1::from_slice(py, self.1.0.as_slice()).into_any();
        Ok(PyTuple::new(py, [g, v])?.into_any())
    }
}
