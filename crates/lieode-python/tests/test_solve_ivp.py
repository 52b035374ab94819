"""lieode.solve_ivp against SciPy, Hairer's published runs, closed forms, and the Rust API."""

import math
import time

import numpy as np
import pytest

import lieode
from support import interrupt_after, load_example

scipy_integrate = pytest.importorskip("scipy.integrate")
scipy_linalg = pytest.importorskip("scipy.linalg")


# ---------------------------------------------------------------------------------------------
# The Arenstorf orbit (Hairer, Nørsett, Wanner I, §II.0), written operation for operation as
# Hairer's driver FAREN and the library's `problems::hairer::Arenstorf`: the benchmark's.
_orbit = load_example("solve_ivp_benchmark")
AMU, Y0, T_END, arenstorf = _orbit.AMU, _orbit.Y0, _orbit.T_END, _orbit.arenstorf


def period_error(y_end):
    return float(np.linalg.norm(np.asarray(y_end) - np.asarray(Y0)))


@pytest.mark.parametrize("tol", [1e-6, 1e-8, 1e-10, 1e-12])
def test_arenstorf_as_accurate_as_scipy_dop853(tol):
    ours = lieode.solve_ivp(arenstorf, (0.0, T_END), Y0, method="DOP853", rtol=tol, atol=tol)
    theirs = scipy_integrate.solve_ivp(
        arenstorf, (0.0, T_END), Y0, method="DOP853", rtol=tol, atol=tol
    )
    assert ours.success and ours.status == 0 and theirs.success
    assert ours.t[0] == 0.0 and ours.t[-1] == T_END and ours.y.shape == (4, ours.t.size)
    e_ours, e_theirs = period_error(ours.y[:, -1]), period_error(theirs.y[:, -1])
    print(f"tol {tol:.0e}: lieode error {e_ours:.2e} nfev {ours.nfev}; "
          f"SciPy error {e_theirs:.2e} nfev {theirs.nfev}")
    # Measured (tol 1e-6, 1e-8, 1e-10, 1e-12): lieode 7.53e-3, 8.92e-5, 8.88e-7, 1.16e-9 with
    # 1 035, 1 736, 2 785, 4 249 evaluations; SciPy 7.53e-3, 8.93e-5,
    # 1.35e-6, 1.66e-9 with 1 070, 1 778, 2 870, 4 286: as accurate or more, with fewer
    # evaluations.
    assert e_ours <= 1.05 * e_theirs
    assert ours.nfev <= theirs.nfev


# Hairer's dop853.f and dopri5.f with all defaults, RTOL = ATOL = tol, on the Arenstorf orbit:
# NFCN and the final Y(1), Y(2) as printed by his codes (crates/lieode/tests/hairer_dopri.rs).
HAIRER = [
    ("DOP853", 1e-7, False, 1361, [9.9400161158807931e-1, 4.0977082485715507e-6]),
    ("DOP853", 1e-7, True, 1610, [9.9400161158807931e-1, 4.0977082485715507e-6]),
    ("DOP853", 1e-10, False, 2785, [9.9400000152368451e-1, 5.2728541792708937e-9]),
    ("DOPRI5", 1e-7, False, 1442, [9.9400210158137825e-1, 8.9111854721427269e-6]),
    ("DOPRI5", 1e-10, True, 5060, [9.9399999432456976e-1, -1.4784275846377423e-8]),
]


@pytest.mark.parametrize("method, tol, dense, nfcn, y_end", HAIRER)
def test_arenstorf_reproduces_hairers_codes(method, tol, dense, nfcn, y_end):
    sol = lieode.solve_ivp(arenstorf, (0.0, T_END), Y0, method=method, rtol=tol, atol=tol,
                           dense_output=dense)
    assert sol.nfev == nfcn
    # The library sums stage arguments in a faster order than Hairer's by default: the same
    # steps, rounded differently (measured: 3e-14 to 4.6e-12 from his printed values).
    assert np.allclose(sol.y[:2, -1], y_end, rtol=0.0, atol=1e-11)


