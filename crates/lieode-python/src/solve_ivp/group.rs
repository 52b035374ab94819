//! ODEs on Lie groups, `y' = ξ(t, y)·y` or `y' = y·ξ(t, y)` with `ξ = fun(t, y)` in the
//! algebra: SO(3), SU(2) (unit quaternions), SE(3), and their products with `ℝⁿ`. The adaptive
//! methods are lifted through local coordinates rebased at every step
//! ([`lieode::adaptive::LieStepper`]); a tableau without embedded weights runs as a
//! fixed-step Munthe-Kaas method ([`lieode::engine::MuntheKaas`]).

use lieode::adaptive::{AdaptiveMethod, LieStepper};
use lieode::engine::{CommutatorFree, Fixed, MuntheKaas};
use lieode::lie::coordinates::{CayleyMap, Chart, ExponentialMap};
use lieode::lie::product::Product;
use lieode::lie::rn::Rn;
use lieode::lie::se3::Se3;
use lieode::lie::so3::So3;
use lieode::lie::unit_quaternion::UnitQuat;
use lieode::lie::{AlgebraDim, LieAlgebra, LieGroup, Side};
use lieode::ode::{LieOde, LieOdeFn};
use lieode::tableau::Family;
use nalgebra::{DefaultAllocator, OVector, allocator::Allocator};
use pyo3::prelude::*;

use super::callbacks::{Callbacks, invalid};
use super::config::{AdaptiveVisitor, ChartKind, Config, MethodSpec};
use super::run::{Outcome, run};
use super::state::PyState;
use crate::errors::to_py;

/// Calls `$then!(sizes…)` with the sizes of the `ℝⁿ` factor of a product compiled in.
macro_rules! with_factor_sizes {
    ($then:ident) => {
        $then!(1 2 3 4 5 6)
    };
}

macro_rules! size_list {
    ($($n:literal)*) => { &[$($n),*] };
}

/// The sizes `n` of the `ℝⁿ` factor of a product group.
pub const FACTOR_SIZES: &[usize] = with_factor_sizes!(size_list);

/// The groups, by the names `solve_ivp` takes.
pub const GROUPS: [&str; 3] = ["SO3", "SU2", "SE3"];

/// Solves the ODE `fun` on the group `name` (× `ℝⁿ` if `n > 0`) from the flat `y0`.
///
/// # Errors
/// `InvalidParameterError` naming `group` for an unknown group or factor size, `chart` for the
/// Cayley chart on SE(3), `y0` for a state off the group; those of [`run`].
pub fn solve(
    py: Python<'_>,
    callbacks: &Callbacks<'_>,
    name: &str,
    n: usize,
    y0: &[f64],
    config: &Config,
) -> PyResult<Outcome> {
    macro_rules! product {
        ($g:ty, $charts:ty; $($n:literal)*) => {
            match n {
                $($n => on_group::<Product<$g, Rn<$n>>, $charts>(py, callbacks, y0, config),)*
                _ => Err(invalid(
                    py,
                    "group",
                    None,
                    format!(
                        "invalid parameter `group` = \"{name}xR{n}\": the factor ℝⁿ of a \
                         product has one of these sizes: {FACTOR_SIZES:?}"
                    ),
                )),
            }
        };
    }
    macro_rules! so3_products { ($($n:literal)*) => { product!(So3, BothCharts; $($n)*) }; }
    macro_rules! su2_products { ($($n:literal)*) => { product!(UnitQuat, BothCharts; $($n)*) }; }
    macro_rules! se3_products { ($($n:literal)*) => { product!(Se3, ExponentialOnly; $($n)*) }; }
    match (name, n) {
        ("SO3", 0) => on_group::<So3, BothCharts>(py, callbacks, y0, config),
        ("SU2", 0) => on_group::<UnitQuat, BothCharts>(py, callbacks, y0, config),
        ("SE3", 0) => on_group::<Se3, ExponentialOnly>(py, callbacks, y0, config),
        ("SO3", _) => with_factor_sizes!(so3_products),
        ("SU2", _) => with_factor_sizes!(su2_products),
        ("SE3", _) => with_factor_sizes!(se3_products),
        _ => Err(invalid(
            py,
            "group",
            None,
            format!(
                "invalid parameter `group` = {name:?}: expected one of {GROUPS:?}, or a product \
                 with ℝⁿ such as \"SO3xR3\""
            ),
        )),
    }
}

