//! Boyle's paper (M. Boyle, *The integration of angular velocity*, Adv. Appl. Clifford Algebras
//! 27 (2017) 2345–2374, arXiv:1604.08139), §VI and the Appendix: the precessing and nutating
//! binary integrated in every rotation formulation of [`lieode::kinematics`] with DOP853 and
//! ODEX (Figs. 2–4), the four Zupan–Saje rotations (Fig. 5), and numpy-quaternion's
//! version of the binary with its accuracy requirement.
//!
//! Every run uses absolute tolerances only (`rtol = 0`), as the paper does, and measures the
//! error norm δ(t) of Eq. (25) — the frame distance `‖E(t) − A(t)‖_F` — after every accepted
//! step against the closed-form rotation ([`lieode::problems::boyle`]).

use std::path::Path;
use std::time::Instant;

use nalgebra::{Const, SVector};

use crate::Result;
use crate::output::output_dir;
use lieode::adaptive::odex::OdexParameters;
use lieode::adaptive::{
    ControllerParameters, Dop853, LieStepper, Odex, Summation, Tolerances, VectorStepper,
};
use lieode::integrate::{Options, Record, integrate};
use lieode::kinematics::{
    Formulated, Formulation, Generator, Lifted, Named, Rotor, TwoFrameVectors,
};
use lieode::lie::LieGroup;
use lieode::lie::unit_quaternion::UnitQuat;
use lieode::problems::boyle::{
    ExactKinematics, ExactRotation, NumpyQuaternionBinary, PrecessingBinary, ZupanSaje, frame_error,
};
use lieode::stepper::Stepper;
use lieode_study::csv::{Cell, Table};
use lieode_study::plot::{
    Curve, CurveStyle, Figure, Scale, WorkAxis, time_figure, work_precision_figure,
};

use super::Report;

/// The absolute tolerances of Figs. 2–3: `10⁻⁴ … 10⁻¹⁴`.
pub const TOLERANCES: [f64; 11] = [
    1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14,
];

/// The tolerances of the Zupan–Saje runs (Fig. 5): `10⁻⁴ … 10⁻¹²` in factors of 100.
pub const ZUPAN_SAJE_TOLERANCES: [f64; 5] = [1e-4, 1e-6, 1e-8, 1e-10, 1e-12];

/// The span of the evolved quantities of Fig. 4: the first 20 000 time units.
pub const FIGURE4_T_END: f64 = 20_000.0;

/// Points per curve kept in `fig2_error_vs_t.csv` (every step is measured; the curve is thinned
/// to the largest δ of each of this many time bins).
const FIGURE2_POINTS: usize = 1000;

/// One integration of a closed-form rotation and what was measured.
#[derive(Debug, Clone)]
pub struct BoyleRun {
    /// The formulation's name.
    pub formulation: &'static str,
    /// `DOP853` or `ODEX`.
    pub integrator: &'static str,
    /// The absolute tolerance.
    pub tol: f64,
    /// `max_t δ(t)` over every accepted step.
    pub max_delta: f64,
    /// `max_t 2|log(R_exact R⁻¹)|`, the intrinsic distance numpy-quaternion's test bounds.
    pub max_intrinsic: f64,
    /// Right-hand-side evaluations.
    pub evaluations: usize,
    /// Accepted steps.
    pub steps: usize,
    /// Wall time of the run in seconds.
    pub seconds: f64,
    /// Resets of the generator.
    pub resets: usize,
    /// The final time.
    pub t_end: f64,
    /// The final rotor, scalar first, with the sign as integrated.
    pub final_rotor: [f64; 4],
    /// `(t, δ(t))` at every step (kept only when asked for).
    pub deltas: Vec<(f64, f64)>,
    /// `(t, components)` of the evolved rotation state (kept only when asked for).
    pub components: Vec<(f64, Vec<f64>)>,
}

/// What to keep of a run besides its maxima.
#[derive(Debug, Clone, Copy, Default)]
struct Keep {
    deltas: bool,
    components: bool,
}