@pytest.mark.parametrize("method", ["DOP853", "DOPRI5", "ODEX"])
def test_python_rhs_equals_the_rust_api_bit_for_bit(method):
    """The same run with the library's Rust right-hand side (`problems::hairer::Arenstorf`,
    through the same stepper and options) and with the Python one above: the Python floats
    are IEEE doubles and the operations are the same, so every step is the same, bit for
    bit."""
    t_eval = np.linspace(0.0, T_END, 57)
    for options in ({}, {"t_eval": t_eval, "dense_output": True}):
        rust = lieode._lieode._arenstorf_reference(
            method, 1e-9, 1e-9, options.get("t_eval"), options.get("dense_output", False)
        )
        ours = lieode.solve_ivp(arenstorf, (0.0, T_END), Y0, method=method, rtol=1e-9,
                                atol=1e-9, **options)
        t, rows, nfev = rust[0], rust[1], rust[4]
        assert np.array_equal(ours.t, t)
        assert np.array_equal(ours.y, rows.T)
        assert ours.nfev == nfev
        if options:
            grid = np.linspace(0.0, T_END, 1001)
            assert np.array_equal(ours.sol(grid), rust[7](grid).T)


def test_vector_result_is_shaped_as_scipy():
    def decay(t, y):
        return -0.5 * y

    t_eval = np.linspace(0.0, 10.0, 11)
    ours = lieode.solve_ivp(decay, (0.0, 10.0), [2.0, 4.0, 8.0], t_eval=t_eval,
                            dense_output=True, rtol=1e-10, atol=1e-12)
    theirs = scipy_integrate.solve_ivp(decay, (0.0, 10.0), [2.0, 4.0, 8.0], t_eval=t_eval,
                                       dense_output=True, rtol=1e-10, atol=1e-12)
    assert set(ours) == set(theirs)
    assert ours.y.shape == theirs.y.shape == (3, 11)
    assert ours.sol(3.0).shape == theirs.sol(3.0).shape == (3,)
    assert ours.sol([1.0, 2.0]).shape == theirs.sol([1.0, 2.0]).shape == (3, 2)
    exact = np.outer([2.0, 4.0, 8.0], np.exp(-0.5 * t_eval))
    # Measured: 3.6e-10 (SciPy: RK45 4.5e-11, DOP853 1.4e-10 at these tolerances).
    assert np.max(np.abs(ours.y - exact)) < 1e-9
    assert ours.t_events is None and ours.y_events is None
    assert ours.njev == 0 and ours.nlu == 0 and ours.success
    assert ours.message == theirs.message


def test_vectorized_is_accepted_as_scipy_users_pass_it():
    sol = lieode.solve_ivp(lambda t, y: -y, (0.0, 1.0), [1.0], vectorized=False)
    assert sol.success


def test_backwards_in_time_with_args():
    def oscillator(t, y, k, scale):
        return [y[1], -k * y[0] * scale]

    sol = lieode.solve_ivp(oscillator, (5.0, 0.0), [math.cos(5.0), -math.sin(5.0)],
                           rtol=1e-11, atol=1e-12, args=(1.0, 1.0), dense_output=True)
    assert sol.t[-1] == 0.0 and np.all(np.diff(sol.t) < 0)
    assert abs(sol.y[0, -1] - 1.0) < 1e-9
    assert abs(sol.sol(2.5)[0] - math.cos(2.5)) < 1e-9


def test_t_eval_and_dense_output_against_the_closed_form():
    def oscillator(t, y):
        return np.array([y[1], -y[0]])

    t_eval = np.linspace(0.0, 20.0, 201)
    for method in ("DOP853", "DOPRI5", "ODEX"):
        sol = lieode.solve_ivp(oscillator, (0.0, 20.0), [1.0, 0.0], method=method,
                               t_eval=t_eval, dense_output=True, rtol=1e-10, atol=1e-10)
        assert np.array_equal(sol.t, t_eval)
        assert np.max(np.abs(sol.y[0] - np.cos(t_eval))) < 1e-8, method
        grid = np.linspace(0.0, 20.0, 1999)
        assert np.max(np.abs(sol.sol(grid)[1] + np.sin(grid))) < 1e-8, method
        assert sol.sol.t_min == 0.0 and sol.sol.t_max == 20.0
        assert sol.sol.ts[0] == 0.0 and sol.sol.ts[-1] == 20.0


