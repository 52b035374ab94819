//! Orientation from a prescribed angular velocity, in each of Boyle's formulations and lifted
//! to the rotation group, all with DOP853.
//!
//! The rotation is Zupan and Saje's third example from Boyle's Appendix
//! (`lieode::problems::boyle::ZupanSaje`, `R = exp(r)` with `r = (2 + sin²2t, t, 5t³ − 4t)/2`,
//! t ∈ [0, 10]): its generator grows without bound (`|r|` reaches 2480 at t = 10), so the body
//! spins ever faster. Its inertial angular velocity `ω(t)` is the problem
//! (`ExactKinematics`); a `Formulated` stepper turns it into an ODE in the frame vectors (9
//! components), two frame vectors (6), the rotor (4), the generator plain or reset to
//! `|r| < π/2` after each step (3), or on the unit quaternions themselves (`Lifted`, with a
//! `LieStepper`), which the one driver `integrate` runs. For each formulation and absolute tolerance (1e-8, 1e-12) the table prints
//! the steps, the right-hand-side evaluations, the resets, the largest frame error δ over the
//! accepted steps (Boyle's Eq. 25) and the rotation angle between the final rotor and the
//! exact one. A run that fails prints its error instead.
//!
//! ```text
//! cargo run --release --example angular_velocity
//! ```

use lieode::adaptive::{ControllerParameters, Dop853, LieStepper, Tolerances, VectorStepper};
use lieode::integrate::{Options, integrate};
use lieode::kinematics::{
    Formulated, Formulation, FrameVectors, Generator, Lifted, Rotor, TwoFrameVectors,
};
use lieode::lie::LieGroup;
use lieode::lie::unit_quaternion::UnitQuat;
use lieode::problems::boyle::{ExactKinematics, ExactRotation, ZupanSaje, frame_error};
use lieode::stepper::{Span, Stepper};
use nalgebra::{Const, SVector};

/// DOP853 on ℝᴺ with an absolute tolerance only, as Boyle integrates.
fn dop853<const N: usize>(tol: f64) -> lieode::Result<VectorStepper<Dop853<Const<N>>, N>> {
    let tolerances = Tolerances::scalar(0.0, tol)?;
    Ok(VectorStepper::new(Dop853::new(
        tolerances,
        ControllerParameters::dop853(),
    )?))
}

/// One table row: runs `stepper` in `formulation` on the example from its exact start and
/// prints the steps, evaluations, resets, max δ over the steps and the final rotor angle error
/// (or the run's error).
fn row<F, S>(
    name: &str,
    tol: f64,
    exact: &ZupanSaje,
    formulation: F,
    stepper: S,
) -> lieode::Result<()>
where
    F: Formulation<0>,
    for<'a> S: Stepper<F::Ode<ExactKinematics<'a, ZupanSaje>>, State = F::State>,
{
    let (t0, t1) = exact.span();
    let q0 = UnitQuat::from_quaternion(exact.rotor(t0))?;
    let mut formulated = Formulated::new(formulation, stepper);
    let mut ode = formulated.ode(ExactKinematics(exact));
    let run = formulated
        .initial_state(&q0, &SVector::zeros())
        .and_then(|y0| {
            let span = Span::new(t0, t1)?;
            integrate(&mut formulated, &mut ode, &y0, &span, Options::default())
        });
    let sol = match run {
        Ok(sol) => sol,
        Err(error) => {
            println!("{name:<20} {tol:>7.0e}  failed: {error}");
            return Ok(());
        }
    };
    let max_delta = sol
        .times
        .iter()
        .zip(&formulated.frames(&sol))
        .map(|(&t, frame)| frame_error(&exact.frame(t), frame))
        .fold(0.0, f64::max);
    let (t_end, rotor) = match (sol.times.last(), formulated.rotors(&sol).last()) {
        (Some(&t), Some(rotor)) => (t, *rotor),
        _ => {
            println!("{name:<20} {tol:>7.0e}  no stored state");
            return Ok(());
        }
    };
    let end_error = rotor.distance(&UnitQuat::from_quaternion(exact.rotor(t_end))?)?;
    println!(
        "{name:<20} {tol:>7.0e} {:>7} {:>8} {:>7} {max_delta:>10.2e} {end_error:>10.2e}",
        sol.stats.steps,
        sol.stats.rhs_evaluations,
        formulated.resets()
    );
    Ok(())
}

fn main() -> lieode::Result<()> {
    let example = ZupanSaje::new(3)?;
    let (t0, t1) = example.span();

    println!(
        "Zupan–Saje example 3, {}, t ∈ [{t0}, {t1}]",
        example.description()
    );
    println!(
        "{:<20} {:>7} {:>7} {:>8} {:>7} {:>10} {:>10}",
        "formulation", "atol", "steps", "evals", "resets", "max δ", "end angle"
    );
    for tol in [1e-8, 1e-12] {
        row(
            "frame vectors",
            tol,
            &example,
            FrameVectors,
            dop853::<9>(tol)?,
        )?;
        let two = TwoFrameVectors::new();
        row("two frame vectors", tol, &example, two, dop853::<6>(tol)?)?;
        row("rotor", tol, &example, Rotor, dop853::<4>(tol)?)?;
        let plain = Generator::plain();
        row("generator (plain)", tol, &example, plain, dop853::<3>(tol)?)?;
        let reset = Generator::reset();
        row("generator (reset)", tol, &example, reset, dop853::<3>(tol)?)?;
        let tolerances = Tolerances::scalar(0.0, tol)?;
        let lifted = LieStepper::new(Dop853::new(tolerances, ControllerParameters::dop853())?);
        row("lifted (UnitQuat)", tol, &example, Lifted, lifted)?;
    }
    println!(
        "(δ = Boyle's frame error |e − e*| of Eq. 25, largest over the accepted steps; end angle = \
         rotation angle between the final rotor and the exact one; evals = ω evaluations)"
    );
    Ok(())
}
