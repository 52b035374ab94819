//! # The catalogue: every rotational stepper by name
//!
//! `name → constructor`, as [`crate::tableau::registry`] is for tableaux: [`stepper`] builds the
//! method called `name` for a body and any torque field, [`stepper_renormalised`] the same with
//! another normalisation policy, and [`NAMES`] lists them in the order of the SPIRAL paper's
//! tables (App. B), then ours (`spiral_magnus`) and the generic engines on `SU(2) × ℝ³`. Every
//! name is the one used in the reproductions' CSV files.
//!
//! Adding a method touches its own file and one line of the table below. The method table in
//! the [`crate::rotation`] module documentation is tested against this catalogue
//! (`tests/rotation_catalogue.rs`).
//!
//! # Examples
//! ```
//! use lieode::integrate::{Options, Record, integrate};
//! use lieode::rotation::{ConstantBodyTorque, RigidBody, RotationalState, catalogue};
//! use lieode::stepper::Span;
//! use nalgebra::{Quaternion, Vector3};
//!
//! let body = RigidBody::new([1.0, 2.0, 2.5])?;
//! let start = RotationalState::new(0.0, Quaternion::identity(), Vector3::new(0.3, -0.9, 0.6));
//! let mut torque = ConstantBodyTorque(Vector3::new(0.5, 0.0, 0.0));
//! for name in catalogue::NAMES {
//!     let mut method = catalogue::stepper(name, body)?;
//!     let span = Span::stride(0.0, 1e-3, 100)?;
//!     let sol = integrate(&mut *method, &mut torque, &start, &span, Options::record(Record::Ends))?;
//!     assert!((sol.states[1].t - 0.1).abs() < 1e-12, "{name}");
//! }
//! assert!(catalogue::stepper::<ConstantBodyTorque>("nonsense", body).is_err());
//! # Ok::<(), lieode::Error>(())
//! ```

use super::stepper::{CatalogueStepper, Renormalisation};
use super::torque::TorqueField;
use super::{
    Buss, DirectEuler, Fincham, Johnson, LieEngine, MercuryDpm, Omelyan, Rk4, Spiral,
    SpiralLeapfrog, SpiralMagnus, SpiralOmelyan, VelocityVerlet,
};
use crate::body::RigidBody;
use crate::body::RigidBodyQuatState;
use crate::engine::{CommutatorFree, MuntheKaas};
use crate::error::{Error, Result};
use crate::tableau::registry::{CG4A, RK4};

/// A catalogue stepper behind one pointer, for any torque field `T`.
pub type BoxedStepper<T> = Box<dyn CatalogueStepper<T> + Send>;

// The table: `name => constructor(body)`, with `renormalisable` where the method takes a
// normalisation policy (`with_renormalisation`). Generates `NAMES`, `stepper` and
// `stepper_renormalised`.
macro_rules! catalogue {
    ($($name:literal => |$body:ident| $make:expr $(, $renorm:ident)?;)*) => {
        /// Every method of the catalogue, by name.
        pub const NAMES: [&str; catalogue!(@count $($name)*)] = [$($name),*];

        /// The method called `name` for `body`, with its default normalisation policy.
        ///
        /// # Errors
        /// [`Error::InvalidParameter`] naming `method` for an unknown name; those of the
        /// constructor.
        pub fn stepper<T: TorqueField + 'static>(name: &str, body: RigidBody) -> Result<BoxedStepper<T>> {
            match name {
                $($name => {
                    let $body = body;
                    Ok(Box::new($make))
                })*
                _ => Err(unknown(name)),
            }
        }

        /// The method called `name` for `body` with the normalisation policy `policy` instead
        /// of its default (SPIRAL Fig. 4 compares the methods with and without
        /// normalisation).
        ///
        /// # Errors
        /// [`Error::InvalidParameter`] naming `method` for an unknown name, naming
        /// `renormalisation` for a method without the option (MercuryDPM's Gram–Schmidt is part
        /// of the method; the generic engines stay on the group by construction) or an invalid
        /// policy.
        pub fn stepper_renormalised<T: TorqueField + 'static>(
            name: &str,
            body: RigidBody,
            policy: Renormalisation,
        ) -> Result<BoxedStepper<T>> {
            match name {
                $($name => {
                    // Unused by the methods without the option.
                    #[allow(unused_variables)]
                    let $body = body;
                    catalogue!(@renormalise $make, policy, name $(, $renorm)?)
                })*
                _ => Err(unknown(name)),
            }
        }
    };
    (@count $($x:literal)*) => { <[()]>::len(&[$(catalogue!(@unit $x)),*]) };
    (@unit $x:literal) => { () };
    (@renormalise $make:expr, $policy:ident, $name:ident, renormalisable) => {
        Ok(Box::new($make.with_renormalisation($policy)?))
    };
    (@renormalise $make:expr, $policy:ident, $name:ident) => {
        Err(Error::InvalidParameter {
            name: "renormalisation",
            value: format!("{:?} for {}", $policy, $name),
            expected: "a quaternion stepper of the catalogue (not mercurydpm or the generic \
                       engines)"
                .into(),
        })
    };
}

catalogue! {
    "rk4" => |body| Rk4::new(body), renormalisable;
    "direct_euler" => |body| DirectEuler::new(body), renormalisable;
    "velocity_verlet" => |body| VelocityVerlet::new(body), renormalisable;
    "buss" => |body| Buss::buss2000(body), renormalisable;
    "buss16" => |body| Buss::benchmark(body), renormalisable;
    "johnson" => |body| Johnson::new(body), renormalisable;
    "fincham" => |body| Fincham::new(body), renormalisable;
    "omelyan" => |body| Omelyan::new(body), renormalisable;
    "mercurydpm" => |body| MercuryDpm::new(body);
    "spiral_leapfrog" => |body| SpiralLeapfrog::new(body), renormalisable;
    "spiral" => |body| Spiral::new(body), renormalisable;
    "spiral_omelyan" => |body| SpiralOmelyan::new(body), renormalisable;
    "spiral_magnus" => |body| SpiralMagnus::new(body), renormalisable;
    "rkmk4" => |body| LieEngine::new("rkmk4", MuntheKaas::<RigidBodyQuatState>::new(&RK4)?, body, RK4.stages);
    "cg4a" => |body| LieEngine::new(
        "cg4a",
        CommutatorFree::<RigidBodyQuatState>::crouch_grossman(&CG4A)?,
        body,
        CG4A.stages,
    );
}

/// The error for a name that is not in the catalogue.
fn unknown(name: &str) -> Error {
    Error::InvalidParameter {
        name: "method",
        value: name.to_string(),
        expected: format!("one of {NAMES:?}"),
    }
}