def test_events_with_direction_and_terminal_against_the_closed_form():
    def oscillator(t, y):
        return [y[1], -y[0]]

    def rising(t, y):  # y = cos t crosses zero upwards at 3π/2 + 2kπ
        return y[0]

    rising.direction = 1

    def falling(t, y):
        return y[0]

    falling.direction = -1

    def both(t, y):
        return y[1]  # -sin t: zeros at kπ

    sol = lieode.solve_ivp(oscillator, (0.0, 20.0), [1.0, 0.0], events=[rising, falling, both],
                           rtol=1e-12, atol=1e-12)
    k = np.arange(4)
    assert np.allclose(sol.t_events[0], 1.5 * np.pi + 2 * np.pi * k[:3], atol=1e-10)
    assert np.allclose(sol.t_events[1], 0.5 * np.pi + 2 * np.pi * k[:3], atol=1e-10)
    assert np.allclose(sol.t_events[2], np.pi * np.arange(1, 7), atol=1e-10)
    assert sol.y_events[0].shape == (3, 2)
    assert np.allclose(sol.y_events[0][:, 1], 1.0, atol=1e-10)

    def half(t, y):
        return y[0] - 0.5  # cos t = 1/2 at π/3

    half.terminal = True
    sol = lieode.solve_ivp(oscillator, (0.0, 20.0), [1.0, 0.0], events=half, rtol=1e-12,
                           atol=1e-12, t_eval=np.linspace(0.0, 20.0, 21))
    assert sol.status == 1 and sol.success and sol.message == "A termination event occurred."
    assert abs(sol.t_events[0][0] - np.pi / 3) < 1e-11
    assert np.array_equal(sol.t, [0.0, 1.0])  # the t_eval points before the event


def test_events_on_a_group():
    # R(t) = exp(t ẑ): R[0, 0] = cos t falls through zero at π/2 (terminal).
    def quarter(t, R):
        return R[0, 0]

    quarter.terminal = True
    quarter.direction = -1
    sol = lieode.solve_ivp(lambda t, R: [0.0, 0.0, 1.0], (0.0, 10.0), np.eye(3), group="SO3",
                           events=quarter, rtol=1e-12, atol=1e-12)
    assert sol.status == 1 and abs(sol.t[-1] - np.pi / 2) < 1e-11
    assert sol.y_events[0].shape == (1, 3, 3)
    assert np.allclose(sol.y_events[0][0], rot_z(np.pi / 2), atol=1e-11)


# ---------------------------------------------------------------------------------------------
# Groups, against closed forms computed here (Rodrigues' formula, scipy.linalg.expm).


def hat(w):
    return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])


def rodrigues(w):
    theta = np.linalg.norm(w)
    if theta == 0.0:
        return np.eye(3)
    k = hat(np.asarray(w) / theta)
    return np.eye(3) + math.sin(theta) * k + (1.0 - math.cos(theta)) * k @ k


def rot_z(angle):
    return rodrigues([0.0, 0.0, angle])


def quat_to_matrix(q):
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


R0 = rodrigues([0.3, -0.5, 0.8])


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("chart", ["exp", "cayley"])
def test_so3_constant_generator_is_the_exponential(side, chart):
    w = np.array([0.4, -1.1, 0.7])
    sol = lieode.solve_ivp(lambda t, R: w, (0.0, 6.0), R0, group="SO3", side=side,
                           chart=chart, rtol=1e-12, atol=1e-12)
    assert sol.y.shape == (sol.t.size, 3, 3)
    for t, R in zip(sol.t, sol.y):
        exact = rodrigues(t * w) @ R0 if side == "left" else R0 @ rodrigues(t * w)
        # Exact up to round-off in the exponential chart (θ' is constant); the Cayley chart's
        # coordinates are not linear in t (measured 1.1e-12).
        assert np.max(np.abs(R - exact)) < (1e-12 if chart == "exp" else 5e-12)


def test_so3_time_dependent_rate_about_a_fixed_axis():
    # ω(t) = (1 + cos 3t) n: R(t) = exp(A(t) n̂) R0 with A(t) = t + sin(3t)/3.
    n = np.array([2.0, -1.0, 2.0]) / 3.0
    t_eval = np.linspace(0.0, 8.0, 81)
    for chart in ("exp", "cayley"):
        sol = lieode.solve_ivp(lambda t, R: (1.0 + math.cos(3 * t)) * n, (0.0, 8.0), R0,
                               group="SO3", chart=chart, t_eval=t_eval, dense_output=True,
                               rtol=1e-11, atol=1e-11)
        exact = [rodrigues((t + math.sin(3 * t) / 3) * n) @ R0 for t in t_eval]
        assert np.max(np.abs(sol.y - np.array(exact))) < 1e-9, chart
        assert np.max(np.abs(sol.sol(t_eval) - np.array(exact))) < 1e-9, chart
        assert np.max(np.abs(sol.sol(2.05) - rodrigues((2.05 + math.sin(6.15) / 3) * n) @ R0)) \
            < 1e-9


