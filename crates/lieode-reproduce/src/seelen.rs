//! Seelen, Padding and Kuipers (2016), §3: the improved PCDM scheme, the original PCDM and the
//! six-degree-of-freedom catalogue on the paper's four tests — measurements (this module) and
//! the figures and tables of `seelen_paper/` (`reproduce::seelen_paper`, with the `plot` feature).

use nalgebra::Vector3;

use crate::seelen_problems::{
    GrowingTorqueCylinder, SymmetricTop, TABLE1_PRINTED, TorquedSphere, TouchingCylinders,
};
use lieode::body::RigidBody;
use lieode::rotation::{RigidBodyMethod, SingleBody};
use lieode::stepper::{Span, Stepper, StepperInfo};
use lieode::system::{
    Body, CatalogueSystem, ImprovedPcdmSystem, MethodVisitor, PcdmSystem, Rk4System, SystemForces,
    SystemState, every_method,
};
use lieode::{Error, Result};

/// A computation run on a six-degree-of-freedom scheme with its concrete type.
pub trait SchemeVisitor<P: SystemForces> {
    /// Runs on `scheme` (not started).
    ///
    /// # Errors
    /// The computation's.
    fn visit<S: Stepper<P, State = SystemState> + StepperInfo>(&mut self, scheme: S) -> Result<()>;
}

/// The schemes of the comparison on `bodies`, in this order: improved PCDM, PCDM, RK4 and the
/// eleven one-evaluation methods of [`every_method`] (SPIRAL leapfrog first).
///
/// # Errors
/// The first error of the visitor.
pub fn every_scheme<P: SystemForces>(
    bodies: &[Body],
    visitor: &mut impl SchemeVisitor<P>,
) -> Result<()> {
    visitor.visit(ImprovedPcdmSystem::new(bodies.to_vec()))?;
    visitor.visit(PcdmSystem::new(bodies.to_vec()))?;
    visitor.visit(Rk4System::new(bodies.to_vec()))?;
    struct Catalogue<'a, P, V> {
        bodies: &'a [Body],
        visitor: &'a mut V,
        problem: std::marker::PhantomData<P>,
    }
    impl<P: SystemForces, V: SchemeVisitor<P>> MethodVisitor for Catalogue<'_, P, V> {
        fn visit<K: RigidBodyMethod>(
            &mut self,
            make: fn(RigidBody) -> SingleBody<K>,
        ) -> lieode::Result<()> {
            self.visitor
                .visit(CatalogueSystem::new(self.bodies.to_vec(), make))
        }
    }
    every_method(&mut Catalogue {
        bodies,
        visitor,
        problem: std::marker::PhantomData,
    })
}

/// The states of `steps` steps of `dt` of `scheme` on `problem` from `y0`, every `every` steps
/// (the first at `t₀`).
///
/// # Errors
/// Those of the run.
pub fn sampled<P: SystemForces, S: Stepper<P, State = SystemState>>(
    scheme: &mut S,
    problem: &mut P,
    y0: &SystemState,
    dt: f64,
    steps: usize,
    every: usize,
) -> Result<Vec<SystemState>> {
    scheme.start(problem, &Span::open(y0.t, dt)?, y0)?;
    let mut out = vec![scheme.state(problem)?];
    for n in 1..=steps {
        scheme.step(problem)?;
        if n % every.max(1) == 0 {
            out.push(scheme.state(problem)?);
        }
    }
    Ok(out)
}

/// One scheme's sampled run.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemeRun {
    /// The scheme's name.
    pub method: String,
    /// The sampled states.
    pub states: Vec<SystemState>,
}

/// Collects [`SchemeRun`]s of the schemes whose names are in `only` (all if empty).
struct Runs<'a, P> {
    problem: P,
    y0: SystemState,
    dt: f64,
    steps: usize,
    every: usize,
    only: &'a [&'a str],
    out: Vec<SchemeRun>,
}

impl<P: SystemForces + Clone> SchemeVisitor<P> for Runs<'_, P> {
    fn visit<S: Stepper<P, State = SystemState> + StepperInfo>(
        &mut self,
        mut scheme: S,
    ) -> Result<()> {
        let method = scheme.name().to_owned();
        if !self.only.is_empty() && !self.only.contains(&method.as_str()) {
            return Ok(());
        }
        let mut problem = self.problem.clone();
        let states = sampled(
            &mut scheme,
            &mut problem,
            &self.y0,
            self.dt,
            self.steps,
            self.every,
        )?;
        self.out.push(SchemeRun { method, states });
        Ok(())
    }
}

