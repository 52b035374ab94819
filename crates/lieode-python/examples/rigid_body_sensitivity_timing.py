"""The cost of lieode.rigid_body_sensitivities against the plain run: one body under a torque
with an offset force, damping and a body torque, by a catalogue method at a fixed step — the
``f64`` run (``rigid_body_ensemble`` with one member, the same method and step), the run with
9 directions (the start rotor, the start angular velocity, the moments) and with 19 (also the
torque's offset, force, damping and body torque).

    python crates/lieode-python/examples/rigid_body_sensitivity_timing.py [--repeats 7] [--steps 10000]

Each figure is the best of the repeats (the three runs alternate, so they see the same machine
load), in milliseconds, with the ratio to the plain run.
"""

import argparse
import time

import numpy as np

import lieode

INERTIA = np.array([1.0, 1.6, 2.1])
R0 = np.array([0.9, 0.1, -0.3, 0.2]) / np.linalg.norm([0.9, 0.1, -0.3, 0.2])
OMEGA0 = np.array([0.7, -1.1, 0.4])
TORQUE = lieode.FieldTorque(offset=(0.1, -0.05, 0.2), lab_force=(0.0, 0.0, -2.0),
                            damping=0.05, body_torque=(0.02, 0.0, 0.01))
DT = 1e-3
ALL = ("R0", "omega0", "inertia", "offset", "lab_force", "damping", "body_torque")


def timed(run):
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--steps", type=int, default=10_000)
    args = parser.parse_args()
    n = args.steps
    print(f"{n} steps of {DT:g}, best of {args.repeats}")
    print("| method | f64 (ms) | 9 directions (ms) | 19 directions (ms) |")
    print("|---|---|---|---|")
    for method in ("spiral_leapfrog", "spiral", "rk4"):
        def plain():
            lieode.rigid_body_ensemble(INERTIA[None, :], R0[None, :], OMEGA0[None, :],
                                       [0.0, n * DT], torque=TORQUE, method=method, dt=DT)

        def nine():
            lieode.rigid_body_sensitivities(INERTIA, R0, OMEGA0, DT, n, method=method,
                                            torque=TORQUE, every=n)

        def nineteen():
            lieode.rigid_body_sensitivities(INERTIA, R0, OMEGA0, DT, n, method=method,
                                            torque=TORQUE, with_respect_to=ALL, every=n)

        best = [min(timed(run) for _ in range(args.repeats)) for run in (plain, nine, nineteen)]
        p, d9, d19 = (1e3 * b for b in best)
        print(f"| {method} | {p:.2f} | {d9:.1f} ({d9 / p:.0f}×) | {d19:.1f} ({d19 / p:.0f}×) |")


if __name__ == "__main__":
    main()
