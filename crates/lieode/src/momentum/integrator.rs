//! [`MomentumIntegrator`]: Krysl's family and its comparison methods, and the rigid-body
//! Munthe-Kaas scheme of any tableau, behind one stepping interface on `(R, Π)`.

use crate::body::Frame;
use crate::body::RigidBodyState;
use num_dual::Dual64;

use super::akw::akw_step;
use super::forms::{BodyMomentumForm, SpatialMomentumForm, to_body, to_spatial};
use super::increment_solve::{IncrementSolver, Solver};
use super::simo_wong::swc1_step;
use crate::body::{RigidBody, Torque};
use crate::clock::FixedClock;
use crate::engine::{
    Composition, FixedPoint, ImplicitMuntheKaas, LieOde, Method, MuntheKaas, Newton,
    NonlinearOptions, Stats, Step, Stepped,
};
use crate::error::{Error, Result};
use crate::lie::{LieGroup, Lift, Real, Truncation, real};
use crate::stepper::{NoDenseOutput, Span, StepReport, Stepper, StepperInfo, not_started};
use crate::tableau::ButcherTableau;
use crate::tableau::registry::{BACKWARD_EULER, EULER, IMPLICIT_MIDPOINT, TRAPEZOID};

/// The named methods of Krysl (2007) and the comparison methods of its §4.
///
/// | name | construction |
/// |---|---|
/// | `trap` | fE(h/2) then bE(h/2), body-momentum form (Krysl §3.3) |
/// | `imid` | bE(h/2) then fE(h/2), body-momentum form (§3.4) |
/// | `trapm` | fE(h/2) then bE(h/2), spatial-momentum form (§3.6, Eq. 20) |
/// | `imidm` | bE(h/2) then fE(h/2), spatial-momentum form (§3.6) |
/// | `imidm_mk` | implicit Munthe-Kaas, midpoint tableau `[½ | ½; 1]`, spatial form (§3.7) |
/// | `bbtrapwd` | implicit Munthe-Kaas, trapezoid tableau, exact `dexp⁻¹` (Bottasso–Borri) |
/// | `bbtrap` | the same with `dexp⁻¹ ≈ id` |
/// | `swc1` | Simo–Wong ALGO_C1 (a special step, spatial momentum) |
/// | `akw` | Austin–Krishnaprasad–Wang, Cayley map (a special step, body momentum) |
///
/// fE and bE are the Munthe-Kaas methods of the one-stage tableaux `[0 | 1]` (registry
/// [`EULER`]) and `[1 | 1]` ([`BACKWARD_EULER`]) — Krysl's Eqs. (11)/(12) in the body-momentum
/// form, (18)/(19) in the spatial form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KryslMethod {
    /// TRAP.
    Trap,
    /// IMID.
    Imid,
    /// TRAPM.
    TrapM,
    /// IMIDM, as a composition.
    ImidM,
    /// IMIDM, as the implicit-midpoint Munthe-Kaas method.
    ImidMMk,
    /// BBTRAP.
    BbTrap,
    /// BBTRAPWD.
    BbTrapWd,
    /// SWC1.
    Swc1,
    /// AKW.
    Akw,
}

impl KryslMethod {
    /// Every method, in the order of the paper's figures.
    pub const ALL: [KryslMethod; 9] = [
        Self::Akw,
        Self::BbTrap,
        Self::BbTrapWd,
        Self::Swc1,
        Self::Trap,
        Self::Imid,
        Self::TrapM,
        Self::ImidM,
        Self::ImidMMk,
    ];

    /// The name used in tables and CSV files.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Trap => "trap",
            Self::Imid => "imid",
            Self::TrapM => "trapm",
            Self::ImidM => "imidm",
            Self::ImidMMk => "imidm_mk",
            Self::BbTrap => "bbtrap",
            Self::BbTrapWd => "bbtrapwd",
            Self::Swc1 => "swc1",
            Self::Akw => "akw",
        }
    }

    /// The method of a name.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `method` for an unknown name.
    pub fn from_name(name: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| Error::InvalidParameter {
                name: "method",
                value: name.to_string(),
                expected: format!("one of {:?}", Self::ALL.map(|m| m.name()).as_slice()),
            })
    }
}

