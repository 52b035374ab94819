"""lieode.solve_ivp(..., sensitivities=...): forward sensitivities of vector ODEs against
references from outside the code under test — the matrix exponential (SciPy), SciPy's DOP853
on the variational equations, central differences of re-adapted runs — and their bad input.

The figures in the comments were measured with this file (2026-11-27); each bound is the
measured value with a margin of about 2, or an identity that holds to rounding.
"""

import numpy as np
import pytest

import lieode

scipy_integrate = pytest.importorskip("scipy.integrate")
scipy_linalg = pytest.importorskip("scipy.linalg")
scipy_sparse = pytest.importorskip("scipy.sparse")

# ---------------------------------------------------------------------------------------------
# y' = A y, A non-normal and fully coupled: ∂y(t)/∂y0 = expm(A t).
A = np.array([[-0.3, 1.0, 0.2], [-1.1, -0.2, 0.4], [0.3, -0.5, -0.1]])
Y0_LINEAR = np.array([1.0, 0.5, -0.2])


def linear(t, y):
    return A @ y


# The classical RK4 written out by the user (no embedded weights: a fixed-step method).
RK4 = lieode.ButcherTableau(
    a=[[0, 0, 0, 0], [0.5, 0, 0, 0], [0, 0.5, 0, 0], [0, 0, 1, 0]],
    b=[1 / 6, 1 / 3, 1 / 3, 1 / 6],
    c=[0, 0.5, 0.5, 1],
    name="user RK4",
)


def apply_to_y0(sensitivities, y0):
    """``S(t) y0`` at every output time, ``(n, len(t))``."""
    return np.einsum("ijk,j->ik", sensitivities, y0)


@pytest.mark.parametrize("method, bound", [("DOPRI5", 2.5e-11), ("DOP853", 1e-11)])
def test_linear_ode_against_the_matrix_exponential(method, bound):
    sol = lieode.solve_ivp(linear, (0.0, 2.0), Y0_LINEAR, method=method, rtol=1e-10,
                           atol=1e-12, sensitivities=True, jac=A)
    assert sol.success and sol.sensitivities.shape == (3, 3, sol.t.size)
    assert sol.sensitivity_names == ["y0[0]", "y0[1]", "y0[2]"]
    error = max(np.abs(sol.sensitivities[:, :, k] - scipy_linalg.expm(A * t)).max()
                for k, t in enumerate(sol.t))
    # Measured: DOPRI5 1.25e-11 (77 steps), DOP853 4.25e-12 (11 steps) — the size of the
    # solution's own error at this tolerance (S obeys the same ODE, column by column).
    assert error < bound
    # Integrating backwards: expm(-2A).
    back = lieode.solve_ivp(linear, (2.0, 0.0), Y0_LINEAR, method=method, rtol=1e-10,
                            atol=1e-12, sensitivities="y0", jac=A)
    assert np.abs(back.sensitivities[:, :, -1] - scipy_linalg.expm(-2.0 * A)).max() < 5e-11


@pytest.mark.parametrize("method", ["DOPRI5", "DOP853", "BS32"])
def test_linear_ode_sensitivity_is_the_derivative_of_the_computed_solution(method):
    # For a linear ODE with the steps frozen the computed map y0 ↦ y(t) is linear, so the
    # derivative of the *computed* solution satisfies y(t) = S(t) y0 to rounding — at the
    # accepted steps and, through the derivative of the dense output (Shampine's weights for
    # DOPRI5, CONTD8 for DOP853, cubic Hermite for BS3(2)), at t_eval — whereas S differs from
    # expm(A t) by the integration error (~1e-7 here).
    method = lieode.ButcherTableau.named("bs32") if method == "BS32" else method
    te = np.linspace(0.0, 2.0, 13)
    for t_eval in (None, te):
        sol = lieode.solve_ivp(linear, (0.0, 2.0), Y0_LINEAR, method=method, rtol=1e-6,
                               atol=1e-8, t_eval=t_eval, sensitivities=True, jac=A)
        # Measured: 3e-16 … 1.6e-15.
        assert np.abs(apply_to_y0(sol.sensitivities, Y0_LINEAR) - sol.y).max() < 1e-14
        exact = np.stack([scipy_linalg.expm(A * t) for t in sol.t], axis=-1)
        assert 1e-9 < np.abs(sol.sensitivities - exact).max() < 2e-6


