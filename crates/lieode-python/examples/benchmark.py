"""The Python package against the peers users would otherwise pick, side by side in one run
(contenders interleaved, each repeated; the best time of the repeats is reported, since this
machine's speed drifts by about ±20 % between runs).

    python crates/lieode-python/examples/benchmark.py              # the documented table
    python crates/lieode-python/examples/benchmark.py --quick      # small sizes, a smoke run

Rows:
1. a tabulated angular velocity (numpy-quaternion's precessing binary, t ∈ [0, 10⁴], 200 001
   points, tolerance 1e-12): lieode against quaternionic and numpy-quaternion;
2. the same angular velocity as a Python callable: lieode against numpy-quaternion;
3. ``solve_ivp`` with a Python right-hand side (Arenstorf's orbit, DOP853): lieode against SciPy
   at equal error;
4. 10⁶ SPIRAL leapfrog bodies stepped from Python against the same steps taken in Rust alone;
5. an ensemble of heavy tops (``rigid_body_ensemble``, all cores) against SciPy's DOP853 on the
   ambient quaternion/angular-velocity ODE, one member after another, at equal error.

Prints a markdown table: time, work (calls, points or body-steps), error, speed-up.
"""

import argparse
import time

import numpy as np
import quaternion
import quaternionic

import lieode
import precessing_binary as binary


def best_of(repeats, runs):
    """Runs every contender of ``runs`` (name → callable returning a result) once per round,
    interleaved, for ``repeats`` rounds: name → (best seconds, last result)."""
    best = {name: (float("inf"), None) for name in runs}
    for _ in range(repeats):
        for name, run in runs.items():
            start = time.perf_counter()
            result = run()
            seconds = time.perf_counter() - start
            best[name] = (min(best[name][0], seconds), result)
    return best


def rotor_errors(t, rotors):
    """The largest rotation angle from the exact frame, and the largest |‖R‖ − 1|."""
    exact = quaternion.as_float_array(np.array([binary.exact(ti) for ti in t]))
    norms = np.linalg.norm(rotors, axis=1)
    unit = rotors / norms[:, None]
    # The angle between unit rotors, 2 atan2(|ā b|_vec, |ā b|_scalar), via the chord (accurate
    # near zero): |a − ±b| = 2 sin(θ/4).
    chord = np.minimum(
        np.linalg.norm(unit - exact, axis=1), np.linalg.norm(unit + exact, axis=1)
    )
    angle = 4.0 * np.arcsin(np.minimum(chord / 2.0, 1.0))
    return float(angle.max()), float(np.abs(norms - 1.0).max())


def row(table, name, seconds, work, error, norm, baseline=None):
    speedup = "" if baseline is None else f"{baseline / seconds:.0f}×"
    norm_text = "" if norm is None else f"{norm:.1e}"
    table.append(f"| {name} | {seconds:.3f} | {work} | {error:.2e} | {norm_text} | {speedup} |")


def tabulated(table, t_end, repeats):
    n = int(20 * t_end) + 1
    t = np.linspace(0.0, t_end, n)
    v = np.array([binary.omega(ti) for ti in t])
    R0 = quaternion.as_float_array(binary.exact(0.0))
    runs = {
        "lieode": lambda: lieode.from_angular_velocity(v, t, R0=R0, as_float=True),
        "quaternionic": lambda: quaternionic.array.from_angular_velocity(v, t, R0=R0).ndarray,
        "numpy-quaternion": lambda: quaternion.as_float_array(
            quaternion.integrate_angular_velocity((t, v), 0.0, t_end, R0=binary.exact(0.0))[1]
        ),
    }
    best = best_of(repeats, runs)
    ours = best["lieode"][0]
    for name in runs:
        seconds, R = best[name]
        error, norm = rotor_errors(t, R)
        label = f"table ω, {name}" + (" (lifted DOP853)" if name == "lieode" else "")
        row(table, label, seconds, f"{n} points", error, norm, None if name == "lieode" else seconds)
        if name != "lieode":
            table[-1] = table[-1].rsplit("|", 2)[0] + f"| {seconds / ours:.0f}× slower |"


