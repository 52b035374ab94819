//! The normalisation policy a host chooses for a method
//! ([`crate::lieode_method_new_with_renormalisation`]).

use lieode::rotation::Renormalisation;

use crate::failure::Failure;
// For the documentation's link only: the function that gives the default.
#[cfg(doc)]
use crate::lieode_method_new;

/// The method's default policy (`lieode::rotation::MethodInfo::default_renormalisation`, the
/// SPIRAL paper's benchmark): what [`lieode_method_new`] gives.
pub const LIEODE_RENORMALISE_DEFAULT: i32 = 0;
/// The rotor normalised, `q ← q/|q|`, at the end of every step
/// (`lieode::rotation::Renormalisation::EveryStep`).
pub const LIEODE_RENORMALISE_ALWAYS: i32 = 1;
/// The rotor never normalised by the policy (`lieode::rotation::Renormalisation::Never`): `|q|`
/// is kept by the update itself (exponential or Cayley maps) or drifts.
pub const LIEODE_RENORMALISE_NEVER: i32 = 2;

/// The policy `renormalise` asks for (`None` for the method's default); any other value is an
/// invalid argument of `function`.
pub(crate) fn policy(function: &str, renormalise: i32) -> Result<Option<Renormalisation>, Failure> {
    match renormalise {
        LIEODE_RENORMALISE_DEFAULT => Ok(None),
        LIEODE_RENORMALISE_ALWAYS => Ok(Some(Renormalisation::EveryStep)),
        LIEODE_RENORMALISE_NEVER => Ok(Some(Renormalisation::Never)),
        _ => Err(Failure::invalid(
            function,
            format!(
                "renormalise = {renormalise}; expected LIEODE_RENORMALISE_DEFAULT \
                 ({LIEODE_RENORMALISE_DEFAULT}), LIEODE_RENORMALISE_ALWAYS \
                 ({LIEODE_RENORMALISE_ALWAYS}) or LIEODE_RENORMALISE_NEVER \
                 ({LIEODE_RENORMALISE_NEVER})"
            ),
        )),
    }
}