@pytest.mark.parametrize("method", ["DOPRI5", "DOP853"])
def test_the_primal_run_is_unchanged(method):
    plain = lieode.solve_ivp(linear, (0.0, 2.0), Y0_LINEAR, method=method, rtol=1e-6,
                             atol=1e-8)
    sol = lieode.solve_ivp(linear, (0.0, 2.0), Y0_LINEAR, method=method, rtol=1e-6,
                           atol=1e-8, sensitivities=True, jac=A)
    # The states are the primal run's, bit for bit; the replay's own end of each step is
    # within rounding of them (measured 4e-16 … 2e-15).
    assert np.array_equal(plain.t, sol.t) and np.array_equal(plain.y, sol.y)
    assert sol.replay_deviation < 1e-14
    # The replay evaluates fun (and jac) once per stage it needs: the stages of the steps,
    # not the rejected ones, not the FSAL stage (DOPRI5 6 of 7 per step, DOP853 12).
    stages = {"DOPRI5": 6, "DOP853": 12}[method]
    assert sol.njev == stages * (sol.t.size - 1)
    assert sol.nfev == plain.nfev + sol.njev


def test_fixed_step_user_tableau_converges_with_order_four():
    steps = np.array([10, 20, 40, 80])
    errors = []
    for n in steps:
        sol = lieode.solve_ivp(linear, (0.0, 2.0), Y0_LINEAR, method=RK4, step=2.0 / n,
                               sensitivities=True, jac=A)
        assert sol.t.size == n + 1
        errors.append(np.abs(sol.sensitivities[:, :, -1] - scipy_linalg.expm(2.0 * A)).max())
    slope = np.polyfit(np.log(2.0 / steps), np.log(errors), 1)[0]
    # Measured: 3.05e-5, 1.79e-6, 1.08e-7, 6.64e-9, slope 4.06.
    print("RK4 sensitivity errors", errors, "order", slope)
    assert abs(slope - 4.0) < 0.2


# ---------------------------------------------------------------------------------------------
# Lotka–Volterra x' = a x − b x y, y' = c x y − d y with its parameters (a, b, c, d) in args.
P = (1.5, 1.0, 1.0, 3.0)
Y0 = np.array([1.0, 1.0])
T = 8.0


def lotka_volterra(t, u, a, b, c, d):
    x, y = u
    return np.array([a * x - b * x * y, c * x * y - d * y])


def lv_jac(t, u, a, b, c, d):
    x, y = u
    return np.array([[a - b * y, -b * x], [c * y, c * x - d]])


def lv_jac_p(t, u, a, b, c, d):
    x, y = u
    return np.array([[x, -x * y, 0.0, 0.0], [0.0, 0.0, x * y, -y]])


def variational(t, z, *p):
    """The state and its 2 × 6 sensitivities, S' = J S + [0 | F_p]."""
    u, s = z[:2], z[2:].reshape(2, 6)
    ds = lv_jac(t, u, *p) @ s
    ds[:, 2:] += lv_jac_p(t, u, *p)
    return np.concatenate([lotka_volterra(t, u, *p), ds.ravel()])


@pytest.fixture(scope="module")
def lv_reference():
    """SciPy's DOP853 on the variational equations at rtol = atol = 1e-13 (232 steps)."""
    z0 = np.concatenate([Y0, np.hstack([np.eye(2), np.zeros((2, 4))]).ravel()])
    ref = scipy_integrate.solve_ivp(variational, (0.0, T), z0, method="DOP853", rtol=1e-13,
                                    atol=1e-13, dense_output=True, args=P)
    assert ref.success
    return lambda t: ref.sol(t)[2:].reshape(2, 6)


def lv_run(method, tol=None, **kwargs):
    if tol is not None:
        kwargs.update(rtol=tol, atol=tol)
    return lieode.solve_ivp(lotka_volterra, (0.0, T), Y0, method=method, args=P,
                            sensitivities=("y0", "p"), jac=lv_jac, jac_p=lv_jac_p, **kwargs)


# Measured max |S − S_ref| over the accepted steps / over 41 t_eval points (|S| ≤ 16.9):
# DOP853 1e-6: 7.5e-4 / 1.0e-3, 1e-10: 2.0e-8 / 6.3e-8; DOPRI5 1e-6: 6.0e-4 / 5.2e-4,
# 1e-10: 2.0e-8 / 3.8e-8 — each of the size of the run's own error times |S| (the
# sensitivities are not error-controlled; the states' error is 1.5e-10 … 3.3e-5).
@pytest.mark.parametrize("method, tol, bound", [
    ("DOP853", 1e-6, 2e-3), ("DOP853", 1e-10, 1.3e-7),
    ("DOPRI5", 1e-6, 1.2e-3), ("DOPRI5", 1e-10, 8e-8),
])
def test_lotka_volterra_against_scipy_variational_equations(lv_reference, method, tol, bound):
    sol = lv_run(method, tol)
    assert sol.sensitivity_names == ["y0[0]", "y0[1]", "p[0]", "p[1]", "p[2]", "p[3]"]
    assert sol.sensitivities.shape == (2, 6, sol.t.size)
    grid = max(np.abs(sol.sensitivities[:, :, k] - lv_reference(t)).max()
               for k, t in enumerate(sol.t))
    te = np.linspace(0.0, T, 41)
    dense = lv_run(method, tol, t_eval=te)
    between = max(np.abs(dense.sensitivities[:, :, k] - lv_reference(t)).max()
                  for k, t in enumerate(te))
    print(f"{method} {tol:.0e}: {sol.t.size - 1} steps, |S - ref| {grid:.2e} at the steps, "
          f"{between:.2e} at t_eval")
    assert grid < bound and between < bound
    # One direction at a time gives the same columns (the directions do not interact).
    only_p = lieode.solve_ivp(lotka_volterra, (0.0, T), Y0, method=method, rtol=tol,
                              atol=tol, args=P, sensitivities="p", jac=lv_jac, jac_p=lv_jac_p)
    assert only_p.sensitivity_names == ["p[0]", "p[1]", "p[2]", "p[3]"]
    assert np.allclose(only_p.sensitivities, sol.sensitivities[:, 2:], rtol=0, atol=1e-14)