def callable_omega(table, t_end, repeats, peer_repeats):
    R0 = binary.exact(0.0)
    ours = best_of(repeats, {
        "lieode": lambda: lieode.integrate_angular_velocity(
            binary.Counted(), 0.0, t_end, R0=R0, as_float=True
        ),
    })["lieode"]
    peer = best_of(peer_repeats, {
        "numpy-quaternion": lambda: quaternion.integrate_angular_velocity(
            binary.Counted(), 0.0, t_end, R0=R0
        ),
    })["numpy-quaternion"]
    # Count the calls of one run of each (the counters are per run).
    counted = binary.Counted()
    lieode.integrate_angular_velocity(counted, 0.0, t_end, R0=R0, as_float=True)
    our_calls = counted.calls
    counted = binary.Counted()
    quaternion.integrate_angular_velocity(counted, 0.0, t_end, R0=R0)
    peer_calls = counted.calls
    t, R = ours[1]
    error, norm = rotor_errors(t, R)
    row(table, "callable ω, lieode (lifted DOP853)", ours[0], f"{our_calls} calls", error, norm)
    t, R = peer[1]
    error, norm = rotor_errors(t, quaternion.as_float_array(R))
    row(table, "callable ω, numpy-quaternion", peer[0], f"{peer_calls} calls", error, norm)
    table[-1] = table[-1].rsplit("|", 2)[0] + f"| {peer[0] / ours[0]:.0f}× slower |"


def arenstorf(table, tolerance, repeats):
    """Arenstorf's orbit with the same Python right-hand side, DOP853 at rtol = atol =
    ``tolerance`` in both: the error at the period, the evaluations and the time."""
    from scipy.integrate import solve_ivp as scipy_solve_ivp

    import solve_ivp_benchmark as orbit

    best = best_of(repeats, {
        "lieode": lambda: orbit.run(lieode.solve_ivp, tolerance),
        "scipy": lambda: orbit.run(scipy_solve_ivp, tolerance),
    })
    ours = best["lieode"]
    for name, label in (("lieode", "lieode.solve_ivp"), ("scipy", "scipy solve_ivp")):
        seconds, (error, nfev, _) = best[name]
        row(table, f"Arenstorf, {label}, DOP853 at {tolerance:g}", seconds, f"{nfev} calls",
            error, None)
    table[-1] = table[-1].rsplit("|", 2)[0] + f"| {best['scipy'][0] / ours[0]:.1f}× slower |"


def rigid_bodies(table, bodies, repeats):
    """SPIRAL leapfrog on ``bodies`` spheres under constant loads: ``RigidBodies.step`` from a
    Python loop with the loads in the library's buffers, against the same steps in a Rust loop
    (the rigid-bodies benchmark's two reference rows; it has the other drivers)."""
    import rigid_bodies_benchmark as spiral

    spiral.N, spiral.STEPS = bodies, 20
    system = spiral.bodies()
    rust, python = float("inf"), float("inf")
    for _ in range(repeats):  # interleaved; each run times its own steps
        rust = min(rust, spiral.rust_buffers(system))
        python = min(python, spiral.python_buffers(system))
    steps = bodies * spiral.STEPS
    for name, seconds in (("SPIRAL bodies, Rust loop", rust), ("SPIRAL bodies, Python loop", python)):
        table.append(
            f"| {name} | {seconds:.3f} | {steps:.1e} body-steps, {1e9 * seconds / steps:.1f} "
            f"ns each |  |  | {'' if name.endswith('Rust loop') else f'{seconds / rust:.2f}× Rust'} |"
        )


