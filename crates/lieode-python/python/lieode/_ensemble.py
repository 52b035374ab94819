"""Ensembles of rigid bodies: many start states of one problem, integrated in parallel in Rust."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable, Optional, Sequence, Union

import numpy as np

from . import _lieode


@dataclass(frozen=True)
class FieldTorque:
    """The body-frame torque ``τ(t, R, ω) = χ × (Rᵀ f) − c ω + τ₀`` every member feels.

    ``offset`` ``χ`` is where the lab-frame force ``lab_force`` ``f`` acts, in the body frame
    measured from the pivot (the heavy top: ``f = (0, 0, −m g)``, Hairer, Lubich & Wanner,
    *Geometric Numerical Integration*, §VII.5); ``damping`` ``c ≥ 0`` is linear damping;
    ``body_torque`` ``τ₀`` a constant body-frame torque. The default is the free body.
    """

    offset: Sequence[float] = (0.0, 0.0, 0.0)
    lab_force: Sequence[float] = (0.0, 0.0, 0.0)
    damping: float = 0.0
    body_torque: Sequence[float] = (0.0, 0.0, 0.0)


@dataclass(frozen=True)
class EnsembleResult:
    """An ensemble's solution: ``rotors[i, k]`` and ``omegas[i, k]`` are member ``i``'s unit
    rotor (scalar first unless asked otherwise) and body angular velocity at ``t[k]``;
    ``nfev[i]`` its torque evaluations."""

    t: np.ndarray
    rotors: np.ndarray
    omegas: np.ndarray
    nfev: np.ndarray
    method: str


def _vectors(name, value, count):
    """``value`` as a C-contiguous float array ``(M, count)`` (a single row for one value)."""
    array = np.asarray(value, dtype=float)
    if array.ndim == 1:
        array = array[np.newaxis, :]
    if array.ndim != 2 or array.shape[1] != count:
        raise _lieode.InvalidParameterError(
            f"invalid parameter `{name}` of shape {np.shape(value)}: expected ({count},) or "
            f"(M, {count})"
        )
    return np.ascontiguousarray(array)


def _three(name, value):
    values = np.asarray(value, dtype=float)
    if values.shape != (3,):
        raise _lieode.InvalidParameterError(
            f"invalid parameter `{name}` of shape {values.shape}: expected three components"
        )
    return [float(v) for v in values]


class _ProgressBar:
    """A text progress bar on standard error (no dependency)."""

    def __init__(self, stream=None, width=40):
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.shown = -1

    def __call__(self, done, total):
        filled = self.width * done // max(total, 1)
        if filled == self.shown and done < total:
            return
        self.shown = filled
        bar = "#" * filled + "." * (self.width - filled)
        end = "\n" if done >= total else ""
        self.stream.write(f"\rlieode ensemble [{bar}] {done}/{total}{end}")
        self.stream.flush()


def rigid_body_ensemble(
    inertia,
    rotors,
    omegas,
    t_eval,
    *,
    torque: Optional[FieldTorque] = None,
    method: str = "dop853",
    rtol: float = 1e-10,
    atol: float = 1e-10,
    dt: Optional[float] = None,
    max_steps: Optional[int] = None,
    threads: Optional[int] = None,
    progress: Union[None, bool, Callable[[int, int], None]] = None,
    scalar_first: bool = True,
) -> EnsembleResult:
    """Integrates ``M`` rigid bodies of one problem in parallel: the same torque field, each
    body with its own principal moments, rotor and body angular velocity.

    Euler's equations ``J ω̇ = τ − ω × Jω`` and ``q̇ = ½ q ⊗ (0, ω)`` (body-frame ``ω``), with
    ``τ`` from ``torque`` (a :class:`FieldTorque`; ``None``: free bodies). Each member's numbers
    depend on its own start only: an ensemble split into parts (threads, processes, a Dask
    cluster) gives the serial numbers bit for bit.

    Parameters
    ----------
    inertia : (3,) or (M, 3) float array
        Principal moments, shared or per member (positive, satisfying the triangle
        inequalities).
    rotors : (M, 4) or (4,) float array
        Start rotors, scalar first (scalar last if not ``scalar_first``); normalised. One
        rotor is every member's.
    omegas : (M, 3) or (3,) float array
        Start angular velocities in the body frame; one is every member's.
    t_eval : (T,) float array
        Non-decreasing output times; ``t_eval[0]`` is the start.
    method : str
        ``"dop853"`` (default), ``"dopri5"`` or ``"odex"``: adaptive at ``rtol``/``atol``,
        lifted to ``SU(2) × ℝ³`` (rotors unit by construction; the rotation's error is
        measured absolutely). Or a name of the rotational catalogue
        (``lieode.ENSEMBLE_FIXED_STEP_METHODS``, e.g. ``"spiral_leapfrog"``) at the fixed step
        ``dt``, with every output time on the grid ``t_eval[0] + n dt``.
    max_steps : int, optional
        Each member's step limit (adaptive methods); ``None``: no limit.
    threads : int, optional
        Threads for this call (``None``: all cores, rayon's global pool).
    progress : None, True or callable
        ``progress(done, total)`` is called about every 50 ms and at the end; ``True`` shows a
        text bar on standard error. An exception it raises stops the run and comes out
        unchanged.

    Returns
    -------
    EnsembleResult
        ``t`` (T,), ``rotors`` (M, T, 4), ``omegas`` (M, T, 3), ``nfev`` (M,).

    Raises
    ------
    lieode.InvalidParameterError, lieode.NonFiniteError, lieode.IntegrationError
        Naming the parameter, the member (attribute ``body``: the lowest failing index) and
        the time. ``KeyboardInterrupt`` on Ctrl-C (checked about every 50 ms).
    """
    torque = FieldTorque() if torque is None else torque
    if not isinstance(torque, FieldTorque):
        raise TypeError(f"torque must be a lieode.FieldTorque or None, not {type(torque).__name__}")
    if not isinstance(method, str):
        raise TypeError(f"method must be a str, not {type(method).__name__}")
    rotors = _vectors("rotors", rotors, 4)
    if not scalar_first:
        rotors = np.ascontiguousarray(np.roll(rotors, 1, axis=1))
    omegas = _vectors("omegas", omegas, 3)
    # One rotor or one angular velocity is every member's.
    members = max(len(rotors), len(omegas))
    if len(rotors) == 1:
        rotors = np.ascontiguousarray(np.broadcast_to(rotors, (members, 4)))
    if len(omegas) == 1:
        omegas = np.ascontiguousarray(np.broadcast_to(omegas, (members, 3)))
    inertia = _vectors("inertia", inertia, 3)
    times = np.ascontiguousarray(np.atleast_1d(np.asarray(t_eval, dtype=float)))
    if times.ndim != 1:
        raise _lieode.InvalidParameterError(
            f"invalid parameter `t_eval` of shape {times.shape}: expected (T,)"
        )
    if progress is True:
        progress = _ProgressBar()
    elif progress is False:
        progress = None
    elif progress is not None and not callable(progress):
        raise TypeError("progress must be None, True or a callable progress(done, total)")
    R, W, nfev = _lieode.rigid_body_ensemble(
        inertia, rotors, omegas, times,
        _three("torque.offset", torque.offset), _three("torque.lab_force", torque.lab_force),
        float(torque.damping), _three("torque.body_torque", torque.body_torque),
        method, float(rtol), float(atol),
        None if dt is None else float(dt), max_steps, threads, progress,
    )
    if not scalar_first:
        R = np.roll(R, -1, axis=2)
    return EnsembleResult(t=times, rotors=R, omegas=W, nfev=nfev, method=method)