def central_differences(method, tol, relative):
    """Central differences of re-adapted runs (each run chooses its own steps) for the six
    inputs (x0, y0, a, b, c, d), each moved by ``relative`` times its size."""
    base = np.concatenate([Y0, P])
    fd = np.zeros((2, 6))
    for j in range(6):
        step = relative * abs(base[j])
        ends = []
        for sign in (1.0, -1.0):
            v = base.copy()
            v[j] += sign * step
            run = lieode.solve_ivp(lotka_volterra, (0.0, T), v[:2], method=method, rtol=tol,
                                   atol=tol, args=tuple(v[2:]))
            ends.append(run.y[:, -1])
        fd[:, j] = (ends[0] - ends[1]) / (2.0 * step)
    return fd


# Measured max |FD − S| at t = 8 for relative steps 1e-3, 1e-5, 1e-8 (|S| ≤ 16.9):
# tol 1e-10: 1.16e-4 (truncation, O(ε²)), 2.49e-8, 9.87e-7 (rounding and the run's own
# non-smoothness, O(u/ε)); tol 1e-6: 6.2e-4, 5.07e-4, 5.33e-4. The floor — 2.5e-8 at 1e-10,
# 5.1e-4 at 1e-6: it scales with the tolerance — is the controller's response to the inputs
# (a re-adapted run takes other steps), which the frozen-step derivative leaves out by
# definition: FD and S then differ by O(tol · |S|), as the runs differ from the truth.
@pytest.mark.parametrize("tol, floor", [(1e-10, 5e-8), (1e-6, 1e-3)])
def test_lotka_volterra_against_central_differences_of_readapted_runs(tol, floor):
    sol = lv_run("DOP853", tol)
    s = sol.sensitivities[:, :, -1]
    gaps = {rel: np.abs(central_differences("DOP853", tol, rel) - s).max()
            for rel in (1e-3, 1e-5, 1e-8)}
    print(f"tol {tol:.0e}: |FD - S| " + ", ".join(f"{r:.0e}: {g:.2e}" for r, g in gaps.items()))
    assert gaps[1e-5] < floor
    if tol == 1e-10:
        # Too large a step: truncation; too small: rounding — both worse than the floor.
        assert gaps[1e-3] > 100 * gaps[1e-5] and gaps[1e-8] > 10 * gaps[1e-5]


def test_fixed_step_lotka_volterra_with_parameters_converges_with_order_four(lv_reference):
    steps = np.array([100, 200, 400, 800])
    errors = [np.abs(lv_run(RK4, step=T / n).sensitivities[:, :, -1]
                     - lv_reference(T)).max() for n in steps]
    slope = np.polyfit(np.log(T / steps), np.log(errors), 1)[0]
    # Measured: 1.21e-3, 9.06e-5, 6.11e-6, 3.95e-7, slope 3.87 (4.0 over the last pair).
    print("RK4 Lotka–Volterra sensitivity errors", errors, "order", slope)
    assert abs(slope - 4.0) < 0.2


# ---------------------------------------------------------------------------------------------
# Other ways of giving the Jacobians, and a run that fails.

def test_jacobians_as_lists_constants_and_sparse_matrices():
    ref = lieode.solve_ivp(linear, (0.0, 1.0), Y0_LINEAR, sensitivities=True,
                           jac=lambda t, y: A)
    for jac in (A.tolist(), scipy_sparse.csr_matrix(A), lambda t, y: scipy_sparse.csr_matrix(A),
                lambda t, y: A.tolist(), np.asfortranarray(A)):
        sol = lieode.solve_ivp(linear, (0.0, 1.0), Y0_LINEAR, sensitivities=True, jac=jac)
        assert np.array_equal(sol.sensitivities, ref.sensitivities)


