//! [`Lift`]: a stored scalar taken into the scalar a problem is evaluated over.

use num_dual::{Dual64, DualSVec64};

use super::{Real, real};

/// A scalar a problem stores (a moment of inertia, a rate) taken into the scalar `T` it is
/// evaluated over: `f64` into any scalar, exactly; a sensitivity run's dual number
/// [`DualSVec64<P>`](num_dual::DualSVec64) into itself (its derivative parts kept: the
/// parameter's directions) or into [`Dual64`] (its real part: the Newton solves of the implicit
/// methods differentiate the stage equations with `Dual64` at the real parts, for their
/// iteration matrix only).
///
/// A problem generic in its stored scalar `S` evaluates over every `T` with `S: Lift<T>`: over
/// `f64` and `Dual64` when `S = f64`, over `DualSVec64<P>` and `Dual64` when `S` is that dual.
///
/// # Examples
/// ```
/// use lieode::lie::Lift;
/// use num_dual::{Dual64, DualSVec64};
///
/// let moment = DualSVec64::<2>::from_re(2.5).derivative(1);
/// let same: DualSVec64<2> = moment.lift();
/// assert_eq!(same, moment);
/// let real: Dual64 = moment.lift();
/// assert_eq!((real.re, real.eps), (2.5, 0.0));
/// let plain: Dual64 = 2.5f64.lift();
/// assert_eq!(plain.re, 2.5);
/// ```
pub trait Lift<T>: Copy {
    /// The value over `T`.
    fn lift(self) -> T;
}

/// Exactly (`f64` embeds into every scalar).
impl<T: Real> Lift<T> for f64 {
    #[inline(always)]
    fn lift(self) -> T {
        real(self)
    }
}

/// Unchanged: the derivative parts are the parameter's directions.
impl<const P: usize> Lift<DualSVec64<P>> for DualSVec64<P> {
    #[inline(always)]
    fn lift(self) -> DualSVec64<P> {
        self
    }
}

/// The real part, for a Newton iteration matrix.
impl<const P: usize> Lift<Dual64> for DualSVec64<P> {
    #[inline(always)]
    fn lift(self) -> Dual64 {
        Dual64::from(self.re)
    }
}
