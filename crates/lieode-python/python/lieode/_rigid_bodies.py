"""N rigid bodies in six degrees of freedom as numpy arrays, stepped in Rust by any many-body
method of the catalogue, by name (``lieode::system`` in the Rust library)."""

from __future__ import annotations

from collections import namedtuple
from typing import Any, Callable, Optional, Tuple, Union

import numpy as np

from . import _lieode

MethodInfo = namedtuple(
    "MethodInfo",
    "name evaluations leapfrog order start_evaluations form default_renormalisation",
)
MethodInfo.__doc__ = """One row of the catalogue of many-body methods.

name : str
    The method's name, as ``RigidBodies(method=...)`` takes it.
evaluations : int
    Load evaluations per step.
leapfrog : bool
    Whether the angular velocity the method carries lives at half steps (``ω_{n−½}``).
order : (int, int)
    The global orders in the rotor and the angular velocity, measured by the library under
    an attitude- and time-dependent torque.
start_evaluations : int
    Load evaluations of the start (the loads at ``t0``, and a second one for
    ``spiral_magnus``'s predictor).
form : str
    The translation's form: ``"leapfrog"`` (loads at ``t_n``, velocities carried at half
    steps) or ``"velocity_verlet"`` (loads at ``t_{n+1}``, after the rotor update).
default_renormalisation : str
    When the method normalises its rotors (``"Never"``, ``"EveryStep"``).
"""


def _catalogue():
    rows = {}
    for name, evaluations, leapfrog, q, w, start, at_end, renorm in (
        _lieode._rigid_body_methods()
    ):
        form = "velocity_verlet" if at_end else "leapfrog"
        rows[name] = MethodInfo(name, evaluations, leapfrog, (q, w), start, form, renorm)
    return rows


CATALOGUE = _catalogue()
"""The many-body methods by name (``MethodInfo`` rows), in the catalogue's order."""

RIGID_BODY_METHODS = tuple(CATALOGUE)
"""The names of the many-body methods."""


#: Loads for ``run`` and ``state``: a function ``loads(t, positions, velocities, rotors,
#: omegas) -> (forces, torques)``, a constant pair of (N, 3) arrays, or ``None`` (no loads).
Loads = Union[None, Callable[..., Tuple[Any, Any]], Tuple[Any, Any]]


class LoadPoint:
    """Where the next load evaluation is taken: ``t`` and read-only views of the
    ``positions``, ``velocities``, ``rotors`` and ``omegas`` (body angular velocities) the
    loads must be computed at. Unpacks as ``(t, positions, velocities, rotors, omegas)``.

    Scalar-first rotors are a copy of the Rust array (which stores them scalar last), made on
    first access: a force field of the positions alone does not pay for it.
    """

    __slots__ = ("_rotors", "_scalar_first", "omegas", "positions", "t", "velocities")

    def __init__(self, t, positions, velocities, rotors, omegas, scalar_first=True):
        self.t, self.positions, self.velocities, self.omegas = t, positions, velocities, omegas
        self._rotors, self._scalar_first = rotors, scalar_first

    @property
    def rotors(self) -> np.ndarray:
        """The rotors (body → lab), (N, 4), in the order the bodies were given."""
        if self._scalar_first:
            self._rotors, self._scalar_first = _scalar_first(self._rotors), False
        return self._rotors

    def __iter__(self):
        return iter((self.t, self.positions, self.velocities, self.rotors, self.omegas))

    def __repr__(self):
        return f"LoadPoint(t={self.t!r}, {len(self.positions)} bodies)"


def _scalar_first(q):
    """Rotors stored ``(x, y, z, w)`` as a new ``(w, x, y, z)`` array."""
    return q[:, [3, 0, 1, 2]]


State = namedtuple("State", "t positions velocities rotors omegas")
State.__doc__ = """A synchronised state: the time and new arrays of positions, velocities
(lab frame), rotors (body → lab) and body angular velocities, all at ``t``."""


def _floats(name, value, shape=None):
    try:
        array = np.asarray(value, dtype=np.float64)
        if shape is not None:
            array = np.broadcast_to(array, shape)
    except (TypeError, ValueError) as error:
        expected = f" of shape {shape}" if shape is not None else ""
        raise _invalid(name, f"invalid parameter `{name}`: expected floats{expected} ({error})")
    return np.ascontiguousarray(array)


