"""lieode.RigidBodies: every many-body method by name against closed forms and SciPy, bit for
bit against the same run done in Rust, loads as arrays and from a function, and errors."""

import math
import time

import lieode
import numpy as np
import pytest
from lieode import _lieode
from reference_quaternions import conj, qexp, qmul, rotate, rotor_distance
from support import interrupt_after

METHODS = lieode.RIGID_BODY_METHODS


def no_loads(n):
    return np.zeros((n, 3)), np.zeros((n, 3))


# -- the catalogue ------------------------------------------------------------------------


def test_the_catalogue_lists_every_many_body_method_with_its_information_row():
    assert METHODS[0] == "spiral_leapfrog" and len(METHODS) == 12
    assert list(lieode.CATALOGUE) == list(METHODS)
    leapfrog = lieode.CATALOGUE["spiral_leapfrog"]
    assert leapfrog == lieode.MethodInfo(
        "spiral_leapfrog", 1, True, (2, 2), 1, "leapfrog", "Never"
    )
    assert lieode.CATALOGUE["spiral_magnus"].start_evaluations == 2
    assert {m for m, i in lieode.CATALOGUE.items() if i.form == "velocity_verlet"} == {
        "velocity_verlet",
        "johnson",
    }
    assert all(i.evaluations == 1 for i in lieode.CATALOGUE.values())


def test_the_documented_table_is_the_catalogue():
    from pathlib import Path

    doc = Path(__file__).parents[3] / "docs" / "python.md"
    lines = doc.read_text(encoding="utf-8").split("<!-- table: lieode.CATALOGUE -->")[1]
    rows = [line for line in lines.strip().splitlines()[2:] if line.startswith("| `")]
    documented = {}
    for line in rows[: len(METHODS)]:
        name, form, per_step, start, leapfrog, order, renorm = (
            cell.strip() for cell in line.strip("|").split("|")
        )
        q, w = (int(x) for x in order.split(","))
        documented[name.strip("`")] = lieode.MethodInfo(
            name.strip("`"), int(per_step), leapfrog == "yes", (q, w), int(start), form, renorm
        )
    assert documented == lieode.CATALOGUE


# -- closed forms ----------------------------------------------------------------------------


def symmetric_top(t, inertia, q0, w0):
    """The torque-free symmetric top (I₁ = I₂): R(t) = exp(t L/I₁) R₀ exp(t c e₃) with the lab
    momentum L = R₀ J ω₀ and c = ω₃ (1 − I₃/I₁); the body angular velocity is
    R(t)ᵀ L / I₁ + c e₃."""
    i1, _, i3 = inertia
    lab_momentum = rotate(q0, np.asarray(inertia) * w0)
    c = w0[2] * (1.0 - i3 / i1)
    q = qmul(qmul(qexp(0.5 * t * lab_momentum / i1), q0), qexp([0.0, 0.0, 0.5 * t * c]))
    w = rotate(conj(q), lab_momentum) / i1 + np.array([0.0, 0.0, c])
    return q, w


@pytest.mark.parametrize("method", METHODS)
def test_a_free_symmetric_top_converges_to_the_closed_form_at_the_methods_order(method):
    inertia, q0 = [1.0, 1.0, 1.8], qexp([0.2, -0.1, 0.3])
    w0 = np.array([0.6, -0.3, 2.0])
    q_end, w_end = symmetric_top(1.0, inertia, q0, w0)
    errors = []
    for steps in (100, 200, 400):
        bodies = lieode.RigidBodies(
            method, 1.0, inertia, np.zeros((1, 3)), rotors=[q0], omegas=[w0]
        )
        bodies.run(1.0 / steps, steps)
        state = bodies.state(no_loads(1))
        assert state.t == pytest.approx(1.0, abs=1e-14)
        errors.append(
            (rotor_distance(state.rotors[0], q_end), np.linalg.norm(state.omegas[0] - w_end))
        )
    order = lieode.CATALOGUE[method].order
    for k in range(2):
        e = [row[k] for row in errors]
        assert e[-1] < 5e-3, (method, e)
        slope = np.polyfit(np.log([1 / 100, 1 / 200, 1 / 400]), np.log(e), 1)[0]
        # Free motion is no harder than the torque-driven problem the orders are measured on.
        assert slope > order[k] - 0.2, (method, k, slope)