/// The implicit Munthe-Kaas engine with either solver.
#[derive(Debug, Clone)]
enum ImplicitEngine<S: Real> {
    Newton(ImplicitMuntheKaas<RigidBodyState<S>, Newton>),
    FixedPoint(ImplicitMuntheKaas<RigidBodyState<S>, FixedPoint>),
}

impl<S: Real> ImplicitEngine<S> {
    fn new(
        tableau: &ButcherTableau,
        truncation: Option<Truncation>,
        solver: Solver,
        options: NonlinearOptions,
    ) -> Result<Self> {
        Ok(match solver {
            Solver::Newton => Self::Newton(Self::build(tableau, truncation, options)?),
            Solver::FixedPoint => Self::FixedPoint(Self::build(tableau, truncation, options)?),
        })
    }

    /// The engine of `tableau` with the settings, `dexp⁻¹` truncated for the tableau's order
    /// unless `truncation` says otherwise.
    fn build<Solve>(
        tableau: &ButcherTableau,
        truncation: Option<Truncation>,
        options: NonlinearOptions,
    ) -> Result<ImplicitMuntheKaas<RigidBodyState<S>, Solve>> {
        let engine = ImplicitMuntheKaas::new(tableau)?.with_options(options)?;
        Ok(match truncation {
            Some(t) => engine.with_truncation(t),
            None => engine,
        })
    }
}

impl<S: Real> Method for ImplicitEngine<S> {
    fn order(&self) -> usize {
        match self {
            Self::Newton(e) => e.order(),
            Self::FixedPoint(e) => e.order(),
        }
    }
    fn name(&self) -> &str {
        match self {
            Self::Newton(e) => e.name(),
            Self::FixedPoint(e) => e.name(),
        }
    }
    fn forget(&mut self) {
        match self {
            Self::Newton(e) => e.forget(),
            Self::FixedPoint(e) => e.forget(),
        }
    }
}

impl<S: Real> TableauEngine<S> {
    /// Drops the kept Jacobians of the implicit parts.
    fn forget(&mut self) {
        match self {
            Self::Explicit(e) => e.forget(),
            Self::Implicit(e) => e.forget(),
            Self::ExplicitThenImplicit(e) => e.forget(),
            Self::ImplicitThenExplicit(e) => e.forget(),
        }
    }
}

impl<S: Real, P> Step<P> for ImplicitEngine<S>
where
    P: LieOde<RigidBodyState<S>> + LieOde<RigidBodyState<Dual64>>,
{
    type State = RigidBodyState<S>;
    type Scalar = S;
    type ErrorEstimate = ();

    fn step(
        &mut self,
        problem: &mut P,
        t: S,
        y: &RigidBodyState<S>,
        h: S,
        stats: &mut Stats,
    ) -> Result<Stepped<RigidBodyState<S>, ()>> {
        match self {
            Self::Newton(e) => e.step(problem, t, y, h, stats),
            Self::FixedPoint(e) => e.step(problem, t, y, h, stats),
        }
    }
}

/// A method built from the engines: a Munthe-Kaas method or a composition of two.
#[derive(Debug, Clone)]
enum TableauEngine<S: Real> {
    Explicit(MuntheKaas<RigidBodyState<S>>),
    Implicit(ImplicitEngine<S>),
    ExplicitThenImplicit(Composition<MuntheKaas<RigidBodyState<S>>, ImplicitEngine<S>, S>),
    ImplicitThenExplicit(Composition<ImplicitEngine<S>, MuntheKaas<RigidBodyState<S>>, S>),
}

/// The engine behind a method.
#[derive(Debug, Clone)]
enum Engine<S: Real> {
    /// Boxed: its engines hold their coefficient tables (allocated once, at construction).
    Tableau(Box<TableauEngine<S>>),
    Swc1,
    Akw,
}

impl<S: Real> Engine<S> {
    fn tableau(engine: TableauEngine<S>) -> Self {
        Self::Tableau(Box::new(engine))
    }
}

