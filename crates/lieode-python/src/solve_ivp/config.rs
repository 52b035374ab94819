//! What a run needs besides its problem: the span, the method, the tolerances and step options,
//! the output asked for, and the chart and side on a group — read from Python's arguments
//! (already checked by the Python wrapper, and checked again here by the library).

use lieode::adaptive::{
    AdaptiveMethod, ControllerParameters, Dop853, Dopri5, EmbeddedRk, Odex, OdexParameters,
    Tolerances,
};
use lieode::integrate::Direction;
use lieode::lie::Side;
use lieode::tableau::ButcherTableau;
use nalgebra::{DefaultAllocator, DimName, allocator::Allocator};

/// The method of a run.
#[derive(Debug, Clone)]
pub enum MethodSpec {
    /// Dormand–Prince 5(4) with Hairer's control (`"DOPRI5"`, `"RK45"`).
    Dopri5,
    /// Hairer's DOP853 (`"DOP853"`).
    Dop853,
    /// Hairer's extrapolation code ODEX (`"ODEX"`).
    Odex,
    /// A user's or a named tableau with embedded weights, run as an adaptive pair.
    Embedded(ButcherTableau),
    /// A tableau without embedded weights, run with the fixed step `step`.
    Fixed(ButcherTableau),
}

/// The chart of the local coordinates on a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChartKind {
    /// `y = exp(θ)·y_n` (or `y_n·exp(θ)`).
    Exponential,
    /// `y = cay(θ)·y_n` (or `y_n·cay(θ)`).
    Cayley,
}

/// One event function's `direction` and `terminal` attributes.
#[derive(Debug, Clone, Copy)]
pub struct EventSpec {
    /// Which sign changes count.
    pub direction: Direction,
    /// Whether the run stops at the first.
    pub terminal: bool,
}

/// The options of a run.
#[derive(Debug, Clone)]
pub struct Config {
    /// Start and end times.
    pub t0: f64,
    /// The end time.
    pub t1: f64,
    /// The method.
    pub method: MethodSpec,
    /// The relative tolerance.
    pub rtol: f64,
    /// The absolute tolerance: one value, or one per derivative component.
    pub atol: Vec<f64>,
    /// The output times (`None`: the steps).
    pub t_eval: Option<Vec<f64>>,
    /// Whether `sol` is returned.
    pub dense: bool,
    /// The event functions' attributes (the callables are in the run's callbacks).
    pub events: Vec<EventSpec>,
    /// The first step (`None`: the method's choice).
    pub first_step: Option<f64>,
    /// The largest step (`None`: the span's length).
    pub max_step: Option<f64>,
    /// The most steps (`None`: no limit).
    pub max_steps: Option<usize>,
    /// The step of a fixed-step method.
    pub step: Option<f64>,
    /// The chart on a group.
    pub chart: ChartKind,
    /// The side on a group.
    pub side: Side,
    /// Whether the run keeps its accepted times and states besides `t_eval`'s (the
    /// sensitivities replay them).
    pub keep_steps: bool,
}

/// Something done with an adaptive method of whatever type the run's [`MethodSpec`] names
/// (the methods are different types: a visitor is how one code path takes each of them).
pub trait AdaptiveVisitor<D: DimName>
where
    DefaultAllocator: Allocator<D>,
{
    /// The result.
    type Output;
    /// Does it with `method`.
    fn visit<M: AdaptiveMethod<D>>(self, method: M) -> Self::Output;
}

impl Config {
    /// Whether the run needs the method's dense output (for `sol`, `t_eval` or events).
    pub fn needs_dense(&self) -> bool {
        self.dense || self.t_eval.is_some() || !self.events.is_empty()
    }

    /// Hairer's parameters `base` with the run's first and largest step; no step limit inside
    /// the method (the run's `max_steps` stops the driver instead, keeping what was computed)
    /// and stiffness detections counted rather than fatal, as SciPy has neither.
    fn controller(&self, base: ControllerParameters) -> ControllerParameters {
        ControllerParameters {
            hmax: self.max_step,
            initial_step: self.first_step,
            max_steps: usize::MAX,
            ..base
        }
        .counting_stiffness()
    }

    /// ODEX's parameters: Hairer's defaults with the run's steps, and dense output if needed.
    fn odex(&self) -> OdexParameters {
        OdexParameters {
            hmax: self.max_step,
            initial_step: self
                .first_step
                .unwrap_or(OdexParameters::default().initial_step),
            max_steps: usize::MAX,
            dense_output: self.needs_dense(),
            ..OdexParameters::default()
        }
    }

    /// Builds the adaptive method on `D` coordinates and hands it to `visitor`.
    ///
    /// # Errors
    /// Invalid tolerances or parameters; [`lieode::Error::InvalidParameter`] naming `step`
    /// for a fixed-step method (the caller runs those itself).
    pub fn adaptive<D: DimName, V: AdaptiveVisitor<D>>(
        &self,
        visitor: V,
    ) -> lieode::Result<V::Output>
    where
        DefaultAllocator: Allocator<D>,
    {
        let tolerances = Tolerances::per_component(vec![self.rtol], self.atol.clone())?;
        Ok(match &self.method {
            MethodSpec::Dopri5 => visitor.visit(Dopri5::<D>::new(
                tolerances,
                self.controller(ControllerParameters::dopri5()),
            )?),
            MethodSpec::Dop853 => visitor.visit(Dop853::<D>::new(
                tolerances,
                self.controller(ControllerParameters::dop853()),
            )?),
            MethodSpec::Odex => visitor.visit(Odex::<D>::new(tolerances, self.odex())?),
            MethodSpec::Embedded(tableau) => visitor.visit(EmbeddedRk::<D>::new(
                tableau,
                tolerances,
                self.controller(ControllerParameters::dopri5()),
            )?),
            MethodSpec::Fixed(tableau) => {
                return Err(lieode::Error::InvalidParameter {
                    name: "step",
                    value: tableau.name.to_string(),
                    expected: "an adaptive method".into(),
                });
            }
        })
    }
}