@pytest.mark.parametrize("method", METHODS)
def test_free_rotation_about_a_principal_axis(method):
    """ω on a principal axis stays constant to round-off for every method; the rotor turns by
    exactly ω t for the exponential updates, and within the method's first-order error for
    the others."""
    w0 = np.array([0.0, 1.3, 0.0])
    bodies = lieode.RigidBodies(method, 1.0, [1.0, 2.0, 3.0], np.zeros((1, 3)), omegas=[w0])
    bodies.run(1e-2, 100)
    state = bodies.state(no_loads(1))
    assert np.abs(state.omegas[0] - w0).max() < 1e-14
    error = rotor_distance(state.rotors[0], qexp(0.5 * w0 * state.t))
    exact = method.startswith("spiral") or method in ("buss", "buss16")
    assert error < (1e-13 if exact else 1e-3), (method, error)


@pytest.mark.parametrize("method", METHODS)
def test_a_constant_force_gives_the_exact_parabola(method):
    """Störmer–Verlet (leapfrog or velocity Verlet) integrates a constant force exactly:
    positions at every step and the synchronised velocities, up to round-off."""
    n, dt, steps = 3, 0.05, 40
    mass = np.array([1.0, 2.0, 0.5])
    x0 = np.array([[0.0, 0.0, 1.0], [1.0, -2.0, 0.0], [0.5, 0.5, 0.5]])
    v0 = np.array([[1.0, 0.0, 3.0], [0.0, 0.0, 0.0], [-1.0, 2.0, 0.0]])
    force = np.array([[0.0, 0.0, -9.81], [1.0, 0.5, 0.0], [0.0, -2.0, 4.0]])
    bodies = lieode.RigidBodies(method, mass, [1.0, 2.0, 3.0], x0, v0, omegas=[[0.1, 0.2, 0.3]] * n)
    loads = (force, np.zeros((n, 3)))
    with pytest.raises(lieode.IntegrationError, match="start"):
        _ = bodies.positions  # the run's arrays exist from its start on
    bodies.run(dt, 0, loads)
    positions = bodies.positions  # a view, stepped in place
    for k in range(1, steps + 1):
        bodies.run(dt, 1, loads)
        t = k * dt
        exact = x0 + v0 * t + 0.5 * force / mass[:, None] * t * t
        assert np.abs(positions - exact).max() < 1e-13 * (1 + t * t), (method, k)
    state = bodies.state(loads)
    exact_v = v0 + force / mass[:, None] * steps * dt
    assert np.abs(state.velocities - exact_v).max() < 1e-13


# -- measured orders under an attitude-dependent torque, against SciPy -----------------------

MASS, INERTIA = 2.0, np.array([1.0, 2.0, 3.0])
SPRING, GRAVITY, TWIST = -1.5, np.array([0.0, 0.3, -9.81]), -0.8
X0, V0 = np.array([[1.0, 0.0, 0.5]]), np.array([[0.0, 1.0, 0.2]])
Q0, W0 = qexp([0.3, -0.2, 0.1]), np.array([0.4, -1.1, 0.9])


def attitude_loads(t, x, v, q, w):
    """A spring to the origin under gravity, and a body torque pulling the rotor's vector part
    back: τ = a (q_x, q_y, q_z)."""
    return x * SPRING + GRAVITY, q[:, 1:] * TWIST


def scipy_reference(t_end):
    from scipy.integrate import solve_ivp

    def rhs(_, y):
        x, v, q, w = y[:3], y[3:6], y[6:10], y[10:]
        torque = TWIST * q[1:] / np.linalg.norm(q)
        return np.concatenate(
            [
                v,
                (x * SPRING + GRAVITY) / MASS,
                0.5 * qmul(q, np.concatenate([[0.0], w])),
                (torque - np.cross(w, INERTIA * w)) / INERTIA,
            ]
        )

    y0 = np.concatenate([X0[0], V0[0], Q0, W0])
    sol = solve_ivp(rhs, (0.0, t_end), y0, method="DOP853", rtol=1e-13, atol=1e-13)
    y = sol.y[:, -1]
    return y[:3], y[3:6], y[6:10], y[10:]