def test_cayley_chart_converges_with_the_tolerance():
    n = np.array([0.0, 0.6, 0.8])

    def fun(t, R):
        return (2.0 + math.sin(t)) * n

    errors = []
    for tol in (1e-5, 1e-8, 1e-11):
        sol = lieode.solve_ivp(fun, (0.0, 10.0), np.eye(3), group="SO3", chart="cayley",
                               rtol=tol, atol=tol)
        exact = rodrigues((20.0 + 1.0 - math.cos(10.0)) * n)
        errors.append(np.max(np.abs(sol.y[-1] - exact)))
    assert errors[0] > errors[1] > errors[2] and errors[2] < 1e-9


def coupled_generator(t, R):
    """A state- and time-dependent angular velocity (no closed form)."""
    return np.array([math.sin(t) + R[2, 0], R[0, 1] * R[1, 2] + 0.5, math.cos(2 * t) * R[2, 2]])


def test_su2_is_so3_mapped():
    def su2(t, q):
        return 0.5 * coupled_generator(t, quat_to_matrix(q))  # v = ω/2

    q0 = np.array([math.cos(0.4), 0.0, math.sin(0.4) * 0.6, math.sin(0.4) * 0.8])
    t_eval = np.linspace(0.0, 6.0, 13)
    rotations = lieode.solve_ivp(coupled_generator, (0.0, 6.0), quat_to_matrix(q0),
                                 group="SO3", t_eval=t_eval, rtol=1e-12, atol=1e-12)
    rotors = lieode.solve_ivp(su2, (0.0, 6.0), q0, group="SU2", t_eval=t_eval, rtol=1e-12,
                              atol=1e-12)
    assert rotors.y.shape == (13, 4)
    assert np.max(np.abs(np.linalg.norm(rotors.y, axis=1) - 1.0)) < 1e-14
    for q, R in zip(rotors.y, rotations.y):
        assert np.max(np.abs(quat_to_matrix(q) - R)) < 1e-10


def se3_hat(xi):
    m = np.zeros((4, 4))
    m[:3, :3] = hat(xi[3:])
    m[:3, 3] = xi[:3]
    return m


def test_se3_screw_motion_is_the_matrix_exponential():
    xi = np.array([0.3, -0.2, 1.5, 0.1, 0.4, 1.2])  # (ρ, φ), translation first
    g0 = np.eye(4)
    g0[:3, :3] = R0
    g0[:3, 3] = [1.0, 2.0, -0.5]
    for side in ("left", "right"):
        sol = lieode.solve_ivp(lambda t, g: xi, (0.0, 5.0), g0, group="SE3", side=side,
                               rtol=1e-12, atol=1e-12)
        assert sol.y.shape == (sol.t.size, 4, 4)
        for t, g in zip(sol.t, sol.y):
            e = scipy_linalg.expm(t * se3_hat(xi))
            exact = e @ g0 if side == "left" else g0 @ e
            assert np.max(np.abs(g - exact)) < 1e-11
        assert np.all(sol.y[:, 3] == [0.0, 0.0, 0.0, 1.0])


INERTIA = np.array([1.0, 2.0, 3.5])


def euler(w):
    return np.cross(INERTIA * w, w) / INERTIA


def test_free_rigid_body_on_so3xr3_against_a_scipy_reference():
    """R' = R ω̂ (body frame), I ω' = (I ω) × ω: against SciPy's DOP853 on the ambient
    quaternion + ω system at 1e-13."""
    w0 = np.array([0.9, -0.4, 1.3])

    def body(t, y):
        _, w = y
        return np.concatenate([w, euler(w)])

    def ambient(t, y):
        q, w = y[:4], y[4:]
        qw = np.array([
            -q[1] * w[0] - q[2] * w[1] - q[3] * w[2],
            q[0] * w[0] + q[2] * w[2] - q[3] * w[1],
            q[0] * w[1] - q[1] * w[2] + q[3] * w[0],
            q[0] * w[2] + q[1] * w[1] - q[2] * w[0],
        ])  # q ⊗ (0, ω)
        return np.concatenate([0.5 * qw, euler(w)])

    t_eval = np.linspace(0.0, 20.0, 41)
    sol = lieode.solve_ivp(body, (0.0, 20.0), (np.eye(3), w0), group="SO3xR3", side="right",
                           rtol=1e-11, atol=1e-11, t_eval=t_eval)
    ref = scipy_integrate.solve_ivp(ambient, (0.0, 20.0), np.concatenate([[1, 0, 0, 0], w0]),
                                    method="DOP853", rtol=1e-13, atol=1e-13, t_eval=t_eval)
    R, w = sol.y
    assert R.shape == (41, 3, 3) and w.shape == (3, 41)
    for k in range(41):
        q = ref.y[:4, k] / np.linalg.norm(ref.y[:4, k])
        assert np.max(np.abs(R[k] - quat_to_matrix(q))) < 1e-9
    assert np.max(np.abs(w - ref.y[4:])) < 1e-9
    # On the group at every step, up to round-off; energy and |I ω| conserved to the tolerance.
    steps = lieode.solve_ivp(body, (0.0, 20.0), (np.eye(3), w0), group="SO3xR3", side="right",
                             rtol=1e-11, atol=1e-11)
    drift = [np.max(np.abs(Rk.T @ Rk - np.eye(3))) for Rk in steps.y[0]]
    assert max(drift) < 1e-14
    energy = 0.5 * np.sum(INERTIA[:, None] * steps.y[1] ** 2, axis=0)
    assert np.max(np.abs(energy / energy[0] - 1.0)) < 1e-9