/// The group element `y0`, or an `InvalidParameterError` naming it.
fn start<G: PyState>(py: Python<'_>, y0: &[f64]) -> PyResult<G> {
    if y0.len() != G::FLOATS {
        return Err(invalid(
            py,
            "y0",
            None,
            format!(
                "invalid parameter `y0`: {} floats given, the group's elements have {}",
                y0.len(),
                G::FLOATS
            ),
        ));
    }
    G::from_flat(y0)
        .map_err(|reason| invalid(py, "y0", None, format!("invalid parameter `y0`: {reason}")))
}

/// `y' = ξ(t, y)·y` (left) or `y·ξ(t, y)` (right) with `ξ = fun(t, y)`.
fn problem<'c, 'py, G>(
    callbacks: &'c Callbacks<'py>,
    side: Side,
) -> LieOdeFn<impl FnMut(f64, &G) -> G::Algebra + 'c>
where
    G: LieGroup<Scalar = f64> + PyState,
    DefaultAllocator: Allocator<AlgebraDim<G>>,
    'py: 'c,
{
    let f = move |t: f64, y: &G| {
        let mut coords = OVector::<f64, AlgebraDim<G>>::zeros();
        callbacks.derivative(t, y, coords.as_mut_slice());
        G::Algebra::from_coords(&coords)
    };
    match side {
        Side::Left => LieOdeFn::left(f),
        Side::Right => LieOdeFn::right(f),
    }
}