def ensemble(table, members, repeats):
    """Heavy tops of the Dask example, t ∈ [0, 5], every member: lieode's ensemble (lifted
    DOP853 at 1e-10) against SciPy's DOP853 member by member on q̇ = ½ q ⊗ ω, J ω̇ = τ − ω × Jω
    at a tolerance giving the same error, both against a tight SciPy reference."""
    from scipy.integrate import solve_ivp

    import dask_ensemble as heavy

    rotors, omegas = heavy.heavy_top_starts(members)
    J = np.array(heavy.PROBLEM["inertia"])
    offset = np.array(heavy.PROBLEM["torque"].offset)
    force = np.array(heavy.PROBLEM["torque"].lab_force)
    t_end = float(heavy.PROBLEM["t_eval"][-1])

    def rhs(_t, x):
        w0, x0, y0, z0 = x[:4]
        omega = x[4:]
        # Rᵀ f by the rotor's matrix, then the torque χ × Rᵀ f.
        R = np.array([
            [1 - 2 * (y0 * y0 + z0 * z0), 2 * (x0 * y0 - w0 * z0), 2 * (x0 * z0 + w0 * y0)],
            [2 * (x0 * y0 + w0 * z0), 1 - 2 * (x0 * x0 + z0 * z0), 2 * (y0 * z0 - w0 * x0)],
            [2 * (x0 * z0 - w0 * y0), 2 * (y0 * z0 + w0 * x0), 1 - 2 * (x0 * x0 + y0 * y0)],
        ])
        tau = np.cross(offset, R.T @ force)
        wx, wy, wz = omega
        dq = 0.5 * np.array([
            -x0 * wx - y0 * wy - z0 * wz,
            w0 * wx + y0 * wz - z0 * wy,
            w0 * wy - x0 * wz + z0 * wx,
            w0 * wz + x0 * wy - y0 * wx,
        ])
        return np.concatenate([dq, (tau - np.cross(omega, J * omega)) / J])

    def scipy_members(tolerance):
        return np.array([
            solve_ivp(rhs, (0.0, t_end), np.concatenate([q, w]), method="DOP853",
                      rtol=tolerance, atol=tolerance).y[:4, -1]
            for q, w in zip(rotors, omegas)
        ])

    reference = scipy_members(1e-13)
    reference /= np.linalg.norm(reference, axis=1, keepdims=True)

    def error(final):
        unit = final / np.linalg.norm(final, axis=1, keepdims=True)
        chord = np.minimum(np.linalg.norm(unit - reference, axis=1),
                           np.linalg.norm(unit + reference, axis=1))
        return float((4.0 * np.arcsin(chord / 2.0)).max())

    best = best_of(repeats, {
        "lieode": lambda: lieode.rigid_body_ensemble(
            heavy.PROBLEM["inertia"], rotors, omegas, [0.0, t_end],
            torque=heavy.PROBLEM["torque"]).rotors[:, -1],
        "scipy": lambda: scipy_members(1e-10),
    })
    ours, theirs = best["lieode"], best["scipy"]
    row(table, f"ensemble, lieode ({members} heavy tops, all cores)", ours[0],
        f"{members} members", error(ours[1]), None)
    row(table, "ensemble, SciPy DOP853 member by member", theirs[0], f"{members} members",
        error(theirs[1]), None)
    table[-1] = table[-1].rsplit("|", 2)[0] + f"| {theirs[0] / ours[0]:.0f}× slower |"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    t_end = 50.0 if args.quick else binary.T2
    table = [
        "| run | seconds (best) | work | error | max abs(‖R‖ − 1) | relative |",
        "|---|---|---|---|---|---|",
    ]
    tabulated(table, t_end, args.repeats)
    callable_omega(table, t_end, args.repeats, 1 if not args.quick else args.repeats)
    arenstorf(table, 1e-10, args.repeats)
    rigid_bodies(table, 10_000 if args.quick else 1_000_000, args.repeats)
    ensemble(table, 20 if args.quick else 400, args.repeats)
    print("\n".join(table))


if __name__ == "__main__":
    main()