# ---------------------------------------------------------------------------------------------
# Butcher tableaux.

RK4_A = [[0, 0, 0, 0], [0.5, 0, 0, 0], [0, 0.5, 0, 0], [0, 0, 1, 0]]
RK4_B = [1 / 6, 1 / 3, 1 / 3, 1 / 6]
RK4_C = [0, 0.5, 0.5, 1]


def torqued_body(t, y):
    """A rigid body under a torque depending on time and attitude: fully coupled."""
    R, w = y
    torque = np.cross(w, [0.0, 0.0, 0.3]) + R.T @ [math.sin(t), 0.5, math.cos(0.7 * t)]
    return np.concatenate([w, (np.cross(INERTIA * w, w) + torque) / INERTIA])


def torqued_ambient(t, y):
    R, w = y[:9].reshape(3, 3), y[9:]
    dy = torqued_body(t, (R, w))
    return np.concatenate([(R @ hat(dy[:3])).ravel(), dy[3:]])


def torqued_reference(w0, T):
    """The torqued body from (I, w0) at T by SciPy's DOP853 at 1e-13 on the ambient ODE."""
    ref = scipy_integrate.solve_ivp(torqued_ambient, (0.0, T),
                                    np.concatenate([np.eye(3).ravel(), w0]), method="DOP853",
                                    rtol=1e-13, atol=1e-13)
    return ref.y[:9, -1].reshape(3, 3), ref.y[9:, -1]


def test_user_rk4_tableau_runs_as_munthe_kaas_of_order_4():
    rk4 = lieode.ButcherTableau(RK4_A, RK4_B, RK4_C, name="my RK4")
    assert rk4.order == 4 and rk4.b_hat is None and rk4.is_explicit  # from the coefficients
    w0 = np.array([0.5, 1.0, -0.7])
    T = 4.0
    R_ref, w_ref = torqued_reference(w0, T)
    steps = np.array([16, 32, 64, 128])
    errors = []
    for n in steps:
        sol = lieode.solve_ivp(torqued_body, (0.0, T), (np.eye(3), w0), method=rk4,
                               step=T / n, group="SO3xR3", side="right")
        assert sol.t.size == n + 1 and sol.nfev == 4 * n
        R, w = sol.y[0][-1], sol.y[1][:, -1]
        errors.append(max(np.max(np.abs(R - R_ref)), np.max(np.abs(w - w_ref))))
    slope = -np.polyfit(np.log(steps), np.log(errors), 1)[0]
    print("errors", errors, "order", slope)
    assert abs(slope - 4.0) < 0.2


def test_named_tableaux_and_an_embedded_pair():
    assert "RK4" in lieode.ButcherTableau.names() and "DOP853" in lieode.ButcherTableau.names()
    rk4 = lieode.ButcherTableau.named("rk4")
    assert rk4.order == 4 and rk4.stages == 4
    assert np.array_equal(rk4.a, np.array(RK4_A, dtype=float))
    bs32 = lieode.ButcherTableau.named("BS32")
    assert bs32.embedded_order == 2 and bs32.fsal
    # An embedded pair runs adaptively, on vectors and on groups.
    sol = lieode.solve_ivp(lambda t, y: [y[1], -y[0]], (0.0, 10.0), [1.0, 0.0], method=bs32,
                           rtol=1e-8, atol=1e-8, dense_output=True)
    assert abs(sol.y[0, -1] - math.cos(10.0)) < 1e-6 and sol.sol is not None
    sol = lieode.solve_ivp(lambda t, R: [0.0, 0.0, 1.0], (0.0, 2.0), np.eye(3), group="SO3",
                           method=lieode.ButcherTableau.named("dopri5"), rtol=1e-9, atol=1e-9)
    assert np.max(np.abs(sol.y[-1] - rot_z(2.0))) < 1e-14  # exact: θ' is constant
    # The same user coefficients, given with embedded weights, infer their orders.
    dopri5 = lieode.ButcherTableau.named("DOPRI5")
    mine = lieode.ButcherTableau(dopri5.a, dopri5.b, dopri5.c, b_hat=dopri5.b_hat)
    assert (mine.order, mine.embedded_order, mine.fsal) == (5, 4, True)