def test_a_failed_run_has_the_sensitivities_of_its_steps():
    sol = lieode.solve_ivp(linear, (0.0, 2.0), Y0_LINEAR, rtol=1e-10, atol=1e-12, max_steps=3,
                           sensitivities=True, jac=A)
    assert sol.status == -1 and sol.t.size == 4
    assert sol.sensitivities.shape == (3, 3, 4)
    assert np.array_equal(sol.sensitivities[:, :, 0], np.eye(3))


# ---------------------------------------------------------------------------------------------
# Bad input: the package's exceptions, naming the parameter (and the time where it applies).

def raises(cls, parameter, **kwargs):
    arguments = dict(fun=linear, t_span=(0.0, 1.0), y0=Y0_LINEAR)
    arguments.update(kwargs)
    with pytest.raises(cls) as info:
        lieode.solve_ivp(**arguments)
    assert info.value.parameter == parameter, str(info.value)
    return info.value


def test_arguments_that_do_not_fit_together():
    invalid = lieode.InvalidParameterError
    raises(invalid, "jac", sensitivities=True)
    raises(invalid, "jac", jac=A)  # jac is for the sensitivities only
    raises(invalid, "jac_p", sensitivities="p", jac=A)
    raises(invalid, "jac_p", sensitivities="y0", jac=A, jac_p=np.ones((3, 1)))
    raises(invalid, "jac_p", jac_p=np.ones((3, 1)))
    for bad in ("x", 3, [], ["y0", "y0"], ["y0", 1]):
        raises(invalid, "sensitivities", sensitivities=bad, jac=A)
    error = raises(invalid, "method", method="ODEX", sensitivities=True, jac=A)
    assert "sensitivities" in str(error)
    raises(invalid, "events", events=lambda t, y: y[0], sensitivities=True, jac=A)
    error = raises(invalid, "sensitivities", fun=lambda t, R: [0.0, 0.0, 1.0], y0=np.eye(3),
                   group="SO3", sensitivities=True, jac=np.zeros((3, 3)))
    assert "vector ODEs only" in str(error)
    raises(invalid, "jac", sensitivities=True, jac="not a matrix")
    # sensitivities=False is the default.
    sol = lieode.solve_ivp(linear, (0.0, 1.0), Y0_LINEAR, sensitivities=False)
    assert "sensitivities" not in sol and sol.njev == 0


@pytest.mark.parametrize("jac, shape", [
    (np.ones((3, 2)), "(3, 2)"), (np.ones(9), "(9,)"), (np.ones((1, 3, 3)), "(1, 3, 3)"),
])
def test_a_jacobian_of_the_wrong_shape(jac, shape):
    error = raises(lieode.InvalidParameterError, "jac", sensitivities=True, jac=jac)
    assert error.t == 0.0 and shape.replace(" ", "") in str(error).replace(" ", "")


@pytest.mark.parametrize("jac_p", [np.ones((2, 2)), np.ones(3), np.ones((3, 0)),
                                   lambda t, y: [[1j], [0], [0]]])
def test_a_parameter_jacobian_of_the_wrong_shape_or_kind(jac_p):
    error = raises(lieode.InvalidParameterError, "jac_p", sensitivities=True, jac=A,
                   jac_p=jac_p)
    assert error.t == 0.0


def test_non_finite_jacobians_name_themselves_and_their_time():
    def jac(t, y):
        return A * np.nan if t > 0.5 else A

    error = raises(lieode.NonFiniteError, "jac", sensitivities=True, jac=jac)
    assert error.t > 0.5 and "at t = " in str(error)

    def jac_p(t, y):
        return np.full((3, 1), np.inf if t > 0.25 else 1.0)

    error = raises(lieode.NonFiniteError, "jac_p", sensitivities=True, jac=A, jac_p=jac_p)
    assert error.t > 0.25
    # A shape that changes during the run.
    error = raises(lieode.InvalidParameterError, "jac_p", sensitivities=True, jac=A,
                   jac_p=lambda t, y: np.ones((3, 2 if t > 0.5 else 1)))
    assert error.t > 0.5


def test_exceptions_of_the_jacobians_come_out_unchanged():
    class Mine(Exception):
        pass

    def jac(t, y):
        if t > 0.5:
            raise Mine("from jac")
        return A

    with pytest.raises(Mine, match="from jac"):
        lieode.solve_ivp(linear, (0.0, 1.0), Y0_LINEAR, sensitivities=True, jac=jac)


def test_sensitivities_that_overflow():
    error = raises(lieode.NonFiniteError, "sensitivities", fun=lambda t, y: -y, y0=[1.0],
                   sensitivities=True, jac=lambda t, y: [[1e300]], method=RK4, step=0.1)
    assert error.t is not None
