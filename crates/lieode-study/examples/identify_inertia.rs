//! Identifying a tumbling body's inertia from its measured attitude: Levenberg–Marquardt on
//! the forward sensitivities of a Munthe-Kaas run (`lieode::sensitivity`).
//!
//! ```text
//! cargo run --release -p lieode-study --example identify_inertia [-- OUTDIR [SEED]]
//! ```
//!
//! **The data.** A torque-free body with principal moments `J = (1, 2, 2.5)` starts at a given
//! attitude `R₀` with body angular velocity `ω₀ = (0.6, −0.4, 0.9)`; a trusted run (the lifted
//! adaptive DOP853 at rtol = atol = 1e-12, a different integrator from the model's) gives its
//! attitude every 0.1 time units on `[0, 10]`, and each sample is perturbed by a rotation of
//! normally distributed angles, `R̃_k = R_k exp(σ n_k)`, `σ = 2 mrad` (SplitMix64, seed SEED,
//! default 2026).
//!
//! **The model.** [`FreeRigidBody`] integrated by RKMK4 with `h = 0.01` on dual numbers
//! carrying 8 directions: `R₀` (3, right-trivialised), `ω₀` (3) and the ratios `J₂/J₁`,
//! `J₃/J₁` (torque-free motion depends on the moments only through their ratios, so `J₁ = 1`
//! fixes the scale). The residuals are `r_k = log(R̃_k⁻¹ R(t_k))` (303 numbers); their
//! Jacobian comes with them from the dual run. Levenberg–Marquardt (Marquardt's scaling)
//! starts from `R₀ = R̃₀`, `ω₀` from the first two samples, ratios `(1.5, 3)`, and fits the
//! window `[0, 2]`, then `[0, 5]`, then `[0, 10]` (a poor start tumbles out of phase over a long
//! window). The uncertainty is `σ̂² (JᵀJ)⁻¹` with `σ̂² = |r|²/(m − 8)`.
//!
//! Prints the truth, the start, the estimate ± one standard deviation and the error in standard
//! deviations, and writes `identify_inertia.{csv,svg,png}` (the attitude error of the start and
//! of the fit against the truth over time, with the noise level) and `estimates.csv` into
//! OUTDIR (default `target/lieode/identify_inertia`). Exits with an error if an estimate is
//! more than 4 standard deviations from the truth.

use std::path::PathBuf;

use lieode::adaptive::{ControllerParameters, Dop853, LieStepper, Tolerances};
use lieode::body::RigidBodyState;
use lieode::engine::MuntheKaas;
use lieode::integrate::{Options, Record, integrate};
use lieode::lie::product::Product;
use lieode::lie::rn::Rn;
use lieode::lie::so3::{So3, So3Algebra};
use lieode::lie::{LieAlgebra, LieGroup, Side};
use lieode::problems::FreeRigidBody;
use lieode::sensitivity::{Dual, Seeds, replay};
use lieode::stepper::Span;
use lieode::tableau::registry::RK4;
use lieode_study::csv::{Cell, Table};
use lieode_study::plot::{Curve, Scale, time_figure};
use lieode_study::random::SplitMix64;
use nalgebra::{SMatrix, SVector, Vector3};

const MOMENTS: [f64; 3] = [1.0, 2.0, 2.5];
const OMEGA0: [f64; 3] = [0.6, -0.4, 0.9];
const ATTITUDE0: [f64; 3] = [0.3, -0.7, 0.4];
const SAMPLE: f64 = 0.1;
const SAMPLES: usize = 100; // intervals: t = 0 … 10
const NOISE: f64 = 2e-3;
const H: f64 = 0.01;
/// Unknowns: R₀ (3), ω₀ (3), J₂/J₁, J₃/J₁.
const P: usize = 8;

/// The unknowns: the initial attitude, the initial angular velocity, the two ratios.
#[derive(Clone, Copy)]
struct Estimate {
    attitude: So3,
    omega: Vector3<f64>,
    ratios: [f64; 2],
}

impl Estimate {
    fn vector(&self) -> SVector<f64, P> {
        let a = self.attitude.log().unwrap().to_coords();
        SVector::<f64, P>::from_column_slice(&[
            a[0],
            a[1],
            a[2],
            self.omega[0],
            self.omega[1],
            self.omega[2],
            self.ratios[0],
            self.ratios[1],
        ])
    }

    /// `self` moved by `delta` (the attitude by `exp` on the right).
    fn moved(&self, delta: &SVector<f64, P>) -> Self {
        let turn = So3::exp(&So3Algebra(Vector3::new(delta[0], delta[1], delta[2])));
        Self {
            attitude: self.attitude.compose(&turn),
            omega: self.omega + Vector3::new(delta[3], delta[4], delta[5]),
            ratios: [self.ratios[0] + delta[6], self.ratios[1] + delta[7]],
        }
    }
}

