//! A run done entirely in Rust, for the tests: the core's `CatalogueSystem` stepped with a
//! per-body force model written in Rust (so through the core's one-pass step), which the tests
//! write again in numpy with the same floating-point operations and compare bit for bit.

use lieode::body::Frame;
use lieode::rotation::{RigidBody, RigidBodyMethod, SingleBody};
use lieode::stepper::{Span, Stepper};
use lieode::system::{
    Body, BodyView, CatalogueSystem, METHOD_NAMES, MethodVisitor, PerBody, SystemState,
    every_method,
};
use nalgebra::Vector3;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

use super::arrays::invalid;
use super::bodies::initial;
use crate::errors::to_py;

/// The final carried arrays and the synchronised state, `(positions, velocities, rotors,
/// omegas)` each, rotors scalar first.
type Outcome<'py> = Vec<Bound<'py, PyArray2<f64>>>;

/// `n_steps` steps of `dt` of the many-body method `method` from the synchronised state
/// `(t0, positions, velocities, rotors (scalar first), omegas)` of the bodies
/// `(mass, inertia)`, under the per-body loads
///
/// ```text
/// F = (k x + c v) + g,        τ = a (q_x, q_y, q_z) + b ω      (τ in `torque_frame`)
/// ```
///
/// with `(k, c, g_x, g_y, g_z, a, b) = parameters`; returns the carried arrays after the
/// steps, then the synchronised state (eight `(N, 3)` or `(N, 4)` arrays).
#[pyfunction]
#[pyo3(name = "_run_in_rust")]
#[allow(clippy::too_many_arguments)]
pub fn run_in_rust<'py>(
    py: Python<'py>,
    method: &str,
    mass: PyReadonlyArray1<'py, f64>,
    inertia: PyReadonlyArray2<'py, f64>,
    positions: PyReadonlyArray2<'py, f64>,
    velocities: PyReadonlyArray2<'py, f64>,
    rotors: PyReadonlyArray2<'py, f64>,
    omegas: PyReadonlyArray2<'py, f64>,
    t0: f64,
    dt: f64,
    n_steps: usize,
    torque_frame: &str,
    parameters: [f64; 7],
) -> PyResult<Outcome<'py>> {
    let rank = METHOD_NAMES
        .iter()
        .position(|&m| m == method)
        .ok_or_else(|| invalid("method", None, None, format!("unknown method {method:?}")))?;
    let frame = if torque_frame == "lab" {
        Frame::Lab
    } else {
        Frame::Body
    };
    // Read and checked as `RigidBodies` reads its arrays.
    let (bodies, y0) = initial(
        py,
        &mass,
        &inertia,
        &positions,
        &velocities,
        &rotors,
        &omegas,
        t0,
        true,
    )?;
    let mut run = Run {
        rank,
        seen: 0,
        bodies,
        y0,
        dt,
        n_steps,
        frame,
        parameters,
        result: None,
    };
    every_method(&mut run).map_err(|e| to_py(py, e))?;
    let [carried, state] = run
        .result
        .ok_or_else(|| invalid("method", None, None, format!("unknown method {method:?}")))?;
    let mut out = Vec::new();
    for s in [carried, state] {
        let n = s.len();
        let table =
            |flat: Vec<f64>, columns: usize| PyArray1::from_vec(py, flat).reshape([n, columns]);
        let vectors = |v: &[Vector3<f64>]| v.iter().flat_map(|x| [x.x, x.y, x.z]).collect();
        out.push(table(vectors(&s.positions), 3)?);
        out.push(table(vectors(&s.velocities), 3)?);
        out.push(table(
            s.rotors.iter().flat_map(|q| [q.w, q.i, q.j, q.k]).collect(),
            4,
        )?);
        out.push(table(vectors(&s.omegas), 3)?);
    }
    Ok(out)
}

/// The run of the method of rank `rank` (the visitor builds and steps it).
struct Run {
    rank: usize,
    seen: usize,
    bodies: Vec<Body>,
    y0: SystemState,
    dt: f64,
    n_steps: usize,
    frame: Frame,
    parameters: [f64; 7],
    /// The carried arrays after the steps and the synchronised state.
    result: Option<[SystemState; 2]>,
}

impl MethodVisitor for Run {
    fn visit<K: RigidBodyMethod>(
        &mut self,
        make: fn(RigidBody) -> SingleBody<K>,
    ) -> lieode::Result<()> {
        self.seen += 1;
        if self.seen - 1 != self.rank {
            return Ok(());
        }
        let [k, c, gx, gy, gz, a, b] = self.parameters;
        let g = Vector3::new(gx, gy, gz);
        let mut model = PerBody {
            frame: self.frame,
            model: move |body: &BodyView<'_>| {
                let q = body.rotor;
                let force = (body.position * k + body.velocity * c) + g;
                let torque = Vector3::new(q.i, q.j, q.k) * a + body.omega * b;
                (force, torque)
            },
        };
        let mut system = CatalogueSystem::new(std::mem::take(&mut self.bodies), make);
        system.start(&mut model, &Span::open(self.y0.t, self.dt)?, &self.y0)?;
        for _ in 0..self.n_steps {
            system.step(&mut model)?;
        }
        let carried = system.arrays().map(|v| SystemState {
            t: v.t,
            positions: v.positions.to_vec(),
            velocities: v.velocities.to_vec(),
            rotors: v.rotors.to_vec(),
            omegas: v.omegas.to_vec(),
        });
        let state = system.state(&mut model)?;
        self.result = carried.map(|c| [c, state]);
        Ok(())
    }
}
