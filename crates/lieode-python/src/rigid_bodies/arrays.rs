//! Numpy views of the Rust arrays, and the checks of the arrays users pass.
//!
//! A view's memory belongs to the bodies' object (a run's arrays, the load buffers, a copy of a
//! load point), which the view holds as its base: the memory lives as long as any view of it.
//! The arrays are allocated when a run starts and written in place afterwards, and an object
//! starts one run only (`lieode.RigidBodies` makes a new one for each start), so no view ever
//! sees freed memory.

use nalgebra::{Quaternion, Vector3};
use numpy::ndarray::{ArrayView2, ShapeBuilder};
use numpy::npyffi::flags::NPY_ARRAY_WRITEABLE;
use numpy::{PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::errors::{InvalidParameterError, NonFiniteError, with_context};

/// An `InvalidParameterError` naming `parameter`, with the time and the body where known.
pub fn invalid(parameter: &str, t: Option<f64>, body: Option<usize>, message: String) -> PyErr {
    with_context(InvalidParameterError::new_err(message), parameter, t, body)
}

/// A `NonFiniteError` naming `parameter`, the body and the time.
pub fn non_finite(parameter: &str, t: Option<f64>, body: usize, message: String) -> PyErr {
    with_context(NonFiniteError::new_err(message), parameter, t, Some(body))
}

/// A load array (forces or torques, `(N, 3)` float64), as the user passed it.
#[derive(Debug, Clone)]
pub enum LoadArray<'a> {
    /// C-contiguous: one row per body.
    Contiguous(&'a [Vector3<f64>]),
    /// Any other layout.
    Strided(ArrayView2<'a, f64>),
}

impl<'a> LoadArray<'a> {
    /// The array behind a checked `(N, 3)` float64 array.
    pub fn from_readonly(array: &'a PyReadonlyArray2<'_, f64>) -> Self {
        match array.as_slice() {
            Ok(flat) => Self::Contiguous(as_vectors(flat)),
            Err(_) => Self::Strided(array.as_array()),
        }
    }

    /// Whether the array is the memory at `address` (a load buffer given back to the step).
    pub fn is_at(&self, address: *const Vector3<f64>) -> bool {
        matches!(self, Self::Contiguous(s) if std::ptr::eq(s.as_ptr(), address))
    }

    /// Copies the array into `out` (one entry per body).
    pub fn copy_into(&self, out: &mut [Vector3<f64>]) {
        match self {
            Self::Contiguous(rows) => {
                if std::ptr::eq(rows.as_ptr(), out.as_ptr()) {
                    return;
                }
                copy_parallel(rows, out);
            }
            Self::Strided(view) => {
                for (o, row) in out.iter_mut().zip(view.rows()) {
                    *o = Vector3::new(row[0], row[1], row[2]);
                }
            }
        }
    }
}

/// The bodies a parallel copy task takes at least.
const COPY_CHUNK: usize = 1 << 15;

/// `out = rows`, on rayon's pool in chunks for large arrays.
fn copy_parallel<T: Copy + Send + Sync>(rows: &[T], out: &mut [T]) {
    use rayon::prelude::*;
    if rows.len() < 2 * COPY_CHUNK {
        out.copy_from_slice(rows);
    } else {
        out.par_chunks_mut(COPY_CHUNK)
            .zip(rows.par_chunks(COPY_CHUNK))
            .for_each(|(o, r)| o.copy_from_slice(r));
    }
}

/// `flat` (3N floats) as N vectors.
pub fn as_vectors(flat: &[f64]) -> &[Vector3<f64>] {
    // SAFETY: `Vector3<f64>` is three `f64` in a `#[repr(C)]` matrix over a
    // `#[repr(transparent)]` array: size 24, alignment 8, any bits valid. `flat` has 3N
    // entries (the caller's shape check), so the N vectors lie inside it.
    unsafe { std::slice::from_raw_parts(flat.as_ptr().cast(), flat.len() / 3) }
}

/// A pair `(forces, torques)` of `(n, 3)` float64 arrays at the time `t`, each checked as
/// [`load_array`] checks it; anything but a pair is an `InvalidParameterError` naming `loads`
/// with the message `not_a_pair` gives.
pub fn load_pair<'py>(
    value: &Bound<'py, PyAny>,
    n: usize,
    t: f64,
    not_a_pair: impl FnOnce() -> String,
) -> PyResult<(PyReadonlyArray2<'py, f64>, PyReadonlyArray2<'py, f64>)> {
    let pair = (value.cast::<PyTuple>().ok())
        .filter(|p| p.len() == 2)
        .ok_or_else(|| invalid("loads", Some(t), None, not_a_pair()))?;
    Ok((
        load_array(&pair.get_item(0)?, "forces", n, Some(t))?,
        load_array(&pair.get_item(1)?, "torques", n, Some(t))?,
    ))
}

/// Checks that `value` (the parameter `name`) is an `(n, 3)` float64 array, and borrows it.
pub fn load_array<'py>(
    value: &Bound<'py, PyAny>,
    name: &str,
    n: usize,
    t: Option<f64>,
) -> PyResult<PyReadonlyArray2<'py, f64>> {
    let describe = || match value.cast::<PyUntypedArray>() {
        Ok(array) => format!(
            "an array of dtype {} and shape {:?}",
            array
                .dtype()
                .str()
                .map_or_else(|_| "?".into(), |s| s.to_string()),
            array.shape()
        ),
        Err(_) => format!(
            "a {}",
            value
                .get_type()
                .name()
                .map_or_else(|_| "?".into(), |s| s.to_string())
        ),
    };
    let when = t.map_or_else(String::new, |t| format!(" at t = {t:e}"));
    let wrong = || {
        invalid(
            name,
            t,
            None,
            format!(
                "invalid parameter `{name}`{when}: expected a float64 array of shape ({n}, 3), \
                 got {}",
                describe()
            ),
        )
    };
    let array = value.cast::<PyArray2<f64>>().map_err(|_| wrong())?;
    if array.shape() != [n, 3] {
        return Err(wrong());
    }
    array
        .try_readonly()
        .map_err(|e| invalid(name, t, None, format!("invalid parameter `{name}`: {e}")))
}