/// A rigid-body integrator on `SO(3) × ℝ³` in Krysl's momentum setting: the state is the
/// attitude `R` (body → lab) and the **body** angular momentum `Π`; each step converts to the
/// form its method works in (the spatial momentum `π = RΠ` for the integral form) and back.
///
/// Build one of Krysl's named methods ([`MomentumIntegrator::krysl`]) or the rigid-body
/// Munthe-Kaas scheme of any explicit or implicit tableau in either form
/// ([`MomentumIntegrator::munthe_kaas`]). Implicit methods solve by simplified Newton with
/// dual-number Jacobians (falling back to fixed-point iteration and then to full Newton with a
/// line search when simplified Newton fails) or by fixed-point iteration alone ([`Solver`]),
/// with tolerance and iteration limit from [`NonlinearOptions`]; a failed solve is
/// [`Error::NonConvergence`] naming the time and step, never a silent stop. The torque is any
/// [`Torque`] over `f64` and dual numbers (`F: Torque<f64> + Torque<Dual64>`, for the Newton
/// Jacobians), evaluated at the attitude matrix and, for the torques that depend on it, the
/// body angular velocity of the point each method evaluates at.
///
/// # References
/// P. Krysl, *Dynamically equivalent implicit algorithms for the integration of rigid body
/// rotations*, Commun. Numer. Meth. Engng 24 (2008) 141–156 (online 2007), §3–4.
///
/// # Examples
/// ```
/// use lieode::integrate::{Options, Record, Series, integrate};
/// use lieode::body::RigidBodyState;
/// use lieode::body::NoTorque;
/// use lieode::momentum::{KryslMethod, MomentumIntegrator, Solver, kinetic_energy};
/// use lieode::lie::{LieGroup, product::Product, rn::Rn, so3::So3};
/// use lieode::body::RigidBody;
/// use lieode::stepper::Span;
/// use nalgebra::Vector3;
///
/// let body = RigidBody::new([0.9144, 1.098, 1.66])?;
/// let mut imid = MomentumIntegrator::krysl(KryslMethod::Imid, body, Solver::Newton)?;
/// let y0 = Product(So3::identity(), Rn(Vector3::new(0.4165, 0.9072, 0.0577)));
/// let mut energy = Series::new("T", |_t, y: &RigidBodyState| kinetic_energy(&body, &y.1.0));
/// let span = Span::stride(0.0, 0.1, 100)?;
/// let options = Options::record(Record::Ends).observer(&mut energy);
/// integrate(&mut imid, &mut NoTorque, &y0, &span, options)?;
/// // IMID conserves the kinetic energy of torque-free motion.
/// assert!(energy.max_relative_drift() < 1e-13);
/// # Ok::<(), lieode::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct MomentumIntegrator<S: Real = f64> {
    name: String,
    order: usize,
    form: Frame,
    engine: Engine<S>,
    solver: Solver,
    increments: IncrementSolver<S>,
    body: RigidBody<S>,
    stats: Stats,
    /// The running span's clock (its step may be negative) and the state in the method's
    /// form.
    run: Option<(FixedClock, RigidBodyState<S>)>,
}

impl<S: Real> MomentumIntegrator<S> {
    /// Drops every Jacobian and LU factorisation kept from earlier steps (the engines' and the
    /// increment solver's).
    fn forget_kept(&mut self) {
        self.increments.forget();
        if let Engine::Tableau(engine) = &mut self.engine {
            engine.forget();
        }
    }

    /// One of Krysl's named methods, with default solver settings ([`NonlinearOptions`]).
    ///
    /// # Errors
    /// Those of the engines' construction (none for the registry tableaux).
    pub fn krysl(method: KryslMethod, body: RigidBody<S>, solver: Solver) -> Result<Self> {
        Self::krysl_with_options(method, body, solver, NonlinearOptions::default())
    }

