//! The DEM model under random and extreme inputs: every entry point returns `Ok` with finite
//! output or an error that names what is wrong, and never panics (a seeded random search,
//! under `catch_unwind`); and the constructions that used to ask for huge grids run in a
//! child process (this test binary re-invoked), so that an abort — which `catch_unwind` cannot
//! see — fails the test instead of killing it.

use std::panic::{AssertUnwindSafe, catch_unwind};

use lieode::Error;
use lieode::rotation::SpiralLeapfrog;
use lieode::stepper::{Span, Stepper};
use lieode::system::{
    ImprovedPcdmSystem, Loads, SpiralLeapfrogSystem, SystemForces, SystemState, SystemView,
};
use lieode_reproduce::dem::{
    AxialSphere, CellList, Clump, Hertz, PieceBox, SplitMix64, random_state,
};
use nalgebra::{Quaternion, Vector3};

/// A random value: mostly log-uniform in `[10^lo, 10^hi]`, sometimes an extreme one (zero,
/// negative, NaN, infinite, the largest or smallest `f64`, a subnormal).
fn value(rng: &mut SplitMix64, lo: f64, hi: f64) -> f64 {
    if rng.uniform() < 0.1 {
        let extremes = [
            0.0,
            -1.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN_POSITIVE,
            1e-310,
            1e300,
            1e-300,
        ];
        extremes[(rng.next_u64() % extremes.len() as u64) as usize]
    } else {
        10f64.powf(lo + (hi - lo) * rng.uniform())
    }
}

/// A signed random coordinate of magnitude up to `scale` (sometimes far beyond).
fn coordinate(rng: &mut SplitMix64, scale: f64) -> f64 {
    let sign = if rng.uniform() < 0.5 { -1.0 } else { 1.0 };
    if rng.uniform() < 0.05 {
        sign * value(rng, 0.0, 300.0)
    } else {
        sign * scale * rng.uniform()
    }
}

fn vector(rng: &mut SplitMix64, scale: f64) -> Vector3<f64> {
    Vector3::new(
        coordinate(rng, scale),
        coordinate(rng, scale),
        coordinate(rng, scale),
    )
}

/// Whether an error names what is wrong: a parameter, or a non-finite quantity (with its body
/// and time where there is one).
fn named(error: &Error) -> bool {
    match error {
        Error::InvalidParameter { name, .. } | Error::NonFinite { name } => !name.is_empty(),
        Error::NonFiniteBody { what, .. } | Error::NonFiniteState { what, .. } => !what.is_empty(),
        _ => false,
    }
}

/// The outcome of one call: `Ok` with a finite value, or a named error.
fn check<T>(
    what: &str,
    result: lieode::Result<T>,
    finite: impl Fn(&T) -> bool,
) -> Result<Option<T>, String> {
    match result {
        Ok(v) if finite(&v) => Ok(Some(v)),
        Ok(_) => Err(format!("{what}: Ok with a non-finite value")),
        Err(e) if named(&e) => Ok(None),
        Err(e) => Err(format!("{what}: an unnamed error {e:?}")),
    }
}

/// `|a − b|` without the underflow of squaring tiny differences (nalgebra's `norm` gives 0 for
/// differences below 1e-154).
fn distance(a: &Vector3<f64>, b: &Vector3<f64>) -> f64 {
    let d = a - b;
    let largest = d.amax();
    if largest > 0.0 && largest.is_finite() {
        largest * (d / largest).norm()
    } else {
        d.norm()
    }
}

fn finite_state(s: &SystemState) -> bool {
    s.validate().is_ok()
}

