//! One member of an ensemble: a rigid body integrated from its start state through the output
//! times, written straight into its rows of the ensemble's output arrays.

use std::sync::atomic::{AtomicBool, Ordering};

use lieode::adaptive::{
    ControllerParameters, Dop853, Dopri5, LieStepper, Odex, OdexParameters, Tolerances,
};
use lieode::body::RigidBodyQuatState;
use lieode::lie::AlgebraDim;
use lieode::lie::product::Product;
use lieode::lie::rn::Rn;
use lieode::lie::unit_quaternion::UnitQuat;
use lieode::rotation::{BodyLieOde, RigidBody, RotationalState, catalogue};
use lieode::stepper::{Span, Stepper};
use nalgebra::{Quaternion, Vector3};

use super::torque::FieldTorque;

/// The adaptive methods an ensemble runs, each lifted to `SU(2) × ℝ³` (the rotor stays unit
/// by construction); any name of the rotational catalogue runs at a fixed step instead.
pub const ADAPTIVE: [&str; 3] = ["dop853", "dopri5", "odex"];

/// How every member is integrated.
#[derive(Debug, Clone)]
pub enum Method {
    /// An adaptive method of [`ADAPTIVE`] at the tolerances, with a step limit.
    Adaptive {
        /// The name, one of [`ADAPTIVE`].
        name: String,
        /// `rtol` and `atol` (the rotation's error is measured absolutely, `ω`'s mixed).
        tolerances: Tolerances,
        /// Hairer's `NMAX`.
        max_steps: usize,
    },
    /// A method of the rotational catalogue at the fixed step `dt`; the output times lie on
    /// its grid, at the step counts `output_steps`.
    Fixed {
        /// The catalogue name.
        name: String,
        /// The step.
        dt: f64,
        /// For every output time, the number of steps from the start that reaches it.
        output_steps: Vec<usize>,
    },
}

/// One member's start: the body, its rotor (unit) and body angular velocity.
#[derive(Debug, Clone, Copy)]
pub struct Start {
    /// The body.
    pub body: RigidBody,
    /// The unit rotor.
    pub q: Quaternion<f64>,
    /// The body angular velocity.
    pub omega: Vector3<f64>,
}

/// Where a member writes: its rows of the rotor (`T × 4`) and angular-velocity (`T × 3`)
/// outputs.
pub struct Rows<'a> {
    /// `T × 4` rotors, scalar first.
    pub rotors: &'a mut [f64],
    /// `T × 3` body angular velocities.
    pub omegas: &'a mut [f64],
}

impl Rows<'_> {
    fn write(&mut self, k: usize, q: &Quaternion<f64>, omega: &Vector3<f64>) {
        self.rotors[4 * k..4 * k + 4].copy_from_slice(&[q.w, q.i, q.j, q.k]);
        self.omegas[3 * k..3 * k + 3].copy_from_slice(omega.as_slice());
    }
}

