//! The SPIRAL paper's many-particle energy test (§5, Fig. 7): the relative change of the total
//! energy of 32 chess pieces bouncing in a box with Hertz contacts, against the step, for the
//! six-degree-of-freedom schemes, averaged over seeded random initial conditions; the cost of
//! each scheme; and the free-rotation energy drift that separates the schemes when the pieces
//! spin about their axes.

use std::f64::consts::PI;
use std::time::Instant;

use nalgebra::{Quaternion, Vector3};

use crate::dem::{
    ChessPiece, DENSITY, Hertz, POISSON, PieceBox, YOUNG, chess_set, random_state,
    rayleigh_time_step,
};
use crate::progress::{Task, task};
use crate::{Error, Result};
use lieode::body::quaternion::rotate_inverse;
use lieode::rotation::SpiralLeapfrog;
use lieode::rotation::{Fincham, Omelyan, Spiral, VelocityVerlet};
use lieode::stepper::{Span, Stepper};
use lieode::system::{
    CatalogueSystem, ImprovedPcdmSystem, PcdmSystem, SpiralLeapfrogSystem, SystemState,
};

/// The paper's energy level of Fig. 7 (0.0068 %).
pub const PAPER_LEVEL: f64 = 6.8e-5;

/// The half side of the box, m (the paper does not give its box; ours holds the 32 pieces
/// with room to fly: each piece's bounding sphere fills about 1 % of it).
pub const BOX_HALF_SIDE: f64 = 0.2;

/// The schemes of the study: SPIRAL leapfrog (fast path), Omelyan and Fincham (the paper's
/// three), SPIRAL non-leapfrog, Velocity Verlet, and the PCDM pair — all with leapfrog or
/// velocity-Verlet translation ([`lieode::system`]).
pub const ENERGY_METHODS: [&str; 7] = [
    "spiral_leapfrog",
    "omelyan",
    "fincham",
    "spiral",
    "velocity_verlet",
    "improved_pcdm",
    "pcdm",
];

/// The paper's three schemes.
pub const PAPER_METHODS: [&str; 3] = ["spiral_leapfrog", "omelyan", "fincham"];

/// The study's settings.
#[derive(Debug, Clone, PartialEq)]
pub struct EnergySettings {
    /// The simulated time of each run, s (the paper: 1.5 s).
    pub duration: f64,
    /// The number of random initial conditions averaged, seeds `1 … runs` (the paper: 50).
    pub runs: usize,
    /// The steps.
    pub steps: Vec<f64>,
    /// The initial angular speed about a random axis, rad/s (the paper: π).
    pub spin: f64,
    /// The schemes, names of [`ENERGY_METHODS`].
    pub methods: Vec<String>,
}

impl EnergySettings {
    /// The paper's: 1.5 s, 50 runs, Δt from 2e-5 down to 3.125e-7 s, every scheme (hours on
    /// this machine).
    pub fn full() -> Self {
        Self {
            duration: 1.5,
            runs: 50,
            steps: halvings(7),
            spin: PI,
            methods: ENERGY_METHODS.map(String::from).to_vec(),
        }
    }

    /// The default of `reproduce`: 0.05 s, 2 runs, Δt = 2e-5 … 2.5e-6 s, every scheme (about
    /// 15 s).
    pub fn quick() -> Self {
        Self {
            duration: 0.05,
            runs: 2,
            steps: halvings(4),
            ..Self::full()
        }
    }
}

/// `count` steps from 2e-5 s, each half the one before.
pub fn halvings(count: usize) -> Vec<f64> {
    (0..count).map(|k| 2e-5 / f64::from(1u32 << k)).collect()
}