/// Which charts a group has: the step of any method but a product-of-exponentials tableau runs
/// in one of them.
trait Charts<G: LieGroup<Scalar = f64>> {
    /// Refuses a chart the group does not have.
    fn check(py: Python<'_>, config: &Config) -> PyResult<()>;

    /// The run of `problem` in the chart `config` names.
    fn charted<P: LieOde<G>>(
        py: Python<'_>,
        problem: &mut P,
        y0: &G,
        config: &Config,
        callbacks: &Callbacks<'_>,
    ) -> PyResult<Outcome>;
}

/// The exponential and the Cayley chart (SO(3), SU(2) and their products with ℝⁿ).
struct BothCharts;

/// The exponential chart only (SE(3) has no Cayley map in the library).
struct ExponentialOnly;

impl<G> Charts<G> for BothCharts
where
    G: LieGroup<Scalar = f64> + PyState,
    CayleyMap: Chart<G>,
    DefaultAllocator: Allocator<AlgebraDim<G>>,
    OVector<f64, AlgebraDim<G>>: Send + Sync,
{
    fn check(_py: Python<'_>, _config: &Config) -> PyResult<()> {
        Ok(())
    }

    fn charted<P: LieOde<G>>(
        py: Python<'_>,
        problem: &mut P,
        y0: &G,
        config: &Config,
        callbacks: &Callbacks<'_>,
    ) -> PyResult<Outcome> {
        match config.chart {
            ChartKind::Exponential => {
                charted::<G, ExponentialMap, _>(py, problem, y0, config, callbacks)
            }
            ChartKind::Cayley => charted::<G, CayleyMap, _>(py, problem, y0, config, callbacks),
        }
    }
}

impl<G> Charts<G> for ExponentialOnly
where
    G: LieGroup<Scalar = f64> + PyState,
    DefaultAllocator: Allocator<AlgebraDim<G>>,
    OVector<f64, AlgebraDim<G>>: Send + Sync,
{
    fn check(py: Python<'_>, config: &Config) -> PyResult<()> {
        if config.chart == ChartKind::Cayley {
            return Err(invalid(
                py,
                "chart",
                None,
                "invalid parameter `chart` = \"cayley\": the Cayley chart is defined on SO3 and \
                 SU2 (and their products with ℝⁿ), not on SE3; use chart=\"exp\""
                    .into(),
            ));
        }
        Ok(())
    }

    fn charted<P: LieOde<G>>(
        py: Python<'_>,
        problem: &mut P,
        y0: &G,
        config: &Config,
        callbacks: &Callbacks<'_>,
    ) -> PyResult<Outcome> {
        charted::<G, ExponentialMap, _>(py, problem, y0, config, callbacks)
    }
}

/// The run on the group `G` with the charts `K`: a fixed-step Crouch–Grossman or
/// commutator-free tableau as products of exponentials, any other method in a chart.
fn on_group<G, K>(
    py: Python<'_>,
    callbacks: &Callbacks<'_>,
    y0: &[f64],
    config: &Config,
) -> PyResult<Outcome>
where
    G: LieGroup<Scalar = f64> + PyState,
    K: Charts<G>,
    DefaultAllocator: Allocator<AlgebraDim<G>>,
    OVector<f64, AlgebraDim<G>>: Send + Sync,
{
    K::check(py, config)?;
    let y0 = start::<G>(py, y0)?;
    let mut problem = problem::<G>(callbacks, config.side);
    if let Some(engine) = product_of_exponentials::<G>(py, config)? {
        return run(
            py,
            &mut Fixed::new(engine),
            &mut problem,
            &y0,
            config,
            Some(callbacks),
        );
    }
    K::charted(py, &mut problem, &y0, config, callbacks)
}

/// The engine of a fixed-step Crouch–Grossman or commutator-free tableau (products of
/// exponentials, no chart), or `None` for any other method.
///
/// # Errors
/// `InvalidParameterError` naming `chart` for the Cayley chart; an invalid tableau.
fn product_of_exponentials<G>(
    py: Python<'_>,
    config: &Config,
) -> PyResult<Option<CommutatorFree<G>>>
where
    G: LieGroup<Scalar = f64>,
{
    let MethodSpec::Fixed(tableau) = &config.method else {
        return Ok(None);
    };
    let engine = match tableau.family {
        Family::CrouchGrossman => CommutatorFree::crouch_grossman(tableau),
        Family::CommutatorFree => CommutatorFree::new(tableau),
        _ => return Ok(None),
    };
    if config.chart == ChartKind::Cayley {
        return Err(invalid(
            py,
            "chart",
            None,
            format!(
                "invalid parameter `chart` = \"cayley\": the {} tableau {:?} is a product of \
                 exponentials and has no chart; use chart=\"exp\"",
                if tableau.family == Family::CrouchGrossman {
                    "Crouch–Grossman"
                } else {
                    "commutator-free"
                },
                tableau.name.as_ref()
            ),
        ));
    }
    engine.map(Some).map_err(|e| to_py(py, e))
}

/// Integrates `problem` on `G` in the chart `C` with the run's method.
fn charted<G, C, P>(
    py: Python<'_>,
    problem: &mut P,
    y0: &G,
    config: &Config,
    callbacks: &Callbacks<'_>,
) -> PyResult<Outcome>
where
    G: LieGroup<Scalar = f64> + PyState,
    C: Chart<G> + Send + Sync + 'static,
    P: LieOde<G>,
    DefaultAllocator: Allocator<AlgebraDim<G>>,
    OVector<f64, AlgebraDim<G>>: Send + Sync,
{
    if let MethodSpec::Fixed(tableau) = &config.method {
        let engine = MuntheKaas::<G>::new(tableau)
            .map_err(|e| to_py(py, e))?
            .with_coordinates::<C>();
        return run(
            py,
            &mut Fixed::new(engine),
            problem,
            y0,
            config,
            Some(callbacks),
        );
    }
    let visitor = Adaptive::<G, C, P> {
        py,
        problem,
        y0,
        config,
        callbacks,
        chart: std::marker::PhantomData,
    };
    config.adaptive(visitor).map_err(|e| to_py(py, e))?
}

/// The run of an adaptive method lifted to `G` in the chart `C`.
struct Adaptive<'a, 'c, 'py, G, C, P> {
    py: Python<'py>,
    problem: &'a mut P,
    y0: &'a G,
    config: &'a Config,
    callbacks: &'c Callbacks<'py>,
    chart: std::marker::PhantomData<C>,
}

impl<G, C, P> AdaptiveVisitor<AlgebraDim<G>> for Adaptive<'_, '_, '_, G, C, P>
where
    G: LieGroup<Scalar = f64> + PyState,
    C: Chart<G> + Send + Sync + 'static,
    P: LieOde<G>,
    DefaultAllocator: Allocator<AlgebraDim<G>>,
    OVector<f64, AlgebraDim<G>>: Send + Sync,
{
    type Output = PyResult<Outcome>;

    fn visit<M: AdaptiveMethod<AlgebraDim<G>>>(self, method: M) -> PyResult<Outcome> {
        let mut stepper = LieStepper::new(method).with_chart::<C>();
        run(
            self.py,
            &mut stepper,
            self.problem,
            self.y0,
            self.config,
            Some(self.callbacks),
        )
    }
}
