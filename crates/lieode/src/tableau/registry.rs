//! # The registry of built-in tableaux
//!
//! Every built-in method is a `const` [`ButcherTableau`] written once, with its literature name
//! in `name` and its source in `reference`; [`all`] lists them and [`by_name`] finds one by its
//! constant's name or its literature name (case-insensitive, ignoring spaces and punctuation).
//! Every entry is checked by the test suite against the order conditions computed from the
//! stored data, up to its stated order, and shown to fail the next order.
//!
//! | constant | method | stages | order (embedded) | family |
//! |---|---|---|---|---|
//! | [`EULER`] | explicit Euler | 1 | 1 | classical |
//! | [`MIDPOINT`] | explicit midpoint | 2 | 2 | classical |
//! | [`HEUN`] | Heun | 2 | 2 | classical |
//! | [`RALSTON`] | Ralston | 2 | 2 | classical |
//! | [`KUTTA3`] | Kutta's third order | 3 | 3 | classical |
//! | [`SSPRK3`] | Shu–Osher SSP | 3 | 3 | classical |
//! | [`RK4`] | classical Runge–Kutta | 4 | 4 | classical |
//! | [`RK38`] | Kutta's 3/8 rule | 4 | 4 | classical |
//! | [`BS32`] | Bogacki–Shampine, FSAL | 4 | 3 (2) | classical |
//! | [`DOPRI5`] | Dormand–Prince, FSAL, dense output of order 4 | 7 | 5 (4) | classical |
//! | [`DOP853`] | Hairer's DOP853 | 12 | 8 (5) | classical |
//! | [`TSIT5`] | Tsitouras, FSAL | 7 | 5 (4) | classical |
//! | [`BACKWARD_EULER`] | backward Euler | 1 | 1 | classical, implicit |
//! | [`IMPLICIT_MIDPOINT`] | implicit midpoint | 1 | 2 | classical, implicit |
//! | [`TRAPEZOID`] | trapezoid (Lobatto IIIA) | 2 | 2 | classical, implicit |
//! | [`GAUSS4`] | Gauss–Legendre | 2 | 4 | classical, implicit |
//! | [`GAUSS6`] | Gauss–Legendre | 3 | 6 | classical, implicit |
//! | [`RADAU_IIA3`] | Radau IIA | 2 | 3 | classical, implicit |
//! | [`RADAU_IIA5`] | Radau IIA | 3 | 5 | classical, implicit |
//! | [`CG3`] | Crouch–Grossman | 3 | 3 | Crouch–Grossman |
//! | [`CG23`] | Crouch–Grossman pair | 3 | 3 (2) | Crouch–Grossman |
//! | [`CG4A`] | Crouch–Grossman (Jackiewicz–Marthinsen–Owren) | 5 | 4 | Crouch–Grossman |
//! | [`CF4`] | commutator-free (Celledoni–Marthinsen–Owren) | 4 | 4 | commutator-free |

use crate::error::{Error, Result};

use super::ButcherTableau;

// The DOP853 error estimators: parts of DOP853, not methods of their own.
pub use super::explicit::{DOP853_BHH, DOP853_ER};

/// The registry, written once: `registry!(module::NAME, …)` re-exports each listed constant
/// from its module (`explicit`, `implicit`, `lie`) and declares the table of the constants
/// with their names (`stringify!`), its length counted by the compiler. Registering a tableau
/// is writing its `const` and adding it to the one list below; [`all`], [`names`] and
/// [`by_name`] read the table.
macro_rules! registry {
    ($($module:ident :: $name:ident),* $(,)?) => {
        $(pub use super::$module::$name;)*

        /// The registered tableaux with the names of their constants, in the order of the table
        /// above.
        static REGISTRY: [(&str, ButcherTableau); registry!(@count $($name)*)] =
            [$((stringify!($name), $name)),*];
    };
    (@count $($name:ident)*) => { <[()]>::len(&[$(registry!(@unit $name)),*]) };
    (@unit $name:ident) => { () };
}

registry!(
    explicit::EULER,
    explicit::MIDPOINT,
    explicit::HEUN,
    explicit::RALSTON,
    explicit::KUTTA3,
    explicit::SSPRK3,
    explicit::RK4,
    explicit::RK38,
    explicit::BS32,
    explicit::DOPRI5,
    explicit::DOP853,
    explicit::TSIT5,
    implicit::BACKWARD_EULER,
    implicit::IMPLICIT_MIDPOINT,
    implicit::TRAPEZOID,
    implicit::GAUSS4,
    implicit::GAUSS6,
    implicit::RADAU_IIA3,
    implicit::RADAU_IIA5,
    lie::CG3,
    lie::CG23,
    lie::CG4A,
    lie::CF4,
);

/// Every registered tableau, in the order of the module's table.
///
/// # Examples
/// ```
/// use lieode::tableau::registry;
/// assert_eq!(registry::all().len(), registry::names().len());
/// assert!(registry::all().iter().all(|t| t.validate().is_ok()));
/// ```
pub fn all() -> Vec<ButcherTableau> {
    REGISTRY.iter().map(|(_, t)| t.clone()).collect()
}

/// The names of the registered constants (`"RK4"`, `"DOPRI5"`, …), in the order of [`all`].
pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|(key, _)| *key).collect()
}

/// Lower case, letters and digits only: `"Radau IIA 5"`, `"RADAU_IIA5"` and `"radau-iia5"`
/// all become `"radauiia5"`.
fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The registered tableau whose constant name or literature name matches `name`, ignoring
/// case, spaces and punctuation (`"rk4"`, `"RADAU_IIA5"`, `"Radau IIA 5"`, `"cg4a"`,
/// `"3/8 rule"`, `"Gauss-Legendre 6"`).
///
/// # Errors
/// [`Error::InvalidParameter`] naming `name` when nothing matches.
///
/// # Examples
/// ```
/// use lieode::tableau::registry::{by_name, DOPRI5};
/// assert_eq!(by_name("dopri5")?, DOPRI5);
/// assert_eq!(by_name("Gauss-Legendre 4")?.order, 4);
/// assert!(by_name("RK5").is_err());
/// # Ok::<(), lieode::Error>(())
/// ```
pub fn by_name(name: &str) -> Result<ButcherTableau> {
    let wanted = normalise(name);
    REGISTRY
        .iter()
        .find(|(key, t)| {
            !wanted.is_empty() && (normalise(key) == wanted || normalise(&t.name) == wanted)
        })
        .map(|(_, t)| t.clone())
        .ok_or_else(|| Error::InvalidParameter {
            name: "name",
            value: name.to_string(),
            expected: "the name of a registered tableau, e.g. `RK4`, `DOPRI5`, `GAUSS4` or `CG3` \
                       (see `tableau::registry::names()`)"
                .to_string(),
        })
}