@pytest.mark.parametrize("method", METHODS)
def test_measured_orders_under_an_attitude_dependent_torque(method):
    """Against SciPy's DOP853 at 1e-13 on the same ODE (x, v, q, ω): the positions and
    velocities at second order (Störmer–Verlet), the rotor and ω at the orders of the
    catalogue (measured 2.00 for SPIRAL leapfrog, 2.99–3.00 for SPIRAL–Magnus, 1.00–1.02 for
    the first-order methods)."""
    x_ref, v_ref, q_ref, w_ref = scipy_reference(1.0)
    steps = np.array([100, 200, 400])
    errors = []
    for n in steps:
        bodies = lieode.RigidBodies(method, MASS, INERTIA, X0, V0, [Q0], [W0])
        bodies.run(1.0 / n, n, attitude_loads)
        s = bodies.state(attitude_loads)
        errors.append(
            [
                np.linalg.norm(s.positions[0] - x_ref),
                np.linalg.norm(s.velocities[0] - v_ref),
                rotor_distance(s.rotors[0], q_ref),
                np.linalg.norm(s.omegas[0] - w_ref),
            ]
        )
    slopes = -np.polyfit(np.log(steps), np.log(np.array(errors)), 1)[0]
    q_order, w_order = lieode.CATALOGUE[method].order
    # The translation is Störmer–Verlet, second order; the rotation has the method's orders.
    expected = [2, 2, q_order, w_order]
    assert np.all(np.abs(slopes - expected) < 0.2), (method, slopes, errors)


# -- bit for bit against the same run in Rust ------------------------------------------------

K, C, G, A, B = -0.7, -0.05, np.array([0.0, 0.1, -9.81]), -0.3, -0.02


def model(t, x, v, q, w):
    """The loads of `_run_in_rust`, in its order of operations:
    F = (k x + c v) + g, τ = a (q_x, q_y, q_z) + b ω."""
    return (x * K + v * C) + G, q[:, 1:] * A + w * B


def crowd(n, seed=7):
    rng = np.random.default_rng(seed)
    q = rng.normal(size=(n, 4))
    return {
        "mass": rng.uniform(0.5, 2.0, n),
        "inertia": rng.uniform(1.0, 1.9, (n, 3)),  # within the triangle inequalities
        "positions": rng.normal(size=(n, 3)),
        "velocities": rng.normal(size=(n, 3)),
        "rotors": q / np.linalg.norm(q, axis=1)[:, None],
        "omegas": rng.normal(size=(n, 3)),
    }


def step_with_arrays(bodies, dt, steps):
    """The array path: the loads computed at load_point(), given to start and step."""
    while not bodies.started:
        bodies.start(dt, *model(*bodies.load_point()))
    for _ in range(steps):
        bodies.step(dt, *model(*bodies.load_point()))


@pytest.mark.parametrize("frame", ["body", "lab"])
@pytest.mark.parametrize("method", METHODS)
def test_bit_for_bit_the_run_done_in_rust(method, frame):
    n, t0, dt, steps = 5, 0.25, 1e-2, 30
    c = crowd(n)
    rust = _lieode._run_in_rust(
        method, c["mass"], c["inertia"], c["positions"], c["velocities"], c["rotors"],
        c["omegas"], t0, dt, steps, frame, [K, C, *G, A, B],
    )
    carried, synchronised = rust[:4], rust[4:]
    for path in ("arrays", "function"):
        bodies = lieode.RigidBodies(method, **c, t0=t0, torque_frame=frame)
        if path == "arrays":
            step_with_arrays(bodies, dt, steps)
        else:
            bodies.run(dt, steps, model)
        views = (bodies.positions, bodies.velocities, bodies.rotors, bodies.omegas)
        for mine, theirs in zip(views, carried):
            assert np.array_equal(mine, theirs), (method, path)
        state = bodies.state(model)
        assert state.t == t0 + steps * dt
        for mine, theirs in zip(state[1:], synchronised):
            assert np.array_equal(mine, theirs), (method, path)