def test_invalid_tableaux_are_rejected_with_the_librarys_reason():
    with pytest.raises(lieode.InvalidParameterError, match="`b` sums to") as info:
        lieode.ButcherTableau([[0, 0], [1, 0]], [0.5, 0.4], [0, 1])
    assert info.value.parameter == "tableau"
    with pytest.raises(lieode.InvalidParameterError) as info:
        lieode.ButcherTableau([[0.0]], [1.0], [0.0], order=4, name="Euler")
    assert "`order` = 4 is not reached" in str(info.value)
    assert "residual -5e-1" in str(info.value)
    with pytest.raises(lieode.InvalidParameterError, match="row 2 of `a`"):
        lieode.ButcherTableau([[0, 0], [0.7, 0]], [0.5, 0.5], [0, 1])
    with pytest.raises(lieode.InvalidParameterError, match="RK5"):
        lieode.ButcherTableau.named("RK5")
    # An implicit tableau cannot run explicitly.
    gauss = lieode.ButcherTableau.named("gauss4")
    with pytest.raises(lieode.InvalidParameterError, match="explicit"):
        lieode.solve_ivp(lambda t, y: -y, (0, 1), [1.0], method=gauss, step=0.1)


# ---------------------------------------------------------------------------------------------
# Errors.


def test_an_exception_from_fun_comes_out_unchanged():
    class Boom(Exception):
        pass

    raised = []

    def fun(t, y):
        if t > 0.5:
            error = Boom("at t > 0.5")
            raised.append(error)
            raise error
        return -y

    with pytest.raises(Boom) as info:
        lieode.solve_ivp(fun, (0.0, 1.0), [1.0])
    assert info.value is raised[0]
    assert info.traceback[-1].name == "fun"


def test_an_exception_from_an_event_comes_out_unchanged():
    def event(t, y):
        raise ZeroDivisionError("in the event")

    with pytest.raises(ZeroDivisionError, match="in the event"):
        lieode.solve_ivp(lambda t, y: -y, (0.0, 1.0), [1.0], events=event)


def test_wrong_return_shape_names_fun_and_the_time():
    with pytest.raises(lieode.InvalidParameterError) as info:
        lieode.solve_ivp(lambda t, y: [1.0, 2.0, 3.0], (0.25, 1.0), [1.0, 2.0])
    assert info.value.parameter == "fun" and info.value.t == 0.25
    assert "list of length 3" in str(info.value) and "expected 2 floats" in str(info.value)
    with pytest.raises(lieode.InvalidParameterError, match="expected 3 floats"):
        lieode.solve_ivp(lambda t, R: np.zeros((3, 3)), (0.0, 1.0), np.eye(3), group="SO3")
    with pytest.raises(lieode.InvalidParameterError, match="str"):
        lieode.solve_ivp(lambda t, y: "no", (0.0, 1.0), [1.0])
    # Other numeric arrays are read as floats.
    sol = lieode.solve_ivp(lambda t, y: np.array([1], dtype=np.int32), (0.0, 1.0), [0.0])
    assert abs(sol.y[0, -1] - 1.0) < 1e-12


def test_non_finite_values_name_what_and_when():
    with pytest.raises(lieode.NonFiniteError) as info:
        lieode.solve_ivp(lambda t, y: [math.nan], (0.0, 1.0), [1.0])
    assert info.value.parameter == "fun" and info.value.t == 0.0
    with pytest.raises(lieode.NonFiniteError) as info:
        lieode.solve_ivp(lambda t, y: [math.nan if t > 0.5 else 1.0], (0.0, 1.0), [1.0])
    assert info.value.parameter == "fun" and info.value.t > 0.5
    with pytest.raises(lieode.NonFiniteError) as info:
        lieode.solve_ivp(lambda t, y: -y, (0.0, 1.0), [1.0, math.inf])
    assert info.value.parameter == "y0"