/// One scheme at one step, over the runs.
#[derive(Debug, Clone, PartialEq)]
pub struct EnergyPoint {
    /// The scheme's name (one of [`ENERGY_METHODS`]).
    pub method: String,
    /// The step.
    pub dt: f64,
    /// The runs averaged.
    pub runs: usize,
    /// The mean of `|E(T) − E(0)| / E(0)` over the runs (infinite if a run blew up: a
    /// non-finite state).
    pub mean_rel_energy_change: f64,
    /// The largest over the runs.
    pub max_rel_energy_change: f64,
    /// The median over the runs (the changes scatter over decades from seed to seed).
    pub median_rel_energy_change: f64,
}

/// The wall-clock cost of one run (seed 1) of a scheme at a step, timed alone on one thread.
#[derive(Debug, Clone, PartialEq)]
pub struct CostPoint {
    /// The scheme's name.
    pub method: String,
    /// The step.
    pub dt: f64,
    /// Wall-clock seconds of the run (of the settings' duration).
    pub seconds: f64,
    /// Body-steps per second.
    pub body_steps_per_second: f64,
}

/// The model of the study: the chess set in the box, pieces' material.
///
/// # Errors
/// None for the paper's values.
pub fn chess_box() -> Result<PieceBox> {
    let modulus = Hertz::same_material_modulus(YOUNG, POISSON)?;
    Ok(PieceBox::chess(
        &chess_set(),
        BOX_HALF_SIDE,
        DENSITY,
        modulus,
    )?)
}

/// The Rayleigh step of the pieces' smallest sphere.
///
/// # Errors
/// None for the paper's values.
pub fn rayleigh_step() -> Result<f64> {
    let model = chess_box()?;
    let smallest = (0..model.bodies().len())
        .filter_map(|i| model.clump(i))
        .flat_map(|c| c.spheres().iter().map(|s| s.radius))
        .fold(f64::MAX, f64::min);
    Ok(rayleigh_time_step(smallest, DENSITY, YOUNG, POISSON))
}

/// The state after `duration` of `scheme` from `y0` at step `dt`, and the wall-clock seconds.
///
/// # Errors
/// Those of the run (a non-finite state when it blows up).
pub fn run_scheme<S: Stepper<PieceBox, State = SystemState>>(
    scheme: &mut S,
    model: &mut PieceBox,
    y0: &SystemState,
    dt: f64,
    duration: f64,
) -> Result<(SystemState, f64)> {
    let start = Instant::now();
    scheme.start(model, &Span::open(y0.t, dt)?, y0)?;
    for _ in 0..(duration / dt).round() as usize {
        scheme.step(model)?;
    }
    let seconds = start.elapsed().as_secs_f64();
    Ok((scheme.state(model)?, seconds))
}

/// The state after `duration` of the scheme `method` (a name of [`ENERGY_METHODS`]) from
/// `y0` at step `dt`, and the wall-clock seconds of the run.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `method` if it is not in [`ENERGY_METHODS`]; those of
/// the run.
pub fn run_method(
    method: &str,
    model: &mut PieceBox,
    y0: &SystemState,
    dt: f64,
    duration: f64,
) -> Result<(SystemState, f64)> {
    let bodies = model.bodies();
    match method {
        "spiral_leapfrog" => run_scheme(
            &mut SpiralLeapfrogSystem::new(bodies, SpiralLeapfrog::new),
            model,
            y0,
            dt,
            duration,
        ),
        "omelyan" => run_scheme(
            &mut CatalogueSystem::new(bodies, Omelyan::new),
            model,
            y0,
            dt,
            duration,
        ),
        "fincham" => run_scheme(
            &mut CatalogueSystem::new(bodies, Fincham::new),
            model,
            y0,
            dt,
            duration,
        ),
        "spiral" => run_scheme(
            &mut CatalogueSystem::new(bodies, Spiral::new),
            model,
            y0,
            dt,
            duration,
        ),
        "velocity_verlet" => run_scheme(
            &mut CatalogueSystem::new(bodies, VelocityVerlet::new),
            model,
            y0,
            dt,
            duration,
        ),
        "improved_pcdm" => run_scheme(
            &mut ImprovedPcdmSystem::new(bodies),
            model,
            y0,
            dt,
            duration,
        ),
        "pcdm" => run_scheme(&mut PcdmSystem::new(bodies), model, y0, dt, duration),
        other => Err(unknown_method(other)),
    }
}

