//! The frame of the torques a host hands over.

use crate::failure::Failure;

/// Torques given in the body frame (principal axes).
pub const LIEODE_FRAME_BODY: i32 = 0;
/// Torques given in the lab frame (rotated into the body frame with the rotor of the point
/// where they were evaluated).
pub const LIEODE_FRAME_LAB: i32 = 1;

/// Whether `frame` is [`LIEODE_FRAME_LAB`] (rather than [`LIEODE_FRAME_BODY`]); anything else
/// is an invalid argument of `function`.
pub(crate) fn is_lab(function: &str, frame: i32) -> Result<bool, Failure> {
    match frame {
        LIEODE_FRAME_BODY => Ok(false),
        LIEODE_FRAME_LAB => Ok(true),
        _ => Err(Failure::invalid(
            function,
            format!(
                "frame = {frame}; expected LIEODE_FRAME_BODY ({LIEODE_FRAME_BODY}) or \
                 LIEODE_FRAME_LAB ({LIEODE_FRAME_LAB})"
            ),
        )),
    }
}
