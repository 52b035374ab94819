"""integrate_angular_velocity against closed forms, and side by side with numpy-quaternion."""

import math

import numpy as np
import pytest

import lieode

quaternion = pytest.importorskip("quaternion")  # numpy-quaternion, the peer


from reference_quaternions import qexp, qmul, rotate, rotor_distance  # noqa: E402
from support import interrupt_after  # noqa: E402


# A precessing, spinning frame, R(t) = exp(ω₁t ẑ/2) exp(β x̂/2) exp(ω₂t ẑ/2), whose inertial
# angular velocity is Ω = ω₁ ẑ + ω₂ A ẑ A⁻¹ with A = exp(ω₁t ẑ/2) exp(β x̂/2).
W1, BETA, W2 = 0.7, 0.4, 3.1
Z, X = np.array([0.0, 0.0, 1.0]), np.array([1.0, 0.0, 0.0])


def exact(t):
    a = qmul(qexp(0.5 * W1 * t * Z), qexp(0.5 * BETA * X))
    return qmul(a, qexp(0.5 * W2 * t * Z))


def omega(t):
    a = qmul(qexp(0.5 * W1 * t * Z), qexp(0.5 * BETA * X))
    return W1 * Z + W2 * rotate(a, Z)


@pytest.mark.parametrize("formulation", lieode.FORMULATIONS)
def test_constant_spin_is_the_closed_form(formulation):
    t, R = lieode.integrate_angular_velocity(
        lambda t: [0.0, 0.0, 2.0], 0.0, 5.0, formulation=formulation, as_float=True
    )
    assert t[0] == 0.0 and t[-1] == 5.0
    for ti, Ri in zip(t, R):
        assert rotor_distance(Ri, qexp([0.0, 0.0, ti])) < 1e-11


@pytest.mark.parametrize("formulation", lieode.FORMULATIONS)
def test_precession_against_the_exact_frame(formulation):
    t, R = lieode.integrate_angular_velocity(
        omega, 0.0, 20.0, R0=exact(0.0), tolerance=1e-12, formulation=formulation,
        as_float=True,
    )
    errors = [rotor_distance(Ri, exact(ti)) for ti, Ri in zip(t, R)]
    assert max(errors) < 1e-9
    # Every returned rotor is unit: lifted by construction, rotor normalised on output.
    assert np.max(np.abs(np.linalg.norm(R, axis=1) - 1.0)) < 1e-14


@pytest.mark.parametrize("method", lieode.METHODS)
@pytest.mark.parametrize("formulation", lieode.FORMULATIONS)
def test_every_formulation_and_method_reaches_the_exact_frame(formulation, method):
    # Measured on t in [0, 5] at tolerance 1e-12: 9e-14 (lifted DOP853) to 5.6e-12 (frame
    # vectors, DOPRI5); the plain generator needs three times the steps of the reset one.
    t, R = lieode.integrate_angular_velocity(
        omega, 0.0, 5.0, R0=exact(0.0), formulation=formulation, method=method, as_float=True
    )
    assert t[-1] == 5.0
    assert max(rotor_distance(Ri, exact(ti)) for ti, Ri in zip(t, R)) < 1e-10
    assert np.max(np.abs(np.linalg.norm(R, axis=1) - 1.0)) < 1e-14


@pytest.mark.parametrize("method", lieode.METHODS)
@pytest.mark.parametrize("formulation", ["lifted", "rotor"])
def test_output_between_the_steps_is_as_accurate_as_the_steps(formulation, method):
    """At times between the accepted steps the rotors come from each method's dense output,
    evaluated in the step that holds them: ODEX's own (Hairer & Ostermann's, switched on for
    output times; measured 2.4e-11 at tolerance 1e-12, lifted). Its cubic Hermite fallback, and
    the driver's copy of its interpolant resampled at degree 8, were 7e-8 off here."""
    t = np.linspace(0.0, 5.0, 101)
    R = lieode.from_angular_velocity(
        lambda R, t: omega(t), t, R0=exact(0.0), tolerance=1e-12, formulation=formulation,
        method=method, as_float=True,
    )
    assert max(rotor_distance(Ri, exact(ti)) for ti, Ri in zip(t, R)) < 1e-9