@pytest.mark.parametrize(
    "kwargs, parameter",
    [
        ({"fun": 3.0}, "fun"),
        ({"t_span": (0.0, 0.0)}, "t_span"),
        ({"t_span": (0.0,)}, "t_span"),
        ({"t_span": "ab"}, "t_span"),
        ({"t_span": (0.0, math.nan)}, "t_span"),
        ({"y0": np.ones(17)}, "y0"),
        ({"y0": np.ones((2, 2))}, "y0"),
        ({"y0": [1j, 2.0]}, "y0"),
        ({"y0": ["a", "b"]}, "y0"),
        ({"method": "RK23"}, "method"),
        ({"method": "LSODA"}, "method"),
        ({"t_eval": [0.0, 2.0]}, "t_eval"),
        ({"t_eval": [0.5, 0.2]}, "t_eval"),
        ({"atol": [1e-6, 1e-6, 1e-6]}, "atol"),
        ({"atol": -1.0}, "atol"),
        ({"rtol": -1.0}, "rtol"),
        ({"first_step": 0.0}, "first_step"),
        ({"first_step": 5.0}, "first_step"),
        ({"max_step": -1.0}, "max_step"),
        ({"max_steps": 0}, "max_steps"),
        ({"step": 0.1}, "step"),
        ({"chart": "cayley"}, "chart"),
        ({"side": "right"}, "side"),
        ({"group": "SO4"}, "group"),
        ({"events": [3]}, "events"),
        ({"args": 3}, "args"),
        ({"jac": lambda t, y: -np.eye(2)}, "jac"),
    ],
)
def test_bad_arguments_name_the_parameter(kwargs, parameter):
    arguments = {"fun": lambda t, y: -y, "t_span": (0.0, 1.0), "y0": [1.0, 2.0]}
    arguments.update(kwargs)
    with pytest.raises(lieode.LieodeError) as info:
        lieode.solve_ivp(**arguments)
    assert info.value.parameter == parameter, str(info.value)
    assert f"`{parameter}`" in str(info.value)


def test_unsupported_size_lists_the_supported_ones():
    with pytest.raises(lieode.InvalidParameterError) as info:
        lieode.solve_ivp(lambda t, y: -y, (0.0, 1.0), np.ones(17))
    assert str(list(lieode.VECTOR_SIZES)) in str(info.value)
    for n in lieode.VECTOR_SIZES:
        sol = lieode.solve_ivp(lambda t, y: -y, (0.0, 1.0), np.ones(n), rtol=1e-9, atol=1e-9)
        assert np.allclose(sol.y[:, -1], math.exp(-1.0), atol=1e-8)


def test_group_arguments_are_checked():
    def fun(t, y):
        return np.zeros(6)

    with pytest.raises(lieode.InvalidParameterError, match="not an element of SO") as info:
        lieode.solve_ivp(fun, (0.0, 1.0), 2 * np.eye(3), group="SO3")
    assert info.value.parameter == "y0"
    with pytest.raises(lieode.InvalidParameterError, match=r"\|q\| = 1"):
        lieode.solve_ivp(fun, (0.0, 1.0), [2.0, 0.0, 0.0, 0.0], group="SU2")
    with pytest.raises(lieode.InvalidParameterError, match="shape") as info:
        lieode.solve_ivp(fun, (0.0, 1.0), np.eye(4), group="SO3")
    with pytest.raises(lieode.InvalidParameterError) as info:
        lieode.solve_ivp(fun, (0.0, 1.0), np.eye(4), group="SE3", chart="cayley")
    assert info.value.parameter == "chart"
    with pytest.raises(lieode.InvalidParameterError) as info:
        lieode.solve_ivp(fun, (0.0, 1.0), np.eye(3), group="SO3xR3")
    assert info.value.parameter == "y0" and "pair" in str(info.value)
    with pytest.raises(lieode.InvalidParameterError) as info:
        lieode.solve_ivp(fun, (0.0, 1.0), (np.eye(3), np.zeros(99)), group="SO3xR99")
    assert info.value.parameter == "group"
    with pytest.raises(lieode.InvalidParameterError) as info:
        lieode.solve_ivp(fun, (0.0, 1.0), (np.eye(3), np.zeros(2)), group="SO3xR3")
    assert info.value.parameter == "y0"


