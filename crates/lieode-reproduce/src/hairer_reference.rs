//! # Hairer's reference runs
//!
//! DOPRI5, DOP853 and ODEX on Hairer's test problems — the Arenstorf orbit and Van der Pol's
//! equation with `ε = 1e-3` ("vdp3") and `ε = 0.1` ("vdp1") — at `rtol = atol ∈ {1e-4, 1e-7,
//! 1e-9, 1e-10}`, with dense output off and on (on components 1 and 2 for ODEX), automatic
//! initial step for DOPRI5/DOP853 and `h₀ = 0.01` for ODEX: the statistics of his Fortran
//! codes (`NFCN, NSTEP, NACCPT, NREJCT`) and the final values. `tests/hairer_dopri.rs` and
//! `tests/hairer_odex.rs` hold his codes' numbers for the same runs and assert equality.

use nalgebra::{Const, SVector, Vector2, Vector4};

use crate::Result;
use lieode::adaptive::{
    AdaptiveMethod, Dop853, Dopri5, Odex, OdexParameters, Summation, Tolerances, VectorSystem,
};
use lieode::engine::Stats;
use lieode::ode::VectorOde;
use lieode::problems::hairer::{ARENSTORF_END, ARENSTORF_Y0, Arenstorf, VanDerPol};

/// The tolerances of the reference runs.
pub const TOLERANCES: [f64; 4] = [1e-4, 1e-7, 1e-9, 1e-10];

/// One run: its statistics in Hairer's terms and the first two final components.
#[derive(Debug, Clone, PartialEq)]
pub struct HairerRow {
    /// `dopri5`, `dop853` or `odex`.
    pub solver: &'static str,
    /// `arenstorf`, `vdp3` or `vdp1`.
    pub problem: &'static str,
    /// `rtol = atol`.
    pub tol: f64,
    /// Dense output on.
    pub dense: bool,
    /// Hairer's `NFCN`.
    pub nfcn: usize,
    /// `NSTEP` (attempts).
    pub nstep: usize,
    /// `NACCPT`.
    pub naccpt: usize,
    /// `NREJCT`.
    pub nrejct: usize,
    /// The final `y₁, y₂`.
    pub y: [f64; 2],
}

fn run<M: AdaptiveMethod<Const<N>>, P: VectorOde<f64, N>, const N: usize>(
    mut method: M,
    mut problem: P,
    y0: SVector<f64, N>,
    t_end: f64,
    dense: bool,
) -> Result<(M, Stats, [f64; 2])> {
    let mut system = VectorSystem(&mut problem);
    let mut stats = Stats::default();
    method.start(&mut system, 0.0, &y0, t_end, &mut stats)?;
    loop {
        let report = method.step(&mut system, &mut stats)?;
        if dense {
            method.prepare_dense(&mut system, &mut stats)?;
        }
        if report.finished {
            break;
        }
    }
    let y = method.current().1;
    let y = [y[0], y[1]];
    Ok((method, stats, y))
}