@pytest.mark.parametrize("method", ["spiral_leapfrog", "fincham", "velocity_verlet"])
def test_the_load_buffers_in_place_and_scalar_last_rotors_give_the_same_run(method):
    n, dt, steps = 4, 1e-2, 20
    c = crowd(n, seed=3)
    reference = lieode.RigidBodies(method, **c)
    reference.run(dt, steps, model)
    c_last = dict(c, rotors=np.roll(c["rotors"], -1, axis=1))
    bodies = lieode.RigidBodies(method, **c_last, scalar_first=False)

    def scalar_last_model(t, x, v, q, w):
        return model(t, x, v, np.roll(q, 1, axis=1), w)

    while not bodies.started:
        bodies.start(dt, *scalar_last_model(*bodies.load_point()))
    rotors = bodies.rotors  # a view, scalar last
    for _ in range(steps):
        forces, torques = scalar_last_model(*bodies.load_point())
        if lieode.CATALOGUE[method].form == "leapfrog":
            bodies.forces[:] = forces
            bodies.torques[:] = torques
            bodies.step(dt, bodies.forces, bodies.torques)
        else:
            assert not bodies.forces.flags.writeable
            bodies.step(dt, forces, torques)
    assert np.array_equal(np.roll(rotors, 1, axis=1), reference.rotors)
    assert np.array_equal(bodies.positions, reference.positions)
    assert np.array_equal(bodies.omegas, reference.omegas)


def test_views_are_read_only_and_stepped_in_place():
    c = crowd(3)
    bodies = lieode.RigidBodies("spiral_leapfrog", **c)
    bodies.run(1e-2, 1, model)
    x, v, w = bodies.positions, bodies.velocities, bodies.omegas
    before = x.copy()
    bodies.run(1e-2, 5, model)
    assert not np.array_equal(x, before)
    assert np.array_equal(x, bodies.positions) and x.base is bodies.positions.base
    for view in (x, v, w, bodies.load_point().positions):
        assert not view.flags.writeable
        with pytest.raises(ValueError):
            view[0, 0] = 1.0
        with pytest.raises(ValueError):
            view.flags.writeable = True
    # A restart from the synchronised state with another step continues the motion.
    state = bodies.state(model)
    bodies.set_state(*state)
    assert not bodies.started and bodies.t == state.t
    bodies.run(5e-3, 2, model)
    assert bodies.dt == 5e-3 and abs(bodies.t - state.t - 1e-2) < 1e-15
    assert bodies.evaluations == 3 and bodies.steps == 2


def test_spiral_magnus_takes_two_start_evaluations_from_arrays():
    c = crowd(2)
    bodies = lieode.RigidBodies("spiral_magnus", **c)
    first = bodies.load_point()
    assert first.t == 0.0 and np.array_equal(first.positions, c["positions"])
    assert np.array_equal(first.rotors, c["rotors"])
    assert bodies.start(0.1, *model(*first)) is False
    assert not bodies.started
    second = bodies.load_point()  # the predictor at t0 + dt
    assert second.t == pytest.approx(0.1)
    assert not np.array_equal(second.rotors, c["rotors"])
    assert bodies.start(0.1, *model(*second)) is True
    assert bodies.evaluations == 2
    # Views of a point hold until the next load_point, start or step rewrites them: copy.
    point = bodies.load_point()
    assert point.t == 0.0 and np.array_equal(point.positions, c["positions"])


# -- errors ---------------------------------------------------------------------------------


