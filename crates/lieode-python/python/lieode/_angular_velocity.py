"""The drop-ins for numpy-quaternion's ``integrate_angular_velocity`` and quaternionic's
``array.from_angular_velocity``."""

from __future__ import annotations

import inspect
from typing import Any, Callable, Optional, Tuple, Union

import numpy as np

from . import _lieode

# The relative tolerance both peers give SciPy for tabulated angular velocities (and
# quaternionic for callables too).
_PEER_RTOL = 100 * np.finfo(float).eps


def _as_rotor(R0, scalar_first=True):
    """``R0`` (None, a numpy-quaternion quaternion, a quaternionic array or four floats,
    scalar first, or scalar last if not ``scalar_first``) as four floats, scalar first."""
    if R0 is None:
        return [1.0, 0.0, 0.0, 0.0]
    components = getattr(R0, "components", None)  # numpy-quaternion's quaternion
    values = np.asarray(components if components is not None else R0, dtype=float)
    if values.shape != (4,):
        raise _lieode.InvalidParameterError(
            f"invalid parameter `R0` of shape {values.shape}: expected one rotor of four "
            "components"
        )
    if not scalar_first and components is None:
        values = np.roll(values, 1)
    return [float(v) for v in values]


def _check_choice(name, value, choices):
    if value not in choices:
        raise _lieode.InvalidParameterError(
            f"invalid parameter `{name}` = {value!r}: expected one of {list(choices)}"
        )


def _floats(R, scalar_first):
    """Float rotors (N, 4), scalar first, in the order asked for."""
    return R if scalar_first else np.roll(R, -1, axis=1)


