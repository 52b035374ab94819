//! Counts and final values of [`Odex`] on Hairer's test problems, in the form of his Fortran
//! code's statistics (`NFCN`, `NSTEP`, `NACCPT`, `NREJCT`), for comparison with `odex.f` (the
//! reference numbers, produced with the Fortran code, are in `tests/hairer_odex.rs`).
//!
//! ```text
//! cargo run --release --example hairer_reference_odex
//! ```
//!
//! Writes `target/lieode/hairer_reference/counts_odex.csv` with the columns
//! `solver,problem,tol,dense,nfcn,nstep,naccpt,nrejct,y1,y2` (values with 17 significant
//! digits) for the problems
//!
//! - `arenstorf`: the Arenstorf orbit (HNW I, §II.0), `μ = 0.012277471`,
//!   `y₀ = (0.994, 0, 0, −2.00158510637908252240537862224)`, `x ∈ [0, 17.0652165601579625588917206249]`;
//! - `vdp3`, `vdp1`: Van der Pol's equation `y₁' = y₂`, `y₂' = ((1 − y₁²) y₂ − y₁)/ε`,
//!   `y₀ = (2, 0)`, `x ∈ [0, 2]`, with `ε = 1e-3` and `ε = 0.1`;
//!
//! tolerances `rtol = atol ∈ {1e-4, 1e-7, 1e-9, 1e-10}`, initial step 0.01, and dense output
//! off or on (on: Hairer's `IOUT = 2` with dense output on components 1 and 2, which changes
//! the step-number sequence to 2, 6, 10, … and adds the interpolation error control). `nfcn`
//! is Hairer's count ([`lieode::adaptive::odex::OdexCounts`]); the table also prints the
//! evaluations actually made (`NFCN + 1 − restarts`, see the module docs of
//! `lieode::adaptive::odex`). `y1, y2` are the first two components of the final state.

use std::fmt::Write as _;
use std::time::Instant;

use lieode::adaptive::odex::OdexCounts;
use lieode::adaptive::{AdaptiveMethod, Odex, OdexParameters, System, Tolerances};
use lieode::engine::Stats;
use lieode::output::{output_dir, write_file};
use lieode::{Error, Result};
use nalgebra::{Const, SVector, Vector2, Vector4};

const AMU: f64 = 0.012277471;
// The initial value and end point with the 30 digits of Hairer's driver.
#[allow(clippy::excessive_precision)]
const ARENSTORF_Y0: [f64; 4] = [0.994, 0.0, 0.0, -2.00158510637908252240537862224];
#[allow(clippy::excessive_precision)]
const ARENSTORF_END: f64 = 17.0652165601579625588917206249;
const TOLERANCES: [f64; 4] = [1e-4, 1e-7, 1e-9, 1e-10];

/// The restricted three-body problem, in the operation order of Hairer's `FAREN`.
fn arenstorf(_t: f64, y: &Vector4<f64>) -> Vector4<f64> {
    let amu = AMU;
    let amup = 1.0 - amu;
    let r1 = (y[0] + amu) * (y[0] + amu) + y[1] * y[1];
    let r1 = r1 * r1.sqrt();
    let r2 = (y[0] - amup) * (y[0] - amup) + y[1] * y[1];
    let r2 = r2 * r2.sqrt();
    Vector4::new(
        y[2],
        y[3],
        y[0] + 2.0 * y[3] - amup * (y[0] + amu) / r1 - amu * (y[0] - amup) / r2,
        y[1] - 2.0 * y[2] - amup * y[1] / r1 - amu * y[1] / r2,
    )
}

/// Van der Pol's equation, in the operation order of Hairer's `FVPOL`.
fn van_der_pol(eps: f64) -> impl FnMut(f64, &Vector2<f64>) -> Vector2<f64> {
    move |_t, y| Vector2::new(y[1], ((1.0 - y[0] * y[0]) * y[1] - y[0]) / eps)
}

/// A closure as a counted, checked [`System`].
struct Field<F>(F);

