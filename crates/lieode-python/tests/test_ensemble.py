"""rigid_body_ensemble against closed forms, SciPy's DOP853 and its own serial runs."""

import math
import time

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import lieode
from reference_quaternions import qexp, qmul, rotor_distance
from support import interrupt_after, load_example

def symmetric_top_exact(moments, q0, w0, t):
    """The free symmetric top (moments A, A, C): with the lab momentum L = R₀ J ω₀ and
    λ = (C − A) ω₃ / A, R(t) = exp(t L̂ / A) R₀ exp(−λ t ê₃) and ω(t) = (ω⊥ turned by λt, ω₃);
    differentiating gives Rᵀ Ṙ = (J ω)^/A − λ ê₃ = ω̂, Euler's equations by construction."""
    a, _, c = moments
    lam = (c - a) * w0[2] / a
    body_momentum = np.asarray(moments) * w0
    lab_momentum = qmul(qmul(q0, np.concatenate([[0.0], body_momentum])), q0 * [1, -1, -1, -1])[1:]
    q = qmul(qmul(qexp(0.5 * t * lab_momentum / a), q0), qexp([0.0, 0.0, -0.5 * lam * t]))
    s, co = math.sin(lam * t), math.cos(lam * t)
    w = np.array([co * w0[0] - s * w0[1], s * w0[0] + co * w0[1], w0[2]])
    return q, w


def random_starts(members, seed=3):
    rng = np.random.default_rng(seed)
    rotors = rng.standard_normal((members, 4))
    rotors /= np.linalg.norm(rotors, axis=1, keepdims=True)
    omegas = rng.standard_normal((members, 3))
    return rotors, omegas


@pytest.mark.parametrize("method", lieode.ENSEMBLE_ADAPTIVE_METHODS)
def test_free_symmetric_tops_follow_the_closed_form(method):
    moments = [1.0, 1.0, 1.6]
    rotors, omegas = random_starts(16)
    t = np.linspace(0.0, 10.0, 21)
    result = lieode.rigid_body_ensemble(moments, rotors, omegas, t, method=method, rtol=1e-12, atol=1e-12)
    assert result.rotors.shape == (16, 21, 4) and result.omegas.shape == (16, 21, 3)
    worst = 0.0
    for i in range(16):
        for k, tk in enumerate(t):
            q, w = symmetric_top_exact(moments, rotors[i], omegas[i], tk)
            worst = max(worst, rotor_distance(result.rotors[i, k], q))
            worst = max(worst, np.abs(result.omegas[i, k] - w).max())
    assert worst < 1e-9
    # Lifted to the group: unit rotors up to the round-off accumulated over up to about a
    # thousand steps (measured 1.3e-14 for DOPRI5's 950 steps).
    assert np.abs(np.linalg.norm(result.rotors, axis=2) - 1.0).max() < 1e-13


def ambient_heavy_top(moments, offset, force, damping):
    """q̇ = ½ q ⊗ (0, ω), J ω̇ = χ × (Rᵀ f) − c ω − ω × Jω, as a vector ODE in ℝ⁷ for SciPy."""
    J = np.asarray(moments)

    def rhs(_t, x):
        q, w = x[:4], x[4:]
        body_force = qmul(qmul(q * [1, -1, -1, -1], np.concatenate([[0.0], force])), q)[1:]
        tau = np.cross(offset, body_force) - damping * w
        return np.concatenate([0.5 * qmul(q, np.concatenate([[0.0], w])), (tau - np.cross(w, J * w)) / J])

    return rhs


@pytest.mark.parametrize("method", lieode.ENSEMBLE_ADAPTIVE_METHODS)
def test_damped_heavy_tops_agree_with_scipy_at_tight_tolerance(method):
    moments, offset, force, damping = [1.0, 1.3, 0.7], [0.1, -0.2, 0.4], [0.0, 0.0, -9.81], 0.05
    torque = lieode.FieldTorque(offset=offset, lab_force=force, damping=damping)
    rotors, omegas = random_starts(4, seed=5)
    t = np.linspace(0.0, 4.0, 9)
    result = lieode.rigid_body_ensemble(
        moments, rotors, omegas, t, torque=torque, method=method, rtol=1e-12, atol=1e-12
    )
    rhs = ambient_heavy_top(moments, np.array(offset), np.array(force), damping)
    for i in range(4):
        reference = solve_ivp(
            rhs, (0.0, 4.0), np.concatenate([rotors[i], omegas[i]]), method="DOP853",
            t_eval=t, rtol=1e-13, atol=1e-13,
        ).y.T
        for k in range(len(t)):
            q = reference[k, :4] / np.linalg.norm(reference[k, :4])
            assert rotor_distance(result.rotors[i, k], q) < 1e-9
            assert np.abs(result.omegas[i, k] - reference[k, 4:]).max() < 1e-9


