//! # The prelude
//!
//! `use lieode::prelude::*;` brings in what most programs need: the group traits and groups,
//! the problem traits, the stepper protocol and the driver, the engines and adaptive steppers,
//! tableaux, rotation kinematics (the formulations and their [`Formulated`] stepper), and the
//! error type.
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
//! # Ok::<(), lieode::Error>(())
//! ```

pub use crate::adaptive::{
    Controlled, Controller, ControllerParameters, Dop853, Dopri5, EmbeddedRk, LieStepper, Odex,
    OdexParameters, Tolerances, VectorStepper,
};
pub use crate::body::{Frame, Orientation, RigidBody, RigidBodyQuatState, RigidBodyState, Torque};
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
pub use crate::rotation::{CatalogueStepper, RotationalMethod, RotationalState, catalogue};
pub use crate::stepper::{Span, Stats, Stepper, StepperInfo};
pub use crate::tableau::ButcherTableau;