fn unknown_method(name: &str) -> Error {
    Error::InvalidParameter {
        name: "method",
        value: name.to_owned(),
        expected: format!("one of {}", ENERGY_METHODS.join(", ")),
    }
}

/// `|E(T) − E(0)| / E(0)` of one run of the scheme `method` from `y0`, and its wall-clock
/// seconds.
///
/// # Errors
/// As [`run_method`].
pub fn energy_change(
    method: &str,
    model: &mut PieceBox,
    y0: &SystemState,
    dt: f64,
    duration: f64,
) -> Result<(f64, f64)> {
    let e0 = model.try_energy(y0)?;
    let (end, seconds) = run_method(method, model, y0, dt, duration)?;
    Ok(((model.try_energy(&end)? - e0).abs() / e0, seconds))
}

/// The paper's initial conditions of seeds `1 … runs` for the chess box, at angular speed
/// `spin`.
///
/// # Errors
/// As [`random_state`].
pub fn initial_states(model: &PieceBox, runs: usize, spin: f64) -> Result<Vec<SystemState>> {
    Ok((1..=runs as u64)
        .map(|seed| random_state(model, seed, 1.0, spin))
        .collect::<lieode::Result<_>>()?)
}

/// The energy changes of every run from `starts`; a run that blows up (any error of the run,
/// which for a known scheme is a non-finite state) counts as an infinite change. The runs are
/// independent, so they run in parallel with the `parallel` feature; the result does not
/// depend on the number of threads.
fn changes(
    method: &str,
    model: &PieceBox,
    starts: &[SystemState],
    dt: f64,
    duration: f64,
    task: &Task,
) -> Vec<f64> {
    let one = |y0: &SystemState| {
        let mut model = model.clone();
        let change =
            energy_change(method, &mut model, y0, dt, duration).map_or(f64::INFINITY, |(c, _)| c);
        task.advance(steps_of(dt, duration));
        change
    };
    use rayon::prelude::*;
    starts.par_iter().map(one).collect()
}

/// The study: for every scheme of `settings.methods` and every step, the mean, largest and
/// median energy change over the seeds `1 … runs`.
///
/// # Errors
/// [`Error::InvalidParameter`] naming `method` for a name not in [`ENERGY_METHODS`]; those of
/// the initial conditions.
pub fn energy_study(settings: &EnergySettings) -> Result<Vec<EnergyPoint>> {
    check_methods(&settings.methods)?;
    let model = chess_box()?;
    let starts = initial_states(&model, settings.runs, settings.spin)?;
    let task = task("energy study", settings.runs as u64 * study_steps(settings));
    let mut out = Vec::new();
    for method in &settings.methods {
        for &dt in &settings.steps {
            let mut all = changes(method, &model, &starts, dt, settings.duration, &task);
            all.sort_by(f64::total_cmp);
            let runs = all.len();
            let median = match runs {
                0 => f64::NAN,
                _ if runs % 2 == 1 => all[runs / 2],
                _ => 0.5 * (all[runs / 2 - 1] + all[runs / 2]),
            };
            out.push(EnergyPoint {
                method: method.clone(),
                dt,
                runs,
                mean_rel_energy_change: all.iter().sum::<f64>() / runs.max(1) as f64,
                max_rel_energy_change: all.iter().copied().fold(0.0, f64::max),
                median_rel_energy_change: median,
            });
        }
    }
    Ok(out)
}

fn check_methods(methods: &[String]) -> Result<()> {
    match methods
        .iter()
        .find(|m| !ENERGY_METHODS.contains(&m.as_str()))
    {
        Some(m) => Err(unknown_method(m)),
        None => Ok(()),
    }
}