/// Runs the schemes named in `only` (all if empty) on `bodies` under `problem` from `y0`.
///
/// # Errors
/// Those of the runs.
#[allow(clippy::too_many_arguments)]
pub fn run_schemes<P: SystemForces + Clone>(
    bodies: &[Body],
    problem: P,
    y0: &SystemState,
    dt: f64,
    steps: usize,
    every: usize,
    only: &[&str],
) -> Result<Vec<SchemeRun>> {
    let mut runs = Runs {
        problem,
        y0: y0.clone(),
        dt,
        steps,
        every,
        only,
        out: Vec::new(),
    };
    every_scheme(bodies, &mut runs)?;
    Ok(runs.out)
}

/// The schemes of the paper's own figures, and SPIRAL beside them.
pub const PAPER_SCHEMES: [&str; 3] = ["improved_pcdm", "pcdm", "spiral_leapfrog"];

/// §3.1: the symmetric top for `duration` s at `δt = 10⁻²` s, sampled every `every` steps, for
/// [`PAPER_SCHEMES`].
///
/// # Errors
/// [`Error::InvalidParameter`] naming `duration` unless it is finite and non-negative; those
/// of the runs.
pub fn top_runs(duration: f64, every: usize) -> Result<Vec<SchemeRun>> {
    if !(duration.is_finite() && duration >= 0.0) {
        return Err(Error::InvalidParameter {
            name: "duration",
            value: format!("{duration:e}"),
            expected: "a finite non-negative duration".into(),
        });
    }
    let dt = 1e-2;
    let steps = (duration / dt).round() as usize;
    run_schemes(
        &[SymmetricTop::body()?],
        SymmetricTop,
        &SymmetricTop::initial_state(),
        dt,
        steps,
        every,
        &PAPER_SCHEMES,
    )
}

/// §3.2: the torqued sphere over 1 s at `δt = 10⁻⁴` s (the paper's step), every scheme,
/// sampled every `every` steps.
///
/// # Errors
/// Those of the runs.
pub fn sphere_runs(every: usize) -> Result<Vec<SchemeRun>> {
    run_schemes(
        &[TorquedSphere::body()?],
        TorquedSphere,
        &SystemState::at_rest(0.0, 1),
        1e-4,
        10_000,
        every,
        &[],
    )
}

/// One row of Table 1: the arrow at `t = 1` s and its distance from the exact arrow.
#[derive(Debug, Clone, PartialEq)]
pub struct Table1Row {
    /// `exact`, a scheme's name, or `paper_…` for the paper's printed rows.
    pub method: String,
    /// The arrow.
    pub arrow: Vector3<f64>,
    /// `|arrow − exact|`.
    pub error_vs_exact: f64,
}

/// Table 1: the exact arrow, every scheme's (from `runs`, [`sphere_runs`]; a run without a
/// state or a body has no row) and the paper's printed rows, each with its distance from the
/// exact arrow.
pub fn table1(runs: &[SchemeRun]) -> Vec<Table1Row> {
    let exact = TorquedSphere::arrow(1.0);
    let row = |method: String, arrow: Vector3<f64>| Table1Row {
        method,
        arrow,
        error_vs_exact: (arrow - exact).norm(),
    };
    let mut rows = vec![row("exact".into(), exact)];
    for r in runs {
        if let Some(q) = r.states.last().and_then(|last| last.rotors.first()) {
            rows.push(row(r.method.clone(), TorquedSphere::arrow_of(q)));
        }
    }
    for (label, v) in TABLE1_PRINTED {
        rows.push(row(format!("paper_{label}"), Vector3::from(v)));
    }
    rows
}

/// §3.3: the time-averaged orientation error `α` (Eq. 7) of one run, over the sample times
/// `k · 1 ms`, `k = 1 … 100`, against `reference` (one rotor per sample time) — Eq. 7 sums
/// over every step; a fixed set of sample times averages the same error over the same interval
/// for every `Δt`.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `dt` unless it is finite and positive with fewer than
/// 2⁵³ steps per sample (and a total that fits a `usize`), naming `reference` when it is
/// empty; those of the run.
pub fn cylinder_alpha<S: Stepper<GrowingTorqueCylinder, State = SystemState>>(
    scheme: &mut S,
    dt: f64,
    reference: &[nalgebra::Quaternion<f64>],
) -> Result<f64> {
    if reference.is_empty() {
        return Err(Error::InvalidParameter {
            name: "reference",
            value: "no rotor".into(),
            expected: "one reference rotor per sample time".into(),
        });
    }
    // Beyond 2⁵³ steps per sample the count is no longer an exact integer (and the run
    // would never end).
    let per_sample = (CYLINDER_SAMPLE / dt).round().max(1.0);
    let steps = (per_sample as usize).checked_mul(reference.len());
    let (true, Some(steps)) = (
        dt.is_finite() && dt > 0.0 && per_sample < 2f64.powi(53),
        steps,
    ) else {
        return Err(Error::InvalidParameter {
            name: "dt",
            value: format!("{dt:e}"),
            expected: "a finite positive step of fewer than 2⁵³ steps per sample".into(),
        });
    };
    let per_sample = per_sample as usize;
    let states = sampled(
        scheme,
        &mut GrowingTorqueCylinder,
        &GrowingTorqueCylinder::initial_state(),
        dt,
        steps,
        per_sample,
    )?;
    let sum: f64 = states
        .iter()
        .skip(1)
        .zip(reference)
        .map(|(s, r)| {
            s.rotors
                .first()
                .map_or(f64::NAN, |q| GrowingTorqueCylinder::axis_error(q, r))
        })
        .sum();
    Ok(sum / reference.len() as f64)
}