    /// [`MomentumIntegrator::krysl`] with solver settings.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `tolerance` or `max_iterations` for invalid settings.
    pub fn krysl_with_options(
        method: KryslMethod,
        body: RigidBody<S>,
        solver: Solver,
        options: NonlinearOptions,
    ) -> Result<Self> {
        options.validate()?;
        let implicit = |tableau: &ButcherTableau, truncation| {
            ImplicitEngine::new(tableau, truncation, solver, options)
        };
        let forward = || MuntheKaas::<RigidBodyState<S>>::new(&EULER);
        // fE(h/2) then bE(h/2), and bE(h/2) then fE(h/2): second order by symmetry.
        let trap = || -> Result<Engine<S>> {
            let c = Composition::new(forward()?, 0.5, implicit(&BACKWARD_EULER, None)?, 0.5)?;
            Ok(Engine::tableau(TableauEngine::ExplicitThenImplicit(
                c.with_order(2),
            )))
        };
        let mid = || -> Result<Engine<S>> {
            let c = Composition::new(implicit(&BACKWARD_EULER, None)?, 0.5, forward()?, 0.5)?;
            Ok(Engine::tableau(TableauEngine::ImplicitThenExplicit(
                c.with_order(2),
            )))
        };
        let one_method = |tableau: &ButcherTableau, truncation| -> Result<Engine<S>> {
            Ok(Engine::tableau(TableauEngine::Implicit(implicit(
                tableau, truncation,
            )?)))
        };
        use Frame::{Body, Lab};
        let (form, engine) = match method {
            KryslMethod::Trap => (Body, trap()?),
            KryslMethod::Imid => (Body, mid()?),
            KryslMethod::TrapM => (Lab, trap()?),
            KryslMethod::ImidM => (Lab, mid()?),
            KryslMethod::ImidMMk => (Lab, one_method(&IMPLICIT_MIDPOINT, None)?),
            KryslMethod::BbTrap => (Lab, one_method(&TRAPEZOID, Some(Truncation::Identity))?),
            KryslMethod::BbTrapWd => (Lab, one_method(&TRAPEZOID, Some(Truncation::Exact))?),
            KryslMethod::Swc1 => (Lab, Engine::Swc1),
            KryslMethod::Akw => (Body, Engine::Akw),
        };
        Ok(Self::assemble(
            method.name().to_string(),
            2,
            form,
            engine,
            solver,
            options,
            body,
        ))
    }

    /// The rigid-body Munthe-Kaas scheme of any tableau (Krysl's MKRK, §3.7, in the spatial
    /// form; its differential analogue in the body form): the explicit [`MuntheKaas`] engine for
    /// an explicit tableau, the implicit [`ImplicitMuntheKaas`] otherwise, with `dexp⁻¹`
    /// truncated for the tableau's order.
    ///
    /// # Errors
    /// [`Error::InvalidTableau`] for an invalid tableau; [`Error::InvalidParameter`] for invalid
    /// solver settings.
    pub fn munthe_kaas(
        tableau: &ButcherTableau,
        form: Frame,
        body: RigidBody<S>,
        solver: Solver,
        options: NonlinearOptions,
    ) -> Result<Self> {
        options.validate()?;
        let engine = Engine::tableau(if tableau.validate_explicit().is_ok() {
            TableauEngine::Explicit(MuntheKaas::new(tableau)?)
        } else {
            TableauEngine::Implicit(ImplicitEngine::new(tableau, None, solver, options)?)
        });
        let suffix = match form {
            Frame::Body => "body",
            Frame::Lab => "spatial",
        };
        Ok(Self::assemble(
            format!("mk_{}_{suffix}", tableau.name.to_lowercase()),
            tableau.order,
            form,
            engine,
            solver,
            options,
            body,
        ))
    }

    fn assemble(
        name: String,
        order: usize,
        form: Frame,
        engine: Engine<S>,
        solver: Solver,
        options: NonlinearOptions,
        body: RigidBody<S>,
    ) -> Self {
        Self {
            name,
            order,
            form,
            engine,
            solver,
            increments: IncrementSolver::new(options),
            body,
            stats: Stats::default(),
            run: None,
        }
    }

