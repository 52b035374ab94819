//! `lieode.ButcherTableau`: the library's tableau type in Python — built and validated by the
//! library ([`ButcherTableau::new`], its `with_*` builders and the order conditions computed
//! from the stored coefficients), or taken from the registry of named methods.

use lieode::tableau::order_conditions::{ORDER_CONDITION_TOLERANCE, Weights, achieved_order};
use lieode::tableau::{ButcherTableau, Family, registry};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;

use crate::errors::to_py;

/// A Butcher tableau, validated by the library.
///
/// ``ButcherTableau(a, b, c, b_hat=None, order=None, embedded_order=None, name="custom",
/// fsal=None)``: ``a`` is the ``s × s`` matrix (explicit methods: zero on and above the
/// diagonal), ``b`` the weights, ``c`` the nodes, ``b_hat`` the embedded weights (then the
/// method runs adaptively in ``solve_ivp``; without, it runs with a fixed ``step``).
/// ``order`` and ``embedded_order`` are checked against the order conditions computed from the
/// coefficients (up to order 8, to 1e-12); left out, they are the highest orders the
/// coefficients reach. ``fsal`` (first same as last) is detected when left out.
///
/// Raises ``InvalidParameterError`` (``parameter = "tableau"``) with the library's reason:
/// shapes, non-finite entries, row sums ``Σ_j a_ij ≠ c_i``, ``Σ b_i ≠ 1``, an order the
/// coefficients do not reach (naming the condition and its residual).
///
/// ``ButcherTableau.named("rk4")`` returns a registered method (``ButcherTableau.names()``
/// lists them).
#[pyclass(module = "lieode", name = "ButcherTableau", frozen)]
#[derive(Debug, Clone)]
pub struct PyButcherTableau {
    /// The library's tableau.
    pub inner: ButcherTableau,
}

/// The tableau with the highest order its weights reach, if `order` is not given.
fn with_order(
    name: &str,
    a: Vec<Vec<f64>>,
    b: Vec<f64>,
    c: Vec<f64>,
    order: Option<usize>,
) -> lieode::Result<ButcherTableau> {
    let name = name.to_string();
    match order {
        Some(order) => ButcherTableau::new(name, a, b, c, order),
        None => {
            let first = ButcherTableau::new(name.clone(), a.clone(), b.clone(), c.clone(), 1)?;
            let reached = achieved_order(&first, Weights::Main, ORDER_CONDITION_TOLERANCE)?;
            ButcherTableau::new(name, a, b, c, reached.max(1))
        }
    }
}

/// Whether the coefficients are first same as last: first row of `A` zero, last row `b`,
/// `c_s = 1`.
fn looks_fsal(t: &ButcherTableau) -> bool {
    let s = t.stages;
    s > 1
        && t.a[..s].iter().all(|&x| x == 0.0)
        && t.a[(s - 1) * s..] == t.b[..]
        && t.c[s - 1] == 1.0
}

#[pymethods]
impl PyButcherTableau {
    #[new]
    #[pyo3(signature = (a, b, c, b_hat=None, order=None, embedded_order=None, name="custom", fsal=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        a: Vec<Vec<f64>>,
        b: Vec<f64>,
        c: Vec<f64>,
        b_hat: Option<Vec<f64>>,
        order: Option<usize>,
        embedded_order: Option<usize>,
        name: &str,
        fsal: Option<bool>,
    ) -> PyResult<Self> {
        let build = || -> lieode::Result<ButcherTableau> {
            let mut tableau = with_order(name, a, b, c, order)?;
            if let Some(b_hat) = b_hat {
                tableau = match embedded_order {
                    Some(q) => tableau.with_embedded(b_hat, q)?,
                    None => {
                        let first = tableau.clone().with_embedded(b_hat.clone(), 1)?;
                        let q =
                            achieved_order(&first, Weights::Embedded, ORDER_CONDITION_TOLERANCE)?;
                        tableau.with_embedded(b_hat, q.max(1))?
                    }
                };
            } else if let Some(q) = embedded_order {
                return Err(lieode::Error::InvalidTableau {
                    name: name.to_string(),
                    reason: format!(
                        "`embedded_order` = {q} given without embedded weights `b_hat`"
                    ),
                });
            }
            let fsal = fsal.unwrap_or_else(|| looks_fsal(&tableau));
            tableau.with_fsal(fsal)
        };
        build()
            .map(|inner| Self { inner })
            .map_err(|e| to_py(py, e))
    }

    /// The registered tableau named `name` (case, spaces and punctuation ignored: ``"rk4"``,
    /// ``"DOPRI5"``, ``"Gauss-Legendre 4"``, ``"cg4a"``).
    #[staticmethod]
    fn named(py: Python<'_>, name: &str) -> PyResult<Self> {
        registry::by_name(name)
            .map(|inner| Self { inner })
            .map_err(|e| to_py(py, e))
    }

    /// The names of the registered tableaux.
    #[staticmethod]
    fn names() -> Vec<&'static str> {
        registry::names()
    }

    /// The literature name.
    #[getter]
    fn name(&self) -> String {
        self.inner.name.to_string()
    }

    /// The number of stages `s`.
    #[getter]
    fn stages(&self) -> usize {
        self.inner.stages
    }

    /// The matrix `A` (`s × s`).
    #[getter]
    fn a<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let s = self.inner.stages;
        PyArray1::from_slice(py, &self.inner.a).reshape([s, s])
    }

    /// The weights `b`.
    #[getter]
    fn b<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_slice(py, &self.inner.b)
    }

    /// The nodes `c`.
    #[getter]
    fn c<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_slice(py, &self.inner.c)
    }

    /// The embedded weights `b̂`, or `None`.
    #[getter]
    fn b_hat<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        self.inner
            .b_hat
            .as_ref()
            .map(|b| PyArray1::from_slice(py, b))
    }

    /// The classical order of `b` (checked against the order conditions).
    #[getter]
    fn order(&self) -> usize {
        self.inner.order
    }

    /// The order of `b̂`, or `None`.
    #[getter]
    fn embedded_order(&self) -> Option<usize> {
        self.inner.embedded_order
    }

    /// First same as last.
    #[getter]
    fn fsal(&self) -> bool {
        self.inner.fsal
    }

    /// Whether `A` is strictly lower triangular.
    #[getter]
    fn is_explicit(&self) -> bool {
        self.inner.is_explicit()
    }

    /// `"classical"`, `"crouch-grossman"` or `"commutator-free"`.
    #[getter]
    fn family(&self) -> &'static str {
        match self.inner.family {
            Family::CrouchGrossman => "crouch-grossman",
            Family::CommutatorFree => "commutator-free",
            _ => "classical",
        }
    }

    /// Where the coefficients come from.
    #[getter]
    fn reference(&self) -> String {
        self.inner.reference.to_string()
    }

    fn __repr__(&self) -> String {
        let t = &self.inner;
        let embedded = t
            .embedded_order
            .map_or(String::new(), |q| format!(", embedded_order={q}"));
        format!(
            "ButcherTableau(name={:?}, stages={}, order={}{embedded}, explicit={})",
            t.name.as_ref(),
            t.stages,
            t.order,
            if t.is_explicit() { "True" } else { "False" }
        )
    }
}
