//! N rigid bodies in six degrees of freedom, stepped by any many-body method of the catalogue
//! by name (`lieode::system::CatalogueSystem`), from numpy.
//!
//! - [`runner`]: the catalogue's many-body methods behind one object type, built by name;
//! - [`loads`]: where the loads of an evaluation come from (arrays, the load buffers in
//!   place, a Python callable, or nowhere: a point captured on a copy of the method);
//! - [`arrays`]: numpy views of the Rust arrays and the checks of the arrays users pass;
//! - [`bodies`]: the Python class `_RigidBodies` (wrapped by `lieode.RigidBodies`);
//! - [`mod@reference`]: a run done entirely in Rust, for the tests (bit for bit).

use pyo3::prelude::*;

mod arrays;
mod bodies;
mod loads;
mod reference;
mod runner;

/// Adds the classes and functions of rigid bodies to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<bodies::RigidBodies>()?;
    m.add_function(wrap_pyfunction!(runner::rigid_body_methods, m)?)?;
    m.add_function(wrap_pyfunction!(reference::run_in_rust, m)?)?;
    Ok(())
}