impl<F, const N: usize> System<Const<N>> for Field<F>
where
    F: FnMut(f64, &SVector<f64, N>) -> SVector<f64, N>,
{
    fn eval(&mut self, t: f64, x: &SVector<f64, N>, stats: &mut Stats) -> Result<SVector<f64, N>> {
        stats.rhs_evaluations += 1;
        let v = (self.0)(t, x);
        if v.iter().all(|z| z.is_finite()) {
            Ok(v)
        } else {
            Err(Error::NonFiniteState {
                what: "right-hand side",
                t,
            })
        }
    }
}

/// Integrates to the end; returns Hairer's counts, the statistics and the first two final
/// components.
fn run<F, const N: usize>(
    f: F,
    y0: SVector<f64, N>,
    t_end: f64,
    tol: f64,
    dense: bool,
) -> Result<(OdexCounts, Stats, [f64; 2])>
where
    F: FnMut(f64, &SVector<f64, N>) -> SVector<f64, N>,
{
    let parameters = OdexParameters {
        dense_output: dense,
        dense_components: dense.then(|| vec![0, 1]),
        ..OdexParameters::default()
    };
    let mut odex = Odex::<Const<N>>::new(Tolerances::scalar(tol, tol)?, parameters)?;
    let mut system = Field(f);
    let mut stats = Stats::default();
    odex.start(&mut system, 0.0, &y0, t_end, &mut stats)?;
    while !odex.step(&mut system, &mut stats)?.finished {}
    let y = odex.current().1;
    Ok((odex.counts(), stats, [y[0], y[1]]))
}

fn case(problem: &str, tol: f64, dense: bool) -> Result<(OdexCounts, Stats, [f64; 2])> {
    match problem {
        "arenstorf" => run(
            arenstorf,
            Vector4::from(ARENSTORF_Y0),
            ARENSTORF_END,
            tol,
            dense,
        ),
        _ => {
            let eps = if problem == "vdp3" { 1e-3 } else { 0.1 };
            run(van_der_pol(eps), Vector2::new(2.0, 0.0), 2.0, tol, dense)
        }
    }
}

fn main() -> Result<()> {
    let mut csv = String::from("solver,problem,tol,dense,nfcn,nstep,naccpt,nrejct,y1,y2\n");
    println!(
        "{:<5} {:<10} {:>6} {:>5} {:>7} {:>6} {:>6} {:>6} {:>7} {:>24} {:>24} {:>9}",
        "solver",
        "problem",
        "tol",
        "dense",
        "nfcn",
        "nstep",
        "naccpt",
        "nrejct",
        "evals",
        "y1",
        "y2",
        "time"
    );
    for problem in ["arenstorf", "vdp3", "vdp1"] {
        for tol in TOLERANCES {
            for dense in [false, true] {
                let start = Instant::now();
                let (c, s, y) = case(problem, tol, dense)?;
                let elapsed = start.elapsed();
                let _ = writeln!(
                    csv,
                    "odex,{problem},{tol:e},{},{},{},{},{},{:.16e},{:.16e}",
                    u8::from(dense),
                    c.nfcn,
                    c.nstep,
                    c.naccpt,
                    c.nrejct,
                    y[0],
                    y[1]
                );
                println!(
                    "{:<5} {problem:<10} {tol:>6.0e} {:>5} {:>7} {:>6} {:>6} {:>6} {:>7} {:>24.16e} {:>24.16e} {:>7.0} µs",
                    "odex",
                    if dense { "on" } else { "off" },
                    c.nfcn,
                    c.nstep,
                    c.naccpt,
                    c.nrejct,
                    s.rhs_evaluations,
                    y[0],
                    y[1],
                    elapsed.as_secs_f64() * 1e6
                );
            }
        }
    }
    let path = output_dir("hairer_reference")?.join("counts_odex.csv");
    write_file(&path, &csv)?;
    println!("wrote {}", path.display());
    Ok(())
}
