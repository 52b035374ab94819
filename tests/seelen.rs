//! Seelen, Padding and Kuipers (2016): the improved PCDM scheme and the original PCDM on the
//! paper's four tests.

use lieode::integrate::{Options, Record, integrate};
use lieode::problems::seelen::{TABLE1_PRINTED, TorquedSphere};
use lieode::stepper::{Span, Stepper};
use lieode::system::{ImprovedPcdmSystem, PcdmSystem, SystemForces, SystemState};

fn end<P: SystemForces, S: Stepper<P, State = SystemState>>(
    stepper: &mut S,
    problem: &mut P,
    y0: &SystemState,
    dt: f64,
    steps: usize,
) -> lieode::Result<SystemState> {
    let span = Span::stride(y0.t, dt, steps)?;
    let sol = integrate(stepper, problem, y0, &span, Options::record(Record::Ends))?;
    Ok(sol.states.last().expect("the final state").clone())
}

#[test]
fn table1_measure() -> lieode::Result<()> {
    let y0 = SystemState::at_rest(0.0, 1);
    let ball = TorquedSphere::body()?;
    let exact = TorquedSphere::arrow(1.0);
    eprintln!("exact {exact:?} printed {:?}", TABLE1_PRINTED[0]);
    let improved = end(&mut ImprovedPcdmSystem::uniform(ball, 1), &mut TorquedSphere, &y0, 1e-4, 10_000)?;
    let original = end(&mut PcdmSystem::uniform(ball, 1), &mut TorquedSphere, &y0, 1e-4, 10_000)?;
    for (name, s) in [("improved", &improved), ("pcdm", &original)] {
        let a = TorquedSphere::arrow_of(&s.rotors[0]);
        eprintln!("{name}: {a:?} error {:.3e}  |q|-1 {:.1e}", (a - exact).norm(), s.rotors[0].norm() - 1.0);
    }
    Ok(())
}

#[test]
fn cylinder_orders_measure() -> lieode::Result<()> {
    use lieode::problems::seelen::GrowingTorqueCylinder as C;
    let samples: Vec<f64> = (1..=100).map(|k| k as f64 * 1e-3).collect();
    let reference = C::reference(&samples, 1e-13)?;
    let body = C::body()?;
    let y0 = C::initial_state();
    fn alpha<S: Stepper<C, State = SystemState>>(
        s: &mut S,
        y0: &SystemState,
        dt: f64,
        reference: &[(nalgebra::Quaternion<f64>, nalgebra::Vector3<f64>)],
    ) -> lieode::Result<f64> {
        let per_sample = (1e-3 / dt).round() as usize;
        s.start(&mut C, &Span::open(0.0, dt)?, y0)?;
        let mut sum = 0.0;
        for r in reference {
            for _ in 0..per_sample {
                s.step(&mut C)?;
            }
            let st = s.state(&mut C)?;
            sum += C::axis_error(&st.rotors[0], &r.0);
        }
        Ok(sum / reference.len() as f64)
    }
    for dt in [1e-4, 1e-5, 1e-6, 1e-7] {
        let a = alpha(&mut ImprovedPcdmSystem::uniform(body, 1), &y0, dt, &reference)?;
        let b = alpha(&mut PcdmSystem::uniform(body, 1), &y0, dt, &reference)?;
        eprintln!("dt {dt:e}: improved {a:.3e} pcdm {b:.3e}");
    }
    let last = reference.last().unwrap();
    eprintln!("omega at 0.1: {:?}", last.1);
    Ok(())
}
