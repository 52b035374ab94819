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

use super::method::{MethodInfo, RigidBodyMethod};
use super::omelyan::OmelyanCayley;
use super::single_body::SingleBody;
use super::spiral_omelyan::SpiralExponential;
use super::stepper::{CatalogueStepper, Renormalisation};
use super::{
    BussMethod, DirectEulerMethod, FinchamMethod, JohnsonMethod, LieEngine, MercuryDpmMethod,
    OmelyanMethod, Rk4Method, SpiralLeapfrogMethod, SpiralMagnusMethod, SpiralMethod,
    VelocityVerletMethod,
};
use crate::body::RigidBodyQuatState;
use crate::body::{RigidBody, Torque};
use crate::engine::{CommutatorFree, MuntheKaas};
use crate::error::{Error, Result};
use crate::tableau::registry::{CG4A, RK4};

/// A catalogue stepper behind one pointer, for any torque field `T`.
pub type BoxedStepper<T> = Box<dyn CatalogueStepper<T> + Send>;

/// A computation run on every method of the catalogue that runs on many bodies, each with its
/// concrete type `K` (so that [`crate::system::CatalogueSystem<K>`] is monomorphised, not
/// dispatched), given as its single-body constructor `make(body)` (whose method definition and
/// normalisation policy a many-body system takes).
pub trait MethodVisitor {
    /// Runs on the method `make`.
    ///
    /// # Errors
    /// The computation's.
    fn visit<K: RigidBodyMethod>(&mut self, make: fn(RigidBody) -> SingleBody<K>) -> Result<()>;
}

// The table, in the order of the SPIRAL paper's tables (App. B), then ours and the generic
// engines: `name => method definition` for the methods defined once ([`RigidBodyMethod`]),
// with `many N` for those that run on many bodies (`N`: their rank in the many-body list, the
// order of `docs/system.md` and of the reproductions' CSV rows), and
// `engine name => |body| stepper` for the Lie-group engines. Generates `NAMES`, `stepper`,
// `stepper_renormalised`, `info`, `MANY_BODY_NAMES` and `visit_many_bodies`.
macro_rules! catalogue {
    (
        methods { $($name:literal => $method:expr $(, many $rank:literal)?;)* }
        engines { $($engine:literal => |$body:ident| $make:expr;)* }
    ) => {
        /// Every method of the catalogue, by name.
        pub const NAMES: [&str; catalogue!(@count $($name)* $($engine)*)] =
            [$($name,)* $($engine),*];

        /// The names of the methods that run on many bodies ([`crate::system::CatalogueSystem`]),
        /// in the order [`visit_many_bodies`] visits them.
        pub const MANY_BODY_NAMES: [&str; catalogue!(@count $($($rank)?)*)] = {
            let mut names = [""; catalogue!(@count $($($rank)?)*)];
            $($(names[$rank] = $name;)?)*
            names
        };

        /// The method called `name` for `body`, with its default normalisation policy.
        ///
        /// # Errors
        /// [`Error::InvalidParameter`] naming `method` for an unknown name; those of the
        /// constructor.
        pub fn stepper<T: Torque + 'static>(name: &str, body: RigidBody) -> Result<BoxedStepper<T>> {
            match name {
                $($name => Ok(Box::new(SingleBody::with_method($method, body))),)*
                $($engine => {
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
        pub fn stepper_renormalised<T: Torque + 'static>(
            name: &str,
            body: RigidBody,
            policy: Renormalisation,
        ) -> Result<BoxedStepper<T>> {
            match name {
                $($name => Ok(Box::new(
                    SingleBody::with_method($method, body).with_renormalisation(policy)?,
                )),)*
                $($engine => Err(Error::InvalidParameter {
                    name: "renormalisation",
                    value: format!("{policy:?} for {name}"),
                    expected: "a quaternion stepper of the catalogue (not mercurydpm or the \
                               generic engines)"
                        .into(),
                }),)*
                _ => Err(unknown(name)),
            }
        }

        /// The information row ([`MethodInfo`]: torque evaluations per step, leapfrog or not,
        /// normalisation policy, global orders in `q` and `ω`) of the method called `name`;
        /// `None` for an unknown name and for the generic Lie-group engines (`rkmk4`, `cg4a`),
        /// which carry no row (their order is their tableau's, [`crate::tableau::ButcherTableau`]).
        ///
        /// The orders are measured for every row under an attitude- and time-dependent torque
        /// (`tests/catalogue_orders.rs`).
        ///
        /// # Examples
        /// ```
        /// use lieode::rotation::catalogue;
        ///
        /// let rows: Vec<_> = catalogue::NAMES.iter().filter_map(|n| catalogue::info(n)).collect();
        /// assert!(rows.iter().all(|row| catalogue::NAMES.contains(&row.name)));
        /// let leapfrog = catalogue::info("spiral_leapfrog").expect("a row");
        /// assert!(leapfrog.leapfrog);
        /// assert_eq!(leapfrog.order, [2, 2]);
        /// assert!(catalogue::info("rkmk4").is_none());
        /// assert!(catalogue::info("nonsense").is_none());
        /// ```
        pub fn info(name: &str) -> Option<MethodInfo> {
            match name {
                $($name => Some(RigidBodyMethod::<f64>::info(&$method)),)*
                _ => None,
            }
        }

        /// Runs `visitor` on every method that runs on many bodies, in the order of
        /// [`MANY_BODY_NAMES`].
        ///
        /// # Errors
        /// The first error of the visitor.
        pub fn visit_many_bodies(visitor: &mut impl MethodVisitor) -> Result<()> {
            for rank in 0..MANY_BODY_NAMES.len() {
                match rank {
                    $($($rank => visitor.visit(|body| SingleBody::with_method($method, body))?,)?)*
                    _ => {}
                }
            }
            Ok(())
        }
    };
    (@count $($x:tt)*) => { <[()]>::len(&[$(catalogue!(@unit $x)),*]) };
    (@unit $x:tt) => { () };
}

catalogue! {
    methods {
        "rk4" => Rk4Method::default();
        "direct_euler" => DirectEulerMethod, many 6;
        "velocity_verlet" => VelocityVerletMethod, many 5;
        "buss" => BussMethod::BUSS_2000, many 7;
        "buss16" => BussMethod::BENCHMARK, many 8;
        "johnson" => JohnsonMethod, many 9;
        "fincham" => FinchamMethod, many 4;
        "omelyan" => OmelyanMethod::<OmelyanCayley>::default(), many 3;
        "mercurydpm" => MercuryDpmMethod::default(), many 10;
        "spiral_leapfrog" => SpiralLeapfrogMethod::default(), many 0;
        "spiral" => SpiralMethod::default(), many 1;
        "spiral_omelyan" => OmelyanMethod::<SpiralExponential>::default(), many 2;
        "spiral_magnus" => SpiralMagnusMethod::default(), many 11;
    }
    engines {
        "rkmk4" => |body| LieEngine::new("rkmk4", MuntheKaas::<RigidBodyQuatState>::new(&RK4)?, body, RK4.stages);
        "cg4a" => |body| LieEngine::new(
            "cg4a",
            CommutatorFree::<RigidBodyQuatState>::crouch_grossman(&CG4A)?,
            body,
            CG4A.stages,
        );
    }
}

/// The error for a name that is not in the catalogue.
fn unknown(name: &str) -> Error {
    Error::InvalidParameter {
        name: "method",
        value: name.to_string(),
        expected: format!("one of {NAMES:?}"),
    }
}