/// The attitudes at the sample times `0, SAMPLE, …` up to sample `last` by the model's RKMK4
/// run, on `f64`.
fn model_attitudes(e: &Estimate, last: usize) -> lieode::Result<Vec<So3>> {
    let steps_per_sample = (SAMPLE / H).round() as usize;
    let times: Vec<f64> = (0..=last * steps_per_sample)
        .map(|i| i as f64 * H)
        .collect();
    let mut rkmk4 = MuntheKaas::<RigidBodyState>::new(&RK4)?;
    let inertia = Vector3::new(1.0, e.ratios[0], e.ratios[1]);
    let y0 = Product(e.attitude, Rn(e.omega));
    let (states, _) = replay(&mut rkmk4, &mut FreeRigidBody::new(inertia), &y0, &times)?;
    Ok(states
        .iter()
        .step_by(steps_per_sample)
        .map(|s| s.0)
        .collect())
}

/// The residuals `log(R̃_k⁻¹ R(t_k))` for samples `0..=last` and their Jacobian with respect
/// to the unknowns, from one dual run.
fn residuals(
    e: &Estimate,
    data: &[So3],
    last: usize,
) -> lieode::Result<(Vec<f64>, Vec<SVector<f64, P>>)> {
    let mut seeds = Seeds::<P>::new();
    let attitude = seeds.group("R0", &e.attitude, Side::Right)?;
    let omega = seeds.vector("omega0", &e.omega)?;
    let inertia = Vector3::new(
        Dual::<P>::from_re(1.0),
        seeds.parameter("J2/J1", e.ratios[0])?,
        seeds.parameter("J3/J1", e.ratios[1])?,
    );
    let steps_per_sample = (SAMPLE / H).round() as usize;
    let times: Vec<f64> = (0..=last * steps_per_sample)
        .map(|i| i as f64 * H)
        .collect();
    let mut rkmk4 = MuntheKaas::<RigidBodyState<Dual<P>>>::new(&RK4)?;
    let y0 = Product(attitude, Rn(omega));
    let (states, _) = replay(&mut rkmk4, &mut FreeRigidBody::new(inertia), &y0, &times)?;
    let (mut r, mut rows) = (Vec::new(), Vec::new());
    for (k, state) in states.iter().step_by(steps_per_sample).enumerate() {
        let measured = data[k].cast::<Dual<P>>();
        let residual = measured.inverse().compose(&state.0).log()?.to_coords();
        for v in residual.iter() {
            r.push(v.re);
            rows.push(v.eps.unwrap_generic(nalgebra::Const::<P>, nalgebra::U1));
        }
    }
    Ok((r, rows))
}