def _pair(loads):
    """A list ``[forces, torques]`` as the pair it means."""
    return tuple(loads) if isinstance(loads, list) else loads


def _invalid(parameter, message):
    error = _lieode.InvalidParameterError(message)
    error.parameter, error.t, error.body = parameter, None, None
    return error


class RigidBodies:
    """N rigid bodies — positions, velocities, rotors and body angular velocities as numpy
    arrays — stepped in Rust by the many-body method ``method`` of the catalogue.

    Parameters
    ----------
    method : str
        A name of ``lieode.RIGID_BODY_METHODS`` (``lieode.CATALOGUE`` gives each method's
        evaluations, leapfrog, orders and translation form). Default ``"spiral_leapfrog"``.
    mass : float or (N,) array_like
        The masses (broadcast to ``(N,)``).
    inertia : float, (3,) or (N, 3) array_like
        The principal moments of inertia, in each body's principal frame (broadcast to
        ``(N, 3)``).
    positions : (N, 3) array_like
        The centres of mass (lab frame); they fix ``N``.
    velocities : (N, 3) array_like, optional
        The linear velocities (lab frame); zero by default.
    rotors : (N, 4) array_like, optional
        The rotors body → lab (``v_lab = q v_body q⁻¹``), scalar first (scalar last if
        ``scalar_first`` is false); the identity by default.
    omegas : (N, 3) array_like, optional
        The angular velocities in the body frame; zero by default.
    t0 : float
        The initial time.
    torque_frame : {"body", "lab"}
        The frame of the torques given as loads (forces are always in the lab frame).
    scalar_first : bool
        ``False`` for SciPy's rotor order ``(x, y, z, w)``, in and out. The rotor views are
        then views of the Rust arrays (which store the rotors in that order); scalar first,
        they are copies.

    Notes
    -----
    The state is synchronised at ``t0``. A method starts with the loads at ``t0`` (once, or
    twice for ``spiral_magnus``) and then evaluates them once per step, at a point it chooses
    (``load_point()``): ``t_n`` for the leapfrog form, ``t_{n+1}`` for the velocity Verlet
    form, with the velocities and angular velocities the method carries there.

    Examples
    --------
    >>> import numpy as np, lieode
    >>> bodies = lieode.RigidBodies("spiral_leapfrog", mass=1.0, inertia=[1.0, 2.0, 3.0],
    ...                             positions=np.zeros((2, 3)), omegas=[[0, 0, 1], [1, 0, 0]])
    >>> gravity = np.tile([0.0, 0.0, -9.81], (2, 1)), np.zeros((2, 3))
    >>> bodies.run(1e-3, 1000, gravity)
    >>> bool(np.allclose(bodies.positions[:, 2], -0.5 * 9.81))
    True
    """

    def __init__(
        self,
        method: str = "spiral_leapfrog",
        mass: Any = 1.0,
        inertia: Any = 1.0,
        positions: Any = None,
        velocities: Any = None,
        rotors: Any = None,
        omegas: Any = None,
        *,
        t0: float = 0.0,
        torque_frame: str = "body",
        scalar_first: bool = True,
    ) -> None:
        if positions is None:
            raise _invalid("positions", "missing parameter `positions`: an (N, 3) array")
        positions = _floats("positions", positions)
        if positions.ndim != 2 or positions.shape[1] != 3:
            raise _invalid(
                "positions",
                f"invalid parameter `positions`: expected shape (N, 3), got {positions.shape}",
            )
        n = positions.shape[0]
        identity = [1.0, 0.0, 0.0, 0.0] if scalar_first else [0.0, 0.0, 0.0, 1.0]
        self._setup = {
            "method": method,
            "mass": _floats("mass", mass, (n,)),
            "inertia": _floats("inertia", inertia, (n, 3)),
            "torque_frame": torque_frame,
            "scalar_first": bool(scalar_first),
        }
        self._make(
            float(t0),
            positions,
            _floats("velocities", np.zeros((n, 3)) if velocities is None else velocities),
            _floats("rotors", np.tile(identity, (n, 1)) if rotors is None else rotors),
            _floats("omegas", np.zeros((n, 3)) if omegas is None else omegas),
        )

    def _make(self, t0, positions, velocities, rotors, omegas):
        s = self._setup
        self._core = _lieode._RigidBodies(
            s["method"], s["mass"], s["inertia"], positions, velocities, rotors, omegas,
            t0, s["torque_frame"], s["scalar_first"],
        )

    # -- what the bodies are ---------------------------------------------------------------

    @property
    def method(self) -> str:
        """The method's name."""
        return self._core.method

    @property
    def info(self) -> MethodInfo:
        """The method's ``MethodInfo`` row of ``lieode.CATALOGUE``."""
        return CATALOGUE[self._core.method]

    def __len__(self) -> int:
        return len(self._core)

    @property
    def mass(self) -> np.ndarray:
        """The masses, (N,)."""
        return self._setup["mass"]

    @property
    def inertia(self) -> np.ndarray:
        """The principal moments of inertia, (N, 3)."""
        return self._setup["inertia"]

    @property
    def torque_frame(self) -> str:
        """The frame of the torques (``"body"`` or ``"lab"``)."""
        return self._setup["torque_frame"]

    @property
    def t(self) -> float:
        """The time ``t_n`` of the carried state (``t0`` before the start)."""
        return self._core.t

    @property
    def dt(self) -> Optional[float]:
        """The run's step (``None`` before the start)."""
        return self._core.dt

    @property
    def started(self) -> bool:
        """Whether the run has started (``start`` or ``run``)."""
        return self._core.started

    @property
    def evaluations(self) -> int:
        """Load evaluations so far (the start's, the steps', the synchronisations')."""
        return self._core.counts[0]

    @property
    def steps(self) -> int:
        """Steps so far."""
        return self._core.counts[1]

    # -- the state, in place -------------------------------------------------------------
    # The views are of the run's arrays, which exist from its start (``start`` or ``run``) on:
    # before it they raise ``IntegrationError`` (a view of the initial state would go stale at
    # the start); ``state()`` gives the initial state, ``load_point()`` the start's point.

    @property
    def positions(self) -> np.ndarray:
        """The positions ``x_n`` at ``t``: a read-only view of the Rust array, which every
        step updates in place."""
        return self._core.arrays()[1]

    @property
    def velocities(self) -> np.ndarray:
        """The velocities the method carries: ``v_{n−½}`` (half a step behind ``t``) in the
        leapfrog form, ``v_n`` in the velocity Verlet form (``info.form``). A read-only view
        updated in place; ``state()`` gives the synchronised ``v_n``."""
        return self._core.arrays()[2]

    @property
    def rotors(self) -> np.ndarray:
        """The rotors ``q_n`` at ``t`` (body → lab). A read-only view updated in place if
        ``scalar_first`` is false (the Rust array stores them scalar last); scalar first, a
        copy."""
        q = self._core.arrays()[3]
        return _scalar_first(q) if self._setup["scalar_first"] else q

    @property
    def omegas(self) -> np.ndarray:
        """The body angular velocities the method carries: ``ω_{n−½}`` for the leapfrog
        rotations (``info.leapfrog``), else ``ω_n``. A read-only view updated in place;
        ``state()`` gives the synchronised ``ω_n``."""
        return self._core.arrays()[4]

    @property
    def forces(self) -> np.ndarray:
        """The load buffer of the forces, (N, 3): the loads of the last evaluation. In the
        leapfrog form it is writable — fill it in place and step with
        ``step(dt, bodies.forces, bodies.torques)``, which then copies nothing; in the velocity
        Verlet form it is read-only (the next step kicks with it before its evaluation)."""
        return self._core.load_buffers()[0]

    @property
    def torques(self) -> np.ndarray:
        """The load buffer of the torques (in ``torque_frame``), as ``forces``."""
        return self._core.load_buffers()[1]

    # -- loads as arrays: where, then step -------------------------------------------------

    def load_point(self) -> LoadPoint:
        """Where the next load evaluation is taken: a ``LoadPoint`` of the time and read-only
        views of the positions, velocities, rotors and body angular velocities at which the
        loads given to the next ``start`` or ``step`` must be computed.

        Before the start it is the start's point (the initial state; for ``spiral_magnus``,
        after its first start loads, its predictor at ``t0 + dt``). Then it is the next step's:
        ``(t_n, x_n, v_{n−½}, q_n, ω)`` in the leapfrog form, ``(t_{n+1}, x_{n+1}, v_{n+½},
        q_{n+1}, ω)`` in the velocity Verlet form, ``ω`` being the angular velocity the method
        hands its torque (``ω_{n−½}`` for SPIRAL leapfrog, ``ω_n`` for SPIRAL, …). Where that
        point is not the carried state (Fincham, Velocity Verlet, Johnson, the start) it is
        found on a copy of the method, which costs about one step.
        """
        return LoadPoint(*self._core.load_point(), self._setup["scalar_first"])

    def start(self, dt: float, forces: np.ndarray, torques: np.ndarray) -> bool:
        """Starts the run with the step ``dt`` and the loads ``(forces, torques)``, (N, 3)
        float64 arrays computed at ``load_point()``. Returns whether the run has started:
        ``spiral_magnus`` needs a second call, with the loads at its predictor (the new
        ``load_point()``)."""
        return self._core.start(float(dt), forces, torques)

    def step(self, dt: float, forces: np.ndarray, torques: np.ndarray) -> None:
        """One step of ``dt`` (the run's step) with the loads ``(forces, torques)``, (N, 3)
        float64 arrays computed at ``load_point()`` (torques in ``torque_frame``). Passing the
        load buffers themselves (``bodies.forces``, ``bodies.torques``) copies nothing."""
        self._core.step(float(dt), forces, torques)

    # -- loads from a function -----------------------------------------------------------

    def run(self, dt: float, n_steps: int, loads: Loads = None) -> None:
        """``n_steps`` steps of ``dt``, starting the run first if needed.

        Parameters
        ----------
        dt : float
            The step (the run's, once it has started).
        n_steps : int
            The number of steps.
        loads : callable, (forces, torques) or None
            ``loads(t, positions, velocities, rotors, omegas) -> (forces, torques)``, called
            once per load evaluation for all bodies with read-only views of the point (valid
            during the call; copy what you keep), returning two (N, 3) float64 arrays; or a
            pair of constant (N, 3) float64 arrays (the run then makes no Python call); or
            ``None`` for no loads.

        Raises
        ------
        Any exception ``loads`` raises, unchanged (the bodies are then part-way through the
        step: restart with ``set_state``). ``KeyboardInterrupt`` on Ctrl-C, at a step's end:
        if it lands inside ``loads``, ``loads`` is called once more to finish the step.
        ``lieode.LieodeError`` subclasses for the library's failures, with ``parameter``,
        ``t`` and ``body``.
        """
        self._core.run(float(dt), int(n_steps), _pair(loads))

    # -- synchronised state, restart -----------------------------------------------------

    def state(self, loads: Loads = None) -> State:
        """The synchronised state at ``t`` as a ``State`` of new arrays.

        In the leapfrog form the velocities ``v_n`` (and the leapfrog rotations' ``ω_n``) need
        the loads at ``load_point()``: ``loads`` is then ``(forces, torques)`` there, or a
        function as for ``run``; this evaluation is counted. The velocity Verlet form needs
        none.
        """
        return State(*self._core.state(_pair(loads)))

    def set_state(
        self, t: float, positions: Any, velocities: Any, rotors: Any, omegas: Any
    ) -> None:
        """Restarts from the synchronised state ``(t, positions, velocities, rotors,
        omegas)`` (e.g. ``bodies.set_state(*bodies.state(loads))`` to change the step): the
        method starts again at the next ``start`` or ``run``. Views taken before show the old
        run's arrays."""
        positions = _floats("positions", positions)
        if positions.shape != (len(self), 3):
            raise _invalid(
                "positions",
                f"invalid parameter `positions`: expected shape ({len(self)}, 3), got "
                f"{positions.shape}",
            )
        self._make(
            float(t), positions, _floats("velocities", velocities),
            _floats("rotors", rotors), _floats("omegas", omegas),
        )

    def __repr__(self):
        if not hasattr(self, "_core"):
            return "RigidBodies(<not built>)"
        return (
            f"RigidBodies({self.method!r}, {len(self)} bodies, t={self.t!r}, "
            f"dt={self.dt!r}, started={self.started})"
        )
