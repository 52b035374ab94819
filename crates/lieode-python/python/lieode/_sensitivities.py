"""The sensitivities of one rigid body's computed motion, on dual numbers in Rust."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import List, Optional, Sequence, Union

import numpy as np

from . import _lieode
from ._ensemble import FieldTorque

#: The catalogue methods ``rigid_body_sensitivities`` runs (every method of the rotational
#: catalogue but the Lie-group engines ``rkmk4`` and ``cg4a``).
SENSITIVITY_METHODS = tuple(_lieode.SENSITIVITY_METHODS)

#: The inputs ``with_respect_to`` may name, in the order of the dual directions' budget:
#: ``R0``, ``omega0``, ``inertia``, ``offset``, ``lab_force`` (three directions each),
#: ``damping`` (one) and ``body_torque`` (three).
SENSITIVITY_INPUTS = tuple(_lieode.SENSITIVITY_INPUTS)


def _invalid(parameter, message):
    error = _lieode.InvalidParameterError(f"invalid parameter `{parameter}`: {message}")
    error.parameter, error.t, error.body = parameter, None, None
    return error


def _vector(name, value, count, finite=True):
    """``value`` as ``count`` floats; with ``finite=False`` non-finite entries are left to the
    run's own checks (an invalid moment, a non-finite start: their typed errors)."""
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as e:
        raise _invalid(name, f"expected {count} real numbers ({e})") from None
    if array.shape != (count,):
        raise _invalid(name, f"of shape {array.shape}: expected ({count},)")
    if finite and not np.all(np.isfinite(array)):
        raise _invalid(name, f"{array.tolist()}: expected finite components")
    return [float(v) for v in array]


def _real(name, value):
    try:
        return float(value)
    except (TypeError, ValueError):
        raise _invalid(name, f"{value!r}: expected a real number") from None


def _integer(name, value, least):
    try:
        number = operator.index(value)
    except TypeError:
        raise _invalid(name, f"{value!r}: expected an integer ≥ {least}") from None
    if number < least:
        raise _invalid(name, f"{number}: expected an integer ≥ {least}")
    return number


@dataclass(frozen=True)
class RigidBodySensitivities:
    """A rigid body's computed motion and its derivatives.

    ``R[k]`` and ``omega[k]`` are the rotor (scalar first unless asked otherwise) and body
    angular velocity at ``t[k]``; ``jacobian[k, i, j]`` is the derivative of state coordinate
    ``i`` at ``t[k]`` with respect to direction ``j`` (named ``names[j]``): rows 0–2 the
    body-frame rotation vector ``θ`` of the small turn (``R = R̄ ⊗ exp(θ/2)``), rows 3–5 the
    body angular velocity. ``nfev`` counts the torque evaluations.
    """

    t: np.ndarray
    R: np.ndarray
    omega: np.ndarray
    jacobian: np.ndarray
    names: List[str]
    nfev: int
    method: str