/// The wall-clock cost of one run of `duration` at `dt` from seed 1 for `method`, timed alone
/// (one thread).
///
/// # Errors
/// As [`run_method`]; a run that blows up gives NaN seconds.
pub fn cost_of(method: &str, dt: f64, duration: f64, spin: f64) -> Result<CostPoint> {
    let mut model = chess_box()?;
    let y0 = random_state(&model, 1, 1.0, spin)?;
    check_methods(&[method.to_owned()])?;
    let seconds = run_method(method, &mut model, &y0, dt, duration).map_or(f64::NAN, |r| r.1);
    let steps = (duration / dt).round();
    Ok(CostPoint {
        method: method.to_owned(),
        dt,
        seconds,
        body_steps_per_second: steps * model.bodies().len() as f64 / seconds,
    })
}

/// [`cost_of`] for every scheme and step of `settings`.
///
/// # Errors
/// As [`cost_of`].
pub fn cost_study(settings: &EnergySettings) -> Result<Vec<CostPoint>> {
    let task = task("cost study", study_steps(settings));
    let mut out = Vec::new();
    for method in &settings.methods {
        for &dt in &settings.steps {
            out.push(cost_of(method, dt, settings.duration, settings.spin)?);
            task.advance(steps_of(dt, settings.duration));
        }
    }
    Ok(out)
}

/// The steps of one run of `duration` at `dt` (the unit of the studies' progress).
fn steps_of(dt: f64, duration: f64) -> u64 {
    (duration / dt).round() as u64
}

/// The steps of one run of every scheme at every step of `settings`.
fn study_steps(settings: &EnergySettings) -> u64 {
    let per_scheme: u64 = settings
        .steps
        .iter()
        .map(|&dt| steps_of(dt, settings.duration))
        .sum();
    per_scheme * settings.methods.len() as u64
}

/// The step at which a scheme's mean energy change crosses `level`, interpolated in
/// `log Δt`–`log change` between the first pair of neighbouring steps (from the largest) that
/// brackets it (`None` if no pair of finite, positive changes does).
pub fn step_for_level(points: &[EnergyPoint], method: &str, level: f64) -> Option<f64> {
    let mut own: Vec<&EnergyPoint> = points.iter().filter(|p| p.method == method).collect();
    own.sort_by(|a, b| b.dt.total_cmp(&a.dt));
    own.windows(2).find_map(|w| {
        let (a, b) = (w[0], w[1]);
        let (ea, eb) = (a.mean_rel_energy_change, b.mean_rel_energy_change);
        let usable = ea.is_finite() && eb.is_finite() && ea > 0.0 && eb > 0.0;
        if usable && (ea - level) * (eb - level) <= 0.0 && ea != eb {
            let f = (level.ln() - ea.ln()) / (eb.ln() - ea.ln());
            Some((a.dt.ln() + f * (b.dt.ln() - a.dt.ln())).exp())
        } else {
            None
        }
    })
}

/// A single piece spinning freely at the centre of a box of half side 0.1 m, which it never
/// touches: the relative change of its
/// kinetic energy after `duration` under the scheme `method` at step `dt`, from the body-frame
/// angular velocity with `axial` rad/s about the piece's axis and `transverse` rad/s about a
/// perpendicular one. The exact motion keeps the energy: what changes is the scheme's drift.
///
/// # Errors
/// As [`run_method`].
pub fn free_rotation_drift(
    method: &str,
    piece: ChessPiece,
    axial: f64,
    transverse: f64,
    dt: f64,
    duration: f64,
) -> Result<f64> {
    let modulus = Hertz::same_material_modulus(YOUNG, POISSON)?;
    let mut model = PieceBox::chess(&[piece], 0.1, DENSITY, modulus)?;
    let mut y0 = SystemState::at_rest(0.0, 1);
    y0.rotors[0] = Quaternion::identity();
    y0.omegas[0] = rotate_inverse(&y0.rotors[0], &Vector3::new(transverse, 0.0, axial));
    Ok(energy_change(method, &mut model, &y0, dt, duration)?.0)
}
