//! # The prelude
//!
//! `use lieode::prelude::*;` brings in what most programs need: the group traits and groups,
//! the problem traits, the stepper protocol and the driver, the engines and adaptive steppers,
//! tableaux, rotation kinematics (the formulations and their [`Formulated`] stepper), the rigid
//! body's words (body, frame, torque), the rotational catalogue's one method trait and its
//! single-body stepper, the many-body layer (`system`), and the error type.
//!
//! ```
//! use lieode::prelude::*;
//! use lieode::tableau::registry::RK4;
//!
//! // RKMK4 on the rotation group, driven by the one integrate.
//! let mut kinematics = LieOdeFn::left(|t: f64, _r: &So3| So3Algebra::new(nalgebra::Vector3::new(1.0, t, 0.0)));
//! let mut rkmk4 = Fixed::new(MuntheKaas::<So3>::new(&RK4)?);
//! let sol = integrate(&mut rkmk4, &mut kinematics, &So3::identity(), &Span::steps(0.0, 1.0, 20)?, Options::record(Record::Ends))?;
//! assert_eq!(sol.stats.rhs_evaluations, 80);
//!
//! // Two free spheres under gravity, SPIRAL on both, from the same words.
//! let ball = Body::solid_sphere(1.0, 0.1)?;
//! let mut gravity = PerBody {
//!     frame: Frame::Body,
//!     model: |_b: &BodyView<'_>| (nalgebra::Vector3::new(0.0, 0.0, -9.81), nalgebra::Vector3::zeros()),
//! };
//! let mut spiral = SpiralLeapfrogSystem::uniform(ball, 2, lieode::rotation::SpiralLeapfrog::new);
//! let y0 = SystemState::at_rest(0.0, 2);
//! let sol = integrate(&mut spiral, &mut gravity, &y0, &Span::stride(0.0, 1e-3, 1000)?, Options::record(Record::Ends))?;
//! assert!((sol.states[1].velocities[0].z + 9.81).abs() < 1e-9);
//! # Ok::<(), lieode::Error>(())
//! ```

pub use crate::adaptive::{
    Controlled, Controller, ControllerParameters, Dop853, Dopri5, EmbeddedRk, LieStepper, Odex,
    OdexParameters, Tolerances, VectorStepper,
};
pub use crate::body::{
    Body, BodyTorque, ConstantBodyTorque, Frame, LabTorque, NoTorque, Orientation, RigidBody,
    RigidBodyQuatState, RigidBodyState, Torque,
};
pub use crate::clock::FixedClock;
pub use crate::engine::{
    CommutatorFree, CrouchGrossman, ExplicitRk, Fixed, ImplicitMuntheKaas, ImplicitRk, MuntheKaas,
};
pub use crate::error::{Error, Result};
pub use crate::integrate::{
    Direction, Event, Observer, Options, Record, Series, Solution, StopReason, integrate,
};
pub use crate::kinematics::{
    Attitude, Formulated, Formulation, FrameVectors, Generator, Kinematics, Lifted,
    RotationProblem, Rotor, TwoFrameVectors,
};
pub use crate::lie::product::Product;
pub use crate::lie::rn::Rn;
pub use crate::lie::se3::Se3;
pub use crate::lie::so3::{So3, So3Algebra};
pub use crate::lie::unit_quaternion::{Su2Algebra, UnitQuat};
pub use crate::lie::{LieAlgebra, LieGroup, Side, Truncation};
pub use crate::momentum::{KryslMethod, MomentumIntegrator};
pub use crate::ode::{LieOde, LieOdeFn, VectorOde};
pub use crate::rotation::{
    CatalogueStepper, MethodInfo, Renormalisation, RigidBodyMethod, RotationalMethod,
    RotationalState, SingleBody, catalogue,
};
pub use crate::stepper::{Span, Stats, Stepper, StepperInfo};
pub use crate::system::{
    BodyModel, BodyView, CatalogueSystem, EveryBody, ImprovedPcdmSystem, Loads, PcdmSystem,
    PerBody, Rk4System, SpiralLeapfrogSystem, SystemForces, SystemState, SystemView,
};
pub use crate::tableau::ButcherTableau;
