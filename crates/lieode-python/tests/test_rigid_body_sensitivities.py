"""``lieode.rigid_body_sensitivities``: one rigid body's rotation differentiated on dual numbers.

References from outside the code under test: the package's ``f64`` path
(``rigid_body_ensemble`` at a fixed catalogue step), central differences of it with the
rotation perturbed as ``R0 ⊗ exp(h e_j / 2)`` written out here, the SPIRAL cylinder's
analytic ``ω(t)`` differentiated by the complex step, and an inertia recovered from synthetic
attitudes of an adaptive DOP853 run.
"""

import numpy as np
import pytest

import lieode

INERTIA = np.array([1.0, 1.6, 2.1])
R0 = np.array([0.9, 0.1, -0.3, 0.2]) / np.linalg.norm([0.9, 0.1, -0.3, 0.2])
OMEGA0 = np.array([0.7, -1.1, 0.4])
TORQUE = lieode.FieldTorque(offset=(0.1, -0.2, 0.3), lab_force=(0.0, 0.0, -9.81),
                            damping=0.1, body_torque=(0.2, 0.0, -0.1))
DT, STEPS = 2e-3, 250
ALL = lieode.SENSITIVITY_INPUTS


# --- quaternions, written out here (scalar first) -----------------------------------------------

def qmul(a, b):
    w1, x1, y1, z1 = np.moveaxis(a, -1, 0)
    w2, x2, y2, z2 = np.moveaxis(b, -1, 0)
    return np.stack([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
                     w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
                     w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2], axis=-1)


def conj(q):
    return q * np.array([1.0, -1.0, -1.0, -1.0])


def turn(v):
    """``exp(v)`` = the rotor ``(cos|v|, sin|v| v/|v|)`` (a rotation by ``2|v|``)."""
    v = np.asarray(v, dtype=float)
    angle = np.linalg.norm(v, axis=-1, keepdims=True)
    safe = np.where(angle == 0.0, 1.0, angle)
    return np.concatenate([np.cos(angle), np.sin(angle) * v / safe], axis=-1)


def rotation_between(base, q):
    """The body-frame rotation vector ``θ`` with ``q = base ⊗ exp(θ/2)`` (up to sign)."""
    r = qmul(conj(base), q)
    r = r * np.where(r[..., :1] < 0, -1.0, 1.0)
    v = r[..., 1:]
    norm = np.linalg.norm(v, axis=-1, keepdims=True)
    angle = 2.0 * np.arctan2(norm, r[..., :1])
    return np.where(norm == 0.0, v, v * angle / np.where(norm == 0.0, 1.0, norm))


# --- the f64 path --------------------------------------------------------------------------------

def f64_run(method, inertia, rotors, omegas, torque=TORQUE, dt=DT, steps=STEPS):
    """The package's f64 runs (``rigid_body_ensemble`` at the fixed step), all members at
    once: rotors (M, T, 4), omegas (M, T, 3)."""
    times = dt * np.arange(steps + 1)
    out = lieode.rigid_body_ensemble(inertia, rotors, omegas, times, torque=torque,
                                     method=method, dt=dt)
    return out.rotors, out.omegas


def central_differences(method, h, with_respect_to=ALL):
    """The final state's Jacobian by central differences of f64 runs: per direction ``j``,
    the relative step ``h max(|x_j|, 1)`` (radians for ``R0``)."""
    columns = []
    base_R, base_W = f64_run(method, INERTIA, R0, OMEGA0)
    qc = base_R[0, -1]
    for name in with_respect_to:
        if name in ("R0", "omega0", "inertia"):
            rotors, omegas, inertia, steps = [], [], [], []
            for j in range(3):
                for sign in (1.0, -1.0):
                    e = np.zeros(3)
                    if name == "R0":
                        step = h
                        e[j] = sign * step
                        rotors.append(qmul(R0, turn(e / 2)))
                        omegas.append(OMEGA0)
                        inertia.append(INERTIA)
                    elif name == "omega0":
                        step = h * max(abs(OMEGA0[j]), 1.0)
                        e[j] = sign * step
                        rotors.append(R0)
                        omegas.append(OMEGA0 + e)
                        inertia.append(INERTIA)
                    else:
                        step = h * max(abs(INERTIA[j]), 1.0)
                        e[j] = sign * step
                        rotors.append(R0)
                        omegas.append(OMEGA0)
                        inertia.append(INERTIA + e)
                steps.append(step)
            R, W = f64_run(method, np.array(inertia), np.array(rotors), np.array(omegas))
            for j in range(3):
                plus, minus = 2 * j, 2 * j + 1
                d_rot = (rotation_between(qc, R[plus, -1]) - rotation_between(qc, R[minus, -1]))
                d_w = W[plus, -1] - W[minus, -1]
                columns.append(np.concatenate([d_rot, d_w]) / (2 * steps[j]))
        else:
            value = np.atleast_1d(np.asarray(getattr(TORQUE, name), dtype=float))
            for j in range(len(value)):
                step = h * max(abs(value[j]), 1.0)
                ends = []
                for sign in (1.0, -1.0):
                    moved = value.copy()
                    moved[j] += sign * step
                    field = dict(offset=TORQUE.offset, lab_force=TORQUE.lab_force,
                                 damping=TORQUE.damping, body_torque=TORQUE.body_torque)
                    field[name] = moved[0] if name == "damping" else moved
                    R, W = f64_run(method, INERTIA, R0, OMEGA0, torque=lieode.FieldTorque(**field))
                    ends.append((R[0, -1], W[0, -1]))
                (Rp, Wp), (Rm, Wm) = ends
                d_rot = rotation_between(qc, Rp) - rotation_between(qc, Rm)
                columns.append(np.concatenate([d_rot, Wp - Wm]) / (2 * step))
    return np.array(columns).T


