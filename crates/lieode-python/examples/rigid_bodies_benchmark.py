"""SPIRAL leapfrog on 10⁶ bodies stepped from Python against the same stepping in Rust.

Every row steps the same bodies (spheres under a constant force and body torque) with the
same method; the rows differ only in who drives the steps and where the loads come from:

- **Rust, one pass**: the core's step with a per-body model (`PerBody`), each body's loads
  evaluated inside its update — the fastest the library steps, no Python;
- **Rust, load buffers**: the core's two-pass step with the loads read from its load buffers,
  a loop in Rust — the array path's work without Python between the steps;
- **Python, load buffers**: ``bodies.step(dt, bodies.forces, bodies.torques)`` from a Python
  loop, the loads filled in place (no copy);
- **Python, arrays**: ``bodies.step(dt, forces, torques)`` with the user's own arrays (copied
  into the load buffers at the evaluation);
- **Python, field**: ``load_point()`` and a spring field computed by numpy each step, written
  into the load buffers (the numpy work is the user's, timed with the step);
- **Python, function**: ``bodies.run(dt, n, loads)`` with a function returning the constant
  arrays (one Python call per step; scalar-first rotors are copied for it), and the same with
  ``scalar_first=False`` (the rotors handed over as views).

The repeats are interleaved (one round runs every row once), and the table gives the median
ns per body-step with the ratio to "Rust, load buffers". The last line measures the copy
bandwidth (numpy copying a 48 MB array, the size of one step's loads).

    python crates/lieode-python/examples/rigid_bodies_benchmark.py [N] [steps] [rounds]
"""

import statistics
import sys
import time

import lieode
import numpy as np

# The sizes (set from the command line by main, or by a script importing this one).
N = 10**6
STEPS = 20
ROUNDS = 5
DT = 1e-4
FORCE, TORQUE = np.array([0.0, 0.0, -9.81]), np.array([0.01, -0.02, 0.005])


def bodies(scalar_first=True):
    rng = np.random.default_rng(1)
    q = rng.normal(size=(N, 4))
    q /= np.linalg.norm(q, axis=1)[:, None]
    if not scalar_first:
        q = np.roll(q, -1, axis=1)
    b = lieode.RigidBodies(
        "spiral_leapfrog", mass=1.0, inertia=0.4,
        positions=rng.uniform(-1, 1, (N, 3)), velocities=rng.normal(size=(N, 3)),
        rotors=q, omegas=rng.normal(size=(N, 3)), scalar_first=scalar_first,
    )
    b.run(DT, 1, loads())  # started, the load buffers hold the loads
    return b


def loads():
    return np.tile(FORCE, (N, 1)), np.tile(TORQUE, (N, 1))


def rust_fused(b):
    return b._core._rust_steps(STEPS, "fused", list(FORCE), list(TORQUE))


def rust_buffers(b):
    return b._core._rust_steps(STEPS, "in_place")


def python_buffers(b):
    forces, torques = b.forces, b.torques
    start = time.perf_counter()
    for _ in range(STEPS):
        b.step(DT, forces, torques)
    return time.perf_counter() - start


USER_LOADS = None  # the user's own arrays, made once


def python_arrays(b):
    forces, torques = USER_LOADS
    start = time.perf_counter()
    for _ in range(STEPS):
        b.step(DT, forces, torques)
    return time.perf_counter() - start


def python_field(b):
    forces, torques = b.forces, b.torques
    torques[:] = TORQUE
    start = time.perf_counter()
    for _ in range(STEPS):
        point = b.load_point()
        np.multiply(point.positions, -0.5, out=forces)
        forces[:, 2] -= 9.81
        b.step(DT, forces, torques)
    return time.perf_counter() - start


def python_function(b):
    def constant(t, x, v, q, w):
        return USER_LOADS

    start = time.perf_counter()
    b.run(DT, STEPS, constant)
    return time.perf_counter() - start


ROWS = [
    ("Rust, one pass (per-body model)", rust_fused, True),
    ("Rust, load buffers (two passes)", rust_buffers, True),
    ("Python, load buffers in place", python_buffers, True),
    ("Python, arrays (copied in)", python_arrays, True),
    ("Python, load_point + numpy field", python_field, True),
    ("Python, function (scalar-first rotors)", python_function, True),
    ("Python, function, scalar_first=False", python_function, False),
]


def copy_bandwidth():
    """GB/s of read + write copying one step's loads (N × 6 doubles), best of five."""
    a, b = np.ones((N, 6)), np.empty((N, 6))
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        np.copyto(b, a)
        best = min(best, time.perf_counter() - start)
    return 2 * a.nbytes / best / 1e9, best


def main():
    global N, STEPS, ROUNDS, USER_LOADS
    N = int(float(sys.argv[1])) if len(sys.argv) > 1 else N
    STEPS = int(sys.argv[2]) if len(sys.argv) > 2 else STEPS
    ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else ROUNDS
    USER_LOADS = loads()
    systems = {flag: bodies(flag) for flag in (True, False)}
    times = {name: [] for name, _, _ in ROWS}
    for _ in range(ROUNDS):
        for name, run, flag in ROWS:
            times[name].append(run(systems[flag]))
    reference = statistics.median(times[ROWS[1][0]])
    print(f"SPIRAL leapfrog, N = {N:.0e} bodies, {STEPS} steps × {ROUNDS} interleaved rounds")
    print()
    print("| driver | ns per body-step (median) | min–max | ÷ Rust, load buffers |")
    print("|---|---|---|---|")
    for name, _, _ in ROWS:
        t = times[name]
        ns = [1e9 * x / (N * STEPS) for x in t]
        print(
            f"| {name} | {statistics.median(ns):.1f} | {min(ns):.1f}–{max(ns):.1f} | "
            f"{statistics.median(t) / reference:.2f} |"
        )
    bandwidth, best = copy_bandwidth()
    print()
    print(
        f"numpy copy of one step's loads ({N * 48 / 1e6:.3g} MB): {1e3 * best:.3g} ms, "
        f"{bandwidth:.1f} GB/s read + write = {1e9 * best / N:.1f} ns per body"
    )


if __name__ == "__main__":
    main()