/// Runs `formulation` with `stepper` on `exact` over `[t0, t_end]` and measures δ after every
/// step.
#[allow(clippy::too_many_arguments)]
fn measure<'a, E, F, S>(
    exact: &'a E,
    formulation: F,
    stepper: S,
    integrator: &'static str,
    tol: f64,
    t_end: f64,
    keep: Keep,
) -> Result<BoyleRun>
where
    E: ExactRotation + ?Sized,
    F: Formulation<0> + Named,
    S: Stepper<F::Ode<ExactKinematics<'a, E>>, State = F::State>,
{
    let (t0, _) = exact.span();
    let q0 = UnitQuat::from_quaternion_normalized(exact.rotor(t0))?;
    let span = lieode::stepper::Span::new(t0, t_end)?;
    let start = Instant::now();
    let mut formulated = Formulated::new(formulation, stepper);
    let mut ode = formulated.ode(ExactKinematics(exact));
    let y0 = formulated.initial_state(&q0, &SVector::zeros())?;
    let sol = integrate(
        &mut formulated,
        &mut ode,
        &y0,
        &span,
        Options::record(Record::All),
    )?;
    let seconds = start.elapsed().as_secs_f64();
    let formulation = formulated.formulation();
    let mut run = BoyleRun {
        formulation: formulation.name(),
        integrator,
        tol,
        max_delta: 0.0,
        max_intrinsic: 0.0,
        evaluations: sol.stats.rhs_evaluations,
        steps: sol.stats.accepted,
        seconds,
        resets: formulated.resets(),
        t_end: *sol.times.last().unwrap_or(&t0),
        final_rotor: [0.0; 4],
        deltas: Vec::new(),
        components: Vec::new(),
    };
    let (frames, rotors) = (formulated.frames(&sol), formulated.rotors(&sol));
    for ((t, frame), rotor) in sol.times.iter().zip(&frames).zip(&rotors) {
        let delta = frame_error(&exact.frame(*t), frame);
        run.max_delta = run.max_delta.max(delta);
        let exact_rotor = UnitQuat::from_quaternion_normalized(exact.rotor(*t))?;
        // The rotation angle between the rotors, 2|log(R_exact R⁻¹)|.
        run.max_intrinsic = run.max_intrinsic.max(exact_rotor.distance(rotor)?);
        if keep.deltas {
            run.deltas.push((*t, delta));
        }
    }
    if keep.components {
        run.components = sol
            .times
            .iter()
            .zip(&sol.states)
            .map(|(t, y)| (*t, formulation.components(y)))
            .collect();
    }
    if let Some(y) = sol.states.last() {
        run.final_rotor = final_rotor(formulation, y);
    }
    Ok(run)
}

/// The final rotor as the formulation holds it: the rotor's own components (sign and norm as
/// integrated, divided by the norm), `exp(r)` for a generator, the nearest rotor of a frame.
fn final_rotor<F: Formulation<0>>(formulation: &F, y: &F::State) -> [f64; 4] {
    let q = formulation.rotor(y);
    let q = q.quaternion();
    [q.w, q.i, q.j, q.k]
}

/// Hairer's DOP853 with absolute tolerance `tol`, in the Fortran code's arithmetic
/// ([`Summation::Hairer`]): the published figures of `docs/formulations.md` (the evaluations
/// to δ = 1e-8 to six digits) were made with it, and the library's default summation moves
/// them in the fifth digit.
fn dop853<const N: usize>(tol: f64) -> Result<VectorStepper<Dop853<Const<N>>, N>> {
    Ok(VectorStepper::new(
        Dop853::new(
            Tolerances::scalar(0.0, tol)?,
            ControllerParameters::dop853(),
        )?
        .with_summation(Summation::Hairer),
    ))
}

fn odex<const N: usize>(tol: f64) -> Result<VectorStepper<Odex<Const<N>>, N>> {
    Ok(VectorStepper::new(Odex::new(
        Tolerances::scalar(0.0, tol)?,
        OdexParameters::default(),
    )?))
}

/// One problem, tolerance and span: runs a formulation with each integrator.
#[derive(Debug, Clone, Copy)]
struct Job<'a, E: ?Sized> {
    exact: &'a E,
    tol: f64,
    t_end: f64,
    keep: Keep,
}

impl<'a, E: ExactRotation + ?Sized> Job<'a, E> {
    fn new(exact: &'a E, tol: f64, t_end: f64) -> Self {
        Self {
            exact,
            tol,
            t_end,
            keep: Keep::default(),
        }
    }

