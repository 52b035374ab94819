"""``solve_ivp``: SciPy's ``scipy.integrate.solve_ivp``, for vector ODEs and for ODEs on Lie
groups, run in Rust by the library's steppers and driver."""

from __future__ import annotations

import math
import re
from typing import Any, Callable, Optional, Sequence, Tuple, Union

import numpy as np

from . import _lieode

ButcherTableau = _lieode.ButcherTableau

#: The method names ``solve_ivp`` takes (``"RK45"`` is SciPy's name of DOPRI5).
METHODS = tuple(_lieode.SOLVE_IVP_METHODS)
#: The sizes of ``y0`` a vector ODE may have (the library's steppers are sized at compile time).
VECTOR_SIZES = tuple(_lieode.SOLVE_IVP_SIZES)
#: The sizes ``n`` of the ℝⁿ factor of a product group such as ``"SO3xR3"``.
FACTOR_SIZES = tuple(_lieode.SOLVE_IVP_FACTOR_SIZES)

# Per group: the shape of an element, and the dimension of its algebra (what ``fun`` returns).
_GROUPS = {"SO3": ((3, 3), 3), "SU2": ((4,), 3), "SE3": ((4, 4), 6)}
_GROUP_SPELLING = re.compile(r"(SO3|SU2|SE3)(?:xR([0-9]+))?", re.IGNORECASE)


def _error(cls, message, parameter, t=None):
    error = cls(message)
    error.parameter = parameter
    error.t = t
    return error


def _invalid(parameter, message, t=None):
    return _error(_lieode.InvalidParameterError, f"invalid parameter `{parameter}`: {message}",
                  parameter, t)