def test_bad_arrays_are_named_errors():
    c = crowd(3)
    with pytest.raises(lieode.InvalidParameterError, match="method") as e:
        lieode.RigidBodies("spiral_leapfrogg", **c)
    assert e.value.parameter == "method" and "spiral_leapfrog" in str(e.value)
    with pytest.raises(lieode.InvalidParameterError) as e:
        lieode.RigidBodies(**dict(c, rotors=c["rotors"][:, :3]))
    assert e.value.parameter == "rotors"
    with pytest.raises(lieode.InvalidParameterError) as e:
        lieode.RigidBodies(**dict(c, mass=[1.0, -2.0, 1.0]))
    assert (e.value.parameter, e.value.body) == ("mass", 1)
    with pytest.raises(lieode.InvalidParameterError) as e:
        lieode.RigidBodies(**dict(c, inertia=[1.0, 1.0, 5.0]))  # no triangle inequality
    assert e.value.parameter == "inertia" and e.value.body == 0
    bad = c["positions"].copy()
    bad[2, 1] = np.nan
    with pytest.raises(lieode.NonFiniteError) as e:
        lieode.RigidBodies(**dict(c, positions=bad), t0=1.5)
    assert (e.value.parameter, e.value.body, e.value.t) == ("positions", 2, 1.5)
    with pytest.raises(lieode.InvalidParameterError) as e:
        lieode.RigidBodies(**c, torque_frame="world")
    assert e.value.parameter == "torque_frame"

    bodies = lieode.RigidBodies(**c)
    forces, torques = no_loads(3)
    with pytest.raises(lieode.IntegrationError, match="start"):
        bodies.step(1e-2, forces, torques)
    with pytest.raises(lieode.InvalidParameterError) as e:
        bodies.start(1e-2, forces[:, :2], torques)
    assert e.value.parameter == "forces" and "(3, 3)" in str(e.value)
    with pytest.raises(lieode.InvalidParameterError, match="float32") as e:
        bodies.start(1e-2, forces, torques.astype(np.float32))
    assert e.value.parameter == "torques"
    with pytest.raises(lieode.InvalidParameterError) as e:
        bodies.start(0.0, forces, torques)
    assert e.value.parameter == "dt"
    bodies.start(1e-2, forces, torques)
    with pytest.raises(lieode.InvalidParameterError) as e:
        bodies.step(2e-2, forces, torques)
    assert e.value.parameter == "dt" and "set_state" in str(e.value)
    with pytest.raises(lieode.InvalidParameterError) as e:
        bodies.run(1e-2, 3, loads=42)
    assert e.value.parameter == "loads"
    with pytest.raises(lieode.InvalidParameterError) as e:
        bodies.state()  # the leapfrog form needs the loads
    assert e.value.parameter == "loads"


@pytest.mark.parametrize("method", ["spiral_leapfrog", "velocity_verlet"])
def test_non_finite_loads_name_the_body_and_the_time(method):
    c = crowd(4)
    bodies = lieode.RigidBodies(method, **c)
    bodies.run(0.1, 3, model)
    forces, torques = model(*bodies.load_point())
    torques[2, 0] = np.inf
    with pytest.raises(lieode.NonFiniteError) as e:
        bodies.step(0.1, forces, torques)
    t_loads = 0.3 if method == "spiral_leapfrog" else 0.4
    assert (e.value.parameter, e.value.body) == ("torque", 2)
    assert e.value.t == pytest.approx(t_loads)
    assert "body 2" in str(e.value)
    # The bodies are part-way through that step: the run refuses to go on.
    with pytest.raises(lieode.IntegrationError, match="set_state"):
        bodies.step(0.1, *model(*bodies.load_point()))
    # At the start too, naming the body and t0.
    bodies = lieode.RigidBodies(method, **c, t0=2.0)
    forces[1, 2] = np.nan
    with pytest.raises(lieode.NonFiniteError) as e:
        bodies.start(0.1, forces, np.zeros((4, 3)))
    assert (e.value.parameter, e.value.body, e.value.t) == ("force", 1, 2.0)
    # A function's NaN likewise.
    bodies = lieode.RigidBodies(method, **c)
    zero = np.zeros((4, 3))
    with pytest.raises(lieode.NonFiniteError) as e:
        bodies.run(0.1, 5, lambda t, *_: (forces if t > 0.15 else zero, zero))
    assert (e.value.parameter, e.value.body, e.value.t) == ("force", 1, pytest.approx(0.2))