/// One random case over the DEM entry points; `Err` describes a violation.
fn one_case(seed: u64) -> Result<(), String> {
    let rng = &mut SplitMix64(seed);
    // The Hertz law.
    let young = value(rng, 0.0, 308.0);
    let poisson = if rng.uniform() < 0.1 {
        value(rng, -9.0, 0.0) - 1.0
    } else {
        rng.uniform() * 1.5 - 1.0
    };
    check(
        "same_material_modulus",
        Hertz::same_material_modulus(young, poisson),
        |m| m.is_finite(),
    )?;
    let law = check(
        "Hertz::new",
        Hertz::new(value(rng, -300.0, 300.0), value(rng, -300.0, 300.0)),
        |h| h.stiffness().is_finite(),
    )?;
    if let Some(law) = law {
        let limit = law.overlap_limit();
        let overlap = limit * rng.uniform();
        for delta in [limit, overlap] {
            if !(law.force(delta).is_finite() && law.energy(delta).is_finite()) {
                return Err(format!("Hertz: non-finite at δ = {delta:e} ≤ {limit:e}"));
            }
        }
    }

    // The cell list against the all-pairs search.
    let scale = value(rng, -6.0, 6.0);
    let half = Vector3::new(
        scale * value(rng, -2.0, 2.0),
        scale * value(rng, -2.0, 2.0),
        scale * value(rng, -2.0, 2.0),
    );
    let cell = scale * value(rng, -8.0, 1.0);
    if let Some(mut cells) = check("CellList::new", CellList::new(half, cell), |_| true)? {
        let n = (rng.next_u64() % 60) as usize;
        let centres: Vec<Vector3<f64>> = (0..n).map(|_| vector(rng, scale)).collect();
        cells.bin(&centres).map_err(|e| format!("bin: {e:?}"))?;
        if cells.stored_cells() as u64 > CellList::dense_bound(n) {
            return Err(format!(
                "CellList: {} cells stored for {n} spheres",
                cells.stored_cells()
            ));
        }
        // A pair closer than the cells (less the rounding of a cell's edges) must be found.
        let reach = cells.cell_size() * (1.0 - 1e-9);
        let mut found = Vec::new();
        cells.for_each_near_pair(|a, b| found.push((a, b)));
        for a in 0..n {
            for b in a + 1..n {
                if distance(&centres[a], &centres[b]) < reach && !found.contains(&(a, b)) {
                    return Err(format!(
                        "CellList: the pair {a}, {b} is missed: {:?} {:?} half {half:?} cell {cell:e} reach {reach:e}",
                        centres[a], centres[b]
                    ));
                }
            }
        }
    }

    // Pieces in a box.
    let bodies = 1 + (rng.next_u64() % 4) as usize;
    let radius = value(rng, -5.0, 1.0);
    let density = value(rng, -3.0, 8.0);
    let mut clumps = Vec::new();
    for _ in 0..bodies {
        let count = 1 + (rng.next_u64() % 3) as usize;
        let spheres: Vec<AxialSphere> = (0..count)
            .map(|i| AxialSphere {
                z: i as f64 * radius,
                radius: radius * (0.5 + rng.uniform()),
            })
            .collect();
        if let Some(c) = check("Clump::new", Clump::new(&spheres, density), |_| true)? {
            clumps.push(c);
        }
    }
    let bodies = clumps.len();
    let half = radius * value(rng, -0.5, 3.0);
    let modulus = value(rng, -10.0, 308.0);
    let Some(mut model) = check(
        "PieceBox::new",
        PieceBox::new(clumps, half, modulus),
        |_| true,
    )?
    else {
        return Ok(());
    };
    let speed = value(rng, -2.0, 2.0) * if rng.uniform() < 0.1 { 1e150 } else { 1.0 };
    let spin = value(rng, -2.0, 2.0) * if rng.uniform() < 0.1 { 1e150 } else { 1.0 };
    let placed = check(
        "random_state",
        random_state(&model, seed, speed, spin),
        finite_state,
    )?;
    if let Some(y0) = &placed {
        // Placed apart with a finite kinetic energy: the energy is finite.
        match model.try_energy(y0) {
            Ok(e) if e.is_finite() => {}
            other => return Err(format!("the energy of random_state: {other:?}")),
        }
    }
    // A random state, possibly far outside the box and fast.
    let mut state = SystemState::at_rest(0.0, bodies);
    for i in 0..bodies {
        state.positions[i] = vector(rng, 2.0 * half);
        let (v, w) = (value(rng, -2.0, 2.0), value(rng, -2.0, 2.0));
        state.velocities[i] = vector(rng, v);
        state.omegas[i] = vector(rng, w);
        let q = Quaternion::new(
            rng.uniform() - 0.5,
            rng.uniform() - 0.5,
            rng.uniform() - 0.5,
            rng.uniform() - 0.5,
        );
        state.rotors[i] = if q.norm() > 1e-3 {
            q.normalize()
        } else {
            Quaternion::identity()
        };
    }
    check("try_energy", model.try_energy(&state), |e| e.is_finite())?;
    let _ = model.energy(&state);
    // Loads of views and buffers of any size: no panic.
    let (length, buffer) = (
        (rng.next_u64() % (bodies as u64 + 3)) as usize,
        (rng.next_u64() % (bodies as u64 + 3)) as usize,
    );
    let mut other = SystemState::at_rest(0.0, length);
    for i in 0..length.min(bodies) {
        other.positions[i] = state.positions[i];
    }
    let view = SystemView {
        t: 0.0,
        positions: &other.positions,
        velocities: &other.velocities,
        rotors: &state.rotors,
        omegas: &other.omegas,
    };
    model.loads(&view, &mut Loads::zeros(buffer));
    let mut world = model.world_spheres(&other);
    world.clear();

    // A short run from either state, then its energy.
    let start = if rng.uniform() < 0.5 {
        placed.unwrap_or(state)
    } else {
        state
    };
    let dt = radius * value(rng, -9.0, 0.0);
    let steps = rng.next_u64() % 30;
    let masses = model.bodies();
    let run = |scheme: &mut dyn FnMut(&mut PieceBox) -> lieode::Result<SystemState>,
               model: &mut PieceBox| scheme(model);
    let mut leapfrog = |model: &mut PieceBox| -> lieode::Result<SystemState> {
        let mut s = SpiralLeapfrogSystem::new(masses.clone(), SpiralLeapfrog::new);
        s.start(model, &Span::open(0.0, dt)?, &start)?;
        for _ in 0..steps {
            s.step(model)?;
        }
        s.state(model)
    };
    let mut pcdm = |model: &mut PieceBox| -> lieode::Result<SystemState> {
        let mut s = ImprovedPcdmSystem::new(masses.clone());
        s.start(model, &Span::open(0.0, dt)?, &start)?;
        for _ in 0..steps {
            s.step(model)?;
        }
        s.state(model)
    };
    let end = if rng.uniform() < 0.5 {
        run(&mut leapfrog, &mut model)
    } else {
        run(&mut pcdm, &mut model)
    };
    // The library's synchronised state is not checked for finiteness by every method (a
    // half-step correction can overflow): that is not the model's to fix, so a non-finite
    // end state counts as the run's error here, and the model's energy is asked only of a
    // finite one.
    if let Some(end) = check("run", end, |_| true)?.filter(finite_state) {
        check("try_energy after a run", model.try_energy(&end), |e| {
            e.is_finite()
        })?;
    }
    let _ = SystemForces::body_count(&model);
    Ok(())
}