def test_a_body_frame_angular_velocity():
    # Ω_b = R⁻¹ Ω R gives the same frame with dR/dt = ½ R Ω_b.
    def omega_body(t):
        q = exact(t)
        conj = q * np.array([1.0, -1.0, -1.0, -1.0])
        return rotate(conj, omega(t))

    t, R = lieode.integrate_angular_velocity(
        omega_body, 0.0, 5.0, R0=exact(0.0), frame="body", as_float=True
    )
    assert max(rotor_distance(Ri, exact(ti)) for ti, Ri in zip(t, R)) < 1e-10


def test_scalar_last_for_scipy_rotation_users():
    R0 = exact(0.0)
    t, R_first = lieode.integrate_angular_velocity(omega, 0.0, 2.0, R0=R0, as_float=True)
    t_last, R_last = lieode.integrate_angular_velocity(
        omega, 0.0, 2.0, R0=np.roll(R0, -1), scalar_first=False
    )
    assert np.array_equal(t, t_last)
    assert np.array_equal(R_last, np.roll(R_first, -1, axis=1))
    spatial = pytest.importorskip("scipy.spatial.transform")
    rotation = spatial.Rotation.from_quat(R_last[-1])  # SciPy's order: x, y, z, w
    assert rotor_distance(np.roll(rotation.as_quat(), 1), exact(2.0)) < 1e-10


def test_same_answer_as_numpy_quaternion_with_a_state_dependent_omega():
    # Ω(t, R): the body's own x axis (rotated by R) plus a slow spin about z.
    def omega_tr(t, R):
        if isinstance(R, np.ndarray):
            q = R
        else:  # numpy-quaternion hands a quaternion
            q = R.components
        q = q / np.linalg.norm(q)
        return 0.3 * rotate(q, X) + np.array([0.0, 0.0, 0.2 + 0.1 * math.sin(t)])

    t_ours, R_ours = lieode.integrate_angular_velocity(omega_tr, 0.0, 8.0, as_float=True)
    t_nq, R_nq = quaternion.integrate_angular_velocity(omega_tr, 0.0, 8.0)
    R_nq = quaternion.as_float_array(R_nq)
    end_nq = R_nq[-1] / np.linalg.norm(R_nq[-1])
    assert t_ours[-1] == t_nq[-1] == 8.0
    assert rotor_distance(R_ours[-1], end_nq) < 1e-9


def test_a_function_of_time_alone_is_told_from_one_of_time_and_rotor():
    class Rate:
        """A callable without an inspectable signature of two parameters."""

        def __call__(self, t):
            return [0.0, 0.0, 2.0]

    t, R = lieode.integrate_angular_velocity(Rate(), 0.0, 1.0, as_float=True)
    assert rotor_distance(R[-1], qexp([0.0, 0.0, 1.0])) < 1e-12


def test_returns_numpy_quaternion_arrays_like_the_peer():
    t, R = lieode.integrate_angular_velocity(omega, 0.0, 1.0, R0=quaternion.one * exact(0)[0])
    assert R.dtype == np.quaternion
    assert R.shape == t.shape


def test_an_exception_in_omega_comes_out_unchanged():
    class Boom(RuntimeError):
        pass

    def omega_fails(t):
        if t > 0.5:
            raise Boom("from the user's code")
        return [0.0, 0.0, 1.0]

    with pytest.raises(Boom, match="from the user's code") as info:
        lieode.integrate_angular_velocity(omega_fails, 0.0, 1.0)
    # The traceback reaches into the user's function.
    assert info.traceback[-1].name == "omega_fails"