/// A read-only view of `rows` (N vectors) as an `(N, 3)` array owned by `owner`.
pub fn vectors<'py>(owner: &Bound<'py, PyAny>, rows: &[Vector3<f64>]) -> Bound<'py, PyArray2<f64>> {
    let flat = rows.as_ptr().cast::<f64>();
    // SAFETY: the vectors are 3N contiguous floats (see `as_vectors`).
    let flat = unsafe { std::slice::from_raw_parts(flat, 3 * rows.len()) };
    view_of(owner, flat, 3)
}

/// A read-only view of `rotors` as an `(N, 4)` array in nalgebra's storage order `(x, y, z, w)`
/// (scalar last) owned by `owner`.
pub fn quaternions<'py>(
    owner: &Bound<'py, PyAny>,
    rotors: &[Quaternion<f64>],
) -> Bound<'py, PyArray2<f64>> {
    let flat = rotors.as_ptr().cast::<f64>();
    // SAFETY: a `Quaternion<f64>` is a `#[repr(C)]` wrapper of one `Vector4<f64>`: four
    // contiguous floats, the vector part first.
    let flat = unsafe { std::slice::from_raw_parts(flat, 4 * rotors.len()) };
    view_of(owner, flat, 4)
}

/// A read-only view of `flat` as an `(len / columns, columns)` array owned by `owner`.
pub fn view_of<'py>(
    owner: &Bound<'py, PyAny>,
    flat: &[f64],
    columns: usize,
) -> Bound<'py, PyArray2<f64>> {
    let array = view_mut_of(owner, flat.as_ptr().cast_mut(), flat.len(), columns);
    // SAFETY: the array was just created; clearing the flag makes it read-only (numpy refuses
    // to set it back, the base being no array).
    unsafe {
        (*array.as_array_ptr()).flags &= !NPY_ARRAY_WRITEABLE;
    }
    array
}

/// A writable view of `rows` (the load buffers) owned by `owner`.
pub fn vectors_mut<'py>(
    owner: &Bound<'py, PyAny>,
    rows: &mut [Vector3<f64>],
) -> Bound<'py, PyArray2<f64>> {
    view_mut_of(owner, rows.as_mut_ptr().cast(), 3 * rows.len(), 3)
}

fn view_mut_of<'py>(
    owner: &Bound<'py, PyAny>,
    data: *mut f64,
    len: usize,
    columns: usize,
) -> Bound<'py, PyArray2<f64>> {
    let rows = len / columns;
    // SAFETY: `data` points to `len` floats owned by `owner` (see the module documentation),
    // which the new array holds as its base; an empty array's pointer is dangling but never
    // read.
    unsafe {
        let view = ArrayView2::from_shape_ptr((rows, columns).strides((columns, 1)), data);
        PyArray2::borrow_from_array(&view, owner.clone())
    }
}

/// Writes `rotors` scalar first, `(w, x, y, z)` per rotor, into `out` (4N floats; resized
/// once).
pub fn scalar_first_into(rotors: &[Quaternion<f64>], out: &mut Vec<f64>) {
    use rayon::prelude::*;
    out.resize(4 * rotors.len(), 0.0);
    let one = |(o, q): (&mut [f64], &Quaternion<f64>)| o.copy_from_slice(&[q.w, q.i, q.j, q.k]);
    if rotors.len() < 2 * COPY_CHUNK {
        out.chunks_exact_mut(4).zip(rotors).for_each(one);
    } else {
        out.par_chunks_exact_mut(4)
            .zip(rotors.par_iter())
            .with_min_len(COPY_CHUNK)
            .for_each(one);
    }
}