/// Random sphere radii, box sizes, positions, velocities, spins and moduli, extremes
/// included: no call panics, every `Ok` is finite, every error is named. (Before the fixes
/// the search found panics in the cell list, `Ok(∞)` from the Hertz constructors, and runs
/// ending `Ok` whose energy was `+∞` or NaN: the energy, a higher power of the state than the
/// loads — `δ^{5/2}`, `v²`, `ω²` — overflowed first, and `random_state` accepted speeds and
/// spins of infinite energy.)
#[test]
fn random_dem_inputs_give_finite_results_or_named_errors() {
    let mut failures = Vec::new();
    for seed in 0..4000u64 {
        let outcome = catch_unwind(AssertUnwindSafe(|| one_case(seed)));
        match outcome {
            Ok(Ok(())) => {}
            Ok(Err(why)) => failures.push(format!("seed {seed}: {why}")),
            Err(_) => failures.push(format!("seed {seed}: panicked")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The environment variable that selects a child's case.
const CASE: &str = "LIEODE_DEM_ABORT_CASE";

/// The constructions that used to ask for grids of 10⁹ … 10¹⁸ cells.
const CASES: [&str; 5] = [
    "zero_cell",
    "tiny_cell",
    "huge_box",
    "tiny_spheres",
    "small_spheres",
];

/// One child case: builds it, bins, evaluates loads and energy.
fn child_case(name: &str) -> lieode::Result<()> {
    let spheres = |r: f64| -> lieode::Result<Vec<Clump>> {
        let ball = Clump::new(&[AxialSphere { z: 0.0, radius: r }], 3200.0)?;
        Ok(vec![ball; 2])
    };
    let modulus = Hertz::same_material_modulus(60e9, 0.25)?;
    let mut rng = SplitMix64(7);
    let mut cells = match name {
        "zero_cell" => {
            assert!(CellList::new(Vector3::repeat(1.0), 0.0).is_err());
            return Ok(());
        }
        "tiny_cell" => CellList::new(Vector3::repeat(1.0), 1e-300)?,
        "huge_box" => CellList::new(Vector3::repeat(1e300), 1.0)?,
        // 10¹² cells, then 1.25·10⁸ (500 MB) and 10⁹ (4 GB).
        "tiny_spheres" | "small_spheres" => {
            for r in [1e-4, 2e-3, 1e-3] {
                let mut model = PieceBox::new(spheres(r)?, 1.0, modulus)?;
                let mut state = SystemState::at_rest(0.0, 2);
                state.positions[1].x = 1.5 * r;
                let mut loads = Loads::zeros(2);
                for _ in 0..10 {
                    model.loads(
                        &SystemView {
                            t: 0.0,
                            positions: &state.positions,
                            velocities: &state.velocities,
                            rotors: &state.rotors,
                            omegas: &state.omegas,
                        },
                        &mut loads,
                    );
                }
                assert!(loads.forces[0].x < 0.0);
                assert!(model.try_energy(&state)? > 0.0);
            }
            return Ok(());
        }
        other => panic!("no case {other}"),
    };
    let centres: Vec<Vector3<f64>> = (0..1000).map(|_| vector(&mut rng, 1.0)).collect();
    cells.bin(&centres)?;
    let mut pairs = 0usize;
    cells.for_each_near_pair(|_, _| pairs += 1);
    assert!(cells.stored_cells() <= 8000);
    Ok(())
}

/// The constructions that used to allocate by the box's volume run in a child process (this
/// binary, the case selected by an environment variable, under a 2 GiB address-space limit on
/// Unix so that a grid of gigabytes fails there too): each exits normally and says so.
#[test]
fn huge_grids_do_not_abort_the_process() {
    if let Ok(name) = std::env::var(CASE) {
        match child_case(&name) {
            Ok(()) => println!("abort case {name}: done"),
            Err(e) => panic!("abort case {name}: {e}"),
        }
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        panic!("no path to this test binary");
    };
    let args = [
        "huge_grids_do_not_abort_the_process",
        "--exact",
        "--nocapture",
        "--test-threads=1",
    ];
    for name in CASES {
        let mut command = if cfg!(unix) {
            let mut c = std::process::Command::new("sh");
            c.arg("-c")
                .arg("ulimit -v 2097152 && exec \"$0\" \"$@\"")
                .arg(&exe)
                .args(args);
            c
        } else {
            let mut c = std::process::Command::new(&exe);
            c.args(args);
            c
        };
        let output = command.env(CASE, name).output();
        let Ok(output) = output else {
            panic!("{name}: the child did not start: {output:?}");
        };
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && stdout.contains(&format!("abort case {name}: done")),
            "{name}: {:?}\n{stdout}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