def test_bad_input_is_a_named_error():
    with pytest.raises(lieode.InvalidParameterError, match="R0"):
        lieode.integrate_angular_velocity(omega, 0.0, 1.0, R0=[0.0, 0.0, 0.0, 0.0])
    with pytest.raises(lieode.InvalidParameterError, match="formulation"):
        lieode.integrate_angular_velocity(omega, 0.0, 1.0, formulation="euler")
    with pytest.raises(lieode.InvalidParameterError, match="method"):
        lieode.integrate_angular_velocity(omega, 0.0, 1.0, method="rk45")
    with pytest.raises(lieode.InvalidParameterError, match="frame"):
        lieode.from_angular_velocity(omega, np.linspace(0, 1, 3), frame="lab")
    with pytest.raises(lieode.LieodeError) as info:
        lieode.integrate_angular_velocity(omega, 0.0, 1.0, tolerance=-1.0)
    assert isinstance(info.value, lieode.InvalidParameterError)
    with pytest.raises(lieode.NonFiniteError) as info:
        lieode.integrate_angular_velocity(
            lambda t: [0.0, 0.0, math.nan if t > 0.5 else 1.0], 0.0, 1.0
        )
    assert info.value.t is not None and 0.0 < info.value.t <= 1.0
    # A rate that blows up stops the integration where it does.
    with pytest.raises(lieode.IntegrationError) as info:
        lieode.integrate_angular_velocity(lambda t: [0.0, 0.0, 1.0 / (0.5 - t)], 0.0, 1.0)
    assert abs(info.value.t - 0.5) < 1e-6
    with pytest.raises(TypeError):
        lieode.integrate_angular_velocity(3.0, 0.0, 1.0)
    with pytest.raises(lieode.InvalidParameterError, match="Omega"):
        lieode.integrate_angular_velocity(([0.0, 1.0, 0.5], np.zeros((3, 3))), 0.0, 1.0)
    with pytest.raises(lieode.InvalidParameterError, match="Omega"):
        lieode.integrate_angular_velocity(([0.0, 1.0], np.zeros((2, 2))), 0.0, 1.0)


# ---------------------------------------------------------------------------------------------
# Tabulated angular velocities: the spline in Rust against SciPy's, and the integrations.
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 17, 400])
def test_the_spline_is_scipys_not_a_knot_cubic_spline(n):
    interpolate = pytest.importorskip("scipy.interpolate")
    rng = np.random.default_rng(n)
    t = np.cumsum(rng.uniform(0.1, 1.0, n))
    v = rng.normal(size=(n, 3)) * 10.0
    t_eval = np.concatenate([t, np.linspace(t[0], t[-1], 1001)])
    ours = lieode._lieode.cubic_spline(t, v, t_eval)
    theirs = interpolate.CubicSpline(t, v)(t_eval)
    assert np.max(np.abs(ours - theirs)) < 1e-12 * np.max(np.abs(v)) * n


def precession_table(t_end, n):
    t = np.linspace(0.0, t_end, n)
    return t, np.array([omega(ti) for ti in t])


@pytest.mark.parametrize("formulation", lieode.FORMULATIONS)
def test_a_table_is_integrated_at_its_times(formulation):
    t_table, v = precession_table(5.0, 1001)
    t, R = lieode.integrate_angular_velocity(
        (t_table, v), None, None, R0=exact(0.0), formulation=formulation, as_float=True
    )
    assert np.array_equal(t, t_table)
    # The spline's interpolation error (h = 5e-3) bounds the result, not the integration.
    errors = [rotor_distance(Ri, exact(ti)) for ti, Ri in zip(t, R)]
    assert max(errors) < 1e-8


def test_a_table_gives_numpy_quaternions_answer():
    t_table, v = precession_table(2.0, 201)
    R0 = quaternion.from_float_array(exact(0.0))
    _, R_ours = lieode.integrate_angular_velocity((t_table, v), 0.0, 2.0, R0=R0, as_float=True)
    _, R_nq = quaternion.integrate_angular_velocity((t_table, v), 0.0, 2.0, R0=R0)
    R_nq = quaternion.as_float_array(R_nq)
    worst = max(
        rotor_distance(a, b / np.linalg.norm(b)) for a, b in zip(R_ours, R_nq)
    )
    # Same spline, same tolerances, different integrators (SciPy's RK45 for the peer):
    # 3.1e-11 apart (measured), as far as ours is from the exact frame.
    assert worst < 1e-10