    fn dop853<F, const N: usize>(&self, formulation: F) -> Result<BoyleRun>
    where
        F: Formulation<0, State = SVector<f64, N>> + Named,
        VectorStepper<Dop853<Const<N>>, N>:
            Stepper<F::Ode<ExactKinematics<'a, E>>, State = F::State>,
    {
        measure(
            self.exact,
            formulation,
            dop853::<N>(self.tol)?,
            "DOP853",
            self.tol,
            self.t_end,
            self.keep,
        )
    }

    fn odex<F, const N: usize>(&self, formulation: F) -> Result<BoyleRun>
    where
        F: Formulation<0, State = SVector<f64, N>> + Named,
        VectorStepper<Odex<Const<N>>, N>: Stepper<F::Ode<ExactKinematics<'a, E>>, State = F::State>,
    {
        measure(
            self.exact,
            formulation,
            odex::<N>(self.tol)?,
            "ODEX",
            self.tol,
            self.t_end,
            self.keep,
        )
    }

    /// The Lie-lifted formulation with DOP853 and with ODEX.
    fn lifted(&self) -> Result<[BoyleRun; 2]> {
        let tolerances = Tolerances::scalar(0.0, self.tol)?;
        // Hairer's arithmetic, as for the ambient formulations ([`dop853`]).
        let dop = LieStepper::new(
            Dop853::new(tolerances.clone(), ControllerParameters::dop853())?
                .with_summation(Summation::Hairer),
        );
        let ex = LieStepper::new(Odex::new(tolerances, OdexParameters::default())?);
        let (tol, t_end, keep) = (self.tol, self.t_end, self.keep);
        Ok([
            measure(self.exact, Lifted, dop, "DOP853", tol, t_end, keep)?,
            measure(self.exact, Lifted, ex, "ODEX", tol, t_end, keep)?,
        ])
    }
}

/// Every formulation of Fig. 3 with DOP853 and ODEX at `tol` (two frame vectors, rotor,
/// generator, reset generator, Lie-lifted), or only those of Fig. 5 (`all = false`: vectors,
/// rotor, reset generator).
fn formulation_runs<E: ExactRotation + ?Sized>(
    exact: &E,
    tol: f64,
    t_end: f64,
    all: bool,
) -> Result<Vec<BoyleRun>> {
    let job = Job::new(exact, tol, t_end);
    let mut runs = vec![
        job.dop853(TwoFrameVectors::new())?,
        job.odex(TwoFrameVectors::new())?,
        job.dop853(Rotor)?,
        job.odex(Rotor)?,
        job.dop853(Generator::reset())?,
        job.odex(Generator::reset())?,
    ];
    if all {
        runs.push(job.dop853(Generator::plain())?);
        runs.push(job.odex(Generator::plain())?);
        runs.extend(job.lifted()?);
    }
    Ok(runs)
}

/// The reproduction's settings: the binary's span (the paper's 10⁶ by default) and the
/// tolerances.
#[derive(Debug, Clone)]
pub struct BoyleSettings {
    /// The end of the binary's integration.
    pub t_end: f64,
    /// The absolute tolerances of Figs. 2–3.
    pub tolerances: Vec<f64>,
}

impl Default for BoyleSettings {
    /// The paper's: `t ∈ [0, 10⁶]`, tolerances `10⁻⁴ … 10⁻¹⁴`.
    fn default() -> Self {
        Self {
            t_end: 1e6,
            tolerances: TOLERANCES.to_vec(),
        }
    }
}

/// Boyle's paper on the defaults ([`BoyleSettings::default`]): writes
/// `boyle_paper/{fig2_error_vs_t, fig3_error_vs_seconds, fig3_error_vs_evaluations,
/// fig3_error_vs_steps, fig4_*, fig5_*}.{png,svg,csv}`, `max_error.csv`,
/// `efficiency.csv`, `final_states.csv`, `numpy_quaternion.csv` and a summary
/// checking the paper's statements.
///
/// # Errors
/// Those of the runs, of the figures and of writing the files.
pub fn boyle_paper() -> Result<Report> {
    boyle_paper_with(&BoyleSettings::default())
}

