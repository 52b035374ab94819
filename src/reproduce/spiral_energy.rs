//! The SPIRAL paper's many-particle energy test (§5, Fig. 7): the relative change of the total
//! energy of 32 chess pieces bouncing in a box with Hertz contacts, against the step, for the
//! six-degree-of-freedom schemes, averaged over seeded random initial conditions.

use std::f64::consts::PI;
use std::time::Instant;

use crate::body::RigidBody;
use crate::error::Result;
use crate::problems::dem::{
    DENSITY, Hertz, POISSON, PieceBox, YOUNG, chess_set, random_state, rayleigh_time_step,
};
use crate::rotation::{Fincham, Omelyan, Spiral, VelocityVerlet};
use crate::stepper::{Span, Stepper, StepperInfo};
use crate::system::{
    CatalogueSystem, ImprovedPcdmSystem, PcdmSystem, SpiralLeapfrogSystem, SystemMethod,
    SystemState,
};

/// The paper's energy level of Fig. 7 (0.0068 %).
pub const PAPER_LEVEL: f64 = 6.8e-5;

/// The half side of the box, m (the paper does not give its box; ours holds the 32 pieces
/// with room to fly: each piece's bounding sphere fills about 1 % of it).
pub const BOX_HALF_SIDE: f64 = 0.2;

/// The study's settings.
#[derive(Debug, Clone, PartialEq)]
pub struct EnergySettings {
    /// The simulated time of each run, s (the paper: 1.5 s).
    pub duration: f64,
    /// The number of random initial conditions averaged (the paper: 50).
    pub runs: usize,
    /// The steps.
    pub steps: Vec<f64>,
}

impl EnergySettings {
    /// The paper's: 1.5 s, 50 runs, Δt from 2e-5 down to 3.125e-7 s (hours on this machine).
    pub fn full() -> Self {
        Self {
            duration: 1.5,
            runs: 50,
            steps: (0..7).map(|k| 2e-5 / f64::from(1 << k)).collect(),
        }
    }

    /// The default of `reproduce`: 0.05 s, 2 runs, Δt = 2e-5 … 2.5e-6 s (about 10 s).
    pub fn quick() -> Self {
        Self {
            duration: 0.05,
            runs: 2,
            steps: (0..4).map(|k| 2e-5 / f64::from(1 << k)).collect(),
        }
    }
}

/// One method at one step, over the runs.
#[derive(Debug, Clone, PartialEq)]
pub struct EnergyPoint {
    /// The method's name.
    pub method: String,
    /// The step.
    pub dt: f64,
    /// The runs averaged.
    pub runs: usize,
    /// The mean and the largest `|E(T) − E(0)| / E(0)` over the runs (infinite if a run blew
    /// up: a non-finite state).
    pub mean_rel_energy_change: f64,
    /// The largest over the runs.
    pub max_rel_energy_change: f64,
    /// The wall-clock seconds of one run (mean; NaN if a run blew up).
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
    PieceBox::chess(&chess_set(), BOX_HALF_SIDE, DENSITY, modulus)
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

/// `|E(T) − E(0)| / E(0)` of one run of `scheme` from `y0` and its wall-clock seconds.
///
/// # Errors
/// Those of the run.
pub fn energy_change<S: Stepper<PieceBox, State = SystemState>>(
    scheme: &mut S,
    model: &mut PieceBox,
    y0: &SystemState,
    dt: f64,
    duration: f64,
) -> Result<(f64, f64)> {
    let e0 = model.energy(y0);
    let start = Instant::now();
    scheme.start(model, &Span::open(y0.t, dt)?, y0)?;
    for _ in 0..(duration / dt).round() as usize {
        scheme.step(model)?;
    }
    let seconds = start.elapsed().as_secs_f64();
    let end = scheme.state(model)?;
    Ok(((model.energy(&end) - e0).abs() / e0, seconds))
}

/// The schemes of the study: SPIRAL leapfrog (fast path), Omelyan and Fincham (the paper's
/// three), SPIRAL non-leapfrog, Velocity Verlet, and the PCDM pair.
pub const ENERGY_METHODS: [&str; 7] = [
    "spiral_leapfrog",
    "omelyan",
    "fincham",
    "spiral",
    "velocity_verlet",
    "improved_pcdm",
    "pcdm",
];

/// One method's points at every step of `settings`, seeds `1 … runs`.
fn study<S: Stepper<PieceBox, State = SystemState> + StepperInfo>(
    make: impl Fn(&PieceBox) -> S,
    settings: &EnergySettings,
    out: &mut Vec<EnergyPoint>,
) -> Result<()> {
    let mut model = chess_box()?;
    let starts = (1..=settings.runs as u64)
        .map(|seed| random_state(&model, seed, 1.0, PI))
        .collect::<Result<Vec<_>>>()?;
    for &dt in &settings.steps {
        let (mut sum, mut max, mut seconds) = (0.0, 0.0f64, 0.0);
        let mut name = String::new();
        for y0 in &starts {
            let mut scheme = make(&model);
            name = scheme.name().to_owned();
            // A run that blows up (a non-finite state) counts as an infinite change.
            let (change, time) = energy_change(&mut scheme, &mut model, y0, dt, settings.duration)
                .unwrap_or((f64::INFINITY, f64::NAN));
            sum += change;
            max = max.max(change);
            seconds += time;
        }
        let runs = starts.len().max(1) as f64;
        let steps = (settings.duration / dt).round();
        out.push(EnergyPoint {
            method: name,
            dt,
            runs: starts.len(),
            mean_rel_energy_change: sum / runs,
            max_rel_energy_change: max,
            seconds: seconds / runs,
            body_steps_per_second: steps * model.bodies().len() as f64 * runs / seconds,
        });
    }
    Ok(())
}

/// The study of every method of [`ENERGY_METHODS`].
///
/// # Errors
/// Those of the runs.
pub fn energy_study(settings: &EnergySettings) -> Result<Vec<EnergyPoint>> {
    let mut out = Vec::new();
    study(
        |m| SpiralLeapfrogSystem::new(m.bodies()),
        settings,
        &mut out,
    )?;
    fn catalogue<K: SystemMethod>(
        make: fn(RigidBody) -> K,
    ) -> impl Fn(&PieceBox) -> CatalogueSystem<K> {
        move |m| CatalogueSystem::new(m.bodies(), make)
    }
    study(catalogue(Omelyan::new), settings, &mut out)?;
    study(catalogue(Fincham::new), settings, &mut out)?;
    study(catalogue(Spiral::new), settings, &mut out)?;
    study(catalogue(VelocityVerlet::new), settings, &mut out)?;
    study(|m| ImprovedPcdmSystem::new(m.bodies()), settings, &mut out)?;
    study(|m| PcdmSystem::new(m.bodies()), settings, &mut out)?;
    Ok(out)
}

/// The step at which a method's mean energy change crosses `level`, interpolated in
/// `log Δt`–`log change` between the bracketing steps (`None` if no pair of finite, positive
/// changes brackets it).
pub fn step_for_level(points: &[EnergyPoint], method: &str, level: f64) -> Option<f64> {
    let mut own: Vec<&EnergyPoint> = points.iter().filter(|p| p.method == method).collect();
    own.sort_by(|a, b| a.dt.total_cmp(&b.dt));
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