def test_from_angular_velocity_is_quaternionics_with_a_callable_and_a_table():
    quaternionic = pytest.importorskip("quaternionic")
    t = np.linspace(0.0, 10.0, 301)
    R0 = quaternionic.array(exact(0.0))

    def omega_rt(R, t):  # quaternionic's order: rotor first
        assert isinstance(R, quaternionic.array)
        return omega(t)

    R_callable = lieode.from_angular_velocity(omega_rt, t, R0=R0)
    assert isinstance(R_callable, quaternionic.array) and R_callable.shape == (301, 4)
    assert max(rotor_distance(Ri, exact(ti)) for ti, Ri in zip(t, R_callable.ndarray)) < 1e-9
    table = np.array([omega(ti) for ti in t])
    R_table = lieode.from_angular_velocity(table, t, R0=R0, as_float=True)
    R_peer = quaternionic.array.from_angular_velocity(table, t, R0=R0).ndarray
    # Both are within the spline's interpolation error of the exact frame (1.9e-9 here) ...
    for R in (R_table, R_peer):
        errors = [rotor_distance(Ri / np.linalg.norm(Ri), exact(ti)) for ti, Ri in zip(t, R)]
        assert max(errors) < 3e-9
    # ... and agree to 3.8e-10 (measured; 2.0e-10 at tolerance 1e-14): the spline's third
    # derivative jumps at every knot, and a DOP853 step across a knot commits an error the
    # tolerance does not see, so neither integrator converges further on this table.
    worst = max(rotor_distance(a, b / np.linalg.norm(b)) for a, b in zip(R_table, R_peer))
    assert worst < 1e-9


def test_ctrl_c_stops_a_table_run_between_steps():
    """SIGINT during a table run (no Python runs there: the GIL is released) comes out as
    KeyboardInterrupt from the run, within a few steps of the signal."""
    import time
    import traceback

    t = np.linspace(0.0, 2.0e5, 2_000_001)
    v = np.column_stack([np.sin(3.0 * t), np.cos(2.0 * t), np.full_like(t, 0.5)])
    # The sending thread needs the GIL after its sleep, which the call releases only while it
    # integrates (after building the spline): the signal lands in the run, 20 ms or more in.
    sent = interrupt_after(0.02)
    with pytest.raises(KeyboardInterrupt) as interrupted:
        try:
            lieode.integrate_angular_velocity((t, v), None, None, tolerance=1e-14)
        finally:
            caught = time.perf_counter()
    where = traceback.extract_tb(interrupted.value.__traceback__)[-1]
    assert "_lieode.integrate_angular_velocity(" in where.line
    # Raised by the run itself, with nothing else in flight.
    assert interrupted.value.__context__ is None
    # Checked every 64 steps: measured 10 ms from the signal; without the check the run goes
    # on to its end (about 20 s: there is no step limit by default).
    assert caught - sent[0] < 0.05


def test_no_step_limit_by_default_as_the_peers():
    # A fast oscillation over a long table needs about 200 000 DOP853 steps: more than Hairer's
    # default NMAX (100 000), which a run can still ask for.
    t = np.linspace(0.0, 5000.0, 50_001)
    v = np.column_stack([np.sin(3.0 * t), np.cos(2.0 * t), np.full_like(t, 0.5)])
    times, R = lieode.integrate_angular_velocity((t, v), None, None, as_float=True)
    assert times[-1] == 5000.0
    # The lifted rotors stay unit up to round-off accumulated over the steps: measured 7.8e-13
    # after these ~200 000 steps (about 4e-18 per step; 4.4e-15 on the precessing binary's
    # 1 440 steps).
    assert np.max(np.abs(np.linalg.norm(R, axis=1) - 1.0)) < 1e-11
    with pytest.raises(lieode.IntegrationError) as info:
        lieode.integrate_angular_velocity((t, v), None, None, max_steps=100_000)
    assert 0.0 < info.value.t < 5000.0