/// [`boyle_paper`] with other settings (a shorter span or fewer tolerances for quick runs).
///
/// # Errors
/// As [`boyle_paper`].
pub fn boyle_paper_with(settings: &BoyleSettings) -> Result<Report> {
    let dir = output_dir("boyle_paper")?;
    let mut report = Report::new("boyle_paper");
    let binary = PrecessingBinary::paper();
    let mut summary = format!(
        "Boyle, precessing binary, t ∈ [0, {:e}], absolute tolerances {:e} … {:e}\n",
        settings.t_end,
        settings.tolerances.first().copied().unwrap_or(f64::NAN),
        settings.tolerances.last().copied().unwrap_or(f64::NAN)
    );

    // Fig. 2: δ(t) of the rotor with DOP853 at every tolerance.
    let mut fig2 = Vec::new();
    for &tol in &settings.tolerances {
        let mut job = Job::new(&binary, tol, settings.t_end);
        job.keep.deltas = true;
        fig2.push(job.dop853(Rotor)?);
    }
    write_figure2(&dir, &fig2, &mut report)?;

    // Fig. 3 and the tables: every formulation with both integrators.
    let mut runs = Vec::new();
    for &tol in &settings.tolerances {
        runs.extend(formulation_runs(&binary, tol, settings.t_end, true)?);
    }
    write_max_error(&dir, &runs, &mut report)?;
    write_efficiency(&dir, &runs, &mut report)?;
    write_figure3(&dir, &runs, &mut report)?;
    summary.push_str(&statements(&runs));

    // Fig. 4: the evolved quantities over the first 20 000 time units.
    write_figure4(
        &dir,
        &binary,
        settings.t_end.min(FIGURE4_T_END),
        &mut report,
    )?;

    // Fig. 5: the Zupan–Saje rotations.
    let mut final_rows = runs
        .iter()
        .map(|r| ("precessing_binary".to_string(), r.clone()))
        .collect::<Vec<_>>();
    let mut zupan = Vec::new();
    for example in ZupanSaje::ALL {
        let (_, end) = example.span();
        let mut example_runs = Vec::new();
        for &tol in &ZUPAN_SAJE_TOLERANCES {
            example_runs.extend(formulation_runs(&example, tol, end, false)?);
        }
        final_rows.extend(
            example_runs
                .iter()
                .map(|r| (example.name().to_string(), r.clone())),
        );
        zupan.push((example, example_runs));
    }
    write_figure5(&dir, &zupan, &mut report)?;
    summary.push_str(&zupan_summary(&zupan));

    // numpy-quaternion's binary: max 2|log(R_exact R⁻¹)| < 1e-10 at tol 1e-12.
    let numpy = NumpyQuaternionBinary::default();
    let (_, numpy_end) = numpy.span();
    let numpy_runs = formulation_runs(&numpy, 1e-12, numpy_end, true)?;
    final_rows.extend(
        numpy_runs
            .iter()
            .map(|r| ("numpy_quaternion_binary".to_string(), r.clone())),
    );
    summary.push_str(&numpy_summary(&numpy_runs));
    write_numpy(&dir, &numpy_runs, &mut report)?;
    write_final_states(&dir, &final_rows, &mut report)?;
    report.summary = summary;
    Ok(report)
}

/// The runs of one formulation and integrator, in tolerance order.
fn series<'r>(runs: &'r [BoyleRun], formulation: &str, integrator: &str) -> Vec<&'r BoyleRun> {
    runs.iter()
        .filter(|r| r.formulation == formulation && r.integrator == integrator)
        .collect()
}

/// The (formulation, integrator) pairs present, in first-seen order.
fn pairs(runs: &[BoyleRun]) -> Vec<(&'static str, &'static str)> {
    let mut out: Vec<(&'static str, &'static str)> = Vec::new();
    for r in runs {
        if !out.contains(&(r.formulation, r.integrator)) {
            out.push((r.formulation, r.integrator));
        }
    }
    out
}

/// The evaluations a series needs to reach `target` (log–log interpolation between the two
/// tolerances whose errors bracket it), or `None` if it never does.
fn evaluations_for(series: &[&BoyleRun], target: f64) -> Option<f64> {
    let mut points: Vec<(f64, f64)> = series
        .iter()
        .filter(|r| r.max_delta > 0.0)
        .map(|r| (r.evaluations as f64, r.max_delta))
        .collect();
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    points.windows(2).find_map(|w| {
        let ((e0, d0), (e1, d1)) = (w[0], w[1]);
        if d0 >= target && d1 <= target && d0 != d1 {
            let s = (target.log10() - d0.log10()) / (d1.log10() - d0.log10());
            Some(10f64.powf(e0.log10() + s * (e1.log10() - e0.log10())))
        } else {
            None
        }
    })
}