def test_fixed_step_tableaux_need_a_step_and_have_no_dense_output():
    rk4 = lieode.ButcherTableau.named("rk4")
    with pytest.raises(lieode.InvalidParameterError) as info:
        lieode.solve_ivp(lambda t, y: -y, (0.0, 1.0), [1.0], method=rk4)
    assert info.value.parameter == "step"
    with pytest.raises(lieode.InvalidParameterError) as info:
        lieode.solve_ivp(lambda t, y: -y, (0.0, 1.0), [1.0], method=rk4, step=0.1,
                         dense_output=True)
    assert info.value.parameter == "dense_output"
    sol = lieode.solve_ivp(lambda t, y: -y, (0.0, 1.0), [1.0], method=rk4, step=0.3)
    assert np.allclose(sol.t, [0.0, 0.25, 0.5, 0.75, 1.0])  # ⌈1/0.3⌉ = 4 equal steps


def test_failures_of_the_integration_are_status_minus_one():
    sol = lieode.solve_ivp(lambda t, y: [y[1], -y[0]], (0.0, 100.0), [1.0, 0.0], max_steps=10)
    assert sol.status == -1 and not sol.success and "max_steps" in sol.message
    assert sol.t.size == 11 and sol.t[-1] < 100.0
    # y' = y² blows up at t = 1: the step size shrinks below what t resolves.
    sol = lieode.solve_ivp(lambda t, y: y * y, (0.0, 2.0), [1.0])
    print(sol.message)
    assert sol.status == -1 and not sol.success
    assert 0.99 < sol.t[-1] < 1.01 and "step size too small" in sol.message.lower()


def test_ctrl_c_stops_a_run_with_keyboard_interrupt():
    """SIGINT during a long run comes out as KeyboardInterrupt, soon after the signal."""
    sent = interrupt_after(0.02)
    with pytest.raises(KeyboardInterrupt):
        try:
            # About 10 s without the signal: a fast oscillation over a long span.
            lieode.solve_ivp(lambda t, y: [y[1], -100.0 * y[0]], (0.0, 1e5), [1.0, 0.0],
                             rtol=1e-10, atol=1e-10)
        finally:
            caught = time.perf_counter()
    assert caught - sent[0] < 0.05


def test_help_shows_the_convention_box():
    doc = lieode.solve_ivp.__doc__
    assert "y' = ξ(t, y) · y" in doc and "y' = y · ξ(t, y)" in doc
    assert lieode.solve_ivp.__annotations__["return"] in ("OdeResult", lieode.OdeResult)


def test_docstring_examples_run():
    import doctest

    import lieode._solve_ivp as module

    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 4 and result.failed == 0


def test_crouch_grossman_and_commutator_free_tableaux_run_as_products_of_exponentials():
    """On a group a fixed-step Crouch–Grossman or commutator-free tableau runs as such (no
    chart): measured order 3 for CG3 and 4 for CF4 on the torqued rigid body."""
    w0 = np.array([0.5, 1.0, -0.7])
    T = 4.0
    R_ref, w_ref = torqued_reference(w0, T)
    steps = np.array([16, 32, 64, 128])
    for name, order in (("cg3", 3), ("cf4", 4)):
        tableau = lieode.ButcherTableau.named(name)
        errors = []
        for n in steps:
            sol = lieode.solve_ivp(torqued_body, (0.0, T), (np.eye(3), w0), method=tableau,
                                   step=T / n, group="SO3xR3", side="right")
            R, w = sol.y[0][-1], sol.y[1][:, -1]
            errors.append(max(np.max(np.abs(R - R_ref)), np.max(np.abs(w - w_ref))))
            assert np.max(np.abs(R.T @ R - np.eye(3))) < 1e-14
        slope = -np.polyfit(np.log(steps), np.log(errors), 1)[0]
        print(name, errors, slope)
        assert abs(slope - order) < 0.2, name
    with pytest.raises(lieode.InvalidParameterError) as info:
        lieode.solve_ivp(torqued_body, (0.0, T), (np.eye(3), w0), group="SO3xR3",
                         method=lieode.ButcherTableau.named("cg3"), step=0.1, chart="cayley")
    assert info.value.parameter == "chart"


def test_the_raw_entry_checks_the_state_length():
    with pytest.raises(lieode.InvalidParameterError, match="9 floats given"):
        lieode._lieode.solve_ivp(lambda t, y: [0.0, 0.0, 0.0], 0.0, 1.0, np.zeros(9), "SU2",
                                 0, "DOP853", 1e-6, [1e-6], None, False, [], "exp", "left",
                                 None, None, None, None, [])