    /// The method's order (2 for Krysl's family; the tableau's order for Munthe-Kaas).
    pub fn order(&self) -> usize {
        self.order
    }
    /// The momentum form the method works in.
    pub fn form(&self) -> Frame {
        self.form
    }
    /// The body.
    pub fn body(&self) -> &RigidBody<S> {
        &self.body
    }

    /// One step of size `h` (which may be negative) from the state `y = (R, Π)` at time `t`
    /// under the torque `torque`, with the body momentum `Π`, outside any run (the counters of
    /// [`StepperInfo::stats`] count it too).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a non-finite `t` or `h`; [`Error::NonFinite`] naming
    /// `state` for a non-finite `y`; [`Error::NonConvergence`] when an implicit solve fails
    /// (its message gives the time, step and iteration limit); [`Error::NonFiniteState`] for a
    /// non-finite torque or result.
    pub fn advance<F: Torque<S> + Torque<Dual64>>(
        &mut self,
        torque: &F,
        t: f64,
        y: &RigidBodyState<S>,
        h: f64,
    ) -> Result<RigidBodyState<S>>
    where
        S: Lift<S> + Lift<Dual64>,
    {
        validate(t, y, h)?;
        let native = self.to_method_form(y);
        self.stats.steps += 1;
        let next = self.step_native(torque, t, &native, h)?;
        self.stats.accepted += 1;
        Ok(self.to_body_form(&next))
    }

    /// The state in the method's form: `(R, Π)` unchanged, or `(R, RΠ)` for the spatial form.
    fn to_method_form(&self, y: &RigidBodyState<S>) -> RigidBodyState<S> {
        match self.form {
            Frame::Body => *y,
            Frame::Lab => to_spatial(y),
        }
    }

    /// Back to `(R, Π)`.
    fn to_body_form(&self, y: &RigidBodyState<S>) -> RigidBodyState<S> {
        match self.form {
            Frame::Body => *y,
            Frame::Lab => to_body(y),
        }
    }

    /// One step on the state in the method's form (the caller counts it).
    fn step_native<F: Torque<S> + Torque<Dual64>>(
        &mut self,
        torque: &F,
        t: f64,
        y: &RigidBodyState<S>,
        h: f64,
    ) -> Result<RigidBodyState<S>>
    where
        S: Lift<S> + Lift<Dual64>,
    {
        let stats = &mut self.stats;
        let next = match &mut self.engine {
            Engine::Swc1 => swc1_step(
                &self.body,
                torque,
                self.solver,
                &mut self.increments,
                t,
                y,
                h,
                stats,
            )?,
            Engine::Akw => akw_step(
                &self.body,
                torque,
                self.solver,
                &mut self.increments,
                t,
                y,
                h,
                stats,
            )?,
            // The forms borrow the torque for the step.
            Engine::Tableau(engine) => match self.form {
                Frame::Body => {
                    let mut form = BodyMomentumForm::new(self.body, torque);
                    step_engine(engine, &mut form, t, y, h, stats)?
                }
                Frame::Lab => {
                    let mut form = SpatialMomentumForm::new(self.body, torque);
                    step_engine(engine, &mut form, t, y, h, stats)?
                }
            },
        };
        if !next.is_finite() {
            return Err(Error::NonFiniteState {
                what: "state",
                t: t + h,
            });
        }
        Ok(next)
    }
}

impl<S: Real> StepperInfo for MomentumIntegrator<S> {
    /// The method's name (`trap`, `imidm`, …, or `mk_<tableau>_<form>`).
    fn name(&self) -> &str {
        &self.name
    }

    /// `t_n = t_0 + n h` (NaN before the start).
    fn time(&self) -> f64 {
        self.run.map_or(f64::NAN, |(clock, _)| clock.time())
    }

    /// Evaluations, Jacobians, LU decompositions, solver iterations and steps since the last
    /// start.
    fn stats(&self) -> Stats {
        self.stats
    }
}