class OdeResult(dict):
    """The result of ``solve_ivp``: a dict whose keys are also attributes, as SciPy's."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError as e:
            raise AttributeError(name) from e

    __setattr__ = dict.__setitem__
    __delattr__ = dict.__delitem__

    def __repr__(self):
        width = max(map(len, self.keys())) + 1 if self else 0
        return "\n".join(f"{k.rjust(width)}: {v!r}" for k, v in self.items())

    def __dir__(self):
        return list(self.keys())


class _Layout:
    """How states are laid out: a vector of ``n``, a group element, or a pair of both."""

    def __init__(self, group, n):
        self.group = group
        self.n = n
        if group is None:
            self.shape, self.algebra, self.group_floats = None, 0, 0
        else:
            self.shape, self.algebra = _GROUPS[group]
            self.group_floats = int(np.prod(self.shape))

    @property
    def derivative(self):
        return self.algebra + self.n

    def flatten_y0(self, y0):
        if self.group is None:
            return _vector("y0", y0)
        if self.n == 0:
            return _element(y0, self.shape).ravel()
        if not isinstance(y0, (tuple, list)) or len(y0) != 2:
            raise _invalid("y0", f"on the product {self.group}xR{self.n}, expected a pair "
                                 f"(element of shape {self.shape}, vector of {self.n})")
        g = _element(y0[0], self.shape)
        v = _vector("y0", y0[1])
        if v.size != self.n:
            raise _invalid("y0", f"the vector part has {v.size} components, expected {self.n}")
        return np.concatenate([g.ravel(), v])

    def stack(self, rows):
        """States, one flat row each, as ``y`` is returned: vectors ``(n, k)`` (SciPy's
        layout), group elements ``(k, *shape)``, products a pair of both."""
        k = rows.shape[0]
        if self.group is None:
            return np.ascontiguousarray(rows.T)
        g = rows[:, : self.group_floats].reshape((k, *self.shape))
        if self.n == 0:
            return g
        return g, np.ascontiguousarray(rows[:, self.group_floats:].T)

    def events(self, rows):
        """States at events, one flat row each, as ``y_events[i]``: time first throughout."""
        k = rows.shape[0]
        if self.group is None:
            return rows
        g = rows[:, : self.group_floats].reshape((k, *self.shape))
        if self.n == 0:
            return g
        return g, rows[:, self.group_floats:]

    def single(self, row):
        """One flat state as the state itself."""
        if self.group is None:
            return row
        g = row[: self.group_floats].reshape(self.shape)
        if self.n == 0:
            return g
        return g, row[self.group_floats:]


def _vector(name, value):
    try:
        array = np.asarray(value)
    except Exception as e:  # ragged sequences and the like
        raise _invalid(name, f"cannot be read as an array ({e})") from None
    if np.iscomplexobj(array):
        raise _invalid(name, "complex values are not supported")
    try:
        array = np.ascontiguousarray(array, dtype=np.float64)
    except (TypeError, ValueError):
        raise _invalid(name, f"expected real numbers, got dtype {array.dtype}") from None
    if array.ndim != 1 or array.size == 0:
        raise _invalid(name, f"expected a one-dimensional array, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise _error(_lieode.NonFiniteError, f"`{name}` has a non-finite entry", name)
    return array


def _element(value, shape):
    try:
        array = np.ascontiguousarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise _invalid("y0", f"expected a group element of shape {shape} of real numbers") \
            from None
    if array.shape != shape:
        raise _invalid("y0", f"expected a group element of shape {shape}, got shape "
                             f"{array.shape}")
    if not np.all(np.isfinite(array)):
        raise _error(_lieode.NonFiniteError, "`y0` has a non-finite entry", "y0")
    return array


def _parse_group(group):
    if group is None:
        return None, 0
    if not isinstance(group, str):
        raise _invalid("group", f"{group!r}: expected None, one of {list(_GROUPS)}, or a "
                                "product such as \"SO3xR3\"")
    match = _GROUP_SPELLING.fullmatch(group.strip())
    if match is None:
        raise _invalid("group", f"{group!r}: expected one of {list(_GROUPS)}, or a product "
                                "with ℝⁿ such as \"SO3xR3\"")
    name, n = match.group(1).upper(), int(match.group(2) or 0)
    if match.group(2) is not None and n not in FACTOR_SIZES:
        raise _invalid("group", f"{group!r}: the factor ℝⁿ of a product has one of these "
                                f"sizes: {list(FACTOR_SIZES)}")
    return name, n


def _positive(name, value, allow_inf=False):
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise _invalid(name, f"{value!r}: expected a positive number") from None
    if math.isnan(value) or value <= 0.0 or (math.isinf(value) and not allow_inf):
        raise _invalid(name, f"{value!r}: expected a positive"
                             f"{'' if allow_inf else ' finite'} number")
    return value


def _events(events):
    if events is None:
        return []
    functions = [events] if callable(events) else list(events)
    specs = []
    for i, event in enumerate(functions):
        if not callable(event):
            raise _invalid("events", f"event {i} ({event!r}) is not callable")
        terminal = getattr(event, "terminal", False)
        if isinstance(terminal, (bool, np.bool_)) or terminal in (0, 1):
            terminal = bool(terminal)
        else:
            raise _invalid("events", f"event {i} has terminal = {terminal!r}: expected a bool "
                                     "(stopping after more than one occurrence is not "
                                     "supported)")
        try:
            direction = float(getattr(event, "direction", 0.0))
        except (TypeError, ValueError):
            raise _invalid("events", f"event {i} has direction = "
                                     f"{event.direction!r}: expected a number") \
                from None
        specs.append((event, direction, terminal))
    return specs


class OdeSolution:
    """The continuous solution of ``solve_ivp(..., dense_output=True)``, as SciPy's
    ``OdeSolution``: ``sol(t)`` for a time or an array of times in ``[t_min, t_max]``.

    The library's own dense output of each step: for DOP853 its order-7 interpolant, for
    DOPRI5 order 4, for ODEX Hairer's extrapolated one; on a group the interpolant lives in
    the step's local coordinates and ``sol(t)`` is ``φ(θ(t))·y_n`` (``y_n·φ(θ(t))`` with
    ``side="right"``), an exact group element.

    Shapes: a vector ODE gives ``(n,)`` for a time and ``(n, len(t))`` for times (SciPy's); a
    group gives the element, ``(3, 3)`` and ``(len(t), 3, 3)`` on SO3; a product the pair.
    """

    def __init__(self, dense, layout, t0, t1):
        self._dense = dense
        self._layout = layout
        self.t_min, self.t_max = min(t0, t1), max(t0, t1)
        self.ascending = t1 >= t0

    @property
    def ts(self):
        """The times where the steps meet."""
        return self._dense.ts

    def __call__(self, t):
        t = np.asarray(t, dtype=np.float64)
        rows = self._dense(np.ascontiguousarray(np.atleast_1d(t).ravel()))
        if t.ndim == 0:
            return self._layout.single(rows[0])
        return self._layout.stack(rows)


def solve_ivp(
    fun: Callable[..., Any],
    t_span: Tuple[float, float],
    y0: Any,
    method: Union[str, ButcherTableau] = "DOP853",
    t_eval: Optional[Sequence[float]] = None,
    dense_output: bool = False,
    events: Union[None, Callable[..., float], Sequence[Callable[..., float]]] = None,
    rtol: float = 1e-3,
    atol: Union[float, Sequence[float]] = 1e-6,
    *,
    group: Optional[str] = None,
    side: str = "left",
    chart: str = "exp",
    first_step: Optional[float] = None,
    max_step: float = np.inf,
    max_steps: Optional[int] = None,
    step: Optional[float] = None,
    args: Optional[Sequence[Any]] = None,
    sensitivities: Union[None, bool, str, Sequence[str]] = None,
    jac: Union[None, Callable[..., Any], Any] = None,
    jac_p: Union[None, Callable[..., Any], Any] = None,
    **options: Any,
) -> OdeResult:
    """Solve an initial value problem ``y' = fun(t, y)``, ``y(t0) = y0``, on ℝⁿ or on a Lie
    group: SciPy's ``solve_ivp`` run in Rust.

    Without ``group`` it is a drop-in for ``scipy.integrate.solve_ivp`` (same arguments, same
    result; the default method is DOP853). With ``group``, ``y`` is a group element and
    ``fun(t, y)`` returns an element of its Lie algebra::

        ┌─────────────────────────────────────────────────────────────────────────────────┐
        │ On a group, fun(t, y) returns ξ in the Lie algebra, and                         │
        │     side="left"  (default):  y' = ξ(t, y) · y    (spatial / lab-frame velocity) │
        │     side="right":            y' = y · ξ(t, y)    (body-frame velocity)          │
        │ SO3:  ξ = ω ∈ ℝ³, the angular velocity:  R' = ω̂ R  (left)  or  R ω̂  (right),    │
        │       ω̂ = [[0, -ω3, ω2], [ω3, 0, -ω1], [-ω2, ω1, 0]].                           │
        │ SU2:  ξ = v ∈ ℝ³, a pure quaternion (0, v):  q' = (0, v) q  (left): v = ω/2,    │
        │       half the angular velocity (q = (w, x, y, z), scalar first, Hamilton).     │
        │ SE3:  ξ = (ρ, φ) ∈ ℝ⁶, translation first:  g' = ξ̂ g  with ξ̂ = [[φ̂, ρ], [0, 0]]. │
        │ "SO3xR3" etc.: y = (element, v ∈ ℝⁿ); fun returns (ξ, v') concatenated.         │
        └─────────────────────────────────────────────────────────────────────────────────┘

    Every step is taken in local coordinates ``y = φ(θ)·y_n`` (``φ`` = exp or Cayley,
    ``chart``) in which the method runs on a vector space, so every state is on the group up
    to round-off: no projection, no renormalisation.

    Parameters
    ----------
    fun : callable
        ``fun(t, y, *args)``, returning the derivative: ``n`` floats for a vector ODE, the
        algebra element (with the ℝⁿ derivative appended) on a group. ``y`` is a float
        array (for a product group, the pair ``(element, vector)``). An exception it raises
        comes out of ``solve_ivp`` unchanged, with its traceback.
    t_span : (float, float)
        ``(t0, t1)``; ``t1 < t0`` integrates backwards.
    y0 : array_like
        The initial state: ``n`` floats (``n`` in ``lieode.VECTOR_SIZES``); a ``(3, 3)``
        rotation matrix (SO3), a unit quaternion ``(w, x, y, z)`` (SU2), a ``(4, 4)``
        homogeneous matrix (SE3), or a pair ``(element, vector)`` on a product. Checked to be
        on the group to 1e-10.
    method : str or ButcherTableau
        ``"DOP853"`` (default), ``"DOPRI5"`` (alias ``"RK45"``), ``"ODEX"`` — Hairer's codes,
        step for step — or a ``lieode.ButcherTableau``: with embedded weights ``b_hat`` it runs
        as an adaptive pair with DOPRI5's step control; without, as a fixed-step method with
        step ``step`` (on a group: the Runge–Kutta–Munthe-Kaas method of the tableau).
        ``ButcherTableau.named("rk4")`` gives a registered one.
    t_eval : array_like, optional
        Times at which to return the solution (sorted in the direction of integration,
        within ``t_span``), from the method's dense output. Default: the accepted steps.
    dense_output : bool
        Return ``sol``, the continuous solution (an ``OdeSolution``).
    events : callable or list of callables, optional
        ``event(t, y, *args)`` whose zeros are located on the dense output (each step is
        cut into 8 subintervals, so several zeros inside one step are found). As SciPy's, an
        event may have the attributes ``terminal`` (``True``: stop at the first zero) and
        ``direction`` (``> 0``: only rising zeros, ``< 0``: only falling, ``0``: both).
    rtol, atol : float or array_like
        Relative and absolute tolerances of the error test ``|err_i| ≤ atol_i + rtol·|y_i|``;
        ``atol`` may have one entry per derivative component. On a group the error is measured
        in the algebra coordinates of each step, rotations in radians (absolutely); an ℝⁿ factor
        is measured as a vector.

    Other Parameters
    ----------------
    group : str, optional
        ``"SO3"``, ``"SU2"``, ``"SE3"``, or a product with ℝⁿ written ``"SO3xR3"``
        (``n`` in ``lieode.FACTOR_SIZES``). ``None`` (default): a vector ODE.
    side : {"left", "right"}
        On which side ``fun``'s algebra element multiplies the state (see the box above).
    chart : {"exp", "cayley"}
        The local coordinates of each step: the exponential, or the Cayley map (SO3, SU2 and
        their products; rational, cheaper per evaluation, same order).
    first_step : float, optional
        The first step (default: Hairer's initial-step heuristic; ODEX: 0.01).
    max_step : float
        The largest step (default: no limit but the span).
    max_steps : int, optional
        Stop with ``status = -1`` after this many steps (default: no limit, as SciPy).
    step : float, optional
        The step of a fixed-step tableau: ``⌈|t1 − t0|/step⌉`` equal steps ending on ``t1``.
    args : tuple, optional
        Extra arguments passed to ``fun``, to every event function and to ``jac``, ``jac_p``.
    sensitivities : bool, {"y0", "p"} or sequence of them, optional
        Forward sensitivities of the computed solution (vector ODEs only): the derivatives of
        ``y(t)`` with respect to the initial state (``"y0"``) and/or to the parameters whose
        derivative ``jac_p`` gives (``"p"``); ``True`` means ``"y0"``, plus ``"p"`` when
        ``jac_p`` is given. The step sequence of the run is **frozen**: after the run, its
        accepted steps are taken again with the same tableau on the tangent-linear system
        ``S' = J(t, y) S + [0 | F_p(t, y)]``, ``S(t0) = [I | 0]``, which for an explicit
        Runge–Kutta method is the exact derivative of the computed solution with the step
        sizes held fixed (the controller's response to the inputs, of the size of the
        tolerance, is not included). DOP853, DOPRI5 and ``ButcherTableau`` methods; not ODEX,
        not ``events``, not ``group``. See the section "Sensitivities" of the guide.
    jac : callable or array_like, optional
        ``jac(t, y, *args)`` → ``(n, n)``, the Jacobian ``∂fun/∂y`` (SciPy's ``jac``; a
        constant array, or a SciPy sparse matrix, is accepted too). Needed for
        ``sensitivities`` and used only for them: it must be exact at every point (the
        derivative is only as good as it is).
    jac_p : callable or array_like, optional
        ``jac_p(t, y, *args)`` → ``(n, n_p)``, the derivative ``∂fun/∂p`` with respect to
        ``n_p`` parameters (typically those in ``args``); needed for ``"p"``.
    **options
        SciPy's solver options: ``vectorized`` is accepted and has no effect (``fun`` is
        called with one state at a time); ``jac_sparsity``, ``lband``, ``uband`` and
        ``min_step`` belong to SciPy's implicit methods and are refused.

    Returns
    -------
    OdeResult
        ``t`` (times), ``y`` (states: ``(n, len(t))`` for a vector ODE as SciPy; group
        elements stacked, ``(len(t), 3, 3)`` on SO3, ``(len(t), 4)`` on SU2,
        ``(len(t), 4, 4)`` on SE3; on a product the pair of both), ``sol`` (``OdeSolution``
        or ``None``), ``t_events`` and ``y_events`` (per event function, the times and states
        of its zeros, states time first; ``None`` without events), ``nfev`` (evaluations of
        ``fun``), ``njev`` (0 without ``sensitivities``), ``nlu = 0``, ``status`` (0: reached
        the end, 1: a terminal event, -1: the integration failed — step size too small, or
        ``max_steps`` reached; ``t`` and ``y`` then hold the steps computed before),
        ``message``, ``success`` (``status >= 0``).
        With ``sensitivities``: ``sensitivities``, shaped ``(n, m, len(t))`` with
        ``sensitivities[i, j, k] = ∂y_i(t[k]) / ∂(direction j)``; ``sensitivity_names``, the
        ``m`` directions in order (``"y0[0]"`` … ``"y0[n-1]"``, then ``"p[0]"`` …
        ``"p[n_p-1]"``); ``njev``, the evaluations of ``jac`` (``jac_p`` is evaluated at the
        same points); ``replay_deviation``, the largest difference between the replay's end of
        a step and the run's state there, relative to the state (rounding only, about 1e-15);
        ``nfev`` then counts the replay's evaluations too.

    Raises
    ------
    Whatever ``fun`` or an event function raises, unchanged (also ``KeyboardInterrupt``).
    ``lieode.InvalidParameterError`` for a bad argument (``parameter`` names it, ``t`` the
    time where a result of ``fun``, ``jac`` or ``jac_p`` had the wrong shape),
    ``lieode.NonFiniteError`` for a non-finite ``y0``, derivative or Jacobian (``t`` is its
    time).

    Examples
    --------
    >>> import numpy as np, lieode
    >>> sol = lieode.solve_ivp(lambda t, y: -0.5 * y, (0, 10), [2.0, 4.0], rtol=1e-8)
    >>> bool(abs(sol.y[0, -1] - 2 * np.exp(-5)) < 1e-8)
    True

    A rotation about z at rate 1 (``R' = ω̂ R``):

    >>> sol = lieode.solve_ivp(lambda t, R: [0.0, 0.0, 1.0], (0, np.pi / 2), np.eye(3),
    ...                        group="SO3")
    >>> np.round(sol.y[-1], 12) + 0.0
    array([[ 0., -1.,  0.],
           [ 1.,  0.,  0.],
           [ 0.,  0.,  1.]])

    Sensitivities of ``y' = -k y`` with respect to ``y0`` and ``k`` (``∂y/∂y0 = e^{-kt}``,
    ``∂y/∂k = -t y0 e^{-kt}``):

    >>> sol = lieode.solve_ivp(lambda t, y, k: -k * y, (0, 2), [3.0], args=(0.5,),
    ...                        rtol=1e-10, atol=1e-12, sensitivities=True,
    ...                        jac=lambda t, y, k: [[-k]], jac_p=lambda t, y, k: [[-y[0]]])
    >>> sol.sensitivity_names
    ['y0[0]', 'p[0]']
    >>> np.allclose(sol.sensitivities[0, :, -1], [np.exp(-1), -6 * np.exp(-1)], rtol=1e-9)
    True
    """
    options.pop("vectorized", None)
    for name in options:
        raise _invalid(name, "is not supported: lieode's methods are explicit (see "
                             "help(lieode.solve_ivp))")
    if not callable(fun):
        raise _invalid("fun", f"{fun!r} is not callable")
    try:
        t0, t1 = (float(t) for t in t_span)
    except (TypeError, ValueError):
        raise _invalid("t_span", f"{t_span!r}: expected two times (t0, t1)") from None
    if not (math.isfinite(t0) and math.isfinite(t1)):
        raise _error(_lieode.NonFiniteError, f"`t_span` = {t_span!r} has a non-finite entry",
                     "t_span")
    if t0 == t1:
        raise _invalid("t_span", f"{t_span!r}: t0 and t1 must differ")
    group_name, n = _parse_group(group)
    layout = _Layout(group_name, n)
    flat_y0 = layout.flatten_y0(y0)
    if group_name is None:
        layout.n = flat_y0.size
        if flat_y0.size not in VECTOR_SIZES:
            raise _invalid("y0", f"of size {flat_y0.size}: vector ODEs of these sizes are "
                                 f"compiled in: {list(VECTOR_SIZES)}")
        for name, value, default in (("chart", chart, "exp"), ("side", side, "left")):
            if value != default:
                raise _invalid(name, f"{value!r} applies to ODEs on a group only (give "
                                     "`group`)")
    if chart not in ("exp", "cayley"):
        raise _invalid("chart", f"{chart!r}: expected \"exp\" or \"cayley\"")
    if side not in ("left", "right"):
        raise _invalid("side", f"{side!r}: expected \"left\" or \"right\"")
    if isinstance(method, ButcherTableau):
        adaptive = method.b_hat is not None
    elif isinstance(method, str) and method.upper() in METHODS:
        method, adaptive = method.upper(), True
    else:
        raise _invalid("method", f"{method!r}: expected one of {list(METHODS)} or a "
                                 "lieode.ButcherTableau")
    if t_eval is not None:
        t_eval = _vector("t_eval", t_eval)
        if np.any(t_eval < min(t0, t1)) or np.any(t_eval > max(t0, t1)):
            raise _invalid("t_eval", "values are not within t_span")
        d = np.diff(t_eval)
        if (t1 > t0 and np.any(d <= 0)) or (t1 < t0 and np.any(d >= 0)):
            raise _invalid("t_eval", "values are not sorted in the direction of integration")
    specs = _events(events)
    if adaptive:
        if step is not None:
            raise _invalid("step", "is for tableaux without embedded weights; the method "
                                   f"{getattr(method, 'name', method)!r} chooses its steps")
    else:
        if step is None:
            raise _invalid("step", f"the tableau {method.name!r} has no embedded weights: give "
                                   "a fixed step `step=h` (or a tableau with `b_hat`)")
        step = _positive("step", step)
        for name, given in (("dense_output", dense_output), ("t_eval", t_eval is not None),
                            ("events", bool(specs))):
            if given:
                raise _invalid(name, "needs a method with dense output; the fixed-step "
                                     f"tableau {method.name!r} has none")
    try:
        rtol = float(rtol)
    except (TypeError, ValueError):
        raise _invalid("rtol", f"{rtol!r}: expected a number") from None
    atol_array = np.asarray(atol, dtype=np.float64)
    if atol_array.ndim > 1 or (atol_array.ndim == 1 and atol_array.size != layout.derivative):
        raise _invalid("atol", f"of shape {atol_array.shape}: expected a number or "
                               f"{layout.derivative} numbers (one per derivative component)")
    if first_step is not None:
        first_step = _positive("first_step", first_step)
        if first_step > abs(t1 - t0):
            raise _invalid("first_step", f"{first_step!r} exceeds the span |t1 - t0|")
    max_step = _positive("max_step", max_step, allow_inf=True)
    if max_steps is not None:
        if isinstance(max_steps, bool) or int(max_steps) != max_steps or max_steps < 1:
            raise _invalid("max_steps", f"{max_steps!r}: expected a positive integer")
        max_steps = int(max_steps)
    if args is None:
        args = ()
    else:
        try:
            args = tuple(args)
        except TypeError:
            raise _invalid("args", f"{args!r}: expected a tuple of extra arguments") from None
    directions = _directions(sensitivities, jac, jac_p, group_name, method, specs)
    jac, jac_p = _callable("jac", jac), _callable("jac_p", jac_p)
    t, rows, t_events, y_events, nfev, status, message, dense, raw = _lieode.solve_ivp(
        fun, t0, t1, flat_y0, group_name, n, method, rtol,
        [float(a) for a in atol_array.ravel()], t_eval, bool(dense_output), specs, chart,
        side, first_step, None if math.isinf(max_step) else max_step, max_steps, step, args,
        jac if directions else None, jac_p, "y0" in directions,
    )
    extra = {}
    if raw is not None:
        values, m, _, deviation = raw
        size = flat_y0.size
        # Rust gives one n × m matrix per time; the result is (n, m, len(t)), as y is (n, len(t)).
        extra = dict(
            sensitivities=np.ascontiguousarray(values.reshape(t.size, size, m).transpose(1, 2, 0)),
            sensitivity_names=([f"y0[{i}]" for i in range(size)] if "y0" in directions else [])
            + [f"p[{i}]" for i in range(m - (size if "y0" in directions else 0))],
            replay_deviation=deviation,
        )
    result = OdeResult(
        t=t,
        y=layout.stack(rows),
        sol=OdeSolution(dense, layout, t0, t1) if dense is not None else None,
        t_events=t_events if specs else None,
        y_events=[layout.events(y) for y in y_events] if specs else None,
        nfev=nfev,
        njev=raw[2] if raw is not None else 0,
        nlu=0,
        status=status,
        message=message,
        success=status >= 0,
    )
    result.update(extra)
    return result


def _directions(sensitivities, jac, jac_p, group, method, events):
    """The directions asked for, ``()``, ``("y0",)``, ``("p",)`` or ``("y0", "p")``, with
    the checks of ``sensitivities``, ``jac`` and ``jac_p`` against each other and the run."""
    if sensitivities is None or sensitivities is False:
        for name, value in (("jac", jac), ("jac_p", jac_p)):
            if value is not None:
                raise _invalid(name, "is used for `sensitivities` only (lieode's methods are "
                                     "explicit): give `sensitivities=True` or leave it out")
        return ()
    if sensitivities is True:
        chosen = {"y0"} | ({"p"} if jac_p is not None else set())
    else:
        items = [sensitivities] if isinstance(sensitivities, str) else sensitivities
        try:
            items = list(items)
        except TypeError:
            items = None
        if not items or any(not isinstance(x, str) or x not in ("y0", "p") for x in items) \
                or len(set(items)) != len(items):
            raise _invalid("sensitivities", f"{sensitivities!r}: expected True, \"y0\", \"p\" "
                                            "or a sequence of them without repetition")
        chosen = set(items)
    if group is not None:
        raise _invalid("sensitivities", "sensitivities are computed for vector ODEs only "
                                        "(no `group`)")
    if method == "ODEX":
        raise _invalid("method", "'ODEX' with `sensitivities`: an extrapolation method has no "
                                 "fixed tableau to replay; use \"DOP853\", \"DOPRI5\" or a "
                                 "lieode.ButcherTableau")
    if events:
        raise _invalid("events", "cannot be combined with `sensitivities` (an event's time "
                                 "depends on the inputs too)")
    if jac is None:
        raise _invalid("jac", "`sensitivities` need the Jacobian `jac(t, y, *args)` of `fun`")
    if "p" in chosen and jac_p is None:
        raise _invalid("jac_p", "the sensitivities to \"p\" need `jac_p(t, y, *args)`, the "
                                "derivative of `fun` with respect to the parameters, (n, n_p)")
    if "p" not in chosen and jac_p is not None:
        raise _invalid("jac_p", f"is given but `sensitivities` = {sensitivities!r} has no "
                                "\"p\"")
    return tuple(x for x in ("y0", "p") if x in chosen)


def _callable(name, value):
    """``value`` if it is callable; a constant matrix as the callable returning it."""
    if value is None or callable(value):
        return value
    try:
        matrix = value.toarray() if hasattr(value, "toarray") else value
        matrix = np.array(matrix, dtype=np.float64)
    except (TypeError, ValueError):
        raise _invalid(name, f"{value!r}: expected a callable or a real matrix") from None
    return lambda t, y, *args: matrix