fn row(solver: &'static str, problem: &'static str, tol: f64, dense: bool) -> Result<HairerRow> {
    let t = Tolerances::scalar(tol, tol)?;
    let eps = if problem == "vdp3" { 1e-3 } else { 0.1 };
    let (ar, vdp) = (Vector4::from(ARENSTORF_Y0), Vector2::new(2.0, 0.0));
    let from_stats = |s: Stats, y: [f64; 2]| HairerRow {
        solver,
        problem,
        tol,
        dense,
        nfcn: s.rhs_evaluations,
        nstep: s.steps,
        naccpt: s.accepted,
        nrejct: s.rejected,
        y,
    };
    let odex_parameters = OdexParameters {
        dense_output: dense,
        dense_components: dense.then(|| vec![0, 1]),
        ..OdexParameters::default()
    };
    Ok(match (solver, problem == "arenstorf") {
        ("dopri5", true) => {
            let (_, s, y) = run(
                Dopri5::new(t, Dopri5::<Const<4>>::default_parameters())?
                    .with_summation(Summation::Hairer),
                Arenstorf,
                ar,
                ARENSTORF_END,
                dense,
            )?;
            from_stats(s, y)
        }
        ("dopri5", false) => {
            let (_, s, y) = run(
                Dopri5::new(
                    t,
                    Dopri5::<Const<2>>::default_parameters().counting_stiffness(),
                )?
                .with_summation(Summation::Hairer),
                VanDerPol { epsilon: eps },
                vdp,
                2.0,
                dense,
            )?;
            from_stats(s, y)
        }
        ("dop853", true) => {
            let (_, s, y) = run(
                Dop853::new(t, Dop853::<Const<4>>::default_parameters())?
                    .with_summation(Summation::Hairer),
                Arenstorf,
                ar,
                ARENSTORF_END,
                dense,
            )?;
            from_stats(s, y)
        }
        ("dop853", false) => {
            let (_, s, y) = run(
                Dop853::new(
                    t,
                    Dop853::<Const<2>>::default_parameters().counting_stiffness(),
                )?
                .with_summation(Summation::Hairer),
                VanDerPol { epsilon: eps },
                vdp,
                2.0,
                dense,
            )?;
            from_stats(s, y)
        }
        (_, arenstorf) => {
            // ODEX reports Hairer's NFCN itself (it differs from the evaluations made).
            let (odex, _, y) = if arenstorf {
                let (m, s, y) = run(
                    Odex::<Const<4>>::new(t, odex_parameters)?,
                    Arenstorf,
                    ar,
                    ARENSTORF_END,
                    dense,
                )?;
                (m.counts(), s, y)
            } else {
                let (m, s, y) = run(
                    Odex::<Const<2>>::new(t, odex_parameters)?,
                    VanDerPol { epsilon: eps },
                    vdp,
                    2.0,
                    dense,
                )?;
                (m.counts(), s, y)
            };
            HairerRow {
                solver,
                problem,
                tol,
                dense,
                nfcn: odex.nfcn,
                nstep: odex.nstep,
                naccpt: odex.naccpt,
                nrejct: odex.nrejct,
                y,
            }
        }
    })
}

/// Every reference run: solvers × problems × tolerances × dense output.
///
/// # Errors
/// Any solver error (none is expected).
pub fn hairer_reference_rows() -> Result<Vec<HairerRow>> {
    let mut rows = Vec::new();
    for solver in ["dopri5", "dop853", "odex"] {
        for problem in ["arenstorf", "vdp3", "vdp1"] {
            for tol in TOLERANCES {
                for dense in [false, true] {
                    rows.push(row(solver, problem, tol, dense)?);
                }
            }
        }
    }
    Ok(rows)
}

/// The CSV header of [`hairer_reference_csv`].
pub const CSV_HEADER: &str = "solver,problem,tol,dense,nfcn,nstep,naccpt,nrejct,y1,y2";

/// The rows as CSV (values with 17 significant digits).
pub fn hairer_reference_csv(rows: &[HairerRow]) -> String {
    let mut out = format!("{CSV_HEADER}\n");
    for r in rows {
        out.push_str(&format!(
            "{},{},{:e},{},{},{},{},{},{:.16e},{:.16e}\n",
            r.solver,
            r.problem,
            r.tol,
            u8::from(r.dense),
            r.nfcn,
            r.nstep,
            r.naccpt,
            r.nrejct,
            r.y[0],
            r.y[1]
        ));
    }
    out
}

/// The rows as a text table.
pub fn hairer_reference_table(rows: &[HairerRow]) -> String {
    let mut out = format!(
        "{:<7} {:<10} {:>6} {:>5} {:>7} {:>6} {:>6} {:>6} {:>24} {:>24}\n",
        "solver", "problem", "tol", "dense", "nfcn", "nstep", "naccpt", "nrejct", "y1", "y2"
    );
    for r in rows {
        out.push_str(&format!(
            "{:<7} {:<10} {:>6.0e} {:>5} {:>7} {:>6} {:>6} {:>6} {:>24.16e} {:>24.16e}\n",
            r.solver,
            r.problem,
            r.tol,
            if r.dense { "on" } else { "off" },
            r.nfcn,
            r.nstep,
            r.naccpt,
            r.nrejct,
            r.y[0],
            r.y[1]
        ));
    }
    out
}