# --- (1) the real parts are the f64 path's -----------------------------------------------------

@pytest.mark.parametrize("method", lieode.SENSITIVITY_METHODS)
def test_real_parts_are_the_f64_run(method):
    s = lieode.rigid_body_sensitivities(INERTIA, R0, OMEGA0, DT, STEPS, method=method,
                                        torque=TORQUE, with_respect_to=ALL)
    R, W = f64_run(method, INERTIA, R0, OMEGA0)
    np.testing.assert_allclose(s.t, DT * np.arange(STEPS + 1), rtol=0, atol=1e-15)
    assert np.abs(s.R - R[0]).max() <= 1e-14, method
    assert np.abs(s.omega - W[0]).max() <= 1e-14 * np.abs(W[0]).max(), method
    # At t0 the Jacobian is the identity on (R0, omega0), zero elsewhere.
    expected = np.zeros((6, 19))
    expected[:, :6] = np.eye(6)
    assert np.abs(s.jacobian[0] - expected).max() <= 1e-15
    assert s.names == ([f"{n}[{i}]" for n in ("R0", "omega0", "inertia", "offset", "lab_force")
                        for i in range(3)] + ["damping"] + [f"body_torque[{i}]" for i in range(3)])


def test_every_methods_is_the_catalogue_without_its_engines():
    engines = set(lieode.ENSEMBLE_FIXED_STEP_METHODS) - set(lieode.SENSITIVITY_METHODS)
    assert engines == {"rkmk4", "cg4a"}
    assert len(lieode.SENSITIVITY_METHODS) == len(set(lieode.SENSITIVITY_METHODS)) == 13


# --- (2) against central differences of the f64 path ---------------------------------------------

# Measured max |J_dual − J_cd| / max |J| at h = 1e-5 (19 directions, t = 0.5).
# Measured 1.6e-10, 9.6e-11, 7.8e-11, 7.8e-11, 1.4e-10 (max |J| = 2.5); bounds about 3x.
CD_GAP = {
    "spiral": 5e-10,
    "spiral_leapfrog": 3e-10,
    "rk4": 2.5e-10,
    "omelyan": 2.5e-10,
    "fincham": 4e-10,
}


@pytest.mark.parametrize("method", sorted(CD_GAP))
def test_jacobian_against_central_differences(method):
    s = lieode.rigid_body_sensitivities(INERTIA, R0, OMEGA0, DT, STEPS, method=method,
                                        torque=TORQUE, with_respect_to=ALL, every=STEPS)
    assert s.t.shape == (2,)
    dual = s.jacobian[-1]
    scale = np.abs(dual).max()
    gap = np.abs(dual - central_differences(method, 1e-5)).max() / scale
    print(f"{method}: max |J| {scale:.3g}, dual − central differences {gap:.2e}")
    assert gap < CD_GAP[method], (method, gap)
    if method == "spiral":
        # The step matters: truncation above, rounding below (measured 3.9e-7 at h = 1e-3,
        # 8.8e-8 at h = 1e-8).
        for h in (1e-3, 1e-8):
            worse = np.abs(dual - central_differences(method, h)).max() / scale
            print(f"  h = {h:g}: {worse:.2e}")
            assert worse > 100 * gap, (h, worse, gap)


# --- (3) the SPIRAL cylinder's analytic ω(t) -------------------------------------------------

IX, IP, M_X, T_END = 0.4, 1.0, 0.8, 2.0
W_CYL = np.array([2.0, 0.5, -0.3])