def test_a_split_ensemble_gives_the_serial_numbers_bit_for_bit():
    rotors, omegas = random_starts(40)
    inertia = np.column_stack([np.full(40, 1.0), np.linspace(1.2, 1.8, 40), np.full(40, 2.1)])
    t = np.linspace(0.0, 3.0, 7)
    torque = lieode.FieldTorque(offset=(0.0, 0.1, 0.2), lab_force=(0.0, 0.0, -1.0))
    whole = lieode.rigid_body_ensemble(inertia, rotors, omegas, t, torque=torque)
    one_thread = lieode.rigid_body_ensemble(inertia, rotors, omegas, t, torque=torque, threads=1)
    assert np.array_equal(whole.rotors, one_thread.rotors)
    assert np.array_equal(whole.omegas, one_thread.omegas)
    for i in (0, 17, 39):
        alone = lieode.rigid_body_ensemble(inertia[i], rotors[i], omegas[i], t, torque=torque)
        assert np.array_equal(alone.rotors[0], whole.rotors[i])
        assert np.array_equal(alone.omegas[0], whole.omegas[i])
        assert alone.nfev[0] == whole.nfev[i]


def test_one_rotor_or_one_angular_velocity_is_every_members():
    rotors, omegas = random_starts(5)
    t = [0.0, 1.0]
    shared_rotor = lieode.rigid_body_ensemble([1.0, 2.0, 2.5], rotors[0], omegas, t)
    spelled_out = lieode.rigid_body_ensemble([1.0, 2.0, 2.5], np.tile(rotors[0], (5, 1)), omegas, t)
    assert np.array_equal(shared_rotor.rotors, spelled_out.rotors)
    shared_omega = lieode.rigid_body_ensemble([1.0, 2.0, 2.5], rotors, omegas[2], t)
    assert shared_omega.rotors.shape == (5, 2, 4)
    assert np.array_equal(shared_omega.omegas[:, 0], np.tile(omegas[2], (5, 1)))


def test_free_asymmetric_tops_keep_energy_and_momentum():
    moments = np.array([1.0, 2.0, 2.5])
    rotors, omegas = random_starts(8, seed=11)
    t = np.linspace(0.0, 50.0, 6)
    result = lieode.rigid_body_ensemble(moments, rotors, omegas, t, rtol=1e-12, atol=1e-12)
    energy = 0.5 * np.einsum("mtk,k,mtk->mt", result.omegas, moments, result.omegas)
    assert np.abs(energy / energy[:, :1] - 1.0).max() < 1e-10
    for i in range(8):
        lab = [
            qmul(qmul(q, np.concatenate([[0.0], moments * w])), q * [1, -1, -1, -1])[1:]
            for q, w in zip(result.rotors[i], result.omegas[i])
        ]
        assert np.abs(np.array(lab) - lab[0]).max() < 1e-9 * np.linalg.norm(lab[0])


@pytest.mark.parametrize("method, order", [("spiral_leapfrog", 2), ("omelyan", 2), ("rk4", 4)])
def test_catalogue_methods_converge_at_their_order(method, order):
    moments = [1.0, 1.0, 1.6]
    rotors, omegas = random_starts(3, seed=7)
    errors = []
    for dt in (0.02, 0.01):
        t = np.linspace(0.0, 2.0, 5)
        result = lieode.rigid_body_ensemble(moments, rotors, omegas, t, method=method, dt=dt)
        errors.append(
            max(
                rotor_distance(result.rotors[i, -1], symmetric_top_exact(moments, rotors[i], omegas[i], 2.0)[0])
                for i in range(3)
            )
        )
    assert math.log2(errors[0] / errors[1]) == pytest.approx(order, abs=0.2)


def test_a_fixed_step_method_needs_output_times_on_its_grid():
    with pytest.raises(lieode.InvalidParameterError, match="grid") as error:
        lieode.rigid_body_ensemble([1, 2, 2.5], [1, 0, 0, 0], [0, 0, 1], [0.0, 0.015], method="spiral_leapfrog", dt=0.01)
    assert "t_eval[1]" in str(error.value)
    with pytest.raises(lieode.InvalidParameterError, match="dt"):
        lieode.rigid_body_ensemble([1, 2, 2.5], [1, 0, 0, 0], [0, 0, 1], [0.0, 1.0], method="spiral_leapfrog")
    with pytest.raises(lieode.InvalidParameterError, match="dt"):
        lieode.rigid_body_ensemble([1, 2, 2.5], [1, 0, 0, 0], [0, 0, 1], [0.0, 1.0], dt=0.1)