/// The paper's statements, each measured.
fn statements(runs: &[BoyleRun]) -> String {
    let mut out = String::from("\nmax δ and evaluations per formulation (DOP853 | ODEX):\n");
    out.push_str(&format!(
        "  {:<22} {:>10} {:>10} {:>12} {:>10} {:>10} {:>12}\n",
        "formulation", "δ(1e-10)", "evals", "evals→1e-8", "δ(1e-10)", "evals", "evals→1e-8"
    ));
    let target = EVALUATIONS_TARGET;
    for (formulation, _) in pairs(runs).into_iter().filter(|p| p.1 == "DOP853") {
        let mut line = format!("  {formulation:<22}");
        for integrator in ["DOP853", "ODEX"] {
            let s = series(runs, formulation, integrator);
            let at = s.iter().find(|r| r.tol == TABLE_TOLERANCE);
            let need = evaluations_for(&s, target);
            line.push_str(&format!(
                " {:>10} {:>10} {:>12}",
                at.map_or("—".into(), |r| format!("{:.2e}", r.max_delta)),
                at.map_or("—".into(), |r| r.evaluations.to_string()),
                need.map_or("—".into(), |e| format!("{e:.0}"))
            ));
        }
        out.push_str(&line);
        out.push('\n');
    }
    let need = |f: &str, i: &str| evaluations_for(&series(runs, f, i), target);
    let verdict = |b: bool| if b { "true" } else { "not true" };
    for integrator in ["DOP853", "ODEX"] {
        let (rotor, vectors, generator) = (
            need("rotor", integrator),
            need("two frame vectors", integrator),
            need("generator", integrator),
        );
        let ordered = match (rotor, vectors, generator) {
            (Some(r), Some(v), Some(g)) => r <= v && v <= g,
            (Some(r), Some(v), None) => r <= v,
            _ => false,
        };
        out.push_str(&format!(
            "  efficiency rotor ≥ vectors ≥ generator ({integrator}, evaluations to δ = 1e-8: {} / {} / {}): {}\n",
            fmt_opt(rotor),
            fmt_opt(vectors),
            fmt_opt(generator),
            verdict(ordered)
        ));
    }
    let (rotor, reset) = (need("rotor", "DOP853"), need("reset generator", "DOP853"));
    if let (Some(r), Some(g)) = (rotor, reset) {
        out.push_str(&format!(
            "  reset generator ≈ rotor with DOP853 (evaluations to 1e-8: {g:.0} vs {r:.0}, ratio {:.2}): {}\n",
            g / r,
            verdict((g / r - 1.0).abs() < 0.25)
        ));
    }
    for (integrator, lo, hi) in [("DOP853", 11.0, 13.5), ("ODEX", 20.0, 90.0)] {
        let per_step: Vec<f64> = runs
            .iter()
            .filter(|r| r.integrator == integrator && r.formulation == "rotor")
            .map(|r| r.evaluations as f64 / r.steps.max(1) as f64)
            .collect();
        let (min, max) = per_step
            .iter()
            .fold((f64::INFINITY, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
        out.push_str(&format!(
            "  {integrator}: {min:.1} … {max:.1} evaluations per step (paper: {}): {}\n",
            if integrator == "DOP853" {
                "just over 12"
            } else {
                "20 to 90"
            },
            verdict(min >= lo && max <= hi)
        ));
    }
    out
}

fn fmt_opt(x: Option<f64>) -> String {
    x.map_or("never".into(), |e| format!("{e:.0}"))
}

fn zupan_summary(zupan: &[(ZupanSaje, Vec<BoyleRun>)]) -> String {
    let mut out = String::from(
        "\nZupan–Saje rotations (Fig. 5): max δ at tol 1e-10, evaluations (DOP853 | ODEX)\n",
    );
    for (example, runs) in zupan {
        out.push_str(&format!("  {}:", example.name()));
        for (formulation, integrator) in pairs(runs) {
            if let Some(r) = runs.iter().find(|r| {
                r.formulation == formulation && r.integrator == integrator && r.tol == 1e-10
            }) {
                out.push_str(&format!(
                    " {formulation}/{integrator} {:.1e} ({})",
                    r.max_delta, r.evaluations
                ));
            }
        }
        out.push('\n');
    }
    out
}

fn numpy_summary(runs: &[BoyleRun]) -> String {
    let mut out = String::from(
        "\nnumpy-quaternion's binary, tol 1e-12: max 2|log(R_exact R⁻¹)| (their bound 1e-10)\n",
    );
    for r in runs {
        let required = r.formulation != "generator";
        out.push_str(&format!(
            "  {:<22} {:<7} {:.2e} ({} evaluations, {} steps){}\n",
            r.formulation,
            r.integrator,
            r.max_intrinsic,
            r.evaluations,
            r.steps,
            if required {
                if r.max_intrinsic < 1e-10 {
                    ", meets it"
                } else {
                    ", MISSES it"
                }
            } else {
                ", not required"
            }
        ));
    }
    out
}

/// A column of a runs table: its name and how a run fills it.
type Column = (&'static str, fn(&BoyleRun) -> Cell);

const FORMULATION: Column = ("formulation", |r| Cell::text(r.formulation));
const INTEGRATOR: Column = ("integrator", |r| Cell::text(r.integrator));
const TOL: Column = ("tol", |r| Cell::Real(r.tol));
const MAX_DELTA: Column = ("max_delta", |r| Cell::Real(r.max_delta));
const EVALUATIONS: Column = ("evaluations", |r| Cell::count(r.evaluations));
const STEPS: Column = ("steps", |r| Cell::count(r.steps));

/// Writes one row per run with `columns` to `dir/file` and lists it in the report.
fn write_runs(
    dir: &Path,
    file: &str,
    columns: &[Column],
    runs: &[BoyleRun],
    description: &str,
    report: &mut Report,
) -> Result<()> {
    let names: Vec<&str> = columns.iter().map(|c| c.0).collect();
    let mut table = Table::new(&names)?;
    for r in runs {
        table.push(columns.iter().map(|(_, cell)| cell(r)).collect())?;
    }
    let path = dir.join(file);
    table.write(&path)?;
    report.add(&path, description);
    Ok(())
}

fn write_max_error(dir: &Path, runs: &[BoyleRun], report: &mut Report) -> Result<()> {
    let seconds: Column = ("seconds", |r| Cell::Real(r.seconds));
    write_runs(
        dir,
        "max_error.csv",
        &[
            FORMULATION,
            INTEGRATOR,
            TOL,
            MAX_DELTA,
            EVALUATIONS,
            STEPS,
            seconds,
        ],
        runs,
        "the precessing binary: maximum error norm δ (Eq. 25) over every step, evaluations, \
         steps and wall time for each formulation, integrator and absolute tolerance",
        report,
    )
}

/// The error `δ` at which `efficiency.csv` (and the summary's statements) compare the
/// formulations' work.
pub const EVALUATIONS_TARGET: f64 = 1e-8;

/// The tolerance at which `efficiency.csv` (and the summary) report each formulation's maximum
/// `δ`, evaluations and steps.
pub const TABLE_TOLERANCE: f64 = 1e-10;

/// `efficiency.csv`: `formulation,integrator,tol,max_delta,evaluations,steps,target,
/// evaluations_to_target`, one row per formulation and integrator: the run at
/// [`TABLE_TOLERANCE`] (NaN and 0 without one) and the evaluations needed to reach
/// `δ =` [`EVALUATIONS_TARGET`] (log–log interpolation over the tolerances; NaN if no two
/// tolerances bracket it) — the Fig. 3 table of `docs/formulations.md`.
fn write_efficiency(dir: &Path, runs: &[BoyleRun], report: &mut Report) -> Result<()> {
    let mut table = Table::new(&[
        "formulation",
        "integrator",
        "tol",
        "max_delta",
        "evaluations",
        "steps",
        "target",
        "evaluations_to_target",
    ])?;
    for (formulation, integrator) in pairs(runs) {
        let s = series(runs, formulation, integrator);
        let at = s.iter().find(|r| r.tol == TABLE_TOLERANCE);
        let need = evaluations_for(&s, EVALUATIONS_TARGET);
        table.push(vec![
            Cell::text(formulation),
            Cell::text(integrator),
            Cell::Real(TABLE_TOLERANCE),
            Cell::Real(at.map_or(f64::NAN, |r| r.max_delta)),
            Cell::count(at.map_or(0, |r| r.evaluations)),
            Cell::count(at.map_or(0, |r| r.steps)),
            Cell::Real(EVALUATIONS_TARGET),
            Cell::Real(need.unwrap_or(f64::NAN)),
        ])?;
    }
    let path = dir.join("efficiency.csv");
    table.write(&path)?;
    report.add(
        &path,
        "the precessing binary per formulation and integrator: maximum δ, evaluations and steps \
         at tol 1e-10, and the evaluations needed to reach δ = 1e-8 (log–log interpolation \
         between the tolerances that bracket it)",
    );
    Ok(())
}

fn write_final_states(dir: &Path, rows: &[(String, BoyleRun)], report: &mut Report) -> Result<()> {
    let mut table = Table::new(&[
        "problem",
        "formulation",
        "integrator",
        "tol",
        "t",
        "w",
        "x",
        "y",
        "z",
    ])?;
    for (problem, r) in rows {
        let [w, x, y, z] = r.final_rotor;
        table.push(vec![
            Cell::text(problem.clone()),
            Cell::text(r.formulation),
            Cell::text(r.integrator),
            Cell::Real(r.tol),
            Cell::Real(r.t_end),
            Cell::Real(w),
            Cell::Real(x),
            Cell::Real(y),
            Cell::Real(z),
        ])?;
    }
    let path = dir.join("final_states.csv");
    table.write(&path)?;
    report.add(
        &path,
        "the unit rotor at the final time of every run (scalar first; the rotor's own sign, \
         exp(r) for generators, the nearest rotor of the frame vectors)",
    );
    Ok(())
}

fn write_numpy(dir: &Path, runs: &[BoyleRun], report: &mut Report) -> Result<()> {
    let intrinsic: Column = ("max_intrinsic_distance", |r| Cell::Real(r.max_intrinsic));
    write_runs(
        dir,
        "numpy_quaternion.csv",
        &[
            FORMULATION,
            INTEGRATOR,
            TOL,
            intrinsic,
            MAX_DELTA,
            EVALUATIONS,
            STEPS,
        ],
        runs,
        "numpy-quaternion's binary (T = 1e4) at tol 1e-12: the maximum intrinsic distance \
         2|log(R_exact R⁻¹)| its test bounds by 1e-10, for every formulation",
        report,
    )
}

/// The largest δ in each of `bins` equal time bins (the curve's shape without 10⁵ points).
fn thin(points: &[(f64, f64)], bins: usize) -> (Vec<f64>, Vec<f64>) {
    let (Some(first), Some(last)) = (points.first(), points.last()) else {
        return (Vec::new(), Vec::new());
    };
    let width = (last.0 - first.0) / bins as f64;
    let mut out: Vec<(f64, f64)> = Vec::new();
    for &(t, d) in points {
        if d <= 0.0 {
            continue;
        }
        let bin = ((t - first.0) / width).floor();
        match out.last_mut() {
            Some(last) if ((last.0 - first.0) / width).floor() == bin => {
                if d > last.1 {
                    *last = (t, d);
                }
            }
            _ => out.push((t, d)),
        }
    }
    out.into_iter().unzip()
}

fn write_figure2(dir: &Path, runs: &[BoyleRun], report: &mut Report) -> Result<()> {
    let curves: Vec<Curve> = runs
        .iter()
        .map(|r| {
            let (x, y) = thin(&r.deltas, FIGURE2_POINTS);
            Curve::new(format!("tol {:.0e}", r.tol), x, y)
        })
        .filter(|c| !c.x.is_empty())
        .collect();
    let fig = time_figure(
        "Boyle Fig. 2: error norm δ(t), rotor with DOP853",
        "error norm δ",
        &curves,
        Scale::Log,
    )?;
    let files = fig.save(dir, "fig2_error_vs_t")?;
    report.add_figure(
        &files,
        "δ(t) of Eq. (25) for the rotor with DOP853 at absolute tolerances 1e-4 … 1e-14 (PNG)",
        "its points (series, t, δ): the largest δ in each of 1000 time bins",
    );
    Ok(())
}

fn write_figure3(dir: &Path, runs: &[BoyleRun], report: &mut Report) -> Result<()> {
    for (stem, axis, label, pick) in [
        (
            "fig3_error_vs_seconds",
            Some(WorkAxis::WallTime),
            "wall time",
            (|r: &BoyleRun| r.seconds) as fn(&BoyleRun) -> f64,
        ),
        (
            "fig3_error_vs_evaluations",
            Some(WorkAxis::Evaluations),
            "evaluations",
            |r: &BoyleRun| r.evaluations as f64,
        ),
        ("fig3_error_vs_steps", None, "steps", |r: &BoyleRun| {
            r.steps as f64
        }),
    ] {
        let curves: Vec<Curve> = pairs(runs)
            .into_iter()
            .map(|(f, i)| {
                let s = series(runs, f, i);
                let (x, y) = s.iter().map(|r| (pick(r), r.max_delta)).unzip();
                Curve::new(format!("{f} ({i})"), x, y)
            })
            .collect();
        let fig = match axis {
            Some(axis) => work_precision_figure(
                &format!("Boyle Fig. 3: maximum δ against {label}, precessing binary"),
                axis,
                &curves,
            )?,
            None => curves.into_iter().fold(
                Figure::new("Boyle Fig. 3: maximum δ against steps, precessing binary")
                    .with_x_label("accepted steps")
                    .with_y_label("maximum error norm δ")
                    .with_x_scale(Scale::Log)
                    .with_y_scale(Scale::Log)
                    .with_style(CurveStyle::LineAndMarkers),
                Figure::with_curve,
            ),
        }
        .with_y_label("maximum error norm δ");
        let files = fig.save(dir, stem)?;
        report.add_figure(
            &files,
            &format!(
                "maximum δ against {label} for every formulation with DOP853 and ODEX, one point \
                 per tolerance (PNG)"
            ),
            "its points (series, x, max δ)",
        );
    }
    Ok(())
}

fn write_figure4<E: ExactRotation + ?Sized>(
    dir: &Path,
    exact: &E,
    t_end: f64,
    report: &mut Report,
) -> Result<()> {
    let mut job = Job::new(exact, 1e-10, t_end);
    job.keep.components = true;
    let runs = [
        job.dop853(TwoFrameVectors::new())?,
        job.dop853(Rotor)?,
        job.dop853(Generator::plain())?,
        job.dop853(Generator::reset())?,
    ];
    for (run, stem) in runs
        .iter()
        .zip(["vectors", "rotor", "generator", "reset_generator"])
    {
        let n = run.components.first().map_or(0, |c| c.1.len());
        let curves: Vec<Curve> = (0..n)
            .map(|k| {
                let (x, y) = run.components.iter().map(|(t, c)| (*t, c[k])).unzip();
                Curve::new(format!("component {k}"), x, y)
            })
            .collect();
        let fig = time_figure(
            &format!("Boyle Fig. 4: evolved quantities, {}", run.formulation),
            "component",
            &curves,
            Scale::Linear,
        )?;
        let files = fig.save(dir, &format!("fig4_{stem}"))?;
        report.add_figure(
            &files,
            &format!(
                "the components of the {} along t ∈ [0, {t_end}] (DOP853, tol 1e-10, every step) (PNG)",
                run.formulation
            ),
            "its points (series, t, component)",
        );
    }
    Ok(())
}

fn write_figure5(
    dir: &Path,
    zupan: &[(ZupanSaje, Vec<BoyleRun>)],
    report: &mut Report,
) -> Result<()> {
    for (example, runs) in zupan {
        let curves: Vec<Curve> = pairs(runs)
            .into_iter()
            .map(|(f, i)| {
                let s = series(runs, f, i);
                let (x, y) = s
                    .iter()
                    .filter(|r| r.max_delta > 0.0)
                    .map(|r| (r.evaluations as f64, r.max_delta))
                    .unzip();
                Curve::new(format!("{f} ({i})"), x, y)
            })
            .collect();
        let (t0, t1) = example.span();
        let fig = work_precision_figure(
            &format!("Boyle Fig. 5: {}, t ∈ [{t0}, {t1}]", example.description()),
            WorkAxis::Evaluations,
            &curves,
        )?
        .with_y_label("maximum error norm δ");
        let files = fig.save(dir, &format!("fig5_{}", example.name()))?;
        report.add_figure(
            &files,
            &format!(
                "maximum δ against evaluations, Zupan–Saje rotation {} (PNG)",
                example.description()
            ),
            "its points (series, evaluations, max δ)",
        );
    }
    Ok(())
}