def rigid_body_sensitivities(
    inertia,
    R0,
    omega0,
    dt: float,
    n_steps: int,
    *,
    method: str = "spiral_leapfrog",
    torque: Optional[FieldTorque] = None,
    with_respect_to: Union[str, Sequence[str]] = ("R0", "omega0", "inertia"),
    every: int = 1,
    scalar_first: bool = True,
) -> RigidBodySensitivities:
    """The derivatives of one rigid body's **computed** rotation and angular velocity with
    respect to its start, its principal moments and the torque's parameters: the catalogue
    method ``method`` stepped on dual numbers in Rust (exact derivatives of the computed
    solution, to rounding).

    Euler's equations ``J ω̇ = τ − ω × Jω`` and ``q̇ = ½ q ⊗ (0, ω)`` (body-frame ``ω``), with
    ``τ = χ × (Rᵀ f) − c ω + τ₀`` from ``torque`` (a :class:`FieldTorque`), ``n_steps`` steps
    of ``dt`` from ``t = 0``. The real parts are the ``f64`` run's (``rigid_body_ensemble``
    with the same method and step) to rounding. The path to identifying a body's inertia from
    its measured attitude: the Jacobian feeds Gauss–Newton or any least-squares solver.

    Parameters
    ----------
    inertia : (3,) float array
        Principal moments (positive, satisfying the triangle inequalities).
    R0 : (4,) float array
        Start rotor (body → lab), scalar first (scalar last if not ``scalar_first``);
        normalised.
    omega0 : (3,) float array
        Start angular velocity in the body frame.
    dt : float
        The fixed step (finite, positive).
    n_steps : int
        The number of steps (≥ 1).
    method : str
        A name of ``lieode.SENSITIVITY_METHODS`` (the rotational catalogue without its
        Lie-group engines); default ``"spiral_leapfrog"``.
    torque : FieldTorque, optional
        The torque (``None``: the free body).
    with_respect_to : str or sequence of str
        The inputs to differentiate with respect to, among ``"R0"``, ``"omega0"``,
        ``"inertia"``, ``"offset"``, ``"lab_force"``, ``"damping"``, ``"body_torque"`` (the
        last four the torque's parameters); the columns follow this order, three per name
        (``"damping"``: one). ``R0``'s directions are the body-frame rotation vector
        ``θ`` of a small turn, ``R0 ⊗ exp(θ/2)``.
    every : int
        Record every ``every``-th step (and the last); the state recorded is the synchronised
        one (a leapfrog method's ``ω_n``).
    scalar_first : bool
        Rotors scalar first (default) or scalar last (SciPy's convention), in and out.

    Returns
    -------
    RigidBodySensitivities
        ``t`` (T,), ``R`` (T, 4), ``omega`` (T, 3), ``jacobian`` (T, 6, m) with
        ``jacobian[k, i, j] = ∂(state_i at t[k]) / ∂(direction j)``, ``names`` (m,) such as
        ``"R0[0]"``, ``"inertia[2]"``, ``"damping"``, ``nfev``, ``method``.

    Raises
    ------
    lieode.InvalidParameterError
        Naming the parameter: a bad shape, a non-finite or invalid ``inertia``, a zero or
        non-finite ``R0``, ``dt``, ``n_steps``, ``every``, an unknown ``method`` or name in
        ``with_respect_to``, a torque parameter (``torque.offset`` …).
    lieode.NonFiniteError
        A non-finite ``omega0``; a state, torque or Jacobian turning non-finite, with ``t``.

    Examples
    --------
    >>> import numpy as np, lieode
    >>> s = lieode.rigid_body_sensitivities([1.0, 2.0, 2.5], [1, 0, 0, 0], [0.3, -0.9, 0.6],
    ...                                     dt=1e-3, n_steps=1000, method="rk4")
    >>> s.jacobian.shape, s.names[:2]
    ((1001, 6, 9), ['R0[0]', 'R0[1]'])
    >>> bool(np.allclose(s.jacobian[0, :, :6], np.eye(6)))
    True
    """
    torque = FieldTorque() if torque is None else torque
    if not isinstance(torque, FieldTorque):
        raise TypeError(f"torque must be a lieode.FieldTorque or None, not {type(torque).__name__}")
    if not isinstance(method, str):
        raise TypeError(f"method must be a str, not {type(method).__name__}")
    if isinstance(with_respect_to, str):
        with_respect_to = (with_respect_to,)
    names = list(with_respect_to)
    if not all(isinstance(name, str) for name in names):
        raise _invalid("with_respect_to", f"{with_respect_to!r}: expected names (str)")
    inertia = _vector("inertia", inertia, 3, finite=False)
    rotor = _vector("R0", R0, 4)
    if not scalar_first:
        rotor = rotor[3:] + rotor[:3]
    omega0 = _vector("omega0", omega0, 3, finite=False)
    damping = _real("torque.damping", torque.damping)
    if not (np.isfinite(damping) and damping >= 0.0):
        raise _invalid("torque.damping", f"{damping}: expected a finite non-negative coefficient")
    t, R, W, J, columns, nfev = _lieode.rigid_body_sensitivities(
        inertia, rotor, omega0, _real("dt", dt),
        _integer("n_steps", n_steps, 1),
        _vector("torque.offset", torque.offset, 3),
        _vector("torque.lab_force", torque.lab_force, 3),
        damping, _vector("torque.body_torque", torque.body_torque, 3),
        method, names, _integer("every", every, 1),
    )
    if not scalar_first:
        R = np.ascontiguousarray(np.roll(R, -1, axis=1))
    return RigidBodySensitivities(t=t, R=R, omega=W, jacobian=J, names=list(columns),
                                  nfev=int(nfev), method=method)