/// Levenberg–Marquardt on samples `0..=last` from `start`; the estimate and `JᵀJ`, `|r|²` and
/// the number of residuals at it.
fn fit(
    start: Estimate,
    data: &[So3],
    last: usize,
) -> lieode::Result<(Estimate, SMatrix<f64, P, P>, f64, usize)> {
    let normal = |e: &Estimate| -> lieode::Result<_> {
        let (r, rows) = residuals(e, data, last)?;
        let mut jtj = SMatrix::<f64, P, P>::zeros();
        let mut jtr = SVector::<f64, P>::zeros();
        for (ri, row) in r.iter().zip(&rows) {
            jtj += row * row.transpose();
            jtr += row * *ri;
        }
        let cost: f64 = r.iter().map(|x| x * x).sum();
        Ok((jtj, jtr, cost, r.len()))
    };
    let mut e = start;
    let (mut jtj, mut jtr, mut cost, mut m) = normal(&e)?;
    let mut lambda = 1e-3;
    for _ in 0..100 {
        let mut a = jtj;
        for i in 0..P {
            a[(i, i)] += lambda * jtj[(i, i)];
        }
        let Some(delta) = a.cholesky().map(|c| c.solve(&(-jtr))) else {
            lambda *= 10.0;
            continue;
        };
        let trial = e.moved(&delta);
        let (tjtj, tjtr, tcost, tm) = normal(&trial)?;
        if tcost < cost {
            let converged = (cost - tcost) <= 1e-12 * cost || delta.amax() < 1e-12;
            (e, jtj, jtr, cost, m) = (trial, tjtj, tjtr, tcost, tm);
            lambda = (lambda / 10.0).max(1e-12);
            if converged {
                break;
            }
        } else {
            lambda *= 10.0;
            if lambda > 1e12 {
                break;
            }
        }
    }
    Ok((e, jtj, cost, m))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/lieode/identify_inertia"));
    let seed: u64 = match std::env::args().nth(2) {
        Some(s) => s
            .parse()
            .map_err(|_| format!("SEED must be an integer, not {s:?}"))?,
        None => 2026,
    };

    // the truth, by the lifted adaptive DOP853 from sample to sample
    let attitude0 = So3::exp(&So3Algebra(Vector3::from(ATTITUDE0)));
    let mut truth = vec![Product(attitude0, Rn(Vector3::from(OMEGA0)))];
    let mut body = FreeRigidBody::new(Vector3::from(MOMENTS));
    for k in 0..SAMPLES {
        let tol = Tolerances::scalar(1e-12, 1e-12)?;
        let mut dop853 = LieStepper::new(Dop853::new(tol, ControllerParameters::dop853())?);
        let span = Span::new(k as f64 * SAMPLE, (k + 1) as f64 * SAMPLE)?;
        let sol = integrate(
            &mut dop853,
            &mut body,
            &truth[k],
            &span,
            Options::record(Record::Ends),
        )?;
        truth.push(*sol.states.last().expect("a run stores its final state"));
    }
    let mut rng = SplitMix64(seed);
    let data: Vec<So3> = truth
        .iter()
        .map(|s| {
            let n = Vector3::new(rng.normal(), rng.normal(), rng.normal()) * NOISE;
            s.0.compose(&So3::exp(&So3Algebra(n)))
        })
        .collect();

    // the start: the first sample, ω from the first two, the ratios off by 25 % and 20 %
    let omega_guess = data[0].inverse().compose(&data[1]).log()?.to_coords() / SAMPLE;
    let start = Estimate {
        attitude: data[0],
        omega: omega_guess,
        ratios: [1.5, 3.0],
    };
    let mut e = start;
    let mut last_fit = None;
    for window in [20, 50, SAMPLES] {
        let fitted = fit(e, &data, window)?;
        e = fitted.0;
        last_fit = Some(fitted);
    }
    let (e, jtj, cost, m) = last_fit.expect("three windows were fitted");
    let sigma2 = cost / (m - P) as f64;
    let covariance = jtj
        .try_inverse()
        .ok_or("the fitted normal matrix is singular")?
        * sigma2;

    let true_vector = Estimate {
        attitude: attitude0,
        omega: Vector3::from(OMEGA0),
        ratios: [MOMENTS[1] / MOMENTS[0], MOMENTS[2] / MOMENTS[0]],
    };
    // the attitude error in the estimate's own coordinates: log(R₀,true⁻¹ R₀,est)
    let attitude_error = attitude0.inverse().compose(&e.attitude).log()?.to_coords();
    let names = [
        "R0 x", "R0 y", "R0 z", "omega0 x", "omega0 y", "omega0 z", "J2/J1", "J3/J1",
    ];
    let (tv, sv, ev) = (true_vector.vector(), start.vector(), e.vector());
    let mut table = Table::new(&[
        "unknown",
        "truth",
        "start",
        "estimate",
        "sigma",
        "error_in_sigmas",
    ])?;
    println!(
        "σ̂ = {:.3e} rad (noise σ = {NOISE:.1e}); {m} residuals",
        sigma2.sqrt()
    );
    println!("| unknown | truth | start | estimate ± σ | error / σ |");
    println!("|---|---|---|---|---|");
    let mut worst: f64 = 0.0;
    for i in 0..P {
        let sd = covariance[(i, i)].sqrt();
        let error = if i < 3 {
            attitude_error[i]
        } else {
            ev[i] - tv[i]
        };
        worst = worst.max((error / sd).abs());
        let shown = |v: f64| {
            if i < 3 {
                "—".to_string()
            } else {
                format!("{v:.6}")
            }
        };
        println!(
            "| {} | {} | {} | {} ± {sd:.1e} | {:+.2} |",
            names[i],
            shown(tv[i]),
            shown(sv[i]),
            if i < 3 {
                format!("{:+.2e} (off the truth)", attitude_error[i])
            } else {
                format!("{:.6}", ev[i])
            },
            error / sd
        );
        table.push(vec![
            Cell::text(names[i]),
            Cell::Real(tv[i]),
            Cell::Real(sv[i]),
            Cell::Real(ev[i]),
            Cell::Real(sd),
            Cell::Real(error / sd),
        ])?;
    }
    std::fs::create_dir_all(&out)?;
    table.write(&out.join("estimates.csv"))?;

    // the figure: attitude error against the truth over time, start and fit
    let error_curve = |est: &Estimate, label: &str| -> lieode::Result<Curve> {
        let model = model_attitudes(est, SAMPLES)?;
        let t: Vec<f64> = (0..=SAMPLES).map(|k| k as f64 * SAMPLE).collect();
        let err: Vec<f64> = model
            .iter()
            .zip(&truth)
            .map(|(a, b)| b.0.inverse().compose(a).log().map(|x| x.norm().max(1e-16)))
            .collect::<lieode::Result<_>>()?;
        Ok(Curve::new(label, t, err))
    };
    let t: Vec<f64> = (0..=SAMPLES).map(|k| k as f64 * SAMPLE).collect();
    let noise = Curve::new(
        "measurement noise σ√3",
        t.clone(),
        vec![NOISE * 3f64.sqrt(); t.len()],
    );
    let figure = time_figure(
        "Identifying a tumbling body's inertia from its attitude (RKMK4 sensitivities)",
        "attitude error against the truth (rad)",
        &[
            error_curve(&start, "start: J ratios 1.5, 3")?,
            error_curve(&e, "fit")?,
            noise,
        ],
        Scale::Log,
    )?;
    figure.save(&out, "identify_inertia")?;
    println!("wrote {}", out.join("identify_inertia.png").display());
    if worst > 4.0 {
        return Err(format!("an estimate is {worst:.1} standard deviations off the truth").into());
    }
    Ok(())
}
