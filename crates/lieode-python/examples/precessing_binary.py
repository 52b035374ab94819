"""numpy-quaternion's own test problem for ``integrate_angular_velocity`` (a precessing,
nutating binary's frame, exact rotor known), run by the peers and by lieode side by side.

    python crates/lieode-python/examples/precessing_binary.py            # t in [0, 1e4]
    python crates/lieode-python/examples/precessing_binary.py --t-end 200

Prints, per run: the wall time, the number of Python calls of Omega (callables) or the table
size, the largest rotation angle between the computed and the exact rotor over the output
times, and the largest |‖R‖ − 1|. Tolerance 1e-12 everywhere, as in the peer's test.
"""

import argparse
import math
import time

import numpy as np
import quaternion
import quaternionic

import lieode

# The problem's constants (numpy-quaternion's tests/test_quaternion.py,
# test_integrate_angular_velocity).
T2 = 10_000.0
OMEGA_ORB = 2 * math.pi * 100 / T2
OMEGA_PREC = 2 * math.pi * 10 / T2
ALPHA = 0.125 * math.pi
ALPHA_DOT = 2 * ALPHA / T2
NU = 0.2 * ALPHA
OMEGA_NU = OMEGA_PREC
X, Y, Z = quaternion.x, quaternion.y, quaternion.z
R_START = np.exp(-1.1 * ALPHA * X / 2)


def exact(t):
    """The frame: a precessing, opening orbit with a nutation about y."""
    return (
        R_START
        * np.exp(OMEGA_PREC * t * Z / 2)
        * np.exp((ALPHA + ALPHA_DOT * t) * X / 2)
        * np.exp(-OMEGA_PREC * t * Z / 2)
        * np.exp(OMEGA_ORB * t * Z / 2)
        * np.exp(NU * np.cos(OMEGA_NU * t) * Y / 2)
    )


def exact_rate(t):
    """dR/dt, term by term from the product above."""
    moving = R_START.inverse() * exact(t)
    precession = np.exp(OMEGA_PREC * t * Z / 2)
    nutation = np.exp(NU * np.cos(OMEGA_NU * t) * Y / 2)
    return R_START * (
        0.5 * OMEGA_PREC * Z * moving
        + 0.5 * ALPHA_DOT * precession * X * precession.conj() * moving
        + 0.5 * (OMEGA_ORB - OMEGA_PREC) * moving * nutation.inverse() * Z * nutation
        + 0.5 * (-OMEGA_NU * NU * np.sin(OMEGA_NU * t)) * moving * Y
    )


def omega(t):
    """The inertial angular velocity Ω = 2 Ṙ R⁻¹."""
    return (2 * exact_rate(t) * exact(t).inverse()).vec


class Counted:
    """Omega(t), counting its calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, t):
        self.calls += 1
        return omega(t)


def report(name, seconds, calls, t, rotors):
    """One table row: the errors of float rotors (N, 4) at the times t against the exact frame."""
    exact_rotors = quaternion.as_float_array(np.array([exact(ti) for ti in t]))
    errors = [
        quaternion.rotation_intrinsic_distance(
            quaternion.quaternion(*e), quaternion.quaternion(*(r / np.linalg.norm(r)))
        )
        for e, r in zip(exact_rotors, rotors)
    ]
    norm = np.max(np.abs(np.linalg.norm(rotors, axis=1) - 1.0))
    print(f"| {name} | {seconds:.3f} | {calls} | {max(errors):.2e} | {norm:.1e} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--t-end", type=float, default=T2, help="end time (the peer's: 1e4)")
    parser.add_argument(
        "--points-per-unit", type=float, default=20.0,
        help="table points per unit time (the issue's table: 200 001 points on [0, 1e4])",
    )
    args = parser.parse_args()
    t_end = args.t_end
    R0 = exact(0.0)
    print(f"precessing binary, t in [0, {t_end:g}], tolerance 1e-12")
    print("| run | seconds | Omega calls or table points | max angle error | max abs(norm - 1) |")
    print("|---|---|---|---|---|")

    for formulation in lieode.FORMULATIONS:
        counted = Counted()
        start = time.perf_counter()
        t, R = lieode.integrate_angular_velocity(
            counted, 0.0, t_end, R0=R0, formulation=formulation, as_float=True
        )
        report(f"lieode, callable, {formulation}", time.perf_counter() - start,
               counted.calls, t, R)

    counted = Counted()
    start = time.perf_counter()
    t, R = quaternion.integrate_angular_velocity(counted, 0.0, t_end, R0=R0)
    report("numpy-quaternion, callable", time.perf_counter() - start, counted.calls, t,
           quaternion.as_float_array(R))

    n = int(args.points_per_unit * t_end) + 1
    t_table = np.linspace(0.0, t_end, n)
    v = np.array([omega(ti) for ti in t_table])
    for formulation in lieode.FORMULATIONS:
        start = time.perf_counter()
        R = lieode.from_angular_velocity(
            v, t_table, R0=quaternion.as_float_array(R0), formulation=formulation,
            as_float=True,
        )
        report(f"lieode, table, {formulation}", time.perf_counter() - start, n, t_table, R)
    start = time.perf_counter()
    R = quaternionic.array.from_angular_velocity(
        v, t_table, R0=quaternion.as_float_array(R0)
    ).ndarray
    report("quaternionic, table", time.perf_counter() - start, n, t_table, R)


if __name__ == "__main__":
    main()