/// Integrates one member through the output times `times` (`times[0]` its start, increasing),
/// writing the state at each into `rows`; returns the torque evaluations made. Stops early
/// with [`lieode::Error::NonFiniteState`] ("cancelled run") once `cancel` is set (checked
/// every step).
pub fn run(
    method: &Method,
    torque: &FieldTorque,
    start: &Start,
    times: &[f64],
    rows: &mut Rows<'_>,
    cancel: &AtomicBool,
) -> lieode::Result<usize> {
    rows.write(0, &start.q, &start.omega);
    let Some(&t_end) = times.last() else {
        return Ok(0);
    };
    if t_end == times[0] {
        // Every output time is the start.
        for k in 1..times.len() {
            rows.write(k, &start.q, &start.omega);
        }
        return Ok(0);
    }
    let cancelled = |t| lieode::Error::NonFiniteState {
        what: "cancelled run",
        t,
    };
    match method {
        Method::Adaptive {
            name,
            tolerances,
            max_steps,
        } => {
            type Dim = AlgebraDim<RigidBodyQuatState>;
            let tolerances = tolerances.clone();
            let limit = |p: ControllerParameters| ControllerParameters {
                max_steps: *max_steps,
                ..p
            };
            let ode = BodyLieOde {
                body: start.body,
                torque,
            };
            let y0 = Product(UnitQuat::from_quaternion(start.q)?, Rn(start.omega));
            let span = Span::new(times[0], t_end)?;
            match name.as_str() {
                "dop853" => {
                    let m = Dop853::<Dim>::new(tolerances, limit(ControllerParameters::dop853()))?;
                    adaptive(LieStepper::new(m), ode, &y0, &span, times, rows, cancel)
                }
                "dopri5" => {
                    let m = Dopri5::<Dim>::new(tolerances, limit(ControllerParameters::dopri5()))?;
                    adaptive(LieStepper::new(m), ode, &y0, &span, times, rows, cancel)
                }
                _ => {
                    // Interior output times need ODEX's own dense output (without it ODEX
                    // offers only a cubic Hermite interpolant, far less accurate).
                    let parameters = OdexParameters {
                        max_steps: *max_steps,
                        dense_output: times.len() > 2,
                        ..OdexParameters::default()
                    };
                    let m = Odex::<Dim>::new(tolerances, parameters)?;
                    adaptive(LieStepper::new(m), ode, &y0, &span, times, rows, cancel)
                }
            }
        }
        Method::Fixed {
            name,
            dt,
            output_steps,
        } => {
            let mut stepper = catalogue::stepper::<FieldTorque>(name, start.body)?;
            let steps = *output_steps.last().unwrap_or(&0);
            let span = Span::stride(times[0], *dt, steps)?;
            let mut problem = *torque;
            let y0 = RotationalState::new(times[0], start.q, start.omega);
            stepper.start(&mut problem, &span, &y0)?;
            let mut k = 1;
            for n in 1..=steps {
                if cancel.load(Ordering::Relaxed) {
                    return Err(cancelled(stepper.time()));
                }
                stepper.step(&mut problem)?;
                if output_steps[k] == n {
                    let y = stepper.state(&mut problem)?;
                    // Several output times may fall on one step (a repeated time).
                    while k < times.len() && output_steps[k] == n {
                        rows.write(k, &y.q, &y.omega);
                        k += 1;
                    }
                }
            }
            Ok(stepper.stats().rhs_evaluations)
        }
    }
}

/// The adaptive run: one accepted step at a time, the output times inside each step from its
/// dense output, the last one the end state itself.
fn adaptive<S, P>(
    mut stepper: S,
    mut ode: P,
    y0: &RigidBodyQuatState,
    span: &Span,
    times: &[f64],
    rows: &mut Rows<'_>,
    cancel: &AtomicBool,
) -> lieode::Result<usize>
where
    S: Stepper<P, State = RigidBodyQuatState>,
{
    stepper.start(&mut ode, span, y0)?;
    let write = |rows: &mut Rows<'_>, k: usize, y: &RigidBodyQuatState| {
        rows.write(k, y.0.quaternion(), &y.1.0);
    };
    let last = times.len() - 1;
    let mut k = 1;
    loop {
        if cancel.load(Ordering::Relaxed) {
            return Err(lieode::Error::NonFiniteState {
                what: "cancelled run",
                t: stepper.time(),
            });
        }
        let report = stepper.step(&mut ode)?;
        if report.finished {
            if k < last {
                stepper.prepare_dense(&mut ode)?;
                while k < last {
                    write(rows, k, &dense(&stepper, times[k])?);
                    k += 1;
                }
            }
            write(rows, last, &stepper.state(&mut ode)?);
            return Ok(stepper.stats().rhs_evaluations);
        }
        if times[k] <= report.t_end {
            stepper.prepare_dense(&mut ode)?;
            while k < last && times[k] <= report.t_end {
                write(rows, k, &dense(&stepper, times[k])?);
                k += 1;
            }
        }
    }
}

/// The dense output at `t` inside the last step.
fn dense<S: Stepper<P>, P>(stepper: &S, t: f64) -> lieode::Result<S::State> {
    stepper
        .dense(t)
        .ok_or_else(|| lieode::Error::InvalidParameter {
            name: "t_eval",
            value: format!("{t:e}"),
            expected: "a time inside the last step".into(),
        })
}
