//! Every many-body method of the catalogue (`lieode::system::METHOD_NAMES`) behind one object
//! type, [`Runner`], built by name: each is a `CatalogueSystem<K>` monomorphised for its
//! method `K`, stepped with the loads of a [`Source`].

use lieode::body::Frame;
use lieode::rotation::catalogue;
use lieode::rotation::{RigidBody, RigidBodyMethod, SingleBody};
use lieode::stepper::{Span, Stats, Stepper, StepperInfo};
use lieode::system::{
    Body, BodyView, CatalogueSystem, METHOD_NAMES, MethodVisitor, PerBody, SystemState, SystemView,
    every_method,
};
use nalgebra::Vector3;
use pyo3::prelude::*;

use super::loads::Source;

/// What the binding needs to know of a method beyond its [`lieode::rotation::MethodInfo`]: the
/// constants of its [`RigidBodyMethod`].
#[derive(Debug, Clone, Copy)]
pub struct Traits {
    /// The torque point is the carried state ([`RigidBodyMethod::POINT_IS_CARRIED`]).
    pub point_is_carried: bool,
    /// The loads are taken at `t_{n+1}` (velocity Verlet form).
    pub torque_at_end: bool,
    /// The load evaluations of the start (at least one: the system evaluates the loads at
    /// `t_0` for every method).
    pub start_evaluations: usize,
}

impl Traits {
    /// Whether the next step's load point is the carried arrays themselves (no copy needed to
    /// show it).
    pub fn point_is_arrays(&self) -> bool {
        self.point_is_carried && !self.torque_at_end
    }
}

/// The load buffers, forces and torques.
pub type Buffers<'a> = (&'a mut [Vector3<f64>], &'a mut [Vector3<f64>]);

/// A many-body method of the catalogue, as one object type.
pub trait Runner: Send + Sync {
    /// The method's constants.
    fn traits(&self) -> Traits;
    /// Starts from `y0` on `span` with the loads of `source`.
    fn start(
        &mut self,
        source: &mut Source<'_>,
        span: &Span,
        y0: &SystemState,
    ) -> lieode::Result<()>;
    /// One step with the loads of `source`.
    fn step(&mut self, source: &mut Source<'_>) -> lieode::Result<()>;
    /// The synchronised state (the leapfrog form evaluates the loads of `source`).
    fn state(&mut self, source: &mut Source<'_>) -> lieode::Result<SystemState>;
    /// `n` steps under constant loads given by a per-body model (the core's one-pass step).
    fn fused_steps(
        &mut self,
        n: usize,
        force: Vector3<f64>,
        torque: Vector3<f64>,
        frame: Frame,
    ) -> lieode::Result<()>;
    /// The carried arrays (`None` before the start).
    fn arrays(&self) -> Option<SystemView<'_>>;
    /// The load buffers (`None` before the start).
    fn load_buffers(&mut self) -> Option<Buffers<'_>>;
    /// A copy, to find the point of an evaluation without touching the run.
    fn ghost(&self) -> Box<dyn Runner>;
    /// The counters.
    fn stats(&self) -> Stats;
}

impl<K: RigidBodyMethod> Runner for CatalogueSystem<K> {
    fn traits(&self) -> Traits {
        Traits {
            point_is_carried: K::POINT_IS_CARRIED,
            torque_at_end: K::TORQUE_AT_END,
            start_evaluations: K::START_EVALUATIONS.max(1),
        }
    }

    fn start(
        &mut self,
        source: &mut Source<'_>,
        span: &Span,
        y0: &SystemState,
    ) -> lieode::Result<()> {
        Stepper::start(self, source, span, y0)
    }

    fn step(&mut self, source: &mut Source<'_>) -> lieode::Result<()> {
        Stepper::step(self, source).map(|_| ())
    }

    fn state(&mut self, source: &mut Source<'_>) -> lieode::Result<SystemState> {
        Stepper::state(self, source)
    }

    fn fused_steps(
        &mut self,
        n: usize,
        force: Vector3<f64>,
        torque: Vector3<f64>,
        frame: Frame,
    ) -> lieode::Result<()> {
        let mut model = PerBody {
            frame,
            model: move |_: &BodyView<'_>| (force, torque),
        };
        for _ in 0..n {
            Stepper::step(self, &mut model)?;
        }
        Ok(())
    }

    fn arrays(&self) -> Option<SystemView<'_>> {
        CatalogueSystem::arrays(self)
    }

    fn load_buffers(&mut self) -> Option<Buffers<'_>> {
        CatalogueSystem::load_buffers(self).map(|l| (&mut l.forces[..], &mut l.torques[..]))
    }

    fn ghost(&self) -> Box<dyn Runner> {
        Box::new(self.clone())
    }

    fn stats(&self) -> Stats {
        StepperInfo::stats(self)
    }
}

/// The method called `name` on `bodies`, with its default normalisation policy.
///
/// # Errors
/// `lieode::Error::InvalidParameter` naming `method` for a name that is not a many-body method.
pub fn build(name: &str, bodies: Vec<Body>) -> lieode::Result<Box<dyn Runner>> {
    struct Build {
        rank: usize,
        seen: usize,
        bodies: Vec<Body>,
        built: Option<Box<dyn Runner>>,
    }
    impl MethodVisitor for Build {
        fn visit<K: RigidBodyMethod>(
            &mut self,
            make: fn(RigidBody) -> SingleBody<K>,
        ) -> lieode::Result<()> {
            if self.seen == self.rank {
                let bodies = std::mem::take(&mut self.bodies);
                self.built = Some(Box::new(CatalogueSystem::new(bodies, make)));
            }
            self.seen += 1;
            Ok(())
        }
    }
    let unknown = || lieode::Error::InvalidParameter {
        name: "method",
        value: format!("{name:?}"),
        expected: format!("one of the many-body methods {METHOD_NAMES:?}"),
    };
    let rank = METHOD_NAMES
        .iter()
        .position(|&n| n == name)
        .ok_or_else(unknown)?;
    let mut build = Build {
        rank,
        seen: 0,
        bodies,
        built: None,
    };
    every_method(&mut build)?;
    build.built.ok_or_else(unknown)
}

/// One row per many-body method, in the catalogue's order:
/// `(name, evaluations per step, leapfrog, order in q, order in ω, start evaluations,
/// loads at the step's end, default renormalisation)`.
type Row = (&'static str, usize, bool, u8, u8, usize, bool, String);

/// The many-body methods with their information rows (the core's `MethodInfo` and the
/// constants of the method): what `lieode.CATALOGUE` is built from.
#[pyfunction]
#[pyo3(name = "_rigid_body_methods")]
pub fn rigid_body_methods(py: Python<'_>) -> PyResult<Vec<Row>> {
    let mut rows = Vec::new();
    for name in METHOD_NAMES {
        let info = catalogue::info(name).ok_or_else(|| {
            pyo3::exceptions::PyRuntimeError::new_err(format!("no catalogue row for {name}"))
        })?;
        let one = Body::new(1.0, [1.0; 3]).map_err(|e| crate::errors::to_py(py, e))?;
        let traits = build(name, vec![one])
            .map_err(|e| crate::errors::to_py(py, e))?
            .traits();
        rows.push((
            info.name,
            info.evaluations,
            info.leapfrog,
            info.order[0],
            info.order[1],
            traits.start_evaluations,
            traits.torque_at_end,
            format!("{:?}", info.default_renormalisation),
        ));
    }
    Ok(rows)
}