def _takes_orientation(Omega):
    """Whether ``Omega`` is a function of ``(t, R)`` rather than of ``t`` alone: by its
    signature where Python can tell (two or more positional parameters, or ``*args``)."""
    try:
        parameters = inspect.signature(Omega).parameters.values()
    except (TypeError, ValueError):
        return None
    positional = [
        p
        for p in parameters
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    if any(p.kind == p.VAR_POSITIONAL for p in parameters):
        return True
    return len(positional) >= 2


def integrate_angular_velocity(
    Omega: Union[Callable[..., Any], Tuple[Any, Any]],
    t0: Optional[float],
    t1: Optional[float],
    R0: Any = None,
    tolerance: float = 1e-12,
    *,
    formulation: str = "lifted",
    method: str = "dop853",
    frame: str = "inertial",
    scalar_first: bool = True,
    as_float: bool = False,
    max_steps: Optional[int] = None,
) -> Tuple[np.ndarray, Any]:
    """The frame ``R(t)`` with ``dR/dt = ½ Ω(t, R) R`` from ``t0`` to ``t1`` (``Ω`` in the
    inertial frame), at the accepted steps of DOP853 with absolute tolerance ``tolerance``
    (no relative tolerance), as numpy-quaternion's function of the same name.

    Parameters
    ----------
    Omega : callable or (t, v) tuple
        ``Omega(t)`` or ``Omega(t, R)`` returning the angular velocity (three numbers); ``R``
        is the current unit rotor as four floats, scalar first. Which of the two is told from
        the signature (or, for callables without one, by trying ``Omega(t0, R0)`` first, as
        numpy-quaternion does). Or a table ``(t, v)`` of ``N`` increasing times and an
        ``(N, 3)`` array, interpolated by the not-a-knot cubic spline (SciPy's
        ``CubicSpline``) in Rust, without the GIL and without any Python call; as
        numpy-quaternion does for a table, the integration then runs over the table's times
        (``t0`` and ``t1`` are not used), returns the rotors at those times and uses
        ``rtol = 100 ε`` besides ``tolerance``.
    t0, t1 : float
        The start and end times.
    R0 : optional
        The start rotor (numpy-quaternion quaternion, quaternionic array or four floats, scalar
        first; normalised). Defaults to the identity.
    tolerance : float
        DOP853's absolute tolerance.
    formulation : str
        What is integrated (``lieode.FORMULATIONS``): ``"lifted"`` (default, the method lifted
        to the unit quaternions, every rotor unit up to accumulated round-off; the most
        accurate per evaluation in the package's measurements), ``"rotor"`` (the four
        components, as numpy-quaternion does; normalised on output), ``"generator"``,
        ``"reset_generator"``, ``"frame_vectors"``, ``"two_frame_vectors"`` (Boyle 2017).
    method : str
        ``"dop853"`` (default, as the peer), ``"dopri5"`` or ``"odex"`` (``lieode.METHODS``).
    frame : str
        ``"inertial"`` (default, ``dR/dt = ½ Ω R``, the peers' convention) or ``"body"``
        (``dR/dt = ½ R Ω_b``).
    scalar_first : bool
        ``False`` for SciPy ``Rotation`` users: ``R0`` (as floats) and the returned float
        rotors are scalar last, and ``R`` is returned as floats.
    as_float : bool
        Return ``R`` as an ``(N, 4)`` float array even when numpy-quaternion is installed.
    max_steps : int, optional
        The method's step limit (Hairer's ``NMAX``); ``None`` (default): no limit, as the peers
        have none (Ctrl-C stops a long table run; a callable's run stops inside the callable).

    Returns
    -------
    t : (N,) float array
    R : numpy-quaternion array of N rotors if numpy-quaternion is installed and ``as_float`` is
        false, else an (N, 4) float array, scalar first.

    Raises
    ------
    Any exception ``Omega`` raises, unchanged; ``lieode.LieodeError`` subclasses naming the
    parameter and the time for the library's failures.
    """
    _check_choice("formulation", formulation, _lieode.FORMULATIONS)
    _check_choice("method", method, _lieode.METHODS)
    _check_choice("frame", frame, ("inertial", "body"))
    r0 = _as_rotor(R0, scalar_first)
    as_float = as_float or not scalar_first
    if not callable(Omega):
        try:
            t_Omega, v = Omega
        except (TypeError, ValueError):
            raise TypeError(
                "Omega must be a callable Omega(t) or Omega(t, R), or a table (t, v)"
            ) from None
        times = np.ascontiguousarray(t_Omega, dtype=float)
        values = np.ascontiguousarray(v, dtype=float)
        t, R = _lieode.integrate_angular_velocity(
            (times, values), float(times[0]), float(times[-1]), r0, float(tolerance),
            _PEER_RTOL, formulation, method, frame, times, max_steps,
        )
        return t, _as_numpy_quaternion(_floats(R, scalar_first), as_float)
    takes_orientation = _takes_orientation(Omega)
    if takes_orientation is None:
        try:
            Omega(t0, np.array(r0))
            takes_orientation = True
        except TypeError:
            takes_orientation = False
    omega = Omega if takes_orientation else (lambda t, R: Omega(t))
    t, R = _lieode.integrate_angular_velocity(
        omega, float(t0), float(t1), r0, float(tolerance), 0.0, formulation, method, frame,
        None, max_steps,
    )
    return t, _as_numpy_quaternion(_floats(R, scalar_first), as_float)


def _as_numpy_quaternion(R, as_float):
    """``R`` as a numpy-quaternion array if that package is installed and not ``as_float``."""
    if not as_float:
        try:
            import quaternion
        except ImportError:
            return R
        return quaternion.as_quat_array(R)
    return R


def from_angular_velocity(
    omega: Union[Callable[[Any, float], Any], Any],
    t: Any,
    R0: Any = None,
    tolerance: float = 1e-12,
    *,
    formulation: str = "lifted",
    method: str = "dop853",
    frame: str = "inertial",
    scalar_first: bool = True,
    as_float: bool = False,
    max_steps: Optional[int] = None,
) -> Any:
    """The rotors at the times ``t`` of the frame with ``dR/dt = ½ ω R`` (``ω`` in the inertial
    frame), as quaternionic's ``array.from_angular_velocity``: DOP853 from ``t[0]`` to
    ``t[-1]`` with absolute tolerance ``tolerance`` and relative tolerance ``100 ε``, the
    rotors at ``t`` from its dense output.

    Parameters
    ----------
    omega : callable or (N, 3) array_like
        ``omega(R, t)`` (quaternionic's order: the rotor first, a quaternionic array if
        quaternionic is installed, else four floats) returning the angular velocity; or the
        angular velocity at the times ``t``, interpolated by the not-a-knot cubic spline in
        Rust (no Python call during the integration).
    t : (N,) array_like
        Increasing times: the span and the output times.
    R0 : optional
        The start rotor (quaternionic array, numpy-quaternion quaternion or four floats,
        scalar first; normalised). Defaults to the identity.
    tolerance : float
        DOP853's absolute tolerance.
    formulation, method, frame, scalar_first, max_steps
        As for ``integrate_angular_velocity``.
    as_float : bool
        Return an ``(N, 4)`` float array even when quaternionic is installed.

    Returns
    -------
    A quaternionic array of ``N`` rotors if quaternionic is installed and ``as_float`` is
    false, else an ``(N, 4)`` float array, scalar first.
    """
    times = np.ascontiguousarray(t, dtype=float)
    if times.ndim != 1 or times.size < 2:
        raise _lieode.InvalidParameterError(
            f"invalid parameter `t` of shape {times.shape}: expected at least two times"
        )
    _check_choice("formulation", formulation, _lieode.FORMULATIONS)
    _check_choice("method", method, _lieode.METHODS)
    _check_choice("frame", frame, ("inertial", "body"))
    r0 = _as_rotor(R0, scalar_first)
    as_float = as_float or not scalar_first
    span = (float(times[0]), float(times[-1]))
    if callable(omega):
        try:
            import quaternionic
        except ImportError:
            quaternionic = None

        def omega_tr(t, R):
            return omega(quaternionic.array(R) if quaternionic else R, t)

        _, R = _lieode.integrate_angular_velocity(
            omega_tr, *span, r0, float(tolerance), _PEER_RTOL, formulation, method, frame,
            times, max_steps,
        )
    else:
        values = np.ascontiguousarray(omega, dtype=float)
        _, R = _lieode.integrate_angular_velocity(
            (times, values), *span, r0, float(tolerance), _PEER_RTOL, formulation, method,
            frame, times, max_steps,
        )
    R = _floats(R, scalar_first)
    if not as_float:
        try:
            import quaternionic
        except ImportError:
            return R
        return quaternionic.array(R)
    return R