def test_bad_members_are_named():
    rotors, omegas = random_starts(6)
    inertia = np.tile([1.0, 2.0, 2.5], (6, 1))
    inertia[3] = [1.0, 1.0, 5.0]  # breaks the triangle inequality
    with pytest.raises(lieode.InvalidParameterError) as error:
        lieode.rigid_body_ensemble(inertia, rotors, omegas, [0.0, 1.0])
    assert error.value.body == 3 and error.value.parameter == "inertia"
    assert str(error.value).startswith("body 3:")
    omegas[4, 1] = np.nan
    with pytest.raises(lieode.NonFiniteError) as error:
        lieode.rigid_body_ensemble([1.0, 2.0, 2.5], rotors, omegas, [0.0, 1.0])
    assert error.value.body == 4 and error.value.t == 0.0
    rotors[2] = 0.0
    with pytest.raises(lieode.InvalidParameterError) as error:
        lieode.rigid_body_ensemble([1.0, 2.0, 2.5], rotors, omegas, [0.0, 1.0])
    assert error.value.body == 2


def test_the_lowest_failing_member_is_reported_whatever_the_threads():
    rotors, omegas = random_starts(64)
    omegas[[5, 20, 50]] *= 200.0  # these need many more steps
    for threads in (1, 2):
        with pytest.raises(lieode.IntegrationError) as error:
            lieode.rigid_body_ensemble([1.0, 2.0, 2.5], rotors, omegas, [0.0, 10.0], max_steps=200, threads=threads)
        assert error.value.body == 5 and error.value.t is not None


@pytest.mark.parametrize(
    "arguments, message",
    [
        (dict(rotors=np.ones((3, 3))), "rotors"),
        (dict(omegas=np.ones((2, 3))), "shapes"),
        (dict(inertia=np.ones((2, 2))), "inertia"),
        (dict(t_eval=[1.0, 0.0]), "non-decreasing"),
        (dict(t_eval=[0.0, np.inf]), "not finite"),
        (dict(method="nope"), "spiral_leapfrog"),
        (dict(threads=0), "threads"),
        (dict(torque=lieode.FieldTorque(damping=-1.0)), "damping"),
        (dict(torque=lieode.FieldTorque(offset=(0.0, 1.0))), "offset"),
    ],
)
def test_invalid_arguments_are_named(arguments, message):
    call = dict(inertia=[1.0, 2.0, 2.5], rotors=np.tile([1.0, 0, 0, 0], (3, 1)), omegas=np.ones((3, 3)), t_eval=[0.0, 1.0])
    call.update(arguments)
    t_eval = call.pop("t_eval")
    with pytest.raises(lieode.InvalidParameterError, match=message):
        lieode.rigid_body_ensemble(call.pop("inertia"), call.pop("rotors"), call.pop("omegas"), t_eval, **call)


def test_scalar_last_rotors_for_scipy_rotation():
    from scipy.spatial.transform import Rotation

    start = Rotation.from_rotvec([0.2, -0.1, 0.3])
    t = [0.0, 2.0]
    result = lieode.rigid_body_ensemble([1, 1, 1.6], start.as_quat(), [0.0, 0.0, 1.5], t, scalar_first=False)
    # A spin about the body's symmetry axis keeps its axis: R(t) = R₀ exp(1.5 t ê₃).
    expected = start * Rotation.from_rotvec([0.0, 0.0, 3.0])
    assert (Rotation.from_quat(result.rotors[0, -1]) * expected.inv()).magnitude() < 1e-9


def test_progress_reports_every_member_and_its_exceptions_come_out_unchanged(capsys):
    rotors, omegas = random_starts(200)
    t = [0.0, 20.0]
    calls = []
    lieode.rigid_body_ensemble([1.0, 2.0, 2.5], rotors, omegas, t, rtol=1e-13, atol=1e-13, progress=lambda d, n: calls.append((d, n)))
    assert calls[-1] == (200, 200)
    assert all(n == 200 for _, n in calls)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)

    class Stop(Exception):
        pass

    def stop(done, total):
        raise Stop(f"{done}/{total}")

    with pytest.raises(Stop):
        lieode.rigid_body_ensemble([1.0, 2.0, 2.5], rotors, omegas, t, progress=stop)

    lieode.rigid_body_ensemble([1.0, 2.0, 2.5], rotors[:5], omegas[:5], t, progress=True)
    assert "5/5" in capsys.readouterr().err


def test_ctrl_c_stops_a_long_ensemble():
    rotors, omegas = random_starts(64)
    sent = interrupt_after(0.1)
    with pytest.raises(KeyboardInterrupt):
        try:
            # Each member takes seconds at this tolerance over this span.
            lieode.rigid_body_ensemble([1.0, 2.0, 2.5], rotors, omegas, [0.0, 1.0e5], rtol=1e-13, atol=1e-13)
        finally:
            caught = time.perf_counter()
    # Polled every 50 ms, and running members stop at their next step.
    assert caught - sent[0] < 0.2


def test_the_dask_example_gives_the_serial_numbers_on_a_local_cluster():
    distributed = pytest.importorskip("dask.distributed")
    example = load_example("dask_ensemble")
    rotors, omegas = example.heavy_top_starts(300)
    serial = example.integrate_block(rotors, omegas)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            spread = example.integrate_on_cluster(client, rotors, omegas, blocks=5, threads=1)
    assert np.array_equal(serial[0], spread[0]) and np.array_equal(serial[1], spread[1])