/// The sample interval of §3.3's error, s.
pub const CYLINDER_SAMPLE: f64 = 1e-3;

/// The sample times of §3.3's error: `k · 1 ms` up to [`GrowingTorqueCylinder::T_FINAL`].
pub fn cylinder_sample_times() -> Vec<f64> {
    let n = (GrowingTorqueCylinder::T_FINAL / CYLINDER_SAMPLE).round() as usize;
    (1..=n).map(|k| k as f64 * CYLINDER_SAMPLE).collect()
}

/// One point of §3.3's convergence study.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvergencePoint {
    /// The scheme's name.
    pub method: String,
    /// The step.
    pub dt: f64,
    /// `α` (Eq. 7); `NaN` if the run failed (a non-finite state).
    pub orientation_error: f64,
}

/// Collects [`ConvergencePoint`]s.
struct Convergence<'a> {
    steps: &'a [f64],
    reference: &'a [nalgebra::Quaternion<f64>],
    out: Vec<ConvergencePoint>,
}

impl SchemeVisitor<GrowingTorqueCylinder> for Convergence<'_> {
    fn visit<S: Stepper<GrowingTorqueCylinder, State = SystemState> + StepperInfo>(
        &mut self,
        mut scheme: S,
    ) -> Result<()> {
        let method = scheme.name().to_owned();
        for &dt in self.steps {
            let error = cylinder_alpha(&mut scheme, dt, self.reference).unwrap_or(f64::NAN);
            self.out.push(ConvergencePoint {
                method: method.clone(),
                dt,
                orientation_error: error,
            });
        }
        Ok(())
    }
}

/// §3.3: `α` of every scheme at each step of `steps`, against DOP853 at 1e-13.
///
/// # Errors
/// Those of the reference.
pub fn cylinder_convergence(steps: &[f64]) -> Result<Vec<ConvergencePoint>> {
    let reference: Vec<_> = GrowingTorqueCylinder::reference(&cylinder_sample_times(), 1e-13)?
        .into_iter()
        .map(|(q, _)| q)
        .collect();
    let mut visitor = Convergence {
        steps,
        reference: &reference,
        out: Vec::new(),
    };
    every_scheme(&[GrowingTorqueCylinder::body()?], &mut visitor)?;
    Ok(visitor.out)
}

/// §3.4's step, s (the paper gives none).
pub const CYLINDERS_STEP: f64 = 1e-2;
/// §3.4's duration, s: four coupling times.
pub const CYLINDERS_DURATION: f64 = 20.0;

/// §3.4: every scheme on the touching cylinders, sampled every `every` steps.
///
/// # Errors
/// Those of the runs.
pub fn cylinders_runs(every: usize) -> Result<Vec<SchemeRun>> {
    let steps = (CYLINDERS_DURATION / CYLINDERS_STEP).round() as usize;
    run_schemes(
        &TouchingCylinders::bodies()?,
        TouchingCylinders,
        &TouchingCylinders::initial_state(),
        CYLINDERS_STEP,
        steps,
        every,
        &[],
    )
}

/// The relative error of cylinder 1's angular velocity (about z, body frame) of a state
/// against the closed form.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `state` when it has no body.
pub fn cylinder1_relative_error(state: &SystemState) -> Result<f64> {
    let exact = TouchingCylinders::omegas(state.t)?[0];
    let omega = state
        .omegas
        .first()
        .ok_or_else(|| Error::InvalidParameter {
            name: "state",
            value: "no body".into(),
            expected: "the two cylinders' state".into(),
        })?;
    Ok((omega.z - exact).abs() / exact.abs())
}