def analytic_omega(w0, m, t=T_END):
    """SPIRAL Eqs. 11–12: the cylinder (I_y = I_z) under the body torque (M_x, 0, 0)."""
    kappa = (IX - IP) / IP
    phase = kappa * (w0[0] * t + m * t * t / (2 * IX))
    c, s = np.cos(phase), np.sin(phase)
    return np.array([w0[0] + m / IX * t, w0[1] * c - w0[2] * s, w0[1] * s + w0[2] * c])


def analytic_sensitivities():
    """∂ω(T)/∂(ω0, M_x) by the complex step (exact to rounding)."""
    h = 1e-30
    columns = []
    for j in range(4):
        w0 = W_CYL.astype(complex)
        m = complex(M_X)
        if j < 3:
            w0[j] += 1j * h
        else:
            m += 1j * h
        columns.append(analytic_omega(w0, m).imag / h)
    return np.array(columns).T


def cylinder_error(method, n):
    s = lieode.rigid_body_sensitivities(
        [IX, IP, IP], [1, 0, 0, 0], W_CYL, T_END / n, n, method=method,
        torque=lieode.FieldTorque(body_torque=(M_X, 0.0, 0.0)),
        with_respect_to=("omega0", "body_torque"), every=n)
    assert s.t[-1] == pytest.approx(T_END, rel=1e-14)
    computed = s.jacobian[-1, 3:, :4]   # ∂ω/∂(ω0, body_torque[0])
    exact = analytic_sensitivities()
    return np.abs(computed - exact).max() / np.abs(exact).max()


@pytest.mark.parametrize("method, order", [("rk4", 4.0), ("spiral", 3.0)])
def test_cylinder_sensitivities_converge_at_the_methods_order(method, order):
    ns = [40, 80, 160]
    errors = [cylinder_error(method, n) for n in ns]
    slope = -np.polyfit(np.log(ns), np.log(errors), 1)[0]
    print(f"{method}: errors {['%.2e' % e for e in errors]}, slope {slope:.2f}")
    assert abs(slope - order) < 0.2, (method, errors, slope)


# --- (4) identifying the inertia from noisy attitudes ---------------------------------------------

def test_inertia_identified_from_noisy_attitudes():
    """A free body's attitude depends on the inertia ratios only: with I_x = 1 fixed,
    Gauss–Newton on (R0, omega0, I_y, I_z) recovers I_y, I_z within their standard errors."""
    truth = np.array([1.0, 1.6, 2.1])
    w0 = np.array([0.4, 1.2, -0.5])
    dt, steps, every = 5e-3, 800, 20
    times = dt * np.arange(0, steps + 1, every)
    reference = lieode.rigid_body_ensemble(truth, R0, w0, times, method="dop853",
                                           rtol=1e-13, atol=1e-13)
    rng = np.random.default_rng(7)
    sigma = 2e-3   # radians per axis
    measured = qmul(reference.rotors[0], turn(sigma * rng.standard_normal((len(times), 3)) / 2))

    rotor, omega, inertia = measured[0].copy(), w0 + 0.05, np.array([1.0, 1.45, 2.2])
    for iteration in range(8):
        s = lieode.rigid_body_sensitivities(inertia, rotor, omega, dt, steps, method="rk4",
                                            every=every)
        residual = rotation_between(s.R, measured).ravel()
        # Columns R0, omega0, inertia[1], inertia[2] (I_x fixed: the scale is not observable).
        A = s.jacobian[:, :3, [0, 1, 2, 3, 4, 5, 7, 8]].reshape(-1, 8)
        delta = np.linalg.lstsq(A, residual, rcond=None)[0]
        rotor = qmul(rotor, turn(delta[:3] / 2))
        omega = omega + delta[3:6]
        inertia = inertia + np.array([0.0, delta[6], delta[7]])
        if np.abs(delta).max() < 1e-10:
            break
    assert iteration < 7, delta
    covariance = sigma ** 2 * np.linalg.inv(A.T @ A)
    standard_error = np.sqrt(np.diag(covariance))[6:]
    error = inertia[1:] - truth[1:]
    chi2 = np.sum(residual ** 2) / sigma ** 2 / (len(residual) - 8)
    print(f"{iteration + 1} iterations: I_y, I_z = {inertia[1:]}, error {error}, "
          f"standard error {standard_error}, chi2/dof {chi2:.3f}")
    assert np.all(np.abs(error) < 3 * standard_error), (error, standard_error)
    assert np.all(standard_error < 2e-3)
    # The fit explains the data down to the noise (115 degrees of freedom: 1 ± 0.13).
    assert 0.5 < chi2 < 1.5, chi2


# --- the options -------------------------------------------------------------------------------