def test_the_load_functions_failures():
    c = crowd(3)

    class Boom(Exception):
        pass

    calls = []

    def failing(t, x, v, q, w):
        calls.append(t)
        if len(calls) == 4:
            raise Boom("at the fourth evaluation")
        return model(t, x, v, q, w)

    bodies = lieode.RigidBodies(**c)
    with pytest.raises(Boom, match="fourth") as e:
        bodies.run(1e-2, 10, failing)
    assert e.value.__context__ is None
    assert len(calls) == 4
    with pytest.raises(lieode.IntegrationError, match="load function raised"):
        bodies.run(1e-2, 1, model)

    def wrong_shape(t, x, v, q, w):
        return np.zeros((3, 2)), np.zeros((3, 3))

    with pytest.raises(lieode.InvalidParameterError) as e:
        lieode.RigidBodies(**c, t0=0.5).run(1e-2, 2, wrong_shape)
    assert (e.value.parameter, e.value.t) == ("forces", 0.5)

    def one_array(t, x, v, q, w):
        return np.zeros((3, 3))

    with pytest.raises(lieode.InvalidParameterError, match="pair") as e:
        lieode.RigidBodies(**c).run(1e-2, 2, one_array)
    assert e.value.parameter == "loads"


def test_ctrl_c_stops_a_run_between_steps():
    """SIGINT during a run with constant loads (no Python between the steps, the GIL
    released) comes out as KeyboardInterrupt from the run, at a step's end: the bodies can go
    on."""
    n = 20_000
    bodies = lieode.RigidBodies(
        positions=np.zeros((n, 3)), omegas=np.tile([0.0, 0.0, 1.0], (n, 1))
    )
    sent = interrupt_after(0.05)
    with pytest.raises(KeyboardInterrupt):
        try:
            bodies.run(1e-3, 10**9, no_loads(n))
        finally:
            caught = time.perf_counter()
    assert caught - sent[0] < 0.1
    assert 0 < bodies.steps < 10**9
    steps = bodies.steps
    bodies.run(1e-3, 2, no_loads(n))
    assert bodies.steps == steps + 2


def test_a_load_function_cannot_use_the_bodies_it_is_called_for():
    c = crowd(2)
    bodies = lieode.RigidBodies(**c)

    def peeking(t, x, v, q, w):
        _ = bodies.positions  # the point is in the arguments
        return model(t, x, v, q, w)

    with pytest.raises(lieode.IntegrationError, match="being stepped") as e:
        bodies.run(1e-2, 3, peeking)
    assert e.value.parameter == "loads"


def test_load_buffers_given_crosswise_are_read_before_they_are_written():
    c = crowd(3)
    one, other = lieode.RigidBodies(**c), lieode.RigidBodies(**c)
    for b in (one, other):
        b.run(1e-2, 2, model)
    f, t = model(*one.load_point())
    one.forces[:], one.torques[:] = t, f
    one.step(1e-2, one.torques, one.forces)  # forces given as torques and torques as forces
    other.step(1e-2, f, t)
    assert np.array_equal(one.positions, other.positions)
    assert np.array_equal(one.omegas, other.omegas)


def test_ctrl_c_inside_the_load_function_stops_the_run_at_the_steps_end():
    """A KeyboardInterrupt raised by the function (where Ctrl-C mostly lands) comes out of the
    run unchanged at the end of the step: the function is called once more for that
    evaluation, the step is whole, and the bodies go on as if nothing had happened."""
    c = crowd(3)
    calls = []
    interrupt = KeyboardInterrupt("Ctrl-C")

    def interrupted(t, x, v, q, w):
        calls.append(t)
        if len(calls) == 3:
            raise interrupt
        return model(t, x, v, q, w)

    bodies = lieode.RigidBodies(**c)
    with pytest.raises(KeyboardInterrupt) as e:
        bodies.run(1e-2, 10, interrupted)
    assert e.value is interrupt
    assert len(calls) == 4 and bodies.steps == 2  # start, step 1, step 2 (called twice)
    bodies.run(1e-2, 3, interrupted)
    reference = lieode.RigidBodies(**c)
    reference.run(1e-2, 5, model)
    assert np.array_equal(bodies.positions, reference.positions)
    assert np.array_equal(bodies.omegas, reference.omegas)