/// Krysl's family and the rigid-body Munthe-Kaas schemes as steppers: the problem is the
/// torque; step `i` starts at `t0 + i h` ([`FixedClock`]: times computed, not accumulated). The
/// span's step may be negative ([`FixedClock::either_direction`]): the methods step backward
/// as they step forward.
///
/// The state is carried in the method's own form between steps (the spatial momentum `π` for
/// the integral form), so torque-free motion keeps `π` to round-off; [`Stepper::state`]
/// converts to `(R, Π)`. (Converting `π = RΠ` and back every step instead would show `R`'s
/// round-off departure from orthogonality in `π`, ≈ 1e-12 after 1000 steps.)
///
/// Over `f64`, and over a sensitivity run's dual numbers ([`crate::sensitivity`]: a body with
/// dual moments, a dual initial state, a torque over both the dual type and `Dual64`); the
/// implicit solves then iterate on the dual numbers with the iteration matrix of the real parts.
impl<S, F> Stepper<F> for MomentumIntegrator<S>
where
    S: Real + Lift<S> + Lift<Dual64>,
    F: Torque<S> + Torque<Dual64>,
{
    type State = RigidBodyState<S>;
    type Segment = NoDenseOutput<RigidBodyState<S>>;

    /// # Errors
    /// [`Error::InvalidParameter`] naming `span` for an adaptive span; [`Error::NonFinite`]
    /// naming `state` for a non-finite `y0`.
    fn start(&mut self, _torque: &mut F, span: &Span, y0: &RigidBodyState<S>) -> Result<()> {
        let clock = FixedClock::either_direction(span, span.t0())?;
        validate(span.t0(), y0, clock.dt())?;
        // Nothing kept from an earlier run (a Jacobian and its LU): runs are reproducible.
        self.forget_kept();
        self.stats = Stats::default();
        self.run = Some((clock, self.to_method_form(y0)));
        Ok(())
    }

    /// # Errors
    /// [`not_started`] before the start; those of the method's step (a failed step is counted
    /// as attempted, not accepted, and leaves the state of the last successful one).
    fn step(&mut self, torque: &mut F) -> Result<StepReport> {
        let (mut clock, native) = self.run.ok_or_else(not_started)?;
        match self.step_native(&*torque, clock.time(), &native, clock.dt()) {
            Ok(next) => {
                let report = clock.advance(&mut self.stats);
                self.run = Some((clock, next));
                Ok(report)
            }
            Err(error) => {
                self.stats.steps += 1;
                Err(error)
            }
        }
    }

    fn state(&mut self, _torque: &mut F) -> Result<RigidBodyState<S>> {
        let (_, native) = self.run.ok_or_else(not_started)?;
        Ok(self.to_body_form(&native))
    }

    /// Drops the Jacobians kept from the old torque.
    fn problem_changed(&mut self, _torque: &mut F) -> Result<()> {
        self.forget_kept();
        Ok(())
    }
}

/// The input checks of a step: a finite state, time and step size.
fn validate<S: Real>(t: f64, y: &RigidBodyState<S>, h: f64) -> Result<()> {
    if !y.is_finite() {
        return Err(Error::NonFinite { name: "state" });
    }
    crate::error::check_finite("t", t)?;
    crate::error::check_finite("h", h)
}

/// A step of a Munthe-Kaas engine or composition on one of the forms.
fn step_engine<S: Real, P>(
    engine: &mut TableauEngine<S>,
    problem: &mut P,
    t: f64,
    y: &RigidBodyState<S>,
    h: f64,
    stats: &mut Stats,
) -> Result<RigidBodyState<S>>
where
    P: LieOde<RigidBodyState<S>> + LieOde<RigidBodyState<Dual64>>,
{
    let (t, h) = (real::<S>(t), real::<S>(h));
    Ok(match engine {
        TableauEngine::Explicit(e) => e.step(problem, t, y, h, stats)?.state,
        TableauEngine::Implicit(e) => e.step(problem, t, y, h, stats)?.state,
        TableauEngine::ExplicitThenImplicit(e) => e.step(problem, t, y, h, stats)?.state,
        TableauEngine::ImplicitThenExplicit(e) => e.step(problem, t, y, h, stats)?.state,
    })
}