def test_every_records_the_same_states_and_the_last():
    full = lieode.rigid_body_sensitivities(INERTIA, R0, OMEGA0, DT, 20, method="spiral_leapfrog",
                                           torque=TORQUE)
    sparse = lieode.rigid_body_sensitivities(INERTIA, R0, OMEGA0, DT, 20,
                                             method="spiral_leapfrog", torque=TORQUE, every=7)
    keep = [0, 7, 14, 20]
    assert np.array_equal(sparse.t, full.t[keep])
    assert np.array_equal(sparse.R, full.R[keep])
    assert np.array_equal(sparse.jacobian, full.jacobian[keep])
    assert full.jacobian.shape == (21, 6, 9) and full.nfev > 0


def test_column_order_size_and_scalar_last():
    """The columns follow ``with_respect_to``; the 19-direction run agrees with the 9-direction
    one on their shared columns; scalar last in and out."""
    small = lieode.rigid_body_sensitivities(INERTIA, R0, OMEGA0, DT, 50, method="omelyan",
                                            torque=TORQUE, with_respect_to=("inertia", "damping"))
    assert small.names == ["inertia[0]", "inertia[1]", "inertia[2]", "damping"]
    large = lieode.rigid_body_sensitivities(INERTIA, R0, OMEGA0, DT, 50, method="omelyan",
                                            torque=TORQUE, with_respect_to=ALL)
    shared = [large.names.index(n) for n in small.names]
    assert np.array_equal(small.jacobian, large.jacobian[:, :, shared])
    last = lieode.rigid_body_sensitivities(INERTIA, np.roll(R0, -1), OMEGA0, DT, 50,
                                           method="omelyan", torque=TORQUE,
                                           with_respect_to=("inertia", "damping"),
                                           scalar_first=False)
    assert np.array_equal(np.roll(last.R, 1, axis=1), small.R)
    assert np.array_equal(last.jacobian, small.jacobian)


# --- (5) errors -----------------------------------------------------------------------------------

def call(**changes):
    arguments = dict(inertia=INERTIA, R0=R0, omega0=OMEGA0, dt=DT, n_steps=10)
    arguments.update(changes)
    return lieode.rigid_body_sensitivities(**arguments)


@pytest.mark.parametrize("changes, parameter", [
    (dict(method="rkmk4"), "method"),
    (dict(method="nonsense"), "method"),
    (dict(inertia=[1.0, 1.0, 3.0]), "inertia"),
    (dict(inertia=[1.0, np.nan, 1.0]), "inertia"),
    (dict(inertia=[1.0, -1.0, 1.0]), "inertia"),
    (dict(inertia=[1.0, 1.0]), "inertia"),
    (dict(R0=[0.0, 0.0, 0.0, 0.0]), "R0"),
    (dict(R0=[1.0, np.inf, 0.0, 0.0]), "R0"),
    (dict(R0=[1.0, 0.0, 0.0]), "R0"),
    (dict(omega0=np.zeros((3, 1))), "omega0"),
    (dict(dt=0.0), "dt"),
    (dict(dt=-1e-3), "dt"),
    (dict(dt=np.nan), "dt"),
    (dict(dt="x"), "dt"),
    (dict(n_steps=0), "n_steps"),
    (dict(n_steps=1.5), "n_steps"),
    (dict(every=0), "every"),
    (dict(with_respect_to=("R0", "mass")), "with_respect_to"),
    (dict(with_respect_to=("R0", "R0")), "with_respect_to"),
    (dict(with_respect_to=("R0", 3)), "with_respect_to"),
    (dict(torque=lieode.FieldTorque(damping=-1.0)), "torque.damping"),
    (dict(torque=lieode.FieldTorque(offset=(1.0, 2.0))), "torque.offset"),
    (dict(torque=lieode.FieldTorque(lab_force=(0.0, 0.0, np.inf))), "torque.lab_force"),
])
def test_bad_input_is_refused_naming_the_parameter(changes, parameter):
    with pytest.raises(lieode.InvalidParameterError) as error:
        call(**changes)
    assert error.value.parameter == parameter
    assert parameter.split(".")[-1] in str(error.value)


def test_non_finite_start_and_state():
    with pytest.raises(lieode.NonFiniteError) as error:
        call(omega0=[0.0, np.nan, 0.0])
    assert error.value.parameter == "omega0" and error.value.t == 0.0
    # An angular velocity that overflows in the first steps.
    with pytest.raises(lieode.NonFiniteError) as error:
        call(omega0=[1e154, 1e154, 1e154], method="direct_euler")
    assert error.value.t is not None and 0.0 < error.value.t <= 10 * DT
