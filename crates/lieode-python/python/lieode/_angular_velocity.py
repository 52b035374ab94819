"""The drop-in for numpy-quaternion's ``integrate_angular_velocity``."""

import inspect

import numpy as np

from . import _lieode


def _as_rotor(R0):
    """``R0`` (None, a numpy-quaternion quaternion, a quaternionic array or four floats,
    scalar first) as four floats."""
    if R0 is None:
        return [1.0, 0.0, 0.0, 0.0]
    components = getattr(R0, "components", None)  # numpy-quaternion's quaternion
    values = np.asarray(components if components is not None else R0, dtype=float)
    if values.shape != (4,):
        raise _lieode.InvalidParameterError(
            f"invalid parameter `R0` of shape {values.shape}: expected one rotor of four "
            "components, scalar first"
        )
    return [float(v) for v in values]


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
    Omega, t0, t1, R0=None, tolerance=1e-12, *, formulation="lifted", as_float=False
):
    """The frame ``R(t)`` with ``dR/dt = ½ Ω(t, R) R`` from ``t0`` to ``t1`` (``Ω`` in the
    inertial frame), at the accepted steps of DOP853 with absolute tolerance ``tolerance``
    (no relative tolerance), as numpy-quaternion's function of the same name.

    Parameters
    ----------
    Omega : callable
        ``Omega(t)`` or ``Omega(t, R)`` returning the angular velocity (three numbers); ``R``
        is the current unit rotor as four floats, scalar first. Which of the two is told from
        the signature (or, for callables without one, by trying ``Omega(t0, R0)`` first, as
        numpy-quaternion does).
    t0, t1 : float
        The start and end times.
    R0 : optional
        The start rotor (numpy-quaternion quaternion, quaternionic array or four floats, scalar
        first; normalised). Defaults to the identity.
    tolerance : float
        DOP853's absolute tolerance.
    formulation : str
        ``"lifted"`` (default): DOP853 lifted to the unit quaternions, every rotor unit to
        round-off. ``"rotor"``: DOP853 on the four components, as numpy-quaternion does (the
        returned rotors are normalised).
    as_float : bool
        Return ``R`` as an ``(N, 4)`` float array even when numpy-quaternion is installed.

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
    if not callable(Omega):
        raise TypeError(
            "Omega must be a callable Omega(t) or Omega(t, R); a tabulated (t, v) is not "
            "supported by this function yet"
        )
    r0 = _as_rotor(R0)
    takes_orientation = _takes_orientation(Omega)
    if takes_orientation is None:
        try:
            Omega(t0, np.array(r0))
            takes_orientation = True
        except TypeError:
            takes_orientation = False
    omega = Omega if takes_orientation else (lambda t, R: Omega(t))
    t, R = _lieode.integrate_angular_velocity(
        omega, float(t0), float(t1), r0, float(tolerance), formulation
    )
    if not as_float:
        try:
            import quaternion
        except ImportError:
            return t, R
        return t, quaternion.as_quat_array(R)
    return t, R
